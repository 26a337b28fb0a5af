package reproduce

import (
	"fmt"
	"math"
	"sort"
)

// MaxExactSignedRank is the largest number of non-zero differences for
// which SignedRankTest computes its p-values exactly; above it they come
// from the normal approximation.
const MaxExactSignedRank = 500

// SignedRank is the result of Wilcoxon's signed-rank test on paired
// differences, such as the gain one variant of a search ended at less
// another's, seed by seed.
type SignedRank struct {
	// N counts the differences that are not zero, the only ones ranked;
	// Zeros counts those left out.
	N, Zeros int
	// WPlus is the sum of the ranks of the positive differences, ranked
	// by their absolute values from 1 (the smallest) to N. Equal absolute
	// values share the mean of their ranks.
	WPlus float64
	// Greater is the one-sided p-value for differences that tend to be
	// positive: the chance of a rank sum of at least WPlus if every
	// difference's sign were a fair coin, given the ranks. Less is the
	// chance of at most WPlus, the p-value for differences that tend to
	// be negative. Both are 1 when N is 0.
	Greater, Less float64
	// Exact reports whether Greater and Less are exact (N up to
	// MaxExactSignedRank) or from the normal approximation, with the
	// variance corrected for tied ranks and a continuity correction of
	// 1/2.
	Exact bool
}

// SignedRankTest returns Wilcoxon's signed-rank test of the differences
// d: whether they tend to be positive (or negative) more than a symmetric
// distribution about 0 would give. Zero differences are left out and
// tied absolute values share their mean rank; the p-values are those of
// the exact distribution of the rank sum given those ranks, so they stay
// exact with ties. SignedRankTest returns an error if a difference is NaN
// or infinite.
func SignedRankTest(d []float64) (SignedRank, error) {
	var res SignedRank
	var nonzero []float64
	for i, x := range d {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return SignedRank{}, fmt.Errorf("reproduce: signed-rank test: difference %d is %v", i, x)
		}
		if x == 0 {
			res.Zeros++
			continue
		}
		nonzero = append(nonzero, x)
	}
	res.N = len(nonzero)
	if res.N == 0 {
		res.Greater, res.Less, res.Exact = 1, 1, true
		return res, nil
	}
	doubled, ties := doubledMidranks(nonzero)
	w2 := 0
	for i, x := range nonzero {
		if x > 0 {
			w2 += doubled[i]
		}
	}
	res.WPlus = float64(w2) / 2
	if res.N <= MaxExactSignedRank {
		res.Greater, res.Less = signedRankExact(doubled, w2)
		res.Exact = true
	} else {
		res.Greater, res.Less = signedRankNormal(res.N, ties, res.WPlus)
	}
	return res, nil
}

// doubledMidranks returns twice the rank of |x_i| among the absolute
// values of x (1 for the smallest), tied values sharing the mean of their
// ranks, which twice makes an integer; and the sizes of the groups of
// ties.
func doubledMidranks(x []float64) (doubled []int, ties []int) {
	order := make([]int, len(x))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool { return math.Abs(x[order[a]]) < math.Abs(x[order[b]]) })
	doubled = make([]int, len(x))
	for lo := 0; lo < len(order); {
		hi := lo
		for hi+1 < len(order) && math.Abs(x[order[hi+1]]) == math.Abs(x[order[lo]]) {
			hi++
		}
		// Positions lo..hi hold ranks lo+1..hi+1, whose mean doubled is
		// lo+hi+2.
		for k := lo; k <= hi; k++ {
			doubled[order[k]] = lo + hi + 2
		}
		ties = append(ties, hi-lo+1)
		lo = hi + 1
	}
	return doubled, ties
}

// signedRankExact returns P(S >= w2) and P(S <= w2) for S the sum of the
// doubled ranks given a random sign each, by dynamic programming over S.
// The ranks are added in ascending order, so that the rounding does not
// depend on the order of the differences, and each tail is summed from
// its far end, smallest terms first.
func signedRankExact(doubled []int, w2 int) (greater, less float64) {
	ranks := append([]int(nil), doubled...)
	sort.Ints(ranks)
	total := 0
	for _, r := range ranks {
		total += r
	}
	prob := make([]float64, total+1)
	prob[0] = 1
	reach := 0
	for _, r := range ranks {
		reach += r
		for s := reach; s >= r; s-- {
			prob[s] = 0.5*prob[s] + 0.5*prob[s-r]
		}
		for s := r - 1; s >= 0; s-- {
			prob[s] *= 0.5
		}
	}
	for s := total; s >= w2; s-- {
		greater += prob[s]
	}
	for s := 0; s <= w2; s++ {
		less += prob[s]
	}
	return math.Min(greater, 1), math.Min(less, 1)
}

// signedRankNormal returns the normal approximations of P(W >= w) and
// P(W <= w) for the rank sum W of n differences with the given groups of
// ties.
func signedRankNormal(n int, ties []int, w float64) (greater, less float64) {
	nf := float64(n)
	mean := nf * (nf + 1) / 4
	variance := nf * (nf + 1) * (2*nf + 1) / 24
	for _, t := range ties {
		tf := float64(t)
		variance -= (tf*tf*tf - tf) / 48
	}
	sd := math.Sqrt(variance)
	greater = 0.5 * math.Erfc((w-0.5-mean)/(sd*math.Sqrt2))
	less = 0.5 * math.Erfc(-(w+0.5-mean)/(sd*math.Sqrt2))
	return greater, less
}
