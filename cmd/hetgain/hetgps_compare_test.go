package main

import (
	"bufio"
	"bytes"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/hetgain/hetgain/reproduce"
)

// storedAsExpected reads, from the stored summary.txt of a HetGPS
// reproduction, the seeds of each setting that ended as expected: those
// whose line answers all four questions (τ_T rose, τ_U fell, in the
// region, gain rose) with yes.
func storedAsExpected(t *testing.T, dir string) map[string]map[int]bool {
	f, err := os.Open(filepath.Join(dir, "summary.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]map[int]bool{}
	setting := ""
	seedLine := regexp.MustCompile(`^  seed (\d+): `)
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if label, _, ok := strings.Cut(line, " ("); ok && !strings.HasPrefix(line, " ") && !strings.HasPrefix(line, "HetGPS") {
			setting = label
			out[setting] = map[int]bool{}
		}
		if m := seedLine.FindStringSubmatch(line); m != nil {
			k, _ := strconv.Atoi(m[1])
			out[setting][k] = strings.Count(line, ": yes") == 4
		}
	}
	return out
}

// storedEndGains reads, from the stored summary.txt of a HetGPS
// reproduction, the gain each seed of setting ended at (to the 3
// significant digits the summary gives).
func storedEndGains(t *testing.T, dir, setting string) map[int]float64 {
	text, err := os.ReadFile(filepath.Join(dir, "summary.txt"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[int]float64{}
	seedLine := regexp.MustCompile(`^  seed (\d+): .* gain (?:peak )?\S+ → (\S+) \(`)
	in := false
	for _, line := range strings.Split(string(text), "\n") {
		if !strings.HasPrefix(line, " ") {
			in = strings.HasPrefix(line, setting+" (")
		}
		if m := seedLine.FindStringSubmatch(line); in && m != nil {
			k, _ := strconv.Atoi(m[1])
			if out[k], err = strconv.ParseFloat(m[2], 64); err != nil {
				t.Fatalf("%s: %q: %v", dir, line, err)
			}
		}
	}
	return out
}

// TestHetGPSCompareGains compares the stored fresh test of the clamp
// (power-sum in Multi-goal-capture, seeds 19 to 36, without and with it)
// by the gains the seeds ended at, against the gains in the two
// summaries: the seeds higher under each, and the signed-rank test of
// their differences.
func TestHetGPSCompareGains(t *testing.T) {
	a := filepath.Join("..", "..", "testdata", "reproductions", "hetgps-powersum-fresh", "noclamp")
	b := filepath.Join("..", "..", "testdata", "reproductions", "hetgps-powersum-fresh", "clamp")
	plotPath := filepath.Join(t.TempDir(), "gains.png")
	code, out, errOut := runArgs("hetgps-compare", "-plot", plotPath, a, b)
	if code != exitOK || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	asinhPath := filepath.Join(t.TempDir(), "gains-asinh.png")
	if !strings.HasSuffix(out, "\nwrote "+plotPath+"\n") {
		t.Errorf("output does not end with wrote %s:\n%s", plotPath, out)
	}
	if code, again, errOut := runArgs("hetgps-compare", "-plot", asinhPath, "-plot-scale", "asinh", a, b); code != exitOK ||
		strings.TrimSuffix(again, "wrote "+asinhPath+"\n") != strings.TrimSuffix(out, "wrote "+plotPath+"\n") {
		t.Errorf("-plot-scale asinh: exit %d, stderr %q, stdout differs but for its wrote line:\n%s", code, errOut, again)
	}
	var pictures [2][]byte
	for k, p := range []string{plotPath, asinhPath} {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := png.Decode(bytes.NewReader(data)); err != nil {
			t.Errorf("-plot %s: %v", p, err)
		}
		pictures[k] = data
	}
	if bytes.Equal(pictures[0], pictures[1]) {
		t.Error("-plot-scale asinh drew the linear picture")
	}
	gainA, gainB := storedEndGains(t, a, "capture"), storedEndGains(t, b, "capture")
	if len(gainA) != 18 || len(gainB) != 18 {
		t.Fatalf("summaries read: %v, %v", gainA, gainB)
	}
	var higher, lower int
	var diffs []float64
	for k := 19; k <= 36; k++ {
		d := gainB[k] - gainA[k]
		if d > 0 {
			higher++
		} else if d < 0 {
			lower++
		}
		diffs = append(diffs, d)
	}
	test, err := reproduce.SignedRankTest(diffs)
	if err != nil {
		t.Fatal(err)
	}
	// The summaries round the gains to 3 digits, which here changes no
	// sign and no rank.
	want := fmt.Sprintf("seeds higher under B %d, under A %d\n"+
		"   one-sided signed-rank p (exact, 18 non-zero differences): B higher than A %.4g, A higher than B %.4g\n",
		higher, lower, test.Greater, test.Less)
	if !strings.Contains(out, want) {
		t.Errorf("output lacks\n%s\nin\n%s", want, out)
	}
}

// TestHetGPSCompareStored compares two stored reproductions that share
// the settings matrix2 and capture (power-sum as A, softmax as B) and
// checks the pairing against their summaries.
func TestHetGPSCompareStored(t *testing.T) {
	a := filepath.Join("..", "..", "testdata", "reproductions", "hetgps-powersum")
	b := filepath.Join("..", "..", "testdata", "reproductions", "hetgps-softmax")
	code, out, errOut := runArgs("hetgps-compare", a, b)
	if code != exitOK || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	yesA, yesB := storedAsExpected(t, a), storedAsExpected(t, b)
	for _, setting := range []string{"capture", "matrix2"} {
		var both, neither int
		var onlyA, onlyB []int
		for k := 1; k <= 3; k++ {
			switch ya, yb := yesA[setting][k], yesB[setting][k]; {
			case ya && yb:
				both++
			case ya:
				onlyA = append(onlyA, k)
			case yb:
				onlyB = append(onlyB, k)
			default:
				neither++
			}
		}
		want := fmt.Sprintf("%s: 3 seeds finished in both; as expected under both %d, under neither %d, under A only %d %v, under B only %d %v\n"+
			"   one-sided exact McNemar p: B better than A %.4g, A better than B %.4g\n",
			setting, both, neither, len(onlyA), onlyA, len(onlyB), onlyB,
			reproduce.McNemarP(len(onlyA), len(onlyB)), reproduce.McNemarP(len(onlyB), len(onlyA)))
		if !strings.Contains(out, want) {
			t.Errorf("output lacks\n%s\nin\n%s", want, out)
		}
	}
	if len(yesB["capture"]) != 3 || len(yesA["matrix2"]) != 3 {
		t.Fatalf("summaries read: %v, %v", yesA, yesB)
	}
	for _, w := range []string{"A: " + a, "B: " + b, "capture (capture N=2 M=2 U=meanpower(1) T=meanpower(1); θ: T.t from 1 in (0.3, 6), clamped to [0.4, 5.9]; U.t from 1 in (0.3, 6), clamped to [0.4, 5.9]): ",
		"matrix4 (matrix-cont N=4 M=4 U=softmax(0) T=softmax(0); θ: T.t from 0; U.t from 0): 3 of 3 finished seeds as expected"} {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
	if strings.Contains(out, "matrix4: ") {
		t.Errorf("matrix4, in B only, was compared:\n%s", out)
	}
}

// TestHetGPSCompareSeeds compares runs made here: a directory with itself
// (no seed differs, p = 1 both ways), and with a third seed in B only.
func TestHetGPSCompareSeeds(t *testing.T) {
	a, b := filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b")
	if code, _, errOut := runArgs(hetgpsTinyArgs(a, "-quiet")...); code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if code, _, errOut := runArgs(hetgpsTinyArgs(b, "-quiet", "-seeds", "3")...); code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	code, out, errOut := runArgs("hetgps-compare", a, a)
	if code != exitOK || !strings.Contains(out, "under A only 0 [], under B only 0 []") ||
		!strings.Contains(out, "p: B better than A 1, A better than B 1") ||
		!strings.Contains(out, " B − A 0; seeds higher under B 0, under A 0\n"+
			"   one-sided signed-rank p (exact, 0 non-zero differences): B higher than A 1, A higher than B 1") {
		t.Errorf("a directory with itself: exit %d, stderr %q, output\n%s", code, errOut, out)
	}
	code, out, errOut = runArgs("hetgps-compare", a, b)
	if code != exitOK || !strings.Contains(out, "matrix: 2 seeds finished in both (1 in one only, left out)") {
		t.Errorf("a third seed in B: exit %d, stderr %q, output\n%s", code, errOut, out)
	}
}

func TestHetGPSCompareUsage(t *testing.T) {
	dir := t.TempDir()
	paired := filepath.Join(t.TempDir(), "paired")
	if code, _, errOut := runArgs("train", "-env", "matrix", "-U", "min", "-T", "max", "-iterations", "1", "-seeds", "1", "-frames-per-iter", "64",
		"-envs", "16", "-minibatch", "32", "-epochs", "1", "-hidden", "8", "-quiet", "-dir", paired); code != exitOK {
		t.Fatalf("train: exit %d, stderr %q", code, errOut)
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"hetgps-compare"}, exitUsage, "want two directories"},
		{[]string{"hetgps-compare", dir}, exitUsage, "want two directories"},
		{[]string{"hetgps-compare", dir, dir, dir}, exitUsage, "want two directories"},
		{[]string{"hetgps-compare", dir, dir}, exitError, "holds no HetGPS run"},
		{[]string{"hetgps-compare", filepath.Join(dir, "none"), dir}, exitError, "no such file or directory"},
		{[]string{"hetgps-compare", paired, paired}, exitError, "holds no HetGPS run"},
		{[]string{"hetgps-compare", "-plot", "gains.jpeg2", dir, dir}, exitUsage, `-plot "gains.jpeg2": want a file name ending in .png`},
		{[]string{"hetgps-compare", "-plot", "gains.png", "-plot-scale", "log", dir, dir}, exitUsage, `-plot-scale "log": want linear or asinh`},
		{[]string{"hetgps-compare", "-plot-scale", "asinh", dir, dir}, exitUsage, "-plot-scale asinh needs -plot"},
		// The parent of train's seed<k> directories: a setting whose runs
		// are not HetGPS's.
		{[]string{"hetgps-compare", filepath.Dir(paired), dir}, exitError, "not the specification of a HetGPS run"},
	} {
		code, out, errOut := runArgs(c.args...)
		if code != c.code || out != "" || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit %d naming %s", c.args, code, out, errOut, c.code, c.want)
		}
	}
}

// TestHetGPSCompareNoSharedSeed checks that two searches without a seed
// finished in both are a usage error naming each one's seeds, and that
// -plot draws nothing.
func TestHetGPSCompareNoSharedSeed(t *testing.T) {
	a, b := filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b")
	if code, _, errOut := runArgs(hetgpsTinyArgs(a, "-quiet", "-seeds", "1")...); code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if code, _, errOut := runArgs(hetgpsTinyArgs(b, "-quiet", "-seeds", "2", "-first-seed", "2")...); code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	plotPath := filepath.Join(t.TempDir(), "gains.png")
	code, out, errOut := runArgs("hetgps-compare", "-plot", plotPath, a, b)
	if want := "A and B share no seed finished in both under the same setting (A: matrix seeds 1; B: matrix seeds 2)"; code != exitUsage ||
		out != "" || !strings.Contains(errOut, want) {
		t.Errorf("exit %d, stdout %q, stderr %q; want exit %d with %q", code, out, errOut, exitUsage, want)
	}
	if _, err := os.Stat(plotPath); err == nil {
		t.Errorf("%s written", plotPath)
	}
}
