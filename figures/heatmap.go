package figures

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Grid holds values Z[r][c] at the points (X[c], Y[r]) of a rectangular
// grid.
type Grid struct {
	X, Y []float64
	Z    [][]float64
}

// heatCells draws a Grid as cells of colour, cell k of an axis reaching
// halfway to its neighbours (allCellEdges), through an image whose pixels
// each take the colour of the cell their centre lies in. gonum/plot's
// rasterized HeatMap spreads its cells evenly over the axes instead, which
// puts the cells of an uneven grid (x = 0, 1, 2, 10) at the wrong x, and
// its image of one pixel a cell is blurred across the cells when scaled
// up; its vector cells leave anti-aliasing seams between them.
type heatCells struct {
	g      Grid
	lo, hi float64
	pal    []color.Color
}

// heatPixels is the least number of pixels of a heat map's image along
// each axis: more than the map has in a figure of the default size, so
// that a cell edge blurs over at most about a pixel there (at 1024 the
// figure took twice as long to draw, BenchmarkHeatMapPNG).
const heatPixels = 512

func (h heatCells) Plot(c draw.Canvas, plt *plot.Plot) {
	xe, ye := allCellEdges(h.g.X), allCellEdges(h.g.Y)
	cols, rows := pixelCells(xe, max(heatPixels, 2*len(h.g.X))), pixelCells(ye, max(heatPixels, 2*len(h.g.Y)))
	pal := make([]color.RGBA, len(h.pal))
	for k, c := range h.pal {
		pal[k] = color.RGBAModel.Convert(c).(color.RGBA)
	}
	img := image.NewRGBA(image.Rect(0, 0, len(cols), len(rows)))
	for py, r := range rows {
		for px, k := range cols {
			if v := h.g.Z[r][k]; !math.IsNaN(v) {
				img.SetRGBA(px, len(rows)-1-py, pal[int(unit(v, h.lo, h.hi)*float64(len(pal)-1)+0.5)])
			}
		}
	}
	plotter.NewImage(img, xe[0], ye[0], xe[len(xe)-1], ye[len(ye)-1]).Plot(c, plt)
}

func (h heatCells) DataRange() (xmin, xmax, ymin, ymax float64) {
	xe, ye := allCellEdges(h.g.X), allCellEdges(h.g.Y)
	return xe[0], xe[len(xe)-1], ye[0], ye[len(ye)-1]
}

// allCellEdges returns the n+1 edges of the cells of the n values v
// (see cellEdges): cell k runs from edge k to edge k+1.
func allCellEdges(v []float64) []float64 {
	e := make([]float64, len(v)+1)
	for k := range v {
		e[k], _ = cellEdges(v, k)
	}
	_, e[len(v)] = cellEdges(v, len(v)-1)
	return e
}

// pixelCells splits the span of edges into the given number of pixels and
// returns, for each pixel from the low end, the index of the cell its
// centre lies in.
func pixelCells(edges []float64, pixels int) []int {
	lo, hi := edges[0], edges[len(edges)-1]
	cells := make([]int, pixels)
	k := 0
	for p := range cells {
		x := lo + (float64(p)+0.5)/float64(pixels)*(hi-lo)
		for k < len(edges)-2 && x >= edges[k+1] {
			k++
		}
		cells[p] = k
	}
	return cells
}

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
			if k > 0 && (v == axis.v[k-1] || (v > axis.v[k-1]) != (axis.v[1] > axis.v[0])) {
				return badf("grid %s[%d] = %v after %s[%d] = %v: the %s values must increase or decrease throughout", axis.name, k, v, axis.name, k-1, axis.v[k-1], axis.name)
			}
		}
	}
	if lo, hi := g.zRange(); math.IsInf(hi-lo, 0) {
		return badf("grid values run from %v to %v, a span that overflows float64: too far apart for the colour scale", lo, hi)
	}
	return nil
}

// increasing returns g with a decreasing x or y reversed, its values
// reordered with it, so that both increase; g itself is left alone.
func (g Grid) increasing() Grid {
	if g.X[1] < g.X[0] {
		g.X = slices.Clone(g.X)
		slices.Reverse(g.X)
		z := make([][]float64, len(g.Z))
		for r, row := range g.Z {
			z[r] = slices.Clone(row)
			slices.Reverse(z[r])
		}
		g.Z = z
	}
	if g.Y[1] < g.Y[0] {
		g.Y = slices.Clone(g.Y)
		slices.Reverse(g.Y)
		g.Z = slices.Clone(g.Z)
		slices.Reverse(g.Z)
	}
	return g
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
// zLabel, on a diverging blue-red (Moreland) scale. Each value is drawn as
// a cell of one colour, reaching halfway to its neighbours, so the cells
// of an uneven grid are as wide as their spacing. The axes increase to
// the right and upwards whichever way the grid runs. NaN values are left
// blank. If the grid is malformed (fewer than 2x2 points, rows of other
// lengths than X, an x or y that is not finite, x or y values that neither
// increase nor decrease throughout, a value of ±Inf, values
// too far apart for the colour scale (their span overflows float64, as
// from -1e308 to 1e308), or x or y values whose cells reach too far apart
// to draw), the figure carries a "figures: ..." error that says so (see
// Figure.Err). A heat map cannot be encoded as eps: Encode and Save
// return an error for that format.
func HeatMap(title, xLabel, yLabel, zLabel string, g Grid) *Figure {
	if err := g.check(); err != nil {
		return failed(err)
	}
	g = g.increasing()
	lo, hi := g.zRange()
	base := moreland.SmoothBlueRed()
	base.SetMin(0)
	base.SetMax(1)
	cmap := &scaledMap{base: base, lo: lo, hi: hi}

	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = xLabel
	p.Y.Label.Text = yLabel
	p.Add(heatCells{g: g, lo: lo, hi: hi, pal: cmap.Palette(heatColours).Colors()})
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
