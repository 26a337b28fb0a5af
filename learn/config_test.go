package learn

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/hetgain/hetgain/simulate"
)

func TestConfigDefaults(t *testing.T) {
	d := DefaultConfig()
	if err := d.Check(); err != nil {
		t.Fatalf("DefaultConfig: %v", err)
	}
	if err := ReferenceConfig().Check(); err != nil {
		t.Fatalf("ReferenceConfig: %v", err)
	}
	// The zero value means the defaults.
	if got := (Config{}).withDefaults(); !reflect.DeepEqual(got, d) {
		t.Errorf("zero Config with defaults = %+v, want %+v", got, d)
	}
	// A set LR is the default of CriticLR.
	if c := (Config{LR: 0.01}).withDefaults(); c.CriticLR != 0.01 || c.LR != 0.01 {
		t.Errorf("LR 0.01: LR %v, CriticLR %v, want both 0.01", c.LR, c.CriticLR)
	}
	// A negative entropy coefficient means 0.
	if c := (Config{EntropyCoef: -1}); c.Check() != nil || c.withDefaults().EntropyCoef != 0 {
		t.Errorf("EntropyCoef -1: %v, %v", c.Check(), c.withDefaults().EntropyCoef)
	}
	// The team keeps its own copy of Hidden.
	h := []int{3, 4}
	tm := mustTeam(t, matrixMaker(2, 2, false, "min", "max"), Config{Hidden: h, Envs: 2})
	h[0] = 99
	if got := tm.Config().Hidden; !reflect.DeepEqual(got, []int{3, 4}) {
		t.Errorf("Hidden after changing the caller's slice: %v", got)
	}
	tm.Config().Hidden[1] = 77
	if got := tm.Config().Hidden; !reflect.DeepEqual(got, []int{3, 4}) {
		t.Errorf("Hidden after changing Config()'s slice: %v", got)
	}
	if c := tm.Config(); c.Envs != 2 || c.Epochs != d.Epochs || c.Gamma != d.Gamma {
		t.Errorf("Team.Config without defaults: %+v", c)
	}
}

func TestConfigCheck(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	type bad struct {
		field string
		set   func(*Config)
	}
	var cases []bad
	add := func(field string, set func(*Config)) { cases = append(cases, bad{field, set}) }
	add("Kind", func(c *Config) { c.Kind = 2 })
	add("Kind", func(c *Config) { c.Kind = -1 })
	add("Critic", func(c *Config) { c.Critic = 2 })
	add("Critic", func(c *Config) { c.Critic = -3 })
	add("Hidden[0]", func(c *Config) { c.Hidden = []int{0} })
	add("Hidden[1]", func(c *Config) { c.Hidden = []int{4, -2} })
	add("Hidden[2]", func(c *Config) { c.Hidden = []int{4, 4, MaxHiddenWidth + 1} })
	add("len(Hidden)", func(c *Config) { c.Hidden = make([]int, MaxHiddenLayers+1) })
	for _, f := range []struct {
		name string
		p    func(*Config) *int
	}{
		{"Envs", func(c *Config) *int { return &c.Envs }},
		{"Workers", func(c *Config) *int { return &c.Workers }},
		{"FramesPerIter", func(c *Config) *int { return &c.FramesPerIter }},
		{"Epochs", func(c *Config) *int { return &c.Epochs }},
		{"Minibatch", func(c *Config) *int { return &c.Minibatch }},
	} {
		f := f
		for _, v := range []int{-1, math.MinInt64} {
			v := v
			add(f.name, func(c *Config) { *f.p(c) = v })
		}
	}
	floats := []struct {
		name string
		p    func(*Config) *float64
		bad  []float64
	}{
		{"LR", func(c *Config) *float64 { return &c.LR }, []float64{-1e-9, nan, inf, -inf}},
		{"CriticLR", func(c *Config) *float64 { return &c.CriticLR }, []float64{-1, nan, inf}},
		{"Gamma", func(c *Config) *float64 { return &c.Gamma }, []float64{-0.1, 1.0000001, nan, inf, -inf}},
		{"Lambda", func(c *Config) *float64 { return &c.Lambda }, []float64{-0.1, 1.5, nan, inf}},
		{"Clip", func(c *Config) *float64 { return &c.Clip }, []float64{-0.2, nan, inf}},
		{"EntropyCoef", func(c *Config) *float64 { return &c.EntropyCoef }, []float64{nan, inf, -inf}},
		{"MaxGradNorm", func(c *Config) *float64 { return &c.MaxGradNorm }, []float64{-1, nan, inf}},
		{"InitLogStd", func(c *Config) *float64 { return &c.InitLogStd }, []float64{-20.5, 2.5, nan, inf, -inf}},
	}
	for _, f := range floats {
		f := f
		for _, v := range f.bad {
			v := v
			add(f.name, func(c *Config) { *f.p(c) = v })
		}
	}
	for _, c := range cases {
		cfg := Config{}
		c.set(&cfg)
		err := cfg.Check()
		if !errors.Is(err, ErrConfig) {
			t.Errorf("%s: %+v: Check = %v, want ErrConfig", c.field, cfg, err)
			continue
		}
		if !strings.Contains(err.Error(), c.field+" =") {
			t.Errorf("%s: message %q does not name the field", c.field, err)
		}
		// NewTeam rejects it too, before making any environment.
		made := false
		mk := func(b int) (simulate.Env, error) {
			made = true
			return matrixMaker(2, 2, false, "min", "max")(b)
		}
		if _, err := NewTeam(mk, cfg); !errors.Is(err, ErrConfig) || made {
			t.Errorf("%s: NewTeam = %v (environment made: %v), want ErrConfig", c.field, err, made)
		}
	}
	// Values at the edges of the domains are accepted.
	for _, cfg := range []Config{
		{Gamma: 1, Lambda: 1}, {Gamma: 1e-9, Lambda: 1e-9}, {InitLogStd: -20}, {InitLogStd: 2},
		{EntropyCoef: -5}, {EntropyCoef: 1e9}, {Clip: 1e-12}, {Kind: Homogeneous, Critic: PerAgent},
		{Hidden: []int{1}}, {Hidden: []int{1, 1, 1}}, {LR: 1e-12, CriticLR: 10}, {MaxGradNorm: 1e-300},
	} {
		if err := cfg.Check(); err != nil {
			t.Errorf("%+v: %v", cfg, err)
		}
	}
}

func TestKindStrings(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{Heterogeneous.String(), "het"}, {Homogeneous.String(), "hom"}, {TeamKind(7).String(), "TeamKind(7)"},
		{Centralised.String(), "mappo"}, {PerAgent.String(), "ippo"}, {CriticKind(-1).String(), "CriticKind(-1)"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

func TestEnvSpec(t *testing.T) {
	// Good specs build the environment they describe.
	for _, c := range []struct {
		spec          EnvSpec
		name          string
		n, m          int
		discrete      bool
		length        int
		str           string
		obsDim, width int
	}{
		{EnvSpec{Name: "matrix", U: "min", T: "max"}, "matrix", 2, 2, false, 1, "matrix-cont N=2 M=2 U=min T=max", 1, 2},
		{EnvSpec{Name: " Matrix ", Agents: 4, Tasks: 3, Discrete: true, U: "mean", T: "softmax(2)"}, "matrix-discrete", 4, 3, true, 1, "matrix-disc N=4 M=3 U=mean T=softmax(2)", 1, 1},
		{EnvSpec{Name: "capture", Agents: 3, Tasks: 2, U: "min", T: "max", EpisodeLength: 7}, "capture", 3, 2, false, 7, "capture N=3 M=2 U=min T=max", 4 + 2*2, 2},
		{EnvSpec{Name: "CAPTURE", U: "min", T: "max", Sensor: true}, "capture", 2, 2, false, 100, "capture N=2 M=2 U=min T=max sensor", 4 + 2*2 + 12, 2},
		{EnvSpec{Name: "tag", Agents: 2, Tasks: 2, U: "max", T: "mean", EpisodeLength: 9}, "tag", 2, 2, false, 9, "tag N=2 M=2 U=max T=mean", -1, 2},
	} {
		if s := c.spec.String(); s != c.str {
			t.Errorf("%+v: String %q, want %q", c.spec, s, c.str)
		}
		env, err := c.spec.New(3)
		if err != nil {
			t.Errorf("%+v: %v", c.spec, err)
			continue
		}
		if env.Name() != c.name || env.Agents() != c.n || env.Tasks() != c.m || env.Batch() != 3 ||
			env.ActionSpace().Discrete != c.discrete || env.EpisodeLength() != c.length ||
			(c.obsDim >= 0 && env.ObsDim() != c.obsDim) || env.ActionSpace().Width() != c.width {
			t.Errorf("%+v: got %s N=%d M=%d B=%d %v length %d obs %d", c.spec, env.Name(), env.Agents(), env.Tasks(),
				env.Batch(), env.ActionSpace(), env.EpisodeLength(), env.ObsDim())
		}
	}
	// Bad specs are ErrConfig errors that say what is wrong.
	for _, c := range []struct {
		spec EnvSpec
		says string
	}{
		{EnvSpec{Name: "chess", U: "min", T: "max"}, "chess"},
		{EnvSpec{Name: "", U: "min", T: "max"}, "unknown environment"},
		{EnvSpec{Name: "matrix", U: "minimum", T: "max"}, "outer"},
		{EnvSpec{Name: "matrix", U: "min", T: "softmax("}, "inner"},
		{EnvSpec{Name: "matrix", U: "min", T: "softmax(NaN)"}, "inner"},
		{EnvSpec{Name: "matrix", U: "min(2)", T: "max"}, "outer"},
		{EnvSpec{Name: "matrix", U: "", T: "max"}, "outer"},
		{EnvSpec{Name: "matrix", Agents: -1, U: "min", T: "max"}, "agents"},
		{EnvSpec{Name: "capture", Tasks: -2, U: "min", T: "max"}, "tasks"},
		{EnvSpec{Name: "tag", U: "min", T: "max", Sensor: true}, `Sensor for "tag": only capture has a range sensor`},
		{EnvSpec{Name: "matrix", U: "min", T: "max", Sensor: true}, "only capture"},
		{EnvSpec{Name: "capture", U: "min", T: "max", Discrete: true}, `Discrete for "capture"`},
		{EnvSpec{Name: "tag", U: "min", T: "max", Discrete: true}, `Discrete for "tag"`},
		{EnvSpec{Name: "matrix", U: "min", T: "max", EpisodeLength: 5}, "EpisodeLength 5 for the matrix game"},
		{EnvSpec{Name: "matrix", U: "min", T: "max", EpisodeLength: -5}, "EpisodeLength -5"},
		{EnvSpec{Name: "matrix", U: "softmax(0)", T: "max", Params: simulate.Params{Names: []string{"U.t"}, Values: []float64{math.Inf(-1)}}}, "U.t = -Inf"},
		{EnvSpec{Name: "tag", U: "min", T: "softmax(0)", Params: simulate.Params{Names: []string{"T.t"}, Values: []float64{math.Inf(1)}}}, "T.t = +Inf"},
	} {
		_, err := c.spec.New(2)
		if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%+v: %v, want ErrConfig saying %q", c.spec, err, c.says)
		}
	}
	// Errors of the environment itself come through, wrapping both
	// packages' ErrConfig.
	for _, c := range []EnvSpec{
		{Name: "capture", Tasks: 9, U: "min", T: "max"},
		{Name: "capture", EpisodeLength: -1, U: "min", T: "max"},
		{Name: "tag", EpisodeLength: -1, U: "max", T: "mean"},
	} {
		env, err := c.New(2)
		if env != nil || !errors.Is(err, ErrConfig) || !errors.Is(err, simulate.ErrConfig) || !strings.Contains(err.Error(), "simulate: ") {
			t.Errorf("%+v: %v, %v, want a nil environment and the error of package simulate wrapping ErrConfig", c, env, err)
		}
	}
}

func TestRunSpecCheck(t *testing.T) {
	good := RunSpec{Env: EnvSpec{Name: "matrix", U: "min", T: "max"}, Iterations: 3}
	if err := good.Check(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		set  func(*RunSpec)
		says string
	}{
		{func(s *RunSpec) { s.Iterations = -1 }, "Iterations"},
		{func(s *RunSpec) { s.EvalEvery = -1 }, "EvalEvery"},
		{func(s *RunSpec) { s.EvalEpisodes = -1 }, "EvalEpisodes"},
		{func(s *RunSpec) { s.Team.Gamma = 2 }, "Gamma"},
		{func(s *RunSpec) { s.Env.T = "nope" }, "inner"},
		{func(s *RunSpec) { s.Env.Name = "foo" }, `unknown environment "foo"`},
		{func(s *RunSpec) { s.Env.Agents = -1 }, "-1 agents"},
		{func(s *RunSpec) { s.Env.Name, s.Env.EpisodeLength = "capture", -1 }, "episode length -1"},
		{func(s *RunSpec) { s.Env.Name, s.Env.Tasks = "capture", 4 }, "4 goals"},
		{func(s *RunSpec) { s.Env.Name, s.Env.EpisodeLength = "tag", -1 }, "episode length -1"},
		{func(s *RunSpec) { s.Team.AgentRewards = true }, "AgentRewards: environment matrix has"},
		{func(s *RunSpec) { s.Env.Name, s.Team.AgentRewards, s.Team.DifferenceRewards = "tag", true, true }, "AgentRewards and DifferenceRewards"},
		{func(s *RunSpec) { // the unused Env of a Maker is still written to spec.json
			s.Maker = s.Env.New
			s.Env.Params = simulate.Params{Names: []string{"x"}, Values: []float64{math.Inf(1)}}
		}, "unused with a Maker, but recorded in spec.json"},
	} {
		s := good
		c.set(&s)
		err := s.Check()
		if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s: Check = %v", c.says, err)
		}
		if _, err := NewPair(s); !errors.Is(err, ErrConfig) {
			t.Errorf("%s: NewPair = %v", c.says, err)
		}
		if _, err := Train(s, Options{}); !errors.Is(err, ErrConfig) {
			t.Errorf("%s: Train = %v", c.says, err)
		}
	}
	bad := good
	bad.Env.Name = "nowhere"
	if _, err := NewPair(bad); !errors.Is(err, ErrConfig) {
		t.Errorf("unknown environment: NewPair = %v", err)
	}
}

// TestRunSpecCheckBatch checks that Check and CheckEpisodes refuse exactly
// the batches of evaluation episodes and of training environments that
// package simulate refuses: one more than the largest they accept is
// refused by simulate too (without allocating), and the largest passes.
func TestRunSpecCheckBatch(t *testing.T) {
	for _, env := range []EnvSpec{
		{Name: "matrix", Agents: 4, Tasks: 5, U: "min", T: "max"},
		{Name: "capture", Agents: 3, Tasks: 2, U: "min", T: "max", Sensor: true},
		{Name: "tag", Agents: 2, Tasks: 2, U: "mean", T: "max"},
	} {
		spec := RunSpec{Env: env, Iterations: 1}
		one, err := env.New(1)
		if err != nil {
			t.Fatal(err)
		}
		largest := simulate.MaxEnvValues / (one.Agents() * max(one.ObsDim(), one.Tasks()))
		if _, err := env.New(largest + 1); !errors.Is(err, simulate.ErrConfig) {
			t.Errorf("%v: simulate builds a batch of %d: %v; want it refused", env, largest+1, err)
		}
		if err := spec.CheckEpisodes(largest); err != nil {
			t.Errorf("%v: CheckEpisodes(%d) = %v", env, largest, err)
		}
		for _, episodes := range []int{largest + 1, math.MaxInt} {
			if err := spec.CheckEpisodes(episodes); !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), "MaxEnvValues") {
				t.Errorf("%v: CheckEpisodes(%d) = %v, want ErrConfig naming MaxEnvValues", env, episodes, err)
			}
			s := spec
			s.EvalEpisodes = episodes
			if err := s.Check(); !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), "EvalEpisodes =") {
				t.Errorf("%v: Check with EvalEpisodes %d = %v, want ErrConfig naming EvalEpisodes", env, episodes, err)
			}
			if episodes <= simulate.MaxEnvValues {
				s = spec
				s.Team.Envs = episodes
				if err := s.Check(); !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), "Team.Envs =") {
					t.Errorf("%v: Check with Envs %d = %v, want ErrConfig naming Team.Envs", env, episodes, err)
				}
			}
		}
		s := spec
		s.EvalEpisodes = largest
		if err := s.Check(); err != nil {
			t.Errorf("%v: Check with EvalEpisodes %d = %v", env, largest, err)
		}
	}
	if err := (RunSpec{Env: EnvSpec{Name: "matrix"}}).CheckEpisodes(0); !errors.Is(err, ErrConfig) {
		t.Errorf("CheckEpisodes(0) = %v, want ErrConfig", err)
	}
}

// TestFramesPerIteration checks the rounding up to whole episodes of every
// worker against the smallest multiple found by counting, and the figures
// of ReferenceConfig's doc.
func TestFramesPerIteration(t *testing.T) {
	for _, c := range []struct {
		frames, envs, workers, length int
	}{
		{1600, 64, 1, 1}, {1600, 64, 1, 100}, {1600, 16, 2, 100}, {7, 1, 1, 1}, {6401, 64, 1, 100}, {60000, 600, 1, 100},
	} {
		cfg := DefaultConfig()
		cfg.FramesPerIter, cfg.Envs, cfg.Workers = c.frames, c.envs, c.workers
		want := 0
		for want < c.frames {
			want += c.workers * c.envs * c.length
		}
		if got := cfg.FramesPerIteration(c.length); got != want {
			t.Errorf("%+v: %d frames, want %d", c, got, want)
		}
	}
	ref := ReferenceConfig()
	if got := ref.FramesPerIteration(100); got != 60000 {
		t.Errorf("reference, 100 steps: %d frames, want 60000", got)
	}
	if got := ref.FramesPerIteration(1000); got != 600000 {
		t.Errorf("reference, 1000 steps: %d frames, want 600000", got)
	}
	ref.Envs = 60
	if got := ref.FramesPerIteration(1000); got != 60000 {
		t.Errorf("reference with 60 environments, 1000 steps: %d frames, want 60000", got)
	}
	if got := (Config{}).FramesPerIteration(1); got != DefaultConfig().FramesPerIter {
		t.Errorf("zero Config: %d frames, want the default %d", got, DefaultConfig().FramesPerIter)
	}
}

// TestConfigSizeLimits checks that sizes above their limits are
// configuration errors naming them, that NewTeam refuses an iteration
// whose frames, rounded up to whole episodes, exceed MaxFramesPerIteration
// before allocating it, and that FramesPerIteration panics with a message
// of this package where its count could overflow.
func TestConfigSizeLimits(t *testing.T) {
	for _, c := range []struct {
		set  func(*Config)
		says string
	}{
		{func(c *Config) { c.FramesPerIter = math.MaxInt }, "FramesPerIter"},
		{func(c *Config) { c.FramesPerIter = MaxFramesPerIteration + 1 }, "MaxFramesPerIteration"},
		{func(c *Config) { c.Workers = MaxWorkers + 1 }, "MaxWorkers"},
		{func(c *Config) { c.Envs = simulate.MaxEnvValues + 1 }, "simulate.MaxEnvValues"},
	} {
		cfg := DefaultConfig()
		c.set(&cfg)
		if err := cfg.Check(); !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), c.says) {
			t.Errorf("Check: %v, want ErrConfig naming %q", err, c.says)
		}
		if _, err := NewTeam(EnvSpec{Name: "matrix", U: "min", T: "max"}.New, cfg); !errors.Is(err, ErrConfig) {
			t.Errorf("NewTeam: %v, want ErrConfig", err)
		}
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.HasPrefix(fmt.Sprint(r), "learn: ") {
					t.Errorf("FramesPerIteration: recovered %v, want a panic with a learn: message", r)
				}
			}()
			cfg.FramesPerIteration(100)
		}()
	}
	// Within the limits, but whole episodes of 2^20 steps on 1024
	// environments make an iteration of 2^30 frames: one episode too many.
	cfg := DefaultConfig()
	cfg.Envs, cfg.FramesPerIter = 1024, MaxFramesPerIteration
	if got := cfg.FramesPerIteration(1 << 20); got != MaxFramesPerIteration {
		t.Fatalf("FramesPerIteration = %d, want %d", got, MaxFramesPerIteration)
	}
	cfg.Envs = 1025
	long := EnvSpec{Name: "capture", U: "min", T: "max", EpisodeLength: 1 << 20}
	if _, err := NewTeam(long.New, cfg); !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), "more than MaxFramesPerIteration") {
		t.Errorf("NewTeam with %d frames an iteration: %v, want ErrConfig", cfg.FramesPerIteration(1<<20), err)
	}
}
