package figures

import (
	"image"
	"image/color"
	"math"
	"testing"

	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"

	"github.com/hetgain/hetgain/aggregators"
)

// Pixel probes of the figures built without a layout the tests can reach
// (HeatMap, Lines, SchurStrips, EffortLines, EffortStrips): where the data
// area is not known, the picture's own extent of a colour stands for it.

// colourBox returns the bounding box of the pixels of img in r near colour
// c (within tol per channel), and their number.
func colourBox(img image.Image, r image.Rectangle, c color.Color, tol int) (image.Rectangle, int) {
	var box image.Rectangle
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if near(img.At(x, y), c, tol) {
				box = box.Union(image.Rect(x, y, x+1, y+1))
				n++
			}
		}
	}
	return box, n
}

// colourAround reports whether a pixel within d of p is near colour c.
func colourAround(img image.Image, p image.Point, d int, c color.Color, tol int) bool {
	_, n := colourBox(img, image.Rect(p.X-d, p.Y-d, p.X+d+1, p.Y+d+1), c, tol)
	return n > 0
}

// boxMap returns the pixel of the data point (x, y) in box, whose left,
// right, bottom and top edges are at x0, x1, y0 and y1 in data units.
func boxMap(box image.Rectangle, x0, x1, y0, y1 float64) func(x, y float64) image.Point {
	return func(x, y float64) image.Point {
		fx, fy := (x-x0)/(x1-x0), (y-y0)/(y1-y0)
		return image.Point{
			X: box.Min.X + int(math.Round(fx*float64(box.Dx()-1))),
			Y: box.Max.Y - 1 - int(math.Round(fy*float64(box.Dy()-1))),
		}
	}
}

// widthPx returns the number of pixels of a length at 96 dpi.
func widthPx(l vg.Length) int { return int(math.Round(l.Dots(96))) }

// TestHeatMapCellAtItsPoint draws a 4x3 grid of zeros with a single 1 at
// (X[3], Y[0]), the bottom right cell. The map spans the cells, so the
// extent of its two colours (the palette's first and last) is the data
// area: the top colour fills the bottom right cell, and the opposite
// corner, the top left cell, is in the bottom colour.
func TestHeatMapCellAtItsPoint(t *testing.T) {
	g := Grid{X: []float64{0, 1, 2, 3}, Y: []float64{0, 1, 2}, Z: [][]float64{{0, 0, 0, 1}, {0, 0, 0, 0}, {0, 0, 0, 0}}}
	f := HeatMap("", "x", "y", "z", g)
	img := decode(t, f)
	cmap := moreland.SmoothBlueRed()
	cmap.SetMin(0)
	cmap.SetMax(1)
	pal := cmap.Palette(255).Colors()
	cold, hot := pal[0], pal[len(pal)-1]
	// The main plot, left of the colour bar (which holds both colours too).
	main := img.Bounds()
	main.Max.X = widthPx(f.Width * 5 / 6)
	coldBox, _ := colourBox(img, main, cold, 3)
	hotBox, n := colourBox(img, main, hot, 3)
	if n == 0 {
		t.Fatalf("no pixel of the top colour %v in the map", hot)
	}
	at := boxMap(coldBox.Union(hotBox), -0.5, 3.5, -0.5, 2.5)
	for _, c := range []struct {
		name string
		x, y float64
		want color.Color
	}{
		{"the hot cell (3, 0)", 3, 0, hot},
		{"the opposite corner (0, 2)", 0, 2, cold},
		{"the cell (2, 0)", 2, 0, cold},
		{"the cell (3, 1)", 3, 1, cold},
	} {
		if p := at(c.x, c.y); !near(img.At(p.X, p.Y), c.want, 3) {
			t.Errorf("%s: pixel %v is %v, want %v", c.name, p, img.At(p.X, p.Y), color.RGBAModel.Convert(c.want))
		}
	}
}

// TestLinesDrawsXAgainstY draws one unnamed line (no legend) from (0, 0)
// right to (3, 0) and up to (3, 30). It spans the data area, so the extent
// of its colour is that area, with x in [0, 3] and y in [0, 30]: the
// line is along its bottom and right edges, and not along the top or the
// left, where the line with x and y swapped would be.
func TestLinesDrawsXAgainstY(t *testing.T) {
	img := decode(t, Lines("", "x", "y", Series{X: []float64{0, 3, 3}, Y: []float64{0, 0, 30}}))
	col := plotutil.Color(0)
	box, n := colourBox(img, img.Bounds(), col, 40)
	if n == 0 {
		t.Fatalf("no pixel of the line colour %v", col)
	}
	at := boxMap(box, 0, 3, 0, 30)
	for _, c := range []struct {
		name  string
		x, y  float64
		drawn bool
	}{
		{"bottom edge", 1.5, 0, true},
		{"right edge", 3, 15, true},
		{"left edge", 0, 15, false},
		{"top edge", 1.5, 30, false},
		{"centre", 1.5, 15, false},
	} {
		if got := colourAround(img, at(c.x, c.y), 2, col, 40); got != c.drawn {
			t.Errorf("%s: line colour near (%v, %v), pixel %v: %v, want %v", c.name, c.x, c.y, at(c.x, c.y), got, c.drawn)
		}
	}
}

// TestSchurStripsBesideTheirLabels draws two rows of one class each: the
// first, strictly convex, with a long name, the second, strictly concave,
// with a short one. The first row is on top, and its strip is level with
// its label: left of the strips, the row of the strictly convex strip has
// more dark (text) pixels than that of the strictly concave one.
func TestSchurStripsBesideTheirLabels(t *testing.T) {
	ps := []float64{0, 1, 2}
	first := ClassRow{Name: "a rather long first name", Params: ps, Classes: []aggregators.SchurClass{aggregators.StrictlyConvex, aggregators.StrictlyConvex, aggregators.StrictlyConvex}}
	second := ClassRow{Name: "b", Params: ps, Classes: []aggregators.SchurClass{aggregators.StrictlyConcave, aggregators.StrictlyConcave, aggregators.StrictlyConcave}}
	f := SchurStrips("", "t", first, second)
	img := decode(t, f)
	// The strips, left of the legend (which has swatches of both colours).
	main := img.Bounds()
	main.Max.X = widthPx(f.Width * 3 / 4)
	convex, n1 := colourBox(img, main, ClassColors[aggregators.StrictlyConvex], 3)
	concave, n2 := colourBox(img, main, ClassColors[aggregators.StrictlyConcave], 3)
	if n1 == 0 || n2 == 0 {
		t.Fatalf("%d pixels of the strictly convex colour and %d of the strictly concave one, want strips of both", n1, n2)
	}
	if convex.Max.Y > concave.Min.Y {
		t.Errorf("the first row's strip %v is not above the second's %v", convex, concave)
	}
	// Dark pixels left of the strips, clear of the tick marks, level with
	// the middle of a strip.
	labelInk := func(strip image.Rectangle) int {
		my := (strip.Min.Y + strip.Max.Y) / 2
		r := image.Rect(0, my-5, strip.Min.X-12, my+6)
		_, n := colourBox(img, r, color.Black, 120)
		return n
	}
	if long, short := labelInk(convex), labelInk(concave); long <= 2*short {
		t.Errorf("left of the first row's strip %d dark pixels, of the second's %d: want the long name level with the first row's strip", long, short)
	}
}

// effortsOnOneTask returns an episode of 2 agents and 3 tasks in which
// agent 0's effort on task 1 rises from 0.1 to 1 over steps 1 to 10 and
// every other effort is 0 (record 0 is the reset, at step 0).
func effortsOnOneTask() Efforts {
	e := Efforts{Agents: 2, Tasks: 3}
	for k := 0; k <= 10; k++ {
		m := make([]float64, 6)
		m[0*3+1] = float64(k) / 10
		e.Steps, e.Matrices = append(e.Steps, k), append(e.Matrices, m)
	}
	return e
}

// TestEffortLinesPerTask draws effortsOnOneTask (N = 2 agents, M = 3 tasks,
// so that swapping them misplaces efforts): one panel per task, in thirds
// of the width left of the legend (less a margin, where a marker of the
// panel to the left may reach). Only agent 0's line in task 1's panel
// rises; every other line is flat at 0, a band a few pixels high.
func TestEffortLinesPerTask(t *testing.T) {
	f := EffortLines("", effortsOnOneTask())
	img := decode(t, f)
	panelW := widthPx(f.Width-effortLegend) / 3
	for j := 0; j < 3; j++ {
		col := image.Rect(j*panelW+8, 0, (j+1)*panelW-8, img.Bounds().Max.Y)
		for i := 0; i < 2; i++ {
			box, n := colourBox(img, col, agentColor(i), 40)
			if n == 0 {
				t.Errorf("task %d: no pixel of agent %d's colour", j, i)
				continue
			}
			rises := box.Dy() > img.Bounds().Dy()/3
			if want := i == 0 && j == 1; rises != want {
				t.Errorf("task %d: agent %d's colour spans %d of %d pixels in height: rising %v, want %v", j, i, box.Dy(), img.Bounds().Dy(), rises, want)
			}
		}
	}
}

// TestEffortStripsPerTask draws effortsOnOneTask as strips: cells in agent
// 0's colour (its effort is 1 at step 10, and shades of it before) in task
// 1's panel only, a third of the width, and none in agent 1's colour.
func TestEffortStripsPerTask(t *testing.T) {
	f := EffortStrips("", effortsOnOneTask())
	img := decode(t, f)
	panelW := img.Bounds().Dx() / 3
	for j := 0; j < 3; j++ {
		col := image.Rect(j*panelW, 0, (j+1)*panelW, img.Bounds().Max.Y)
		for i := 0; i < 2; i++ {
			_, n := colourBox(img, col, agentColor(i), 3)
			if want := i == 0 && j == 1; (n > 20) != want {
				t.Errorf("task %d: %d pixels of agent %d's full colour, want cells of it: %v", j, n, i, want)
			}
		}
	}
}

// TestBandsCentreLineRuns draws a band without Lo and Hi, its centre line
// rising from (0, 0) to (10, 5): the line colour is near (1, 0.5) and
// (9, 4.5), on it, and not near (1, 4.5) and (9, 0.5), where the line
// falling the other way would be.
func TestBandsCentreLineRuns(t *testing.T) {
	b := sampleBand("", 10, 0.5, 0)
	b.Lo, b.Hi = nil, nil
	l := bandsLayout(t, "", "x", "y", []Band{b})
	f := l.figure(DefaultWidth+l.legendW, DefaultHeight)
	img := decode(t, f)
	_, at := dataArea(l, f.Width, f.Height, 0, 0)
	col := plotutil.Color(0)
	for _, c := range []struct {
		x, y  float64
		drawn bool
	}{{1, 0.5, true}, {9, 4.5, true}, {1, 4.5, false}, {9, 0.5, false}} {
		if got := colourAround(img, at(c.x, c.y), 2, col, 40); got != c.drawn {
			t.Errorf("line colour near (%v, %v), pixel %v: %v, want %v", c.x, c.y, at(c.x, c.y), got, c.drawn)
		}
	}
}
