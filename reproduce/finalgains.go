package reproduce

import (
	"fmt"
	"math"

	"github.com/hetgain/hetgain/figures"
	"gonum.org/v1/plot/vg"
)

// FinalGains draws the final gains of one variant beside the paper's:
// for each (U, T) pair of the experiment, the learned Gain of Table as
// its mean over seeds ± two standard errors (a point alone for one seed,
// nothing for a pair without finished runs), so that a cell is clearly
// positive (Table's Positive) exactly where its bar lies wholly above the
// threshold line; the paper's learned gain ± its standard deviation; and,
// in the matrix game, the closed form. Reference lines mark 0 and the
// threshold. FinalGains panics if the experiment has no variant labelled
// variant.
func (r *Results) FinalGains(variant string) *figures.Figure {
	e := r.Experiment.withDefaults()
	cats, series := r.finalGainSeries(variant)
	tol := e.positiveThreshold()
	title := fmt.Sprintf("%s %s: final gains; clearly positive where a learned bar is above %g", e.Name, variant, tol)
	f := figures.Intervals(title, "ΔR", cats, []float64{0, tol}, series...)
	if w := vg.Length(len(cats)) * 2 * vg.Centimeter; w > f.Width {
		f.Width = w
	}
	return f
}

// finalGainSeries returns the categories of FinalGains, one per (U, T)
// pair, and its series: learned, paper, closed form.
func (r *Results) finalGainSeries(variant string) ([]string, []figures.IntervalSeries) {
	e, v := r.mustVariant(variant)
	learned := map[[2]string]figures.Interval{}
	df := r.Table()
	variants, us, ts := df.Col("Variant").Records(), df.Col("U").Records(), df.Col("T").Records()
	gains, stds, seeds := df.Col("Gain").Float(), df.Col("GainStd").Float(), df.Col("Seeds").Float()
	for i := range variants {
		if variants[i] == variant {
			learned[[2]string{us[i], ts[i]}] = meanStd(gains[i], 2*stds[i]/math.Sqrt(seeds[i]))
		}
	}
	nan := figures.Interval{Value: math.NaN(), Lo: math.NaN(), Hi: math.NaN()}
	mine := figures.IntervalSeries{Name: "learned, mean ± 2 SE over seeds"}
	paper := figures.IntervalSeries{Name: "paper, mean ± std"}
	closed := figures.IntervalSeries{Name: "closed form"}
	var cats []string
	for _, pair := range e.pairs() {
		cats = append(cats, "U="+pair[0]+"\nT="+pair[1])
		l, ok := learned[pair]
		if !ok {
			l = nan
		}
		mine.Points = append(mine.Points, l)
		p := nan
		if pg, ok := Paper(e.paperName(), variant, pair[0], pair[1]); ok {
			p = meanStd(pg.Mean, pg.Std)
		}
		paper.Points = append(paper.Points, p)
		th, _ := theory(v.Env, pair[0], pair[1])
		closed.Points = append(closed.Points, figures.Interval{Value: th, Lo: math.NaN(), Hi: math.NaN()})
	}
	return cats, []figures.IntervalSeries{mine, paper, closed}
}

// meanStd returns the interval m ± half, or the point m alone if half is
// NaN.
func meanStd(m, half float64) figures.Interval {
	if math.IsNaN(half) {
		return figures.Interval{Value: m, Lo: math.NaN(), Hi: math.NaN()}
	}
	return figures.Interval{Value: m, Lo: m - half, Hi: m + half}
}
