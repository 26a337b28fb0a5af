package schur

import (
	"fmt"
	"math"
	"math/rand"
	"strings"

	"github.com/hetgain/hetgain/aggregators"
)

// sumFormCells is the least number of cells of the grid of CheckSumForm.
const sumFormCells = 1024

// Triple is a midpoint triple a < b = (a+c)/2 < c with the values of g. A
// continuous g is convex exactly when no midpoint triple has g(b) above the
// chord, so such triples suffice as counterexamples, and each gives a
// majorized pair: (a, c) ≻ (b, b).
type Triple struct {
	A, B, C    float64
	GA, GB, GC float64
}

// Gap returns (g(a) + g(c))/2 - g(b), the height of the chord above g at
// the midpoint: a negative Gap refutes the convexity of g, a positive one
// its concavity. Where g(a) + g(c) overflows, Gap averages the halves
// instead, so that values of g near the float64 limit give the gap of the
// chord, not ±Inf; Gap is ±Inf only if the gap itself exceeds the float64
// range, and then its sign is right.
func (t Triple) Gap() float64 {
	m := (t.GA + t.GC) / 2
	if math.IsInf(m, 0) {
		m = t.GA/2 + t.GC/2
	}
	return m - t.GB
}

// Pair returns the pair x = (a, c) ≻ y = (b, b) with the values of
// g(x_1) + g(x_2): a counterexample to the Schur-convexity of the sum-form
// aggregator when Gap < 0 and to its Schur-concavity when Gap > 0, since
// FX - FY = 2·Gap. FX or FY is ±Inf where that sum of values of g exceeds
// the float64 range.
func (t Triple) Pair() Counterexample {
	return Counterexample{X: []float64{t.A, t.C}, Y: []float64{t.B, t.B}, FX: t.GA + t.GC, FY: 2 * t.GB}
}

// String returns "g(a), g(b), g(c)" with the gap.
func (t Triple) String() string {
	return fmt.Sprintf("g(%.6g) = %.9g, g(%.6g) = %.9g, g(%.6g) = %.9g, gap %.3g",
		t.A, t.GA, t.B, t.GB, t.C, t.GC, t.Gap())
}

// SumFormVerdict is the outcome of CheckSumForm: the convexity of g on
// [Lo, Hi] and the Schur class it implies for f(x) = sum_i g(x_i). As for
// Verdict, counterexamples are proofs of failure up to Tol and the other
// fields are evidence.
type SumFormVerdict struct {
	Lo, Hi float64

	// Convex reports that no midpoint triple had Gap < -Tol; otherwise
	// ConvexCounterexample holds the worst one found. Likewise Concave
	// with Gap > Tol.
	Convex, Concave                             bool
	ConvexCounterexample, ConcaveCounterexample *Triple

	// StrictlyConvex (StrictlyConcave) reports Convex (Concave), not both,
	// and that no triple with c - a at least MinDistance·(Hi - Lo) had
	// |Gap| <= Tol. FlatTriple holds the widest such triple found.
	StrictlyConvex, StrictlyConcave bool
	FlatTriple                      *Triple

	Triples int     // the number of triples tested
	Tol     float64 // the absolute tolerance used
}

// Class returns the Schur class of f(x) = sum_i g(x_i) on [Lo, Hi]^n for
// n >= 2 (for n = 1 every f is Both): StrictlyConvex for strictly convex g,
// Convex for convex g, the concave classes likewise, Both for affine g and
// Neither otherwise. By the lemma on sum-form aggregators in the paper
// (Marshall, Olkin and Arnold, 3.C.1), convex g gives Schur-convex f;
// conversely, if g is not convex the pair (a, c) ≻ (b, b) of a violating
// triple, padded with equal coordinates, refutes the Schur-convexity of f.
func (v SumFormVerdict) Class() aggregators.SchurClass {
	return classOf(v.Convex, v.Concave, v.StrictlyConvex, v.StrictlyConcave)
}

// String summarises the verdict with its counterexamples.
func (v SumFormVerdict) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "sum of g on [%v,%v]^n: %v", v.Lo, v.Hi, v.Class())
	if t := v.ConvexCounterexample; t != nil {
		fmt.Fprintf(&b, "\n  g not convex: %v", t)
	}
	if t := v.ConcaveCounterexample; t != nil {
		fmt.Fprintf(&b, "\n  g not concave: %v", t)
	}
	if t := v.FlatTriple; t != nil && v.Convex != v.Concave {
		fmt.Fprintf(&b, "\n  g affine on an interval, not strict: %v", t)
	}
	fmt.Fprintf(&b, "\n  %d triples, tolerance %.3g", v.Triples, v.Tol)
	return b.String()
}

// CheckSumForm tests the convexity of g on [lo, hi] and returns the Schur
// class it implies for the sum-form aggregator f(x) = sum_i g(x_i) on
// [lo, hi]^n, n >= 2 (see SumFormVerdict.Class). g should be continuous.
//
// It evaluates g on a dyadic grid of 1024 to 2048 cells and tests the
// midpoint triples of the grid at every spacing 1, 2, 4, ... cells, then
// Options.Samples random midpoint triples. Gaps count as zero within the
// tolerance Tol·(G_max − G_min) + 64·ε·G, from the largest and smallest g
// and the largest |g| on the grid (as for Check). Strictness is refuted by
// a triple wider than MinDistance·(hi - lo) whose gap is zero within that
// tolerance and within Tol times its largest |g| plus 64·ε·G, so affine
// pieces narrower than that go unnoticed; as for Check, a verdict without
// a counterexample is evidence, not proof.
//
// CheckSumForm returns an error wrapping aggregators.ErrParam if g is nil,
// lo < hi are not finite numbers of magnitude at most aggregators.MaxInput,
// the interval is too narrow for the grid (as for NewBox: hi - lo below
// 1e-100 or below 2^-24·max(|lo|, |hi|)) or an option is invalid, and an
// error naming the point if g returns NaN or ±Inf or panics.
func CheckSumForm(g func(float64) float64, lo, hi float64, opts *Options) (v SumFormVerdict, err error) {
	if g == nil {
		return v, fmt.Errorf("schur: CheckSumForm: nil function: %w", aggregators.ErrParam)
	}
	if err := checkInterval(lo, hi); err != nil {
		return v, fmt.Errorf("schur: CheckSumForm: interval %w", err)
	}
	o, err := opts.resolve()
	if err != nil {
		return v, err
	}
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(evalError)
			if !ok {
				panic(r)
			}
			v, err = SumFormVerdict{}, e.err
		}
	}()
	s := &sumFormChecker{g: g, opts: o, minWidth: o.MinDistance * (hi - lo)}
	s.v = SumFormVerdict{Lo: lo, Hi: hi}
	s.run(lo, hi)
	return s.v, nil
}

type sumFormChecker struct {
	g         func(float64) float64
	opts      Options
	tol       float64
	noise     float64 // noiseULPs ulps of the largest |g| on the grid
	minWidth  float64
	flatWidth float64
	v         SumFormVerdict
}

func (s *sumFormChecker) run(lo, hi float64) {
	// Grid points lo' + k·step, step a power of two, are exact, and so are
	// the midpoints of any two of them.
	_, e := math.Frexp((hi - lo) / sumFormCells)
	step := math.Ldexp(1, e-1)
	first := math.Ceil(lo/step) * step
	cells := int(math.Floor((hi - first) / step))
	xs := make([]float64, cells+1)
	gs := make([]float64, cells+1)
	for k := range xs {
		xs[k] = first + float64(k)*step
		gs[k] = s.eval(xs[k])
	}
	s.tol, s.noise = valueTolerance(gs, s.opts.Tol)
	s.v.Tol = s.tol
	for m := 1; 2*m <= cells; m *= 2 {
		for k := m; k+m <= cells; k++ {
			s.record(Triple{A: xs[k-m], B: xs[k], C: xs[k+m], GA: gs[k-m], GB: gs[k], GC: gs[k+m]})
		}
	}
	// Random midpoint triples on the finer grid of a Domain on [lo, hi].
	sp := Domain{kind: box, a: lo, b: hi}.space(2)
	rnd := rand.New(rand.NewSource(s.opts.Seed))
	for k := 0; k < s.opts.Samples; k++ {
		a, c := sp.grid(lo+rnd.Float64()*(hi-lo)), sp.grid(lo+rnd.Float64()*(hi-lo))
		if a > c {
			a, c = c, a
		}
		if a == c {
			continue
		}
		b := (a + c) / 2
		s.record(Triple{A: a, B: b, C: c, GA: s.eval(a), GB: s.eval(b), GC: s.eval(c)})
	}
	v := &s.v
	v.Convex, v.Concave = v.ConvexCounterexample == nil, v.ConcaveCounterexample == nil
	if !s.opts.NoStrictness && v.Convex != v.Concave && v.FlatTriple == nil {
		v.StrictlyConvex, v.StrictlyConcave = v.Convex, v.Concave
	}
}

func (s *sumFormChecker) record(t Triple) {
	s.v.Triples++
	gap := t.Gap()
	switch {
	case gap < -s.tol:
		if w := s.v.ConvexCounterexample; w == nil || gap < w.Gap() {
			s.v.ConvexCounterexample = &t
		}
	case gap > s.tol:
		if w := s.v.ConcaveCounterexample; w == nil || gap > w.Gap() {
			s.v.ConcaveCounterexample = &t
		}
	case !s.opts.NoStrictness && flat(gap, s.opts.Tol, s.noise, t.GA, t.GB, t.GC):
		if width := t.C - t.A; width >= s.minWidth && width > s.flatWidth {
			s.v.FlatTriple, s.flatWidth = &t, width
		}
	}
}

// eval returns g(x), panicking with an evalError if g panics or returns NaN
// or ±Inf.
func (s *sumFormChecker) eval(x float64) (y float64) {
	func() {
		defer func() {
			if r := recover(); r != nil {
				panic(evalError{fmt.Errorf("schur: g panicked at %v: %v", x, r)})
			}
		}()
		y = s.g(x)
	}()
	switch {
	case math.IsNaN(y):
		panic(evalError{fmt.Errorf("schur: g(%v) = NaN: %w", x, aggregators.ErrNaN)})
	case math.IsInf(y, 0):
		panic(evalError{fmt.Errorf("schur: g(%v) = %v: %w", x, y, aggregators.ErrInf)})
	}
	return y
}
