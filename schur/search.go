package schur

import (
	"fmt"
	"math"
	"math/rand"
	"sort"
)

// The two properties searched for counterexamples. The search minimises
// dirSign[dir]·(f(x) - f(y)) over pairs x ≻ y; a negative value beyond the
// tolerance refutes the property.
const (
	convexDir  = 0
	concaveDir = 1
)

var dirSign = [2]float64{1, -1}

// Sizes of the search stages, as divisors of Options.Samples or counts.
const (
	probeDivisor = 8  // random probe points: Samples/probeDivisor
	soDivisor    = 4  // Schur-Ostrowski points: Samples/soDivisor
	climbDivisor = 10 // hill-climbing steps per start: Samples/climbDivisor
	soStarts     = 3  // Schur-Ostrowski refinements per property
	pairStarts   = 6  // pair refinements per property
)

// checker holds the state of one run of Check.
type checker struct {
	f        Function
	grad     gradienter // nil: central differences
	sp       space
	rnd      *rand.Rand
	opts     Options
	patterns []int // the unitPattern indices of the structured points (structured)

	tol     float64 // absolute tolerance on values
	noise   float64 // noiseULPs ulps of the largest |value| on the probes
	minDist float64 // distance of pairs that count for strictness
	minSep  float64 // smallest x_i - x_j in a Schur-Ostrowski quotient
	fdStep  float64 // step of central differences, on the grid

	v        Verdict
	flatDist float64
	seeds    [2][]pairSeed // the best random single-transform pairs
	soSeeds  [2][]pairSeed // the refined Schur-Ostrowski points

	sx, sy, gbuf, fdbuf []float64
}

// pairSeed is a starting point for refinement: x and the transform that
// moves the fraction theta of x_i - x_j from i to j, with its objective.
type pairSeed struct {
	x     []float64
	i, j  int
	theta float64
	obj   float64
}

func newChecker(f Function, n int, dom Domain, o Options) *checker {
	sp := dom.space(n)
	c := &checker{
		f:       f,
		sp:      sp,
		rnd:     rand.New(rand.NewSource(o.Seed)),
		opts:    o,
		minDist: o.MinDistance * sp.scale,
		minSep:  1e-4 * sp.scale,
		fdStep:  math.Max(sp.h, math.Round(1e-6*sp.scale/sp.h)*sp.h),
		sx:      make([]float64, n),
		sy:      make([]float64, n),
		gbuf:    make([]float64, n),
		fdbuf:   make([]float64, n),
	}
	c.grad, _ = f.(gradienter)
	c.patterns = c.structured()
	c.v = Verdict{Name: name(f), N: n, Domain: dom, Symmetric: true, Seed: o.Seed}
	return c
}

// run performs the search and returns the verdict, or the error that an
// evaluation raised.
func (c *checker) run() (v Verdict, err error) {
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(evalError)
			if !ok {
				panic(r)
			}
			v, err = Verdict{}, e.err
		}
	}()
	probes, values := c.probe()
	if c.symmetric(probes, values) && c.sp.n > 1 {
		c.randomPairs()
		c.schurOstrowski()
		for dir := range dirSign {
			c.refine(dir)
		}
	}
	c.finish()
	return c.v, nil
}

// probes are the points of stage 1: the structured points, made anew
// from their index when needed (there are about 3n of n coordinates each),
// then Samples/probeDivisor random points, kept.
type probes struct {
	c      *checker
	random [][]float64
}

func (p probes) len() int { return len(p.c.patterns) + len(p.random) }

// at returns probe k, in buf if it is a structured point.
func (p probes) at(k int, buf []float64) []float64 {
	if k < len(p.c.patterns) {
		p.c.pattern(k, buf)
		return buf
	}
	return p.random[k-len(p.c.patterns)]
}

// probe evaluates f at the structured points and Samples/probeDivisor
// random points, and sets the tolerance from their values.
func (c *checker) probe() (probes, []float64) {
	p := probes{c: c}
	for k := c.opts.Samples / probeDivisor; k > 0; k-- {
		x := make([]float64, c.sp.n)
		c.randomPoint(x)
		p.random = append(p.random, x)
	}
	values := make([]float64, p.len())
	buf := make([]float64, c.sp.n)
	for k := range values {
		values[k] = value(c.f, p.at(k, buf))
	}
	c.tol, c.noise = valueTolerance(values, c.opts.Tol)
	c.v.Tol = c.tol
	return p, values
}

// symmetric compares f at each probe with f at a random transposition
// (even probes) or permutation (odd probes) of it. On failure it records
// the counterexamples and returns false.
func (c *checker) symmetric(probes probes, values []float64) bool {
	n := c.sp.n
	if n == 1 {
		return true
	}
	y, buf := make([]float64, n), make([]float64, n)
	for k := range values {
		x := probes.at(k, buf)
		copy(y, x)
		if k%2 == 0 {
			i, j := randomPair(c.rnd, n)
			y[i], y[j] = y[j], y[i]
		} else {
			c.rnd.Shuffle(n, func(i, j int) { y[i], y[j] = y[j], y[i] })
		}
		fy := value(c.f, y)
		c.v.Pairs++
		if math.Abs(values[k]-fy) <= c.tol {
			continue
		}
		c.v.Symmetric = false
		c.v.SymmetryCounterexample = newCounterexample(x, y, values[k], fy)
		lo, hi := c.v.SymmetryCounterexample, newCounterexample(y, x, fy, values[k])
		if fy < values[k] {
			lo, hi = hi, lo
		}
		// x ≻ y and y ≻ x: the pair with the smaller value first refutes
		// convexity, the other concavity.
		c.v.ConvexCounterexample, c.v.ConcaveCounterexample = lo, hi
		return false
	}
	return true
}

// randomPairs evaluates Samples random pairs: x random or structured, y
// reached by one T-transform (even samples, which become refinement seeds)
// or by a chain of up to n of them.
func (c *checker) randomPairs() {
	n := c.sp.n
	x, y := make([]float64, n), make([]float64, n)
	for s := 0; s < c.opts.Samples; s++ {
		c.randomPoint(x)
		fx := value(c.f, x)
		if s%2 == 0 {
			i, j := randomPair(c.rnd, n)
			theta := c.rnd.Float64()
			c.sp.transfer(y, x, i, j, theta)
			fy := value(c.f, y)
			c.record(x, y, fx, fy)
			for dir, sign := range dirSign {
				c.seeds[dir] = offer(c.seeds[dir], pairStarts, x, i, j, theta, sign*(fx-fy))
			}
			continue
		}
		copy(y, x)
		for k := 1 + c.rnd.Intn(n); k > 0; k-- {
			i, j := randomPair(c.rnd, n)
			c.sp.transfer(y, y, i, j, c.rnd.Float64())
		}
		c.record(x, y, fx, value(c.f, y))
	}
}

// schurOstrowski scans Samples/soDivisor points for the worst
// Schur-Ostrowski quotients, refines the worst few of each property by
// hill-climbing and turns violations into pairs.
func (c *checker) schurOstrowski() {
	n := c.sp.n
	var best [2][]pairSeed
	x := make([]float64, n)
	for s := c.opts.Samples / soDivisor; s > 0; s-- {
		c.randomPoint(x)
		q, pairs := c.quotients(x)
		for dir := range dirSign {
			if !math.IsInf(q[dir], 1) {
				best[dir] = offer(best[dir], soStarts, x, pairs[dir][0], pairs[dir][1], 0.5, q[dir])
			}
		}
	}
	for dir := range dirSign {
		for _, s := range best[dir] {
			if c.refuted(dir) {
				break
			}
			c.climbQuotient(s.x, dir)
		}
	}
}

// climbQuotient hill-climbs from x on the Schur-Ostrowski quotient of the
// property dir, then tries to turn the result into a counterexample and
// keeps it as a refinement seed.
func (c *checker) climbQuotient(x0 []float64, dir int) {
	x := append([]float64(nil), x0...)
	z := make([]float64, len(x))
	q, pairs := c.quotients(x)
	obj, i, j := q[dir], pairs[dir][0], pairs[dir][1]
	step := 0.1
	for it := c.opts.Samples / climbDivisor; it > 0; it-- {
		copy(z, x)
		c.perturb(z, step)
		q, pairs := c.quotients(z)
		if q[dir] < obj {
			copy(x, z)
			obj, i, j = q[dir], pairs[dir][0], pairs[dir][1]
			step = math.Min(1.5*step, 0.5)
		} else {
			step = math.Max(0.8*step, 1e-7)
		}
	}
	if math.IsInf(obj, 1) {
		return
	}
	// A transfer of a small fraction of x_i - x_j from i to j changes f by
	// about -fraction·(x_i - x_j)²·quotient; try halving fractions.
	fx := value(c.f, x)
	y := make([]float64, len(x))
	bestObj, bestTheta := math.Inf(1), 0.5
	for theta := 0.5; theta > 1e-9; theta /= 2 {
		c.sp.transfer(y, x, i, j, theta)
		fy := value(c.f, y)
		c.record(x, y, fx, fy)
		if o := dirSign[dir] * (fx - fy); o < bestObj {
			bestObj, bestTheta = o, theta
		}
		if c.refuted(dir) {
			break
		}
	}
	c.soSeeds[dir] = append(c.soSeeds[dir], pairSeed{x: x, i: i, j: j, theta: bestTheta, obj: bestObj})
}

// quotients returns, for each property, the smallest signed quotient
// dirSign·(∂_a f - ∂_b f)/(x_a - x_b) over coordinates a, b adjacent in
// descending order with x_a - x_b >= minSep, and the pair (a, b); +Inf if
// there is none. A negative quotient violates the Schur-Ostrowski
// condition; checking adjacent pairs suffices, as the differences of the
// other pairs are sums of theirs.
func (c *checker) quotients(x []float64) (q [2]float64, pairs [2][2]int) {
	q = [2]float64{math.Inf(1), math.Inf(1)}
	order := descOrder(x)
	var g []float64
	fx := math.NaN()
	if c.grad != nil {
		g = gradient(c.grad, c.gbuf, x)
	} else {
		fx = value(c.f, x)
	}
	for r := 0; r+1 < len(order); r++ {
		a, b := order[r], order[r+1]
		sep := x[a] - x[b]
		if sep < c.minSep {
			continue
		}
		var d float64
		if g != nil {
			d = g[a] - g[b]
		} else {
			d = c.difference(x, fx, a, b)
		}
		if math.IsNaN(d) || math.IsInf(d, 0) {
			continue
		}
		for dir, sign := range dirSign {
			if v := sign * d / sep; v < q[dir] {
				q[dir], pairs[dir] = v, [2]int{a, b}
			}
		}
	}
	return q, pairs
}

// difference returns the central difference of f along e_a - e_b at x,
// where x_a - x_b >= minSep, one-sided when x + h(e_a - e_b) leaves the
// domain. The points it evaluates are majorized by or majorize x, so it
// records them as pairs.
func (c *checker) difference(x []float64, fx float64, a, b int) float64 {
	h, z := c.fdStep, c.fdbuf
	copy(z, x)
	z[a], z[b] = x[a]-h, x[b]+h
	fm := value(c.f, z)
	c.record(x, z, fx, fm)
	if x[a]+h > c.sp.hi || x[b]-h < c.sp.lo {
		return (fx - fm) / h
	}
	z[a], z[b] = x[a]+h, x[b]-h
	fp := value(c.f, z)
	c.record(z, x, fp, fx)
	return (fp - fm) / (2 * h)
}

// refine hill-climbs on dirSign·(f(x) - f(Tx)) over x and T, from the
// Schur-Ostrowski seeds and then the best random pairs, until the property
// dir is refuted.
func (c *checker) refine(dir int) {
	for _, s := range append(c.soSeeds[dir], c.seeds[dir]...) {
		if c.refuted(dir) {
			return
		}
		c.climbPair(s, dir)
	}
}

func (c *checker) climbPair(s pairSeed, dir int) {
	n, sign := c.sp.n, dirSign[dir]
	x, y := append([]float64(nil), s.x...), make([]float64, n)
	x2, y2 := make([]float64, n), make([]float64, n)
	i, j, theta := s.i, s.j, s.theta
	fx := value(c.f, x)
	c.sp.transfer(y, x, i, j, theta)
	obj := sign * (fx - value(c.f, y))
	step := 0.05
	for it := c.opts.Samples / climbDivisor; it > 0 && !c.refuted(dir); it-- {
		copy(x2, x)
		i2, j2, theta2, fx2 := i, j, theta, fx
		switch c.rnd.Intn(4) {
		case 0, 1:
			c.perturb(x2, step)
			fx2 = value(c.f, x2)
		case 2:
			theta2 = clamp(theta+step*c.rnd.NormFloat64(), 0, 1)
		default:
			i2, j2 = randomPair(c.rnd, n)
		}
		c.sp.transfer(y2, x2, i2, j2, theta2)
		fy2 := value(c.f, y2)
		c.record(x2, y2, fx2, fy2)
		if o := sign * (fx2 - fy2); o < obj {
			copy(x, x2)
			i, j, theta, fx, obj = i2, j2, theta2, fx2, o
			step = math.Min(1.5*step, 0.5)
		} else {
			step = math.Max(0.8*step, 1e-7)
		}
	}
}

// record counts the pair x ≻ y and keeps it if it is the worst
// counterexample so far for a property or the most distant flat pair.
func (c *checker) record(x, y []float64, fx, fy float64) {
	c.v.Pairs++
	d := fx - fy
	switch {
	case d < -c.tol:
		if ce := c.v.ConvexCounterexample; ce == nil || d < ce.FX-ce.FY {
			c.v.ConvexCounterexample = newCounterexample(x, y, fx, fy)
		}
	case d > c.tol:
		if ce := c.v.ConcaveCounterexample; ce == nil || d > ce.FX-ce.FY {
			c.v.ConcaveCounterexample = newCounterexample(x, y, fx, fy)
		}
	case !c.opts.NoStrictness && flat(d, c.opts.Tol, c.noise, fx, fy):
		if dist := c.sortedDistance(x, y); dist >= c.minDist && dist > c.flatDist {
			c.v.FlatPair, c.flatDist = newCounterexample(x, y, fx, fy), dist
		}
	}
}

func (c *checker) refuted(dir int) bool {
	if dir == convexDir {
		return c.v.ConvexCounterexample != nil
	}
	return c.v.ConcaveCounterexample != nil
}

// finish sets the verdict's flags from the counterexamples.
func (c *checker) finish() {
	v := &c.v
	v.Convex = v.ConvexCounterexample == nil
	v.Concave = v.ConcaveCounterexample == nil
	if !v.Symmetric || c.opts.NoStrictness || (v.Convex && v.Concave) || v.FlatPair != nil || v.Pairs == 0 {
		return
	}
	v.StrictlyConvex, v.StrictlyConcave = v.Convex, v.Concave
}

// sortedDistance returns the largest difference between the sorted
// coordinates of x and y: 0 exactly when y is a permutation of x.
func (c *checker) sortedDistance(x, y []float64) float64 {
	copy(c.sx, x)
	copy(c.sy, y)
	sort.Float64s(c.sx)
	sort.Float64s(c.sy)
	d := 0.0
	for i, v := range c.sx {
		d = math.Max(d, math.Abs(v-c.sy[i]))
	}
	return d
}

// randomPoint stores in x a uniform point of the domain (half the time), a
// uniform point with some coordinates moved to the bounds or tied, or a
// structured point.
func (c *checker) randomPoint(x []float64) {
	switch c.rnd.Intn(4) {
	case 0, 1:
		c.sp.sample(c.rnd, x)
	case 2:
		c.sp.sample(c.rnd, x)
		c.snap(x)
	default:
		c.pattern(c.rnd.Intn(len(c.patterns)), x)
	}
}

// snap moves about a third of the coordinates of x to a bound or to a tie
// with another coordinate, staying in the domain.
func (c *checker) snap(x []float64) {
	sp, n := &c.sp, c.sp.n
	for a := range x {
		if n < 2 || c.rnd.Intn(3) != 0 {
			continue
		}
		b := c.rnd.Intn(n - 1)
		if b >= a {
			b++
		}
		kind := c.rnd.Intn(3)
		if sp.kind == simplex {
			s := x[a] + x[b]
			switch kind {
			case 0: // move x_a onto x_b
				x[a], x[b] = 0, s
			default: // tie x_a and x_b, as nearly as the grid allows
				x[a] = math.Floor(s/2/sp.h) * sp.h
				x[b] = s - x[a]
			}
			continue
		}
		switch kind {
		case 0:
			x[a] = sp.lo
		case 1:
			x[a] = math.Min(sp.hi, sp.lo+sp.scale)
		default:
			x[a] = x[b]
		}
	}
}

// perturb moves x by a random step of relative size step within the
// domain: one coordinate (or, one time in four, every coordinate) of a box
// or orthant, or a transfer between two coordinates of the simplex.
func (c *checker) perturb(x []float64, step float64) {
	sp, n := &c.sp, c.sp.n
	if sp.kind == simplex {
		a, b := randomPair(c.rnd, n)
		d := math.Round(step*sp.scale*c.rnd.NormFloat64()/sp.h) * sp.h
		d = clamp(d, -x[a], x[b])
		x[a], x[b] = x[a]+d, x[b]-d
		return
	}
	if c.rnd.Intn(4) == 0 {
		for a := range x {
			x[a] = sp.grid(x[a] + step*sp.scale*c.rnd.NormFloat64())
		}
		return
	}
	a := c.rnd.Intn(n)
	x[a] = sp.grid(x[a] + step*sp.scale*c.rnd.NormFloat64())
}

// structured returns the unitPattern indices of the structured points of
// the domain: the vertices of the box up to permutation, points with zeros
// and ties, near-uniform points and points with one large coordinate,
// mapped onto the domain (pattern). The points themselves are not kept:
// there are about 3n of them, of n coordinates each.
func (c *checker) structured() []int {
	var keep []int
	u := make([]float64, c.sp.n)
	for k := 0; k < unitPatternCount(c.sp.n); k++ {
		unitPattern(k, u)
		if c.sp.kind == simplex && sum(u) == 0 {
			continue // no point of the simplex is a multiple of it
		}
		keep = append(keep, k)
	}
	return keep
}

// pattern writes structured point k into x.
func (c *checker) pattern(k int, x []float64) {
	sp := &c.sp
	unitPattern(c.patterns[k], x)
	if sp.kind == simplex {
		sp.normalize(x)
		return
	}
	for i, v := range x {
		x[i] = sp.grid(sp.lo + v*math.Min(sp.scale, sp.hi-sp.lo))
	}
}

// unitPatternCount is the number of structured points in [0,1]^n.
func unitPatternCount(n int) int { return 3*n + 10 }

// unitPattern writes the k-th structured point in [0,1]^n into p (of
// length n): for k = 0, ..., n the vertex of k ones (the vertices up to
// permutation); then, for each k < n, the vertex of k ones with
// coordinate k moved inwards to 0.05, and to 0.95; then nine points with
// ties, one large coordinate or near-uniform coordinates.
func unitPattern(k int, p []float64) {
	n := len(p)
	var f func(i int) float64
	switch {
	case k <= n:
		f = func(i int) float64 { return step(i < k, 1, 0) }
	case k <= 3*n:
		j, in := (k-n-1)/2, []float64{0.05, 0.95}[(k-n-1)%2]
		f = func(i int) float64 { return step(i < j, 1, step(i == j, in, 0)) }
	default:
		f = []func(i int) float64{
			func(i int) float64 { return step(i == 0, 1, step(i == 1, 0.5, 0)) },
			func(i int) float64 { return step(i == 0, 1, step(i == 1, 0.1, 0)) },
			func(i int) float64 { return step(i == 0, 1, 0.05) },
			func(i int) float64 { return step(i == 0, 1, 0.5) },
			func(i int) float64 { return step(i < 2, 0.5, 0) },
			func(i int) float64 { return step(i < n-1, 1, 0.5) },
			func(i int) float64 { return 0.5 },
			func(i int) float64 { return 0.5 + step(i%2 == 0, 0.01, -0.01) },
			func(i int) float64 { return 1 - float64(i)/float64(n) },
		}[k-3*n-1]
	}
	for i := range p {
		p[i] = f(i)
	}
}

func step(cond bool, a, b float64) float64 {
	if cond {
		return a
	}
	return b
}

// offer inserts a seed into seeds, kept sorted by objective and at most k
// long, copying x if the seed is kept.
func offer(seeds []pairSeed, k int, x []float64, i, j int, theta, obj float64) []pairSeed {
	if len(seeds) == k && obj >= seeds[k-1].obj {
		return seeds
	}
	s := pairSeed{x: append([]float64(nil), x...), i: i, j: j, theta: theta, obj: obj}
	at := sort.Search(len(seeds), func(m int) bool { return seeds[m].obj > obj })
	seeds = append(seeds, pairSeed{})
	copy(seeds[at+1:], seeds[at:])
	seeds[at] = s
	if len(seeds) > k {
		seeds = seeds[:k]
	}
	return seeds
}

func newCounterexample(x, y []float64, fx, fy float64) *Counterexample {
	return &Counterexample{X: append([]float64(nil), x...), Y: append([]float64(nil), y...), FX: fx, FY: fy}
}

// gradient returns the gradient of f at x, panicking with an evalError if
// the Gradient method panics.
func gradient(g gradienter, dst, x []float64) []float64 {
	defer func() {
		if r := recover(); r != nil {
			panic(evalError{fmt.Errorf("schur: gradient panicked at x = %v: %v", x, r)})
		}
	}()
	return g.Gradient(dst, x)
}

// valueTolerance returns the absolute tolerance on values that Options.Tol
// rel gives for the values of a function at the probe points:
// rel·(max − min) + noise, and noise = noiseULPs·ε·max|value|.
func valueTolerance(values []float64, rel float64) (tol, noise float64) {
	lo, hi, scale := math.Inf(1), math.Inf(-1), 0.0
	for _, v := range values {
		lo, hi, scale = math.Min(lo, v), math.Max(hi, v), math.Max(scale, math.Abs(v))
	}
	if len(values) == 0 {
		return 0, 0
	}
	noise = noiseULPs * epsilon * scale
	return rel*hi - rel*lo + noise, noise // hi - lo may overflow
}

// flat reports whether a difference d of values within the tolerance is
// also within the relative tolerance rel of the values themselves, plus
// noise: only then does it refute strictness.
func flat(d, rel, noise float64, values ...float64) bool {
	scale := 0.0
	for _, v := range values {
		scale = math.Max(scale, math.Abs(v))
	}
	return math.Abs(d) <= rel*scale+noise
}
