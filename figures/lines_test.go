package figures

import (
	"image"
	"testing"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// TestLinesSeriesOfOnePointDrawsAMarker draws a line from (0, 0) to
// (2, 2) and a series of a single point, which has no line to stroke: a
// marker in the second series' colour is at the point, and none where the
// point would be if it were elsewhere, (0.3, 1.7) (both off the grid
// lines, at multiples of 0.5, and away from the first line and the
// legend at the top left).
func TestLinesSeriesOfOnePointDrawsAMarker(t *testing.T) {
	series := []Series{
		{Name: "two", X: []float64{0, 2}, Y: []float64{0, 2}},
		{Name: "one", X: []float64{1.3}, Y: []float64{0.3}},
	}
	p, err := linesPlot("t", "x", "y", series)
	if err != nil {
		t.Fatal(err)
	}
	f := Lines("t", "x", "y", series...)
	img := decode(t, f)
	dc := p.DataCanvas(draw.Canvas{Rectangle: vg.Rectangle{Max: vg.Point{X: f.Width, Y: f.Height}}})
	tx, ty := p.Transforms(&dc)
	at := func(x, y float64) image.Point { return pixel(vg.Point{X: tx(x), Y: ty(y)}, f.Height) }
	col := seriesColour(1)
	for _, c := range []struct {
		name  string
		x, y  float64
		drawn bool
	}{
		{"the point", 1.3, 0.3, true},
		{"elsewhere", 0.3, 1.7, false},
	} {
		if got := colourAround(img, at(c.x, c.y), 2, col, 40); got != c.drawn {
			t.Errorf("%s: colour of the one-point series near (%v, %v), pixel %v: %v, want %v", c.name, c.x, c.y, at(c.x, c.y), got, c.drawn)
		}
	}
}
