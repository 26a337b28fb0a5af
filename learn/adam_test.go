package learn

import (
	"math"
	"testing"
)

// adamReference applies steps of Adam written directly from the
// bias-corrected formulas of Kingma and Ba as used by torch.optim.Adam:
// m̂ = m/(1-β1ᵗ), v̂ = v/(1-β2ᵗ), p -= lr·m̂/(√v̂ + eps).
func adamReference(p []float64, grads [][]float64, lr float64) []float64 {
	const b1, b2, eps = 0.9, 0.999, 1e-8
	p = append([]float64(nil), p...)
	m := make([]float64, len(p))
	v := make([]float64, len(p))
	for t, g := range grads {
		for i := range p {
			m[i] = b1*m[i] + (1-b1)*g[i]
			v[i] = b2*v[i] + (1-b2)*g[i]*g[i]
			mHat := m[i] / (1 - math.Pow(b1, float64(t+1)))
			vHat := v[i] / (1 - math.Pow(b2, float64(t+1)))
			p[i] -= lr * mHat / (math.Sqrt(vHat) + eps)
		}
	}
	return p
}

func TestAdamFirstStep(t *testing.T) {
	// At t = 1 the bias-corrected moments are g and g², so the update is
	// lr·g/(|g|+eps).
	p := []float64{1, -2, 3}
	a := newAdam(3, 0.1)
	a.step(p, []float64{0.5, -1, 0})
	want := []float64{1 - 0.1*0.5/(0.5+1e-8), -2 + 0.1/(1+1e-8), 3}
	for i := range p {
		if math.Abs(p[i]-want[i]) > 1e-15 {
			t.Errorf("p[%d] = %v, want %v", i, p[i], want[i])
		}
	}
}

func TestAdamMatchesReference(t *testing.T) {
	p0 := []float64{0.3, -1.2, 2.5}
	// The first component's gradients are of the order of eps, so that
	// where eps enters the update matters.
	grads := [][]float64{
		{1e-8, -0.4, 2},
		{-3e-8, -0.2, 1.5},
		{2e-8, 0.6, -1},
		{0, 1e-9, 0.7},
		{1e-8, -0.1, 3},
	}
	const lr = 0.01
	a := newAdam(len(p0), lr)
	p := append([]float64(nil), p0...)
	for s, g := range grads {
		a.step(p, g)
		want := adamReference(p0, grads[:s+1], lr)
		for i := range p {
			if math.Abs(p[i]-want[i]) > 1e-14 {
				t.Errorf("step %d p[%d] = %.17g, want %.17g", s+1, i, p[i], want[i])
			}
		}
	}
	if a.t != len(grads) {
		t.Errorf("t = %d, want %d", a.t, len(grads))
	}
	nnMustPanic(t, "short grad", func() { a.step(p, []float64{1, 2}) })
	nnMustPanic(t, "short params", func() { a.step(p[:2], []float64{1, 2, 3}) })
	nnMustPanic(t, "negative n", func() { newAdam(-1, 0.1) })
}

func TestAdamMinimisesQuadratic(t *testing.T) {
	// f(p) = Σ a_i (p_i - c_i)², badly scaled on purpose.
	scale := []float64{1, 100, 0.01}
	c := []float64{3, -1, 0.5}
	p := []float64{0, 0, 0}
	grad := make([]float64, 3)
	a := newAdam(3, 0.01)
	for it := 0; it < 5000; it++ {
		for i := range p {
			grad[i] = 2 * scale[i] * (p[i] - c[i])
		}
		a.step(p, grad)
	}
	for i := range p {
		if math.Abs(p[i]-c[i]) > 1e-3 {
			t.Errorf("p[%d] = %v, want %v", i, p[i], c[i])
		}
	}
}

func TestClipGradNorm(t *testing.T) {
	norm2 := func(v []float64) float64 {
		var s float64
		for _, x := range v {
			s += x * x
		}
		return math.Sqrt(s)
	}
	g := []float64{3, -4}
	if n := clipGradNorm(g, 1); n != 5 {
		t.Errorf("returned norm %v, want 5", n)
	}
	if n := norm2(g); n > 1+1e-15 || n < 1-1e-15 {
		t.Errorf("norm after clipping = %v, want 1", n)
	}
	if math.Abs(g[0]-0.6) > 1e-15 || math.Abs(g[1]+0.8) > 1e-15 {
		t.Errorf("direction changed: %v", g)
	}

	for _, max := range []float64{5, 10, 0, -1} {
		g := []float64{3, -4}
		if n := clipGradNorm(g, max); n != 5 || g[0] != 3 || g[1] != -4 {
			t.Errorf("maxNorm %v: norm %v, grad %v; want no-op", max, n, g)
		}
	}

	huge := []float64{1e200, -1e200, 1e200, 0}
	n := clipGradNorm(huge, 2)
	if want := math.Sqrt(3) * 1e200; math.Abs(n-want) > 1e-14*want {
		t.Errorf("huge: norm %v, want %v", n, want)
	}
	s := 2 / math.Sqrt(3)
	for i, want := range []float64{s, -s, s, 0} {
		if math.Abs(huge[i]-want) > 1e-14 {
			t.Errorf("huge: g[%d] = %v, want %v", i, huge[i], want)
		}
	}

	tiny := []float64{3e-200, 4e-200}
	if n := clipGradNorm(tiny, 1); math.Abs(n-5e-200) > 1e-214 {
		t.Errorf("tiny: norm %v, want 5e-200", n)
	}
	if n := clipGradNorm(nil, 1); n != 0 {
		t.Errorf("empty: norm %v", n)
	}
}

func TestSGDStep(t *testing.T) {
	p := []float64{1, 2, 3}
	sgdStep(p, []float64{1, -2, 0.5}, 0.1)
	want := []float64{0.9, 2.2, 2.95}
	for i := range p {
		if math.Abs(p[i]-want[i]) > 1e-15 {
			t.Errorf("p[%d] = %v, want %v", i, p[i], want[i])
		}
	}
	nnMustPanic(t, "length mismatch", func() { sgdStep(p, []float64{1}, 0.1) })
}
