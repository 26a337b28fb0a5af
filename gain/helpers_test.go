package gain_test

import (
	"math"
	"testing"

	"github.com/hetgain/hetgain/aggregators"
	"gonum.org/v1/gonum/mat"
)

// extremes are the operators min, mean and max, in the order of the paper's
// table.
var extremes = []aggregators.Operator{aggregators.Min{}, aggregators.Mean{}, aggregators.Max{}}

// reward evaluates R(A) with aggregators.Reward, failing the test on error.
func reward(tb testing.TB, r *aggregators.Reward, a mat.Matrix) float64 {
	tb.Helper()
	v, err := r.Value(a)
	if err != nil {
		tb.Fatalf("%v: %v", r, err)
	}
	return v
}

// simplexGrid returns every row (k_1/K, ..., k_m/K) with sum_j k_j = K.
func simplexGrid(m, k int) [][]float64 {
	var rows [][]float64
	row := make([]int, m)
	var rec func(j, left int)
	rec = func(j, left int) {
		if j == m-1 {
			row[j] = left
			r := make([]float64, m)
			for i, v := range row {
				r[i] = float64(v) / float64(k)
			}
			rows = append(rows, r)
			return
		}
		for v := 0; v <= left; v++ {
			row[j] = v
			rec(j+1, left-v)
		}
	}
	rec(0, k)
	return rows
}

// multisets calls f with every non-decreasing n-tuple of indices in
// [0, size). R is symmetric in the agents, so these tuples of rows cover
// every allocation up to a permutation of the agents.
func multisets(n, size int, f func(idx []int)) {
	idx := make([]int, n)
	var rec func(i, from int)
	rec = func(i, from int) {
		if i == n {
			f(idx)
			return
		}
		for v := from; v < size; v++ {
			idx[i] = v
			rec(i+1, v)
		}
	}
	rec(0, 0)
}

// bestOverRows returns the best reward over allocations whose rows are
// taken from rows (agents in any combination) and the best over
// homogeneous allocations with a row from rows.
func bestOverRows(tb testing.TB, r *aggregators.Reward, n int, rows [][]float64) (het, hom float64) {
	m := len(rows[0])
	a := mat.NewDense(n, m, nil)
	het, hom = math.Inf(-1), math.Inf(-1)
	multisets(n, len(rows), func(idx []int) {
		same := true
		for i, k := range idx {
			a.SetRow(i, rows[k])
			same = same && k == idx[0]
		}
		v := reward(tb, r, a)
		het = math.Max(het, v)
		if same {
			hom = math.Max(hom, v)
		}
	})
	return het, hom
}

// oneHotRows returns the m rows e_1, ..., e_m.
func oneHotRows(m int) [][]float64 {
	rows := make([][]float64, m)
	for j := range rows {
		rows[j] = make([]float64, m)
		rows[j][j] = 1
	}
	return rows
}

// homBest returns the best reward of homogeneous allocations whose row is
// one of rows.
func homBest(tb testing.TB, r *aggregators.Reward, n int, rows [][]float64) float64 {
	best := math.Inf(-1)
	for _, c := range rows {
		best = math.Max(best, reward(tb, r, replicateRow(c, n)))
	}
	return best
}

func replicateRow(c []float64, n int) *mat.Dense {
	a := mat.NewDense(n, len(c), nil)
	for i := 0; i < n; i++ {
		a.SetRow(i, c)
	}
	return a
}

// closeTo reports whether a and b agree to within tol.
func closeTo(a, b, tol float64) bool { return math.Abs(a-b) <= tol }
