package simulate

import (
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/hetgain/hetgain/aggregators"
)

// fuzzEnv builds one of the package's environments, picked by kind, with
// a batch of 2 and a parametric reward where the environment takes one, so
// that every kind of parameter (aggregator exponents and temperatures,
// physics, goal positions, sensor range, Blotto fields) can be fuzzed.
func fuzzEnv(t *testing.T, kind uint8) Env {
	t.Helper()
	soft := reward(t, "softmax(-1)", "softmax(2)")
	power := reward(t, "powersum(0.5)", "powersum(2)")
	var (
		env Env
		err error
	)
	switch kind % 10 {
	case 0:
		env, err = NewMatrixGame(2, 2, 3, false, soft)
	case 1:
		env, err = NewMatrixGame(2, 3, 2, true, power)
	case 2:
		env, err = NewCapture(CaptureConfig{Batch: 2, Reward: soft, EpisodeLength: 20})
	case 3:
		env, err = NewCapture(CaptureConfig{Batch: 2, Reward: power, EpisodeLength: 20, Sensor: true, Collisions: true})
	case 4:
		env, err = NewCapture(CaptureConfig{Batch: 2, Reward: soft, EpisodeLength: 20, FixedGoals: []float64{1.1, 0.5, 1.1, -0.5}})
	case 5:
		env, err = NewTag(TagConfig{Batch: 2, Reward: soft, EpisodeLength: 20})
	case 6:
		env, err = NewTag(TagConfig{Batch: 2, Reward: power, EpisodeLength: 20, NoObstacles: true, PerStep: true})
	case 7:
		env, err = NewBlotto(2, 2, 3, blottoFuzzFields)
	case 8:
		env, err = NewTagVMAS(TagVMASConfig{Batch: 2, Reward: soft, EpisodeLength: 20})
	default:
		env, err = NewForaging(ForagingConfig{Batch: 2, Agents: 2, Width: 4, Height: 4, Levels: []int{1, 2}, EpisodeLength: 20})
	}
	if err != nil {
		t.Fatalf("kind %d: %v", kind%10, err)
	}
	return env
}

var blottoFuzzFields = []aggregators.BlottoField{
	{V: 1, Troops: []float64{0.5, 1.5}, Probs: []float64{0.25, 0.75}},
	{V: 2, Troops: []float64{1}, Probs: []float64{1}},
}

// FuzzSetParams: any two parameter values either are refused with an error
// wrapping ErrParam that leaves θ as it was (and says "simulate:" once), or are taken as given, and
// then an episode of random actions has finite observations, finite
// rewards and finite non-negative efforts, and the return's gradient with
// respect to θ is finite or an error, never NaN.
func FuzzSetParams(f *testing.F) {
	f.Add(uint8(0), uint8(0), -3.0, uint8(1), 40.0, int64(1))
	f.Add(uint8(1), uint8(0), 0.3, uint8(1), 6.0, int64(2))
	f.Add(uint8(2), uint8(2), 0.0, uint8(3), 1e6, int64(3))
	f.Add(uint8(3), uint8(4), 1e300, uint8(0), 1e-300, int64(4))
	f.Add(uint8(4), uint8(4), 1.4, uint8(5), -1.2, int64(5))
	f.Add(uint8(5), uint8(3), 1e6, uint8(6), 1e6, int64(6))
	f.Add(uint8(6), uint8(9), -1.0, uint8(8), math.Inf(1), int64(7))
	f.Add(uint8(7), uint8(0), 5.0, uint8(2), 0.0, int64(8))
	f.Add(uint8(8), uint8(0), 2.0, uint8(1), 0.5, int64(9))
	f.Add(uint8(5), uint8(8), 1e308, uint8(9), 1e308, int64(10)) // Tag's shaping and penalty
	f.Add(uint8(7), uint8(0), 1e308, uint8(1), 1e308, int64(11)) // Blotto's values
	f.Add(uint8(3), uint8(5), 1e308, uint8(0), 1.0, int64(12))   // Capture's sensor range
	f.Add(uint8(8), uint8(4), 1e6, uint8(1), 1e6, int64(13))     // TagVMAS's escaper speed and drag
	f.Add(uint8(9), uint8(0), 2.0, uint8(1), 0.5, int64(14))     // Foraging's levels
	f.Fuzz(func(t *testing.T, kind, i uint8, v float64, k uint8, w float64, seed int64) {
		env := fuzzEnv(t, kind)
		before := env.Params()
		if len(before.Names) == 0 {
			return
		}
		n := len(before.Names)
		p := Params{Names: []string{before.Names[int(i)%n]}, Values: []float64{v}}
		if name := before.Names[int(k)%n]; name != p.Names[0] {
			p.Names, p.Values = append(p.Names, name), append(p.Values, w)
		}
		if err := env.SetParams(p); err != nil {
			if !errors.Is(err, ErrParam) {
				t.Fatalf("%s.SetParams(%v) = %v, not ErrParam", env.Name(), p, err)
			}
			if strings.Count(err.Error(), "simulate:") != 1 {
				t.Fatalf("%s.SetParams(%v): message %q should name the package once", env.Name(), p, err)
			}
			if after := env.Params(); !reflect.DeepEqual(after, before) {
				t.Fatalf("%s.SetParams(%v) failed (%v) and changed θ from %v to %v", env.Name(), p, err, before, after)
			}
			return
		}
		after := env.Params()
		for a, name := range p.Names {
			if got, _ := after.Get(name); got != p.Values[a] {
				t.Fatalf("%s: set %s = %v, read back %v", env.Name(), name, p.Values[a], got)
			}
		}
		playFinite(t, env, seed)
		if d, ok := env.(DifferentiableEnv); ok && !env.ActionSpace().Discrete {
			pol := NewLinearTanh(env.Agents(), env.ObsDim(), env.ActionSpace().Dim, 0.5, 0.3, 1, seed)
			ret, grad, err := d.ReturnGradient(pol, seed, p.Names)
			if err != nil {
				return
			}
			for b := range ret {
				checkFinite(t, env.Name()+" return", ret[b:b+1])
				checkFinite(t, env.Name()+" gradient", grad[b])
			}
		}
	})
}

// playFinite plays one episode of uniform random actions (indices for a
// discrete space, a box wider than the action box for a continuous one, so
// that clamping happens too) and fails on a non-finite observation,
// reward or effort, or a negative effort.
func playFinite(t *testing.T, env Env, seed int64) {
	t.Helper()
	if err := env.Reset(seed); err != nil {
		t.Fatalf("%s: Reset: %v", env.Name(), err)
	}
	checkFinite(t, env.Name()+" observation after Reset", env.Obs())
	sp := env.ActionSpace()
	width := env.Batch() * env.Agents() * sp.Width()
	r := newRNG(seed, 1, 9)
	act := make([]float64, width)
	for step := 0; step < env.EpisodeLength(); step++ {
		for a := range act {
			if sp.Discrete {
				act[a] = math.Floor(r.uniform(0, float64(sp.Choices)))
			} else {
				act[a] = r.uniform(-2, 2)
			}
		}
		if err := env.Step(act); err != nil {
			t.Fatalf("%s: Step %d: %v", env.Name(), step, err)
		}
		checkFinite(t, env.Name()+" observation", env.Obs())
		checkFinite(t, env.Name()+" reward", env.Reward())
		checkFinite(t, env.Name()+" effort", env.Effort())
		for _, e := range env.Effort() {
			if e < 0 {
				t.Fatalf("%s: step %d: negative effort %v", env.Name(), step, e)
			}
		}
	}
}

func checkFinite(t *testing.T, what string, x []float64) {
	t.Helper()
	for k, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			t.Fatalf("%s [%d] = %v", what, k, v)
		}
	}
}

// FuzzRelativeGain checks TeamReturns.RelativeGain for any finite
// returns and gradients: the relative gain is finite, in [−2, 2] and of
// the sign of Het − Hom; where both returns are 0 it and its gradient
// are 0; and multiplying the returns and gradients by 4 (exact in
// floating point away from overflow and subnormals) changes neither it
// nor its gradient, which the reward's scale cannot inflate.
func FuzzRelativeGain(f *testing.F) {
	f.Add(3.0, -1.0, 1.0, -2.0)
	f.Add(5.0, 3.0, 1.0, 0.5)
	f.Add(0.0, 0.0, 1.0, 2.0)
	f.Add(0.0, 2.0, 1.0, 1.0)
	f.Add(1e308, -1e308, 1e308, -1e308)
	f.Add(5e-324, 0.0, 1.0, 0.0)
	f.Fuzz(func(t *testing.T, het, hom, dHet, dHom float64) {
		for _, v := range []float64{het, hom, dHet, dHom} {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return // returns and gradients are finite (ReturnGradient refuses others)
			}
		}
		tr := TeamReturns{Het: het, Hom: hom, HetGrad: []float64{dHet}, HomGrad: []float64{dHom}}
		rel, grad := tr.RelativeGain()
		if math.IsNaN(rel) || math.Abs(rel) > 2 || het > hom && rel < 0 || het < hom && rel > 0 {
			t.Fatalf("%+v: relative gain %v, want finite, in [-2, 2], of the sign of Het − Hom", tr, rel)
		}
		if het == 0 && hom == 0 && (rel != 0 || grad[0] != 0) {
			t.Fatalf("%+v: %v, %v; want 0 and a zero gradient", tr, rel, grad)
		}
		normal := func(v float64) bool { return v == 0 || math.Abs(v) > 1e-290 && math.Abs(v) < 1e290 }
		if !normal(het) || !normal(hom) || !normal(dHet) || !normal(dHom) || math.IsNaN(grad[0]) || math.IsInf(grad[0], 0) {
			return
		}
		scaled := TeamReturns{Het: 4 * het, Hom: 4 * hom, HetGrad: []float64{4 * dHet}, HomGrad: []float64{4 * dHom}}
		if rs, gs := scaled.RelativeGain(); rs != rel || gs[0] != grad[0] {
			t.Fatalf("%+v: %v, %v; scaled by 4: %v, %v", tr, rel, grad, rs, gs)
		}
	})
}

// FuzzSpecialists checks EffortProfile.Specialists on 2 x 2 profiles of any
// efforts (NaN and negatives among them) against its definition read
// literally, and that it never panics for a ratio above 1.
func FuzzSpecialists(f *testing.F) {
	f.Add(0.4, 0.1, 0.05, 0.3, 2.0)
	f.Add(0.4, 0.2, 0.1, 0.2, 2.0)
	f.Add(0.0, 0.0, 1.0, 0.0, 1.5)
	f.Add(math.NaN(), 0.1, 0.2, 0.5, 2.0)
	f.Fuzz(func(t *testing.T, a, b, c, d, ratio float64) {
		if !(ratio > 1) || math.IsInf(ratio, 1) {
			return
		}
		effort := []float64{a, b, c, d}
		p := &EffortProfile{Agents: 2, Tasks: 2, Effort: effort}
		got := p.Specialists(ratio)
		if want := literalSpecialists(2, 2, effort, ratio); !reflect.DeepEqual(got, want) {
			t.Errorf("efforts %v, ratio %v: Specialists = %v, want %v", effort, ratio, got, want)
		}
	})
}
