package gain_test

import (
	"fmt"
	"log"

	"github.com/hetgain/hetgain/aggregators"
	"github.com/hetgain/hetgain/gain"
	"gonum.org/v1/gonum/mat"
)

func ExampleNumerical() {
	// A strictly Schur-convex task score (sum of cubes) under a strictly
	// concave outer sum form (sum of square roots): Corollary F.1 says
	// ΔR > 0.
	r := aggregators.NewReward(aggregators.PowerSum{T: 0.5}, aggregators.PowerSum{T: 3})
	g, err := gain.Numerical(r, 2, 2, gain.Continuous, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("R_het = %.4f, R_hom = %.4f, ΔR = %.4f\n", g.Het, g.Hom, g.Delta)
	fmt.Printf("A_het =\n%v\n", mat.Formatted(g.HetAlloc))
	fmt.Printf("c_hom = %v\n", mat.Formatted(g.HomRow))
	// Output:
	// R_het = 2.0000, R_hom = 1.4142, ΔR = 0.5858
	// A_het =
	// ⎡1  0⎤
	// ⎣0  1⎦
	// c_hom = [1  0]
}

func ExampleHet() {
	// min∘max with a floor: every agent must put at least 0.1 on each of
	// the 4 tasks, so 0.6 of its unit budget is free. Two agents covering
	// two tasks each reach 0.1 + 0.6/2 on every task.
	r := aggregators.NewReward(aggregators.Min{}, aggregators.Max{})
	opts := &gain.Options{Budget: gain.Budget{Min: 0.1, Max: 1}}
	het, err := gain.Het(r, 2, 4, opts)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("R_het = %.4f\n%.4g\n", het.Value, mat.Formatted(het.Alloc))
	// Output:
	// R_het = 0.4000
	// ⎡0.4  0.4  0.1  0.1⎤
	// ⎣0.1  0.1  0.4  0.4⎦
}

func ExampleHom() {
	// A homogeneous team under softmax aggregators: its task scores are
	// its row c, so R_hom is the largest softmax-weighted mean of a row,
	// attained on one task (Theorem 3.4's (H): σ(τ, 3) for τ = 2).
	r := aggregators.NewReward(aggregators.Softmax{T: 2}, aggregators.Softmax{T: -1})
	hom, err := gain.Hom(r, 3, 3, nil)
	if err != nil {
		log.Fatal(err)
	}
	b, err := gain.SoftmaxBound(-1, 2, 3, 3)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("R_hom = %.6f, (H) = %.6f\n", hom.Value, b.Hom)
	fmt.Printf("c = %v\n", mat.Formatted(hom.Alloc.RowView(0).T()))
	// Output:
	// R_hom = 0.786986, (H) = 0.786986
	// c = [1  0  0]
}
