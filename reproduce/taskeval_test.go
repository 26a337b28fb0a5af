package reproduce

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hetgain/hetgain/learn"
)

// tinyTag is a quick Tag experiment with a TaskEval that removes the
// shaping and the collision penalty.
func tinyTag(episodes int) Experiment {
	e := TagLarge()
	e.Variants = []Variant{{Label: "2v2", Env: learn.EnvSpec{Name: "tag", Agents: 2, Tasks: 2, EpisodeLength: 10}}}
	e.Ops = []string{"min", "max"}
	e.Seeds = 1
	e.Iterations = 2
	e.Team = learn.Config{Hidden: []int{8}, Envs: 4, FramesPerIter: 40, Minibatch: 20, Epochs: 1}
	e.EvalEvery, e.EvalEpisodes, e.FinalEvals = 1, 4, 2
	e.TaskEval.Episodes = episodes
	return e
}

// TestTaskEval checks that Run evaluates each finished run's final
// policies with the TaskEval's parameters, as an independent evaluation
// of its checkpoint does; that the result is kept and read back by Run
// and Load; that Load evaluates the checkpoint when nothing is kept, and
// gives NaN without either; and that other settings are evaluated anew.
func TestTaskEval(t *testing.T) {
	e := tinyTag(16)
	dir := t.TempDir()
	res, err := Run(e, Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Cells) != 4 {
		t.Fatalf("%d cells", len(res.Cells))
	}
	c := res.Cells[1] // min-max
	cellDir := filepath.Join(dir, filepath.FromSlash(c.Name()))
	pair, err := learn.LoadPair(cellDir)
	if err != nil {
		t.Fatal(err)
	}
	if err := pair.SetEnvParams(e.TaskEval.Params); err != nil {
		t.Fatal(err)
	}
	seed := pair.Spec().Team.Seed
	het, err1 := pair.Het().Evaluate(16, seed)
	hom, err2 := pair.Hom().Evaluate(16, seed)
	if err1 != nil || err2 != nil || het != c.TaskHet || hom != c.TaskHom {
		t.Errorf("task returns %v, %v; an evaluation of the checkpoint gives %v, %v (%v, %v)", c.TaskHet, c.TaskHom, het, hom, err1, err2)
	}
	// Without shaping and penalty a step's reward is R(A) in {0, 1}: the
	// returns are in [0, 10], where the training returns are below 0.
	for _, c := range res.Cells {
		for _, v := range []float64{c.TaskHet, c.TaskHom} {
			if !(v >= 0 && v <= 10) || v != math.Round(v*16)/16 {
				t.Errorf("%s: task return %v, want a mean of 16 integers in [0, 10]", c.Name(), v)
			}
		}
		if f := c.Final(); !(f.HetEval < 0) {
			t.Errorf("%s: training evaluation return %v, want below 0 (shaping)", c.Name(), f.HetEval)
		}
	}
	df := res.Table()
	if g, r := df.Col("Gain").Elem(1).Float(), df.Col("ReturnGain").Elem(1).Float(); g != c.TaskHet-c.TaskHom || r != c.FinalMean(2).EvalGain {
		t.Errorf("table: Gain %v, ReturnGain %v; want %v, %v", g, r, c.TaskHet-c.TaskHom, c.FinalMean(2).EvalGain)
	}

	// Run and Load read the kept result back; without a directory Run
	// computes the same.
	again, err := Run(e, Options{Dir: dir})
	if err != nil || tableCSV(t, again) != tableCSV(t, res) {
		t.Errorf("second Run: %v, or another table", err)
	}
	if _, err := os.Stat(filepath.Join(cellDir, taskEvalFile)); err != nil {
		t.Fatal(err)
	}
	loaded, err := Load(e, dir)
	if err != nil || tableCSV(t, loaded) != tableCSV(t, res) {
		t.Errorf("Load: %v, or another table", err)
	}
	noDir, err := Run(e, Options{})
	if err != nil || tableCSV(t, noDir) != tableCSV(t, res) {
		t.Errorf("Run without a directory: %v, or another table", err)
	}

	// A kept result is used as it is: tampering with it shows.
	rec, err := readTaskEval(e.TaskEval, e.cells(dir)[1])
	if err != nil {
		t.Fatalf("no kept result: %v", err)
	}
	rec.Het = 1234
	if _, _, err := writeTaskEval(cellDir, rec); err != nil {
		t.Fatal(err)
	}
	if l, err := Load(e, dir); err != nil || l.Cells[1].TaskHet != 1234 {
		t.Errorf("Load did not read the kept result back: %v", err)
	}
	// Other settings: evaluated anew from the checkpoint, nothing kept.
	other := tinyTag(8)
	l8, err := Load(other, dir)
	if err != nil || l8.Cells[1].TaskHet == 1234 || math.IsNaN(l8.Cells[1].TaskHet) {
		t.Errorf("Load with 8 episodes: %v, het %v", err, l8.Cells[1].TaskHet)
	}
	// Without the kept result, from the checkpoint; without both, NaN.
	os.Remove(filepath.Join(cellDir, taskEvalFile))
	if l, err := Load(e, dir); err != nil || l.Cells[1].TaskHet != c.TaskHet {
		t.Errorf("Load from the checkpoint: %v, het %v, want %v", err, l.Cells[1].TaskHet, c.TaskHet)
	}
	if _, err := os.Stat(filepath.Join(cellDir, taskEvalFile)); err == nil {
		t.Error("Load kept a result")
	}
	os.Remove(filepath.Join(cellDir, "checkpoint.gob"))
	l, err := Load(e, dir)
	if err != nil || !math.IsNaN(l.Cells[1].TaskHet) || !math.IsNaN(l.Table().Col("Gain").Elem(1).Float()) {
		t.Errorf("Load without checkpoint: %v, het %v, want NaN", err, l.Cells[1].TaskHet)
	}
	// A kept result of another evaluation, or an unreadable one, and no
	// checkpoint to evaluate again: an error saying why, not NaN.
	if _, _, err := writeTaskEval(cellDir, rec); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(other, dir); !errors.Is(err, learn.ErrOtherSettings) || !strings.Contains(err.Error(), "on 16 episodes, not 8") {
		t.Errorf("Load with 8 episodes, a result on 16 kept, no checkpoint: %v, want ErrOtherSettings naming the episodes", err)
	}
	if err := os.WriteFile(filepath.Join(cellDir, taskEvalFile), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(e, dir); !errors.Is(err, learn.ErrCheckpoint) || errors.Is(err, learn.ErrOtherSettings) || !strings.Contains(err.Error(), taskEvalFile) {
		t.Errorf("Load with an unreadable %s, no checkpoint: %v, want ErrCheckpoint (not ErrOtherSettings) naming it", taskEvalFile, err)
	}
}

// TestTablePositiveThreshold checks Gain, ReturnGain and the clearly
// positive rule of an experiment with a TaskEval and its own threshold,
// on hand-made cells.
func TestTablePositiveThreshold(t *testing.T) {
	cell := func(u, tt string, seed int, taskGain float64) Cell {
		c := synthetic("2v2", u, tt, seed, 0, -3) // training evaluation gains 2.75 and 3
		c.TaskHet, c.TaskHom = 5+taskGain, 5
		return c
	}
	r := &Results{Experiment: TagLarge(), Cells: []Cell{
		cell("min", "mean", 1, 0.9), cell("min", "mean", 2, 1.0), cell("min", "mean", 3, 1.1), // 1 ± 0.058
		cell("min", "max", 1, 0.5), cell("min", "max", 2, 0.6), cell("min", "max", 3, 0.7), // 0.6 ± 0.058
	}}
	df := r.Table()
	for i, w := range []struct {
		gain     float64
		positive bool
	}{{1, true}, {0.6, false}} {
		pos, _ := df.Col("Positive").Elem(i).Bool()
		if g := df.Col("Gain").Elem(i).Float(); math.Abs(g-w.gain) > 1e-12 || pos != w.positive ||
			df.Col("ReturnGain").Elem(i).Float() != 2.875 || math.Abs(df.Col("HetEval").Elem(i).Float()-5-w.gain) > 1e-12 {
			t.Errorf("row %d:\n%v\nwant Gain %v, ReturnGain 2.875, clearly positive %v", i, df.Subset(i), w.gain, w.positive)
		}
	}
	// Under Tag's default threshold of 2 neither is clearly positive.
	r.Experiment.PositiveThreshold = 0
	if pos, _ := r.Table().Col("Positive").Elem(0).Bool(); pos {
		t.Error("gain 1 clearly positive with the threshold 2")
	}
	r.Experiment.PositiveThreshold = 0.5
	s := r.Summary()
	for _, want := range []string{"{shaping=0 penalty=0}", "512 episodes", "> 0.5, the experiment's threshold", "ReturnGain"} {
		if !strings.Contains(s, want) {
			t.Errorf("summary lacks %q:\n%s", want, s)
		}
	}
}
