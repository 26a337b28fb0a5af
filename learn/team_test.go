package learn

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/hetgain/hetgain/simulate"
)

func TestNewTeamErrors(t *testing.T) {
	if _, err := NewTeam(nil, Config{}); !errors.Is(err, ErrConfig) {
		t.Errorf("nil maker: %v, want ErrConfig", err)
	}
	boom := errors.New("boom")
	if _, err := NewTeam(func(int) (simulate.Env, error) { return nil, boom }, Config{}); !errors.Is(err, boom) {
		t.Errorf("failing maker: %v, want its error", err)
	}
	// A maker whose environments change size between calls.
	calls := 0
	mk := func(b int) (simulate.Env, error) {
		calls++
		return matrixMaker(calls+1, 2, false, "min", "max")(b)
	}
	if _, err := NewTeam(mk, Config{Workers: 2, Envs: 2}); !errors.Is(err, ErrConfig) {
		t.Errorf("inconsistent maker: %v, want ErrConfig", err)
	}
	if _, err := NewTeam(func(int) (simulate.Env, error) { return nil, nil }, Config{}); !errors.Is(err, ErrConfig) {
		t.Errorf("maker of nil environments: %v, want ErrConfig", err)
	}
	typedNil := func(int) (simulate.Env, error) {
		var g *simulate.MatrixGame
		return g, nil
	}
	if _, err := NewTeam(typedNil, Config{}); !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), "nil *simulate.MatrixGame") {
		t.Errorf("maker of typed-nil environments: %v, want ErrConfig naming the type", err)
	}
	// An environment with nothing to observe.
	blind := func(b int) (simulate.Env, error) {
		env, err := matrixMaker(2, 2, false, "min", "max")(b)
		return noObservation{env}, err
	}
	if _, err := NewTeam(blind, Config{Envs: 2}); !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), "observation") {
		t.Errorf("environment without observations: %v, want ErrConfig naming the observation", err)
	}
	// Agent rewards from an environment that has only the team's.
	if _, err := NewTeam(matrixMaker(2, 2, false, "min", "max"), Config{Envs: 2, AgentRewards: true}); !errors.Is(err, ErrConfig) ||
		!strings.Contains(err.Error(), "AgentRewards") || !strings.Contains(err.Error(), "matrix") {
		t.Errorf("AgentRewards in the matrix game: %v, want ErrConfig naming AgentRewards and the environment", err)
	}
	teamOnly := func(b int) (simulate.Env, error) {
		env, err := captureMaker(2, 2, 5)(b)
		return teamRewardOnly{env}, err
	}
	if _, err := NewTeam(teamOnly, Config{Envs: 2, DifferenceRewards: true}); !errors.Is(err, ErrConfig) ||
		!strings.Contains(err.Error(), "DifferenceRewards") || !strings.Contains(err.Error(), "capture") {
		t.Errorf("DifferenceRewards in an environment without them: %v, want ErrConfig naming DifferenceRewards and the environment", err)
	}
	if _, err := NewTeam(tagMaker(2, 2, 5), Config{Envs: 2, AgentRewards: true, DifferenceRewards: true}); !errors.Is(err, ErrConfig) ||
		!strings.Contains(err.Error(), "AgentRewards and DifferenceRewards") {
		t.Errorf("both AgentRewards and DifferenceRewards: %v, want ErrConfig naming both", err)
	}
	// A maker that ignores the batch it is asked for.
	for _, b := range []int{2, 5} {
		fixed := func(int) (simulate.Env, error) { return matrixMaker(2, 2, false, "min", "max")(b) }
		if _, err := NewTeam(fixed, Config{Envs: 3, Hidden: []int{2}}); !errors.Is(err, ErrConfig) {
			t.Errorf("environments of batch %d for Envs 3: %v, want ErrConfig", b, err)
		}
	}
}

func TestTeamSizes(t *testing.T) {
	for _, c := range gradCases() {
		c.cfg.Workers = 2
		c.cfg.FramesPerIter = 31 // rounded up to whole episodes of every worker
		tm := mustTeam(t, c.mk, c.cfg)
		env, err := c.mk(1)
		if err != nil {
			t.Fatal(err)
		}
		n, L, B, W := env.Agents(), env.EpisodeLength(), c.cfg.Envs, c.cfg.Workers
		episodes := (31 + W*B*L - 1) / (W * B * L)
		if tm.buf.frames != W*episodes*B*L || tm.buf.frames < 31 || tm.buf.frames-W*B*L >= 31 {
			t.Errorf("%s: %d frames per iteration for 31 asked, %d per episode and worker", c.name, tm.buf.frames, B*L)
		}
		if tm.Agents() != n {
			t.Errorf("%s: Agents %d, want %d", c.name, tm.Agents(), n)
		}
		nActors, nCritics := n, 1
		if c.cfg.Kind == Homogeneous {
			nActors = 1
		}
		if c.cfg.Critic == PerAgent {
			nCritics = nActors
		}
		asz, csz := refLayerSizes(tm, false), refLayerSizes(tm, true)
		logStds := 0
		if !env.ActionSpace().Discrete {
			logStds = env.ActionSpace().Dim
		}
		wantA, wantC := nActors*(refNumParams(asz)+logStds), nCritics*refNumParams(csz)
		if a, cr := tm.NumParams(); a != wantA || cr != wantC {
			t.Errorf("%s: NumParams %d, %d, want %d, %d", c.name, a, cr, wantA, wantC)
		}
		// Initial log standard deviations and zero biases.
		np := refNumParams(asz)
		for a := 0; a < nActors; a++ {
			p := tm.actorParams[a*(np+logStds) : (a+1)*(np+logStds)]
			for _, v := range p[np:] {
				if v != c.cfg.InitLogStd {
					t.Errorf("%s: initial log std %v, want %v", c.name, v, c.cfg.InitLogStd)
				}
			}
			off := 0
			for l := 0; l+1 < len(asz); l++ {
				off += asz[l] * asz[l+1]
				for _, b := range p[off : off+asz[l+1]] {
					if b != 0 {
						t.Errorf("%s: initial bias %v", c.name, b)
					}
				}
				off += asz[l+1]
			}
		}
		if tm.Iteration() != 0 || tm.Frames() != 0 {
			t.Errorf("%s: fresh team at iteration %d, frames %d", c.name, tm.Iteration(), tm.Frames())
		}
	}
}

// TestCollectReplay replays every buffered episode in a fresh environment,
// from the episode's spawn seed, with the buffered actions squashed into
// the action box, and checks the buffered inputs, rewards, returns and
// log-probabilities against it.
func TestCollectReplay(t *testing.T) {
	for _, c := range gradCases() {
		c.cfg.Workers = 2
		c.cfg.FramesPerIter = 50
		t.Run(c.name, func(t *testing.T) {
			tm := mustTeam(t, c.mk, c.cfg)
			r := newRNG(8, 8)
			for k := range tm.actorParams { // a responsive policy
				tm.actorParams[k] += 0.3 * r.normal()
			}
			for it := 0; it < 2; it++ { // the second iteration has new seeds
				if err := tm.collect(); err != nil {
					t.Fatal(err)
				}
				replay(t, tm, c.mk)
				tm.iter++
			}
		})
	}
}

func replay(t *testing.T, tm *Team, mk EnvMaker) {
	t.Helper()
	cfg := tm.Config()
	n, B, W := tm.n, cfg.Envs, cfg.Workers
	L := tm.buf.length
	E := tm.buf.frames / (W * B * L)
	asz := refLayerSizes(tm, false)
	np := refNumParams(asz)
	sp := tm.space
	per := np
	if !sp.Discrete {
		per += sp.Dim
	}
	in := asz[0]
	for w := 0; w < W; w++ {
		for e := 0; e < E; e++ {
			env, err := mk(B)
			if err != nil {
				t.Fatal(err)
			}
			if err := env.Reset(spawnSeed(cfg.Seed, tm.iter, w, e)); err != nil {
				t.Fatal(err)
			}
			od := env.ObsDim()
			ret := make([]float64, B)
			for s := 0; s < L; s++ {
				obs := env.Obs()
				acts := make([]float64, B*n*sp.Width())
				for k := 0; k < B; k++ {
					f := ((w*E+e)*L+s)*B + k
					if cfg.Critic == Centralised {
						for q := 0; q < n*od; q++ {
							if tm.buf.criticIn[f*n*od+q] != obs[k*n*od+q] {
								t.Fatalf("worker %d episode %d step %d element %d: critic input differs", w, e, s, k)
							}
						}
					}
					for i := 0; i < n; i++ {
						row := f*n + i
						x := tm.buf.actorIn[row*in : (row+1)*in]
						for q := 0; q < in; q++ {
							want := 0.0
							if q < od {
								want = obs[(k*n+i)*od+q]
							} else if q-od == i {
								want = 1
							}
							if x[q] != want {
								t.Fatalf("frame %d agent %d: input[%d] = %v, want %v", f, i, q, x[q], want)
							}
						}
						a := i
						if cfg.Kind == Homogeneous {
							a = 0
						}
						p := tm.actorParams[a*per : (a+1)*per]
						y := refForward(asz, p[:np], x)
						var ls []float64
						if sp.Discrete {
							c := tm.buf.raw[row]
							if c != math.Trunc(c) || c < 0 || int(c) >= sp.Choices {
								t.Fatalf("frame %d agent %d: choice %v", f, i, c)
							}
							acts[(k*n + i)] = c
						} else {
							ls = p[np:]
							for d := 0; d < sp.Dim; d++ {
								u := tm.buf.raw[row*sp.Dim+d]
								acts[(k*n+i)*sp.Dim+d] = sp.Low[d] + (sp.High[d]-sp.Low[d])*(math.Tanh(u)+1)/2
							}
						}
						raw := tm.buf.raw[row*tm.rawW() : (row+1)*tm.rawW()]
						if lp := lossLogProb(sp.Discrete, raw, y, ls); math.Abs(lp-tm.buf.logp[row]) > 1e-10*math.Max(1, math.Abs(lp)) {
							t.Fatalf("frame %d agent %d: log-probability %v, want %v", f, i, tm.buf.logp[row], lp)
						}
					}
				}
				if err := env.Step(acts); err != nil {
					t.Fatal(err)
				}
				for k, rw := range env.Reward() {
					f := ((w*E+e)*L+s)*B + k
					if !cfg.AgentRewards && !cfg.DifferenceRewards && tm.buf.reward[f] != rw {
						t.Fatalf("worker %d episode %d step %d element %d: reward %v, replay %v", w, e, s, k, tm.buf.reward[f], rw)
					}
					ret[k] += rw
				}
				if cfg.AgentRewards || cfg.DifferenceRewards {
					var own []float64
					if cfg.DifferenceRewards {
						own = env.(simulate.DifferenceRewarder).DifferenceRewards()
					} else {
						own = env.(simulate.AgentRewarder).AgentRewards()
					}
					for q, rw := range own {
						f := ((w*E+e)*L+s)*B + q/n
						if tm.buf.reward[f*n+q%n] != rw {
							t.Fatalf("worker %d episode %d step %d element %d agent %d: reward %v, replay %v", w, e, s, q/n, q%n, tm.buf.reward[f*n+q%n], rw)
						}
					}
				}
			}
			for k := range ret {
				if got := tm.buf.epReturn[(w*E+e)*B+k]; math.Abs(got-ret[k]) > 1e-12 {
					t.Fatalf("worker %d episode %d element %d: return %v, replay %v", w, e, k, got, ret[k])
				}
			}
		}
	}
}

// TestSamplingDistribution checks the collected actions' distribution:
// standardised Gaussian draws (u − μ)/σ have mean 0 and variance 1, and
// discrete choices follow the softmax of the logits.
func TestSamplingDistribution(t *testing.T) {
	for _, disc := range []bool{false, true} {
		tm := mustTeam(t, matrixMaker(2, 3, disc, "min", "max"), Config{Hidden: []int{4}, Envs: 4000, FramesPerIter: 4000, InitLogStd: -0.7, Seed: 3})
		r := newRNG(2, 2)
		for k := range tm.actorParams {
			tm.actorParams[k] += 0.5 * r.normal()
		}
		if err := tm.collect(); err != nil {
			t.Fatal(err)
		}
		asz := refLayerSizes(tm, false)
		np := refNumParams(asz)
		per := np
		if !disc {
			per += 3
		}
		for i := 0; i < 2; i++ {
			p := tm.actorParams[i*per : (i+1)*per]
			y := refForward(asz, p[:np], []float64{0}) // the matrix game observes 0
			if disc {
				counts := make([]float64, 3)
				for f := 0; f < tm.buf.frames; f++ {
					counts[int(tm.buf.raw[f*2+i])]++
				}
				q := make([]float64, 3)
				softmaxInto(q, y)
				chi2 := 0.0
				for j := range q {
					e := float64(tm.buf.frames) * q[j]
					chi2 += (counts[j] - e) * (counts[j] - e) / e
				}
				if chi2 > 25 {
					t.Errorf("agent %d: χ² %v for counts %v and probabilities %v", i, chi2, counts, q)
				}
				continue
			}
			for d := 0; d < 3; d++ {
				s, s2 := 0.0, 0.0
				for f := 0; f < tm.buf.frames; f++ {
					z := (tm.buf.raw[(f*2+i)*3+d] - y[d]) / math.Exp(p[np+d])
					s, s2 = s+z, s2+z*z
				}
				m := s / float64(tm.buf.frames)
				v := s2/float64(tm.buf.frames) - m*m
				if math.Abs(m) > 0.07 || math.Abs(v-1) > 0.1 {
					t.Errorf("agent %d coordinate %d: standardised draws have mean %v, variance %v", i, d, m, v)
				}
			}
		}
	}
}

// seedLog records the Reset seeds of every environment a maker made, in
// the order of making.
type seedLog struct {
	mu    sync.Mutex
	seeds [][]int64
	batch []int
}

type seedEnv struct {
	simulate.Env
	log *seedLog
	k   int
}

func (e seedEnv) Reset(seed int64) error {
	e.log.mu.Lock()
	e.log.seeds[e.k] = append(e.log.seeds[e.k], seed)
	e.log.mu.Unlock()
	return e.Env.Reset(seed)
}

func (l *seedLog) maker(mk EnvMaker) EnvMaker {
	return func(b int) (simulate.Env, error) {
		env, err := mk(b)
		if err != nil {
			return nil, err
		}
		l.mu.Lock()
		defer l.mu.Unlock()
		l.seeds = append(l.seeds, nil)
		l.batch = append(l.batch, b)
		return seedEnv{env, l, len(l.seeds) - 1}, nil
	}
}

// TestPairSpawnSeeds checks that the heterogeneous and the homogeneous
// team of a pair meet the same spawns, in training and in evaluation, and
// that episodes of different workers, episodes and iterations differ.
func TestPairSpawnSeeds(t *testing.T) {
	var log seedLog
	spec := RunSpec{Maker: log.maker(captureMaker(2, 2, 4)), Iterations: 3, EvalEpisodes: 5,
		Team: Config{Hidden: []int{4}, Envs: 3, Workers: 2, FramesPerIter: 40, Seed: 21}}
	p, err := NewPair(spec)
	if err != nil {
		t.Fatal(err)
	}
	for it := 0; it < 3; it++ {
		if _, err := p.Iterate(); err != nil {
			t.Fatal(err)
		}
	}
	// made: het workers 0, 1; hom workers 2, 3; het and hom evaluation.
	if len(log.seeds) != 6 || log.batch[4] != 5 || log.batch[5] != 5 {
		t.Fatalf("%d environments of batches %v, want 2+2 workers and 2 evaluations of 5", len(log.seeds), log.batch)
	}
	seen := map[int64]bool{}
	for w := 0; w < 2; w++ {
		het, hom := log.seeds[w], log.seeds[2+w]
		if len(het) != 3*2 || fmt.Sprint(het) != fmt.Sprint(hom) {
			t.Errorf("worker %d: het seeds %v, hom seeds %v", w, het, hom)
		}
		for k, s := range het {
			if seen[s] {
				t.Errorf("worker %d reset %d: seed %d used twice", w, k, s)
			}
			seen[s] = true
			it, e := k/2, k%2
			if s != spawnSeed(21, it, w, e) {
				t.Errorf("worker %d iteration %d episode %d: seed %d, want spawnSeed %d", w, it, e, s, spawnSeed(21, it, w, e))
			}
		}
	}
	if fmt.Sprint(log.seeds[4]) != fmt.Sprint(log.seeds[5]) || len(log.seeds[4]) != 3 {
		t.Errorf("evaluation seeds het %v, hom %v", log.seeds[4], log.seeds[5])
	}
	for k, s := range log.seeds[4] {
		if s != p.evalSeed(k+1) {
			t.Errorf("evaluation %d seed %d, want %d", k+1, s, p.evalSeed(k+1))
		}
	}
}

// TestTeamDeterminism checks that teams with the same configuration
// train identically (also with two workers), and that other seeds or a
// heterogeneous/homogeneous team differ.
func TestTeamDeterminism(t *testing.T) {
	run := func(cfg Config) *Team {
		tm := mustTeam(t, captureMaker(2, 2, 5), cfg)
		for it := 0; it < 2; it++ {
			st, err := tm.Iterate()
			if err != nil {
				t.Fatal(err)
			}
			if st.Iteration != it+1 || st.Frames != int64((it+1)*tm.buf.frames) || st.Return != mean(tm.buf.epReturn) {
				t.Fatalf("stats %+v after iteration %d", st, it+1)
			}
			for _, v := range []float64{st.Entropy, st.ClipFraction, st.ApproxKL, st.ValueLoss} {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					t.Fatalf("non-finite stats %+v", st)
				}
			}
			if st.ClipFraction < 0 || st.ClipFraction > 1 || st.ValueLoss < 0 {
				t.Fatalf("stats out of range %+v", st)
			}
		}
		return tm
	}
	cfg := Config{Hidden: []int{8, 8}, Envs: 4, FramesPerIter: 60, Minibatch: 25, Epochs: 3, Seed: 5}
	for _, workers := range []int{1, 2} {
		cfg.Workers = workers
		a, b := run(cfg), run(cfg)
		if !equalFloats(a.actorParams, b.actorParams) || !equalFloats(a.criticParams, b.criticParams) {
			t.Errorf("workers %d: two runs of the same configuration differ", workers)
		}
		c := cfg
		c.Seed = 6
		if equalFloats(a.actorParams, run(c).actorParams) {
			t.Errorf("workers %d: seeds 5 and 6 give the same parameters", workers)
		}
	}
}

func equalFloats(a, b []float64) bool {
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

func TestSetEnvParams(t *testing.T) {
	tm := mustTeam(t, matrixMaker(2, 2, false, "softmax(1)", "max"), Config{Hidden: []int{2}, Envs: 2, Workers: 2})
	if _, err := tm.Evaluate(3, 1); err != nil { // makes the evaluation environment
		t.Fatal(err)
	}
	p := tm.EnvParams()
	if err := p.Set("U.t", -2); err != nil {
		t.Fatal(err)
	}
	if err := tm.SetEnvParams(p); err != nil {
		t.Fatal(err)
	}
	for w, wk := range tm.workers {
		if v, _ := wk.env.Params().Get("U.t"); v != -2 {
			t.Errorf("worker %d: U.t = %v", w, v)
		}
	}
	if v, _ := tm.upd.evalEnv.Params().Get("U.t"); v != -2 {
		t.Errorf("evaluation environment: U.t = %v", v)
	}
	if err := tm.SetEnvParams(simulate.Params{Names: []string{"nope"}, Values: []float64{1}}); err == nil {
		t.Error("unknown parameter: no error")
	}
}

// nanEnv reports a NaN reward for batch element 1.
type nanEnv struct{ simulate.Env }

func (e nanEnv) Reward() []float64 {
	r := append([]float64(nil), e.Env.Reward()...)
	r[1] = math.NaN()
	return r
}

func TestDivergedReward(t *testing.T) {
	mk := func(b int) (simulate.Env, error) {
		env, err := captureMaker(2, 2, 3)(b)
		return nanEnv{env}, err
	}
	tm := mustTeam(t, mk, Config{Hidden: []int{3}, Envs: 2, Workers: 2})
	if _, err := tm.Iterate(); !errors.Is(err, ErrDiverged) {
		t.Errorf("NaN reward: %v, want ErrDiverged", err)
	}
	if tm.Iteration() != 0 {
		t.Errorf("failed iteration counted: %d", tm.Iteration())
	}
}

// noObservation is an environment whose agents observe nothing.
type noObservation struct{ simulate.Env }

func (noObservation) ObsDim() int    { return 0 }
func (noObservation) Obs() []float64 { return nil }

// teamRewardOnly hides every method but simulate.Env's: an environment
// with the team reward only.
type teamRewardOnly struct{ simulate.Env }

// teamAsOwn gives every agent the team reward as its own.
type teamAsOwn struct {
	simulate.Env
	own []float64
}

func (e *teamAsOwn) AgentRewards() []float64 {
	n := e.Agents()
	if e.own == nil {
		e.own = make([]float64, e.Batch()*n)
	}
	for q := range e.own {
		e.own[q] = e.Reward()[q/n]
	}
	return e.own
}

// TestAgentRewardsOfTheTeam checks that training on agent rewards that
// all equal the team reward is training on the team reward, bit for bit,
// with per-agent critics (whose value rows are the same either way).
func TestAgentRewardsOfTheTeam(t *testing.T) {
	mk := func(b int) (simulate.Env, error) {
		env, err := captureMaker(2, 2, 6)(b)
		return &teamAsOwn{Env: env}, err
	}
	for _, kind := range []TeamKind{Heterogeneous, Homogeneous} {
		cfg := Config{Kind: kind, Critic: PerAgent, Hidden: []int{8}, Envs: 4, FramesPerIter: 48, Minibatch: 10, Seed: 3}
		team, own := mustTeam(t, mk, cfg), mustTeam(t, mk, func() Config { c := cfg; c.AgentRewards = true; return c }())
		for it := 0; it < 3; it++ {
			for _, tm := range []*Team{team, own} {
				if _, err := tm.Iterate(); err != nil {
					t.Fatal(err)
				}
			}
		}
		for _, p := range []struct {
			name      string
			team, own []float64
		}{{"actor", team.actorParams, own.actorParams}, {"critic", team.criticParams, own.criticParams}} {
			for k := range p.team {
				if math.Float64bits(p.team[k]) != math.Float64bits(p.own[k]) {
					t.Fatalf("%v: %s parameter %d: %v on the team reward, %v on agent rewards equal to it", kind, p.name, k, p.team[k], p.own[k])
				}
			}
		}
		if nonZero(team.actorParams) == 0 {
			t.Fatal("no actor parameters")
		}
	}
}

// badOwn is an environment whose agent rewards are the given slice.
type badOwn struct {
	simulate.Env
	own []float64
}

func (e badOwn) AgentRewards() []float64 { return e.own }

// TestBadAgentRewards checks that a non-finite agent reward gives
// ErrDiverged naming the agent, and agent rewards of the wrong length
// ErrConfig naming both lengths; neither counts the iteration.
func TestBadAgentRewards(t *testing.T) {
	for _, c := range []struct {
		own     []float64
		want    error
		mention string
	}{
		{[]float64{0, 0, 0, math.Inf(1)}, ErrDiverged, "+Inf for agent 1"},
		{[]float64{0, 0, 0}, ErrConfig, "returned 3 agent rewards, want 4"},
	} {
		mk := func(b int) (simulate.Env, error) {
			env, err := captureMaker(2, 2, 3)(b)
			return badOwn{env, c.own}, err
		}
		tm := mustTeam(t, mk, Config{Hidden: []int{3}, Envs: 2, AgentRewards: true})
		if _, err := tm.Iterate(); !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.mention) {
			t.Errorf("agent rewards %v: %v, want %v naming %q", c.own, err, c.want, c.mention)
		}
		if tm.Iteration() != 0 {
			t.Errorf("failed iteration counted: %d", tm.Iteration())
		}
	}
}

// markedDifference is Tag with difference rewards that differ from its
// agent rewards in every step (by 1 + the agent's index), so that a team
// that stored the wrong ones is caught.
type markedDifference struct {
	*simulate.Tag
	diff []float64
}

func (e *markedDifference) DifferenceRewards() []float64 {
	own := e.AgentRewards()
	n := e.Agents()
	if e.diff == nil {
		e.diff = make([]float64, len(own))
	}
	for q, v := range own {
		e.diff[q] = v + 1 + float64(q%n)
	}
	return e.diff
}

// TestDifferenceRewardsStored checks that a team with DifferenceRewards
// stores each agent's difference reward, not its agent reward, and that
// its returns stay those of the team reward (the replay checks both).
func TestDifferenceRewardsStored(t *testing.T) {
	mk := func(b int) (simulate.Env, error) {
		env, err := tagMaker(2, 2, 5)(b)
		if err != nil {
			return nil, err
		}
		return &markedDifference{Tag: env.(*simulate.Tag)}, nil
	}
	for _, kind := range []TeamKind{Heterogeneous, Homogeneous} {
		tm := mustTeam(t, mk, Config{Kind: kind, Hidden: []int{4}, Envs: 3, FramesPerIter: 30, DifferenceRewards: true, Seed: 4})
		if err := tm.collect(); err != nil {
			t.Fatal(err)
		}
		replay(t, tm, mk)
	}
}

// TestTeamParamLimit checks checkParams's count against the networks
// NewTeam builds, for every kind of team and critic, and that NewTeam
// refuses networks over MaxTeamParams without building them.
func TestTeamParamLimit(t *testing.T) {
	makers := []struct {
		name string
		mk   EnvMaker
		own  bool // train on the agents' own rewards
	}{
		{"matrix", matrixMaker(3, 2, false, "min", "max"), false},
		{"discrete", matrixMaker(3, 2, true, "min", "max"), false},
		{"capture", captureMaker(2, 2, 5), false},
		{"tag, own rewards", tagMaker(2, 2, 5), true},
	}
	for _, e := range makers {
		for _, kind := range []TeamKind{Heterogeneous, Homogeneous} {
			for _, critic := range []CriticKind{Centralised, PerAgent} {
				for _, index := range []bool{false, true} {
					cfg := Config{Kind: kind, Critic: critic, AgentIndex: index, AgentRewards: e.own, Hidden: []int{5, 3}, Envs: 2}
					tm := mustTeam(t, e.mk, cfg)
					want := float64(len(tm.actorParams) + len(tm.criticParams))
					if got := tm.paramCount(); got != want {
						t.Errorf("%s %+v: counted %v parameters, the team has %v", e.name, cfg, got, want)
					}
				}
			}
		}
	}
	for _, hidden := range [][]int{{MaxHiddenWidth, MaxHiddenWidth}, {4096, 4096, 4096, 4096, 4096}} {
		_, err := NewTeam(matrixMaker(2, 2, false, "min", "max"), Config{Hidden: hidden, Envs: 2})
		if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), "MaxTeamParams") {
			t.Errorf("hidden %v: NewTeam = %v, want ErrConfig naming MaxTeamParams", hidden, err)
		}
	}
}

// badShape edits what a wrapped environment returns: its rewards cut to
// nRew values (if >= 0), its observations cut to nObs values (if >= 0) or
// with value obsNaN made NaN (if >= 0), or its number of agents.
type badShape struct {
	simulate.Env
	nRew, nObs, obsNaN int
	agents             *int
}

func (e badShape) Reward() []float64 {
	r := e.Env.Reward()
	if e.nRew >= 0 {
		r = r[:e.nRew]
	}
	return r
}

func (e badShape) Obs() []float64 {
	o := append([]float64(nil), e.Env.Obs()...)
	if e.nObs >= 0 {
		o = o[:e.nObs]
	}
	if e.obsNaN >= 0 {
		o[e.obsNaN] = math.NaN()
	}
	return o
}

func (e badShape) Agents() int {
	if e.agents != nil {
		return *e.agents
	}
	return e.Env.Agents()
}

// TestBadEnvironmentShapes checks that an environment of the caller's
// whose rewards or observations have the wrong length, or an observation
// that is NaN, gives an error naming it instead of an index panic in a
// worker, and that one with no agents is refused by NewTeam.
func TestBadEnvironmentShapes(t *testing.T) {
	for _, c := range []struct {
		env     badShape
		want    error
		mention string
	}{
		{badShape{nRew: 1, nObs: -1, obsNaN: -1}, ErrConfig, "returned 1 rewards, want 2"},
		{badShape{nRew: -1, nObs: 3, obsNaN: -1}, ErrConfig, "returned 3 observation values, want"},
		{badShape{nRew: -1, nObs: -1, obsNaN: 0}, ErrDiverged, "returned observation NaN (batch element 0, agent 0)"},
	} {
		mk := func(b int) (simulate.Env, error) {
			env, err := captureMaker(2, 2, 3)(b)
			c.env.Env = env
			return c.env, err
		}
		tm := mustTeam(t, mk, Config{Hidden: []int{3}, Envs: 2, Workers: 2})
		if _, err := tm.Iterate(); !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.mention) {
			t.Errorf("%+v: %v, want %v naming %q", c.env, err, c.want, c.mention)
		}
	}
	zero := 0
	mk := func(b int) (simulate.Env, error) {
		env, err := captureMaker(2, 2, 3)(b)
		return badShape{Env: env, nRew: -1, nObs: -1, obsNaN: -1, agents: &zero}, err
	}
	if _, err := NewTeam(mk, Config{Envs: 2}); !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), "has 0 agents") {
		t.Errorf("an environment of 0 agents: %v, want ErrConfig naming the count", err)
	}
}

// hugeEnv reports a reward of 1e200 for batch element 0: finite, but its
// square overflows the value loss.
type hugeEnv struct{ simulate.Env }

func (e hugeEnv) Reward() []float64 {
	r := append([]float64(nil), e.Env.Reward()...)
	r[0] = 1e200
	return r
}

// TestHugeReward checks that a reward above aggregators.MaxInput stops
// the iteration with ErrDiverged naming the value and the bound, before
// it turns the losses into NaN.
func TestHugeReward(t *testing.T) {
	mk := func(b int) (simulate.Env, error) {
		env, err := captureMaker(2, 2, 3)(b)
		return hugeEnv{env}, err
	}
	tm := mustTeam(t, mk, Config{Hidden: []int{3}, Envs: 2})
	_, err := tm.Iterate()
	if !errors.Is(err, ErrDiverged) || !strings.Contains(err.Error(), "reward 1e+200 (batch element 0), want finite and at most 1e+100 in magnitude") {
		t.Errorf("reward 1e200: %v, want ErrDiverged naming the value and the bound", err)
	}
}

// TestActionStd checks that ActionStd reads each agent's own actor's log
// standard deviations (one shared actor in a homogeneous team), clamped
// as the policy samples with them, and is nil for discrete actions.
func TestActionStd(t *testing.T) {
	for _, c := range gradCases() {
		tm := mustTeam(t, c.mk, c.cfg)
		std := tm.ActionStd()
		if tm.space.Discrete {
			if std != nil {
				t.Errorf("%s: ActionStd %v for discrete actions, want nil", c.name, std)
			}
			continue
		}
		if len(std) != tm.Agents() {
			t.Fatalf("%s: ActionStd has %d agents, want %d", c.name, len(std), tm.Agents())
		}
		for i := range std {
			for _, v := range std[i] {
				if v != math.Exp(c.cfg.InitLogStd) {
					t.Errorf("%s: initial std %v, want exp(%v)", c.name, v, c.cfg.InitLogStd)
				}
			}
		}
		for a, ls := range tm.logStd {
			for k := range ls {
				ls[k] = -0.5*float64(a) - 0.25*float64(k)
			}
		}
		tm.logStd[0][0] = -30 // below the clamp
		std = tm.ActionStd()
		for i := range std {
			a := i
			if c.cfg.Kind == Homogeneous {
				a = 0
			}
			for k, v := range std[i] {
				want := math.Exp(-0.5*float64(a) - 0.25*float64(k))
				if a == 0 && k == 0 {
					want = math.Exp(minLogStd)
				}
				if math.Abs(v-want) > 1e-15*want {
					t.Errorf("%s: agent %d coordinate %d: std %v, want %v", c.name, i, k, v, want)
				}
			}
		}
	}
}
