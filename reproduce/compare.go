package reproduce

import (
	"math"
	"sort"
)

// McNemarP returns the one-sided exact p-value of McNemar's test for
// paired yes/no outcomes, such as "this seed ended as the paper" for the
// same seeds run two ways, A and B. Only the discordant pairs count:
// onlyA seeds were yes under A alone and onlyB under B alone. McNemarP is
// the probability of onlyB or more of the onlyA + onlyB discordant pairs
// favouring B if either way were as likely, P(X >= onlyB) for X binomial
// with n = onlyA + onlyB and p = 1/2: small when B is better. It is 1
// when there are no discordant pairs. McNemarP panics if a count is
// negative.
func McNemarP(onlyA, onlyB int) float64 {
	if onlyA < 0 || onlyB < 0 {
		panic("reproduce: McNemarP of a negative count")
	}
	n := onlyA + onlyB
	// The terms C(n, k) 2^-n, in log space (either factor overflows
	// float64 for n above about a thousand), are summed over the shorter
	// tail from its small end, so that p is exact to rounding at both ends:
	// P(X >= onlyB) directly if onlyB is above n/2, else 1 − P(X < onlyB).
	term := func(k int) float64 { return math.Exp(logChoose(n, k) - float64(n)*math.Ln2) }
	var tail float64
	if 2*onlyB > n {
		for k := n; k >= onlyB; k-- {
			tail += term(k)
		}
		return math.Min(tail, 1)
	}
	for k := 0; k < onlyB; k++ {
		tail += term(k)
	}
	return math.Max(1-tail, 0)
}

// logChoose returns log C(n, k) for 0 <= k <= n.
func logChoose(n, k int) float64 {
	ln, _ := math.Lgamma(float64(n + 1))
	lk, _ := math.Lgamma(float64(k + 1))
	lnk, _ := math.Lgamma(float64(n - k + 1))
	return ln - lk - lnk
}

// HetGPSComparison pairs the seeds of one setting searched two ways, A
// and B (without and with a change, say), by their outcome
// (HetGPSOutcome.AsExpected) and by the gain each ended at
// (HetGPSOutcome.GainEnd).
type HetGPSComparison struct {
	Setting string
	// Seeds are the seeds with a finished run under both, ascending;
	// Unpaired counts the seeds finished under one only, which the
	// comparison leaves out.
	Seeds    []int
	Unpaired int
	// Both and Neither count the seeds as expected under both and under
	// neither; OnlyA and OnlyB list those as expected under one only.
	Both, Neither int
	OnlyA, OnlyB  []int
	// P is McNemarP(len(OnlyA), len(OnlyB)): small when B ends as
	// expected in more seeds than chance would give.
	P float64
	// GainA and GainB are the gains the searches ended at, for the Seeds
	// in order. Gain is the signed-rank test of GainB − GainA over the
	// seeds where both are numbers (a run whose θ never stepped has
	// none): Gain.Greater is small when B ends at higher gains.
	GainA, GainB []float64
	Gain         SignedRank
}

// CompareHetGPS pairs the runs of a and b seed by seed, for each setting
// with runs in both (in a's order), so that two variants of a search run
// on the same seeds can be compared by the paired tests their outcomes
// and gains call for rather than by their counts alone. The two need not
// be the same experiment: a may be a preset and b the same with a
// parameter clamped, say; the outcomes are each judged by their own
// experiment.
func CompareHetGPS(a, b *HetGPSResults) []HetGPSComparison {
	type key struct {
		setting string
		seed    int
	}
	outA, outB := a.Outcomes(), b.Outcomes()
	inB := map[key]HetGPSOutcome{}
	for _, o := range outB {
		inB[key{o.Setting, o.Seed}] = o
	}
	var settings []string
	pairs := map[string][][2]HetGPSOutcome{}
	paired := map[key]bool{}
	for _, o := range outA {
		k := key{o.Setting, o.Seed}
		ob, ok := inB[k]
		if !ok {
			continue
		}
		paired[k] = true
		if _, seen := pairs[o.Setting]; !seen {
			settings = append(settings, o.Setting)
		}
		pairs[o.Setting] = append(pairs[o.Setting], [2]HetGPSOutcome{o, ob})
	}
	out := make([]HetGPSComparison, len(settings))
	index := map[string]int{}
	for i, s := range settings {
		out[i] = comparePairs(s, pairs[s])
		index[s] = i
	}
	for _, o := range append(outA, outB...) {
		if i, ok := index[o.Setting]; ok && !paired[key{o.Setting, o.Seed}] {
			out[i].Unpaired++
		}
	}
	return out
}

// comparePairs compares the outcomes of one setting under A and B, paired
// by seed.
func comparePairs(setting string, pairs [][2]HetGPSOutcome) HetGPSComparison {
	sort.Slice(pairs, func(i, j int) bool { return pairs[i][0].Seed < pairs[j][0].Seed })
	c := HetGPSComparison{Setting: setting}
	var diffs []float64
	for _, p := range pairs {
		oa, ob := p[0], p[1]
		c.Seeds = append(c.Seeds, oa.Seed)
		switch {
		case oa.AsExpected && ob.AsExpected:
			c.Both++
		case oa.AsExpected:
			c.OnlyA = append(c.OnlyA, oa.Seed)
		case ob.AsExpected:
			c.OnlyB = append(c.OnlyB, oa.Seed)
		default:
			c.Neither++
		}
		c.GainA = append(c.GainA, oa.GainEnd)
		c.GainB = append(c.GainB, ob.GainEnd)
		if d := ob.GainEnd - oa.GainEnd; !math.IsNaN(d) && !math.IsInf(d, 0) {
			diffs = append(diffs, d)
		}
	}
	c.P = McNemarP(len(c.OnlyA), len(c.OnlyB))
	var err error
	if c.Gain, err = SignedRankTest(diffs); err != nil {
		panic(err) // diffs holds numbers only
	}
	return c
}

// Paired returns the gains of c as a PairedGains of the cell c.Setting,
// for PairedGainsFigure.
func (c HetGPSComparison) Paired() PairedGains {
	return PairedGains{CellA: c.Setting, CellB: c.Setting, Seeds: c.Seeds, GainA: c.GainA, GainB: c.GainB, Test: c.Gain}
}
