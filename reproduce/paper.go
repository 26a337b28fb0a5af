package reproduce

import (
	_ "embed"
	"encoding/csv"
	"fmt"
	"strconv"
	"strings"
)

// paperCSV is testdata/paper_learned_gains.csv of the module (see its
// README): the learned gains the paper reports.
//
//go:embed paper_learned_gains.csv
var paperCSV string

// PaperGain is a learned gain the paper reports at the end of training.
type PaperGain struct {
	Mean, Std float64
	// Bold says that the paper prints the gain in bold: it reports it as
	// a positive gain.
	Bold bool
}

// paperKey identifies a cell of the paper's tables.
type paperKey struct{ experiment, variant, u, t string }

// paperGains is the table of paperCSV, read once.
var paperGains = mustReadPaper(paperCSV)

func mustReadPaper(s string) map[paperKey]PaperGain {
	m, err := readPaper(s)
	if err != nil {
		panic("reproduce: paper_learned_gains.csv: " + err.Error())
	}
	return m
}

func readPaper(s string) (map[paperKey]PaperGain, error) {
	recs, err := csv.NewReader(strings.NewReader(s)).ReadAll()
	if err != nil {
		return nil, err
	}
	if len(recs) == 0 || strings.Join(recs[0], ",") != "experiment,variant,U,T,mean,std,bold" {
		return nil, fmt.Errorf("unexpected header")
	}
	out := make(map[paperKey]PaperGain, len(recs)-1)
	for k, r := range recs[1:] {
		var g PaperGain
		var e1, e2, e3 error
		g.Mean, e1 = strconv.ParseFloat(r[4], 64)
		g.Std, e2 = strconv.ParseFloat(r[5], 64)
		g.Bold, e3 = strconv.ParseBool(r[6])
		if e1 != nil || e2 != nil || e3 != nil {
			return nil, fmt.Errorf("line %d: %q", k+2, strings.Join(r, ","))
		}
		out[paperKey{r[0], r[1], r[2], r[3]}] = g
	}
	return out, nil
}

// Paper returns the learned gain the paper reports for the cell (U, T) of
// a variant of an experiment (names as in Lookup and the experiments'
// variant labels: "matrix4", "discrete", "min", "max"), and whether it
// reports one. The paper has tables for matrix2 and matrix4 (continuous
// and discrete), matrix8 and matrix11x2 (discrete), capture (variant
// "capture") and tag (variant "2v2"), and gives in its text the final
// gains of 8v3 Tag (experiment "tag", variant "8v3": five cells) and of a
// Football drill (experiment "football", variant "football": four cells),
// which have no experiment here.
func Paper(experiment, variant, u, t string) (PaperGain, bool) {
	g, ok := paperGains[paperKey{experiment, variant, u, t}]
	return g, ok
}
