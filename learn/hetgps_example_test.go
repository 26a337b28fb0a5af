package learn_test

import (
	"fmt"
	"log"

	"github.com/hetgain/hetgain/learn"
)

// HetGPS on the matrix game with N = M = 2 and softmax aggregators that
// start at the mean (τ = 0): the search makes the task aggregator T
// Schur-convex (τ_T > 0) and the outer aggregator U Schur-concave
// (τ_U < 0), the reward structure the theory says favours specialists,
// and the heterogeneous team pulls ahead.
func ExampleHetGPS() {
	spec := learn.HetGPSSpec{
		Run: learn.RunSpec{
			Env:        learn.EnvSpec{Name: "matrix", Agents: 2, Tasks: 2, U: "softmax(0)", T: "softmax(0)"},
			Team:       learn.Config{Seed: 1, Hidden: []int{32, 32}},
			Iterations: 30, EvalEvery: 10, EvalEpisodes: 4,
		},
		Params:       []learn.ThetaParam{{Name: "T.t", Init: 0}, {Name: "U.t", Init: 0}},
		GradEpisodes: 256,
	}
	res, err := learn.HetGPS(spec, learn.Options{})
	if err != nil {
		log.Fatal(err)
	}
	last := res.Log[len(res.Log)-1]
	fmt.Println("searched", res.Names, "for", len(res.Log), "iterations")
	fmt.Println("τ_T > 0.5:", last.Theta[0] > 0.5)
	fmt.Println("τ_U < -0.5:", last.Theta[1] < -0.5)
	fmt.Println("gain > 0.1:", last.GradGain > 0.1, last.EvalGain > 0.1)
	// Output:
	// searched [T.t U.t] for 30 iterations
	// τ_T > 0.5: true
	// τ_U < -0.5: true
	// gain > 0.1: true true
}

// Plan says which iterations train the agents and which step θ.
func ExampleHetGPSSpec_Plan() {
	for _, s := range []learn.HetGPSSpec{
		{Schedule: learn.Concurrent, AgentIters: 2},
		{Schedule: learn.Alternated, AgentIters: 3, EnvIters: 2},
	} {
		fmt.Printf("%-10s x=%d y=%d:", s.Schedule, s.AgentIters, s.EnvIters)
		for it := 1; it <= 10; it++ {
			agents, env := s.Plan(it)
			switch {
			case agents && env:
				fmt.Print(" both")
			case agents:
				fmt.Print(" agents")
			default:
				fmt.Print(" θ")
			}
		}
		fmt.Println()
	}
	// Output:
	// concurrent x=2 y=0: agents both agents both agents both agents both agents both
	// alternated x=3 y=2: agents agents agents θ θ agents agents agents θ θ
}
