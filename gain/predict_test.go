package gain_test

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/hetgain/hetgain/aggregators"
	"github.com/hetgain/hetgain/gain"
)

func TestPredictCases(t *testing.T) {
	type A = aggregators.Operator
	inf := math.Inf(1)
	neither := aggregators.SumForm{Name: "wiggle", G: math.Sin, Class: aggregators.Neither, Increasing: true}
	cases := []struct {
		u, t    A
		n, m    int
		sign    gain.Sign
		rule    string
		mention string
	}{
		{aggregators.Max{}, aggregators.Max{}, 1, 5, gain.Zero, "trivial case", "N = 1"},
		{aggregators.Min{}, aggregators.Max{}, 5, 1, gain.Zero, "trivial case", "M = 1"},
		{aggregators.Mean{}, aggregators.Min{}, 3, 3, gain.Zero, "Theorem 3.2", "Schur-concave"},
		{aggregators.Max{}, aggregators.Mean{}, 2, 2, gain.Zero, "Theorem 3.2", "Theorem 3.3 also applies"},
		{aggregators.Min{}, aggregators.Mean{}, 2, 2, gain.Zero, "Theorem 3.2", ""},
		{aggregators.Sum{}, aggregators.LevelThreshold{L: 2}, 4, 3, gain.Zero, "Theorem 3.2", ""},
		{aggregators.Sum{}, aggregators.BlottoField{V: 1, Troops: []float64{1}, Probs: []float64{1}}, 4, 3, gain.Zero, "Theorem 3.2", ""},
		{aggregators.PowerSum{T: 2}, aggregators.PowerMean{T: -1}, 3, 3, gain.Zero, "Theorem 3.2", ""},
		{aggregators.PowerSum{T: 2}, aggregators.LogSumExp{T: -1}, 3, 3, gain.Zero, "Theorem 3.2", ""},
		{aggregators.Min{}, aggregators.Max{}, 2, 2, gain.Undecided, "none", "not strictly increasing"},
		{aggregators.Mean{}, aggregators.Max{}, 2, 3, gain.PositiveUnlessTrivial, "Theorem 3.1", "no non-trivial"},
		{aggregators.Mean{}, aggregators.Max{}, 3, 3, gain.Undecided, "none", "Schur-convex on [0,1]^3, but not strictly"},
		{aggregators.PowerSum{T: 0.5}, aggregators.PowerSum{T: 2}, 3, 2, gain.Positive, "Corollary F.1", "sum form"},
		{aggregators.PowerSum{T: 0.5}, aggregators.PowerSum{T: 3}, 4, 2, gain.Positive, "Corollary F.1", ""},
		{aggregators.MeanPower{T: 0.3}, aggregators.MeanPower{T: 6}, 2, 2, gain.Positive, "Corollary F.1", "sum form"},
		{aggregators.MeanPower{T: 0.5}, aggregators.PowerSum{T: 2}, 3, 2, gain.Positive, "Corollary F.1", ""},
		{aggregators.MeanPower{T: 6}, aggregators.MeanPower{T: 0.3}, 2, 2, gain.Zero, "Theorem 3.2", "Schur-concave"},
		{aggregators.MeanPower{T: 2}, aggregators.MeanPower{T: 1}, 3, 3, gain.Zero, "Theorem 3.2", "Theorem 3.3 also applies"},
		{aggregators.Sum{}, aggregators.PowerSum{T: 2}, 2, 2, gain.PositiveUnlessTrivial, "Theorem 3.1", ""},
		{aggregators.Softmax{T: -1}, aggregators.Softmax{T: 1}, 3, 3, gain.Positive, "Theorem 3.1", "uniform over 3 tasks"},
		{aggregators.Softmax{T: 2}, aggregators.Softmax{T: 0.5}, 2, 2, gain.Undecided, "none", "|τ|"},
		{aggregators.Softmax{T: -1}, aggregators.Softmax{T: 1}, 2, 10, gain.Positive, "Theorem 3.1", "uniform over 10 tasks"},
		{aggregators.Softmax{T: 0.5}, aggregators.PowerSum{T: 2}, 2, 2, gain.PositiveUnlessTrivial, "Theorem 3.1", "[0, 2]^2"},
		{aggregators.Softmax{T: 0.6}, aggregators.PowerSum{T: 2}, 2, 2, gain.PositiveUnlessTrivial, "Theorem 3.1", "[0, 2]^2"}, // 1.2 <= 1.278
		{aggregators.Softmax{T: 0.65}, aggregators.PowerSum{T: 2}, 2, 2, gain.Undecided, "none", "[0, 2]^2 (|τ|·2 > 1.27846"},
		{aggregators.Softmax{T: 1.2}, aggregators.Max{}, 2, 2, gain.PositiveUnlessTrivial, "Theorem 3.1", ""},
		{aggregators.Softmax{T: 1.3}, aggregators.Max{}, 2, 2, gain.Undecided, "none", "not strictly increasing"},
		{aggregators.LogSumExp{T: 1}, aggregators.PowerMean{T: 2}, 2, 2, gain.PositiveUnlessTrivial, "Theorem 3.1", ""},
		{aggregators.PowerMean{T: 0.5}, aggregators.LogSumExp{T: 2}, 3, 4, gain.Positive, "Theorem 3.1", ""},
		{aggregators.Mean{}, aggregators.Softmax{T: 2.2}, 3, 3, gain.Undecided, "none", "no established Schur class"},
		{aggregators.Mean{}, aggregators.Softmax{T: 2}, 3, 3, gain.PositiveUnlessTrivial, "Theorem 3.1", ""},
		{aggregators.Mean{}, aggregators.Softmax{T: 3}, 3, 3, gain.Undecided, "none", "is neither on [0,1]^3"},
		{aggregators.Mean{}, aggregators.Softmax{T: inf}, 3, 3, gain.Undecided, "none", ""},
		{aggregators.Mean{}, neither, 3, 3, gain.Undecided, "none", "neither"},
		{aggregators.Max{}, aggregators.PowerSum{T: 2}, 3, 3, gain.Undecided, "none", "max is not strictly increasing"},
		{aggregators.Sum{}, aggregators.PowerSum{T: 2}, 1 << 21, 3, gain.PositiveUnlessTrivial, "Theorem 3.1", "no rewards were evaluated"},
		{aggregators.Sum{}, aggregators.PowerSum{T: 2}, 3, 1 << 21, gain.PositiveUnlessTrivial, "Theorem 3.1", "no rewards were evaluated"},
		// Above 2^20 agents the range of T's scores is not computed: a
		// softmax U is not known to increase on it (at N = 2^20 it does
		// not), unless T is softmax; Corollary F.1 still applies.
		{aggregators.Softmax{T: 0.5}, aggregators.PowerSum{T: 2}, 1<<20 + 1, 2, gain.Undecided, "none", "range is not computed"},
		{aggregators.Softmax{T: 0.5}, aggregators.Softmax{T: 1}, 1 << 21, 2, gain.PositiveUnlessTrivial, "Theorem 3.1", "[0, 1]^2"},
		{aggregators.Softmax{T: 2}, aggregators.Softmax{T: 1}, 1 << 21, 2, gain.Undecided, "none", "|τ|"},
		{aggregators.PowerSum{T: 0.5}, aggregators.PowerSum{T: 2}, 1 << 21, 2, gain.Positive, "Corollary F.1", "sum form"},
		{aggregators.PowerSum{T: 0.5}, aggregators.PowerSum{T: 2}, 3, 1 << 21, gain.Positive, "Corollary F.1", "sum form"},
		{aggregators.PowerSum{T: 2}, aggregators.Softmax{T: 0}, 3, 3, gain.Zero, "Theorem 3.2", "Theorem 3.3 also applies"},
		{aggregators.PowerSum{T: 2}, aggregators.Sum{}, 3, 3, gain.Zero, "Theorem 3.2", "Theorem 3.3 also applies"},
		{aggregators.PowerSum{T: 2}, aggregators.PowerMean{T: 1}, 3, 3, gain.Zero, "Theorem 3.2", "Theorem 3.3 also applies"},
		{aggregators.Max{}, aggregators.Sum{}, 3, 3, gain.Zero, "Theorem 3.2", ""},
	}
	for _, c := range cases {
		p, err := gain.Predict(c.u, c.t, c.n, c.m)
		name := fmt.Sprintf("%v∘%v, N = %d, M = %d", c.u, c.t, c.n, c.m)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if p.Sign != c.sign || p.Rule != c.rule || !strings.Contains(p.Reason, c.mention) {
			t.Errorf("%s: %v by %q (%s); want %v by %q mentioning %q", name, p.Sign, p.Rule, p.Reason, c.sign, c.rule, c.mention)
		}
		// Theorem 3.3 (U strictly Schur-convex, T's scores of constant
		// sum) is mentioned exactly where it applies.
		also := c.u.Schur(c.m) == aggregators.StrictlyConvex && c.n > 1 && c.m > 1
		switch op := c.t.(type) {
		case aggregators.Mean, aggregators.Sum:
		case aggregators.Softmax:
			also = also && op.T == 0
		case aggregators.PowerSum:
			also = also && op.T == 1
		case aggregators.MeanPower:
			also = also && op.T == 1
		case aggregators.PowerMean:
			also = also && op.T == 1
		default:
			also = false
		}
		if got := strings.Contains(p.Reason, "Theorem 3.3 also applies"); got != also {
			t.Errorf("%s: reason %q mentions Theorem 3.3: %v, want %v", name, p.Reason, got, also)
		}
	}
}

func TestPredictErrors(t *testing.T) {
	negative := aggregators.SumForm{Name: "x²−1", G: func(x float64) float64 { return x*x - 1 }, Dom: aggregators.Real, Class: aggregators.StrictlyConvex}
	infinite := aggregators.SumForm{Name: "1/x", G: func(x float64) float64 { return 1/x + x*x }, Dom: aggregators.NonNegative, Class: aggregators.StrictlyConvex}
	cases := []struct {
		u, t   aggregators.Operator
		n, m   int
		target error
	}{
		{aggregators.Min{}, aggregators.Max{}, 0, 2, gain.ErrSize},
		{aggregators.Min{}, aggregators.Max{}, 2, 0, gain.ErrSize},
		{nil, aggregators.Max{}, 2, 2, gain.ErrOperator},
		{aggregators.Min{}, nil, 2, 2, gain.ErrOperator},
		{aggregators.Min{}, aggregators.PowerSum{T: -1}, 2, 2, gain.ErrOperator},
		{aggregators.Softmax{T: math.NaN()}, aggregators.Max{}, 2, 2, gain.ErrOperator},
		{aggregators.PowerSum{T: 2}, negative, 2, 2, gain.ErrOperator},
		{aggregators.Sum{}, infinite, 2, 2, gain.ErrOperator},
		{(*aggregators.Softmax)(nil), aggregators.Max{}, 2, 2, gain.ErrOperator}, // a typed nil: no panic
		{aggregators.Min{}, (*aggregators.PowerSum)(nil), 2, 2, gain.ErrOperator},
	}
	for _, c := range cases {
		if _, err := gain.Predict(c.u, c.t, c.n, c.m); !errors.Is(err, c.target) {
			t.Errorf("Predict(%v, %v, %d, %d): err = %v, want %v", c.u, c.t, c.n, c.m, err, c.target)
		}
	}
	if _, err := gain.Predict(aggregators.Min{}, aggregators.PowerSum{T: -1}, 2, 2); !errors.Is(err, aggregators.ErrParam) {
		t.Errorf("invalid parameter: %v does not wrap aggregators.ErrParam", err)
	}
}

// TestPredictAgreesWithClosedForms checks that Predict never contradicts a
// closed form: Zero means ΔR = 0 and Positive means ΔR > 0.
func TestPredictAgreesWithClosedForms(t *testing.T) {
	for n := 1; n <= 6; n++ {
		for m := 1; m <= 6; m++ {
			for _, u := range extremes {
				for _, op := range extremes {
					p, err := gain.Predict(u, op, n, m)
					if err != nil {
						t.Fatal(err)
					}
					g, err := gain.ClosedForm(u, op, n, m, gain.Continuous)
					if err != nil {
						t.Fatal(err)
					}
					checkSign(t, fmt.Sprintf("%v∘%v, N = %d, M = %d", u, op, n, m), p, g.Delta, g.Delta)
				}
			}
		}
	}
	for n := 2; n <= 4; n++ {
		for _, tt := range temperatures {
			for _, tau := range temperatures {
				p, err := gain.Predict(aggregators.Softmax{T: tau}, aggregators.Softmax{T: tt}, n, n)
				if err != nil {
					t.Fatal(err)
				}
				b := mustBound(t, tt, tau, n)
				hi := math.Inf(1)
				if b.Exact {
					hi = b.DeltaLower
				}
				checkSign(t, fmt.Sprintf("softmax(%v)∘softmax(%v), N = M = %d", tau, tt, n), p, b.DeltaLower, hi)
			}
		}
	}
}

// checkSign fails if p contradicts ΔR in [lo, hi].
// TestPredictLargeSizes checks that the rules Predict applies above 2^20
// agents, where it evaluates neither T on N coordinates nor rewards, never
// say more than those at 2^20: Zero and Positive by Corollary F.1 stay as
// they are, and every other sign may only weaken (Positive by Theorem 3.1
// to PositiveUnlessTrivial, either to Undecided when T's range would be
// needed). It failed when the large-size branch took a softmax U as
// increasing on T's whole range (softmax(0.5)∘powersum(2): Undecided at
// 2^20, PositiveUnlessTrivial above) and skipped Corollary F.1.
func TestPredictLargeSizes(t *testing.T) {
	if testing.Short() {
		t.Skip("evaluates T on 2^20 coordinates")
	}
	t.Parallel()
	us := []aggregators.Operator{aggregators.Sum{}, aggregators.Min{}, aggregators.PowerSum{T: 0.5},
		aggregators.Softmax{T: 0.5}, aggregators.Softmax{T: 2}}
	ts := []aggregators.Operator{aggregators.PowerSum{T: 2}, aggregators.PowerMean{T: 2},
		aggregators.Softmax{T: 1}, aggregators.Mean{}}
	strength := map[gain.Sign]int{gain.Undecided: 0, gain.PositiveUnlessTrivial: 1, gain.Positive: 2, gain.Zero: 2}
	for _, u := range us {
		for _, op := range ts {
			small, err := gain.Predict(u, op, 1<<20, 2)
			if err != nil {
				t.Fatal(err)
			}
			large, err := gain.Predict(u, op, 1<<20+1, 2)
			if err != nil {
				t.Fatal(err)
			}
			var ok bool
			switch {
			case small.Sign == gain.Zero || small.Rule == "Corollary F.1":
				ok = large.Sign == small.Sign && large.Rule == small.Rule
			case large.Sign == gain.Undecided:
				ok = true
			default: // a positive sign, from Theorem 3.1 at most as strong
				ok = small.Sign != gain.Undecided && large.Rule == "Theorem 3.1" && strength[large.Sign] <= strength[small.Sign]
			}
			if !ok {
				t.Errorf("%v∘%v, M = 2: N = 2^20 gives %v by %s (%s); N = 2^20 + 1 gives %v by %s (%s)",
					u, op, small.Sign, small.Rule, small.Reason, large.Sign, large.Rule, large.Reason)
			}
		}
	}
}

func checkSign(t *testing.T, name string, p gain.Prediction, lo, hi float64) {
	t.Helper()
	switch {
	case p.Sign == gain.Zero && lo > 0:
		t.Errorf("%s: predicted %v (%s), but ΔR >= %v", name, p.Sign, p.Rule, lo)
	case p.Sign == gain.Positive && hi <= 0:
		t.Errorf("%s: predicted %v (%s), but ΔR <= %v", name, p.Sign, p.Rule, hi)
	}
}

// predictOperators are the operators of TestPredictGrid.
var predictOperators = []aggregators.Operator{
	aggregators.Min{}, aggregators.Mean{}, aggregators.Max{}, aggregators.Sum{},
	aggregators.PowerSum{T: 0.5}, aggregators.PowerSum{T: 2}, aggregators.PowerSum{T: 3},
	aggregators.PowerMean{T: -1}, aggregators.PowerMean{T: 0.5}, aggregators.PowerMean{T: 2},
	aggregators.Softmax{T: -2}, aggregators.Softmax{T: -0.5}, aggregators.Softmax{T: 0.5}, aggregators.Softmax{T: 2},
	aggregators.LogSumExp{T: -1}, aggregators.LogSumExp{T: 1},
}

// subSimplex returns the rows r in R^m, r >= 0, sum_j r_j <= 1, on the grid
// {k/K}.
func subSimplex(m, k int) [][]float64 {
	rows := simplexGrid(m+1, k)
	for i := range rows {
		rows[i] = rows[i][:m]
	}
	return rows
}

// homGridBest returns the best reward of the homogeneous allocations whose
// row lies on the grid {k/K} of the closed simplex. A homogeneous
// allocation with row c has scores T(c_j, ..., c_j), computed once per
// grid value.
func homGridBest(u, t aggregators.Operator, n, m, k int) float64 {
	tv := make([]float64, k+1)
	x := make([]float64, n)
	for v := range tv {
		for i := range x {
			x[i] = float64(v) / float64(k)
		}
		tv[v] = t.Value(x)
	}
	best := math.Inf(-1)
	y := make([]float64, m)
	var rec func(j, left int)
	rec = func(j, left int) {
		if j == m {
			best = math.Max(best, u.Value(y))
			return
		}
		for v := 0; v <= left; v++ {
			y[j] = tv[v]
			rec(j+1, left-v)
		}
	}
	rec(0, k)
	return best
}

// TestPredictGrid checks the predictions of many pairs of operators
// against grid searches for N = M = 2 and 3. The best homogeneous row is
// found on a fine grid of the closed simplex that contains the homogeneous
// allocation with the column sums of every allocation of the coarse
// heterogeneous grid, so for a Zero prediction the coarse grid must not beat
// it; for a Positive one it must.
func TestPredictGrid(t *testing.T) {
	t.Parallel()
	sizes := []struct {
		n, fine int
		coarse  [][]float64
	}{{2, 160, subSimplex(2, 8)}, {3, 24, simplexGrid(3, 4)}}
	if testing.Short() {
		sizes = sizes[:1]
	}
	for _, s := range sizes {
		for _, u := range predictOperators {
			for _, op := range predictOperators {
				if u.Domain() == aggregators.NonNegative && op.Value(make([]float64, s.n)) < 0 {
					continue // R undefined: negative scores
				}
				p, err := gain.Predict(u, op, s.n, s.n)
				if err != nil {
					t.Fatal(err)
				}
				hom := homGridBest(u, op, s.n, s.n, s.fine)
				het, _ := bestOverRows(t, aggregators.NewReward(u, op), s.n, s.coarse)
				name := fmt.Sprintf("%v∘%v, N = M = %d", u, op, s.n)
				tol := 1e-12 * math.Max(1, math.Abs(hom))
				switch p.Sign {
				case gain.Zero:
					if het > hom+tol {
						t.Errorf("%s: predicted Zero (%s), but R_het >= %v > R_hom ≈ %v", name, p.Rule, het, hom)
					}
				case gain.Positive:
					if het <= hom+tol {
						t.Errorf("%s: predicted Positive (%s), but grid R_het = %v <= R_hom ≈ %v", name, p.Rule, het, hom)
					}
				}
			}
		}
	}
}
