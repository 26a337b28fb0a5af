package main

import (
	"fmt"
	"image"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/hetgain/hetgain/learn"
	"github.com/hetgain/hetgain/simulate"
)

// TestInspectMatrix inspects tiny matrix-game runs. The game has one step
// and a constant observation, so each deterministic team plays one
// allocation A in every episode, and its mean return is min∘max of the
// printed mean effort matrix.
func TestInspectMatrix(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	if code, _, errOut := runArgs(trainArgs(dir, "-seeds", "10", "-iterations", "1", "-quiet")...); code != exitOK {
		t.Fatalf("train: exit %d, stderr %q", code, errOut)
	}
	code, out, errOut := runArgs("inspect", "-dir", dir, "-episodes", "3")
	if code != exitOK {
		t.Fatalf("inspect: exit %d, stderr %q", code, errOut)
	}
	// Every seed once, in the order of their numbers, its episodes from
	// its own seed.
	var seeds []string
	for _, m := range regexp.MustCompile(`seed(\d+): matrix-cont N=2 M=2 U=min T=max, iteration 1, 3 episodes from seed (\d+)\n`).FindAllStringSubmatch(out, -1) {
		if m[1] != m[2] {
			t.Errorf("run seed%s played from seed %s, want its own", m[1], m[2])
		}
		seeds = append(seeds, m[1])
	}
	if strings.Join(seeds, ",") != "1,2,3,4,5,6,7,8,9,10" {
		t.Fatalf("runs inspected: %v, want seeds 1 to 10 in order:\n%s", seeds, out)
	}
	teams := regexp.MustCompile(`(?s)(heterogeneous|homogeneous) team, mean effort per step \(3 steps\), agent x task:\n`+
		`\s+agent 1: (\S+) (\S+)\n\s+agent 2: (\S+) (\S+)\n\s+steps with k tasks covered \(an agent's effort > 0.5\): k=0 (\S+) k=1 (\S+) k=2 (\S+)\n\s+diversity \(mean half-L1 distance between agents' rows per step\) (\S+)\n\s+mean return (\S+)\n`).FindAllStringSubmatch(out, -1)
	if len(teams) != 20 {
		t.Fatalf("%d team profiles, want 20:\n%s", len(teams), out)
	}
	for _, m := range teams {
		v := make([]float64, 9)
		for k := range v {
			var err error
			if v[k], err = strconv.ParseFloat(m[k+2], 64); err != nil {
				t.Fatal(err)
			}
		}
		a := v[:4]
		for i := 0; i < 2; i++ {
			if s := a[2*i] + a[2*i+1]; math.Abs(s-1) > 2e-3 {
				t.Errorf("%s team: agent %d's efforts sum to %v, want 1 (the simplex)", m[1], i+1, s)
			}
		}
		if s := v[4] + v[5] + v[6]; math.Abs(s-1) > 2e-3 {
			t.Errorf("%s team: coverage fractions sum to %v", m[1], s)
		}
		minMax := math.Min(math.Max(a[0], a[2]), math.Max(a[1], a[3]))
		if math.Abs(v[8]-minMax) > 2e-3 {
			t.Errorf("%s team: mean return %v, want min∘max of its efforts %v", m[1], v[8], minMax)
		}
	}
	// The policies' standard deviations, as the checkpoints hold them.
	stds := regexp.MustCompile(`(heterogeneous|homogeneous) team, [^\n]*\n(?:  [^\n]*\n)*?  policy std per action coordinate, before the squash: agent 1 (\S+) (\S+); agent 2 (\S+) (\S+)\n`).FindAllStringSubmatch(out, -1)
	if len(stds) != 20 {
		t.Fatalf("%d lines of policy std, want 20:\n%s", len(stds), out)
	}
	for k, m := range stds {
		team, _ := checkpointTeam(t, filepath.Join(dir, "seed"+seeds[k/2]), m[1])
		want := team.ActionStd()
		for c, s := range m[2:] {
			if v, w := parseFloat(t, s), want[c/2][c%2]; math.Abs(v-w) > 1e-3*w || math.Abs(w-1) > 0.1 {
				t.Errorf("seed%s %s team: policy std %v printed, the checkpoint's %v (one iteration from 1)", seeds[k/2], m[1], v, w)
			}
		}
		if m[1] == "homogeneous" && (m[2] != m[4] || m[3] != m[5]) {
			t.Errorf("seed%s homogeneous team: agents' std %v differ; they share one policy", seeds[k/2], m[2:])
		}
	}
	// The specialists line, as the checkpoints' profiles give it.
	specs := regexp.MustCompile(`(heterogeneous|homogeneous) team, [^\n]*\n(?:  [^\n]*\n)*?  (specialists: [^\n]*)\n`).FindAllStringSubmatch(out, -1)
	if len(specs) != 20 {
		t.Fatalf("%d specialists lines, want 20:\n%s", len(specs), out)
	}
	for k, m := range specs {
		team, seed := checkpointTeam(t, filepath.Join(dir, "seed"+seeds[k/2]), m[1])
		p, err := team.Profile(simulate.Params{}, 3, seed)
		if err != nil {
			t.Fatal(err)
		}
		if want := formatSpecialists(p.Specialists(simulate.SpecialistRatio), simulate.SpecialistRatio); m[2] != want {
			t.Errorf("seed%s %s team: %q, want %q (efforts %v)", seeds[k/2], m[1], m[2], want, p.Effort)
		}
	}
	// -csv: the same profiles at full precision, one row per run and team.
	csvPath := filepath.Join(t.TempDir(), "p.csv")
	code, out2, errOut := runArgs("inspect", "-dir", dir, "-episodes", "3", "-csv", csvPath)
	if code != exitOK || !strings.HasPrefix(out2, out) || !strings.HasSuffix(out2, "wrote "+csvPath+"\n") {
		t.Fatalf("inspect -csv: exit %d, stderr %q, stdout\n%s", code, errOut, out2)
	}
	recs := readCSV(t, readFile(t, csvPath))
	wantHeader := "run,team,iteration,episodes,steps,return,effort_1_1,effort_1_2,effort_2_1,effort_2_2,covered_0,covered_1,covered_2,diversity"
	if strings.Join(recs[0], ",") != wantHeader || len(recs) != 21 {
		t.Fatalf("CSV header %v and %d rows, want %s and 20 rows", recs[0], len(recs)-1, wantHeader)
	}
	for k, r := range recs[1:] {
		m := teams[k]
		if r[0] != filepath.Join(dir, "seed"+seeds[k/2]) || r[1] != m[1] || r[2] != "1" || r[3] != "3" || r[4] != "3" {
			t.Errorf("CSV row %d: %v", k+1, r)
		}
		v := make([]float64, 9) // return, 4 efforts, 3 coverages, diversity
		for c, group := range []int{10, 2, 3, 4, 5, 6, 7, 8, 9} {
			v[c] = parseFloat(t, r[c+5])
			if printed := parseFloat(t, m[group]); math.Abs(v[c]-printed) > 5e-4 {
				t.Errorf("CSV row %d column %s = %v, printed %v", k+1, recs[0][c+5], v[c], printed)
			}
		}
		if minMax := math.Min(math.Max(v[1], v[3]), math.Max(v[2], v[4])); math.Abs(v[0]-minMax) > 1e-12 {
			t.Errorf("CSV row %d: return %v, min∘max of its efforts %v", k+1, v[0], minMax)
		}
		// The matrix game's observation is the same in every episode, so
		// the deterministic policy plays one A, and the diversity is the
		// distance between the mean rows.
		if d := (math.Abs(v[1]-v[3]) + math.Abs(v[2]-v[4])) / 2; math.Abs(v[8]-d) > 1e-12 {
			t.Errorf("CSV row %d: diversity %v, half the L1 distance between its rows %v", k+1, v[8], d)
		}
	}

	// -plot: one panel per run and team, two to a row: 10 rows for 10
	// runs, as wide as the figure of one run.
	decodePlot := func(dir string) image.Rectangle {
		t.Helper()
		pngPath := filepath.Join(t.TempDir(), "p.png")
		code, out, errOut := runArgs("inspect", "-dir", dir, "-episodes", "3", "-plot", pngPath)
		if code != exitOK || !strings.HasSuffix(out, "wrote "+pngPath+"\n") {
			t.Fatalf("inspect -plot: exit %d, stderr %q, stdout\n%s", code, errOut, out)
		}
		f, err := os.Open(pngPath)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		img, err := png.Decode(f)
		if err != nil {
			t.Fatalf("-plot wrote no PNG: %v", err)
		}
		return img.Bounds()
	}
	ten, single := decodePlot(dir), decodePlot(filepath.Join(dir, "seed2"))
	if ten.Dx() != single.Dx() || ten.Dy() < 8*single.Dy() || ten.Dy() > 10*single.Dy() {
		t.Errorf("-plot: %d x %d pixels for 10 runs, %d x %d for one", ten.Dx(), ten.Dy(), single.Dx(), single.Dy())
	}

	// One run directory alone.
	code, one, _ := runArgs("inspect", "-dir", filepath.Join(dir, "seed2"), "-episodes", "3")
	if code != exitOK || !strings.HasPrefix(one, filepath.Join(dir, "seed2")+":") || strings.Count(one, "heterogeneous team") != 1 {
		t.Errorf("inspect one run: exit %d\n%s", code, one)
	}
	// -seed plays every run from the seed given, 0 included.
	for _, seed := range []string{"0", "7"} {
		code, out, _ := runArgs("inspect", "-dir", dir, "-episodes", "3", "-seed", seed)
		if n := strings.Count(out, "3 episodes from seed "+seed+"\n"); code != exitOK || n != 10 {
			t.Errorf("inspect -seed %s: exit %d, %d of 10 runs from that seed\n%s", seed, code, n, out)
		}
	}
}

// TestInspectCSVShapes refuses a table of runs of different sizes, as
// their spec.json files record them, before playing any run.
func TestInspectCSVShapes(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ sub, n string }{{"a", "2"}, {"b", "3"}, {"c", "2"}} {
		args := trainArgs(filepath.Join(dir, c.sub), "-seeds", "1", "-iterations", "1", "-quiet", "-N", c.n)
		if code, _, errOut := runArgs(args...); code != exitOK {
			t.Fatalf("train: exit %d, stderr %q", code, errOut)
		}
	}
	csvPath := filepath.Join(dir, "p.csv")
	code, out, errOut := runArgs("inspect", "-dir", dir, "-episodes", "2", "-csv", csvPath)
	want := "-csv: " + filepath.Join(dir, "b", "seed1") + " has N = 3, M = 2, " + filepath.Join(dir, "a", "seed1") + " N = 2, M = 2; inspect them separately"
	if code != exitError || !strings.Contains(errOut, want) {
		t.Errorf("mixed sizes: exit %d, stderr %q, want %q", code, errOut, want)
	}
	if out != "" {
		t.Errorf("mixed sizes: runs played\n%s\nwant none", out)
	}
	if _, err := os.Stat(csvPath); err == nil {
		t.Error("mixed sizes: the CSV was written")
	}
}

func TestInspectErrors(t *testing.T) {
	empty := t.TempDir()
	run := filepath.Join(t.TempDir(), "run")
	if code, _, errOut := runArgs(trainArgs(run, "-seeds", "1", "-iterations", "1", "-quiet")...); code != exitOK {
		t.Fatalf("train: exit %d, stderr %q", code, errOut)
	}
	if err := os.WriteFile(filepath.Join(empty, "note.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"inspect"}, exitUsage, "-dir is required"},
		{[]string{"inspect", "-dir", run, "-episodes", "0"}, exitUsage, "-episodes 0"},
		{[]string{"inspect", "-dir", run, "-task-params", "drag"}, exitUsage, `"drag" is not NAME=VALUE`},
		{[]string{"inspect", "-dir", run, "-task-params", "shaping=0"}, exitUsage, "shaping"},
		{[]string{"inspect", "-dir", empty}, exitError, "no run checkpoint"},
		{[]string{"inspect", "-dir", filepath.Join(empty, "none")}, exitError, "is not a directory"},
		{[]string{"inspect", "-dir", run, "extra"}, exitUsage, `unexpected argument "extra"`},
		{[]string{"inspect", "-dir", run, "-plot", "p.bmp"}, exitUsage, `-plot: "p.bmp": want a file name ending in .png`},
		{[]string{"inspect", "-dir", run, "-plot", filepath.Join(empty, "none", "p.png")}, exitError, "none"},
	} {
		code, _, errOut := runArgs(c.args...)
		if code != c.code || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", c.args, code, errOut, c.code, c.want)
		}
	}
	// An output that cannot be written is found before the runs are
	// played: nothing is printed.
	for _, flag := range []string{"-csv", "-plot"} {
		path := filepath.Join(empty, "none", "p.png")
		code, out, errOut := runArgs("inspect", "-dir", run, flag, path)
		if code != exitError || out != "" || !strings.Contains(errOut, flag+" "+path+": cannot write there") {
			t.Errorf("%s in a missing directory: exit %d, stdout %q, stderr %q", flag, code, out, errOut)
		}
	}
	// A checkpoint that neither a paired run nor HetGPS can read is
	// reported once.
	junk := t.TempDir()
	if err := os.WriteFile(filepath.Join(junk, "checkpoint.gob"), []byte("junk"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := runArgs("inspect", "-dir", junk)
	if code != exitError || strings.Count(errOut, "invalid checkpoint") != 1 {
		t.Errorf("junk checkpoint: exit %d, stderr %q; want exit %d and one \"invalid checkpoint\"", code, errOut, exitError)
	}
}

func TestNaturalLess(t *testing.T) {
	for _, c := range []struct {
		a, b string
		less bool
	}{
		{"seed2", "seed10", true},
		{"seed10", "seed2", false},
		{"a/seed9/x", "a/seed10", true},
		{"mean-max/seed3", "min-max/seed1", true},
		{"seed1", "seed1", false},
		{"seed", "seed1", true},
		{"seed007", "seed8", true},
		{"seed99999999999999999999999", "seed100000000000000000000000", true},
	} {
		if got := naturalLess(c.a, c.b); got != c.less {
			t.Errorf("naturalLess(%q, %q) = %v, want %v", c.a, c.b, got, c.less)
		}
	}
}

// TestInspectHetGPS inspects a HetGPS run: its teams play at the θ the
// run ended with, which the header gives as the log's last θ.
func TestInspectHetGPS(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "hg")
	if code, _, errOut := runArgs(hetgpsTinyArgs(dir, "-seeds", "1", "-quiet")...); code != exitOK {
		t.Fatalf("hetgps: exit %d, stderr %q", code, errOut)
	}
	code, out, errOut := runArgs("inspect", "-dir", dir, "-episodes", "2")
	if code != exitOK {
		t.Fatalf("inspect: exit %d, stderr %q", code, errOut)
	}
	log, _, err := learn.ReadHetGPSLog(filepath.Join(dir, "matrix", "seed1"))
	if err != nil {
		t.Fatal(err)
	}
	last := log[len(log)-1].Theta
	want := fmt.Sprintf("HetGPS θ: {T.t=%v U.t=%v}\n", last[0], last[1])
	if !strings.Contains(out, filepath.Join(dir, "matrix", "seed1")+": matrix-cont N=2 M=2") || !strings.Contains(out, want) ||
		strings.Count(out, "homogeneous team, mean effort") != 1 {
		t.Errorf("inspect of a HetGPS run:\n%s\nwant the header %q", out, want)
	}
}

// FuzzNaturalLess checks that naturalLess is a strict ordering: never
// a < a, never both a < b and b < a, and a < b < c implies a < c.
func FuzzNaturalLess(f *testing.F) {
	f.Add("seed2", "seed10", "seed9")
	f.Add("a/seed007/x", "a/seed7", "a/seed7/x")
	f.Add("", "1", "01")
	f.Fuzz(func(t *testing.T, a, b, c string) {
		if naturalLess(a, a) {
			t.Errorf("naturalLess(%q, %q) is true", a, a)
		}
		if naturalLess(a, b) && naturalLess(b, a) {
			t.Errorf("%q and %q are each less than the other", a, b)
		}
		if naturalLess(a, b) && naturalLess(b, c) && !naturalLess(a, c) {
			t.Errorf("%q < %q < %q but not %q < %q", a, b, c, a, c)
		}
	})
}

// checkpointTeam loads the run in dir and returns its team of the kind
// inspect names ("heterogeneous" or "homogeneous") and the run's seed.
func checkpointTeam(t *testing.T, dir, kind string) (*learn.Team, int64) {
	t.Helper()
	pair, err := learn.LoadPair(dir)
	if err != nil {
		t.Fatal(err)
	}
	if kind == "homogeneous" {
		return pair.Hom(), pair.Spec().Team.Seed
	}
	return pair.Het(), pair.Spec().Team.Seed
}

// TestFormatSpecialists checks the line inspect prints for a team that
// split and for one that did not.
func TestFormatSpecialists(t *testing.T) {
	if got, want := formatSpecialists([]int{1, 0}, 2), "specialists: agent 1 on task 2, agent 2 on task 1 (each at least 2 times as much on it as on any other task)"; got != want {
		t.Errorf("formatSpecialists([1 0], 2) = %q, want %q", got, want)
	}
	if got, want := formatSpecialists(nil, 2.5), "specialists: none (no split in which each agent works at least 2.5 times as much on a task of its own as on any other)"; got != want {
		t.Errorf("formatSpecialists(nil, 2.5) = %q, want %q", got, want)
	}
}
