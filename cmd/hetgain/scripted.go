package main

import (
	"encoding/csv"
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/hetgain/hetgain/aggregators"
	"github.com/hetgain/hetgain/internal/atomicfile"
	"github.com/hetgain/hetgain/learn"
	"github.com/hetgain/hetgain/simulate"
)

var scriptedCommand = &command{
	name:     "scripted",
	summary:  "what a Tag game pays scripted specialists over scripted chasers that are alike",
	synopsis: "[-env tag|tag-vmas] [-u U,...] [-t T,...] [-n N] [-m M] [-episodes E] [-seed S] [-csv FILE]",
	about: `
Scripted measures the heterogeneity gain of a Tag game over a class of
hand-written chasers (simulate.ClassGain): each chaser runs after its
nearest escaper or after one fixed escaper (simulate.TagChaser), and
every team that gives each of the N chasers one of these M + 1 targets
plays the same episodes. The gain is the best team's mean return less
that of the best team whose chasers all have the same target: the
paper's ΔR with these teams in place of the allocations. It says what
the game pays for specialisation before any learning: a learned gain
well above it means a heterogeneous team found more than these scripts.

The pairs are every U in -u with every T in -t (each defaults to min,
mean and max). -task-params sets environment parameters as in train; its
default, shaping=0,penalty=0, leaves the capture reward alone (as the
final gains of reproduce tag-large and tag-vmas count it); give
-task-params '' for the training reward. The episodes are -episodes
(a multiple of 256, or fewer than 256) in batches of up to 256, from
seeds S, S+1, ...; every team plays the same ones.

For each pair it prints the best team and the best alike team, each with
its mean return and standard error, and the gain with the standard
error of the two teams' episode-by-episode differences. That error does
not count the choice of the best of all teams, which favours whichever
was lucky in these episodes: check a small gain on other seeds. A team
is written as each chaser's target: n for its nearest escaper, j for
escaper j. -csv FILE writes every team of every pair (full precision).
Ctrl-C stops after the pair being played and keeps those done (in the
CSV too).`,
	examples: []example{
		{"hetgain scripted -env tag-vmas", "the nine {min, mean, max} pairs in the paper's Tag, 4,096 episodes each"},
		{"hetgain scripted -env tag -u min -t max -episodes 16384 -csv teams.csv", ""},
		{"hetgain scripted -env tag -task-params shaping=0,penalty=0,escaper.speed=0.8", "our Tag with escapers slower than the chasers (reproduce tag-slow's game)"},
	},
	setup: setupScripted,
}

func init() { registerBeforeHelp(scriptedCommand) }

// scriptedBatch is the largest batch of episodes played at once.
const scriptedBatch = 256

// scriptedRun is one invocation of scripted: the game and the episodes.
type scriptedRun struct {
	env         string
	n, m        int
	params      simulate.Params
	gain, sigma float64
	episodes    int
	seed        int64
}

func setupScripted(fs *flag.FlagSet) func(*app, *flag.FlagSet) error {
	env := newChoice("tag-vmas", "tag", "tag-vmas")
	fs.Var(env, "env", "the game `ENV`: tag or tag-vmas")
	var us, ts operatorList
	fs.Var(&us, "u", "outer aggregators `U`, comma-separated or repeated (default min,mean,max)")
	fs.Var(&ts, "t", "task aggregators `T`, comma-separated or repeated (default min,mean,max)")
	n := fs.Int("n", 2, "number of chasers `N`")
	m := fs.Int("m", 2, "number of escapers `M`")
	episodes := fs.Int("episodes", 4096, "episodes per team `E`: a multiple of 256, or fewer than 256")
	seed := fs.Int64("seed", 1, "the first seed `S` of the episodes")
	steer := fs.Float64("gain", 10, "the chasers' steering gain (simulate.TagChaser.Gain), finite and > 0")
	sigma := fs.Float64("sigma", 0, "the chasers' action noise (simulate.TagChaser.Sigma), finite and >= 0")
	taskParams := fs.String("task-params", "shaping=0,penalty=0", "environment parameters `NAME=V,...` ('' for the game's own)")
	csvPath := fs.String("csv", "", "also write every team of every pair to `FILE` (CSV, full precision)")
	return func(a *app, fs *flag.FlagSet) error {
		if err := noArgs(fs); err != nil {
			return err
		}
		run := scriptedRun{env: env.value, n: *n, m: *m, gain: *steer, sigma: *sigma, episodes: *episodes, seed: *seed}
		if err := run.check(); err != nil {
			return err
		}
		if *taskParams != "" {
			p, err := parseTaskParams(*taskParams, run.spec(aggregators.Min{}, aggregators.Max{}))
			if err != nil {
				return usagef("-task-params: %v", err)
			}
			run.params = *p
		}
		if *csvPath != "" {
			if err := checkOutput("csv", *csvPath); err != nil {
				return err
			}
		}
		return a.scripted(run, crossPairs(us.ops, ts.ops), *csvPath)
	}
}

// check returns a usage error naming the first flag out of its domain.
func (r scriptedRun) check() error {
	if err := atLeast("n", r.n, 1); err != nil {
		return err
	}
	if err := atLeast("m", r.m, 1); err != nil {
		return err
	}
	if err := atLeast("episodes", r.episodes, 1); err != nil {
		return err
	}
	if r.episodes > scriptedBatch && r.episodes%scriptedBatch != 0 {
		return usagef("-episodes %d: want a multiple of %d, or fewer than %d", r.episodes, scriptedBatch, scriptedBatch)
	}
	if !(r.gain > 0) || math.IsInf(r.gain, 1) {
		return usagef("-gain %v: want a finite number > 0", r.gain)
	}
	if !(r.sigma >= 0) || math.IsInf(r.sigma, 1) {
		return usagef("-sigma %v: want a finite number >= 0", r.sigma)
	}
	if teams := r.teams(); teams > simulate.MaxClassTeams {
		return usagef("-n %d -m %d: %v teams of %d targets, over %d", r.n, r.m, teams, r.m+1, simulate.MaxClassTeams)
	}
	return nil
}

// teams returns the number of teams of the class, (M + 1)^N.
func (r scriptedRun) teams() float64 { return math.Pow(float64(r.m+1), float64(r.n)) }

// spec returns the environment of the run under U∘T.
func (r scriptedRun) spec(u, t aggregators.Operator) learn.EnvSpec {
	return learn.EnvSpec{Name: r.env, Agents: r.n, Tasks: r.m, U: u.String(), T: t.String(), Params: r.params}
}

// candidates returns the chasers of the class: after the nearest escaper,
// then after each escaper.
func (r scriptedRun) candidates() []simulate.Policy {
	return simulate.TagTargetClass(r.n, r.m, r.gain, r.sigma)
}

// seeds returns the seeds of the episodes and the batch size.
func (r scriptedRun) seeds() ([]int64, int) {
	batch := r.episodes
	if batch > scriptedBatch {
		batch = scriptedBatch
	}
	s := make([]int64, r.episodes/batch)
	for k := range s {
		s[k] = r.seed + int64(k)
	}
	return s, batch
}

// scriptedPair is one pair's result.
type scriptedPair struct {
	u, t aggregators.Operator
	res  *simulate.ClassResult
}

// scripted plays every pair, printing each as it finishes, and writes the
// CSV of those done, also when interrupted.
func (a *app) scripted(run scriptedRun, pairs [][2]aggregators.Operator, csvPath string) error {
	seeds, batch := run.seeds()
	fmt.Fprintf(a.stdout, "%s N=%d M=%d %s: %d teams of chasers after their nearest escaper (n) or escaper j (j), %d episodes each from seed %d\n",
		run.env, run.n, run.m, formatParams(run.params), int(run.teams()), run.episodes, run.seed)
	var done []scriptedPair
	var err error
	for _, p := range pairs {
		if a.ctx.Err() != nil {
			err = errInterrupted
			break
		}
		var env simulate.Env
		if env, err = run.spec(p[0], p[1]).New(batch); err != nil {
			break
		}
		var res *simulate.ClassResult
		if res, err = simulate.ClassGain(env, run.candidates(), seeds); err != nil {
			break
		}
		done = append(done, scriptedPair{p[0], p[1], res})
		fmt.Fprintln(a.stdout, formatScriptedPair(done[len(done)-1]))
	}
	if csvPath != "" && len(done) > 0 {
		if werr := atomicfile.Write(csvPath, func(w io.Writer) error { return writeScripted(w, done) }); werr != nil {
			return werr
		}
		fmt.Fprintf(a.stdout, "wrote %s\n", csvPath)
	}
	return err
}

// formatParams writes parameters as NAME=V,... or "(the game's own
// parameters)".
func formatParams(p simulate.Params) string {
	if len(p.Names) == 0 {
		return "(the game's own parameters)"
	}
	s := make([]string, len(p.Names))
	for k, name := range p.Names {
		s[k] = fmt.Sprintf("%s=%g", name, p.Values[k])
	}
	return strings.Join(s, ",")
}

// formatTeam writes a team as each chaser's target: n for the nearest
// escaper, j for escaper j (from 1).
func formatTeam(team []int) string {
	s := make([]string, len(team))
	for i, k := range team {
		s[i] = "n"
		if k > 0 {
			s[i] = strconv.Itoa(k)
		}
	}
	return strings.Join(s, ",")
}

// formatScriptedPair writes one pair's line.
func formatScriptedPair(p scriptedPair) string {
	r := p.res
	return fmt.Sprintf("%v∘%v: best team %s %.2f ± %.2f, best alike %s %.2f ± %.2f, gain %.2f ± %.2f",
		p.u, p.t, formatTeam(r.Teams[r.Best]), r.Returns[r.Best], r.StdErrs[r.Best],
		formatTeam(r.Teams[r.BestAlike]), r.Returns[r.BestAlike], r.StdErrs[r.BestAlike], r.Gain(), r.GainStdErr)
}

// writeScripted writes every team of every pair: U, T, the team, whether
// it is alike, its mean return and standard error, whether it is the
// pair's best or best alike team, and the number of episodes.
func writeScripted(w io.Writer, pairs []scriptedPair) error {
	cw := csv.NewWriter(w)
	if err := cw.Write([]string{"U", "T", "Team", "Alike", "Return", "StdErr", "Best", "BestAlike", "Episodes"}); err != nil {
		return err
	}
	for _, p := range pairs {
		r := p.res
		for t, team := range r.Teams {
			rec := []string{p.u.String(), p.t.String(), formatTeam(team), strconv.FormatBool(r.Alike(t)),
				formatFull(r.Returns[t]), formatFull(r.StdErrs[t]), strconv.FormatBool(t == r.Best),
				strconv.FormatBool(t == r.BestAlike), strconv.Itoa(r.Episodes)}
			if err := cw.Write(rec); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}
