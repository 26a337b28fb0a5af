package figures

import (
	"image"
	"image/color"
	"math"
	"testing"

	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// sampleBand returns a band of n+1 points along y = slope·x on [0, 10],
// with Lo and Hi half either side of it.
func sampleBand(label string, n int, slope, half float64) Band {
	b := Band{Label: label}
	for k := 0; k <= n; k++ {
		x := 10 * float64(k) / float64(n)
		b.X = append(b.X, x)
		b.Mean = append(b.Mean, slope*x)
		b.Lo = append(b.Lo, slope*x-half)
		b.Hi = append(b.Hi, slope*x+half)
	}
	return b
}

// samplePanels returns n panels of two bands each, panel k spanning
// y in [k - 1, 2k + 1], and a reference value in every other panel.
func samplePanels(n int) []Panel {
	panels := make([]Panel, n)
	for k := range panels {
		s := float64(k) / 10
		a := sampleBand("het", 10, s, 1)
		b := sampleBand("hom", 10, s/2, 0.5)
		b.Dashed = true
		panels[k] = Panel{Title: "setting " + string(rune('A'+k)), Bands: []Band{a, b}}
		if k%2 == 0 {
			panels[k].Reference = []float64{s}
		}
	}
	return panels
}

// dataArea returns the pixel rectangle of the data area of plot (r, c) of
// l drawn at w x h, and the pixel of a data point in it.
func dataArea(l *bandLayout, w, h vg.Length, r, c int) (image.Rectangle, func(x, y float64) image.Point) {
	canvases, _ := l.canvases(draw.Canvas{Rectangle: vg.Rectangle{Max: vg.Point{X: w, Y: h}}})
	p := l.plots[r][c]
	dc := p.DataCanvas(canvases[r][c])
	tx, ty := p.Transforms(&dc)
	min := pixel(vg.Point{X: dc.Min.X, Y: dc.Max.Y}, h)
	max := pixel(vg.Point{X: dc.Max.X, Y: dc.Min.Y}, h)
	at := func(x, y float64) image.Point { return pixel(vg.Point{X: tx(x), Y: ty(y)}, h) }
	return image.Rectangle{Min: min.Add(image.Pt(2, 2)), Max: max.Sub(image.Pt(1, 1))}, at
}

// overWhite returns the colour that c paints on a white background.
func overWhite(c color.Color) color.Color {
	n := color.NRGBAModel.Convert(c).(color.NRGBA)
	a := float64(n.A) / 255
	f := func(ch uint8) uint8 { return uint8(math.Round(255 - a*(255-float64(ch)))) }
	return color.RGBA{R: f(n.R), G: f(n.G), B: f(n.B), A: 255}
}

// count returns the number of pixels in r of img near colour c.
func count(img image.Image, r image.Rectangle, c color.Color) int {
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if near(img.At(x, y), c, 3) {
				n++
			}
		}
	}
	return n
}

func TestBandsPNGs(t *testing.T) {
	one := sampleBand("one point", 1, 1, 0.5)
	one.X, one.Mean, one.Lo, one.Hi = one.X[:1], one.Mean[:1], one.Lo[:1], one.Hi[:1]
	bare := sampleBand("no band", 10, 0.5, 0)
	bare.Lo, bare.Hi = nil, nil
	for name, f := range map[string]*Figure{
		"two bands":  Bands("training", "step", "reward", sampleBand("het", 20, 1, 2), sampleBand("hom", 20, 0.5, 1)),
		"one point":  Bands("", "", "", one),
		"no labels":  Bands("", "x", "y", sampleBand("", 5, 1, 1)),
		"no bands":   Bands("empty", "x", "y"),
		"mixed":      Bands("mixed", "x", "y", bare, one, sampleBand("band", 3, -1, 0)),
		"panels 9x3": BandPanels("grid", "step", "reward", 3, true, samplePanels(9)...),
		"panels 8x3": BandPanels("", "step", "reward", 3, false, samplePanels(8)...),
		"panels 2x5": BandPanels("wide cols", "x", "y", 5, false, samplePanels(2)...),
		"empty":      BandPanels("empty panel", "x", "y", 2, true, Panel{Title: "nothing"}, Panel{Reference: []float64{1, 2}}),
	} {
		t.Run(name, func(t *testing.T) { decode(t, f) })
	}
}

func TestBandsFill(t *testing.T) {
	// A flat band: y = 5 with Lo = 3.5 and Hi = 6.5 on x in [0, 10].
	with := sampleBand("a", 20, 0, 1.5)
	for k := range with.X {
		with.Mean[k], with.Lo[k], with.Hi[k] = 5, 3.5, 6.5
	}
	without := with
	without.Lo, without.Hi = nil, nil
	fill := overWhite(translucent(plotutil.Color(0), bandAlpha))
	counts := map[string]int{}
	for name, b := range map[string]Band{"with": with, "without": without} {
		l := bandsLayout(t, "t", "x", "y", []Band{b})
		f := l.figure(DefaultWidth+l.legendW, DefaultHeight)
		img := decode(t, f)
		area, at := dataArea(l, f.Width, f.Height, 0, 0)
		// The part of the band above the line, clear of the line's width.
		region := image.Rectangle{Min: at(1, 6.3), Max: at(9, 5.3)}.Intersect(area)
		counts[name] = count(img, region, fill)
		if name == "with" {
			if frac := float64(counts[name]) / float64(region.Dx()*region.Dy()); frac < 0.8 {
				t.Errorf("the fill colour covers %.1f%% of the band above the line, want at least 80%%", 100*frac)
			}
			if n := count(img, area, fill); n < area.Dx()*area.Dy()/5 {
				t.Errorf("%d pixels of the fill colour in a data area of %d", n, area.Dx()*area.Dy())
			}
		}
		inside := at(7.3, 6.1)
		got := img.At(inside.X, inside.Y)
		if name == "with" && !near(got, fill, 3) {
			t.Errorf("inside the band: pixel %v is %v, want the fill %v", inside, got, fill)
		}
		if name == "without" && !near(got, color.White, 3) {
			t.Errorf("without a band: pixel %v is %v, want white", inside, got)
		}
	}
	if counts["without"] != 0 {
		t.Errorf("%d pixels of the fill colour where the band would be, want 0 without a band", counts["without"])
	}
}

func TestBandOfOnePointDrawsAMarker(t *testing.T) {
	// Off the grid lines (at multiples of 0.5), which would tint the pixels.
	b := Band{Label: "p", X: []float64{3.3}, Mean: []float64{2.3}, Lo: []float64{1.1}, Hi: []float64{4.1}}
	l := bandsLayout(t, "", "", "", []Band{b})
	f := l.figure(DefaultWidth+l.legendW, DefaultHeight)
	img := decode(t, f)
	_, at := dataArea(l, f.Width, f.Height, 0, 0)
	p := at(3.3, 2.3)
	marker := 0
	for y := p.Y - 8; y <= p.Y+8; y++ {
		for x := p.X - 8; x <= p.X+8; x++ {
			if near(img.At(x, y), plotutil.Color(0), 40) {
				marker++
			}
		}
	}
	if marker < 8 {
		t.Errorf("%d pixels near the line colour around the point, want a marker", marker)
	}
	bar := at(3.3, 3.5)
	if got, want := img.At(bar.X, bar.Y), overWhite(translucent(plotutil.Color(0), bandAlpha)); !near(got, want, 3) {
		t.Errorf("between the point and Hi: pixel %v is %v, want the fill %v", bar, got, want)
	}
}

func TestTranslucent(t *testing.T) {
	c := color.RGBA{R: 10, G: 100, B: 200, A: 255}
	got := translucent(c, 0.25)
	if want := (color.NRGBA{R: 10, G: 100, B: 200, A: 64}); got != want {
		t.Errorf("translucent(%v, 0.25) = %v, want %v", c, got, want)
	}
}

// bandsLayout returns newBandsLayout's layout, failing the test if the
// bands cannot be drawn.
func bandsLayout(t *testing.T, title, xLabel, yLabel string, bands []Band) *bandLayout {
	t.Helper()
	l, err := newBandsLayout(title, xLabel, yLabel, bands)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// panelsLayout returns newBandPanelsLayout's layout, failing the test if
// the panels cannot be drawn.
func panelsLayout(t *testing.T, title, xLabel, yLabel string, cols int, sharedY bool, panels []Panel) *bandLayout {
	t.Helper()
	l, err := newBandPanelsLayout(title, xLabel, yLabel, cols, sharedY, panels)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func TestBandsMalformedInput(t *testing.T) {
	good := func() Band { return sampleBand("good", 3, 1, 1) }
	with := func(f func(*Band)) func() *Figure {
		return func() *Figure {
			b := good()
			b.Label = "bad"
			f(&b)
			return Bands("", "", "", good(), b)
		}
	}
	nan, inf := math.NaN(), math.Inf(1)
	cases := []struct {
		name string
		f    func() *Figure
		want []string
	}{
		{"no points", with(func(b *Band) { b.X, b.Mean, b.Lo, b.Hi = nil, nil, nil, nil }), []string{`band 1 "bad"`, "no points"}},
		{"short mean", with(func(b *Band) { b.Mean = b.Mean[:2] }), []string{`band 1 "bad"`, "4 x values and 2 means"}},
		{"long mean", with(func(b *Band) { b.Mean = append(b.Mean, 1) }), []string{"4 x values and 5 means"}},
		{"Lo without Hi", with(func(b *Band) { b.Hi = nil }), []string{"Lo has 4 values and Hi 0", "both or neither"}},
		{"Hi without Lo", with(func(b *Band) { b.Lo = nil }), []string{"Lo has 0 values and Hi 4"}},
		{"short Lo", with(func(b *Band) { b.Lo = b.Lo[:3] }), []string{"4 x values and 3 Lo values"}},
		{"short Hi", with(func(b *Band) { b.Hi = b.Hi[:1] }), []string{"4 x values and 1 Hi values"}},
		{"NaN X", with(func(b *Band) { b.X[1] = nan }), []string{`band 1 "bad"`, "X[1] is NaN"}},
		{"Inf mean", with(func(b *Band) { b.Mean[2] = inf }), []string{"Mean[2] is +Inf"}},
		{"NaN Lo", with(func(b *Band) { b.Lo[3] = nan }), []string{"Lo[3] is NaN"}},
		{"Inf Hi", with(func(b *Band) { b.Hi[0] = -inf }), []string{"Hi[0] is -Inf"}},
		{"Lo above Hi", with(func(b *Band) { b.Lo[1], b.Hi[1] = 3, 2 }), []string{`band 1 "bad"`, "Lo[1] = 3 is above Hi[1] = 2"}},
		{"unlabelled", func() *Figure { b := good(); b.Label = ""; b.Mean = nil; return Bands("", "", "", b) }, []string{"band 0: 4 x values and 0 means"}},
		{"no panels", func() *Figure { return BandPanels("", "", "", 2, true) }, []string{"BandPanels", "at least one panel"}},
		{"cols 0", func() *Figure { return BandPanels("", "", "", 0, true, samplePanels(2)...) }, []string{"BandPanels", "cols = 0"}},
		{"cols -3", func() *Figure { return BandPanels("", "", "", -3, false, samplePanels(2)...) }, []string{"cols = -3"}},
		{"panel band", func() *Figure {
			ps := samplePanels(3)
			ps[1].Bands[1].Hi = ps[1].Bands[1].Hi[:2]
			return BandPanels("", "", "", 2, false, ps...)
		}, []string{`panel 1 "setting B", band 1 "hom"`, "11 x values and 2 Hi values"}},
		{"panel Lo above Hi", func() *Figure {
			ps := samplePanels(3)
			ps[2].Title = ""
			ps[2].Bands[0].Lo[4] = 100
			return BandPanels("", "", "", 2, true, ps...)
		}, []string{`panel 2, band 0 "het"`, "Lo[4] = 100 is above Hi[4]"}},
		{"reference", func() *Figure {
			ps := samplePanels(3)
			ps[2].Reference = []float64{0, nan}
			return BandPanels("", "", "", 3, true, ps...)
		}, []string{`panel 2 "setting C"`, "reference 1 is NaN"}},
	}
	for _, c := range cases {
		wantBad(t, c.name, c.f, c.want...)
	}
}

func TestBandPanelsLayout(t *testing.T) {
	ps := samplePanels(9)
	f := BandPanels("grid", "step", "reward", 3, true, ps...)
	decode(t, f)
	l := panelsLayout(t, "grid", "step", "reward", 3, true, ps)
	if len(l.plots) != 3 || len(l.plots[0]) != 3 {
		t.Fatalf("9 panels in 3 columns: %d x %d plots", len(l.plots), len(l.plots[0]))
	}
	if want := 3*bandPanelW + l.legendW; f.Width != want || l.legendW <= 0 {
		t.Errorf("width %v, want 3 panels and a legend of %v: %v", f.Width, l.legendW, want)
	}
	if want := 3*bandPanelH + titleHeight("grid"); f.Height != want {
		t.Errorf("height %v, want %v", f.Height, want)
	}
	for k := range ps {
		p := l.plots[k/3][k%3]
		if p.Title.Text != ps[k].Title {
			t.Errorf("panel %d is titled %q, want %q", k, p.Title.Text, ps[k].Title)
		}
		if (p.Y.Label.Text != "") != (k%3 == 0) || (p.X.Label.Text != "") != (k >= 6) {
			t.Errorf("panel %d has labels x %q and y %q", k, p.X.Label.Text, p.Y.Label.Text)
		}
	}

	// 8 panels: the last cell is empty and the panel above it has the x
	// label; more columns than panels are cut down.
	l = panelsLayout(t, "", "x", "y", 3, false, samplePanels(8))
	if l.plots[2][2] != nil || l.plots[1][2].X.Label.Text != "x" || l.plots[0][2].X.Label.Text != "" {
		t.Errorf("8 panels in 3 columns: the last cell or the x labels are wrong")
	}
	if l = panelsLayout(t, "", "x", "y", 5, false, samplePanels(2)); len(l.plots) != 1 || len(l.plots[0]) != 2 {
		t.Errorf("2 panels in 5 columns: %d x %d plots, want 1 x 2", len(l.plots), len(l.plots[0]))
	}
}

func TestBandPanelsYRanges(t *testing.T) {
	ps := samplePanels(9)
	// Panel k spans [-1, 0.1k·10 + 1] = [-1, k + 1], and its reference
	// (every other panel) lies inside.
	own := yRanges(ps, false)
	for k, r := range own {
		if want := [2]float64{-1, float64(k) + 1}; math.Abs(r[0]-want[0]) > 1e-12 || math.Abs(r[1]-want[1]) > 1e-12 {
			t.Errorf("panel %d: y range %v, want %v", k, r, want)
		}
	}
	shared := yRanges(ps, true)
	for k, r := range shared {
		if r != shared[0] {
			t.Errorf("shared y ranges differ: panel %d has %v, panel 0 %v", k, r, shared[0])
		}
	}
	if math.Abs(shared[0][0]+1) > 1e-12 || math.Abs(shared[0][1]-9) > 1e-12 {
		t.Errorf("shared y range %v, want [-1, 9]", shared[0])
	}
	// A reference outside the bands widens the range.
	ps[4].Reference = []float64{-5}
	if r := yRanges(ps, false)[4]; r[0] != -5 {
		t.Errorf("a reference at -5 gives the range %v", r)
	}
	if r := yRanges([]Panel{{}}, true)[0]; r[0] <= r[1] {
		t.Errorf("a panel without values has the range %v, want an empty one", r)
	}

	// The plots get those ranges.
	for _, sharedY := range []bool{true, false} {
		ps := samplePanels(9)
		want := yRanges(ps, sharedY)
		l := panelsLayout(t, "", "x", "y", 3, sharedY, ps)
		for k := range ps {
			p := l.plots[k/3][k%3]
			if got := [2]float64{p.Y.Min, p.Y.Max}; got != want[k] {
				t.Errorf("sharedY %v, panel %d: y axis %v, want %v", sharedY, k, got, want[k])
			}
		}
	}
}

// TestBandPanelsSharedX checks that panels whose bands span different x
// ranges get the same x axis, the extent of all of them.
func TestBandPanelsSharedX(t *testing.T) {
	ps := []Panel{
		{Bands: []Band{{X: []float64{0, 1, 2}, Mean: []float64{1, 2, 3}}}},
		{Bands: []Band{{X: []float64{1.5, 7}, Mean: []float64{0, 1}}, {X: []float64{-2, 3}, Mean: []float64{0, 0}}}},
		{Title: "empty"},
	}
	if r := xRange(ps); r != [2]float64{-2, 7} {
		t.Fatalf("xRange %v, want [-2, 7]", r)
	}
	l := panelsLayout(t, "", "x", "y", 3, false, ps)
	for k := range ps {
		if p := l.plots[0][k]; p.X.Min != -2 || p.X.Max != 7 {
			t.Errorf("panel %d: x axis [%g, %g], want [-2, 7]", k, p.X.Min, p.X.Max)
		}
	}
	if r := xRange([]Panel{{}}); r[0] <= r[1] {
		t.Errorf("panels without points have the x range %v, want an empty one", r)
	}
}

func TestBandColours(t *testing.T) {
	ps := []Panel{
		{Bands: []Band{{Label: "a"}, {Label: "b"}, {}}},
		{Bands: []Band{{Label: "b"}, {Label: "c"}}},
		{Bands: []Band{{}, {}, {}}},
	}
	got := bandColours(ps)
	want := [][]int{{0, 1, 2}, {1, 3}, {4, 5, 2}}
	for k := range want {
		for i := range want[k] {
			if got[k][i] != want[k][i] {
				t.Fatalf("bandColours = %v, want %v", got, want)
			}
		}
	}
}
