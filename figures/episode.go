package figures

import (
	"fmt"
	"image/color"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Disc is a disc of radius R centred at (X, Y): an obstacle in Episode.
type Disc struct {
	X, Y, R float64
}

// Trajectories is one recorded episode in the plane, for Episode. It is
// plain data, so that any environment can supply it; Paths converts the
// per-record positions of simulate.Recorder (AgentPos, TaskPos) into the
// per-entity paths that Agents and Tasks hold.
type Trajectories struct {
	// Title is the panel's title (may be empty).
	Title string
	// Agents[i][k] is the position of agent i at record k. There must be
	// at least one agent, and every agent needs at least one record.
	Agents [][][2]float64
	// Tasks[j][k] is the position of task j (a goal, an item, an escaper)
	// at record k. A task that does not move may have a single record.
	Tasks [][][2]float64
	// Velocities, if not nil, holds Velocities[i][k], the velocity of
	// agent i at record k (the same shape as Agents), for the arrows.
	Velocities [][][2]float64
	// ArrowEvery > 0 draws an arrow for each agent's velocity at records
	// 0, ArrowEvery, 2·ArrowEvery, ...: from Velocities, or when it is nil
	// from the displacement to the next record. Arrows are scaled together
	// so that the longest is 8% of the larger side of the world.
	ArrowEvery int
	// Obstacles are drawn as filled grey discs.
	Obstacles []Disc
	// AgentRadius and TaskRadius are the true radii of agents and tasks in
	// world units: an agent's final position is a disc of radius
	// AgentRadius and a task a ring of radius TaskRadius. 0 draws markers
	// of a fixed size instead.
	AgentRadius, TaskRadius float64
	// Bounds is the world [xmin, xmax, ymin, ymax], drawn as an outline;
	// all zero fits the view to the data instead.
	Bounds [4]float64
	// MaxStep, if positive, leaves consecutive positions of one agent or
	// task that are farther apart than MaxStep unjoined (a respawn or a
	// teleport). A task that only jumps is drawn at each place it rested,
	// the earlier ones faded.
	MaxStep float64
	// TasksJump treats every change of a task's position as a jump, as for
	// items that respawn: no task paths are drawn, only the places where
	// each task rested (the earlier ones faded). Otherwise MaxStep decides.
	TasksJump bool
	// Offset, if not 0, draws agent i shifted by (i − (N−1)/2)·Offset in
	// x and in y, so that agents that share cells of a grid world, or walk
	// the same edges, stay apart in the picture (try 0.06 cells). Tasks are
	// not shifted. Without Bounds, the view fits the shifted paths.
	Offset float64
	// AgentLabels[i] names agent i in the legend and TaskLabels[j] labels
	// task j beside it; nil gives "agent i" and "<TaskName> j".
	AgentLabels, TaskLabels []string
	// TaskName is the kind of task, for the legend and the default labels
	// ("goal", "item", "escaper"); "" means "task".
	TaskName string
}

// Discs returns discs of radius r centred at the flat centres
// [x0 y0 x1 y1 ...] (the layout of the environments' ObstaclePositions),
// for Trajectories.Obstacles. It panics if centres has an odd number of
// values.
func Discs(centres []float64, r float64) []Disc {
	if len(centres)%2 != 0 {
		panic(fmt.Sprintf("figures: %d centre coordinates, not x, y pairs", len(centres)))
	}
	out := make([]Disc, len(centres)/2)
	for k := range out {
		out[k] = Disc{X: centres[2*k], Y: centres[2*k+1], R: r}
	}
	return out
}

// Paths turns per-record flat positions, records[k] = [x0 y0 x1 y1 ...]
// (the layout of simulate.Recorder's AgentPos and TaskPos), into
// per-entity paths: Paths(records)[e][k] is entity e at record k. It
// panics if a record has an odd number of values or not as many as the
// first.
func Paths(records [][]float64) [][][2]float64 {
	if len(records) == 0 {
		return nil
	}
	n2 := len(records[0])
	if n2%2 != 0 {
		panic(fmt.Sprintf("figures: record 0 has %d coordinates, not x, y pairs", n2))
	}
	out := make([][][2]float64, n2/2)
	for e := range out {
		out[e] = make([][2]float64, len(records))
	}
	for k, r := range records {
		if len(r) != n2 {
			panic(fmt.Sprintf("figures: record %d has %d coordinates, record 0 has %d", k, len(r), n2))
		}
		for e := range out {
			out[e][k] = [2]float64{r[2*e], r[2*e+1]}
		}
	}
	return out
}

// Colours of the parts of an episode that are not agents.
var (
	taskColor     = color.RGBA{R: 40, G: 40, B: 40, A: 255}
	fadedColor    = color.RGBA{R: 185, G: 185, B: 185, A: 255}
	obstacleColor = color.RGBA{R: 150, G: 150, B: 150, A: 255}
	boundsColor   = color.RGBA{R: 90, G: 90, B: 90, A: 255}
)

// agentColor returns the colour of agent i in Episode and EffortLines.
func agentColor(i int) color.Color { return seriesColour(i) }

// Sizes of the episode pictures.
const (
	episodeMarker   = 2.5 * vg.Millimeter // fixed marker radius (no true radius)
	episodeLegend   = 3.6 * vg.Centimeter // width of the legend strip
	episodePanelGap = 0.4 * vg.Centimeter // between panels
)

// episodeSide is the longer side of each panel's data area, by panel count.
func episodeSide(panels int) vg.Length {
	switch panels {
	case 1:
		return 12 * vg.Centimeter
	case 2:
		return 9 * vg.Centimeter
	default:
		return 7 * vg.Centimeter
	}
}

// Episode draws one or more episodes in the plane, side by side, each in
// its own panel with equal scales on x and y, and one legend: the world's
// bounds, obstacles as filled discs, tasks as rings (with their paths,
// dashed, if they move), and each agent's trajectory as a line in its
// colour from a ring at its start to a disc at its end, of
// true size when AgentRadius is set, with optional velocity arrows. The
// figure's Width and Height fit the panels' aspect ratios; changing them
// keeps each panel's aspect and leaves margins. If there are no panels or
// a panel is malformed, including positions, radii or bounds too far
// apart to draw (a span that overflows float64), the figure carries a
// "figures: ..." error that says so, naming the panel (see Figure.Err).
func Episode(title string, panels ...Trajectories) *Figure {
	l, err := newEpisodeLayout(title, panels)
	if err != nil {
		return failed(err)
	}
	f := &Figure{Width: l.width, Height: l.height}
	f.encode = func(format string, w, h vg.Length) ([]byte, error) { return encode(l.draw, format, w, h) }
	return f
}

// episodeLayout holds the plots of an Episode figure and their natural
// sizes.
type episodeLayout struct {
	title         string
	plots         []*plot.Plot
	spans         [][4]float64 // axis ranges of each panel
	padL, padR    []vg.Length  // space around each panel's data area
	padB, padT    []vg.Length
	natW          []vg.Length // natural width of each panel
	legend        plot.Legend
	titleH        vg.Length
	width, height vg.Length
}

func newEpisodeLayout(title string, panels []Trajectories) (*episodeLayout, error) {
	if len(panels) == 0 {
		return nil, badf("Episode needs at least one panel of trajectories")
	}
	l := &episodeLayout{title: title}
	side := episodeSide(len(panels))
	maxAgents := 0
	for k, t := range panels {
		if err := t.check(k); err != nil {
			return nil, err
		}
		if len(t.Agents) > maxAgents {
			maxAgents = len(t.Agents)
		}
		p := plot.New()
		p.Title.Text = t.Title
		ep := &episodePlotter{t: t}
		ep.span = t.span()
		p.Add(ep)
		p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = ep.span[0], ep.span[1], ep.span[2], ep.span[3]
		if err := prepareAxes(fmt.Sprintf("episode panel %d", k), p); err != nil {
			return nil, err
		}
		l.plots = append(l.plots, p)
		l.spans = append(l.spans, ep.span)

		// The space around the data area, as a first guess for fit: on a
		// large canvas.
		big := 100 * vg.Centimeter
		trial := draw.Canvas{Rectangle: vg.Rectangle{Max: vg.Point{X: big, Y: big}}}
		dc := p.DataCanvas(trial)
		l.padL, l.padR = append(l.padL, dc.Min.X), append(l.padR, big-dc.Max.X)
		l.padB, l.padT = append(l.padB, dc.Min.Y), append(l.padT, big-dc.Max.Y)
		xr, yr := ep.span[1]-ep.span[0], ep.span[3]-ep.span[2]
		dw := side
		if yr > xr {
			dw = side * vg.Length(xr/yr)
		}
		l.natW = append(l.natW, l.padL[k]+dw+l.padR[k])
		l.width += l.natW[k]
		// The height that panel k takes at its natural width.
		slot := draw.Canvas{Rectangle: vg.Rectangle{Max: vg.Point{X: l.natW[k], Y: big}}}
		if h := l.fit(k, slot).Size().Y; h > l.height {
			l.height = h
		}
	}
	l.width += vg.Length(len(panels)-1)*episodePanelGap + episodeLegend
	l.width = max(l.width, titleWidth(title))
	if title != "" {
		l.titleH = titleHeight(title)
		l.height += l.titleH
	}
	l.legend = episodeLegendFor(panels, maxAgents)
	return l, nil
}

// titleStyle is the text style of figure titles (that of a plot title).
func titleStyle() draw.TextStyle {
	return plot.New().Title.TextStyle
}

func titleHeight(title string) vg.Length {
	sty := titleStyle()
	return sty.Rectangle(title).Size().Y + 3*vg.Millimeter
}

// titleWidth returns the least width of a figure whose title, drawn by
// drawTitle, fits it with a margin either side: figures whose panels are
// narrower than their title are widened to it.
func titleWidth(title string) vg.Length {
	if title == "" {
		return 0
	}
	sty := titleStyle()
	return sty.Rectangle(title).Size().X + 4*vg.Millimeter
}

// drawTitle writes title centred at the top of c and returns the rest of c.
func drawTitle(c draw.Canvas, title string) draw.Canvas {
	if title == "" {
		return c
	}
	sty := titleStyle() // aligned at its top
	c.FillText(sty, vg.Point{X: c.Center().X, Y: c.Max.Y - 1*vg.Millimeter}, title)
	c.Max.Y -= titleHeight(title)
	return c
}

// canvases returns the canvas of each panel's plot and of the legend
// within c: the legend in a strip on the right, the panels side by side in
// slots proportional to their natural widths, each panel as large as fits
// its slot with equal scales on x and y, centred in it.
func (l *episodeLayout) canvases(c draw.Canvas) ([]draw.Canvas, draw.Canvas) {
	c.Max.Y -= l.titleH
	legend := c
	legend.Min.X = c.Max.X - episodeLegend
	main := c
	main.Max.X = legend.Min.X
	avail := main.Max.X - main.Min.X - vg.Length(len(l.plots)-1)*episodePanelGap
	natural := l.width - episodeLegend - vg.Length(len(l.plots)-1)*episodePanelGap
	out := make([]draw.Canvas, len(l.plots))
	slot := main
	for k := range l.plots {
		slot.Max.X = slot.Min.X + l.natW[k]*avail/natural
		out[k] = l.fit(k, slot)
		slot.Min.X = slot.Max.X + episodePanelGap
	}
	return out, legend
}

// fit returns the largest canvas for panel k, centred in slot, whose data
// area has the aspect ratio of the panel's world. The space around the
// data area depends a little on the canvas (plot pads it so that tick
// labels at the ends of an axis fit), so fit refines it a few times.
func (l *episodeLayout) fit(k int, slot draw.Canvas) draw.Canvas {
	s := l.spans[k]
	xr, yr := s[1]-s[0], s[3]-s[2]
	padL, padR, padB, padT := l.padL[k], l.padR[k], l.padB[k], l.padT[k]
	var out draw.Canvas
	for iter := 0; iter < 10; iter++ {
		dw := slot.Max.X - slot.Min.X - padL - padR
		dh := slot.Max.Y - slot.Min.Y - padB - padT
		if float64(dw)*yr > float64(dh)*xr {
			dw = dh * vg.Length(xr/yr)
		} else {
			dh = dw * vg.Length(yr/xr)
		}
		w, h := padL+dw+padR, padB+dh+padT
		x0 := slot.Min.X + (slot.Max.X-slot.Min.X-w)/2
		y1 := slot.Max.Y - (slot.Max.Y-slot.Min.Y-h)/2
		out = draw.Canvas{Canvas: slot.Canvas, Rectangle: vg.Rectangle{
			Min: vg.Point{X: x0, Y: y1 - h}, Max: vg.Point{X: x0 + w, Y: y1}}}
		dc := l.plots[k].DataCanvas(out)
		nl, nr, nb, nt := dc.Min.X-out.Min.X, out.Max.X-dc.Max.X, dc.Min.Y-out.Min.Y, out.Max.Y-dc.Max.Y
		if d := math.Abs(float64(nl-padL)) + math.Abs(float64(nr-padR)) + math.Abs(float64(nb-padB)) + math.Abs(float64(nt-padT)); d < 1e-6 {
			break
		}
		padL, padR, padB, padT = nl, nr, nb, nt
	}
	return out
}

func (l *episodeLayout) draw(c draw.Canvas) {
	drawTitle(c, l.title)
	panels, legend := l.canvases(c)
	for k, p := range l.plots {
		p.Draw(panels[k])
	}
	legend.Min.X += 2 * vg.Millimeter
	legend.Max.Y -= 2 * vg.Millimeter
	l.legend.Draw(legend)
}

// dataPoint returns where the world point (x, y) of panel k lands on a
// figure of size w x h (in the figure's coordinates, origin bottom left).
func (l *episodeLayout) dataPoint(k int, x, y float64, w, h vg.Length) vg.Point {
	panels, _ := l.canvases(draw.Canvas{Rectangle: vg.Rectangle{Max: vg.Point{X: w, Y: h}}})
	dc := l.plots[k].DataCanvas(panels[k])
	tx, ty := l.plots[k].Transforms(&dc)
	return vg.Point{X: tx(x), Y: ty(y)}
}

func finite2(p [2]float64) bool {
	return !math.IsNaN(p[0]) && !math.IsNaN(p[1]) && !math.IsInf(p[0], 0) && !math.IsInf(p[1], 0)
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// check returns a "figures: episode panel k: ..." error if panel k is
// malformed.
func (t Trajectories) check(k int) error {
	where := fmt.Sprintf("episode panel %d", k)
	for _, check := range []func(string) error{t.checkPaths, t.checkVelocities, t.checkSettings} {
		if err := check(where); err != nil {
			return err
		}
	}
	return nil
}

// checkPaths returns an error about where if there is no agent, or an
// agent or a task without positions or at a position that is not finite.
func (t Trajectories) checkPaths(where string) error {
	if len(t.Agents) == 0 {
		return badAt(where, "no agents")
	}
	for _, e := range []struct {
		what  string
		paths [][][2]float64
	}{{"agent", t.Agents}, {"task", t.Tasks}} {
		for i, path := range e.paths {
			if len(path) == 0 {
				return badAt(where, "%s %d has no positions", e.what, i)
			}
			for r, p := range path {
				if !finite2(p) {
					return badAt(where, "%s %d at record %d is at %v", e.what, i, r, p)
				}
			}
		}
	}
	return nil
}

// checkVelocities returns an error about where unless Velocities is nil
// or has a finite velocity per agent and record.
func (t Trajectories) checkVelocities(where string) error {
	if t.Velocities == nil {
		return nil
	}
	if len(t.Velocities) != len(t.Agents) {
		return badAt(where, "velocities for %d agents, positions for %d", len(t.Velocities), len(t.Agents))
	}
	for i, v := range t.Velocities {
		if len(v) != len(t.Agents[i]) {
			return badAt(where, "agent %d has %d velocities for %d positions", i, len(v), len(t.Agents[i]))
		}
		for r, p := range v {
			if !finite2(p) {
				return badAt(where, "agent %d at record %d has velocity %v", i, r, p)
			}
		}
	}
	return nil
}

// checkSettings returns an error about where if ArrowEvery, an obstacle,
// a radius, Offset, MaxStep, Bounds or the labels are out of their range.
func (t Trajectories) checkSettings(where string) error {
	if t.ArrowEvery < 0 {
		return badAt(where, "ArrowEvery = %d is negative", t.ArrowEvery)
	}
	for o, d := range t.Obstacles {
		if !finite(d.X) || !finite(d.Y) || !finite(d.R) || d.R <= 0 {
			return badAt(where, "obstacle %d is %+v (need a finite centre and radius > 0)", o, d)
		}
	}
	if !finite(t.AgentRadius) || t.AgentRadius < 0 || !finite(t.TaskRadius) || t.TaskRadius < 0 {
		return badAt(where, "radii %v (agents) and %v (tasks) must be finite and >= 0", t.AgentRadius, t.TaskRadius)
	}
	if !finite(t.Offset) {
		return badAt(where, "Offset = %v is not finite", t.Offset)
	}
	if !finite(t.MaxStep) || t.MaxStep < 0 {
		return badAt(where, "MaxStep = %v must be finite and >= 0", t.MaxStep)
	}
	if b := t.Bounds; b != [4]float64{} {
		if !finite(b[0]) || !finite(b[1]) || !finite(b[2]) || !finite(b[3]) || b[0] >= b[1] || b[2] >= b[3] {
			return badAt(where, "bounds %v are not [xmin, xmax, ymin, ymax] with xmin < xmax and ymin < ymax", b)
		}
	}
	if err := checkLabels(where, t.AgentLabels, len(t.Agents), "agent"); err != nil {
		return err
	}
	return checkLabels(where, t.TaskLabels, len(t.Tasks), "task")
}

func (t Trajectories) taskName() string {
	if t.TaskName == "" {
		return "task"
	}
	return t.TaskName
}

func (t Trajectories) agentLabel(i int) string {
	if t.AgentLabels != nil {
		return t.AgentLabels[i]
	}
	return "agent " + strconv.Itoa(i)
}

func (t Trajectories) taskLabel(j int) string {
	if t.TaskLabels != nil {
		return t.TaskLabels[j]
	}
	return t.taskName() + " " + strconv.Itoa(j)
}

// span returns the axis ranges: the bounds, or the extent of the data as
// drawn (the agents shifted by Offset, see drawnAgents), with a margin of
// 4% of the larger side.
func (t Trajectories) span() [4]float64 {
	var s [4]float64
	if t.Bounds != [4]float64{} {
		s = t.Bounds
	} else {
		s = [4]float64{math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)}
		grow := func(p [2]float64, r float64) {
			s[0], s[1] = math.Min(s[0], p[0]-r), math.Max(s[1], p[0]+r)
			s[2], s[3] = math.Min(s[2], p[1]-r), math.Max(s[3], p[1]+r)
		}
		for _, path := range t.drawnAgents() {
			for _, p := range path {
				grow(p, t.AgentRadius)
			}
		}
		for _, path := range t.Tasks {
			for _, p := range path {
				grow(p, t.TaskRadius)
			}
		}
		for _, d := range t.Obstacles {
			grow([2]float64{d.X, d.Y}, d.R)
		}
		// A range of (nearly) one point is widened by half a unit each
		// way, or by a float where half a unit rounds away.
		if s[1]-s[0] < 1e-9 {
			s[0], _ = widen(s[0])
			_, s[1] = widen(s[1])
		}
		if s[3]-s[2] < 1e-9 {
			s[2], _ = widen(s[2])
			_, s[3] = widen(s[3])
		}
	}
	m := 0.04 * math.Max(s[1]-s[0], s[3]-s[2])
	return [4]float64{s[0] - m, s[1] + m, s[2] - m, s[3] + m}
}

// runs splits a path into maximal runs of records joined by steps of at
// most maxStep (every step when maxStep is 0).
func runs(path [][2]float64, maxStep float64) [][][2]float64 {
	var out [][][2]float64
	start := 0
	for k := 1; k <= len(path); k++ {
		if k == len(path) || maxStep > 0 && math.Hypot(path[k][0]-path[k-1][0], path[k][1]-path[k-1][1]) > maxStep {
			out = append(out, path[start:k])
			start = k
		}
	}
	return out
}

// taskRuns returns the runs of task j: split at every change of position
// with TasksJump, else as runs with MaxStep.
func (t Trajectories) taskRuns(j int) [][][2]float64 {
	path := t.Tasks[j]
	if !t.TasksJump {
		return runs(path, t.MaxStep)
	}
	var out [][][2]float64
	start := 0
	for k := 1; k <= len(path); k++ {
		if k == len(path) || path[k] != path[k-1] {
			out = append(out, path[start:k])
			start = k
		}
	}
	return out
}

func still(run [][2]float64) bool {
	for _, p := range run[1:] {
		if p != run[0] {
			return false
		}
	}
	return true
}

// episodePlotter draws one panel of trajectories in data coordinates.
type episodePlotter struct {
	t    Trajectories
	span [4]float64
}

func (e *episodePlotter) DataRange() (xmin, xmax, ymin, ymax float64) {
	return e.span[0], e.span[1], e.span[2], e.span[3]
}

// arrow is a velocity arrow of agent i: its tail and its vector, in world
// units.
type arrow struct {
	agent     int
	from, vec [2]float64
}

// arrows returns the velocity arrows of every agent at its chosen records,
// scaled together so that the longest is 8% of the larger side of the
// world.
func (e *episodePlotter) arrows(t Trajectories) []arrow {
	if t.ArrowEvery <= 0 {
		return nil
	}
	var out []arrow
	vmax := 0.0
	for i, path := range t.Agents {
		for k := 0; k < len(path); k += t.ArrowEvery {
			var v [2]float64
			if t.Velocities != nil {
				v = t.Velocities[i][k]
			} else {
				if k+1 >= len(path) {
					continue
				}
				v = [2]float64{path[k+1][0] - path[k][0], path[k+1][1] - path[k][1]}
				if t.MaxStep > 0 && math.Hypot(v[0], v[1]) > t.MaxStep {
					continue
				}
			}
			if n := math.Hypot(v[0], v[1]); n > 0 {
				vmax = math.Max(vmax, n)
				out = append(out, arrow{agent: i, from: path[k], vec: v})
			}
		}
	}
	s := 0.08 * math.Max(e.span[1]-e.span[0], e.span[3]-e.span[2]) / vmax
	for k := range out {
		out[k].vec[0] *= s
		out[k].vec[1] *= s
	}
	return out
}

func (e *episodePlotter) Plot(c draw.Canvas, p *plot.Plot) {
	t := e.t
	t.Agents = t.drawnAgents()
	tx, ty := p.Transforms(&c)
	at := func(q [2]float64) vg.Point { return vg.Point{X: tx(q[0]), Y: ty(q[1])} }
	// disc returns the outline of a disc of world radius r around q.
	disc := func(q [2]float64, r float64) []vg.Point {
		const n = 64
		pts := make([]vg.Point, n)
		for k := range pts {
			a := 2 * math.Pi * float64(k) / n
			pts[k] = at([2]float64{q[0] + r*math.Cos(a), q[1] + r*math.Sin(a)})
		}
		return pts
	}
	line := func(col color.Color, w vg.Length, dashes ...vg.Length) draw.LineStyle {
		return draw.LineStyle{Color: col, Width: w, Dashes: dashes}
	}
	polyline := func(run [][2]float64) []vg.Point {
		pts := make([]vg.Point, len(run))
		for k, q := range run {
			pts[k] = at(q)
		}
		return pts
	}

	if t.Bounds != [4]float64{} {
		b := t.Bounds
		rect := []vg.Point{at([2]float64{b[0], b[2]}), at([2]float64{b[1], b[2]}), at([2]float64{b[1], b[3]}),
			at([2]float64{b[0], b[3]}), at([2]float64{b[0], b[2]})}
		c.StrokeLines(line(boundsColor, vg.Points(1.2)), rect)
	}
	for _, d := range t.Obstacles {
		c.FillPolygon(obstacleColor, c.ClipPolygonXY(disc([2]float64{d.X, d.Y}, d.R)))
	}

	// Task paths, dashed (a pattern per task), where tasks move, with a
	// ring at the start.
	for j, path := range t.Tasks {
		for _, run := range t.taskRuns(j) {
			if len(run) > 1 && !still(run) {
				c.StrokeLines(line(taskColor, vg.Points(1), taskDashes(j)...), c.ClipLinesXY(polyline(run))...)
			}
		}
		if t.taskMoves(j) {
			c.DrawGlyph(draw.GlyphStyle{Color: taskColor, Radius: episodeMarker * 0.8, Shape: draw.RingGlyph{}}, at(path[0]))
		}
	}
	// Agent trajectories.
	for i, path := range t.Agents {
		col := agentColor(i)
		for _, run := range runs(path, t.MaxStep) {
			if len(run) > 1 {
				c.StrokeLines(line(col, vg.Points(1.6)), c.ClipLinesXY(polyline(run))...)
			}
		}
	}
	// Velocity arrows.
	for _, a := range e.arrows(t) {
		from := at(a.from)
		to := at([2]float64{a.from[0] + a.vec[0], a.from[1] + a.vec[1]})
		sty := line(darker(agentColor(a.agent)), vg.Points(1))
		c.StrokeLines(sty, c.ClipLinesXY([]vg.Point{from, to})...)
		dx, dy := float64(to.X-from.X), float64(to.Y-from.Y)
		if n := math.Hypot(dx, dy); n > 0 {
			head := math.Min(float64(vg.Points(4)), 0.5*n)
			ux, uy := dx/n, dy/n
			for _, s := range []float64{1, -1} {
				ca, sa := math.Cos(2.7), s*math.Sin(2.7) // 155 degrees back from the tip
				hx, hy := ux*ca-uy*sa, ux*sa+uy*ca
				tip := vg.Point{X: to.X + vg.Length(head*hx), Y: to.Y + vg.Length(head*hy)}
				c.StrokeLines(sty, c.ClipLinesXY([]vg.Point{to, tip})...)
			}
		}
	}
	// Start rings and end discs of the agents.
	for i, path := range t.Agents {
		col := agentColor(i)
		c.DrawGlyph(draw.GlyphStyle{Color: col, Radius: episodeMarker * 0.8, Shape: draw.RingGlyph{}}, at(path[0]))
		end := path[len(path)-1]
		if t.AgentRadius > 0 {
			c.FillPolygon(col, c.ClipPolygonXY(disc(end, t.AgentRadius)))
			outline := disc(end, t.AgentRadius)
			c.StrokeLines(line(darker(col), vg.Points(0.8)), c.ClipLinesXY(append(outline, outline[0]))...)
		} else {
			c.DrawGlyph(draw.GlyphStyle{Color: col, Radius: episodeMarker, Shape: draw.CircleGlyph{}}, at(end))
		}
	}
	// Task markers: a ring (of true size if TaskRadius is set) with a
	// cross, faded where the task rested before it jumped.
	label := plot.New().X.Tick.Label
	label.Font.Size = vg.Points(9)
	label.Color = taskColor
	label.XAlign, label.YAlign = draw.XCenter, draw.YBottom
	for j := range t.Tasks {
		rs := t.taskRuns(j)
		for r, run := range rs {
			col := taskColor
			if r < len(rs)-1 {
				col = fadedColor
			}
			q := run[len(run)-1]
			e.taskMarker(&c, at, disc, q, col)
			if r == len(rs)-1 {
				lift := episodeMarker
				if t.TaskRadius > 0 {
					lift = ty(q[1]+t.TaskRadius) - ty(q[1])
				}
				c.FillText(label, vg.Point{X: tx(q[0]), Y: ty(q[1]) + lift + vg.Points(1.5)}, t.taskLabel(j))
			}
		}
	}
}

func (e *episodePlotter) taskMarker(c *draw.Canvas, at func([2]float64) vg.Point, disc func([2]float64, float64) []vg.Point, q [2]float64, col color.Color) {
	sty := draw.LineStyle{Color: col, Width: vg.Points(1.4)}
	if e.t.TaskRadius > 0 {
		ring := disc(q, e.t.TaskRadius)
		c.StrokeLines(sty, c.ClipLinesXY(append(ring, ring[0]))...)
	} else {
		c.DrawGlyph(draw.GlyphStyle{Color: col, Radius: episodeMarker, Shape: draw.RingGlyph{}}, at(q))
	}
	c.DrawGlyph(draw.GlyphStyle{Color: col, Radius: vg.Points(2.5), Shape: draw.CrossGlyph{}}, at(q))
}

// taskDashes returns the dash pattern of the path of task j.
func taskDashes(j int) []vg.Length {
	switch j % 3 {
	case 0:
		return []vg.Length{vg.Points(4), vg.Points(3)}
	case 1:
		return []vg.Length{vg.Points(1.2), vg.Points(2)}
	default:
		return []vg.Length{vg.Points(7), vg.Points(2), vg.Points(1.2), vg.Points(2)}
	}
}

// taskMoves reports whether task j moves between records without jumping.
func (t Trajectories) taskMoves(j int) bool {
	for _, run := range t.taskRuns(j) {
		if len(run) > 1 && !still(run) {
			return true
		}
	}
	return false
}

// drawnAgents returns the agents' paths as Episode draws them: shifted by
// Offset (see shifted), or as they are if Offset is 0.
func (t Trajectories) drawnAgents() [][][2]float64 {
	if t.Offset == 0 {
		return t.Agents
	}
	return shifted(t.Agents, t.Offset)
}

// shifted returns the paths with path i moved by (i − (N−1)/2)·offset in x
// and y.
func shifted(paths [][][2]float64, offset float64) [][][2]float64 {
	out := make([][][2]float64, len(paths))
	for i, path := range paths {
		d := (float64(i) - float64(len(paths)-1)/2) * offset
		out[i] = make([][2]float64, len(path))
		for k, q := range path {
			out[i][k] = [2]float64{q[0] + d, q[1] + d}
		}
	}
	return out
}

// darker returns c with its colour channels scaled by 0.65.
func darker(c color.Color) color.Color {
	r, g, b, a := c.RGBA()
	f := func(v uint32) uint8 { return uint8(float64(v>>8) * 0.65) }
	return color.RGBA{R: f(r), G: f(g), B: f(b), A: uint8(a >> 8)}
}

// episodeLegendFor builds the legend shared by the panels.
func episodeLegendFor(panels []Trajectories, agents int) plot.Legend {
	l := plot.NewLegend()
	l.TextStyle.Font.Size = vg.Points(10)
	l.Padding = 1.5 * vg.Millimeter
	l.Top, l.Left = true, true
	var labels Trajectories
	for _, t := range panels {
		if len(t.Agents) == agents {
			labels = t
			break
		}
	}
	radius, arrows, tasks, obstacles, jumps, moves := false, false, false, false, false, false
	taskName := ""
	var taskLabels Trajectories
	for _, t := range panels {
		if len(t.Tasks) > len(taskLabels.Tasks) {
			taskLabels = t
		}
		for j := range t.Tasks {
			moves = moves || t.taskMoves(j)
		}
		radius = radius || t.AgentRadius > 0
		arrows = arrows || t.ArrowEvery > 0
		tasks = tasks || len(t.Tasks) > 0
		obstacles = obstacles || len(t.Obstacles) > 0
		if taskName == "" && len(t.Tasks) > 0 {
			taskName = t.taskName()
		}
		for j := range t.Tasks {
			if len(t.taskRuns(j)) > 1 {
				jumps = true
			}
		}
	}
	for i := 0; i < agents; i++ {
		l.Add(labels.agentLabel(i), lineThumb{draw.LineStyle{Color: agentColor(i), Width: vg.Points(1.6)}})
	}
	grey := color.RGBA{R: 100, G: 100, B: 100, A: 255}
	l.Add("start", glyphThumb{draw.GlyphStyle{Color: grey, Radius: episodeMarker * 0.8, Shape: draw.RingGlyph{}}})
	end := "end"
	if radius {
		end = "end (true size)"
	}
	l.Add(end, glyphThumb{draw.GlyphStyle{Color: grey, Radius: episodeMarker, Shape: draw.CircleGlyph{}}})
	if arrows {
		l.Add("velocity", arrowThumb{grey})
	}
	if moves {
		// A legend entry per task, with its dash pattern.
		for j := range taskLabels.Tasks {
			l.Add(taskLabels.taskLabel(j), lineThumb{draw.LineStyle{Color: taskColor, Width: vg.Points(1), Dashes: taskDashes(j)}},
				glyphThumb{draw.GlyphStyle{Color: taskColor, Radius: episodeMarker, Shape: draw.RingGlyph{}}})
		}
	} else if tasks {
		l.Add(taskName, glyphThumb{draw.GlyphStyle{Color: taskColor, Radius: episodeMarker, Shape: draw.RingGlyph{}}},
			glyphThumb{draw.GlyphStyle{Color: taskColor, Radius: vg.Points(2.5), Shape: draw.CrossGlyph{}}})
	}
	if jumps {
		l.Add("earlier "+taskName, glyphThumb{draw.GlyphStyle{Color: fadedColor, Radius: episodeMarker, Shape: draw.RingGlyph{}}},
			glyphThumb{draw.GlyphStyle{Color: fadedColor, Radius: vg.Points(2.5), Shape: draw.CrossGlyph{}}})
	}
	if obstacles {
		l.Add("obstacle", glyphThumb{draw.GlyphStyle{Color: obstacleColor, Radius: episodeMarker, Shape: draw.CircleGlyph{}}})
	}
	return l
}

// lineThumb is a legend thumbnail: a horizontal line.
type lineThumb struct{ sty draw.LineStyle }

func (t lineThumb) Thumbnail(c *draw.Canvas) {
	y := c.Center().Y
	c.StrokeLine2(t.sty, c.Min.X, y, c.Max.X, y)
}

// glyphThumb is a legend thumbnail: one glyph in the middle.
type glyphThumb struct{ sty draw.GlyphStyle }

func (t glyphThumb) Thumbnail(c *draw.Canvas) { c.DrawGlyphNoClip(t.sty, c.Center()) }

// arrowThumb is a legend thumbnail: an arrow pointing right.
type arrowThumb struct{ col color.Color }

func (t arrowThumb) Thumbnail(c *draw.Canvas) {
	sty := draw.LineStyle{Color: t.col, Width: vg.Points(1)}
	y := c.Center().Y
	c.StrokeLine2(sty, c.Min.X, y, c.Max.X, y)
	h := vg.Points(4)
	c.StrokeLine2(sty, c.Max.X, y, c.Max.X-h*0.9, y+h*0.42)
	c.StrokeLine2(sty, c.Max.X, y, c.Max.X-h*0.9, y-h*0.42)
}
