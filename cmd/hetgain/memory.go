package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/hetgain/hetgain/learn"
	"github.com/hetgain/hetgain/simulate"
)

// envSizes are the sizes of an environment that set the memory of the
// teams that train in it.
type envSizes struct {
	agents, tasks, obs, act, out, length int
}

// sizesOf returns the sizes of the environment of spec, from an
// environment of one episode.
func sizesOf(spec learn.EnvSpec) (envSizes, error) {
	env, err := spec.New(1)
	if err != nil {
		return envSizes{}, err
	}
	return sizesOfEnv(env, spec.Tasks), nil
}

func sizesOfEnv(env simulate.Env, tasks int) envSizes {
	sp := env.ActionSpace()
	s := envSizes{agents: env.Agents(), tasks: max(tasks, 1), obs: env.ObsDim(), act: sp.Width(), out: sp.Dim, length: env.EpisodeLength()}
	if sp.Discrete {
		s.out = sp.Choices
	}
	return s
}

// episodeBytes estimates the memory of one episode of a batch of
// environments: observations, efforts and actions, kept by the
// environment and by the rollouts, and for capture and tag (episodes of
// more than one step) the positions and velocities of every entity.
func (s envSizes) episodeBytes() float64 {
	n, m := float64(s.agents), float64(s.tasks)
	b := 8 * (2*n*float64(s.obs) + 3*n*float64(s.act) + 2*n*m + 4)
	if s.length > 1 {
		b += 8 * 8 * (n + m + 2)
	}
	return b
}

// layerParams is the number of parameters of a network of these widths.
func layerParams(in float64, hidden []int, out float64) float64 {
	p, prev := 0.0, in
	for _, h := range append(append([]int(nil), hidden...), 0) {
		w := float64(h)
		if h == 0 {
			w = out
		}
		p += prev*w + w
		prev = w
	}
	return p
}

// Costs of the memory estimate, calibrated on the maximum resident
// memory of one-iteration runs of the matrix game, capture and tag
// (networks of up to 2 x 2048 units, up to 200,000 frames per iteration
// and 200,000 environments a worker, a million evaluation episodes): it
// was between 0.4 and 1.1 times the estimate.
const (
	// paramBytes is the memory per network parameter: the parameters,
	// their gradient, Adam's two moments, and the copies and encoding
	// buffers of a checkpoint, which the garbage collector leaves in the
	// heap for a while.
	paramBytes = 240
	// gcHeadroom is the ratio of the memory of the rest (rollouts,
	// activations, environments) to its live data: the garbage of each
	// iteration grows the heap before the collector runs.
	gcHeadroom = 1.8
	// inferenceShare is the share of the activations of both networks on
	// every environment of a worker at once, as the rollouts' forward
	// passes compute them, that is live at a time (the matrix game with
	// 200,000 environments a worker: 1.0 GB resident, where this term is
	// three quarters of the estimate).
	inferenceShare = 0.5
)

// teamBytes estimates the memory of a team of c (defaults filled in) in
// environments of sizes s, heterogeneous (an actor per agent) or not,
// with evaluations on evalEpisodes episodes: its networks (paramBytes a
// parameter), and before gcHeadroom an iteration's rollouts, a
// minibatch's activations and gradients, the rollouts' activations on
// every environment at once, and its environments.
func teamBytes(c learn.Config, het bool, s envSizes, evalEpisodes int) float64 {
	n := float64(s.agents)
	in := float64(s.obs)
	if c.AgentIndex {
		in += n
	}
	actors := 1.0
	if het {
		actors = n
	}
	// Inputs, networks, values per frame and rows per frame of the critic,
	// and the width of the inputs it keeps apart from the actors'.
	cIn, critics, values, cRows, central := n*float64(s.obs), 1.0, 1.0, 1.0, n*float64(s.obs)
	if c.Critic == learn.PerAgent {
		cIn, critics, values, cRows, central = in, actors, n, n, 0
	}
	cOut, rewards := 1.0, 1.0
	if c.AgentRewards || c.DifferenceRewards { // a reward and a value per agent
		values, rewards = n, n
		if c.Critic == learn.Centralised {
			cOut = n
		}
	}
	out := float64(s.out)
	params := actors*(layerParams(in, c.Hidden, out)+out) + critics*layerParams(cIn, c.Hidden, cOut)
	frames := float64(c.FramesPerIteration(s.length))
	rest := 8 * frames * (n*(in+float64(s.act)+1) + central + 3*values + rewards + 1)
	hidden := 0.0
	for _, h := range c.Hidden {
		hidden += float64(h)
	}
	rows := math.Min(float64(c.Minibatch), frames)
	activations := n*(in+hidden+out) + cRows*(cIn+hidden+cOut) // per row of inputs
	rest += 8 * 3 * rows * activations
	rest += 8 * inferenceShare * float64(c.Workers) * float64(c.Envs) * activations
	rest += (float64(c.Workers)*float64(c.Envs) + float64(evalEpisodes)) * s.episodeBytes()
	return paramBytes*params + gcHeadroom*rest
}

// pairBytes estimates the memory of a paired run of spec (both teams);
// extraEpisodes are those of a further evaluation (train's -task-params)
// or of HetGPS's gradient, at extraCost times an episode's memory.
func pairBytes(spec learn.RunSpec, s envSizes, extraEpisodes int, extraCost float64) float64 {
	spec = spec.WithDefaults()
	b := teamBytes(spec.Team, true, s, spec.EvalEpisodes) + teamBytes(spec.Team, false, s, spec.EvalEpisodes)
	return b + gcHeadroom*float64(extraEpisodes)*extraCost*s.episodeBytes()
}

// formatGB formats bytes in gigabytes.
func formatGB(b float64) string {
	return strconv.FormatFloat(b/(1<<30), 'g', 3, 64) + " GB"
}

// checkMemory returns a usage error if the estimated memory b of what the
// command runs at once is above maxMemory, naming the flags that size it
// with their values.
func checkMemory(b float64, what string, flags ...string) error {
	if b <= maxMemory {
		return nil
	}
	return usagef("%s: %s would need about %s of memory; want at most %d GB: lower some of these",
		strings.Join(flags, " "), what, formatGB(b), maxMemoryGB)
}

// sizeFlags returns the flags that set the memory of a run of spec, with
// their values (defaults filled in), for checkMemory.
func sizeFlags(spec learn.RunSpec) []string {
	spec = spec.WithDefaults()
	c := spec.Team
	hidden := make([]string, len(c.Hidden))
	for k, h := range c.Hidden {
		hidden[k] = strconv.Itoa(h)
	}
	return []string{
		fmt.Sprintf("-N %d", spec.Env.Agents), fmt.Sprintf("-M %d", spec.Env.Tasks), "-hidden " + strings.Join(hidden, ","),
		fmt.Sprintf("-frames-per-iter %d", c.FramesPerIter), fmt.Sprintf("-envs %d", c.Envs), fmt.Sprintf("-workers %d", c.Workers),
		fmt.Sprintf("-minibatch %d", c.Minibatch), fmt.Sprintf("-eval-episodes %d", spec.EvalEpisodes),
	}
}
