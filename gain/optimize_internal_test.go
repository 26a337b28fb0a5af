package gain

import (
	"fmt"
	"math"
	"math/rand"
	"testing"

	"github.com/hetgain/hetgain/aggregators"
)

// numTestOperators are operators with kernels of their own, and one
// (SumForm) evaluated through its methods.
var numTestOperators = []aggregators.Operator{
	aggregators.Min{}, aggregators.Max{}, aggregators.Mean{}, aggregators.Sum{},
	aggregators.Softmax{T: -7}, aggregators.Softmax{T: -0.5}, aggregators.Softmax{T: 0}, aggregators.Softmax{T: 3},
	aggregators.Softmax{T: math.Inf(1)}, aggregators.Softmax{T: math.Inf(-1)},
	aggregators.LogSumExp{T: -4}, aggregators.LogSumExp{T: 0.7}, aggregators.LogSumExp{T: math.Inf(1)},
	aggregators.PowerSum{T: 0.3}, aggregators.PowerSum{T: 1}, aggregators.PowerSum{T: 2}, aggregators.PowerSum{T: 3.5},
	aggregators.MeanPower{T: 0.3}, aggregators.MeanPower{T: 2}, aggregators.MeanPower{T: 3.5},
	aggregators.PowerMean{T: -2}, aggregators.PowerMean{T: 0}, aggregators.PowerMean{T: 0.5}, aggregators.PowerMean{T: 1},
	aggregators.PowerMean{T: 3}, aggregators.PowerMean{T: math.Inf(-1)},
	aggregators.LevelThreshold{L: 1.5},
	aggregators.BlottoField{V: 2, Troops: []float64{0.5, 1.5}, Probs: []float64{0.25, 0.75}},
	aggregators.SumForm{Name: "x²", G: func(x float64) float64 { return x * x }, DG: func(x float64) float64 { return 2 * x }},
}

// numTestInput returns a random input of length n in [0, 1], with zeros
// and ties now and then.
func numTestInput(rnd *rand.Rand, n int) []float64 {
	x := make([]float64, n)
	for i := range x {
		switch rnd.Intn(6) {
		case 0:
			x[i] = 0
		case 1:
			x[i] = 0.5
		default:
			x[i] = rnd.Float64()
		}
	}
	return x
}

func numRelClose(a, b, tol float64) bool {
	return a == b || math.Abs(a-b) <= tol*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

// TestNumKernelsMatchOperators checks that the exact kernels give the
// values and gradients of the operators' own methods.
func TestNumKernelsMatchOperators(t *testing.T) {
	rnd := rand.New(rand.NewSource(1))
	for _, op := range numTestOperators {
		for trial := 0; trial < 300; trial++ {
			n := 1 + rnd.Intn(6)
			x := numTestInput(rnd, n)
			k, _ := numExactKernel(op, 8)
			want := op.Value(x)
			wantGrad := op.Gradient(nil, x)
			grad := make([]float64, n)
			if v := k.value(x); !numRelClose(v, want, 1e-12) {
				t.Fatalf("%v at %v: kernel value %v, operator %v", op, x, v, want)
			}
			if v := k.valueGrad(grad, x); !numRelClose(v, want, 1e-12) {
				t.Fatalf("%v at %v: kernel valueGrad %v, operator %v", op, x, v, want)
			}
			for i := range grad {
				if !numRelClose(grad[i], wantGrad[i], 1e-9) {
					t.Fatalf("%v at %v: kernel gradient %v, operator %v", op, x, grad, wantGrad)
				}
			}
		}
	}
}

// TestNumSmoothKernels checks the smoothed kernels: they tend to the exact
// values as the temperature grows, and their gradients match central
// differences.
func TestNumSmoothKernels(t *testing.T) {
	rnd := rand.New(rand.NewSource(2))
	for _, op := range numTestOperators {
		exact, nonsmooth := numExactKernel(op, 8)
		if !nonsmooth {
			if k, ns := numKernelFor(op, 100, 1, 8, false); ns || fmt.Sprintf("%T", k) != fmt.Sprintf("%T", exact) {
				t.Errorf("%v: smooth operator smoothed to %T", op, k)
			}
			continue
		}
		for trial := 0; trial < 100; trial++ {
			n := 1 + rnd.Intn(5)
			x := numTestInput(rnd, n)
			if numNearThreshold(op, x) {
				continue // a logistic step converges only away from its threshold
			}
			want := exact.value(x)
			prev := math.Inf(1)
			for _, temp := range []float64{10, 1e2, 1e3, 1e4, 1e6} {
				k, _ := numKernelFor(op, temp, 1, 8, false)
				d := math.Abs(k.value(x) - want)
				if d > prev+1e-12 {
					t.Fatalf("%v at %v: error %v at temperature %v, %v before", op, x, d, temp, prev)
				}
				prev = d
			}
			if prev > 1e-4 {
				t.Fatalf("%v at %v: smoothed value off by %v at temperature 1e6", op, x, prev)
			}
			k, _ := numKernelFor(op, 10, 1, 8, false)
			grad := make([]float64, n)
			k.valueGrad(grad, x)
			for i := range x {
				h := 1e-6
				xp := append([]float64(nil), x...)
				xm := append([]float64(nil), x...)
				xp[i] += h
				xm[i] -= h
				fd := (k.value(xp) - k.value(xm)) / (2 * h)
				if !numRelClose(grad[i], fd, 1e-5) {
					t.Fatalf("%v (smoothed) at %v: gradient %v, central difference %v at %d", op, x, grad, fd, i)
				}
			}
		}
	}
}

// numNearThreshold reports whether the sum of x is within 0.05 of a
// threshold of op (a LevelThreshold or BlottoField).
func numNearThreshold(op aggregators.Operator, x []float64) bool {
	s := numSumOf(x)
	switch o := op.(type) {
	case aggregators.LevelThreshold:
		return math.Abs(s-o.L) < 0.05
	case aggregators.BlottoField:
		for _, a := range o.Troops {
			if math.Abs(s-a) < 0.05 {
				return true
			}
		}
	}
	return false
}

// numProjectRef projects v onto {w_j >= lo, sum_j w_j <= hi} by bisection
// on the multiplier θ of the sum: w_j = max(v_j − θ, lo), θ = 0 if that
// row is within budget.
func numProjectRef(v []float64, lo, hi float64) []float64 {
	w := make([]float64, len(v))
	at := func(theta float64) float64 {
		s := 0.0
		for j, u := range v {
			w[j] = math.Max(u-theta, lo)
			s += w[j]
		}
		return s
	}
	if at(0) <= hi {
		return w
	}
	a, b := 0.0, 1.0
	for at(b) > hi {
		b *= 2
	}
	for k := 0; k < 200; k++ {
		if mid := (a + b) / 2; at(mid) > hi {
			a = mid
		} else {
			b = mid
		}
	}
	at(b)
	return w
}

// TestNumProjection compares the projection with a bisection reference.
func TestNumProjection(t *testing.T) {
	rnd := rand.New(rand.NewSource(3))
	for trial := 0; trial < 3000; trial++ {
		m := 1 + rnd.Intn(40)
		lo := []float64{0, 0.01, -0.3}[trial%3]
		hi := float64(m)*lo + 2*rnd.Float64()
		box := numNewBox(m, Budget{Min: lo, Max: hi})
		v := make([]float64, m)
		for j := range v {
			v[j] = 3*rnd.NormFloat64() + lo
			if rnd.Intn(4) == 0 {
				v[j] = v[(j+1)%m] // ties
			}
		}
		want := numProjectRef(v, lo, hi)
		got := append([]float64(nil), v...)
		box.projectRow(got, make([]float64, m))
		for j := range got {
			if math.Abs(got[j]-want[j]) > 1e-9 || got[j] < lo {
				t.Fatalf("m = %d, lo = %v, hi = %v: projection of %v is %v, want %v", m, lo, hi, v, got, want)
			}
		}
		if s := numRowSum(got); s > hi+1e-12*math.Max(1, math.Abs(hi)) {
			t.Fatalf("projection %v sums to %v > %v", got, s, hi)
		}
	}
}

// TestNumFeasible checks that feasible puts rows exactly within the box.
func TestNumFeasible(t *testing.T) {
	rnd := rand.New(rand.NewSource(4))
	for trial := 0; trial < 2000; trial++ {
		m := 1 + rnd.Intn(9)
		lo := []float64{0, 0.1 / float64(m), -1, 1e-300}[trial%4]
		floor := 0.0
		for j := 0; j < m; j++ {
			floor += lo
		}
		hi := floor + []float64{1, 1e-3, 7, 0}[rnd.Intn(4)]
		box := numNewBox(m, Budget{Min: lo, Max: hi})
		x := make([]float64, 3*m)
		for i := 0; i < 3; i++ {
			numRandomRow(rnd, x[i*m:(i+1)*m], box, 1, 1)
			for j := 0; j < m; j++ {
				x[i*m+j] *= 1 + 1e-15*rnd.NormFloat64()
			}
		}
		y := append([]float64(nil), x...)
		box.feasible(y)
		for i := 0; i < 3; i++ {
			row := y[i*m : (i+1)*m]
			if numRowSum(row) > hi {
				t.Fatalf("row %v sums to %v > %v", row, numRowSum(row), hi)
			}
			for j, v := range row {
				if v < lo || math.Abs(v-x[i*m+j]) > 1e-12*math.Max(1, math.Abs(hi)) {
					t.Fatalf("entry %v moved to %v (lo %v)", x[i*m+j], v, lo)
				}
			}
		}
	}
}

// TestNumObjectiveGradient checks the gradients of the heterogeneous and
// homogeneous objectives against central differences, exact and smoothed.
func TestNumObjectiveGradient(t *testing.T) {
	rnd := rand.New(rand.NewSource(5))
	rewards := []*aggregators.Reward{
		aggregators.NewReward(aggregators.Softmax{T: -2}, aggregators.Softmax{T: 3}),
		aggregators.NewReward(aggregators.PowerSum{T: 0.5}, aggregators.PowerMean{T: 2}),
		aggregators.NewReward(aggregators.LogSumExp{T: -1}, aggregators.Softmax{T: 1}, aggregators.PowerSum{T: 2}, aggregators.Mean{}),
		aggregators.NewReward(aggregators.Min{}, aggregators.Max{}),
	}
	for _, r := range rewards {
		n, m := 4, 3
		for _, hom := range []bool{false, true} {
			for _, temp := range []float64{0, 30} {
				if temp == 0 && numNonsmooth(r) {
					continue
				}
				obj := numNewObjective(r, n, m, hom, temp, 1, 1, false)
				dim := n * m
				if hom {
					dim = m
				}
				for trial := 0; trial < 20; trial++ {
					x := make([]float64, dim)
					for k := range x {
						x[k] = 0.05 + 0.3*rnd.Float64()
					}
					g := make([]float64, dim)
					f := obj.valueGrad(g, x)
					if v := obj.value(x); v != f {
						t.Fatalf("%v: value %v, valueGrad %v", r, v, f)
					}
					for k := range x {
						h := 1e-6
						x[k] += h
						fp := obj.value(x)
						x[k] -= 2 * h
						fm := obj.value(x)
						x[k] += h
						if fd := (fp - fm) / (2 * h); !numRelClose(g[k], fd, 1e-5) {
							t.Fatalf("%v, hom %v, temperature %v: ∂R/∂x_%d = %v, central difference %v", r, hom, temp, k, g[k], fd)
						}
					}
				}
			}
		}
	}
}

// TestNumAscentAlone runs the search without structured candidates, from
// random starts only, and checks that it reaches known optima: the
// candidates are a safeguard, not the source of the results.
func TestNumAscentAlone(t *testing.T) {
	cases := []struct {
		r    *aggregators.Reward
		n, m int
		want float64
	}{
		{aggregators.NewReward(aggregators.Min{}, aggregators.Max{}), 3, 4, 0.5},
		{aggregators.NewReward(aggregators.Min{}, aggregators.Max{}), 8, 8, 1},
		{aggregators.NewReward(aggregators.Min{}, aggregators.Max{}), 3, 8, 1.0 / 3},
		{aggregators.NewReward(aggregators.Mean{}, aggregators.Max{}), 3, 7, 3.0 / 7},
		{aggregators.NewReward(aggregators.Mean{}, aggregators.Max{}), 8, 8, 1},
		{aggregators.NewReward(aggregators.PowerSum{T: 0.5}, aggregators.PowerSum{T: 3}), 3, 3, 3},
		// spread allocation: σ(4, 4)
		{aggregators.NewReward(aggregators.Softmax{T: -3}, aggregators.Softmax{T: 4}), 4, 4, 1 / (1 + 3*math.Exp(-4))},
	}
	for _, c := range cases {
		cfg, err := numSetup(c.r, c.n, c.m, Continuous, nil)
		if err != nil {
			t.Fatal(err)
		}
		cfg.noCandidates = true
		restarts, _ := cfg.limits(c.n * c.m)
		p, _, err := cfg.search(false, numStarts{restarts: restarts}, rand.New(rand.NewSource(1)))
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(p.f-c.want) > 1e-6 {
			t.Errorf("%v, N = %d, M = %d: ascent alone reaches %v, want %v", c.r, c.n, c.m, p.f, c.want)
		}
	}
}

// TestNumMovesWorkBound checks that a round of non-local moves is skipped
// when its moves times N·M, the cost of one evaluation, exceed
// numMoveWork, for homogeneous rows too (whose length is only M): a row of
// 10 non-zero entries over M = 64 tasks has 10·63·2 moves, each costing
// N·M = 4096 for N = 64 agents. The bound counted the row's length, so the
// homogeneous search of a 64×64 softmax reward spent 8064 evaluations on
// moves, 7 times the rest of the search.
func TestNumMovesWorkBound(t *testing.T) {
	r := aggregators.NewReward(aggregators.Softmax{T: -2}, aggregators.Softmax{T: 3})
	row := make([]float64, 64)
	for j := 0; j < 10; j++ {
		row[j] = 0.1
	}
	for _, c := range []struct {
		n    int
		want bool // whether the moves are tried (and one improves)
	}{{64, false}, {2, true}} {
		cfg, err := numSetup(r, c.n, 64, Continuous, nil)
		if err != nil {
			t.Fatal(err)
		}
		exact := numNewObjective(r, c.n, 64, true, 0, 1, 1, false)
		asc := cfg.newAscent(true, 64, exact, 1)
		p := numPoint{x: row, f: exact.value(row)}
		if _, ok := asc.bestMove(p); ok != c.want {
			t.Errorf("N = %d, M = 64, homogeneous row with 10 entries: moves tried and improving %v, want %v", c.n, ok, c.want)
		}
	}
}
