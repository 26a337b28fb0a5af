package reproduce

import (
	"bytes"
	"image/png"
	"math"
	"strings"
	"testing"
)

// TestFinalGains checks the numbers FinalGains draws against the table
// and the paper: for every pair, the learned mean ± 2 standard errors,
// NaN where no run finished, the paper's mean ± std and the closed form;
// and that a cell's bar lies above the threshold exactly where the table
// calls it clearly positive.
func TestFinalGains(t *testing.T) {
	ref, _ := referenceRun(t) // tiny(2): {min, max}², 2 seeds
	partial := &Results{Experiment: ref.Experiment, Cells: ref.Cells[:3]}
	for name, r := range map[string]*Results{"full": ref, "partial": partial} {
		df := r.Table()
		row := map[string]int{}
		for i := 0; i < df.Nrow(); i++ {
			if df.Col("Variant").Elem(i).String() == "continuous" {
				row[df.Col("U").Elem(i).String()+"-"+df.Col("T").Elem(i).String()] = i
			}
		}
		cats, series := r.finalGainSeries("continuous")
		if len(cats) != 4 || cats[1] != "U=min\nT=max" {
			t.Fatalf("%s: categories %q", name, cats)
		}
		learned, paper, closed := series[0], series[1], series[2]
		thr := r.Experiment.withDefaults().positiveThreshold()
		for k, pair := range r.Experiment.withDefaults().pairs() {
			cell := pair[0] + "-" + pair[1]
			l := learned.Points[k]
			i, ok := row[cell]
			if !ok {
				if !math.IsNaN(l.Value) {
					t.Errorf("%s %s: no finished run but a learned value %v", name, cell, l.Value)
				}
				continue
			}
			g, sd, n := df.Col("Gain").Elem(i).Float(), df.Col("GainStd").Elem(i).Float(), df.Col("Seeds").Elem(i).Float()
			half := 2 * sd / math.Sqrt(n)
			if l.Value != g || !closeOrBothNaN(l.Lo, g-half) || !closeOrBothNaN(l.Hi, g+half) {
				t.Errorf("%s %s: learned %+v, want %v ± %v", name, cell, l, g, half)
			}
			if pos := df.Col("Positive").Elem(i).String() == "true"; pos != (l.Lo > thr) {
				t.Errorf("%s %s: bar from %v, threshold %v, but Positive %v", name, cell, l.Lo, thr, pos)
			}
			pg, _ := Paper("matrix2", "continuous", pair[0], pair[1])
			if p := paper.Points[k]; p.Value != pg.Mean || p.Hi != pg.Mean+pg.Std {
				t.Errorf("%s %s: paper %+v, want %v ± %v", name, cell, p, pg.Mean, pg.Std)
			}
			if th := df.Col("Theory").Elem(i).Float(); closed.Points[k].Value != th {
				t.Errorf("%s %s: closed form %v, want %v", name, cell, closed.Points[k].Value, th)
			}
		}
	}
	if _, err := png.Decode(bytes.NewReader(ref.FinalGains("discrete").PNG())); err != nil {
		t.Error(err)
	}
	defer func() {
		if p := recover(); p == nil || !strings.Contains(p.(string), `no variant "sideways"`) {
			t.Errorf("unknown variant: panic %v", p)
		}
	}()
	ref.FinalGains("sideways")
}

func closeOrBothNaN(a, b float64) bool {
	return math.IsNaN(a) && math.IsNaN(b) || math.Abs(a-b) <= 1e-12*math.Max(1, math.Abs(b))
}
