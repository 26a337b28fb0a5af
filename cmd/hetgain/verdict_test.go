package main

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hetgain/hetgain/reproduce"
)

// TestVerdictStored judges the stored tag-large's (mean, max), nine of a
// planned thirteen seeds, against reproduce.Judge on its gains read from
// runs.csv with gota: the gains by seed and the verdict line, which says
// the four seeds to come could still make it clearly positive.
func TestVerdictStored(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "reproductions", "tag-large")
	code, out, errOut := runArgs("verdict", "-threshold", "0.5", "-seeds", "13", "-cell", "2v2 mean-max", dir)
	if code != exitOK || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	v := judgeStoredSeeds(t, dir, "2v2 mean-max", 1, 9, 13)
	if !strings.Contains(out, "   "+v.String()+"\n") || !strings.Contains(v.String(), "not settled") {
		t.Errorf("output lacks the verdict %q:\n%s", v, out)
	}
	if !strings.Contains(out, "gains by seed: 1: -11.96, 2: 2.595,") || strings.Count(out, "gains by seed") != 1 {
		t.Errorf("output lacks the one cell's gains by seed:\n%s", out)
	}
}

// TestVerdictTrainDir judges a train directory's gains.csv with a seed
// without a gain (left out, counted and taken off the six planned: it
// finished and will give none, so two seeds are to come, not three) and
// remaining seeds bounded to [-1, 1], which cannot lift the bound over
// the threshold: settled.
func TestVerdictTrainDir(t *testing.T) {
	dir := t.TempDir()
	table := "Seed,Gain\n1,0.4\n2,NaN\n3,0.1\n4,0.3\n"
	if err := os.WriteFile(filepath.Join(dir, "gains.csv"), []byte(table), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runArgs("verdict", "-threshold", "0.5", "-seeds", "6", "-lo", "-1", "-hi", "1", dir)
	if code != exitOK || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	v, err := reproduce.Judge([]float64{0.4, 0.1, 0.3}, 5, 0.5, -1, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !v.Settled() || v.Positive() {
		t.Fatalf("the case is meant to be settled and not positive: %v", v)
	}
	for _, want := range []string{"gains by seed: 1: 0.4, 2: none, 3: 0.1, 4: 0.3\n", "(1 seed(s) without a gain left out; finished, they will give none, so 5 of the 6 planned can)\n", "   " + v.String() + "\n", "2 seed(s) to come"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// TestVerdictNoGains checks that a cell whose seeds all finished without
// a gain is said to have nothing to judge, not seeds still to come.
func TestVerdictNoGains(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "gains.csv"), []byte("Seed,Gain\n1,NaN\n2,NaN\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runArgs("verdict", "-threshold", "0.5", dir)
	if code != exitOK || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if !strings.Contains(out, "no seed has a gain: nothing to judge\n") || strings.Contains(out, "to come") {
		t.Errorf("output:\n%s\nwant nothing to judge, and no seeds to come", out)
	}
}

// TestVerdictEmptyTable checks that a gains.csv with a header and no row
// is a directory with no finished run (exit 1), for verdict and compare,
// not a seed range the user did not give.
func TestVerdictEmptyTable(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "gains.csv"), []byte("Seed,Gain\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"verdict", "-threshold", "0", dir}, {"compare", dir, dir}} {
		code, _, errOut := runArgs(args...)
		if want := dir + ": no finished run in its table"; code != exitError || !strings.Contains(errOut, want) || strings.Contains(errOut, "-first-seed") {
			t.Errorf("%s on a header-only table: exit %d, stderr %q; want exit %d with %q", args[0], code, errOut, exitError, want)
		}
	}
}

// TestVerdictOneSeedCanGain checks that a cell planned with two seeds, one
// of them finished without a gain, is said to have nothing to judge:
// only one seed can have a gain, and a standard error needs two.
func TestVerdictOneSeedCanGain(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "gains.csv"), []byte("Seed,Gain\n1,NaN\n2,0.7\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runArgs("verdict", "-threshold", "0.5", "-seeds", "2", dir)
	if code != exitOK || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if !strings.Contains(out, "at most 1 seed can have a gain: nothing to judge") || strings.Contains(out, "to come") {
		t.Errorf("output:\n%s\nwant nothing to judge, and no seeds to come", out)
	}
	code, _, errOut = runArgs("verdict", "-threshold", "0.5", "-seeds", "1", dir)
	if code != exitUsage || !strings.Contains(errOut, "-seeds 1") {
		t.Errorf("-seeds 1 with 2 finished seeds: exit %d, stderr %q; want a usage error", code, errOut)
	}
}

// TestVerdictUsage checks that verdict refuses a bad command line with a
// usage error naming what is wrong.
func TestVerdictUsage(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "reproductions", "tag-large")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{dir}, "-threshold X is required"},
		{[]string{"-threshold", "NaN", dir}, "-threshold NaN: want a finite number"},
		{[]string{"-threshold", "abc", dir}, `invalid value "abc" for flag -threshold: want a number` + "\n"},
		{[]string{dir, "-threshold", "1e999"}, `invalid value "1e999" for flag -threshold: out of range of a number` + "\n"},
		{[]string{"-threshold", "0.5", "-lo", "low", dir}, `invalid value "low" for flag -lo: want a number` + "\n"},
		{[]string{"-threshold", "0.5", "-seeds", "1", dir}, "-seeds 1"},
		{[]string{"-threshold", "0.5", "-seeds", "4294967296", dir}, "-seeds 4294967296"},
		{[]string{"-threshold", "0.5", "-seeds", "5", "-cell", "2v2 mean-max", dir}, "-seeds 5: the cell has 9 finished seeds already"},
		{[]string{"-threshold", "0.5", "-lo", "2", "-hi", "1", dir}, "-lo 2 -hi 1: want -lo <= -hi"},
		{[]string{"-threshold", "0.5", "-lo", "+Inf", dir}, "-lo +Inf: want a number below +Inf"},
		{[]string{"-threshold", "0.5", "-hi", "-Inf", dir}, "-hi -Inf: want a number above -Inf"},
		{[]string{"-threshold", "0.5", "-hi", "NaN", dir}, "-hi NaN: want a number above -Inf"},
		{[]string{"-threshold", "0.5", "-cell", "2v2 none", dir}, `has no cell "2v2 none"`},
		{[]string{"-threshold", "0.5", "-cell", "2v2 mean-max", dir, filepath.Join(dir, "..", "tag-large-30m")}, "cannot join two cells that both have seed 1"}, // the first seed stored in both
		{[]string{"-threshold", "0.5"}, "want a directory"},
		{[]string{"-threshold", "0.5", "-first-seed", "0", dir}, "-first-seed 0: want >= 1"},
		{[]string{"-threshold", "0.5", "-first-seed", "5", "-last-seed", "4", dir}, "-first-seed 5 -last-seed 4: want -last-seed >= -first-seed"},
		{[]string{"-threshold", "0.5", "-first-seed", "10", "-cell", "2v2 mean-max", dir}, `"2v2 mean-max" has no seed in this range (it has [1 2 3 4 5 6 7 8 9])`},
	} {
		code, _, errOut := runArgs(append([]string{"verdict"}, c.args...)...)
		if code != exitUsage || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want a usage error with %q", c.args, code, errOut, c.want)
		}
	}
}

// TestVerdictHelpThreshold checks that the help of the required
// -threshold shows no default (it showed "(default NaN)").
func TestVerdictHelpThreshold(t *testing.T) {
	code, out, _ := runArgs("help", "verdict")
	_, line, _ := strings.Cut(out, "\n  -threshold X\n")
	line, _, _ = strings.Cut(line, "\n")
	if code != exitOK || !strings.Contains(line, "exceeds X (required") || strings.Contains(line, "default") {
		t.Errorf("help verdict: exit %d, -threshold's line %q: want its help without a default", code, line)
	}
}

// TestVerdictJoins judges one cell whose seeds were trained in two train
// directories: the seeds of both, in order, against Judge on all four
// gains; a seed in both is a usage error.
func TestVerdictJoins(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	for dir, table := range map[string]string{
		a: "Seed,Gain,TaskGain\n3,1,0.9\n1,1,0.7\n",
		b: "Seed,Gain,TaskGain\n4,1,1.2\n2,1,0.4\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, "gains.csv"), []byte(table), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, out, errOut := runArgs("verdict", "-threshold", "0.2", "-seeds", "4", a, b)
	if code != exitOK || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	v, err := reproduce.Judge([]float64{0.7, 0.4, 0.9, 1.2}, 4, 0.2, math.Inf(-1), math.Inf(1))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"gains by seed: 1: 0.7, 2: 0.4, 3: 0.9, 4: 1.2\n", "   " + v.String() + "\n", ": clearly positive\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	code, _, errOut = runArgs("verdict", "-threshold", "0.2", a, b, a)
	if code != exitUsage || !strings.Contains(errOut, "both have seed 1") {
		t.Errorf("a seed in two directories: exit %d, stderr %q", code, errOut)
	}
}

// TestVerdictSeedRange judges the stored confirmation of Tag's (mean, max)
// under difference rewards and an entropy bonus, seeds 10 to 18 of a cell
// that holds seeds 2 to 18, against Judge on those gains read from
// runs.csv with gota: only they are listed, and the verdict is theirs.
func TestVerdictSeedRange(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "reproductions", "tag-large-diff-entropy")
	code, out, errOut := runArgs("verdict", "-threshold", "0.5", "-seeds", "9", "-first-seed", "10", "-last-seed", "18", "-cell", "2v2 mean-max", dir)
	if code != exitOK || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if _, ok := readGainColumn(t, filepath.Join(dir, "runs.csv"), "2v2 mean-max", "Gain")[9]; !ok {
		t.Fatal("the stored cell is meant to hold seed 9, outside the range")
	}
	v := judgeStoredSeeds(t, dir, "2v2 mean-max", 10, 18, 9)
	if !strings.Contains(out, "   "+v.String()+"\n") || !strings.Contains(out, "gains by seed: 10: ") || strings.Contains(out, " 9: ") {
		t.Errorf("output is not seeds 10 to 18 with the verdict %q:\n%s", v, out)
	}
}

// judgeStoredSeeds returns Judge's verdict, by the rule of tag-large
// (threshold 0.5) with planned seeds, on the gains of seeds first to last
// of the stored reproduction dir's cell, read from its runs.csv with gota;
// each of those seeds must be there.
func judgeStoredSeeds(t *testing.T, dir, cell string, first, last, planned int) reproduce.Verdict {
	t.Helper()
	byseed := readGainColumn(t, filepath.Join(dir, "runs.csv"), cell, "Gain")
	var gains []float64
	for k := first; k <= last; k++ {
		g, ok := byseed[k]
		if !ok {
			t.Fatalf("%s %s has no seed %d", dir, cell, k)
		}
		gains = append(gains, g)
	}
	v, err := reproduce.Judge(gains, planned, 0.5, math.Inf(-1), math.Inf(1))
	if err != nil {
		t.Fatal(err)
	}
	return v
}
