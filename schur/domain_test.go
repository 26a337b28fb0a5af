package schur

import (
	"errors"
	"math"
	"math/rand"
	"strings"
	"testing"

	"github.com/hetgain/hetgain/aggregators"
)

// testDomains returns one domain of each kind.
func testDomains(t testing.TB) []Domain {
	b, err1 := NewBox(-2, 3)
	o, err2 := NewOrthant(2.5)
	s, err3 := NewSimplex(1)
	s3, err4 := NewSimplex(1.0 / 3)
	if err := errors.Join(err1, err2, err3, err4); err != nil {
		t.Fatal(err)
	}
	return []Domain{UnitBox(), b, o, s, s3}
}

func TestDomainConstructors(t *testing.T) {
	if UnitBox() != (Domain{}) {
		t.Error("UnitBox() is not the zero Domain")
	}
	nan, inf := math.NaN(), math.Inf(1)
	for _, c := range []struct {
		name string
		err  error
	}{
		{"box reversed", second(NewBox(1, 0))},
		{"box empty", second(NewBox(1, 1))},
		{"box NaN", second(NewBox(nan, 1))},
		{"box Inf", second(NewBox(0, inf))},
		{"box huge", second(NewBox(0, 1e200))},
		{"orthant zero", second(NewOrthant(0))},
		{"orthant negative", second(NewOrthant(-1))},
		{"orthant NaN", second(NewOrthant(nan))},
		{"simplex zero", second(NewSimplex(0))},
		{"simplex Inf", second(NewSimplex(inf))},
	} {
		if !errors.Is(c.err, aggregators.ErrParam) {
			t.Errorf("%s: error %v, want ErrParam", c.name, c.err)
		}
	}
	for _, c := range []struct {
		d    Domain
		want string
	}{
		{UnitBox(), "[0,1]^n"},
		{first(NewBox(-1, 1)), "[-1,1]^n"},
		{first(NewOrthant(2)), "[0,∞)^n (scale 2)"},
		{first(NewSimplex(1)), "simplex {x >= 0, sum x = 1}"},
	} {
		if got := c.d.String(); got != c.want {
			t.Errorf("String() = %q, want %q", got, c.want)
		}
	}
}

func first(d Domain, _ error) Domain   { return d }
func second(_ Domain, err error) error { return err }

func TestContains(t *testing.T) {
	box, _ := NewBox(-1, 2)
	orth, _ := NewOrthant(1)
	simp, _ := NewSimplex(2)
	for _, c := range []struct {
		d    Domain
		x    []float64
		tol  float64
		want bool
	}{
		{UnitBox(), []float64{0, 1, 0.5}, 0, true},
		{UnitBox(), []float64{0, 1.1}, 0, false},
		{UnitBox(), []float64{-1e-13, 1}, 1e-12, true},
		{UnitBox(), []float64{math.NaN()}, 0, false},
		{UnitBox(), nil, 0, false},
		{box, []float64{-1, 2}, 0, true},
		{box, []float64{-1.5, 2}, 0, false},
		{orth, []float64{0, 1e6}, 0, true},
		{orth, []float64{-0.1, 1}, 0, false},
		{orth, []float64{math.Inf(1)}, 0, false},
		{simp, []float64{1, 1, 0}, 0, true},
		{simp, []float64{1, 0.9, 0}, 0, false},
		{simp, []float64{2.5, -0.5}, 0, false},
		// An invalid tolerance says no.
		{UnitBox(), []float64{5}, math.NaN(), false},
		{UnitBox(), []float64{0.5}, math.NaN(), false},
		{UnitBox(), []float64{0.5}, -0.1, false},
		{UnitBox(), []float64{5}, math.Inf(1), false},
		{simp, []float64{1, 1}, math.NaN(), false},
	} {
		if got := c.d.Contains(c.x, c.tol); got != c.want {
			t.Errorf("%v.Contains(%v, %g) = %v, want %v", c.d, c.x, c.tol, got, c.want)
		}
	}
}

// TestSampleAndPairs checks that samples and majorized pairs lie in their
// domain, that pairs majorize exactly and that their sums are exact.
func TestSampleAndPairs(t *testing.T) {
	rnd := rand.New(rand.NewSource(7))
	for _, dom := range testDomains(t) {
		lo, hi, scale := dom.bounds()
		for trial := 0; trial < 500; trial++ {
			n := 1 + rnd.Intn(10)
			x, y := RandomMajorizedPair(rnd, n, dom)
			tol := 1e-12 * scale
			if !dom.Contains(x, tol) || !dom.Contains(y, tol) {
				t.Fatalf("%v: pair %v, %v outside the domain", dom, x, y)
			}
			if dom.kind == orthant && (maxOf(x) > hi || maxOf(y) > hi) {
				t.Fatalf("%v: pair %v, %v above the cap %v", dom, x, y, hi)
			}
			if lo < 0 && dom.kind == box && minOf(x) < lo {
				t.Fatalf("%v: %v below %v", dom, x, lo)
			}
			if ok, err := Majorizes(x, y, 0); !ok || err != nil {
				t.Fatalf("%v: %v does not majorize %v exactly (%v)", dom, x, y, err)
			}
			if sum(x) != reverseSum(y) || sum(x) != reverseSum(x) {
				t.Fatalf("%v: sums of %v and %v are not exact", dom, x, y)
			}
		}
	}
	// The simplex of total 1 is hit exactly.
	simp, _ := NewSimplex(1)
	if s := sum(simp.Sample(rnd, 7)); s != 1 {
		t.Errorf("simplex sample sums to %v, not 1", s)
	}
}

func reverseSum(x []float64) float64 {
	s := 0.0
	for i := len(x) - 1; i >= 0; i-- {
		s += x[i]
	}
	return s
}

func maxOf(x []float64) float64 { return -minOf(negated(x)) }

func minOf(x []float64) float64 {
	m := math.Inf(1)
	for _, v := range x {
		m = math.Min(m, v)
	}
	return m
}

func TestSampleSpread(t *testing.T) {
	// The box is covered: samples come near both ends.
	rnd := rand.New(rand.NewSource(8))
	box, _ := NewBox(-2, 3)
	lo, hi := math.Inf(1), math.Inf(-1)
	for k := 0; k < 1000; k++ {
		v := box.Sample(rnd, 1)[0]
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	if lo > -1.9 || hi < 2.9 {
		t.Errorf("1000 samples of %v span only [%v, %v]", box, lo, hi)
	}
	defer func() {
		if recover() == nil {
			t.Error("Sample(rnd, 0) did not panic")
		}
	}()
	box.Sample(rnd, 0)
}

// TestDomainLimits checks that the constructors reject domains too narrow
// for the grid of Sample, whose points would be NaN or collapse to one
// value, and that their errors state the actual limits.
func TestDomainLimits(t *testing.T) {
	tiny := math.SmallestNonzeroFloat64
	for _, c := range []struct {
		name  string
		err   error
		names string
	}{
		{"box subnormal", second(NewBox(0, tiny)), "width 5e-324 is below 1e-100"},
		{"box narrow", second(NewBox(0, 1e-101)), "below 1e-100"},
		{"box narrow off centre", second(NewBox(1, 1+1e-13)), "2^-24·max(|lo|, |hi|)"},
		{"box huge", second(NewBox(0, 1e101)), "magnitude at most 1e+100"},
		{"orthant subnormal", second(NewOrthant(tiny)), "at least 1e-100"},
		{"orthant huge", second(NewOrthant(1e100)), "at most 6.25e+98"},
		{"simplex subnormal", second(NewSimplex(tiny)), "at least 1e-100"},
		{"simplex huge", second(NewSimplex(1e101)), "at most 1e+100"},
		{"orthant just above", second(NewOrthant(math.Nextafter(aggregators.MaxInput/16, math.Inf(1)))), "at most 6.25e+98"},
	} {
		if !errors.Is(c.err, aggregators.ErrParam) || !strings.Contains(c.err.Error(), c.names) {
			t.Errorf("%s: error %v, want ErrParam naming %q", c.name, c.err, c.names)
		}
	}
	// The limits themselves are domains whose samples lie in them.
	rnd := rand.New(rand.NewSource(3))
	var doms []Domain
	for _, mk := range []func() (Domain, error){
		func() (Domain, error) { return NewBox(0, 1e-100) },
		func() (Domain, error) { return NewBox(1, 1+0x1p-23) },
		func() (Domain, error) { return NewBox(-1e100, 1e100) },
		func() (Domain, error) { return NewOrthant(1e-100) },
		func() (Domain, error) { return NewOrthant(aggregators.MaxInput / 16) },
		func() (Domain, error) { return NewSimplex(1e-100) },
		func() (Domain, error) { return NewSimplex(1e100) },
	} {
		d, err := mk()
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		doms = append(doms, d)
	}
	for _, d := range doms {
		_, _, scale := d.bounds()
		seen := map[float64]bool{}
		for k := 0; k < 20; k++ {
			x, y := RandomMajorizedPair(rnd, 3, d)
			if !d.Contains(x, 1e-12*scale) || !d.Contains(y, 1e-12*scale) {
				t.Fatalf("%v: pair %v, %v outside the domain", d, x, y)
			}
			seen[x[0]] = true
		}
		if len(seen) < 10 {
			t.Errorf("%v: 20 samples take only %d values in a coordinate", d, len(seen))
		}
	}
}
