package aggregators_test

import (
	"errors"
	"fmt"
	"math"

	"github.com/hetgain/hetgain/aggregators"
	"gonum.org/v1/gonum/mat"
)

func ExampleSoftmax() {
	x := []float64{0.2, 0.5, 0.9}
	for _, t := range []float64{-1000, -1, 0, 1, 1000} {
		op, err := aggregators.NewSoftmax(t)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%-14s %.4f  %v\n", op, op.Value(x), op.Schur(len(x)))
	}
	// Output:
	// softmax(-1000) 0.2000  neither
	// softmax(-1)    0.4547  strictly Schur-concave
	// softmax(0)     0.5333  Schur-convex and Schur-concave
	// softmax(1)     0.6158  strictly Schur-convex
	// softmax(1000)  0.9000  neither
}

func ExamplePowerMean() {
	x := []float64{0.1, 0.4, 0.9}
	for _, t := range []float64{math.Inf(-1), -1000, -1, 0, 1e-9, 1, 2, 1000, math.Inf(1)} {
		op := aggregators.PowerMean{T: t}
		fmt.Printf("%-16s %.4f\n", op, op.Value(x))
	}
	// Output:
	// powermean(-inf)  0.1000
	// powermean(-1000) 0.1001
	// powermean(-1)    0.2204
	// powermean(0)     0.3302
	// powermean(1e-09) 0.3302
	// powermean(1)     0.4667
	// powermean(2)     0.5715
	// powermean(1000)  0.8990
	// powermean(inf)   0.9000
}

func ExampleReward() {
	// Two agents, two tasks; a task is worth the effort of its best agent
	// (max) and the team is worth its weakest task (min).
	r := aggregators.NewReward(aggregators.Min{}, aggregators.Max{})
	a := mat.NewDense(2, 2, []float64{
		0.7, 0.3,
		0.2, 0.8,
	})
	v, err := r.Value(a)
	if err != nil {
		fmt.Println(err)
		return
	}
	g, err := r.Gradient(a)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%v = %.4f\n", r, v)
	fmt.Printf("∂R/∂A = %.4f\n", mat.Formatted(g, mat.Prefix("        ")))
	// Output:
	// min∘max = 0.7000
	// ∂R/∂A = ⎡1.0000  0.0000⎤
	//         ⎣0.0000  0.0000⎦
}

func ExampleParse() {
	for _, spec := range []string{"softmax(2.5)", "PowerMean(-inf)", "blotto(1; 0.5:0.25, 1.5:0.75)", "lse(0)", "median"} {
		op, err := aggregators.Parse(spec)
		if err != nil {
			fmt.Println("error:", err)
			continue
		}
		fmt.Printf("%s: %.4f\n", op, op.Value([]float64{0.25, 0.75}))
	}
	// Output:
	// softmax(2.5): 0.6386
	// powermean(-inf): 0.2500
	// blotto(1; 0.5:0.25, 1.5:0.75): 0.2500
	// error: aggregators: operator "lse(0)": lse parameter must not be 0: parameter outside its domain
	// error: aggregators: unknown operator "median" (known: min, mean, max, sum, softmax(t), lse(t), powersum(t), meanpower(t), powermean(t), level(L), blotto(V; a1:p1, a2:p2, ...))
}

func ExampleSumForm() {
	// g(v) = v² is strictly convex, so f(x) = sum x_i² is strictly
	// Schur-convex: the concentrated x beats the spread y = (0.5, 0.5).
	f := aggregators.SumForm{
		Name:       "square",
		G:          func(v float64) float64 { return v * v },
		DG:         func(v float64) float64 { return 2 * v },
		Dom:        aggregators.NonNegative,
		Class:      aggregators.StrictlyConvex,
		Increasing: true,
	}
	x, y := []float64{1, 0}, []float64{0.5, 0.5}
	fmt.Printf("%v: f(x) = %.4f, f(y) = %.4f, %v\n", f, f.Value(x), f.Value(y), f.Schur(2))
	fmt.Printf("gradient at y: %.4f\n", f.Gradient(nil, y))
	// Output:
	// sumform(square): f(x) = 1.0000, f(y) = 0.5000, strictly Schur-convex
	// gradient at y: [1.0000 1.0000]
}

// ExampleEvaluate checks input that comes from data: a value an operator
// does not accept is an error naming it, wrapping a sentinel for
// errors.Is, where Value would panic.
func ExampleEvaluate() {
	inputs := [][]float64{{0.2, 0.8}, {0.2, math.NaN()}, {0.2, -0.5}, {}}
	for _, x := range inputs {
		v, err := aggregators.Evaluate(aggregators.PowerSum{T: 2}, x)
		switch {
		case errors.Is(err, aggregators.ErrNegative):
			fmt.Println("negative effort:", err)
		case err != nil:
			fmt.Println("error:", err)
		default:
			fmt.Printf("%.2f\n", v)
		}
	}
	// Output:
	// 0.68
	// error: aggregators: powersum(2): x[1] = NaN: value is NaN
	// negative effort: aggregators: powersum(2): x[1] = -0.5: value is negative
	// error: aggregators: powersum(2): x: no values (need at least one)
}

// ExampleReward_ParamGradient differentiates the reward with respect to the
// operators' parameters, the derivative HetGPS follows. At softmax(0) for
// both U and T (both means) every allocation with the same column sums
// pays the same, but ∂R/∂τ_T is the spread of the agents' efforts on each
// task: positive for two specialists, zero for two identical agents.
func ExampleReward_ParamGradient() {
	r := aggregators.NewReward(aggregators.Softmax{T: 0}, aggregators.Softmax{T: 0})
	teams := map[string]*mat.Dense{
		"specialists": mat.NewDense(2, 2, []float64{1, 0, 0, 1}),
		"identical":   mat.NewDense(2, 2, []float64{0.5, 0.5, 0.5, 0.5}),
	}
	for _, name := range []string{"specialists", "identical"} {
		v, err := r.Value(teams[name])
		if err != nil {
			fmt.Println(err)
			return
		}
		g, err := r.ParamGradient(teams[name])
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%-11s R = %.2f, ∂R/∂τ_T = %.2f, ∂R/∂τ_U = %.2f\n", name, v, g.InnerShared(), g.Outer)
	}
	// Output:
	// specialists R = 0.50, ∂R/∂τ_T = 0.25, ∂R/∂τ_U = 0.00
	// identical   R = 0.50, ∂R/∂τ_T = 0.00, ∂R/∂τ_U = 0.00
}

// ExampleMeanPower compares a reward built from power sums with the same
// reward built from their means, as the paper's code computes power-sum
// rewards in Multi-goal-capture: two specialists, and two agents stacked
// on task 1, under T of exponent 2 and U of exponent 0.3 (U Schur-concave:
// specialists win) and 6 (U Schur-convex: stacking wins). Both forms rank
// the allocations alike, but the power sums pay 2^6 = 64 for the stacked
// team, where the means stay in [0, 1].
func ExampleMeanPower() {
	specialists := mat.NewDense(2, 2, []float64{1, 0, 0, 1})
	stacked := mat.NewDense(2, 2, []float64{1, 0, 1, 0})
	for _, tau := range []float64{0.3, 6} {
		sums := aggregators.NewReward(aggregators.PowerSum{T: tau}, aggregators.PowerSum{T: 2})
		means := aggregators.NewReward(aggregators.MeanPower{T: tau}, aggregators.MeanPower{T: 2})
		for _, r := range []*aggregators.Reward{sums, means} {
			a, _ := r.Value(specialists)
			b, _ := r.Value(stacked)
			fmt.Printf("U = %-15v specialists %.4f, stacked %.4f\n", r.Outer, a, b)
		}
	}
	// Output:
	// U = powersum(0.3)   specialists 2.0000, stacked 1.2311
	// U = meanpower(0.3)  specialists 0.8123, stacked 0.5000
	// U = powersum(6)     specialists 2.0000, stacked 64.0000
	// U = meanpower(6)    specialists 0.0156, stacked 0.5000
}
