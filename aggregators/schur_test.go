package aggregators

import (
	"math"
	"math/rand"
	"sort"
	"testing"
)

func TestSchurClassTable(t *testing.T) {
	inf := math.Inf(1)
	sf := SumForm{Name: "g", G: math.Sin, Class: StrictlyConcave, Increasing: true}
	tests := []struct {
		op         Operator
		n          int
		class      SchurClass
		increasing bool
	}{
		{Min{}, 1, Both, true},
		{Min{}, 2, StrictlyConcave, false},
		{Min{}, 3, Concave, false},
		{Min{}, 8, Concave, false},
		{Max{}, 1, Both, true},
		{Max{}, 2, StrictlyConvex, false},
		{Max{}, 5, Convex, false},
		{Mean{}, 1, Both, true},
		{Mean{}, 4, Both, true},
		{Sum{}, 3, Both, true},

		{Softmax{T: 0}, 3, Both, true},
		{Softmax{T: 5}, 1, Both, true},
		{Softmax{T: 0.5}, 2, StrictlyConvex, true},
		{Softmax{T: 50}, 2, StrictlyConvex, false},
		{Softmax{T: -50}, 2, StrictlyConcave, false},
		{Softmax{T: 1}, 3, StrictlyConvex, true},
		{Softmax{T: -1}, 6, StrictlyConcave, true},
		{Softmax{T: 0.3}, 5, StrictlyConvex, true},
		{Softmax{T: 1.0001}, 3, StrictlyConvex, true},
		{Softmax{T: 1.2}, 3, StrictlyConvex, false},
		{Softmax{T: 2}, 3, StrictlyConvex, false},
		{Softmax{T: -2}, 5, StrictlyConcave, false},
		{Softmax{T: 2.0001}, 3, Unknown, false},
		{Softmax{T: 1.2}, 2, StrictlyConvex, true},
		{Softmax{T: -1.3}, 2, StrictlyConcave, false},
		{Softmax{T: 2.3}, 3, Unknown, false},
		{Softmax{T: 2.4}, 3, Neither, false},
		{Softmax{T: -2.25}, 4, Neither, false},
		{Softmax{T: -2.2}, 4, Unknown, false},
		{Softmax{T: inf}, 2, StrictlyConvex, false},
		{Softmax{T: inf}, 3, Convex, false},
		{Softmax{T: -inf}, 3, Concave, false},

		{LogSumExp{T: 0.3}, 2, StrictlyConvex, true},
		{LogSumExp{T: 50}, 7, StrictlyConvex, true},
		{LogSumExp{T: -1}, 3, StrictlyConcave, true},
		{LogSumExp{T: 3}, 1, Both, true},
		{LogSumExp{T: inf}, 3, Convex, false},
		{LogSumExp{T: -inf}, 2, StrictlyConcave, false},

		{PowerSum{T: 1}, 4, Both, true},
		{PowerSum{T: 2.5}, 3, StrictlyConvex, true},
		{PowerSum{T: 0.3}, 3, StrictlyConcave, true},
		{PowerSum{T: 0.3}, 1, Both, true},
		{MeanPower{T: 1}, 4, Both, true},
		{MeanPower{T: 2.5}, 3, StrictlyConvex, true},
		{MeanPower{T: 0.3}, 3, StrictlyConcave, true},

		{PowerMean{T: 1}, 3, Both, true},
		{PowerMean{T: 7}, 3, StrictlyConvex, true},
		{PowerMean{T: 0.3}, 4, StrictlyConcave, true},
		{PowerMean{T: 0}, 2, StrictlyConcave, false},
		{PowerMean{T: 0}, 3, Concave, false},
		{PowerMean{T: -5}, 2, StrictlyConcave, false},
		{PowerMean{T: -5}, 4, Concave, false},
		{PowerMean{T: -5}, 1, Both, true},
		{PowerMean{T: inf}, 3, Convex, false},
		{PowerMean{T: -inf}, 2, StrictlyConcave, false},

		{exampleBlotto(), 3, Both, false},
		{exampleBlotto(), 1, Both, false},
		{LevelThreshold{L: 2}, 4, Both, false},

		{sf, 1, Both, true},
		{sf, 3, StrictlyConcave, true},
		{SumForm{G: math.Sin}, 3, Unknown, false},
	}
	for _, tc := range tests {
		if got := tc.op.Schur(tc.n); got != tc.class {
			t.Errorf("%v.Schur(%d) = %v, want %v", tc.op, tc.n, got, tc.class)
		}
		if got := tc.op.StrictlyIncreasing(tc.n); got != tc.increasing {
			t.Errorf("%v.StrictlyIncreasing(%d) = %v, want %v", tc.op, tc.n, got, tc.increasing)
		}
	}
}

func TestSchurClassMethods(t *testing.T) {
	tests := []struct {
		c                       SchurClass
		name                    string
		convex, concave, strict bool
	}{
		{Unknown, "unknown", false, false, false},
		{StrictlyConvex, "strictly Schur-convex", true, false, true},
		{StrictlyConcave, "strictly Schur-concave", false, true, true},
		{Convex, "Schur-convex", true, false, false},
		{Concave, "Schur-concave", false, true, false},
		{Both, "Schur-convex and Schur-concave", true, true, false},
		{Neither, "neither", false, false, false},
		{SchurClass(-1), "SchurClass(invalid)", false, false, false},
		{SchurClass(99), "SchurClass(invalid)", false, false, false},
	}
	for _, tc := range tests {
		if tc.c.String() != tc.name || tc.c.IsConvex() != tc.convex || tc.c.IsConcave() != tc.concave || tc.c.IsStrict() != tc.strict {
			t.Errorf("SchurClass(%d): %q convex %v concave %v strict %v; want %q %v %v %v", int(tc.c),
				tc.c.String(), tc.c.IsConvex(), tc.c.IsConcave(), tc.c.IsStrict(), tc.name, tc.convex, tc.concave, tc.strict)
		}
	}
}

// schurOperators are the operators of the majorization property test: for
// n >= 3 Softmax is included only where its class is established.
func schurOperators() []Operator {
	inf := math.Inf(1)
	ops := []Operator{Min{}, Max{}, Mean{}, Sum{}, LevelThreshold{L: 1.5}, exampleBlotto()}
	for _, t := range realParams {
		ops = append(ops, Softmax{T: t}, PowerMean{T: t})
	}
	for _, t := range []float64{-2, -1.6, -0.7, 0.7, 1.5, 2, inf, -inf} {
		ops = append(ops, Softmax{T: t})
	}
	for _, t := range lseParams() {
		ops = append(ops, LogSumExp{T: t})
	}
	for _, t := range positiveParams {
		ops = append(ops, PowerSum{T: t}, MeanPower{T: t})
	}
	ops = append(ops, PowerMean{T: inf}, PowerMean{T: -inf}, LogSumExp{T: inf}, LogSumExp{T: -inf})
	for _, op := range sumForms() {
		if op.Class != Unknown {
			ops = append(ops, op)
		}
	}
	cube := func(v float64) float64 { return -v * v * v } // strictly concave on [0, Inf)
	ops = append(ops, SumForm{Name: "-cube", G: cube, Dom: NonNegative, Class: StrictlyConcave})
	return ops
}

// moderate reports whether op's strict inequality is numerically visible on
// the box: the exponential and power families flatten out for large |t|.
func moderate(op Operator) bool {
	if p, ok := op.(Parametric); ok {
		return math.Abs(p.Param()) <= 7
	}
	return true
}

// TestSchurClassMajorization draws x in [0,1]^n and a T-transform
// y = λx + (1-λ)P_ij x, which x majorizes, and checks f(x) >= f(y) for
// Schur-convex operators and f(x) <= f(y) for Schur-concave ones, strictly
// for strict classes when the transform is not close to a permutation.
func TestSchurClassMajorization(t *testing.T) {
	rng := rand.New(rand.NewSource(30))
	counts := map[string]int{}
	for _, op := range schurOperators() {
		for n := 2; n <= 6; n++ {
			c := op.Schur(n)
			if !c.IsConvex() && !c.IsConcave() {
				continue
			}
			for trial := 0; trial < 150; trial++ {
				x := boxPoint(rng, n, 0)
				if trial%5 == 0 {
					x[rng.Intn(n)] = 0 // the boundary of the box
				}
				i := rng.Intn(n)
				j := (i + 1 + rng.Intn(n-1)) % n
				lambda := rng.Float64()
				y := append([]float64(nil), x...)
				y[i] = lambda*x[i] + (1-lambda)*x[j]
				y[j] = lambda*x[j] + (1-lambda)*x[i]
				if !majorizes(x, y) {
					t.Fatalf("%v does not majorize %v", x, y)
				}
				fx, fy := op.Value(x), op.Value(y)
				const tol = 1e-12
				if c.IsConvex() && fx < fy-tol*math.Max(1, math.Abs(fy)) {
					t.Errorf("%v (%v, n = %d): f(x) = %.17g < f(y) = %.17g\nx = %v\ny = %v", op, c, n, fx, fy, x, y)
				}
				if c.IsConcave() && fx > fy+tol*math.Max(1, math.Abs(fy)) {
					t.Errorf("%v (%v, n = %d): f(x) = %.17g > f(y) = %.17g\nx = %v\ny = %v", op, c, n, fx, fy, x, y)
				}
				// y is far from x and from P_ij x when |x_i - x_j| and
				// min(λ, 1-λ) are not small.
				meaningful := math.Abs(x[i]-x[j]) >= 0.05 && lambda >= 0.1 && lambda <= 0.9
				if c.IsStrict() && meaningful && moderate(op) {
					counts[op.String()]++
					if c == StrictlyConvex && !(fx > fy) {
						t.Errorf("%v (%v, n = %d): f(x) = %.17g <= f(y) = %.17g\nx = %v\ny = %v", op, c, n, fx, fy, x, y)
					}
					if c == StrictlyConcave && !(fx < fy) {
						t.Errorf("%v (%v, n = %d): f(x) = %.17g >= f(y) = %.17g\nx = %v\ny = %v", op, c, n, fx, fy, x, y)
					}
				}
			}
		}
	}
	for _, name := range []string{"min", "max", "softmax(1)", "softmax(-0.3)", "lse(-5)", "powersum(2.5)", "powermean(-5)", "powermean(0.3)", "sumform(-cube)"} {
		if counts[name] < 50 {
			t.Errorf("%s: only %d strict comparisons", name, counts[name])
		}
	}
}

// majorizes reports whether x ≻ y: equal sums up to rounding, and every
// partial sum of the k largest coordinates of x at least that of y.
func majorizes(x, y []float64) bool {
	xs := append([]float64(nil), x...)
	ys := append([]float64(nil), y...)
	sort.Sort(sort.Reverse(sort.Float64Slice(xs)))
	sort.Sort(sort.Reverse(sort.Float64Slice(ys)))
	const tol = 1e-12
	sx, sy := 0.0, 0.0
	for k := range xs {
		sx += xs[k]
		sy += ys[k]
		if sx < sy-tol {
			return false
		}
	}
	return math.Abs(sx-sy) <= tol
}

func TestMajorizes(t *testing.T) {
	if !majorizes([]float64{1, 0, 0}, []float64{0.5, 0.5, 0}) || majorizes([]float64{0.5, 0.5, 0}, []float64{1, 0, 0}) ||
		majorizes([]float64{1, 0}, []float64{0.5, 0.4}) {
		t.Error("majorizes")
	}
}

// TestSoftmaxCounterexample checks the documented failure of
// Schur-convexity of Softmax on the box for n = 3 and t = 10.
func TestSoftmaxCounterexample(t *testing.T) {
	op := Softmax{T: 10}
	x := []float64{1, 0.1, 0}
	y := []float64{1, 0.05, 0.05}
	if !majorizes(x, y) {
		t.Fatalf("%v does not majorize %v", x, y)
	}
	if fx, fy := op.Value(x), op.Value(y); !(fy > fx) {
		t.Errorf("%v: f(x) = %v, f(y) = %v; want f(y) > f(x)", op, fx, fy)
	}
	if c := op.Schur(3); c.IsConvex() {
		t.Errorf("%v.Schur(3) = %v, but the counterexample shows it is not Schur-convex", op, c)
	}
	// And the mirror image for t = -10: y' = 1 - y is majorized by
	// x' = 1 - x, yet f(x') > f(y').
	neg := Softmax{T: -10}
	xm := []float64{0, 0.9, 1}
	ym := []float64{0, 0.95, 0.95}
	if !majorizes(xm, ym) {
		t.Fatalf("%v does not majorize %v", xm, ym)
	}
	if fx, fy := neg.Value(xm), neg.Value(ym); !(fx > fy) {
		t.Errorf("%v: f(x) = %v, f(y) = %v; want f(x) > f(y)", neg, fx, fy)
	}
	if c := neg.Schur(3); c.IsConcave() {
		t.Errorf("%v.Schur(3) = %v, but the counterexample shows it is not Schur-concave", neg, c)
	}
}

// TestStrictlyIncreasing checks the reported strict monotonicity on the
// box: positive partial derivatives where it is reported, and a witness
// where it is not.
func TestStrictlyIncreasing(t *testing.T) {
	rng := rand.New(rand.NewSource(31))
	var ops []Operator
	for _, p := range testParametrics() {
		ops = append(ops, p)
	}
	ops = append(ops, Mean{}, Sum{})
	for _, op := range ops {
		for n := 1; n <= 6; n++ {
			if !op.StrictlyIncreasing(n) {
				continue
			}
			for trial := 0; trial < 20; trial++ {
				x := boxPoint(rng, n, 0.05)
				g := op.Gradient(nil, x)
				for k, gk := range g {
					if !(gk > 0) {
						t.Errorf("%v reported strictly increasing for n = %d, but ∂_%d = %v at %v", op, n, k, gk, x)
					}
				}
			}
		}
	}
	// Witnesses of non-monotonicity: Softmax with |t| > 1 has a negative
	// partial derivative at a corner of the box; the partial derivative of
	// x_0 at (0, 1) is w_0 (1 - t f) < 0 when t f > 1.
	for _, tt := range []float64{1.5, -1.5, 7} {
		op := Softmax{T: tt}
		x := []float64{0, 1}
		if tt < 0 {
			x = []float64{1, 0}
		}
		g := op.Gradient(nil, x)
		if op.StrictlyIncreasing(2) || !(g[0] < 0) {
			t.Errorf("%v at %v: StrictlyIncreasing = %v, gradient %v", op, x, op.StrictlyIncreasing(2), g)
		}
	}
	// A zero coordinate pins the power mean with t <= 0 at 0.
	for _, tt := range []float64{0, -1} {
		op := PowerMean{T: tt}
		if op.StrictlyIncreasing(2) || op.Value([]float64{0, 0.2}) != op.Value([]float64{0, 0.9}) {
			t.Errorf("%v: StrictlyIncreasing(2) = %v", op, op.StrictlyIncreasing(2))
		}
	}
	// Min, max and the thresholds have flat directions.
	if (Min{}).Value([]float64{0.1, 0.5}) != (Min{}).Value([]float64{0.1, 0.6}) || (Min{}).StrictlyIncreasing(2) {
		t.Error("min")
	}
	if (Max{}).Value([]float64{0.1, 0.5}) != (Max{}).Value([]float64{0.2, 0.5}) || (Max{}).StrictlyIncreasing(2) {
		t.Error("max")
	}
}

func TestDomain(t *testing.T) {
	realOps := []Operator{Min{}, Max{}, Mean{}, Sum{}, Softmax{}, LogSumExp{T: 1}, SumForm{}}
	nonNeg := []Operator{PowerSum{T: 1}, PowerMean{}, exampleBlotto(), LevelThreshold{L: 1}, SumForm{Dom: NonNegative}}
	for _, op := range realOps {
		if op.Domain() != Real {
			t.Errorf("%v.Domain() = %v, want Real", op, op.Domain())
		}
	}
	for _, op := range nonNeg {
		if op.Domain() != NonNegative {
			t.Errorf("%v.Domain() = %v, want NonNegative", op, op.Domain())
		}
	}
}

// TestThresholdsArePermutationInvariant checks that the threshold operators
// give the same value for every permutation, even where floating-point
// addition in input order would round differently.
func TestThresholdsArePermutationInvariant(t *testing.T) {
	x, rev := []float64{0.1, 0.2, 0.7}, []float64{0.7, 0.2, 0.1}
	if (x[0]+x[1])+x[2] == (rev[0]+rev[1])+rev[2] {
		t.Fatal("the example no longer rounds differently in the two orders")
	}
	level := LevelThreshold{L: 1}
	blotto := BlottoField{V: 1, Troops: []float64{1 - 1e-17, 0.99999999999999989}, Probs: []float64{0.5, 0.5}}
	for _, op := range []Operator{level, blotto} {
		if a, b := op.Value(x), op.Value(rev); a != b {
			t.Errorf("%v: f(%v) = %v but f(%v) = %v", op, x, a, rev, b)
		}
	}
}
