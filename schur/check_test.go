package schur

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/hetgain/hetgain/aggregators"
)

// families returns an operator of every family of package aggregators over
// the parameter ranges of the tests. Softmax with |t| > 2 is left out: its
// class depends on n (see TestSoftmax).
func families() []aggregators.Operator {
	ops := []aggregators.Operator{
		aggregators.Min{}, aggregators.Max{}, aggregators.Mean{}, aggregators.Sum{},
		aggregators.LevelThreshold{L: 1},
		aggregators.LevelThreshold{L: 0.7},
		aggregators.BlottoField{V: 1, Troops: []float64{0.5, 1.5}, Probs: []float64{0.25, 0.75}},
		aggregators.BlottoField{V: 2, Troops: []float64{1}, Probs: []float64{1}},
	}
	for _, t := range []float64{0.3, 0.7, 1, 1.5, 3} {
		ops = append(ops, aggregators.PowerSum{T: t})
	}
	for _, t := range []float64{-5, -1, 0, 0.5, 1, 2, 5, math.Inf(1), math.Inf(-1)} {
		ops = append(ops, aggregators.PowerMean{T: t})
	}
	for _, t := range []float64{-5, -1, 1, 5} {
		ops = append(ops, aggregators.LogSumExp{T: t})
	}
	for _, t := range []float64{-2, -1.5, -1, -0.5, 0, 0.5, 1, 1.5, 2} {
		ops = append(ops, aggregators.Softmax{T: t})
	}
	return ops
}

// checkVerdict checks every counterexample and flat pair of v: x ≻ y
// exactly, both in dom, the values those of f, and the violation beyond
// the tolerance.
func checkVerdict(t *testing.T, f Function, dom Domain, v Verdict) {
	t.Helper()
	check := func(what string, c *Counterexample, ok func(d float64) bool) {
		t.Helper()
		if c == nil {
			return
		}
		if maj, err := Majorizes(c.X, c.Y, 0); !maj || err != nil {
			t.Errorf("%s: %s: %v does not majorize %v", v.Name, what, c.X, c.Y)
		}
		if !dom.Contains(c.X, 0) || !dom.Contains(c.Y, 0) {
			t.Errorf("%s: %s: %v or %v outside %v", v.Name, what, c.X, c.Y, dom)
		}
		if f.Value(c.X) != c.FX || f.Value(c.Y) != c.FY {
			t.Errorf("%s: %s: values %v, %v are not f(x), f(y)", v.Name, what, c.FX, c.FY)
		}
		if !ok(c.FX - c.FY) {
			t.Errorf("%s: %s: f(x) - f(y) = %v, tolerance %v", v.Name, what, c.FX-c.FY, v.Tol)
		}
	}
	check("convex counterexample", v.ConvexCounterexample, func(d float64) bool { return d < -v.Tol })
	check("concave counterexample", v.ConcaveCounterexample, func(d float64) bool { return d > v.Tol })
	check("flat pair", v.FlatPair, func(d float64) bool { return math.Abs(d) <= v.Tol })
	if c := v.SymmetryCounterexample; c != nil && !isPermutation(c.X, c.Y) {
		t.Errorf("%s: symmetry counterexample %v, %v is not a permutation", v.Name, c.X, c.Y)
	}
	if v.Convex != (v.ConvexCounterexample == nil) || v.Concave != (v.ConcaveCounterexample == nil) {
		t.Errorf("%s: flags disagree with counterexamples: %v", v.Name, v)
	}
}

// TestCheckFamilies checks that Check finds the class that each operator
// documents on the unit box, for several seeds: no counterexample where
// the class holds, a counterexample where it fails, and the strictness.
func TestCheckFamilies(t *testing.T) {
	for _, op := range families() {
		for _, n := range []int{1, 2, 3, 4} {
			for seed := int64(1); seed <= 3; seed++ {
				want := op.Schur(n)
				v, err := Check(op, n, UnitBox(), &Options{Seed: seed})
				if err != nil {
					t.Fatalf("Check(%v, %d): %v", op, n, err)
				}
				checkVerdict(t, op, UnitBox(), v)
				if want.IsConvex() != v.Convex || want.IsConcave() != v.Concave {
					t.Errorf("Check(%v, n = %d, seed %d): convex %v concave %v, want class %v\n%v", op, n, seed, v.Convex, v.Concave, want, v)
				}
				if got := v.Class(); got != want {
					t.Errorf("Check(%v, n = %d, seed %d).Class() = %v, want %v\n%v", op, n, seed, got, want, v)
				}
			}
		}
	}
}

// softmaxThreshold returns the |t| above which Softmax stops being
// Schur-convex (Schur-concave for t < 0) on [0,1]^n, n >= 3: the root of
// (t - 2) e^t = 4/(n - 2). At x = (a, a, 1, ..., 1) the second derivative
// of f along e_1 - e_2 is proportional to 2 - t (f(x) - a), which is
// smallest at a = 0 where f = (n-2)e^t / ((n-2)e^t + 2).
func softmaxThreshold(n int) float64 {
	lo, hi := 2.0, 4.0
	for k := 0; k < 100; k++ {
		mid := (lo + hi) / 2
		if (mid-2)*math.Exp(mid) < 4/float64(n-2) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}

func TestSoftmax(t *testing.T) {
	// n = 2: strict for every t, as the paper's table says.
	for _, temp := range []float64{-10, -5, 5, 10} {
		op := aggregators.Softmax{T: temp}
		v, err := Check(op, 2, UnitBox(), nil)
		if err != nil || v.Class() != op.Schur(2) {
			t.Errorf("Check(%v, 2) = %v, %v; want %v", op, v.Class(), err, op.Schur(2))
		}
	}
	// The counterexample documented on aggregators.Softmax.
	op := aggregators.Softmax{T: 10}
	x, y := []float64{1, 0.1, 0}, []float64{1, 0.05, 0.05}
	if ok, _ := Majorizes(x, y, 1e-15); !ok || !(op.Value(y) > op.Value(x)) {
		t.Errorf("documented counterexample fails: %v ≻ %v is %v, f = %v, %v", x, y, ok, op.Value(x), op.Value(y))
	}
	// n >= 3: a counterexample above the threshold, none below it.
	for _, n := range []int{3, 4, 5} {
		tc := softmaxThreshold(n)
		for _, temp := range []float64{tc + 0.05, 3, 5, 10} {
			for _, sign := range []float64{1, -1} {
				op := aggregators.Softmax{T: sign * temp}
				v, err := Check(op, n, UnitBox(), nil)
				if err != nil {
					t.Fatal(err)
				}
				checkVerdict(t, op, UnitBox(), v)
				if (sign > 0 && v.Convex) || (sign < 0 && v.Concave) || v.Class() != aggregators.Neither {
					t.Errorf("Check(%v, %d) found no counterexample above the threshold %.4f:\n%v", op, n, tc, v)
				}
			}
		}
		for _, sign := range []float64{1, -1} {
			op := aggregators.Softmax{T: sign * (tc - 0.05)}
			v, err := Check(op, n, UnitBox(), nil)
			want := aggregators.StrictlyConvex
			if sign < 0 {
				want = aggregators.StrictlyConcave
			}
			if err != nil || v.Class() != want {
				t.Errorf("Check(%v, %d) below the threshold %.4f: %v, %v; want %v", op, n, tc, v, err, want)
			}
		}
	}
	if got := fmt.Sprintf("%.4f %.4f", softmaxThreshold(3), softmaxThreshold(4)); got != "2.3729 2.2177" {
		t.Errorf("thresholds %s", got)
	}
}

func sumOf(g func(float64) float64) Func {
	return func(x []float64) float64 {
		s := 0.0
		for _, v := range x {
			s += g(v)
		}
		return s
	}
}

func product(x []float64) float64 {
	p := 1.0
	for _, v := range x {
		p *= v
	}
	return p
}

// TestCheckOtherFunctions covers functions outside package aggregators,
// with classes derived by hand from the Schur-Ostrowski condition
// (x_i - x_j)(∂_i f - ∂_j f): for the product it is
// -(x_i - x_j)² prod_{k != i,j} x_k.
func TestCheckOtherFunctions(t *testing.T) {
	box11, _ := NewBox(-1, 1)
	box2, _ := NewBox(0.5, 2)
	orth, _ := NewOrthant(1)
	simp, _ := NewSimplex(1)
	sin6 := sumOf(func(v float64) float64 { return math.Sin(6 * v) })
	cube := sumOf(func(v float64) float64 { return math.Pow(v-0.5, 3) })
	for _, c := range []struct {
		name string
		f    Function
		dom  Domain
		n    int
		want aggregators.SchurClass
	}{
		// g'' changes sign inside [0,1]: neither.
		{"sum sin(6x)", sin6, UnitBox(), 2, aggregators.Neither},
		{"sum sin(6x)", sin6, UnitBox(), 3, aggregators.Neither},
		{"sum sin(6x)", sin6, UnitBox(), 4, aggregators.Neither},
		{"sum (x-1/2)^3", cube, UnitBox(), 3, aggregators.Neither},
		{"sum sin(6x)", sin6, UnitBox(), 1, aggregators.Both},
		// Product: strictly Schur-concave for n = 2 on any box; on [0,1]^n,
		// n >= 3, Schur-concave but flat on points with two zeros; neither
		// on [-1,1]^n, n >= 3; strictly Schur-concave away from zero.
		{"product", Func(product), UnitBox(), 2, aggregators.StrictlyConcave},
		{"product", Func(product), UnitBox(), 3, aggregators.Concave},
		{"product", Func(product), UnitBox(), 4, aggregators.Concave},
		{"product", Func(product), box11, 2, aggregators.StrictlyConcave},
		{"product", Func(product), box11, 3, aggregators.Neither},
		{"product", Func(product), box11, 4, aggregators.Neither},
		{"product", Func(product), box2, 3, aggregators.StrictlyConcave},
		// Other domains.
		{"powersum(3)", aggregators.PowerSum{T: 3}, orth, 3, aggregators.StrictlyConvex},
		{"powersum(3)", aggregators.PowerSum{T: 3}, simp, 3, aggregators.StrictlyConvex},
		{"powersum(0.5)", aggregators.PowerSum{T: 0.5}, simp, 4, aggregators.StrictlyConcave},
		{"max", aggregators.Max{}, simp, 3, aggregators.Convex},
		{"min", aggregators.Min{}, orth, 3, aggregators.Concave},
		{"powermean(-1)", aggregators.PowerMean{T: -1}, box2, 3, aggregators.StrictlyConcave},
		{"powermean(0)", aggregators.PowerMean{T: 0}, simp, 3, aggregators.Concave},
		{"lse(2)", aggregators.LogSumExp{T: 2}, box11, 4, aggregators.StrictlyConvex},
		{"level(1)", aggregators.LevelThreshold{L: 1}, simp, 4, aggregators.Both},
	} {
		v, err := Check(c.f, c.n, c.dom, nil)
		if err != nil {
			t.Fatalf("Check(%s, %d, %v): %v", c.name, c.n, c.dom, err)
		}
		checkVerdict(t, c.f, c.dom, v)
		if got := v.Class(); got != c.want {
			t.Errorf("Check(%s, %d, %v).Class() = %v, want %v\n%v", c.name, c.n, c.dom, got, c.want, v)
		}
		if c.want == aggregators.Neither && (v.ConvexCounterexample == nil || v.ConcaveCounterexample == nil) {
			t.Errorf("Check(%s, %d, %v): neither without both counterexamples", c.name, c.n, c.dom)
		}
	}
}

func TestCheckNotSymmetric(t *testing.T) {
	for _, f := range []Func{
		func(x []float64) float64 { return x[0] - x[1] },
		func(x []float64) float64 { return x[0] + 2*x[1] + 3*x[len(x)-1] },
	} {
		for _, n := range []int{2, 3} {
			v, err := Check(f, n, UnitBox(), nil)
			if err != nil {
				t.Fatal(err)
			}
			checkVerdict(t, f, UnitBox(), v)
			if v.Symmetric || v.SymmetryCounterexample == nil || v.Class() != aggregators.Neither || v.Convex || v.Concave {
				t.Errorf("non-symmetric function, n = %d: %v", n, v)
			}
			if !strings.Contains(v.String(), "not symmetric") {
				t.Errorf("String() = %q", v.String())
			}
		}
	}
}

func TestCheckErrors(t *testing.T) {
	box11, _ := NewBox(-1, 1)
	var nilFunc Func
	nanAt := Func(func(x []float64) float64 {
		if x[0] > 0.9 {
			return math.NaN()
		}
		return x[0]
	})
	infAt := Func(func(x []float64) float64 { return 1 / x[0] })
	for _, c := range []struct {
		name  string
		f     Function
		n     int
		dom   Domain
		opts  *Options
		is    error
		names string
	}{
		{"nil function", nil, 2, UnitBox(), nil, aggregators.ErrParam, "nil"},
		{"nil Func", nilFunc, 2, UnitBox(), nil, aggregators.ErrParam, "nil"},
		{"n = 0", aggregators.Max{}, 0, UnitBox(), nil, aggregators.ErrDimension, "n = 0"},
		{"samples", aggregators.Max{}, 2, UnitBox(), &Options{Samples: -1}, aggregators.ErrParam, "Samples"},
		{"tol", aggregators.Max{}, 2, UnitBox(), &Options{Tol: math.NaN()}, aggregators.ErrParam, "Tol"},
		{"distance", aggregators.Max{}, 2, UnitBox(), &Options{MinDistance: -1}, aggregators.ErrParam, "MinDistance"},
		{"NaN value", nanAt, 2, UnitBox(), nil, aggregators.ErrNaN, "f(["},
		{"Inf value", infAt, 2, UnitBox(), nil, aggregators.ErrInf, "f(["},
		{"panic", aggregators.PowerSum{T: 2}, 3, box11, nil, nil, "panicked at x = ["},
		{"parameter", aggregators.PowerSum{T: -1}, 3, UnitBox(), nil, aggregators.ErrParam, "powersum parameter -1"},
		{"NaN parameter", aggregators.Softmax{T: math.NaN()}, 2, UnitBox(), nil, aggregators.ErrParam, "NaN"},
	} {
		_, err := Check(c.f, c.n, c.dom, c.opts)
		if err == nil || (c.is != nil && !errors.Is(err, c.is)) || !strings.Contains(err.Error(), c.names) {
			t.Errorf("%s: error %v, want %v naming %q", c.name, err, c.is, c.names)
		}
	}
}

func TestCheckDeterministic(t *testing.T) {
	for _, op := range []aggregators.Operator{aggregators.Softmax{T: 3}, aggregators.PowerMean{T: 0}, aggregators.Max{}} {
		a, err1 := Check(op, 4, UnitBox(), &Options{Seed: 42})
		b, err2 := Check(op, 4, UnitBox(), &Options{Seed: 42})
		if err1 != nil || err2 != nil || !reflect.DeepEqual(a, b) {
			t.Errorf("Check(%v) differs between runs with the same seed:\n%v\n%v", op, a, b)
		}
		c, _ := Check(op, 4, UnitBox(), nil)
		d, _ := Check(op, 4, UnitBox(), &Options{Seed: DefaultSeed})
		if !reflect.DeepEqual(c, d) || c.Seed != DefaultSeed {
			t.Errorf("Check(%v): nil options differ from Seed %d", op, DefaultSeed)
		}
	}
}

func TestCheckOptions(t *testing.T) {
	v, err := Check(aggregators.PowerSum{T: 3}, 3, UnitBox(), &Options{NoStrictness: true})
	if err != nil || v.Class() != aggregators.Convex || v.StrictlyConvex || v.FlatPair != nil {
		t.Errorf("NoStrictness: %v, %v", v, err)
	}
	small, _ := Check(aggregators.Softmax{T: 1}, 3, UnitBox(), &Options{Samples: 100})
	big, _ := Check(aggregators.Softmax{T: 1}, 3, UnitBox(), nil)
	if small.Pairs >= big.Pairs || small.Class() != aggregators.StrictlyConvex {
		t.Errorf("Samples: %d pairs with 100 samples, %d by default; class %v", small.Pairs, big.Pairs, small.Class())
	}
	// A coarse tolerance hides the curvature of Softmax near t = 0.
	v, _ = Check(aggregators.Softmax{T: 0.01}, 3, UnitBox(), &Options{Tol: 0.1})
	if v.Class() != aggregators.Both {
		t.Errorf("Tol = 0.1: %v", v)
	}
}

func TestVerdictString(t *testing.T) {
	v, _ := Check(aggregators.Softmax{T: 10}, 3, UnitBox(), nil)
	s := v.String()
	for _, want := range []string{"softmax(10) on [0,1]^n, n = 3: neither", "not Schur-convex", "not Schur-concave", "majorized pairs"} {
		if !strings.Contains(s, want) {
			t.Errorf("String() = %q, missing %q", s, want)
		}
	}
	v, _ = Check(aggregators.Max{}, 3, UnitBox(), nil)
	if s := v.String(); !strings.Contains(s, "Schur-convex") || !strings.Contains(s, "not strict") || !strings.Contains(s, "evidence, not proof") {
		t.Errorf("String() = %q", s)
	}
}

// TestCheckReportsWorst checks that Check keeps the worst counterexample
// and the most distant flat pair it finds, not merely valid ones: for
// softmax(±10) on [0,1]^3 violations of about 0.02 exist (every seed
// finds one beyond 0.018), and the product on [0,1]^3 is flat between
// (1, 0, 0) and (1/2, 1/2, 0), at sorted distance 1/2.
func TestCheckReportsWorst(t *testing.T) {
	for seed := int64(1); seed <= 3; seed++ {
		opts := &Options{Seed: seed}
		v, err := Check(aggregators.Softmax{T: 10}, 3, UnitBox(), opts)
		if err != nil || v.ConvexCounterexample == nil {
			t.Fatalf("softmax(10), seed %d: %v, %v", seed, err, v)
		}
		if c := v.ConvexCounterexample; c.FX-c.FY > -0.015 {
			t.Errorf("softmax(10), seed %d: worst convex counterexample f(x) - f(y) = %v, want <= -0.015", seed, c.FX-c.FY)
		}
		v, err = Check(aggregators.Softmax{T: -10}, 3, UnitBox(), opts)
		if err != nil || v.ConcaveCounterexample == nil {
			t.Fatalf("softmax(-10), seed %d: %v, %v", seed, err, v)
		}
		if c := v.ConcaveCounterexample; c.FX-c.FY < 0.015 {
			t.Errorf("softmax(-10), seed %d: worst concave counterexample f(x) - f(y) = %v, want >= 0.015", seed, c.FX-c.FY)
		}
		v, err = Check(Func(product), 3, UnitBox(), opts)
		if err != nil || v.FlatPair == nil {
			t.Fatalf("product, seed %d: %v, %v", seed, err, v)
		}
		c := &checker{sx: make([]float64, 3), sy: make([]float64, 3)}
		if d := c.sortedDistance(v.FlatPair.X, v.FlatPair.Y); d < 0.4 {
			t.Errorf("product, seed %d: flat pair %v, %v at sorted distance %v, want >= 0.4", seed, v.FlatPair.X, v.FlatPair.Y, d)
		}
	}
}

// TestCheckNearFloatLimit checks Check on values of f near the float64
// limit: the differences f(x) - f(y) may overflow to ±Inf, but only when
// the true difference exceeds the float64 range, so its sign and the
// verdict stay right.
func TestCheckNearFloatLimit(t *testing.T) {
	box, err := NewBox(-1, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		f    Func
		want aggregators.SchurClass
	}{
		{"affine", func(x []float64) float64 { return 0.85e308*x[0] + 0.85e308*x[1] }, aggregators.Both},
		{"convex", func(x []float64) float64 { return 1.7e308 * (x[0]*x[0] + x[1]*x[1] - 1) }, aggregators.StrictlyConvex},
		{"concave", func(x []float64) float64 { return -1.7e308 * (x[0]*x[0] + x[1]*x[1] - 1) }, aggregators.StrictlyConcave},
	} {
		if v, err := Check(c.f, 2, box, nil); err != nil || v.Class() != c.want {
			t.Errorf("%s: %v, %v; want %v", c.name, v, err, c.want)
		}
	}
}

// panicValue returns what f panics with, or nil.
func panicValue(f func()) (r any) {
	defer func() { r = recover() }()
	f()
	return nil
}

// TestProgrammerErrors checks that misuse panics with a message that starts
// "schur: " and names the misuse, and that a nil *Counterexample prints as
// fmt prints one.
func TestProgrammerErrors(t *testing.T) {
	malformed := FamilyScan{Params: []float64{1, 2}, Declared: []aggregators.SchurClass{aggregators.Convex, aggregators.Convex}, Verdicts: []Verdict{{}}}
	for _, c := range []struct {
		name, want string
		f          func()
	}{
		{"Sample", "schur: Sample: nil *rand.Rand", func() { UnitBox().Sample(nil, 2) }},
		{"RandomMajorizedPair", "schur: RandomMajorizedPair: nil *rand.Rand", func() { RandomMajorizedPair(nil, 2, UnitBox()) }},
		{"RandomTTransform", "schur: RandomTTransform: nil *rand.Rand", func() { RandomTTransform(nil, 3) }},
		{"Disagreements", "schur: FamilyScan.Disagreements: 2 declared classes but 1 verdicts", func() { malformed.Disagreements() }},
	} {
		r := panicValue(c.f)
		if s, ok := r.(string); !ok || s != c.want {
			t.Errorf("%s: panic %v, want %q", c.name, r, c.want)
		}
	}
	var nilCE *Counterexample
	var s string
	if r := panicValue(func() { s = nilCE.String() }); r != nil || s != "<nil>" {
		t.Errorf("nil *Counterexample: String() = %q, panic %v; want \"<nil>\"", s, r)
	}
	if d := (FamilyScan{}).Disagreements(); d != nil {
		t.Errorf("empty FamilyScan: Disagreements() = %v", d)
	}
}

// TestStructuredPoints checks the structured probe points of Check, made
// from their index: the unit patterns in [0,1]^n are, in order, the n+1
// vertices of k ones, the 2n vertices with one coordinate moved inwards
// and the nine others, all in [0,1]^n; mapped onto each domain, every
// point lies in it, and only the simplex leaves a pattern out: the zero
// vertex, which no point of it is a multiple of.
func TestStructuredPoints(t *testing.T) {
	simp, _ := NewSimplex(2)
	orth, _ := NewOrthant(3)
	box, _ := NewBox(-1, 3)
	for _, n := range []int{1, 2, 5, 17} {
		u := make([]float64, n)
		for k := 0; k < unitPatternCount(n); k++ {
			unitPattern(k, u)
			ones, inward := 0, 0
			for _, v := range u {
				if v < 0 || v > 1 {
					t.Fatalf("n = %d: unit pattern %d = %v outside [0,1]^n", n, k, u)
				}
				if v == 1 {
					ones++
				} else if v == 0.05 || v == 0.95 {
					inward++
				}
			}
			if k <= n && (ones != k || u[n-1] != step(k == n, 1, 0)) {
				t.Errorf("n = %d: unit pattern %d = %v, want the vertex of %d ones", n, k, u, k)
			}
			if j := (k - n - 1) / 2; k > n && k <= 3*n && (ones != j || inward != 1 || u[j] != []float64{0.05, 0.95}[(k-n-1)%2]) {
				t.Errorf("n = %d: unit pattern %d = %v, want %d ones then %v", n, k, u, j, []float64{0.05, 0.95}[(k-n-1)%2])
			}
		}
		for _, d := range []Domain{UnitBox(), simp, orth, box} {
			c := newChecker(aggregators.Mean{}, n, d, Options{Seed: 1, Samples: 8})
			want := unitPatternCount(n)
			if c.sp.kind == simplex {
				want-- // the zero vertex
			}
			if len(c.patterns) != want {
				t.Errorf("n = %d, %v: %d structured points, want %d", n, d, len(c.patterns), want)
			}
			x := make([]float64, n)
			for k := range c.patterns {
				c.pattern(k, x)
				if !d.Contains(x, 1e-12) {
					t.Errorf("n = %d, %v: structured point %d = %v outside the domain", n, d, k, x)
				}
			}
		}
	}
}

// TestCheckTolerance checks the two sides of the tolerance: values that
// vary little around a large constant are still told apart (relative to
// the range of f, not to its size), and two small values far below the
// largest |f| are not a flat pair (relative to the pair's own values).
func TestCheckTolerance(t *testing.T) {
	orthant, err := NewOrthant(1)
	if err != nil {
		t.Fatal(err)
	}
	// Σx⁵ ranges to about 4e4 on the orthant's probes; a pair with values
	// 3e-7 and 4e-9 refuted strictness when equality was relative to that.
	v, err := Check(aggregators.PowerSum{T: 5}, 3, orthant, nil)
	if err != nil || v.Class() != aggregators.StrictlyConvex {
		t.Errorf("powersum(5) on the orthant: %v, %v; want strictly Schur-convex", v, err)
	}
	// 1e12 + Σx²: f(1, 0) − f(1/2, 1/2) = 0.5 is 4000 ulps of 1e12 but
	// was below the old tolerance of 1e-10·1e12 = 100.
	offset := Func(func(x []float64) float64 { return 1e12 + x[0]*x[0] + x[1]*x[1] })
	v, err = Check(offset, 2, UnitBox(), nil)
	if err != nil || !v.Convex || v.Concave {
		t.Errorf("1e12 + Σx² on the unit box: %v, %v; want Schur-convex and not Schur-concave", v, err)
	}
	if want := 64 * 0x1p-52 * (1e12 + 2); v.Tol < want || v.Tol > 1.01*want+1e-10*2 {
		t.Errorf("1e12 + Σx²: tolerance %v, want 64 ulps of 1e12 plus 1e-10 of the range, about %v", v.Tol, want)
	}
	sv, err := CheckSumForm(func(x float64) float64 { return 1e12 + x*x }, 0, 1, nil)
	if c := sv.Class(); err != nil || c != aggregators.Convex && c != aggregators.StrictlyConvex {
		t.Errorf("CheckSumForm(1e12 + x²): %v, %v; want Schur-convex", sv, err)
	}
	// A constant is flat everywhere, whatever its size.
	v, err = Check(Func(func([]float64) float64 { return 3e300 }), 3, UnitBox(), nil)
	if err != nil || v.Class() != aggregators.Both {
		t.Errorf("a constant: %v, %v; want Schur-convex and Schur-concave", v, err)
	}
}
