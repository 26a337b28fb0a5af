package learn

import (
	"math"

	"gonum.org/v1/gonum/floats"
)

// adam is the Adam optimiser (Kingma and Ba, 2015) with the update rule
// and bias correction of PyTorch's torch.optim.Adam without weight decay:
//
//	m ← β1·m + (1-β1)·g
//	v ← β2·v + (1-β2)·g²
//	p ← p - lr · (m/(1-β1ᵗ)) / (sqrt(v/(1-β2ᵗ)) + eps)
//
// The fields may be changed between steps (for example to anneal lr).
type adam struct {
	lr, beta1, beta2, eps float64
	m, v                  []float64 // first and second moment estimates
	t                     int       // number of steps taken
}

// newAdam returns an Adam optimiser for n parameters with learning rate lr
// and the defaults beta1 = 0.9, beta2 = 0.999, eps = 1e-8. It panics if
// n < 0.
func newAdam(n int, lr float64) *adam {
	if n < 0 {
		panic("learn: newAdam with n < 0")
	}
	return &adam{
		lr: lr, beta1: 0.9, beta2: 0.999, eps: 1e-8,
		m: make([]float64, n),
		v: make([]float64, n),
	}
}

// step applies one Adam update to params given the gradient grad of the
// loss. It panics unless len(params) == len(grad) == n.
func (a *adam) step(params, grad []float64) {
	if len(params) != len(a.m) || len(grad) != len(a.m) {
		panic("learn: adam step length mismatch")
	}
	a.t++
	b1, b2 := a.beta1, a.beta2
	bc1 := 1 - math.Pow(b1, float64(a.t))
	bc2 := 1 - math.Pow(b2, float64(a.t))
	stepSize := a.lr / bc1
	sqrtBC2 := math.Sqrt(bc2)
	for i, g := range grad {
		a.m[i] = b1*a.m[i] + (1-b1)*g
		a.v[i] = b2*a.v[i] + (1-b2)*g*g
		params[i] -= stepSize * a.m[i] / (math.Sqrt(a.v[i])/sqrtBC2 + a.eps)
	}
}

// clipGradNorm scales grad in place so that its Euclidean norm is at most
// maxNorm (up to rounding) and returns the norm before clipping. It does
// nothing if maxNorm <= 0 or the norm is already <= maxNorm. The norm is
// computed with scaling, so it cannot overflow for finite grad. A NaN
// element gives a NaN norm and no clipping; an infinite element gives an
// infinite norm and turns grad into zeros and NaNs, so callers should
// check the returned norm for finiteness.
func clipGradNorm(grad []float64, maxNorm float64) float64 {
	norm := floats.Norm(grad, 2)
	if maxNorm > 0 && norm > maxNorm {
		floats.Scale(maxNorm/norm, grad)
	}
	return norm
}

// sgdStep sets params -= lr*grad. It panics if the lengths differ.
func sgdStep(params, grad []float64, lr float64) {
	if len(params) != len(grad) {
		panic("learn: sgdStep length mismatch")
	}
	floats.AddScaled(params, -lr, grad)
}
