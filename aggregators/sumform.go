package aggregators

import (
	"fmt"
	"math"
)

// SumForm is the sum-form aggregator f(x) = sum_i g(x_i) built from a
// user-supplied function g (the paper's appendix on sum-form aggregators).
// If g is strictly convex f is strictly Schur-convex, and if g is strictly
// concave f is strictly Schur-concave.
//
// SumForm cannot know the curvature of g: Schur returns the Class field as
// declared (Unknown by default), and schur.CheckSumForm tests the convexity
// of g numerically. Value panics if g returns NaN or ±Inf, and so does
// Gradient if DG does, or, without DG, g at the points of its finite
// difference; Evaluate and Reward report these as errors.
type SumForm struct {
	Name string                // shown by String
	G    func(float64) float64 // the summand g
	DG   func(float64) float64 // g'; if nil, a central difference is used
	Dom  Domain                // the inputs g accepts
	// Class is the declared Schur class for n >= 2.
	Class SchurClass
	// Increasing declares g strictly increasing.
	Increasing bool
}

// Value returns sum_i g(x_i).
func (op SumForm) Value(x []float64) float64 {
	mustCheck(op, x)
	s := 0.0
	for _, v := range x {
		s += op.g(v)
	}
	return s
}

// Gradient returns g'(x_i), from DG or from a central difference of g with
// step h = 1e-6 max(1, |x_i|); for a NonNegative domain and x_i < h, a
// forward difference, so that g is not evaluated below 0.
func (op SumForm) Gradient(dst, x []float64) []float64 {
	mustCheck(op, x)
	dst = gradientDst(dst, x)
	for i, v := range x {
		d, err := op.derivative(v)
		if err != nil {
			panic(fmt.Sprintf("aggregators: %v", err))
		}
		dst[i] = d
	}
	return dst
}

// Schur returns Both for n = 1 and the declared Class otherwise.
func (op SumForm) Schur(n int) SchurClass {
	if n <= 1 {
		return Both
	}
	return op.Class
}

// StrictlyIncreasing returns the declared Increasing.
func (op SumForm) StrictlyIncreasing(n int) bool { return op.Increasing }

// Domain returns Dom.
func (op SumForm) Domain() Domain { return op.Dom }

// String returns "sumform(Name)". Parse does not accept it: a specification
// cannot carry g.
func (op SumForm) String() string { return fmt.Sprintf("sumform(%s)", op.Name) }

func (op SumForm) validate() error {
	if op.G == nil {
		return fmt.Errorf("sumform %q has no function g: %w", op.Name, ErrParam)
	}
	return nil
}

func (op SumForm) g(v float64) float64 {
	y, err := op.finiteG(v)
	if err != nil {
		panic(fmt.Sprintf("aggregators: %v", err))
	}
	return y
}

// finiteG returns g(v), or an error wrapping ErrNaN or ErrInf if it is not
// finite.
func (op SumForm) finiteG(v float64) (float64, error) {
	y := op.G(v)
	if err := checkFinite(y); err != nil {
		return y, fmt.Errorf("%v: g(%v) = %v: %w", op, v, y, err)
	}
	return y, nil
}

// safeValue is Value for a checked x, with an error wrapping ErrNaN or
// ErrInf instead of a panic when g is not finite.
func (op SumForm) safeValue(x []float64) (float64, error) {
	s := 0.0
	for i, v := range x {
		y := op.G(v)
		if err := checkFinite(y); err != nil {
			return math.NaN(), fmt.Errorf("%v: g(x[%d] = %v) = %v: %w", op, i, v, y, err)
		}
		s += y
	}
	return s, nil
}

// derivative returns g'(v) (see Gradient), or an error wrapping ErrNaN or
// ErrInf if DG, or g at the points of the finite difference, is not
// finite.
func (op SumForm) derivative(v float64) (float64, error) {
	if op.DG != nil {
		d := op.DG(v)
		if err := checkFinite(d); err != nil {
			return d, fmt.Errorf("%v: g'(%v) = %v: %w", op, v, d, err)
		}
		return d, nil
	}
	h := 1e-6 * math.Max(1, math.Abs(v))
	lo, width := v-h, 2*h
	if op.Dom == NonNegative && lo < 0 {
		lo, width = v, h
	}
	up, err := op.finiteG(v + h)
	if err != nil {
		return math.NaN(), err
	}
	down, err := op.finiteG(lo)
	if err != nil {
		return math.NaN(), err
	}
	return (up - down) / width, nil
}
