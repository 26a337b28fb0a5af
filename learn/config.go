package learn

import (
	"fmt"
	"math"

	"github.com/hetgain/hetgain/simulate"
)

// TeamKind says whether the agents of a team share their policy.
type TeamKind int

const (
	// Heterogeneous teams have one set of policy parameters per agent.
	Heterogeneous TeamKind = iota
	// Homogeneous teams have one set of policy parameters shared by every
	// agent (parameter sharing).
	Homogeneous
)

// String returns "het" or "hom".
func (k TeamKind) String() string {
	switch k {
	case Heterogeneous:
		return "het"
	case Homogeneous:
		return "hom"
	}
	return fmt.Sprintf("TeamKind(%d)", int(k))
}

// CriticKind selects the value function of MAPPO or of IPPO.
type CriticKind int

const (
	// Centralised is MAPPO's critic: one value network that sees the
	// observations of every agent and estimates the value of the team.
	Centralised CriticKind = iota
	// PerAgent is IPPO's critic: each agent's value network sees only that
	// agent's actor input, its observation and, with AgentIndex, its
	// one-hot index (shared by a homogeneous team, one per agent in a
	// heterogeneous team).
	PerAgent
)

// String returns "mappo" or "ippo".
func (k CriticKind) String() string {
	switch k {
	case Centralised:
		return "mappo"
	case PerAgent:
		return "ippo"
	}
	return fmt.Sprintf("CriticKind(%d)", int(k))
}

// Config holds the settings of one team's training. The zero value of a
// field means its default (see DefaultConfig); ReferenceConfig returns the
// settings of the paper's own runs.
type Config struct {
	// Kind is Heterogeneous (the zero value) or Homogeneous.
	Kind TeamKind
	// Critic is Centralised (MAPPO, the zero value) or PerAgent (IPPO).
	Critic CriticKind
	// AgentIndex appends the one-hot index of the agent to its
	// observation (behavioural typing: a homogeneous team can then act
	// differently per agent).
	AgentIndex bool
	// AgentRewards trains each agent on its own reward, for environments
	// that have one (simulate.AgentRewarder, such as Tag) instead of on
	// the team reward: each agent's advantage comes from its own rewards
	// and its own value estimates, and a Centralised critic estimates one
	// value per agent from the observations of all. Returns, evaluations
	// and gains stay those of the team reward. With an environment that
	// is not an AgentRewarder, NewTeam returns an error wrapping
	// ErrConfig.
	AgentRewards bool
	// DifferenceRewards trains each agent on its difference reward, for
	// environments that have one (simulate.DifferenceRewarder: the matrix
	// game, Capture and Tag): its own reward with the task reward R(A) replaced by what the
	// team would lose without the agent's efforts, R(A) - R(A_{-i})
	// (Wolpert and Tumer's credit assignment). Everything else is as with
	// AgentRewards: advantages and values per agent; returns, evaluations
	// and gains of the team reward. It excludes AgentRewards (Check
	// returns an error if both are set); with an environment that is not a
	// DifferenceRewarder, NewTeam returns an error wrapping ErrConfig.
	DifferenceRewards bool

	// Hidden are the widths of the hidden tanh layers of the actor and
	// the critic networks (default 64, 64; at most MaxHiddenLayers layers
	// of MaxHiddenWidth units, and NewTeam refuses networks of more than
	// MaxTeamParams parameters in all).
	Hidden []int
	// Envs is the batch size of each worker's environment (default 64,
	// at most simulate.MaxEnvValues).
	Envs int
	// Workers is the number of goroutines that collect rollouts, each
	// with its own environment (default 1, at most MaxWorkers). Results
	// are deterministic for a seed at a fixed number of workers.
	Workers int
	// FramesPerIter is the number of frames (environment steps times
	// batch elements) collected per iteration, rounded up to whole
	// episodes of every worker (default 1600). Both it and the rounded
	// number (FramesPerIteration) are at most MaxFramesPerIteration.
	FramesPerIter int
	// Epochs is the number of passes over an iteration's data (default 4).
	Epochs int
	// Minibatch is the number of frames in a minibatch (default 400).
	// Each epoch cuts the iteration's shuffled frames into minibatches of
	// Minibatch frames, the last holding what is left; a Minibatch above
	// the iteration's frames (FramesPerIteration) makes one minibatch of
	// them all.
	Minibatch int

	// LR is the actor's Adam learning rate (default 3e-3); CriticLR the
	// critic's (default LR).
	LR, CriticLR float64
	// Gamma is the discount and Lambda the GAE parameter (default 0.9
	// each, as the paper).
	Gamma, Lambda float64
	// Clip is PPO's clipping parameter ε (default 0.2).
	Clip float64
	// EntropyCoef weighs the entropy bonus (default 0; a negative value
	// means 0 explicitly).
	EntropyCoef float64
	// MaxGradNorm clips the norm of each network's gradient per minibatch
	// (default 1; the paper uses 40).
	MaxGradNorm float64
	// InitLogStd is the initial log standard deviation of the Gaussian of
	// continuous actions before the tanh squash (default 0; a value outside
	// [-20, 2], the range the log standard deviations are clamped into, is
	// an error).
	InitLogStd float64
	// RawAdvantage turns off the normalisation of the advantages of each
	// minibatch to mean 0 and standard deviation 1.
	RawAdvantage bool

	// Seed fixes every random draw of the run.
	Seed int64
}

// DefaultConfig returns the defaults of every field: settings under which
// the matrix game and Multi-goal-capture train on two CPU cores.
func DefaultConfig() Config {
	return Config{
		Hidden:        []int{64, 64},
		Envs:          64,
		Workers:       1,
		FramesPerIter: 1600,
		Epochs:        4,
		Minibatch:     400,
		LR:            3e-3,
		CriticLR:      3e-3,
		Gamma:         0.9,
		Lambda:        0.9,
		Clip:          0.2,
		MaxGradNorm:   1,
	}
}

// ReferenceConfig returns the settings of the paper's MAPPO runs (from
// its TorchRL template): actor and critic of 2 x 256 tanh units, 60,000
// frames per iteration, 45 epochs of minibatches of 4096 frames, Adam with
// learning rate 5e-5, γ = λ = 0.9, clip 0.2, no entropy bonus, gradient
// norm clipped at 40, advantages not normalised (the template's
// normalize_advantage=False). They need a GPU's throughput to make
// progress in reasonable time. The 60,000 frames are those of episodes of
// 100 steps on 600 environments; since FramesPerIter is rounded up to
// whole episodes of every environment, longer episodes collect more (with
// 8v3 Tag's 1000 steps, 600,000): set Envs to 60 to keep 60,000 there.
//
// What stays different from the template: it trains actor and critic with
// one Adam and clips their joint gradient norm, where Team has one
// optimiser per network and clips each network's norm; its critic loss is
// TorchRL's default (smooth L1), Team's the squared error; and it drops
// the last, partial minibatch of an epoch (60,000 frames make 14 of
// 4096), where Team trains on it too.
func ReferenceConfig() Config {
	c := DefaultConfig()
	c.Hidden = []int{256, 256}
	c.Envs = 600
	c.FramesPerIter = 60000
	c.Epochs = 45
	c.Minibatch = 4096
	c.LR, c.CriticLR = 5e-5, 5e-5
	c.MaxGradNorm = 40
	c.RawAdvantage = true
	return c
}

// Upper limits of Config's sizes, far above the paper's settings (one
// worker, 60,000 frames per iteration, two hidden layers of 256 units).
// Check refuses a Config above them, and NewTeam an iteration of more
// frames or networks of more parameters, before allocating anything.
const (
	MaxWorkers            = 1024
	MaxFramesPerIteration = 1 << 30
	MaxHiddenLayers       = 16
	MaxHiddenWidth        = 16384
	// MaxTeamParams bounds the parameters of a team's actors and critics
	// together (each kept four times: the value, its gradient and Adam's
	// two moments; 2 GiB at the limit).
	MaxTeamParams = 1 << 26
)

// FramesPerIteration returns the number of frames a team of c collects
// in an iteration in environments whose episodes last episodeLength
// steps: FramesPerIter rounded up to whole episodes of every worker's
// Envs environments. Zero fields of c take their defaults. It panics if
// episodeLength is below 1 or above simulate.MaxEpisodeLength, or if
// Envs, Workers or FramesPerIter is outside the range Check allows: within
// those limits the count does not overflow an int (it may still exceed
// MaxFramesPerIteration, which NewTeam refuses).
func (c Config) FramesPerIteration(episodeLength int) int {
	if episodeLength < 1 || episodeLength > simulate.MaxEpisodeLength {
		panic(fmt.Sprintf("learn: episode length %d, want 1 to simulate.MaxEpisodeLength = %d", episodeLength, simulate.MaxEpisodeLength))
	}
	c = c.withDefaults()
	if err := c.checkSizes(); err != nil {
		panic(err.Error())
	}
	perWorker := c.Envs * episodeLength // frames of one episode of each environment of a worker
	episodes := (c.FramesPerIter + c.Workers*perWorker - 1) / (c.Workers * perWorker)
	return c.Workers * episodes * perWorker
}

// withDefaults returns c with every zero field replaced by its default.
func (c Config) withDefaults() Config {
	d := DefaultConfig()
	if len(c.Hidden) == 0 {
		c.Hidden = d.Hidden
	}
	c.Hidden = append([]int(nil), c.Hidden...)
	setInt(&c.Envs, d.Envs)
	setInt(&c.Workers, d.Workers)
	setInt(&c.FramesPerIter, d.FramesPerIter)
	setInt(&c.Epochs, d.Epochs)
	setInt(&c.Minibatch, d.Minibatch)
	setFloat(&c.LR, d.LR)
	setFloat(&c.CriticLR, c.LR)
	setFloat(&c.Gamma, d.Gamma)
	setFloat(&c.Lambda, d.Lambda)
	setFloat(&c.Clip, d.Clip)
	setFloat(&c.MaxGradNorm, d.MaxGradNorm)
	if c.EntropyCoef < 0 && !math.IsInf(c.EntropyCoef, -1) {
		c.EntropyCoef = 0
	}
	return c
}

func setInt(v *int, d int) {
	if *v == 0 {
		*v = d
	}
}

func setFloat(v *float64, d float64) {
	if *v == 0 {
		*v = d
	}
}

// Check returns an error wrapping ErrConfig that names the first field of
// c (after defaults) outside its domain.
func (c Config) Check() error {
	c = c.withDefaults()
	bad := func(field string, v interface{}, want string) error {
		return fmt.Errorf("learn: %s = %v, want %s: %w", field, v, want, ErrConfig)
	}
	if c.Kind != Heterogeneous && c.Kind != Homogeneous {
		return bad("Kind", int(c.Kind), "Heterogeneous or Homogeneous")
	}
	if c.Critic != Centralised && c.Critic != PerAgent {
		return bad("Critic", int(c.Critic), "Centralised or PerAgent")
	}
	if c.AgentRewards && c.DifferenceRewards {
		return fmt.Errorf("learn: AgentRewards and DifferenceRewards are both set, want at most one (each is a reward of each agent's own to train on): %w", ErrConfig)
	}
	if len(c.Hidden) > MaxHiddenLayers {
		return bad("len(Hidden)", len(c.Hidden), fmt.Sprintf("at most MaxHiddenLayers = %d", MaxHiddenLayers))
	}
	for i, h := range c.Hidden {
		if h < 1 || h > MaxHiddenWidth {
			return bad(fmt.Sprintf("Hidden[%d]", i), h, fmt.Sprintf("from 1 to MaxHiddenWidth = %d", MaxHiddenWidth))
		}
	}
	if err := c.checkSizes(); err != nil {
		return err
	}
	for _, f := range []struct {
		name   string
		v      float64
		lo, hi float64
	}{
		{"LR", c.LR, 0, math.Inf(1)}, {"CriticLR", c.CriticLR, 0, math.Inf(1)},
		{"Gamma", c.Gamma, 0, 1}, {"Lambda", c.Lambda, 0, 1}, {"Clip", c.Clip, 0, math.Inf(1)},
		{"MaxGradNorm", c.MaxGradNorm, 0, math.Inf(1)}, {"EntropyCoef", c.EntropyCoef, 0, math.Inf(1)},
		{"InitLogStd", c.InitLogStd, minLogStd, maxLogStd},
	} {
		if math.IsNaN(f.v) || f.v < f.lo || f.v > f.hi || math.IsInf(f.v, 0) {
			return bad(f.name, f.v, fmt.Sprintf("a finite number in [%v, %v]", f.lo, f.hi))
		}
	}
	return nil
}

// checkSizes returns an error wrapping ErrConfig naming the first of the
// sizes of c (after defaults) that is below 1 or above its limit.
func (c Config) checkSizes() error {
	bad := func(field string, v int, want string) error {
		return fmt.Errorf("learn: %s = %d, want %s: %w", field, v, want, ErrConfig)
	}
	for _, f := range []struct {
		name string
		v    int
	}{{"Envs", c.Envs}, {"Workers", c.Workers}, {"FramesPerIter", c.FramesPerIter}, {"Epochs", c.Epochs}, {"Minibatch", c.Minibatch}} {
		if f.v < 1 {
			return bad(f.name, f.v, ">= 1")
		}
	}
	for _, f := range []struct {
		name   string
		v, max int
		limit  string
	}{
		{"Envs", c.Envs, simulate.MaxEnvValues, "simulate.MaxEnvValues"},
		{"Workers", c.Workers, MaxWorkers, "MaxWorkers"},
		{"FramesPerIter", c.FramesPerIter, MaxFramesPerIteration, "MaxFramesPerIteration"},
	} {
		if f.v > f.max {
			return bad(f.name, f.v, fmt.Sprintf("at most %s = %d", f.limit, f.max))
		}
	}
	return nil
}
