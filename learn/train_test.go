package learn

import (
	"bytes"
	"encoding/gob"
	"errors"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/hetgain/hetgain/aggregators"
	"github.com/hetgain/hetgain/gain"
	"github.com/hetgain/hetgain/simulate"
)

// smallSpec is a quick paired run on a small Capture with two workers.
func smallSpec(iterations int) RunSpec {
	return RunSpec{
		Env:        EnvSpec{Name: "capture", Agents: 2, Tasks: 2, U: "min", T: "max", EpisodeLength: 5},
		Team:       Config{Hidden: []int{8, 8}, Envs: 4, Workers: 2, FramesPerIter: 40, Minibatch: 15, Epochs: 2, Seed: 12},
		Iterations: iterations, EvalEvery: 2, EvalEpisodes: 4,
	}
}

func mustTrain(t *testing.T, spec RunSpec, opt Options) *Result {
	t.Helper()
	res, err := Train(spec, opt)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// sameFloat compares bit patterns, so NaN equals NaN.
func sameFloat(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || math.IsNaN(a) && math.IsNaN(b)
}

// sameRows reports the first difference of two logs, timing excluded.
func sameRows(a, b []PairStats) string {
	if len(a) != len(b) {
		return "different lengths"
	}
	for k := range a {
		x, y := a[k], b[k]
		if x.Iteration != y.Iteration || x.Frames != y.Frames {
			return "iteration or frames of row " + strconv.Itoa(k)
		}
		for c, p := range [][2]float64{{x.HetReturn, y.HetReturn}, {x.HomReturn, y.HomReturn}, {x.Gain, y.Gain},
			{x.HetEval, y.HetEval}, {x.HomEval, y.HomEval}, {x.EvalGain, y.EvalGain},
			{x.HetDiversity, y.HetDiversity}, {x.HomDiversity, y.HomDiversity}} {
			if !sameFloat(p[0], p[1]) {
				return "column " + pairHeader[2+c] + " of row " + strconv.Itoa(k)
			}
		}
		xu, yu := x.updateValues(), y.updateValues()
		for c := range xu {
			if !sameFloat(*xu[c], *yu[c]) {
				return "column " + pairHeader[updateAt+c] + " of row " + strconv.Itoa(k)
			}
		}
	}
	return ""
}

// logFileRows returns the rows of a run directory's log without the
// timing columns.
func logFileRows(t *testing.T, dir string) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, logFile))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	if lines[0] != strings.Join(pairHeader, ",") {
		t.Fatalf("log header %q", lines[0])
	}
	var rows []string
	for _, l := range lines[1:] {
		f := strings.Split(l, ",")
		if len(f) != len(pairHeader) {
			t.Fatalf("log row %q", l)
		}
		rows = append(rows, strings.Join(f[:timeAt], ",")) // not seconds, fps
	}
	return rows
}

func sameStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if a[k] != b[k] {
			return false
		}
	}
	return true
}

// sameTeams compares every parameter and optimiser state of two pairs.
func sameTeams(a, b *Pair) bool {
	for k, ta := range []*Team{a.Het(), a.Hom()} {
		tb := []*Team{b.Het(), b.Hom()}[k]
		sa, sb := ta.state(), tb.state()
		if sa.Iter != sb.Iter || sa.Frames != sb.Frames || sa.ActorStep != sb.ActorStep || sa.CriticStep != sb.CriticStep {
			return false
		}
		for q, x := range [][]float64{sa.Actor, sa.Critic, sa.ActorM, sa.ActorV, sa.CriticM, sa.CriticV} {
			if !equalFloats(x, [][]float64{sb.Actor, sb.Critic, sb.ActorM, sb.ActorV, sb.CriticM, sb.CriticV}[q]) {
				return false
			}
		}
	}
	return true
}

// TestTrainLog checks the columns of the log against their definitions
// and the last evaluation against an independent rollout.
func TestTrainLog(t *testing.T) {
	spec := smallSpec(5)
	var progress []PairStats
	res := mustTrain(t, spec, Options{Progress: func(s PairStats) { progress = append(progress, s) }})
	if len(res.Log) != 5 || len(progress) != 5 || res.ResumedAt != 0 {
		t.Fatalf("%d rows, %d progress calls, resumed at %d", len(res.Log), len(progress), res.ResumedAt)
	}
	frames := int64(res.Pair.Het().buf.frames)
	for k, r := range res.Log {
		if d := sameRows([]PairStats{r}, []PairStats{progress[k]}); d != "" {
			t.Errorf("row %d differs from its progress report: %s", k, d)
		}
		if r.Iteration != k+1 || r.Frames != int64(k+1)*frames {
			t.Errorf("row %d: iteration %d, frames %d", k, r.Iteration, r.Frames)
		}
		if r.Gain != r.HetReturn-r.HomReturn {
			t.Errorf("row %d: gain %v, want %v", k, r.Gain, r.HetReturn-r.HomReturn)
		}
		evaluated := r.Iteration%2 == 0 || r.Iteration == 5
		if evaluated != !math.IsNaN(r.EvalGain) || math.IsNaN(r.HetEval) != math.IsNaN(r.EvalGain) || math.IsNaN(r.HomEval) != math.IsNaN(r.EvalGain) {
			t.Errorf("row %d: evaluations %v %v %v", k, r.HetEval, r.HomEval, r.EvalGain)
		}
		if evaluated && r.EvalGain != r.HetEval-r.HomEval {
			t.Errorf("row %d: eval gain %v, want %v", k, r.EvalGain, r.HetEval-r.HomEval)
		}
		for _, d := range []float64{r.HetDiversity, r.HomDiversity} {
			if evaluated && !(d >= 0 && d <= 1) || !evaluated && !math.IsNaN(d) {
				t.Errorf("row %d: diversities %v %v (evaluated: %v)", k, r.HetDiversity, r.HomDiversity, evaluated)
			}
		}
		// FPS counts both teams' frames.
		if !(r.Seconds > 0) || math.Abs(r.FPS*r.Seconds-float64(2*frames)) > 1e-9*float64(frames) {
			t.Errorf("row %d: seconds %v, fps %v, want %d frames of both teams per iteration", k, r.Seconds, r.FPS, 2*frames)
		}
	}
	if f := res.Final(); f.Iteration != 5 {
		t.Errorf("Final is row %d", f.Iteration)
	}
	// The last evaluation, replayed.
	last := res.Log[4]
	for k, tm := range []*Team{res.Pair.Het(), res.Pair.Hom()} {
		env, err := spec.Env.New(spec.EvalEpisodes)
		if err != nil {
			t.Fatal(err)
		}
		ret, err := simulate.Rollout(env, tm.Policy(false), res.Pair.evalSeed(5), nil)
		if err != nil {
			t.Fatal(err)
		}
		if want := []float64{last.HetEval, last.HomEval}[k]; mean(ret) != want {
			t.Errorf("team %d: evaluation %v, replay %v", k, want, mean(ret))
		}
		p, err := simulate.Profile(env, tm.Policy(false), res.Pair.evalSeed(5))
		if err != nil {
			t.Fatal(err)
		}
		if want := []float64{last.HetDiversity, last.HomDiversity}[k]; p.Diversity != want {
			t.Errorf("team %d: diversity %v, replay %v", k, want, p.Diversity)
		}
	}
	// The training return of an iteration is the mean return of its
	// episodes, the same for Pair.Iterate as for Team.Iterate.
	if res.Log[4].HetReturn != mean(res.Pair.Het().buf.epReturn) || res.Log[4].HomReturn != mean(res.Pair.Hom().buf.epReturn) {
		t.Error("training returns of the last row differ from the buffers' episodes")
	}
	// No evaluation at all: Final is NaN.
	r := &Result{Log: []PairStats{{Iteration: 1, EvalGain: math.NaN()}}}
	if f := r.Final(); !math.IsNaN(f.EvalGain) || !math.IsNaN(f.HetEval) || f.Iteration != 0 {
		t.Errorf("Final without evaluations: %+v", f)
	}
}

func TestTrainDeterminism(t *testing.T) {
	spec := smallSpec(4)
	a := mustTrain(t, spec, Options{})
	b := mustTrain(t, spec, Options{})
	if d := sameRows(a.Log, b.Log); d != "" {
		t.Errorf("same spec twice: %s differs", d)
	}
	if !sameTeams(a.Pair, b.Pair) {
		t.Error("same spec twice: different parameters")
	}
	one := spec
	one.Team.Workers = 1
	c, d := mustTrain(t, one, Options{}), mustTrain(t, one, Options{})
	if diff := sameRows(c.Log, d.Log); diff != "" || !sameTeams(c.Pair, d.Pair) {
		t.Errorf("one worker twice: %s differs", diff)
	}
	other := spec
	other.Team.Seed++
	e := mustTrain(t, other, Options{})
	if sameRows(a.Log, e.Log) == "" || equalFloats(a.Pair.Het().actorParams, e.Pair.Het().actorParams) {
		t.Error("seeds 12 and 13 give the same run")
	}
	// Evaluation does not influence training.
	noEval := spec
	noEval.EvalEvery = 100
	f := mustTrain(t, noEval, Options{})
	if !sameTeams(a.Pair, f.Pair) {
		t.Error("evaluating every 2 iterations instead of at the end changed the training")
	}
}

// TestTrainResume stops a run after three of six iterations and resumes
// it; log and parameters must equal those of the uninterrupted run.
func TestTrainResume(t *testing.T) {
	spec := smallSpec(6)
	dirA, dirB := t.TempDir(), t.TempDir()
	a := mustTrain(t, spec, Options{Dir: dirA})
	if len(a.Log) != 6 {
		t.Fatalf("%d rows", len(a.Log))
	}
	done := 0
	b, err := Train(spec, Options{Dir: dirB, Progress: func(PairStats) { done++ }, Stop: func() bool { return done >= 3 }})
	if !errors.Is(err, ErrStopped) {
		t.Fatalf("stopped run: %v, want ErrStopped", err)
	}
	if len(b.Log) != 3 || len(logFileRows(t, dirB)) != 3 {
		t.Fatalf("stopped run: %d rows, %d in the log", len(b.Log), len(logFileRows(t, dirB)))
	}
	b = mustTrain(t, spec, Options{Dir: dirB})
	if b.ResumedAt != 3 {
		t.Errorf("resumed at %d, want 3", b.ResumedAt)
	}
	if d := sameRows(a.Log, b.Log); d != "" {
		t.Errorf("resumed run: %s differs", d)
	}
	if !sameStrings(logFileRows(t, dirA), logFileRows(t, dirB)) {
		t.Errorf("log files differ:\n%q\n%q", logFileRows(t, dirA), logFileRows(t, dirB))
	}
	if !equalFloats(a.Pair.Het().actorParams, b.Pair.Het().actorParams) || !sameTeams(a.Pair, b.Pair) {
		t.Error("resumed run: different final parameters")
	}
	// A finished run resumes at its end and does nothing.
	c := mustTrain(t, spec, Options{Dir: dirA})
	if c.ResumedAt != 6 || sameRows(a.Log, c.Log) != "" || !sameTeams(a.Pair, c.Pair) {
		t.Errorf("finished run resumed at %d", c.ResumedAt)
	}
	// Stopped before the first iteration.
	dirC := t.TempDir()
	if _, err := Train(spec, Options{Dir: dirC, Stop: func() bool { return true }}); !errors.Is(err, ErrStopped) {
		t.Fatalf("stopped at once: %v", err)
	}
	if r := mustTrain(t, spec, Options{Dir: dirC}); r.ResumedAt != 0 || sameRows(a.Log, r.Log) != "" {
		t.Errorf("run stopped at once, resumed: %d, %s", r.ResumedAt, sameRows(a.Log, r.Log))
	}
}

// TestTrainResumeOlderLog resumes runs whose logs were written before
// hetgain recorded the teams' updates, and before it recorded the
// diversities too: their rows are read with NaN in the columns they lack,
// the log is rewritten with every column, and everything else equals the
// uninterrupted run.
func TestTrainResumeOlderLog(t *testing.T) {
	spec := smallSpec(6)
	a := mustTrain(t, spec, Options{Dir: t.TempDir()})
	for k := 1; k <= len(laterColumns); k++ {
		dir := t.TempDir()
		done := 0
		if _, err := Train(spec, Options{Dir: dir, Progress: func(PairStats) { done++ }, Stop: func() bool { return done >= 4 }}); !errors.Is(err, ErrStopped) {
			t.Fatalf("stopped run: %v, want ErrStopped", err)
		}
		dropLaterColumns(t, dir, k)
		read, err := ReadLog(dir)
		if err != nil || len(read) != 4 {
			t.Fatalf("ReadLog of the log without %d groups of columns: %d rows, %v", k, len(read), err)
		}
		b := mustTrain(t, spec, Options{Dir: dir})
		if b.ResumedAt != 4 {
			t.Fatalf("resumed at %d, want 4", b.ResumedAt)
		}
		fromFile, err := ReadLog(dir)
		if err != nil {
			t.Fatal(err)
		}
		want := olderRows(a.Log[:4], k)
		for _, log := range [][]PairStats{read, b.Log[:4], fromFile[:4]} {
			if d := sameRows(log, want); d != "" {
				t.Errorf("the older log's rows (%d groups of columns dropped): %s differs from the uninterrupted run's, with NaN for what it lacks", k, d)
			}
		}
		if d := sameRows(b.Log[4:], a.Log[4:]); d != "" {
			t.Errorf("rows after the resume: %s differs from the uninterrupted run", d)
		}
		if d := sameRows(fromFile, b.Log); d != "" {
			t.Errorf("the rewritten log file: %s differs from the result", d)
		}
		if got := logFileRows(t, dir); len(got) != 6 {
			t.Errorf("rewritten log has %d rows", len(got))
		}
	}
}

// olderRows returns rows as a log written before the last k groups of
// laterColumns reads: NaN in the columns it lacks.
func olderRows(rows []PairStats, k int) []PairStats {
	out := append([]PairStats(nil), rows...)
	for j := range out {
		out[j].HetUpdate, out[j].HomUpdate = nanUpdate(), nanUpdate()
		if k >= 2 {
			out[j].HetDiversity, out[j].HomDiversity = math.NaN(), math.NaN()
		}
	}
	return out
}

// dropLaterColumns rewrites the log in dir without the columns of the
// last k groups of laterColumns, as a hetgain older than them wrote it.
func dropLaterColumns(t *testing.T, dir string, k int) {
	t.Helper()
	path := filepath.Join(dir, logFile)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	header := strings.Split(lines[0], ",")
	keep := map[string]bool{}
	for _, c := range olderHeader(header, k) {
		keep[c] = true
	}
	var old []string
	for _, l := range lines {
		var f []string
		for c, v := range strings.Split(l, ",") {
			if keep[header[c]] {
				f = append(f, v)
			}
		}
		old = append(old, strings.Join(f, ","))
	}
	if err := os.WriteFile(path, []byte(strings.Join(old, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestTrainCrash simulates crashes between checkpoints: the log holds
// rows after the last checkpoint (and a torn last line), or the checkpoint
// is older than the log. Resuming recomputes those rows instead of
// duplicating them.
func TestTrainCrash(t *testing.T) {
	spec := smallSpec(6)
	ref := mustTrain(t, spec, Options{Dir: t.TempDir()})
	want := ref.Log

	// A crash (panic) after the log row of iteration 5; checkpoints every
	// 2 iterations, so the last one is at 4.
	dir := t.TempDir()
	func() {
		defer func() {
			if r := recover(); r != "crash" {
				t.Fatalf("recovered %v", r)
			}
		}()
		Train(spec, Options{Dir: dir, CheckpointEvery: 2, Progress: func(s PairStats) {
			if s.Iteration == 5 {
				panic("crash")
			}
		}})
	}()
	if n := len(logFileRows(t, dir)); n != 5 {
		t.Fatalf("crashed run: %d log rows, want 5", n)
	}
	f, err := os.OpenFile(filepath.Join(dir, logFile), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	// A complete row the checkpoint does not cover, then a torn one whose
	// prefix parses as another iteration (as "1" of row 12 would): the
	// resumed run writes both again and must not read them.
	f.WriteString("6,1234,0.5\n1")
	f.Close()
	res := mustTrain(t, spec, Options{Dir: dir, CheckpointEvery: 2})
	if res.ResumedAt != 4 {
		t.Errorf("resumed at %d, want the checkpoint at 4", res.ResumedAt)
	}
	if d := sameRows(want, res.Log); d != "" {
		t.Errorf("after the crash: %s differs", d)
	}
	if !sameStrings(logFileRows(t, dir), rowsOf(want)) {
		t.Errorf("log after the crash:\n%q\nwant\n%q", logFileRows(t, dir), rowsOf(want))
	}
	if !sameTeams(ref.Pair, res.Pair) {
		t.Error("after the crash: different parameters")
	}

	// A crash before the first checkpoint: the run starts afresh.
	dir = t.TempDir()
	func() {
		defer func() { recover() }()
		Train(spec, Options{Dir: dir, CheckpointEvery: 2, Progress: func(s PairStats) {
			if s.Iteration == 1 {
				panic("crash")
			}
		}})
	}()
	if n := len(logFileRows(t, dir)); n != 1 {
		t.Fatalf("crashed run: %d log rows, want 1", n)
	}
	res = mustTrain(t, spec, Options{Dir: dir, CheckpointEvery: 2})
	if res.ResumedAt != 0 || sameRows(want, res.Log) != "" || !sameStrings(logFileRows(t, dir), rowsOf(want)) {
		t.Errorf("crash before the first checkpoint: resumed at %d, log %q", res.ResumedAt, logFileRows(t, dir))
	}

	// A stale checkpoint: the one of iteration 2 put back after the run.
	dir = t.TempDir()
	var saved []byte
	mustTrain(t, spec, Options{Dir: dir, CheckpointEvery: 2, Progress: func(s PairStats) {
		if s.Iteration == 3 {
			var err error
			if saved, err = os.ReadFile(filepath.Join(dir, checkpointFile)); err != nil {
				t.Fatal(err)
			}
		}
	}})
	if err := os.WriteFile(filepath.Join(dir, checkpointFile), saved, 0o644); err != nil {
		t.Fatal(err)
	}
	res = mustTrain(t, spec, Options{Dir: dir, CheckpointEvery: 2})
	if res.ResumedAt != 2 || sameRows(want, res.Log) != "" || !sameStrings(logFileRows(t, dir), rowsOf(want)) {
		t.Errorf("stale checkpoint: resumed at %d, %d log rows", res.ResumedAt, len(logFileRows(t, dir)))
	}
	if !sameTeams(ref.Pair, res.Pair) {
		t.Error("stale checkpoint: different parameters")
	}
}

// rowsOf formats a log's rows without the timing columns.
func rowsOf(log []PairStats) []string {
	var rows []string
	for _, s := range log {
		r := s.row()
		rows = append(rows, strings.Join(r[:len(r)-2], ",")) // not seconds, fps
	}
	return rows
}

// TestReadLog reads back the log of a run, timing columns included.
func TestReadLog(t *testing.T) {
	dir := t.TempDir()
	res := mustTrain(t, smallSpec(3), Options{Dir: dir})
	log, err := ReadLog(dir)
	if err != nil {
		t.Fatal(err)
	}
	if d := sameRows(res.Log, log); d != "" {
		t.Errorf("ReadLog: %s differs", d)
	}
	for k := range log {
		if log[k].Seconds != res.Log[k].Seconds || log[k].FPS != res.Log[k].FPS {
			t.Errorf("row %d: timing %v, %v, want %v, %v", k, log[k].Seconds, log[k].FPS, res.Log[k].Seconds, res.Log[k].FPS)
		}
	}
	if _, err := ReadLog(t.TempDir()); err == nil {
		t.Error("ReadLog of an empty directory: no error")
	}
	// A last line cut short is dropped, whether or not what is left parses.
	path := filepath.Join(dir, logFile)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lastRow := strings.LastIndex(strings.TrimSuffix(string(data), "\n"), "\n") + 1
	for _, cut := range []int{len(data) - 1, len(data) - 3, lastRow + 3} {
		if err := os.WriteFile(path, data[:cut], 0o644); err != nil {
			t.Fatal(err)
		}
		log, err := ReadLog(dir)
		if err != nil || len(log) != 2 || sameRows(res.Log[:2], log) != "" {
			t.Errorf("log cut at byte %d of %d: %d rows, %v; want the first 2", cut, len(data), len(log), err)
		}
	}
}

// TestReadLogValues checks that ReadLog accepts the missing values a run
// writes (NaN evaluations and diversities at iterations without an
// evaluation, NaN diversities and updates in older logs, the frames per
// second of an iteration timed at 0 seconds) and refuses, naming the line
// and the column, values no run writes.
func TestReadLogValues(t *testing.T) {
	header := strings.Join(pairHeader, ",") + "\n"
	older := strings.Join(olderHeader(pairHeader, 1), ",") + "\n"  // before the updates
	oldest := strings.Join(olderHeader(pairHeader, 2), ",") + "\n" // before the diversities too
	first := withUpdates("1,100,0.5,0.25,0.25,0.5,0.25,0.25,0.5,0,0.1,2000\n")
	read := func(data string) error {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, logFile), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := ReadLog(dir)
		return err
	}
	for _, good := range []string{
		header + first + withUpdates("2,200,0.5,0.25,0.25,NaN,NaN,NaN,NaN,NaN,0.1,2000\n"),
		header + first + withUpdates("2,200,-0.5,-0.25,-0.25,-0.5,-0.25,-0.25,NaN,NaN,0.1,2000\n"),
		header + first + withUpdates("2,200,0.5,0.25,0.25,NaN,NaN,NaN,NaN,NaN,0,+Inf\n"),
		header + first + withUpdates("2,200,0.5,0.25,0.25,NaN,NaN,NaN,NaN,NaN,0,NaN\n"),
		header + first + "2,200,0.5,0.25,0.25,NaN,NaN,NaN,NaN,NaN,-3.5,-2.5,-0.001,0,0,1,0,0,0.1,2000\n",
		header + first + "2,200,0.5,0.25,0.25,NaN,NaN,NaN,NaN,NaN,NaN,NaN,NaN,NaN,NaN,NaN,NaN,NaN,0.1,2000\n",
		older + "1,100,0.5,0.25,0.25,0.5,0.25,0.25,0.5,0,0.1,2000\n2,200,0.5,0.25,0.25,NaN,NaN,NaN,NaN,NaN,0.1,2000\n",
		oldest + "1,100,0.5,0.25,0.25,0.5,0.25,0.25,0.1,2000\n2,200,0.5,0.25,0.25,NaN,NaN,NaN,0.1,2000\n",
	} {
		if err := read(good); err != nil {
			t.Errorf("%q: %v", good, err)
		}
	}
	for _, c := range []struct{ row, column string }{
		{"2,200,+Inf,0.25,0.25,NaN,NaN,NaN,NaN,NaN,0.1,2000", "het_return"},
		{"2,200,NaN,0.25,0.25,NaN,NaN,NaN,NaN,NaN,0.1,2000", "het_return"},
		{"2,200,0.5,-Inf,0.25,NaN,NaN,NaN,NaN,NaN,0.1,2000", "hom_return"},
		{"2,200,0.5,0.25,nan,NaN,NaN,NaN,NaN,NaN,0.1,2000", "gain"},
		{"2,200,0.5,0.25,0.25,infinity,0.25,0.25,NaN,NaN,0.1,2000", "het_eval"},
		{"2,200,0.5,0.25,0.25,0.5,NaN,0.25,NaN,NaN,0.1,2000", "hom_eval"},
		{"2,200,0.5,0.25,0.25,NaN,NaN,0.25,NaN,NaN,0.1,2000", "eval_gain"},
		{"2,200,0.5,0.25,0.25,NaN,NaN,NaN,0.5,NaN,0.1,2000", "het_diversity"},
		{"2,200,0.5,0.25,0.25,0.5,0.25,0.25,0.5,-0.5,0.1,2000", "hom_diversity"},
		{"2,200,0.5,0.25,0.25,0.5,0.25,0.25,Inf,0,0.1,2000", "het_diversity"},
		{"2,-5,0.5,0.25,0.25,NaN,NaN,NaN,NaN,NaN,0.1,2000", "frames"},
		{"2,200,0.5,0.25,0.25,NaN,NaN,NaN,NaN,NaN,-1,2000", "seconds"},
		{"2,200,0.5,0.25,0.25,NaN,NaN,NaN,NaN,NaN,+Inf,0", "seconds"},
		{"2,200,0.5,0.25,0.25,NaN,NaN,NaN,NaN,NaN,0.1,-2000", "fps"},
		{"2,200,0.5,0.25,0.25,NaN,NaN,NaN,NaN,NaN,0.1,+Inf", "fps"},
		{"2,200,0.5,0.25,0.25,NaN,NaN,NaN,NaN,NaN,0.1,NaN", "fps"},
		{"2,200,0.5,0.25,0.25,NaN,NaN,NaN,NaN,NaN,0.1,x", "fps"},
		{"2,200,0.5,0.25,0.25,NaN,NaN,NaN,NaN,NaN,Inf,1,0,0,0,0,0,0,0.1,2000", "het_entropy"},
		{"2,200,0.5,0.25,0.25,NaN,NaN,NaN,NaN,NaN,1,x,0,0,0,0,0,0,0.1,2000", "hom_entropy"},
		{"2,200,0.5,0.25,0.25,NaN,NaN,NaN,NaN,NaN,NaN,1,0.1,0,0,0,0,0,0.1,2000", "het_approx_kl"},
		{"2,200,0.5,0.25,0.25,NaN,NaN,NaN,NaN,NaN,1,1,0,NaN,0,0,0,0,0.1,2000", "hom_approx_kl"},
		{"2,200,0.5,0.25,0.25,NaN,NaN,NaN,NaN,NaN,1,1,0,0,1.5,0,0,0,0.1,2000", "het_clip_fraction"},
		{"2,200,0.5,0.25,0.25,NaN,NaN,NaN,NaN,NaN,1,1,0,0,0,-0.1,0,0,0.1,2000", "hom_clip_fraction"},
		{"2,200,0.5,0.25,0.25,NaN,NaN,NaN,NaN,NaN,1,1,0,0,0,0,-1,0,0.1,2000", "het_value_loss"},
		{"2,200,0.5,0.25,0.25,NaN,NaN,NaN,NaN,NaN,1,1,0,0,0,0,0,-Inf,0.1,2000", "hom_value_loss"},
	} {
		err := read(header + first + withUpdates(c.row) + "\n")
		if !errors.Is(err, ErrCheckpoint) || !strings.Contains(err.Error(), "line 3: column "+c.column+" is ") {
			t.Errorf("%s: %v, want ErrCheckpoint naming line 3 and column %s", c.row, err, c.column)
		}
	}
}

// TestTrainCheckpointErrors refuses runs whose settings differ from the
// checkpoint's, naming the setting, and damaged run directories.
func TestTrainCheckpointErrors(t *testing.T) {
	spec := smallSpec(2)
	dir := t.TempDir()
	mustTrain(t, spec, Options{Dir: dir})
	before := logFileRows(t, dir)
	for _, c := range []struct {
		set  func(*RunSpec)
		name string
	}{
		{func(s *RunSpec) { s.Team.Clip = 0.3 }, "Team.Clip"},
		{func(s *RunSpec) { s.Team.Critic = PerAgent }, "Team.Critic"},
		{func(s *RunSpec) { s.Team.Seed = 99 }, "Team.Seed"},
		{func(s *RunSpec) { s.Team.Hidden = []int{8, 9} }, "Team.Hidden"},
		{func(s *RunSpec) { s.Env.U = "mean" }, "Env.U"},
		{func(s *RunSpec) { s.EvalEpisodes = 5 }, "EvalEpisodes"},
	} {
		other := spec
		other.Team.Hidden = append([]int(nil), spec.Team.Hidden...)
		c.set(&other)
		_, err := Train(other, Options{Dir: dir})
		if !errors.Is(err, ErrCheckpoint) || !strings.Contains(err.Error(), c.name) {
			t.Errorf("%s changed: %v, want ErrCheckpoint naming it", c.name, err)
		}
	}
	if !sameStrings(before, logFileRows(t, dir)) {
		t.Error("a refused run changed the log")
	}
	// Unreadable checkpoint, short log, wrong header.
	for _, c := range []struct {
		name    string
		corrupt func(dir string)
	}{
		{"corrupt checkpoint", func(dir string) { os.WriteFile(filepath.Join(dir, checkpointFile), []byte("junk"), 0o644) }},
		{"short log", func(dir string) {
			os.WriteFile(filepath.Join(dir, logFile), []byte(strings.Join(pairHeader, ",")+"\n"), 0o644)
		}},
		{"missing log", func(dir string) { os.Remove(filepath.Join(dir, logFile)) }},
		{"other header", func(dir string) {
			data, _ := os.ReadFile(filepath.Join(dir, logFile))
			os.WriteFile(filepath.Join(dir, logFile), []byte("x"+string(data)), 0o644)
		}},
		{"bad row", func(dir string) {
			os.WriteFile(filepath.Join(dir, logFile), []byte(strings.Join(pairHeader, ",")+"\n1,2,3\n4,5\n"), 0o644)
		}},
		{"rows out of order", func(dir string) {
			data, _ := os.ReadFile(filepath.Join(dir, logFile))
			lines := strings.Split(string(data), "\n") // header, row 1, row 2, ""
			lines[1], lines[2] = lines[2], lines[1]
			os.WriteFile(filepath.Join(dir, logFile), []byte(strings.Join(lines, "\n")), 0o644)
		}},
		{"negative iteration", rewriteCheckpoint(t, func(ck *checkpoint) { ck.Iteration = -1 })},
		{"teams behind the log", rewriteCheckpoint(t, func(ck *checkpoint) { ck.Teams[1].Iter-- })},
		{"negative frames", rewriteCheckpoint(t, func(ck *checkpoint) { ck.Teams[0].Frames = -5 })},
		{"other version", rewriteCheckpoint(t, func(ck *checkpoint) { ck.Version = 2 })},
		{"NaN weight", rewriteCheckpoint(t, func(ck *checkpoint) { ck.Teams[0].Actor[3] = math.NaN() })},
		{"infinite Adam mean", rewriteCheckpoint(t, func(ck *checkpoint) { ck.Teams[1].CriticM[0] = math.Inf(-1) })},
		{"negative Adam variance", rewriteCheckpoint(t, func(ck *checkpoint) { ck.Teams[1].ActorV[1] = -1e-9 })},
		{"negative Adam step", rewriteCheckpoint(t, func(ck *checkpoint) { ck.Teams[0].CriticStep = -1 })},
	} {
		d := t.TempDir()
		mustTrain(t, spec, Options{Dir: d})
		c.corrupt(d)
		before := dirFiles(t, d)
		longer := spec // an extension, which would rewrite spec.json
		longer.Iterations++
		if _, err := Train(longer, Options{Dir: d}); !errors.Is(err, ErrCheckpoint) {
			t.Errorf("%s: %v, want ErrCheckpoint", c.name, err)
		}
		// A refused resume leaves the directory as it found it.
		if after := dirFiles(t, d); !reflect.DeepEqual(before, after) {
			t.Errorf("%s: the refused resume changed the directory", c.name)
		}
	}
	// A finished run kept without its checkpoint is refused, not
	// retrained over its log.
	d := t.TempDir()
	mustTrain(t, spec, Options{Dir: d})
	kept := logFileRows(t, d)
	os.Remove(filepath.Join(d, checkpointFile))
	_, err := Train(spec, Options{Dir: d})
	if !errors.Is(err, ErrCheckpoint) || !strings.Contains(err.Error(), "2 logged iterations") {
		t.Errorf("log without checkpoint: %v, want ErrCheckpoint naming 2 logged iterations", err)
	}
	if !sameStrings(kept, logFileRows(t, d)) {
		t.Error("a log without checkpoint was rewritten")
	}
	if _, err := os.Stat(filepath.Join(d, checkpointFile)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a refused run wrote a checkpoint: %v", err)
	}
}

// TestTrainCheckpointsFirst checks that a run keeps a checkpoint before
// its first iteration, so that a log without one is never a run's own.
func TestTrainCheckpointsFirst(t *testing.T) {
	dir := t.TempDir()
	_, err := Train(smallSpec(4), Options{Dir: dir, CheckpointEvery: 10, Progress: func(s PairStats) {
		if _, err := os.Stat(filepath.Join(dir, checkpointFile)); err != nil {
			t.Errorf("iteration %d: no checkpoint yet: %v", s.Iteration, err)
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
}

// TestTrainExtend continues a finished run with more iterations: the
// result equals a run of the longer length from the start.
func TestTrainExtend(t *testing.T) {
	dir := t.TempDir()
	short := mustTrain(t, smallSpec(4), Options{Dir: dir})
	long := mustTrain(t, smallSpec(6), Options{Dir: dir})
	if long.ResumedAt != 4 || len(long.Log) != 6 {
		t.Fatalf("extended run resumed at %d with %d rows", long.ResumedAt, len(long.Log))
	}
	if d := sameRows(short.Log, long.Log[:4]); d != "" {
		t.Errorf("extended run rewrote its first rows: %s", d)
	}
	fresh := mustTrain(t, smallSpec(6), Options{})
	if d := sameRows(fresh.Log, long.Log); d != "" || !sameTeams(fresh.Pair, long.Pair) {
		t.Errorf("extended run differs from a fresh run: %s", d)
	}
	if got := len(logFileRows(t, dir)); got != 6 {
		t.Errorf("%d log rows", got)
	}
	// Fewer iterations than the directory holds: the run as it is, and
	// its spec.json still describes it.
	shorter := mustTrain(t, smallSpec(3), Options{Dir: dir})
	if len(shorter.Log) != 6 || shorter.Pair.Het().Iteration() != 6 || sameRows(long.Log, shorter.Log) != "" {
		t.Errorf("Iterations 3 on a 6-iteration directory: %d rows, teams at %d", len(shorter.Log), shorter.Pair.Het().Iteration())
	}
	if rs, err := ReadRunSpec(dir); err != nil || rs.Iterations != 6 {
		t.Errorf("spec.json after Iterations 3: %+v, %v; want Iterations 6", rs.Iterations, err)
	}
	// Iterations 0: nothing to do.
	if r := mustTrain(t, smallSpec(0), Options{}); len(r.Log) != 0 || r.Pair.Het().Iteration() != 0 {
		t.Errorf("0 iterations: %d rows", len(r.Log))
	}
}

// ---------------------------------------------------------------------
// Learning sanity on the matrix game, against the closed-form gains.

// learnSeeds are the seeds of the learning runs; LEARN_SEEDS=1,2,...
// overrides them.
func learnSeeds() []int64 {
	seeds := []int64{1, 2, 3}
	if s := os.Getenv("LEARN_SEEDS"); s != "" {
		seeds = nil
		for _, f := range strings.Split(s, ",") {
			if v, err := strconv.ParseInt(f, 10, 64); err == nil {
				seeds = append(seeds, v)
			}
		}
	}
	return seeds
}

// learnSpec is the paired run of the learning tests on the matrix game
// N = M = 2 with U = min and inner operator tt. Every setting that
// matters is explicit, so that tuning the defaults does not change it.
func learnSpec(discrete bool, tt string, lr float64, iterations int, seed int64) RunSpec {
	return RunSpec{
		Env: EnvSpec{Name: "matrix", Agents: 2, Tasks: 2, Discrete: discrete, U: "min", T: tt},
		Team: Config{Hidden: []int{32, 32}, Envs: 64, Workers: 1, FramesPerIter: 800, Epochs: 4, Minibatch: 200,
			LR: lr, CriticLR: lr, Gamma: 0.9, Lambda: 0.9, Clip: 0.2, EntropyCoef: -1, MaxGradNorm: 1, Seed: seed},
		Iterations: iterations, EvalEvery: 5, EvalEpisodes: 32,
	}
}

// TestLearnMatrixContinuous: on the continuous matrix game N = M = 2 with
// U = min and T = max, specialists reach R_het = 1 and a shared policy at
// best R_hom = 0.5 (closed-form gain 0.5). The untrained policies both
// play the uniform allocation (gain 0); after 20 iterations the paired
// run's deterministic gain exceeds 0.4, and neither team beats its
// closed-form optimum.
func TestLearnMatrixContinuous(t *testing.T) {
	if testing.Short() {
		t.Skip("learning run")
	}
	g, err := gain.ClosedForm(aggregators.Min{}, aggregators.Max{}, 2, 2, gain.Continuous)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(g.Delta-0.5) > 1e-12 {
		t.Fatalf("closed-form gain %v, want 0.5", g.Delta)
	}
	for _, seed := range learnSeeds() {
		spec := learnSpec(false, "max", 0.005, 20, seed)
		res := mustTrain(t, spec, Options{})
		f := res.Final()
		t.Logf("seed %d: het %.3f hom %.3f gain %.3f after %d iterations", seed, f.HetEval, f.HomEval, f.EvalGain, f.Iteration)
		if f.Iteration != spec.Iterations || !(f.EvalGain > 0.4) {
			t.Errorf("seed %d: gain %v after %d iterations, want > 0.4", seed, f.EvalGain, f.Iteration)
		}
		if f.HetEval > g.Het+1e-9 || f.HomEval > g.Hom+1e-9 {
			t.Errorf("seed %d: returns %v, %v beyond the optima %v, %v", seed, f.HetEval, f.HomEval, g.Het, g.Hom)
		}
	}
}

// TestLearnMatrixDiscrete: on the discrete matrix game N = M = 2 with
// U = min and T = mean, specialists on distinct tasks get 0.5 and a
// deterministic shared policy 0 (closed-form gain 0.5). The deterministic
// gain after 12 iterations is 0.5 ± 0.05. Untrained, both teams pick
// uniformly at random (training return 0.25, also the best a stochastic
// shared policy can do); trained, the heterogeneous team's training
// return exceeds 0.45.
func TestLearnMatrixDiscrete(t *testing.T) {
	if testing.Short() {
		t.Skip("learning run")
	}
	g, err := gain.ClosedForm(aggregators.Min{}, aggregators.Mean{}, 2, 2, gain.Discrete)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(g.Delta-0.5) > 1e-12 {
		t.Fatalf("closed-form gain %v, want 0.5", g.Delta)
	}
	for _, seed := range learnSeeds() {
		spec := learnSpec(true, "mean", 0.003, 12, seed)
		res := mustTrain(t, spec, Options{})
		f, first, last := res.Final(), res.Log[0], res.Log[len(res.Log)-1]
		t.Logf("seed %d: het %.3f hom %.3f gain %.3f after %d iterations; training returns %.3f, %.3f (first iteration %.3f, %.3f)",
			seed, f.HetEval, f.HomEval, f.EvalGain, f.Iteration, last.HetReturn, last.HomReturn, first.HetReturn, first.HomReturn)
		if f.Iteration != spec.Iterations || math.Abs(f.EvalGain-g.Delta) > 0.05 {
			t.Errorf("seed %d: gain %v after %d iterations, want %v ± 0.05", seed, f.EvalGain, f.Iteration, g.Delta)
		}
		if !(first.HetReturn < 0.35) || !(last.HetReturn > 0.45) || !(last.HomReturn < 0.3) {
			t.Errorf("seed %d: training returns from %v, %v to %v, %v", seed, first.HetReturn, first.HomReturn, last.HetReturn, last.HomReturn)
		}
	}
}

// TestLoadPair checks that LoadPair restores the teams a run left in its
// directory, finished or stopped, and plays them as the trained ones do;
// and that it refuses directories without a paired run's checkpoint.
func TestLoadPair(t *testing.T) {
	spec := smallSpec(6)
	dir := t.TempDir()
	res := mustTrain(t, spec, Options{Dir: dir})
	loaded, err := LoadPair(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !sameTeams(res.Pair, loaded) || loaded.Het().Iteration() != 6 {
		t.Errorf("loaded teams differ from the trained ones (iteration %d)", loaded.Het().Iteration())
	}
	h1, m1, err1 := res.Pair.Evaluate(99)
	h2, m2, err2 := loaded.Evaluate(99)
	if err1 != nil || err2 != nil || h1 != h2 || m1 != m2 {
		t.Errorf("evaluation: trained %v %v (%v), loaded %v %v (%v)", h1, m1, err1, h2, m2, err2)
	}

	stopped := t.TempDir()
	done := 0
	if _, err := Train(spec, Options{Dir: stopped, CheckpointEvery: 100,
		Progress: func(PairStats) { done++ }, Stop: func() bool { return done >= 4 }}); !errors.Is(err, ErrStopped) {
		t.Fatalf("stopped run: %v", err)
	}
	if p, err := LoadPair(stopped); err != nil || p.Het().Iteration() != 4 || p.Hom().Iteration() != 4 {
		t.Errorf("stopped run: %v, want its teams at iteration 4", err)
	}

	if _, err := LoadPair(t.TempDir()); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("empty directory: %v, want fs.ErrNotExist", err)
	}
	hg := t.TempDir()
	if _, err := HetGPS(hetgpsMatrix(1, 2), Options{Dir: hg}); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadPair(hg); !errors.Is(err, ErrCheckpoint) || !strings.Contains(err.Error(), "not the checkpoint of a paired run") {
		t.Errorf("HetGPS directory: %v, want ErrCheckpoint", err)
	}
	if err := os.WriteFile(filepath.Join(dir, checkpointFile), []byte("not a gob"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadPair(dir); !errors.Is(err, ErrCheckpoint) {
		t.Errorf("corrupt checkpoint: %v, want ErrCheckpoint", err)
	}
}

// rewriteCheckpoint returns a corruption that decodes the checkpoint of a
// run directory, changes it with edit and writes it back.
func rewriteCheckpoint(t *testing.T, edit func(*checkpoint)) func(dir string) {
	return func(dir string) {
		path := filepath.Join(dir, checkpointFile)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var ck checkpoint
		if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&ck); err != nil {
			t.Fatal(err)
		}
		edit(&ck)
		var buf bytes.Buffer
		if err := gob.NewEncoder(&buf).Encode(&ck); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// dirFiles returns the contents of the files of dir by name.
func dirFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	files := make(map[string]string, len(entries))
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		files[e.Name()] = string(data)
	}
	return files
}

// TestNegativeCheckpointEvery checks that a negative CheckpointEvery is
// refused by Train and HetGPS before anything is written.
func TestNegativeCheckpointEvery(t *testing.T) {
	dir := t.TempDir()
	if _, err := Train(smallSpec(2), Options{Dir: dir, CheckpointEvery: -1}); !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), "CheckpointEvery -1") {
		t.Errorf("Train: %v, want ErrConfig naming CheckpointEvery", err)
	}
	if _, err := HetGPS(hetgpsMatrix(1, 2), Options{Dir: dir, CheckpointEvery: -3}); !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), "CheckpointEvery -3") {
		t.Errorf("HetGPS: %v, want ErrConfig naming CheckpointEvery", err)
	}
	if files := dirFiles(t, dir); len(files) != 0 {
		t.Errorf("refused runs wrote %d files", len(files))
	}
}

// withUpdates inserts the teams' update columns into a row of a log
// written before them (a paired run's 12 fields, or a HetGPS run's 16
// with one parameter; a trailing newline kept): NaN if its het_return is NaN (no training),
// else values a run can write. Rows of other lengths are returned as they
// are.
func withUpdates(row string) string {
	line := strings.TrimSuffix(row, "\n")
	f := strings.Split(line, ",")
	if len(f) != 12 && len(f) != 16 { // a paired row, or a HetGPS row with one parameter
		return row
	}
	upd := []string{"1.5", "1.25", "0.01", "-0.002", "0.1", "0.2", "0.5", "0.25"}
	if f[2] == "NaN" {
		upd = strings.Split(strings.Repeat("NaN,", len(upd)-1)+"NaN", ",")
	}
	f = append(append(f[:updateAt:updateAt], upd...), f[updateAt:]...)
	return strings.Join(f, ",") + row[len(line):]
}

// TestPairUpdateStats checks the teams' UpdateStats in a paired run's log
// against what PPO must give: with one epoch of one minibatch, the
// statistics are those of the policy that collected the data, so the
// first iteration's entropy is that of the initial Gaussians (each of the
// action's coordinates 0.5·ln(2πe) + InitLogStd), the approximate KL
// divergence and the clip fraction are 0; later iterations, after
// updates, differ.
func TestPairUpdateStats(t *testing.T) {
	spec := smallSpec(3)
	spec.Team.Epochs, spec.Team.Minibatch, spec.Team.InitLogStd = 1, 1000, -0.5
	res := mustTrain(t, spec, Options{})
	want := 2 * (0.5*math.Log(2*math.Pi*math.E) - 0.5) // 2 action coordinates
	for k, u := range []UpdateStats{res.Log[0].HetUpdate, res.Log[0].HomUpdate} {
		if math.Abs(u.Entropy-want) > 1e-12 || math.Abs(u.ApproxKL) > 1e-12 || u.ClipFraction != 0 || !(u.ValueLoss > 0) {
			t.Errorf("team %d, iteration 1: %+v, want entropy %v, KL 0, clip fraction 0, a value loss > 0", k, u, want)
		}
	}
	for it, r := range res.Log[1:] {
		for k, u := range []UpdateStats{r.HetUpdate, r.HomUpdate} {
			if u.Entropy == want || math.IsNaN(u.Entropy) || u.ClipFraction < 0 || u.ClipFraction > 1 || !(u.ValueLoss >= 0) {
				t.Errorf("team %d, iteration %d: %+v, want the entropy of updated policies", k, it+2, u)
			}
		}
	}
}
