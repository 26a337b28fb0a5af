package simulate

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/hetgain/hetgain/aggregators"
	"gonum.org/v1/gonum/mat"
)

// newTestTagVMAS returns a TagVMAS of batch b under min∘max, reset with
// seed 1, for tests that then place its bodies by hand.
func newTestTagVMAS(t *testing.T, b int, cfg TagVMASConfig) *TagVMAS {
	t.Helper()
	cfg.Batch = b
	if cfg.Reward == nil {
		cfg.Reward = aggregators.NewReward(aggregators.Min{}, aggregators.Max{})
	}
	g, err := NewTagVMAS(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Reset(1); err != nil {
		t.Fatal(err)
	}
	return g
}

// place sets the positions of element 0 (chasers then escapers, flat
// [N+M][2]) and the obstacles, and recomputes the observations.
func (g *TagVMAS) place(pos, obst []float64) {
	copy(g.pos, pos)
	copy(g.obst, obst)
	g.observe(0, g.current())
}

// stepAll steps g with every chaser playing act.
func stepAll(t *testing.T, g *TagVMAS, act ...float64) {
	t.Helper()
	a := make([]float64, g.b*g.n*2)
	for k := range a {
		a[k] = act[k%len(act)]
	}
	if err := g.Step(a); err != nil {
		t.Fatal(err)
	}
}

// TestTagVMASChaserPhysics checks a chaser pushed by a constant action
// against VMAS's update written out by hand: no motion in the first 3
// steps, then v ← (1 - drag) v + 2 · F dt/2 with position increments of
// v dt/2 after each half step.
func TestTagVMASChaserPhysics(t *testing.T) {
	g := newTestTagVMAS(t, 1, TagVMASConfig{NoObstacles: true})
	// Chasers at the left, escapers far to the right (beyond 1.5: at rest).
	g.place([]float64{-0.9, 0, -0.9, 0.5, 0.9, 0.9, 0.9, -0.9}, nil)
	x, v := -0.9, 0.0
	const f, sdt = 3.0 * 0.6, TagDt / 2 // action 0.6 times the force 3
	for step := 1; step <= 12; step++ {
		stepAll(t, g, 0.6, 0)
		if step > TagVMASIdleSteps {
			v *= 1 - TagDrag
			for k := 0; k < 2; k++ {
				v += f * sdt
				x += v * sdt
			}
		}
		if got := g.pos[0]; math.Abs(got-x) > 1e-15 || math.Abs(g.vel[0]-v) > 1e-15 || g.pos[1] != 0 || g.vel[1] != 0 {
			t.Fatalf("step %d: chaser 0 at (%v, %v) moving (%v, %v), want (%v, 0) moving (%v, 0)",
				step, g.pos[0], g.pos[1], g.vel[0], g.vel[1], x, v)
		}
	}
	// The terminal speed is F dt/(drag): 3 · 0.05 / 0.45 = 1/3 per axis.
	for step := 0; step < 200 && !g.Done()[0]; step++ {
		stepAll(t, g, 1, 1)
	}
	if sp := g.vel[0]; sp > 1.0/3+1e-12 || sp < 0.3 {
		t.Errorf("chaser speed along x after a long push: %v, want 1/3 to rounding", sp)
	}
}

// TestTagVMASIdleSteps checks that the actions of the first 3 steps of
// every episode are ignored, and that the fourth moves the chasers.
func TestTagVMASIdleSteps(t *testing.T) {
	g := newTestTagVMAS(t, 3, TagVMASConfig{})
	for episode := 0; episode < 2; episode++ {
		if err := g.Reset(int64(episode + 5)); err != nil {
			t.Fatal(err)
		}
		start := g.AgentPositions(1)
		for step := 1; step <= 4; step++ {
			stepAll(t, g, 1, -1)
			moved := g.AgentPositions(1)[0] != start[0]
			if moved != (step > TagVMASIdleSteps) && !g.Held(1)[0] {
				t.Errorf("episode %d step %d: chaser 0 moved: %v", episode, step, moved)
			}
		}
	}
}

// TestTagVMASEscaperStandsStillAlone checks that an escaper with no
// chaser within 1.5 does not move, and that one with a chaser near flees
// from it, no faster than its smoothing allows.
func TestTagVMASEscaperStandsStillAlone(t *testing.T) {
	g := newTestTagVMAS(t, 1, TagVMASConfig{NoObstacles: true})
	// Escaper 0 at the centre with chaser 0 at distance 0.5; escaper 1
	// in a corner more than 1.5 from both chasers.
	g.place([]float64{-0.5, 0, -0.4, 0.1, 0, 0, 0.95, -0.95}, nil)
	// The largest displacement per step: the speed bound 0.125/(1-0.3)
	// after the drag, over dt.
	bound := tagVMASMaxAccel * TagDt / (1 - tagVMASMomentum) * (1 - TagDrag) * TagDt
	prev := g.TaskPositions(0)
	for step := 1; step <= 30; step++ {
		stepAll(t, g, 0, 0) // the chasers stay
		now := g.TaskPositions(0)
		if now[2] != 0.95 || now[3] != -0.95 {
			t.Fatalf("step %d: escaper 1, alone, moved to (%v, %v)", step, now[2], now[3])
		}
		if d := math.Hypot(now[0]-prev[0], now[1]-prev[1]); d > bound*(1+1e-12) {
			t.Fatalf("step %d: escaper 0 moved %v, more than the bound %v", step, d, bound)
		}
		prev = now
	}
	if x := g.TaskPositions(0)[0]; !(x > 0.01) {
		t.Errorf("escaper 0 at x = %v after 30 steps, want it to have fled right from the chasers", x)
	}
}

// TestTagVMASCaptureHolds checks the scenario's capture: a chaser that
// touches an escaper is held there at rest whatever it plays, the escaper
// stands still, and the capture counts in every later step; the other
// chaser stays free.
func TestTagVMASCaptureHolds(t *testing.T) {
	g := newTestTagVMAS(t, 1, TagVMASConfig{NoObstacles: true})
	// Chaser 0 right next to escaper 0; chaser 1 and escaper 1 far away.
	g.place([]float64{0, 0, -0.9, -0.9, 0.1, 0, 0.9, 0.9}, nil)
	stepAll(t, g, 0, 0)
	if g.Effort()[0] != 1 || !g.Held(0)[0] || g.Held(0)[1] {
		t.Fatalf("after the first step: efforts %v, held %v; want chaser 0 holding escaper 0", g.Effort(), g.Held(0))
	}
	anchor := g.AgentPositions(0)[:2]
	esc := g.TaskPositions(0)[:2]
	for step := 2; step <= g.EpisodeLength(); step++ {
		stepAll(t, g, -1, 1) // chaser 0 tries to run away
		c, e := g.AgentPositions(0), g.TaskPositions(0)
		if c[0] != anchor[0] || c[1] != anchor[1] || g.vel[0] != 0 || g.vel[1] != 0 {
			t.Fatalf("step %d: held chaser at (%v, %v) moving (%v, %v), want still at %v", step, c[0], c[1], g.vel[0], g.vel[1], anchor)
		}
		if e[0] != esc[0] || e[1] != esc[1] {
			t.Fatalf("step %d: caught escaper moved from %v to (%v, %v)", step, esc, e[0], e[1])
		}
		if g.Effort()[0] != 1 {
			t.Fatalf("step %d: capture lost: efforts %v", step, g.Effort())
		}
		if step > TagVMASIdleSteps+1 && g.Held(0)[1] {
			t.Fatalf("step %d: chaser 1 held, with efforts %v", step, g.Effort())
		}
	}
	if c := g.AgentPositions(0); c[2] == -0.9 && c[3] == -0.9 {
		t.Error("the free chaser never moved")
	}
}

// TestTagVMASRewards checks each chaser's reward and the team's against
// the formula of TagVMAS on hand-placed bodies: distances, the capture
// matrix under mean∘max, and obstacle overlaps.
func TestTagVMASRewards(t *testing.T) {
	r := aggregators.NewReward(aggregators.Mean{}, aggregators.Max{})
	g := newTestTagVMAS(t, 1, TagVMASConfig{Reward: r})
	// Chaser 0 touches escaper 0 and overlaps both obstacles; chaser 1 is
	// 0.6 from escaper 1, its nearest. Nothing moves in the first step:
	// its actions are ignored, and the escapers start at rest.
	g.place([]float64{0, 0, 0, -1, 0.1, 0, 0.6, -1}, []float64{0.05, 0, -0.05, 0.05})
	stepAll(t, g, 0, 0)
	rew := g.AgentRewards()
	want0 := -TagVMASShaping*0.1 + 0.5 - 2*TagVMASPenalty // mean(max(1, 0), max(0, 0)) = 0.5
	want1 := -TagVMASShaping*0.6 + 0.5
	if math.Abs(rew[0]-want0) > 1e-12 || math.Abs(rew[1]-want1) > 1e-12 {
		t.Errorf("agent rewards %v, want [%v %v]", rew, want0, want1)
	}
	if team := g.Reward()[0]; math.Abs(team-(want0+want1)/2) > 1e-12 {
		t.Errorf("team reward %v, want the mean %v", team, (want0+want1)/2)
	}
	if e := g.Effort(); e[0] != 1 || e[1] != 0 || e[2] != 0 || e[3] != 0 {
		t.Errorf("capture matrix %v, want [1 0 0 0]", e)
	}
	// Without the shaping and the penalty the rewards are R(A) alone.
	if err := g.SetParams(Params{Names: []string{"shaping", "penalty"}, Values: []float64{0, 0}}); err != nil {
		t.Fatal(err)
	}
	stepAll(t, g, 0, 0)
	for i, v := range g.AgentRewards() {
		if v != 0.5 {
			t.Errorf("capture reward alone: chaser %d gets %v, want 0.5", i, v)
		}
	}
	// Chaser 1's difference reward: R(A) - R(A without chaser 1) = 0;
	// chaser 0's: 0.5 - 0.
	d := g.DifferenceRewards()
	if d[0] != 0.5 || d[1] != 0 {
		t.Errorf("difference rewards %v, want [0.5 0]", d)
	}
}

// TestTagVMASObservation checks the layout: own position, own velocity,
// each escaper's position relative to the chaser.
func TestTagVMASObservation(t *testing.T) {
	g := newTestTagVMAS(t, 2, TagVMASConfig{Escapers: 3})
	if g.ObsDim() != 4+2*3 {
		t.Fatalf("ObsDim %d, want 10", g.ObsDim())
	}
	for step := 0; step < 6; step++ {
		stepAll(t, g, 0.3, -0.7)
	}
	N, M, E, od := g.n, g.m, g.ne, g.od
	for b := 0; b < 2; b++ {
		for i := 0; i < N; i++ {
			o := g.Obs()[(b*N+i)*od : (b*N+i+1)*od]
			p := g.pos[b*E*2 : (b+1)*E*2]
			v := g.vel[b*E*2 : (b+1)*E*2]
			want := []float64{p[2*i], p[2*i+1], v[2*i], v[2*i+1]}
			for j := 0; j < M; j++ {
				want = append(want, p[2*(N+j)]-p[2*i], p[2*(N+j)+1]-p[2*i+1])
			}
			for k := range want {
				if o[k] != want[k] {
					t.Fatalf("element %d chaser %d: observation %v, want %v", b, i, o, want)
				}
			}
		}
	}
}

// TestTagVMASDeterministic checks that a seed gives the same episode bit
// for bit, another seed another one, and that spawns stay in the world.
func TestTagVMASDeterministic(t *testing.T) {
	r := aggregators.NewReward(aggregators.Mean{}, aggregators.Max{})
	play := func(seed int64) ([]float64, []float64) {
		g, err := TagVMAS2v2(8, r)
		if err != nil {
			t.Fatal(err)
		}
		pol := g.ChaserPolicy(5, 0.2, 0.3, false)
		ret, err := Rollout(g, pol, seed, nil)
		if err != nil {
			t.Fatal(err)
		}
		return ret, append(g.AgentPositions(3), g.TaskPositions(3)...)
	}
	r1, p1 := play(7)
	r2, p2 := play(7)
	r3, _ := play(8)
	for k := range r1 {
		if r1[k] != r2[k] {
			t.Fatalf("seed 7 twice: returns %v and %v", r1, r2)
		}
	}
	for k := range p1 {
		if p1[k] != p2[k] || math.Abs(p1[k]) > TagBound {
			t.Fatalf("seed 7 twice: final positions %v and %v", p1, p2)
		}
	}
	same := true
	for k := range r1 {
		same = same && r1[k] == r3[k]
	}
	if same {
		t.Error("seeds 7 and 8 give the same returns")
	}
	g, _ := TagVMAS2v2(500, r)
	if err := g.Reset(3); err != nil {
		t.Fatal(err)
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range append(append([]float64(nil), g.pos...), g.obst...) {
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	if lo < -TagBound || hi >= TagBound || lo > -0.95 || hi < 0.95 {
		t.Errorf("spawn coordinates span [%v, %v], want them to fill [-1, 1)", lo, hi)
	}
}

// TestTagVMASScriptedTeams plays the reference chasers (TagChaser) on the
// capture reward alone: under min∘max a chaser caught on one escaper can
// catch no other, so a team earns only when its chasers take different
// escapers, and specialists (chaser i after escaper i) do so in every
// episode they catch both, where chasers of their nearest escaper split
// only when their nearest escapers differ. Under max∘max, where one
// capture pays all, chasing the nearest is the faster.
func TestTagVMASScriptedTeams(t *testing.T) {
	mean := func(pair string, homogeneous bool) float64 {
		u, tt, _ := strings.Cut(pair, "-")
		r := aggregators.NewReward(aggregators.MustParse(u), aggregators.MustParse(tt))
		g, err := TagVMAS2v2(256, r)
		if err != nil {
			t.Fatal(err)
		}
		if err := g.SetParams(Params{Names: []string{"shaping", "penalty"}, Values: []float64{0, 0}}); err != nil {
			t.Fatal(err)
		}
		ret, err := Rollout(g, g.ChaserPolicy(10, 0, 0, homogeneous), 1, nil)
		if err != nil {
			t.Fatal(err)
		}
		s := 0.0
		for _, v := range ret {
			s += v / float64(len(ret))
		}
		return s
	}
	if het, hom := mean("min-min", false), mean("min-min", true); het != 0 || hom != 0 {
		t.Errorf("min∘min: %v and %v, want 0: a chaser holds one escaper, so no escaper is held by both", het, hom)
	}
	het, hom := mean("max-max", false), mean("max-max", true)
	if !(hom > het && het > 0) {
		t.Errorf("max∘max: specialists %v, chasers of the nearest %v; want the nearest ahead", het, hom)
	}
	het, hom = mean("min-max", false), mean("min-max", true)
	if !(het > 0 && hom > 0) {
		t.Errorf("min∘max: specialists %v, chasers of the nearest %v; want both to catch both escapers at times", het, hom)
	}
}

// TestTagVMASParams checks the parameter list, the domains, and that a
// refused setting changes nothing.
func TestTagVMASParams(t *testing.T) {
	r := aggregators.NewReward(aggregators.Softmax{T: 1}, aggregators.Max{})
	g := newTestTagVMAS(t, 1, TagVMASConfig{Reward: r})
	want := []string{"U.t", "drag", "force", "chaser.speed", "escaper.speed", "obstacle.radius", "shaping", "penalty"}
	if got := g.Params().Names; strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("Params().Names = %v, want %v", got, want)
	}
	before := g.Params()
	bad := []Params{
		{Names: []string{"drag"}, Values: []float64{1.5}},
		{Names: []string{"escaper.speed"}, Values: []float64{0}},
		{Names: []string{"force"}, Values: []float64{-1}},
		{Names: []string{"obstacle.radius"}, Values: []float64{0.5}},
		{Names: []string{"shaping"}, Values: []float64{math.NaN()}},
		{Names: []string{"penalty", "sensor.range"}, Values: []float64{0, 1}},
		{Names: []string{"shaping", "shaping"}, Values: []float64{0, 1}},
		{Names: []string{"U.t", "drag"}, Values: []float64{1}},
	}
	for _, p := range bad {
		if err := g.SetParams(p); !errors.Is(err, ErrParam) || !strings.HasPrefix(err.Error(), "simulate: ") {
			t.Errorf("SetParams(%v) = %v, want an ErrParam", p, err)
		}
		if got := g.Params(); got.String() != before.String() {
			t.Fatalf("a refused SetParams(%v) changed the parameters to %v", p, got)
		}
	}
	if err := g.SetParams(Params{Names: []string{"escaper.speed", "U.t"}, Values: []float64{0.5, -2}}); err != nil {
		t.Fatal(err)
	}
	if v, _ := g.Params().Get("escaper.speed"); v != 0.5 {
		t.Errorf("escaper.speed = %v after setting 0.5", v)
	}
	if u, ok := g.TeamReward().Outer.(aggregators.Softmax); !ok || u.T != -2 {
		t.Errorf("U after setting U.t = -2: %v", g.TeamReward().Outer)
	}
	h := newTestTagVMAS(t, 1, TagVMASConfig{NoObstacles: true})
	if h.Params().Index("obstacle.radius") >= 0 {
		t.Error("an open field has the parameter obstacle.radius")
	}
}

// TestTagVMASBadInput checks configurations and actions that are refused
// with errors naming what is wrong.
func TestTagVMASBadInput(t *testing.T) {
	r := aggregators.NewReward(aggregators.Min{}, aggregators.Max{})
	configs := []TagVMASConfig{
		{Batch: 0, Reward: r},
		{Batch: 1, Chasers: -1, Reward: r},
		{Batch: 1, Obstacles: -2, Reward: r},
		{Batch: 1, Obstacles: 2, NoObstacles: true, Reward: r},
		{Batch: 1},
		{Batch: 1, EpisodeLength: MaxEpisodeLength + 1, Reward: r},
		{Batch: MaxEnvValues, Reward: r},
		{Batch: 1, Reward: aggregators.NewReward(aggregators.PowerSum{T: -1}, aggregators.Max{})},
	}
	for _, c := range configs {
		if _, err := NewTagVMAS(c); !errors.Is(err, ErrConfig) && !errors.Is(err, aggregators.ErrParam) {
			t.Errorf("NewTagVMAS(%+v) = %v, want an ErrConfig", c, err)
		}
	}
	g, err := TagVMAS2v2(2, r)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Step(make([]float64, 8)); !errors.Is(err, ErrNotReset) {
		t.Errorf("Step before Reset: %v", err)
	}
	if err := g.Reset(1); err != nil {
		t.Fatal(err)
	}
	before := append([]float64(nil), g.pos...)
	for _, a := range [][]float64{make([]float64, 7), {0, 0, 0, 0, 0, math.NaN(), 0, 0}, {0, math.Inf(1), 0, 0, 0, 0, 0, 0}} {
		if err := g.Step(a); !errors.Is(err, ErrAction) {
			t.Errorf("Step(%v) = %v, want ErrAction", a, err)
		}
	}
	for k := range before {
		if g.pos[k] != before[k] {
			t.Fatal("a refused Step moved the bodies")
		}
	}
	for s := 0; s < g.EpisodeLength(); s++ {
		stepAll(t, g, 0.5, 0.5)
	}
	if err := g.Step(make([]float64, 8)); !errors.Is(err, ErrDone) {
		t.Errorf("Step after the end: %v", err)
	}
	wantPanic(t, "AgentPositions(2)", "batch element 2", func() { g.AgentPositions(2) })
	wantPanic(t, "Held(-1)", "batch element -1", func() { g.Held(-1) })
}

// BenchmarkTagVMAS measures steps of 1024 episodes of 2v2 TagVMAS with
// random actions, in agent-steps per second.
func BenchmarkTagVMAS(b *testing.B) {
	const B = 1024
	g, err := TagVMAS2v2(B, aggregators.NewReward(aggregators.Min{}, aggregators.Max{}))
	if err != nil {
		b.Fatal(err)
	}
	acts := randomActions(1, B*g.Agents()*2, -1, 1)
	_ = g.Reset(0)
	b.ResetTimer()
	for it := 0; it < b.N; it++ {
		if g.Done()[0] {
			_ = g.Reset(int64(it))
		}
		if err := g.Step(acts); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)*B*float64(g.Agents())/b.Elapsed().Seconds(), "agent-steps/s")
}

// TestTagVMASDifferenceUnderMin checks why difference rewards change
// nothing under U = min in the 2v2 game: a chaser holds one escaper at
// most, so R(A) > 0 needs each chaser on its own escaper, and then
// removing either leaves an escaper unheld; R(A_{-i}) is 0 in every step,
// and each chaser's difference reward is its own reward, bit for bit.
// Under (mean, max) it is not: a chaser whose partner holds the same
// escaper earns nothing for it.
func TestTagVMASDifferenceUnderMin(t *testing.T) {
	// nearest: chasers of their nearest escaper, who often both hold one;
	// else specialists (chaser i after escaper i), who often hold both.
	play2v2 := func(u, tt aggregators.Operator, nearest bool) (rewarded, differing int) {
		r := aggregators.NewReward(u, tt)
		g, err := TagVMAS2v2(32, r)
		if err != nil {
			t.Fatal(err)
		}
		pol := g.ChaserPolicy(10, 0.2, 0, nearest)
		err = play(g, pol, 3, nil, func(live []bool) {
			d, own, eff := g.DifferenceRewards(), g.AgentRewards(), g.Effort()
			for b, l := range live {
				if !l {
					continue
				}
				v, err := r.Value(mat.NewDense(2, 2, append([]float64(nil), eff[b*4:(b+1)*4]...)))
				if err != nil {
					t.Fatal(err)
				}
				if v > 0 {
					rewarded++
				}
				for i := 0; i < 2; i++ {
					if d[b*2+i] != own[b*2+i] {
						differing++
					}
				}
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		return rewarded, differing
	}
	for _, tt := range []aggregators.Operator{aggregators.Min{}, aggregators.Mean{}, aggregators.Max{}} {
		rewarded, differing := play2v2(aggregators.Min{}, tt, false)
		if differing != 0 {
			t.Errorf("(min, %v): the difference reward differs from the own reward in %d chaser steps, want 0", tt, differing)
		}
		if _, isMin := tt.(aggregators.Min); !isMin && rewarded == 0 {
			t.Errorf("(min, %v): no step pays R(A) > 0, so nothing was checked", tt)
		}
	}
	if _, differing := play2v2(aggregators.Mean{}, aggregators.Max{}, true); differing == 0 {
		t.Error("(mean, max): the difference reward equals the own reward in every step; want it to differ where both chasers hold one escaper")
	}
}
