package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
	"github.com/hetgain/hetgain/aggregators"
	"github.com/hetgain/hetgain/figures"
	"github.com/hetgain/hetgain/gain"
	"github.com/hetgain/hetgain/internal/atomicfile"
	"github.com/hetgain/hetgain/learn"
	"github.com/hetgain/hetgain/reproduce"
	"github.com/hetgain/hetgain/simulate"
	"github.com/hetgain/hetgain/tables"
)

// Files train writes in its -dir.
const (
	trainCSV = "gains.csv"
	trainPNG = "curves.png"
)

var trainCommand = &command{
	name:     "train",
	summary:  "train heterogeneous vs homogeneous PPO teams: the learned ΔR, resumable",
	synopsis: "-dir DIR [-env matrix|capture|tag|tag-vmas] [-U U -T T] [-N N -M M] [-seeds K] [-iterations I] [flags]",
	about: `
Train trains, for each seed, a heterogeneous team (one policy per agent)
and a homogeneous team (one policy shared by all agents) side by side by
PPO (MAPPO, or IPPO with -ippo) in the same environment from the same seed,
and reports the learned heterogeneity gain ΔR = R_het − R_hom: the
difference of the mean evaluation returns of the two teams' deterministic
policies at the end of training.

Environments (-env): matrix, the one-step matrix game (-discrete: each
agent picks one task); capture, Multi-goal-capture (N agents, M goals);
tag, Tag (N chasers, M escapers, 2 obstacles); tag-vmas, the same game as
the VMAS scenario file of the paper's authors defines it (slow escapers,
a chaser held on the first escaper it catches; simulate.TagVMAS). The
team reward is R = U∘T, with U and T written as in min or 'softmax(2)'.

Training settings are learn's defaults (2 x 64 tanh units, 64 environments,
1600 frames per iteration, 4 epochs of minibatches of 400, learning rate
3e-3), or with -reference the paper's (2 x 256 units, 60,000 frames per
iteration, 45 epochs of 4096, learning rate 5e-5), which need a GPU's
throughput. The other flags override either.

Seed k (k = 1, ..., -seeds) runs in DIR/seed<k>: spec.json, log.csv (one
row per iteration, written as it goes: training and evaluation returns,
gains, each team's diversity at evaluations, 0 for agents that behave
alike, and each team's PPO update: entropy, approximate KL divergence,
clip fraction and value loss) and checkpoint.gob. DIR/gains.csv (one row per seed, full
precision: final evaluation returns, gain and diversities) is rewritten
as each seed finishes, with the seeds finished so far. When every seed
is done, train prints the final evaluation returns and gain of each seed
and their mean ± standard deviation, and draws the curves (-plot,
default DIR/curves.png): the evaluation returns of both teams, ΔR and
both teams' diversity, mean ± std over seeds, against the frames each
team collected, with the closed-form ΔR for the matrix game.

-first-seed S trains and reports only seeds S to -seeds, with the numbers
they have in a run of all: to split a study's seeds over machines or
sessions (-seeds 9 -first-seed 7 on one, -seeds 6 on another: the same
nine runs), or to run fresh seeds for a second test of a finding
(-seeds 36 -first-seed 19 after -seeds 18). Its gains.csv and report
number the seeds as they are.

-env-params NAME=V,... trains in environments with these parameters set
(learn.EnvSpec.Params), any of the environment's: Tag's shaping (the
weight of the distance term, 0.1 by default), penalty, drag or
escaper.speed, the reward's U.t or T.t. A run keeps them: resuming it
with others is refused. -task-params then sets its own on top of them.

-task-params scores each seed's final policies once more after training,
in environments with these parameters set, on -task-episodes episodes
(default 512): for Tag, -task-params shaping=0,penalty=0 removes the
distance shaping and the collision penalty from the returns, which then
count captures alone, as the paper's Tag gains do (heterogeneous teams
earn the shaping better, which inflates ΔR). The report and gains.csv then
also give these returns and their gain (TaskHet, TaskHom, TaskGain).

-team het or -team hom prints and plots only that team's returns. Both
teams are still trained, as a pair (twice the time of one team), and
gains.csv has both.

Ctrl-C (SIGINT) or SIGTERM stops training after the running iteration
(it says so at once; a second Ctrl-C quits at once, as a crash would),
keeps a checkpoint, writes gains.csv and the curves of the seeds finished
(if any), exits with status 130 and prints the command that resumes: the
same command again. It continues each seed from its
checkpoint (finished seeds are read back, not retrained), with the same
numbers as an uninterrupted run. A larger -iterations extends finished
runs; a smaller one reports them at that iteration (their last
evaluation up to it; refused if there is none, or with -task-params,
which plays the final policies). Other settings need another -dir.

The size flags have upper limits (given with each flag below), and the
two teams together may need at most about 4 GB of memory, as estimated
from the networks, an iteration's frames and the evaluation episodes;
larger settings are refused as a bad command line.

A progress line (runs done, iteration, frames per second of both teams,
the last evaluation's ΔR, time left) goes to standard error: in place on a
terminal, a line every 5 seconds otherwise.`,
	examples: []example{
		{"hetgain train -env matrix -U min -T max -N 4 -M 4 -seeds 3 -dir runs/minmax", "ΔR should approach the closed form 0.75"},
		{"hetgain train -env matrix -U min -T mean -N 4 -M 4 -discrete -iterations 50 -dir runs/disc", ""},
		{"hetgain train -env capture -U min -T max -envs 16 -iterations 400 -dir runs/capture", ""},
		{"hetgain train -env tag -U min -T max -team het -ippo -agent-index -dir runs/tag", ""},
		{"hetgain train -env tag -U min -T mean -envs 160 -frames-per-iter 16000 -minibatch 4000 -epochs 10 -lr 1e-3 -iterations 300 -eval-every 5 -task-params shaping=0,penalty=0 -dir runs/tag-large",
			"ΔR of the capture reward alone (the paper: 1.68)"},
	},
	setup: setupTrain,
}

// trainFlags are the flags of the training settings, shared with the
// commands that train.
type trainFlags struct {
	framesPerIter, envs, minibatch, epochs, workers *int
	evalEvery, evalEpisodes                         *int
	lr, entropy, gamma, lambda, clip, maxGradNorm   *float64
	hidden                                          *string
	ippo, agentIndex, agentRewards, reference       *bool
	differenceRewards, rawAdvantage                 *bool
}

func addTrainFlags(fs *flag.FlagSet) trainFlags {
	return trainFlags{
		framesPerIter:     fs.Int("frames-per-iter", 0, "frames each team collects per iteration (0: 1600, or 60000 with -reference; at most 10000000)"),
		envs:              fs.Int("envs", 0, "environments in a batch (0: 64, or 600 with -reference; at most 1000000)"),
		minibatch:         fs.Int("minibatch", 0, "frames per minibatch (0: 400, or 4096 with -reference, or the frames of an iteration if fewer; if set, at most the frames of an iteration)"),
		epochs:            fs.Int("epochs", 0, "passes over an iteration's frames (0: 4, or 45 with -reference; at most 10000)"),
		workers:           fs.Int("workers", 0, "goroutines collecting each team's rollouts (0: 1; at most 1024); results depend on it"),
		evalEvery:         fs.Int("eval-every", 0, "iterations between evaluations (0: 1)"),
		evalEpisodes:      fs.Int("eval-episodes", 0, "episodes of an evaluation (0: 32; at most 1000000)"),
		lr:                fs.Float64("lr", 0, "Adam learning rate of actor and critic (0: 3e-3, or 5e-5 with -reference)"),
		entropy:           fs.Float64("entropy", 0, "weight of PPO's entropy bonus (0: none)"),
		gamma:             fs.Float64("gamma", 0, "discount γ, in (0, 1] (0: 0.9, as the paper)"),
		lambda:            fs.Float64("lambda", 0, "GAE parameter λ, in (0, 1] (0: 0.9, as the paper)"),
		clip:              fs.Float64("clip", 0, "PPO's clipping parameter ε (0: 0.2)"),
		maxGradNorm:       fs.Float64("max-grad-norm", 0, "largest norm of a network's gradient per minibatch (0: 1, or 40 with -reference)"),
		hidden:            fs.String("hidden", "", "widths of the hidden layers, as `64,64` (default 64,64, or 256,256 with -reference; at most 16 layers of 16384)"),
		ippo:              fs.Bool("ippo", false, "IPPO: a critic per agent on its own observation (default MAPPO: one centralised critic)"),
		agentIndex:        fs.Bool("agent-index", false, "append each agent's one-hot index to its observation"),
		agentRewards:      fs.Bool("agent-rewards", false, "train each agent on its own reward, where the environment has one (tag: its own distance term); returns and gains stay the team's"),
		differenceRewards: fs.Bool("difference-rewards", false, "train each agent on its difference reward (R(A) less R(A) without its efforts; in tag with each chaser's own distance term, in capture with the shared covering bonus); returns and gains stay the team's"),
		reference:         fs.Bool("reference", false, "start from the paper's settings (learn.ReferenceConfig) instead of learn's defaults"),
		rawAdvantage:      fs.Bool("raw-advantage", false, "do not normalise the advantages of each minibatch, as the paper's template (the default with -reference; -raw-advantage=false turns it off there)"),
	}
}

// config returns the team configuration the flags describe.
func (f trainFlags) config(fs *flag.FlagSet) (learn.Config, error) {
	var c learn.Config
	if *f.reference {
		c = learn.ReferenceConfig()
	}
	for _, v := range []struct {
		name  string
		src   *int
		dst   *int
		limit int
	}{{"frames-per-iter", f.framesPerIter, &c.FramesPerIter, maxFramesPerIter}, {"envs", f.envs, &c.Envs, maxEnvs},
		{"minibatch", f.minibatch, &c.Minibatch, maxFramesPerIter}, {"epochs", f.epochs, &c.Epochs, maxEpochs},
		{"workers", f.workers, &c.Workers, maxWorkers}} {
		if *v.src < 0 {
			return c, usagef("-%s %d: want >= 0", v.name, *v.src)
		}
		if err := atMost(v.name, *v.src, v.limit); err != nil {
			return c, err
		}
		if isSet(fs, v.name) && *v.src > 0 {
			*v.dst = *v.src
		}
	}
	for _, v := range []struct {
		name  string
		src   *float64
		upTo1 bool // a fraction: at most 1
		dst   []*float64
	}{{"lr", f.lr, false, []*float64{&c.LR, &c.CriticLR}}, {"entropy", f.entropy, false, []*float64{&c.EntropyCoef}},
		{"gamma", f.gamma, true, []*float64{&c.Gamma}}, {"lambda", f.lambda, true, []*float64{&c.Lambda}},
		{"clip", f.clip, false, []*float64{&c.Clip}}, {"max-grad-norm", f.maxGradNorm, false, []*float64{&c.MaxGradNorm}}} {
		want, ok := "a finite number >= 0", *v.src >= 0 && !math.IsInf(*v.src, 1)
		if v.upTo1 {
			want, ok = "a number in [0, 1]", *v.src >= 0 && *v.src <= 1
		}
		if !ok {
			return c, usagef("-%s %v: want %s", v.name, *v.src, want)
		}
		if isSet(fs, v.name) && *v.src > 0 {
			for _, d := range v.dst {
				*d = *v.src
			}
		}
	}
	if *f.hidden != "" || isSet(fs, "hidden") {
		c.Hidden = nil
		for _, s := range strings.Split(*f.hidden, ",") {
			w, err := strconv.Atoi(strings.TrimSpace(s))
			if err != nil || w < 1 || w > maxWidth {
				return c, usagef("-hidden %q: want layer widths from 1 to %d, as 64,64", *f.hidden, maxWidth)
			}
			c.Hidden = append(c.Hidden, w)
		}
		if len(c.Hidden) > maxLayers {
			return c, usagef("-hidden %q: %d layers; want at most %d", *f.hidden, len(c.Hidden), maxLayers)
		}
	}
	if *f.ippo {
		c.Critic = learn.PerAgent
	}
	c.AgentIndex = *f.agentIndex
	c.AgentRewards = *f.agentRewards
	c.DifferenceRewards = *f.differenceRewards
	if c.AgentRewards && c.DifferenceRewards {
		return c, usagef("-agent-rewards and -difference-rewards: want at most one (each trains every agent on a reward of its own)")
	}
	if isSet(fs, "raw-advantage") {
		c.RawAdvantage = *f.rawAdvantage
	}
	if err := atLeast("eval-every", *f.evalEvery, 0); err != nil {
		return c, err
	}
	if err := atLeast("eval-episodes", *f.evalEpisodes, 0); err != nil {
		return c, err
	}
	if err := atMost("eval-episodes", *f.evalEpisodes, maxEpisodes); err != nil {
		return c, err
	}
	if err := c.Check(); err != nil {
		return c, usagef("%s", strings.TrimPrefix(err.Error(), "learn: "))
	}
	return c, nil
}

// checkSizes returns a usage error if an explicit -minibatch is larger
// than an iteration's frames (the rest of it would be empty), or if the
// run of spec (a pair of teams), with extraEpisodes further episodes at
// extraCost times an episode's memory each (named by extraFlags), would
// need more than maxMemory.
func (f trainFlags) checkSizes(fs *flag.FlagSet, spec learn.RunSpec, extraEpisodes int, extraCost float64, extraFlags ...string) error {
	env, err := spec.Env.New(1)
	if err != nil {
		return usagef("%s", strings.TrimPrefix(err.Error(), "learn: "))
	}
	s := sizesOfEnv(env, spec.Env.Tasks)
	full := spec.WithDefaults()
	frames := float64(full.Team.FramesPerIteration(s.length))
	if isSet(fs, "minibatch") && float64(*f.minibatch) > frames {
		return usagef("-minibatch %d: an iteration has %.0f frames (-frames-per-iter %d rounded up to whole episodes of -envs %d x -workers %d); want at most %.0f",
			*f.minibatch, frames, full.Team.FramesPerIter, full.Team.Envs, full.Team.Workers, frames)
	}
	return checkMemory(pairBytes(spec, s, extraEpisodes, extraCost), "the two teams",
		append(sizeFlags(spec), extraFlags...)...)
}

// checkAgentRewards returns a usage error naming the flag if the teams of
// spec train on the agents' own rewards (-agent-rewards) or difference
// rewards (-difference-rewards) in an environment that has none. An
// environment that cannot be built is left to spec.Check.
func checkAgentRewards(spec learn.RunSpec) error {
	env, err := spec.Env.New(1)
	if err != nil {
		return nil
	}
	team := spec.Team
	if _, ok := env.(simulate.AgentRewarder); team.AgentRewards && !ok {
		return usagef("-agent-rewards: %s has no rewards of each agent's own, only the team's (tag and tag-vmas have: each chaser's own distance term)", env.Name())
	}
	if _, ok := env.(simulate.DifferenceRewarder); team.DifferenceRewards && !ok {
		return usagef("-difference-rewards: %s has no difference rewards, only the team's", env.Name())
	}
	return nil
}

func setupTrain(fs *flag.FlagSet) func(*app, *flag.FlagSet) error {
	env := newChoice("matrix", "matrix", "capture", "tag", "tag-vmas")
	fs.Var(env, "env", "environment `ENV`: matrix, capture, tag or tag-vmas")
	u := fs.String("U", "min", "outer aggregator `U`, as in min or 'softmax(2)'")
	t := fs.String("T", "max", "task aggregator `T`")
	n := fs.Int("N", 2, "number of agents `N` (tag, tag-vmas: chasers; at most 256)")
	m := fs.Int("M", 2, "number of tasks `M` (capture: goals, at most 3; tag, tag-vmas: escapers; at most 256)")
	discrete := fs.Bool("discrete", false, "discrete matrix game: each agent picks one task")
	sensor := fs.Bool("sensor", false, sensorUsage)
	team := newChoice("both", "both", "het", "hom")
	fs.Var(team, "team", "`TEAM` to report: both, het or hom (both are trained)")
	seeds := fs.Int("seeds", 3, "number of seeds (runs 1 to K; at most 10000)")
	firstSeed := fs.Int("first-seed", 0, "train and report only seeds `S` to -seeds (0: from 1)")
	iterations := fs.Int("iterations", 100, "training iterations of each run (at most 1000000)")
	dir := fs.String("dir", "", "`DIR` for the runs, gains.csv and curves.png (required)")
	plot := fs.String("plot", "", "write the curves to `FILE` ("+pictureKinds()+"; default DIR/curves.png)")
	quiet := fs.Bool("quiet", false, "no progress line")
	envParams := fs.String("env-params", "", "train in environments with these parameters, as `shaping=0.2` (default: the environment's own)")
	taskParams := fs.String("task-params", "", "score the final policies with these environment parameters, as `shaping=0,penalty=0`")
	taskEpisodes := fs.Int("task-episodes", 512, "episodes of the -task-params evaluation (at most 1000000)")
	tf := addTrainFlags(fs)

	return func(a *app, fs *flag.FlagSet) error {
		if err := noArgs(fs); err != nil {
			return err
		}
		if *dir == "" {
			return usagef("-dir DIR is required: the directory of the runs and their checkpoints")
		}
		if err := atLeast("seeds", *seeds, 1); err != nil {
			return err
		}
		if err := atLeast("iterations", *iterations, 1); err != nil {
			return err
		}
		if err := checkFirstSeed(*firstSeed, *seeds); err != nil {
			return err
		}
		if err := atLeast("N", *n, 1); err != nil {
			return err
		}
		if err := atLeast("M", *m, 1); err != nil {
			return err
		}
		for _, v := range []struct {
			name     string
			v, limit int
		}{{"seeds", *seeds, maxSeeds}, {"iterations", *iterations, maxIterations}, {"N", *n, maxAgents}, {"M", *m, maxAgents},
			{"task-episodes", *taskEpisodes, maxEpisodes}} {
			if err := atMost(v.name, v.v, v.limit); err != nil {
				return err
			}
		}
		if *discrete && env.value != "matrix" {
			return usagef("-discrete applies to -env matrix only")
		}
		if err := checkSensor(*sensor, env.value); err != nil {
			return err
		}
		for _, op := range []struct{ flag, spec string }{{"U", *u}, {"T", *t}} {
			if _, err := parseOperator(op.spec); err != nil {
				return usagef("-%s: %v", op.flag, err)
			}
		}
		cfg, err := tf.config(fs)
		if err != nil {
			return err
		}
		spec := learn.RunSpec{
			Env:        learn.EnvSpec{Name: env.value, Agents: *n, Tasks: *m, Discrete: *discrete, U: *u, T: *t, Sensor: *sensor},
			Team:       cfg,
			Iterations: *iterations, EvalEvery: *tf.evalEvery, EvalEpisodes: *tf.evalEpisodes,
		}
		if *envParams != "" {
			p, err := parseTaskParams(*envParams, spec.Env)
			if err != nil {
				return usagef("-env-params: %v", err)
			}
			spec.Env.Params = *p
		}
		if err := checkAgentRewards(spec); err != nil {
			return err
		}
		if err := checkEnvSize(env.value, *n, *m); err != nil {
			return err
		}
		// The environment first (sizes it cannot have, a reward -U and -T
		// cannot score), so that only a batch it cannot hold names -envs.
		if _, err := spec.Env.New(1); err != nil {
			return usagef("%s", strings.TrimPrefix(err.Error(), "learn: "))
		}
		filled := spec.WithDefaults()
		if err := checkBatches(spec, flagSize{"envs", filled.Team.Envs}, flagSize{"eval-episodes", filled.EvalEpisodes}); err != nil {
			return err
		}
		if err := spec.Check(); err != nil {
			return usagef("%s", strings.TrimPrefix(err.Error(), "learn: "))
		}
		j := &trainJob{app: a, spec: spec, first: max(*firstSeed, 1), seeds: *seeds, dir: *dir, team: team.value, plot: *plot, quiet: *quiet}
		if *taskParams == "" && isSet(fs, "task-episodes") {
			return usagef("-task-episodes %d: it sizes the -task-params evaluation; give -task-params too", *taskEpisodes)
		}
		if *taskParams != "" {
			if j.task, err = parseTaskParams(*taskParams, spec.Env); err != nil {
				return usagef("-task-params: %v", err)
			}
			if *taskEpisodes < 1 {
				return usagef("-task-episodes %d: want >= 1", *taskEpisodes)
			}
			if err := checkBatches(spec, flagSize{"task-episodes", *taskEpisodes}); err != nil {
				return err
			}
			j.taskEpisodes = *taskEpisodes
		}
		var taskFlag []string
		if j.task != nil {
			taskFlag = []string{fmt.Sprintf("-task-episodes %d", j.taskEpisodes)}
		}
		if err := tf.checkSizes(fs, spec, j.taskEpisodes, 1, taskFlag...); err != nil {
			return err
		}
		if j.plot == "" {
			j.plot = filepath.Join(j.dir, trainPNG)
		}
		if err := checkPictureName(j.plot); err != nil {
			return usagef("-plot: %v", err)
		}
		return j.run()
	}
}

// sensorUsage is the help of the -sensor flag of train and hetgps.
const sensorUsage = "capture: add the range sensor that sees the other agents (12 rays; its range is the parameter sensor.range, 0.35 unless -env-params sets it)"

// checkSensor returns a usage error if -sensor is given for an
// environment other than capture, the one with a range sensor.
func checkSensor(sensor bool, env string) error {
	if sensor && env != "capture" {
		return usagef("-sensor applies to -env capture only (%s has no range sensor)", env)
	}
	return nil
}

// checkEnvSize returns a usage error naming -N or -M if env cannot place
// n agents or m tasks, before the library's error, which names the
// fields of its configuration.
func checkEnvSize(env string, n, m int) error {
	if env != "capture" {
		return nil
	}
	if most := simulate.CaptureMaxAgents(); n > most {
		return usagef("-N %d: capture places at most %d agents (%v apart in their spawn area)", n, most, simulate.CaptureAgentGap)
	}
	if most := simulate.CaptureMaxGoals(); m > most {
		return usagef("-M %d: capture places at most %d goals (%v apart on their line); more goals need fixed positions, which only Go code gives (simulate.CaptureConfig.FixedGoals)",
			m, most, simulate.CaptureGoalGap)
	}
	return nil
}

// checkBatches returns a usage error naming the flag of the first of
// sizes, batches of episodes played at once, that the environment of
// spec cannot hold (spec.CheckEpisodes), before RunSpec.Check's error,
// which names the field of learn.RunSpec.
func checkBatches(spec learn.RunSpec, sizes ...flagSize) error {
	for _, b := range sizes {
		if b.v < 1 {
			continue // checked by the flag's own rule
		}
		if err := spec.CheckEpisodes(b.v); err != nil {
			msg := strings.TrimPrefix(err.Error(), "learn: ")
			msg = strings.TrimPrefix(msg, fmt.Sprintf("episodes = %d: ", b.v))
			msg = strings.TrimSuffix(msg, ": "+learn.ErrConfig.Error())
			return usagef("-%s %d: %s", b.flag, b.v, msg)
		}
	}
	return nil
}

// flagSize is a flag's name and its value.
type flagSize struct {
	flag string
	v    int
}

// trainJob is one run of the train command.
type trainJob struct {
	*app
	spec learn.RunSpec
	// first and seeds are the seeds trained: first, ..., seeds.
	first, seeds int
	dir          string
	team         string // both, het or hom
	plot         string
	quiet        bool
	// task, if not nil, are the parameters of the evaluation of the final
	// policies (-task-params), on taskEpisodes episodes.
	task         *simulate.Params
	taskEpisodes int
}

// taskScore is the result of a trainJob's task evaluation of one seed.
type taskScore struct{ het, hom float64 }

// parseTaskParams reads "NAME=V,NAME=V" and checks that env accepts it.
func parseTaskParams(s string, env learn.EnvSpec) (*simulate.Params, error) {
	p := &simulate.Params{}
	for _, part := range splitTop(s, ',') {
		name, value, ok := strings.Cut(part, "=")
		name = strings.TrimSpace(name)
		v, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
		if !ok || name == "" || err != nil {
			return nil, fmt.Errorf("%q is not NAME=VALUE, as in shaping=0", part)
		}
		if p.Index(name) >= 0 {
			return nil, fmt.Errorf("%q is set twice", name)
		}
		p.Names, p.Values = append(p.Names, name), append(p.Values, v)
	}
	e, err := env.New(1)
	if err != nil {
		return nil, err
	}
	known := e.Params()
	for _, name := range p.Names {
		if known.Index(name) < 0 {
			return nil, fmt.Errorf("%s has no parameter %q (its parameters: %s)", env.Name, name, paramNames(known.Names))
		}
	}
	if err := e.SetParams(*p); err != nil { // a value outside its domain
		return nil, errors.New(strings.TrimPrefix(err.Error(), "simulate: "))
	}
	return p, nil
}

// paramNames lists an environment's parameter names for a message, or
// says it has none and what gives the reward some.
func paramNames(names []string) string {
	if len(names) == 0 {
		return "none: with -U and -T such as min and max the reward has no parameter; softmax(0) or powersum(1) has one"
	}
	return strings.Join(names, ", ")
}

// checkCut returns a usage error when the stored run in dir, of ran
// iterations, read only up to -iterations (kept), leaves nothing to
// report: no evaluation among the kept iterations, or -task-params, which
// plays the policies of the run's last iteration, not of -iterations.
func (j *trainJob) checkCut(dir string, ran int, kept []learn.PairStats) error {
	if j.task != nil {
		return usagef("-iterations %d with -task-params: %s has run %d iterations, and -task-params plays the policies of the last one; use -iterations %d",
			j.spec.Iterations, dir, ran, ran)
	}
	if math.IsNaN(finalRow(kept).EvalGain) {
		return usagef("-iterations %d: %s has run %d iterations and has no evaluation in the first %d (-eval-every %d); use a larger -iterations",
			j.spec.Iterations, dir, ran, j.spec.Iterations, j.spec.EvalEvery)
	}
	return nil
}

// scoreTask plays the final policies of a seed's pair with j.task set.
// The pair is at iteration -iterations: checkCut refuses a run that went
// further.
func (j *trainJob) scoreTask(pair *learn.Pair, seed int64) (taskScore, error) {
	het, hom, err := pair.EvaluateWith(*j.task, j.taskEpisodes, seed)
	return taskScore{het, hom}, err
}

// checkpointError is the error of a command for err, which wraps
// learn.ErrCheckpoint, less prefix. A directory holding a run of other
// settings (learn.ErrOtherSettings) is a bad command line: those settings
// need another directory.
// A checkpoint or log that cannot be read, or that does not fit its run,
// is a failure of the files (exit 1), with how to train that run afresh:
// moving away or removing its directory, runDir if known.
func checkpointError(err error, prefix, runDir string) error {
	msg := strings.TrimPrefix(err.Error(), prefix)
	if errors.Is(err, learn.ErrOtherSettings) {
		return usagef("%s", msg)
	}
	where := "that run's directory"
	if runDir != "" {
		where = runDir
	}
	return fmt.Errorf("%s\nmove or remove %s to train that run afresh (the other runs are kept)", msg, where)
}

// resumeCommand is the command line that resumes this command: the same
// one.
func (a *app) resumeCommand(name string) string {
	parts := []string{"hetgain", name}
	for _, s := range a.args {
		parts = append(parts, shellQuote(s))
	}
	return strings.Join(parts, " ")
}

func (j *trainJob) run() error {
	if err := os.MkdirAll(j.dir, 0o755); err != nil {
		return err
	}
	if err := checkOutput("plot", j.plot); err != nil { // before training, not after
		return err
	}
	prog := newProgress(j.stderr, j.now, j.terminal, "train")
	runs := j.seeds - j.first + 1
	rp := newRunProgress(prog, runs, runs*j.spec.Iterations)
	for k := j.first; k <= j.seeds; k++ { // iterations kept by an earlier process are not in the time left
		if log, err := learn.ReadLog(filepath.Join(j.dir, "seed"+strconv.Itoa(k))); err == nil {
			rp.readBack("seed"+strconv.Itoa(k), min(len(log), j.spec.Iterations))
		}
	}
	stop := func() bool { return j.ctx.Err() != nil }
	announced := j.announceStop("train")
	defer announced()
	logs := make([][]learn.PairStats, 0, runs)
	var tasks []taskScore
	for k := j.first; k <= j.seeds; k++ {
		spec := j.spec
		spec.Team.Seed = int64(k)
		run := "seed" + strconv.Itoa(k)
		opt := learn.Options{Dir: filepath.Join(j.dir, run), Stop: stop}
		if !j.quiet {
			opt.Progress = func(s learn.PairStats) { rp.update(run, len(logs), s.Iteration, j.spec.Iterations, s.FPS, s.EvalGain) }
		}
		res, err := learn.Train(spec, opt)
		switch {
		case errors.Is(err, learn.ErrStopped):
			announced()
			prog.finish()
			if len(logs) > 0 { // the table and figure of the seeds finished
				if err := j.writeResults(logs, tasks); err != nil {
					return err
				}
			}
			fmt.Fprintf(j.stderr, "hetgain train: interrupted: %s stopped after iteration %d of %d, its checkpoint kept in %s; %d of %d seeds finished.\nResume with the same command:\n  %s\n",
				run, len(res.Log), j.spec.Iterations, opt.Dir, len(logs), runs, j.resumeCommand("train"))
			return errInterrupted
		case errors.Is(err, learn.ErrCheckpoint):
			prog.finish()
			return checkpointError(err, "learn: ", opt.Dir)
		case err != nil:
			prog.finish()
			return fmt.Errorf("%s: %v\nfinished iterations are kept in %s; once the cause is fixed, resume with\n  %s",
				run, err, opt.Dir, j.resumeCommand("train"))
		}
		log := res.Log
		if len(log) > j.spec.Iterations {
			log = log[:j.spec.Iterations]
			if err := j.checkCut(opt.Dir, len(res.Log), log); err != nil {
				prog.finish()
				return err
			}
		}
		logs = append(logs, log)
		if j.task != nil {
			score, err := j.scoreTask(res.Pair, spec.Team.Seed)
			if err != nil {
				prog.finish()
				return fmt.Errorf("%s: -task-params evaluation: %v", run, err)
			}
			tasks = append(tasks, score)
		}
		if err := j.writeCSV(logs, tasks); err != nil { // a seed's results as soon as it is done
			prog.finish()
			return err
		}
		if !j.quiet {
			fps := 0.0
			if res.ResumedAt < j.spec.Iterations && len(log) > 0 {
				fps = log[len(log)-1].FPS
			}
			rp.update(run, len(logs), j.spec.Iterations, j.spec.Iterations, fps, finalRow(log).EvalGain)
		}
	}
	prog.finish()
	return j.writeResults(logs, tasks)
}

// writeResults prints the report and draws the curves of the seeds in
// logs (run has written their gains.csv as each finished): the report
// comes before the drawing, so that a figure that cannot be written does
// not hide the results.
func (j *trainJob) writeResults(logs [][]learn.PairStats, tasks []taskScore) error {
	if err := j.report(logs, tasks); err != nil {
		return err
	}
	if err := j.curves(logs).Save(j.plot); err != nil {
		return fmt.Errorf("-plot %s: %v; the results are in %s", j.plot, err, filepath.Join(j.dir, trainCSV))
	}
	_, err := fmt.Fprintf(j.stdout, "wrote %s\n", j.plot)
	return err
}

// pictureExtensions are the extensions of the files figures.Figure.Save
// writes, as pictureKinds lists them.
var pictureExtensions = []string{".png", ".svg", ".pdf", ".eps", ".jpg", ".jpeg", ".tif", ".tiff"}

// pictureKinds lists pictureExtensions for a message or a flag's help:
// ".png, .svg, ... or .tiff".
func pictureKinds() string {
	n := len(pictureExtensions)
	return strings.Join(pictureExtensions[:n-1], ", ") + " or " + pictureExtensions[n-1]
}

// checkPictureName returns an error, listing every extension accepted,
// unless path ends in one that figures.Figure.Save writes (in any case).
func checkPictureName(path string) error {
	ext := strings.ToLower(filepath.Ext(path))
	for _, e := range pictureExtensions {
		if ext == e {
			return nil
		}
	}
	return fmt.Errorf("%q: want a file name ending in %s", path, pictureKinds())
}

// finalRow is the last row of log with an evaluation (learn.Result.Final).
func finalRow(log []learn.PairStats) learn.PairStats {
	r := learn.Result{Log: log}
	return r.Final()
}

// writeCSV writes DIR/gains.csv: one row per seed (the final evaluation's
// returns, gain and diversities), with the task evaluation's columns if
// there is one.
func (j *trainJob) writeCSV(logs [][]learn.PairStats, tasks []taskScore) error {
	n := len(logs)
	seed, iters, frames := make([]int, n), make([]int, n), make([]int, n)
	het, hom, g, secs := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	hetDiv, homDiv := make([]float64, n), make([]float64, n)
	for k, log := range logs {
		f := finalRow(log)
		seed[k], iters[k], frames[k] = j.first+k, len(log), int(log[len(log)-1].Frames)
		het[k], hom[k], g[k] = f.HetEval, f.HomEval, f.EvalGain
		hetDiv[k], homDiv[k] = f.HetDiversity, f.HomDiversity
		for _, row := range log {
			secs[k] += row.Seconds
		}
	}
	cols := []series.Series{
		series.New(seed, series.Int, "Seed"), series.New(iters, series.Int, "Iterations"), series.New(frames, series.Int, "Frames"),
		series.New(het, series.Float, "HetEval"), series.New(hom, series.Float, "HomEval"), series.New(g, series.Float, "Gain"),
		series.New(hetDiv, series.Float, "HetDiversity"), series.New(homDiv, series.Float, "HomDiversity")}
	if len(tasks) > 0 {
		th, tm, tg := make([]float64, n), make([]float64, n), make([]float64, n)
		for k, s := range tasks {
			th[k], tm[k], tg[k] = s.het, s.hom, s.het-s.hom
		}
		cols = append(cols, series.New(th, series.Float, "TaskHet"), series.New(tm, series.Float, "TaskHom"),
			series.New(tg, series.Float, "TaskGain"))
	}
	df := dataframe.New(append(cols, series.New(secs, series.Float, "Seconds"))...)
	return atomicfile.Write(filepath.Join(j.dir, trainCSV), func(w io.Writer) error { return tables.WriteCSV(w, df) })
}

// closedForm returns the closed-form ΔR of the matrix game of spec, or NaN.
func closedForm(env learn.EnvSpec) float64 {
	if env.Name != "matrix" {
		return math.NaN()
	}
	u, err1 := aggregators.Parse(env.U)
	t, err2 := aggregators.Parse(env.T)
	kind := gain.Continuous
	if env.Discrete {
		kind = gain.Discrete
	}
	if err1 != nil || err2 != nil {
		return math.NaN()
	}
	g, err := gain.ClosedForm(u, t, env.Agents, env.Tasks, kind)
	if err != nil {
		return math.NaN()
	}
	return g.Delta
}

// report prints each seed's final evaluation (and task evaluation) and
// their mean ± std, and the path of gains.csv.
func (j *trainJob) report(logs [][]learn.PairStats, tasks []taskScore) error {
	var b strings.Builder
	frames := logs[0][len(logs[0])-1].Frames
	fmt.Fprintf(&b, "%s: %d seed(s) x %d iterations, %d frames per team per run\n", j.spec.Env, len(logs), j.spec.Iterations, frames)
	cols := j.reportColumns(logs, tasks)
	fmt.Fprintf(&b, "%-6s", "seed")
	for _, c := range cols {
		fmt.Fprintf(&b, "  %20s", c.name)
	}
	b.WriteString("\n")
	for k := range logs {
		fmt.Fprintf(&b, "%-6d", j.first+k)
		for _, c := range cols {
			fmt.Fprintf(&b, "  %20.6g", c.values[k])
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "%-6s", "mean")
	oneSeed := len(logs) < 2
	for _, c := range cols {
		mean := fmt.Sprintf("%.4g", meanOf(c.values))
		if !oneSeed {
			mean += fmt.Sprintf(" ± %.2g", stdOf(c.values))
		}
		fmt.Fprintf(&b, "  %20s", mean)
	}
	if oneSeed {
		b.WriteString("\n(one seed: a standard deviation over seeds needs two)\n")
	} else {
		b.WriteString("\n(± is the standard deviation over seeds)\n")
	}
	if j.task != nil {
		fmt.Fprintf(&b, "(task: the final policies on %d episodes with %s)\n", j.taskEpisodes, j.task.String())
	}
	if th := closedForm(j.spec.Env); !math.IsNaN(th) && j.team == "both" {
		fmt.Fprintf(&b, "closed form: ΔR = %.6g\n", th)
	}
	if j.team != "both" {
		b.WriteString("(both teams were trained; gains.csv has both)\n")
	}
	fmt.Fprintf(&b, "wrote %s\n", filepath.Join(j.dir, trainCSV))
	_, err := io.WriteString(j.stdout, b.String())
	return err
}

// reportColumn is a column of the train report: a value per seed.
type reportColumn struct {
	name   string
	values []float64
}

// reportColumns returns the columns of the report for j.team: the final
// evaluation returns and gain, then those of the task evaluation.
func (j *trainJob) reportColumns(logs [][]learn.PairStats, tasks []taskScore) []reportColumn {
	het, hom, dr := reportColumn{name: "R_het (eval)"}, reportColumn{name: "R_hom (eval)"}, reportColumn{name: "ΔR"}
	for _, log := range logs {
		f := finalRow(log)
		het.values, hom.values, dr.values = append(het.values, f.HetEval), append(hom.values, f.HomEval), append(dr.values, f.EvalGain)
	}
	cols := map[string][]reportColumn{"both": {het, hom, dr}, "het": {het}, "hom": {hom}}[j.team]
	if len(tasks) == 0 {
		return cols
	}
	th, tm, tg := reportColumn{name: "R_het (task)"}, reportColumn{name: "R_hom (task)"}, reportColumn{name: "ΔR (task)"}
	for _, s := range tasks {
		th.values, tm.values, tg.values = append(th.values, s.het), append(tm.values, s.hom), append(tg.values, s.het-s.hom)
	}
	return append(cols, map[string][]reportColumn{"both": {th, tm, tg}, "het": {th}, "hom": {tm}}[j.team]...)
}

func meanOf(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}

// stdOf is the sample standard deviation (NaN for fewer than two values,
// which report does not print).
func stdOf(x []float64) float64 {
	if len(x) < 2 {
		return math.NaN()
	}
	m, s := meanOf(x), 0.0
	for _, v := range x {
		s += (v - m) * (v - m)
	}
	return math.Sqrt(s / float64(len(x)-1))
}

// band is reproduce.LogBand with a label.
func band(logs [][]learn.PairStats, label string, unit float64, get func(learn.PairStats) float64) figures.Band {
	b := reproduce.LogBand(logs, unit, get)
	b.Label = label
	return b
}

// curves draws the evaluation returns (and with -team both, ΔR) against
// frames.
func (j *trainJob) curves(logs [][]learn.PairStats) *figures.Figure {
	frames := logs[0][len(logs[0])-1].Frames
	unit, unitName := 1e3, "thousands"
	if frames >= 1e6 {
		unit, unitName = 1e6, "millions"
	}
	xLabel := "frames per team (" + unitName + ")"
	title := fmt.Sprintf("%s: mean ± std over %d seed(s)", j.spec.Env, len(logs))
	het := band(logs, "heterogeneous", unit, func(s learn.PairStats) float64 { return s.HetEval })
	hom := band(logs, "homogeneous", unit, func(s learn.PairStats) float64 { return s.HomEval })
	switch j.team {
	case "het":
		return figures.Bands(title, xLabel, "eval return", het)
	case "hom":
		return figures.Bands(title, xLabel, "eval return", hom)
	}
	gainPanel := figures.Panel{Title: "ΔR = R_het - R_hom",
		Bands: []figures.Band{band(logs, "ΔR", unit, func(s learn.PairStats) float64 { return s.EvalGain })}}
	if th := closedForm(j.spec.Env); !math.IsNaN(th) {
		gainPanel.Reference = []float64{th}
	}
	panels := []figures.Panel{{Title: "evaluation returns", Bands: []figures.Band{het, hom}}, gainPanel}
	hetDiv := band(logs, "heterogeneous", unit, func(s learn.PairStats) float64 { return s.HetDiversity })
	homDiv := band(logs, "homogeneous", unit, func(s learn.PairStats) float64 { return s.HomDiversity })
	if len(hetDiv.X) > 0 && len(homDiv.X) > 0 { // logs of older runs have none
		panels = append(panels, figures.Panel{Title: "diversity of efforts (0: alike)", Bands: []figures.Band{hetDiv, homDiv}})
	}
	return figures.BandPanels(title, xLabel, "eval return", len(panels), false, panels...)
}
