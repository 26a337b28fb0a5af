package simulate

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func newCapture(t testing.TB, cfg CaptureConfig) *Capture {
	t.Helper()
	if cfg.Reward == nil {
		cfg.Reward = reward(t, "min", "max")
	}
	c, err := NewCapture(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// runEpisode plays seed's episode with random actions (from actSeed) and
// returns every observation, effort and reward, concatenated.
func runEpisode(t *testing.T, env Env, seed, actSeed int64) []float64 {
	t.Helper()
	if err := env.Reset(seed); err != nil {
		t.Fatal(err)
	}
	var out []float64
	out = append(out, env.Obs()...)
	w := env.ActionSpace().Width()
	for s := 0; !env.Done()[0]; s++ {
		acts := randomActions(actSeed+int64(s), env.Batch()*env.Agents()*w, -1.2, 1.2)
		if err := env.Step(acts); err != nil {
			t.Fatal(err)
		}
		out = append(out, env.Obs()...)
		out = append(out, env.Effort()...)
		out = append(out, env.Reward()...)
	}
	return out
}

// checkSeedDeterminism plays episodes of env from seeds 42, 42 and 43 and
// checks that the same seed gives the same observations, efforts and
// rewards, bit for bit, and a different seed does not.
func checkSeedDeterminism(t *testing.T, env Env) {
	t.Helper()
	a, b := runEpisode(t, env, 42, 1), runEpisode(t, env, 42, 1)
	if len(a) != len(b) {
		t.Fatal("lengths differ")
	}
	for k := range a {
		if math.Float64bits(a[k]) != math.Float64bits(b[k]) {
			t.Fatalf("same seed: value %d differs: %v vs %v", k, a[k], b[k])
		}
	}
	d := runEpisode(t, env, 43, 1)
	same := 0
	for k := range a {
		if a[k] == d[k] {
			same++
		}
	}
	if same == len(a) {
		t.Error("different seeds give the same episode")
	}
}

func TestCaptureDeterminism(t *testing.T) {
	for _, cfg := range []CaptureConfig{
		{Batch: 5},
		{Batch: 3, Agents: 3, Goals: 3, Sensor: true, Collisions: true, EpisodeLength: 30},
	} {
		c := newCapture(t, cfg)
		checkSeedDeterminism(t, c)
		// Different batch elements start differently.
		_ = c.Reset(42)
		if c.AgentPositions(0)[1] == c.AgentPositions(1)[1] {
			t.Error("batch elements 0 and 1 spawn alike")
		}
	}
}

// TestCaptureSpawn checks the spawn rules, also for the most agents and
// goals the spawn areas hold, where rejection sampling fails now and then
// and the lattice takes over.
func TestCaptureSpawn(t *testing.T) {
	for _, c := range []struct{ n, m, batch, seeds int }{{4, 1, 200, 5}, {4, 2, 200, 5}, {4, 3, 200, 5}, {28, 3, 8, 3}} {
		checkCaptureSpawn(t, c.n, c.m, c.batch, c.seeds)
	}
	// 20 agents: rejection sampling failed in 21 of 100 Resets of a batch
	// of 64, before the lattice.
	checkCaptureSpawn(t, 20, 2, 64, 30)
	for _, c := range []struct {
		cfg  CaptureConfig
		want string
	}{
		{CaptureConfig{Batch: 1, Goals: 4}, "4 goals, at most 3"},
		{CaptureConfig{Batch: 1, Agents: 29}, "29 agents, at most 28"},
	} {
		c.cfg.Reward = reward(t, "min", "max")
		if _, err := NewCapture(c.cfg); !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want ErrConfig saying %q", c.cfg, err, c.want)
		}
	}
	// Fixed goals are not spawned: 4 of them are fine.
	fixed := newCapture(t, CaptureConfig{Batch: 1, Goals: 4, FixedGoals: []float64{1, -1, 1, 0, 1, 0.5, 1, 1}})
	if err := fixed.Reset(1); err != nil {
		t.Errorf("4 fixed goals: %v", err)
	}
}

// checkCaptureSpawn resets Multi-goal-capture with n agents and m goals
// at several seeds and checks every element's spawn.
func checkCaptureSpawn(t *testing.T, n, m, batch, seeds int) {
	t.Helper()
	const slack = 1 - 1e-12 // lattice nodes are a gap apart up to rounding
	c := newCapture(t, CaptureConfig{Batch: batch, Agents: n, Goals: m})
	for seed := int64(0); seed < int64(seeds); seed++ {
		if err := c.Reset(seed); err != nil {
			t.Fatalf("%d agents, %d goals, seed %d: %v", n, m, seed, err)
		}
		for b := 0; b < c.Batch(); b++ {
			p, g := c.AgentPositions(b), c.TaskPositions(b)
			for i := 0; i < n; i++ {
				if p[2*i] < -1.2 || p[2*i] > -1.0 || p[2*i+1] < -1 || p[2*i+1] > 1 {
					t.Fatalf("agent at %v", p[2*i:2*i+2])
				}
				for j := 0; j < i; j++ {
					if math.Hypot(p[2*i]-p[2*j], p[2*i+1]-p[2*j+1]) < CaptureAgentGap*slack {
						t.Fatalf("agents %d and %d closer than 0.15: %v", i, j, p)
					}
				}
			}
			for i := 0; i < m; i++ {
				if g[2*i] != 1.1 || g[2*i+1] < -1 || g[2*i+1] > 1 {
					t.Fatalf("goal at %v", g[2*i:2*i+2])
				}
				for j := 0; j < i; j++ {
					if math.Abs(g[2*i+1]-g[2*j+1]) < CaptureGoalGap*slack {
						t.Fatalf("goals %d and %d closer than 0.8: %v", i, j, g)
					}
				}
			}
			for _, v := range c.AgentVelocities(b) {
				if v != 0 {
					t.Fatal("non-zero initial velocity")
				}
			}
		}
	}
}

// TestCapturePhysics checks one step against a hand integration of the
// VMAS update: drag once, then two substeps of v += F dt/2, p += v dt/2.
func TestCapturePhysics(t *testing.T) {
	c := newCapture(t, CaptureConfig{Batch: 1, EpisodeLength: 3})
	_ = c.Reset(3)
	p0 := c.AgentPositions(0)
	a := []float64{0.5, -2, -0.3, 0.8} // agent 0's y force clamps to -1
	if err := c.Step(a); err != nil {
		t.Fatal(err)
	}
	f := []float64{0.5, -1, -0.3, 0.8}
	for k := range f {
		v := 0.0 * (1 - 0.25)
		v += f[k] * 0.05
		p := p0[k] + v*0.05
		v += f[k] * 0.05
		p += v * 0.05
		if got := c.AgentPositions(0)[k]; math.Abs(got-p) > 1e-15 {
			t.Errorf("coordinate %d: position %v, hand-integrated %v", k, got, p)
		}
		if got := c.AgentVelocities(0)[k]; math.Abs(got-v) > 1e-15 {
			t.Errorf("coordinate %d: velocity %v, hand-integrated %v", k, got, v)
		}
	}
	// Second step: drag applies once to the velocity.
	v1 := c.AgentVelocities(0)
	p1 := c.AgentPositions(0)
	if err := c.Step([]float64{0, 0, 0, 0}); err != nil {
		t.Fatal(err)
	}
	for k := range v1 {
		v := v1[k] * 0.75
		p := p1[k] + 2*v*0.05
		if got := c.AgentPositions(0)[k]; math.Abs(got-p) > 1e-15 {
			t.Errorf("step 2 coordinate %d: position %v, want %v", k, got, p)
		}
	}
	// Observation layout.
	o := c.Obs()[:c.ObsDim()]
	g := c.TaskPositions(0)
	pp, vv := c.AgentPositions(0), c.AgentVelocities(0)
	want := []float64{pp[0], pp[1], vv[0], vv[1], pp[0] - g[0], pp[1] - g[1], pp[0] - g[2], pp[1] - g[3]}
	for k := range want {
		if o[k] != want[k] {
			t.Fatalf("observation %v, want %v", o, want)
		}
	}
}

// TestCaptureWall pushes agent 0 into the top-left corner and agent 1,
// across the field, into the bottom-right one: both are held at the
// walls, on all four sides, with their velocities kept (as VMAS does).
func TestCaptureWall(t *testing.T) {
	c := newCapture(t, CaptureConfig{Batch: 1, EpisodeLength: 200, FixedGoals: []float64{1.1, -0.5, 1.1, 0.5}})
	_ = c.Reset(0)
	for s := 0; s < 150; s++ {
		if err := c.Step([]float64{-1, 1, 1, -1}); err != nil {
			t.Fatal(err)
		}
	}
	p, v := c.AgentPositions(0), c.AgentVelocities(0)
	if p[0] != -CaptureXBound || p[1] != CaptureYBound || p[2] != CaptureXBound || p[3] != -CaptureYBound {
		t.Errorf("agents pushing into the corners are at %v", p)
	}
	if v[0] >= 0 || v[1] <= 0 || v[2] <= 0 || v[3] >= 0 {
		t.Errorf("velocity %v: VMAS keeps the velocity at the wall", v)
	}
}

func TestCaptureRewardMatchesAggregators(t *testing.T) {
	for _, spec := range [][]string{{"min", "max"}, {"softmax(-1)", "softmax(2)"}, {"powersum(0.5)", "powersum(2)"}, {"mean", "powermean(3)"}} {
		for _, m := range []int{1, 2, 3} {
			r := reward(t, spec[0], spec[1])
			r.Budget = 0.25 // not applied: TeamReward's Budget is 1
			c := newCapture(t, CaptureConfig{Batch: 4, Agents: 3, Goals: m, Reward: r, EpisodeLength: 5})
			_ = c.Reset(9)
			for s := 0; s < 5; s++ {
				if err := c.Step(randomActions(int64(s), 4*3*2, -1, 1)); err != nil {
					t.Fatal(err)
				}
				checkEffortRows(t, c.Effort(), m)
				for b := 0; b < 4; b++ {
					e := c.Effort()[b*3*m : (b+1)*3*m]
					r, err := c.TeamReward().Value(mat.NewDense(3, m, append([]float64(nil), e...)))
					if err != nil {
						t.Fatal(err)
					}
					// Check the effort formula too.
					p, g := c.AgentPositions(b), c.TaskPositions(b)
					for i := 0; i < 3; i++ {
						sum := 0.0
						for j := 0; j < m; j++ {
							sum += math.Hypot(p[2*i]-g[2*j], p[2*i+1]-g[2*j+1])
						}
						for j := 0; j < m; j++ {
							want := 1.0
							if m > 1 {
								want = (1 - math.Hypot(p[2*i]-g[2*j], p[2*i+1]-g[2*j+1])/sum) / float64(m-1)
							}
							if math.Abs(e[i*m+j]-want) > 1e-12 {
								t.Fatalf("effort[%d][%d] = %v, want %v", i, j, e[i*m+j], want)
							}
						}
					}
					if got := c.Reward()[b]; math.Abs(got-r/10) > 1e-15*math.Max(1, math.Abs(r)) {
						t.Errorf("%v M=%d: reward %v, want R/10 = %v", spec, m, got, r/10)
					}
				}
			}
		}
	}
}

func TestCaptureBonus(t *testing.T) {
	c := newCapture(t, CaptureConfig{Batch: 1, Reward: reward(t, "sum", "sum"), EpisodeLength: 2})
	_ = c.Reset(0)
	p := c.AgentPositions(0)
	g := c.TaskPositions(0)
	// Put the agents on the goals, at rest.
	copy(c.pos[:4], []float64{g[0] + 0.01, g[1], g[2], g[3] - 0.02})
	if err := c.Step([]float64{0, 0, 0, 0}); err != nil {
		t.Fatal(err)
	}
	// sum∘sum of efforts is N = 2: R/10 = 0.2, plus the bonus.
	if got := c.Reward()[0]; math.Abs(got-0.21) > 1e-15 {
		t.Errorf("covered goals: reward %v, want 0.21", got)
	}
	copy(c.pos[:4], p)
	if err := c.Step([]float64{0, 0, 0, 0}); err != nil {
		t.Fatal(err)
	}
	if got := c.Reward()[0]; math.Abs(got-0.2) > 1e-15 {
		t.Errorf("uncovered goals: reward %v, want 0.2", got)
	}
	if !c.Done()[0] {
		t.Error("not done after EpisodeLength steps")
	}
	if err := c.Step([]float64{0, 0, 0, 0}); !errors.Is(err, ErrDone) {
		t.Errorf("step after the end: %v", err)
	}
}

// TestCaptureDifferenceRewards checks each agent's difference reward
// against the aggregators for several rewards and numbers of goals, and
// against the closed form of mean∘mean with and without the bonus.
func TestCaptureDifferenceRewards(t *testing.T) {
	for _, spec := range [][]string{{"min", "max"}, {"mean", "max"}, {"max", "min"}, {"softmax(-1)", "softmax(2)"}, {"powersum(0.5)", "powersum(2)"}} {
		for _, m := range []int{1, 2, 3} {
			r := reward(t, spec[0], spec[1])
			r.Budget = 0.25 // not applied: TeamReward's Budget is 1
			c := newCapture(t, CaptureConfig{Batch: 4, Agents: 3, Goals: m, Reward: r, EpisodeLength: 5})
			var _ DifferenceRewarder = c
			_ = c.Reset(9)
			for s := 0; s < 5; s++ {
				if err := c.Step(randomActions(int64(s), 4*3*2, -1, 1)); err != nil {
					t.Fatal(err)
				}
				for b := 0; b < 4; b++ {
					checkDifferenceRewards(t, c, 0.1, b, fmt.Sprintf("%v M=%d step %d", spec, m, s))
				}
			}
		}
	}
	// Under mean∘mean removing agent i's row removes 1/(NM) of R, whatever
	// the positions: each agent's difference reward is 1/(10NM) plus the
	// bonus, which stays shared.
	c := newCapture(t, CaptureConfig{Batch: 1, Reward: reward(t, "mean", "mean"), EpisodeLength: 2})
	_ = c.Reset(0)
	p, g := c.AgentPositions(0), c.TaskPositions(0)
	copy(c.pos[:4], []float64{g[0] + 0.01, g[1], g[2], g[3] - 0.02})
	for step, want := range []float64{1.0/40 + CaptureBonus, 1.0 / 40} {
		if err := c.Step([]float64{0, 0, 0, 0}); err != nil {
			t.Fatal(err)
		}
		for i, got := range c.DifferenceRewards() {
			if math.Abs(got-want) > 1e-15 {
				t.Errorf("mean∘mean step %d: agent %d's difference reward %v, want %v", step, i, got, want)
			}
		}
		copy(c.pos[:4], p)
	}
}

// TestCaptureDifferenceRewardsLifecycle checks that the difference rewards
// are zero after Reset, follow the step that set the efforts (a Step or
// ReturnGradient) whether or not they were read before it, and are left
// alone by a failed Step.
func TestCaptureDifferenceRewardsLifecycle(t *testing.T) {
	cfg := CaptureConfig{Batch: 3, Agents: 3, Reward: reward(t, "mean", "softmax(2)"), EpisodeLength: 4}
	c, twin := newCapture(t, cfg), newCapture(t, cfg)
	N := c.Agents()
	for round := 0; round < 2; round++ {
		for _, env := range []*Capture{c, twin} {
			if err := env.Reset(int64(5 + round)); err != nil {
				t.Fatal(err)
			}
		}
		for k, v := range c.DifferenceRewards() {
			if v != 0 {
				t.Fatalf("round %d: after Reset, difference reward %d is %v", round, k, v)
			}
		}
		act := randomActions(int64(3+round), c.Batch()*N*2, -1, 1)
		for _, env := range []*Capture{c, twin} {
			if err := env.Step(act); err != nil {
				t.Fatal(err)
			}
		}
		checkFailedStepKeepsDifferenceRewards(t, c, append([]float64(nil), twin.DifferenceRewards()...), round == 1)
		for b := 0; b < c.Batch(); b++ {
			checkDifferenceRewards(t, c, 0.1, b, fmt.Sprintf("round %d step", round))
		}
		if _, _, err := c.ReturnGradient(c.SeekerPolicy(1.5, 0.5, 0.3, false), 1, []string{"T.t"}); err != nil {
			t.Fatal(err)
		}
		for b := 0; b < c.Batch(); b++ {
			checkDifferenceRewards(t, c, 0.1, b, fmt.Sprintf("round %d ReturnGradient", round))
		}
	}
}

func TestCaptureSensor(t *testing.T) {
	c := newCapture(t, CaptureConfig{Batch: 1, Agents: 3, Sensor: true, EpisodeLength: 5})
	_ = c.Reset(0)
	// Agent 1 straight to the right of agent 0 at distance 0.2, agent 2
	// straight above at 0.3 (out of range 0.25 for ray 3).
	copy(c.pos[:6], []float64{0, 0, 0.2, 0, 0, 0.3})
	_ = c.SetParams(Params{Names: []string{"sensor.range"}, Values: []float64{0.25}})
	c.observe(0, c.pos, c.vel, c.obs)
	o := c.Obs()[:c.ObsDim()]
	rays := o[4+2*2:]
	if len(rays) != 12 {
		t.Fatalf("%d rays", len(rays))
	}
	if math.Abs(rays[0]-0.15) > 1e-15 {
		t.Errorf("ray 0 reads %v, want 0.15", rays[0])
	}
	for k := 1; k < 12; k++ {
		if rays[k] != 0.25 {
			t.Errorf("ray %d reads %v, want the range 0.25", k, rays[k])
		}
	}
	_ = c.SetParams(Params{Names: []string{"sensor.range"}, Values: []float64{1}})
	c.observe(0, c.pos, c.vel, c.obs)
	if r := c.Obs()[4+2*2+3]; math.Abs(r-0.25) > 1e-15 {
		t.Errorf("ray 3 (up) reads %v, want 0.25", r)
	}
	// Agent 1 sees agent 0 on ray 6 (angle π).
	if r := c.Obs()[c.ObsDim()+4+2*2+6]; math.Abs(r-0.15) > 1e-12 {
		t.Errorf("agent 1 ray 6 reads %v, want 0.15", r)
	}
}

func TestCaptureErrors(t *testing.T) {
	c := newCapture(t, CaptureConfig{Batch: 2})
	if err := c.Step(make([]float64, 8)); !errors.Is(err, ErrNotReset) {
		t.Errorf("before reset: %v", err)
	}
	_ = c.Reset(0)
	before := append([]float64(nil), c.pos...)
	for _, bad := range []struct {
		acts []float64
		want string
	}{
		{make([]float64, 7), "7 action values"},
		{[]float64{0, 0, 0, 0, 0, 0, math.NaN(), 0}, "batch 1 agent 1: action[0] = NaN"},
		{[]float64{0, math.Inf(1), 0, 0, 0, 0, 0, 0}, "batch 0 agent 0: action[1] = +Inf"},
	} {
		err := c.Step(bad.acts)
		if !errors.Is(err, ErrAction) || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%v: %v, want %q", bad.acts, err, bad.want)
		}
	}
	for k := range before {
		if c.pos[k] != before[k] {
			t.Fatal("a failed step moved the agents")
		}
	}
	for _, p := range []Params{
		{Names: []string{"drag"}, Values: []float64{1.5}},
		{Names: []string{"force"}, Values: []float64{-1}},
		{Names: []string{"force"}, Values: []float64{2 * MaxPhysical}},
		{Names: []string{"goal.x"}, Values: []float64{2}},
		{Names: []string{"sensor.range"}, Values: []float64{1}}, // no sensor
		{Names: []string{"goal0.x"}, Values: []float64{1}},      // goals not fixed
		{Names: []string{"U.t"}, Values: []float64{1}},          // min is not parametric
		{Names: []string{"drag"}, Values: []float64{math.NaN()}},
	} {
		if err := c.SetParams(p); !errors.Is(err, ErrParam) {
			t.Errorf("%v: %v, want ErrParam", p, err)
		}
	}
	if got := c.Params().String(); got != "{drag=0.25 force=1 goal.x=1.1}" {
		t.Errorf("params %s", got)
	}
	if _, err := NewCapture(CaptureConfig{Batch: 1, FixedGoals: []float64{1}, Reward: reward(t, "min", "max")}); !errors.Is(err, ErrConfig) {
		t.Errorf("odd fixed goals: %v", err)
	}
	// Fixed goals lie in the world's box: a goal at 1e200 made the
	// distances, and so the reward, NaN.
	for _, goals := range [][]float64{{1e200, 0, 1, 0}, {1, 0, 1, -1.3}, {1, 0, math.Inf(1), 0}} {
		_, err := NewCapture(CaptureConfig{Batch: 1, FixedGoals: goals, Reward: reward(t, "min", "max")})
		if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), "outside the world") {
			t.Errorf("fixed goals %v: %v, want ErrConfig saying the goal is outside the world", goals, err)
		}
	}
	fixed := newCapture(t, CaptureConfig{Batch: 1, FixedGoals: []float64{1.4, -1.2, -1.4, 1.2}})
	for _, p := range []Params{
		{Names: []string{"goal0.x"}, Values: []float64{1.5}},
		{Names: []string{"goal1.y"}, Values: []float64{-1e200}},
	} {
		if err := fixed.SetParams(p); !errors.Is(err, ErrParam) || !strings.Contains(err.Error(), "outside the world") {
			t.Errorf("%v: %v, want ErrParam saying the goal is outside the world", p, err)
		}
	}
	if got := fixed.Params().String(); !strings.Contains(got, "goal0.x=1.4 goal0.y=-1.2 goal1.x=-1.4 goal1.y=1.2") {
		t.Errorf("goals on the world's edge: params %s", got)
	}
}

// TestCaptureBatchIndependence steps a batch and, one by one, copies of
// each element, with the same actions.
func TestCaptureBatchIndependence(t *testing.T) {
	const B = 4
	cfg := CaptureConfig{Batch: B, Agents: 3, Goals: 2, Sensor: true, Collisions: true, EpisodeLength: 20}
	c := newCapture(t, cfg)
	_ = c.Reset(5)
	singles := make([]*Capture, B)
	for b := range singles {
		one := cfg
		one.Batch = 1
		singles[b] = newCapture(t, one)
		singles[b].base = b
		_ = singles[b].Reset(5)
	}
	for s := 0; s < 20; s++ {
		acts := randomActions(int64(s), B*3*2, -1, 1)
		if err := c.Step(acts); err != nil {
			t.Fatal(err)
		}
		for b, one := range singles {
			if err := one.Step(acts[b*6 : (b+1)*6]); err != nil {
				t.Fatal(err)
			}
			if one.Reward()[0] != c.Reward()[b] {
				t.Fatalf("step %d element %d: reward %v alone, %v in the batch", s, b, one.Reward()[0], c.Reward()[b])
			}
			od := c.ObsDim()
			for k, v := range one.Obs() {
				if v != c.Obs()[b*3*od+k] {
					t.Fatalf("step %d element %d: observations differ", s, b)
				}
			}
		}
	}
}

func BenchmarkCapture(b *testing.B) {
	for _, c := range []struct {
		name string
		cfg  CaptureConfig
	}{
		{"min-max/N2M2", CaptureConfig{Agents: 2, Goals: 2}},
		{"softmax/N2M2", CaptureConfig{Agents: 2, Goals: 2, Reward: reward(b, "softmax(-2)", "softmax(2)")}},
		{"min-max/N4M3/sensor", CaptureConfig{Agents: 4, Goals: 3, Sensor: true}},
	} {
		b.Run(c.name, func(b *testing.B) {
			const B = 1024
			cfg := c.cfg
			cfg.Batch = B
			env := newCapture(b, cfg)
			acts := randomActions(1, B*cfg.Agents*2, -1, 1)
			_ = env.Reset(0)
			b.ResetTimer()
			for it := 0; it < b.N; it++ {
				if env.Done()[0] {
					_ = env.Reset(int64(it))
				}
				if err := env.Step(acts); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)*B*float64(cfg.Agents)/b.Elapsed().Seconds(), "agent-steps/s")
		})
	}
}

func TestCaptureGradient(t *testing.T) {
	for _, c := range []struct {
		name   string
		cfg    CaptureConfig
		params []string
		hs     []float64
		random bool    // a random linear policy that runs into walls
		tol    float64 // relative tolerance, 1e-5 if 0
	}{
		{"softmax", CaptureConfig{Batch: 6, Reward: reward(t, "softmax(-2)", "softmax(3)")},
			[]string{"U.t", "T.t", "drag", "force", "goal.x"}, []float64{1e-5, 1e-5, 1e-6, 1e-6, 1e-6}, false, 0},
		{"powersum-3x3", CaptureConfig{Batch: 4, Agents: 3, Goals: 3, Reward: reward(t, "powersum(0.6)", "powersum(2.5)")},
			[]string{"U.t", "T.t", "drag", "force", "goal.x"}, []float64{1e-5, 1e-5, 1e-6, 1e-6, 1e-6}, false, 0},
		{"fixed-goals", CaptureConfig{Batch: 3, Reward: reward(t, "lse(-1)", "softmax(2)"), FixedGoals: []float64{1.1, -0.6, 0.9, 0.5}},
			[]string{"goal0.x", "goal0.y", "goal1.y", "T.t"}, []float64{1e-6, 1e-6, 1e-6, 1e-5}, false, 0},
		{"sensor", CaptureConfig{Batch: 6, Agents: 3, Reward: reward(t, "softmax(-1)", "softmax(1)"), Sensor: true},
			[]string{"sensor.range", "drag", "goal.x", "U.t"}, []float64{1e-8, 1e-8, 1e-8, 1e-6}, false, 0},
		// Contacts are stiff (force 500, margin 1e-3): they amplify rounding
		// errors, so that finite differences of long episodes are only good
		// to about 1e-5 at any step size; hence a looser tolerance.
		{"collisions", CaptureConfig{Batch: 6, Agents: 3, Reward: reward(t, "softmax(-1)", "softmax(1)"), Collisions: true},
			[]string{"drag", "goal.x", "force"}, []float64{1e-8, 1e-8, 1e-8}, false, 1e-4},
		{"random-policy-walls", CaptureConfig{Batch: 6, Agents: 3, Reward: reward(t, "softmax(-1)", "softmax(1)"), Sensor: true, EpisodeLength: 40},
			[]string{"sensor.range", "drag", "goal.x", "force"}, []float64{1e-6, 1e-6, 1e-6, 1e-6}, true, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			env := newCapture(t, c.cfg)
			if c.cfg.Sensor {
				_ = env.SetParams(Params{Names: []string{"sensor.range"}, Values: []float64{0.3}})
			}
			pol := env.SeekerPolicy(1.5, 0.5, 0.3, false)
			if c.cfg.Sensor {
				// Let the range readings steer too, so that they matter.
				od, first := env.ObsDim(), 4+2*env.Tasks()
				for _, w := range pol.W {
					for r := first; r < od; r++ {
						w[r] = 0.4 * math.Cos(float64(r))
						w[od+r] = 0.4 * math.Sin(float64(r))
					}
				}
			}
			if c.random {
				pol = NewLinearTanh(env.Agents(), env.ObsDim(), 2, 0.4, 0.5, 1, 3)
			}
			env.walls, env.captures = 0, 0
			tol := c.tol
			if tol == 0 {
				tol = 1e-5
			}
			checkGradient(t, env, pol, 21, c.params, c.hs, tol)
			t.Logf("%d wall contacts, %d covered goal-steps in the gradient pass", env.walls, env.captures)
			if !c.random && env.walls != 0 {
				t.Errorf("%d wall contacts: the check is meant to stay away from walls", env.walls)
			}
		})
	}
}

func BenchmarkCaptureGradient(b *testing.B) {
	for _, k := range []int{0, 2, 5} {
		b.Run("K="+string(rune('0'+k)), func(b *testing.B) {
			const B = 1024
			env := newCapture(b, CaptureConfig{Batch: B, Reward: reward(b, "softmax(-2)", "softmax(2)")})
			pol := NewLinearTanh(2, env.ObsDim(), 2, 0.4, 0.5, 1, 3)
			params := []string{"U.t", "T.t", "drag", "force", "goal.x"}[:k]
			b.ResetTimer()
			for it := 0; it < b.N; it++ {
				if _, _, err := env.ReturnGradient(pol, int64(it), params); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)*B*2*100/b.Elapsed().Seconds(), "agent-steps/s")
		})
	}
	b.Run("rollout", func(b *testing.B) {
		const B = 1024
		env := newCapture(b, CaptureConfig{Batch: B, Reward: reward(b, "softmax(-2)", "softmax(2)")})
		pol := NewLinearTanh(2, env.ObsDim(), 2, 0.4, 0.5, 1, 3)
		b.ResetTimer()
		for it := 0; it < b.N; it++ {
			if _, err := Rollout(env, pol, int64(it), nil); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.N)*B*2*100/b.Elapsed().Seconds(), "agent-steps/s")
	})
}
