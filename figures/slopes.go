package figures

import (
	"image/color"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// PairedValues are the values of the same units (the seeds of a training
// experiment, say) measured two ways: A[i] and B[i] for unit i. A pair
// with a NaN draws nothing.
type PairedValues struct {
	A, B []float64
}

// slopeHalfWidth is how far to each side of its category a pair's line
// reaches, in units of the distance between categories.
const slopeHalfWidth = 0.3

// Colours of a pair's line: B higher, B lower, equal.
var (
	slopeHigher             = plotutil.Color(2) // blue
	slopeLower              = plotutil.Color(0) // red
	slopeEqual  color.Color = color.Gray{Y: 128}
)

// Slopes returns a chart of paired values by category: the categories
// along x; in each, every pair a line from its A value, on the left, to
// its B value, on the right, blue where B is higher, red where it is
// lower and grey where they are equal, a dot at each end, with a legend
// counting each; the x axis says what A and B are (nameA, nameB: keep
// them short, as gonum narrows the plot to fit a long axis label); and a reference line across
// the chart at each of refs (such as 0). If there are no categories,
// pairs has not one PairedValues per category, one has A and B of
// different lengths, a value or reference is infinite, or the values and
// references are too far apart to draw (their span overflows float64),
// the figure carries a "figures: ..." error that says so (see
// Figure.Err).
func Slopes(title, yLabel, nameA, nameB string, categories []string, refs []float64, pairs ...PairedValues) *Figure {
	p, err := slopesPlot(title, yLabel, nameA, nameB, categories, refs, pairs)
	if err != nil {
		return failed(err)
	}
	return newFigure(p, nil, 0, false)
}

// slopesPlot returns the plot that Slopes draws, or an error if the data
// cannot be drawn.
func slopesPlot(title, yLabel, nameA, nameB string, categories []string, refs []float64, pairs []PairedValues) (*plot.Plot, error) {
	p, err := categoryPlot("Slopes", title, yLabel, categories, refs)
	if err != nil {
		return nil, err
	}
	if len(pairs) != len(categories) {
		return nil, badf("Slopes has %d sets of pairs for %d categories", len(pairs), len(categories))
	}
	p.X.Label.Text = "A (left): " + nameA + "; B (right): " + nameB
	var counts [3]int // higher, lower, equal
	var thumbs [3]plot.Thumbnailer
	for k, pv := range pairs {
		if err := addSlopes(p, categories[k], float64(k), pv, &counts, &thumbs); err != nil {
			return nil, err
		}
	}
	names := [3]string{"B higher", "B lower", "equal"}
	for i, c := range counts {
		if c > 0 {
			p.Legend.Add(names[i]+" ("+strconv.Itoa(c)+")", thumbs[i])
		}
	}
	padY(p, 0.08, legendHeadroom)
	if err := prepareAxes("Slopes", p); err != nil {
		return nil, err
	}
	p.Legend.Top = true
	return p, nil
}

// addSlopes draws the pairs of one category, centred at x, counting them
// by direction and keeping a line of each direction for the legend.
func addSlopes(p *plot.Plot, category string, x float64, pv PairedValues, counts *[3]int, thumbs *[3]plot.Thumbnailer) error {
	if len(pv.A) != len(pv.B) {
		return badf("category %q has %d A values and %d B values", category, len(pv.A), len(pv.B))
	}
	for i := range pv.A {
		a, b := pv.A[i], pv.B[i]
		if math.IsInf(a, 0) || math.IsInf(b, 0) {
			return badf("category %q, pair %d: %v and %v, want finite numbers or NaN", category, i, a, b)
		}
		if math.IsNaN(a) || math.IsNaN(b) {
			continue
		}
		ends := plotter.XYs{{X: x - slopeHalfWidth, Y: a}, {X: x + slopeHalfWidth, Y: b}}
		line, err := plotter.NewLine(ends)
		if err != nil {
			return badf("category %q, pair %d: %v", category, i, err)
		}
		dots, _ := plotter.NewScatter(ends) // as valid as the line's
		dots.Shape = draw.CircleGlyph{}
		dots.Radius = vg.Points(2)
		dir, c := 2, slopeEqual
		switch {
		case b > a:
			dir, c = 0, slopeHigher
		case b < a:
			dir, c = 1, slopeLower
		}
		line.Color, dots.Color = c, c
		line.Width = vg.Points(1.5)
		p.Add(line, dots)
		counts[dir]++
		thumbs[dir] = line
	}
	return nil
}
