package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hetgain/hetgain/learn"
	"github.com/hetgain/hetgain/simulate"
	"gonum.org/v1/plot/vg"
)

// tinyTrain trains the matrix game (N = M = 2, min∘max) with small
// networks and batches: a fraction of a second per seed.
var tinyTrain = []string{"train", "-env", "matrix", "-U", "min", "-T", "max", "-seeds", "2", "-iterations", "4",
	"-hidden", "8", "-envs", "16", "-frames-per-iter", "64", "-minibatch", "32", "-eval-episodes", "2"}

func trainArgs(dir string, extra ...string) []string {
	return append(append(append([]string(nil), tinyTrain...), "-dir", dir), extra...)
}

// interruptingApp returns an app whose context is cancelled at the k-th
// reading of its clock (the progress line reads it once when training
// starts and once per report), as Ctrl-C would be.
func interruptingApp(k int) (*app, *bytes.Buffer, *bytes.Buffer) {
	ctx, cancel := context.WithCancel(context.Background())
	var out, errb bytes.Buffer
	a := newApp(ctx, &out, &errb)
	var mu sync.Mutex
	calls := 0
	a.now = func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		calls++
		if calls >= k {
			cancel()
		}
		return time.Now()
	}
	return a, &out, &errb
}

// gainsColumns returns gains.csv without its Seconds column (wall time).
func gainsColumns(t *testing.T, path string) string {
	t.Helper()
	var b strings.Builder
	for _, line := range strings.Split(strings.TrimSpace(readFile(t, path)), "\n") {
		b.WriteString(line[:strings.LastIndex(line, ",")] + "\n")
	}
	return b.String()
}

func TestTrainTiny(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	code, out, errOut := runArgs(trainArgs(dir)...)
	if code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	for _, want := range []string{"matrix-cont N=2 M=2 U=min T=max: 2 seed(s) x 4 iterations, 256 frames per team per run",
		"R_het (eval)", "R_hom (eval)", "ΔR", "\n1  ", "\n2  ", "\nmean  ", " ± ", "closed form: ΔR = 0.5",
		"wrote " + filepath.Join(dir, "gains.csv"), "wrote " + filepath.Join(dir, "curves.png")} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(errOut, "train: 2/2 runs done; seed2 iteration 4/4") || !strings.Contains(errOut, "100.0% of 8 iterations, took") {
		t.Errorf("stderr has no final progress line: %q", errOut)
	}
	checkPNG(t, filepath.Join(dir, "curves.png"))

	// gains.csv: the final evaluation of each seed's log, at full precision.
	recs := readCSV(t, readFile(t, filepath.Join(dir, "gains.csv")))
	if strings.Join(recs[0], ",") != "Seed,Iterations,Frames,HetEval,HomEval,Gain,HetDiversity,HomDiversity,Seconds" || len(recs) != 3 {
		t.Fatalf("gains.csv: %v", recs)
	}
	for k, r := range recs[1:] {
		log := readCSV(t, readFile(t, filepath.Join(dir, fmt.Sprintf("seed%d", k+1), "log.csv")))
		last := log[len(log)-1] // the last iteration is always evaluated
		if r[0] != fmt.Sprint(k+1) || r[1] != "4" || r[2] != last[1] || r[3] != last[5] || r[4] != last[6] || r[5] != last[7] ||
			r[6] != last[8] || r[7] != last[9] {
			t.Errorf("seed %d: gains.csv row %v, last log row %v", k+1, r, last)
		}
	}

	// The same command again reads the runs back; -team het reports one
	// team; a larger -iterations extends the runs.
	code, out2, _ := runArgs(trainArgs(dir, "-team", "het", "-quiet", "-plot", filepath.Join(dir, "het.svg"))...)
	if code != exitOK || strings.Contains(out2, "R_hom") || !strings.Contains(out2, "R_het (eval)") ||
		!strings.Contains(out2, "both teams were trained") || strings.Contains(out2, "closed form") {
		t.Errorf("-team het: exit %d\n%s", code, out2)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "het.svg")); err != nil || !bytes.Contains(b, []byte("<svg")) {
		t.Errorf("-plot het.svg: %v", err)
	}
	if code, out3, _ := runArgs(trainArgs(dir, "-quiet")...); code != exitOK || out3 != out {
		t.Errorf("same command again: exit %d, output differs:\n%s\nwant\n%s", code, out3, out)
	}
	if code, out4, errOut := runArgs(trainArgs(dir, "-quiet", "-iterations", "5")...); code != exitOK || !strings.Contains(out4, "x 5 iterations, 320 frames") {
		t.Errorf("-iterations 5: exit %d\n%s%s", code, out4, errOut)
	}

	// Other settings in the same directory: a usage error naming the setting.
	code, _, errOut = runArgs(trainArgs(dir, "-quiet", "-lr", "0.01")...)
	if code != exitUsage || !strings.Contains(errOut, "use another directory") {
		t.Errorf("other settings: exit %d, stderr %q", code, errOut)
	}
}

// TestTrainInterruptAndResume stops training at several points, as
// Ctrl-C would, and resumes it with the same command: the results are
// those of an uninterrupted run.
func TestTrainInterruptAndResume(t *testing.T) {
	ref := filepath.Join(t.TempDir(), "ref")
	if code, _, errOut := runArgs(trainArgs(ref, "-quiet")...); code != exitOK {
		t.Fatalf("uninterrupted: exit %d, %s", code, errOut)
	}
	want := gainsColumns(t, filepath.Join(ref, "gains.csv"))
	for _, c := range []struct {
		k          int // interrupt at the k-th reading of the clock
		seed, iter int // where training stops
	}{{1, 1, 0}, {3, 1, 2}, {7, 2, 1}} {
		t.Run(fmt.Sprint(c.k), func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "run")
			a, _, errb := interruptingApp(c.k)
			if code := a.run(trainArgs(dir)); code != exitInterrupted {
				t.Fatalf("exit %d, want %d; stderr %q", code, exitInterrupted, errb.String())
			}
			resume := "hetgain " + strings.Join(trainArgs(dir), " ")
			msg := fmt.Sprintf("interrupted: seed%d stopped after iteration %d of 4, its checkpoint kept in %s; %d of 2 seeds finished.\nResume with the same command:\n  %s\n",
				c.seed, c.iter, filepath.Join(dir, fmt.Sprintf("seed%d", c.seed)), c.seed-1, resume)
			if !strings.Contains(errb.String(), msg) {
				t.Errorf("stderr:\n%s\nwant it to contain\n%s", errb.String(), msg)
			}
			// The interrupt is acknowledged at once, before the report.
			ack := "hetgain train: interrupted: stopping after the running iteration, which then keeps a checkpoint (Ctrl-C again to quit at once"
			if k := strings.Index(errb.String(), ack); k < 0 || k > strings.Index(errb.String(), msg) {
				t.Errorf("stderr:\n%s\nwant %q before the report", errb.String(), ack)
			}
			// The table and curves of the seeds finished, if any.
			finished := c.seed - 1
			if finished == 0 {
				if _, err := os.Stat(filepath.Join(dir, "gains.csv")); err == nil {
					t.Error("gains.csv written by a run interrupted before a seed finished")
				}
			} else {
				lines := strings.SplitAfter(want, "\n")
				if got := gainsColumns(t, filepath.Join(dir, "gains.csv")); got != strings.Join(lines[:1+finished], "") {
					t.Errorf("interrupted run's gains.csv:\n%s\nwant the first %d seed(s) of\n%s", got, finished, want)
				}
				checkPNG(t, filepath.Join(dir, "curves.png"))
			}
			code, _, errOut := runArgs(trainArgs(dir)...)
			if code != exitOK {
				t.Fatalf("resume: exit %d, %s", code, errOut)
			}
			if got := gainsColumns(t, filepath.Join(dir, "gains.csv")); got != want {
				t.Errorf("resumed gains.csv:\n%s\nwant\n%s", got, want)
			}
		})
	}
}

// TestTrainExtendProgress extends two finished seeds of 4 iterations to
// 8: the progress line counts the 8 iterations kept on disk as done from
// the first report on (9 of 16 when seed 1 reaches iteration 5), so the
// time left covers only the iterations still to train.
func TestTrainExtendProgress(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	if code, _, errOut := runArgs(trainArgs(dir, "-quiet")...); code != exitOK {
		t.Fatalf("first 4 iterations: exit %d, %s", code, errOut)
	}
	code, _, errOut := runArgs(trainArgs(dir, "-iterations", "8")...)
	if code != exitOK {
		t.Fatalf("extended: exit %d, %s", code, errOut)
	}
	first := strings.SplitN(errOut, "\n", 2)[0]
	if want := "seed1 iteration 5/8"; !strings.Contains(first, want) || !strings.Contains(first, "56.2% of 16 iterations") {
		t.Errorf("first progress line %q: want %q at 56.2%% of 16 iterations", first, want)
	}
}

// TestTrainEnvParams checks -env-params: U = softmax(0) with U.t=2 trains
// as U = softmax(2); a run keeps its parameters (resuming it with others
// is a usage error naming them); parameters the environment refuses are
// usage errors naming them.
func TestTrainEnvParams(t *testing.T) {
	direct, viaParams := filepath.Join(t.TempDir(), "direct"), filepath.Join(t.TempDir(), "params")
	if code, _, errOut := runArgs(trainArgs(direct, "-U", "softmax(2)", "-quiet")...); code != exitOK {
		t.Fatalf("softmax(2): exit %d, %s", code, errOut)
	}
	code, out, errOut := runArgs(trainArgs(viaParams, "-U", "softmax(0)", "-env-params", "U.t=2", "-quiet")...)
	if code != exitOK {
		t.Fatalf("softmax(0) -env-params U.t=2: exit %d, %s", code, errOut)
	}
	if got, want := gainsColumns(t, filepath.Join(viaParams, "gains.csv")), gainsColumns(t, filepath.Join(direct, "gains.csv")); got != want {
		t.Errorf("gains.csv with -env-params U.t=2:\n%s\nwant that of softmax(2)\n%s", got, want)
	}
	if !strings.Contains(out, "U=softmax(0) T=max U.t=2") {
		t.Errorf("the report does not name the parameters:\n%s", out)
	}
	code, _, errOut = runArgs(trainArgs(viaParams, "-U", "softmax(0)", "-env-params", "U.t=3", "-iterations", "6", "-quiet")...)
	if code != exitUsage || !strings.Contains(errOut, "Env.Params.Values") {
		t.Errorf("resumed with U.t=3: exit %d, %q; want a usage error naming Env.Params.Values", code, errOut)
	}
	// -0 and 0 are one setting: a run started with the one resumes with the other.
	negZero := filepath.Join(t.TempDir(), "negzero")
	if code, _, errOut := runArgs(trainArgs(negZero, "-U", "softmax(1)", "-env-params", "U.t=-0", "-quiet")...); code != exitOK {
		t.Fatalf("-env-params U.t=-0: exit %d, %s", code, errOut)
	}
	if code, _, errOut := runArgs(trainArgs(negZero, "-U", "softmax(1)", "-env-params", "U.t=0", "-iterations", "6", "-quiet")...); code != exitOK {
		t.Errorf("started with U.t=-0, resumed with U.t=0: exit %d, %s", code, errOut)
	}
	for _, c := range []struct{ params, want string }{
		{"V.t=1", "V.t"}, {"U.t", "NAME=VALUE"}, {"U.t=1,U.t=2", "twice"},
	} {
		code, _, errOut := runArgs(trainArgs(filepath.Join(t.TempDir(), "bad"), "-U", "softmax(0)", "-env-params", c.params)...)
		if code != exitUsage || !strings.Contains(errOut, "-env-params") || !strings.Contains(errOut, c.want) {
			t.Errorf("-env-params %s: exit %d, %q; want a usage error naming %q", c.params, code, errOut, c.want)
		}
	}
}

// TestTrainGainsAsSeedsFinish checks that gains.csv holds each seed's row
// as soon as that seed is done, before the next one finishes: a run
// killed without the chance to write it (SIGKILL, power loss) loses no
// finished seed's results.
func TestTrainGainsAsSeedsFinish(t *testing.T) {
	ref := filepath.Join(t.TempDir(), "ref")
	if code, _, errOut := runArgs(trainArgs(ref, "-quiet")...); code != exitOK {
		t.Fatalf("reference: exit %d, %s", code, errOut)
	}
	want := strings.SplitAfter(gainsColumns(t, filepath.Join(ref, "gains.csv")), "\n")

	dir := filepath.Join(t.TempDir(), "run")
	var out, errb bytes.Buffer
	a := newApp(context.Background(), &out, &errb)
	var mu sync.Mutex
	seen := map[int]string{} // data rows of gains.csv -> its columns, at each reading of the clock
	a.now = func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		if _, err := os.Stat(filepath.Join(dir, "gains.csv")); err == nil {
			got := gainsColumns(t, filepath.Join(dir, "gains.csv"))
			seen[strings.Count(got, "\n")-1] = got
		}
		return time.Now()
	}
	if code := a.run(trainArgs(dir)); code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
	got, ok := seen[1]
	if !ok {
		t.Fatalf("gains.csv never held one seed's row while training (seen: %d versions)", len(seen))
	}
	if w := strings.Join(want[:2], ""); got != w {
		t.Errorf("gains.csv after seed 1:\n%s\nwant\n%s", got, w)
	}
}

// TestTrainFirstSeed runs seed 2 alone with -first-seed 2: its log and
// its row of gains.csv are those of seed 2 in a run of both, numbered 2,
// and seed 1 is not trained.
func TestTrainFirstSeed(t *testing.T) {
	ref := filepath.Join(t.TempDir(), "ref")
	if code, _, errOut := runArgs(trainArgs(ref, "-quiet")...); code != exitOK {
		t.Fatalf("both seeds: exit %d, %s", code, errOut)
	}
	dir := filepath.Join(t.TempDir(), "second")
	code, out, errOut := runArgs(trainArgs(dir, "-first-seed", "2")...)
	if code != exitOK {
		t.Fatalf("-first-seed 2: exit %d, stderr %q", code, errOut)
	}
	if !strings.Contains(out, "1 seed(s) x 4 iterations") || !strings.Contains(out, "\n2  ") || strings.Contains(out, "\n1  ") {
		t.Errorf("-first-seed 2: report\n%s", out)
	}
	if !strings.Contains(errOut, "train: 1/1 runs done; seed2 iteration 4/4") {
		t.Errorf("-first-seed 2: no final progress line for one run: %q", errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, "seed1")); !os.IsNotExist(err) {
		t.Errorf("-first-seed 2 trained seed 1 too (stat: %v)", err)
	}
	want := strings.Split(gainsColumns(t, filepath.Join(ref, "gains.csv")), "\n")
	got := strings.Split(gainsColumns(t, filepath.Join(dir, "gains.csv")), "\n")
	if len(got) != 3 || got[0] != want[0] || got[1] != want[2] || !strings.HasPrefix(got[1], "2,") {
		t.Errorf("gains.csv of -first-seed 2:\n%s\nwant the header and seed 2's row of\n%s",
			strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	wantLog := readCSV(t, readFile(t, filepath.Join(ref, "seed2", "log.csv")))
	gotLog := readCSV(t, readFile(t, filepath.Join(dir, "seed2", "log.csv")))
	if len(gotLog) != len(wantLog) {
		t.Fatalf("seed2/log.csv: %d rows, want %d", len(gotLog), len(wantLog))
	}
	for i := range wantLog { // all but the wall-time columns, seconds and fps
		n := len(wantLog[i]) - 2
		if strings.Join(gotLog[i][:n], ",") != strings.Join(wantLog[i][:n], ",") {
			t.Errorf("seed2/log.csv row %d: %v, want %v", i, gotLog[i][:n], wantLog[i][:n])
		}
	}

	for _, bad := range []string{"3", "-1"} {
		code, _, errOut := runArgs(trainArgs(filepath.Join(t.TempDir(), "bad"), "-first-seed", bad)...)
		if code != exitUsage || !strings.Contains(errOut, "-first-seed "+bad+": want 0 to -seeds (2)") {
			t.Errorf("-first-seed %s with -seeds 2: exit %d, stderr %q", bad, code, errOut)
		}
	}
}

func TestTrainCaptureAndTag(t *testing.T) {
	if testing.Short() {
		t.Skip("trains Capture and Tag")
	}
	for _, env := range []string{"capture", "tag", "tag-vmas"} {
		dir := filepath.Join(t.TempDir(), env)
		code, out, errOut := runArgs("train", "-env", env, "-U", "mean", "-T", "max", "-seeds", "1", "-iterations", "1",
			"-hidden", "8", "-envs", "2", "-frames-per-iter", "200", "-minibatch", "100", "-epochs", "1", "-eval-episodes", "2",
			"-ippo", "-agent-index", "-quiet", "-dir", dir)
		if code != exitOK || !strings.Contains(out, env+" N=2 M=2 U=mean T=max: 1 seed(s) x 1 iterations, 200 frames") ||
			strings.Contains(out, "closed form") {
			t.Errorf("%s: exit %d\n%s%s", env, code, out, errOut)
		}
		recs := readCSV(t, readFile(t, filepath.Join(dir, "gains.csv")))
		if g := parseFloat(t, recs[1][5]); math.IsNaN(g) {
			t.Errorf("%s: gain NaN", env)
		}
	}
}

// TestTrainSensor checks -sensor: the run trains Capture with the range
// sensor at the range -env-params gives, the report names both, the
// stored spec has them, and resuming the run without -sensor is a usage
// error.
func TestTrainSensor(t *testing.T) {
	if testing.Short() {
		t.Skip("trains Capture")
	}
	dir := filepath.Join(t.TempDir(), "sensor")
	args := []string{"train", "-env", "capture", "-seeds", "1", "-iterations", "1", "-hidden", "8", "-envs", "2",
		"-frames-per-iter", "200", "-minibatch", "100", "-epochs", "1", "-eval-episodes", "2", "-quiet", "-dir", dir,
		"-env-params", "sensor.range=0.2"}
	code, out, errOut := runArgs(append(args, "-sensor")...)
	if code != exitOK || !strings.Contains(out, "capture N=2 M=2 U=min T=max sensor sensor.range=0.2: 1 seed(s)") {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	var spec learn.RunSpec
	if err := json.Unmarshal([]byte(readFile(t, filepath.Join(dir, "seed1", "spec.json"))), &spec); err != nil {
		t.Fatal(err)
	}
	if r, err := spec.Env.Params.Get("sensor.range"); !spec.Env.Sensor || err != nil || r != 0.2 {
		t.Errorf("stored spec: sensor %v, range %v (%v)", spec.Env.Sensor, r, err)
	}
	if env, err := spec.Env.New(1); err != nil || env.ObsDim() != 4+2*2+simulate.CaptureRays {
		t.Errorf("stored spec's environment: %v", err)
	}
	// Without -sensor (and so without its range) it is another run.
	code, _, errOut = runArgs(append(args[:len(args)-2], "-iterations", "2")...)
	if code != exitUsage || !strings.Contains(errOut, "other settings") {
		t.Errorf("resumed without -sensor: exit %d, %q; want a usage error: run of other settings", code, errOut)
	}
}

// TestTrainTaskParams checks -task-params: gains.csv and the report give
// the final policies' returns with the parameters set, as an independent
// evaluation of the checkpoint does, and bad values are usage errors.
func TestTrainTaskParams(t *testing.T) {
	if testing.Short() {
		t.Skip("trains Tag")
	}
	dir := filepath.Join(t.TempDir(), "tag")
	args := []string{"train", "-env", "tag", "-U", "min", "-T", "max", "-seeds", "2", "-iterations", "1",
		"-hidden", "8", "-envs", "2", "-frames-per-iter", "200", "-minibatch", "100", "-epochs", "1", "-eval-episodes", "2",
		"-quiet", "-dir", dir}
	// A shaping other than the training one, so that the task's returns
	// differ from the training evaluation and are not 0.
	code, out, errOut := runArgs(append(args, "-task-params", "shaping=0.5, penalty=0", "-task-episodes", "8")...)
	if code != exitOK || !strings.Contains(out, "ΔR (task)") || !strings.Contains(out, "8 episodes with {shaping=0.5 penalty=0}") {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	recs := readCSV(t, readFile(t, filepath.Join(dir, "gains.csv")))
	if got := strings.Join(recs[0], ","); got != "Seed,Iterations,Frames,HetEval,HomEval,Gain,HetDiversity,HomDiversity,TaskHet,TaskHom,TaskGain,Seconds" {
		t.Fatalf("columns %s", got)
	}
	for k := 1; k <= 2; k++ {
		pair, err := learn.LoadPair(filepath.Join(dir, "seed"+strconv.Itoa(k)))
		if err != nil {
			t.Fatal(err)
		}
		if err := pair.SetEnvParams(simulate.Params{Names: []string{"shaping", "penalty"}, Values: []float64{0.5, 0}}); err != nil {
			t.Fatal(err)
		}
		het, _ := pair.Het().Evaluate(8, int64(k))
		hom, _ := pair.Hom().Evaluate(8, int64(k))
		th, tm, tg := parseFloat(t, recs[k][8]), parseFloat(t, recs[k][9]), parseFloat(t, recs[k][10])
		if th != het || tm != hom || tg != th-tm || th == 0 || th == parseFloat(t, recs[k][3]) {
			t.Errorf("seed %d: task %v %v %v, an evaluation of the checkpoint %v %v", k, th, tm, tg, het, hom)
		}
	}
	// hetgain inspect plays each run from its own seed: its returns are
	// those of gains.csv.
	profiles := filepath.Join(t.TempDir(), "profiles.csv")
	if code, _, errOut := runArgs("inspect", "-dir", dir, "-episodes", "8", "-task-params", "shaping=0.5,penalty=0", "-csv", profiles); code != exitOK {
		t.Fatalf("inspect: exit %d, %s", code, errOut)
	}
	rows := readCSV(t, readFile(t, profiles))
	if len(rows) != 5 || rows[0][5] != "return" {
		t.Fatalf("inspect's table:\n%v", rows)
	}
	for k := 1; k <= 2; k++ {
		for team, col := range []int{8, 9} { // TaskHet, TaskHom
			if got, want := parseFloat(t, rows[2*k-1+team][5]), parseFloat(t, recs[k][col]); got != want {
				t.Errorf("seed %d, %s: inspect's return %v, gains.csv's %v", k, rows[2*k-1+team][1], got, want)
			}
		}
	}
	for _, c := range []struct{ params, episodes, want string }{
		{"shaping=0,speed=2", "8", "speed"},
		{"shaping", "8", "NAME=VALUE"},
		{"shaping=x", "8", "NAME=VALUE"},
		{"shaping=0,shaping=1", "8", "twice"},
		{"shaping=0", "0", "-task-episodes 0"},
	} {
		code, _, errOut := runArgs(append(args, "-task-params", c.params, "-task-episodes", c.episodes)...)
		if code != exitUsage || !strings.Contains(errOut, c.want) {
			t.Errorf("-task-params %s -task-episodes %s: exit %d, %q; want a usage error naming %q", c.params, c.episodes, code, errOut, c.want)
		}
	}
	// An unknown name is answered with the parameters, listed once; a
	// value outside its domain with the parameter's name.
	code, _, errOut = runArgs(append(args, "-task-params", "speed=2")...)
	if code != exitUsage || strings.Count(errOut, "escaper.speed") != 1 {
		t.Errorf("-task-params speed=2: exit %d, %q; want a usage error listing the parameters once", code, errOut)
	}
	code, _, errOut = runArgs(append(args, "-task-params", "drag=-1")...)
	if code != exitUsage || !strings.Contains(errOut, "drag") || strings.Contains(errOut, "escaper.speed") {
		t.Errorf("-task-params drag=-1: exit %d, %q; want a usage error naming drag alone", code, errOut)
	}
}

// TestTrainFlagsConfig checks that the PPO flags reach learn.Config, that
// an unset flag leaves learn's default (or the reference setting), and
// that a value outside its domain is a usage error naming the flag.
func TestTrainFlagsConfig(t *testing.T) {
	config := func(args ...string) (learn.Config, error) {
		fs := flag.NewFlagSet("train", flag.ContinueOnError)
		f := addTrainFlags(fs)
		if err := fs.Parse(args); err != nil {
			t.Fatal(err)
		}
		return f.config(fs)
	}
	c, err := config("-lr", "0.01", "-entropy", "0.005", "-gamma", "0.99", "-lambda", "0.95", "-clip", "0.1", "-max-grad-norm", "5")
	if err != nil {
		t.Fatal(err)
	}
	if c.LR != 0.01 || c.CriticLR != 0.01 || c.EntropyCoef != 0.005 || c.Gamma != 0.99 || c.Lambda != 0.95 || c.Clip != 0.1 || c.MaxGradNorm != 5 {
		t.Errorf("flags not in the config: %+v", c)
	}
	ref, err := config("-reference", "-entropy", "0.01")
	if err != nil {
		t.Fatal(err)
	}
	want := learn.ReferenceConfig()
	want.EntropyCoef = 0.01
	if ref.MaxGradNorm != want.MaxGradNorm || ref.LR != want.LR || ref.RawAdvantage != want.RawAdvantage || ref.EntropyCoef != 0.01 {
		t.Errorf("-reference -entropy 0.01: got %+v, want %+v", ref, want)
	}
	for _, c := range []struct {
		args []string
		want bool
	}{{nil, false}, {[]string{"-raw-advantage"}, true}, {[]string{"-reference"}, true}, {[]string{"-reference", "-raw-advantage=false"}, false}} {
		if got, err := config(c.args...); err != nil || got.RawAdvantage != c.want {
			t.Errorf("%v: RawAdvantage %v, %v; want %v", c.args, got.RawAdvantage, err, c.want)
		}
	}
	for _, bad := range [][]string{{"-gamma", "1.5"}, {"-lambda", "2"}, {"-entropy", "-0.1"}, {"-clip", "NaN"}, {"-max-grad-norm", "+Inf"}} {
		if _, err := config(bad...); err == nil || !strings.Contains(err.Error(), strings.TrimPrefix(bad[0], "-")) {
			t.Errorf("%v: error %v, want one naming the flag", bad, err)
		}
	}
}

// The curves have a diversity panel when the logs have diversities, and
// only then: logs of runs older than the diversity columns have NaN there.
func TestTrainCurvesDiversityPanel(t *testing.T) {
	nan := math.NaN()
	logs := [][]learn.PairStats{{
		{Iteration: 1, Frames: 100, HetEval: 0.5, HomEval: 0.5, EvalGain: 0, HetDiversity: 0.1, HomDiversity: 0},
		{Iteration: 2, Frames: 200, HetEval: 1, HomEval: 0.5, EvalGain: 0.5, HetDiversity: 0.9, HomDiversity: 0},
	}}
	older := [][]learn.PairStats{append([]learn.PairStats(nil), logs[0]...)}
	for k := range older[0] {
		older[0][k].HetDiversity, older[0][k].HomDiversity = nan, nan
	}
	j := &trainJob{spec: learn.RunSpec{Env: learn.EnvSpec{Name: "matrix-cont", Agents: 2, Tasks: 2, U: "min", T: "max"}}, team: "both"}
	with, without := j.curves(logs), j.curves(older)
	if d := with.Width - without.Width; math.Abs(float64(d-6.5*vg.Centimeter)) > 1e-9 {
		t.Errorf("curves with diversities are %v wider than without, want one panel (6.5 cm)", d)
	}
}

// Reading stored runs up to a smaller -iterations is refused when nothing
// is left to report: no evaluation among the kept iterations, or
// -task-params, whose policies are those of the run's last iteration.
func TestTrainShorterIterations(t *testing.T) {
	dir := t.TempDir()
	if code, out, errOut := runArgs(trainArgs(dir, "-U", "softmax(0)", "-iterations", "8", "-eval-every", "3", "-quiet")...); code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	// Evaluations at 3, 6 and 8: the first 4 iterations hold one.
	code, out, errOut := runArgs(trainArgs(dir, "-U", "softmax(0)", "-iterations", "4", "-eval-every", "3", "-quiet")...)
	if code != exitOK || strings.Contains(out, "NaN") {
		t.Fatalf("-iterations 4: exit %d\n%s%s", code, out, errOut)
	}
	for _, c := range []struct {
		extra []string
		want  string
	}{
		{[]string{"-iterations", "2"}, "no evaluation in the first 2"},
		{[]string{"-iterations", "4", "-task-params", "U.t=1"}, "use -iterations 8"},
	} {
		args := trainArgs(dir, append([]string{"-U", "softmax(0)", "-eval-every", "3", "-quiet"}, c.extra...)...)
		code, out, errOut := runArgs(args...)
		if code != exitUsage || !strings.Contains(errOut, c.want) || strings.Contains(errOut, "panic") {
			t.Errorf("%v: exit %d, %q%q; want a usage error saying %q", c.extra, code, out, errOut, c.want)
		}
	}
}

// TestCorruptCheckpoint checks that a checkpoint that cannot be read is a
// failure of the files (exit 1), naming it and saying how to train the
// run afresh, not a bad command line, in train, reproduce and hetgps.
func TestCorruptCheckpoint(t *testing.T) {
	root := t.TempDir()
	for _, c := range []struct {
		name, run, hint string
		args            []string
	}{
		{"train", "seed1", "move or remove " + filepath.Join(root, "train", "seed1"), trainArgs(filepath.Join(root, "train"), "-quiet")},
		{"reproduce", filepath.Join("continuous", "min-min", "seed1"), "move or remove that run's directory",
			reproduceArgs(filepath.Join(root, "reproduce"), "-quiet")},
		{"hetgps", filepath.Join("matrix", "seed1"), "move or remove that run's directory", hetgpsTinyArgs(filepath.Join(root, "hetgps"), "-quiet")},
	} {
		run := filepath.Join(root, c.name, c.run)
		if err := os.MkdirAll(run, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(run, "checkpoint.gob"), []byte("garbage\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		var out, errb bytes.Buffer
		code := runTiny(newApp(context.Background(), &out, &errb), c.args...)
		if code != exitError || !strings.Contains(errb.String(), filepath.Join(run, "checkpoint.gob")) ||
			!strings.Contains(errb.String(), c.hint) || strings.Contains(errb.String(), "for usage") {
			t.Errorf("%s: exit %d, stderr %q; want exit 1 naming the checkpoint and %q", c.name, code, errb.String(), c.hint)
		}
	}
}

// TestTrainPlotPath checks that a -plot that cannot be written is found
// before training, and that the results are printed before the curves
// are drawn: a figure that fails to be written (here its directory is
// removed during training) does not hide them.
func TestTrainPlotPath(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "run")
	bad := filepath.Join(root, "none", "c.png")
	code, out, errOut := runArgs(trainArgs(dir, "-quiet", "-plot", bad)...)
	if code != exitError || out != "" || !strings.Contains(errOut, "-plot "+bad+": cannot write there") {
		t.Errorf("-plot in a missing directory: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, "seed1")); err == nil {
		t.Error("-plot in a missing directory: seed 1 was trained")
	}

	pics := filepath.Join(root, "pics")
	if err := os.Mkdir(pics, 0o755); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	a := newApp(context.Background(), &stdout, &stderr)
	a.now = func() time.Time { // training reads the clock: the directory goes
		os.RemoveAll(pics)
		return time.Now()
	}
	code = a.run(trainArgs(dir, "-plot", filepath.Join(pics, "c.png")))
	if code != exitError || !strings.Contains(stdout.String(), "\nmean  ") || !strings.Contains(stdout.String(), "wrote "+filepath.Join(dir, "gains.csv")) ||
		!strings.Contains(stderr.String(), "-plot "+filepath.Join(pics, "c.png")) {
		t.Errorf("-plot removed during training: exit %d, stdout %q, stderr %q; want the results, then the error", code, stdout.String(), stderr.String())
	}
}

// TestTrainAgentRewards checks -agent-rewards and -difference-rewards:
// -agent-rewards refused, naming the flag and the environment, where the
// environment has only the team reward (every environment of the command
// line has difference rewards); both refused together; and both kept in
// the run's settings in Tag.
func TestTrainAgentRewards(t *testing.T) {
	for _, flagName := range []string{"-agent-rewards", "-difference-rewards"} {
		var refused [][]string
		if flagName == "-agent-rewards" {
			refused = [][]string{
				{"train", "-env", "matrix", "-U", "min", "-T", "max", flagName, "-iterations", "1"},
				{"hetgps", "-env", "capture", "-U", "softmax(0)", "-T", "softmax(0)", flagName, "-iterations", "1"},
			}
		}
		for _, args := range refused {
			dir := filepath.Join(t.TempDir(), "run")
			code, _, errOut := runArgs(append(args, "-quiet", "-dir", dir)...)
			if code != exitUsage || !strings.Contains(errOut, flagName) || !strings.Contains(errOut, args[2]) {
				t.Errorf("%s: exit %d, %q; want a usage error naming %s and %s", strings.Join(args, " "), code, errOut, flagName, args[2])
			}
			if _, err := os.Stat(dir); !os.IsNotExist(err) {
				t.Errorf("%s: the refused run made %s (%v)", strings.Join(args, " "), dir, err)
			}
		}
		dir := filepath.Join(t.TempDir(), "tag")
		code, out, errOut := runArgs("train", "-env", "tag", "-U", "mean", "-T", "max", flagName, "-iterations", "1",
			"-hidden", "8", "-envs", "2", "-frames-per-iter", "200", "-minibatch", "100", "-epochs", "1", "-eval-episodes", "2",
			"-quiet", "-dir", dir)
		if code != exitOK {
			t.Fatalf("%s: exit %d\n%s%s", flagName, code, out, errOut)
		}
		pair, err := learn.LoadPair(filepath.Join(dir, "seed1"))
		if err != nil {
			t.Fatal(err)
		}
		het, hom := pair.Het().Config(), pair.Hom().Config()
		own := flagName == "-agent-rewards"
		if het.AgentRewards != own || hom.AgentRewards != own || het.DifferenceRewards == own || hom.DifferenceRewards == own {
			t.Errorf("%s: the run's teams have AgentRewards %v, %v and DifferenceRewards %v, %v", flagName,
				het.AgentRewards, hom.AgentRewards, het.DifferenceRewards, hom.DifferenceRewards)
		}
	}
	dir := filepath.Join(t.TempDir(), "both")
	code, _, errOut := runArgs("train", "-env", "tag", "-agent-rewards", "-difference-rewards", "-iterations", "1", "-quiet", "-dir", dir)
	if code != exitUsage || !strings.Contains(errOut, "-agent-rewards and -difference-rewards") {
		t.Errorf("both flags: exit %d, %q; want a usage error naming both", code, errOut)
	}
}

// TestCaptureSizeLimits checks the sizes checkEnvSize refuses against
// the library's: capture builds with captureMaxAgents agents and
// captureMaxGoals goals and refuses one more of either.
func TestCaptureSizeLimits(t *testing.T) {
	captureMaxAgents, captureMaxGoals := simulate.CaptureMaxAgents(), simulate.CaptureMaxGoals()
	for _, c := range []struct {
		n, m int
		ok   bool
	}{
		{captureMaxAgents, captureMaxGoals, true},
		{captureMaxAgents + 1, captureMaxGoals, false},
		{captureMaxAgents, captureMaxGoals + 1, false},
	} {
		_, err := learn.EnvSpec{Name: "capture", Agents: c.n, Tasks: c.m, U: "min", T: "max"}.New(1)
		if (err == nil) != c.ok {
			t.Errorf("capture with N = %d, M = %d: error %v, want ok %t", c.n, c.m, err, c.ok)
		}
		if cliErr := checkEnvSize("capture", c.n, c.m); (cliErr == nil) != c.ok {
			t.Errorf("checkEnvSize(capture, %d, %d) = %v, want ok %t", c.n, c.m, cliErr, c.ok)
		}
	}
}

// TestTrainOneSeedNoSpread checks that the report of a single seed gives
// its mean alone and says why, rather than a standard deviation of 0.
func TestTrainOneSeedNoSpread(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "one")
	code, out, errOut := runArgs(trainArgs(dir, "-seeds", "1", "-quiet")...)
	if code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if strings.Contains(out, "±") || !strings.Contains(out, "(one seed: a standard deviation over seeds needs two)") {
		t.Errorf("one seed:\n%s", out)
	}
}
