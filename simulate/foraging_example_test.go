package simulate_test

import (
	"fmt"
	"log"

	"github.com/hetgain/hetgain/simulate"
	"gonum.org/v1/gonum/mat"
)

// bfEffortMatrix returns the N x M effort matrix of batch element b.
func bfEffortMatrix(env simulate.Env, b int) *mat.Dense {
	n, m := env.Agents(), env.Tasks()
	return mat.NewDense(n, m, append([]float64(nil), env.Effort()[b*n*m:(b+1)*n*m]...))
}

func ExampleForaging() {
	// Three agents, one item of level 2 and one of level 1 on a 5 x 4 grid.
	e, err := simulate.NewForaging(simulate.ForagingConfig{Batch: 1, Agents: 3, Width: 5, Height: 4, Levels: []int{2, 1}})
	if err != nil {
		log.Fatal(err)
	}
	if err := e.Reset(7); err != nil {
		log.Fatal(err)
	}
	// Agents 0 and 1 stand on item 0 at (2, 1); agent 2 is on (0, 0),
	// left of item 1 at (1, 0).
	if err := e.Place(0, []float64{2, 1, 2, 1, 0, 0}, []float64{2, 1, 1, 0}); err != nil {
		log.Fatal(err)
	}
	load := float64(simulate.ForagingLoad)

	// Agent 0 loads alone: a level-2 item needs two.
	if err := e.Step([]float64{load, simulate.ForagingStay, simulate.ForagingRight}); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("reward %v, efforts\n%v\n", e.Reward()[0], mat.Formatted(bfEffortMatrix(e, 0)))

	// Both load item 0, and agent 2, now on item 1, loads it.
	if err := e.Step([]float64{load, load, load}); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("reward %v, efforts\n%v\n", e.Reward()[0], mat.Formatted(bfEffortMatrix(e, 0)))
	r, err := e.TeamReward().Value(bfEffortMatrix(e, 0))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("sum_j LevelThreshold{L_j}(a_j) =", r)
	fmt.Println("collected:", e.Collected(), "items now at", e.TaskPositions(0))
	// Agent 2 sees its cell, each item's offset and level, and each other
	// agent's offset.
	fmt.Println("observation of agent 2:", e.Obs()[2*e.ObsDim():])
	// Output:
	// reward 0, efforts
	// ⎡1  0⎤
	// ⎢0  0⎥
	// ⎣0  0⎦
	// reward 3, efforts
	// ⎡1  0⎤
	// ⎢1  0⎥
	// ⎣0  1⎦
	// sum_j LevelThreshold{L_j}(a_j) = 3
	// collected: [true true] items now at [3 3 1 1]
	// observation of agent 2: [1 0 2 3 2 0 1 1 1 1 1 1]
}
