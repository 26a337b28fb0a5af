package simulate_test

import (
	"fmt"

	"github.com/hetgain/hetgain/aggregators"
	"github.com/hetgain/hetgain/simulate"
)

// 2v2 Tag with U = min, T = max: the team is paid only once both escapers
// have been caught. Chasers that split the escapers between them catch
// more distinct escapers than chasers that all run after their nearest.
func ExampleTag() {
	g, err := simulate.Tag2v2(256, aggregators.NewReward(aggregators.Min{}, aggregators.Max{}))
	if err != nil {
		panic(err)
	}
	fmt.Println("observation:", g.ObsDim(), "values per chaser")
	fmt.Println("parameters:", g.Params().Names)
	distinct := func(pol simulate.Policy) float64 {
		if _, err := simulate.Rollout(g, pol, 1, nil); err != nil {
			panic(err)
		}
		// Captures are kept to the end of the episode: the last capture
		// matrices hold them all.
		n, m, eff := g.Agents(), g.Tasks(), g.Effort()
		caught := 0
		for b := 0; b < g.Batch(); b++ {
			for j := 0; j < m; j++ {
				for i := 0; i < n; i++ {
					if eff[(b*n+i)*m+j] == 1 {
						caught++
						break
					}
				}
			}
		}
		return float64(caught) / float64(g.Batch())
	}
	het := distinct(g.ChaserPolicy(10, 0.3, 0.3, false))
	hom := distinct(g.ChaserPolicy(10, 0.3, 0.3, true))
	fmt.Println("specialists catch more distinct escapers:", het > hom)
	// Output:
	// observation: 18 values per chaser
	// parameters: [drag force escaper.force chaser.speed escaper.speed obstacle.radius shaping penalty]
	// specialists catch more distinct escapers: true
}

// The derivatives of Tag's return with respect to its parameters, by
// forward-mode differentiation through the episode.
func ExampleTag_ReturnGradient() {
	u, _ := aggregators.NewSoftmax(-2)
	t, _ := aggregators.NewSoftmax(2)
	g, err := simulate.NewTag(simulate.TagConfig{Batch: 4, Reward: aggregators.NewReward(u, t)})
	if err != nil {
		panic(err)
	}
	pol := g.ChaserPolicy(6, 0.3, 0.3, false)
	ret, grad, err := simulate.ReturnGradient(g, pol, 1, []string{"U.t", "shaping"})
	if err != nil {
		panic(err)
	}
	fmt.Println(len(ret), "returns,", len(grad[0]), "derivatives each")
	// The distance term enters the return as -shaping · distance.
	fmt.Println("dG/dshaping < 0:", grad[0][1] < 0)
	// Output:
	// 4 returns, 2 derivatives each
	// dG/dshaping < 0: true
}

// The effort profiles of Tag's reference chasers on the capture reward
// alone. A capture counts until the episode ends, so At(i, j) is the
// fraction of steps after chaser i caught escaper j. Specialists each
// catch their own escaper, and catch both more often than chasers that
// all go after the nearest one; under U = mean, T = max that pays.
func ExampleProfile() {
	g, err := simulate.Tag2v2(256, aggregators.NewReward(aggregators.Mean{}, aggregators.Max{}))
	if err != nil {
		panic(err)
	}
	if err := g.SetParams(simulate.Params{Names: []string{"shaping", "penalty"}, Values: []float64{0, 0}}); err != nil {
		panic(err)
	}
	for _, homogeneous := range []bool{false, true} {
		p, err := simulate.Profile(g, g.ChaserPolicy(10, 0.3, 0.3, homogeneous), 1)
		if err != nil {
			panic(err)
		}
		fmt.Printf("homogeneous %v: chaser 1 caught escapers 1, 2: %.2f %.2f; chaser 2: %.2f %.2f; both caught: %.2f; return %.1f\n",
			homogeneous, p.At(0, 0), p.At(0, 1), p.At(1, 0), p.At(1, 1), p.Covered[2], p.Return)
	}
	// Output:
	// homogeneous false: chaser 1 caught escapers 1, 2: 0.22 0.02; chaser 2: 0.02 0.23; both caught: 0.10; return 23.1
	// homogeneous true: chaser 1 caught escapers 1, 2: 0.08 0.12; chaser 2: 0.11 0.11; both caught: 0.06; return 17.8
}

// Whether a team split over the tasks by index: the paper's Tag with its
// reference chasers, sent each after its own escaper or each after its
// nearest one.
func ExampleEffortProfile_Specialists() {
	g, err := simulate.TagVMAS2v2(64, aggregators.NewReward(aggregators.Mean{}, aggregators.Max{}))
	if err != nil {
		panic(err)
	}
	for _, nearest := range []bool{false, true} {
		p, err := simulate.Profile(g, g.ChaserPolicy(10, 0.2, 0, nearest), 1)
		if err != nil {
			panic(err)
		}
		fmt.Printf("nearest %v: specialists %v\n", nearest, p.Specialists(simulate.SpecialistRatio))
	}
	// Output:
	// nearest false: specialists [0 1]
	// nearest true: specialists []
}

// What the paper's Tag pays hand-written specialists: every team of two
// chasers, each after its nearest escaper (candidate 0), escaper 1
// (candidate 1) or escaper 2 (candidate 2), on the capture reward alone.
// Under U = min both escapers must be held, and the best team is of
// specialists, but by less than its standard error over the best team of
// alike chasers (those of the nearest escaper); under U = mean, T = max
// the best team is alike.
func ExampleClassGain() {
	candidates := []simulate.Policy{
		simulate.TagChaser{Escapers: 2, Target: []int{-1, -1}, Gain: 10},
		simulate.TagChaser{Escapers: 2, Target: []int{0, 0}, Gain: 10},
		simulate.TagChaser{Escapers: 2, Target: []int{1, 1}, Gain: 10},
	}
	for _, u := range []aggregators.Operator{aggregators.Min{}, aggregators.Mean{}} {
		g, err := simulate.TagVMAS2v2(256, aggregators.NewReward(u, aggregators.Max{}))
		if err != nil {
			panic(err)
		}
		if err := g.SetParams(simulate.Params{Names: []string{"shaping", "penalty"}, Values: []float64{0, 0}}); err != nil {
			panic(err)
		}
		res, err := simulate.ClassGain(g, candidates, []int64{1, 2, 3, 4})
		if err != nil {
			panic(err)
		}
		fmt.Printf("%v∘max: best team %v %.2f, best alike %v %.2f, gain %.2f ± %.2f (standard error, %d episodes)\n", u,
			res.Teams[res.Best], res.Returns[res.Best], res.Teams[res.BestAlike], res.Returns[res.BestAlike],
			res.Gain(), res.GainStdErr, res.Episodes)
	}
	// Output:
	// min∘max: best team [2 1] 16.04, best alike [0 0] 16.00, gain 0.04 ± 0.72 (standard error, 1024 episodes)
	// mean∘max: best team [0 0] 38.86, best alike [0 0] 38.86, gain 0.00 ± 0.00 (standard error, 1024 episodes)
}

// Each chaser's own reward in Tag: its own distance to its nearest
// escaper in place of the team's mean distance, so that the team reward
// is the mean of the chasers' rewards.
func ExampleTag_AgentRewards() {
	g, err := simulate.Tag2v2(1, aggregators.NewReward(aggregators.Mean{}, aggregators.Max{}))
	if err != nil {
		panic(err)
	}
	if err := g.Reset(3); err != nil {
		panic(err)
	}
	// Chaser 1 pushes right, chaser 2 stands still.
	if err := g.Step([]float64{1, 0, 0, 0}); err != nil {
		panic(err)
	}
	own, team := g.AgentRewards(), g.Reward()[0]
	fmt.Printf("chasers: %.4f %.4f; their mean %.4f; team %.4f\n", own[0], own[1], (own[0]+own[1])/2, team)
	// Output:
	// chasers: -0.0570 -0.0376; their mean -0.0473; team -0.0473
}
