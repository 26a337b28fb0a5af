package gain_test

import (
	"errors"
	"math"
	"math/rand"
	"testing"

	"github.com/hetgain/hetgain/aggregators"
	"github.com/hetgain/hetgain/gain"
	"gonum.org/v1/gonum/mat"
)

var temperatures = []float64{math.Inf(-1), -10, -3, -1, -0.3, 0, 0.3, 1, 3, 10, math.Inf(1)}

func sigmaDirect(t float64, n int) float64 { return math.Exp(t) / (math.Exp(t) + float64(n-1)) }

func softmaxReward(t, tau float64) *aggregators.Reward {
	return aggregators.NewReward(aggregators.Softmax{T: tau}, aggregators.Softmax{T: t})
}

func mustBound(tb testing.TB, t, tau float64, n int) gain.Bound {
	tb.Helper()
	b, err := gain.SoftmaxBound(t, tau, n, n)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// TestSoftmaxBoundFormulas checks the three cases against σ computed
// directly, where that does not overflow.
func TestSoftmaxBoundFormulas(t *testing.T) {
	for n := 2; n <= 6; n++ {
		for _, tt := range []float64{-5, -1, 0, 0.5, 2, 30} {
			for _, tau := range []float64{-5, -1, 0, 0.5, 2, 30} {
				b := mustBound(t, tt, tau, n)
				st, su := sigmaDirect(tt, n), sigmaDirect(tau, n)
				hom, delta, cse := 1/float64(n), 0.0, "(i)"
				if tau > 0 {
					hom = su
				}
				switch {
				case tt > 0 && tau <= 0:
					delta, cse = st-1/float64(n), "(ii)"
				case tt > 0:
					delta, cse = math.Max(st-su, 0), "(iii)"
				}
				if !closeTo(b.Hom, hom, 1e-15) || !closeTo(b.HetLower, math.Max(st, su), 1e-15) ||
					!closeTo(b.DeltaLower, delta, 1e-15) || b.Case != cse || b.Exact != (tt <= 0) {
					t.Errorf("t = %v, τ = %v, N = %d: %+v; want Hom %v, HetLower %v, ΔR >= %v, case %s",
						tt, tau, n, b, hom, math.Max(st, su), delta, cse)
				}
				if b.DeltaLower < 0 || !closeTo(b.DeltaLower, math.Max(b.HetLower-b.Hom, 0), 1e-15) {
					t.Errorf("t = %v, τ = %v: DeltaLower %v, HetLower − Hom = %v", tt, tau, b.DeltaLower, b.HetLower-b.Hom)
				}
			}
		}
	}
}

// TestSoftmaxBoundExtremeTemperatures checks that σ neither overflows nor
// loses the limits for |t| up to 1e3 and ±Inf.
func TestSoftmaxBoundExtremeTemperatures(t *testing.T) {
	for _, tt := range []float64{-1e3, -710, 710, 1e3, math.Inf(-1), math.Inf(1)} {
		for _, tau := range []float64{-1e3, 1e3, math.Inf(-1), math.Inf(1)} {
			b := mustBound(t, tt, tau, 4)
			for _, v := range []float64{b.Hom, b.HetLower, b.DeltaLower} {
				if math.IsNaN(v) || v < 0 || v > 1 {
					t.Fatalf("t = %v, τ = %v: %+v", tt, tau, b)
				}
			}
		}
	}
	if b := mustBound(t, 1e3, -1e3, 4); b.HetLower != 1 || b.Hom != 0.25 || b.DeltaLower != 0.75 {
		t.Errorf("t = 1e3, τ = -1e3: %+v", b)
	}
	if b := mustBound(t, 1e3, 1e3, 4); b.Hom != 1 || b.DeltaLower != 0 {
		t.Errorf("t = τ = 1e3: %+v", b)
	}
}

// TestSoftmaxBoundMatchesClosedForm checks the limits t, τ = ±Inf and
// τ = 0 against the min/mean/max closed forms, which they equal.
func TestSoftmaxBoundMatchesClosedForm(t *testing.T) {
	inf := math.Inf(1)
	for n := 2; n <= 6; n++ {
		for _, tt := range []float64{-inf, 0, inf} {
			for _, tau := range []float64{-inf, 0, inf} {
				g, err := gain.ClosedForm(aggregators.Softmax{T: tau}, aggregators.Softmax{T: tt}, n, n, gain.Continuous)
				if err != nil {
					t.Fatal(err)
				}
				b := mustBound(t, tt, tau, n)
				if !closeTo(b.DeltaLower, g.Delta, exact) || !closeTo(b.Hom, g.Hom, exact) || b.HetLower > g.Het+exact {
					t.Errorf("t = %v, τ = %v, N = %d: bound %+v, closed form %+v", tt, tau, n, b, g)
				}
			}
		}
	}
}

// TestSoftmaxBoundAllocations checks (L): the spread allocation (agent i on
// task i) has R = σ(t, N) and the trivial one R = σ(τ, N).
func TestSoftmaxBoundAllocations(t *testing.T) {
	for n := 2; n <= 5; n++ {
		spread := mat.NewDense(n, n, nil)
		trivial := mat.NewDense(n, n, nil)
		for i := 0; i < n; i++ {
			spread.Set(i, i, 1)
			trivial.Set(i, 0, 1)
		}
		for _, tt := range temperatures {
			for _, tau := range temperatures {
				r := softmaxReward(tt, tau)
				b := mustBound(t, tt, tau, n)
				best := math.Max(reward(t, r, spread), reward(t, r, trivial))
				if !closeTo(best, b.HetLower, exact) {
					t.Errorf("t = %v, τ = %v, N = %d: spread/trivial give %v, HetLower %v", tt, tau, n, best, b.HetLower)
				}
			}
		}
	}
}

// subSimplexGrid returns the rows (x, y) with x + y <= 1 on the grid k/K.
func subSimplexGrid(k int) [][]float64 {
	var rows [][]float64
	for i := 0; i <= k; i++ {
		for j := 0; i+j <= k; j++ {
			rows = append(rows, []float64{float64(i) / float64(k), float64(j) / float64(k)})
		}
	}
	return rows
}

// TestSoftmaxBoundTwoByTwo checks the theorem for N = M = 2 by grid search:
// R_hom (a homogeneous team's scores are its row, so R_hom is the maximum
// of U over the closed simplex) equals (H) on a fine grid, no allocation on
// a coarse grid beats it when t <= 0, and the grid's gain is at least the
// bound when t > 0.
func TestSoftmaxBoundTwoByTwo(t *testing.T) {
	fine, coarse := subSimplexGrid(400), subSimplexGrid(10)
	for _, tau := range temperatures {
		u := aggregators.Softmax{T: tau}
		hom := math.Inf(-1)
		for _, c := range fine {
			hom = math.Max(hom, u.Value(c))
		}
		for _, tt := range temperatures {
			b := mustBound(t, tt, tau, 2)
			if !closeTo(hom, b.Hom, exact) {
				t.Errorf("τ = %v: fine-grid R_hom = %v, (H) = %v", tau, hom, b.Hom)
			}
			het, _ := bestOverRows(t, softmaxReward(tt, tau), 2, coarse)
			switch {
			case b.Exact && het > b.Hom+exact:
				t.Errorf("t = %v, τ = %v: grid R_het = %v > R_hom = %v, but ΔR = 0", tt, tau, het, b.Hom)
			case het-hom < b.DeltaLower-exact:
				t.Errorf("t = %v, τ = %v: grid ΔR = %v < bound %v", tt, tau, het-hom, b.DeltaLower)
			}
		}
	}
}

// TestSoftmaxBoundBeyondProof probes the theorem for N = M = 3, 4 at
// temperatures where softmax is not Schur-concave or Schur-convex on the
// box, so the paper's proof does not apply: random homogeneous rows never
// beat (H), and for t <= 0 random allocations (and, for N = 3, all
// allocations on the grid {k/4}) never beat R_hom.
func TestSoftmaxBoundBeyondProof(t *testing.T) {
	t.Parallel()
	rnd := rand.New(rand.NewSource(3))
	for n := 3; n <= 4; n++ {
		grid := simplexGrid(n, 4)
		row := make([]float64, n)
		a := mat.NewDense(n, n, nil)
		for _, tau := range temperatures {
			u := aggregators.Softmax{T: tau}
			for trial := 0; trial < 20000; trial++ {
				randomRow(rnd, row)
				if b := mustBound(t, 0, tau, n); u.Value(row) > b.Hom+exact {
					t.Fatalf("τ = %v, N = %d: row %v has R = %v > (H) = %v", tau, n, row, u.Value(row), b.Hom)
				}
			}
			for _, tt := range []float64{-10, -3, -1} {
				r := softmaxReward(tt, tau)
				b := mustBound(t, tt, tau, n)
				het := math.Inf(-1)
				if n == 3 {
					het, _ = bestOverRows(t, r, n, grid)
				}
				for trial := 0; trial < 2000; trial++ {
					for i := 0; i < n; i++ {
						randomRow(rnd, row)
						a.SetRow(i, row)
					}
					het = math.Max(het, reward(t, r, a))
				}
				if het > b.Hom+exact {
					t.Errorf("t = %v, τ = %v, N = %d: R_het >= %v > R_hom = %v, but ΔR = 0", tt, tau, n, het, b.Hom)
				}
			}
		}
	}
}

func TestSoftmaxBoundErrors(t *testing.T) {
	nan := math.NaN()
	cases := []struct {
		t, tau float64
		n, m   int
		target error
	}{
		{1, 1, 2, 3, gain.ErrSize},
		{1, 1, 1, 1, gain.ErrSize},
		{1, 1, 0, 0, gain.ErrSize},
		{nan, 1, 2, 2, gain.ErrParam},
		{1, nan, 2, 2, gain.ErrParam},
	}
	for _, c := range cases {
		if _, err := gain.SoftmaxBound(c.t, c.tau, c.n, c.m); !errors.Is(err, c.target) {
			t.Errorf("SoftmaxBound(%v, %v, %d, %d): err = %v, want %v", c.t, c.tau, c.n, c.m, err, c.target)
		}
	}
}
