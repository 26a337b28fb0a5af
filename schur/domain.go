package schur

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand"

	"github.com/hetgain/hetgain/aggregators"
)

// Domain is a set of R^n, for every n, on which Check compares values and
// from which RandomMajorizedPair draws. Each domain is convex and invariant
// under permutations of the coordinates, so it holds every y that a
// T-transform reaches from one of its points: it holds y whenever it holds
// x and x ≻ y.
//
// The zero Domain is the unit box [0,1]^n, the domain of efforts and task
// scores in the paper. Other domains come from NewBox, NewOrthant and
// NewSimplex.
type Domain struct {
	kind domainKind
	a, b float64 // box: lo, hi; orthant: scale; simplex: total
}

type domainKind int

const (
	unitBox domainKind = iota
	box
	orthant
	simplex
)

// orthantCap bounds the coordinates that Sample and Check draw from an
// orthant, in units of its scale.
const orthantCap = 16

// minExtent is the least width of a box, scale of an orthant and total of a
// simplex, 1/aggregators.MaxInput; minRelWidth is the least width of a box
// relative to the largest magnitude of its bounds. Narrower domains have
// too few points, or none, on the grid of Sample, whose spacing is about
// 2^-40 times the largest coordinate.
const (
	minExtent   = 1 / aggregators.MaxInput
	minRelWidth = 0x1p-24
)

// UnitBox returns the unit box [0,1]^n, the zero Domain.
func UnitBox() Domain { return Domain{} }

// NewBox returns the box [lo,hi]^n, or an error wrapping aggregators.ErrParam
// unless lo < hi are finite and at most aggregators.MaxInput in magnitude
// and the box is wide enough for the grid of Sample: hi - lo at least 1e-100
// and at least 2^-24 (about 6e-8) times max(|lo|, |hi|).
func NewBox(lo, hi float64) (Domain, error) {
	if err := checkInterval(lo, hi); err != nil {
		return Domain{}, fmt.Errorf("schur: box %w", err)
	}
	return Domain{kind: box, a: lo, b: hi}, nil
}

// checkInterval returns an error wrapping aggregators.ErrParam, which names
// the interval [lo, hi], unless it is a valid box side (see NewBox).
func checkInterval(lo, hi float64) error {
	if !finiteInput(lo) || !finiteInput(hi) || !(lo < hi) {
		return fmt.Errorf("[%v, %v]: need lo < hi, finite and of magnitude at most %g: %w", lo, hi, aggregators.MaxInput, aggregators.ErrParam)
	}
	w := hi - lo
	if least := math.Max(minExtent, minRelWidth*math.Max(math.Abs(lo), math.Abs(hi))); w < least {
		return fmt.Errorf("[%v, %v]: width %v is below %g, the larger of %g and 2^-24·max(|lo|, |hi|): too narrow for the sampling grid: %w",
			lo, hi, w, least, minExtent, aggregators.ErrParam)
	}
	return nil
}

// NewOrthant returns the non-negative orthant [0,∞)^n. Points are drawn with
// independent coordinates scale·E, E exponential with mean 1, capped at
// 16·scale, so Check explores [0, 16·scale]^n. NewOrthant returns an error
// wrapping aggregators.ErrParam unless 1e-100 <= scale <=
// aggregators.MaxInput/16 = 6.25e98: the cap must be at most MaxInput, and
// a smaller scale is too small for the grid of Sample.
func NewOrthant(scale float64) (Domain, error) {
	if !(scale >= minExtent) || !(scale <= aggregators.MaxInput/orthantCap) {
		return Domain{}, fmt.Errorf("schur: orthant scale %v must be at least %g and at most %g, so that the cap 16·scale is at most %g: %w",
			scale, minExtent, aggregators.MaxInput/orthantCap, aggregators.MaxInput, aggregators.ErrParam)
	}
	return Domain{kind: orthant, a: scale}, nil
}

// NewSimplex returns the simplex {x : x_i >= 0, x_1 + ... + x_n = total}.
// Points are drawn uniformly on it, on the grid of Sample: their sum is
// total rounded down to that grid (exactly total when total is a multiple
// of its spacing, such as 1). NewSimplex returns an error wrapping
// aggregators.ErrParam unless 1e-100 <= total <= aggregators.MaxInput
// (1e100): a smaller total is too small for the grid of Sample.
func NewSimplex(total float64) (Domain, error) {
	if !(total >= minExtent) || !(total <= aggregators.MaxInput) {
		return Domain{}, fmt.Errorf("schur: simplex total %v must be at least %g and at most %g: %w",
			total, minExtent, aggregators.MaxInput, aggregators.ErrParam)
	}
	return Domain{kind: simplex, a: total}, nil
}

// Contains reports whether x, a non-empty vector of finite values, lies in
// the domain up to the absolute tolerance tol: each coordinate within tol
// of the box or orthant, or, for the simplex, coordinates at least -tol and
// a sum within tol of the total. A tolerance that is NaN, infinite or
// negative is invalid, as for Majorizes, and Contains then returns false.
func (d Domain) Contains(x []float64, tol float64) bool {
	if len(x) == 0 || checkTol("tolerance", tol) != nil {
		return false
	}
	lo, hi, _ := d.bounds()
	for _, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) || v < lo-tol || (d.kind != orthant && v > hi+tol) {
			return false
		}
	}
	return d.kind != simplex || math.Abs(sum(x)-d.a) <= tol
}

// Sample returns a random point of the domain in R^n: uniform on a box or
// the simplex, with independent capped exponential coordinates on the
// orthant (see NewOrthant). The coordinates are multiples of a power of two,
// about 2^-40 times the largest coordinate the domain allows, so that sums
// of coordinates are exact in floating point; on a simplex whose total is
// such a multiple the sum equals the total exactly. Sample panics if n < 1
// or rnd is nil.
func (d Domain) Sample(rnd *rand.Rand, n int) []float64 {
	if n < 1 {
		panic(fmt.Sprintf("schur: Sample: n = %d, need n >= 1", n))
	}
	mustRand(rnd, "Sample")
	sp := d.space(n)
	x := make([]float64, n)
	sp.sample(rnd, x)
	return x
}

// String describes the domain, as "[0,1]^n".
func (d Domain) String() string {
	switch d.kind {
	case box:
		return fmt.Sprintf("[%v,%v]^n", d.a, d.b)
	case orthant:
		return fmt.Sprintf("[0,∞)^n (scale %v)", d.a)
	case simplex:
		return fmt.Sprintf("simplex {x >= 0, sum x = %v}", d.a)
	}
	return "[0,1]^n"
}

// RandomMajorizedPair returns x drawn by dom.Sample and y reached from x by
// 1 to n random T-transforms (none for n = 1), so that x ≻ y and both lie
// in dom (on a simplex whose total is not on Sample's grid, their sum is
// less than one grid spacing below the total). The transforms are computed
// on the grid of Sample: x ≻ y holds exactly, Majorizes(x, y, 0) reports true, and x and y have equal sums in
// floating point whatever the order of summation. It panics if n < 1 or rnd
// is nil.
func RandomMajorizedPair(rnd *rand.Rand, n int, dom Domain) (x, y []float64) {
	mustRand(rnd, "RandomMajorizedPair")
	x = dom.Sample(rnd, n)
	y = append([]float64(nil), x...)
	if n == 1 {
		return x, y
	}
	sp := dom.space(n)
	for k := 1 + rnd.Intn(n); k > 0; k-- {
		i, j := randomPair(rnd, n)
		sp.transfer(y, y, i, j, rnd.Float64())
	}
	return x, y
}

// bounds returns the interval of a coordinate and the domain's scale.
func (d Domain) bounds() (lo, hi, scale float64) {
	switch d.kind {
	case box:
		return d.a, d.b, d.b - d.a
	case orthant:
		return 0, orthantCap * d.a, d.a
	case simplex:
		return 0, d.a, d.a
	}
	return 0, 1, 1
}

// space is a Domain in R^n with the grid on which its points are drawn.
type space struct {
	kind   domainKind
	n      int
	h      float64 // grid spacing, a power of two
	lo, hi float64 // the bounds of a coordinate, on the grid
	total  float64 // simplex: the sum of every point, on the grid
	scale  float64 // the domain's scale: box width, orthant scale, simplex total
	rate   float64 // orthant: the mean of a coordinate
}

// space returns the domain in R^n. The grid spacing h leaves enough bits
// for sums of n grid values bounded by the domain to be exact.
func (d Domain) space(n int) space {
	lo, hi, scale := d.bounds()
	_, e := math.Frexp(math.Max(math.Abs(lo), math.Abs(hi)))
	b := 50 - bits.Len(uint(n))
	if b > 40 {
		b = 40
	}
	h := math.Ldexp(1, e-b)
	sp := space{kind: d.kind, n: n, h: h, lo: math.Ceil(lo/h) * h, hi: math.Floor(hi/h) * h, scale: scale}
	if d.kind == simplex {
		sp.total = sp.hi
	}
	if d.kind == orthant {
		sp.rate = d.a
	}
	return sp
}

// grid rounds v to the nearest grid point in [lo, hi].
func (s *space) grid(v float64) float64 {
	return clamp(math.Round(v/s.h)*s.h, s.lo, s.hi)
}

// sample stores a random point of the domain in x.
func (s *space) sample(rnd *rand.Rand, x []float64) {
	for i := range x {
		switch s.kind {
		case orthant:
			x[i] = s.grid(s.rate * rnd.ExpFloat64())
		case simplex:
			x[i] = rnd.ExpFloat64()
		default:
			x[i] = s.grid(s.lo + rnd.Float64()*(s.hi-s.lo))
		}
	}
	if s.kind == simplex {
		s.normalize(x)
	}
}

// normalize scales x >= 0, not all zero, onto the simplex and puts it on
// the grid with sum exactly s.total.
func (s *space) normalize(x []float64) {
	t := sum(x)
	for i, v := range x {
		x[i] = s.grid(v / t * s.total)
	}
	big := 0
	for i, v := range x {
		if v > x[big] {
			big = i
		}
	}
	x[big] += s.total - sum(x) // exact: all values are on the grid
}

// transfer stores in dst the T-transform of x that moves the fraction theta
// in [0, 1] of x_i - x_j from coordinate i to coordinate j, the amount
// rounded to the grid. For x on the grid the result is on the grid, lies
// between x_i and x_j in those coordinates and has exactly the sum of x.
// dst may be x.
func (s *space) transfer(dst, x []float64, i, j int, theta float64) {
	xi, xj := x[i], x[j]
	copy(dst, x)
	d := math.Round(theta*(xi-xj)/s.h) * s.h
	dst[i], dst[j] = xi-d, xj+d
}

// mustRand panics with a "schur: " message naming the function if rnd is
// nil.
func mustRand(rnd *rand.Rand, function string) {
	if rnd == nil {
		panic(fmt.Sprintf("schur: %s: nil *rand.Rand", function))
	}
}

func finiteInput(v float64) bool {
	return !math.IsNaN(v) && math.Abs(v) <= aggregators.MaxInput
}
