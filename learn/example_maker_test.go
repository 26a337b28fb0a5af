package learn_test

import (
	"fmt"
	"math"

	"github.com/hetgain/hetgain/aggregators"
	"github.com/hetgain/hetgain/gain"
	"github.com/hetgain/hetgain/learn"
	"github.com/hetgain/hetgain/simulate"
)

// ExampleRunSpec_maker trains both teams under a reward of one's own, one
// that EnvSpec cannot name: each task scores the sum of the squares of
// its agents' efforts (a SumForm, Schur-convex: a task rewards effort
// that is concentrated on it), and the team gets the worse of its two
// tasks' scores (U = min). RunSpec.Maker builds the environments, here
// the continuous matrix game of package simulate with that reward. The
// learned gain is compared with the theory's, from gain.Numerical:
// specialists score 1 on each task, a team of identical agents at best
// 2·0.5² = 0.5 on both.
func ExampleRunSpec_maker() {
	squares := aggregators.SumForm{
		Name:       "squares",
		G:          func(x float64) float64 { return x * x },
		DG:         func(x float64) float64 { return 2 * x },
		Dom:        aggregators.NonNegative,
		Class:      aggregators.StrictlyConvex,
		Increasing: true,
	}
	newReward := func() *aggregators.Reward { return aggregators.NewReward(aggregators.Min{}, squares) }

	theory, err := gain.Numerical(newReward(), 2, 2, gain.Continuous, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	spec := learn.RunSpec{
		// Each worker builds its own environments, so each gets its own reward.
		Maker: func(batch int) (simulate.Env, error) {
			return simulate.NewMatrixGame(batch, 2, 2, false, newReward())
		},
		Team: learn.Config{Hidden: []int{32, 32}, Envs: 64, FramesPerIter: 800, Epochs: 4, Minibatch: 200,
			LR: 3e-3, Clip: 0.2, MaxGradNorm: 1, Seed: 1},
		Iterations: 40,
		EvalEvery:  10,
	}
	res, err := learn.Train(spec, learn.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	final := res.Final()
	fmt.Printf("theory: R_het %.2f, R_hom %.2f, gain %.2f\n", theory.Het, theory.Hom, theory.Delta)
	fmt.Printf("learned: heterogeneous %.2f, homogeneous %.2f, gain %.2f\n", final.HetEval, final.HomEval, final.EvalGain)
	fmt.Println("within 0.05 of the theory:", math.Abs(final.EvalGain-theory.Delta) < 0.05)
	// Output:
	// theory: R_het 1.00, R_hom 0.50, gain 0.50
	// learned: heterogeneous 1.00, homogeneous 0.50, gain 0.50
	// within 0.05 of the theory: true
}
