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

// Band is a curve with a shaded band around it, such as the mean of a
// quantity over seeds with one standard deviation either side.
//
// X is usually increasing: the line and the band join the points in the
// order given. Lo ≤ Mean ≤ Hi is not required, but Lo ≤ Hi is.
type Band struct {
	Label   string
	X, Mean []float64
	Lo, Hi  []float64 // same length as X; nil Lo and Hi draw no band
	Dashed  bool      // dashed centre line (e.g. settings the theory predicts no gain for)
}

// Panel is one small plot of a grid: its bands and optional horizontal
// reference values drawn as thin grey dashed lines (e.g. the theory's gain).
type Panel struct {
	Title     string
	Bands     []Band
	Reference []float64
}

// Sizes and styles of band figures.
const (
	bandAlpha  = 0.25                // opacity of a band's fill
	bandPanelW = 6.5 * vg.Centimeter // per column of BandPanels
	bandPanelH = 5 * vg.Centimeter   // per row of BandPanels
	bandMarker = 1.1 * vg.Millimeter // radius of the marker of a band (or a series of Lines) of one point
)

// bandShapes are the markers of bands, and of series of Lines, of one
// point, by colour number: filled, since the marker is all there is of the
// curve.
var bandShapes = []draw.GlyphDrawer{draw.CircleGlyph{}, draw.BoxGlyph{}, draw.PyramidGlyph{}}

// pointMarker returns the marker that stands for a curve of the single
// point xys[0], which a line does not draw (a plotter.Line of one point
// strokes nothing): the i-th of bandShapes in colour c; or the error of
// gonum/plot if it refuses the point.
func pointMarker(xys plotter.XYs, c color.Color, i int) (*plotter.Scatter, error) {
	pts, err := plotter.NewScatter(xys)
	if err != nil {
		return nil, err
	}
	pts.Color = c
	pts.Shape = bandShapes[i%len(bandShapes)]
	pts.Radius = bandMarker
	return pts, nil
}

// referenceStyle is the line style of a panel's reference values.
var referenceStyle = draw.LineStyle{
	Color:  color.RGBA{R: 120, G: 120, B: 120, A: 255},
	Width:  vg.Points(0.8),
	Dashes: []vg.Length{vg.Points(4), vg.Points(2.5)},
}

// named returns "kind k", followed by the label in quotes if there is one.
func named(kind string, k int, label string) string {
	s := kind + " " + strconv.Itoa(k)
	if label != "" {
		s += " " + strconv.Quote(label)
	}
	return s
}

// check returns a "figures: <where>: ..." error if b is malformed; where
// names the band.
func (b Band) check(where string) error {
	n := len(b.X)
	switch {
	case n == 0:
		return badAt(where, "no points")
	case len(b.Mean) != n:
		return badAt(where, "%d x values and %d means", n, len(b.Mean))
	case (b.Lo == nil) != (b.Hi == nil):
		return badAt(where, "Lo has %d values and Hi %d: give both or neither", len(b.Lo), len(b.Hi))
	case b.Lo != nil && len(b.Lo) != n:
		return badAt(where, "%d x values and %d Lo values", n, len(b.Lo))
	case b.Hi != nil && len(b.Hi) != n:
		return badAt(where, "%d x values and %d Hi values", n, len(b.Hi))
	}
	for k := 0; k < n; k++ {
		if err := b.checkPoint(where, k); err != nil {
			return err
		}
	}
	return nil
}

// checkPoint returns a "figures: <where>: ..." error if point k of b,
// whose slices have the same length, is not finite or has Lo above Hi.
func (b Band) checkPoint(where string, k int) error {
	if !finite(b.X[k]) {
		return badAt(where, "X[%d] is %v", k, b.X[k])
	}
	if !finite(b.Mean[k]) {
		return badAt(where, "Mean[%d] is %v", k, b.Mean[k])
	}
	if b.Lo == nil {
		return nil
	}
	if !finite(b.Lo[k]) {
		return badAt(where, "Lo[%d] is %v", k, b.Lo[k])
	}
	if !finite(b.Hi[k]) {
		return badAt(where, "Hi[%d] is %v", k, b.Hi[k])
	}
	if b.Lo[k] > b.Hi[k] {
		return badAt(where, "Lo[%d] = %v is above Hi[%d] = %v", k, b.Lo[k], k, b.Hi[k])
	}
	return nil
}

// check returns a "figures: panel k ...: ..." error if panel k is
// malformed.
func (pn Panel) check(k int) error {
	where := named("panel", k, pn.Title)
	for i, b := range pn.Bands {
		if err := b.check(where + ", " + named("band", i, b.Label)); err != nil {
			return err
		}
	}
	for j, v := range pn.Reference {
		if !finite(v) {
			return badAt(where, "reference %d is %v", j, v)
		}
	}
	return nil
}

// translucent returns c with its opacity scaled by alpha.
func translucent(c color.Color, alpha float64) color.Color {
	n := color.NRGBAModel.Convert(c).(color.NRGBA)
	n.A = uint8(math.Round(float64(n.A) * alpha))
	return n
}

// bandFill is a plot.Plotter that fills the band between Lo and Hi: a
// polygon out along (X, Lo) and back along (X, Hi), or for a single point
// a bar as wide as its marker.
type bandFill struct {
	x, lo, hi []float64
	color     color.Color
}

func (f bandFill) Plot(c draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&c)
	n := len(f.x)
	var pts []vg.Point
	if n == 1 {
		x, w := tx(f.x[0]), bandMarker
		lo, hi := ty(f.lo[0]), ty(f.hi[0])
		pts = []vg.Point{{X: x - w, Y: lo}, {X: x + w, Y: lo}, {X: x + w, Y: hi}, {X: x - w, Y: hi}}
	} else {
		pts = make([]vg.Point, 0, 2*n)
		for k := 0; k < n; k++ {
			pts = append(pts, vg.Point{X: tx(f.x[k]), Y: ty(f.lo[k])})
		}
		for k := n - 1; k >= 0; k-- {
			pts = append(pts, vg.Point{X: tx(f.x[k]), Y: ty(f.hi[k])})
		}
	}
	c.FillPolygon(f.color, c.ClipPolygonXY(pts))
}

func (f bandFill) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, xmax, ymin, ymax = math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for k, x := range f.x {
		xmin, xmax = math.Min(xmin, x), math.Max(xmax, x)
		ymin, ymax = math.Min(ymin, f.lo[k]), math.Max(ymax, f.hi[k])
	}
	return xmin, xmax, ymin, ymax
}

// referenceLines is a plot.Plotter that draws a horizontal line across
// the whole panel at each of its values.
type referenceLines []float64

func (r referenceLines) Plot(c draw.Canvas, p *plot.Plot) {
	_, ty := p.Transforms(&c)
	for _, v := range r {
		y := ty(v)
		c.StrokeLines(referenceStyle, c.ClipLinesY([]vg.Point{{X: c.Min.X, Y: y}, {X: c.Max.X, Y: y}})...)
	}
}

// DataRange spans the values in y and nothing in x (the infinities leave
// the x range to the bands).
func (r referenceLines) DataRange() (xmin, xmax, ymin, ymax float64) {
	ymin, ymax = math.Inf(1), math.Inf(-1)
	for _, v := range r {
		ymin, ymax = math.Min(ymin, v), math.Max(ymax, v)
	}
	return math.Inf(1), math.Inf(-1), ymin, ymax
}

// bandPlotters returns what draws band b in colour c: its fill (nil
// without Lo and Hi), which goes under every centre line, its centre line,
// or its marker (the i-th shape) if it has a single point, and the
// thumbnails of its legend entry; or an error if gonum/plot refuses the
// points (b.check refuses them first).
func bandPlotters(b Band, c color.Color, i int) (fill plot.Plotter, centre plot.Plotter, thumbs []plot.Thumbnailer, err error) {
	if b.Lo != nil {
		fc := translucent(c, bandAlpha)
		fill = bandFill{x: b.X, lo: b.Lo, hi: b.Hi, color: fc}
		thumbs = append(thumbs, swatch{fc})
	}
	xys := make(plotter.XYs, len(b.X))
	for k := range b.X {
		xys[k].X, xys[k].Y = b.X[k], b.Mean[k]
	}
	if len(xys) == 1 {
		pts, err := pointMarker(xys, c, i)
		if err != nil {
			return nil, nil, nil, badf("band %q: %v", b.Label, err)
		}
		return fill, pts, append(thumbs, pts), nil
	}
	line, err := plotter.NewLine(xys)
	if err != nil {
		return nil, nil, nil, badf("band %q: %v", b.Label, err)
	}
	line.Color = c
	line.Width = 1.5 * line.Width
	if b.Dashed {
		line.Dashes = plotutil.Dashes(1)
	}
	return fill, line, append(thumbs, line), nil
}

// bandLegend returns an empty legend in the style of the legend strips.
func bandLegend() plot.Legend {
	l := plot.NewLegend()
	l.TextStyle.Font.Size = vg.Points(10)
	l.Padding = 1.5 * vg.Millimeter
	l.Top, l.Left = true, true
	return l
}

// bandLayout is a grid of plots under an optional title, with a legend in
// a strip of fixed width to their right.
type bandLayout struct {
	title   string
	plots   [][]*plot.Plot // rows of plots; nil after the last panel
	tiles   draw.Tiles
	legend  plot.Legend
	legendW vg.Length // width of the legend strip, 0 for no legend
}

// setLegend sets the legend and the width of its strip: 2mm either side
// of the entries, or nothing if it has none.
func (l *bandLayout) setLegend(legend plot.Legend) {
	l.legend = legend
	l.legendW = 0
	if w := legend.Rectangle(draw.Canvas{}).Size().X; w > 0 {
		l.legendW = w + 4*vg.Millimeter
	}
}

// canvases returns the canvas of each plot and of the legend within c:
// the legend in a strip on the right, from the top of the first plot's
// data area down, and the plots aligned in tiles in the rest.
func (l *bandLayout) canvases(c draw.Canvas) ([][]draw.Canvas, draw.Canvas) {
	if l.title != "" {
		c.Max.Y -= titleHeight(l.title)
	}
	legend := c
	legend.Min.X = c.Max.X - l.legendW
	main := c
	main.Max.X = legend.Min.X
	out := plot.Align(l.plots, l.tiles, main)
	legend.Min.X += 2 * vg.Millimeter
	legend.Max.Y = l.plots[0][0].DataCanvas(out[0][0]).Max.Y
	return out, legend
}

func (l *bandLayout) draw(c draw.Canvas) {
	drawTitle(c, l.title)
	canvases, legend := l.canvases(c)
	for r := range l.plots {
		for j, p := range l.plots[r] {
			if p != nil {
				p.Draw(canvases[r][j])
			}
		}
	}
	if l.legendW > 0 {
		l.legend.Draw(legend)
	}
}

func (l *bandLayout) figure(w, h vg.Length) *Figure {
	return &Figure{
		Width:  w,
		Height: h,
		encode: func(format string, w, h vg.Length) ([]byte, error) { return encode(l.draw, format, w, h) },
	}
}

// Bands draws each band's centre line over a translucent fill between Lo and Hi,
// one colour per band, with a legend.
//
// The fill is the line's colour at a quarter of its opacity, and every fill
// lies under every line; a band of a single point draws a marker (over a
// bar from Lo to Hi). The legend, of the bands with a label, is in a strip
// to the right of the plot, so the figure is that much wider than
// DefaultWidth. If a band has no points, X, Mean, Lo and Hi of different
// lengths, only one of Lo and Hi, a value that is NaN or infinite, or Lo
// above Hi, the figure carries a "figures: ..." error naming the band, and
// if the bands' values are too far apart to draw (their span overflows
// float64, as from -1e308 to 1e308), one naming the axis (see Figure.Err).
func Bands(title, xLabel, yLabel string, bands ...Band) *Figure {
	l, err := newBandsLayout(title, xLabel, yLabel, bands)
	if err != nil {
		return failed(err)
	}
	return l.figure(DefaultWidth+l.legendW, DefaultHeight)
}

func newBandsLayout(title, xLabel, yLabel string, bands []Band) (*bandLayout, error) {
	for i, b := range bands {
		if err := b.check(named("band", i, b.Label)); err != nil {
			return nil, err
		}
	}
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = xLabel
	p.Y.Label.Text = yLabel
	p.Add(plotter.NewGrid())
	legend := bandLegend()
	colours := make([]int, len(bands))
	for i := range colours {
		colours[i] = i
	}
	centres, err := addBandFills(p, bands, colours, &legend, map[int]bool{})
	if err != nil {
		return nil, err
	}
	p.Add(centres...)
	if err := prepareAxes("Bands", p); err != nil {
		return nil, err
	}
	l := &bandLayout{plots: [][]*plot.Plot{{p}}, tiles: draw.Tiles{Rows: 1, Cols: 1}}
	l.setLegend(legend)
	return l, nil
}

// BandPanels lays panels out in a grid with cols columns (rows as needed),
// one shared title on top, axis labels on every panel (or on the outer edge),
// a shared y range across panels when sharedY is true.
//
// The panels fill the grid row by row; cols larger than the number of
// panels is cut down to it. The y label is on the first column and the x
// label under the last panel of each column. The y range of a panel spans
// its bands (Mean, Lo and Hi) and reference values, or with sharedY those
// of every panel; the x range is shared by all panels (the extent of every
// band's X), so that their axes line up. Bands with the same
// label have the same colour in every panel, labels numbered in the order
// they first occur (an unlabelled band takes the colour of its position in
// its panel), and one legend in a strip on the right lists the labels and,
// if any panel has one, the reference line. The figure is 6.5 cm wide per
// column and 5 cm high per row, plus the title and the legend, and at
// least as wide as its title. If there
// are no panels, cols < 1, a reference value is NaN or infinite, a band is
// malformed as for Bands, or a panel's x or y range is too far apart to
// draw (its span overflows float64), the figure carries a "figures: ..."
// error that says so, naming the panel and the band or the axis (see
// Figure.Err).
func BandPanels(title, xLabel, yLabel string, cols int, sharedY bool, panels ...Panel) *Figure {
	l, err := newBandPanelsLayout(title, xLabel, yLabel, cols, sharedY, panels)
	if err != nil {
		return failed(err)
	}
	rows, cols := len(l.plots), len(l.plots[0])
	h := vg.Length(rows) * bandPanelH
	if title != "" {
		h += titleHeight(title)
	}
	return l.figure(max(vg.Length(cols)*bandPanelW+l.legendW, titleWidth(title)), h)
}

// checkPanels returns an error if BandPanels cannot draw panels in cols
// columns.
func checkPanels(cols int, panels []Panel) error {
	if len(panels) == 0 {
		return badf("BandPanels needs at least one panel")
	}
	if cols < 1 {
		return badf("BandPanels needs at least 1 column, got cols = %d", cols)
	}
	for k, pn := range panels {
		if err := pn.check(k); err != nil {
			return err
		}
	}
	return nil
}

func newBandPanelsLayout(title, xLabel, yLabel string, cols int, sharedY bool, panels []Panel) (*bandLayout, error) {
	if err := checkPanels(cols, panels); err != nil {
		return nil, err
	}
	cols = min(cols, len(panels))
	rows := (len(panels) + cols - 1) / cols
	ranges := yRanges(panels, sharedY)
	xr := xRange(panels)
	colours := bandColours(panels)

	l := &bandLayout{title: title, plots: make([][]*plot.Plot, rows)}
	for r := range l.plots {
		l.plots[r] = make([]*plot.Plot, cols)
	}
	legend := bandLegend()
	inLegend := map[int]bool{}
	references := false
	for k, pn := range panels {
		p, err := panelPlot(pn, colours[k], &legend, inLegend)
		if err != nil {
			return nil, err
		}
		if k%cols == 0 {
			p.Y.Label.Text = yLabel
		}
		if k+cols >= len(panels) { // no panel below
			p.X.Label.Text = xLabel
		}
		references = references || len(pn.Reference) > 0
		if r := ranges[k]; r[0] <= r[1] {
			p.Y.Min, p.Y.Max = r[0], r[1]
		}
		if xr[0] <= xr[1] {
			p.X.Min, p.X.Max = xr[0], xr[1]
		}
		if err := prepareAxes(named("panel", k, pn.Title), p); err != nil {
			return nil, err
		}
		l.plots[k/cols][k%cols] = p
	}
	if references {
		legend.Add("reference", lineThumb{referenceStyle})
	}
	l.setLegend(legend)
	l.tiles = draw.Tiles{Rows: rows, Cols: cols, PadX: 4 * vg.Millimeter, PadY: 3 * vg.Millimeter,
		PadTop: 1 * vg.Millimeter, PadLeft: 1 * vg.Millimeter, PadRight: 2 * vg.Millimeter, PadBottom: 1 * vg.Millimeter}
	return l, nil
}

// panelPlot returns the plot of panel pn, without axis labels or ranges:
// its bands, band i in colour number colours[i], and its reference lines.
// It adds to legend each labelled band whose colour number is not yet in
// inLegend.
func panelPlot(pn Panel, colours []int, legend *plot.Legend, inLegend map[int]bool) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = pn.Title
	p.Title.TextStyle.Font.Size = vg.Points(10)
	p.Add(plotter.NewGrid())
	centres, err := addBandFills(p, pn.Bands, colours, legend, inLegend)
	if err != nil {
		return nil, err
	}
	if len(pn.Reference) > 0 {
		p.Add(referenceLines(pn.Reference))
	}
	p.Add(centres...)
	return p, nil
}

// addBandFills adds to p the shaded fill of each band, band i in colour
// number colours[i], and returns their centre lines for the caller to add
// on top of whatever else it draws. It adds to legend each labelled band
// whose colour number is not yet in inLegend, and records it there.
func addBandFills(p *plot.Plot, bands []Band, colours []int, legend *plot.Legend, inLegend map[int]bool) ([]plot.Plotter, error) {
	var centres []plot.Plotter
	for i, b := range bands {
		ci := colours[i]
		fill, centre, thumbs, err := bandPlotters(b, seriesColour(ci), ci)
		if err != nil {
			return nil, err
		}
		if fill != nil {
			p.Add(fill)
		}
		centres = append(centres, centre)
		if b.Label != "" && !inLegend[ci] {
			inLegend[ci] = true
			legend.Add(b.Label, thumbs...)
		}
	}
	return centres, nil
}

// xRange returns the x range [min, max] shared by every panel, so that
// their axes line up: the extent of all bands' X, or [+Inf, -Inf] if no
// band has a point.
func xRange(panels []Panel) [2]float64 {
	r := [2]float64{math.Inf(1), math.Inf(-1)}
	for _, pn := range panels {
		for _, b := range pn.Bands {
			for _, x := range b.X {
				r[0], r[1] = math.Min(r[0], x), math.Max(r[1], x)
			}
		}
	}
	return r
}

// yRanges returns the y range [min, max] of each panel: the extent of its
// bands' Mean, Lo and Hi and of its reference values, or with sharedY the
// extent over every panel. A panel without values (and with sharedY, every
// panel if no panel has values) gets [+Inf, -Inf], which leaves the range
// to the plot.
func yRanges(panels []Panel, sharedY bool) [][2]float64 {
	out := make([][2]float64, len(panels))
	all := [2]float64{math.Inf(1), math.Inf(-1)}
	for k, pn := range panels {
		r := [2]float64{math.Inf(1), math.Inf(-1)}
		grow := func(vs []float64) {
			for _, v := range vs {
				r[0], r[1] = math.Min(r[0], v), math.Max(r[1], v)
			}
		}
		for _, b := range pn.Bands {
			grow(b.Mean)
			grow(b.Lo)
			grow(b.Hi)
		}
		grow(pn.Reference)
		out[k] = r
		all[0], all[1] = math.Min(all[0], r[0]), math.Max(all[1], r[1])
	}
	if sharedY {
		for k := range out {
			out[k] = all
		}
	}
	return out
}

// bandColours returns the colour number of band i of panel k as
// colours[k][i]: labels are numbered in the order they first occur, so
// that bands with the same label share a colour, and an unlabelled band
// shares the colour of the unlabelled bands at its position in the other
// panels.
func bandColours(panels []Panel) [][]int {
	number := map[string]int{}
	out := make([][]int, len(panels))
	for k, pn := range panels {
		out[k] = make([]int, len(pn.Bands))
		for i, b := range pn.Bands {
			key := "label " + b.Label
			if b.Label == "" {
				key = "position " + strconv.Itoa(i)
			}
			n, ok := number[key]
			if !ok {
				n = len(number)
				number[key] = n
			}
			out[k][i] = n
		}
	}
	return out
}
