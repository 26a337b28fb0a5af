package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/hetgain/hetgain/aggregators"
	"github.com/hetgain/hetgain/simulate"
)

// TestScriptedMatchesClassGain runs scripted on one pair and checks its
// CSV and its line against simulate.ClassGain called directly on the same
// game, chasers and episodes.
func TestScriptedMatchesClassGain(t *testing.T) {
	path := filepath.Join(t.TempDir(), "teams.csv")
	code, out, errOut := runArgs("scripted", "-env", "tag-vmas", "-u", "min", "-t", "max", "-episodes", "64", "-seed", "3", "-csv", path)
	if code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	g, err := simulate.TagVMAS2v2(64, aggregators.NewReward(aggregators.Min{}, aggregators.Max{}))
	if err != nil {
		t.Fatal(err)
	}
	if err := g.SetParams(simulate.Params{Names: []string{"shaping", "penalty"}, Values: []float64{0, 0}}); err != nil {
		t.Fatal(err)
	}
	run := scriptedRun{env: "tag-vmas", n: 2, m: 2, gain: 10, episodes: 64, seed: 3}
	want, err := simulate.ClassGain(g, run.candidates(), []int64{3})
	if err != nil {
		t.Fatal(err)
	}
	recs := readCSV(t, readFile(t, path))
	if got := strings.Join(recs[0], ","); got != "U,T,Team,Alike,Return,StdErr,Best,BestAlike,Episodes" || len(recs) != 10 {
		t.Fatalf("CSV header %s and %d rows, want 9 teams", got, len(recs)-1)
	}
	wantTeams := []string{"n,n", "n,1", "n,2", "1,n", "1,1", "1,2", "2,n", "2,1", "2,2"}
	for k, r := range recs[1:] {
		ret, _ := strconv.ParseFloat(r[4], 64)
		se, _ := strconv.ParseFloat(r[5], 64)
		if r[0] != "min" || r[1] != "max" || r[2] != wantTeams[k] || r[3] != strconv.FormatBool(want.Alike(k)) ||
			ret != want.Returns[k] || se != want.StdErrs[k] || r[6] != strconv.FormatBool(k == want.Best) ||
			r[7] != strconv.FormatBool(k == want.BestAlike) || r[8] != "64" {
			t.Errorf("CSV row %d: %v; want team %s, return %v ± %v (best %d, best alike %d)", k+1, r, wantTeams[k], want.Returns[k], want.StdErrs[k], want.Best, want.BestAlike)
		}
	}
	if line := formatScriptedPair(scriptedPair{aggregators.Min{}, aggregators.Max{}, want}); !strings.Contains(out, line+"\n") {
		t.Errorf("stdout lacks %q:\n%s", line, out)
	}
	if !strings.Contains(out, "tag-vmas N=2 M=2 shaping=0,penalty=0: 9 teams") {
		t.Errorf("stdout lacks the header:\n%s", out)
	}
}

// TestScriptedPairsAndParams checks the nine default pairs, in order, and
// that -task-params ” plays the game's own reward (with the distance
// term, so lower returns than on the capture reward alone).
func TestScriptedPairsAndParams(t *testing.T) {
	code, out, errOut := runArgs("scripted", "-env", "tag", "-episodes", "16")
	if code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	var pairs []string
	for _, line := range strings.Split(out, "\n") {
		if u, rest, ok := strings.Cut(line, "∘"); ok {
			pairs = append(pairs, u+"∘"+strings.SplitN(rest, ":", 2)[0])
		}
	}
	if got := strings.Join(pairs, " "); got != "min∘min min∘mean min∘max mean∘min mean∘mean mean∘max max∘min max∘mean max∘max" {
		t.Errorf("pairs %s, want the nine in order", got)
	}
	alone := scriptedReturn(t, "-task-params", "shaping=0,penalty=0")
	own := scriptedReturn(t, "-task-params", "")
	if !(own < alone) {
		t.Errorf("best return with the game's own reward %v, on the capture reward alone %v; want the distance term to lower it", own, alone)
	}
}

// scriptedReturn returns the best team's return of tag mean∘max, 16
// episodes, with extra flags.
func scriptedReturn(t *testing.T, extra ...string) float64 {
	t.Helper()
	path := filepath.Join(t.TempDir(), "s.csv")
	code, _, errOut := runArgs(append([]string{"scripted", "-env", "tag", "-u", "mean", "-t", "max", "-episodes", "16", "-csv", path}, extra...)...)
	if code != exitOK {
		t.Fatalf("%v: exit %d, stderr %q", extra, code, errOut)
	}
	for _, r := range readCSV(t, readFile(t, path))[1:] {
		if r[6] == "true" {
			v, err := strconv.ParseFloat(r[4], 64)
			if err != nil {
				t.Fatal(err)
			}
			return v
		}
	}
	t.Fatal("no best team in the CSV")
	return 0
}

// TestScriptedErrors checks that bad flags are usage errors naming the
// flag.
func TestScriptedErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-episodes", "300"}, "-episodes 300"},
		{[]string{"-episodes", "0"}, "-episodes"},
		{[]string{"-gain", "0"}, "-gain"},
		{[]string{"-gain", "NaN"}, "-gain"},
		{[]string{"-sigma", "-1"}, "-sigma"},
		{[]string{"-n", "0"}, "-n"},
		{[]string{"-m", "0"}, "-m"},
		{[]string{"-n", "12"}, "teams"},
		{[]string{"-task-params", "bogus=1"}, "-task-params"},
		{[]string{"-env", "capture"}, "-env"},
		{[]string{"-u", "nope"}, "-u"},
		{[]string{"extra"}, "extra"},
	} {
		code, _, errOut := runArgs(append([]string{"scripted"}, c.args...)...)
		if code != exitUsage || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want a usage error naming %q", c.args, code, errOut, c.want)
		}
	}
}

// TestScriptedInterrupted checks that a cancelled run stops before its
// next pair, exits as interrupted, and writes no CSV without a pair done.
func TestScriptedInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	path := filepath.Join(t.TempDir(), "s.csv")
	var out, errb bytes.Buffer
	code := newApp(ctx, &out, &errb).run([]string{"scripted", "-episodes", "16", "-csv", path})
	if code != exitInterrupted || strings.Contains(out.String(), "∘") {
		t.Errorf("exit %d, stdout %q; want %d and no pair", code, out.String(), exitInterrupted)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("CSV %s: %v; want none", path, err)
	}
}
