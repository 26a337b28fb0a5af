package reproduce

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand"
	"sort"
	"strings"
	"testing"
)

// bruteSignedRank ranks the absolute values of the non-zero entries of d
// by counting (midranks for ties) and enumerates all 2^n signs of them.
func bruteSignedRank(d []float64) (n int, wPlus, greater, less float64) {
	var abs []float64
	var positive []bool
	for _, x := range d {
		if x != 0 {
			abs = append(abs, math.Abs(x))
			positive = append(positive, x > 0)
		}
	}
	n = len(abs)
	rank := make([]float64, n)
	for i := range abs {
		below, equal := 0, 0
		for j := range abs {
			switch {
			case abs[j] < abs[i]:
				below++
			case abs[j] == abs[i]:
				equal++
			}
		}
		rank[i] = float64(below) + float64(equal+1)/2
		if positive[i] {
			wPlus += rank[i]
		}
	}
	atLeast, atMost := 0, 0
	for pattern := 0; pattern < 1<<n; pattern++ {
		w := 0.0
		for i := range rank {
			if pattern&(1<<i) != 0 {
				w += rank[i]
			}
		}
		if w >= wPlus-1e-9 {
			atLeast++
		}
		if w <= wPlus+1e-9 {
			atMost++
		}
	}
	return n, wPlus, float64(atLeast) / float64(int(1)<<n), float64(atMost) / float64(int(1)<<n)
}

// TestSignedRankBruteForce compares SignedRankTest with the enumeration
// of every sign pattern, on random differences with zeros and many ties
// (drawn from a few values) and on differences with none.
func TestSignedRankBruteForce(t *testing.T) {
	rnd := rand.New(rand.NewSource(1))
	for trial := 0; trial < 400; trial++ {
		d := make([]float64, rnd.Intn(15))
		for i := range d {
			if trial%2 == 0 {
				d[i] = float64(rnd.Intn(7) - 3) // zeros and ties
			} else {
				d[i] = rnd.NormFloat64()
			}
		}
		got, err := SignedRankTest(d)
		if err != nil {
			t.Fatalf("SignedRankTest(%v): %v", d, err)
		}
		n, w, greater, less := bruteSignedRank(d)
		if got.N != n || got.Zeros != len(d)-n || got.WPlus != w || !got.Exact {
			t.Errorf("SignedRankTest(%v) = %+v, want N %d, zeros %d, W+ %v, exact", d, got, n, len(d)-n, w)
		}
		if n == 0 {
			greater, less = 1, 1
		}
		if math.Abs(got.Greater-greater) > 1e-13 || math.Abs(got.Less-less) > 1e-13 {
			t.Errorf("SignedRankTest(%v): p greater %v, less %v; by enumeration %v, %v", d, got.Greater, got.Less, greater, less)
		}
	}
}

// TestSignedRankSymmetry checks that negating the differences swaps the
// two p-values, that scaling them by a positive factor changes nothing,
// and that the two tails overlap in exactly P(W = W+), so that they sum
// to more than 1.
func TestSignedRankSymmetry(t *testing.T) {
	rnd := rand.New(rand.NewSource(2))
	for trial := 0; trial < 50; trial++ {
		d := make([]float64, 1+rnd.Intn(60))
		neg, scaled := make([]float64, len(d)), make([]float64, len(d))
		for i := range d {
			d[i] = float64(rnd.Intn(41)-15) / 4
			neg[i], scaled[i] = -d[i], 8*d[i]
		}
		p, _ := SignedRankTest(d)
		q, _ := SignedRankTest(neg)
		s, _ := SignedRankTest(scaled)
		if math.Abs(p.Greater-q.Less) > 1e-12 || math.Abs(p.Less-q.Greater) > 1e-12 {
			t.Errorf("%v: p %+v, negated %+v", d, p, q)
		}
		if s != p {
			t.Errorf("%v: p %+v, scaled by 8 %+v", d, p, s)
		}
		if p.N > 0 && !(p.Greater+p.Less > 1) {
			t.Errorf("%v: the tails sum to %v, want above 1", d, p.Greater+p.Less)
		}
	}
}

// TestSignedRankNormal compares the normal approximation with the exact
// p-values at N = 300, with ties and without, for samples near and far
// from the null.
func TestSignedRankNormal(t *testing.T) {
	rnd := rand.New(rand.NewSource(3))
	for _, shift := range []float64{0, 0.05, 0.15} {
		for _, tied := range []bool{false, true} {
			d := make([]float64, 300)
			for i := range d {
				d[i] = rnd.NormFloat64() + shift
				if tied {
					d[i] = math.Round(4 * d[i])
				}
			}
			exact, _ := SignedRankTest(d)
			var nonzero []float64
			for _, x := range d {
				if x != 0 {
					nonzero = append(nonzero, x)
				}
			}
			_, ties := doubledMidranks(nonzero)
			greater, less := signedRankNormal(exact.N, ties, exact.WPlus)
			if math.Abs(greater-exact.Greater) > 2e-3 || math.Abs(less-exact.Less) > 2e-3 {
				t.Errorf("shift %v, ties %v: normal %v, %v; exact %v, %v", shift, tied, greater, less, exact.Greater, exact.Less)
			}
		}
	}
	// Above MaxExactSignedRank the test switches to the approximation.
	d := make([]float64, MaxExactSignedRank+1)
	for i := range d {
		d[i] = float64(i + 1)
	}
	got, _ := SignedRankTest(d)
	if got.Exact || got.Greater > 1e-20 || got.Less != 1 {
		t.Errorf("%d positive differences: %+v", len(d), got)
	}
}

// TestSignedRankErrors checks that NaN and infinite differences are
// refused by position, and an empty sample has p-values of 1.
func TestSignedRankErrors(t *testing.T) {
	for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		_, err := SignedRankTest([]float64{1, bad})
		if err == nil || !strings.Contains(err.Error(), "difference 1 is") {
			t.Errorf("SignedRankTest([1 %v]): error %v", bad, err)
		}
	}
	got, err := SignedRankTest(nil)
	if err != nil || got != (SignedRank{Greater: 1, Less: 1, Exact: true}) {
		t.Errorf("SignedRankTest(nil) = %+v, %v", got, err)
	}
}

// FuzzSignedRankTest checks, for any differences, that the test refuses
// exactly the samples with NaN or infinities and otherwise gives
// probabilities that do not depend on the order of the differences.
func FuzzSignedRankTest(f *testing.F) {
	f.Add([]byte{})
	f.Add(binary.LittleEndian.AppendUint64(nil, math.Float64bits(math.NaN())))
	f.Add(binary.LittleEndian.AppendUint64(binary.LittleEndian.AppendUint64(nil, math.Float64bits(-2)), math.Float64bits(3)))
	f.Fuzz(func(t *testing.T, raw []byte) {
		var d []float64
		finite := true
		for len(raw) >= 8 && len(d) < 2*MaxExactSignedRank {
			x := math.Float64frombits(binary.LittleEndian.Uint64(raw))
			finite = finite && !math.IsNaN(x) && !math.IsInf(x, 0)
			d, raw = append(d, x), raw[8:]
		}
		got, err := SignedRankTest(d)
		if (err == nil) != finite {
			t.Fatalf("SignedRankTest(%v): error %v", d, err)
		}
		if err != nil {
			return
		}
		if !(got.Greater >= 0 && got.Greater <= 1 && got.Less >= 0 && got.Less <= 1) {
			t.Fatalf("SignedRankTest(%v) = %+v: not probabilities", d, got)
		}
		sort.Float64s(d)
		if sorted, _ := SignedRankTest(d); sorted != got {
			t.Fatalf("SignedRankTest: %+v, and %+v with the differences sorted", got, sorted)
		}
	})
}

// Five seeds, all better under B: each of the 32 sign patterns is as
// likely under the null, and only one has every rank positive.
func ExampleSignedRankTest() {
	gainA := []float64{0.21, 0.35, 0.10, 0.42, 0.30}
	gainB := []float64{0.50, 0.41, 0.12, 0.80, 0.31}
	d := make([]float64, len(gainA))
	for i := range d {
		d[i] = gainB[i] - gainA[i]
	}
	r, err := SignedRankTest(d)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("N %d, W+ %v: B higher p = %.5f, A higher p = %v\n", r.N, r.WPlus, r.Greater, r.Less)
	// Output:
	// N 5, W+ 15: B higher p = 0.03125, A higher p = 1
}

// BenchmarkSignedRankTest times the test on n distinct differences: the
// exact distribution costs about n³/3 multiply-adds, so n = MaxExactSignedRank
// is its dearest case (about 36 ms on this machine's cores; 46 µs at one
// more, by the normal approximation).
func BenchmarkSignedRankTest(b *testing.B) {
	for _, n := range []int{18, 100, MaxExactSignedRank, MaxExactSignedRank + 1} {
		rnd := rand.New(rand.NewSource(1))
		d := make([]float64, n)
		for i := range d {
			d[i] = rnd.NormFloat64() + 0.1
		}
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := SignedRankTest(d); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
