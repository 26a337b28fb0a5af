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

// Allocation is one team's effort matrix, for Allocations: plain data in
// the layout of simulate.EffortProfile (Agents, Tasks, Effort).
type Allocation struct {
	// Title names the panel (the run and team, say); may be empty.
	Title string
	// Agents and Tasks are N and M, both at least 1.
	Agents, Tasks int
	// Effort is the flat, row-major N x M matrix: Effort[i*Tasks+j] is
	// agent i's effort on task j, finite and not negative.
	Effort []float64
	// AgentLabels and TaskLabels name the rows and the columns; nil gives
	// "agent i" and "task j", counted from 0 as in EffortLines.
	AgentLabels, TaskLabels []string
}

// Sizes of Allocations figures.
const (
	allocCellW = 1.5 * vg.Centimeter
	allocCellH = 0.9 * vg.Centimeter
	allocPadW  = 2.6 * vg.Centimeter // agent labels and gaps
	allocPadH  = 2.0 * vg.Centimeter // title, task labels and gaps
)

// check returns a "figures: allocation k: ..." error if panel k is
// malformed.
func (a Allocation) check(k int) error {
	where := fmt.Sprintf("allocation %d", k)
	if a.Agents < 1 || a.Tasks < 1 {
		return badAt(where, "%d agents and %d tasks (need both >= 1)", a.Agents, a.Tasks)
	}
	if !isMatrix(len(a.Effort), a.Agents, a.Tasks) {
		return badAt(where, "%d efforts, want N*M = %d*%d", len(a.Effort), a.Agents, a.Tasks)
	}
	for c, v := range a.Effort {
		if !finite(v) || v < 0 {
			return badAt(where, "effort of agent %d on task %d is %v (want finite and >= 0)", c/a.Tasks, c%a.Tasks, v)
		}
	}
	if err := checkLabels(where, a.AgentLabels, a.Agents, "agent"); err != nil {
		return err
	}
	return checkLabels(where, a.TaskLabels, a.Tasks, "task")
}

func (a Allocation) agentLabel(i int) string { return label(a.AgentLabels, i, "agent") }
func (a Allocation) taskLabel(j int) string  { return label(a.TaskLabels, j, "task") }

// Allocations draws effort matrices as grids of cells, cols panels to a
// row: in each panel one row of cells per agent (agent 0 on top) and one
// column per task, each cell shaded from white (effort 0) to the agent's
// colour (effort 1 or more) and labelled with the effort to two decimals.
// Specialists show as one dark cell per row in different columns,
// identical agents as equal rows. It suits the mean efforts of trained
// teams (simulate.EffortProfile) side by side, such as the heterogeneous
// and the homogeneous team of each run. If there are no panels, cols < 1,
// or a panel is malformed, the figure carries a "figures: ..." error that
// says so, naming the panel (see Figure.Err).
func Allocations(title string, cols int, panels ...Allocation) *Figure {
	if len(panels) == 0 {
		return failed(badf("Allocations needs at least one effort matrix"))
	}
	if cols < 1 {
		return failed(badf("Allocations with %d columns", cols))
	}
	cols = min(cols, len(panels))
	rows := (len(panels) + cols - 1) / cols
	agents, tasks := 0, 0
	plots := make([][]*plot.Plot, rows)
	for r := range plots {
		plots[r] = make([]*plot.Plot, cols)
	}
	for k, a := range panels {
		if err := a.check(k); err != nil {
			return failed(err)
		}
		agents, tasks = max(agents, a.Agents), max(tasks, a.Tasks)
		plots[k/cols][k%cols] = allocationPlot(a)
		if err := prepareAxes(fmt.Sprintf("allocation %d", k), plots[k/cols][k%cols]); err != nil {
			return failed(err)
		}
	}
	titleH := vg.Length(0)
	if title != "" {
		titleH = titleHeight(title)
	}
	drawFn := func(c draw.Canvas) {
		c = drawTitle(c, title)
		tiles := draw.Tiles{Rows: rows, Cols: cols, PadX: 5 * vg.Millimeter, PadY: 4 * vg.Millimeter,
			PadTop: 1 * vg.Millimeter, PadLeft: 1 * vg.Millimeter, PadRight: 3 * vg.Millimeter, PadBottom: 1 * vg.Millimeter}
		drawAligned(plots, tiles, c)
	}
	return &Figure{
		Width:  max(vg.Length(cols)*(vg.Length(tasks)*allocCellW+allocPadW), titleWidth(title)),
		Height: vg.Length(rows)*(vg.Length(agents)*allocCellH+allocPadH) + titleH,
		encode: func(format string, w, h vg.Length) ([]byte, error) { return encode(drawFn, format, w, h) },
	}
}

// allocationPlot returns the plot of one effort matrix.
func allocationPlot(a Allocation) *plot.Plot {
	p := plot.New()
	p.Title.Text = a.Title
	p.Title.TextStyle.Font.Size = vg.Points(9)
	p.Add(allocationCells{a})
	tasks := make([]string, a.Tasks)
	for j := range tasks {
		tasks[j] = a.taskLabel(j)
	}
	agents := make([]string, a.Agents)
	for i := range agents {
		agents[a.Agents-1-i] = a.agentLabel(i) // agent 0 on top
	}
	p.NominalX(tasks...)
	p.NominalY(agents...)
	p.X.Tick.Label.Font.Size = vg.Points(8)
	p.Y.Tick.Label.Font.Size = vg.Points(8)
	return p
}

// allocationCells is a plot.Plotter that fills a cell per (agent, task),
// blending white into the agent's colour, and writes the effort in it.
type allocationCells struct{ a Allocation }

func (s allocationCells) Plot(c draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&c)
	a := s.a
	for i := 0; i < a.Agents; i++ {
		y := float64(a.Agents - 1 - i)
		for j := 0; j < a.Tasks; j++ {
			x, v := float64(j), a.Effort[i*a.Tasks+j]
			shade := math.Min(1, v)
			rect := []vg.Point{
				{X: tx(x - 0.48), Y: ty(y - 0.45)}, {X: tx(x + 0.48), Y: ty(y - 0.45)},
				{X: tx(x + 0.48), Y: ty(y + 0.45)}, {X: tx(x - 0.48), Y: ty(y + 0.45)},
			}
			c.FillPolygon(blend(agentColor(i), shade), c.ClipPolygonXY(rect))
			c.StrokeLines(draw.LineStyle{Color: fadedColor, Width: vg.Points(0.5)}, append(rect, rect[0]))
			sty := draw.TextStyle{Color: textColor(shade), Font: p.X.Tick.Label.Font, Handler: p.X.Tick.Label.Handler,
				XAlign: draw.XCenter, YAlign: draw.YCenter}
			c.FillText(sty, vg.Point{X: tx(x), Y: ty(y)}, strconv.FormatFloat(v, 'f', 2, 64))
		}
	}
}

func (s allocationCells) DataRange() (xmin, xmax, ymin, ymax float64) {
	return -0.5, float64(s.a.Tasks) - 0.5, -0.5, float64(s.a.Agents) - 0.5
}

// textColor returns a colour for text on a cell shaded by s in [0, 1]:
// black on light cells, white on dark ones.
func textColor(s float64) color.Color {
	if s < 0.75 {
		return color.Black
	}
	return color.White
}
