package learn

import (
	"math"
	"strings"
	"testing"
)

// nnMustPanic fails t unless f panics with a string starting with "learn: ".
func nnMustPanic(t *testing.T, name string, f func()) {
	t.Helper()
	defer func() {
		t.Helper()
		r := recover()
		if r == nil {
			t.Errorf("%s: no panic", name)
			return
		}
		s, ok := r.(string)
		if !ok || !strings.HasPrefix(s, "learn: ") {
			t.Errorf("%s: panic %v lacks the \"learn: \" prefix", name, r)
		}
	}()
	f()
}

func TestRNGDeterministic(t *testing.T) {
	a := newRNG(42, 1, 2)
	b := newRNG(42, 1, 2)
	for i := 0; i < 1000; i++ {
		if x, y := a.next(), b.next(); x != y {
			t.Fatalf("draw %d: %#x != %#x", i, x, y)
		}
	}
	// Copying the value forks the stream.
	c := a
	for i := 0; i < 10; i++ {
		if x, y := a.float64(), c.float64(); x != y {
			t.Fatalf("forked draw %d: %v != %v", i, x, y)
		}
	}
}

func TestRNGStreamsDiffer(t *testing.T) {
	const n = 10000
	gens := map[string]rng{
		"seed 42":        newRNG(42),
		"seed 43":        newRNG(43),
		"seed 42, 0":     newRNG(42, 0),
		"seed 42, 1":     newRNG(42, 1),
		"seed 42, 2":     newRNG(42, 2),
		"seed 42, 1, 0":  newRNG(42, 1, 0),
		"seed 42, 0, 1":  newRNG(42, 0, 1),
		"seed 43, 1":     newRNG(43, 1),
		"seed -1, 1<<63": newRNG(-1, 1<<63),
	}
	// No output of one stream may occur among the first n outputs of
	// another: this rules out streams that are shifted copies of each
	// other, as naive "seed + id" seeding of splitmix64 produces.
	seen := make(map[uint64]string)
	for name, g := range gens {
		for i := 0; i < n; i++ {
			x := g.next()
			if other, ok := seen[x]; ok {
				t.Fatalf("%s and %s share output %#x", name, other, x)
			}
			seen[x] = name
		}
	}
	// Adjacent stream ids must be uncorrelated.
	a, b := newRNG(7, 100), newRNG(7, 101)
	var sab, sa, sb, saa, sbb float64
	for i := 0; i < n; i++ {
		x, y := a.float64(), b.float64()
		sa += x
		sb += y
		sab += x * y
		saa += x * x
		sbb += y * y
	}
	cov := sab/n - sa/n*sb/n
	corr := cov / math.Sqrt((saa/n-sa/n*sa/n)*(sbb/n-sb/n*sb/n))
	if math.Abs(corr) > 4/math.Sqrt(n) {
		t.Errorf("correlation of adjacent streams = %v", corr)
	}
}

func TestRNGFloat64(t *testing.T) {
	const n = 100000
	r := newRNG(1)
	var sum float64
	for i := 0; i < n; i++ {
		x := r.float64()
		if x < 0 || x >= 1 {
			t.Fatalf("float64() = %v outside [0,1)", x)
		}
		sum += x
	}
	// The variance of U(0,1) is 1/12.
	if mean := sum / n; math.Abs(mean-0.5) > 4*math.Sqrt(1.0/12/n) {
		t.Errorf("mean = %v, want about 0.5", mean)
	}
}

func TestRNGNormal(t *testing.T) {
	const n = 100000
	r := newRNG(2, 3)
	var sum, sumSq float64
	for i := 0; i < n; i++ {
		x := r.normal()
		if math.IsNaN(x) || math.IsInf(x, 0) {
			t.Fatalf("normal() = %v", x)
		}
		sum += x
		sumSq += x * x
	}
	mean := sum / n
	variance := sumSq/n - mean*mean
	if math.Abs(mean) > 4/math.Sqrt(n) {
		t.Errorf("mean = %v, want about 0", mean)
	}
	// The variance of the sample variance of N(0,1) is about 2/n.
	if math.Abs(variance-1) > 4*math.Sqrt(2.0/n) {
		t.Errorf("variance = %v, want about 1", variance)
	}
	a, b := newRNG(9), newRNG(9)
	for i := 0; i < 100; i++ {
		if x, y := a.normal(), b.normal(); x != y {
			t.Fatalf("normal not deterministic: %v != %v", x, y)
		}
	}
}

func TestRNGIntn(t *testing.T) {
	const k, n = 7, 70000
	r := newRNG(3)
	var counts [k]int
	for i := 0; i < n; i++ {
		v := r.intn(k)
		if v < 0 || v >= k {
			t.Fatalf("intn(%d) = %d", k, v)
		}
		counts[v]++
	}
	// Chi-square with 6 degrees of freedom: P(X > 35) < 1e-5.
	expect := float64(n) / k
	var chi2 float64
	for _, c := range counts {
		d := float64(c) - expect
		chi2 += d * d / expect
	}
	if chi2 > 35 {
		t.Errorf("chi-square = %v for counts %v", chi2, counts)
	}
	for i := 0; i < 100; i++ {
		if v := r.intn(1); v != 0 {
			t.Fatalf("intn(1) = %d", v)
		}
	}
	// A bound above 2^32 must reach the upper half of its range.
	big := 3 << 40
	high := false
	for i := 0; i < 100; i++ {
		v := r.intn(big)
		if v < 0 || v >= big {
			t.Fatalf("intn(%d) = %d", big, v)
		}
		high = high || v > big/2
	}
	if !high {
		t.Errorf("intn(%d) never exceeded half its range", big)
	}
	nnMustPanic(t, "intn(0)", func() { r.intn(0) })
	nnMustPanic(t, "intn(-1)", func() { r.intn(-1) })
}

func TestRNGPerm(t *testing.T) {
	r := newRNG(4)
	p := make([]int, 100)
	for i := range p {
		p[i] = i
	}
	r.perm(p)
	seen := make([]bool, len(p))
	moved := 0
	for i, v := range p {
		if v < 0 || v >= len(p) || seen[v] {
			t.Fatalf("not a permutation: %v", p)
		}
		seen[v] = true
		if v != i {
			moved++
		}
	}
	if moved == 0 {
		t.Errorf("perm left 100 elements in place")
	}
	r.perm(nil) // must not panic

	// All 6 orders of 3 elements are about equally likely.
	const n = 60000
	counts := make(map[[3]int]int)
	for i := 0; i < n; i++ {
		q := []int{0, 1, 2}
		r.perm(q)
		counts[[3]int{q[0], q[1], q[2]}]++
	}
	if len(counts) != 6 {
		t.Fatalf("saw %d orders, want 6", len(counts))
	}
	var chi2 float64
	for _, c := range counts {
		d := float64(c) - n/6
		chi2 += d * d / (n / 6)
	}
	// Chi-square with 5 degrees of freedom: P(X > 30) < 2e-5.
	if chi2 > 30 {
		t.Errorf("chi-square = %v for %v", chi2, counts)
	}
}
