package reproduce

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"image/png"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/hetgain/hetgain/aggregators"
	"github.com/hetgain/hetgain/learn"
	"github.com/hetgain/hetgain/tables"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// hetgpsTiny is the softmax preset cut down to the matrix game with
// N = M = 2 and small networks and batches: a fraction of a second a run.
func hetgpsTiny(seeds, iterations int) HetGPSExperiment {
	e, err := HetGPSLookup("softmax")
	if err != nil {
		panic(err)
	}
	e, err = e.Only("matrix2", "matrix4")
	if err != nil {
		panic(err)
	}
	e.Seeds = seeds
	e = e.WithIterations(iterations)
	for k := range e.Settings {
		sp := &e.Settings[k].Spec
		sp.Run.Team = learn.Config{Hidden: []int{8}, Envs: 16, FramesPerIter: 64, Minibatch: 32, Epochs: 2}
		sp.Run.EvalEvery, sp.GradEpisodes = 2, 8
	}
	return e
}

func TestHetGPSPresets(t *testing.T) {
	exps := HetGPSExperiments()
	if len(exps) != len(HetGPSNames) {
		t.Fatalf("%d presets, %d names", len(exps), len(HetGPSNames))
	}
	for k, e := range exps {
		if e.Name != HetGPSNames[k] || e.Seeds != 3 {
			t.Errorf("preset %d: %s with %d seeds", k, e.Name, e.Seeds)
		}
		if err := e.check(); err != nil {
			t.Errorf("%s: %v", e.Name, err)
		}
		for _, s := range e.Settings {
			p := s.Spec.Params
			if len(p) != 2 || p[0].Name != "T.t" || p[1].Name != "U.t" {
				t.Errorf("%s %s: params %v", e.Name, s.Label, p)
			}
			if s.Spec.Descent != (e.Name == "descent") || s.Spec.DescentFloor != s.Spec.Descent {
				t.Errorf("%s %s: Descent %v, DescentFloor %v", e.Name, s.Label, s.Spec.Descent, s.Spec.DescentFloor)
			}
			want := map[string][2]float64{"softmax": {0, 0}, "powersum": {1, 1}, "adverse": {-5, 5}, "descent": {5, -5}}[e.Name]
			if p[0].Init != want[0] || p[1].Init != want[1] {
				t.Errorf("%s %s: start (%v, %v), want %v", e.Name, s.Label, p[0].Init, p[1].Init, want)
			}
			// Only the descent in Multi-goal-capture warms up, and θ then
			// moves for as many iterations as in the other settings.
			warm := 0
			if e.Name == "descent" && s.Label == "capture" {
				warm = hetgpsCaptureWarmUp
			}
			if s.Spec.WarmUp != warm || s.Spec.Run.Iterations-s.Spec.WarmUp != 400 {
				t.Errorf("%s %s: warm-up %d of %d iterations, want %d and 400 after it", e.Name, s.Label, s.Spec.WarmUp, s.Spec.Run.Iterations, warm)
			}
			// WithIterations counts the iterations after the warm-up.
			short, _ := e.WithIterations(150).setting(s.Label)
			if short.Spec.WarmUp != warm || short.Spec.Run.Iterations != warm+150 {
				t.Errorf("%s %s: WithIterations(150): %d iterations with warm-up %d, want %d", e.Name, s.Label,
					short.Spec.Run.Iterations, short.Spec.WarmUp, warm+150)
			}
			if e.Name == "powersum" && (p[0].Low != 0.3 || p[0].High != 6 || p[1].Low != 0.3 || p[1].High != 6) {
				t.Errorf("powersum %s: bounds %v", s.Label, p)
			}
		}
	}
	if got := exps[0].Labels(); !reflect.DeepEqual(got, []string{"matrix2", "matrix4", "capture"}) {
		t.Errorf("softmax settings %v", got)
	}
	if _, err := HetGPSLookup("sideways"); !errors.Is(err, learn.ErrConfig) {
		t.Errorf("unknown name: %v", err)
	}
	if _, err := LoadHetGPSPreset("sideways", t.TempDir()); !errors.Is(err, learn.ErrConfig) || !strings.Contains(err.Error(), "sideways") {
		t.Errorf("LoadHetGPSPreset, unknown name: %v", err)
	}
	if _, err := exps[0].Only("matrix3"); !errors.Is(err, learn.ErrConfig) || !strings.Contains(err.Error(), "matrix3") {
		t.Errorf("unknown setting: %v", err)
	}
	bad := hetgpsTiny(1, 2)
	bad.Settings[0].Spec.Params[0].Name = "X.t"
	if _, err := RunHetGPSExperiment(bad, HetGPSOptions{}); !errors.Is(err, learn.ErrConfig) || !strings.Contains(err.Error(), "X.t") {
		t.Errorf("bad parameter: %v", err)
	}
}

// TestHetGPSRunResumeLoad runs a tiny experiment, stops a second copy
// halfway and continues it, and reads it back: all three agree, and the
// files written are complete.
func TestHetGPSRunResumeLoad(t *testing.T) {
	e := hetgpsTiny(2, 6)
	full, err := RunHetGPSExperiment(e, HetGPSOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(full.Runs) != 4 {
		t.Fatalf("%d runs, want 4", len(full.Runs))
	}
	dir := t.TempDir()
	stop := false // in the second run's third iteration
	part, err := RunHetGPSExperiment(e, HetGPSOptions{Dir: dir, Stop: func() bool { return stop },
		Progress: func(p HetGPSProgress) { stop = stop || p.Done == 1 && p.Iteration == 3 }})
	if !errors.Is(err, learn.ErrStopped) || len(part.Runs) >= 4 {
		t.Fatalf("stopped: %v with %d runs", err, len(part.Runs))
	}
	var progress []HetGPSProgress
	res, err := RunHetGPSExperiment(e, HetGPSOptions{Dir: dir, Jobs: 2, Progress: func(p HetGPSProgress) { progress = append(progress, p) }})
	if err != nil {
		t.Fatal(err)
	}
	if last := progress[len(progress)-1]; last.Done != 4 || last.Total != 4 || len(last.Theta) != 2 {
		t.Errorf("last progress %+v", last)
	}
	// A run stopped halfway is first reported with its iterations on
	// disk, the runs finished there counted.
	for _, p := range progress {
		if p.FPS == 0 && p.Iteration < p.Iterations && p.Done != len(part.Runs) {
			t.Errorf("progress %+v of a stopped run's iterations on disk: want %d runs done", p, len(part.Runs))
		}
	}
	if p := progress[0]; p.Iteration != 3 || p.Done != 1 {
		t.Errorf("first progress %+v, want the stopped run's 3 iterations, 1 run done", p)
	}
	loaded, err := LoadHetGPS(e, dir)
	if err != nil {
		t.Fatal(err)
	}
	other := hetgpsTiny(2, 6)
	other.Settings[0].Spec.ThetaLR = 0.5
	if _, err := LoadHetGPS(other, dir); !errors.Is(err, learn.ErrOtherSettings) || !strings.Contains(err.Error(), "ThetaLR") {
		t.Errorf("LoadHetGPS with another θ learning rate: %v, want ErrOtherSettings naming ThetaLR", err)
	}
	csv := func(r *HetGPSResults) string {
		var b bytes.Buffer
		if err := tables.WriteCSV(&b, r.Trajectories()); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	want := csv(full)
	for name, r := range map[string]*HetGPSResults{"resumed": res, "loaded": loaded} {
		if got := csv(r); got != want {
			t.Errorf("%s trajectories differ:\n%s\nwant\n%s", name, got, want)
		}
		for k, run := range r.Runs {
			if !reflect.DeepEqual(run.Log[len(run.Log)-1].Theta, full.Runs[k].Log[len(run.Log)-1].Theta) {
				t.Errorf("%s %s: final θ differs", name, run.Name())
			}
		}
	}
	df := full.Trajectories()
	if df.Nrow() != 12 || df.Ncol() != 9 {
		t.Errorf("trajectories %d x %d, want 12 x 9:\n%v", df.Nrow(), df.Ncol(), df)
	}
	if got := df.Names(); !reflect.DeepEqual(got, []string{"setting", "iteration", "theta_T.t_mean", "theta_T.t_std",
		"theta_U.t_mean", "theta_U.t_std", "gain_mean", "gain_std", "seeds"}) {
		t.Errorf("columns %v", got)
	}

	paths, err := res.Save(dir)
	if err != nil {
		t.Fatal(err)
	}
	wantPaths := []string{HetGPSCSV, "hetgps-matrix2.png", "hetgps-matrix4.png", HetGPSSummary}
	for k, p := range paths {
		if k >= len(wantPaths) || p != filepath.Join(dir, wantPaths[k]) {
			t.Errorf("wrote %v, want %v", paths, wantPaths)
			break
		}
		if strings.HasSuffix(p, ".png") {
			f, err := os.Open(p)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := png.Decode(f); err != nil {
				t.Errorf("%s: %v", p, err)
			}
			f.Close()
		}
	}
	// The runs logged diversities, so the figure has a fourth panel (a
	// second row); without them, as in logs older than the diversity
	// columns, it has three.
	older := &HetGPSResults{Experiment: res.Experiment}
	for _, run := range res.Runs {
		run.Log = append([]learn.HetGPSStats(nil), run.Log...)
		for k := range run.Log {
			run.Log[k].HetDiversity, run.Log[k].HomDiversity = math.NaN(), math.NaN()
		}
		older.Runs = append(older.Runs, run)
	}
	with, without := res.Figure("matrix2"), older.Figure("matrix2")
	if with.Width != without.Width || !(with.Height > 1.5*without.Height) {
		t.Errorf("figure with diversities %v x %v, without %v x %v; want a second row", with.Width, with.Height, without.Width, without.Height)
	}
	if _, ok := res.diversityPanel("matrix2", true); !ok {
		t.Error("no diversity panel for runs that logged diversities")
	}

	sum := res.Summary()
	for _, w := range []string{"HetGPS softmax", "matrix2 (matrix-cont N=2 M=2", "matrix4", "seed 1: τ_T 0 → ", "seed 2:", "(rose: "} {
		if !strings.Contains(sum, w) {
			t.Errorf("summary lacks %q:\n%s", w, sum)
		}
	}
	// Each setting's legend states the thresholds Outcomes applies.
	for _, st := range res.Experiment.Settings {
		legend := fmt.Sprintf("of training\n  (rose, fell: by more than 0.1; the gain: the mean over the first and the last tenth of θ's steps, rose: ended above %.3g and higher by more than that, 0.02 of the return scale %g)\n  seed 1:",
			0.02*st.Scale, st.Scale)
		if !strings.Contains(sum, legend) {
			t.Errorf("summary lacks the legend of %s, %q:\n%s", st.Label, legend, sum)
		}
	}
}

// hetgpsNumbers prints a HetGPS log without its wall times, exactly
// (%v prints the shortest float that reads back the same) and with NaN
// equal to NaN.
func hetgpsNumbers(log []learn.HetGPSStats) string {
	var b strings.Builder
	for _, st := range log {
		st.Seconds, st.FPS = 0, 0
		fmt.Fprintf(&b, "%v\n", st)
	}
	return b.String()
}

// TestHetGPSFirstSeed searches seed 2 alone, as "-seeds 2 -first-seed 2"
// does: no seed 1 runs, seed 2's logs are those of the search of both
// seeds, and Load with all seeds, once seed 1 has run beside it, gives
// the full search's trajectories.
func TestHetGPSFirstSeed(t *testing.T) {
	e := hetgpsTiny(2, 4)
	full, err := RunHetGPSExperiment(e, HetGPSOptions{})
	if err != nil {
		t.Fatal(err)
	}
	second := e
	second.FirstSeed = 2
	if n := second.Runs(); n != 2 { // 2 settings x 1 seed
		t.Errorf("Runs %d, want 2", n)
	}
	dir := t.TempDir()
	res, err := RunHetGPSExperiment(second, HetGPSOptions{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Runs) != 2 {
		t.Fatalf("%d runs, want 2", len(res.Runs))
	}
	for _, run := range res.Runs {
		var want *HetGPSRun
		for k := range full.Runs {
			if full.Runs[k].Name() == run.Name() {
				want = &full.Runs[k]
			}
		}
		if run.Seed != 2 || want == nil {
			t.Fatalf("run %s, want seed 2 of the full search", run.Name())
		}
		if got, w := hetgpsNumbers(run.Log), hetgpsNumbers(want.Log); got != w {
			t.Errorf("run %s: log differs from the full search's:\n%s\nwant\n%s", run.Name(), got, w)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "matrix2", "seed1")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("seed 1: %v, want no directory", err)
	}
	if sum := res.Summary(); strings.Contains(sum, "seed 1:") || !strings.Contains(sum, "1 of 1 seeds") && !strings.Contains(sum, "0 of 1 seeds") {
		t.Errorf("summary of seed 2 alone:\n%s", sum)
	}
	first := e
	first.Seeds = 1
	if _, err := RunHetGPSExperiment(first, HetGPSOptions{Dir: dir}); err != nil {
		t.Fatal(err)
	}
	all, err := LoadHetGPS(e, dir)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(all.Trajectories().Records(), full.Trajectories().Records()) {
		t.Error("trajectories of seeds searched apart differ from the full search's")
	}
	for _, fs := range []int{-1, 3} {
		bad := e
		bad.FirstSeed = fs
		if _, err := RunHetGPSExperiment(bad, HetGPSOptions{}); !errors.Is(err, learn.ErrConfig) || !strings.Contains(err.Error(), "FirstSeed") {
			t.Errorf("FirstSeed %d: %v, want ErrConfig naming FirstSeed", fs, err)
		}
	}
}

// TestHetGPSRunWithoutCheckpoints gives more seeds to an experiment whose
// finished runs were kept without checkpoints (as testdata keeps them):
// they are read back with their logs untouched, only the new seeds run,
// and the whole equals a run of all seeds from the start.
func TestHetGPSRunWithoutCheckpoints(t *testing.T) {
	full, err := RunHetGPSExperiment(hetgpsTiny(2, 4), HetGPSOptions{})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	first, err := RunHetGPSExperiment(hetgpsTiny(1, 4), HetGPSOptions{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	logs := map[string][]byte{}
	for _, r := range first.Runs {
		d := filepath.Join(dir, filepath.FromSlash(r.Name()))
		if err := os.Remove(filepath.Join(d, "checkpoint.gob")); err != nil {
			t.Fatal(err)
		}
		if logs[d], err = os.ReadFile(filepath.Join(d, "log.csv")); err != nil {
			t.Fatal(err)
		}
	}
	var progress []HetGPSProgress
	res, err := RunHetGPSExperiment(hetgpsTiny(2, 4), HetGPSOptions{Dir: dir, Progress: func(p HetGPSProgress) { progress = append(progress, p) }})
	if err != nil {
		t.Fatalf("run over runs without checkpoints: %v", err)
	}
	for k, p := range progress[:len(first.Runs)] { // read back first, all done from the start
		if p.Done != len(first.Runs) || p.FPS != 0 || !strings.HasSuffix(p.Run, "seed1") {
			t.Errorf("progress %d: %+v, want seed 1 read back, Done %d", k, p, len(first.Runs))
		}
	}
	last := progress[len(progress)-1]
	if len(res.Runs) != len(full.Runs) {
		t.Fatalf("%d runs, want %d", len(res.Runs), len(full.Runs))
	}
	for k, r := range res.Runs {
		w := full.Runs[k]
		if r.Name() != w.Name() || !reflect.DeepEqual(r.Log[len(r.Log)-1].Theta, w.Log[len(w.Log)-1].Theta) {
			t.Errorf("run %s: final θ differs from the full run's %s", r.Name(), w.Name())
		}
	}
	if last.Done != 4 || len(last.Theta) != 2 {
		t.Errorf("last progress %+v", last)
	}
	for d, want := range logs {
		if got, _ := os.ReadFile(filepath.Join(d, "log.csv")); !bytes.Equal(got, want) {
			t.Errorf("%s: log rewritten", d)
		}
		if learn.HasCheckpoint(d) {
			t.Errorf("%s: a read-back run got a checkpoint", d)
		}
	}
}

// TestHetGPSOutcomes checks the verdicts on made-up logs.
func TestHetGPSOutcomes(t *testing.T) {
	e := hetgpsTiny(1, 10)
	e.Settings = e.Settings[:1]
	run := func(seed int, tEnd, uEnd, g0, g1 float64) HetGPSRun {
		r := HetGPSRun{Setting: "matrix2", Seed: seed, Names: []string{"T.t", "U.t"}, Init: []float64{0, 0}}
		for it := 1; it <= 10; it++ {
			f := float64(it) / 10
			r.Log = append(r.Log, learn.HetGPSStats{PairStats: learn.PairStats{Iteration: it},
				Theta: []float64{f * tEnd, f * uEnd}, GradGain: g0 + (g1-g0)*(f-0.1)/0.9})
		}
		return r
	}
	res := &HetGPSResults{Experiment: e, Runs: []HetGPSRun{run(1, 2, -2, 0, 0.4), run(2, -0.5, -0.6, 0, 0), run(3, 2, 0.05, 0, 0.3)}}
	o := res.Outcomes()
	if len(o) != 3 {
		t.Fatalf("%d outcomes", len(o))
	}
	if !o[0].TRose || !o[0].UFell || !o[0].GainRose || !o[0].AsExpected {
		t.Errorf("seed 1: %+v", o[0])
	}
	if o[1].TRose || !o[1].UFell || o[1].GainRose || o[1].AsExpected || !o[1].GainNearZero {
		t.Errorf("seed 2: %+v", o[1])
	}
	if !o[2].TRose || o[2].UFell || o[2].AsExpected {
		t.Errorf("seed 3: %+v", o[2])
	}
	if math.Abs(o[0].GainEnd-0.4) > 1e-12 || o[0].GainStart != 0 {
		t.Errorf("seed 1: gain %v → %v", o[0].GainStart, o[0].GainEnd)
	}
	// Where the runs ended, over seeds (worked out by hand): τ_T at 2,
	// −0.5, 2 has mean 7/6, std √(25/12) = 1.443 and median 2; τ_U at −2,
	// −0.6, 0.05 has mean −0.85, std √1.0975 = 1.048 and median −0.6; the
	// gain at 0.4, 0, 0.3 has mean 0.2333, std √0.04333 = 0.2082 and
	// median 0.3.
	// With T of boundary 1 and U of boundary 0 (powermean T, lse U): seed
	// 3's τ_U of 0.05 is above U's boundary, and seed 1's τ_T of 2 above
	// T's.
	two := *res
	two.Experiment.Family, two.Experiment.Boundary, two.Experiment.UFamily, two.Experiment.UBoundary = "powermean", 1, "lse", 0
	if o2 := two.Outcomes(); !o2[0].InGainRegion || o2[2].InGainRegion {
		t.Errorf("two boundaries: in the gain region %v, %v; want true, false", o2[0].InGainRegion, o2[2].InGainRegion)
	}
	if s := two.Summary(); !strings.Contains(s, "lse U and powermean T") || !strings.Contains(s, "τ_T > 1, τ_U < 0 at the end") {
		t.Errorf("two boundaries: summary\n%s", s)
	}
	end := "at the end, over 3 seeds (mean ± std, median): τ_T 1.17 ± 1.44 (median 2), τ_U -0.85 ± 1.05 (median -0.6), gain 0.233 ± 0.208 (median 0.3)"
	if s := res.Summary(); !strings.Contains(s, "1 of 3 seeds as expected") || !strings.Contains(s, end) {
		t.Errorf("summary:\n%s\nwant the lines %q and %q", s, "1 of 3 seeds as expected", end)
	}
	// From an adverse start, moving towards the region of a gain is not
	// enough, nor is a gain rising from below 0 to 0.
	adverse := run(4, -4, 4.5, -0.03, 0)
	adverse.Init = []float64{-5, 5}
	for k := range adverse.Log {
		f := float64(k+1) / 10
		adverse.Log[k].Theta = []float64{-5 + f, 5 - 0.5*f}
	}
	res.Runs = []HetGPSRun{adverse}
	if o := res.Outcomes()[0]; !o.TRose || !o.UFell || o.InGainRegion || o.GainRose || o.AsExpected {
		t.Errorf("adverse: %+v", o)
	}
	// The gain is judged on the iterations that stepped θ: a warm-up's
	// rows (no gain) do not count, and the first window after it is the
	// start.
	warm := run(5, 2, -2, 0.05, 0.4)
	for k := 0; k < 4; k++ {
		warm.Log[k].GradGain = math.NaN()
	}
	res.Runs = []HetGPSRun{warm}
	ow := res.Outcomes()[0]
	if want := warm.Log[4].GradGain; ow.GainStart != want || math.Abs(ow.GainEnd-0.4) > 1e-12 || !ow.GainRose || !ow.AsExpected {
		t.Errorf("after a warm-up: gain %v → %v (want %v → 0.4), %+v", ow.GainStart, ow.GainEnd, want, ow)
	}
	for k := range warm.Log {
		warm.Log[k].GradGain = math.NaN()
	}
	if o := res.Outcomes()[0]; !math.IsNaN(o.GainStart) || !math.IsNaN(o.GainPeak) || o.GainRose || o.AsExpected {
		t.Errorf("without environment steps: %+v", o)
	}
	// A descent is judged the other way.
	e.Settings[0].Spec.Descent = true
	res.Experiment = e
	res.Runs = []HetGPSRun{run(1, -2, 2, 0.3, 0.01)}
	if o := res.Outcomes(); !o[0].TFell || !o[0].URose || !o[0].GainNearZero || !o[0].AsExpected {
		t.Errorf("descent: %+v", o[0])
	}
	// A descent held inside the region of a gain is not as expected, even
	// with its gain near 0 (as a floored descent can be: see
	// learn.HetGPSSpec.DescentFloor), and its summary line says why.
	inside := run(2, 0.5, -0.5, 0.3, 0.01)
	inside.Init = []float64{1, -1}
	res.Runs = []HetGPSRun{inside}
	if o := res.Outcomes()[0]; !o.TFell || !o.URose || !o.GainNearZero || !o.InGainRegion || o.AsExpected {
		t.Errorf("descent inside the region: %+v", o)
	}
	if s := res.Summary(); !strings.Contains(s, "0 of 1 seeds as expected") || !strings.Contains(s, "left τ_T > 0 > τ_U: no, gain peak") ||
		!strings.Contains(s, "(fell, rose: by more than 0.1; the gain: the mean over a tenth of θ's steps, near 0: within") {
		t.Errorf("descent inside the region, summary:\n%s", s)
	}
}

// TestHetGPSBand checks the bands of the figures: mean ± std for a free
// parameter and the gain, clipped to the bounds for a bounded one.
func TestHetGPSBand(t *testing.T) {
	x, mean, sd := []float64{1, 2, 3}, []float64{0.5, 3, 5.5}, []float64{1, 1, 1}
	free := hetgpsBand(x, mean, sd, true, learn.ThetaParam{Name: "T.t"})
	bounded := hetgpsBand(x, mean, sd, true, learn.ThetaParam{Name: "T.t", Init: 1, Low: 0.3, High: 6})
	for k := range mean {
		if free.Lo[k] != mean[k]-sd[k] || free.Hi[k] != mean[k]+sd[k] {
			t.Errorf("free band at %d: [%g, %g], want mean ± std [%g, %g]", k, free.Lo[k], free.Hi[k], mean[k]-sd[k], mean[k]+sd[k])
		}
		wantLo, wantHi := math.Max(0.3, mean[k]-sd[k]), math.Min(6, mean[k]+sd[k])
		if bounded.Lo[k] != wantLo || bounded.Hi[k] != wantHi {
			t.Errorf("bounded band at %d: [%g, %g], want [%g, %g]", k, bounded.Lo[k], bounded.Hi[k], wantLo, wantHi)
		}
	}
	if !strings.Contains(bounded.Label, "clipped to [0.3, 6]") || strings.Contains(free.Label, "clipped") {
		t.Errorf("labels %q and %q: only the bounded band should say it is clipped", bounded.Label, free.Label)
	}
	if one := hetgpsBand(x, mean, sd, false, learn.ThetaParam{}); one.Lo != nil || one.Hi != nil {
		t.Errorf("band of one seed has Lo %v, Hi %v; want none", one.Lo, one.Hi)
	}
}

// TestDescentPlateau pins the reason HetGPSExperiments gives for a descent
// whose learned gain falls below 0: at the end point of the matrix-game
// descent's seed 9 (τ_T = −5.6, τ_U = −10.2), two specialists earn almost
// nothing, one of them spreading its effort alone earns little more, and
// only both spreading together reach the homogeneous team's 0.5.
func TestDescentPlateau(t *testing.T) {
	r := aggregators.NewReward(aggregators.Softmax{T: -10.2}, aggregators.Softmax{T: -5.6})
	value := func(a []float64) float64 {
		v, err := r.Value(mat.NewDense(2, 2, a))
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	if v := value([]float64{1, 0, 0, 1}); v > 0.01 {
		t.Errorf("R(specialists) = %v, want below 0.01", v)
	}
	best := 0.0
	for k := 1; k <= 100; k++ {
		a := float64(k) / 100
		best = math.Max(best, value([]float64{1 - a, a, 0, 1}))
	}
	if best > 0.06 {
		t.Errorf("one agent spreading alone reaches R = %v, want at most 0.06", best)
	}
	if v := value([]float64{0.5, 0.5, 0.5, 0.5}); math.Abs(v-0.5) > 1e-12 {
		t.Errorf("R(uniform efforts) = %v, want 0.5", v)
	}
}

// TestHetGPSParamsByName checks that the trajectories, the figure and the
// summary find the searched parameters by name: a search of U.t alone
// fills theta_U.t, not T.t's column, and has no verdict (it needs both);
// with one seed the standard deviations are NaN, not 0.
func TestHetGPSParamsByName(t *testing.T) {
	e, err := hetgpsTiny(1, 3).Only("matrix2")
	if err != nil {
		t.Fatal(err)
	}
	e.Settings[0].Spec.Params = []learn.ThetaParam{{Name: "U.t", Init: 0}}
	res, err := RunHetGPSExperiment(e, HetGPSOptions{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	tr := res.Trajectories()
	if got, want := strings.Join(tr.Names(), ","), "setting,iteration,theta_U.t_mean,theta_U.t_std,gain_mean,gain_std,seeds"; got != want {
		t.Fatalf("columns %s, want %s", got, want)
	}
	last := res.Runs[0].Log[len(res.Runs[0].Log)-1]
	if u := tr.Col("theta_U.t_mean").Float(); u[len(u)-1] != last.Theta[0] {
		t.Errorf("theta_U.t_mean ends at %v, the run's U.t at %v", u[len(u)-1], last.Theta[0])
	}
	for _, c := range []string{"theta_U.t_std", "gain_std"} {
		for k, v := range tr.Col(c).Float() {
			if !math.IsNaN(v) {
				t.Fatalf("%s[%d] = %v with one seed, want NaN", c, k, v)
			}
		}
	}
	if len(res.Outcomes()) != 0 || !strings.Contains(res.Summary(), "no verdict (it needs both T.t and U.t searched, not U.t)") {
		t.Errorf("a search of U.t alone: %d outcomes, summary\n%s", len(res.Outcomes()), res.Summary())
	}
	if png := res.Figure("matrix2").PNG(); len(png) == 0 {
		t.Error("no figure")
	}

	// Two settings that search different parameters: each keeps its rows.
	two, err := hetgpsTiny(1, 3).Only("matrix2", "matrix4")
	if err != nil {
		t.Fatal(err)
	}
	two.Settings[1].Spec.Params = []learn.ThetaParam{{Name: "U.t", Init: 0}}
	res, err = RunHetGPSExperiment(two, HetGPSOptions{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	tr = res.Trajectories()
	rows := map[string]int{}
	for _, v := range tr.Col("setting").Records() {
		rows[v]++
	}
	if rows["matrix2"] != 3 || rows["matrix4"] != 3 {
		t.Errorf("rows per setting %v, want 3 each", rows)
	}
}

// TestPowerSumStartSignal pins why the power-sum preset ends as the paper
// in only about half its seeds while softmax ends so in every one: at the
// start, what the search sees of τ_T tells specialists from identical
// agents for softmax but not for power-sum. With U and T the mean
// (softmax at 0), ∂R/∂τ_T is the mean over tasks of the spread of the
// agents' efforts on each task: 0 for identical rows, positive for any
// team whose rows differ. With U and T the sum (power-sum at 1), ∂R/∂τ_T
// is Σ_ij a_ij ln a_ij, which only sees how concentrated each agent's row
// is: a team of identical but concentrated agents scores higher than two
// spread specialists, and two teams whose rows are the same up to order
// score the same.
func TestPowerSumStartSignal(t *testing.T) {
	softmax := aggregators.NewReward(aggregators.Softmax{T: 0}, aggregators.Softmax{T: 0})
	powerSum := aggregators.NewReward(aggregators.PowerSum{T: 1}, aggregators.PowerSum{T: 1})
	innerDerivative := func(r *aggregators.Reward, a *mat.Dense) float64 {
		g, err := r.ParamGradient(a)
		if err != nil {
			t.Fatal(err)
		}
		return g.InnerShared()
	}
	rnd := rand.New(rand.NewSource(1))
	for trial := 0; trial < 500; trial++ {
		n, m := 2+rnd.Intn(3), 2+rnd.Intn(3)
		row := randomSimplexRow(rnd, m)
		het, hom := mat.NewDense(n, m, nil), mat.NewDense(n, m, nil)
		for i := 0; i < n; i++ {
			hom.SetRow(i, row)
			perm := rnd.Perm(m)
			for j := range perm {
				het.Set(i, j, row[perm[j]])
			}
		}
		wantSoftmax := meanColumnVariance(het)
		if d := innerDerivative(softmax, het) - innerDerivative(softmax, hom); math.Abs(d-wantSoftmax) > 1e-12 {
			t.Fatalf("softmax at 0, %v against %v: ∂R/∂τ_T differs by %v, want the mean spread %v", het.RawMatrix().Data, row, d, wantSoftmax)
		}
		if d := innerDerivative(powerSum, het) - innerDerivative(powerSum, hom); math.Abs(d) > 1e-12 {
			t.Fatalf("power-sum at 1, %v against %v: ∂R/∂τ_T differs by %v, want 0", het.RawMatrix().Data, row, d)
		}
		want := 0.0
		for _, v := range het.RawMatrix().Data {
			if v > 0 {
				want += v * math.Log(v)
			}
		}
		if got := innerDerivative(powerSum, het); math.Abs(got-want) > 1e-12 {
			t.Fatalf("power-sum at 1, %v: ∂R/∂τ_T = %v, want Σ a ln a = %v", het.RawMatrix().Data, got, want)
		}
	}

	specialists := mat.NewDense(2, 2, []float64{0.7, 0.3, 0.3, 0.7})
	concentrated := mat.NewDense(2, 2, []float64{0.9, 0.1, 0.9, 0.1})
	if d := innerDerivative(softmax, specialists) - innerDerivative(softmax, concentrated); d <= 0 {
		t.Errorf("softmax at 0: ∂gain/∂τ_T = %v for spread specialists against concentrated identical agents, want > 0", d)
	}
	if d := innerDerivative(powerSum, specialists) - innerDerivative(powerSum, concentrated); d >= 0 {
		t.Errorf("power-sum at 1: ∂gain/∂τ_T = %v for spread specialists against concentrated identical agents, want < 0", d)
	}
}

// TestPowerSumStartSplit pins what the search sees of the two exponents
// together at the power-sum start (τ_T = τ_U = 1, both sums), against a
// homogeneous team whose agents choose the same efforts (as with the
// modes in the matrix game). The difference of the gain's two
// derivatives,
//
//	∂gain/∂τ_T − ∂gain/∂τ_U = Σ_j T_j (ln N − H_j),
//
// where T_j is the heterogeneous team's total effort on task j and H_j
// the entropy of how the agents split it (a_ij / T_j over i), is never
// negative and is 0 exactly when the heterogeneous team's rows are equal:
// the split of the gradient always points the paper's way (τ_T up, τ_U
// down) by how specialised that team is. What the two derivatives share
// has either sign, and Adam steps each parameter by about its learning
// rate whatever the sizes, so when the shared part is the larger both
// exponents move together.
func TestPowerSumStartSplit(t *testing.T) {
	powerSum := aggregators.NewReward(aggregators.PowerSum{T: 1}, aggregators.PowerSum{T: 1})
	split := func(a *mat.Dense) float64 { // ∂R/∂τ_T − ∂R/∂τ_U
		g, err := powerSum.ParamGradient(a)
		if err != nil {
			t.Fatal(err)
		}
		return g.InnerShared() - g.Outer
	}
	rnd := rand.New(rand.NewSource(2))
	for trial := 0; trial < 500; trial++ {
		n, m := 2+rnd.Intn(3), 2+rnd.Intn(3)
		het, hom := mat.NewDense(n, m, nil), mat.NewDense(n, m, nil)
		row := randomSimplexRow(rnd, m)
		for i := 0; i < n; i++ {
			hom.SetRow(i, row)
			het.SetRow(i, randomSimplexRow(rnd, m))
		}
		want := 0.0 // Σ_j T_j (ln N − H_j)
		for j := 0; j < m; j++ {
			total := mat.Sum(het.ColView(j))
			entropy := 0.0
			for i := 0; i < n; i++ {
				if w := het.At(i, j) / total; w > 0 {
					entropy -= w * math.Log(w)
				}
			}
			if total > 0 {
				want += total * (math.Log(float64(n)) - entropy)
			}
		}
		got := split(het) - split(hom)
		if math.Abs(got-want) > 1e-12 || got < -1e-12 {
			t.Fatalf("%v against identical rows %v: ∂gain/∂τ_T − ∂gain/∂τ_U = %v, want Σ_j T_j (ln N − H_j) = %v >= 0",
				het.RawMatrix().Data, row, got, want)
		}
		for i := 1; i < n; i++ { // the heterogeneous team with equal rows: no split
			het.SetRow(i, het.RawRowView(0))
		}
		if d := split(het) - split(hom); math.Abs(d) > 1e-12 {
			t.Fatalf("equal rows %v against identical rows %v: split %v, want 0", het.RawMatrix().Data, row, d)
		}
	}
}

// TestPowerSumInteriorPeak pins why τ_T need not stay high in the
// power-sum search once it is there: for fixed allocations that are not
// fully concentrated, specialists [[e, 1−e], [1−e, e]] against identical
// agents [[e, 1−e], [e, 1−e]] with e < 1, the gain under power-sum T and
// U peaks at a τ_T inside the bounds (0.3, 6): ∂gain/∂τ_T is positive at
// τ_T = 1.5 and negative at 5.9 (checked also by central finite
// differences), although the gain itself is positive at both. Only with
// e = 1 (each agent wholly on one task) is it 0 at the top.
func TestPowerSumInteriorPeak(t *testing.T) {
	gain := func(e, tT, tU float64) (value, dTauT float64) {
		r := aggregators.NewReward(aggregators.PowerSum{T: tU}, aggregators.PowerSum{T: tT})
		het := mat.NewDense(2, 2, []float64{e, 1 - e, 1 - e, e})
		hom := mat.NewDense(2, 2, []float64{e, 1 - e, e, 1 - e})
		for k, a := range []*mat.Dense{het, hom} {
			v, err := r.Value(a)
			if err != nil {
				t.Fatal(err)
			}
			g, err := r.ParamGradient(a)
			if err != nil {
				t.Fatal(err)
			}
			sign := 1.0 - 2*float64(k)
			value += sign * v
			dTauT += sign * g.InnerShared()
		}
		return value, dTauT
	}
	for _, tU := range []float64{0.3, 0.5, 0.8} {
		for _, e := range []float64{0.9, 0.97} {
			for _, c := range []struct {
				tT       float64
				positive bool
			}{{1.5, true}, {5.9, false}} {
				v, d := gain(e, c.tT, tU)
				const h = 1e-6
				vp, _ := gain(e, c.tT+h, tU)
				vm, _ := gain(e, c.tT-h, tU)
				if fd := (vp - vm) / (2 * h); math.Abs(fd-d) > 1e-7 {
					t.Fatalf("e %v, τ_T %v, τ_U %v: ∂gain/∂τ_T = %v, finite differences %v", e, c.tT, tU, d, fd)
				}
				if v <= 0 || (d > 0) != c.positive {
					t.Errorf("e %v, τ_T %v, τ_U %v: gain %v, ∂gain/∂τ_T %v; want a positive gain and a derivative that is positive: %v",
						e, c.tT, tU, v, d, c.positive)
				}
			}
		}
		if _, d := gain(1, 5.9, tU); d != 0 {
			t.Errorf("e = 1, τ_U %v: ∂gain/∂τ_T = %v at τ_T 5.9, want 0", tU, d)
		}
	}
}

// randomSimplexRow returns a random point of the unit simplex in R^m with
// about a quarter of its coordinates exactly 0, the case of 0 ln 0 in the
// power-sum's derivative (schur.Domain.Sample almost never gives a 0).
func randomSimplexRow(rnd *rand.Rand, m int) []float64 {
	row := make([]float64, m)
	total := 0.0
	for j := range row {
		if rnd.Intn(4) > 0 {
			row[j] = rnd.ExpFloat64()
		}
		total += row[j]
	}
	if total == 0 {
		row[0], total = 1, 1
	}
	for j := range row {
		row[j] /= total
	}
	return row
}

// meanColumnVariance returns the mean over the columns of a of the
// population variance of each column's entries.
func meanColumnVariance(a *mat.Dense) float64 {
	n, m := a.Dims()
	col := make([]float64, n)
	sum := 0.0
	for j := 0; j < m; j++ {
		mat.Col(col, j, a)
		mean := floats.Sum(col) / float64(n)
		for _, v := range col {
			sum += (v - mean) * (v - mean) / float64(n)
		}
	}
	return sum / float64(m)
}

// TestMedian checks median on odd and even lengths against sorting by
// hand, and that it leaves its argument as it was.
func TestMedian(t *testing.T) {
	for _, c := range []struct {
		v    []float64
		want float64
	}{
		{[]float64{3}, 3},
		{[]float64{5, -1, 2}, 2},
		{[]float64{4, 1, 3, 2}, 2.5},
		{[]float64{6, 0.3, 0.3, 0.3, 6, 1}, 0.65},
	} {
		in := append([]float64(nil), c.v...)
		if got := median(c.v); got != c.want {
			t.Errorf("median(%v) = %v, want %v", in, got, c.want)
		}
		if !floats.Equal(in, c.v) {
			t.Errorf("median changed its argument %v to %v", in, c.v)
		}
	}
	if !math.IsNaN(median(nil)) {
		t.Errorf("median(nil) = %v, want NaN", median(nil))
	}
}

// loadPowerSumMatrix18 reads stored 18 seeds of power-sum HetGPS in the
// matrix game: with sumDifference those of the preset
// (testdata/reproductions/hetgps-powersum-matrix18-sumdifference), as its
// own search; without, those of the preset before it stepped θ in the
// basis of the exponents' sum and difference
// (testdata/reproductions/hetgps-powersum-matrix18), as the preset's
// search with Adam in τ_T and τ_U themselves.
func loadPowerSumMatrix18(t *testing.T, sumDifference bool) (*HetGPSResults, string) {
	t.Helper()
	e, err := HetGPSLookup("powersum")
	if err != nil {
		t.Fatal(err)
	}
	if e, err = e.Only("matrix2"); err != nil {
		t.Fatal(err)
	}
	if !e.Settings[0].Spec.SumDifference {
		t.Fatal("the powersum preset's matrix2 does not step θ in the sum-and-difference basis")
	}
	e.Seeds = 18
	e.Settings[0].Spec.SumDifference = sumDifference
	dir := filepath.Join("..", "testdata", "reproductions", "hetgps-powersum-matrix18")
	if sumDifference {
		dir += "-sumdifference"
	}
	r, err := LoadHetGPS(e, dir)
	if err != nil || len(r.Runs) != 18 {
		t.Fatalf("LoadHetGPS: %v", err)
	}
	return r, dir
}

// TestHetGPSOutcomeDiversity checks the teams' final diversities of
// HetGPSOutcome against the logs read by encoding/csv (the evaluations of
// the last 40 of 400 iterations), NaN for logs without them, and the
// finding of REPRODUCTIONS.md on the stored power-sum seeds of Adam in
// τ_T and τ_U themselves: the seeds that end as the paper are exactly
// those whose heterogeneous team ends split (diversity 1), and in the
// others it ends on one task (0).
func TestHetGPSOutcomeDiversity(t *testing.T) {
	r, dir := loadPowerSumMatrix18(t, false)
	expected := 0
	for _, o := range r.Outcomes() {
		rows := readCSVRows(t, filepath.Join(dir, "matrix2", fmt.Sprintf("seed%d", o.Seed), "log.csv"))
		var het, hom []float64
		for _, row := range rows {
			it, _ := strconv.Atoi(row["iteration"])
			if it > 360 && row["het_diversity"] != "NaN" {
				h, _ := strconv.ParseFloat(row["het_diversity"], 64)
				m, _ := strconv.ParseFloat(row["hom_diversity"], 64)
				het, hom = append(het, h), append(hom, m)
			}
		}
		if len(het) == 0 || math.Abs(o.HetDiversity-floats.Sum(het)/float64(len(het))) > 1e-15 ||
			math.Abs(o.HomDiversity-floats.Sum(hom)/float64(len(hom))) > 1e-15 {
			t.Errorf("seed %d: diversities %v and %v, the log's last tenth %v and %v", o.Seed, o.HetDiversity, o.HomDiversity, het, hom)
		}
		if o.AsExpected {
			expected++
		}
		if split := o.HetDiversity > 0.99; split != o.AsExpected || !split && o.HetDiversity > 0.01 {
			t.Errorf("seed %d: as expected %v with the heterogeneous team's diversity %v", o.Seed, o.AsExpected, o.HetDiversity)
		}
	}
	if expected != 9 {
		t.Errorf("%d of 18 seeds as expected, want the stored 9", expected)
	}
	sum := r.Summary()
	if split, one := strings.Count(sum, "diversity at the end: heterogeneous 1.00"), strings.Count(sum, "diversity at the end: heterogeneous 0.00"); split != 9 || one != 9 {
		t.Errorf("summary: %d seeds with the heterogeneous team split and %d on one task, want 9 and 9\n%s", split, one, sum)
	}
	// The preset's stored runs have the diversities; the capture runs of
	// the preset before (plain power sums) predate them.
	preset, err := LoadHetGPSPreset("powersum", filepath.Join("..", "testdata", "reproductions", "hetgps-powersum"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(preset.Summary(), "diversity at the end"); n != 6 {
		t.Errorf("summary with %d seeds' diversities, want 6:\n%s", n, preset.Summary())
	}
	plain, _ := plainPowerSumPreset(t).Only("capture")
	old, err := LoadHetGPS(plain, filepath.Join("..", "testdata", "reproductions", "hetgps-powersum-sums"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(old.Summary(), "diversity at the end"); n != 0 || len(old.Runs) != 3 {
		t.Errorf("plain power sums: %d runs, summary with %d seeds' diversities, want 3 and none:\n%s", len(old.Runs), n, old.Summary())
	}
	for _, o := range old.Outcomes() {
		if !math.IsNaN(o.HetDiversity) || !math.IsNaN(o.HomDiversity) {
			t.Errorf("plain power sums seed %d: diversities %v and %v, want NaN", o.Seed, o.HetDiversity, o.HomDiversity)
		}
	}
}

// TestHetGPSOutcomeFigure checks that OutcomeFigure groups the runs by
// their outcome and draws them, and refuses a setting it lacks.
func TestHetGPSOutcomeFigure(t *testing.T) {
	r, _ := loadPowerSumMatrix18(t, false)
	groups := r.byOutcome("matrix2")
	asExpected := map[int]bool{}
	for _, o := range r.Outcomes() {
		asExpected[o.Seed] = o.AsExpected
	}
	for k, g := range groups {
		if len(g.results.Runs) != 9 {
			t.Errorf("%s: %d runs, want 9", g.label, len(g.results.Runs))
		}
		for _, run := range g.results.Runs {
			if asExpected[run.Seed] != (k == 0) {
				t.Errorf("seed %d in the group %q", run.Seed, g.label)
			}
		}
	}
	f := r.OutcomeFigure("matrix2")
	if err := f.Err(); err != nil {
		t.Fatal(err)
	}
	if _, err := png.Decode(bytes.NewReader(f.PNG())); err != nil {
		t.Error(err)
	}
	defer func() {
		if p := recover(); p == nil || !strings.Contains(fmt.Sprint(p), `no setting "capture"`) {
			t.Errorf("a setting it lacks: recovered %v", p)
		}
	}()
	r.OutcomeFigure("capture")
}

// TestSaveOutcomeFigures checks that Save draws the figure by outcome
// exactly for the settings whose seeds split: the 18 power-sum seeds (9
// and 9), and no setting of the softmax and adverse presets, where every
// seed of a setting ended alike.
func TestSaveOutcomeFigures(t *testing.T) {
	r, _ := loadPowerSumMatrix18(t, false)
	dir := t.TempDir()
	paths, err := r.Save(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{HetGPSCSV, "hetgps-matrix2.png", "hetgps-matrix2-outcomes.png", HetGPSSummary}
	if len(paths) != len(want) {
		t.Fatalf("Save wrote %v, want %v", paths, want)
	}
	for i, p := range paths {
		if p != filepath.Join(dir, want[i]) {
			t.Errorf("path %d: %s, want %s", i, p, want[i])
		}
	}
	data, err := os.ReadFile(filepath.Join(dir, "hetgps-matrix2-outcomes.png"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(data, r.OutcomeFigure("matrix2").PNG()) {
		t.Error("hetgps-matrix2-outcomes.png is not OutcomeFigure's")
	}
	for _, name := range []string{"softmax", "adverse"} {
		res, err := LoadHetGPSPreset(name, filepath.Join("..", "testdata", "reproductions", "hetgps-"+name))
		if err != nil {
			t.Fatal(err)
		}
		split, err := res.SaveOutcomeFigures(t.TempDir())
		if err != nil || len(split) != 0 {
			t.Errorf("%s: SaveOutcomeFigures wrote %v (%v), want nothing: every seed of a setting ended alike", name, split, err)
		}
	}
}

// readCSVRows reads the CSV file at path with encoding/csv, each row as a
// map from its header's names.
func readCSVRows(t *testing.T, path string) []map[string]string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	records, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil || len(records) < 2 {
		t.Fatalf("%s: %d records, %v", path, len(records), err)
	}
	var rows []map[string]string
	for _, rec := range records[1:] {
		row := map[string]string{}
		for j, name := range records[0] {
			row[name] = rec[j]
		}
		rows = append(rows, row)
	}
	return rows
}

// TestStoredPowerSumSumDifference checks the stored test of θ stepping in
// the basis of the exponents' sum and difference (power-sum in the matrix
// game, seeds 1 to 18; REPRODUCTIONS.md, HetGPS): both stores' summaries
// are those of their logs, the preset's seeds 1 to 3 (hetgps-powersum) are
// its seeds 1 to 3, the comparison gives what REPRODUCTIONS.md reports
// (16 of 18 against 9 of 18), and the preset steps θ in that basis if and
// only if the one-sided exact McNemar p is below 0.05, the rule fixed
// before the runs.
func TestStoredPowerSumSumDifference(t *testing.T) {
	adam, _ := loadPowerSumMatrix18(t, false)
	rotated, dir := loadPowerSumMatrix18(t, true)
	for _, c := range []struct {
		r    *HetGPSResults
		dir  string
		want int
	}{{adam, strings.TrimSuffix(dir, "-sumdifference"), 9}, {rotated, dir, 16}} {
		if *update {
			if _, err := c.r.Save(c.dir); err != nil {
				t.Fatal(err)
			}
		}
		stored, err := os.ReadFile(filepath.Join(c.dir, HetGPSSummary))
		if err != nil {
			t.Fatal(err)
		}
		if got := c.r.Summary(); got != string(stored) {
			t.Errorf("%s: the stored %s differs from the logs' summary:\n%s\nwant\n%s", c.dir, HetGPSSummary, stored, got)
		}
		n := 0
		for _, o := range c.r.Outcomes() {
			if o.AsExpected {
				n++
			}
		}
		if n != c.want {
			t.Errorf("%s: %d of 18 seeds as expected, want %d", c.dir, n, c.want)
		}
	}
	for seed := 1; seed <= 3; seed++ {
		for _, name := range []string{"log.csv", "spec.json"} {
			a, errA := os.ReadFile(filepath.Join(dir, "matrix2", fmt.Sprintf("seed%d", seed), name))
			b, errB := os.ReadFile(filepath.Join("..", "testdata", "reproductions", "hetgps-powersum", "matrix2", fmt.Sprintf("seed%d", seed), name))
			if errA != nil || errB != nil || !bytes.Equal(a, b) {
				t.Errorf("seed %d: hetgps-powersum's %s is not the 18 seeds' (%v, %v)", seed, name, errA, errB)
			}
		}
	}
	comps := CompareHetGPS(adam, rotated)
	if len(comps) != 1 || len(comps[0].Seeds) != 18 {
		t.Fatalf("comparison %+v, want matrix2 over 18 seeds", comps)
	}
	if c := comps[0]; len(c.OnlyA) != 1 || len(c.OnlyB) != 8 || math.Abs(c.P-0.01953125) > 1e-12 {
		t.Errorf("as expected only with Adam in τ %v, only in the sum-difference basis %v, p = %v; want 1, 8 and 5/256",
			c.OnlyA, c.OnlyB, c.P)
	}
	preset, _ := HetGPSLookup("powersum")
	matrix, _ := preset.setting("matrix2")
	if matrix.Spec.SumDifference != (comps[0].P < 0.05) {
		t.Errorf("the powersum preset's SumDifference is %v, but the stored test gives p = %.4g", matrix.Spec.SumDifference, comps[0].P)
	}
}
