package simulate

import (
	"fmt"
	"math"

	"github.com/hetgain/hetgain/aggregators"
)

// Constants of Tag. The radii, world, time step and drag follow the paper's
// 2v2 Tag scenario; the speed caps, obstacle radius and the 3:4 ratio of
// the forces are those of the VMAS/MPE tag scenario (simple_tag), the
// forces scaled to the paper's dt and drag (see Tag); the spawn rules and
// the escaper heuristic are this package's.
const (
	TagChaserRadius   = 0.075 // radius of a chaser (a learning agent)
	TagEscaperRadius  = 0.05  // radius of an escaper (a heuristic agent)
	TagBound          = 1.0   // agent centres are clamped into [-1, 1]^2
	TagDt             = 0.05  // seconds per step
	TagSubsteps       = 2     // physics substeps per step
	TagDrag           = 0.45  // default drag (parameter "drag")
	TagChaserForce    = 10.8  // default chaser force multiplier ("force")
	TagEscaperForce   = 14.4  // default escaper force multiplier ("escaper.force")
	TagChaserSpeed    = 1.0   // default chaser speed cap ("chaser.speed")
	TagEscaperSpeed   = 1.3   // default escaper speed cap ("escaper.speed")
	TagObstacleRadius = 0.2   // default obstacle radius ("obstacle.radius")
	TagMaxObstacle    = 0.35  // largest obstacle radius accepted
	TagShaping        = 0.1   // default weight of the distance term ("shaping")
	TagPenalty        = 0.01  // default collision penalty ("penalty")
	TagLength         = 100   // default episode length
	TagObstacles      = 2     // default number of obstacles

	// Spawn rules: obstacle centres uniform in [-0.7, 0.7]^2, at least 0.6
	// apart; agent centres uniform in [-0.9, 0.9]^2, pairwise at least 0.25
	// apart and at least 0.45 from every obstacle centre.
	TagObstacleSpan   = 0.7
	TagObstacleGap    = 0.6
	TagSpawnSpan      = 0.9
	TagAgentGap       = 0.25
	TagSpawnClearance = 0.45
)

// Weights of the escaper heuristic (see Tag).
const (
	tagFlee   = 0.4  // repulsion from a chaser at distance d: 0.4/d
	tagCentre = 0.5  // spring towards the centre
	tagWall   = 2.0  // wall repulsion at contact
	tagAvoid  = 1.0  // obstacle repulsion at contact
	tagReach  = 0.15 // decay length of the wall and obstacle repulsions
)

// tagWallC is tagWall · exp(-TagBound/tagReach).
var tagWallC = tagWall * math.Exp(-TagBound/tagReach)

// TagConfig configures Tag. Zero fields take the defaults given; the
// physical parameters are set with SetParams.
type TagConfig struct {
	// Batch is B, at least 1.
	Batch int
	// Chasers is N, the number of learning agents (default 2); Escapers
	// is M, the number of heuristic escapers, the tasks (default 2).
	Chasers, Escapers int
	// Obstacles is the number of static disc obstacles (default 2); set
	// NoObstacles for an open field.
	Obstacles   int
	NoObstacles bool
	// Reward is R = U(T(...)) over the N x M capture matrix (required).
	// Rows of a capture matrix may sum to more than 1 (a chaser touching
	// two escapers); Reward.Budget is not applied.
	Reward *aggregators.Reward
	// EpisodeLength is the number of steps (default 100).
	EpisodeLength int
	// PerStep makes r_ij = 1 only at the steps at which chaser i touches
	// escaper j. By default a capture is kept: r_ij = 1 from the step
	// chaser i first touches escaper j to the end of the episode (the
	// paper's "captured escaper j by time t").
	PerStep bool
}

// Tag is N learning chasers against M heuristic escapers among static disc
// obstacles, after the paper's 2v2 Tag (and 8v3 Tag, see Tag2v2 and
// Tag8v3), as written from the paper's text and the reference notes.
// TagVMAS is the same game as the paper's own scenario file defines it,
// which differs in what decides the game: there a chaser is held on the
// first escaper it catches, and the escapers are three to four times
// slower than the chasers, where Tag's escapers outrun its chasers. Chasers (radius 0.075, mass 1) and escapers (radius 0.05, mass
// 1) are holonomic point masses with the VMAS update of Capture: each step
// of dt = 0.05 has 2 substeps of dt/2; at the first substep the velocity is
// multiplied by 1 - drag; at each substep v += F dt/2, then, as VMAS's
// max_speed, v is scaled down to norm at most the agent's speed cap, then
// p += v dt/2; then obstacles push the agent out (below); then p is
// clamped into the world [-1, 1]^2 with the velocity unchanged (the wall
// wins over an obstacle that reaches within a diameter of it).
//
// Forces: a chaser's action (clamped into [-1,1]^2) times "force"
// (default 10.8); an escaper's heuristic direction u (|u| < 1) times
// "escaper.force" (default 14.4). Speed caps: "chaser.speed" 1 and
// "escaper.speed" 1.3, as in VMAS's tag, whose force multipliers 3 and 4
// give, at its dt 0.1 and drag 0.25, terminal speeds F dt / drag of 1.2
// and 1.6, so that the caps set the speeds. The defaults here are those
// multipliers times 3.6 = (0.45/0.05)/(0.25/0.1), which gives the same
// terminal speeds at the paper's dt and drag: chasers run at 1, escapers
// at up to 1.3, reached within a few steps. (VMAS's own multipliers at
// the paper's dt and drag would give 0.33 and 0.44, leaving 1.7 units of
// travel in a 100-step episode: scripted specialists then earn no more
// than scripted chasers of the nearest escaper under (min, max), about
// 0.3 per episode each on the capture reward alone, against 8.5 and 5.7
// at the defaults; TestTagForceMultipliers.)
//
// Obstacles are static discs of radius "obstacle.radius" (default 0.2, as
// VMAS's tag landmarks). VMAS resolves contacts with penalty forces; Tag
// projects instead: an agent whose centre ends a substep closer than
// obstacle radius + agent radius to an obstacle's centre is moved radially
// onto that circle and loses the inward normal component of its velocity
// (an inelastic contact). Agents do not collide with one another.
//
// Escaper heuristic (deterministic, computed from the state at the start
// of the step, like the chasers' observations): the direction
//
//	h = sum_i 0.4 (e - c_i)/|e - c_i|^2                  (flee every chaser)
//	  + sum_k exp(-(|e - o_k| - R - 0.05)/0.15) (e - o_k)/|e - o_k|    (obstacles)
//	  + 2 (exp(-(1 + x)/0.15) - exp(-(1 - x)/0.15), same for y)         (walls)
//	  - 0.5 e                                           (keep to the centre)
//
// is squashed to u = h / sqrt(1 + |h|^2), so that its norm is below 1. It
// is smooth in the positions and in the obstacle radius R (a chaser at the
// very position of the escaper, as when both are pinned in a corner, is
// left out of the sum).
//
// Spawn: obstacle centres uniform in [-0.7, 0.7]^2, at least 0.6 apart;
// then the N chasers and the M escapers uniform in [-0.9, 0.9]^2, pairwise
// at least 0.25 apart and at least 0.45 from every obstacle centre, at
// rest. Positions are drawn by rejection sampling (200 draws per entity,
// 100 restarts). Should that fail, as it does for crowded fields, they go
// to distinct random nodes of the square lattice of spacing 0.6 (obstacles)
// or 0.25 (agents, the nodes 0.45 clear of the obstacles) over the spawn
// area. That is sure to place 64 − 12·O chasers and escapers with O
// obstacles (40 with the default 2; an obstacle blocks at most 12 of the
// 64 nodes). NewTag refuses more than 9 obstacles or 64 chasers and
// escapers; with more than 64 − 12·O it tries one spawn and refuses the
// configuration if that fails, and a later Reset can still fail.
//
// Observation of chaser i (ObsDim 4 + 4M + 2(N-1) + 2O): its position (2)
// and velocity (2), then the positions relative to it (other minus own) of
// the M escapers, of the other N-1 chasers in index order, and of the O
// obstacles, then the velocities of the M escapers. (As in MPE's and
// VMAS's simple_tag, whose adversaries see the velocities of the agents
// they chase: without them a chaser cannot tell where a fleeing escaper
// is heading, and in one-seed probes of (min, max) over 1.6M frames the
// chasers trained with them scored about −3 (heterogeneous) and −5.2
// (homogeneous), without them −4.7 and −5.8.)
//
// Efforts: r_ij = 1 if chaser i has caught escaper j by this step, that is
// if it has been closer than 0.075 + 0.05 to it after the physics of some
// step of the episode so far, else 0 (with PerStep: if it is closer after
// this step's physics). Captured escapers keep running. Reward of a step:
//
//	-shaping · mean_i min_j |c_i - e_j| + R(A) - penalty · collisions
//
// with "shaping" 0.1 (the paper's 0.1 · (-distance to the nearest
// escaper), averaged over chasers; VMAS's simple_tag, whose chasers share
// their reward, sums the chasers' terms instead, which "shaping" 0.1·N
// reproduces) and "penalty" 0.01, where collisions
// counts the pairs of chasers that overlap after the step plus the chasers
// that an obstacle pushed out during the step. Tag is an AgentRewarder:
// chaser i's own reward is the same with its own distance min_j |c_i - e_j|
// in place of the mean over chasers (the paper's per-chaser form), so the
// team reward is their mean. Tag is a DifferenceRewarder too: chaser i's
// difference reward is its own reward with R(A) - R(A_{-i}) in place of
// R(A), A_{-i} the capture matrix without chaser i's captures.
//
// Parameters θ: the reward's "U.t", "T.t" (or "T0.t", ...), "drag" (in
// [0, 1]), "force", "escaper.force" (in [0, MaxPhysical]), "chaser.speed",
// "escaper.speed" (in (0, MaxPhysical]), "obstacle.radius" (in [0, 0.35], only with
// obstacles), "shaping" and "penalty" (in [0, MaxPhysical]). All take
// effect at once.
// ReturnGradient differentiates the return with respect to any of them.
//
// For plotting (Embodied), AgentPositions are the chasers' and
// TaskPositions the escapers'; ObstaclePositions and ObstacleRadius give
// the obstacles, which do not move during an episode. ChaserPolicy
// returns reference chaser teams (TagChaser).
type Tag struct {
	cfg                TagConfig
	b, n, m, o, od, ne int // ne = n + m entities: chasers first, then escapers
	length             int
	base               int
	reward             aggregators.Reward
	fn                 rewardFn

	drag, force, escForce, chaserSpeed, escSpeed float64
	obsRadius, shaping, penalty                  float64

	pos, vel      []float64 // [B][N+M][2]
	obst          []float64 // [B][O][2]
	obs, eff, rew []float64
	agentRew      []float64 // [B][N]: each chaser's own reward
	done          []bool
	steps         int
	started       bool

	diffRew differenceRewards // of the last step, computed when read

	// next state, committed when a step succeeds
	posN, velN, obsN, effN, rewN, agentRewN []float64
	// per-element scratch
	p, v, f []float64 // [N+M][2]
	pushed  []bool    // [N+M]: pushed out by an obstacle during the step
	// counters of non-smooth events met by ReturnGradient (for tests)
	walls, contacts, caps, captures int
}

// NewTag returns Tag configured by cfg (copied). It returns an error
// wrapping ErrConfig if a size is below 1 (obstacles below 0), if
// NoObstacles is set with a number of obstacles, if there are more
// obstacles or agents than the spawn rules place (see Tag), an episode
// longer than MaxEpisodeLength, B·N·ObsDim above MaxEnvValues, or an
// invalid reward.
func NewTag(cfg TagConfig) (*Tag, error) {
	if cfg.Chasers == 0 {
		cfg.Chasers = 2
	}
	if cfg.Escapers == 0 {
		cfg.Escapers = 2
	}
	if cfg.NoObstacles && cfg.Obstacles != 0 {
		return nil, fmt.Errorf("simulate: tag with NoObstacles and %d obstacles: set one of them: %w", cfg.Obstacles, ErrConfig)
	}
	if cfg.Obstacles == 0 && !cfg.NoObstacles {
		cfg.Obstacles = TagObstacles
	}
	if cfg.EpisodeLength == 0 {
		cfg.EpisodeLength = TagLength
	}
	if cfg.Batch < 1 || cfg.Chasers < 1 || cfg.Escapers < 1 || cfg.Obstacles < 0 || cfg.EpisodeLength < 1 {
		return nil, fmt.Errorf("simulate: tag with batch %d, %d chasers, %d escapers, %d obstacles, episode length %d (need batch, chasers, escapers, length >= 1 and obstacles >= 0): %w",
			cfg.Batch, cfg.Chasers, cfg.Escapers, cfg.Obstacles, cfg.EpisodeLength, ErrConfig)
	}
	if err := checkEpisodeLength("tag", cfg.EpisodeLength); err != nil {
		return nil, err
	}
	// Fail now, not at some Reset, when the spawn rules cannot be met:
	// always beyond the lattices' nodes; beyond what they are sure to
	// hold, when one spawn fails (below).
	maxO, maxE := tagObstacleArea.nodes(), tagAgentArea.nodes()
	if cfg.Obstacles > maxO || cfg.Chasers > maxE || cfg.Escapers > maxE || cfg.Chasers+cfg.Escapers > maxE {
		return nil, fmt.Errorf("simulate: tag: %d obstacles, %d chasers and %d escapers; at most %d obstacles and %d chasers and escapers fit: %w",
			cfg.Obstacles, cfg.Chasers, cfg.Escapers, maxO, maxE, ErrConfig)
	}
	if err := checkEnvValues("tag", "B·N·ObsDim", cfg.Batch, cfg.Chasers, 4+4*cfg.Escapers+2*(cfg.Chasers-1)+2*cfg.Obstacles); err != nil {
		return nil, err
	}
	rc, err := copyReward(cfg.Reward, cfg.Escapers)
	if err != nil {
		return nil, err
	}
	if err := probeTagReward(rc, cfg.Chasers, cfg.Escapers, ErrConfig); err != nil {
		return nil, fmt.Errorf("simulate: tag: %w", err)
	}
	g := &Tag{cfg: cfg, b: cfg.Batch, n: cfg.Chasers, m: cfg.Escapers, o: cfg.Obstacles, length: cfg.EpisodeLength, reward: rc}
	g.cfg.Reward = nil
	g.ne = g.n + g.m
	g.od = 4 + 4*g.m + 2*(g.n-1) + 2*g.o
	g.drag, g.force, g.escForce = TagDrag, TagChaserForce, TagEscaperForce
	g.chaserSpeed, g.escSpeed = TagChaserSpeed, TagEscaperSpeed
	g.obsRadius, g.shaping, g.penalty = TagObstacleRadius, TagShaping, TagPenalty
	g.fn = newRewardFn(&g.reward, g.n, g.m)
	B, N, M, E, O := g.b, g.n, g.m, g.ne, g.o
	g.pos, g.vel, g.obst = make([]float64, B*E*2), make([]float64, B*E*2), make([]float64, B*O*2)
	g.posN, g.velN = make([]float64, B*E*2), make([]float64, B*E*2)
	g.obs, g.obsN = make([]float64, B*N*g.od), make([]float64, B*N*g.od)
	g.eff, g.effN = make([]float64, B*N*M), make([]float64, B*N*M)
	g.rew, g.rewN = make([]float64, B), make([]float64, B)
	g.agentRew, g.agentRewN = make([]float64, B*N), make([]float64, B*N)
	g.diffRew = newDifferenceRewards(B, N, M)
	g.done = make([]bool, B)
	g.p, g.v, g.f = make([]float64, 2*E), make([]float64, 2*E), make([]float64, 2*E)
	g.pushed = make([]bool, E)
	if E > tagSureAgents(O) {
		if err := g.spawn(0, 0); err != nil {
			return nil, err
		}
	}
	return g, nil
}

// Tag2v2 returns the paper's 2v2 Tag: 2 chasers, 2 escapers, 2 obstacles,
// episodes of 100 steps, captures kept to the end of the episode.
func Tag2v2(batch int, reward *aggregators.Reward) (*Tag, error) {
	return NewTag(TagConfig{Batch: batch, Chasers: 2, Escapers: 2, Obstacles: 2, Reward: reward})
}

// Tag8v3 returns the paper's 8v3 Tag: 8 chasers, 3 escapers, 2 obstacles,
// and episodes of 1000 steps as in the paper's appendix (set
// EpisodeLength through NewTag for others).
func Tag8v3(batch int, reward *aggregators.Reward) (*Tag, error) {
	return NewTag(TagConfig{Batch: batch, Chasers: 8, Escapers: 3, Obstacles: 2, Reward: reward, EpisodeLength: 1000})
}

// Name returns "tag".
func (g *Tag) Name() string { return "tag" }

// Batch returns B.
func (g *Tag) Batch() int { return g.b }

// Agents returns N, the number of chasers.
func (g *Tag) Agents() int { return g.n }

// Tasks returns M, the number of escapers.
func (g *Tag) Tasks() int { return g.m }

// Obstacles returns the number of obstacles.
func (g *Tag) Obstacles() int { return g.o }

// ObsDim returns 4 + 4M + 2(N-1) + 2·Obstacles.
func (g *Tag) ObsDim() int { return g.od }

// EpisodeLength returns the number of steps of an episode.
func (g *Tag) EpisodeLength() int { return g.length }

// Config returns the configuration with its defaults filled in (without
// the reward; see TeamReward).
func (g *Tag) Config() TagConfig { return g.cfg }

// ActionSpace returns the box [-1, 1]^2 of chaser forces.
func (g *Tag) ActionSpace() Space {
	return Space{Dim: 2, Low: []float64{-1, -1}, High: []float64{1, 1}}
}

// TeamReward returns a copy of the current reward R (with the current
// parameters), for evaluating it on Effort() through package aggregators.
// Its Budget is +Inf: a chaser may touch several escapers, so a row of a
// capture matrix may sum to more than 1.
func (g *Tag) TeamReward() *aggregators.Reward {
	return effortReward(&g.reward, math.Inf(1))
}

// Params returns θ.
func (g *Tag) Params() Params {
	p := Params{}
	for _, n := range rewardParamNames(&g.reward) {
		op, _, _ := rewardOperator(&g.reward, n)
		p.Names, p.Values = append(p.Names, n), append(p.Values, op.Param())
	}
	p.Names = append(p.Names, "drag", "force", "escaper.force", "chaser.speed", "escaper.speed")
	p.Values = append(p.Values, g.drag, g.force, g.escForce, g.chaserSpeed, g.escSpeed)
	if g.o > 0 {
		p.Names, p.Values = append(p.Names, "obstacle.radius"), append(p.Values, g.obsRadius)
	}
	p.Names = append(p.Names, "shaping", "penalty")
	p.Values = append(p.Values, g.shaping, g.penalty)
	return p
}

// SetParams sets the named parameters (all or nothing).
func (g *Tag) SetParams(p Params) error {
	if err := checkParamList("tag", p); err != nil {
		return err
	}
	r := g.reward
	drag, chaserForce, escForce, cs, es := g.drag, g.force, g.escForce, g.chaserSpeed, g.escSpeed
	obr, sh, pen := g.obsRadius, g.shaping, g.penalty
	for k, name := range p.Names {
		v := p.Values[k]
		bad := func(dom string) error {
			return fmt.Errorf("simulate: tag: parameter %q = %v outside %s: %w", name, v, dom, ErrParam)
		}
		if math.IsNaN(v) {
			return fmt.Errorf("simulate: tag: parameter %q is NaN: %w", name, ErrParam)
		}
		capped := func(dst *float64) error { // forces and reward weights
			if v < 0 || v > MaxPhysical {
				return bad(fmt.Sprintf("[0, %g]", MaxPhysical))
			}
			*dst = v
			return nil
		}
		speed := func(dst *float64) error {
			if !(v > 0) || v > MaxPhysical {
				return bad(fmt.Sprintf("(0, %g]", MaxPhysical))
			}
			*dst = v
			return nil
		}
		var err error
		switch {
		case name == "drag":
			if v < 0 || v > 1 {
				return bad("[0, 1]")
			}
			drag = v
		case name == "force":
			err = capped(&chaserForce)
		case name == "escaper.force":
			err = capped(&escForce)
		case name == "chaser.speed":
			err = speed(&cs)
		case name == "escaper.speed":
			err = speed(&es)
		case name == "obstacle.radius" && g.o > 0:
			if v < 0 || v > TagMaxObstacle {
				return bad(fmt.Sprintf("[0, %v]", TagMaxObstacle))
			}
			obr = v
		case name == "shaping":
			err = capped(&sh)
		case name == "penalty":
			err = capped(&pen)
		default:
			if r, err = withRewardParam(r, name, v); err != nil {
				return fmt.Errorf("simulate: tag: %w (parameters: %v)", err, g.Params().Names)
			}
		}
		if err != nil {
			return err
		}
	}
	if err := probeTagReward(r, g.n, g.m, ErrParam); err != nil {
		return fmt.Errorf("simulate: tag: %v: %w", p, err)
	}
	g.reward, g.drag, g.force, g.escForce, g.chaserSpeed, g.escSpeed = r, drag, chaserForce, escForce, cs, es
	g.obsRadius, g.shaping, g.penalty = obr, sh, pen
	g.fn = newRewardFn(&g.reward, g.n, g.m)
	return nil
}

func (g *Tag) elementBase() int { return g.base }

// radius returns the radius of entity e (chasers first, then escapers).
func (g *Tag) radius(e int) float64 {
	if e < g.n {
		return TagChaserRadius
	}
	return TagEscaperRadius
}

// speed returns the speed cap of entity e.
func (g *Tag) speed(e int) float64 {
	if e < g.n {
		return g.chaserSpeed
	}
	return g.escSpeed
}

var (
	tagObstacleArea = spawnArea{-TagObstacleSpan, TagObstacleSpan, -TagObstacleSpan, TagObstacleSpan, TagObstacleGap}
	tagAgentArea    = spawnArea{-TagSpawnSpan, TagSpawnSpan, -TagSpawnSpan, TagSpawnSpan, TagAgentGap}
)

// tagSureAgents returns the most chasers and escapers Tag's spawn is sure
// to place with obstacles obstacles: the nodes of their lattice less those
// the obstacles can block.
func tagSureAgents(obstacles int) int {
	return tagAgentArea.nodes() - obstacles*blockedNodes(TagAgentGap, TagSpawnClearance)
}

// spawn places the obstacles and agents of batch element b. It cannot fail
// for up to tagSureAgents(O) chasers and escapers.
func (g *Tag) spawn(seed int64, b int) error {
	r := newRNG(seed, g.base+b, streamSpawn)
	E, O := g.ne, g.o
	obst := g.obst[b*O*2 : (b+1)*O*2]
	if !placeApart(&r, obst, O, tagObstacleArea) {
		return fmt.Errorf("simulate: tag: cannot place %d obstacles at least %v apart in [-%v,%v]^2: %w",
			O, TagObstacleGap, TagObstacleSpan, TagObstacleSpan, ErrConfig)
	}
	pos := g.pos[b*E*2 : (b+1)*E*2]
	if !placeClear(&r, pos, E, TagSpawnSpan, TagAgentGap, obst, TagSpawnClearance) &&
		!placeOnLattice(&r, pos, E, tagAgentArea, obst, TagSpawnClearance) {
		return fmt.Errorf("simulate: tag: cannot place %d agents at least %v apart in [-%v,%v]^2 and %v from %d obstacles: %w",
			E, TagAgentGap, TagSpawnSpan, TagSpawnSpan, TagSpawnClearance, O, ErrConfig)
	}
	zero(g.vel[b*E*2 : (b+1)*E*2])
	return nil
}

// Reset spawns every batch element from seed.
func (g *Tag) Reset(seed int64) error {
	for b := 0; b < g.b; b++ {
		if err := g.spawn(seed, b); err != nil {
			return err
		}
	}
	zero(g.eff)
	zero(g.rew)
	zero(g.agentRew)
	g.diffRew.reset()
	for b := range g.done {
		g.done[b] = false
	}
	for b := 0; b < g.b; b++ {
		g.observe(b, g.pos, g.vel, g.obs)
	}
	g.steps = 0
	g.started = true
	return nil
}

// Step applies the flat [B][N][2] chaser force actions, clamped into
// [-1,1]^2; the escapers follow their heuristic.
func (g *Tag) Step(actions []float64) error {
	if !g.started {
		return fmt.Errorf("simulate: tag: Step before Reset: %w", ErrNotReset)
	}
	if g.steps >= g.length {
		return fmt.Errorf("simulate: tag: Step after the end of the episode (%d steps): %w", g.length, ErrDone)
	}
	if len(actions) != g.b*g.n*2 {
		return checkActions(g.Name(), g.ActionSpace(), g.b, g.n, actions)
	}
	for _, a := range actions {
		if a-a != 0 {
			return checkActions(g.Name(), g.ActionSpace(), g.b, g.n, actions)
		}
	}
	N, E := g.n, g.ne
	for b := 0; b < g.b; b++ {
		p, v := g.p, g.v
		copy(p, g.pos[b*E*2:(b+1)*E*2])
		copy(v, g.vel[b*E*2:(b+1)*E*2])
		obst := g.obst[b*g.o*2 : (b+1)*g.o*2]
		a := actions[b*N*2 : (b+1)*N*2]
		for q := 0; q < 2*N; q++ {
			g.f[q] = clamp1(a[q]) * g.force
		}
		for j := 0; j < g.m; j++ {
			g.f[2*(N+j)], g.f[2*(N+j)+1] = g.flee(p, obst, j)
		}
		g.physics(p, v, obst)
		copy(g.posN[b*E*2:(b+1)*E*2], p)
		copy(g.velN[b*E*2:(b+1)*E*2], v)
		r, err := g.score(b, g.posN, g.eff, g.effN, g.agentRewN[b*N:(b+1)*N])
		if err != nil {
			return fmt.Errorf("simulate: tag: batch %d: %w", b, err)
		}
		g.rewN[b] = r
		g.observe(b, g.posN, g.velN, g.obsN)
	}
	g.pos, g.posN = g.posN, g.pos
	g.vel, g.velN = g.velN, g.vel
	g.obs, g.obsN = g.obsN, g.obs
	g.eff, g.effN = g.effN, g.eff
	g.rew, g.rewN = g.rewN, g.rew
	g.agentRew, g.agentRewN = g.agentRewN, g.agentRew
	g.diffRew.invalidate()
	g.steps++
	if g.steps >= g.length {
		for b := range g.done {
			g.done[b] = true
		}
	}
	return nil
}

// flee returns the heuristic force of escaper j from the positions p
// ([N+M][2]) and the obstacles obst ([O][2]) of one element.
func (g *Tag) flee(p, obst []float64, j int) (fx, fy float64) {
	e := g.n + j
	x, y := p[2*e], p[2*e+1]
	hx, hy := -tagCentre*x, -tagCentre*y
	for i := 0; i < g.n; i++ {
		dx, dy := x-p[2*i], y-p[2*i+1]
		if d2 := dx*dx + dy*dy; d2 > 0 {
			hx += tagFlee * dx / d2
			hy += tagFlee * dy / d2
		}
	}
	reach := g.obsRadius + TagEscaperRadius
	for k := 0; 2*k < len(obst); k++ {
		dx, dy := x-obst[2*k], y-obst[2*k+1]
		d := math.Sqrt(dx*dx + dy*dy)
		if d > 0 {
			s := tagAvoid * math.Exp(-(d-reach)/tagReach) / d
			hx += s * dx
			hy += s * dy
		}
	}
	// exp(-(1+x)/λ) - exp(-(1-x)/λ) = C (1/a - a), a = exp(x/λ).
	ax, ay := math.Exp(x/tagReach), math.Exp(y/tagReach)
	hx += tagWallC * (1/ax - ax)
	hy += tagWallC * (1/ay - ay)
	q := g.escForce / math.Sqrt(1+hx*hx+hy*hy)
	return hx * q, hy * q
}

// physics advances one element's positions p and velocities v ([N+M][2])
// by one step under the forces g.f, among the obstacles obst, and records
// in g.pushed which agents an obstacle pushed out.
func (g *Tag) physics(p, v, obst []float64) {
	E := g.ne
	sdt := TagDt / TagSubsteps
	keep := 1 - g.drag
	f := g.f
	for e := range g.pushed {
		g.pushed[e] = false
	}
	for s := 0; s < TagSubsteps; s++ {
		for e := 0; e < E; e++ {
			vx, vy := v[2*e], v[2*e+1]
			if s == 0 {
				vx, vy = vx*keep, vy*keep
			}
			vx, vy = vx+f[2*e]*sdt, vy+f[2*e+1]*sdt
			vmax := g.speed(e)
			if sp2 := vx*vx + vy*vy; sp2 > vmax*vmax {
				sc := vmax / math.Sqrt(sp2)
				vx, vy = vx*sc, vy*sc
			}
			x, y := p[2*e]+vx*sdt, p[2*e+1]+vy*sdt
			reach := g.obsRadius + g.radius(e)
			for k := 0; 2*k < len(obst); k++ {
				dx, dy := x-obst[2*k], y-obst[2*k+1]
				d2 := dx*dx + dy*dy
				if !(d2 < reach*reach) || d2 == 0 {
					continue
				}
				d := math.Sqrt(d2)
				nx, ny := dx/d, dy/d
				x, y = obst[2*k]+reach*nx, obst[2*k+1]+reach*ny
				if vn := vx*nx + vy*ny; vn < 0 {
					vx, vy = vx-vn*nx, vy-vn*ny
				}
				g.pushed[e] = true
			}
			x, y = clampBound(x), clampBound(y)
			v[2*e], v[2*e+1], p[2*e], p[2*e+1] = vx, vy, x, y
		}
	}
}

// clampBound clamps x into [-TagBound, TagBound].
func clampBound(x float64) float64 {
	if x < -TagBound {
		return -TagBound
	}
	if x > TagBound {
		return TagBound
	}
	return x
}

// caught reports whether chaser i and escaper j of positions p touch.
func (g *Tag) caught(p []float64, i, j int) bool {
	e := g.n + j
	dx, dy := p[2*i]-p[2*e], p[2*i+1]-p[2*e+1]
	const reach = TagChaserRadius + TagEscaperRadius
	return dx*dx+dy*dy < reach*reach
}

// collisions counts the overlapping pairs of chasers of positions p and the
// chasers pushed out by an obstacle (g.pushed).
func (g *Tag) collisions(p []float64) int {
	c := 0
	const reach = 2 * TagChaserRadius
	for i := 0; i < g.n; i++ {
		if g.pushed[i] {
			c++
		}
		for k := i + 1; k < g.n; k++ {
			dx, dy := p[2*i]-p[2*k], p[2*i+1]-p[2*k+1]
			if dx*dx+dy*dy < reach*reach {
				c++
			}
		}
	}
	return c
}

// nearest returns the distance from chaser i to its nearest escaper, and
// that escaper (the first on ties).
func (g *Tag) nearest(p []float64, i int) (float64, int) {
	best, at := math.Inf(1), 0
	for j := 0; j < g.m; j++ {
		e := g.n + j
		dx, dy := p[2*i]-p[2*e], p[2*i+1]-p[2*e+1]
		if d := math.Sqrt(dx*dx + dy*dy); d < best {
			best, at = d, j
		}
	}
	return best, at
}

// score computes the efforts of element b from positions pos (and, unless
// PerStep, the previous efforts prev) into eff and the chasers' own
// rewards into agentRew ([N]), and returns the step's team reward.
func (g *Tag) score(b int, pos, prev, eff, agentRew []float64) (float64, error) {
	N, M, E := g.n, g.m, g.ne
	p := pos[b*E*2 : (b+1)*E*2]
	e := eff[b*N*M : (b+1)*N*M]
	old := prev[b*N*M : (b+1)*N*M]
	dist := 0.0
	for i := 0; i < N; i++ {
		for j := 0; j < M; j++ {
			r := 0.0
			if g.caught(p, i, j) || !g.cfg.PerStep && old[i*M+j] != 0 {
				r = 1
			}
			e[i*M+j] = r
		}
		d, _ := g.nearest(p, i)
		agentRew[i] = d
		dist += d
	}
	r, err := g.fn.value(e)
	if err != nil {
		return r, err
	}
	penalty := g.penalty * float64(g.collisions(p))
	shared := r - penalty
	for i, d := range agentRew {
		agentRew[i] = -g.shaping*d + shared
	}
	// The team reward is summed left to right, as before the chasers' own
	// rewards existed: summing r - penalty first rounds differently in some
	// steps with both a capture and a collision, and the runs stored in
	// testdata retrain with the same numbers only in this order
	// (TestTagTeamRewardOrder; reproduce's TestStoredRunsRetrain).
	return -g.shaping*dist/float64(N) + r - penalty, nil
}

// observe writes the observations of element b from positions and
// velocities into obs.
func (g *Tag) observe(b int, pos, vel, obs []float64) {
	N, E, O, od := g.n, g.ne, g.o, g.od
	p := pos[b*E*2 : (b+1)*E*2]
	v := vel[b*E*2 : (b+1)*E*2]
	obst := g.obst[b*O*2 : (b+1)*O*2]
	for i := 0; i < N; i++ {
		g.observeChaser(obs[(b*N+i)*od:(b*N+i+1)*od], p, v, obst, i)
	}
}

// observeChaser writes chaser i's observation into o from one element's
// flat [N+M][2] positions p and velocities v and [O][2] obstacle centres
// (the layout of Tag's doc).
func (g *Tag) observeChaser(o, p, v, obst []float64, i int) {
	N, M := g.n, g.m
	px, py := p[2*i], p[2*i+1]
	o[0], o[1], o[2], o[3] = px, py, v[2*i], v[2*i+1]
	c := 4
	for j := 0; j < M; j++ {
		o[c], o[c+1] = p[2*(N+j)]-px, p[2*(N+j)+1]-py
		c += 2
	}
	for k := 0; k < N; k++ {
		if k != i {
			o[c], o[c+1] = p[2*k]-px, p[2*k+1]-py
			c += 2
		}
	}
	for k := 0; 2*k < len(obst); k++ {
		o[c], o[c+1] = obst[2*k]-px, obst[2*k+1]-py
		c += 2
	}
	for j := 0; j < M; j++ {
		o[c], o[c+1] = v[2*(N+j)], v[2*(N+j)+1]
		c += 2
	}
}

// Obs returns the flat [B][N][ObsDim] observations.
func (g *Tag) Obs() []float64 { return g.obs }

// Reward returns the [B] rewards of the last step.
func (g *Tag) Reward() []float64 { return g.rew }

// AgentRewards returns the flat [B][N] rewards of the chasers in the last
// step: chaser i's is -shaping · min_j |c_i - e_j| + R(A) - penalty ·
// collisions, its own distance in place of the team's mean distance.
func (g *Tag) AgentRewards() []float64 { return g.agentRew }

// DifferenceRewards returns the flat [B][N] difference rewards of the
// chasers in the last step (zeros after Reset): chaser i's is
// -shaping · min_j |c_i - e_j| + R(A) - R(A_{-i}) - penalty · collisions,
// its own reward less R(A_{-i}), where A_{-i} is the capture matrix
// without chaser i's captures. They are computed at the first call after
// a Step (N evaluations of the reward per batch element, with the
// reward's parameters at that call), so training on the team reward or
// the chasers' own rewards does not pay for them. A reward that cannot be
// evaluated without a chaser gives NaN, which learners report.
func (g *Tag) DifferenceRewards() []float64 {
	return g.diffRew.values(&g.fn, g.eff, 1, func(b, i int) float64 { return g.agentRew[b*g.n+i] })
}

// Effort returns the flat [B][N][M] capture matrices of the last step.
func (g *Tag) Effort() []float64 { return g.eff }

// Done reports whether each element's episode has ended.
func (g *Tag) Done() []bool { return g.done }

// AgentPositions returns the flat [N][2] chaser positions of element b.
// It panics if b is outside [0, Batch()).
func (g *Tag) AgentPositions(b int) []float64 {
	checkElement("tag", b, g.b)
	return append([]float64(nil), g.pos[b*g.ne*2:(b*g.ne+g.n)*2]...)
}

// AgentVelocities returns the flat [N][2] chaser velocities of element b.
// It panics if b is outside [0, Batch()).
func (g *Tag) AgentVelocities(b int) []float64 {
	checkElement("tag", b, g.b)
	return append([]float64(nil), g.vel[b*g.ne*2:(b*g.ne+g.n)*2]...)
}

// TaskPositions returns the flat [M][2] escaper positions of element b.
// It panics if b is outside [0, Batch()).
func (g *Tag) TaskPositions(b int) []float64 {
	checkElement("tag", b, g.b)
	return append([]float64(nil), g.pos[(b*g.ne+g.n)*2:(b+1)*g.ne*2]...)
}

// EscaperVelocities returns the flat [M][2] escaper velocities of element
// b. It panics if b is outside [0, Batch()).
func (g *Tag) EscaperVelocities(b int) []float64 {
	checkElement("tag", b, g.b)
	return append([]float64(nil), g.vel[(b*g.ne+g.n)*2:(b+1)*g.ne*2]...)
}

// ObstaclePositions returns the flat [O][2] obstacle centres of element b.
// Obstacles do not move during an episode, so one call after Reset (or
// after Rollout) serves a whole recorded episode.
// It panics if b is outside [0, Batch()).
func (g *Tag) ObstaclePositions(b int) []float64 {
	checkElement("tag", b, g.b)
	return append([]float64(nil), g.obst[b*g.o*2:(b+1)*g.o*2]...)
}

// ObstacleRadius returns the current obstacle radius (parameter
// "obstacle.radius").
func (g *Tag) ObstacleRadius() float64 { return g.obsRadius }

// probeTagReward is probeReward for Tag, whose capture matrices also
// reach every chaser on every escaper (probeAllOnes).
func probeTagReward(r aggregators.Reward, n, m int, kind error) error {
	if err := probeReward(r, n, m, kind); err != nil {
		return err
	}
	return probeAllOnes(r, n, m, kind)
}
