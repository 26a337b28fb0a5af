package figures

import (
	"errors"
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// Grid holds values Z[r][c] at the points (X[c], Y[r]) of a rectangular
// grid.
type Grid struct {
	X, Y []float64
	Z    [][]float64
}

// gridXYZ adapts a Grid to plotter.GridXYZ, with the values scaled from
// [lo, hi] to [0, 1]: plotter.HeatMap picks a value's colour by
// (v - Min) * (colours - 1) / (Max - Min), which loses every cell (drawn
// blank) when Max - Min is so small that the factor overflows.
type gridXYZ struct {
	g      Grid
	lo, hi float64
}

func (a gridXYZ) Dims() (c, r int)   { return len(a.g.X), len(a.g.Y) }
func (a gridXYZ) Z(c, r int) float64 { return unit(a.g.Z[r][c], a.lo, a.hi) }
func (a gridXYZ) X(c int) float64    { return a.g.X[c] }
func (a gridXYZ) Y(r int) float64    { return a.g.Y[r] }

// unit returns where v lies in [lo, hi] as a fraction in [0, 1] (values
// outside are clamped; NaN stays NaN). hi - lo must be finite and > 0.
func unit(v, lo, hi float64) float64 {
	return math.Min(1, math.Max(0, (v-lo)/(hi-lo)))
}

// scaledMap is a palette.ColorMap over [lo, hi] that takes the colour of
// v from base, a colour map over [0, 1], at unit(v, lo, hi). moreland's
// maps set to [lo, hi] directly compute colours out of gamut, and panic,
// when hi - lo is a few ulps of the values (their midpoint is off centre).
type scaledMap struct {
	base   palette.ColorMap
	lo, hi float64
}

func (m *scaledMap) At(v float64) (color.Color, error) {
	if math.IsNaN(v) {
		return nil, fmt.Errorf("figures: colour of NaN")
	}
	return m.base.At(unit(v, m.lo, m.hi))
}
func (m *scaledMap) Max() float64                       { return m.hi }
func (m *scaledMap) SetMax(v float64)                   { m.hi = v }
func (m *scaledMap) Min() float64                       { return m.lo }
func (m *scaledMap) SetMin(v float64)                   { m.lo = v }
func (m *scaledMap) Alpha() float64                     { return m.base.Alpha() }
func (m *scaledMap) SetAlpha(a float64)                 { m.base.SetAlpha(a) }
func (m *scaledMap) Palette(colors int) palette.Palette { return m.base.Palette(colors) }

// check returns a "figures: ..." error if the grid cannot be drawn.
func (g Grid) check() error {
	if len(g.X) < 2 || len(g.Y) < 2 {
		return badf("a heat map needs at least 2x2 points, got %dx%d", len(g.X), len(g.Y))
	}
	if len(g.Z) != len(g.Y) {
		return badf("grid has %d rows of values for %d y values", len(g.Z), len(g.Y))
	}
	for r, row := range g.Z {
		if len(row) != len(g.X) {
			return badf("grid row %d has %d values for %d x values", r, len(row), len(g.X))
		}
		for c, v := range row {
			if math.IsInf(v, 0) {
				return badf("grid value at x[%d], y[%d] is %v (NaN is drawn blank, ±Inf cannot be)", c, r, v)
			}
		}
	}
	for _, axis := range []struct {
		name string
		v    []float64
	}{{"x", g.X}, {"y", g.Y}} {
		for k, v := range axis.v {
			if !finite(v) {
				return badf("grid %s[%d] = %v, want a finite number", axis.name, k, v)
			}
		}
	}
	if lo, hi := g.zRange(); math.IsInf(hi-lo, 0) {
		return badf("grid values run from %v to %v, a span that overflows float64: too far apart for the colour scale", lo, hi)
	}
	return nil
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
		return widen(lo)
	}
	return lo, hi
}

// widen returns a range around v for a map of the single value v, or an
// axis of it: v ± 0.5, or where that rounds back to v (|v| beyond 2^53),
// the neighbouring floats, short of ±Inf.
func widen(v float64) (lo, hi float64) {
	lo, hi = v-0.5, v+0.5
	if lo == v {
		lo = math.Nextafter(v, math.Inf(-1))
	}
	if hi == v {
		hi = math.Nextafter(v, math.Inf(1))
	}
	if math.IsInf(lo, 0) {
		lo = v
	}
	if math.IsInf(hi, 0) {
		hi = v
	}
	return lo, hi
}

// heatColours is the number of colours of a heat map, and of its colour
// bar. gonum/plot's default for the bar is one colour per point of its
// height, an image as tall as the figure even in a vector format: a
// figure of 1e6 cm took gigabytes and minutes to draw as svg.
const heatColours = 255

// HeatMap returns a heat map of the grid with a colour bar labelled
// zLabel, on a diverging blue-red (Moreland) scale. NaN values are left
// blank. If the grid is malformed (fewer than 2x2 points, rows of other
// lengths than X, an x or y that is not finite, a value of ±Inf, values
// too far apart for the colour scale (their span overflows float64, as
// from -1e308 to 1e308), or x or y values whose cells reach too far apart
// to draw), the figure carries a "figures: ..." error that says so (see
// Figure.Err). A heat map cannot be encoded as eps: Encode and Save
// return an error for that format.
func HeatMap(title, xLabel, yLabel, zLabel string, g Grid) *Figure {
	if err := g.check(); err != nil {
		return failed(err)
	}
	lo, hi := g.zRange()
	base := moreland.SmoothBlueRed()
	base.SetMin(0)
	base.SetMax(1)
	cmap := &scaledMap{base: base, lo: lo, hi: hi}

	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = xLabel
	p.Y.Label.Text = yLabel
	h := plotter.NewHeatMap(gridXYZ{g: g, lo: lo, hi: hi}, cmap.Palette(heatColours))
	h.Min, h.Max = 0, 1
	h.Rasterized = true // vector cells leave anti-aliasing seams between them
	p.Add(h)
	if err := prepareAxes("HeatMap", p); err != nil {
		return failed(err)
	}

	bar := plot.New()
	bar.Title.Text = zLabel
	bar.HideX()
	bar.Add(&plotter.ColorBar{ColorMap: cmap, Vertical: true, Colors: heatColours})
	bar.Y.Min, bar.Y.Max = lo, hi
	if err := prepareAxes("HeatMap colour bar", bar); err != nil {
		return failed(err)
	}

	return withoutEPS(newFigure(p, bar, 1.0/6, true))
}

// withoutEPS returns f with Encode refusing the eps format: a heat map's
// cells and colour bar are images, which gonum/plot's eps canvas cannot
// draw (it panics).
func withoutEPS(f *Figure) *Figure {
	encode := f.encode
	f.encode = func(format string, w, h vg.Length) ([]byte, error) {
		if format == "eps" {
			return nil, errors.New("figures: a heat map cannot be drawn as eps (its cells are an image, which gonum/plot's eps canvas does not draw); use png, svg or pdf")
		}
		return encode(format, w, h)
	}
	return f
}
