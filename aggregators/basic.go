package aggregators

import "math"

// Min is the minimum of the coordinates, the most Schur-concave aggregator.
//
// Its gradient at a point where k coordinates tie for the minimum is 1/k on
// each of them and 0 elsewhere: the average of the one-sided gradients, an
// element of the Clarke subdifferential.
type Min struct{}

// Value returns the smallest coordinate of x.
func (Min) Value(x []float64) float64 {
	mustCheck(Min{}, x)
	return minOf(x)
}

// Gradient returns the tie-averaged subgradient described on Min.
func (Min) Gradient(dst, x []float64) []float64 {
	mustCheck(Min{}, x)
	return tieGradient(gradientDst(dst, x), x, minOf(x))
}

// Schur returns Both for n = 1, StrictlyConcave for n = 2 and Concave for
// n >= 3 (x = (1,0,0) ≻ y = (1/2,1/2,0) but min(x) = min(y)).
func (Min) Schur(n int) SchurClass { return extremeClass(n, StrictlyConcave, Concave) }

// StrictlyIncreasing reports true only for n = 1.
func (Min) StrictlyIncreasing(n int) bool { return n == 1 }

// Domain returns Real.
func (Min) Domain() Domain { return Real }

// String returns "min".
func (Min) String() string { return "min" }

// Max is the maximum of the coordinates, the most Schur-convex aggregator.
// Its gradient at ties follows the convention of Min.
type Max struct{}

// Value returns the largest coordinate of x.
func (Max) Value(x []float64) float64 {
	mustCheck(Max{}, x)
	return maxOf(x)
}

// Gradient returns the tie-averaged subgradient described on Min.
func (Max) Gradient(dst, x []float64) []float64 {
	mustCheck(Max{}, x)
	return tieGradient(gradientDst(dst, x), x, maxOf(x))
}

// Schur returns Both for n = 1, StrictlyConvex for n = 2 and Convex for
// n >= 3.
func (Max) Schur(n int) SchurClass { return extremeClass(n, StrictlyConvex, Convex) }

// StrictlyIncreasing reports true only for n = 1.
func (Max) StrictlyIncreasing(n int) bool { return n == 1 }

// Domain returns Real.
func (Max) Domain() Domain { return Real }

// String returns "max".
func (Max) String() string { return "max" }

// Mean is the arithmetic mean of the coordinates. It depends only on their
// sum, so it is both Schur-convex and Schur-concave.
type Mean struct{}

// Value returns the arithmetic mean of x.
func (Mean) Value(x []float64) float64 {
	mustCheck(Mean{}, x)
	return meanOf(x)
}

// Gradient returns the constant gradient 1/n.
func (Mean) Gradient(dst, x []float64) []float64 {
	mustCheck(Mean{}, x)
	return fill(gradientDst(dst, x), 1/float64(len(x)))
}

// Schur returns Both.
func (Mean) Schur(n int) SchurClass { return Both }

// StrictlyIncreasing returns true.
func (Mean) StrictlyIncreasing(n int) bool { return true }

// Domain returns Real.
func (Mean) Domain() Domain { return Real }

// String returns "mean".
func (Mean) String() string { return "mean" }

// Sum is the sum of the coordinates.
type Sum struct{}

// Value returns the sum of x.
func (Sum) Value(x []float64) float64 {
	mustCheck(Sum{}, x)
	return sumOf(x)
}

// Gradient returns the constant gradient 1.
func (Sum) Gradient(dst, x []float64) []float64 {
	mustCheck(Sum{}, x)
	return fill(gradientDst(dst, x), 1)
}

// Schur returns Both.
func (Sum) Schur(n int) SchurClass { return Both }

// StrictlyIncreasing returns true.
func (Sum) StrictlyIncreasing(n int) bool { return true }

// Domain returns Real.
func (Sum) Domain() Domain { return Real }

// String returns "sum".
func (Sum) String() string { return "sum" }

// extremeClass is the Schur class of min or max for n coordinates: for
// n = 2 majorization is a total order on vectors of equal sum, so the
// extreme operators are strict; for n >= 3 they are not.
func extremeClass(n int, two, more SchurClass) SchurClass {
	switch {
	case n <= 1:
		return Both
	case n == 2:
		return two
	}
	return more
}

func tieGradient(dst, x []float64, extreme float64) []float64 {
	ties := 0
	for _, v := range x {
		if v == extreme {
			ties++
		}
	}
	for i, v := range x {
		dst[i] = 0
		if v == extreme {
			dst[i] = 1 / float64(ties)
		}
	}
	return dst
}

func minOf(x []float64) float64 {
	m := x[0]
	for _, v := range x[1:] {
		m = math.Min(m, v)
	}
	return m
}

func maxOf(x []float64) float64 {
	m := x[0]
	for _, v := range x[1:] {
		m = math.Max(m, v)
	}
	return m
}

func sumOf(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s
}

func meanOf(x []float64) float64 {
	// Dividing each term keeps the sum finite for inputs near MaxInput.
	n := float64(len(x))
	s := 0.0
	for _, v := range x {
		s += v / n
	}
	return s
}

func fill(dst []float64, v float64) []float64 {
	for i := range dst {
		dst[i] = v
	}
	return dst
}
