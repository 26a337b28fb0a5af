package simulate

import (
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/hetgain/hetgain/aggregators"
	"github.com/hetgain/hetgain/gain"
)

// TestClassGainDiscreteMatrix plays the discrete matrix game with the M
// constant policies "choose task j" as the class: its teams are exactly
// the game's discrete allocations, so ClassGain must give the closed-form
// discrete R_het, R_hom and gain of every (U, T) pair.
func TestClassGainDiscreteMatrix(t *testing.T) {
	ops := []string{"min", "mean", "max"}
	for _, size := range [][2]int{{1, 2}, {2, 2}, {3, 2}, {2, 3}, {3, 3}, {4, 2}} {
		n, m := size[0], size[1]
		candidates := make([]Policy, m)
		for j := range candidates {
			candidates[j] = ConstantPolicy{Actions: [][]float64{{float64(j)}}}
		}
		for _, u := range ops {
			for _, tt := range ops {
				g, err := NewMatrixGame(1, n, m, true, reward(t, u, tt))
				if err != nil {
					t.Fatal(err)
				}
				res, err := ClassGain(g, candidates, []int64{1})
				if err != nil {
					t.Fatal(err)
				}
				want, err := gain.ClosedForm(aggregators.MustParse(u), aggregators.MustParse(tt), n, m, gain.Discrete)
				if err != nil {
					t.Fatal(err)
				}
				het, hom := res.Returns[res.Best], res.Returns[res.BestAlike]
				if math.Abs(het-want.Het) > 1e-12 || math.Abs(hom-want.Hom) > 1e-12 || math.Abs(res.Gain()-want.Delta) > 1e-12 {
					t.Errorf("N=%d M=%d %s∘%s: best %v (team %v), best alike %v (team %v), gain %v; want %v, %v, %v",
						n, m, u, tt, het, res.Teams[res.Best], hom, res.Teams[res.BestAlike], res.Gain(), want.Het, want.Hom, want.Delta)
				}
				if !res.Alike(res.BestAlike) || res.Episodes != 1 {
					t.Errorf("N=%d M=%d %s∘%s: best alike team %v is not alike, or %d episodes", n, m, u, tt, res.Teams[res.BestAlike], res.Episodes)
				}
			}
		}
	}
}

// TestMixedTagChaser checks that Mixed gives each agent its own policy:
// two chasers, each a TagChaser sent after one escaper, play as the
// specialists of ChaserPolicy, noise and all, bit for bit.
func TestMixedTagChaser(t *testing.T) {
	g, err := TagVMAS2v2(16, reward(t, "min", "max"))
	if err != nil {
		t.Fatal(err)
	}
	after := func(j int) TagChaser {
		return TagChaser{Escapers: 2, Target: []int{j, j}, Gain: 10, Damping: 0.2, Sigma: 0.3}
	}
	want, err := Rollout(g, g.ChaserPolicy(10, 0.2, 0.3, false), 5, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Rollout(g, Mixed{after(0), after(1)}, 5, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Mixed returns %v, want the specialists' %v", got, want)
	}
	crossed, err := Rollout(g, Mixed{after(1), after(0)}, 5, nil)
	if err != nil {
		t.Fatal(err)
	}
	if reflect.DeepEqual(crossed, want) {
		t.Error("Mixed with the policies swapped plays as before; want each agent to act by its own entry")
	}
}

// TestClassTeams checks the enumeration: K^N distinct teams in
// lexicographic order, team 0 all on candidate 0.
func TestClassTeams(t *testing.T) {
	for _, c := range [][2]int{{1, 1}, {1, 4}, {3, 1}, {2, 3}, {3, 2}, {4, 3}} {
		k, n := c[0], c[1]
		teams := classTeams(k, n)
		if want := int(math.Pow(float64(k), float64(n))); len(teams) != want {
			t.Fatalf("k=%d n=%d: %d teams, want %d", k, n, len(teams), want)
		}
		for idx, team := range teams {
			v := 0 // the team read as a base-k number must be its index
			for _, x := range team {
				if x < 0 || x >= k {
					t.Fatalf("k=%d n=%d: team %v out of range", k, n, team)
				}
				v = v*k + x
			}
			if v != idx {
				t.Fatalf("k=%d n=%d: team %d is %v", k, n, idx, team)
			}
		}
	}
}

// TestClassGainErrors checks each refusal names what is wrong.
func TestClassGainErrors(t *testing.T) {
	g, err := NewMatrixGame(1, 2, 2, true, reward(t, "min", "max"))
	if err != nil {
		t.Fatal(err)
	}
	one := []Policy{ConstantPolicy{Actions: [][]float64{{0}}}}
	many := make([]Policy, 100) // 100^2 teams
	for k := range many {
		many[k] = one[0]
	}
	for _, c := range []struct {
		name       string
		env        Env
		candidates []Policy
		seeds      []int64
		want       string
	}{
		{"nil env", nil, one, []int64{1}, "nil"},
		{"no candidates", g, nil, []int64{1}, "at least one candidate"},
		{"no seeds", g, one, nil, "at least one seed"},
		{"nil candidate", g, []Policy{nil}, []int64{1}, "agent 0's policy is nil"},
		{"too many teams", g, many, []int64{1}, "over MaxClassTeams"},
		{"a candidate that does not fit", g, []Policy{ConstantPolicy{Actions: [][]float64{{0}, {0}, {0}}}}, []int64{1}, "3 actions for 2 agents"},
	} {
		_, err := ClassGain(c.env, c.candidates, c.seeds)
		if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want ErrConfig naming %q", c.name, err, c.want)
		}
	}
}

// BenchmarkClassGainTagVMAS measures the nine teams of three chasers'
// targets in the paper's Tag, 256 episodes each.
func BenchmarkClassGainTagVMAS(b *testing.B) {
	g, err := TagVMAS2v2(256, reward(b, "min", "max"))
	if err != nil {
		b.Fatal(err)
	}
	cands := TagTargetClass(2, 2, 10, 0)
	for i := 0; i < b.N; i++ {
		if _, err := ClassGain(g, cands, []int64{1}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestClassGainStdErrs checks the standard errors against the episodes'
// returns replayed by Rollout: each team's over its episodes, the gain's
// over the two teams' episode-by-episode differences.
func TestClassGainStdErrs(t *testing.T) {
	g, err := TagVMAS2v2(32, reward(t, "min", "max"))
	if err != nil {
		t.Fatal(err)
	}
	cands := TagTargetClass(2, 2, 10, 0)
	seeds := []int64{3, 4}
	res, err := ClassGain(g, cands, seeds)
	if err != nil {
		t.Fatal(err)
	}
	replay := func(team int) []float64 {
		pol := Mixed{cands[res.Teams[team][0]], cands[res.Teams[team][1]]}
		var all []float64
		for _, s := range seeds {
			r, err := Rollout(g, pol, s, nil)
			if err != nil {
				t.Fatal(err)
			}
			all = append(all, r...)
		}
		return all
	}
	se := func(x []float64) float64 {
		m := 0.0
		for _, v := range x {
			m += v / float64(len(x))
		}
		ss := 0.0
		for _, v := range x {
			ss += (v - m) * (v - m)
		}
		return math.Sqrt(ss / float64(len(x)-1) / float64(len(x)))
	}
	for team := range res.Teams {
		if got, want := res.StdErrs[team], se(replay(team)); math.Abs(got-want) > 1e-9*want || !(want > 0) {
			t.Errorf("team %v: StdErr %v, want %v", res.Teams[team], got, want)
		}
	}
	best, alike := replay(res.Best), replay(res.BestAlike)
	diff := make([]float64, len(best))
	for e := range diff {
		diff[e] = best[e] - alike[e]
	}
	if res.Best == res.BestAlike {
		t.Fatalf("best team %v is alike; the test needs two teams", res.Teams[res.Best])
	}
	if got, want := res.GainStdErr, se(diff); math.Abs(got-want) > 1e-9*want {
		t.Errorf("GainStdErr %v, want %v", got, want)
	}
	if res.Episodes != 64 {
		t.Errorf("Episodes %d, want 64", res.Episodes)
	}
}

// TestTagTargetClass checks the class hetgain scripted plays: M + 1
// chasers, the first after the nearest escaper and the (j+2)-th after
// escaper j for every agent, with the gain and noise given.
func TestTagTargetClass(t *testing.T) {
	class := TagTargetClass(3, 2, 7, 0.5)
	if len(class) != 3 {
		t.Fatalf("%d candidates, want 3", len(class))
	}
	for k, p := range class {
		c, ok := p.(TagChaser)
		want := TagChaser{Escapers: 2, Target: []int{k - 1, k - 1, k - 1}, Gain: 7, Sigma: 0.5}
		if !ok || !reflect.DeepEqual(c, want) {
			t.Errorf("candidate %d: %#v, want %#v", k, p, want)
		}
	}
}
