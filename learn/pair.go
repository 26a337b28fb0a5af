package learn

import (
	"encoding/json"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/hetgain/hetgain/simulate"
)

// RunSpec describes a paired run: a heterogeneous and a homogeneous team
// trained side by side, from the same seed, in the same environment.
type RunSpec struct {
	// Env is the environment. Maker, if not nil, builds the environments
	// instead (for environments outside EnvSpec); such a run can still be
	// checkpointed, but resuming it needs the same Maker.
	Env   EnvSpec
	Maker EnvMaker `json:"-"`
	// Team is the training configuration of both teams; its Kind is
	// ignored.
	Team Config
	// Iterations is the number of training iterations of each team.
	Iterations int
	// EvalEvery is the number of iterations between two deterministic
	// evaluations (default 1); EvalEpisodes the episodes of one (default
	// 32), played as one batch of the environment, so at most what its
	// arrays can hold (Check).
	EvalEvery, EvalEpisodes int
}

// WithDefaults returns s with every zero setting replaced by its default.
func (s RunSpec) WithDefaults() RunSpec { return s.withDefaults() }

func (s RunSpec) withDefaults() RunSpec {
	if s.Maker == nil {
		s.Env = s.Env.withDefaults()
	}
	s.Team = s.Team.withDefaults()
	s.Team.Kind = Heterogeneous // ignored: each team sets its own
	setInt(&s.EvalEvery, 1)
	setInt(&s.EvalEpisodes, 32)
	return s
}

// Check returns an error wrapping ErrConfig naming the first invalid
// setting of s. Without a Maker it checks the environment by building
// it (with one batch element), as training does, that it has the agent
// or difference rewards the team trains on, and that it can be built
// with the batches of Team.Envs and EvalEpisodes (the training's and the
// evaluations'). With a Maker it checks only that Env, which the run
// records, can be written as JSON (no NaN or infinite parameter).
func (s RunSpec) Check() error {
	if err := s.Team.Check(); err != nil {
		return err
	}
	if s.Iterations < 0 || s.EvalEvery < 0 || s.EvalEpisodes < 0 {
		return fmt.Errorf("learn: Iterations %d, EvalEvery %d, EvalEpisodes %d, want >= 0: %w",
			s.Iterations, s.EvalEvery, s.EvalEpisodes, ErrConfig)
	}
	if s.Maker == nil {
		env, err := s.Env.New(1)
		if err != nil {
			return err
		}
		if err := checkOwnRewards(s.Team, env); err != nil {
			return err
		}
		d := s.withDefaults()
		if err := checkBatch(env, d.Team.Envs, "Team.Envs"); err != nil {
			return err
		}
		return checkBatch(env, d.EvalEpisodes, "EvalEpisodes")
	}
	// The Maker builds the environment, but Env is still recorded in the
	// run's spec.json.
	if _, err := json.Marshal(s.Env); err != nil {
		return fmt.Errorf("learn: Env (%v; unused with a Maker, but recorded in spec.json): %v: %w", s.Env, err, ErrConfig)
	}
	return nil
}

// CheckEpisodes returns an error wrapping ErrConfig if the environment of
// s cannot play episodes episodes in one batch, as Pair.EvaluateWith and
// Team.Profile play them: if episodes is below 1 or the batch would
// exceed simulate.MaxEnvValues. With a Maker it checks only the first.
// Call it before a long run whose end evaluates on that many episodes.
func (s RunSpec) CheckEpisodes(episodes int) error {
	if episodes < 1 {
		return fmt.Errorf("learn: %d episodes, want >= 1: %w", episodes, ErrConfig)
	}
	if s.Maker != nil {
		return nil
	}
	env, err := s.Env.New(1)
	if err != nil {
		return err
	}
	return checkBatch(env, episodes, "episodes")
}

// checkBatch returns an error wrapping ErrConfig, naming the setting
// field, if an environment of package simulate configured as env would
// refuse a batch of batch episodes: if its B·N·ObsDim observations or
// B·N·M efforts exceed simulate.MaxEnvValues. These are the arrays the
// matrix game, Multi-goal-capture and Tag check (their actions are
// narrower than their observations), so it decides without building
// the batch.
func checkBatch(env simulate.Env, batch int, field string) error {
	perEpisode := max(1, env.Agents()*max(env.ObsDim(), env.Tasks()))
	if batch > simulate.MaxEnvValues/perEpisode {
		return fmt.Errorf("learn: %s = %d: %s would keep %d·%d·%d values, more than simulate.MaxEnvValues = %d (want at most %d): %w",
			field, batch, env.Name(), batch, env.Agents(), max(env.ObsDim(), env.Tasks()), simulate.MaxEnvValues,
			simulate.MaxEnvValues/perEpisode, ErrConfig)
	}
	return nil
}

func (s RunSpec) maker() EnvMaker {
	if s.Maker != nil {
		return s.Maker
	}
	return s.Env.New
}

// PairStats is one row of a paired run's log.
type PairStats struct {
	// Iteration is the number of iterations each team has done.
	Iteration int
	// Frames is the number of frames each team has collected.
	Frames int64
	// HetReturn and HomReturn are the teams' mean training returns of the
	// iteration (stochastic actions); Gain is their difference.
	HetReturn, HomReturn, Gain float64
	// HetEval and HomEval are the mean returns of the deterministic
	// policies on the same evaluation episodes, and EvalGain their
	// difference; NaN at iterations without evaluation.
	HetEval, HomEval, EvalGain float64
	// HetDiversity and HomDiversity are the Diversity of the teams'
	// efforts in those episodes (simulate.EffortProfile): how far apart
	// the agents' effort rows are step by step, 0 for agents that behave
	// alike. NaN at iterations without evaluation, and in logs written
	// before hetgain recorded it.
	HetDiversity, HomDiversity float64
	// Seconds is the wall time of the iteration and FPS the frames of
	// both teams per second, updates included (not deterministic).
	Seconds, FPS float64
	// HetUpdate and HomUpdate describe the teams' PPO updates of the
	// iteration (entropy, approximate KL divergence, clip fraction and
	// value loss). They are NaN at iterations that do not train the
	// agents (HetGPS's environment iterations) and in logs written before
	// hetgain recorded them.
	HetUpdate, HomUpdate UpdateStats
}

// Pair is a heterogeneous and a homogeneous team in the same environment,
// trained in step: both teams do each iteration concurrently, from the same
// spawn seeds.
type Pair struct {
	spec     RunSpec
	het, hom *Team
}

// NewPair builds both teams of spec from its seed.
func NewPair(spec RunSpec) (*Pair, error) {
	if err := spec.Check(); err != nil {
		return nil, err
	}
	spec = spec.withDefaults()
	p := &Pair{spec: spec}
	var err error
	for _, k := range []TeamKind{Heterogeneous, Homogeneous} {
		cfg := spec.Team
		cfg.Kind = k
		t, e := NewTeam(spec.maker(), cfg)
		if e != nil {
			err = e
			break
		}
		if k == Heterogeneous {
			p.het = t
		} else {
			p.hom = t
		}
	}
	return p, err
}

// Het returns the heterogeneous team.
func (p *Pair) Het() *Team { return p.het }

// Hom returns the homogeneous team.
func (p *Pair) Hom() *Team { return p.hom }

// Spec returns the run's specification with defaults filled in.
func (p *Pair) Spec() RunSpec { return p.spec }

// Iterate runs one training iteration of both teams concurrently, then,
// every EvalEvery iterations, evaluates both on the same episodes.
func (p *Pair) Iterate() (PairStats, error) {
	start := time.Now()
	var st [2]IterStats
	var errs [2]error
	var wg sync.WaitGroup
	for k, t := range []*Team{p.het, p.hom} {
		wg.Add(1)
		go func(k int, t *Team) {
			defer wg.Done()
			st[k], errs[k] = t.Iterate()
		}(k, t)
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return PairStats{}, err
		}
	}
	row := PairStats{Iteration: st[0].Iteration, Frames: st[0].Frames,
		HetReturn: st[0].Return, HomReturn: st[1].Return, Gain: st[0].Return - st[1].Return,
		HetUpdate: st[0].UpdateStats, HomUpdate: st[1].UpdateStats}
	row.clearEval()
	if row.Iteration%p.spec.EvalEvery == 0 || row.Iteration == p.spec.Iterations {
		if err := p.setEval(&row, p.evalSeed(row.Iteration)); err != nil {
			return row, err
		}
	}
	row.Seconds = time.Since(start).Seconds()
	row.FPS = float64(2*p.het.buf.frames) / row.Seconds
	return row, nil
}

// evalSeed is the seed of the evaluation after iteration iter.
func (p *Pair) evalSeed(iter int) int64 {
	r := newRNG(p.spec.Team.Seed, streamEval, uint64(iter))
	return int64(r.next() >> 1)
}

// Evaluate plays EvalEpisodes episodes from seed with each team's
// deterministic policy and returns both mean returns.
func (p *Pair) Evaluate(seed int64) (het, hom float64, err error) {
	if het, err = p.het.Evaluate(p.spec.EvalEpisodes, seed); err != nil {
		return
	}
	hom, err = p.hom.Evaluate(p.spec.EvalEpisodes, seed)
	return
}

// setEval evaluates both teams as Evaluate does and fills row's
// evaluation columns: returns, gain and diversities.
func (p *Pair) setEval(row *PairStats, seed int64) error {
	het, err := p.het.evaluate(p.spec.EvalEpisodes, seed)
	if err != nil {
		return err
	}
	hom, err := p.hom.evaluate(p.spec.EvalEpisodes, seed)
	if err != nil {
		return err
	}
	row.HetEval, row.HomEval, row.EvalGain = het.Return, hom.Return, het.Return-hom.Return
	row.HetDiversity, row.HomDiversity = het.Diversity, hom.Diversity
	return nil
}

// clearEval sets the evaluation columns of s to NaN: not evaluated.
func (s *PairStats) clearEval() {
	nan := math.NaN()
	s.HetEval, s.HomEval, s.EvalGain, s.HetDiversity, s.HomDiversity = nan, nan, nan, nan, nan
}

// EvaluateWith sets params in both teams' environments (SetEnvParams),
// then plays episodes episodes from seed with each team's deterministic
// policy and returns both mean returns: a pair's final policies scored
// under other parameters, such as Tag without its shaping.
func (p *Pair) EvaluateWith(params simulate.Params, episodes int, seed int64) (het, hom float64, err error) {
	if err = p.SetEnvParams(params); err != nil {
		return
	}
	if het, err = p.het.Evaluate(episodes, seed); err != nil {
		return
	}
	hom, err = p.hom.Evaluate(episodes, seed)
	return
}

// SetEnvParams sets environment parameters in both teams' environments.
func (p *Pair) SetEnvParams(params simulate.Params) error {
	if err := p.het.SetEnvParams(params); err != nil {
		return err
	}
	return p.hom.SetEnvParams(params)
}
