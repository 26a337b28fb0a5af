package simulate

import (
	"fmt"
	"math"

	"github.com/hetgain/hetgain/aggregators"
)

// kernelKind selects an allocation-free evaluation of a known operator.
type kernelKind uint8

const (
	kGeneric kernelKind = iota // through the aggregators.Operator methods
	kMin
	kMean
	kMax
	kSum
	kSoftmax
	kLSE
	kPowerSum
	kMeanPower
)

// kernel evaluates one aggregator on a short vector without allocating, for
// the operators of the paper; other operators go through their Operator
// methods (checked with aggregators.Check first). The fast kernels agree
// with the aggregators package to rounding (bit for bit for min, max, mean,
// sum, PowerSum and MeanPower; softmax divides once by the normaliser
// instead of normalising each weight); subnormal inputs of PowerSum and
// MeanPower go through the generic path.
type kernel struct {
	kind   kernelKind
	t      float64
	op     aggregators.Operator
	par    aggregators.Parametric // nil if op is not parametric
	nonneg bool                   // op's domain is NonNegative
}

func newKernel(op aggregators.Operator) kernel {
	k := kernel{op: op, nonneg: op.Domain() == aggregators.NonNegative}
	k.par, _ = op.(aggregators.Parametric)
	switch o := op.(type) {
	case aggregators.Min:
		k.kind = kMin
	case aggregators.Max:
		k.kind = kMax
	case aggregators.Mean:
		k.kind = kMean
	case aggregators.Sum:
		k.kind = kSum
	case aggregators.Softmax:
		k.kind, k.t = kSoftmax, o.T
		if math.IsInf(o.T, 1) {
			k.kind = kMax
		} else if math.IsInf(o.T, -1) {
			k.kind = kMin
		}
	case aggregators.LogSumExp:
		k.kind, k.t = kLSE, o.T
		if math.IsInf(o.T, 1) {
			k.kind = kMax
		} else if math.IsInf(o.T, -1) {
			k.kind = kMin
		}
	case aggregators.PowerSum:
		k.kind, k.t = kPowerSum, o.T
	case aggregators.MeanPower:
		k.kind, k.t = kMeanPower, o.T
	default:
		k.kind = kGeneric
	}
	return k
}

// value returns op(x); w is scratch of at least len(x) values.
func (k *kernel) value(x, w []float64) (float64, error) {
	switch k.kind {
	case kMin:
		m := x[0]
		for _, v := range x[1:] {
			m = math.Min(m, v)
		}
		return m, nil
	case kMax:
		m := x[0]
		for _, v := range x[1:] {
			m = math.Max(m, v)
		}
		return m, nil
	case kMean:
		n, s := float64(len(x)), 0.0
		for _, v := range x {
			s += v / n
		}
		return s, nil
	case kSum:
		s := 0.0
		for _, v := range x {
			s += v
		}
		return s, nil
	case kSoftmax:
		f, _ := k.softmax(x, w)
		return f, nil
	case kLSE:
		s := shiftFor(x, k.t)
		z := 0.0
		for _, v := range x {
			if v == s {
				z++ // exp(0)
			} else {
				z += math.Exp(k.t * (v - s))
			}
		}
		return s + math.Log(z)/k.t, nil
	case kPowerSum, kMeanPower:
		s := 0.0
		for _, v := range x {
			if v > 0 && v < minNormal {
				return k.generic(x)
			}
			s += math.Pow(v, k.t)
		}
		if k.kind == kMeanPower {
			s /= float64(len(x))
		}
		return s, nil
	}
	return k.generic(x)
}

func (k *kernel) generic(x []float64) (float64, error) {
	return aggregators.Evaluate(k.op, x)
}

const minNormal = 0x1p-1022

// softmax returns sum_i w_i x_i with w = softmax(t x), computed as
// (sum_i e_i x_i) / z with e_i = exp(t (x_i - s)), z = sum_i e_i and s the
// max (t >= 0) or min of x, and stores the e_i in e. The term of the
// extreme coordinate is exp(0) = 1 and costs no exponential.
func (k *kernel) softmax(x, e []float64) (f, z float64) {
	if len(x) == 2 && len(e) >= 2 {
		// The same operations, unrolled.
		x0, x1 := x[0], x[1]
		e0, e1 := 1.0, 1.0
		if (x1 > x0) == (k.t >= 0) {
			if x0 != x1 {
				e0 = math.Exp(k.t * (x0 - x1))
			}
		} else {
			e1 = math.Exp(k.t * (x1 - x0))
		}
		e[0], e[1] = e0, e1
		z = e0 + e1
		return (e0*x0 + e1*x1) / z, z
	}
	s := shiftFor(x, k.t)
	for i, v := range x {
		ei := 1.0
		if v != s {
			ei = math.Exp(k.t * (v - s))
		}
		e[i] = ei
		z += ei
		f += ei * v
	}
	return f / z, z
}

// shiftFor returns max(x) for t >= 0 and min(x) otherwise (x is finite).
func shiftFor(x []float64, t float64) float64 {
	m := x[0]
	if t >= 0 {
		for _, v := range x[1:] {
			m = max(m, v)
		}
		return m
	}
	for _, v := range x[1:] {
		m = min(m, v)
	}
	return m
}

// valueGrad returns f = op(x), stores ∂f/∂x in g and returns ∂f/∂t (0 for
// non-parametric operators). Non-smooth points get the subgradients that
// the aggregators package documents (tie-averaged for min and max, the
// ZeroFloor convention for PowerSum with t < 1). w is scratch.
func (k *kernel) valueGrad(x, g, w []float64) (f, dt float64, err error) {
	switch k.kind {
	case kMin, kMax:
		f, _ = k.value(x, w)
		ties := 0
		for _, v := range x {
			if v == f {
				ties++
			}
		}
		for i, v := range x {
			g[i] = 0
			if v == f {
				g[i] = 1 / float64(ties)
			}
		}
		return f, 0, nil
	case kMean:
		f, _ = k.value(x, w)
		for i := range x {
			g[i] = 1 / float64(len(x))
		}
		return f, 0, nil
	case kSum:
		f, _ = k.value(x, w)
		for i := range x {
			g[i] = 1
		}
		return f, 0, nil
	case kSoftmax:
		var z float64
		f, z = k.softmax(x, w)
		for i, v := range x {
			wi := w[i] / z
			g[i] = wi * (1 + k.t*(v-f))
			dt += wi * (v - f) * (v - f)
		}
		return f, dt, nil
	case kLSE:
		f, _ = k.value(x, w)
		fs, z := k.softmax(x, w)
		for i := range x {
			g[i] = w[i] / z
		}
		return f, (fs - f) / k.t, nil
	case kPowerSum, kMeanPower:
		for _, v := range x {
			if v > 0 && v < minNormal {
				return k.genericGrad(x, g)
			}
		}
		n := 1.0
		if k.kind == kMeanPower {
			n = float64(len(x))
		}
		for i, v := range x {
			p := math.Pow(v, k.t)
			f += p
			if v > 0 {
				dt += p * math.Log(v)
			}
			if k.t < 1 && v < aggregators.ZeroFloor {
				v = aggregators.ZeroFloor
			}
			g[i] = k.t * math.Pow(v, k.t-1) / n
		}
		return f / n, dt / n, nil
	}
	return k.genericGrad(x, g)
}

func (k *kernel) genericGrad(x, g []float64) (f, dt float64, err error) {
	if f, err = aggregators.Evaluate(k.op, x); err != nil {
		return f, 0, err
	}
	k.op.Gradient(g, x)
	if k.par != nil {
		dt = k.par.ParamDerivative(x)
	}
	for _, v := range g {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return f, dt, fmt.Errorf("gradient of %v is not finite at %v: %w", k.op, x, aggregators.ErrInf)
		}
	}
	return f, dt, nil
}

// rewardFn evaluates R(A) = U(T_1(a_1), ..., T_M(a_M)) on flat [N][M]
// effort matrices, with scratch owned by the function (one per
// environment; not safe for concurrent use).
type rewardFn struct {
	n, m      int
	outer     kernel
	inner     []kernel // one per task
	col, w, y []float64
	g, gy     []float64
	gin       []float64 // [M][N] inner gradients
	dtIn      []float64 // [M] inner parameter derivatives
	// uniformInner is the kind of every inner kernel when they are all the
	// same one of min, max, mean or sum, and kGeneric otherwise.
	uniformInner kernelKind
}

func newRewardFn(r *aggregators.Reward, n, m int) rewardFn {
	f := rewardFn{n: n, m: m, outer: newKernel(r.Outer)}
	f.inner = make([]kernel, m)
	for j := range f.inner {
		f.inner[j] = newKernel(r.InnerFor(j))
	}
	k := n
	if m > k {
		k = m
	}
	f.col, f.w, f.y = make([]float64, n), make([]float64, k), make([]float64, m)
	f.g, f.gy = make([]float64, n), make([]float64, m)
	f.gin, f.dtIn = make([]float64, m*n), make([]float64, m)
	f.uniformInner = f.inner[0].kind
	for _, k := range f.inner {
		if k.kind != f.uniformInner {
			f.uniformInner = kGeneric
		}
	}
	switch f.uniformInner {
	case kMin, kMax, kMean, kSum:
	default:
		f.uniformInner = kGeneric
	}
	return f
}

// value returns R(a) for a flat [N][M] matrix a of valid efforts.
func (f *rewardFn) value(a []float64) (float64, error) {
	n, m := f.n, f.m
	y := f.y[:m]
	if f.uniformInner != kGeneric {
		// The inner operator is the same cheap reduction on every task:
		// reduce row by row, without copying columns.
		copy(y, a[:m])
		switch f.uniformInner {
		case kMax:
			for i := 1; i < n; i++ {
				row := a[i*m : (i+1)*m]
				for j, v := range row {
					if v > y[j] {
						y[j] = v
					}
				}
			}
		case kMin:
			for i := 1; i < n; i++ {
				row := a[i*m : (i+1)*m]
				for j, v := range row {
					if v < y[j] {
						y[j] = v
					}
				}
			}
		case kSum:
			for i := 1; i < n; i++ {
				row := a[i*m : (i+1)*m]
				for j, v := range row {
					y[j] += v
				}
			}
		case kMean:
			inv := float64(n)
			for j := range y {
				y[j] /= inv
			}
			for i := 1; i < n; i++ {
				row := a[i*m : (i+1)*m]
				for j, v := range row {
					y[j] += v / inv
				}
			}
		}
		// Efforts are finite and in [0, 1], so are these scores.
	} else {
		for j := 0; j < m; j++ {
			for i := 0; i < n; i++ {
				f.col[i] = a[i*m+j]
			}
			v, err := f.inner[j].value(f.col, f.w)
			if err != nil {
				return math.NaN(), err
			}
			if v-v != 0 || f.outer.nonneg && v < 0 {
				return math.NaN(), f.checkScore(j, v)
			}
			y[j] = v
		}
	}
	var r float64
	switch f.outer.kind {
	case kMin:
		r = y[0]
		for _, v := range y[1:] {
			if v < r {
				r = v
			}
		}
		return r, nil
	case kMax:
		r = y[0]
		for _, v := range y[1:] {
			if v > r {
				r = v
			}
		}
		return r, nil
	}
	r, err := f.outer.value(y, f.w)
	if err == nil && (math.IsNaN(r) || math.IsInf(r, 0)) {
		err = fmt.Errorf("reward %v∘... is %v: %w", f.outer.op, r, aggregators.ErrInf)
	}
	return r, err
}

func (f *rewardFn) checkScore(j int, y float64) error {
	switch {
	case math.IsNaN(y) || math.IsInf(y, 0):
		return fmt.Errorf("score of task %d is %v: %w", j, y, aggregators.ErrInf)
	case f.outer.nonneg && y < 0:
		return fmt.Errorf("score of task %d, %v = %v, is not a valid input of the outer operator %v: %w",
			j, f.inner[j].op, y, f.outer.op, aggregators.ErrNegative)
	}
	return nil
}

// tangent returns R(a) and stores in dr[k], k < K, its directional
// derivatives along the K tangents: da is the flat [N][M][K] tangent of a,
// slotU the tangent index of U's parameter (or -1) and slotT[j] that of
// task j's inner parameter (or -1).
func (f *rewardFn) tangent(a, da []float64, slotU int, slotT []int, dr []float64) (float64, error) {
	n, m, K := f.n, f.m, len(dr)
	for j := 0; j < m; j++ {
		for i := 0; i < n; i++ {
			f.col[i] = a[i*m+j]
		}
		y, dt, err := f.inner[j].valueGrad(f.col, f.gin[j*n:(j+1)*n], f.w)
		if err != nil {
			return math.NaN(), err
		}
		if err := f.checkScore(j, y); err != nil {
			return math.NaN(), err
		}
		f.y[j], f.dtIn[j] = y, dt
	}
	r, dtU, err := f.outer.valueGrad(f.y, f.gy, f.w)
	if err != nil {
		return r, err
	}
	if math.IsNaN(r) || math.IsInf(r, 0) {
		return r, fmt.Errorf("reward is %v: %w", r, aggregators.ErrInf)
	}
	for k := range dr {
		dr[k] = 0
	}
	for j := 0; j < m; j++ {
		gu := f.gy[j]
		if gu == 0 {
			continue
		}
		gin := f.gin[j*n : (j+1)*n]
		for i := 0; i < n; i++ {
			c := gu * gin[i]
			if c == 0 {
				continue
			}
			t := da[(i*m+j)*K : (i*m+j+1)*K]
			for k, v := range t {
				dr[k] += c * v
			}
		}
		if s := slotT[j]; s >= 0 {
			dr[s] += gu * f.dtIn[j]
		}
	}
	if slotU >= 0 {
		dr[slotU] += dtU
	}
	return r, nil
}

// valueWithoutRow returns the reward of the [N][M] efforts e with row i set
// to zero, R(A_{-i}) of a difference reward; row ([M]) holds the row while
// it is zero, and e is restored before it returns.
func (f *rewardFn) valueWithoutRow(e, row []float64, i int) (float64, error) {
	m := f.m
	copy(row, e[i*m:(i+1)*m])
	zero(e[i*m : (i+1)*m])
	r, err := f.value(e)
	copy(e[i*m:(i+1)*m], row)
	return r, err
}
