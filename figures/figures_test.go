package figures

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"

	"github.com/hetgain/hetgain/aggregators"
)

func softmaxRow(n int) ClassRow {
	var r ClassRow
	r.Name = "softmax"
	for t := -3.0; t <= 3; t += 0.25 {
		r.Params = append(r.Params, t)
		r.Classes = append(r.Classes, aggregators.Softmax{T: t}.Schur(n))
	}
	return r
}

func sampleFigures() map[string]*Figure {
	x := []float64{0, 1, 2, 3}
	g := Grid{X: []float64{0, 1, 2}, Y: []float64{0, 1}, Z: [][]float64{{0, 1, 2}, {3, 4, 5}}}
	return map[string]*Figure{
		"lines":   Lines("t", "x", "y", Series{Name: "a", X: x, Y: x, Points: true}, Series{Name: "b", X: x, Y: []float64{3, 2, 1, 0}, Dashed: true}),
		"heatmap": HeatMap("h", "x", "y", "z", g),
		"strips":  SchurStrips("s", "t", softmaxRow(2), softmaxRow(3)),
	}
}

// TestPNGDecodes checks that every kind of figure renders to a PNG image
// of the figure's size (at the default 96 dpi of vgimg).
func TestPNGDecodes(t *testing.T) {
	for name, f := range sampleFigures() {
		img, err := png.Decode(bytes.NewReader(f.PNG()))
		if err != nil {
			t.Fatalf("%s: PNG does not decode: %v", name, err)
		}
		wantW := int(math.Round(f.Width.Dots(96)))
		wantH := int(math.Round(f.Height.Dots(96)))
		if b := img.Bounds(); b.Dx() != wantW || b.Dy() != wantH {
			t.Errorf("%s: image is %dx%d, want %dx%d", name, b.Dx(), b.Dy(), wantW, wantH)
		}
	}
}

func TestSaveByExtension(t *testing.T) {
	dir := t.TempDir()
	f := sampleFigures()["heatmap"]
	for _, ext := range []string{"png", "svg", "pdf"} {
		path := filepath.Join(dir, "fig."+ext)
		if err := f.Save(path); err != nil {
			t.Fatalf("Save(%s): %v", path, err)
		}
		b, err := os.ReadFile(path)
		if err != nil || len(b) == 0 {
			t.Fatalf("%s: empty or unreadable: %v", path, err)
		}
	}
	if err := f.Save(filepath.Join(dir, "noext")); err == nil {
		t.Error("Save without extension: want an error")
	}
	if err := f.Save(filepath.Join(dir, "fig.xyz")); err == nil {
		t.Error("Save with unknown extension: want an error")
	}
}

func TestStripHeightGrowsWithRows(t *testing.T) {
	one := SchurStrips("", "t", softmaxRow(2))
	three := SchurStrips("", "t", softmaxRow(2), softmaxRow(3), softmaxRow(4))
	if d := three.Height - one.Height - 2*vg.Centimeter; math.Abs(float64(d)) > 1e-9 {
		t.Errorf("height grows by %v for two more rows, want 2cm", three.Height-one.Height)
	}
}

func TestCellEdges(t *testing.T) {
	ps := []float64{0, 1, 3}
	want := [][2]float64{{-0.5, 0.5}, {0.5, 2}, {2, 4}}
	for k, w := range want {
		lo, hi := cellEdges(ps, k)
		if lo != w[0] || hi != w[1] {
			t.Errorf("cellEdges(%v, %d) = %v, %v; want %v", ps, k, lo, hi, w)
		}
	}
}

// TestBlankHeatMap draws a grid of NaN values only (a sweep interrupted
// before its first cell): a blank map, not a panic.
func TestBlankHeatMap(t *testing.T) {
	nan := math.NaN()
	f := HeatMap("", "", "", "", Grid{X: []float64{0, 1}, Y: []float64{0, 1}, Z: [][]float64{{nan, nan}, {nan, nan}}})
	if len(f.PNG()) == 0 {
		t.Error("no picture")
	}
}

func TestMalformedInput(t *testing.T) {
	heat := func(g Grid) func() *Figure {
		return func() *Figure { return HeatMap("", "", "", "", g) }
	}
	xy := []float64{0, 1}
	for _, c := range []struct {
		name string
		f    func() *Figure
		want string
	}{
		{"series", func() *Figure { return Lines("", "", "", Series{Name: "s", X: []float64{1, 2}, Y: []float64{1}}) }, `series "s" has 2 x and 1 y values`},
		{"empty series", func() *Figure {
			return Lines("", "", "", Series{Name: "full", X: xy, Y: xy}, Series{Name: "s"})
		}, `series "s" has no points`},
		{"Inf series", func() *Figure {
			return Lines("", "", "", Series{Name: "s", X: xy, Y: []float64{1, math.Inf(1)}})
		}, `series "s": `},
		{"grid", heat(Grid{X: xy, Y: xy, Z: [][]float64{{1, 2}}}), "grid has 1 rows of values for 2 y values"},
		{"tiny", heat(Grid{X: []float64{0}, Y: []float64{0}, Z: [][]float64{{1}}}), "at least 2x2 points, got 1x1"},
		{"short row", heat(Grid{X: xy, Y: xy, Z: [][]float64{{1, 2}, {3}}}), "grid row 1 has 1 values for 2 x values"},
		{"classes", func() *Figure { return SchurStrips("", "", ClassRow{Name: "r", Params: []float64{1}}) }, `row "r" has 1 parameters and 0 classes`},
		// These hung (NaN axes, NaN reference) or panicked inside gonum.
		{"NaN x", heat(Grid{X: []float64{0, math.NaN()}, Y: xy, Z: [][]float64{{1, 2}, {3, 4}}}), "grid x[1] = NaN"},
		{"Inf y", heat(Grid{X: xy, Y: []float64{0, math.Inf(1)}, Z: [][]float64{{1, 2}, {3, 4}}}), "grid y[1] = +Inf"},
		{"Inf z", heat(Grid{X: xy, Y: xy, Z: [][]float64{{1, math.Inf(1)}, {3, 4}}}), "grid value at x[1], y[0] is +Inf"},
		{"NaN ref", func() *Figure {
			return Intervals("", "", []string{"a"}, []float64{math.NaN()}, IntervalSeries{Points: []Interval{{1, 0, 2}}})
		}, "reference line at NaN"},
		{"-Inf ref", func() *Figure {
			return Intervals("", "", []string{"a"}, []float64{math.Inf(-1)}, IntervalSeries{Points: []Interval{{1, 0, 2}}})
		}, "reference line at -Inf"},
	} {
		wantBad(t, c.name, c.f, c.want)
	}
}

// TestErrOfGoodFigures checks that Err is nil for a figure that can be
// drawn, and errZeroFigure for a nil or zero one.
func TestErrOfGoodFigures(t *testing.T) {
	for name, f := range sampleFigures() {
		if err := f.Err(); err != nil {
			t.Errorf("%s: Err() = %v, want nil", name, err)
		}
	}
	var nilFigure *Figure
	if err := nilFigure.Err(); err != errZeroFigure {
		t.Errorf("nil Figure: Err() = %v, want %v", err, errZeroFigure)
	}
	if err := new(Figure).Err(); err != errZeroFigure {
		t.Errorf("zero Figure: Err() = %v, want %v", err, errZeroFigure)
	}
}

// TestHeatMapRefusesEPS checks that a heat map asked for eps returns an
// error, and Save leaves the file alone, where gonum/plot's eps canvas
// would panic on the map's image; the other figures still draw as eps.
func TestHeatMapRefusesEPS(t *testing.T) {
	figs := sampleFigures()
	if _, err := figs["heatmap"].Encode("eps"); err == nil || !strings.Contains(err.Error(), "eps") {
		t.Errorf(`heat map Encode("eps"): error %v, want one naming eps`, err)
	}
	path := filepath.Join(t.TempDir(), "map.eps")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := figs["heatmap"].Save(path); err == nil {
		t.Error("heat map Save(map.eps): no error")
	}
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Errorf("heat map Save(map.eps) changed the file to %d bytes", len(b))
	}
	for _, name := range []string{"lines", "strips"} {
		if b, err := figs[name].Encode("eps"); err != nil || len(b) == 0 {
			t.Errorf(`%s Encode("eps"): %d bytes, error %v`, name, len(b), err)
		}
	}
}

// TestHeatMapBarAligned checks that a heat map's colour bar spans the
// same rows of the picture as the map: in a column through the map and
// one through the bar, the longest run of drawn (not white) pixels, which
// is the data area, starts and ends on the same rows, with a title over
// the map, a longer label over the bar, or neither.
func TestHeatMapBarAligned(t *testing.T) {
	g := Grid{X: []float64{0, 1, 2}, Y: []float64{0, 1}, Z: [][]float64{{0, 1, 2}, {3, 4, 5}}}
	for _, c := range []struct{ title, zLabel string }{{"a title", "z"}, {"", "a longer label"}, {"", ""}} {
		img, err := png.Decode(bytes.NewReader(HeatMap(c.title, "x", "y", c.zLabel, g).PNG()))
		if err != nil {
			t.Fatal(err)
		}
		w := img.Bounds().Dx()
		mapLo, mapHi := longestDrawnRun(img, w*2/5)
		barLo, barHi := longestDrawnRun(img, w-w/15)
		if abs(mapLo-barLo) > 1 || abs(mapHi-barHi) > 1 {
			t.Errorf("title %q, label %q: map on rows %d to %d, colour bar on %d to %d", c.title, c.zLabel, mapLo, mapHi, barLo, barHi)
		}
	}
}

// longestDrawnRun returns the first and last row of the longest run of
// pixels in column x of img that are not white.
func longestDrawnRun(img image.Image, x int) (lo, hi int) {
	b := img.Bounds()
	lo, hi = longestRun(b.Dy(), func(k int) bool { return notWhite(img.At(x, b.Min.Y+k)) })
	return b.Min.Y + lo, b.Min.Y + hi
}

// longestDrawnRunInRow returns the first and last column of the longest
// run of pixels in row y of img that are not white.
func longestDrawnRunInRow(img image.Image, y int) (lo, hi int) {
	b := img.Bounds()
	lo, hi = longestRun(b.Dx(), func(k int) bool { return notWhite(img.At(b.Min.X+k, y)) })
	return b.Min.X + lo, b.Min.X + hi
}

func notWhite(c color.Color) bool {
	r, g, b, _ := c.RGBA()
	return r < 0xf000 || g < 0xf000 || b < 0xf000
}

// longestRun returns the first and last index of the longest run of k in
// [0, n) for which in(k) holds.
func longestRun(n int, in func(k int) bool) (lo, hi int) {
	best, start := -1, -1
	for k := 0; k <= n; k++ {
		switch {
		case k < n && in(k) && start < 0:
			start = k
		case (k == n || !in(k)) && start >= 0:
			if k-start > best {
				best, lo, hi = k-start, start, k-1
			}
			start = -1
		}
	}
	return lo, hi
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// TestHeatMapUnevenGrid checks that the cells of an uneven grid are drawn
// where their values are, each as wide as its spacing, and sharp: of the
// grid x = 0, 1, 2, 10 (cells from -0.5 to 0.5, 1.5, 6 and 14), only
// x = 1 is high, so along a row of the picture the red cell must start
// 1/14.5 of the way across the map and be 1/14.5 of it wide, with at most
// a few pixels of blended colour at its two edges. gonum/plot's rasterized
// TestHeatMapDecreasingGrid checks that a grid whose x and y decrease
// (a sweep from 5 down to -5) is drawn as the same grid run upwards: the
// same PNG, byte for byte, and its input is left as it was.
func TestHeatMapDecreasingGrid(t *testing.T) {
	up := Grid{X: []float64{-5, 0, 1, 5}, Y: []float64{-1, 2, 3}, Z: [][]float64{{0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9, 10, math.NaN()}}}
	down := Grid{X: []float64{5, 1, 0, -5}, Y: []float64{3, 2, -1}, Z: [][]float64{{math.NaN(), 10, 9, 8}, {7, 6, 5, 4}, {3, 2, 1, 0}}}
	xDown := Grid{X: down.X, Y: up.Y, Z: [][]float64{{3, 2, 1, 0}, {7, 6, 5, 4}, {math.NaN(), 10, 9, 8}}}
	want := HeatMap("t", "x", "y", "z", up).PNG()
	for name, g := range map[string]Grid{"x and y decreasing": down, "x decreasing": xDown} {
		before := fmt.Sprint(g)
		if got := HeatMap("t", "x", "y", "z", g).PNG(); !bytes.Equal(got, want) {
			t.Errorf("%s: the PNG differs from that of the same grid increasing", name)
		}
		if after := fmt.Sprint(g); after != before {
			t.Errorf("%s: HeatMap changed its grid from %s to %s", name, before, after)
		}
	}
}

// heat map put it about 1.5/4 of the way across, a quarter wide, blurred.
func TestHeatMapUnevenGrid(t *testing.T) {
	row := []float64{0, 1, 0, 0}
	g := Grid{X: []float64{0, 1, 2, 10}, Y: []float64{0, 1}, Z: [][]float64{row, row}}
	img, err := png.Decode(bytes.NewReader(HeatMap("", "x", "y", "z", g).PNG()))
	if err != nil {
		t.Fatal(err)
	}
	y := img.Bounds().Dy() / 2
	lo, hi := longestDrawnRunInRow(img, y)
	width := float64(hi - lo + 1)
	redLo, redHi, blended := -1, -1, 0
	for x := lo; x <= hi; x++ {
		r, _, b, _ := img.At(x, y).RGBA()
		switch {
		case r>>8 > 160 && b>>8 < 80: // the high value's red
			if redLo < 0 {
				redLo = x
			}
			redHi = x
		case !(b>>8 > 160 && r>>8 < 80): // neither red nor the low value's blue
			blended++
		}
	}
	start, wide := float64(redLo-lo)/width, float64(redHi-redLo+1)/width
	if want := 1 / 14.5; math.Abs(start-want) > 0.01 || math.Abs(wide-want) > 0.01 {
		t.Errorf("red cell from %.3f of the map for %.3f of its width, want %.3f and %.3f", start, wide, want, want)
	}
	if blended > 4 {
		t.Errorf("%d pixels of the row are blended colours, want the cells sharp", blended)
	}
}

// BenchmarkHeatMapPNG draws the paper's Figure 2 grid, 41 x 41 values, as
// a PNG of the default size.
func BenchmarkHeatMapPNG(b *testing.B) {
	g := Grid{}
	for k := 0; k < 41; k++ {
		g.X = append(g.X, float64(k)/2-10)
		g.Y = append(g.Y, float64(k)/2-10)
	}
	for _, y := range g.Y {
		row := make([]float64, len(g.X))
		for c, x := range g.X {
			row[c] = math.Tanh(x) - math.Tanh(y)
		}
		g.Z = append(g.Z, row)
	}
	f := HeatMap("ΔR", "t", "τ", "ΔR", g)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := f.Encode("png"); err != nil {
			b.Fatal(err)
		}
	}
}

// TestLongTitleWidensFigure checks that a figure of few, narrow panels
// under a long title is widened so that the title fits: the figure is at
// least as wide as the title with its margins, and no drawn pixel of the
// title's band touches the picture's left or right edge. Before,
// tag-large-30m's one panel of curves cut its title at both ends.
func TestLongTitleWidensFigure(t *testing.T) {
	title := "tag-large-30m 2v2: diversity of the teams' efforts over seeds 5 to 9, 30M frames per run, a title far wider than one panel"
	band := Band{X: []float64{0, 1}, Mean: []float64{0, 1}, Lo: []float64{-0.5, 0.5}, Hi: []float64{0.5, 1.5}}
	efforts := Efforts{Steps: []int{1, 2}, Matrices: [][]float64{{1}, {0.5}}, Agents: 1, Tasks: 1}
	figs := map[string]*Figure{
		"BandPanels":   BandPanels(title, "x", "y", 3, true, Panel{Title: "one", Bands: []Band{band}}),
		"Allocations":  Allocations(title, 1, Allocation{Agents: 1, Tasks: 1, Effort: []float64{1}}),
		"EffortLines":  EffortLines(title, efforts),
		"EffortStrips": EffortStrips(title, efforts),
		"Episode":      Episode(title, Trajectories{Agents: [][][2]float64{{{0, 0}, {1, 1}}}}),
	}
	for name, f := range figs {
		if err := f.Err(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if f.Width < titleWidth(title) {
			t.Errorf("%s: width %v, narrower than its title's %v", name, f.Width, titleWidth(title))
		}
		img, err := png.Decode(bytes.NewReader(f.PNG()))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		b := img.Bounds()
		band := int(float64(b.Dy()) * float64(titleHeight(title)/f.Height))
		for y := b.Min.Y; y < b.Min.Y+band; y++ {
			if notWhite(img.At(b.Min.X, y)) || notWhite(img.At(b.Max.X-1, y)) {
				t.Errorf("%s: the title reaches the picture's edge in row %d", name, y)
				break
			}
		}
	}
}
