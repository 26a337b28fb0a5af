package gain

import (
	"math"
	"math/rand"
	"sort"

	"github.com/hetgain/hetgain/aggregators"
)

// numObjective is R(A) = U(T_1(a_1), ..., T_M(a_M)) on a flat row-major
// allocation, through kernels. For a homogeneous objective x is one row c
// of length M and column j is the constant column (c_j, ..., c_j).
type numObjective struct {
	n, m   int
	hom    bool
	inner  []numKernel // one per task
	outer  numKernel
	nonNeg bool // U accepts only non-negative scores
	// overflow records that a task score beyond aggregators.MaxInput or
	// R = ±Inf was met at some point (such points are treated as
	// undefined).
	overflow bool

	col, gcol []float64 // length n
	y, gy     []float64 // length m
}

// numNewObjective returns the objective of r with kernels smoothed at
// temperature temp (0: exact); scaleIn and scaleOut are the typical
// magnitudes of efforts and of task scores. If generic, the exact kernels
// call the operators' own methods.
func numNewObjective(r *aggregators.Reward, n, m int, hom bool, temp, scaleIn, scaleOut float64, generic bool) *numObjective {
	size := n
	if m > size {
		size = m
	}
	o := &numObjective{
		n: n, m: m, hom: hom,
		inner:  make([]numKernel, m),
		nonNeg: r.Outer.Domain() == aggregators.NonNegative,
		col:    make([]float64, n), gcol: make([]float64, n),
		y: make([]float64, m), gy: make([]float64, m),
	}
	o.outer, _ = numKernelFor(r.Outer, temp, scaleOut, size, generic)
	if len(r.Inner) == 1 {
		k, _ := numKernelFor(r.Inner[0], temp, scaleIn, size, generic)
		for j := range o.inner {
			o.inner[j] = k
		}
	} else {
		for j := range o.inner {
			o.inner[j], _ = numKernelFor(r.Inner[j], temp, scaleIn, size, generic)
		}
	}
	return o
}

// numNonsmooth reports whether some operator of r is non-smooth (and so is
// optimised through smoothed surrogates first).
func numNonsmooth(r *aggregators.Reward) bool {
	if _, ns := numExactKernel(r.Outer, 1); ns {
		return true
	}
	for _, op := range r.Inner {
		if _, ns := numExactKernel(op, 1); ns {
			return true
		}
	}
	return false
}

// column fills o.col with column j of x.
func (o *numObjective) column(x []float64, j int) []float64 {
	if o.hom {
		for i := range o.col {
			o.col[i] = x[j]
		}
		return o.col
	}
	for i := range o.col {
		o.col[i] = x[i*o.m+j]
	}
	return o.col
}

// numScoreSlack is how far beyond aggregators.MaxInput, relatively, a
// task score may round without counting as an overflow: scores of efforts
// at a budget of MaxInput land a few ulps above it.
const numScoreSlack = 1e-9

// numScoreOverflows reports whether a task score is ±Inf or beyond
// aggregators.MaxInput by more than rounding (numScoreSlack).
func numScoreOverflows(v float64) bool {
	return math.Abs(v) > aggregators.MaxInput*(1+numScoreSlack)
}

// validScore reports whether v is a valid input of U, recording an
// overflow if numScoreOverflows.
func (o *numObjective) validScore(v float64) bool {
	if numScoreOverflows(v) {
		o.overflow = true
	}
	return !math.IsNaN(v) && !math.IsInf(v, 0) && math.Abs(v) <= aggregators.MaxInput && !(o.nonNeg && v < 0)
}

// value returns R(x), or NaN if some task score is not a valid input of U
// or R is not finite.
func (o *numObjective) value(x []float64) float64 {
	for j := 0; j < o.m; j++ {
		o.y[j] = o.inner[j].value(o.column(x, j))
		if !o.validScore(o.y[j]) {
			return math.NaN()
		}
	}
	return o.finite(o.outer.value(o.y))
}

// finite returns f, or NaN (recording an overflow) if f is ±Inf.
func (o *numObjective) finite(f float64) float64 {
	if math.IsInf(f, 0) {
		o.overflow = true
		return math.NaN()
	}
	return f
}

// valueGrad returns R(x) and stores its gradient in g, or returns NaN.
func (o *numObjective) valueGrad(g, x []float64) float64 {
	m := o.m
	for j := 0; j < m; j++ {
		o.y[j] = o.inner[j].valueGrad(o.gcol, o.column(x, j))
		if !o.validScore(o.y[j]) {
			return math.NaN()
		}
		if o.hom {
			s := 0.0
			for _, v := range o.gcol {
				s += v
			}
			g[j] = s
		} else {
			for i, v := range o.gcol {
				g[i*m+j] = v
			}
		}
	}
	f := o.outer.valueGrad(o.gy, o.y)
	for k := range g {
		g[k] *= o.gy[k%m]
	}
	return o.finite(f)
}

// numBox is the feasible set of one row, a capped simplex: r_j >= lo and
// sum_j r_j <= hi.
type numBox struct {
	m      int
	lo, hi float64
	s      float64 // hi − m·lo, the budget above the floor
}

func numNewBox(m int, b Budget) numBox {
	return numBox{m: m, lo: b.Min, hi: b.Max, s: b.Max - float64(m)*b.Min}
}

// project replaces each row of x (rows of length m) by its Euclidean
// projection onto the box, using buf (length m) as scratch.
func (b numBox) project(x, buf []float64) {
	for start := 0; start < len(x); start += b.m {
		b.projectRow(x[start:start+b.m], buf)
	}
}

// projectRow projects v onto {v_j >= lo, sum_j v_j <= hi}: clip at the
// floor, and if the row is then over budget, project onto the face
// sum_j v_j = hi (the sorting algorithm of Held, Wolfe and Crowder).
func (b numBox) projectRow(v, buf []float64) {
	sum := 0.0
	for j, u := range v {
		v[j] = u - b.lo
		sum += math.Max(v[j], 0)
	}
	if sum <= b.s {
		for j, u := range v {
			v[j] = math.Max(u, 0) + b.lo
		}
		return
	}
	u := buf[:len(v)]
	copy(u, v)
	numSortDescending(u)
	cum, theta := 0.0, 0.0
	for k, w := range u {
		cum += w
		t := (cum - b.s) / float64(k+1)
		if k+1 == len(u) || u[k+1] <= t {
			theta = t
			break
		}
	}
	for j, w := range v {
		v[j] = math.Max(w-theta, 0) + b.lo
	}
}

// feasible moves every entry of x into the box exactly: entries below lo
// are raised to lo and a row whose sum, added up as aggregators.Reward
// does, exceeds hi is shrunk towards the floor until it does not.
func (b numBox) feasible(x []float64) {
	for start := 0; start < len(x); start += b.m {
		row := x[start : start+b.m]
		for j, v := range row {
			row[j] = math.Max(v, b.lo)
		}
		for k := 0; k < 100 && numRowSum(row) > b.hi; k++ {
			shrink := 1 - math.Ldexp(1, -50+k)
			for j, v := range row {
				row[j] = math.Max(b.lo+(v-b.lo)*shrink, b.lo)
			}
		}
		if numRowSum(row) > b.hi { // cannot happen for a valid box
			for j := range row {
				row[j] = b.lo
			}
		}
	}
}

// numSortDescending sorts u in decreasing order without allocating:
// insertion sort for short rows, sort.Float64s otherwise.
func numSortDescending(u []float64) {
	if len(u) > 32 {
		sort.Float64s(u)
		for i, j := 0, len(u)-1; i < j; i, j = i+1, j-1 {
			u[i], u[j] = u[j], u[i]
		}
		return
	}
	for i := 1; i < len(u); i++ {
		v := u[i]
		k := i
		for ; k > 0 && u[k-1] < v; k-- {
			u[k] = u[k-1]
		}
		u[k] = v
	}
}

func numRowSum(row []float64) float64 {
	s := 0.0
	for _, v := range row {
		s += v
	}
	return s
}

// numSPG is the spectral projected gradient method (Birgin, Martínez and
// Raydan 2000) for maximising an objective over a product of capped
// simplices (one numBox per row): Barzilai-Borwein steps, projection of
// each row, and a non-monotone Armijo line search over the last
// numSPGMemory values. Its buffers are reused across runs.
type numSPG struct {
	box                   numBox
	x, g, xt, gt, d, best []float64
	buf                   []float64
	hist                  [numSPGMemory]float64
	bestHist              []float64
}

const (
	numSPGMemory = 8
	numArmijo    = 1e-4
	numStepMin   = 1e-12
	numStepMax   = 1e12
	// numStallWindow is the number of iterations over which the best
	// value must improve by more than the tolerance.
	numStallWindow = 10
)

func numNewSPG(box numBox, dim int) *numSPG {
	return &numSPG{
		box: box, buf: make([]float64, box.m),
		x: make([]float64, dim), g: make([]float64, dim), xt: make([]float64, dim),
		gt: make([]float64, dim), d: make([]float64, dim), best: make([]float64, dim),
	}
}

// run maximises obj from x0 (feasible, length dim) for at most maxIter
// iterations and returns the best value found; the best point is left in
// s.best. It stops when the best value has improved by less than
// tol·(1 + |best|) over numStallWindow iterations, or when the projected
// gradient step vanishes. It returns -Inf if obj is not defined at x0.
func (s *numSPG) run(obj *numObjective, x0 []float64, maxIter int, tol float64) float64 {
	copy(s.x, x0)
	copy(s.best, x0)
	f := obj.valueGrad(s.g, s.x)
	if math.IsNaN(f) {
		return math.Inf(-1)
	}
	bestF := f
	s.bestHist = append(s.bestHist[:0], f)
	for k := range s.hist {
		s.hist[k] = f
	}
	// Initial step: 1/||P(x + g) − x||_∞.
	lambda := 1.0
	if p := s.stepNorm(1); p > 0 {
		lambda = numClamp(1/p, numStepMin, numStepMax)
	}
	for it := 0; it < maxIter; it++ {
		// d = P(x + λ g) − x.
		for k, v := range s.x {
			s.d[k] = v + lambda*s.g[k]
		}
		s.box.project(s.d, s.buf)
		gd, dmax := 0.0, 0.0
		for k, v := range s.x {
			s.d[k] -= v
			gd += s.g[k] * s.d[k]
			dmax = math.Max(dmax, math.Abs(s.d[k]))
		}
		if !(gd > 0) || dmax <= 1e-15*(1+math.Abs(s.box.hi)+math.Abs(s.box.lo)) {
			break
		}
		fref := s.hist[0]
		for _, v := range s.hist[1:] {
			fref = math.Max(fref, v)
		}
		alpha, ft, ok := 1.0, 0.0, false
		for back := 0; back < 40; back++ {
			for k, v := range s.x {
				s.xt[k] = v + alpha*s.d[k]
			}
			ft = obj.valueGrad(s.gt, s.xt)
			if ft >= fref+numArmijo*alpha*gd {
				ok = true
				break
			}
			alpha *= 0.5
		}
		if !ok {
			break
		}
		// Barzilai-Borwein step for the minimisation of −f:
		// λ = sᵀs / sᵀy with s = x_t − x and y = −(g_t − g).
		ss, sy := 0.0, 0.0
		for k, v := range s.xt {
			dx := v - s.x[k]
			ss += dx * dx
			sy -= dx * (s.gt[k] - s.g[k])
		}
		if sy > 0 {
			lambda = numClamp(ss/sy, numStepMin, numStepMax)
		} else {
			lambda = numStepMax
		}
		s.x, s.xt = s.xt, s.x
		s.g, s.gt = s.gt, s.g
		f = ft
		s.hist[(it+1)%numSPGMemory] = f
		if f > bestF {
			bestF = f
			copy(s.best, s.x)
		}
		s.bestHist = append(s.bestHist, bestF)
		if w := len(s.bestHist) - 1 - numStallWindow; w >= 0 && bestF-s.bestHist[w] <= tol*(1+math.Abs(bestF)) {
			break
		}
	}
	return bestF
}

// stepNorm returns ||P(x + λ g) − x||_∞.
func (s *numSPG) stepNorm(lambda float64) float64 {
	for k, v := range s.x {
		s.d[k] = v + lambda*s.g[k]
	}
	s.box.project(s.d, s.buf)
	p := 0.0
	for k, v := range s.x {
		p = math.Max(p, math.Abs(s.d[k]-v))
	}
	return p
}

func numClamp(v, lo, hi float64) float64 { return math.Min(math.Max(v, lo), hi) }

// numSource is the splitmix64 generator (Steele, Lea and Flood 2014) as a
// rand.Source64. Seeding math/rand's default source fills a table of 607
// words, which took a tenth of the time of a 2×2 problem; this one is
// seeded in O(1), and is as deterministic.
type numSource struct{ state uint64 }

func numNewSource(seed int64) *numSource { return &numSource{state: uint64(seed)} }

func (s *numSource) Seed(seed int64) { s.state = uint64(seed) }

func (s *numSource) Uint64() uint64 {
	s.state += 0x9E3779B97F4A7C15
	z := s.state
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

func (s *numSource) Int63() int64 { return int64(s.Uint64() >> 1) }

// numRandomRow stores in row a random point of the box: Dirichlet(α)
// weights (α = 1 or 1/2) times the share frac of the budget above the
// floor.
func numRandomRow(rnd *rand.Rand, row []float64, box numBox, alpha, frac float64) {
	sum := 0.0
	for j := range row {
		var g float64
		if alpha == 1 {
			g = rnd.ExpFloat64()
		} else { // Gamma(1/2) = Z²/2
			z := rnd.NormFloat64()
			g = z * z / 2
		}
		row[j] = g
		sum += g
	}
	for j := range row {
		w := 1 / float64(len(row))
		if sum > 0 {
			w = row[j] / sum
		}
		row[j] = box.lo + frac*box.s*w
	}
}

// numRandomStart fills x (rows of length m) with the kind-th type of random
// start: 0, uniform rows on the full-budget face; 1, a random vertex per row
// moved 15% towards a uniform random row; 2, sparse Dirichlet(1/2) rows
// using between half and all of the budget.
func numRandomStart(rnd *rand.Rand, x []float64, box numBox, kind int) {
	m := box.m
	for start := 0; start < len(x); start += m {
		row := x[start : start+m]
		switch kind % 3 {
		case 0:
			numRandomRow(rnd, row, box, 1, 1)
		case 1:
			numRandomRow(rnd, row, box, 1, 0.15)
			row[rnd.Intn(m)] += 0.85 * box.s
		default:
			numRandomRow(rnd, row, box, 0.5, 0.5+0.5*rnd.Float64())
		}
	}
}
