package simulate

import (
	"fmt"
	"math"
)

// TagChaser is a reference chaser policy for Tag, read from the
// observation: agent i steers towards its target escaper with
//
//	act = tanh(Gain · (e - c) - Damping · v + Sigma · noise)
//
// coordinate-wise, where e - c is the target's relative position and v
// the agent's velocity. The target of agent i is escaper Target[i], or the
// nearest escaper (the first on ties) when Target[i] is -1 or Target is
// nil. Nil Target is therefore a homogeneous team (every chaser runs after
// its nearest escaper, so they tend to bunch on one); Target {0, 1, ...}
// a team of specialists.
type TagChaser struct {
	// Escapers is M; the escapers' relative positions are observation
	// entries 4 .. 4+2M.
	Escapers int
	// Target[i] is the escaper agent i chases, or -1 for its nearest; nil
	// means -1 for every agent.
	Target               []int
	Gain, Damping, Sigma float64
}

// ChaserPolicy returns a TagChaser for g with the given gain, damping and
// noise: with homogeneous true every chaser chases its nearest escaper,
// otherwise chaser i chases escaper i mod M.
func (g *Tag) ChaserPolicy(gain, damping, sigma float64, homogeneous bool) TagChaser {
	return chaserPolicy(g.n, g.m, gain, damping, sigma, homogeneous)
}

// chaserPolicy returns the TagChaser of ChaserPolicy for n chasers and m
// escapers.
func chaserPolicy(n, m int, gain, damping, sigma float64, homogeneous bool) TagChaser {
	p := TagChaser{Escapers: m, Gain: gain, Damping: damping, Sigma: sigma}
	if !homogeneous {
		p.Target = make([]int, n)
		for i := range p.Target {
			p.Target[i] = i % m
		}
	}
	return p
}

// target returns the observation offset of agent's target escaper.
func (p TagChaser) target(agent int, obs []float64) int {
	if p.Target != nil && p.Target[agent] >= 0 {
		return 4 + 2*p.Target[agent]
	}
	best, at := math.Inf(1), 4
	for j := 0; j < p.Escapers; j++ {
		x, y := obs[4+2*j], obs[5+2*j]
		if d := x*x + y*y; d < best {
			best, at = d, 4+2*j
		}
	}
	return at
}

// Act writes tanh(Gain (e - c) - Damping v + Sigma noise).
func (p TagChaser) Act(agent int, obs, noise, act []float64) {
	t := p.target(agent, obs)
	for c := 0; c < 2; c++ {
		act[c] = math.Tanh(p.Gain*obs[t+c] - p.Damping*obs[2+c] + p.Sigma*noise[c])
	}
}

// ActTangent writes the action and its tangents, with the target held
// fixed (the nearest escaper switches at ties, where the action jumps).
func (p TagChaser) ActTangent(agent int, obs, dObs, noise, act, dAct []float64) {
	t := p.target(agent, obs)
	od := len(obs)
	K := 0
	if od > 0 {
		K = len(dObs) / od
	}
	for c := 0; c < 2; c++ {
		th := math.Tanh(p.Gain*obs[t+c] - p.Damping*obs[2+c] + p.Sigma*noise[c])
		act[c] = th
		s := 1 - th*th
		for k := 0; k < K; k++ {
			dAct[k*2+c] = s * (p.Gain*dObs[k*od+t+c] - p.Damping*dObs[k*od+2+c])
		}
	}
}

// Validate checks the sizes: 2-D actions, observations holding the
// escapers, one target per agent in [-1, Escapers).
func (p TagChaser) Validate(agents, obsDim, actDim int) error {
	if actDim != 2 || p.Escapers < 1 || obsDim < 4+2*p.Escapers {
		return fmt.Errorf("simulate: TagChaser for %d escapers with observations of %d values and actions of %d: %w",
			p.Escapers, obsDim, actDim, ErrConfig)
	}
	if p.Target != nil && len(p.Target) != agents {
		return fmt.Errorf("simulate: TagChaser has %d targets for %d agents: %w", len(p.Target), agents, ErrConfig)
	}
	for i, t := range p.Target {
		if t < -1 || t >= p.Escapers {
			return fmt.Errorf("simulate: TagChaser target %d of agent %d outside [-1, %d): %w", t, i, p.Escapers, ErrConfig)
		}
	}
	return nil
}

// TagTargetClass returns the class of scripted chasers that hetgain
// scripted plays with ClassGain: M + 1 policies for N chasers, the first
// sending every chaser after its nearest escaper and the (j+2)-th every
// chaser after escaper j, each a TagChaser with the given gain and noise
// (no damping). In a ClassGain team, candidate 0 is "nearest" and
// candidate j+1 is "escaper j".
func TagTargetClass(chasers, escapers int, gain, sigma float64) []Policy {
	class := make([]Policy, 0, escapers+1)
	for j := -1; j < escapers; j++ {
		target := make([]int, chasers)
		for i := range target {
			target[i] = j
		}
		class = append(class, TagChaser{Escapers: escapers, Target: target, Gain: gain, Sigma: sigma})
	}
	return class
}
