package main

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-gota/gota/dataframe"

	"github.com/hetgain/hetgain/reproduce"
)

// readGainColumn reads the gains of one cell of a runs.csv (or of a
// gains.csv, cell ""), with gota, by seed.
func readGainColumn(t *testing.T, path, cell, column string) map[int]float64 {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	df := dataframe.ReadCSV(f)
	out := map[int]float64{}
	for i := 0; i < df.Nrow(); i++ {
		if cell != "" && df.Col("Variant").Elem(i).String()+" "+df.Col("U").Elem(i).String()+"-"+df.Col("T").Elem(i).String() != cell {
			continue
		}
		k, _ := df.Col("Seed").Elem(i).Int()
		out[k] = df.Col(column).Elem(i).Float()
	}
	return out
}

// TestCompareStored compares the stored tag-large (4.8M frames) with
// tag-large-30m (the same runs of (mean, max) trained to 30M, the seeds
// stored so far): the only shared cell, its rows against both runs.csv
// files read by gota, and the test against SignedRankTest of their
// differences.
func TestCompareStored(t *testing.T) {
	a := filepath.Join("..", "..", "testdata", "reproductions", "tag-large")
	b := filepath.Join("..", "..", "testdata", "reproductions", "tag-large-30m")
	csvPath, plotPath := filepath.Join(t.TempDir(), "pairs.csv"), filepath.Join(t.TempDir(), "pairs.png")
	code, out, errOut := runArgs("compare", "-csv", csvPath, "-plot", plotPath, a, b)
	if code != exitOK || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	gainA := readGainColumn(t, filepath.Join(a, "runs.csv"), "2v2 mean-max", "Gain")
	gainB := readGainColumn(t, filepath.Join(b, "runs.csv"), "2v2 mean-max", "Gain")
	var diffs []float64
	var rows []string
	higherB, higherA := 0, 0
	for k := 1; k <= len(gainA); k++ { // tag-large's seeds are 1 to 9; the 30M runs are some of them
		b, ok := gainB[k]
		if !ok {
			continue
		}
		d := b - gainA[k]
		diffs = append(diffs, d)
		rows = append(rows, fmt.Sprintf("   %6d %12.4g %12.4g %12.4g\n", k, gainA[k], b, d))
		if d > 0 {
			higherB++
		} else if d < 0 {
			higherA++
		}
	}
	if len(diffs) < 5 || len(diffs) != len(gainB) {
		t.Fatalf("%d of the %d stored 30M seeds are tag-large's, want all of at least 5", len(diffs), len(gainB))
	}
	test, err := reproduce.SignedRankTest(diffs)
	if err != nil {
		t.Fatal(err)
	}
	header := fmt.Sprintf("2v2 mean-max: %d seeds in both\n", len(diffs))
	if left := len(gainA) - len(diffs); left > 0 {
		header = fmt.Sprintf("2v2 mean-max: %d seeds in both (%d in one only or without a gain, left out)\n", len(diffs), left)
	}
	settings := "   A's runs: tag N=2 M=2 U=mean T=max\n   B's runs: tag N=2 M=2 U=mean T=max\n" +
		"   other settings that differ: Iterations A 300, B 1875\n" // 4.8M frames against 30M, 16000 a iteration
	want := append([]string{header + settings}, rows...)
	want = append(want, fmt.Sprintf("one-sided signed-rank p (exact, %d non-zero differences): B higher than A %.4g, A higher than B %.4g\n",
		len(diffs), test.Greater, test.Less), fmt.Sprintf("seeds higher under B %d, under A %d\n", higherB, higherA))
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
	if strings.Count(out, " seeds in both") != 1 {
		t.Errorf("more than the one shared cell compared:\n%s", out)
	}
	if w := "wrote " + csvPath + "\nwrote " + plotPath + "\n"; !strings.HasSuffix(out, w) {
		t.Errorf("output does not end with %q:\n%s", w, out)
	}
	if data, err := os.ReadFile(plotPath); err != nil {
		t.Error(err)
	} else if _, err := png.Decode(bytes.NewReader(data)); err != nil {
		t.Errorf("-plot: %v", err)
	}
	// The CSV has the pairs at full precision.
	f, err := os.Open(csvPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	df := dataframe.ReadCSV(f)
	if df.Nrow() != len(diffs) {
		t.Fatalf("-csv: %d rows, want %d", df.Nrow(), len(diffs))
	}
	for i := 0; i < df.Nrow(); i++ {
		k, _ := df.Col("Seed").Elem(i).Int()
		if df.Col("GainA").Elem(i).Float() != gainA[k] || df.Col("GainB").Elem(i).Float() != gainB[k] ||
			df.Col("CellA").Elem(i).String() != "2v2 mean-max" || df.Col("CellB").Elem(i).String() != "2v2 mean-max" {
			t.Errorf("-csv row %d: %v", i, df.Subset(i))
		}
	}
}

// TestCompareTrain compares train directories: one with itself (every
// difference 0, p = 1 both ways), and one against the same cell of a
// reproduction, which needs -cell when the reproduction has several.
func TestCompareTrain(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "train")
	if code, _, errOut := runArgs(trainArgs(dir)...); code != exitOK {
		t.Fatalf("train: exit %d, stderr %q", code, errOut)
	}
	csvPath := filepath.Join(t.TempDir(), "pairs.csv")
	code, out, errOut := runArgs("compare", "-csv", csvPath, dir, dir)
	if code != exitOK || errOut != "" || !strings.Contains(out, "the cell: 2 seeds in both\n"+
		"   A's runs: matrix-cont N=2 M=2 U=min T=max\n   B's runs: matrix-cont N=2 M=2 U=min T=max\n   no other setting differs\n") ||
		!strings.Contains(out, "median 0; seeds higher under B 0, under A 0\n"+
			"   one-sided signed-rank p (exact, 0 non-zero differences): B higher than A 1, A higher than B 1\n") {
		t.Errorf("a train directory with itself: exit %d, stderr %q, output\n%s", code, errOut, out)
	}
	gains := readGainColumn(t, filepath.Join(dir, "gains.csv"), "", "Gain")
	if w := fmt.Sprintf("   %6d %12.4g %12.4g %12.4g\n", 2, gains[2], gains[2], 0.0); !strings.Contains(out, w) {
		t.Errorf("output lacks %q:\n%s", w, out)
	}
	// A train directory's one cell is named in the CSV by its environment.
	if data, err := os.ReadFile(csvPath); err != nil {
		t.Error(err)
	} else if want := fmt.Sprintf("CellA,CellB,Seed,GainA,GainB,Difference\n"+
		"matrix-cont N=2 M=2 U=min T=max,matrix-cont N=2 M=2 U=min T=max,1,%[1]v,%[1]v,0\n"+
		"matrix-cont N=2 M=2 U=min T=max,matrix-cont N=2 M=2 U=min T=max,2,%[2]v,%[2]v,0\n", gains[1], gains[2]); string(data) != want {
		t.Errorf("-csv:\n%s\nwant\n%s", data, want)
	}
	if !strings.HasSuffix(out, "\nwrote "+csvPath+"\n") {
		t.Errorf("output does not end with wrote %s:\n%s", csvPath, out)
	}

	repro := filepath.Join(t.TempDir(), "m2")
	var rout, rerr bytes.Buffer
	if code := runTiny(newApp(context.Background(), &rout, &rerr), reproduceArgs(repro)...); code != exitOK {
		t.Fatalf("reproduce: exit %d, stderr %q", code, rerr.String())
	}
	code, out, errOut = runArgs("compare", "-cell", "continuous min-max", repro, dir)
	if code != exitOK || errOut != "" || !strings.Contains(out, "continuous min-max: 2 seeds in both\n"+
		"   A's runs: matrix-cont N=2 M=2 U=min T=max\n   B's runs: matrix-cont N=2 M=2 U=min T=max\n"+
		"   other settings that differ: EvalEvery A 10, B 1; Iterations A 3, B 4; Team.Epochs A 2, B 4\n") {
		t.Errorf("-cell against a reproduction: exit %d, stderr %q, output\n%s", code, errOut, out)
	}
	code, _, errOut = runArgs("compare", repro, dir)
	if code != exitUsage || !strings.Contains(errOut, `A and B share no cell (A has "continuous min-min"`) ||
		!strings.Contains(errOut, "B has one cell (a train directory)") {
		t.Errorf("no -cell against a reproduction: exit %d, stderr %q", code, errOut)
	}
}

// TestCompareCellB compares two cells of one stored reproduction
// (Multi-goal-capture's (min, max) and (mean, max)) with -cell-b: the
// rows against runs.csv, and the figure.
func TestCompareCellB(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "reproductions", "capture")
	plotPath := filepath.Join(t.TempDir(), "cells.png")
	// (min, max) and (mean, max) are other rewards: refused without
	// -force, whose comparison warns.
	code, out, errOut := runArgs("compare", "-cell", "capture min-max", "-cell-b", "capture mean-max", "-plot", plotPath, dir, dir)
	if want := "A and B are not the same reward problem (U A min, B mean): their gains do not compare; -force compares them anyway"; code != exitUsage || out != "" || !strings.Contains(errOut, want) {
		t.Errorf("without -force: exit %d, stdout %q, stderr %q; want exit %d with %q", code, out, errOut, exitUsage, want)
	}
	if _, err := os.Stat(plotPath); err == nil {
		t.Errorf("refused, but %s written", plotPath)
	}
	code, out, errOut = runArgs("compare", "-force", "-cell", "capture min-max", "-cell-b", "capture mean-max", "-plot", plotPath, dir, dir)
	if code != exitOK || !strings.Contains(out, "capture min-max against capture mean-max: 3 seeds in both\n"+
		"   A's runs: capture N=2 M=2 U=min T=max\n   B's runs: capture N=2 M=2 U=mean T=max\n   no other setting differs\n") ||
		errOut != "hetgain compare: warning: A and B are not the same reward problem (U A min, B mean): their gains do not compare\n" {
		t.Fatalf("exit %d, stderr %q, output\n%s", code, errOut, out)
	}
	gainA := readGainColumn(t, filepath.Join(dir, "runs.csv"), "capture min-max", "Gain")
	gainB := readGainColumn(t, filepath.Join(dir, "runs.csv"), "capture mean-max", "Gain")
	for k := 1; k <= 3; k++ {
		if w := fmt.Sprintf("   %6d %12.4g %12.4g %12.4g\n", k, gainA[k], gainB[k], gainB[k]-gainA[k]); !strings.Contains(out, w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
	if data, err := os.ReadFile(plotPath); err != nil {
		t.Error(err)
	} else if _, err := png.Decode(bytes.NewReader(data)); err != nil {
		t.Errorf("-plot: %v", err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"compare", "-cell-b", "capture mean-max", dir, dir}, `-cell-b "capture mean-max" needs -cell`},
		{[]string{"compare", "-cell", "capture min-max", "-cell-b", "capture max-min-max", dir, dir}, `B has no cell "capture max-min-max"`},
	} {
		if code, _, errOut := runArgs(c.args...); code != exitUsage || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want a usage error with %q", c.args, code, errOut, c.want)
		}
	}
}

// TestCompareUsage checks the bad command lines: the number of
// directories, a cell that is not there, and a task evaluation's gain
// against a training evaluation's (a directory without a table is an
// error, TestMissingInputs).
func TestCompareUsage(t *testing.T) {
	stored := filepath.Join("..", "..", "testdata", "reproductions")
	task := filepath.Join(t.TempDir(), "task")
	if code, _, errOut := runArgs(trainArgs(task, "-env", "tag", "-U", "mean", "-T", "max", "-envs", "2",
		"-task-params", "shaping=0,penalty=0", "-task-episodes", "2")...); code != exitOK {
		t.Fatalf("train: exit %d, stderr %q", code, errOut)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"compare", stored}, "want two directories of training runs, A and B; got 1"},
		{[]string{"compare", "-plot", "pairs.gif", stored, stored}, `-plot "pairs.gif": want a file name ending in .png`},
		{[]string{"compare", "-plot", "pairs.png", "-plot-scale", "symlog", stored, stored}, `-plot-scale "symlog": want linear or asinh`},
		{[]string{"compare", "-plot-scale", "asinh", stored, stored}, "-plot-scale asinh needs -plot"},
		{[]string{"compare", "-cell", "2v2 mean-max", filepath.Join(stored, "tag-large"), filepath.Join(stored, "capture")},
			`B has no cell "2v2 mean-max" (it has "capture min-min", "capture min-mean"`},
		{[]string{"compare", "-cell", "capture mean-max", filepath.Join(stored, "capture"), task},
			"a task evaluation's gain does not compare with the training environment's"},
	} {
		code, _, errOut := runArgs(c.args...)
		if code != exitUsage || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want a usage error with %q", c.args, code, errOut, c.want)
		}
	}
	code, out, errOut := runArgs("compare", "-cell", "2v2 mean-max", filepath.Join(stored, "tag-large"), task)
	if code != exitOK || !strings.Contains(out, "2v2 mean-max: 2 seeds in both (7 in one only or without a gain, left out)\n") {
		t.Errorf("a Tag train directory with -task-params against tag-large: exit %d, stderr %q, output\n%s", code, errOut, out)
	}
}

// TestSideNames checks the names a figure gives the two directories.
func TestSideNames(t *testing.T) {
	for _, c := range [][4]string{
		{"runs/noclamp", "runs/clamp", "noclamp", "clamp"},
		{"a/capture", "b/capture", "a/capture", "b/capture"},
		{"results/tag-large/", "results/tag-large-30m", "tag-large", "tag-large-30m"},
	} {
		if a, b := sideNames(c[0], c[1]); a != c[2] || b != c[3] {
			t.Errorf("sideNames(%q, %q) = %q, %q; want %q, %q", c[0], c[1], a, b, c[2], c[3])
		}
	}
}

// TestCompareNoSharedSeed checks that A and B without a seed with a gain
// in both are a usage error naming each side's seeds, and that -csv and
// -plot write nothing.
func TestCompareNoSharedSeed(t *testing.T) {
	a, b := filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b")
	for dir, table := range map[string]string{a: "Seed,Gain\n1,0.5\n2,0.7\n3,0.1\n", b: "Seed,Gain\n3,NaN\n4,0.5\n5,0.2\n"} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "gains.csv"), []byte(table), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := t.TempDir()
	csvPath, plotPath := filepath.Join(out, "pairs.csv"), filepath.Join(out, "pairs.png")
	code, stdout, errOut := runArgs("compare", "-csv", csvPath, "-plot", plotPath, a, b)
	if want := "A and B share no seed with a gain in both (A: 1-3, B: 4-5); train both on the same seeds"; code != exitUsage ||
		stdout != "" || !strings.Contains(errOut, want) {
		t.Errorf("exit %d, stdout %q, stderr %q; want exit %d with %q", code, stdout, errOut, exitUsage, want)
	}
	for _, p := range []string{csvPath, plotPath} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s written", p)
		}
	}
}

// TestCompareSettings checks the settings of the runs against another
// reward problem: a reproduction's cell of N = 2 against a train
// directory of N = 4 is refused, naming N, and writes nothing; -force
// compares them with a warning and writes -csv and -plot, saying so.
// Tables without their runs' spec.json are compared with a warning that
// the settings are not known, and a spec.json that cannot be read is an
// error.
func TestCompareSettings(t *testing.T) {
	repro := filepath.Join("..", "..", "testdata", "reproductions", "matrix2")
	n4 := filepath.Join(t.TempDir(), "n4")
	if code, _, errOut := runArgs(trainArgs(n4, "-N", "4", "-seeds", "1")...); code != exitOK {
		t.Fatalf("train: exit %d, stderr %q", code, errOut)
	}
	out := t.TempDir()
	csvPath, plotPath := filepath.Join(out, "pairs.csv"), filepath.Join(out, "pairs.png")
	args := []string{"compare", "-cell", "continuous min-max", "-csv", csvPath, "-plot", plotPath, repro, n4}
	code, stdout, errOut := runArgs(args...)
	if want := "A and B are not the same reward problem (N A 2, B 4): their gains do not compare; -force compares them anyway"; code != exitUsage ||
		stdout != "" || !strings.Contains(errOut, want) {
		t.Errorf("N 2 against 4: exit %d, stdout %q, stderr %q; want exit %d with %q", code, stdout, errOut, exitUsage, want)
	}
	for _, p := range []string{csvPath, plotPath} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("refused, but %s written", p)
		}
	}
	code, stdout, errOut = runArgs(append([]string{"compare", "-force"}, args[1:]...)...)
	if code != exitOK || errOut != "hetgain compare: warning: A and B are not the same reward problem (N A 2, B 4): their gains do not compare\n" ||
		!strings.Contains(stdout, "continuous min-max: 1 seeds in both (2 in one only or without a gain, left out)\n"+
			"   A's runs: matrix-cont N=2 M=2 U=min T=max\n   B's runs: matrix-cont N=4 M=2 U=min T=max\n   other settings that differ: ") ||
		!strings.HasSuffix(stdout, "\nwrote "+csvPath+"\nwrote "+plotPath+"\n") {
		t.Errorf("-force: exit %d, stderr %q, output\n%s", code, errOut, stdout)
	}
	if data, err := os.ReadFile(csvPath); err != nil || !strings.HasPrefix(string(data),
		"CellA,CellB,Seed,GainA,GainB,Difference\ncontinuous min-max,matrix-cont N=4 M=2 U=min T=max,1,") {
		t.Errorf("-force -csv: %q, %v", data, err)
	}

	// Tables alone: the settings are not known, and the CSV names a train
	// directory's cell by its directory.
	a, b := filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b")
	for _, dir := range []string{a, b} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "gains.csv"), []byte("Seed,Gain\n1,0.5\n2,0.25\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, stdout, errOut = runArgs("compare", "-csv", csvPath, a, b)
	for _, w := range []string{
		"hetgain compare: warning: A's settings are not known (no " + filepath.Join(a, "seed1", "spec.json") + "): A and B are not checked to pose the same reward problem\n",
		"hetgain compare: warning: B's settings are not known (no " + filepath.Join(b, "seed1", "spec.json") + "): ",
	} {
		if code != exitOK || !strings.Contains(errOut, w) {
			t.Errorf("tables alone: exit %d, stderr %q; want %q", code, errOut, w)
		}
	}
	if w := "   A's runs: settings not known (no " + filepath.Join(a, "seed1", "spec.json") + ")\n"; !strings.Contains(stdout, w) {
		t.Errorf("tables alone: output lacks %q:\n%s", w, stdout)
	}
	if data, err := os.ReadFile(csvPath); err != nil || !strings.HasPrefix(string(data),
		"CellA,CellB,Seed,GainA,GainB,Difference\n"+filepath.Clean(a)+","+filepath.Clean(b)+",1,0.5,0.5,0\n") {
		t.Errorf("tables alone -csv: %q, %v", data, err)
	}

	// A spec.json that is not a paired run's is an error.
	if err := os.MkdirAll(filepath.Join(a, "seed1"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(a, "seed1", "spec.json"), []byte(`{"Algorithm": "HetGPS"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut = runArgs("compare", a, b)
	if want := filepath.Join(a, "seed1", "spec.json") + " is not the specification of a paired run"; code != exitError || !strings.Contains(errOut, want) {
		t.Errorf("an unreadable spec.json: exit %d, stderr %q; want exit %d with %q", code, errOut, exitError, want)
	}
}

// TestDescribeProblems checks that compare states a difference of reward
// problem shared by every pair of cells once, and lists differing ones
// pair by pair.
func TestDescribeProblems(t *testing.T) {
	for _, c := range []struct {
		differing, names []string
		pairs            int
		want             string
	}{
		{nil, nil, 3, ""},
		{[]string{"N A 2, B 4"}, []string{"x"}, 1, "N A 2, B 4"},
		{[]string{"N A 2, B 4", "N A 2, B 4"}, []string{"x", "y"}, 2, "N A 2, B 4, in all 2 pairs of cells"},
		{[]string{"N A 2, B 4", "N A 2, B 4"}, []string{"x", "z"}, 3, "N A 2, B 4, in 2 of 3 pairs of cells: x, z"},
		{[]string{"N A 2, B 4", "U A min, B max"}, []string{"x", "y"}, 2, "x: N A 2, B 4; y: U A min, B max"},
	} {
		if got := strings.Join(describeProblems(c.differing, c.names, c.pairs), "; "); got != c.want {
			t.Errorf("describeProblems(%q, %q, %d) = %q, want %q", c.differing, c.names, c.pairs, got, c.want)
		}
	}
}

// TestCompareOneSeedNoSpread checks that two directories sharing one seed
// are compared without a standard error, saying why, rather than ± NaN.
func TestCompareOneSeedNoSpread(t *testing.T) {
	a, b := filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b")
	for _, c := range []struct{ dir, lr string }{{a, "0.003"}, {b, "0.001"}} {
		if code, _, errOut := runArgs(trainArgs(c.dir, "-seeds", "1", "-lr", c.lr, "-quiet")...); code != exitOK {
			t.Fatalf("train %s: exit %d, %s", c.dir, code, errOut)
		}
	}
	code, out, errOut := runArgs("compare", a, b)
	if code != exitOK || strings.Contains(out, "NaN") || !strings.Contains(out, "(a standard error needs two seeds)") {
		t.Errorf("one shared seed: exit %d\n%s%s", code, out, errOut)
	}
}

// TestCompareContinuousDiscrete checks that the continuous and the
// discrete matrix game, whose closed-form gains differ, are other reward
// problems.
func TestCompareContinuousDiscrete(t *testing.T) {
	repro := filepath.Join("..", "..", "testdata", "reproductions", "matrix2")
	code, stdout, errOut := runArgs("compare", "-cell", "continuous min-max", "-cell-b", "discrete min-max", repro, repro)
	if want := "A and B are not the same reward problem (discrete A false, B true)"; code != exitUsage || stdout != "" || !strings.Contains(errOut, want) {
		t.Errorf("continuous against discrete: exit %d, stdout %q, stderr %q; want exit %d with %q", code, stdout, errOut, exitUsage, want)
	}
}
