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
