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

// Gains of searches that ended far apart: one seed at 65 among seeds near
// 0.2. On SlopesAsinh's axis, linear within ±0.2 and logarithmic beyond,
// the seeds near 0 stay apart; on Slopes' they would be one line.
func ExampleSlopesAsinh() {
	pairs := figures.PairedValues{A: []float64{0.22, 0.99, -26.8, 0.05}, B: []float64{65.3, 0.04, -0.12, 0.3}}
	f := figures.SlopesAsinh("Gains at the end of the search", "ΔR (asinh scale, linear within ±0.2)",
		"no clamp", "clamp", []string{"capture"}, []float64{0}, 0.2, pairs)
	fmt.Println(f.Err())
	bad := figures.SlopesAsinh("", "", "A", "B", []string{"capture"}, nil, 0, pairs)
	fmt.Println(bad.Err())
	// Output:
	// <nil>
	// figures: SlopesAsinh: linear width 0, want a positive finite number
}
