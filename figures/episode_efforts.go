package figures

import (
	"fmt"
	"image/color"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Efforts is the effort matrix along one episode, for EffortLines: plain
// data in the layout of simulate.Recorder (Steps, Efforts, Agents, Tasks).
type Efforts struct {
	// Title names the episode (a row of panels); may be empty.
	Title string
	// Steps[k] is the step of record k. A record at step 0 is the state
	// right after a reset, which has no effort matrix yet (a Recorder
	// stores zeros there): EffortLines and EffortStrips leave it out, of
	// the picture and of the effort scale.
	Steps []int
	// Matrices[k] is the flat, row-major N x M effort matrix of record k;
	// every effort is finite and at least 0.
	Matrices [][]float64
	// Agents and Tasks are N and M, both at least 1.
	Agents, Tasks int
	// AgentLabels and TaskLabels name the agents (legend) and the tasks
	// (panel titles); nil gives "agent i" and "task j".
	AgentLabels, TaskLabels []string
}

// Sizes of EffortLines figures.
const (
	effortPanelW = 6.5 * vg.Centimeter
	effortPanelH = 5 * vg.Centimeter
	effortLegend = 3 * vg.Centimeter
)

// check returns a "figures: efforts row r: ..." error if row r is
// malformed.
func (e Efforts) check(r int) error {
	where := fmt.Sprintf("efforts row %d", r)
	if e.Agents < 1 || e.Tasks < 1 {
		return badAt(where, "%d agents and %d tasks (need both >= 1)", e.Agents, e.Tasks)
	}
	if len(e.Steps) != len(e.Matrices) {
		return badAt(where, "%d steps for %d effort matrices", len(e.Steps), len(e.Matrices))
	}
	kept := 0
	for k, m := range e.Matrices {
		if !isMatrix(len(m), e.Agents, e.Tasks) {
			return badAt(where, "record %d has %d efforts, want N*M = %d*%d", k, len(m), e.Agents, e.Tasks)
		}
		for c, v := range m {
			if !finite(v) || v < 0 {
				return badAt(where, "record %d: effort of agent %d on task %d is %v (want finite and >= 0)", k, c/e.Tasks, c%e.Tasks, v)
			}
		}
		if e.Steps[k] != 0 {
			kept++
		}
	}
	if kept == 0 {
		return badAt(where, "no record after step 0")
	}
	if err := checkLabels(where, e.AgentLabels, e.Agents, "agent"); err != nil {
		return err
	}
	return checkLabels(where, e.TaskLabels, e.Tasks, "task")
}

func (e Efforts) taskLabel(j int) string  { return label(e.TaskLabels, j, "task") }
func (e Efforts) agentLabel(i int) string { return label(e.AgentLabels, i, "agent") }

// isMatrix reports whether n values make a flat agents x tasks matrix,
// for agents and tasks of at least 1: whether n is agents*tasks, without
// computing the product, which can overflow (2^32 x 2^32 is 0 in int64:
// an empty matrix matched, and the constructor asked for 2^32 labels).
func isMatrix(n, agents, tasks int) bool {
	return n%tasks == 0 && n/tasks == agents
}

// checkLabels returns an error about where unless labels is nil or has n
// entries, one per agent or task (what).
func checkLabels(where string, labels []string, n int, what string) error {
	if labels != nil && len(labels) != n {
		return badAt(where, "%d %s labels for %d %ss", len(labels), what, n, what)
	}
	return nil
}

// label returns labels[k], or "<what> k" if labels is nil.
func label(labels []string, k int, what string) string {
	if labels != nil {
		return labels[k]
	}
	return what + " " + strconv.Itoa(k)
}

// effortWidth returns the line width of agent i of n in EffortLines: the
// first agents' lines are wider, so that where lines coincide (agents with
// the same efforts) each still shows as a stripe of its colour.
func effortWidth(i, n int) vg.Length {
	return vg.Points(1.5 + 1.2*float64(n-1-i))
}

// addEffortLine adds s, the efforts of agent i, to p as a line of the
// given colour and width (and markers if s.Points), or returns an error if
// gonum/plot refuses the points (Efforts.check refuses them first).
func addEffortLine(p *plot.Plot, s Series, c color.Color, w vg.Length, i int) error {
	xys := make(plotter.XYs, len(s.X))
	for k := range s.X {
		xys[k].X, xys[k].Y = s.X[k], s.Y[k]
	}
	line, err := plotter.NewLine(xys)
	if err != nil {
		return badf("efforts of agent %d: %v", i, err)
	}
	line.Color, line.Width = c, w
	p.Add(line)
	if s.Points {
		pts, _ := plotter.NewScatter(xys)
		pts.Color = c
		pts.Shape = draw.CircleGlyph{}
		pts.Radius = w/2 + vg.Points(1)
		p.Add(pts)
	}
	return nil
}

// EffortLines draws the effort r_ij along one or more episodes as small
// multiples: one row of panels per episode, one panel per task j, and in
// it one line per agent i (in the agents' colours of Episode) of r_ij
// against the step; lower-numbered agents get wider lines, so that
// coinciding lines stay visible as nested stripes. A column of a panel row thus shows who works on task j
// and when: specialists split into one high line per task, identical
// agents draw the same line in every panel. The y axis runs from 0 to 1,
// or to the largest effort drawn (of every row) if that is more. Episodes
// of at most 25 records also get a marker at every record. If there are no episodes or
// one is malformed, the figure carries a "figures: ..." error that says so,
// naming the row (see Figure.Err).
func EffortLines(title string, rows ...Efforts) *Figure {
	if len(rows) == 0 {
		return failed(badf("EffortLines needs at least one episode of efforts"))
	}
	cols, agents, top, err := effortExtent(rows)
	if err != nil {
		return failed(err)
	}
	plots := make([][]*plot.Plot, len(rows))
	var labels Efforts
	for r, e := range rows {
		if e.Agents == agents && labels.Agents == 0 {
			labels = e
		}
		plots[r] = make([]*plot.Plot, cols)
		for j := 0; j < e.Tasks; j++ {
			p, err := effortLinesPlot(e, j, top, fmt.Sprintf("efforts row %d, task %d", r, j))
			if err != nil {
				return failed(err)
			}
			if r == len(rows)-1 {
				p.X.Label.Text = "step"
			}
			if j == 0 {
				p.Y.Label.Text = "effort"
			}
			plots[r][j] = p
		}
	}
	legend := plot.NewLegend()
	legend.TextStyle.Font.Size = vg.Points(10)
	legend.Padding = 1.5 * vg.Millimeter
	legend.Top, legend.Left = true, true
	for i := 0; i < agents; i++ {
		legend.Add(labels.agentLabel(i), lineThumb{draw.LineStyle{Color: agentColor(i), Width: effortWidth(i, agents)}})
	}
	titleH := vg.Length(0)
	if title != "" {
		titleH = titleHeight(title)
	}
	drawFn := func(c draw.Canvas) {
		c = drawTitle(c, title)
		strip := c
		strip.Min.X = c.Max.X - effortLegend
		main := c
		main.Max.X = strip.Min.X
		tiles := draw.Tiles{Rows: len(rows), Cols: cols, PadX: 4 * vg.Millimeter, PadY: 3 * vg.Millimeter,
			PadTop: 1 * vg.Millimeter, PadLeft: 1 * vg.Millimeter, PadRight: 2 * vg.Millimeter, PadBottom: 1 * vg.Millimeter}
		drawAligned(plots, tiles, main)
		strip.Min.X += 2 * vg.Millimeter
		strip.Max.Y -= 2 * vg.Millimeter
		legend.Draw(strip)
	}
	return &Figure{
		Width:  max(vg.Length(cols)*effortPanelW+effortLegend, titleWidth(title)),
		Height: vg.Length(len(rows))*effortPanelH + titleH,
		encode: func(format string, w, h vg.Length) ([]byte, error) { return encode(drawFn, format, w, h) },
	}
}

// effortLinesPlot returns the panel of EffortLines for task j of e, with
// the y axis from 0 to top, or an error about where if it cannot be drawn.
func effortLinesPlot(e Efforts, j int, top float64, where string) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = e.taskLabel(j)
	if e.Title != "" {
		p.Title.Text = e.Title + ": " + p.Title.Text
	}
	p.Title.TextStyle.Font.Size = vg.Points(10)
	p.Add(plotter.NewGrid())
	for i := 0; i < e.Agents; i++ {
		var s Series
		for k, m := range e.Matrices {
			if e.Steps[k] != 0 {
				s.X, s.Y = append(s.X, float64(e.Steps[k])), append(s.Y, m[i*e.Tasks+j])
			}
		}
		s.Points = len(s.X) <= 25
		if err := addEffortLine(p, s, agentColor(i), effortWidth(i, e.Agents), i); err != nil {
			return nil, err
		}
	}
	p.Y.Min, p.Y.Max = 0, top
	return p, prepareAxes(where, p)
}

// Sizes of EffortStrips figures.
const (
	stripRowH = 0.55 * vg.Centimeter // per agent
	stripPadH = 1.9 * vg.Centimeter  // per row of panels: title and axis
)

// EffortStrips draws the effort r_ij along one or more episodes as strips
// of cells: one row of panels per episode, one panel per task j, and in
// it one strip per agent i (agent 0 on top), with a cell per step whose
// colour goes from white (r_ij = 0) to the agent's colour (r_ij = 1, or
// the largest effort drawn, of every row, if that is more). It suits
// discrete efforts (who loads, who has caught whom) better than
// EffortLines, whose lines coincide there. If there are no episodes or one is malformed, the
// figure carries a "figures: ..." error that says so, naming the row (see
// Figure.Err).
func EffortStrips(title string, rows ...Efforts) *Figure {
	if len(rows) == 0 {
		return failed(badf("EffortStrips needs at least one episode of efforts"))
	}
	cols, agents, top, err := effortExtent(rows)
	if err != nil {
		return failed(err)
	}
	plots := make([][]*plot.Plot, len(rows))
	for r, e := range rows {
		plots[r] = make([]*plot.Plot, cols)
		names := make([]string, e.Agents)
		for i := range names {
			names[e.Agents-1-i] = e.agentLabel(i) // agent 0 on top
		}
		for j := 0; j < e.Tasks; j++ {
			p := plot.New()
			p.Title.Text = e.taskLabel(j)
			if e.Title != "" {
				p.Title.Text = e.Title + ": " + p.Title.Text
			}
			p.Title.TextStyle.Font.Size = vg.Points(10)
			p.Add(effortCells{e: e, j: j, top: top})
			p.NominalY(names...)
			if err := prepareAxes(fmt.Sprintf("efforts row %d, task %d", r, j), p); err != nil {
				return failed(err)
			}
			if r == len(rows)-1 {
				p.X.Label.Text = "step"
			}
			plots[r][j] = p
		}
	}
	titleH := vg.Length(0)
	if title != "" {
		titleH = titleHeight(title)
	}
	drawFn := func(c draw.Canvas) {
		c = drawTitle(c, title)
		tiles := draw.Tiles{Rows: len(rows), Cols: cols, PadX: 4 * vg.Millimeter, PadY: 3 * vg.Millimeter,
			PadTop: 1 * vg.Millimeter, PadLeft: 1 * vg.Millimeter, PadRight: 3 * vg.Millimeter, PadBottom: 1 * vg.Millimeter}
		drawAligned(plots, tiles, c)
	}
	return &Figure{
		Width:  max(vg.Length(cols)*effortPanelW, titleWidth(title)),
		Height: vg.Length(len(rows))*(vg.Length(agents)*stripRowH+stripPadH) + titleH,
		encode: func(format string, w, h vg.Length) ([]byte, error) { return encode(drawFn, format, w, h) },
	}
}

// effortCells is a plot.Plotter that fills a cell per (agent, record) of
// one task's efforts, blending white into the agent's colour.
type effortCells struct {
	e   Efforts
	j   int
	top float64
}

func (s effortCells) Plot(c draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&c)
	e := s.e
	for k, m := range e.Matrices {
		if e.Steps[k] == 0 {
			continue
		}
		x := float64(e.Steps[k])
		for i := 0; i < e.Agents; i++ {
			v := math.Max(0, math.Min(1, m[i*e.Tasks+s.j]/s.top))
			if v == 0 {
				continue
			}
			y := float64(e.Agents - 1 - i)
			rect := []vg.Point{
				{X: tx(x - 0.51), Y: ty(y - 0.4)}, {X: tx(x + 0.51), Y: ty(y - 0.4)},
				{X: tx(x + 0.51), Y: ty(y + 0.4)}, {X: tx(x - 0.51), Y: ty(y + 0.4)},
			}
			c.FillPolygon(blend(agentColor(i), v), c.ClipPolygonXY(rect))
		}
	}
	// A thin baseline under each strip, so that empty strips show.
	x0, x1, _, _ := s.DataRange()
	for i := 0; i < e.Agents; i++ {
		y := ty(float64(i) - 0.4)
		c.StrokeLine2(draw.LineStyle{Color: fadedColor, Width: vg.Points(0.5)}, tx(x0), y, tx(x1), y)
	}
}

func (s effortCells) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, xmax = math.Inf(1), math.Inf(-1)
	for _, st := range s.e.Steps {
		if st != 0 {
			xmin, xmax = math.Min(xmin, float64(st)), math.Max(xmax, float64(st))
		}
	}
	return xmin - 0.5, xmax + 0.5, -0.5, float64(s.e.Agents) - 0.5
}

// blend returns white blended into c by the fraction v in [0, 1].
func blend(c color.Color, v float64) color.Color {
	r, g, b, _ := c.RGBA()
	f := func(ch uint32) uint8 { return uint8(math.Round(255 - v*(255-float64(ch>>8)))) }
	return color.RGBA{R: f(r), G: f(g), B: f(b), A: 255}
}

// effortExtent checks every episode of efforts and returns the largest
// number of tasks and of agents among them, and the top of the effort
// scale: 1, or the largest effort drawn if that is more (records at step
// 0 are not drawn, see Efforts.Steps); or the error of the first
// malformed episode.
func effortExtent(rows []Efforts) (cols, agents int, top float64, err error) {
	top = 1
	for r, e := range rows {
		if err := e.check(r); err != nil {
			return 0, 0, 0, err
		}
		cols = max(cols, e.Tasks)
		agents = max(agents, e.Agents)
		for k, m := range e.Matrices {
			if e.Steps[k] == 0 {
				continue
			}
			for _, v := range m {
				top = math.Max(top, v)
			}
		}
	}
	return cols, agents, top, nil
}
