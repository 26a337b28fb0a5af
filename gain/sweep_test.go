package gain_test

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/hetgain/hetgain/aggregators"
	"github.com/hetgain/hetgain/gain"
	"gonum.org/v1/gonum/mat"
)

// paramOf returns the parameter of a one-parameter operator.
func paramOf(tb testing.TB, op aggregators.Operator) float64 {
	tb.Helper()
	switch o := op.(type) {
	case aggregators.Parametric:
		return o.Param()
	case aggregators.LevelThreshold:
		return o.L
	}
	tb.Fatalf("%v has no parameter", op)
	return 0
}

// fakeSolve returns gains that encode the cell's parameters and seed:
// Het = 1000 τ + t, Hom = seed mod 997, so a test can check that every
// cell landed where it belongs and got the seed CellSeed promises.
func fakeSolve(tb testing.TB) gain.SolveFunc {
	return func(r *aggregators.Reward, n, m int, kind gain.Allocation, opts *gain.Options) (gain.Gains, error) {
		tau, t := paramOf(tb, r.Outer), paramOf(tb, r.InnerFor(0))
		het := 1000*tau + t
		hom := float64(opts.Seed % 997)
		return gain.Gains{Het: het, Hom: hom, Delta: het - hom, HetAlloc: mat.NewDense(n, m, nil)}, nil
	}
}

func smallSpec(tb testing.TB) gain.SweepSpec {
	return gain.SweepSpec{
		Outer: "softmax", Inner: "powersum",
		OuterParams: []float64{-2, 0, 1.5},
		InnerParams: []float64{0.5, 1, 2, 4},
		N:           2, M: 3,
		Options: gain.Options{Seed: 42},
		Solve:   fakeSolve(tb),
	}
}

func TestSweepOrientationAndSeeds(t *testing.T) {
	spec := smallSpec(t)
	res, err := gain.Sweep(spec)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Complete() || res.Stopped || res.Missing() != 0 || res.Size() != 12 {
		t.Fatalf("complete %v, stopped %v, missing %d, size %d", res.Complete(), res.Stopped, res.Missing(), res.Size())
	}
	if len(res.Gain) != len(spec.OuterParams) || len(res.Gain[0]) != len(spec.InnerParams) {
		t.Fatalf("grid is %dx%d, want %dx%d (rows = U's parameter)", len(res.Gain), len(res.Gain[0]),
			len(spec.OuterParams), len(spec.InnerParams))
	}
	for i, tau := range spec.OuterParams {
		for j, p := range spec.InnerParams {
			if want := 1000*tau + p; res.RHet[i][j] != want {
				t.Errorf("RHet[%d][%d] = %v, want %v", i, j, res.RHet[i][j], want)
			}
			seed := gain.CellSeed(spec.Options.Seed, tau, p)
			if seed < 0 {
				t.Errorf("CellSeed = %d < 0", seed)
			}
			if want := float64(seed % 997); res.RHom[i][j] != want {
				t.Errorf("RHom[%d][%d] = %v, want seed %% 997 = %v", i, j, res.RHom[i][j], want)
			}
			if res.Gain[i][j] != res.RHet[i][j]-res.RHom[i][j] {
				t.Errorf("Gain[%d][%d] = %v, not RHet − RHom", i, j, res.Gain[i][j])
			}
		}
	}
	x, y, z := res.Grid()
	if !reflect.DeepEqual(x, spec.InnerParams) || !reflect.DeepEqual(y, spec.OuterParams) || !reflect.DeepEqual(z, res.Gain) {
		t.Errorf("Grid: x %v, y %v, z %v", x, y, z)
	}
	z[0][0] = -1
	if res.Gain[0][0] == -1 {
		t.Error("Grid's z shares memory with Gain")
	}
	if res.Outer != "softmax" || res.Inner != "powersum" || res.N != 2 || res.M != 3 || res.Kind != gain.Continuous {
		t.Errorf("result header %+v", res)
	}
	if gain.CellSeed(1, 0.5, 2) == gain.CellSeed(1, 2, 0.5) || gain.CellSeed(1, 0.5, 2) == gain.CellSeed(2, 0.5, 2) {
		t.Error("CellSeed ignores the order of the parameters or the base seed")
	}
}

// TestSweepSeedZeroIsOne checks that Options.Seed 0 means 1 in Sweep too,
// as Options documents: both give every cell the same seed. CellSeed mixed
// 0 as it is, so Seed 0 and Seed 1 gave different sweeps.
func TestSweepSeedZeroIsOne(t *testing.T) {
	for _, p := range [][2]float64{{0.5, 2}, {-3, 0}, {0, 0}} {
		if a, b := gain.CellSeed(0, p[0], p[1]), gain.CellSeed(1, p[0], p[1]); a != b {
			t.Errorf("CellSeed(0, %v, %v) = %d, CellSeed(1, ...) = %d", p[0], p[1], a, b)
		}
	}
	var results [2]gain.SweepResult
	for k, seed := range []int64{0, 1} {
		spec := smallSpec(t)
		spec.Options.Seed = seed
		res, err := gain.Sweep(spec)
		if err != nil {
			t.Fatal(err)
		}
		results[k] = res
	}
	if !reflect.DeepEqual(results[0].RHom, results[1].RHom) { // RHom encodes each cell's seed
		t.Errorf("Seed 0 gives the cell seeds %v (mod 997), Seed 1 %v", results[0].RHom, results[1].RHom)
	}
}

func TestSweepDeterministicAcrossWorkers(t *testing.T) {
	var want gain.SweepResult
	for _, workers := range []int{1, 2, 5, 0, 64} {
		spec := smallSpec(t)
		spec.Workers = workers
		var calls int
		var last int
		spec.Progress = func(done, total int) {
			calls++
			if total != 12 || done < last || done > total {
				t.Errorf("workers %d: Progress(%d, %d) after %d", workers, done, total, last)
			}
			last = done
		}
		res, err := gain.Sweep(spec)
		if err != nil {
			t.Fatal(err)
		}
		if calls != 13 || last != 12 {
			t.Errorf("workers %d: %d calls to Progress, last done %d; want 13 and 12", workers, calls, last)
		}
		if workers == 1 {
			want = res
			continue
		}
		if !reflect.DeepEqual(res, want) {
			t.Errorf("workers %d: result differs from workers 1", workers)
		}
	}
}

// TestSweepStopAndResume stops a sweep after k cells, then resumes it from
// the cells OnCell saw, and checks that the result equals an uninterrupted
// sweep.
func TestSweepStopAndResume(t *testing.T) {
	full, err := gain.Sweep(smallSpec(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []int{0, 1, 5, 11} {
		spec := smallSpec(t)
		spec.Workers = 1
		var seen []gain.Cell
		spec.OnCell = func(c gain.Cell) error {
			if c.Outer != spec.OuterParams[c.I] || c.Inner != spec.InnerParams[c.J] {
				t.Errorf("cell %+v: parameters do not match its indices", c)
			}
			seen = append(seen, c)
			return nil
		}
		spec.Stop = func() bool { return len(seen) >= k }
		part, err := gain.Sweep(spec)
		if err != nil {
			t.Fatal(err)
		}
		if !part.Stopped || part.Missing() != 12-k || len(seen) != k || len(part.Cells()) != k {
			t.Fatalf("k = %d: stopped %v, missing %d, %d cells seen", k, part.Stopped, part.Missing(), len(seen))
		}
		for i, row := range part.Done {
			for j, d := range row {
				if !d && !math.IsNaN(part.Gain[i][j]) {
					t.Errorf("k = %d: cell %d,%d not done but Gain = %v", k, i, j, part.Gain[i][j])
				}
			}
		}

		spec = smallSpec(t)
		spec.Workers = 3
		spec.Resume = seen
		var again int
		spec.OnCell = func(c gain.Cell) error {
			again++
			for _, s := range seen {
				if s.I == c.I && s.J == c.J {
					t.Errorf("k = %d: resumed cell %d,%d computed again", k, c.I, c.J)
				}
			}
			return nil
		}
		first := true
		spec.Progress = func(done, total int) {
			if first && done != k {
				t.Errorf("k = %d: first Progress(%d, %d), want done = %d", k, done, total, k)
			}
			first = false
		}
		res, err := gain.Sweep(spec)
		if err != nil {
			t.Fatal(err)
		}
		if again != 12-k {
			t.Errorf("k = %d: %d cells computed on resume, want %d", k, again, 12-k)
		}
		res.Stopped = full.Stopped
		if !reflect.DeepEqual(res, full) {
			t.Errorf("k = %d: resumed sweep differs from an uninterrupted one", k)
		}
	}
}

func TestSweepErrors(t *testing.T) {
	cases := []struct {
		name   string
		edit   func(*gain.SweepSpec)
		target error
		text   string
	}{
		{"no agents", func(s *gain.SweepSpec) { s.N = 0 }, gain.ErrSize, "N = 0"},
		{"unknown family", func(s *gain.SweepSpec) { s.Outer = "softplus" }, gain.ErrOperator, "softplus"},
		{"not parametric", func(s *gain.SweepSpec) { s.Inner = "min" }, gain.ErrOperator, "not a parametric family"},
		{"operator not family", func(s *gain.SweepSpec) { s.Inner = "softmax(2)" }, gain.ErrOperator, "family name alone"},
		{"no params", func(s *gain.SweepSpec) { s.InnerParams = nil }, gain.ErrParam, "no values"},
		{"NaN", func(s *gain.SweepSpec) { s.OuterParams = []float64{math.NaN()} }, gain.ErrParam, "NaN"},
		{"domain", func(s *gain.SweepSpec) { s.InnerParams = []float64{1, -1} }, gain.ErrParam, "powersum parameter -1"},
		{"workers", func(s *gain.SweepSpec) { s.Workers = -1 }, gain.ErrParam, "Workers"},
		{"kind", func(s *gain.SweepSpec) { s.Kind = 7 }, gain.ErrOperator, "kind"},
		{"resume off grid", func(s *gain.SweepSpec) { s.Resume = []gain.Cell{{I: 0, J: 0, Outer: -2, Inner: 0.6}} }, gain.ErrParam, "not on the grid"},
		{"resume out of range", func(s *gain.SweepSpec) { s.Resume = []gain.Cell{{I: 3, J: 0}} }, gain.ErrParam, "not on the grid"},
		{"resume NaN", func(s *gain.SweepSpec) {
			s.Resume = []gain.Cell{{I: 1, J: 2, Outer: 0, Inner: 2, Gains: gain.Gains{Het: math.NaN(), Hom: math.Inf(1), Delta: math.NaN()}}}
		}, gain.ErrParam, "resumed cell (I = 1, J = 2, τ = 0, t = 2) has Het = NaN"},
		{"resume Inf", func(s *gain.SweepSpec) {
			s.Resume = []gain.Cell{{I: 0, J: 0, Outer: -2, Inner: 0.5, Gains: gain.Gains{Het: 1, Hom: math.Inf(-1), Delta: math.Inf(1)}}}
		}, gain.ErrParam, "has Hom = -Inf: value is infinite"},
	}
	for _, c := range cases {
		spec := smallSpec(t)
		var called int32
		solve := spec.Solve
		spec.Solve = func(r *aggregators.Reward, n, m int, k gain.Allocation, o *gain.Options) (gain.Gains, error) {
			atomic.AddInt32(&called, 1)
			return solve(r, n, m, k, o)
		}
		c.edit(&spec)
		_, err := gain.Sweep(spec)
		if !errors.Is(err, c.target) || err == nil || !strings.Contains(err.Error(), c.text) {
			t.Errorf("%s: error %v, want %v containing %q", c.name, err, c.target, c.text)
		}
		if called != 0 {
			t.Errorf("%s: %d cells computed before the error", c.name, called)
		}
	}
	if f, err := gain.SweepFamily(" SoftMax(τ)"); f != "softmax" || err != nil {
		t.Errorf("SweepFamily(\" SoftMax(τ)\") = %q, %v", f, err)
	}
	if _, err := gain.SweepFamily("min"); !errors.Is(err, gain.ErrOperator) || !strings.HasPrefix(err.Error(), `gain: "min" is not a parametric family`) {
		t.Errorf("SweepFamily(\"min\"): error %v, want ErrOperator with the package's prefix", err)
	}
	// A parameter outside its family's domain wraps aggregators' sentinel
	// too, as Numerical's errors do, and names the value of the grid.
	spec := smallSpec(t)
	spec.InnerParams = []float64{1, -1}
	if _, err := gain.Sweep(spec); !errors.Is(err, aggregators.ErrParam) || !strings.Contains(err.Error(), "gain: sweep: T: value 1 of the grid, -1: ") {
		t.Errorf("powersum(-1): error %v, want one wrapping aggregators.ErrParam, naming the value of the grid", err)
	}
	if got := strings.Join(gain.ParametricFamilies(), ","); got != "softmax,lse,powersum,meanpower,powermean,level" {
		t.Errorf("ParametricFamilies = %s", got)
	}
}

// TestSweepCellErrors checks that an error of Solve or OnCell, or a panic
// in Solve, stops the sweep and is returned with the finished cells.
func TestSweepCellErrors(t *testing.T) {
	boom := errors.New("boom")
	spec := smallSpec(t)
	spec.Workers = 1
	solve := spec.Solve
	spec.Solve = func(r *aggregators.Reward, n, m int, k gain.Allocation, o *gain.Options) (gain.Gains, error) {
		if paramOf(t, r.Outer) == 0 {
			return gain.Gains{}, boom
		}
		return solve(r, n, m, k, o)
	}
	res, err := gain.Sweep(spec)
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), "U = softmax(0), T = powersum(0.5)") {
		t.Errorf("Solve error: got %v", err)
	}
	if got := len(res.Cells()); got != 4 {
		t.Errorf("Solve error: %d cells done, want the 4 of the first row", got)
	}

	spec = smallSpec(t)
	spec.Solve = func(*aggregators.Reward, int, int, gain.Allocation, *gain.Options) (gain.Gains, error) {
		panic("solver bug")
	}
	if _, err := gain.Sweep(spec); !errors.Is(err, gain.ErrOperator) || !strings.Contains(err.Error(), "solver bug") || !strings.Contains(err.Error(), "U = softmax(") {
		t.Errorf("panic in Solve: got %v, want ErrOperator naming the cell and the panic", err)
	}

	spec = smallSpec(t)
	spec.Solve = func(r *aggregators.Reward, n, m int, k gain.Allocation, o *gain.Options) (gain.Gains, error) {
		return gain.Gains{Het: math.NaN(), Hom: 1, Delta: math.NaN()}, nil
	}
	if _, err := gain.Sweep(spec); !errors.Is(err, gain.ErrOperator) || !errors.Is(err, aggregators.ErrNaN) ||
		!strings.Contains(err.Error(), "Solve returned Het = NaN") {
		t.Errorf("Solve returning NaN: got %v", err)
	}

	spec = smallSpec(t)
	spec.Workers = 2
	calls := 0
	spec.OnCell = func(gain.Cell) error {
		calls++
		return boom
	}
	res, err = gain.Sweep(spec)
	if !errors.Is(err, boom) || calls != 1 || res.Complete() {
		t.Errorf("OnCell error: err %v, %d calls, complete %v", err, calls, res.Complete())
	}
}

func TestSweepFrame(t *testing.T) {
	spec := gain.SweepSpec{
		Outer: "softmax", Inner: "softmax",
		OuterParams: []float64{-1, 2}, InnerParams: []float64{-1, 0, 3},
		N: 2, M: 2,
		Solve: func(r *aggregators.Reward, n, m int, kind gain.Allocation, opts *gain.Options) (gain.Gains, error) {
			return gain.Gains{Het: 1, Hom: 0.5, Delta: 0.5}, nil
		},
		Workers: 1,
	}
	spec.Stop = func() bool { return false }
	res, err := gain.Sweep(spec)
	if err != nil {
		t.Fatal(err)
	}
	df := res.Frame()
	want := append(append([]string(nil), gain.SweepColumns...), "Bound")
	if !reflect.DeepEqual(df.Names(), want) {
		t.Fatalf("columns %v, want %v", df.Names(), want)
	}
	if df.Nrow() != 6 {
		t.Fatalf("%d rows", df.Nrow())
	}
	for k := 0; k < df.Nrow(); k++ {
		i, j := k/3, k%3
		tt, tau := df.Elem(k, 0).Float(), df.Elem(k, 1).Float()
		if tt != spec.InnerParams[j] || tau != spec.OuterParams[i] {
			t.Errorf("row %d: t = %v, τ = %v; want grid order", k, tt, tau)
		}
		b, _ := gain.SoftmaxBound(tt, tau, 2, 2)
		if got := df.Elem(k, 7).Float(); got != b.DeltaLower {
			t.Errorf("row %d: Bound %v, want %v", k, got, b.DeltaLower)
		}
	}

	// No bound for other families, for discrete allocations or N != M.
	for _, edit := range []func(*gain.SweepSpec){
		func(s *gain.SweepSpec) { s.Inner, s.InnerParams = "powersum", []float64{1, 2} },
		func(s *gain.SweepSpec) { s.Kind = gain.Discrete },
		func(s *gain.SweepSpec) { s.M = 3 },
	} {
		s := spec
		edit(&s)
		res, err := gain.Sweep(s)
		if err != nil {
			t.Fatal(err)
		}
		if res.Bound != nil || !reflect.DeepEqual(res.Frame().Names(), gain.SweepColumns) {
			t.Errorf("%s∘%s N=%d M=%d %v: columns %v", s.Outer, s.Inner, s.N, s.M, s.Kind, res.Frame().Names())
		}
	}

	// A stopped sweep's frame holds only the finished cells.
	spec.Stop = func() bool { return true }
	res, err = gain.Sweep(spec)
	if err != nil {
		t.Fatal(err)
	}
	if df := res.Frame(); df.Err != nil || df.Nrow() != 0 || len(df.Names()) != 8 {
		t.Errorf("empty frame: %v, %d rows, columns %v", df.Err, df.Nrow(), df.Names())
	}
}

// TestSweepSoftmaxTheorem sweeps the paper's Figure 2 setting on a small
// grid with the numerical optimiser and checks Theorem 3.4: ΔR = 0 for
// t <= 0 and ΔR >= the bound otherwise.
func TestSweepSoftmaxTheorem(t *testing.T) {
	params := []float64{-4, -1, 0, 1, 4}
	res, err := gain.Sweep(gain.SweepSpec{
		Outer: "softmax", Inner: "softmax", OuterParams: params, InnerParams: params,
		N: 2, M: 2, Options: gain.Options{Seed: 1},
	})
	if err != nil {
		t.Fatal(err)
	}
	for i, tau := range params {
		for j, tt := range params {
			g, b := res.Gain[i][j], res.Bound[i][j]
			if g < -1e-9 || g < b-1e-6 {
				t.Errorf("t = %v, τ = %v: ΔR = %v below the bound %v", tt, tau, g, b)
			}
			if tt <= 0 && math.Abs(g) > 1e-6 {
				t.Errorf("t = %v, τ = %v: ΔR = %v, want 0 (Theorem 3.4 (i))", tt, tau, g)
			}
		}
	}
}

func TestNumericalTable(t *testing.T) {
	df, err := gain.NumericalTable([]int{2}, []int{2}, nil, nil, &gain.Options{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(df.Names(), gain.NumericalTableColumns) {
		t.Fatalf("columns %v", df.Names())
	}
	if df.Nrow() != 18 {
		t.Fatalf("%d rows, want 18", df.Nrow())
	}
	kinds := map[string]gain.Allocation{"continuous": gain.Continuous, "discrete": gain.Discrete}
	for k := 0; k < df.Nrow(); k++ {
		u, op := aggregators.MustParse(df.Elem(k, 0).String()), aggregators.MustParse(df.Elem(k, 1).String())
		kind := kinds[df.Elem(k, 4).String()]
		want, err := gain.ClosedForm(u, op, 2, 2, kind)
		if err != nil {
			t.Fatal(err)
		}
		cf, num, diff := df.Elem(k, 5).Float(), df.Elem(k, 6).Float(), df.Elem(k, 7).Float()
		if cf != want.Delta || diff != num-cf || math.Abs(diff) > 1e-6 {
			t.Errorf("row %d (%v∘%v %v): closed form %v (want %v), numerical %v, difference %v", k, u, op, kind, cf, want.Delta, num, diff)
		}
		if het, hom := df.Elem(k, 8).Float(), df.Elem(k, 9).Float(); het-hom != num {
			t.Errorf("row %d: RHet − RHom = %v, Numerical %v", k, het-hom, num)
		}
		if a := df.Elem(k, 10).String(); !strings.HasPrefix(a, "[[") || strings.Count(a, "[") != 3 {
			t.Errorf("row %d: HetAlloc %q is not a 2×2 matrix", k, a)
		}
		if a := df.Elem(k, 11).String(); strings.Count(a, "[") != 2 {
			t.Errorf("row %d: HomRow %q is not a 1×2 matrix", k, a)
		}
	}

	pairs := [][2]aggregators.Operator{{aggregators.MustParse("powersum(0.5)"), aggregators.MustParse("powersum(2)")}}
	df, err = gain.NumericalTable([]int{2}, []int{2}, pairs, []gain.Allocation{gain.Continuous}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if df.Nrow() != 1 || df.Elem(0, 0).String() != "powersum(0.5)" || !math.IsNaN(df.Elem(0, 5).Float()) ||
		!math.IsNaN(df.Elem(0, 7).Float()) || !(df.Elem(0, 6).Float() > 0) {
		t.Errorf("powersum(0.5)∘powersum(2): %v", df)
	}

	// Another budget has no closed form beside it: min∘max with rows
	// summing to at most 2 has ΔR = 2 · 2/3, the unit budget's 2/3.
	minMax := [][2]aggregators.Operator{{aggregators.Min{}, aggregators.Max{}}}
	df, err = gain.NumericalTable([]int{3}, []int{3}, minMax, []gain.Allocation{gain.Continuous},
		&gain.Options{Budget: gain.Budget{Max: 2}, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if cf, num, diff := df.Elem(0, 5).Float(), df.Elem(0, 6).Float(), df.Elem(0, 7).Float(); !math.IsNaN(cf) || !math.IsNaN(diff) ||
		math.Abs(num-4.0/3) > 1e-6 {
		t.Errorf("min∘max, N = M = 3, budget 2: closed form %v, numerical %v, difference %v; want NaN, 4/3, NaN", cf, num, diff)
	}

	for _, c := range []struct {
		ns, ms []int
		pairs  [][2]aggregators.Operator
		kinds  []gain.Allocation
		target error
	}{
		{nil, []int{2}, nil, nil, gain.ErrSize},
		{[]int{2, 0}, []int{2}, nil, nil, gain.ErrSize},
		{[]int{2}, []int{2}, [][2]aggregators.Operator{{aggregators.Min{}, nil}}, nil, gain.ErrOperator},
		{[]int{2}, []int{2}, nil, []gain.Allocation{9}, gain.ErrOperator},
	} {
		if _, err := gain.NumericalTable(c.ns, c.ms, c.pairs, c.kinds, nil); !errors.Is(err, c.target) {
			t.Errorf("NumericalTable(%v, %v, %v, %v): error %v, want %v", c.ns, c.ms, c.pairs, c.kinds, err, c.target)
		}
	}
}

// parseAllocation reads back a matrix written by FormatAllocationExact.
func parseAllocation(tb testing.TB, s string) *mat.Dense {
	tb.Helper()
	rows := strings.Split(strings.TrimSuffix(strings.TrimPrefix(s, "[["), "]]"), "][")
	var x []float64
	for _, row := range rows {
		for _, f := range strings.Fields(row) {
			v, err := strconv.ParseFloat(f, 64)
			if err != nil {
				tb.Fatalf("allocation %q: %v", s, err)
			}
			x = append(x, v)
		}
	}
	if len(x)%len(rows) != 0 {
		tb.Fatalf("allocation %q is not a matrix", s)
	}
	return mat.NewDense(len(rows), len(x)/len(rows), x)
}

// TestNumericalTableFullPrecision checks that NumericalTable's HetAlloc
// and HomRow columns hold Numerical's allocations exactly, as its float
// columns do: they were written with 4 significant digits, so the CSV of
// hetgain gains had [[0.3333 0.3333 0.3333]] for 1/3.
func TestNumericalTableFullPrecision(t *testing.T) {
	pairs := [][2]aggregators.Operator{{aggregators.Min{}, aggregators.Max{}}, {aggregators.Softmax{T: -1}, aggregators.Softmax{T: 3}}}
	opts := &gain.Options{Seed: 5}
	df, err := gain.NumericalTable([]int{2, 3}, []int{3}, pairs, []gain.Allocation{gain.Continuous}, opts)
	if err != nil {
		t.Fatal(err)
	}
	long := false
	for k := 0; k < df.Nrow(); k++ {
		u, op := aggregators.MustParse(df.Elem(k, 0).String()), aggregators.MustParse(df.Elem(k, 1).String())
		n, _ := df.Elem(k, 2).Int()
		g := numMust(t, aggregators.NewReward(u, op), n, 3, gain.Continuous, opts)
		for col, a := range map[int]*mat.Dense{10: g.HetAlloc, 11: g.HomRow} {
			s := df.Elem(k, col).String()
			if got := parseAllocation(t, s); !mat.Equal(got, a) {
				t.Errorf("row %d, %s: %q, Numerical gives\n%v", k, df.Names()[col], s, mat.Formatted(a))
			}
			long = long || len(s) > 40
		}
	}
	if !long {
		t.Error("no allocation with many digits: the test does not test precision")
	}
}

func TestFormatAllocation(t *testing.T) {
	for _, c := range []struct {
		a    mat.Matrix
		want string
	}{
		{mat.NewDense(2, 2, []float64{1, 0, 0, 1}), "[[1 0][0 1]]"},
		{mat.NewDense(1, 3, []float64{1.0 / 3, 0.5, 1e-7}), "[[0.3333 0.5 1e-07]]"},
		{nil, ""},
		{(*mat.Dense)(nil), ""},
	} {
		if got := gain.FormatAllocation(c.a); got != c.want {
			t.Errorf("FormatAllocation(%v) = %q, want %q", c.a, got, c.want)
		}
	}
	for _, c := range []struct {
		a    mat.Matrix
		want string
	}{
		{mat.NewDense(2, 2, []float64{1, 0, 0, 1}), "[[1 0][0 1]]"},
		{mat.NewDense(1, 3, []float64{1.0 / 3, 0.5, 1e-7}), "[[0.3333333333333333 0.5 1e-07]]"},
		{nil, ""},
		{(*mat.Dense)(nil), ""},
	} {
		if got := gain.FormatAllocationExact(c.a); got != c.want {
			t.Errorf("FormatAllocationExact(%v) = %q, want %q", c.a, got, c.want)
		}
	}
	if len(gain.ExtremePairs()) != 9 {
		t.Error("ExtremePairs does not have 9 pairs")
	}
}

// TestCellSeedCanonical checks that parameters that compare equal get the
// same seed (-0 and 0), that NaNs with different payloads do too, and that
// a different parameter does not.
func TestCellSeedCanonical(t *testing.T) {
	negZero := math.Copysign(0, -1)
	otherNaN := math.Float64frombits(0x7ff8000000000123)
	for _, c := range [][4]float64{{0, 1, negZero, 1}, {2, 0, 2, negZero}, {math.NaN(), 1, otherNaN, 1}} {
		if a, b := gain.CellSeed(7, c[0], c[1]), gain.CellSeed(7, c[2], c[3]); a != b {
			t.Errorf("CellSeed(7, %v, %v) = %d, CellSeed(7, %v, %v) = %d", c[0], c[1], a, c[2], c[3], b)
		}
	}
	if gain.CellSeed(7, 0, 1) == gain.CellSeed(7, 1, 0) || gain.CellSeed(7, 0, 1) == gain.CellSeed(7, 0, 2) {
		t.Error("different cells share a seed")
	}
}

// TestSweepResultShape checks that Cells, Frame and Grid of a SweepResult
// whose grids were cut short panic with a message naming the field,
// rather than with an index error.
func TestSweepResultShape(t *testing.T) {
	res, err := gain.Sweep(smallSpec(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		edit    func(r *gain.SweepResult)
		mention string
	}{
		{func(r *gain.SweepResult) { r.Gain = r.Gain[:1] }, "SweepResult.Gain has 1 rows"},
		{func(r *gain.SweepResult) { r.Done[1] = r.Done[1][:1] }, "SweepResult.Done row 1 has 1 cells"},
		{func(r *gain.SweepResult) { r.InnerParams = append(r.InnerParams, 9) }, "SweepResult.RHet row 0"},
		{func(r *gain.SweepResult) { r.Bound = [][]float64{{1}} }, "SweepResult.Bound has 1 rows"},
	} {
		for name, call := range map[string]func(r gain.SweepResult){
			"Cells": func(r gain.SweepResult) { r.Cells() },
			"Frame": func(r gain.SweepResult) { r.Frame() },
			"Grid":  func(r gain.SweepResult) { r.Grid() },
		} {
			r := cloneSweep(res)
			c.edit(&r)
			msg := panicText(func() { call(r) })
			if !strings.HasPrefix(msg, "gain: ") || !strings.Contains(msg, c.mention) {
				t.Errorf("%s of an edited result panicked with %q, want a message naming %q", name, msg, c.mention)
			}
		}
	}
	if n := len(res.Cells()); n != res.Size() {
		t.Errorf("Cells of the unedited result: %d, want %d", n, res.Size())
	}
}

// cloneSweep copies the grids of r, so that edits do not reach r.
func cloneSweep(r gain.SweepResult) gain.SweepResult {
	c := r
	c.InnerParams = append([]float64(nil), r.InnerParams...)
	c.Done = make([][]bool, len(r.Done))
	for i := range r.Done {
		c.Done[i] = append([]bool(nil), r.Done[i]...)
	}
	return c
}

// panicText returns the message f panics with, or "" if it returns.
func panicText(f func()) (msg string) {
	defer func() {
		if p := recover(); p != nil {
			msg = fmt.Sprint(p)
		}
	}()
	f()
	return ""
}
