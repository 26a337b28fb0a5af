package gain

import (
	"testing"

	"github.com/hetgain/hetgain/aggregators"
)

// numBenchGeneric runs Numerical's continuous search with the exact kernels
// replaced by the operators' own methods (which validate every input).
func numBenchGeneric(b *testing.B, r *aggregators.Reward, n, m int) {
	c, err := numSetup(r, n, m, Continuous, nil)
	if err != nil {
		b.Fatal(err)
	}
	c.genericKernels = true
	if _, err := c.solve(); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkSoftmaxGrid41Generic is BenchmarkSoftmaxGrid41 through the
// operators' own methods, for comparison with the kernels.
func BenchmarkSoftmaxGrid41Generic(b *testing.B) {
	temps := make([]float64, 41)
	for i := range temps {
		temps[i] = -10 + 0.5*float64(i)
	}
	for k := 0; k < b.N; k++ {
		for _, t := range temps {
			for _, tau := range temps {
				numBenchGeneric(b, aggregators.NewReward(aggregators.Softmax{T: tau}, aggregators.Softmax{T: t}), 2, 2)
			}
		}
	}
}

// BenchmarkMinMeanMax8Generic is BenchmarkMinMeanMax8 through the
// operators' own methods.
func BenchmarkMinMeanMax8Generic(b *testing.B) {
	ops := []aggregators.Operator{aggregators.Min{}, aggregators.Mean{}, aggregators.Max{}}
	for k := 0; k < b.N; k++ {
		for _, u := range ops {
			for _, t := range ops {
				numBenchGeneric(b, aggregators.NewReward(u, t), 8, 8)
			}
		}
	}
}
