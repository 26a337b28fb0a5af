package simulate_test

import (
	"math"
	"math/rand"
	"strings"
	"testing"

	"github.com/hetgain/hetgain/aggregators"
	"github.com/hetgain/hetgain/gain"
	"github.com/hetgain/hetgain/simulate"
	"gonum.org/v1/gonum/mat"
)

func newForaging(t testing.TB, cfg simulate.ForagingConfig) *simulate.Foraging {
	t.Helper()
	e, err := simulate.NewForaging(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// foragingStep steps e with the same per-agent actions in every batch
// element.
func foragingStep(t *testing.T, e *simulate.Foraging, perAgent ...float64) {
	t.Helper()
	acts := make([]float64, 0, e.Batch()*e.Agents())
	for b := 0; b < e.Batch(); b++ {
		acts = append(acts, perAgent...)
	}
	if err := e.Step(acts); err != nil {
		t.Fatal(err)
	}
}

// TestForagingLoading builds scenarios by hand: two agents loading a
// level-2 item collect it, one does not, an agent alone collects a level-1
// item, and loading off an item is no effort.
func TestForagingLoading(t *testing.T) {
	e := newForaging(t, simulate.ForagingConfig{Batch: 2, Agents: 3, Width: 5, Height: 4, Levels: []int{2, 1}})
	if err := e.Reset(1); err != nil {
		t.Fatal(err)
	}
	place := func() {
		t.Helper()
		for b := 0; b < 2; b++ {
			// Agents 0 and 1 on item 0 at (2, 1), agent 2 on item 1 at (4, 3).
			if err := e.Place(b, []float64{2, 1, 2, 1, 4, 3}, []float64{2, 1, 4, 3}); err != nil {
				t.Fatal(err)
			}
		}
	}
	load, stay := float64(simulate.ForagingLoad), float64(simulate.ForagingStay)
	for _, tc := range []struct {
		name      string
		acts      []float64
		reward    float64
		collected [2]bool
		effort    []float64
	}{
		{"two agents load level 2", []float64{load, load, stay}, 2, [2]bool{true, false}, []float64{1, 0, 1, 0, 0, 0}},
		{"one agent loads level 2", []float64{load, stay, stay}, 0, [2]bool{false, false}, []float64{1, 0, 0, 0, 0, 0}},
		{"one agent loads level 1", []float64{stay, stay, load}, 1, [2]bool{false, true}, []float64{0, 0, 0, 0, 0, 1}},
		{"all load", []float64{load, load, load}, 3, [2]bool{true, true}, []float64{1, 0, 1, 0, 0, 1}},
		{"a mover does not load", []float64{load, simulate.ForagingUp, load}, 1, [2]bool{false, true}, []float64{1, 0, 0, 0, 0, 1}},
	} {
		place()
		foragingStep(t, e, tc.acts...)
		for b := 0; b < 2; b++ {
			if got := e.Reward()[b]; got != tc.reward {
				t.Errorf("%s: batch %d: reward %v, want %v", tc.name, b, got, tc.reward)
			}
			if got := e.Effort()[b*6 : (b+1)*6]; !bfEqualBits(got, tc.effort) {
				t.Errorf("%s: batch %d: effort %v, want %v", tc.name, b, got, tc.effort)
			}
			items := e.TaskPositions(b)
			agents := e.AgentPositions(b)
			for j, want := range tc.collected {
				if got := e.Collected()[b*2+j]; got != want {
					t.Errorf("%s: batch %d: item %d collected %v, want %v", tc.name, b, j, got, want)
				}
				at := [2][]float64{{2, 1}, {4, 3}}[j]
				moved := items[2*j] != at[0] || items[2*j+1] != at[1]
				if moved != want {
					t.Errorf("%s: batch %d: item %d at %v, collected %v", tc.name, b, j, items[2*j:2*j+2], want)
				}
				if !want {
					continue
				}
				// A respawned item is on a cell without agents or items.
				for i := 0; i < 3; i++ {
					if agents[2*i] == items[2*j] && agents[2*i+1] == items[2*j+1] {
						t.Errorf("%s: item %d respawned under agent %d", tc.name, j, i)
					}
				}
				if items[0] == items[2] && items[1] == items[3] {
					t.Errorf("%s: items on the same cell %v", tc.name, items)
				}
			}
			r, err := e.TeamReward().Value(mat.NewDense(3, 2, e.Effort()[b*6:(b+1)*6]))
			if err != nil || r != tc.reward {
				t.Errorf("%s: TeamReward = %v, %v", tc.name, r, err)
			}
		}
	}
	// Loading on a cell without an item is no effort.
	if err := e.Place(0, []float64{0, 0, 1, 0, 4, 3}, []float64{2, 1, 4, 3}); err != nil {
		t.Fatal(err)
	}
	foragingStep(t, e, load, load, stay)
	if e.Reward()[0] != 0 || !bfEqualBits(e.Effort()[:6], make([]float64, 6)) {
		t.Errorf("loading off items: reward %v, effort %v", e.Reward()[0], e.Effort()[:6])
	}
}

// TestForagingMoves checks the directions and the walls, and that items do
// not block agents.
func TestForagingMoves(t *testing.T) {
	e := newForaging(t, simulate.ForagingConfig{Batch: 1, Agents: 2, Width: 3, Height: 3, Levels: []int{1}})
	if err := e.Reset(0); err != nil {
		t.Fatal(err)
	}
	if err := e.Place(0, []float64{1, 1, 0, 0}, []float64{2, 1}); err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		a0, a1 int
		want   []float64
	}{
		{simulate.ForagingUp, simulate.ForagingDown, []float64{1, 2, 0, 0}},
		{simulate.ForagingUp, simulate.ForagingLeft, []float64{1, 2, 0, 0}},
		{simulate.ForagingRight, simulate.ForagingRight, []float64{2, 2, 1, 0}},
		{simulate.ForagingDown, simulate.ForagingUp, []float64{2, 1, 1, 1}}, // agent 0 onto the item
		{simulate.ForagingRight, simulate.ForagingRight, []float64{2, 1, 2, 1}},
		{simulate.ForagingLeft, simulate.ForagingStay, []float64{1, 1, 2, 1}},
	}
	for k, s := range steps {
		foragingStep(t, e, float64(s.a0), float64(s.a1))
		if got := e.AgentPositions(0); !bfEqualBits(got, s.want) {
			t.Fatalf("step %d: agents at %v, want %v", k, got, s.want)
		}
		if e.Reward()[0] != 0 {
			t.Fatalf("step %d: reward %v without loading", k, e.Reward()[0])
		}
	}
}

// TestForagingObservation checks the observation layout against the
// positions and levels.
func TestForagingObservation(t *testing.T) {
	e := newForaging(t, simulate.ForagingConfig{Batch: 3, Agents: 3, Width: 6, Height: 5, Levels: []int{1, 2, 3, 2}})
	if d := e.ObsDim(); d != 2+3*4+2*2 {
		t.Fatalf("ObsDim = %d", d)
	}
	if err := e.Reset(4); err != nil {
		t.Fatal(err)
	}
	rnd := rand.New(rand.NewSource(8))
	for s := 0; s < 10; s++ {
		d := e.ObsDim()
		for b := 0; b < 3; b++ {
			ag, it := e.AgentPositions(b), e.TaskPositions(b)
			for i := 0; i < 3; i++ {
				o := e.Obs()[(b*3+i)*d : (b*3+i+1)*d]
				want := []float64{ag[2*i], ag[2*i+1]}
				for j, l := range e.Levels() {
					want = append(want, it[2*j]-ag[2*i], it[2*j+1]-ag[2*i+1], float64(l))
				}
				for k := 0; k < 3; k++ {
					if k != i {
						want = append(want, ag[2*k]-ag[2*i], ag[2*k+1]-ag[2*i+1])
					}
				}
				if !bfEqualBits(o, want) {
					t.Fatalf("step %d batch %d agent %d: obs %v, want %v", s, b, i, o, want)
				}
			}
		}
		acts := make([]float64, 9)
		for k := range acts {
			acts[k] = float64(rnd.Intn(simulate.ForagingActions))
		}
		if err := e.Step(acts); err != nil {
			t.Fatal(err)
		}
	}
	p := e.Params()
	if strings.Join(p.Names, ",") != "L[0],L[1],L[2],L[3]" || !bfEqualBits(p.Values, []float64{1, 2, 3, 2}) {
		t.Fatalf("Params = %v", p)
	}
	if err := e.SetParams(simulate.Params{Names: []string{"L[2]"}, Values: []float64{5}}); err != nil {
		t.Fatal(err)
	}
	if e.Obs()[2+3*2+2] != 5 || e.Levels()[2] != 5 {
		t.Errorf("after SetParams(L[2] = 5): obs %v, levels %v", e.Obs()[:14], e.Levels())
	}
}

// TestForagingRandomPlay plays random actions and checks, at every step,
// that the reward is sum_j LevelThreshold{L_j} of the effort columns, that
// efforts are 0/1 with rows summing to at most 1 and only on the item under
// a loading agent, and that items stay on distinct cells.
func TestForagingRandomPlay(t *testing.T) {
	const batch, n = 32, 4
	levels := []int{1, 2, 3}
	e := newForaging(t, simulate.ForagingConfig{Batch: batch, Agents: n, Width: 4, Height: 3, Levels: levels, EpisodeLength: 60})
	if e.EpisodeLength() != 60 {
		t.Fatalf("EpisodeLength = %d", e.EpisodeLength())
	}
	if err := e.Reset(9); err != nil {
		t.Fatal(err)
	}
	m := len(levels)
	inner := make([]aggregators.Operator, m)
	for j, l := range levels {
		inner[j] = aggregators.LevelThreshold{L: float64(l)}
	}
	want := aggregators.NewReward(aggregators.Sum{}, inner...)
	rnd := rand.New(rand.NewSource(2))
	collected := 0
	for s := 0; !e.Done()[0]; s++ {
		before := make([][]float64, batch)
		items := make([][]float64, batch)
		for b := range before {
			before[b], items[b] = e.AgentPositions(b), e.TaskPositions(b)
		}
		acts := make([]float64, batch*n)
		for k := range acts {
			acts[k] = float64(rnd.Intn(simulate.ForagingActions))
			if rnd.Intn(2) == 0 {
				acts[k] = simulate.ForagingLoad
			}
		}
		if err := e.Step(acts); err != nil {
			t.Fatal(err)
		}
		for b := 0; b < batch; b++ {
			eff := e.Effort()[b*n*m : (b+1)*n*m]
			r, err := want.Value(mat.NewDense(n, m, append([]float64(nil), eff...)))
			if err != nil || r != e.Reward()[b] {
				t.Fatalf("step %d batch %d: reward %v, aggregators %v, %v", s, b, e.Reward()[b], r, err)
			}
			for i := 0; i < n; i++ {
				for j := 0; j < m; j++ {
					on := before[b][2*i] == items[b][2*j] && before[b][2*i+1] == items[b][2*j+1]
					loads := acts[b*n+i] == simulate.ForagingLoad && on
					if (eff[i*m+j] == 1) != loads || (eff[i*m+j] != 0 && eff[i*m+j] != 1) {
						t.Fatalf("step %d batch %d: effort[%d][%d] = %v, loads %v", s, b, i, j, eff[i*m+j], loads)
					}
				}
			}
			it := e.TaskPositions(b)
			for j := 0; j < m; j++ {
				if e.Collected()[b*m+j] {
					collected++
				}
				for k := 0; k < j; k++ {
					if it[2*j] == it[2*k] && it[2*j+1] == it[2*k+1] {
						t.Fatalf("step %d batch %d: items %d and %d on one cell", s, b, k, j)
					}
				}
			}
		}
		if s >= 60 {
			t.Fatal("episode longer than 60 steps")
		}
	}
	if collected == 0 {
		t.Error("random play collected nothing")
	}
}

// TestForagingDeterminism checks that the same seed gives the same episode
// bit for bit, that batch element b does not depend on the batch size,
// and that the elements of a batch play different episodes.
func TestForagingDeterminism(t *testing.T) {
	// run plays a batch with the same actions in every element and
	// returns each element's observations and rewards.
	run := func(batch int, seed int64) (obs, rew [][]float64) {
		e := newForaging(t, simulate.ForagingConfig{Batch: batch, Agents: 3, Width: 5, Height: 5, Levels: []int{1, 2}, EpisodeLength: 30})
		if err := e.Reset(seed); err != nil {
			t.Fatal(err)
		}
		obs, rew = make([][]float64, batch), make([][]float64, batch)
		per := 3 * e.ObsDim()
		rnd := rand.New(rand.NewSource(6))
		for !e.Done()[0] {
			acts := make([]float64, 3*batch)
			for k := 0; k < 3; k++ {
				a := float64(rnd.Intn(simulate.ForagingActions))
				for b := 0; b < batch; b++ {
					acts[b*3+k] = a
				}
			}
			if err := e.Step(acts); err != nil {
				t.Fatal(err)
			}
			for b := 0; b < batch; b++ {
				obs[b] = append(obs[b], e.Obs()[b*per:(b+1)*per]...)
				rew[b] = append(rew[b], e.Reward()[b])
			}
		}
		return obs, rew
	}
	o1, r1 := run(4, 5)
	o2, r2 := run(4, 5)
	o3, _ := run(4, 6)
	o4, r4 := run(1, 5)
	o8, r8 := run(8, 5)
	for b := range o1 {
		if !bfEqualBits(o1[b], o2[b]) || !bfEqualBits(r1[b], r2[b]) {
			t.Errorf("element %d: same seed, different episodes", b)
		}
		if bfEqualBits(o1[b], o3[b]) {
			t.Errorf("element %d: seeds 5 and 6 give the same episode", b)
		}
		if !bfEqualBits(o1[b], o8[b]) || !bfEqualBits(r1[b], r8[b]) {
			t.Errorf("element %d differs between batches of 4 and 8", b)
		}
	}
	if !bfEqualBits(o1[0], o4[0]) || !bfEqualBits(r1[0], r4[0]) {
		t.Error("batch element 0 depends on the batch size")
	}
	if bfEqualBits(o1[0], o1[1]) {
		t.Error("batch elements 0 and 1 play the same episode")
	}
}

func TestForagingErrors(t *testing.T) {
	good := simulate.ForagingConfig{Batch: 2, Agents: 2, Width: 3, Height: 2, Levels: []int{1, 2}, EpisodeLength: 2}
	for _, tc := range []struct {
		edit    func(c *simulate.ForagingConfig)
		mention string
	}{
		{func(c *simulate.ForagingConfig) { c.Batch = 0 }, "batch 0"},
		{func(c *simulate.ForagingConfig) { c.Agents = -1 }, "-1 agents"},
		{func(c *simulate.ForagingConfig) { c.Levels = nil }, "0 items"},
		{func(c *simulate.ForagingConfig) { c.Width = 0 }, "0x2 grid"},
		{func(c *simulate.ForagingConfig) { c.Levels = []int{1, 0} }, "item 1 has level 0"},
		{func(c *simulate.ForagingConfig) { c.Levels = []int{1 << 31, 1} }, "item 0 has level 2147483648 (need an integer in [1, 2147483647])"},
		{func(c *simulate.ForagingConfig) { c.EpisodeLength = -3 }, "episode length -3"},
		{func(c *simulate.ForagingConfig) { c.Agents = 5 }, "fewer than the 5 agents + 2 items"},
		{func(c *simulate.ForagingConfig) { c.Width, c.Height = 1<<11, 1<<10 }, "MaxForagingCells"},
	} {
		c := good
		tc.edit(&c)
		_, err := simulate.NewForaging(c)
		bfWantErr(t, err, simulate.ErrConfig, tc.mention)
	}

	e := newForaging(t, good)
	bfWantErr(t, e.Step([]float64{0, 0, 0, 0}), simulate.ErrNotReset)
	bfWantErr(t, e.Place(0, []float64{0, 0, 0, 0}, []float64{1, 1, 2, 1}), simulate.ErrNotReset)
	if err := e.Reset(3); err != nil {
		t.Fatal(err)
	}
	obs := append([]float64(nil), e.Obs()...)
	for _, tc := range []struct {
		acts    []float64
		mention []string
	}{
		{[]float64{0, 0, 0}, []string{"3 action values"}},
		{[]float64{0, 0, 0, 6}, []string{"batch 1 agent 1", "action 6"}},
		{[]float64{0, -1, 0, 0}, []string{"batch 0 agent 1", "action -1"}},
		{[]float64{0, 0, 2.5, 0}, []string{"batch 1 agent 0", "action 2.5"}},
		{[]float64{math.NaN(), 0, 0, 0}, []string{"batch 0 agent 0", "NaN"}},
	} {
		bfWantErr(t, e.Step(tc.acts), simulate.ErrAction, tc.mention...)
	}
	if !bfEqualBits(obs, e.Obs()) {
		t.Error("failed steps changed the state")
	}
	for _, tc := range []struct {
		b             int
		agents, items []float64
		mention       string
	}{
		{2, []float64{0, 0, 0, 0}, []float64{1, 1, 2, 1}, "batch element 2"},
		{0, []float64{0, 0}, []float64{1, 1, 2, 1}, "2 agent and 4 item coordinates"},
		{1, []float64{0, 0, 3, 0}, []float64{1, 1, 2, 1}, "batch 1 agent 1 at (3, 0)"},
		{0, []float64{0, 0, 0, 0.5}, []float64{1, 1, 2, 1}, "agent 1 at (0, 0.5)"},
		{0, []float64{0, 0, 0, 0}, []float64{1, -1, 2, 1}, "item 0 at (1, -1)"},
		{0, []float64{0, 0, 0, 0}, []float64{2, 1, 2, 1}, "items 0 and 1 on the same cell"},
	} {
		bfWantErr(t, e.Place(tc.b, tc.agents, tc.items), simulate.ErrConfig, tc.mention)
	}
	if !bfEqualBits(obs, e.Obs()) {
		t.Error("failed Place changed the state")
	}
	for _, p := range []simulate.Params{
		{Names: []string{"L[2]"}, Values: []float64{1}},
		{Names: []string{"L[0]"}, Values: []float64{0}},
		{Names: []string{"L[0]"}, Values: []float64{1.5}},
		{Names: []string{"L[0]", "L[1]"}, Values: []float64{3, math.NaN()}},
		{Names: []string{"L[0]"}, Values: []float64{math.Inf(1)}},
		{Names: []string{"L[0]"}, Values: nil},
	} {
		bfWantErr(t, e.SetParams(p), simulate.ErrParam)
	}
	bfWantErr(t, e.SetParams(simulate.Params{Names: []string{"L[1]"}, Values: []float64{0.5}}), simulate.ErrParam, `"L[1]" = 0.5`)
	bfWantErr(t, e.SetParams(simulate.Params{Names: []string{"L[1]"}, Values: []float64{1 << 31}}), simulate.ErrParam, `"L[1]" = 2.147483648e+09`, "[1, 2147483647]")
	if err := e.SetParams(simulate.Params{Names: []string{"L[1]"}, Values: []float64{simulate.MaxForagingLevel}}); err != nil || e.Levels()[1] != simulate.MaxForagingLevel {
		t.Errorf("SetParams(L[1] = MaxForagingLevel): %v, levels %v", err, e.Levels())
	}
	if err := e.SetParams(simulate.Params{Names: []string{"L[1]"}, Values: []float64{2}}); err != nil {
		t.Fatal(err)
	}
	if l := e.Levels(); l[0] != 1 || l[1] != 2 || !bfEqualBits(obs, e.Obs()) {
		t.Errorf("failed SetParams changed the levels: %v", l)
	}
	foragingStep(t, e, 0, 0)
	foragingStep(t, e, 0, 0)
	bfWantErr(t, e.Step([]float64{0, 0, 0, 0}), simulate.ErrDone)
	if !e.Done()[0] || !e.Done()[1] {
		t.Error("not done after EpisodeLength steps")
	}
	if err := e.Reset(3); err != nil || e.Done()[0] || e.Reward()[0] != 0 {
		t.Errorf("Reset after the end: %v, done %v", err, e.Done())
	}
	if !bfEqualBits(obs, e.Obs()) {
		t.Error("Reset with the same seed gives another start")
	}
}

// foragingTargetPolicy walks each agent to its target item (x first, then
// y) and loads once it stands on it.
type foragingTargetPolicy struct{ targets []int }

func (p foragingTargetPolicy) Act(agent int, obs, noise, act []float64) {
	j := p.targets[agent]
	dx, dy := obs[2+3*j], obs[3+3*j]
	switch {
	case dx > 0:
		act[0] = simulate.ForagingRight
	case dx < 0:
		act[0] = simulate.ForagingLeft
	case dy > 0:
		act[0] = simulate.ForagingUp
	case dy < 0:
		act[0] = simulate.ForagingDown
	default:
		act[0] = simulate.ForagingLoad
	}
}

func (p foragingTargetPolicy) ActTangent(agent int, obs, dObs, noise, act, dAct []float64) {
	p.Act(agent, obs, noise, act)
	clear(dAct)
}

// foragingTargetsOf returns the item each agent works on in an allocation: the
// column of its 1.
func foragingTargetsOf(a *mat.Dense) []int {
	n, m := a.Dims()
	t := make([]int, n)
	for i := range t {
		for j := 0; j < m; j++ {
			if a.At(i, j) == 1 {
				t[i] = j
			}
		}
	}
	return t
}

// TestForagingHeterogeneityGain plays the allocations of gain.LevelForaging
// as walking policies: the homogeneous team sends every agent to item 0,
// the heterogeneous one sends groups of L agents to distinct items. The
// heterogeneous team collects more items per step exactly when
// min(M, floor(N/L)) > 1 (ΔR > 0); otherwise the two policies coincide and
// so do their returns (ΔR = 0).
func TestForagingHeterogeneityGain(t *testing.T) {
	for _, tc := range []struct{ n, m, level int }{
		{2, 2, 1}, {4, 2, 2}, {6, 3, 2}, {4, 3, 1}, {3, 2, 2}, {1, 3, 1}, {2, 2, 3}, {3, 1, 1},
	} {
		g, err := gain.LevelForaging(tc.n, tc.m, tc.level)
		if err != nil {
			t.Fatal(err)
		}
		levels := make([]int, tc.m)
		for j := range levels {
			levels[j] = tc.level
		}
		e := newForaging(t, simulate.ForagingConfig{Batch: 128, Agents: tc.n, Width: 6, Height: 6, Levels: levels})
		var perStep [2]float64
		for k, alloc := range []*mat.Dense{g.HomAlloc(), g.HetAlloc} {
			ret, err := simulate.Rollout(e, foragingTargetPolicy{foragingTargetsOf(alloc)}, 31, nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range ret {
				perStep[k] += r / float64(tc.level)
			}
			perStep[k] /= float64(len(ret) * e.EpisodeLength())
		}
		hom, het := perStep[0], perStep[1]
		t.Logf("N = %d, M = %d, L = %d: ΔR = %v; items per step: homogeneous %.4f, heterogeneous %.4f",
			tc.n, tc.m, tc.level, g.Delta, hom, het)
		switch {
		case g.Delta > 0 && !(het > 1.2*hom):
			t.Errorf("N = %d, M = %d, L = %d: ΔR = %v > 0 but heterogeneous %v items per step, homogeneous %v",
				tc.n, tc.m, tc.level, g.Delta, het, hom)
		case g.Delta == 0 && het != hom:
			t.Errorf("N = %d, M = %d, L = %d: ΔR = 0 but heterogeneous %v items per step, homogeneous %v",
				tc.n, tc.m, tc.level, het, hom)
		case g.Delta < 0:
			t.Errorf("ΔR = %v < 0", g.Delta)
		}
	}
}

// TestForagingRecorder records a rollout: positions (Foraging is
// Embodied), actions, efforts and the return.
func TestForagingRecorder(t *testing.T) {
	e := newForaging(t, simulate.ForagingConfig{Batch: 3, Agents: 2, Width: 4, Height: 4, Levels: []int{1, 1}, EpisodeLength: 12})
	rec := simulate.NewRecorder(2)
	ret, err := simulate.Rollout(e, foragingTargetPolicy{[]int{0, 1}}, 4, rec)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.AgentPos) != 13 || len(rec.TaskPos) != 13 || len(rec.Efforts) != 13 || rec.Steps[12] != 12 {
		t.Fatalf("recorded %d agent positions, %d item positions, %d efforts, steps %v",
			len(rec.AgentPos), len(rec.TaskPos), len(rec.Efforts), rec.Steps)
	}
	if rec.Return() != ret[2] || ret[2] == 0 {
		t.Errorf("recorded return %v, Rollout %v", rec.Return(), ret)
	}
	if !bfEqualBits(rec.AgentPos[12], e.AgentPositions(2)) || !bfEqualBits(rec.TaskPos[12], e.TaskPositions(2)) {
		t.Error("last record differs from the final state")
	}
	if rec.Env != "foraging" || rec.Agents != 2 || rec.Tasks != 2 {
		t.Errorf("recorder header %q %d %d", rec.Env, rec.Agents, rec.Tasks)
	}
}

func BenchmarkForaging(b *testing.B) {
	const batch, n = 1024, 4
	e, err := simulate.NewForaging(simulate.ForagingConfig{Batch: batch, Agents: n, Width: 8, Height: 8, Levels: []int{1, 2, 2}})
	if err != nil {
		b.Fatal(err)
	}
	rnd := rand.New(rand.NewSource(1))
	acts := make([][]float64, 16)
	for k := range acts {
		acts[k] = make([]float64, batch*n)
		for i := range acts[k] {
			acts[k][i] = float64(rnd.Intn(simulate.ForagingActions))
		}
	}
	if err := e.Reset(1); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for it := 0; it < b.N; it++ {
		if e.Done()[0] {
			if err := e.Reset(int64(it)); err != nil {
				b.Fatal(err)
			}
		}
		if err := e.Step(acts[it%len(acts)]); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)*batch*n/b.Elapsed().Seconds(), "agent-steps/s")
}
