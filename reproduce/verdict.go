package reproduce

import (
	"fmt"
	"math"

	"github.com/hetgain/hetgain/aggregators"
)

// lowerBound returns the lower bound on a cell's gain that Table compares
// with the threshold: the mean of gains minus two standard errors (NaN
// for fewer than two gains).
func lowerBound(gains []float64) float64 {
	return mean(gains) - 2*sampleStd(gains)/math.Sqrt(float64(len(gains)))
}

// BestLowerBound returns the largest value that Table's lower bound on a
// cell's gain, the mean minus two standard errors of its seeds' gains, can
// still reach: gains are the final gains of the runs finished so far,
// seeds is the number of runs planned for the cell (at least 2 and at
// least len(gains)), and each of the seeds − len(gains) runs still to come
// may end with any gain in [lo, hi]. lo may be −Inf and hi +Inf.
//
// If it is at most the cell's threshold (Experiment.PositiveThreshold, or
// PositiveTolerance × Scale), no result of the remaining runs can make the
// cell clearly positive, and training them cannot change that verdict.
// With hi = +Inf the value is a supremum, approached as the remaining gains
// grow, and it is +Inf while enough runs remain:
// 4·len(gains) < (seeds − len(gains))·(seeds − 1). At equality it is the
// mean of gains, reached only if the gains are all equal. With no run left
// it is the bound itself.
//
// BestLowerBound returns an error wrapping aggregators.ErrNaN for a gain
// or a bound that is NaN, aggregators.ErrInf for an infinite gain, and
// aggregators.ErrRange for seeds below 2, below len(gains) or above
// math.MaxInt32, lo > hi, lo = +Inf or hi = −Inf.
func BestLowerBound(gains []float64, seeds int, lo, hi float64) (float64, error) {
	if err := checkBestLowerBound(gains, seeds, lo, hi); err != nil {
		return math.NaN(), err
	}
	// The bound is positively homogeneous: scaling the gains and [lo, hi]
	// by s > 0 scales it by s. Work on values in [-1, 1], which cannot
	// overflow.
	s := scaleOf(gains, lo, hi)
	if s == 0 {
		s = 1 // every gain and every finite bound is 0
	}
	scaled := make([]float64, len(gains))
	for i, g := range gains {
		scaled[i] = g / s
	}
	best := bestLowerBound(scaled, seeds, lo/s, hi/s)
	return best * s, nil
}

// scaleOf returns the largest absolute value among gains and the finite
// ones of lo and hi.
func scaleOf(gains []float64, lo, hi float64) float64 {
	var s float64
	for _, v := range append([]float64{lo, hi}, gains...) {
		if !math.IsInf(v, 0) {
			s = math.Max(s, math.Abs(v))
		}
	}
	return s
}

// bestLowerBound is BestLowerBound on valid arguments.
func bestLowerBound(gains []float64, seeds int, lo, hi float64) float64 {
	k, r, n := len(gains), seeds-len(gains), float64(seeds)
	var mk, ss float64 // the mean of gains and their sum of squared deviations
	if k > 0 {
		mk = mean(gains)
		for _, g := range gains {
			ss += (g - mk) * (g - mk)
		}
	}
	// By symmetry and concavity in the remaining gains, the best is
	// reached with all of them at one value x = mk + d, where
	//   bound(d) = mk + a·d − c·sqrt(ss + b·d²)
	// with a = r/n, b = k·r/n, c = 2/sqrt(n(n−1)); bound is concave in d.
	a, b, c := float64(r)/n, float64(k*r)/n, 2/math.Sqrt(n*(n-1))
	bound := func(d float64) float64 { return mk + a*d - c*math.Hypot(math.Sqrt(ss), math.Sqrt(b)*d) }
	if r == 0 {
		return bound(0)
	}
	// The slope of bound as d → +∞ is a − c·sqrt(b), whose sign is that
	// of excess = r(n−1) − 4k (compared in integers, exactly).
	excess := int64(r)*int64(seeds-1) - 4*int64(k)
	dStar := math.Inf(1) // the unconstrained maximiser of bound
	if excess < 0 {
		// bound'(d) = 0 at d = a·sqrt(ss / (b·(c²b − a²))), where
		// c²b − a² = −r·excess / (n²(n−1)).
		dStar = a * math.Sqrt(ss/(b*float64(r)*float64(-excess)/(n*n*(n-1))))
	}
	d := math.Min(math.Max(dStar, lo-mk), hi-mk)
	if !math.IsInf(d, 1) {
		return bound(d)
	}
	if excess > 0 {
		return math.Inf(1)
	}
	// excess == 0: c·sqrt(b) = a, so bound(d) − mk = a·(d − sqrt(ss/b + d²)) → 0.
	return mk
}

// checkBestLowerBound returns the error BestLowerBound documents, or nil.
func checkBestLowerBound(gains []float64, seeds int, lo, hi float64) error {
	for i, g := range gains {
		switch {
		case math.IsNaN(g):
			return fmt.Errorf("reproduce: BestLowerBound: gain %d: %w", i, aggregators.ErrNaN)
		case math.IsInf(g, 0):
			return fmt.Errorf("reproduce: BestLowerBound: gain %d is %v: %w", i, g, aggregators.ErrInf)
		}
	}
	switch {
	case seeds < 2:
		return fmt.Errorf("reproduce: BestLowerBound: %d seeds planned, want at least 2 (a standard error needs two): %w",
			seeds, aggregators.ErrRange)
	case seeds > math.MaxInt32:
		return fmt.Errorf("reproduce: BestLowerBound: %d seeds planned, want at most %d: %w",
			seeds, math.MaxInt32, aggregators.ErrRange)
	case seeds < len(gains):
		return fmt.Errorf("reproduce: BestLowerBound: %d gains but only %d seeds planned: %w",
			len(gains), seeds, aggregators.ErrRange)
	case math.IsNaN(lo) || math.IsNaN(hi):
		return fmt.Errorf("reproduce: BestLowerBound: bounds [%v, %v] of the remaining gains: %w", lo, hi, aggregators.ErrNaN)
	case lo > hi || math.IsInf(lo, 1) || math.IsInf(hi, -1):
		return fmt.Errorf("reproduce: BestLowerBound: bounds [%v, %v] of the remaining gains: want lo <= hi, lo < +Inf, hi > -Inf: %w",
			lo, hi, aggregators.ErrRange)
	}
	return nil
}
