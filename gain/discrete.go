package gain

import (
	"fmt"
	"math"

	"github.com/hetgain/hetgain/aggregators"
	"gonum.org/v1/gonum/mat"
)

// MaxDiscreteAssignments is the largest number of task-count vectors that
// Numerical enumerates for discrete allocations (see Numerical). Beyond it
// Numerical returns an error wrapping ErrSize.
const MaxDiscreteAssignments = 1 << 22

// discGroups partitions the tasks into classes of tasks with the same inner
// operator. U is symmetric, so permuting the counts of agents within a
// class leaves R unchanged, and only non-increasing counts within each
// class need be enumerated.
type discGroups struct {
	ops   []aggregators.Operator // the inner operator of each class
	tasks [][]int                // the tasks of each class, increasing
}

func discGroupsOf(r *aggregators.Reward, m int) discGroups {
	if len(r.Inner) == 1 {
		all := make([]int, m)
		for j := range all {
			all[j] = j
		}
		return discGroups{ops: []aggregators.Operator{r.Inner[0]}, tasks: [][]int{all}}
	}
	var g discGroups
next:
	for j, op := range r.Inner {
		for k, rep := range g.ops {
			if numSameOperator(op, rep) {
				g.tasks[k] = append(g.tasks[k], j)
				continue next
			}
		}
		g.ops = append(g.ops, op)
		g.tasks = append(g.tasks, []int{j})
	}
	return g
}

// discCount returns the number of count vectors the enumeration visits for
// n agents: the number of ways to write n as an ordered sum, over the
// classes, of partitions into at most (class size) parts. It saturates at
// +Inf.
func discCount(g discGroups, n int) float64 {
	total := make([]float64, n+1)
	total[0] = 1
	for _, tasks := range g.tasks {
		k := len(tasks)
		// p[s] = number of partitions of s into at most k parts, by the
		// recurrence p_k(s) = p_{k−1}(s) + p_k(s − k).
		p := make([]float64, n+1)
		p[0] = 1
		for parts := 1; parts <= k && parts <= n; parts++ {
			for s := parts; s <= n; s++ {
				p[s] += p[s-parts]
			}
		}
		next := make([]float64, n+1)
		for a := 0; a <= n; a++ {
			if total[a] == 0 {
				continue
			}
			for b := 0; a+b <= n; b++ {
				next[a+b] += total[a] * p[b]
			}
		}
		total = next
	}
	return total[n]
}

// discLeaf is a count vector and the reward of the allocation it stands for.
type discLeaf struct {
	value  float64
	counts []int // agents per task
}

// discSearch enumerates count vectors: n_j agents put effort high on task
// j and low on every other task, sum_j n_j = N. With high = 1 and low = 0
// these are the discrete allocations. T_j depends only on n_j, and the
// table of T_j(n) for n = 0, ..., N is computed once per class.
type discSearch struct {
	n, m     int
	groups   discGroups
	tables   [][]float64 // tables[class][c] = T(c highs, N − c lows)
	outer    numKernel
	nonNeg   bool
	y        []float64
	counts   []int
	top      []discLeaf // the best leaves, best first
	keep     int        // how many leaves to keep in top
	leaves   int        // count vectors visited
	overflow bool       // a task score beyond MaxInput or U = ±Inf at some count vector
	capRest  []int      // capRest[class]: agents the classes after it can hold
}

// discNewSearch returns an enumeration that keeps the keep best leaves.
// It evaluates the inner operators through their own methods (which panic
// on invalid input; the callers recover).
func discNewSearch(r *aggregators.Reward, n, m int, high, low float64, keep int) *discSearch {
	g := discGroupsOf(r, m)
	s := &discSearch{
		n: n, m: m, groups: g, keep: keep,
		tables: make([][]float64, len(g.ops)),
		nonNeg: r.Outer.Domain() == aggregators.NonNegative,
		y:      make([]float64, m), counts: make([]int, m),
		capRest: make([]int, len(g.ops)+1),
	}
	s.outer, _ = numExactKernel(r.Outer, m)
	col := make([]float64, n)
	for k, op := range g.ops {
		t := make([]float64, n+1)
		for c := 0; c <= n; c++ {
			for i := range col {
				col[i] = low
				if i < c {
					col[i] = high
				}
			}
			t[c] = op.Value(col)
		}
		s.tables[k] = t
	}
	for k := len(g.ops) - 1; k >= 0; k-- {
		s.capRest[k] = s.capRest[k+1] + len(g.tasks[k])*n
	}
	return s
}

// run enumerates every count vector.
func (s *discSearch) run() { s.rec(0, 0, s.n, s.n) }

// rec assigns counts to the tasks of class g from its k-th task on, each
// at most maxc (counts are non-increasing within a class), with left
// agents still to place.
func (s *discSearch) rec(g, k, maxc, left int) {
	if g == len(s.groups.ops) {
		if left == 0 {
			s.leaf()
		}
		return
	}
	tasks := s.groups.tasks[g]
	if k == len(tasks) {
		s.rec(g+1, 0, s.n, left)
		return
	}
	if left > (len(tasks)-k)*maxc+s.capRest[g+1] {
		return
	}
	c := maxc
	if left < c {
		c = left
	}
	for ; c >= 0; c-- {
		j := tasks[k]
		s.y[j], s.counts[j] = s.tables[g][c], c
		s.rec(g, k+1, c, left-c)
	}
}

func (s *discSearch) leaf() {
	s.leaves++
	for _, v := range s.y {
		if numScoreOverflows(v) {
			s.overflow = true
		}
		if math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) > aggregators.MaxInput || s.nonNeg && v < 0 {
			return
		}
	}
	v := s.outer.value(s.y)
	if math.IsInf(v, 0) {
		s.overflow = true
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return
	}
	if len(s.top) == s.keep && !(v > s.top[len(s.top)-1].value) {
		return
	}
	var leaf discLeaf
	if len(s.top) == s.keep {
		leaf = s.top[len(s.top)-1]
		s.top = s.top[:len(s.top)-1]
	} else {
		leaf.counts = make([]int, s.m)
	}
	leaf.value = v
	copy(leaf.counts, s.counts)
	pos := len(s.top)
	for pos > 0 && s.top[pos-1].value < v {
		pos--
	}
	s.top = append(s.top, discLeaf{})
	copy(s.top[pos+1:], s.top[pos:])
	s.top[pos] = leaf
}

// discAllocation writes into x (n rows of length m) the allocation of the
// count vector: agents are placed task by task, each with effort high on
// its task and low elsewhere.
func discAllocation(x []float64, counts []int, m int, high, low float64) {
	a := 0
	for j, c := range counts {
		for ; c > 0; c-- {
			row := x[a*m : (a+1)*m]
			for k := range row {
				row[k] = low
			}
			row[j] = high
			a++
		}
	}
}

// numDiscrete returns the exact discrete optima (see Numerical).
func numDiscrete(r *aggregators.Reward, n, m int) (Gains, error) {
	s := discNewSearch(r, n, m, 1, 0, 1)
	if c := discCount(s.groups, n); c > MaxDiscreteAssignments {
		return Gains{}, fmt.Errorf("gain: discrete allocations of N = %d agents over M = %d tasks with %d distinct inner operators: %.4g count vectors, above MaxDiscreteAssignments = %d (tasks with equal inner operators are enumerated up to symmetry): %w",
			n, m, len(s.groups.ops), c, MaxDiscreteAssignments, ErrSize)
	}
	s.run()
	if s.overflow {
		return Gains{}, fmt.Errorf("gain: %v overflows (a task score beyond aggregators.MaxInput = %g, or R = ±Inf) at some discrete allocations: %w", r, aggregators.MaxInput, ErrOperator)
	}
	if len(s.top) == 0 {
		return Gains{}, fmt.Errorf("gain: %v is not defined at any discrete allocation of N = %d agents over M = %d tasks: %w", r, n, m, ErrOperator)
	}
	x := make([]float64, n*m)
	discAllocation(x, s.top[0].counts, m, 1, 0)
	het := mat.NewDense(n, m, x)
	hetValue, err := numTrueValue(r, Budget{0, 1}, het)
	if err != nil {
		return Gains{}, err
	}

	// A homogeneous team puts every agent on the same task; by symmetry
	// only one task per class need be tried.
	homValue, homTask := math.Inf(-1), -1
	for _, tasks := range s.groups.tasks {
		row := make([]float64, m)
		row[tasks[0]] = 1
		v, err := numTrueValue(r, Budget{0, 1}, replicate(row, n))
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			continue
		}
		if v > homValue {
			homValue, homTask = v, tasks[0]
		}
	}
	if homTask < 0 {
		return Gains{}, fmt.Errorf("gain: %v is not defined at any homogeneous discrete allocation: %w", r, ErrOperator)
	}
	if homValue > hetValue { // only by rounding: the homogeneous allocations are enumerated too
		hetValue = homValue
		het = mat.NewDense(n, m, nil)
		for i := 0; i < n; i++ {
			het.Set(i, homTask, 1)
		}
	}
	g := newGains(hetValue, homValue)
	g.HetAlloc = het
	g.HomRow = mat.NewDense(1, m, nil)
	g.HomRow.Set(0, homTask, 1)
	return g, nil
}
