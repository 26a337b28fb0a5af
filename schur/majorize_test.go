package schur

import (
	"errors"
	"math"
	"math/rand"
	"sort"
	"strings"
	"testing"

	"github.com/hetgain/hetgain/aggregators"
)

func TestMajorizesHandCases(t *testing.T) {
	for _, c := range []struct {
		x, y []float64
		tol  float64
		want bool
	}{
		{[]float64{3, 0, 0}, []float64{1, 1, 1}, 0, true},
		{[]float64{1, 1, 1}, []float64{3, 0, 0}, 0, false},
		{[]float64{0, 3, 0}, []float64{1, 1, 1}, 0, true}, // order does not matter
		{[]float64{1, 0.1, 0}, []float64{1, 0.05, 0.05}, 1e-15, true},
		{[]float64{0.5, 0.5}, []float64{1, 0}, 0, false},
		{[]float64{2, 1, 0}, []float64{0, 1, 2}, 0, true}, // permutations majorize each other
		{[]float64{0, 1, 2}, []float64{2, 1, 0}, 0, true},
		{[]float64{3, 1, 0}, []float64{2, 2, 1}, 0, false}, // sums 4 and 5
		{[]float64{3, 0, 0}, []float64{2, 0.5, 0.5}, 0, true},
		{[]float64{2, 2, 0}, []float64{3, 0.5, 0.5}, 0, false}, // first partial sum fails
		{[]float64{-1, 2}, []float64{0.5, 0.5}, 0, true},
		{[]float64{2}, []float64{2}, 0, true},
		{[]float64{2}, []float64{3}, 0, false},
		{[]float64{1, 0}, []float64{0.5, 0.5 + 1e-12}, 1e-11, true},
		{[]float64{1, 0}, []float64{0.5, 0.5 + 1e-12}, 0, false},
		{[]float64{0.6, 0.4}, []float64{0.6 + 1e-12, 0.4 - 1e-12}, 1e-11, true},
		{[]float64{0.6, 0.4}, []float64{0.6 + 1e-12, 0.4 - 1e-12}, 0, false},
	} {
		got, err := Majorizes(c.x, c.y, c.tol)
		if err != nil || got != c.want {
			t.Errorf("Majorizes(%v, %v, %g) = %v, %v; want %v", c.x, c.y, c.tol, got, err, c.want)
		}
	}
}

func TestWeakMajorizationHandCases(t *testing.T) {
	for _, c := range []struct {
		x, y       []float64
		sub, super bool
	}{
		// Largest sums 3,3,3 >= 1,2,2; smallest sums 0,0,3 <= 0,1,2 fails at k=3.
		{[]float64{3, 0, 0}, []float64{1, 1, 0}, true, false},
		// Largest sums 1,2,2 < 1,2,3; smallest sums 0,1,2 <= 1,2,3.
		{[]float64{0, 1, 1}, []float64{1, 1, 1}, false, true},
		{[]float64{3, 0, 0}, []float64{1, 1, 1}, true, true},
		{[]float64{1, 1, 1}, []float64{3, 0, 0}, false, false},
	} {
		sub, err1 := WeaklySubmajorizes(c.x, c.y, 0)
		super, err2 := WeaklySupermajorizes(c.x, c.y, 0)
		if err1 != nil || err2 != nil || sub != c.sub || super != c.super {
			t.Errorf("weak(%v, %v) = sub %v super %v (%v, %v); want %v %v", c.x, c.y, sub, super, err1, err2, c.sub, c.super)
		}
	}
}

func TestMajorizationErrors(t *testing.T) {
	funcs := map[string]func(x, y []float64, tol float64) (bool, error){
		"Majorizes": Majorizes, "WeaklySubmajorizes": WeaklySubmajorizes, "WeaklySupermajorizes": WeaklySupermajorizes,
	}
	for name, fn := range funcs {
		for _, c := range []struct {
			x, y  []float64
			tol   float64
			is    error
			names []string
		}{
			{[]float64{1, 2, 3}, []float64{1, 2}, 0, aggregators.ErrDimension, []string{"length 3", "length 2"}},
			{nil, nil, 0, aggregators.ErrEmpty, []string{"x"}},
			{[]float64{1, math.NaN()}, []float64{1, 2}, 0, aggregators.ErrNaN, []string{"x[1]"}},
			{[]float64{1, 2}, []float64{math.Inf(-1), 2}, 0, aggregators.ErrInf, []string{"y[0]"}},
			{[]float64{1, 2e200}, []float64{1, 2}, 0, aggregators.ErrRange, []string{"x[1]"}},
			{[]float64{1, 2}, []float64{1, 2}, -1e-9, aggregators.ErrParam, []string{"tolerance"}},
			{[]float64{1, 2}, []float64{1, 2}, math.NaN(), aggregators.ErrParam, []string{"tolerance"}},
			{[]float64{1, 2}, []float64{1, 2}, math.Inf(1), aggregators.ErrParam, []string{"tolerance"}},
		} {
			got, err := fn(c.x, c.y, c.tol)
			if got || !errors.Is(err, c.is) {
				t.Errorf("%s(%v, %v, %v) = %v, %v; want error wrapping %v", name, c.x, c.y, c.tol, got, err, c.is)
				continue
			}
			for _, s := range c.names {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("%s: error %q does not name %q", name, err, s)
				}
			}
		}
	}
}

// randomVector returns n values uniform on [-scale, scale].
func randomVector(rnd *rand.Rand, n int, scale float64) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = scale * (2*rnd.Float64() - 1)
	}
	return x
}

func mustMajorize(t *testing.T, x, y []float64, tol float64) bool {
	t.Helper()
	ok, err := Majorizes(x, y, tol)
	if err != nil {
		t.Fatalf("Majorizes(%v, %v): %v", x, y, err)
	}
	return ok
}

func TestMajorizesProperties(t *testing.T) {
	rnd := rand.New(rand.NewSource(1))
	for trial := 0; trial < 2000; trial++ {
		n := 1 + rnd.Intn(10)
		x := randomVector(rnd, n, 10)
		tol := 1e-12 * 10 * float64(n)

		p := append([]float64(nil), x...)
		rnd.Shuffle(n, func(i, j int) { p[i], p[j] = p[j], p[i] })
		if !mustMajorize(t, x, p, 0) || !mustMajorize(t, p, x, 0) {
			t.Fatalf("%v and its permutation %v do not majorize each other", x, p)
		}

		mean := make([]float64, n)
		for i := range mean {
			mean[i] = sum(x) / float64(n)
		}
		if !mustMajorize(t, x, mean, tol) {
			t.Fatalf("%v does not majorize its mean vector", x)
		}
		if n > 1 && !isConstant(x) && mustMajorize(t, mean, x, tol) {
			t.Fatalf("the mean vector majorizes the non-constant %v", x)
		}

		y := RandomTTransform(rnd, n).Apply(nil, x)
		if !mustMajorize(t, x, y, tol) {
			t.Fatalf("%v does not majorize its T-transform %v", x, y)
		}
	}
}

func isConstant(x []float64) bool {
	for _, v := range x {
		if v != x[0] {
			return false
		}
	}
	return true
}

// TestMajorizationOrder checks transitivity on random chains and
// antisymmetry up to permutation, exactly, on the grid of Domain.
func TestMajorizationOrder(t *testing.T) {
	rnd := rand.New(rand.NewSource(2))
	for trial := 0; trial < 1000; trial++ {
		n := 1 + rnd.Intn(10)
		x, y := RandomMajorizedPair(rnd, n, Domain{})
		sp := Domain{}.space(n)
		z := append([]float64(nil), y...)
		if n > 1 {
			i, j := randomPair(rnd, n)
			sp.transfer(z, y, i, j, rnd.Float64())
		}
		if !mustMajorize(t, x, y, 0) || !mustMajorize(t, y, z, 0) || !mustMajorize(t, x, z, 0) {
			t.Fatalf("chain %v ≻ %v ≻ %v not transitive", x, y, z)
		}
		if mustMajorize(t, y, x, 0) && !isPermutation(x, y) {
			t.Fatalf("%v and %v majorize each other but are not permutations", x, y)
		}
		// Two random points of the simplex: majorization either way implies
		// that both weak relations hold and the sums agree.
		u, v := Domain{kind: simplex, a: 1}.Sample(rnd, n), Domain{kind: simplex, a: 1}.Sample(rnd, n)
		checkWeakConsistency(t, u, v)
		checkWeakConsistency(t, x, z)
	}
}

func checkWeakConsistency(t *testing.T, x, y []float64) {
	t.Helper()
	maj := mustMajorize(t, x, y, 0)
	sub, _ := WeaklySubmajorizes(x, y, 0)
	super, _ := WeaklySupermajorizes(x, y, 0)
	if maj && !(sub && super) {
		t.Fatalf("%v ≻ %v but weak relations sub %v super %v", x, y, sub, super)
	}
	if sub && sum(x) == sum(y) && !maj {
		t.Fatalf("%v ≻_w %v with equal sums but not ≻", x, y)
	}
	if sub2, _ := WeaklySupermajorizes(negated(x), negated(y), 0); sub2 != sub {
		t.Fatalf("x ≻_w y is %v but -x ≻^w -y is %v for %v, %v", sub, sub2, x, y)
	}
}

func isPermutation(x, y []float64) bool {
	a, b := append([]float64(nil), x...), append([]float64(nil), y...)
	sort.Float64s(a)
	sort.Float64s(b)
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestWeakMajorizationRandom compares the weak relations with a direct
// evaluation of their definitions on vectors of different sums.
func TestWeakMajorizationRandom(t *testing.T) {
	rnd := rand.New(rand.NewSource(3))
	for trial := 0; trial < 2000; trial++ {
		n := 1 + rnd.Intn(6)
		x, y := make([]float64, n), make([]float64, n)
		for i := range x { // small integers: exact sums and many ties
			x[i], y[i] = float64(rnd.Intn(5)), float64(rnd.Intn(5))
		}
		wantSub, wantSuper := true, true
		for k := 1; k <= n; k++ {
			if topSum(x, k) < topSum(y, k) {
				wantSub = false
			}
			if -topSum(negated(x), k) > -topSum(negated(y), k) {
				wantSuper = false
			}
		}
		sub, _ := WeaklySubmajorizes(x, y, 0)
		super, _ := WeaklySupermajorizes(x, y, 0)
		if sub != wantSub || super != wantSuper {
			t.Fatalf("weak(%v, %v) = %v, %v; want %v, %v", x, y, sub, super, wantSub, wantSuper)
		}
	}
}

// topSum returns the largest sum of k coordinates of x, by brute force over
// subsets.
func topSum(x []float64, k int) float64 {
	best := math.Inf(-1)
	for mask := 0; mask < 1<<len(x); mask++ {
		s, c := 0.0, 0
		for i, v := range x {
			if mask&(1<<i) != 0 {
				s += v
				c++
			}
		}
		if c == k && s > best {
			best = s
		}
	}
	return best
}

func TestLorenz(t *testing.T) {
	for _, c := range []struct {
		x, want []float64
	}{
		{[]float64{1, 2, 3, 4}, []float64{0, 0.1, 0.3, 0.6, 1}},
		{[]float64{4, 1, 3, 2}, []float64{0, 0.1, 0.3, 0.6, 1}},
		{[]float64{0, 0, 5}, []float64{0, 0, 0, 1}},
		{[]float64{2, 2}, []float64{0, 0.5, 1}},
		{[]float64{7}, []float64{0, 1}},
		{[]float64{-1, 3}, []float64{0, -0.5, 1}},
	} {
		got, err := Lorenz(c.x)
		if err != nil || len(got) != len(c.want) {
			t.Fatalf("Lorenz(%v) = %v, %v; want %v", c.x, got, err, c.want)
		}
		for k := range got {
			if math.Abs(got[k]-c.want[k]) > 1e-15 {
				t.Errorf("Lorenz(%v) = %v; want %v", c.x, got, c.want)
				break
			}
		}
		if got[len(got)-1] != 1 {
			t.Errorf("Lorenz(%v) ends at %v, not exactly 1", c.x, got[len(got)-1])
		}
	}
	for _, c := range []struct {
		x  []float64
		is error
	}{
		{[]float64{0, 0}, aggregators.ErrRange},
		{[]float64{1, -2}, aggregators.ErrRange},
		{nil, aggregators.ErrEmpty},
		{[]float64{1, math.NaN()}, aggregators.ErrNaN},
		{[]float64{math.Inf(1)}, aggregators.ErrInf},
	} {
		if _, err := Lorenz(c.x); !errors.Is(err, c.is) {
			t.Errorf("Lorenz(%v) error %v, want %v", c.x, err, c.is)
		}
	}
}

// TestLorenzCancellation checks that large coordinates that cancel do not
// swallow the small ones: the totals are 2 and 3, which naive summation in
// ascending order loses (0, an error) or gets wrong (4).
func TestLorenzCancellation(t *testing.T) {
	for _, c := range []struct {
		x     []float64
		total float64
	}{
		{[]float64{1e17, -1e17, 1, 1}, 2},
		{[]float64{1e16, -1e16, 3}, 3},
	} {
		l, err := Lorenz(c.x)
		if err != nil {
			t.Errorf("Lorenz(%v): %v", c.x, err)
			continue
		}
		if want := -c.x[0] / c.total; l[1] != want || l[len(l)-1] != 1 {
			t.Errorf("Lorenz(%v) = %v; want L_1 = %v (the smallest coordinate over the total %v) and L_n = 1", c.x, l, want, c.total)
		}
	}
}

// TestLorenzDominance checks that for vectors of equal sum x ≻ y holds
// exactly when the Lorenz curve of x lies on or below that of y.
func TestLorenzDominance(t *testing.T) {
	rnd := rand.New(rand.NewSource(4))
	simplex3, _ := NewSimplex(3)
	agree := 0
	for trial := 0; trial < 3000; trial++ {
		n := 1 + rnd.Intn(8)
		var x, y []float64
		if trial%2 == 0 {
			x, y = RandomMajorizedPair(rnd, n, simplex3)
		} else {
			x, y = simplex3.Sample(rnd, n), simplex3.Sample(rnd, n)
		}
		lx, err1 := Lorenz(x)
		ly, err2 := Lorenz(y)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		below := true
		for k := range lx {
			if lx[k] > ly[k]+1e-12 {
				below = false
			}
		}
		maj := mustMajorize(t, x, y, 1e-12)
		if maj != below {
			t.Fatalf("x = %v, y = %v: Majorizes %v but Lorenz curve below %v (%v, %v)", x, y, maj, below, lx, ly)
		}
		if trial%2 == 0 && !below {
			t.Fatalf("majorized pair %v ≻ %v has Lorenz curve %v not below %v", x, y, lx, ly)
		}
		if maj {
			agree++
		}
	}
	if agree < 1500 {
		t.Errorf("only %d majorized pairs among 3000", agree)
	}
}
