package gain_test

import (
	"errors"
	"math"
	"testing"

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
