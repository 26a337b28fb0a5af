package main

import (
	"errors"
	"flag"
	"fmt"
	"sort"
	"strings"

	"github.com/hetgain/hetgain/reproduce"
)

var hetgpsCompareCommand = &command{
	name:     "hetgps-compare",
	summary:  "compare two HetGPS searches seed by seed (McNemar and signed-rank tests)",
	synopsis: "[-plot FILE [-plot-scale asinh]] DIR_A DIR_B",
	about: `
Hetgps-compare reads two directories of HetGPS runs (of hetgps or
reproduce hetgps, finished or not) from their own spec.json files, and
for every setting the two share, pairs the seeds finished in both by
whether each ended as the theory expects (the "as expected" of hetgps's
summary). It prints the seeds as expected under both, under neither and
under one only, and the one-sided exact McNemar p-value of each
direction: the chance, were A and B alike, of at least that many of the
seeds that differ going B's way (or A's). It then pairs the gains the
seeds ended at (the mean over the last tenth of the iterations, as in the
summary), gives the medians and how many seeds ended higher under each,
and the one-sided p-values of Wilcoxon's signed-rank test of B's gain
less A's (exact up to 500 seeds): the outcome test counts seeds that
crossed the verdict's lines, the gain test uses how far each ended; -plot
draws those gains, each seed a line from A (left) to B (right), and
-plot-scale asinh on a scale that keeps a few seeds far from the rest
from flattening the others (as compare's); "wrote FILE" follows the
comparison. Seeds finished in one directory only are counted and left
out; A and B without a seed finished in both under the same setting are
refused (exit status 2), and nothing is written.

Run the two searches on the same seeds (the same -seeds and -first-seed)
with one change between them, as -clamp or another -theta-lr, and decide
before running what p will count. To test again after seeing a result,
run fresh seeds (-seeds 36 -first-seed 19 after -seeds 18) rather than
adding seeds to the same test. It trains nothing and is instant.`,
	examples: []example{
		{"hetgain hetgps-compare runs/powersum runs/powersum-clamp", "does the clamp change how many seeds end as the paper?"},
	},
	setup: setupHetGPSCompare,
}

func init() {
	registerBeforeHelp(hetgpsCompareCommand)
}

func setupHetGPSCompare(fs *flag.FlagSet) func(*app, *flag.FlagSet) error {
	plotPath := fs.String("plot", "", "draw the gains the seeds ended at, each a line from A to B, to `FILE` ("+pictureKinds()+")")
	plotScale := plotScaleFlag(fs)
	return func(a *app, fs *flag.FlagSet) error {
		dirs, err := operands(fs, a.args)
		if err != nil {
			return err
		}
		if len(dirs) != 2 {
			return usagef("want two directories of HetGPS runs, A and B; got %d argument(s)", len(dirs))
		}
		if err := checkPlotFlag(*plotPath); err != nil {
			return err
		}
		if err := checkPlotScale(fs, *plotScale, *plotPath); err != nil {
			return err
		}
		var res [2]*reproduce.HetGPSResults
		for k, dir := range dirs {
			r, err := loadHetGPSDir(dir)
			if err != nil {
				return err
			}
			res[k] = r
		}
		comps := reproduce.CompareHetGPS(res[0], res[1])
		if len(comps) == 0 { // nothing to compare, nor to draw
			return usagef("A and B share no seed finished in both under the same setting (A: %s; B: %s); run both on the same seeds",
				finishedSeeds(res[0]), finishedSeeds(res[1]))
		}
		if _, err := fmt.Fprint(a.stdout, hetgpsComparison(dirs, res, comps)); err != nil {
			return err
		}
		if *plotPath != "" {
			var pairs []reproduce.PairedGains
			for _, c := range comps {
				pairs = append(pairs, c.Paired())
			}
			if err := savePairedGains(*plotPath, *plotScale, "Gains at the end of the search, seed by seed", dirs, pairs); err != nil {
				return err
			}
			fmt.Fprintf(a.stdout, "wrote %s\n", *plotPath)
		}
		return nil
	}
}

// loadHetGPSDir reads the experiment of dir from its runs' spec.json and
// loads its finished runs. A directory that is missing, holds no HetGPS
// run or runs that differ is an error (exit status 1), as every input
// that is not there or cannot be read.
func loadHetGPSDir(dir string) (*reproduce.HetGPSResults, error) {
	e, err := reproduce.ReadHetGPSExperiment(dir)
	if err == nil {
		var r *reproduce.HetGPSResults
		if r, err = reproduce.LoadHetGPS(e, dir); err == nil {
			return r, nil
		}
	}
	return nil, errors.New(strings.TrimPrefix(err.Error(), "reproduce: "))
}

// finishedSeeds lists r's finished seeds setting by setting, as
// "matrix2 seeds 1-3, capture seeds none".
func finishedSeeds(r *reproduce.HetGPSResults) string {
	outcomes := r.Outcomes()
	var parts []string
	for _, s := range r.Experiment.Settings {
		var seeds []int
		for _, o := range outcomes {
			if o.Setting == s.Label {
				seeds = append(seeds, o.Seed)
			}
		}
		sort.Ints(seeds)
		parts = append(parts, s.Label+" seeds "+seedRanges(seeds))
	}
	return strings.Join(parts, ", ")
}

// hetgpsComparison describes both directories and their comparison.
func hetgpsComparison(dirs []string, res [2]*reproduce.HetGPSResults, comps []reproduce.HetGPSComparison) string {
	var b strings.Builder
	for k, r := range res {
		fmt.Fprintf(&b, "%c: %s (expected: %s)\n", 'A'+k, dirs[k], r.Experiment.Expect)
		outcomes := r.Outcomes()
		for _, s := range r.Experiment.Settings {
			n, yes := 0, 0
			for _, o := range outcomes {
				if o.Setting == s.Label {
					n++
					if o.AsExpected {
						yes++
					}
				}
			}
			var params []string
			for _, p := range s.Spec.Params {
				params = append(params, p.String())
			}
			fmt.Fprintf(&b, "   %s (%s; θ: %s): %d of %d finished seeds as expected\n",
				s.Label, s.Spec.Run.Env.String(), strings.Join(params, "; "), yes, n)
		}
	}
	for _, c := range comps {
		fmt.Fprintf(&b, "%s: %d seeds finished in both", c.Setting, len(c.Seeds))
		if c.Unpaired > 0 {
			fmt.Fprintf(&b, " (%d in one only, left out)", c.Unpaired)
		}
		fmt.Fprintf(&b, "; as expected under both %d, under neither %d, under A only %d %v, under B only %d %v\n",
			c.Both, c.Neither, len(c.OnlyA), c.OnlyA, len(c.OnlyB), c.OnlyB)
		fmt.Fprintf(&b, "   one-sided exact McNemar p: B better than A %.4g, A better than B %.4g\n",
			c.P, reproduce.McNemarP(len(c.OnlyB), len(c.OnlyA)))
		writeGainComparison(&b, c)
	}
	return b.String()
}

// writeGainComparison describes the gains the paired seeds of c ended at
// and their signed-rank test.
func writeGainComparison(b *strings.Builder, c reproduce.HetGPSComparison) {
	sum := c.Paired().Summary()
	fmt.Fprintf(b, "   gain at the end (median): A %.3g, B %.3g, B − A %.3g; seeds higher under B %d, under A %d\n",
		sum.MedianA, sum.MedianB, sum.Median, sum.Higher, sum.Lower)
	writeSignedRank(b, c.Gain)
}

// writeSignedRank writes both one-sided p-values of a signed-rank test of
// B's gains less A's.
func writeSignedRank(b *strings.Builder, test reproduce.SignedRank) {
	kind := "exact"
	if !test.Exact {
		kind = "normal approximation"
	}
	fmt.Fprintf(b, "   one-sided signed-rank p (%s, %d non-zero differences): B higher than A %.4g, A higher than B %.4g\n",
		kind, test.N, test.Greater, test.Less)
}
