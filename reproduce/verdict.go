package reproduce

import (
	"fmt"
	"math"
	"strings"

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
	if err := checkBestLowerBound("BestLowerBound", gains, seeds, lo, hi); err != nil {
		return math.NaN(), err
	}
	return scaledBestLowerBound(gains, seeds, lo, hi), nil
}

// scaledBestLowerBound is BestLowerBound on valid arguments.
func scaledBestLowerBound(gains []float64, seeds int, lo, hi float64) float64 {
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
	return bestLowerBound(scaled, seeds, lo/s, hi/s) * s
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

// bestLowerBound is BestLowerBound on valid arguments scaled into [-1, 1].
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

// checkBestLowerBound returns the error BestLowerBound documents, or nil,
// naming fn, the exported function checking its arguments.
func checkBestLowerBound(fn string, gains []float64, seeds int, lo, hi float64) error {
	for i, g := range gains {
		switch {
		case math.IsNaN(g):
			return fmt.Errorf("reproduce: %s: gain %d: %w", fn, i, aggregators.ErrNaN)
		case math.IsInf(g, 0):
			return fmt.Errorf("reproduce: %s: gain %d is %v: %w", fn, i, g, aggregators.ErrInf)
		}
	}
	switch {
	case seeds < 2:
		return fmt.Errorf("reproduce: %s: %d seeds planned, want at least 2 (a standard error needs two): %w", fn, seeds, aggregators.ErrRange)
	case seeds > math.MaxInt32:
		return fmt.Errorf("reproduce: %s: %d seeds planned, want at most %d: %w", fn, seeds, math.MaxInt32, aggregators.ErrRange)
	case seeds < len(gains):
		return fmt.Errorf("reproduce: %s: %d gains but only %d seeds planned: %w", fn, len(gains), seeds, aggregators.ErrRange)
	case math.IsNaN(lo) || math.IsNaN(hi):
		return fmt.Errorf("reproduce: %s: bounds [%v, %v] of the remaining gains: %w", fn, lo, hi, aggregators.ErrNaN)
	case lo > hi || math.IsInf(lo, 1) || math.IsInf(hi, -1):
		return fmt.Errorf("reproduce: %s: bounds [%v, %v] of the remaining gains: want lo <= hi, lo < +Inf, hi > -Inf: %w", fn, lo, hi, aggregators.ErrRange)
	}
	return nil
}

// A Verdict reads a cell's learned gains by the rule every reproduction
// here is judged by, fixed before its runs: the cell is clearly positive
// iff the mean of its seeds' final gains less two standard errors exceeds
// a threshold, over the number of seeds planned. Judge makes one, also
// while seeds are still to come: it says whether they can still change
// the verdict.
type Verdict struct {
	// Gains are the final gains of the seeds finished, Planned the
	// number of seeds planned (at least len(Gains)), and Threshold the
	// smallest lower bound that counts as clearly positive.
	Gains     []float64
	Planned   int
	Threshold float64
	// Mean, Std and SE are the mean of Gains, their sample standard
	// deviation and its standard error Std/√len(Gains); Std and SE are
	// NaN for fewer than two gains, Mean for none.
	Mean, Std, SE float64
	// LowerBound is Mean − 2 SE, NaN for fewer than two gains.
	LowerBound float64
	// Best is the largest LowerBound that the planned seeds can reach if
	// each seed still to come ends with a gain in [Lo, Hi]
	// (BestLowerBound); with no seed to come it is LowerBound.
	Best   float64
	Lo, Hi float64
}

// Judge returns the verdict on gains, the final gains of the seeds
// finished so far, of a cell planned to have planned seeds, against
// threshold, the seeds still to come each ending with a gain in [lo, hi]
// (lo may be −Inf and hi +Inf). It returns the errors of BestLowerBound,
// and one wrapping aggregators.ErrNaN or aggregators.ErrInf for a
// threshold that is NaN or infinite.
func Judge(gains []float64, planned int, threshold, lo, hi float64) (Verdict, error) {
	switch {
	case math.IsNaN(threshold):
		return Verdict{}, fmt.Errorf("reproduce: Judge: threshold: %w", aggregators.ErrNaN)
	case math.IsInf(threshold, 0):
		return Verdict{}, fmt.Errorf("reproduce: Judge: threshold %v: %w", threshold, aggregators.ErrInf)
	}
	if err := checkBestLowerBound("Judge", gains, planned, lo, hi); err != nil {
		return Verdict{}, err
	}
	v := Verdict{Gains: append([]float64(nil), gains...), Planned: planned, Threshold: threshold,
		Mean: mean(gains), Std: sampleStd(gains), Best: scaledBestLowerBound(gains, planned, lo, hi), Lo: lo, Hi: hi}
	v.SE = v.Std / math.Sqrt(float64(len(gains)))
	v.LowerBound = v.Mean - 2*v.SE
	return v, nil
}

// Positive reports whether the seeds finished make the cell clearly
// positive: LowerBound > Threshold. While seeds are still to come it is
// the verdict so far, which they may overturn.
func (v Verdict) Positive() bool { return v.LowerBound > v.Threshold }

// Settled reports whether the seeds still to come cannot change the
// verdict: all planned seeds are in, or Best is at most Threshold, so
// that no gains of theirs in [Lo, Hi] can make the cell clearly positive.
// A cell clearly positive so far is not settled before its last seed
// (a seed to come can pull the bound down, without limit for Lo = −Inf).
func (v Verdict) Settled() bool {
	return len(v.Gains) == v.Planned || !(v.Best > v.Threshold)
}

// String describes v in one line, as "7 of 9 seeds: mean 5.926 ± 7.223
// (std), mean − 2 SE 0.4655 against 0.5: not clearly positive so far;
// not settled: the 2 seed(s) to come can still reach 3.196".
func (v Verdict) String() string {
	var b strings.Builder
	if len(v.Gains) < 2 {
		fmt.Fprintf(&b, "%d of %d seeds: mean %.4g (a standard deviation, and mean − 2 SE, need two seeds) against %.4g: ",
			len(v.Gains), v.Planned, v.Mean, v.Threshold)
	} else {
		fmt.Fprintf(&b, "%d of %d seeds: mean %.4g ± %.4g (std), mean − 2 SE %.4g against %.4g: ",
			len(v.Gains), v.Planned, v.Mean, v.Std, v.LowerBound, v.Threshold)
	}
	rest := v.Planned - len(v.Gains)
	switch {
	case rest == 0 && v.Positive():
		b.WriteString("clearly positive")
	case rest == 0:
		b.WriteString("not clearly positive")
	case v.Settled():
		fmt.Fprintf(&b, "not clearly positive, settled: the %d seed(s) to come, each in [%v, %v], can reach at most %.4g",
			rest, v.Lo, v.Hi, v.Best)
	case v.Positive():
		fmt.Fprintf(&b, "clearly positive so far; not settled: %d seed(s) to come", rest)
	default:
		fmt.Fprintf(&b, "not clearly positive so far; not settled: the %d seed(s) to come can still reach %.4g", rest, v.Best)
	}
	return b.String()
}
