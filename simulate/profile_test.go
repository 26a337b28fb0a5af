package simulate

import (
	"fmt"
	"math"
	"math/rand"
	"reflect"
	"strings"
	"testing"
)

// The discrete matrix game with constant choices: the profile is the
// one-hot effort matrix of the choices, and the return R(A) of it.
func TestProfileMatrixDiscrete(t *testing.T) {
	g, err := NewMatrixGame(4, 3, 3, true, reward(t, "mean", "max"))
	if err != nil {
		t.Fatal(err)
	}
	pol := ConstantPolicy{Actions: [][]float64{{0}, {0}, {2}}}
	p, err := Profile(g, pol, 1)
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{1, 0, 0, 1, 0, 0, 0, 0, 1}
	for k, w := range want {
		if p.Effort[k] != w {
			t.Errorf("Effort = %v, want %v", p.Effort, want)
			break
		}
	}
	if p.Steps != 4 {
		t.Errorf("Steps = %d, want 4 (one step in each of 4 episodes)", p.Steps)
	}
	if wantCov := []float64{0, 0, 1, 0}; !reflect.DeepEqual(p.Covered, wantCov) {
		t.Errorf("Covered = %v, want %v (tasks 0 and 2)", p.Covered, wantCov)
	}
	if want := 2.0 / 3; math.Abs(p.Return-want) > 1e-15 {
		t.Errorf("Return = %v, want mean(1, 0, 1) = %v", p.Return, want)
	}
	if want := 2.0 / 3; math.Abs(p.Diversity-want) > 1e-15 {
		t.Errorf("Diversity = %v, want %v (pairs at distance 0, 1, 1)", p.Diversity, want)
	}
	if got := p.At(2, 2); got != 1 {
		t.Errorf("At(2, 2) = %v, want 1", got)
	}
}

// In Tag with noisy reference chasers, the profile equals what Recorder
// sees element by element, and its return equals Rollout's mean.
func TestProfileTagAgainstRecorder(t *testing.T) {
	const B = 6
	for _, homogeneous := range []bool{false, true} {
		g, err := Tag2v2(B, reward(t, "mean", "max"))
		if err != nil {
			t.Fatal(err)
		}
		pol := g.ChaserPolicy(10, 0.3, 0.3, homogeneous)
		p, err := Profile(g, pol, 11)
		if err != nil {
			t.Fatal(err)
		}
		N, M := g.Agents(), g.Tasks()
		eff, cov := make([]float64, N*M), make([]float64, M+1)
		steps, ret, dist := 0, 0.0, 0.0
		for b := 0; b < B; b++ {
			rec := NewRecorder(b)
			if _, err := Rollout(g, pol, 11, rec); err != nil {
				t.Fatal(err)
			}
			for k := 1; k < len(rec.Efforts); k++ { // record 0 is the reset
				covered := 0
				for j := 0; j < M; j++ {
					any := false
					for i := 0; i < N; i++ {
						eff[i*M+j] += rec.Efforts[k][i*M+j]
						any = any || rec.Efforts[k][i*M+j] > 0.5
					}
					if any {
						covered++
					}
				}
				cov[covered]++
				e := rec.Efforts[k]
				dist += (math.Abs(e[0]-e[2]) + math.Abs(e[1]-e[3])) / 2 // N = 2: one pair
				steps++
			}
			ret += rec.Return()
		}
		if p.Steps != steps || steps != B*g.EpisodeLength() {
			t.Fatalf("homogeneous %v: Steps = %d, recorded %d, want %d", homogeneous, p.Steps, steps, B*g.EpisodeLength())
		}
		for k := range eff {
			if math.Abs(p.Effort[k]-eff[k]/float64(steps)) > 1e-12 {
				t.Errorf("homogeneous %v: Effort = %v, recorded %v (divide by %d)", homogeneous, p.Effort, eff, steps)
				break
			}
		}
		for k := range cov {
			if math.Abs(p.Covered[k]-cov[k]/float64(steps)) > 1e-12 {
				t.Errorf("homogeneous %v: Covered = %v, recorded %v (divide by %d)", homogeneous, p.Covered, cov, steps)
				break
			}
		}
		if math.Abs(p.Diversity-dist/float64(steps)) > 1e-12 {
			t.Errorf("homogeneous %v: Diversity = %v, recorded %v", homogeneous, p.Diversity, dist/float64(steps))
		}
		if math.Abs(p.Return-ret/B) > 1e-9 {
			t.Errorf("homogeneous %v: Return = %v, recorded mean %v", homogeneous, p.Return, ret/B)
		}
		if p.Covered[0] > 0.9 {
			t.Errorf("homogeneous %v: no capture in %.0f%% of the steps; the test needs captures", homogeneous, 100*p.Covered[0])
		}
		if sum := p.Covered[0] + p.Covered[1] + p.Covered[2]; math.Abs(sum-1) > 1e-12 {
			t.Errorf("homogeneous %v: Covered sums to %v, want 1", homogeneous, sum)
		}
	}
}

// Multi-goal-capture's efforts are rows of the simplex, so each agent's
// mean effort sums to 1 over the goals.
func TestProfileCaptureRows(t *testing.T) {
	c := newCapture(t, CaptureConfig{Batch: 5, Reward: reward(t, "min", "max")})
	p, err := Profile(c, NewLinearTanh(2, c.ObsDim(), 2, 0.5, 0.5, 1, 3), 4)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < p.Agents; i++ {
		if s := p.At(i, 0) + p.At(i, 1); math.Abs(s-1) > 1e-12 {
			t.Errorf("agent %d's mean efforts sum to %v, want 1", i, s)
		}
	}
	ret, err := Rollout(c, NewLinearTanh(2, c.ObsDim(), 2, 0.5, 0.5, 1, 3), 4, nil)
	if err != nil {
		t.Fatal(err)
	}
	sum := 0.0
	for _, r := range ret {
		sum += r
	}
	if m := sum / float64(len(ret)); p.Return != m {
		t.Errorf("Return = %v, Rollout's mean %v: want them equal bit for bit", p.Return, m)
	}
	if s := p.String(); !strings.Contains(s, "agent 2:") || !strings.Contains(s, "k=2") || !strings.Contains(s, "diversity") {
		t.Errorf("String() = %q, want rows per agent and coverage", s)
	}
}

// Reference seekers in Multi-goal-capture: specialists, each heading for
// a goal of its own, have efforts far apart at every step; identical
// agents heading for the goals' mean end up with the same efforts.
func TestProfileCaptureDiversity(t *testing.T) {
	div := make(map[bool]float64)
	for _, homogeneous := range []bool{false, true} {
		c := newCapture(t, CaptureConfig{Batch: 8, Reward: reward(t, "min", "max")})
		p, err := Profile(c, c.SeekerPolicy(3, 1, 0, homogeneous), 2)
		if err != nil {
			t.Fatal(err)
		}
		div[homogeneous] = p.Diversity
	}
	if !(div[false] > 0.4 && div[true] < 0.05) {
		t.Errorf("Diversity: specialists %v (want > 0.4), identical seekers %v (want < 0.05)", div[false], div[true])
	}
}

// rowDistance against 1 − Σ_j min(a_ij, a_kj), which equals half the L1
// distance for rows that sum to 1, on random rows of the simplex, and its
// bounds and symmetry under reordering the agents.
func TestRowDistanceProperties(t *testing.T) {
	rnd := rand.New(rand.NewSource(5))
	for trial := 0; trial < 500; trial++ {
		n, m := 1+rnd.Intn(5), 1+rnd.Intn(5)
		a := make([]float64, n*m)
		for i := 0; i < n; i++ {
			s := 0.0
			for j := 0; j < m; j++ {
				a[i*m+j] = rnd.ExpFloat64()
				s += a[i*m+j]
			}
			for j := 0; j < m; j++ {
				a[i*m+j] /= s
			}
		}
		want, pairs := 0.0, 0
		for i := 0; i < n; i++ {
			for k := i + 1; k < n; k++ {
				overlap := 0.0
				for j := 0; j < m; j++ {
					overlap += math.Min(a[i*m+j], a[k*m+j])
				}
				want += 1 - overlap
				pairs++
			}
		}
		if pairs > 0 {
			want /= float64(pairs)
		}
		got := rowDistance(a, n, m)
		if math.Abs(got-want) > 1e-12 || got < 0 || got > 1 {
			t.Fatalf("n = %d, m = %d: rowDistance = %v, want %v in [0, 1]", n, m, got, want)
		}
		perm := rnd.Perm(n)
		b := make([]float64, n*m)
		for i, pi := range perm {
			copy(b[i*m:(i+1)*m], a[pi*m:(pi+1)*m])
		}
		if pb := rowDistance(b, n, m); math.Abs(pb-got) > 1e-12 {
			t.Fatalf("rows reordered by %v: rowDistance %v, was %v", perm, pb, got)
		}
	}
}

func TestProfileBadPolicy(t *testing.T) {
	g, _ := NewMatrixGame(1, 2, 2, false, reward(t, "mean", "max"))
	if _, err := Profile(g, ConstantPolicy{Actions: [][]float64{{0, 0}, {0, 0}, {0, 0}}}, 1); err == nil {
		t.Error("Profile with 3 actions for 2 agents: no error")
	}
	defer func() {
		if r := recover(); r == nil || !strings.HasPrefix(r.(string), "simulate: ") {
			t.Errorf("At out of range: recovered %v, want a simulate: panic", r)
		}
	}()
	(&EffortProfile{Agents: 2, Tasks: 2, Effort: make([]float64, 4)}).At(2, 0)
}

// With continuous efforts a task is covered by an agent that puts more
// than half of its effort on it.
func TestProfileCoveredContinuous(t *testing.T) {
	g, err := NewMatrixGame(1, 3, 3, false, reward(t, "mean", "max"))
	if err != nil {
		t.Fatal(err)
	}
	// Actions u in [-1, 1]^3 map to efforts (u + 1)/sum(u + 1).
	for _, c := range []struct {
		actions [][]float64
		covered int
	}{
		{[][]float64{{1, -1, -1}, {-1, 1, -1}, {-1, -1, 1}}, 3}, // specialists
		{[][]float64{{1, -1, -1}, {1, -1, -1}, {-1, -1, 1}}, 2},
		{[][]float64{{0, 0, 0}}, 0},     // uniform rows: 1/3 each
		{[][]float64{{1, 1, -1}}, 0},    // 1/2 and 1/2 is not more than half
		{[][]float64{{1, 0.9, -1}}, 1},  // 2/3.9 > 1/2 on task 0
		{[][]float64{{-1, 1, -0.2}}, 1}, // 2/2.8 on task 1
	} {
		p, err := Profile(g, ConstantPolicy{Actions: c.actions}, 1)
		if err != nil {
			t.Fatal(err)
		}
		for k, f := range p.Covered {
			want := 0.0
			if k == c.covered {
				want = 1
			}
			if f != want {
				t.Errorf("actions %v: Covered = %v, want %d tasks covered", c.actions, p.Covered, c.covered)
				break
			}
		}
	}
}

// BenchmarkProfileTag compares Profile with Rollout on the same 2v2 Tag
// episodes of the reference chasers: the cost of the profile's
// bookkeeping.
func BenchmarkProfileTag(b *testing.B) {
	for _, name := range []string{"Rollout", "Profile"} {
		b.Run(name, func(b *testing.B) {
			const B = 256
			g := newTag(b, TagConfig{Batch: B})
			pol := g.ChaserPolicy(10, 0.3, 0.3, false)
			for it := 0; it < b.N; it++ {
				var err error
				if name == "Rollout" {
					_, err = Rollout(g, pol, int64(it), nil)
				} else {
					_, err = Profile(g, pol, int64(it))
				}
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)*B*float64(g.EpisodeLength())/b.Elapsed().Seconds(), "element-steps/s")
		})
	}
}

// TestSpecialistsCases checks Specialists on profiles written by hand: each
// way a team can fail to specialise, and the ratio's edge.
func TestSpecialistsCases(t *testing.T) {
	for _, c := range []struct {
		name   string
		n, m   int
		effort []float64
		ratio  float64
		want   []int
	}{
		{"one agent per task", 2, 2, []float64{0.4, 0.1, 0.05, 0.3}, 2, []int{0, 1}},
		{"crossed", 2, 2, []float64{0.1, 0.4, 0.3, 0.05}, 2, []int{1, 0}},
		{"exactly the ratio", 2, 2, []float64{0.4, 0.2, 0.1, 0.2}, 2, []int{0, 1}},
		{"just under the ratio", 2, 2, []float64{0.4, 0.2000001, 0.1, 0.2}, 2, nil},
		{"both on one task", 2, 2, []float64{0.4, 0.1, 0.3, 0.05}, 2, nil},
		{"an idle agent", 2, 2, []float64{0.4, 0.1, 0, 0}, 2, nil},
		{"even split", 2, 2, []float64{0.2, 0.2, 0.05, 0.3}, 2, nil},
		{"more agents than tasks", 3, 2, []float64{1, 0, 0, 1, 1, 0}, 2, nil},
		{"fewer agents than tasks", 2, 3, []float64{0, 0, 0.5, 0.5, 0, 0}, 2, []int{2, 0}},
		{"a larger ratio", 2, 2, []float64{0.4, 0.1, 0.05, 0.3}, 5, nil},
		{"one agent", 1, 3, []float64{0.1, 0.6, 0.2}, 2, []int{1}},
		{"a NaN effort", 2, 2, []float64{math.NaN(), 0.1, 0.4, 0}, 2, nil},
		{"an infinite effort", 2, 2, []float64{math.Inf(1), 0.1, 0, 0.4}, 2, nil},
	} {
		p := &EffortProfile{Agents: c.n, Tasks: c.m, Effort: c.effort}
		if got := p.Specialists(c.ratio); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: Specialists(%v) = %v, want %v", c.name, c.ratio, got, c.want)
		}
	}
}

// TestSpecialistsBruteForce checks Specialists on random profiles against
// its definition read literally: agent i specialises on task j iff its
// effort on j is positive and at least ratio times each other effort, and
// the team iff every agent does, on tasks that differ.
func TestSpecialistsBruteForce(t *testing.T) {
	rnd := rand.New(rand.NewSource(1))
	found := 0
	for trial := 0; trial < 5000; trial++ {
		n, m := 1+rnd.Intn(3), 1+rnd.Intn(3)
		effort := make([]float64, n*m)
		for k := range effort {
			if rnd.Intn(3) > 0 { // a third of the efforts are 0
				effort[k] = rnd.Float64()
			}
		}
		ratio := 1 + 3*rnd.Float64()
		p := &EffortProfile{Agents: n, Tasks: m, Effort: effort}
		want := literalSpecialists(n, m, effort, ratio)
		if got := p.Specialists(ratio); !reflect.DeepEqual(got, want) {
			t.Fatalf("%d x %d efforts %v, ratio %v: Specialists = %v, want %v", n, m, effort, ratio, got, want)
		}
		if want != nil {
			found++
		}
	}
	if found < 500 {
		t.Errorf("only %d of 5000 random profiles specialised; the check saw too few", found)
	}
}

// literalSpecialists is Specialists' definition, task by task.
func literalSpecialists(n, m int, effort []float64, ratio float64) []int {
	var tasks []int
	for _, e := range effort {
		if math.IsNaN(e) || math.IsInf(e, 0) {
			return nil // no agent with a non-finite effort specialises
		}
	}
	for i := 0; i < n; i++ {
		var own []int
		for j := 0; j < m; j++ {
			ok := effort[i*m+j] > 0
			for k := 0; k < m; k++ {
				if k != j && effort[i*m+j] < ratio*effort[i*m+k] {
					ok = false
				}
			}
			if ok {
				own = append(own, j)
			}
		}
		if len(own) != 1 {
			return nil
		}
		for _, j := range tasks {
			if j == own[0] {
				return nil
			}
		}
		tasks = append(tasks, own[0])
	}
	return tasks
}

// TestSpecialistsTagVMAS plays the reference chasers of the paper's Tag:
// chasers each sent after their own escaper are specialists, chasers of
// their nearest escaper are not.
func TestSpecialistsTagVMAS(t *testing.T) {
	g, err := TagVMAS2v2(64, reward(t, "mean", "max"))
	if err != nil {
		t.Fatal(err)
	}
	for _, nearest := range []bool{false, true} {
		p, err := Profile(g, g.ChaserPolicy(10, 0.2, 0, nearest), 1)
		if err != nil {
			t.Fatal(err)
		}
		got := p.Specialists(SpecialistRatio)
		if want := []int{0, 1}; !nearest && !reflect.DeepEqual(got, want) {
			t.Errorf("specialist chasers, efforts %v: Specialists = %v, want %v", p.Effort, got, want)
		}
		if nearest && got != nil {
			t.Errorf("chasers of the nearest escaper, efforts %v: Specialists = %v, want nil", p.Effort, got)
		}
	}
}

// TestSpecialistsMisuse checks the panics: a ratio not above 1 and a
// profile without its efforts.
func TestSpecialistsMisuse(t *testing.T) {
	p := &EffortProfile{Agents: 2, Tasks: 2, Effort: []float64{1, 0, 0, 1}}
	for _, r := range []float64{1, 0.5, -2, math.NaN(), math.Inf(1)} {
		wantPanic(t, fmt.Sprintf("ratio %v", r), "Specialists ratio", func() { p.Specialists(r) })
	}
	bad := &EffortProfile{Agents: 2, Tasks: 2, Effort: []float64{1, 0, 0}}
	wantPanic(t, "3 efforts for 2 x 2", "Specialists of a profile", func() { bad.Specialists(2) })
	var none *EffortProfile
	wantPanic(t, "nil profile", "Specialists of a profile", func() { none.Specialists(2) })
}
