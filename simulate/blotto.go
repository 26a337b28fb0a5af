package simulate

import (
	"fmt"
	"strconv"

	"github.com/hetgain/hetgain/aggregators"
)

// Blotto is Team Colonel Blotto against a fixed stochastic adversary, as
// the paper's appendix "Colonel Blotto & Level-Based Foraging" frames it:
// N colonels each split one unit of troops over M battlefields, and at
// every step the adversary sends a_j troops to battlefield j, drawn from
// the discrete distribution of Fields[j] (a_j = Troops[k] with probability
// Probs[k]), independently across battlefields, steps and batch elements.
// The team reward of a step is
//
//	R = sum_j V_j 1[s_j > a_j],  s_j = sum_i r_ij,
//
// with the sampled a, so that its expected value is
// sum_j BlottoField.Value(a_j), the reward of TeamReward (U = sum,
// T_j = aggregators.BlottoField). The column sums s_j are added in
// ascending order, as BlottoField adds them, so that a tie s_j = a_j is
// decided as there.
//
// Actions are continuous, mapped to the simplex as in the continuous
// MatrixGame: each colonel outputs u in [-(M-1)/2, (M-1)/2]^M (values
// outside are clamped into the box) and its troops are
// r_j = (u_j + (M-1)/2) / sum_k (u_k + (M-1)/2); a row whose shifted
// values are all zero (u at the lower corner of the box, or M = 1) gets the
// uniform row r_j = 1/M. The effort matrix of a step is the allocation r.
//
// Every colonel observes the battlefield values V_0, ..., V_{M-1}
// (ObsDim M). An episode has a fixed number of steps (1 for the one-shot
// game). Parameters: "V[0]", ..., "V[M-1]", the battlefield values (in
// [0, MaxPhysical]); setting them changes the reward from the next step on.
//
// Blotto is a DifferentiableEnv: the reward is a step function of the
// efforts, so the derivative of the return with respect to V_j is the
// number of steps on which battlefield j was won (almost everywhere).
type Blotto struct {
	batch, n, m, steps int
	fields             []aggregators.BlottoField
	cum                [][]float64 // cumulative probabilities of each field
	lastPos            []int       // last troop index of positive probability
	names              []string
	adv                []streamRand
	t                  int
	started            bool
	obs, rew, eff      []float64
	troops             []float64 // [B][M] troops of the last step
	won                []bool    // [B][M] battlefields won at the last step
	wins               []float64 // [B][M] battlefields won in this episode
	done               []bool
	col                []float64
}

// streamBlottoAdversary tags the adversary's random stream.
const streamBlottoAdversary uint64 = 0xb1077

// NewBlotto returns Team Colonel Blotto with batch elements, agents
// colonels, episodes of steps steps and one battlefield per element of
// fields (copied). It returns an error wrapping ErrConfig if a size is
// below 1, steps exceeds MaxEpisodeLength, B·N·M exceeds MaxEnvValues, a
// battlefield is invalid (see aggregators.NewBlottoField) or its value V
// exceeds MaxPhysical.
func NewBlotto(batch, agents, steps int, fields []aggregators.BlottoField) (*Blotto, error) {
	if batch < 1 || agents < 1 || steps < 1 || len(fields) < 1 {
		return nil, fmt.Errorf("simulate: blotto with batch %d, %d colonels, %d steps, %d battlefields (need all >= 1): %w",
			batch, agents, steps, len(fields), ErrConfig)
	}
	if err := checkEpisodeLength("blotto", steps); err != nil {
		return nil, err
	}
	if err := checkEnvValues("blotto", "B·N·M", batch, agents, len(fields)); err != nil {
		return nil, err
	}
	m := len(fields)
	g := &Blotto{batch: batch, n: agents, m: m, steps: steps}
	g.fields = make([]aggregators.BlottoField, m)
	g.cum, g.lastPos, g.names = make([][]float64, m), make([]int, m), make([]string, m)
	for j, f := range fields {
		c := aggregators.BlottoField{V: f.V, Troops: append([]float64(nil), f.Troops...), Probs: append([]float64(nil), f.Probs...)}
		if len(c.Troops) == 0 {
			return nil, fmt.Errorf("simulate: blotto battlefield %d: the adversary has no troop counts: %w", j, ErrConfig)
		}
		if err := aggregators.Check(c, []float64{0}); err != nil {
			return nil, fmt.Errorf("simulate: blotto battlefield %d: %v: %w", j, err, ErrConfig)
		}
		if c.V > MaxPhysical {
			return nil, fmt.Errorf("simulate: blotto battlefield %d: value V = %v above MaxPhysical = %g: %w", j, c.V, MaxPhysical, ErrConfig)
		}
		c.Probs = c.NormalizedProbs() // the sampled and the expected rewards stay at most V
		g.fields[j] = c
		g.cum[j] = make([]float64, len(c.Probs))
		s := 0.0
		for k, p := range c.Probs {
			s += p
			g.cum[j][k] = s
			if p > 0 {
				g.lastPos[j] = k
			}
		}
		g.names[j] = "V[" + strconv.Itoa(j) + "]"
	}
	g.adv = make([]streamRand, batch)
	g.obs = make([]float64, batch*agents*m)
	g.rew = make([]float64, batch)
	g.eff = make([]float64, batch*agents*m)
	g.troops = make([]float64, batch*m)
	g.won = make([]bool, batch*m)
	g.wins = make([]float64, batch*m)
	g.done = make([]bool, batch)
	g.col = make([]float64, agents)
	g.fillObs()
	return g, nil
}

// Name returns "blotto".
func (g *Blotto) Name() string { return "blotto" }

// Batch returns B.
func (g *Blotto) Batch() int { return g.batch }

// Agents returns N, the number of colonels.
func (g *Blotto) Agents() int { return g.n }

// Tasks returns M, the number of battlefields.
func (g *Blotto) Tasks() int { return g.m }

// ObsDim returns M: every colonel observes the battlefield values.
func (g *Blotto) ObsDim() int { return g.m }

// EpisodeLength returns the number of steps of an episode.
func (g *Blotto) EpisodeLength() int { return g.steps }

// ActionSpace returns the box [-(M-1)/2, (M-1)/2]^M.
func (g *Blotto) ActionSpace() Space {
	h := float64(g.m-1) / 2
	s := Space{Dim: g.m, Low: make([]float64, g.m), High: make([]float64, g.m)}
	for j := range s.Low {
		s.Low[j], s.High[j] = -h, h
	}
	return s
}

// Fields returns a copy of the battlefields, with their current values.
func (g *Blotto) Fields() []aggregators.BlottoField {
	out := make([]aggregators.BlottoField, g.m)
	for j, f := range g.fields {
		out[j] = aggregators.BlottoField{V: f.V, Troops: append([]float64(nil), f.Troops...), Probs: append([]float64(nil), f.Probs...)}
	}
	return out
}

// TeamReward returns the expected reward of one step,
// sum_j BlottoField_j(a_j), with the current values, for evaluating it on
// Effort() through package aggregators.
func (g *Blotto) TeamReward() *aggregators.Reward {
	inner := make([]aggregators.Operator, g.m)
	for j, f := range g.Fields() {
		inner[j] = f
	}
	return aggregators.NewReward(aggregators.Sum{}, inner...)
}

// Params returns the battlefield values "V[0]", ..., "V[M-1]".
func (g *Blotto) Params() Params {
	p := Params{Names: append([]string(nil), g.names...), Values: make([]float64, g.m)}
	for j, f := range g.fields {
		p.Values[j] = f.V
	}
	return p
}

func (g *Blotto) paramIndex(name string) int {
	for j, n := range g.names {
		if n == name {
			return j
		}
	}
	return -1
}

// SetParams sets the named battlefield values (all or nothing). An unknown
// name, or a value that is NaN or outside [0, MaxPhysical], is an error
// wrapping ErrParam.
func (g *Blotto) SetParams(p Params) error {
	if err := checkParamList("blotto", p); err != nil {
		return err
	}
	for k, name := range p.Names {
		v := p.Values[k]
		if g.paramIndex(name) < 0 {
			return fmt.Errorf("simulate: blotto has no parameter %q (have %v): %w", name, g.names, ErrParam)
		}
		if !(v >= 0 && v <= MaxPhysical) {
			return fmt.Errorf("simulate: blotto: parameter %q = %v outside [0, %g]: %w", name, v, MaxPhysical, ErrParam)
		}
	}
	for k, name := range p.Names {
		g.fields[g.paramIndex(name)].V = p.Values[k]
	}
	g.fillObs()
	return nil
}

func (g *Blotto) fillObs() {
	for k := 0; k < g.batch*g.n; k++ {
		for j, f := range g.fields {
			g.obs[k*g.m+j] = f.V
		}
	}
}

// Reset starts a new episode in every batch element, seeding the
// adversary of element b from (seed, b) alone.
func (g *Blotto) Reset(seed int64) error {
	for b := range g.adv {
		g.adv[b] = newStreamRand(seed, b, streamBlottoAdversary)
		g.done[b] = false
		g.rew[b] = 0
	}
	clear(g.eff)
	clear(g.troops)
	clear(g.won)
	clear(g.wins)
	g.t, g.started = 0, true
	return nil
}

// Step plays the flat [B][N][M] actions: it maps them to allocations,
// draws the adversary's troops and scores every battlefield.
func (g *Blotto) Step(actions []float64) error {
	if !g.started {
		return fmt.Errorf("simulate: blotto: Step before Reset: %w", ErrNotReset)
	}
	if g.t >= g.steps {
		return fmt.Errorf("simulate: blotto: Step after the end of the episode (%d steps): %w", g.steps, ErrDone)
	}
	if err := checkActions(g.Name(), g.ActionSpace(), g.batch, g.n, actions); err != nil {
		return err
	}
	n, m := g.n, g.m
	h := float64(m-1) / 2
	for k := 0; k < g.batch*n; k++ {
		blottoEffortRow(actions[k*m:(k+1)*m], g.eff[k*m:(k+1)*m], h)
	}
	for b := 0; b < g.batch; b++ {
		eff := g.eff[b*n*m : (b+1)*n*m]
		r := 0.0
		for j := range g.fields {
			a := g.sample(b, j)
			for i := 0; i < n; i++ {
				g.col[i] = eff[i*m+j]
			}
			win := blottoColumnSum(g.col) > a
			g.troops[b*m+j], g.won[b*m+j] = a, win
			if win {
				r += g.fields[j].V
				g.wins[b*m+j]++
			}
		}
		g.rew[b] = r
	}
	g.t++
	if g.t == g.steps {
		for b := range g.done {
			g.done[b] = true
		}
	}
	return nil
}

// sample draws the adversary's troops on battlefield j of batch element b.
func (g *Blotto) sample(b, j int) float64 {
	u := g.adv[b].float64()
	cum := g.cum[j]
	for k, c := range cum {
		if u < c {
			return g.fields[j].Troops[k]
		}
	}
	return g.fields[j].Troops[g.lastPos[j]] // the probabilities sum to 1 up to rounding
}

// blottoEffortRow maps one continuous action u to its allocation r, as the
// continuous MatrixGame does: clamp into [-h, h], shift by h, L1-normalise;
// an all-zero shifted row gets the uniform row.
func blottoEffortRow(u, r []float64, h float64) {
	s := 0.0
	for j, v := range u {
		if v < -h {
			v = -h
		} else if v > h {
			v = h
		}
		v += h
		r[j] = v
		s += v
	}
	if s > 0 {
		for j := range r {
			r[j] /= s
		}
		return
	}
	for j := range r {
		r[j] = 1 / float64(len(r))
	}
}

// blottoColumnSum sorts x in place (insertion sort: x is a short column) and
// returns its sum in ascending order, as aggregators.BlottoField and
// LevelThreshold add a column, so that every order of the same efforts
// gives the same sum.
func blottoColumnSum(x []float64) float64 {
	for i := 1; i < len(x); i++ {
		v := x[i]
		k := i
		for k > 0 && x[k-1] > v {
			x[k] = x[k-1]
			k--
		}
		x[k] = v
	}
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s
}

// Obs returns the flat [B][N][M] observations: the battlefield values.
func (g *Blotto) Obs() []float64 { return g.obs }

// Reward returns the [B] team rewards of the last step.
func (g *Blotto) Reward() []float64 { return g.rew }

// Effort returns the flat [B][N][M] allocations of the last step.
func (g *Blotto) Effort() []float64 { return g.eff }

// Done reports, per batch element, whether the episode has ended.
func (g *Blotto) Done() []bool { return g.done }

// AdversaryTroops returns the flat [B][M] troops the adversary sent at the
// last step (zeros before the first step), owned by the environment.
func (g *Blotto) AdversaryTroops() []float64 { return g.troops }

// ReturnGradient resets the game with seed, plays one episode with pol
// through Rollout (so with Rollout's policy noise) and returns the return
// of each batch element and its derivatives with respect to the named
// battlefield values, [B][K]. The reward is piecewise constant in the
// efforts, so the derivative with respect to V_j is the number of steps on
// which battlefield j was won; it holds wherever no column sum s_j equals a
// troop count of the adversary (almost everywhere). Afterwards the game is
// in the state that Rollout leaves.
func (g *Blotto) ReturnGradient(pol Policy, seed int64, params []string) ([]float64, [][]float64, error) {
	idx := make([]int, len(params))
	for k, name := range params {
		idx[k] = g.paramIndex(name)
		if idx[k] < 0 {
			return nil, nil, fmt.Errorf("simulate: blotto has no parameter %q (have %v): %w", name, g.names, ErrParam)
		}
		for _, prev := range params[:k] {
			if prev == name {
				return nil, nil, fmt.Errorf("simulate: parameter %q selected twice: %w", name, ErrParam)
			}
		}
	}
	ret, err := Rollout(g, pol, seed, nil)
	if err != nil {
		return nil, nil, err
	}
	grad := make([][]float64, g.batch)
	for b := range grad {
		grad[b] = make([]float64, len(params))
		for k, j := range idx {
			grad[b][k] = g.wins[b*g.m+j]
		}
	}
	return ret, grad, nil
}

// streamRand is a splitmix64 generator owned by one batch element of one
// environment: no locks, no shared state. Its stream is determined by the
// episode seed, the batch element and a tag, so that batch elements are
// independent of one another and of the batch size.
type streamRand struct{ s uint64 }

func newStreamRand(seed int64, b int, tag uint64) streamRand {
	r := streamRand{s: splitmixMix(uint64(seed) ^ 0x243f6a8885a308d3)}
	r.s = splitmixMix(r.s + uint64(b)*0x9e3779b97f4a7c15)
	r.s = splitmixMix(r.s + tag*0xd1b54a32d192ed03)
	return r
}

func splitmixMix(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

func (r *streamRand) next() uint64 {
	r.s += 0x9e3779b97f4a7c15
	return splitmixMix(r.s)
}

// float64 returns a uniform value in [0, 1).
func (r *streamRand) float64() float64 { return float64(r.next()>>11) * (1.0 / (1 << 53)) }

// intn returns a uniform integer in [0, n), n >= 1 (bias below 2^-40 for
// n < 2^13, irrelevant for grid cells).
func (r *streamRand) intn(n int) int {
	k := int(r.float64() * float64(n))
	if k >= n {
		k = n - 1
	}
	return k
}

var _ DifferentiableEnv = (*Blotto)(nil)
