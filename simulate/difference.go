package simulate

import "math"

// differenceRewards holds an environment's [B][N] difference rewards of
// the last step, computed at the first read after the step (see
// DifferenceRewarder), so that training on other rewards does not pay for
// them.
type differenceRewards struct {
	n, m int
	diff []float64 // [B][N]
	row  []float64 // [M] scratch for valueWithoutRow
	ok   bool      // diff holds the last step's values
}

func newDifferenceRewards(b, n, m int) differenceRewards {
	return differenceRewards{n: n, m: m, diff: make([]float64, b*n), row: make([]float64, m), ok: true}
}

// reset sets every difference reward to 0, their value after Reset.
func (d *differenceRewards) reset() {
	zero(d.diff)
	d.ok = true
}

// invalidate marks the values as those of an earlier step.
func (d *differenceRewards) invalidate() { d.ok = false }

// values returns the difference rewards, computing them if the last step
// changed the efforts: agent i of element b gets own(b, i) - scale ·
// R(A_{-i}), where own is its reward with scale · R(A) in it, eff the flat
// [B][N][M] efforts and A_{-i} element b's efforts with row i set to zero.
// A reward that cannot be evaluated without an agent gives NaN.
func (d *differenceRewards) values(fn *rewardFn, eff []float64, scale float64, own func(b, i int) float64) []float64 {
	if d.ok {
		return d.diff
	}
	n, m := d.n, d.m
	for b := 0; b < len(d.diff)/n; b++ {
		e := eff[b*n*m : (b+1)*n*m]
		for i := 0; i < n; i++ {
			without, err := fn.valueWithoutRow(e, d.row, i)
			if err != nil {
				without = math.NaN()
			}
			d.diff[b*n+i] = own(b, i) - scale*without
		}
	}
	d.ok = true
	return d.diff
}
