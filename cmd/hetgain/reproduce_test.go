package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hetgain/hetgain/learn"
	"github.com/hetgain/hetgain/reproduce"
)

// tinyExperiment is the experiment of a name over {min, max}² with small
// networks and batches.
func tinyExperiment(name string) (reproduce.Experiment, error) {
	e, err := reproduce.Lookup(name)
	e.Ops = []string{"min", "max"}
	e.Team = learn.Config{Hidden: []int{8}, Envs: 16, FramesPerIter: 64, Minibatch: 32, Epochs: 2, AgentRewards: e.Team.AgentRewards}
	e.EvalEpisodes = 2
	return e, err
}

// runTiny runs hetgain with tinyExperiment in place of reproduce.Lookup.
func runTiny(a *app, args ...string) int {
	a.experiment = tinyExperiment
	return a.run(args)
}

func reproduceArgs(dir string, extra ...string) []string {
	return append([]string{"reproduce", "matrix2", "-dir", dir, "-seeds", "2", "-iterations", "3"}, extra...)
}

func TestReproduceTiny(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "m2")
	var out, errb bytes.Buffer
	if code := runTiny(newApp(context.Background(), &out, &errb), reproduceArgs(dir)...); code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
	for _, want := range []string{
		"matrix2: 2 variant(s) x 4 (U, T) pairs x 2 seed(s) = 16 runs, 16 finished.",
		"Frames per run (each team): 192, 0.0032% of the paper's 6M frames per run, 9 seeds.",
		"Variant     U    T    Seeds", "continuous  min  max      2",
		"Positive in the paper (bold): continuous min-max, discrete min-max.",
		"wrote " + filepath.Join(dir, "gains.csv"), "wrote " + filepath.Join(dir, "curves-continuous.png"),
		"wrote " + filepath.Join(dir, "curves-discrete.png"), "wrote " + filepath.Join(dir, "gains-discrete.png"),
		"wrote " + filepath.Join(dir, "diversity-continuous.png"), "wrote " + filepath.Join(dir, "diversity-discrete.png")} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("stdout lacks %q:\n%s", want, out.String())
		}
	}
	if !strings.Contains(errb.String(), "reproduce matrix2: 16/16 runs done; discrete/max-max/seed2 iteration 3/3") {
		t.Errorf("no final progress line: %q", errb.String())
	}
	checkPNG(t, filepath.Join(dir, "curves-continuous.png"))
	checkPNG(t, filepath.Join(dir, "curves-discrete.png"))
	checkPNG(t, filepath.Join(dir, "diversity-discrete.png"))

	// gains.csv is the table of the runs on disk, at full precision.
	e, _ := tinyExperiment("matrix2")
	e.Seeds = 2
	e = e.WithIterations(3)
	res, err := reproduce.Load(e, dir)
	if err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(t.TempDir(), "want.csv")
	if err := res.WriteCSV(want); err != nil {
		t.Fatal(err)
	}
	got := readFile(t, filepath.Join(dir, "gains.csv"))
	if got != readFile(t, want) || !strings.HasPrefix(got, "Experiment,Variant,U,T,Seeds,Frames,Gain,GainStd,") {
		t.Errorf("gains.csv:\n%s\nwant\n%s", got, readFile(t, want))
	}

	// Flags before the name work too, and the same command again trains
	// nothing and writes the same table.
	out.Reset()
	errb.Reset()
	code := runTiny(newApp(context.Background(), &out, &errb), "reproduce", "-quiet", "-dir", dir, "matrix2", "-iterations", "3", "-seeds", "2")
	if code != exitOK || errb.String() != "" || readFile(t, filepath.Join(dir, "gains.csv")) != got {
		t.Errorf("again: exit %d, stderr %q", code, errb.String())
	}
	// Other settings in the directory: a usage error.
	out.Reset()
	errb.Reset()
	a := newApp(context.Background(), &out, &errb)
	a.experiment = func(name string) (reproduce.Experiment, error) {
		e, err := tinyExperiment(name)
		e.Team.LR = 0.01
		return e, err
	}
	if code := a.run(reproduceArgs(dir, "-quiet")); code != exitUsage || !strings.Contains(errb.String(), "use another directory") {
		t.Errorf("other settings: exit %d, stderr %q", code, errb.String())
	}
}

// TestReproduceInterruptAndResume stops a reproduction at several points,
// as Ctrl-C would, and resumes it with the same command: gains.csv is byte
// for byte that of an uninterrupted reproduction.
func TestReproduceInterruptAndResume(t *testing.T) {
	ref := filepath.Join(t.TempDir(), "ref")
	var out, errb bytes.Buffer
	if code := runTiny(newApp(context.Background(), &out, &errb), reproduceArgs(ref, "-quiet")...); code != exitOK {
		t.Fatalf("uninterrupted: exit %d, %s", code, errb.String())
	}
	want := readFile(t, filepath.Join(ref, "gains.csv"))
	for _, c := range []struct {
		k, jobs, finished int
	}{{1, 1, 0}, {3, 1, 0}, {9, 1, 2}, {9, 3, -1}} {
		t.Run(fmt.Sprintf("%d-jobs%d", c.k, c.jobs), func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "m2")
			args := reproduceArgs(dir, "-jobs", fmt.Sprint(c.jobs))
			a, _, errb := interruptingApp(c.k)
			if code := runTiny(a, args...); code != exitInterrupted {
				t.Fatalf("exit %d, want %d; stderr %q", code, exitInterrupted, errb.String())
			}
			msg := "runs finished; the running ones kept their checkpoints in " + dir + ".\n"
			if c.finished >= 0 {
				msg = fmt.Sprintf("interrupted: %d of 16 ", c.finished) + msg
			}
			if !strings.Contains(errb.String(), msg) {
				t.Errorf("stderr:\n%s\nwant it to contain\n%s", errb.String(), msg)
			}
			if ack := "hetgain reproduce: interrupted: stopping after the running iteration"; strings.Count(errb.String(), ack) != 1 {
				t.Errorf("stderr:\n%s\nwant %q once", errb.String(), ack)
			}
			checkPartialTable(t, dir, errb.String())
			if resume := "Resume with the same command:\n  hetgain " + strings.Join(args, " ") + "\n"; !strings.HasSuffix(errb.String(), resume) {
				t.Errorf("stderr:\n%s\nwant it to end with\n%s", errb.String(), resume)
			}
			var out2, errb2 bytes.Buffer
			if code := runTiny(newApp(context.Background(), &out2, &errb2), args...); code != exitOK {
				t.Fatalf("resume: exit %d, %s", code, errb2.String())
			}
			if got := readFile(t, filepath.Join(dir, "gains.csv")); got != want {
				t.Errorf("resumed gains.csv:\n%s\nwant\n%s", got, want)
			}
		})
	}
}

// TestReproduceTablesAsRunsFinish checks that runs.csv and gains.csv hold
// each run's row as soon as it is done, before the next one finishes: a
// reproduction killed without the chance to write them (SIGKILL, power
// loss) keeps every finished run in its tables.
func TestReproduceTablesAsRunsFinish(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "m2")
	var out, errb bytes.Buffer
	a := newApp(context.Background(), &out, &errb)
	var mu sync.Mutex
	seen := map[int]string{} // data rows of runs.csv -> runs.csv, at each reading of the clock
	a.now = func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		if data, err := os.ReadFile(filepath.Join(dir, "runs.csv")); err == nil {
			seen[strings.Count(string(data), "\n")-1] = string(data)
		}
		return time.Now()
	}
	if code := runTiny(a, reproduceArgs(dir)...); code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
	final := readFile(t, filepath.Join(dir, "runs.csv"))
	finalRows := map[string]bool{}
	for _, row := range strings.SplitAfter(final, "\n") {
		finalRows[row] = true
	}
	for n := 1; n < 16; n++ {
		got, ok := seen[n]
		if !ok {
			t.Errorf("runs.csv never held %d runs' rows while training (seen: %d versions)", n, len(seen))
			continue
		}
		for _, row := range strings.SplitAfter(got, "\n") {
			if !finalRows[row] {
				t.Errorf("runs.csv with %d runs has row %q, not in the final runs.csv:\n%s", n, row, final)
			}
		}
	}
	if strings.Contains(errb.String(), "warning") {
		t.Errorf("stderr: %q", errb.String())
	}
}

// TestReproduceExtendProgress extends the 16 finished runs of 3
// iterations to 6: the progress line counts the 48 iterations kept on
// disk as done from the first report on (49 of 96 when the first run
// reaches iteration 4), so the time left covers only the iterations still
// to train.
func TestReproduceExtendProgress(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "m2")
	a, errb := againEveryLine(t, dir)
	if code := runTiny(a, reproduceArgs(dir, "-iterations", "6")...); code != exitOK {
		t.Fatalf("extended: exit %d, stderr %q", code, errb.String())
	}
	var first string
	for _, line := range strings.Split(errb.String(), "\n") {
		if strings.Contains(line, "iteration 4/6") {
			first = line
			break
		}
	}
	if !strings.Contains(first, "51.0% of 96 iterations") {
		t.Errorf("first report of a trained iteration %q: want 51.0%% of 96 iterations; stderr:\n%s", first, errb.String())
	}
	// What the first process kept is counted, not printed: the first
	// line is that report.
	if line, _, _ := strings.Cut(errb.String(), "\n"); line != first {
		t.Errorf("first line %q, want the first trained iteration's %q", line, first)
	}
}

// againEveryLine runs the tiny reproduction (3 iterations) in dir, then
// returns an app for a second run whose clock moves a minute per reading,
// so that every progress report prints its line, and its stderr.
func againEveryLine(t *testing.T, dir string) (*app, *bytes.Buffer) {
	t.Helper()
	var out, errb bytes.Buffer
	if code := runTiny(newApp(context.Background(), &out, &errb), reproduceArgs(dir, "-quiet")...); code != exitOK {
		t.Fatalf("first run: exit %d, stderr %q", code, errb.String())
	}
	errb.Reset()
	a := newApp(context.Background(), &out, &errb)
	clock := time.Now()
	a.now = func() time.Time {
		clock = clock.Add(time.Minute)
		return clock
	}
	return a, &errb
}

// TestReproduceFinishedProgress checks the progress of a reproduction
// run again over its finished runs: every line counts all of them done
// (it used to count them up from 1 as they were read back).
func TestReproduceFinishedProgress(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "m2")
	a, errb := againEveryLine(t, dir)
	if code := runTiny(a, reproduceArgs(dir)...); code != exitOK {
		t.Fatalf("again: exit %d, stderr %q", code, errb.String())
	}
	lines := 0
	for _, line := range strings.Split(errb.String(), "\n") {
		_, counts, ok := strings.Cut(line, ": ")
		if !ok || !strings.Contains(line, " runs done") {
			continue
		}
		lines++
		var done, runs int
		if _, err := fmt.Sscanf(counts, "%d/%d runs done", &done, &runs); err != nil || done != runs || runs < 2 {
			t.Errorf("progress line %q: want all runs done", line)
		}
	}
	if lines == 0 {
		t.Errorf("no progress line; stderr:\n%s", errb.String())
	}
}

// checkPartialTable checks what an interrupted reproduction left in dir
// besides its runs: the table and figures of the runs finished so far, named
// in stderr, or nothing if no run had finished.
func checkPartialTable(t *testing.T, dir, stderr string) {
	t.Helper()
	e, _ := tinyExperiment("matrix2")
	e.Seeds = 2
	e = e.WithIterations(3)
	res := &reproduce.Results{}
	if _, err := os.Stat(dir); err == nil { // stopped before the first run began: no directory
		if res, err = reproduce.Load(e, dir); err != nil {
			t.Fatal(err)
		}
	}
	csv := filepath.Join(dir, "gains.csv")
	if len(res.Cells) == 0 {
		if _, err := os.Stat(csv); !errors.Is(err, fs.ErrNotExist) || strings.Contains(stderr, "table and figures") {
			t.Errorf("no run finished: gains.csv %v, stderr %q", err, stderr)
		}
		return
	}
	// Per variant with a finished run its curves, gains and diversities
	// (these runs log them); none for a variant without one.
	paths := []string{csv, filepath.Join(dir, "runs.csv")}
	for _, v := range []string{"continuous", "discrete"} {
		for _, c := range res.Cells {
			if c.Variant == v {
				paths = append(paths, filepath.Join(dir, "curves-"+v+".png"), filepath.Join(dir, "gains-"+v+".png"),
					filepath.Join(dir, "diversity-"+v+".png"))
				break
			}
		}
	}
	files := "The finished runs' table and figures: " + strings.Join(paths, ", ") + "\n"
	if !strings.Contains(stderr, files) {
		t.Errorf("stderr:\n%s\nwant it to contain\n%s", stderr, files)
	}
	want := filepath.Join(t.TempDir(), "want.csv")
	if err := res.WriteCSV(want); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, csv); got != readFile(t, want) {
		t.Errorf("partial gains.csv:\n%s\nwant the table of the %d finished runs\n%s", got, len(res.Cells), readFile(t, want))
	}
	checkPNG(t, filepath.Join(dir, "curves-continuous.png"))
}

// TestReproduceVariants trains one variant with -variants, and refuses an
// unknown one and -variants for hetgps.
func TestReproduceVariants(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "m2")
	var out, errb bytes.Buffer
	if code := runTiny(newApp(context.Background(), &out, &errb), reproduceArgs(dir, "-variants", "discrete", "-quiet")...); code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
	if !strings.Contains(out.String(), "matrix2: 1 variant(s) x 4 (U, T) pairs x 2 seed(s) = 8 runs, 8 finished.") {
		t.Errorf("output:\n%s", out.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "continuous")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("-variants discrete trained the continuous game: %v", err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{reproduceArgs(dir, "-variants", "discrete,binary"), `-variants: experiment matrix2 has no variant "binary" (it has continuous, discrete)`},
		{[]string{"reproduce", "-variants", "matrix2", "hetgps", "softmax"}, "-variants matrix2: reproduce hetgps has settings, not variants: use -setting"},
	} {
		var out, errb bytes.Buffer
		if code := runTiny(newApp(context.Background(), &out, &errb), c.args...); code != exitUsage || !strings.Contains(errb.String(), c.want) {
			t.Errorf("%v: exit %d, stderr %q; want a usage error with %q", c.args, code, errb.String(), c.want)
		}
	}
}

// TestReproducePairsAndTable adds a seed to one pair with -pairs, then
// tabulates everything with -table: the table has two seeds for that
// pair and one for the others, and -table trains nothing. Bad -pairs are
// usage errors naming the pair.
func TestReproducePairsAndTable(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "m2")
	base := []string{"reproduce", "matrix2", "-dir", dir, "-iterations", "3", "-quiet"}
	args := func(extra ...string) []string { return append(append([]string(nil), base...), extra...) }
	for _, extra := range [][]string{{"-seeds", "1"}, {"-seeds", "2", "-pairs", "min-max"}} {
		var out, errb bytes.Buffer
		if code := runTiny(newApp(context.Background(), &out, &errb), args(extra...)...); code != exitOK {
			t.Fatalf("%q: exit %d, stderr %q", extra, code, errb.String())
		}
		// A run of some pairs says its files hold those alone, and how to
		// tabulate them all.
		note := "(these files hold only the cells of -pairs and -variants; hetgain reproduce matrix2 -dir " + dir + " -iterations 3 -quiet -seeds 2 -table tabulates every finished cell of " + dir + ")"
		if strings.Contains(out.String(), note) != (len(extra) > 2) {
			t.Errorf("%q: stdout has the note %v, want %v:\n%s", extra, !(len(extra) > 2), len(extra) > 2, out.String())
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "continuous", "min-min", "seed2")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("-pairs min-max trained min-min's seed 2: %v", err)
	}
	var out, errb bytes.Buffer
	if code := runTiny(newApp(context.Background(), &out, &errb), args("-seeds", "3", "-table")...); code != exitOK || errb.String() != "" {
		t.Fatalf("-table: exit %d, stderr %q", code, errb.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "continuous", "min-max", "seed3")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("-table -seeds 3 trained a third seed: %v", err)
	}
	for _, want := range []string{"= 24 runs, 10 finished.", "continuous  min  max      2", "continuous  min  min      1",
		"wrote " + filepath.Join(dir, "gains.csv")} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("-table: stdout lacks %q:\n%s", want, out.String())
		}
	}
	if !strings.Contains(readFile(t, filepath.Join(dir, "gains.csv")), "matrix2,discrete,min,max,2,") {
		t.Errorf("gains.csv lacks discrete min-max with 2 seeds:\n%s", readFile(t, filepath.Join(dir, "gains.csv")))
	}
	for _, c := range []struct{ pairs, msg string }{
		{"min-mean", `-pairs: pair "min-mean": want U-T with U and T among min, max`},
		{"max-min,max-min", `pair "max-min" given twice`},
	} {
		var out, errb bytes.Buffer
		if code := runTiny(newApp(context.Background(), &out, &errb), args("-pairs", c.pairs)...); code != exitUsage || !strings.Contains(errb.String(), c.msg) {
			t.Errorf("-pairs %s: exit %d, stderr %q, want a usage error naming %s", c.pairs, code, errb.String(), c.msg)
		}
	}
	errb.Reset()
	if code := runTiny(newApp(context.Background(), &out, &errb), "reproduce", "matrix2", "-table", "-dir", filepath.Join(dir, "none")); code == exitOK ||
		!strings.HasPrefix(errb.String(), "hetgain reproduce: -table: stat "+filepath.Join(dir, "none")) {
		t.Errorf("-table on a missing directory: exit %d, stderr %q", code, errb.String())
	}
	// -table with settings at which no run is finished (the runs have 3
	// iterations, not the experiment's): an error, and the tables and
	// figures written above are left as they were.
	before := map[string]string{}
	for _, name := range []string{"gains.csv", "runs.csv", "curves-continuous.png"} {
		before[name] = readFile(t, filepath.Join(dir, name))
	}
	out.Reset()
	errb.Reset()
	if code := runTiny(newApp(context.Background(), &out, &errb), "reproduce", "matrix2", "-table", "-dir", dir); code != exitError ||
		!strings.Contains(errb.String(), "none of the 24 runs in "+dir+" is finished") || !strings.Contains(errb.String(), "nothing written") ||
		out.String() != "" {
		t.Errorf("-table with nothing finished: exit %d, stdout %q, stderr %q", code, out.String(), errb.String())
	}
	for name, b := range before {
		if readFile(t, filepath.Join(dir, name)) != b {
			t.Errorf("-table with nothing finished rewrote %s", name)
		}
	}
}

// TestReproduceFirstSeed trains seed 2 alone with -first-seed, names it
// in the summary, trains no seed 1, and refuses a first seed over -seeds
// and a negative one, for the learning experiments and for hetgps.
func TestReproduceFirstSeed(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "m2")
	var out, errb bytes.Buffer
	if code := runTiny(newApp(context.Background(), &out, &errb), reproduceArgs(dir, "-first-seed", "2", "-quiet")...); code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
	if want := "matrix2: 2 variant(s) x 4 (U, T) pairs x seed 2 = 8 runs, 8 finished."; !strings.Contains(out.String(), want) {
		t.Errorf("stdout lacks %q:\n%s", want, out.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "continuous", "min-max", "seed1")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("-first-seed 2 trained seed 1: %v", err)
	}
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{reproduceArgs(dir, "-first-seed", "3"), "-first-seed 3: want 0 to -seeds (2)\n"},
		{reproduceArgs(dir, "-first-seed", "-1"), "-first-seed -1: want >= 0"},
		{[]string{"reproduce", "hetgps", "-first-seed", "4", "softmax"}, "-first-seed 4: over the 3 seeds of softmax; give -seeds too"},
		{[]string{"reproduce", "hetgps", "softmax", "-seeds", "18", "-first-seed", "19"}, "-first-seed 19: want 0 to -seeds (18)\n"},
		{[]string{"reproduce", "hetgps", "softmax", "-first-seed", "-1"}, "-first-seed -1: want >= 0"},
		{[]string{"reproduce", "hetgps", "softmax", "-pairs", "min-max"}, "-pairs min-max: reproduce hetgps has settings, not (U, T) pairs"},
	} {
		var out, errb bytes.Buffer
		if code := runTiny(newApp(context.Background(), &out, &errb), c.args...); code != exitUsage || !strings.Contains(errb.String(), c.msg) {
			t.Errorf("%q: exit %d, stderr %q, want a usage error naming %s", c.args, code, errb.String(), c.msg)
		}
	}
}

// TestReproduceTagLarge30MPairs checks that tag-large-30m keeps its one
// pair when -pairs is not given (-table on an empty directory trains
// nothing and says how many runs it looked for, and the first), and
// takes another with -pairs.
func TestReproduceTagLarge30MPairs(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		extra []string
		want  string
	}{
		{nil, dir + " holds none of the 9 runs of tag-large-30m (looked for 2v2/mean-max/seed1"},
		{[]string{"-pairs", "min-max,max-max", "-seeds", "2"}, dir + " holds none of the 4 runs of tag-large-30m (looked for 2v2/min-max/seed1"},
	} {
		var out, errb bytes.Buffer
		args := append([]string{"reproduce", "tag-large-30m", "-table", "-dir", dir}, c.extra...)
		if code := newApp(context.Background(), &out, &errb).run(args); code != exitError || !strings.Contains(errb.String(), c.want) {
			t.Errorf("%q: exit %d, stdout %q, stderr lacks %q:\n%s", c.extra, code, out.String(), c.want, errb.String())
		}
	}
}

// TestReproduceScaleTables checks the presets of the paper's tables of
// scale through the command: -table over a copy of their stored runs
// reads all 27 back, states the frames beside the paper's, and finds the
// cells clearly positive exactly where the paper's are.
func TestReproduceScaleTables(t *testing.T) {
	for _, name := range []string{"matrix8", "matrix11x2"} {
		dir := filepath.Join(t.TempDir(), name)
		copyTree(t, filepath.Join("..", "..", "testdata", "reproductions", name), dir)
		code, out, errOut := runArgs("reproduce", name, "-dir", dir, "-table")
		if code != exitOK {
			t.Fatalf("%s: exit %d, stderr %q", name, code, errOut)
		}
		for _, want := range []string{
			name + ": 1 variant(s) x 9 (U, T) pairs x 3 seed(s) = 27 runs, 27 finished.",
			"Frames per run (each team): 160,000, 1.3% of the paper's 12M frames per run, 8 seeds.",
			"Positive in the paper (bold): discrete min-mean, discrete min-max, discrete mean-max.",
			"They agree on every finished cell the paper reports.",
		} {
			if !strings.Contains(out+errOut, want) {
				t.Errorf("%s: output lacks %q:\n%s%s", name, want, out, errOut)
			}
		}
	}
}

// copyTree copies the files under src to dst.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestReproduceEntropy checks that -entropy trains every run with that
// entropy bonus (recorded in its spec), that a directory trained without
// it is refused rather than mixed, and that a bad weight is a usage error.
func TestReproduceEntropy(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "m2")
	args := []string{"reproduce", "matrix2", "-dir", dir, "-seeds", "1", "-iterations", "2", "-quiet"}
	var out, errb bytes.Buffer
	if code := runTiny(newApp(context.Background(), &out, &errb), append(args, "-entropy", "0.05")...); code != exitOK {
		t.Fatalf("-entropy 0.05: exit %d, stderr %q", code, errb.String())
	}
	for p, spec := range seed1Specs(t, dir, 8) {
		if spec.Team.EntropyCoef != 0.05 {
			t.Errorf("%s: EntropyCoef %v, want 0.05", p, spec.Team.EntropyCoef)
		}
	}
	errb.Reset()
	if code := runTiny(newApp(context.Background(), &out, &errb), args...); code == exitOK || !strings.Contains(errb.String(), "EntropyCoef") {
		t.Errorf("the same directory without -entropy: exit %d, stderr %q; want an error naming EntropyCoef", code, errb.String())
	}
	for _, bad := range []string{"-1", "NaN", "+Inf"} {
		code, _, errOut := runArgs("reproduce", "matrix2", "-dir", dir, "-entropy", bad)
		if code != exitUsage || !strings.Contains(errOut, "-entropy") {
			t.Errorf("-entropy %s: exit %d, %q; want a usage error naming -entropy", bad, code, errOut)
		}
	}
	if code, _, errOut := runArgs("reproduce", "-entropy", "0.01", "hetgps", "softmax"); code != exitUsage || !strings.Contains(errOut, "hetgps") {
		t.Errorf("reproduce -entropy 0.01 hetgps: exit %d, %q; want a usage error", code, errOut)
	}
}

// TestReproduceDifferenceRewards checks that -difference-rewards trains
// every run on difference rewards (recorded in its spec), that a directory
// trained without them is refused rather than mixed, that in tag-vmas they
// replace its chasers' own rewards, and that it is refused for hetgps.
func TestReproduceDifferenceRewards(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "m2")
	args := []string{"reproduce", "matrix2", "-dir", dir, "-seeds", "1", "-iterations", "2", "-quiet"}
	var out, errb bytes.Buffer
	if code := runTiny(newApp(context.Background(), &out, &errb), append(args, "-difference-rewards")...); code != exitOK {
		t.Fatalf("-difference-rewards: exit %d, stderr %q", code, errb.String())
	}
	for p, spec := range seed1Specs(t, dir, 8) {
		if !spec.Team.DifferenceRewards {
			t.Errorf("%s: DifferenceRewards false", p)
		}
	}
	errb.Reset()
	if code := runTiny(newApp(context.Background(), &out, &errb), args...); code == exitOK || !strings.Contains(errb.String(), "DifferenceRewards") {
		t.Errorf("the same directory without -difference-rewards: exit %d, stderr %q; want an error naming DifferenceRewards", code, errb.String())
	}
	capture := filepath.Join(t.TempDir(), "capture")
	errb.Reset()
	if code := runTiny(newApp(context.Background(), &out, &errb), "reproduce", "capture", "-dir", capture, "-pairs", "min-max", "-seeds", "1", "-iterations", "1", "-difference-rewards", "-quiet"); code != exitOK {
		t.Fatalf("reproduce capture -difference-rewards: exit %d, stderr %q", code, errb.String())
	}
	for p, spec := range seed1Specs(t, capture, 1) {
		if !spec.Team.DifferenceRewards || spec.Env.Name != "capture" {
			t.Errorf("%s: DifferenceRewards %v in %s, want true in capture", p, spec.Team.DifferenceRewards, spec.Env.Name)
		}
	}
	vmas := filepath.Join(t.TempDir(), "tag-vmas")
	errb.Reset()
	if code := runTiny(newApp(context.Background(), &out, &errb), "reproduce", "tag-vmas", "-dir", vmas, "-pairs", "min-max", "-seeds", "1", "-iterations", "1", "-difference-rewards", "-quiet"); code != exitOK {
		t.Fatalf("reproduce tag-vmas -difference-rewards: exit %d, stderr %q", code, errb.String())
	}
	for p, spec := range seed1Specs(t, vmas, 1) {
		if !spec.Team.DifferenceRewards || spec.Team.AgentRewards {
			t.Errorf("%s: DifferenceRewards %v, AgentRewards %v; want the difference reward in place of tag-vmas's own", p, spec.Team.DifferenceRewards, spec.Team.AgentRewards)
		}
	}
	if code, _, errOut := runArgs("reproduce", "-difference-rewards", "hetgps", "softmax"); code != exitUsage || !strings.Contains(errOut, "hetgps") {
		t.Errorf("reproduce -difference-rewards hetgps: exit %d, %q; want a usage error", code, errOut)
	}
}

// seed1Specs returns the run specs of the seed-1 runs of the reproduction
// in dir, by path, failing unless there are want of them.
func seed1Specs(t *testing.T, dir string, want int) map[string]learn.RunSpec {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, "*", "*", "seed1", "spec.json"))
	if err != nil || len(paths) != want {
		t.Fatalf("%d run specs (%v), want %d", len(paths), err, want)
	}
	specs := make(map[string]learn.RunSpec, len(paths))
	for _, p := range paths {
		var spec learn.RunSpec
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &spec); err != nil {
			t.Fatal(err)
		}
		specs[p] = spec
	}
	return specs
}

// TestReproduceKnowsEveryExperiment checks that every experiment
// reproduce.Lookup knows can be run by the command and is named in the
// synopsis of its help.
func TestReproduceKnowsEveryExperiment(t *testing.T) {
	_, help, _ := runArgs("help", "reproduce")
	usage, _, _ := strings.Cut(help, "\n")
	fields := strings.Fields(usage) // Usage: hetgain reproduce NAME|NAME|... [-dir DIR] ...
	named := map[string]bool{}
	if len(fields) > 3 {
		for _, name := range strings.Split(fields[3], "|") {
			named[name] = true
		}
	}
	for _, name := range reproduce.Names {
		if findReproducer(name) == nil {
			t.Errorf("experiment %q of reproduce.Names has no reproducer", name)
		}
		if !named[name] {
			t.Errorf("first line of 'help reproduce' does not name %q: %q", name, usage)
		}
	}
}
