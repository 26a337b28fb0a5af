package reproduce

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/hetgain/hetgain/learn"
)

// TestWithPairs checks the parsing of a list of pairs: operators that
// contain '-', the order kept, the empty list, and the errors naming a
// bad pair.
func TestWithPairs(t *testing.T) {
	e := tiny(1)
	e.Ops = []string{"softmax(-5)", "softmax(5)", "min"}
	got, err := e.WithPairs("softmax(5)-softmax(-5), min-softmax(-5)")
	if err != nil {
		t.Fatal(err)
	}
	want := [][2]string{{"softmax(5)", "softmax(-5)"}, {"min", "softmax(-5)"}}
	if !reflect.DeepEqual(got.Pairs, want) {
		t.Errorf("pairs %q, want %q", got.Pairs, want)
	}
	if n := got.Runs(); n != 2*2 { // 2 variants x 2 pairs x 1 seed
		t.Errorf("Runs %d, want 4", n)
	}
	// The runs follow Ops' order, whatever the list's.
	var names []string
	for _, c := range got.withDefaults().cells("") {
		if c.variant == "continuous" {
			names = append(names, c.u+"-"+c.t)
		}
	}
	if w := []string{"softmax(5)-softmax(-5)", "min-softmax(-5)"}; !reflect.DeepEqual(names, w) {
		t.Errorf("cells %q, want %q", names, w)
	}
	if all, err := got.WithPairs(" "); err != nil || all.Pairs != nil || all.Runs() != 2*9 {
		t.Errorf("empty list: pairs %q, %d runs, err %v; want all 18", all.Pairs, all.Runs(), err)
	}
	for _, c := range []struct{ list, msg string }{
		{"min-max", `pair "min-max"`},
		{"min", `pair "min"`},
		{"min-min,min-min", `"min-min" given twice`},
		{"min-min,", `pair ""`},
	} {
		_, err := e.WithPairs(c.list)
		if !errors.Is(err, learn.ErrConfig) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%q: %v, want ErrConfig naming %s", c.list, err, c.msg)
		}
	}
	// Pairs set directly are checked by Run.
	bad := tiny(1)
	bad.Pairs = [][2]string{{"min", "mean"}}
	if _, err := Run(bad, Options{Dir: t.TempDir()}); !errors.Is(err, learn.ErrConfig) || !strings.Contains(err.Error(), `pair ("min", "mean")`) {
		t.Errorf("pair outside Ops: %v", err)
	}
}

// TestPairsAddSeeds adds a seed to one pair of a finished reproduction, as
// "-seeds 2 -pairs min-max" does: only that pair's runs train, and they
// are those of the full reproduction with two seeds; Load with two seeds
// and all pairs then tabulates that pair with two seeds and the others
// with one.
func TestPairsAddSeeds(t *testing.T) {
	ref, _ := referenceRun(t) // tiny(2), all pairs
	dir := t.TempDir()
	if _, err := Run(tiny(1), Options{Dir: dir}); err != nil {
		t.Fatal(err)
	}
	more, err := tiny(2).WithPairs("min-max")
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(more, Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Cells) != 4 { // 2 variants x 1 pair x 2 seeds
		t.Fatalf("%d cells, want 4", len(res.Cells))
	}
	for _, c := range res.Cells {
		if c.U != "min" || c.T != "max" {
			t.Errorf("cell %s outside the pair", c.Name())
		}
		if w := findCell(ref, c.Name()); w == nil || !sameNumbers(c.Log, w.Log) {
			t.Errorf("cell %s: not the full reproduction's", c.Name())
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "continuous", "min-min", "seed2")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("seed 2 of min-min: %v, want no directory", err)
	}
	all, err := Load(tiny(2), dir)
	if err != nil {
		t.Fatal(err)
	}
	df := all.Table()
	seeds := df.Col("Seeds").Records()
	for i := 0; i < df.Nrow(); i++ {
		want := "1"
		if df.Col("U").Elem(i).String() == "min" && df.Col("T").Elem(i).String() == "max" {
			want = "2"
		}
		if seeds[i] != want {
			t.Errorf("%s: %s seeds, want %s", cellName(df, i), seeds[i], want)
		}
	}
	if df.Nrow() != 8 {
		t.Errorf("%d rows, want 8", df.Nrow())
	}
}

func findCell(r *Results, name string) *Cell {
	for i := range r.Cells {
		if r.Cells[i].Name() == name {
			return &r.Cells[i]
		}
	}
	return nil
}

// sameNumbers reports whether two runs' logs have the same frames, returns
// and evaluations at every row (NaN equal to NaN; wall times ignored).
func sameNumbers(a, b []learn.PairStats) bool {
	if len(a) != len(b) {
		return false
	}
	same := func(x, y float64) bool { return x == y || math.IsNaN(x) && math.IsNaN(y) }
	for i := range a {
		x, y := a[i], b[i]
		if x.Frames != y.Frames || !same(x.HetReturn, y.HetReturn) || !same(x.HomReturn, y.HomReturn) ||
			!same(x.HetEval, y.HetEval) || !same(x.HomEval, y.HomEval) {
			return false
		}
	}
	return true
}

// TestRunWithoutCheckpoints extends a reproduction whose finished runs
// were kept without their checkpoints (as testdata keeps them): Run reads
// them back, logs and kept task evaluations as they were, trains only the
// new seeds (number for number those of a full run), and refuses an
// unfinished run whose checkpoint is gone instead of overwriting its log.
func TestRunWithoutCheckpoints(t *testing.T) {
	one, two := tinyTag(16), tinyTag(16)
	two.Seeds = 2
	full, err := Run(two, Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	first, err := Run(one, Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	logs := map[string][]byte{}
	for _, c := range first.Cells {
		d := filepath.Join(dir, filepath.FromSlash(c.Name()))
		if err := os.Remove(filepath.Join(d, "checkpoint.gob")); err != nil {
			t.Fatal(err)
		}
		if logs[c.Name()], err = os.ReadFile(filepath.Join(d, "log.csv")); err != nil {
			t.Fatal(err)
		}
	}
	var progress []Progress
	res, err := Run(two, Options{Dir: dir, Progress: func(p Progress) { progress = append(progress, p) }})
	if err != nil {
		t.Fatalf("Run over runs without checkpoints: %v", err)
	}
	// The runs on disk are reported first, before any training, so that
	// the time left counts only the runs to train: what is there
	// (OnDisk), then each read back; they count as done from the first
	// report.
	n := len(first.Cells)
	for k, p := range progress[:2*n] {
		onDisk := k < n
		if p.OnDisk != onDisk || p.Done != n || p.FPS != 0 || !strings.HasSuffix(p.Cell, "seed1") {
			t.Errorf("progress %d: %+v, want seed 1 on disk (OnDisk %v, Done %d)", k, p, onDisk, n)
		}
	}
	if tableCSV(t, res) != tableCSV(t, full) {
		t.Errorf("extended table:\n%s\nwant the full run's:\n%s", tableCSV(t, res), tableCSV(t, full))
	}
	for _, c := range res.Cells {
		w := findCell(full, c.Name())
		if w == nil || !sameNumbers(c.Log, w.Log) || c.TaskHet != w.TaskHet || c.TaskHom != w.TaskHom {
			t.Errorf("cell %s: not the full run's", c.Name())
		}
	}
	for name, want := range logs {
		d := filepath.Join(dir, filepath.FromSlash(name))
		if got, _ := os.ReadFile(filepath.Join(d, "log.csv")); !bytes.Equal(got, want) {
			t.Errorf("%s: log rewritten", name)
		}
		if _, err := os.Stat(filepath.Join(d, "checkpoint.gob")); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s: a read-back run got a checkpoint: %v", name, err)
		}
	}

	// An unfinished run without its checkpoint: an error, the log kept.
	d := filepath.Join(dir, filepath.FromSlash(first.Cells[0].Name()))
	short := bytes.SplitAfterN(logs[first.Cells[0].Name()], []byte("\n"), 3) // header and one row
	cut := append(append([]byte(nil), short[0]...), short[1]...)
	if err := os.WriteFile(filepath.Join(d, "log.csv"), cut, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(one, Options{Dir: dir}); !errors.Is(err, learn.ErrCheckpoint) {
		t.Errorf("unfinished run without checkpoint: %v, want ErrCheckpoint", err)
	}
	if got, _ := os.ReadFile(filepath.Join(d, "log.csv")); !bytes.Equal(got, cut) {
		t.Error("the log of a refused run was rewritten")
	}
}

// TestFirstSeed trains seed 2 alone, as "-seeds 2 -first-seed 2" does:
// no seed 1 runs, seed 2's numbers are those of the full reproduction,
// the summary names the seed, and after seed 1 is trained beside it Load
// with all seeds tabulates the full reproduction's table.
func TestFirstSeed(t *testing.T) {
	ref, _ := referenceRun(t) // tiny(2)
	dir := t.TempDir()
	second := tiny(2)
	second.FirstSeed = 2
	if n := second.Runs(); n != 8 { // 2 variants x 4 pairs x 1 seed
		t.Errorf("Runs %d, want 8", n)
	}
	res, err := Run(second, Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Cells) != 8 {
		t.Fatalf("%d cells, want 8", len(res.Cells))
	}
	for _, c := range res.Cells {
		if c.Seed != 2 {
			t.Errorf("cell %s: seed %d, want 2", c.Name(), c.Seed)
		}
		if w := findCell(ref, c.Name()); w == nil || !sameNumbers(c.Log, w.Log) {
			t.Errorf("cell %s: not the full reproduction's", c.Name())
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "continuous", "min-min", "seed1")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("seed 1: %v, want no directory", err)
	}
	if s := res.Summary(); !strings.Contains(s, "x seed 2 = 8 runs, 8 finished") {
		t.Errorf("summary does not name seed 2:\n%s", s)
	}
	if _, err := Run(tiny(1), Options{Dir: dir}); err != nil {
		t.Fatal(err)
	}
	all, err := Load(tiny(2), dir)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := tableCSV(t, all), tableCSV(t, ref); got != want {
		t.Errorf("table of seeds trained apart:\n%s\nwant\n%s", got, want)
	}
	for _, first := range []int{-1, 3} {
		bad := tiny(2)
		bad.FirstSeed = first
		if _, err := Run(bad, Options{Dir: t.TempDir()}); !errors.Is(err, learn.ErrConfig) || !strings.Contains(err.Error(), "FirstSeed") {
			t.Errorf("FirstSeed %d: %v, want ErrConfig naming FirstSeed", first, err)
		}
	}
}

// TestTagLarge30M checks that tag-large-30m's runs are TagLarge's (mean,
// max) runs at 1,875 iterations, seed by seed, so that either command
// trains or reads back the other's.
func TestTagLarge30M(t *testing.T) {
	e := TagLarge30M()
	if err := e.check(); err != nil {
		t.Fatal(err)
	}
	long, err := TagLarge().WithIterations(1875).WithPairs("mean-max")
	if err != nil {
		t.Fatal(err)
	}
	long.Seeds = 9
	got, want := e.cells("d"), long.cells("d")
	if len(got) != 9 || len(want) != 9 {
		t.Fatalf("%d and %d cells, want 9", len(got), len(want))
	}
	for k := range got {
		if got[k].name != want[k].name || !reflect.DeepEqual(got[k].spec, want[k].spec) {
			t.Errorf("cell %d: %s %+v, want %s %+v", k, got[k].name, got[k].spec, want[k].name, want[k].spec)
		}
	}
	if frames := got[0].spec.Iterations * got[0].spec.Team.FramesPerIter; frames != 30000000 {
		t.Errorf("%d frames per team and run, want the paper's 30M", frames)
	}
}

// TestPercent checks the budget's percentages in the summary: two
// significant digits, and no exponent at 100% and above.
func TestPercent(t *testing.T) {
	for p, want := range map[float64]string{16: "16", 0.0032: "0.0032", 100: "100", 250.4: "250", 5.333: "5.3", 99.6: "100"} {
		if got := percent(p); got != want {
			t.Errorf("percent(%v) = %q, want %q", p, got, want)
		}
	}
}
