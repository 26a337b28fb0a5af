package figures_test

import (
	"bytes"
	"fmt"
	"image/png"
	"math"

	"github.com/hetgain/hetgain/figures"
)

// Final gains of five seeds trained two ways, in two cells: each seed a
// line from its gain under A to its gain under B; the fifth seed of the
// second cell has no gain under B.
func ExampleSlopes() {
	cells := []string{"min-max", "mean-max"}
	pairs := []figures.PairedValues{
		{A: []float64{1.3, 0.5, 0.9, 3.0, 3.7}, B: []float64{1.8, 0.4, 1.2, 3.0, 4.1}},
		{A: []float64{-12.0, 2.6, 2.0, -13.2, -1.9}, B: []float64{-10.2, 0.7, 1.5, -11.1, math.NaN()}},
	}
	f := figures.Slopes("Final gains, seed by seed", "ΔR", "4.8M frames", "30M frames", cells, []float64{0}, pairs...)

	img, err := png.Decode(bytes.NewReader(f.PNG()))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(img.Bounds().Dx(), "x", img.Bounds().Dy(), "pixels")
	// Output:
	// 605 x 378 pixels
}
