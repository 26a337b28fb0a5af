package reproduce

import (
	"errors"
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
	"github.com/hetgain/hetgain/tables"
)

// PositiveTolerance is the smallest gain, as a fraction of the
// experiment's return scale (Experiment.Scale), that Results.Table calls
// clearly positive.
const PositiveTolerance = 0.02

// TableColumns are the columns of Results.Table. A ...Std column is the
// sample standard deviation over the cell's seeds, NaN (in the CSV too)
// for a cell of one seed, where it is not defined.
var TableColumns = []string{"Experiment", "Variant", "U", "T", "Seeds", "Frames",
	"Gain", "GainStd", "HetEval", "HetEvalStd", "HomEval", "HomEvalStd", "ReturnGain", "ReturnGainStd",
	"Theory", "AbsError", "Predicted", "Positive", "PaperGain", "PaperStd", "PaperPositive"}

// floatColumns are the float columns of Table, in the order Table
// computes them.
var floatColumns = []string{"Gain", "GainStd", "HetEval", "HetEvalStd", "HomEval", "HomEvalStd",
	"ReturnGain", "ReturnGainStd", "Theory", "AbsError", "PaperGain", "PaperStd"}

// positiveThreshold returns the smallest gain Table calls clearly
// positive.
func (e Experiment) positiveThreshold() float64 {
	if e.PositiveThreshold != 0 {
		return e.PositiveThreshold
	}
	return PositiveTolerance * e.Scale
}

// group is the cells of one (variant, U, T).
type group struct {
	variant Variant
	u, t    string
	cells   []Cell
}

// label names g in summaries: "<variant> <U>-<T>".
func (g group) label() string { return g.variant.Label + " " + g.u + "-" + g.t }

// gains returns the final gains of g's runs, in the order of its cells.
func (e Experiment) gains(g group) []float64 {
	out := make([]float64, len(g.cells))
	for k, c := range g.cells {
		out[k] = e.runFinal(c).gain
	}
	return out
}

// groups returns the (variant, U, T) with at least one finished cell, in
// the order of the experiment.
func (r *Results) groups() []group {
	e := r.Experiment.withDefaults()
	var out []group
	for _, v := range e.Variants {
		for _, pair := range e.pairs() {
			g := group{variant: v, u: pair[0], t: pair[1]}
			for _, c := range r.Cells {
				if c.Variant == v.Label && c.U == g.u && c.T == g.t {
					g.cells = append(g.cells, c)
				}
			}
			if len(g.cells) > 0 {
				out = append(out, g)
			}
		}
	}
	return out
}

// theory returns the closed-form gain of a matrix-game cell (NaN for
// other environments or operators without a closed form) and the sign the
// theory predicts, as a gain.Sign name.
//
// The sign comes from gain.ClosedForm where U and T are in {min, mean,
// max}: over continuous allocations for the continuous matrix game and
// Multi-goal-capture (whose effort rows lie in the simplex), over
// discrete ones for the discrete matrix game and Tag (whose efforts are 0
// or 1: caught or not). Otherwise it is gain.Predict's.
func theory(env learn.EnvSpec, u, t string) (value float64, sign string) {
	value = math.NaN()
	n, m := env.Agents, env.Tasks
	if n == 0 {
		n = 2
	}
	if m == 0 {
		m = 2
	}
	uo, err1 := aggregators.Parse(u)
	to, err2 := aggregators.Parse(t)
	if err1 != nil || err2 != nil {
		return value, gain.Undecided.String()
	}
	kind := gain.Continuous
	if env.Discrete || env.Name == "tag" || env.Name == "tag-vmas" {
		kind = gain.Discrete
	}
	if g, err := gain.ClosedForm(uo, to, n, m, kind); err == nil {
		if env.Name == "matrix" {
			value = g.Delta
		}
		if g.Delta > 1e-12 {
			return value, gain.Positive.String()
		}
		return value, gain.Zero.String()
	}
	p, err := gain.Predict(uo, to, n, m)
	if err != nil {
		return value, gain.Undecided.String()
	}
	return value, p.Sign.String()
}

// Table returns one row per (variant, U, T) with at least one finished
// cell, in the experiment's order, with the columns TableColumns:
//
//   - Experiment, Variant, U, T; Seeds, the number of finished seeds;
//     Frames, the frames each team of a run collected (the largest over
//     seeds).
//   - Gain and GainStd: the mean and the sample standard deviation
//     (denominator seeds − 1, NaN for one seed) over seeds of the final
//     evaluation gain ΔR = HetEval − HomEval: of each run, the mean over
//     its last Experiment.FinalEvals evaluations (Cell.FinalMean; by
//     default the last one alone), or, if the experiment has a
//     TaskEval, that evaluation's gain TaskHet − TaskHom. HetEval,
//     HetEvalStd, HomEval and HomEvalStd likewise for the teams' final
//     returns.
//   - ReturnGain and ReturnGainStd: the same over seeds of the mean gain
//     of the last FinalEvals training evaluations, whose returns are
//     those the teams were trained on; equal to Gain and GainStd unless
//     the experiment has a TaskEval.
//   - Theory: the closed-form ΔR of gain.ClosedForm for the matrix game
//     (continuous or discrete as the variant; NaN for other environments,
//     whose returns are on another scale, and for operators without a
//     closed form), and AbsError = |Gain − Theory|.
//   - Predicted: the sign the theory predicts, a gain.Sign name
//     ("Positive", "Zero", "PositiveUnlessTrivial" or "Undecided"): from
//     the closed form over continuous allocations (the continuous matrix
//     game, Multi-goal-capture) or discrete ones (the discrete matrix
//     game, Tag, whose efforts are 0 or 1), else from gain.Predict.
//   - Positive: the learned gain is clearly positive: its mean minus two
//     standard errors, Gain − 2·GainStd/√Seeds, exceeds
//     Experiment.PositiveThreshold, by default PositiveTolerance ×
//     Experiment.Scale (0.02 for the matrix game, whose returns are in
//     [0, 1]). This needs at least two seeds; with one it is false.
//   - PaperGain, PaperStd, PaperPositive: the learned gain the paper
//     reports for the cell (Paper), and whether it prints it in bold as a
//     positive gain; NaN, NaN and false where the paper has no value.
func (r *Results) Table() dataframe.DataFrame {
	e := r.Experiment.withDefaults()
	gs := r.groups()
	n := len(gs)
	expName, variants, us, ts, preds := make([]string, n), make([]string, n), make([]string, n), make([]string, n), make([]string, n)
	seeds, frames := make([]int, n), make([]int, n)
	floats := make([][]float64, len(floatColumns))
	for k := range floats {
		floats[k] = make([]float64, n)
	}
	positive, paperPositive := make([]bool, n), make([]bool, n)
	tol := e.positiveThreshold()
	for i, g := range gs {
		expName[i], variants[i], us[i], ts[i] = e.Name, g.variant.Label, g.u, g.t
		seeds[i] = len(g.cells)
		var gains, hets, homs, returnGains []float64
		for _, c := range g.cells {
			f := e.runFinal(c)
			gains, hets, homs = append(gains, f.gain), append(hets, f.het), append(homs, f.hom)
			returnGains = append(returnGains, f.returnGain)
			if int(c.Frames) > frames[i] {
				frames[i] = int(c.Frames)
			}
		}
		gm, gsd := mean(gains), sampleStd(gains)
		th, sign := theory(g.variant.Env, g.u, g.t)
		preds[i] = sign
		pg, ok := Paper(e.paperName(), g.variant.Label, g.u, g.t)
		if !ok {
			pg = PaperGain{Mean: math.NaN(), Std: math.NaN()}
		}
		paperPositive[i] = pg.Bold
		for k, v := range []float64{gm, gsd, mean(hets), sampleStd(hets), mean(homs), sampleStd(homs),
			mean(returnGains), sampleStd(returnGains), th, math.Abs(gm - th), pg.Mean, pg.Std} {
			floats[k][i] = v
		}
		positive[i] = lowerBound(gains) > tol
	}
	col := func(name string) int {
		for k, c := range floatColumns {
			if c == name {
				return k
			}
		}
		panic("reproduce: no column " + name)
	}
	var cols []series.Series
	for _, name := range TableColumns {
		switch name {
		case "Experiment":
			cols = append(cols, series.New(expName, series.String, name))
		case "Variant":
			cols = append(cols, series.New(variants, series.String, name))
		case "U":
			cols = append(cols, series.New(us, series.String, name))
		case "T":
			cols = append(cols, series.New(ts, series.String, name))
		case "Predicted":
			cols = append(cols, series.New(preds, series.String, name))
		case "Seeds":
			cols = append(cols, series.New(seeds, series.Int, name))
		case "Frames":
			cols = append(cols, series.New(frames, series.Int, name))
		case "Positive":
			cols = append(cols, series.New(positive, series.Bool, name))
		case "PaperPositive":
			cols = append(cols, series.New(paperPositive, series.Bool, name))
		default:
			cols = append(cols, series.New(floats[col(name)], series.Float, name))
		}
	}
	return dataframe.New(cols...)
}

// runFinalNumbers are the numbers of one finished run that Table
// averages over seeds and RunTable lists.
type runFinalNumbers struct {
	gain, het, hom, returnGain float64
}

// runFinal returns a run's final gain and the teams' returns that give
// it (those of the TaskEval if e has one, else the mean of the run's last
// FinalEvals evaluations), and the gain of its training returns (the
// latter mean).
func (e Experiment) runFinal(c Cell) runFinalNumbers {
	f := c.FinalMean(e.FinalEvals)
	out := runFinalNumbers{gain: f.EvalGain, het: f.HetEval, hom: f.HomEval, returnGain: f.EvalGain}
	if e.TaskEval.on() {
		out.gain, out.het, out.hom = c.TaskHet-c.TaskHom, c.TaskHet, c.TaskHom
	}
	return out
}

// RunTableColumns are the columns of Results.RunTable.
var RunTableColumns = []string{"Experiment", "Variant", "U", "T", "Seed", "Frames", "Seconds",
	"Gain", "HetEval", "HomEval", "ReturnGain"}

// RunTable returns one row per finished run, in the order of Cells: the
// numbers that Table averages over a cell's seeds, run by run, for
// statistics of one's own (a paired test, a bootstrap, a seed's outlier).
// Gain = HetEval − HomEval is the run's final gain as Table defines it
// (with a TaskEval, its teams' returns on it), ReturnGain the gain of its
// training returns, Frames the frames each team collected and Seconds
// the run's training time.
func (r *Results) RunTable() dataframe.DataFrame {
	e := r.Experiment.withDefaults()
	n := len(r.Cells)
	names, variants, us, ts := make([]string, n), make([]string, n), make([]string, n), make([]string, n)
	seeds, frames := make([]int, n), make([]int, n)
	seconds, gains, hets, homs, returnGains := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	for i, c := range r.Cells {
		f := e.runFinal(c)
		names[i], variants[i], us[i], ts[i], seeds[i], frames[i] = e.Name, c.Variant, c.U, c.T, c.Seed, int(c.Frames)
		seconds[i], gains[i], hets[i], homs[i], returnGains[i] = c.Seconds, f.gain, f.het, f.hom, f.returnGain
	}
	// The values of RunTableColumns, in its order.
	values := []interface{}{names, variants, us, ts, seeds, frames, seconds, gains, hets, homs, returnGains}
	types := []series.Type{series.String, series.String, series.String, series.String, series.Int, series.Int,
		series.Float, series.Float, series.Float, series.Float, series.Float}
	cols := make([]series.Series, len(RunTableColumns))
	for k, name := range RunTableColumns {
		cols[k] = series.New(values[k], types[k], name)
	}
	return dataframe.New(cols...)
}

// WriteCSV writes Table to path as CSV, every float at full precision
// (tables.WriteCSV), replacing the file atomically.
func (r *Results) WriteCSV(path string) error {
	return atomicfile.Write(path, func(w io.Writer) error { return tables.WriteCSV(w, r.Table()) })
}

// Files of a reproduction written by Results.Save, besides its runs.
const (
	TableCSV      = "gains.csv"
	RunTableCSV   = "runs.csv"
	curvesPNG     = "curves-%s.png"    // per variant label
	finalGainsPNG = "gains-%s.png"     // per variant label
	diversityPNG  = "diversity-%s.png" // per variant label, if its logs have diversities
	// VariantGainsPNG is VariantGains, written only for an experiment
	// with a VariantParam.
	VariantGainsPNG = "variants.png"
	// VariantCurvesPNG is VariantCurves, written only for an experiment
	// with a VariantParam.
	VariantCurvesPNG = "variant-curves.png"
)

// ErrNoRuns is wrapped by the error of Results.Save and
// HetGPSResults.Save for results without a finished run.
var ErrNoRuns = errors.New("no finished run")

// SaveTables writes the two tables of Save, gains.csv and runs.csv, and
// not its figures, and returns their paths. It is what a long
// reproduction calls as each run finishes: the tables are cheap to
// write, the figures are not.
func (r *Results) SaveTables(dir string) ([]string, error) {
	if len(r.Cells) == 0 {
		return nil, fmt.Errorf("reproduce: %s: nothing written to %s: %w", r.Experiment.Name, dir, ErrNoRuns)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	paths := []string{filepath.Join(dir, TableCSV), filepath.Join(dir, RunTableCSV)}
	if err := r.WriteCSV(paths[0]); err != nil {
		return nil, err
	}
	if err := atomicfile.Write(paths[1], func(w io.Writer) error { return tables.WriteCSV(w, r.RunTable()) }); err != nil {
		return paths[:1], err
	}
	return paths, nil
}

// Save writes to dir the table of final gains (gains.csv, as WriteCSV),
// the runs' own final gains (runs.csv, RunTable at full precision)
// and, per variant with a finished run, its training curves
// (curves-<variant>.png, as Curves), its final gains beside the paper's
// (gains-<variant>.png, as FinalGains) and, if its runs logged them, the
// teams' diversities over training (diversity-<variant>.png, as
// Diversity), and, for an experiment with a VariantParam, the final gains
// against it (variants.png, as VariantGains) and all variants' curves
// together (variant-curves.png, as VariantCurves), each replacing its
// file atomically, creating dir if need be, and returns the paths
// written. Results of an unfinished reproduction give those of its
// finished runs; the figures of a variant without a finished run are
// neither drawn nor touched, so that figures of an earlier Save (of
// fewer iterations, say) are not replaced by empty ones. Results without
// any finished run write nothing (tables of nothing would replace those
// of an earlier Save) and return an error wrapping ErrNoRuns.
func (r *Results) Save(dir string) ([]string, error) {
	paths, err := r.SaveTables(dir)
	if err != nil {
		return paths, err
	}
	for _, v := range r.Experiment.withDefaults().Variants {
		if paths, err = r.saveVariant(dir, v.Label, paths); err != nil {
			return paths, err
		}
	}
	if r.Experiment.VariantParam == "" {
		return paths, nil
	}
	for _, fig := range []struct {
		name string
		draw func() *figures.Figure
	}{{VariantGainsPNG, r.VariantGains}, {VariantCurvesPNG, r.VariantCurves}} {
		p := filepath.Join(dir, fig.name)
		if err := fig.draw().Save(p); err != nil {
			return paths, err
		}
		paths = append(paths, p)
	}
	return paths, nil
}

// saveVariant writes the figures of Save of variant, if it has a
// finished run, and returns paths with theirs appended.
func (r *Results) saveVariant(dir, variant string, paths []string) ([]string, error) {
	if !r.hasRuns(variant) {
		return paths, nil
	}
	for _, fig := range []struct {
		name string
		draw func(string) *figures.Figure
	}{{curvesPNG, r.Curves}, {finalGainsPNG, r.FinalGains}, {diversityPNG, r.Diversity}} {
		if fig.name == diversityPNG && !r.hasDiversity(variant) {
			continue
		}
		p := filepath.Join(dir, fmt.Sprintf(fig.name, variant))
		if err := fig.draw(variant).Save(p); err != nil {
			return paths, err
		}
		paths = append(paths, p)
	}
	return paths, nil
}

// hasRuns reports whether variant has a finished run.
func (r *Results) hasRuns(variant string) bool {
	for _, c := range r.Cells {
		if c.Variant == variant {
			return true
		}
	}
	return false
}

// framesPerVariant returns the largest number of frames per team of a
// finished run, and the frames of each variant as text ("400,000", or
// "continuous 400,000, discrete 80,000" when the variants differ).
func (r *Results) framesPerVariant() (int64, string) {
	most := map[string]int64{}
	all := int64(0)
	for _, c := range r.Cells {
		if c.Frames > most[c.Variant] {
			most[c.Variant] = c.Frames
		}
		if c.Frames > all {
			all = c.Frames
		}
	}
	var parts []string
	same := true
	for _, v := range r.Experiment.Variants {
		if f, ok := most[v.Label]; ok {
			parts = append(parts, v.Label+" "+formatCount(f))
			same = same && f == all
		}
	}
	if same {
		return all, formatCount(all)
	}
	return all, strings.Join(parts, ", ")
}

// Summary returns a short text: the runs and their frames beside the
// paper's budget, what the paper expects, the table (rounded to three
// decimals), and which cells are clearly positive against which the paper
// reports positive.
func (r *Results) Summary() string {
	e := r.Experiment.withDefaults()
	df := r.Table()
	var b strings.Builder
	seeds := fmt.Sprintf("%d seed(s)", e.Seeds)
	if e.firstSeed() > 1 {
		seeds = e.seedNames()
	}
	fmt.Fprintf(&b, "%s: %d variant(s) x %d (U, T) pairs x %s = %d runs, %d finished.\n",
		e.Name, len(e.Variants), len(e.pairs()), seeds, e.Runs(), len(r.Cells))
	frames, perVariant := r.framesPerVariant()
	fmt.Fprintf(&b, "Frames per run (each team): %s", perVariant)
	switch {
	case e.PaperFrames > 0:
		fmt.Fprintf(&b, ", %s%% of the paper's %s.\n", percent(100*float64(frames)/float64(e.PaperFrames)), e.PaperBudget)
	case e.PaperBudget != "":
		fmt.Fprintf(&b, "; the paper: %s.\n", e.PaperBudget)
	default:
		b.WriteString("; the paper has no run of this experiment.\n")
	}
	switch {
	case e.TaskEval.on():
		fmt.Fprintf(&b, "A run's final gain (Gain) is that of its final policies on %d episodes with %s; "+
			"ReturnGain that of the training returns, the mean of its last %d evaluations.\n",
			e.TaskEval.Episodes, e.TaskEval.Params.String(), e.FinalEvals)
	case e.FinalEvals > 1:
		fmt.Fprintf(&b, "A run's final gain is the mean of its last %d evaluations.\n", e.FinalEvals)
	}
	if e.Expect != "" {
		fmt.Fprintf(&b, "Expected: %s.\n", e.Expect)
	}
	if df.Nrow() == 0 {
		b.WriteString("No cell is finished.\n")
		return b.String()
	}
	b.WriteString("\n")
	round := func(name string) series.Series {
		v := df.Col(name).Float()
		for i := range v {
			v[i] = math.Round(v[i]*1000) / 1000
			if v[i] == 0 {
				v[i] = 0 // no "-0"
			}
		}
		return series.New(v, series.Float, name)
	}
	cols := []series.Series{df.Col("Variant"), df.Col("U"), df.Col("T"), df.Col("Seeds"), round("Gain"), round("GainStd")}
	if e.TaskEval.on() {
		cols = append(cols, round("ReturnGain"))
	}
	cols = append(cols, round("Theory"), df.Col("Predicted"), df.Col("Positive"),
		round("PaperGain"), round("PaperStd"), df.Col("PaperPositive"))
	short := dataframe.New(cols...)
	if err := tables.WriteText(&b, short); err != nil {
		fmt.Fprintf(&b, "(table: %v)\n", err)
	}
	r.writeSeedGains(&b)
	var ours, paper, differ []string
	hasPaper := false
	for i := 0; i < df.Nrow(); i++ {
		name := df.Elem(i, 1).String() + " " + df.Elem(i, 2).String() + "-" + df.Elem(i, 3).String()
		pos, _ := df.Col("Positive").Elem(i).Bool()
		ppos, _ := df.Col("PaperPositive").Elem(i).Bool()
		if pos {
			ours = append(ours, name)
		}
		if !math.IsNaN(df.Col("PaperGain").Elem(i).Float()) {
			hasPaper = true
			if ppos {
				paper = append(paper, name)
			}
			if pos != ppos {
				differ = append(differ, name)
			}
		}
	}
	list := func(s []string) string {
		if len(s) == 0 {
			return "none"
		}
		return strings.Join(s, ", ")
	}
	rule := fmt.Sprintf("%g = %g x the return scale %g", e.positiveThreshold(), PositiveTolerance, e.Scale)
	if e.PositiveThreshold != 0 {
		rule = fmt.Sprintf("%g, the experiment's threshold", e.PositiveThreshold)
	}
	fmt.Fprintf(&b, "\nClearly positive here (Gain - 2 standard errors > %s; needs 2+ seeds): %s.\n", rule, list(ours))
	if hasPaper {
		fmt.Fprintf(&b, "Positive in the paper (bold): %s.\n", list(paper))
		if len(differ) == 0 {
			b.WriteString("They agree on every finished cell the paper reports.\n")
		} else {
			fmt.Fprintf(&b, "They differ on: %s.\n", list(differ))
		}
	}
	r.writeOpenCells(&b)
	return b.String()
}

// writeSeedGains writes, for every (variant, U, T) with more than one
// finished run, its runs' final gains seed by seed, rounded to three
// decimals as the table.
func (r *Results) writeSeedGains(b *strings.Builder) {
	e := r.Experiment.withDefaults()
	var labels, lines []string
	width := 0
	for _, g := range r.groups() {
		if len(g.cells) < 2 {
			continue
		}
		parts := make([]string, len(g.cells))
		for k, gain := range e.gains(g) {
			parts[k] = fmt.Sprintf("%d: %.3f", g.cells[k].Seed, gain)
		}
		labels = append(labels, g.label())
		lines = append(lines, strings.Join(parts, ", "))
		width = max(width, len(labels[len(labels)-1]))
	}
	if len(lines) == 0 {
		return
	}
	b.WriteString("\nGain per seed (seed: gain):\n")
	for k := range lines {
		fmt.Fprintf(b, "  %-*s  %s\n", width, labels[k], lines[k])
	}
}

// writeOpenCells writes, for every (variant, U, T) with fewer finished
// runs than the experiment plans for a cell (seeds FirstSeed to Seeds)
// and not clearly positive, the most that Gain − 2 standard errors can
// still reach whatever the other runs give, and so whether they can still
// make it clearly positive (Judge, with no bounds on their gains).
func (r *Results) writeOpenCells(b *strings.Builder) {
	e := r.Experiment.withDefaults()
	threshold := e.positiveThreshold()
	planned := e.seedsPerCell()
	for _, g := range r.groups() {
		if len(g.cells) >= planned {
			continue
		}
		gains := e.gains(g)
		v, err := Judge(gains, planned, threshold, math.Inf(-1), math.Inf(1))
		if err != nil {
			fmt.Fprintf(b, "%s: %v\n", g.label(), err)
			continue
		}
		if v.Positive() {
			continue
		}
		fmt.Fprintf(b, "%s: %d of %d seeds finished; ", g.label(), len(gains), planned)
		rest := planned - len(gains)
		switch {
		case math.IsInf(v.Best, 1):
			fmt.Fprintf(b, "the other %d can still make it clearly positive.\n", rest)
		case !v.Settled():
			fmt.Fprintf(b, "the other %d can still make it clearly positive (Gain - 2 standard errors up to %.3f).\n", rest, v.Best)
		default:
			fmt.Fprintf(b, "whatever the other %d give, Gain - 2 standard errors stays at most %.3f: they cannot make it clearly positive.\n", rest, v.Best)
		}
	}
}

// percent writes p to two significant digits, without an exponent: "16",
// "0.0032", "100", "250".
func percent(p float64) string {
	if p >= 10 {
		return strconv.FormatFloat(math.Round(p), 'f', -1, 64)
	}
	return strconv.FormatFloat(p, 'g', 2, 64)
}

// formatCount writes n with thousands separators, and in millions from 10M.
func formatCount(n int64) string {
	if n >= 10_000_000 {
		return fmt.Sprintf("%.3gM", float64(n)/1e6)
	}
	s := fmt.Sprint(n)
	var out []byte
	for i := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	return string(out)
}
