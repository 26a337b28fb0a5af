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
// them short, as gonum narrows the plot to fit a long axis label); and a
// reference line across the chart at each of refs (such as 0). A pair
// with a NaN is left out, but a NaN reference is refused: if there are no
// categories, pairs has not one PairedValues per category, one has A and
// B of different lengths, a value is infinite, a reference is NaN or
// infinite, or the values and references are too far apart to draw
// (their span overflows float64), the figure carries a "figures: ..."
// error that says so (see Figure.Err).
func Slopes(title, yLabel, nameA, nameB string, categories []string, refs []float64, pairs ...PairedValues) *Figure {
	p, err := slopesPlot(title, yLabel, nameA, nameB, categories, refs, pairs, nil)
	if err != nil {
		return failed(err)
	}
	return newFigure(p, nil, 0, false)
}

// SlopesAsinh is Slopes on an inverse-hyperbolic-sine y axis: a value y
// is drawn at height asinh(y/linear), which is nearly linear within
// ±linear of 0 and logarithmic beyond, so that a few pairs far from the
// rest (one seed whose gain is a hundred times the others') do not
// flatten them into a line. Values keep their sign and order. The ticks
// are at 0, ±10^k (labelled) and ±2·10^k, ±5·10^k (unlabelled), in the
// values' own units; the y label should say that the scale is not
// linear. A linear that is not positive and finite gives a figure
// carrying an error, as do the data Slopes refuses.
func SlopesAsinh(title, yLabel, nameA, nameB string, categories []string, refs []float64, linear float64, pairs ...PairedValues) *Figure {
	if !(linear > 0) || math.IsInf(linear, 1) {
		return failed(badf("SlopesAsinh: linear width %v, want a positive finite number", linear))
	}
	p, err := slopesPlot(title, yLabel, nameA, nameB, categories, refs, pairs, &asinhScale{linear})
	if err != nil {
		return failed(err)
	}
	return newFigure(p, nil, 0, false)
}

// asinhScale maps a value y to asinh(y/linear), the height SlopesAsinh
// draws it at, and marks that axis.
type asinhScale struct{ linear float64 }

// maxDecades is the most powers of 10 an asinh axis labels; on a wider
// axis it labels every few.
const maxDecades = 20

// to returns the height of y: finite for every finite y, also where
// y/linear overflows (there asinh(x) = sign(x)·(ln|x| + ln 2) to within
// float64's precision).
func (s asinhScale) to(y float64) float64 {
	x := y / s.linear
	if math.IsInf(x, 0) && !math.IsInf(y, 0) {
		return math.Copysign(math.Log(math.Abs(y))-math.Log(s.linear)+math.Ln2, y)
	}
	return math.Asinh(x)
}

// log10At returns log10 of the value drawn at height h > 0, also where
// that value is beyond float64.
func (s asinhScale) log10At(h float64) float64 {
	if h > 20 { // sinh(h) = e^h/2 to within float64's precision
		return math.Log10(s.linear) + (h-math.Ln2)/math.Ln10
	}
	return math.Log10(s.linear * math.Sinh(h))
}

// heights returns the heights of ys.
func (s asinhScale) heights(ys []float64) []float64 {
	out := make([]float64, len(ys))
	for i, y := range ys {
		out[i] = s.to(y)
	}
	return out
}

// pairs returns the heights of the values of pairs (NaN and ±Inf stay
// what they are).
func (s asinhScale) pairs(pairs []PairedValues) []PairedValues {
	out := make([]PairedValues, len(pairs))
	for i, pv := range pairs {
		out[i] = PairedValues{A: s.heights(pv.A), B: s.heights(pv.B)}
	}
	return out
}

// Ticks returns the ticks between heights min and max: 0 and ±10^k
// labelled with their values, ±2·10^k and ±5·10^k unlabelled, for the
// powers of 10 from the largest at most linear (smaller ones would crowd
// 0's label) to the largest value shown; where that is more than
// maxDecades powers, every few of them, labelled, alone.
func (s asinhScale) Ticks(min, max float64) []plot.Tick {
	var ts []plot.Tick
	add := func(v float64, label bool) {
		if h := s.to(v); h >= min && h <= max {
			t := plot.Tick{Value: h}
			if label {
				t.Label = strconv.FormatFloat(v, 'g', -1, 64)
			}
			ts = append(ts, t)
		}
	}
	add(0, true)
	lo := math.Floor(math.Log10(s.linear))
	hi := math.Min(math.Ceil(s.log10At(math.Max(math.Abs(min), math.Abs(max)))), 308)
	step, minors := 1.0, []float64{2, 5}
	if hi-lo > maxDecades {
		step, minors = math.Ceil((hi-lo)/maxDecades), nil
	}
	for k := lo; k <= hi; k += step {
		v := math.Pow(10, k)
		add(v, true)
		add(-v, true)
		for _, m := range minors {
			add(m*v, false)
			add(-m*v, false)
		}
	}
	return ts
}

// slopesPlot returns the plot that Slopes draws, on a linear y axis if
// scale is nil and on scale's otherwise, or an error if the data cannot
// be drawn.
//
// Errors and the pairs' directions come from the values given, not from
// their heights on scale's axis, which can round two close values to one
// height.
func slopesPlot(title, yLabel, nameA, nameB string, categories []string, refs []float64, pairs []PairedValues, scale *asinhScale) (*plot.Plot, error) {
	drawn := pairs
	if scale != nil {
		refs, drawn = scale.heights(refs), scale.pairs(pairs)
	}
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
		if err := addSlopes(p, categories[k], float64(k), pv, drawn[k], &counts, &thumbs); err != nil {
			return nil, err
		}
	}
	if scale != nil {
		p.Y.Tick.Marker = *scale
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
// by direction and keeping a line of each direction for the legend: pv
// are the values given and drawn their heights (the same, on a linear
// axis), of the same lengths as pv's where those match.
func addSlopes(p *plot.Plot, category string, x float64, pv, drawn PairedValues, counts *[3]int, thumbs *[3]plot.Thumbnailer) error {
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
		ends := plotter.XYs{{X: x - slopeHalfWidth, Y: drawn.A[i]}, {X: x + slopeHalfWidth, Y: drawn.B[i]}}
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
