package gain_test

import (
	"fmt"
	"log"

	"github.com/hetgain/hetgain/aggregators"
	"github.com/hetgain/hetgain/gain"
)

func ExampleSweep() {
	// The paper's Figure 2 on a 3x3 grid: softmax U (parameter τ) and T
	// (parameter t), N = M = 2, continuous allocations.
	params := []float64{-2, 0.5, 3}
	res, err := gain.Sweep(gain.SweepSpec{
		Outer: "softmax", Inner: "softmax",
		OuterParams: params, InnerParams: params,
		N: 2, M: 2,
		Options: gain.Options{Seed: 1},
	})
	if err != nil {
		log.Fatal(err)
	}
	// Gain[i][j] is ΔR at τ = OuterParams[i] (rows, the y axis of the
	// figure) and t = InnerParams[j] (columns, the x axis); Bound is
	// Theorem 3.4's lower bound.
	for i, tau := range res.OuterParams {
		for j, t := range res.InnerParams {
			fmt.Printf("τ = %4.1f, t = %4.1f: ΔR = %.4f (bound %.4f)\n", tau, t, res.Gain[i][j], res.Bound[i][j])
		}
	}
	fmt.Println(res.Frame().Names())
	// Output:
	// τ = -2.0, t = -2.0: ΔR = 0.0000 (bound 0.0000)
	// τ = -2.0, t =  0.5: ΔR = 0.1225 (bound 0.1225)
	// τ = -2.0, t =  3.0: ΔR = 0.4526 (bound 0.4526)
	// τ =  0.5, t = -2.0: ΔR = 0.0000 (bound 0.0000)
	// τ =  0.5, t =  0.5: ΔR = 0.0000 (bound 0.0000)
	// τ =  0.5, t =  3.0: ΔR = 0.3301 (bound 0.3301)
	// τ =  3.0, t = -2.0: ΔR = 0.0000 (bound 0.0000)
	// τ =  3.0, t =  0.5: ΔR = 0.0000 (bound 0.0000)
	// τ =  3.0, t =  3.0: ΔR = 0.0000 (bound 0.0000)
	// [InnerParam OuterParam N M RHet RHom Gain Bound]
}

func ExampleNumericalTable() {
	// A pair with a closed form and one without, N = M = 3.
	pairs := [][2]aggregators.Operator{
		{aggregators.Min{}, aggregators.Max{}},
		{aggregators.PowerSum{T: 0.5}, aggregators.PowerSum{T: 2}},
	}
	df, err := gain.NumericalTable([]int{3}, []int{3}, pairs, []gain.Allocation{gain.Continuous}, nil)
	if err != nil {
		log.Fatal(err)
	}
	for k := 0; k < df.Nrow(); k++ {
		fmt.Printf("%s∘%s: closed form %.4f, numerical %.4f, A_het = %s\n",
			df.Col("U").Records()[k], df.Col("T").Records()[k],
			df.Col("ClosedForm").Float()[k], df.Col("Numerical").Float()[k], df.Col("HetAlloc").Records()[k])
	}
	// Output:
	// min∘max: closed form 0.6667, numerical 0.6667, A_het = [[1 0 0][0 1 0][0 0 1]]
	// powersum(0.5)∘powersum(2): closed form NaN, numerical 1.2679, A_het = [[1 0 0][0 1 0][0 0 1]]
}
