package learn

import (
	"fmt"
	"math"
	"testing"
)

var nnArchs = [][]int{{3, 5, 2}, {1, 4, 4, 3}, {6, 2}}

// nnRandVec returns n standard normal values times scale.
func nnRandVec(r *rng, n int, scale float64) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = scale * r.normal()
	}
	return v
}

// nnTestNet returns a network with all parameters, biases included, random
// and of order one, so that every part of the layout is exercised.
func nnTestNet(sizes []int, seed int64) *mlp {
	r := newRNG(seed)
	m := newMLP(sizes, &r, 1)
	m.params = nnRandVec(&r, m.numParams(), 0.7)
	return m
}

// nnClose reports whether a and b agree to within tol, relative to the
// larger magnitude when that exceeds one.
func nnClose(a, b, tol float64) bool {
	return math.Abs(a-b) <= tol*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

// nnDot returns the inner product of a and b.
func nnDot(a, b []float64) float64 {
	var s float64
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

func TestNewMLP(t *testing.T) {
	sizes := []int{3, 5, 2}
	r := newRNG(1)
	m := newMLP(sizes, &r, 0.01)
	if got, want := m.numParams(), 3*5+5+5*2+2; got != want || len(m.params) != want {
		t.Fatalf("numParams = %d, len(params) = %d, want %d", got, len(m.params), want)
	}
	if m.inputs() != 3 || m.outputs() != 2 {
		t.Errorf("inputs, outputs = %d, %d", m.inputs(), m.outputs())
	}
	sizes[1] = 99 // newMLP must have copied sizes
	if m.sizes[1] != 5 {
		t.Errorf("newMLP aliases its sizes argument")
	}
	bounds := []float64{math.Sqrt(6.0 / 8), 0.01 * math.Sqrt(6.0/7)}
	for l, s := range bounds {
		w, b := m.layer(m.params, l)
		maxAbs := 0.0
		for _, v := range w {
			maxAbs = math.Max(maxAbs, math.Abs(v))
		}
		if maxAbs >= s || maxAbs < s/2 {
			t.Errorf("layer %d: max |w| = %v, want in [%v, %v)", l, maxAbs, s/2, s)
		}
		for _, v := range b {
			if v != 0 {
				t.Errorf("layer %d: nonzero bias %v", l, v)
			}
		}
	}
	r2 := newRNG(1)
	m2 := newMLP([]int{3, 5, 2}, &r2, 0.01)
	for i := range m.params {
		if m.params[i] != m2.params[i] {
			t.Fatalf("initialisation not deterministic at %d", i)
		}
	}

	c := m.clone()
	c.params[0]++
	c.sizes[0]++
	if m.params[0] == c.params[0] || m.sizes[0] != 3 {
		t.Errorf("clone is not a deep copy")
	}

	nnMustPanic(t, "one size", func() { newMLP([]int{3}, &r, 1) })
	nnMustPanic(t, "zero width", func() { newMLP([]int{3, 0, 2}, &r, 1) })
	nnMustPanic(t, "nil rng", func() { newMLP([]int{3, 2}, nil, 1) })
}

// TestBackwardFiniteDiff checks backward against central differences of
// L(p) = Σ c ⊙ forward(x; p).
func TestBackwardFiniteDiff(t *testing.T) {
	const h = 1e-5
	for ai, sizes := range nnArchs {
		for _, rows := range []int{1, 7} {
			t.Run(fmt.Sprint(sizes, rows), func(t *testing.T) {
				m := nnTestNet(sizes, int64(10+ai))
				r := newRNG(int64(rows), uint64(ai))
				x := nnRandVec(&r, rows*m.inputs(), 1)
				c := nnRandVec(&r, rows*m.outputs(), 1)
				var w mlpWork
				loss := func() float64 { return nnDot(c, m.forward(&w, x, rows)) }

				loss()
				grad := make([]float64, m.numParams())
				m.backward(&w, c, grad)

				maxErr := 0.0
				for i := range m.params {
					p := m.params[i]
					m.params[i] = p + h
					lp := loss()
					m.params[i] = p - h
					lm := loss()
					m.params[i] = p
					fd := (lp - lm) / (2 * h)
					// Relative error, floored at 1e-2 so that round-off in
					// the difference quotient (about 1e-10) cannot dominate.
					den := math.Max(1e-2, math.Max(math.Abs(fd), math.Abs(grad[i])))
					e := math.Abs(fd-grad[i]) / den
					maxErr = math.Max(maxErr, e)
					if e > 1e-6 {
						t.Errorf("param %d: backward %v, finite difference %v (rel err %v)", i, grad[i], fd, e)
					}
				}
				t.Logf("max relative error %.2g", maxErr)
			})
		}
	}
}

func TestForwardMatchesForward1(t *testing.T) {
	for ai, sizes := range append(nnArchs, []int{8, 64, 64, 5}) {
		m := nnTestNet(sizes, int64(20+ai))
		r := newRNG(5)
		const rows = 7
		x := nnRandVec(&r, rows*m.inputs(), 1)
		var w mlpWork
		y := m.forward(&w, x, rows)
		if len(y) != rows*m.outputs() {
			t.Fatalf("%v: len(forward) = %d", sizes, len(y))
		}
		out := make([]float64, m.outputs())
		scratch := make([]float64, m.scratchLen())
		for i := 0; i < rows; i++ {
			for _, s := range [][]float64{scratch, nil} {
				m.forward1(x[i*m.inputs():(i+1)*m.inputs()], out, s)
				for j, v := range out {
					if !nnClose(v, y[i*m.outputs()+j], 1e-12) {
						t.Errorf("%v row %d output %d: forward1 %v, forward %v", sizes, i, j, v, y[i*m.outputs()+j])
					}
				}
			}
		}
		allocs := testing.AllocsPerRun(10, func() { m.forward1(x[:m.inputs()], out, scratch) })
		if allocs != 0 {
			t.Errorf("%v: forward1 allocates %v times with scratch of length scratchLen", sizes, allocs)
		}
	}
}

func TestTangent(t *testing.T) {
	const h = 1e-5
	for ai, sizes := range nnArchs {
		m := nnTestNet(sizes, int64(30+ai))
		r := newRNG(6, uint64(ai))
		n, o := m.inputs(), m.outputs()
		x := nnRandVec(&r, n, 1)
		for _, k := range []int{0, 1, 3} {
			dx := nnRandVec(&r, k*n, 1)
			out := make([]float64, o)
			dOut := make([]float64, k*o)
			m.tangent(x, dx, k, out, dOut)

			want := make([]float64, o)
			m.forward1(x, want, nil)
			for j := range out {
				if !nnClose(out[j], want[j], 1e-12) {
					t.Errorf("%v: tangent out[%d] = %v, forward1 %v", sizes, j, out[j], want[j])
				}
			}
			xp, xm := make([]float64, n), make([]float64, n)
			yp, ym := make([]float64, o), make([]float64, o)
			for s := 0; s < k; s++ {
				for i := range x {
					xp[i] = x[i] + h*dx[s*n+i]
					xm[i] = x[i] - h*dx[s*n+i]
				}
				m.forward1(xp, yp, nil)
				m.forward1(xm, ym, nil)
				for j := 0; j < o; j++ {
					fd := (yp[j] - ym[j]) / (2 * h)
					if got := dOut[s*o+j]; !nnClose(got, fd, 1e-7) {
						t.Errorf("%v k=%d tangent %d output %d: %v, finite difference %v", sizes, k, s, j, got, fd)
					}
				}
			}
		}
	}
}

func TestBackwardAccumulates(t *testing.T) {
	m := nnTestNet([]int{4, 6, 3}, 40)
	r := newRNG(40)
	const rows = 5
	x := nnRandVec(&r, rows*m.inputs(), 1)
	dOut := nnRandVec(&r, rows*m.outputs(), 1)
	dOutCopy := append([]float64(nil), dOut...)
	var w mlpWork
	m.forward(&w, x, rows)

	once := make([]float64, m.numParams())
	m.backward(&w, dOut, once)
	twice := make([]float64, m.numParams())
	m.backward(&w, dOut, twice)
	m.backward(&w, dOut, twice)
	base := nnRandVec(&r, m.numParams(), 1)
	onBase := append([]float64(nil), base...)
	m.backward(&w, dOut, onBase)

	nonzero := 0
	for i := range once {
		if once[i] != 0 {
			nonzero++
		}
		if !nnClose(twice[i], 2*once[i], 1e-13) {
			t.Errorf("param %d: two calls give %v, one call %v", i, twice[i], once[i])
		}
		if !nnClose(onBase[i], base[i]+once[i], 1e-13) {
			t.Errorf("param %d: backward onto %v gives %v, want %v", i, base[i], onBase[i], base[i]+once[i])
		}
	}
	if nonzero != len(once) {
		t.Errorf("%d of %d gradient entries are zero", len(once)-nonzero, len(once))
	}
	for i := range dOut {
		if dOut[i] != dOutCopy[i] {
			t.Fatalf("backward modified dOut")
		}
	}
}

// TestWorkspaceReuse runs one workspace through varying row counts and
// network shapes and compares with fresh workspaces.
func TestWorkspaceReuse(t *testing.T) {
	nets := []*mlp{nnTestNet([]int{3, 5, 2}, 50), nnTestNet([]int{1, 4, 4, 3}, 51)}
	r := newRNG(50)
	var shared mlpWork
	for step, rows := range []int{7, 3, 12, 1, 0, 12, 2} {
		m := nets[step%2]
		x := nnRandVec(&r, rows*m.inputs(), 1)
		dOut := nnRandVec(&r, rows*m.outputs(), 1)
		var fresh mlpWork
		want := append([]float64(nil), m.forward(&fresh, x, rows)...)
		wantGrad := make([]float64, m.numParams())
		m.backward(&fresh, dOut, wantGrad)

		got := m.forward(&shared, x, rows)
		for i := range x {
			x[i] = math.NaN() // forward must have copied its input
		}
		grad := make([]float64, m.numParams())
		m.backward(&shared, dOut, grad)
		if len(got) != len(want) {
			t.Fatalf("step %d: len %d, want %d", step, len(got), len(want))
		}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("step %d rows %d: output %d = %v, want %v", step, rows, i, got[i], want[i])
			}
		}
		for i := range wantGrad {
			if grad[i] != wantGrad[i] {
				t.Errorf("step %d rows %d: grad %d = %v, want %v", step, rows, i, grad[i], wantGrad[i])
			}
		}
	}

	// Steady state does not allocate.
	m := nets[0]
	x := nnRandVec(&r, 12*m.inputs(), 1)
	dOut := nnRandVec(&r, 12*m.outputs(), 1)
	grad := make([]float64, m.numParams())
	allocs := testing.AllocsPerRun(10, func() {
		m.forward(&shared, x, 12)
		m.backward(&shared, dOut, grad)
	})
	if allocs != 0 {
		t.Errorf("forward+backward allocate %v times in steady state", allocs)
	}
}

func TestMLPPanics(t *testing.T) {
	m := nnTestNet([]int{3, 5, 2}, 60)
	other := nnTestNet([]int{3, 4, 2}, 61)
	var w mlpWork
	nnMustPanic(t, "backward before forward", func() {
		m.backward(&w, nil, make([]float64, m.numParams()))
	})
	nnMustPanic(t, "forward short x", func() { m.forward(&w, make([]float64, 5), 2) })
	m.forward(&w, make([]float64, 6), 2)
	nnMustPanic(t, "backward other shape", func() {
		other.backward(&w, make([]float64, 4), make([]float64, other.numParams()))
	})
	nnMustPanic(t, "backward short dOut", func() { m.backward(&w, make([]float64, 3), make([]float64, m.numParams())) })
	nnMustPanic(t, "backward short grad", func() { m.backward(&w, make([]float64, 4), make([]float64, 3)) })
	nnMustPanic(t, "forward1 short out", func() { m.forward1(make([]float64, 3), make([]float64, 1), nil) })
	nnMustPanic(t, "tangent short dx", func() {
		m.tangent(make([]float64, 3), make([]float64, 5), 2, make([]float64, 2), make([]float64, 4))
	})
}
