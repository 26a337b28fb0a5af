// Package tables writes gota DataFrames as CSV and Markdown with every float
// at full precision.
//
// gota's own DataFrame.WriteCSV rounds floats to six significant digits,
// which loses the difference between a numerical gain and its closed form;
// WriteCSV here writes the shortest representation that parses back to the
// same float64.
//
// A float that is a whole number is written as one ("0", "1"), so gota's
// dataframe.ReadCSV, which guesses each column's type from its values,
// reads a float column whose values all are whole numbers (a closed-form
// gain of 0, say) back as int. Name the float columns to read them back
// as written: dataframe.ReadCSV(r, dataframe.WithTypes(map[string]
// series.Type{"Gain": series.Float})) (see the example of WriteCSV).
package tables
