package tables_test

import (
	"log"
	"os"

	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
	"github.com/hetgain/hetgain/tables"
)

// WriteCSV keeps every digit of a float64; gota's own writer would print
// 0.333333.
func ExampleWriteCSV() {
	df := dataframe.New(
		series.New([]string{"min∘max", "mean∘max"}, series.String, "Reward"),
		series.New([]float64{1.0 / 3, 2.0 / 3}, series.Float, "Gain"),
	)
	if err := tables.WriteCSV(os.Stdout, df); err != nil {
		log.Fatal(err)
	}
	// Output:
	// Reward,Gain
	// min∘max,0.3333333333333333
	// mean∘max,0.6666666666666666
}

func ExampleWriteMarkdown() {
	df := dataframe.New(
		series.New([]string{"min", "mean"}, series.String, "U"),
		series.New([]float64{0.75, 0}, series.Float, "Gain"),
	)
	if err := tables.WriteMarkdown(os.Stdout, df); err != nil {
		log.Fatal(err)
	}
	// Output:
	// | U | Gain |
	// | --- | ---: |
	// | min | 0.75 |
	// | mean | 0 |
}
