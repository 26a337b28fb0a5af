package figures

import (
	"image/color"
	"math"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/plot"
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
	p, err := slopesPlot("gains", "ΔR", "before", "after", cats, []float64{-1}, pairs, nil)
	if err != nil {
		t.Fatal(err)
	}
	colourNear := colourNearData(t, p, Slopes("gains", "ΔR", "before", "after", cats, []float64{-1}, pairs...))
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

// TestSlopesAsinh checks the inverse-hyperbolic-sine axis: each value is
// drawn at asinh(y/linear) (colours at the transformed middles of lines
// from 0.1 to 0.3 and from 100 to −50), the reference too, the ticks are
// at the transformed 0 and powers of 10 with the values as labels, and a
// bad linear width or bad data give errors.
func TestSlopesAsinh(t *testing.T) {
	const linear = 0.2
	pairs := []PairedValues{{A: []float64{0.1, 100}, B: []float64{0.3, -50}}}
	p, err := slopesPlot("gains", "ΔR", "A", "B", []string{"a"}, []float64{0}, pairs, &asinhScale{linear})
	if err != nil {
		t.Fatal(err)
	}
	colourAt := colourNearData(t, p, SlopesAsinh("gains", "ΔR", "A", "B", []string{"a"}, []float64{0}, linear, pairs...))
	h := func(y float64) float64 { return math.Asinh(y / linear) }
	if !colourAt(slopeHigher, 0, (h(0.1)+h(0.3))/2) || !colourAt(slopeLower, 0, (h(100)+h(-50))/2) {
		t.Error("the lines are not where asinh(y/linear) puts them")
	}
	if colourAt(slopeHigher, 0, 0.2) { // where a linear axis would draw the 0.1 → 0.3 line's middle
		t.Error("a line drawn at its linear height")
	}
	if p.Y.Min > h(-50) || p.Y.Max < h(100) {
		t.Errorf("y range [%v, %v] does not hold the heights %v to %v", p.Y.Min, p.Y.Max, h(-50), h(100))
	}
	labels := map[string]float64{}
	for _, tk := range p.Y.Tick.Marker.Ticks(p.Y.Min, p.Y.Max) {
		if tk.Label != "" {
			labels[tk.Label] = tk.Value
		}
	}
	for _, v := range []float64{0, 0.1, 1, 10, 100, -0.1, -1, -10} {
		label := strconv.FormatFloat(v, 'g', -1, 64)
		if got, ok := labels[label]; !ok || math.Abs(got-h(v)) > 1e-12 {
			t.Errorf("tick %s at %v (present %v), want at %v", label, got, ok, h(v))
		}
	}
	if _, ok := labels["-1000"]; ok {
		t.Error("a tick at -1000, far below the data's range")
	}
	// Values whose ratio to the linear width overflows are drawn, at
	// heights that continue asinh's, with a bounded number of ticks.
	tiny := asinhScale{1e-300}
	below, above := tiny.to(1e8), tiny.to(1e300) // 1e8/1e-300 is finite, 1e300/1e-300 is not
	if want := 1e8 / 1e-300; math.Abs(below-math.Asinh(want)) > 1e-12 {
		t.Errorf("to(1e8) = %v, want asinh(1e308) = %v", below, math.Asinh(want))
	}
	if want := 600*math.Ln10 + math.Ln2; math.Abs(above-want) > 1e-9 || tiny.to(-1e300) != -above {
		t.Errorf("to(±1e300) = %v, %v, want ±(ln 1e600 + ln 2) = %v", above, tiny.to(-1e300), want)
	}
	if n := len(tiny.Ticks(-above, above)); n == 0 || n > 4*maxDecades+10 {
		t.Errorf("%d ticks from −1e300 to 1e300 at width 1e-300", n)
	}
	if f := SlopesAsinh("", "", "A", "B", []string{"a"}, nil, 1e-300, PairedValues{A: []float64{-1e300}, B: []float64{1e300}}); f.Err() != nil {
		t.Errorf("values beyond float64 / width: %v", f.Err())
	}
	for _, linear := range []float64{0, -1, math.Inf(1), math.NaN()} {
		wantBad(t, "linear width", func() *Figure { return SlopesAsinh("", "", "A", "B", []string{"a"}, nil, linear, pairs...) }, "linear width")
	}
	wantBad(t, "infinite", func() *Figure {
		return SlopesAsinh("", "", "A", "B", []string{"a"}, nil, 1, PairedValues{A: []float64{math.Inf(-1)}, B: []float64{1}})
	}, `category "a", pair 0: -Inf and`)
}

// colourNearData returns a function that reports whether a pixel of f,
// which draws p, within 2 of the data point (x, y) has about colour c
// (anti-aliasing blends the edges).
func colourNearData(t *testing.T, p *plot.Plot, f *Figure) func(c color.Color, x, y float64) bool {
	t.Helper()
	img := decode(t, f)
	dc := p.DataCanvas(draw.Canvas{Rectangle: vg.Rectangle{Max: vg.Point{X: f.Width, Y: f.Height}}})
	tx, ty := p.Transforms(&dc)
	return func(c color.Color, x, y float64) bool {
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
}

// TestSlopesAsinhJudgesTheValuesGiven checks that SlopesAsinh's errors
// name the values given, not their heights asinh(y/linear), and that it
// counts a pair by its values: B one float above A at 1e16, 1e300 or
// -1e300 is higher, though asinh draws both ends at one height. The error
// said "0.881373587019543 and +Inf" for the pair 1 and +Inf, and the
// legend counted such pairs as equal. The legend is read from the svg's
// text.
func TestSlopesAsinhJudgesTheValuesGiven(t *testing.T) {
	wantBad(t, "infinite", func() *Figure {
		return SlopesAsinh("", "", "A", "B", []string{"a"}, nil, 1, PairedValues{A: []float64{1}, B: []float64{math.Inf(1)}})
	}, `category "a", pair 0: 1 and +Inf`)
	var pv PairedValues
	for _, a := range []float64{1e300, 1e16, -1e300} {
		b := math.Nextafter(a, math.Inf(1))
		if s := (asinhScale{1}); s.to(a) != s.to(b) {
			t.Fatalf("asinh tells %v from %v apart: the test needs values it draws at one height", a, b)
		}
		pv.A, pv.B = append(pv.A, a), append(pv.B, b)
	}
	svg, err := SlopesAsinh("", "", "A", "B", []string{"a"}, nil, 1, pv).Encode("svg")
	if err != nil {
		t.Fatal(err)
	}
	want := "B higher (" + strconv.Itoa(len(pv.A)) + ")"
	if !strings.Contains(string(svg), want) || strings.Contains(string(svg), "equal (") {
		t.Errorf("the legend does not count every pair as %q, or counts some as equal", want)
	}
}
