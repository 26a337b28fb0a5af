package figures

import (
	"image/color"
	"math"
	"testing"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// TestSlopesDrawsLines draws three pairs in one category (B higher, lower
// and equal) and a NaN pair in another, and checks the colour of each
// line at its middle, and that nothing is drawn where a line is not.
func TestSlopesDrawsLines(t *testing.T) {
	nan := math.NaN()
	cats := []string{"a", "b"}
	pairs := []PairedValues{{A: []float64{0, 4, 8}, B: []float64{2, 3, 8}}, {A: []float64{nan, 5}, B: []float64{1, nan}}}
	p, err := slopesPlot("gains", "ΔR", "before", "after", cats, []float64{-1}, pairs)
	if err != nil {
		t.Fatal(err)
	}
	f := Slopes("gains", "ΔR", "before", "after", cats, []float64{-1}, pairs...)
	img := decode(t, f)
	dc := p.DataCanvas(draw.Canvas{Rectangle: vg.Rectangle{Max: vg.Point{X: f.Width, Y: f.Height}}})
	tx, ty := p.Transforms(&dc)
	// colourNear reports whether a pixel within 2 of the data point (x, y)
	// has about colour c (anti-aliasing blends the edges).
	colourNear := func(c color.Color, x, y float64) bool {
		q := pixel(vg.Point{X: tx(x), Y: ty(y)}, f.Height)
		for py := q.Y - 2; py <= q.Y+2; py++ {
			for px := q.X - 2; px <= q.X+2; px++ {
				if near(img.At(px, py), c, 40) {
					return true
				}
			}
		}
		return false
	}
	h := slopeHalfWidth
	for _, c := range []struct {
		name  string
		c     color.Color
		x, y  float64
		drawn bool
	}{
		{"0 → 2 at its middle, B higher", slopeHigher, 0, 1, true},
		{"0 → 2 at its left end", slopeHigher, -h, 0, true},
		{"4 → 3 at its middle, B lower", slopeLower, 0, 3.5, true},
		{"4 → 3 at its right end", slopeLower, h, 3, true},
		{"8 → 8, equal", slopeEqual, 0, 8, true},
		{"no B-higher line at 6", slopeHigher, 0, 6, false},
		{"no B-lower line at 1", slopeLower, 0, 1, false},
		{"category b: no line for its NaN pairs", slopeHigher, 1, 1, false},
		{"category b: nor at 5", slopeLower, 1, 5, false},
	} {
		if got := colourNear(c.c, c.x, c.y); got != c.drawn {
			t.Errorf("%s: colour near (%v, %v): %v, want %v", c.name, c.x, c.y, got, c.drawn)
		}
	}
	if got := p.X.Label.Text; got != "A (left): before; B (right): after" {
		t.Errorf("x label %q", got)
	}
}

// TestSlopesMalformedInput checks that each fault is refused with a
// "figures: ..." error naming it.
func TestSlopesMalformedInput(t *testing.T) {
	ok := PairedValues{A: []float64{1}, B: []float64{2}}
	for _, c := range []struct {
		name string
		cats []string
		refs []float64
		sets []PairedValues
		want string
	}{
		{"no categories", nil, nil, nil, "at least one category"},
		{"too few sets", []string{"a", "b"}, nil, []PairedValues{ok}, "1 sets of pairs for 2 categories"},
		{"lengths", []string{"a"}, nil, []PairedValues{{A: []float64{1, 2}, B: []float64{1}}}, `category "a" has 2 A values and 1 B values`},
		{"infinite", []string{"a"}, nil, []PairedValues{{A: []float64{1, math.Inf(1)}, B: []float64{1, 2}}}, `category "a", pair 1: +Inf and 2`},
		{"reference", []string{"a"}, []float64{math.NaN()}, []PairedValues{ok}, "reference line at NaN"},
		{"span", []string{"a"}, nil, []PairedValues{{A: []float64{-1.7e308}, B: []float64{1.7e308}}}, "Slopes"},
	} {
		wantBad(t, c.name, func() *Figure { return Slopes("", "", "A", "B", c.cats, c.refs, c.sets...) }, c.want)
	}
}
