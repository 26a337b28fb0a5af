package schur

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/hetgain/hetgain/aggregators"
)

// checkTriples checks the counterexamples and flat triple of v against g.
func checkTriples(t *testing.T, g func(float64) float64, v SumFormVerdict) {
	t.Helper()
	check := func(what string, tr *Triple, ok func(gap float64) bool) {
		t.Helper()
		if tr == nil {
			return
		}
		if !(v.Lo <= tr.A && tr.A < tr.B && tr.B < tr.C && tr.C <= v.Hi) || tr.B != (tr.A+tr.C)/2 {
			t.Errorf("%s: %v is not a midpoint triple in [%v, %v]", what, tr, v.Lo, v.Hi)
		}
		if g(tr.A) != tr.GA || g(tr.B) != tr.GB || g(tr.C) != tr.GC {
			t.Errorf("%s: %v has wrong values", what, tr)
		}
		if !ok(tr.Gap()) {
			t.Errorf("%s: %v gap %v, tolerance %v", what, tr, tr.Gap(), v.Tol)
		}
		p := tr.Pair()
		if maj, _ := Majorizes(p.X, p.Y, 0); !maj || p.FX-p.FY != 2*tr.Gap() {
			t.Errorf("%s: pair %v of %v", what, p, tr)
		}
	}
	check("convex counterexample", v.ConvexCounterexample, func(gap float64) bool { return gap < -v.Tol })
	check("concave counterexample", v.ConcaveCounterexample, func(gap float64) bool { return gap > v.Tol })
	check("flat triple", v.FlatTriple, func(gap float64) bool { return math.Abs(gap) <= v.Tol })
}

func TestCheckSumForm(t *testing.T) {
	for _, c := range []struct {
		name   string
		g      func(float64) float64
		lo, hi float64
		want   aggregators.SchurClass
	}{
		{"x^2", func(x float64) float64 { return x * x }, 0, 1, aggregators.StrictlyConvex},
		{"x^4", func(x float64) float64 { return x * x * x * x }, 0, 1, aggregators.StrictlyConvex},
		{"sqrt", math.Sqrt, 0, 1, aggregators.StrictlyConcave},
		{"log", math.Log, 0.1, 10, aggregators.StrictlyConcave},
		{"3x", func(x float64) float64 { return 3 * x }, 0, 1, aggregators.Both},
		{"3x+1e3", func(x float64) float64 { return 3*x + 1e3 }, -5, 5, aggregators.Both},
		{"sin(6x)", func(x float64) float64 { return math.Sin(6 * x) }, 0, 1, aggregators.Neither},
		{"sin(6x) before its inflection", func(x float64) float64 { return math.Sin(6 * x) }, 0, 0.5, aggregators.StrictlyConcave},
		{"(x-1/2)^3", func(x float64) float64 { return math.Pow(x-0.5, 3) }, 0, 1, aggregators.Neither},
		{"relu(x-1/2)", func(x float64) float64 { return math.Max(0, x-0.5) }, 0, 1, aggregators.Convex},
		{"min(x,1/2)", func(x float64) float64 { return math.Min(x, 0.5) }, 0, 1, aggregators.Concave},
		{"exp", math.Exp, -3, 2, aggregators.StrictlyConvex},
		{"x^2 off-centre", func(x float64) float64 { return x * x }, 0.1, 1.3, aggregators.StrictlyConvex},
		// lo off the dyadic grid, and g undefined below it.
		{"sqrt(x-0.1)", func(x float64) float64 { return math.Sqrt(x - 0.1) }, 0.1, 1, aggregators.StrictlyConcave},
	} {
		v, err := CheckSumForm(c.g, c.lo, c.hi, nil)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		checkTriples(t, c.g, v)
		if got := v.Class(); got != c.want {
			t.Errorf("CheckSumForm(%s, %v, %v).Class() = %v, want %v\n%v", c.name, c.lo, c.hi, got, c.want, v)
		}
		if c.want == aggregators.Neither && (v.ConvexCounterexample == nil || v.ConcaveCounterexample == nil) {
			t.Errorf("%s: neither without both triples", c.name)
		}
	}
}

// TestCheckSumFormReportsWorst checks that CheckSumForm keeps the worst
// counterexample and the widest flat triple it finds, not merely valid
// ones: within 10% of the worst gap over every midpoint triple of a grid
// of 800 cells (CheckSumForm's dyadic grid tests spacings of powers of 2
// only, and came within 1.5% and 3.5%), and against relu(x − 1/2), which is affine on [0, 1/2] and on
// [1/2, 1] (flat triples of width 1/2).
func TestCheckSumFormReportsWorst(t *testing.T) {
	sin6 := func(x float64) float64 { return math.Sin(6 * x) }
	v, err := CheckSumForm(sin6, 0, 1, nil)
	if err != nil || v.ConvexCounterexample == nil || v.ConcaveCounterexample == nil {
		t.Fatalf("sin(6x): %v, %v", err, v)
	}
	const cells = 800
	lowest, highest := 0.0, 0.0
	for a := 0; a <= cells; a++ {
		for c := a + 2; c <= cells; c += 2 {
			x, z := float64(a)/cells, float64(c)/cells
			gap := (sin6(x)+sin6(z))/2 - sin6((x+z)/2)
			lowest, highest = math.Min(lowest, gap), math.Max(highest, gap)
		}
	}
	if got := v.ConvexCounterexample.Gap(); got > 0.9*lowest {
		t.Errorf("sin(6x): worst convex counterexample gap %v; a grid of %d cells finds %v", got, cells, lowest)
	}
	if got := v.ConcaveCounterexample.Gap(); got < 0.9*highest {
		t.Errorf("sin(6x): worst concave counterexample gap %v; a grid of %d cells finds %v", got, cells, highest)
	}
	relu := func(x float64) float64 { return math.Max(0, x-0.5) }
	w, err := CheckSumForm(relu, 0, 1, nil)
	if err != nil || w.FlatTriple == nil {
		t.Fatalf("relu: %v, %v", err, w)
	}
	if width := w.FlatTriple.C - w.FlatTriple.A; width < 0.49 {
		t.Errorf("relu: widest flat triple %v, width %v; want about 1/2", w.FlatTriple, width)
	}
}

// TestCheckSumFormAgrees compares CheckSumForm with the classes of
// aggregators.PowerSum and with Check on the sum-form aggregator.
func TestCheckSumFormAgrees(t *testing.T) {
	for _, p := range []float64{0.3, 0.7, 1, 1.5, 3} {
		g := func(x float64) float64 { return math.Pow(x, p) }
		v, err := CheckSumForm(g, 0, 1, nil)
		if err != nil {
			t.Fatal(err)
		}
		op := aggregators.PowerSum{T: p}
		if v.Class() != op.Schur(2) {
			t.Errorf("CheckSumForm(x^%v) = %v, PowerSum says %v", p, v.Class(), op.Schur(2))
		}
		for _, n := range []int{2, 3} {
			sf := aggregators.SumForm{Name: "x^t", G: g, Dom: aggregators.NonNegative}
			w, err := Check(sf, n, UnitBox(), nil)
			if err != nil || w.Class() != v.Class() {
				t.Errorf("Check(sum x^%v, n = %d) = %v, %v; CheckSumForm says %v", p, n, w.Class(), err, v.Class())
			}
		}
	}
}

func TestCheckSumFormErrors(t *testing.T) {
	nanAt := func(x float64) float64 {
		if x > 0.5 {
			return math.NaN()
		}
		return x
	}
	for _, c := range []struct {
		name   string
		g      func(float64) float64
		lo, hi float64
		opts   *Options
		is     error
		names  string
	}{
		{"nil", nil, 0, 1, nil, aggregators.ErrParam, "nil"},
		{"reversed", math.Sqrt, 1, 0, nil, aggregators.ErrParam, "[1, 0]"},
		{"NaN bound", math.Sqrt, math.NaN(), 1, nil, aggregators.ErrParam, "NaN"},
		{"options", math.Sqrt, 0, 1, &Options{Samples: -3}, aggregators.ErrParam, "Samples"},
		{"NaN value", nanAt, 0, 1, nil, aggregators.ErrNaN, "g(0.5"},
		{"Inf value", func(x float64) float64 { return 1 / x }, 0, 1, nil, aggregators.ErrInf, "g(0)"},
		{"panic", func(x float64) float64 { panic("boom") }, 0, 1, nil, nil, "panicked at 0: boom"},
	} {
		_, err := CheckSumForm(c.g, c.lo, c.hi, c.opts)
		if err == nil || (c.is != nil && !errors.Is(err, c.is)) || !strings.Contains(err.Error(), c.names) {
			t.Errorf("%s: error %v, want %v naming %q", c.name, err, c.is, c.names)
		}
	}
}

// TestCheckSumFormNearFloatLimit checks that values of g near the float64
// limit, whose sum g(a) + g(c) overflows, still give the right gaps: an
// affine g is Both, not Neither with gaps of ±Inf.
func TestCheckSumFormNearFloatLimit(t *testing.T) {
	for _, c := range []struct {
		name   string
		g      func(float64) float64
		lo, hi float64
		want   aggregators.SchurClass
	}{
		{"1e308 x", func(x float64) float64 { return 1e308 * x }, -1, 1, aggregators.Both},
		{"-1.7e308 x", func(x float64) float64 { return -1.7e308 * x }, 0, 1, aggregators.Both},
		{"1.7e308 x^2", func(x float64) float64 { return 1.7e308 * x * x }, -1, 1, aggregators.StrictlyConvex},
		{"-1.7e308 x^2", func(x float64) float64 { return -1.7e308 * x * x }, -1, 1, aggregators.StrictlyConcave},
	} {
		v, err := CheckSumForm(c.g, c.lo, c.hi, nil)
		if err != nil || v.Class() != c.want {
			t.Errorf("%s on [%v, %v]: %v, %v; want %v", c.name, c.lo, c.hi, v, err, c.want)
			continue
		}
		for _, tr := range []*Triple{v.ConvexCounterexample, v.ConcaveCounterexample, v.FlatTriple} {
			if tr != nil && math.IsInf(tr.Gap(), 0) {
				t.Errorf("%s: triple %v has an infinite gap", c.name, tr)
			}
		}
	}
	// A gap beyond the float64 range is ±Inf with the right sign.
	tr := Triple{A: -1, B: 0, C: 1, GA: 1.7e308, GB: -1.7e308, GC: 1.7e308}
	if g := tr.Gap(); !math.IsInf(g, 1) {
		t.Errorf("%v: Gap() = %v, want +Inf", tr, g)
	}
	tr = Triple{A: -1, B: 0, C: 1, GA: 1.7e308, GB: 1.7e308, GC: 1.6e308}
	if g, want := tr.Gap(), -0.05e308; math.Abs(g-want) > 1e-12*1.7e308 {
		t.Errorf("%v: Gap() = %v, want %v", tr, g, want)
	}
}

// TestCheckSumFormNarrowInterval checks that an interval too narrow for the
// grid is an error naming it, not an error blaming g.
func TestCheckSumFormNarrowInterval(t *testing.T) {
	sq := func(x float64) float64 { return x * x }
	for _, c := range [][2]float64{{0, math.SmallestNonzeroFloat64}, {0, 1e-101}, {1, 1 + 1e-13}} {
		_, err := CheckSumForm(sq, c[0], c[1], nil)
		if !errors.Is(err, aggregators.ErrParam) || !strings.Contains(err.Error(), "too narrow") {
			t.Errorf("CheckSumForm(x², %v, %v): error %v, want ErrParam, too narrow", c[0], c[1], err)
		}
	}
	if v, err := CheckSumForm(sq, 0, 1e-100, nil); err != nil || v.Class() != aggregators.StrictlyConvex {
		t.Errorf("CheckSumForm(x², 0, 1e-100) = %v, %v; want strictly convex", v, err)
	}
}
