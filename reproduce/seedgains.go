package reproduce

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"

	"github.com/hetgain/hetgain/figures"
)

// SeedGains are the final learned gains of one cell of a training
// experiment, seed by seed, as read back from the table a command wrote
// (ReadSeedGains).
type SeedGains struct {
	// Cell names the cell: "<variant> <U>-<T>" in a reproduction, "" for
	// the one cell of a train directory.
	Cell string
	// Definition says what the gains are: the final evaluation's, the
	// mean of the last evaluations', or a task evaluation's (then Task is
	// true).
	Definition string
	Task       bool
	// Seeds are ascending, and Gains[i] is the gain of seed Seeds[i].
	Seeds []int
	Gains []float64
	// Dir is the directory of the cell's runs, seed k's in Dir/seed<k>
	// with its spec.json (learn.ReadRunSpec): <dir>/<variant>/<U>-<T> of
	// the directory a reproduction's runs.csv is in, train's directory
	// itself. It is "" where not known: a cell joined from two
	// directories (JoinSeedGains).
	Dir string
}

// ReadSeedGains reads the final gains of the training runs in dir, cell
// by cell in the order of their first rows, from dir/runs.csv as
// reproduce writes it (Results.RunTable: one row per run, its Gain as
// Results.Table defines it) or else from dir/gains.csv as train writes it
// (one row per seed of one cell: TaskGain, the gain of a task evaluation,
// where train had one, else Gain, the final evaluation's). It returns an
// error wrapping fs.ErrNotExist if dir has neither file, and an error
// naming the file and row for a table it cannot read: a column missing,
// a number that does not parse, a seed below 1 or listed twice in a
// cell.
func ReadSeedGains(dir string) ([]SeedGains, error) {
	runs := filepath.Join(dir, RunTableCSV)
	if _, err := os.Stat(runs); err == nil {
		return readRunTable(runs)
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("reproduce: %v", err)
	}
	gains := filepath.Join(dir, TableCSV)
	if _, err := os.Stat(gains); err != nil {
		return nil, fmt.Errorf("reproduce: %s has neither %s (of reproduce) nor %s (of train): %w",
			dir, RunTableCSV, TableCSV, os.ErrNotExist)
	}
	g, err := readTrainGains(gains)
	if err != nil {
		return nil, err
	}
	return []SeedGains{g}, nil
}

// SelectCell returns the cell of cells named name (SeedGains.Cell); the
// one cell of a train directory, which has no name, answers to any.
func SelectCell(cells []SeedGains, name string) (SeedGains, bool) {
	if len(cells) == 1 && cells[0].Cell == "" {
		return cells[0], true
	}
	for _, g := range cells {
		if g.Cell == name {
			return g, true
		}
	}
	return SeedGains{}, false
}

// ReadCell reads the final gains of dir (ReadSeedGains) and returns its
// cell named name (SelectCell), or an error naming the cells it has.
func ReadCell(dir, name string) (SeedGains, error) {
	cells, err := ReadSeedGains(dir)
	if err != nil {
		return SeedGains{}, err
	}
	if g, ok := SelectCell(cells, name); ok {
		return g, nil
	}
	names := make([]string, len(cells))
	for i, g := range cells {
		names[i] = strconv.Quote(g.Cell)
	}
	return SeedGains{}, fmt.Errorf("reproduce: %s has no cell %q (it has %s)", dir, name, strings.Join(names, ", "))
}

// csvTable is a CSV file read whole, its header indexed by name.
type csvTable struct {
	path    string
	columns map[string]int
	rows    [][]string
}

// readCSVTable reads the CSV file at path, which must have a header and
// the columns named in want.
func readCSVTable(path string, want ...string) (*csvTable, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("reproduce: %v", err)
	}
	defer f.Close()
	records, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("reproduce: %s: %v", path, err)
	}
	if len(records) == 0 {
		return nil, fmt.Errorf("reproduce: %s: empty, want a header: %w", path, io.ErrUnexpectedEOF)
	}
	t := &csvTable{path: path, columns: map[string]int{}, rows: records[1:]}
	for i, name := range records[0] {
		t.columns[name] = i
	}
	for _, name := range want {
		if _, ok := t.columns[name]; !ok {
			return nil, fmt.Errorf("reproduce: %s: no column %q", path, name)
		}
	}
	return t, nil
}

// has reports whether t has the column name.
func (t *csvTable) has(name string) bool {
	_, ok := t.columns[name]
	return ok
}

// text returns the column name of row i (0 for the first after the
// header).
func (t *csvTable) text(i int, name string) string { return t.rows[i][t.columns[name]] }

// seed parses the column Seed of row i, a number from 1.
func (t *csvTable) seed(i int) (int, error) {
	k, err := strconv.Atoi(t.text(i, "Seed"))
	if err != nil || k < 1 {
		return 0, fmt.Errorf("reproduce: %s, row %d: seed %q, want a whole number from 1", t.path, i+2, t.text(i, "Seed"))
	}
	return k, nil
}

// gain parses the column name of row i, a number that may be NaN (a run
// with no evaluation) but not infinite.
func (t *csvTable) gain(i int, name string) (float64, error) {
	x, err := strconv.ParseFloat(t.text(i, name), 64)
	if err != nil || math.IsInf(x, 0) {
		return 0, fmt.Errorf("reproduce: %s, row %d: %s %q, want a number", t.path, i+2, name, t.text(i, name))
	}
	return x, nil
}

// readRunTable reads a reproduction's runs.csv.
func readRunTable(path string) ([]SeedGains, error) {
	t, err := readCSVTable(path, "Experiment", "Variant", "U", "T", "Seed", "Gain")
	if err != nil {
		return nil, err
	}
	var out []SeedGains
	index := map[string]int{}
	for i := range t.rows {
		cell := t.text(i, "Variant") + " " + t.text(i, "U") + "-" + t.text(i, "T")
		k, ok := index[cell]
		if !ok {
			k = len(out)
			index[cell] = k
			gain, task := describeRunTableGain(t.text(i, "Experiment"))
			dir := filepath.Join(filepath.Dir(path), filepath.FromSlash(cellDir(t.text(i, "Variant"), t.text(i, "U"), t.text(i, "T"))))
			out = append(out, SeedGains{Cell: cell, Definition: gain, Task: task, Dir: dir})
		}
		if err := out[k].add(t, i, "Gain"); err != nil {
			return nil, err
		}
	}
	for i := range out {
		out[i].sort()
	}
	return out, nil
}

// describeRunTableGain says what the Gain column of an experiment's
// runs.csv is.
func describeRunTableGain(name string) (gain string, task bool) {
	e, err := Lookup(name)
	if err != nil {
		return fmt.Sprintf("the Gain of runs.csv (experiment %q)", name), false
	}
	e = e.withDefaults()
	if e.TaskEval.on() {
		return fmt.Sprintf("the final policies' on the task evaluation (%s, %d episodes)",
			e.TaskEval.Params.String(), e.TaskEval.Episodes), true
	}
	if e.FinalEvals == 1 {
		return "the final evaluation's", false
	}
	return fmt.Sprintf("the mean of the last %d evaluations'", e.FinalEvals), false
}

// readTrainGains reads train's gains.csv.
func readTrainGains(path string) (SeedGains, error) {
	t, err := readCSVTable(path, "Seed", "Gain")
	if err != nil {
		return SeedGains{}, err
	}
	g := SeedGains{Definition: "the final evaluation's", Dir: filepath.Dir(path)}
	column := "Gain"
	if t.has("TaskGain") {
		column, g.Definition, g.Task = "TaskGain", "the final policies' on the task evaluation (train's -task-params)", true
	}
	for i := range t.rows {
		if err := g.add(t, i, column); err != nil {
			return SeedGains{}, err
		}
	}
	g.sort()
	return g, nil
}

// add appends the seed and gain of row i of t to g, refusing a seed g
// has.
func (g *SeedGains) add(t *csvTable, i int, column string) error {
	k, err := g.seedOf(t, i)
	if err != nil {
		return err
	}
	x, err := t.gain(i, column)
	if err != nil {
		return err
	}
	g.Seeds, g.Gains = append(g.Seeds, k), append(g.Gains, x)
	return nil
}

// seedOf parses the seed of row i and refuses one g has.
func (g *SeedGains) seedOf(t *csvTable, i int) (int, error) {
	k, err := t.seed(i)
	if err != nil {
		return 0, err
	}
	for _, s := range g.Seeds {
		if s == k {
			name := "the cell"
			if g.Cell != "" {
				name = "cell " + g.Cell
			}
			return 0, fmt.Errorf("reproduce: %s, row %d: seed %d of %s listed twice", t.path, i+2, k, name)
		}
	}
	return k, nil
}

// sort orders g's seeds ascending, with their gains.
func (g *SeedGains) sort() {
	order := make([]int, len(g.Seeds))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool { return g.Seeds[order[a]] < g.Seeds[order[b]] })
	seeds, gains := make([]int, len(order)), make([]float64, len(order))
	for i, j := range order {
		seeds[i], gains[i] = g.Seeds[j], g.Gains[j]
	}
	g.Seeds, g.Gains = seeds, gains
}

// JoinSeedGains returns the seeds of a and b as one cell: a cell whose
// seeds were trained in two directories (Experiment.FirstSeed, or
// train's -first-seed). It is named as a, or as b if a has no name (a
// train directory's cell); its seeds are ascending, and its Dir is theirs
// if they have the same, else "". It returns an error if a seed is in
// both, or if the gains of one are a task evaluation's and those of the
// other not.
func JoinSeedGains(a, b SeedGains) (SeedGains, error) {
	if a.Task != b.Task {
		return SeedGains{}, fmt.Errorf("reproduce: cannot join gains of %s with gains of %s", a.Definition, b.Definition)
	}
	in := map[int]bool{}
	for _, k := range a.Seeds {
		in[k] = true
	}
	for _, k := range b.Seeds {
		if in[k] {
			return SeedGains{}, fmt.Errorf("reproduce: cannot join two cells that both have seed %d", k)
		}
	}
	j := SeedGains{Cell: a.Cell, Definition: a.Definition, Task: a.Task,
		Seeds: append(append([]int(nil), a.Seeds...), b.Seeds...),
		Gains: append(append([]float64(nil), a.Gains...), b.Gains...)}
	if j.Cell == "" {
		j.Cell, j.Definition = b.Cell, b.Definition
	}
	if a.Dir == b.Dir {
		j.Dir = a.Dir
	}
	j.sort()
	return j, nil
}

// PairedGains pairs the final gains of two cells seed by seed: A and B, a
// training experiment and the same with one change, say.
type PairedGains struct {
	// CellA and CellB name the cells (SeedGains.Cell).
	CellA, CellB string
	// Seeds are the seeds with a gain in both, ascending, and GainA and
	// GainB their gains. Unpaired counts the seeds with a gain in one
	// only, which the comparison leaves out, as it does seeds whose gain
	// is NaN in either (a run with no evaluation).
	Seeds        []int
	GainA, GainB []float64
	Unpaired     int
	// Test is the signed-rank test of GainB − GainA: Test.Greater is small
	// when B's gains are higher.
	Test SignedRank
}

// PairSeedGains pairs a and b by seed.
func PairSeedGains(a, b SeedGains) PairedGains {
	inB := map[int]float64{}
	for i, k := range b.Seeds {
		inB[k] = b.Gains[i]
	}
	p := PairedGains{CellA: a.Cell, CellB: b.Cell}
	var diffs []float64
	for i, k := range a.Seeds {
		gb, ok := inB[k]
		delete(inB, k)
		if !ok || math.IsNaN(a.Gains[i]) || math.IsNaN(gb) {
			p.Unpaired++
			continue
		}
		p.Seeds = append(p.Seeds, k)
		p.GainA, p.GainB = append(p.GainA, a.Gains[i]), append(p.GainB, gb)
		diffs = append(diffs, gb-a.Gains[i])
	}
	p.Unpaired += len(inB)
	for _, d := range diffs {
		if math.IsInf(d, 0) {
			// Two gains near ±MaxFloat64 of opposite signs: halving every
			// difference keeps their signs and, but for rounding, their
			// order, which are all the test uses.
			for j := range diffs {
				diffs[j] = p.GainB[j]/2 - p.GainA[j]/2
			}
			break
		}
	}
	var err error
	if p.Test, err = SignedRankTest(diffs); err != nil {
		panic(err) // the gains are numbers, and their differences finite
	}
	return p
}

// PairedGainsColumns are the columns of PairedGainsTable.
var PairedGainsColumns = []string{"CellA", "CellB", "Seed", "GainA", "GainB", "Difference"}

// PairedGainsTable returns one row per paired seed of each of pairs, in
// order: the cells, the seed, both gains and GainB − GainA.
func PairedGainsTable(pairs []PairedGains) dataframe.DataFrame {
	var cellA, cellB []string
	var seeds []int
	var gainA, gainB, diff []float64
	for _, p := range pairs {
		for i, k := range p.Seeds {
			cellA, cellB, seeds = append(cellA, p.CellA), append(cellB, p.CellB), append(seeds, k)
			gainA, gainB = append(gainA, p.GainA[i]), append(gainB, p.GainB[i])
			diff = append(diff, p.GainB[i]-p.GainA[i])
		}
	}
	c := PairedGainsColumns
	return dataframe.New(series.New(cellA, series.String, c[0]), series.New(cellB, series.String, c[1]),
		series.New(seeds, series.Int, c[2]), series.New(gainA, series.Float, c[3]),
		series.New(gainB, series.Float, c[4]), series.New(diff, series.Float, c[5]))
}

// PairedSummary summarises paired gains: the median of each side's, and
// of the differences GainB − GainA their mean, its standard error and
// their median, counting only values that are numbers; and how many seeds
// ended higher under B and under A.
type PairedSummary struct {
	MedianA, MedianB float64
	Mean, SE, Median float64
	Higher, Lower    int
}

// Summary returns the summary of p's gains. A statistic of no number is
// NaN, as is the standard error of fewer than two differences.
func (p PairedGains) Summary() PairedSummary {
	var diffs []float64
	s := PairedSummary{MedianA: median(numbers(p.GainA)), MedianB: median(numbers(p.GainB))}
	for i := range p.GainA {
		d := p.GainB[i] - p.GainA[i]
		switch {
		case d > 0:
			s.Higher++
		case d < 0:
			s.Lower++
		}
		if !math.IsNaN(d) {
			diffs = append(diffs, d)
		}
	}
	s.Mean, s.Median = mean(diffs), median(diffs)
	s.SE = sampleStd(diffs) / math.Sqrt(float64(len(diffs)))
	return s
}

// numbers returns the values of v that are not NaN.
func numbers(v []float64) []float64 {
	var out []float64
	for _, x := range v {
		if !math.IsNaN(x) {
			out = append(out, x)
		}
	}
	return out
}

// Name names the pair of cells of p: the cell, if A and B have the same
// or one of them is a train directory's (which has no name), else "<A's>
// against <B's>"; "the cell" for two train directories.
func (p PairedGains) Name() string {
	switch {
	case p.CellA == p.CellB && p.CellA == "":
		return "the cell"
	case p.CellA == p.CellB || p.CellB == "":
		return p.CellA
	case p.CellA == "":
		return p.CellB
	}
	return p.CellA + " against " + p.CellB
}

// PairedGainsFigure draws pairs seed by seed (figures.Slopes): for each
// pair of cells, every seed a line from its gain under A, named nameA, to
// its gain under B, named nameB, blue where B's is higher and red where it
// is lower, with a reference line at 0.
func PairedGainsFigure(title, nameA, nameB string, pairs []PairedGains) *figures.Figure {
	cells, values := pairedValues(pairs)
	return figures.Slopes(title, "final gain ΔR", nameA, nameB, cells, []float64{0}, values...)
}

// PairedGainsFigureAsinh is PairedGainsFigure on an
// inverse-hyperbolic-sine y axis (figures.SlopesAsinh): nearly linear
// within ±s of 0 and logarithmic beyond, s the median of the gains'
// absolute values that are not 0 (1 if all are 0), as the y label says.
// It keeps the bulk of the seeds apart where a few seeds' gains are far
// larger than the rest's (a gain of 65 among gains of about 0.2, when a
// search took U's exponent to the top of its range).
func PairedGainsFigureAsinh(title, nameA, nameB string, pairs []PairedGains) *figures.Figure {
	cells, values := pairedValues(pairs)
	s := linearWidth(values)
	yLabel := "final gain ΔR (asinh scale, linear within ±" + strconv.FormatFloat(s, 'g', 2, 64) + ")"
	return figures.SlopesAsinh(title, yLabel, nameA, nameB, cells, []float64{0}, s, values...)
}

// linearWidth returns the median of the absolute values in values that
// are neither 0 nor NaN, or 1 if there are none: the width of the nearly
// linear part of PairedGainsFigureAsinh's axis.
func linearWidth(values []figures.PairedValues) float64 {
	var sizes []float64
	for _, v := range values {
		for _, side := range [][]float64{v.A, v.B} {
			for _, g := range side {
				if g != 0 && !math.IsNaN(g) {
					sizes = append(sizes, math.Abs(g))
				}
			}
		}
	}
	if len(sizes) == 0 {
		return 1
	}
	return median(sizes)
}

// pairedValues returns the names of pairs and their gains, for a figure.
func pairedValues(pairs []PairedGains) ([]string, []figures.PairedValues) {
	cells := make([]string, len(pairs))
	values := make([]figures.PairedValues, len(pairs))
	for i, p := range pairs {
		cells[i] = p.Name()
		values[i] = figures.PairedValues{A: p.GainA, B: p.GainB}
	}
	return cells, values
}

// SeedRange returns the seeds of g from first to last, both included, as
// a cell of the same name: a set of fresh seeds judged alone, as a
// confirmation on seeds 10 to 18 after an exploration on 1 to 9. Its
// slices are new. It panics if first > last.
func (g SeedGains) SeedRange(first, last int) SeedGains {
	if first > last {
		panic(fmt.Sprintf("reproduce: seed range %d to %d is empty", first, last))
	}
	r := g
	r.Seeds, r.Gains = nil, nil
	for i, k := range g.Seeds {
		if first <= k && k <= last {
			r.Seeds = append(r.Seeds, k)
			r.Gains = append(r.Gains, g.Gains[i])
		}
	}
	return r
}

// String describes g in one line: its cell, its seeds and what its gain
// is.
func (g SeedGains) String() string {
	name := "one cell"
	if g.Cell != "" {
		name = g.Cell
	}
	seeds := make([]string, len(g.Seeds))
	for i, k := range g.Seeds {
		seeds[i] = strconv.Itoa(k)
	}
	return fmt.Sprintf("%s, seeds %s; gain: %s", name, strings.Join(seeds, " "), g.Definition)
}
