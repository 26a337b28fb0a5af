package simulate

import (
	"fmt"
	"math"
	"strings"

	"github.com/hetgain/hetgain/aggregators"
)

// EffortProfile says how a team spread its effort over the tasks in a
// batch of episodes: which agent worked on which task, and how many tasks
// the team covered at once. It tells specialists (each agent on a task of
// its own) from generalists (all agents on the same task) and from a team
// in which some agents do nothing.
type EffortProfile struct {
	// Agents and Tasks are N and M.
	Agents, Tasks int
	// Steps is the number of steps counted: those of every batch element
	// while its episode ran.
	Steps int
	// Effort is the flat [N][M] mean effort matrix: Effort[i*M+j] is
	// agent i's effort on task j averaged over the steps counted. In Tag
	// it is the fraction of steps in which chaser i holds escaper j; in
	// the one-step matrix game it is the mean of the agents' choices.
	// Where tasks are placed at random (Multi-goal-capture), which agent
	// takes which task can change from episode to episode, so that Effort
	// can look uniform for a team of specialists; Covered still shows
	// that they split.
	Effort []float64
	// Covered[k], k = 0, ..., M, is the fraction of the steps counted in
	// which exactly k tasks were covered: had an agent that put more than
	// CoverEffort, half of its unit of effort, on it. So where an agent's
	// efforts sum to at most 1 it covers at most one task; a Tag chaser,
	// which keeps every capture, may cover several. Where efforts are 0 or
	// 1 (Tag, the discrete matrix game) a task is covered when some agent
	// works on it; with
	// continuous efforts, when some agent works mainly on it, and
	// Covered[M] is the fraction of steps in which the team's agents
	// split over all the tasks.
	Covered []float64
	// Diversity is how differently the agents spread their effort at the
	// same step: the mean, over the steps counted and over the pairs of
	// agents i < k, of half the L1 distance between rows i and k of the
	// step's effort matrix. It is 0 when all agents put the same effort on
	// the same tasks at every step and 1 when every pair works on disjoint
	// tasks with a full unit of effort each; one agent working while the
	// other does nothing is 1/2. Unlike Effort it is taken step by step, so
	// it shows specialists whose tasks change from episode to episode.
	// It is 0 for one agent.
	Diversity float64
	// Return is the mean undiscounted return of the batch's episodes:
	// the sum of Rollout's returns in element order over B, bit for bit.
	Return float64
}

// Profile plays one episode in every batch element of env as Rollout does
// (same seed, same policy noise, so the same episodes) and returns the
// profile of the efforts the agents produced. It returns Rollout's errors,
// a nil env or a non-finite return among them.
func Profile(env Env, pol Policy, seed int64) (*EffortProfile, error) {
	if nilEnv(env) {
		return nil, errNilEnv("Profile")
	}
	B, N, M := env.Batch(), env.Agents(), env.Tasks()
	p := &EffortProfile{Agents: N, Tasks: M, Effort: make([]float64, N*M), Covered: make([]float64, M+1)}
	ret := make([]float64, B) // per element, as Rollout sums them
	err := play(env, pol, seed, nil, func(live []bool) {
		eff, rw := env.Effort(), env.Reward()
		for b, l := range live {
			if !l {
				continue
			}
			a := eff[b*N*M : (b+1)*N*M]
			for k, v := range a {
				p.Effort[k] += v
			}
			p.Covered[coveredTasks(a, N, M)]++
			p.Diversity += rowDistance(a, N, M)
			p.Steps++
			ret[b] += rw[b]
		}
	})
	if err != nil {
		return nil, err
	}
	if p.Steps > 0 {
		for k := range p.Effort {
			p.Effort[k] /= float64(p.Steps)
		}
		for k := range p.Covered {
			p.Covered[k] /= float64(p.Steps)
		}
		p.Diversity /= float64(p.Steps)
	}
	for b, r := range ret {
		if err := checkFiniteReturn(env.Name(), b, r, nil); err != nil {
			return nil, err
		}
	}
	sum := 0.0
	for _, r := range ret {
		sum += r
	}
	if math.IsInf(sum, 0) {
		return nil, fmt.Errorf("simulate: %s: the returns of the batch sum to %v: %w", env.Name(), sum, aggregators.ErrInf)
	}
	p.Return = sum / float64(B)
	return p, nil
}

// CoverEffort is the effort an agent must exceed on a task to cover it
// (see EffortProfile.Covered).
const CoverEffort = 0.5

// coveredTasks returns the number of columns of the N x M matrix a with an
// entry above CoverEffort.
func coveredTasks(a []float64, n, m int) int {
	covered := 0
	for j := 0; j < m; j++ {
		for i := 0; i < n; i++ {
			if a[i*m+j] > CoverEffort {
				covered++
				break
			}
		}
	}
	return covered
}

// rowDistance returns the mean over pairs of rows i < k of the N x M
// matrix a of half the L1 distance between them, and 0 if n < 2.
func rowDistance(a []float64, n, m int) float64 {
	if n < 2 {
		return 0
	}
	sum := 0.0
	for i := 0; i < n; i++ {
		for k := i + 1; k < n; k++ {
			for j := 0; j < m; j++ {
				sum += math.Abs(a[i*m+j] - a[k*m+j])
			}
		}
	}
	return sum / float64(n*(n-1)) // ½ · sum / (n(n−1)/2)
}

// At returns agent i's mean effort on task j. It panics with a
// "simulate: " message if i or j is out of range or Effort does not hold
// the Agents x Tasks matrix.
func (p *EffortProfile) At(i, j int) float64 {
	if p == nil {
		panic("simulate: At of a nil *EffortProfile")
	}
	if i < 0 || i >= p.Agents || j < 0 || j >= p.Tasks {
		panic(fmt.Sprintf("simulate: effort profile index (%d, %d) out of range %d x %d", i, j, p.Agents, p.Tasks))
	}
	if !p.shapeOK() {
		panic(fmt.Sprintf("simulate: effort profile of %d x %d has %d efforts", p.Agents, p.Tasks, len(p.Effort)))
	}
	return p.Effort[i*p.Tasks+j]
}

// SpecialistRatio is the ratio Specialists is usually asked for (and
// hetgain inspect uses): an agent is a specialist when it works on its
// task at least twice as much as on any other.
const SpecialistRatio = 2

// Specialists reports whether the team specialised on tasks of their own
// by index: if every agent i has a task j(i) with Effort i on j(i) > 0 and
// at least ratio times its effort on each other task, and no two agents
// share a task, it returns j(0), ..., j(N-1); otherwise nil. So a team with
// more agents than tasks, an idle agent, two agents on the same task, an
// agent split evenly over two tasks or one with a NaN or infinite effort
// gives nil. It reads the mean efforts,
// so it finds agents tied to a task by their index, as in Tag and the
// matrix game; where tasks are placed at random (Multi-goal-capture),
// specialists of whichever task is nearest show in Covered and Diversity
// instead. It panics with a "simulate: " message if ratio is not above 1
// (at 1 an agent even on two tasks would have two) or if Effort does not
// hold the Agents x Tasks matrix.
func (p *EffortProfile) Specialists(ratio float64) []int {
	if !(ratio > 1) || math.IsInf(ratio, 1) {
		panic(fmt.Sprintf("simulate: Specialists ratio %v, want a finite ratio above 1", ratio))
	}
	if p == nil || !p.shapeOK() {
		panic("simulate: Specialists of a profile without its Agents x Tasks efforts")
	}
	tasks := make([]int, p.Agents)
	taken := make([]bool, p.Tasks)
	for i := range tasks {
		j := p.mainTask(i, ratio)
		if j < 0 || taken[j] {
			return nil
		}
		taken[j] = true
		tasks[i] = j
	}
	return tasks
}

// mainTask returns the task agent i works on at least ratio times as much
// as on any other, with a positive effort, or -1 if there is none.
func (p *EffortProfile) mainTask(i int, ratio float64) int {
	row := p.Effort[i*p.Tasks : (i+1)*p.Tasks]
	best := 0
	for j, e := range row {
		if math.IsNaN(e) || math.IsInf(e, 0) {
			return -1
		}
		if e > row[best] {
			best = j
		}
	}
	if !(row[best] > 0) {
		return -1
	}
	for j, e := range row {
		if j != best && row[best] < ratio*e {
			return -1
		}
	}
	return best
}

// shapeOK reports whether Effort holds exactly Agents x Tasks values.
func (p *EffortProfile) shapeOK() bool {
	if p.Agents < 0 || p.Tasks < 0 {
		return false
	}
	if p.Agents == 0 || p.Tasks == 0 {
		return len(p.Effort) == 0
	}
	return p.Agents <= len(p.Effort)/p.Tasks && p.Agents*p.Tasks == len(p.Effort)
}

// String formats the profile as a small table: one row per agent with its
// mean effort on each task, then the fractions of steps in which 0, ...,
// M tasks were covered, then the diversity and the mean return. If Effort
// does not hold the Agents x Tasks matrix (a profile not made by Profile),
// it says so in place of the table.
func (p *EffortProfile) String() string {
	if p == nil {
		return "<nil>"
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "mean effort per step (%d steps), agent x task:\n", p.Steps)
	if p.shapeOK() {
		for i := 0; i < p.Agents; i++ {
			fmt.Fprintf(&sb, "  agent %d:", i+1)
			for j := 0; j < p.Tasks; j++ {
				fmt.Fprintf(&sb, " %.3f", p.Effort[i*p.Tasks+j])
			}
			sb.WriteString("\n")
		}
	} else {
		fmt.Fprintf(&sb, "  (%d efforts for %d agents x %d tasks)\n", len(p.Effort), p.Agents, p.Tasks)
	}
	fmt.Fprintf(&sb, "steps with k tasks covered (an agent's effort > %v):", CoverEffort)
	for k, f := range p.Covered {
		fmt.Fprintf(&sb, " k=%d %.3f", k, f)
	}
	fmt.Fprintf(&sb, "\ndiversity (mean half-L1 distance between agents' rows per step) %.3f", p.Diversity)
	fmt.Fprintf(&sb, "\nmean return %.4g\n", p.Return)
	return sb.String()
}
