package learn

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hetgain/hetgain/simulate"
)

// TestEnvSpecParams checks that EnvSpec.Params are set in the environments
// New builds, and that names and values the environment refuses are
// configuration errors naming them.
func TestEnvSpecParams(t *testing.T) {
	spec := EnvSpec{Name: "tag", U: "mean", T: "max",
		Params: simulate.Params{Names: []string{"shaping", "escaper.speed"}, Values: []float64{0.2, 1.1}}}
	env, err := spec.New(3)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := spec.String(), "tag N=2 M=2 U=mean T=max shaping=0.2 escaper.speed=1.1"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	got := env.Params()
	for k, name := range spec.Params.Names {
		if i := got.Index(name); i < 0 || got.Values[i] != spec.Params.Values[k] {
			t.Errorf("%s: the environment's parameters %v, want %v", name, got, spec.Params)
		}
	}
	plain, err := EnvSpec{Name: "tag", U: "mean", T: "max"}.New(3)
	if err != nil {
		t.Fatal(err)
	}
	if p := plain.Params(); p.Values[p.Index("shaping")] == 0.2 {
		t.Error("the default shaping is the one set here: the test cannot tell them apart")
	}
	for _, c := range []struct {
		params simulate.Params
		want   string
	}{
		{simulate.Params{Names: []string{"speed"}, Values: []float64{1}}, "speed"},
		{simulate.Params{Names: []string{"shaping"}, Values: []float64{-1}}, "shaping"},
		{simulate.Params{Names: []string{"drag"}, Values: []float64{2}}, "drag"},
		{simulate.Params{Names: []string{"shaping"}}, "1 names and 0 values"},
	} {
		bad := spec
		bad.Params = c.params
		_, err := bad.New(1)
		if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Params %v: error %v, want ErrConfig naming %q", c.params, err, c.want)
		}
		if err := (RunSpec{Env: bad}).Check(); !errors.Is(err, ErrConfig) {
			t.Errorf("Params %v: RunSpec.Check %v, want ErrConfig", c.params, err)
		}
	}
}

// TestTrainEnvParams trains the matrix game with U = softmax(0) and U.t
// set to 2 by EnvSpec.Params: the run is the one of U = softmax(2), row
// for row and parameter for parameter.
func TestTrainEnvParams(t *testing.T) {
	team := Config{Hidden: []int{8}, Envs: 8, FramesPerIter: 32, Minibatch: 16, Epochs: 2, Seed: 3}
	direct := RunSpec{Env: EnvSpec{Name: "matrix", U: "softmax(2)", T: "max"}, Team: team, Iterations: 3, EvalEpisodes: 2}
	viaParams := direct
	viaParams.Env.U = "softmax(0)"
	viaParams.Env.Params = simulate.Params{Names: []string{"U.t"}, Values: []float64{2}}
	unset := viaParams
	unset.Env.Params = simulate.Params{}
	a, b, c := mustTrain(t, direct, Options{}), mustTrain(t, viaParams, Options{}), mustTrain(t, unset, Options{})
	if d := sameRows(a.Log, b.Log); d != "" || !sameTeams(a.Pair, b.Pair) {
		t.Errorf("softmax(0) with U.t = 2 differs from softmax(2): %s", d)
	}
	if sameRows(a.Log, c.Log) == "" {
		t.Error("softmax(0) trains as softmax(2): the test cannot tell the parameters apart")
	}
}

// TestCheckRunDirEnvParams checks that a run directory keeps its
// environment parameters: another value is another run, and a spec.json
// written before EnvSpec had Params matches a spec without them.
func TestCheckRunDirEnvParams(t *testing.T) {
	spec := RunSpec{Env: EnvSpec{Name: "tag", U: "mean", T: "max",
		Params: simulate.Params{Names: []string{"shaping"}, Values: []float64{0.2}}},
		Team: Config{Hidden: []int{8}, Envs: 2, FramesPerIter: 200, Minibatch: 100, Epochs: 1}, Iterations: 1, EvalEpisodes: 2}
	dir := t.TempDir()
	mustTrain(t, spec, Options{Dir: dir})
	if err := CheckRunDir(dir, spec); err != nil {
		t.Errorf("the run's own spec: %v", err)
	}
	other := spec
	other.Env.Params = simulate.Params{Names: []string{"shaping"}, Values: []float64{0.3}}
	if err := CheckRunDir(dir, other); !errors.Is(err, ErrOtherSettings) || !strings.Contains(err.Error(), "Env.Params.Values") {
		t.Errorf("another shaping: %v, want ErrOtherSettings naming Env.Params.Values", err)
	}
	none := spec
	none.Env.Params = simulate.Params{}
	if err := CheckRunDir(dir, none); !errors.Is(err, ErrOtherSettings) {
		t.Errorf("no parameters: %v, want ErrOtherSettings", err)
	}

	// A spec.json of before: the same run without the Params key.
	old := t.TempDir()
	mustTrain(t, none, Options{Dir: old})
	path := filepath.Join(old, specFile)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	key := `"Params":{"Names":null,"Values":null}`
	compact := strings.Join(strings.Fields(string(data)), "")
	if !strings.Contains(compact, key) {
		t.Fatalf("spec.json has no empty Params:\n%s", data)
	}
	stripped := strings.Replace(strings.Replace(compact, ","+key, "", 1), key+",", "", 1)
	if err := os.WriteFile(path, []byte(stripped), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := CheckRunDir(old, none); err != nil {
		t.Errorf("a spec.json without Params: %v", err)
	}
	if err := CheckRunDir(old, spec); !errors.Is(err, ErrOtherSettings) {
		t.Errorf("a spec.json without Params, against shaping 0.2: %v, want ErrOtherSettings", err)
	}
}

// TestHetGPSEnvParamsOverlap checks that a parameter cannot be both
// searched and fixed.
func TestHetGPSEnvParamsOverlap(t *testing.T) {
	spec := HetGPSSpec{Run: RunSpec{Env: EnvSpec{Name: "matrix", U: "softmax(0)", T: "softmax(0)",
		Params: simulate.Params{Names: []string{"T.t"}, Values: []float64{1}}}, Iterations: 2},
		Params: []ThetaParam{{Name: "T.t"}}}
	if err := spec.Check(); !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), `"T.t"`) {
		t.Errorf("T.t searched and fixed: %v, want ErrConfig naming it", err)
	}
	spec.Params = []ThetaParam{{Name: "U.t"}}
	if err := spec.Check(); err != nil {
		t.Errorf("U.t searched, T.t fixed: %v", err)
	}
}

// TestEnvSpecTagVMAS checks that "tag-vmas" builds simulate.TagVMAS with
// the spec's sizes, reward and parameters, and that a run on it with each
// chaser's own rewards trains and resumes as any other.
func TestEnvSpecTagVMAS(t *testing.T) {
	spec := EnvSpec{Name: "Tag-VMAS", Agents: 3, Tasks: 2, U: "mean", T: "max", EpisodeLength: 20,
		Params: simulate.Params{Names: []string{"escaper.speed"}, Values: []float64{0.9}}}
	env, err := spec.New(4)
	if err != nil {
		t.Fatal(err)
	}
	g, ok := env.(*simulate.TagVMAS)
	if !ok {
		t.Fatalf("New built a %T, want *simulate.TagVMAS", env)
	}
	if g.Agents() != 3 || g.Tasks() != 2 || g.EpisodeLength() != 20 || g.Obstacles() != 2 || g.Batch() != 4 {
		t.Errorf("sizes N %d, M %d, length %d, obstacles %d, batch %d", g.Agents(), g.Tasks(), g.EpisodeLength(), g.Obstacles(), g.Batch())
	}
	if v, _ := g.Params().Get("escaper.speed"); v != 0.9 {
		t.Errorf("escaper.speed %v, want 0.9", v)
	}
	if got := g.TeamReward().Outer.String() + "∘" + g.TeamReward().InnerFor(0).String(); got != "mean∘max" {
		t.Errorf("reward %s", got)
	}
	run := RunSpec{Env: EnvSpec{Name: "tag-vmas", U: "min", T: "max", EpisodeLength: 10},
		Team:       Config{Hidden: []int{8}, Envs: 4, FramesPerIter: 80, Minibatch: 40, Epochs: 1, Seed: 5, AgentRewards: true},
		Iterations: 2, EvalEpisodes: 4}
	dir := t.TempDir()
	whole := mustTrain(t, run, Options{Dir: dir})
	half := run
	half.Iterations = 1
	first := t.TempDir()
	mustTrain(t, half, Options{Dir: first})
	resumed := mustTrain(t, run, Options{Dir: first})
	if d := sameRows(whole.Log, resumed.Log); d != "" || !sameTeams(whole.Pair, resumed.Pair) {
		t.Errorf("tag-vmas resumed after 1 iteration differs from 2 iterations at once: %s", d)
	}
}
