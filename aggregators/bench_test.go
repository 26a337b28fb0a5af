package aggregators

import (
	"math/rand"
	"testing"

	"gonum.org/v1/gonum/mat"
)

var benchSink float64

func BenchmarkSoftmaxValue(b *testing.B) {
	x := unitPoint(rand.New(rand.NewSource(40)), 8)
	op := Softmax{T: 2.5}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		benchSink = op.Value(x)
	}
}

func BenchmarkPowerMeanValue(b *testing.B) {
	x := unitPoint(rand.New(rand.NewSource(41)), 8)
	op := PowerMean{T: 0.5}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		benchSink = op.Value(x)
	}
}

// benchReward is softmax(2)∘powermean(0.5) on an 8 x 8 allocation whose
// rows sum to 1.
func benchReward() (*Reward, *mat.Dense) {
	a := allocation(rand.New(rand.NewSource(42)), 8, 8, 1)
	return NewReward(Softmax{T: 2}, PowerMean{T: 0.5}), a
}

func BenchmarkRewardValue(b *testing.B) {
	r, a := benchReward()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		v, err := r.Value(a)
		if err != nil {
			b.Fatal(err)
		}
		benchSink = v
	}
}

func BenchmarkRewardGradient(b *testing.B) {
	r, a := benchReward()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		g, err := r.Gradient(a)
		if err != nil {
			b.Fatal(err)
		}
		benchSink = g.At(0, 0)
	}
}

func BenchmarkPowerMeanGradient(b *testing.B) {
	x := unitPoint(rand.New(rand.NewSource(43)), 8)
	op := PowerMean{T: 0.5}
	dst := make([]float64, len(x))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		dst = op.Gradient(dst, x)
	}
	benchSink = dst[0]
}
