package gain_test

import (
	"errors"
	"math"
	"math/rand"
	"strings"
	"testing"

	"github.com/hetgain/hetgain/aggregators"
	"github.com/hetgain/hetgain/gain"
	"gonum.org/v1/gonum/mat"
)

func blottoReward(fields []aggregators.BlottoField) *aggregators.Reward {
	inner := make([]aggregators.Operator, len(fields))
	for j, f := range fields {
		inner[j] = f
	}
	return aggregators.NewReward(aggregators.Sum{}, inner...)
}

// blottoGrid returns the best reward over column sums s on the grid
// {k/8}, s_j >= 0, sum_j s_j <= n.
func blottoGrid(t *testing.T, fields []aggregators.BlottoField, n int) float64 {
	r := blottoReward(fields)
	r.Budget = float64(n) // a single row holding the column sums s
	m := len(fields)
	s := mat.NewDense(1, m, nil)
	best := math.Inf(-1)
	var rec func(j, left int)
	rec = func(j, left int) {
		if j == m {
			best = math.Max(best, reward(t, r, s))
			return
		}
		for k := 0; k <= left; k++ {
			s.Set(0, j, float64(k)/8)
			rec(j+1, left-k)
		}
	}
	rec(0, 8*n)
	return best
}

func randomField(rnd *rand.Rand) aggregators.BlottoField {
	levels := []float64{-0.5, 0, 0.5, 1, 1.5, 2, 2.5}
	k := 1 + rnd.Intn(3)
	f := aggregators.BlottoField{V: math.Round(rnd.Float64()*30) / 10}
	sum := 0.0
	for i := 0; i < k; i++ {
		f.Troops = append(f.Troops, levels[rnd.Intn(len(levels))])
		f.Probs = append(f.Probs, 1+float64(rnd.Intn(4)))
		sum += f.Probs[i]
	}
	for i := range f.Probs {
		f.Probs[i] /= sum
	}
	return f
}

// TestBlottoGrid compares Blotto with a grid search over the column sums.
// The troop counts are multiples of 1/2 and M <= 3, so a feasible choice of
// levels sums to at most N − 1/2 and its optimum is on the grid {k/8}.
func TestBlottoGrid(t *testing.T) {
	rnd := rand.New(rand.NewSource(2))
	for trial := 0; trial < 150; trial++ {
		fields := make([]aggregators.BlottoField, 1+rnd.Intn(3))
		for j := range fields {
			fields[j] = randomField(rnd)
		}
		n := 1 + rnd.Intn(3)
		g, err := gain.Blotto(fields, n)
		if err != nil {
			t.Fatal(err)
		}
		if grid := blottoGrid(t, fields, n); !closeTo(g.Het, grid, exact) {
			t.Errorf("fields %v, N = %d: Blotto %v, grid %v", fields, n, g.Het, grid)
		}
		checkBlottoAllocation(t, fields, n, g)
	}
}

func checkBlottoAllocation(t *testing.T, fields []aggregators.BlottoField, n int, g gain.Gains) {
	t.Helper()
	if g.Het != g.Hom || g.Delta != 0 {
		t.Errorf("fields %v: (%v, %v, ΔR = %v), want equal optima", fields, g.Het, g.Hom, g.Delta)
	}
	if g.HetAlloc == nil {
		t.Fatalf("fields %v, N = %d: no allocation", fields, n)
	}
	checkRows(t, g.HomRow, gain.Continuous)
	r := blottoReward(fields)
	for _, a := range []*mat.Dense{g.HetAlloc, g.HomAlloc()} {
		if v := reward(t, r, a); !closeTo(v, g.Het, exact) {
			t.Errorf("fields %v, N = %d: allocation %v has R = %v, want %v", fields, n, mat.Formatted(a), v, g.Het)
		}
	}
}

// TestBlottoBoundary checks that a choice of levels summing to exactly N
// is infeasible: the team must send strictly more troops than the
// adversary.
func TestBlottoBoundary(t *testing.T) {
	sure := func(v, a float64) aggregators.BlottoField {
		return aggregators.BlottoField{V: v, Troops: []float64{a}, Probs: []float64{1}}
	}
	cases := []struct {
		name   string
		fields []aggregators.BlottoField
		n      int
		want   float64
	}{
		{"one unit against one unit", []aggregators.BlottoField{sure(1, 1)}, 1, 0},
		{"one unit against less", []aggregators.BlottoField{sure(1, 0.999)}, 1, 1},
		{"two halves", []aggregators.BlottoField{sure(1, 0.5), sure(2, 0.5)}, 1, 2},
		{"two halves, two colonels", []aggregators.BlottoField{sure(1, 0.5), sure(2, 0.5)}, 2, 3},
		{"adversary sends nothing", []aggregators.BlottoField{sure(1, 0), sure(1, 0)}, 1, 2},
		{"negative troops are always beaten", []aggregators.BlottoField{sure(1, -1), sure(1, 5)}, 1, 1},
		{"mixed adversary", []aggregators.BlottoField{
			{V: 4, Troops: []float64{0, 1, 3}, Probs: []float64{0.25, 0.5, 0.25}},
			{V: 1, Troops: []float64{0.5}, Probs: []float64{1}},
		}, 2, 3 + 1},
	}
	for _, c := range cases {
		g, err := gain.Blotto(c.fields, c.n)
		if err != nil {
			t.Fatal(err)
		}
		if !closeTo(g.Het, c.want, exact) {
			t.Errorf("%s: value %v, want %v", c.name, g.Het, c.want)
		}
		checkBlottoAllocation(t, c.fields, c.n, g)
	}
}

// TestBlottoExactSum checks the exact comparison of the chosen levels with
// N. As float64 values 0.1 + 0.2 + 0.7 < 1 (by about 3e-17), so one colonel
// can beat all three levels, but the slack is too small for an allocation
// that survives rounding.
func TestBlottoExactSum(t *testing.T) {
	var fields []aggregators.BlottoField
	for _, a := range []float64{0.1, 0.2, 0.7} {
		fields = append(fields, aggregators.BlottoField{V: 1, Troops: []float64{a}, Probs: []float64{1}})
	}
	g, err := gain.Blotto(fields, 1)
	if err != nil {
		t.Fatal(err)
	}
	if g.Het != 3 || g.HetAlloc != nil || g.HomRow != nil {
		t.Errorf("value %v (want 3), allocation %v", g.Het, g.HetAlloc)
	}
}

func TestBlottoErrors(t *testing.T) {
	ok := aggregators.BlottoField{V: 1, Troops: []float64{0.5}, Probs: []float64{1}}
	bad := aggregators.BlottoField{V: 1, Troops: []float64{0.5}, Probs: []float64{0.5}}
	if _, err := gain.Blotto(nil, 1); !errors.Is(err, gain.ErrSize) {
		t.Errorf("no fields: %v", err)
	}
	if _, err := gain.Blotto([]aggregators.BlottoField{ok}, 0); !errors.Is(err, gain.ErrSize) {
		t.Errorf("N = 0: %v", err)
	}
	if _, err := gain.Blotto([]aggregators.BlottoField{ok, bad}, 1); !errors.Is(err, gain.ErrParam) || !errors.Is(err, aggregators.ErrParam) {
		t.Errorf("bad field: %v", err)
	}
	many := make([]aggregators.BlottoField, 23)
	for j := range many {
		many[j] = ok
	}
	if _, err := gain.Blotto(many, 3); !errors.Is(err, gain.ErrSize) {
		t.Errorf("2^23 combinations: %v", err)
	}
	g, err := gain.Blotto(many[:22], 1) // 2^22 combinations: at the cap
	if err != nil || g.Het != 1 {
		t.Errorf("22 fields at 1/2 troop, N = 1: %v, %v; want 1", g.Het, err)
	}
}

// TestBlottoOverflow checks that an optimum that overflows float64 is an
// error, not +Inf, and that huge values the team cannot win together are
// not.
func TestBlottoOverflow(t *testing.T) {
	free := aggregators.BlottoField{V: 1e308, Troops: []float64{0}, Probs: []float64{1}}
	g, err := gain.Blotto([]aggregators.BlottoField{free, free}, 3)
	if !errors.Is(err, gain.ErrParam) || !errors.Is(err, aggregators.ErrInf) || !strings.Contains(err.Error(), "+Inf") {
		t.Errorf("two fields of value 1e308 won together: %+v, %v; want an error wrapping ErrParam and ErrInf", g, err)
	}
	// One colonel can beat 0.6 troops on one field only.
	one := aggregators.BlottoField{V: 1e308, Troops: []float64{0.6}, Probs: []float64{1}}
	g, err = gain.Blotto([]aggregators.BlottoField{one, one}, 1)
	if err != nil || g.Het != 1e308 || g.Delta != 0 {
		t.Errorf("two fields of value 1e308, one won: %+v, %v; want 1e308", g, err)
	}
}

// TestBlottoProbsOffOne checks that a field whose probabilities sum to
// 1 + 9e-10 (within validation's tolerance) is worth at most V: two sure
// wins on fields of value 1 give 2 to rounding, not more.
func TestBlottoProbsOffOne(t *testing.T) {
	f := aggregators.BlottoField{V: 1, Troops: []float64{0, 0.25}, Probs: []float64{0.5, 0.5 + 9e-10}}
	g, err := gain.Blotto([]aggregators.BlottoField{f, f}, 2)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []float64{g.Het, g.Hom} {
		if !(v <= 2 && v >= 2-1e-15) {
			t.Errorf("Het %v, Hom %v; want 2 to rounding and at most 2", g.Het, g.Hom)
		}
	}
}
