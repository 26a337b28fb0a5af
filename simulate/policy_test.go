package simulate

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
)

func TestRolloutMatrix(t *testing.T) {
	const B = 5
	for _, discrete := range []bool{false, true} {
		g, _ := NewMatrixGame(B, 3, 4, discrete, reward(t, "softmax(-1)", "softmax(2)"))
		var pol Policy = NewLinearTanh(3, 1, 4, 0.5, 1, 1.5, 2)
		if discrete {
			pol = UniformDiscrete{Choices: 4}
		}
		a, err := Rollout(g, pol, 7, nil)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := Rollout(g, pol, 7, nil)
		c, _ := Rollout(g, pol, 8, nil)
		differs := false
		for k := range a {
			if math.Float64bits(a[k]) != math.Float64bits(b[k]) {
				t.Fatal("same seed, different returns")
			}
			differs = differs || a[k] != c[k]
		}
		if !differs {
			t.Error("seeds 7 and 8 give the same returns")
		}
		// Batch elements are independent: element b alone (with its noise
		// stream) gives the same return.
		for b := 0; b < B; b++ {
			one, _ := NewMatrixGame(1, 3, 4, discrete, reward(t, "softmax(-1)", "softmax(2)"))
			one.base = b
			r, err := Rollout(one, pol, 7, nil)
			if err != nil {
				t.Fatal(err)
			}
			if r[0] != a[b] {
				t.Errorf("discrete=%v element %d: %v alone, %v in the batch", discrete, b, r[0], a[b])
			}
		}
	}
}

func TestRecorder(t *testing.T) {
	c := newCapture(t, CaptureConfig{Batch: 3, EpisodeLength: 7, Sensor: true})
	rec := NewRecorder(2)
	pol := c.SeekerPolicy(2, 0.5, 0.2, false)
	ret, err := Rollout(c, pol, 4, rec)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Steps) != 8 || rec.Steps[7] != 7 || rec.Agents != 2 || rec.Tasks != 2 || rec.Env != "capture" {
		t.Fatalf("recorder %+v", rec.Steps)
	}
	if math.Abs(rec.Return()-ret[2]) > 1e-15 {
		t.Errorf("recorded return %v, Rollout %v", rec.Return(), ret[2])
	}
	if rec.Actions[0] != nil || len(rec.Actions[1]) != 4 || len(rec.Efforts[3]) != 4 || len(rec.Obs[5]) != 2*c.ObsDim() {
		t.Errorf("recorded slices have the wrong sizes: %v %d %d %d", rec.Actions[0], len(rec.Actions[1]), len(rec.Efforts[3]), len(rec.Obs[5]))
	}
	if len(rec.AgentPos) != 8 || len(rec.TaskPos[0]) != 4 {
		t.Error("positions not recorded")
	}
	final := c.AgentPositions(2)
	for k, v := range final {
		if rec.AgentPos[7][k] != v {
			t.Error("last recorded positions are not the final ones")
		}
	}
	if err := NewRecorder(5).Record(c, nil); !errors.Is(err, ErrConfig) {
		t.Errorf("element outside the batch: %v", err)
	}
	// Matrix game: no positions.
	g, _ := NewMatrixGame(2, 2, 2, true, reward(t, "min", "max"))
	rg := NewRecorder(0)
	if _, err := Rollout(g, UniformDiscrete{Choices: 2}, 1, rg); err != nil {
		t.Fatal(err)
	}
	if len(rg.Rewards) != 2 || rg.AgentPos != nil {
		t.Errorf("matrix recorder: %d rewards, positions %v", len(rg.Rewards), rg.AgentPos)
	}
}

func TestGradientErrors(t *testing.T) {
	g, _ := NewMatrixGame(2, 2, 2, false, reward(t, "softmax(1)", "max"))
	pol := ConstantPolicy{Actions: [][]float64{{0, 0}}}
	if _, _, err := ReturnGradient(g, pol, 0, []string{"T.t"}); !errors.Is(err, ErrParam) {
		t.Errorf("max has no parameter: %v", err)
	}
	if _, _, err := ReturnGradient(g, pol, 0, []string{"U.t", "U.t"}); !errors.Is(err, ErrParam) {
		t.Errorf("repeated name: %v", err)
	}
	if _, _, err := ReturnGradient(g, ConstantPolicy{Actions: [][]float64{{0}}}, 0, nil); !errors.Is(err, ErrConfig) {
		t.Errorf("short constant action: %v", err)
	}
	if _, _, err := ReturnGradient(g, ConstantPolicy{Actions: [][]float64{{math.NaN(), 0}}}, 0, nil); !errors.Is(err, ErrAction) {
		t.Errorf("NaN action: %v", err)
	}
	c := newCapture(t, CaptureConfig{Batch: 1})
	if _, _, err := ReturnGradient(c, NewLinearTanh(3, c.ObsDim(), 2, 1, 0, 1, 0), 0, []string{"drag"}); !errors.Is(err, ErrConfig) {
		t.Errorf("3 policies for 2 agents: %v", err)
	}
	if _, _, err := ReturnGradient(c, NewLinearTanh(1, 3, 2, 1, 0, 1, 0), 0, []string{"drag"}); !errors.Is(err, ErrConfig) {
		t.Errorf("wrong observation size: %v", err)
	}
	if _, _, err := ReturnGradient(c, ConstantPolicy{Actions: [][]float64{{math.Inf(1), 0}}}, 0, nil); !errors.Is(err, ErrAction) {
		t.Errorf("infinite action: %v", err)
	}
	if _, err := Rollout(c, nil, 0, nil); !errors.Is(err, ErrConfig) {
		t.Errorf("nil policy: %v", err)
	}
	// A typed nil is refused the same way, not dereferenced.
	var typedNil *LinearTanh
	if _, err := Rollout(c, typedNil, 0, nil); !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), "nil policy of type *simulate.LinearTanh") {
		t.Errorf("typed-nil policy in Rollout: %v", err)
	}
	for _, env := range []DifferentiableEnv{g, c, newTag(t, TagConfig{Batch: 1})} {
		if _, _, err := ReturnGradient(env, typedNil, 1, nil); !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), "nil policy") {
			t.Errorf("%s: typed-nil policy in ReturnGradient: %v", env.Name(), err)
		}
	}
	// With K = 0 the return is still computed.
	ret, grad, err := ReturnGradient(c, c.SeekerPolicy(1, 0, 0, true), 3, nil)
	if err != nil || len(ret) != 1 || len(grad[0]) != 0 {
		t.Errorf("K = 0: %v %v %v", ret, grad, err)
	}
}

func TestLinearTanhTangent(t *testing.T) {
	p := NewLinearTanh(2, 3, 2, 0.7, 0.4, 1.3, 5)
	obs, noise := []float64{0.2, -0.4, 0.9}, []float64{0.3, -1.1}
	dObs := []float64{1, 0, 0, 0, 0.5, -2} // K = 2
	act, dAct := make([]float64, 2), make([]float64, 4)
	p.ActTangent(1, obs, dObs, noise, act, dAct)
	plain := make([]float64, 2)
	p.Act(1, obs, noise, plain)
	for k := 0; k < 2; k++ {
		h := 1e-6
		hi, lo := make([]float64, 3), make([]float64, 3)
		for o := range obs {
			hi[o] = obs[o] + h*dObs[k*3+o]
			lo[o] = obs[o] - h*dObs[k*3+o]
		}
		ah, al := make([]float64, 2), make([]float64, 2)
		p.Act(1, hi, noise, ah)
		p.Act(1, lo, noise, al)
		for c := 0; c < 2; c++ {
			if act[c] != plain[c] {
				t.Fatal("ActTangent's action differs from Act's")
			}
			if fd := (ah[c] - al[c]) / (2 * h); math.Abs(fd-dAct[k*2+c]) > 1e-8 {
				t.Errorf("tangent %d action %d: %v, finite difference %v", k, c, dAct[k*2+c], fd)
			}
		}
	}
}

func TestGainGradient(t *testing.T) {
	c := newCapture(t, CaptureConfig{Batch: 8, Reward: reward(t, "softmax(-2)", "softmax(2)"), EpisodeLength: 30})
	het, hom := c.SeekerPolicy(2, 0.5, 0.2, false), c.SeekerPolicy(2, 0.5, 0.2, true)
	params := []string{"U.t", "T.t"}
	gain, grad, err := GainGradient(c, het, hom, 3, params)
	if err != nil {
		t.Fatal(err)
	}
	rh, gh, _ := ReturnGradient(c, het, 3, params)
	ro, gHom, _ := ReturnGradient(c, hom, 3, params)
	want, wantGrad := 0.0, make([]float64, 2)
	for b := range rh {
		want += (rh[b] - ro[b]) / 8
		for k := range wantGrad {
			wantGrad[k] += (gh[b][k] - gHom[b][k]) / 8
		}
	}
	if math.Abs(gain-want) > 1e-12 || math.Abs(grad[0]-wantGrad[0]) > 1e-12 || math.Abs(grad[1]-wantGrad[1]) > 1e-12 {
		t.Errorf("gain %v %v, want %v %v", gain, grad, want, wantGrad)
	}
	if !(gain > 0) {
		t.Errorf("specialists should beat identical agents under softmax(-2)∘softmax(2): gain %v", gain)
	}
}

func TestGainGradientConcurrent(t *testing.T) {
	cfg := CaptureConfig{Batch: 8, Reward: reward(t, "softmax(-2)", "softmax(2)"), EpisodeLength: 30}
	a, b := newCapture(t, cfg), newCapture(t, cfg)
	het, hom := a.SeekerPolicy(2, 0.5, 0.2, false), a.SeekerPolicy(2, 0.5, 0.2, true)
	params := []string{"U.t", "T.t", "drag"}
	want, wantGrad, err := GainGradient(newCapture(t, cfg), het, hom, 3, params)
	if err != nil {
		t.Fatal(err)
	}
	for rep := 0; rep < 3; rep++ { // the same on every call, whichever goroutine ends first
		gain, grad, err := GainGradientConcurrent(a, b, het, hom, 3, params)
		if err != nil {
			t.Fatal(err)
		}
		if gain != want || !reflect.DeepEqual(grad, wantGrad) {
			t.Fatalf("concurrent gain %v %v, sequential %v %v", gain, grad, want, wantGrad)
		}
	}

	p := b.Params()
	p.Values[p.Index("drag")] = 0.3
	if err := b.SetParams(p); err != nil {
		t.Fatal(err)
	}
	if _, _, err := GainGradientConcurrent(a, b, het, hom, 3, params); !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), "parameters") {
		t.Errorf("environments with different θ: error %v, want ErrConfig naming the parameters", err)
	}
	for _, c := range []struct {
		name string
		cfg  CaptureConfig
	}{
		{"batch", CaptureConfig{Batch: 4, Reward: cfg.Reward, EpisodeLength: 30}},
		{"episode length", CaptureConfig{Batch: 8, Reward: cfg.Reward, EpisodeLength: 10}},
		{"observation length", CaptureConfig{Batch: 8, Reward: cfg.Reward, EpisodeLength: 30, Sensor: true}},
		{"tasks", CaptureConfig{Batch: 8, Goals: 3, Reward: cfg.Reward, EpisodeLength: 30}},
	} {
		other := newCapture(t, c.cfg)
		if _, _, err := GainGradientConcurrent(a, other, het, hom, 3, params); !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), c.name) {
			t.Errorf("environments with different %s: error %v, want ErrConfig naming it", c.name, err)
		}
	}
	defer func() {
		if r := recover(); r == nil || !strings.HasPrefix(fmt.Sprint(r), "simulate: ") {
			t.Errorf("one environment for both teams: panic %v, want a simulate: panic", r)
		}
	}()
	GainGradientConcurrent(a, a, het, hom, 3, params)
}

// TestLinearTanhNotFinite checks that a LinearTanh with a NaN or infinite
// weight, bias, Sigma or Scale is refused before a rollout, naming the
// value, and that NewLinearTanh panics on such settings.
func TestLinearTanhNotFinite(t *testing.T) {
	g, _ := NewMatrixGame(2, 2, 2, false, reward(t, "mean", "max"))
	for name, edit := range map[string]func(*LinearTanh){
		"W[1][0]": func(p *LinearTanh) { p.W[1][0] = math.NaN() },
		"B[0][1]": func(p *LinearTanh) { p.B[0][1] = math.Inf(-1) },
		"Sigma":   func(p *LinearTanh) { p.Sigma = math.NaN() },
		"Scale":   func(p *LinearTanh) { p.Scale = math.Inf(1) },
	} {
		pol := NewLinearTanh(2, g.ObsDim(), 2, 0.5, 0.1, 1, 4)
		edit(&pol)
		if _, err := Rollout(g, pol, 0, nil); !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), name) {
			t.Errorf("%s not finite: Rollout error %v, want ErrConfig naming it", name, err)
		}
	}
	for _, c := range [][3]float64{{math.NaN(), 0, 1}, {-1, 0, 1}, {math.Inf(1), 0, 1}, {1, math.Inf(1), 1}, {1, 0, math.NaN()}} {
		msg := func() (msg string) {
			defer func() { msg = fmt.Sprint(recover()) }()
			NewLinearTanh(2, 1, 2, c[0], c[1], c[2], 0)
			return ""
		}()
		if !strings.HasPrefix(msg, "simulate: NewLinearTanh with std") {
			t.Errorf("NewLinearTanh(std %v, sigma %v, scale %v): panic %q", c[0], c[1], c[2], msg)
		}
	}
}

// TestTeamReturnGradients checks TeamReturnGradients against
// GainGradientConcurrent (Gain is the same gain up to rounding) and the
// gradient of RelativeGain against central finite differences of its
// value, with θ moved on both environments.
func TestTeamReturnGradients(t *testing.T) {
	cfg := CaptureConfig{Batch: 8, Reward: reward(t, "powersum(1.5)", "powersum(2)"), EpisodeLength: 30}
	a, b := newCapture(t, cfg), newCapture(t, cfg)
	het, hom := a.SeekerPolicy(2, 0.5, 0.2, false), a.SeekerPolicy(2, 0.5, 0.2, true)
	params := []string{"U.t", "T.t", "drag"}
	tr, err := TeamReturnGradients(a, b, het, hom, 3, params)
	if err != nil {
		t.Fatal(err)
	}
	want, wantGrad, err := GainGradientConcurrent(a, b, het, hom, 3, params)
	if err != nil {
		t.Fatal(err)
	}
	gain, grad := tr.Gain()
	if math.Abs(gain-want) > 1e-12*math.Abs(want) {
		t.Errorf("Gain %v, GainGradientConcurrent %v", gain, want)
	}
	for j := range grad {
		if math.Abs(grad[j]-wantGrad[j]) > 1e-12*math.Max(1, math.Abs(wantGrad[j])) {
			t.Errorf("∂gain/∂%s: %v, GainGradientConcurrent %v", params[j], grad[j], wantGrad[j])
		}
	}
	rel, relGrad := tr.RelativeGain()
	if s := (math.Abs(tr.Het) + math.Abs(tr.Hom)) / 2; !(gain != 0) || math.Abs(rel-gain/s) > 1e-15 {
		t.Fatalf("relative gain %v, want gain/S = %v/%v != 0", rel, gain, s)
	}
	relAt := func(j int, h float64) float64 {
		for _, env := range []*Capture{a, b} {
			p := env.Params()
			p.Values[p.Index(params[j])] += h
			if err := env.SetParams(p); err != nil {
				t.Fatal(err)
			}
		}
		tr, err := TeamReturnGradients(a, b, het, hom, 3, params)
		if err != nil {
			t.Fatal(err)
		}
		v, _ := tr.RelativeGain()
		return v
	}
	const h = 1e-5
	for j := range params {
		up := relAt(j, h)
		down := relAt(j, -2*h)
		relAt(j, h) // back to θ
		fd := (up - down) / (2 * h)
		if math.Abs(relGrad[j]-fd) > 1e-5*math.Max(1, math.Abs(fd)) {
			t.Errorf("∂(relative gain)/∂%s = %v, finite difference %v", params[j], relGrad[j], fd)
		}
	}
}

// TestRelativeGain checks RelativeGain on given returns: (Het − Hom)/S
// with S the mean of their sizes, unchanged when the returns and their
// gradients are scaled by c > 0, and 0 with a zero gradient when both
// returns are 0.
func TestRelativeGain(t *testing.T) {
	tr := TeamReturns{Het: 3, Hom: -1, HetGrad: []float64{1, 0.5}, HomGrad: []float64{-2, 0.25}}
	v, g := tr.RelativeGain()
	// S = 2, ∂S = (1·∂Het − 1·∂Hom)/2 = (1.5, 0.125), ∂gain = (3, 0.25):
	// ∂(gain/S) = ∂gain/S − gain·∂S/S² = (1.5 − 1.5, 0.125 − 0.125).
	if v != 2 || g[0] != 0 || g[1] != 0 {
		t.Errorf("RelativeGain of %+v = %v, %v; want 2, [0 0]", tr, v, g)
	}
	tr = TeamReturns{Het: 5, Hom: 3, HetGrad: []float64{1, -2}, HomGrad: []float64{0.5, 4}}
	v, g = tr.RelativeGain()
	// S = 4, ∂S = (0.75, 1), ∂gain = (0.5, −6): (0.125 − 2·0.75/16, −1.5 − 2/16).
	if want := []float64{0.125 - 1.5/16, -1.5 - 2.0/16}; v != 0.5 || math.Abs(g[0]-want[0]) > 1e-15 || math.Abs(g[1]-want[1]) > 1e-15 {
		t.Errorf("RelativeGain of %+v = %v, %v; want 0.5, %v", tr, v, g, want)
	}
	const c = 64
	scaled := TeamReturns{Het: c * tr.Het, Hom: c * tr.Hom, HetGrad: []float64{c * 1, c * -2}, HomGrad: []float64{c * 0.5, c * 4}}
	if vs, gs := scaled.RelativeGain(); vs != v || math.Abs(gs[0]-g[0]) > 1e-15 || math.Abs(gs[1]-g[1]) > 1e-15 {
		t.Errorf("returns scaled by %v: %v, %v; want %v, %v", c, vs, gs, v, g)
	}
	zero := TeamReturns{HetGrad: []float64{1}, HomGrad: []float64{2}}
	if v, g := zero.RelativeGain(); v != 0 || g[0] != 0 {
		t.Errorf("both returns 0: %v, %v; want 0, [0]", v, g)
	}
	// The ceiling the doc comment warns of: tiny returns, Hom a vanishing
	// share of Het, give nearly the largest relative gain, 2(1−r)/(1+r)
	// for r = Hom/Het, while the gain itself is about 0.
	tiny := TeamReturns{Het: 1e-3, Hom: 1e-9, HetGrad: []float64{0}, HomGrad: []float64{0}}
	if v, _ := tiny.RelativeGain(); math.Abs(v-2*(1-1e-6)/(1+1e-6)) > 1e-12 || v < 1.99 {
		t.Errorf("Het 1e-3, Hom 1e-9: relative gain %v; want 2(1−1e-6)/(1+1e-6), about 2", v)
	}
}
