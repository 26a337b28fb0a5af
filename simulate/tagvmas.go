package simulate

import (
	"fmt"
	"math"

	"github.com/hetgain/hetgain/aggregators"
)

// Constants of TagVMAS: the defaults of the paper's authors' VMAS scenario
// (vmas/scenarios/parametric/tag_potential.py) where they differ from
// Tag's. The radii, world, time step, substeps, drag and episode length are
// Tag's (TagChaserRadius, TagEscaperRadius, TagBound, TagDt, TagSubsteps,
// TagDrag, TagLength).
const (
	TagVMASForce          = 3.0 // chaser force multiplier ("force"), VMAS's u_multiplier
	TagVMASChaserSpeed    = 1.0 // chaser speed cap ("chaser.speed")
	TagVMASEscaperSpeed   = 1.8 // escaper's desired speed ("escaper.speed")
	TagVMASObstacleRadius = 0.1 // obstacle radius ("obstacle.radius")
	TagVMASShaping        = 0.1 // weight of the distance term ("shaping")
	TagVMASPenalty        = 0.1 // penalty per obstacle a chaser overlaps ("penalty")
	TagVMASIdleSteps      = 3   // the first steps of an episode, whose actions are ignored
)

// Weights of TagVMAS's escaper heuristic (see TagVMAS).
const (
	tagVMASActivation = 1.5  // an escaper with no chaser closer than this stands still
	tagVMASWallMargin = 0.5  // walls repel within this distance
	tagVMASWall       = 1.0  // wall repulsion strength
	tagVMASRepulsion  = 0.5  // repulsion between escapers
	tagVMASCentre     = 2.5  // attraction to the centre
	tagVMASAvoid      = 5.0  // obstacle repulsion strength
	tagVMASAvoidRange = 0.5  // obstacles repel within this distance
	tagVMASAvoidCap   = 10.0 // cap of the obstacle repulsion's magnitude factor
	tagVMASMomentum   = 0.3  // share of the last velocity an escaper keeps
	tagVMASMaxAccel   = 2.5  // largest change of an escaper's velocity per second
	tagVMASEps        = 1e-8 // the scenario's guard against division by zero
)

// TagVMASConfig configures TagVMAS. Zero fields take the defaults given;
// the physical parameters are set with SetParams.
type TagVMASConfig struct {
	// Batch is B, at least 1.
	Batch int
	// Chasers is N, the number of learning agents (default 2); Escapers
	// is M, the number of heuristic escapers, the tasks (default 2).
	Chasers, Escapers int
	// Obstacles is the number of obstacles (default 2); set NoObstacles
	// for none.
	Obstacles   int
	NoObstacles bool
	// Reward is R = U(T(...)) over the N x M capture matrix (required).
	Reward *aggregators.Reward
	// EpisodeLength is the number of steps (default 100).
	EpisodeLength int
}

// TagVMAS is N learning chasers against M heuristic escapers as the VMAS
// scenario file of the paper's authors defines 2v2 Tag
// (vmas/scenarios/parametric/tag_potential.py, read through the public
// VMAS repository), where it differs from Tag, this package's own
// rendering of the paper's text:
//
//   - A chaser that touches an escaper (closer than 0.075 + 0.05) is held
//     where it first touched it, at rest, for as long as it touches it,
//     and a touched escaper stands still: a capture lasts to the end of
//     the episode, and each chaser catches one escaper at most (Tag's
//     chasers run on and may catch both).
//   - The escapers are slow. Each step an escaper's velocity becomes
//     0.3 times its last plus a change of at most 2.5·dt = 0.125 towards
//     a desired velocity of norm "escaper.speed" (1.8), so its speed
//     settles at most at 0.125/0.7 ≈ 0.18, and the world's drag, applied
//     to it as to every moving body, makes it move about 0.1 per second.
//     Chasers, pushed by their action times "force" (3) against the same
//     drag, run at up to 0.33 per axis: three to four times faster (Tag's
//     escapers outrun its chasers, 1.3 against 1).
//   - An escaper stands still while no chaser is within 1.5 of it.
//   - Obstacles (radius 0.1) do not block anything: a chaser that
//     overlaps one pays "penalty" (0.1) per obstacle and step, and the
//     escapers steer around them.
//   - A chaser observes its position (2), its velocity (2) and each
//     escaper's position relative to it (2M; the scenario file writes
//     its own position minus the escaper's, the same input up to sign,
//     and Tag's order is kept so that TagChaser plays both): nothing of
//     the other chasers, the obstacles or the escapers' velocities
//     (ObsDim 4 + 2M).
//   - Every entity spawns uniformly in [-1, 1]^2, with no minimum
//     distances.
//   - The actions of the first 3 steps of an episode are ignored.
//   - Chaser i's reward is -shaping · min_j |c_i - e_j| + R(A) - penalty
//     · (obstacles it overlaps): its own distance term, as the paper's
//     "0.1 · (−distance to the nearest escaper)". TagVMAS is an
//     AgentRewarder, and its team reward Reward is the mean of the
//     chasers' rewards.
//
// Physics (VMAS's): each step of dt = 0.05 has 2 substeps of dt/2; at the
// first the velocity of every moving body is multiplied by 1 - drag
// (0.45); a chaser then gains F dt/2 per substep, F its action clamped
// into [-1,1]^2 times "force", its speed capped at "chaser.speed" (1,
// which the drag keeps it below); an escaper has no force and moves with
// its velocity; then positions advance by v dt/2 and are clamped into
// [-1, 1]^2 (velocities unchanged). After the physics, a held chaser is
// put back where it was caught, at rest. Bodies do not collide.
//
// Escaper heuristic, computed after each step from the positions then
// (held chasers in place) and moving the escaper at the next step: with d
// the distance to a chaser, unit vectors pointing away from what repels,
//
//	desired = sum over chasers within 1.5 of unit/d        (flee)
//	        + 1 · ((1 - w/0.5)^2 away from each wall closer than 0.5, w its distance)
//	        + 0.5 · sum over other escapers of unit/d       (spread)
//	        - 2.5 · e                                       (keep to the centre)
//	        + 5 · sum over obstacles closer than 0.5 of unit · min(10, (0.5 - d)/d)
//
// scaled to norm "escaper.speed"; the change from the last velocity is
// capped at 2.5 dt; the new velocity is 0.3 times the last plus that
// change, or 0 if a chaser touches the escaper or none is within 1.5.
// (The scenario adds 1e-8 to each distance it divides by, as here.)
//
// Efforts: r_ij = 1 if chaser i touches escaper j after the step (held
// chasers touch theirs), else 0; R(A) is the reward of that capture
// matrix at every step.
//
// Where the scenario file leaves state from one episode to the next (the
// escapers' last velocities, which chasers are held and where), TagVMAS
// starts every episode afresh.
//
// Parameters θ: the reward's "U.t", "T.t" (or "T0.t", ...), "drag" (in
// [0, 1]), "force" (in [0, MaxPhysical]), "chaser.speed",
// "escaper.speed" (in (0, MaxPhysical]), "obstacle.radius" (in [0, 0.35],
// only with obstacles), "shaping" and "penalty" (in [0, MaxPhysical]).
// TagVMAS has no return gradient (it is not a DifferentiableEnv): the
// paper searches no parameter of Tag.
type TagVMAS struct {
	cfg          TagVMASConfig
	b, n, m, o   int
	ne, od       int // ne = n + m entities: chasers first, then escapers
	length       int
	reward       aggregators.Reward
	fn           rewardFn
	drag, force  float64
	chaserSpeed  float64
	escSpeed     float64
	obsRadius    float64
	shaping, pen float64

	pos, vel []float64 // [B][N+M][2]
	escLast  []float64 // [B][M][2]: the escapers' last heuristic velocities
	held     []bool    // [B][N]: chaser i touched an escaper at the last step
	anchored []bool    // [B][N]: chaser i's anchor is set
	anchor   []float64 // [B][N][2]: where chaser i first touched
	obst     []float64 // [B][O][2]
	obs      []float64 // [B][N][ObsDim]
	eff      []float64 // [B][N][M]
	rew      []float64 // [B]
	agentRew []float64 // [B][N]
	done     []bool
	steps    int
	started  bool
	diffRew  differenceRewards
	// next state, committed when a step succeeds
	next tagVMASState
}

// tagVMASState is the part of TagVMAS's state that a step rewrites.
type tagVMASState struct {
	pos, vel, escLast, anchor []float64
	held, anchored            []bool
	obs, eff, rew, agentRew   []float64
}

// NewTagVMAS returns TagVMAS configured by cfg (copied). It returns an
// error wrapping ErrConfig if a size is below 1 (obstacles below 0), if
// NoObstacles is set with a number of obstacles, for an episode longer
// than MaxEpisodeLength, B·N·ObsDim above MaxEnvValues, or an invalid
// reward.
func NewTagVMAS(cfg TagVMASConfig) (*TagVMAS, error) {
	if cfg.Chasers == 0 {
		cfg.Chasers = 2
	}
	if cfg.Escapers == 0 {
		cfg.Escapers = 2
	}
	if cfg.NoObstacles && cfg.Obstacles != 0 {
		return nil, fmt.Errorf("simulate: tag-vmas with NoObstacles and %d obstacles: set one of them: %w", cfg.Obstacles, ErrConfig)
	}
	if cfg.Obstacles == 0 && !cfg.NoObstacles {
		cfg.Obstacles = TagObstacles
	}
	if cfg.EpisodeLength == 0 {
		cfg.EpisodeLength = TagLength
	}
	if cfg.Batch < 1 || cfg.Chasers < 1 || cfg.Escapers < 1 || cfg.Obstacles < 0 || cfg.EpisodeLength < 1 {
		return nil, fmt.Errorf("simulate: tag-vmas with batch %d, %d chasers, %d escapers, %d obstacles, episode length %d (need batch, chasers, escapers, length >= 1 and obstacles >= 0): %w",
			cfg.Batch, cfg.Chasers, cfg.Escapers, cfg.Obstacles, cfg.EpisodeLength, ErrConfig)
	}
	if err := checkEpisodeLength("tag-vmas", cfg.EpisodeLength); err != nil {
		return nil, err
	}
	for _, c := range []struct {
		what  string
		sizes []int
	}{
		{"B·N·ObsDim", []int{cfg.Batch, cfg.Chasers, 4 + 2*cfg.Escapers}},
		{"B·N·M", []int{cfg.Batch, cfg.Chasers, cfg.Escapers}},
		{"B·(N+M)·2", []int{cfg.Batch, cfg.Chasers + cfg.Escapers, 2}},
		{"B·O·2", []int{cfg.Batch, max(cfg.Obstacles, 1), 2}},
	} {
		if err := checkEnvValues("tag-vmas", c.what, c.sizes...); err != nil {
			return nil, err
		}
	}
	rc, err := copyReward(cfg.Reward, cfg.Escapers)
	if err != nil {
		return nil, err
	}
	if err := probeTagReward(rc, cfg.Chasers, cfg.Escapers, ErrConfig); err != nil {
		return nil, fmt.Errorf("simulate: tag-vmas: %w", err)
	}
	g := &TagVMAS{cfg: cfg, b: cfg.Batch, n: cfg.Chasers, m: cfg.Escapers, o: cfg.Obstacles,
		length: cfg.EpisodeLength, reward: rc}
	g.cfg.Reward = nil
	g.ne = g.n + g.m
	g.od = 4 + 2*g.m
	g.drag, g.force, g.chaserSpeed, g.escSpeed = TagDrag, TagVMASForce, TagVMASChaserSpeed, TagVMASEscaperSpeed
	g.obsRadius, g.shaping, g.pen = TagVMASObstacleRadius, TagVMASShaping, TagVMASPenalty
	g.fn = newRewardFn(&g.reward, g.n, g.m)
	g.obst = make([]float64, g.b*g.o*2)
	g.done = make([]bool, g.b)
	g.diffRew = newDifferenceRewards(g.b, g.n, g.m)
	g.setCurrent(g.newState())
	g.next = g.newState()
	return g, nil
}

// newState allocates a state.
func (g *TagVMAS) newState() tagVMASState {
	B, N, M, E := g.b, g.n, g.m, g.ne
	return tagVMASState{
		pos: make([]float64, B*E*2), vel: make([]float64, B*E*2),
		escLast: make([]float64, B*M*2), anchor: make([]float64, B*N*2),
		held: make([]bool, B*N), anchored: make([]bool, B*N),
		obs: make([]float64, B*N*g.od), eff: make([]float64, B*N*M),
		rew: make([]float64, B), agentRew: make([]float64, B*N),
	}
}

// current returns the current state's slices (aliases of g's fields).
func (g *TagVMAS) current() *tagVMASState {
	return &tagVMASState{pos: g.pos, vel: g.vel, escLast: g.escLast, anchor: g.anchor, held: g.held,
		anchored: g.anchored, obs: g.obs, eff: g.eff, rew: g.rew, agentRew: g.agentRew}
}

// setCurrent makes s the current state.
func (g *TagVMAS) setCurrent(s tagVMASState) {
	g.pos, g.vel, g.escLast, g.anchor, g.held = s.pos, s.vel, s.escLast, s.anchor, s.held
	g.anchored, g.obs, g.eff, g.rew, g.agentRew = s.anchored, s.obs, s.eff, s.rew, s.agentRew
}

// TagVMAS2v2 returns the paper's 2v2 Tag as its authors' scenario file
// defines it: 2 chasers, 2 escapers, 2 obstacles, episodes of 100 steps.
func TagVMAS2v2(batch int, reward *aggregators.Reward) (*TagVMAS, error) {
	return NewTagVMAS(TagVMASConfig{Batch: batch, Chasers: 2, Escapers: 2, Obstacles: 2, Reward: reward})
}

// Name returns "tag-vmas".
func (g *TagVMAS) Name() string { return "tag-vmas" }

// Batch returns B.
func (g *TagVMAS) Batch() int { return g.b }

// Agents returns N, the number of chasers.
func (g *TagVMAS) Agents() int { return g.n }

// Tasks returns M, the number of escapers.
func (g *TagVMAS) Tasks() int { return g.m }

// Obstacles returns the number of obstacles.
func (g *TagVMAS) Obstacles() int { return g.o }

// ObsDim returns 4 + 2M.
func (g *TagVMAS) ObsDim() int { return g.od }

// EpisodeLength returns the number of steps of an episode.
func (g *TagVMAS) EpisodeLength() int { return g.length }

// Config returns the configuration with its defaults filled in (without
// the reward; see TeamReward).
func (g *TagVMAS) Config() TagVMASConfig { return g.cfg }

// ActionSpace returns the box [-1, 1]^2 of chaser forces.
func (g *TagVMAS) ActionSpace() Space {
	return Space{Dim: 2, Low: []float64{-1, -1}, High: []float64{1, 1}}
}

// TeamReward returns a copy of the current reward R (with the current
// parameters), for evaluating it on Effort() through package aggregators.
// Its Budget is +Inf: a chaser may touch several escapers at once.
func (g *TagVMAS) TeamReward() *aggregators.Reward {
	return effortReward(&g.reward, math.Inf(1))
}

// Params returns θ.
func (g *TagVMAS) Params() Params {
	p := Params{}
	for _, n := range rewardParamNames(&g.reward) {
		op, _, _ := rewardOperator(&g.reward, n)
		p.Names, p.Values = append(p.Names, n), append(p.Values, op.Param())
	}
	p.Names = append(p.Names, "drag", "force", "chaser.speed", "escaper.speed")
	p.Values = append(p.Values, g.drag, g.force, g.chaserSpeed, g.escSpeed)
	if g.o > 0 {
		p.Names, p.Values = append(p.Names, "obstacle.radius"), append(p.Values, g.obsRadius)
	}
	p.Names = append(p.Names, "shaping", "penalty")
	p.Values = append(p.Values, g.shaping, g.pen)
	return p
}

// SetParams sets the named parameters (all or nothing).
func (g *TagVMAS) SetParams(p Params) error {
	if err := checkParamList("tag-vmas", p); err != nil {
		return err
	}
	r := g.reward
	vals := map[string]*float64{}
	drag, force, cs, es, obr, sh, pen := g.drag, g.force, g.chaserSpeed, g.escSpeed, g.obsRadius, g.shaping, g.pen
	vals["drag"], vals["force"], vals["chaser.speed"], vals["escaper.speed"] = &drag, &force, &cs, &es
	vals["shaping"], vals["penalty"] = &sh, &pen
	if g.o > 0 {
		vals["obstacle.radius"] = &obr
	}
	for k, name := range p.Names {
		v := p.Values[k]
		if math.IsNaN(v) {
			return fmt.Errorf("simulate: tag-vmas: parameter %q is NaN: %w", name, ErrParam)
		}
		dst, physical := vals[name]
		if !physical {
			var err error
			if r, err = withRewardParam(r, name, v); err != nil {
				return fmt.Errorf("simulate: tag-vmas: %w (parameters: %v)", err, g.Params().Names)
			}
			continue
		}
		if dom := tagVMASDomain(name, v); dom != "" {
			return fmt.Errorf("simulate: tag-vmas: parameter %q = %v outside %s: %w", name, v, dom, ErrParam)
		}
		*dst = v
	}
	if err := probeTagReward(r, g.n, g.m, ErrParam); err != nil {
		return fmt.Errorf("simulate: tag-vmas: %v: %w", p, err)
	}
	g.reward, g.drag, g.force, g.chaserSpeed, g.escSpeed = r, drag, force, cs, es
	g.obsRadius, g.shaping, g.pen = obr, sh, pen
	g.fn = newRewardFn(&g.reward, g.n, g.m)
	return nil
}

// tagVMASDomain returns the domain of physical parameter name if v is
// outside it, else "".
func tagVMASDomain(name string, v float64) string {
	switch name {
	case "drag":
		if v < 0 || v > 1 {
			return "[0, 1]"
		}
	case "chaser.speed", "escaper.speed":
		if !(v > 0) || v > MaxPhysical {
			return fmt.Sprintf("(0, %g]", MaxPhysical)
		}
	case "obstacle.radius":
		if v < 0 || v > TagMaxObstacle {
			return fmt.Sprintf("[0, %v]", TagMaxObstacle)
		}
	default: // force, shaping, penalty
		if v < 0 || v > MaxPhysical {
			return fmt.Sprintf("[0, %g]", MaxPhysical)
		}
	}
	return ""
}

// Reset spawns every batch element from seed: every chaser, escaper and
// obstacle uniformly in [-1, 1]^2, all at rest.
func (g *TagVMAS) Reset(seed int64) error {
	for b := 0; b < g.b; b++ {
		r := newRNG(seed, b, streamSpawn)
		for q := range g.pos[b*g.ne*2 : (b+1)*g.ne*2] {
			g.pos[b*g.ne*2+q] = r.uniform(-TagBound, TagBound)
		}
		for q := range g.obst[b*g.o*2 : (b+1)*g.o*2] {
			g.obst[b*g.o*2+q] = r.uniform(-TagBound, TagBound)
		}
	}
	for _, s := range [][]float64{g.vel, g.escLast, g.anchor, g.eff, g.rew, g.agentRew} {
		zero(s)
	}
	for _, s := range [][]bool{g.held, g.anchored, g.done} {
		for k := range s {
			s[k] = false
		}
	}
	g.diffRew.reset()
	for b := 0; b < g.b; b++ {
		g.observe(b, g.current())
	}
	g.steps = 0
	g.started = true
	return nil
}

// Step applies the flat [B][N][2] chaser force actions, clamped into
// [-1,1]^2 (ignored in the first TagVMASIdleSteps steps of an episode);
// the escapers follow their heuristic.
func (g *TagVMAS) Step(actions []float64) error {
	if !g.started {
		return fmt.Errorf("simulate: tag-vmas: Step before Reset: %w", ErrNotReset)
	}
	if g.steps >= g.length {
		return fmt.Errorf("simulate: tag-vmas: Step after the end of the episode (%d steps): %w", g.length, ErrDone)
	}
	if err := checkActions(g.Name(), g.ActionSpace(), g.b, g.n, actions); err != nil {
		return err
	}
	cur, next := g.current(), &g.next
	copy(next.pos, cur.pos)
	copy(next.vel, cur.vel)
	copy(next.escLast, cur.escLast)
	copy(next.anchor, cur.anchor)
	copy(next.held, cur.held)
	copy(next.anchored, cur.anchored)
	idle := g.steps < TagVMASIdleSteps
	for b := 0; b < g.b; b++ {
		g.physics(b, next, actions[b*g.n*2:(b+1)*g.n*2], idle)
		g.holdChasers(b, next)
		g.steerEscapers(b, next)
		if err := g.score(b, next); err != nil {
			return fmt.Errorf("simulate: tag-vmas: batch %d: %w", b, err)
		}
		g.updateHolds(b, next)
		g.observe(b, next)
	}
	committed := *next
	g.next = *cur
	g.setCurrent(committed)
	g.diffRew.invalidate()
	g.steps++
	if g.steps >= g.length {
		for b := range g.done {
			g.done[b] = true
		}
	}
	return nil
}

// physics advances the positions and velocities of element b of s by one
// step: chasers under their actions a ([N][2]; none if idle), escapers
// with their velocities.
func (g *TagVMAS) physics(b int, s *tagVMASState, a []float64, idle bool) {
	E := g.ne
	p, v := s.pos[b*E*2:(b+1)*E*2], s.vel[b*E*2:(b+1)*E*2]
	sdt := TagDt / TagSubsteps
	keep := 1 - g.drag
	for e := 0; e < E; e++ {
		fx, fy := 0.0, 0.0
		if e < g.n && !idle {
			fx, fy = clamp1(a[2*e])*g.force, clamp1(a[2*e+1])*g.force
		}
		vx, vy := v[2*e]*keep, v[2*e+1]*keep
		x, y := p[2*e], p[2*e+1]
		for k := 0; k < TagSubsteps; k++ {
			vx, vy = vx+fx*sdt, vy+fy*sdt
			if e < g.n {
				if sp2 := vx*vx + vy*vy; sp2 > g.chaserSpeed*g.chaserSpeed {
					sc := g.chaserSpeed / math.Sqrt(sp2)
					vx, vy = vx*sc, vy*sc
				}
			}
			x, y = clampBound(x+vx*sdt), clampBound(y+vy*sdt)
		}
		p[2*e], p[2*e+1], v[2*e], v[2*e+1] = x, y, vx, vy
	}
}

// holdChasers puts every held chaser of element b of s back at its
// anchor, at rest.
func (g *TagVMAS) holdChasers(b int, s *tagVMASState) {
	E, N := g.ne, g.n
	for i := 0; i < N; i++ {
		if s.held[b*N+i] {
			k := (b*E + i) * 2
			s.pos[k], s.pos[k+1] = s.anchor[(b*N+i)*2], s.anchor[(b*N+i)*2+1]
			s.vel[k], s.vel[k+1] = 0, 0
		}
	}
}

// steerEscapers sets the velocities of the escapers of element b of s
// for the next step, from the positions of s (see TagVMAS).
func (g *TagVMAS) steerEscapers(b int, s *tagVMASState) {
	E, N, M := g.ne, g.n, g.m
	p := s.pos[b*E*2 : (b+1)*E*2]
	obst := g.obst[b*g.o*2 : (b+1)*g.o*2]
	maxDelta := tagVMASMaxAccel * TagDt
	for j := 0; j < M; j++ {
		e := N + j
		last := s.escLast[(b*M+j)*2 : (b*M+j+1)*2]
		dx, dy, active, touched := g.desired(p, obst, j)
		ax, ay := dx-last[0], dy-last[1]
		if n := math.Hypot(ax, ay); n > maxDelta {
			ax, ay = ax/n*maxDelta, ay/n*maxDelta
		}
		vx, vy := last[0]*tagVMASMomentum+ax, last[1]*tagVMASMomentum+ay
		if touched || !active {
			vx, vy = 0, 0
		}
		last[0], last[1] = vx, vy
		s.vel[2*(b*E+e)], s.vel[2*(b*E+e)+1] = vx, vy
	}
}

// desired returns the desired velocity of escaper j of an element with
// positions p ([N+M][2]) and obstacles obst ([O][2]), whether a chaser is
// within the activation range, and whether one touches it.
func (g *TagVMAS) desired(p, obst []float64, j int) (dx, dy float64, active, touched bool) {
	e := g.n + j
	x, y := p[2*e], p[2*e+1]
	const reach = TagChaserRadius + TagEscaperRadius
	for i := 0; i < g.n; i++ {
		ux, uy := x-p[2*i], y-p[2*i+1]
		d := math.Hypot(ux, uy)
		if d < reach {
			touched = true
		}
		if d < tagVMASActivation {
			active = true
			s := 1 / ((d + tagVMASEps) * (d + tagVMASEps))
			dx, dy = dx+ux*s, dy+uy*s
		}
	}
	wx, wy := tagVMASWallForce(x), tagVMASWallForce(y)
	dx, dy = dx+tagVMASWall*wx, dy+tagVMASWall*wy
	for k := 0; k < g.m; k++ {
		if k == j {
			continue
		}
		ux, uy := x-p[2*(g.n+k)], y-p[2*(g.n+k)+1]
		d := math.Hypot(ux, uy)
		s := tagVMASRepulsion / ((d + tagVMASEps) * (d + tagVMASEps))
		dx, dy = dx+ux*s, dy+uy*s
	}
	dx, dy = dx-tagVMASCentre*x, dy-tagVMASCentre*y
	for k := 0; 2*k < len(obst); k++ {
		ux, uy := x-obst[2*k], y-obst[2*k+1]
		d := math.Hypot(ux, uy)
		if d < tagVMASAvoidRange {
			f := math.Max(0, math.Min(tagVMASAvoidCap, (tagVMASAvoidRange-d)/(d+tagVMASEps)))
			s := tagVMASAvoid * f / (d + tagVMASEps)
			dx, dy = dx+ux*s, dy+uy*s
		}
	}
	n := math.Hypot(dx, dy) + tagVMASEps
	return dx / n * g.escSpeed, dy / n * g.escSpeed, active, touched
}

// tagVMASWallForce returns the wall repulsion along one axis at
// coordinate x: (1 - w/0.5)^2 away from each wall at distance w < 0.5.
func tagVMASWallForce(x float64) float64 {
	f := 0.0
	if w := TagBound - x; w < tagVMASWallMargin {
		f -= (1 - w/tagVMASWallMargin) * (1 - w/tagVMASWallMargin)
	}
	if w := TagBound + x; w < tagVMASWallMargin {
		f += (1 - w/tagVMASWallMargin) * (1 - w/tagVMASWallMargin)
	}
	return f
}

// score computes the capture matrix, the chasers' own rewards and the
// team reward of element b of s from its positions.
func (g *TagVMAS) score(b int, s *tagVMASState) error {
	N, M, E := g.n, g.m, g.ne
	p := s.pos[b*E*2 : (b+1)*E*2]
	e := s.eff[b*N*M : (b+1)*N*M]
	own := s.agentRew[b*N : (b+1)*N]
	const reach = TagChaserRadius + TagEscaperRadius
	for i := 0; i < N; i++ {
		nearest := math.Inf(1)
		for j := 0; j < M; j++ {
			d := math.Hypot(p[2*i]-p[2*(N+j)], p[2*i+1]-p[2*(N+j)+1])
			nearest = math.Min(nearest, d)
			e[i*M+j] = 0
			if d < reach {
				e[i*M+j] = 1
			}
		}
		own[i] = -g.shaping*nearest - g.pen*float64(g.overlaps(b, p, i))
	}
	r, err := g.fn.value(e)
	if err != nil {
		return err
	}
	team := 0.0
	for i := range own {
		own[i] += r
		team += own[i]
	}
	s.rew[b] = team / float64(N)
	return nil
}

// overlaps returns the number of obstacles of element b that chaser i of
// positions p overlaps.
func (g *TagVMAS) overlaps(b int, p []float64, i int) int {
	c := 0
	reach := TagChaserRadius + g.obsRadius
	obst := g.obst[b*g.o*2 : (b+1)*g.o*2]
	for k := 0; 2*k < len(obst); k++ {
		if math.Hypot(p[2*i]-obst[2*k], p[2*i+1]-obst[2*k+1]) < reach {
			c++
		}
	}
	return c
}

// updateHolds marks the chasers of element b of s that touch an escaper
// as held, anchored where they first touched it, and frees the others.
func (g *TagVMAS) updateHolds(b int, s *tagVMASState) {
	N, M := g.n, g.m
	for i := 0; i < N; i++ {
		k := b*N + i
		touching := false
		for j := 0; j < M; j++ {
			touching = touching || s.eff[k*M+j] != 0
		}
		if touching && !s.anchored[k] {
			E := g.ne
			s.anchor[2*k], s.anchor[2*k+1] = s.pos[2*(b*E+i)], s.pos[2*(b*E+i)+1]
		}
		s.anchored[k], s.held[k] = touching, touching
	}
}

// observe writes the observations of element b of s.
func (g *TagVMAS) observe(b int, s *tagVMASState) {
	N, M, E, od := g.n, g.m, g.ne, g.od
	p, v := s.pos[b*E*2:(b+1)*E*2], s.vel[b*E*2:(b+1)*E*2]
	for i := 0; i < N; i++ {
		o := s.obs[(b*N+i)*od : (b*N+i+1)*od]
		o[0], o[1], o[2], o[3] = p[2*i], p[2*i+1], v[2*i], v[2*i+1]
		for j := 0; j < M; j++ {
			o[4+2*j], o[5+2*j] = p[2*(N+j)]-p[2*i], p[2*(N+j)+1]-p[2*i+1]
		}
	}
}

// Obs returns the flat [B][N][ObsDim] observations.
func (g *TagVMAS) Obs() []float64 { return g.obs }

// Reward returns the [B] team rewards of the last step: the mean of the
// chasers' own rewards.
func (g *TagVMAS) Reward() []float64 { return g.rew }

// AgentRewards returns the flat [B][N] rewards of the chasers in the last
// step: chaser i's is -shaping · min_j |c_i - e_j| + R(A) - penalty ·
// (obstacles it overlaps).
func (g *TagVMAS) AgentRewards() []float64 { return g.agentRew }

// DifferenceRewards returns the flat [B][N] difference rewards of the
// chasers in the last step (zeros after Reset): chaser i's own reward
// with R(A) - R(A_{-i}) in place of R(A), A_{-i} the capture matrix
// without chaser i's captures (computed at the first call after a Step,
// as Tag's). With as many chasers as escapers and U = min they equal
// AgentRewards: a chaser holds one escaper at most, so R(A) > 0 needs
// every chaser on an escaper of its own, and R(A_{-i}) is always 0.
func (g *TagVMAS) DifferenceRewards() []float64 {
	return g.diffRew.values(&g.fn, g.eff, 1, func(b, i int) float64 { return g.agentRew[b*g.n+i] })
}

// Effort returns the flat [B][N][M] capture matrices of the last step.
func (g *TagVMAS) Effort() []float64 { return g.eff }

// Done reports whether each element's episode has ended.
func (g *TagVMAS) Done() []bool { return g.done }

// AgentPositions returns the flat [N][2] chaser positions of element b.
// It panics if b is outside [0, Batch()).
func (g *TagVMAS) AgentPositions(b int) []float64 {
	checkElement("tag-vmas", b, g.b)
	return append([]float64(nil), g.pos[b*g.ne*2:(b*g.ne+g.n)*2]...)
}

// TaskPositions returns the flat [M][2] escaper positions of element b.
// It panics if b is outside [0, Batch()).
func (g *TagVMAS) TaskPositions(b int) []float64 {
	checkElement("tag-vmas", b, g.b)
	return append([]float64(nil), g.pos[(b*g.ne+g.n)*2:(b+1)*g.ne*2]...)
}

// ObstaclePositions returns the flat [O][2] obstacle centres of element b
// (fixed during an episode). It panics if b is outside [0, Batch()).
func (g *TagVMAS) ObstaclePositions(b int) []float64 {
	checkElement("tag-vmas", b, g.b)
	return append([]float64(nil), g.obst[b*g.o*2:(b+1)*g.o*2]...)
}

// ObstacleRadius returns the current obstacle radius (parameter
// "obstacle.radius").
func (g *TagVMAS) ObstacleRadius() float64 { return g.obsRadius }

// Held reports, for element b, which chasers are held on an escaper
// they caught ([N]). It panics if b is outside [0, Batch()).
func (g *TagVMAS) Held(b int) []bool {
	checkElement("tag-vmas", b, g.b)
	return append([]bool(nil), g.held[b*g.n:(b+1)*g.n]...)
}

// ChaserPolicy returns a TagChaser for g with the given gain, damping and
// noise: with homogeneous true every chaser chases its nearest escaper,
// otherwise chaser i chases escaper i mod M.
func (g *TagVMAS) ChaserPolicy(gain, damping, sigma float64, homogeneous bool) TagChaser {
	return chaserPolicy(g.n, g.m, gain, damping, sigma, homogeneous)
}
