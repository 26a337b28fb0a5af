package figures

import (
	"image"
	"math"
	"testing"
)

// Two specialists, agent 0 on task 1 and agent 1 on task 0, drawn alone:
// each agent's colour fills one cell, the same size, and agent 0's lies
// wholly above and to the right of agent 1's.
func TestAllocationsShadeTheCells(t *testing.T) {
	img := decode(t, Allocations("", 1, Allocation{Agents: 2, Tasks: 2, Effort: []float64{0, 1, 1, 0}}))
	b := img.Bounds()
	var box [2]image.Rectangle
	var area [2]int
	for i := range box {
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				if near(img.At(x, y), agentColor(i), 3) {
					box[i] = box[i].Union(image.Rect(x, y, x+1, y+1))
					area[i]++
				}
			}
		}
		if f := float64(area[i]) / float64(b.Dx()*b.Dy()); f < 0.05 {
			t.Fatalf("agent %d's colour covers %.3f of the image, want a cell's worth", i, f)
		}
	}
	if r := float64(area[0]) / float64(area[1]); r < 0.9 || r > 1.1 {
		t.Errorf("the agents' cells cover %d and %d pixels, want the same", area[0], area[1])
	}
	if box[0].Min.X < box[1].Max.X || box[0].Max.Y > box[1].Min.Y {
		t.Errorf("agent 0's colour in %v, agent 1's in %v: want agent 0's up and to the right", box[0], box[1])
	}
}

// A half effort is drawn half way from white to the agent's colour.
func TestAllocationsHalfShade(t *testing.T) {
	img := decode(t, Allocations("", 1, Allocation{Agents: 1, Tasks: 1, Effort: []float64{0.5}}))
	if n, all := count(img, img.Bounds(), blend(agentColor(0), 0.5)), img.Bounds().Dx()*img.Bounds().Dy(); n < all/10 {
		t.Errorf("%d of %d pixels in the half shade, want a cell's worth", n, all)
	}
	if n := count(img, img.Bounds(), agentColor(0)); n > 0 {
		t.Errorf("%d pixels of the full colour for an effort of 0.5", n)
	}
}

// The figure grows with the panels: cols to a row, rows as needed.
func TestAllocationsLayout(t *testing.T) {
	a := Allocation{Title: "t", Agents: 2, Tasks: 3, Effort: make([]float64, 6)}
	one := Allocations("", 2, a)
	two := Allocations("", 2, a, a)
	three := Allocations("", 2, a, a, a)
	if math.Abs(float64(two.Width-2*one.Width)) > 1e-9 || two.Height != one.Height {
		t.Errorf("two panels in a row: %v x %v, one: %v x %v", two.Width, two.Height, one.Width, one.Height)
	}
	if three.Width != two.Width || math.Abs(float64(three.Height-2*two.Height)) > 1e-9 {
		t.Errorf("three panels, two to a row: %v x %v, want %v x %v", three.Width, three.Height, two.Width, 2*two.Height)
	}
	for name, f := range map[string]*Figure{"one": one, "three": three,
		"titled": Allocations("a title", 3, a, Allocation{Agents: 4, Tasks: 1, Effort: []float64{0, 0.3, 2, 1},
			AgentLabels: []string{"a", "b", "c", "d"}, TaskLabels: []string{"x"}})} {
		t.Run(name, func(t *testing.T) { decode(t, f) })
	}
}

func TestAllocationsMalformedInput(t *testing.T) {
	ok := func() Allocation { return Allocation{Agents: 1, Tasks: 2, Effort: []float64{0.5, 0.5}} }
	with := func(f func(*Allocation)) func() *Figure {
		return func() *Figure {
			a := ok()
			f(&a)
			return Allocations("", 1, ok(), a)
		}
	}
	wantBad(t, "none", func() *Figure { return Allocations("", 1) }, "at least one")
	wantBad(t, "cols", func() *Figure { return Allocations("", 0, ok()) }, "0 columns")
	wantBad(t, "agents", with(func(a *Allocation) { a.Agents = 0 }), "allocation 1", "0 agents")
	wantBad(t, "length", with(func(a *Allocation) { a.Effort = a.Effort[:1] }), "1 efforts, want N*M = 1*2")
	wantBad(t, "NaN", with(func(a *Allocation) { a.Effort[1] = math.NaN() }), "agent 0 on task 1 is NaN")
	wantBad(t, "negative", with(func(a *Allocation) { a.Effort[0] = -0.1 }), "agent 0 on task 0 is -0.1")
	wantBad(t, "Inf", with(func(a *Allocation) { a.Effort[0] = math.Inf(1) }), "+Inf")
	wantBad(t, "labels", with(func(a *Allocation) { a.TaskLabels = []string{"x"} }), "1 task labels for 2 tasks")
	wantBad(t, "agent labels", with(func(a *Allocation) { a.AgentLabels = []string{"x", "y"} }), "2 agent labels for 1 agents")
}
