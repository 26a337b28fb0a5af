package aggregators

import (
	"errors"
	"math"
	"math/rand"
	"strings"
	"testing"
)

// sentinels lists every error that the package's errors may wrap.
var sentinels = []error{ErrEmpty, ErrNaN, ErrInf, ErrNegative, ErrRange, ErrDimension, ErrBudget, ErrParam}

// wrapsSentinel reports whether err wraps one of the package's sentinels.
func wrapsSentinel(err error) bool {
	for _, s := range sentinels {
		if errors.Is(err, s) {
			return true
		}
	}
	return false
}

// unitPoint returns n values drawn uniformly from (0, 1].
func unitPoint(rng *rand.Rand, n int) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = 1 - rng.Float64()
	}
	return x
}

// boxPoint returns n values drawn uniformly from [lo, 1].
func boxPoint(rng *rand.Rand, n int, lo float64) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = lo + (1-lo)*rng.Float64()
	}
	return x
}

// derivative5 returns the five-point central difference
// (-φ(2h) + 8φ(h) - 8φ(-h) + φ(-2h)) / (12h) of φ at 0. Its truncation error
// is O(h^4 φ⁽⁵⁾), far below that of the two-point difference, so the
// tolerance of the comparisons can stay near 1e-6 relative even for the
// steep members of the families (t = ±50).
func derivative5(phi func(s float64) float64, h float64) float64 {
	return (-phi(2*h) + 8*phi(h) - 8*phi(-h) + phi(-2*h)) / (12 * h)
}

// numGradient returns the finite-difference gradient of f at x, with step
// h[i] for coordinate i.
func numGradient(f func([]float64) float64, x, h []float64) []float64 {
	g := make([]float64, len(x))
	y := make([]float64, len(x))
	for i := range x {
		g[i] = derivative5(func(s float64) float64 {
			copy(y, x)
			y[i] = x[i] + s
			return f(y)
		}, h[i])
	}
	return g
}

func maxAbs(v []float64) float64 {
	m := 0.0
	for _, x := range v {
		m = math.Max(m, math.Abs(x))
	}
	return m
}

// closeTo reports whether got is within rel of want, relative to
// max(|want|, scale).
func closeTo(got, want, rel, scale float64) bool {
	return math.Abs(got-want) <= rel*math.Max(math.Abs(want), scale)
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

func allFinite(v []float64) bool {
	for _, x := range v {
		if !finite(x) {
			return false
		}
	}
	return true
}

func hasNaN(v []float64) bool {
	for _, x := range v {
		if math.IsNaN(x) {
			return true
		}
	}
	return false
}

// mustPanic runs f and fails unless it panics with a message starting with
// "aggregators: ".
func mustPanic(t *testing.T, name string, f func()) {
	t.Helper()
	msg, ok := panicMessage(f)
	if !ok {
		t.Errorf("%s: did not panic", name)
		return
	}
	if !strings.HasPrefix(msg, "aggregators: ") {
		t.Errorf("%s: panic message %q does not start with \"aggregators: \"", name, msg)
	}
}

// panicMessage runs f and returns the message of its panic, if it panics.
func panicMessage(f func()) (msg string, panicked bool) {
	defer func() {
		if r := recover(); r != nil {
			panicked = true
			switch v := r.(type) {
			case string:
				msg = v
			case error:
				msg = v.Error()
			default:
				msg = "non-string panic"
			}
		}
	}()
	f()
	return "", false
}

// Reference implementations, written from the definitions without any of
// the package's numerical care. They are accurate for moderate parameters
// and inputs in (0, 1].

func refSoftmax(x []float64, t float64) float64 {
	num, den := 0.0, 0.0
	for _, v := range x {
		num += math.Exp(t*v) * v
		den += math.Exp(t * v)
	}
	return num / den
}

func refLSE(x []float64, t float64) float64 {
	s := 0.0
	for _, v := range x {
		s += math.Exp(t * v)
	}
	return math.Log(s) / t
}

func refPowerSum(x []float64, t float64) float64 {
	s := 0.0
	for _, v := range x {
		s += math.Pow(v, t)
	}
	return s
}

func refPowerMean(x []float64, t float64) float64 {
	n := float64(len(x))
	if t == 0 {
		p := 1.0
		for _, v := range x {
			p *= v
		}
		return math.Pow(p, 1/n)
	}
	return math.Pow(refPowerSum(x, t)/n, 1/t)
}

func refSum(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s
}

func refMin(x []float64) float64 {
	m := math.Inf(1)
	for _, v := range x {
		if v < m {
			m = v
		}
	}
	return m
}

func refMax(x []float64) float64 {
	m := math.Inf(-1)
	for _, v := range x {
		if v > m {
			m = v
		}
	}
	return m
}

// refValue returns the reference value of op at x for the operators of the
// package (ok is false for an operator it does not know).
func refValue(op Operator, x []float64) (v float64, ok bool) {
	switch o := op.(type) {
	case Min:
		return refMin(x), true
	case Max:
		return refMax(x), true
	case Mean:
		return refSum(x) / float64(len(x)), true
	case Sum:
		return refSum(x), true
	case Softmax:
		return refSoftmax(x, o.T), true
	case LogSumExp:
		return refLSE(x, o.T), true
	case PowerSum:
		return refPowerSum(x, o.T), true
	case MeanPower:
		return refPowerSum(x, o.T) / float64(len(x)), true
	case PowerMean:
		return refPowerMean(x, o.T), true
	case LevelThreshold:
		if refSum(x) >= o.L {
			return o.L, true
		}
		return 0, true
	case BlottoField:
		s, p := refSum(x), 0.0
		for k, a := range o.Troops {
			if s > a {
				p += o.Probs[k]
			}
		}
		return o.V * p, true
	}
	return 0, false
}

// The parameters of the tests.
var (
	// realParams are the parameters tried for families defined for every t.
	realParams = []float64{-50, -5, -1, -0.3, 0, 0.3, 1, 2.5, 7, 50}
	// positiveParams are those tried for PowerSum.
	positiveParams = []float64{0.3, 1, 2.5, 7, 50}
)

// lseParams are realParams without 0.
func lseParams() []float64 {
	var ps []float64
	for _, t := range realParams {
		if t != 0 {
			ps = append(ps, t)
		}
	}
	return ps
}

// exampleBlotto is a battlefield of value 2 against an adversary that sends
// 0.5, 1.5 or 2.5 troops.
func exampleBlotto() BlottoField {
	op, err := NewBlottoField(2, []float64{0.5, 1.5, 2.5}, []float64{0.25, 0.5, 0.25})
	if err != nil {
		panic(err)
	}
	return op
}

// testParametrics returns a member of every smooth parametric family
// for each of the test parameters.
func testParametrics() []Parametric {
	var ops []Parametric
	for _, t := range realParams {
		ops = append(ops, Softmax{T: t}, PowerMean{T: t})
	}
	for _, t := range lseParams() {
		ops = append(ops, LogSumExp{T: t})
	}
	for _, t := range positiveParams {
		ops = append(ops, PowerSum{T: t}, MeanPower{T: t})
	}
	return ops
}
