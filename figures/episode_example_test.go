package figures_test

import (
	"fmt"

	"github.com/hetgain/hetgain/aggregators"
	"github.com/hetgain/hetgain/figures"
	"github.com/hetgain/hetgain/simulate"
)

// A recorded Multi-goal-capture episode, drawn as a trajectory picture and
// as the effort matrix along the episode. figures takes plain data; Paths
// turns a simulate.Recorder's per-step positions into per-agent paths.
func ExampleEpisode() {
	c, err := simulate.NewCapture(simulate.CaptureConfig{
		Batch:  1,
		Reward: aggregators.NewReward(aggregators.Min{}, aggregators.Max{}),
	})
	if err != nil {
		panic(err)
	}
	rec := simulate.NewRecorder(0)
	if _, err := simulate.Rollout(c, c.SeekerPolicy(2, 0.5, 0.1, false), 1, rec); err != nil {
		panic(err)
	}
	traj := figures.Episode("Multi-goal-capture, U=min, T=max", figures.Trajectories{
		Title:       "specialists",
		Agents:      figures.Paths(rec.AgentPos),
		Tasks:       figures.Paths(rec.TaskPos),
		AgentRadius: simulate.CaptureRadius,
		TaskRadius:  simulate.CaptureRadius,
		Bounds:      [4]float64{-simulate.CaptureXBound, simulate.CaptureXBound, -simulate.CaptureYBound, simulate.CaptureYBound},
		ArrowEvery:  10,
		TaskName:    "goal",
	})
	efforts := figures.EffortLines("Efforts", figures.Efforts{
		Steps: rec.Steps, Matrices: rec.Efforts, Agents: rec.Agents, Tasks: rec.Tasks,
	})
	fmt.Println(len(traj.PNG()) > 0, len(efforts.PNG()) > 0)
	// Output: true true
}
