package gain

import (
	"fmt"

	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
	"github.com/hetgain/hetgain/aggregators"
)

// notApplicable is the PredictedSign of rows with discrete allocations.
const notApplicable = "n/a"

// ClosedFormTable returns the closed-form optima of ClosedForm for every
// U and T in {min, mean, max}, every N in ns, M in ms and allocation kind
// in kinds (nil means Continuous and Discrete), beside what Predict says.
// Rows are ordered by allocation kind, U, T, N and M. The columns are
//
//	U, T           string   the operators, "min", "mean" or "max"
//	N, M           int      agents and tasks
//	Allocation     string   "continuous" or "discrete"
//	RHet, RHom     float    the optima
//	Gain           float    RHet − RHom
//	PredictedSign  string   Predict's Sign, or "n/a" for discrete rows
//	Rule           string   Predict's Rule, or why there is none
//
// Predict's theorems concern continuous allocations, so discrete rows carry
// no prediction. ClosedFormTable returns an error wrapping ErrSize if ns or
// ms is empty or holds a value below 1, and ErrOperator for an unknown kind.
func ClosedFormTable(ns, ms []int, kinds []Allocation) (dataframe.DataFrame, error) {
	if len(ns) == 0 || len(ms) == 0 {
		return dataframe.DataFrame{}, fmt.Errorf("gain: table needs at least one N and one M: %w", ErrSize)
	}
	if kinds == nil {
		kinds = []Allocation{Continuous, Discrete}
	}
	var t closedFormRows
	ops := []aggregators.Operator{aggregators.Min{}, aggregators.Mean{}, aggregators.Max{}}
	for _, kind := range kinds {
		for _, u := range ops {
			for _, op := range ops {
				for _, n := range ns {
					for _, m := range ms {
						if err := t.add(u, op, n, m, kind); err != nil {
							return dataframe.DataFrame{}, err
						}
					}
				}
			}
		}
	}
	return t.frame(), nil
}

// closedFormRows accumulates the columns of ClosedFormTable.
type closedFormRows struct {
	u, t, kind, sign, rule []string
	n, m                   []int
	het, hom, delta        []float64
}

func (r *closedFormRows) add(u, t aggregators.Operator, n, m int, kind Allocation) error {
	g, err := ClosedForm(u, t, n, m, kind)
	if err != nil {
		return err
	}
	sign, rule := notApplicable, "none: the theorems concern continuous allocations"
	if kind == Continuous {
		p, err := Predict(u, t, n, m)
		if err != nil {
			return err
		}
		sign, rule = p.Sign.String(), p.Rule
	}
	r.u, r.t, r.kind = append(r.u, u.String()), append(r.t, t.String()), append(r.kind, kind.String())
	r.n, r.m = append(r.n, n), append(r.m, m)
	r.het, r.hom, r.delta = append(r.het, g.Het), append(r.hom, g.Hom), append(r.delta, g.Delta)
	r.sign, r.rule = append(r.sign, sign), append(r.rule, rule)
	return nil
}

func (r *closedFormRows) frame() dataframe.DataFrame {
	return dataframe.New(
		series.New(r.u, series.String, "U"),
		series.New(r.t, series.String, "T"),
		series.New(r.n, series.Int, "N"),
		series.New(r.m, series.Int, "M"),
		series.New(r.kind, series.String, "Allocation"),
		series.New(r.het, series.Float, "RHet"),
		series.New(r.hom, series.Float, "RHom"),
		series.New(r.delta, series.Float, "Gain"),
		series.New(r.sign, series.String, "PredictedSign"),
		series.New(r.rule, series.String, "Rule"),
	)
}
