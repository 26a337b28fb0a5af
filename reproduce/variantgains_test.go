package reproduce

import (
	"errors"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/hetgain/hetgain/learn"
)

// TestObservability checks the preset: one variant per range of
// ObservabilityRanges, each Capture with the sensor at that range, under
// (min, max), 4 seeds of Capture's runs, and no paper gains.
func TestObservability(t *testing.T) {
	e := Observability()
	if err := e.check(); err != nil {
		t.Fatal(err)
	}
	wantLabels := []string{"range-0", "range-0p10", "range-0p20", "range-0p35", "range-0p70"}
	var labels []string
	for k, v := range e.Variants {
		labels = append(labels, v.Label)
		spec := v.Env
		spec.U, spec.T = "min", "max"
		env, err := spec.New(1)
		if err != nil {
			t.Fatalf("%s: %v", v.Label, err)
		}
		got, err := env.Params().Get("sensor.range")
		if err != nil || got != ObservabilityRanges[k] {
			t.Errorf("%s: sensor.range %v (%v), want %v", v.Label, got, err, ObservabilityRanges[k])
		}
		if env.ObsDim() != 4+2*2+12 {
			t.Errorf("%s: ObsDim %d, want 20 (12 rays)", v.Label, env.ObsDim())
		}
	}
	if !reflect.DeepEqual(labels, wantLabels) {
		t.Errorf("labels %q, want %q", labels, wantLabels)
	}
	capture := Capture()
	if e.Runs() != 5*4 || !reflect.DeepEqual(e.pairs(), [][2]string{{"min", "max"}}) ||
		e.Iterations != capture.Iterations || !reflect.DeepEqual(e.Team, capture.Team) || e.FinalEvals != capture.FinalEvals {
		t.Errorf("runs %d, pairs %q, iterations %d, team %+v; want 20 runs of Capture's (min, max)", e.Runs(), e.pairs(), e.Iterations, e.Team)
	}
	for _, c := range e.cells("") {
		if _, ok := Paper(e.paperName(), c.variant, c.u, c.t); ok {
			t.Errorf("%s: a paper gain, want none (the paper has a figure)", c.name)
		}
	}
	if got, err := Lookup(" Observability "); err != nil || got.Name != "observability" {
		t.Errorf("Lookup: %q, %v", got.Name, err)
	}
}

// TestObservabilityIndex checks the control preset: Observability's
// range-0 variant alone, 4 seeds of the same runs, with the agent index
// in the observation (two more inputs), and no VariantParam or paper
// budget.
func TestObservabilityIndex(t *testing.T) {
	e, obs := ObservabilityIndex(), Observability()
	if err := e.check(); err != nil {
		t.Fatal(err)
	}
	if len(e.Variants) != 1 || !reflect.DeepEqual(e.Variants[0], obs.Variants[0]) || e.Runs() != 4 {
		t.Errorf("variants %+v, %d runs; want Observability's range-0 alone, 4 runs", e.Variants, e.Runs())
	}
	want := obs.Team
	want.AgentIndex = true
	if !reflect.DeepEqual(e.Team, want) || e.Iterations != obs.Iterations || e.FinalEvals != obs.FinalEvals {
		t.Errorf("team %+v, %d iterations; want Observability's with AgentIndex", e.Team, e.Iterations)
	}
	if e.VariantParam != "" || e.PaperFrames != 0 {
		t.Errorf("VariantParam %q, PaperFrames %d; want none", e.VariantParam, e.PaperFrames)
	}
	if got, err := Lookup("observability-index"); err != nil || got.Name != "observability-index" {
		t.Errorf("Lookup: %q, %v", got.Name, err)
	}
}

// observabilityResults returns Observability's results made of
// one-row logs with the given final gains, gains[variant][seed-1], for
// the variants given in the order given.
func observabilityResults(variants []int, gains [][]float64) *Results {
	e := Observability()
	var vs []Variant
	for _, k := range variants {
		vs = append(vs, e.Variants[k])
	}
	e.Variants = vs
	r := &Results{Experiment: e}
	for k, v := range vs {
		for s, g := range gains[k] {
			row := learn.PairStats{Iteration: 400, Frames: 640000, HetEval: 5 + g, HomEval: 5, EvalGain: g}
			r.Cells = append(r.Cells, Cell{Variant: v.Label, U: "min", T: "max", Seed: s + 1,
				Log: []learn.PairStats{row}, Frames: 640000, TaskHet: math.NaN(), TaskHom: math.NaN()})
		}
	}
	return r
}

// TestVariantGains checks the panel of VariantGains against means and
// standard errors computed here: x in increasing order whatever the
// order of the variants, a line per seed, a variant with one seed drawn
// without a band, and the references at 0 and the threshold.
func TestVariantGains(t *testing.T) {
	gains := [][]float64{{0.9, 1.1, 0.7}, {0.2}, {0.5, -0.1, 0.3}}
	r := observabilityResults([]int{3, 4, 0}, gains) // ranges 0.35, 0.7, 0
	pn := r.variantGainPanel("min", "max")
	if len(pn.Bands) != 4 {
		t.Fatalf("%d bands, want the mean and 3 seeds", len(pn.Bands))
	}
	avg := pn.Bands[0]
	if !reflect.DeepEqual(avg.X, []float64{0, 0.35, 0.7}) {
		t.Errorf("x %v, want 0, 0.35, 0.7", avg.X)
	}
	// Range 0 has gains 0.5, -0.1, 0.3: mean 0.7/3, std 0.3055...
	m0 := 0.7 / 3
	sd0 := math.Sqrt((sq(0.5-m0) + sq(-0.1-m0) + sq(0.3-m0)) / 2)
	wantMean := []float64{m0, 0.9, 0.2}
	wantHalf := []float64{2 * sd0 / math.Sqrt(3), 2 * 0.2 / math.Sqrt(3), 0}
	for k := range wantMean {
		if math.Abs(avg.Mean[k]-wantMean[k]) > 1e-12 || math.Abs(avg.Hi[k]-avg.Mean[k]-wantHalf[k]) > 1e-12 ||
			math.Abs(avg.Mean[k]-avg.Lo[k]-wantHalf[k]) > 1e-12 {
			t.Errorf("point %d: %v [%v, %v], want %v ± %v", k, avg.Mean[k], avg.Lo[k], avg.Hi[k], wantMean[k], wantHalf[k])
		}
	}
	seed1 := pn.Bands[1]
	if seed1.Label != "seed 1" || !reflect.DeepEqual(seed1.X, []float64{0, 0.35, 0.7}) ||
		!reflect.DeepEqual(seed1.Mean, []float64{0.5, 0.9, 0.2}) || !seed1.Dashed {
		t.Errorf("seed 1: %+v", seed1)
	}
	if seed3 := pn.Bands[3]; seed3.Label != "seed 3" || !reflect.DeepEqual(seed3.X, []float64{0, 0.35}) {
		t.Errorf("seed 3: %+v, want the two variants it ran", seed3)
	}
	if !reflect.DeepEqual(pn.Reference, []float64{0, r.Experiment.positiveThreshold()}) {
		t.Errorf("references %v", pn.Reference)
	}
	if f := r.VariantGains(); f.Err() != nil {
		t.Error(f.Err())
	}
	// A pair without runs is an empty panel, and the figure still draws.
	empty := &Results{Experiment: Observability()}
	if pn := empty.variantGainPanel("min", "max"); len(pn.Bands) != 0 || !strings.Contains(pn.Title, "no data") {
		t.Errorf("no runs: %+v", pn)
	}
	if f := empty.VariantGains(); f.Err() != nil {
		t.Errorf("no runs: %v", f.Err())
	}
}

func sq(x float64) float64 { return x * x }

// meanSampleSD returns the mean of xs and their sample standard
// deviation, computed here rather than by the package's mean and
// sampleStd, which the tests check.
func meanSampleSD(xs []float64) (m, sd float64) {
	for _, x := range xs {
		m += x
	}
	m /= float64(len(xs))
	ss := 0.0
	for _, x := range xs {
		ss += sq(x - m)
	}
	return m, math.Sqrt(ss / float64(len(xs)-1))
}

// TestVariantGainsSave checks that Save writes variants.png for an
// experiment with a VariantParam (and TestSave that it writes none
// without), and that VariantGains panics without one.
func TestVariantGainsSave(t *testing.T) {
	r := observabilityResults([]int{0, 1}, [][]float64{{0.4, 0.6}, {0.1, 0.3}})
	dir := t.TempDir()
	paths, err := r.Save(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(dir, VariantGainsPNG), filepath.Join(dir, VariantCurvesPNG)}
	if len(paths) < 2 || !reflect.DeepEqual(paths[len(paths)-2:], want) {
		t.Fatalf("paths %q, want the last %q", paths, want)
	}
	for _, p := range want {
		decodePNG(t, p)
	}
	for name, draw := range map[string]func(*Results){
		"VariantGains": func(r *Results) { r.VariantGains() }, "VariantCurves": func(r *Results) { r.VariantCurves() },
	} {
		func() {
			defer func() {
				if p := recover(); p == nil || !strings.HasPrefix(p.(string), "reproduce: ") {
					t.Errorf("%s: panic %v, want a reproduce: message", name, p)
				}
			}()
			draw(&Results{Experiment: tiny(1)})
		}()
	}
}

// decodePNG fails t unless path holds a PNG image.
func decodePNG(t *testing.T, path string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := png.Decode(f); err != nil {
		t.Errorf("%s: %v", path, err)
	}
}

// TestVariantCurves checks the panel of VariantCurves against means and
// standard deviations computed here: one curve per variant in increasing
// order of the sensor range whatever the order of the variants, labelled
// by the range, an unfinished variant's label saying how many seeds it
// has, the frames in the unit given, and an empty panel for a pair
// without runs.
func TestVariantCurves(t *testing.T) {
	// gains[variant][seed][evaluation], at iterations 10, 20, 30.
	gains := [][][]float64{
		{{0.1, 0.5, 0.9}, {0.3, 0.7, 1.3}, {0.2, 0.3, 0.5}, {0, 0.4, 1.1}}, // range 0.35, all 4 seeds
		{{0.2, 0.2, 0.1}, {0.4, 0.0, -0.3}},                                // range 0, 2 of 4 seeds
	}
	e := Observability()
	e.Variants = []Variant{e.Variants[3], e.Variants[0]}
	r := &Results{Experiment: e}
	for k, v := range e.Variants {
		for s, gs := range gains[k] {
			var log []learn.PairStats
			for j, g := range gs {
				log = append(log, learn.PairStats{Iteration: 10 * (j + 1), Frames: int64(16000 * (j + 1)), EvalGain: g,
					HetEval: 5 + g, HomEval: 5})
			}
			r.Cells = append(r.Cells, Cell{Variant: v.Label, U: "min", T: "max", Seed: s + 1, Log: log,
				Frames: 48000, TaskHet: math.NaN(), TaskHom: math.NaN()})
		}
	}
	pn := r.variantCurvePanel("min", "max", 1e3)
	if len(pn.Bands) != 2 || !reflect.DeepEqual(pn.Reference, []float64{0}) {
		t.Fatalf("%d bands, references %v; want 2 and 0", len(pn.Bands), pn.Reference)
	}
	wantLabels := []string{"sensor.range = 0 (2 of 4 seeds)", "sensor.range = 0.35"}
	for k, b := range pn.Bands {
		if b.Label != wantLabels[k] {
			t.Errorf("band %d: label %q, want %q", k, b.Label, wantLabels[k])
		}
		if !reflect.DeepEqual(b.X, []float64{16, 32, 48}) {
			t.Errorf("band %d: x %v, want 16, 32, 48 thousand frames", k, b.X)
		}
		seeds := gains[1-k]
		for j := range b.X {
			var col []float64
			for _, gs := range seeds {
				col = append(col, gs[j])
			}
			m, sd := meanSampleSD(col)
			if math.Abs(b.Mean[j]-m) > 1e-12 || math.Abs(b.Hi[j]-m-sd) > 1e-12 || math.Abs(m-b.Lo[j]-sd) > 1e-12 {
				t.Errorf("band %d, point %d: %v [%v, %v], want %v ± %v", k, j, b.Mean[j], b.Lo[j], b.Hi[j], m, sd)
			}
		}
	}
	if f := r.VariantCurves(); f.Err() != nil {
		t.Error(f.Err())
	}
	empty := &Results{Experiment: Observability()}
	if pn := empty.variantCurvePanel("min", "max", 1e3); len(pn.Bands) != 0 || !strings.Contains(pn.Title, "no data") {
		t.Errorf("no runs: %+v", pn)
	}
	if f := empty.VariantCurves(); f.Err() != nil {
		t.Errorf("no runs: %v", f.Err())
	}
}

// TestWithVariants checks the restriction to some variants: in the
// experiment's order whatever the list's, all for an empty list, and
// errors naming an unknown label or one given twice.
func TestWithVariants(t *testing.T) {
	e := Observability()
	got, err := e.WithVariants(" range-0p35,range-0")
	if err != nil || len(got.Variants) != 2 || got.Variants[0].Label != "range-0" || got.Variants[1].Label != "range-0p35" {
		t.Errorf("WithVariants: %v, %+v", err, got.Variants)
	}
	if got.Runs() != 8 || len(e.Variants) != 5 {
		t.Errorf("%d runs (want 8); the original has %d variants (want 5)", got.Runs(), len(e.Variants))
	}
	if all, err := e.WithVariants(""); err != nil || len(all.Variants) != 5 {
		t.Errorf("empty list: %v, %d variants", err, len(all.Variants))
	}
	for list, says := range map[string]string{"range-1": `no variant "range-1" (it has range-0, range-0p10`, "range-0,range-0": "given twice"} {
		if _, err := e.WithVariants(list); !errors.Is(err, learn.ErrConfig) || !strings.Contains(err.Error(), says) {
			t.Errorf("WithVariants(%q): %v, want ErrConfig saying %q", list, err, says)
		}
	}
}
