package gain

import (
	"fmt"

	"gonum.org/v1/gonum/mat"
)

// LevelForaging returns the optimal rewards of one step of level-based
// foraging (the paper's appendix "Colonel Blotto & Level-Based Foraging"):
// n agents of skill 1 and m items, all of level level; item j pays level
// when at least level agents stand on it, T_j = L·1[n_j >= L], and the team
// reward is the sum U = sum_j T_j. Allocations are discrete: each agent
// stands on at most one item. A homogeneous team puts every agent on the
// same item (or on none). Then
//
//	R_het = L·min(M, floor(N/L)),  R_hom = L·[N >= L],
//
// and ΔR = R_het − R_hom. For L dividing N this is the paper's
// ΔR = L·(min(M, N/L) − 1); the floor form also covers L not dividing N and
// N < L (no item can be collected, ΔR = 0).
//
// HetAlloc puts agents in groups of L on items 1, 2, ... and the remaining
// agents on item 1; HomRow is (1, 0, ..., 0). LevelForaging returns an
// error wrapping ErrSize if n, m or level is below 1.
func LevelForaging(n, m, level int) (Gains, error) {
	if err := checkSizes(n, m); err != nil {
		return Gains{}, err
	}
	if level < 1 {
		return Gains{}, fmt.Errorf("gain: item level L = %d, need L >= 1: %w", level, ErrSize)
	}
	items := minInt(m, n/level)
	L := float64(level)
	g := newGains(L*float64(items), L*indicator(n >= level))
	if allocatable(n, m) {
		g.HetAlloc = foragingGroups(n, m, level, items)
	}
	if m <= MaxAllocationCells {
		g.HomRow = rowMatrix(unitRow(m))
	}
	return g, nil
}

// foragingGroups puts agents level·j, ..., level·j + level − 1 on item j
// for j < items, and every other agent on item 0.
func foragingGroups(n, m, level, items int) *mat.Dense {
	a := mat.NewDense(n, m, nil)
	for i := 0; i < n; i++ {
		j := i / level
		if j >= items {
			j = 0
		}
		a.Set(i, j, 1)
	}
	return a
}
