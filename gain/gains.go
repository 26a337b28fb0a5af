package gain

import (
	"errors"
	"fmt"

	"gonum.org/v1/gonum/mat"
)

// Errors wrapped by the errors of this package.
var (
	// ErrSize reports a number of agents, tasks or items out of range.
	ErrSize = errors.New("size out of range")
	// ErrOperator reports an operator for which the requested result is
	// not available.
	ErrOperator = errors.New("unsupported operator")
	// ErrParam reports an invalid parameter (NaN, or outside its domain).
	ErrParam = errors.New("invalid parameter")
)

// MaxAllocationCells is the largest N·M for which optimal allocations are
// built. Beyond it the allocation fields of Gains are nil; the values are
// still returned.
const MaxAllocationCells = 1 << 20

// Allocation is the kind of effort allocation an agent may choose.
type Allocation int

const (
	// Continuous allocations are rows in the unit simplex: r_ij >= 0 and
	// sum_j r_ij <= 1.
	Continuous Allocation = iota
	// Discrete allocations put each agent's whole budget on exactly one
	// task: r_ij in {0, 1} and sum_j r_ij = 1.
	Discrete
)

// String returns "continuous" or "discrete".
func (k Allocation) String() string {
	switch k {
	case Continuous:
		return "continuous"
	case Discrete:
		return "discrete"
	}
	return fmt.Sprintf("Allocation(%d)", int(k))
}

// Gains holds the optimal heterogeneous and homogeneous rewards of a team
// and the allocations that attain them.
type Gains struct {
	// Het is R_het, the best reward over all allocations.
	Het float64
	// Hom is R_hom, the best reward over homogeneous allocations.
	Hom float64
	// Delta is the heterogeneity gain Het − Hom.
	Delta float64

	// HetAlloc is an N×M allocation whose reward is Het, or nil if N·M
	// exceeds MaxAllocationCells or no allocation attains Het.
	HetAlloc *mat.Dense
	// HomRow is a 1×M row c such that the allocation in which every agent
	// plays c has reward Hom, or nil if M exceeds MaxAllocationCells.
	HomRow *mat.Dense
}

// HomAlloc returns the N×M homogeneous allocation whose rows all equal
// HomRow, with N the number of rows of HetAlloc. It returns nil if either
// field is nil, and panics if HomRow is not 1×M for the M of HetAlloc.
func (g Gains) HomAlloc() *mat.Dense {
	if g.HomRow == nil || g.HetAlloc == nil {
		return nil
	}
	n, m := g.HetAlloc.Dims()
	if r, c := g.HomRow.Dims(); r != 1 || c != m {
		panic(fmt.Sprintf("gain: Gains.HomRow is %d×%d, want 1×%d for the %d×%d HetAlloc", r, c, m, n, m))
	}
	return replicate(g.HomRow.RawRowView(0), n)
}

func newGains(het, hom float64) Gains {
	return Gains{Het: het, Hom: hom, Delta: het - hom}
}

// allocatable reports whether an n×m matrix has at most MaxAllocationCells
// cells, without overflow.
func allocatable(n, m int) bool {
	return n >= 1 && m >= 1 && m <= MaxAllocationCells && n <= MaxAllocationCells/m
}

// rowMatrix returns c as a 1×len(c) matrix.
func rowMatrix(c []float64) *mat.Dense { return mat.NewDense(1, len(c), c) }

// replicate returns the n×len(c) matrix whose rows all equal c.
func replicate(c []float64, n int) *mat.Dense {
	a := mat.NewDense(n, len(c), nil)
	for i := 0; i < n; i++ {
		a.SetRow(i, c)
	}
	return a
}

// unitRow returns the row (1, 0, ..., 0) of length m.
func unitRow(m int) []float64 {
	c := make([]float64, m)
	c[0] = 1
	return c
}

// uniformRow returns the row (1/m, ..., 1/m).
func uniformRow(m int) []float64 {
	c := make([]float64, m)
	for j := range c {
		c[j] = 1 / float64(m)
	}
	return c
}

func checkSizes(n, m int) error {
	switch {
	case n < 1 && m < 1:
		return fmt.Errorf("gain: N = %d agents and M = %d tasks, need both >= 1: %w", n, m, ErrSize)
	case n < 1:
		return fmt.Errorf("gain: N = %d agents, need N >= 1: %w", n, ErrSize)
	case m < 1:
		return fmt.Errorf("gain: M = %d tasks, need M >= 1: %w", m, ErrSize)
	}
	return nil
}
