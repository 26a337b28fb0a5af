package aggregators

import (
	"fmt"
	"math"
)

// Softmax is the softmax-weighted mean f_t(x) = sum_i w_i x_i with
// w = softmax(t x). It is the mean at t = 0 and tends to max as t -> +Inf
// and to min as t -> -Inf; T = ±Inf gives those limits exactly. The zero
// value is the mean.
//
// Its Schur class on the box [0,1]^n differs from the paper's table, which
// states strict Schur-convexity for every t > 0 (Schur-concavity for t < 0):
//   - n = 2: strictly Schur-convex for t > 0, strictly Schur-concave for
//     t < 0, as the table says.
//   - n >= 3: strictly Schur-convex for 0 < t <= 2 and strictly
//     Schur-concave for -2 <= t < 0, by the Schur-Ostrowski condition:
//     ∂_k f - ∂_l f = (φ(x_k) - φ(x_l))/Z with φ(u) = e^{tu}(1 + t(u - f)),
//     and φ'(u) = t e^{tu}(2 + t(u - f)) has the sign of t wherever
//     u - f > -1 (t > 0) or u - f < 1 (t < 0), which holds on the box for
//     every coordinate u of x. Neither for |t| > SoftmaxSchurLimit(n)
//     (about 2.37 for n = 3, falling to 2 as n grows): at t = 10,
//     x = (1, 0.1, 0) majorizes y = (1, 0.05, 0.05) yet f(y) > f(x). For
//     2 < |t| <= SoftmaxSchurLimit(n), schur.Check finds no
//     counterexample, but no proof is known; Schur reports Unknown there.
//
// Softmax is strictly increasing on the box only for
// |t| <= SoftmaxMonotoneLimit(n) (about 1.28 for n = 2): its partial
// derivative w_k (1 + t (x_k - f)) is negative when t (f - x_k) > 1. The
// paper's generalised aggregators are non-decreasing, so a softmax U or T
// with larger |t| lies outside the scope of its theorems.
type Softmax struct {
	T float64 // the temperature t; any real value or ±Inf
}

// NewSoftmax returns the softmax aggregator with temperature t, or an error
// wrapping ErrParam if t is NaN or a finite value above MaxParam in magnitude.
func NewSoftmax(t float64) (Softmax, error) {
	op := Softmax{T: t}
	return op, op.validate()
}

func (op Softmax) validate() error { return checkParam("softmax", op.T, true) }

// Value returns f_t(x).
func (op Softmax) Value(x []float64) float64 {
	mustCheck(op, x)
	if e, ok := extremeOf(op.T); ok {
		return e.Value(x)
	}
	w := softmaxWeights(make([]float64, len(x)), x, op.T)
	return dot(w, x)
}

// Gradient returns ∂f/∂x_k = w_k (1 + t (x_k - f)). At T = ±Inf it is the
// gradient of Max or Min.
func (op Softmax) Gradient(dst, x []float64) []float64 {
	mustCheck(op, x)
	dst = gradientDst(dst, x)
	if e, ok := extremeOf(op.T); ok {
		return e.Gradient(dst, x)
	}
	w := softmaxWeights(dst, x, op.T)
	f := dot(w, x)
	for k := range dst {
		dst[k] = w[k] * (1 + op.T*(x[k]-f))
	}
	return dst
}

// Param returns t.
func (op Softmax) Param() float64 { return op.T }

// ParamDerivative returns ∂f/∂t = sum_i w_i (x_i - f)^2, the variance of x
// under the softmax weights. It is 0 at T = ±Inf.
func (op Softmax) ParamDerivative(x []float64) float64 {
	mustCheck(op, x)
	if math.IsInf(op.T, 0) {
		return 0
	}
	w := softmaxWeights(make([]float64, len(x)), x, op.T)
	f := dot(w, x)
	v := 0.0
	for i, xi := range x {
		v += w[i] * (xi - f) * (xi - f)
	}
	return v
}

// WithParam returns the softmax aggregator with temperature t.
func (op Softmax) WithParam(t float64) (Parametric, error) { return NewSoftmax(t) }

// Schur returns the class on [0,1]^n described on Softmax.
func (op Softmax) Schur(n int) SchurClass {
	t := op.T
	switch {
	case n <= 1 || t == 0:
		return Both
	case math.IsInf(t, 1):
		return Max{}.Schur(n)
	case math.IsInf(t, -1):
		return Min{}.Schur(n)
	case n >= 3 && math.Abs(t) > SoftmaxSchurLimit(n):
		return Neither
	case n >= 3 && math.Abs(t) > 2:
		return Unknown
	case t > 0:
		return StrictlyConvex
	}
	return StrictlyConcave
}

// StrictlyIncreasing reports whether softmax is strictly increasing in
// every coordinate on [0,1]^n: for n = 1, and otherwise for
// |t| <= SoftmaxMonotoneLimit(n).
func (op Softmax) StrictlyIncreasing(n int) bool {
	return n == 1 || math.Abs(op.T) <= SoftmaxMonotoneLimit(n)
}

// SoftmaxSchurLimit returns, for n >= 3, the temperature t*(n) above which
// the softmax aggregator is neither Schur-convex nor Schur-concave on
// [0,1]^n: the root of (t-2) e^t = 4/(n-2), about 2.373 for n = 3, 2.218
// for n = 4, and decreasing to 2 as n grows. For t > t*(n) the
// Schur-Ostrowski condition fails at the points where two coordinates tie
// near 0 and the others are 1, since there ∂_k f - ∂_l f has the sign of
// (x_k - x_l)(2 - t f) and t f > 2; the same holds for t < -t*(n) by the
// reflection f_{-t}(x) = 1 - f_t(1-x). It returns +Inf for n <= 2, where
// the class holds for every t.
func SoftmaxSchurLimit(n int) float64 {
	if n <= 2 {
		return math.Inf(1)
	}
	rhs := 4 / float64(n-2)
	return bisect(func(t float64) float64 { return (t-2)*math.Exp(t) - rhs }, 2, 3)
}

// SoftmaxMonotoneLimit returns, for n >= 2, the largest |t| for which the
// softmax aggregator is non-decreasing in every coordinate on [0,1]^n: the
// root of (t-1) e^t = 1/(n-1), about 1.278 for n = 2 and 1.157 for n = 3.
// The partial derivative w_k (1 + t (x_k - f)) is most negative at x_k = 0
// with every other coordinate at 1, where it vanishes exactly at this t.
// It returns +Inf for n <= 1.
func SoftmaxMonotoneLimit(n int) float64 {
	if n <= 1 {
		return math.Inf(1)
	}
	rhs := 1 / float64(n-1)
	return bisect(func(t float64) float64 { return (t-1)*math.Exp(t) - rhs }, 1, 2)
}

// bisect returns the root of the increasing function f in [lo, hi], where
// f(lo) <= 0 <= f(hi), to full float64 precision.
func bisect(f func(float64) float64, lo, hi float64) float64 {
	for {
		mid := lo + (hi-lo)/2
		if mid <= lo || mid >= hi {
			return mid
		}
		if f(mid) < 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
}

// Domain returns Real.
func (Softmax) Domain() Domain { return Real }

// String returns "softmax(t)".
func (op Softmax) String() string { return fmt.Sprintf("softmax(%s)", formatParam(op.T)) }

// LogSumExp is LSE_t(x) = (1/t) ln sum_i exp(t x_i) for t != 0. It tends to
// max as t -> +Inf and to min as t -> -Inf; T = ±Inf gives those limits.
// It is strictly Schur-convex for t > 0 and strictly Schur-concave for
// t < 0, and strictly increasing for finite t. As t -> 0 it diverges like
// ln(n)/t, and its t-derivative like -ln(n)/t²; so that both stay finite,
// |t| must be at least 1e-100.
type LogSumExp struct {
	T float64 // the temperature t, 1e-100 <= |t| <= MaxParam; ±Inf allowed
}

// minLSEParam is the smallest magnitude of the LogSumExp parameter: below
// it ln(n)/t² overflows.
const minLSEParam = 1e-100

// NewLogSumExp returns LSE_t, or an error wrapping ErrParam if t is NaN, of
// magnitude below 1e-100 (0 included) or a finite value above MaxParam in
// magnitude.
func NewLogSumExp(t float64) (LogSumExp, error) {
	op := LogSumExp{T: t}
	return op, op.validate()
}

func (op LogSumExp) validate() error {
	if op.T == 0 {
		return fmt.Errorf("lse parameter must not be 0: %w", ErrParam)
	}
	if math.Abs(op.T) < minLSEParam {
		return fmt.Errorf("lse parameter %g has magnitude below %g: %w", op.T, minLSEParam, ErrParam)
	}
	return checkParam("lse", op.T, true)
}

// Value returns LSE_t(x), computed as s + (1/t) ln sum exp(t (x_i - s))
// with s the max (t > 0) or min (t < 0) so that no exponential overflows.
func (op LogSumExp) Value(x []float64) float64 {
	mustCheck(op, x)
	if e, ok := extremeOf(op.T); ok {
		return e.Value(x)
	}
	return lse(x, op.T)
}

// Gradient returns the softmax weights softmax(t x), or the gradient of Max
// or Min at T = ±Inf.
func (op LogSumExp) Gradient(dst, x []float64) []float64 {
	mustCheck(op, x)
	dst = gradientDst(dst, x)
	if e, ok := extremeOf(op.T); ok {
		return e.Gradient(dst, x)
	}
	return softmaxWeights(dst, x, op.T)
}

// Param returns t.
func (op LogSumExp) Param() float64 { return op.T }

// ParamDerivative returns ∂LSE_t/∂t = (sum_i w_i x_i - LSE_t(x)) / t with
// w = softmax(t x). It is 0 at T = ±Inf.
func (op LogSumExp) ParamDerivative(x []float64) float64 {
	mustCheck(op, x)
	if math.IsInf(op.T, 0) {
		return 0
	}
	w := softmaxWeights(make([]float64, len(x)), x, op.T)
	return (dot(w, x) - lse(x, op.T)) / op.T
}

// WithParam returns LSE with temperature t.
func (op LogSumExp) WithParam(t float64) (Parametric, error) { return NewLogSumExp(t) }

// Schur returns StrictlyConvex for t > 0 and StrictlyConcave for t < 0
// (the classes of Max and Min at ±Inf; Both for n = 1).
func (op LogSumExp) Schur(n int) SchurClass {
	switch {
	case n <= 1:
		return Both
	case math.IsInf(op.T, 1):
		return Max{}.Schur(n)
	case math.IsInf(op.T, -1):
		return Min{}.Schur(n)
	case op.T > 0:
		return StrictlyConvex
	}
	return StrictlyConcave
}

// StrictlyIncreasing reports true for finite t (and for n = 1).
func (op LogSumExp) StrictlyIncreasing(n int) bool { return n == 1 || !math.IsInf(op.T, 0) }

// Domain returns Real.
func (LogSumExp) Domain() Domain { return Real }

// String returns "lse(t)".
func (op LogSumExp) String() string { return fmt.Sprintf("lse(%s)", formatParam(op.T)) }

// extremeOf returns Max for +Inf and Min for -Inf.
func extremeOf(t float64) (Operator, bool) {
	switch {
	case math.IsInf(t, 1):
		return Max{}, true
	case math.IsInf(t, -1):
		return Min{}, true
	}
	return nil, false
}

// softmaxWeights stores softmax(t x) in dst, shifting the exponents by the
// max (t > 0) or min (t < 0) of x so that they are all <= 0.
func softmaxWeights(dst, x []float64, t float64) []float64 {
	s := shiftFor(x, t)
	z := 0.0
	for i, v := range x {
		dst[i] = math.Exp(t * (v - s))
		z += dst[i]
	}
	for i := range dst {
		dst[i] /= z
	}
	return dst
}

func lse(x []float64, t float64) float64 {
	s := shiftFor(x, t)
	z := 0.0
	for _, v := range x {
		z += math.Exp(t * (v - s))
	}
	return s + math.Log(z)/t
}

func shiftFor(x []float64, t float64) float64 {
	if t >= 0 {
		return maxOf(x)
	}
	return minOf(x)
}

func dot(a, b []float64) float64 {
	s := 0.0
	for i, v := range a {
		s += v * b[i]
	}
	return s
}

// formatParam formats a parameter so that Parse reads it back exactly.
func formatParam(t float64) string {
	switch {
	case math.IsInf(t, 1):
		return "inf"
	case math.IsInf(t, -1):
		return "-inf"
	}
	return fmt.Sprintf("%v", t)
}
