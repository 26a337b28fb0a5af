package gain

import (
	"math"
	"reflect"

	"github.com/hetgain/hetgain/aggregators"
)

// numKernel evaluates one aggregation operator, exactly or smoothed, on a
// flat slice, without validating its input and without allocating. The
// optimisers call it millions of times; the true operators (which validate
// every input, and some of which allocate) are called only on the
// allocations that are returned.
//
// value returns f(x); valueGrad also stores the gradient (or the
// subgradient the operator documents) in dst, len(dst) = len(x).
type numKernel interface {
	value(x []float64) float64
	valueGrad(dst, x []float64) float64
}

// numKernelFor returns a kernel for op. If temp > 0 and op is not smooth
// (min, max and the members of the families equal to them, and the
// threshold operators), the kernel is a smooth surrogate: log-sum-exp with
// temperature ±temp/scale for max and min, and a logistic step of width
// scale/temp for the thresholds; scale is the typical magnitude of the
// inputs. nonsmooth reports whether op has such a surrogate. size is the
// largest input length (for scratch space). If generic, exact kernels call
// the operator's own methods (for benchmarks of the kernels).
func numKernelFor(op aggregators.Operator, temp, scale float64, size int, generic bool) (k numKernel, nonsmooth bool) {
	k, nonsmooth = numExactKernel(op, size)
	if !nonsmooth || temp <= 0 {
		if generic {
			k = numGeneric{op: op}
		}
		return k, nonsmooth
	}
	kt := temp / scale
	switch o := op.(type) {
	case aggregators.LevelThreshold:
		return numLevelSmooth{l: o.L, k: kt}, true
	case aggregators.BlottoField:
		return numBlottoSmooth{v: o.V, troops: o.Troops, probs: o.NormalizedProbs(), k: kt}, true
	}
	switch k.(type) {
	case numMin:
		return &numLSE{t: -kt, w: make([]float64, size)}, true
	case numMax:
		return &numLSE{t: kt, w: make([]float64, size)}, true
	}
	return k, nonsmooth
}

// numExactKernel returns the exact kernel of op, and whether op is one of
// the non-smooth operators that numKernelFor can smooth.
func numExactKernel(op aggregators.Operator, size int) (numKernel, bool) {
	switch o := op.(type) {
	case aggregators.Min:
		return numMin{}, true
	case aggregators.Max:
		return numMax{}, true
	case aggregators.Mean:
		return numMean{}, false
	case aggregators.Sum:
		return numSum{}, false
	case aggregators.Softmax:
		if e, ok := numExtreme(o.T); ok {
			return e, true
		}
		return &numSoftmax{t: o.T, w: make([]float64, size)}, false
	case aggregators.LogSumExp:
		if e, ok := numExtreme(o.T); ok {
			return e, true
		}
		return &numLSE{t: o.T, w: make([]float64, size)}, false
	case aggregators.PowerMean:
		if e, ok := numExtreme(o.T); ok {
			return e, true
		}
		return &numPowerMean{t: o.T, z: make([]float64, size)}, false
	case aggregators.PowerSum:
		return numPowerSum{t: o.T}, false
	case aggregators.MeanPower:
		return numMeanPower{numPowerSum{t: o.T}}, false
	case aggregators.LevelThreshold:
		return numLevel{l: o.L}, true
	case aggregators.BlottoField:
		return numBlotto{v: o.V, troops: o.Troops, probs: o.NormalizedProbs()}, true
	}
	return numGeneric{op: op}, false
}

func numExtreme(t float64) (numKernel, bool) {
	switch {
	case math.IsInf(t, 1):
		return numMax{}, true
	case math.IsInf(t, -1):
		return numMin{}, true
	}
	return nil, false
}

// numSameOperator reports whether a and b are the same operator (equal
// dynamic types and field values; operators holding functions are never
// equal to another).
func numSameOperator(a, b aggregators.Operator) bool {
	return reflect.TypeOf(a) == reflect.TypeOf(b) && reflect.DeepEqual(a, b)
}

type numMin struct{}

func (numMin) value(x []float64) float64 {
	v := x[0]
	for _, u := range x[1:] {
		v = math.Min(v, u)
	}
	return v
}

func (k numMin) valueGrad(dst, x []float64) float64 {
	v := k.value(x)
	numTieGradient(dst, x, v)
	return v
}

type numMax struct{}

func (numMax) value(x []float64) float64 {
	v := x[0]
	for _, u := range x[1:] {
		v = math.Max(v, u)
	}
	return v
}

func (k numMax) valueGrad(dst, x []float64) float64 {
	v := k.value(x)
	numTieGradient(dst, x, v)
	return v
}

// numTieGradient is the subgradient of min and max used by the
// aggregators package: 1/k on each of the k coordinates equal to the
// extreme value.
func numTieGradient(dst, x []float64, extreme float64) {
	ties := 0
	for _, v := range x {
		if v == extreme {
			ties++
		}
	}
	for i, v := range x {
		dst[i] = 0
		if v == extreme {
			dst[i] = 1 / float64(ties)
		}
	}
}

type numMean struct{}

func (numMean) value(x []float64) float64 {
	n := float64(len(x))
	s := 0.0
	for _, v := range x {
		s += v / n
	}
	return s
}

func (k numMean) valueGrad(dst, x []float64) float64 {
	for i := range dst {
		dst[i] = 1 / float64(len(x))
	}
	return k.value(x)
}

type numSum struct{}

func (numSum) value(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s
}

func (k numSum) valueGrad(dst, x []float64) float64 {
	for i := range dst {
		dst[i] = 1
	}
	return k.value(x)
}

// numSoftmax is the softmax-weighted mean with temperature t.
type numSoftmax struct {
	t float64
	w []float64
}

func (k *numSoftmax) value(x []float64) float64 {
	w := numSoftmaxWeights(k.w[:len(x)], x, k.t)
	s := 0.0
	for i, v := range x {
		s += w[i] * v
	}
	return s
}

func (k *numSoftmax) valueGrad(dst, x []float64) float64 {
	f := k.value(x)
	for i, v := range x {
		dst[i] = k.w[i] * (1 + k.t*(v-f))
	}
	return f
}

// numSoftmaxWeights stores softmax(t x) in w, shifting the exponents so
// that they are all <= 0.
func numSoftmaxWeights(w, x []float64, t float64) []float64 {
	s := x[0]
	for _, v := range x[1:] {
		if t >= 0 {
			s = math.Max(s, v)
		} else {
			s = math.Min(s, v)
		}
	}
	z := 0.0
	for i, v := range x {
		w[i] = math.Exp(t * (v - s))
		z += w[i]
	}
	for i := range w {
		w[i] /= z
	}
	return w
}

// numLSE is (1/t) ln sum_i exp(t x_i); the smooth surrogate of max (t > 0)
// and min (t < 0).
type numLSE struct {
	t float64
	w []float64
}

func (k *numLSE) value(x []float64) float64 {
	s := x[0]
	for _, v := range x[1:] {
		if k.t >= 0 {
			s = math.Max(s, v)
		} else {
			s = math.Min(s, v)
		}
	}
	z := 0.0
	for _, v := range x {
		z += math.Exp(k.t * (v - s))
	}
	return s + math.Log(z)/k.t
}

func (k *numLSE) valueGrad(dst, x []float64) float64 {
	numSoftmaxWeights(dst, x, k.t)
	return k.value(x)
}

// numPowerSum is sum_i x_i^t for x >= 0; for t < 1 the gradient is
// evaluated at max(x_i, ZeroFloor), as aggregators.PowerSum does.
type numPowerSum struct{ t float64 }

func (k numPowerSum) value(x []float64) float64 {
	s := 0.0
	switch k.t {
	case 1:
		for _, v := range x {
			s += v
		}
	case 2:
		for _, v := range x {
			s += v * v
		}
	default:
		for _, v := range x {
			s += math.Pow(v, k.t)
		}
	}
	return s
}

func (k numPowerSum) valueGrad(dst, x []float64) float64 {
	for i, v := range x {
		switch {
		case k.t == 1:
			dst[i] = 1
		case k.t == 2:
			dst[i] = 2 * v
		default:
			if k.t < 1 && v < aggregators.ZeroFloor {
				v = aggregators.ZeroFloor
			}
			dst[i] = k.t * math.Pow(v, k.t-1)
		}
	}
	return k.value(x)
}

// numMeanPower is the power sum over n, as aggregators.MeanPower.
type numMeanPower struct{ sum numPowerSum }

func (k numMeanPower) value(x []float64) float64 {
	return k.sum.value(x) / float64(len(x))
}

func (k numMeanPower) valueGrad(dst, x []float64) float64 {
	v := k.sum.valueGrad(dst, x)
	n := float64(len(x))
	for i := range dst[:len(x)] {
		dst[i] /= n
	}
	return v / n
}

// numPowerMean is the power mean ((1/n) sum_i x_i^t)^(1/t) of x >= 0 for
// finite t, computed in the log domain; for t < 1 the gradient is evaluated
// with coordinates below ZeroFloor raised to it, as aggregators.PowerMean
// does.
type numPowerMean struct {
	t float64
	z []float64
}

func (k *numPowerMean) value(x []float64) float64 {
	return math.Exp(k.logValue(x))
}

// logValue returns ln M_t(x), -Inf where M_t(x) = 0.
func (k *numPowerMean) logValue(x []float64) float64 {
	t, n := k.t, float64(len(x))
	if math.Abs(t) < 1e-30 {
		t = 0
	}
	zero, all := false, true
	for _, v := range x {
		if v == 0 {
			zero = true
		} else {
			all = false
		}
	}
	if all || t <= 0 && zero {
		return math.Inf(-1)
	}
	if t == 0 {
		s := 0.0
		for _, v := range x {
			s += math.Log(v)
		}
		return s / n
	}
	z := k.z[:len(x)]
	top := math.Inf(-1)
	for i, v := range x {
		z[i] = t * math.Log(v)
		top = math.Max(top, z[i])
	}
	s := 0.0
	for _, v := range z {
		s += math.Exp(v - top)
	}
	return (top + math.Log(s/n)) / t
}

func (k *numPowerMean) valueGrad(dst, x []float64) float64 {
	f := k.value(x)
	t, n := k.t, float64(len(x))
	if t == 1 {
		for i := range dst {
			dst[i] = 1 / n
		}
		return f
	}
	xg := x
	if t < 1 {
		// Raise coordinates below ZeroFloor, in dst (overwritten below).
		for i, v := range x {
			dst[i] = math.Max(v, aggregators.ZeroFloor)
		}
		xg = dst
	}
	lm := k.logValue(xg)
	if math.IsInf(lm, -1) { // x = 0 with t > 1
		for i := range dst {
			dst[i] = math.Pow(n, -1/t)
		}
		return f
	}
	for i, v := range xg {
		if t == 0 || math.Abs(t) < 1e-30 {
			dst[i] = math.Exp(lm-math.Log(v)) / n
		} else {
			dst[i] = math.Exp((t-1)*(math.Log(v)-lm)) / n
		}
	}
	return f
}

// numLevel is the level threshold L·1[sum(x) >= L], with gradient 0.
type numLevel struct{ l float64 }

func (k numLevel) value(x []float64) float64 {
	if numSumOf(x) >= k.l {
		return k.l
	}
	return 0
}

func (k numLevel) valueGrad(dst, x []float64) float64 {
	for i := range dst {
		dst[i] = 0
	}
	return k.value(x)
}

// numLevelSmooth is L·σ(k (sum(x) − L)) with the logistic σ.
type numLevelSmooth struct{ l, k float64 }

func (k numLevelSmooth) value(x []float64) float64 {
	return k.l * numLogistic(k.k*(numSumOf(x)-k.l))
}

func (k numLevelSmooth) valueGrad(dst, x []float64) float64 {
	s := numLogistic(k.k * (numSumOf(x) - k.l))
	d := k.l * k.k * s * (1 - s)
	for i := range dst {
		dst[i] = d
	}
	return k.l * s
}

// numBlotto is V·P[sum(x) > a], with gradient 0.
type numBlotto struct {
	v             float64
	troops, probs []float64
}

func (k numBlotto) value(x []float64) float64 {
	s, p := numSumOf(x), 0.0
	for i, a := range k.troops {
		if s > a {
			p += k.probs[i]
		}
	}
	return k.v * p
}

func (k numBlotto) valueGrad(dst, x []float64) float64 {
	for i := range dst {
		dst[i] = 0
	}
	return k.value(x)
}

// numBlottoSmooth is V·sum_k p_k σ(k (sum(x) − a_k)).
type numBlottoSmooth struct {
	v             float64
	troops, probs []float64
	k             float64
}

func (k numBlottoSmooth) value(x []float64) float64 {
	s, p := numSumOf(x), 0.0
	for i, a := range k.troops {
		p += k.probs[i] * numLogistic(k.k*(s-a))
	}
	return k.v * p
}

func (k numBlottoSmooth) valueGrad(dst, x []float64) float64 {
	s, p, d := numSumOf(x), 0.0, 0.0
	for i, a := range k.troops {
		e := numLogistic(k.k * (s - a))
		p += k.probs[i] * e
		d += k.probs[i] * k.k * e * (1 - e)
	}
	for i := range dst {
		dst[i] = k.v * d
	}
	return k.v * p
}

func numLogistic(z float64) float64 {
	if z >= 0 {
		return 1 / (1 + math.Exp(-z))
	}
	e := math.Exp(z)
	return e / (1 + e)
}

// numGeneric evaluates an operator that has no kernel of its own through
// its methods (which validate the input and may panic; the optimisers
// recover such panics and report them as errors).
type numGeneric struct{ op aggregators.Operator }

func (k numGeneric) value(x []float64) float64 { return k.op.Value(x) }

func (k numGeneric) valueGrad(dst, x []float64) float64 {
	k.op.Gradient(dst, x)
	return k.op.Value(x)
}

func numSumOf(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s
}
