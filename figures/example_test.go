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
