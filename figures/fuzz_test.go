package figures

import (
	"bytes"
	"errors"
	"image/png"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The fuzz targets check the constructors' contract on any data: a
// constructor does not panic, and the figure it returns either carries a
// "figures: ..." error that wraps ErrData, or encodes as png at its size
// into an image, without an error, a panic, or a hang. Each builds its
// input from a few fuzzed float64s and small ints (1 to 4 points), so that
// an execution takes milliseconds. Run one with, say,
//
//	go test ./figures -run XXX -fuzz '^FuzzLines$' -fuzztime 3m -parallel 1
//
// Without -fuzz, go test runs the seeds: normal data, NaN, ±Inf, spans of
// 2e308, equal values, subnormals, and values a few ulps apart near 1e300.

// fuzzTimeout is how long a fuzzed figure may take to encode before the
// target fails: a tiny figure takes milliseconds, a hang forever.
const fuzzTimeout = 10 * time.Second

// Values for the seeds.
var (
	nan      = math.NaN()
	inf      = math.Inf(1)
	big      = 1e300
	bigUlps  = 1e300 * (1 + 1e-15) // a few ulps above big
	tiny     = 5e-324              // the smallest subnormal
	maxFloat = math.MaxFloat64
	// halfInt squared overflows int to 0: 2^32 on 64-bit platforms.
	halfInt = 1 << (strconv.IntSize / 2)
	// Values whose axis hung gonum/plot's tick labelling: 2^53, as a
	// single point, and narrow, a float and the next one.
	p53    = math.Ldexp(1, 53)
	narrow = 2.7021597764222977e11
	next   = math.Nextafter(narrow, math.Inf(1))
)

// checkContract checks the constructors' contract on the figure that mk
// makes (see the comment at the top of this file).
func checkContract(t *testing.T, mk func() *Figure) {
	t.Helper()
	f, panicked := construct(mk)
	if panicked != nil {
		t.Fatalf("the constructor panicked: %v", panicked)
	}
	if err := f.Err(); err != nil {
		if !strings.HasPrefix(err.Error(), "figures: ") || !errors.Is(err, ErrData) {
			t.Fatalf("Err() = %v, want a \"figures: ...\" error that wraps ErrData", err)
		}
		return
	}
	out := encodeWithinFor(f, "png", fuzzTimeout)
	switch {
	case out.timedOut:
		t.Fatalf("Encode did not return within %v", fuzzTimeout)
	case out.panicked != nil:
		t.Fatalf("Encode panicked: %v", out.panicked)
	case out.err != nil:
		t.Fatalf("Err() is nil, but Encode returned %v", out.err)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(out.b))
	if err != nil || cfg.Width == 0 || cfg.Height == 0 {
		t.Fatalf("Encode returned %d bytes that are not a png image (%dx%d, %v)", len(out.b), cfg.Width, cfg.Height, err)
	}
}

// FuzzLines draws series "a" of n%5 points (x0..x3, y0..y3). Flags: 1
// points, 2 a second series "b" with x and y swapped, 4 n/5%5 y values
// instead of as many as x, 8 dashed.
func FuzzLines(f *testing.F) {
	for _, s := range []struct {
		xy       [8]float64
		n, flags uint8
	}{
		{[8]float64{0, 1, 2, 3, 0, 1, 4, 9}, 4, 3},
		{[8]float64{0, 1, 2, 3, 0, nan, 4, 9}, 4, 1},
		{[8]float64{0, 1, 2, -inf, 0, 1, 4, 9}, 4, 1},
		{[8]float64{0, 1, 2, 3, 0, 1, 4, inf}, 4, 1},
		{[8]float64{-1e308, 1e308, 0, 0, 0, 1, 0, 0}, 2, 1},
		{[8]float64{0, 1, 0, 0, -1e308, 1e308, 0, 0}, 2, 1},
		{[8]float64{-8e307, 8e307, 0, 0, 0, maxFloat, 0, 0}, 2, 1},
		{[8]float64{1, 1, 1, 1, 1, 1, 1, 1}, 4, 3},
		{[8]float64{2, 0, 0, 0, 2, 0, 0, 0}, 1, 1},
		{[8]float64{0, tiny, 2 * tiny, 0, tiny, 0, tiny, 0}, 3, 3},
		{[8]float64{big, bigUlps, big, 0, bigUlps, big, big, 0}, 3, 3},
		{[8]float64{big, big, 0, 0, big, big, 0, 0}, 2, 3},
		{[8]float64{maxFloat, maxFloat, 0, 0, -maxFloat, -maxFloat, 0, 0}, 2, 1},
		{[8]float64{1e17, 0, 0, 0, 1e17, 0, 0, 0}, 1, 0},
		{[8]float64{0, 0, 0, 0, p53, 0, 0, 0}, 1, 0},
		{[8]float64{narrow, next, 0, 0, 0, 1, 0, 0}, 2, 0},
		{[8]float64{0, 1, 2, 3, 0, 1, 4, 9}, 4 + 5*2, 4}, // 4 x, 2 y
		{[8]float64{}, 0, 0},
	} {
		f.Add(s.xy[0], s.xy[1], s.xy[2], s.xy[3], s.xy[4], s.xy[5], s.xy[6], s.xy[7], s.n, s.flags)
	}
	f.Fuzz(func(t *testing.T, x0, x1, x2, x3, y0, y1, y2, y3 float64, n, flags uint8) {
		x := []float64{x0, x1, x2, x3}[:n%5]
		ny := len(x)
		if flags&4 != 0 {
			ny = int(n / 5 % 5)
		}
		y := []float64{y0, y1, y2, y3}[:ny]
		series := []Series{{Name: "a", X: x, Y: y, Points: flags&1 != 0, Dashed: flags&8 != 0}}
		if flags&2 != 0 {
			series = append(series, Series{Name: "b", X: y, Y: x, Points: true})
		}
		checkContract(t, func() *Figure { return Lines("t", "x", "y", series...) })
	})
}

// FuzzHeatMap draws a grid of 1+shape%3 x values (x0..x2) by
// 1+shape/3%3 y values (y0..y2) whose cells take z0..z3 in turn. Shape
// bits: 64 drops the last row, 128 the last value of the first row.
func FuzzHeatMap(f *testing.F) {
	for _, s := range []struct {
		xy    [6]float64
		z     [4]float64
		shape uint8
	}{
		{[6]float64{0, 1, 2, 0, 1, 2}, [4]float64{0, 1, 2, 3}, 8},
		{[6]float64{0, 1, 2, 0, 1, 2}, [4]float64{0, nan, 2, 3}, 8},
		{[6]float64{0, 1, 2, 0, 1, 2}, [4]float64{0, inf, 2, 3}, 8},
		{[6]float64{0, nan, 2, 0, 1, 2}, [4]float64{0, 1, 2, 3}, 8},
		{[6]float64{0, 1, 2, -inf, 1, 2}, [4]float64{0, 1, 2, 3}, 8},
		{[6]float64{0, 1, 2, 0, 1, 2}, [4]float64{nan, nan, nan, nan}, 4},
		{[6]float64{0, 1, 2, 0, 1, 2}, [4]float64{-1e308, 1e308, 0, 0}, 4},
		{[6]float64{-1e308, 1e308, 0, 0, 1, 2}, [4]float64{0, 1, 2, 3}, 4},
		{[6]float64{0, 1, 2, 1e308, 1.7e308, 0}, [4]float64{0, 1, 2, 3}, 4},
		{[6]float64{0, 1, 2, 0, 1, 2}, [4]float64{1, 1, 1, 1}, 8},
		{[6]float64{1, 1, 2, 0, 0, 2}, [4]float64{1, 2, 3, 4}, 4},
		{[6]float64{0, tiny, 2 * tiny, 0, tiny, 0}, [4]float64{0, tiny, 2 * tiny, 0}, 8},
		{[6]float64{big, bigUlps, 0, bigUlps, big, 0}, [4]float64{big, bigUlps, big, big}, 4},
		{[6]float64{big, big, 0, -big, -big, 0}, [4]float64{0, 1, 2, 3}, 4},
		{[6]float64{0, 1, 2, 0, 1, 2}, [4]float64{narrow, next, next, narrow}, 4},
		{[6]float64{0, 1, 2, 0, 1, 2}, [4]float64{maxFloat, maxFloat, maxFloat, maxFloat}, 4},
		{[6]float64{0, 1, 2, 0, 1, 2}, [4]float64{0, 1, 2, 3}, 8 + 64 + 128},
		{[6]float64{0, 1, 2, 0, 1, 2}, [4]float64{0, 1, 2, 3}, 0},
	} {
		f.Add(s.xy[0], s.xy[1], s.xy[2], s.xy[3], s.xy[4], s.xy[5], s.z[0], s.z[1], s.z[2], s.z[3], s.shape)
	}
	f.Fuzz(func(t *testing.T, x0, x1, x2, y0, y1, y2, z0, z1, z2, z3 float64, shape uint8) {
		g := Grid{X: []float64{x0, x1, x2}[:1+shape%3], Y: []float64{y0, y1, y2}[:1+shape/3%3]}
		z := []float64{z0, z1, z2, z3}
		for r := range g.Y {
			row := make([]float64, len(g.X))
			for c := range row {
				row[c] = z[(r*len(g.X)+c)%len(z)]
			}
			g.Z = append(g.Z, row)
		}
		if shape&64 != 0 {
			g.Z = g.Z[:len(g.Z)-1]
		}
		if shape&128 != 0 && len(g.Z) > 0 {
			g.Z[0] = g.Z[0][:len(g.Z[0])-1]
		}
		checkContract(t, func() *Figure { return HeatMap("t", "x", "y", "z", g) })
	})
}

// fuzzBands returns band "a" of n%4 points (x, mean, lo, hi) and, with
// flags&2, band "b" of one point at (m0, x0). Flags: 1 no Lo and Hi,
// 4 dashed, 8 n/4%4 means instead of as many as x.
func fuzzBands(x, mean, lo, hi [3]float64, n, flags uint8) []Band {
	k := int(n % 4)
	a := Band{Label: "a", X: x[:k], Mean: mean[:k], Dashed: flags&4 != 0}
	if flags&8 != 0 {
		a.Mean = mean[:n/4%4]
	}
	if flags&1 == 0 {
		a.Lo, a.Hi = lo[:k], hi[:k]
	}
	bands := []Band{a}
	if flags&2 != 0 {
		bands = append(bands, Band{Label: "b", X: []float64{mean[0]}, Mean: []float64{x[0]}})
	}
	return bands
}

// bandSeeds are the seeds of FuzzBands and FuzzBandPanels: x, mean, lo,
// hi, n and flags as fuzzBands takes them.
var bandSeeds = []struct {
	x, mean, lo, hi [3]float64
	n, flags        uint8
}{
	{[3]float64{0, 1, 2}, [3]float64{0, 1, 4}, [3]float64{-1, 0, 3}, [3]float64{1, 2, 5}, 3, 2},
	{[3]float64{0, 1, 2}, [3]float64{0, nan, 4}, [3]float64{-1, 0, 3}, [3]float64{1, 2, 5}, 3, 0},
	{[3]float64{0, 1, 2}, [3]float64{0, 1, 4}, [3]float64{-inf, 0, 3}, [3]float64{1, 2, 5}, 3, 0},
	{[3]float64{0, 1, inf}, [3]float64{0, 1, 4}, [3]float64{-1, 0, 3}, [3]float64{1, 2, 5}, 3, 1},
	{[3]float64{0, 1, 2}, [3]float64{0, 1, 4}, [3]float64{-1, 0, 3}, [3]float64{1, -2, 5}, 3, 0},
	{[3]float64{0, 1, 2}, [3]float64{-1e308, 1e308, 0}, [3]float64{}, [3]float64{}, 2, 1},
	{[3]float64{-1e308, 0, 0}, [3]float64{1e308, 0, 0}, [3]float64{0, 0, 0}, [3]float64{0, 0, 0}, 1, 2},
	{[3]float64{1, 1, 1}, [3]float64{1, 1, 1}, [3]float64{1, 1, 1}, [3]float64{1, 1, 1}, 3, 2},
	{[3]float64{2, 0, 0}, [3]float64{3, 0, 0}, [3]float64{3, 0, 0}, [3]float64{3, 0, 0}, 1, 0},
	{[3]float64{0, tiny, 2 * tiny}, [3]float64{tiny, 0, tiny}, [3]float64{0, 0, 0}, [3]float64{tiny, tiny, tiny}, 3, 2},
	{[3]float64{big, bigUlps, big}, [3]float64{bigUlps, big, big}, [3]float64{big, big, big}, [3]float64{bigUlps, bigUlps, bigUlps}, 3, 2},
	{[3]float64{big, 0, 0}, [3]float64{big, 0, 0}, [3]float64{big, 0, 0}, [3]float64{big, 0, 0}, 1, 0},
	{[3]float64{0, 0, 0}, [3]float64{p53, 0, 0}, [3]float64{p53, 0, 0}, [3]float64{p53, 0, 0}, 1, 0},
	{[3]float64{-maxFloat, 0, 0}, [3]float64{maxFloat, 0, 0}, [3]float64{maxFloat, 0, 0}, [3]float64{maxFloat, 0, 0}, 1, 0},
	{[3]float64{0, 1, 2}, [3]float64{0, 1, 4}, [3]float64{-1, 0, 3}, [3]float64{1, 2, 5}, 3 + 4*2, 8},
	{[3]float64{}, [3]float64{}, [3]float64{}, [3]float64{}, 0, 0},
}

// FuzzBands draws the bands of fuzzBands.
func FuzzBands(f *testing.F) {
	for _, s := range bandSeeds {
		f.Add(s.x[0], s.x[1], s.x[2], s.mean[0], s.mean[1], s.mean[2], s.lo[0], s.lo[1], s.lo[2], s.hi[0], s.hi[1], s.hi[2], s.n, s.flags)
	}
	f.Fuzz(func(t *testing.T, x0, x1, x2, m0, m1, m2, lo0, lo1, lo2, hi0, hi1, hi2 float64, n, flags uint8) {
		bands := fuzzBands([3]float64{x0, x1, x2}, [3]float64{m0, m1, m2}, [3]float64{lo0, lo1, lo2}, [3]float64{hi0, hi1, hi2}, n, flags)
		checkContract(t, func() *Figure { return Bands("t", "x", "y", bands...) })
	})
}

// FuzzBandPanels draws the bands of fuzzBands in two panels, the first
// with band "a" and a reference line at ref, the second with the rest, in
// cols columns. Flags beyond fuzzBands': 16 no reference line, 32 sharedY.
func FuzzBandPanels(f *testing.F) {
	for _, s := range bandSeeds {
		f.Add(s.x[0], s.x[1], s.x[2], s.mean[0], s.mean[1], s.mean[2], s.lo[0], s.lo[1], s.lo[2], s.hi[0], s.hi[1], s.hi[2], s.hi[0], s.n, s.flags|32, int8(2))
	}
	f.Add(0.0, 1.0, 2.0, 0.0, 1.0, 4.0, -1.0, 0.0, 3.0, 1.0, 2.0, 5.0, nan, uint8(3), uint8(2), int8(1))
	f.Add(0.0, 1.0, 2.0, 0.0, 1.0, 4.0, -1.0, 0.0, 3.0, 1.0, 2.0, 5.0, 1e308, uint8(3), uint8(2), int8(0))
	f.Add(0.0, 1.0, 2.0, 0.0, 1.0, 4.0, -1.0, 0.0, 3.0, 1.0, 2.0, 5.0, -1e308, uint8(3), uint8(2+32), int8(1))
	// Found by fuzzing: y from 37 to 1e308 shared with an empty panel,
	// whose tick labels of 309 digits made the layout NaN (a hang).
	f.Add(0.0, 1.0, 0.0, 37.0, 1e308, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, uint8(2), uint8(1+16+32), int8(2))
	f.Fuzz(func(t *testing.T, x0, x1, x2, m0, m1, m2, lo0, lo1, lo2, hi0, hi1, hi2, ref float64, n, flags uint8, cols int8) {
		bands := fuzzBands([3]float64{x0, x1, x2}, [3]float64{m0, m1, m2}, [3]float64{lo0, lo1, lo2}, [3]float64{hi0, hi1, hi2}, n, flags)
		panels := []Panel{{Title: "p", Bands: bands[:1]}, {Bands: bands[1:]}}
		if flags&16 == 0 {
			panels[0].Reference = []float64{ref}
		}
		checkContract(t, func() *Figure { return BandPanels("t", "x", "y", int(cols), flags&32 != 0, panels...) })
	})
}

// FuzzIntervals draws series "s" of intervals (v0, lo0, hi0) and (v1,
// lo1, hi1) over n%3 categories. Flags: 1 a second series "r" with the
// intervals in reverse order, 2 a reference line at ref, 4 n/3%3
// intervals instead of one per category.
func FuzzIntervals(f *testing.F) {
	for _, s := range []struct {
		iv       [7]float64
		n, flags uint8
	}{
		{[7]float64{1, 0, 2, 3, 2.5, 4, 0}, 2, 3},
		{[7]float64{nan, 0, 2, 3, nan, nan, 0}, 2, 3},
		{[7]float64{1, nan, 2, 3, 2.5, 4, nan}, 2, 3},
		{[7]float64{inf, 0, inf, 3, 2.5, 4, 0}, 2, 1},
		{[7]float64{1, -inf, 2, 3, 2.5, 4, 0}, 2, 1},
		{[7]float64{1, 0, 2, 3, 2.5, 4, inf}, 2, 3},
		{[7]float64{1, 2, 0, 3, 2.5, 4, 0}, 2, 1},
		{[7]float64{0, -1e308, 1e308, 0, 0, 0, 0}, 1, 0},
		{[7]float64{0, 0, 0, 1.7e308, 1.7e308, 1.7e308, 0}, 2, 0},
		{[7]float64{0, 0, 0, 0, 0, 0, 0}, 2, 3},
		{[7]float64{1, 1, 1, 1, 1, 1, 1}, 1, 2},
		{[7]float64{tiny, 0, 2 * tiny, 0, 0, tiny, tiny}, 2, 3},
		{[7]float64{big, big, bigUlps, bigUlps, big, bigUlps, big}, 2, 3},
		{[7]float64{big, big, big, big, big, big, big}, 2, 3},
		{[7]float64{narrow, narrow, next, 0, 0, 0, 0}, 1, 0},
		{[7]float64{maxFloat, maxFloat, maxFloat, -maxFloat, -maxFloat, -maxFloat, 0}, 2, 0},
		{[7]float64{1, 0, 2, 3, 2.5, 4, 0}, 2 + 3*1, 4},
		{[7]float64{}, 0, 0},
	} {
		f.Add(s.iv[0], s.iv[1], s.iv[2], s.iv[3], s.iv[4], s.iv[5], s.iv[6], s.n, s.flags)
	}
	f.Fuzz(func(t *testing.T, v0, lo0, hi0, v1, lo1, hi1, ref float64, n, flags uint8) {
		categories := []string{"a", "b"}[:n%3]
		ivs := []Interval{{v0, lo0, hi0}, {v1, lo1, hi1}}
		pts := ivs[:len(categories)]
		if flags&4 != 0 {
			pts = ivs[:n/3%3]
		}
		series := []IntervalSeries{{Name: "s", Points: pts}}
		if flags&1 != 0 {
			rev := make([]Interval, len(pts))
			for k := range pts {
				rev[len(pts)-1-k] = pts[k]
			}
			series = append(series, IntervalSeries{Name: "r", Points: rev})
		}
		var refs []float64
		if flags&2 != 0 {
			refs = []float64{ref}
		}
		checkContract(t, func() *Figure { return Intervals("t", "y", categories, refs, series...) })
	})
}

// fuzzEfforts returns flat matrices of n efforts, taking e in turn from
// offset; n outside 0..16 (as from agents*tasks overflowing) gives 4.
func fuzzEfforts(e []float64, n, offset int) []float64 {
	if n < 0 || n > 16 {
		n = 4
	}
	m := make([]float64, n)
	for c := range m {
		m[c] = e[(offset+c)%len(e)]
	}
	return m
}

// FuzzAllocations draws an effort matrix of agents x tasks that takes
// e0..e3 in turn, and with flags&1 a second one that starts at e1, in
// cols columns. Flags: 2 drops the first matrix's last effort.
func FuzzAllocations(f *testing.F) {
	for _, s := range []struct {
		e                   [4]float64
		agents, tasks, cols int
		flags               uint8
	}{
		{[4]float64{0, 0.5, 1, 0.25}, 2, 2, 2, 1},
		{[4]float64{0, nan, 1, 0.25}, 2, 2, 1, 0},
		{[4]float64{0, inf, 1, 0.25}, 2, 2, 1, 0},
		{[4]float64{0, -1, 1, 0.25}, 2, 2, 1, 0},
		{[4]float64{1e308, 1e308, maxFloat, 0}, 2, 2, 1, 1},
		{[4]float64{1, 1, 1, 1}, 1, 1, 1, 0},
		{[4]float64{tiny, 0, 2 * tiny, tiny}, 2, 2, 2, 1},
		{[4]float64{big, bigUlps, big, big}, 1, 3, 1, 0},
		{[4]float64{0, 0.5, 1, 0.25}, 0, 2, 1, 0},
		{[4]float64{0, 0.5, 1, 0.25}, 2, 2, 0, 0},
		{[4]float64{0, 0.5, 1, 0.25}, 2, 2, 1, 2},
		{[4]float64{0, 0.5, 1, 0.25}, halfInt, halfInt, 1, 0}, // agents*tasks overflows to 0
	} {
		f.Add(s.e[0], s.e[1], s.e[2], s.e[3], s.agents, s.tasks, s.cols, s.flags)
	}
	f.Fuzz(func(t *testing.T, e0, e1, e2, e3 float64, agents, tasks, cols int, flags uint8) {
		e := []float64{e0, e1, e2, e3}
		a := Allocation{Title: "a", Agents: agents, Tasks: tasks, Effort: fuzzEfforts(e, agents*tasks, 0)}
		if flags&2 != 0 && len(a.Effort) > 0 {
			a.Effort = a.Effort[:len(a.Effort)-1]
		}
		panels := []Allocation{a}
		if flags&1 != 0 {
			panels = append(panels, Allocation{Agents: agents, Tasks: tasks, Effort: fuzzEfforts(e, agents*tasks, 1)})
		}
		checkContract(t, func() *Figure { return Allocations("t", cols, panels...) })
	})
}

// FuzzEffortStrips draws, with EffortStrips or with flags&1 EffortLines,
// an episode of agents x tasks efforts at steps s0, s1, s2 (the first
// 1+flags/2%3 of them), record k taking e0..e3 in turn from ek.
func FuzzEffortStrips(f *testing.F) {
	for _, s := range []struct {
		e             [4]float64
		steps         [3]int
		agents, tasks int
		flags         uint8
	}{
		{[4]float64{0, 0.5, 1, 0.25}, [3]int{0, 1, 2}, 2, 2, 4},
		{[4]float64{0, 0.5, 1, 0.25}, [3]int{0, 1, 2}, 2, 2, 4 + 1},
		{[4]float64{0, nan, 1, 0.25}, [3]int{0, 1, 2}, 2, 2, 4},
		{[4]float64{0, -inf, 1, 0.25}, [3]int{0, 1, 2}, 2, 2, 4 + 1},
		{[4]float64{-1e308, 1e308, 0, 0}, [3]int{0, 1, 2}, 2, 2, 4 + 1},
		{[4]float64{maxFloat, maxFloat, 0, 0}, [3]int{0, 1, 2}, 2, 2, 4},
		{[4]float64{1, 1, 1, 1}, [3]int{1, 1, 1}, 2, 2, 4},
		{[4]float64{1, 1, 1, 1}, [3]int{1, 1, 1}, 2, 2, 4 + 1},
		{[4]float64{tiny, 0, 2 * tiny, -tiny}, [3]int{0, 1, 2}, 2, 2, 4 + 1},
		{[4]float64{big, bigUlps, big, big}, [3]int{0, 1, 2}, 2, 2, 4},
		{[4]float64{big, bigUlps, big, big}, [3]int{0, 1, 2}, 2, 2, 4 + 1},
		{[4]float64{0, 0.5, 1, 0.25}, [3]int{math.MinInt, math.MaxInt, 0}, 1, 1, 2},
		{[4]float64{0, 0.5, 1, 0.25}, [3]int{math.MaxInt, 0, 0}, 1, 1, 0},
		{[4]float64{0, 0.5, 1, 0.25}, [3]int{math.MaxInt, 0, 0}, 1, 1, 1},
		{[4]float64{0, 0.5, 1, 0.25}, [3]int{0, 0, 0}, 2, 2, 4},
		{[4]float64{0, 0.5, 1, 0.25}, [3]int{0, 1, 2}, 0, 2, 4},
		{[4]float64{0, 0.5, 1, 0.25}, [3]int{0, 1, 2}, halfInt, halfInt, 4},     // agents*tasks overflows to 0
		{[4]float64{0, 0.5, 1, 0.25}, [3]int{0, 1, 2}, halfInt, halfInt, 4 + 1}, // in EffortLines
	} {
		f.Add(s.e[0], s.e[1], s.e[2], s.e[3], s.steps[0], s.steps[1], s.steps[2], s.agents, s.tasks, s.flags)
	}
	f.Fuzz(func(t *testing.T, e0, e1, e2, e3 float64, s0, s1, s2, agents, tasks int, flags uint8) {
		e := []float64{e0, e1, e2, e3}
		ep := Efforts{Title: "ep", Agents: agents, Tasks: tasks, Steps: []int{s0, s1, s2}[:1+flags/2%3]}
		for k := range ep.Steps {
			ep.Matrices = append(ep.Matrices, fuzzEfforts(e, agents*tasks, k))
		}
		if flags&1 != 0 {
			checkContract(t, func() *Figure { return EffortLines("t", ep) })
		} else {
			checkContract(t, func() *Figure { return EffortStrips("t", ep) })
		}
	})
}

// FuzzSlopes draws the pairs (a0, b0) and (a1, b1) in one category, or
// with flags&1 in two, one pair each; flags&2 adds a reference line at
// ref, and flags&4 drops b1, so that the lengths differ. With flags&8 it
// draws them with SlopesAsinh, whose linear width is ref.
func FuzzSlopes(f *testing.F) {
	for _, s := range [][5]float64{
		{0, 1, 2, 2, 0}, {nan, 1, 2, nan, 0}, {inf, 0, 1, 2, 0}, {0, 0, 0, 0, inf},
		{-1.7e308, 1.7e308, 0, 0, 0}, {tiny, 0, 2 * tiny, tiny, tiny}, {big, bigUlps, big, big, big},
		{maxFloat, -maxFloat, 0, 0, 0}, {narrow, next, narrow, narrow, 0},
	} {
		for flags := uint8(0); flags < 16; flags++ {
			f.Add(s[0], s[1], s[2], s[3], s[4], flags)
		}
	}
	f.Add(-1e300, 1e300, 0.5, 0.5, 1e-300, uint8(8)) // asinh: a tiny linear width
	f.Add(1.0, 2.0, 3.0, 4.0, 0.0, uint8(8))         // asinh: a bad one
	f.Fuzz(func(t *testing.T, a0, b0, a1, b1, ref float64, flags uint8) {
		cats := []string{"a"}
		sets := []PairedValues{{A: []float64{a0, a1}, B: []float64{b0, b1}}}
		if flags&1 != 0 {
			cats = []string{"a", "b"}
			sets = []PairedValues{{A: []float64{a0}, B: []float64{b0}}, {A: []float64{a1}, B: []float64{b1}}}
		}
		if flags&4 != 0 {
			last := &sets[len(sets)-1]
			last.B = last.B[:len(last.B)-1]
		}
		var refs []float64
		if flags&2 != 0 {
			refs = []float64{ref}
		}
		if flags&8 != 0 {
			checkContract(t, func() *Figure { return SlopesAsinh("t", "y", "A", "B", cats, refs, ref, sets...) })
			return
		}
		checkContract(t, func() *Figure { return Slopes("t", "y", "A", "B", cats, refs, sets...) })
	})
}

// FuzzEpisode draws one panel of two agents and one task over up to three
// records built from p0..p3 (agent 0 at (p0, p1), agent 1 at (p2, p3), the
// task at (p1, p2), each record shifted by step·k), with r as the radii,
// the obstacle's radius, MaxStep and Offset as flags choose. Flags: 1
// velocities (the positions again), 2 arrows every record, 4 an obstacle
// at the origin of radius r, 8 world bounds [-r, r, -r, r], 16 radii r,
// 32 MaxStep r, 64 TasksJump, 128 Offset r; n%3 + 1 records.
func FuzzEpisode(f *testing.F) {
	for _, s := range []struct {
		p       [4]float64
		step, r float64
		n       uint8
		flags   uint8
	}{
		{[4]float64{0, 0, 1, 1}, 0.1, 0.5, 2, 255},
		{[4]float64{0, 0, 1, 1}, 0.1, 0.5, 2, 0},
		{[4]float64{0, 0, 1, 1}, 0.1, 0.05, 2, 1 + 2 + 16},
		{[4]float64{nan, 0, 1, 1}, 0.1, 0.5, 1, 0},
		{[4]float64{0, 0, 1, 1}, inf, 0.5, 2, 0},
		{[4]float64{0, 0, 1, 1}, 0.1, -1, 2, 16},
		{[4]float64{0, 0, 1, 1}, 0.1, nan, 2, 32},
		{[4]float64{-1.7e308, 1.7e308, 0, 0}, 0, 1, 0, 0},
		{[4]float64{big, bigUlps, big, big}, 0, 1, 2, 2},
		{[4]float64{tiny, 0, 2 * tiny, tiny}, tiny, tiny, 2, 1 + 2},
		{[4]float64{1, 1, 1, 1}, 0, 0, 2, 2 + 8},
		{[4]float64{0, 0, 1, 1}, 5, 1, 2, 32 + 64},
		{[4]float64{0, 0, 1, 1}, 0.1, maxFloat, 2, 4 + 8 + 16 + 128},
	} {
		f.Add(s.p[0], s.p[1], s.p[2], s.p[3], s.step, s.r, s.n, s.flags)
	}
	f.Fuzz(func(t *testing.T, p0, p1, p2, p3, step, r float64, n, flags uint8) {
		records := int(n%3) + 1
		tr := Trajectories{Title: "ep", Agents: make([][][2]float64, 2), Tasks: make([][][2]float64, 1)}
		for k := 0; k < records; k++ {
			d := step * float64(k)
			tr.Agents[0] = append(tr.Agents[0], [2]float64{p0 + d, p1})
			tr.Agents[1] = append(tr.Agents[1], [2]float64{p2, p3 + d})
			tr.Tasks[0] = append(tr.Tasks[0], [2]float64{p1 - d, p2})
		}
		if flags&1 != 0 {
			tr.Velocities = tr.Agents
		}
		if flags&2 != 0 {
			tr.ArrowEvery = 1
		}
		if flags&4 != 0 {
			tr.Obstacles = []Disc{{X: 0, Y: 0, R: r}}
		}
		if flags&8 != 0 {
			tr.Bounds = [4]float64{-r, r, -r, r}
		}
		if flags&16 != 0 {
			tr.AgentRadius, tr.TaskRadius = r, r
		}
		if flags&32 != 0 {
			tr.MaxStep = r
		}
		tr.TasksJump = flags&64 != 0
		if flags&128 != 0 {
			tr.Offset = r
		}
		checkContract(t, func() *Figure { return Episode("t", tr) })
	})
}
