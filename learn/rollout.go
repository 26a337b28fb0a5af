package learn

import (
	"fmt"
	"math"
	"sync"

	"github.com/hetgain/hetgain/aggregators"
	"github.com/hetgain/hetgain/simulate"
)

// buffer holds one iteration's rollouts of every worker, frame by frame.
// A frame f is one step of one batch element; frames are numbered worker
// by worker, then episode, step and batch element. Rows of per-agent data
// are f*N + i.
type buffer struct {
	frames   int       // F
	perWork  int       // frames per worker
	episodes int       // episodes per worker and iteration
	length   int       // steps per episode
	actorIn  []float64 // [F][N][inDim]
	criticIn []float64 // [F][cInDim] (centralised) or nil (per agent: actorIn)
	raw      []float64 // [F][N][rawW]: pre-squash Gaussian values, or the chosen index
	logp     []float64 // [F][N]
	reward   []float64 // [F][rewardWidth]: team rewards, or each agent's own
	value    []float64 // [F][vRows]
	adv      []float64 // [F][vRows]
	target   []float64 // [F][vRows]
	epReturn []float64 // undiscounted return of every episode of the iteration
}

// ownRewards reports whether each agent trains on a reward of its own
// (agent or difference rewards) rather than on the team reward.
func (t *Team) ownRewards() bool {
	return t.cfg.AgentRewards || t.cfg.DifferenceRewards
}

// vRows is the number of value estimates per frame: 1 for a centralised
// critic of the team reward, N for per-agent critics or own rewards.
func (t *Team) vRows() int {
	if t.cfg.Critic == PerAgent || t.ownRewards() {
		return t.n
	}
	return 1
}

// rewardWidth is the number of rewards stored per frame: N with own
// rewards, else 1 (the team's).
func (t *Team) rewardWidth() int {
	if t.ownRewards() {
		return t.n
	}
	return 1
}

// criticOutputs is the output width of each critic network: one value
// per agent for a centralised critic of agent rewards, else 1.
func (t *Team) criticOutputs() int {
	if t.cfg.Critic == Centralised {
		return t.vRows()
	}
	return 1
}

func (t *Team) rawW() int {
	if t.space.Discrete {
		return 1
	}
	return t.outDim
}

func newBuffer(t *Team) buffer {
	length := t.workers[0].env.EpisodeLength()
	W := t.cfg.Workers
	F := t.cfg.FramesPerIteration(length)
	episodes := F / (W * t.cfg.Envs * length)
	b := buffer{frames: F, perWork: F / W, episodes: episodes, length: length}
	b.actorIn = make([]float64, F*t.n*t.inDim)
	if t.cfg.Critic == Centralised {
		b.criticIn = make([]float64, F*t.cInDim)
	}
	b.raw = make([]float64, F*t.n*t.rawW())
	b.logp = make([]float64, F*t.n)
	b.reward = make([]float64, F*t.rewardWidth())
	vr := t.vRows()
	b.value = make([]float64, F*vr)
	b.adv = make([]float64, F*vr)
	b.target = make([]float64, F*vr)
	b.epReturn = make([]float64, W*episodes*t.cfg.Envs)
	return b
}

// worker collects rollouts in its own environment.
type worker struct {
	t      *Team
	index  int
	env    simulate.Env
	works  []*mlpWork // one per actor
	in     []float64  // gathered inputs of one actor
	action []float64  // [B][N][width]
}

func newWorker(t *Team, env simulate.Env) *worker {
	return &worker{t: t, index: len(t.workers), env: env}
}

// collect runs every worker's episodes of the current iteration in
// parallel and returns the first error.
func (t *Team) collect() error {
	errs := make([]error, len(t.workers))
	var wg sync.WaitGroup
	for w := range t.workers {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			errs[w] = t.workers[w].run()
		}(w)
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// run plays the worker's episodes of the iteration into the buffer.
func (w *worker) run() error {
	t := w.t
	if w.works == nil {
		w.works = make([]*mlpWork, len(t.actors))
		for a := range w.works {
			w.works[a] = &mlpWork{}
		}
		w.action = make([]float64, t.cfg.Envs*t.n*t.space.Width())
	}
	r := newRNG(t.cfg.Seed, streamAction, uint64(t.iter), uint64(w.index))
	for e := 0; e < t.buf.episodes; e++ {
		seed := spawnSeed(t.cfg.Seed, t.iter, w.index, e)
		if err := w.env.Reset(seed); err != nil {
			return err
		}
		first := w.index*t.buf.perWork + e*t.buf.length*t.cfg.Envs
		if err := w.episode(first, &r); err != nil {
			return err
		}
	}
	return nil
}

// spawnSeed is the environment seed of episode e of worker w at iteration
// iter: the same for both teams of a pair, so they meet the same spawns.
func spawnSeed(seed int64, iter, w, e int) int64 {
	r := newRNG(seed, streamSpawn, uint64(iter), uint64(w), uint64(e))
	return int64(r.next() >> 1)
}

// episode plays one episode whose first frame is first.
func (w *worker) episode(first int, r *rng) error {
	t, b := w.t, &w.t.buf
	B := t.cfg.Envs
	ret := b.epReturn[(first/(B*b.length))*B:][:B]
	for k := range ret {
		ret[k] = 0
	}
	for step := 0; step < b.length; step++ {
		f0 := first + step*B
		if err := w.observe(f0); err != nil {
			return err
		}
		w.act(f0, r)
		if err := w.env.Step(w.action); err != nil {
			return err
		}
		rew := w.env.Reward()
		if len(rew) != B {
			return fmt.Errorf("learn: environment %s returned %d rewards, want %d (one per batch element): %w", w.env.Name(), len(rew), B, ErrConfig)
		}
		for k := 0; k < B; k++ {
			if !(math.Abs(rew[k]) <= maxReward) {
				return fmt.Errorf("learn: environment %s returned reward %v (batch element %d), want finite and at most %g in magnitude: %w",
					w.env.Name(), rew[k], k, maxReward, ErrDiverged)
			}
			ret[k] += rew[k]
		}
		if t.ownRewards() {
			if err := w.storeAgentRewards(f0); err != nil {
				return err
			}
			continue
		}
		copy(b.reward[f0:f0+B], rew)
	}
	return nil
}

// storeAgentRewards writes the agents' own rewards (or, with
// DifferenceRewards, their difference rewards) of the last step into the
// rewards of frames f0..f0+B-1.
func (w *worker) storeAgentRewards(f0 int) error {
	t := w.t
	var rew []float64
	if t.cfg.DifferenceRewards {
		rew = w.env.(simulate.DifferenceRewarder).DifferenceRewards()
	} else {
		rew = w.env.(simulate.AgentRewarder).AgentRewards()
	}
	if len(rew) != t.cfg.Envs*t.n {
		return fmt.Errorf("learn: environment %s returned %d agent rewards, want %d (%d batch elements of %d agents): %w",
			w.env.Name(), len(rew), t.cfg.Envs*t.n, t.cfg.Envs, t.n, ErrConfig)
	}
	for k, v := range rew {
		if !(math.Abs(v) <= maxReward) {
			return fmt.Errorf("learn: environment %s returned reward %v for agent %d, want finite and at most %g in magnitude: %w",
				w.env.Name(), v, k%t.n, maxReward, ErrDiverged)
		}
	}
	copy(t.buf.reward[f0*t.n:(f0+t.cfg.Envs)*t.n], rew)
	return nil
}

// maxReward is the largest reward magnitude a team trains on
// (aggregators.MaxInput): the returns of longer episodes, their squared
// errors and Adam's moments stay finite below it.
const maxReward = aggregators.MaxInput

// observe writes the actor and critic inputs of frames f0..f0+B-1, or
// returns an error if the environment's observations are not B·N·ObsDim
// values (ErrConfig) or not finite (ErrDiverged).
func (w *worker) observe(f0 int) error {
	t, b := w.t, &w.t.buf
	obs := w.env.Obs()
	od := t.obsDim
	if want := t.cfg.Envs * t.n * od; len(obs) != want {
		return fmt.Errorf("learn: environment %s returned %d observation values, want %d (%d batch elements of %d agents of %d): %w",
			w.env.Name(), len(obs), want, t.cfg.Envs, t.n, od, ErrConfig)
	}
	for k, v := range obs {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("learn: environment %s returned observation %v (batch element %d, agent %d): %w",
				w.env.Name(), v, k/(t.n*od), k/od%t.n, ErrDiverged)
		}
	}
	for k := 0; k < t.cfg.Envs; k++ {
		f := f0 + k
		for i := 0; i < t.n; i++ {
			row := f*t.n + i
			t.actorInput(b.actorIn[row*t.inDim:(row+1)*t.inDim], obs[(k*t.n+i)*od:(k*t.n+i+1)*od], i)
		}
		if b.criticIn != nil {
			copy(b.criticIn[f*t.cInDim:(f+1)*t.cInDim], obs[k*t.n*od:(k+1)*t.n*od])
		}
	}
	return nil
}

// act samples the actions of frames f0..f0+B-1 from the actors.
func (w *worker) act(f0 int, r *rng) {
	t, b := w.t, &w.t.buf
	B := t.cfg.Envs
	for a := range t.actors {
		agents := t.agentsOf(a)
		rows := B * len(agents)
		w.in = gatherRows(w.in, b.actorIn, t.inDim, rows, func(q int) int { return (f0+q/len(agents))*t.n + agents[q%len(agents)] })
		out := t.actors[a].forward(w.works[a], w.in, rows)
		for q := 0; q < rows; q++ {
			k, i := q/len(agents), agents[q%len(agents)]
			row := (f0+k)*t.n + i
			w.sample(a, out[q*t.outDim:(q+1)*t.outDim], b.raw[row*t.rawW():(row+1)*t.rawW()], &b.logp[row],
				w.action[(k*t.n+i)*t.space.Width():(k*t.n+i+1)*t.space.Width()], r)
		}
	}
}

// agentsOf lists the agents that actor a plays.
func (t *Team) agentsOf(a int) []int {
	if len(t.actors) > 1 {
		return []int{a}
	}
	all := make([]int, t.n)
	for i := range all {
		all[i] = i
	}
	return all
}

// gatherRows copies rows of src (width w) into dst: row q of dst is row
// index(q) of src.
func gatherRows(dst, src []float64, w, rows int, index func(q int) int) []float64 {
	if cap(dst) < rows*w {
		dst = make([]float64, rows*w)
	}
	dst = dst[:rows*w]
	for q := 0; q < rows; q++ {
		s := index(q)
		copy(dst[q*w:(q+1)*w], src[s*w:(s+1)*w])
	}
	return dst
}

// sample draws one action from actor a's output: a tanh-squashed Gaussian
// (raw holds the pre-squash values) or a categorical choice (raw holds the
// index). It writes the log-probability of raw and the environment action.
func (w *worker) sample(a int, out, raw []float64, logp *float64, action []float64, r *rng) {
	t := w.t
	if t.space.Discrete {
		c := sampleCategorical(out, r.float64())
		raw[0], action[0] = float64(c), float64(c)
		*logp = categoricalLogProb(out, c)
		return
	}
	ls := t.logStd[a]
	lp := 0.0
	for c := range out {
		s := clampLogStd(ls[c])
		u := out[c] + math.Exp(s)*r.normal()
		raw[c] = u
		action[c] = t.squash(c, u)
		lp += gaussLogProb(u, out[c], s)
	}
	*logp = lp
}
