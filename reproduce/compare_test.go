package reproduce

import (
	"fmt"
	"math"
	"math/bits"
	"reflect"
	"testing"

	"github.com/hetgain/hetgain/learn"
)

// TestMcNemarPBruteForce counts, for every n up to 14, the sign patterns
// of n discordant pairs with at least onlyB favouring B, out of 2^n.
func TestMcNemarPBruteForce(t *testing.T) {
	for n := 0; n <= 14; n++ {
		atLeast := make([]int, n+2) // atLeast[k]: patterns with >= k ones
		for pattern := 0; pattern < 1<<n; pattern++ {
			for k := 0; k <= bits.OnesCount(uint(pattern)); k++ {
				atLeast[k]++
			}
		}
		for onlyB := 0; onlyB <= n; onlyB++ {
			want := float64(atLeast[onlyB]) / float64(int(1)<<n)
			if got := McNemarP(n-onlyB, onlyB); math.Abs(got-want) > 1e-13 {
				t.Errorf("McNemarP(%d, %d) = %v, want %v", n-onlyB, onlyB, got, want)
			}
		}
	}
}

// TestMcNemarPLarge checks counts where C(n, k) and 2^n overflow float64:
// P(X >= b) + P(X <= b-1) = 1, and P(X <= b-1) is McNemarP(b-1, a+1) by
// the symmetry of X about n/2; more discordant pairs for A raise p.
func TestMcNemarPLarge(t *testing.T) {
	for _, c := range [][2]int{{500, 500}, {1200, 1100}, {4000, 4100}, {9000, 1}, {1, 9000}, {3, 2000}} {
		a, b := c[0], c[1]
		p, q := McNemarP(a, b), McNemarP(b-1, a+1)
		if math.IsNaN(p) || math.Abs(p+q-1) > 1e-9 {
			t.Errorf("McNemarP(%d, %d) = %v and McNemarP(%d, %d) = %v: sum %v, want 1", a, b, p, b-1, a+1, q, p+q)
		}
		if r := McNemarP(a+1, b); !(r >= p) {
			t.Errorf("McNemarP(%d, %d) = %v below McNemarP(%d, %d) = %v", a+1, b, r, a, b, p)
		}
	}
	if p := McNemarP(1000, 1000); math.Abs(p-0.5-0.5*0.017839) > 1e-5 { // P(X = 1000) = 0.017839 for n = 2000
		t.Errorf("McNemarP(1000, 1000) = %v, want 0.5 + P(X = n/2)/2", p)
	}
	defer func() {
		if recover() == nil {
			t.Error("McNemarP(-1, 2) did not panic")
		}
	}()
	McNemarP(-1, 2)
}

// compareRun is a softmax run of 10 iterations whose outcome is as
// expected (τ_T 0 → 1, τ_U 0 → −1, the gain 0 → 1) or not (θ the other
// way).
func compareRun(setting string, seed int, asExpected bool) HetGPSRun {
	return compareRunGain(setting, seed, asExpected, 1)
}

// compareRunGain is compareRun with the gain rising from 0 to end, the
// gain its outcome ends at.
func compareRunGain(setting string, seed int, asExpected bool, end float64) HetGPSRun {
	thetaEnd := []float64{-1, 1}
	if asExpected {
		thetaEnd = []float64{1, -1}
	}
	run := HetGPSRun{Setting: setting, Seed: seed, Names: []string{"T.t", "U.t"}, Init: []float64{0, 0}}
	for k := 0; k < 10; k++ {
		theta := []float64{thetaEnd[0] * float64(k) / 9, thetaEnd[1] * float64(k) / 9}
		run.Log = append(run.Log, learn.HetGPSStats{Theta: theta, GradGain: end * float64(k) / 9})
	}
	return run
}

// TestCompareHetGPS pairs made-up runs whose outcomes and gains are
// known: in matrix2, seeds 1 to 7 under both and seed 8 under B only;
// matrix4 under B only, which has no pairs. Seed k ends at a gain of k
// under A and k + d_k under B, d = (−0.15, −0.05, 0, 0.1, 0.2, 0.3,
// 0.4): ranked by size, the 6 non-zero differences give B the ranks 2, 4,
// 5 and 6, W+ = 17.
func TestCompareHetGPS(t *testing.T) {
	e := hetgpsTiny(8, 10)
	a, b := &HetGPSResults{Experiment: e}, &HetGPSResults{Experiment: e}
	yesA, yesB := map[int]bool{1: true, 2: true, 3: true, 5: true}, map[int]bool{2: true, 3: true, 4: true, 6: true, 8: true}
	gainB := func(seed int) float64 {
		return float64(seed) + []float64{-0.15, -0.05, 0, 0.1, 0.2, 0.3, 0.4, 0}[seed-1]
	}
	for seed := 7; seed >= 1; seed-- { // out of order: the seeds come back sorted
		a.Runs = append(a.Runs, compareRunGain("matrix2", seed, yesA[seed], float64(seed)))
	}
	for seed := 1; seed <= 8; seed++ {
		b.Runs = append(b.Runs, compareRunGain("matrix2", seed, yesB[seed], gainB(seed)), compareRun("matrix4", seed, true))
	}
	for _, o := range a.Outcomes() {
		if o.AsExpected != yesA[o.Seed] {
			t.Fatalf("made-up run %s/seed%d: as expected %v, want %v", o.Setting, o.Seed, o.AsExpected, yesA[o.Seed])
		}
	}
	got := CompareHetGPS(a, b)
	want := []HetGPSComparison{{Setting: "matrix2", Seeds: []int{1, 2, 3, 4, 5, 6, 7}, Unpaired: 1, Both: 2, Neither: 1,
		OnlyA: []int{1, 5}, OnlyB: []int{4, 6}, P: 11.0 / 16}}
	for seed := 1; seed <= 7; seed++ {
		want[0].GainA = append(want[0].GainA, float64(seed))
		want[0].GainB = append(want[0].GainB, gainB(seed))
	}
	if len(got) != 1 || math.Abs(got[0].P-want[0].P) > 1e-15 {
		t.Fatalf("CompareHetGPS = %+v, want %+v", got, want)
	}
	// Of the 2^6 subsets of the ranks 1 to 6 (sum 21), those of a sum of at
	// least 17 are the complements of the 7 with a sum of at most 4: {},
	// {1}, {2}, {3}, {4}, {1, 2} and {1, 3}.
	gain := got[0].Gain
	if gain.N != 6 || gain.Zeros != 1 || gain.WPlus != 17 || math.Abs(gain.Greater-7.0/64) > 1e-15 {
		t.Errorf("CompareHetGPS: gain test %+v, want N 6, 1 zero, W+ 17, p 7/64", gain)
	}
	if p := got[0].Paired(); p.Name() != "matrix2" || !reflect.DeepEqual(p.Seeds, got[0].Seeds) || p.Test != gain ||
		!reflect.DeepEqual(p.GainA, got[0].GainA) || !reflect.DeepEqual(p.GainB, got[0].GainB) {
		t.Errorf("Paired() = %+v", p)
	}
	got[0].P, got[0].Gain = want[0].P, SignedRank{}
	for i := range got[0].GainA {
		if math.Abs(got[0].GainA[i]-want[0].GainA[i]) > 1e-12 || math.Abs(got[0].GainB[i]-want[0].GainB[i]) > 1e-12 {
			t.Fatalf("CompareHetGPS: gains %v and %v, want %v and %v", got[0].GainA, got[0].GainB, want[0].GainA, want[0].GainB)
		}
	}
	got[0].GainA, got[0].GainB = want[0].GainA, want[0].GainB
	if !reflect.DeepEqual(got, want) {
		t.Errorf("CompareHetGPS = %+v, want %+v", got, want)
	}
	// The other way round, A's and B's seeds swap and p is that of A.
	back := CompareHetGPS(b, a)
	if len(back) != 1 || !reflect.DeepEqual(back[0].OnlyA, want[0].OnlyB) || !reflect.DeepEqual(back[0].OnlyB, want[0].OnlyA) {
		t.Errorf("CompareHetGPS(b, a) = %+v", back)
	}
}

// This is session 40's test of the reference's clamp in Multi-goal-capture:
// of 18 seeds, 5 ended as the paper with the clamp only and 1 without it
// only.
func ExampleMcNemarP() {
	fmt.Printf("p = %.6f (7/64 = %.6f)\n", McNemarP(1, 5), 7.0/64)
	// Output:
	// p = 0.109375 (7/64 = 0.109375)
}

// FuzzMcNemarP checks that p is a probability and that the two tails of
// the same binomial add to 1, for any counts up to 20,000.
func FuzzMcNemarP(f *testing.F) {
	f.Add(uint16(1), uint16(5))
	f.Add(uint16(0), uint16(0))
	f.Add(uint16(20000), uint16(3))
	f.Fuzz(func(t *testing.T, a, b uint16) {
		onlyA, onlyB := int(a%20001), int(b%20001)
		p := McNemarP(onlyA, onlyB)
		if !(p >= 0 && p <= 1) {
			t.Fatalf("McNemarP(%d, %d) = %v, not a probability", onlyA, onlyB, p)
		}
		if onlyB >= 1 {
			if q := McNemarP(onlyB-1, onlyA+1); math.Abs(p+q-1) > 1e-9 {
				t.Fatalf("McNemarP(%d, %d) + McNemarP(%d, %d) = %v, want 1", onlyA, onlyB, onlyB-1, onlyA+1, p+q)
			}
		}
	})
}
