package gain

import (
	"fmt"
	"math"
	"runtime"
	"strconv"
	"strings"

	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
	"github.com/hetgain/hetgain/aggregators"
)

// SolveFunc computes the optimal heterogeneous and homogeneous rewards of r
// for n agents, m tasks and allocations of the given kind. Numerical is
// one; tests and callers with a faster method for their reward can supply
// another.
type SolveFunc func(r *aggregators.Reward, n, m int, kind Allocation, opts *Options) (Gains, error)

// SweepSpec describes a sweep of the heterogeneity gain over a grid of the
// parameters of a parametric outer aggregator U (parameter τ) and inner
// aggregator T (parameter t), as in the paper's Figure 2 (softmax U and T,
// N = M = 2).
type SweepSpec struct {
	// Outer and Inner name the families of U and T as aggregators.Parse
	// spells them, without the parameter: "softmax", "lse", "powersum",
	// "powermean" or "level". A trailing "(t)", "(tau)" or "(τ)" is
	// accepted and ignored.
	Outer, Inner string
	// OuterParams and InnerParams are the values of τ and t. Each needs at
	// least one value, none NaN and each in its family's domain.
	OuterParams, InnerParams []float64
	// N and M are the numbers of agents and tasks.
	N, M int
	// Kind is the kind of allocation.
	Kind Allocation
	// Options are passed to Solve; each cell gets its own copy with Seed
	// replaced by a seed derived from Options.Seed (0 meaning 1) and the
	// cell's two parameter values (see CellSeed), so a cell's result does
	// not depend on the order in which cells run, the number of workers,
	// the rest of the grid, or whether the sweep was resumed.
	Options Options
	// Workers is the number of cells computed at once; 0 means
	// runtime.GOMAXPROCS(0).
	Workers int
	// Solve computes one cell; nil means Numerical.
	Solve SolveFunc

	// Resume holds cells computed earlier (for instance read back from a
	// file that OnCell wrote). They are put into the result as they are,
	// are not computed again and are not passed to OnCell. Each must lie
	// on the grid (Outer == OuterParams[I] and Inner == InnerParams[J])
	// and have finite Het, Hom and Delta.
	Resume []Cell
	// OnCell, if not nil, is called with every newly computed cell as soon
	// as it is done, in completion order (which depends on the number of
	// workers). Calls come from the goroutine that called Sweep, one at a
	// time. An error stops the sweep: Sweep returns it after the cells
	// already running have finished.
	OnCell func(Cell) error
	// Progress, if not nil, is called once before the first cell with the
	// number of resumed cells, and after every computed cell, with the
	// number of cells done (resumed ones included) and the grid's size.
	// Calls come from the goroutine that called Sweep.
	Progress func(done, total int)
	// Stop, if not nil, is called before each cell is started; once it
	// returns true no further cell is started, the running ones finish,
	// and Sweep returns the partial result with Stopped set.
	Stop func() bool
}

// Cell is one point of a sweep: Gains at U's parameter Outer =
// OuterParams[I] and T's parameter Inner = InnerParams[J].
type Cell struct {
	I, J         int
	Outer, Inner float64
	Gains
}

// SweepResult is the outcome of Sweep. The grids are indexed [i][j] with
// i indexing OuterParams (τ, the y axis of the paper's figure) and j
// indexing InnerParams (t, the x axis), so Gain is the Z of a heat map
// with x = t and y = τ. Cells, Frame and Grid panic if a grid does not
// have that shape (a SweepResult edited after Sweep).
type SweepResult struct {
	Outer, Inner             string
	OuterParams, InnerParams []float64
	N, M                     int
	Kind                     Allocation

	// RHet, RHom and Gain hold the optima and ΔR; NaN where not Done.
	RHet, RHom, Gain [][]float64
	// Done reports the cells that were computed or resumed.
	Done [][]bool
	// Bound holds the lower bound on ΔR of Theorem 3.4 (SoftmaxBound's
	// DeltaLower) at every cell when it applies (softmax U and T,
	// continuous allocations, N = M >= 2), and is nil otherwise.
	Bound [][]float64
	// Stopped reports that SweepSpec.Stop ended the sweep early.
	Stopped bool
}

// Size returns the number of cells of the grid.
func (r SweepResult) Size() int { return len(r.OuterParams) * len(r.InnerParams) }

// Missing returns the number of cells that are not Done.
func (r SweepResult) Missing() int {
	missing := 0
	for _, row := range r.Done {
		for _, d := range row {
			if !d {
				missing++
			}
		}
	}
	return missing
}

// Complete reports whether every cell is Done.
func (r SweepResult) Complete() bool { return r.Missing() == 0 }

// checkShape panics with a "gain: " message naming the field if one of
// the grids of r (RHet, RHom, Gain, Done and Bound when not nil) is not
// len(OuterParams) × len(InnerParams): a SweepResult that Sweep did not
// make, or that was changed after.
func (r SweepResult) checkShape() {
	rows, cols := len(r.OuterParams), len(r.InnerParams)
	check := func(name string, n int, width func(i int) int) {
		if n != rows {
			panic(fmt.Sprintf("gain: SweepResult.%s has %d rows for %d outer parameters", name, n, rows))
		}
		for i := 0; i < n; i++ {
			if w := width(i); w != cols {
				panic(fmt.Sprintf("gain: SweepResult.%s row %d has %d cells for %d inner parameters", name, i, w, cols))
			}
		}
	}
	for _, f := range []struct {
		name string
		grid [][]float64
	}{{"RHet", r.RHet}, {"RHom", r.RHom}, {"Gain", r.Gain}} {
		check(f.name, len(f.grid), func(i int) int { return len(f.grid[i]) })
	}
	check("Done", len(r.Done), func(i int) int { return len(r.Done[i]) })
	if r.Bound != nil {
		check("Bound", len(r.Bound), func(i int) int { return len(r.Bound[i]) })
	}
}

// Cells returns the cells that are Done, in grid order (by I, then J).
// Their allocations are not kept by Sweep and are nil.
func (r SweepResult) Cells() []Cell {
	r.checkShape()
	var cells []Cell
	for i, row := range r.Done {
		for j, d := range row {
			if d {
				cells = append(cells, Cell{I: i, J: j, Outer: r.OuterParams[i], Inner: r.InnerParams[j],
					Gains: sweepGains(r.RHet[i][j], r.RHom[i][j], r.Gain[i][j])})
			}
		}
	}
	return cells
}

// SweepColumns are the columns of SweepResult.Frame, without the optional
// Bound column.
var SweepColumns = []string{"InnerParam", "OuterParam", "N", "M", "RHet", "RHom", "Gain"}

// Frame returns the cells that are Done as a table, one row per cell in
// grid order (by OuterParam, then InnerParam), with the columns
//
//	InnerParam, OuterParam  float  t and τ
//	N, M                    int
//	RHet, RHom, Gain        float  the optima and ΔR
//	Bound                   float  Theorem 3.4's lower bound on ΔR, only
//	                               when Bound is not nil
func (r SweepResult) Frame() dataframe.DataFrame {
	r.checkShape()
	var inner, outer, het, hom, gain, bound []float64
	var ns, ms []int
	for i, row := range r.Done {
		for j, d := range row {
			if !d {
				continue
			}
			inner, outer = append(inner, r.InnerParams[j]), append(outer, r.OuterParams[i])
			ns, ms = append(ns, r.N), append(ms, r.M)
			het, hom, gain = append(het, r.RHet[i][j]), append(hom, r.RHom[i][j]), append(gain, r.Gain[i][j])
			if r.Bound != nil {
				bound = append(bound, r.Bound[i][j])
			}
		}
	}
	cols := []series.Series{
		sweepFloats(inner, "InnerParam"), sweepFloats(outer, "OuterParam"),
		sweepInts(ns, "N"), sweepInts(ms, "M"),
		sweepFloats(het, "RHet"), sweepFloats(hom, "RHom"), sweepFloats(gain, "Gain"),
	}
	if r.Bound != nil {
		cols = append(cols, sweepFloats(bound, "Bound"))
	}
	return dataframe.New(cols...)
}

// Grid returns the sweep as the X, Y and Z of figures.Grid: x = InnerParams
// (t), y = OuterParams (τ) and z[i][j] = Gain[i][j] at (x[j], y[i]), NaN
// where not Done. The slices are copies.
func (r SweepResult) Grid() (x, y []float64, z [][]float64) {
	r.checkShape()
	x = append([]float64(nil), r.InnerParams...)
	y = append([]float64(nil), r.OuterParams...)
	z = make([][]float64, len(r.Gain))
	for i, row := range r.Gain {
		z[i] = append([]float64(nil), row...)
	}
	return x, y, z
}

// Sweep computes the optima of R = U∘T, with U the member of the Outer
// family with parameter τ and T the member of the Inner family with
// parameter t, for every τ in OuterParams and t in InnerParams, on
// spec.Workers goroutines. The result does not depend on the number of
// workers.
//
// Sweep returns an error wrapping ErrSize for N or M below 1, ErrOperator
// for an unknown or non-parametric family or an unknown Kind, and ErrParam
// for an empty parameter list, a parameter outside its family's domain, a
// negative Workers, a Resume cell that is not on the grid, or a Resume
// cell whose Het, Hom or Delta is NaN or infinite (wrapping
// aggregators.ErrNaN or ErrInf too); these are reported before any cell
// runs. An error from Solve (wrapped with the cell's parameters), a cell
// whose Gains Solve returns with a NaN or infinite Het, Hom or Delta (an
// error wrapping ErrOperator and aggregators.ErrNaN or ErrInf), or an
// error from OnCell stops the sweep; Sweep then returns it together with
// the cells finished so far. When Stop ends the sweep, the error is nil
// and the result has Stopped set.
func Sweep(spec SweepSpec) (SweepResult, error) {
	res, outer, inner, err := sweepSetup(spec)
	if err != nil {
		return SweepResult{}, err
	}
	ni, nj := len(outer), len(inner)
	done := 0
	for _, c := range spec.Resume {
		if c.I < 0 || c.I >= ni || c.J < 0 || c.J >= nj ||
			c.Outer != spec.OuterParams[c.I] || c.Inner != spec.InnerParams[c.J] {
			return SweepResult{}, fmt.Errorf("gain: sweep: resumed cell (I = %d, J = %d, τ = %v, t = %v) is not on the grid: %w",
				c.I, c.J, c.Outer, c.Inner, ErrParam)
		}
		if err := checkGainsFinite(c.Gains); err != nil {
			return SweepResult{}, fmt.Errorf("gain: sweep: resumed cell (I = %d, J = %d, τ = %v, t = %v) has %w: %w",
				c.I, c.J, c.Outer, c.Inner, err, ErrParam)
		}
		if !res.Done[c.I][c.J] {
			done++
		}
		res.set(c.I, c.J, c.Gains)
	}
	var todo []int
	for k := 0; k < ni*nj; k++ {
		if !res.Done[k/nj][k%nj] {
			todo = append(todo, k)
		}
	}
	total := ni * nj
	if spec.Progress != nil {
		spec.Progress(done, total)
	}
	solve := spec.Solve
	if solve == nil {
		solve = Numerical
	}
	compute := func(k int) (g Gains, err error) {
		i, j := k/nj, k%nj
		defer func() {
			if p := recover(); p != nil {
				g, err = Gains{}, fmt.Errorf("gain: sweep: U = %v, T = %v: Solve panicked: %v: %w", outer[i], inner[j], p, ErrOperator)
			}
		}()
		opts := spec.Options
		opts.Seed = CellSeed(spec.Options.Seed, spec.OuterParams[i], spec.InnerParams[j])
		r := aggregators.NewReward(outer[i], inner[j])
		if g, err = solve(r, spec.N, spec.M, spec.Kind, &opts); err != nil {
			return g, fmt.Errorf("gain: sweep: U = %v, T = %v: %w", outer[i], inner[j], err)
		}
		if err := checkGainsFinite(g); err != nil {
			return g, fmt.Errorf("gain: sweep: U = %v, T = %v: Solve returned %w: %w", outer[i], inner[j], err, ErrOperator)
		}
		return g, nil
	}
	var firstErr error
	onCellFailed := false
	deliver := func(k int, g Gains, err error) bool {
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			return false
		}
		i, j := k/nj, k%nj
		res.set(i, j, g)
		done++
		if spec.OnCell != nil && !onCellFailed {
			c := Cell{I: i, J: j, Outer: spec.OuterParams[i], Inner: spec.InnerParams[j], Gains: g}
			if err := spec.OnCell(c); err != nil {
				onCellFailed = true
				if firstErr == nil {
					firstErr = err
				}
			}
		}
		if spec.Progress != nil {
			spec.Progress(done, total)
		}
		return firstErr == nil
	}
	res.Stopped = sweepPool(todo, spec.Workers, spec.Stop, compute, deliver)
	return res, firstErr
}

// CellSeed returns the seed that Sweep gives the cell with parameters
// outer and inner when the sweep's Options.Seed is seed: a mix of the
// three, so that neighbouring cells get unrelated random streams. Seed 0
// means 1, as in Options, so the two give the same sweep; -0 and 0 give
// the same seed, as do all NaNs.
func CellSeed(seed int64, outer, inner float64) int64 {
	if seed == 0 {
		seed = 1
	}
	outer, inner = canonicalParam(outer), canonicalParam(inner)
	h := sweepMix(uint64(seed))
	h = sweepMix(h ^ math.Float64bits(outer))
	h = sweepMix(h ^ math.Float64bits(inner))
	return int64(h >> 1) // non-negative
}

// canonicalParam returns v with -0 as +0 and every NaN as math.NaN(), so
// that parameters that compare (or print) alike get the same CellSeed.
func canonicalParam(v float64) float64 {
	switch {
	case v == 0:
		return 0
	case math.IsNaN(v):
		return math.NaN()
	}
	return v
}

// sweepMix is the finaliser of the SplitMix64 generator.
func sweepMix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// sweepSetup validates spec and returns an empty result and the operators
// of every row (outer) and column (inner) of the grid.
func sweepSetup(spec SweepSpec) (res SweepResult, outer, inner []aggregators.Operator, err error) {
	if err := checkSizes(spec.N, spec.M); err != nil {
		return res, nil, nil, err
	}
	if spec.Kind != Continuous && spec.Kind != Discrete {
		return res, nil, nil, fmt.Errorf("gain: sweep: unknown allocation kind %v: %w", spec.Kind, ErrOperator)
	}
	if spec.Workers < 0 {
		return res, nil, nil, fmt.Errorf("gain: sweep: Workers = %d, need >= 0: %w", spec.Workers, ErrParam)
	}
	outerName, err := sweepFamily(spec.Outer)
	if err != nil {
		return res, nil, nil, fmt.Errorf("gain: sweep: U: %w", err)
	}
	innerName, err := sweepFamily(spec.Inner)
	if err != nil {
		return res, nil, nil, fmt.Errorf("gain: sweep: T: %w", err)
	}
	if outer, err = sweepMembers(outerName, spec.OuterParams); err != nil {
		return res, nil, nil, fmt.Errorf("gain: sweep: U: %w", err)
	}
	if inner, err = sweepMembers(innerName, spec.InnerParams); err != nil {
		return res, nil, nil, fmt.Errorf("gain: sweep: T: %w", err)
	}
	ni, nj := len(outer), len(inner)
	res = SweepResult{
		Outer: outerName, Inner: innerName,
		OuterParams: append([]float64(nil), spec.OuterParams...),
		InnerParams: append([]float64(nil), spec.InnerParams...),
		N:           spec.N, M: spec.M, Kind: spec.Kind,
		RHet: sweepNaNGrid(ni, nj), RHom: sweepNaNGrid(ni, nj), Gain: sweepNaNGrid(ni, nj),
		Done: make([][]bool, ni),
	}
	for i := range res.Done {
		res.Done[i] = make([]bool, nj)
	}
	if _, ok := SweepBound(outerName, innerName, 0, 0, spec.N, spec.M, spec.Kind); ok {
		res.Bound = sweepNaNGrid(ni, nj)
		for i, tau := range spec.OuterParams {
			for j, t := range spec.InnerParams {
				res.Bound[i][j], _ = SweepBound(outerName, innerName, tau, t, spec.N, spec.M, spec.Kind)
			}
		}
	}
	return res, outer, inner, nil
}

// SweepBound returns the lower bound on ΔR that a theorem gives for the
// cell (τ = outer, t = inner) of a sweep of the families outerFamily and
// innerFamily (canonical names, as SweepFamily returns), and whether a
// theorem applies to the sweep at all. Only Theorem 3.4 does, for softmax
// U and T, continuous allocations and N = M >= 2: the bound is
// SoftmaxBound's DeltaLower (NaN for a NaN parameter).
func SweepBound(outerFamily, innerFamily string, outer, inner float64, n, m int, kind Allocation) (float64, bool) {
	if outerFamily != "softmax" || innerFamily != "softmax" || kind != Continuous || n != m || n < 2 {
		return math.NaN(), false
	}
	b, err := SoftmaxBound(inner, outer, n, m)
	if err != nil {
		return math.NaN(), true
	}
	return b.DeltaLower, true
}

func (r *SweepResult) set(i, j int, g Gains) {
	r.RHet[i][j], r.RHom[i][j], r.Gain[i][j] = g.Het, g.Hom, g.Delta
	r.Done[i][j] = true
}

// SweepFamily returns the canonical name of a parametric family for
// SweepSpec ("softmax" for " SoftMax(t)"), or an error wrapping
// ErrOperator that lists the parametric families if name is not one.
func SweepFamily(name string) (string, error) {
	family, err := sweepFamily(name)
	if err != nil {
		return "", fmt.Errorf("gain: %w", err)
	}
	return family, nil
}

// sweepFamily is SweepFamily with errors that name no package.
func sweepFamily(name string) (string, error) {
	s := strings.ToLower(strings.ReplaceAll(name, " ", ""))
	if base, arg, ok := strings.Cut(s, "("); ok {
		switch strings.TrimSuffix(arg, ")") {
		case "t", "tau", "τ":
			s = base
		default:
			return "", fmt.Errorf("family %q: give the family name alone (as in %s), not an operator: %w",
				name, base, ErrOperator)
		}
	}
	families := ParametricFamilies()
	for _, f := range families {
		if s == f {
			return s, nil
		}
	}
	return "", fmt.Errorf("%q is not a parametric family (known: %s): %w", name, strings.Join(families, ", "), ErrOperator)
}

// ParametricFamilies returns the names of the families of
// aggregators.Families that take one numeric parameter: "softmax", "lse",
// "powersum", "powermean" and "level".
func ParametricFamilies() []string {
	var names []string
	for _, f := range aggregators.Families {
		if name, arg, ok := strings.Cut(f, "("); ok && !strings.Contains(arg, ",") && !strings.Contains(arg, ";") {
			names = append(names, name)
		}
	}
	return names
}

// sweepMembers returns the members of a family with the given parameters.
func sweepMembers(family string, params []float64) ([]aggregators.Operator, error) {
	if len(params) == 0 {
		return nil, fmt.Errorf("no values of the %s parameter: %w", family, ErrParam)
	}
	ops := make([]aggregators.Operator, len(params))
	for k, t := range params {
		if math.IsNaN(t) {
			return nil, fmt.Errorf("%s parameter %d is NaN: %w", family, k, ErrParam)
		}
		op, err := aggregators.Parse(family + "(" + strconv.FormatFloat(t, 'g', -1, 64) + ")")
		if err != nil {
			return nil, fmt.Errorf("value %d of the grid, %v: %w: %w", k, t, err, ErrParam)
		}
		ops[k] = op
	}
	return ops, nil
}

// sweepPool computes compute(k) for every k in todo on up to workers
// goroutines (0 means runtime.GOMAXPROCS(0)) and hands each result to
// deliver on the calling goroutine, in completion order. Before starting
// each k it calls stop (if not nil); once stop returns true, or deliver
// returns false, no further k is started, the running ones are delivered,
// and sweepPool returns; it reports whether stop ended it. A panic in
// compute is delivered as an error.
func sweepPool(todo []int, workers int, stop func() bool, compute func(k int) (Gains, error), deliver func(k int, g Gains, err error) bool) (stopped bool) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if workers > len(todo) {
		workers = len(todo)
	}
	if workers == 0 {
		return false
	}
	type result struct {
		k   int
		g   Gains
		err error
	}
	jobs := make(chan int)
	results := make(chan result, workers)
	for w := 0; w < workers; w++ {
		go func() {
			for k := range jobs {
				g, err := sweepSafeCompute(compute, k)
				results <- result{k, g, err}
			}
		}()
	}
	defer close(jobs)
	next, running, more := 0, 0, true
	for {
		for more && running < workers && next < len(todo) {
			if stop != nil && stop() {
				stopped, more = true, false
				break
			}
			jobs <- todo[next]
			next++
			running++
		}
		if running == 0 {
			return stopped
		}
		r := <-results
		running--
		if !deliver(r.k, r.g, r.err) {
			more = false
		}
	}
}

func sweepSafeCompute(compute func(k int) (Gains, error), k int) (g Gains, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("gain: panic: %v", p)
		}
	}()
	return compute(k)
}

// checkGainsFinite returns an error wrapping aggregators.ErrNaN or ErrInf
// that names the first of g's Het, Hom and Delta that is not finite.
func checkGainsFinite(g Gains) error {
	for _, v := range []struct {
		name string
		v    float64
	}{{"Het", g.Het}, {"Hom", g.Hom}, {"Delta", g.Delta}} {
		switch {
		case math.IsNaN(v.v):
			return fmt.Errorf("%s = %v: %w", v.name, v.v, aggregators.ErrNaN)
		case math.IsInf(v.v, 0):
			return fmt.Errorf("%s = %v: %w", v.name, v.v, aggregators.ErrInf)
		}
	}
	return nil
}

func sweepGains(het, hom, delta float64) Gains { return Gains{Het: het, Hom: hom, Delta: delta} }

func sweepNaNGrid(rows, cols int) [][]float64 {
	g := make([][]float64, rows)
	for i := range g {
		g[i] = make([]float64, cols)
		for j := range g[i] {
			g[i][j] = math.NaN()
		}
	}
	return g
}

func sweepFloats(v []float64, name string) series.Series {
	if v == nil {
		v = []float64{}
	}
	return series.New(v, series.Float, name)
}

func sweepInts(v []int, name string) series.Series {
	if v == nil {
		v = []int{}
	}
	return series.New(v, series.Int, name)
}
