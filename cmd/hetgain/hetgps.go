package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hetgain/hetgain/learn"
	"github.com/hetgain/hetgain/reproduce"
)

var hetgpsCommand = &command{
	name:     "hetgps",
	summary:  "HetGPS: learn the reward parameters that maximise ΔR, resumable",
	synopsis: "-dir DIR [-env matrix|capture|tag] [-U U -T T] [-params T.t,U.t] [-bounds T.t=LO:HI,...] [-clamp T.t=LO:HI,...] [flags]",
	about: `
Hetgps runs Heterogeneity Gain Parameter Search (the paper's Algorithm 1):
a heterogeneous and a homogeneous team are trained by PPO side by side (as
the train command), and the environment parameters θ (-params, by default
the parameters T.t and U.t of the aggregators T and U) move by gradient
ascent on the heterogeneity gain G(π_het) − G(π_hom), differentiated
through the simulator with the teams' stochastic policies (their noise
held fixed) on -grad-episodes episodes, or with -grad-deterministic their
deterministic policies (the modes): then two teams that act alike have a
gain and a gradient of exactly 0, where sampled actions give noise that
Adam turns into full steps (see learn.HetGPSSpec.DeterministicGrad).
-descent minimises the gain instead; with -floor, θ holds still in an
iteration whose measured gain is at or below 0 (a negative learned gain is
the heterogeneous team lagging, not a θ with less gain: see
learn.HetGPSSpec.DescentFloor).

θ starts at the parameters of -U and -T (softmax(0) is the mean,
powersum(1) the sum). -env-params NAME=V,... fixes other parameters of
the environment for the whole run (as train's -env-params; a parameter
cannot be both searched and fixed). -bounds keeps a parameter in (LO, HI) by optimising
a raw value ρ with θ = LO + (HI−LO)(tanh ρ + 1)/2, as the paper does for
power-sum (0.3:6); other parameters are unbounded. -clamp then clamps θ
into [LO, HI], as the paper's code clamps power-sum's exponents to
0.4:5.9 after that squash; beyond the clamp the gradient is 0, so an end
that θ reaches holds it for the rest of the run (see
learn.ThetaParam). θ steps with Adam at -theta-lr (or plain gradient
steps with -sgd). -sum-difference, for two parameters, steps them in the
basis of their sum and difference (learn.HetGPSSpec.SumDifference), as
the power-sum preset does in the matrix game. -relative-gain steps θ on
the gain relative to the size of the teams' returns instead of on the
gain (learn.HetGPSSpec.RelativeGain): a parameter that scales the reward,
as a power-sum U's exponent does, then gains nothing from the scale. It
has a ceiling of its own: it reaches 2 wherever the homogeneous team earns
a vanishing share of the heterogeneous team's return, however small both
are, and in Multi-goal-capture it took 13 of 18 power-sum seeds to such a
corner (REPRODUCTIONS.md).

Schedules (-schedule): concurrent, the agents train at every iteration
and θ steps at every -x-th; alternated, cycles of -x iterations that train
the agents only, then -y iterations that step θ only (they collect no
rollouts).

Seed k (k = 1, ..., -seeds) runs in DIR/<env>/seed<k>: spec.json, log.csv
(one row per iteration: the columns of train's log, then grad_gain,
theta_<name>, grad_<name> and env_step) and checkpoint.gob. -first-seed S
runs and tabulates only seeds S to -seeds, with the numbers they have in
a run of all: -seeds 36 -first-seed 19 gives 18 seeds independent of
those of -seeds 18, for a second test of a finding.
DIR/trajectories.csv (θ and the gain per iteration, mean and standard
deviation over seeds) and DIR/summary.txt (for each seed, whether τ_T
rose, τ_U fell and the gain rose; then where the seeds ended, as mean ±
std and median) are rewritten with the seeds finished so far as each
seed finishes. When every seed is done, hetgps writes them and the
figure of τ_T, τ_U, the gain and both teams' diversity against the
iteration to DIR/hetgps-<env>.png, or with -plot FILE to FILE instead
(DIR/hetgps-<env>.png is then neither written nor removed). If some
seeds ended as expected and others did not, it also draws the two groups
as separate bands (their θ, gain and heterogeneous team's diversity) to
DIR/hetgps-<env>-outcomes.png. It prints the summary and the files
written.

Ctrl-C (SIGINT) or SIGTERM stops after the running iteration (it says so
at once; a second Ctrl-C quits at once, as a crash would), keeps a
checkpoint (θ, its optimiser and both teams), writes the same files for
the seeds finished so far (if any), exits with status 130 and
prints the command that resumes: the same command again, which continues
with the same numbers as an uninterrupted run. A larger -iterations
extends finished runs; other settings need another -dir (a -dir that
holds the runs of another environment is refused).

The size flags have upper limits (given with each flag below), and the
two teams with the gradient's episodes may need at most about 4 GB of
memory, as estimated from the networks, an iteration's frames and the
episodes; larger settings are refused as a bad command line.

A progress line (runs done, iteration, frames per second, θ, the gain)
goes to standard error: in place on a terminal, a line every 5 seconds
otherwise.`,
	examples: []example{
		{"hetgain hetgps -env matrix -U 'softmax(0)' -T 'softmax(0)' -grad-deterministic -iterations 400 -seeds 3 -dir runs/hetgps", "the paper's Figure 5a in the matrix game: τ_T rises, τ_U falls"},
		{"hetgain hetgps -U 'powersum(1)' -T 'powersum(1)' -bounds T.t=0.3:6,U.t=0.3:6 -dir runs/ps", "power-sum, bounded as in the paper"},
		{"hetgain hetgps -U 'powersum(1)' -T 'powersum(1)' -bounds T.t=0.3:6,U.t=0.3:6 -clamp T.t=0.4:5.9,U.t=0.4:5.9 -dir runs/ps-clamp", "and clamped as in the paper's code"},
		{"hetgain hetgps -U 'softmax(-5)' -T 'softmax(5)' -descent -floor -dir runs/down", "minimise the gain, holding θ once it reaches 0"},
		{"hetgain hetgps -env capture -envs 16 -iterations 400 -dir runs/capture", ""},
		{"hetgain hetgps -schedule alternated -x 5 -y 1 -params T.t -dir runs/alt", "search T's parameter only"},
	},
	setup: setupHetGPS,
}

// Register hetgps before help in the list of commands (commands.go fills
// it in an init function that runs before this file's).
func init() {
	registerBeforeHelp(hetgpsCommand)
}

// hetgpsParseRanges reads the ranges of -bounds or -clamp, as
// "T.t=0.3:6,U.t=0.3:6".
func hetgpsParseRanges(s string) (map[string][2]float64, error) {
	b := map[string][2]float64{}
	for _, part := range splitTop(s, ',') {
		name, rng, ok := strings.Cut(part, "=")
		lo, hi, ok2 := strings.Cut(rng, ":")
		if !ok || !ok2 {
			return nil, fmt.Errorf("%q is not NAME=LO:HI, as in T.t=0.3:6", part)
		}
		l, err1 := strconv.ParseFloat(strings.TrimSpace(lo), 64)
		h, err2 := strconv.ParseFloat(strings.TrimSpace(hi), 64)
		if err1 != nil || err2 != nil || math.IsNaN(l) || math.IsNaN(h) || math.IsInf(l, 0) || math.IsInf(h, 0) || l >= h {
			return nil, fmt.Errorf("%q: want finite LO < HI", part)
		}
		name = strings.TrimSpace(name)
		if _, dup := b[name]; dup {
			return nil, fmt.Errorf("%q is given twice", name)
		}
		b[name] = [2]float64{l, h}
	}
	return b, nil
}

func setupHetGPS(fs *flag.FlagSet) func(*app, *flag.FlagSet) error {
	env := newChoice("matrix", "matrix", "capture", "tag")
	fs.Var(env, "env", "environment `ENV`: matrix (continuous), capture or tag")
	u := fs.String("U", "softmax(0)", "outer aggregator `U` with its starting parameter")
	t := fs.String("T", "softmax(0)", "task aggregator `T` with its starting parameter")
	n := fs.Int("N", 2, "number of agents `N` (tag: chasers; at most 256)")
	m := fs.Int("M", 2, "number of tasks `M` (capture: goals, at most 3; tag: escapers; at most 256)")
	params := fs.String("params", "T.t,U.t", "the parameters θ searched, as `T.t,U.t`")
	bounds := fs.String("bounds", "", "bounded parameters, as `T.t=0.3:6,U.t=0.3:6` (others are unbounded)")
	clamp := fs.String("clamp", "", "parameters clamped after the squash, as `T.t=0.4:5.9,U.t=0.4:5.9` (others are not)")
	envParams := fs.String("env-params", "", "fix other environment parameters, as `shaping=0.2` (default: the environment's own)")
	schedule := newChoice("concurrent", "concurrent", "alternated")
	fs.Var(schedule, "schedule", "`SCHEDULE`: concurrent or alternated")
	x := fs.Int("x", 1, "concurrent: θ steps every x iterations; alternated: x agent iterations per cycle")
	y := fs.Int("y", 1, "alternated: y environment iterations per cycle")
	warmUp := fs.Int("warmup", 0, "iterations at the start that train the agents only, before the schedule begins")
	descent := fs.Bool("descent", false, "minimise the gain instead of maximising it")
	floor := fs.Bool("floor", false, "with -descent: θ holds still while the measured gain is at or below 0")
	sgd := fs.Bool("sgd", false, "plain gradient steps on θ instead of Adam")
	sumDifference := fs.Bool("sum-difference", false, "step two parameters in the basis of their sum and difference (Adam then moves their difference steadily)")
	relativeGain := fs.Bool("relative-gain", false, "step θ on the gain relative to the teams' returns, (G_het − G_hom)/((|G_het| + |G_hom|)/2), which the reward's scale cannot inflate")
	deterministic := fs.Bool("grad-deterministic", false, "the gain and its gradient from the teams' deterministic policies, not sampled actions")
	thetaLR := fs.Float64("theta-lr", learn.HetGPSDefaultThetaLR, "learning rate of θ")
	gradEpisodes := fs.Int("grad-episodes", 32, "episodes of the gain and its gradient (at most 1000000)")
	episodeLength := fs.Int("episode-length", 0, "steps of a capture or tag episode (0: 100; at most 100000; not for the matrix game, of one step)")
	seeds := fs.Int("seeds", 1, "number of seeds (runs 1 to K; at most 10000)")
	firstSeed := fs.Int("first-seed", 0, "run only seeds `S` to -seeds (0: from 1)")
	iterations := fs.Int("iterations", 200, "HetGPS iterations of each run (at most 1000000)")
	dir := fs.String("dir", "", "`DIR` for the runs and results (required)")
	plot := fs.String("plot", "", "write the figure to `FILE` ("+pictureKinds()+") instead of DIR/hetgps-<env>.png")
	quiet := fs.Bool("quiet", false, "no progress line")
	sensor := fs.Bool("sensor", false, sensorUsage)
	tf := addTrainFlags(fs)

	return func(a *app, fs *flag.FlagSet) error {
		if err := noArgs(fs); err != nil {
			return err
		}
		if *dir == "" {
			return usagef("-dir DIR is required: the directory of the runs and their checkpoints")
		}
		for _, v := range []struct {
			name     string
			v, least int
		}{{"seeds", *seeds, 1}, {"iterations", *iterations, 1}, {"x", *x, 1}, {"y", *y, 1},
			{"grad-episodes", *gradEpisodes, 1}, {"episode-length", *episodeLength, 0}, {"warmup", *warmUp, 0}} {
			if err := atLeast(v.name, v.v, v.least); err != nil {
				return err
			}
		}
		if err := checkFirstSeed(*firstSeed, *seeds); err != nil {
			return err
		}
		for _, v := range []struct {
			name     string
			v, limit int
		}{{"seeds", *seeds, maxSeeds}, {"iterations", *iterations, maxIterations}, {"N", *n, maxAgents}, {"M", *m, maxAgents},
			{"grad-episodes", *gradEpisodes, maxEpisodes}, {"episode-length", *episodeLength, maxEpisodeLength}} {
			if err := atMost(v.name, v.v, v.limit); err != nil {
				return err
			}
		}
		if !(*thetaLR > 0) || math.IsInf(*thetaLR, 0) {
			return usagef("-theta-lr %v: want a finite number > 0", *thetaLR)
		}
		if err := atLeast("N", *n, 1); err != nil {
			return err
		}
		if err := atLeast("M", *m, 1); err != nil {
			return err
		}
		if err := checkFirstThetaStep(*iterations, *warmUp, *x, schedule.value); err != nil {
			return err
		}
		if env.value == "matrix" && *episodeLength != 0 {
			return usagef("-episode-length %d: the matrix game's episodes are one step; -episode-length is for -env capture and tag", *episodeLength)
		}
		if err := checkSensor(*sensor, env.value); err != nil {
			return err
		}
		if isSet(fs, "y") && schedule.value != "alternated" {
			return usagef("-y %d needs -schedule alternated: the concurrent schedule has no environment iterations of its own", *y)
		}
		if *floor && !*descent {
			return usagef("-floor needs -descent: it holds a descent at a gain of 0")
		}
		for _, op := range []struct{ flag, spec string }{{"U", *u}, {"T", *t}} {
			if _, err := parseOperator(op.spec); err != nil {
				return usagef("-%s: %v", op.flag, err)
			}
		}
		bd, err := hetgpsParseRanges(*bounds)
		if err != nil {
			return usagef("-bounds: %v", err)
		}
		cl, err := hetgpsParseRanges(*clamp)
		if err != nil {
			return usagef("-clamp: %v", err)
		}
		cfg, err := tf.config(fs)
		if err != nil {
			return err
		}
		es := learn.EnvSpec{Name: env.value, Agents: *n, Tasks: *m, U: *u, T: *t, EpisodeLength: *episodeLength, Sensor: *sensor}
		if *envParams != "" {
			p, err := parseTaskParams(*envParams, es)
			if err != nil {
				return usagef("-env-params: %v", err)
			}
			es.Params = *p
		}
		if err := checkEnvSize(env.value, *n, *m); err != nil {
			return err
		}
		probe, err := es.New(1)
		if err != nil {
			return usagef("%s", strings.TrimPrefix(err.Error(), "learn: "))
		}
		start := probe.Params()
		spec := learn.HetGPSSpec{
			Run: learn.RunSpec{Env: es, Team: cfg, Iterations: *iterations,
				EvalEvery: *tf.evalEvery, EvalEpisodes: *tf.evalEpisodes},
			AgentIters: *x, EnvIters: *y, WarmUp: *warmUp, Descent: *descent, DescentFloor: *floor, SGD: *sgd, SumDifference: *sumDifference, ThetaLR: *thetaLR, GradEpisodes: *gradEpisodes,
			RelativeGain: *relativeGain, DeterministicGrad: *deterministic,
		}
		if schedule.value == "alternated" {
			spec.Schedule = learn.Alternated
		}
		names := splitTop(*params, ',')
		if len(names) == 0 {
			return usagef("-params %q: want at least one parameter to search, as T.t (%s has %s)", *params, env.value, paramNames(start.Names))
		}
		for k, name := range names {
			v, err := start.Get(name)
			if err != nil {
				return usagef("-params: %s has no parameter %q (it has %s)", env.value, name, paramNames(start.Names))
			}
			if slices.Contains(names[:k], name) {
				return usagef("-params %s: %q is given twice", *params, name)
			}
			if es.Params.Index(name) >= 0 {
				return usagef("-env-params: %q is searched (-params %s); a parameter is either searched or fixed", name, *params)
			}
			p := learn.ThetaParam{Name: name, Init: v}
			if b, ok := bd[name]; ok {
				if !(v > b[0] && v < b[1]) {
					return usagef("-bounds: %s starts at %v, outside (%v, %v); want LO < %v < HI", name, v, b[0], b[1], v)
				}
				p.Low, p.High = b[0], b[1]
				delete(bd, name)
			}
			if c, ok := cl[name]; ok {
				if !(v > c[0] && v < c[1]) {
					return usagef("-clamp: %s starts at %v, outside (%v, %v); want LO < %v < HI", name, v, c[0], c[1], v)
				}
				if p.Bounded() && (c[0] < p.Low || c[1] > p.High) {
					return usagef("-clamp: %s's [%v, %v] reaches outside its -bounds (%v, %v)", name, c[0], c[1], p.Low, p.High)
				}
				p.ClampLow, p.ClampHigh = c[0], c[1]
				delete(cl, name)
			}
			spec.Params = append(spec.Params, p)
		}
		if *sumDifference && len(spec.Params) != 2 {
			return usagef("-sum-difference: -params %s has %d parameter(s); want exactly 2", *params, len(spec.Params))
		}
		for name := range bd {
			return usagef("-bounds: %q is not one of -params %s", name, *params)
		}
		for name := range cl {
			return usagef("-clamp: %q is not one of -params %s", name, *params)
		}
		if err := checkAgentRewards(spec.Run); err != nil {
			return err
		}
		filled := spec.Run.WithDefaults()
		if err := checkBatches(spec.Run, flagSize{"envs", filled.Team.Envs},
			flagSize{"eval-episodes", filled.EvalEpisodes}, flagSize{"grad-episodes", *gradEpisodes}); err != nil {
			return err
		}
		if err := spec.Check(); err != nil {
			return usagef("%s", strings.TrimPrefix(err.Error(), "learn: "))
		}
		if err := tf.checkSizes(fs, spec.Run, *gradEpisodes, hetgpsGradCost(len(spec.Params)),
			fmt.Sprintf("-grad-episodes %d", *gradEpisodes), fmt.Sprintf("-episode-length %d", probe.EpisodeLength())); err != nil {
			return err
		}
		if other := hetgpsOtherSettings(*dir, env.value); len(other) > 0 {
			return usagef("-dir %s holds the HetGPS runs of another environment (%s), whose summary.txt and trajectories.csv this search would overwrite: use another -dir",
				*dir, strings.Join(other, ", "))
		}
		e, err := reproduce.HetGPSSearch("hetgps", env.value, spec, *seeds)
		if err != nil {
			return usagef("%s", strings.TrimPrefix(err.Error(), "reproduce: "))
		}
		e.FirstSeed = *firstSeed
		if *plot == "" {
			*plot = filepath.Join(*dir, fmt.Sprintf("hetgps-%s.png", env.value))
		}
		if err := checkPictureName(*plot); err != nil {
			return usagef("-plot: %v", err)
		}
		if isSet(fs, "plot") { // before the runs, not after (DIR/... is made by them)
			if err := checkOutput("plot", *plot); err != nil {
				return err
			}
		}
		return a.runHetGPS(e, *dir, 1, *plot, *quiet, "hetgps")
	}
}

// hetgpsOtherSettings returns the subdirectories of dir other than label
// that hold HetGPS runs (<setting>/seed<k>/spec.json), in name order.
func hetgpsOtherSettings(dir, label string) []string {
	entries, _ := os.ReadDir(dir) // none if dir does not exist yet
	var other []string
	for _, entry := range entries {
		if !entry.IsDir() || entry.Name() == label {
			continue
		}
		if runs, _ := filepath.Glob(filepath.Join(dir, entry.Name(), "seed*", "spec.json")); len(runs) > 0 {
			other = append(other, filepath.Join(dir, entry.Name()))
		}
	}
	return other
}

// checkFirstThetaStep returns a usage error if θ would not step in a run
// of iterations (-iterations) with warmUp (-warmup) and x (-x) under the
// schedule (-schedule), before HetGPSSpec.Check's error, which names the
// fields of learn.HetGPSSpec. All are >= 0.
func checkFirstThetaStep(iterations, warmUp, x int, schedule string) error {
	how := "-warmup + -x"
	first := uint64(warmUp) + uint64(x) // cannot overflow: each is at most math.MaxInt
	if schedule == "alternated" {
		how, first = "-warmup + -x + 1, with -schedule alternated", first+1
	}
	if first > uint64(iterations) {
		return usagef("-iterations %d -warmup %d -x %d: θ would first step at iteration %d (%s); want more -iterations, or a smaller -warmup or -x",
			iterations, warmUp, x, first, how)
	}
	return nil
}

// checkHetGPSMemory is checkJobsMemory for the runs of e.
func checkHetGPSMemory(e reproduce.HetGPSExperiment, jobs int) error {
	largest := 0.0
	for _, st := range e.Settings {
		s, err := sizesOf(st.Spec.Run.Env)
		if err != nil {
			continue // the experiment reports it
		}
		episodes := st.Spec.GradEpisodes
		if episodes == 0 {
			episodes = 32 // learn's default
		}
		largest = math.Max(largest, pairBytes(st.Spec.Run, s, episodes, hetgpsGradCost(len(st.Spec.Params))))
	}
	return checkJobsMemory(jobs, e.Runs(), largest)
}

// hetgpsGradCost is the memory of an episode of HetGPS's gradient, in
// episodes of training: the environment with a tangent per parameter.
func hetgpsGradCost(params int) float64 { return float64(2 + params) }

// runHetGPS runs e in dir, writes its results and prints its summary.
// plot, if not empty, is where the figure of the (single) setting goes.
func (a *app) runHetGPS(e reproduce.HetGPSExperiment, dir string, jobs int, plot string, quiet bool, command string) error {
	prog := newProgress(a.stderr, a.now, a.terminal, command)
	hp := newHetGPSProgress(prog, e, jobs)
	opt := reproduce.HetGPSOptions{Dir: dir, Jobs: jobs, Stop: func() bool { return a.ctx.Err() != nil }}
	tables := &tablesSoFar{w: a.stderr, command: command, save: func() error { return saveHetGPSTablesSoFar(e, dir) }}
	opt.Progress = func(r reproduce.HetGPSProgress) {
		tables.report(r.Done, r.Iteration, r.Iterations, r.FPS)
		if !quiet {
			hp.update(r)
		}
	}
	announced := a.announceStop(command)
	res, err := reproduce.RunHetGPSExperiment(e, opt)
	announced()
	prog.finish()
	runs := e.Runs()
	switch {
	case errors.Is(err, learn.ErrStopped):
		fmt.Fprintf(a.stderr, "hetgain %s: interrupted: %d of %d runs finished; the running ones kept their checkpoints in %s.\n",
			command, len(res.Runs), runs, dir)
		if len(res.Runs) > 0 {
			paths, err := saveHetGPS(res, dir, plot)
			if err != nil {
				return err
			}
			fmt.Fprintf(a.stderr, "The finished runs' trajectories, figures and summary: %s\n", strings.Join(paths, ", "))
		}
		fmt.Fprintf(a.stderr, "Resume with the same command:\n  %s\n", a.resumeCommand(command))
		return errInterrupted
	case errors.Is(err, learn.ErrCheckpoint):
		return checkpointError(err, "reproduce: ", "")
	case errors.Is(err, learn.ErrConfig):
		return usagef("%s", strings.TrimPrefix(err.Error(), "reproduce: "))
	case err != nil:
		return fmt.Errorf("%v\nfinished runs are kept in %s; once the cause is fixed, resume with\n  %s", err, dir, a.resumeCommand(command))
	}
	return a.writeHetGPS(res, dir, plot)
}

// saveHetGPSTablesSoFar rewrites trajectories.csv and summary.txt with
// e's runs finished in dir, so that a reproduction killed without the
// chance to write them (SIGKILL, power loss) still has every finished
// run in them.
func saveHetGPSTablesSoFar(e reproduce.HetGPSExperiment, dir string) error {
	res, err := reproduce.LoadHetGPS(e, dir)
	if err != nil || len(res.Runs) == 0 {
		return err
	}
	_, err = res.SaveTables(dir)
	return err
}

// tabulateHetGPS reads the finished runs of e in dir back, without
// running anything, and writes their results as runHetGPS does.
func (a *app) tabulateHetGPS(e reproduce.HetGPSExperiment, dir string) error {
	res, err := reproduce.LoadHetGPS(e, dir)
	switch {
	case errors.Is(err, learn.ErrConfig):
		return usagef("%s", strings.TrimPrefix(err.Error(), "reproduce: "))
	case err != nil:
		return fmt.Errorf("-table: %s", strings.TrimPrefix(err.Error(), "reproduce: "))
	case len(res.Runs) == 0:
		return noFinishedRuns(e.Runs(), dir)
	}
	return a.writeHetGPS(res, dir, "")
}

// writeHetGPS writes the trajectories, figures and summary of res
// (saveHetGPS) and prints the summary and the paths written; the summary
// is printed even if the figure cannot be drawn to plot, so that the
// error does not hide the results.
func (a *app) writeHetGPS(res *reproduce.HetGPSResults, dir, plot string) error {
	paths, err := saveHetGPS(res, dir, plot)
	if len(paths) == 0 {
		return err
	}
	if _, err := io.WriteString(a.stdout, res.Summary()); err != nil {
		return err
	}
	if err != nil {
		return err
	}
	var b strings.Builder
	for _, p := range paths {
		fmt.Fprintf(&b, "wrote %s\n", p)
	}
	_, err = io.WriteString(a.stdout, b.String())
	return err
}

// saveHetGPS writes the trajectories and summary of res to dir and its
// figures: for a single setting with plot not empty (hetgps, whose -plot
// defaults to DIR/hetgps-<env>.png), its figure to plot and to nowhere
// else; otherwise each setting's to dir (res.Save). The figure by outcome
// (res.SaveOutcomeFigures) goes to dir either way. It returns the paths
// written, in Save's order; if the figure cannot be drawn to plot, the
// tables' and the error.
func saveHetGPS(res *reproduce.HetGPSResults, dir, plot string) ([]string, error) {
	e := res.Experiment
	if plot == "" || len(e.Settings) != 1 {
		return res.Save(dir)
	}
	paths, err := res.SaveTables(dir)
	if err != nil {
		return paths, err
	}
	if err := res.Figure(e.Settings[0].Label).Save(plot); err != nil {
		return paths, fmt.Errorf("-plot %s: %v; the results are in %s", plot, err, dir)
	}
	outcomes, err := res.SaveOutcomeFigures(dir)
	return append(append([]string{paths[0], plot}, outcomes...), paths[1]), err
}

// hetgpsProgress is the progress line of HetGPS runs. Its time left is
// summed over the settings, each at its own seconds per iteration (a
// Multi-goal-capture iteration takes several times a matrix game's), or at
// the mean over all settings for one not trained yet, and divided by the
// runs that train at once.
type hetgpsProgress struct {
	p          *progress
	jobs       int // runs trained at once
	started    time.Time
	last       map[string]time.Time // of the previous update, by run
	done       map[string]int
	total, sum int
	left       map[string]int     // iterations left, by setting
	trained    map[string]int     // iterations trained by this process, by setting
	spent      map[string]float64 // seconds their runs spent on them
}

func newHetGPSProgress(p *progress, e reproduce.HetGPSExperiment, jobs int) *hetgpsProgress {
	start := p.now()
	h := &hetgpsProgress{p: p, jobs: max(1, jobs), started: start, last: map[string]time.Time{},
		done: map[string]int{}, left: map[string]int{}, trained: map[string]int{}, spent: map[string]float64{}}
	seeds := e.Runs() / len(e.Settings)
	for _, s := range e.Settings {
		h.total += seeds * s.Spec.Run.Iterations
		h.left[s.Label] += seeds * s.Spec.Run.Iterations
	}
	return h
}

// eta returns the time left with runsLeft runs unfinished, or false before
// any iteration was trained.
func (h *hetgpsProgress) eta(runsLeft int) (time.Duration, bool) {
	trained, spent := 0, 0.0
	for s, n := range h.trained {
		trained, spent = trained+n, spent+h.spent[s]
	}
	if trained == 0 {
		return 0, false
	}
	left := 0.0
	for s, n := range h.left {
		perIter := spent / float64(trained)
		if h.trained[s] > 0 {
			perIter = h.spent[s] / float64(h.trained[s])
		}
		left += float64(n) * perIter
	}
	return time.Duration(left / float64(max(1, min(h.jobs, runsLeft))) * float64(time.Second)), true
}

func (h *hetgpsProgress) update(r reproduce.HetGPSProgress) {
	now := h.p.now()
	setting, _, _ := strings.Cut(r.Run, "/") // Run is "<setting>/seed<k>"
	if prev := h.done[r.Run]; r.Iteration > prev {
		h.sum += r.Iteration - prev
		h.done[r.Run] = r.Iteration
		h.left[setting] -= r.Iteration - prev
		// A run's first update is not timed: when it started is not known
		// (with several jobs, not at the previous update of another run).
		if since, ok := h.last[r.Run]; ok && r.FPS > 0 {
			h.trained[setting] += r.Iteration - prev
			h.spent[setting] += now.Sub(since).Seconds()
		}
	}
	if r.FPS > 0 { // not a report of iterations read back from disk, which may come long before the run trains
		h.last[r.Run] = now
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d/%d runs done; %s iteration %d/%d", h.p.label, r.Done, r.Total, r.Run, r.Iteration, r.Iterations)
	if r.FPS > 0 {
		fmt.Fprintf(&b, ", %.0f frames/s", r.FPS)
	}
	for k, name := range r.Names {
		if k < len(r.Theta) {
			fmt.Fprintf(&b, ", %s %.3g", name, r.Theta[k])
		}
	}
	if !math.IsNaN(r.Gain) {
		fmt.Fprintf(&b, ", ΔR %.3g", r.Gain)
	}
	if h.sum >= h.total {
		b.WriteString("; took " + roundDuration(now.Sub(h.started)))
	} else if eta, ok := h.eta(r.Total - r.Done); ok {
		b.WriteString("; ETA " + roundDuration(eta))
	}
	h.p.show(now, b.String(), r.Done >= r.Total)
}

// hetgpsTestHook, if not nil, changes the preset experiments that
// "reproduce hetgps" runs (tests make them small).
var hetgpsTestHook func(reproduce.HetGPSExperiment) reproduce.HetGPSExperiment

// hetgpsReproductions are the names "hetgain reproduce hetgps" takes.
func hetgpsReproductions() string { return strings.Join(reproduce.HetGPSNames, "|") + "|all" }

// runHetGPSReproducer is the reproducer "hetgps" of reproduce.go: it runs
// runHetGPSReproduction on the operands after "hetgps".
func runHetGPSReproducer(j *reproduceJob) error { return runHetGPSReproduction(j, j.operands) }

// runHetGPSReproduction runs "hetgain reproduce hetgps NAME": a preset
// HetGPS experiment of package reproduce, or all of them for "all", each
// in DIR/<name> (default results/hetgps/<name>).
func runHetGPSReproduction(j *reproduceJob, args []string) error {
	switch len(args) {
	case 0:
		return usagef("which HetGPS experiment? want one of %s", hetgpsReproductions())
	case 1:
	default:
		return usagef("hetgps takes one experiment (%s), got %q", hetgpsReproductions(), args)
	}
	which := strings.ToLower(args[0])
	names := reproduce.HetGPSNames
	if which != "all" {
		if _, err := reproduce.HetGPSLookup(which); err != nil {
			return usagef("unknown HetGPS experiment %q: want one of %s", which, hetgpsReproductions())
		}
		names = []string{which}
	}
	for _, name := range names {
		e, _ := reproduce.HetGPSLookup(name)
		if hetgpsTestHook != nil {
			e = hetgpsTestHook(e)
		}
		if j.seeds > 0 {
			e.Seeds = j.seeds
		}
		if j.firstSeed > e.Seeds { // -seeds not given: setupReproduce checks it against -seeds
			return usagef("-first-seed %d: over the %d seeds of %s; give -seeds too", j.firstSeed, e.Seeds, name)
		}
		e.FirstSeed = j.firstSeed
		if j.iterations > 0 {
			e = e.WithIterations(j.iterations)
		}
		if j.settings != "" {
			var err error
			if e, err = e.Only(strings.Split(j.settings, ",")...); err != nil {
				return usagef("-setting %s: %v", j.settings, strings.TrimPrefix(err.Error(), "reproduce: "))
			}
		}
		dir := filepath.Join("results", "hetgps", name)
		if j.dir != "" {
			dir = j.dir
			if len(names) > 1 {
				dir = filepath.Join(j.dir, name)
			}
		}
		if !j.tableOnly {
			if err := checkHetGPSMemory(e, j.jobs); err != nil {
				return err
			}
		}
		run := func() error { return j.runHetGPS(e, dir, j.jobs, "", j.quiet, "reproduce") }
		if j.tableOnly {
			run = func() error { return j.tabulateHetGPS(e, dir) }
		}
		if err := run(); err != nil {
			return err
		}
	}
	return nil
}
