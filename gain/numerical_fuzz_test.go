package gain_test

import (
	"errors"
	"math"
	"testing"

	"github.com/hetgain/hetgain/aggregators"
	"github.com/hetgain/hetgain/gain"
)

// FuzzNumericalInput checks the input validation of Numerical for
// arbitrary sizes, budgets and options: it never panics; sizes out of
// range give ErrSize, invalid options and budgets ErrParam; valid input
// gives ΔR >= 0 and allocations within the budget. Valid sizes with
// N·M > 12 are mapped to small ones to keep each run short.
func FuzzNumericalInput(f *testing.F) {
	inf, nan := math.Inf(1), math.NaN()
	for _, s := range []struct {
		n, m              int
		bmin, bmax, tol   float64
		restarts, maxIter int
		discrete          bool
	}{
		{2, 2, 0, 0, 0, 0, 0, false},
		{3, 2, 0.1, 1, 1e-8, 2, 10, false},
		{2, 3, -0.5, 1, 0, 1, 5, false},
		{2, 2, 0, 2, 0, 0, 0, true},
		{2, 3, 0, 1, 0, 0, 0, true}, // the paper's budget written out
		{0, 2, 0, 1, 0, 0, 0, false},
		{2, -1, 0, 1, 0, 0, 0, true},
		{1 << 20, 1 << 20, 0, 1, 0, 0, 0, false},
		{math.MaxInt, 2, 0, 1, 0, 0, 0, false},
		{2, 2, nan, 1, 0, 0, 0, false},
		{2, 2, 0, inf, 0, 0, 0, false},
		{2, 2, 0.6, 1, 0, 0, 0, false},
		{2, 2, -1e100, 1e100, 0, 0, 0, false},
		{2, 2, 0, 1, nan, 0, 0, false},
		{2, 2, 0, 1, -1, 0, 0, false},
		{2, 2, 0, 1, 0, -1, 0, false},
		{2, 2, 0, 1, 0, 0, -1, false},
		{2, 2, 5e-324, 1e-300, 0, 0, 0, false},
		{41, 42, -5e99, 1e100, 0, 0, 88, false}, // B_min + S rounds above 1e100
	} {
		f.Add(s.n, s.m, s.bmin, s.bmax, s.tol, s.restarts, s.maxIter, s.discrete)
	}
	r := aggregators.NewReward(aggregators.Softmax{T: -1}, aggregators.Softmax{T: 3})
	f.Fuzz(func(t *testing.T, n, m int, bmin, bmax, tol float64, restarts, maxIter int, discrete bool) {
		if n >= 1 && m >= 1 && n <= gain.MaxNumericalCells && m <= gain.MaxNumericalCells && n*m <= gain.MaxNumericalCells && n*m > 12 {
			n, m = 1+n%4, 1+m%3
		}
		if restarts > 3 {
			restarts %= 4
		}
		if maxIter > 50 {
			maxIter %= 50
		}
		kind := gain.Continuous
		if discrete {
			kind = gain.Discrete
		}
		b := gain.Budget{Min: bmin, Max: bmax}
		opts := &gain.Options{Seed: int64(n + m), Restarts: restarts, Tol: tol, Budget: b, MaxIter: maxIter}
		g, err := gain.Numerical(r, n, m, kind, opts)

		finite := func(v float64) bool {
			return !math.IsNaN(v) && !math.IsInf(v, 0) && math.Abs(v) <= aggregators.MaxInput
		}
		var want error
		switch {
		case n < 1 || m < 1 || n > gain.MaxNumericalCells/m:
			want = gain.ErrSize
		case restarts < 0 || maxIter < 0 || !(tol >= 0) || math.IsInf(tol, 0):
			want = gain.ErrParam
		case b == gain.Budget{}, discrete && b == gain.Budget{Min: 0, Max: 1}: // the paper's budget
		case discrete:
			want = gain.ErrParam
		case !finite(bmin) || !finite(bmax) || math.Abs(bmax-float64(m-1)*bmin) > aggregators.MaxInput:
			want = gain.ErrParam
		default:
			floor := 0.0
			for j := 0; j < m; j++ {
				floor += bmin
			}
			if floor > bmax {
				want = gain.ErrParam
			}
		}
		if want != nil {
			if !errors.Is(err, want) {
				t.Fatalf("N = %d, M = %d, %v, %+v: err = %v, want %v", n, m, kind, *opts, err, want)
			}
			return
		}
		if err != nil {
			t.Fatalf("N = %d, M = %d, %v, %+v: %v", n, m, kind, *opts, err)
		}
		if b == (gain.Budget{}) {
			b = gain.Budget{Min: 0, Max: 1}
		}
		if !(g.Delta >= 0) || g.Delta != g.Het-g.Hom || math.IsNaN(g.Het) {
			t.Fatalf("N = %d, M = %d, %+v: %+v", n, m, *opts, g)
		}
		numCheckBudget(t, g.HetAlloc, b)
		numCheckBudget(t, g.HomRow, b)
	})
}
