package tables_test

import (
	"bytes"
	"errors"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
	"github.com/hetgain/hetgain/tables"
)

func TestWriteText(t *testing.T) {
	df := dataframe.New(
		series.New([]string{"min", "softmax(2)", "a\tb\nc"}, series.String, "U"),
		series.New([]int{2, 10, 3}, series.Int, "N"),
		series.New([]float64{1.0 / 3, 0.5, math.NaN()}, series.Float, "Gain"),
		series.New([]bool{true, false, true}, series.Bool, "Exact"),
	)
	var buf bytes.Buffer
	if err := tables.WriteText(&buf, df); err != nil {
		t.Fatal(err)
	}
	want := "" +
		"U            N                Gain  Exact\n" +
		"----------  --  ------------------  -----\n" +
		"min          2  0.3333333333333333  true\n" +
		"softmax(2)  10                 0.5  false\n" +
		"a b c        3                 NaN  true\n"
	if buf.String() != want {
		t.Errorf("got\n%s\nwant\n%s", buf.String(), want)
	}
}

// TestWriteTextFullPrecision checks that every float in the text survives
// a round trip, and that every line of a column starts at the same rune.
func TestWriteTextFullPrecision(t *testing.T) {
	vals := []float64{0.1, 1e-300, -2.5e17, 1.0 / 7, math.Inf(1), math.Inf(-1), 123456789.123456789}
	names := make([]string, len(vals))
	for i := range names {
		names[i] = "∘row" + strconv.Itoa(i) // a multi-byte rune
	}
	df := dataframe.New(series.New(names, series.String, "Name"), series.New(vals, series.Float, "Value"))
	var buf bytes.Buffer
	if err := tables.WriteText(&buf, df); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != len(vals)+2 {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), len(vals)+2, buf.String())
	}
	width := len([]rune(lines[0]))
	for i, line := range lines {
		if n := len([]rune(line)); n != width {
			t.Errorf("line %d has %d runes, header %d: %q", i, n, width, line)
		}
	}
	for i, line := range lines[2:] {
		f := strings.Fields(line)
		v, err := strconv.ParseFloat(f[len(f)-1], 64)
		if err != nil || v != vals[i] {
			t.Errorf("row %d: %q does not parse back to %v", i, f[len(f)-1], vals[i])
		}
	}
}

func TestWriteTextEmpty(t *testing.T) {
	df := dataframe.New(series.New([]float64{}, series.Float, "x"), series.New([]string{}, series.String, "name"))
	var buf bytes.Buffer
	if err := tables.WriteText(&buf, df); err != nil {
		t.Fatal(err)
	}
	if want := "x  name\n-  ----\n"; buf.String() != want {
		t.Errorf("got %q, want %q", buf.String(), want)
	}
}

type failWriter struct{}

var errWrite = errors.New("disk full")

func (failWriter) Write([]byte) (int, error) { return 0, errWrite }

func TestWriteTextErrors(t *testing.T) {
	df := dataframe.New(series.New([]int{1}, series.Int, "n"))
	if err := tables.WriteText(failWriter{}, df); !errors.Is(err, errWrite) {
		t.Errorf("write error: got %v, want %v", err, errWrite)
	}
	bad := dataframe.New(series.Floats([]float64{1, 2}), series.Floats([]float64{1}))
	if bad.Error() == nil {
		t.Skip("gota accepted columns of different lengths")
	}
	if err := tables.WriteText(&bytes.Buffer{}, bad); err == nil {
		t.Error("WriteText of an invalid DataFrame: no error")
	}
}

func ExampleWriteText() {
	df := dataframe.New(
		series.New([]string{"min", "mean"}, series.String, "U"),
		series.New([]int{2, 4}, series.Int, "M"),
		series.New([]float64{0.5, 1.0 / 3}, series.Float, "RHet"),
	)
	if err := tables.WriteText(os.Stdout, df); err != nil {
		panic(err)
	}
	// Output:
	// U     M                RHet
	// ----  -  ------------------
	// min   2                 0.5
	// mean  4  0.3333333333333333
}
