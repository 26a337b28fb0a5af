package figures

import (
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/hetgain/hetgain/aggregators"
)

// ClassRow is the Schur class of one operator family along its parameter:
// Classes[k] is the class at Params[k]. Params must be finite and strictly
// increasing (SchurStrips's figure carries an error otherwise).
type ClassRow struct {
	Name    string
	Params  []float64
	Classes []aggregators.SchurClass
}

// ClassColors maps each Schur class to its colour in SchurStrips: reds for
// Schur-convex, blues for Schur-concave (dark when strict), purple for
// both, black for neither, light grey for unknown.
var ClassColors = map[aggregators.SchurClass]color.Color{
	aggregators.StrictlyConvex:  color.RGBA{R: 178, G: 24, B: 43, A: 255},
	aggregators.Convex:          color.RGBA{R: 244, G: 165, B: 130, A: 255},
	aggregators.StrictlyConcave: color.RGBA{R: 33, G: 102, B: 172, A: 255},
	aggregators.Concave:         color.RGBA{R: 146, G: 197, B: 222, A: 255},
	aggregators.Both:            color.RGBA{R: 118, G: 42, B: 131, A: 255},
	aggregators.Neither:         color.RGBA{A: 255},
	aggregators.Unknown:         color.RGBA{R: 210, G: 210, B: 210, A: 255},
}

// classLabels are the short legend labels of the classes.
var classLabels = map[aggregators.SchurClass]string{
	aggregators.StrictlyConvex:  "strictly convex",
	aggregators.Convex:          "convex",
	aggregators.StrictlyConcave: "strictly concave",
	aggregators.Concave:         "concave",
	aggregators.Both:            "both (sum only)",
	aggregators.Neither:         "neither",
	aggregators.Unknown:         "unknown",
}

// SchurStrips returns a chart with one horizontal strip per row, coloured
// by the Schur class at each parameter value (the first row on top), with a
// legend of the classes
// that occur. If there are no rows, a row has no Params or Params and
// Classes of different lengths, a row's Params are not finite and strictly
// increasing, a row's Classes are not all Schur classes, or the parameters
// are too far apart to draw (the span of the strips overflows float64), the
// figure carries a "figures: ..." error naming the row or the axis (see
// Figure.Err).
func SchurStrips(title, paramLabel string, rows ...ClassRow) *Figure {
	if len(rows) == 0 {
		return failed(badf("SchurStrips needs at least one row"))
	}
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = paramLabel
	names := make([]string, len(rows))
	seen := map[aggregators.SchurClass]bool{}
	for i, r := range rows {
		if err := r.check(); err != nil {
			return failed(err)
		}
		names[len(rows)-1-i] = r.Name // the first row on top
		for _, c := range r.Classes {
			seen[c] = true
		}
	}
	p.Add(classStrips(rows))
	if err := prepareAxes("SchurStrips", p); err != nil {
		return failed(err)
	}
	p.NominalY(names...)

	legend := plot.New()
	legend.HideAxes()
	legend.Legend.Top = true
	legend.Legend.Left = true
	for c := aggregators.Unknown; c <= aggregators.Neither; c++ {
		if seen[c] {
			legend.Legend.Add(classLabels[c], swatch{ClassColors[c]})
		}
	}
	f := newFigure(p, legend, 0.25, false)
	f.Width = DefaultWidth * 1.25
	f.Height = vg.Length(len(rows))*vg.Centimeter + 3*vg.Centimeter
	return f
}

// check returns a "figures: row ...: ..." error unless the row has as
// many Classes as Params, at least one, its Params are finite and strictly
// increasing, its Classes are Schur classes (Unknown to Neither), and its
// strip, from the first cell's lower edge to the last
// cell's upper edge, has a finite span.
func (r ClassRow) check() error {
	if len(r.Params) != len(r.Classes) || len(r.Params) == 0 {
		return badf("row %q has %d parameters and %d classes", r.Name, len(r.Params), len(r.Classes))
	}
	for k, v := range r.Params {
		if !finite(v) {
			return badf("row %q: Params[%d] is %v, want a finite number", r.Name, k, v)
		}
		if k > 0 && !(v > r.Params[k-1]) {
			return badf("row %q: Params[%d] = %v is not above Params[%d] = %v (Params must be strictly increasing)", r.Name, k, v, k-1, r.Params[k-1])
		}
	}
	for k, c := range r.Classes {
		if _, ok := classLabels[c]; !ok {
			return badf("row %q: Classes[%d] is %v (%d), not a Schur class", r.Name, k, c, int(c))
		}
	}
	lo, _ := cellEdges(r.Params, 0)
	_, hi := cellEdges(r.Params, len(r.Params)-1)
	if !finite(hi - lo) {
		return badf("row %q: Params from %v to %v are too far apart to draw (the strip's span overflows float64)", r.Name, r.Params[0], r.Params[len(r.Params)-1])
	}
	return nil
}

// classStrips is a plot.Plotter that fills one rectangle per (row,
// parameter), spanning half-way to the neighbouring parameters.
type classStrips []ClassRow

func (s classStrips) Plot(c draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&c)
	for row, r := range s {
		i := len(s) - 1 - row // the first row on top
		for k := 0; k < len(r.Classes); {
			// Draw each run of equal classes as one rectangle.
			end := k
			for end+1 < len(r.Classes) && r.Classes[end+1] == r.Classes[k] {
				end++
			}
			lo, _ := cellEdges(r.Params, k)
			_, hi := cellEdges(r.Params, end)
			cls := r.Classes[k]
			k = end + 1
			rect := []vg.Point{
				{X: tx(lo), Y: ty(float64(i) - 0.4)}, {X: tx(hi), Y: ty(float64(i) - 0.4)},
				{X: tx(hi), Y: ty(float64(i) + 0.4)}, {X: tx(lo), Y: ty(float64(i) + 0.4)},
			}
			c.FillPolygon(ClassColors[cls], c.ClipPolygonXY(rect))
		}
	}
}

func (s classStrips) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, xmax = s[0].Params[0], s[0].Params[0]
	for _, r := range s {
		lo, _ := cellEdges(r.Params, 0)
		_, hi := cellEdges(r.Params, len(r.Params)-1)
		if lo < xmin {
			xmin = lo
		}
		if hi > xmax {
			xmax = hi
		}
	}
	return xmin, xmax, -0.5, float64(len(s)) - 0.5
}

// cellEdges returns the span of the cell of value k of the increasing
// values ps (a parameter of a strip, a grid point of a heat map):
// half-way to its neighbours, and a mirrored half-step at the ends; a
// single value's cell is widen's range around it, which is not empty
// where ±0.5 rounds back to the value. The half-way points are computed as
// a/2 + b/2, which does not overflow.
func cellEdges(ps []float64, k int) (lo, hi float64) {
	if len(ps) == 1 {
		return widen(ps[0])
	}
	if k > 0 {
		lo = ps[k-1]/2 + ps[k]/2
	} else {
		lo = ps[0] - (ps[1]-ps[0])/2
	}
	if k < len(ps)-1 {
		hi = ps[k]/2 + ps[k+1]/2
	} else {
		hi = ps[k] + (ps[k]-ps[k-1])/2
	}
	return lo, hi
}

// swatch is a legend thumbnail filled with one colour.
type swatch struct{ color color.Color }

func (s swatch) Thumbnail(c *draw.Canvas) {
	pts := []vg.Point{
		{X: c.Min.X, Y: c.Min.Y}, {X: c.Max.X, Y: c.Min.Y},
		{X: c.Max.X, Y: c.Max.Y}, {X: c.Min.X, Y: c.Max.Y},
	}
	c.FillPolygon(s.color, pts)
}
