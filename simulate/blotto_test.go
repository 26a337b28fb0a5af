package simulate_test

import (
	"errors"
	"math"
	"math/rand"
	"strings"
	"testing"

	"github.com/hetgain/hetgain/aggregators"
	"github.com/hetgain/hetgain/gain"
	"github.com/hetgain/hetgain/simulate"
	"gonum.org/v1/gonum/mat"
)

// blottoTestFields is a three-battlefield game whose adversary mixes
// troop counts that a team of two or three colonels can and cannot beat.
func blottoTestFields() []aggregators.BlottoField {
	return []aggregators.BlottoField{
		{V: 3, Troops: []float64{0.5, 1.5}, Probs: []float64{0.6, 0.4}},
		{V: 2, Troops: []float64{0.25, 1, 2}, Probs: []float64{0.3, 0.5, 0.2}},
		{V: 1, Troops: []float64{-1, 0}, Probs: []float64{0.5, 0.5}},
	}
}

func newBlotto(t testing.TB, batch, agents, steps int, fields []aggregators.BlottoField) *simulate.Blotto {
	t.Helper()
	g, err := simulate.NewBlotto(batch, agents, steps, fields)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// blottoActionsFor returns the flat [B][N][M] actions whose allocations
// are the rows of alloc (N x M, rows in the simplex) in every batch
// element: u_j = r_j (M−1) − (M−1)/2, which the game maps back to r.
func blottoActionsFor(alloc *mat.Dense, batch int) []float64 {
	n, m := alloc.Dims()
	h := float64(m-1) / 2
	one := make([]float64, 0, n*m)
	for i := 0; i < n; i++ {
		for j := 0; j < m; j++ {
			one = append(one, alloc.At(i, j)*float64(m-1)-h)
		}
	}
	acts := make([]float64, 0, batch*n*m)
	for b := 0; b < batch; b++ {
		acts = append(acts, one...)
	}
	return acts
}

// blottoEffortOf returns the effort matrix of batch element b.
func blottoEffortOf(env simulate.Env, b int) *mat.Dense {
	n, m := env.Agents(), env.Tasks()
	return mat.NewDense(n, m, append([]float64(nil), env.Effort()[b*n*m:(b+1)*n*m]...))
}

// blottoMoments returns the expected reward of one step with allocation a
// (from BlottoField) and its variance: the battlefields are won
// independently, with probabilities p_j, so Var = sum_j V_j² p_j (1 − p_j).
func blottoMoments(fields []aggregators.BlottoField, a *mat.Dense) (mean, variance float64) {
	n, _ := a.Dims()
	col := make([]float64, n)
	for j, f := range fields {
		mat.Col(col, j, a)
		p := f.ParamDerivative(col)
		mean += f.Value(col)
		variance += f.V * f.V * p * (1 - p)
	}
	return mean, variance
}

// blottoMeanReward plays the same allocation in every batch element for an
// episode and returns the mean reward per step.
func blottoMeanReward(t *testing.T, g *simulate.Blotto, alloc *mat.Dense, seed int64) float64 {
	t.Helper()
	if err := g.Reset(seed); err != nil {
		t.Fatal(err)
	}
	acts := blottoActionsFor(alloc, g.Batch())
	sum := 0.0
	for s := 0; s < g.EpisodeLength(); s++ {
		if err := g.Step(acts); err != nil {
			t.Fatal(err)
		}
		for _, r := range g.Reward() {
			sum += r
		}
	}
	return sum / float64(g.Batch()*g.EpisodeLength())
}

// TestBlottoRewardIsSampledIndicator checks the reward of every step
// against sum_j V_j 1[s_j > a_j] with the adversary's sampled troops, the
// effort rows against the simplex map, and the troops against the
// adversary's support.
func TestBlottoRewardIsSampledIndicator(t *testing.T) {
	fields := blottoTestFields()
	const batch, n, steps = 16, 3, 5
	g := newBlotto(t, batch, n, steps, fields)
	m := len(fields)
	if err := g.Reset(11); err != nil {
		t.Fatal(err)
	}
	rnd := rand.New(rand.NewSource(3))
	h := float64(m-1) / 2
	for s := 0; s < steps; s++ {
		acts := make([]float64, batch*n*m)
		for k := range acts {
			acts[k] = (rnd.Float64()*2 - 1) * 1.5 * h // some outside the box
		}
		if s == 0 {
			for j := 0; j < m; j++ {
				acts[j] = -h - 1 // agent 0 of element 0: all-zero row
			}
		}
		if err := g.Step(acts); err != nil {
			t.Fatal(err)
		}
		for b := 0; b < batch; b++ {
			eff := blottoEffortOf(g, b)
			for i := 0; i < n; i++ {
				u := acts[(b*n+i)*m : (b*n+i+1)*m]
				sum := 0.0
				for _, v := range u {
					sum += math.Max(-h, math.Min(h, v)) + h
				}
				for j := 0; j < m; j++ {
					want := 1 / float64(m)
					if sum > 0 {
						want = (math.Max(-h, math.Min(h, u[j])) + h) / sum
					}
					if got := eff.At(i, j); math.Abs(got-want) > 1e-15 {
						t.Fatalf("step %d batch %d agent %d: effort[%d] = %v, want %v", s, b, i, j, got, want)
					}
				}
			}
			want := 0.0
			for j, f := range fields {
				a := g.AdversaryTroops()[b*m+j]
				found := false
				for _, tr := range f.Troops {
					found = found || tr == a
				}
				if !found {
					t.Fatalf("battlefield %d: troops %v not in %v", j, a, f.Troops)
				}
				if s := mat.Sum(eff.ColView(j)); s > a {
					want += f.V
				}
			}
			if got := g.Reward()[b]; math.Abs(got-want) > 1e-12 {
				t.Errorf("step %d batch %d: reward %v, want %v", s, b, got, want)
			}
		}
	}
}

// TestBlottoMeanConverges checks the law of large numbers: the mean reward
// over many independent draws of the adversary is within 5 standard errors
// of sum_j BlottoField.Value, for several allocations.
func TestBlottoMeanConverges(t *testing.T) {
	fields := blottoTestFields()
	const batch, n, steps = 2048, 2, 4
	g := newBlotto(t, batch, n, steps, fields)
	rnd := rand.New(rand.NewSource(5))
	allocs := []*mat.Dense{
		mat.NewDense(2, 3, []float64{1, 0, 0, 0, 1, 0}),
		mat.NewDense(2, 3, []float64{0.5, 0.25, 0.25, 0.5, 0.25, 0.25}),
		mat.NewDense(2, 3, []float64{0, 0, 1, 0, 0, 1}),
	}
	for k := 0; k < 5; k++ {
		a := mat.NewDense(2, 3, nil)
		for i := 0; i < 2; i++ {
			x, y, z := rnd.Float64(), rnd.Float64(), rnd.Float64()
			s := x + y + z
			a.SetRow(i, []float64{x / s, y / s, z / s})
		}
		allocs = append(allocs, a)
	}
	for k, alloc := range allocs {
		got := blottoMeanReward(t, g, alloc, int64(100+k))
		eff := blottoEffortOf(g, 0)
		mean, variance := blottoMoments(fields, eff)
		exp, err := g.TeamReward().Value(eff)
		if err != nil || math.Abs(exp-mean) > 1e-12 {
			t.Fatalf("TeamReward = %v, %v; want %v", exp, err, mean)
		}
		tol := 5*math.Sqrt(variance/float64(batch*steps)) + 1e-12
		if math.Abs(got-mean) > tol {
			t.Errorf("allocation %v: mean reward %v, expected %v (tolerance %v)", mat.Formatted(alloc), got, mean, tol)
		}
	}
}

// TestBlottoDeltaZero plays the optimal homogeneous allocation of
// gain.Blotto and a team of specialists with the same column sums: both
// get the optimum in expectation, and, facing the same adversary draws
// (same seed), the same reward in every batch element.
func TestBlottoDeltaZero(t *testing.T) {
	fields := blottoTestFields()
	for _, n := range []int{2, 3} {
		gains, err := gain.Blotto(fields, n)
		if err != nil {
			t.Fatal(err)
		}
		if gains.Delta != 0 || gains.HomRow == nil {
			t.Fatalf("N = %d: gain.Blotto = %+v", n, gains)
		}
		hom := gains.HomAlloc()
		m := len(fields)
		colSums := make([]float64, m)
		for j := range colSums {
			colSums[j] = float64(n) * gains.HomRow.At(0, j)
		}
		het := blottoSpecialists(colSums, n)
		if mat.Equal(het, hom) {
			t.Fatalf("N = %d: the specialist allocation is homogeneous:\n%v", n, mat.Formatted(het))
		}
		const batch, steps = 2048, 2
		g := newBlotto(t, batch, n, steps, fields)
		var means [2]float64
		var rewards [2][]float64
		for k, alloc := range []*mat.Dense{hom, het} {
			means[k] = blottoMeanReward(t, g, alloc, 77)
			rewards[k] = append([]float64(nil), g.Reward()...)
			exp, err := g.TeamReward().Value(blottoEffortOf(g, 0))
			if err != nil || math.Abs(exp-gains.Het) > 1e-12 {
				t.Errorf("N = %d, allocation %d: expected reward %v, %v; gain.Blotto says %v", n, k, exp, err, gains.Het)
			}
			_, variance := blottoMoments(fields, blottoEffortOf(g, 0))
			if tol := 5*math.Sqrt(variance/float64(batch*steps)) + 1e-12; math.Abs(means[k]-gains.Het) > tol {
				t.Errorf("N = %d, allocation %d: mean reward %v, optimum %v (tolerance %v)", n, k, means[k], gains.Het, tol)
			}
		}
		if means[0] != means[1] {
			t.Errorf("N = %d: homogeneous mean %v, heterogeneous %v; want equal", n, means[0], means[1])
		}
		for b := range rewards[0] {
			if rewards[0][b] != rewards[1][b] {
				t.Fatalf("N = %d, batch %d: homogeneous reward %v, heterogeneous %v", n, b, rewards[0][b], rewards[1][b])
			}
		}
		t.Logf("N = %d: R_het = R_hom = %v; simulated %v (hom), %v (het); specialists\n%v",
			n, gains.Het, means[0], means[1], mat.Formatted(het))
	}
}

// blottoSpecialists fills the column sums s (summing to n) agent by agent:
// agent 0 puts its unit on battlefield 0 until s_0 is met, then on
// battlefield 1, and so on.
func blottoSpecialists(s []float64, n int) *mat.Dense {
	m := len(s)
	a := mat.NewDense(n, m, nil)
	need := append([]float64(nil), s...)
	j := 0
	for i := 0; i < n; i++ {
		left := 1.0
		for left > 1e-15 && j < m {
			x := math.Min(left, need[j])
			a.Set(i, j, a.At(i, j)+x)
			left -= x
			need[j] -= x
			if need[j] <= 1e-15 {
				j++
			}
		}
		if left > 1e-15 {
			a.Set(i, m-1, a.At(i, m-1)+left)
		}
	}
	return a
}

// TestBlottoDeterminism checks that the same seed gives the same episode
// bit for bit, another seed another one, and that the adversary of batch
// element b does not depend on the batch size.
func TestBlottoDeterminism(t *testing.T) {
	fields := blottoTestFields()
	run := func(batch int, seed int64) (rew, troops []float64) {
		g := newBlotto(t, batch, 2, 6, fields)
		if err := g.Reset(seed); err != nil {
			t.Fatal(err)
		}
		acts := make([]float64, batch*2*3)
		for k := range acts {
			acts[k] = float64(k%3) - 1
		}
		for s := 0; s < 6; s++ {
			if err := g.Step(acts); err != nil {
				t.Fatal(err)
			}
			rew = append(rew, g.Reward()...)
			troops = append(troops, g.AdversaryTroops()...)
		}
		return rew, troops
	}
	r1, a1 := run(8, 42)
	r2, a2 := run(8, 42)
	_, a3 := run(8, 43)
	if !bfEqualBits(r1, r2) || !bfEqualBits(a1, a2) {
		t.Error("same seed, different episodes")
	}
	if bfEqualBits(a1, a3) {
		t.Error("seeds 42 and 43 give the same adversary")
	}
	_, small := run(3, 42)
	for s := 0; s < 6; s++ {
		if !bfEqualBits(small[s*3*3:(s+1)*3*3], a1[s*8*3:s*8*3+3*3]) {
			t.Errorf("step %d: the first 3 batch elements depend on the batch size", s)
		}
	}
}

// Helpers shared by the Blotto and Foraging tests are prefixed bf, to keep
// clear of other test files of package simulate_test.

// bfEqualBits reports whether a and b hold the same float64 values bit for
// bit.
func bfEqualBits(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if math.Float64bits(a[k]) != math.Float64bits(b[k]) {
			return false
		}
	}
	return true
}

func bfWantErr(t *testing.T, err, target error, mentions ...string) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Errorf("error %v, want one wrapping %q", err, target)
		return
	}
	for _, s := range mentions {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error %q does not mention %q", err, s)
		}
	}
}

func TestBlottoErrors(t *testing.T) {
	good := blottoTestFields()
	for _, tc := range []struct {
		batch, n, steps int
		fields          []aggregators.BlottoField
		mention         string
	}{
		{0, 2, 1, good, "batch 0"},
		{1, 0, 1, good, "0 colonels"},
		{1, 2, 0, good, "0 steps"},
		{1, 2, 1, nil, "0 battlefields"},
		{1, 2, 1, []aggregators.BlottoField{{V: 1}}, "battlefield 0: the adversary has no troop counts"},
		{1, 2, 1, []aggregators.BlottoField{good[0], {V: -1, Troops: []float64{1}, Probs: []float64{1}}}, "battlefield 1"},
		{1, 2, 1, []aggregators.BlottoField{{V: 1, Troops: []float64{1, 2}, Probs: []float64{0.5, 0.6}}}, "sum to"},
		{1, 2, 1, []aggregators.BlottoField{{V: 1, Troops: []float64{1, math.NaN()}, Probs: []float64{0.5, 0.5}}}, "NaN"},
		{1, 2, 1, []aggregators.BlottoField{{V: 1, Troops: []float64{1}, Probs: []float64{0.5, 0.5}}}, "battlefield 0"},
	} {
		_, err := simulate.NewBlotto(tc.batch, tc.n, tc.steps, tc.fields)
		bfWantErr(t, err, simulate.ErrConfig, tc.mention)
	}

	g := newBlotto(t, 3, 2, 2, good)
	acts := make([]float64, 3*2*3)
	bfWantErr(t, g.Step(acts), simulate.ErrNotReset)
	if err := g.Reset(1); err != nil {
		t.Fatal(err)
	}
	bfWantErr(t, g.Step(acts[1:]), simulate.ErrAction, "17 action values")
	bad := append([]float64(nil), acts...)
	bad[2*2*3+1*3+2] = math.NaN()
	bfWantErr(t, g.Step(bad), simulate.ErrAction, "batch 2 agent 1", "action[2] = NaN")
	bad[2*2*3+1*3+2] = math.Inf(-1)
	bfWantErr(t, g.Step(bad), simulate.ErrAction, "batch 2 agent 1", "-Inf")
	// The failed steps changed nothing.
	for b, r := range g.Reward() {
		if r != 0 || g.Done()[b] {
			t.Errorf("after failed steps: reward %v, done %v", r, g.Done()[b])
		}
	}
	for s := 0; s < 2; s++ {
		if err := g.Step(acts); err != nil {
			t.Fatal(err)
		}
	}
	bfWantErr(t, g.Step(acts), simulate.ErrDone)

	before := g.Params()
	for _, p := range []simulate.Params{
		{Names: []string{"V[3]"}, Values: []float64{1}},
		{Names: []string{"T0.t"}, Values: []float64{1}},
		{Names: []string{"V[0]", "V[1]"}, Values: []float64{5, -1}},
		{Names: []string{"V[2]"}, Values: []float64{math.NaN()}},
		{Names: []string{"V[2]"}, Values: []float64{math.Inf(1)}},
		{Names: []string{"V[2]"}},
	} {
		bfWantErr(t, g.SetParams(p), simulate.ErrParam)
	}
	if after := g.Params(); !bfEqualBits(after.Values, before.Values) {
		t.Errorf("failed SetParams changed the parameters: %v -> %v", before, after)
	}
	err := g.SetParams(simulate.Params{Names: []string{"V[1]"}, Values: []float64{1}})
	bfWantErr(t, g.SetParams(simulate.Params{Names: []string{"V[1]"}, Values: []float64{-2}}), simulate.ErrParam, `"V[1]" = -2`)
	if v, _ := g.Params().Get("V[1]"); err != nil || v != 1 || g.Obs()[1] != 1 || g.Fields()[1].V != 1 {
		t.Errorf("SetParams(V[1] = 1): %v; V[1] = %v, obs %v", err, v, g.Obs()[:3])
	}
	_, _, err = g.ReturnGradient(simulate.ConstantPolicy{Actions: [][]float64{{0, 0, 0}}}, 1, []string{"V[0]", "V[0]"})
	bfWantErr(t, err, simulate.ErrParam, "twice")
	_, _, err = g.ReturnGradient(simulate.ConstantPolicy{Actions: [][]float64{{0, 0, 0}}}, 1, []string{"U.t"})
	bfWantErr(t, err, simulate.ErrParam, "U.t")
}

// TestBlottoParamsAndObs checks the parameter vector, the observations and
// that a value change shows in the reward.
func TestBlottoParamsAndObs(t *testing.T) {
	g := newBlotto(t, 2, 2, 1, blottoTestFields())
	p := g.Params()
	if strings.Join(p.Names, ",") != "V[0],V[1],V[2]" || !bfEqualBits(p.Values, []float64{3, 2, 1}) {
		t.Fatalf("Params = %v", p)
	}
	if g.ObsDim() != 3 || !bfEqualBits(g.Obs(), []float64{3, 2, 1, 3, 2, 1, 3, 2, 1, 3, 2, 1}) {
		t.Fatalf("Obs = %v", g.Obs())
	}
	if err := p.Set("V[2]", 10); err != nil {
		t.Fatal(err)
	}
	if err := g.SetParams(p); err != nil {
		t.Fatal(err)
	}
	// Battlefield 2 is always won with positive troops (the adversary
	// sends -1 or 0).
	if err := g.Reset(0); err != nil {
		t.Fatal(err)
	}
	if err := g.Step(blottoActionsFor(mat.NewDense(2, 3, []float64{0, 0, 1, 0, 0, 1}), 2)); err != nil {
		t.Fatal(err)
	}
	for b, r := range g.Reward() {
		if r != 10 {
			t.Errorf("batch %d: reward %v, want 10", b, r)
		}
	}
	if s := g.ActionSpace(); s.Discrete || s.Dim != 3 || s.Low[0] != -1 || s.High[2] != 1 {
		t.Errorf("ActionSpace = %v", s)
	}
	if g.Name() != "blotto" || g.Batch() != 2 || g.Agents() != 2 || g.Tasks() != 3 || g.EpisodeLength() != 1 {
		t.Errorf("sizes %s %d %d %d %d", g.Name(), g.Batch(), g.Agents(), g.Tasks(), g.EpisodeLength())
	}
}

// TestBlottoReturnGradient compares the derivative of the return with
// respect to the values with central differences, for a policy that reads
// the values.
func TestBlottoReturnGradient(t *testing.T) {
	fields := blottoTestFields()
	const batch, n, steps = 64, 2, 3
	g := newBlotto(t, batch, n, steps, fields)
	pol := simulate.NewLinearTanh(n, 3, 3, 0.5, 2, 1, 9)
	names := []string{"V[2]", "V[0]"}
	ret, grad, err := g.ReturnGradient(pol, 21, names)
	if err != nil {
		t.Fatal(err)
	}
	roll, err := simulate.Rollout(g, pol, 21, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !bfEqualBits(ret, roll) {
		t.Fatal("ReturnGradient's return differs from Rollout's")
	}
	const h = 1e-6
	base := g.Params()
	for k, name := range names {
		var fd [2][]float64
		for s, sign := range []float64{1, -1} {
			p := base.Clone()
			v, _ := p.Get(name)
			if err := p.Set(name, v+sign*h); err != nil {
				t.Fatal(err)
			}
			if err := g.SetParams(p); err != nil {
				t.Fatal(err)
			}
			if fd[s], err = simulate.Rollout(g, pol, 21, nil); err != nil {
				t.Fatal(err)
			}
		}
		if err := g.SetParams(base); err != nil {
			t.Fatal(err)
		}
		nonzero := 0
		for b := 0; b < batch; b++ {
			d := (fd[0][b] - fd[1][b]) / (2 * h)
			if math.Abs(d-grad[b][k]) > 1e-6 {
				t.Errorf("batch %d: d/d%s = %v, central difference %v", b, name, grad[b][k], d)
			}
			if grad[b][k] != math.Trunc(grad[b][k]) || grad[b][k] < 0 || grad[b][k] > steps {
				t.Errorf("batch %d: d/d%s = %v is not a count of steps", b, name, grad[b][k])
			}
			if grad[b][k] > 0 {
				nonzero++
			}
		}
		if nonzero == 0 {
			t.Errorf("d/d%s is 0 in every batch element", name)
		}
	}
}

func BenchmarkBlotto(b *testing.B) {
	const batch, n, m = 1024, 4, 4
	fields := make([]aggregators.BlottoField, m)
	for j := range fields {
		fields[j] = aggregators.BlottoField{V: float64(j + 1), Troops: []float64{0.5, 1, 2}, Probs: []float64{0.5, 0.3, 0.2}}
	}
	g, err := simulate.NewBlotto(batch, n, 100, fields)
	if err != nil {
		b.Fatal(err)
	}
	rnd := rand.New(rand.NewSource(1))
	acts := make([]float64, batch*n*m)
	for k := range acts {
		acts[k] = rnd.Float64()*3 - 1.5
	}
	if err := g.Reset(1); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for it := 0; it < b.N; it++ {
		if g.Done()[0] {
			if err := g.Reset(int64(it)); err != nil {
				b.Fatal(err)
			}
		}
		if err := g.Step(acts); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)*batch*n/b.Elapsed().Seconds(), "agent-steps/s")
}

// TestBlottoProbsOffOne checks that a battlefield whose probabilities sum
// to 1 + 9e-10 (within validation's tolerance) is kept normalised, so that
// the expected reward of a sure win is V, not more.
func TestBlottoProbsOffOne(t *testing.T) {
	f := aggregators.BlottoField{V: 2, Troops: []float64{0, 0.25}, Probs: []float64{0.5, 0.5 + 9e-10}}
	g, err := simulate.NewBlotto(1, 1, 1, []aggregators.BlottoField{f})
	if err != nil {
		t.Fatal(err)
	}
	p := g.Fields()[0].Probs
	if s := p[0] + p[1]; math.Abs(s-1) > 2e-16 {
		t.Errorf("Fields()[0].Probs = %v sum to %v, want 1", p, s)
	}
	if v, err := g.TeamReward().Value(mat.NewDense(1, 1, []float64{1})); err != nil || v > 2 || v < 2-1e-15 {
		t.Errorf("expected reward of a sure win = %v, %v; want 2", v, err)
	}
}
