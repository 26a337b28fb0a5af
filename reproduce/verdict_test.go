package reproduce

import (
	"errors"
	"fmt"
	"math"
	"math/rand"
	"strings"
	"testing"

	"github.com/hetgain/hetgain/aggregators"
)

// completions calls f with every way of filling the r remaining gains
// from grid (len(grid)^r of them), appended to gains.
func completions(gains []float64, r int, grid []float64, f func(all []float64)) {
	all := append(append([]float64(nil), gains...), make([]float64, r)...)
	var fill func(i int)
	fill = func(i int) {
		if i == len(all) {
			f(all)
			return
		}
		for _, v := range grid {
			all[i] = v
			fill(i + 1)
		}
	}
	fill(len(gains))
}

// linspace returns n points from lo to hi.
func linspace(lo, hi float64, n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = lo + (hi-lo)*float64(i)/float64(n-1)
	}
	return out
}

// TestBestLowerBoundBruteForce checks BestLowerBound against every
// completion of the remaining gains on a grid of [lo, hi]: none is above
// it, and the best completion with all remaining gains equal, on a fine
// grid, comes within the grid's resolution of it.
func TestBestLowerBoundBruteForce(t *testing.T) {
	rnd := rand.New(rand.NewSource(1))
	for trial := 0; trial < 300; trial++ {
		seeds := 2 + rnd.Intn(6)
		r := 1 + rnd.Intn(min(3, seeds))
		gains := make([]float64, seeds-r)
		for i := range gains {
			gains[i] = 5 * rnd.NormFloat64()
		}
		lo := -20 + 20*rnd.Float64()
		hi := lo + 40*rnd.Float64()
		best, err := BestLowerBound(gains, seeds, lo, hi)
		if err != nil {
			t.Fatalf("gains %v, seeds %d, [%v, %v]: %v", gains, seeds, lo, hi, err)
		}
		completions(gains, r, linspace(lo, hi, 15), func(all []float64) {
			if v := lowerBound(all); v > best+1e-9 {
				t.Fatalf("gains %v, seeds %d, [%v, %v]: completion %v reaches %v > BestLowerBound %v",
					gains, seeds, lo, hi, all, v, best)
			}
		})
		equal := math.Inf(-1)
		for _, x := range linspace(lo, hi, 4001) {
			completions(gains, r, []float64{x}, func(all []float64) { equal = math.Max(equal, lowerBound(all)) })
		}
		// A gain moves the bound by at most 1/n + 2/sqrt(n(n−1)) < 2 per
		// unit, so the best equal completion on the fine grid, whose step is
		// (hi−lo)/4000, is within r·step of the best equal completion.
		if tol := 3 * float64(r) * (hi - lo) / 4000; equal < best-tol-1e-12 {
			t.Fatalf("gains %v, seeds %d, [%v, %v]: BestLowerBound %v, but the best equal completion reaches only %v",
				gains, seeds, lo, hi, best, equal)
		}
	}
}

// TestBestLowerBoundUnbounded checks the three regimes of hi = +Inf
// against completions with large equal remaining gains.
func TestBestLowerBoundUnbounded(t *testing.T) {
	rnd := rand.New(rand.NewSource(2))
	inf := math.Inf(1)
	for _, c := range []struct {
		seeds, finished int
	}{
		{9, 5}, {9, 6}, {9, 7}, {2, 1}, {5, 1}, {5, 2}, {3, 1}, {3, 2}, {13, 9}, {4, 0},
	} {
		gains := make([]float64, c.finished)
		for i := range gains {
			gains[i] = 3 * rnd.NormFloat64()
		}
		r := c.seeds - c.finished
		best, err := BestLowerBound(gains, c.seeds, math.Inf(-1), inf)
		if err != nil {
			t.Fatal(err)
		}
		at := func(x float64) (v float64) {
			completions(gains, r, []float64{x}, func(all []float64) { v = lowerBound(all) })
			return v
		}
		switch excess := r*(c.seeds-1) - 4*c.finished; {
		case excess > 0:
			if !math.IsInf(best, 1) {
				t.Errorf("%d of %d seeds finished: BestLowerBound %v, want +Inf", c.finished, c.seeds, best)
			}
			if v := at(1e6); v < 1e3 {
				t.Errorf("%d of %d seeds finished: remaining gains 1e6 give only %v", c.finished, c.seeds, v)
			}
		case excess == 0:
			if m := mean(gains); math.Abs(best-m) > 1e-12 {
				t.Errorf("%d of %d seeds finished: BestLowerBound %v, want the mean %v", c.finished, c.seeds, best, m)
			}
			// One finished gain has no spread, and then every large enough
			// completion reaches the mean; otherwise none does.
			for _, x := range []float64{10, 100, 1e3} {
				if v := at(x); c.finished == 1 && math.Abs(v-best) > 1e-9 {
					t.Errorf("1 of %d seeds finished: remaining gains %v reach %v, want the mean %v", c.seeds, x, v, best)
				} else if v := at(x); c.finished > 1 && v >= best {
					t.Errorf("%d of %d seeds finished: remaining gains %v reach %v >= the supremum %v", c.finished, c.seeds, x, v, best)
				}
			}
			if v := at(1e8); best-v > 1e-6 {
				t.Errorf("%d of %d seeds finished: remaining gains 1e8 reach %v, want within 1e-6 of %v", c.finished, c.seeds, v, best)
			}
		default:
			finite, err := BestLowerBound(gains, c.seeds, math.Inf(-1), 1e12)
			if err != nil {
				t.Fatal(err)
			}
			if math.IsInf(best, 0) || math.Abs(best-finite) > 1e-12 {
				t.Errorf("%d of %d seeds finished: BestLowerBound %v with hi = +Inf, %v with hi = 1e12", c.finished, c.seeds, best, finite)
			}
		}
	}
}

// TestBestLowerBoundFinished checks that with every run finished the
// bound is Table's own, whatever lo and hi.
func TestBestLowerBoundFinished(t *testing.T) {
	gains := []float64{-10.2, 0.65, 1.51, -11.13, -3.49}
	got, err := BestLowerBound(gains, 5, -1, 1)
	if err != nil {
		t.Fatal(err)
	}
	// mean −4.532, sample std 5.9193...: −4.532 − 2·5.9193/√5.
	want := mean(gains) - 2*sampleStd(gains)/math.Sqrt(5)
	if math.Abs(got-want) > 1e-14 || math.Abs(got-(-9.826)) > 1e-3 {
		t.Errorf("BestLowerBound of 5 finished gains: %v, want %v (about -9.826)", got, want)
	}
}

// TestBestLowerBoundScale checks positive homogeneity, down to values
// whose squares would overflow.
func TestBestLowerBoundScale(t *testing.T) {
	gains := []float64{-1.5, 0.25, 2}
	for _, c := range []struct{ seeds int }{{4}, {5}, {7}} {
		base, err := BestLowerBound(gains, c.seeds, -3, 4)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range []float64{1e-300, 1e-3, 7, 1e200, 1e307} {
			scaled := []float64{gains[0] * s, gains[1] * s, gains[2] * s}
			got, err := BestLowerBound(scaled, c.seeds, -3*s, 4*s)
			if err != nil {
				t.Fatal(err)
			}
			if want := base * s; math.Abs(got-want) > 1e-12*math.Abs(want) {
				t.Errorf("seeds %d, scale %v: %v, want %v", c.seeds, s, got, want)
			}
		}
	}
	if got, err := BestLowerBound([]float64{0, 0}, 3, 0, 0); err != nil || got != 0 {
		t.Errorf("all zero: %v, %v; want 0", got, err)
	}
}

func TestBestLowerBoundErrors(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	for _, c := range []struct {
		name   string
		gains  []float64
		seeds  int
		lo, hi float64
		want   error
	}{
		{"NaN gain", []float64{1, nan}, 3, 0, 1, aggregators.ErrNaN},
		{"infinite gain", []float64{-inf}, 3, 0, 1, aggregators.ErrInf},
		{"one seed", nil, 1, 0, 1, aggregators.ErrRange},
		{"more gains than seeds", []float64{1, 2, 3}, 2, 0, 1, aggregators.ErrRange},
		{"too many seeds", nil, math.MaxInt32 + 1, 0, 1, aggregators.ErrRange},
		{"NaN lo", nil, 3, nan, 1, aggregators.ErrNaN},
		{"NaN hi", nil, 3, 0, nan, aggregators.ErrNaN},
		{"lo above hi", nil, 3, 2, 1, aggregators.ErrRange},
		{"lo +Inf", nil, 3, inf, inf, aggregators.ErrRange},
		{"hi -Inf", nil, 3, -inf, -inf, aggregators.ErrRange},
	} {
		got, err := BestLowerBound(c.gains, c.seeds, c.lo, c.hi)
		if !errors.Is(err, c.want) {
			t.Errorf("%s: error %v, want one wrapping %v", c.name, err, c.want)
		}
		if !math.IsNaN(got) {
			t.Errorf("%s: value %v with an error, want NaN", c.name, got)
		}
	}
}

// FuzzBestLowerBound checks that for any valid input BestLowerBound is a
// number no completion with all remaining gains at lo, at hi or halfway
// exceeds, and an error otherwise.
func FuzzBestLowerBound(f *testing.F) {
	f.Add(1.0, -2.0, 3.0, 2, 5, -1.0, 4.0)
	f.Add(-10.2, 0.65, 1.51, 3, 9, math.Inf(-1), math.Inf(1))
	f.Add(0.0, 0.0, 0.0, 0, 2, 0.0, 0.0)
	f.Fuzz(func(t *testing.T, g0, g1, g2 float64, finished, seeds int, lo, hi float64) {
		if finished < 0 || finished > 3 || seeds > 12 {
			t.Skip()
		}
		gains := []float64{g0, g1, g2}[:finished]
		best, err := BestLowerBound(gains, seeds, lo, hi)
		if err != nil {
			if !math.IsNaN(best) {
				t.Fatalf("value %v with error %v", best, err)
			}
			return
		}
		if math.IsNaN(best) {
			t.Fatalf("gains %v, seeds %d, [%v, %v]: NaN without an error", gains, seeds, lo, hi)
		}
		for _, x := range []float64{lo, hi, lo/2 + hi/2} {
			if math.IsInf(x, 0) || math.IsNaN(x) {
				continue
			}
			completions(gains, seeds-finished, []float64{x}, func(all []float64) {
				v := lowerBound(all)
				if math.IsInf(v, 0) || math.IsNaN(v) {
					return // the completion itself overflows
				}
				if v > best+1e-9*math.Max(1, math.Abs(best)) {
					t.Fatalf("gains %v, seeds %d, [%v, %v]: completion %v reaches %v > %v", gains, seeds, lo, hi, all, v, best)
				}
			})
		}
	})
}

// TestSummaryOpenCells checks the summary's line on a cell with seeds
// still to run: tag-large-30m's (mean, max) with the gains of its first
// five and six seeds, and a clearly positive cell, which gets no line.
func TestSummaryOpenCells(t *testing.T) {
	cells := func(gains ...float64) []Cell {
		out := make([]Cell, len(gains))
		for k, g := range gains {
			out[k] = synthetic("2v2", "mean", "max", k+1, 20, 20)
			out[k].TaskHet, out[k].TaskHom = 20+g, 20
		}
		return out
	}
	five := []float64{-10.20, 0.65, 1.51, -11.13, -3.49}
	for _, c := range []struct {
		gains []float64
		want  string
	}{
		{five, "2v2 mean-max: 5 of 9 seeds finished; the other 4 can still make it clearly positive.\n"},
		// Six finished: the supremum over the other three is the mean of the six.
		{append(five, 0), fmt.Sprintf("2v2 mean-max: 6 of 9 seeds finished; whatever the other 3 give, "+
			"Gain - 2 standard errors stays at most %.3f: they cannot make it clearly positive.\n", mean(append(five, 0)))},
		{append(five, 30), fmt.Sprintf("2v2 mean-max: 6 of 9 seeds finished; the other 3 can still make it clearly "+
			"positive (Gain - 2 standard errors up to %.3f).\n", mean(append(five, 30)))},
		{[]float64{3, 3.1, 2.9}, ""},
		{[]float64{1, 2, 3, 4, 5, 6, 7, 8, 9}, ""},
	} {
		s := (&Results{Experiment: TagLarge30M(), Cells: cells(c.gains...)}).Summary()
		got := ""
		if i := strings.Index(s, "2v2 mean-max: "); i >= 0 {
			got = s[i:]
		}
		if got != c.want {
			t.Errorf("gains %v: summary ends\n%q\nwant\n%q", c.gains, got, c.want)
		}
	}

	// With FirstSeed 4 of Seeds 12 a cell plans nine seeds, not twelve:
	// six finished leave three, as above, and not six, which could still
	// make the same six gains clearly positive.
	e := TagLarge30M()
	e.Seeds, e.FirstSeed = 12, 4
	six := cells(append(five, 0)...)
	for k := range six {
		six[k].Seed += 3
	}
	s := (&Results{Experiment: e, Cells: six}).Summary()
	want := fmt.Sprintf("2v2 mean-max: 6 of 9 seeds finished; whatever the other 3 give, "+
		"Gain - 2 standard errors stays at most %.3f: they cannot make it clearly positive.\n", mean(append(five, 0)))
	if i := strings.Index(s, "2v2 mean-max: "); i < 0 || s[i:] != want {
		t.Errorf("seeds 4 to 12, six finished: summary\n%s\nwant it to end\n%q", s, want)
	}
}

// TestJudge checks Judge's verdict against its definition on random
// gains: the mean, standard deviation and bound against direct sums, Best
// against BestLowerBound, Positive against the bound, and Settled against
// brute force: when settled with seeds to come, no completion on a grid
// of [lo, hi] is clearly positive; when not, one with all remaining gains
// equal is.
func TestJudge(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for trial := 0; trial < 300; trial++ {
		k := 2 + rng.Intn(5)
		gains := make([]float64, k)
		for i := range gains {
			gains[i] = 3 * rng.NormFloat64()
		}
		planned := k + rng.Intn(3)
		threshold := rng.NormFloat64()
		lo, hi := -5.0, 5.0
		v, err := Judge(gains, planned, threshold, lo, hi)
		if err != nil {
			t.Fatal(err)
		}
		var sum, ss float64
		for _, g := range gains {
			sum += g
		}
		m := sum / float64(k)
		for _, g := range gains {
			ss += (g - m) * (g - m)
		}
		sd := math.Sqrt(ss / float64(k-1))
		bound := m - 2*sd/math.Sqrt(float64(k))
		if math.Abs(v.Mean-m) > 1e-12 || math.Abs(v.Std-sd) > 1e-12 || math.Abs(v.LowerBound-bound) > 1e-12 {
			t.Fatalf("gains %v: mean %v std %v bound %v, want %v %v %v", gains, v.Mean, v.Std, v.LowerBound, m, sd, bound)
		}
		best, _ := BestLowerBound(gains, planned, lo, hi)
		if v.Best != best || v.Positive() != (bound > threshold) {
			t.Fatalf("gains %v: Best %v (want %v), Positive %v with bound %v against %v", gains, v.Best, best, v.Positive(), bound, threshold)
		}
		rest := planned - k
		switch {
		case rest == 0:
			if !v.Settled() {
				t.Fatalf("gains %v: every planned seed in, not settled", gains)
			}
		case v.Settled():
			completions(gains, rest, linspace(lo, hi, 21), func(all []float64) {
				if lowerBound(all) > threshold {
					t.Fatalf("gains %v settled with %d to come against %v, but %v gives %v", gains, rest, threshold, all, lowerBound(all))
				}
			})
		case v.Best > threshold+0.01:
			found := false
			for _, x := range linspace(lo, hi, 20001) {
				completions(gains, rest, []float64{x}, func(all []float64) {
					found = found || lowerBound(all) > threshold
				})
			}
			if !found {
				t.Fatalf("gains %v not settled against %v (Best %v), but no completion is clearly positive", gains, threshold, v.Best)
			}
		}
	}
}

// TestJudgeErrors checks that Judge refuses a threshold that is not a
// number or infinite, and names itself in the errors it shares with
// BestLowerBound.
func TestJudgeErrors(t *testing.T) {
	inf := math.Inf(1)
	for _, c := range []struct {
		name      string
		gains     []float64
		planned   int
		threshold float64
		want      error
	}{
		{"NaN threshold", []float64{1, 2}, 3, math.NaN(), aggregators.ErrNaN},
		{"infinite threshold", []float64{1, 2}, 3, inf, aggregators.ErrInf},
		{"NaN gain", []float64{1, math.NaN()}, 3, 0.5, aggregators.ErrNaN},
		{"more gains than planned", []float64{1, 2, 3}, 2, 0.5, aggregators.ErrRange},
	} {
		_, err := Judge(c.gains, c.planned, c.threshold, math.Inf(-1), inf)
		if !errors.Is(err, c.want) || !strings.HasPrefix(fmt.Sprint(err), "reproduce: Judge: ") {
			t.Errorf("%s: error %v, want one from Judge wrapping %v", c.name, err, c.want)
		}
	}
}

// FuzzJudge checks that for any input Judge either returns an error or a
// verdict whose Best is not NaN and that is settled whenever every
// planned seed is in, and never a verdict with a NaN threshold.
func FuzzJudge(f *testing.F) {
	f.Add(1.0, -2.0, 3.0, 3, 5, 0.5, -1.0, 4.0)
	f.Add(18.1, -4.6, 4.3, 3, 3, 0.5, math.Inf(-1), math.Inf(1))
	f.Add(0.0, 0.0, 0.0, 1, 2, math.NaN(), 0.0, 0.0)
	f.Fuzz(func(t *testing.T, g0, g1, g2 float64, finished, planned int, threshold, lo, hi float64) {
		if finished < 0 || finished > 3 || planned > 12 {
			t.Skip()
		}
		gains := []float64{g0, g1, g2}[:finished]
		v, err := Judge(gains, planned, threshold, lo, hi)
		if err != nil {
			return
		}
		if math.IsNaN(v.Best) || math.IsNaN(v.Threshold) || math.IsInf(v.Threshold, 0) {
			t.Fatalf("gains %v, planned %d, threshold %v, [%v, %v]: verdict %+v without an error", gains, planned, threshold, lo, hi, v)
		}
		if finished == planned && !v.Settled() {
			t.Fatalf("every planned seed in, not settled: %+v", v)
		}
	})
}

// TestJoinSeedGains checks that joining two cells gives every seed once,
// ascending with its own gain, named as the named one, and that a seed in
// both or a task evaluation's gains joined with others are refused.
func TestJoinSeedGains(t *testing.T) {
	a := SeedGains{Definition: "train's", Seeds: []int{2, 5}, Gains: []float64{0.2, 0.5}}
	b := SeedGains{Cell: "2v2 mean-max", Definition: "reproduce's", Seeds: []int{1, 3}, Gains: []float64{0.1, 0.3}}
	j, err := JoinSeedGains(a, b)
	if err != nil {
		t.Fatal(err)
	}
	if j.Cell != b.Cell || fmt.Sprint(j.Seeds) != "[1 2 3 5]" || fmt.Sprint(j.Gains) != "[0.1 0.2 0.3 0.5]" {
		t.Errorf("joined %+v", j)
	}
	// Dir is kept where both cells have it, else unknown.
	a.Dir, b.Dir = "runs/tag", "runs/tag"
	if j, err := JoinSeedGains(a, b); err != nil || j.Dir != "runs/tag" {
		t.Errorf("two cells of one directory: joined in %q, %v", j.Dir, err)
	}
	b.Dir = "results/tag-large/2v2/mean-max"
	if j, err := JoinSeedGains(a, b); err != nil || j.Dir != "" {
		t.Errorf("cells of two directories: joined in %q, %v", j.Dir, err)
	}
	a.Dir, b.Dir = "", ""
	if _, err := JoinSeedGains(a, SeedGains{Seeds: []int{5}, Gains: []float64{1}}); err == nil || !strings.Contains(err.Error(), "seed 5") {
		t.Errorf("a seed in both: error %v", err)
	}
	if _, err := JoinSeedGains(a, SeedGains{Task: true, Seeds: []int{7}, Gains: []float64{1}}); err == nil {
		t.Errorf("a task evaluation's gains joined with others: no error")
	}
	if len(a.Seeds) != 2 || a.Seeds[1] != 5 {
		t.Errorf("JoinSeedGains changed its argument: %+v", a)
	}
}

// TestSeedRange checks that SeedRange keeps exactly the seeds in its
// range, each with its own gain, against a filter by hand over every
// range of a cell with a gap in its seeds; that its slices do not alias
// the cell's; and that an empty range panics.
func TestSeedRange(t *testing.T) {
	g := SeedGains{Cell: "2v2 max-max", Definition: "reproduce's", Seeds: []int{1, 2, 3, 5, 8}, Gains: []float64{0.1, 0.2, 0.3, 0.5, 0.8}}
	for first := 0; first <= 9; first++ {
		for last := first; last <= 9; last++ {
			r := g.SeedRange(first, last)
			var want []int
			for _, k := range g.Seeds {
				if first <= k && k <= last {
					want = append(want, k)
				}
			}
			if fmt.Sprint(r.Seeds) != fmt.Sprint(want) || len(r.Gains) != len(want) || r.Cell != g.Cell || r.Definition != g.Definition {
				t.Fatalf("SeedRange(%d, %d) = %+v, want seeds %v", first, last, r, want)
			}
			for i, k := range r.Seeds {
				if r.Gains[i] != float64(k)/10 {
					t.Fatalf("SeedRange(%d, %d): seed %d has gain %v", first, last, k, r.Gains[i])
				}
			}
		}
	}
	r := g.SeedRange(2, 5)
	r.Seeds[0], r.Gains[0] = 99, 99
	if g.Seeds[1] != 2 || g.Gains[1] != 0.2 {
		t.Errorf("SeedRange's result aliases its cell: %+v", g)
	}
	defer func() {
		if e := recover(); e == nil || !strings.Contains(fmt.Sprint(e), "reproduce: seed range 5 to 4") {
			t.Errorf("SeedRange(5, 4): panic %v, want one naming the range", e)
		}
	}()
	g.SeedRange(5, 4)
}

// TestVerdictStringOneSeed checks that a verdict on one seed's gain says
// that its spread and bound need two seeds, rather than printing NaN.
func TestVerdictStringOneSeed(t *testing.T) {
	v, err := Judge([]float64{0.3}, 3, 0.02, -1, 1)
	if err != nil {
		t.Fatal(err)
	}
	s := v.String()
	if strings.Contains(s, "NaN") || !strings.HasPrefix(s, "1 of 3 seeds: mean 0.3 (a standard deviation, and mean − 2 SE, need two seeds) against 0.02: ") {
		t.Errorf("one seed: %q", s)
	}
}
