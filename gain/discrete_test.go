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

// discBrute returns the best reward over all M^N assignments of agents to
// single tasks, and over the homogeneous ones (every agent on one task).
func discBrute(tb testing.TB, r *aggregators.Reward, n, m int) (het, hom float64) {
	a := mat.NewDense(n, m, nil)
	pick := make([]int, n)
	het, hom = math.Inf(-1), math.Inf(-1)
	for {
		a.Zero()
		same := true
		for i, j := range pick {
			a.Set(i, j, 1)
			same = same && j == pick[0]
		}
		v := reward(tb, r, a)
		het = math.Max(het, v)
		if same {
			hom = math.Max(hom, v)
		}
		i := 0
		for ; i < n && pick[i] == m-1; i++ {
			pick[i] = 0
		}
		if i == n {
			return het, hom
		}
		pick[i]++
	}
}

// discRewards returns the rewards tested for m tasks: shared inner
// operators, and per-task ones (distinct, and with repeats).
func discRewards(m int) []*aggregators.Reward {
	rs := []*aggregators.Reward{
		softmaxReward(3, -2),
		aggregators.NewReward(aggregators.Min{}, aggregators.Softmax{T: 2}),
		aggregators.NewReward(aggregators.PowerSum{T: 0.5}, aggregators.PowerSum{T: 2}),
		aggregators.NewReward(aggregators.Mean{}, aggregators.Max{}),
		aggregators.NewReward(aggregators.LogSumExp{T: -3}, aggregators.PowerMean{T: 2}),
		aggregators.NewReward(aggregators.Sum{}, aggregators.LevelThreshold{L: 2}),
	}
	distinct := []aggregators.Operator{aggregators.Max{}, aggregators.Mean{}, aggregators.Softmax{T: 4},
		aggregators.PowerMean{T: 2}, aggregators.LevelThreshold{L: 2}}
	repeats := []aggregators.Operator{aggregators.Max{}, aggregators.Mean{}, aggregators.Max{},
		aggregators.Softmax{T: 4}, aggregators.Mean{}}
	for _, u := range []aggregators.Operator{aggregators.Softmax{T: -1}, aggregators.Min{}, aggregators.PowerSum{T: 0.5}} {
		rs = append(rs, aggregators.NewReward(u, distinct[:m]...), aggregators.NewReward(u, repeats[:m]...))
	}
	return rs
}

// TestDiscreteBruteForce compares the discrete optima with enumeration of
// all M^N assignments, for N, M <= 5, shared and per-task inner operators.
// Agents are placed in a different order by the two, so the rewards may
// differ by rounding.
func TestDiscreteBruteForce(t *testing.T) {
	t.Parallel()
	for n := 1; n <= 5; n++ {
		for m := 1; m <= 5; m++ {
			for _, r := range discRewards(m) {
				g := numMust(t, r, n, m, gain.Discrete, nil)
				het, hom := discBrute(t, r, n, m)
				if !closeTo(g.Het, het, exact) || !closeTo(g.Hom, hom, exact) {
					t.Errorf("%v, N = %d, M = %d: Het %v, Hom %v; brute force %v, %v", r, n, m, g.Het, g.Hom, het, hom)
				}
				numCheckGains(t, r, g, n, m, gain.Discrete, numUnit)
			}
		}
	}
}

// TestDiscreteLarge checks N = 64 agents over M = 8 tasks: the closed
// forms for {min, mean, max}², and for a softmax reward that no random
// assignment beats the optimum and that it equals the best over the
// partitions of N computed here directly.
func TestDiscreteLarge(t *testing.T) {
	t.Parallel()
	for _, u := range extremes {
		for _, op := range extremes {
			r := aggregators.NewReward(u, op)
			g := numMust(t, r, 64, 8, gain.Discrete, nil)
			cf, err := gain.ClosedForm(u, op, 64, 8, gain.Discrete)
			if err != nil {
				t.Fatal(err)
			}
			if !closeTo(g.Het, cf.Het, exact) || !closeTo(g.Hom, cf.Hom, exact) {
				t.Errorf("%v: Het %v, Hom %v; closed form %v, %v", r, g.Het, g.Hom, cf.Het, cf.Hom)
			}
			numCheckGains(t, r, g, 64, 8, gain.Discrete, numUnit)
		}
	}

	r := softmaxReward(3, -2)
	g := numMust(t, r, 64, 8, gain.Discrete, nil)
	numCheckGains(t, r, g, 64, 8, gain.Discrete, numUnit)
	rnd := rand.New(rand.NewSource(8))
	a := mat.NewDense(64, 8, nil)
	for trial := 0; trial < 300; trial++ {
		a.Zero()
		for i := 0; i < 64; i++ {
			a.Set(i, rnd.Intn(8), 1)
		}
		if v := reward(t, r, a); v > g.Het+exact {
			t.Fatalf("%v: a random assignment has R = %v > Het = %v", r, v, g.Het)
		}
	}

	// Partitions of 20 into at most 6 parts, evaluated through Reward.
	const n, m = 20, 6
	g = numMust(t, r, n, m, gain.Discrete, nil)
	best, count := math.Inf(-1), 0
	parts := make([]int, 0, m)
	a = mat.NewDense(n, m, nil)
	var rec func(left, max int)
	rec = func(left, max int) {
		if left == 0 {
			a.Zero()
			agent := 0
			for j, c := range parts {
				for k := 0; k < c; k++ {
					a.Set(agent, j, 1)
					agent++
				}
			}
			best = math.Max(best, reward(t, r, a))
			count++
			return
		}
		if len(parts) == m {
			return
		}
		for c := 1; c <= left && c <= max; c++ {
			parts = append(parts, c)
			rec(left-c, c)
			parts = parts[:len(parts)-1]
		}
	}
	rec(n, n)
	if count != 282 { // p(20, <= 6 parts)
		t.Fatalf("enumerated %d partitions of 20 into at most 6 parts, want 282", count)
	}
	if !closeTo(g.Het, best, exact) {
		t.Errorf("%v, N = %d, M = %d: Het %v, best partition %v", r, n, m, g.Het, best)
	}
}

func ExampleNumerical_discrete() {
	// min∘mean: every task needs agents, and a task's score is the
	// share of agents on it. A homogeneous team leaves M − 1 tasks empty.
	r := aggregators.NewReward(aggregators.Min{}, aggregators.Mean{})
	g, err := gain.Numerical(r, 7, 3, gain.Discrete, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("R_het = %.4f, R_hom = %.4f, ΔR = %.4f\n", g.Het, g.Hom, g.Delta)
	counts := make([]float64, 3)
	for j := range counts {
		counts[j] = mat.Sum(g.HetAlloc.ColView(j))
	}
	fmt.Printf("agents per task: %v\n", counts)
	fmt.Printf("homogeneous row: %v\n", mat.Formatted(g.HomRow))
	// Output:
	// R_het = 0.2857, R_hom = 0.0000, ΔR = 0.2857
	// agents per task: [3 2 2]
	// homogeneous row: [1  0  0]
}
