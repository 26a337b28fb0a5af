package tables_test

import (
	"fmt"
	"log"
	"os"
	"strings"

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

// A float column of whole numbers reads back as int unless its type is
// given; with it, the values come back as written.
func ExampleWriteCSV_readBack() {
	df := dataframe.New(
		series.New([]int{2, 4}, series.Int, "N"),
		series.New([]float64{0, 1}, series.Float, "Gain"),
	)
	var b strings.Builder
	if err := tables.WriteCSV(&b, df); err != nil {
		log.Fatal(err)
	}
	guessed := dataframe.ReadCSV(strings.NewReader(b.String()))
	typed := dataframe.ReadCSV(strings.NewReader(b.String()),
		dataframe.WithTypes(map[string]series.Type{"Gain": series.Float}))
	fmt.Println(b.String()+"guessed:", guessed.Types(), "typed:", typed.Types(), typed.Col("Gain").Float())
	// Output:
	// N,Gain
	// 2,0
	// 4,1
	// guessed: [int int] typed: [int float] [0 1]
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
