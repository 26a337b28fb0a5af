package figures

import (
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Interval is an estimate and an interval around it, such as a mean and
// the mean ± one standard deviation. A NaN Value draws nothing (Lo and Hi
// are then ignored); otherwise Value is finite, and Lo and Hi are either
// both NaN, which draws the point without a bar, or both finite with
// Lo ≤ Value ≤ Hi. An infinite Value or end, and one NaN end beside a
// finite one (a one-sided interval), are errors (see Intervals).
type Interval struct {
	Value, Lo, Hi float64
}

// IntervalSeries is a named list of estimates, one per category.
type IntervalSeries struct {
	Name   string
	Points []Interval
}

// filledShapes are the markers of the series, in turn.
var filledShapes = []draw.GlyphDrawer{draw.CircleGlyph{}, draw.BoxGlyph{}, draw.TriangleGlyph{}, draw.PyramidGlyph{}}

// intervalSpread is the distance along x between the series of one
// category, in units of the distance between categories, for up to
// intervalReach/intervalSpread + 1 series; more series are spaced closer,
// so that they stay within intervalReach of their category.
const intervalSpread = 0.2

// intervalReach is how far from its category a series' point may be drawn,
// in units of the distance between categories: short of half-way, so that
// no point of one category lies nearer the next.
const intervalReach = 0.4

// intervalOffset returns the offset along x of series i of n from its
// category.
func intervalOffset(i, n int) float64 {
	spread := intervalSpread
	if n > 1 {
		spread = min(spread, 2*intervalReach/float64(n-1))
	}
	return (float64(i) - float64(n-1)/2) * spread
}

// Intervals returns a chart of estimates with error bars by category: the
// categories along x; in each, every series' point and bar side by side,
// one colour and marker per series, named in a legend; and a reference
// line across the chart at each of refs (such as 0, or a threshold). If
// there are no categories, a series has not one interval per category, an
// interval whose Value is not NaN has an infinite Value or end, one NaN
// end and one finite, or ends that do not enclose its Value (see
// Interval), a reference is not finite, or the values, references and the
// margins around them are too far apart to draw (their span overflows
// float64), the figure carries a "figures: ..." error that says so,
// naming the series and category, or the axis (see Figure.Err).
func Intervals(title, yLabel string, categories []string, refs []float64, series ...IntervalSeries) *Figure {
	p, err := intervalsPlot(title, yLabel, categories, refs, series)
	if err != nil {
		return failed(err)
	}
	return newFigure(p, nil, 0, false)
}

// intervalsPlot returns the plot that Intervals draws, or an error if the
// data cannot be drawn.
func intervalsPlot(title, yLabel string, categories []string, refs []float64, series []IntervalSeries) (*plot.Plot, error) {
	n := len(categories)
	p, err := categoryPlot("Intervals", title, yLabel, categories, refs)
	if err != nil {
		return nil, err
	}
	for i, s := range series {
		if len(s.Points) != n {
			return nil, badf("series %q has %d intervals for %d categories", s.Name, len(s.Points), n)
		}
		if err := addIntervals(p, s, intervalOffset(i, len(series)), i); err != nil {
			return nil, err
		}
	}
	padY(p, 0.08, legendHeadroom)
	if err := prepareAxes("Intervals", p); err != nil {
		return nil, err
	}
	p.Legend.Top = true
	return p, nil
}

// categoryPlot returns a plot with the categories along x, one unit
// apart from 0, a grid and a reference line across it at each of refs, or
// an error, naming the constructor where, if there are no categories or a
// reference is not finite.
func categoryPlot(where, title, yLabel string, categories []string, refs []float64) (*plot.Plot, error) {
	if len(categories) == 0 {
		return nil, badf("%s needs at least one category", where)
	}
	for _, r := range refs {
		if !finite(r) {
			return nil, badf("reference line at %v, want a finite number", r)
		}
	}
	p := plot.New()
	p.Title.Text = title
	p.Y.Label.Text = yLabel
	p.Add(plotter.NewGrid())
	p.NominalX(categories...)
	p.X.Min, p.X.Max = -0.5, float64(len(categories))-0.5
	if len(refs) > 0 {
		p.Add(referenceLines(refs))
	}
	return p, nil
}

// legendHeadroom is the fraction of the data's y span left empty above
// the highest bar, where the legend (two or three rows at the top right)
// is drawn.
const legendHeadroom = 0.25

// padY widens the y range of p by below and above times its span, so that
// no bar ends on the frame or runs under the legend.
func padY(p *plot.Plot, below, above float64) {
	lo, hi := p.Y.Min, p.Y.Max
	span := hi - lo
	if !(span > 0) {
		span = 1
	}
	p.Y.Min, p.Y.Max = lo-below*span, hi+above*span
}

// errorPoints are points with asymmetric vertical errors, as
// plotter.NewYErrorBars takes them.
type errorPoints struct {
	plotter.XYs
	plotter.YErrors
}

// addIntervals draws the points of s at x = category + offset, with bars
// where the ends are not NaN, or returns an error if an interval is
// malformed (see checkInterval).
func addIntervals(p *plot.Plot, s IntervalSeries, offset float64, i int) error {
	var pts plotter.XYs
	var bars errorPoints
	for k, iv := range s.Points {
		if math.IsNaN(iv.Value) {
			continue
		}
		if err := checkInterval(s.Name, k, iv); err != nil {
			return err
		}
		xy := plotter.XY{X: float64(k) + offset, Y: iv.Value}
		pts = append(pts, xy)
		if !math.IsNaN(iv.Lo) && !math.IsNaN(iv.Hi) {
			bars.XYs = append(bars.XYs, xy)
			bars.YErrors = append(bars.YErrors, struct{ Low, High float64 }{iv.Value - iv.Lo, iv.Hi - iv.Value})
		}
	}
	c := seriesColour(i)
	var thumbs []plot.Thumbnailer
	if len(pts) > 0 {
		sc, err := plotter.NewScatter(pts)
		if err != nil {
			return badf("series %q: %v", s.Name, err)
		}
		sc.Color = c
		sc.Shape = filledShapes[i%len(filledShapes)]
		sc.Radius = vg.Points(3)
		p.Add(sc)
		thumbs = append(thumbs, sc)
	}
	if len(bars.XYs) > 0 {
		eb, err := plotter.NewYErrorBars(bars)
		if err != nil {
			return badf("series %q: %v", s.Name, err)
		}
		eb.Color = c
		eb.LineStyle.Width = vg.Points(1.2)
		p.Add(eb)
	}
	if s.Name != "" && len(thumbs) > 0 {
		p.Legend.Add(s.Name, thumbs...)
	}
	return nil
}

// checkInterval returns an error about interval k of series name, whose
// Value is not NaN, unless its Value is finite and its ends are both NaN
// (no bar) or both finite and on either side of Value. The error names
// an end (or the Value) that is infinite, and an end that is NaN while
// the other is not.
func checkInterval(name string, k int, iv Interval) error {
	where := "series " + strconv.Quote(name) + ", category " + strconv.Itoa(k)
	switch {
	case math.IsInf(iv.Value, 0):
		return badAt(where, "Value is %v; want a finite number, or NaN to draw nothing", iv.Value)
	case math.IsInf(iv.Lo, 0):
		return badAt(where, "Lo is %v; want a finite number, or NaN for no interval", iv.Lo)
	case math.IsInf(iv.Hi, 0):
		return badAt(where, "Hi is %v; want a finite number, or NaN for no interval", iv.Hi)
	case math.IsNaN(iv.Lo) != math.IsNaN(iv.Hi):
		return badAt(where, "Lo is %v but Hi is %v; want both ends, or both NaN for no interval", iv.Lo, iv.Hi)
	case iv.Lo > iv.Value || iv.Hi < iv.Value:
		return badAt(where, "interval %v to %v does not enclose %v", iv.Lo, iv.Hi, iv.Value)
	}
	return nil
}
