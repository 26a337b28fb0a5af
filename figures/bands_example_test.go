package figures_test

import (
	"bytes"
	"fmt"
	"image/png"
	"math"

	"github.com/hetgain/hetgain/figures"
)

// curve returns a made-up training curve: the mean return over seeds
// rising to top, with one standard deviation either side.
func curve(label string, top float64) figures.Band {
	b := figures.Band{Label: label}
	for step := 0.0; step <= 200; step += 10 {
		m := top * (1 - math.Exp(-step/50))
		sd := 0.05 + 0.1*math.Exp(-step/80)
		b.X = append(b.X, step)
		b.Mean = append(b.Mean, m)
		b.Lo = append(b.Lo, m-sd)
		b.Hi = append(b.Hi, m+sd)
	}
	return b
}

// Training curves of heterogeneous and homogeneous teams, alone and as a
// grid of settings with the gain the theory predicts as a reference line.
func ExampleBands() {
	het, hom := curve("heterogeneous", 1), curve("homogeneous", 0.7)
	f := figures.Bands("Training", "step", "return", het, hom)

	var panels []figures.Panel
	for _, gap := range []float64{0, 0.15, 0.3} {
		hom := curve("homogeneous", 1-gap)
		hom.Dashed = gap == 0 // no gain predicted
		panels = append(panels, figures.Panel{
			Title:     fmt.Sprintf("gap %.2f", gap),
			Bands:     []figures.Band{curve("heterogeneous", 1), hom},
			Reference: []float64{1 - gap},
		})
	}
	grid := figures.BandPanels("Settings", "step", "return", 2, true, panels...)

	for _, fig := range []*figures.Figure{f, grid} {
		img, err := png.Decode(bytes.NewReader(fig.PNG()))
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(img.Bounds().Dx(), "x", img.Bounds().Dy(), "pixels")
	}
	// Output:
	// 727 x 378 pixels
	// 613 x 407 pixels
}
