package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/hetgain/hetgain/figures"
	"github.com/hetgain/hetgain/gain"
	"github.com/hetgain/hetgain/internal/atomicfile"
	"github.com/hetgain/hetgain/tables"
)

// Files a sweep writes in its -out directory.
const (
	sweepCSV      = "sweep.csv"
	sweepPNG      = "heatmap.png"
	sweepSettings = "sweep.json"
)

var sweepCommand = &command{
	name:     "sweep",
	summary:  "ΔR over a grid of the parameters of U and T: CSV and heat map, resumable",
	synopsis: "-out DIR [-u FAMILY] [-t FAMILY] [-n N] [-m M] [-from A -to B -steps K] [flags]",
	about: `
Sweep computes R_het, R_hom and ΔR numerically for R = U∘T over a grid of
the parameter τ of U and the parameter t of T, as in the paper's Figure 2
(softmax U and T, N = M = 2). U and T are one-parameter families:
softmax, lse, powersum, meanpower, powermean or level. The grid has -steps values from
-from to -to for both parameters, unless -t-from, -t-to, -t-steps or
-tau-from, -tau-to, -tau-steps set them apart. A grid has at most
1,000,000 cells (each axis at most 100,000 values), N × M is at most
16384, and -workers at most 1024. Each axis's values must be distinct
float64 numbers: a range too narrow for its steps (-from 0 -to 5e-324
-steps 3), or equal ends with several steps, is a bad command line.

It writes to the directory -out:
  sweep.csv    one row per cell: InnerParam (t), OuterParam (τ), N, M,
               RHet, RHom, Gain, and Bound (Theorem 3.4's lower bound on
               ΔR) for softmax U and T with N = M >= 2. Rows are written
               as cells finish, so nothing finished is lost; when the
               sweep is complete the file is rewritten in grid order
               (by τ, then t).
  heatmap.png  the heat map of ΔR, t on the x axis and τ on the y axis,
               with a colour bar; unfinished cells are blank.
  sweep.json   the sweep's settings, for -resume.

Cells are computed in parallel on -workers goroutines. Each cell's random
starts are seeded from -seed and the cell's t and τ, so the results do not
depend on the number of workers or on interruptions.

Ctrl-C (SIGINT) or SIGTERM stops the sweep cleanly: the running cells
finish, sweep.csv keeps every finished cell, the heat map shows them, and
the command exits with status 130 and says how to resume. -resume reads
sweep.json and sweep.csv in -out and computes only the missing cells;
flags given with -resume must agree with sweep.json. Running the same
command again also continues the sweep; a sweep with other settings
needs another -out, or -force to replace the one there.

A progress line (cells done, rate, time left) goes to standard error:
updated in place on a terminal, a line every 5 seconds otherwise.`,
	examples: []example{
		{"hetgain sweep -u softmax -t softmax -n 2 -m 2 -from -10 -to 10 -steps 41 -out fig2", "the paper's Figure 2: 41 x 41 cells"},
		{"hetgain sweep -resume -out fig2", "after Ctrl-C: compute the missing cells"},
		{"hetgain sweep -u powersum -t powersum -t-from 0.25 -t-to 4 -tau-from 0.25 -tau-to 4 -steps 16 -n 3 -m 3 -out ps", ""},
		{"hetgain sweep -u softmax -t softmax -n 2 -m 2 -kind discrete -steps 21 -workers 1 -out disc", ""},
	},
	setup: setupSweep,
}

// settings are what a sweep computes; sweep.json holds them.
type settings struct {
	U        string  `json:"u"`
	T        string  `json:"t"`
	N        int     `json:"n"`
	M        int     `json:"m"`
	Kind     string  `json:"kind"`
	TFrom    float64 `json:"t_from"`
	TTo      float64 `json:"t_to"`
	TSteps   int     `json:"t_steps"`
	TauFrom  float64 `json:"tau_from"`
	TauTo    float64 `json:"tau_to"`
	TauSteps int     `json:"tau_steps"`
	Seed     int64   `json:"seed"`
	Restarts int     `json:"restarts"`
	Tol      float64 `json:"tol"`
}

// settingFields lists the settings with the flags that set them, for
// comparing a resumed sweep's flags with its sweep.json.
func settingFields(s *settings) []struct {
	name  string
	flags []string
	value string
} {
	f := formatFull
	return []struct {
		name  string
		flags []string
		value string
	}{
		{"U", []string{"u"}, s.U},
		{"T", []string{"t"}, s.T},
		{"N", []string{"n"}, strconv.Itoa(s.N)},
		{"M", []string{"m"}, strconv.Itoa(s.M)},
		{"kind", []string{"kind"}, s.Kind},
		{"t from", []string{"from", "t-from"}, f(s.TFrom)},
		{"t to", []string{"to", "t-to"}, f(s.TTo)},
		{"t steps", []string{"steps", "t-steps"}, strconv.Itoa(s.TSteps)},
		{"τ from", []string{"from", "tau-from"}, f(s.TauFrom)},
		{"τ to", []string{"to", "tau-to"}, f(s.TauTo)},
		{"τ steps", []string{"steps", "tau-steps"}, strconv.Itoa(s.TauSteps)},
		{"seed", []string{"seed"}, strconv.FormatInt(s.Seed, 10)},
		{"restarts", []string{"restarts"}, strconv.Itoa(s.Restarts)},
		{"tol", []string{"tol"}, f(s.Tol)},
	}
}

func setupSweep(fs *flag.FlagSet) func(*app, *flag.FlagSet) error {
	u := fs.String("u", "softmax", "`FAMILY` of the outer aggregator U (parameter τ)")
	t := fs.String("t", "softmax", "`FAMILY` of the task aggregator T (parameter t)")
	n := fs.Int("n", 2, "number of agents `N`")
	m := fs.Int("m", 2, "number of tasks `M`")
	kind := newChoice("continuous", "continuous", "discrete")
	fs.Var(kind, "kind", "`KIND` of allocation: continuous or discrete")
	from := fs.Float64("from", -10, "first value of t and τ")
	to := fs.Float64("to", 10, "last value of t and τ")
	steps := fs.Int("steps", 41, "number of values of t and of τ")
	tFrom := fs.Float64("t-from", 0, "first value of t (default -from)")
	tTo := fs.Float64("t-to", 0, "last value of t (default -to)")
	tSteps := fs.Int("t-steps", 0, "number of values of t (default -steps)")
	tauFrom := fs.Float64("tau-from", 0, "first value of τ (default -from)")
	tauTo := fs.Float64("tau-to", 0, "last value of τ (default -to)")
	tauSteps := fs.Int("tau-steps", 0, "number of values of τ (default -steps)")
	out := fs.String("out", "", "write sweep.csv, heatmap.png and sweep.json to `DIR` (required)")
	resume := fs.Bool("resume", false, "continue the sweep in -out, computing only the missing cells")
	force := fs.Bool("force", false, "start afresh even if -out holds a sweep")
	workers := fs.Int("workers", 0, "cells computed at once (0: one per core)")
	quiet := fs.Bool("quiet", false, "no progress line")
	opt := addOptimiserFlags(fs)

	return func(a *app, fs *flag.FlagSet) error {
		if err := noArgs(fs); err != nil {
			return err
		}
		if *out == "" {
			return usagef("-out DIR is required: the directory for sweep.csv and heatmap.png")
		}
		if *resume && *force {
			return usagef("-resume and -force exclude each other")
		}
		if *workers < 0 {
			return usagef("-workers %d: want >= 0", *workers)
		}
		if err := atMost("workers", *workers, maxWorkers); err != nil {
			return err
		}
		opts, err := opt.options()
		if err != nil {
			return err
		}
		s := settings{
			U: *u, T: *t, N: *n, M: *m, Kind: kind.value,
			TFrom: *from, TTo: *to, TSteps: *steps, TauFrom: *from, TauTo: *to, TauSteps: *steps,
			Seed: opts.Seed, Restarts: opts.Restarts, Tol: opts.Tol,
		}
		for _, o := range []struct {
			name string
			dst  *float64
			v    float64
		}{{"t-from", &s.TFrom, *tFrom}, {"t-to", &s.TTo, *tTo}, {"tau-from", &s.TauFrom, *tauFrom}, {"tau-to", &s.TauTo, *tauTo}} {
			if isSet(fs, o.name) {
				*o.dst = o.v
			}
		}
		if isSet(fs, "t-steps") {
			s.TSteps = *tSteps
		}
		if isSet(fs, "tau-steps") {
			s.TauSteps = *tauSteps
		}
		j := &sweepJob{app: a, dir: *out, workers: *workers, quiet: *quiet}
		cont := *resume
		if cont {
			if s, err = j.resumeSettings(fs, s); err != nil {
				return err
			}
		}
		if err := s.canonicalise(); err != nil {
			return err
		}
		if _, err := os.Stat(j.path(sweepCSV)); err == nil && !cont && !*force {
			// The same command again continues the sweep; another one
			// must not overwrite it by accident.
			// -resume would not help: it continues the sweep there, with
			// its own settings, and refuses flags that disagree with them.
			if saved, err := j.loadSettings(); err != nil || saved != s {
				return usagef("%s holds another sweep%s: use another -out, or -force to replace it",
					j.path(sweepCSV), settingsDiff(saved, s, err))
			}
			cont = true
			if !*quiet {
				fmt.Fprintf(a.stderr, "hetgain sweep: continuing the sweep in %s, which has the same settings\n", j.dir)
			}
		}
		j.settings = s
		return j.run(cont)
	}
}

// settingsDiff says how the sweep of saved (read with err) differs from
// s, for the message refusing to overwrite it: " (with t steps = 41, not
// 21)", or that its settings cannot be read.
func settingsDiff(saved, s settings, err error) string {
	if err != nil {
		return fmt.Sprintf(" (its %s cannot be read)", sweepSettings)
	}
	canonicalFamilies(&saved)
	want, got := settingFields(&saved), settingFields(&s)
	for k, f := range want {
		if got[k].value != f.value {
			return fmt.Sprintf(" (with %s = %s, not %s)", f.name, f.value, got[k].value)
		}
	}
	return ""
}

// canonicalise checks the settings and writes the families canonically.
func (s *settings) canonicalise() error {
	var err error
	if s.U, err = gain.SweepFamily(s.U); err != nil {
		return usagef("-u: %s", strings.TrimPrefix(err.Error(), "gain: "))
	}
	if s.T, err = gain.SweepFamily(s.T); err != nil {
		return usagef("-t: %s", strings.TrimPrefix(err.Error(), "gain: "))
	}
	if err := atLeast("n", s.N, 1); err != nil {
		return err
	}
	if err := atLeast("m", s.M, 1); err != nil {
		return err
	}
	if float64(s.N)*float64(s.M) > gain.MaxNumericalCells {
		return usagef("-n %d -m %d: want N × M at most %d (the numerical optimiser's limit)", s.N, s.M, gain.MaxNumericalCells)
	}
	if err := checkRestarts(s.Restarts, s.N, s.M); err != nil {
		return err
	}
	for _, r := range []struct {
		name, flag string
		from, to   float64
		steps      int
	}{{"t", "t", s.TFrom, s.TTo, s.TSteps}, {"τ", "tau", s.TauFrom, s.TauTo, s.TauSteps}} {
		if math.IsNaN(r.from) || math.IsInf(r.from, 0) || math.IsNaN(r.to) || math.IsInf(r.to, 0) {
			return usagef("the range of %s, %v to %v, must be finite", r.name, r.from, r.to)
		}
		if r.steps < 1 || r.steps > 100000 {
			return usagef("%d values of %s: want 1 to 100000", r.steps, r.name)
		}
		if r.steps == 1 && r.from != r.to {
			return usagef("one value of %s but a range %v to %v: give -steps >= 2 or equal ends", r.name, r.from, r.to)
		}
		if err := checkDistinct(r.name, r.flag, r.from, r.to, r.steps); err != nil {
			return err
		}
	}
	if cells := int64(s.TSteps) * int64(s.TauSteps); cells > maxSweepCells {
		return usagef("%d values of t × %d of τ = %d cells: want at most %d (lower -steps, -t-steps or -tau-steps)",
			s.TSteps, s.TauSteps, cells, maxSweepCells)
	}
	if _, err := s.kind(); err != nil {
		return err
	}
	return nil
}

func (s *settings) kind() (gain.Allocation, error) {
	switch s.Kind {
	case "continuous":
		return gain.Continuous, nil
	case "discrete":
		return gain.Discrete, nil
	}
	return 0, usagef("kind %q: want continuous or discrete", s.Kind)
}

// checkDistinct returns a usage error, naming the flags of the axis
// (flag: "t" or "tau"), unless the steps values of the axis name from
// from to to (linspace) are finite and distinct, as the heat map's grid
// must be: a range too narrow for float64 to hold that many values
// between its ends (-steps 3 -from 0 -to 5e-324), equal ends with
// several steps, or one too wide to subtract its ends (-from -1e308 -to
// 1e308) would give cells that repeat, computed to no use, the heat map
// not drawn, and on resume computed again.
func checkDistinct(name, flag string, from, to float64, steps int) error {
	v := linspace(from, to, steps)
	for k := range v {
		switch {
		case math.IsNaN(v[k]) || math.IsInf(v[k], 0):
			return usagef("%d values of %s from %v to %v (-steps or -%s-steps, -from or -%s-from, -to or -%s-to): %s[%d] = %v; give a narrower range",
				steps, name, from, to, flag, flag, flag, name, k, v[k])
		case k > 0 && !(v[k] > v[k-1] && to > from || v[k] < v[k-1] && to < from):
			return usagef("%d values of %s from %v to %v (-steps or -%s-steps, -from or -%s-from, -to or -%s-to) are not distinct: %s[%d] = %v after %s[%d] = %v; give fewer values or a wider range",
				steps, name, from, to, flag, flag, flag, name, k, v[k], name, k-1, v[k-1])
		}
	}
	return nil
}

// linspace returns steps values from a to b, b exactly last.
func linspace(a, b float64, steps int) []float64 {
	v := make([]float64, steps)
	for k := range v {
		if steps == 1 {
			v[k] = a
			continue
		}
		v[k] = a + (b-a)*float64(k)/float64(steps-1)
	}
	if steps > 1 {
		v[steps-1] = b
	}
	return v
}

// sweepJob is one run of the sweep command.
type sweepJob struct {
	*app
	dir      string
	workers  int
	quiet    bool
	settings settings

	inner, outer []float64
	hasBound     bool
}

func (j *sweepJob) path(name string) string { return filepath.Join(j.dir, name) }

// resumeCommand is the command line that resumes this sweep.
func (j *sweepJob) resumeCommand() string {
	return "hetgain sweep -resume -out " + shellQuote(j.dir)
}

// resumeSettings returns the settings in sweep.json, or a usage error if
// a flag given on the command line disagrees with them; an error (not a
// usage error: the directory lacks a file) if there is no sweep.json.
func (j *sweepJob) resumeSettings(fs *flag.FlagSet, flags settings) (settings, error) {
	saved, err := j.loadSettings()
	if errors.Is(err, os.ErrNotExist) {
		return settings{}, fmt.Errorf("no sweep to resume in %s (%s not found)", j.dir, sweepSettings)
	}
	if err != nil {
		return settings{}, err
	}
	canonicalFamilies(&flags)
	want, got := settingFields(&saved), settingFields(&flags)
	for k, f := range want {
		for _, name := range f.flags {
			if isSet(fs, name) && got[k].value != f.value {
				return settings{}, usagef("-%s: the sweep in %s has %s = %s, not %s; drop the flag or use another -out",
					name, j.dir, f.name, f.value, got[k].value)
			}
		}
	}
	return saved, nil
}

// loadSettings reads sweep.json.
func (j *sweepJob) loadSettings() (settings, error) {
	b, err := os.ReadFile(j.path(sweepSettings))
	if err != nil {
		return settings{}, err
	}
	var saved settings
	if err := json.Unmarshal(b, &saved); err != nil {
		return settings{}, fmt.Errorf("%s: %v", j.path(sweepSettings), err)
	}
	return saved, nil
}

func (j *sweepJob) run(resume bool) error {
	s := &j.settings
	kind, _ := s.kind()
	j.inner = linspace(s.TFrom, s.TTo, s.TSteps)
	j.outer = linspace(s.TauFrom, s.TauTo, s.TauSteps)
	_, j.hasBound = gain.SweepBound(s.U, s.T, 0, 0, s.N, s.M, kind)
	var known []gain.Cell
	if resume {
		var err error
		if known, err = j.readCells(); err != nil {
			return err
		}
	}
	spec := gain.SweepSpec{
		Outer: s.U, Inner: s.T, OuterParams: j.outer, InnerParams: j.inner,
		N: s.N, M: s.M, Kind: kind,
		Options: gain.Options{Seed: s.Seed, Restarts: s.Restarts, Tol: s.Tol},
		Workers: j.workers,
		Solve:   j.solve,
		Resume:  known,
	}
	// Check the settings (a parameter outside its family's domain, say)
	// before writing anything: a sweep stopped before its first cell.
	dry := spec
	dry.Stop = func() bool { return true }
	if _, err := gain.Sweep(dry); err != nil {
		return usagef("%s", strings.TrimPrefix(err.Error(), "gain: sweep: "))
	}
	if err := os.MkdirAll(j.dir, 0o755); err != nil {
		return err
	}
	if !resume {
		if err := j.writeSettings(); err != nil {
			return err
		}
	}
	// (Re)write sweep.csv with the known cells, then append new ones.
	f, w, err := j.createCSV(known)
	if err != nil {
		return err
	}
	spec.OnCell = func(c gain.Cell) error {
		if err := w.Write(j.record(c)); err != nil {
			return err
		}
		w.Flush()
		return w.Error()
	}
	prog := newProgress(j.stderr, j.now, j.terminal, "sweep")
	if !j.quiet {
		spec.Progress = prog.update
	}
	told := false
	spec.Stop = func() bool {
		if j.ctx.Err() == nil {
			return false
		}
		if !told {
			told = true
			prog.finish()
			fmt.Fprintln(j.stderr, "hetgain sweep: interrupted: finishing the running cells (Ctrl-C again to quit at once)")
		}
		return true
	}
	res, sweepErr := gain.Sweep(spec)
	prog.finish()
	if cerr := f.Close(); sweepErr == nil && cerr != nil {
		sweepErr = cerr
	}
	done := res.Size() - res.Missing()
	if res.Complete() {
		if err := j.rewriteCSV(res); err != nil {
			return err
		}
	}
	pngErr := j.heatMap(res)
	if sweepErr != nil {
		return fmt.Errorf("%v\n%d of %d cells are in %s; once the cause is fixed, continue with\n  %s",
			sweepErr, done, res.Size(), j.path(sweepCSV), j.resumeCommand())
	}
	if res.Stopped {
		fmt.Fprintf(j.stderr, "hetgain sweep: interrupted: %d of %d cells done, kept in %s.\nResume with:\n  %s\n",
			done, res.Size(), j.path(sweepCSV), j.resumeCommand())
		return errInterrupted
	}
	if pngErr != nil {
		return pngErr
	}
	return j.summary(res, len(known))
}

func (j *sweepJob) writeSettings() error {
	b, err := json.MarshalIndent(j.settings, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.WriteBytes(j.path(sweepSettings), append(b, '\n'))
}

func (j *sweepJob) columns() []string {
	cols := append([]string(nil), gain.SweepColumns...)
	if j.hasBound {
		cols = append(cols, "Bound")
	}
	return cols
}

// record is the CSV row of a cell, formatted as tables.WriteCSV does.
func (j *sweepJob) record(c gain.Cell) []string {
	f := formatFull
	s := &j.settings
	rec := []string{f(c.Inner), f(c.Outer), strconv.Itoa(s.N), strconv.Itoa(s.M), f(c.Het), f(c.Hom), f(c.Delta)}
	if j.hasBound {
		kind, _ := s.kind()
		b, _ := gain.SweepBound(s.U, s.T, c.Outer, c.Inner, s.N, s.M, kind)
		rec = append(rec, f(b))
	}
	return rec
}

// createCSV replaces sweep.csv atomically by one holding the header and
// the known cells, then returns it open for appending: a crash while it
// rewrites leaves the old file whole.
func (j *sweepJob) createCSV(known []gain.Cell) (*os.File, *csv.Writer, error) {
	path := j.path(sweepCSV)
	err := atomicfile.Write(path, func(out io.Writer) error {
		w := csv.NewWriter(out)
		w.Write(j.columns())
		for _, c := range known {
			w.Write(j.record(c))
		}
		w.Flush()
		return w.Error()
	})
	if err != nil {
		return nil, nil, err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return nil, nil, err
	}
	return f, csv.NewWriter(f), nil
}

// readCells reads the finished cells from sweep.csv. Every row ends in a
// newline, so a last line without one was cut short (the process killed
// while writing) and is dropped with a warning; any other malformed row,
// or a cell that is not on the grid, is an error.
func (j *sweepJob) readCells() ([]gain.Cell, error) {
	path := j.path(sweepCSV)
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if end := bytes.LastIndexByte(data, '\n') + 1; end < len(data) {
		fmt.Fprintf(j.stderr, "hetgain sweep: dropping an incomplete last line of %s\n", path)
		data = data[:end]
	}
	r := csv.NewReader(bytes.NewReader(data))
	cols := j.columns()
	header, err := r.Read()
	if err == io.EOF {
		return nil, nil
	}
	if err != nil || strings.Join(header, ",") != strings.Join(cols, ",") {
		return nil, fmt.Errorf("%s: header %q, want %q: not a sweep of these settings", path, strings.Join(header, ","), strings.Join(cols, ","))
	}
	r.FieldsPerRecord = len(cols)
	innerIdx, outerIdx := indexOf(j.inner), indexOf(j.outer)
	seen := make(map[[2]int]bool)
	var cells []gain.Cell
	for line := 2; ; line++ {
		rec, err := r.Read()
		if err == io.EOF {
			return cells, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
		c, err := j.parseRecord(rec, innerIdx, outerIdx)
		if err != nil {
			return nil, fmt.Errorf("%s, line %d: %v", path, line, err)
		}
		if key := [2]int{c.I, c.J}; !seen[key] {
			seen[key] = true
			cells = append(cells, c)
		}
	}
}

func (j *sweepJob) parseRecord(rec []string, innerIdx, outerIdx map[float64]int) (gain.Cell, error) {
	v := make([]float64, 7)
	for k := range v {
		x, err := strconv.ParseFloat(rec[k], 64)
		if err != nil {
			return gain.Cell{}, fmt.Errorf("%s %q is not a number", gain.SweepColumns[k], rec[k])
		}
		v[k] = x
	}
	for k := 4; k < 7; k++ { // RHet, RHom, Gain: Sweep writes finite values only
		if math.IsNaN(v[k]) || math.IsInf(v[k], 0) {
			return gain.Cell{}, fmt.Errorf("%s = %v is not a finite number", gain.SweepColumns[k], v[k])
		}
	}
	if int(v[2]) != j.settings.N || int(v[3]) != j.settings.M || v[2] != math.Trunc(v[2]) || v[3] != math.Trunc(v[3]) {
		return gain.Cell{}, fmt.Errorf("a row of N = %s, M = %s, but the sweep has N = %d, M = %d", rec[2], rec[3], j.settings.N, j.settings.M)
	}
	jj, ok1 := innerIdx[v[0]]
	i, ok2 := outerIdx[v[1]]
	if !ok1 || !ok2 {
		return gain.Cell{}, fmt.Errorf("t = %v, τ = %v is not on the sweep's grid", v[0], v[1])
	}
	return gain.Cell{I: i, J: jj, Inner: v[0], Outer: v[1], Gains: gain.Gains{Het: v[4], Hom: v[5], Delta: v[6]}}, nil
}

// indexOf maps each value to its first index.
func indexOf(vals []float64) map[float64]int {
	idx := make(map[float64]int, len(vals))
	for k := len(vals) - 1; k >= 0; k-- {
		idx[vals[k]] = k
	}
	return idx
}

// rewriteCSV replaces sweep.csv by the complete sweep in grid order.
func (j *sweepJob) rewriteCSV(res gain.SweepResult) error {
	return atomicfile.Write(j.path(sweepCSV), func(w io.Writer) error { return tables.WriteCSV(w, res.Frame()) })
}

// heatMap draws heatmap.png from the finished cells. It skips a grid
// smaller than 2x2 or with no finished cell, saying so.
func (j *sweepJob) heatMap(res gain.SweepResult) error {
	done := res.Size() - res.Missing()
	switch {
	case len(j.inner) < 2 || len(j.outer) < 2:
		fmt.Fprintf(j.stderr, "hetgain sweep: no heat map: it needs at least 2 values of t and of τ\n")
		return nil
	case done == 0:
		fmt.Fprintf(j.stderr, "hetgain sweep: no heat map: no cell finished\n")
		return nil
	}
	s := &j.settings
	title := fmt.Sprintf("ΔR for U = %s(τ), T = %s(t), N = %d, M = %d", s.U, s.T, s.N, s.M)
	if s.Kind != "continuous" {
		title += ", " + s.Kind
	}
	if done < res.Size() {
		title += fmt.Sprintf(" (%d of %d cells)", done, res.Size())
	}
	x, y, z := res.Grid()
	fig := figures.HeatMap(title, fmt.Sprintf("t (T = %s)", s.T), fmt.Sprintf("τ (U = %s)", s.U), "ΔR",
		figures.Grid{X: x, Y: y, Z: z})
	if err := fig.Save(j.path(sweepPNG)); err != nil {
		return fmt.Errorf("drawing the heat map: %w", err)
	}
	return nil
}

// summary prints what the sweep wrote and where ΔR is largest.
func (j *sweepJob) summary(res gain.SweepResult, resumed int) error {
	s := &j.settings
	var b strings.Builder
	fmt.Fprintf(&b, "sweep of ΔR for U = %s(τ), T = %s(t), N = %d, M = %d, %s allocations: %d cells",
		s.U, s.T, s.N, s.M, s.Kind, res.Size())
	if resumed > 0 {
		fmt.Fprintf(&b, " (%d resumed)", resumed)
	}
	b.WriteString("\n")
	best, bi, bj := math.Inf(-1), -1, -1
	for i, row := range res.Gain {
		for jj, g := range row {
			if g > best {
				best, bi, bj = g, i, jj
			}
		}
	}
	if bi >= 0 {
		fmt.Fprintf(&b, "largest ΔR = %.6g at t = %v, τ = %v\n", best, j.inner[bj], j.outer[bi])
	}
	fmt.Fprintf(&b, "wrote %s\n", j.path(sweepCSV))
	if len(j.inner) >= 2 && len(j.outer) >= 2 {
		fmt.Fprintf(&b, "wrote %s\n", j.path(sweepPNG))
	}
	_, err := io.WriteString(j.stdout, b.String())
	return err
}

// shellQuote quotes s for a POSIX shell if it needs it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=+,:@%", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// canonicalFamilies writes s's operator families in the canonical form of
// gain.SweepFamily, so that two spellings of one family compare equal;
// a family it does not know is left as it is.
func canonicalFamilies(s *settings) {
	if c, err := gain.SweepFamily(s.U); err == nil {
		s.U = c
	}
	if c, err := gain.SweepFamily(s.T); err == nil {
		s.T = c
	}
}
