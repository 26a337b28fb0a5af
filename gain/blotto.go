package gain

import (
	"fmt"
	"math"
	"math/big"
	"sort"

	"github.com/hetgain/hetgain/aggregators"
)

// MaxBlottoCombinations is the largest number of level combinations Blotto
// enumerates: the product over battlefields of one plus the number of
// distinct non-negative troop counts of the adversary.
const MaxBlottoCombinations = 1 << 22

// Blotto returns the optimal rewards of Team Colonel Blotto against a fixed
// stochastic adversary (the paper's appendix "Colonel Blotto & Level-Based
// Foraging"): n colonels with one unit of troops each, and one battlefield
// per element of fields, so that M = len(fields) and
//
//	R(A) = sum_j V_j P[s_j > a_j],  s_j = sum_i r_ij.
//
// R depends on A only through the column sums s, which range over
// {s >= 0, sum_j s_j <= N} whether or not the team is homogeneous (every
// agent playing c = s/N gives column sums s), so R_het = R_hom and ΔR = 0
// for every value and adversary, as Theorem 3.2 predicts.
//
// The common optimum is computed exactly. On each battlefield the team
// either concedes (s_j = 0, winning P[a_j < 0]) or beats the adversary's
// troop count a up to some level a_k >= 0, winning P[a_j <= a_k]; that
// needs s_j > a_k. A choice of levels is feasible if and only if the sum of
// the chosen levels is strictly below N (the strict inequality leaves room
// to exceed every chosen level), and Blotto maximises over feasible
// choices. The sum is compared with N exactly. Because R takes finitely many
// values, its supremum is attained: HomRow is c = s/N for column sums
// s_j = a_k + (N − sum of levels)/M, which exceed every chosen level, and
// HetAlloc repeats it. (The allocation fields are nil if rounding the
// column sums N·c_j would lose a battlefield, which can happen only when
// N − sum of levels is within a few ulps of 0.) Note that a choice of
// levels summing to exactly N is infeasible: with N = 1 and an adversary
// that always sends one unit, the optimum is 0, not V.
//
// Blotto returns an error wrapping ErrSize if n < 1 or fields is empty,
// ErrParam if a battlefield is invalid (see aggregators.NewBlottoField),
// ErrSize if the enumeration would exceed MaxBlottoCombinations, and
// ErrParam and aggregators.ErrInf if the optimum overflows: the values of
// the battlefields the team can win together sum to more than the largest
// float64.
func Blotto(fields []aggregators.BlottoField, n int) (Gains, error) {
	if err := checkSizes(n, len(fields)); err != nil {
		return Gains{}, err
	}
	options, err := blottoOptions(fields)
	if err != nil {
		return Gains{}, err
	}
	s := &blottoSearch{options: options, n: float64(n), choice: make([]int, len(fields)), best: -1}
	s.bounds()
	s.search(0, 0, 0)
	if math.IsInf(s.best, 0) {
		return Gains{}, fmt.Errorf("gain: Blotto with N = %d: the values V_j of the battlefields the team can win together sum to %v: %w: %w",
			n, s.best, ErrParam, aggregators.ErrInf)
	}
	g := newGains(s.best, s.best)
	if c := s.homRow(); c != nil && len(c) <= MaxAllocationCells {
		g.HomRow = rowMatrix(c)
		if allocatable(n, len(c)) {
			g.HetAlloc = replicate(c, n)
		}
	}
	return g, nil
}

// blottoOption is one way to play a battlefield: beat every troop count up
// to level (cost level), or concede (level 0, contested false).
type blottoOption struct {
	level     float64
	contested bool
	value     float64 // V · P[win]
}

// blottoOptions returns, for each field, the concession followed by one
// option per distinct non-negative troop count.
func blottoOptions(fields []aggregators.BlottoField) ([][]blottoOption, error) {
	options := make([][]blottoOption, len(fields))
	combinations := 1.0
	for j, f := range fields {
		if err := aggregators.Check(f, []float64{0}); err != nil {
			return nil, fmt.Errorf("gain: battlefield %d: %w: %w", j, ErrParam, err)
		}
		options[j] = fieldOptions(f)
		combinations *= float64(len(options[j]))
	}
	if combinations > MaxBlottoCombinations {
		return nil, fmt.Errorf("gain: Blotto would enumerate %g combinations of troop levels, above MaxBlottoCombinations = %d: %w",
			combinations, MaxBlottoCombinations, ErrSize)
	}
	return options, nil
}

func fieldOptions(f aggregators.BlottoField) []blottoOption {
	idx := make([]int, len(f.Troops))
	for k := range idx {
		idx[k] = k
	}
	sort.Slice(idx, func(a, b int) bool { return f.Troops[idx[a]] < f.Troops[idx[b]] })
	probs := f.NormalizedProbs()
	opts := []blottoOption{{}}
	p := 0.0 // P[a <= current level], or P[a < 0] before the first level
	for pos, k := range idx {
		a := f.Troops[k]
		p += probs[k]
		if a < 0 {
			opts[0].value = f.V * p
			continue
		}
		if pos+1 < len(idx) && f.Troops[idx[pos+1]] == a {
			continue // merge equal troop counts
		}
		opts = append(opts, blottoOption{level: a, contested: true, value: f.V * math.Min(1, p)})
	}
	return opts
}

// blottoSearch is a depth-first search over the options of each field.
type blottoSearch struct {
	options [][]blottoOption
	n       float64
	rest    []float64 // rest[j]: the largest value obtainable on fields j, j+1, ...
	choice  []int
	best    float64
	bestAt  []int
}

func (s *blottoSearch) bounds() {
	m := len(s.options)
	s.rest = make([]float64, m+1)
	for j := m - 1; j >= 0; j-- {
		top := 0.0
		for _, o := range s.options[j] {
			top = math.Max(top, o.value)
		}
		s.rest[j] = s.rest[j+1] + top
	}
}

func (s *blottoSearch) search(j int, cost, value float64) {
	if value+s.rest[j] <= s.best || cost > s.n*(1+1e-9) {
		return
	}
	if j == len(s.options) {
		if s.feasible(cost) {
			s.best, s.bestAt = value, append([]int(nil), s.choice...)
		}
		return
	}
	for k, o := range s.options[j] {
		s.choice[j] = k
		s.search(j+1, cost+o.level, value+o.value)
	}
}

// feasible reports whether the chosen levels sum to strictly less than N,
// deciding near-ties in exact arithmetic.
func (s *blottoSearch) feasible(cost float64) bool {
	if math.Abs(cost-s.n) > 1e-9*s.n {
		return cost < s.n
	}
	sum := new(big.Rat)
	for j, k := range s.choice {
		sum.Add(sum, new(big.Rat).SetFloat64(s.options[j][k].level))
	}
	return sum.Cmp(new(big.Rat).SetFloat64(s.n)) < 0
}

// homRow returns c = s/N for the best choice, or nil if the column sums
// N·c_j, added up agent by agent, do not exceed every chosen level.
func (s *blottoSearch) homRow() []float64 {
	m := len(s.options)
	chosen := make([]blottoOption, m)
	cost := 0.0
	for j, k := range s.bestAt {
		chosen[j] = s.options[j][k]
		cost += chosen[j].level
	}
	slack := (s.n - cost) / float64(m)
	c := make([]float64, m)
	for j, o := range chosen {
		c[j] = (o.level + slack) / s.n
		if o.contested && !(columnSum(c[j], int(s.n)) > o.level) {
			return nil
		}
	}
	return c
}

// columnSum returns v added to itself n times, as aggregators.Reward sums a
// column, or n·v when n is too large to add up.
func columnSum(v float64, n int) float64 {
	if n > MaxAllocationCells {
		return v * float64(n)
	}
	s := 0.0
	for i := 0; i < n; i++ {
		s += v
	}
	return s
}
