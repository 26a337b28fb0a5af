package learn

import (
	"fmt"
	"math"

	"github.com/hetgain/hetgain/simulate"
)

// Policy returns the team's current policy as a simulate.Policy, for
// simulate.Rollout, recording and the environment gradients of HetGPS.
// With stochastic false an agent plays the mode of its distribution (the
// mean of the Gaussian before the squash, the most probable choice);
// otherwise it draws with the given standard normal noise: u = μ + σz for
// continuous actions, and for discrete ones the choice whose cumulative
// probability holds Φ(z_0). The policy reads the team's parameters when
// it acts (it follows later training) and is not safe for concurrent use.
// Act and ActTangent panic with a "learn: " message for an agent outside
// the team and for an observation, noise (when stochastic), action or
// tangent of a length that does not fit the team: programmer errors that
// the policy's Validate, which simulate's rollouts call, rules out.
func (t *Team) Policy(stochastic bool) simulate.Policy {
	return &teamPolicy{t: t, stochastic: stochastic}
}

type teamPolicy struct {
	t          *Team
	stochastic bool
	in, out    []float64
	scratch    []float64
	dIn, dOut  []float64
}

// Validate checks the environment's sizes against the team's.
func (p *teamPolicy) Validate(agents, obsDim, actDim int) error {
	t := p.t
	if agents != t.n || obsDim != t.obsDim || actDim != t.space.Width() {
		return fmt.Errorf("learn: policy for %d agents, observation %d, action %d used with %d, %d, %d: %w",
			t.n, t.obsDim, t.space.Width(), agents, obsDim, actDim, ErrConfig)
	}
	return nil
}

// prepare checks the arguments of Act and ActTangent, panicking if they
// do not fit the team, and writes agent's actor input for obs.
func (p *teamPolicy) prepare(agent int, obs, noise, act []float64) *mlp {
	t := p.t
	if agent < 0 || agent >= t.n {
		panic(fmt.Sprintf("learn: policy of a team of %d agents asked to act for agent %d", t.n, agent))
	}
	if len(obs) != t.obsDim {
		panic(fmt.Sprintf("learn: policy given an observation of %d values, want %d", len(obs), t.obsDim))
	}
	if w := t.space.Width(); len(act) != w || p.stochastic && len(noise) < w {
		panic(fmt.Sprintf("learn: policy given an action of %d values and %d noise values, want %d and (stochastic) at least %d",
			len(act), len(noise), w, w))
	}
	if len(p.in) != t.inDim {
		p.in, p.out = make([]float64, t.inDim), make([]float64, t.outDim)
	}
	t.actorInput(p.in, obs, agent)
	return t.actors[t.actorFor(agent)]
}

// Act writes agent's action for obs and noise.
func (p *teamPolicy) Act(agent int, obs, noise, act []float64) {
	m := p.prepare(agent, obs, noise, act)
	if len(p.scratch) < m.scratchLen() {
		p.scratch = make([]float64, m.scratchLen())
	}
	m.forward1(p.in, p.out, p.scratch)
	p.finish(agent, noise, act)
}

// finish turns the actor's output p.out into the action.
func (p *teamPolicy) finish(agent int, noise, act []float64) {
	t := p.t
	if t.space.Discrete {
		c := argmax(p.out)
		if p.stochastic {
			c = sampleCategorical(p.out, normalCDF(noise[0]))
		}
		act[0] = float64(c)
		return
	}
	for c := range act {
		act[c] = t.squash(c, p.pre(agent, c, noise))
	}
}

// pre returns the pre-squash value of coordinate c.
func (p *teamPolicy) pre(agent, c int, noise []float64) float64 {
	u := p.out[c]
	if p.stochastic {
		u += math.Exp(clampLogStd(p.t.logStd[p.t.actorFor(agent)][c])) * noise[c]
	}
	return u
}

// ActTangent writes the action and its tangents for the observation
// tangents dObs (flat [K][ObsDim]); discrete actions have zero tangents.
func (p *teamPolicy) ActTangent(agent int, obs, dObs, noise, act, dAct []float64) {
	t := p.t
	m := p.prepare(agent, obs, noise, act)
	k := len(dObs) / t.obsDim
	if len(dObs) != k*t.obsDim || len(dAct) != k*t.space.Width() {
		panic(fmt.Sprintf("learn: policy given %d observation tangent values and %d action tangent values for observations of %d and actions of %d",
			len(dObs), len(dAct), t.obsDim, t.space.Width()))
	}
	if len(p.dIn) != k*t.inDim {
		p.dIn, p.dOut = make([]float64, k*t.inDim), make([]float64, k*t.outDim)
	}
	for j := 0; j < k; j++ {
		copy(p.dIn[j*t.inDim:j*t.inDim+t.obsDim], dObs[j*t.obsDim:(j+1)*t.obsDim])
	}
	m.tangent(p.in, p.dIn, k, p.out, p.dOut)
	p.finish(agent, noise, act)
	w := t.space.Width()
	for j := 0; j < k; j++ {
		for c := 0; c < w; c++ {
			d := 0.0
			if !t.space.Discrete {
				d = t.squashSlope(c, p.pre(agent, c, noise)) * p.dOut[j*t.outDim+c]
			}
			dAct[j*w+c] = d
		}
	}
}

// normalCDF is Φ, clamped below 1 so that it can index a categorical.
func normalCDF(z float64) float64 {
	return math.Min(0.5*math.Erfc(-z/math.Sqrt2), math.Nextafter(1, 0))
}

// Evaluate plays episodes episodes (one batch) from seed with the team's
// deterministic policy (the mode of each agent's distribution) and
// returns their mean undiscounted return.
func (t *Team) Evaluate(episodes int, seed int64) (float64, error) {
	p, err := t.evaluate(episodes, seed)
	if err != nil {
		return 0, err
	}
	return p.Return, nil
}

// evaluate is Evaluate returning the effort profile of the episodes
// (simulate.Profile; its Return is Evaluate's). It plays them in the
// team's evaluation environment, which it keeps between calls.
func (t *Team) evaluate(episodes int, seed int64) (*simulate.EffortProfile, error) {
	if episodes < 1 {
		return nil, fmt.Errorf("learn: evaluate %d episodes, want >= 1: %w", episodes, ErrConfig)
	}
	if t.upd.evalEnv == nil || t.upd.evalEnv.Batch() != episodes {
		env, err := t.upd.newEnv.make(episodes)
		if err != nil {
			return nil, err
		}
		if err := env.SetParams(t.EnvParams()); err != nil {
			return nil, err
		}
		t.upd.evalEnv = env
	}
	return simulate.Profile(t.upd.evalEnv, t.Policy(false), seed)
}

// Profile plays episodes episodes (one batch) from seed with the team's
// deterministic policy, in a new environment with the team's parameters
// and then params set (params may be empty), and returns the profile of
// the efforts its agents produced (simulate.Profile): which agent worked
// on which task. It leaves the team unchanged.
func (t *Team) Profile(params simulate.Params, episodes int, seed int64) (*simulate.EffortProfile, error) {
	if episodes < 1 {
		return nil, fmt.Errorf("learn: profile %d episodes, want >= 1: %w", episodes, ErrConfig)
	}
	env, err := t.upd.newEnv.make(episodes)
	if err != nil {
		return nil, err
	}
	if err := env.SetParams(t.EnvParams()); err != nil {
		return nil, err
	}
	if err := env.SetParams(params); err != nil {
		return nil, err
	}
	return simulate.Profile(env, t.Policy(false), seed)
}
