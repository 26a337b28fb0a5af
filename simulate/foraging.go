package simulate

import (
	"fmt"
	"math"
	"strconv"

	"github.com/hetgain/hetgain/aggregators"
)

// The actions of a Foraging agent, in the order of the level-based
// foraging benchmark: stay, move up (y+1), down (y−1), left (x−1), right
// (x+1), and load.
const (
	ForagingStay = iota
	ForagingUp
	ForagingDown
	ForagingLeft
	ForagingRight
	ForagingLoad
	// ForagingActions is the number of actions.
	ForagingActions
)

// DefaultForagingSteps is the episode length of Foraging when the
// configuration leaves it 0.
const DefaultForagingSteps = 50

// MaxForagingCells is the largest grid (Width·Height) Foraging accepts.
const MaxForagingCells = 1 << 20

// MaxForagingLevel is the largest item level, in the configuration and in
// SetParams (levels travel as float64 parameters and are kept as int; an
// item above N, the number of agents, can never be collected anyway).
const MaxForagingLevel = 1<<31 - 1

// ForagingConfig configures a Foraging environment.
type ForagingConfig struct {
	// Batch is B, the number of independent episodes run together.
	Batch int
	// Agents is N, the number of agents, all of skill 1.
	Agents int
	// Width and Height are the sizes of the grid; cells have integer
	// coordinates (x, y), 0 <= x < Width, 0 <= y < Height.
	Width, Height int
	// Levels holds the level L_j of each item, in [1, MaxForagingLevel];
	// M = len(Levels).
	Levels []int
	// EpisodeLength is the number of steps of an episode; 0 means
	// DefaultForagingSteps.
	EpisodeLength int
}

// Foraging is level-based foraging on a grid (the paper's appendix "Colonel
// Blotto & Level-Based Foraging", after the LBF benchmark of Papoudakis et
// al.): N agents of skill 1 and M items with integer levels L_j on a
// Width x Height grid.
//
// Actions are Discrete(6): ForagingStay, ForagingUp, ForagingDown,
// ForagingLeft, ForagingRight, ForagingLoad. A move off the grid leaves the
// agent where it is. Agents may share cells and may stand on items (this
// differs from LBF, where agents block one another and load from an
// adjacent cell): an agent contributes to an item by standing on the item's
// cell and choosing ForagingLoad, so that
//
//	r_ij = 1 if agent i loads item j at this step, and 0 otherwise,
//
// is the effort matrix (each row sums to at most 1). Item j is collected
// when sum_i r_ij >= L_j, and the team reward of the step is
//
//	R = sum_j L_j 1[sum_i r_ij >= L_j],
//
// that is U = sum and T_j = aggregators.LevelThreshold{L: L_j}
// (TeamReward). Loaders do not move, so the order of loading and moving
// within a step does not matter.
//
// Spawning: at Reset each batch element places the items on distinct
// uniformly random cells, then the agents on distinct uniformly random
// cells holding no item. Respawn: an item collected at a step reappears at
// once, with the same level, on a uniformly random cell that holds no item
// and no agent after the step's moves (items are drawn in index order).
// Width·Height must therefore be at least N + M. All randomness comes from
// the seed of Reset, one stream per batch element.
//
// Observation of agent i (ObsDim 2 + 3M + 2(N−1), grid units): its own
// position (x_i, y_i); for each item j, its position relative to the agent
// and its level (x_j − x_i, y_j − y_i, L_j); for each other agent k in
// increasing order of k, its relative position (x_k − x_i, y_k − y_i).
//
// Parameters: "L[0]", ..., "L[M-1]", the item levels (integers >= 1);
// setting them takes effect at once, for the items on the grid.
type Foraging struct {
	batch, n, m, w, h, steps int
	levels                   []int
	names                    []string
	spawn                    []streamRand
	ax, ay                   []int   // [B][N] agent positions
	ix, iy                   []int   // [B][M] item positions
	itemAt                   []int32 // [B][W*H] item index + 1 on each cell, or 0
	agentsAt                 []int32 // [B][W*H] number of agents on each cell
	count                    []int   // [M] scratch: skill loading each item
	collected                []bool  // [B][M] items collected at the last step
	obs, rew, eff            []float64
	done                     []bool
	t                        int
	started                  bool
}

// streamForagingSpawn tags the spawn stream of Foraging.
const streamForagingSpawn uint64 = 0xf0a6

// NewForaging returns the level-based foraging environment of cfg (Levels
// is copied). It returns an error wrapping ErrConfig if a size is below 1,
// a level below 1, the episode length negative or above MaxEpisodeLength,
// the grid has fewer than N + M cells or more than MaxForagingCells, or
// B·Width·Height or B·N·ObsDim exceeds MaxEnvValues.
func NewForaging(cfg ForagingConfig) (*Foraging, error) {
	if cfg.Batch < 1 || cfg.Agents < 1 || len(cfg.Levels) < 1 || cfg.Width < 1 || cfg.Height < 1 {
		return nil, fmt.Errorf("simulate: foraging with batch %d, %d agents, %d items, %dx%d grid (need all >= 1): %w",
			cfg.Batch, cfg.Agents, len(cfg.Levels), cfg.Width, cfg.Height, ErrConfig)
	}
	if cfg.EpisodeLength < 0 {
		return nil, fmt.Errorf("simulate: foraging episode length %d (need >= 0; 0 means %d): %w",
			cfg.EpisodeLength, DefaultForagingSteps, ErrConfig)
	}
	if cfg.Width > MaxForagingCells || cfg.Height > MaxForagingCells || cfg.Width*cfg.Height > MaxForagingCells {
		return nil, fmt.Errorf("simulate: foraging grid %dx%d has more than MaxForagingCells = %d cells: %w",
			cfg.Width, cfg.Height, MaxForagingCells, ErrConfig)
	}
	n, m := cfg.Agents, len(cfg.Levels)
	cells := cfg.Width * cfg.Height
	if n > cells || m > cells || cells < n+m {
		return nil, fmt.Errorf("simulate: foraging grid %dx%d has %d cells, fewer than the %d agents + %d items: %w",
			cfg.Width, cfg.Height, cells, n, m, ErrConfig)
	}
	if err := checkEpisodeLength("foraging", cfg.EpisodeLength); err != nil {
		return nil, err
	}
	if err := checkEnvValues("foraging", "B·Width·Height", cfg.Batch, cells); err != nil {
		return nil, err
	}
	if err := checkEnvValues("foraging", "B·N·ObsDim", cfg.Batch, n, 2+3*m+2*(n-1)); err != nil {
		return nil, err
	}
	e := &Foraging{batch: cfg.Batch, n: n, m: m, w: cfg.Width, h: cfg.Height, steps: cfg.EpisodeLength}
	if e.steps == 0 {
		e.steps = DefaultForagingSteps
	}
	e.levels = make([]int, m)
	e.names = make([]string, m)
	for j, l := range cfg.Levels {
		if l < 1 || l > MaxForagingLevel {
			return nil, fmt.Errorf("simulate: foraging item %d has level %d (need an integer in [1, %d]): %w", j, l, MaxForagingLevel, ErrConfig)
		}
		e.levels[j] = l
		e.names[j] = "L[" + strconv.Itoa(j) + "]"
	}
	B := cfg.Batch
	e.spawn = make([]streamRand, B)
	e.ax, e.ay = make([]int, B*n), make([]int, B*n)
	e.ix, e.iy = make([]int, B*m), make([]int, B*m)
	e.itemAt, e.agentsAt = make([]int32, B*cells), make([]int32, B*cells)
	e.count = make([]int, m)
	e.collected = make([]bool, B*m)
	e.obs = make([]float64, B*n*e.ObsDim())
	e.rew = make([]float64, B)
	e.eff = make([]float64, B*n*m)
	e.done = make([]bool, B)
	return e, nil
}

// Name returns "foraging".
func (e *Foraging) Name() string { return "foraging" }

// Batch returns B.
func (e *Foraging) Batch() int { return e.batch }

// Agents returns N.
func (e *Foraging) Agents() int { return e.n }

// Tasks returns M, the number of items.
func (e *Foraging) Tasks() int { return e.m }

// Width returns the width of the grid.
func (e *Foraging) Width() int { return e.w }

// Height returns the height of the grid.
func (e *Foraging) Height() int { return e.h }

// ObsDim returns 2 + 3M + 2(N−1).
func (e *Foraging) ObsDim() int { return 2 + 3*e.m + 2*(e.n-1) }

// EpisodeLength returns the number of steps of an episode.
func (e *Foraging) EpisodeLength() int { return e.steps }

// ActionSpace returns Discrete(6).
func (e *Foraging) ActionSpace() Space { return Space{Discrete: true, Choices: ForagingActions} }

// Levels returns a copy of the item levels.
func (e *Foraging) Levels() []int { return append([]int(nil), e.levels...) }

// TeamReward returns the reward sum_j LevelThreshold{L_j}(a_j) with the
// current levels, for evaluating it on Effort() through package
// aggregators.
func (e *Foraging) TeamReward() *aggregators.Reward {
	inner := make([]aggregators.Operator, e.m)
	for j, l := range e.levels {
		inner[j] = aggregators.LevelThreshold{L: float64(l)}
	}
	return aggregators.NewReward(aggregators.Sum{}, inner...)
}

// Params returns the item levels "L[0]", ..., "L[M-1]".
func (e *Foraging) Params() Params {
	p := Params{Names: append([]string(nil), e.names...), Values: make([]float64, e.m)}
	for j, l := range e.levels {
		p.Values[j] = float64(l)
	}
	return p
}

func (e *Foraging) paramIndex(name string) int {
	for j, n := range e.names {
		if n == name {
			return j
		}
	}
	return -1
}

// SetParams sets the named item levels (all or nothing). An unknown name,
// or a value that is not an integer in [1, MaxForagingLevel], is an error wrapping
// ErrParam.
func (e *Foraging) SetParams(p Params) error {
	if err := checkParamList("foraging", p); err != nil {
		return err
	}
	for k, name := range p.Names {
		v := p.Values[k]
		if e.paramIndex(name) < 0 {
			return fmt.Errorf("simulate: foraging has no parameter %q (have %v): %w", name, e.names, ErrParam)
		}
		if !(v >= 1 && v <= MaxForagingLevel) || v != math.Trunc(v) {
			return fmt.Errorf("simulate: foraging: parameter %q = %v must be an integer level in [1, %d]: %w", name, v, MaxForagingLevel, ErrParam)
		}
	}
	for k, name := range p.Names {
		e.levels[e.paramIndex(name)] = int(p.Values[k])
	}
	if e.started {
		e.fillObs()
	}
	return nil
}

// Reset starts a new episode in every batch element: items and agents are
// placed at random from (seed, b), as the type's documentation describes.
func (e *Foraging) Reset(seed int64) error {
	cells := e.w * e.h
	for b := 0; b < e.batch; b++ {
		e.spawn[b] = newStreamRand(seed, b, streamForagingSpawn)
		clear(e.itemAt[b*cells : (b+1)*cells])
		clear(e.agentsAt[b*cells : (b+1)*cells])
		for j := 0; j < e.m; j++ {
			c := e.freeCell(b, false)
			e.itemAt[b*cells+c] = int32(j + 1)
			e.ix[b*e.m+j], e.iy[b*e.m+j] = c%e.w, c/e.w
		}
		for i := 0; i < e.n; i++ {
			c := e.freeCell(b, true)
			e.agentsAt[b*cells+c]++
			e.ax[b*e.n+i], e.ay[b*e.n+i] = c%e.w, c/e.w
		}
		e.done[b] = false
		e.rew[b] = 0
	}
	clear(e.eff)
	clear(e.collected)
	e.t, e.started = 0, true
	e.fillObs()
	return nil
}

// freeCell draws a uniformly random cell of batch element b that holds no
// item (and no agent, if noAgent): a few rejection draws, then a draw among
// the free cells counted. The grid has at least N + M cells, so one is
// always free.
func (e *Foraging) freeCell(b int, noAgent bool) int {
	cells := e.w * e.h
	items, agents := e.itemAt[b*cells:(b+1)*cells], e.agentsAt[b*cells:(b+1)*cells]
	free := func(c int) bool { return items[c] == 0 && (!noAgent || agents[c] == 0) }
	r := &e.spawn[b]
	for try := 0; try < 16; try++ {
		if c := r.intn(cells); free(c) {
			return c
		}
	}
	nfree := 0
	for c := 0; c < cells; c++ {
		if free(c) {
			nfree++
		}
	}
	k := r.intn(nfree)
	for c := 0; c < cells; c++ {
		if free(c) {
			if k == 0 {
				return c
			}
			k--
		}
	}
	panic("simulate: foraging: no free cell") // unreachable: cells >= N + M
}

// Step plays the flat [B][N] actions.
func (e *Foraging) Step(actions []float64) error {
	if !e.started {
		return fmt.Errorf("simulate: foraging: Step before Reset: %w", ErrNotReset)
	}
	if e.t >= e.steps {
		return fmt.Errorf("simulate: foraging: Step after the end of the episode (%d steps): %w", e.steps, ErrDone)
	}
	if err := checkActions(e.Name(), e.ActionSpace(), e.batch, e.n, actions); err != nil {
		return err
	}
	n, m, cells := e.n, e.m, e.w*e.h
	clear(e.eff)
	for b := 0; b < e.batch; b++ {
		items, agents := e.itemAt[b*cells:(b+1)*cells], e.agentsAt[b*cells:(b+1)*cells]
		eff := e.eff[b*n*m : (b+1)*n*m]
		clear(e.count)
		for i := 0; i < n; i++ {
			k := b*n + i
			x, y := e.ax[k], e.ay[k]
			switch int(actions[k]) {
			case ForagingLoad:
				if j := int(items[y*e.w+x]) - 1; j >= 0 {
					eff[i*m+j] = 1
					e.count[j]++
				}
				continue
			case ForagingUp:
				y++
			case ForagingDown:
				y--
			case ForagingLeft:
				x--
			case ForagingRight:
				x++
			}
			if x < 0 || x >= e.w || y < 0 || y >= e.h {
				continue
			}
			agents[e.ay[k]*e.w+e.ax[k]]--
			agents[y*e.w+x]++
			e.ax[k], e.ay[k] = x, y
		}
		r := 0.0
		for j := 0; j < m; j++ {
			got := e.count[j] >= e.levels[j]
			e.collected[b*m+j] = got
			if !got {
				continue
			}
			r += float64(e.levels[j])
			k := b*m + j
			items[e.iy[k]*e.w+e.ix[k]] = 0
			c := e.freeCell(b, true)
			items[c] = int32(j + 1)
			e.ix[k], e.iy[k] = c%e.w, c/e.w
		}
		e.rew[b] = r
	}
	e.t++
	if e.t == e.steps {
		for b := range e.done {
			e.done[b] = true
		}
	}
	e.fillObs()
	return nil
}

func (e *Foraging) fillObs() {
	n, m, d := e.n, e.m, e.ObsDim()
	for b := 0; b < e.batch; b++ {
		ax, ay := e.ax[b*n:(b+1)*n], e.ay[b*n:(b+1)*n]
		ix, iy := e.ix[b*m:(b+1)*m], e.iy[b*m:(b+1)*m]
		for i := 0; i < n; i++ {
			o := e.obs[(b*n+i)*d : (b*n+i+1)*d]
			x, y := ax[i], ay[i]
			o[0], o[1] = float64(x), float64(y)
			p := 2
			for j := 0; j < m; j++ {
				o[p], o[p+1], o[p+2] = float64(ix[j]-x), float64(iy[j]-y), float64(e.levels[j])
				p += 3
			}
			for k := 0; k < n; k++ {
				if k == i {
					continue
				}
				o[p], o[p+1] = float64(ax[k]-x), float64(ay[k]-y)
				p += 2
			}
		}
	}
}

// Place moves the agents and items of batch element b to the given cells,
// for hand-built scenarios: agents and items are flat [N][2] and [M][2]
// integer coordinates (x, y) on the grid. Agents may share cells and stand
// on items; items must be on distinct cells. Call it after Reset; it
// changes the observations but not the step count, rewards or efforts. An
// invalid position is an error wrapping ErrConfig that names it, and
// changes nothing.
func (e *Foraging) Place(b int, agents, items []float64) error {
	if !e.started {
		return fmt.Errorf("simulate: foraging: Place before Reset: %w", ErrNotReset)
	}
	if b < 0 || b >= e.batch {
		return fmt.Errorf("simulate: foraging: Place in batch element %d of %d: %w", b, e.batch, ErrConfig)
	}
	if len(agents) != 2*e.n || len(items) != 2*e.m {
		return fmt.Errorf("simulate: foraging: Place with %d agent and %d item coordinates, want %d and %d: %w",
			len(agents), len(items), 2*e.n, 2*e.m, ErrConfig)
	}
	cells := e.w * e.h
	check := func(what string, k int, p []float64) error {
		x, y := p[2*k], p[2*k+1]
		if x != math.Trunc(x) || y != math.Trunc(y) || !(x >= 0 && x < float64(e.w)) || !(y >= 0 && y < float64(e.h)) {
			return fmt.Errorf("simulate: foraging: batch %d %s %d at (%v, %v) is not a cell of the %dx%d grid: %w",
				b, what, k, x, y, e.w, e.h, ErrConfig)
		}
		return nil
	}
	seen := make(map[int]int, e.m)
	for j := 0; j < e.m; j++ {
		if err := check("item", j, items); err != nil {
			return err
		}
		c := int(items[2*j+1])*e.w + int(items[2*j])
		if prev, ok := seen[c]; ok {
			return fmt.Errorf("simulate: foraging: batch %d items %d and %d on the same cell (%v, %v): %w",
				b, prev, j, items[2*j], items[2*j+1], ErrConfig)
		}
		seen[c] = j
	}
	for i := 0; i < e.n; i++ {
		if err := check("agent", i, agents); err != nil {
			return err
		}
	}
	itemAt, agentsAt := e.itemAt[b*cells:(b+1)*cells], e.agentsAt[b*cells:(b+1)*cells]
	clear(itemAt)
	clear(agentsAt)
	for j := 0; j < e.m; j++ {
		x, y := int(items[2*j]), int(items[2*j+1])
		e.ix[b*e.m+j], e.iy[b*e.m+j] = x, y
		itemAt[y*e.w+x] = int32(j + 1)
	}
	for i := 0; i < e.n; i++ {
		x, y := int(agents[2*i]), int(agents[2*i+1])
		e.ax[b*e.n+i], e.ay[b*e.n+i] = x, y
		agentsAt[y*e.w+x]++
	}
	e.fillObs()
	return nil
}

// Obs returns the flat [B][N][ObsDim] observations.
func (e *Foraging) Obs() []float64 { return e.obs }

// Reward returns the [B] team rewards of the last step.
func (e *Foraging) Reward() []float64 { return e.rew }

// Effort returns the flat [B][N][M] effort matrices of the last step:
// r_ij = 1 if agent i loaded item j.
func (e *Foraging) Effort() []float64 { return e.eff }

// Done reports, per batch element, whether the episode has ended.
func (e *Foraging) Done() []bool { return e.done }

// Collected returns the flat [B][M] record of the items collected at the
// last step, owned by the environment.
func (e *Foraging) Collected() []bool { return e.collected }

// AgentPositions returns the flat [N][2] agent cells (x, y) of batch
// element b (a new slice).
// It panics if b is outside [0, Batch()).
func (e *Foraging) AgentPositions(b int) []float64 {
	checkElement("foraging", b, e.batch)
	p := make([]float64, 2*e.n)
	for i := 0; i < e.n; i++ {
		p[2*i], p[2*i+1] = float64(e.ax[b*e.n+i]), float64(e.ay[b*e.n+i])
	}
	return p
}

// TaskPositions returns the flat [M][2] item cells (x, y) of batch element
// b (a new slice).
// It panics if b is outside [0, Batch()).
func (e *Foraging) TaskPositions(b int) []float64 {
	checkElement("foraging", b, e.batch)
	p := make([]float64, 2*e.m)
	for j := 0; j < e.m; j++ {
		p[2*j], p[2*j+1] = float64(e.ix[b*e.m+j]), float64(e.iy[b*e.m+j])
	}
	return p
}

var _ Embodied = (*Foraging)(nil)
