package figures

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/hetgain/hetgain/internal/atomicfile"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// Default figure size.
const (
	DefaultWidth  = 16 * vg.Centimeter
	DefaultHeight = 10 * vg.Centimeter
)

// Figure is a finished picture: one main plot and, optionally, a side plot
// (a colour bar or a legend) drawn in a strip to its right.
//
// Figure deliberately exposes no gonum/plot type, not even through an
// unexported field: the gophernotes kernel cannot import a package whose
// exported types lead to package sync, and plot's font cache holds a mutex.
type Figure struct {
	// Width and Height are the size of the picture.
	Width, Height vg.Length
	encode        func(format string, w, h vg.Length) ([]byte, error)
	// err is why the data given to the constructor cannot be drawn; nil
	// for a figure that can be.
	err error
}

// ErrData is wrapped by the error of a figure made from data that cannot
// be drawn (see Figure.Err), for errors.Is.
var ErrData = errors.New("figures: the data cannot be drawn")

// dataError is the error of a figure made from data that cannot be drawn:
// a "figures: ..." message that says what is wrong, which wraps ErrData.
type dataError struct{ msg string }

func (e *dataError) Error() string { return e.msg }
func (e *dataError) Unwrap() error { return ErrData }

// badf returns a dataError with the message "figures: " followed by
// fmt.Sprintf(format, a...).
func badf(format string, a ...any) error {
	return &dataError{"figures: " + fmt.Sprintf(format, a...)}
}

// badAt returns a dataError about where (a series, a band, a panel):
// "figures: <where>: " followed by fmt.Sprintf(format, a...).
func badAt(where, format string, a ...any) error {
	return &dataError{"figures: " + where + ": " + fmt.Sprintf(format, a...)}
}

// failed returns a figure, of the default size, that carries err and
// draws nothing: Err, Encode and Save return err, and PNG panics with it.
func failed(err error) *Figure {
	return &Figure{Width: DefaultWidth, Height: DefaultHeight, err: err}
}

// newFigure returns a figure of the default size that draws p, and side
// (if not nil) in a strip of sideFraction of the width to its right. If
// alignSide is true, the side plot's data area spans the same height as
// p's (a colour bar beside its map); otherwise the side plot fills the
// strip (a legend).
func newFigure(p, side *plot.Plot, sideFraction float64, alignSide bool) *Figure {
	draw := func(c draw.Canvas) {
		if side == nil {
			p.Draw(c)
			return
		}
		main, strip := c, c
		main.Max.X = c.Max.X - vg.Length(sideFraction)*(c.Max.X-c.Min.X)
		strip.Min.X = main.Max.X
		if alignSide {
			main, strip = alignDataAreas(p, main, side, strip)
		}
		p.Draw(main)
		side.Draw(strip)
	}
	return &Figure{
		Width:  DefaultWidth,
		Height: DefaultHeight,
		encode: func(format string, w, h vg.Length) ([]byte, error) { return encode(draw, format, w, h) },
	}
}

// alignDataAreas returns main and strip shrunk vertically so that the
// data areas p and side have in them span the same heights: the part the
// two data areas share when each plot fills its own canvas, which leaves
// both plots' titles and axes inside the canvases.
func alignDataAreas(p *plot.Plot, main draw.Canvas, side *plot.Plot, strip draw.Canvas) (draw.Canvas, draw.Canvas) {
	a, b := p.DataCanvas(main), side.DataCanvas(strip)
	lo, hi := max(a.Min.Y, b.Min.Y), min(a.Max.Y, b.Max.Y)
	main.Min.Y, main.Max.Y = main.Min.Y+lo-a.Min.Y, main.Max.Y+hi-a.Max.Y
	strip.Min.Y, strip.Max.Y = strip.Min.Y+lo-b.Min.Y, strip.Max.Y+hi-b.Max.Y
	return main, strip
}

// prepareAxes readies the axes of p for drawing. It returns a
// "figures: <where>: ..." error if an axis of p
// has a range that gonum/plot cannot draw: an end that is NaN or infinite,
// or ends so far apart that their distance overflows to +Inf (for such a
// range plot's tick labelling never returns). Finite data can give one:
// values near ±math.MaxFloat64 of both signs, or cells and margins that
// reach beyond them. An axis without data (from +Inf to -Inf, which plot
// draws from -1 to 1) passes. Constructors call it once the axes of each
// plot are set, before anything lays the plot out.
//
// An axis whose ends are equal (a single point, or a constant series)
// plot draws from 1 below to 1 above them; where that rounds back to the
// value (beyond about 2^53, as for 1e17 or 1e300), plot's tick labelling
// panics ("illegal range"), so prepareAxes widens such an axis itself, to
// the neighbouring floats (see widen). It also gives every axis that has
// plot's default tick marker the marker ticks, whose labelling of a
// narrow axis returns.
func prepareAxes(where string, p *plot.Plot) error {
	for _, a := range []struct {
		name string
		axis *plot.Axis
	}{{"x", &p.X}, {"y", &p.Y}} {
		if _, ok := a.axis.Tick.Marker.(plot.DefaultTicks); ok {
			a.axis.Tick.Marker = ticks{}
		}
		lo, hi := a.axis.Min, a.axis.Max
		if math.IsInf(lo, 1) && math.IsInf(hi, -1) {
			continue
		}
		var why string
		switch {
		case math.IsNaN(lo) || math.IsNaN(hi):
			why = "an end is NaN"
		case math.IsInf(lo, 0) || math.IsInf(hi, 0):
			why = "an end is infinite (the values, or the margins around them, are too far apart)"
		case math.IsInf(hi-lo, 0):
			why = "its span overflows float64 (the values are too far apart)"
		default:
			if lo == hi && lo-1 == hi+1 {
				a.axis.Min, a.axis.Max = widen(lo)
			}
			continue
		}
		return badAt(where, "the %s axis would run from %v to %v, which cannot be drawn: %s", a.name, lo, hi, why)
	}
	return nil
}

// narrowSpan is the span of an axis, relative to the larger magnitude of
// its ends, below which ticks marks only the axis' middle.
const narrowSpan = 1e-12

// wideSpan is the span of an axis beyond which ticks labels DefaultTicks'
// ticks itself.
const wideSpan = 1e150

// ticks is the tick marker of the figures' axes of numbers: gonum/plot's
// DefaultTicks, each labelled tick written exactly (exactLabels), except
// on an axis narrower than narrowSpan times the larger magnitude of its
// ends, where it marks the middle alone, labelled to 6 significant digits
// (labels of that precision could not tell points of such an axis apart),
// and on an axis wider than wideSpan, where it labels DefaultTicks' ticks
// to 6 significant digits itself.
//
// DefaultTicks tries label positions with a float64 counter stepped by 1
// (talbotLinHanrahan, in gonum/plot v0.14.0's labelling.go), which
// reaches about 13·(16·|max|/span + 15) in magnitude. On an axis
// narrower than about 2.3e-14 of its magnitude the counter can reach
// 2^53, where adding 1 gives 2^53 back, and the labelling never returns:
// an axis from 2^53 - 1 to 2^53 (as for a single point at 2^53), or from
// 2.7021597764222977e11 to the next float, hung Encode. On an axis of at
// least narrowSpan the counter stays below 2^48.
//
// On an axis wider than about 1.3e155, DefaultTicks' search, which
// squares a tenth of the span, overflows and finds no labels; it falls
// back to the ends and the middle, labelled to the precision of the
// smaller end: from 37 to 1e308, the middle and the top written out in
// full, in 309 digits. Such labels, wider than the figure, made
// plot.Align's canvases NaN in BandPanels, and filling them never
// returned.
type ticks struct{}

func (ticks) Ticks(min, max float64) []plot.Tick {
	if !(max > min && max-min >= narrowSpan*math.Max(math.Abs(min), math.Abs(max))) {
		mid := min + (max-min)/2
		return []plot.Tick{{Value: mid, Label: strconv.FormatFloat(mid, 'g', 6, 64)}}
	}
	ts := plot.DefaultTicks{}.Ticks(min, max)
	if max-min <= wideSpan {
		return exactLabels(ts, min, max)
	}
	for i := range ts {
		if ts[i].Label != "" {
			ts[i].Label = strconv.FormatFloat(ts[i].Value, 'g', 6, 64)
		}
	}
	return ts
}

// exactLabels returns the ticks ts of the axis from min to max with every
// labelled tick's label reading back as its value (readsBack, within
// labelTolerance): ts themselves if their labels do, else ts with every
// label rewritten in the one format of exactFormat.
//
// DefaultTicks of gonum/plot v0.14 rounds its labels to a number of
// digits set by the step between them, counting significant digits as
// decimals: on about one axis in five a label is off its tick, as 0.4875
// labelled "0.487", 4604.65 "4.6e+03" or 1.25 "1.2".
func exactLabels(ts []plot.Tick, min, max float64) []plot.Tick {
	var values []float64
	exact := true
	tol := labelTolerance(ts, min, max)
	for _, t := range ts {
		if t.Label != "" {
			values = append(values, t.Value)
			exact = exact && readsBack(t.Label, t.Value, tol)
		}
	}
	if exact {
		return ts
	}
	format := exactFormat(values, tol)
	out := append([]plot.Tick(nil), ts...)
	for i := range out {
		if out[i].Label != "" {
			out[i].Label = format(out[i].Value)
		}
	}
	return out
}

// labelTolerance returns how far a label of one of the ticks ts of the
// axis from min to max may read from its tick's value: a billionth of the
// step between labelled ticks (the span if there is one label), and 16
// units in the last place of the axis' larger end, for the rounding of
// DefaultTicks' positions.
func labelTolerance(ts []plot.Tick, min, max float64) float64 {
	step := max - min
	last := math.NaN()
	for _, t := range ts {
		if t.Label == "" {
			continue
		}
		if d := t.Value - last; d > 0 && d < step {
			step = d
		}
		last = t.Value
	}
	end := math.Max(math.Abs(min), math.Abs(max))
	return 1e-9*step + 16*(math.Nextafter(end, math.Inf(1))-end)
}

// readsBack reports whether label, parsed, is within tol of v.
func readsBack(label string, v, tol float64) bool {
	x, err := strconv.ParseFloat(label, 64)
	return err == nil && math.Abs(x-v) <= tol
}

// exactFormat returns the format of tick labels that writes every one of
// values so that it reads back within tol: below 1e6 in magnitude, the
// fewest decimals, up to 6, that do; else the fewest significant digits
// (17 read back every float64). A label that reads as 0 has no minus
// sign.
func exactFormat(values []float64, tol float64) func(float64) string {
	largest := 0.0
	for _, v := range values {
		largest = math.Max(largest, math.Abs(v))
	}
	var format func(float64) string
	for d := 0; d <= 6 && largest < 1e6; d++ {
		if format = tickFormat('f', d); allReadBack(values, format, tol) {
			return format
		}
	}
	for p := 1; p < 17; p++ {
		if format = tickFormat('g', p); allReadBack(values, format, tol) {
			return format
		}
	}
	return tickFormat('g', 17)
}

// tickFormat returns strconv.FormatFloat of verb and prec, without the
// minus sign of a label that reads as 0.
func tickFormat(verb byte, prec int) func(float64) string {
	return func(v float64) string {
		s := strconv.FormatFloat(v, verb, prec, 64)
		if x, err := strconv.ParseFloat(s, 64); err == nil && x == 0 {
			s = strings.TrimPrefix(s, "-")
		}
		return s
	}
}

// allReadBack reports whether format writes every one of values so that
// it reads back within tol.
func allReadBack(values []float64, format func(float64) string, tol float64) bool {
	for _, v := range values {
		if !readsBack(format(v), v, tol) {
			return false
		}
	}
	return true
}

// drawAligned draws a grid of plots (nil ones are skipped) into the tiles
// of c, with their data areas aligned across rows and columns.
func drawAligned(plots [][]*plot.Plot, tiles draw.Tiles, c draw.Canvas) {
	canvases := plot.Align(plots, tiles, c)
	for r := range plots {
		for j, p := range plots[r] {
			if p != nil {
				p.Draw(canvases[r][j])
			}
		}
	}
}

func encode(drawFn func(draw.Canvas), format string, w, h vg.Length) ([]byte, error) {
	c, err := draw.NewFormattedCanvas(w, h, format)
	if err != nil {
		return nil, fmt.Errorf("figures: %w", err)
	}
	drawFn(draw.New(c))
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("figures: encoding %s: %w", format, err)
	}
	return buf.Bytes(), nil
}

// errZeroFigure is Encode's error for a nil or zero Figure, which has
// nothing to draw.
var errZeroFigure = errors.New("figures: a nil or zero Figure has nothing to draw (make figures with the constructors, such as Lines)")

// Err returns why the figure cannot be drawn from the data given to its
// constructor, a "figures: ..." error that wraps ErrData, or nil if the
// data can be drawn. For a nil or zero Figure (one not made by a
// constructor) it returns the error that Encode returns for one. It does
// not check Width and Height, which can change until Encode.
func (f *Figure) Err() error {
	if f == nil || f.encode == nil && f.err == nil {
		return errZeroFigure
	}
	return f.err
}

// Encode renders the figure in the given format: "png", "svg", "pdf",
// "eps", "jpg" or "tif". It returns Err's error for a figure made from
// malformed data or a nil or zero Figure, and an error for an unknown
// format, if Width or Height is not finite and > 0, and for a raster
// format (png, jpg, tif) if the image would have more than MaxPixels
// pixels.
func (f *Figure) Encode(format string) ([]byte, error) {
	if err := f.Err(); err != nil {
		return nil, err
	}
	if !validLength(f.Width) || !validLength(f.Height) {
		return nil, fmt.Errorf("figures: cannot draw a figure of width %vpt and height %vpt: both must be finite and > 0", float64(f.Width), float64(f.Height))
	}
	if err := checkPixels(format, f.Width, f.Height); err != nil {
		return nil, err
	}
	return f.encode(format, f.Width, f.Height)
}

// validLength reports whether l is a usable width or height: finite and
// above 0.
func validLength(l vg.Length) bool {
	return l > 0 && !math.IsInf(float64(l), 1)
}

// MaxPixels is the largest raster image (png, jpg, tif), in pixels, that
// Encode draws: 2^26, such as 8192 x 8192 pixels, which is 217 x 217 cm
// at the 96 dpi of gonum/plot's raster canvas, over four times a poster of
// size A0. Such an image takes 256 MiB, and the rasteriser makes a copy; a
// larger Width or Height is far more likely a mistake (a size in points
// taken for centimetres, say) than a wish, and could exhaust the memory.
const MaxPixels = 1 << 26

// rasterDPI is the resolution of the raster formats, in dots per inch:
// that of gonum/plot's vgimg canvas, which draw.NewFormattedCanvas makes.
const rasterDPI = vgimg.DefaultDPI

// rasterFormats are the formats that vgimg draws into an image in memory.
var rasterFormats = map[string]bool{"png": true, "jpg": true, "jpeg": true, "tif": true, "tiff": true}

// checkPixels returns an error if format is a raster format and an image
// of w x h at rasterDPI would have more than MaxPixels pixels. Vector
// formats hold no image of the figure's size.
func checkPixels(format string, w, h vg.Length) error {
	if !rasterFormats[format] {
		return nil
	}
	pw, ph := math.Round(w.Dots(rasterDPI)), math.Round(h.Dots(rasterDPI))
	if pw*ph <= MaxPixels {
		return nil
	}
	return fmt.Errorf("figures: a %s image of %.4g cm x %.4g cm would have %.4g x %.4g pixels at %d dpi, more than MaxPixels = %d: make the figure smaller, or use svg or pdf",
		format, float64(w/vg.Centimeter), float64(h/vg.Centimeter), pw, ph, rasterDPI, MaxPixels)
}

// PNG returns the figure as a PNG image, for notebooks, which show a value
// with a PNG method as a picture. A malformed figure has no picture to
// show, so PNG panics with Encode's "figures: ..." error message (which a
// notebook shows): for a figure made from malformed data (see Err), a nil
// or zero Figure, a Width or Height that is not finite and > 0, or a size
// beyond MaxPixels. Use Err or Encode to get the error instead.
func (f *Figure) PNG() []byte {
	b, err := f.Encode("png")
	if err != nil {
		panic(err.Error())
	}
	return b
}

// Save writes the figure to path, in the format named by its extension
// (.png, .svg, .pdf, .eps, .jpg or .tif), replacing the file atomically: an
// interrupted Save leaves the old file whole. If the figure cannot be
// drawn, Save returns Encode's error and leaves path alone.
func (f *Figure) Save(path string) error {
	format := strings.TrimPrefix(strings.ToLower(filepath.Ext(path)), ".")
	if format == "" {
		return fmt.Errorf("figures: %q has no extension to choose the format", path)
	}
	b, err := f.Encode(format)
	if err != nil {
		return err
	}
	if err := atomicfile.WriteBytes(path, b); err != nil {
		return fmt.Errorf("figures: %w", err)
	}
	return nil
}
