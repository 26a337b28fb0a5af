package simulate

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/hetgain/hetgain/aggregators"
	"gonum.org/v1/gonum/mat"
)

func mustParse(t testing.TB, spec string) aggregators.Operator {
	t.Helper()
	op, err := aggregators.Parse(spec)
	if err != nil {
		t.Fatal(err)
	}
	return op
}

func reward(t testing.TB, u string, ts ...string) *aggregators.Reward {
	t.Helper()
	var inner []aggregators.Operator
	for _, s := range ts {
		inner = append(inner, mustParse(t, s))
	}
	return aggregators.NewReward(mustParse(t, u), inner...)
}

// randomActions returns uniform actions in a box a bit wider than the
// matrix game's, so that clamping happens too.
func randomActions(seed int64, n int, lo, hi float64) []float64 {
	r := newRNG(seed, 0, 9)
	a := make([]float64, n)
	for k := range a {
		a[k] = r.uniform(lo, hi)
	}
	return a
}

func checkEffortRows(t *testing.T, eff []float64, m int) {
	t.Helper()
	for k := 0; k+m <= len(eff); k += m {
		s := 0.0
		for _, v := range eff[k : k+m] {
			if !(v >= 0 && v <= 1) {
				t.Fatalf("effort %v outside [0,1] in row %v", v, eff[k:k+m])
			}
			s += v
		}
		if math.Abs(s-1) > 1e-12 {
			t.Fatalf("effort row %v sums to %v", eff[k:k+m], s)
		}
	}
}

func TestMatrixRewardMatchesAggregators(t *testing.T) {
	cases := []struct {
		u     string
		inner []string
	}{
		{"min", []string{"max"}}, {"mean", []string{"min"}}, {"max", []string{"mean"}},
		{"sum", []string{"sum"}}, {"softmax(-2)", []string{"softmax(3)"}},
		{"powersum(0.5)", []string{"powersum(3)"}}, {"lse(2)", []string{"lse(-1)"}},
		{"powermean(2)", []string{"powermean(0.5)"}}, {"softmax(inf)", []string{"softmax(-inf)"}},
		{"min", []string{"max", "mean", "softmax(1)"}},
	}
	for _, c := range cases {
		for _, discrete := range []bool{false, true} {
			const B, N, M = 7, 3, 3
			r := reward(t, c.u, c.inner...)
			r.Budget = 0.25 // not applied: TeamReward's Budget is 1
			g, err := NewMatrixGame(B, N, M, discrete, r)
			if err != nil {
				t.Fatal(err)
			}
			if err := g.Reset(1); err != nil {
				t.Fatal(err)
			}
			var acts []float64
			if discrete {
				acts = randomActions(2, B*N, 0, M)
				for k := range acts {
					acts[k] = math.Floor(acts[k])
				}
			} else {
				acts = randomActions(2, B*N*M, -1.3, 1.3)
				copy(acts[:M], []float64{-1, -1, -1}) // all-zero row: uniform
			}
			if err := g.Step(acts); err != nil {
				t.Fatalf("%v %v: %v", c, discrete, err)
			}
			checkEffortRows(t, g.Effort(), M)
			if !discrete {
				for j := 0; j < M; j++ {
					if g.Effort()[j] != 1.0/M {
						t.Errorf("all-zero row gives %v, want uniform", g.Effort()[:M])
					}
				}
			}
			for b := 0; b < B; b++ {
				a := mat.NewDense(N, M, append([]float64(nil), g.Effort()[b*N*M:(b+1)*N*M]...))
				want, err := g.TeamReward().Value(a)
				if err != nil {
					t.Fatal(err)
				}
				if got := g.Reward()[b]; got != want && math.Abs(got-want) > 1e-14*math.Abs(want) {
					t.Errorf("%s∘%v discrete=%v batch %d: reward %v, aggregators say %v", c.u, c.inner, discrete, b, got, want)
				}
				checkDifferenceRewards(t, g, 1, b, fmt.Sprintf("%s∘%v discrete=%v", c.u, c.inner, discrete))
			}
			if !g.Done()[0] {
				t.Error("not done after one step")
			}
			if err := g.Step(acts); !errors.Is(err, ErrDone) {
				t.Errorf("second step: %v, want ErrDone", err)
			}
		}
	}
}

func TestMatrixEffortFormula(t *testing.T) {
	g, err := NewMatrixGame(1, 2, 3, false, reward(t, "min", "max"))
	if err != nil {
		t.Fatal(err)
	}
	_ = g.Reset(0)
	// h = 1: u = (0, 1, -1) -> (1, 2, 0)/3; u = (5, 0, 0) clamps to (1, 0, 0) -> (2, 1, 1)/4.
	if err := g.Step([]float64{0, 1, -1, 5, 0, 0}); err != nil {
		t.Fatal(err)
	}
	want := []float64{1.0 / 3, 2.0 / 3, 0, 0.5, 0.25, 0.25}
	for k, v := range want {
		if math.Abs(g.Effort()[k]-v) > 1e-15 {
			t.Fatalf("efforts %v, want %v", g.Effort(), want)
		}
	}
	// R = min_j max_i r_ij = min(0.5, 2/3, 0.25) = 0.25.
	if g.Reward()[0] != 0.25 {
		t.Errorf("reward %v, want 0.25", g.Reward()[0])
	}
	// M = 1: the only row is (1).
	g1, _ := NewMatrixGame(2, 2, 1, false, reward(t, "sum", "sum"))
	_ = g1.Reset(0)
	if err := g1.Step([]float64{0, 0, 0, 0}); err != nil {
		t.Fatal(err)
	}
	if g1.Reward()[0] != 2 {
		t.Errorf("M = 1: reward %v, want 2", g1.Reward()[0])
	}
}

func TestMatrixErrors(t *testing.T) {
	if _, err := NewMatrixGame(0, 2, 2, false, reward(t, "min", "max")); !errors.Is(err, ErrConfig) {
		t.Errorf("batch 0: %v", err)
	}
	if _, err := NewMatrixGame(1, 2, 3, false, reward(t, "min", "max", "max")); !errors.Is(err, ErrConfig) {
		t.Errorf("2 inner for 3 tasks: %v", err)
	}
	if _, err := NewMatrixGame(1, 2, 3, false, nil); !errors.Is(err, ErrConfig) {
		t.Errorf("nil reward: %v", err)
	}
	g, _ := NewMatrixGame(2, 2, 3, true, reward(t, "min", "max"))
	if err := g.Step(make([]float64, 4)); !errors.Is(err, ErrNotReset) {
		t.Errorf("step before reset: %v", err)
	}
	_ = g.Reset(0)
	for _, c := range []struct {
		acts []float64
		want []string
	}{
		{[]float64{0, 1, 2}, []string{"3 action values"}},
		{[]float64{0, 1, 2, 1.5}, []string{"batch 1 agent 1", "1.5"}},
		{[]float64{0, 3, 2, 1}, []string{"batch 0 agent 1", "3"}},
		{[]float64{0, 1, -1, 1}, []string{"batch 1 agent 0", "-1"}},
		{[]float64{math.NaN(), 1, 2, 1}, []string{"batch 0 agent 0", "NaN"}},
		{[]float64{0, 1, math.Inf(1), 1}, []string{"batch 1 agent 0", "+Inf"}},
	} {
		err := g.Step(c.acts)
		if !errors.Is(err, ErrAction) {
			t.Errorf("%v: %v, want ErrAction", c.acts, err)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%v: error %q does not mention %q", c.acts, err, w)
			}
		}
	}
	if g.Done()[0] {
		t.Error("failed steps ended the episode")
	}
	gc, _ := NewMatrixGame(1, 1, 2, false, reward(t, "min", "max"))
	_ = gc.Reset(0)
	if err := gc.Step([]float64{0, math.Inf(-1)}); !errors.Is(err, ErrAction) || !strings.Contains(err.Error(), "action[1]") {
		t.Errorf("continuous Inf: %v", err)
	}

	// Parameters.
	p, _ := NewMatrixGame(1, 2, 2, false, reward(t, "softmax(1)", "powersum(2)"))
	ps := p.Params()
	if strings.Join(ps.Names, ",") != "U.t,T.t" || ps.Values[0] != 1 || ps.Values[1] != 2 {
		t.Fatalf("params %v", ps)
	}
	if err := p.SetParams(Params{Names: []string{"T.t"}, Values: []float64{-1}}); !errors.Is(err, ErrParam) {
		t.Errorf("powersum t = -1: %v", err)
	}
	if err := p.SetParams(Params{Names: []string{"U.t", "X"}, Values: []float64{3, 1}}); !errors.Is(err, ErrParam) {
		t.Errorf("unknown name: %v", err)
	}
	if v, _ := p.Params().Get("U.t"); v != 1 {
		t.Errorf("failed SetParams changed U.t to %v", v)
	}
	if err := p.SetParams(Params{Names: []string{"U.t"}, Values: []float64{3}}); err != nil {
		t.Fatal(err)
	}
	if v, _ := p.Params().Get("U.t"); v != 3 {
		t.Errorf("U.t = %v after SetParams(3)", v)
	}
	if _, err := p.Params().Get("V.t"); !errors.Is(err, ErrParam) {
		t.Errorf("Get unknown: %v", err)
	}
	pt, _ := NewMatrixGame(1, 2, 2, false, reward(t, "min", "softmax(1)", "max"))
	if got := strings.Join(pt.Params().Names, ","); got != "T0.t" {
		t.Errorf("per-task names %q", got)
	}
	// An outer operator that needs non-negative scores, fed negative ones:
	// refused at construction, where every agent on one task leaves the
	// other task's score ln(2)/(-1) < 0,
	if _, err := NewMatrixGame(1, 2, 2, false, reward(t, "powersum(2)", "lse(-1)")); !errors.Is(err, ErrConfig) ||
		!errors.Is(err, aggregators.ErrNegative) || !strings.Contains(err.Error(), "every agent on task 0") {
		t.Errorf("powersum(2)∘lse(-1): %v, want ErrConfig and ErrNegative naming the probe", err)
	}
	// The probe does not apply Budget, which the environments do not
	// apply either; and Multi-goal-capture with 3 goals, where an effort is
	// at most 1/2, is not probed with all agents on one goal (there
	// powersum(1500) of the scores (2, 0, 0) overflows; of reachable ones
	// it does not).
	small := &aggregators.Reward{Outer: aggregators.Min{}, Inner: []aggregators.Operator{aggregators.Max{}}, Budget: 0.5}
	if _, err := NewMatrixGame(1, 2, 2, false, small); err != nil {
		t.Errorf("budget 0.5: %v", err)
	}
	if _, err := NewTag(TagConfig{Batch: 1, Reward: small}); err != nil {
		t.Errorf("Tag, budget 0.5: %v", err)
	}
	if _, err := NewCapture(CaptureConfig{Batch: 1, Goals: 3, Reward: reward(t, "powersum(1500)", "sum")}); err != nil {
		t.Errorf("Capture with 3 goals, powersum(1500)∘sum: %v", err)
	}
	// The same probe refuses a parameter that would take the reward there
	// later, or overflow it, and the game keeps its θ and plays on.
	neg, err := NewMatrixGame(1, 2, 2, false, reward(t, "powersum(2)", "lse(1)"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		p    Params
		want error
	}{
		{Params{Names: []string{"T.t"}, Values: []float64{-1}}, aggregators.ErrNegative},
		{Params{Names: []string{"U.t"}, Values: []float64{2000}}, aggregators.ErrInf},
	} {
		err := neg.SetParams(tc.p)
		if !errors.Is(err, ErrParam) || !errors.Is(err, tc.want) || !strings.Contains(err.Error(), "every agent on task 0") {
			t.Errorf("SetParams(%v) = %v, want ErrParam and %v naming the probe", tc.p, err, tc.want)
		}
	}
	if got := neg.Params(); got.Values[0] != 2 || got.Values[1] != 1 {
		t.Errorf("θ after refused SetParams = %v, want U.t=2 T.t=1", got)
	}
	_ = neg.Reset(0)
	if err := neg.Step([]float64{0, 0, 0, 0}); err != nil {
		t.Errorf("Step after refused SetParams: %v", err)
	}
}

// fdReturn returns the central finite difference of the mean return with
// respect to parameter name, with the same seed (common random numbers).
func fdReturn(t *testing.T, env Env, pol Policy, seed int64, name string, h float64) []float64 {
	t.Helper()
	p0 := env.Params()
	v0, _ := p0.Get(name)
	eval := func(v float64) []float64 {
		p := p0.Clone()
		_ = p.Set(name, v)
		if err := env.SetParams(p); err != nil {
			t.Fatal(err)
		}
		r, err := Rollout(env, pol, seed, nil)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	hi, lo := eval(v0+h), eval(v0-h)
	if err := env.SetParams(p0); err != nil {
		t.Fatal(err)
	}
	d := make([]float64, len(hi))
	for b := range d {
		d[b] = (hi[b] - lo[b]) / (2 * h)
	}
	return d
}

// requireEffect fails a gradient check whose finite differences are all
// 0: there the check compares 0 with 0 and tests nothing.
func requireEffect(t *testing.T, env DifferentiableEnv, name string, scale float64) {
	t.Helper()
	if scale == 0 {
		t.Errorf("%s d/d%s: every finite difference is 0, so the check tests nothing; leave %s out of this case or make it act",
			env.Name(), name, name)
	}
}

// checkedReturnGradient returns ReturnGradient's gradients after checking
// that its returns are Rollout's, to 1e-12 relative.
func checkedReturnGradient(t *testing.T, env DifferentiableEnv, pol Policy, seed int64, params []string) [][]float64 {
	t.Helper()
	ret, grad, err := ReturnGradient(env, pol, seed, params)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := Rollout(env, pol, seed, nil)
	if err != nil {
		t.Fatal(err)
	}
	for b := range ret {
		if math.Abs(ret[b]-plain[b]) > 1e-12*math.Max(1, math.Abs(plain[b])) {
			t.Fatalf("batch %d: gradient pass return %v, Rollout %v", b, ret[b], plain[b])
		}
	}
	return grad
}

func checkGradient(t *testing.T, env DifferentiableEnv, pol Policy, seed int64, params []string, hs []float64, tol float64) {
	t.Helper()
	grad := checkedReturnGradient(t, env, pol, seed, params)
	for k, name := range params {
		fd := fdReturn(t, env, pol, seed, name, hs[k])
		scale := 0.0
		for b := range fd {
			scale = math.Max(scale, math.Abs(fd[b]))
		}
		requireEffect(t, env, name, scale)
		worst := 0.0
		for b := range fd {
			e := math.Abs(grad[b][k]-fd[b]) / math.Max(scale, 1e-3)
			worst = math.Max(worst, e)
			if e > tol {
				t.Errorf("%s batch %d: dG/d%s = %.10g, finite difference %.10g (rel. error %.2g)",
					env.Name(), b, name, grad[b][k], fd[b], e)
			}
		}
		t.Logf("%s d/d%s: max |FD| %.4g, max rel. error %.2g (e.g. AD %.10g FD %.10g)", env.Name(), name, scale, worst, grad[0][k], fd[0])
	}
}

func TestMatrixGradient(t *testing.T) {
	for _, c := range []struct {
		u, t string
		hs   []float64
	}{
		{"softmax(-2)", "softmax(3)", []float64{1e-5, 1e-5}},
		{"powersum(0.7)", "powersum(2.5)", []float64{1e-5, 1e-5}},
		{"lse(-1.5)", "powermean(2)", []float64{1e-5, 1e-5}},
	} {
		g, err := NewMatrixGame(16, 3, 4, false, reward(t, c.u, c.t))
		if err != nil {
			t.Fatal(err)
		}
		pol := NewLinearTanh(3, 1, 4, 0.5, 0.8, 1.5, 7)
		checkGradient(t, g, pol, 11, []string{"U.t", "T.t"}, c.hs, 1e-5)
	}
}

func BenchmarkMatrixGame(b *testing.B) {
	for _, c := range []struct {
		name     string
		u, t     string
		n, m     int
		discrete bool
	}{
		{"min-max/N4M4", "min", "max", 4, 4, false},
		{"min-max/N2M2", "min", "max", 2, 2, false},
		{"softmax/N4M4", "softmax(-2)", "softmax(2)", 4, 4, false},
		{"min-max/discrete/N4M4", "min", "max", 4, 4, true},
	} {
		b.Run(c.name, func(b *testing.B) {
			const B = 1024
			g, err := NewMatrixGame(B, c.n, c.m, c.discrete, reward(b, c.u, c.t))
			if err != nil {
				b.Fatal(err)
			}
			w := g.ActionSpace().Width()
			acts := randomActions(1, B*c.n*w, -2, 2)
			if c.discrete {
				acts = randomActions(1, B*c.n, 0, float64(c.m))
				for k := range acts {
					acts[k] = math.Floor(acts[k])
				}
			}
			b.ResetTimer()
			for it := 0; it < b.N; it++ {
				_ = g.Reset(0)
				if err := g.Step(acts); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)*B*float64(c.n)/b.Elapsed().Seconds(), "agent-steps/s")
		})
	}
}

func BenchmarkMatrixGradient(b *testing.B) {
	const B = 1024
	g, _ := NewMatrixGame(B, 4, 4, false, reward(b, "softmax(-2)", "softmax(2)"))
	pol := NewLinearTanh(4, 1, 4, 0.5, 0.8, 1.5, 7)
	for _, c := range []struct {
		name   string
		params []string
	}{{"rollout", nil}, {"K=2", []string{"U.t", "T.t"}}} {
		b.Run(c.name, func(b *testing.B) {
			for it := 0; it < b.N; it++ {
				var err error
				if c.params == nil {
					_, err = Rollout(g, pol, int64(it), nil)
				} else {
					_, _, err = ReturnGradient(g, pol, int64(it), c.params)
				}
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)*B*4/b.Elapsed().Seconds(), "agent-steps/s")
		})
	}
}

// effortDifferenceRewarder is an environment whose efforts, reward and
// difference rewards checkDifferenceRewards can read.
type effortDifferenceRewarder interface {
	DifferenceRewarder
	Effort() []float64
	TeamReward() *aggregators.Reward
}

// checkDifferenceRewards checks batch element b of g's difference rewards
// against the aggregators: agent i's is the step's reward with scale·R(A)
// in it replaced by scale·(R(A) - R(A with row i zero)), scale the weight
// of R(A) in the step's reward (1 in the matrix game, 1/10 in
// Multi-goal-capture).
func checkDifferenceRewards(t *testing.T, g effortDifferenceRewarder, scale float64, b int, what string) {
	t.Helper()
	N, M := g.Agents(), g.Tasks()
	eff := g.Effort()[b*N*M : (b+1)*N*M]
	R, err := g.TeamReward().Value(mat.NewDense(N, M, append([]float64(nil), eff...)))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < N; i++ {
		without := append([]float64(nil), eff...)
		for j := 0; j < M; j++ {
			without[i*M+j] = 0
		}
		Rw, err := g.TeamReward().Value(mat.NewDense(N, M, without))
		if err != nil {
			t.Fatal(err)
		}
		want := g.Reward()[b] - scale*Rw
		if got := g.DifferenceRewards()[b*N+i]; math.Abs(got-want) > 1e-12*math.Max(1, math.Abs(R)) {
			t.Errorf("%s batch %d: agent %d's difference reward %v, aggregators say %v (R %v, without it %v)", what, b, i, got, want, R, Rw)
		}
	}
}

// checkFailedStepKeepsDifferenceRewards makes a Step of g fail with a NaN
// action and checks that g's difference rewards are still want, those of
// its last successful step; with readFirst it reads them before the failed
// step too, so that both the computed and the not yet computed values are
// checked.
func checkFailedStepKeepsDifferenceRewards(t *testing.T, g DifferenceRewarder, want []float64, readFirst bool) {
	t.Helper()
	if readFirst {
		g.DifferenceRewards()
	}
	bad := randomActions(4, g.Batch()*g.Agents()*g.ActionSpace().Dim, -1, 1)
	bad[3] = math.NaN()
	if err := g.Step(bad); !errors.Is(err, ErrAction) {
		t.Fatalf("NaN action: %v, want ErrAction", err)
	}
	for k, v := range g.DifferenceRewards() {
		if v != want[k] {
			t.Fatalf("after a failed Step, difference reward %d is %v, want %v (read first: %v)", k, v, want[k], readFirst)
		}
	}
}

// TestMatrixDifferenceRewardsLifecycle checks that the difference rewards
// are zero after Reset and follow the step that set the efforts, whether
// a Step or ReturnGradient, even when read before it.
func TestMatrixDifferenceRewardsLifecycle(t *testing.T) {
	const B, N, M = 3, 3, 2
	g, err := NewMatrixGame(B, N, M, false, reward(t, "softmax(-1)", "softmax(2)"))
	if err != nil {
		t.Fatal(err)
	}
	var _ DifferenceRewarder = g
	for round := 0; round < 2; round++ {
		if err := g.Reset(0); err != nil {
			t.Fatal(err)
		}
		for k, v := range g.DifferenceRewards() {
			if v != 0 {
				t.Fatalf("round %d: after Reset, difference reward %d is %v", round, k, v)
			}
		}
		if err := g.Step(randomActions(int64(3+round), B*N*M, -0.5, 0.5)); err != nil {
			t.Fatal(err)
		}
		for b := 0; b < B; b++ {
			checkDifferenceRewards(t, g, 1, b, fmt.Sprintf("round %d step", round))
		}
		pol := NewLinearTanh(N, 1, M, 0.5, 0.8, 1.5, int64(7+round))
		if _, _, err := g.ReturnGradient(pol, 1, []string{"U.t"}); err != nil {
			t.Fatal(err)
		}
		for b := 0; b < B; b++ {
			checkDifferenceRewards(t, g, 1, b, fmt.Sprintf("round %d ReturnGradient", round))
		}
	}
}
