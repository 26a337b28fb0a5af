package figures

import (
	"image/color"
	"testing"
)

// TestEpisodeStationaryFarAway draws one agent that stays at one point
// with radius 0. Its axis ranges were widened by half a unit either way,
// which rounds away beyond 2^53: the figure's height was 0, and PNG
// panicked. It must be about as large, and as full, as the same picture
// near the origin (the tick labels are wider).
func TestEpisodeStationaryFarAway(t *testing.T) {
	measure := func(v float64) (w, h, inked int) {
		img := decode(t, Episode("", Trajectories{Agents: [][][2]float64{{{v, v}}}}))
		b := img.Bounds()
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				if !near(img.At(x, y), color.White, 10) {
					inked++
				}
			}
		}
		return b.Dx(), b.Dy(), inked
	}
	w0, h0, ink0 := measure(1)
	for _, v := range []float64{1e17, -1e300} {
		w, h, ink := measure(v)
		if h != h0 || w < w0 || w > w0*11/10 || ink < ink0/2 {
			t.Errorf("agent at (%v, %v): figure %d × %d with %d pixels drawn, want %d high, %d to %d wide, at least %d drawn (at (1, 1): %d × %d, %d)",
				v, v, w, h, ink, h0, w0, w0*11/10, ink0/2, w0, h0, ink0)
		}
	}
}
