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
