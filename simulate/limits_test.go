package simulate

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/hetgain/hetgain/aggregators"
)

// wantErr fails unless err wraps every target and mentions every text.
func wantErr(t *testing.T, what string, err error, targets []error, texts ...string) {
	t.Helper()
	if err == nil {
		t.Errorf("%s: no error, want one wrapping %v", what, targets)
		return
	}
	for _, target := range targets {
		if !errors.Is(err, target) {
			t.Errorf("%s: error %q does not wrap %q", what, err, target)
		}
	}
	for _, s := range texts {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("%s: error %q does not mention %q", what, err, s)
		}
	}
}

// TestParamCaps checks that the parameters that scale a reward or an
// observation (Blotto's values, Tag's shaping and penalty, Capture's
// sensor range) are at most MaxPhysical, so that no episode's reward
// overflows, and that MaxPhysical itself gives finite rewards.
func TestParamCaps(t *testing.T) {
	huge := aggregators.BlottoField{V: 1e308, Troops: []float64{0}, Probs: []float64{1}}
	_, err := NewBlotto(1, 2, 1, []aggregators.BlottoField{huge, huge})
	wantErr(t, "NewBlotto with V = 1e308", err, []error{ErrConfig}, "battlefield 0", "MaxPhysical")

	ok := aggregators.BlottoField{V: 1, Troops: []float64{0}, Probs: []float64{1}}
	bl, err := NewBlotto(1, 2, 3, []aggregators.BlottoField{ok, ok})
	if err != nil {
		t.Fatal(err)
	}
	err = bl.SetParams(Params{Names: []string{"V[0]", "V[1]"}, Values: []float64{1e308, 1e308}})
	wantErr(t, "Blotto V = 1e308", err, []error{ErrParam}, `"V[0]" = 1e+308`)
	if err := bl.SetParams(Params{Names: []string{"V[0]", "V[1]"}, Values: []float64{MaxPhysical, MaxPhysical}}); err != nil {
		t.Fatalf("Blotto V = MaxPhysical: %v", err)
	}
	if ret, err := Rollout(bl, ConstantPolicy{Actions: [][]float64{{0, 0}}}, 1, nil); err != nil || ret[0] != 3*2*MaxPhysical {
		t.Errorf("Blotto at V = MaxPhysical: return %v, %v; want %v", ret, err, 3*2*MaxPhysical)
	}

	tg := newTag(t, TagConfig{Batch: 1, EpisodeLength: 5})
	for _, name := range []string{"shaping", "penalty"} {
		before := tg.Params()
		err := tg.SetParams(Params{Names: []string{name}, Values: []float64{1e308}})
		wantErr(t, "Tag "+name+" = 1e308", err, []error{ErrParam}, name, "outside [0, 1e+06]")
		if after := tg.Params(); after.String() != before.String() {
			t.Errorf("failed SetParams changed θ: %v -> %v", before, after)
		}
	}
	if err := tg.SetParams(Params{Names: []string{"shaping", "penalty"}, Values: []float64{MaxPhysical, MaxPhysical}}); err != nil {
		t.Fatalf("Tag shaping and penalty = MaxPhysical: %v", err)
	}
	ret, err := Rollout(tg, ConstantPolicy{Actions: [][]float64{{1, 1}}}, 1, nil)
	if err != nil || math.IsInf(ret[0], 0) || math.IsNaN(ret[0]) || !(ret[0] < 0) {
		t.Errorf("Tag at MaxPhysical weights: return %v, %v; want finite and negative", ret, err)
	}

	c := newCapture(t, CaptureConfig{Batch: 1, Sensor: true, EpisodeLength: 3})
	err = c.SetParams(Params{Names: []string{"sensor.range"}, Values: []float64{1e308}})
	wantErr(t, "Capture sensor.range = 1e308", err, []error{ErrParam}, "sensor.range")
	if err := c.SetParams(Params{Names: []string{"sensor.range"}, Values: []float64{MaxPhysical}}); err != nil {
		t.Errorf("Capture sensor.range = MaxPhysical: %v", err)
	}
}

// overflowEnv is a one-agent environment whose every step rewards batch
// element b with Rewards[b], so that a return can overflow although each
// reward is finite.
type overflowEnv struct {
	Rewards []float64
	Steps   int
	t       int
	rew     []float64
	done    []bool
}

func (e *overflowEnv) Name() string { return "overflow" }
func (e *overflowEnv) Batch() int   { return len(e.Rewards) }
func (e *overflowEnv) Agents() int  { return 1 }
func (e *overflowEnv) Tasks() int   { return 1 }
func (e *overflowEnv) ObsDim() int  { return 1 }
func (e *overflowEnv) ActionSpace() Space {
	return Space{Dim: 1, Low: []float64{-1}, High: []float64{1}}
}
func (e *overflowEnv) Params() Params         { return Params{} }
func (e *overflowEnv) SetParams(Params) error { return nil }
func (e *overflowEnv) Obs() []float64         { return make([]float64, len(e.Rewards)) }
func (e *overflowEnv) Reward() []float64      { return e.rew }
func (e *overflowEnv) Effort() []float64      { return make([]float64, len(e.Rewards)) }
func (e *overflowEnv) Done() []bool           { return e.done }
func (e *overflowEnv) EpisodeLength() int     { return e.Steps }

func (e *overflowEnv) Reset(int64) error {
	e.t = 0
	e.rew = make([]float64, len(e.Rewards))
	e.done = make([]bool, len(e.Rewards))
	return nil
}

func (e *overflowEnv) Step([]float64) error {
	copy(e.rew, e.Rewards)
	e.t++
	for b := range e.done {
		e.done[b] = e.t >= e.Steps
	}
	return nil
}

// TestNonFiniteReturn checks that Rollout, Profile and ReturnGradient's
// batch loop report a return that overflows, naming the batch element,
// instead of returning ±Inf.
func TestNonFiniteReturn(t *testing.T) {
	env := &overflowEnv{Rewards: []float64{1, 1e308}, Steps: 2}
	pol := ConstantPolicy{Actions: [][]float64{{0}}}
	ret, err := Rollout(env, pol, 1, nil)
	wantErr(t, "Rollout", err, []error{aggregators.ErrInf}, "simulate: overflow: the return of batch element 1 is +Inf")
	if ret != nil {
		t.Errorf("Rollout returned %v with its error", ret)
	}
	p, err := Profile(env, pol, 1)
	wantErr(t, "Profile", err, []error{aggregators.ErrInf}, "batch element 1")
	if p != nil {
		t.Errorf("Profile returned %v with its error", p)
	}
	env = &overflowEnv{Rewards: []float64{1e308, 1e308}, Steps: 1}
	_, err = Profile(env, pol, 1)
	wantErr(t, "Profile, sum over the batch", err, []error{aggregators.ErrInf}, "returns of the batch sum to +Inf")

	_, _, err = gradientsOverBatch("test", 3, 1, func(b int, grad []float64) (float64, error) {
		grad[0] = 1
		if b == 2 {
			grad[0] = math.NaN()
		}
		return 1, nil
	})
	wantErr(t, "gradient", err, []error{aggregators.ErrNaN}, "simulate: test: derivative 0 of the return of batch element 2 is NaN")
	_, _, err = gradientsOverBatch("test", 3, 0, func(b int, grad []float64) (float64, error) {
		if b == 1 {
			return math.Inf(-1), nil
		}
		return 1, nil
	})
	wantErr(t, "return", err, []error{aggregators.ErrInf}, "batch element 1 is -Inf")
}

// TestSizeCaps checks that every constructor refuses sizes whose arrays
// would not fit (MaxEnvValues) or whose episodes would not end
// (MaxEpisodeLength) with an error wrapping ErrConfig, before allocating
// anything, and that products of sizes do not overflow.
func TestSizeCaps(t *testing.T) {
	r := reward(t, "min", "max")
	field := aggregators.BlottoField{V: 1, Troops: []float64{0}, Probs: []float64{1}}
	fields := []aggregators.BlottoField{field, field}
	long := MaxEpisodeLength + 1
	for _, c := range []struct {
		name string
		make func() (Env, error)
		text string
	}{
		{"matrix B", func() (Env, error) { return NewMatrixGame(1<<40, 2, 2, false, r) }, "B·N·M = 1099511627776·2·2 values, more than MaxEnvValues"},
		{"matrix overflow", func() (Env, error) { return NewMatrixGame(1<<62, 4, 1, false, r) }, "MaxEnvValues"},
		{"matrix N", func() (Env, error) { return NewMatrixGame(1, 1<<40, 2, true, r) }, "B·N·M"},
		{"matrix probe", func() (Env, error) { return NewMatrixGame(1, 1, 1<<13, false, r) }, "N·M·M"},
		{"capture rays", func() (Env, error) {
			return NewCapture(CaptureConfig{Batch: 1, Reward: r, Sensor: true, SensorRays: 1 << 40})
		}, "SensorRays"},
		{"capture rays overflow", func() (Env, error) {
			return NewCapture(CaptureConfig{Batch: 1, Reward: r, Sensor: true, SensorRays: math.MaxInt})
		}, "SensorRays"},
		{"capture B", func() (Env, error) { return NewCapture(CaptureConfig{Batch: 1 << 40, Reward: r}) }, "B·N·ObsDim"},
		{"capture N", func() (Env, error) { return NewCapture(CaptureConfig{Batch: 1, Agents: 1 << 40, Reward: r}) }, "agents, at most 28"},
		{"capture fixed goals", func() (Env, error) {
			return NewCapture(CaptureConfig{Batch: 1 << 20, Goals: 1 << 10, Reward: r, FixedGoals: make([]float64, 1<<11)})
		}, "B·N·ObsDim"},
		{"capture length", func() (Env, error) { return NewCapture(CaptureConfig{Batch: 1, Reward: r, EpisodeLength: long}) }, "MaxEpisodeLength"},
		{"tag B", func() (Env, error) { return NewTag(TagConfig{Batch: 1 << 40, Reward: r}) }, "B·N·ObsDim"},
		{"tag N + M overflow", func() (Env, error) {
			return NewTag(TagConfig{Batch: 1, Chasers: math.MaxInt, Escapers: math.MaxInt, Reward: r})
		}, "at most 9 obstacles and 64 chasers and escapers fit"},
		{"tag obstacles", func() (Env, error) { return NewTag(TagConfig{Batch: 1, Obstacles: 1 << 40, Reward: r}) }, "at most 9 obstacles"},
		{"tag length", func() (Env, error) { return NewTag(TagConfig{Batch: 1, Reward: r, EpisodeLength: long}) }, "MaxEpisodeLength"},
		{"blotto B", func() (Env, error) { return NewBlotto(1<<40, 2, 1, fields) }, "B·N·M"},
		{"blotto N overflow", func() (Env, error) { return NewBlotto(4, math.MaxInt, 1, fields) }, "B·N·M"},
		{"blotto length", func() (Env, error) { return NewBlotto(1, 2, long, fields) }, "MaxEpisodeLength"},
		{"foraging B", func() (Env, error) {
			return NewForaging(ForagingConfig{Batch: 1 << 40, Agents: 2, Width: 4, Height: 4, Levels: []int{1}})
		}, "B·Width·Height"},
		{"foraging N overflow", func() (Env, error) {
			return NewForaging(ForagingConfig{Batch: 1, Agents: math.MaxInt, Width: 4, Height: 4, Levels: []int{1}})
		}, "fewer than"},
		{"foraging N", func() (Env, error) {
			return NewForaging(ForagingConfig{Batch: 1, Agents: 1 << 19, Width: 1 << 10, Height: 1 << 10, Levels: []int{1}})
		}, "B·N·ObsDim"},
		{"foraging length", func() (Env, error) {
			return NewForaging(ForagingConfig{Batch: 1, Agents: 2, Width: 4, Height: 4, Levels: []int{1}, EpisodeLength: long})
		}, "MaxEpisodeLength"},
	} {
		env, err := c.make()
		wantErr(t, c.name, err, []error{ErrConfig}, c.text)
		if env != nil && !reflect.ValueOf(env).IsNil() {
			t.Errorf("%s: environment returned with the error", c.name)
		}
	}
	// At the caps.
	if !testing.Short() {
		if _, err := NewMatrixGame(1, 1, 1<<12, false, r); err != nil {
			t.Errorf("N·M·M = MaxEnvValues: %v", err)
		}
	}
	if _, err := NewBlotto(1, 2, MaxEpisodeLength, fields); err != nil {
		t.Errorf("episode of MaxEpisodeLength steps: %v", err)
	}
}

// wantPanic fails unless f panics with a message starting "simulate: "
// and mentioning text.
func wantPanic(t *testing.T, what, text string, f func()) {
	t.Helper()
	defer func() {
		t.Helper()
		r := recover()
		msg, ok := r.(string)
		if !ok || !strings.HasPrefix(msg, "simulate: ") || !strings.Contains(msg, text) {
			t.Errorf("%s: panic %v, want a \"simulate: \" message mentioning %q", what, r, text)
		}
	}()
	f()
}

// TestProgrammerErrors checks that a nil environment is an error where the
// function returns one, and that the other programmer errors panic with a
// "simulate: " message instead of an index or makeslice panic.
func TestProgrammerErrors(t *testing.T) {
	pol := ConstantPolicy{Actions: [][]float64{{0, 0}}}
	var nilCapture *Capture
	for _, c := range []struct {
		name string
		err  error
	}{
		{"Rollout", func() error { _, err := Rollout(nil, pol, 1, nil); return err }()},
		{"Rollout", func() error { _, err := Rollout(nilCapture, pol, 1, nil); return err }()},
		{"Profile", func() error { _, err := Profile(nil, pol, 1); return err }()},
		{"ReturnGradient", func() error { _, _, err := ReturnGradient(nil, pol, 1, nil); return err }()},
		{"GainGradient", func() error { _, _, err := GainGradient(nil, pol, pol, 1, nil); return err }()},
		{"GainGradient", func() error { _, _, err := GainGradient(nilCapture, pol, pol, 1, nil); return err }()},
		{"GainGradientConcurrent", func() error { _, _, err := GainGradientConcurrent(nil, nil, pol, pol, 1, nil); return err }()},
		{"GainGradientConcurrent", func() error {
			_, _, err := GainGradientConcurrent(newCapture(t, CaptureConfig{Batch: 1}), nilCapture, pol, pol, 1, nil)
			return err
		}()},
	} {
		wantErr(t, c.name, c.err, []error{ErrConfig}, "simulate: "+c.name+": nil environment")
	}

	c := newCapture(t, CaptureConfig{Batch: 2})
	tg := newTag(t, TagConfig{Batch: 1})
	fo, err := NewForaging(ForagingConfig{Batch: 2, Agents: 2, Width: 4, Height: 4, Levels: []int{1}})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range []struct {
		name string
		f    func(int) []float64
		b    int
	}{
		{"Capture.AgentPositions", c.AgentPositions, 5},
		{"Capture.AgentVelocities", c.AgentVelocities, 2},
		{"Capture.TaskPositions", c.TaskPositions, -1},
		{"Tag.AgentPositions", tg.AgentPositions, 1},
		{"Tag.AgentVelocities", tg.AgentVelocities, -1},
		{"Tag.TaskPositions", tg.TaskPositions, -1},
		{"Tag.EscaperVelocities", tg.EscaperVelocities, 7},
		{"Tag.ObstaclePositions", tg.ObstaclePositions, 3},
		{"Foraging.AgentPositions", fo.AgentPositions, 2},
		{"Foraging.TaskPositions", fo.TaskPositions, -3},
	} {
		wantPanic(t, a.name, "batch element "+strconv.Itoa(a.b)+" outside [0, ", func() { a.f(a.b) })
	}
	if got := len(c.AgentPositions(1)); got != 4 {
		t.Errorf("Capture.AgentPositions(1) has %d values, want 4", got)
	}

	for _, s := range [][3]int{{1, -1, 2}, {-1, 3, 2}, {0, 3, 2}, {2, 3, -1}} {
		wantPanic(t, fmt.Sprint("NewLinearTanh", s), "NewLinearTanh", func() { NewLinearTanh(s[0], s[1], s[2], 1, 0, 1, 1) })
	}
	for _, s := range [][3]int{{1, 1 << 40, 1 << 40}, {1, math.MaxInt, 1}, {1, 1, math.MaxInt}, {math.MaxInt, 1, 1}, {math.MaxInt, 0, 0}} {
		wantPanic(t, fmt.Sprint("NewLinearTanh", s), "MaxEnvValues", func() { NewLinearTanh(s[0], s[1], s[2], 1, 0, 1, 1) })
	}
	if p := NewLinearTanh(2, 0, 0, 1, 0, 1, 1); len(p.W) != 2 {
		t.Errorf("NewLinearTanh(2, 0, 0): %d weight matrices", len(p.W))
	}

	for _, p := range []*EffortProfile{{Agents: 2, Tasks: 2}, {Agents: 1 << 62, Tasks: 4, Effort: []float64{1}}, {Agents: -1, Tasks: 3}} {
		s := p.String()
		if !strings.Contains(s, fmt.Sprintf("(%d efforts for %d agents x %d tasks)", len(p.Effort), p.Agents, p.Tasks)) {
			t.Errorf("String of %d x %d with %d efforts: %q", p.Agents, p.Tasks, len(p.Effort), s)
		}
	}
	wantPanic(t, "At", "has 0 efforts", func() { (&EffortProfile{Agents: 2, Tasks: 2}).At(1, 1) })
	wantPanic(t, "At", "out of range", func() { (&EffortProfile{Agents: 2, Tasks: 2, Effort: make([]float64, 4)}).At(2, 0) })
}

// TestRecorderActionLength checks that Record refuses actions of the
// wrong length, and a nil environment, without recording anything.
func TestRecorderActionLength(t *testing.T) {
	g, err := NewMatrixGame(2, 2, 3, false, reward(t, "min", "max"))
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Reset(1); err != nil {
		t.Fatal(err)
	}
	rec := NewRecorder(0)
	for _, acts := range [][]float64{{1}, {}, make([]float64, 13)} {
		err := rec.Record(g, acts)
		wantErr(t, fmt.Sprintf("%d actions", len(acts)), err, []error{ErrAction},
			fmt.Sprintf("recorder: %d action values, want B*N*ActDim = 2*2*3 = 12", len(acts)))
	}
	wantErr(t, "nil environment", rec.Record(nil, nil), []error{ErrConfig}, "nil environment")
	if len(rec.Steps) != 0 || len(rec.Actions) != 0 || len(rec.Rewards) != 0 {
		t.Errorf("failed Records recorded %d steps, %d actions", len(rec.Steps), len(rec.Actions))
	}
	acts := make([]float64, 12)
	acts[0] = 0.5
	if err := rec.Record(g, acts); err != nil || len(rec.Actions) != 1 || len(rec.Actions[0]) != 6 || rec.Actions[0][0] != 0.5 {
		t.Errorf("12 actions: %v, recorded %v", err, rec.Actions)
	}
}

// endlessEnv is an environment of one agent whose episode never ends, as
// one from outside the package might be; it counts the steps played.
type endlessEnv struct {
	steps         int
	obs, rew, eff []float64
	done          []bool
}

func (e *endlessEnv) Name() string           { return "endless" }
func (e *endlessEnv) Batch() int             { return 1 }
func (e *endlessEnv) Agents() int            { return 1 }
func (e *endlessEnv) Tasks() int             { return 1 }
func (e *endlessEnv) ObsDim() int            { return 1 }
func (e *endlessEnv) ActionSpace() Space     { return Space{Discrete: true, Choices: 1} }
func (e *endlessEnv) Params() Params         { return Params{} }
func (e *endlessEnv) SetParams(Params) error { return nil }
func (e *endlessEnv) EpisodeLength() int     { return MaxEpisodeLength }
func (e *endlessEnv) Obs() []float64         { return e.obs }
func (e *endlessEnv) Reward() []float64      { return e.rew }
func (e *endlessEnv) Effort() []float64      { return e.eff }
func (e *endlessEnv) Done() []bool           { return e.done }
func (e *endlessEnv) Step([]float64) error   { e.steps++; e.rew[0] = 1; return nil }
func (e *endlessEnv) Reset(int64) error {
	e.steps = 0
	e.obs, e.rew, e.eff, e.done = []float64{0}, []float64{0}, []float64{1}, []bool{false}
	return nil
}

// TestEpisodeCap checks that Rollout and Profile play at most
// MaxEpisodeLength steps of an episode that does not end, and say so
// with an error rather than return a cut-off episode as if it were whole.
func TestEpisodeCap(t *testing.T) {
	e := &endlessEnv{}
	pol := ConstantPolicy{Actions: [][]float64{{0}}}
	if _, err := Rollout(e, pol, 0, nil); !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), "did not end within MaxEpisodeLength") || e.steps != MaxEpisodeLength {
		t.Errorf("Rollout: %v after %d steps; want ErrConfig after %d", err, e.steps, MaxEpisodeLength)
	}
	if _, err := Profile(e, pol, 0); !errors.Is(err, ErrConfig) || e.steps != MaxEpisodeLength {
		t.Errorf("Profile: %v after %d steps; want ErrConfig after %d", err, e.steps, MaxEpisodeLength)
	}
}

// TestProfileAndGainMisuse checks the "simulate: " panics of a nil
// profile and of team returns whose gradients differ in length.
func TestProfileAndGainMisuse(t *testing.T) {
	var p *EffortProfile
	wantPanic(t, "At of a nil profile", "nil *EffortProfile", func() { p.At(0, 0) })
	tr := TeamReturns{Het: 1, Hom: 0, HetGrad: []float64{1, 2}, HomGrad: []float64{1}}
	wantPanic(t, "Gain", "gradients of 2 and 1 parameters", func() { tr.Gain() })
	wantPanic(t, "RelativeGain", "gradients of 2 and 1 parameters", func() { tr.RelativeGain() })
}

// TestSpaceString checks the forms that Space.String's doc shows.
func TestSpaceString(t *testing.T) {
	box := Space{Dim: 2, Low: []float64{-1, -1}, High: []float64{1, 1}}
	if got := box.String(); got != "Box(2)[-1 -1]..[1 1]" {
		t.Errorf("box: %q", got)
	}
	if got := (Space{Discrete: true, Choices: 3}).String(); got != "Discrete(3)" {
		t.Errorf("discrete: %q", got)
	}
}
