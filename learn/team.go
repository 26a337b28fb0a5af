package learn

import (
	"fmt"
	"math"
	"reflect"

	"github.com/hetgain/hetgain/simulate"
)

// EnvMaker returns a new environment with batch parallel episodes. Every
// call must return an environment of the same sizes and parameters;
// EnvSpec.New is one.
type EnvMaker func(batch int) (simulate.Env, error)

// make calls mk and returns its error, or an error wrapping ErrConfig if
// it returned a nil environment (or a nil pointer of an environment type)
// or one whose batch is not batch.
func (mk EnvMaker) make(batch int) (simulate.Env, error) {
	env, err := mk(batch)
	if err != nil {
		return nil, err
	}
	if env == nil {
		return nil, fmt.Errorf("learn: EnvMaker returned a nil environment: %w", ErrConfig)
	}
	if v := reflect.ValueOf(env); v.Kind() == reflect.Pointer && v.IsNil() {
		return nil, fmt.Errorf("learn: EnvMaker returned a nil %T: %w", env, ErrConfig)
	}
	if env.Batch() != batch {
		return nil, fmt.Errorf("learn: EnvMaker returned an environment of batch %d for %d: %w", env.Batch(), batch, ErrConfig)
	}
	return env, nil
}

// Team is one team of N agents learning by PPO in an environment: its
// actors (one per agent, or one shared), its critic(s), their optimizers,
// and the environments its workers collect rollouts in. A Team is not
// safe for concurrent use; distinct Teams are.
type Team struct {
	cfg    Config
	n      int
	obsDim int
	space  simulate.Space
	inDim  int // actor (and per-agent critic) input width
	outDim int // actor output width: Gaussian means or logits
	cInDim int // critic input width

	actors       []*mlp
	logStd       [][]float64 // views into actorParams; nil for discrete actions
	actorParams  []float64
	actorGrad    []float64
	actorOffsets []int // start of each actor's section in actorParams
	critics      []*mlp
	criticParams []float64
	criticGrad   []float64
	criticOffs   []int
	actorOpt     *adam
	criticOpt    *adam

	workers []*worker
	buf     buffer
	upd     updateWork

	iter   int
	frames int64
}

// NewTeam builds a team for the environments of newEnv, initialised from
// cfg.Seed. It makes cfg.Workers environments of batch cfg.Envs.
func NewTeam(newEnv EnvMaker, cfg Config) (*Team, error) {
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	if newEnv == nil {
		return nil, fmt.Errorf("learn: nil EnvMaker: %w", ErrConfig)
	}
	cfg = cfg.withDefaults()
	t := &Team{cfg: cfg}
	t.upd.newEnv = newEnv
	for w := 0; w < cfg.Workers; w++ {
		env, err := newEnv.make(cfg.Envs)
		if err != nil {
			return nil, err
		}
		if err := t.adopt(env); err != nil {
			return nil, err
		}
		t.workers = append(t.workers, newWorker(t, env))
	}
	if err := checkIteration(cfg, t.workers[0].env.EpisodeLength()); err != nil {
		return nil, err
	}
	t.setDims()
	if err := t.checkParams(); err != nil {
		return nil, err
	}
	t.initNetworks()
	t.buf = newBuffer(t)
	return t, nil
}

// checkIteration returns an error wrapping ErrConfig unless an iteration
// of cfg (checked) in environments of episodes of length steps has at
// most MaxFramesPerIteration frames.
func checkIteration(cfg Config, length int) error {
	if length < 1 || length > simulate.MaxEpisodeLength {
		return fmt.Errorf("learn: the environment's episodes are %d steps, want 1 to simulate.MaxEpisodeLength = %d: %w",
			length, simulate.MaxEpisodeLength, ErrConfig)
	}
	if f := cfg.FramesPerIteration(length); f > MaxFramesPerIteration {
		return fmt.Errorf("learn: an iteration of %d frames (FramesPerIter %d rounded up to whole episodes of %d steps of %d workers × %d environments), more than MaxFramesPerIteration = %d: %w",
			f, cfg.FramesPerIter, length, cfg.Workers, cfg.Envs, MaxFramesPerIteration, ErrConfig)
	}
	return nil
}

// checkOwnRewards returns an error wrapping ErrConfig if cfg trains on
// agent rewards or difference rewards that env does not have.
func checkOwnRewards(cfg Config, env simulate.Env) error {
	if _, ok := env.(simulate.AgentRewarder); cfg.AgentRewards && !ok {
		return fmt.Errorf("learn: AgentRewards: environment %s has no rewards of each agent's own (it is not a simulate.AgentRewarder): %w", env.Name(), ErrConfig)
	}
	if _, ok := env.(simulate.DifferenceRewarder); cfg.DifferenceRewards && !ok {
		return fmt.Errorf("learn: DifferenceRewards: environment %s has no difference rewards (it is not a simulate.DifferenceRewarder): %w", env.Name(), ErrConfig)
	}
	return nil
}

// adopt checks that env, from EnvMaker.make, fits the team (the first one
// sets the sizes).
func (t *Team) adopt(env simulate.Env) error {
	sp := env.ActionSpace()
	if err := checkOwnRewards(t.cfg, env); err != nil {
		return err
	}
	if t.workers == nil {
		t.n, t.obsDim, t.space = env.Agents(), env.ObsDim(), sp
		if t.n < 1 {
			return fmt.Errorf("learn: environment %s has %d agents, want >= 1: %w", env.Name(), t.n, ErrConfig)
		}
		if sp.Discrete && sp.Choices < 1 || !sp.Discrete && sp.Dim < 1 {
			return fmt.Errorf("learn: action space %v has no actions: %w", sp, ErrConfig)
		}
		if t.obsDim < 1 {
			return fmt.Errorf("learn: the environment's observation has %d values, want >= 1 (observe a constant, as the matrix game does): %w", t.obsDim, ErrConfig)
		}
		return nil
	}
	if env.Agents() != t.n || env.ObsDim() != t.obsDim || sp.Discrete != t.space.Discrete || sp.Width() != t.space.Width() {
		return fmt.Errorf("learn: EnvMaker returned environments of different sizes: %w", ErrConfig)
	}
	return nil
}

// setDims sets the widths of the actors' inputs and outputs from the
// adopted environment's.
func (t *Team) setDims() {
	t.inDim = t.obsDim
	if t.cfg.AgentIndex {
		t.inDim += t.n
	}
	t.outDim = t.space.Dim
	if t.space.Discrete {
		t.outDim = t.space.Choices
	}
}

// numActors is the number of actor networks: one per agent, or one shared.
func (t *Team) numActors() int {
	if t.cfg.Kind == Homogeneous {
		return 1
	}
	return t.n
}

// criticShape returns the input width and the number of critic networks.
func (t *Team) criticShape() (inDim, critics int) {
	if t.cfg.Critic == PerAgent {
		return t.inDim, t.numActors()
	}
	return t.n * t.obsDim, 1
}

// paramCount returns the number of parameters of the team's networks
// (setDims done), counted in float64, which cannot overflow here.
func (t *Team) paramCount() float64 {
	count := func(sizes []int) float64 {
		p := 0.0
		for l := 0; l+1 < len(sizes); l++ {
			p += float64(sizes[l])*float64(sizes[l+1]) + float64(sizes[l+1])
		}
		return p
	}
	cIn, critics := t.criticShape()
	actor := count(layerSizes(t.inDim, t.cfg.Hidden, t.outDim)) + float64(t.logStdLen())
	return float64(t.numActors())*actor + float64(critics)*count(layerSizes(cIn, t.cfg.Hidden, t.criticOutputs()))
}

// checkParams returns an error wrapping ErrConfig if the team's networks
// (setDims done) would have more than MaxTeamParams parameters.
func (t *Team) checkParams() error {
	if p := t.paramCount(); p > MaxTeamParams {
		return fmt.Errorf("learn: networks of hidden widths %v for %d agents with %d inputs and %d outputs each: %.4g parameters, more than MaxTeamParams = %d: %w",
			t.cfg.Hidden, t.n, t.inDim, t.outDim, p, MaxTeamParams, ErrConfig)
	}
	return nil
}

// initNetworks builds actors and critics in flat parameter vectors.
func (t *Team) initNetworks() {
	cfg := t.cfg
	r := newRNG(cfg.Seed, streamInit)
	nActors := t.numActors()
	for a := 0; a < nActors; a++ {
		t.actors = append(t.actors, newMLP(layerSizes(t.inDim, cfg.Hidden, t.outDim), &r, 0.01))
	}
	t.actorParams, t.actorOffsets = flatten(t.actors, t.logStdLen())
	for a := range t.actors {
		if !t.space.Discrete {
			off := t.actorOffsets[a] + t.actors[a].numParams()
			ls := t.actorParams[off : off+t.outDim]
			for j := range ls {
				ls[j] = cfg.InitLogStd
			}
			t.logStd = append(t.logStd, ls)
		}
	}
	var nCritics int
	t.cInDim, nCritics = t.criticShape()
	for c := 0; c < nCritics; c++ {
		t.critics = append(t.critics, newMLP(layerSizes(t.cInDim, cfg.Hidden, t.criticOutputs()), &r, 1))
	}
	t.criticParams, t.criticOffs = flatten(t.critics, 0)
	t.actorGrad = make([]float64, len(t.actorParams))
	t.criticGrad = make([]float64, len(t.criticParams))
	t.actorOpt = newAdam(len(t.actorParams), cfg.LR)
	t.criticOpt = newAdam(len(t.criticParams), cfg.CriticLR)
}

func (t *Team) logStdLen() int {
	if t.space.Discrete {
		return 0
	}
	return t.outDim
}

func layerSizes(in int, hidden []int, out int) []int {
	s := append([]int{in}, hidden...)
	return append(s, out)
}

// flatten moves the parameters of nets into one vector, leaving extra
// zero values after each net, and points each net's params into it.
func flatten(nets []*mlp, extra int) ([]float64, []int) {
	total := 0
	for _, m := range nets {
		total += m.numParams() + extra
	}
	flat := make([]float64, total)
	offs := make([]int, len(nets))
	off := 0
	for k, m := range nets {
		offs[k] = off
		np := m.numParams()
		copy(flat[off:off+np], m.params)
		m.params = flat[off : off+np : off+np]
		off += np + extra
	}
	return flat, offs
}

// actorFor returns the index of agent i's actor.
func (t *Team) actorFor(i int) int {
	if len(t.actors) == 1 {
		return 0
	}
	return i
}

// Agents returns N.
func (t *Team) Agents() int { return t.n }

// Config returns the team's configuration with defaults filled in.
func (t *Team) Config() Config {
	c := t.cfg
	c.Hidden = append([]int(nil), c.Hidden...)
	return c
}

// Iteration returns the number of training iterations done.
func (t *Team) Iteration() int { return t.iter }

// Frames returns the number of frames collected so far.
func (t *Team) Frames() int64 { return t.frames }

// NumParams returns the number of actor and critic parameters.
func (t *Team) NumParams() (actor, critic int) { return len(t.actorParams), len(t.criticParams) }

// ActionStd returns, for each agent, the standard deviation of its
// policy's Gaussian in each action coordinate, before the tanh squash:
// the exponential of the learned log standard deviation, clamped as the
// policy samples with it. It starts at exp(Config.InitLogStd) and tells
// how much the policy still explores; the agents of a homogeneous team
// share their values. It returns nil for discrete actions, whose
// randomness depends on the observation.
func (t *Team) ActionStd() [][]float64 {
	if t.space.Discrete {
		return nil
	}
	std := make([][]float64, t.n)
	for i := range std {
		ls := t.logStd[t.actorFor(i)]
		std[i] = make([]float64, len(ls))
		for c, v := range ls {
			std[i][c] = math.Exp(clampLogStd(v))
		}
	}
	return std
}

// SetEnvParams sets the environment parameters p in every environment of
// the team (see simulate.Env.SetParams).
func (t *Team) SetEnvParams(p simulate.Params) error {
	for _, w := range t.workers {
		if err := w.env.SetParams(p); err != nil {
			return err
		}
	}
	if t.upd.evalEnv != nil {
		return t.upd.evalEnv.SetParams(p)
	}
	return nil
}

// EnvParams returns the parameters of the team's environments.
func (t *Team) EnvParams() simulate.Params { return t.workers[0].env.Params() }

// actorInput writes agent i's actor input for observation obs into dst
// (len inDim): the observation, then the one-hot index if configured.
func (t *Team) actorInput(dst, obs []float64, i int) {
	copy(dst, obs)
	if t.cfg.AgentIndex {
		idx := dst[t.obsDim:]
		for k := range idx {
			idx[k] = 0
		}
		idx[i] = 1
	}
}

// squash maps a pre-squash Gaussian value u of coordinate c into the
// action box: low + (high-low)(tanh(u)+1)/2 ([-1, 1] without bounds).
func (t *Team) squash(c int, u float64) float64 {
	lo, hi := -1.0, 1.0
	if len(t.space.Low) > c && len(t.space.High) > c {
		lo, hi = t.space.Low[c], t.space.High[c]
	}
	return lo + (hi-lo)*(math.Tanh(u)+1)/2
}

// squashSlope is d squash / du.
func (t *Team) squashSlope(c int, u float64) float64 {
	lo, hi := -1.0, 1.0
	if len(t.space.Low) > c && len(t.space.High) > c {
		lo, hi = t.space.Low[c], t.space.High[c]
	}
	th := math.Tanh(u)
	return (hi - lo) * (1 - th*th) / 2
}

// clampLogStd returns a log standard deviation clamped into [minLogStd,
// maxLogStd], the range the policies sample with.
func clampLogStd(v float64) float64 { return math.Max(minLogStd, math.Min(maxLogStd, v)) }

const (
	minLogStd = -20
	maxLogStd = 2
)

// Random streams of a run, mixed with the seed and the iteration.
const (
	streamInit uint64 = iota + 1
	streamSpawn
	streamAction
	streamShuffle
	streamEval
)
