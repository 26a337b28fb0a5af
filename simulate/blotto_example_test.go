package simulate_test

import (
	"fmt"
	"log"

	"github.com/hetgain/hetgain/aggregators"
	"github.com/hetgain/hetgain/gain"
	"github.com/hetgain/hetgain/simulate"
)

func ExampleBlotto() {
	// Two battlefields: the adversary sends 0.5 or 1.5 troops to the
	// first (worth 3) and 0 or 1 to the second (worth 1).
	fields := []aggregators.BlottoField{
		{V: 3, Troops: []float64{0.5, 1.5}, Probs: []float64{0.6, 0.4}},
		{V: 1, Troops: []float64{0, 1}, Probs: []float64{0.5, 0.5}},
	}
	g, err := simulate.NewBlotto(4, 2, 1, fields)
	if err != nil {
		log.Fatal(err)
	}
	// With M = 2 actions lie in [-0.5, 0.5]²: colonel 0 plays (0.5, -0.5),
	// all on battlefield 0; colonel 1 plays (0, 0), half on each.
	one := []float64{0.5, -0.5, 0, 0}
	var acts []float64
	for b := 0; b < g.Batch(); b++ {
		acts = append(acts, one...)
	}
	if err := g.Reset(1); err != nil {
		log.Fatal(err)
	}
	if err := g.Step(acts); err != nil {
		log.Fatal(err)
	}
	fmt.Println("efforts:", g.Effort()[:4])
	for b := 0; b < g.Batch(); b++ {
		fmt.Printf("episode %d: adversary %v, reward %v\n", b, g.AdversaryTroops()[2*b:2*b+2], g.Reward()[b])
	}
	// Column sums (1.5, 0.5): battlefield 0 is won when the adversary
	// sends 0.5 (probability 0.6), battlefield 1 when it sends 0.
	r, err := g.TeamReward().Value(bfEffortMatrix(g, 0))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("expected reward %.4g\n", r)

	// No team of specialists does better than the best identical team:
	// both beat 1.5 troops on battlefield 0 and put the rest on battlefield 1.
	opt, err := gain.Blotto(fields, 2)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("R_het = %.4g, R_hom = %.4g, ΔR = %v\n", opt.Het, opt.Hom, opt.Delta)
	// Output:
	// efforts: [1 0 0.5 0.5]
	// episode 0: adversary [0.5 0], reward 4
	// episode 1: adversary [0.5 0], reward 4
	// episode 2: adversary [0.5 1], reward 3
	// episode 3: adversary [0.5 0], reward 4
	// expected reward 2.3
	// R_het = 3.5, R_hom = 3.5, ΔR = 0
}
