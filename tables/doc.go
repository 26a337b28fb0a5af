// Package tables writes gota DataFrames as CSV and Markdown with every float
// at full precision.
//
// gota's own DataFrame.WriteCSV rounds floats to six significant digits,
// which loses the difference between a numerical gain and its closed form;
// WriteCSV here writes the shortest representation that parses back to the
// same float64.
package tables
