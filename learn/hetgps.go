package learn

import (
	"bytes"
	"encoding/gob"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/hetgain/hetgain/simulate"
)

// Schedule says when HetGPS trains the agents and when it steps the
// environment parameters θ (the train_agents and train_env functions of
// the paper's Algorithm 1).
type Schedule int

const (
	// Concurrent trains the agents at every iteration and steps θ at every
	// AgentIters-th iteration (the zero value).
	Concurrent Schedule = iota
	// Alternated repeats cycles of AgentIters iterations that train the
	// agents only, followed by EnvIters iterations that step θ only.
	Alternated
)

// String returns "concurrent" or "alternated".
func (s Schedule) String() string {
	switch s {
	case Concurrent:
		return "concurrent"
	case Alternated:
		return "alternated"
	}
	return fmt.Sprintf("Schedule(%d)", int(s))
}

// ParseSchedule reads "concurrent" or "alternated" (any case).
func ParseSchedule(s string) (Schedule, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "concurrent":
		return Concurrent, nil
	case "alternated", "alternate", "alternating":
		return Alternated, nil
	}
	return 0, fmt.Errorf("learn: schedule %q: want concurrent or alternated: %w", s, ErrConfig)
}

// ThetaParam is one environment parameter searched by HetGPS: a name of
// the environment's simulate.Params (such as "T.t" or "U.t"), its initial
// value and optional bounds.
//
// With Low = High = 0 the parameter is unbounded and optimised directly.
// Otherwise HetGPS optimises a raw value ρ and sets
//
//	θ = Low + (High−Low)·(tanh(ρ)+1)/2,
//
// the squash of the paper's implementation (power-sum: Low 0.3, High 6),
// so θ stays in the open interval (Low, High). ρ is kept in [−15, 15],
// where θ is still strictly inside it. HetGPSSpec.Check refuses bounds
// with Init not strictly between them, bounds so wide that High−Low
// overflows or the squash cannot start θ within 1e-9·max(1, |Init|) of
// Init, and bounds so narrow (a few units in the last place) that
// rounding would put θ on one of them.
//
// With ClampLow or ClampHigh non-zero, θ is then clamped into [ClampLow,
// ClampHigh], as the reference implementation clamps power-sum's
// exponents to [0.4, 5.9] after its squash to (0.3, 6). The clamp makes
// its ends absorbing: beyond them ∂θ/∂ρ = 0, so the gain's gradient no
// longer moves ρ, and once ρ has passed an end θ stays there for the rest
// of the run (Adam's momentum, decaying, takes ρ a little further). This
// applies to unbounded parameters too (θ = ρ clamped). Check refuses a
// clamp with ClampLow >= ClampHigh, Init not strictly between them, or,
// for a bounded parameter, ends outside [Low, High].
type ThetaParam struct {
	Name      string
	Init      float64
	Low, High float64
	// ClampLow and ClampHigh are left out of the JSON when both are 0 (no
	// clamp), so a specification written before they existed reads the
	// same.
	ClampLow, ClampHigh float64 `json:",omitempty"`
}

// Bounded reports whether the parameter goes through the squash.
func (p ThetaParam) Bounded() bool { return p.Low != 0 || p.High != 0 }

// Clamped reports whether θ is clamped into [ClampLow, ClampHigh].
func (p ThetaParam) Clamped() bool { return p.ClampLow != 0 || p.ClampHigh != 0 }

// String describes the parameter as "T.t from 1 in (0.3, 6), clamped to
// [0.4, 5.9]", leaving out the bounds and the clamp it does not have.
func (p ThetaParam) String() string {
	s := fmt.Sprintf("%s from %v", p.Name, p.Init)
	if p.Bounded() {
		s += fmt.Sprintf(" in (%v, %v)", p.Low, p.High)
	}
	if p.Clamped() {
		if p.Bounded() {
			s += ","
		}
		s += fmt.Sprintf(" clamped to [%v, %v]", p.ClampLow, p.ClampHigh)
	}
	return s
}

// rawLimit bounds the raw value of a bounded parameter: tanh(15) is
// 1 − 1.9e-13, so θ stays strictly inside (Low, High).
const rawLimit = 15

// value maps the raw value ρ to θ: the squash, then the clamp.
func (p ThetaParam) value(raw float64) float64 {
	v := p.squash(raw)
	if p.Clamped() {
		v = math.Max(p.ClampLow, math.Min(p.ClampHigh, v))
	}
	return v
}

// extremes returns the least and the greatest value θ can take, and
// whether it has them: the squash's at the raw limits for a bounded
// parameter, the clamp's ends for one only clamped.
func (p ThetaParam) extremes() (lo, hi float64, ok bool) {
	switch {
	case p.Bounded():
		return p.value(-rawLimit), p.value(rawLimit), true
	case p.Clamped():
		return p.ClampLow, p.ClampHigh, true
	}
	return 0, 0, false
}

// squash maps ρ to θ before the clamp.
func (p ThetaParam) squash(raw float64) float64 {
	if !p.Bounded() {
		return raw
	}
	return p.Low + (p.High-p.Low)*(math.Tanh(raw)+1)/2
}

// slope is dθ/dρ: 0 beyond the clamp, as torch.clamp's gradient (at its
// ends, the squash's).
func (p ThetaParam) slope(raw float64) float64 {
	if p.Clamped() {
		if v := p.squash(raw); v < p.ClampLow || v > p.ClampHigh {
			return 0
		}
	}
	if !p.Bounded() {
		return 1
	}
	th := math.Tanh(raw)
	return (p.High - p.Low) * (1 - th*th) / 2
}

// raw maps θ (inside the bounds) to ρ.
func (p ThetaParam) raw(v float64) float64 {
	if !p.Bounded() {
		return v
	}
	return clampRaw(math.Atanh(2*(v-p.Low)/(p.High-p.Low) - 1))
}

// boundsProblem describes what is wrong with the bounds or the clamp of
// a parameter with finite Init, Low, High, ClampLow and ClampHigh (see
// ThetaParam), or returns "" if nothing is.
func (p ThetaParam) boundsProblem() string {
	switch {
	case !p.Bounded():
		return p.clampProblem()
	case p.Low >= p.High:
		return fmt.Sprintf("Low %v >= High %v", p.Low, p.High)
	case !(p.Init > p.Low && p.Init < p.High):
		return fmt.Sprintf("Init %v outside (Low, High) = (%v, %v)", p.Init, p.Low, p.High)
	case math.IsInf(p.High-p.Low, 0) || math.Abs(p.squash(p.raw(p.Init))-p.Init) > 1e-9*math.Max(1, math.Abs(p.Init)):
		return fmt.Sprintf("(Low, High) = (%v, %v) is too wide for the squash to start at Init %v", p.Low, p.High, p.Init)
	case !(p.squash(-rawLimit) > p.Low && p.squash(rawLimit) < p.High):
		return fmt.Sprintf("(Low, High) = (%v, %v) is too narrow for the squash to keep θ strictly inside", p.Low, p.High)
	}
	return p.clampProblem()
}

// clampProblem describes what is wrong with the clamp, or returns "".
func (p ThetaParam) clampProblem() string {
	switch {
	case !p.Clamped():
		return ""
	case p.ClampLow >= p.ClampHigh:
		return fmt.Sprintf("ClampLow %v >= ClampHigh %v", p.ClampLow, p.ClampHigh)
	case !(p.Init > p.ClampLow && p.Init < p.ClampHigh):
		return fmt.Sprintf("Init %v outside the clamp (%v, %v)", p.Init, p.ClampLow, p.ClampHigh)
	case p.Bounded() && (p.ClampLow < p.Low || p.ClampHigh > p.High):
		return fmt.Sprintf("clamp [%v, %v] reaches outside the bounds (Low, High) = (%v, %v)",
			p.ClampLow, p.ClampHigh, p.Low, p.High)
	}
	return ""
}

func clampRaw(r float64) float64 { return math.Max(-rawLimit, math.Min(rawLimit, r)) }

// HetGPSSpec describes a run of Heterogeneity Gain Parameter Search (the
// paper's Algorithm 1): a heterogeneous and a homogeneous team trained by
// PPO as in a paired run (Run), and environment parameters θ moved by
// gradient ascent on the heterogeneity gain G^θ(π_het) − G^θ(π_hom),
// differentiated through the simulator.
type HetGPSSpec struct {
	// Run is the paired run: environment (U and T parametric, such as
	// "softmax(0)"), team configuration and seed. Run.Iterations is the
	// number of HetGPS iterations, agent and environment iterations
	// together.
	Run RunSpec
	// Params are the parameters searched; the environment's other
	// parameters keep their values.
	Params []ThetaParam
	// Schedule with AgentIters (x) and EnvIters (y) says which iterations
	// train the agents and which step θ (see Plan). Zero means 1.
	Schedule             Schedule
	AgentIters, EnvIters int
	// WarmUp is the number of iterations at the start that train the
	// agents only, before the Schedule begins (default 0). θ then first
	// moves on the gain of teams that have learned something rather than
	// on the differences between two freshly initialised teams.
	WarmUp int
	// Descent minimises the gain instead of maximising it.
	Descent bool
	// DescentFloor, with Descent, holds θ still in an environment
	// iteration whose measured gain (GradGain) is at or below 0: the
	// gradient is measured and logged, but θ and its optimiser's state do
	// not change. The theory's gain is never negative (a heterogeneous
	// team can act as the homogeneous one), so a negative learned gain is
	// the heterogeneous team lagging behind the reward, not a θ with less
	// gain, and descending on it drives θ to where the lag pays. Check
	// refuses DescentFloor without Descent.
	DescentFloor bool
	// SGD takes plain gradient steps ρ ← ρ ± ThetaLR·∇ instead of Adam's.
	SGD bool
	// SumDifference steps θ's two raw values ρ₁, ρ₂ (Params must have
	// exactly two) in the basis of their sum and difference,
	// (ρ₁ + ρ₂)/√2 and (ρ₁ − ρ₂)/√2, instead of in ρ₁ and ρ₂ themselves.
	// The basis is orthonormal, so plain gradient steps (SGD) are the
	// same in either; Adam's are not. Adam steps each coordinate by about
	// ThetaLR whatever the size of its gradient, so in this basis a
	// difference of the two gradients that keeps its sign moves the
	// parameters apart steadily even where the part they share is larger
	// and of either sign. Power-sum T and U from 1 (the sum) are such a
	// case: there ∂gain/∂τ_T − ∂gain/∂τ_U ≥ 0 against identical agents,
	// while each derivative alone has either sign (see reproduce's
	// power-sum preset and REPRODUCTIONS.md).
	SumDifference bool
	// RelativeGain steps θ on the gain relative to the size of the teams'
	// returns, (G_het − G_hom)/S with S = (|G_het| + |G_hom|)/2 over the
	// gradient episodes (simulate.TeamReturns.RelativeGain), instead of on
	// the gain itself, the paper's objective. The sign is the gain's, but
	// the relative gain does not grow with the reward's scale: where the
	// teams' returns grow with a parameter, as a power-sum U's with its
	// exponent once scores exceed 1, a gain positive by chance no longer
	// pulls that parameter up with it. It has a ceiling of its own: it
	// approaches 2 wherever the homogeneous team's return is a vanishing
	// share of the heterogeneous team's, however small both are, and an
	// ascent is drawn there (in Multi-goal-capture with power-sum T and U,
	// to both exponents near 6, where a team that does not concentrate
	// its efforts earns almost nothing; see REPRODUCTIONS.md). GradGain
	// in the log stays the gain; ThetaGrad is the gradient of the
	// relative gain.
	RelativeGain bool
	// ThetaLR is the learning rate of θ (default 0.05: with Adam, about
	// the change of a raw value per environment step).
	ThetaLR float64
	// GradEpisodes is the batch of episodes on which the gain and its
	// gradient are computed (default 32).
	GradEpisodes int
	// DeterministicGrad computes the gain and its gradient with the teams'
	// deterministic policies (the modes of their distributions) instead of
	// sampled actions (the default, as the paper's rollouts). Sampled
	// actions make the two teams' efforts differ by noise alone where
	// their policies agree, as when the search starts from a reward that
	// does not depend on the allocation (softmax(0) under softmax(0): both
	// means), and Adam turns that noise into full steps of θ. With the
	// modes, two teams that act alike have a gain and a gradient of
	// exactly 0; and in the matrix game, where a homogeneous team's
	// agents all choose the same efforts, ∂gain/∂τ_T of a softmax T is the
	// spread of the heterogeneous team's efforts (a weighted variance),
	// never negative.
	DeterministicGrad bool
}

// HetGPSDefaultThetaLR is the default ThetaLR.
const HetGPSDefaultThetaLR = 0.05

func (s HetGPSSpec) withDefaults() HetGPSSpec {
	s.Run = s.Run.withDefaults()
	setInt(&s.AgentIters, 1)
	setInt(&s.EnvIters, 1)
	setFloat(&s.ThetaLR, HetGPSDefaultThetaLR)
	setInt(&s.GradEpisodes, 32)
	s.Params = append([]ThetaParam(nil), s.Params...)
	return s
}

// Check returns an error wrapping ErrConfig that names the first invalid
// setting of s. It checks the parameter names against the environment,
// so it builds one.
func (s HetGPSSpec) Check() error {
	_, err := s.gradEnv()
	return err
}

// Plan returns what HetGPS iteration iter (counted from 1) does: train
// the agents, step θ, or both.
//
// Iterations 1 to WarmUp train the agents only; the schedule counts its
// iterations from the next one. Concurrent: the agents train at every
// iteration, θ steps at every x-th (x = AgentIters). Alternated: cycles of
// x iterations that train the agents, then y = EnvIters iterations that
// step θ.
func (s HetGPSSpec) Plan(iter int) (agents, env bool) {
	x, y := s.AgentIters, s.EnvIters
	if x < 1 {
		x = 1
	}
	if y < 1 {
		y = 1
	}
	if iter < 1 {
		return false, false
	}
	if iter <= s.WarmUp {
		return true, false
	}
	iter -= s.WarmUp
	if s.Schedule == Alternated {
		p := iter - 1
		if x <= math.MaxInt-y { // else a cycle is longer than any run
			p %= x + y
		}
		return p < x, p >= x
	}
	return true, iter%x == 0
}

// firstEnvIteration returns the first iteration at which Plan steps θ
// (WarmUp >= 0), and false if that is beyond math.MaxInt.
func (s HetGPSSpec) firstEnvIteration() (int, bool) {
	x := s.AgentIters
	if x < 1 {
		x = 1
	}
	if s.Schedule == Alternated {
		if x == math.MaxInt {
			return 0, false
		}
		x++
	}
	if s.WarmUp > math.MaxInt-x {
		return 0, false
	}
	return s.WarmUp + x, true
}

// check validates s (with defaults) without an environment.
func (s HetGPSSpec) check() error {
	if err := s.Run.Check(); err != nil {
		return err
	}
	bad := func(format string, args ...interface{}) error {
		return fmt.Errorf("learn: HetGPS: "+format+": %w", append(args, ErrConfig)...)
	}
	if s.Schedule != Concurrent && s.Schedule != Alternated {
		return bad("Schedule = %d, want Concurrent or Alternated", int(s.Schedule))
	}
	if s.AgentIters < 0 || s.EnvIters < 0 {
		return bad("AgentIters %d, EnvIters %d, want >= 1", s.AgentIters, s.EnvIters)
	}
	if s.WarmUp < 0 {
		return bad("WarmUp = %d, want >= 0", s.WarmUp)
	}
	if first, ok := s.firstEnvIteration(); !ok {
		return bad("%d iterations with WarmUp %d and AgentIters %d: θ would first step after iteration math.MaxInt; want a shorter warm-up or fewer agent iterations",
			s.Run.Iterations, s.WarmUp, s.AgentIters)
	} else if first > s.Run.Iterations {
		return bad("%d iterations with WarmUp %d: θ would first step at iteration %d; want more iterations or a shorter warm-up",
			s.Run.Iterations, s.WarmUp, first)
	}
	if s.DescentFloor && !s.Descent {
		return bad("DescentFloor without Descent (the floor holds a descent at a gain of 0)")
	}
	if s.GradEpisodes < 0 {
		return bad("GradEpisodes = %d, want >= 1", s.GradEpisodes)
	}
	if math.IsNaN(s.ThetaLR) || math.IsInf(s.ThetaLR, 0) || s.ThetaLR < 0 {
		return bad("ThetaLR = %v, want a finite number > 0", s.ThetaLR)
	}
	if len(s.Params) == 0 {
		return bad("no parameters to search (Params is empty)")
	}
	if s.SumDifference && len(s.Params) != 2 {
		return bad("SumDifference with %d parameters, want exactly 2", len(s.Params))
	}
	seen := map[string]bool{}
	for _, p := range s.Params {
		if p.Name == "" {
			return bad("a parameter without a name")
		}
		if seen[p.Name] {
			return bad("parameter %q listed twice", p.Name)
		}
		seen[p.Name] = true
		for _, v := range []float64{p.Init, p.Low, p.High, p.ClampLow, p.ClampHigh} {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return bad("parameter %q: Init %v, Low %v, High %v, ClampLow %v, ClampHigh %v must be finite",
					p.Name, p.Init, p.Low, p.High, p.ClampLow, p.ClampHigh)
			}
		}
		if msg := p.boundsProblem(); msg != "" {
			return bad("parameter %q: %s", p.Name, msg)
		}
	}
	return nil
}

// gradEnv checks s and builds its gradient environment with θ at Init.
func (s HetGPSSpec) gradEnv() (simulate.DifferentiableEnv, error) {
	s = s.withDefaults()
	if err := s.check(); err != nil {
		return nil, err
	}
	env, err := s.Run.maker().make(s.GradEpisodes)
	if err != nil {
		return nil, err
	}
	denv, ok := env.(simulate.DifferentiableEnv)
	if !ok {
		return nil, fmt.Errorf("learn: HetGPS: environment %s has no return gradient (not a simulate.DifferentiableEnv): %w",
			env.Name(), ErrConfig)
	}
	all := env.Params()
	for _, p := range s.Params {
		if all.Index(p.Name) < 0 {
			return nil, fmt.Errorf("learn: HetGPS: environment %s has no parameter %q (it has %v): %w",
				env.Name(), p.Name, all.Names, ErrConfig)
		}
		if s.Run.Maker == nil && s.Run.Env.Params.Index(p.Name) >= 0 {
			return nil, fmt.Errorf("learn: HetGPS: parameter %q is searched (θ) and also fixed in Run.Env.Params: %w", p.Name, ErrConfig)
		}
	}
	if err := checkThetaRange(s, denv); err != nil {
		return nil, err
	}
	if err := denv.SetParams(s.params(s.initRaw())); err != nil {
		return nil, fmt.Errorf("learn: HetGPS: initial θ: %v: %w", err, ErrConfig)
	}
	return denv, nil
}

// checkThetaRange returns an error wrapping ErrConfig if env refuses a
// value that a bounded or clamped parameter of s can reach (its
// extremes, the others at their Init), as when bounds reach past a
// physical parameter's domain: the search would stop there with an error
// of the environment.
func checkThetaRange(s HetGPSSpec, env simulate.Env) error {
	start := s.params(s.initRaw())
	for k, p := range s.Params {
		lo, hi, ok := p.extremes()
		if !ok {
			continue
		}
		for _, v := range []float64{lo, hi} {
			try := simulate.Params{Names: start.Names, Values: append([]float64(nil), start.Values...)}
			try.Values[k] = v
			if err := env.SetParams(try); err != nil {
				return fmt.Errorf("learn: HetGPS: %v can reach %s = %v, which the environment refuses: %v: %w", p, p.Name, v, err, ErrConfig)
			}
		}
	}
	return nil
}

// Names returns the names of the searched parameters.
func (s HetGPSSpec) Names() []string {
	n := make([]string, len(s.Params))
	for k, p := range s.Params {
		n[k] = p.Name
	}
	return n
}

func (s HetGPSSpec) initRaw() []float64 {
	r := make([]float64, len(s.Params))
	for k, p := range s.Params {
		r[k] = p.raw(p.Init)
	}
	return r
}

// params returns θ for the raw values as simulate.Params.
func (s HetGPSSpec) params(raw []float64) simulate.Params {
	p := simulate.Params{Names: s.Names(), Values: make([]float64, len(raw))}
	for k, r := range raw {
		p.Values[k] = s.Params[k].value(r)
	}
	return p
}

// HetGPSStats is one row of a HetGPS run's log.
type HetGPSStats struct {
	// PairStats are the statistics of the agents' iteration: Iteration is
	// the HetGPS iteration and Frames those each team collected so far.
	// At iterations that do not train the agents (Alternated), no
	// rollouts are collected: HetReturn, HomReturn, Gain and the teams'
	// UpdateStats are NaN, and so are the evaluations unless it is the
	// last iteration. Run.EvalEvery
	// counts the iterations that train the agents, not HetGPS iterations:
	// under Alternated with x = 2, y = 1 and EvalEvery 2, the evaluations
	// fall at HetGPS iterations 2, 5, 8, ...
	//
	// Everything the row measures (returns, evaluations, GradGain,
	// ThetaGrad) is measured before θ steps, at the θ of the row before
	// (the start θ in the first row), not at this row's Theta. So the
	// last row's EvalGain is at the θ before the last step; to score the
	// teams at the final θ, call Evaluate of HetGPSResult.Pair.
	PairStats
	// Theta is θ after the iteration, in the order of the spec's Params.
	Theta []float64
	// ThetaGrad is ∂gain/∂θ measured at this iteration (before the step;
	// with RelativeGain, the relative gain's gradient), with respect to θ
	// itself, not its raw value; NaN if the iteration is not one of the
	// schedule's environment iterations.
	ThetaGrad []float64
	// GradGain is the gain measured with the gradient: the mean return of
	// the heterogeneous team minus that of the homogeneous team over
	// GradEpisodes episodes with the training-time (stochastic) policies
	// (their modes with DeterministicGrad); NaN if the iteration is not
	// one of the schedule's environment iterations.
	GradGain float64
	// EnvStep reports whether θ stepped: false at iterations that are not
	// environment iterations, and at those the DescentFloor held still.
	EnvStep bool
}

// HetGPSResult is what a HetGPS run produced.
type HetGPSResult struct {
	// Pair holds the trained teams, in environments with the final θ
	// (the last row's evaluation is at the θ before it: HetGPSStats).
	Pair *Pair
	// Log has one row per iteration, from the first (including rows read
	// back from a resumed run's log).
	Log []HetGPSStats
	// ResumedAt is the iteration the run resumed from (0 for a fresh run).
	ResumedAt int
	// Names are the names of the searched parameters.
	Names []string
	// Theta is the final θ.
	Theta []float64
}

// hetgpsHeader returns the header of a HetGPS log for the parameters.
func hetgpsHeader(names []string) []string {
	h := append([]string(nil), pairHeader...)
	h = append(h, "grad_gain")
	for _, n := range names {
		h = append(h, "theta_"+n)
	}
	for _, n := range names {
		h = append(h, "grad_"+n)
	}
	return append(h, "env_step")
}

func (s HetGPSStats) row() []string {
	r := s.PairStats.row()
	r = append(r, formatFloat(s.GradGain))
	for _, v := range s.Theta {
		r = append(r, formatFloat(v))
	}
	for _, v := range s.ThetaGrad {
		r = append(r, formatFloat(v))
	}
	return append(r, strconv.FormatBool(s.EnvStep))
}

// parseHetGPSRow reads a row of a HetGPS log with the parameters names,
// refusing values a search cannot have written (see parsePairRow): the
// training returns are NaN at iterations that do not train the agents;
// θ is finite; the gain measured with the gradient and the gradient are
// finite, or all NaN at iterations that do not measure them, and then θ
// did not step. The error names the column.
func parseHetGPSRow(r []string, names []string) (HetGPSStats, error) {
	var s HetGPSStats
	np, k := len(pairHeader), len(names)
	if len(r) != np+2+2*k {
		return s, fmt.Errorf("HetGPS log row with %d fields, want %d: %w", len(r), np+2+2*k, ErrCheckpoint)
	}
	var err error
	if s.PairStats, err = parsePairRow(r[:np], true); err != nil {
		return s, err
	}
	header := hetgpsHeader(names)
	bad := func(col int, want string) error {
		return fmt.Errorf("column %s is %q, want %s: %w", header[col], r[col], want, ErrCheckpoint)
	}
	vals := make([]float64, 1+2*k)
	for j := range vals {
		if vals[j], err = parseFloat(r[np+j]); err != nil {
			return s, bad(np+j, "a number")
		}
	}
	s.GradGain, s.Theta, s.ThetaGrad = vals[0], vals[1:1+k], vals[1+k:]
	if s.EnvStep, err = strconv.ParseBool(r[len(r)-1]); err != nil {
		return s, bad(len(r)-1, "true or false")
	}
	measured := !math.IsNaN(s.GradGain)
	for j, v := range vals {
		switch {
		case math.IsInf(v, 0):
			return s, bad(np+j, "a finite number")
		case j >= 1 && j <= k && math.IsNaN(v):
			return s, bad(np+j, "a finite number")
		case j > k && math.IsNaN(v) && measured:
			return s, bad(np+j, "a finite number, as grad_gain is")
		case j > k && !math.IsNaN(v) && !measured:
			return s, bad(np+j, "NaN, as grad_gain is (no gradient measured)")
		}
	}
	if s.EnvStep && !measured {
		return s, bad(len(r)-1, "false, as grad_gain is NaN (no gradient measured)")
	}
	return s, nil
}

// stepTheta steps h.raw on the gradient h.grad (of the loss the
// optimisers minimise) by SGD or Adam, in the sum-and-difference basis if
// the spec says so. Rotating both vectors into that basis and back is
// its own inverse, so the optimiser's state lives in the rotated
// coordinates throughout.
func (h *hetgps) stepTheta() {
	if h.spec.SumDifference {
		toSumDifference(h.raw)
		toSumDifference(h.grad)
	}
	if h.spec.SGD {
		sgdStep(h.raw, h.grad, h.spec.ThetaLR)
	} else {
		h.opt.step(h.raw, h.grad)
	}
	if h.spec.SumDifference {
		toSumDifference(h.raw)
	}
}

// toSumDifference maps the pair (a, b) in v to ((a+b)/√2, (a−b)/√2), an
// orthonormal change of basis that is its own inverse. It panics unless
// len(v) is 2.
func toSumDifference(v []float64) {
	if len(v) != 2 {
		panic("learn: toSumDifference of a vector of length other than 2")
	}
	r := 1 / math.Sqrt2
	v[0], v[1] = r*(v[0]+v[1]), r*(v[0]-v[1])
}

// hetgpsRecord is the specification a HetGPS run directory keeps: the
// spec with Iterations on top, so that a run can be extended.
type hetgpsRecord struct {
	Algorithm            string
	Iterations           int
	Run                  RunSpec
	Params               []ThetaParam
	Schedule             string
	AgentIters, EnvIters int
	WarmUp               int `json:",omitempty"`
	Descent, SGD         bool
	SumDifference        bool `json:",omitempty"`
	RelativeGain         bool `json:",omitempty"`
	DescentFloor         bool `json:",omitempty"`
	ThetaLR              float64
	GradEpisodes         int
	DeterministicGrad    bool `json:",omitempty"`
}

func (s HetGPSSpec) record() hetgpsRecord {
	run := s.Run
	run.Iterations = 0
	return hetgpsRecord{Algorithm: "HetGPS", Iterations: s.Run.Iterations, Run: run, Params: s.Params,
		Schedule: s.Schedule.String(), AgentIters: s.AgentIters, EnvIters: s.EnvIters, WarmUp: s.WarmUp,
		Descent: s.Descent, DescentFloor: s.DescentFloor, SGD: s.SGD, SumDifference: s.SumDifference,
		RelativeGain: s.RelativeGain, ThetaLR: s.ThetaLR, GradEpisodes: s.GradEpisodes, DeterministicGrad: s.DeterministicGrad}
}

// spec returns the search that rec records, with its schedule parsed.
func (rec hetgpsRecord) spec(schedule Schedule) HetGPSSpec {
	spec := HetGPSSpec{Run: rec.Run, Params: rec.Params, Schedule: schedule, AgentIters: rec.AgentIters,
		EnvIters: rec.EnvIters, WarmUp: rec.WarmUp, Descent: rec.Descent, DescentFloor: rec.DescentFloor,
		SGD: rec.SGD, SumDifference: rec.SumDifference, RelativeGain: rec.RelativeGain, ThetaLR: rec.ThetaLR, GradEpisodes: rec.GradEpisodes,
		DeterministicGrad: rec.DeterministicGrad}
	spec.Run.Iterations = rec.Iterations
	return spec
}

// ReadHetGPSSpec returns the search that the HetGPS run directory dir
// records in its spec.json (with the defaults filled in, as the run had
// them), so that a run can be read back without the command or program
// that started it. It needs no checkpoint: a finished run kept with its
// log alone is enough. If dir has no spec.json, the error wraps
// fs.ErrNotExist; if it is not a HetGPS run's, or records an invalid
// search, ErrCheckpoint.
func ReadHetGPSSpec(dir string) (HetGPSSpec, error) {
	var rec hetgpsRecord
	path, data, decoded, err := readSpecFile(dir, &rec)
	if err != nil {
		return HetGPSSpec{}, err
	}
	bad := func() (HetGPSSpec, error) {
		return HetGPSSpec{}, fmt.Errorf("learn: %s is not the specification of a HetGPS run: %w", path, ErrCheckpoint)
	}
	if !decoded || rec.Algorithm != "HetGPS" {
		return bad()
	}
	schedule, err := ParseSchedule(rec.Schedule)
	if err != nil {
		return bad()
	}
	spec := rec.spec(schedule)
	if err := spec.Check(); err != nil {
		return HetGPSSpec{}, fmt.Errorf("learn: %s: %s: %w", path, strings.TrimPrefix(err.Error(), "learn: "), ErrCheckpoint)
	}
	// The decoder takes keys in any case and ignores what it cannot place
	// in a nested map; what it read must also be what the file says, as
	// CheckHetGPSDir will compare them.
	if err := sameSpec(data, mustJSON(spec.withDefaults().record())); err != nil {
		return HetGPSSpec{}, fmt.Errorf("learn: %s does not record a HetGPS run as hetgain writes it (%s): %w",
			path, strings.TrimPrefix(err.Error(), "learn: "), ErrCheckpoint)
	}
	return spec, nil
}

// hetgpsState is the part of a checkpoint that HetGPS adds to the teams'
// (checkpoint.Extra): the HetGPS iteration, the raw values of θ and the
// state of their optimiser.
type hetgpsState struct {
	Iteration int
	Raw       []float64
	M, V      []float64
	Step      int
}

// check returns an error wrapping ErrCheckpoint if s cannot have been
// written by a search: a negative iteration or Adam step, a NaN or
// infinite raw value or moment, or a negative second moment.
func (s *hetgpsState) check() error {
	if s.Iteration < 0 || s.Step < 0 {
		return fmt.Errorf("iteration %d, Adam step %d: %w", s.Iteration, s.Step, ErrCheckpoint)
	}
	for j := range s.Raw {
		r, m, v := s.Raw[j], s.M[j], s.V[j]
		if !finite(r) || !finite(m) || !finite(v) || v < 0 {
			return fmt.Errorf("parameter %d: raw value %v, Adam moments %v and %v: %w", j, r, m, v, ErrCheckpoint)
		}
	}
	return nil
}

// hetgps is a running search.
type hetgps struct {
	spec  HetGPSSpec
	pair  *Pair
	genv  [2]simulate.DifferentiableEnv // gradient episodes of het and hom
	raw   []float64
	opt   *adam
	iter  int
	grad  []float64 // scratch: gradient with respect to raw values
	theta simulate.Params
}

// HetGPS runs the search of spec for spec.Run.Iterations iterations, or
// resumes it from the checkpoint in opt.Dir. Each iteration does, as the
// spec's Plan says:
//
//  1. environment step: the gain G^θ(π_het) − G^θ(π_hom) and its gradient
//     with respect to θ, by simulate.GainGradientConcurrent on GradEpisodes
//     episodes of two separate environments (one per team, played at the
//     same time) with the teams' training-time
//     (stochastic, reparameterised) policies and a seed drawn from
//     (Run.Team.Seed, iteration);
//  2. agent step: one PPO iteration of both teams (Pair.Iterate) in the
//     environments with the current θ;
//  3. environment step: θ moves up the gradient (down with Descent,
//     unless DescentFloor holds it because the gain measured in step 1 is
//     at or below 0), through the squash of bounded parameters, by Adam
//     (or SGD), and is set in both teams' environments.
//
// So an iteration that does both follows Algorithm 1: the gradient is
// taken with the policies that collect the iteration's rollouts, and the
// agents train on rollouts of the θ before the step. An iteration that
// only steps θ (Alternated) collects no rollouts.
//
// opt works as for Train: log.csv (the columns of a paired run, then
// grad_gain, theta_<name>..., grad_<name>..., env_step), checkpoints
// holding θ's raw values and optimiser state, Stop, and Progress, which
// receives the PairStats part of each row (see HetGPSWithProgress for
// the whole row). A resumed run gives the same log and θ as an
// uninterrupted one; a directory already past spec.Run.Iterations is
// returned as it is, with its spec.json, as Train does.
func HetGPS(spec HetGPSSpec, opt Options) (*HetGPSResult, error) {
	return HetGPSWithProgress(spec, opt, nil)
}

// HetGPSWithProgress is HetGPS that also calls progress, if not nil,
// with every new row of the log.
func HetGPSWithProgress(spec HetGPSSpec, opt Options, progress func(HetGPSStats)) (*HetGPSResult, error) {
	every, err := opt.checkpointEvery()
	if err != nil {
		return nil, err
	}
	h, err := newHetGPS(spec)
	if err != nil {
		return nil, err
	}
	spec = h.spec
	names := spec.Names()
	res := &HetGPSResult{Pair: h.pair, Names: names}
	st, ck, rows, err := openRun(opt.Dir, spec.record(), hetgpsHeader(names), h.restore, h.pair.het, h.pair.hom)
	if err != nil {
		return nil, err
	}
	defer st.close()
	for _, r := range rows {
		row, err := parseHetGPSRow(r, names)
		if err != nil {
			return nil, fmt.Errorf("learn: resume from %s: %w", opt.Dir, err)
		}
		res.Log = append(res.Log, row)
	}
	res.ResumedAt = h.iter
	res.Theta = h.theta.Values
	save := func() error {
		extra, err := h.state()
		if err != nil {
			return err
		}
		return st.save(&checkpoint{Version: 1, Spec: mustJSON(spec.record()), Iteration: h.iter,
			Teams: []teamState{h.pair.het.state(), h.pair.hom.state()}, Extra: extra})
	}
	if ck == nil {
		if err := save(); err != nil {
			return res, err
		}
	}
	for h.iter < spec.Run.Iterations {
		if opt.Stop != nil && opt.Stop() {
			if err := save(); err != nil {
				return res, err
			}
			return res, fmt.Errorf("learn: HetGPS stopped after iteration %d of %d: %w", h.iter, spec.Run.Iterations, ErrStopped)
		}
		row, err := h.iterate()
		if err != nil {
			return res, err
		}
		res.Log = append(res.Log, row)
		res.Theta = h.theta.Values
		if err := st.append(row.row()); err != nil {
			return res, err
		}
		if opt.Progress != nil {
			opt.Progress(row.PairStats)
		}
		if progress != nil {
			progress(row)
		}
		if h.iter%every == 0 || h.iter == spec.Run.Iterations {
			if err := save(); err != nil {
				return res, err
			}
		}
	}
	return res, nil
}

func newHetGPS(spec HetGPSSpec) (*hetgps, error) {
	var genv [2]simulate.DifferentiableEnv
	for k := range genv {
		env, err := spec.gradEnv()
		if err != nil {
			return nil, err
		}
		genv[k] = env
	}
	spec = spec.withDefaults()
	pair, err := NewPair(spec.Run)
	if err != nil {
		return nil, err
	}
	h := &hetgps{spec: spec, pair: pair, genv: genv, raw: spec.initRaw(),
		opt: newAdam(len(spec.Params), spec.ThetaLR), grad: make([]float64, len(spec.Params))}
	return h, h.setTheta()
}

// setTheta sets θ of the raw values in every environment.
func (h *hetgps) setTheta() error {
	h.theta = h.spec.params(h.raw)
	for k, v := range h.theta.Values {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("learn: HetGPS: %s = %v at iteration %d: %w", h.theta.Names[k], v, h.iter, ErrDiverged)
		}
	}
	for _, env := range h.genv {
		if err := env.SetParams(h.theta); err != nil {
			return fmt.Errorf("learn: HetGPS: θ = %v: %v: %w", h.theta, err, ErrDiverged)
		}
	}
	if err := h.pair.SetEnvParams(h.theta); err != nil {
		return fmt.Errorf("learn: HetGPS: θ = %v: %v: %w", h.theta, err, ErrDiverged)
	}
	return nil
}

func (h *hetgps) state() ([]byte, error) {
	s := hetgpsState{Iteration: h.iter, Raw: h.raw, M: h.opt.m, V: h.opt.v, Step: h.opt.t}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(s); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// restore sets the search's state to that of the checkpoint ck (its
// Extra), which must be at the iteration ck covers.
func (h *hetgps) restore(ck *checkpoint) error {
	var s hetgpsState
	if err := gob.NewDecoder(bytes.NewReader(ck.Extra)).Decode(&s); err != nil {
		return fmt.Errorf("learn: HetGPS state in the checkpoint: %v: %w", err, ErrCheckpoint)
	}
	if s.Iteration != ck.Iteration {
		return fmt.Errorf("learn: HetGPS checkpoint covers %d iterations of the log but holds the search at iteration %d: %w",
			ck.Iteration, s.Iteration, ErrCheckpoint)
	}
	k := len(h.raw)
	if len(s.Raw) != k || len(s.M) != k || len(s.V) != k {
		return fmt.Errorf("learn: HetGPS checkpoint holds %d parameters, the run searches %d: %w", len(s.Raw), k, ErrCheckpoint)
	}
	if err := s.check(); err != nil {
		return fmt.Errorf("learn: HetGPS state in the checkpoint: %w", err)
	}
	h.iter = s.Iteration
	copy(h.raw, s.Raw)
	copy(h.opt.m, s.M)
	copy(h.opt.v, s.V)
	h.opt.t = s.Step
	return h.setTheta()
}

// LoadHetGPS returns the teams of the HetGPS run in dir as its checkpoint
// holds them, without training, with the checkpoint's θ set in their
// environments, and that θ. It returns an error wrapping fs.ErrNotExist
// if dir holds no checkpoint, and one wrapping ErrCheckpoint if the
// checkpoint cannot be read or is not a HetGPS run's (LoadPair reads
// those of paired runs).
func LoadHetGPS(dir string) (*Pair, simulate.Params, error) {
	var rec hetgpsRecord
	ck, err := loadCheckpoint(dir, "load HetGPS", "a HetGPS run", &rec)
	if err != nil {
		return nil, simulate.Params{}, err
	}
	path := filepath.Join(dir, checkpointFile)
	schedule, err := ParseSchedule(rec.Schedule)
	if err != nil || rec.Algorithm != "HetGPS" || ck.Extra == nil {
		return nil, simulate.Params{}, fmt.Errorf("learn: load HetGPS: %s is not the checkpoint of a HetGPS run: %w", path, ErrCheckpoint)
	}
	spec := rec.spec(schedule)
	h, err := newHetGPS(spec)
	if err != nil {
		return nil, simulate.Params{}, fmt.Errorf("learn: load HetGPS: %s: %w", path, err)
	}
	if err := h.pair.restore(ck); err != nil {
		return nil, simulate.Params{}, err
	}
	if err := h.restore(ck); err != nil {
		return nil, simulate.Params{}, err
	}
	return h.pair, h.theta.Clone(), nil
}

// seed returns the seed of the gradient episodes of iteration iter.
func (h *hetgps) seed(iter int) int64 {
	r := newRNG(h.spec.Run.Team.Seed, streamHetGPS, uint64(iter))
	return int64(r.next() >> 1)
}

// streamHetGPS is the random stream of the gradient episodes (apart from
// the streams of team.go).
const streamHetGPS uint64 = 0x4e7695

// gainGradient measures the gain and the gradient θ steps on with the
// teams' current policies, stochastic unless DeterministicGrad: the
// gain's gradient, or with RelativeGain the relative gain's.
func (h *hetgps) gainGradient(iter int) (float64, []float64, error) {
	sample := !h.spec.DeterministicGrad
	het, hom := h.pair.het.Policy(sample), h.pair.hom.Policy(sample)
	if h.spec.RelativeGain {
		tr, err := simulate.TeamReturnGradients(h.genv[0], h.genv[1], het, hom, h.seed(iter), h.theta.Names)
		if err != nil {
			return 0, nil, fmt.Errorf("learn: HetGPS gradient at iteration %d: %w", iter, err)
		}
		_, grad := tr.RelativeGain()
		return tr.Het - tr.Hom, grad, nil
	}
	g, grad, err := simulate.GainGradientConcurrent(h.genv[0], h.genv[1], het, hom, h.seed(iter), h.theta.Names)
	if err != nil {
		return 0, nil, fmt.Errorf("learn: HetGPS gradient at iteration %d: %w", iter, err)
	}
	return g, grad, nil
}

// rawGradient returns the gain and its gradient with respect to θ and to
// the raw values (the chain rule through the squash).
func (h *hetgps) rawGradient(iter int) (gain float64, grad, rawGrad []float64, err error) {
	gain, grad, err = h.gainGradient(iter)
	if err != nil {
		return 0, nil, nil, err
	}
	rawGrad = make([]float64, len(grad))
	for j, g := range grad {
		if math.IsNaN(g) || math.IsInf(g, 0) {
			return 0, nil, nil, fmt.Errorf("learn: HetGPS: gradient %v with respect to %s at iteration %d: %w",
				g, h.theta.Names[j], iter, ErrDiverged)
		}
		rawGrad[j] = g * h.spec.Params[j].slope(h.raw[j])
	}
	return gain, grad, rawGrad, nil
}

// iterate runs one HetGPS iteration.
func (h *hetgps) iterate() (HetGPSStats, error) {
	start := time.Now()
	iter := h.iter + 1
	agents, envStep := h.spec.Plan(iter)
	k := len(h.raw)
	row := HetGPSStats{GradGain: math.NaN(), ThetaGrad: make([]float64, k)}
	var rawGrad []float64
	if envStep {
		var grad []float64
		var err error
		if row.GradGain, grad, rawGrad, err = h.rawGradient(iter); err != nil {
			return row, err
		}
		copy(row.ThetaGrad, grad)
	} else {
		for j := range row.ThetaGrad {
			row.ThetaGrad[j] = math.NaN()
		}
	}
	framesBefore := h.pair.het.frames
	if agents {
		ps, err := h.pair.Iterate()
		if err != nil {
			return row, err
		}
		row.PairStats = ps
	} else {
		nan := math.NaN()
		row.PairStats = PairStats{HetReturn: nan, HomReturn: nan, Gain: nan, HetUpdate: nanUpdate(), HomUpdate: nanUpdate()}
		row.PairStats.clearEval()
	}
	if iter == h.spec.Run.Iterations && math.IsNaN(row.EvalGain) {
		if err := h.pair.setEval(&row.PairStats, h.pair.evalSeed(iter)); err != nil {
			return row, err
		}
	}
	if envStep && h.spec.DescentFloor && row.GradGain <= 0 {
		envStep = false // the floor: θ holds still
	}
	row.EnvStep = envStep
	if envStep {
		for j, g := range rawGrad {
			h.grad[j] = g
			if !h.spec.Descent {
				h.grad[j] = -g // the optimisers minimise
			}
		}
		h.stepTheta()
		for j, p := range h.spec.Params {
			if p.Bounded() {
				h.raw[j] = clampRaw(h.raw[j])
			}
		}
		if err := h.setTheta(); err != nil {
			return row, err
		}
	}
	h.iter = iter
	row.Iteration = iter
	row.Frames = h.pair.het.frames
	row.Theta = append([]float64(nil), h.theta.Values...)
	row.Seconds = time.Since(start).Seconds()
	row.FPS = float64(2*(h.pair.het.frames-framesBefore)) / row.Seconds
	return row, nil
}

// GradGains returns the GradGain column of the log (NaN at iterations
// that are not environment iterations; finite where DescentFloor held θ
// still).
func (r *HetGPSResult) GradGains() []float64 {
	g := make([]float64, len(r.Log))
	for k, s := range r.Log {
		g[k] = s.GradGain
	}
	return g
}

// ThetaSeries returns θ_name after each iteration of the log, or an
// error if the run did not search name.
func (r *HetGPSResult) ThetaSeries(name string) ([]float64, error) {
	j := -1
	for k, n := range r.Names {
		if n == name {
			j = k
		}
	}
	if j < 0 {
		return nil, fmt.Errorf("learn: HetGPS searched %v, not %q: %w", r.Names, name, ErrConfig)
	}
	v := make([]float64, len(r.Log))
	for k, s := range r.Log {
		v[k] = s.Theta[j]
	}
	return v, nil
}

// ReadHetGPSLog reads the log.csv of the HetGPS run in dir: every row
// written so far, including rows after the last checkpoint, and the names
// of the searched parameters (from the header). A last line cut short
// (one without its newline) is dropped. Its errors are ReadLog's, and a
// row with a θ that is not finite, or a gradient or a step without the
// gain measured with it, is refused too (see HetGPSStats for the missing
// values).
func ReadHetGPSLog(dir string) ([]HetGPSStats, []string, error) {
	path := filepath.Join(dir, logFile)
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	lines := logLines(data)
	header := strings.Split(lines[0], ",")
	var names []string
	for _, h := range header {
		if strings.HasPrefix(h, "theta_") {
			names = append(names, strings.TrimPrefix(h, "theta_"))
		}
	}
	rows, err := splitLogRows(path, lines, hetgpsHeader(names))
	if err != nil {
		return nil, nil, fmt.Errorf("%w (not a HetGPS log)", err)
	}
	var log []HetGPSStats
	for k, r := range rows {
		row, err := parseHetGPSRow(r, names)
		if err != nil {
			return nil, nil, fmt.Errorf("learn: %s, line %d: %w", path, k+2, err)
		}
		log = append(log, row)
	}
	return log, names, nil
}
