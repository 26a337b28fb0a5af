package aggregators

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// allFamilies returns a valid member of every operator family.
func allFamilies() []Operator {
	return []Operator{
		Min{}, Max{}, Mean{}, Sum{}, Softmax{T: 2}, LogSumExp{T: -1}, PowerSum{T: 0.5}, MeanPower{T: 2}, PowerMean{T: -2},
		exampleBlotto(), LevelThreshold{L: 1}, sumForms()[0], sumForms()[2],
	}
}

func TestCheckInputErrors(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	tests := []struct {
		x       []float64
		want    error
		mention string
		nonNeg  bool // an error only for NonNegative operators
	}{
		{nil, ErrEmpty, "x: no values", false},
		{[]float64{}, ErrEmpty, "x: no values", false},
		{[]float64{0.5, nan}, ErrNaN, "x[1] = NaN", false},
		{[]float64{inf}, ErrInf, "x[0] = +Inf", false},
		{[]float64{0, 1, -inf}, ErrInf, "x[2] = -Inf", false},
		{[]float64{0, 2 * MaxInput}, ErrRange, "x[1] = 2e+100", false},
		{[]float64{-1.5 * MaxInput}, ErrRange, "x[0]", false},
		{[]float64{0.5, 0.5, -1e-300}, ErrNegative, "x[2] = -1e-300", true},
	}
	for _, op := range allFamilies() {
		for _, tc := range tests {
			err := Check(op, tc.x)
			if tc.nonNeg && op.Domain() == Real {
				if err != nil {
					t.Errorf("Check(%v, %v) = %v, want nil", op, tc.x, err)
				}
				continue
			}
			if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.mention) {
				t.Errorf("Check(%v, %v) = %v, want an error wrapping %q and mentioning %q", op, tc.x, err, tc.want, tc.mention)
			}
			v, eerr := Evaluate(op, tc.x)
			if !errors.Is(eerr, tc.want) || !math.IsNaN(v) || !strings.HasPrefix(eerr.Error(), "aggregators: "+op.String()) {
				t.Errorf("Evaluate(%v, %v) = %v, %v", op, tc.x, v, eerr)
			}
			mustPanic(t, op.String()+".Value", func() { op.Value(tc.x) })
			mustPanic(t, op.String()+".Gradient", func() { op.Gradient(nil, tc.x) })
			if p, ok := op.(Parametric); ok {
				mustPanic(t, op.String()+".ParamDerivative", func() { p.ParamDerivative(tc.x) })
			}
		}
		// Boundary values are accepted.
		for _, x := range [][]float64{{0}, {MaxInput}, {0, 5e-324, 1}} {
			if err := Check(op, x); err != nil {
				t.Errorf("Check(%v, %v) = %v", op, x, err)
			}
		}
		if op.Domain() == Real {
			if err := Check(op, []float64{-MaxInput, -1}); err != nil {
				t.Errorf("Check(%v, negative) = %v", op, err)
			}
		}
		// Gradient with a destination of the wrong length.
		mustPanic(t, op.String()+".Gradient(short dst)", func() { op.Gradient(make([]float64, 1), []float64{0.5, 0.5}) })
	}
}

func TestCheckParameterErrors(t *testing.T) {
	tests := []struct {
		op   Operator
		want error
	}{
		{PowerSum{T: 0}, ErrParam},
		{PowerSum{}, ErrParam},
		{PowerSum{T: -1}, ErrParam},
		{PowerSum{T: math.Inf(1)}, ErrParam},
		{PowerSum{T: math.NaN()}, ErrParam},
		{PowerSum{T: 2 * MaxParam}, ErrParam},
		{MeanPower{}, ErrParam},
		{MeanPower{T: -0.5}, ErrParam},
		{MeanPower{T: math.NaN()}, ErrParam},
		{MeanPower{T: math.Inf(1)}, ErrParam},
		{MeanPower{T: 2 * MaxParam}, ErrParam},
		{LogSumExp{}, ErrParam},
		{LogSumExp{T: 1e-101}, ErrParam},
		{LogSumExp{T: math.NaN()}, ErrParam},
		{LogSumExp{T: -2 * MaxParam}, ErrParam},
		{Softmax{T: math.NaN()}, ErrParam},
		{Softmax{T: 1.5 * MaxParam}, ErrParam},
		{PowerMean{T: math.NaN()}, ErrParam},
		{PowerMean{T: -1.5 * MaxParam}, ErrParam},
		{LevelThreshold{}, ErrParam},
		{LevelThreshold{L: -1}, ErrParam},
		{LevelThreshold{L: math.Inf(1)}, ErrParam},
		{LevelThreshold{L: math.NaN()}, ErrParam},
		{BlottoField{}, ErrEmpty},
		{BlottoField{V: 1, Troops: []float64{1}, Probs: []float64{0.5, 0.5}}, ErrDimension},
		{BlottoField{V: 1, Troops: []float64{1, 2}, Probs: []float64{0.5, 0.6}}, ErrParam},
		{BlottoField{V: 1, Troops: []float64{1, 2}, Probs: []float64{1.5, -0.5}}, ErrNegative},
		{BlottoField{V: 1, Troops: []float64{1, math.NaN()}, Probs: []float64{0.5, 0.5}}, ErrNaN},
		{BlottoField{V: -1, Troops: []float64{1}, Probs: []float64{1}}, ErrParam},
		{BlottoField{V: math.Inf(1), Troops: []float64{1}, Probs: []float64{1}}, ErrParam},
		{SumForm{Name: "nog"}, ErrParam},
	}
	x := []float64{0.5, 0.25}
	for _, tc := range tests {
		err := Check(tc.op, x)
		if !errors.Is(err, tc.want) {
			t.Errorf("Check(%#v) = %v, want an error wrapping %q", tc.op, err, tc.want)
			continue
		}
		if _, e := Evaluate(tc.op, x); !errors.Is(e, tc.want) {
			t.Errorf("Evaluate(%#v) = %v", tc.op, e)
		}
		op := tc.op
		mustPanic(t, op.String()+".Value", func() { op.Value(x) })
		mustPanic(t, op.String()+".Gradient", func() { op.Gradient(nil, x) })
		if p, ok := op.(Parametric); ok {
			mustPanic(t, op.String()+".ParamDerivative", func() { p.ParamDerivative(x) })
		}
	}
}

// TestConstructors checks that the constructors and WithParam accept the
// domain of each family and reject the rest with ErrParam.
func TestConstructors(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	type ctor struct {
		name string
		make func(float64) (Parametric, error)
		good []float64
		bad  []float64
	}
	ctors := []ctor{
		{"softmax", func(v float64) (Parametric, error) { return NewSoftmax(v) },
			[]float64{0, -3, MaxParam, -MaxParam, inf, -inf, 5e-324}, []float64{nan, 1.01 * MaxParam, -1.01 * MaxParam}},
		{"lse", func(v float64) (Parametric, error) { return NewLogSumExp(v) },
			[]float64{-3, 1e-100, -1e-100, MaxParam, inf, -inf}, []float64{0, 1e-101, nan, 2 * MaxParam}},
		{"powersum", func(v float64) (Parametric, error) { return NewPowerSum(v) },
			[]float64{5e-324, 0.5, 1, MaxParam}, []float64{0, -1, inf, nan, 2 * MaxParam}},
		{"meanpower", func(v float64) (Parametric, error) { return NewMeanPower(v) },
			[]float64{5e-324, 0.5, 1, MaxParam}, []float64{0, -1, inf, nan, 2 * MaxParam}},
		{"powermean", func(v float64) (Parametric, error) { return NewPowerMean(v) },
			[]float64{0, -7, MaxParam, inf, -inf}, []float64{nan, 2 * MaxParam}},
		{"blotto", func(v float64) (Parametric, error) { return exampleBlotto().WithParam(v) },
			[]float64{0, 2, 1e300}, []float64{-1, inf, nan}},
	}
	for _, c := range ctors {
		for _, v := range c.good {
			op, err := c.make(v)
			if err != nil || op.Param() != v {
				t.Errorf("%s(%v) = %v, %v", c.name, v, op, err)
				continue
			}
			if err := Check(op, []float64{0.5}); err != nil {
				t.Errorf("Check(%v) = %v", op, err)
			}
			// WithParam stays in the family.
			q, err := op.WithParam(op.Param())
			if err != nil || q.String() != op.String() {
				t.Errorf("%v.WithParam(%v) = %v, %v", op, op.Param(), q, err)
			}
		}
		for _, v := range c.bad {
			op, err := c.make(v)
			if !errors.Is(err, ErrParam) {
				t.Errorf("%s(%v) = %v, %v; want ErrParam", c.name, v, op, err)
			}
			if op != nil && Check(op, []float64{0.5}) == nil {
				t.Errorf("%s(%v) returned an operator that passes Check", c.name, v)
			}
		}
	}
	if _, err := NewLevelThreshold(2); err != nil {
		t.Errorf("NewLevelThreshold(2): %v", err)
	}
	for _, l := range []float64{0, -1, inf, nan} {
		if _, err := NewLevelThreshold(l); !errors.Is(err, ErrParam) {
			t.Errorf("NewLevelThreshold(%v) = %v", l, err)
		}
	}
	if _, err := NewBlottoField(1, []float64{1}, nil); !errors.Is(err, ErrDimension) {
		t.Errorf("NewBlottoField with no probabilities: %v", err)
	}
}

// TestEvaluate checks Evaluate on valid input, including operators that
// produce non-finite values.
func TestEvaluate(t *testing.T) {
	for _, op := range allFamilies() {
		x := []float64{0.25, 0.5}
		v, err := Evaluate(op, x)
		if err != nil || v != op.Value(x) {
			t.Errorf("Evaluate(%v, %v) = %v, %v; Value %v", op, x, v, err, op.Value(x))
		}
	}
	// A power-sum of large inputs overflows.
	if v, err := Evaluate(PowerSum{T: 1000}, []float64{10}); !errors.Is(err, ErrInf) || !strings.Contains(err.Error(), "+Inf") {
		t.Errorf("Evaluate(powersum(1000), 10) = %v, %v; want ErrInf", v, err)
	}
	// A SumForm whose g is not finite: an error, not a panic.
	inv := SumForm{Name: "inv", G: func(v float64) float64 { return 1 / v }, Dom: NonNegative}
	if v, err := Evaluate(inv, []float64{1, 0}); !errors.Is(err, ErrInf) || !strings.Contains(err.Error(), "x[1]") {
		t.Errorf("Evaluate(%v, (1, 0)) = %v, %v; want ErrInf naming x[1]", inv, v, err)
	}
	sqrt := SumForm{Name: "sqrt", G: math.Sqrt}
	if v, err := Evaluate(sqrt, []float64{-1}); !errors.Is(err, ErrNaN) {
		t.Errorf("Evaluate(%v, -1) = %v, %v; want ErrNaN", sqrt, v, err)
	}
	if v, err := Evaluate(sqrt, []float64{4, 9}); err != nil || v != 5 {
		t.Errorf("Evaluate(%v, (4, 9)) = %v, %v; want 5", sqrt, v, err)
	}
	// Value itself panics there, as documented.
	mustPanic(t, "sumform(inv).Value", func() { inv.Value([]float64{0}) })
	mustPanic(t, "sumform(sqrt).Gradient", func() { sqrt.Gradient(nil, []float64{-1}) })
	// A pointer to a SumForm is handled the same way.
	if _, err := Evaluate(&inv, []float64{0}); !errors.Is(err, ErrInf) {
		t.Errorf("Evaluate(&inv, 0) = %v", err)
	}
}

// TestDomainString checks that a Domain prints as its name, and that a
// SumForm's specification, which Parse cannot rebuild, is refused by it.
func TestDomainString(t *testing.T) {
	for d, want := range map[Domain]string{Real: "real", NonNegative: "non-negative", Domain(7): "Domain(7)"} {
		if got := d.String(); got != want {
			t.Errorf("Domain(%d).String() = %q, want %q", int(d), got, want)
		}
	}
	op := SumForm{Name: "sqrt", G: math.Sqrt, Dom: NonNegative}
	if _, err := Parse(op.String()); err == nil {
		t.Errorf("Parse(%q) accepted a SumForm's specification", op.String())
	}
}
