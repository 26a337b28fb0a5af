package tables_test

import (
	"bytes"
	"encoding/csv"
	"io"
	"math"
	"math/rand"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
	"github.com/hetgain/hetgain/tables"
)

// TestWriteCSVFullPrecision checks that every float of a table survives a
// round trip through WriteCSV, which gota's own writer does not guarantee.
func TestWriteCSVFullPrecision(t *testing.T) {
	rnd := rand.New(rand.NewSource(1))
	floats := make([]float64, 200)
	names := make([]string, len(floats))
	for i := range floats {
		floats[i] = rnd.NormFloat64() * math.Pow(10, float64(rnd.Intn(40)-20))
		names[i] = "row " + strconv.Itoa(i)
	}
	df := dataframe.New(series.New(names, series.String, "Name"), series.New(floats, series.Float, "Value"))
	var buf bytes.Buffer
	if err := tables.WriteCSV(&buf, df); err != nil {
		t.Fatal(err)
	}
	records, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(records) != df.Nrow()+1 || strings.Join(records[0], ",") != strings.Join(df.Names(), ",") {
		t.Fatalf("%d records, header %v", len(records), records[0])
	}
	for i, rec := range records[1:] {
		for j, typ := range df.Types() {
			e := df.Elem(i, j)
			if typ != series.Float {
				if rec[j] != e.String() {
					t.Errorf("row %d column %d: %q, want %q", i, j, rec[j], e.String())
				}
				continue
			}
			v, err := strconv.ParseFloat(rec[j], 64)
			if err != nil || v != e.Float() {
				t.Errorf("row %d column %d: %q does not parse back to %v", i, j, rec[j], e.Float())
			}
		}
	}
	var gota bytes.Buffer
	if err := df.WriteCSV(&gota); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(gota.String(), "0.3333333333333333") {
		t.Log("gota's WriteCSV now keeps full precision")
	}
}

func TestWriteCSVSpecialValues(t *testing.T) {
	df := dataframe.New(
		series.New([]float64{math.NaN(), math.Inf(1), math.Inf(-1), 0.1, 1e-300}, series.Float, "x"),
		series.New([]string{"a,b", `say "hi"`, "", "x|y", "NaN"}, series.String, "s"),
		series.New([]interface{}{1, nil, 3, 4, 5}, series.Int, "k"),
	)
	var buf bytes.Buffer
	if err := tables.WriteCSV(&buf, df); err != nil {
		t.Fatal(err)
	}
	want := "x,s,k\nNaN,\"a,b\",1\n+Inf,\"say \"\"hi\"\"\",NaN\n-Inf,,3\n0.1,x|y,4\n1e-300,NaN,5\n"
	if buf.String() != want {
		t.Errorf("got\n%s\nwant\n%s", buf.String(), want)
	}
	back := dataframe.ReadCSV(strings.NewReader(buf.String()), dataframe.WithTypes(map[string]series.Type{"s": series.String}))
	if err := back.Error(); err != nil {
		t.Fatal(err)
	}
	if x := back.Col("x").Float(); !math.IsNaN(x[0]) || !math.IsInf(x[1], 1) || x[3] != 0.1 || x[4] != 1e-300 {
		t.Errorf("read back %v", x)
	}
}

// TestWriteCSVOneEmptyField checks that a one-column table keeps a row
// whose value is the empty string (encoding/csv writes it as a blank line,
// which readers skip).
func TestWriteCSVOneEmptyField(t *testing.T) {
	df := dataframe.New(series.New([]string{"a", "", "b", ""}, series.String, "Name"))
	var buf bytes.Buffer
	if err := tables.WriteCSV(&buf, df); err != nil {
		t.Fatal(err)
	}
	records, err := csv.NewReader(strings.NewReader(buf.String())).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"Name"}, {"a"}, {""}, {"b"}, {""}}
	if !reflect.DeepEqual(records, want) {
		t.Errorf("wrote %q, which reads back as %q; want %q", buf.String(), records, want)
	}
	back := dataframe.ReadCSV(strings.NewReader(buf.String()), dataframe.WithTypes(map[string]series.Type{"Name": series.String}))
	if r, _ := back.Dims(); r != 4 {
		t.Errorf("gota reads %d rows back, want 4", r)
	}
}

func TestWriteMarkdown(t *testing.T) {
	df := dataframe.New(
		series.New([]string{"a|b", "line\nbreak", "old\rmac\r\nand\ttab", `back\slash\|pipe`}, series.String, "name"),
		series.New([]float64{1.0 / 3, 2, -1, 0}, series.Float, "v"),
		series.New([]int{1, 20, 3, 4}, series.Int, "n"),
	)
	var buf bytes.Buffer
	if err := tables.WriteMarkdown(&buf, df); err != nil {
		t.Fatal(err)
	}
	want := "| name | v | n |\n| --- | ---: | ---: |\n| a\\|b | 0.3333333333333333 | 1 |\n| line break | 2 | 20 |\n| old mac and tab | -1 | 3 |\n| back\\\\slash\\\\\\|pipe | 0 | 4 |\n"
	if buf.String() != want {
		t.Errorf("got\n%s\nwant\n%s", buf.String(), want)
	}
}

func TestWriteErrors(t *testing.T) {
	bad := dataframe.New(series.Floats([]float64{1, 2}), series.Floats([]float64{1}))
	if bad.Error() == nil {
		t.Skip("gota accepted columns of different lengths")
	}
	var buf bytes.Buffer
	if err := tables.WriteCSV(&buf, bad); err == nil {
		t.Error("WriteCSV of an invalid DataFrame: no error")
	}
	if err := tables.WriteMarkdown(&buf, bad); err == nil {
		t.Error("WriteMarkdown of an invalid DataFrame: no error")
	}
}

// TestNilWriter checks that every writer refuses a nil io.Writer with an
// error that names the function, rather than panicking.
func TestNilWriter(t *testing.T) {
	df := dataframe.New(series.New([]float64{1.5}, series.Float, "v"))
	for name, write := range map[string]func(io.Writer, dataframe.DataFrame) error{
		"WriteCSV":      tables.WriteCSV,
		"WriteMarkdown": tables.WriteMarkdown,
		"WriteText":     tables.WriteText,
	} {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("%s(nil, df) panicked: %v", name, r)
				}
			}()
			err := write(nil, df)
			if err == nil || !strings.HasPrefix(err.Error(), "tables: "+name) || !strings.Contains(err.Error(), "nil io.Writer") {
				t.Errorf("%s(nil, df) = %v, want an error naming %s and the nil io.Writer", name, err, name)
			}
		}()
	}
}

// TestNoColumns checks that every writer refuses a DataFrame without
// columns (the zero DataFrame, whose Error is nil) with an error naming
// the function: CSV wrote a lone line break, which gota reads back as an
// error, and Markdown "|\n|\n", which is no table.
func TestNoColumns(t *testing.T) {
	for name, write := range map[string]func(io.Writer, dataframe.DataFrame) error{
		"WriteCSV":      tables.WriteCSV,
		"WriteMarkdown": tables.WriteMarkdown,
		"WriteText":     tables.WriteText,
	} {
		var buf bytes.Buffer
		err := write(&buf, dataframe.DataFrame{})
		if err == nil || !strings.HasPrefix(err.Error(), "tables: "+name) || !strings.Contains(err.Error(), "no columns") {
			t.Errorf("%s of the zero DataFrame = %v, want an error naming %s and the missing columns", name, err, name)
		}
		if buf.Len() != 0 {
			t.Errorf("%s of the zero DataFrame wrote %q, want nothing", name, buf.String())
		}
	}
}
