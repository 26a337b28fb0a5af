package reproduce

import (
	"fmt"
	"math"
	"sort"

	"github.com/hetgain/hetgain/figures"
	"github.com/hetgain/hetgain/gain"
	"github.com/hetgain/hetgain/learn"
)

// Curves draws the evaluation gain ΔR of one variant against the frames
// each team has collected: a panel per (U, T) pair the experiment runs
// (Experiment.Pairs, or all of Ops × Ops, then one row per U and one
// column per T), each with the mean over seeds and a band of one standard
// deviation either side (no band with one seed), at the iterations every
// finished seed evaluated, on one y scale for all panels. The closed-form gain is the reference line of
// the matrix game's panels; a dashed curve marks a cell whose predicted
// gain is zero. The title gives the frames used and the paper's budget.
// A panel without finished cells is empty. With a TaskEval the curves
// are those of the training reward (the table's ReturnGain), as the
// legend says, not of the final Gain. Curves panics if the
// experiment has no variant labelled variant.
func (r *Results) Curves(variant string) *figures.Figure {
	e, _ := r.mustVariant(variant)
	title, xLabel, panels := r.curvePanels(variant)
	return figures.BandPanels(title, xLabel, "ΔR", len(e.Ops), true, panels...)
}

// curvePanels returns the title, x label and panels of Curves.
func (r *Results) curvePanels(variant string) (title, xLabel string, panels []figures.Panel) {
	e, v := r.mustVariant(variant)
	groups, maxFrames := r.variantGroups(variant)
	unit, unitName := frameUnit(maxFrames)
	for _, pair := range e.pairs() {
		u, t := pair[0], pair[1]
		pn := figures.Panel{Title: fmt.Sprintf("U=%s, T=%s", u, t)}
		th, sign := theory(v.Env, u, t)
		if !math.IsNaN(th) {
			pn.Reference = []float64{th}
		}
		g, ok := groups[[2]string{u, t}]
		if !ok {
			pn.Title += " (no data)"
			panels = append(panels, pn)
			continue
		}
		b := gainBand(g.cells, unit)
		if b.X == nil {
			pn.Title += " (no evaluation)"
		} else {
			b.Label = "ΔR (het - hom)"
			if e.TaskEval.on() {
				b.Label += " of the training reward"
			}
			b.Dashed = sign == gain.Zero.String()
			pn.Bands = []figures.Band{b}
		}
		if len(g.cells) < e.seedsPerCell() {
			pn.Title += fmt.Sprintf(" (%d of %d seeds)", len(g.cells), e.seedsPerCell())
		}
		panels = append(panels, pn)
	}
	title = fmt.Sprintf("%s %s: ΔR over %s, %s frames per run", e.Name, variant, e.seedNames(), formatCount(maxFrames))
	if e.PaperBudget != "" {
		title += " (paper: " + e.PaperBudget + ")"
	}
	return title, "frames per team (" + unitName + ")", panels
}

// Diversity draws, for one variant, how far apart each team's agents'
// efforts are over training (learn.PairStats.HetDiversity and
// HomDiversity: 0 for agents that behave alike, 1 for agents on disjoint
// tasks): the same grid of panels as Curves, with both teams' mean over
// seeds and a band of one standard deviation, on one y scale. Where the
// theory predicts a gain the heterogeneous team's diversity should rise
// with its gain. A panel whose runs' logs have no diversities (logs
// written before hetgain recorded them) says so. Diversity panics if the
// experiment has no variant labelled variant.
func (r *Results) Diversity(variant string) *figures.Figure {
	e, _ := r.mustVariant(variant)
	title, xLabel, panels := r.diversityPanels(variant)
	return figures.BandPanels(title, xLabel, "diversity", len(e.Ops), true, panels...)
}

// diversityPanels returns the title, x label and panels of Diversity.
func (r *Results) diversityPanels(variant string) (title, xLabel string, panels []figures.Panel) {
	e, _ := r.mustVariant(variant)
	groups, maxFrames := r.variantGroups(variant)
	unit, unitName := frameUnit(maxFrames)
	for _, pair := range e.pairs() {
		u, t := pair[0], pair[1]
		pn := figures.Panel{Title: fmt.Sprintf("U=%s, T=%s", u, t)}
		g, ok := groups[[2]string{u, t}]
		if !ok {
			pn.Title += " (no data)"
			panels = append(panels, pn)
			continue
		}
		het := logBand(g.cells, unit, func(s learn.PairStats) float64 { return s.HetDiversity })
		hom := logBand(g.cells, unit, func(s learn.PairStats) float64 { return s.HomDiversity })
		if het.X == nil || hom.X == nil {
			pn.Title += " (no diversities)"
		} else {
			het.Label, hom.Label = "heterogeneous", "homogeneous"
			pn.Bands = []figures.Band{het, hom}
		}
		panels = append(panels, pn)
	}
	title = fmt.Sprintf("%s %s: diversity of the teams' efforts over %s", e.Name, variant, e.seedNames())
	return title, "frames per team (" + unitName + ")", panels
}

// hasDiversity reports whether some finished run of variant logged a
// diversity.
func (r *Results) hasDiversity(variant string) bool {
	for _, c := range r.Cells {
		if c.Variant != variant {
			continue
		}
		for _, row := range c.Log {
			if !math.IsNaN(row.HetDiversity) {
				return true
			}
		}
	}
	return false
}

// variantGroups returns the groups of variant's finished runs by (U, T)
// and the most frames per team any of them collected.
func (r *Results) variantGroups(variant string) (map[[2]string]group, int64) {
	groups := map[[2]string]group{}
	maxFrames := int64(0)
	for _, g := range r.groups() {
		if g.variant.Label == variant {
			groups[[2]string{g.u, g.t}] = g
			for _, c := range g.cells {
				maxFrames = max(maxFrames, c.Frames)
			}
		}
	}
	return groups, maxFrames
}

// frameUnit returns the unit of a frames axis that reaches maxFrames and
// its name.
func frameUnit(maxFrames int64) (float64, string) {
	if maxFrames >= 1e6 {
		return 1e6, "millions"
	}
	return 1e3, "thousands"
}

// gainBand returns the mean and ± one standard deviation over cells of
// the evaluation gain at the iterations every cell evaluated, against
// frames/unit (X nil if there is no such iteration; Lo and Hi nil for one
// cell).
func gainBand(cells []Cell, unit float64) figures.Band {
	return logBand(cells, unit, func(s learn.PairStats) float64 { return s.EvalGain })
}

// logBand is LogBand of the cells' logs.
func logBand(cells []Cell, unit float64, get func(learn.PairStats) float64) figures.Band {
	logs := make([][]learn.PairStats, len(cells))
	for k, c := range cells {
		logs[k] = c.Log
	}
	return LogBand(logs, unit, get)
}

// LogBand returns the mean and ± one sample standard deviation over runs
// of get of their log rows (one log per run, as learn.Result.Log), at the
// iterations where get is finite in every log, against the mean frames
// per team at that iteration divided by unit. X is nil if there is no
// such iteration, and Lo and Hi are nil for one log. Curves, Diversity
// and the curves of hetgain train draw such bands.
func LogBand(logs [][]learn.PairStats, unit float64, get func(learn.PairStats) float64) figures.Band {
	type point struct {
		frames []float64
		values []float64
	}
	byIter := map[int]*point{}
	for _, log := range logs {
		for _, row := range log {
			v := get(row)
			if math.IsNaN(v) || math.IsInf(v, 0) {
				continue
			}
			p := byIter[row.Iteration]
			if p == nil {
				p = &point{}
				byIter[row.Iteration] = p
			}
			p.frames = append(p.frames, float64(row.Frames)/unit)
			p.values = append(p.values, v)
		}
	}
	var iters []int
	for it, p := range byIter {
		if len(p.values) == len(logs) {
			iters = append(iters, it)
		}
	}
	sort.Ints(iters)
	var b figures.Band
	for _, it := range iters {
		p := byIter[it]
		m := mean(p.values)
		b.X = append(b.X, mean(p.frames))
		b.Mean = append(b.Mean, m)
		if len(logs) > 1 {
			s := sampleStd(p.values)
			b.Lo, b.Hi = append(b.Lo, m-s), append(b.Hi, m+s)
		}
	}
	return b
}

// mustVariant returns the experiment (after defaults) and its variant
// labelled label, and panics if it has none: a figure of a variant that
// does not exist is a programmer's error.
func (r *Results) mustVariant(label string) (Experiment, Variant) {
	e := r.Experiment.withDefaults()
	v, ok := e.variant(label)
	if !ok {
		panic(fmt.Sprintf("reproduce: experiment %q has no variant %q", e.Name, label))
	}
	return e, v
}
