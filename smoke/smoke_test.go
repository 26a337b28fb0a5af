package smoke

import (
	"bytes"
	"image/png"
	"testing"
)

func TestSquares(t *testing.T) {
	got := Squares(4)
	want := []float64{0, 1, 4, 9}
	if len(got) != len(want) {
		t.Fatalf("Squares(4) = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("Squares(4) = %v, want %v", got, want)
		}
	}
	if n := len(Squares(-3)); n != 0 {
		t.Fatalf("len(Squares(-3)) = %d, want 0", n)
	}
}

func TestGreeting(t *testing.T) {
	if got, want := Greeting("test"), "hello from hetgain/smoke, test"; got != want {
		t.Fatalf("Greeting = %q, want %q", got, want)
	}
}

func TestSquaresPlotIsPNG(t *testing.T) {
	pic, err := SquaresPlot(10)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(pic.PNG()))
	if err != nil {
		t.Fatalf("SquaresPlot(10).PNG() does not decode as PNG: %v", err)
	}
	// 4×3 inches at gonum/plot's default 96 dpi.
	if b := img.Bounds(); b.Dx() != 384 || b.Dy() != 288 {
		t.Fatalf("image is %dx%d, want 384x288", b.Dx(), b.Dy())
	}
}
