package aggregators

import (
	"math"
	"math/big"
	"math/rand"
	"testing"
)

// hardBoxInputs are inputs in [0,1]^n with zeros, ties, equal, tiny and
// subnormal values.
func hardBoxInputs(rng *rand.Rand) [][]float64 {
	xs := [][]float64{
		{0}, {1}, {5e-324},
		{0, 0}, {0, 1}, {1, 1}, {0, 0, 0, 0},
		{0.5, 0.5, 0.5, 0.5, 0.5, 0.5},
		{1, 1, 1}, {0.3, 0.3, 0.9}, {0.9, 0.9, 0.3},
		{5e-324, 1}, {5e-324, 0, 1}, {1e-300, 1}, {1e-300, 1e-300}, {1e-200, 0.5, 1},
		{1e-12, 1 - 1e-16, 1}, {0, 0, 0, 1e-300}, {1, 1 - 1e-16},
		{0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8},
	}
	for k := 0; k < 20; k++ {
		x := unitPoint(rng, 1+rng.Intn(8))
		// Zero or tie some coordinates.
		for i := range x {
			switch rng.Intn(5) {
			case 0:
				x[i] = 0
			case 1:
				x[i] = x[0]
			case 2:
				x[i] = math.Pow(10, -300*rng.Float64())
			}
		}
		xs = append(xs, x)
	}
	return xs
}

// extremeParametrics are members of the families at extreme parameters.
func extremeParametrics() []Parametric {
	var ops []Parametric
	for _, t := range []float64{1e3, MaxParam, 1e2, 1, 1e-3, 1e-9, 1e-30, 1e-100, 1e-300, 5e-324} {
		for _, s := range []float64{1, -1} {
			ops = append(ops, Softmax{T: s * t}, PowerMean{T: s * t})
			if t >= minLSEParam {
				ops = append(ops, LogSumExp{T: s * t})
			}
		}
		ops = append(ops, PowerSum{T: t}, MeanPower{T: t})
	}
	inf := math.Inf(1)
	ops = append(ops, Softmax{}, PowerMean{}, Softmax{T: inf}, Softmax{T: -inf}, PowerMean{T: inf}, PowerMean{T: -inf},
		LogSumExp{T: inf}, LogSumExp{T: -inf}, exampleBlotto())
	return ops
}

// TestFiniteOnTheBox checks that Value, Gradient and ParamDerivative are
// finite on hard inputs in [0,1]^n for every family at extreme parameters.
func TestFiniteOnTheBox(t *testing.T) {
	rng := rand.New(rand.NewSource(20))
	xs := hardBoxInputs(rng)
	var ops []Operator
	for _, op := range extremeParametrics() {
		ops = append(ops, op)
	}
	ops = append(ops, Min{}, Max{}, Mean{}, Sum{}, LevelThreshold{L: 1})
	for _, op := range sumForms() {
		ops = append(ops, op)
	}
	for _, op := range ops {
		for _, x := range xs {
			if v := op.Value(x); !finite(v) {
				t.Errorf("%v at %v: Value = %v", op, x, v)
			}
			if g := op.Gradient(nil, x); !allFinite(g) {
				t.Errorf("%v at %v: Gradient = %v", op, x, g)
			}
			if p, ok := op.(Parametric); ok {
				if d := p.ParamDerivative(x); !finite(d) {
					t.Errorf("%v at %v: ParamDerivative = %v", op, x, d)
				}
			}
		}
	}
}

// TestBoundsOnTheBox checks order facts that hold for every parameter:
// the means lie between min and max, LSE lies within ln(n)/|t| of its
// extreme, the parametric families are monotone in t, and the gradients of
// the monotone families are non-negative.
func TestBoundsOnTheBox(t *testing.T) {
	rng := rand.New(rand.NewSource(21))
	xs := hardBoxInputs(rng)
	for _, op := range extremeParametrics() {
		for _, x := range xs {
			lo, hi := refMin(x), refMax(x)
			v := op.Value(x)
			d := op.ParamDerivative(x)
			g := op.Gradient(nil, x)
			slack := 1e-15 * math.Max(hi, 1e-300)
			switch o := op.(type) {
			case Softmax:
				if v < lo-slack || v > hi+slack {
					t.Errorf("%v at %v = %v, outside [min, max]", op, x, v)
				}
				// ∂f/∂t is a variance.
				if d < 0 {
					t.Errorf("%v at %v: ∂f/∂t = %v < 0", op, x, d)
				}
			case PowerMean:
				if v < lo*(1-1e-12) || v > hi*(1+1e-12) {
					t.Errorf("%v at %v = %v, outside [min, max] = [%v, %v]", op, x, v, lo, hi)
				}
				// M_t is non-decreasing in t and in every x_k.
				if d < 0 {
					t.Errorf("%v at %v: ∂M/∂t = %v < 0", op, x, d)
				}
				for k, gk := range g {
					if gk < 0 {
						t.Errorf("%v at %v: ∂_%d = %v < 0", op, x, k, gk)
					}
				}
			case LogSumExp:
				n := float64(len(x))
				if o.T > 0 && (v < hi || v > hi+math.Log(n)/o.T*(1+1e-12)+slack) {
					t.Errorf("%v at %v = %v, outside [max, max + ln(n)/t]", op, x, v)
				}
				if o.T < 0 && (v > lo || v < lo+math.Log(n)/o.T*(1+1e-12)-slack) {
					t.Errorf("%v at %v = %v, outside [min + ln(n)/t, min]", op, x, v)
				}
				// LSE_t is non-increasing in t; its gradient is a
				// probability vector.
				if d > 0 {
					t.Errorf("%v at %v: ∂f/∂t = %v > 0", op, x, d)
				}
				if s := refSum(g); math.Abs(s-1) > 1e-12 {
					t.Errorf("%v at %v: gradient %v sums to %v", op, x, g, s)
				}
			case PowerSum:
				// On the box, x^t is non-increasing in t.
				if d > 0 {
					t.Errorf("%v at %v: ∂f/∂t = %v > 0", op, x, d)
				}
				if v < 0 || v > float64(len(x)) {
					t.Errorf("%v at %v = %v, outside [0, n]", op, x, v)
				}
			case MeanPower:
				// The mean of x^t, non-increasing in t on the box.
				if d > 0 {
					t.Errorf("%v at %v: ∂f/∂t = %v > 0", op, x, d)
				}
				if v < 0 || v > 1 {
					t.Errorf("%v at %v = %v, outside [0, 1]", op, x, v)
				}
			}
		}
	}
}

// TestHugeInputs checks inputs of magnitude up to MaxInput outside the box:
// nothing is NaN, and the operators whose value is of the order of the
// inputs return finite values.
func TestHugeInputs(t *testing.T) {
	realXs := [][]float64{
		{MaxInput, -MaxInput}, {-MaxInput, -MaxInput, MaxInput}, {MaxInput, MaxInput},
		{1e-300, MaxInput}, {0, -1e50, 1e50, 3},
	}
	nonNegXs := [][]float64{
		{MaxInput, 0}, {MaxInput, MaxInput, MaxInput}, {5e-324, MaxInput}, {1e-300, 1e300 / 1e200, 7},
	}
	ops := []Operator{Min{}, Max{}, Mean{}, Sum{}}
	for _, p := range extremeParametrics() {
		ops = append(ops, p)
	}
	for _, op := range ops {
		xs := nonNegXs
		if op.Domain() == Real {
			xs = append(xs, realXs...)
		}
		for _, x := range xs {
			v := op.Value(x)
			g := op.Gradient(nil, x)
			if math.IsNaN(v) || hasNaN(g) {
				t.Errorf("%v at %v: Value %v, Gradient %v", op, x, v, g)
			}
			switch op.(type) {
			case PowerSum, MeanPower:
				// x^t overflows for large x and t > 1.
			default:
				if !finite(v) {
					t.Errorf("%v at %v: Value = %v", op, x, v)
				}
			}
			if p, ok := op.(Parametric); ok {
				if d := p.ParamDerivative(x); math.IsNaN(d) {
					t.Errorf("%v at %v: ParamDerivative = %v", op, x, d)
				}
			}
		}
	}
}

// TestLimits checks the limits of the families as t -> ±Inf and t -> 0
// with error bounds derived from their definitions.
func TestLimits(t *testing.T) {
	rng := rand.New(rand.NewSource(22))
	for n := 1; n <= 8; n++ {
		nf := float64(n)
		for trial := 0; trial < 20; trial++ {
			x := boxPoint(rng, n, 0)
			if trial%4 == 0 {
				x[rng.Intn(n)] = 0
			}
			lo, hi := refMin(x), refMax(x)
			for _, tt := range []float64{1e3, MaxParam} {
				// max - Softmax_t = sum_i w_i (max - x_i) <= (n-1)/(e t),
				// since d e^(-t d) <= 1/(e t).
				bound := (nf - 1) / (math.E * tt)
				// The weighted sum may exceed max by a few ulps.
				if v := (Softmax{T: tt}).Value(x); v > hi+4e-16 || hi-v > bound+1e-15 {
					t.Errorf("softmax(%v) at %v = %v, max %v", tt, x, v, hi)
				}
				if v := (Softmax{T: -tt}).Value(x); v < lo-4e-16 || v-lo > bound+1e-15 {
					t.Errorf("softmax(%v) at %v = %v, min %v", -tt, x, v, lo)
				}
				// max <= LSE_t <= max + ln(n)/t.
				if v := (LogSumExp{T: tt}).Value(x); v < hi || v-hi > math.Log(nf)/tt+1e-15 {
					t.Errorf("lse(%v) at %v = %v, max %v", tt, x, v, hi)
				}
				if v := (LogSumExp{T: -tt}).Value(x); v > lo || lo-v > math.Log(nf)/tt+1e-15 {
					t.Errorf("lse(%v) at %v = %v, min %v", -tt, x, v, lo)
				}
				// max n^(-1/t) <= M_t <= max and min <= M_-t <= min n^(1/t).
				if v := (PowerMean{T: tt}).Value(x); v > hi*(1+1e-15) || v < hi*math.Pow(nf, -1/tt)*(1-1e-15) {
					t.Errorf("powermean(%v) at %v = %v, max %v", tt, x, v, hi)
				}
				if v := (PowerMean{T: -tt}).Value(x); v < lo*(1-1e-15) || v > lo*math.Pow(nf, 1/tt)*(1+1e-15) {
					t.Errorf("powermean(%v) at %v = %v, min %v", -tt, x, v, lo)
				}
			}
			// Softmax_0 is the mean; Softmax_t -> mean as t -> 0.
			mean := refSum(x) / nf
			if v := (Softmax{}).Value(x); math.Abs(v-mean) > 1e-15 {
				t.Errorf("softmax(0) at %v = %v, mean %v", x, v, mean)
			}
			for _, tt := range []float64{1e-30, 5e-324, -5e-324} {
				if v := (Softmax{T: tt}).Value(x); math.Abs(v-mean) > 1e-15 {
					t.Errorf("softmax(%v) at %v = %v, mean %v", tt, x, v, mean)
				}
			}
			// The power mean tends to the geometric mean as t -> 0; the
			// relative difference is about t Var(ln x)/2.
			geo := refPowerMean(x, 0)
			for _, tt := range []float64{1e-9, -1e-9, 1e-12, 1e-30, -1e-50, 1e-300, 5e-324, -5e-324} {
				v := (PowerMean{T: tt}).Value(x)
				switch {
				case lo == 0 && tt > 0 && tt >= 1e-9:
					// M_t = (k/n)^(1/t) M_t(positive part) underflows to 0.
					if v != 0 {
						t.Errorf("powermean(%v) at %v = %v, want 0", tt, x, v)
					}
				case lo == 0:
					if v != 0 {
						t.Errorf("powermean(%v) at %v = %v, want 0", tt, x, v)
					}
				default:
					lm, lM := logRange(x)
					tol := math.Abs(tt)*(lM-lm)*(lM-lm) + 1e-14
					if math.Abs(v-geo) > tol*geo {
						t.Errorf("powermean(%v) at %v = %.17g, geometric mean %.17g", tt, x, v, geo)
					}
				}
			}
			// At t = 1 the power mean is the mean and the power-sum the sum.
			if v := (PowerMean{T: 1}).Value(x); math.Abs(v-mean) > 1e-15 {
				t.Errorf("powermean(1) at %v = %v, mean %v", x, v, mean)
			}
			if v := (PowerSum{T: 1}).Value(x); math.Abs(v-refSum(x)) > 1e-15 {
				t.Errorf("powersum(1) at %v = %v, sum %v", x, v, refSum(x))
			}
			// The ±Inf members are the limits exactly.
			inf := math.Inf(1)
			for _, op := range []Operator{Softmax{T: inf}, LogSumExp{T: inf}, PowerMean{T: inf}} {
				if v := op.Value(x); v != hi {
					t.Errorf("%v at %v = %v, max %v", op, x, v, hi)
				}
			}
			for _, op := range []Operator{Softmax{T: -inf}, LogSumExp{T: -inf}, PowerMean{T: -inf}} {
				if v := op.Value(x); v != lo {
					t.Errorf("%v at %v = %v, min %v", op, x, v, lo)
				}
			}
		}
	}
}

// TestPowerMeanSmallExponentWithZeros covers the underflow of M_t for small
// t > 0 when a coordinate is 0, where ∂M/∂t used to be NaN.
func TestPowerMeanSmallExponentWithZeros(t *testing.T) {
	x := []float64{0, 0.5}
	for _, tt := range []float64{1e-2, 1e-3, 2e-3, 1e-4, 1e-9, 1e-300, 5e-324} {
		op := PowerMean{T: tt}
		v, d := op.Value(x), op.ParamDerivative(x)
		// M_t(0, 0.5) = 0.5 2^(-1/t); ∂M/∂t = M_t ln2/t².
		want := 0.5 * math.Pow(2, -1/tt)
		wantD := 0.0
		if want != 0 {
			wantD = want * math.Ln2 / (tt * tt)
		}
		if !closeTo(v, want, 1e-12, 1e-300) || !closeTo(d, wantD, 1e-10, 1e-300) {
			t.Errorf("%v at %v: M = %v, ∂M/∂t = %v; want %v, %v", op, x, v, d, want, wantD)
		}
		if g := op.Gradient(nil, x); !allFinite(g) {
			t.Errorf("%v at %v: gradient %v", op, x, g)
		}
	}
}

// TestLSESmallParameter checks the smallest accepted LSE temperature.
func TestLSESmallParameter(t *testing.T) {
	x := []float64{0, 0.25, 0.5, 1}
	for _, tt := range []float64{minLSEParam, -minLSEParam, 1e-50} {
		op, err := NewLogSumExp(tt)
		if err != nil {
			t.Fatalf("NewLogSumExp(%v): %v", tt, err)
		}
		// LSE_t ≈ mean + ln(n)/t, ∂/∂t ≈ -ln(n)/t².
		v, d := op.Value(x), op.ParamDerivative(x)
		if !closeTo(v, math.Log(4)/tt, 1e-12, 0) || !closeTo(d, -math.Log(4)/(tt*tt), 1e-12, 0) {
			t.Errorf("%v: value %v, ∂/∂t %v", op, v, d)
		}
	}
	if _, err := NewLogSumExp(minLSEParam / 2); err == nil {
		t.Errorf("NewLogSumExp(%v) accepted", minLSEParam/2)
	}
}

// TestSubnormalInputs checks values at subnormal inputs against closed
// forms. math.Log and math.Pow are wrong there on amd64 (golang/go#56600).
func TestSubnormalInputs(t *testing.T) {
	const tiny = 0x1p-1074 // 5e-324
	if got, want := logx(tiny), -1074*math.Ln2; math.Abs(got-want) > 1e-13 {
		t.Errorf("logx(2^-1074) = %v, want %v", got, want)
	}
	if got, want := logx(0x1p-1050*3), math.Log(3)-1050*math.Ln2; math.Abs(got-want) > 1e-13 {
		t.Errorf("logx(3 2^-1050) = %v, want %v", got, want)
	}
	tests := []struct {
		op   Operator
		x    []float64
		want float64
	}{
		// (2^-1070)^0.3 = 2^-321.
		{PowerSum{T: 0.3}, []float64{0x1p-1070}, 0x1p-321},
		{PowerSum{T: 0.5}, []float64{0x1p-1070, 0x1p-1070}, 0x1p-534},
		// A mean of equal values is that value.
		{PowerMean{T: 0.3}, []float64{0x1p-1070, 0x1p-1070}, 0x1p-1070},
		{PowerMean{T: 0}, []float64{0x1p-1070}, 0x1p-1070},
		{PowerMean{T: -2.5}, []float64{tiny, tiny, tiny}, tiny},
		// Geometric mean of 2^-1060 and 2^-40 is 2^-550.
		{PowerMean{T: 0}, []float64{0x1p-1060, 0x1p-40}, 0x1p-550},
		// M_{1/2}(2^-1060, 0) = (2^-530 / 2)^2 = 2^-1062.
		{PowerMean{T: 0.5}, []float64{0x1p-1060, 0}, 0x1p-1062},
	}
	for _, tc := range tests {
		if got := tc.op.Value(tc.x); !closeTo(got, tc.want, 1e-12, 0) {
			t.Errorf("%v at %v = %v, want %v", tc.op, tc.x, got, tc.want)
		}
	}
	// The gradient is homogeneous of degree 0, so at a subnormal point it
	// is that of any multiple: M_t's own rounding there must not enter it.
	for _, g := range []struct {
		op PowerMean
		x  []float64
	}{
		{PowerMean{T: 2}, []float64{tiny, 0}}, {PowerMean{T: 2}, []float64{2 * tiny, 0}},
		{PowerMean{T: 2}, []float64{0x1p-1060, 0x1p-1062}}, {PowerMean{T: 3}, []float64{3 * tiny, tiny, 0}},
		{PowerMean{T: 1}, []float64{tiny, 0}}, {PowerMean{T: 0}, []float64{0x1p-1060, 0x1p-1070}},
		{PowerMean{T: -1.5}, []float64{0x1p-1060, 0x1p-1070}},
	} {
		scaled := make([]float64, len(g.x))
		for k, v := range g.x {
			scaled[k] = v * 0x1p1000
		}
		got, want := g.op.Gradient(nil, g.x), g.op.Gradient(nil, scaled)
		for k := range got {
			if !closeTo(got[k], want[k], 1e-12, 1e-300) {
				t.Errorf("%v: ∂/∂x_%d at %v = %v, want %v (the gradient at %v)", g.op, k, g.x, got[k], want[k], scaled)
			}
		}
	}
	// ∂/∂t of the power-sum at 2^-1070 with t = 1: 2^-1070 ln(2^-1070).
	if got, want := (PowerSum{T: 1}).ParamDerivative([]float64{0x1p-1070}), 0x1p-1070*(-1070*math.Ln2); !closeTo(got, want, 1e-3, 0) {
		t.Errorf("powersum(1) ∂/∂t at 2^-1070 = %v, want %v", got, want)
	}
	// ∂M/∂t at t = 0 of (2^-1060, 2^-40) is M_0 Var(ln x)/2 = 2^-550 (510 ln2)²/2.
	if got, want := (PowerMean{}).ParamDerivative([]float64{0x1p-1060, 0x1p-40}), 0x1p-550*math.Pow(510*math.Ln2, 2)/2; !closeTo(got, want, 1e-12, 0) {
		t.Errorf("powermean(0) ∂/∂t = %v, want %v", got, want)
	}
}

// bigPow returns r^e in r's precision for an integer e, by squaring.
func bigPow(r *big.Float, e int) *big.Float {
	if e < 0 {
		return new(big.Float).SetPrec(r.Prec()).Quo(big.NewFloat(1).SetPrec(r.Prec()), bigPow(r, -e))
	}
	res := big.NewFloat(1).SetPrec(r.Prec())
	b := new(big.Float).Set(r)
	for ; e > 0; e >>= 1 {
		if e&1 == 1 {
			res.Mul(res, b)
		}
		b.Mul(b, b)
	}
	return res
}

// powerMeanGradientRef returns ∂M_t/∂x_k = (1/n) r_k^(t-1) (S/n)^(1/t-1)
// for a non-zero integer t, with r_i = x_i/p exact to 300 bits (p the
// largest coordinate for t > 0, the smallest for t < 0) and S = sum r_i^t
// in [1, n]; only the root (S/n)^(1/t), close to 1, is taken in float64.
func powerMeanGradientRef(x []float64, t int) []float64 {
	const prec = 300
	p := maxOf(x)
	if t < 0 {
		p = minOf(x)
	}
	bp := new(big.Float).SetPrec(prec).SetFloat64(p)
	n := big.NewFloat(float64(len(x))).SetPrec(prec)
	s := new(big.Float).SetPrec(prec)
	powers := make([]*big.Float, len(x)) // r_i^(t-1)
	for i, v := range x {
		r := new(big.Float).SetPrec(prec).Quo(new(big.Float).SetPrec(prec).SetFloat64(v), bp)
		powers[i] = bigPow(r, t-1)
		s.Add(s, new(big.Float).SetPrec(prec).Mul(powers[i], r))
	}
	mean := new(big.Float).SetPrec(prec).Quo(s, n)
	m, _ := mean.Float64()
	root := math.Exp(math.Log(m) / float64(t))
	out := make([]float64, len(x))
	for i := range x {
		q := new(big.Float).SetPrec(prec).Quo(powers[i], mean)
		q.Quo(q, n)
		f, _ := q.Float64()
		out[i] = f * root
	}
	return out
}

// TestPowerMeanGradientLargeExponent checks the gradient of M_t for |t|
// up to 1e6 against a 300-bit reference: the largest partial derivatives
// are those of coordinates close to the dominant one, where taking
// x_k/M_t in float64 and raising it to t-1 lost |t| ulps (1e-8 of the
// value at t = 1e6 with x near 100).
func TestPowerMeanGradientLargeExponent(t *testing.T) {
	xs := [][]float64{
		{0.3, 0.3000001, 0.2}, {100, 100.00001, 50}, {1e-3, 1.0000005e-3}, {5, 5, 5},
		{7, 7 * (1 + 3e-7), 7 * (1 - 2e-7), 1}, {1e-9, 1.0000001e-9}, {1e99, 1.0000001e99},
	}
	for _, x := range xs {
		for _, e := range []int{2, 3, 1000, -1000, 1000000, -1000000} {
			op := PowerMean{T: float64(e)}
			got, want := op.Gradient(nil, x), powerMeanGradientRef(x, e)
			p := maxOf(x)
			if e < 0 {
				p = minOf(x)
			}
			for k := range got {
				// Coordinates far from the dominant one p carry |t| ulps
				// of ln(x_k/p) in their (tiny) partial derivatives.
				tol := 1e-14 * math.Max(1, math.Abs(float64(e))*math.Abs(math.Log(x[k]/p)))
				if d := math.Abs(got[k] - want[k]); d > tol*want[k] && d > 1e-300 {
					t.Errorf("%v at %v: ∂/∂x_%d = %v, want %v (relative error %.2g)", op, x, k, got[k], want[k], d/want[k])
				}
			}
		}
	}
}
