package aggregators

import (
	"errors"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// fuzzVector returns the first n%7 of the values: 0 to 6 coordinates.
func fuzzVector(n uint8, xs ...float64) []float64 {
	return append([]float64(nil), xs[:int(n)%7]...)
}

// inUnitBox reports whether every value is in [0, 1].
func inUnitBox(x []float64) bool {
	for _, v := range x {
		if !(v >= 0 && v <= 1) {
			return false
		}
	}
	return true
}

// moderateParam reports whether op's parameter is within 1e3 in magnitude
// or infinite: the range where finiteness on the box is promised.
func moderateParam(op Operator) bool {
	p, ok := op.(Parametric)
	return !ok || math.Abs(p.Param()) <= 1e3 || math.IsInf(p.Param(), 0)
}

// fuzzOperator checks the input contract of op at x: a valid input gives no
// NaN (and finite results on the box at moderate parameters) and is left
// as it was; an invalid one makes every method panic and Check's error
// wrap a sentinel.
func fuzzOperator(t *testing.T, op Operator, x []float64) {
	before := append([]float64(nil), x...)
	defer func() {
		for i := range x {
			if math.Float64bits(x[i]) != math.Float64bits(before[i]) {
				t.Errorf("%v changed its input %v to %v", op, before, x)
				return
			}
		}
	}()
	err := Check(op, x)
	if err != nil {
		if !wrapsSentinel(err) {
			t.Fatalf("Check(%v, %v) = %v wraps no sentinel", op, x, err)
		}
		if msg, ok := panicMessage(func() { op.Value(x) }); !ok || len(msg) < 13 || msg[:13] != "aggregators: " {
			t.Fatalf("%v.Value(%v) with Check error %v: panicked %v, message %q", op, x, err, ok, msg)
		}
		if _, ok := panicMessage(func() { op.Gradient(nil, x) }); !ok {
			t.Fatalf("%v.Gradient(%v) did not panic on invalid input", op, x)
		}
		if _, eerr := Evaluate(op, x); !wrapsSentinel(eerr) {
			t.Fatalf("Evaluate(%v, %v) = %v", op, x, eerr)
		}
		return
	}
	v := op.Value(x)
	g := op.Gradient(nil, x)
	d := 0.0
	p, parametric := op.(Parametric)
	if parametric {
		d = p.ParamDerivative(x)
	}
	if math.IsNaN(v) || hasNaN(g) || math.IsNaN(d) {
		t.Fatalf("%v at %v: value %v, gradient %v, ∂/∂t %v", op, x, v, g, d)
	}
	if inUnitBox(x) && moderateParam(op) && !(finite(v) && allFinite(g) && finite(d)) {
		t.Fatalf("%v at %v in the box: value %v, gradient %v, ∂/∂t %v", op, x, v, g, d)
	}
	if ev, eerr := Evaluate(op, x); eerr != nil && finite(v) || eerr == nil && ev != v {
		t.Fatalf("Evaluate(%v, %v) = %v, %v; Value %v", op, x, ev, eerr, v)
	}
}

// fuzzParametric builds op from its constructor; a constructor error must
// wrap a sentinel and leave an operator that Check rejects.
func fuzzParametric(t *testing.T, op Operator, err error, x []float64) {
	if err != nil {
		if !wrapsSentinel(err) {
			t.Fatalf("constructor error %v wraps no sentinel", err)
		}
		if Check(op, []float64{0.5}) == nil {
			t.Fatalf("constructor rejected %v but Check accepts it", op)
		}
	}
	fuzzOperator(t, op, x)
}

// addSeeds adds the shared seed corpus: parameters and inputs at the edges
// of the domains.
func addSeeds(f *testing.F) {
	inf, nan := math.Inf(1), math.NaN()
	params := []float64{0, 1, -1, 0.5, 2.5, 1e3, -1e3, MaxParam, 1e-5, -1e-5, 1e-300, 5e-324, inf, -inf, nan, 1e7, 1e-101}
	inputs := [][6]float64{
		{0.1, 0.5, 0.9, 0.3, 0.7, 1},
		{0, 0, 0, 0, 0, 0},
		{1, 1, 1, 1, 1, 1},
		{0, 1, 0, 1, 0, 1},
		{5e-324, 1e-300, 1, 0, 0.5, 1e-12},
		{-1, 0.5, 2, 1e100, -1e100, 3},
		{nan, 0, 0, 0, 0, 0},
		{0.2, inf, 0, 0, 0, 0},
		{0.2, 0.2, 2e100, 0, 0, 0},
	}
	for i, p := range params {
		in := inputs[i%len(inputs)]
		f.Add(p, uint8(3+i%4), in[0], in[1], in[2], in[3], in[4], in[5])
		f.Add(p, uint8(6), 0.25, 0.0, 1.0, 0.5, 5e-324, 1.0)
	}
	for _, in := range inputs {
		f.Add(1.5, uint8(6), in[0], in[1], in[2], in[3], in[4], in[5])
		f.Add(-7.0, uint8(2), in[0], in[1], in[2], in[3], in[4], in[5])
	}
	f.Add(1.0, uint8(0), 0.0, 0.0, 0.0, 0.0, 0.0, 0.0) // empty input
}

func FuzzBasic(f *testing.F) {
	addSeeds(f)
	ops := []Operator{Min{}, Max{}, Mean{}, Sum{}}
	f.Fuzz(func(t *testing.T, p float64, n uint8, x0, x1, x2, x3, x4, x5 float64) {
		x := fuzzVector(n, x0, x1, x2, x3, x4, x5)
		for _, op := range ops {
			fuzzOperator(t, op, x)
		}
	})
}

func FuzzSoftmax(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, p float64, n uint8, x0, x1, x2, x3, x4, x5 float64) {
		op, err := NewSoftmax(p)
		fuzzParametric(t, op, err, fuzzVector(n, x0, x1, x2, x3, x4, x5))
	})
}

func FuzzLogSumExp(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, p float64, n uint8, x0, x1, x2, x3, x4, x5 float64) {
		op, err := NewLogSumExp(p)
		fuzzParametric(t, op, err, fuzzVector(n, x0, x1, x2, x3, x4, x5))
	})
}

func FuzzPowerSum(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, p float64, n uint8, x0, x1, x2, x3, x4, x5 float64) {
		op, err := NewPowerSum(p)
		fuzzParametric(t, op, err, fuzzVector(n, x0, x1, x2, x3, x4, x5))
	})
}

// FuzzMeanPower also checks that every valid input gives the power sum
// divided by n, to the last bit.
func FuzzMeanPower(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, p float64, n uint8, x0, x1, x2, x3, x4, x5 float64) {
		op, err := NewMeanPower(p)
		x := fuzzVector(n, x0, x1, x2, x3, x4, x5)
		fuzzParametric(t, op, err, x)
		if err != nil || Check(op, x) != nil {
			return
		}
		if got, want := op.Value(x), (PowerSum{T: p}).Value(x)/float64(len(x)); got != want && !(math.IsNaN(got) && math.IsNaN(want)) {
			t.Errorf("%v at %v = %v, want the power sum over n, %v", op, x, got, want)
		}
	})
}

func FuzzPowerMean(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, p float64, n uint8, x0, x1, x2, x3, x4, x5 float64) {
		op, err := NewPowerMean(p)
		fuzzParametric(t, op, err, fuzzVector(n, x0, x1, x2, x3, x4, x5))
	})
}

// FuzzBlottoField uses p as the battlefield value, x0 and x1 as the
// adversary's troops and x2 as the probability of the first.
func FuzzBlottoField(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, p float64, n uint8, x0, x1, x2, x3, x4, x5 float64) {
		op, err := NewBlottoField(p, []float64{x0, x1}, []float64{x2, 1 - x2})
		fuzzParametric(t, op, err, fuzzVector(n, x3, x4, x5, x0, x1, x2))
	})
}

func FuzzLevelThreshold(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, p float64, n uint8, x0, x1, x2, x3, x4, x5 float64) {
		op, err := NewLevelThreshold(p)
		fuzzParametric(t, op, err, fuzzVector(n, x0, x1, x2, x3, x4, x5))
	})
}

// FuzzSumForm checks sum-forms of bounded functions, with and without
// their derivative; p picks the function.
func FuzzSumForm(f *testing.F) {
	addSeeds(f)
	ops := []SumForm{
		{Name: "tanh", G: math.Tanh, DG: func(v float64) float64 { c := math.Cosh(v); return 1 / (c * c) }, Class: Unknown},
		{Name: "sqrt", G: math.Sqrt, Dom: NonNegative, Class: StrictlyConcave, Increasing: true},
		{Name: "atan", G: math.Atan},
	}
	f.Fuzz(func(t *testing.T, p float64, n uint8, x0, x1, x2, x3, x4, x5 float64) {
		op := ops[0]
		if math.Abs(p) < 1e9 { // false for NaN and ±Inf
			op = ops[int(math.Abs(p))%len(ops)]
		}
		fuzzOperator(t, op, fuzzVector(n, x0, x1, x2, x3, x4, x5))
	})
}

// FuzzRewardValue builds a reward from two selector bytes and an effort
// matrix of up to 3 x 3 fuzzed entries: Value never panics, its error wraps
// a sentinel, and a valid matrix gives a non-NaN value and gradients.
func FuzzRewardValue(f *testing.F) {
	inf, nan := math.Inf(1), math.NaN()
	f.Add(uint8(0), uint8(0), uint8(2), uint8(2), 0.5, 0.5, 0.2, 0.8, 0.0, 0.0, 0.0, 0.0, 0.0)
	f.Add(uint8(3), uint8(5), uint8(3), uint8(3), 0.3, 0.3, 0.4, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0)
	f.Add(uint8(7), uint8(1), uint8(1), uint8(3), 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
	f.Add(uint8(4), uint8(6), uint8(2), uint8(2), nan, 0.5, 0.2, 0.8, 0.0, 0.0, 0.0, 0.0, 0.0)
	f.Add(uint8(2), uint8(2), uint8(2), uint8(2), -0.1, 0.5, 0.2, inf, 0.0, 0.0, 0.0, 0.0, 0.0)
	f.Add(uint8(5), uint8(8), uint8(2), uint8(2), 0.6, 0.6, 0.2, 0.8, 0.0, 0.0, 0.0, 0.0, 0.0)
	f.Add(uint8(6), uint8(9), uint8(0), uint8(2), 0.5, 0.5, 0.2, 0.8, 0.0, 0.0, 0.0, 0.0, 0.0)
	f.Add(uint8(1), uint8(4), uint8(3), uint8(1), 5e-324, 1e-300, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
	f.Add(uint8(5), uint8(6), uint8(2), uint8(2), 0.0, 0.5, 0.0, 0.5, 0.0, 0.0, 0.0, 0.0, 0.0) // negative score
	outers := []Operator{Min{}, Mean{}, Max{}, Sum{}, Softmax{T: 3}, PowerMean{T: -2}, PowerMean{T: 0.5}, LogSumExp{T: -10}, PowerSum{T: 2}}
	inners := [][]Operator{
		{Max{}}, {Min{}}, {Mean{}}, {Softmax{T: -4}}, {PowerMean{T: 0}}, {LogSumExp{T: 5}},
		{LogSumExp{T: -1}}, // negative scores
		{PowerSum{T: 0.3}, Softmax{T: 2}, exampleBlotto()},
		{LevelThreshold{L: 1}, PowerMean{T: 3}},
		{PowerSum{T: 1}, Max{}}, // M = 2 only
	}
	f.Fuzz(func(t *testing.T, so, si, nb, mb uint8, a0, a1, a2, a3, a4, a5, a6, a7, a8 float64) {
		r := NewReward(outers[int(so)%len(outers)], inners[int(si)%len(inners)]...)
		n, m := int(nb)%4, int(mb)%4
		var a mat.Matrix = emptyMatrix{n, m}
		if n > 0 && m > 0 {
			data := []float64{a0, a1, a2, a3, a4, a5, a6, a7, a8}
			a = mat.NewDense(n, m, data[:n*m])
		}
		var v float64
		var err error
		if msg, panicked := panicMessage(func() { v, err = r.Value(a) }); panicked {
			t.Fatalf("%v.Value panicked: %s", r, msg)
		}
		checkErr := r.Check(a)
		if err != nil {
			if !wrapsSentinel(err) {
				t.Fatalf("%v.Value error %v wraps no sentinel", r, err)
			}
			if checkErr != nil && checkErr.Error() != err.Error() {
				t.Fatalf("%v: Check error %v, Value error %v", r, checkErr, err)
			}
			return
		}
		if checkErr != nil {
			t.Fatalf("%v: Check error %v but Value succeeded", r, checkErr)
		}
		g, gerr := r.Gradient(a)
		pg, perr := r.ParamGradient(a)
		if gerr != nil || perr != nil {
			t.Fatalf("%v: Value succeeded but Gradient %v, ParamGradient %v", r, gerr, perr)
		}
		if !finite(v) || math.IsNaN(pg.Outer) || hasNaN(pg.Inner) {
			t.Fatalf("%v: value %v, parameter gradient %+v", r, v, pg)
		}
		for i := 0; i < n; i++ {
			for j := 0; j < m; j++ {
				if !finite(g.At(i, j)) {
					t.Fatalf("%v at\n%v\ngradient\n%v", r, mat.Formatted(a), mat.Formatted(g))
				}
			}
		}
	})
}

// FuzzRewardSumFormGradient builds rewards whose user-supplied sum-forms
// are finite on part of their domain only (g or g' infinite at 0, g NaN
// past 0.3, slopes whose product overflows): where Value succeeds,
// Gradient never panics, an error wraps ErrNaN or ErrInf, and without one
// every entry is finite.
func FuzzRewardSumFormGradient(f *testing.F) {
	f.Add(uint8(0), uint8(0), 0.3-5e-7, 0.0, 0.0, 0.5)
	f.Add(uint8(1), uint8(1), 1.0, 0.0, 0.0, 0.5)
	f.Add(uint8(2), uint8(2), 0.1, 0.2, 0.15, 0.05)
	edge := SumForm{Name: "log(0.3-x)", G: func(v float64) float64 { return math.Log(0.3 - v) }}
	root := SumForm{Name: "sqrt", G: math.Sqrt, DG: func(v float64) float64 { return 0.5 / math.Sqrt(v) }, Dom: NonNegative}
	steep := SumForm{Name: "steep", G: func(v float64) float64 { return v }, DG: func(float64) float64 { return 1e200 }}
	forms := []Operator{edge, root, steep}
	outers := []Operator{Min{}, Sum{}, Softmax{T: 2}, root, steep}
	f.Fuzz(func(t *testing.T, so, si uint8, a0, a1, a2, a3 float64) {
		r := NewReward(outers[int(so)%len(outers)], forms[int(si)%len(forms)])
		a := mat.NewDense(2, 2, []float64{a0, a1, a2, a3})
		if _, err := r.Value(a); err != nil {
			if !wrapsSentinel(err) {
				t.Fatalf("%v.Value error %v wraps no sentinel", r, err)
			}
			return
		}
		var g *mat.Dense
		var err error
		if msg, panicked := panicMessage(func() { g, err = r.Gradient(a) }); panicked {
			t.Fatalf("%v.Gradient panicked: %s", r, msg)
		}
		if err != nil {
			if !errors.Is(err, ErrNaN) && !errors.Is(err, ErrInf) {
				t.Fatalf("%v.Gradient error %v where Value succeeded: want ErrNaN or ErrInf", r, err)
			}
			return
		}
		for i := 0; i < 2; i++ {
			for j := 0; j < 2; j++ {
				if !finite(g.At(i, j)) {
					t.Fatalf("%v at\n%v\ngradient\n%v", r, mat.Formatted(a), mat.Formatted(g))
				}
			}
		}
	})
}
