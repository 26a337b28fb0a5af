package figures

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"
)

// line2 returns n+1 points from a to b.
func line2(a, b [2]float64, n int) [][2]float64 {
	out := make([][2]float64, n+1)
	for k := range out {
		f := float64(k) / float64(n)
		out[k] = [2]float64{a[0] + f*(b[0]-a[0]), a[1] + f*(b[1]-a[1])}
	}
	return out
}

func sampleEpisode() Trajectories {
	return Trajectories{
		Title:       "sample",
		Agents:      [][][2]float64{line2([2]float64{-1, -0.8}, [2]float64{1, 0.8}, 20), line2([2]float64{-1, 0.8}, [2]float64{0.2, -0.3}, 20)},
		Tasks:       [][][2]float64{{{1, 0.8}}, line2([2]float64{1, -1}, [2]float64{0.6, -0.6}, 20)},
		Obstacles:   []Disc{{X: 0, Y: 0.6, R: 0.2}},
		AgentRadius: 0.05,
		TaskRadius:  0.05,
		Bounds:      [4]float64{-1.4, 1.4, -1.2, 1.2},
		ArrowEvery:  5,
		TaskName:    "goal",
	}
}

func sampleEfforts() Efforts {
	e := Efforts{Title: "het", Agents: 2, Tasks: 2}
	for k := 0; k <= 10; k++ {
		f := float64(k) / 10
		e.Steps = append(e.Steps, k)
		e.Matrices = append(e.Matrices, []float64{0.5 + f/2, 0.5 - f/2, 0.5 - f/2, 0.5 + f/2})
	}
	e.Matrices[0] = []float64{0, 0, 0, 0} // the record after Reset
	return e
}

func decode(t *testing.T, f *Figure) image.Image {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(f.PNG()))
	if err != nil {
		t.Fatalf("PNG does not decode: %v", err)
	}
	wantW, wantH := int(math.Round(f.Width.Dots(96))), int(math.Round(f.Height.Dots(96)))
	if b := img.Bounds(); b.Dx() != wantW || b.Dy() != wantH {
		t.Fatalf("image is %dx%d, want %dx%d", b.Dx(), b.Dy(), wantW, wantH)
	}
	return img
}

func TestEpisodePNGs(t *testing.T) {
	one := sampleEpisode()
	two := sampleEpisode()
	two.Title, two.Tasks = "static", two.Tasks[:1]
	grid := Trajectories{
		Agents:  [][][2]float64{{{0, 0}, {1, 0}, {1, 1}}, {{0, 0}, {1, 0}, {1, 1}}},
		Tasks:   [][][2]float64{{{2, 2}, {2, 2}, {0, 2}}},
		MaxStep: 1.01, Offset: 0.06, TaskName: "item",
	}
	tall := Trajectories{Agents: [][][2]float64{{{0, 0}, {0.1, 3}}}}
	for name, f := range map[string]*Figure{
		"one":     Episode("", one),
		"two":     Episode("two panels", one, two),
		"grid":    Episode("grid", grid),
		"tall":    Episode("tall", tall),
		"single":  Episode("a single point", Trajectories{Agents: [][][2]float64{{{0.3, 0.3}}}}),
		"efforts": EffortLines("efforts", sampleEfforts(), sampleEfforts()),
		"strips":  EffortStrips("strips", sampleEfforts(), sampleEfforts()),
		"1 step":  EffortLines("", Efforts{Steps: []int{1}, Matrices: [][]float64{{0.2, 0.8}}, Agents: 1, Tasks: 2}),
	} {
		t.Run(name, func(t *testing.T) { decode(t, f) })
	}
	if f := Episode("tall", tall); f.Height <= f.Width-episodeLegend {
		t.Errorf("a tall world gives a %v x %v figure, want it taller than wide", f.Width, f.Height)
	}
}

// pixel returns the image pixel of the figure point p (figure coordinates
// have their origin at the bottom left, images at the top left).
func pixel(p vg.Point, h vg.Length) image.Point {
	return image.Point{X: int(math.Floor(p.X.Dots(96))), Y: int(math.Floor((h - p.Y).Dots(96)))}
}

func near(a, b color.Color, tol int) bool {
	r1, g1, b1, _ := a.RGBA()
	r2, g2, b2, _ := b.RGBA()
	d := func(x, y uint32) int { return int(x>>8) - int(y>>8) }
	abs := func(v int) int {
		if v < 0 {
			return -v
		}
		return v
	}
	return abs(d(r1, r2)) <= tol && abs(d(g1, g2)) <= tol && abs(d(b1, b2)) <= tol
}

// TestEpisodeDrawsWhereTheDataAre renders an episode and looks at the
// pixels where the layout puts an agent's start and end, an empty spot and
// a corner of the world.
func TestEpisodeDrawsWhereTheDataAre(t *testing.T) {
	for _, size := range []string{"natural", "resized"} {
		tr := sampleEpisode()
		l, err := newEpisodeLayout("t", []Trajectories{tr, tr})
		if err != nil {
			t.Fatal(err)
		}
		f := Episode("t", tr, tr)
		if size == "resized" {
			f.Width, f.Height = f.Width*1.3, f.Height*0.8
		}
		img := decode(t, f)
		at := func(k int, x, y float64) image.Point { return pixel(l.dataPoint(k, x, y, f.Width, f.Height), f.Height) }
		red := agentColor(0)
		for k := 0; k < 2; k++ {
			// The line leaves the start ring's centre in the agent's colour.
			start := at(k, -1, -0.8)
			found := false
			for dx := -2; dx <= 2 && !found; dx++ {
				for dy := -2; dy <= 2 && !found; dy++ {
					px := img.At(start.X+dx, start.Y+dy)
					found = near(px, red, 40) || near(px, darker(red), 40) // the line, or a velocity arrow on it
				}
			}
			if !found {
				t.Errorf("%s, panel %d: no agent colour near its start at pixel %v", size, k, start)
			}
			// The end is a filled disc: the agent's colour at its centre
			// (the task's cross sits on agent 0's end, so look at agent 1).
			if end := at(k, 0.2, -0.3); !near(img.At(end.X+1, end.Y+1), agentColor(1), 10) {
				t.Errorf("%s, panel %d: pixel %v at agent 1's end is %v, want %v", size, k, end, img.At(end.X+1, end.Y+1), agentColor(1))
			}
			// Nothing is drawn at (-1, 0).
			if p := at(k, -1, 0); !near(img.At(p.X, p.Y), color.White, 0) {
				t.Errorf("%s, panel %d: empty spot %v is %v, want white", size, k, p, img.At(p.X, p.Y))
			}
			// The obstacle is filled.
			if p := at(k, 0, 0.6); !near(img.At(p.X, p.Y), obstacleColor, 10) {
				t.Errorf("%s, panel %d: obstacle centre %v is %v", size, k, p, img.At(p.X, p.Y))
			}
			// Equal scales on x and y.
			o, x1, y1 := l.dataPoint(k, 0, 0, f.Width, f.Height), l.dataPoint(k, 1, 0, f.Width, f.Height), l.dataPoint(k, 0, 1, f.Width, f.Height)
			if dx, dy := x1.X-o.X, y1.Y-o.Y; math.Abs(float64(dx-dy)) > 1e-4*float64(dx) {
				t.Errorf("%s, panel %d: one world unit is %v wide and %v high", size, k, dx, dy)
			}
		}
	}
}

func TestPaths(t *testing.T) {
	got := Paths([][]float64{{0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9, 10, 11}})
	want := [][][2]float64{{{0, 1}, {4, 5}, {8, 9}}, {{2, 3}, {6, 7}, {10, 11}}}
	if len(got) != len(want) {
		t.Fatalf("Paths: %v, want %v", got, want)
	}
	for e := range want {
		for k := range want[e] {
			if got[e][k] != want[e][k] {
				t.Fatalf("Paths: %v, want %v", got, want)
			}
		}
	}
	if Paths(nil) != nil {
		t.Error("Paths(nil) is not nil")
	}
}

func TestRuns(t *testing.T) {
	path := [][2]float64{{0, 0}, {1, 0}, {1, 1}, {4, 4}, {4, 4}, {0, 0}}
	if got := runs(path, 0); len(got) != 1 || len(got[0]) != 6 {
		t.Errorf("runs without MaxStep: %v", got)
	}
	got := runs(path, 1.5)
	if len(got) != 3 || len(got[0]) != 3 || len(got[1]) != 2 || len(got[2]) != 1 {
		t.Errorf("runs(MaxStep 1.5) = %v, want runs of 3, 2 and 1 records", got)
	}
	if !still(got[1]) || still(got[0]) {
		t.Errorf("still: %v %v", still(got[1]), still(got[0]))
	}
}

func TestEpisodeMalformedInput(t *testing.T) {
	ok := sampleEpisode
	with := func(f func(*Trajectories)) func() *Figure {
		return func() *Figure {
			tr := ok()
			f(&tr)
			return Episode("", tr)
		}
	}
	efforts := func(f func(*Efforts)) func() *Figure {
		return func() *Figure {
			e := sampleEfforts()
			f(&e)
			return EffortLines("", e)
		}
	}
	nan := math.NaN()
	for _, c := range []struct {
		name string
		f    func() *Figure
		want string
	}{
		{"no panels", func() *Figure { return Episode("") }, "Episode needs at least one panel"},
		{"no agents", with(func(t *Trajectories) { t.Agents = nil }), "episode panel 0: no agents"},
		{"empty agent", with(func(t *Trajectories) { t.Agents[1] = nil }), "agent 1 has no positions"},
		{"NaN agent", with(func(t *Trajectories) { t.Agents[0][3][1] = nan }), "agent 0 at record 3 is at"},
		{"empty task", with(func(t *Trajectories) { t.Tasks[0] = nil }), "task 0 has no positions"},
		{"Inf task", with(func(t *Trajectories) { t.Tasks[1][0][0] = math.Inf(1) }), "task 1 at record 0 is at [+Inf"},
		{"velocity agents", with(func(t *Trajectories) { t.Velocities = [][][2]float64{{{1, 1}}} }), "velocities for 1 agents, positions for 2"},
		{"velocity records", with(func(t *Trajectories) { t.Velocities = [][][2]float64{t.Agents[0][:2], t.Agents[1]} }), "agent 0 has 2 velocities for"},
		{"arrows", with(func(t *Trajectories) { t.ArrowEvery = -1 }), "ArrowEvery = -1 is negative"},
		{"obstacle", with(func(t *Trajectories) { t.Obstacles[0].R = 0 }), "obstacle 0 is"},
		{"radius", with(func(t *Trajectories) { t.AgentRadius = -1 }), "radii -1 (agents)"},
		{"bounds", with(func(t *Trajectories) { t.Bounds = [4]float64{1, -1, 0, 1} }), "bounds [1 -1 0 1]"},
		{"max step", with(func(t *Trajectories) { t.MaxStep = nan }), "MaxStep = NaN"},
		{"offset", with(func(t *Trajectories) { t.Offset = math.Inf(-1) }), "Offset = -Inf is not finite"},
		{"agent labels", with(func(t *Trajectories) { t.AgentLabels = []string{"a"} }), "1 agent labels for 2 agents"},
		{"task labels", with(func(t *Trajectories) { t.TaskLabels = []string{"a", "b", "c"} }), "3 task labels for 2 tasks"},
		{"no effort rows", func() *Figure { return EffortLines("") }, "EffortLines needs at least one episode"},
		{"effort sizes", efforts(func(e *Efforts) { e.Tasks = 0 }), "efforts row 0: 2 agents and 0 tasks"},
		{"effort steps", efforts(func(e *Efforts) { e.Steps = e.Steps[1:] }), "steps for"},
		{"effort matrix", efforts(func(e *Efforts) { e.Matrices[2] = e.Matrices[2][:3] }), "record 2 has 3 efforts"},
		{"effort NaN", efforts(func(e *Efforts) { e.Matrices[2][1] = nan }), "record 2: effort of agent 0 on task 1 is NaN"},
		{"effort negative", efforts(func(e *Efforts) { e.Matrices[1][3] = -0.25 }), "record 1: effort of agent 1 on task 1 is -0.25 (want finite and >= 0)"},
		{"only step 0", efforts(func(e *Efforts) { e.Steps, e.Matrices = e.Steps[:1], e.Matrices[:1] }), "no record after step 0"},
		{"effort labels", efforts(func(e *Efforts) { e.AgentLabels = []string{"x"} }), "1 agent labels for 2 agents"},
		{"no strip rows", func() *Figure { return EffortStrips("") }, "EffortStrips needs at least one episode"},
		{"strip NaN", func() *Figure {
			e := sampleEfforts()
			e.Matrices[1][0] = math.Inf(1)
			return EffortStrips("", e)
		}, "record 1: effort of agent 0 on task 0 is +Inf"},
		{"strip negative", func() *Figure {
			e := sampleEfforts()
			e.Matrices[2][0] = -1e-9
			return EffortStrips("", e)
		}, "record 2: effort of agent 0 on task 0 is -1e-09 (want finite and >= 0)"},
	} {
		wantBad(t, c.name, c.f, c.want)
	}
}

// TestPathsPanics checks that Paths, which converts data rather than
// drawing it, panics on records that are not x, y pairs of one length.
func TestPathsPanics(t *testing.T) {
	for name, records := range map[string][][]float64{
		"odd record":     {{1, 2, 3}},
		"ragged records": {{1, 2}, {1, 2, 3, 4}},
	} {
		func() {
			defer func() {
				if s, ok := recover().(string); !ok || !strings.HasPrefix(s, "figures: record") {
					t.Errorf("%s: panic %q, want a \"figures: record ...\" message", name, s)
				}
			}()
			Paths(records)
		}()
	}
}

func TestBlend(t *testing.T) {
	c := color.RGBA{R: 10, G: 100, B: 200, A: 255}
	if got := blend(c, 1); got != c {
		t.Errorf("blend(c, 1) = %v, want %v", got, c)
	}
	if got := blend(c, 0); got != (color.RGBA{R: 255, G: 255, B: 255, A: 255}) {
		t.Errorf("blend(c, 0) = %v, want white", got)
	}
}

// TestEpisodeOffsetInView draws three agents along one path, from (0, 0)
// to (1, 0) to (1, 1), with Offset 0.3 and no Bounds: agent i is drawn
// shifted by (i − 1)·0.3 in x and y, so agent 0 starts at (−0.3, −0.3)
// and agent 2 ends at (1.3, 1.3). The axes span every shifted position,
// agent 0's line leaves its start in its colour, and agent 2's end disc
// is drawn in its colour.
func TestEpisodeOffsetInView(t *testing.T) {
	path := [][2]float64{{0, 0}, {1, 0}, {1, 1}}
	tr := Trajectories{Agents: [][][2]float64{path, path, path}, Offset: 0.3}
	l, err := newEpisodeLayout("", []Trajectories{tr})
	if err != nil {
		t.Fatal(err)
	}
	p := l.plots[0]
	if p.X.Min > -0.3 || p.X.Max < 1.3 || p.Y.Min > -0.3 || p.Y.Max < 1.3 {
		t.Errorf("axes x %v to %v, y %v to %v; want both from -0.3 or less to 1.3 or more (the shifted paths)", p.X.Min, p.X.Max, p.Y.Min, p.Y.Max)
	}
	f := Episode("", tr)
	img := decode(t, f)
	at := func(x, y float64) image.Point { return pixel(l.dataPoint(0, x, y, f.Width, f.Height), f.Height) }
	if start := at(-0.3, -0.3); !colourAround(img, start, 2, agentColor(0), 40) {
		t.Errorf("no colour of agent 0 near its shifted start, pixel %v", start)
	}
	if end := at(1.3, 1.3); !near(img.At(end.X, end.Y), agentColor(2), 10) {
		t.Errorf("pixel %v at agent 2's shifted end is %v, want its colour %v", end, img.At(end.X, end.Y), agentColor(2))
	}
}

// TestEffortScaleLeavesOutStepZero gives the record at step 0, which
// neither EffortLines nor EffortStrips draws, an effort of 5, above the
// drawn ones (at most 0.6): the top of the effort scale stays 1, and both
// figures are the same as with an effort of 0 there.
func TestEffortScaleLeavesOutStepZero(t *testing.T) {
	efforts := func(v0 float64) Efforts {
		return Efforts{Steps: []int{0, 1, 2}, Matrices: [][]float64{{v0, 0}, {0.5, 0.2}, {0.6, 0.1}}, Agents: 1, Tasks: 2}
	}
	if _, _, top, err := effortExtent([]Efforts{efforts(5)}); err != nil || top != 1 {
		t.Errorf("effortExtent: top %v, error %v; want 1 (the step-0 record is not drawn)", top, err)
	}
	svg := func(f *Figure) []byte {
		b, err := f.Encode("svg")
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for name, mk := range map[string]func(...Efforts) *Figure{
		"EffortLines":  func(e ...Efforts) *Figure { return EffortLines("e", e...) },
		"EffortStrips": func(e ...Efforts) *Figure { return EffortStrips("e", e...) },
	} {
		if !bytes.Equal(svg(mk(efforts(5))), svg(mk(efforts(0)))) {
			t.Errorf("%s: the effort at step 0, which is not drawn, changes the figure", name)
		}
	}
}

// TestDiscs checks that Discs pairs the flat centres in order, each with
// the radius, and refuses an odd number of coordinates.
func TestDiscs(t *testing.T) {
	got := Discs([]float64{1, 2, -3, 0.5}, 0.1)
	want := []Disc{{X: 1, Y: 2, R: 0.1}, {X: -3, Y: 0.5, R: 0.1}}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("Discs = %v, want %v", got, want)
	}
	if d := Discs(nil, 1); len(d) != 0 {
		t.Errorf("Discs(nil) = %v, want none", d)
	}
	defer func() {
		if r := recover(); r == nil {
			t.Error("Discs with 3 coordinates did not panic")
		}
	}()
	// A lone x after the first pair, built at run time (a literal of odd
	// length is flagged by staticcheck's SA5012 before the test can run).
	odd := append([]float64{1, 2}, float64(len(t.Name())))
	Discs(odd, 1)
}
