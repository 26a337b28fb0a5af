package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strings"

	"github.com/hetgain/hetgain/learn"
	"github.com/hetgain/hetgain/reproduce"
)

// reproducer is a reproduction that "hetgain reproduce NAME" runs. To add
// one (such as "hetgps"), append an entry to reproducers: run gets the job
// with the common flags parsed (-dir is empty if not given).
type reproducer struct {
	name    string
	summary string // one line, for the help
	run     func(j *reproduceJob) error
}

// reproducers lists the reproductions in the order of the help.
var reproducers = []reproducer{
	{"matrix", "the matrix game, N = M = 4, continuous and discrete (as matrix4)", runExperiment},
	{"matrix4", "the same", runExperiment},
	{"matrix2", "the matrix game, N = M = 2, continuous and discrete", runExperiment},
	{"matrix8", "the discrete matrix game, N = M = 8 (the paper's tables of scale)", runExperiment},
	{"matrix11x2", "the discrete matrix game, N = 11, M = 2 (the same)", runExperiment},
	{"capture", "Multi-goal-capture, N = M = 2", runExperiment},
	{"tag", "2v2 Tag", runExperiment},
	{"tag-large", "2v2 Tag with large batches (16,000 frames per iteration), gains on the capture reward alone; about 6 hours", runExperiment},
	{"tag-large-30m", "tag-large's (mean, max) at the paper's 30M frames per run, 9 seeds; about 2 hours a seed", runExperiment},
	{"tag-vmas", "2v2 Tag as the paper's scenario file defines it (simulate.TagVMAS), tag-large's batches, each chaser on its own reward", runExperiment},
	{"tag-slow", "tag-large on 2v2 Tag with escapers slower than the chasers (escaper.speed 0.8), where scripted specialists gain in exactly the theory's three cells", runExperiment},
	{"observability", "Multi-goal-capture (min, max) with a range sensor at ranges 0 to 0.7, 4 seeds: the gain against how far agents see each other", runExperiment},
	{"observability-index", "its control: range 0 with each agent's index in its observation, 4 seeds", runExperiment},
	{"hetgps", "HetGPS, the paper's Figure 5: hetgps softmax|powersum|adverse|descent|all", runHetGPSReproducer},
}

func findReproducer(name string) *reproducer {
	for k := range reproducers {
		if reproducers[k].name == strings.ToLower(name) {
			return &reproducers[k]
		}
	}
	return nil
}

// reproducerNames returns the names of reproducers, in order, joined by
// sep.
func reproducerNames(sep string) string {
	names := make([]string, len(reproducers))
	for k, r := range reproducers {
		names[k] = r.name
	}
	return strings.Join(names, sep)
}

func reproduceAbout() string {
	var b strings.Builder
	b.WriteString(`
Reproduce runs one of the paper's learning experiments: for every pair
(U, T) of {min, mean, max}, every variant and every seed, a heterogeneous
and a homogeneous team trained side by side by PPO (as the train command),
and tabulates the learned heterogeneity gains against the theory's and the
paper's.

Experiments:
`)
	width := 0
	for _, r := range reproducers {
		width = max(width, len(r.name))
	}
	for _, r := range reproducers {
		fmt.Fprintf(&b, "  %-*s  %s\n", width, r.name, r.summary)
	}
	b.WriteString(`
Each run is kept in DIR/<variant>/<U>-<T>/seed<k> (default DIR:
results/<experiment>). DIR/gains.csv and DIR/runs.csv are rewritten with
the runs finished so far as each run finishes. When all are done,
reproduce writes DIR/gains.csv
(one row per variant and (U, T): the final evaluation gain, mean and
standard deviation over seeds, the closed-form gain, the predicted sign,
whether the gain is clearly positive, and the paper's learned gain; full
precision), DIR/runs.csv (one row per run: its seed, final gain and
returns), DIR/curves-<variant>.png (ΔR against frames, one panel per
(U, T)), DIR/gains-<variant>.png (the final gains with error bars beside
the paper's and the closed form), DIR/diversity-<variant>.png (each
team's diversity against frames, if the runs logged it),
DIR/variants.png (observability: the final gains against the sensor
range, the mean ± 2 standard errors and each seed), DIR/variant-curves.png
(observability: every range's ΔR against frames in one panel), and prints a
summary with the frames used beside the paper's budget (the default
settings train on a CPU and use far fewer frames than the paper) and the
gains seed by seed.
tag-large's final gain is that of its final policies on 512 episodes
without the distance shaping and collision penalty (the capture reward
alone, as the paper's); the gain of the training returns is the
ReturnGain column, and the curves show it.

Ctrl-C (SIGINT) or SIGTERM stops the running runs after their iteration
(it says so at once; a second Ctrl-C quits at once, as a crash would),
keeping their checkpoints, writes gains.csv and the figures of the runs
finished so far (if any; a variant without a finished run keeps the
figures it had), exits with status 130 and prints the command
that resumes: the same command again. Finished runs are read back, not
retrained, and interrupted ones continue from their checkpoints with the
same numbers as an uninterrupted reproduction. -seeds and -iterations
larger than before add seeds and extend the runs. -pairs U-T,... trains
and tabulates only those (U, T) pairs, e.g. -seeds 9 -pairs min-max adds
six seeds to one cell; -variants LABEL,... those variants, e.g.
observability -variants range-0,range-0p35 -iterations 1200 extends two
ranges' runs (gains.csv and the figures then hold those cells alone, and
the command that tabulates every cell, with -table, is printed).
-first-seed S leaves seeds 1 to S-1 out (neither
trained nor tabulated), to split a cell's seeds over machines or
sessions: seed k has the same numbers whatever -first-seed is, and
-table on a directory holding them all tabulates them together. -table
trains nothing: it writes the table and curves of the runs finished in
DIR, e.g. -seeds 9 -table tabulates every cell with the seeds it has,
and -table alone gives the table so far of a reproduction still
running.
-entropy W trains every run with PPO's entropy bonus of weight W
(the experiments have none, as the paper): e.g. tag-large -entropy 0.01
-dir results/tag-large-entropy. A run keeps the setting it was trained
with; a directory of runs trained without it is refused, not mixed.
-difference-rewards trains every agent on its difference reward (the
experiments train on the team reward, as the paper, and tag-vmas on
each chaser's own reward, which the difference reward replaces: it keeps
the chaser's own distance term), in the learning experiments (matrix,
capture and the tags); the same holds for a directory trained without it.

-jobs runs several runs at once; each already uses two goroutines (one per
team), so -jobs 1 (the default) keeps two cores busy. The results do not
depend on -jobs. A progress line goes to standard error.

hetgps NAME runs a HetGPS preset (softmax, powersum, adverse, descent or
all) in DIR (default results/hetgps/<name>); -setting matrix2,capture
runs only the settings of those labels, and -table writes the
trajectories, figures and summary of the runs finished in DIR without
running any. Interrupted, both write those of the runs finished so far.
With -setting, trajectories.csv and summary.txt then hold those settings
only (as -pairs does for the table); -table without -setting, with the
largest -seeds used, writes them again for every setting. -iterations
counts the iterations of the search, after a setting's warm-up (the
descent in capture trains the teams for 200 first). -first-seed works as
for the learning experiments: -seeds 36 -first-seed 19 searches seeds 19
to 36 only, independent of a first test on seeds 1 to 18.`)
	return b.String()
}

var reproduceCommand = &command{
	name:     "reproduce",
	summary:  "run one of the paper's learning experiments: gains table and figures, resumable",
	synopsis: reproducerNames("|") + " [-dir DIR] [-jobs J] [-seeds K] [-iterations I]",
	about:    reproduceAbout(),
	examples: []example{
		{"hetgain reproduce matrix2", "54 runs of 400,000 (continuous) or 80,000 (discrete) frames per team; results in results/matrix2"},
		{"hetgain reproduce matrix -jobs 2 -dir results/m4", "N = M = 4, two runs at once"},
		{"hetgain reproduce capture -seeds 5 -iterations 600", ""},
		{"hetgain reproduce hetgps adverse -setting capture", "one setting of a HetGPS preset"},
	},
	setup: setupReproduce,
}

// reproduceJob is one run of the reproduce command.
type reproduceJob struct {
	*app
	name       string // as given, e.g. "matrix"
	dir        string // "" if -dir was not given
	jobs       int
	seeds      int     // 0 if -seeds was not given
	firstSeed  int     // -first-seed, 0 if not given
	iterations int     // 0 if -iterations was not given
	entropy    float64 // -entropy, 0 if not given
	difference bool    // -difference-rewards
	pairs      string  // -pairs, "" for all
	variants   string  // -variants, "" for all
	tableOnly  bool    // -table: tabulate the finished runs, train nothing
	settings   string  // hetgps: the settings to run, "" for all
	quiet      bool
	operands   []string // after the experiment's name: hetgps's preset
}

func setupReproduce(fs *flag.FlagSet) func(*app, *flag.FlagSet) error {
	dir := fs.String("dir", "", "`DIR` for the runs and results (default results/<experiment>)")
	jobs := fs.Int("jobs", 1, "runs trained at once (at most 256, and about 4 GB of memory)")
	seeds := fs.Int("seeds", 0, "seeds per cell (0: the experiment's own, 3 but for observability and observability-index, 4, and tag-large-30m, 9; at most 10000)")
	firstSeed := fs.Int("first-seed", 0, "train and tabulate only seeds `S` to -seeds of each cell (0: from 1)")
	iterations := fs.Int("iterations", 0, "training iterations per run (0: the experiment's; at most 1000000)")
	entropy := fs.Float64("entropy", 0, "train with PPO's entropy bonus of weight `W` (0: the experiment's, none; learning experiments only)")
	difference := fs.Bool("difference-rewards", false, "train each agent on its difference reward (the learning experiments: matrix, capture and tag)")
	pairs := fs.String("pairs", "", "only these (U, T) pairs, `U-T,...` (default all)")
	variants := fs.String("variants", "", "only these variants, `LABEL,...` as range-0,range-0p35 (default all)")
	tableOnly := fs.Bool("table", false, "write the table and figures of the runs finished in DIR, without training")
	quiet := fs.Bool("quiet", false, "no progress line")
	settings := fs.String("setting", "", "hetgps only: run only the settings with these `LABELS`, as matrix2,capture (default all)")
	return func(a *app, fs *flag.FlagSet) error {
		ops, err := operands(fs, a.args) // flags after the name too
		if err != nil {
			return err
		}
		if len(ops) == 0 {
			return usagef("which experiment? want one of %s", reproducerNames(", "))
		}
		name := ops[0]
		if len(ops) > 1 && !strings.EqualFold(name, "hetgps") { // hetgps takes an experiment name too
			return unexpectedArg(ops[1])
		}
		r := findReproducer(name)
		if r == nil {
			return usagef("unknown experiment %q: want one of %s", name, reproducerNames(", "))
		}
		for _, v := range []struct {
			name     string
			v, least int
		}{{"jobs", *jobs, 1}, {"seeds", *seeds, 0}, {"iterations", *iterations, 0}, {"first-seed", *firstSeed, 0}} {
			if err := atLeast(v.name, v.v, v.least); err != nil {
				return err
			}
		}
		if err := checkReproduceLimits(*jobs, *seeds, *iterations); err != nil {
			return err
		}
		if *seeds > 0 { // else the experiment's seeds bound -first-seed (runExperiment)
			if err := checkFirstSeed(*firstSeed, *seeds); err != nil {
				return err
			}
		}
		if *settings != "" && r.name != "hetgps" {
			return usagef("-setting %s: only reproduce hetgps has settings; %s runs them all", *settings, r.name)
		}
		if !(*entropy >= 0 && !math.IsInf(*entropy, 1)) {
			return usagef("-entropy %v: want a finite number >= 0", *entropy)
		}
		if *entropy > 0 && r.name == "hetgps" {
			return usagef("-entropy %v: reproduce hetgps runs its presets' settings; use hetgain hetgps -entropy", *entropy)
		}
		if *difference && r.name == "hetgps" {
			return usagef("-difference-rewards: reproduce hetgps runs its presets' settings; use hetgain hetgps -difference-rewards")
		}
		if *variants != "" && r.name == "hetgps" {
			return usagef("-variants %s: reproduce hetgps has settings, not variants: use -setting", *variants)
		}
		if *pairs != "" && r.name == "hetgps" {
			return usagef("-pairs %s: reproduce hetgps has settings, not (U, T) pairs: use -setting", *pairs)
		}
		return r.run(&reproduceJob{app: a, name: r.name, dir: *dir, jobs: *jobs, seeds: *seeds, firstSeed: *firstSeed, iterations: *iterations,
			entropy: *entropy, difference: *difference, pairs: *pairs, variants: *variants, tableOnly: *tableOnly, quiet: *quiet,
			settings: *settings, operands: ops[1:]})
	}
}

// runExperiment runs the experiment of reproduce.Lookup(j.name), or with
// -table tabulates its finished runs.
func runExperiment(j *reproduceJob) error {
	lookup := j.experiment
	if lookup == nil {
		lookup = reproduce.Lookup
	}
	e, err := lookup(j.name)
	if err != nil {
		return usagef("%v", err)
	}
	if j.seeds > 0 {
		e.Seeds = j.seeds
	}
	if j.firstSeed > e.Seeds { // -seeds not given: setupReproduce checks it against -seeds
		return usagef("-first-seed %d: over the %d seeds per cell; give -seeds too", j.firstSeed, e.Seeds)
	}
	e.FirstSeed = j.firstSeed
	if j.iterations > 0 {
		e = e.WithIterations(j.iterations)
	}
	if j.entropy > 0 {
		e.Team.EntropyCoef = j.entropy
	}
	if j.difference { // in place of the experiment's reward, team or own (tag-vmas)
		e.Team.AgentRewards = false
		e.Team.DifferenceRewards = true
	}
	if j.pairs != "" { // else the experiment's own pairs (all, or tag-large-30m's one)
		if e, err = e.WithPairs(j.pairs); err != nil {
			return usagef("-pairs: %s", strings.TrimPrefix(err.Error(), "reproduce: "))
		}
	}
	if e, err = e.WithVariants(j.variants); err != nil {
		return usagef("-variants: %s", strings.TrimPrefix(err.Error(), "reproduce: "))
	}
	dir := j.dir
	if dir == "" {
		dir = filepath.Join("results", e.Name)
	}
	if !j.tableOnly {
		if err := checkExperimentMemory(e, j.jobs); err != nil {
			return err
		}
	}
	var res *reproduce.Results
	if j.tableOnly {
		res, err = reproduce.Load(e, dir)
	} else {
		res, err = trainExperiment(j, e, dir)
	}
	switch {
	case err == nil:
	case errors.Is(err, errInterrupted):
		return err
	case j.tableOnly && !errors.Is(err, learn.ErrConfig):
		return fmt.Errorf("-table: %s", strings.TrimPrefix(err.Error(), "reproduce: "))
	case errors.Is(err, learn.ErrCheckpoint):
		return checkpointError(err, "reproduce: ", "")
	case errors.Is(err, learn.ErrConfig):
		return usagef("%s", strings.TrimPrefix(err.Error(), "reproduce: "))
	default:
		return fmt.Errorf("%v\nfinished runs are kept in %s; once the cause is fixed, resume with\n  %s", err, dir, j.resumeCommand("reproduce"))
	}
	if len(res.Cells) == 0 { // only -table can find none
		return noFinishedRuns(e.Runs(), dir)
	}
	var b strings.Builder
	b.WriteString(res.Summary())
	b.WriteString("\n")
	paths, err := res.Save(dir)
	if err != nil {
		return err
	}
	for _, p := range paths {
		fmt.Fprintf(&b, "wrote %s\n", p)
	}
	if (j.pairs != "" || j.variants != "") && !j.tableOnly {
		fmt.Fprintf(&b, "(these files hold only the cells of -pairs and -variants; %s tabulates every finished cell of %s)\n",
			j.tableCommand(), dir)
	}
	_, err = io.WriteString(j.stdout, b.String())
	return err
}

// tableCommand is the running command without its -pairs and -variants
// and with -table: the command that tabulates every finished run of its
// directory.
func (j *reproduceJob) tableCommand() string {
	parts := []string{"hetgain", "reproduce"}
	for k := 0; k < len(j.args); k++ {
		name, _, hasValue := strings.Cut(strings.TrimLeft(j.args[k], "-"), "=")
		if strings.HasPrefix(j.args[k], "-") && (name == "pairs" || name == "variants") {
			if !hasValue {
				k++ // the value is the next argument
			}
			continue
		}
		parts = append(parts, shellQuote(j.args[k]))
	}
	return strings.Join(append(parts, "-table"), " ")
}

// noFinishedRuns is the error of -table when none of the runs in dir is
// finished: writing the tables of nothing would replace earlier ones.
func noFinishedRuns(runs int, dir string) error {
	return fmt.Errorf("-table: none of the %d runs in %s is finished with these settings; nothing written, the tables and figures there are left as they were\n"+
		"(a run counts as finished at the -iterations it was trained with: give those, and its -seeds)", runs, dir)
}

// checkReproduceLimits returns a usage error if -jobs, -seeds or
// -iterations is above its limit.
func checkReproduceLimits(jobs, seeds, iterations int) error {
	for _, v := range []struct {
		name     string
		v, limit int
	}{{"jobs", jobs, maxJobs}, {"seeds", seeds, maxSeeds}, {"iterations", iterations, maxIterations}} {
		if err := atMost(v.name, v.v, v.limit); err != nil {
			return err
		}
	}
	return nil
}

// checkJobsMemory returns a usage error if -jobs runs at once, each of
// the estimated memory of the largest run, would need more than
// maxMemory.
func checkJobsMemory(jobs, runs int, largest float64) error {
	return checkMemory(float64(min(jobs, runs))*largest, fmt.Sprintf("%d runs at once", min(jobs, runs)), fmt.Sprintf("-jobs %d", jobs))
}

// checkExperimentMemory is checkJobsMemory for the runs of e.
func checkExperimentMemory(e reproduce.Experiment, jobs int) error {
	largest := 0.0
	for _, v := range e.Variants {
		s, err := sizesOf(v.Env)
		if err != nil {
			continue // the experiment reports it
		}
		spec := learn.RunSpec{Env: v.Env, Team: e.Team, EvalEpisodes: e.EvalEpisodes}
		largest = math.Max(largest, pairBytes(spec, s, e.TaskEval.Episodes, 1))
	}
	return checkJobsMemory(jobs, e.Runs(), largest)
}

// saveTablesSoFar rewrites the tables (gains.csv, runs.csv) of e's
// runs finished in dir, so that a reproduction killed without the chance
// to write them (SIGKILL, power loss) still has every finished run's row.
func saveTablesSoFar(e reproduce.Experiment, dir string) error {
	res, err := reproduce.Load(e, dir)
	if err != nil {
		return err
	}
	if len(res.Cells) == 0 {
		return nil
	}
	_, err = res.SaveTables(dir)
	return err
}

// trainExperiment runs e in dir with progress on stderr. If it is
// interrupted, it writes the table and figures of the runs finished so far
// and how to resume, and returns errInterrupted.
func trainExperiment(j *reproduceJob, e reproduce.Experiment, dir string) (*reproduce.Results, error) {
	runs := e.Runs()
	prog := newProgress(j.stderr, j.now, j.terminal, "reproduce "+e.Name)
	rp := newRunProgress(prog, runs, e.TotalIterations())
	tables := &tablesSoFar{w: j.stderr, command: "reproduce", save: func() error { return saveTablesSoFar(e, dir) }}
	opt := reproduce.Options{Dir: dir, Jobs: j.jobs, Stop: func() bool { return j.ctx.Err() != nil }}
	opt.Progress = func(p reproduce.Progress) {
		if p.OnDisk { // iterations an earlier process kept: done, not in the time left
			rp.readBack(p.Cell, p.Iteration)
			return
		}
		tables.report(p.Done, p.Iteration, p.Iterations, p.FPS)
		if !j.quiet {
			rp.update(p.Cell, p.Done, p.Iteration, p.Iterations, p.FPS, p.EvalGain)
		}
	}
	announced := j.announceStop("reproduce")
	res, err := reproduce.Run(e, opt)
	announced()
	prog.finish()
	if !errors.Is(err, learn.ErrStopped) {
		return res, err
	}
	fmt.Fprintf(j.stderr, "hetgain reproduce: interrupted: %d of %d runs finished; the running ones kept their checkpoints in %s.\n",
		len(res.Cells), runs, dir)
	if len(res.Cells) > 0 {
		paths, err := res.Save(dir)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(j.stderr, "The finished runs' table and figures: %s\n", strings.Join(paths, ", "))
	}
	fmt.Fprintf(j.stderr, "Resume with the same command:\n  %s\n", j.resumeCommand("reproduce"))
	return nil, errInterrupted
}
