package reproduce

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/go-gota/gota/dataframe"

	"github.com/hetgain/hetgain/figures"
)

// TestReadSeedGainsStored reads the stored tag-large reproduction and
// checks every cell's seeds and gains against its runs.csv as gota reads
// it.
func TestReadSeedGainsStored(t *testing.T) {
	dir := filepath.Join("..", "testdata", "reproductions", "tag-large")
	cells, err := ReadSeedGains(dir)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(dir, RunTableCSV))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	df := dataframe.ReadCSV(f)
	want := map[string]map[int]float64{}
	for i := 0; i < df.Nrow(); i++ {
		cell := df.Col("Variant").Elem(i).String() + " " + df.Col("U").Elem(i).String() + "-" + df.Col("T").Elem(i).String()
		if want[cell] == nil {
			want[cell] = map[int]float64{}
		}
		seed, _ := df.Col("Seed").Elem(i).Int()
		want[cell][seed] = df.Col("Gain").Elem(i).Float()
	}
	if len(cells) != 9 || len(want) != 9 {
		t.Fatalf("%d cells read, %d in runs.csv; want 9", len(cells), len(want))
	}
	for _, c := range cells {
		if !c.Task || !strings.Contains(c.Definition, "512 episodes") || !sort.IntsAreSorted(c.Seeds) || len(c.Seeds) != len(want[c.Cell]) {
			t.Errorf("cell %s: %v", c.Cell, c)
		}
		// Dir holds the cell's runs, each seed's spec.json.
		for _, k := range c.Seeds {
			if _, err := os.Stat(filepath.Join(c.Dir, fmt.Sprintf("seed%d", k), "spec.json")); err != nil {
				t.Errorf("cell %s, Dir %s: %v", c.Cell, c.Dir, err)
			}
		}
		for i, k := range c.Seeds {
			if c.Gains[i] != want[c.Cell][k] {
				t.Errorf("cell %s, seed %d: gain %v, runs.csv has %v", c.Cell, k, c.Gains[i], want[c.Cell][k])
			}
		}
	}
	if cells[5].Cell != "2v2 mean-max" || len(cells[5].Seeds) != 9 || cells[5].Dir != filepath.Join(dir, "2v2", "mean-max") {
		t.Errorf("sixth cell %v in %s, want 2v2 mean-max with 9 seeds in %s", cells[5], cells[5].Dir, filepath.Join(dir, "2v2", "mean-max"))
	}
}

// writeTable writes text as dir/name, creating dir.
func writeTable(t *testing.T, dir, name, text string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestReadSeedGainsTrain reads train's gains.csv, with and without a task
// evaluation, seeds out of order and a NaN gain.
func TestReadSeedGainsTrain(t *testing.T) {
	dir := t.TempDir()
	writeTable(t, dir, TableCSV, "Seed,Iterations,Gain,Seconds\n2,4,0.25,1\n1,4,-0.125,1\n3,4,NaN,1\n")
	got, err := ReadSeedGains(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Cell != "" || got[0].Dir != dir || got[0].Task || !reflect.DeepEqual(got[0].Seeds, []int{1, 2, 3}) ||
		got[0].Gains[0] != -0.125 || got[0].Gains[1] != 0.25 || !math.IsNaN(got[0].Gains[2]) {
		t.Errorf("ReadSeedGains = %+v", got)
	}
	writeTable(t, dir, TableCSV, "Seed,Gain,TaskGain\n1,5,0.1\n2,6,0.30000000000000004\n")
	got, err = ReadSeedGains(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || !got[0].Task || !reflect.DeepEqual(got[0].Gains, []float64{0.1, 0.30000000000000004}) {
		t.Errorf("with TaskGain: ReadSeedGains = %+v", got)
	}
	// runs.csv comes first where both are.
	writeTable(t, dir, RunTableCSV, "Experiment,Variant,U,T,Seed,Gain\nmatrix2,continuous,min,max,1,0.5\n")
	got, err = ReadSeedGains(dir)
	if err != nil || len(got) != 1 || got[0].Cell != "continuous min-max" || got[0].Definition != "the final evaluation's" ||
		got[0].Dir != filepath.Join(dir, "continuous", "min-max") {
		t.Errorf("with runs.csv: ReadSeedGains = %+v, %v", got, err)
	}
}

// TestReadSeedGainsErrors checks that each fault of a table is refused
// with the file, the row and what is wrong.
func TestReadSeedGainsErrors(t *testing.T) {
	empty := t.TempDir()
	if _, err := ReadSeedGains(empty); !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "neither runs.csv") {
		t.Errorf("an empty directory: %v", err)
	}
	for _, c := range []struct{ name, text, want string }{
		{TableCSV, "", "empty, want a header"},
		{TableCSV, "Seed,Gain\n1\n", "wrong number of fields"},
		{TableCSV, "Seed,Return\n1,2\n", `no column "Gain"`},
		{TableCSV, "Seed,Gain\n0,2\n", `row 2: seed "0", want a whole number from 1`},
		{TableCSV, "Seed,Gain\n1,2\nx,2\n", `row 3: seed "x"`},
		{TableCSV, "Seed,Gain\n1,2\n1,3\n", "row 3: seed 1 of the cell listed twice"},
		{TableCSV, "Seed,Gain\n1,+Inf\n", `row 2: Gain "+Inf", want a number`},
		{TableCSV, "Seed,Gain,TaskGain\n1,1,one\n", `row 2: TaskGain "one", want a number`},
		{RunTableCSV, "Experiment,Variant,U,T,Seed\n", `no column "Gain"`},
		{RunTableCSV, "Experiment,Variant,U,T,Seed,Gain\ntag,2v2,min,max,1,1\ntag,2v2,min,min,1,1\ntag,2v2,min,max,1,2\n",
			"row 4: seed 1 of cell 2v2 min-max listed twice"},
	} {
		dir := t.TempDir()
		writeTable(t, dir, c.name, c.text)
		_, err := ReadSeedGains(dir)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), c.name) {
			t.Errorf("%s %q: error %v, want one naming the file and %q", c.name, c.text, err, c.want)
		}
	}
}

// TestPairSeedGains pairs made-up cells: seeds in one only and a NaN gain
// are left out, and the test is that of the differences.
func TestPairSeedGains(t *testing.T) {
	a := SeedGains{Cell: "x", Seeds: []int{1, 2, 3, 4, 6}, Gains: []float64{1, 2, math.NaN(), 4, 6}}
	b := SeedGains{Cell: "y", Seeds: []int{1, 2, 3, 4, 5}, Gains: []float64{1.5, 1, 3, 7, 5}}
	got := PairSeedGains(a, b)
	want, _ := SignedRankTest([]float64{0.5, -1, 3})
	if got.CellA != "x" || got.CellB != "y" || !reflect.DeepEqual(got.Seeds, []int{1, 2, 4}) || got.Unpaired != 3 ||
		!reflect.DeepEqual(got.GainA, []float64{1, 2, 4}) || !reflect.DeepEqual(got.GainB, []float64{1.5, 1, 7}) || got.Test != want {
		t.Errorf("PairSeedGains = %+v; want seeds 1 2 4, 3 unpaired, test %+v", got, want)
	}
	// Gains whose difference overflows still give their signs and ranks.
	huge := SeedGains{Seeds: []int{1, 2, 3}, Gains: []float64{-math.MaxFloat64, 1, 2}}
	other := SeedGains{Seeds: []int{1, 2, 3}, Gains: []float64{math.MaxFloat64, 0, 5}}
	got = PairSeedGains(huge, other)
	if got.Test.N != 3 || got.Test.WPlus != 5 {
		t.Errorf("overflowing difference: %+v, want N 3, W+ 5 (ranks 2 and 3 positive)", got.Test)
	}
}

// TestPairedGainsTable checks the rows of two pairs and an empty table.
func TestPairedGainsTable(t *testing.T) {
	p := PairSeedGains(SeedGains{Cell: "c", Seeds: []int{1, 2}, Gains: []float64{0.1, 0.2}},
		SeedGains{Cell: "c", Seeds: []int{1, 2}, Gains: []float64{0.30000000000000004, 0.2}})
	df := PairedGainsTable([]PairedGains{p, p})
	if df.Nrow() != 4 || !reflect.DeepEqual(df.Names(), PairedGainsColumns) {
		t.Fatalf("table %v", df)
	}
	if d := df.Col("Difference").Float(); d[0] != 0.30000000000000004-0.1 || d[1] != 0 {
		t.Errorf("differences %v", d)
	}
	if empty := PairedGainsTable(nil); empty.Nrow() != 0 || empty.Err != nil {
		t.Errorf("empty table: %v, %v", empty, empty.Err)
	}
}

// FuzzReadSeedGains feeds any text as train's gains.csv and as a
// reproduction's runs.csv: each is refused with an error or gives cells
// whose seeds are ascending, distinct and from 1, with one gain each,
// a number or NaN.
func FuzzReadSeedGains(f *testing.F) {
	f.Add("Seed,Gain\n1,0.5\n2,NaN\n", false)
	f.Add("Seed,Gain,TaskGain\n2,1,2\n1,3,4\n", false)
	f.Add("Experiment,Variant,U,T,Seed,Gain\ntag,2v2,min,max,1,1\n", true)
	f.Fuzz(func(t *testing.T, text string, runTable bool) {
		name := TableCSV
		if runTable {
			name = RunTableCSV
		}
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		cells, err := ReadSeedGains(dir)
		if err != nil {
			return
		}
		for _, c := range cells {
			if len(c.Gains) != len(c.Seeds) {
				t.Fatalf("cell %+v: %d seeds, %d gains", c, len(c.Seeds), len(c.Gains))
			}
			for i, k := range c.Seeds {
				if k < 1 || (i > 0 && k <= c.Seeds[i-1]) || math.IsInf(c.Gains[i], 0) {
					t.Fatalf("cell %+v", c)
				}
			}
		}
	})
}

// TestReadCell picks a stored reproduction's cell by name, refuses a name
// it lacks with the names it has, and gives a train directory's one cell
// for any name.
func TestReadCell(t *testing.T) {
	dir := filepath.Join("..", "testdata", "reproductions", "tag-large-30m")
	g, err := ReadCell(dir, "2v2 mean-max")
	if want := storedSeeds(t, filepath.Join(dir, RunTableCSV)); err != nil || g.Cell != "2v2 mean-max" || !reflect.DeepEqual(g.Seeds, want) {
		t.Errorf("ReadCell(tag-large-30m, 2v2 mean-max) = %v, %v; want seeds %v", g, err, want)
	}
	if _, err := ReadCell(dir, "2v2 min-max"); err == nil || !strings.Contains(err.Error(), `has no cell "2v2 min-max" (it has "2v2 mean-max")`) {
		t.Errorf("a cell it lacks: %v", err)
	}
	train := t.TempDir()
	writeTable(t, train, TableCSV, "Seed,Gain\n1,0.5\n")
	if g, err := ReadCell(train, "any name"); err != nil || g.Cell != "" || len(g.Seeds) != 1 {
		t.Errorf("a train directory: %v, %v", g, err)
	}
	if _, err := ReadCell(t.TempDir(), "x"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("an empty directory: %v", err)
	}
}

// TestPairedGainsName checks the names of pairs of cells, and that the
// figure of the stored 4.8M-against-30M pair draws with that name.
func TestPairedGainsName(t *testing.T) {
	for _, c := range []struct{ a, b, want string }{
		{"", "", "the cell"}, {"x", "x", "x"}, {"x", "", "x"}, {"", "y", "y"}, {"x", "y", "x against y"},
	} {
		if got := (PairedGains{CellA: c.a, CellB: c.b}).Name(); got != c.want {
			t.Errorf("cells %q and %q: name %q, want %q", c.a, c.b, got, c.want)
		}
	}
	a, errA := ReadCell(filepath.Join("..", "testdata", "reproductions", "tag-large"), "2v2 mean-max")
	b, errB := ReadCell(filepath.Join("..", "testdata", "reproductions", "tag-large-30m"), "2v2 mean-max")
	if errA != nil || errB != nil {
		t.Fatal(errA, errB)
	}
	f := PairedGainsFigure("gains", "4.8M", "30M", []PairedGains{PairSeedGains(a, b)})
	if err := f.Err(); err != nil || len(f.PNG()) == 0 {
		t.Errorf("PairedGainsFigure: %v", err)
	}
	if f := PairedGainsFigureAsinh("gains", "4.8M", "30M", []PairedGains{PairSeedGains(a, b)}); f.Err() != nil || len(f.PNG()) == 0 {
		t.Errorf("PairedGainsFigureAsinh: %v", f.Err())
	}
	mismatched := PairedGains{CellA: "x", GainA: []float64{1, 2}, GainB: []float64{1}}
	if err := PairedGainsFigure("", "", "", []PairedGains{mismatched}).Err(); err == nil || !strings.Contains(err.Error(), `category "x"`) {
		t.Errorf("a pair with one gain missing: %v", err)
	}
	if err := PairedGainsFigureAsinh("", "", "", []PairedGains{mismatched}).Err(); err == nil || !strings.Contains(err.Error(), `category "x"`) {
		t.Errorf("asinh, a pair with one gain missing: %v", err)
	}
}

// TestLinearWidth checks the width of PairedGainsFigureAsinh's linear
// part: the median of the sizes of the gains that are neither 0 nor NaN,
// over both sides and every pair, and 1 when there are none.
func TestLinearWidth(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct {
		values []figures.PairedValues
		want   float64
	}{
		{[]figures.PairedValues{{A: []float64{0.1, -0.4, 0}, B: []float64{65, nan, -0.2}}}, 0.3}, // sizes 0.1 0.2 0.4 65
		{[]figures.PairedValues{{A: []float64{-3}, B: []float64{0}}, {A: []float64{1, 2}, B: []float64{nan, 9}}}, 2.5},
		{[]figures.PairedValues{{A: []float64{0, nan}, B: []float64{0, 0}}}, 1},
		{nil, 1},
	} {
		if got := linearWidth(c.values); math.Abs(got-c.want) > 1e-15 {
			t.Errorf("linearWidth(%v) = %v, want %v", c.values, got, c.want)
		}
	}
}

// TestPairedSummary checks the summary of made-up pairs with a NaN on
// each side: medians of each side's numbers, and of the three differences
// (1, −1, 3) their mean 1, standard error 2/√3 and median 1.
func TestPairedSummary(t *testing.T) {
	nan := math.NaN()
	p := PairedGains{GainA: []float64{0, 2, 1, nan, 4}, GainB: []float64{1, 1, 4, 7, nan}}
	got := p.Summary()
	want := PairedSummary{MedianA: 1.5, MedianB: 2.5, Mean: 1, SE: 2 / math.Sqrt(3), Median: 1, Higher: 2, Lower: 1}
	if math.Abs(got.SE-want.SE) > 1e-15 {
		t.Errorf("SE %v, want %v", got.SE, want.SE)
	}
	got.SE = want.SE
	if got != want {
		t.Errorf("Summary() = %+v, want %+v", got, want)
	}
	if s := (PairedGains{GainA: []float64{1}, GainB: []float64{2}}).Summary(); !math.IsNaN(s.SE) || s.Mean != 1 {
		t.Errorf("one pair: %+v, want mean 1 and a NaN standard error", s)
	}
}

// storedSeeds returns the Seed column of the runs.csv at path, read with
// encoding/csv (not by the code under test), in the file's order; it
// fails the test if the file has fewer than 5.
func storedSeeds(t *testing.T, path string) []int {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := -1
	for j, name := range rows[0] {
		if name == "Seed" {
			col = j
		}
	}
	var seeds []int
	for _, r := range rows[1:] {
		k, err := strconv.Atoi(r[col])
		if err != nil {
			t.Fatalf("%s: seed %q", path, r[col])
		}
		seeds = append(seeds, k)
	}
	if len(seeds) < 5 {
		t.Fatalf("%s: %d seeds, want at least the 5 first stored", path, len(seeds))
	}
	return seeds
}
