package simulate

import (
	"math"
	"testing"

	"github.com/hetgain/hetgain/aggregators"
)

// TestKernels checks the fast kernels against the validating Operator
// methods: value, gradient and parameter derivative.
func TestKernels(t *testing.T) {
	specs := []string{"min", "max", "mean", "sum", "softmax(0)", "softmax(2.5)", "softmax(-3)", "softmax(inf)",
		"softmax(-inf)", "lse(1.5)", "lse(-0.7)", "lse(-inf)", "powersum(0.5)", "powersum(1)", "powersum(3)",
		"meanpower(0.5)", "meanpower(1)", "meanpower(3)", "powermean(2)", "powermean(-1)", "level(1)"}
	r := newRNG(1, 0, 7)
	for _, spec := range specs {
		op := mustParse(t, spec)
		k := newKernel(op)
		for n := 1; n <= 5; n++ {
			for trial := 0; trial < 20; trial++ {
				x := make([]float64, n)
				for i := range x {
					x[i] = r.float64()
					if trial%5 == 0 && i == 0 {
						x[i] = 0
					}
					if trial%7 == 0 && i > 0 {
						x[i] = x[0] // ties
					}
				}
				w, g := make([]float64, n), make([]float64, n)
				want, err := aggregators.Evaluate(op, x)
				if err != nil {
					t.Fatal(err)
				}
				got, err := k.value(x, w)
				if err != nil || math.Abs(got-want) > 1e-15*math.Max(1, math.Abs(want)) {
					t.Errorf("%s(%v) = %v (%v), want %v", spec, x, got, err, want)
				}
				f, dt, err := k.valueGrad(x, g, w)
				if err != nil || f != got {
					t.Errorf("%s(%v): valueGrad value %v (%v), value %v", spec, x, f, err, got)
				}
				wg := op.Gradient(nil, x)
				for i := range g {
					if math.Abs(g[i]-wg[i]) > 1e-13*math.Max(1, math.Abs(wg[i])) {
						t.Errorf("%s(%v): gradient %v, aggregators say %v", spec, x, g, wg)
						break
					}
				}
				wdt := 0.0
				if p, ok := op.(aggregators.Parametric); ok {
					wdt = p.ParamDerivative(x)
				}
				if math.Abs(dt-wdt) > 1e-12*math.Max(1, math.Abs(wdt)) {
					t.Errorf("%s(%v): ∂/∂t %v, aggregators say %v", spec, x, dt, wdt)
				}
			}
		}
	}
}

func TestParamsHelpers(t *testing.T) {
	p := Params{Names: []string{"a", "b"}, Values: []float64{1, 2}}
	q := p.Clone()
	if err := q.Set("b", 5); err != nil {
		t.Fatal(err)
	}
	if p.Values[1] != 2 || q.Values[1] != 5 {
		t.Error("Clone shares values")
	}
	if err := q.Set("c", 1); err == nil {
		t.Error("Set of an unknown name")
	}
	if err := q.Set("a", math.NaN()); err == nil {
		t.Error("Set NaN")
	}
	if q.Index("b") != 1 || q.Index("z") != -1 {
		t.Error("Index")
	}
	if s := q.String(); s != "{a=1 b=5}" {
		t.Errorf("String %q", s)
	}
	if s := (Space{Discrete: true, Choices: 3}).String(); s != "Discrete(3)" {
		t.Errorf("Space %q", s)
	}
	if w := (Space{Dim: 2}).Width(); w != 2 {
		t.Errorf("Width %d", w)
	}
}

func TestRNG(t *testing.T) {
	a, b := newRNG(5, 0, 1), newRNG(5, 0, 1)
	c := newRNG(5, 1, 1)
	same := true
	sum, sum2 := 0.0, 0.0
	const n = 20000
	for i := 0; i < n; i++ {
		x, y := a.normal(), b.normal()
		if x != y {
			t.Fatal("same stream differs")
		}
		if c.normal() != x {
			same = false
		}
		sum += x
		sum2 += x * x
	}
	if same {
		t.Error("streams of elements 0 and 1 coincide")
	}
	if m, v := sum/n, sum2/n; math.Abs(m) > 0.03 || math.Abs(v-1) > 0.05 {
		t.Errorf("normal draws: mean %v, variance %v", m, v)
	}
}
