package schur

import (
	"encoding/binary"
	"errors"
	"math"
	"math/big"
	"math/rand"
	"sort"
	"testing"

	"github.com/hetgain/hetgain/aggregators"
)

// decodeVectors splits data into x and y. With raw set the values are
// float64 bit patterns (NaN, Inf, huge and tiny values included); otherwise
// they are small multiples of 1/8, which tie often and sum exactly.
func decodeVectors(data []byte, split uint8, raw bool) (x, y []float64) {
	var vals []float64
	if raw {
		for ; len(data) >= 8; data = data[8:] {
			vals = append(vals, math.Float64frombits(binary.LittleEndian.Uint64(data)))
		}
	} else {
		for _, b := range data {
			vals = append(vals, float64(int8(b))/8)
		}
	}
	k := int(split) % (len(vals) + 1)
	return vals[:k], vals[k:]
}

// exactPartialSums returns the sums of the k largest values of x, k = 1..n,
// in exact arithmetic.
func exactPartialSums(x []float64) []*big.Float {
	s := append([]float64(nil), x...)
	sort.Float64s(s)
	out := make([]*big.Float, len(s))
	acc := new(big.Float).SetPrec(2200)
	for k := range s {
		acc.Add(acc, new(big.Float).SetPrec(2200).SetFloat64(s[len(s)-1-k]))
		out[k] = new(big.Float).SetPrec(2200).Set(acc)
	}
	return out
}

// inputError returns the sentinel that an invalid input should produce, or
// nil for a valid one.
func inputError(x, y []float64, tol float64) error {
	switch {
	case len(x) != len(y):
		return aggregators.ErrDimension
	case len(x) == 0:
		return aggregators.ErrEmpty
	}
	for _, v := range append(append([]float64(nil), x...), y...) {
		switch {
		case math.IsNaN(v):
			return aggregators.ErrNaN
		case math.IsInf(v, 0):
			return aggregators.ErrInf
		case math.Abs(v) > aggregators.MaxInput:
			return aggregators.ErrRange
		}
	}
	if !(tol >= 0) || math.IsInf(tol, 0) {
		return aggregators.ErrParam
	}
	return nil
}

func FuzzMajorizes(f *testing.F) {
	f.Add([]byte{24, 0, 0, 8, 8, 8}, uint8(3), false, 0.0)
	f.Add([]byte{8, 1, 0, 8, 0, 1}, uint8(3), false, 1e-12)
	f.Add([]byte{16, 16, 0, 24, 4, 4}, uint8(3), false, 0.0)
	f.Add([]byte{1, 2, 3}, uint8(1), false, -1.0)
	f.Add(make([]byte, 32), uint8(2), true, 0.0)
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0xf8, 0x7f, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f}, uint8(1), true, 0.5)
	f.Fuzz(func(t *testing.T, data []byte, split uint8, raw bool, tol float64) {
		x, y := decodeVectors(data, split, raw)
		ok, err := Majorizes(x, y, tol)
		sub, errSub := WeaklySubmajorizes(x, y, tol)
		_, errSuper := WeaklySupermajorizes(x, y, tol)
		if want := inputError(x, y, tol); want != nil {
			for _, e := range []error{err, errSub, errSuper} {
				if !errors.Is(e, want) {
					t.Fatalf("x = %v, y = %v, tol = %v: error %v, want %v", x, y, tol, e, want)
				}
			}
			return
		}
		if err != nil || errSub != nil || errSuper != nil {
			t.Fatalf("x = %v, y = %v, tol = %v: errors %v, %v, %v", x, y, tol, err, errSub, errSuper)
		}
		// Floating-point partial sums of n values err by at most
		// n·eps·sum|v|: answers within that slack of the tolerance are
		// accepted either way.
		n := len(x)
		slack := 4 * float64(n) * 0x1p-52 * (sumAbs(x) + sumAbs(y))
		// x ≻ y within tol implies x ≻_w y within tol and x ≻^w y within
		// 2·tol, as documented.
		super, _ := WeaklySupermajorizes(x, y, math.Min(2*tol+slack, math.MaxFloat64))
		if ok && !(sub && super) {
			t.Fatalf("x = %v ≻ y = %v but weak relations %v, %v", x, y, sub, super)
		}
		// Re-verify in exact arithmetic.
		px, py := exactPartialSums(x), exactPartialSums(y)
		exact := func(k int) float64 { // S_x(k) - S_y(k)
			d, _ := new(big.Float).SetPrec(2200).Sub(px[k], py[k]).Float64()
			return d
		}
		holds, fails := true, false // holds beyond the slack, fails beyond it
		for k := 0; k < n; k++ {
			d := exact(k)
			if k == n-1 {
				d = -math.Abs(d)
			}
			if d < -tol+slack {
				holds = false
			}
			if d < -tol-slack {
				fails = true
			}
		}
		if ok && fails {
			t.Fatalf("Majorizes(%v, %v, %v) = true but a partial sum or the total fails", x, y, tol)
		}
		if !ok && holds {
			t.Fatalf("Majorizes(%v, %v, %v) = false but every condition holds", x, y, tol)
		}
	})
}

func sumAbs(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += math.Abs(v)
	}
	return s
}

func FuzzTTransformPath(f *testing.F) {
	f.Add(int64(1), uint8(3), uint8(0), false)
	f.Add(int64(2), uint8(9), uint8(3), true)
	f.Add(int64(3), uint8(0), uint8(2), true)
	f.Fuzz(func(t *testing.T, seed int64, size, kind uint8, shuffle bool) {
		rnd := rand.New(rand.NewSource(seed))
		doms := testDomains(t)
		dom := doms[int(kind)%len(doms)]
		n := 1 + int(size)%16
		x, y := RandomMajorizedPair(rnd, n, dom)
		if shuffle {
			rnd.Shuffle(n, func(i, j int) { y[i], y[j] = y[j], y[i] })
		}
		path, err := TTransformPath(x, y, 0)
		if err != nil {
			t.Fatalf("TTransformPath(%v, %v): %v", x, y, err)
		}
		_, _, scale := dom.bounds()
		checkPath(t, x, y, path, 1e-12*math.Max(1, scale))
	})
}

// FuzzTTransformPathOffGrid is FuzzTTransformPath for vectors off Sample's
// binary grid, where rounding can leave a coordinate a few units in the
// last place past its target: y is x after random T-transforms with
// random λ.
func FuzzTTransformPathOffGrid(f *testing.F) {
	f.Add(int64(1), uint8(4), uint8(3))
	f.Add(int64(2), uint8(9), uint8(12))
	f.Fuzz(func(t *testing.T, seed int64, size, steps uint8) {
		rnd := rand.New(rand.NewSource(seed))
		n := 2 + int(size)%15
		x := make([]float64, n)
		for i := range x {
			x[i] = rnd.Float64()
		}
		y := append([]float64(nil), x...)
		for s := 0; s <= int(steps)%(2*n); s++ {
			RandomTTransform(rnd, n).Apply(y, y)
		}
		tol := 1e-13 * float64(n)
		path, err := TTransformPath(x, y, tol)
		if err != nil {
			t.Fatalf("TTransformPath(%v, %v, %g): %v", x, y, tol, err)
		}
		checkPath(t, x, y, path, 2*tol)
	})
}

// FuzzDomain checks the domain constructors and RandomMajorizedPair for
// any parameters: NewBox, NewOrthant and NewSimplex accept exactly the
// parameters their docs allow (others are ErrParam), and on every domain
// they accept a drawn pair has x ≻ y exactly (Majorizes with tolerance
// 0), equal sums in floating point, and both points in the domain (on a
// simplex up to a sum one grid spacing, 2^-39 of the total, below it).
func FuzzDomain(f *testing.F) {
	for _, s := range []struct {
		kind uint8
		a, b float64
		n    uint8
		seed int64
	}{
		{0, 0, 1, 3, 1}, {0, -1, 3, 5, 2}, {0, 1, 1, 2, 3}, {0, 1e100, -1e100, 2, 4}, {0, -1e100, 1e100, 4, 5},
		{0, 1, 1 + 0x1p-24, 3, 6}, {0, 1, 1 + 0x1p-25, 3, 7}, {0, 0, 1e-100, 2, 8}, {0, math.NaN(), 1, 2, 9},
		{1, 1, 0, 3, 10}, {1, 6.25e98, 0, 2, 11}, {1, 6.26e98, 0, 2, 12}, {1, 1e-100, 0, 4, 13}, {1, -1, 0, 2, 14},
		{2, 1, 0, 3, 15}, {2, 1.0 / 3, 0, 7, 16}, {2, 1e100, 0, 2, 17}, {2, 1e-100, 0, 16, 18}, {2, math.Inf(1), 0, 2, 19},
	} {
		f.Add(s.kind, s.a, s.b, s.n, s.seed)
	}
	f.Fuzz(func(t *testing.T, kind uint8, a, b float64, nb uint8, seed int64) {
		var dom Domain
		var err error
		var valid bool
		switch kind % 3 {
		case 0:
			dom, err = NewBox(a, b)
			w := b - a
			valid = math.Abs(a) <= aggregators.MaxInput && math.Abs(b) <= aggregators.MaxInput && a < b &&
				w >= 1e-100 && w >= 0x1p-24*math.Max(math.Abs(a), math.Abs(b))
		case 1:
			dom, err = NewOrthant(a)
			valid = a >= 1e-100 && a <= aggregators.MaxInput/16
		default:
			dom, err = NewSimplex(a)
			valid = a >= 1e-100 && a <= aggregators.MaxInput
		}
		if !valid {
			if !errors.Is(err, aggregators.ErrParam) {
				t.Fatalf("kind %d (%v, %v): err = %v, want ErrParam", kind%3, a, b, err)
			}
			return
		}
		if err != nil {
			t.Fatalf("kind %d (%v, %v): %v, want a domain", kind%3, a, b, err)
		}
		n := 1 + int(nb)%16
		x, y := RandomMajorizedPair(rand.New(rand.NewSource(seed)), n, dom)
		if ok, err := Majorizes(x, y, 0); err != nil || !ok {
			t.Fatalf("%v, n = %d: x = %v, y = %v: Majorizes = %v, %v; want x ≻ y", dom, n, x, y, ok, err)
		}
		if sx, sy := sum(x), sum(y); sx != sy {
			t.Fatalf("%v, n = %d: sums %v and %v differ", dom, n, sx, sy)
		}
		tol := 0.0
		if kind%3 == 2 {
			tol = 0x1p-39 * a
		}
		if !dom.Contains(x, tol) || !dom.Contains(y, tol) {
			t.Fatalf("%v, n = %d: x = %v or y = %v is outside the domain", dom, n, x, y)
		}
	})
}
