package gain_test

import (
	"testing"

	"github.com/hetgain/hetgain/aggregators"
	"github.com/hetgain/hetgain/gain"
)

// numGridTemps returns the k temperatures evenly spaced over [-10, 10].
func numGridTemps(k int) []float64 {
	temps := make([]float64, k)
	for i := range temps {
		temps[i] = -10 + 20*float64(i)/float64(k-1)
	}
	return temps
}

// BenchmarkSoftmaxGrid41 computes the continuous softmax gain for
// N = M = 2 on the 41 × 41 grid of (t, τ) in [-10, 10]², sequentially.
func BenchmarkSoftmaxGrid41(b *testing.B) {
	temps := numGridTemps(41)
	for k := 0; k < b.N; k++ {
		for _, t := range temps {
			for _, tau := range temps {
				r := aggregators.NewReward(aggregators.Softmax{T: tau}, aggregators.Softmax{T: t})
				if _, err := gain.Numerical(r, 2, 2, gain.Continuous, nil); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
}

// BenchmarkMinMeanMax8 computes the nine continuous {min, mean, max}²
// gains for N = M = 8.
func BenchmarkMinMeanMax8(b *testing.B) {
	for k := 0; k < b.N; k++ {
		for _, u := range extremes {
			for _, t := range extremes {
				if _, err := gain.Numerical(aggregators.NewReward(u, t), 8, 8, gain.Continuous, nil); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
}

// BenchmarkDiscrete64x8 computes the exact discrete gain of
// softmax(-2)∘softmax(3) for N = 64 agents and M = 8 tasks (a shared inner
// operator: 1.1·10^5 partitions).
func BenchmarkDiscrete64x8(b *testing.B) {
	r := aggregators.NewReward(aggregators.Softmax{T: -2}, aggregators.Softmax{T: 3})
	for k := 0; k < b.N; k++ {
		if _, err := gain.Numerical(r, 64, 8, gain.Discrete, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSoftmaxHet8 computes the continuous gain of
// softmax(-2)∘softmax(3) for N = M = 8.
func BenchmarkSoftmaxHet8(b *testing.B) {
	r := aggregators.NewReward(aggregators.Softmax{T: -2}, aggregators.Softmax{T: 3})
	for k := 0; k < b.N; k++ {
		if _, err := gain.Numerical(r, 8, 8, gain.Continuous, nil); err != nil {
			b.Fatal(err)
		}
	}
}
