package main

import (
	"bytes"
	"encoding/csv"
	"flag"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hetgain/hetgain/aggregators"
	"github.com/hetgain/hetgain/gain"
	"github.com/hetgain/hetgain/learn"
	"github.com/hetgain/hetgain/reproduce"
	"gonum.org/v1/gonum/mat"
)

// runArgs runs hetgain in-process and returns its exit code and output.
func runArgs(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestMainHelp(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"-h"}, {"help"}} {
		code, out, errOut := runArgs(args...)
		if code != exitOK || errOut != "" {
			t.Errorf("%v: exit %d, stderr %q", args, code, errOut)
		}
		for _, c := range commandTable {
			if !strings.Contains(out, "\n  "+c.name+" ") || !strings.Contains(out, c.summary) {
				t.Errorf("%v: help does not list %s with its summary", args, c.name)
			}
		}
		for _, want := range []string{"Usage:", "Examples:", "hetgain gains -n 2,3 -m 2", "hetgain sweep -u softmax", "hetgain predict", "softmax(t)", "Exit status"} {
			if !strings.Contains(out, want) {
				t.Errorf("%v: help lacks %q", args, want)
			}
		}
	}
	// Without arguments: the same help, on stderr, as a usage error.
	code, out, errOut := runArgs()
	if code != exitUsage || out != "" || !strings.Contains(errOut, "Commands:") {
		t.Errorf("no arguments: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

func TestCommandHelp(t *testing.T) {
	for _, c := range commandTable {
		code, out, errOut := runArgs("help", c.name)
		if code != exitOK || errOut != "" {
			t.Errorf("help %s: exit %d, stderr %q", c.name, code, errOut)
		}
		for _, want := range []string{"Usage: hetgain " + c.name, "Examples:\n  hetgain " + c.name} {
			if !strings.Contains(out, want) {
				t.Errorf("help %s lacks %q:\n%s", c.name, want, out)
			}
		}
		fs := newFlagSet(c)
		c.setup(fs)
		fs.VisitAll(func(f *flag.Flag) {
			if !strings.Contains(out, "  -"+f.Name) {
				t.Errorf("help %s does not describe -%s", c.name, f.Name)
			}
		})
		if c.name == "help" {
			continue
		}
		for _, h := range []string{"-h", "-help", "--help"} {
			code2, out2, _ := runArgs(c.name, h)
			if code2 != exitOK || out2 != out {
				t.Errorf("%s %s: exit %d, output differs from 'help %s'", c.name, h, code2, c.name)
			}
		}
	}
	// -h after an operand, as after the command.
	_, reproduceHelp, _ := runArgs("help", "reproduce")
	for _, args := range [][]string{{"reproduce", "matrix2", "-h"}, {"reproduce", "hetgps", "softmax", "--help"}, {"reproduce", "tag", "-seeds", "2", "-help"}} {
		if code, out, errOut := runArgs(args...); code != exitOK || out != reproduceHelp || errOut != "" {
			t.Errorf("%v: exit %d, stderr %q, output differs from 'help reproduce'", args, code, errOut)
		}
	}
	for _, args := range [][]string{{"help", "football"}, {"help", "gains", "sweep"}} {
		if code, _, errOut := runArgs(args...); code != exitUsage || errOut == "" {
			t.Errorf("%v: exit %d, stderr %q", args, code, errOut)
		}
	}
}

// TestUsageErrors checks that bad command lines exit with status 2 and a
// message that names the culprit.
func TestUsageErrors(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"gainz"}, `unknown command "gainz"`},
		{[]string{"-n", "2"}, "flag -n before the command"},
		{[]string{"gains", "-bogus"}, "-bogus"},
		{[]string{"gains", "-n", "x"}, "-n"},
		{[]string{"gains", "-tol", "small"}, `invalid value "small" for flag -tol: want a number` + "\n"},
		{[]string{"train", "-dir", dir, "-seeds", "1.5"}, `invalid value "1.5" for flag -seeds: want a whole number` + "\n"},
		{[]string{"train", "-dir", dir, "-seeds", "99999999999999999999"}, `invalid value "99999999999999999999" for flag -seeds: out of range of a whole number` + "\n"},
		{[]string{"reproduce", "matrix", "-jobs", "two"}, `invalid value "two" for flag -jobs: want a whole number` + "\n"},
		{[]string{"gains", "-n", "0"}, "-n"},
		{[]string{"gains", "-m", "3-2"}, "-m"},
		{[]string{"gains", "-kind", "sideways"}, "-kind"},
		{[]string{"gains", "-method", "guess"}, "-method"},
		{[]string{"gains", "-format", "xml"}, "-format"},
		{[]string{"gains", "-u", "softplus(2)"}, "-u"},
		{[]string{"gains", "-t", "powersum(-1)"}, "-t"},
		{[]string{"gains", "-pairs", "min-max"}, "-pairs"},
		{[]string{"gains", "-pairs", "min/max", "-u", "min"}, "-pairs"},
		{[]string{"gains", "-restarts", "-1"}, "-restarts"},
		{[]string{"gains", "-tol", "inf"}, "-tol +Inf: want a finite number >= 0"},
		{[]string{"gains", "-tol", "nan"}, "-tol NaN: want a finite number >= 0"},
		{[]string{"gains", "-tol", "-1e-9"}, "-tol -1e-09: want a finite number >= 0"},
		{[]string{"sweep", "-out", dir, "-tol", "+Inf"}, "-tol +Inf: want a finite number >= 0"},
		{[]string{"gains", "-n", "2", "extra"}, `unexpected argument "extra" (flags start with -)` + "\n"},
		{[]string{"gains", "-m", "2", "--", "-n", "3"}, `unexpected argument "-n" after "--", which ends the flags: give flags before "--"` + "\n"},
		{[]string{"gains", "-", "-n", "3"}, `unexpected argument "-" (flags start with -)` + "\n"},
		{[]string{"reproduce", "matrix", "--", "-seeds", "2"}, `unexpected argument "-seeds" after "--", which ends the flags: give flags before "--"` + "\n"},
		{[]string{"gains", "-method", "closed", "-u", "softmax(2)"}, "no closed form for U = softmax(2)"},
		{[]string{"gains", "-method", "closed", "-restarts", "20"}, "-restarts steers the numerical optimiser, which -method closed does not run"},
		{[]string{"gains", "-method", "closed", "-seed", "7"}, "-seed steers the numerical optimiser"},
		{[]string{"gains", "-method", "closed", "-tol", "0.5"}, "-tol steers the numerical optimiser"},
		{[]string{"predict", "-u", "min"}, "-t"},
		{[]string{"predict", "-u", "min", "-t", "max", "-n", "0"}, "-n 0: want >= 1"},
		{[]string{"predict", "-u", "min", "-t", "max", "-m", "-2"}, "-m -2: want >= 1\n"},
		{[]string{"sweep", "-steps", "3"}, "-out"},
		{[]string{"sweep", "-out", dir, "-u", "min"}, "-u"},
		{[]string{"sweep", "-out", dir, "-t", "softmax(2)"}, "-t"},
		{[]string{"sweep", "-out", dir, "-steps", "0"}, "values of t"},
		{[]string{"sweep", "-out", dir, "-steps", "3", "-from", "0", "-to", "5e-324"},
			"3 values of t from 0 to 5e-324 (-steps or -t-steps, -from or -t-from, -to or -t-to) are not distinct: t[1] = 0 after t[0] = 0"},
		{[]string{"sweep", "-out", dir, "-u", "powersum", "-t", "powersum", "-tau-steps", "5", "-tau-from", "1", "-tau-to", "1.0000000000000004"},
			"5 values of τ from 1 to 1.0000000000000004 (-steps or -tau-steps, -from or -tau-from, -to or -tau-to) are not distinct"},
		{[]string{"sweep", "-out", dir, "-t-steps", "2", "-t-from", "1", "-t-to", "1"}, "2 values of t from 1 to 1"},
		{[]string{"sweep", "-out", dir, "-steps", "3", "-from", "-1e308", "-to", "1e308"}, "t[0] = NaN; give a narrower range"},
		{[]string{"sweep", "-out", dir, "-n", "0"}, "-n 0: want >= 1\n"},
		{[]string{"sweep", "-out", dir, "-m", "0"}, "-m 0: want >= 1\n"},
		{[]string{"sweep", "-out", dir, "-kind", "both"}, "-kind"},
		{[]string{"sweep", "-out", dir, "-workers", "-2"}, "-workers"},
		{[]string{"sweep", "-out", dir, "-resume", "-force"}, "-resume and -force"},
		{[]string{"sweep", "-out", dir, "-steps", "100000", "-n", "1", "-m", "1"}, "100000 values of t × 100000 of τ = 10000000000 cells: want at most 1000000"},
		{[]string{"sweep", "-out", dir, "-t-steps", "1001", "-tau-steps", "1000"}, "cells: want at most 1000000 (lower -steps, -t-steps or -tau-steps)"},
		{[]string{"sweep", "-out", dir, "-steps", "3", "-restarts", "2000000000"}, "-restarts 2000000000: want at most 10000"},
		{[]string{"sweep", "-out", dir, "-steps", "3", "-n", "128", "-m", "128", "-restarts", "2000"}, "restarts × N × M = 32768000 numbers; want at most 16777216"},
		{[]string{"sweep", "-out", dir, "-n", "1000", "-m", "1000"}, "want N × M at most 16384"},
		{[]string{"sweep", "-out", dir, "-workers", "100000000"}, "-workers 100000000: want at most 1024"},
		{[]string{"gains", "-u", "softmax(2)", "-t", "softmax(2)", "-method", "numerical", "-restarts", "2000000000"}, "-restarts 2000000000: want at most 10000"},
		{[]string{"gains", "-n", "100000000", "-m", "2"}, "want N × M at most 16384 for the numerical optimiser"},
		{[]string{"gains", "-n", "1-10000", "-m", "1-10000", "-method", "closed"}, "rows: want at most 100000"},
		{[]string{"gains", "-n", "2,3,2"}, "2 is given twice"},
		{[]string{"gains", "-m", "2-4", "-m", "3"}, "3 is given twice"},
		{[]string{"gains", "-n", "1-10000,1-10000"}, "more than 10000 numbers"},
		{[]string{"train"}, "-dir DIR is required"},
		{[]string{"train", "-dir", dir, "-env", "football"}, "-env"},
		{[]string{"train", "-dir", dir, "-U", "softplus"}, "-U"},
		{[]string{"train", "-dir", dir, "-T", "powersum(-1)"}, "-T"},
		{[]string{"train", "-dir", dir, "-N", "0"}, "hetgain train: -N 0: want >= 1\n"},
		{[]string{"train", "-dir", dir, "-M", "-1"}, "hetgain train: -M -1: want >= 1\n"},
		{[]string{"train", "-dir", dir, "-iterations", "0"}, "hetgain train: -iterations 0: want >= 1\n"},
		{[]string{"train", "-dir", dir, "-eval-every", "-1"}, "hetgain train: -eval-every -1: want >= 0\n"},
		{[]string{"train", "-dir", dir, "-eval-episodes", "-1"}, "hetgain train: -eval-episodes -1: want >= 0\n"},
		{[]string{"train", "-dir", dir, "-env", "capture", "-discrete"}, "-discrete applies to -env matrix only"},
		{[]string{"train", "-dir", dir, "-env", "tag", "-sensor"}, "-sensor applies to -env capture only (tag has no range sensor)"},
		{[]string{"train", "-dir", dir, "-env", "capture", "-env-params", "sensor.range=0.2"}, `-env-params: capture has no parameter "sensor.range"`},
		{[]string{"train", "-dir", dir, "-env", "capture", "-sensor", "-env-params", "sensor.range=-1"}, "sensor.range"},
		{[]string{"train", "-dir", dir, "-env", "capture", "-M", "4"}, "hetgain train: -M 4: capture places at most 3 goals (0.8 apart on their line); more goals need fixed positions, which only Go code gives (simulate.CaptureConfig.FixedGoals)\n"},
		{[]string{"train", "-dir", dir, "-env", "capture", "-N", "29"}, "hetgain train: -N 29: capture places at most 28 agents (0.15 apart in their spawn area)\n"},
		{[]string{"train", "-dir", dir, "-team", "all"}, "-team"},
		{[]string{"train", "-dir", dir, "-seeds", "0"}, "hetgain train: -seeds 0: want >= 1\n"},
		{[]string{"train", "-dir", dir, "-hidden", "64,0"}, "-hidden"},
		{[]string{"train", "-dir", dir, "-lr", "-1"}, "-lr"},
		{[]string{"train", "-dir", dir, "-envs", "-3"}, "-envs"},
		{[]string{"train", "-dir", dir, "-plot", "curves"}, "-plot"},
		{[]string{"train", "-dir", dir, "extra"}, `unexpected argument "extra"`},
		{[]string{"train", "-dir", dir, "-seeds", "1000000000"}, "-seeds 1000000000: want at most 10000"},
		{[]string{"train", "-dir", dir, "-iterations", "2000000"}, "-iterations 2000000: want at most 1000000"},
		{[]string{"train", "-dir", dir, "-N", "1000", "-M", "1000"}, "-N 1000: want at most 256"},
		{[]string{"train", "-dir", dir, "-hidden", "100000,100000"}, "-hidden \"100000,100000\": want layer widths from 1 to 16384"},
		{[]string{"train", "-dir", dir, "-hidden", "1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1"}, "17 layers; want at most 16"},
		{[]string{"train", "-dir", dir, "-N", "4", "-M", "4", "-hidden", "4096,4096"}, "-N 4 -M 4 -hidden 4096,4096 -frames-per-iter 1600 -envs 64 -workers 1 -minibatch 400 -eval-episodes 32: the two teams would need about"},
		{[]string{"train", "-dir", dir, "-env", "tag", "-envs", "400000"}, "GB of memory; want at most 4 GB"},
		// The rollouts' forward passes over a million environments at once
		// (this one ran out of memory past 4.7 GB before the estimate
		// counted them).
		{[]string{"train", "-dir", dir, "-envs", "1000000"}, "the two teams would need about 6.44 GB of memory"},
		{[]string{"train", "-dir", dir, "-env", "tag", "-envs", "1000000"}, "hetgain train: -envs 1000000: tag would keep 1000000·2·18 values, more than simulate.MaxEnvValues = 16777216 (want at most 466033)\n"},
		{[]string{"train", "-dir", dir, "-eval-episodes", "100000000"}, "-eval-episodes 100000000: want at most 1000000"},
		{[]string{"train", "-dir", dir, "-task-episodes", "-1"}, "-task-episodes -1: it sizes the -task-params evaluation; give -task-params too"},
		{[]string{"train", "-dir", dir, "-task-params", "x=1", "-task-episodes", "100000000"}, "-task-episodes 100000000: want at most 1000000"},
		{[]string{"train", "-dir", dir, "-envs", "100000000"}, "-envs 100000000: want at most 1000000"},
		{[]string{"train", "-dir", dir, "-N", "4", "-M", "5", "-eval-episodes", "900000"}, "hetgain train: -eval-episodes 900000: matrix would keep 900000·4·5 values, more than simulate.MaxEnvValues = 16777216 (want at most 838860)\n"},
		{[]string{"train", "-dir", dir, "-env", "tag", "-task-params", "shaping=0", "-task-episodes", "600000"}, "hetgain train: -task-episodes 600000: tag would keep 600000·2·18 values, more than simulate.MaxEnvValues"},
		{[]string{"train", "-dir", dir, "-frames-per-iter", "1000000000"}, "-frames-per-iter 1000000000: want at most 10000000"},
		{[]string{"train", "-dir", dir, "-epochs", "1000000000"}, "-epochs 1000000000: want at most 10000"},
		{[]string{"train", "-dir", dir, "-workers", "10000000"}, "-workers 10000000: want at most 1024"},
		{[]string{"train", "-dir", dir, "-minibatch", "100000"}, "-minibatch 100000: an iteration has 1600 frames"},
		{[]string{"train", "-dir", dir, "-hidden", ""}, `-hidden "": want layer widths`},
		{[]string{"gains", "-u", ""}, "-u: empty: want operators"},
		{[]string{"gains", "-t", " "}, "-t: empty: want operators"},
		{[]string{"gains", "-pairs", ""}, "-pairs: empty: want pairs U/T"},
		{[]string{"hetgps", "-dir", dir, "-x", "0"}, "hetgain hetgps: -x 0: want >= 1\n"},
		{[]string{"hetgps", "-dir", dir, "-y", "-1"}, "hetgain hetgps: -y -1: want >= 1\n"},
		{[]string{"hetgps", "-dir", dir, "-seeds", "0"}, "hetgain hetgps: -seeds 0: want >= 1\n"},
		{[]string{"hetgps", "-dir", dir, "-iterations", "0"}, "hetgain hetgps: -iterations 0: want >= 1\n"},
		{[]string{"hetgps", "-dir", dir, "-grad-episodes", "0"}, "hetgain hetgps: -grad-episodes 0: want >= 1\n"},
		{[]string{"hetgps", "-dir", dir, "-episode-length", "-1"}, "hetgain hetgps: -episode-length -1: want >= 0\n"},
		{[]string{"hetgps", "-dir", dir, "-N", "0"}, "hetgain hetgps: -N 0: want >= 1\n"},
		{[]string{"hetgps", "-dir", dir, "-M", "0"}, "hetgain hetgps: -M 0: want >= 1\n"},
		{[]string{"hetgps", "-dir", dir, "-warmup", "-1"}, "hetgain hetgps: -warmup -1: want >= 0\n"},
		{[]string{"hetgps", "-dir", dir, "-warmup", "300"}, "-iterations 200 -warmup 300 -x 1: θ would first step at iteration 301 (-warmup + -x); want more -iterations, or a smaller -warmup or -x\n"},
		{[]string{"hetgps", "-dir", dir, "-schedule", "alternated", "-x", "200"}, "-iterations 200 -warmup 0 -x 200: θ would first step at iteration 201 (-warmup + -x + 1, with -schedule alternated)"},
		{[]string{"hetgps", "-dir", dir, "-schedule", "alternated", "-warmup", "9223372036854775807", "-x", "9223372036854775807"}, "θ would first step at iteration 18446744073709551615"},
		{[]string{"hetgps", "-dir", dir, "-sum-difference", "-params", "T.t"}, "hetgain hetgps: -sum-difference: -params T.t has 1 parameter(s); want exactly 2\n"},
		{[]string{"hetgps", "-dir", dir, "-params", "T.t,U.t,T.t"}, `hetgain hetgps: -params T.t,U.t,T.t: "T.t" is given twice` + "\n"},
		{[]string{"hetgps", "-dir", dir, "-params", " "}, `hetgain hetgps: -params " ": want at least one parameter to search, as T.t (matrix has U.t, T.t)` + "\n"},
		{[]string{"hetgps", "-dir", dir, "-bounds", "T.t=1:2"}, "hetgain hetgps: -bounds: T.t starts at 0, outside (1, 2); want LO < 0 < HI\n"},
		{[]string{"hetgps", "-dir", dir, "-clamp", "U.t=-2:0"}, "hetgain hetgps: -clamp: U.t starts at 0, outside (-2, 0); want LO < 0 < HI\n"},
		{[]string{"hetgps", "-dir", dir, "-bounds", "T.t=-1:2", "-clamp", "T.t=-3:1"}, "hetgain hetgps: -clamp: T.t's [-3, 1] reaches outside its -bounds (-1, 2)\n"},
		{[]string{"hetgps", "-dir", dir, "-env", "capture", "-M", "4"}, "hetgain hetgps: -M 4: capture places at most 3 goals (0.8 apart on their line); more goals need fixed positions, which only Go code gives (simulate.CaptureConfig.FixedGoals)\n"},
		{[]string{"hetgps", "-dir", dir, "-env", "capture", "-N", "29"}, "hetgain hetgps: -N 29: capture places at most 28 agents (0.15 apart in their spawn area)\n"},
		{[]string{"hetgps", "-dir", dir, "-env", "tag", "-N", "4", "-M", "5", "-grad-episodes", "900000"}, "hetgain hetgps: -grad-episodes 900000: tag would keep 900000·4·34 values, more than simulate.MaxEnvValues = 16777216 (want at most 123361)\n"},
		{[]string{"hetgps", "-dir", dir, "-env", "tag", "-envs", "1000000"}, "hetgain hetgps: -envs 1000000: tag would keep 1000000·2·18 values"},
		{[]string{"hetgps", "-dir", dir, "-episode-length", "5"}, "-episode-length 5: the matrix game's episodes are one step"},
		{[]string{"hetgps", "-dir", dir, "-sensor"}, "-sensor applies to -env capture only (matrix has no range sensor)"},
		{[]string{"hetgps", "-dir", dir, "-grad-episodes", "100000000"}, "-grad-episodes 100000000: want at most 1000000"},
		{[]string{"hetgps", "-dir", dir, "-env", "capture", "-episode-length", "100000000"}, "-episode-length 100000000: want at most 100000"},
		{[]string{"hetgps", "-dir", dir, "-env", "capture", "-episode-length", "100000"}, "-grad-episodes 32 -episode-length 100000: the two teams would need about"},
		{[]string{"inspect", "-dir", dir, "-episodes", "100000000"}, "-episodes 100000000: want at most 1000000"},
		{[]string{"reproduce", "matrix2", "-jobs", "1000000000"}, "-jobs 1000000000: want at most 256"},
		{[]string{"reproduce", "matrix2", "-seeds", "1000000000", "-table"}, "-seeds 1000000000: want at most 10000"},
		{[]string{"reproduce", "matrix2", "-iterations", "2000000"}, "-iterations 2000000: want at most 1000000"},
		{[]string{"reproduce", "hetgps", "softmax", "-jobs", "256", "-seeds", "100", "-dir", dir}, "-jobs 256: 256 runs at once would need about"},
		{[]string{"reproduce", "hetgps", "softmax", "-seeds", "1000000000", "-table"}, "-seeds 1000000000: want at most 10000"},
		{[]string{"reproduce"}, "which experiment? want one of matrix, matrix4, matrix2, matrix8, matrix11x2, capture, tag"},
		{[]string{"reproduce", "football"}, `unknown experiment "football"`},
		{[]string{"reproduce", "matrix", "-jobs", "0"}, "hetgain reproduce: -jobs 0: want >= 1\n"},
		{[]string{"reproduce", "matrix2", "-jobs", "0", "-seeds", "-1"}, "hetgain reproduce: -jobs 0: want >= 1\n"},
		{[]string{"reproduce", "matrix", "-seeds", "-1"}, "hetgain reproduce: -seeds -1: want >= 0\n"},
		{[]string{"reproduce", "matrix", "-iterations", "-1"}, "hetgain reproduce: -iterations -1: want >= 0\n"},
		{[]string{"reproduce", "matrix", "-first-seed", "-1"}, "hetgain reproduce: -first-seed -1: want >= 0\n"},
		{[]string{"reproduce", "matrix2", "-dir", dir, "-first-seed", "3", "-seeds", "2"}, "hetgain reproduce: -first-seed 3: want 0 to -seeds (2)\n"},
		{[]string{"reproduce", "matrix2", "-dir", dir, "-first-seed", "4"}, "hetgain reproduce: -first-seed 4: over the 3 seeds per cell; give -seeds too\n"},
		{[]string{"reproduce", "hetgps", "softmax", "-dir", dir, "-first-seed", "3", "-seeds", "2"}, "hetgain reproduce: -first-seed 3: want 0 to -seeds (2)\n"},
		{[]string{"reproduce", "matrix", "-bogus"}, "-bogus"},
		{[]string{"reproduce", "matrix", "capture"}, `unexpected argument "capture"`},
		{[]string{"reproduce", "hetgps"}, "which HetGPS experiment? want one of softmax|powersum|adverse|descent|all"},
		{[]string{"reproduce", "hetgps", "-seeds", "2"}, "which HetGPS experiment?"},
		{[]string{"reproduce", "hetgps", "softmax", "-bogus"}, "-bogus"},
		{[]string{"hetgps", "-dir", dir, "-U", "min", "-T", "max"}, `no parameter "T.t" (it has none: with -U and -T such as min and max`},
	} {
		code, out, errOut := runArgs(c.args...)
		if code != exitUsage || out != "" || !strings.Contains(errOut, c.want) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2 and %q", c.args, code, out, errOut, c.want)
		}
		if c.args[0] != "gainz" && c.args[0] != "-n" && !strings.Contains(errOut, "Run 'hetgain help "+c.args[0]+"' for usage.") {
			t.Errorf("%q: stderr %q does not point to the help", c.args, errOut)
		}
	}
}

// readCSV parses CSV output, failing the test on error.
func readCSV(t *testing.T, s string) [][]string {
	t.Helper()
	recs, err := csv.NewReader(strings.NewReader(s)).ReadAll()
	if err != nil {
		t.Fatalf("output is not CSV: %v\n%s", err, s)
	}
	return recs
}

func parseFloat(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("%q is not a float", s)
	}
	return v
}

var allocationKinds = map[string]gain.Allocation{"continuous": gain.Continuous, "discrete": gain.Discrete}

func TestGainsClosedMatchesClosedForm(t *testing.T) {
	code, out, errOut := runArgs("gains", "-n", "2", "-m", "2", "-method", "closed", "-format", "csv")
	if code != exitOK || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	recs := readCSV(t, out)
	if got := strings.Join(recs[0], ","); got != "U,T,N,M,Allocation,RHet,RHom,Gain,HetAlloc,HomRow" {
		t.Fatalf("header %s", got)
	}
	if len(recs) != 1+18 {
		t.Fatalf("%d rows, want 18", len(recs)-1)
	}
	for _, r := range recs[1:] {
		g, err := gain.ClosedForm(aggregators.MustParse(r[0]), aggregators.MustParse(r[1]), 2, 2, allocationKinds[r[4]])
		if err != nil {
			t.Fatal(err)
		}
		if r[2] != "2" || r[3] != "2" || parseFloat(t, r[5]) != g.Het || parseFloat(t, r[6]) != g.Hom || parseFloat(t, r[7]) != g.Delta ||
			r[8] != gain.FormatAllocationExact(g.HetAlloc) || r[9] != gain.FormatAllocationExact(g.HomRow) {
			t.Errorf("row %v, closed form %+v", r, g)
		}
	}
}

func TestGainsNumericalBesideClosedForm(t *testing.T) {
	code, out, errOut := runArgs("gains", "-n", "2", "-m", "2", "-format", "csv", "-seed", "3")
	if code != exitOK || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	recs := readCSV(t, out)
	if got := strings.Join(recs[0], ","); got != strings.Join(gain.NumericalTableColumns, ",") {
		t.Fatalf("header %s", got)
	}
	if len(recs) != 1+18 {
		t.Fatalf("%d rows, want 18", len(recs)-1)
	}
	for _, r := range recs[1:] {
		g, err := gain.ClosedForm(aggregators.MustParse(r[0]), aggregators.MustParse(r[1]), 2, 2, allocationKinds[r[4]])
		if err != nil {
			t.Fatal(err)
		}
		cf, num, diff := parseFloat(t, r[5]), parseFloat(t, r[6]), parseFloat(t, r[7])
		if cf != g.Delta || math.Abs(num-cf) > 1e-9 || diff != num-cf {
			t.Errorf("row %v: closed form %v", r, g.Delta)
		}
	}

	// -method numerical: the numerical columns only.
	code, out, _ = runArgs("gains", "-n", "2", "-m", "2", "-format", "csv", "-seed", "3", "-method", "numerical", "-kind", "discrete")
	recs = readCSV(t, out)
	if code != exitOK || strings.Join(recs[0], ",") != "U,T,N,M,Allocation,RHet,RHom,Gain,HetAlloc,HomRow" || len(recs) != 10 {
		t.Errorf("-method numerical: exit %d, header %v, %d rows", code, recs[0], len(recs)-1)
	}
}

// TestGainsCSVFullPrecision checks that the CSV output parses back to the
// very floats that gain.NumericalTable computes.
func TestGainsCSVFullPrecision(t *testing.T) {
	code, out, errOut := runArgs("gains", "-pairs", "powersum(0.5)/powersum(2), softmax(-1)/softmax(3)", "-n", "3", "-m", "2",
		"-kind", "continuous", "-seed", "5", "-format", "csv")
	if code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	pairs := [][2]aggregators.Operator{
		{aggregators.MustParse("powersum(0.5)"), aggregators.MustParse("powersum(2)")},
		{aggregators.MustParse("softmax(-1)"), aggregators.MustParse("softmax(3)")},
	}
	df, err := gain.NumericalTable([]int{3}, []int{2}, pairs, []gain.Allocation{gain.Continuous}, &gain.Options{Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	recs := readCSV(t, out)
	if len(recs) != df.Nrow()+1 {
		t.Fatalf("%d rows, want %d", len(recs)-1, df.Nrow())
	}
	fractional := false
	for i, r := range recs[1:] {
		for _, col := range []int{6, 8, 9} { // Numerical, RHet, RHom
			want := df.Elem(i, col).Float()
			if got := parseFloat(t, r[col]); math.Float64bits(got) != math.Float64bits(want) {
				t.Errorf("row %d, %s: %q parses to %v, want %v", i, recs[0][col], r[col], got, want)
			}
			fractional = fractional || len(r[col]) > 10
		}
		if r[5] != "NaN" || r[7] != "NaN" {
			t.Errorf("row %d: ClosedForm %q, Difference %q; want NaN", i, r[5], r[7])
		}
		for _, col := range []int{10, 11} { // HetAlloc, HomRow
			if want := df.Elem(i, col).String(); r[col] != want {
				t.Errorf("row %d, %s: %q, want %q", i, recs[0][col], r[col], want)
			}
		}
	}
	if !fractional {
		t.Error("no value with many digits: the test does not test precision")
	}
}

// TestGainsCSVAllocationsFullPrecision checks that the allocations in the
// CSV, closed form and numerical, carry their entries at full precision:
// the homogeneous optimum of min∘max with M = 3 is (1/3, 1/3, 1/3), which
// was written as 0.3333.
func TestGainsCSVAllocationsFullPrecision(t *testing.T) {
	third := gain.FormatAllocationExact(mat.NewDense(1, 3, []float64{1.0 / 3, 1.0 / 3, 1.0 / 3}))
	for _, method := range []string{"closed", "numerical"} {
		code, out, errOut := runArgs("gains", "-pairs", "min/max", "-n", "2", "-m", "3", "-kind", "continuous",
			"-method", method, "-format", "csv")
		if code != exitOK {
			t.Fatalf("-method %s: exit %d, stderr %q", method, code, errOut)
		}
		recs := readCSV(t, out)
		if len(recs) != 2 || recs[0][len(recs[0])-1] != "HomRow" || recs[1][len(recs[1])-1] != third {
			t.Errorf("-method %s: %v; want HomRow %s", method, recs, third)
		}
	}
}

func TestGainsFormatsAndFile(t *testing.T) {
	code, text, _ := runArgs("gains", "-pairs", "mean/max", "-n", "3", "-m", "2", "-method", "closed", "-kind", "continuous")
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if code != exitOK || len(lines) != 3 || !strings.HasPrefix(lines[0], "U     T    N  M  Allocation  RHet  ") ||
		!strings.HasPrefix(lines[1], "----  ---  -  -") || !strings.Contains(lines[2], "[[1 0][0 1][1 0]]") {
		t.Errorf("text: exit %d\n%s", code, text)
	}
	code, md, _ := runArgs("gains", "-pairs", "mean/max", "-n", "3", "-m", "3", "-method", "closed", "-kind", "continuous", "-format", "markdown")
	if code != exitOK || !strings.HasPrefix(md, "| U | T | N | M | Allocation | RHet | RHom | Gain |") || !strings.Contains(md, "| 0.3333333333333333 |") {
		t.Errorf("markdown: exit %d\n%s", code, md)
	}
	path := filepath.Join(t.TempDir(), "g.csv")
	code, out, _ := runArgs("gains", "-pairs", "mean/max", "-method", "closed", "-format", "csv", "-o", path)
	b, err := os.ReadFile(path)
	if code != exitOK || out != "" || err != nil || !strings.HasPrefix(string(b), "U,T,N,M,") {
		t.Errorf("-o: exit %d, stdout %q, file %q, %v", code, out, b, err)
	}
	code, _, errOut := runArgs("gains", "-pairs", "mean/max", "-method", "closed", "-o", filepath.Join(path, "no", "such"))
	if code != exitError || !strings.Contains(errOut, "hetgain gains:") {
		t.Errorf("unwritable -o: exit %d, stderr %q", code, errOut)
	}
	// The errors name the path given, never a temporary file.
	dir := filepath.Dir(path)
	for _, c := range []struct{ path, want string }{
		{filepath.Join(dir, "none", "g.csv"), "-o " + filepath.Join(dir, "none", "g.csv") + ": cannot write there"},
		{dir, "-o " + dir + ": is a directory"},
	} {
		code, _, errOut := runArgs("gains", "-pairs", "mean/max", "-method", "closed", "-format", "csv", "-o", c.path)
		if code != exitError || !strings.Contains(errOut, c.want) || strings.Contains(errOut, ".tmp") {
			t.Errorf("-o %s: exit %d, stderr %q; want exit 1 and %q", c.path, code, errOut, c.want)
		}
	}
}

func TestPredict(t *testing.T) {
	code, out, _ := runArgs("predict", "-u", "min", "-t", "max", "-n", "3", "-m", "3")
	for _, want := range []string{"R = min∘max, N = 3 agents, M = 3 tasks", "sign:    Undecided", "rule:    none", "reason:  ",
		"closed form: R_het = 1, R_hom = 0.3333333333333333, ΔR = 0.6666666666666667"} {
		if code != exitOK || !strings.Contains(out, want) {
			t.Errorf("predict min/max: exit %d, output lacks %q:\n%s", code, want, out)
		}
	}
	code, out, _ = runArgs("predict", "-u", "softmax(-1)", "-t", "softmax(1)")
	if code != exitOK || !strings.Contains(out, "sign:    Positive") || !strings.Contains(out, "Theorem 3.4, case (ii): ΔR >= ") {
		t.Errorf("predict softmax: exit %d\n%s", code, out)
	}
}

func TestSplitTop(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"min", []string{"min"}},
		{" min , softmax(2)", []string{"min", "softmax(2)"}},
		{"blotto(1; 0.5:0.25, 1.5:0.75),max", []string{"blotto(1; 0.5:0.25, 1.5:0.75)", "max"}},
		{"a,", []string{"a", ""}},
	} {
		if got := splitTop(c.in, ','); strings.Join(got, "|") != strings.Join(c.want, "|") || len(got) != len(c.want) {
			t.Errorf("splitTop(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	var l intList
	if err := l.Set("2,4-6"); err != nil || l.String() != "2,4,5,6" {
		t.Errorf("intList: %v, %v", l, err)
	}
	for in, want := range map[string]string{
		"-1":   `"-1": want numbers >= 1`,
		"2,-3": `"-3": want numbers >= 1`,
		"0":    `"0": want numbers >= 1`,
		"3-2":  `"3-2": want numbers >= 1 and ranges lo-hi with lo <= hi`,
		"x":    `"x" is not a whole number`,
	} {
		var l intList
		if err := l.Set(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("intList.Set(%q) = %v, want an error containing %s", in, err, want)
		}
	}
}

// TestRepeatedIntList checks that a repeated -n or -m adds to the list,
// as a repeated -u, -t or -pairs does: its first use replaces the
// default, a number already given is refused, and the limit counts the
// numbers of every use.
func TestRepeatedIntList(t *testing.T) {
	l := intList{vals: []int{2}}
	for _, s := range []string{"3", "5-6", "2"} {
		if err := l.Set(s); err != nil {
			t.Fatal(err)
		}
	}
	if l.String() != "3,5,6,2" {
		t.Errorf("-n 3 -n 5-6 -n 2 over the default 2: %q, want 3,5,6,2", l.String())
	}
	if err := l.Set("6"); err == nil || !strings.Contains(err.Error(), "6 is given twice") {
		t.Errorf("-n 6 again: %v, want an error naming 6", err)
	}
	if err := l.Set("7-10003"); err == nil || !strings.Contains(err.Error(), "more than 10000 numbers") {
		t.Errorf("10001 numbers over five uses: %v", err)
	}
	code, out, errOut := runArgs("gains", "-n", "2", "-n", "3", "-m", "2", "-m", "4", "-u", "min", "-t", "max", "-method", "closed", "-kind", "continuous", "-format", "csv")
	rows := readCSV(t, out)
	if code != exitOK || len(rows) != 5 {
		t.Fatalf("-n 2 -n 3 -m 2 -m 4: exit %d, stderr %q, %d rows, want a header and 4", code, errOut, len(rows))
	}
	var nm []string
	for _, r := range rows[1:] {
		nm = append(nm, r[indexOfColumn(t, rows[0], "N")]+"x"+r[indexOfColumn(t, rows[0], "M")])
	}
	if got := strings.Join(nm, " "); got != "2x2 2x4 3x2 3x4" {
		t.Errorf("-n 2 -n 3 -m 2 -m 4: N x M %s, want 2x2 2x4 3x2 3x4", got)
	}
}

// indexOfColumn returns the index of name in header, failing the test if
// it is not there.
func indexOfColumn(t *testing.T, header []string, name string) int {
	t.Helper()
	for k, h := range header {
		if h == name {
			return k
		}
	}
	t.Fatalf("no column %s in %q", name, header)
	return -1
}

// TestProgress checks the progress line with a fake clock: in place on a
// terminal, a line at most every interval otherwise, with the first and
// the last always printed.
func TestProgress(t *testing.T) {
	t0 := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	now := t0
	clock := func() time.Time { return now }
	var buf bytes.Buffer
	p := newProgress(&buf, clock, false, "sweep")
	p.update(10, 110) // 10 resumed
	for done := 11; done <= 110; done++ {
		now = now.Add(time.Second)
		p.update(done, 110)
	}
	p.finish()
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != 1+19+1 { // first, every 5 s up to 105, last
		t.Errorf("%d lines:\n%s", len(lines), buf.String())
	}
	if lines[0] != "sweep: 10/110 cells (9.1%)" || lines[1] != "sweep: 15/110 cells (13.6%), 1.00 cells/s, ETA 1m35s" ||
		lines[len(lines)-1] != "sweep: 110/110 cells (100.0%), 1.00 cells/s, took 1m40s" {
		t.Errorf("lines %q ... %q", lines[:2], lines[len(lines)-1])
	}

	buf.Reset()
	now = t0
	p = newProgress(&buf, clock, true, "sweep")
	p.update(0, 3)
	now = now.Add(50 * time.Millisecond)
	p.update(1, 3) // too soon: not printed
	now = now.Add(time.Second)
	p.update(2, 3)
	p.update(3, 3)
	p.finish()
	want := "\rsweep: 0/3 cells (0.0%)\x1b[K" +
		"\rsweep: 2/3 cells (66.7%), 1.90 cells/s, ETA 525ms\x1b[K" +
		"\rsweep: 3/3 cells (100.0%), 2.86 cells/s, took 1.1s\x1b[K\n"
	if buf.String() != want {
		t.Errorf("terminal: %q\nwant      %q", buf.String(), want)
	}
}

// TestMemoryLimitAllowsPresets checks that the memory limit refuses none
// of the reproductions, two runs at once, nor the paper's settings of
// train -reference: it is there for mistyped sizes, not for them.
func TestMemoryLimitAllowsPresets(t *testing.T) {
	for _, name := range reproduce.Names {
		e, err := reproduce.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		if err := checkExperimentMemory(e, 2); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	for _, name := range reproduce.HetGPSNames {
		e, err := reproduce.HetGPSLookup(name)
		if err != nil {
			t.Fatal(err)
		}
		if err := checkHetGPSMemory(e, 2); err != nil {
			t.Errorf("hetgps %s: %v", name, err)
		}
	}
	for _, env := range []string{"matrix", "capture", "tag"} {
		spec := learn.RunSpec{Env: learn.EnvSpec{Name: env, Agents: 4, Tasks: 3, U: "min", T: "max"}, Team: learn.ReferenceConfig()}
		s, err := sizesOf(spec.Env)
		if err != nil {
			t.Fatal(err)
		}
		if b := pairBytes(spec, s, 512, 1); b > maxMemory/2 {
			t.Errorf("-reference in %s, 4 agents: %s estimated, over half the limit", env, formatGB(b))
		}
		// A reward and a value per agent take more.
		own := spec
		own.Team.AgentRewards = true
		if b, bOwn := pairBytes(spec, s, 512, 1), pairBytes(own, s, 512, 1); bOwn <= b || bOwn > maxMemory/2 {
			t.Errorf("-reference -agent-rewards in %s, 4 agents: %s estimated, against %s on the team reward", env, formatGB(bOwn), formatGB(b))
		}
	}
}

// TestREADMEExamplesMatchHelp checks that a command line of the README
// that writes where examples of the command's help write (the same -dir
// or -out) is one of them, quotes and comment aside: the two describe it
// alike.
func TestREADMEExamplesMatchHelp(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	target := func(line string) string {
		f := strings.Fields(line)
		for k := 0; k+1 < len(f); k++ {
			if f[k] == "-dir" || f[k] == "-out" {
				return f[k+1]
			}
		}
		return ""
	}
	compared := 0
	for _, line := range strings.Split(string(b), "\n") {
		line, _, _ = strings.Cut(line, "#")
		line = strings.ReplaceAll(strings.TrimSpace(line), `"`, "'")
		f := strings.Fields(line)
		if len(f) < 2 || f[0] != "hetgain" || lookup(f[1]) == nil || target(line) == "" {
			continue
		}
		var same []string
		found := false
		for _, e := range lookup(f[1]).examples {
			if target(e.line) == target(line) {
				same, found = append(same, e.line), found || e.line == line
			}
		}
		if len(same) > 0 {
			compared++
			if !found {
				t.Errorf("README:\n  %s\nhelp of %s:\n  %s", line, f[1], strings.Join(same, "\n  "))
			}
		}
	}
	if compared < 3 {
		t.Errorf("%d README command lines compared with the help, want at least 3 (train, sweep, hetgps)", compared)
	}
}
