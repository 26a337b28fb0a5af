package learn

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"testing"

	"github.com/hetgain/hetgain/simulate"
)

// Team policies are simulate policies with a validator.
var (
	_ simulate.Policy          = (&Team{}).Policy(false)
	_ simulate.PolicyValidator = (&Team{}).Policy(true).(simulate.PolicyValidator)
)

// randomisedTeam returns a team whose actors have random parameters of
// scale 0.5 (instead of an almost flat initial output layer).
func randomisedTeam(t *testing.T, mk EnvMaker, cfg Config, seed int64) *Team {
	tm := mustTeam(t, mk, cfg)
	r := newRNG(seed, 99)
	asz := refLayerSizes(tm, false)
	np := refNumParams(asz)
	per := len(tm.actorParams) / len(tm.actors)
	for k := range tm.actorParams {
		if k%per < np {
			tm.actorParams[k] += 0.5 * r.normal()
		} else {
			tm.actorParams[k] = -1 + 0.3*r.normal() // log standard deviations
		}
	}
	return tm
}

// refAct is the action of agent i for obs and noise from the team's
// parameters: the squashed Gaussian mean (plus σ·noise if stochastic), or
// the most probable choice (the inverse-CDF choice at Φ(noise[0])).
func refAct(tm *Team, i int, obs, noise []float64, stochastic bool) []float64 {
	cfg := tm.Config()
	asz := refLayerSizes(tm, false)
	np := refNumParams(asz)
	sp := tm.space
	per := np
	if !sp.Discrete {
		per += sp.Dim
	}
	a := i
	if cfg.Kind == Homogeneous {
		a = 0
	}
	p := tm.actorParams[a*per : (a+1)*per]
	x := append([]float64(nil), obs...)
	if cfg.AgentIndex {
		for k := 0; k < tm.n; k++ {
			v := 0.0
			if k == i {
				v = 1
			}
			x = append(x, v)
		}
	}
	y := refForward(asz, p[:np], x)
	if sp.Discrete {
		if !stochastic {
			best := 0
			for k := range y {
				if y[k] > y[best] {
					best = k
				}
			}
			return []float64{float64(best)}
		}
		u := 0.5 * math.Erfc(-noise[0]/math.Sqrt2)
		z := 0.0
		for _, v := range y {
			z += math.Exp(v)
		}
		acc := 0.0
		for k, v := range y {
			acc += math.Exp(v) / z
			if u < acc {
				return []float64{float64(k)}
			}
		}
		return []float64{float64(len(y) - 1)}
	}
	act := make([]float64, sp.Dim)
	for d := range act {
		u := y[d]
		if stochastic {
			u += math.Exp(p[np+d]) * noise[d]
		}
		lo, hi := -1.0, 1.0
		if len(sp.Low) > d {
			lo, hi = sp.Low[d], sp.High[d]
		}
		act[d] = lo + (hi-lo)*(math.Tanh(u)+1)/2
	}
	return act
}

type policyCase struct {
	name string
	mk   EnvMaker
	cfg  Config
}

func policyCases() []policyCase {
	var cs []policyCase
	for _, e := range []struct {
		name string
		mk   EnvMaker
	}{
		{"capture", captureMaker(3, 2, 5)},
		{"matrix-cont", matrixMaker(2, 3, false, "min", "max")},
		{"matrix-disc", matrixMaker(2, 4, true, "min", "mean")},
	} {
		for _, kind := range []TeamKind{Heterogeneous, Homogeneous} {
			for _, index := range []bool{false, true} {
				cs = append(cs, policyCase{fmt.Sprintf("%s/%v/index=%v", e.name, kind, index), e.mk,
					Config{Kind: kind, AgentIndex: index, Hidden: []int{7, 5}, Envs: 2}})
			}
		}
	}
	return cs
}

func TestPolicyAct(t *testing.T) {
	for _, c := range policyCases() {
		tm := randomisedTeam(t, c.mk, c.cfg, 4)
		env, _ := c.mk(1)
		od, w := env.ObsDim(), env.ActionSpace().Width()
		r := newRNG(1, 5)
		for _, stochastic := range []bool{false, true} {
			pol := tm.Policy(stochastic)
			distinct := map[string]bool{}
			for trial := 0; trial < 50; trial++ {
				obs := make([]float64, od)
				for k := range obs {
					obs[k] = r.normal()
				}
				noise := make([]float64, w)
				for k := range noise {
					noise[k] = 1.5 * r.normal()
				}
				for i := 0; i < tm.n; i++ {
					act := make([]float64, w)
					pol.Act(i, obs, noise, act)
					want := refAct(tm, i, obs, noise, stochastic)
					for d := range act {
						if math.Abs(act[d]-want[d]) > 1e-12 {
							t.Fatalf("%s stochastic=%v agent %d: action %v, want %v", c.name, stochastic, i, act, want)
						}
					}
					distinct[fmt.Sprint(act)] = true
				}
			}
			if len(distinct) < 2 {
				t.Errorf("%s stochastic=%v: every action is the same; the check is vacuous", c.name, stochastic)
			}
		}
	}
}

// TestPolicyDiscreteBoundaries puts Φ(noise) just below and just above
// each cumulative probability of a discrete stochastic policy.
func TestPolicyDiscreteBoundaries(t *testing.T) {
	for _, kind := range []TeamKind{Heterogeneous, Homogeneous} {
		tm := randomisedTeam(t, matrixMaker(2, 4, true, "min", "mean"), Config{Kind: kind, AgentIndex: true, Hidden: []int{3}, Envs: 1}, 8)
		pol := tm.Policy(true)
		for i := 0; i < 2; i++ {
			// the probabilities of agent i's choices, from the
			// deterministic choice's network: softmax of the logits
			asz := refLayerSizes(tm, false)
			np := refNumParams(asz)
			a := i
			if kind == Homogeneous {
				a = 0
			}
			x := []float64{0, 0, 0}
			x[1+i] = 1
			y := refForward(asz, tm.actorParams[a*np:(a+1)*np], x)
			p := make([]float64, len(y))
			softmaxInto(p, y)
			cum := 0.0
			for k := 0; k < len(p)-1; k++ {
				cum += p[k]
				for _, c := range []struct {
					u    float64
					want int
				}{{cum * (1 - 1e-9), k}, {cum * (1 + 1e-9), k + 1}} {
					z := math.Sqrt2 * math.Erfinv(2*c.u-1)
					act := []float64{-1}
					pol.Act(i, []float64{0}, []float64{z}, act)
					if int(act[0]) != c.want {
						t.Errorf("%v agent %d: Φ(z) = %v (boundary %v): choice %v, want %d", kind, i, c.u, cum, act[0], c.want)
					}
				}
			}
		}
	}
}

// TestPolicyFollowsTraining checks that a policy reads the team's current
// parameters.
func TestPolicyFollowsTraining(t *testing.T) {
	tm := randomisedTeam(t, captureMaker(2, 2, 5), Config{Hidden: []int{4}, Envs: 2}, 1)
	pol := tm.Policy(false)
	obs := []float64{0.1, 0.2, -0.3, 0.4, 0.5, -0.6, 0.7, 0.8}
	before := make([]float64, 2)
	pol.Act(0, obs, []float64{0, 0}, before)
	for k := range tm.actorParams {
		tm.actorParams[k] *= 1.5
	}
	after := make([]float64, 2)
	pol.Act(0, obs, []float64{0, 0}, after)
	want := refAct(tm, 0, obs, nil, false)
	if after[0] != want[0] || after[1] != want[1] || (after[0] == before[0] && after[1] == before[1]) {
		t.Errorf("after changing the parameters: %v (before %v), want %v", after, before, want)
	}
}

// TestPolicyBox checks that actions stay in the action box for extreme
// observations and noise.
func TestPolicyBox(t *testing.T) {
	for _, c := range policyCases() {
		tm := randomisedTeam(t, c.mk, c.cfg, 2)
		env, _ := c.mk(1)
		sp := env.ActionSpace()
		od, w := env.ObsDim(), sp.Width()
		r := newRNG(7, 7)
		for _, stochastic := range []bool{false, true} {
			pol := tm.Policy(stochastic)
			for trial := 0; trial < 200; trial++ {
				scale := math.Pow(10, float64(trial%8))
				obs := make([]float64, od)
				for k := range obs {
					obs[k] = scale * r.normal()
				}
				noise := make([]float64, w)
				for k := range noise {
					noise[k] = scale * r.normal()
				}
				if trial == 0 {
					noise[0] = 40 // Φ rounds to 1
				}
				for i := 0; i < tm.n; i++ {
					act := make([]float64, w)
					pol.Act(i, obs, noise, act)
					for d, a := range act {
						if sp.Discrete && (a != math.Trunc(a) || a < 0 || a >= float64(sp.Choices)) ||
							!sp.Discrete && !(a >= sp.Low[d] && a <= sp.High[d]) {
							t.Fatalf("%s: action %v outside %v for obs scale %g", c.name, act, sp, scale)
						}
					}
				}
			}
		}
	}
}

// TestPolicyTangent checks ActTangent's action against Act and its
// tangents against central finite differences of Act along the tangent
// directions of the observation (zero for discrete actions).
func TestPolicyTangent(t *testing.T) {
	for _, c := range policyCases() {
		tm := randomisedTeam(t, c.mk, c.cfg, 3)
		env, _ := c.mk(1)
		od, w := env.ObsDim(), env.ActionSpace().Width()
		disc := env.ActionSpace().Discrete
		r := newRNG(3, 3)
		for _, stochastic := range []bool{false, true} {
			pol := tm.Policy(stochastic)
			for trial := 0; trial < 10; trial++ {
				K := 1 + trial%3
				obs := make([]float64, od)
				for k := range obs {
					obs[k] = r.normal()
				}
				dObs := make([]float64, K*od)
				for k := range dObs {
					dObs[k] = r.normal()
				}
				noise := make([]float64, w)
				for k := range noise {
					noise[k] = r.normal()
				}
				for i := 0; i < tm.n; i++ {
					act, dAct := make([]float64, w), make([]float64, K*w)
					for k := range dAct {
						dAct[k] = math.NaN() // must be overwritten
					}
					pol.ActTangent(i, obs, dObs, noise, act, dAct)
					ref := make([]float64, w)
					pol.Act(i, obs, noise, ref)
					for d := range act {
						if act[d] != ref[d] {
							t.Fatalf("%s: ActTangent action %v, Act %v", c.name, act, ref)
						}
					}
					for k := 0; k < K; k++ {
						const h = 1e-6
						plus, minus := make([]float64, od), make([]float64, od)
						for q := range obs {
							plus[q] = obs[q] + h*dObs[k*od+q]
							minus[q] = obs[q] - h*dObs[k*od+q]
						}
						ap, am := make([]float64, w), make([]float64, w)
						pol.Act(i, plus, noise, ap)
						pol.Act(i, minus, noise, am)
						for d := 0; d < w; d++ {
							got := dAct[k*w+d]
							if disc {
								if got != 0 {
									t.Fatalf("%s: discrete tangent %v", c.name, got)
								}
								continue
							}
							want := (ap[d] - am[d]) / (2 * h)
							if math.Abs(got-want) > 1e-6*math.Max(1e-2, math.Abs(want)) {
								t.Fatalf("%s stochastic=%v agent %d tangent %d coordinate %d: %v, finite differences %v",
									c.name, stochastic, i, k, d, got, want)
							}
						}
					}
				}
			}
		}
	}
}

func TestPolicyValidate(t *testing.T) {
	tm := mustTeam(t, captureMaker(3, 2, 5), Config{Hidden: []int{3}, Envs: 2})
	v := tm.Policy(false).(simulate.PolicyValidator)
	if err := v.Validate(3, 8, 2); err != nil {
		t.Errorf("right sizes: %v", err)
	}
	for _, s := range [][3]int{{2, 8, 2}, {3, 7, 2}, {3, 8, 1}, {0, 0, 0}} {
		if err := v.Validate(s[0], s[1], s[2]); !errors.Is(err, ErrConfig) {
			t.Errorf("Validate%v = %v, want ErrConfig", s, err)
		}
	}
	// Rollout validates before playing.
	other, err := captureMaker(2, 2, 5)(1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := simulate.Rollout(other, tm.Policy(true), 1, nil); !errors.Is(err, ErrConfig) {
		t.Errorf("Rollout with 2 agents for a team of 3: %v, want ErrConfig", err)
	}
}

// TestPolicyActPanics checks that Act and ActTangent panic with a
// "learn: " message for an agent outside the team and for slices of the
// wrong lengths, instead of an index out of range or an action computed
// from a zero-padded observation.
func TestPolicyActPanics(t *testing.T) {
	for _, tm := range []*Team{
		mustTeam(t, matrixMaker(2, 2, false, "min", "max"), Config{Hidden: []int{3}, Envs: 2}),
		mustTeam(t, matrixMaker(2, 2, true, "min", "max"), Config{Hidden: []int{3}, Envs: 2, Kind: Homogeneous, AgentIndex: true}),
		mustTeam(t, captureMaker(3, 2, 5), Config{Hidden: []int{3}, Envs: 2}),
	} {
		od, w := tm.obsDim, tm.space.Width()
		obs, noise, act := make([]float64, od), make([]float64, w), make([]float64, w)
		dObs, dAct := make([]float64, 2*od), make([]float64, 2*w)
		for _, stochastic := range []bool{false, true} {
			p := tm.Policy(stochastic)
			p.Act(tm.n-1, obs, noise, act) // fits
			p.ActTangent(0, obs, dObs, noise, act, dAct)
			name := fmt.Sprintf("%s %v stochastic %v", tm.space, tm.cfg.Kind, stochastic)
			nnMustPanic(t, name+": agent N", func() { p.Act(tm.n, obs, noise, act) })
			nnMustPanic(t, name+": agent 5", func() { p.Act(5, obs, noise, act) })
			nnMustPanic(t, name+": agent -1", func() { p.Act(-1, obs, noise, act) })
			nnMustPanic(t, name+": nil observation", func() { p.Act(0, nil, noise, act) })
			nnMustPanic(t, name+": long observation", func() { p.Act(0, make([]float64, od+1), noise, act) })
			nnMustPanic(t, name+": short action", func() { p.Act(0, obs, noise, act[:w-1]) })
			nnMustPanic(t, name+": long action", func() { p.Act(0, obs, noise, make([]float64, w+1)) })
			nnMustPanic(t, name+": tangent agent", func() { p.ActTangent(tm.n, obs, dObs, noise, act, dAct) })
			nnMustPanic(t, name+": tangent observation", func() { p.ActTangent(0, nil, dObs, noise, act, dAct) })
			nnMustPanic(t, name+": observation tangents", func() { p.ActTangent(0, obs, dObs[:2*od-1], noise, act, dAct) })
			nnMustPanic(t, name+": action tangents", func() { p.ActTangent(0, obs, dObs, noise, act, dAct[:w]) })
		}
		tm.Policy(false).Act(0, obs, nil, act) // a deterministic policy needs no noise
		nnMustPanic(t, fmt.Sprintf("%s: stochastic without noise", tm.space), func() { tm.Policy(true).Act(0, obs, nil, act) })
	}
}

// TestPolicyReturnGradient checks simulate.ReturnGradient with team
// policies on a small Capture against central finite differences of the
// returns of simulate.Rollout (same seed, so the same spawns and noise)
// in "drag" and "force", which act on the policy through the
// observations.
func TestPolicyReturnGradient(t *testing.T) {
	mk := captureMaker(2, 2, 8)
	params := []string{"drag", "force"}
	for _, c := range []Config{
		{Kind: Heterogeneous, Hidden: []int{8, 8}, Envs: 2},
		{Kind: Homogeneous, AgentIndex: true, Hidden: []int{8}, Envs: 2},
	} {
		tm := randomisedTeam(t, mk, c, 6)
		for _, stochastic := range []bool{false, true} {
			pol := tm.Policy(stochastic)
			envI, err := mk(3)
			if err != nil {
				t.Fatal(err)
			}
			env := envI.(simulate.DifferentiableEnv)
			const seed = 17
			ret, grad, err := simulate.ReturnGradient(env, pol, seed, params)
			if err != nil {
				t.Fatal(err)
			}
			base, err := simulate.Rollout(env, pol, seed, nil)
			if err != nil {
				t.Fatal(err)
			}
			for b := range ret {
				if math.Abs(ret[b]-base[b]) > 1e-12 {
					t.Fatalf("element %d: ReturnGradient return %v, Rollout %v", b, ret[b], base[b])
				}
			}
			p0 := env.Params()
			for k, name := range params {
				v0, _ := p0.Get(name)
				at := func(v float64) []float64 {
					p := p0.Clone()
					if err := p.Set(name, v); err != nil {
						t.Fatal(err)
					}
					if err := env.SetParams(p); err != nil {
						t.Fatal(err)
					}
					r, err := simulate.Rollout(env, pol, seed, nil)
					if err != nil {
						t.Fatal(err)
					}
					return r
				}
				const h = 1e-6
				rp, rm := at(v0+h), at(v0-h)
				if err := env.SetParams(p0); err != nil {
					t.Fatal(err)
				}
				for b := range ret {
					fd := (rp[b] - rm[b]) / (2 * h)
					if fd == 0 {
						t.Fatalf("%s: zero finite difference; the check is vacuous", name)
					}
					if math.Abs(grad[b][k]-fd) > 1e-5*math.Abs(fd) {
						t.Errorf("%v stochastic=%v element %d d/d%s: %v, finite differences %v",
							c.Kind, stochastic, b, name, grad[b][k], fd)
					}
				}
			}
		}
	}
}

func TestEvaluate(t *testing.T) {
	tm := randomisedTeam(t, captureMaker(2, 2, 6), Config{Hidden: []int{5}, Envs: 2}, 9)
	for _, n := range []int{0, -3} {
		if _, err := tm.Evaluate(n, 1); !errors.Is(err, ErrConfig) {
			t.Errorf("Evaluate(%d): %v, want ErrConfig", n, err)
		}
	}
	for _, episodes := range []int{4, 7, 4} {
		got, err := tm.Evaluate(episodes, 33)
		if err != nil {
			t.Fatal(err)
		}
		env, _ := captureMaker(2, 2, 6)(episodes)
		ret, err := simulate.Rollout(env, tm.Policy(false), 33, nil)
		if err != nil {
			t.Fatal(err)
		}
		if want := mean(ret); got != want {
			t.Errorf("Evaluate(%d) = %v, want the mean deterministic return %v", episodes, got, want)
		}
	}
	// Evaluation uses the team's environment parameters.
	p := tm.EnvParams()
	if err := p.Set("drag", 0.9); err != nil {
		t.Fatal(err)
	}
	if err := tm.SetEnvParams(p); err != nil {
		t.Fatal(err)
	}
	tm.upd.evalEnv = nil // also when the evaluation environment is made afterwards
	for k := 0; k < 2; k++ {
		got, err := tm.Evaluate(5, 2)
		if err != nil {
			t.Fatal(err)
		}
		env, _ := captureMaker(2, 2, 6)(5)
		if err := env.SetParams(p); err != nil {
			t.Fatal(err)
		}
		ret, _ := simulate.Rollout(env, tm.Policy(false), 2, nil)
		if want := mean(ret); got != want {
			t.Errorf("Evaluate with drag 0.9: %v, want %v", got, want)
		}
	}
}

// Team.Profile plays the team's deterministic policy under its own
// parameters with the given ones set on top, as simulate.Profile would.
func TestTeamProfile(t *testing.T) {
	tm := randomisedTeam(t, captureMaker(2, 2, 6), Config{Hidden: []int{5}, Envs: 2}, 9)
	if _, err := tm.Profile(simulate.Params{}, 0, 1); !errors.Is(err, ErrConfig) {
		t.Errorf("Profile of 0 episodes: %v, want ErrConfig", err)
	}
	own := tm.EnvParams()
	if err := own.Set("drag", 0.9); err != nil {
		t.Fatal(err)
	}
	if err := tm.SetEnvParams(own); err != nil {
		t.Fatal(err)
	}
	extra := simulate.Params{Names: []string{"force"}, Values: []float64{0.5}}
	got, err := tm.Profile(extra, 6, 3)
	if err != nil {
		t.Fatal(err)
	}
	env, _ := captureMaker(2, 2, 6)(6)
	if err := env.SetParams(simulate.Params{Names: []string{"drag", "force"}, Values: []float64{0.9, 0.5}}); err != nil {
		t.Fatal(err)
	}
	want, err := simulate.Profile(env, tm.Policy(false), 3)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Profile = %v, want %v", got, want)
	}
	// Without the extra parameters the episodes differ.
	plain, err := tm.Profile(simulate.Params{}, 6, 3)
	if err != nil {
		t.Fatal(err)
	}
	if plain.Return == got.Return {
		t.Errorf("Profile with force 0.5 returned %v as without it", got.Return)
	}
	if ev, err := tm.Evaluate(6, 3); err != nil || math.Abs(plain.Return-ev) > 1e-12 {
		t.Errorf("Profile's return %v, Evaluate's %v (%v)", plain.Return, ev, err)
	}
	if p := tm.EnvParams(); p.Values[p.Index("force")] == 0.5 {
		t.Error("Profile changed the team's own parameters")
	}
	bad := simulate.Params{Names: []string{"no such"}, Values: []float64{1}}
	if _, err := tm.Profile(bad, 2, 1); !errors.Is(err, simulate.ErrParam) {
		t.Errorf("Profile with an unknown parameter: %v, want simulate.ErrParam", err)
	}
}
