package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/hetgain/hetgain/figures"
	"github.com/hetgain/hetgain/internal/atomicfile"
	"github.com/hetgain/hetgain/learn"
	"github.com/hetgain/hetgain/simulate"
)

var inspectCommand = &command{
	name:     "inspect",
	summary:  "what trained teams do: each agent's effort on each task, specialists or not",
	synopsis: "-dir DIR [-episodes E] [-seed S] [-task-params NAME=V,...] [-csv FILE] [-plot FILE]",
	about: `
Inspect loads the checkpoints of paired runs (of train or reproduce) or
of HetGPS runs (of hetgps; then at their θ) and plays each team's
deterministic policy on -episodes episodes, without training. The
episodes start from the run's own seed, as do the final evaluations of
train -task-params and of reproduce, so that a run's returns here are
those of its gains.csv; -seed S plays every run from seed S instead.
For each team it prints the effort profile (simulate.Profile): each
agent's mean effort on each task per step, the fractions of steps in
which 0, 1, ..., M tasks were covered (some agent put more than half of
its effort on them), the diversity (half the L1 distance between two
agents' effort rows at the same step, averaged over pairs and steps: 0
for agents that behave alike, 1 for agents on disjoint tasks), and the
mean return. It shows whether the heterogeneous team's agents
specialised (each on a task of its own), behave alike, or leave the work
to one agent; a line names the specialists where each agent works at
least twice as much on a task of its own as on any other
(simulate.EffortProfile.Specialists), or says there are none. For
continuous actions it also prints each agent's policy standard
deviation in each action coordinate, before the tanh squash
(learn.Team.ActionStd; 1 at the start of training, by default): how
much the policy still explores.

DIR is a run directory (one holding checkpoint.gob) or any directory
above runs, such as a train -dir with its seed<k> directories or a
reproduce -dir: every run below it is inspected, in path order (numbers
in order of value). Both teams of a run play the same episodes.

-csv FILE also writes the profiles as a table, one row per run and team
(full precision): run, team, iteration, episodes, steps, return, then
effort_<i>_<j> for agent i and task j (from 1), then covered_<k> for k =
0, ..., M, then diversity (learn.WriteProfiles; learn.ReadProfiles reads
it back). All runs must then have the same N and M.

-plot FILE draws every team's mean effort matrix as a grid of shaded
cells, the heterogeneous and the homogeneous team of each run side by
side (PNG, or SVG or PDF by the file's extension).

-task-params sets environment parameters for the episodes, as in train:
for Tag, shaping=0,penalty=0 leaves the capture reward alone. In Tag a
capture counts to the end of the episode, so an agent's effort on an
escaper is the fraction of steps after it caught that escaper.`,
	examples: []example{
		{"hetgain inspect -dir runs/minmax", "the learned allocations of a matrix-game train run"},
		{"hetgain inspect -dir results/tag-large/2v2/mean-max -task-params shaping=0,penalty=0 -csv mean-max.csv -plot mean-max.png",
			"which chaser caught which escaper, capture reward alone; also as a table and a picture (after hetgain reproduce tag-large: the stored runs in testdata/reproductions keep no checkpoints)"},
	},
	setup: setupInspect,
}

func setupInspect(fs *flag.FlagSet) func(*app, *flag.FlagSet) error {
	dir := fs.String("dir", "", "a run directory, or a directory above runs (required)")
	episodes := fs.Int("episodes", 512, "episodes per team (at most 1000000, and about 4 GB of memory)")
	seed := fs.Int64("seed", 0, "seed of the episodes of every run (default: each run's own seed)")
	taskParams := fs.String("task-params", "", "environment parameters of the episodes, as `shaping=0,penalty=0`")
	csvPath := fs.String("csv", "", "also write the profiles to this CSV `file`")
	plotPath := fs.String("plot", "", "also draw the teams' effort matrices to `FILE` ("+pictureKinds()+")")
	return func(a *app, fs *flag.FlagSet) error {
		if err := noArgs(fs); err != nil {
			return err
		}
		if *dir == "" {
			return usagef("-dir is required")
		}
		if *episodes < 1 {
			return usagef("-episodes %d: want >= 1", *episodes)
		}
		if err := atMost("episodes", *episodes, maxEpisodes); err != nil {
			return err
		}
		if *plotPath != "" {
			if err := checkPictureName(*plotPath); err != nil {
				return usagef("-plot: %v", err)
			}
		}
		for _, o := range []struct{ flag, path string }{{"csv", *csvPath}, {"plot", *plotPath}} {
			if o.path != "" { // before playing the runs, not after
				if err := checkOutput(o.flag, o.path); err != nil {
					return err
				}
			}
		}
		runs, err := findRuns(*dir)
		if err != nil {
			return err
		}
		var fixedSeed *int64 // nil: each run's own
		fs.Visit(func(f *flag.Flag) {
			if f.Name == "seed" {
				fixedSeed = seed
			}
		})
		if *csvPath != "" { // its table has one layout: refuse before playing any run
			if err := checkRunShapes(runs); err != nil {
				return err
			}
		}
		var rows []learn.TeamProfile
		for _, run := range runs {
			r, err := inspectRun(a, run, *episodes, fixedSeed, *taskParams)
			if err != nil {
				return err
			}
			rows = append(rows, r...)
			if *csvPath != "" { // a run whose spec.json could not be read is checked as it is played
				if err := sameShape(rows[0], rows[len(rows)-1]); err != nil {
					return err
				}
			}
		}
		if *csvPath != "" {
			if err := atomicfile.Write(*csvPath, func(w io.Writer) error { return learn.WriteProfiles(w, rows) }); err != nil {
				return err
			}
			fmt.Fprintf(a.stdout, "wrote %s\n", *csvPath)
		}
		if *plotPath != "" {
			if err := profileFigure(*dir, rows).Save(*plotPath); err != nil {
				return err
			}
			fmt.Fprintf(a.stdout, "wrote %s\n", *plotPath)
		}
		return nil
	}
}

// profileFigure draws the effort matrices of rows, a row of two panels
// (heterogeneous, homogeneous) per run, each titled with the run's path
// below dir, the team, its diversity and its return.
func profileFigure(dir string, rows []learn.TeamProfile) *figures.Figure {
	panels := make([]figures.Allocation, len(rows))
	for k, r := range rows {
		p := r.Profile
		name, err := filepath.Rel(dir, r.Run)
		if err != nil || name == "." {
			name = filepath.Base(r.Run)
		}
		panels[k] = figures.Allocation{
			Title:  fmt.Sprintf("%s, %s\ndiversity %.2f, return %.4g", name, r.Team, p.Diversity, p.Return),
			Agents: p.Agents, Tasks: p.Tasks, Effort: p.Effort,
			AgentLabels: oneBased("agent", p.Agents), TaskLabels: oneBased("task", p.Tasks),
		}
	}
	return figures.Allocations("mean effort per step", 2, panels...)
}

// oneBased returns "<what> 1", ..., "<what> n", as the profiles print them.
func oneBased(what string, n int) []string {
	labels := make([]string, n)
	for k := range labels {
		labels[k] = what + " " + strconv.Itoa(k+1)
	}
	return labels
}

// checkRunShapes returns the error of sameShape for the first of runs
// whose N and M, as its spec.json records them, differ from the first
// run's; runs whose spec.json cannot be read are left to sameShape.
func checkRunShapes(runs []string) error {
	var first string
	var n, m int
	for _, run := range runs {
		env, ok := runEnv(run)
		if !ok {
			continue
		}
		if first == "" {
			first, n, m = run, env.Agents, env.Tasks
			continue
		}
		if env.Agents != n || env.Tasks != m {
			return fmt.Errorf("-csv: %s has N = %d, M = %d, %s N = %d, M = %d; inspect them separately",
				run, env.Agents, env.Tasks, first, n, m)
		}
	}
	return nil
}

// runEnv returns the environment, defaults filled in, that the run
// directory dir (of a paired run or of HetGPS) records in its spec.json.
func runEnv(dir string) (learn.EnvSpec, bool) {
	if spec, err := learn.ReadRunSpec(dir); err == nil {
		return spec.Env, true
	}
	if spec, err := learn.ReadHetGPSSpec(dir); err == nil {
		return spec.Run.WithDefaults().Env, true
	}
	return learn.EnvSpec{}, false
}

// sameShape returns an error unless r has the N and M of first, as the
// rows of one CSV of profiles must.
func sameShape(first, r learn.TeamProfile) error {
	n, m := first.Profile.Agents, first.Profile.Tasks
	if p := r.Profile; p.Agents != n || p.Tasks != m {
		return fmt.Errorf("-csv: %s has N = %d, M = %d, the first run N = %d, M = %d; inspect them separately",
			r.Run, p.Agents, p.Tasks, n, m)
	}
	return nil
}

// findRuns returns dir if it holds a checkpoint, else the directories
// below dir that do, in natural order; an error if there are none.
func findRuns(dir string) ([]string, error) {
	if learn.HasCheckpoint(dir) {
		return []string{dir}, nil
	}
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		return nil, fmt.Errorf("-dir %s is not a directory", dir)
	}
	var runs []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && learn.HasCheckpoint(path) {
			runs = append(runs, path)
			return filepath.SkipDir
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(runs) == 0 {
		return nil, fmt.Errorf("no run checkpoint (checkpoint.gob) in %s or below it", dir)
	}
	sort.Slice(runs, func(i, j int) bool { return naturalLess(runs[i], runs[j]) })
	return runs, nil
}

// naturalLess orders strings as sort does, except that runs of digits
// compare by value: seed2 before seed10.
func naturalLess(a, b string) bool {
	for a != "" && b != "" {
		da, db := leadingDigits(a), leadingDigits(b)
		if da != "" && db != "" {
			// Compare the values without parsing, so any length works.
			va, vb := strings.TrimLeft(da, "0"), strings.TrimLeft(db, "0")
			if len(va) != len(vb) {
				return len(va) < len(vb)
			}
			if va != vb {
				return va < vb
			}
			a, b = a[len(da):], b[len(db):]
			continue
		}
		if a[0] != b[0] {
			return a[0] < b[0]
		}
		a, b = a[1:], b[1:]
	}
	return len(a) < len(b)
}

func leadingDigits(s string) string {
	k := 0
	for k < len(s) && s[k] >= '0' && s[k] <= '9' {
		k++
	}
	return s[:k]
}

// inspectRun prints the effort profiles of both teams of the run in dir,
// played from seed (nil: the run's own), and returns them.
func inspectRun(a *app, dir string, episodes int, fixedSeed *int64, taskParams string) ([]learn.TeamProfile, error) {
	pair, theta, err := loadTeams(dir)
	if err != nil {
		return nil, err
	}
	seed := pair.Spec().Team.Seed
	if fixedSeed != nil {
		seed = *fixedSeed
	}
	if s, err := sizesOf(pair.Spec().Env); err == nil {
		if err := checkMemory(gcHeadroom*float64(episodes)*s.episodeBytes(), "the episodes of "+dir,
			fmt.Sprintf("-episodes %d", episodes)); err != nil {
			return nil, err
		}
	}
	params := simulate.Params{}
	if taskParams != "" {
		p, err := parseTaskParams(taskParams, pair.Spec().Env)
		if err != nil {
			return nil, usagef("-task-params: %v", err)
		}
		params = *p
	}
	fmt.Fprintf(a.stdout, "%s: %s, iteration %d, %d episodes from seed %d\n",
		dir, pair.Spec().Env, pair.Het().Iteration(), episodes, seed)
	if theta != nil {
		fmt.Fprintf(a.stdout, "HetGPS θ: %v\n", *theta)
	}
	var rows []learn.TeamProfile
	for _, team := range []struct {
		name string
		t    *learn.Team
	}{{"heterogeneous", pair.Het()}, {"homogeneous", pair.Hom()}} {
		p, err := team.t.Profile(params, episodes, seed)
		if err != nil {
			return nil, fmt.Errorf("%s: %s team: %w", dir, team.name, err)
		}
		fmt.Fprintf(a.stdout, "%s team, %s", team.name, indent(p.String()))
		fmt.Fprintf(a.stdout, "  %s\n", formatSpecialists(p.Specialists(simulate.SpecialistRatio), simulate.SpecialistRatio))
		if std := team.t.ActionStd(); std != nil {
			fmt.Fprintf(a.stdout, "  %s\n", formatActionStd(std))
		}
		rows = append(rows, learn.TeamProfile{Run: dir, Team: team.name, Iteration: team.t.Iteration(), Episodes: episodes, Profile: p})
	}
	fmt.Fprintln(a.stdout)
	return rows, nil
}

// formatSpecialists describes the tasks of EffortProfile.Specialists at
// ratio, agent by agent, or says that the team did not split.
func formatSpecialists(tasks []int, ratio float64) string {
	if tasks == nil {
		return fmt.Sprintf("specialists: none (no split in which each agent works at least %v times as much on a task of its own as on any other)", ratio)
	}
	var b strings.Builder
	b.WriteString("specialists:")
	for i, j := range tasks {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, " agent %d on task %d", i+1, j+1)
	}
	fmt.Fprintf(&b, " (each at least %v times as much on it as on any other task)", ratio)
	return b.String()
}

// formatActionStd describes the standard deviations of Team.ActionStd,
// agent by agent.
func formatActionStd(std [][]float64) string {
	var b strings.Builder
	b.WriteString("policy std per action coordinate, before the squash:")
	for i, row := range std {
		if i > 0 {
			b.WriteString(";")
		}
		fmt.Fprintf(&b, " agent %d", i+1)
		for _, v := range row {
			fmt.Fprintf(&b, " %.4g", v)
		}
	}
	return b.String()
}

// loadTeams loads the teams of the paired run (LoadPair) or HetGPS run
// (LoadHetGPS, then also its θ) in dir.
func loadTeams(dir string) (*learn.Pair, *simulate.Params, error) {
	pair, err := learn.LoadPair(dir)
	if !errors.Is(err, learn.ErrCheckpoint) {
		return pair, nil, err
	}
	pair, theta, err2 := learn.LoadHetGPS(dir)
	switch {
	case err2 != nil && err2.Error() == err.Error(): // a checkpoint neither can read
		return nil, nil, err
	case err2 != nil:
		return nil, nil, fmt.Errorf("%v; %v", err, err2)
	}
	return pair, &theta, nil
}

// indent indents every line but the first of s by two spaces.
func indent(s string) string {
	return strings.ReplaceAll(strings.TrimSuffix(s, "\n"), "\n", "\n  ") + "\n"
}
