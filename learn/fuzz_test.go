package learn

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzConfigCheck: Check never panics, rejects every NaN or infinite
// setting with ErrConfig, and a configuration it accepts has every field
// in its domain after defaults; small accepted configurations train one
// iteration without panicking.
func FuzzConfigCheck(f *testing.F) {
	f.Add(0, 0, false, 64, 64, 64, 1, 1600, 4, 400, 3e-3, 3e-3, 0.9, 0.9, 0.2, 0.0, 1.0, 0.0, false)
	f.Add(1, 1, true, 4, 3, 2, 2, 30, 2, 7, 1.0, 0.5, 1.0, 1.0, 10.0, -1.0, 40.0, -20.0, true)
	f.Add(2, 0, false, 0, 1, 1, 1, 1, 1, 1, math.NaN(), 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, false)
	f.Add(0, -1, false, -3, 1, -1, 0, 0, 0, 0, math.Inf(1), 0.0, 2.0, -1.0, -0.1, math.Inf(-1), -1.0, 3.0, false)
	f.Add(0, 0, false, 16385, 1<<62, 64, 1, 1600, 4, 400, 3e-3, 3e-3, 0.9, 0.9, 0.2, 0.0, 1.0, 0.0, false)
	f.Fuzz(func(t *testing.T, kind, critic int, index bool, h0, h1, envs, workers, fpi, epochs, mb int,
		lr, clr, gamma, lambda, clip, ent, mgn, ils float64, raw bool) {
		cfg := Config{Kind: TeamKind(kind), Critic: CriticKind(critic), AgentIndex: index, Hidden: []int{h0, h1},
			Envs: envs, Workers: workers, FramesPerIter: fpi, Epochs: epochs, Minibatch: mb,
			LR: lr, CriticLR: clr, Gamma: gamma, Lambda: lambda, Clip: clip, EntropyCoef: ent,
			MaxGradNorm: mgn, InitLogStd: ils, RawAdvantage: raw}
		err := cfg.Check()
		if err != nil && !errors.Is(err, ErrConfig) {
			t.Fatalf("Check = %v, not ErrConfig", err)
		}
		if err != nil && !strings.Contains(err.Error(), " = ") {
			t.Fatalf("Check = %v names no field", err)
		}
		for _, v := range []float64{lr, clr, gamma, lambda, clip, ent, mgn, ils} {
			if (math.IsNaN(v) || math.IsInf(v, 0)) && err == nil {
				t.Fatalf("%+v: Check accepted %v", cfg, v)
			}
		}
		if err != nil {
			return
		}
		c := cfg.withDefaults()
		for _, v := range []int{c.Envs, c.Workers, c.FramesPerIter, c.Epochs, c.Minibatch, c.Hidden[0], c.Hidden[1]} {
			if v < 1 {
				t.Fatalf("accepted %+v", c)
			}
		}
		if c.Hidden[0] > MaxHiddenWidth || c.Hidden[1] > MaxHiddenWidth {
			t.Fatalf("accepted hidden widths %v", c.Hidden)
		}
		for _, v := range []float64{c.LR, c.CriticLR, c.Gamma, c.Lambda, c.Clip, c.MaxGradNorm} {
			if !(v > 0) || math.IsInf(v, 0) {
				t.Fatalf("accepted %+v", c)
			}
		}
		if c.Gamma > 1 || c.Lambda > 1 || !(c.EntropyCoef >= 0) || math.IsInf(c.EntropyCoef, 0) ||
			c.InitLogStd < minLogStd || c.InitLogStd > maxLogStd || c.Kind != Heterogeneous && c.Kind != Homogeneous ||
			c.Critic != Centralised && c.Critic != PerAgent {
			t.Fatalf("accepted %+v", c)
		}
		// Train small accepted configurations for one iteration.
		if c.Hidden[0] > 8 || c.Hidden[1] > 8 || c.Envs > 8 || c.Workers > 2 || c.FramesPerIter > 64 || c.Epochs > 3 {
			return
		}
		for _, disc := range []bool{false, true} {
			tm, err := NewTeam(matrixMaker(2, 3, disc, "min", "max"), cfg)
			if err != nil {
				t.Fatalf("NewTeam after Check: %v", err)
			}
			if _, err := tm.Iterate(); err != nil && !errors.Is(err, ErrDiverged) {
				t.Fatalf("Iterate: %v", err)
			}
		}
	})
}

// FuzzEnvSpec: describing, parsing and building any environment spec
// never panics; NaN operator parameters and negative sizes are
// ErrConfig errors, as is every error of New (with a nil environment);
// RunSpec.Check accepts exactly the specs that build; a spec that builds
// gives the sizes it asks for.
func FuzzEnvSpec(f *testing.F) {
	f.Add("matrix", 2, 2, false, "min", "max", 0, false)
	f.Add("Capture", 3, 2, false, "softmax(-1)", "mean", 5, true)
	f.Add("tag", 2, 2, false, "max", "powermean(-inf)", 7, false)
	f.Add("matrix", 0, -1, true, "softmax(NaN)", "lse(2", 0, false)
	f.Add("foo", 1, 1, false, "blotto(1; 0.5:0.25, 1.5:0.75)", "level(2)", -4, false)
	f.Fuzz(func(t *testing.T, name string, agents, tasks int, discrete bool, u, tt string, length int, sensor bool) {
		s := EnvSpec{Name: name, Agents: agents, Tasks: tasks, Discrete: discrete, U: u, T: tt, EpisodeLength: length, Sensor: sensor}
		_ = s.String()
		_, rerr := s.Reward()
		if rerr != nil && !errors.Is(rerr, ErrConfig) {
			t.Fatalf("Reward = %v, not ErrConfig", rerr)
		}
		if (strings.Contains(strings.ToLower(u), "nan") || strings.Contains(strings.ToLower(tt), "nan")) && rerr == nil {
			t.Fatalf("U %q, T %q: NaN accepted", u, tt)
		}
		if agents < -3 || agents > 5 || tasks < -3 || tasks > 5 || length < -3 || length > 50 {
			return
		}
		env, err := s.New(2)
		if (agents < 0 || tasks < 0 || rerr != nil) && !errors.Is(err, ErrConfig) {
			t.Fatalf("%+v: New = %v, want ErrConfig", s, err)
		}
		if err != nil && (env != nil || !errors.Is(err, ErrConfig)) {
			t.Fatalf("%+v: New = %v, %v, want a nil environment and ErrConfig", s, env, err)
		}
		if cerr := (RunSpec{Env: s}).Check(); (cerr == nil) != (err == nil) {
			t.Fatalf("%+v: RunSpec.Check = %v, New = %v", s, cerr, err)
		}
		if err != nil {
			return
		}
		d := s.withDefaults()
		if env.Agents() != d.Agents || env.Tasks() != d.Tasks || env.Batch() != 2 {
			t.Fatalf("%+v: built N=%d M=%d B=%d", s, env.Agents(), env.Tasks(), env.Batch())
		}
		if length > 0 && env.Name() != "matrix" && env.Name() != "matrix-discrete" && env.EpisodeLength() != length {
			t.Fatalf("%+v: episode length %d", s, env.EpisodeLength())
		}
	})
}

// FuzzReadLog: ReadLog and ReadHetGPSLog never panic on any file, and
// refuse what they cannot read with an error wrapping ErrCheckpoint; what
// they accept has one row per data line, numbered 1, 2, ..., with no
// value a run cannot write (checkLogValues), and a last line cut short
// (no newline) is dropped, not parsed.
func FuzzReadLog(f *testing.F) {
	pair := strings.Join(pairHeader, ",") + "\n"
	older := strings.Join(olderHeader(pairHeader, 2), ",") + "\n"
	hg := strings.Join(hetgpsHeader([]string{"T.t", "U.t"}), ",") + "\n"
	f.Add(pair + withUpdates("1,100,0.5,0.25,0.25,NaN,NaN,NaN,NaN,NaN,0.1,1000\n"))
	f.Add(strings.Join(olderHeader(pairHeader, 1), ",") + "\n1,100,0.5,0.25,0.25,NaN,NaN,NaN,NaN,NaN,0.1,1000\n")
	f.Add(older + "1,100,0.5,0.25,0.25,0.5,0.25,0.25,0.1,1000\n2,200,0.5,0.25,0.25,NaN,NaN,NaN,0.2,1000\n")
	f.Add(pair + withUpdates("1,100,0.5,0.25,0.25,NaN,NaN,NaN,NaN,NaN,0.1,1000\n") + "2,200,0.5,0.2")
	f.Add(pair + withUpdates("2,100,0.5,0.25,0.25,NaN,NaN,NaN,NaN,NaN,0.1,1000\n"))
	f.Add(hg + "1,100," + strings.Repeat("0.5,", len(hetgpsHeader([]string{"T.t", "U.t"}))-3) + "7\n")
	f.Add("")
	f.Add("\n\n")
	f.Fuzz(func(t *testing.T, data string) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, logFile), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		whole := max(0, strings.Count(data, "\n")-1) // data lines ending in a newline
		rows, err := ReadLog(dir)
		if err != nil && !errors.Is(err, ErrCheckpoint) {
			t.Fatalf("ReadLog: %v, not ErrCheckpoint", err)
		}
		if err == nil {
			if len(rows) > whole {
				t.Fatalf("ReadLog: %d rows from %d whole data lines", len(rows), whole)
			}
			for k, r := range rows {
				if r.Iteration != k+1 {
					t.Fatalf("ReadLog: row %d is iteration %d", k, r.Iteration)
				}
				checkLogValues(t, "ReadLog", k, r, false)
			}
		}
		hrows, names, err := ReadHetGPSLog(dir)
		if err != nil && !errors.Is(err, ErrCheckpoint) {
			t.Fatalf("ReadHetGPSLog: %v, not ErrCheckpoint", err)
		}
		if err == nil {
			if len(hrows) > whole {
				t.Fatalf("ReadHetGPSLog: %d rows from %d whole data lines", len(hrows), whole)
			}
			for k, r := range hrows {
				if r.Iteration != k+1 || len(r.Theta) != len(names) {
					t.Fatalf("ReadHetGPSLog: row %d is iteration %d with %d θ for %d names", k, r.Iteration, len(r.Theta), len(names))
				}
				checkLogValues(t, "ReadHetGPSLog", k, r.PairStats, true)
				for _, v := range append(append([]float64{r.GradGain}, r.Theta...), r.ThetaGrad...) {
					if math.IsInf(v, 0) {
						t.Fatalf("ReadHetGPSLog: row %d: %v", k, r)
					}
				}
			}
		}
	})
}

// checkLogValues fails t if the row k that read accepted has a value no
// run writes: a negative frame count or time, an infinity (but for the
// frames per second at 0 seconds), or a NaN training return (unless
// untrained).
func checkLogValues(t *testing.T, read string, k int, r PairStats, untrained bool) {
	t.Helper()
	for _, v := range []float64{r.HetReturn, r.HomReturn, r.Gain, r.HetEval, r.HomEval, r.EvalGain,
		r.HetDiversity, r.HomDiversity, r.Seconds} {
		if math.IsInf(v, 0) {
			t.Fatalf("%s: row %d has an infinity: %+v", read, k, r)
		}
	}
	for _, u := range []UpdateStats{r.HetUpdate, r.HomUpdate} {
		vals := []float64{u.Entropy, u.ApproxKL, u.ClipFraction, u.ValueLoss}
		for _, v := range vals {
			if math.IsInf(v, 0) || math.IsNaN(v) != math.IsNaN(u.Entropy) || math.IsNaN(r.HetReturn) && !math.IsNaN(v) {
				t.Fatalf("%s: row %d: update %+v", read, k, u)
			}
		}
		if u.ClipFraction < 0 || u.ClipFraction > 1 || u.ValueLoss < 0 {
			t.Fatalf("%s: row %d: update %+v", read, k, u)
		}
	}
	if !untrained && (math.IsNaN(r.HetReturn) || math.IsNaN(r.HomReturn) || math.IsNaN(r.Gain)) ||
		r.Frames < 0 || !(r.Seconds >= 0) || r.FPS < 0 || r.Seconds > 0 && !(r.FPS >= 0 && !math.IsInf(r.FPS, 0)) {
		t.Fatalf("%s: row %d: %+v", read, k, r)
	}
}

// FuzzHetGPSCheck: HetGPSSpec.Check never panics and refuses with
// ErrConfig every non-finite number, a bounded parameter whose Low is not
// below High or whose Init is not strictly between them, a negative count,
// and the sum-and-difference basis for other than two parameters; a spec
// it accepts starts θ where it asks, finite, and keeps a bounded parameter
// strictly inside (Low, High), and its Plan steps θ at least once in any
// window of x + y iterations after the warm-up.
func FuzzHetGPSCheck(f *testing.F) {
	f.Add("softmax(0)", 0, 1, 1, 0, 32, false, false, false, false, false, 0.05, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
	f.Add("powersum(1)", 1, 3, 2, 5, 4, true, true, true, false, false, 0.01, 1.0, 0.3, 6.0, 1.0, 0.3, 6.0)
	f.Add("powersum(1)", 0, 1, 1, 0, 32, false, false, false, true, false, 0.05, 1.0, 0.3, 6.0, 1.0, 0.3, 6.0)
	f.Add("powersum(1)", 0, 1, 1, 0, 32, false, false, true, true, true, 1.0, 1.0, 0.3, 6.0, 1.0, 0.3, 6.0)
	f.Add("softmax(0)", 0, 1, 1, 0, 32, false, false, false, false, false, 0.05, 0.0, -1e308, 1e308, 0.0, 0.0, 0.0)
	f.Add("softmax(0)", 0, 1, 1, 0, 32, false, false, false, false, false, 0.05, 1.0000000000000002, 1.0, 1.0000000000000004, 0.0, 0.0, 0.0)
	f.Add("softmax(0)", 2, -1, 0, -1, -1, false, true, false, false, false, math.NaN(), math.Inf(1), 2.0, 1.0, 6.0, 0.3, 6.0)
	f.Fuzz(func(t *testing.T, op string, schedule, x, y, warmUp, gradEpisodes int, descent, floor, sgd, sumDifference, oneParam bool,
		lr, init0, low0, high0, init1, low1, high1 float64) {
		if x > 50 || y > 50 || warmUp > 50 || gradEpisodes > 64 {
			return // large counts are valid and build large environments
		}
		params := []ThetaParam{{Name: "T.t", Init: init0, Low: low0, High: high0}, {Name: "U.t", Init: init1, Low: low1, High: high1}}
		if oneParam {
			params = params[:1]
		}
		s := HetGPSSpec{
			Run: RunSpec{Env: EnvSpec{Name: "matrix", U: op, T: op}, Team: Config{Seed: 1, Hidden: []int{4}},
				Iterations: 1},
			Params:   params,
			Schedule: Schedule(schedule), AgentIters: x, EnvIters: y, WarmUp: warmUp, GradEpisodes: gradEpisodes,
			Descent: descent, DescentFloor: floor, SGD: sgd, SumDifference: sumDifference, ThetaLR: lr,
		}
		err := s.Check()
		if err != nil {
			if !errors.Is(err, ErrConfig) || !strings.HasPrefix(err.Error(), "learn: ") {
				t.Fatalf("Check = %v, want a \"learn: \" error wrapping ErrConfig", err)
			}
			return
		}
		for _, p := range params {
			for _, v := range []float64{lr, p.Init, p.Low, p.High} {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					t.Fatalf("%+v: Check accepted %v", s, v)
				}
			}
		}
		if x < 0 || y < 0 || warmUp < 0 || gradEpisodes < 0 || lr < 0 || floor && !descent || sumDifference && oneParam {
			t.Fatalf("%+v: Check accepted it", s)
		}
		for _, p := range s.Params {
			if p.Bounded() && !(p.Low < p.High && p.Low < p.Init && p.Init < p.High) {
				t.Fatalf("accepted the bounds of %+v", p)
			}
			start := p.value(p.raw(p.Init))
			if math.IsNaN(start) || math.IsInf(start, 0) {
				t.Fatalf("%+v starts at %v", p, start)
			}
			if p.Bounded() {
				for _, v := range []float64{start, p.value(-rawLimit), p.value(rawLimit)} {
					if !(v > p.Low && v < p.High) {
						t.Fatalf("%+v: θ can be %v, not strictly inside (Low, High)", p, v)
					}
				}
			}
			if math.Abs(start-p.Init) > 1e-9*math.Max(1, math.Abs(p.Init)) {
				t.Fatalf("%+v starts at %v", p, start)
			}
		}
		d := s.withDefaults()
		steps := 0
		for i := d.WarmUp + 1; i <= d.WarmUp+d.AgentIters+d.EnvIters; i++ {
			if _, env := d.Plan(i); env {
				steps++
			}
		}
		if steps == 0 {
			t.Fatalf("%+v: θ never steps in iterations %d to %d", s, d.WarmUp+1, d.WarmUp+d.AgentIters+d.EnvIters)
		}
	})
}

// FuzzThetaParam: for any Init, bounds and clamp, HetGPSSpec.Check never
// panics, refuses what it must with ErrConfig, and a parameter it accepts
// starts at Init, and for every raw value has θ inside its clamp and
// strictly inside its bounds, with a finite slope dθ/dρ >= 0 that is 0
// beyond the clamp.
func FuzzThetaParam(f *testing.F) {
	f.Add(1.0, 0.3, 6.0, 0.4, 5.9, 2.5)
	f.Add(0.5, 0.0, 0.0, -1.0, 2.0, -3.0)
	f.Add(1.0, 0.3, 6.0, 0.3, 6.0, 15.0)
	f.Add(1.0, 0.3, 6.0, 0.2, 5.9, 0.0)
	f.Add(0.0, 0.0, 0.0, 0.0, 2.0, 1.0)
	f.Add(1.0, 0.3, 6.0, math.NaN(), 5.9, math.Inf(1))
	f.Fuzz(func(t *testing.T, init, low, high, clampLow, clampHigh, raw float64) {
		p := ThetaParam{Name: "T.t", Init: init, Low: low, High: high, ClampLow: clampLow, ClampHigh: clampHigh}
		s := HetGPSSpec{
			Run:    RunSpec{Env: EnvSpec{Name: "matrix", U: "softmax(0)", T: "softmax(0)"}, Team: Config{Seed: 1, Hidden: []int{4}}, Iterations: 1},
			Params: []ThetaParam{p}, ThetaLR: 0.05, GradEpisodes: 1,
		}
		if err := s.Check(); err != nil {
			if !errors.Is(err, ErrConfig) || !strings.HasPrefix(err.Error(), "learn: ") {
				t.Fatalf("Check = %v, want a \"learn: \" error wrapping ErrConfig", err)
			}
			return
		}
		for _, v := range []float64{init, low, high, clampLow, clampHigh} {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("%+v: Check accepted %v", p, v)
			}
		}
		if p.Clamped() && !(clampLow < init && init < clampHigh) {
			t.Fatalf("%+v: accepted a clamp that does not hold Init inside", p)
		}
		if p.Clamped() && p.Bounded() && (clampLow < low || clampHigh > high) {
			t.Fatalf("%+v: accepted a clamp outside the bounds", p)
		}
		if start := p.value(p.raw(init)); math.Abs(start-init) > 1e-9*math.Max(1, math.Abs(init)) {
			t.Fatalf("%+v starts at %v", p, start)
		}
		if math.IsNaN(raw) || math.IsInf(raw, 0) {
			return
		}
		for _, r := range []float64{clampRaw(raw), -rawLimit, rawLimit} {
			v, slope := p.value(r), p.slope(r)
			if p.Clamped() && !(v >= clampLow && v <= clampHigh) {
				t.Fatalf("%+v: θ(ρ=%v) = %v outside the clamp", p, r, v)
			}
			if p.Bounded() && !(v > low && v < high) {
				t.Fatalf("%+v: θ(ρ=%v) = %v not strictly inside the bounds", p, r, v)
			}
			if math.IsNaN(slope) || math.IsInf(slope, 0) || slope < 0 {
				t.Fatalf("%+v: dθ/dρ(ρ=%v) = %v", p, r, slope)
			}
			if sq := p.squash(r); p.Clamped() && (sq < clampLow || sq > clampHigh) && slope != 0 {
				t.Fatalf("%+v: dθ/dρ(ρ=%v) = %v beyond the clamp", p, r, slope)
			}
		}
	})
}

// FuzzReadHetGPSSpec: whatever a spec.json holds, ReadHetGPSSpec never
// panics; it returns ErrCheckpoint or a search that Check accepts and
// that matches the directory it was read from.
func FuzzReadHetGPSSpec(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("..", "testdata", "reproductions", "hetgps-*", "*", "seed1", specFile))
	for _, p := range seeds {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte(`{"Algorithm": "HetGPS", "Iterations": 2, "Run": {"Env": {"Name": "matrix", "U": "softmax(0)", "T": "softmax(0)"}}, "Schedule": "concurrent", "Params": [{"Name": "T.t", "Init": 1e308, "Low": -1e308, "High": 1e308}]}`))
	f.Add([]byte(`{"Algorithm": "HetGPS", "Run": {"Env": {"Name": "capture", "Agents": -1}}, "Schedule": "alternated"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, specFile), data, 0o644); err != nil {
			t.Fatal(err)
		}
		spec, err := ReadHetGPSSpec(dir)
		if err != nil {
			if !errors.Is(err, ErrCheckpoint) {
				t.Fatalf("error %v does not wrap ErrCheckpoint", err)
			}
			return
		}
		if err := spec.Check(); err != nil {
			t.Fatalf("read a search that Check refuses: %v", err)
		}
		if err := CheckHetGPSDir(dir, spec); err != nil {
			t.Fatalf("the search read does not match its own directory: %v", err)
		}
	})
}
