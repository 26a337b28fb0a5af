package gain_test

import (
	"bytes"
	"encoding/csv"
	"flag"
	"fmt"
	"os"
	"strconv"
	"testing"

	"github.com/hetgain/hetgain/aggregators"
	"github.com/hetgain/hetgain/gain"
)

// paperFile is the transcription of the paper's Figure 2 table.
const paperFile = "../testdata/paper_minmeanmax.csv"

var updatePaper = flag.Bool("update-paper", false, "rewrite "+paperFile+" from the paper's formulas")

// paperGain returns the heterogeneity gain that the paper's Figure 2 table
// states, and whether the paper's derivation covers (N, M): it assumes
// N, M >= 2 throughout, and N >= M for the continuous T = max rows with
// U in {min, mean}, whose (M−1)/M needs an agent per task.
func paperGain(u, t string, kind gain.Allocation, n, m int) (float64, bool) {
	if n < 2 || m < 2 {
		return 0, false
	}
	N, M := float64(n), float64(m)
	if t != "max" && !(kind == gain.Discrete && u == "min" && t == "mean") {
		return 0, true
	}
	switch {
	case u == "max":
		return 0, true
	case kind == gain.Continuous:
		return (M - 1) / M, n >= m
	case t == "mean": // discrete min∘mean
		return float64(n/m) / N, true
	case u == "min": // discrete min∘max
		if n >= m {
			return 1, true
		}
		return 0, true
	}
	return (float64(min(n, m)) - 1) / M, true // discrete mean∘max
}

// paperRecords returns the rows of paperFile, N and M in 2..8.
func paperRecords() [][]string {
	records := [][]string{{"U", "T", "Allocation", "N", "M", "Gain"}}
	for _, kind := range []gain.Allocation{gain.Continuous, gain.Discrete} {
		for _, u := range extremes {
			for _, t := range extremes {
				for n := 2; n <= 8; n++ {
					for m := 2; m <= 8; m++ {
						g, ok := paperGain(u.String(), t.String(), kind, n, m)
						if !ok {
							continue
						}
						records = append(records, []string{u.String(), t.String(), kind.String(),
							strconv.Itoa(n), strconv.Itoa(m), strconv.FormatFloat(g, 'g', -1, 64)})
					}
				}
			}
		}
	}
	return records
}

// TestPaperFile checks that paperFile is the transcription of the paper's
// formulas; run with -update-paper to rewrite it.
func TestPaperFile(t *testing.T) {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	if err := w.WriteAll(paperRecords()); err != nil {
		t.Fatal(err)
	}
	if *updatePaper {
		if err := os.WriteFile(paperFile, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(paperFile)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, buf.Bytes()) {
		t.Errorf("%s differs from the paper's formulas; rerun with -update-paper", paperFile)
	}
}

// TestClosedFormMatchesPaper compares ClosedForm with every row of
// paperFile.
func TestClosedFormMatchesPaper(t *testing.T) {
	f, err := os.Open(paperFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	records, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(records) < 2 {
		t.Fatalf("%s has no rows", paperFile)
	}
	kinds := map[string]gain.Allocation{"continuous": gain.Continuous, "discrete": gain.Discrete}
	for _, rec := range records[1:] {
		u, op := aggregators.MustParse(rec[0]), aggregators.MustParse(rec[1])
		n, errN := strconv.Atoi(rec[3])
		m, errM := strconv.Atoi(rec[4])
		want, errG := strconv.ParseFloat(rec[5], 64)
		kind, ok := kinds[rec[2]]
		if errN != nil || errM != nil || errG != nil || !ok {
			t.Fatalf("bad row %v", rec)
		}
		g, err := gain.ClosedForm(u, op, n, m, kind)
		if err != nil {
			t.Fatal(err)
		}
		if !closeTo(g.Delta, want, 1e-15) {
			t.Errorf("%v∘%v, %v, N = %d, M = %d: ΔR = %v, paper %v", u, op, kind, n, m, g.Delta, want)
		}
	}
}

// TestClosedFormBeyondPaper pins the cells where the general formulas
// differ from the paper's, with a brute-force confirmation.
func TestClosedFormBeyondPaper(t *testing.T) {
	cases := []struct {
		u, t      aggregators.Operator
		kind      gain.Allocation
		n, m      int
		paper     float64 // the paper's formula evaluated outside its range
		want      float64
		gridSteps int
	}{
		// Continuous min∘max, N < M: 1/ceil(M/N) − 1/M, not (M−1)/M.
		{aggregators.Min{}, aggregators.Max{}, gain.Continuous, 2, 3, 2.0 / 3, 1.0/2 - 1.0/3, 6},
		{aggregators.Min{}, aggregators.Max{}, gain.Continuous, 2, 4, 3.0 / 4, 1.0/2 - 1.0/4, 12},
		// Continuous mean∘max, N < M: (min(N,M) − 1)/M, not (M−1)/M.
		{aggregators.Mean{}, aggregators.Max{}, gain.Continuous, 2, 3, 2.0 / 3, 1.0 / 3, 6},
		{aggregators.Mean{}, aggregators.Max{}, gain.Continuous, 1, 3, 2.0 / 3, 0, 6},
		// Discrete min∘mean, M = 1: 0, not floor(N/M)/N = 1.
		{aggregators.Min{}, aggregators.Mean{}, gain.Discrete, 3, 1, 1, 0, 0},
	}
	for _, c := range cases {
		g, err := gain.ClosedForm(c.u, c.t, c.n, c.m, c.kind)
		if err != nil {
			t.Fatal(err)
		}
		rows := oneHotRows(c.m)
		if c.kind == gain.Continuous {
			rows = simplexGrid(c.m, c.gridSteps)
		}
		het, hom := bestOverRows(t, aggregators.NewReward(c.u, c.t), c.n, rows)
		name := fmt.Sprintf("%v∘%v, %v, N = %d, M = %d", c.u, c.t, c.kind, c.n, c.m)
		if !closeTo(g.Delta, c.want, exact) || !closeTo(het-hom, c.want, exact) {
			t.Errorf("%s: ΔR = %v, brute force %v, want %v", name, g.Delta, het-hom, c.want)
		}
		if closeTo(c.want, c.paper, 1e-3) {
			t.Errorf("%s: the paper's formula %v agrees here", name, c.paper)
		}
	}
}
