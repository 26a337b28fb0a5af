package tables

import (
	"encoding/csv"
	"errors"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
)

// WriteCSV writes df to w as CSV with a header row. Unlike
// DataFrame.WriteCSV, which rounds floats to six significant digits, it
// writes every float in the shortest form that parses back to the same
// value (strconv.FormatFloat(v, 'g', -1, 64)); ±Inf are written "+Inf" and
// "-Inf", and missing values "NaN", as gota reads them. Strings are
// quoted by encoding/csv, which reads them back unchanged except that a
// "\r\n" inside one reads back as "\n"; the empty string of a one-column
// table is written "" so that its row is not an empty line. It returns an error if w is nil,
// df's error, if any, if df has no columns, or the first write error.
func WriteCSV(w io.Writer, df dataframe.DataFrame) error {
	if err := checkArgs("WriteCSV", w, df); err != nil {
		return err
	}
	cw := csv.NewWriter(w)
	if err := writeRecord(cw, w, df.Names()); err != nil {
		return err
	}
	rows, cols := df.Dims()
	record := make([]string, cols)
	for i := 0; i < rows; i++ {
		for j := range record {
			record[j] = formatElem(df.Elem(i, j))
		}
		if err := writeRecord(cw, w, record); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// writeRecord writes record through cw, except a record of one empty
// field: encoding/csv writes it as an empty line, which readers skip, so
// it is written as "" (quoted) directly to w after flushing cw.
func writeRecord(cw *csv.Writer, w io.Writer, record []string) error {
	if len(record) != 1 || record[0] != "" {
		return cw.Write(record)
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\"\"\n")
	return err
}

// WriteMarkdown writes df to w as a GitHub-flavoured Markdown table, with
// numeric columns right-aligned and floats at full precision as in
// WriteCSV. A string is written as Markdown source: a line break (\n,
// \r\n or \r) or a tab becomes a space, and '\' and '|' are escaped, so
// that the table keeps its columns and a backslash shows as one; other
// Markdown in a string (emphasis, code spans) is left to the renderer. It
// returns an error if w is nil, df's error, if any, if df has no
// columns, or the write error.
func WriteMarkdown(w io.Writer, df dataframe.DataFrame) error {
	if err := checkArgs("WriteMarkdown", w, df); err != nil {
		return err
	}
	var b strings.Builder
	names, types := df.Names(), df.Types()
	cells := make([]string, len(names))
	for j, name := range names {
		cells[j] = markdownCell(name)
	}
	writeMarkdownRow(&b, cells)
	for j, t := range types {
		cells[j] = "---"
		if t == series.Int || t == series.Float {
			cells[j] = "---:"
		}
	}
	writeMarkdownRow(&b, cells)
	rows, _ := df.Dims()
	for i := 0; i < rows; i++ {
		for j := range cells {
			cells[j] = markdownCell(formatElem(df.Elem(i, j)))
		}
		writeMarkdownRow(&b, cells)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// checkArgs returns the error of writer fn given w and df: that w is
// nil, df's own error, or that df has no columns (the zero DataFrame,
// whose Error is nil, writes no readable table).
func checkArgs(fn string, w io.Writer, df dataframe.DataFrame) error {
	if w == nil {
		return errors.New("tables: " + fn + " with a nil io.Writer")
	}
	if err := df.Error(); err != nil {
		return err
	}
	if _, cols := df.Dims(); cols == 0 {
		return errors.New("tables: " + fn + " of a DataFrame with no columns")
	}
	return nil
}

// formatElem formats a DataFrame element, floats at full precision.
func formatElem(e series.Element) string {
	if e.IsNA() {
		return "NaN"
	}
	if e.Type() == series.Float {
		v := e.Float()
		if math.IsNaN(v) {
			return "NaN"
		}
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	return e.String()
}

// markdownCell escapes s for a cell of a Markdown table.
func markdownCell(s string) string {
	return markdownEscaper.Replace(textCell(s))
}

var markdownEscaper = strings.NewReplacer(`\`, `\\`, "|", `\|`)

func writeMarkdownRow(b *strings.Builder, cells []string) {
	b.WriteString("|")
	for _, c := range cells {
		b.WriteString(" ")
		b.WriteString(c)
		b.WriteString(" |")
	}
	b.WriteString("\n")
}
