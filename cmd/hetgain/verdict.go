package main

import (
	"flag"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/hetgain/hetgain/reproduce"
)

var verdictCommand = &command{
	name:     "verdict",
	summary:  "judge a cell's learned gains by the rule fixed before its runs (mean − 2 SE against a threshold), also while seeds are to come",
	synopsis: "-threshold X [-seeds K] [-lo L] [-hi H] [-cell CELL] [-first-seed F] [-last-seed L] DIR...",
	about: `
Verdict reads the final learned gains of a training experiment, a
directory of train (its gains.csv: TaskGain where train had -task-params,
else Gain) or of reproduce (its runs.csv), and judges each cell by the rule
the reproductions here are judged by: the cell is clearly positive iff the
mean of its seeds' gains less two standard errors exceeds -threshold.
Write the threshold and the number of seeds down before the runs; the
reproductions use 0.02 times the return scale (0.02 in the matrix game,
0.2 in Multi-goal-capture, 2 in Tag) and 0.5 in tag-large.

With -seeds K, the number of seeds planned, it also says whether the
seeds still to come can change the verdict: the largest mean − 2 SE they
can reach, each ending with a gain between -lo and -hi (reproduce.BestLowerBound).
If that is at most the threshold the cell is settled, and training them
cannot make it clearly positive; if not, they are to be trained. A cell
clearly positive so far is settled only by its last seed. Seeds without a
gain (a run with no evaluation) are left out and counted; with -seeds K
they are taken off the K planned, since a finished seed gives no gain
later.

Several directories are read as one, their cells of the same name joined:
the seeds of a cell split over runs with -first-seed, each seed in one
directory only. With -cell, each directory's cell of that name (a train
directory's one cell answers to any) joins the others'. With -first-seed and
-last-seed only the seeds from F to L count, a fresh set judged alone (a
confirmation on seeds 10 to 18 after a variant was chosen on 1 to 9);
-seeds then counts the seeds planned in that range. It trains nothing and
is instant.`,
	examples: []example{
		{"hetgain verdict -threshold 0.5 -seeds 9 runs/tag-difference", "may the probe stop after the seeds finished so far?"},
		{"hetgain verdict -threshold 0.5 -cell '2v2 mean-max' results/tag-large", "tag-large's (mean, max) by its rule"},
		{"hetgain verdict -threshold 0.5 -seeds 9 runs/seeds1-5 runs/seeds6-9", "one cell's seeds trained in two directories"},
		{"hetgain verdict -threshold 0.5 -seeds 9 -first-seed 4 -last-seed 12 -cell '2v2 max-max' runs/tag-variant", "seeds 4 to 12 judged alone, apart from the screen's 1 to 3"},
	},
	setup: setupVerdict,
}

func init() {
	registerBeforeHelp(verdictCommand)
}

func setupVerdict(fs *flag.FlagSet) func(*app, *flag.FlagSet) error {
	var threshold optionalFloat
	fs.Var(&threshold, "threshold", "clearly positive iff mean − 2 SE exceeds `X` (required: the rule's, fixed before the runs)")
	planned := fs.Int("seeds", 0, "the number of seeds planned, `K` (0: the seeds finished, at least 2)")
	lo := fs.Float64("lo", math.Inf(-1), "the smallest gain a seed to come may end with, `L`")
	hi := fs.Float64("hi", math.Inf(1), "the largest gain a seed to come may end with, `H`")
	cell := fs.String("cell", "", "judge only this cell (`CELL`, as \"2v2 mean-max\"; a train directory's one cell stands for any)")
	first := fs.Int("first-seed", 1, "judge only seeds from `F` on")
	last := fs.Int("last-seed", math.MaxInt32, "judge only seeds up to `L`")
	return func(a *app, fs *flag.FlagSet) error {
		dirs, err := operands(fs, a.args)
		if err != nil {
			return err
		}
		if len(dirs) < 1 {
			return usagef("want a directory of training runs")
		}
		if !threshold.set {
			return usagef("-threshold X is required: the rule's threshold, fixed before the runs (the reproductions': 0.02 × the return scale; 0.5 in tag-large)")
		}
		if math.IsNaN(threshold.v) || math.IsInf(threshold.v, 0) {
			return usagef("-threshold %v: want a finite number", threshold.v)
		}
		if *planned < 0 || *planned == 1 || *planned > math.MaxInt32 {
			return usagef("-seeds %d: want 0 (the seeds finished) or 2 to %d", *planned, math.MaxInt32)
		}
		if math.IsNaN(*lo) || math.IsInf(*lo, 1) {
			return usagef("-lo %v: want a number below +Inf", *lo)
		}
		if math.IsNaN(*hi) || math.IsInf(*hi, -1) {
			return usagef("-hi %v: want a number above -Inf", *hi)
		}
		if *lo > *hi {
			return usagef("-lo %v -hi %v: want -lo <= -hi", *lo, *hi)
		}
		if err := atLeast("first-seed", *first, 1); err != nil {
			return err
		}
		if *last < *first {
			return usagef("-first-seed %d -last-seed %d: want -last-seed >= -first-seed", *first, *last)
		}
		cells, err := readJoinedSeedGains(dirs, *cell)
		if err != nil {
			return err
		}
		for i, g := range cells {
			cells[i] = g.SeedRange(*first, *last)
			if len(cells[i].Seeds) == 0 {
				return usagef("-first-seed %d -last-seed %d: %s has no seed in this range (it has %v)", *first, *last, cellLabel(g), g.Seeds)
			}
		}
		var b strings.Builder
		fmt.Fprintf(&b, "%s\n", strings.Join(dirs, " "))
		for _, g := range cells {
			if err := writeVerdict(&b, g, *planned, threshold.v, *lo, *hi); err != nil {
				return err
			}
		}
		_, err = fmt.Fprint(a.stdout, b.String())
		return err
	}
}

// writeVerdict writes the cell g, its gains seed by seed and its verdict
// (reproduce.Judge) against threshold, planned seeds (0: those finished)
// each still to come in [lo, hi].
func writeVerdict(b *strings.Builder, g reproduce.SeedGains, planned int, threshold, lo, hi float64) error {
	fmt.Fprintf(b, "   %s\n", g)
	var gains []float64
	var parts []string
	for i, k := range g.Seeds {
		if math.IsNaN(g.Gains[i]) {
			parts = append(parts, fmt.Sprintf("%d: none", k))
			continue
		}
		gains = append(gains, g.Gains[i])
		parts = append(parts, fmt.Sprintf("%d: %.4g", k, g.Gains[i]))
	}
	fmt.Fprintf(b, "   gains by seed: %s\n", strings.Join(parts, ", "))
	spent := len(g.Seeds) - len(gains)
	if planned != 0 && planned < len(g.Seeds) {
		return usagef("-seeds %d: the cell has %d finished seeds already", planned, len(g.Seeds))
	}
	k := max(len(gains), 2)
	if planned != 0 {
		k = planned - spent
	}
	switch {
	case spent > 0 && planned != 0:
		fmt.Fprintf(b, "   (%d seed(s) without a gain left out; finished, they will give none, so %d of the %d planned can)\n", spent, k, planned)
	case spent > 0:
		fmt.Fprintf(b, "   (%d seed(s) without a gain left out)\n", spent)
	}
	if len(gains) == 0 {
		fmt.Fprintf(b, "   no seed has a gain: nothing to judge\n")
		return nil
	}
	if k < 2 {
		fmt.Fprintf(b, "   at most %d seed can have a gain: nothing to judge (a standard error needs two)\n", k)
		return nil
	}
	v, err := reproduce.Judge(gains, k, threshold, lo, hi)
	if err != nil {
		return err
	}
	fmt.Fprintf(b, "   %s\n", v)
	return nil
}

// readJoinedSeedGains reads the final gains of every directory of dirs
// (readSeedGains), keeps only the cell named cell if it is not empty (a
// train directory's one cell answers to any name), and joins the cells of
// the same name (reproduce.JoinSeedGains); a seed in two directories, or
// gains of a task evaluation joined with the training environment's, is a
// usage error.
func readJoinedSeedGains(dirs []string, cell string) ([]reproduce.SeedGains, error) {
	var joined []reproduce.SeedGains
	for _, dir := range dirs {
		cells, err := readSeedGains(dir)
		if err != nil {
			return nil, err
		}
		if cell != "" {
			g, ok := reproduce.SelectCell(cells, cell)
			if !ok {
				return nil, usagef("%s has no cell %q (it has %s)", dir, cell, cellNames(cells))
			}
			g.Cell = cell
			cells = []reproduce.SeedGains{g}
		}
		for _, g := range cells {
			if joined, err = joinCell(joined, g, dir); err != nil {
				return nil, err
			}
		}
	}
	return joined, nil
}

// joinCell adds the seeds of g, read from dir, to the cell of joined of
// the same name, or appends g as a cell of its own.
func joinCell(joined []reproduce.SeedGains, g reproduce.SeedGains, dir string) ([]reproduce.SeedGains, error) {
	for i, h := range joined {
		if h.Cell != g.Cell {
			continue
		}
		j, err := reproduce.JoinSeedGains(h, g)
		if err != nil {
			return nil, usagef("%s: %s", dir, strings.TrimPrefix(err.Error(), "reproduce: "))
		}
		joined[i] = j
		return joined, nil
	}
	return append(joined, g), nil
}

// cellLabel names the cell g in a message: its name, or "the cell" for a
// train directory's.
func cellLabel(g reproduce.SeedGains) string {
	if g.Cell == "" {
		return "the cell"
	}
	return strconv.Quote(g.Cell)
}
