package figures

import (
	"image/color"
	"math"
	"testing"

	"gonum.org/v1/plot/plotutil"
)

// TestSeriesColoursDistinct checks that the first seven series colours
// are plotutil's defaults (figures with up to seven series keep their
// look), that there are twenty, and that each colour after the seventh
// is at least 50 apart in RGB from every other, so that series 8 to 20
// are not drawn in a colour already used.
func TestSeriesColoursDistinct(t *testing.T) {
	const want = 20
	for i, c := range plotutil.DefaultColors {
		if seriesColour(i) != c {
			t.Errorf("seriesColour(%d) = %v, want plotutil's %v", i, seriesColour(i), c)
		}
	}
	for i := 0; i < want; i++ {
		for j := max(i+1, len(plotutil.DefaultColors)); j < want; j++ {
			if d := rgbDistance(seriesColour(i), seriesColour(j)); d < 50 {
				t.Errorf("colours %d and %d are %.1f apart in RGB, want >= 50", i, j, d)
			}
		}
	}
	if seriesColour(want) != seriesColour(0) {
		t.Errorf("seriesColour(%d) = %v, want the first colour again after %d", want, seriesColour(want), want)
	}
}

func rgbDistance(a, b color.Color) float64 {
	r1, g1, b1, _ := a.RGBA()
	r2, g2, b2, _ := b.RGBA()
	d := func(x, y uint32) float64 { return float64(x>>8) - float64(y>>8) }
	return math.Sqrt(d(r1, r2)*d(r1, r2) + d(g1, g2)*d(g1, g2) + d(b1, b2)*d(b1, b2))
}

// TestEighthSeriesOwnColour draws nine horizontal series and checks that
// the eighth is drawn in its own colour, not in the first's (plotutil's
// palette has seven), and that the first's colour appears only once as
// a line: counting pixels of each colour in the plot area, series 0 and
// series 7 both have a line's worth.
func TestEighthSeriesOwnColour(t *testing.T) {
	var series []Series
	for i := 0; i < 9; i++ {
		series = append(series, Series{Name: string(rune('a' + i)), X: []float64{0, 1}, Y: []float64{float64(i), float64(i)}})
	}
	img := decode(t, Lines("nine", "x", "y", series...))
	b := img.Bounds()
	rows := func(c color.Color) map[int]bool {
		found := map[int]bool{}
		for y := b.Min.Y; y < b.Max.Y; y++ {
			n := 0
			for x := b.Min.X; x < b.Max.X; x++ {
				if near(img.At(x, y), c, 3) {
					n++
				}
			}
			if n > b.Dx()/2 { // a line across the plot, not a legend thumbnail
				found[y/4] = true
			}
		}
		return found
	}
	first, eighth := rows(seriesColour(0)), rows(seriesColour(7))
	if len(first) != 1 || len(eighth) != 1 {
		t.Fatalf("lines across the plot in series 0's colour at %v, in series 7's at %v: want one each", first, eighth)
	}
	for y := range first {
		if eighth[y] {
			t.Errorf("series 0 and 7 drawn at the same height %d", y)
		}
	}
}
