package main

import (
	"flag"
	"fmt"
	"strings"

	"github.com/hetgain/hetgain/aggregators"
	"github.com/hetgain/hetgain/gain"
)

var predictCommand = &command{
	name:     "predict",
	summary:  "what the paper's theorems say about the sign of ΔR (no optimisation)",
	synopsis: "-u U -t T [-n N] [-m M]",
	about: `
Predict prints what Theorems 3.1-3.3 and Corollary F.1 of the paper say
about the sign of ΔR for continuous allocations of N agents over M tasks
and the reward R = U∘T: the sign, the result that gives it, and why. When
they exist it also prints the closed form (U and T in {min, mean, max})
and Theorem 3.4's bound (softmax U and T, N = M >= 2). It is instant.`,
	examples: []example{
		{"hetgain predict -u min -t max -n 3 -m 3", ""},
		{"hetgain predict -u 'softmax(-1)' -t 'softmax(1)' -n 2 -m 2", "Theorem 3.1, and Theorem 3.4's bound"},
		{"hetgain predict -u 'powersum(0.5)' -t 'powersum(2)' -n 4 -m 3", "Corollary F.1"},
	},
	setup: setupPredict,
}

func setupPredict(fs *flag.FlagSet) func(*app, *flag.FlagSet) error {
	var u, t operatorList
	fs.Var(&u, "u", "outer aggregator `U` (required), as in min or 'softmax(2)'")
	fs.Var(&t, "t", "task aggregator `T` (required)")
	n := fs.Int("n", 2, "number of agents `N`")
	m := fs.Int("m", 2, "number of tasks `M`")
	return func(a *app, fs *flag.FlagSet) error {
		if err := noArgs(fs); err != nil {
			return err
		}
		for _, f := range []struct {
			name string
			l    operatorList
		}{{"u", u}, {"t", t}} {
			if len(f.l.ops) != 1 {
				return usagef("-%s: want exactly one operator, got %d", f.name, len(f.l.ops))
			}
		}
		if err := atLeast("n", *n, 1); err != nil {
			return err
		}
		if err := atLeast("m", *m, 1); err != nil {
			return err
		}
		return predict(a, u.ops[0], t.ops[0], *n, *m)
	}
}

func predict(a *app, u, t aggregators.Operator, n, m int) error {
	p, err := gain.Predict(u, t, n, m)
	if err != nil {
		return err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "R = %v∘%v, N = %d agents, M = %d tasks, continuous allocations\n", u, t, n, m)
	fmt.Fprintf(&b, "sign:    %v\n", p.Sign)
	fmt.Fprintf(&b, "rule:    %s\n", p.Rule)
	fmt.Fprintf(&b, "reason:  %s\n", p.Reason)
	if g, err := gain.ClosedForm(u, t, n, m, gain.Continuous); err == nil {
		fmt.Fprintf(&b, "closed form: R_het = %v, R_hom = %v, ΔR = %v\n", g.Het, g.Hom, g.Delta)
	}
	su, uok := u.(aggregators.Softmax)
	st, tok := t.(aggregators.Softmax)
	if uok && tok {
		if bd, err := gain.SoftmaxBound(st.T, su.T, n, m); err == nil {
			rel := ">="
			if bd.Exact {
				rel = "="
			}
			fmt.Fprintf(&b, "Theorem 3.4, case %s: ΔR %s %v (R_hom = %v, R_het >= %v)\n", bd.Case, rel, bd.DeltaLower, bd.Hom, bd.HetLower)
		}
	}
	_, err = fmt.Fprint(a.stdout, b.String())
	return err
}
