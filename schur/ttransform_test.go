package schur

import (
	"errors"
	"math"
	"math/rand"
	"strings"
	"testing"

	"github.com/hetgain/hetgain/aggregators"
)

func TestApply(t *testing.T) {
	x := []float64{1, 0, 5}
	for _, c := range []struct {
		t    TTransform
		want []float64
	}{
		{TTransform{I: 0, J: 1, Lambda: 0.25}, []float64{0.25, 0.75, 5}},
		{TTransform{I: 1, J: 0, Lambda: 0.25}, []float64{0.25, 0.75, 5}},
		{TTransform{I: 0, J: 2, Lambda: 0.5}, []float64{3, 0, 3}},
		{TTransform{I: 0, J: 2, Lambda: 0}, []float64{5, 0, 1}},
		{TTransform{I: 0, J: 2, Lambda: 1}, []float64{1, 0, 5}},
		{TTransform{I: 2, J: 2, Lambda: 0.3}, []float64{1, 0, 5}},
	} {
		got := c.t.Apply(nil, x)
		for i := range got {
			if math.Abs(got[i]-c.want[i]) > 1e-15 {
				t.Errorf("%+v.Apply(%v) = %v, want %v", c.t, x, got, c.want)
				break
			}
		}
	}
	// λ = 0 swaps exactly, even across magnitudes.
	y := TTransform{I: 0, J: 1, Lambda: 0}.Apply(nil, []float64{1, 1e-20})
	if y[0] != 1e-20 || y[1] != 1 {
		t.Errorf("swap gave %v", y)
	}
	// In place.
	z := []float64{4, 0}
	if got := (TTransform{I: 0, J: 1, Lambda: 0.75}).Apply(z, z); &got[0] != &z[0] || z[0] != 3 || z[1] != 1 {
		t.Errorf("in-place Apply gave %v", z)
	}
}

func TestApplyPanics(t *testing.T) {
	x := []float64{1, 2, 3}
	for _, c := range []struct {
		name string
		t    TTransform
		dst  []float64
	}{
		{"index", TTransform{I: 0, J: 3, Lambda: 0.5}, nil},
		{"negative index", TTransform{I: -1, J: 0, Lambda: 0.5}, nil},
		{"weight", TTransform{I: 0, J: 1, Lambda: 1.5}, nil},
		{"negative weight", TTransform{I: 0, J: 1, Lambda: -0.1}, nil},
		{"NaN weight", TTransform{I: 0, J: 1, Lambda: math.NaN()}, nil},
		{"destination", TTransform{I: 0, J: 1, Lambda: 0.5}, make([]float64, 2)},
	} {
		func() {
			defer func() {
				if r := recover(); r == nil {
					t.Errorf("%s: Apply did not panic", c.name)
				}
			}()
			c.t.Apply(c.dst, x)
		}()
	}
}

// TestApplyRandom checks that T-transforms keep the sum and stay between
// the two coordinates they average.
func TestApplyRandom(t *testing.T) {
	rnd := rand.New(rand.NewSource(5))
	for trial := 0; trial < 5000; trial++ {
		n := 1 + rnd.Intn(6)
		x := randomVector(rnd, n, 100)
		tt := RandomTTransform(rnd, n)
		if n > 1 && tt.I == tt.J || tt.I < 0 || tt.I >= n || tt.J < 0 || tt.J >= n || tt.Lambda < 0 || tt.Lambda > 1 {
			t.Fatalf("RandomTTransform(%d) = %+v", n, tt)
		}
		y := tt.Apply(nil, x)
		if math.Abs(sum(x)-sum(y)) > 1e-12 {
			t.Fatalf("%+v changes the sum of %v to that of %v", tt, x, y)
		}
		lo, hi := math.Min(x[tt.I], x[tt.J]), math.Max(x[tt.I], x[tt.J])
		if y[tt.I] < lo || y[tt.I] > hi || y[tt.J] < lo || y[tt.J] > hi {
			t.Fatalf("%+v moves %v outside [%v, %v]: %v", tt, x, lo, hi, y)
		}
	}
}

func TestRandomTTransformPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("RandomTTransform(rnd, 0) did not panic")
		}
	}()
	RandomTTransform(rand.New(rand.NewSource(1)), 0)
}

// replay applies the path to x.
func replay(x []float64, path []TTransform) []float64 {
	z := append([]float64(nil), x...)
	for _, tt := range path {
		tt.Apply(z, z)
	}
	return z
}

// checkPath checks the documented shape of a path from x to y and that it
// reaches y within tol.
func checkPath(t *testing.T, x, y []float64, path []TTransform, tol float64) {
	t.Helper()
	n := len(x)
	if len(path) > 2*(n-1) && n > 0 {
		t.Fatalf("path of %d steps for n = %d", len(path), n)
	}
	averaging := 0
	for k, tt := range path {
		if tt.I < 0 || tt.I >= n || tt.J < 0 || tt.J >= n || tt.I == tt.J || !(tt.Lambda >= 0 && tt.Lambda <= 1) {
			t.Fatalf("step %d is %+v", k, tt)
		}
		if tt.Lambda > 0 {
			averaging++
		} else if averaging > 0 {
			t.Fatalf("swap at step %d after an averaging step: %+v", k, path)
		}
	}
	if averaging > n-1 {
		t.Fatalf("%d averaging steps for n = %d", averaging, n)
	}
	z := replay(x, path)
	for i := range z {
		if math.Abs(z[i]-y[i]) > tol {
			t.Fatalf("path %+v takes %v to %v, not %v", path, x, z, y)
		}
	}
}

func TestTTransformPathHand(t *testing.T) {
	for _, c := range []struct{ x, y []float64 }{
		{[]float64{3, 0, 0}, []float64{1, 1, 1}},
		{[]float64{0, 0, 3}, []float64{2, 1, 0}},
		{[]float64{1, 0.1, 0}, []float64{0.05, 1, 0.05}},
		{[]float64{4, 3, 2, 1}, []float64{1, 2, 3, 4}},
		{[]float64{5}, []float64{5}},
		{[]float64{2, 2}, []float64{2, 2}},
	} {
		path, err := TTransformPath(c.x, c.y, 1e-12)
		if err != nil {
			t.Fatalf("TTransformPath(%v, %v): %v", c.x, c.y, err)
		}
		checkPath(t, c.x, c.y, path, 1e-14)
	}
	// A permutation needs swaps only, and is reproduced exactly.
	x, y := []float64{0.3, 0.1, 0.7, 0.2}, []float64{0.7, 0.2, 0.1, 0.3}
	path, err := TTransformPath(x, y, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range path {
		if tt.Lambda != 0 {
			t.Fatalf("path between permutations has an averaging step: %+v", path)
		}
	}
	checkPath(t, x, y, path, 0)
}

func TestTTransformPathRandom(t *testing.T) {
	rnd := rand.New(rand.NewSource(6))
	doms := testDomains(t)
	for trial := 0; trial < 4000; trial++ {
		n := 1 + rnd.Intn(10)
		dom := doms[trial%len(doms)]
		x, y := RandomMajorizedPair(rnd, n, dom)
		if trial%3 == 0 { // reorder y so that the swaps have work to do
			rnd.Shuffle(n, func(i, j int) { y[i], y[j] = y[j], y[i] })
		}
		path, err := TTransformPath(x, y, 0)
		if err != nil {
			t.Fatalf("TTransformPath(%v, %v): %v", x, y, err)
		}
		_, _, scale := dom.bounds()
		checkPath(t, x, y, path, 1e-12*math.Max(1, scale))
	}
}

// TestTTransformPathRounding checks paths between vectors whose values
// are not on a binary grid, where rounding can leave a coordinate a few
// units in the last place past its target, and paths between vectors
// whose sums differ within tol.
func TestTTransformPathRounding(t *testing.T) {
	for _, c := range []struct {
		x, y []float64
		tol  float64
	}{
		{[]float64{0.8, 0.4, 0.4, 0.2}, []float64{0.6, 0.3, 0.6, 0.3}, 0},
		{[]float64{1, 0.3, 0.3}, []float64{0.8, 0.5, 0.3 - 1e-10}, 1e-9},
		{[]float64{0.7, 0.2, 0.1}, []float64{0.1 + 1e-10, 0.3, 0.6}, 1e-9},
	} {
		path, err := TTransformPath(c.x, c.y, c.tol)
		if err != nil {
			t.Fatalf("TTransformPath(%v, %v, %g): %v", c.x, c.y, c.tol, err)
		}
		checkPath(t, c.x, c.y, path, 2*c.tol+1e-15)
	}
	// y = x after random T-transforms with random λ: x ≻ y, and neither is
	// on a grid.
	rnd := rand.New(rand.NewSource(7))
	for trial := 0; trial < 4000; trial++ {
		n := 2 + rnd.Intn(9)
		scale := math.Pow(10, float64(rnd.Intn(7)-3))
		x := make([]float64, n)
		for i := range x {
			x[i] = scale * rnd.Float64()
		}
		y := append([]float64(nil), x...)
		for s := rnd.Intn(2 * n); s >= 0; s-- {
			RandomTTransform(rnd, n).Apply(y, y)
		}
		tol := 1e-13 * scale * float64(n)
		path, err := TTransformPath(x, y, tol)
		if err != nil {
			t.Fatalf("TTransformPath(%v, %v, %g): %v", x, y, tol, err)
		}
		checkPath(t, x, y, path, 2*tol)
	}
}

func TestTTransformPathErrors(t *testing.T) {
	for _, c := range []struct {
		x, y  []float64
		is    error
		names string
	}{
		{[]float64{1, 1, 1}, []float64{3, 0, 0}, ErrNotMajorized, "1 largest"},
		{[]float64{2, 2, 0}, []float64{2, 1, 1}, nil, ""},
		{[]float64{2, 1, 1}, []float64{2, 2, 0}, ErrNotMajorized, "2 largest"},
		{[]float64{3, 0}, []float64{1, 1}, ErrNotMajorized, "sums to"},
		{[]float64{3, 0}, []float64{1, 1, 1}, aggregators.ErrDimension, "length 2"},
		{[]float64{3, math.NaN()}, []float64{1, 1}, aggregators.ErrNaN, "x[1]"},
	} {
		_, err := TTransformPath(c.x, c.y, 1e-12)
		if c.is == nil {
			if err != nil {
				t.Errorf("TTransformPath(%v, %v): %v", c.x, c.y, err)
			}
			continue
		}
		if !errors.Is(err, c.is) || !strings.Contains(err.Error(), c.names) {
			t.Errorf("TTransformPath(%v, %v) error %v, want %v naming %q", c.x, c.y, err, c.is, c.names)
		}
	}
}
