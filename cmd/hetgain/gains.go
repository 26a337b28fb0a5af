package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"

	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
	"github.com/hetgain/hetgain/aggregators"
	"github.com/hetgain/hetgain/gain"
	"github.com/hetgain/hetgain/internal/atomicfile"
	"github.com/hetgain/hetgain/tables"
)

var gainsCommand = &command{
	name:     "gains",
	summary:  "table of R_het, R_hom and ΔR for pairs U/T, numbers of agents N and tasks M",
	synopsis: "[-n N,...] [-m M,...] [-u U,...] [-t T,...] [-pairs U/T,...] [flags]",
	about: `
Gains prints the optimal heterogeneous and homogeneous rewards R_het and
R_hom, and the heterogeneity gain ΔR = R_het − R_hom, of the reward
R = U∘T for every pair (U, T), every N in -n, every M in -m and every kind
of allocation in -kind (continuous: each agent splits its unit budget over
the tasks; discrete: each agent works on one task).

The pairs are every U in -u with every T in -t (each defaults to min, mean
and max: the nine pairs of the paper's table), or the list -pairs.
Operators are written as in "softmax(2)", "powersum(0.5)" or "min"; put a
specification with parentheses in quotes for the shell.

-method closed gives the closed forms (U and T in {min, mean, max} only);
-method numerical the numerical optimiser's results; -method both (the
default) gives the numerical result beside the closed form and their
difference, with ClosedForm NaN for pairs that have none. Allocations that
attain the optima are printed compactly, as [[1 0][0 1]]; HetAlloc is empty
where N·M exceeds 2^20 (gain.MaxAllocationCells), and HomRow where M does.

Floats, the entries of the allocations included, are printed at full
precision in every format.`,
	examples: []example{
		{"hetgain gains -n 2,3 -m 2", "the nine {min, mean, max} pairs, both kinds, closed form and numerical"},
		{"hetgain gains -u 'softmax(2)' -t 'powersum(3)' -n 3 -m 3 -kind continuous -method numerical", "one pair without a closed form: the numerical optimiser alone"},
		{"hetgain gains -pairs 'min/max,mean/max' -n 2-4 -m 2 -method closed -format markdown", ""},
		{"hetgain gains -n 4 -m 4 -format csv -o gains.csv -seed 7 -restarts 20", ""},
	},
	setup: setupGains,
}

// optimiserFlags are the flags that set gain.Options.
type optimiserFlags struct {
	seed     *int64
	restarts *int
	tol      *float64
}

func addOptimiserFlags(fs *flag.FlagSet) optimiserFlags {
	return optimiserFlags{
		seed:     fs.Int64("seed", 1, "seed of the numerical optimiser's random starts"),
		restarts: fs.Int("restarts", 0, fmt.Sprintf("random restarts of the numerical optimiser (0: its default; at most %d, and restarts × N × M at most %d)", maxRestarts, maxSearchFloats)),
		tol:      fs.Float64("tol", 0, "convergence tolerance of the numerical optimiser, finite and >= 0 (0: its default)"),
	}
}

func (f optimiserFlags) options() (gain.Options, error) {
	if *f.restarts < 0 {
		return gain.Options{}, usagef("-restarts %d: want >= 0", *f.restarts)
	}
	if !(*f.tol >= 0) || math.IsInf(*f.tol, 1) {
		return gain.Options{}, usagef("-tol %v: want a finite number >= 0", *f.tol)
	}
	return gain.Options{Seed: *f.seed, Restarts: *f.restarts, Tol: *f.tol}, nil
}

func setupGains(fs *flag.FlagSet) func(*app, *flag.FlagSet) error {
	nl, ml := intList{vals: []int{2}}, intList{vals: []int{2}}
	fs.Var(&nl, "n", "numbers of agents `N`: a list 2,3,5 or a range 2-5, comma-separated or repeated")
	fs.Var(&ml, "m", "numbers of tasks `M`: a list or a range, comma-separated or repeated")
	var us, ts operatorList
	fs.Var(&us, "u", "outer aggregators `U`, comma-separated or repeated (default min,mean,max)")
	fs.Var(&ts, "t", "task aggregators `T`, comma-separated or repeated (default min,mean,max)")
	var pairs pairList
	fs.Var(&pairs, "pairs", "`U/T` pairs instead of -u and -t, as in 'min/max,softmax(2)/powersum(3)'")
	kind := newChoice("both", "continuous", "discrete", "both")
	fs.Var(kind, "kind", "`KIND` of allocation: continuous, discrete or both")
	method := newChoice("both", "closed", "numerical", "both")
	fs.Var(method, "method", "`METHOD`: closed, numerical or both")
	format := newChoice("text", "text", "csv", "markdown")
	fs.Var(format, "format", "output `FORMAT`: text, csv or markdown")
	out := fs.String("o", "", "write the table to `FILE` instead of standard output")
	opt := addOptimiserFlags(fs)

	return func(a *app, fs *flag.FlagSet) error {
		if err := noArgs(fs); err != nil {
			return err
		}
		if len(pairs.pairs) > 0 && (us.set || ts.set) {
			return usagef("-pairs cannot be combined with -u or -t")
		}
		for _, name := range []string{"seed", "restarts", "tol"} {
			if method.value == "closed" && isSet(fs, name) {
				return usagef("-%s steers the numerical optimiser, which -method closed does not run", name)
			}
		}
		opts, err := opt.options()
		if err != nil {
			return err
		}
		ps := pairs.pairs
		if len(ps) == 0 {
			ps = crossPairs(us.ops, ts.ops)
		}
		ns, ms := nl.vals, ml.vals
		if err := checkGainsSizes(ns, ms, len(ps), len(kinds(kind.value)), method.value != "closed", opts.Restarts); err != nil {
			return err
		}
		if *out != "" { // before the numerical optimiser's work, not after
			if err := checkOutput("o", *out); err != nil {
				return err
			}
		}
		var df dataframe.DataFrame
		if method.value == "closed" {
			df, err = closedTable(ns, ms, ps, kinds(kind.value))
		} else {
			df, err = a.numericalTable(ns, ms, ps, kinds(kind.value), &opts)
			if err == nil && method.value == "numerical" {
				df = df.Select([]string{"U", "T", "N", "M", "Allocation", "RHet", "RHom", "Numerical", "HetAlloc", "HomRow"}).
					Rename("Gain", "Numerical")
			}
		}
		if err != nil {
			return err
		}
		return writeTable(a, df, format.value, *out)
	}
}

// checkGainsSizes returns a usage error if the table would have more than
// maxTableRows rows or, when numerical is set, if an N·M is above the
// numerical optimiser's limit or -restarts keeps too many allocations.
func checkGainsSizes(ns, ms []int, pairs, kinds int, numerical bool, restarts int) error {
	if rows := float64(len(ns)) * float64(len(ms)) * float64(pairs) * float64(kinds); rows > maxTableRows {
		return usagef("%d values of -n × %d of -m × %d pairs × %d kinds = %.0f rows: want at most %d",
			len(ns), len(ms), pairs, kinds, rows, maxTableRows)
	}
	if !numerical {
		return nil
	}
	n, m := 1, 1
	for _, v := range ns {
		n = max(n, v)
	}
	for _, v := range ms {
		m = max(m, v)
	}
	if float64(n)*float64(m) > gain.MaxNumericalCells {
		return usagef("-n %d -m %d: want N × M at most %d for the numerical optimiser (-method closed has no limit)", n, m, gain.MaxNumericalCells)
	}
	return checkRestarts(restarts, n, m)
}

// crossPairs returns every U in us with every T in ts; an empty list means
// min, mean and max.
func crossPairs(us, ts []aggregators.Operator) [][2]aggregators.Operator {
	extremes := []aggregators.Operator{aggregators.Min{}, aggregators.Mean{}, aggregators.Max{}}
	if len(us) == 0 {
		us = extremes
	}
	if len(ts) == 0 {
		ts = extremes
	}
	var pairs [][2]aggregators.Operator
	for _, u := range us {
		for _, t := range ts {
			pairs = append(pairs, [2]aggregators.Operator{u, t})
		}
	}
	return pairs
}

// numericalTable runs gain.NumericalTable, returning early (with
// errInterrupted) if the app's context is cancelled.
func (a *app) numericalTable(ns, ms []int, pairs [][2]aggregators.Operator, kinds []gain.Allocation, opts *gain.Options) (dataframe.DataFrame, error) {
	type result struct {
		df  dataframe.DataFrame
		err error
	}
	done := make(chan result, 1)
	go func() {
		df, err := gain.NumericalTable(ns, ms, pairs, kinds, opts)
		done <- result{df, err}
	}()
	select {
	case r := <-done:
		return r.df, r.err
	case <-a.ctx.Done():
		fmt.Fprintln(a.stderr, "hetgain gains: interrupted; no table written")
		return dataframe.DataFrame{}, errInterrupted
	}
}

// closedTable returns the closed forms of gain.ClosedForm, in the order of
// gain.NumericalTable.
func closedTable(ns, ms []int, pairs [][2]aggregators.Operator, kinds []gain.Allocation) (dataframe.DataFrame, error) {
	var us, ts, kindNames, hetAllocs, homRows []string
	var nCol, mCol []int
	var het, hom, delta []float64
	for _, kind := range kinds {
		for _, p := range pairs {
			for _, n := range ns {
				for _, m := range ms {
					g, err := gain.ClosedForm(p[0], p[1], n, m, kind)
					if errors.Is(err, gain.ErrOperator) {
						return dataframe.DataFrame{}, usagef("no closed form for U = %v, T = %v (closed forms need U and T in {min, mean, max}): use -method numerical or both", p[0], p[1])
					}
					if err != nil {
						return dataframe.DataFrame{}, err
					}
					us, ts, kindNames = append(us, p[0].String()), append(ts, p[1].String()), append(kindNames, kind.String())
					nCol, mCol = append(nCol, n), append(mCol, m)
					het, hom, delta = append(het, g.Het), append(hom, g.Hom), append(delta, g.Delta)
					hetAllocs, homRows = append(hetAllocs, gain.FormatAllocationExact(g.HetAlloc)), append(homRows, gain.FormatAllocationExact(g.HomRow))
				}
			}
		}
	}
	return dataframe.New(
		series.New(us, series.String, "U"),
		series.New(ts, series.String, "T"),
		series.New(nCol, series.Int, "N"),
		series.New(mCol, series.Int, "M"),
		series.New(kindNames, series.String, "Allocation"),
		series.New(het, series.Float, "RHet"),
		series.New(hom, series.Float, "RHom"),
		series.New(delta, series.Float, "Gain"),
		series.New(hetAllocs, series.String, "HetAlloc"),
		series.New(homRows, series.String, "HomRow"),
	), nil
}

// writeTable writes df in the format to path, replacing the file
// atomically, or to standard output if path is empty.
func writeTable(a *app, df dataframe.DataFrame, format, path string) error {
	if path == "" {
		return writeTableTo(a.stdout, df, format)
	}
	return atomicfile.Write(path, func(w io.Writer) error { return writeTableTo(w, df, format) })
}

// writeTableTo writes df to w in the format: csv, markdown or text.
func writeTableTo(w io.Writer, df dataframe.DataFrame, format string) error {
	switch format {
	case "csv":
		return tables.WriteCSV(w, df)
	case "markdown":
		return tables.WriteMarkdown(w, df)
	}
	return tables.WriteText(w, df)
}
