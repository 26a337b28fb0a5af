package learn

import (
	"fmt"
	"testing"
)

func benchForwardBackward(b *testing.B, sizes []int, rows int) {
	m := nnTestNet(sizes, 1)
	r := newRNG(2)
	x := nnRandVec(&r, rows*m.inputs(), 1)
	dOut := nnRandVec(&r, rows*m.outputs(), 1)
	grad := make([]float64, m.numParams())
	var w mlpWork
	m.forward(&w, x, rows)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m.forward(&w, x, rows)
		m.backward(&w, dOut, grad)
	}
}

func BenchmarkForwardBackward(b *testing.B) {
	for _, sizes := range [][]int{{8, 64, 64, 5}, {8, 256, 256, 5}} {
		b.Run(fmt.Sprintf("%v/rows=1024", sizes), func(b *testing.B) {
			benchForwardBackward(b, sizes, 1024)
		})
	}
}

func BenchmarkForward1(b *testing.B) {
	m := nnTestNet([]int{8, 64, 64, 5}, 1)
	r := newRNG(3)
	x := nnRandVec(&r, m.inputs(), 1)
	out := make([]float64, m.outputs())
	scratch := make([]float64, m.scratchLen())
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m.forward1(x, out, scratch)
	}
}
