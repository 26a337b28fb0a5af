package schur

import (
	"math/rand"
	"testing"

	"github.com/hetgain/hetgain/aggregators"
)

var sinkBool bool

func BenchmarkMajorizes(b *testing.B) {
	rnd := rand.New(rand.NewSource(1))
	x, y := RandomMajorizedPair(rnd, 8, UnitBox())
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		sinkBool, _ = Majorizes(x, y, 1e-12)
	}
}

func BenchmarkTTransformPath(b *testing.B) {
	rnd := rand.New(rand.NewSource(1))
	x, y := RandomMajorizedPair(rnd, 8, UnitBox())
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := TTransformPath(x, y, 1e-12); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCheck runs the default search on Softmax, n = 4: at t = 1 no
// counterexample exists and every stage runs; at t = 10 both properties
// fail early.
func BenchmarkCheck(b *testing.B) {
	for _, bc := range []struct {
		name string
		t    float64
	}{{"softmax(1)", 1}, {"softmax(10)", 10}} {
		b.Run(bc.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := Check(aggregators.Softmax{T: bc.t}, 4, UnitBox(), nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkCheckSumForm(b *testing.B) {
	g := func(x float64) float64 { return x * x }
	for i := 0; i < b.N; i++ {
		if _, err := CheckSumForm(g, 0, 1, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCheckLargeN runs a short search (Samples 8) in dimension 2000,
// where the structured probe points, about 3n of n coordinates each,
// would take 200 MB if they were kept; they are made anew when needed.
func BenchmarkCheckLargeN(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := Check(aggregators.Mean{}, 2000, UnitBox(), &Options{Samples: 8}); err != nil {
			b.Fatal(err)
		}
	}
}
