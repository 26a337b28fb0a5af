package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/hetgain/hetgain/internal/atomicfile"
	"github.com/hetgain/hetgain/learn"
	"github.com/hetgain/hetgain/reproduce"
	"github.com/hetgain/hetgain/tables"
)

var compareCommand = &command{
	name:     "compare",
	summary:  "compare the learned gains of two training experiments seed by seed (signed-rank test)",
	synopsis: "[-cell CELL [-cell-b CELL]] [-force] [-csv FILE] [-plot FILE [-plot-scale asinh]] DIR_A DIR_B",
	about: `
Compare reads the final learned gains of two training experiments, each a
directory of train (its gains.csv: TaskGain where train had -task-params,
else Gain) or of reproduce (its runs.csv, whose Gain is the one of the
reproduction's table), pairs the seeds with a gain in both, cell by cell,
and prints for each cell the gains seed by seed, the mean ± standard error
and the median of B's gain less A's, how many seeds ended higher under
each, and the one-sided p-values of Wilcoxon's signed-rank test of those
differences (exact up to 500 seeds, with ties): the chance, were the two
alike, of differences ranking as far B's way (or A's).

Two reproductions are compared on the cells they share; a train
directory, which holds one cell, against the reproduction's cell named by
-cell ("2v2 mean-max": the variant, then U-T, as in runs.csv), or its only
one. -cell-b names B's cell where it differs from A's, to compare two
variants of one reproduction (give its directory twice). A gain of a
task evaluation (Tag's capture reward alone) is not compared with one of
the training environment's returns.

For each pair of cells it prints the settings of both sides' runs, as
the spec.json of their first seed with a gain in both records them: the
environment, N, M, U and T ("matrix-cont N=2 M=2 U=min T=max"), then
every other setting in which A and B differ, with both values
("Iterations A 300, B 1875"): the change being tested, as more frames,
another learning rate or a shaping, which is allowed. A and B whose
environment (continuous or discrete, for the matrix game), N, M, U or T
differ pose other reward problems, whose gains do not compare: they are
refused (exit status 2), naming what differs,
and nothing is written, unless -force is given, which compares them
with a warning on standard error. A side whose runs have no spec.json
(its table copied alone) is compared with a warning that its settings
are not known.

Run the two on the same seeds with one change between them (the same seed
gives both the same initial networks and episodes), and decide before
running what p will count. -csv writes the pairs at full precision: its
CellA and CellB name the cells, a train directory's by its environment
("matrix-cont N=2 M=2 U=min T=max"), or by its directory where its
settings are not known. -plot draws them: each seed a line from its gain
under A (left) to its gain under B (right), blue where B's is higher,
red where it is lower; -plot-scale asinh draws the gains at
asinh(gain/s), s the median of their sizes, so that a few seeds far from
the rest do not flatten them. Each file is written after the comparison
is printed, and a line "wrote FILE" says so. A and B without a seed with
a gain in both are refused (exit status 2), and nothing is written. It
trains nothing and is instant.`,
	examples: []example{
		{"hetgain compare -cell '2v2 mean-max' results/tag-large runs/tag-shaping", "did the shaping change the (mean, max) gain? (runs/tag-shaping from train -task-params shaping=0,penalty=0)"},
		{"hetgain compare -cell '2v2 mean-max' results/tag-large results/tag-large-30m", "4.8M frames against 30M, seed by seed"},
		{"hetgain compare -cell 'range-0 min-max' -cell-b 'range-0p35 min-max' results/observability results/observability", "did seeing the other agent change the gain?"},
		{"hetgain compare -force -cell 'capture min-max' -cell-b 'capture mean-max' results/capture results/capture", "two rewards' gains side by side, though they do not compare (U differs: refused without -force)"},
	},
	setup: setupCompare,
}

func init() {
	registerBeforeHelp(compareCommand)
}

func setupCompare(fs *flag.FlagSet) func(*app, *flag.FlagSet) error {
	cell := fs.String("cell", "", "compare only this cell (`CELL`, as \"2v2 mean-max\"; a train directory's one cell stands for any)")
	cellB := fs.String("cell-b", "", "B's cell (`CELL`), if not -cell's: two variants of one reproduction, its directory given twice")
	csvPath := fs.String("csv", "", "write the paired gains to `FILE` as CSV, full precision")
	plotPath := fs.String("plot", "", "draw the paired gains, each seed a line from A to B, to `FILE` ("+pictureKinds()+")")
	plotScale := plotScaleFlag(fs)
	force := fs.Bool("force", false, "compare A and B even where their environment, N, M, U or T differ (with a warning): their gains do not compare")
	return func(a *app, fs *flag.FlagSet) error {
		dirs, err := operands(fs, a.args)
		if err != nil {
			return err
		}
		if len(dirs) != 2 {
			return usagef("want two directories of training runs, A and B; got %d argument(s)", len(dirs))
		}
		if err := checkPlotFlag(*plotPath); err != nil {
			return err
		}
		if err := checkPlotScale(fs, *plotScale, *plotPath); err != nil {
			return err
		}
		if *cellB != "" && *cell == "" {
			return usagef("-cell-b %q needs -cell: it names B's cell where it differs from A's", *cellB)
		}
		var cells [2][]reproduce.SeedGains
		for k, dir := range dirs {
			g, err := readSeedGains(dir)
			if err != nil {
				return err
			}
			cells[k] = g
		}
		pairs, err := matchCells(cells, *cell, *cellB)
		if err != nil {
			return err
		}
		var paired []reproduce.PairedGains
		for _, p := range pairs {
			paired = append(paired, reproduce.PairSeedGains(p[0], p[1]))
		}
		if err := checkSharedSeeds(pairs, paired); err != nil {
			return err
		}
		settings := make([]pairSettings, len(pairs))
		var differing, names []string // the differences of the pairs with some, and those pairs' names
		for i, p := range pairs {
			if settings[i], err = readPairSettings(p, paired[i]); err != nil {
				return err
			}
			if d := settings[i].problems(); d != "" {
				differing, names = append(differing, d), append(names, paired[i].Name())
			}
		}
		problems := describeProblems(differing, names, len(pairs))
		if len(problems) > 0 && !*force {
			return usagef("A and B are not the same reward problem (%s): their gains do not compare; -force compares them anyway",
				strings.Join(problems, "; "))
		}
		if len(problems) > 0 {
			fmt.Fprintf(a.stderr, "hetgain compare: warning: A and B are not the same reward problem (%s): their gains do not compare\n",
				strings.Join(problems, "; "))
		}
		for i, s := range settings {
			for k, why := range s.unknown {
				if why != "" {
					fmt.Fprintf(a.stderr, "hetgain compare: warning: %s%c's settings are not known (%s): A and B are not checked to pose the same reward problem\n",
						cellPrefix(len(pairs), paired[i]), 'A'+k, why)
				}
			}
		}
		if _, err := fmt.Fprint(a.stdout, gainComparison(dirs, cells, paired, settings)); err != nil {
			return err
		}
		if *csvPath != "" {
			df := reproduce.PairedGainsTable(namedCells(dirs, paired, settings))
			if err := atomicfile.Write(*csvPath, func(w io.Writer) error { return tables.WriteCSV(w, df) }); err != nil {
				return err
			}
			fmt.Fprintf(a.stdout, "wrote %s\n", *csvPath)
		}
		if *plotPath != "" {
			sides := dirs
			if *cellB != "" && filepath.Clean(sides[0]) == filepath.Clean(sides[1]) {
				sides = []string{*cell, *cellB} // one reproduction: its two cells name the sides
			}
			if err := savePairedGains(*plotPath, *plotScale, "Final gains, seed by seed", sides, paired); err != nil {
				return err
			}
			fmt.Fprintf(a.stdout, "wrote %s\n", *plotPath)
		}
		return nil
	}
}

// pairSettings are the settings of the runs of a pair of cells, A's and
// B's, each read from the spec.json of one seed's run: the first seed
// with a gain in both, else the cell's first. unknown[k] is empty where
// spec[k] was read, else says why it was not.
type pairSettings struct {
	spec    [2]learn.RunSpec
	unknown [2]string
}

// readPairSettings reads the settings of the runs of the cells of pair
// (learn.ReadRunSpec), whose seeds are paired as in paired. A run without
// a spec.json leaves its side unknown; a spec.json that cannot be read is
// an error (exit status 1), as every input that cannot be read.
func readPairSettings(pair [2]reproduce.SeedGains, paired reproduce.PairedGains) (pairSettings, error) {
	var s pairSettings
	for k, g := range pair {
		seed := g.Seeds[0]
		if len(paired.Seeds) > 0 {
			seed = paired.Seeds[0]
		}
		if g.Dir == "" {
			s.unknown[k] = "the directory of its runs is not known"
			continue
		}
		run := filepath.Join(g.Dir, "seed"+strconv.Itoa(seed))
		spec, err := learn.ReadRunSpec(run)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			s.unknown[k] = "no " + filepath.Join(run, "spec.json")
		case err != nil:
			return pairSettings{}, errors.New(strings.TrimPrefix(err.Error(), "learn: "))
		}
		s.spec[k] = spec
	}
	return s, nil
}

// known reports whether both sides' settings were read.
func (s pairSettings) known() bool { return s.unknown[0] == "" && s.unknown[1] == "" }

// problems lists how the reward problems of A and B differ, as "N A 4, B
// 2; U A min, B mean": their environment, discrete or continuous efforts,
// N, M, U or T; "" if they do not, or if a side is not known.
func (s pairSettings) problems() string {
	if !s.known() {
		return ""
	}
	a, b := s.spec[0].Env, s.spec[1].Env
	var out []string
	for _, f := range []struct {
		name   string
		va, vb interface{}
	}{{"environment", a.Name, b.Name}, {"discrete", a.Discrete, b.Discrete}, {"N", a.Agents, b.Agents}, {"M", a.Tasks, b.Tasks},
		{"U", a.U, b.U}, {"T", a.T, b.T}} {
		if f.va != f.vb {
			out = append(out, fmt.Sprintf("%s A %v, B %v", f.name, f.va, f.vb))
		}
	}
	return strings.Join(out, "; ")
}

// envSettings are the settings that learn.EnvSpec.String describes, which
// the settings' description does not list again among those that differ.
var envSettings = map[string]bool{"Env.Name": true, "Env.Discrete": true, "Env.Agents": true, "Env.Tasks": true,
	"Env.U": true, "Env.T": true, "Env.Sensor": true, "Env.Params.Names": true, "Env.Params.Values": true}

// describe writes the settings of both sides, indented: each side's
// environment, then the other settings in which they differ.
func (s pairSettings) describe(b *strings.Builder) {
	for k := range s.spec {
		if s.unknown[k] != "" {
			fmt.Fprintf(b, "   %c's runs: settings not known (%s)\n", 'A'+k, s.unknown[k])
		} else {
			fmt.Fprintf(b, "   %c's runs: %s\n", 'A'+k, s.spec[k].Env)
		}
	}
	if !s.known() {
		return
	}
	var others []string
	for _, d := range learn.DiffRunSpecs(s.spec[0], s.spec[1]) {
		if !envSettings[d.Name] {
			others = append(others, fmt.Sprintf("%s A %s, B %s", d.Name, d.A, d.B))
		}
	}
	if len(others) == 0 {
		b.WriteString("   no other setting differs\n")
		return
	}
	fmt.Fprintf(b, "   other settings that differ: %s\n", strings.Join(others, "; "))
}

// cellPrefix returns "<name>: " for a warning about one of n pairs of
// cells, p, where n > 1, else "".
func cellPrefix(n int, p reproduce.PairedGains) string {
	if n > 1 {
		return p.Name() + ": "
	}
	return ""
}

// namedCells returns paired with every train directory's cell (named "")
// named for the CSV: by its environment where its settings are known
// (learn.EnvSpec.String), else by its directory.
func namedCells(dirs []string, paired []reproduce.PairedGains, settings []pairSettings) []reproduce.PairedGains {
	out := append([]reproduce.PairedGains(nil), paired...)
	for i := range out {
		for k, name := range []*string{&out[i].CellA, &out[i].CellB} {
			if *name != "" {
				continue
			}
			if settings[i].unknown[k] == "" {
				*name = settings[i].spec[k].Env.String()
			} else {
				*name = filepath.Clean(dirs[k])
			}
		}
	}
	return out
}

// readSeedGains reads the final gains of dir; a directory or table that
// is missing, unreadable or holds no finished run is an error (exit
// status 1), as every input that is not there or cannot be read.
func readSeedGains(dir string) ([]reproduce.SeedGains, error) {
	all, err := reproduce.ReadSeedGains(dir)
	var g []reproduce.SeedGains
	for _, c := range all {
		if len(c.Seeds) > 0 { // a train table with a header only has one empty cell
			g = append(g, c)
		}
	}
	if err == nil && len(g) == 0 {
		err = fmt.Errorf("%s: no finished run in its table", dir)
	}
	if err != nil {
		return nil, errors.New(strings.TrimPrefix(err.Error(), "reproduce: "))
	}
	return g, nil
}

// matchCells pairs the cells of A and B to compare: the cell named by
// cell in A and by cellB in B (by cell if cellB is empty; a train
// directory's one cell for any name), or without a name, the only cell of
// each, else the cells of the same name.
func matchCells(cells [2][]reproduce.SeedGains, cell, cellB string) ([][2]reproduce.SeedGains, error) {
	if cellB == "" {
		cellB = cell
	}
	var pairs [][2]reproduce.SeedGains
	switch {
	case cell != "":
		var pick [2]reproduce.SeedGains
		for k, name := range []string{cell, cellB} {
			g, ok := reproduce.SelectCell(cells[k], name)
			if !ok {
				return nil, usagef("%c has no cell %q (it has %s)", 'A'+k, name, cellNames(cells[k]))
			}
			pick[k] = g
		}
		pairs = append(pairs, pick)
	case len(cells[0]) == 1 && len(cells[1]) == 1:
		pairs = append(pairs, [2]reproduce.SeedGains{cells[0][0], cells[1][0]})
	default:
		for _, a := range cells[0] {
			for _, b := range cells[1] {
				if a.Cell != "" && b.Cell == a.Cell {
					pairs = append(pairs, [2]reproduce.SeedGains{a, b})
				}
			}
		}
		if len(pairs) == 0 {
			return nil, usagef("A and B share no cell (A has %s; B has %s): name one with -cell", cellNames(cells[0]), cellNames(cells[1]))
		}
	}
	for _, p := range pairs {
		if p[0].Task != p[1].Task {
			return nil, usagef("A's gain is %s and B's %s: a task evaluation's gain does not compare with the training environment's",
				p[0].Definition, p[1].Definition)
		}
	}
	return pairs, nil
}

// checkSharedSeeds returns a usage error, before -csv and -plot write
// files of nothing, if no pair of cells has a seed with a gain in both:
// there is nothing to compare. It names the seeds with a gain of each
// side, cell by cell.
func checkSharedSeeds(pairs [][2]reproduce.SeedGains, paired []reproduce.PairedGains) error {
	for _, p := range paired {
		if len(p.Seeds) > 0 {
			return nil
		}
	}
	var parts []string
	for _, p := range pairs {
		part := fmt.Sprintf("A: %s, B: %s", seedRanges(seedsWithGain(p[0])), seedRanges(seedsWithGain(p[1])))
		if len(pairs) > 1 {
			part = p[0].Cell + " " + part
		}
		parts = append(parts, part)
	}
	return usagef("A and B share no seed with a gain in both (%s); train both on the same seeds", strings.Join(parts, "; "))
}

// seedsWithGain returns the seeds of g whose gain is not NaN.
func seedsWithGain(g reproduce.SeedGains) []int {
	var out []int
	for i, k := range g.Seeds {
		if !math.IsNaN(g.Gains[i]) {
			out = append(out, k)
		}
	}
	return out
}

// seedRanges writes ascending seeds as runs of consecutive ones, "1-3 5
// 7-9", or "none".
func seedRanges(seeds []int) string {
	if len(seeds) == 0 {
		return "none"
	}
	var parts []string
	for i := 0; i < len(seeds); {
		j := i
		for j+1 < len(seeds) && seeds[j+1] == seeds[j]+1 {
			j++
		}
		part := strconv.Itoa(seeds[i])
		if j > i {
			part += "-" + strconv.Itoa(seeds[j])
		}
		parts = append(parts, part)
		i = j + 1
	}
	return strings.Join(parts, " ")
}

// cellNames lists the names of cells, quoted.
func cellNames(cells []reproduce.SeedGains) string {
	var names []string
	for _, g := range cells {
		if g.Cell == "" {
			names = append(names, "one cell (a train directory)")
		} else {
			names = append(names, fmt.Sprintf("%q", g.Cell))
		}
	}
	return strings.Join(names, ", ")
}

// gainComparison describes both directories and each pair of cells with
// its settings.
func gainComparison(dirs []string, cells [2][]reproduce.SeedGains, paired []reproduce.PairedGains, settings []pairSettings) string {
	var b strings.Builder
	for k := range cells {
		fmt.Fprintf(&b, "%c: %s\n", 'A'+k, dirs[k])
		for _, g := range cells[k] {
			fmt.Fprintf(&b, "   %s\n", g)
		}
	}
	for i, p := range paired {
		fmt.Fprintf(&b, "%s: %d seeds in both", p.Name(), len(p.Seeds))
		if p.Unpaired > 0 {
			fmt.Fprintf(&b, " (%d in one only or without a gain, left out)", p.Unpaired)
		}
		b.WriteString("\n")
		settings[i].describe(&b)
		writePairedGains(&b, p)
	}
	return b.String()
}

// writePairedGains writes the seeds of p with their gains, then the
// differences' summary and test.
func writePairedGains(b *strings.Builder, p reproduce.PairedGains) {
	if len(p.Seeds) == 0 {
		return
	}
	fmt.Fprintf(b, "   %6s %12s %12s %12s\n", "seed", "A", "B", "B − A")
	for i, k := range p.Seeds {
		fmt.Fprintf(b, "   %6d %12.4g %12.4g %12.4g\n", k, p.GainA[i], p.GainB[i], p.GainB[i]-p.GainA[i])
	}
	sum := p.Summary()
	spread := fmt.Sprintf(" ± %.4g (standard error)", sum.SE)
	if len(p.Seeds) < 2 {
		spread = " (a standard error needs two seeds)"
	}
	fmt.Fprintf(b, "   B − A: mean %.4g%s, median %.4g; seeds higher under B %d, under A %d\n",
		sum.Mean, spread, sum.Median, sum.Higher, sum.Lower)
	writeSignedRank(b, p.Test)
}

// checkPlotFlag returns a usage error unless path, the value of -plot, is
// empty or names a picture that figures writes.
func checkPlotFlag(path string) error {
	if path == "" {
		return nil
	}
	if err := checkPictureName(path); err != nil {
		return usagef("-plot %v", err)
	}
	return nil
}

// plotScaleFlag defines -plot-scale, the y axis of -plot.
func plotScaleFlag(fs *flag.FlagSet) *string {
	return fs.String("plot-scale", "linear", "the y axis of -plot: linear, or asinh, nearly linear near 0 and logarithmic beyond, for a few seeds far from the rest (`SCALE`)")
}

// checkPlotScale returns a usage error unless scale, the value of
// -plot-scale, is linear or asinh, and -plot (plotPath) is given when
// -plot-scale is.
func checkPlotScale(fs *flag.FlagSet, scale, plotPath string) error {
	if scale != "linear" && scale != "asinh" {
		return usagef("-plot-scale %q: want linear or asinh", scale)
	}
	if isSet(fs, "plot-scale") && plotPath == "" {
		return usagef("-plot-scale %s needs -plot: it sets the y axis of the figure -plot draws", scale)
	}
	return nil
}

// savePairedGains draws pairs of cells seed by seed to path
// (reproduce.PairedGainsFigure, or PairedGainsFigureAsinh for the scale
// asinh), naming the two sides, directories or cells, as sideNames does.
func savePairedGains(path, scale, title string, sides []string, pairs []reproduce.PairedGains) error {
	nameA, nameB := sideNames(sides[0], sides[1])
	draw := reproduce.PairedGainsFigure
	if scale == "asinh" {
		draw = reproduce.PairedGainsFigureAsinh
	}
	if err := draw(title, nameA, nameB, pairs).Save(path); err != nil {
		return fmt.Errorf("-plot %s: %v", path, err)
	}
	return nil
}

// sideNames returns the names of directories a and b for a figure's axis:
// their last elements, or the whole paths if those are the same (a long
// axis label narrows the plot).
func sideNames(a, b string) (string, string) {
	if baseA, baseB := filepath.Base(a), filepath.Base(b); baseA != baseB {
		return baseA, baseB
	}
	return a, b
}

// describeProblems returns the differences of reward problem of the pairs
// named names, out of pairs pairs, as a list for compare's refusal or
// warning: one difference once, with how many pairs have it, when every
// pair that differs differs alike; else each pair's, with its name.
func describeProblems(differing, names []string, pairs int) []string {
	if len(differing) == 0 {
		return nil
	}
	alike := true
	for _, d := range differing {
		alike = alike && d == differing[0]
	}
	switch {
	case pairs == 1:
		return differing
	case alike && len(differing) == pairs:
		return []string{fmt.Sprintf("%s, in all %d pairs of cells", differing[0], pairs)}
	case alike:
		return []string{fmt.Sprintf("%s, in %d of %d pairs of cells: %s", differing[0], len(differing), pairs, strings.Join(names, ", "))}
	}
	out := make([]string, len(differing))
	for i, d := range differing {
		out[i] = names[i] + ": " + d
	}
	return out
}
