package aggregators

import (
	"errors"
	"fmt"
	"math"
	"math/rand"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// emptyMatrix is a mat.Matrix with r rows and c columns and no entries
// (mat.NewDense panics on zero dimensions).
type emptyMatrix struct{ r, c int }

func (m emptyMatrix) Dims() (int, int)        { return m.r, m.c }
func (m emptyMatrix) At(i, j int) float64     { panic("emptyMatrix.At") }
func (m emptyMatrix) T() mat.Matrix           { return emptyMatrix{m.c, m.r} }
func (m emptyMatrix) String() string          { return "empty" }
func (m emptyMatrix) Set(i, j int, v float64) { panic("emptyMatrix.Set") }

// allocation returns a random n x m effort matrix whose rows sum to at
// most rowSum, with entries in (0, rowSum].
func allocation(rng *rand.Rand, n, m int, rowSum float64) *mat.Dense {
	a := mat.NewDense(n, m, nil)
	for i := 0; i < n; i++ {
		row := unitPoint(rng, m)
		s := refSum(row)
		for j, v := range row {
			a.Set(i, j, rowSum*v/s)
		}
	}
	return a
}

// directReward evaluates U(T_1(a_1), ..., T_M(a_M)) from the reference
// implementations.
func directReward(t *testing.T, outer Operator, inner []Operator, a mat.Matrix) (float64, []float64) {
	t.Helper()
	n, m := a.Dims()
	y := make([]float64, m)
	for j := 0; j < m; j++ {
		col := make([]float64, n)
		for i := range col {
			col[i] = a.At(i, j)
		}
		op := inner[0]
		if len(inner) > 1 {
			op = inner[j]
		}
		v, ok := refValue(op, col)
		if !ok {
			t.Fatalf("no reference for %v", op)
		}
		y[j] = v
	}
	v, ok := refValue(outer, y)
	if !ok {
		t.Fatalf("no reference for %v", outer)
	}
	return v, y
}

// perTaskInner returns m inner operators from different families.
func perTaskInner(m int) []Operator {
	all := []Operator{
		PowerMean{T: 0.5}, LogSumExp{T: 3}, Softmax{T: -1.5}, PowerSum{T: 2},
		PowerMean{T: -2}, Softmax{T: 4}, LogSumExp{T: 0.7}, PowerSum{T: 0.6},
	}
	return all[:m]
}

func TestRewardValueAndScores(t *testing.T) {
	rng := rand.New(rand.NewSource(10))
	outers := []Operator{Min{}, Mean{}, Max{}, Sum{}, Softmax{T: 2}, PowerMean{T: -1}, LogSumExp{T: -4}, PowerSum{T: 1.5}}
	for _, outer := range outers {
		for n := 1; n <= 4; n++ {
			for m := 1; m <= 4; m++ {
				a := allocation(rng, n, m, 0.9)
				for _, inner := range [][]Operator{{Max{}}, {PowerMean{T: 2}}, perTaskInner(m)} {
					r := NewReward(outer, inner...)
					want, wantY := directReward(t, outer, inner, a)
					y, err := r.Scores(a)
					if err != nil {
						t.Fatalf("%v: Scores: %v", r, err)
					}
					for j := range y {
						if !closeTo(y[j], wantY[j], 1e-13, 1e-300) {
							t.Errorf("%v: score %d = %v, want %v", r, j, y[j], wantY[j])
						}
					}
					got, err := r.Value(a)
					if err != nil {
						t.Fatalf("%v: Value: %v", r, err)
					}
					if !closeTo(got, want, 1e-13, 1e-300) {
						t.Errorf("%v at\n%v\nR = %v, direct %v", r, mat.Formatted(a), got, want)
					}
				}
			}
		}
	}
}

// TestRewardGameValues checks rewards derived by hand for the games of
// the paper's appendix.
func TestRewardGameValues(t *testing.T) {
	// Level-based foraging with two items of level 1 and 2 and two agents
	// of skill 1: both on item 2 collect 2; one on each collects 1.
	lbf := NewReward(Sum{}, LevelThreshold{L: 1}, LevelThreshold{L: 2})
	lbf.Budget = 1
	for _, tc := range []struct {
		a    []float64
		want float64
	}{
		{[]float64{0, 1, 0, 1}, 2},
		{[]float64{1, 0, 0, 1}, 1},
		{[]float64{1, 0, 1, 0}, 1},
		{[]float64{0.5, 0.5, 0.5, 0.5}, 1},
	} {
		got, err := lbf.Value(mat.NewDense(2, 2, tc.a))
		if err != nil || got != tc.want {
			t.Errorf("%v at %v = %v, %v; want %v", lbf, tc.a, got, err, tc.want)
		}
	}
	// Blotto: field values 1 and 3 against an adversary that sends 0.5 or
	// 1.5 with equal probability; the team sends 1 and 1 in total.
	f1, err := NewBlottoField(1, []float64{0.5, 1.5}, []float64{0.5, 0.5})
	if err != nil {
		t.Fatal(err)
	}
	f2, err := f1.WithParam(3)
	if err != nil {
		t.Fatal(err)
	}
	blotto := NewReward(Sum{}, f1, f2)
	a := mat.NewDense(2, 2, []float64{0.6, 0.4, 0.4, 0.6})
	// s = (1, 1): each field is won with probability 1/2: 0.5 + 1.5 = 2.
	if got, err := blotto.Value(a); err != nil || got != 2 {
		t.Errorf("%v = %v, %v; want 2", blotto, got, err)
	}
	// The value depends only on the column sums: a homogeneous allocation
	// with the same sums has the same reward.
	if got, err := blotto.Value(mat.NewDense(2, 2, []float64{0.5, 0.5, 0.5, 0.5})); err != nil || got != 2 {
		t.Errorf("%v = %v, %v; want 2", blotto, got, err)
	}
	pg, err := blotto.ParamGradient(a)
	if err != nil {
		t.Fatal(err)
	}
	// ∂R/∂V_j = P[s_j > a] = 1/2.
	if pg.Outer != 0 || pg.Inner[0] != 0.5 || pg.Inner[1] != 0.5 {
		t.Errorf("%v: ParamGradient = %+v, want {0 [0.5 0.5]}", blotto, pg)
	}
}

func TestRewardGradient(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	outers := []Operator{Mean{}, Sum{}, Softmax{T: 2}, Softmax{T: -0.5}, PowerMean{T: -1}, PowerMean{T: 0}, LogSumExp{T: -4}, PowerSum{T: 1.5}}
	for _, outer := range outers {
		for n := 1; n <= 4; n++ {
			for m := 1; m <= 4; m++ {
				a := allocation(rng, n, m, 0.8)
				for _, inner := range [][]Operator{{PowerMean{T: 2}}, {Softmax{T: 3}}, perTaskInner(m)} {
					r := NewReward(outer, inner...)
					g, err := r.Gradient(a)
					if err != nil {
						t.Fatalf("%v: %v", r, err)
					}
					if gn, gm := g.Dims(); gn != n || gm != m {
						t.Fatalf("%v: gradient is %dx%d, want %dx%d", r, gn, gm, n, m)
					}
					b := mat.DenseCopyOf(a)
					want := mat.NewDense(n, m, nil)
					for i := 0; i < n; i++ {
						for j := 0; j < m; j++ {
							v := a.At(i, j)
							want.Set(i, j, derivative5(func(s float64) float64 {
								b.Set(i, j, v+s)
								defer b.Set(i, j, v)
								val, err := r.Value(b)
								if err != nil {
									t.Fatalf("%v: %v", r, err)
								}
								return val
							}, 1e-4*v))
						}
					}
					scale := mat.Norm(want, math.Inf(1))
					for i := 0; i < n; i++ {
						for j := 0; j < m; j++ {
							if !closeTo(g.At(i, j), want.At(i, j), gradTol, scale) {
								t.Errorf("%v: ∂R/∂A[%d][%d] = %v, finite difference %v", r, i, j, g.At(i, j), want.At(i, j))
							}
						}
					}
				}
			}
		}
	}
}

// TestRewardGradientMinMax checks the chain rule on min∘max by hand:
// ∂R/∂r_ij is 1 on the row that holds the largest entry of the column
// with the smallest maximum, when there are no ties.
func TestRewardGradientMinMax(t *testing.T) {
	r := NewReward(Min{}, Max{})
	a := mat.NewDense(3, 2, []float64{
		0.2, 0.7,
		0.5, 0.1,
		0.3, 0.6,
	})
	// Column maxima are 0.5 and 0.7: the minimum is column 0, row 1.
	g, err := r.Gradient(a)
	if err != nil {
		t.Fatal(err)
	}
	want := mat.NewDense(3, 2, []float64{0, 0, 1, 0, 0, 0})
	if !mat.Equal(g, want) {
		t.Errorf("%v: gradient\n%v\nwant\n%v", r, mat.Formatted(g), mat.Formatted(want))
	}
	if v, err := r.Value(a); err != nil || v != 0.5 {
		t.Errorf("%v = %v, %v; want 0.5", r, v, err)
	}
}

func TestRewardParamGradient(t *testing.T) {
	rng := rand.New(rand.NewSource(12))
	outers := []Parametric{Softmax{T: 2}, Softmax{T: 0}, PowerMean{T: -1}, PowerMean{T: 0}, LogSumExp{T: -4}, PowerSum{T: 1.5}}
	for _, outer := range outers {
		for n := 1; n <= 3; n++ {
			for m := 1; m <= 4; m++ {
				a := allocation(rng, n, m, 0.8)
				inner := perTaskInner(m)
				r := NewReward(outer, inner...)
				pg, err := r.ParamGradient(a)
				if err != nil {
					t.Fatalf("%v: %v", r, err)
				}
				value := func(r *Reward) float64 {
					v, err := r.Value(a)
					if err != nil {
						t.Fatalf("%v: %v", r, err)
					}
					return v
				}
				// Outer parameter.
				want := derivative5(func(s float64) float64 {
					u, err := outer.WithParam(outer.Param() + s)
					if err != nil {
						t.Fatal(err)
					}
					return value(NewReward(u, inner...))
				}, 1e-3)
				if !closeTo(pg.Outer, want, gradTol, 1e-4) {
					t.Errorf("%v: ∂R/∂t_U = %v, finite difference %v", r, pg.Outer, want)
				}
				// Each task's parameter on its own.
				if len(pg.Inner) != m {
					t.Fatalf("%v: %d inner derivatives, want %d", r, len(pg.Inner), m)
				}
				for j := 0; j < m; j++ {
					p := inner[j].(Parametric)
					want := derivative5(func(s float64) float64 {
						q, err := p.WithParam(p.Param() + s)
						if err != nil {
							t.Fatal(err)
						}
						moved := append([]Operator(nil), inner...)
						moved[j] = q
						return value(NewReward(outer, moved...))
					}, 1e-3)
					if !closeTo(pg.Inner[j], want, gradTol, 1e-4) {
						t.Errorf("%v: ∂R/∂t_%d = %v, finite difference %v", r, j, pg.Inner[j], want)
					}
				}
			}
		}
	}
}

// TestRewardParamGradientShared checks InnerShared against moving a
// shared inner parameter, given as one operator or as M copies.
func TestRewardParamGradientShared(t *testing.T) {
	rng := rand.New(rand.NewSource(13))
	for _, inner := range []Parametric{PowerMean{T: 0.5}, Softmax{T: -2}, LogSumExp{T: 1.5}, PowerSum{T: 3}} {
		for _, outer := range []Operator{Min{}, Softmax{T: 1}, PowerMean{T: 0}} {
			n, m := 3, 4
			a := allocation(rng, n, m, 0.8)
			for _, copies := range []int{1, m} {
				ops := make([]Operator, copies)
				for k := range ops {
					ops[k] = inner
				}
				r := NewReward(outer, ops...)
				pg, err := r.ParamGradient(a)
				if err != nil {
					t.Fatal(err)
				}
				want := derivative5(func(s float64) float64 {
					q, err := inner.WithParam(inner.Param() + s)
					if err != nil {
						t.Fatal(err)
					}
					moved := make([]Operator, copies)
					for k := range moved {
						moved[k] = q
					}
					v, err := NewReward(outer, moved...).Value(a)
					if err != nil {
						t.Fatal(err)
					}
					return v
				}, 1e-3)
				if got := pg.InnerShared(); !closeTo(got, want, gradTol, 1e-4) {
					t.Errorf("%v (%d inner operators): InnerShared = %v, finite difference %v", r, copies, got, want)
				}
				// Min is not parametric: its derivative is 0.
				if _, ok := outer.(Parametric); !ok && pg.Outer != 0 {
					t.Errorf("%v: ∂R/∂t_U = %v for a non-parametric outer operator", r, pg.Outer)
				}
			}
		}
	}
	// Non-parametric inner operators contribute 0.
	pg, err := NewReward(Softmax{T: 1}, Max{}, PowerMean{T: 2}).ParamGradient(mat.NewDense(2, 2, []float64{0.5, 0.5, 0.2, 0.1}))
	if err != nil {
		t.Fatal(err)
	}
	if pg.Inner[0] != 0 || pg.Inner[1] == 0 {
		t.Errorf("ParamGradient.Inner = %v, want [0, non-zero]", pg.Inner)
	}
}

func TestRewardCheckErrors(t *testing.T) {
	good := mat.NewDense(2, 3, []float64{0.2, 0.3, 0.5, 0.1, 0.1, 0.1})
	tests := []struct {
		name    string
		r       *Reward
		a       mat.Matrix
		want    error
		mention string // a substring the message must contain
	}{
		{"0x0 Dense", NewReward(Min{}, Max{}), &mat.Dense{}, ErrDimension, "0x0"},
		{"N = 0", NewReward(Min{}, Max{}), emptyMatrix{0, 3}, ErrDimension, "0x3"},
		{"M = 0", NewReward(Min{}, Max{}), emptyMatrix{2, 0}, ErrDimension, "2x0"},
		{"inner count", NewReward(Min{}, Max{}, Min{}), good, ErrDimension, "3 tasks"},
		{"NaN", NewReward(Min{}, Max{}), mat.NewDense(2, 3, []float64{0, 0, 0, 0, 0, math.NaN()}), ErrNaN, "A[1][2]"},
		{"+Inf", NewReward(Min{}, Max{}), mat.NewDense(2, 3, []float64{0, math.Inf(1), 0, 0, 0, 0}), ErrInf, "A[0][1]"},
		{"-Inf", NewReward(Min{}, Max{}), mat.NewDense(2, 3, []float64{0, 0, 0, math.Inf(-1), 0, 0}), ErrInf, "A[1][0]"},
		{"negative", NewReward(Min{}, Max{}), mat.NewDense(2, 3, []float64{0, 0, 0, 0, -1e-300, 0}), ErrNegative, "A[1][1]"},
		{"too large", NewReward(Min{}, Max{}, Max{}, Max{}), mat.NewDense(2, 3, []float64{0, 0, 0, 0, 0, 2 * MaxInput}), ErrRange, "A[1][2]"},
		{"over budget", NewReward(Min{}, Max{}), mat.NewDense(2, 3, []float64{0.2, 0.3, 0.5, 0.5, 0.5, 0.1}), ErrBudget, "row 1"},
		{"over custom budget", &Reward{Outer: Min{}, Inner: []Operator{Max{}}, Budget: 2}, mat.NewDense(2, 2, []float64{1, 1, 1.5, 0.6}), ErrBudget, "row 1"},
		{"negative budget", &Reward{Outer: Min{}, Inner: []Operator{Max{}}, Budget: -1}, good, ErrParam, "budget"},
		{"NaN budget", &Reward{Outer: Min{}, Inner: []Operator{Max{}}, Budget: math.NaN()}, good, ErrParam, "budget"},
		{"no inner", &Reward{Outer: Min{}}, good, ErrDimension, "no inner"},
		{"nil outer", &Reward{Inner: []Operator{Max{}}}, good, ErrParam, "outer"},
		{"nil inner", &Reward{Outer: Min{}, Inner: []Operator{Max{}, nil, Max{}}}, good, ErrParam, "inner operator 1"},
		{"bad outer param", NewReward(PowerSum{}, Max{}), good, ErrParam, "powersum(0)"},
		{"bad inner param", NewReward(Min{}, Max{}, LogSumExp{}, Max{}), good, ErrParam, "inner operator 1"},
	}
	for _, tc := range tests {
		err := tc.r.Check(tc.a)
		if !errors.Is(err, tc.want) {
			t.Errorf("%s: Check = %v, want an error wrapping %q", tc.name, err, tc.want)
			continue
		}
		if !strings.Contains(err.Error(), tc.mention) || !strings.HasPrefix(err.Error(), "aggregators: ") {
			t.Errorf("%s: error %q does not start with \"aggregators: \" and mention %q", tc.name, err, tc.mention)
		}
		// Every method reports the same error.
		if _, e := tc.r.Value(tc.a); !errors.Is(e, tc.want) {
			t.Errorf("%s: Value error %v", tc.name, e)
		}
		if _, e := tc.r.Scores(tc.a); !errors.Is(e, tc.want) {
			t.Errorf("%s: Scores error %v", tc.name, e)
		}
		if _, e := tc.r.Gradient(tc.a); !errors.Is(e, tc.want) {
			t.Errorf("%s: Gradient error %v", tc.name, e)
		}
		if _, e := tc.r.ParamGradient(tc.a); !errors.Is(e, tc.want) {
			t.Errorf("%s: ParamGradient error %v", tc.name, e)
		}
	}

	// Within budget, with the default and with a custom budget, including
	// the relative tolerance.
	ok := []struct {
		r *Reward
		a mat.Matrix
	}{
		{NewReward(Min{}, Max{}), good},
		{NewReward(Min{}, Max{}), mat.NewDense(1, 2, []float64{0.5, 0.5 * (1 + 0.5*BudgetTolerance)})},
		{&Reward{Outer: Min{}, Inner: []Operator{Max{}}, Budget: 2}, mat.NewDense(2, 2, []float64{1, 1, 1.5, 0.5})},
		{&Reward{Outer: Min{}, Inner: []Operator{Max{}}, Budget: math.Inf(1)}, mat.NewDense(1, 2, []float64{1e90, 1e90})},
	}
	for _, tc := range ok {
		if err := tc.r.Check(tc.a); err != nil {
			t.Errorf("%v: Check(%v) = %v, want nil", tc.r, mat.Formatted(tc.a), err)
		}
	}
	if err := NewReward(Min{}, Max{}).Check(mat.NewDense(1, 2, []float64{0.5, 0.5 * (1 + 3*BudgetTolerance)})); !errors.Is(err, ErrBudget) {
		t.Errorf("row sum 1 + 1.5 BudgetTolerance: Check = %v, want ErrBudget", err)
	}
}

// TestRewardScoreErrors checks that a task score outside the outer
// operator's domain is an error, not a panic.
func TestRewardScoreErrors(t *testing.T) {
	a := mat.NewDense(2, 2, []float64{0, 0.5, 0, 0.5})
	// LSE with t < 0 is below the minimum: ln(2)/(-1) < 0 on column 0.
	r := NewReward(PowerMean{T: 2}, LogSumExp{T: -1})
	_, errValue := r.Value(a)
	_, errScores := r.Scores(a)
	_, errGradient := r.Gradient(a)
	_, errParam := r.ParamGradient(a)
	for name, err := range map[string]error{
		"Value": errValue, "Scores": errScores, "Gradient": errGradient, "ParamGradient": errParam,
	} {
		if !errors.Is(err, ErrNegative) || !strings.Contains(err.Error(), "task 0") {
			t.Errorf("%v: %s error %v, want ErrNegative naming task 0", r, name, err)
		}
	}
	// A real-valued outer operator accepts it.
	if v, err := NewReward(Mean{}, LogSumExp{T: -1}).Value(a); err != nil || !finite(v) {
		t.Errorf("mean∘lse(-1) = %v, %v", v, err)
	}
	// A SumForm whose g is not finite.
	inv := SumForm{Name: "inv", G: func(v float64) float64 { return 1 / v }, Dom: NonNegative}
	r = NewReward(Sum{}, inv, Max{})
	if _, err := r.Value(a); !errors.Is(err, ErrInf) || !strings.Contains(err.Error(), "task 0") {
		t.Errorf("%v: error %v, want ErrInf naming task 0", r, err)
	}
}

// TestRewardOuterNotFinite checks that an outer operator that is not
// finite at valid scores is an error from Value, Gradient and
// ParamGradient, not a panic or an infinite reward.
func TestRewardOuterNotFinite(t *testing.T) {
	logSum := SumForm{Name: "log", G: math.Log, DG: func(v float64) float64 { return 1 / v }, Dom: NonNegative}
	sqrtSum := SumForm{Name: "sqrt", G: math.Sqrt, DG: func(v float64) float64 { return 0.5 / math.Sqrt(v) }, Dom: NonNegative}
	noEffort := mat.NewDense(2, 2, []float64{1, 0, 1, 0}) // task 1 gets nothing
	huge := mat.NewDense(2, 2, []float64{1e99, 0, 1e99, 0})
	for _, c := range []struct {
		name       string
		r          *Reward
		a          *mat.Dense
		valueOK    bool // Value is finite, only a derivative is not
		is         error
		gradNames  string
		paramNames string
	}{
		{name: "log of a zero score", r: NewReward(logSum, Max{}), a: noEffort, is: ErrInf,
			gradNames: "g(x[1] = 0)", paramNames: "g(x[1] = 0)"},
		{name: "sqrt's slope at a zero score", r: NewReward(sqrtSum, Max{}), a: noEffort, valueOK: true, is: ErrInf,
			gradNames: "∂U/∂y_1", paramNames: "∂U/∂y_1"},
		{name: "overflow", r: &Reward{Outer: PowerSum{T: 4}, Inner: []Operator{Sum{}}, Budget: math.Inf(1)}, a: huge, is: ErrInf,
			gradNames: "powersum", paramNames: "powersum"},
	} {
		v, err := c.r.Value(c.a)
		if c.valueOK {
			if err != nil || !finite(v) {
				t.Errorf("%s: Value = %v, %v, want a finite value", c.name, v, err)
			}
		} else if !errors.Is(err, c.is) || !math.IsNaN(v) {
			t.Errorf("%s: Value = %v, %v, want NaN and an error wrapping %v", c.name, v, err, c.is)
		}
		if g, err := c.r.Gradient(c.a); g != nil || !errors.Is(err, c.is) || !strings.Contains(err.Error(), c.gradNames) {
			t.Errorf("%s: Gradient error %v, want %v naming %q", c.name, err, c.is, c.gradNames)
		}
		if _, err := c.r.ParamGradient(c.a); !errors.Is(err, c.is) || !strings.Contains(err.Error(), c.paramNames) {
			t.Errorf("%s: ParamGradient error %v, want %v naming %q", c.name, err, c.is, c.paramNames)
		}
	}
}

// TestRewardInnerGradientNotFinite: an inner derivative that is not
// finite on a valid allocation (where Value is finite) is an error naming
// it, not a panic or a silent Inf or NaN in the gradient.
func TestRewardInnerGradientNotFinite(t *testing.T) {
	sqrtSum := SumForm{Name: "sqrt", G: math.Sqrt, DG: func(v float64) float64 { return 0.5 / math.Sqrt(v) }, Dom: NonNegative}
	// g is finite at x but not at x + h, where the finite difference of
	// g' looks.
	edge := SumForm{Name: "log(0.3-x)", G: func(v float64) float64 { return math.Log(0.3 - v) }}
	// Slopes that are finite alone but not multiplied.
	steep := SumForm{Name: "steep", G: func(v float64) float64 { return v }, DG: func(float64) float64 { return 1e200 }}
	huge := NewReward(steep, steep)
	for _, c := range []struct {
		name  string
		r     *Reward
		a     *mat.Dense
		is    error
		names string
	}{
		{"sqrt's slope at 0, times ∂U = 0", NewReward(Min{}, sqrtSum), mat.NewDense(2, 2, []float64{1, 0, 0, 0.5}), ErrInf, "∂T_0/∂x_1"},
		{"g not finite in the finite difference", NewReward(Sum{}, edge), mat.NewDense(1, 2, []float64{0.3 - 5e-7, 0}), ErrNaN, "∂T_0/∂x_0"},
		{"overflow of the product", huge, mat.NewDense(1, 1, []float64{0.5}), ErrInf, "overflows"},
	} {
		if v, err := c.r.Value(c.a); err != nil || !finite(v) {
			t.Errorf("%s: Value = %v, %v, want a finite value", c.name, v, err)
		}
		var (
			g   *mat.Dense
			err error
		)
		func() {
			defer func() {
				if p := recover(); p != nil {
					err = fmt.Errorf("panic: %v", p)
				}
			}()
			g, err = c.r.Gradient(c.a)
		}()
		if g != nil || !errors.Is(err, c.is) || !strings.Contains(err.Error(), c.names) {
			t.Errorf("%s: Gradient = %v, %v; want an error wrapping %v naming %q", c.name, g, err, c.is, c.names)
		}
	}
}

func TestRewardString(t *testing.T) {
	if got := NewReward(Min{}, Max{}).String(); got != "min∘max" {
		t.Errorf("String = %q", got)
	}
	if got := NewReward(Softmax{T: 2}, Max{}, PowerMean{T: 0.5}).String(); got != "softmax(2)∘[max powermean(0.5)]" {
		t.Errorf("String = %q", got)
	}
	r := NewReward(Min{}, Max{}, Mean{})
	if r.InnerFor(0) != (Max{}) || r.InnerFor(1) != (Mean{}) {
		t.Errorf("InnerFor: %v, %v", r.InnerFor(0), r.InnerFor(1))
	}
	if NewReward(Min{}, Sum{}).InnerFor(5) != (Sum{}) {
		t.Error("InnerFor with a shared operator")
	}
	mustPanic(t, "NewReward(nil)", func() { NewReward(nil, Max{}) })
	mustPanic(t, "NewReward(min)", func() { NewReward(Min{}) })
	mustPanic(t, "NewReward(min, nil)", func() { NewReward(Min{}, nil) })
}

// TestBlottoFieldStringMalformed checks that String describes a
// BlottoField whose Troops and Probs differ in length, so that the errors
// that report it read cleanly.
func TestBlottoFieldStringMalformed(t *testing.T) {
	for _, c := range []struct {
		op   BlottoField
		want string
	}{
		{BlottoField{V: 1, Troops: []float64{1, 2}, Probs: []float64{1}}, "blotto(1; 1:1, 2:?)"},
		{BlottoField{V: 1, Troops: []float64{1}, Probs: []float64{0.5, 0.5}}, "blotto(1; 1:0.5, ?:0.5)"},
		{BlottoField{V: 2}, "blotto(2; )"},
		{exampleBlotto(), "blotto(2; 0.5:0.25, 1.5:0.5, 2.5:0.25)"},
	} {
		var got string
		if msg, panicked := panicMessage(func() { got = c.op.String() }); panicked || got != c.want {
			t.Errorf("String() = %q (panic %q), want %q", got, msg, c.want)
		}
	}
	bad := BlottoField{V: 1, Troops: []float64{1, 2}, Probs: []float64{1}}
	_, err := NewReward(Sum{}, bad).Value(mat.NewDense(1, 1, []float64{1}))
	want := "aggregators: inner operator 0 blotto(1; 1:1, 2:?): blotto adversary has 2 troop counts but 1 probabilities"
	if !errors.Is(err, ErrDimension) || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("Value with a malformed BlottoField: error %v, want %q", err, want)
	}
}

// TestMisuse checks the programmer errors of Reward.InnerFor, which panic
// with an "aggregators: " message, and the nil operators and matrices that
// Check, Evaluate and the Reward methods report as errors.
func TestMisuse(t *testing.T) {
	two := NewReward(Min{}, Max{}, Mean{})
	for _, c := range []struct {
		name string
		f    func()
	}{
		{"InnerFor(7)", func() { two.InnerFor(7) }},
		{"InnerFor(2)", func() { two.InnerFor(2) }},
		{"InnerFor(-1)", func() { two.InnerFor(-1) }},
		{"shared InnerFor(-1)", func() { NewReward(Min{}, Sum{}).InnerFor(-1) }},
		{"no inner InnerFor(0)", func() { (&Reward{Outer: Min{}}).InnerFor(0) }},
	} {
		mustPanic(t, c.name, c.f)
	}
	x := []float64{1, 2}
	if err := Check(nil, x); !errors.Is(err, ErrParam) || !strings.Contains(err.Error(), "nil") {
		t.Errorf("Check(nil, x) = %v, want ErrParam naming nil", err)
	}
	if v, err := Evaluate(nil, x); !errors.Is(err, ErrParam) || !strings.HasPrefix(err.Error(), "aggregators: ") || !math.IsNaN(v) {
		t.Errorf("Evaluate(nil, x) = %v, %v; want NaN and ErrParam", v, err)
	}
	var nilDense *mat.Dense
	r := NewReward(Sum{}, Max{})
	for _, a := range []mat.Matrix{nil, nilDense} {
		msg, panicked := panicMessage(func() {
			_, err := r.Value(a)
			if !errors.Is(err, ErrDimension) || !strings.Contains(err.Error(), "effort matrix is nil") {
				t.Errorf("Value(%#v): error %v, want ErrDimension naming the nil matrix", a, err)
			}
			if _, err := r.Gradient(a); !errors.Is(err, ErrDimension) {
				t.Errorf("Gradient(%#v): error %v, want ErrDimension", a, err)
			}
			if _, err := r.ParamGradient(a); !errors.Is(err, ErrDimension) {
				t.Errorf("ParamGradient(%#v): error %v, want ErrDimension", a, err)
			}
		})
		if panicked {
			t.Errorf("Reward methods on %#v panicked: %s", a, msg)
		}
	}
}

// TestNilReward checks every exported method of a nil *Reward: the ones
// that return an error return one wrapping ErrParam that names the nil
// reward, InnerFor panics with an "aggregators: " message, and String is
// "<nil>", as fmt prints it; none dereferences the nil pointer.
func TestNilReward(t *testing.T) {
	var r *Reward
	a := mat.NewDense(2, 2, []float64{0.5, 0.5, 0.5, 0.5})
	want := func(name string, err error) {
		t.Helper()
		if !errors.Is(err, ErrParam) || !strings.HasPrefix(err.Error(), "aggregators: ") || !strings.Contains(err.Error(), "nil *Reward") {
			t.Errorf("%s on a nil *Reward: error %v, want ErrParam naming the nil *Reward", name, err)
		}
	}
	msg, panicked := panicMessage(func() {
		want("Check", r.Check(a))
		y, err := r.Scores(a)
		want("Scores", err)
		if y != nil {
			t.Errorf("Scores on a nil *Reward: %v, want nil", y)
		}
		v, err := r.Value(a)
		want("Value", err)
		if !math.IsNaN(v) {
			t.Errorf("Value on a nil *Reward: %v, want NaN with the error", v)
		}
		g, err := r.Gradient(a)
		want("Gradient", err)
		if g != nil {
			t.Errorf("Gradient on a nil *Reward: %v, want nil", g)
		}
		pg, err := r.ParamGradient(a)
		want("ParamGradient", err)
		if pg.Inner != nil || pg.Outer != 0 {
			t.Errorf("ParamGradient on a nil *Reward: %+v, want the zero value", pg)
		}
		if s := r.String(); s != "<nil>" {
			t.Errorf("String on a nil *Reward: %q, want \"<nil>\"", s)
		}
		if s := fmt.Sprint(r); s != "<nil>" {
			t.Errorf("fmt.Sprint of a nil *Reward: %q, want \"<nil>\"", s)
		}
	})
	if panicked {
		t.Errorf("a method of a nil *Reward panicked: %s", msg)
	}
	mustPanic(t, "InnerFor(0) on a nil *Reward", func() { r.InnerFor(0) })
	if msg, _ := panicMessage(func() { r.InnerFor(0) }); !strings.Contains(msg, "nil *Reward") {
		t.Errorf("InnerFor(0) on a nil *Reward: panic %q, want one naming the nil *Reward", msg)
	}
}

// TestBlottoFieldProbsOffOne checks that probabilities whose sum is off 1
// by less than validation's 1e-9 are normalised: T never exceeds V, and
// in between it is V times the normalised probability.
func TestBlottoFieldProbsOffOne(t *testing.T) {
	for _, probs := range [][]float64{{0.5, 0.5 + 5e-10}, {0.5, 0.5 - 5e-10}, {0.1, 0.2, 0.7 + 9e-10}} {
		f, err := NewBlottoField(3, []float64{0, 1, 2}[:len(probs)], probs)
		if err != nil {
			t.Fatal(err)
		}
		if got := f.Value([]float64{5, 5}); got != 3 {
			t.Errorf("%v: Value above every troop count = %v, want V = 3 exactly", f, got)
		}
		if got, want := f.ParamDerivative([]float64{5, 5}), 1.0; got != want {
			t.Errorf("%v: ∂T/∂V above every troop count = %v, want 1", f, got)
		}
		norm := f.NormalizedProbs()
		if s := sumOf(norm); math.Abs(s-1) > 2e-16 {
			t.Errorf("%v: NormalizedProbs %v sum to %v", f, norm, s)
		}
		if got, want := f.Value([]float64{0.5}), 3*probs[0]/sumOf(probs); math.Abs(got-want) > 1e-15 {
			t.Errorf("%v: Value between the first two troop counts = %v, want %v", f, got, want)
		}
	}
	if p := (BlottoField{V: 1, Troops: []float64{1}, Probs: []float64{0}}).NormalizedProbs(); p != nil {
		t.Errorf("NormalizedProbs of zero probabilities = %v, want nil", p)
	}
}
