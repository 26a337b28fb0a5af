package reproduce

import (
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/hetgain/hetgain/aggregators"
	"github.com/hetgain/hetgain/gain"
)

func TestPaper(t *testing.T) {
	root, err := os.ReadFile(filepath.Join("..", "testdata", "paper_learned_gains.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if string(root) != paperCSV {
		t.Error("reproduce/paper_learned_gains.csv differs from testdata/paper_learned_gains.csv: run go generate ./reproduce")
	}
	if len(paperGains) != 8*9+5+4 {
		t.Errorf("%d paper cells, want 81 (8 tables of 9, Tag 8v3's 5, Football's 4)", len(paperGains))
	}
	for _, c := range []struct {
		exp, v, u, t string
		want         PaperGain
	}{
		{"matrix2", "continuous", "min", "max", PaperGain{0.504, 0.007, true}},
		{"matrix4", "discrete", "mean", "max", PaperGain{0.75, 0, true}},
		{"matrix4", "continuous", "max", "min", PaperGain{-0.037, 0.023, false}},
		{"capture", "capture", "mean", "max", PaperGain{0.12, 0.09, true}},
		{"tag", "2v2", "min", "max", PaperGain{3.47, 0.23, true}},
		{"tag", "2v2", "max", "max", PaperGain{-0.30, 0.15, false}},
		{"matrix8", "discrete", "mean", "min", PaperGain{-0.094, 0.068, false}},
		{"matrix11x2", "discrete", "min", "mean", PaperGain{0.454545, 0, true}},
	} {
		if g, ok := Paper(c.exp, c.v, c.u, c.t); !ok || g != c.want {
			t.Errorf("Paper(%s, %s, %s, %s) = %+v, %v; want %+v", c.exp, c.v, c.u, c.t, g, ok, c.want)
		}
	}
	// Every experiment of Lookup finds the paper's 9 cells per variant,
	// but for observability, whose paper result is a figure
	// (TestObservability checks it has none), and its control, which the
	// paper does not have.
	for _, name := range Names {
		if name == "observability" || name == "observability-index" {
			continue
		}
		e, _ := Lookup(name)
		for _, c := range e.cells("") {
			if _, ok := Paper(e.paperName(), c.variant, c.u, c.t); !ok {
				t.Errorf("%s: no paper value for %s", name, c.name)
			}
		}
	}
}

// paperSettings gives, for each table of the paper's learned gains, the
// N, M and kind of allocation of its theory's closed forms. The Football
// drill's efforts are not described; its four cells ((min, max),
// (mean, max), (mean, mean), (min, min) at N = M = 2) have the same sign
// of gain for either kind, which TestPaperBoldAgainstTheory checks.
var paperSettings = map[[2]string]struct {
	n, m int
	kind gain.Allocation
}{
	{"matrix2", "continuous"}:  {2, 2, gain.Continuous},
	{"matrix2", "discrete"}:    {2, 2, gain.Discrete},
	{"matrix4", "continuous"}:  {4, 4, gain.Continuous},
	{"matrix4", "discrete"}:    {4, 4, gain.Discrete},
	{"matrix8", "discrete"}:    {8, 8, gain.Discrete},
	{"matrix11x2", "discrete"}: {11, 2, gain.Discrete},
	{"capture", "capture"}:     {2, 2, gain.Continuous},
	{"tag", "2v2"}:             {2, 2, gain.Discrete},
	{"tag", "8v3"}:             {8, 3, gain.Discrete},
	{"football", "football"}:   {2, 2, gain.Continuous},
}

// TestPaperBoldAgainstTheory compares, cell by cell, whether the paper
// reports a learned gain as positive (bold, or coloured as positive in the
// 8v3 Tag figure) with the sign of the theory's closed form. They agree
// everywhere but in one cell: 8v3 Tag's (mean, max), which the paper runs
// as a control "for which we expect ΔR ≤ 0", though its own table of
// discrete gains gives (min(M, N) − 1)/M = 2/3 there. It learned −0.990 ±
// 1.025 in that cell, where 2v2 Tag's (mean, max), which it reports as
// positive, learned 0.36 ± 1.44.
func TestPaperBoldAgainstTheory(t *testing.T) {
	var disagree []string
	for k, g := range paperGains {
		s, ok := paperSettings[[2]string{k.experiment, k.variant}]
		if !ok {
			t.Errorf("no settings for the paper's table %s/%s", k.experiment, k.variant)
			continue
		}
		positive := closedFormPositive(t, k.u, k.t, s.n, s.m, s.kind)
		if k.experiment == "football" {
			if other := closedFormPositive(t, k.u, k.t, s.n, s.m, gain.Discrete); other != positive {
				t.Errorf("football (%s, %s): the sign of the gain depends on the kind of allocation", k.u, k.t)
			}
		}
		if positive != g.Bold {
			disagree = append(disagree, k.experiment+"/"+k.variant+"/"+k.u+"/"+k.t)
		}
	}
	sort.Strings(disagree)
	if len(disagree) != 1 || disagree[0] != "tag/8v3/mean/max" {
		t.Errorf("the paper's positive cells disagree with the theory at %v; want only tag/8v3/mean/max", disagree)
	}
	if g, _ := Paper("tag", "8v3", "mean", "max"); g.Mean >= 0 {
		t.Errorf("8v3 Tag (mean, max): %v, want the negative gain the paper reports", g.Mean)
	}
}

// closedFormPositive reports whether the closed-form gain of U∘T is
// positive.
func closedFormPositive(t *testing.T, u, tt string, n, m int, kind gain.Allocation) bool {
	t.Helper()
	uo, err1 := aggregators.Parse(u)
	to, err2 := aggregators.Parse(tt)
	if err1 != nil || err2 != nil {
		t.Fatalf("Parse(%q), Parse(%q): %v, %v", u, tt, err1, err2)
	}
	g, err := gain.ClosedForm(uo, to, n, m, kind)
	if err != nil {
		t.Fatal(err)
	}
	return g.Delta > 1e-12
}
