package figures

import (
	"bytes"
	"errors"
	"fmt"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/hetgain/hetgain/aggregators"
)

// encodeOutcome is what encodeWithin saw: Encode's result, a recovered
// panic, or a timeout.
type encodeOutcome struct {
	b        []byte
	err      error
	panicked any
	timedOut bool
}

// encodeWithin calls f.Encode(format) in a goroutine and gives up after
// 5 s, so that a rendering that never returns fails the test instead of
// hanging it (the goroutine is left running).
func encodeWithin(f *Figure, format string) encodeOutcome {
	return encodeWithinFor(f, format, 5*time.Second)
}

// encodeWithinFor is encodeWithin with the given timeout.
func encodeWithinFor(f *Figure, format string, timeout time.Duration) encodeOutcome {
	done := make(chan encodeOutcome, 1)
	go func() {
		var out encodeOutcome
		defer func() {
			out.panicked = recover()
			done <- out
		}()
		out.b, out.err = f.Encode(format)
	}()
	select {
	case out := <-done:
		return out
	case <-time.After(timeout):
		return encodeOutcome{timedOut: true}
	}
}

// construct calls mk and returns its figure, or the panic it raised.
func construct(mk func() *Figure) (f *Figure, panicked any) {
	defer func() { panicked = recover() }()
	return mk(), nil
}

// wantBad checks that mk, a constructor given malformed data, returns
// without panicking a figure whose Err, Encode and Save all return the
// same error, one that starts with "figures: ", wraps ErrData and contains
// every string of want; that Save leaves an existing file as it was; and
// that PNG panics with the error's message.
func wantBad(t *testing.T, name string, mk func() *Figure, want ...string) {
	t.Helper()
	f, panicked := construct(mk)
	if panicked != nil {
		t.Errorf("%s: the constructor panicked: %v", name, panicked)
		return
	}
	err := f.Err()
	if err == nil || !strings.HasPrefix(err.Error(), "figures: ") || !errors.Is(err, ErrData) {
		t.Errorf("%s: Err() = %v, want a \"figures: ...\" error that wraps ErrData", name, err)
		return
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("%s: error %q does not mention %q", name, err, w)
		}
	}
	if out := encodeWithin(f, "png"); out.timedOut || out.panicked != nil || out.err != err {
		t.Errorf("%s: Encode: error %v, panic %v, timeout %v; want Err's error %q", name, out.err, out.panicked, out.timedOut, err)
	}
	path := filepath.Join(t.TempDir(), "old.png")
	if werr := os.WriteFile(path, []byte("the old file"), 0o644); werr != nil {
		t.Fatal(werr)
	}
	if serr := f.Save(path); serr != err {
		t.Errorf("%s: Save = %v, want Err's error %q", name, serr, err)
	}
	if b, rerr := os.ReadFile(path); rerr != nil || string(b) != "the old file" {
		t.Errorf("%s: Save changed the file: %q, %v", name, b, rerr)
	}
	func() {
		defer func() {
			if r := recover(); r != err.Error() {
				t.Errorf("%s: PNG panicked with %#v, want Err's message %q", name, r, err.Error())
			}
		}()
		f.PNG()
	}()
}

// TestEncodeRefusesBadSizes sets Width or Height to values that are not
// finite and > 0: Encode returns an error that names the size, and does
// not panic (vgimg panics "w and h must both be > 0.").
func TestEncodeRefusesBadSizes(t *testing.T) {
	for name, f := range sampleFigures() {
		for _, bad := range []vg.Length{0, -1, vg.Length(math.NaN()), vg.Length(math.Inf(1))} {
			for _, side := range []string{"width", "height"} {
				g := *f
				if side == "width" {
					g.Width = bad
				} else {
					g.Height = bad
				}
				for _, format := range []string{"png", "svg"} {
					what := fmt.Sprintf("%s with %s %v as %s", name, side, float64(bad), format)
					out := encodeWithin(&g, format)
					switch {
					case out.timedOut:
						t.Errorf("%s: Encode did not return within 5 s", what)
					case out.panicked != nil:
						t.Errorf("%s: Encode panicked: %v", what, out.panicked)
					case out.err == nil:
						t.Errorf("%s: Encode returned %d bytes and no error", what, len(out.b))
					case !strings.HasPrefix(out.err.Error(), "figures: ") || !strings.Contains(out.err.Error(), "width"):
						t.Errorf("%s: error %q does not start with \"figures: \" and name the size", what, out.err)
					}
				}
			}
		}
	}
}

// TestEncodeRefusesHugeRasters sets Width and Height to 1e6 cm, which
// made vgimg ask for an image of 1.4e15 pixels: Encode now refuses a
// raster format quickly, with an error that names MaxPixels, without
// allocating the image, while the default size and vector formats still
// draw.
func TestEncodeRefusesHugeRasters(t *testing.T) {
	f := *sampleFigures()["lines"]
	f.Width, f.Height = 1e6*vg.Centimeter, 1e6*vg.Centimeter
	for _, format := range []string{"png", "jpg", "tif"} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		out := encodeWithin(&f, format)
		runtime.ReadMemStats(&after)
		switch {
		case out.timedOut || out.panicked != nil:
			t.Errorf("%s: timeout %v, panic %v; want an error", format, out.timedOut, out.panicked)
		case out.err == nil || !strings.HasPrefix(out.err.Error(), "figures: ") || !strings.Contains(out.err.Error(), "MaxPixels"):
			t.Errorf("%s: Encode = %d bytes, error %v; want a \"figures: ...\" error naming MaxPixels", format, len(out.b), out.err)
		case errors.Is(out.err, ErrData):
			t.Errorf("%s: error %v wraps ErrData, but the data are fine", format, out.err)
		}
		if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
			t.Errorf("%s: Encode allocated %d bytes to refuse", format, n)
		}
	}
	if out := encodeWithin(&f, "svg"); out.err != nil || out.panicked != nil || out.timedOut {
		t.Errorf("svg: error %v, panic %v, timeout %v; want a picture", out.err, out.panicked, out.timedOut)
	}
	// Just over the limit is refused, the limit itself is not (checked
	// without drawing), and the default size draws.
	side := vg.Length(8192) * vg.Inch / rasterDPI
	if err := checkPixels("png", side, side); err != nil {
		t.Errorf("8192 x 8192 pixels: %v", err)
	}
	if err := checkPixels("png", side, side+vg.Inch/rasterDPI); err == nil {
		t.Error("8192 x 8193 pixels: no error")
	}
	f.Width, f.Height = DefaultWidth, DefaultHeight
	if _, err := f.Encode("png"); err != nil {
		t.Errorf("default size: %v", err)
	}
}

// TestHugeVectorFigures draws every sample figure as svg and pdf at 1e6 x
// 1e6 cm: vector formats need no image of the figure's size, so each
// draws quickly and with little memory. A heat map's colour bar was an
// image of one row per point of its height: gigabytes, and minutes.
func TestHugeVectorFigures(t *testing.T) {
	for name, f := range sampleFigures() {
		g := *f
		g.Width, g.Height = 1e6*vg.Centimeter, 1e6*vg.Centimeter
		for _, format := range []string{"svg", "pdf"} {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			out := encodeWithin(&g, format)
			runtime.ReadMemStats(&after)
			if out.timedOut || out.panicked != nil || out.err != nil {
				t.Errorf("%s as %s: timeout %v, panic %v, error %v; want a picture", name, format, out.timedOut, out.panicked, out.err)
			}
			if n := after.TotalAlloc - before.TotalAlloc; n > 64<<20 {
				t.Errorf("%s as %s: Encode allocated %d MiB", name, format, n>>20)
			}
		}
	}
}

// TestZeroFigure checks that a nil or zero Figure, which has nothing to
// draw, makes Encode and Save return an error and PNG panic with a
// "figures: ..." message, not a nil dereference.
func TestZeroFigure(t *testing.T) {
	for name, f := range map[string]*Figure{"nil": nil, "zero": {}, "sized": {Width: DefaultWidth, Height: DefaultHeight}} {
		out := encodeWithin(f, "png")
		if out.panicked != nil || out.timedOut || out.err == nil || !strings.HasPrefix(out.err.Error(), "figures: ") {
			t.Errorf("%s Figure: Encode = %v, panic %v; want a \"figures: ...\" error", name, out.err, out.panicked)
		}
		if err := f.Save(t.TempDir() + "/f.png"); err == nil || !strings.HasPrefix(err.Error(), "figures: ") {
			t.Errorf("%s Figure: Save = %v, want a \"figures: ...\" error", name, err)
		}
		func() {
			defer func() {
				r := recover()
				if s, ok := r.(string); !ok || !strings.HasPrefix(s, "figures: ") {
					t.Errorf("%s Figure: PNG panicked with %#v, want a \"figures: ...\" message", name, r)
				}
			}()
			f.PNG()
		}()
	}
}

// TestNoRowsNoCategories checks that SchurStrips without rows and
// Intervals without categories make a figure with a "figures: ..." error
// that says what is missing, rather than panicking with an index out of
// range (SchurStrips did so when drawn; Intervals when made).
func TestNoRowsNoCategories(t *testing.T) {
	wantBad(t, "SchurStrips", func() *Figure { return SchurStrips("t", "p") }, "SchurStrips", "at least one row")
	wantBad(t, "Intervals", func() *Figure { return Intervals("t", "y", nil, []float64{0}) }, "Intervals", "at least one category")
}

// TestSchurStripsParams checks that SchurStrips refuses, with a message
// that names the row and the parameter, Params that are not finite and
// strictly increasing (ClassRow's contract), or so far apart that the
// strip's span overflows. A NaN parameter made the x axis NaN, on which
// the rendering never returned, and decreasing or repeated parameters drew
// overlapping cells.
func TestSchurStripsParams(t *testing.T) {
	classes := []aggregators.SchurClass{aggregators.Convex, aggregators.Concave, aggregators.Convex}
	nan, inf := math.NaN(), math.Inf(1)
	for _, c := range []struct {
		name   string
		params []float64
		want   []string
	}{
		{"NaN", []float64{nan, 1, 2}, []string{`row "r"`, "Params[0] is NaN"}},
		{"NaN later", []float64{0, nan, 2}, []string{"Params[1] is NaN"}},
		{"Inf", []float64{0, 1, inf}, []string{"Params[2] is +Inf"}},
		{"decreasing", []float64{0, 2, 1}, []string{"Params[2] = 1 is not above Params[1] = 2", "strictly increasing"}},
		{"repeated", []float64{0, 1, 1}, []string{"Params[2] = 1 is not above Params[1] = 1"}},
		{"too far apart", []float64{-1e308, 0, 1e308}, []string{"-1e+308 to 1e+308", "too far apart"}},
	} {
		wantBad(t, c.name, func() *Figure {
			return SchurStrips("t", "p", ClassRow{Name: "r", Params: c.params, Classes: classes})
		}, c.want...)
	}
	// The auditor's case: two parameters, the first NaN.
	wantBad(t, "auditor", func() *Figure {
		return SchurStrips("t", "p", ClassRow{Params: []float64{nan, 1}, Classes: []aggregators.SchurClass{1, 2}})
	}, "Params[0] is NaN")
}

// TestSpansTooWideToDraw gives every constructor whose axes come from the
// data finite values whose span overflows float64 (or, for a heat map,
// whose colour scale's span does). The rendering of such a figure never
// returned (gonum/plot's tick labelling loops forever on an axis of
// infinite or NaN span), panicked with "palette: specified value == NaN"
// (a heat map's values), or drew a meaningless picture (gonum/plot puts
// an axis end that overflowed to ±Inf at 0); each is now made with a
// "figures: ..." error that names the axis or the values.
func TestSpansTooWideToDraw(t *testing.T) {
	big := 1e308
	wide := []float64{-big, big}
	ep := func(f func(*Trajectories)) func() *Figure {
		return func() *Figure {
			tr := sampleEpisode()
			f(&tr)
			return Episode("t", tr)
		}
	}
	for _, c := range []struct {
		name string
		make func() *Figure
		want []string
	}{
		{"SchurStrips rows apart", func() *Figure {
			return SchurStrips("t", "p",
				ClassRow{Name: "low", Params: []float64{-1e308, -0.9e308}, Classes: []aggregators.SchurClass{1, 2}},
				ClassRow{Name: "high", Params: []float64{0.9e308, 1e308}, Classes: []aggregators.SchurClass{1, 2}})
		}, []string{"SchurStrips", "x axis"}},
		{"Lines x", func() *Figure {
			return Lines("t", "x", "y", Series{X: wide, Y: []float64{0, 1}})
		}, []string{"Lines", "x axis", "-1e+308 to 1e+308"}},
		{"Lines y", func() *Figure {
			return Lines("t", "x", "y", Series{X: []float64{0, 1}, Y: []float64{0, 1}}, Series{X: []float64{0, 1}, Y: wide})
		}, []string{"Lines", "y axis"}},
		{"Bands mean", func() *Figure {
			return Bands("t", "x", "y", Band{X: []float64{0, 1}, Mean: wide})
		}, []string{"Bands", "y axis"}},
		{"Bands x across bands", func() *Figure {
			return Bands("t", "x", "y", Band{X: []float64{-big}, Mean: []float64{0}}, Band{X: []float64{big}, Mean: []float64{0}})
		}, []string{"Bands", "x axis"}},
		{"BandPanels y", func() *Figure {
			ps := samplePanels(2)
			ps[1].Bands[0].Hi[3] = big
			ps[1].Bands[0].Lo[0] = -big
			return BandPanels("t", "x", "y", 2, false, ps...)
		}, []string{`panel 1 "setting B"`, "y axis"}},
		{"BandPanels shared y", func() *Figure {
			ps := samplePanels(2)
			ps[0].Reference = []float64{-big}
			ps[1].Reference = []float64{big}
			return BandPanels("t", "x", "y", 2, true, ps...)
		}, []string{"panel 0", "y axis"}},
		{"BandPanels shared x", func() *Figure {
			ps := samplePanels(2)
			ps[0].Bands[0].X[0] = -big
			ps[1].Bands[1].X[10] = big
			return BandPanels("t", "x", "y", 1, false, ps...)
		}, []string{"panel 0", "x axis"}},
		{"HeatMap values", func() *Figure {
			return HeatMap("t", "x", "y", "z", Grid{X: []float64{0, 1}, Y: []float64{0, 1}, Z: [][]float64{wide, {3, 4}}})
		}, []string{"grid values", "-1e+308 to 1e+308", "colour scale"}},
		{"HeatMap x cells", func() *Figure {
			return HeatMap("t", "x", "y", "z", Grid{X: wide, Y: []float64{0, 1}, Z: [][]float64{{1, 2}, {3, 4}}})
		}, []string{"HeatMap", "x axis"}},
		{"HeatMap y cells", func() *Figure {
			return HeatMap("t", "x", "y", "z", Grid{X: []float64{0, 1}, Y: []float64{1e308, 1.7e308}, Z: [][]float64{{1, 2}, {3, 4}}})
		}, []string{"HeatMap", "y axis"}},
		{"Intervals bar", func() *Figure {
			return Intervals("t", "y", []string{"a"}, nil, IntervalSeries{Points: []Interval{{0, -big, big}}})
		}, []string{"Intervals", "y axis"}},
		{"Intervals margin", func() *Figure {
			return Intervals("t", "y", []string{"a", "b"}, nil, IntervalSeries{Points: []Interval{{0, 0, 0}, {1.7e308, 1.7e308, 1.7e308}}})
		}, []string{"Intervals", "y axis"}},
		{"Intervals refs", func() *Figure {
			return Intervals("t", "y", []string{"a"}, wide, IntervalSeries{Points: []Interval{{0, -1, 1}}})
		}, []string{"Intervals", "y axis"}},
		{"Episode agents", ep(func(tr *Trajectories) {
			tr.Bounds = [4]float64{}
			tr.Agents[0][3] = [2]float64{-big, 0}
			tr.Agents[1][3] = [2]float64{big, 0}
		}), []string{"episode panel 0", "x axis"}},
		{"Episode bounds", ep(func(tr *Trajectories) { tr.Bounds = [4]float64{0, 1, -big, big} }), []string{"episode panel 0", "axis"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			wantBad(t, c.name, c.make, append([]string{"too far apart"}, c.want...)...)
		})
	}
}

// TestWideButFiniteSpansDraw checks that TestSpansTooWideToDraw's checks
// refuse no more than they must: values near ±math.MaxFloat64 whose span
// is finite still draw.
func TestWideButFiniteSpansDraw(t *testing.T) {
	for name, f := range map[string]func() *Figure{
		"Lines": func() *Figure {
			return Lines("t", "x", "y", Series{X: []float64{-8e307, 8e307}, Y: []float64{0, 1.7e308}})
		},
		"Bands": func() *Figure { return Bands("t", "x", "y", Band{X: []float64{0, 1}, Mean: []float64{-8e307, 8e307}}) },
		"HeatMap": func() *Figure {
			return HeatMap("t", "x", "y", "z", Grid{X: []float64{0, 1}, Y: []float64{0, 1}, Z: [][]float64{{-8e307, 8e307}, {0, 1}}})
		},
		"SchurStrips": func() *Figure {
			return SchurStrips("t", "p", ClassRow{Params: []float64{-3e307, 3e307}, Classes: []aggregators.SchurClass{1, 2}})
		},
	} {
		var out encodeOutcome
		func() {
			defer func() {
				if r := recover(); r != nil {
					out.panicked = r
				}
			}()
			out = encodeWithin(f(), "png")
		}()
		if out.timedOut || out.panicked != nil || out.err != nil || len(out.b) == 0 {
			t.Errorf("%s: timeout %v, panic %v, error %v, %d bytes; want a picture", name, out.timedOut, out.panicked, out.err, len(out.b))
		}
	}
}

// TestPrepareAxesSaysWhy checks prepareAxes' reasons: a NaN end is not
// blamed on values too far apart, and an axis without data passes.
func TestPrepareAxesSaysWhy(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	for _, c := range []struct {
		lo, hi float64
		want   string
	}{
		{nan, 1, "an end is NaN"},
		{0, nan, "an end is NaN"},
		{-inf, 1, "an end is infinite"},
		{-1e308, 1e308, "its span overflows float64"},
	} {
		p := plot.New()
		p.Y.Min, p.Y.Max = c.lo, c.hi
		err := prepareAxes("probe", p)
		if err == nil || !strings.HasPrefix(err.Error(), "figures: probe: the y axis") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v to %v: prepareAxes = %v, want an error about the y axis that says %q", c.lo, c.hi, err, c.want)
		}
	}
	p := plot.New() // no data: from +Inf to -Inf
	if err := prepareAxes("empty", p); err != nil {
		t.Errorf("no data: %v", err)
	}
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = -8e307, 8e307, 0, math.MaxFloat64
	if err := prepareAxes("wide but finite", p); err != nil {
		t.Errorf("wide but finite: %v", err)
	}
}

// TestHeatMapNarrowOrConstantValues draws heat maps whose values are
// finite but nearly or exactly equal, at magnitudes where ±0.5 or a few
// ulps matter. moreland's colour map, set to such a range, computed
// colours out of gamut and panicked ("moreland: invalid color"), and a
// constant map of values beyond 2^53 had a colour scale of zero width
// (plotter panicked "ColorMap Max==Min"); the cells of a map whose values
// differ by subnormals were left blank. Each must now draw, its cells
// coloured.
func TestHeatMapNarrowOrConstantValues(t *testing.T) {
	xy := []float64{0, 1}
	for name, z := range map[string][][]float64{
		"a few ulps apart":     {{1, 1 + 1e-15}, {1, 1}},
		"ulps apart, large":    {{1e300, 1e300 * (1 + 1e-15)}, {1e300, 1e300}},
		"one ulp apart":        {{1, math.Nextafter(1, 2)}, {1, 1}},
		"subnormals apart":     {{0, 5e-324}, {0, 1e-323}},
		"constant 1e17":        {{1e17, 1e17}, {1e17, 1e17}},
		"constant max":         {{math.MaxFloat64, math.MaxFloat64}, {math.MaxFloat64, math.MaxFloat64}},
		"constant -max":        {{-math.MaxFloat64, -math.MaxFloat64}, {-math.MaxFloat64, -math.MaxFloat64}},
		"wide but finite":      {{-8e307, 8e307}, {0, 1}},
		"from -max/2 to max/2": {{-math.MaxFloat64 / 2, math.MaxFloat64 / 2}, {0, 1}},
	} {
		var out encodeOutcome
		func() {
			defer func() {
				if r := recover(); r != nil {
					out.panicked = r
				}
			}()
			out = encodeWithin(HeatMap("t", "x", "y", "z", Grid{X: xy, Y: xy, Z: z}), "png")
		}()
		if out.timedOut || out.panicked != nil || out.err != nil {
			t.Errorf("%s: timeout %v, panic %v, error %v; want a picture", name, out.timedOut, out.panicked, out.err)
			continue
		}
		img, err := png.Decode(bytes.NewReader(out.b))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		// The cells fill the data area: its centre is coloured, not
		// blank (white) as a NaN cell is.
		if r, g, b, _ := img.At(img.Bounds().Dx()*5/12, img.Bounds().Dy()/2).RGBA(); r>>8 > 250 && g>>8 > 250 && b>>8 > 250 {
			t.Errorf("%s: the centre of the map is white, want a coloured cell", name)
		}
	}
}

// TestMatrixSizeOverflows gives Allocations, EffortLines and EffortStrips
// 2^32 agents and 2^32 tasks (2^16 on 32-bit platforms), whose product
// overflows int to 0, and empty effort matrices. The check that a matrix
// has N*M efforts passed, and the constructor asked for 2^32 labels: the
// process died out of memory. Found with FuzzAllocations' seeds.
func TestMatrixSizeOverflows(t *testing.T) {
	n := 1 << (strconv.IntSize / 2)
	wantBad(t, "Allocations", func() *Figure {
		return Allocations("", 1, Allocation{Agents: n, Tasks: n})
	}, "allocation 0", "0 efforts, want N*M")
	efforts := Efforts{Agents: n, Tasks: n, Steps: []int{1}, Matrices: [][]float64{{}}}
	wantBad(t, "EffortLines", func() *Figure { return EffortLines("", efforts) }, "efforts row 0", "record 0 has 0 efforts")
	wantBad(t, "EffortStrips", func() *Figure { return EffortStrips("", efforts) }, "efforts row 0", "record 0 has 0 efforts")
}

// TestFlatAxesAtLargeMagnitudes draws figures whose x or y values are all
// equal, at magnitudes where gonum/plot's widening of such an axis by 1
// either side rounds back to the value: a single point, a constant series
// or band, a step beyond 2^53. Encode
// panicked with "illegal range" (plot's tick labelling of an axis of zero
// width); each must now draw. Found with the fuzz targets' seeds.
func TestFlatAxesAtLargeMagnitudes(t *testing.T) {
	one := func(v float64) []float64 { return []float64{v} }
	for name, f := range map[string]*Figure{
		"Lines point 1e17":       Lines("t", "x", "y", Series{X: one(1e17), Y: one(1e17)}),
		"Lines constant max":     Lines("t", "x", "y", Series{X: []float64{0, 1}, Y: []float64{math.MaxFloat64, math.MaxFloat64}}),
		"Lines constant -1e300":  Lines("t", "x", "y", Series{X: []float64{-1e300, -1e300}, Y: []float64{0, 1}}),
		"Bands point 1e300":      Bands("t", "x", "y", Band{X: one(1e300), Mean: one(1e300), Lo: one(1e300), Hi: one(1e300)}),
		"Intervals 1e300":        Intervals("t", "y", []string{"a"}, nil, IntervalSeries{Points: []Interval{{1e300, 1e300, 1e300}}}),
		"EffortStrips step max":  EffortStrips("t", Efforts{Agents: 1, Tasks: 1, Steps: []int{math.MaxInt}, Matrices: [][]float64{{0.5}}}),
		"EffortLines step max":   EffortLines("t", Efforts{Agents: 1, Tasks: 1, Steps: []int{math.MaxInt}, Matrices: [][]float64{{0.5}}}),
		"BandPanels point 1e300": BandPanels("t", "x", "y", 1, false, Panel{Bands: []Band{{X: one(1e300), Mean: one(1e300)}}}),
	} {
		var out encodeOutcome
		func() {
			defer func() {
				if r := recover(); r != nil {
					out.panicked = r
				}
			}()
			out = encodeWithin(f, "png")
		}()
		if out.timedOut || out.panicked != nil || out.err != nil || len(out.b) == 0 {
			t.Errorf("%s: timeout %v, panic %v, error %v, %d bytes; want a picture", name, out.timedOut, out.panicked, out.err, len(out.b))
		}
	}
}

// TestNarrowAxesDraw draws figures with an axis whose span is a few ulps
// of its ends: a single point at 2^53 (which plot draws from 2^53 - 1 to
// 2^53), values one float apart near 2.7e11 as y, x or a heat map's
// colour scale, and a constant at 2^53 x 10^5. gonum/plot's tick
// labelling stepped a float64 counter up to 2^53, where adding 1 left it
// unchanged, and Encode never returned; each must now draw.
func TestNarrowAxesDraw(t *testing.T) {
	p53 := math.Ldexp(1, 53)
	v := 2.7021597764222977e11
	u := math.Nextafter(v, math.Inf(1))
	for name, f := range map[string]*Figure{
		"point at 2^53":      Lines("t", "x", "y", Series{X: []float64{0}, Y: []float64{p53}}),
		"y one float apart":  Lines("t", "x", "y", Series{X: []float64{0, 1}, Y: []float64{v, u}}),
		"x one float apart":  Lines("t", "x", "y", Series{X: []float64{v, u}, Y: []float64{0, 1}}),
		"constant 2^53e5":    Lines("t", "x", "y", Series{X: []float64{0, 1}, Y: []float64{p53 * 1e5, p53 * 1e5}}),
		"colour scale":       HeatMap("t", "x", "y", "z", Grid{X: []float64{0, 1}, Y: []float64{0, 1}, Z: [][]float64{{v, u}, {u, v}}}),
		"band at 2^53":       Bands("t", "x", "y", Band{X: []float64{0}, Mean: []float64{p53}, Lo: []float64{p53}, Hi: []float64{p53}}),
		"interval one apart": Intervals("t", "y", []string{"a"}, nil, IntervalSeries{Points: []Interval{{v, v, u}}}),
	} {
		if out := encodeWithin(f, "png"); out.timedOut || out.panicked != nil || out.err != nil || len(out.b) == 0 {
			t.Errorf("%s: timeout %v, panic %v, error %v, %d bytes; want a picture", name, out.timedOut, out.panicked, out.err, len(out.b))
		}
	}
}

// TestTicks checks the tick marker of the figures' axes: DefaultTicks'
// ticks on an axis of ordinary span (with their labels where these are
// exact, and exact ones where not: DefaultTicks labels all three ticks
// of [1e6, 1e6+1e-6] "1e+06"), and a single tick in the middle, labelled
// to 6 digits, on one narrower than narrowSpan of its magnitude.
func TestTicks(t *testing.T) {
	if got, want := (ticks{}).Ticks(-1, 3), (plot.DefaultTicks{}).Ticks(-1, 3); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("ticks on [-1, 3] = %v, want DefaultTicks' %v", got, want)
	}
	var labels []string
	for _, tk := range (ticks{}).Ticks(1e6, 1e6+1e-6) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	if want := []string{"1000000", "1000000.0000005", "1000000.000001"}; fmt.Sprint(labels) != fmt.Sprint(want) {
		t.Errorf("ticks on [1e6, 1e6+1e-6] labelled %q, want %q", labels, want)
	}
	p53 := math.Ldexp(1, 53)
	for _, c := range []struct{ lo, hi float64 }{{p53 - 1, p53}, {1e300, 1e300 * (1 + 1e-13)}, {-5e11, -5e11 + 1e-2}} {
		got := (ticks{}).Ticks(c.lo, c.hi)
		if len(got) != 1 || got[0].Value < c.lo || got[0].Value > c.hi || got[0].Label != strconv.FormatFloat(got[0].Value, 'g', 6, 64) {
			t.Errorf("ticks on [%v, %v] = %v, want one tick in the middle labelled to 6 digits", c.lo, c.hi, got)
		}
	}
}

// TestWideAxesDraw draws axes wider than wideSpan whose ends differ in
// magnitude, from 37 to 1e308. gonum/plot's labelling found no labels and
// labelled its fallback ticks to the precision of the smaller end, writing
// 1e308 out in 309 digits; BandPanels of a panel with such a y axis,
// shared with an empty panel, laid its canvases out as NaN and Encode never
// returned. Found by FuzzBandPanels. The labels must be short, and each
// figure must draw.
func TestWideAxesDraw(t *testing.T) {
	for _, r := range [][2]float64{{37, 1e308}, {-1e308, 0.5}, {1, 1e200}, {-1e160, -1}} {
		for _, tk := range (ticks{}).Ticks(r[0], r[1]) {
			if len(tk.Label) > len("-1.23457e+307") {
				t.Errorf("ticks on [%v, %v]: label %q of %d characters", r[0], r[1], tk.Label, len(tk.Label))
			}
		}
	}
	band := Band{X: []float64{0, 1}, Mean: []float64{37, 1e308}}
	for name, f := range map[string]*Figure{
		"BandPanels, shared with an empty panel": BandPanels("t", "x", "y", 2, true, Panel{Bands: []Band{band}}, Panel{}),
		"Lines":                                  Lines("t", "x", "y", Series{X: band.X, Y: band.Mean}),
	} {
		if out := encodeWithin(f, "png"); out.timedOut || out.panicked != nil || out.err != nil || len(out.b) == 0 {
			t.Errorf("%s: timeout %v, panic %v, error %v, %d bytes; want a picture", name, out.timedOut, out.panicked, out.err, len(out.b))
		}
	}
}

// TestHeatMapGridMustBeMonotone checks that a heat map of a grid whose x
// or y values neither increase nor decrease throughout (equal, as a
// column of equal x at 1e300, or turning back) carries an error naming the
// axis, rather than cells that would reach backwards.
func TestHeatMapGridMustBeMonotone(t *testing.T) {
	z := [][]float64{{0, 1}, {2, 3}}
	wantBad(t, "HeatMap equal x", func() *Figure {
		return HeatMap("t", "x", "y", "z", Grid{X: []float64{1e300, 1e300}, Y: []float64{0, 1}, Z: z})
	}, "grid x[1] = 1e+300 after x[0] = 1e+300", "must increase or decrease")
	z3 := [][]float64{{0, 1, 2}, {3, 4, 5}}
	wantBad(t, "HeatMap x turning back", func() *Figure {
		return HeatMap("t", "x", "y", "z", Grid{X: []float64{0, 2, 1}, Y: []float64{0, 1}, Z: z3})
	}, "grid x[2] = 1 after x[1] = 2", "must increase or decrease")
	wantBad(t, "HeatMap y turning back", func() *Figure {
		return HeatMap("t", "x", "y", "z", Grid{X: []float64{0, 1}, Y: []float64{5, -5, 0}, Z: [][]float64{{0, 1}, {2, 3}, {4, 5}}})
	}, "grid y[2] = 0 after y[1] = -5", "must increase or decrease")
}

// TestSchurStripsRefusesInvalidClasses gives SchurStrips classes that are
// not Schur classes (aggregators.SchurClass's String calls them
// invalid). They had no colour: the strip was drawn black, as Neither,
// and the legend did not list them.
func TestSchurStripsRefusesInvalidClasses(t *testing.T) {
	for _, c := range []aggregators.SchurClass{aggregators.Unknown - 1, aggregators.Neither + 1, 99} {
		wantBad(t, c.String(), func() *Figure {
			return SchurStrips("t", "p", ClassRow{Name: "r", Params: []float64{0, 1}, Classes: []aggregators.SchurClass{aggregators.Convex, c}})
		}, `row "r"`, "Classes[1]", strconv.Itoa(int(c)))
	}
	for c := aggregators.Unknown; c <= aggregators.Neither; c++ {
		if f := SchurStrips("t", "p", ClassRow{Name: "r", Params: []float64{0}, Classes: []aggregators.SchurClass{c}}); f.Err() != nil {
			t.Errorf("%v: %v", c, f.Err())
		}
	}
}

// TestSchurStripsSingleParamAtLargeMagnitude draws a row of one parameter
// beyond 2^53, where the cell's ±0.5 rounds back to the parameter: the
// strip was empty, and the picture showed only the legend. It must fill
// as many pixels of its class's colour as the same row at parameter 1.
func TestSchurStripsSingleParamAtLargeMagnitude(t *testing.T) {
	cls := aggregators.StrictlyConvex
	count := func(param float64) int {
		img := decode(t, SchurStrips("t", "p", ClassRow{Name: "r", Params: []float64{param}, Classes: []aggregators.SchurClass{cls}}))
		n := 0
		for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y++ {
			for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x++ {
				if near(img.At(x, y), ClassColors[cls], 10) {
					n++
				}
			}
		}
		return n
	}
	want := count(1)
	for _, v := range []float64{1e17, -1e300, math.MaxFloat64} {
		if got := count(v); math.Abs(float64(got-want)) > 0.02*float64(want) {
			t.Errorf("parameter %v: %d pixels of the class's colour, want about %d as at parameter 1", v, got, want)
		}
	}
}
