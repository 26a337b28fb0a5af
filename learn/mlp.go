package learn

import (
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"
)

// mlp is a fully connected network with tanh activations on the hidden
// layers and a linear output layer.
//
// All parameters live in the single flat slice params so that
// optimizers, gradient clipping and checkpoints can treat them as one
// vector. For each layer l = 0, ..., len(sizes)-2, with in = sizes[l] and
// out = sizes[l+1], params holds the weights W_l as in*out values in
// row-major order, W_l[i*out+j] connecting input i to output j, followed
// by the out biases b_l. A layer computes y = x·W_l + b_l for a row
// vector x. Gradients use the same layout.
type mlp struct {
	sizes  []int // input, hidden..., output widths; len >= 2, all >= 1
	params []float64
}

// newMLP returns a network with the given layer widths, initialised from r.
// Weights are drawn uniformly from (-s, s) with the Glorot bound
// s = sqrt(6/(in+out)); for the output layer s is further multiplied by
// outScale. Biases are zero. Weights are drawn layer by layer in params
// order. newMLP panics if len(sizes) < 2, if any width is < 1 or if r is nil.
func newMLP(sizes []int, r *rng, outScale float64) *mlp {
	if len(sizes) < 2 {
		panic("learn: newMLP needs at least an input and an output width")
	}
	for _, s := range sizes {
		if s < 1 {
			panic("learn: newMLP layer width < 1")
		}
	}
	if r == nil {
		panic("learn: newMLP with nil rng")
	}
	m := &mlp{sizes: append([]int(nil), sizes...)}
	m.params = make([]float64, m.numParams())
	last := m.numLayers() - 1
	for l := 0; l <= last; l++ {
		w, _ := m.layer(m.params, l)
		s := math.Sqrt(6 / float64(sizes[l]+sizes[l+1]))
		if l == last {
			s *= outScale
		}
		for i := range w {
			w[i] = s * (2*r.float64() - 1)
		}
	}
	return m
}

// numParams returns the number of parameters, len(m.params).
func (m *mlp) numParams() int {
	n := 0
	for l := 0; l < m.numLayers(); l++ {
		n += (m.sizes[l] + 1) * m.sizes[l+1]
	}
	return n
}

// inputs returns the input width.
func (m *mlp) inputs() int { return m.sizes[0] }

// outputs returns the output width.
func (m *mlp) outputs() int { return m.sizes[len(m.sizes)-1] }

// numLayers returns the number of affine layers, len(m.sizes)-1.
func (m *mlp) numLayers() int { return len(m.sizes) - 1 }

// layer returns the weight and bias blocks of layer l within v, a vector
// with the params layout (m.params or a gradient). The blocks alias v.
func (m *mlp) layer(v []float64, l int) (w, b []float64) {
	off := 0
	for k := 0; k < l; k++ {
		off += (m.sizes[k] + 1) * m.sizes[k+1]
	}
	nw := m.sizes[l] * m.sizes[l+1]
	end := off + nw + m.sizes[l+1]
	return v[off : off+nw : off+nw], v[off+nw : end : end]
}

// maxHidden returns the largest hidden width, or 0 if there is none.
func (m *mlp) maxHidden() int {
	w := 0
	for _, s := range m.sizes[1 : len(m.sizes)-1] {
		if s > w {
			w = s
		}
	}
	return w
}

// clone returns a deep copy of m.
func (m *mlp) clone() *mlp {
	return &mlp{
		sizes:  append([]int(nil), m.sizes...),
		params: append([]float64(nil), m.params...),
	}
}

// rowMajor wraps the row-major rows×cols matrix held in data.
func rowMajor(rows, cols int, data []float64) blas64.General {
	return blas64.General{Rows: rows, Cols: cols, Stride: cols, Data: data}
}

// growFloats returns s resliced to length n, reallocating only if its
// capacity is too small. The contents are unspecified.
func growFloats(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n)
	}
	return s[:n]
}

// tanhInPlace replaces every element of v by its hyperbolic tangent.
func tanhInPlace(v []float64) {
	for i, z := range v {
		v[i] = math.Tanh(z)
	}
}

// mlpWork holds the activations of one batched forward pass so that a
// following backward pass can use them. Its zero value is ready to use.
// Buffers grow as needed and are reused, so repeated passes of at most the
// same size do not allocate. An mlpWork may be reused with networks of
// different shapes, but backward must pair with the latest forward on the
// same network. It is not safe for concurrent use.
type mlpWork struct {
	rows  int
	acts  [][]float64 // acts[0]: copy of the input; acts[l+1]: output of layer l
	delta [2][]float64
}

// prepare sizes the activation buffers of w for rows rows of m.
func (w *mlpWork) prepare(m *mlp, rows int) {
	if len(w.acts) != len(m.sizes) {
		w.acts = make([][]float64, len(m.sizes))
	}
	for l, s := range m.sizes {
		w.acts[l] = growFloats(w.acts[l], rows*s)
	}
	w.rows = rows
}

// matches reports whether w holds a forward pass with the shape of m.
func (w *mlpWork) matches(m *mlp) bool {
	if len(w.acts) != len(m.sizes) {
		return false
	}
	for l, s := range m.sizes {
		if len(w.acts[l]) != w.rows*s {
			return false
		}
	}
	return true
}

// forward evaluates m on the rows inputs in x, flat [rows][inputs], and
// returns the outputs, flat [rows][outputs]. The result is owned by w and
// is valid until the next forward with w. The input is copied, so x may be
// modified before backward. forward panics if rows < 0 or
// len(x) != rows*m.inputs().
func (m *mlp) forward(w *mlpWork, x []float64, rows int) []float64 {
	if rows < 0 || len(x) != rows*m.inputs() {
		panic("learn: forward input length mismatch")
	}
	w.prepare(m, rows)
	copy(w.acts[0], x)
	last := m.numLayers() - 1
	if rows == 0 {
		return w.acts[last+1]
	}
	for l := 0; l <= last; l++ {
		in, out := m.sizes[l], m.sizes[l+1]
		wt, b := m.layer(m.params, l)
		z := w.acts[l+1]
		blas64.Gemm(blas.NoTrans, blas.NoTrans, 1,
			rowMajor(rows, in, w.acts[l]), rowMajor(in, out, wt), 0, rowMajor(rows, out, z))
		for r := 0; r < rows; r++ {
			floats.Add(z[r*out:(r+1)*out], b)
		}
		if l < last {
			tanhInPlace(z)
		}
	}
	return w.acts[last+1]
}

// backward adds to grad the gradient of a loss with respect to the
// parameters, given dOut = dLoss/dOutput, flat [rows][outputs], for the
// last forward pass with w. grad has the params layout and is accumulated
// into, not overwritten; dOut is not modified. backward panics if w does
// not hold a forward pass of m's shape or if a length is wrong.
func (m *mlp) backward(w *mlpWork, dOut []float64, grad []float64) {
	if !w.matches(m) {
		panic("learn: backward without a matching forward")
	}
	rows := w.rows
	if len(dOut) != rows*m.outputs() {
		panic("learn: backward dOut length mismatch")
	}
	if len(grad) != len(m.params) {
		panic("learn: backward grad length mismatch")
	}
	if rows == 0 {
		return
	}
	delta := dOut
	for l := m.numLayers() - 1; l >= 0; l-- {
		in, out := m.sizes[l], m.sizes[l+1]
		wt, _ := m.layer(m.params, l)
		gw, gb := m.layer(grad, l)
		a := w.acts[l]
		// dW += Aᵀ·δ, db += column sums of δ.
		blas64.Gemm(blas.Trans, blas.NoTrans, 1,
			rowMajor(rows, in, a), rowMajor(rows, out, delta), 1, rowMajor(in, out, gw))
		for r := 0; r < rows; r++ {
			floats.Add(gb, delta[r*out:(r+1)*out])
		}
		if l == 0 {
			break
		}
		// δ ← (δ·Wᵀ) ⊙ (1 - a²), a being the tanh output feeding layer l.
		next := growFloats(w.delta[l%2], rows*in)
		w.delta[l%2] = next
		blas64.Gemm(blas.NoTrans, blas.Trans, 1,
			rowMajor(rows, out, delta), rowMajor(in, out, wt), 0, rowMajor(rows, in, next))
		for i, ai := range a {
			next[i] *= 1 - ai*ai
		}
		delta = next
	}
}

// scratchLen returns the minimum length of the scratch slice for which
// forward1 does not allocate: 0 without hidden layers, the hidden width
// with one hidden layer, and twice the largest hidden width otherwise.
func (m *mlp) scratchLen() int {
	switch m.numLayers() {
	case 1:
		return 0
	case 2:
		return m.maxHidden()
	default:
		return 2 * m.maxHidden()
	}
}

// affine1 sets dst = x·W_l + b_l for a single row x.
func (m *mlp) affine1(l int, x, dst []float64) {
	out := m.sizes[l+1]
	wt, b := m.layer(m.params, l)
	copy(dst, b)
	for i, xi := range x {
		floats.AddScaled(dst, xi, wt[i*out:(i+1)*out])
	}
}

// forward1 evaluates m on the single input row x (length inputs) and
// writes the result to out (length outputs). It does not allocate if
// len(scratch) >= m.scratchLen(); otherwise it allocates its own scratch.
// out and scratch must not overlap x or each other. forward1 panics if
// len(x) or len(out) is wrong.
func (m *mlp) forward1(x, out []float64, scratch []float64) {
	if len(x) != m.inputs() || len(out) != m.outputs() {
		panic("learn: forward1 length mismatch")
	}
	if len(scratch) < m.scratchLen() {
		scratch = make([]float64, m.scratchLen())
	}
	hw := m.maxHidden()
	last := m.numLayers() - 1
	h := x
	for l := 0; l < last; l++ {
		dst := scratch[(l%2)*hw : (l%2)*hw+m.sizes[l+1]]
		m.affine1(l, h, dst)
		tanhInPlace(dst)
		h = dst
	}
	m.affine1(last, h, out)
}

// tangent evaluates m at the single input row x and pushes k input
// tangents dx, flat [k][inputs], through the network in forward mode. It
// writes out = m(x) (length outputs, identical to forward1) and
// dOut = J(x)·dx_t for each tangent t, flat [k][outputs], where J is the
// Jacobian of m at x. tangent allocates. It panics if k < 0 or a length
// is wrong.
func (m *mlp) tangent(x, dx []float64, k int, out, dOut []float64) {
	if k < 0 || len(x) != m.inputs() || len(dx) != k*m.inputs() ||
		len(out) != m.outputs() || len(dOut) != k*m.outputs() {
		panic("learn: tangent length mismatch")
	}
	last := m.numLayers() - 1
	h := x
	t := append([]float64(nil), dx...)
	for l := 0; l <= last; l++ {
		in, n := m.sizes[l], m.sizes[l+1]
		wt, _ := m.layer(m.params, l)
		z := make([]float64, n)
		m.affine1(l, h, z)
		tz := make([]float64, k*n)
		if k > 0 {
			blas64.Gemm(blas.NoTrans, blas.NoTrans, 1,
				rowMajor(k, in, t), rowMajor(in, n, wt), 0, rowMajor(k, n, tz))
		}
		if l < last {
			tanhInPlace(z)
			for j, zj := range z {
				d := 1 - zj*zj
				for s := 0; s < k; s++ {
					tz[s*n+j] *= d
				}
			}
		}
		h, t = z, tz
	}
	copy(out, h)
	copy(dOut, t)
}
