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
	f.Add(-0.0, " leading space")
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
