package reproduce_test

import (
	"fmt"
	"log"
	"math"
	"os"

	"github.com/hetgain/hetgain/learn"
	"github.com/hetgain/hetgain/reproduce"
)

// Run trains a small grid: the matrix game with N = M = 2 over {min, max}²,
// one seed, three iterations of small batches. The closed form beside each
// cell is what the learned gain should approach with enough training.
func ExampleRun() {
	dir, err := os.MkdirTemp("", "reproduce-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	e := reproduce.Matrix(2, 2)
	e.Ops = []string{"min", "max"}
	e.Seeds = 1
	e = e.WithIterations(3)
	e.Team = learn.Config{Hidden: []int{8}, Envs: 16, FramesPerIter: 64, Minibatch: 32}
	res, err := reproduce.Run(e, reproduce.Options{Dir: dir})
	if err != nil {
		log.Fatal(err)
	}
	df := res.Table()
	fmt.Println(len(res.Cells), "runs of", res.Cells[0].Frames, "frames per team")
	for i := 0; i < df.Nrow(); i++ {
		fmt.Printf("%-10s U=%-3s T=%-3s theory ΔR = %.1f (%s)\n", df.Col("Variant").Elem(i), df.Col("U").Elem(i),
			df.Col("T").Elem(i), df.Col("Theory").Elem(i).Float(), df.Col("Predicted").Elem(i))
	}

	// Running it again reads the finished cells back instead of training.
	again, err := reproduce.Run(e, reproduce.Options{Dir: dir, Progress: func(p reproduce.Progress) {
		if p.FPS != 0 {
			fmt.Println("trained", p.Cell)
		}
	}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("same gains:", fmt.Sprint(again.Table().Col("Gain")) == fmt.Sprint(df.Col("Gain")))
	// Output:
	// 8 runs of 192 frames per team
	// continuous U=min T=min theory ΔR = 0.0 (Zero)
	// continuous U=min T=max theory ΔR = 0.5 (Positive)
	// continuous U=max T=min theory ΔR = 0.0 (Zero)
	// continuous U=max T=max theory ΔR = 0.0 (Zero)
	// discrete   U=min T=min theory ΔR = 0.0 (Zero)
	// discrete   U=min T=max theory ΔR = 1.0 (Positive)
	// discrete   U=max T=min theory ΔR = 0.0 (Zero)
	// discrete   U=max T=max theory ΔR = 0.0 (Zero)
	// same gains: true
}

func ExampleLookup() {
	e, err := reproduce.Lookup("capture")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(e.Name, e.Variants[0].Env.String())
	fmt.Println(len(e.Ops)*len(e.Ops)*e.Seeds, "runs of", e.Iterations*e.Team.FramesPerIter, "frames; the paper:", e.PaperBudget)
	// Output:
	// capture capture N=2 M=2 U= T=
	// 27 runs of 640000 frames; the paper: 30M frames per run, 9 seeds
}

// ExampleResults_RunTable reads the stored tag-large reproduction back and
// lists one cell's final gains seed by seed.
func ExampleResults_RunTable() {
	e := reproduce.TagLarge()
	e.Seeds = 13 // every stored seed
	e, err := e.WithPairs("min-max")
	if err != nil {
		log.Fatal(err)
	}
	res, err := reproduce.Load(e, "../testdata/reproductions/tag-large")
	if err != nil {
		log.Fatal(err)
	}
	runs := res.RunTable()
	seeds, gains := runs.Col("Seed").Records(), runs.Col("Gain").Float()
	positive := 0
	for k := range gains {
		if gains[k] > 0 {
			positive++
		}
	}
	fmt.Printf("%d seeds, %d with a positive gain; seed %s: %.2f\n", len(gains), positive, seeds[4], gains[4])
	// Output:
	// 13 seeds, 12 with a positive gain; seed 5: 3.70
}

// BestLowerBound says whether the runs still to come can change a cell's
// verdict. Here tag-large-30m's (mean, max), 9 seeds planned, threshold
// 0.5 (TagLarge30M().PositiveThreshold), with the gains of its first five
// seeds and then of a sixth.
func ExampleBestLowerBound() {
	gains := []float64{-10.20, 0.65, 1.51, -11.13, -3.49}
	best, err := reproduce.BestLowerBound(gains, 9, math.Inf(-1), math.Inf(1))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("5 of 9, any gains to come:", best)
	// A capture-reward gain in Tag lies in [-100, 100] (100 steps, at most
	// 1 a step).
	best, err = reproduce.BestLowerBound(gains, 9, -100, 100)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("5 of 9, gains to come in [-100, 100]: %.2f\n", best)
	best, err = reproduce.BestLowerBound(append(gains, 0), 9, math.Inf(-1), math.Inf(1))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("6 of 9 (the sixth 0), any gains to come: %.2f\n", best)
	// Output:
	// 5 of 9, any gains to come: +Inf
	// 5 of 9, gains to come in [-100, 100]: 5.09
	// 6 of 9 (the sixth 0), any gains to come: -3.78
}

// The stored (mean, max) runs of Tag at 4.8M frames (tag-large) and the
// same runs trained on to 30M (tag-large-30m, all nine seeds stored):
// did six times the frames change the gain?
func ExamplePairSeedGains() {
	short, err := reproduce.ReadCell("../testdata/reproductions/tag-large", "2v2 mean-max")
	if err != nil {
		log.Fatal(err)
	}
	long, err := reproduce.ReadCell("../testdata/reproductions/tag-large-30m", "2v2 mean-max")
	if err != nil {
		log.Fatal(err)
	}
	p := reproduce.PairSeedGains(short, long)
	fmt.Printf("seeds %v (%d unpaired)\n", p.Seeds, p.Unpaired)
	for i, k := range p.Seeds {
		fmt.Printf("seed %d: %6.2f at 4.8M, %6.2f at 30M\n", k, p.GainA[i], p.GainB[i])
	}
	fmt.Printf("one-sided signed-rank p: higher at 30M %.4f, lower %.4f\n", p.Test.Greater, p.Test.Less)
	// Output:
	// seeds [1 2 3 4 5 6 7 8 9] (0 unpaired)
	// seed 1: -11.96 at 4.8M, -10.20 at 30M
	// seed 2:   2.59 at 4.8M,   0.65 at 30M
	// seed 3:   2.01 at 4.8M,   1.51 at 30M
	// seed 4: -13.18 at 4.8M, -11.13 at 30M
	// seed 5:  -1.95 at 4.8M,  -3.49 at 30M
	// seed 6: -11.52 at 4.8M,  -9.22 at 30M
	// seed 7:  -7.43 at 4.8M,  -3.49 at 30M
	// seed 8: -12.09 at 4.8M, -14.29 at 30M
	// seed 9:  -9.43 at 4.8M,  -7.58 at 30M
	// one-sided signed-rank p: higher at 30M 0.2129, lower 0.8203
}

// ExampleJudge reads the difference-rewards probe of Tag's (mean, max)
// (REPRODUCTIONS.md) by its rule: clearly positive iff the mean less two
// standard errors of its nine seeds' gains exceeds 0.5. At seven seeds
// the last two could still have made it so; with all nine it is not.
func ExampleJudge() {
	gains := []float64{18.10, -4.64, 4.34, 5.96, 11.57, 1.94, 4.21, 16.22, -5.47}
	inf := math.Inf(1)
	for _, k := range []int{7, 9} {
		v, err := reproduce.Judge(gains[:k], 9, 0.5, -inf, inf)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(v)
	}
	// Output:
	// 7 of 9 seeds: mean 5.926 ± 7.223 (std), mean − 2 SE 0.4655 against 0.5: not clearly positive so far; not settled: the 2 seed(s) to come can still reach 3.196
	// 9 of 9 seeds: mean 5.803 ± 8.282 (std), mean − 2 SE 0.2819 against 0.5: not clearly positive
}

// The confirmation of Tag's (mean, max) under difference rewards and an
// entropy bonus (REPRODUCTIONS.md): seeds 10 to 18, trained after the
// variant was chosen on seeds 1 to 9, judged alone by tag-large's rule.
func ExampleSeedGains_SeedRange() {
	cell, err := reproduce.ReadCell("../testdata/reproductions/tag-large-diff-entropy", "2v2 mean-max")
	if err != nil {
		log.Fatal(err)
	}
	fresh := cell.SeedRange(10, 18)
	fmt.Println(fresh.Seeds)
	v, err := reproduce.Judge(fresh.Gains, 9, 0.5, math.Inf(-1), math.Inf(1))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(v)
	// Output:
	// [10 11 12 13 14 15 16 17 18]
	// 9 of 9 seeds: mean 17.9 ± 16.62 (std), mean − 2 SE 6.821 against 0.5: clearly positive
}
