package tables

import (
	"bufio"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
)

// textGap is the space between two columns of WriteText.
const textGap = "  "

// WriteText writes df to w as a plain-text table for a terminal: a header
// row, a row of dashes under it, and one line per row, with columns padded
// to a common width and separated by two spaces. Numeric columns (Int and
// Float), header included, are right-aligned and the others left-aligned.
// Floats are at full precision as in WriteCSV (the shortest form that
// parses back to the same value), and missing values are "NaN". Line
// breaks and tabs in strings become spaces, and trailing spaces are
// dropped. Widths count runes, so a column of East Asian wide characters
// may not line up. It returns an error if w is nil, df's error, if any,
// if df has no columns, or the first write error.
func WriteText(w io.Writer, df dataframe.DataFrame) error {
	if err := checkArgs("WriteText", w, df); err != nil {
		return err
	}
	names, types := df.Names(), df.Types()
	rows, cols := df.Dims()
	cells := make([][]string, rows+2) // header, dashes, rows
	widths := make([]int, cols)
	cells[0] = make([]string, cols)
	for j, name := range names {
		cells[0][j] = textCell(name)
		widths[j] = utf8.RuneCountInString(cells[0][j])
	}
	for i := 0; i < rows; i++ {
		row := make([]string, cols)
		for j := range row {
			row[j] = textCell(formatElem(df.Elem(i, j)))
			if n := utf8.RuneCountInString(row[j]); n > widths[j] {
				widths[j] = n
			}
		}
		cells[i+2] = row
	}
	cells[1] = make([]string, cols)
	for j := range cells[1] {
		cells[1][j] = strings.Repeat("-", widths[j])
	}
	right := make([]bool, cols)
	for j, t := range types {
		right[j] = t == series.Int || t == series.Float
	}
	bw := bufio.NewWriter(w)
	var line strings.Builder
	for _, row := range cells {
		line.Reset()
		for j, c := range row {
			if j > 0 {
				line.WriteString(textGap)
			}
			pad := strings.Repeat(" ", widths[j]-utf8.RuneCountInString(c))
			if right[j] {
				line.WriteString(pad)
				line.WriteString(c)
			} else {
				line.WriteString(c)
				line.WriteString(pad)
			}
		}
		bw.WriteString(strings.TrimRight(line.String(), " "))
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// textCell puts s on one line: line breaks and tabs become spaces.
func textCell(s string) string {
	return strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ", "\t", " ").Replace(s)
}
