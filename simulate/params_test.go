package simulate

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/hetgain/hetgain/aggregators"
)

// TestInfiniteRewardParams checks that a reward operator's infinite
// parameter, such as softmax(±inf), is a parameter like any other: the
// environment gives it back from Params, takes it again in SetParams (as
// learn does before every evaluation), and pays what the operator's limit
// pays: softmax(-inf)∘softmax(inf) is min∘max.
func TestInfiniteRewardParams(t *testing.T) {
	build := map[string]func(u, tt string) Env{
		"matrix": func(u, tt string) Env {
			g, err := NewMatrixGame(3, 2, 2, false, reward(t, u, tt))
			if err != nil {
				t.Fatal(err)
			}
			return g
		},
		"capture": func(u, tt string) Env {
			return newCapture(t, CaptureConfig{Batch: 3, Reward: reward(t, u, tt), EpisodeLength: 6})
		},
		"tag": func(u, tt string) Env {
			return newTag(t, TagConfig{Batch: 3, Reward: reward(t, u, tt), EpisodeLength: 6})
		},
	}
	for name, newEnv := range build {
		limit := newEnv("softmax(-inf)", "softmax(inf)")
		p := limit.Params()
		if err := limit.SetParams(p); err != nil {
			t.Errorf("%s: SetParams(Params() = %v): %v", name, p, err)
			continue
		}
		got, want := runEpisode(t, limit, 7, 3), runEpisode(t, newEnv("min", "max"), 7, 3)
		for k := range want {
			if math.Abs(got[k]-want[k]) > 1e-12 {
				t.Errorf("%s: value %d of the episode: %v under softmax(±inf), %v under min∘max", name, k, got[k], want[k])
				break
			}
		}
		// NaN stays refused, whatever the parameter.
		for _, n := range p.Names {
			if err := limit.SetParams(Params{Names: []string{n}, Values: []float64{math.NaN()}}); !errors.Is(err, ErrParam) {
				t.Errorf("%s: SetParams(%s = NaN) = %v, want ErrParam", name, n, err)
			}
		}
	}
}

// TestPhysicalParamsRefuseInf checks that the physical parameters of
// Capture and Tag, which must be finite, still refuse ±Inf now that the
// reward's may take it.
func TestPhysicalParamsRefuseInf(t *testing.T) {
	envs := map[string]Env{
		"capture": newCapture(t, CaptureConfig{Batch: 1}),
		"tag":     newTag(t, TagConfig{Batch: 1}),
	}
	for name, env := range envs {
		for _, n := range env.Params().Names {
			if n == "U.t" || n == "T.t" {
				continue
			}
			for _, v := range []float64{math.Inf(1), math.Inf(-1)} {
				if err := env.SetParams(Params{Names: []string{n}, Values: []float64{v}}); !errors.Is(err, ErrParam) {
					t.Errorf("%s: SetParams(%s = %v) = %v, want ErrParam", name, n, v, err)
				}
			}
		}
	}
}

// TestInvalidOperatorParams checks that an environment built on a reward
// whose operator has a parameter outside its domain is refused with an
// error wrapping both ErrConfig and aggregators.ErrParam, naming the
// operator.
func TestInvalidOperatorParams(t *testing.T) {
	for _, c := range []struct {
		r    *aggregators.Reward
		name string
	}{
		{aggregators.NewReward(aggregators.Max{}, aggregators.PowerSum{T: -1}), "inner operator 0"},
		{aggregators.NewReward(aggregators.Softmax{T: math.NaN()}, aggregators.Mean{}), "outer operator"},
	} {
		_, err := NewMatrixGame(2, 2, 2, false, c.r)
		if !errors.Is(err, ErrConfig) || !errors.Is(err, aggregators.ErrParam) || !strings.Contains(err.Error(), c.name) {
			t.Errorf("NewMatrixGame(%v): error %v, want ErrConfig and aggregators.ErrParam naming the %s", c.r, err, c.name)
		}
	}
}

// TestRewardTooLarge checks that a reward above aggregators.MaxInput in
// magnitude, whose returns and squared errors would overflow training, is
// refused when the environment is built and when SetParams would make it,
// while 1e100 itself is accepted.
func TestRewardTooLarge(t *testing.T) {
	huge := reward(t, "blotto(1e200; 0.5:1)", "max")
	if _, err := NewMatrixGame(2, 2, 2, false, huge); !errors.Is(err, ErrConfig) || !errors.Is(err, aggregators.ErrRange) ||
		!strings.Contains(err.Error(), "is 1e+200, above 1e+100 in magnitude") {
		t.Errorf("U = blotto(1e200): %v, want ErrConfig and aggregators.ErrRange naming the value", err)
	}
	if _, err := NewMatrixGame(2, 2, 2, false, reward(t, "blotto(1e100; 0.5:1)", "max")); err != nil {
		t.Errorf("U = blotto(1e100): %v", err)
	}
	g, err := NewMatrixGame(2, 2, 2, false, reward(t, "blotto(1; 0.5:1)", "max"))
	if err != nil {
		t.Fatal(err)
	}
	if err := g.SetParams(Params{Names: []string{"U.t"}, Values: []float64{1e200}}); !errors.Is(err, ErrParam) || !errors.Is(err, aggregators.ErrRange) {
		t.Errorf("SetParams(U.t = 1e200): %v, want ErrParam and aggregators.ErrRange", err)
	}
	// Tag also reaches every chaser on every escaper: U = sum of 2
	// escapers' scores of 6e99 each is 1.2e100, where one-task efforts
	// give 6e99.
	r := aggregators.NewReward(aggregators.Sum{}, aggregators.MustParse("blotto(6e99; 0.5:1)"))
	if _, err := NewMatrixGame(1, 2, 2, false, r); err != nil {
		t.Errorf("matrix game (rows sum to 1): %v", err)
	}
	_, err = NewTag(TagConfig{Batch: 1, Reward: r})
	if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), "with every agent on every task is 1.2e+100") {
		t.Errorf("tag: %v, want ErrConfig naming the all-captured efforts", err)
	}
}

// TestSetParamsList checks that every environment refuses a parameter
// list with a name given twice (which value would win?) or with as many
// names as values but not the same count, names what is wrong, and changes
// nothing; and that Params.Get and Set name the counts of a list whose
// Names and Values differ in length.
func TestSetParamsList(t *testing.T) {
	matrix, err := NewMatrixGame(1, 2, 2, false, reward(t, "softmax(1)", "softmax(2)"))
	if err != nil {
		t.Fatal(err)
	}
	blotto, err := NewBlotto(1, 2, 1, []aggregators.BlottoField{{V: 1, Troops: []float64{1}, Probs: []float64{1}}, {V: 2, Troops: []float64{1}, Probs: []float64{1}}})
	if err != nil {
		t.Fatal(err)
	}
	foraging, err := NewForaging(ForagingConfig{Batch: 1, Agents: 2, Width: 3, Height: 2, Levels: []int{1, 2}})
	if err != nil {
		t.Fatal(err)
	}
	envs := []Env{
		matrix, blotto, foraging,
		newCapture(t, CaptureConfig{Batch: 1, Reward: reward(t, "softmax(1)", "softmax(2)")}),
		newTag(t, TagConfig{Batch: 1, Reward: reward(t, "softmax(1)", "softmax(2)")}),
	}
	for _, env := range envs {
		before := env.Params()
		n := before.Names[0]
		v := before.Values[0]
		for _, tc := range []struct {
			p       Params
			mention string
		}{
			{Params{Names: []string{n, n}, Values: []float64{v, v}}, "given twice"},
			{Params{Names: []string{n}, Values: []float64{v, v}}, "1 names and 2 values"},
			{Params{Names: []string{n, before.Names[1]}, Values: []float64{v}}, "2 names and 1 values"},
		} {
			err := env.SetParams(tc.p)
			if !errors.Is(err, ErrParam) || !strings.Contains(err.Error(), tc.mention) || !strings.Contains(err.Error(), env.Name()) {
				t.Errorf("%s: SetParams(%v) = %v, want ErrParam naming %s and %q", env.Name(), tc.p, err, env.Name(), tc.mention)
			}
		}
		after := env.Params()
		for k := range before.Values {
			if math.Float64bits(after.Values[k]) != math.Float64bits(before.Values[k]) {
				t.Errorf("%s: failed SetParams changed %s from %v to %v", env.Name(), before.Names[k], before.Values[k], after.Values[k])
			}
		}
	}

	short := Params{Names: []string{"a", "b"}, Values: []float64{1}}
	if _, err := short.Get("b"); !errors.Is(err, ErrParam) || !strings.Contains(err.Error(), "name 2 of 2, but there are 1 values") {
		t.Errorf("Get from %v: %v", short, err)
	}
	if err := short.Set("b", 3); !errors.Is(err, ErrParam) || !strings.Contains(err.Error(), "name 2 of 2, but there are 1 values") {
		t.Errorf("Set in %v: %v", short, err)
	}
	if v, err := short.Get("a"); err != nil || v != 1 {
		t.Errorf("Get(a) from %v = %v, %v", short, v, err)
	}
}
