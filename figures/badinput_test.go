package figures

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/plot/vg"
)

// encodeOutcome is what encodeWithin saw: Encode's result, a recovered
// panic, or a timeout.
type encodeOutcome struct {
	b        []byte
	err      error
	panicked any
	timedOut bool
}

// encodeWithin calls f.Encode(format) in a goroutine and gives up after
// 5 s, so that a rendering that never returns fails the test instead of
// hanging it (the goroutine is left running).
func encodeWithin(f *Figure, format string) encodeOutcome {
	done := make(chan encodeOutcome, 1)
	go func() {
		var out encodeOutcome
		defer func() {
			out.panicked = recover()
			done <- out
		}()
		out.b, out.err = f.Encode(format)
	}()
	select {
	case out := <-done:
		return out
	case <-time.After(5 * time.Second):
		return encodeOutcome{timedOut: true}
	}
}

// drawOrPanic encodes f as PNG and passes on, in the calling goroutine, a
// panic of the rendering, or panics with "timeout" if it did not return
// within 5 s.
func drawOrPanic(f *Figure) {
	out := encodeWithin(f, "png")
	if out.timedOut {
		panic("timeout: rendering did not return within 5 s")
	}
	if out.panicked != nil {
		panic(out.panicked)
	}
}

// TestEncodeRefusesBadSizes sets Width or Height to values that are not
// finite and > 0: Encode returns an error that names the size, and does
// not panic (vgimg panics "w and h must both be > 0.").
func TestEncodeRefusesBadSizes(t *testing.T) {
	for name, f := range sampleFigures() {
		for _, bad := range []vg.Length{0, -1, vg.Length(math.NaN()), vg.Length(math.Inf(1))} {
			for _, side := range []string{"width", "height"} {
				g := *f
				if side == "width" {
					g.Width = bad
				} else {
					g.Height = bad
				}
				for _, format := range []string{"png", "svg"} {
					what := fmt.Sprintf("%s with %s %v as %s", name, side, float64(bad), format)
					out := encodeWithin(&g, format)
					switch {
					case out.timedOut:
						t.Errorf("%s: Encode did not return within 5 s", what)
					case out.panicked != nil:
						t.Errorf("%s: Encode panicked: %v", what, out.panicked)
					case out.err == nil:
						t.Errorf("%s: Encode returned %d bytes and no error", what, len(out.b))
					case !strings.HasPrefix(out.err.Error(), "figures: ") || !strings.Contains(out.err.Error(), "width"):
						t.Errorf("%s: error %q does not start with \"figures: \" and name the size", what, out.err)
					}
				}
			}
		}
	}
}

// TestZeroFigure checks that a nil or zero Figure, which has nothing to
// draw, makes Encode and Save return an error and PNG panic with a
// "figures: ..." message, not a nil dereference.
func TestZeroFigure(t *testing.T) {
	for name, f := range map[string]*Figure{"nil": nil, "zero": {}, "sized": {Width: DefaultWidth, Height: DefaultHeight}} {
		out := encodeWithin(f, "png")
		if out.panicked != nil || out.timedOut || out.err == nil || !strings.HasPrefix(out.err.Error(), "figures: ") {
			t.Errorf("%s Figure: Encode = %v, panic %v; want a \"figures: ...\" error", name, out.err, out.panicked)
		}
		if err := f.Save(t.TempDir() + "/f.png"); err == nil || !strings.HasPrefix(err.Error(), "figures: ") {
			t.Errorf("%s Figure: Save = %v, want a \"figures: ...\" error", name, err)
		}
		func() {
			defer func() {
				r := recover()
				if s, ok := r.(string); !ok || !strings.HasPrefix(s, "figures: ") {
					t.Errorf("%s Figure: PNG panicked with %#v, want a \"figures: ...\" message", name, r)
				}
			}()
			f.PNG()
		}()
	}
}

// TestNoRowsNoCategories checks that SchurStrips without rows and
// Intervals without categories panic with a "figures: ..." message that
// says what is missing, rather than with an index out of range (SchurStrips
// failed so when drawn; Intervals when made).
func TestNoRowsNoCategories(t *testing.T) {
	wantPanic(t, "SchurStrips", func() {
		drawOrPanic(SchurStrips("t", "p"))
	}, "SchurStrips", "at least one row")
	wantPanic(t, "Intervals", func() {
		drawOrPanic(Intervals("t", "y", nil, []float64{0}))
	}, "Intervals", "at least one category")
}
