package simulate

import (
	"fmt"
	"math"
	"strconv"

	"github.com/hetgain/hetgain/aggregators"
)

// Constants of Multi-goal-capture, as in the paper's VMAS scenario.
const (
	CaptureRadius     = 0.05 // agent radius; a goal is covered by an agent closer than this
	CaptureDt         = 0.1  // seconds per step
	CaptureSubsteps   = 2    // physics substeps per step
	CaptureDrag       = 0.25 // default drag
	CaptureForce      = 1.0  // default force multiplier (actions in [-1,1]^2 times this)
	CaptureXBound     = 1.4  // positions are clamped to [-1.4, 1.4] x [-1.2, 1.2]
	CaptureYBound     = 1.2
	CaptureGoalX      = 1.1 // default x of the goals
	CaptureAgentGap   = 0.15
	CaptureGoalGap    = 0.8
	CaptureBonus      = 0.01 // added to a step's reward when every goal is covered
	CaptureLength     = 100  // default episode length
	CaptureRays       = 12   // default number of range-sensor rays
	CaptureCollision  = 500.0
	CaptureContactGap = 1e-3
	captureMaxTries   = 200 // draws per entity before a spawn attempt restarts
	captureRestarts   = 100 // spawn attempts before Reset fails
)

// CaptureConfig configures Multi-goal-capture. Zero fields take the
// defaults given; the physical parameters (drag, force, goal positions,
// sensor range) are set with SetParams.
type CaptureConfig struct {
	// Batch is B, at least 1.
	Batch int
	// Agents and Goals are N and M (default 2 each).
	Agents, Goals int
	// Reward is R = U(T(...)) over the N x M effort matrix (required).
	Reward *aggregators.Reward
	// EpisodeLength is the number of steps (default 100).
	EpisodeLength int
	// Sensor adds a range sensor that sees other agents: SensorRays rays
	// (default 12), evenly spaced from angle 0, each reading the distance
	// to the nearest other agent along the ray, or the range when none is
	// within it. The range is the parameter "sensor.range" (default 0.35).
	Sensor     bool
	SensorRays int
	// Collisions enables the contact forces of VMAS between agents
	// (force 500 · softplus penetration with margin 1e-3, applied while
	// two agents overlap). They are off by default: the reference notes
	// do not say whether the paper's scenario has them.
	Collisions bool
	// FixedGoals, if not nil, holds the flat [M][2] goal positions used in
	// every episode instead of random ones; they become the parameters
	// "goal0.x", "goal0.y", ... Otherwise goals spawn at x = "goal.x" with
	// random y.
	FixedGoals []float64
}

// Capture is Multi-goal-capture: N holonomic point-mass agents (radius
// 0.05, mass 1) push themselves with 2-D forces towards M goals. It follows
// the VMAS physics of the paper's scenario: each step has 2 substeps of
// length dt/2 = 0.05; at the first substep the velocity is multiplied by
// 1 - drag; at each substep v += F dt/2 and p += v dt/2, with F the action
// (clamped into [-1,1]^2) times "force". Like VMAS, positions are clamped
// into the world [-1.4, 1.4] x [-1.2, 1.2] after each substep and the
// velocity is left unchanged (an agent pushing into a wall stays on it).
//
// Spawn: agents at x in [-1.2, -1.0], y in [-1, 1], at least 0.15 apart;
// goals at x = 1.1, y in [-1, 1], at least 0.8 apart (so at most 3 goals).
// Positions are drawn by rejection sampling (200 draws per entity, 100
// restarts). Should that fail, as it does now and then for 20 agents or
// more, they go to distinct random nodes of the square lattice of spacing
// 0.15 (or 0.8) over the spawn area, which holds 28 agents and 3 goals;
// NewCapture refuses more (goals beyond 3 need FixedGoals).
//
// Observation of agent i: its position (2), velocity (2), position minus
// each goal's position (2M), and the range readings if the sensor is on.
//
// Effort: r_ij = (1 - d_ij / sum_k d_ik) / (M-1) with d_ij the distance of
// agent i to goal j, so rows sum to 1 (for M = 1, r_i1 = 1; if every d_ij
// is 0, the row is uniform). Reward of a step, computed after the physics:
// R(A)/10, plus 0.01 if every goal has an agent closer than the agent
// radius. An episode lasts EpisodeLength steps (default 100).
//
// Capture is a DifferenceRewarder: agent i's difference reward is the
// step's reward with R(A) replaced by R(A) - R(A_{-i}), A_{-i} the
// efforts with its row set to zero; the covering bonus stays shared.
//
// Parameters θ: the reward's "U.t", "T.t" (or "T0.t", ...), "drag"
// (default 0.25, in [0, 1]), "force" (default 1, in [0, MaxPhysical]),
// "goal.x" (default 1.1) or, with FixedGoals, "goal0.x", "goal0.y", ...
// (in the world's box), and "sensor.range" (default 0.35, in
// [0, MaxPhysical]) with the sensor.
type Capture struct {
	cfg         CaptureConfig
	b, n, m, od int
	rays        int
	length      int
	base        int
	reward      aggregators.Reward
	fn          rewardFn

	drag, force, goalX, sensorRange float64
	fixedGoals                      []float64

	pos, vel, goal []float64 // [B][N][2], [B][N][2], [B][M][2]
	obs, eff, rew  []float64
	done           []bool
	steps          int
	started        bool

	diff differenceRewards // of the last step, computed when read

	// next state, committed when a step succeeds
	posN, velN, obsN, effN, rewN []float64
	// per-element scratch
	p, v, f, d []float64
	cos, sin   []float64
	walls      int // wall clamps met by ReturnGradient (for tests)
	captures   int // steps with the capture bonus in ReturnGradient (for tests)
}

// NewCapture returns Multi-goal-capture configured by cfg (copied). It
// returns an error wrapping ErrConfig if a size is below 1, more agents or
// goals than the spawn area holds, an episode longer than
// MaxEpisodeLength, B·N·ObsDim above MaxEnvValues, or an invalid reward or
// fixed goal.
func NewCapture(cfg CaptureConfig) (*Capture, error) {
	if cfg.Agents == 0 {
		cfg.Agents = 2
	}
	if cfg.Goals == 0 {
		cfg.Goals = 2
	}
	if cfg.EpisodeLength == 0 {
		cfg.EpisodeLength = CaptureLength
	}
	if cfg.SensorRays == 0 {
		cfg.SensorRays = CaptureRays
	}
	if cfg.Batch < 1 || cfg.Agents < 1 || cfg.Goals < 1 || cfg.EpisodeLength < 1 || cfg.SensorRays < 1 {
		return nil, fmt.Errorf("simulate: capture with batch %d, %d agents, %d goals, episode length %d, %d rays (need all >= 1): %w",
			cfg.Batch, cfg.Agents, cfg.Goals, cfg.EpisodeLength, cfg.SensorRays, ErrConfig)
	}
	if err := checkEpisodeLength("capture", cfg.EpisodeLength); err != nil {
		return nil, err
	}
	// Fail now, not at some Reset, when the spawn rules cannot be met.
	if most := CaptureMaxAgents(); cfg.Agents > most {
		return nil, fmt.Errorf("simulate: capture: %d agents, at most %d fit %v apart in the spawn area: %w",
			cfg.Agents, most, CaptureAgentGap, ErrConfig)
	}
	if most := CaptureMaxGoals(); cfg.FixedGoals == nil && cfg.Goals > most {
		return nil, fmt.Errorf("simulate: capture: %d goals, at most %d fit %v apart on their line (or give FixedGoals): %w",
			cfg.Goals, most, CaptureGoalGap, ErrConfig)
	}
	rays := 0
	if cfg.Sensor {
		rays = cfg.SensorRays
	}
	// M and the rays alone first, so that ObsDim = 4 + 2M + rays cannot
	// overflow; B·N·ObsDim then bounds B·N·M too.
	if err := checkEnvValues("capture", "M", cfg.Goals); err != nil {
		return nil, err
	}
	if err := checkEnvValues("capture", "SensorRays", rays); err != nil {
		return nil, err
	}
	if err := checkEnvValues("capture", "B·N·ObsDim", cfg.Batch, cfg.Agents, 4+2*cfg.Goals+rays); err != nil {
		return nil, err
	}
	rc, err := copyReward(cfg.Reward, cfg.Goals)
	if err != nil {
		return nil, err
	}
	if cfg.Goals <= 2 { // with more goals an effort is at most 1/(M−1)
		if err := probeReward(rc, cfg.Agents, cfg.Goals, ErrConfig); err != nil {
			return nil, fmt.Errorf("simulate: capture: %w", err)
		}
	}
	c := &Capture{cfg: cfg, b: cfg.Batch, n: cfg.Agents, m: cfg.Goals, length: cfg.EpisodeLength, reward: rc}
	c.cfg.Reward = nil
	c.drag, c.force, c.goalX, c.sensorRange = CaptureDrag, CaptureForce, CaptureGoalX, 0.35
	if cfg.FixedGoals != nil {
		if len(cfg.FixedGoals) != 2*c.m {
			return nil, fmt.Errorf("simulate: %d fixed goal coordinates for %d goals (want %d): %w",
				len(cfg.FixedGoals), c.m, 2*c.m, ErrConfig)
		}
		for k, v := range cfg.FixedGoals {
			if err := checkGoalCoordinate(k%2, v); err != nil {
				return nil, fmt.Errorf("simulate: fixed goal coordinate %d is %v, %v: %w", k, v, err, ErrConfig)
			}
		}
		c.fixedGoals = append([]float64(nil), cfg.FixedGoals...)
		c.cfg.FixedGoals = nil
	}
	if cfg.Sensor {
		c.rays = cfg.SensorRays
		c.cos, c.sin = make([]float64, c.rays), make([]float64, c.rays)
		for k := 0; k < c.rays; k++ {
			a := 2 * math.Pi * float64(k) / float64(c.rays)
			c.cos[k], c.sin[k] = math.Cos(a), math.Sin(a)
		}
	}
	c.od = 4 + 2*c.m + c.rays
	c.fn = newRewardFn(&c.reward, c.n, c.m)
	B, N, M := c.b, c.n, c.m
	c.pos, c.vel, c.goal = make([]float64, B*N*2), make([]float64, B*N*2), make([]float64, B*M*2)
	c.posN, c.velN = make([]float64, B*N*2), make([]float64, B*N*2)
	c.obs, c.obsN = make([]float64, B*N*c.od), make([]float64, B*N*c.od)
	c.eff, c.effN = make([]float64, B*N*M), make([]float64, B*N*M)
	c.rew, c.rewN = make([]float64, B), make([]float64, B)
	c.diff = newDifferenceRewards(B, N, M)
	c.done = make([]bool, B)
	c.p, c.v, c.f, c.d = make([]float64, 2*N), make([]float64, 2*N), make([]float64, 2*N), make([]float64, N*M)
	return c, nil
}

// Name returns "capture".
func (c *Capture) Name() string { return "capture" }

// Batch returns B.
func (c *Capture) Batch() int { return c.b }

// Agents returns N.
func (c *Capture) Agents() int { return c.n }

// Tasks returns M, the number of goals.
func (c *Capture) Tasks() int { return c.m }

// ObsDim returns 4 + 2M, plus the number of rays with the sensor.
func (c *Capture) ObsDim() int { return c.od }

// EpisodeLength returns the number of steps of an episode.
func (c *Capture) EpisodeLength() int { return c.length }

// Config returns the configuration (without the reward; see TeamReward).
func (c *Capture) Config() CaptureConfig {
	cfg := c.cfg
	cfg.FixedGoals = append([]float64(nil), c.fixedGoals...)
	return cfg
}

// ActionSpace returns the box [-1, 1]^2 of 2-D forces.
func (c *Capture) ActionSpace() Space {
	return Space{Dim: 2, Low: []float64{-1, -1}, High: []float64{1, 1}}
}

// TeamReward returns a copy of the current reward R (with the current
// parameters), for evaluating it on Effort() through package aggregators.
// Its Budget is 1, the largest row sum of an effort matrix, whatever
// Budget the configured reward had.
func (c *Capture) TeamReward() *aggregators.Reward {
	return effortReward(&c.reward, 1)
}

func goalName(j int, axis string) string { return "goal" + strconv.Itoa(j) + "." + axis }

// Params returns θ.
func (c *Capture) Params() Params {
	p := Params{}
	for _, n := range rewardParamNames(&c.reward) {
		op, _, _ := rewardOperator(&c.reward, n)
		p.Names, p.Values = append(p.Names, n), append(p.Values, op.Param())
	}
	p.Names, p.Values = append(p.Names, "drag", "force"), append(p.Values, c.drag, c.force)
	if c.fixedGoals != nil {
		for j := 0; j < c.m; j++ {
			p.Names = append(p.Names, goalName(j, "x"), goalName(j, "y"))
			p.Values = append(p.Values, c.fixedGoals[2*j], c.fixedGoals[2*j+1])
		}
	} else {
		p.Names, p.Values = append(p.Names, "goal.x"), append(p.Values, c.goalX)
	}
	if c.rays > 0 {
		p.Names, p.Values = append(p.Names, "sensor.range"), append(p.Values, c.sensorRange)
	}
	return p
}

// SetParams sets the named parameters (all or nothing). Goal positions
// take effect at the next Reset; the others at once.
func (c *Capture) SetParams(p Params) error {
	if err := checkParamList("capture", p); err != nil {
		return err
	}
	r := c.reward
	drag, force, gx, sr := c.drag, c.force, c.goalX, c.sensorRange
	fixed := append([]float64(nil), c.fixedGoals...)
	for k, name := range p.Names {
		v := p.Values[k]
		bad := func(dom string) error {
			return fmt.Errorf("simulate: capture: parameter %q = %v outside %s: %w", name, v, dom, ErrParam)
		}
		if math.IsNaN(v) {
			return fmt.Errorf("simulate: capture: parameter %q is NaN: %w", name, ErrParam)
		}
		switch {
		case name == "drag":
			if v < 0 || v > 1 {
				return bad("[0, 1]")
			}
			drag = v
		case name == "force":
			if v < 0 || v > MaxPhysical {
				return bad(fmt.Sprintf("[0, %g]", MaxPhysical))
			}
			force = v
		case name == "goal.x" && c.fixedGoals == nil:
			if math.Abs(v) > CaptureXBound {
				return bad("[-1.4, 1.4]")
			}
			gx = v
		case name == "sensor.range" && c.rays > 0:
			if v < 0 || v > MaxPhysical {
				return bad(fmt.Sprintf("[0, %g]", MaxPhysical))
			}
			sr = v
		default:
			if j, axis, ok := c.goalParam(name); ok {
				if err := checkGoalCoordinate(axis, v); err != nil {
					return bad(err.Error())
				}
				fixed[2*j+axis] = v
				continue
			}
			var err error
			if r, err = withRewardParam(r, name, v); err != nil {
				return fmt.Errorf("simulate: capture: %w (parameters: %v)", err, c.Params().Names)
			}
		}
	}
	if c.m <= 2 {
		if err := probeReward(r, c.n, c.m, ErrParam); err != nil {
			return fmt.Errorf("simulate: capture: %v: %w", p, err)
		}
	}
	c.reward, c.drag, c.force, c.goalX, c.sensorRange = r, drag, force, gx, sr
	if c.fixedGoals != nil {
		c.fixedGoals = fixed
	}
	c.fn = newRewardFn(&c.reward, c.n, c.m)
	return nil
}

// checkGoalCoordinate returns an error describing the world's extent on
// axis (0 for x, 1 for y) if v lies outside it.
func checkGoalCoordinate(axis int, v float64) error {
	bound := [2]float64{CaptureXBound, CaptureYBound}[axis]
	if !(math.Abs(v) <= bound) {
		return fmt.Errorf("outside the world's [%v, %v]", -bound, bound)
	}
	return nil
}

// goalParam parses "goal<j>.x" or "goal<j>.y" for fixed goals.
func (c *Capture) goalParam(name string) (j, axis int, ok bool) {
	if c.fixedGoals == nil {
		return 0, 0, false
	}
	for j := 0; j < c.m; j++ {
		switch name {
		case goalName(j, "x"):
			return j, 0, true
		case goalName(j, "y"):
			return j, 1, true
		}
	}
	return 0, 0, false
}

func (c *Capture) elementBase() int { return c.base }

// CaptureMaxAgents returns the most agents NewCapture places: the nodes
// of its spawn area, CaptureAgentGap apart.
func CaptureMaxAgents() int { return captureAgentArea.nodes() }

// CaptureMaxGoals returns the most goals NewCapture places without
// FixedGoals: the nodes of their line, CaptureGoalGap apart.
func CaptureMaxGoals() int { return captureGoalLine.nodes() }

var (
	captureAgentArea = spawnArea{-1.2, -1.0, -1, 1, CaptureAgentGap}
	captureGoalLine  = spawnArea{0, 0, -1, 1, CaptureGoalGap} // at x = "goal.x"
)

// spawn places the agents and goals of batch element b. It cannot fail for
// the numbers of agents and goals NewCapture accepts.
func (c *Capture) spawn(seed int64, b int) error {
	r := newRNG(seed, c.base+b, streamSpawn)
	N, M := c.n, c.m
	pos, goal := c.pos[b*N*2:(b+1)*N*2], c.goal[b*M*2:(b+1)*M*2]
	if !placeApart(&r, pos, N, captureAgentArea) {
		return fmt.Errorf("simulate: capture: cannot place %d agents at least %v apart in [-1.2,-1]x[-1,1]: %w",
			N, CaptureAgentGap, ErrConfig)
	}
	if c.fixedGoals != nil {
		copy(goal, c.fixedGoals)
	} else if !placeApart(&r, goal, M, captureGoalLine.at(c.goalX)) {
		return fmt.Errorf("simulate: capture: cannot place %d goals at least %v apart on x = %v, y in [-1,1]: %w",
			M, CaptureGoalGap, c.goalX, ErrConfig)
	}
	for k := range c.vel[b*N*2 : (b+1)*N*2] {
		c.vel[b*N*2+k] = 0
	}
	return nil
}

// Reset spawns every batch element from seed.
func (c *Capture) Reset(seed int64) error {
	for b := 0; b < c.b; b++ {
		if err := c.spawn(seed, b); err != nil {
			return err
		}
	}
	for k := range c.eff {
		c.eff[k] = 0
	}
	for b := range c.rew {
		c.rew[b] = 0
		c.done[b] = false
	}
	c.diff.reset()
	for b := 0; b < c.b; b++ {
		c.observe(b, c.pos, c.vel, c.obs)
	}
	c.steps = 0
	c.started = true
	return nil
}

// Step applies the flat [B][N][2] force actions, clamped into [-1,1]^2.
func (c *Capture) Step(actions []float64) error {
	if !c.started {
		return fmt.Errorf("simulate: capture: Step before Reset: %w", ErrNotReset)
	}
	if c.steps >= c.length {
		return fmt.Errorf("simulate: capture: Step after the end of the episode (%d steps): %w", c.length, ErrDone)
	}
	if len(actions) != c.b*c.n*2 {
		return checkActions("capture", c.ActionSpace(), c.b, c.n, actions)
	}
	for _, a := range actions {
		if a-a != 0 {
			return checkActions("capture", c.ActionSpace(), c.b, c.n, actions)
		}
	}
	N := c.n
	for b := 0; b < c.b; b++ {
		p, v := c.p, c.v
		copy(p, c.pos[b*N*2:(b+1)*N*2])
		copy(v, c.vel[b*N*2:(b+1)*N*2])
		c.physics(p, v, actions[b*N*2:(b+1)*N*2])
		copy(c.posN[b*N*2:(b+1)*N*2], p)
		copy(c.velN[b*N*2:(b+1)*N*2], v)
		r, err := c.score(b, c.posN, c.effN)
		if err != nil {
			return fmt.Errorf("simulate: capture: batch %d: %w", b, err)
		}
		c.rewN[b] = r
		c.observe(b, c.posN, c.velN, c.obsN)
	}
	c.pos, c.posN = c.posN, c.pos
	c.vel, c.velN = c.velN, c.vel
	c.obs, c.obsN = c.obsN, c.obs
	c.eff, c.effN = c.effN, c.eff
	c.rew, c.rewN = c.rewN, c.rew
	c.diff.invalidate()
	c.steps++
	if c.steps >= c.length {
		for b := range c.done {
			c.done[b] = true
		}
	}
	return nil
}

func clamp1(a float64) float64 {
	if a < -1 {
		return -1
	}
	if a > 1 {
		return 1
	}
	return a
}

// physics advances one element's positions p and velocities v ([N][2]) by
// one step under the actions a ([N][2]).
func (c *Capture) physics(p, v, a []float64) {
	N := c.n
	sdt := CaptureDt / CaptureSubsteps
	keep := 1 - c.drag
	f := c.f[:2*N]
	p, v, a = p[:2*N], v[:2*N], a[:2*N]
	for s := 0; s < CaptureSubsteps; s++ {
		if s == 0 || c.cfg.Collisions {
			for k := range f {
				f[k] = clamp1(a[k]) * c.force
			}
			if c.cfg.Collisions {
				c.contactForces(p, f)
			}
		}
		for i := 0; i < N; i++ {
			vx, vy := v[2*i], v[2*i+1]
			if s == 0 {
				vx, vy = vx*keep, vy*keep
			}
			vx, vy = vx+f[2*i]*sdt, vy+f[2*i+1]*sdt
			x, y := p[2*i]+vx*sdt, p[2*i+1]+vy*sdt
			if x < -CaptureXBound {
				x = -CaptureXBound
			} else if x > CaptureXBound {
				x = CaptureXBound
			}
			if y < -CaptureYBound {
				y = -CaptureYBound
			} else if y > CaptureYBound {
				y = CaptureYBound
			}
			v[2*i], v[2*i+1], p[2*i], p[2*i+1] = vx, vy, x, y
		}
	}
}

// contactForces adds the VMAS agent-agent contact forces to f.
func (c *Capture) contactForces(p, f []float64) {
	N := c.n
	dmin := 2 * CaptureRadius
	for i := 0; i < N; i++ {
		for j := i + 1; j < N; j++ {
			dx, dy := p[2*i]-p[2*j], p[2*i+1]-p[2*j+1]
			dist := math.Sqrt(dx*dx + dy*dy)
			if dist > dmin || dist < 1e-6 {
				continue
			}
			pen := softplus((dmin-dist)/CaptureContactGap) * CaptureContactGap
			s := CaptureCollision * pen / dist
			f[2*i] += s * dx
			f[2*i+1] += s * dy
			f[2*j] -= s * dx
			f[2*j+1] -= s * dy
		}
	}
}

// softplus is log(1 + e^x), as torch.logaddexp(0, x).
func softplus(x float64) float64 {
	if x > 0 {
		return x + math.Log1p(math.Exp(-x))
	}
	return math.Log1p(math.Exp(x))
}

func sigmoid(x float64) float64 {
	if x >= 0 {
		return 1 / (1 + math.Exp(-x))
	}
	e := math.Exp(x)
	return e / (1 + e)
}

// captureEfforts fills the effort row r from the distances d of one agent.
func captureEfforts(d, r []float64) {
	m := len(d)
	if m == 1 {
		r[0] = 1
		return
	}
	s := 0.0
	for _, v := range d {
		s += v
	}
	if !(s > 0) {
		for j := range r {
			r[j] = 1 / float64(m)
		}
		return
	}
	inv, invS := 1/float64(m-1), 1/s
	for j, v := range d {
		// max: v/s rounded up past 1 must not give a negative effort.
		r[j] = max(0, 1-v*invS) * inv
	}
}

// score computes the efforts of element b from positions pos into eff and
// returns the step's reward.
func (c *Capture) score(b int, pos, eff []float64) (float64, error) {
	N, M := c.n, c.m
	p := pos[b*N*2 : (b+1)*N*2]
	g := c.goal[b*M*2 : (b+1)*M*2]
	e := eff[b*N*M : (b+1)*N*M]
	d := c.d
	for i := 0; i < N; i++ {
		for j := 0; j < M; j++ {
			dx, dy := p[2*i]-g[2*j], p[2*i+1]-g[2*j+1]
			d[i*M+j] = math.Sqrt(dx*dx + dy*dy)
		}
		captureEfforts(d[i*M:(i+1)*M], e[i*M:(i+1)*M])
	}
	r, err := c.fn.value(e)
	if err != nil {
		return r, err
	}
	return r/10 + c.bonus(d), nil
}

// bonus returns 0.01 if every goal has an agent closer than the radius.
func (c *Capture) bonus(d []float64) float64 {
	N, M := c.n, c.m
	for j := 0; j < M; j++ {
		covered := false
		for i := 0; i < N; i++ {
			if d[i*M+j] < CaptureRadius {
				covered = true
				break
			}
		}
		if !covered {
			return 0
		}
	}
	return CaptureBonus
}

// observe writes the observations of element b from positions and
// velocities into obs.
func (c *Capture) observe(b int, pos, vel, obs []float64) {
	N, M, od := c.n, c.m, c.od
	p := pos[b*N*2 : (b+1)*N*2]
	v := vel[b*N*2 : (b+1)*N*2]
	g := c.goal[b*M*2 : (b+1)*M*2]
	for i := 0; i < N; i++ {
		o := obs[(b*N+i)*od : (b*N+i+1)*od]
		px, py := p[2*i], p[2*i+1]
		o[0], o[1], o[2], o[3] = px, py, v[2*i], v[2*i+1]
		for j := 0; j < M; j++ {
			o[4+2*j], o[5+2*j] = px-g[2*j], py-g[2*j+1]
		}
		if c.rays > 0 {
			c.scan(p, i, o[4+2*M:])
		}
	}
}

// scan writes the range readings of agent i, as ray for every ray, but
// skipping the agents too far away for any ray to reach.
func (c *Capture) scan(p []float64, i int, out []float64) {
	rng := c.sensorRange
	for k := range out {
		out[k] = rng
	}
	ox, oy := p[2*i], p[2*i+1]
	r2 := CaptureRadius * CaptureRadius
	for j := 0; j < c.n; j++ {
		if j == i {
			continue
		}
		ux, uy := p[2*j]-ox, p[2*j+1]-oy
		u2 := ux*ux + uy*uy
		// Every hit is at least |u| - radius away.
		if reach := rng + CaptureRadius; u2 >= reach*reach {
			continue
		}
		for k := range out {
			proj := ux*c.cos[k] + uy*c.sin[k]
			if !(proj > 0) {
				continue
			}
			perp2 := u2 - proj*proj
			if !(perp2 < r2) {
				continue
			}
			if dist := proj - math.Sqrt(r2-perp2); dist < out[k] {
				out[k] = dist
			}
		}
	}
}

// ray returns the reading of ray k of agent i, as VMAS's Lidar: the
// distance along the ray to the nearest other agent's circle whose centre
// lies in front (projection > 0) and which the ray's line crosses, capped
// at the range; and the index of that agent (-1 if none is within range).
func (c *Capture) ray(p []float64, i, k int) (float64, int) {
	best, hit := c.sensorRange, -1
	ox, oy := p[2*i], p[2*i+1]
	dx, dy := c.cos[k], c.sin[k]
	r2 := CaptureRadius * CaptureRadius
	for j := 0; j < c.n; j++ {
		if j == i {
			continue
		}
		ux, uy := p[2*j]-ox, p[2*j+1]-oy
		proj := ux*dx + uy*dy
		if !(proj > 0) {
			continue
		}
		perp2 := ux*ux + uy*uy - proj*proj
		if !(perp2 < r2) {
			continue
		}
		dist := proj - math.Sqrt(r2-perp2)
		if dist < best {
			best, hit = dist, j
		}
	}
	return best, hit
}

// Obs returns the flat [B][N][ObsDim] observations.
func (c *Capture) Obs() []float64 { return c.obs }

// Reward returns the [B] rewards of the last step.
func (c *Capture) Reward() []float64 { return c.rew }

// Effort returns the flat [B][N][M] efforts of the last step.
func (c *Capture) Effort() []float64 { return c.eff }

// DifferenceRewards returns the flat [B][N] difference rewards of the last
// step (zeros after Reset): agent i's is (R(A) - R(A_{-i}))/10 plus the
// covering bonus, the step's reward with R(A) replaced by R(A) - R(A_{-i}),
// A_{-i} the efforts with agent i's row set to zero. The bonus stays
// shared: it pays for a state of the whole team. They are computed at the
// first call after a Step (N evaluations of the reward per batch element,
// with the reward's parameters at that call), so training on the team
// reward alone does not pay for them. A reward that cannot be evaluated
// without an agent gives NaN, which learners report.
func (c *Capture) DifferenceRewards() []float64 {
	return c.diff.values(&c.fn, c.eff, 0.1, func(b, _ int) float64 { return c.rew[b] })
}

// Done reports whether each element's episode has ended.
func (c *Capture) Done() []bool { return c.done }

// AgentPositions returns the flat [N][2] agent positions of element b.
// It panics if b is outside [0, Batch()).
func (c *Capture) AgentPositions(b int) []float64 {
	checkElement("capture", b, c.b)
	return append([]float64(nil), c.pos[b*c.n*2:(b+1)*c.n*2]...)
}

// AgentVelocities returns the flat [N][2] agent velocities of element b.
// It panics if b is outside [0, Batch()).
func (c *Capture) AgentVelocities(b int) []float64 {
	checkElement("capture", b, c.b)
	return append([]float64(nil), c.vel[b*c.n*2:(b+1)*c.n*2]...)
}

// TaskPositions returns the flat [M][2] goal positions of element b.
// It panics if b is outside [0, Batch()).
func (c *Capture) TaskPositions(b int) []float64 {
	checkElement("capture", b, c.b)
	return append([]float64(nil), c.goal[b*c.m*2:(b+1)*c.m*2]...)
}

// SeekerPolicy returns a reference LinearTanh policy for this environment:
// act = tanh(-gain (p - g) - damping v + sigma noise), steering towards a
// goal g. With homogeneous false, agent i heads for goal i mod M (a team of
// specialists); with homogeneous true, every agent shares one policy that
// heads for the mean of the goals (the best that identical, goal-relative
// agents without sensing can agree on under U = min, T = max).
func (c *Capture) SeekerPolicy(gain, damping, sigma float64, homogeneous bool) LinearTanh {
	od, M := c.od, c.m
	build := func(goals []int) ([]float64, []float64) {
		w := make([]float64, 2*od)
		for cc := 0; cc < 2; cc++ {
			w[cc*od+2+cc] = -damping
			for _, j := range goals {
				w[cc*od+4+2*j+cc] = -gain / float64(len(goals))
			}
		}
		return w, make([]float64, 2)
	}
	p := LinearTanh{Sigma: sigma, Scale: 1}
	if homogeneous {
		all := make([]int, M)
		for j := range all {
			all[j] = j
		}
		w, b := build(all)
		p.W, p.B = [][]float64{w}, [][]float64{b}
		return p
	}
	for i := 0; i < c.n; i++ {
		w, b := build([]int{i % M})
		p.W, p.B = append(p.W, w), append(p.B, b)
	}
	return p
}
