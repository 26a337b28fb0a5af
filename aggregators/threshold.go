package aggregators

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// BlottoField is the inner aggregator of Team Colonel Blotto against a
// fixed stochastic adversary (the paper's appendix): the expected value won
// on one battlefield,
//
//	T(x) = V * P[sum_i x_i > a],
//
// where the adversary's troops a take the value Troops[k] with probability
// Probs[k]. T depends on x only through its sum, so it is both Schur-convex
// and Schur-concave, and the heterogeneity gain of the game is 0.
//
// T is a step function: Gradient returns 0, its derivative almost
// everywhere. The parameter is the battlefield's value V.
type BlottoField struct {
	V      float64   // value of the battlefield, >= 0
	Troops []float64 // the adversary's possible troop counts
	Probs  []float64 // their probabilities, summing to 1 within 1e-9
}

// NewBlottoField returns a battlefield of value v against an adversary that
// sends troops[k] with probability probs[k], or an error naming what is
// wrong with the distribution.
func NewBlottoField(v float64, troops, probs []float64) (BlottoField, error) {
	op := BlottoField{V: v, Troops: troops, Probs: probs}
	return op, op.validate()
}

func (op BlottoField) validate() error {
	if math.IsNaN(op.V) || math.IsInf(op.V, 0) || op.V < 0 {
		return fmt.Errorf("blotto value %v must be finite and non-negative: %w", op.V, ErrParam)
	}
	if len(op.Troops) != len(op.Probs) {
		return fmt.Errorf("blotto adversary has %d troop counts but %d probabilities: %w",
			len(op.Troops), len(op.Probs), ErrDimension)
	}
	if err := checkValues(op.Troops, Real, "blotto troops"); err != nil {
		return err
	}
	if err := checkValues(op.Probs, NonNegative, "blotto probabilities"); err != nil {
		return err
	}
	if s := sumOf(op.Probs); math.Abs(s-1) > 1e-9 {
		return fmt.Errorf("blotto probabilities sum to %v, not 1: %w", s, ErrParam)
	}
	return nil
}

// Value returns V * P[sum(x) > a], with the probabilities normalised to
// sum to 1 (NormalizedProbs): it is at most V.
func (op BlottoField) Value(x []float64) float64 {
	mustCheck(op, x)
	return op.V * op.winProbability(symmetricSum(x))
}

// Gradient returns the zero vector.
func (op BlottoField) Gradient(dst, x []float64) []float64 {
	mustCheck(op, x)
	return fill(gradientDst(dst, x), 0)
}

// Param returns V.
func (op BlottoField) Param() float64 { return op.V }

// ParamDerivative returns P[sum(x) > a], the derivative with respect to V.
func (op BlottoField) ParamDerivative(x []float64) float64 {
	mustCheck(op, x)
	return op.winProbability(symmetricSum(x))
}

// WithParam returns the battlefield with value v against the same adversary.
func (op BlottoField) WithParam(v float64) (Parametric, error) {
	return NewBlottoField(v, op.Troops, op.Probs)
}

// Schur returns Both.
func (BlottoField) Schur(n int) SchurClass { return Both }

// StrictlyIncreasing returns false: T is a step function.
func (BlottoField) StrictlyIncreasing(n int) bool { return false }

// Domain returns NonNegative.
func (BlottoField) Domain() Domain { return NonNegative }

// String returns "blotto(V; a1:p1, a2:p2, ...)". If Troops and Probs
// differ in length, which validation reports, the missing entries show as
// "?", as in "blotto(1; 1:1, 2:?)".
func (op BlottoField) String() string {
	parts := make([]string, max(len(op.Troops), len(op.Probs)))
	for k := range parts {
		parts[k] = fmt.Sprintf("%s:%s", entry(op.Troops, k), entry(op.Probs, k))
	}
	return fmt.Sprintf("blotto(%v; %s)", op.V, strings.Join(parts, ", "))
}

// entry formats v[k] with %v, or returns "?" if v has no k-th value.
func entry(v []float64, k int) string {
	if k >= len(v) {
		return "?"
	}
	return fmt.Sprint(v[k])
}

// NormalizedProbs returns Probs divided by their sum: the distribution of
// the adversary's troops that Value uses, so that a sum off 1 by rounding
// (validation allows 1e-9) never lets T exceed V. It returns nil if the
// probabilities sum to 0.
func (op BlottoField) NormalizedProbs() []float64 {
	s := sumOf(op.Probs)
	if !(s > 0) {
		return nil
	}
	out := make([]float64, len(op.Probs))
	for k, p := range op.Probs {
		out[k] = p / s
	}
	return out
}

// winProbability returns P[s > a] under NormalizedProbs.
func (op BlottoField) winProbability(s float64) float64 {
	p, total := 0.0, 0.0
	for k, a := range op.Troops {
		total += op.Probs[k]
		if s > a {
			p += op.Probs[k]
		}
	}
	return math.Min(1, p/total)
}

// LevelThreshold is the inner aggregator of level-based foraging (the
// paper's appendix): an item of level L is collected, and pays L, when the
// summed skill of the agents on it reaches L,
//
//	T(x) = L * 1[sum_i x_i >= L].
//
// It depends only on the sum of x, so it is both Schur-convex and
// Schur-concave. Gradient returns 0, its derivative almost everywhere.
type LevelThreshold struct {
	L float64 // the item's level, > 0
}

// NewLevelThreshold returns the threshold operator of an item of level l,
// or an error wrapping ErrParam unless l is finite and positive.
func NewLevelThreshold(l float64) (LevelThreshold, error) {
	op := LevelThreshold{L: l}
	return op, op.validate()
}

func (op LevelThreshold) validate() error {
	if math.IsNaN(op.L) || math.IsInf(op.L, 0) || op.L <= 0 {
		return fmt.Errorf("level %v must be finite and positive: %w", op.L, ErrParam)
	}
	return nil
}

// Value returns L if sum(x) >= L and 0 otherwise.
func (op LevelThreshold) Value(x []float64) float64 {
	mustCheck(op, x)
	if symmetricSum(x) >= op.L {
		return op.L
	}
	return 0
}

// Gradient returns the zero vector.
func (op LevelThreshold) Gradient(dst, x []float64) []float64 {
	mustCheck(op, x)
	return fill(gradientDst(dst, x), 0)
}

// Schur returns Both.
func (LevelThreshold) Schur(n int) SchurClass { return Both }

// StrictlyIncreasing returns false.
func (LevelThreshold) StrictlyIncreasing(n int) bool { return false }

// Domain returns NonNegative.
func (LevelThreshold) Domain() Domain { return NonNegative }

// String returns "level(L)".
func (op LevelThreshold) String() string { return fmt.Sprintf("level(%v)", op.L) }

// symmetricSum returns the sum of x added in ascending order, so that every
// permutation of x gives the same floating-point sum. The threshold
// operators compare the sum with a level; summing in input order would make
// (0.1, 0.2, 0.7) reach 1 and (0.7, 0.2, 0.1) fall short of it.
func symmetricSum(x []float64) float64 {
	s := append([]float64(nil), x...)
	sort.Float64s(s)
	return sumOf(s)
}
