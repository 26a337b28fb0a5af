package gain

import (
	"fmt"
	"math"

	"github.com/hetgain/hetgain/aggregators"
	"gonum.org/v1/gonum/mat"
)

// extreme is one of the operators min, mean and max.
type extreme int

const (
	notExtreme extreme = iota
	opMin
	opMean
	opMax
)

// extremeOf returns which of min, mean and max op is, or notExtreme.
func extremeOf(op aggregators.Operator) extreme {
	switch o := op.(type) {
	case aggregators.Min:
		return opMin
	case aggregators.Mean:
		return opMean
	case aggregators.Max:
		return opMax
	case aggregators.Softmax:
		return limitOf(o.T, 0)
	case aggregators.PowerMean:
		return limitOf(o.T, 1)
	case aggregators.LogSumExp:
		return limitOf(o.T, math.NaN())
	}
	return notExtreme
}

// limitOf returns min at t = -Inf, max at t = +Inf and mean at t = mean.
func limitOf(t, mean float64) extreme {
	switch {
	case math.IsInf(t, -1):
		return opMin
	case math.IsInf(t, 1):
		return opMax
	case t == mean:
		return opMean
	}
	return notExtreme
}

// ClosedForm returns the optimal rewards of R = U∘T for U and T in
// {min, mean, max}, n agents and m tasks, over allocations of the given
// kind, with allocations that attain them. It returns an error wrapping
// ErrSize if n or m is below 1, and ErrOperator if u or t is not one of
// min, mean and max or kind is not Continuous or Discrete.
//
// The operators are recognised by value: aggregators.Min, Mean and Max,
// and the members of the parametric families that equal them exactly:
// Softmax, PowerMean and LogSumExp with T = −Inf (min) or +Inf (max),
// Softmax with T = 0 and PowerMean with T = 1 (mean).
//
// Each cell below is R_het, R_hom; [P] is 1 if P holds and 0 otherwise,
// and k = ceil(M/N).
//
// Continuous allocations:
//
//	         U = min          U = mean           U = max
//	T = min  1/M, 1/M         1/M, 1/M           1, 1
//	T = mean 1/M, 1/M         1/M, 1/M           1, 1
//	T = max  1/k, 1/M         min(N,M)/M, 1/M    1, 1
//
// With T = max each agent can give effort v to at most floor(1/v) tasks,
// so min_j max_i r_ij <= 1/k and sum_j max_i r_ij <= min(N, M); agents
// that spread evenly over k or fewer tasks attain both.
//
// Discrete allocations (n_j agents pick task j, sum_j n_j = N; a
// homogeneous team puts every agent on one task):
//
//	         U = min               U = mean           U = max
//	T = min  [M=1], [M=1]          1/M, 1/M           1, 1
//	T = mean floor(N/M)/N, [M=1]   1/M, 1/M           1, 1
//	T = max  [N>=M], [M=1]         min(N,M)/M, 1/M    1, 1
//
// The paper's table (Figure 2, derived for N, M >= 2 in the appendix
// "Deriving the {min, mean, max} heterogeneity gains") agrees with these
// formulas where N >= M and M >= 2. It differs in four cells:
//   - continuous U = min, T = max: the paper's ΔR = (M−1)/M holds for
//     N >= M only; in general ΔR = 1/ceil(M/N) − 1/M.
//   - continuous U = mean, T = max: the paper's (M−1)/M holds for N >= M
//     only; in general ΔR = (min(N,M) − 1)/M, as in the discrete case.
//   - discrete U = min, T = mean: the paper's ΔR = floor(N/M)/N is wrong
//     for M = 1, where both optima are 1 and ΔR = 0.
//   - discrete U = min, T = max: the paper's ΔR = 1{N >= M} is wrong for
//     M = 1, where a homogeneous team also covers the one task and ΔR = 0
//     (the paper's derivation assumes M > 1 for the homogeneous team).
//
// HetAlloc and HomRow attain Het and Hom. HomRow is (1, 0, ..., 0) for
// U = max and for discrete allocations, and the uniform row (1/M, ..., 1/M)
// otherwise. For T = max with U in {min, mean}, and for discrete min∘mean,
// HetAlloc puts agent i on task i mod M; with continuous allocations and
// N < M, it assigns task j to agent j mod N, which spreads its effort
// evenly over its tasks (discrete rows cannot spread: tasks N to M−1 then
// get nobody). Otherwise it repeats HomRow.
func ClosedForm(u, t aggregators.Operator, n, m int, kind Allocation) (Gains, error) {
	if err := checkSizes(n, m); err != nil {
		return Gains{}, err
	}
	eu, et := extremeOf(u), extremeOf(t)
	if eu == notExtreme || et == notExtreme {
		return Gains{}, fmt.Errorf("gain: closed forms need U and T in {min, mean, max}, got U = %v, T = %v: %w", u, t, ErrOperator)
	}
	var het, hom float64
	switch kind {
	case Continuous:
		het, hom = continuousOptima(eu, et, n, m)
	case Discrete:
		het, hom = discreteOptima(eu, et, n, m)
	default:
		return Gains{}, fmt.Errorf("gain: unknown allocation kind %v: %w", kind, ErrOperator)
	}
	g := newGains(het, hom)
	if allocatable(n, m) {
		g.HetAlloc, g.HomRow = closedFormAllocations(eu, et, n, m, kind)
	} else if m <= MaxAllocationCells {
		g.HomRow = rowMatrix(homRow(eu, m, kind))
	}
	return g, nil
}

// continuousOptima returns R_het and R_hom for continuous allocations.
func continuousOptima(u, t extreme, n, m int) (het, hom float64) {
	M := float64(m)
	switch {
	case u == opMax:
		return 1, 1
	case t != opMax: // T in {min, mean}: every task score is at most its share
		return 1 / M, 1 / M
	case u == opMin:
		return 1 / float64(ceilDiv(m, n)), 1 / M
	}
	return float64(minInt(n, m)) / M, 1 / M // U = mean, T = max
}

// discreteOptima returns R_het and R_hom for one-task-per-agent
// allocations.
func discreteOptima(u, t extreme, n, m int) (het, hom float64) {
	M := float64(m)
	switch {
	case u == opMax:
		return 1, 1
	case u == opMean && t != opMax:
		return 1 / M, 1 / M
	case u == opMean: // T = max: number of tasks covered
		return float64(minInt(n, m)) / M, 1 / M
	}
	// U = min: a homogeneous team leaves M−1 tasks empty.
	one := indicator(m == 1)
	switch t {
	case opMin:
		return one, one
	case opMean:
		return float64(n/m) / float64(n), one
	}
	return indicator(n >= m), one // T = max
}

// closedFormAllocations returns allocations attaining the closed forms.
func closedFormAllocations(u, t extreme, n, m int, kind Allocation) (het, hom *mat.Dense) {
	c := homRow(u, m, kind)
	spread := t == opMax && u != opMax || kind == Discrete && t == opMean && u == opMin
	if !spread {
		return replicate(c, n), rowMatrix(c)
	}
	if kind == Discrete {
		return roundRobinDiscrete(n, m), rowMatrix(c)
	}
	return roundRobinContinuous(n, m), rowMatrix(c)
}

func homRow(u extreme, m int, kind Allocation) []float64 {
	if u == opMax || kind == Discrete {
		return unitRow(m)
	}
	return uniformRow(m)
}

// roundRobinDiscrete puts agent i on task i mod m.
func roundRobinDiscrete(n, m int) *mat.Dense {
	a := mat.NewDense(n, m, nil)
	for i := 0; i < n; i++ {
		a.Set(i, i%m, 1)
	}
	return a
}

// roundRobinContinuous gives task j to agent j mod n; each agent spreads
// its effort evenly over its tasks, and an agent without a task (n > m)
// works fully on task i mod m.
func roundRobinContinuous(n, m int) *mat.Dense {
	a := mat.NewDense(n, m, nil)
	for i := 0; i < n; i++ {
		if i >= m {
			a.Set(i, i%m, 1)
			continue
		}
		tasks := (m - i + n - 1) / n // |{j < m : j mod n = i}|
		for j := i; j < m; j += n {
			a.Set(i, j, 1/float64(tasks))
		}
	}
	return a
}

// ceilDiv returns ceil(a/b) for a, b >= 1 without overflow.
func ceilDiv(a, b int) int {
	q := a / b
	if a%b != 0 {
		q++
	}
	return q
}

func minInt(a, b int) int {
	if a < b {
		return a
	}
	return b
}

func indicator(p bool) float64 {
	if p {
		return 1
	}
	return 0
}
