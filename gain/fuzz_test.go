package gain_test

import (
	"errors"
	"math"
	"testing"

	"github.com/hetgain/hetgain/aggregators"
	"github.com/hetgain/hetgain/gain"
)

// FuzzClosedForm checks, for arbitrary N and M, that ClosedForm reports
// sizes below 1 as ErrSize and otherwise returns optima in [0, 1] with
// Het >= Hom, never panicking.
func FuzzClosedForm(f *testing.F) {
	for _, seed := range []struct {
		n, m int
		u, t uint8
		kind bool
	}{
		{1, 1, 0, 0, false}, {4, 4, 0, 2, true}, {2, 7, 1, 2, false}, {0, 3, 0, 0, false},
		{3, -1, 2, 2, true}, {math.MaxInt, math.MaxInt, 0, 2, false}, {math.MinInt, 1, 1, 1, true},
		{math.MaxInt, 2, 0, 1, true}, {1 << 40, 1 << 41, 0, 2, false},
	} {
		f.Add(seed.n, seed.m, seed.u, seed.t, seed.kind)
	}
	f.Fuzz(func(t *testing.T, n, m int, ui, ti uint8, discrete bool) {
		u, op := extremes[int(ui)%3], extremes[int(ti)%3]
		kind := gain.Continuous
		if discrete {
			kind = gain.Discrete
		}
		g, err := gain.ClosedForm(u, op, n, m, kind)
		if n < 1 || m < 1 {
			if !errors.Is(err, gain.ErrSize) {
				t.Fatalf("N = %d, M = %d: err = %v, want ErrSize", n, m, err)
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		if !(g.Hom >= 0 && g.Het <= 1 && g.Het >= g.Hom && g.Delta == g.Het-g.Hom) {
			t.Fatalf("%v∘%v, N = %d, M = %d, %v: %+v", u, op, n, m, kind, g)
		}
		if p, err := gain.Predict(u, op, n, m); err != nil || p.Sign == gain.Zero && kind == gain.Continuous && g.Delta != 0 {
			t.Fatalf("%v∘%v, N = %d, M = %d: prediction %+v (%v), ΔR = %v", u, op, n, m, p, err, g.Delta)
		}
	})
}

// FuzzSoftmaxBound checks Theorem 3.4's statement for any temperatures
// and size: NaN temperatures are ErrParam and N != M or N < 2 ErrSize;
// otherwise every value is in [0, 1], DeltaLower is 0 exactly when the
// theorem says so (t <= 0, Exact) and, for t > 0, the gap HetLower − Hom
// between the two allocations the bound is built from; and raising t by
// dt, or lowering τ by dt, never lowers DeltaLower.
func FuzzSoftmaxBound(f *testing.F) {
	for _, s := range []struct {
		t, tau, dt float64
		n, m       int
	}{
		{1, -1, 0.5, 2, 2}, {5, 2, 1, 4, 4}, {-3, 3, 10, 3, 3}, {0, 0, 1e-300, 2, 2},
		{math.Inf(1), math.Inf(-1), 0, 8, 8}, {math.NaN(), 0, 0, 2, 2}, {0, math.NaN(), 0, 2, 2},
		{1, 1, 1, 2, 3}, {1, 1, 1, 1, 1}, {1e308, -1e308, 1e308, math.MaxInt, math.MaxInt},
		{710, 709, 1, 2, 2}, {-745, -746, 2, 1 << 40, 1 << 40},
	} {
		f.Add(s.t, s.tau, s.dt, s.n, s.m)
	}
	f.Fuzz(func(t *testing.T, temp, tau, dt float64, n, m int) {
		b, err := gain.SoftmaxBound(temp, tau, n, m)
		switch {
		case n != m || n < 2:
			if !errors.Is(err, gain.ErrSize) {
				t.Fatalf("N = %d, M = %d: err = %v, want ErrSize", n, m, err)
			}
			return
		case math.IsNaN(temp) || math.IsNaN(tau):
			if !errors.Is(err, gain.ErrParam) {
				t.Fatalf("t = %v, τ = %v: err = %v, want ErrParam", temp, tau, err)
			}
			return
		case err != nil:
			t.Fatal(err)
		}
		for name, v := range map[string]float64{"Hom": b.Hom, "HetLower": b.HetLower, "DeltaLower": b.DeltaLower} {
			if !(v >= 0 && v <= 1) {
				t.Fatalf("t = %v, τ = %v, N = %d: %s = %v, want a value in [0, 1]", temp, tau, n, name, v)
			}
		}
		if (temp <= 0) != b.Exact || (b.Exact && b.DeltaLower != 0) {
			t.Fatalf("t = %v: Exact = %v with DeltaLower %v, want Exact and 0 iff t <= 0", temp, b.Exact, b.DeltaLower)
		}
		if gap := math.Max(b.HetLower-b.Hom, 0); temp > 0 && math.Abs(b.DeltaLower-gap) > 1e-15 {
			t.Fatalf("t = %v, τ = %v, N = %d: DeltaLower %v, HetLower − Hom %v", temp, tau, n, b.DeltaLower, gap)
		}
		if math.IsNaN(dt) {
			return
		}
		dt = math.Abs(dt)
		hotter, _ := gain.SoftmaxBound(temp+dt, tau, n, m)
		colder, _ := gain.SoftmaxBound(temp, tau-dt, n, m)
		if hotter.DeltaLower < b.DeltaLower || colder.DeltaLower < b.DeltaLower {
			t.Fatalf("t = %v, τ = %v, N = %d, dt = %v: DeltaLower %v, %v at t + dt, %v at τ − dt: want neither lower",
				temp, tau, n, dt, b.DeltaLower, hotter.DeltaLower, colder.DeltaLower)
		}
	})
}

// fuzzOperator returns operator number k (mod 8) of Min, Mean, Max, Sum,
// PowerSum, PowerMean, Softmax and LogSumExp, the parametric ones with
// parameter p as a struct literal, valid or not, as a caller may build it.
func fuzzOperator(k uint8, p float64) aggregators.Operator {
	switch k % 8 {
	case 0:
		return aggregators.Min{}
	case 1:
		return aggregators.Mean{}
	case 2:
		return aggregators.Max{}
	case 3:
		return aggregators.Sum{}
	case 4:
		return aggregators.PowerSum{T: p}
	case 5:
		return aggregators.PowerMean{T: p}
	case 6:
		return aggregators.Softmax{T: p}
	default:
		return aggregators.LogSumExp{T: p}
	}
}

// FuzzPredict checks Predict on the operator families with any parameter
// (NaN, infinite and out-of-domain ones included) and any size: sizes
// below 1 are ErrSize, every other error wraps ErrOperator, it never
// panics, and for N = M = 2 a Zero prediction holds on a grid: no
// allocation with rows on the grid {k/8} beats the best homogeneous one on
// the finer grid {k/160}, which holds the homogeneous allocation with the
// column means of each of them (the argument of Theorem 3.2 and
// TestPredictGrid).
func FuzzPredict(f *testing.F) {
	for _, s := range []struct {
		u, t   uint8
		pu, pt float64
		n, m   int
	}{
		{0, 2, 0, 0, 2, 2}, {4, 4, 0.5, 2, 2, 2}, {6, 6, -2, 2, 2, 2}, {6, 6, 2, -2, 2, 2},
		{5, 5, -1, 0.5, 2, 2}, {7, 6, 1, 0.5, 2, 2}, {4, 4, -1, 2, 2, 2}, {6, 6, math.NaN(), 1, 2, 2},
		{6, 6, math.Inf(1), math.Inf(-1), 2, 2}, {4, 5, 1e308, 1e-308, 2, 2}, {1, 1, 0, 0, 0, 3},
		{6, 6, 3, -3, math.MaxInt, 2}, {4, 4, 3, 0.5, 1 << 30, 1 << 30}, {0, 6, 0, 50, 2, 2},
	} {
		f.Add(s.u, s.t, s.pu, s.pt, s.n, s.m)
	}
	f.Fuzz(func(t *testing.T, ui, ti uint8, pu, pt float64, n, m int) {
		u, op := fuzzOperator(ui, pu), fuzzOperator(ti, pt)
		p, err := gain.Predict(u, op, n, m)
		switch {
		case n < 1 || m < 1:
			if !errors.Is(err, gain.ErrSize) {
				t.Fatalf("Predict(%v, %v, %d, %d): err = %v, want ErrSize", u, op, n, m, err)
			}
			return
		case err != nil:
			if !errors.Is(err, gain.ErrOperator) {
				t.Fatalf("Predict(%v, %v, %d, %d): err = %v, want ErrOperator", u, op, n, m, err)
			}
			return
		}
		if p.Sign != gain.Zero || n != 2 || m != 2 {
			return
		}
		if u.Domain() == aggregators.NonNegative && op.Value([]float64{0, 0}) < 0 {
			return // R undefined: negative scores
		}
		hom := homGridBest(u, op, 2, 2, 160)
		rows := subSimplex(2, 8)
		for i, r := range rows {
			for _, s := range rows[i:] {
				het := u.Value([]float64{op.Value([]float64{r[0], s[0]}), op.Value([]float64{r[1], s[1]})})
				if math.IsNaN(het) || math.IsInf(het, 0) || math.IsNaN(hom) || math.IsInf(hom, 0) {
					return // not a reward the grid can compare
				}
				if het > hom+1e-12*math.Max(1, math.Abs(hom)) {
					t.Fatalf("%v∘%v, N = M = 2: predicted Zero (%s: %s), but rows %v and %v give %v > R_hom ≈ %v",
						u, op, p.Rule, p.Reason, r, s, het, hom)
				}
			}
		}
	})
}
