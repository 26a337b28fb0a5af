package schur_test

import (
	"fmt"
	"math"

	"github.com/hetgain/hetgain/aggregators"
	"github.com/hetgain/hetgain/schur"
)

func ExampleMajorizes() {
	x := []float64{1, 0.1, 0}
	y := []float64{1, 0.05, 0.05}
	ok, err := schur.Majorizes(x, y, 1e-12)
	fmt.Println(ok, err)
	ok, _ = schur.Majorizes(y, x, 1e-12)
	fmt.Println(ok)
	_, err = schur.Majorizes(x, []float64{1, 1}, 0)
	fmt.Println(err)
	// Output:
	// true <nil>
	// false
	// schur: x has length 3 but y has length 2: dimension mismatch
}

func ExampleTTransformPath() {
	x := []float64{0, 3, 0}
	y := []float64{1, 1, 1}
	path, err := schur.TTransformPath(x, y, 1e-12)
	if err != nil {
		fmt.Println(err)
		return
	}
	z := append([]float64(nil), x...)
	for _, t := range path {
		t.Apply(z, z)
		fmt.Printf("average x%d and x%d with λ = %.3f: %.4g\n", t.I, t.J, t.Lambda, z)
	}
	_, err = schur.TTransformPath(y, x, 1e-12)
	fmt.Println(err)
	// Output:
	// average x0 and x1 with λ = 0.000: [3 0 0]
	// average x0 and x1 with λ = 0.667: [2 1 0]
	// average x0 and x2 with λ = 0.500: [1 1 1]
	// schur: x does not majorize y: sum of the 1 largest coordinates is 1 for x but 3 for y: not majorized
}

func ExampleCheck() {
	// Softmax with a large temperature is not Schur-convex on [0,1]^3.
	v, err := schur.Check(aggregators.Softmax{T: 10}, 3, schur.UnitBox(), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(v.Class())
	c := v.ConvexCounterexample
	ok, _ := schur.Majorizes(c.X, c.Y, 0)
	fmt.Println("x ≻ y:", ok, "and f(x) < f(y):", c.FX < c.FY)

	// With t = 1 the search finds no counterexample: evidence, not proof.
	v, _ = schur.Check(aggregators.Softmax{T: 1}, 3, schur.UnitBox(), nil)
	fmt.Println(v.Class(), v.ConvexCounterexample == nil)
	// Output:
	// neither
	// x ≻ y: true and f(x) < f(y): true
	// strictly Schur-convex true
}

func ExampleCheck_func() {
	// The product is Schur-concave on [0,1]^3 but not strictly: it is 0
	// on both sides of (1, 0.5, 0) ≻ (0.75, 0.75, 0).
	prod := schur.Func(func(x []float64) float64 { return x[0] * x[1] * x[2] })
	v, _ := schur.Check(prod, 3, schur.UnitBox(), nil)
	fmt.Println(v.Class(), v.FlatPair != nil)

	// On [-1,1]^3 it is neither.
	box, _ := schur.NewBox(-1, 1)
	v, _ = schur.Check(prod, 3, box, nil)
	fmt.Println(v.Class())
	// Output:
	// Schur-concave true
	// neither
}

func ExampleLorenz() {
	l, _ := schur.Lorenz([]float64{4, 1, 3, 2})
	fmt.Println(l)
	// x ≻ y exactly when, at equal sums, x's curve lies below y's.
	lx, _ := schur.Lorenz([]float64{3, 0, 0})
	ly, _ := schur.Lorenz([]float64{1, 1, 1})
	fmt.Printf("%.3f\n%.3f\n", lx, ly)
	// Output:
	// [0 0.1 0.3 0.6 1]
	// [0.000 0.000 0.000 1.000]
	// [0.000 0.333 0.667 1.000]
}

func ExampleCheckSumForm() {
	for _, g := range []struct {
		name string
		g    func(float64) float64
	}{
		{"x^2", func(x float64) float64 { return x * x }},
		{"sqrt", math.Sqrt},
		{"3x", func(x float64) float64 { return 3 * x }},
		{"sin(6x)", func(x float64) float64 { return math.Sin(6 * x) }},
	} {
		v, err := schur.CheckSumForm(g.g, 0, 1, nil)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("sum of %s: %v\n", g.name, v.Class())
	}
	// Output:
	// sum of x^2: strictly Schur-convex
	// sum of sqrt: strictly Schur-concave
	// sum of 3x: Schur-convex and Schur-concave
	// sum of sin(6x): neither
}
