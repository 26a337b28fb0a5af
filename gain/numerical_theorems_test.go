package gain_test

import (
	"fmt"
	"math"
	"math/rand"
	"testing"

	"github.com/hetgain/hetgain/aggregators"
	"github.com/hetgain/hetgain/gain"
	"gonum.org/v1/gonum/mat"
)

// columnMeanRow returns the homogeneous allocation of Theorem 3.2's proof
// for a: every row is the row of a's column means.
func columnMeanRow(a mat.Matrix) *mat.Dense {
	n, m := a.Dims()
	c := make([]float64, m)
	for j := range c {
		s := 0.0
		for i := 0; i < n; i++ {
			s += a.At(i, j)
		}
		c[j] = s / float64(n)
	}
	return replicateRow(c, n)
}

// levels returns the reward sum∘[level(L_1) ... level(L_M)].
func levels(ls ...float64) *aggregators.Reward {
	inner := make([]aggregators.Operator, len(ls))
	for j, l := range ls {
		inner[j] = aggregators.LevelThreshold{L: l}
	}
	return aggregators.NewReward(aggregators.Sum{}, inner...)
}

// randomThresholdReward returns U∘[T_1 ... T_M] with U in {sum, min,
// powersum(0.5)} and every T_j a random level threshold or Blotto field: T_j
// depends on the column sum only, so Theorem 3.2 gives ΔR = 0.
func randomThresholdReward(rnd *rand.Rand, n, m int) *aggregators.Reward {
	inner := make([]aggregators.Operator, m)
	blotto := rnd.Intn(2) == 0
	for j := range inner {
		if !blotto {
			inner[j] = aggregators.LevelThreshold{L: 0.2 + rnd.Float64()*float64(n)*0.7}
			continue
		}
		k := 1 + rnd.Intn(3)
		troops, probs := make([]float64, k), make([]float64, k)
		sum := 0.0
		for i := range troops {
			troops[i] = rnd.Float64() * float64(n) * 0.8
			probs[i] = rnd.Float64() + 0.1
			sum += probs[i]
		}
		for i := range probs {
			probs[i] /= sum
		}
		f, err := aggregators.NewBlottoField(0.5+rnd.Float64(), troops, probs)
		if err != nil {
			panic(err)
		}
		inner[j] = f
	}
	outer := []aggregators.Operator{aggregators.Sum{}, aggregators.Min{}, aggregators.PowerSum{T: 0.5}}[rnd.Intn(3)]
	return aggregators.NewReward(outer, inner...)
}

// TestNumericalTheorem32 checks Numerical and Hom against Theorem 3.2 on
// rewards whose every T_j is Schur-concave or depends on the column sum
// only (level thresholds, Blotto fields), where ΔR = 0 and the homogeneous
// optimum is often a single row that no candidate or ascent reaches: R_hom
// is at least the reward of the homogeneous allocation with the column sums
// of HetAlloc (the construction of the proof), and ΔR = 0 up to rounding.
// Before Numerical applied the construction it returned, for instance,
// R_het = 3 and R_hom = 2 for sum∘[level(2) level(1)], N = 3, M = 2.
func TestNumericalTheorem32(t *testing.T) {
	t.Parallel()
	type tcase struct {
		r    *aggregators.Reward
		n, m int
		want float64 // the optimum where known, else NaN
	}
	cases := []tcase{
		{levels(2, 1), 3, 2, 3},
		{levels(1.77, 0.94, 1.05, 0.87), 3, 4, 1.77 + 0.94},
		{aggregators.NewReward(aggregators.Min{}, aggregators.LevelThreshold{L: 1.4},
			aggregators.PowerMean{T: -1}, aggregators.PowerSum{T: 0.3}), 4, 3, math.NaN()},
	}
	rnd := rand.New(rand.NewSource(4))
	for k := 0; k < 40; k++ {
		n, m := 1+rnd.Intn(4), 2+rnd.Intn(3)
		cases = append(cases, tcase{randomThresholdReward(rnd, n, m), n, m, math.NaN()})
	}
	for _, c := range cases {
		name := fmt.Sprintf("%v, N = %d, M = %d", c.r, c.n, c.m)
		g := numMust(t, c.r, c.n, c.m, gain.Continuous, nil)
		numCheckGains(t, c.r, g, c.n, c.m, gain.Continuous, numUnit)
		tie := 1e-12 * math.Max(1, math.Abs(g.Het))
		means := reward(t, c.r, columnMeanRow(g.HetAlloc))
		if g.Hom < means-tie || g.Delta > tie {
			t.Errorf("%s: Het %v, Hom %v; the column means of HetAlloc give R_hom >= %v\n%v",
				name, g.Het, g.Hom, means, mat.Formatted(g.HetAlloc))
		}
		if !math.IsNaN(c.want) && (!closeTo(g.Het, c.want, 1e-12) || !closeTo(g.Hom, c.want, 1e-12)) {
			t.Errorf("%s: Het %v, Hom %v, want both %v", name, g.Het, g.Hom, c.want)
		}
		hom, err := gain.Hom(c.r, c.n, c.m, nil)
		if err != nil || hom.Value != g.Hom {
			t.Errorf("%s: Hom gives %v (%v), Numerical %v", name, hom.Value, err, g.Hom)
		}
	}
}

// theorem31Alloc returns the allocation of Theorem 3.1's proof for the
// homogeneous row c of n agents (unit budget): the same column sums, with
// ⌊n·c_j⌋ agents entirely on task j and the fractional remainders poured,
// task after task, into the other agents, one unit budget at a time.
func theorem31Alloc(c []float64, n int) *mat.Dense {
	m := len(c)
	a := mat.NewDense(n, m, nil)
	agent, room := 0, 1.0
	frac := make([]float64, m)
	for j, v := range c {
		whole := math.Floor(float64(n) * v)
		for k := 0.0; k < whole && agent < n; k++ {
			a.Set(agent, j, 1)
			agent++
		}
		frac[j] = float64(n)*v - whole
	}
	for j := 0; j < m && agent < n; j++ {
		for f := frac[j]; f > 0 && agent < n; {
			put := math.Min(f, room)
			a.Set(agent, j, a.At(agent, j)+put)
			f, room = f-put, room-put
			if room <= 0 {
				agent, room = agent+1, 1
			}
		}
	}
	return a
}

// TestNumericalTheorem31 checks Numerical where T is strictly Schur-convex
// and U = min (or softmax(-2)): R_het is at least the reward of the
// allocation that the proof of Theorem 3.1 builds from the homogeneous
// optimum, and of the allocations given (found by other searches), and a
// compass search from HetAlloc improves it by at most the case's kink
// tolerance. The first-order ascent alone ends at vertices such as
// [[1 0][1 0][0 1]], where the derivative of powersum(3) on the empty task
// is 0: Numerical returned R_het = 1 for min∘powersum(3), N = 3, M = 2,
// where [[1 0][0 1][.5 .5]] gives 1.125. The last three cases need the
// non-local moves too.
func TestNumericalTheorem31(t *testing.T) {
	t.Parallel()
	spread := []float64{1, 0, 0, 1, 0.5, 0.5}
	cases := []struct {
		r     *aggregators.Reward
		n, m  int
		alloc []float64 // an allocation whose reward R_het must reach
		// kink is how much a compass search may improve R_het: 1e-9, or
		// 1e-4 where the optimum is a kink of min between several tasks
		// that the ascent approaches only to the bias of its last
		// smoothing stage (see Numerical).
		kink float64
	}{
		{aggregators.NewReward(aggregators.Min{}, aggregators.PowerSum{T: 3}), 3, 2, spread, 1e-9},
		{aggregators.NewReward(aggregators.Min{}, aggregators.PowerMean{T: 3}), 3, 2, spread, 1e-9},
		{aggregators.NewReward(aggregators.Min{}, aggregators.LogSumExp{T: 3}), 3, 2, spread, 1e-9},
		{aggregators.NewReward(aggregators.Min{}, aggregators.PowerSum{T: 3}), 5, 3,
			[]float64{1, 0, 0, 0, 1, 0, 0, 0, 1, 0.5, 0.5, 0, 0, 0.5, 0.5}, 1e-9},
		{aggregators.NewReward(aggregators.Min{}, aggregators.PowerSum{T: 2}), 4, 3,
			[]float64{1, 0, 0, 0, 1, 0, 0, 0, 1, 1.0 / 3, 1.0 / 3, 1.0 / 3}, 1e-9},
		// Optima that the ascent reaches from Theorem 3.1's allocation
		// only after non-local moves.
		{aggregators.NewReward(aggregators.Min{}, aggregators.Softmax{T: 2}), 5, 3,
			[]float64{1, 0, 0, 0, 1, 0, 0, 0, 1, 0.54, 0.46, 0, 0, 0.46, 0.54}, 1e-4},
		{aggregators.NewReward(aggregators.Min{}, aggregators.LogSumExp{T: 3}), 5, 3,
			[]float64{1, 0, 0, 0, 1, 0, 0, 0, 1, 0.59, 0.41, 0, 0, 0.41, 0.59}, 1e-4},
		{aggregators.NewReward(aggregators.Softmax{T: -2}, aggregators.PowerSum{T: 3}), 5, 3,
			[]float64{0, 1, 0, 1, 0, 0, 0, 0.12, 0.88, 0.88, 0.12, 0, 0, 0, 1}, 1e-9},
	}
	for _, c := range cases {
		name := fmt.Sprintf("%v, N = %d, M = %d", c.r, c.n, c.m)
		g := numMust(t, c.r, c.n, c.m, gain.Continuous, nil)
		numCheckGains(t, c.r, g, c.n, c.m, gain.Continuous, numUnit)
		proof := reward(t, c.r, theorem31Alloc(g.HomRow.RawRowView(0), c.n))
		given := reward(t, c.r, mat.NewDense(c.n, c.m, c.alloc))
		compass := numCompass(t, c.r, g.HetAlloc)
		if g.Het < proof-1e-12 || g.Het < given-1e-12 || compass > g.Het+c.kink {
			t.Errorf("%s: Het %v; Theorem 3.1's allocation gives %v, the given one %v, a compass search %v\n%v",
				name, g.Het, proof, given, compass, mat.Formatted(g.HetAlloc))
		}
	}
}
