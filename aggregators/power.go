package aggregators

import (
	"fmt"
	"math"
)

// PowerSum is f_t(x) = sum_i x_i^t for non-negative x and t > 0. It is
// strictly Schur-convex for t > 1, strictly Schur-concave for 0 < t < 1 and
// the plain sum at t = 1.
//
// For t < 1 the partial derivative t x_i^(t-1) is +Inf at a zero coordinate
// and beyond the float64 range at subnormal ones; Gradient evaluates it at
// ZeroFloor for coordinates below ZeroFloor.
type PowerSum struct {
	T float64 // the exponent t > 0
}

// NewPowerSum returns the power-sum with exponent t, or an error wrapping
// ErrParam unless 0 < t <= MaxParam.
func NewPowerSum(t float64) (PowerSum, error) {
	op := PowerSum{T: t}
	return op, op.validate()
}

func (op PowerSum) validate() error {
	if err := checkParam("powersum", op.T, false); err != nil {
		return err
	}
	if op.T <= 0 {
		return fmt.Errorf("powersum parameter %g must be positive: %w", op.T, ErrParam)
	}
	return nil
}

// Value returns sum_i x_i^t.
func (op PowerSum) Value(x []float64) float64 {
	mustCheck(op, x)
	return powerSum(x, op.T)
}

// Gradient returns t x_i^(t-1), evaluated at max(x_i, ZeroFloor) when
// t < 1.
func (op PowerSum) Gradient(dst, x []float64) []float64 {
	mustCheck(op, x)
	return powerSumGradient(gradientDst(dst, x), x, op.T, 1)
}

// Param returns t.
func (op PowerSum) Param() float64 { return op.T }

// ParamDerivative returns sum_i x_i^t ln x_i (zero coordinates add 0).
func (op PowerSum) ParamDerivative(x []float64) float64 {
	mustCheck(op, x)
	return powerSumParamDerivative(x, op.T)
}

// WithParam returns the power-sum with exponent t.
func (op PowerSum) WithParam(t float64) (Parametric, error) { return NewPowerSum(t) }

// Schur returns StrictlyConvex for t > 1, Both at t = 1 and
// StrictlyConcave for t < 1 (Both for n = 1).
func (op PowerSum) Schur(n int) SchurClass {
	switch {
	case n <= 1 || op.T == 1:
		return Both
	case op.T > 1:
		return StrictlyConvex
	}
	return StrictlyConcave
}

// StrictlyIncreasing returns true.
func (PowerSum) StrictlyIncreasing(n int) bool { return true }

// Domain returns NonNegative.
func (PowerSum) Domain() Domain { return NonNegative }

// String returns "powersum(t)".
func (op PowerSum) String() string { return fmt.Sprintf("powersum(%s)", formatParam(op.T)) }

// MeanPower is f_t(x) = (1/n) sum_i x_i^t for non-negative x and t > 0: the
// power sum divided by the number of coordinates, the mean of the t-th
// powers (the power mean of PowerMean without its root, M_t(x)^t). On the
// unit box its values stay in [0, 1] whatever t, where the power sum
// reaches n; so a reward U(T(...)) built from MeanPower stays in [0, 1]
// however large the exponents grow. It is the power sum of the paper's
// code for Multi-goal-capture, which divides each sum by its 2 terms (2
// agents, 2 goals), and its Schur class is the power sum's: strictly
// Schur-convex for t > 1, strictly Schur-concave for 0 < t < 1, the mean
// at t = 1.
//
// For t < 1 Gradient evaluates the partial derivative (t/n) x_i^(t-1) at
// ZeroFloor for coordinates below ZeroFloor, as PowerSum does.
type MeanPower struct {
	T float64 // the exponent t > 0
}

// NewMeanPower returns the mean of the t-th powers, or an error wrapping
// ErrParam unless 0 < t <= MaxParam.
func NewMeanPower(t float64) (MeanPower, error) {
	op := MeanPower{T: t}
	return op, op.validate()
}

func (op MeanPower) validate() error {
	if err := checkParam("meanpower", op.T, false); err != nil {
		return err
	}
	if op.T <= 0 {
		return fmt.Errorf("meanpower parameter %g must be positive: %w", op.T, ErrParam)
	}
	return nil
}

// Value returns (1/n) sum_i x_i^t, computed as the power sum divided by n.
func (op MeanPower) Value(x []float64) float64 {
	mustCheck(op, x)
	return powerSum(x, op.T) / float64(len(x))
}

// Gradient returns (t/n) x_i^(t-1), evaluated at max(x_i, ZeroFloor) when
// t < 1.
func (op MeanPower) Gradient(dst, x []float64) []float64 {
	mustCheck(op, x)
	return powerSumGradient(gradientDst(dst, x), x, op.T, float64(len(x)))
}

// Param returns t.
func (op MeanPower) Param() float64 { return op.T }

// ParamDerivative returns (1/n) sum_i x_i^t ln x_i (zero coordinates add 0).
func (op MeanPower) ParamDerivative(x []float64) float64 {
	mustCheck(op, x)
	return powerSumParamDerivative(x, op.T) / float64(len(x))
}

// WithParam returns the mean of the t-th powers.
func (op MeanPower) WithParam(t float64) (Parametric, error) { return NewMeanPower(t) }

// Schur returns the class of PowerSum with the same exponent.
func (op MeanPower) Schur(n int) SchurClass { return PowerSum(op).Schur(n) }

// StrictlyIncreasing returns true.
func (MeanPower) StrictlyIncreasing(n int) bool { return true }

// Domain returns NonNegative.
func (MeanPower) Domain() Domain { return NonNegative }

// String returns "meanpower(t)".
func (op MeanPower) String() string { return fmt.Sprintf("meanpower(%s)", formatParam(op.T)) }

// PowerMean is the generalised mean M_t(x) = ((1/n) sum_i x_i^t)^(1/t) of
// non-negative x, for every real t with its limits: the geometric mean at
// t = 0, max at t = +Inf and min at t = -Inf. For t <= 0 it is 0 whenever
// a coordinate is 0.
//
// It is strictly Schur-convex for t > 1 and the arithmetic mean at t = 1.
// For t < 1 it is Schur-concave: strictly for 0 < t < 1, and for t <= 0
// strictly only when n = 2 (on the box, x = (1,0,0) and y = (1/2,1/2,0)
// both give 0). The paper's table covers 0 < t < 1 only.
//
// For t < 1 the partial derivatives at zero coordinates are unbounded or
// degenerate; Gradient reports the gradient at the point where coordinates
// below ZeroFloor are raised to ZeroFloor.
type PowerMean struct {
	T float64 // the exponent t; any real value or ±Inf
}

// NewPowerMean returns the power mean with exponent t, or an error wrapping
// ErrParam if t is NaN or a finite value above MaxParam in magnitude.
func NewPowerMean(t float64) (PowerMean, error) {
	op := PowerMean{T: t}
	return op, op.validate()
}

func (op PowerMean) validate() error { return checkParam("powermean", op.T, true) }

// Value returns M_t(x).
func (op PowerMean) Value(x []float64) float64 {
	mustCheck(op, x)
	if e, ok := extremeOf(op.T); ok {
		return e.Value(x)
	}
	return powerMean(x, op.T)
}

// Gradient returns ∂M_t/∂x_k = (1/n) (x_k/M_t)^(t-1) (M_0/(n x_k) for the
// geometric mean), with the ZeroFloor convention for t < 1 and the
// subgradients of Max and Min at ±Inf. At x = 0 with t >= 1 it returns the
// one-sided partial derivatives n^(-1/t).
func (op PowerMean) Gradient(dst, x []float64) []float64 {
	mustCheck(op, x)
	dst = gradientDst(dst, x)
	if e, ok := extremeOf(op.T); ok {
		return e.Gradient(dst, x)
	}
	t, n := op.T, float64(len(x))
	if t < 1 {
		x = raiseBelowFloor(x)
	}
	switch {
	case sumOf(x) == 0: // x = 0 and t >= 1
		for k := range dst {
			dst[k] = math.Pow(n, -1/t)
		}
	case t == 1: // the arithmetic mean
		for k := range dst {
			dst[k] = 1 / n
		}
	case math.Abs(t) < tinyExponent: // M_t is M_0 to rounding (logPowerMean)
		geometricMeanGradient(dst, x)
	default:
		powerMeanGradient(dst, x, t)
	}
	return dst
}

// powerMeanGradient fills dst with the gradient of M_t at x for t not 0
// or 1 (x positive for t < 1, not all zero for t > 1):
//
//	∂M_t/∂x_k = (1/n) (x_k/M_t)^(t-1) = (1/n) exp((t-1)(l_k - L/t)),
//
// with p the largest coordinate for t > 0 and the smallest for t < 0,
// l_i = ln(x_i/p) (logRatio) and L = ln((1/n) sum_i exp(t l_i)), so that
// L/t = ln(M_t/p). For |t| in the millions, x_k/M_t rounded to float64
// would be off by |t| ulps in its power; l_k - L/t is exact to rounding
// where x_k is close to p, which is where the power matters.
func powerMeanGradient(dst, x []float64, t float64) {
	p := maxOf(x)
	if t < 0 {
		p = minOf(x)
	}
	l, z := dst, make([]float64, len(x)) // dst holds l until the end
	for i, v := range x {
		l[i] = logRatio(v, p)
		z[i] = t * l[i] // at most 0: p is the dominant coordinate
	}
	lt := logMeanExp(z) / t
	for k := range x {
		dst[k] = math.Exp((t-1)*(l[k]-lt)) / float64(len(x))
	}
}

// logRatio returns ln(v/p) for v >= 0 and p > 0, through log1p((v-p)/p)
// where v is within a factor 2 of p (v - p is then exact) and as
// ln v - ln p elsewhere (v/p could underflow).
func logRatio(v, p float64) float64 {
	if v >= p/2 && v <= 2*p {
		return math.Log1p((v - p) / p)
	}
	return logx(v) - logx(p)
}

// geometricMeanGradient fills dst with the gradient M_0/(n x_k) of the
// geometric mean M_0 at positive x, in logarithms where M_0 is subnormal.
func geometricMeanGradient(dst, x []float64) {
	n := float64(len(x))
	lm := logPowerMean(x, 0)
	m := math.Exp(lm)
	for k, v := range x {
		if m < minNormal {
			dst[k] = math.Exp(lm-logx(v)) / n
		} else {
			dst[k] = m / (n * v)
		}
	}
}

// Param returns t.
func (op PowerMean) Param() float64 { return op.T }

// ParamDerivative returns ∂M_t/∂t = (M_t/t) (sum_i w_i ln x_i - ln M_t)
// with w_i = x_i^t / sum_j x_j^t. Near t = 0 it uses the cumulant series
// M_t (κ2/2 + κ3 t/3 + κ4 t²/8) of ln x, which avoids the cancellation of
// the closed form. It is 0 at ±Inf, 0 for t <= 0 when a coordinate is 0
// (M_t is then identically 0 near t), and 0 where M_t underflows to 0 (small
// t > 0 with a zero coordinate).
func (op PowerMean) ParamDerivative(x []float64) float64 {
	mustCheck(op, x)
	t := op.T
	if math.IsInf(t, 0) || sumOf(x) == 0 || (t <= 0 && hasZero(x)) {
		return 0
	}
	lm := logPowerMean(x, t)
	m := math.Exp(lm)
	if m == 0 {
		return 0
	}
	if !hasZero(x) {
		if lo, hi := logRange(x); math.Abs(t)*(hi-lo) < 1e-3 {
			return powerMeanSeries(x, t, m)
		}
	}
	// w_i ∝ exp(t (ln x_i - ln M_t)); the exponents are at most ln n, so
	// nothing overflows, whatever the size of x or of M_t.
	s, wl := 0.0, 0.0
	for _, v := range x {
		if v > 0 {
			l := logx(v)
			p := math.Exp(t * (l - lm))
			s += p
			wl += p * l
		}
	}
	return m / t * (wl/s - lm)
}

// WithParam returns the power mean with exponent t.
func (op PowerMean) WithParam(t float64) (Parametric, error) { return NewPowerMean(t) }

// Schur returns the class described on PowerMean.
func (op PowerMean) Schur(n int) SchurClass {
	t := op.T
	switch {
	case n <= 1 || t == 1:
		return Both
	case math.IsInf(t, 1):
		return Max{}.Schur(n)
	case math.IsInf(t, -1):
		return Min{}.Schur(n)
	case t > 1:
		return StrictlyConvex
	case t > 0 || n == 2:
		return StrictlyConcave
	}
	return Concave
}

// StrictlyIncreasing reports whether 0 < t < +Inf (or n = 1). For t <= 0 a
// zero coordinate holds the mean at 0 whatever the others do.
func (op PowerMean) StrictlyIncreasing(n int) bool {
	return n == 1 || (op.T > 0 && !math.IsInf(op.T, 1))
}

// Domain returns NonNegative.
func (PowerMean) Domain() Domain { return NonNegative }

// String returns "powermean(t)".
func (op PowerMean) String() string { return fmt.Sprintf("powermean(%s)", formatParam(op.T)) }

// powerMean returns M_t(x) for finite t.
func powerMean(x []float64, t float64) float64 { return math.Exp(logPowerMean(x, t)) }

// tinyExponent is the magnitude below which M_t is computed as the geometric
// mean M_0: the relative difference, about t Var(ln x)/2, is below 1e-24 on
// every valid input, while t ln x_i would lose precision as t approaches
// the subnormal range.
const tinyExponent = 1e-30

// logPowerMean returns ln M_t(x) for finite t (-Inf where M_t = 0),
// computed as K(t)/t with K(t) = ln mean exp(t ln x) evaluated without
// overflow or cancellation.
func logPowerMean(x []float64, t float64) float64 {
	if math.Abs(t) < tinyExponent {
		t = 0
	}
	if t <= 0 && hasZero(x) || sumOf(x) == 0 {
		return math.Inf(-1)
	}
	if t == 0 {
		s := 0.0
		for _, v := range x {
			s += logx(v)
		}
		return s / float64(len(x))
	}
	z := make([]float64, len(x))
	for i, v := range x {
		z[i] = t * logx(v) // -Inf for v = 0 when t > 0
	}
	return logMeanExp(z) / t
}

// logMeanExp returns ln((1/n) sum_i exp(z_i)) for z_i in [-Inf, +Inf) with
// at least one finite z_i. Small exponents go through expm1 and log1p so
// that K(t)/t stays accurate as t -> 0.
func logMeanExp(z []float64) float64 {
	n := float64(len(z))
	m := maxOf(z)
	if m < 0.5 && minOf(z) > -0.5 {
		s := 0.0
		for _, v := range z {
			s += math.Expm1(v)
		}
		return math.Log1p(s / n)
	}
	s := 0.0
	for _, v := range z {
		s += math.Exp(v - m)
	}
	return m + math.Log(s/n)
}

// powerMeanSeries returns ∂M_t/∂t = M_t d/dt (K(t)/t) from the cumulant
// expansion K(t)/t = κ1 + κ2 t/2 + κ3 t²/6 + κ4 t³/24 + O(t⁴) of ln x,
// for positive x and m = M_t(x). Its relative error is about
// (|t| (max ln x - min ln x))³.
func powerMeanSeries(x []float64, t, m float64) float64 {
	k2, k3, k4 := logCumulants(x)
	return m * (k2/2 + k3*t/3 + k4*t*t/8)
}

func hasZero(x []float64) bool {
	for _, v := range x {
		if v == 0 {
			return true
		}
	}
	return false
}

// raiseBelowFloor returns x with coordinates below ZeroFloor replaced by
// ZeroFloor (a copy if any is replaced).
func raiseBelowFloor(x []float64) []float64 {
	if minOf(x) >= ZeroFloor {
		return x
	}
	y := make([]float64, len(x))
	for i, v := range x {
		y[i] = math.Max(v, ZeroFloor)
	}
	return y
}

func logRange(x []float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, v := range x {
		l := logx(v)
		lo, hi = math.Min(lo, l), math.Max(hi, l)
	}
	return lo, hi
}

// logCumulants returns the second, third and fourth cumulants of ln x
// under the uniform distribution on the coordinates.
func logCumulants(x []float64) (k2, k3, k4 float64) {
	n := float64(len(x))
	mu := 0.0
	for _, v := range x {
		mu += logx(v) / n
	}
	var m2, m3, m4 float64
	for _, v := range x {
		d := logx(v) - mu
		m2 += d * d / n
		m3 += d * d * d / n
		m4 += d * d * d * d / n
	}
	return m2, m3, m4 - 3*m2*m2
}

// minNormal is the smallest positive normal float64.
const minNormal = 0x1p-1022

// powerSum returns sum_i x_i^t.
func powerSum(x []float64, t float64) float64 {
	s := 0.0
	for _, v := range x {
		s += powx(v, t)
	}
	return s
}

// powerSumGradient stores t x_i^(t-1) / n in dst, with x_i raised to
// ZeroFloor when t < 1, and returns dst.
func powerSumGradient(dst, x []float64, t, n float64) []float64 {
	for i, v := range x {
		if t < 1 && v < ZeroFloor {
			v = ZeroFloor
		}
		dst[i] = t * powx(v, t-1) / n
	}
	return dst
}

// powerSumParamDerivative returns sum_i x_i^t ln x_i (zero coordinates add
// 0).
func powerSumParamDerivative(x []float64, t float64) float64 {
	s := 0.0
	for _, v := range x {
		if v > 0 {
			s += powx(v, t) * logx(v)
		}
	}
	return s
}

// logx is math.Log, correct also for subnormal v. On amd64 math.Log does
// not normalise subnormal input (math.Log(5e-324) returns -709.09 instead of
// -744.44, golang/go#56600), and math.Pow inherits the error for
// non-integer exponents.
func logx(v float64) float64 {
	if v > 0 && v < minNormal {
		return math.Log(v*0x1p54) - 54*math.Ln2
	}
	return math.Log(v)
}

// powx is math.Pow(v, t) for v >= 0, correct also for subnormal v (see
// logx). The two factors cannot be 0 and +Inf at once: the first is +Inf
// only for t < 0, the second 0 only for t > 0.
func powx(v, t float64) float64 {
	if v > 0 && v < minNormal {
		return math.Pow(v*0x1p54, t) * math.Pow(2, -54*t)
	}
	return math.Pow(v, t)
}
