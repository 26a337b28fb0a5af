package learn

import (
	"bytes"
	"encoding/gob"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/hetgain/hetgain/simulate"
)

// hetgpsMatrix is a HetGPS run on the continuous matrix game with N = M =
// 2 and softmax U and T starting at the mean (τ = 0), searching both.
func hetgpsMatrix(seed int64, iterations int) HetGPSSpec {
	return HetGPSSpec{
		Run: RunSpec{Env: EnvSpec{Name: "matrix", U: "softmax(0)", T: "softmax(0)"},
			Team: Config{Seed: seed, Hidden: []int{32, 32}}, Iterations: iterations, EvalEvery: 10, EvalEpisodes: 4},
		Params:       []ThetaParam{{Name: "T.t"}, {Name: "U.t"}},
		GradEpisodes: 256,
		ThetaLR:      0.05,
	}
}

// hetgpsSmallCapture is Multi-goal-capture with short episodes and small
// batches, for tests.
func hetgpsSmallCapture(seed int64, iterations int) HetGPSSpec {
	return HetGPSSpec{
		Run: RunSpec{Env: EnvSpec{Name: "capture", U: "softmax(0)", T: "softmax(0)", EpisodeLength: 20},
			Team:       Config{Seed: seed, Envs: 8, FramesPerIter: 160, Minibatch: 80, Epochs: 2, Hidden: []int{16, 16}},
			Iterations: iterations, EvalEvery: 2, EvalEpisodes: 4},
		Params:       []ThetaParam{{Name: "T.t", Init: 1, Low: 0.3, High: 6}, {Name: "U.t", Init: 1, Low: 0.3, High: 6}},
		GradEpisodes: 4,
	}
}

func TestHetGPSPlan(t *testing.T) {
	plan := func(s HetGPSSpec, n int) string {
		var b strings.Builder
		for i := 1; i <= n; i++ {
			a, e := s.Plan(i)
			switch {
			case a && e:
				b.WriteByte('B')
			case a:
				b.WriteByte('a')
			case e:
				b.WriteByte('e')
			default:
				b.WriteByte('-')
			}
		}
		return b.String()
	}
	for _, c := range []struct {
		s    HetGPSSpec
		want string
	}{
		{HetGPSSpec{}, "BBBBBBBB"},
		{HetGPSSpec{Schedule: Concurrent, AgentIters: 1, EnvIters: 5}, "BBBBBBBB"},
		{HetGPSSpec{Schedule: Concurrent, AgentIters: 3}, "aaBaaBaa"},
		{HetGPSSpec{Schedule: Alternated}, "aeaeaeae"},
		{HetGPSSpec{Schedule: Alternated, AgentIters: 3, EnvIters: 2}, "aaaeeaaa"},
		{HetGPSSpec{Schedule: Alternated, AgentIters: 1, EnvIters: 3}, "aeeeaeee"},
		{HetGPSSpec{WarmUp: 3}, "aaaBBBBB"},
		{HetGPSSpec{Schedule: Concurrent, AgentIters: 2, WarmUp: 1}, "aaBaBaBa"},
		{HetGPSSpec{Schedule: Alternated, AgentIters: 1, EnvIters: 2, WarmUp: 2}, "aaaeeaee"},
		// Cycles longer than math.MaxInt iterations.
		{HetGPSSpec{Schedule: Alternated, AgentIters: 2, EnvIters: math.MaxInt}, "aaeeeeee"},
		{HetGPSSpec{Schedule: Alternated, AgentIters: math.MaxInt, EnvIters: math.MaxInt}, "aaaaaaaa"},
	} {
		if got := plan(c.s, 8); got != c.want {
			t.Errorf("%v x=%d y=%d warm-up %d: plan %s, want %s", c.s.Schedule, c.s.AgentIters, c.s.EnvIters, c.s.WarmUp, got, c.want)
		}
	}
	if a, e := (HetGPSSpec{}).Plan(0); a || e {
		t.Error("iteration 0 does something")
	}
	if a, e := (HetGPSSpec{Schedule: Alternated, AgentIters: 5, EnvIters: math.MaxInt - 2}).Plan(math.MaxInt); a || !e {
		t.Errorf("a cycle of more than math.MaxInt iterations: iteration math.MaxInt trains the agents %v, steps θ %v", a, e)
	}
	for _, s := range []string{"concurrent", "Alternated"} {
		sc, err := ParseSchedule(s)
		if err != nil || !strings.EqualFold(sc.String(), s) {
			t.Errorf("ParseSchedule(%q) = %v, %v", s, sc, err)
		}
	}
	if _, err := ParseSchedule("sometimes"); !errors.Is(err, ErrConfig) {
		t.Errorf("ParseSchedule(sometimes): %v", err)
	}
}

// TestHetGPSLogsSchedule checks that a run follows its plan: env_step,
// the gradient columns and the frames of each row.
func TestHetGPSLogsSchedule(t *testing.T) {
	s := hetgpsMatrix(1, 7)
	s.Schedule, s.AgentIters, s.EnvIters, s.WarmUp = Alternated, 2, 1, 2
	res, err := HetGPS(s, Options{})
	if err != nil {
		t.Fatal(err)
	}
	frames := int64(0)
	for k, row := range res.Log {
		a, e := s.Plan(k + 1)
		if row.Iteration != k+1 || row.EnvStep != e {
			t.Errorf("row %d: iteration %d, env step %v, want %d, %v", k, row.Iteration, row.EnvStep, k+1, e)
		}
		if e == math.IsNaN(row.GradGain) || e == math.IsNaN(row.ThetaGrad[0]) {
			t.Errorf("row %d: env step %v but grad gain %v, gradient %v", k, e, row.GradGain, row.ThetaGrad)
		}
		if a == math.IsNaN(row.Gain) {
			t.Errorf("row %d: agent step %v but training gain %v", k, a, row.Gain)
		}
		if a {
			frames += 1600
		}
		if row.Frames != frames {
			t.Errorf("row %d: %d frames, want %d", k, row.Frames, frames)
		}
		if k > 0 && !e && !reflect.DeepEqual(row.Theta, res.Log[k-1].Theta) {
			t.Errorf("row %d: θ moved from %v to %v without an environment step", k, res.Log[k-1].Theta, row.Theta)
		}
		if e && reflect.DeepEqual(row.Theta, hetgpsPrevTheta(res, k, s)) {
			t.Errorf("row %d: θ did not move at an environment step", k)
		}
	}
	if last := res.Log[len(res.Log)-1]; math.IsNaN(last.EvalGain) {
		t.Error("the last row, an environment step, has no evaluation")
	}
}

func hetgpsPrevTheta(res *HetGPSResult, k int, s HetGPSSpec) []float64 {
	if k == 0 {
		th := make([]float64, len(s.Params))
		for j, p := range s.Params {
			th[j] = p.Init
		}
		return th
	}
	return res.Log[k-1].Theta
}

func TestHetGPSValidation(t *testing.T) {
	for _, c := range []struct {
		edit func(*HetGPSSpec)
		want string
	}{
		{func(s *HetGPSSpec) { s.Params[0].Name = "T.tau" }, `"T.tau"`},
		{func(s *HetGPSSpec) { s.Params[1].Name = "T.t" }, `"T.t" listed twice`},
		{func(s *HetGPSSpec) { s.Params = nil }, "no parameters"},
		{func(s *HetGPSSpec) { s.Params, s.SumDifference = s.Params[:1], true }, "SumDifference with 1 parameters, want exactly 2"},
		{func(s *HetGPSSpec) { s.Params[0].Low, s.Params[0].High = 2, 1 }, `"T.t": Low 2 >= High 1`},
		{func(s *HetGPSSpec) { s.Params[1].Low, s.Params[1].High = 1, 1 }, `"U.t": Low 1 >= High 1`},
		{func(s *HetGPSSpec) { s.Params[1].Low, s.Params[1].High, s.Params[1].Init = 0.3, 6, 6 }, `"U.t": Init 6 outside`},
		{func(s *HetGPSSpec) { s.Params[0].Low, s.Params[0].High, s.Params[0].Init = 0.3, 6, 0 }, `"T.t": Init 0 outside`},
		{func(s *HetGPSSpec) { s.Params[0].Init = math.NaN() }, `"T.t"`},
		{func(s *HetGPSSpec) { s.Params[0].Low, s.Params[0].High = -1e308, 1e308 }, `"T.t": (Low, High) = (-1e+308, 1e+308) is too wide`},
		{func(s *HetGPSSpec) { s.Params[1].Low, s.Params[1].High, s.Params[1].Init = -1e300, 1e300, 1 }, `"U.t": (Low, High) = (-1e+300, 1e+300) is too wide for the squash to start at Init 1`},
		{func(s *HetGPSSpec) {
			s.Params[0].Low, s.Params[0].High, s.Params[0].Init = 1, math.Nextafter(math.Nextafter(1, 2), 2), math.Nextafter(1, 2)
		}, `"T.t": (Low, High) = (1, 1.0000000000000004) is too narrow`},
		{func(s *HetGPSSpec) { s.Params[0].ClampLow, s.Params[0].ClampHigh = 1, 1 }, `"T.t": ClampLow 1 >= ClampHigh 1`},
		{func(s *HetGPSSpec) { s.Params[1].ClampLow, s.Params[1].ClampHigh = 0.5, 2 }, `"U.t": Init 0 outside the clamp (0.5, 2)`},
		{func(s *HetGPSSpec) { s.Params[0].ClampHigh = 2 }, `"T.t": Init 0 outside the clamp (0, 2)`},
		{func(s *HetGPSSpec) {
			s.Params[0] = ThetaParam{Name: "T.t", Init: 1, Low: 0.3, High: 6, ClampLow: 0.2, ClampHigh: 5.9}
		}, `"T.t": clamp [0.2, 5.9] reaches outside the bounds (Low, High) = (0.3, 6)`},
		{func(s *HetGPSSpec) {
			s.Params[1] = ThetaParam{Name: "U.t", Init: 1, Low: 0.3, High: 6, ClampLow: 0.4, ClampHigh: 6.5}
		}, `"U.t": clamp [0.4, 6.5] reaches outside the bounds`},
		{func(s *HetGPSSpec) {
			s.Params[0] = ThetaParam{Name: "T.t", Init: 1, Low: 2, High: 1, ClampLow: 0.4, ClampHigh: 5.9}
		}, `"T.t": Low 2 >= High 1`},
		{func(s *HetGPSSpec) { s.Params[0].ClampLow, s.Params[0].ClampHigh = -1, math.NaN() }, `"T.t": Init 0, Low 0, High 0, ClampLow -1, ClampHigh NaN must be finite`},
		{func(s *HetGPSSpec) { s.ThetaLR = -1 }, "ThetaLR"},
		{func(s *HetGPSSpec) { s.GradEpisodes = -1 }, "GradEpisodes"},
		{func(s *HetGPSSpec) { s.WarmUp = -2 }, "WarmUp"},
		{func(s *HetGPSSpec) { s.WarmUp = 1 }, "1 iterations with WarmUp 1: θ would first step at iteration 2"},
		{func(s *HetGPSSpec) { s.AgentIters = 2 }, "θ would first step at iteration 2"},
		{func(s *HetGPSSpec) { s.Schedule = Alternated }, "θ would first step at iteration 2"},
		{func(s *HetGPSSpec) { s.DescentFloor = true }, "DescentFloor without Descent"},
		{func(s *HetGPSSpec) { s.Schedule = 7 }, "Schedule"},
		{func(s *HetGPSSpec) { s.AgentIters = -1 }, "AgentIters"},
		{func(s *HetGPSSpec) { s.Run.Env.U = "min" }, `"U.t"`},
		{func(s *HetGPSSpec) { s.Run.Env.T = "powersum(1)"; s.Params[0].Init = -1 }, "initial θ"},
		{func(s *HetGPSSpec) {
			s.Run.Maker = func(b int) (simulate.Env, error) {
				e, err := s.Run.Env.New(b)
				return struct{ simulate.Env }{e}, err
			}
		}, "no return gradient"},
	} {
		s := hetgpsMatrix(1, 1)
		c.edit(&s)
		_, err := HetGPS(s, Options{})
		if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("want an ErrConfig naming %s, got %v", c.want, err)
		}
		if err2 := s.Check(); err2 == nil || err2.Error() != err.Error() {
			t.Errorf("Check: %v, HetGPS: %v", err2, err)
		}
	}
}

// TestHetGPSCheckOverflow checks that Check refuses schedules whose first
// θ step lies beyond math.MaxInt, instead of letting the sum wrap around
// to a negative iteration that passes for one within the run.
func TestHetGPSCheckOverflow(t *testing.T) {
	for _, edit := range []func(*HetGPSSpec){
		func(s *HetGPSSpec) { s.WarmUp = math.MaxInt },
		func(s *HetGPSSpec) { s.WarmUp, s.AgentIters = 2, math.MaxInt-1 },
		func(s *HetGPSSpec) { s.Schedule, s.AgentIters = Alternated, math.MaxInt },
		func(s *HetGPSSpec) { s.Schedule, s.WarmUp = Alternated, math.MaxInt-1 },
		func(s *HetGPSSpec) { s.Run.Iterations, s.WarmUp = math.MaxInt, math.MaxInt },
	} {
		s := hetgpsMatrix(1, 4)
		edit(&s)
		err := s.Check()
		if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), "after iteration math.MaxInt") {
			t.Errorf("%v x=%d warm-up %d, %d iterations: want an ErrConfig, got %v",
				s.Schedule, s.AgentIters, s.WarmUp, s.Run.Iterations, err)
		}
	}
}

// TestHetGPSCheckThetaRange checks that Check refuses bounds or a clamp
// that let θ reach a value the environment refuses (Capture's drag is in
// [0, 1]), naming the parameter, and takes those that keep θ inside.
func TestHetGPSCheckThetaRange(t *testing.T) {
	capture := func(p ThetaParam) HetGPSSpec {
		s := hetgpsMatrix(1, 2)
		s.Run.Env = EnvSpec{Name: "capture", U: "min", T: "max", EpisodeLength: 5}
		s.Params = []ThetaParam{p}
		return s
	}
	for _, c := range []struct {
		p  ThetaParam
		ok bool
	}{
		{ThetaParam{Name: "drag", Init: 0.25, Low: 0, High: 1}, true},
		{ThetaParam{Name: "drag", Init: 0.25, ClampLow: 0.1, ClampHigh: 0.9}, true},
		{ThetaParam{Name: "drag", Init: 0.25, Low: -5, High: 5, ClampLow: 0, ClampHigh: 1}, true},
		{ThetaParam{Name: "drag", Init: 0.25, Low: -5, High: 5}, false},
		{ThetaParam{Name: "drag", Init: 0.25, Low: 0, High: 1.5}, false},
		{ThetaParam{Name: "drag", Init: 0.25, ClampLow: -1, ClampHigh: 0.5}, false},
	} {
		err := capture(c.p).Check()
		if c.ok && err != nil {
			t.Errorf("%v: %v, want nil", c.p, err)
		}
		if !c.ok && (!errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), "can reach drag")) {
			t.Errorf("%v: %v, want ErrConfig naming what drag can reach", c.p, err)
		}
	}
}

// TestHetGPSSquashGradient checks the gradient with respect to the raw
// values of bounded parameters, through the squash, against central
// finite differences of the gain at fixed policies and seed.
func TestHetGPSSquashGradient(t *testing.T) {
	for _, c := range []struct {
		name string
		spec HetGPSSpec
	}{
		{"powersum", func() HetGPSSpec {
			s := hetgpsMatrix(3, 3)
			s.Run.Env.U, s.Run.Env.T = "powersum(1)", "powersum(1)"
			s.Params = []ThetaParam{{Name: "T.t", Init: 2.5, Low: 0.3, High: 6}, {Name: "U.t", Init: 0.7, Low: 0.3, High: 6}}
			return s
		}()},
		{"softmax bounded and not", func() HetGPSSpec {
			s := hetgpsMatrix(4, 3)
			s.Params = []ThetaParam{{Name: "T.t", Init: 1.5, Low: -4, High: 4}, {Name: "U.t", Init: -0.5}}
			return s
		}()},
		{"softmax, deterministic policies", func() HetGPSSpec {
			s := hetgpsMatrix(5, 3)
			s.Params = []ThetaParam{{Name: "T.t", Init: 1.5}, {Name: "U.t", Init: -0.5}}
			s.DeterministicGrad = true
			return s
		}()},
	} {
		h, err := newHetGPS(c.spec)
		if err != nil {
			t.Fatal(err)
		}
		for k := 0; k < 3; k++ { // trained policies: the gain is not flat
			if _, err := h.iterate(); err != nil {
				t.Fatal(err)
			}
		}
		_, grad, rawGrad, err := h.rawGradient(99)
		if err != nil {
			t.Fatal(err)
		}
		raw := append([]float64(nil), h.raw...)
		gainAt := func(r []float64) float64 {
			copy(h.raw, r)
			if err := h.setTheta(); err != nil {
				t.Fatal(err)
			}
			g, _, err := h.gainGradient(99)
			if err != nil {
				t.Fatal(err)
			}
			return g
		}
		for j, p := range c.spec.Params {
			const eps = 1e-5
			rp, rm := append([]float64(nil), raw...), append([]float64(nil), raw...)
			rp[j] += eps
			rm[j] -= eps
			fd := (gainAt(rp) - gainAt(rm)) / (2 * eps)
			if math.Abs(fd-rawGrad[j]) > 1e-6*math.Max(1, math.Abs(fd)) {
				t.Errorf("%s: ∂gain/∂ρ(%s) = %v, finite differences %v", c.name, p.Name, rawGrad[j], fd)
			}
			if math.Abs(rawGrad[j]) < 1e-8 {
				t.Errorf("%s: ∂gain/∂ρ(%s) = %v: the check is vacuous", c.name, p.Name, rawGrad[j])
			}
			if want := grad[j] * p.slope(raw[j]); rawGrad[j] != want {
				t.Errorf("%s: raw gradient %v, θ gradient × slope %v", c.name, rawGrad[j], want)
			}
		}
		copy(h.raw, raw)
		// The squash maps raw values into (Low, High) and back.
		for _, p := range c.spec.Params {
			for _, r := range []float64{-3, -0.2, 0, 1.1, 4} {
				v := p.value(r)
				if p.Bounded() && !(v > p.Low && v < p.High) {
					t.Errorf("%s: %s(ρ=%v) = %v outside (%v, %v)", c.name, p.Name, r, v, p.Low, p.High)
				}
				if back := p.raw(v); math.Abs(back-r) > 1e-9 {
					t.Errorf("%s: %s: ρ %v → θ %v → ρ %v", c.name, p.Name, r, v, back)
				}
			}
		}
	}
}

// TestThetaClamp checks the clamp of ThetaParam against its definition:
// θ is the squash clamped into [ClampLow, ClampHigh], dθ/dρ is the
// squash's inside the clamp (checked by central finite differences away
// from its ends) and 0 beyond it, and a clamp equal to the bounds is
// accepted (the squash never reaches them).
func TestThetaClamp(t *testing.T) {
	for _, p := range []ThetaParam{
		{Name: "T.t", Init: 1, Low: 0.3, High: 6, ClampLow: 0.4, ClampHigh: 5.9}, // the reference's power-sum
		{Name: "T.t", Init: 0.5, ClampLow: 0.2, ClampHigh: 2},                    // unbounded, clamped inside power-sum's domain
		{Name: "T.t", Init: 1, Low: 0.3, High: 6, ClampLow: 0.3, ClampHigh: 6},   // as wide as the bounds
	} {
		s := hetgpsMatrix(1, 1)
		s.Run.Env.T = "powersum(1)"
		s.Params = []ThetaParam{p}
		if err := s.Check(); err != nil {
			t.Fatalf("%+v: %v", p, err)
		}
		beyond := 0
		for raw := -8.0; raw <= 8; raw += 0.01 {
			sq, v, slope := p.squash(raw), p.value(raw), p.slope(raw)
			inside := sq >= p.ClampLow && sq <= p.ClampHigh
			switch {
			case v < p.ClampLow || v > p.ClampHigh:
				t.Fatalf("%+v: θ(ρ=%v) = %v outside the clamp", p, raw, v)
			case inside && v != sq:
				t.Fatalf("%+v: θ(ρ=%v) = %v, the squash %v is inside the clamp", p, raw, v, sq)
			case !inside && slope != 0:
				t.Fatalf("%+v: dθ/dρ(ρ=%v) = %v beyond the clamp, want 0", p, raw, slope)
			}
			if !inside {
				beyond++
			}
			const h = 1e-6
			if math.Min(sq-p.ClampLow, p.ClampHigh-sq) > 1e-3 {
				fd := (p.value(raw+h) - p.value(raw-h)) / (2 * h)
				if math.Abs(fd-slope) > 1e-6*math.Max(1, math.Abs(fd)) {
					t.Fatalf("%+v: dθ/dρ(ρ=%v) = %v, finite differences %v", p, raw, slope, fd)
				}
			}
		}
		if wide := p.ClampLow == p.Low && p.ClampHigh == p.High; wide != (beyond == 0) {
			t.Errorf("%+v: %d raw values beyond the clamp", p, beyond)
		}
	}
}

// TestHetGPSClampAbsorbs runs the matrix game's softmax search, whose
// deterministic gradient raises τ_T, with and without a clamp of τ_T at
// 0.3: the two runs are the same until τ_T passes 0.3, and from then on
// the clamped run's τ_T is 0.3 at every iteration (the clamp's end
// absorbs), while the other's goes on rising.
func TestHetGPSClampAbsorbs(t *testing.T) {
	if testing.Short() {
		t.Skip("trains for several seconds")
	}
	const end = 0.3
	free := hetgpsMatrix(1, 30)
	free.DeterministicGrad = true
	clamped := free
	clamped.Params = []ThetaParam{{Name: "T.t", ClampLow: -1, ClampHigh: end}, {Name: "U.t"}}
	a, err := HetGPS(free, Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := HetGPS(clamped, Options{})
	if err != nil {
		t.Fatal(err)
	}
	cross := -1
	for k, row := range a.Log {
		if row.Theta[0] > end {
			cross = k
			break
		}
	}
	if cross < 0 || a.Theta[0] <= end+0.1 {
		t.Fatalf("without the clamp τ_T ends at %v: the test needs a run that passes %v", a.Theta[0], end)
	}
	hetgpsSameRows(t, "before τ_T passes the clamp", a.Log[:cross], b.Log[:cross])
	for k := cross; k < len(b.Log); k++ {
		if got := b.Log[k].Theta[0]; got != end {
			t.Fatalf("iteration %d: clamped τ_T = %v, want %v from iteration %d on", k+1, got, end, cross+1)
		}
	}
	t.Logf("τ_T passed %v at iteration %d; without the clamp it ends at %.3f", end, cross+1, a.Theta[0])
}

// hetgpsSameRows compares logs without the wall-time columns.
func hetgpsSameRows(t *testing.T, what string, a, b []HetGPSStats) {
	t.Helper()
	if len(a) != len(b) {
		t.Fatalf("%s: %d and %d rows", what, len(a), len(b))
	}
	for k := range a {
		x, y := a[k], b[k]
		x.Seconds, x.FPS, y.Seconds, y.FPS = 0, 0, 0, 0
		if strings.Join(x.row(), ",") != strings.Join(y.row(), ",") {
			t.Fatalf("%s: row %d differs:\n%v\n%v", what, k, x.row(), y.row())
		}
	}
}

func TestHetGPSDeterministic(t *testing.T) {
	s := hetgpsSmallCapture(5, 3)
	a, err := HetGPS(s, Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := HetGPS(s, Options{})
	if err != nil {
		t.Fatal(err)
	}
	hetgpsSameRows(t, "two runs", a.Log, b.Log)
	if !reflect.DeepEqual(a.Theta, b.Theta) {
		t.Errorf("final θ %v and %v", a.Theta, b.Theta)
	}
	if reflect.DeepEqual(a.Theta, []float64{1, 1}) {
		t.Error("θ did not move")
	}
	s.Run.Team.Seed = 6
	c, err := HetGPS(s, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if reflect.DeepEqual(a.Theta, c.Theta) {
		t.Error("another seed gives the same θ")
	}
}

// TestHetGPSResume stops runs after k iterations and resumes them: the
// logs and θ are those of an uninterrupted run, for both schedules and
// both optimisers.
func TestHetGPSResume(t *testing.T) {
	for _, c := range []struct {
		name string
		edit func(*HetGPSSpec)
		stop int
	}{
		{"concurrent adam", func(*HetGPSSpec) {}, 3},
		{"alternated sgd", func(s *HetGPSSpec) { s.Schedule, s.AgentIters, s.EnvIters, s.SGD = Alternated, 2, 2, true }, 3},
		{"descent floor", func(s *HetGPSSpec) { s.Descent, s.DescentFloor = true, true }, 5},
	} {
		s := hetgpsMatrix(2, 8)
		c.edit(&s)
		full, err := HetGPS(s, Options{})
		if err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join(t.TempDir(), "run")
		n := 0
		part, err := HetGPS(s, Options{Dir: dir, CheckpointEvery: 2, Stop: func() bool { n++; return n > c.stop }})
		if !errors.Is(err, ErrStopped) || len(part.Log) != c.stop {
			t.Fatalf("%s: stopped run: %v after %d rows", c.name, err, len(part.Log))
		}
		res, err := HetGPS(s, Options{Dir: dir})
		if err != nil {
			t.Fatal(err)
		}
		if res.ResumedAt != c.stop {
			t.Errorf("%s: resumed at %d, want %d", c.name, res.ResumedAt, c.stop)
		}
		hetgpsSameRows(t, c.name, full.Log, res.Log)
		onDisk, names, err := ReadHetGPSLog(dir)
		if err != nil || !reflect.DeepEqual(names, res.Names) {
			t.Fatalf("%s: ReadHetGPSLog: names %v, %v", c.name, names, err)
		}
		hetgpsSameRows(t, c.name+" (log.csv)", full.Log, onDisk)
		if !reflect.DeepEqual(full.Theta, res.Theta) {
			t.Errorf("%s: θ %v resumed, %v uninterrupted", c.name, res.Theta, full.Theta)
		}
		for _, tm := range []*Team{res.Pair.Het(), res.Pair.Hom()} {
			got := tm.EnvParams()
			for j, name := range res.Names {
				if v, _ := got.Get(name); v != full.Theta[j] {
					t.Errorf("%s: the teams' environments have %v, θ is %v", c.name, got, full.Theta)
				}
			}
		}
		// Extending the run continues from the end.
		s.Run.Iterations = 10
		more, err := HetGPS(s, Options{Dir: dir})
		if err != nil || more.ResumedAt != 8 || len(more.Log) != 10 {
			t.Errorf("%s: extended run: %v, resumed at %d with %d rows", c.name, err, more.ResumedAt, len(more.Log))
		}
		// Fewer iterations than the directory holds: the search as it is.
		s.Run.Iterations = 4
		if fewer, err := HetGPS(s, Options{Dir: dir}); err != nil || len(fewer.Log) != 10 {
			t.Errorf("%s: Iterations 4 on a 10-iteration directory: %v, %d rows", c.name, err, len(fewer.Log))
		}
		if rs, err := ReadHetGPSSpec(dir); err != nil || rs.Run.Iterations != 10 {
			t.Errorf("%s: spec.json after Iterations 4: %v, %v; want Iterations 10", c.name, rs.Run.Iterations, err)
		}
		s.Run.Iterations = 10
		// Another search in the same directory is refused.
		s.ThetaLR = 0.5
		if _, err := HetGPS(s, Options{Dir: dir}); !errors.Is(err, ErrCheckpoint) {
			t.Errorf("%s: another spec in the directory: %v", c.name, err)
		}
	}
}

// TestHetGPSMatrixAscent is the paper's result in the matrix game: the
// search makes T Schur-convex (τ_T rises) and U Schur-concave (τ_U falls)
// and the gain rises. From exactly τ = 0 the game is a saddle of the
// search (the reward is constant there, so neither the agents nor θ get a
// signal), and which way it leaves depends on the seed: about half the
// seeds end in the region of no gain, where the gain and its gradient
// vanish (see reproduce's "softmax" experiment). This seed leaves it the
// theory's way.
func TestHetGPSMatrixAscent(t *testing.T) {
	if testing.Short() {
		t.Skip("trains for several seconds")
	}
	res, err := HetGPS(hetgpsMatrix(1, 45), Options{})
	if err != nil {
		t.Fatal(err)
	}
	last := res.Log[len(res.Log)-1]
	tT, tU := last.Theta[0], last.Theta[1]
	t.Logf("θ = (τ_T %.3f, τ_U %.3f), gain %.3f (evaluated %.3f)", tT, tU, last.GradGain, last.EvalGain)
	if tT < 1 || tU > -1 {
		t.Errorf("τ_T = %v, τ_U = %v: want τ_T > 1 and τ_U < -1", tT, tU)
	}
	if last.GradGain < 0.2 || last.EvalGain < 0.2 {
		t.Errorf("final gain %v (evaluated %v), want > 0.2", last.GradGain, last.EvalGain)
	}
}

// TestHetGPSDescent minimises the gain: from τ = 0 the search never lets
// a positive gain appear, and the evaluated gain ends near 0, the least
// gain a reward can have (a heterogeneous team can always do what a
// homogeneous one does). On the way the measured gain may dip below 0
// while the homogeneous team learns the reward the descent makes (all on
// one task) faster than the heterogeneous one.
func TestHetGPSDescent(t *testing.T) {
	if testing.Short() {
		t.Skip("trains for several seconds")
	}
	s := hetgpsMatrix(3, 30)
	s.Descent = true
	res, err := HetGPS(s, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range res.Log {
		if row.GradGain > 0.05 || row.EvalGain > 0.05 {
			t.Errorf("iteration %d: gain %v (evaluated %v) at θ %v", row.Iteration, row.GradGain, row.EvalGain, row.Theta)
		}
	}
	last := res.Log[len(res.Log)-1]
	if math.Abs(last.EvalGain) > 0.05 {
		t.Errorf("final evaluated gain %v at θ %v", last.EvalGain, last.Theta)
	}
	// Without DescentFloor θ steps at every iteration, also where the
	// measured gain is at or below 0, and goes the descent's way: T
	// towards Schur-concave or U towards Schur-convex. (The first step
	// can be 0: the fresh teams' efforts are all alike.)
	moved, movedAtOrBelow0 := 0, 0
	for k, row := range res.Log {
		before := []float64{s.Params[0].Init, s.Params[1].Init}
		if k > 0 {
			before = res.Log[k-1].Theta
		}
		if !row.EnvStep {
			t.Errorf("iteration %d: θ did not step", row.Iteration)
		}
		if !reflect.DeepEqual(row.Theta, before) {
			moved++
			if row.GradGain <= 0 {
				movedAtOrBelow0++
			}
		}
	}
	if moved < len(res.Log)-1 || movedAtOrBelow0 == 0 {
		t.Errorf("θ moved at %d of %d iterations, %d of them at a measured gain <= 0; want all but at most the first, and some",
			moved, len(res.Log), movedAtOrBelow0)
	}
	if res.Theta[0] >= 0 && res.Theta[1] <= 0 {
		t.Errorf("final θ %v: want τ_T < 0 or τ_U > 0", res.Theta)
	}
	t.Logf("final θ %v, gain %v (evaluated %v); %d of %d steps at a gain <= 0", res.Theta, last.GradGain, last.EvalGain, movedAtOrBelow0, moved)
}

// TestHetGPSDescentFloor checks the floor of a descent: θ steps exactly
// at the iterations whose measured gain is above 0 and holds still at the
// others, and a held iteration leaves the optimiser's state as it was, so
// that the next step is the one a run without the held iterations would
// take.
func TestHetGPSDescentFloor(t *testing.T) {
	s := hetgpsMatrix(3, 30)
	s.Descent, s.DescentFloor = true, true
	res, err := HetGPS(s, Options{})
	if err != nil {
		t.Fatal(err)
	}
	held, stepped := 0, 0
	prev := []float64{0, 0}
	for k, row := range res.Log {
		if math.IsNaN(row.GradGain) || math.IsNaN(row.ThetaGrad[0]) {
			t.Fatalf("row %d: no gradient at an environment iteration", k)
		}
		moved := !reflect.DeepEqual(row.Theta, prev)
		if row.EnvStep != (row.GradGain > 0) || moved != row.EnvStep {
			t.Errorf("row %d: gain %v, env step %v, θ %v → %v", k, row.GradGain, row.EnvStep, prev, row.Theta)
		}
		if row.EnvStep {
			stepped++
		} else {
			held++
		}
		prev = row.Theta
	}
	if held == 0 || stepped == 0 {
		t.Fatalf("%d iterations held, %d stepped: the test needs both", held, stepped)
	}
	// Replaying the stepped iterations' gradients through a fresh Adam
	// gives the run's θ.
	h, err := newHetGPS(s)
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range res.Log {
		if !row.EnvStep {
			continue
		}
		g := make([]float64, len(row.ThetaGrad))
		for j, d := range row.ThetaGrad {
			g[j] = d * s.Params[j].slope(h.raw[j]) // unbounded: slope 1, descent: minimise the gain
		}
		h.opt.step(h.raw, g)
	}
	if !reflect.DeepEqual(h.raw, res.Theta) {
		t.Errorf("Adam over the stepped iterations gives θ %v, the run %v", h.raw, res.Theta)
	}
	t.Logf("%d iterations held, %d stepped; final θ %v, gain %v", held, stepped, res.Theta, res.Log[len(res.Log)-1].GradGain)
}

// benchmarkIterations times iterations of a paired run and of HetGPS
// with an environment step at every iteration, on the same environment.
func hetgpsBenchPair(b *testing.B, s HetGPSSpec) {
	s.Run.Iterations = 1 << 30
	p, err := NewPair(s.Run)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := p.Iterate(); err != nil {
			b.Fatal(err)
		}
	}
}

func hetgpsBenchHetGPS(b *testing.B, s HetGPSSpec) {
	s.Run.Iterations = 1 << 30
	h, err := newHetGPS(s)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := h.iterate(); err != nil {
			b.Fatal(err)
		}
	}
}

// hetgpsBenchSpecs are the settings of the cost benchmarks: the matrix game and
// Multi-goal-capture with the default team configuration, evaluations
// switched off, θ = (T.t, U.t) and the default GradEpisodes; and
// "capture-e10", Capture with the team of the reproduce package's capture
// presets (16 episodes, 1600 frames and 10 epochs per iteration); and
// "capture-preset", capture-e10 with the presets' 128 gradient episodes.
func hetgpsBenchSpecs() map[string]HetGPSSpec {
	m := HetGPSSpec{Run: RunSpec{Env: EnvSpec{Name: "matrix", U: "softmax(0)", T: "softmax(0)"}, Team: Config{Seed: 1},
		EvalEvery: 1 << 30}, Params: []ThetaParam{{Name: "T.t"}, {Name: "U.t"}}}
	c := m
	c.Run.Env.Name = "capture"
	e := c
	e.Run.Team = Config{Seed: 1, Envs: 16, FramesPerIter: 1600, Epochs: 10}
	p := e
	p.GradEpisodes = 128
	return map[string]HetGPSSpec{"matrix": m, "capture": c, "capture-e10": e, "capture-preset": p}
}

func BenchmarkPairIteration(b *testing.B) {
	for _, name := range []string{"matrix", "capture", "capture-e10"} {
		b.Run(name, func(b *testing.B) { hetgpsBenchPair(b, hetgpsBenchSpecs()[name]) })
	}
}

func BenchmarkHetGPSIteration(b *testing.B) {
	for _, name := range []string{"matrix", "capture", "capture-e10", "capture-preset"} {
		b.Run(name, func(b *testing.B) { hetgpsBenchHetGPS(b, hetgpsBenchSpecs()[name]) })
	}
}

// TestHetGPSDeterministicGrad checks the property that makes
// DeterministicGrad reliable in the matrix game from softmax(0) under
// softmax(0): with the teams' modes, a homogeneous team's agents choose
// the same efforts, so ∂gain/∂τ_T is the spread of the heterogeneous
// team's efforts, never negative, at every iteration; with sampled
// actions it is noise of either sign.
func TestHetGPSDeterministicGrad(t *testing.T) {
	signs := func(deterministic bool) (neg, pos int) {
		s := hetgpsMatrix(2, 40)
		s.DeterministicGrad = deterministic
		res, err := HetGPS(s, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, row := range res.Log {
			switch g := row.ThetaGrad[0]; {
			case g < 0:
				neg++
			case g > 0:
				pos++
			}
		}
		return neg, pos
	}
	if neg, pos := signs(true); neg != 0 || pos == 0 {
		t.Errorf("deterministic: ∂gain/∂τ_T < 0 at %d iterations, > 0 at %d; want 0 and some", neg, pos)
	}
	if neg, _ := signs(false); neg == 0 {
		t.Errorf("sampled actions: ∂gain/∂τ_T never < 0 in 40 iterations; the contrast this test documents is gone")
	}
}

// TestReadHetGPSLogCutShort checks that ReadHetGPSLog drops a last line
// cut short, even where what is left of it parses.
func TestReadHetGPSLogCutShort(t *testing.T) {
	dir := t.TempDir()
	res, err := HetGPS(hetgpsSmallCapture(3, 3), Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, logFile)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, cut := range []int{len(data), len(data) - 1, len(data) - 3} {
		if err := os.WriteFile(path, data[:cut], 0o644); err != nil {
			t.Fatal(err)
		}
		log, _, err := ReadHetGPSLog(dir)
		want := res.Log
		if cut < len(data) {
			want = res.Log[:2]
		}
		if err != nil || len(log) != len(want) {
			t.Fatalf("log cut at byte %d of %d: %d rows, %v; want %d", cut, len(data), len(log), err, len(want))
		}
		hetgpsSameRows(t, fmt.Sprintf("cut at %d", cut), want, log)
	}
}

// TestReadHetGPSLogValues checks that ReadHetGPSLog accepts the missing
// values a search writes (no training returns at iterations that do not
// train the agents, no gradient at those that do not measure it) and
// refuses, naming the line and the column, values no search writes.
func TestReadHetGPSLogValues(t *testing.T) {
	header := strings.Join(hetgpsHeader([]string{"T.t"}), ",") + "\n"
	first := withUpdates("1,100,0.5,0.25,0.25,NaN,NaN,NaN,NaN,NaN,0.1,2000,0.01,1.5,0.2,true\n")
	read := func(data string) error {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, logFile), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		_, _, err := ReadHetGPSLog(dir)
		return err
	}
	for _, row := range []string{
		"2,100,NaN,NaN,NaN,NaN,NaN,NaN,NaN,NaN,0.1,0,0.01,1.5,0.2,true",        // θ only
		"2,100,NaN,NaN,NaN,0.5,0.25,0.25,0.5,0,0.1,0,0.01,1.5,0.2,true",        // θ only, last iteration
		"2,200,0.5,0.25,0.25,NaN,NaN,NaN,NaN,NaN,0.1,2000,NaN,1.5,NaN,false",   // agents only
		"2,200,0.5,0.25,0.25,NaN,NaN,NaN,NaN,NaN,0.1,2000,-0.01,1.5,0.2,false", // the floor held θ
	} {
		if err := read(header + first + withUpdates(row) + "\n"); err != nil {
			t.Errorf("%s: %v", row, err)
		}
	}
	for _, c := range []struct{ row, column string }{
		{"2,100,NaN,NaN,NaN,NaN,NaN,NaN,NaN,NaN,1.5,NaN,NaN,NaN,NaN,NaN,NaN,NaN,0.1,0,0.01,1.5,0.2,true", "het_entropy"}, // θ only, yet an update
		{"2,200,+Inf,0.25,0.25,NaN,NaN,NaN,NaN,NaN,0.1,2000,0.01,1.5,0.2,true", "het_return"},
		{"2,200,NaN,0.25,0.25,NaN,NaN,NaN,NaN,NaN,0.1,2000,0.01,1.5,0.2,true", "hom_return"},
		{"2,200,0.5,0.25,0.25,NaN,NaN,NaN,NaN,NaN,-1,2000,0.01,1.5,0.2,true", "seconds"},
		{"2,200,0.5,0.25,0.25,NaN,NaN,NaN,NaN,NaN,0.1,2000,+Inf,1.5,0.2,true", "grad_gain"},
		{"2,200,0.5,0.25,0.25,NaN,NaN,NaN,NaN,NaN,0.1,2000,0.01,NaN,0.2,true", "theta_T.t"},
		{"2,200,0.5,0.25,0.25,NaN,NaN,NaN,NaN,NaN,0.1,2000,0.01,-Inf,0.2,true", "theta_T.t"},
		{"2,200,0.5,0.25,0.25,NaN,NaN,NaN,NaN,NaN,0.1,2000,0.01,1.5,NaN,true", "grad_T.t"},
		{"2,200,0.5,0.25,0.25,NaN,NaN,NaN,NaN,NaN,0.1,2000,NaN,1.5,0.2,false", "grad_T.t"},
		{"2,200,0.5,0.25,0.25,NaN,NaN,NaN,NaN,NaN,0.1,2000,0.01,1.5,Inf,true", "grad_T.t"},
		{"2,200,0.5,0.25,0.25,NaN,NaN,NaN,NaN,NaN,0.1,2000,NaN,1.5,NaN,true", "env_step"},
		{"2,200,0.5,0.25,0.25,NaN,NaN,NaN,NaN,NaN,0.1,2000,NaN,1.5,NaN,maybe", "env_step"},
	} {
		err := read(header + first + withUpdates(c.row) + "\n")
		if !errors.Is(err, ErrCheckpoint) || !strings.Contains(err.Error(), "line 3: column "+c.column+" is ") {
			t.Errorf("%s: %v, want ErrCheckpoint naming line 3 and column %s", c.row, err, c.column)
		}
	}
}

// TestReadHetGPSLogOlder reads HetGPS logs written before the update
// columns, and before the diversity columns too: the same rows, with NaN
// in the columns they lack; and the run resumes from each, rewriting the
// log with every column.
func TestReadHetGPSLogOlder(t *testing.T) {
	dir := t.TempDir()
	spec := hetgpsSmallCapture(3, 3)
	res, err := HetGPS(spec, Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if d := res.Log[2].HetDiversity; !(d >= 0 && d <= 1) {
		t.Fatalf("last row's heterogeneous diversity %v, want it in [0, 1]", d)
	}
	if u := res.Log[2].HetUpdate; !(u.ValueLoss >= 0) || math.IsNaN(u.Entropy) {
		t.Fatalf("last row's heterogeneous update %+v, want it recorded", u)
	}
	for k := 1; k <= len(laterColumns); k++ {
		dropLaterColumns(t, dir, k)
		want := append([]HetGPSStats(nil), res.Log...)
		for j, r := range olderRows(pairRows(res.Log), k) {
			want[j].PairStats = r
		}
		log, names, err := ReadHetGPSLog(dir)
		if err != nil || !reflect.DeepEqual(names, res.Names) {
			t.Fatalf("ReadHetGPSLog of an older log: names %v, %v", names, err)
		}
		hetgpsSameRows(t, "older log", want, log)
		// Resuming the finished run rewrites the log in the new layout.
		if _, err := HetGPS(spec, Options{Dir: dir}); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(filepath.Join(dir, logFile))
		if err != nil {
			t.Fatal(err)
		}
		if h := strings.SplitN(string(data), "\n", 2)[0]; h != strings.Join(hetgpsHeader(names), ",") {
			t.Errorf("resumed log header %q", h)
		}
		if log, _, err = ReadHetGPSLog(dir); err != nil {
			t.Fatal(err)
		}
		hetgpsSameRows(t, "resumed older log", want, log)
		// The full log again, for the next layout to be cut from.
		if err := os.WriteFile(filepath.Join(dir, logFile), []byte(hetgpsLogText(res)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// pairRows returns the PairStats of rows.
func pairRows(rows []HetGPSStats) []PairStats {
	out := make([]PairStats, len(rows))
	for k, r := range rows {
		out[k] = r.PairStats
	}
	return out
}

// hetgpsLogText returns the log a HetGPS run with result res writes.
func hetgpsLogText(res *HetGPSResult) string {
	text := strings.Join(hetgpsHeader(res.Names), ",") + "\n"
	for _, r := range res.Log {
		text += strings.Join(r.row(), ",") + "\n"
	}
	return text
}

// TestLoadHetGPS checks that LoadHetGPS restores the teams and θ a HetGPS
// run left in its directory (bounded θ included, so the squash is undone
// as the run does it) and plays them as the trained ones do; and that it
// refuses directories without a HetGPS checkpoint.
func TestLoadHetGPS(t *testing.T) {
	for _, spec := range []HetGPSSpec{hetgpsMatrix(2, 5), hetgpsSmallCapture(3, 4)} {
		dir := t.TempDir()
		res, err := HetGPS(spec, Options{Dir: dir})
		if err != nil {
			t.Fatal(err)
		}
		pair, theta, err := LoadHetGPS(dir)
		if err != nil {
			t.Fatal(err)
		}
		name := spec.Run.Env.Name
		if !sameTeams(res.Pair, pair) || pair.Het().Iteration() != res.Pair.Het().Iteration() {
			t.Errorf("%s: loaded teams differ from the trained ones", name)
		}
		if len(theta.Values) != len(res.Theta) {
			t.Fatalf("%s: θ = %v, the run ended at %v", name, theta, res.Theta)
		}
		for k, v := range theta.Values {
			if v != res.Theta[k] || theta.Names[k] != spec.Params[k].Name {
				t.Errorf("%s: θ = %v, the run ended at %v", name, theta, res.Theta)
			}
			if v == spec.Params[k].Init {
				t.Errorf("%s: %s did not move from %v; the test needs θ to move", name, theta.Names[k], v)
			}
			if got := pair.Het().EnvParams().Values[pair.Het().EnvParams().Index(theta.Names[k])]; got != v {
				t.Errorf("%s: the loaded team's environment has %s = %v, want θ's %v", name, theta.Names[k], got, v)
			}
		}
		h1, m1, err1 := res.Pair.Evaluate(5)
		h2, m2, err2 := pair.Evaluate(5)
		if err1 != nil || err2 != nil || h1 != h2 || m1 != m2 {
			t.Errorf("%s: evaluation: trained %v %v (%v), loaded %v %v (%v)", name, h1, m1, err1, h2, m2, err2)
		}
	}
	if _, _, err := LoadHetGPS(t.TempDir()); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("empty directory: %v, want fs.ErrNotExist", err)
	}
	paired := t.TempDir()
	mustTrain(t, smallSpec(2), Options{Dir: paired})
	if _, _, err := LoadHetGPS(paired); !errors.Is(err, ErrCheckpoint) || !strings.Contains(err.Error(), "not the checkpoint of a HetGPS run") {
		t.Errorf("paired-run directory: %v, want ErrCheckpoint", err)
	}
}

// TestReadHetGPSSpec reads back the searches that runs recorded, with
// their defaults filled in: that of runs made here (with a clamp, a
// warm-up, a descent, the alternated schedule), checkpoint or not, and
// that of every stored HetGPS run in testdata, which must then match its
// own directory.
func TestReadHetGPSSpec(t *testing.T) {
	matrix := hetgpsMatrix(2, 3)
	matrix.DeterministicGrad, matrix.SGD = true, true
	capture := hetgpsSmallCapture(3, 4)
	capture.Params[0].ClampLow, capture.Params[0].ClampHigh = 0.4, 5.9
	capture.Schedule, capture.AgentIters, capture.EnvIters, capture.WarmUp = Alternated, 2, 1, 1
	capture.Descent, capture.DescentFloor = true, true
	for _, spec := range []HetGPSSpec{matrix, capture} {
		dir := t.TempDir()
		if _, err := HetGPS(spec, Options{Dir: dir}); err != nil {
			t.Fatal(err)
		}
		if err := os.Remove(filepath.Join(dir, checkpointFile)); err != nil {
			t.Fatal(err)
		}
		got, err := ReadHetGPSSpec(dir)
		if err != nil {
			t.Fatal(err)
		}
		if want := spec.withDefaults(); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: read\n%+v\nwant\n%+v", spec.Run.Env.Name, got, want)
		}
		if err := CheckHetGPSDir(dir, got); err != nil {
			t.Errorf("%s: the spec read back does not match its directory: %v", spec.Run.Env.Name, err)
		}
	}
	stored, err := filepath.Glob(filepath.Join("..", "testdata", "reproductions", "hetgps-*", "*", "seed*"))
	if err != nil || len(stored) < 12 {
		t.Fatalf("%d stored HetGPS runs (%v), want at least 12", len(stored), err)
	}
	for _, dir := range stored {
		spec, err := ReadHetGPSSpec(dir)
		if err != nil {
			t.Errorf("%s: %v", dir, err)
			continue
		}
		if err := CheckHetGPSDir(dir, spec); err != nil {
			t.Errorf("%s: the spec read back does not match its directory: %v", dir, err)
		}
	}

	if _, err := ReadHetGPSSpec(t.TempDir()); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("empty directory: %v, want fs.ErrNotExist", err)
	}
	paired := t.TempDir()
	mustTrain(t, smallSpec(2), Options{Dir: paired})
	bad := t.TempDir()
	for name, content := range map[string]string{
		"a paired run's": "",
		"not JSON":       "{",
		"unknown field":  `{"Algorithm": "HetGPS", "Colour": 1}`,
		"bad schedule":   `{"Algorithm": "HetGPS", "Schedule": "sometimes"}`,
		"lower-case key": strings.Replace(string(mustJSON(matrix.withDefaults().record())), `"ThetaLR"`, `"thetalr"`, 1),
		"invalid search": `{"Algorithm": "HetGPS", "Iterations": 2, "Run": {"Env": {"Name": "matrix", "U": "min", "T": "max"}}, "Schedule": "concurrent", "Params": [{"Name": "T.t"}]}`,
	} {
		dir := paired
		if content != "" {
			dir = bad
			if err := os.WriteFile(filepath.Join(bad, specFile), []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := ReadHetGPSSpec(dir); !errors.Is(err, ErrCheckpoint) {
			t.Errorf("%s spec.json: %v, want ErrCheckpoint", name, err)
		}
	}
}

// TestHetGPSCheckpointErrors: a HetGPS checkpoint whose search state
// training cannot have written is refused with ErrCheckpoint, not resumed.
func TestHetGPSCheckpointErrors(t *testing.T) {
	s := hetgpsMatrix(2, 3)
	for _, c := range []struct {
		name string
		edit func(*hetgpsState)
	}{
		{"NaN raw value", func(st *hetgpsState) { st.Raw[0] = math.NaN() }},
		{"infinite Adam mean", func(st *hetgpsState) { st.M[1] = math.Inf(1) }},
		{"negative Adam variance", func(st *hetgpsState) { st.V[0] = -1 }},
		{"negative Adam step", func(st *hetgpsState) { st.Step = -2 }},
		{"negative iteration", func(st *hetgpsState) { st.Iteration = -1 }},
		{"search ahead of the log", func(st *hetgpsState) { st.Iteration++ }},
	} {
		dir := t.TempDir()
		if _, err := HetGPS(s, Options{Dir: dir}); err != nil {
			t.Fatal(err)
		}
		rewriteCheckpoint(t, func(ck *checkpoint) {
			var st hetgpsState
			if err := gob.NewDecoder(bytes.NewReader(ck.Extra)).Decode(&st); err != nil {
				t.Fatal(err)
			}
			c.edit(&st)
			var buf bytes.Buffer
			if err := gob.NewEncoder(&buf).Encode(st); err != nil {
				t.Fatal(err)
			}
			ck.Extra = buf.Bytes()
		})(dir)
		if _, err := HetGPS(s, Options{Dir: dir}); !errors.Is(err, ErrCheckpoint) {
			t.Errorf("%s: %v, want ErrCheckpoint", c.name, err)
		}
		if _, _, err := LoadHetGPS(dir); !errors.Is(err, ErrCheckpoint) {
			t.Errorf("%s: LoadHetGPS: %v, want ErrCheckpoint", c.name, err)
		}
	}
}

// TestHetGPSSumDifferenceStep checks θ's step in the basis of the sum and
// difference of its two raw values: Adam's first step moves each rotated
// coordinate by its learning rate, so a gradient whose two entries share
// a large part and differ by a little, (−1.001, −0.999) of the loss,
// moves the first raw value by √2·lr and the second not at all, where
// Adam in the values' own basis moves both by lr. Plain gradient steps
// are the same in either basis, and the rotation is its own inverse.
func TestHetGPSSumDifferenceStep(t *testing.T) {
	const lr = 0.05
	step := func(sumDiff, sgd bool, grad []float64) []float64 {
		h := &hetgps{spec: HetGPSSpec{SumDifference: sumDiff, SGD: sgd, ThetaLR: lr}, opt: newAdam(2, lr),
			raw: []float64{0.3, -0.2}, grad: append([]float64(nil), grad...)}
		h.stepTheta()
		return []float64{h.raw[0] - 0.3, h.raw[1] + 0.2}
	}
	// Adam's ε (1e-8) against the difference's gradient (0.0014) leaves
	// 3.5e-7 of each coordinate's step undone.
	const tol = 1e-6
	g := []float64{-1.001, -0.999}
	if d := step(true, false, g); math.Abs(d[0]-math.Sqrt2*lr) > tol || math.Abs(d[1]) > tol {
		t.Errorf("Adam in the sum-difference basis moved the raw values by %v, want (%v, 0)", d, math.Sqrt2*lr)
	}
	if d := step(false, false, g); math.Abs(d[0]-lr) > tol || math.Abs(d[1]-lr) > tol {
		t.Errorf("Adam in the values' own basis moved them by %v, want (%v, %v)", d, lr, lr)
	}
	// The difference's sign decides, whatever the shared part's.
	if d := step(true, false, []float64{0.999, 1.001}); math.Abs(d[0]) > tol || math.Abs(d[1]+math.Sqrt2*lr) > tol {
		t.Errorf("Adam in the sum-difference basis moved the raw values by %v, want (0, %v)", d, -math.Sqrt2*lr)
	}
	plain, rotated := step(false, true, g), step(true, true, g)
	for j := range plain {
		if want := -lr * g[j]; math.Abs(plain[j]-want) > 1e-15 || math.Abs(rotated[j]-want) > 1e-15 {
			t.Errorf("SGD moved raw value %d by %v (own basis) and %v (sum-difference), want %v", j, plain[j], rotated[j], want)
		}
	}
	v := []float64{0.7, -1.9}
	toSumDifference(v)
	toSumDifference(v)
	if math.Abs(v[0]-0.7) > 1e-15 || math.Abs(v[1]+1.9) > 1e-15 {
		t.Errorf("the rotation twice gave %v, want (0.7, -1.9)", v)
	}
	nnMustPanic(t, "length other than 2", func() { toSumDifference([]float64{1, 2, 3}) })
}

// TestHetGPSRelativeGain checks that with RelativeGain the search steps
// on the relative gain's gradient (simulate.TeamReturns.RelativeGain of
// the same episodes) and logs the gain itself, and without it on the
// gain's (simulate.GainGradientConcurrent); that a run records the option
// in spec.json and reads it back; and that a run differs from one without
// it once θ has stepped.
func TestHetGPSRelativeGain(t *testing.T) {
	spec := hetgpsSmallCapture(3, 3)
	spec.Run.Env.U, spec.Run.Env.T = "powersum(1.5)", "powersum(2)"
	spec.Params[0].Init, spec.Params[1].Init = 2, 1.5
	for _, relative := range []bool{false, true} {
		s := spec
		s.RelativeGain = relative
		h, err := newHetGPS(s)
		if err != nil {
			t.Fatal(err)
		}
		gain, grad, err := h.gainGradient(1)
		if err != nil {
			t.Fatal(err)
		}
		het, hom := h.pair.het.Policy(true), h.pair.hom.Policy(true)
		tr, err := simulate.TeamReturnGradients(h.genv[0], h.genv[1], het, hom, h.seed(1), h.theta.Names)
		if err != nil {
			t.Fatal(err)
		}
		want, wantGrad := tr.Gain()
		if relative {
			_, wantGrad = tr.RelativeGain()
		}
		// Up to the rounding of a difference of the teams' returns (the
		// mean of differences against the difference of means).
		size := math.Abs(tr.Het) + math.Abs(tr.Hom)
		if math.Abs(gain-want) > 1e-12*size || !(gain != 0) {
			t.Errorf("RelativeGain %v: gain %v, want %v (not 0)", relative, gain, want)
		}
		for j := range grad {
			scale := math.Abs(tr.HetGrad[j]) + math.Abs(tr.HomGrad[j])
			if relative {
				scale /= size
			}
			if math.Abs(grad[j]-wantGrad[j]) > 1e-12*scale {
				t.Errorf("RelativeGain %v: gradient %v, want %v", relative, grad, wantGrad)
				break
			}
		}
	}
	dirs := [2]string{t.TempDir(), t.TempDir()}
	var logs [2][]HetGPSStats
	for k, relative := range []bool{false, true} {
		s := spec
		s.RelativeGain = relative
		res, err := HetGPS(s, Options{Dir: dirs[k]})
		if err != nil {
			t.Fatal(err)
		}
		logs[k] = res.Log
		back, err := ReadHetGPSSpec(dirs[k])
		if err != nil || back.RelativeGain != relative {
			t.Errorf("spec.json read back: RelativeGain %v (%v), want %v", back.RelativeGain, err, relative)
		}
	}
	if a, b := logs[0][0].GradGain, logs[1][0].GradGain; math.Abs(a-b) > 1e-6*math.Abs(a) {
		t.Errorf("first gain measured %v and %v: want the same teams, the same gain up to rounding", a, b)
	}
	if reflect.DeepEqual(logs[0][2].Theta, logs[1][2].Theta) {
		t.Errorf("θ after 3 iterations is %v with and without RelativeGain", logs[0][2].Theta)
	}
}

// TestHetGPSEvalCadence checks what HetGPSStats documents: Run.EvalEvery
// counts the iterations that train the agents, so under Alternated with
// x = 2, y = 1 and EvalEvery 2 the evaluations fall at HetGPS iterations
// 2, 5 and 8, and the last iteration (9) is evaluated as the last.
func TestHetGPSEvalCadence(t *testing.T) {
	s := hetgpsMatrix(1, 9)
	s.Schedule, s.AgentIters, s.EnvIters, s.Run.EvalEvery = Alternated, 2, 1, 2
	res, err := HetGPS(s, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []int
	for _, row := range res.Log {
		if !math.IsNaN(row.EvalGain) {
			got = append(got, row.Iteration)
		}
	}
	if want := []int{2, 5, 8, 9}; !reflect.DeepEqual(got, want) {
		t.Errorf("evaluated at HetGPS iterations %v, want %v", got, want)
	}
}
