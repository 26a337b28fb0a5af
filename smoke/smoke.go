package smoke

import (
	"bytes"
	"fmt"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// Squares returns the values 0, 1, 4, ..., (n-1)² as float64s; n < 0 gives
// an empty slice.
func Squares(n int) []float64 {
	if n < 0 {
		n = 0
	}
	out := make([]float64, n)
	for i := range out {
		out[i] = float64(i * i)
	}
	return out
}

// Greeting returns a short message naming who, to show that a call into the
// library worked.
func Greeting(who string) string {
	return fmt.Sprintf("hello from hetgain/smoke, %s", who)
}

// Picture is an encoded PNG image. A notebook cell whose last expression is
// a Picture shows the image.
type Picture struct {
	png []byte
}

// PNG returns the encoded image.
func (p Picture) PNG() []byte { return p.png }

// SquaresPlot draws Squares(n) against 0..n-1 as a gonum/plot line chart,
// 4×3 inches, and returns it as a PNG picture.
func SquaresPlot(n int) (Picture, error) {
	ys := Squares(n)
	pts := make(plotter.XYs, len(ys))
	for i, y := range ys {
		pts[i].X = float64(i)
		pts[i].Y = y
	}
	p := plot.New()
	p.Title.Text = fmt.Sprintf("smoke.Squares(%d)", n)
	p.X.Label.Text = "i"
	p.Y.Label.Text = "i²"
	line, err := plotter.NewLine(pts)
	if err != nil {
		return Picture{}, fmt.Errorf("smoke: %w", err)
	}
	p.Add(line)
	w, err := p.WriterTo(4*vg.Inch, 3*vg.Inch, "png")
	if err != nil {
		return Picture{}, fmt.Errorf("smoke: %w", err)
	}
	var buf bytes.Buffer
	if _, err := w.WriteTo(&buf); err != nil {
		return Picture{}, fmt.Errorf("smoke: %w", err)
	}
	return Picture{png: buf.Bytes()}, nil
}
