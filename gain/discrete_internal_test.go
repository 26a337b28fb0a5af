package gain

import (
	"testing"

	"github.com/hetgain/hetgain/aggregators"
)

// TestDiscCount checks that discCount predicts the number of count vectors
// the enumeration visits, and known partition numbers.
func TestDiscCount(t *testing.T) {
	ops := []aggregators.Operator{aggregators.Max{}, aggregators.Mean{}, aggregators.Max{}, aggregators.Softmax{T: 1}, aggregators.Mean{}, aggregators.Max{}}
	for n := 1; n <= 12; n++ {
		for m := 1; m <= 6; m++ {
			for _, r := range []*aggregators.Reward{
				aggregators.NewReward(aggregators.Sum{}, aggregators.Min{}),
				aggregators.NewReward(aggregators.Sum{}, ops[:m]...),
			} {
				s := discNewSearch(r, n, m, 1, 0, 1)
				s.run()
				if c := discCount(s.groups, n); c != float64(s.leaves) {
					t.Errorf("%v, N = %d, M = %d: discCount %v, enumerated %d", r, n, m, c, s.leaves)
				}
			}
		}
	}
	// Partitions of 64 into at most 8 parts; compositions of 64 into 8
	// parts (C(71, 7)) when every task has its own operator.
	shared := discGroupsOf(aggregators.NewReward(aggregators.Sum{}, aggregators.Min{}), 8)
	if c := discCount(shared, 64); c != 116263 {
		t.Errorf("p(64, <= 8 parts) = %v, want 116263", c)
	}
	distinct := make([]aggregators.Operator, 8)
	for j := range distinct {
		distinct[j] = aggregators.Softmax{T: float64(j)}
	}
	g := discGroupsOf(aggregators.NewReward(aggregators.Sum{}, distinct...), 8)
	if len(g.ops) != 8 {
		t.Fatalf("%d classes, want 8", len(g.ops))
	}
	if c := discCount(g, 64); c != 1329890705 {
		t.Errorf("compositions of 64 into 8 parts: %v, want 1329890705", c)
	}
	// Operators holding functions never share a class.
	f := aggregators.SumForm{Name: "x", G: func(x float64) float64 { return x }}
	if g := discGroupsOf(aggregators.NewReward(aggregators.Sum{}, f, f), 2); len(g.ops) != 2 {
		t.Errorf("SumForm tasks grouped: %d classes", len(g.ops))
	}
}
