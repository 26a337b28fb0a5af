package gain_test

import (
	"errors"
	"math"
	"math/rand"
	"strings"
	"testing"

	"github.com/hetgain/hetgain/aggregators"
	"github.com/hetgain/hetgain/gain"
	"gonum.org/v1/gonum/mat"
)

const exact = 1e-12

// TestClosedFormDiscreteBruteForce compares the discrete closed forms with
// an enumeration of all M^N one-task-per-agent allocations (up to agent
// permutations), for N, M <= 5.
func TestClosedFormDiscreteBruteForce(t *testing.T) {
	for n := 1; n <= 5; n++ {
		for m := 1; m <= 5; m++ {
			rows := oneHotRows(m)
			for _, u := range extremes {
				for _, op := range extremes {
					r := aggregators.NewReward(u, op)
					het, hom := bestOverRows(t, r, n, rows)
					g, err := gain.ClosedForm(u, op, n, m, gain.Discrete)
					if err != nil {
						t.Fatal(err)
					}
					if !closeTo(g.Het, het, exact) || !closeTo(g.Hom, hom, exact) {
						t.Errorf("%v, N = %d, M = %d, discrete: closed form (%v, %v), brute force (%v, %v)",
							r, n, m, g.Het, g.Hom, het, hom)
					}
				}
			}
		}
	}
}

// TestClosedFormContinuousGrid compares the continuous closed forms with the
// best allocation whose rows lie on the grid {k/K} of the simplex. The
// optima lie on these grids (they are multiples of 1/M and 1/ceil(M/N)), so
// the grid optimum must equal the closed form.
func TestClosedFormContinuousGrid(t *testing.T) {
	t.Parallel()
	cases := []struct{ n, m, k int }{
		{1, 1, 6}, {1, 2, 6}, {1, 3, 6}, {2, 1, 6}, {2, 2, 6}, {2, 3, 6},
		{3, 1, 6}, {3, 2, 6}, {3, 3, 6}, {2, 4, 12}, {4, 2, 12}, {4, 3, 6}, {3, 4, 4},
	}
	if testing.Short() {
		cases = cases[:9]
	}
	for _, c := range cases {
		rows := simplexGrid(c.m, c.k)
		for _, u := range extremes {
			for _, op := range extremes {
				r := aggregators.NewReward(u, op)
				het, hom := bestOverRows(t, r, c.n, rows)
				g, err := gain.ClosedForm(u, op, c.n, c.m, gain.Continuous)
				if err != nil {
					t.Fatal(err)
				}
				if !closeTo(g.Het, het, exact) || !closeTo(g.Hom, hom, exact) {
					t.Errorf("%v, N = %d, M = %d, grid 1/%d: closed form (%v, %v), grid (%v, %v)",
						r, c.n, c.m, c.k, g.Het, g.Hom, het, hom)
				}
			}
		}
	}
}

// TestClosedFormHomogeneousFineGrid checks R_hom against the best row of a
// fine simplex grid.
func TestClosedFormHomogeneousFineGrid(t *testing.T) {
	t.Parallel()
	for m := 1; m <= 4; m++ {
		k := 60
		if m == 4 {
			k = 12
		}
		rows := simplexGrid(m, k)
		for _, n := range []int{1, 2, 3, 5} {
			for _, u := range extremes {
				for _, op := range extremes {
					r := aggregators.NewReward(u, op)
					g, err := gain.ClosedForm(u, op, n, m, gain.Continuous)
					if err != nil {
						t.Fatal(err)
					}
					if hom := homBest(t, r, n, rows); !closeTo(g.Hom, hom, exact) {
						t.Errorf("%v, N = %d, M = %d: R_hom = %v, fine grid %v", r, n, m, g.Hom, hom)
					}
				}
			}
		}
	}
}

// TestClosedFormRandomAllocations checks that no random allocation beats
// the closed forms, off the grids of TestClosedFormContinuousGrid too.
func TestClosedFormRandomAllocations(t *testing.T) {
	t.Parallel()
	rnd := rand.New(rand.NewSource(1))
	for n := 1; n <= 6; n++ {
		for m := 1; m <= 6; m++ {
			a := mat.NewDense(n, m, nil)
			row := make([]float64, m)
			for trial := 0; trial < 300; trial++ {
				for i := 0; i < n; i++ {
					randomRow(rnd, row)
					a.SetRow(i, row)
				}
				randomRow(rnd, row)
				hom := replicateRow(row, n)
				for _, u := range extremes {
					for _, op := range extremes {
						r := aggregators.NewReward(u, op)
						g, err := gain.ClosedForm(u, op, n, m, gain.Continuous)
						if err != nil {
							t.Fatal(err)
						}
						if v := reward(t, r, a); v > g.Het+exact {
							t.Fatalf("%v, N = %d, M = %d: allocation %v has R = %v > R_het = %v",
								r, n, m, mat.Formatted(a), v, g.Het)
						}
						if v := reward(t, r, hom); v > g.Hom+exact {
							t.Fatalf("%v, N = %d, M = %d: row %v has R = %v > R_hom = %v", r, n, m, row, v, g.Hom)
						}
					}
				}
			}
		}
	}
}

// randomRow fills row with a random point of the simplex, often sparse and
// sometimes with sum below 1.
func randomRow(rnd *rand.Rand, row []float64) {
	s := 0.0
	for j := range row {
		row[j] = -math.Log(1 - rnd.Float64())
		if rnd.Intn(3) == 0 {
			row[j] = 0
		}
		s += row[j]
	}
	if s == 0 {
		row[rnd.Intn(len(row))], s = 1, 1
	}
	scale := 1.0
	if rnd.Intn(5) == 0 {
		scale = rnd.Float64()
	}
	for j := range row {
		row[j] *= scale / s
	}
}

// TestClosedFormAllocations checks that HetAlloc and HomRow are admissible
// allocations of the right kind that attain Het and Hom.
func TestClosedFormAllocations(t *testing.T) {
	for _, kind := range []gain.Allocation{gain.Continuous, gain.Discrete} {
		for n := 1; n <= 9; n++ {
			for m := 1; m <= 9; m++ {
				for _, u := range extremes {
					for _, op := range extremes {
						g, err := gain.ClosedForm(u, op, n, m, kind)
						if err != nil {
							t.Fatal(err)
						}
						checkAllocations(t, aggregators.NewReward(u, op), g, n, m, kind)
					}
				}
			}
		}
	}
}

func checkAllocations(t *testing.T, r *aggregators.Reward, g gain.Gains, n, m int, kind gain.Allocation) {
	t.Helper()
	if g.HetAlloc == nil || g.HomRow == nil {
		t.Fatalf("%v, N = %d, M = %d, %v: missing allocation", r, n, m, kind)
	}
	if rows, cols := g.HetAlloc.Dims(); rows != n || cols != m {
		t.Fatalf("%v: HetAlloc is %dx%d, want %dx%d", r, rows, cols, n, m)
	}
	if rows, cols := g.HomRow.Dims(); rows != 1 || cols != m {
		t.Fatalf("%v: HomRow is %dx%d, want 1x%d", r, rows, cols, m)
	}
	for _, a := range []*mat.Dense{g.HetAlloc, g.HomRow} {
		checkRows(t, a, kind)
	}
	if v := reward(t, r, g.HetAlloc); !closeTo(v, g.Het, exact) {
		t.Errorf("%v, N = %d, M = %d, %v: R(HetAlloc) = %v, Het = %v", r, n, m, kind, v, g.Het)
	}
	if v := reward(t, r, g.HomAlloc()); !closeTo(v, g.Hom, exact) {
		t.Errorf("%v, N = %d, M = %d, %v: R(HomAlloc) = %v, Hom = %v", r, n, m, kind, v, g.Hom)
	}
	if g.Delta != g.Het-g.Hom {
		t.Errorf("%v: Delta = %v, Het − Hom = %v", r, g.Delta, g.Het-g.Hom)
	}
}

// checkRows checks that every row of a is admissible: non-negative with sum
// 1, and one-hot for discrete allocations.
func checkRows(t *testing.T, a *mat.Dense, kind gain.Allocation) {
	t.Helper()
	rows, cols := a.Dims()
	for i := 0; i < rows; i++ {
		sum, ones := 0.0, 0
		for j := 0; j < cols; j++ {
			v := a.At(i, j)
			if v < 0 || kind == gain.Discrete && v != 0 && v != 1 {
				t.Fatalf("row %d of %v: entry %v not allowed for %v allocations", i, mat.Formatted(a), v, kind)
			}
			sum += v
			if v == 1 {
				ones++
			}
		}
		if !closeTo(sum, 1, 1e-12) || kind == gain.Discrete && ones != 1 {
			t.Fatalf("row %d of %v sums to %v", i, mat.Formatted(a), sum)
		}
	}
}

// TestClosedFormEquivalentOperators checks that members of the parametric
// families equal to min, mean or max give the same closed forms.
func TestClosedFormEquivalentOperators(t *testing.T) {
	inf := math.Inf(1)
	same := map[string][]aggregators.Operator{
		"min":  {aggregators.Softmax{T: -inf}, aggregators.PowerMean{T: -inf}, aggregators.LogSumExp{T: -inf}},
		"mean": {aggregators.Softmax{T: 0}, aggregators.PowerMean{T: 1}},
		"max":  {aggregators.Softmax{T: inf}, aggregators.PowerMean{T: inf}, aggregators.LogSumExp{T: inf}},
	}
	for _, kind := range []gain.Allocation{gain.Continuous, gain.Discrete} {
		for _, u := range extremes {
			for _, op := range extremes {
				want, err := gain.ClosedForm(u, op, 3, 4, kind)
				if err != nil {
					t.Fatal(err)
				}
				for _, u2 := range same[u.String()] {
					for _, op2 := range same[op.String()] {
						got, err := gain.ClosedForm(u2, op2, 3, 4, kind)
						if err != nil {
							t.Fatalf("%v∘%v: %v", u2, op2, err)
						}
						if got.Het != want.Het || got.Hom != want.Hom {
							t.Errorf("%v∘%v: (%v, %v), want (%v, %v) as for %v∘%v", u2, op2, got.Het, got.Hom, want.Het, want.Hom, u, op)
						}
					}
				}
			}
		}
	}
}

func TestClosedFormErrors(t *testing.T) {
	cases := []struct {
		u, t    aggregators.Operator
		n, m    int
		kind    gain.Allocation
		target  error
		mention string
	}{
		{aggregators.Min{}, aggregators.Max{}, 0, 3, gain.Continuous, gain.ErrSize, "N = 0"},
		{aggregators.Min{}, aggregators.Max{}, 3, -1, gain.Discrete, gain.ErrSize, "M = -1"},
		{aggregators.Min{}, aggregators.Max{}, -2, 0, gain.Discrete, gain.ErrSize, "N = -2 agents and M = 0"},
		{aggregators.Sum{}, aggregators.Max{}, 3, 3, gain.Continuous, gain.ErrOperator, "sum"},
		{aggregators.Min{}, aggregators.Softmax{T: 2}, 3, 3, gain.Continuous, gain.ErrOperator, "softmax(2)"},
		{aggregators.Min{}, nil, 3, 3, gain.Continuous, gain.ErrOperator, "<nil>"},
		{aggregators.Min{}, aggregators.Max{}, 3, 3, gain.Allocation(7), gain.ErrOperator, "Allocation(7)"},
	}
	for _, c := range cases {
		_, err := gain.ClosedForm(c.u, c.t, c.n, c.m, c.kind)
		if !errors.Is(err, c.target) || !strings.Contains(err.Error(), c.mention) {
			t.Errorf("ClosedForm(%v, %v, %d, %d, %v) = %v, want %v mentioning %q", c.u, c.t, c.n, c.m, c.kind, err, c.target, c.mention)
		}
	}
}

// TestClosedFormLarge checks that huge N and M give values without
// building allocations.
func TestClosedFormLarge(t *testing.T) {
	const big = math.MaxInt
	g, err := gain.ClosedForm(aggregators.Min{}, aggregators.Max{}, big/3, big, gain.Continuous)
	if err != nil {
		t.Fatal(err)
	}
	if want := 1/4.0 - 1/float64(big); g.Delta != want || g.HetAlloc != nil || g.HomRow != nil {
		t.Errorf("N = MaxInt/3, M = MaxInt: ΔR = %v (want %v), allocations %v %v", g.Delta, want, g.HetAlloc != nil, g.HomRow != nil)
	}
	g, err = gain.ClosedForm(aggregators.Mean{}, aggregators.Max{}, 1<<30, 5, gain.Discrete)
	if err != nil {
		t.Fatal(err)
	}
	if g.Delta != 0.8 || g.HetAlloc != nil || g.HomRow == nil || g.HomAlloc() != nil {
		t.Errorf("N = 2^30, M = 5: ΔR = %v, allocations %v %v", g.Delta, g.HetAlloc != nil, g.HomRow != nil)
	}
}

// TestHomAllocShape checks HomAlloc against the allocation it replicates
// and that a HomRow of the wrong width panics with a "gain: " message
// instead of building a matrix of another shape.
func TestHomAllocShape(t *testing.T) {
	g := gain.Gains{HetAlloc: mat.NewDense(3, 2, nil), HomRow: mat.NewDense(1, 2, []float64{0.25, 0.75})}
	if a := g.HomAlloc(); !mat.Equal(a, mat.NewDense(3, 2, []float64{0.25, 0.75, 0.25, 0.75, 0.25, 0.75})) {
		t.Errorf("HomAlloc = %v", mat.Formatted(a))
	}
	for _, row := range []*mat.Dense{mat.NewDense(1, 3, nil), mat.NewDense(2, 2, nil)} {
		g.HomRow = row
		if msg := panicText(func() { g.HomAlloc() }); !strings.HasPrefix(msg, "gain: Gains.HomRow is") {
			t.Errorf("HomAlloc with a %d×%d HomRow: panic %q", row.RawMatrix().Rows, row.RawMatrix().Cols, msg)
		}
	}
}
