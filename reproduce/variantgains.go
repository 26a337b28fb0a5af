package reproduce

import (
	"fmt"
	"math"
	"sort"

	"github.com/hetgain/hetgain/figures"
)

// VariantGains draws, for an experiment whose variants differ in one
// environment parameter (Experiment.VariantParam), the final gains
// against that parameter's value: a panel per (U, T) pair, with the mean
// over seeds ± two standard errors as a band (the interval whose lower
// end Table compares with the threshold), each seed's final gain as a
// thin dashed line, and reference lines at 0 and at the threshold of a
// clearly positive gain. Variants without finished runs are left out of
// a pair's lines; a pair without any is an empty panel. VariantGains
// panics if the experiment has no VariantParam.
func (r *Results) VariantGains() *figures.Figure {
	e := r.Experiment.withDefaults()
	if e.VariantParam == "" {
		panic(fmt.Sprintf("reproduce: VariantGains of experiment %q, which has no VariantParam", e.Name))
	}
	var panels []figures.Panel
	for _, pair := range e.pairs() {
		panels = append(panels, r.variantGainPanel(pair[0], pair[1]))
	}
	title := fmt.Sprintf("%s: final ΔR against %s, %s", e.Name, e.VariantParam, e.seedNames())
	if len(panels) == 1 { // one large panel rather than a third of a row
		f := figures.BandPanels(title, e.VariantParam, "ΔR", 1, true, panels...)
		f.Width, f.Height = 2*f.Width, 1.6*f.Height
		return f
	}
	return figures.BandPanels(title, e.VariantParam, "ΔR", len(e.Ops), true, panels...)
}

// variantGainPanel returns the panel of VariantGains for the pair (u, t).
func (r *Results) variantGainPanel(u, t string) figures.Panel {
	e := r.Experiment.withDefaults()
	pn := figures.Panel{Title: fmt.Sprintf("U=%s, T=%s", u, t), Reference: []float64{0, e.positiveThreshold()}}
	groups := r.pairGroups(u, t)
	if len(groups) == 0 {
		pn.Title += " (no data)"
		return pn
	}
	x := func(g group) float64 { v, _ := g.variant.paramValue(e.VariantParam); return v }
	avg := figures.Band{Label: "mean ± 2 SE over seeds"}
	seedBands := map[int]*figures.Band{}
	var seeds []int
	for _, g := range groups {
		gains := e.gains(g)
		m, half := mean(gains), 0.0
		if len(gains) > 1 {
			half = 2 * sampleStd(gains) / math.Sqrt(float64(len(gains)))
		}
		avg.X, avg.Mean = append(avg.X, x(g)), append(avg.Mean, m)
		avg.Lo, avg.Hi = append(avg.Lo, m-half), append(avg.Hi, m+half)
		for k, c := range g.cells {
			b, ok := seedBands[c.Seed]
			if !ok {
				b = &figures.Band{Label: fmt.Sprintf("seed %d", c.Seed), Dashed: true}
				seedBands[c.Seed] = b
				seeds = append(seeds, c.Seed)
			}
			b.X, b.Mean = append(b.X, x(g)), append(b.Mean, gains[k])
		}
	}
	sort.Ints(seeds)
	pn.Bands = []figures.Band{avg}
	for _, s := range seeds {
		pn.Bands = append(pn.Bands, *seedBands[s])
	}
	return pn
}

// VariantCurves draws, for an experiment whose variants differ in one
// environment parameter (Experiment.VariantParam), the evaluation gain
// over training of every variant together, as the paper's figure of the
// gain over training at each observation range: a panel per (U, T) pair
// with one curve per variant, labelled by the parameter's value and in
// increasing order of it, each the mean over the variant's finished seeds
// with a band of one standard deviation either side (as Curves, whose
// panels show one variant each), against the frames per team, on one
// y scale for all panels, with a reference line at 0. A variant whose
// seeds have not all finished says in its label how many have. A pair
// without finished runs is an empty panel. VariantCurves panics if the
// experiment has no VariantParam.
func (r *Results) VariantCurves() *figures.Figure {
	e := r.Experiment.withDefaults()
	if e.VariantParam == "" {
		panic(fmt.Sprintf("reproduce: VariantCurves of experiment %q, which has no VariantParam", e.Name))
	}
	maxFrames := int64(0)
	for _, c := range r.Cells {
		maxFrames = max(maxFrames, c.Frames)
	}
	unit, unitName := frameUnit(maxFrames)
	var panels []figures.Panel
	for _, pair := range e.pairs() {
		panels = append(panels, r.variantCurvePanel(pair[0], pair[1], unit))
	}
	title := fmt.Sprintf("%s: ΔR over training by %s, %s", e.Name, e.VariantParam, e.seedNames())
	xLabel := "frames per team (" + unitName + ")"
	if len(panels) == 1 { // one large panel rather than a third of a row
		f := figures.BandPanels(title, xLabel, "ΔR", 1, true, panels...)
		f.Width, f.Height = 2*f.Width, 1.6*f.Height
		return f
	}
	return figures.BandPanels(title, xLabel, "ΔR", len(e.Ops), true, panels...)
}

// variantCurvePanel returns the panel of VariantCurves for the pair
// (u, t), with frames divided by unit.
func (r *Results) variantCurvePanel(u, t string, unit float64) figures.Panel {
	e := r.Experiment.withDefaults()
	pn := figures.Panel{Title: fmt.Sprintf("U=%s, T=%s", u, t), Reference: []float64{0}}
	groups := r.pairGroups(u, t)
	for _, g := range groups {
		b := gainBand(g.cells, unit)
		if b.X == nil {
			continue
		}
		v, _ := g.variant.paramValue(e.VariantParam)
		b.Label = fmt.Sprintf("%s = %g", e.VariantParam, v)
		if len(g.cells) < e.seedsPerCell() {
			b.Label += fmt.Sprintf(" (%d of %d seeds)", len(g.cells), e.seedsPerCell())
		}
		pn.Bands = append(pn.Bands, b)
	}
	if len(pn.Bands) == 0 {
		pn.Title += " (no data)"
	}
	return pn
}

// pairGroups returns the groups of finished runs of the pair (u, t), one
// per variant that has some, in increasing order of the value of the
// experiment's VariantParam.
func (r *Results) pairGroups(u, t string) []group {
	name := r.Experiment.VariantParam
	var groups []group
	for _, g := range r.groups() {
		if g.u == u && g.t == t {
			groups = append(groups, g)
		}
	}
	x := func(g group) float64 { v, _ := g.variant.paramValue(name); return v }
	sort.SliceStable(groups, func(i, j int) bool { return x(groups[i]) < x(groups[j]) })
	return groups
}
