package simulate

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"

	"github.com/hetgain/hetgain/aggregators"
)

// Errors wrapped by the errors of the environments, for errors.Is.
var (
	// ErrAction reports an action slice of the wrong length, a NaN or
	// infinite action, or a discrete action that is not an integer index
	// in [0, Choices).
	ErrAction = errors.New("invalid action")
	// ErrParam reports an unknown parameter name or a value outside the
	// parameter's domain.
	ErrParam = errors.New("invalid parameter")
	// ErrConfig reports an invalid environment configuration (sizes,
	// operators, spawn constraints that cannot be met).
	ErrConfig = errors.New("invalid configuration")
	// ErrNotReset reports a Step before the first Reset.
	ErrNotReset = errors.New("environment not reset")
	// ErrDone reports a Step after every batch element's episode ended.
	ErrDone = errors.New("episode done")
)

// MaxPhysical is the largest force multiplier, speed cap, sensor range
// (Capture), reward weight (Tag's "shaping" and "penalty") and battlefield
// value (Blotto) the environments accept: a million times their defaults'
// order, small enough that squared speeds stay finite and that rewards
// and returns stay far from overflow.
const MaxPhysical = 1e6

// MaxEnvValues is the largest number of values an environment keeps in
// one of its batched arrays: B·N·ObsDim observations, B·N·M efforts,
// B·N·ActDim actions, and Foraging's B·Width·Height grid cells. The
// constructors refuse larger configurations with an error wrapping
// ErrConfig instead of running out of memory.
const MaxEnvValues = 1 << 24

// MaxEpisodeLength is the longest episode the environments accept, and
// the most steps Rollout and Profile play: an episode (of an environment
// from outside this package) still running after it is an error wrapping
// ErrConfig.
const MaxEpisodeLength = 1 << 24

// Space describes the action space of one agent.
type Space struct {
	// Discrete spaces take one index in [0, Choices) per agent, passed as a
	// float64 holding an integer.
	Discrete bool
	// Choices is the number of discrete actions.
	Choices int
	// Dim is the dimension of a continuous action.
	Dim int
	// Low and High bound each coordinate of a continuous action (the box
	// [Low, High]); environments clamp actions into it, or document
	// otherwise.
	Low, High []float64
}

// Width returns the number of float64 values one agent's action takes in
// an action slice: 1 for a discrete space, Dim for a continuous one.
func (s Space) Width() int {
	if s.Discrete {
		return 1
	}
	return s.Dim
}

// String describes the space, e.g. "Discrete(3)" or "Box(2)[-1 -1]..[1 1]".
func (s Space) String() string {
	if s.Discrete {
		return fmt.Sprintf("Discrete(%d)", s.Choices)
	}
	if len(s.Low) > 0 && len(s.High) > 0 {
		return fmt.Sprintf("Box(%d)%v..%v", s.Dim, s.Low, s.High)
	}
	return fmt.Sprintf("Box(%d)", s.Dim)
}

// Params is a named parameter vector θ: the aggregator parameters
// ("U.t", "T.t", or "T0.t", "T1.t", ... for per-task inner aggregators)
// and the environment's physical parameters. Names and Values have the
// same length. Params returned by an environment are copies.
type Params struct {
	Names  []string
	Values []float64
}

// Index returns the position of name in p, or -1.
func (p Params) Index(name string) int {
	for i, n := range p.Names {
		if n == name {
			return i
		}
	}
	return -1
}

// Get returns the value of the named parameter, or an error wrapping
// ErrParam if p has no such name.
func (p Params) Get(name string) (float64, error) {
	i, err := p.valueIndex(name)
	if err != nil {
		return math.NaN(), err
	}
	return p.Values[i], nil
}

// Set sets the value of the named parameter in p (not in any environment:
// pass p to Env.SetParams for that), or returns an error wrapping ErrParam
// if p has no such name or v is NaN.
func (p Params) Set(name string, v float64) error {
	i, err := p.valueIndex(name)
	if err != nil {
		return err
	}
	if math.IsNaN(v) {
		return fmt.Errorf("simulate: parameter %q = NaN: %w", name, ErrParam)
	}
	p.Values[i] = v
	return nil
}

// valueIndex returns the index of the named parameter's value, or an error
// wrapping ErrParam if p has no such name or no value for it.
func (p Params) valueIndex(name string) (int, error) {
	i := p.Index(name)
	if i < 0 {
		return -1, fmt.Errorf("simulate: no parameter %q (have %v): %w", name, p.Names, ErrParam)
	}
	if i >= len(p.Values) {
		return -1, fmt.Errorf("simulate: parameter %q is name %d of %d, but there are %d values: %w",
			name, i+1, len(p.Names), len(p.Values), ErrParam)
	}
	return i, nil
}

// Clone returns a deep copy of p.
func (p Params) Clone() Params {
	return Params{Names: append([]string(nil), p.Names...), Values: append([]float64(nil), p.Values...)}
}

// String lists the parameters as "name=value" pairs.
func (p Params) String() string {
	s := "{"
	for i, n := range p.Names {
		if i > 0 {
			s += " "
		}
		v := math.NaN()
		if i < len(p.Values) {
			v = p.Values[i]
		}
		s += fmt.Sprintf("%s=%v", n, v)
	}
	return s + "}"
}

// Env is a batched multi-agent environment with a shared team reward.
//
// Lifecycle: Reset(seed), then Step(actions) until Done() is true for every
// batch element (all elements of the environments of this package end
// together, after EpisodeLength steps). Step before the first Reset returns
// an error wrapping ErrNotReset, and after the end an error wrapping
// ErrDone. A failed Step leaves the state unchanged.
//
// The slices returned by Obs, Reward, Effort and Done are owned by the
// environment and overwritten by the next Step or Reset; copy them to keep
// them. Before the first Step after a Reset, Reward and Effort are zero.
type Env interface {
	// Name returns a short name such as "matrix" or "capture".
	Name() string
	// Batch returns B, the number of independent episodes run together.
	Batch() int
	// Agents returns N.
	Agents() int
	// Tasks returns M, the number of tasks (columns of the effort matrix).
	Tasks() int
	// ObsDim returns the length of one agent's observation.
	ObsDim() int
	// ActionSpace returns one agent's action space.
	ActionSpace() Space
	// Params returns a copy of the environment's parameter vector θ.
	Params() Params
	// SetParams sets the parameters named in p to its values; parameters
	// not named keep theirs. Names and Values of different lengths, a name
	// given twice, an unknown name, a value outside its domain,
	// or reward parameters under which the reward of every agent working on
	// one task is infinite or invalid (where the environment can reach such
	// efforts) is an error wrapping ErrParam and changes nothing.
	SetParams(p Params) error
	// Reset starts a new episode in every batch element; the same seed
	// gives the same episode bit for bit.
	Reset(seed int64) error
	// Step applies the flat [B][N][ActDim] actions. Invalid actions (wrong
	// length, NaN or ±Inf, a discrete index that is not an integer in
	// [0, Choices)) give an error wrapping ErrAction that names the batch
	// element, the agent and the value.
	Step(actions []float64) error
	// Obs returns the flat [B][N][ObsDim] observations of the current
	// state.
	Obs() []float64
	// Reward returns the [B] team rewards of the last step.
	Reward() []float64
	// Effort returns the flat [B][N][M] effort matrices of the last step.
	Effort() []float64
	// Done returns, per batch element, whether its episode has ended.
	Done() []bool
	// EpisodeLength returns the number of steps of an episode.
	EpisodeLength() int
}

// AgentRewarder is implemented by environments whose team reward is the
// mean of rewards of each agent's own, such as Tag, whose distance term is
// each chaser's own distance to its nearest escaper. Learners can train
// each agent on its reward (learn.Config.AgentRewards) instead of the
// team's.
type AgentRewarder interface {
	Env
	// AgentRewards returns the flat [B][N] rewards of the agents in the
	// last step (zeros after Reset), owned by the environment like
	// Reward. For every batch element their mean over the agents is the
	// team reward Reward, up to rounding.
	AgentRewards() []float64
}

// DifferenceRewarder is implemented by environments that can pay each
// agent its difference reward (Wolpert and Tumer's credit assignment):
// the step's reward with the task reward R(A) replaced by R(A) - R(A_{-i}),
// where A_{-i} is the effort matrix with agent i's row set to zero, the
// reward the team would have had without agent i's efforts (and, in an
// AgentRewarder, with the agent's own terms in place of the team's, as in
// its AgentRewards). An agent that duplicates another's effort on a task
// whose T is max is paid nothing for it; one that adds effort nobody else
// gives is paid what it adds. Learners can train each agent on it
// (learn.Config.DifferenceRewards); the team reward is unchanged.
type DifferenceRewarder interface {
	Env
	// DifferenceRewards returns the flat [B][N] difference rewards of the
	// agents in the last step (zeros after Reset), owned by the
	// environment like Reward.
	DifferenceRewards() []float64
}

// Embodied is implemented by environments whose agents and tasks have
// positions in the plane, for recording and plotting. The position
// accessors of this package's environments panic with a "simulate: "
// message if b is outside [0, Batch()).
type Embodied interface {
	Env
	// AgentPositions returns the flat [N][2] agent positions of batch
	// element b in the current state (a new slice).
	AgentPositions(b int) []float64
	// TaskPositions returns the flat [M][2] task (goal) positions of batch
	// element b in the current state (a new slice).
	TaskPositions(b int) []float64
}

// Recorder keeps the trajectory of one batch element of an episode: a plain
// struct of slices, for plotting or inspection. Create it with the batch
// element to record and call Record after Reset and after each Step.
type Recorder struct {
	// Element is the batch element recorded.
	Element int
	// Env is the environment's name; Agents and Tasks its N and M.
	Env           string
	Agents, Tasks int
	// Steps[k] is the step count at record k (0 right after Reset).
	Steps []int
	// AgentPos[k] and TaskPos[k] are the flat [N][2] and [M][2] positions
	// at record k, for Embodied environments (nil otherwise).
	AgentPos [][]float64
	TaskPos  [][]float64
	// Actions[k] holds the flat [N][ActDim] actions that led to record k
	// (nil for the record after Reset).
	Actions [][]float64
	// Efforts[k] is the flat [N][M] effort matrix of the step that led to
	// record k (zeros after Reset); Rewards[k] its team reward.
	Efforts [][]float64
	Rewards []float64
	// Obs[k] is the flat [N][ObsDim] observation at record k.
	Obs [][]float64
}

// NewRecorder returns a recorder of batch element b.
func NewRecorder(b int) *Recorder { return &Recorder{Element: b} }

// Record appends the current state of the recorder's batch element of env.
// actions are the flat [B][N][ActDim] actions of the step just taken, or
// nil right after Reset. It returns an error, and records nothing, if env
// is nil or the element is outside its batch (wrapping ErrConfig) or
// actions is not nil and not of length B·N·ActDim (wrapping ErrAction).
func (r *Recorder) Record(env Env, actions []float64) error {
	if nilEnv(env) {
		return errNilEnv("Recorder.Record")
	}
	b, n, m := r.Element, env.Agents(), env.Tasks()
	if b < 0 || b >= env.Batch() {
		return fmt.Errorf("simulate: recorder element %d outside the batch of %d: %w", b, env.Batch(), ErrConfig)
	}
	w := env.ActionSpace().Width()
	if actions != nil && len(actions) != env.Batch()*n*w {
		return fmt.Errorf("simulate: recorder: %d action values, want B*N*ActDim = %d*%d*%d = %d: %w",
			len(actions), env.Batch(), n, w, env.Batch()*n*w, ErrAction)
	}
	r.Env, r.Agents, r.Tasks = env.Name(), n, m
	step := 0
	if actions != nil && len(r.Steps) > 0 {
		step = r.Steps[len(r.Steps)-1] + 1
	} else if actions != nil {
		step = 1
	}
	r.Steps = append(r.Steps, step)
	if e, ok := env.(Embodied); ok {
		r.AgentPos = append(r.AgentPos, e.AgentPositions(b))
		r.TaskPos = append(r.TaskPos, e.TaskPositions(b))
	}
	if actions != nil {
		r.Actions = append(r.Actions, append([]float64(nil), actions[b*n*w:(b+1)*n*w]...))
	} else {
		r.Actions = append(r.Actions, nil)
	}
	if eff := env.Effort(); len(eff) >= (b+1)*n*m {
		r.Efforts = append(r.Efforts, append([]float64(nil), eff[b*n*m:(b+1)*n*m]...))
	} else {
		r.Efforts = append(r.Efforts, make([]float64, n*m))
	}
	rew := 0.0
	if rw := env.Reward(); b < len(rw) {
		rew = rw[b]
	}
	r.Rewards = append(r.Rewards, rew)
	d := env.ObsDim()
	if o := env.Obs(); len(o) >= (b+1)*n*d {
		r.Obs = append(r.Obs, append([]float64(nil), o[b*n*d:(b+1)*n*d]...))
	} else {
		r.Obs = append(r.Obs, nil)
	}
	return nil
}

// Return returns the sum of the recorded rewards.
func (r *Recorder) Return() float64 {
	s := 0.0
	for _, v := range r.Rewards {
		s += v
	}
	return s
}

// checkActions validates a flat [B][N][width] action slice against space:
// its length, finiteness, and for discrete spaces integer indices in
// [0, Choices). The error wraps ErrAction and names the batch element, the
// agent and the value. Environments of this package share it.
func checkActions(env string, space Space, batch, agents int, actions []float64) error {
	w := space.Width()
	if len(actions) != batch*agents*w {
		return fmt.Errorf("simulate: %s: %d action values, want B*N*ActDim = %d*%d*%d = %d: %w",
			env, len(actions), batch, agents, w, batch*agents*w, ErrAction)
	}
	for k, v := range actions {
		if bad := actionProblem(space, v); bad != "" {
			b, i, c := k/(agents*w), (k/w)%agents, k%w
			return actionError(env, space, b, i, c, v, bad)
		}
	}
	return nil
}

// checkAgentAction validates the action act of agent i of batch element b,
// as checkActions does.
func checkAgentAction(env string, space Space, b, i int, act []float64) error {
	for c, v := range act {
		if bad := actionProblem(space, v); bad != "" {
			return actionError(env, space, b, i, c, v, bad)
		}
	}
	return nil
}

// actionProblem describes what is wrong with the action value v, or
// returns "".
func actionProblem(space Space, v float64) string {
	switch {
	case math.IsNaN(v):
		return "NaN"
	case math.IsInf(v, 0):
		return "infinite"
	case space.Discrete && (v != math.Trunc(v) || v < 0 || v >= float64(space.Choices)):
		return fmt.Sprintf("not an integer index in [0, %d)", space.Choices)
	}
	return ""
}

func actionError(env string, space Space, b, i, c int, v float64, bad string) error {
	if space.Discrete {
		return fmt.Errorf("simulate: %s: batch %d agent %d: action %v is %s: %w", env, b, i, v, bad, ErrAction)
	}
	return fmt.Errorf("simulate: %s: batch %d agent %d: action[%d] = %v is %s: %w", env, b, i, c, v, bad, ErrAction)
}

// checkFiniteReturn returns an error wrapping aggregators.ErrInf (or
// ErrNaN) if the return r of batch element b, or one of its derivatives
// grad, is not finite: the rewards of an episode may each be finite and
// still add up to more than the largest float64.
func checkFiniteReturn(env string, b int, r float64, grad []float64) error {
	if err := nonFinite(r); err != nil {
		return fmt.Errorf("simulate: %s: the return of batch element %d is %v: %w", env, b, r, err)
	}
	for k, d := range grad {
		if err := nonFinite(d); err != nil {
			return fmt.Errorf("simulate: %s: derivative %d of the return of batch element %d is %v: %w", env, k, b, d, err)
		}
	}
	return nil
}

// nonFinite returns aggregators.ErrNaN or ErrInf if v is NaN or
// infinite, else nil.
func nonFinite(v float64) error {
	switch {
	case math.IsNaN(v):
		return aggregators.ErrNaN
	case math.IsInf(v, 0):
		return aggregators.ErrInf
	}
	return nil
}

// checkEnvValues returns an error wrapping ErrConfig if the product of
// sizes, each at least 1, exceeds MaxEnvValues; what names the product,
// as in "B·N·M".
func checkEnvValues(env, what string, sizes ...int) error {
	p := 1
	for _, s := range sizes {
		if s > MaxEnvValues/p {
			return fmt.Errorf("simulate: %s: %s = %s values, more than MaxEnvValues = %d: %w",
				env, what, formatProduct(sizes), MaxEnvValues, ErrConfig)
		}
		p *= s
	}
	return nil
}

// formatProduct writes sizes as "2·3·4".
func formatProduct(sizes []int) string {
	s := ""
	for k, v := range sizes {
		if k > 0 {
			s += "·"
		}
		s += strconv.Itoa(v)
	}
	return s
}

// checkEpisodeLength returns an error wrapping ErrConfig if steps exceeds
// MaxEpisodeLength.
func checkEpisodeLength(env string, steps int) error {
	if steps > MaxEpisodeLength {
		return fmt.Errorf("simulate: %s: episode length %d above MaxEpisodeLength = %d: %w", env, steps, MaxEpisodeLength, ErrConfig)
	}
	return nil
}

// nilEnv reports whether env is nil or a nil pointer.
func nilEnv(env Env) bool { return isNil(env) }

// isNil reports whether x is nil or holds a nil pointer, map, slice or
// func (a typed nil, whose methods would panic with a nil dereference).
func isNil(x any) bool {
	if x == nil {
		return true
	}
	switch v := reflect.ValueOf(x); v.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Func, reflect.Interface, reflect.Chan:
		return v.IsNil()
	}
	return false
}

// errNilEnv is the error of the functions that take an environment when it
// is nil.
func errNilEnv(fn string) error {
	return fmt.Errorf("simulate: %s: nil environment: %w", fn, ErrConfig)
}

// checkElement panics with a "simulate: " message if b is not a batch
// element of an environment named env with batch elements.
func checkElement(env string, b, batch int) {
	if b < 0 || b >= batch {
		panic(fmt.Sprintf("simulate: %s: batch element %d outside [0, %d)", env, b, batch))
	}
}
