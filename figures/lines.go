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
// package doc for the colours), with a legend of the series that have a
// name. A series of a single point, which has no line to draw, draws a
// filled marker instead, as Bands does, whatever Points and Dashed. If a
// series has no points, X and Y of different lengths or a value that is
// NaN or infinite, or if the x or y values are too far apart to draw
// (their span overflows float64, as from -1e308 to 1e308), the figure
// carries a "figures: ..." error naming the series or the axis (see
// Figure.Err).
func Lines(title, xLabel, yLabel string, series ...Series) *Figure {
	p, err := linesPlot(title, xLabel, yLabel, series)
	if err != nil {
		return failed(err)
	}
	return newFigure(p, nil, 0, false)
}

// linesPlot returns the plot that Lines draws, or an error if the data
// cannot be drawn.
func linesPlot(title, xLabel, yLabel string, series []Series) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = xLabel
	p.Y.Label.Text = yLabel
	p.Add(plotter.NewGrid())
	for i, s := range series {
		if err := addSeries(p, s, seriesColour(i), i); err != nil {
			return nil, err
		}
	}
	if err := prepareAxes("Lines", p); err != nil {
		return nil, err
	}
	p.Legend.Top = true
	p.Legend.Left = true
	return p, nil
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
	plotters, thumbs, err := seriesPlotters(s, xys, c, i)
	if err != nil {
		return badf("series %q: %v", s.Name, err)
	}
	p.Add(plotters...)
	if s.Name != "" {
		p.Legend.Add(s.Name, thumbs...)
	}
	return nil
}

// seriesPlotters returns what draws series s, of the points xys, in
// colour c, and the thumbnails of its legend entry: its line, with the
// i-th marker shape at every point if s.Points, or for a single point,
// which a line does not draw, a filled marker as Bands draws (see
// pointMarker); or the error of gonum/plot if it refuses the points.
func seriesPlotters(s Series, xys plotter.XYs, c color.Color, i int) ([]plot.Plotter, []plot.Thumbnailer, error) {
	if len(xys) == 1 {
		pts, err := pointMarker(xys, c, i)
		if err != nil {
			return nil, nil, err
		}
		return []plot.Plotter{pts}, []plot.Thumbnailer{pts}, nil
	}
	line, err := plotter.NewLine(xys)
	if err != nil {
		return nil, nil, err
	}
	line.Color = c
	line.Width = 1.5 * line.Width
	if s.Dashed {
		line.Dashes = plotutil.Dashes(1)
	}
	if !s.Points {
		return []plot.Plotter{line}, []plot.Thumbnailer{line}, nil
	}
	pts, _ := plotter.NewScatter(xys)
	pts.Color = c
	pts.Shape = plotutil.Shape(i)
	return []plot.Plotter{line, pts}, []plot.Thumbnailer{line, pts}, nil
}
