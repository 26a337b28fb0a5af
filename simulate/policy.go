package simulate

import (
	"fmt"
	"math"
)

// Policy is a reparameterised policy: an agent's action is a deterministic
// function of its observation and of a noise vector of standard normal
// values (one per action value), so that holding the noise fixed makes the
// return a deterministic, differentiable function of the environment's
// parameters.
//
// The environments of this package clamp continuous actions into their
// action box; a discrete action must be an integer index (as a float64).
type Policy interface {
	// Act writes the action of agent (len(act) = ActDim values) for the
	// observation obs and the noise.
	Act(agent int, obs, noise, act []float64)
	// ActTangent does what Act does and also propagates K tangents of the
	// observation: dObs is flat [K][ObsDim], and it writes the flat
	// [K][ActDim] tangents of the action, ∂act/∂obs · dObs, into dAct.
	ActTangent(agent int, obs, dObs, noise, act, dAct []float64)
}

// PolicyValidator is implemented by policies that can check, before a
// rollout, that they fit an environment's sizes.
type PolicyValidator interface {
	Validate(agents, obsDim, actDim int) error
}

// ConstantPolicy plays fixed actions whatever it observes: Actions[i] is
// agent i's action, or Actions[0] for every agent if there is one entry.
type ConstantPolicy struct {
	Actions [][]float64
}

func (p ConstantPolicy) action(agent int) []float64 {
	if len(p.Actions) == 1 {
		return p.Actions[0]
	}
	return p.Actions[agent]
}

// Act copies the agent's constant action.
func (p ConstantPolicy) Act(agent int, obs, noise, act []float64) { copy(act, p.action(agent)) }

// ActTangent copies the action; its tangents are 0.
func (p ConstantPolicy) ActTangent(agent int, obs, dObs, noise, act, dAct []float64) {
	copy(act, p.action(agent))
	for k := range dAct {
		dAct[k] = 0
	}
}

// Validate checks that there is one action (or one shared action) of
// actDim values per agent.
func (p ConstantPolicy) Validate(agents, obsDim, actDim int) error {
	if len(p.Actions) != 1 && len(p.Actions) != agents {
		return fmt.Errorf("simulate: ConstantPolicy has %d actions for %d agents: %w", len(p.Actions), agents, ErrConfig)
	}
	for i, a := range p.Actions {
		if len(a) != actDim {
			return fmt.Errorf("simulate: ConstantPolicy action %d has %d values, want %d: %w", i, len(a), actDim, ErrConfig)
		}
	}
	return nil
}

// LinearTanh is the policy act = Scale · tanh(W obs + B + Sigma · noise),
// coordinate-wise. W[i] is agent i's flat [ActDim][ObsDim] weight matrix
// and B[i] its [ActDim] bias; a single entry is shared by every agent (a
// homogeneous team). Scale 0 means 1.
type LinearTanh struct {
	W, B  [][]float64
	Sigma float64
	Scale float64
}

func (p LinearTanh) params(agent int) (w, b []float64, scale float64) {
	w, b = p.W[0], p.B[0]
	if len(p.W) > 1 {
		w = p.W[agent]
	}
	if len(p.B) > 1 {
		b = p.B[agent]
	}
	scale = p.Scale
	if scale == 0 {
		scale = 1
	}
	return w, b, scale
}

// Act writes Scale · tanh(W obs + B + Sigma · noise).
func (p LinearTanh) Act(agent int, obs, noise, act []float64) {
	w, b, scale := p.params(agent)
	od := len(obs)
	for c := range act {
		z := b[c] + p.Sigma*noise[c]
		row := w[c*od : (c+1)*od]
		for o, v := range obs {
			z += row[o] * v
		}
		act[c] = scale * math.Tanh(z)
	}
}

// ActTangent writes the action and its tangents
// Scale (1 - tanh²(z)) W dObs.
func (p LinearTanh) ActTangent(agent int, obs, dObs, noise, act, dAct []float64) {
	w, b, scale := p.params(agent)
	od, ad := len(obs), len(act)
	K := 0
	if od > 0 {
		K = len(dObs) / od
	}
	for c := range act {
		z := b[c] + p.Sigma*noise[c]
		row := w[c*od : (c+1)*od]
		for o, v := range obs {
			z += row[o] * v
		}
		th := math.Tanh(z)
		act[c] = scale * th
		s := scale * (1 - th*th)
		for k := 0; k < K; k++ {
			d := 0.0
			dk := dObs[k*od : (k+1)*od]
			for o, v := range dk {
				d += row[o] * v
			}
			dAct[k*ad+c] = s * d
		}
	}
}

// Validate checks the sizes of W and B.
func (p LinearTanh) Validate(agents, obsDim, actDim int) error {
	if len(p.W) != 1 && len(p.W) != agents || len(p.B) != 1 && len(p.B) != agents {
		return fmt.Errorf("simulate: LinearTanh has %d weight matrices and %d biases for %d agents (need 1 or %d each): %w",
			len(p.W), len(p.B), agents, agents, ErrConfig)
	}
	for i, w := range p.W {
		if len(w) != actDim*obsDim {
			return fmt.Errorf("simulate: LinearTanh W[%d] has %d values, want ActDim*ObsDim = %d*%d: %w",
				i, len(w), actDim, obsDim, ErrConfig)
		}
	}
	for i, b := range p.B {
		if len(b) != actDim {
			return fmt.Errorf("simulate: LinearTanh B[%d] has %d values, want %d: %w", i, len(b), actDim, ErrConfig)
		}
	}
	return p.checkFinite()
}

// checkFinite returns an error naming the first of Sigma, Scale and the
// weights and biases that is NaN or infinite.
func (p LinearTanh) checkFinite() error {
	bad := func(v float64) bool { return math.IsNaN(v) || math.IsInf(v, 0) }
	switch {
	case bad(p.Sigma):
		return fmt.Errorf("simulate: LinearTanh Sigma = %v, want a finite number: %w", p.Sigma, ErrConfig)
	case bad(p.Scale):
		return fmt.Errorf("simulate: LinearTanh Scale = %v, want a finite number: %w", p.Scale, ErrConfig)
	}
	if err := checkFiniteRows("W", p.W); err != nil {
		return err
	}
	return checkFiniteRows("B", p.B)
}

// checkFiniteRows returns an error naming the first value of LinearTanh's
// rows name that is NaN or infinite.
func checkFiniteRows(name string, rows [][]float64) error {
	for i, row := range rows {
		for k, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("simulate: LinearTanh %s[%d][%d] = %v, want a finite number: %w", name, i, k, v, ErrConfig)
			}
		}
	}
	return nil
}

// NewLinearTanh returns a LinearTanh policy for agents agents (1 for a
// shared, homogeneous policy) with weights and biases drawn from a normal
// distribution of standard deviation std, from the seed. It panics with a
// "simulate: " message if agents is below 1, obsDim or actDim is negative,
// agents or the weights and biases, agents·actDim·(obsDim+1) values,
// exceed MaxEnvValues, std is negative, or std, sigma or scale is not
// finite.
func NewLinearTanh(agents, obsDim, actDim int, std, sigma, scale float64, seed int64) LinearTanh {
	if agents < 1 || obsDim < 0 || actDim < 0 {
		panic(fmt.Sprintf("simulate: NewLinearTanh for %d agents, observations of %d values and actions of %d (need agents >= 1, the others >= 0)",
			agents, obsDim, actDim))
	}
	if !(std >= 0) || math.IsInf(std, 1) || math.IsNaN(sigma) || math.IsInf(sigma, 0) || math.IsNaN(scale) || math.IsInf(scale, 0) {
		panic(fmt.Sprintf("simulate: NewLinearTanh with std %v, sigma %v and scale %v (need finite numbers, std >= 0)", std, sigma, scale))
	}
	if obsDim >= MaxEnvValues || actDim > MaxEnvValues/(obsDim+1) || agents > MaxEnvValues/max(1, actDim*(obsDim+1)) {
		panic(fmt.Sprintf("simulate: NewLinearTanh for %d agents, observations of %d values and actions of %d: more than MaxEnvValues = %d agents or weights and biases",
			agents, obsDim, actDim, MaxEnvValues))
	}
	r := newRNG(seed, 0, 3)
	p := LinearTanh{Sigma: sigma, Scale: scale}
	for i := 0; i < agents; i++ {
		w, b := make([]float64, actDim*obsDim), make([]float64, actDim)
		for k := range w {
			w[k] = std * r.normal()
		}
		for k := range b {
			b[k] = std * r.normal()
		}
		p.W, p.B = append(p.W, w), append(p.B, b)
	}
	return p
}

// UniformDiscrete picks one of Choices actions uniformly at random, from
// the noise: index floor(Φ(noise[0]) · Choices), Φ the standard normal CDF.
// Its tangents are 0.
type UniformDiscrete struct{ Choices int }

// Act writes the index.
func (p UniformDiscrete) Act(agent int, obs, noise, act []float64) {
	u := 0.5 * math.Erfc(-noise[0]/math.Sqrt2)
	k := math.Floor(u * float64(p.Choices))
	if k >= float64(p.Choices) {
		k = float64(p.Choices - 1)
	}
	if k < 0 {
		k = 0
	}
	act[0] = k
}

// ActTangent writes the index and zero tangents.
func (p UniformDiscrete) ActTangent(agent int, obs, dObs, noise, act, dAct []float64) {
	p.Act(agent, obs, noise, act)
	for k := range dAct {
		dAct[k] = 0
	}
}

// Validate checks that the action is one index.
func (p UniformDiscrete) Validate(agents, obsDim, actDim int) error {
	if actDim != 1 || p.Choices < 1 {
		return fmt.Errorf("simulate: UniformDiscrete with %d choices for actions of %d values: %w", p.Choices, actDim, ErrConfig)
	}
	return nil
}

// validatePolicy returns an error wrapping ErrConfig if pol is nil or a
// typed nil, and otherwise runs pol's Validate if it has one.
func validatePolicy(pol Policy, env Env) error {
	if pol == nil {
		return fmt.Errorf("simulate: nil policy: %w", ErrConfig)
	}
	if isNil(pol) {
		return fmt.Errorf("simulate: nil policy of type %T: %w", pol, ErrConfig)
	}
	if v, ok := pol.(PolicyValidator); ok {
		return v.Validate(env.Agents(), env.ObsDim(), env.ActionSpace().Width())
	}
	return nil
}

// Rollout resets env with seed and plays one episode with pol, drawing the
// policy noise of batch element b from a stream determined by (seed, b)
// alone (the same noise that ReturnGradient uses). It returns the
// undiscounted return of each batch element, and records element
// rec.Element into rec if rec is not nil. A return that is not finite
// (rewards that add up past the largest float64) is an error wrapping
// aggregators.ErrInf, and a nil env or pol one wrapping ErrConfig.
func Rollout(env Env, pol Policy, seed int64, rec *Recorder) ([]float64, error) {
	if nilEnv(env) {
		return nil, errNilEnv("Rollout")
	}
	ret := make([]float64, env.Batch())
	err := play(env, pol, seed, rec, func(live []bool) {
		rw := env.Reward()
		for b, l := range live {
			if l {
				ret[b] += rw[b]
			}
		}
	})
	if err != nil {
		return nil, err
	}
	for b, r := range ret {
		if err := checkFiniteReturn(env.Name(), b, r, nil); err != nil {
			return nil, err
		}
	}
	return ret, nil
}

// play resets env with seed and plays one episode with pol, with the
// policy noise that Rollout documents, recording into rec if it is not
// nil. After each step it calls afterStep with, per batch element,
// whether that element's episode was still running when the step was
// taken (so whether the step's reward and effort count).
func play(env Env, pol Policy, seed int64, rec *Recorder, afterStep func(live []bool)) error {
	if err := validatePolicy(pol, env); err != nil {
		return err
	}
	if err := env.Reset(seed); err != nil {
		return err
	}
	if rec != nil {
		if err := rec.Record(env, nil); err != nil {
			return err
		}
	}
	B, N, od, w := env.Batch(), env.Agents(), env.ObsDim(), env.ActionSpace().Width()
	base := 0
	if e, ok := env.(interface{ elementBase() int }); ok {
		base = e.elementBase()
	}
	noise := make([]rng, B)
	for b := range noise {
		noise[b] = newRNG(seed, base+b, streamNoise)
	}
	acts := make([]float64, B*N*w)
	z := make([]float64, w)
	live := make([]bool, B)
	for steps := 0; ; steps++ {
		all := true
		for b, d := range env.Done() {
			live[b] = !d
			all = all && d
		}
		if all {
			return nil
		}
		if steps == MaxEpisodeLength {
			return fmt.Errorf("simulate: %s: the episode did not end within MaxEpisodeLength = %d steps: %w", env.Name(), MaxEpisodeLength, ErrConfig)
		}
		obs := env.Obs()
		for b := 0; b < B; b++ {
			for i := 0; i < N; i++ {
				for c := range z {
					z[c] = noise[b].normal()
				}
				k := b*N + i
				pol.Act(i, obs[k*od:(k+1)*od], z, acts[k*w:(k+1)*w])
			}
		}
		if err := env.Step(acts); err != nil {
			return err
		}
		afterStep(live)
		if rec != nil {
			if err := rec.Record(env, acts); err != nil {
				return err
			}
		}
	}
}
