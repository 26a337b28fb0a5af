package figures

import (
	"image"
	"math"
	"testing"

	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// TestIntervalsDrawsBars draws two series over three categories and looks
// at the pixels: each series' bar is in its colour along its interval, at
// its offset within the category, and not beyond its ends; a point without
// ends has no bar; a NaN value draws nothing.
func TestIntervalsDrawsBars(t *testing.T) {
	nan := math.NaN()
	cats := []string{"a", "b", "c"}
	learned := IntervalSeries{Name: "learned", Points: []Interval{{1, 0, 2}, {3, 2.5, 3.5}, {nan, nan, nan}}}
	paper := IntervalSeries{Name: "paper", Points: []Interval{{-1, -3, 1}, {2, nan, nan}, {0.5, 0, 1}}}
	p, err := intervalsPlot("gains", "ΔR", cats, []float64{0}, []IntervalSeries{learned, paper})
	if err != nil {
		t.Fatal(err)
	}
	f := Intervals("gains", "ΔR", cats, []float64{0}, learned, paper)
	img := decode(t, f)
	dc := p.DataCanvas(draw.Canvas{Rectangle: vg.Rectangle{Max: vg.Point{X: f.Width, Y: f.Height}}})
	tx, ty := p.Transforms(&dc)
	at := func(x, y float64) image.Point { return pixel(vg.Point{X: tx(x), Y: ty(y)}, f.Height) }
	// colourNear reports whether a pixel within 2 of the data point (x, y)
	// has about colour i of the palette (anti-aliasing blends the edges).
	colourNear := func(i int, x, y float64) bool {
		q := at(x, y)
		for py := q.Y - 2; py <= q.Y+2; py++ {
			for px := q.X - 2; px <= q.X+2; px++ {
				if near(img.At(px, py), plotutil.Color(i), 40) {
					return true
				}
			}
		}
		return false
	}
	off := intervalSpread / 2
	for _, c := range []struct {
		name  string
		i     int
		x, y  float64
		drawn bool
	}{
		{"learned a, on its bar", 0, 0 - off, 1.7, true},
		{"learned a, below its bar", 0, 0 - off, -0.4, false},
		{"learned a, at paper's offset", 0, 0 + off, 1.7, false},
		{"learned b, on its bar", 0, 1 - off, 2.7, true},
		{"learned b, above its bar", 0, 1 - off, 4, false},
		{"learned c (NaN), nothing", 0, 2 - off, 0.5, false},
		{"paper a, on its bar", 1, 0 + off, -2.5, true},
		{"paper b, its point", 1, 1 + off, 2, true},
		{"paper b, no bar", 1, 1 + off, 2.8, false},
		{"paper c, on its bar", 1, 2 + off, 0.9, true},
	} {
		if got := colourNear(c.i, c.x, c.y); got != c.drawn {
			t.Errorf("%s: colour %d near (%v, %v): %v, want %v", c.name, c.i, c.x, c.y, got, c.drawn)
		}
	}
}

func TestIntervalsMalformedInput(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct {
		name string
		s    IntervalSeries
		msg  string
	}{
		{"too few", IntervalSeries{Name: "s", Points: []Interval{{1, 0, 2}}}, "1 intervals for 2 categories"},
		{"outside", IntervalSeries{Name: "s", Points: []Interval{{1, 2, 3}, {0, nan, nan}}}, "does not enclose"},
		{"infinite", IntervalSeries{Name: "s", Points: []Interval{{math.Inf(1), nan, nan}, {0, nan, nan}}}, "category 0: Value is +Inf; want a finite number, or NaN"},
		{"no Lo", IntervalSeries{Name: "s", Points: []Interval{{0, -1, 1}, {1, nan, 2}}}, "category 1: Lo is NaN but Hi is 2"},
		{"no Hi", IntervalSeries{Name: "s", Points: []Interval{{1, 0, nan}, {0, -1, 1}}}, "category 0: Lo is 0 but Hi is NaN"},
		{"infinite Lo", IntervalSeries{Name: "s", Points: []Interval{{1, math.Inf(-1), 2}, {0, nan, nan}}}, "category 0: Lo is -Inf; want a finite number, or NaN"},
		{"infinite Hi", IntervalSeries{Name: "s", Points: []Interval{{1, 0, 2}, {0, nan, math.Inf(1)}}}, "category 1: Hi is +Inf; want a finite number, or NaN"},
		{"infinite Lo, no Hi", IntervalSeries{Name: "s", Points: []Interval{{1, math.Inf(-1), nan}, {0, nan, nan}}}, "Lo is -Inf"},
	} {
		wantBad(t, c.name, func() *Figure { return Intervals("", "", []string{"a", "b"}, nil, c.s) }, `series "s"`, c.msg)
	}
}

// TestIntervalsLegendAboveBars draws a bar that reaches the highest value
// in the last category, under the legend at the top right, and checks that
// the bar's top is below the legend's lowest row, as measured by gonum's
// own legend layout.
func TestIntervalsLegendAboveBars(t *testing.T) {
	nan := math.NaN()
	cats := []string{"a", "b", "c"}
	learned := IntervalSeries{Name: "learned, mean ± 2 SE over seeds", Points: []Interval{{0, -1, 1}, {-36, nan, nan}, {-4, -38, 30}}}
	paper := IntervalSeries{Name: "paper, mean ± std", Points: []Interval{{0, -1, 1}, {2, 1, 3}, {0, -0.2, 0.2}}}
	p, err := intervalsPlot("gains", "ΔR", cats, []float64{0, 0.5}, []IntervalSeries{learned, paper})
	if err != nil {
		t.Fatal(err)
	}
	f := Intervals("gains", "ΔR", cats, []float64{0, 0.5}, learned, paper)
	c := draw.Canvas{Rectangle: vg.Rectangle{Max: vg.Point{X: f.Width, Y: f.Height}}}
	dc := p.DataCanvas(c)
	_, ty := p.Transforms(&dc)
	c.Max.Y -= p.Title.TextStyle.Rectangle(p.Title.Text).Size().Y + p.Title.Padding
	legendBottom := p.Legend.Rectangle(c).Min.Y - p.Legend.TextStyle.FontExtents().Descent
	if top := ty(30); top >= legendBottom {
		t.Errorf("the highest bar ends at y = %v, in the legend (its rows reach down to %v)", top, legendBottom)
	}
}

// TestIntervalsManySeriesStayInTheirCategory draws up to 12 series over
// two categories and checks that every point lies nearer its own
// category than the other: the x range, which the points' data range
// widens, stays the categories' own, from -0.5 to 1.5, and the series of
// a category keep their order, apart. At 0.2 apart, the points of six
// series reached the half-way line between categories and those of seven
// crossed it, into the next category.
func TestIntervalsManySeriesStayInTheirCategory(t *testing.T) {
	cats := []string{"a", "b"}
	for n := 1; n <= 12; n++ {
		var ss []IntervalSeries
		for i := 0; i < n; i++ {
			ss = append(ss, IntervalSeries{Points: []Interval{{1, 0, 2}, {3, 2, 4}}})
		}
		p, err := intervalsPlot("", "", cats, nil, ss)
		if err != nil {
			t.Fatal(err)
		}
		if p.X.Min != -0.5 || p.X.Max != 1.5 {
			t.Errorf("%d series: x axis from %v to %v, want -0.5 to 1.5 (a point beyond the categories' cells)", n, p.X.Min, p.X.Max)
		}
		prev := math.Inf(-1)
		for i := 0; i < n; i++ {
			off := intervalOffset(i, n)
			if !(math.Abs(off) < 0.5) || !(off > prev) {
				t.Errorf("%d series: series %d at offset %v after %v", n, i, off, prev)
			}
			prev = off
		}
	}
}
