package tables_test

import (
	"bytes"
	"encoding/csv"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
	"github.com/hetgain/hetgain/tables"
)

// FuzzWriteCSVRoundTrip checks WriteCSV's contract on any float and any
// string: encoding/csv reads back one header and one record, the float
// parses back to the same value (NaN to NaN), and the string comes back
// as it was, up to the line ends encoding/csv itself rewrites ("\r\n"
// inside a quoted field reads back as "\n").
func FuzzWriteCSVRoundTrip(f *testing.F) {
	f.Add(0.1, "plain")
	f.Add(math.Inf(-1), `say "hi", twice`)
	f.Add(math.NaN(), "two\nlines")
	f.Add(math.Copysign(0, -1), " leading space")
	f.Add(5e-324, "")
	f.Add(1.0, "carriage\r\nreturn")
	f.Fuzz(func(t *testing.T, v float64, s string) {
		df := dataframe.New(series.New([]float64{v}, series.Float, "x"), series.New([]string{s}, series.String, "s"))
		var buf bytes.Buffer
		if err := tables.WriteCSV(&buf, df); err != nil {
			t.Fatal(err)
		}
		records, err := csv.NewReader(&buf).ReadAll()
		if err != nil {
			t.Fatalf("%q does not read back: %v", buf.String(), err)
		}
		if len(records) != 2 || len(records[1]) != 2 {
			t.Fatalf("%q reads back as %q, want a header and one record of two fields", buf.String(), records)
		}
		got, err := strconv.ParseFloat(records[1][0], 64)
		if err != nil || !(got == v && math.Signbit(got) == math.Signbit(v) || math.IsNaN(got) && math.IsNaN(v)) {
			t.Errorf("float %v written as %q reads back as %v (%v)", v, records[1][0], got, err)
		}
		if want := strings.ReplaceAll(s, "\r\n", "\n"); records[1][1] != want {
			t.Errorf("string %q written as %q reads back as %q", s, buf.String(), records[1][1])
		}
	})
}

// FuzzWriteMarkdown checks that WriteMarkdown keeps a table's shape and
// text for any string: the output is a header, a delimiter row and one
// row, each of two cells when split at the pipes not escaped by a
// backslash, and the string's cell, unescaped, is the string with its line
// breaks and tabs made spaces.
func FuzzWriteMarkdown(f *testing.F) {
	f.Add("plain")
	f.Add(`a|b\|c\`)
	f.Add("two\r\nlines\tand a tab")
	f.Add("")
	f.Fuzz(func(t *testing.T, s string) {
		df := dataframe.New(series.New([]string{s}, series.String, "s"), series.New([]float64{0.5}, series.Float, "x"))
		var buf bytes.Buffer
		if err := tables.WriteMarkdown(&buf, df); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
		if len(lines) != 3 {
			t.Fatalf("string %q: %d lines, want 3:\n%s", s, len(lines), buf.String())
		}
		for _, line := range lines {
			if cells := splitMarkdownRow(line); len(cells) != 2 {
				t.Fatalf("string %q: row %q has cells %q, want 2", s, line, cells)
			}
		}
		want := strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ", "\t", " ").Replace(s)
		if got := splitMarkdownRow(lines[2])[0]; got != want {
			t.Errorf("string %q: its cell reads back as %q, want %q", s, got, want)
		}
	})
}

// splitMarkdownRow splits a row "| a | b |" of a Markdown table into its
// cells, unescaped: a backslash takes the next byte literally, and an
// unescaped '|' ends a cell. The one space WriteMarkdown puts on each side
// of a cell is removed. A row that does not start and end with '|' has no
// cells.
func splitMarkdownRow(line string) []string {
	if len(line) < 2 || line[0] != '|' || line[len(line)-1] != '|' {
		return nil
	}
	var cells []string
	var cell []byte
	for i := 1; i < len(line); i++ {
		switch c := line[i]; {
		case c == '\\' && i+1 < len(line):
			i++
			cell = append(cell, line[i])
		case c == '|':
			cells = append(cells, strings.TrimSuffix(strings.TrimPrefix(string(cell), " "), " "))
			cell = cell[:0]
		default:
			cell = append(cell, c)
		}
	}
	return cells
}
