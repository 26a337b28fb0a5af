package figures

import (
	"image/color"

	"gonum.org/v1/plot/plotutil"
)

// seriesColours are the colours of the series, bands, interval series
// and agents the figures tell apart: plotutil's seven default colours
// first, so that figures with up to seven keep them, then thirteen
// more of Kelly's colours of maximum contrast (those not close to the
// first seven, with dark magenta and navy for two that were), each at
// least 50 apart in RGB from every other colour, so that a figure of a
// mean and 18 seeds, or of 20 agents, has no colour twice.
var seriesColours = append(append([]color.Color(nil), plotutil.DefaultColors...),
	rgb(0xF3, 0xC3, 0x00), // vivid yellow
	rgb(0x00, 0x88, 0x56), // vivid green
	rgb(0x00, 0x67, 0xA5), // strong blue
	rgb(0x88, 0x2D, 0x17), // reddish brown
	rgb(0x84, 0x84, 0x82), // medium grey
	rgb(0x60, 0x4E, 0x97), // strong violet
	rgb(0xC2, 0xB2, 0x80), // greyish yellow
	rgb(0xBE, 0x00, 0x32), // vivid red
	rgb(0x22, 0x22, 0x22), // black
	rgb(0xA1, 0xCA, 0xF1), // very light blue
	rgb(0x8D, 0xB6, 0x00), // vivid yellowish green
	rgb(0x8B, 0x00, 0x8B), // dark magenta
	rgb(0x1F, 0x2A, 0x6B), // navy
)

// seriesColour returns the colour of series (or band, or agent) number
// i >= 0: seriesColours[i], repeating from the first after the last.
func seriesColour(i int) color.Color { return seriesColours[i%len(seriesColours)] }

func rgb(r, g, b uint8) color.Color { return color.RGBA{R: r, G: g, B: b, A: 255} }
