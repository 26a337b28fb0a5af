package figures_test

import (
	"bytes"
	"fmt"
	"image/png"

	"github.com/hetgain/hetgain/figures"
)

// A line chart, rendered to PNG as a notebook would draw it.
func ExampleLines() {
	m := []float64{2, 3, 4, 5, 6}
	gain := make([]float64, len(m))
	for i, v := range m {
		gain[i] = (v - 1) / v // ΔR of min∘max for N >= M
	}
	f := figures.Lines("ΔR of min∘max", "M", "ΔR", figures.Series{Name: "closed form", X: m, Y: gain, Points: true})
	img, err := png.Decode(bytes.NewReader(f.PNG()))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(img.Bounds().Dx(), "x", img.Bounds().Dy(), "pixels")
	// Output: 605 x 378 pixels
}

// A heterogeneous and a homogeneous team's mean effort matrices side by
// side, as hetgain inspect -png draws them.
func ExampleAllocations() {
	labels := []string{"agent 1", "agent 2"}
	het := figures.Allocation{Title: "heterogeneous", Agents: 2, Tasks: 2,
		Effort: []float64{0.001, 0.999, 0.999, 0.001}, AgentLabels: labels}
	hom := figures.Allocation{Title: "homogeneous", Agents: 2, Tasks: 2,
		Effort: []float64{0.503, 0.497, 0.503, 0.497}, AgentLabels: labels}
	f := figures.Allocations("U=min, T=max", 2, het, hom)
	img, err := png.Decode(bytes.NewReader(f.PNG()))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(img.Bounds().Dx(), "x", img.Bounds().Dy(), "pixels")
	// Output: 423 x 173 pixels
}
