package aggregators

import (
	"fmt"
	"math"
	"math/rand"
	"testing"
)

// gradTol is the relative tolerance of gradients against five-point
// central differences, relative to the largest partial derivative.
const gradTol = 1e-6

// xStep returns the finite-difference steps in x for op at x: 1e-3 over the
// steepness |t| for the exponential families, and in addition relative to
// x_i for the power families, whose derivatives scale with 1/x_i.
func xStep(op Operator, x []float64) []float64 {
	h := make([]float64, len(x))
	for i, v := range x {
		switch o := op.(type) {
		case Softmax:
			h[i] = 1e-3 / math.Max(1, math.Abs(o.T))
		case LogSumExp:
			h[i] = 1e-3 / math.Max(1, math.Abs(o.T))
		case PowerSum:
			h[i] = 1e-3 * v / math.Max(1, math.Abs(o.T))
		case MeanPower:
			h[i] = 1e-3 * v / math.Max(1, math.Abs(o.T))
		case PowerMean:
			h[i] = 1e-3 * v / math.Max(1, math.Abs(o.T))
		default:
			h[i] = 1e-3 * math.Min(1, v)
		}
	}
	return h
}

// checkGradient compares op.Gradient at x with finite differences with
// steps h, and checks that a supplied dst is filled and returned.
func checkGradient(t *testing.T, op Operator, x, h []float64, tol float64) {
	t.Helper()
	got := op.Gradient(nil, x)
	want := numGradient(op.Value, x, h)
	scale := maxAbs(want)
	for i := range x {
		if !closeTo(got[i], want[i], tol, scale) {
			t.Errorf("%v at %v: ∂_%d = %.12g, finite difference %.12g (rel. error %.3g of max |∂| %.3g)",
				op, x, i, got[i], want[i], math.Abs(got[i]-want[i])/math.Max(math.Abs(want[i]), scale), scale)
		}
	}
	dst := make([]float64, len(x))
	for i := range dst {
		dst[i] = math.NaN()
	}
	ret := op.Gradient(dst, x)
	if &ret[0] != &dst[0] {
		t.Errorf("%v: Gradient(dst, x) did not return dst", op)
	}
	for i := range dst {
		if dst[i] != got[i] {
			t.Errorf("%v at %v: Gradient(dst)[%d] = %v, Gradient(nil)[%d] = %v", op, x, i, dst[i], i, got[i])
		}
	}
}

// sumForms returns the sum-form operators of the tests, with and without
// their derivative.
func sumForms() []SumForm {
	g := func(v float64) float64 { return math.Sin(3*v) + v*v }
	dg := func(v float64) float64 { return 3*math.Cos(3*v) + 2*v }
	sq := func(v float64) float64 { return v * math.Sqrt(v) } // v^1.5, strictly convex on [0, Inf)
	dsq := func(v float64) float64 { return 1.5 * math.Sqrt(v) }
	return []SumForm{
		{Name: "sin3+sq", G: g, DG: dg},
		{Name: "sin3+sq-fd", G: g},
		{Name: "pow1.5", G: sq, DG: dsq, Dom: NonNegative, Class: StrictlyConvex, Increasing: true},
		{Name: "pow1.5-fd", G: sq, Dom: NonNegative, Class: StrictlyConvex, Increasing: true},
	}
}

func TestGradientSmoothOperators(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	var ops []Operator
	for _, op := range testParametrics() {
		ops = append(ops, op)
	}
	ops = append(ops, Mean{}, Sum{})
	for _, op := range sumForms() {
		ops = append(ops, op)
	}
	for n := 1; n <= 8; n++ {
		for trial := 0; trial < 4; trial++ {
			x := unitPoint(rng, n)
			for _, op := range ops {
				checkGradient(t, op, x, xStep(op, x), gradTol)
			}
		}
	}
}

// TestGradientKnownValues checks gradients at points where they are derived
// by hand.
func TestGradientKnownValues(t *testing.T) {
	tests := []struct {
		op   Operator
		x    []float64
		want []float64
	}{
		// Softmax at t = 0 is the mean: ∂_k = 1/n.
		{Softmax{}, []float64{0.2, 0.9, 0.4, 0.1}, []float64{0.25, 0.25, 0.25, 0.25}},
		// At equal coordinates the softmax weights are 1/n and x_k = f, so
		// ∂_k = 1/n for every t.
		{Softmax{T: 7}, []float64{0.3, 0.3, 0.3}, []float64{1.0 / 3, 1.0 / 3, 1.0 / 3}},
		// LSE's gradient is softmax(t x): at x = (0, ln 3), t = 1, it is (1/4, 3/4).
		{LogSumExp{T: 1}, []float64{0, math.Log(3)}, []float64{0.25, 0.75}},
		// Power-sum t = 2: 2 x.
		{PowerSum{T: 2}, []float64{0.5, 0.25}, []float64{1, 0.5}},
		// Geometric mean of (1, 4) is 2; ∂_k = M/(n x_k) = (1, 1/4).
		{PowerMean{T: 0}, []float64{1, 4}, []float64{1, 0.25}},
		// Quadratic mean of (3, 4) is sqrt(12.5); ∂_k = x_k/(n M).
		{PowerMean{T: 2}, []float64{3, 4}, []float64{3 / (2 * math.Sqrt(12.5)), 4 / (2 * math.Sqrt(12.5))}},
		// Mean and sum.
		{Mean{}, []float64{5, 6, 7, 8, 9}, []float64{0.2, 0.2, 0.2, 0.2, 0.2}},
		{Sum{}, []float64{-1, 2}, []float64{1, 1}},
		// Ties: 1/k on the k tied extremes.
		{Min{}, []float64{0.2, 0.5, 0.2, 0.9}, []float64{0.5, 0, 0.5, 0}},
		{Max{}, []float64{0.9, 0.5, 0.9, 0.9}, []float64{1.0 / 3, 0, 1.0 / 3, 1.0 / 3}},
		{Min{}, []float64{0.7}, []float64{1}},
		// The limits ±Inf take the subgradients of max and min.
		{Softmax{T: math.Inf(1)}, []float64{0.1, 0.8}, []float64{0, 1}},
		{LogSumExp{T: math.Inf(-1)}, []float64{0.1, 0.8}, []float64{1, 0}},
		{PowerMean{T: math.Inf(1)}, []float64{0.4, 0.4, 0.1}, []float64{0.5, 0.5, 0}},
		// PowerMean at x = 0 with t >= 1: the one-sided derivatives n^(-1/t).
		{PowerMean{T: 2}, []float64{0, 0}, []float64{1 / math.Sqrt(2), 1 / math.Sqrt(2)}},
		// PowerSum with t < 1 at a zero coordinate: t ZeroFloor^(t-1).
		{PowerSum{T: 0.5}, []float64{0, 0.25}, []float64{0.5 / math.Sqrt(ZeroFloor), 1}},
		{MeanPower{T: 0.5}, []float64{0, 0.25}, []float64{0.25 / math.Sqrt(ZeroFloor), 0.5}},
		// Threshold operators: zero gradient.
		{LevelThreshold{L: 1}, []float64{0.5, 0.7}, []float64{0, 0}},
		{exampleBlotto(), []float64{0.5, 0.7}, []float64{0, 0}},
	}
	for _, tc := range tests {
		got := tc.op.Gradient(nil, tc.x)
		for i := range tc.want {
			if !closeTo(got[i], tc.want[i], 1e-14, 1e-300) {
				t.Errorf("%v at %v: gradient %v, want %v", tc.op, tc.x, got, tc.want)
				break
			}
		}
	}
}

func TestGradientMinMaxUntied(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	for n := 1; n <= 8; n++ {
		for trial := 0; trial < 10; trial++ {
			x := unitPoint(rng, n)
			gap := 1.0
			for i := range x {
				for j := range x {
					if i != j {
						gap = math.Min(gap, math.Abs(x[i]-x[j]))
					}
				}
			}
			h := make([]float64, n)
			for i := range h {
				h[i] = math.Min(1e-3, gap/8)
			}
			for _, op := range []Operator{Min{}, Max{}, Softmax{T: math.Inf(-1)}, PowerMean{T: math.Inf(1)}, LogSumExp{T: math.Inf(1)}} {
				checkGradient(t, op, x, h, gradTol)
			}
		}
	}
}

// TestGradientThresholdsAwayFromJumps checks that the threshold operators
// have zero gradient, equal to the finite difference, where the sum of x
// is away from their jumps.
func TestGradientThresholdsAwayFromJumps(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	blotto := exampleBlotto()
	level := LevelThreshold{L: 1.5}
	jumps := map[string][]float64{blotto.String(): blotto.Troops, level.String(): {level.L}}
	checked := 0
	for n := 1; n <= 8; n++ {
		for trial := 0; trial < 20; trial++ {
			x := unitPoint(rng, n)
			s := refSum(x)
			for _, op := range []Operator{blotto, level} {
				near := false
				for _, a := range jumps[op.String()] {
					// The differences move the sum by at most 2e-3.
					if math.Abs(s-a) < 1e-2 {
						near = true
					}
				}
				if near {
					continue
				}
				h := make([]float64, n)
				for i := range h {
					h[i] = math.Min(1e-3, x[i]/4)
				}
				got := op.Gradient(nil, x)
				want := numGradient(op.Value, x, h)
				for i := range got {
					if got[i] != 0 || want[i] != 0 {
						t.Errorf("%v at %v: gradient %v, finite difference %v, want 0", op, x, got, want)
						break
					}
				}
				checked++
			}
		}
	}
	if checked < 200 {
		t.Errorf("only %d points away from the jumps", checked)
	}
}

// TestGradientSumFormAtBoundary checks the one-sided difference of a
// NonNegative SumForm without DG at and near 0.
func TestGradientSumFormAtBoundary(t *testing.T) {
	op := SumForm{Name: "sq", G: func(v float64) float64 { return v*v + v }, Dom: NonNegative}
	for _, x := range [][]float64{{0, 0.5}, {1e-7, 3}} {
		got := op.Gradient(nil, x)
		for i, v := range x {
			want := 2*v + 1
			// A forward difference with step h = 1e-6 has error h g''/2 = 1e-6.
			if math.Abs(got[i]-want) > 2e-6 {
				t.Errorf("%v at %v: ∂_%d = %v, want %v", op, x, i, got[i], want)
			}
		}
	}
}

// tStep returns the finite-difference step in the parameter of op at x:
// the t-derivatives of the exponential families scale with powers of the
// spread of x (at most 1 on the box), those of the power families with
// powers of ln x.
func tStep(op Parametric, x []float64) float64 {
	switch op.(type) {
	case PowerSum, MeanPower, PowerMean:
		l := 1.0
		for _, v := range x {
			l = math.Max(l, math.Abs(math.Log(v)))
		}
		return 1e-3 / l
	}
	return 1e-3
}

// numParamDerivative returns the finite-difference derivative of op's value
// at x with respect to its parameter.
func numParamDerivative(op Parametric, x []float64, h float64) float64 {
	return derivative5(func(s float64) float64 {
		o, err := op.WithParam(op.Param() + s)
		if err != nil {
			panic(fmt.Sprintf("WithParam(%v): %v", op.Param()+s, err))
		}
		return o.Value(x)
	}, h)
}

func checkParamDerivative(t *testing.T, op Parametric, x []float64, h, tol float64) {
	t.Helper()
	got := op.ParamDerivative(x)
	want := numParamDerivative(op, x, h)
	// The roundoff of the difference is about 1e-16 |f| / h.
	floor := 1e-13 * math.Max(1, math.Abs(op.Value(x))) / h
	if math.Abs(got-want) > tol*math.Abs(want)+floor {
		t.Errorf("%v at %v: ∂f/∂t = %.12g, finite difference %.12g (rel. error %.3g)",
			op, x, got, want, math.Abs(got-want)/math.Abs(want))
	}
}

func TestParamDerivative(t *testing.T) {
	rng := rand.New(rand.NewSource(4))
	ops := testParametrics()
	blotto := exampleBlotto()
	for _, v := range []float64{0.01, 0.5, 3} {
		b, err := blotto.WithParam(v)
		if err != nil {
			t.Fatal(err)
		}
		ops = append(ops, b)
	}
	for n := 1; n <= 8; n++ {
		for trial := 0; trial < 4; trial++ {
			x := unitPoint(rng, n)
			for _, op := range ops {
				checkParamDerivative(t, op, x, tStep(op, x), gradTol)
			}
		}
	}
}

// TestPowerMeanParamDerivativeNearZero covers t = 0 exactly and the
// cumulant-series branch, |t| (max ln x - min ln x) < 1e-3.
func TestPowerMeanParamDerivativeNearZero(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	params := []float64{0, 1e-9, -1e-9, 1e-7, -1e-7, 1e-5, -1e-5, 1e-4, -1e-4, 1e-2, -1e-2}
	series := 0
	for n := 1; n <= 8; n++ {
		for trial := 0; trial < 4; trial++ {
			x := boxPoint(rng, n, 0.01)
			lo, hi := logRange(x)
			for _, p := range params {
				if math.Abs(p)*(hi-lo) < 1e-3 && n > 1 {
					series++
				}
				checkParamDerivative(t, PowerMean{T: p}, x, tStep(PowerMean{T: p}, x), gradTol)
			}
		}
	}
	if series < 100 {
		t.Errorf("the series branch was taken only %d times", series)
	}

	// At t = 0, d/dt ln M_t = Var(ln x)/2. For x = (1, e^-2): M_0 = 1/e and
	// Var(ln x) = 1, so ∂M/∂t = 1/(2e).
	x := []float64{1, math.Exp(-2)}
	if got, want := (PowerMean{}).ParamDerivative(x), 1/(2*math.E); math.Abs(got-want) > 1e-15 {
		t.Errorf("PowerMean(0) at %v: ∂M/∂t = %v, want 1/(2e) = %v", x, got, want)
	}
	// At n = 1 or equal coordinates M_t does not depend on t.
	for _, p := range []float64{0, 1e-5, 0.5, -3} {
		for _, x := range [][]float64{{0.3}, {0.7, 0.7, 0.7}} {
			if got := (PowerMean{T: p}).ParamDerivative(x); math.Abs(got) > 1e-15 {
				t.Errorf("PowerMean(%v) at %v: ∂M/∂t = %v, want 0", p, x, got)
			}
		}
	}
}

// TestPowerMeanParamDerivativeBranchContinuity checks that the series and
// the closed form agree on both sides of the switch between them.
func TestPowerMeanParamDerivativeBranchContinuity(t *testing.T) {
	rng := rand.New(rand.NewSource(6))
	for n := 2; n <= 8; n++ {
		for trial := 0; trial < 5; trial++ {
			x := boxPoint(rng, n, 0.05)
			lo, hi := logRange(x)
			for _, sign := range []float64{1, -1} {
				edge := sign * 1e-3 / (hi - lo)
				in := (PowerMean{T: edge * (1 - 1e-9)}).ParamDerivative(x)
				out := (PowerMean{T: edge * (1 + 1e-9)}).ParamDerivative(x)
				if math.Abs(in-out) > 1e-7*math.Abs(in) {
					t.Errorf("PowerMean at %v, t = %v: series %.15g, closed form %.15g", x, edge, in, out)
				}
			}
		}
	}
}

// TestParamDerivativeKnownValues checks derivatives derived by hand.
func TestParamDerivativeKnownValues(t *testing.T) {
	tests := []struct {
		op   Parametric
		x    []float64
		want float64
	}{
		// Softmax at t = 0: the plain variance of x. Var(0, 1) = 1/4.
		{Softmax{}, []float64{0, 1}, 0.25},
		// LSE at t = 1, x = (0, 0): ln 2 - ... = (0 - ln 2)/1.
		{LogSumExp{T: 1}, []float64{0, 0}, -math.Ln2},
		// Power-sum: sum x^t ln x; at x = (e, 1), t = 1: e.
		{PowerSum{T: 1}, []float64{math.E, 1}, math.E},
		// Blotto: the probability of winning, P[0.9 > a] = 0.25.
		{exampleBlotto(), []float64{0.4, 0.5}, 0.25},
		// The limits do not depend on t.
		{Softmax{T: math.Inf(1)}, []float64{0.2, 0.4}, 0},
		{LogSumExp{T: math.Inf(-1)}, []float64{0.2, 0.4}, 0},
		{PowerMean{T: math.Inf(1)}, []float64{0.2, 0.4}, 0},
		// PowerMean with t <= 0 and a zero coordinate is identically 0.
		{PowerMean{T: -2}, []float64{0, 0.4}, 0},
		{PowerMean{T: 0}, []float64{0, 0.4}, 0},
		// M_t(0, x) = x 2^(-1/t) for t > 0, so ∂M/∂t = x 2^(-1/t) ln2/t².
		{PowerMean{T: 2}, []float64{0, 0.4}, 0.4 * math.Pow(2, -0.5) * math.Ln2 / 4},
	}
	for _, tc := range tests {
		if got := tc.op.ParamDerivative(tc.x); !closeTo(got, tc.want, 1e-14, 1e-300) {
			t.Errorf("%v at %v: ∂f/∂t = %v, want %v", tc.op, tc.x, got, tc.want)
		}
	}
}

// TestValueAgainstReference compares every operator's value with a
// direct evaluation of its definition.
func TestValueAgainstReference(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	var ops []Operator
	for _, op := range testParametrics() {
		ops = append(ops, op)
	}
	ops = append(ops, Min{}, Max{}, Mean{}, Sum{}, LevelThreshold{L: 1.5}, exampleBlotto())
	for n := 1; n <= 8; n++ {
		for trial := 0; trial < 5; trial++ {
			x := boxPoint(rng, n, 1e-3)
			for _, op := range ops {
				want, ok := refValue(op, x)
				if !ok {
					t.Fatalf("no reference for %v", op)
				}
				got := op.Value(x)
				// The naive power mean loses about |t| ulps in x^t.
				if !closeTo(got, want, 1e-12, 1e-300) {
					t.Errorf("%v at %v = %.15g, reference %.15g", op, x, got, want)
				}
			}
		}
	}
	for _, op := range sumForms() {
		x := []float64{0.25, 0.5, 1}
		want := 0.0
		for _, v := range x {
			want += op.G(v)
		}
		if got := op.Value(x); got != want {
			t.Errorf("%v at %v = %v, want %v", op, x, got, want)
		}
	}
}

// TestPowerMeanSeries checks the cumulant series of ∂M_t/∂t against the
// closed form where both are accurate: at |t| (max ln x - min ln x) = s of
// a few hundredths the closed form has no cancellation to speak of, and
// the series' truncation error is below 0.03 s³ on these points while its
// t² term weighs up to about s²/8.
func TestPowerMeanSeries(t *testing.T) {
	rng := rand.New(rand.NewSource(8))
	for n := 2; n <= 8; n++ {
		for trial := 0; trial < 5; trial++ {
			x := boxPoint(rng, n, 0.05)
			lo, hi := logRange(x)
			for _, s := range []float64{0.02, -0.02, 0.05, -0.05} {
				tt := s / (hi - lo)
				op := PowerMean{T: tt}
				closed := op.ParamDerivative(x) // |t| (hi - lo) >= 1e-3: the closed form
				series := powerMeanSeries(x, tt, op.Value(x))
				if tol := 0.1 * math.Abs(s*s*s); math.Abs(series-closed) > tol*math.Abs(closed) {
					t.Errorf("PowerMean(%v) at %v: series %.15g, closed form %.15g, rel. diff %.3g > %.3g",
						tt, x, series, closed, math.Abs(series-closed)/math.Abs(closed), tol)
				}
			}
		}
	}
}

// TestThresholdValues checks the threshold operators on both sides of, and
// exactly at, their jumps: Blotto wins strictly above the adversary's
// troops, a level is reached at equality.
func TestThresholdValues(t *testing.T) {
	b := exampleBlotto() // V = 2; troops 0.5, 1.5, 2.5 with probabilities 1/4, 1/2, 1/4
	tests := []struct {
		op   Operator
		x    []float64
		want float64
	}{
		{b, []float64{0.25, 0.25}, 0},    // s = 0.5: not above 0.5
		{b, []float64{0.25, 0.375}, 0.5}, // s = 0.625: wins against 0.5
		{b, []float64{1, 0.5}, 0.5},      // s = 1.5: not above 1.5
		{b, []float64{1, 0.75}, 1.5},     // s = 1.75
		{b, []float64{1, 1, 0.5}, 1.5},   // s = 2.5
		{b, []float64{1, 1, 1}, 2},       // s = 3
		{b, []float64{0}, 0},
		{LevelThreshold{L: 1.5}, []float64{1, 0.5}, 1.5},
		{LevelThreshold{L: 1.5}, []float64{1, 0.25}, 0},
		{LevelThreshold{L: 1}, []float64{1}, 1},
	}
	for _, tc := range tests {
		if got := tc.op.Value(tc.x); got != tc.want {
			t.Errorf("%v at %v = %v, want %v", tc.op, tc.x, got, tc.want)
		}
		if p, ok := tc.op.(Parametric); ok {
			if got, want := p.ParamDerivative(tc.x), tc.want/p.Param(); got != want {
				t.Errorf("%v at %v: ∂/∂V = %v, want %v", tc.op, tc.x, got, want)
			}
		}
	}
}
