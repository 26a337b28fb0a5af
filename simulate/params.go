package simulate

import (
	"fmt"
	"math"
	"strconv"

	"github.com/hetgain/hetgain/aggregators"
	"gonum.org/v1/gonum/mat"
)

// copyReward returns a copy of r that shares no slice with it, after
// checking that it can be evaluated on N x m matrices.
func copyReward(r *aggregators.Reward, m int) (aggregators.Reward, error) {
	if r == nil {
		return aggregators.Reward{}, fmt.Errorf("simulate: nil reward: %w", ErrConfig)
	}
	c := *effortReward(r, r.Budget)
	if c.Outer == nil || len(c.Inner) == 0 {
		return c, fmt.Errorf("simulate: reward needs an outer and an inner operator: %w", ErrConfig)
	}
	if len(c.Inner) != 1 && len(c.Inner) != m {
		return c, fmt.Errorf("simulate: reward has %d inner operators for %d tasks (need 1 or %d): %w",
			len(c.Inner), m, m, ErrConfig)
	}
	for j, op := range c.Inner {
		if op == nil {
			return c, fmt.Errorf("simulate: inner operator %d is nil: %w", j, ErrConfig)
		}
		if err := aggregators.Check(op, []float64{0}); err != nil {
			return c, fmt.Errorf("simulate: inner operator %d: %w: %w", j, err, ErrConfig)
		}
	}
	if err := aggregators.Check(c.Outer, []float64{0}); err != nil {
		return c, fmt.Errorf("simulate: outer operator: %w: %w", err, ErrConfig)
	}
	return c, nil
}

// effortReward returns a copy of r, with its own Inner slice, whose
// Budget is budget: r.Budget for a plain copy, or for TeamReward the
// row-sum bound of the environment's effort matrices (the Budget a user
// set on the configured reward is not applied by the environments).
func effortReward(r *aggregators.Reward, budget float64) *aggregators.Reward {
	return &aggregators.Reward{Outer: r.Outer, Inner: append([]aggregators.Operator(nil), r.Inner...), Budget: budget}
}

// probeReward returns an error wrapping kind (ErrConfig at construction,
// ErrParam in SetParams) if r cannot score the efforts of n agents that
// all put their whole effort on one task, for each of the m tasks, so
// that an inner operator whose scores the outer one does not take (a
// negative lse(-1) score under powersum(2), say), or an exponent that
// overflows the reward (powersum(1000) of a score of 2), or a reward above
// aggregators.MaxInput in magnitude (whose squares and returns overflow
// training), shows when the reward is set rather than at the first step. An environment calls it
// only if it can reach those allocations (the matrix game, Tag,
// Multi-goal-capture with at most 2 goals). The budget is not applied, as
// the environments do not apply it.
func probeReward(r aggregators.Reward, n, m int, kind error) error {
	a := mat.NewDense(n, m, nil)
	for j := 0; j < m; j++ {
		for i := 0; i < n; i++ {
			if j > 0 {
				a.Set(i, j-1, 0)
			}
			a.Set(i, j, 1)
		}
		if err := probeAt(r, a, fmt.Sprintf("with every agent on task %d", j), kind); err != nil {
			return err
		}
	}
	return nil
}

// probeAllOnes is probeReward's check at the capture matrix of ones, every
// agent on every task, which Tag reaches (a chaser keeps every capture).
func probeAllOnes(r aggregators.Reward, n, m int, kind error) error {
	a := mat.NewDense(n, m, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < m; j++ {
			a.Set(i, j, 1)
		}
	}
	return probeAt(r, a, "with every agent on every task", kind)
}

// probeAt returns an error wrapping kind, saying where (the efforts a), if
// r cannot score a or its reward there is above aggregators.MaxInput in
// magnitude. The budget is not applied.
func probeAt(r aggregators.Reward, a *mat.Dense, where string, kind error) error {
	r.Budget = math.Inf(1)
	v, err := r.Value(a)
	if err != nil {
		return fmt.Errorf("reward %v %s: %w: %w", &r, where, err, kind)
	}
	if math.Abs(v) > aggregators.MaxInput {
		return fmt.Errorf("reward %v %s is %v, above %g in magnitude (aggregators.MaxInput), too large to learn from: %w: %w",
			&r, where, v, aggregators.MaxInput, aggregators.ErrRange, kind)
	}
	return nil
}

// rewardParamNames lists the parameters of r: "U.t" if U is parametric,
// "T.t" for a single parametric inner operator, "T0.t", "T1.t", ... for
// per-task parametric inner operators.
func rewardParamNames(r *aggregators.Reward) []string {
	var names []string
	if _, ok := r.Outer.(aggregators.Parametric); ok {
		names = append(names, "U.t")
	}
	if len(r.Inner) == 1 {
		if _, ok := r.Inner[0].(aggregators.Parametric); ok {
			names = append(names, "T.t")
		}
		return names
	}
	for j, op := range r.Inner {
		if _, ok := op.(aggregators.Parametric); ok {
			names = append(names, "T"+strconv.Itoa(j)+".t")
		}
	}
	return names
}

// rewardOperator returns the operator that the reward parameter name
// belongs to, and where: -1 for U, j for the inner operator Inner[j].
func rewardOperator(r *aggregators.Reward, name string) (aggregators.Parametric, int, bool) {
	if name == "U.t" {
		p, ok := r.Outer.(aggregators.Parametric)
		return p, -1, ok
	}
	if name == "T.t" && len(r.Inner) == 1 {
		p, ok := r.Inner[0].(aggregators.Parametric)
		return p, 0, ok
	}
	if len(r.Inner) > 1 && len(name) > 3 && name[0] == 'T' && name[len(name)-2:] == ".t" {
		j, err := strconv.Atoi(name[1 : len(name)-2])
		if err == nil && j >= 0 && j < len(r.Inner) && strconv.Itoa(j) == name[1:len(name)-2] {
			p, ok := r.Inner[j].(aggregators.Parametric)
			return p, j, ok
		}
	}
	return nil, 0, false
}

// withRewardParam returns r with the named parameter set to v (r itself is
// not changed), or an error wrapping ErrParam.
func withRewardParam(r aggregators.Reward, name string, v float64) (aggregators.Reward, error) {
	p, j, ok := rewardOperator(&r, name)
	if !ok {
		return r, fmt.Errorf("no parameter %q: %w", name, ErrParam)
	}
	q, err := p.WithParam(v)
	if err != nil {
		return r, fmt.Errorf("parameter %q = %v: %v: %w", name, v, err, ErrParam)
	}
	c := *effortReward(&r, r.Budget)
	if j < 0 {
		c.Outer = q
	} else {
		c.Inner[j] = q
	}
	return c, nil
}

// rewardSlots returns the tangent slots of the reward parameters for the
// selected parameter names: slotU for U and slotT[j] for task j (-1 where
// not selected).
func rewardSlots(r *aggregators.Reward, m int, selected []string) (slotU int, slotT []int) {
	slotU = -1
	slotT = make([]int, m)
	for j := range slotT {
		slotT[j] = -1
	}
	for k, name := range selected {
		if _, j, ok := rewardOperator(r, name); ok {
			switch {
			case j < 0:
				slotU = k
			case len(r.Inner) == 1:
				for jj := range slotT {
					slotT[jj] = k
				}
			default:
				slotT[j] = k
			}
		}
	}
	return slotU, slotT
}

// checkParamList returns an error wrapping ErrParam if p has not one value
// per name or names a parameter twice, for SetParams of the environment env.
func checkParamList(env string, p Params) error {
	if len(p.Names) != len(p.Values) {
		return fmt.Errorf("simulate: %s: %d names and %d values: %w", env, len(p.Names), len(p.Values), ErrParam)
	}
	seen := make(map[string]bool, len(p.Names))
	for _, n := range p.Names {
		if seen[n] {
			return fmt.Errorf("simulate: %s: parameter %q given twice: %w", env, n, ErrParam)
		}
		seen[n] = true
	}
	return nil
}

// selectParams maps the requested parameter names to their positions in
// all, with an error wrapping ErrParam for an unknown or repeated name.
func selectParams(env string, all Params, names []string) error {
	seen := make(map[string]bool, len(names))
	for _, n := range names {
		if all.Index(n) < 0 {
			return fmt.Errorf("simulate: %s has no parameter %q (have %v): %w", env, n, all.Names, ErrParam)
		}
		if seen[n] {
			return fmt.Errorf("simulate: parameter %q selected twice: %w", n, ErrParam)
		}
		seen[n] = true
	}
	return nil
}
