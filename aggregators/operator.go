package aggregators

import (
	"errors"
	"fmt"
	"math"
)

// MaxInput is the largest magnitude of an input value that operators accept.
// It keeps the intermediate quantities of the operators finite; a value can
// still overflow where the result itself exceeds the float64 range (a
// power-sum of inputs above 1 with a large exponent), which Evaluate reports.
const MaxInput = 1e100

// MaxParam is the largest magnitude of a finite operator parameter.
const MaxParam = 1e6

// ZeroFloor is the value at which a zero (or smaller positive) coordinate
// is evaluated when the partial derivative at zero is unbounded (the power
// operators with t < 1): Gradient then reports the finite right-hand
// derivative at ZeroFloor.
const ZeroFloor = 1e-12

// Errors that name what is wrong with an input. Errors returned by Check,
// Evaluate, the New... constructors, WithParam and the methods of Reward
// wrap one of them, so callers can test with errors.Is; so do the errors of
// Parse about a parameter (missing, not a number or outside its domain).
var (
	ErrEmpty     = errors.New("no values")
	ErrNaN       = errors.New("value is NaN")
	ErrInf       = errors.New("value is infinite")
	ErrNegative  = errors.New("value is negative")
	ErrRange     = errors.New("value outside the supported range")
	ErrDimension = errors.New("dimension mismatch")
	ErrBudget    = errors.New("row over budget")
	ErrParam     = errors.New("parameter outside its domain")
)

// Domain tells which inputs an operator accepts.
type Domain int

const (
	// Real operators accept any finite value of magnitude at most MaxInput.
	Real Domain = iota
	// NonNegative operators accept finite values in [0, MaxInput].
	NonNegative
)

// String returns "real" or "non-negative".
func (d Domain) String() string {
	switch d {
	case Real:
		return "real"
	case NonNegative:
		return "non-negative"
	}
	return fmt.Sprintf("Domain(%d)", int(d))
}

// Operator is a symmetric aggregation function f: R^n -> R, defined for
// every n >= 1.
type Operator interface {
	// Value returns f(x). It panics if Check(op, x) reports an error.
	Value(x []float64) float64

	// Gradient stores the gradient of f at x in dst and returns dst. If dst
	// is nil a new slice is allocated; otherwise len(dst) must equal len(x).
	// At points where f is not differentiable Gradient returns the
	// subgradient or one-sided derivative that the operator documents.
	Gradient(dst, x []float64) []float64

	// Schur returns the Schur class of f on the unit box [0,1]^n.
	Schur(n int) SchurClass

	// StrictlyIncreasing reports whether f is strictly increasing in every
	// coordinate on the unit box [0,1]^n, the condition on the outer
	// aggregator in Theorem 3.1 of the paper.
	StrictlyIncreasing(n int) bool

	// Domain reports which inputs f accepts.
	Domain() Domain

	// String returns the operator's specification, as accepted by Parse
	// for every family Parse knows. A SumForm's is "sumform(Name)", which
	// Parse does not accept: it cannot rebuild a user's function g.
	String() string
}

// Parametric is an Operator from a family indexed by a scalar parameter t.
type Parametric interface {
	Operator

	// Param returns the parameter t.
	Param() float64

	// ParamDerivative returns the partial derivative of f with respect to
	// t at x. It panics if Check(op, x) reports an error.
	ParamDerivative(x []float64) float64

	// WithParam returns the member of the same family with parameter t, or
	// an error wrapping ErrParam if t is outside the family's domain.
	WithParam(t float64) (Parametric, error)
}

// Check reports whether x is a valid input for op: at least one value, every
// value finite and of magnitude at most MaxInput, and non-negative if op's
// domain is NonNegative. It also reports a nil op and an operator whose
// parameter is outside its family's domain (wrapping ErrParam). The error
// names the first offending value.
func Check(op Operator, x []float64) error {
	if op == nil {
		return fmt.Errorf("operator is nil: %w", ErrParam)
	}
	if v, ok := op.(validator); ok {
		if err := v.validate(); err != nil {
			return err
		}
	}
	return checkValues(x, op.Domain(), "x")
}

// validator is implemented by operators whose fields can hold invalid
// parameters (the exported parameter fields of the parametric families).
type validator interface {
	validate() error
}

// Evaluate returns op.Value(x), or an error if op is nil, if x is not a
// valid input for op or if op produced a non-finite value (a user-supplied SumForm may, and a
// power-sum of large inputs overflows).
func Evaluate(op Operator, x []float64) (float64, error) {
	if op == nil {
		return math.NaN(), fmt.Errorf("aggregators: Evaluate: %w", Check(op, x))
	}
	if err := Check(op, x); err != nil {
		return math.NaN(), fmt.Errorf("aggregators: %v: %w", op, err)
	}
	var v float64
	if s, ok := op.(safeValuer); ok {
		var err error
		if v, err = s.safeValue(x); err != nil {
			return math.NaN(), fmt.Errorf("aggregators: %w", err)
		}
	} else {
		v = op.Value(x)
	}
	if err := checkFinite(v); err != nil {
		return v, fmt.Errorf("aggregators: %s returned %v: %w", op, v, err)
	}
	return v, nil
}

// safeValuer is implemented by operators whose Value can panic on a valid
// input (SumForm, when g is not finite): safeValue returns an error instead.
type safeValuer interface {
	safeValue(x []float64) (float64, error)
}

func checkValues(x []float64, d Domain, name string) error {
	if len(x) == 0 {
		return fmt.Errorf("%s: %w (need at least one)", name, ErrEmpty)
	}
	for i, v := range x {
		if err := checkValue(v, d); err != nil {
			return fmt.Errorf("%s[%d] = %v: %w", name, i, v, err)
		}
	}
	return nil
}

// checkFinite returns ErrNaN or ErrInf for a value that is not finite.
func checkFinite(v float64) error {
	switch {
	case math.IsNaN(v):
		return ErrNaN
	case math.IsInf(v, 0):
		return ErrInf
	}
	return nil
}

func checkValue(v float64, d Domain) error {
	switch {
	case math.IsNaN(v):
		return ErrNaN
	case math.IsInf(v, 0):
		return ErrInf
	case math.Abs(v) > MaxInput:
		return fmt.Errorf("%w (magnitude above %g)", ErrRange, MaxInput)
	case d == NonNegative && v < 0:
		return ErrNegative
	}
	return nil
}

// mustCheck panics with an "aggregators: ..." message if x is invalid for op.
func mustCheck(op Operator, x []float64) {
	if err := Check(op, x); err != nil {
		panic(fmt.Sprintf("aggregators: %v: %v", op, err))
	}
}

// gradientDst returns dst ready to receive a gradient of len(x) values.
func gradientDst(dst, x []float64) []float64 {
	if dst == nil {
		return make([]float64, len(x))
	}
	if len(dst) != len(x) {
		panic(fmt.Sprintf("aggregators: gradient destination has length %d, input has %d", len(dst), len(x)))
	}
	return dst
}

// checkParam returns an error wrapping ErrParam if t is NaN or a finite
// value of magnitude above MaxParam. Infinite t is allowed only if infOK.
func checkParam(family string, t float64, infOK bool) error {
	switch {
	case math.IsNaN(t):
		return fmt.Errorf("%s parameter is NaN: %w", family, ErrParam)
	case math.IsInf(t, 0) && !infOK:
		return fmt.Errorf("%s parameter is infinite: %w", family, ErrParam)
	case !math.IsInf(t, 0) && math.Abs(t) > MaxParam:
		return fmt.Errorf("%s parameter %g has magnitude above %g: %w", family, t, MaxParam, ErrParam)
	}
	return nil
}
