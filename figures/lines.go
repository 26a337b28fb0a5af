package figures

import (
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
)

// Series is one named curve of a line chart.
type Series struct {
	Name string
	X, Y []float64
	// Points draws a marker at every point in addition to the line.
	Points bool
	// Dashed draws the line dashed.
	Dashed bool
}

// Lines returns a line chart of the series, one colour each (see the
// package doc for the colours), with a legend. If a series has no
// points, X and Y of different lengths or a value that is NaN or
// infinite, or if the x or y values are too far apart to draw (their
// span overflows float64, as from -1e308 to 1e308), the figure carries a
// "figures: ..." error naming the series or the axis (see Figure.Err).
func Lines(title, xLabel, yLabel string, series ...Series) *Figure {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = xLabel
	p.Y.Label.Text = yLabel
	p.Add(plotter.NewGrid())
	for i, s := range series {
		if err := addSeries(p, s, seriesColour(i), i); err != nil {
			return failed(err)
		}
	}
	if err := prepareAxes("Lines", p); err != nil {
		return failed(err)
	}
	p.Legend.Top = true
	p.Legend.Left = true
	return newFigure(p, nil, 0, false)
}

// addSeries adds s to p in colour c, with the i-th marker shape, or
// returns an error if it is malformed.
func addSeries(p *plot.Plot, s Series, c color.Color, i int) error {
	if len(s.X) == 0 && len(s.Y) == 0 {
		return badf("series %q has no points", s.Name)
	}
	if len(s.X) != len(s.Y) {
		return badf("series %q has %d x and %d y values", s.Name, len(s.X), len(s.Y))
	}
	xys := make(plotter.XYs, len(s.X))
	for k := range s.X {
		xys[k].X, xys[k].Y = s.X[k], s.Y[k]
	}
	line, err := plotter.NewLine(xys)
	if err != nil {
		return badf("series %q: %v", s.Name, err)
	}
	line.Color = c
	line.Width = 1.5 * line.Width
	if s.Dashed {
		line.Dashes = plotutil.Dashes(1)
	}
	p.Add(line)
	thumbs := []plot.Thumbnailer{line}
	if s.Points {
		pts, _ := plotter.NewScatter(xys)
		pts.Color = c
		pts.Shape = plotutil.Shape(i)
		p.Add(pts)
		thumbs = append(thumbs, pts)
	}
	if s.Name != "" {
		p.Legend.Add(s.Name, thumbs...)
	}
	return nil
}
