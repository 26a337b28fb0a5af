package gain_test

import (
	"fmt"
	"log"
	"os"

	"github.com/hetgain/hetgain/aggregators"
	"github.com/hetgain/hetgain/gain"
	"github.com/hetgain/hetgain/tables"
	"gonum.org/v1/gonum/mat"
)

func ExampleClosedForm() {
	// U = min over tasks of T = max over agents: every task needs one
	// agent at full effort.
	for _, kind := range []gain.Allocation{gain.Continuous, gain.Discrete} {
		g, err := gain.ClosedForm(aggregators.Min{}, aggregators.Max{}, 4, 4, kind)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s: R_het = %g, R_hom = %g, ΔR = %g\n", kind, g.Het, g.Hom, g.Delta)
	}

	// With fewer agents than tasks each agent covers ceil(M/N) tasks.
	g, err := gain.ClosedForm(aggregators.Min{}, aggregators.Max{}, 2, 4, gain.Continuous)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("N = 2, M = 4: ΔR = %g\n", g.Delta)
	fmt.Printf("A_het =\n%v\n", mat.Formatted(g.HetAlloc))
	fmt.Printf("c_hom = %v\n", mat.Formatted(g.HomRow))
	// Output:
	// continuous: R_het = 1, R_hom = 0.25, ΔR = 0.75
	// discrete: R_het = 1, R_hom = 0, ΔR = 1
	// N = 2, M = 4: ΔR = 0.25
	// A_het =
	// ⎡0.5    0  0.5    0⎤
	// ⎣  0  0.5    0  0.5⎦
	// c_hom = [0.25  0.25  0.25  0.25]
}

func ExamplePredict() {
	rewards := []struct{ u, t aggregators.Operator }{
		{aggregators.Mean{}, aggregators.Min{}},
		{aggregators.PowerSum{T: 0.5}, aggregators.PowerSum{T: 2}},
		{aggregators.Softmax{T: -1}, aggregators.Softmax{T: 1}},
		{aggregators.Min{}, aggregators.Max{}},
	}
	for _, r := range rewards {
		p, err := gain.Predict(r.u, r.t, 3, 3)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%v∘%v: %v (%s)\n", r.u, r.t, p.Sign, p.Rule)
	}
	// Output:
	// mean∘min: Zero (Theorem 3.2)
	// powersum(0.5)∘powersum(2): Positive (Corollary F.1)
	// softmax(-1)∘softmax(1): Positive (Theorem 3.1)
	// min∘max: Undecided (none)
}

func ExampleSoftmaxBound() {
	for _, tau := range []float64{-1, 0.5, 3} {
		b, err := gain.SoftmaxBound(2, tau, 3, 3)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("t = 2, τ = %g: case %s, R_hom = %.4f, R_het >= %.4f, ΔR >= %.4f\n",
			tau, b.Case, b.Hom, b.HetLower, b.DeltaLower)
	}
	// Output:
	// t = 2, τ = -1: case (ii), R_hom = 0.3333, R_het >= 0.7870, ΔR >= 0.4537
	// t = 2, τ = 0.5: case (iii), R_hom = 0.4519, R_het >= 0.7870, ΔR >= 0.3351
	// t = 2, τ = 3: case (iii), R_hom = 0.9094, R_het >= 0.9094, ΔR >= 0.0000
}

func ExampleClosedFormTable() {
	// All nine (U, T) pairs for N = 4 agents and M = 3 tasks, both kinds
	// of allocation: 18 rows. Print the rows with U = min and T in
	// {mean, max}.
	df, err := gain.ClosedFormTable([]int{4}, []int{3}, nil)
	if err != nil {
		log.Fatal(err)
	}
	rows := df.Subset([]int{1, 2, 10, 11}).Drop([]string{"N", "M"})
	if err := tables.WriteMarkdown(os.Stdout, rows); err != nil {
		log.Fatal(err)
	}
	// Output:
	// | U | T | Allocation | RHet | RHom | Gain | PredictedSign | Rule |
	// | --- | --- | --- | ---: | ---: | ---: | --- | --- |
	// | min | mean | continuous | 0.3333333333333333 | 0.3333333333333333 | 0 | Zero | Theorem 3.2 |
	// | min | max | continuous | 1 | 0.3333333333333333 | 0.6666666666666667 | Undecided | none |
	// | min | mean | discrete | 0.25 | 0 | 0.25 | n/a | none: the theorems concern continuous allocations |
	// | min | max | discrete | 1 | 0 | 1 | n/a | none: the theorems concern continuous allocations |
}
