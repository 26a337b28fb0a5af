package gain

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
	"github.com/hetgain/hetgain/aggregators"
	"gonum.org/v1/gonum/mat"
)

// NumericalTableColumns are the columns of NumericalTable.
var NumericalTableColumns = []string{"U", "T", "N", "M", "Allocation", "ClosedForm", "Numerical",
	"Difference", "RHet", "RHom", "HetAlloc", "HomRow"}

// ExtremePairs returns the nine pairs {U, T} with U and T in
// {min, mean, max}, in the order of the paper's table (by U, then T).
func ExtremePairs() [][2]aggregators.Operator {
	ops := []aggregators.Operator{aggregators.Min{}, aggregators.Mean{}, aggregators.Max{}}
	pairs := make([][2]aggregators.Operator, 0, len(ops)*len(ops))
	for _, u := range ops {
		for _, t := range ops {
			pairs = append(pairs, [2]aggregators.Operator{u, t})
		}
	}
	return pairs
}

// NumericalTable returns the numerical optima (Numerical) of R = U∘T for
// every pair {U, T} in pairs (nil means ExtremePairs), N in ns, M in ms
// and allocation kind in kinds (nil means Continuous and Discrete), beside
// the closed form where ClosedForm has one. Rows are ordered by kind, pair,
// N and M. The columns are
//
//	U, T        string  the operators' specifications
//	N, M        int     agents and tasks
//	Allocation  string  "continuous" or "discrete"
//	ClosedForm  float   ClosedForm's ΔR, NaN when there is none or
//	                    opts.Budget is not the paper's {0, 1}
//	Numerical   float   Numerical's ΔR
//	Difference  float   Numerical − ClosedForm (NaN without closed form)
//	RHet, RHom  float   Numerical's optima
//	HetAlloc    string  Numerical's allocations, as FormatAllocationExact
//	HomRow      string  writes them, at full precision ("" when nil)
//
// Every row is computed with opts (nil means the zero Options), seed
// included, so a row does not depend on the rest of the table; rows are
// computed in parallel on runtime.GOMAXPROCS(0) goroutines.
//
// NumericalTable returns an error wrapping ErrSize if ns or ms is empty or
// holds a value below 1, ErrOperator for a nil operator or an unknown kind,
// and the first error of Numerical, with the row it concerns.
func NumericalTable(ns, ms []int, pairs [][2]aggregators.Operator, kinds []Allocation, opts *Options) (dataframe.DataFrame, error) {
	rows, err := sweepTableRows(ns, ms, pairs, kinds)
	if err != nil {
		return dataframe.DataFrame{}, err
	}
	var o Options
	if opts != nil {
		o = *opts
	}
	gains := make([]Gains, len(rows))
	todo := make([]int, len(rows))
	for k := range todo {
		todo[k] = k
	}
	compute := func(k int) (Gains, error) {
		row := rows[k]
		opts := o
		g, err := Numerical(aggregators.NewReward(row.u, row.t), row.n, row.m, row.kind, &opts)
		if err != nil {
			return g, fmt.Errorf("gain: U = %v, T = %v, N = %d, M = %d, %v: %w", row.u, row.t, row.n, row.m, row.kind, err)
		}
		return g, nil
	}
	var firstErr error
	sweepPool(todo, 0, nil, compute, func(k int, g Gains, err error) bool {
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			return false
		}
		gains[k] = g
		return true
	})
	if firstErr != nil {
		return dataframe.DataFrame{}, firstErr
	}
	var us, ts, kindNames, hetAllocs, homRows []string
	var nCol, mCol []int
	var closed, numerical, diff, het, hom []float64
	paperBudget := o.Budget == (Budget{}) || o.Budget == (Budget{0, 1})
	for k, row := range rows {
		cf := math.NaN()
		if g, err := ClosedForm(row.u, row.t, row.n, row.m, row.kind); err == nil && paperBudget {
			cf = g.Delta
		} else if err != nil && !errors.Is(err, ErrOperator) {
			return dataframe.DataFrame{}, err
		}
		g := gains[k]
		us, ts, kindNames = append(us, row.u.String()), append(ts, row.t.String()), append(kindNames, row.kind.String())
		nCol, mCol = append(nCol, row.n), append(mCol, row.m)
		closed, numerical, diff = append(closed, cf), append(numerical, g.Delta), append(diff, g.Delta-cf)
		het, hom = append(het, g.Het), append(hom, g.Hom)
		hetAllocs, homRows = append(hetAllocs, FormatAllocationExact(g.HetAlloc)), append(homRows, FormatAllocationExact(g.HomRow))
	}
	return dataframe.New(
		series.New(us, series.String, "U"),
		series.New(ts, series.String, "T"),
		sweepInts(nCol, "N"),
		sweepInts(mCol, "M"),
		series.New(kindNames, series.String, "Allocation"),
		sweepFloats(closed, "ClosedForm"),
		sweepFloats(numerical, "Numerical"),
		sweepFloats(diff, "Difference"),
		sweepFloats(het, "RHet"),
		sweepFloats(hom, "RHom"),
		series.New(hetAllocs, series.String, "HetAlloc"),
		series.New(homRows, series.String, "HomRow"),
	), nil
}

// sweepTableRow is one row of NumericalTable before it is computed.
type sweepTableRow struct {
	u, t aggregators.Operator
	n, m int
	kind Allocation
}

// sweepTableRows validates the arguments of NumericalTable and lists its rows.
func sweepTableRows(ns, ms []int, pairs [][2]aggregators.Operator, kinds []Allocation) ([]sweepTableRow, error) {
	if len(ns) == 0 || len(ms) == 0 {
		return nil, fmt.Errorf("gain: table needs at least one N and one M: %w", ErrSize)
	}
	for _, n := range ns {
		for _, m := range ms {
			if err := checkSizes(n, m); err != nil {
				return nil, err
			}
		}
	}
	if pairs == nil {
		pairs = ExtremePairs()
	}
	if kinds == nil {
		kinds = []Allocation{Continuous, Discrete}
	}
	var rows []sweepTableRow
	for _, kind := range kinds {
		if kind != Continuous && kind != Discrete {
			return nil, fmt.Errorf("gain: unknown allocation kind %v: %w", kind, ErrOperator)
		}
		for p, pair := range pairs {
			if pair[0] == nil || pair[1] == nil {
				return nil, fmt.Errorf("gain: pair %d has a nil operator: %w", p, ErrOperator)
			}
			for _, n := range ns {
				for _, m := range ms {
					rows = append(rows, sweepTableRow{u: pair[0], t: pair[1], n: n, m: m, kind: kind})
				}
			}
		}
	}
	return rows, nil
}

// FormatAllocation writes an allocation matrix compactly for display, rows
// in brackets and entries with 4 significant digits: "[[1 0][0.5 0.5]]".
// It returns "" for nil. Tables and files, which keep floats at full
// precision, write allocations with FormatAllocationExact.
func FormatAllocation(a mat.Matrix) string { return formatAllocation(a, 4) }

// FormatAllocationExact writes an allocation matrix as FormatAllocation
// does, with every entry at full precision (strconv.FormatFloat with 'g'
// and -1, the shortest form that parses back to the same float):
// "[[0.3333333333333333 0.6666666666666666]]". It returns "" for nil.
// NumericalTable's HetAlloc and HomRow columns are written with it.
func FormatAllocationExact(a mat.Matrix) string { return formatAllocation(a, -1) }

// formatAllocation writes a with entries at prec significant digits (-1:
// as many as needed to parse back exactly).
func formatAllocation(a mat.Matrix, prec int) string {
	if a == nil {
		return ""
	}
	if d, ok := a.(*mat.Dense); ok && d == nil {
		return ""
	}
	r, c := a.Dims()
	var b strings.Builder
	b.WriteByte('[')
	for i := 0; i < r; i++ {
		b.WriteByte('[')
		for j := 0; j < c; j++ {
			if j > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(strconv.FormatFloat(a.At(i, j), 'g', prec, 64))
		}
		b.WriteByte(']')
	}
	b.WriteByte(']')
	return b.String()
}
