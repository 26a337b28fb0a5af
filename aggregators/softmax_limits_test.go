package aggregators

import (
	"math"
	"math/rand"
	"testing"
)

// TestSoftmaxLimitsSolveTheirEquations checks the thresholds against the
// equations that define them and against the values quoted in the docs.
func TestSoftmaxLimitsSolveTheirEquations(t *testing.T) {
	for n := 3; n <= 12; n++ {
		ts := SoftmaxSchurLimit(n)
		if r := (ts-2)*math.Exp(ts) - 4/float64(n-2); math.Abs(r) > 1e-12 {
			t.Errorf("n=%d: (t*-2)e^t* - 4/(n-2) = %g", n, r)
		}
		if n > 3 && ts >= SoftmaxSchurLimit(n-1) {
			t.Errorf("SoftmaxSchurLimit(%d) = %v does not decrease", n, ts)
		}
	}
	for n := 2; n <= 12; n++ {
		tm := SoftmaxMonotoneLimit(n)
		if r := (tm-1)*math.Exp(tm) - 1/float64(n-1); math.Abs(r) > 1e-12 {
			t.Errorf("n=%d: (t-1)e^t - 1/(n-1) = %g", n, r)
		}
	}
	quoted := []struct {
		got, want float64
	}{
		{SoftmaxSchurLimit(3), 2.373}, {SoftmaxSchurLimit(4), 2.218},
		{SoftmaxMonotoneLimit(2), 1.278}, {SoftmaxMonotoneLimit(3), 1.157},
	}
	for _, q := range quoted {
		if math.Abs(q.got-q.want) > 5e-4 {
			t.Errorf("limit %v, docs say %v", q.got, q.want)
		}
	}
	if !math.IsInf(SoftmaxSchurLimit(2), 1) || !math.IsInf(SoftmaxMonotoneLimit(1), 1) {
		t.Error("limits for small n must be +Inf")
	}
}

// schurOstrowski returns (x_k - x_l)(∂_k f - ∂_l f) for softmax(t).
func schurOstrowski(t float64, x []float64, k, l int) float64 {
	g := Softmax{T: t}.Gradient(nil, x)
	return (x[k] - x[l]) * (g[k] - g[l])
}

// TestSoftmaxSchurLimitIsSharpAtNearTies checks the mechanism behind
// SoftmaxSchurLimit: at two near-zero coordinates with the others at 1 the
// Schur-Ostrowski product turns negative just above t*(n) and is positive
// just below it.
func TestSoftmaxSchurLimitIsSharpAtNearTies(t *testing.T) {
	for n := 3; n <= 6; n++ {
		x := make([]float64, n)
		for i := 2; i < n; i++ {
			x[i] = 1
		}
		x[0], x[1] = 2e-4, 1e-4
		ts := SoftmaxSchurLimit(n)
		if v := schurOstrowski(ts+0.01, x, 0, 1); v >= 0 {
			t.Errorf("n=%d t=t*+0.01: Schur-Ostrowski product %g, want < 0", n, v)
		}
		if v := schurOstrowski(ts-0.01, x, 0, 1); v <= 0 {
			t.Errorf("n=%d t=t*-0.01: Schur-Ostrowski product %g, want > 0", n, v)
		}
		// The reflection: for -t the mirrored point 1-x violates concavity.
		y := make([]float64, n)
		for i := range x {
			y[i] = 1 - x[i]
		}
		if v := schurOstrowski(-ts-0.01, y, 0, 1); v <= 0 {
			t.Errorf("n=%d t=-t*-0.01: product %g, want > 0 (a concavity violation)", n, v)
		}
	}
}

// TestSoftmaxMonotoneLimit checks that just below the limit no partial
// derivative is negative anywhere a random and corner search looks, and
// that just above it the partial at x = (0, 1, ..., 1) is negative.
func TestSoftmaxMonotoneLimit(t *testing.T) {
	rnd := rand.New(rand.NewSource(3))
	for n := 2; n <= 5; n++ {
		lim := SoftmaxMonotoneLimit(n)
		for _, sign := range []float64{1, -1} {
			below := Softmax{T: sign * (lim - 1e-3)}
			for trial := 0; trial < 20000; trial++ {
				x := make([]float64, n)
				for i := range x {
					switch rnd.Intn(3) {
					case 0:
						x[i] = 0
					case 1:
						x[i] = 1
					default:
						x[i] = rnd.Float64()
					}
				}
				for k, d := range below.Gradient(nil, x) {
					if d < 0 {
						t.Fatalf("n=%d %v: ∂_%d f(%v) = %g < 0", n, below, k, x, d)
					}
				}
			}
			x := make([]float64, n)
			for i := 1; i < n; i++ {
				x[i] = 1
			}
			if sign < 0 {
				for i := range x {
					x[i] = 1 - x[i]
				}
			}
			above := Softmax{T: sign * (lim + 1e-3)}
			if d := above.Gradient(nil, x)[0]; d >= 0 {
				t.Errorf("n=%d %v: ∂_0 f(%v) = %g, want < 0", n, above, x, d)
			}
			if below.StrictlyIncreasing(n) != true || above.StrictlyIncreasing(n) != false {
				t.Errorf("n=%d: StrictlyIncreasing below/above the limit = %v/%v",
					n, below.StrictlyIncreasing(n), above.StrictlyIncreasing(n))
			}
		}
	}
}
