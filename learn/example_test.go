package learn_test

import (
	"fmt"
	"os"

	"github.com/hetgain/hetgain/learn"
	"github.com/hetgain/hetgain/simulate"
)

// ExampleTrain trains a heterogeneous and a homogeneous team side by side
// on the discrete matrix game with two agents and two tasks, U = min and
// T = mean: the team gets the smallest share of effort that a task
// receives, so the agents must split up. Agents with their own policies
// learn to (reward 0.5); agents sharing a deterministic policy cannot
// (reward 0).
func ExampleTrain() {
	spec := learn.RunSpec{
		Env: learn.EnvSpec{Name: "matrix", Agents: 2, Tasks: 2, Discrete: true, U: "min", T: "mean"},
		Team: learn.Config{Hidden: []int{32, 32}, Envs: 64, FramesPerIter: 800, Epochs: 4, Minibatch: 200,
			LR: 3e-3, Clip: 0.2, MaxGradNorm: 1, Seed: 1},
		Iterations: 12,
		EvalEvery:  4,
	}
	res, err := learn.Train(spec, learn.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	final := res.Final()
	fmt.Println("iterations:", final.Iteration, "log rows:", len(res.Log))
	fmt.Printf("heterogeneous %.2f, homogeneous %.2f\n", final.HetEval, final.HomEval)
	fmt.Println("gain positive:", final.EvalGain > 0)
	// The heterogeneous agents chose different tasks, the homogeneous ones the same.
	fmt.Printf("diversity: heterogeneous %.2f, homogeneous %.2f\n", final.HetDiversity, final.HomDiversity)
	// Output:
	// iterations: 12 log rows: 12
	// heterogeneous 0.50, homogeneous 0.00
	// gain positive: true
	// diversity: heterogeneous 1.00, homogeneous 0.00
}

// ExampleTeam_Policy plays a team's policy in an environment of package
// simulate and differentiates its return with respect to a physical
// parameter of the environment, as HetGPS does.
func ExampleTeam_Policy() {
	spec := learn.EnvSpec{Name: "capture", Agents: 2, Tasks: 2, U: "min", T: "max", EpisodeLength: 20}
	team, err := learn.NewTeam(spec.New, learn.Config{Hidden: []int{16, 16}, Envs: 4, Seed: 3})
	if err != nil {
		fmt.Println(err)
		return
	}
	env, err := spec.New(8) // eight episodes at once
	if err != nil {
		fmt.Println(err)
		return
	}
	pol := team.Policy(true) // stochastic: actions depend on fixed noise
	ret, err := simulate.Rollout(env, pol, 7, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	again, _ := simulate.Rollout(env, pol, 7, nil)
	fmt.Println("episodes:", len(ret), "reproducible:", ret[0] == again[0] && ret[7] == again[7])

	_, grad, err := simulate.ReturnGradient(env.(simulate.DifferentiableEnv), pol, 7, []string{"drag", "force"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("gradient:", len(grad), "x", len(grad[0]))

	// A policy checks the sizes of the environment it is played in.
	small, _ := learn.EnvSpec{Name: "capture", Agents: 3, U: "min", T: "max"}.New(1)
	_, err = simulate.Rollout(small, pol, 7, nil)
	fmt.Println("three agents:", err != nil)
	// Output:
	// episodes: 8 reproducible: true
	// gradient: 8 x 2
	// three agents: true
}

// ExampleTeam_ActionStd reads how much a team's continuous policies
// still explore: the standard deviations of their Gaussians before the
// squash, exp(InitLogStd) at the start and learned afterwards, one row per
// agent. An iteration's UpdateStats report the entropy of the same
// Gaussians.
func ExampleTeam_ActionStd() {
	spec := learn.EnvSpec{Name: "capture", Agents: 2, Tasks: 2, U: "min", T: "max", EpisodeLength: 20}
	team, err := learn.NewTeam(spec.New, learn.Config{Hidden: []int{16, 16}, Envs: 4, InitLogStd: -1, Seed: 3})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("at the start: %.3f\n", team.ActionStd())
	var st learn.IterStats
	for k := 0; k < 3; k++ {
		if st, err = team.Iterate(); err != nil {
			fmt.Println(err)
			return
		}
	}
	fmt.Printf("after %d iterations: %.3f\n", st.Iteration, team.ActionStd())
	fmt.Printf("entropy of the last update: %.3f\n", st.Entropy)
	// Output:
	// at the start: [[0.368 0.368] [0.368 0.368]]
	// after 3 iterations: [[0.366 0.353] [0.366 0.373]]
	// entropy of the last update: 0.819
}

func ExampleEnvSpec_String() {
	for _, s := range []learn.EnvSpec{
		{Name: "matrix", Agents: 4, Tasks: 4, U: "min", T: "max"},
		{Name: "matrix", Discrete: true, U: "mean", T: "softmax(2)"},
		{Name: "capture", Agents: 3, Tasks: 3, U: "min", T: "max", EpisodeLength: 50},
		{Name: "tag", Agents: 8, Tasks: 3, U: "max", T: "mean"},
	} {
		fmt.Println(s)
	}
	// Output:
	// matrix-cont N=4 M=4 U=min T=max
	// matrix-disc N=2 M=2 U=mean T=softmax(2)
	// capture N=3 M=3 U=min T=max
	// tag N=8 M=3 U=max T=mean
}

// ExampleLoadPair loads the teams a run left in its directory and plays
// them again with other environment parameters: here a short Tag run,
// scored without the distance shaping and the collision penalty, so that
// a return counts captures alone (each step R(A) is 0 or 1).
func ExampleLoadPair() {
	dir, err := os.MkdirTemp("", "example-loadpair")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	spec := learn.RunSpec{
		Env:        learn.EnvSpec{Name: "tag", Agents: 2, Tasks: 2, U: "min", T: "max", EpisodeLength: 20},
		Team:       learn.Config{Hidden: []int{16}, Envs: 4, FramesPerIter: 80, Minibatch: 40, Epochs: 2, Seed: 3},
		Iterations: 3,
	}
	if _, err := learn.Train(spec, learn.Options{Dir: dir}); err != nil {
		fmt.Println(err)
		return
	}
	pair, err := learn.LoadPair(dir)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("teams at iteration", pair.Het().Iteration())
	withShaping, _ := pair.Het().Evaluate(64, 7)
	captures := simulate.Params{Names: []string{"shaping", "penalty"}, Values: []float64{0, 0}}
	if err := pair.SetEnvParams(captures); err != nil {
		fmt.Println(err)
		return
	}
	captureOnly, _ := pair.Het().Evaluate(64, 7)
	fmt.Println("with shaping below 0:", withShaping < 0)
	fmt.Println("captures alone in [0, 20]:", captureOnly >= 0 && captureOnly <= 20)
	// Output:
	// teams at iteration 3
	// with shaping below 0: true
	// captures alone in [0, 20]: true
}
