package schur

import (
	"fmt"
	"math"
	"strings"

	"github.com/hetgain/hetgain/aggregators"
)

// Function is a function of a vector, the input of Check. Every
// aggregators.Operator is a Function. A Function that also has a method
//
//	Gradient(dst, x []float64) []float64
//
// (as operators do) lends its gradient to the Schur-Ostrowski search of
// Check; other functions are differentiated numerically. Gradients only
// guide the search: every counterexample is a pair of evaluated values.
type Function interface {
	Value(x []float64) float64
}

// Func adapts an ordinary function to the Function interface.
type Func func(x []float64) float64

// Value returns f(x).
func (f Func) Value(x []float64) float64 { return f(x) }

// gradienter is implemented by functions with an analytic gradient.
type gradienter interface {
	Gradient(dst, x []float64) []float64
}

// noiseULPs is the number of ulps of the largest |value| below which
// Check and CheckSumForm never resolve two values: the rounding of f.
const noiseULPs = 64

// epsilon is the machine epsilon of float64, 2^-52.
const epsilon = 0x1p-52

// Defaults of Options.
const (
	DefaultSeed        = 1
	DefaultSamples     = 2000
	DefaultTol         = 1e-10
	DefaultMinDistance = 1e-2
)

// Options control Check and CheckSumForm. A nil *Options and zero fields
// mean the defaults.
type Options struct {
	// Seed seeds the random search; 0 means DefaultSeed. The same seed
	// gives the same verdict.
	Seed int64

	// Samples is the number of random majorized pairs (random triples for
	// CheckSumForm); the other stages of the search scale with it. 0 means
	// DefaultSamples.
	Samples int

	// Tol is the relative tolerance: two values of f count as equal when
	// they differ by at most Tol times the range of f (largest minus
	// smallest value) on the probe points, plus 64 ulps of the largest |f|
	// there; a pair refutes strictness only if its values are also equal
	// within Tol times the larger of the two |values| plus those 64 ulps
	// (see Check). 0 means DefaultTol.
	Tol float64

	// MinDistance is the smallest distance, relative to the domain's scale,
	// between a pair x ≻ y (sorted coordinates, maximum norm) for which
	// equal values count against strictness. 0 means DefaultMinDistance.
	MinDistance float64

	// NoStrictness turns the strictness judgement off: the verdict then
	// never reports a strict class.
	NoStrictness bool
}

// Counterexample is a pair x ≻ y with the values f(x) and f(y) that violate
// a property. For a symmetry counterexample Y is a permutation of X.
type Counterexample struct {
	X, Y   []float64
	FX, FY float64
}

// String returns "f(x) = ..., f(y) = ..., difference ..." with both points,
// or "<nil>" for a nil *Counterexample, as fmt prints one.
func (c *Counterexample) String() string {
	if c == nil {
		return "<nil>"
	}
	return fmt.Sprintf("f(%s) = %.9g, f(%s) = %.9g, difference %.3g",
		formatVec(c.X), c.FX, formatVec(c.Y), c.FY, c.FX-c.FY)
}

// Verdict is the outcome of Check. Counterexamples are proofs of failure,
// up to the tolerance Tol; the Convex, Concave and strictness fields only
// say that the search found no counterexample.
type Verdict struct {
	Name   string // f's String method, if it has one, else "f"
	N      int    // the dimension
	Domain Domain // the domain searched

	// Symmetric reports that no tested permutation changed the value of f
	// by more than Tol (true for n = 1). If it
	// is false, SymmetryCounterexample holds x and a permutation y of x
	// with f(x) != f(y); as x ≻ y and y ≻ x, that pair also refutes both
	// Schur-convexity and Schur-concavity, and the search stops there.
	Symmetric              bool
	SymmetryCounterexample *Counterexample

	// Convex reports that no pair x ≻ y with f(x) < f(y) - Tol was found;
	// otherwise ConvexCounterexample holds the worst one found.
	Convex               bool
	ConvexCounterexample *Counterexample

	// Concave reports that no pair x ≻ y with f(x) > f(y) + Tol was found;
	// otherwise ConcaveCounterexample holds the worst one found.
	Concave               bool
	ConcaveCounterexample *Counterexample

	// StrictlyConvex (StrictlyConcave) reports Convex (Concave), not both,
	// and that no flat pair was found: no pair x ≻ y at distance at least
	// MinDistance with |f(x) - f(y)| within Tol and within the pair's
	// own relative tolerance (see Options.Tol). FlatPair holds the most
	// distant flat pair found. Both are false when the strictness
	// judgement is off.
	StrictlyConvex, StrictlyConcave bool
	FlatPair                        *Counterexample

	Pairs int     // the number of majorized pairs evaluated
	Tol   float64 // the absolute tolerance used on values
	Seed  int64   // the seed used
}

// Class returns the Schur class that the verdict supports: Neither if f is
// not symmetric or has both counterexamples, Both if it has neither, and
// otherwise the strict or non-strict convex or concave class.
func (v Verdict) Class() aggregators.SchurClass {
	if !v.Symmetric {
		return aggregators.Neither
	}
	return classOf(v.Convex, v.Concave, v.StrictlyConvex, v.StrictlyConcave)
}

// classOf maps the findings of a search to the Schur class they support.
func classOf(convex, concave, strictlyConvex, strictlyConcave bool) aggregators.SchurClass {
	switch {
	case convex && concave:
		return aggregators.Both
	case strictlyConvex:
		return aggregators.StrictlyConvex
	case convex:
		return aggregators.Convex
	case strictlyConcave:
		return aggregators.StrictlyConcave
	case concave:
		return aggregators.Concave
	}
	return aggregators.Neither
}

// String summarises the verdict on a few lines, with its counterexamples.
func (v Verdict) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s on %s, n = %d: %v", v.Name, v.Domain, v.N, v.Class())
	if !v.Symmetric {
		fmt.Fprintf(&b, "\n  not symmetric: %v", v.SymmetryCounterexample)
	} else {
		if c := v.ConvexCounterexample; c != nil {
			fmt.Fprintf(&b, "\n  not Schur-convex, x ≻ y but f(x) < f(y): %v", c)
		}
		if c := v.ConcaveCounterexample; c != nil {
			fmt.Fprintf(&b, "\n  not Schur-concave, x ≻ y but f(x) > f(y): %v", c)
		}
		if c := v.FlatPair; c != nil && v.Convex != v.Concave {
			fmt.Fprintf(&b, "\n  not strict, x ≻ y but f(x) = f(y) within the tolerance: %v", c)
		}
	}
	fmt.Fprintf(&b, "\n  %d majorized pairs, seed %d, tolerance %.3g", v.Pairs, v.Seed, v.Tol)
	if v.Convex || v.Concave {
		b.WriteString(" (no counterexample is evidence, not proof)")
	}
	return b.String()
}

// Check searches dom for evidence of the Schur class of f in dimension n.
// It evaluates f only at points of dom (on a simplex whose total is not
// on the grid of Domain.Sample, at points whose sum is less than one grid
// spacing, about 2^-40 of the total, below it: Contains with tolerance 0
// refuses them), and reports a counterexample only
// for a pair it has evaluated; a class without a counterexample is evidence
// from a randomised search, not a proof. The search is deterministic for a
// given Options.Seed.
//
// All points lie on the grid of Domain.Sample and every pair x ≻ y is
// reached from x by T-transforms on that grid, so x ≻ y holds exactly and
// x and y have equal sums in floating point: functions of the sum alone,
// such as step functions of it, compare exactly. Values count as equal
// within the absolute tolerance Tol·(F_max − F_min) + 64·ε·F, where F_max
// and F_min are the largest and smallest values of f on the probe points
// of stage 1, F the largest |f| there and ε the machine epsilon: relative
// to how much f varies, so that a large constant added to f does not hide
// its variation, and never below the rounding of values of size F.
//
// The search has five stages; with Samples = S:
//
//  1. Probes: structured points (vertices, points with zeros and ties,
//     near-uniform points, one large coordinate) and S/8 random points.
//  2. Symmetry: f at each probe against f at a random transposition or
//     permutation of it. A symmetry failure ends the search.
//  3. Random pairs: S pairs, x random or structured and y reached from x by
//     one random T-transform or a chain of up to n of them.
//  4. Schur-Ostrowski: at S/4 points, the sign of (x_i - x_j)(∂_i f - ∂_j f)
//     for coordinates adjacent in sorted order (which covers all pairs),
//     from the Gradient method or central differences along e_i - e_j; for
//     each property not yet refuted the 3 worst points are refined by S/10
//     hill-climbing steps on (∂_i f - ∂_j f)/(x_i - x_j), and the result is
//     turned into pairs x ≻ y by transfers of halving size from x_i to x_j.
//  5. Refinement: for each property not yet refuted, S/10 hill-climbing
//     steps on f(x) - f(Tx) over x and the T-transform T (its coordinates
//     and weight) from each of the points of stage 4 and the 6 worst
//     single-transform pairs of stage 3.
//
// With the defaults a run makes about 5,000 to 10,000 evaluations of f
// (plus 2(n-1) per Schur-Ostrowski point without a Gradient method): about
// 2 ms for Softmax with n = 4.
//
// Strictness is judged on the same pairs: a pair x ≻ y whose sorted
// coordinates differ by at least MinDistance times the domain's scale and
// whose values are equal within the tolerance, and within Tol times the
// larger of |f(x)| and |f(y)| plus 64·ε·F, refutes strictness: values of
// 3e-7 and 4e-9 are not equal, however large f is elsewhere. Such
// evidence is blind to flat regions narrower than MinDistance and to
// differences of values below the tolerance.
//
// Check returns an error wrapping aggregators.ErrParam if f is nil, an
// aggregators.Operator with a parameter outside its family's domain, or an
// option is negative or NaN, aggregators.ErrDimension if n < 1, and an
// error naming the point if f returns NaN or ±Inf (wrapping
// aggregators.ErrNaN or aggregators.ErrInf) or panics at a point of dom.
func Check(f Function, n int, dom Domain, opts *Options) (Verdict, error) {
	if f == nil {
		return Verdict{}, fmt.Errorf("schur: Check: nil function: %w", aggregators.ErrParam)
	}
	if fn, ok := f.(Func); ok && fn == nil {
		return Verdict{}, fmt.Errorf("schur: Check: nil Func: %w", aggregators.ErrParam)
	}
	if n < 1 {
		return Verdict{}, fmt.Errorf("schur: Check: n = %d, need n >= 1: %w", n, aggregators.ErrDimension)
	}
	if op, ok := f.(aggregators.Operator); ok {
		// An operator's parameters are checked before any point, so that
		// PowerSum{T: -1} is reported as what it is.
		if err := aggregators.Check(op, []float64{0}); err != nil {
			return Verdict{}, fmt.Errorf("schur: Check: %v: %w", op, err)
		}
	}
	o, err := opts.resolve()
	if err != nil {
		return Verdict{}, err
	}
	return newChecker(f, n, dom, o).run()
}

// resolve returns the options with defaults filled in, or an error for an
// invalid field.
func (o *Options) resolve() (Options, error) {
	var r Options
	if o != nil {
		r = *o
	}
	if r.Samples < 0 {
		return r, fmt.Errorf("schur: Samples = %d must not be negative: %w", r.Samples, aggregators.ErrParam)
	}
	if err := checkTol("Tol", r.Tol); err != nil {
		return r, err
	}
	if err := checkTol("MinDistance", r.MinDistance); err != nil {
		return r, err
	}
	if r.Seed == 0 {
		r.Seed = DefaultSeed
	}
	if r.Samples == 0 {
		r.Samples = DefaultSamples
	}
	if r.Tol == 0 {
		r.Tol = DefaultTol
	}
	if r.MinDistance == 0 {
		r.MinDistance = DefaultMinDistance
	}
	return r, nil
}

func formatVec(x []float64) string {
	parts := make([]string, len(x))
	for i, v := range x {
		parts[i] = fmt.Sprintf("%.6g", v)
	}
	return strings.Join(parts, ", ")
}

// name returns f's String, or "f".
func name(f Function) string {
	if s, ok := f.(fmt.Stringer); ok {
		return s.String()
	}
	return "f"
}

// evalError carries an error out of the search by panicking.
type evalError struct{ err error }

// value returns f(x), panicking with an evalError if f panics or returns
// NaN or ±Inf.
func value(f Function, x []float64) (v float64) {
	func() {
		defer func() {
			if r := recover(); r != nil {
				panic(evalError{fmt.Errorf("schur: f panicked at x = %v: %v", x, r)})
			}
		}()
		v = f.Value(x)
	}()
	switch {
	case math.IsNaN(v):
		panic(evalError{fmt.Errorf("schur: f(%v) = NaN: %w", x, aggregators.ErrNaN)})
	case math.IsInf(v, 0):
		panic(evalError{fmt.Errorf("schur: f(%v) = %v: %w", x, v, aggregators.ErrInf)})
	}
	return v
}
