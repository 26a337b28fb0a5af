package learn

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckRunDir checks that CheckRunDir accepts the directory of the
// same run (also at another number of iterations), names the setting of
// another run, and reports a directory without a run.
func TestCheckRunDir(t *testing.T) {
	spec := smallSpec(2)
	dir := t.TempDir()
	mustTrain(t, spec, Options{Dir: dir})
	if err := CheckRunDir(dir, spec); err != nil {
		t.Errorf("same run: %v", err)
	}
	longer := smallSpec(7)
	if err := CheckRunDir(dir, longer); err != nil {
		t.Errorf("same run, more iterations: %v", err)
	}
	other := smallSpec(2)
	other.Team.Clip = 0.3
	if err := CheckRunDir(dir, other); !errors.Is(err, ErrCheckpoint) || !strings.Contains(err.Error(), "Team.Clip") {
		t.Errorf("other clip: %v, want ErrCheckpoint naming Team.Clip", err)
	}
	other = smallSpec(2)
	other.Env.U = "mean"
	if err := CheckRunDir(dir, other); !errors.Is(err, ErrCheckpoint) || !strings.Contains(err.Error(), "Env.U") {
		t.Errorf("other U: %v, want ErrCheckpoint naming Env.U", err)
	}
	// Team.Kind is ignored (each team sets its own), so it is no other run.
	other = smallSpec(2)
	other.Team.Kind = Homogeneous
	if err := CheckRunDir(dir, other); err != nil {
		t.Errorf("same run with Team.Kind = Homogeneous: %v", err)
	}
	if err := CheckRunDir(t.TempDir(), spec); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("empty directory: %v, want fs.ErrNotExist", err)
	}
	bad := smallSpec(2)
	bad.Team.Clip = -1
	if err := CheckRunDir(dir, bad); !errors.Is(err, ErrConfig) {
		t.Errorf("invalid spec: %v, want ErrConfig", err)
	}
	// An invalid environment is an invalid spec, with or without a run
	// in the directory.
	for _, edit := range []func(*RunSpec){
		func(s *RunSpec) { s.Env.Name = "foo" },
		func(s *RunSpec) { s.Env.Agents = -1 },
		func(s *RunSpec) { s.Env.Name, s.Env.EpisodeLength = "capture", -1 },
		func(s *RunSpec) { s.Env.Name, s.Env.Tasks = "capture", 4 },
	} {
		bad := smallSpec(2)
		edit(&bad)
		for _, d := range []string{dir, t.TempDir()} {
			if err := CheckRunDir(d, bad); !errors.Is(err, ErrConfig) {
				t.Errorf("environment %+v: %v, want ErrConfig", bad.Env, err)
			}
		}
	}
}

// TestThetaParamJSON checks that a parameter without a clamp is written
// as before the clamp existed, so that spec.json files of earlier runs
// still match, and that a clamp is written.
func TestThetaParamJSON(t *testing.T) {
	for _, c := range []struct {
		p    ThetaParam
		want string
	}{
		{ThetaParam{Name: "T.t", Init: 1, Low: 0.3, High: 6}, `{"Name":"T.t","Init":1,"Low":0.3,"High":6}`},
		{ThetaParam{Name: "U.t", Init: 1, Low: 0.3, High: 6, ClampLow: 0.4, ClampHigh: 5.9},
			`{"Name":"U.t","Init":1,"Low":0.3,"High":6,"ClampLow":0.4,"ClampHigh":5.9}`},
	} {
		got, err := json.Marshal(c.p)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != c.want {
			t.Errorf("%+v: JSON %s, want %s", c.p, got, c.want)
		}
	}
}

// TestCheckHetGPSDir does the same for a HetGPS run directory.
func TestCheckHetGPSDir(t *testing.T) {
	spec := hetgpsSmallCapture(3, 2)
	dir := t.TempDir()
	if _, err := HetGPS(spec, Options{Dir: dir}); err != nil {
		t.Fatal(err)
	}
	if err := CheckHetGPSDir(dir, spec); err != nil {
		t.Errorf("same run: %v", err)
	}
	if err := CheckHetGPSDir(dir, hetgpsSmallCapture(3, 9)); err != nil {
		t.Errorf("same run, more iterations: %v", err)
	}
	other := hetgpsSmallCapture(3, 2)
	other.Params[1].High = 5
	if err := CheckHetGPSDir(dir, other); !errors.Is(err, ErrCheckpoint) || !strings.Contains(err.Error(), "Params") {
		t.Errorf("other bounds: %v, want ErrCheckpoint naming Params", err)
	}
	other = hetgpsSmallCapture(3, 2)
	other.Params[0].ClampLow, other.Params[0].ClampHigh = 0.4, 5.9
	if err := CheckHetGPSDir(dir, other); !errors.Is(err, ErrCheckpoint) || !strings.Contains(err.Error(), "Params") {
		t.Errorf("a clamp: %v, want ErrCheckpoint naming Params", err)
	}
	other = hetgpsSmallCapture(3, 2)
	other.Descent = true
	if err := CheckHetGPSDir(dir, other); !errors.Is(err, ErrCheckpoint) || !strings.Contains(err.Error(), "Descent") {
		t.Errorf("descent: %v, want ErrCheckpoint naming Descent", err)
	}
	// A paired run's directory is not a HetGPS run.
	pairDir := t.TempDir()
	mustTrain(t, smallSpec(1), Options{Dir: pairDir})
	if err := CheckHetGPSDir(pairDir, spec); !errors.Is(err, ErrCheckpoint) {
		t.Errorf("paired run's directory: %v, want ErrCheckpoint", err)
	}
}

// TestRunDirSpellings checks that a run is recognised under any spelling
// of its environment: defaults left at 0 or written out, names and
// operators in other cases, and a spec.json written before the canonical
// form.
func TestRunDirSpellings(t *testing.T) {
	spec := smallSpec(2)
	spec.Env = EnvSpec{Name: "capture", U: "min", T: "max", EpisodeLength: 5} // N = M = 2 by default
	dir := t.TempDir()
	mustTrain(t, spec, Options{Dir: dir})
	first, err := ReadLog(dir)
	if err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(filepath.Join(dir, specFile)); err != nil || !strings.Contains(string(data), `"Agents": 2`) {
		t.Errorf("spec.json does not write out the default N = 2 (%v):\n%s", err, data)
	}

	respelled := smallSpec(3)
	respelled.Env = EnvSpec{Name: " Capture", Agents: 2, Tasks: 2, U: "MIN", T: "Max", EpisodeLength: 5}
	if err := CheckRunDir(dir, respelled); err != nil {
		t.Fatalf("CheckRunDir under another spelling: %v", err)
	}
	mustTrain(t, respelled, Options{Dir: dir})
	rows, err := ReadLog(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 3 || rows[0].Gain != first[0].Gain || rows[1].Gain != first[1].Gain || rows[2].Iteration != 3 {
		t.Errorf("resumed under another spelling: %d rows %+v, want the first run's 2 and one more", len(rows), rows)
	}

	// A spec.json in the form written before Env was made canonical.
	path := filepath.Join(dir, specFile)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	old := strings.Replace(strings.Replace(string(data), `"Agents": 2`, `"Agents": 0`, 1), `"U": "min"`, `"U": "Min"`, 1)
	if old == string(data) {
		t.Fatalf("spec.json has no Agents 2 or U min to rewrite:\n%s", data)
	}
	if err := os.WriteFile(path, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := CheckRunDir(dir, respelled); err != nil {
		t.Errorf("CheckRunDir against an old spec.json: %v", err)
	}
	other := respelled
	other.Env.Agents = 3
	if err := CheckRunDir(dir, other); !errors.Is(err, ErrCheckpoint) || !strings.Contains(err.Error(), "Env.Agents") {
		t.Errorf("3 agents: %v, want ErrCheckpoint naming Env.Agents", err)
	}

	// A spec.json written before Team.AgentRewards was added matches
	// runs on the team reward only; one with a setting this version does
	// not know matches none.
	noField := strings.Replace(old, `"AgentRewards": false,`, "", 1)
	if noField == old {
		t.Fatalf("spec.json has no AgentRewards to remove:\n%s", old)
	}
	unknown := strings.Replace(old, `"AgentRewards": false,`, `"AgentRewards": false, "Telepathy": true,`, 1)
	// Agent rewards need an environment that has them: the same run in Tag.
	tagNoField := strings.Replace(noField, `"Name": "capture"`, `"Name": "tag"`, 1)
	if tagNoField == noField {
		t.Fatalf("spec.json has no capture to rename:\n%s", noField)
	}
	tagSpec := respelled
	tagSpec.Env.Name = "tag"
	own := tagSpec
	own.Team.AgentRewards = true
	for _, c := range []struct {
		file, what string
		spec       RunSpec
		want       string // "" for a match, else the setting named
	}{
		{noField, "without AgentRewards", respelled, ""},
		{tagNoField, "without AgentRewards, in Tag", tagSpec, ""},
		{tagNoField, "without AgentRewards, against agent rewards", own, "Team.AgentRewards"},
		{unknown, "with an unknown setting", respelled, "Team.Telepathy true (this run has no such setting)"},
	} {
		if err := os.WriteFile(path, []byte(c.file), 0o644); err != nil {
			t.Fatal(err)
		}
		err := CheckRunDir(dir, c.spec)
		if c.want == "" && err != nil || c.want != "" && (!errors.Is(err, ErrOtherSettings) || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("spec.json %s: %v, want %q named (or nothing)", c.what, err, c.want)
		}
	}
}

// TestErrOtherSettings checks that a directory holding a run of other
// settings gives ErrOtherSettings (which is also ErrCheckpoint), from
// CheckRunDir, CheckHetGPSDir, Train and HetGPS, and that files that
// cannot be read give ErrCheckpoint but not ErrOtherSettings.
func TestErrOtherSettings(t *testing.T) {
	if !errors.Is(ErrOtherSettings, ErrCheckpoint) {
		t.Error("ErrOtherSettings does not wrap ErrCheckpoint")
	}
	other := func(what string, err error) {
		t.Helper()
		if !errors.Is(err, ErrOtherSettings) || !errors.Is(err, ErrCheckpoint) {
			t.Errorf("%s: %v, want ErrOtherSettings and ErrCheckpoint", what, err)
		}
	}
	unreadable := func(what string, err error) {
		t.Helper()
		if errors.Is(err, ErrOtherSettings) || !errors.Is(err, ErrCheckpoint) {
			t.Errorf("%s: %v, want ErrCheckpoint, not ErrOtherSettings", what, err)
		}
	}

	spec := smallSpec(2)
	dir := t.TempDir()
	mustTrain(t, spec, Options{Dir: dir})
	lr := smallSpec(2)
	lr.Team.LR = 0.0123
	other("CheckRunDir, other learning rate", CheckRunDir(dir, lr))
	_, err := Train(lr, Options{Dir: dir})
	other("Train, other learning rate", err)
	// Every setting that differs is listed: -lr sets the critic's rate too.
	if want := "learn: " + dir + ": the run kept there has other settings: Team.CriticLR 0.003 (this run 0.0123), Team.LR 0.003 (this run 0.0123); use another directory"; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("Train, other learning rate: %v, want it to begin %q", err, want)
	}
	hg := hetgpsSmallCapture(3, 2)
	other("CheckHetGPSDir on a paired run", CheckHetGPSDir(dir, hg))

	hgDir := t.TempDir()
	if _, err := HetGPS(hg, Options{Dir: hgDir}); err != nil {
		t.Fatal(err)
	}
	descent := hetgpsSmallCapture(3, 2)
	descent.Descent = true
	other("CheckHetGPSDir, descent", CheckHetGPSDir(hgDir, descent))
	_, err = HetGPS(descent, Options{Dir: hgDir})
	other("HetGPS, descent", err)
	// An array of objects is compared element by element, and values are
	// shown as JSON.
	start := hetgpsSmallCapture(3, 2)
	start.Params[len(start.Params)-1].Init += 0.5
	last := len(start.Params) - 1
	_, err = HetGPS(start, Options{Dir: hgDir})
	other("HetGPS, another start", err)
	if want := fmt.Sprintf("the run kept there has other settings: Params[%d].Init %s (this run %s);", last, compactJSON(start.Params[last].Init-0.5), compactJSON(start.Params[last].Init)); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("HetGPS, another start: %v, want %q", err, want)
	}
	if err := specDiff("Hidden", []interface{}{64.0, 64.0}, []interface{}{64.0}); err == nil || !strings.Contains(err.Error(), "Hidden [64,64] (this run [64])") {
		t.Errorf("arrays of other lengths: %v", err)
	}

	// A corrupt checkpoint, an unreadable specification in it, and an
	// unreadable spec.json.
	junk := t.TempDir()
	mustTrain(t, spec, Options{Dir: junk})
	if err := os.WriteFile(filepath.Join(junk, checkpointFile), []byte("junk"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Train(spec, Options{Dir: junk})
	unreadable("Train, junk checkpoint", err)
	_, err = Train(lr, Options{Dir: junk})
	unreadable("Train with other settings, junk checkpoint", err)
	d := t.TempDir()
	mustTrain(t, spec, Options{Dir: d})
	rewriteCheckpoint(t, func(ck *checkpoint) { ck.Spec = []byte("{") })(d)
	_, err = Train(spec, Options{Dir: d})
	unreadable("Train, unreadable specification in the checkpoint", err)
	if err := os.WriteFile(filepath.Join(d, specFile), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	unreadable("CheckRunDir, unreadable spec.json", CheckRunDir(d, spec))
}

func TestThetaParamString(t *testing.T) {
	for _, c := range []struct {
		p    ThetaParam
		want string
	}{
		{ThetaParam{Name: "T.t"}, "T.t from 0"},
		{ThetaParam{Name: "U.t", Init: -5}, "U.t from -5"},
		{ThetaParam{Name: "T.t", Init: 1, Low: 0.3, High: 6}, "T.t from 1 in (0.3, 6)"},
		{ThetaParam{Name: "T.t", Init: 1, Low: 0.3, High: 6, ClampLow: 0.4, ClampHigh: 5.9}, "T.t from 1 in (0.3, 6), clamped to [0.4, 5.9]"},
		{ThetaParam{Name: "T.t", Init: 0.5, ClampLow: 0, ClampHigh: 2}, "T.t from 0.5 clamped to [0, 2]"},
	} {
		if got := c.p.String(); got != c.want {
			t.Errorf("%#v: %q, want %q", c.p, got, c.want)
		}
	}
}

// TestReadRunSpec reads back the run that a run directory records, with
// its defaults filled in, and every stored reproduction's runs; a missing
// spec.json wraps fs.ErrNotExist, and a HetGPS run's or an altered one is
// ErrCheckpoint.
func TestReadRunSpec(t *testing.T) {
	spec := smallSpec(2)
	dir := t.TempDir()
	mustTrain(t, spec, Options{Dir: dir})
	got, err := ReadRunSpec(dir)
	if err != nil {
		t.Fatal(err)
	}
	if d := DiffRunSpecs(got, spec); d != nil {
		t.Errorf("read back %+v, differs from the run's in %v", got, d)
	}
	if got.EvalEpisodes != spec.WithDefaults().EvalEpisodes || got.Env.Agents != 2 {
		t.Errorf("read back %+v, want the defaults filled in", got)
	}
	stored, err := filepath.Glob(filepath.Join("..", "testdata", "reproductions", "*", "*", "*", "seed1", "spec.json"))
	if err != nil || len(stored) < 50 {
		t.Fatalf("%d stored runs, %v", len(stored), err)
	}
	for _, path := range stored {
		_, err := ReadRunSpec(filepath.Dir(path))
		if hetgps := strings.Contains(path, "hetgps-"); hetgps != errors.Is(err, ErrCheckpoint) {
			t.Errorf("%s: %v", path, err)
		}
	}
	if _, err := ReadRunSpec(t.TempDir()); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("no spec.json: %v, want fs.ErrNotExist", err)
	}
	for _, c := range []struct{ from, to string }{{`"Clip": 0.2`, `"Clip": 0.2, "Extra": 1`}, {`"Agents": 2`, `"Agents": -1`}, {`"EvalEvery"`, `"evalEvery"`}} {
		data, err := os.ReadFile(filepath.Join(dir, "spec.json"))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(data), c.from) {
			t.Fatalf("spec.json lacks %q:\n%s", c.from, data)
		}
		bad := t.TempDir()
		if err := os.WriteFile(filepath.Join(bad, "spec.json"), []byte(strings.Replace(string(data), c.from, c.to, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadRunSpec(bad); !errors.Is(err, ErrCheckpoint) {
			t.Errorf("%s for %s: %v, want ErrCheckpoint", c.to, c.from, err)
		}
	}
}

// TestDiffRunSpecs checks the settings DiffRunSpecs names, in order, with
// their values as JSON, counting Iterations and ignoring Team.Kind and
// the defaults' spelling.
func TestDiffRunSpecs(t *testing.T) {
	a, b := smallSpec(2), smallSpec(5)
	b.Env.U, b.Team.Hidden, b.Team.Kind = "MEAN", []int{8}, Homogeneous
	got := fmt.Sprint(DiffRunSpecs(a, b))
	want := `[{Env.U "min" "mean"} {Iterations 2 5} {Team.Hidden [8,8] [8]}]`
	if got != want {
		t.Errorf("DiffRunSpecs = %s, want %s", got, want)
	}
	if d := DiffRunSpecs(a, a.WithDefaults()); d != nil {
		t.Errorf("a spec against itself with its defaults: %v", d)
	}
}

// TestSpecSeedsBeyondFloat64 checks that seeds that float64 cannot tell
// apart (2^53 and 2^53 + 1; UnixNano-sized seeds 11 apart) are other
// settings, for DiffRunSpecs and for a run directory; and that numbers
// that are equal as numbers (0 and -0, 1 and 1.0) are still the same.
func TestSpecSeedsBeyondFloat64(t *testing.T) {
	for _, seeds := range [][2]int64{{1 << 53, 1<<53 + 1}, {1700000000123456789, 1700000000123456800}} {
		a, b := smallSpec(2), smallSpec(2)
		a.Team.Seed, b.Team.Seed = seeds[0], seeds[1]
		d := DiffRunSpecs(a, b)
		if len(d) != 1 || d[0].Name != "Team.Seed" || d[0].A != fmt.Sprint(seeds[0]) || d[0].B != fmt.Sprint(seeds[1]) {
			t.Errorf("seeds %d and %d: DiffRunSpecs = %v, want Team.Seed only", seeds[0], seeds[1], d)
		}
		if err := sameSpec(mustJSON(a), mustJSON(b)); !errors.Is(err, ErrOtherSettings) || !strings.Contains(err.Error(), "Team.Seed") {
			t.Errorf("seeds %d and %d: sameSpec = %v, want ErrOtherSettings naming Team.Seed", seeds[0], seeds[1], err)
		}
	}
	if err := sameSpec([]byte(`{"A": 0, "B": 1, "C": [2.5]}`), []byte(`{"A": -0, "B": 1.0, "C": [25e-1]}`)); err != nil {
		t.Errorf("numbers equal as numbers: %v", err)
	}
}
