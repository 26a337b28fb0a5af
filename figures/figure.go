package figures

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Default figure size.
const (
	DefaultWidth  = 16 * vg.Centimeter
	DefaultHeight = 10 * vg.Centimeter
)

// Figure is a picture made of one main plot and, optionally, a side plot
// (a colour bar or a legend) drawn in a strip to its right.
type Figure struct {
	// Plot is the main plot; callers may adjust titles, axes and legends.
	Plot *plot.Plot
	// Side, if not nil, is drawn to the right of Plot, in a strip of
	// SideFraction of the width.
	Side         *plot.Plot
	SideFraction float64
	// Width and Height are the size of the picture.
	Width, Height vg.Length
}

func newFigure(p *plot.Plot) *Figure {
	return &Figure{Plot: p, Width: DefaultWidth, Height: DefaultHeight}
}

// Draw draws the figure on c.
func (f *Figure) Draw(c draw.Canvas) {
	if f.Side == nil {
		f.Plot.Draw(c)
		return
	}
	main, side := c, c
	main.Max.X = c.Max.X - vg.Length(f.SideFraction)*(c.Max.X-c.Min.X)
	side.Min.X = main.Max.X
	f.Plot.Draw(main)
	f.Side.Draw(side)
}

// Encode renders the figure in the given format: "png", "svg", "pdf",
// "eps", "jpg" or "tif".
func (f *Figure) Encode(format string) ([]byte, error) {
	c, err := draw.NewFormattedCanvas(f.Width, f.Height, format)
	if err != nil {
		return nil, fmt.Errorf("figures: %w", err)
	}
	f.Draw(draw.New(c))
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("figures: encoding %s: %w", format, err)
	}
	return buf.Bytes(), nil
}

// PNG returns the figure as a PNG image. Rendering to memory cannot fail
// for a well-formed figure, so PNG panics if it does.
func (f *Figure) PNG() []byte {
	b, err := f.Encode("png")
	if err != nil {
		panic(err.Error())
	}
	return b
}

// Save writes the figure to path, in the format named by its extension
// (.png, .svg, .pdf, .eps, .jpg or .tif).
func (f *Figure) Save(path string) error {
	format := strings.TrimPrefix(strings.ToLower(filepath.Ext(path)), ".")
	if format == "" {
		return fmt.Errorf("figures: %q has no extension to choose the format", path)
	}
	b, err := f.Encode(format)
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return fmt.Errorf("figures: %w", err)
	}
	return nil
}
