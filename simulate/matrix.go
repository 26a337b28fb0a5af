package simulate

import (
	"fmt"

	"github.com/hetgain/hetgain/aggregators"
)

// MatrixGame is the one-step multi-agent multi-task matrix game of the
// paper: each of N agents allocates effort over M tasks and the team gets
// R(A) = U(T_1(a_1), ..., T_M(a_M)). Agents observe a constant 0
// (ObsDim 1); an episode is one step.
//
// Continuous game: each agent outputs u in [-(M-1)/2, (M-1)/2]^M (values
// outside are clamped into the box) and its efforts are
// r_j = (u_j + (M-1)/2) / sum_k (u_k + (M-1)/2), a shift to [0, M-1] and
// an L1 normalisation onto the simplex. A row whose shifted values are all
// zero (u at the lower corner of the box, or M = 1) gets the uniform row
// r_j = 1/M.
//
// Discrete game: each agent picks one task index j in [0, M); r_ij = 1 for
// the chosen task and 0 elsewhere.
//
// The game is a DifferenceRewarder: agent i's difference reward is
// R(A) - R(A_{-i}), A_{-i} the efforts with its row set to zero.
//
// Parameters: "U.t" and "T.t" (or "T0.t", "T1.t", ... for per-task inner
// operators) for the parametric operators of the reward. The Budget of
// the reward is not used: every effort row sums to 1.
type MatrixGame struct {
	batch, n, m int
	discrete    bool
	base        int // index of the first batch element, for the noise and spawn streams
	reward      aggregators.Reward
	fn          rewardFn
	obs         []float64
	rew, rewTmp []float64
	eff, effTmp []float64
	done        []bool
	started     bool

	diff differenceRewards
}

// NewMatrixGame returns the matrix game with batch elements, agents agents
// and tasks tasks, continuous or discrete, with team reward r (copied: later
// changes to r do not affect the game; use SetParams). It returns an error
// wrapping ErrConfig if a size is below 1, if B·N·M exceeds MaxEnvValues,
// or if N·M·M does (the reward is tried with every agent on each task in
// turn, N·M·M work, here and in SetParams), or if r is invalid.
func NewMatrixGame(batch, agents, tasks int, discrete bool, r *aggregators.Reward) (*MatrixGame, error) {
	if batch < 1 || agents < 1 || tasks < 1 {
		return nil, fmt.Errorf("simulate: matrix game with batch %d, %d agents, %d tasks (need all >= 1): %w",
			batch, agents, tasks, ErrConfig)
	}
	if err := checkEnvValues("matrix game", "B·N·M", batch, agents, tasks); err != nil {
		return nil, err
	}
	if err := checkEnvValues("matrix game", "N·M·M (trying the reward on every task)", agents, tasks, tasks); err != nil {
		return nil, err
	}
	rc, err := copyReward(r, tasks)
	if err != nil {
		return nil, err
	}
	if err := probeReward(rc, agents, tasks, ErrConfig); err != nil {
		return nil, fmt.Errorf("simulate: matrix game: %w", err)
	}
	g := &MatrixGame{batch: batch, n: agents, m: tasks, discrete: discrete, reward: rc}
	g.fn = newRewardFn(&g.reward, agents, tasks)
	g.obs = make([]float64, batch*agents)
	g.rew, g.rewTmp = make([]float64, batch), make([]float64, batch)
	g.eff, g.effTmp = make([]float64, batch*agents*tasks), make([]float64, batch*agents*tasks)
	g.done = make([]bool, batch)
	g.diff = newDifferenceRewards(batch, agents, tasks)
	return g, nil
}

// Name returns "matrix" or "matrix-discrete".
func (g *MatrixGame) Name() string {
	if g.discrete {
		return "matrix-discrete"
	}
	return "matrix"
}

// Batch returns B.
func (g *MatrixGame) Batch() int { return g.batch }

// Agents returns N.
func (g *MatrixGame) Agents() int { return g.n }

// Tasks returns M.
func (g *MatrixGame) Tasks() int { return g.m }

// ObsDim returns 1: every agent observes a constant 0.
func (g *MatrixGame) ObsDim() int { return 1 }

// EpisodeLength returns 1.
func (g *MatrixGame) EpisodeLength() int { return 1 }

// Discrete reports whether agents pick one task each.
func (g *MatrixGame) Discrete() bool { return g.discrete }

// ActionSpace returns Discrete(M), or the box [-(M-1)/2, (M-1)/2]^M.
func (g *MatrixGame) ActionSpace() Space {
	if g.discrete {
		return Space{Discrete: true, Choices: g.m}
	}
	h := float64(g.m-1) / 2
	s := Space{Dim: g.m, Low: make([]float64, g.m), High: make([]float64, g.m)}
	for j := range s.Low {
		s.Low[j], s.High[j] = -h, h
	}
	return s
}

// TeamReward returns a copy of the current reward R (with the current
// parameters), for evaluating it on Effort() through package aggregators.
// Its Budget is 1, the row sum of every effort matrix of the game,
// whatever Budget the reward given to NewMatrixGame had.
func (g *MatrixGame) TeamReward() *aggregators.Reward {
	return effortReward(&g.reward, 1)
}

// Params returns the reward parameters.
func (g *MatrixGame) Params() Params {
	names := rewardParamNames(&g.reward)
	p := Params{Names: names, Values: make([]float64, len(names))}
	for k, n := range names {
		op, _, _ := rewardOperator(&g.reward, n)
		p.Values[k] = op.Param()
	}
	return p
}

// SetParams sets the named reward parameters (all or nothing).
func (g *MatrixGame) SetParams(p Params) error {
	if err := checkParamList(g.Name(), p); err != nil {
		return err
	}
	r := g.reward
	for k, n := range p.Names {
		var err error
		if r, err = withRewardParam(r, n, p.Values[k]); err != nil {
			return fmt.Errorf("simulate: %s: %w", g.Name(), err)
		}
	}
	if err := probeReward(r, g.n, g.m, ErrParam); err != nil {
		return fmt.Errorf("simulate: %s: %v: %w", g.Name(), p, err)
	}
	g.reward = r
	g.fn = newRewardFn(&g.reward, g.n, g.m)
	return nil
}

// Reset starts a new episode; the matrix game has no random state.
func (g *MatrixGame) Reset(seed int64) error {
	for b := range g.done {
		g.done[b] = false
		g.rew[b] = 0
	}
	for k := range g.eff {
		g.eff[k] = 0
	}
	g.diff.reset()
	g.started = true
	return nil
}

func (g *MatrixGame) elementBase() int { return g.base }

// Step plays the flat [B][N][ActDim] actions and ends the episode.
func (g *MatrixGame) Step(actions []float64) error {
	if !g.started {
		return fmt.Errorf("simulate: %s: Step before Reset: %w", g.Name(), ErrNotReset)
	}
	if g.done[0] {
		return fmt.Errorf("simulate: %s: Step after the end of the episode: %w", g.Name(), ErrDone)
	}
	n, m := g.n, g.m
	eff := g.effTmp
	if len(actions) != g.batch*n*g.ActionSpace().Width() {
		return checkActions(g.Name(), g.ActionSpace(), g.batch, g.n, actions)
	}
	if g.discrete {
		for k := range eff {
			eff[k] = 0
		}
		fm := float64(m)
		for k, a := range actions {
			if !(a >= 0 && a < fm) || a != float64(int(a)) {
				return checkActions(g.Name(), g.ActionSpace(), g.batch, g.n, actions)
			}
			eff[k*m+int(a)] = 1
		}
	} else {
		// matrixEffortRow, inlined by hand for speed.
		h := float64(m-1) / 2
		bad := false
		uniform := 1 / float64(m)
		for k := 0; k < g.batch*n; k++ {
			u, r := actions[k*m:(k+1)*m], eff[k*m:(k+1)*m]
			r = r[:len(u)]
			s := 0.0
			for j, v := range u {
				if v-v != 0 {
					bad = true
				}
				v = max(-h, min(v, h)) + h
				r[j] = v
				s += v
			}
			if s > 0 {
				inv := 1 / s
				for j := range r {
					r[j] *= inv
				}
			} else {
				for j := range r {
					r[j] = uniform
				}
			}
		}
		if bad {
			return checkActions(g.Name(), g.ActionSpace(), g.batch, g.n, actions)
		}
	}
	nm := n * m
	for b := 0; b < g.batch; b++ {
		r, err := g.fn.value(eff[b*nm : (b+1)*nm])
		if err != nil {
			return fmt.Errorf("simulate: %s: batch %d: %w", g.Name(), b, err)
		}
		g.rewTmp[b] = r
	}
	g.eff, g.effTmp = g.effTmp, g.eff
	g.rew, g.rewTmp = g.rewTmp, g.rew
	g.diff.invalidate()
	for b := range g.done {
		g.done[b] = true
	}
	return nil
}

// DifferenceRewards returns the flat [B][N] difference rewards of the last
// step (zeros after Reset): agent i's is R(A) - R(A_{-i}), A_{-i} the
// efforts with agent i's row set to zero. They are computed at the first
// call after a Step (N evaluations of the reward per batch element, with
// the reward's parameters at that call), so training on the team reward
// alone does not pay for them. A reward that
// cannot be evaluated without an agent gives NaN, which learners report.
func (g *MatrixGame) DifferenceRewards() []float64 {
	return g.diff.values(&g.fn, g.eff, 1, func(b, _ int) float64 { return g.rew[b] })
}

// matrixEffortRow maps one continuous action u to its effort row r and
// reports whether u holds a NaN or infinite value.
func matrixEffortRow(u, r []float64, h float64) (bad bool) {
	s := 0.0
	for j, v := range u {
		if v-v != 0 {
			bad = true
		}
		v = max(-h, min(v, h)) + h // NaN stays NaN
		r[j] = v
		s += v
	}
	if s > 0 {
		inv := 1 / s
		for j := range r {
			r[j] *= inv
		}
		return bad
	}
	for j := range r {
		r[j] = 1 / float64(len(r))
	}
	return bad
}

// Obs returns the flat [B][N][1] observations, all 0.
func (g *MatrixGame) Obs() []float64 { return g.obs }

// Reward returns the [B] team rewards of the last step.
func (g *MatrixGame) Reward() []float64 { return g.rew }

// Effort returns the flat [B][N][M] effort matrices of the last step.
func (g *MatrixGame) Effort() []float64 { return g.eff }

// Done reports, per batch element, whether the episode has been played.
func (g *MatrixGame) Done() []bool { return g.done }

// ReturnGradient resets the game, plays its one step with pol (noise as in
// Rollout) and returns the reward of each batch element and its derivatives
// with respect to the named parameters, [B][K]. Efforts depend on θ only
// through the policy, whose observation is constant, so the derivative
// flows through the aggregator parameters; the clamp into the action box
// passes derivatives on the closed box and blocks them outside, and the
// all-zero row guard has derivative 0. In the discrete game efforts are
// piecewise constant (derivative 0). Afterwards the game is in the state
// that Rollout leaves.
func (g *MatrixGame) ReturnGradient(pol Policy, seed int64, params []string) ([]float64, [][]float64, error) {
	if err := selectParams(g.Name(), g.Params(), params); err != nil {
		return nil, nil, err
	}
	if err := validatePolicy(pol, g); err != nil {
		return nil, nil, err
	}
	if err := g.Reset(seed); err != nil {
		return nil, nil, err
	}
	n, m, K := g.n, g.m, len(params)
	w := g.ActionSpace().Width()
	slotU, slotT := rewardSlots(&g.reward, m, params)
	obs, dObs := []float64{0}, make([]float64, K)
	act, dAct := make([]float64, w), make([]float64, K*w)
	z := make([]float64, w)
	eff, dEff := make([]float64, n*m), make([]float64, n*m*K)
	ret := make([]float64, g.batch)
	grad := make([][]float64, g.batch)
	h := float64(m-1) / 2
	space := g.ActionSpace()
	for b := 0; b < g.batch; b++ {
		noise := newRNG(seed, g.base+b, streamNoise)
		for i := 0; i < n; i++ {
			for c := range z {
				z[c] = noise.normal()
			}
			pol.ActTangent(i, obs, dObs, z, act, dAct)
			if err := checkAgentAction(g.Name(), space, b, i, act); err != nil {
				return nil, nil, err
			}
			row, dRow := eff[i*m:(i+1)*m], dEff[i*m*K:(i+1)*m*K]
			for k := range dRow {
				dRow[k] = 0
			}
			if g.discrete {
				for j := range row {
					row[j] = 0
				}
				row[int(act[0])] = 1
				continue
			}
			matrixEffortRow(act, row, h)
			s := 0.0
			for _, v := range act {
				s += clampBox(v, h) + h
			}
			if !(s > 0) {
				continue
			}
			// dr_j = (dv_j - r_j ds)/s with dv_j = du_j inside the box.
			for k := 0; k < K; k++ {
				ds := 0.0
				for j, v := range act {
					if v >= -h && v <= h {
						ds += dAct[k*w+j]
					}
				}
				for j, v := range act {
					dv := 0.0
					if v >= -h && v <= h {
						dv = dAct[k*w+j]
					}
					dRow[j*K+k] = (dv - row[j]*ds) / s
				}
			}
		}
		grad[b] = make([]float64, K)
		r, err := g.fn.tangent(eff, dEff, slotU, slotT, grad[b])
		if err != nil {
			return nil, nil, fmt.Errorf("simulate: %s: batch %d: %w", g.Name(), b, err)
		}
		if err := checkFiniteReturn(g.Name(), b, r, grad[b]); err != nil {
			return nil, nil, err
		}
		ret[b] = r
		g.rew[b] = r
		copy(g.eff[b*n*m:(b+1)*n*m], eff)
		g.done[b] = true
	}
	g.diff.invalidate()
	return ret, grad, nil
}

func clampBox(v, h float64) float64 {
	if v < -h {
		return -h
	}
	if v > h {
		return h
	}
	return v
}
