package figures_test

import (
	"bytes"
	"fmt"
	"image/png"
	"math"

	"github.com/hetgain/hetgain/figures"
)

// Learned gains beside a paper's, each a mean ± one standard deviation
// over seeds, with a reference line at 0; the paper has no value for the
// last cell.
func ExampleIntervals() {
	cells := []string{"min-min", "min-max", "max-max"}
	learned := figures.IntervalSeries{Name: "learned", Points: []figures.Interval{
		{Value: 0.02, Lo: -0.05, Hi: 0.09}, {Value: 0.9, Lo: 0.5, Hi: 1.3}, {Value: -0.4, Lo: -1.1, Hi: 0.3}}}
	paper := figures.IntervalSeries{Name: "paper", Points: []figures.Interval{
		{Value: 0, Lo: 0, Hi: 0}, {Value: 3.47, Lo: 3.24, Hi: 3.70}, {Value: math.NaN(), Lo: math.NaN(), Hi: math.NaN()}}}
	f := figures.Intervals("Final gains", "ΔR", cells, []float64{0}, learned, paper)

	img, err := png.Decode(bytes.NewReader(f.PNG()))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(img.Bounds().Dx(), "x", img.Bounds().Dy(), "pixels")
	// Output:
	// 605 x 378 pixels
}
