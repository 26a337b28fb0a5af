package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hetgain/hetgain/learn"
	"github.com/hetgain/hetgain/reproduce"
)

// hetgpsTinyArgs is a HetGPS run on the matrix game with small networks
// and batches: a fraction of a second per seed.
func hetgpsTinyArgs(dir string, extra ...string) []string {
	return append([]string{"hetgps", "-iterations", "6", "-seeds", "2", "-grad-episodes", "8", "-frames-per-iter", "64",
		"-envs", "16", "-minibatch", "32", "-epochs", "2", "-hidden", "8", "-eval-every", "2", "-eval-episodes", "2", "-dir", dir}, extra...)
}

func TestHetGPSCommandTiny(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	code, out, errOut := runArgs(hetgpsTinyArgs(dir)...)
	if code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	for _, want := range []string{"HetGPS hetgps: softmax U and T", "matrix (matrix-cont N=2 M=2 U=softmax(0) T=softmax(0), 6 iterations, 384 frames per team)",
		"seed 1: τ_T 0 → ", "seed 2: τ_T 0 → ", "wrote " + filepath.Join(dir, "trajectories.csv"),
		"wrote " + filepath.Join(dir, "hetgps-matrix.png"), "wrote " + filepath.Join(dir, "summary.txt")} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(errOut, "hetgps: 2/2 runs done; matrix/seed2 iteration 6/6") || !strings.Contains(errOut, "T.t ") {
		t.Errorf("no final progress line: %q", errOut)
	}
	checkPNG(t, filepath.Join(dir, "hetgps-matrix.png"))
	lines := strings.Split(strings.TrimSpace(readFile(t, filepath.Join(dir, "trajectories.csv"))), "\n")
	if len(lines) != 7 || lines[0] != "setting,iteration,theta_T.t_mean,theta_T.t_std,theta_U.t_mean,theta_U.t_std,gain_mean,gain_std,seeds" {
		t.Errorf("trajectories.csv:\n%s", strings.Join(lines, "\n"))
	}
	log, names, err := learn.ReadHetGPSLog(filepath.Join(dir, "matrix", "seed1"))
	if err != nil || len(log) != 6 || strings.Join(names, ",") != "T.t,U.t" {
		t.Errorf("seed 1's log: %d rows, names %v, %v", len(log), names, err)
	}
	if got := readFile(t, filepath.Join(dir, "summary.txt")); !strings.Contains(out, got) {
		t.Errorf("summary.txt is not what was printed:\n%s", got)
	}

	// -plot, bounds, a clamp and the other schedule.
	dir2 := filepath.Join(t.TempDir(), "ps")
	plot := filepath.Join(t.TempDir(), "fig.png")
	code, out, errOut = runArgs(hetgpsTinyArgs(dir2, "-U", "powersum(1)", "-T", "powersum(1)", "-bounds", "T.t=0.3:6,U.t=0.3:6",
		"-clamp", "T.t=0.4:5.9", "-schedule", "alternated", "-x", "2", "-y", "1", "-sgd", "-sum-difference", "-relative-gain", "-grad-deterministic", "-seeds", "1", "-plot", plot, "-quiet")...)
	if code != exitOK || errOut != "" {
		t.Fatalf("power-sum: exit %d, stderr %q", code, errOut)
	}
	if spec := readFile(t, filepath.Join(dir2, "matrix", "seed1", "spec.json")); !strings.Contains(spec, `"DeterministicGrad": true`) ||
		!strings.Contains(spec, `"SGD": true`) || !strings.Contains(spec, `"SumDifference": true`) || !strings.Contains(spec, `"RelativeGain": true`) ||
		!strings.Contains(spec, `"ClampHigh": 5.9`) || strings.Count(spec, "ClampLow") != 1 {
		t.Errorf("-grad-deterministic -sgd -sum-difference -relative-gain -clamp T.t=...: spec.json\n%s", spec)
	}
	checkPNG(t, plot)
	if !strings.Contains(out, "wrote "+filepath.Join(dir2, "trajectories.csv")+"\nwrote "+plot+"\nwrote "+filepath.Join(dir2, "summary.txt")+"\n") ||
		strings.Contains(out, "hetgps-matrix.png") {
		t.Errorf("-plot: %s", out)
	}
	if _, err := os.Stat(filepath.Join(dir2, "hetgps-matrix.png")); err == nil {
		t.Error("-plot FILE: the figure was written to DIR/hetgps-matrix.png too")
	}

	// A descent with the floor records it.
	dir3 := filepath.Join(t.TempDir(), "floor")
	if code, _, errOut := runArgs(hetgpsTinyArgs(dir3, "-descent", "-floor", "-seeds", "1", "-quiet")...); code != exitOK {
		t.Fatalf("-descent -floor: exit %d, stderr %q", code, errOut)
	}
	if spec := readFile(t, filepath.Join(dir3, "matrix", "seed1", "spec.json")); !strings.Contains(spec, `"DescentFloor": true`) {
		t.Errorf("-descent -floor: spec.json\n%s", spec)
	}
	if !strings.Contains(out, "wrote "+plot) {
		t.Errorf("-plot: %s", out)
	}
	// Other settings in the first directory: a usage error naming the
	// setting.
	if code, _, errOut := runArgs(hetgpsTinyArgs(dir, "-descent", "-quiet")...); code != exitUsage ||
		!strings.Contains(errOut, "Descent") || !strings.Contains(errOut, "use another directory") {
		t.Errorf("-descent in a directory of ascents: exit %d, stderr %q", code, errOut)
	}
	// Another environment in the same directory would overwrite its
	// summary and trajectories: refused, naming the runs there, before
	// anything is written.
	summary := readFile(t, filepath.Join(dir, "summary.txt"))
	if code, _, errOut := runArgs(hetgpsTinyArgs(dir, "-env", "capture", "-iterations", "1", "-quiet")...); code != exitUsage ||
		!strings.Contains(errOut, "holds the HetGPS runs of another environment ("+filepath.Join(dir, "matrix")+")") {
		t.Errorf("-env capture in a directory of matrix runs: exit %d, stderr %q", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, "capture")); err == nil || readFile(t, filepath.Join(dir, "summary.txt")) != summary {
		t.Error("-env capture in a directory of matrix runs: the directory changed")
	}
	log, _, err = learn.ReadHetGPSLog(filepath.Join(dir2, "matrix", "seed1"))
	if err != nil || len(log) == 0 {
		t.Fatalf("alternated run's log: %d rows, %v", len(log), err)
	}
	for k, row := range log {
		if row.EnvStep != (k%3 == 2) {
			t.Errorf("alternated x=2 y=1: row %d env step %v", k+1, row.EnvStep)
		}
		for _, v := range row.Theta {
			if !(v > 0.3 && v < 6) {
				t.Errorf("row %d: θ %v outside the bounds", k+1, row.Theta)
			}
		}
		if v := row.Theta[0]; !(v >= 0.4 && v <= 5.9) {
			t.Errorf("row %d: τ_T %v outside the clamp", k+1, v)
		}
	}
}

// TestHetGPSCommandFirstSeed runs seed 2 alone with -first-seed 2: no
// seed 1, and seed 2's θ and gains are those of a run of both seeds.
func TestHetGPSCommandFirstSeed(t *testing.T) {
	both, second := filepath.Join(t.TempDir(), "both"), filepath.Join(t.TempDir(), "second")
	if code, _, errOut := runArgs(hetgpsTinyArgs(both, "-quiet")...); code != exitOK {
		t.Fatalf("both seeds: exit %d, stderr %q", code, errOut)
	}
	code, out, errOut := runArgs(hetgpsTinyArgs(second, "-first-seed", "2", "-quiet")...)
	if code != exitOK {
		t.Fatalf("-first-seed 2: exit %d, stderr %q", code, errOut)
	}
	if !strings.Contains(out, "seed 2: τ_T 0 → ") || strings.Contains(out, "seed 1:") {
		t.Errorf("-first-seed 2: summary\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(second, "matrix", "seed1")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("-first-seed 2 ran seed 1: %v", err)
	}
	want, _, err := learn.ReadHetGPSLog(filepath.Join(both, "matrix", "seed2"))
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := learn.ReadHetGPSLog(filepath.Join(second, "matrix", "seed2"))
	if err != nil || len(got) != len(want) {
		t.Fatalf("seed 2 alone: %d rows, %v; want %d", len(got), err, len(want))
	}
	for k := range got {
		g, w := got[k], want[k]
		if fmt.Sprint(g.Theta, g.ThetaGrad, g.GradGain, g.HetReturn, g.HomReturn) != fmt.Sprint(w.Theta, w.ThetaGrad, w.GradGain, w.HetReturn, w.HomReturn) {
			t.Errorf("row %d of seed 2 alone: θ %v, gain %v; in a run of both %v, %v", k+1, g.Theta, g.GradGain, w.Theta, w.GradGain)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{hetgpsTinyArgs(second, "-first-seed", "3"), "-first-seed 3: want 0 to -seeds (2)"},
		{hetgpsTinyArgs(second, "-first-seed", "-1"), "-first-seed -1: want 0 to -seeds (2)"},
	} {
		if code, out, errOut := runArgs(c.args...); code != exitUsage || out != "" || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want usage error naming %s", c.args, code, out, errOut, c.want)
		}
	}
}

// TestHetGPSTablesAsRunsFinish checks that trajectories.csv and
// summary.txt hold seed 1's run as soon as it is done, before seed 2
// finishes: a run killed without the chance to write them (SIGKILL, power
// loss) keeps every finished run in them.
func TestHetGPSTablesAsRunsFinish(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	var out, errb bytes.Buffer
	a := newApp(context.Background(), &out, &errb)
	var seen []string          // trajectories.csv whenever it changed, at each reading of the clock
	a.now = func() time.Time { // called once per progress report
		if data, err := os.ReadFile(filepath.Join(dir, "trajectories.csv")); err == nil && (len(seen) == 0 || seen[len(seen)-1] != string(data)) {
			seen = append(seen, string(data))
		}
		return time.Now()
	}
	if code := a.run(hetgpsTinyArgs(dir)); code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
	// Seed 1 alone has the same numbers as seed 1 of two seeds.
	one := filepath.Join(t.TempDir(), "one")
	if code, _, errOut := runArgs(hetgpsTinyArgs(one, "-seeds", "1", "-quiet")...); code != exitOK {
		t.Fatalf("seed 1 alone: exit %d, %s", code, errOut)
	}
	if len(seen) == 0 {
		t.Fatal("trajectories.csv never written while training")
	}
	if want := readFile(t, filepath.Join(one, "trajectories.csv")); seen[0] != want {
		t.Errorf("trajectories.csv while seed 2 trained:\n%s\nwant that of seed 1 alone\n%s", seen[0], want)
	}
	if len(seen) != 2 || seen[1] != readFile(t, filepath.Join(dir, "trajectories.csv")) {
		t.Errorf("trajectories.csv had %d versions while training, want 2 (seed 1, then both)", len(seen))
	}
	if strings.Contains(errb.String(), "warning") {
		t.Errorf("stderr: %q", errb.String())
	}
}

// TestHetGPSExtendProgress extends two finished seeds of 6 iterations to
// 12, on a clock that moves a minute per progress report: the time left
// counts only the iterations still to train, 10 minutes when seed 1 has
// trained iterations 7 and 8 (the first of a run is not timed), not the
// 16 of a count that forgot seed 2's 6 on disk.
func TestHetGPSExtendProgress(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	if code, _, errOut := runArgs(hetgpsTinyArgs(dir, "-quiet")...); code != exitOK {
		t.Fatalf("first 6 iterations: exit %d, %s", code, errOut)
	}
	var out, errb bytes.Buffer
	a := newApp(context.Background(), &out, &errb)
	clock := time.Now()
	a.now = func() time.Time {
		clock = clock.Add(time.Minute)
		return clock
	}
	if code := a.run(hetgpsTinyArgs(dir, "-iterations", "12")); code != exitOK {
		t.Fatalf("extended: exit %d, stderr %q", code, errb.String())
	}
	var line string
	for _, l := range strings.Split(errb.String(), "\n") {
		if strings.Contains(l, "seed1 iteration 8/12") {
			line = l
		}
	}
	if !strings.HasSuffix(line, "; ETA 10m0s") {
		t.Errorf("progress at seed 1's iteration 8 %q: want ETA 10m0s; stderr:\n%s", line, errb.String())
	}
}

// TestHetGPSEnvParams searches T.t alone with U.t fixed at -2 by
// -env-params: the run is the one of U = softmax(-2).
func TestHetGPSEnvParams(t *testing.T) {
	direct, viaParams := filepath.Join(t.TempDir(), "direct"), filepath.Join(t.TempDir(), "params")
	if code, _, errOut := runArgs(hetgpsTinyArgs(direct, "-params", "T.t", "-U", "softmax(-2)", "-quiet")...); code != exitOK {
		t.Fatalf("softmax(-2): exit %d, %s", code, errOut)
	}
	if code, _, errOut := runArgs(hetgpsTinyArgs(viaParams, "-params", "T.t", "-env-params", "U.t=-2", "-quiet")...); code != exitOK {
		t.Fatalf("-env-params U.t=-2: exit %d, %s", code, errOut)
	}
	got, want := readFile(t, filepath.Join(viaParams, "trajectories.csv")), readFile(t, filepath.Join(direct, "trajectories.csv"))
	if got != want {
		t.Errorf("trajectories with -env-params U.t=-2:\n%s\nwant those of softmax(-2)\n%s", got, want)
	}
}

// TestHetGPSSensorRange searches Multi-goal-capture's sensor range
// (-sensor -params sensor.range): θ starts at the default range and moves,
// the summary expects only that the gain rises (the theory's τ_T and τ_U
// are not searched) and gives no verdict.
func TestHetGPSSensorRange(t *testing.T) {
	if testing.Short() {
		t.Skip("trains Capture")
	}
	dir := filepath.Join(t.TempDir(), "sensor")
	code, out, errOut := runArgs("hetgps", "-env", "capture", "-sensor", "-params", "sensor.range", "-U", "min", "-T", "max",
		"-iterations", "3", "-seeds", "1", "-envs", "2", "-frames-per-iter", "200", "-hidden", "8", "-grad-episodes", "2",
		"-eval-episodes", "2", "-episode-length", "10", "-quiet", "-dir", dir)
	if code != exitOK || !strings.Contains(out, "expected: the gain rises.") ||
		!strings.Contains(out, "U=min T=max sensor, 3 iterations") || !strings.Contains(out, "no verdict") {
		t.Fatalf("exit %d, stderr %q, output\n%s", code, errOut, out)
	}
	log, names, err := learn.ReadHetGPSLog(filepath.Join(dir, "capture", "seed1"))
	if err != nil {
		t.Fatal(err)
	}
	if len(log) != 3 || len(names) != 1 || names[0] != "sensor.range" || log[0].Theta[0] == 0.35 || log[2].Theta[0] == log[0].Theta[0] {
		t.Errorf("sensor.range over the search: %v, %v, %v; want it to move from 0.35", log[0].Theta, log[1].Theta, log[2].Theta)
	}
}

// TestHetGPSCommandInterruptResume stops a run as Ctrl-C would, after
// some iterations, and resumes it with the same command: the logs are
// those of an uninterrupted run.
func TestHetGPSCommandInterruptResume(t *testing.T) {
	ref := filepath.Join(t.TempDir(), "ref")
	if code, _, errOut := runArgs(hetgpsTinyArgs(ref, "-quiet")...); code != exitOK {
		t.Fatalf("uninterrupted: exit %d, %s", code, errOut)
	}
	dir := filepath.Join(t.TempDir(), "run")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errb bytes.Buffer
	a := newApp(ctx, &out, &errb)
	calls := 0
	a.now = func() time.Time { // called once per progress report
		if calls++; calls == 9 {
			cancel()
		}
		return time.Now()
	}
	if code := a.run(hetgpsTinyArgs(dir)); code != exitInterrupted {
		t.Fatalf("exit %d, want %d; stderr %q", code, exitInterrupted, errb.String())
	}
	if !strings.Contains(errb.String(), "hetgain hetgps: interrupted: stopping after the running iteration") {
		t.Errorf("stderr does not acknowledge the interrupt:\n%s", errb.String())
	}
	if !strings.Contains(errb.String(), "interrupted: 1 of 2 runs finished") || !strings.Contains(errb.String(), "hetgain hetgps -iterations 6") {
		t.Errorf("stderr does not say what was kept and how to resume:\n%s", errb.String())
	}
	// The finished run's results are written, and are those of -table.
	partial := filepath.Join(dir, "trajectories.csv")
	if !strings.Contains(errb.String(), "The finished runs' trajectories, figures and summary: "+partial) {
		t.Errorf("stderr does not name the partial results:\n%s", errb.String())
	}
	if got := readFile(t, partial); !strings.Contains(got, "matrix,6,") || strings.Count(got, "\n") != 7 {
		t.Errorf("partial trajectories, want the 6 iterations of one seed:\n%s", got)
	}
	if _, err := os.Stat(filepath.Join(dir, "matrix", "seed2", "checkpoint.gob")); err != nil {
		t.Errorf("no checkpoint of the interrupted run: %v", err)
	}
	if code, _, errOut := runArgs(hetgpsTinyArgs(dir, "-quiet")...); code != exitOK {
		t.Fatalf("resume: exit %d, %s", code, errOut)
	}
	if got, want := readFile(t, filepath.Join(dir, "trajectories.csv")), readFile(t, filepath.Join(ref, "trajectories.csv")); got != want {
		t.Errorf("trajectories after resume differ:\n%s\nwant\n%s", got, want)
	}
	for _, seed := range []string{"seed1", "seed2"} {
		a, _, errA := learn.ReadHetGPSLog(filepath.Join(dir, "matrix", seed))
		b, _, errB := learn.ReadHetGPSLog(filepath.Join(ref, "matrix", seed))
		if errA != nil || errB != nil || len(b) == 0 || len(a) != len(b) {
			t.Fatalf("%s: logs of %d and %d rows (%v, %v)", seed, len(a), len(b), errA, errB)
		}
		for k := range b {
			if k >= len(a) || hetgpsRowKey(a[k]) != hetgpsRowKey(b[k]) {
				t.Errorf("%s row %d differs after resume", seed, k+1)
				break
			}
		}
	}
	// Other settings in the same directory are refused.
	if code, _, errOut := runArgs(hetgpsTinyArgs(dir, "-theta-lr", "0.5")...); code != exitUsage || !strings.Contains(errOut, "ThetaLR") {
		t.Errorf("other settings: exit %d, %s", code, errOut)
	}
}

// hetgpsRowKey is a log row without its wall times.
func hetgpsRowKey(s learn.HetGPSStats) string {
	var v []string
	for _, x := range append(append([]float64{s.GradGain, s.Gain, s.EvalGain}, s.Theta...), s.ThetaGrad...) {
		v = append(v, strconv.FormatFloat(x, 'g', -1, 64))
	}
	return strings.Join(v, ",")
}

func TestHetGPSCommandUsage(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"hetgps"}, "-dir"},
		{[]string{"hetgps", "-dir", dir, "-params", "T.tau"}, `no parameter "T.tau"`},
		{[]string{"hetgps", "-dir", dir, "-U", "min"}, `no parameter "U.t"`},
		{[]string{"hetgps", "-dir", dir, "-bounds", "T.t=6:0.3"}, "-bounds"},
		{[]string{"hetgps", "-dir", dir, "-bounds", "T.t"}, "-bounds"},
		{[]string{"hetgps", "-dir", dir, "-bounds", "X.t=0:1"}, `"X.t" is not one of -params`},
		{[]string{"hetgps", "-dir", dir, "-bounds", "T.t=0.3:6"}, "-bounds: T.t starts at 0, outside (0.3, 6)"},
		{[]string{"hetgps", "-dir", dir, "-clamp", "T.t=2:-1"}, "-clamp"},
		{[]string{"hetgps", "-dir", dir, "-clamp", "T.t=-1:1,T.t=-2:2"}, `-clamp: "T.t" is given twice`},
		{[]string{"hetgps", "-dir", dir, "-clamp", "X.t=0:1"}, `-clamp: "X.t" is not one of -params`},
		{[]string{"hetgps", "-dir", dir, "-clamp", "T.t=0.5:2"}, "-clamp: T.t starts at 0, outside (0.5, 2)"},
		{[]string{"hetgps", "-dir", dir, "-bounds", "T.t=-1:1", "-clamp", "T.t=-2:0.5"}, "-clamp: T.t's [-2, 0.5] reaches outside its -bounds (-1, 1)"},
		{[]string{"hetgps", "-dir", dir, "-theta-lr", "0"}, "-theta-lr"},
		{[]string{"hetgps", "-dir", dir, "-x", "0"}, "-x 0: want >= 1\n"},
		{[]string{"hetgps", "-dir", dir, "-floor"}, "-floor needs -descent"},
		{[]string{"hetgps", "-dir", dir, "-y", "3"}, "-y 3 needs -schedule alternated"},
		{[]string{"hetgps", "-dir", dir, "-schedule", "sometimes"}, "-schedule"},
		{[]string{"hetgps", "-dir", dir, "-env", "blotto"}, "-env"},
		{[]string{"hetgps", "-dir", dir, "-T", "softplus"}, "-T"},
		{[]string{"hetgps", "-dir", dir, "extra"}, `unexpected argument "extra"`},
		{[]string{"hetgps", "-dir", dir, "-env-params", "T.t=1"}, `-env-params: "T.t" is searched`},
		{[]string{"hetgps", "-dir", dir, "-env-params", "shaping=0.2"}, `-env-params: `},
		{[]string{"reproduce", "hetgps", "sideways"}, `unknown HetGPS experiment "sideways"`},
		{[]string{"reproduce", "hetgps", "softmax", "descent"}, "one experiment"},
		{[]string{"reproduce", "hetgps", "softmax", "-jobs", "0"}, "-jobs 0"},
		{[]string{"reproduce", "hetgps", "softmax", "-setting", "football"}, `-setting football: HetGPS experiment "softmax" has no setting "football"`},
	} {
		code, out, errOut := runArgs(c.args...)
		if code != exitUsage || out != "" || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want usage error naming %s", c.args, code, out, errOut, c.want)
		}
	}
	// A -plot that cannot be written is found before the runs.
	bad := filepath.Join(dir, "none", "fig.png")
	code, out, errOut := runArgs(hetgpsTinyArgs(filepath.Join(dir, "run"), "-plot", bad)...)
	if code != exitError || out != "" || !strings.Contains(errOut, "-plot "+bad+": cannot write there") {
		t.Errorf("-plot in a missing directory: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, "run")); err == nil {
		t.Error("-plot in a missing directory: the runs were started")
	}
}

// TestReproduceHetGPS runs "reproduce hetgps" with the presets made tiny.
func TestReproduceHetGPS(t *testing.T) {
	hetgpsTestHook = func(e reproduce.HetGPSExperiment) reproduce.HetGPSExperiment {
		e, _ = e.Only("matrix2")
		for k := range e.Settings {
			sp := &e.Settings[k].Spec
			sp.Run.Team = learn.Config{Hidden: []int{8}, Envs: 16, FramesPerIter: 64, Minibatch: 32, Epochs: 2}
			sp.Run.EvalEvery, sp.Run.EvalEpisodes, sp.GradEpisodes = 2, 2, 8
		}
		return e
	}
	defer func() { hetgpsTestHook = nil }()
	dir := filepath.Join(t.TempDir(), "r")
	code, out, errOut := runArgs("reproduce", "hetgps", "descent", "-dir", dir, "-seeds", "2", "-iterations", "4", "-setting", "matrix2")
	if code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	for _, want := range []string{"HetGPS descent", "matrix2 (matrix-cont N=2 M=2", "4 iterations", "seed 2: τ_T 5 → ", "(fell: ",
		"wrote " + filepath.Join(dir, "hetgps-matrix2.png")} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(errOut, "reproduce: 2/2 runs done") {
		t.Errorf("progress: %q", errOut)
	}
	// -table runs nothing and writes the same results; with more seeds it
	// summarises the seeds there are.
	traj := readFile(t, filepath.Join(dir, "trajectories.csv"))
	os.Remove(filepath.Join(dir, "trajectories.csv"))
	code, tabOut, errOut := runArgs("reproduce", "hetgps", "descent", "-dir", dir, "-seeds", "3", "-iterations", "4", "-setting", "matrix2", "-table")
	if code != exitOK || errOut != "" {
		t.Fatalf("-table: exit %d, stderr %q", code, errOut)
	}
	if got := readFile(t, filepath.Join(dir, "trajectories.csv")); got != traj {
		t.Errorf("-table trajectories:\n%s\nwant\n%s", got, traj)
	}
	if _, err := os.Stat(filepath.Join(dir, "matrix2", "seed3")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("-table ran seed 3: %v", err)
	}
	if !strings.Contains(tabOut, "seed 2: τ_T 5 → ") || strings.Contains(tabOut, "seed 3") {
		t.Errorf("-table summary:\n%s", tabOut)
	}
	// The same with the flags before "hetgps".
	code, again, errOut := runArgs("reproduce", "-setting", "matrix2", "-dir", dir, "-seeds", "3", "-iterations", "4", "-table", "hetgps", "descent")
	if code != exitOK || errOut != "" || again != tabOut {
		t.Errorf("flags before hetgps: exit %d, stderr %q, output\n%s\nwant\n%s", code, errOut, again, tabOut)
	}
	// -setting is for hetgps only.
	if code, _, errOut := runArgs("reproduce", "matrix2", "-setting", "capture", "-table"); code != exitUsage ||
		!strings.Contains(errOut, "only reproduce hetgps has settings") {
		t.Errorf("-setting for matrix2: exit %d, stderr %q", code, errOut)
	}
	if code, _, errOut := runArgs("reproduce", "hetgps", "descent", "-dir", filepath.Join(dir, "none"), "-table"); code != exitError ||
		!strings.Contains(errOut, "-table: stat ") {
		t.Errorf("-table on a missing directory: exit %d, stderr %q", code, errOut)
	}
	// -table at iterations no run has reached: an error, and the files
	// written above are left as they were.
	summary := readFile(t, filepath.Join(dir, "summary.txt"))
	code, tabOut, errOut = runArgs("reproduce", "hetgps", "descent", "-dir", dir, "-seeds", "2", "-setting", "matrix2", "-table")
	if code != exitError || tabOut != "" || !strings.Contains(errOut, "none of the 2 runs in "+dir+" is finished") {
		t.Errorf("-table with nothing finished: exit %d, stdout %q, stderr %q", code, tabOut, errOut)
	}
	if readFile(t, filepath.Join(dir, "trajectories.csv")) != traj || readFile(t, filepath.Join(dir, "summary.txt")) != summary {
		t.Error("-table with nothing finished rewrote trajectories.csv or summary.txt")
	}
	// All four, flags before the name, into DIR/<name>.
	dir = filepath.Join(t.TempDir(), "all")
	code, out, errOut = runArgs("reproduce", "hetgps", "-dir", dir, "-seeds", "1", "-iterations", "2", "-quiet", "all")
	if code != exitOK || errOut != "" {
		t.Fatalf("all: exit %d, stderr %q", code, errOut)
	}
	for _, name := range reproduce.HetGPSNames {
		checkPNG(t, filepath.Join(dir, name, "hetgps-matrix2.png"))
		if !strings.Contains(out, "HetGPS "+name) {
			t.Errorf("no summary of %s", name)
		}
	}
}

// TestHetGPSProgressETA checks that the time left counts each setting at
// its own seconds per iteration: a matrix game's iterations at 1 s, a
// Multi-goal-capture's at 4 s.
func TestHetGPSProgressETA(t *testing.T) {
	now := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	var buf bytes.Buffer
	e := reproduce.HetGPSExperiment{Seeds: 3, Settings: []reproduce.HetGPSSetting{
		{Label: "matrix2", Spec: learn.HetGPSSpec{Run: learn.RunSpec{Iterations: 10}}},
		{Label: "capture", Spec: learn.HetGPSSpec{Run: learn.RunSpec{Iterations: 10}}},
	}}
	h := newHetGPSProgress(newProgress(&buf, clock, true, "reproduce"), e, 1)
	step := func(run string, iteration int, seconds float64) string {
		now = now.Add(time.Duration(seconds * float64(time.Second)))
		buf.Reset()
		h.p.last = time.Time{} // print every line
		h.update(reproduce.HetGPSProgress{Run: run, Total: 6, Iteration: iteration, Iterations: 10, FPS: 100, Gain: math.NaN()})
		return buf.String()
	}
	var line string
	for it := 1; it <= 10; it++ {
		line = step("matrix2/seed1", it, 1)
	}
	// 20 matrix iterations at 1 s, 30 capture ones at the mean, 1 s.
	if !strings.Contains(line, "ETA 50s") {
		t.Errorf("after the first matrix seed: %q, want ETA 50s", line)
	}
	for it := 1; it <= 5; it++ {
		line = step("capture/seed1", it, 4)
	}
	// 20 matrix iterations at 1 s and 25 capture ones at 4 s (the mean
	// over all, 2 s an iteration, would say 1m30s).
	if !strings.Contains(line, "ETA 2m0s") {
		t.Errorf("after 5 capture iterations: %q, want ETA 2m0s", line)
	}

	// Two jobs: a matrix seed (0.1 s an iteration) and a capture seed (1 s)
	// at once, then the capture seed alone.
	e.Seeds = 1
	h = newHetGPSProgress(newProgress(&buf, clock, true, "reproduce"), e, 2)
	at := func(run string, iteration, done int) string {
		buf.Reset()
		h.p.last = time.Time{}
		h.update(reproduce.HetGPSProgress{Run: run, Done: done, Total: 2, Iteration: iteration, Iterations: 10, FPS: 100, Gain: math.NaN()})
		return buf.String()
	}
	for tick := 1; tick <= 20; tick++ { // 0.1 s a tick
		now = now.Add(100 * time.Millisecond)
		if tick <= 10 {
			done := 0
			if tick == 10 {
				done = 1
			}
			line = at("matrix2/seed1", tick, done)
		}
		if tick%10 == 0 {
			line = at("capture/seed1", tick/10, 1)
		}
	}
	// The capture seed, alone now, has 8 iterations of 1 s left (each run
	// timed by itself; timed from the updates of both, 0.5 s an iteration).
	if !strings.Contains(line, "ETA 8s") {
		t.Errorf("two jobs, after 2 capture iterations: %q, want ETA 8s", line)
	}
}

// TestHetGPSCommandFamilies checks that the summary of a search with U and
// T of different families names each, and judges each parameter against
// its own family's Schur boundary: 0 for lse, 1 for powermean.
func TestHetGPSCommandFamilies(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	code, out, errOut := runArgs(hetgpsTinyArgs(dir, "-U", "lse(1)", "-T", "powermean(2)", "-seeds", "1", "-quiet")...)
	if code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	for _, want := range []string{"HetGPS hetgps: lse U and powermean T;", "τ_T > 1, τ_U < 0 at the end: "} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
}
