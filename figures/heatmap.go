package figures

import (
	"fmt"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
)

// Grid holds values Z[r][c] at the points (X[c], Y[r]) of a rectangular
// grid.
type Grid struct {
	X, Y []float64
	Z    [][]float64
}

// gridXYZ adapts a Grid to plotter.GridXYZ.
type gridXYZ struct{ g Grid }

func (a gridXYZ) Dims() (c, r int)   { return len(a.g.X), len(a.g.Y) }
func (a gridXYZ) Z(c, r int) float64 { return a.g.Z[r][c] }
func (a gridXYZ) X(c int) float64    { return a.g.X[c] }
func (a gridXYZ) Y(r int) float64    { return a.g.Y[r] }

func (g Grid) check() {
	if len(g.X) < 2 || len(g.Y) < 2 {
		panic(fmt.Sprintf("figures: a heat map needs at least 2x2 points, got %dx%d", len(g.X), len(g.Y)))
	}
	if len(g.Z) != len(g.Y) {
		panic(fmt.Sprintf("figures: grid has %d rows of values for %d y values", len(g.Z), len(g.Y)))
	}
	for r, row := range g.Z {
		if len(row) != len(g.X) {
			panic(fmt.Sprintf("figures: grid row %d has %d values for %d x values", r, len(row), len(g.X)))
		}
		for c, v := range row {
			if math.IsInf(v, 0) {
				panic(fmt.Sprintf("figures: grid value at x[%d], y[%d] is %v (NaN is drawn blank, ±Inf cannot be)", c, r, v))
			}
		}
	}
	for _, axis := range []struct {
		name string
		v    []float64
	}{{"x", g.X}, {"y", g.Y}} {
		for k, v := range axis.v {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				panic(fmt.Sprintf("figures: grid %s[%d] = %v, want a finite number", axis.name, k, v))
			}
		}
	}
	if lo, hi := g.zRange(); math.IsInf(hi-lo, 0) {
		panic(fmt.Sprintf("figures: grid values run from %v to %v, a span that overflows float64: too far apart for the colour scale", lo, hi))
	}
}

func (g Grid) zRange() (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, row := range g.Z {
		for _, v := range row {
			if !math.IsNaN(v) {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
	}
	switch {
	case math.IsInf(lo, 0): // every value NaN: a blank map
		return 0, 1
	case lo == hi:
		return lo - 0.5, lo + 0.5
	}
	return lo, hi
}

// HeatMap returns a heat map of the grid with a colour bar labelled
// zLabel, on a diverging blue-red (Moreland) scale. NaN values are left
// blank. It panics with a "figures: ..." message if the grid is
// malformed: rows of other lengths than X, an x or y that is not finite,
// a value of ±Inf, values too far apart for the colour scale (their span
// overflows float64, as from -1e308 to 1e308), or x or y values whose
// cells reach too far apart to draw.
func HeatMap(title, xLabel, yLabel, zLabel string, g Grid) *Figure {
	g.check()
	lo, hi := g.zRange()
	cmap := moreland.SmoothBlueRed()
	cmap.SetMin(lo)
	cmap.SetMax(hi)

	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = xLabel
	p.Y.Label.Text = yLabel
	h := plotter.NewHeatMap(gridXYZ{g}, cmap.Palette(255))
	h.Min, h.Max = lo, hi
	h.Rasterized = true // vector cells leave anti-aliasing seams between them
	p.Add(h)
	checkAxes("HeatMap", p)

	bar := plot.New()
	bar.Title.Text = zLabel
	bar.HideX()
	bar.Add(&plotter.ColorBar{ColorMap: cmap, Vertical: true})
	bar.Y.Min, bar.Y.Max = lo, hi
	checkAxes("HeatMap colour bar", bar)

	return newFigure(p, bar, 1.0/6)
}
