package simulate_test

import (
	"fmt"

	"github.com/hetgain/hetgain/aggregators"
	"github.com/hetgain/hetgain/simulate"
)

// Two agents, two tasks, R = min over tasks of max over agents: the
// specialists cover both tasks, identical agents split their effort.
func ExampleMatrixGame() {
	r := aggregators.NewReward(aggregators.Min{}, aggregators.Max{})
	g, err := simulate.NewMatrixGame(2, 2, 2, false, r)
	if err != nil {
		panic(err)
	}
	if err := g.Reset(0); err != nil {
		panic(err)
	}
	// Actions are in [-(M-1)/2, (M-1)/2]^M = [-0.5, 0.5]^2, flat [B][N][M].
	actions := []float64{
		0.5, -0.5, -0.5, 0.5, // batch 0: agent 0 on task 0, agent 1 on task 1
		0, 0, 0, 0, // batch 1: both agents split evenly
	}
	if err := g.Step(actions); err != nil {
		panic(err)
	}
	fmt.Println("efforts:", g.Effort())
	fmt.Println("rewards:", g.Reward())
	// Output:
	// efforts: [1 0 0 1 0.5 0.5 0.5 0.5]
	// rewards: [1 0.5]
}

// Difference rewards under R = mean over tasks of max over agents: an
// agent that repeats its partner's task adds nothing, and is paid nothing;
// a specialist is paid what the team would lose without it.
func ExampleMatrixGame_DifferenceRewards() {
	r := aggregators.NewReward(aggregators.Mean{}, aggregators.Max{})
	g, err := simulate.NewMatrixGame(2, 2, 2, true, r)
	if err != nil {
		panic(err)
	}
	if err := g.Reset(0); err != nil {
		panic(err)
	}
	// Discrete actions are task indices, flat [B][N].
	actions := []float64{
		0, 0, // batch 0: both agents on task 0
		0, 1, // batch 1: one agent on each task
	}
	if err := g.Step(actions); err != nil {
		panic(err)
	}
	fmt.Println("team rewards:", g.Reward())
	fmt.Println("difference rewards:", g.DifferenceRewards())
	// Output:
	// team rewards: [0.5 1]
	// difference rewards: [0 0 0.5 0.5]
}

// The derivative of the matrix game's reward with respect to the softmax
// temperatures of U and T, for a fixed allocation.
func ExampleReturnGradient() {
	u, _ := aggregators.NewSoftmax(-1)
	t, _ := aggregators.NewSoftmax(2)
	g, _ := simulate.NewMatrixGame(1, 2, 2, false, aggregators.NewReward(u, t))
	pol := simulate.ConstantPolicy{Actions: [][]float64{{0.5, -0.5}, {0, 0}}}
	ret, grad, err := simulate.ReturnGradient(g, pol, 1, []string{"U.t", "T.t"})
	if err != nil {
		panic(err)
	}
	fmt.Printf("R = %.4f, dR/dU.t = %.4f, dR/dT.t = %.4f\n", ret[0], grad[0][0], grad[0][1])
	// Output:
	// R = 0.5543, dR/dU.t = 0.0588, dR/dT.t = 0.0492
}

// Multi-goal-capture with U = min, T = max: a team of specialists (each
// agent to its own goal) against identical agents heading for the middle.
func ExampleCapture() {
	c, err := simulate.NewCapture(simulate.CaptureConfig{
		Batch:  64,
		Reward: aggregators.NewReward(aggregators.Min{}, aggregators.Max{}),
	})
	if err != nil {
		panic(err)
	}
	mean := func(x []float64) float64 {
		s := 0.0
		for _, v := range x {
			s += v
		}
		return s / float64(len(x))
	}
	het, _ := simulate.Rollout(c, c.SeekerPolicy(2, 0.5, 0.1, false), 1, nil)
	hom, _ := simulate.Rollout(c, c.SeekerPolicy(2, 0.5, 0.1, true), 1, nil)
	fmt.Printf("specialists %.1f, identical %.1f\n", mean(het), mean(hom))
	// Output:
	// specialists 7.4, identical 5.0
}

// A Recorder keeps one batch element's trajectory for plotting.
func ExampleRecorder() {
	c, _ := simulate.NewCapture(simulate.CaptureConfig{
		Batch:         2,
		Reward:        aggregators.NewReward(aggregators.Min{}, aggregators.Max{}),
		EpisodeLength: 10,
	})
	rec := simulate.NewRecorder(1)
	if _, err := simulate.Rollout(c, c.SeekerPolicy(2, 0.5, 0, false), 3, rec); err != nil {
		panic(err)
	}
	fmt.Println(len(rec.Steps), "records of", rec.Env, "element", rec.Element)
	fmt.Println("agent 0 moved right:", rec.AgentPos[10][0] > rec.AgentPos[0][0])
	// Output:
	// 11 records of capture element 1
	// agent 0 moved right: true
}
