package schur

import (
	"errors"
	"fmt"
	"math"
	"sort"

	"github.com/hetgain/hetgain/aggregators"
)

// ErrNotMajorized is wrapped by the errors of TTransformPath when x does not
// majorize y.
var ErrNotMajorized = errors.New("not majorized")

// Majorizes reports whether x ≻ y: x and y have the same sum and, for every
// k = 1, ..., n-1, the sum of the k largest coordinates of x is at least the
// sum of the k largest coordinates of y (Marshall, Olkin and Arnold,
// Definition 1.A.1). tol is an absolute tolerance: the sums may differ by at
// most tol and each partial sum of x may fall short of that of y by at most
// tol. Partial sums are computed in floating point, so tol = 0 is exact
// only for vectors whose sums are computed exactly.
//
// Majorizes returns an error if x and y differ in length, are empty, hold a
// NaN, an infinite value or a magnitude above aggregators.MaxInput, or if
// tol is negative, NaN or infinite.
func Majorizes(x, y []float64, tol float64) (bool, error) {
	if err := checkPair(x, y, tol); err != nil {
		return false, err
	}
	return majorizationFailure(x, y, tol) == nil, nil
}

// WeaklySubmajorizes reports whether x ≻_w y: for every k = 1, ..., n the
// sum of the k largest coordinates of x is at least the sum of the k largest
// coordinates of y, within the absolute tolerance tol. In the notation of
// Marshall, Olkin and Arnold (Definition 1.A.2) y is weakly submajorized by
// x, y ≺_w x. The sums need not be equal; x ≻ y implies x ≻_w y, and x ≻_w y
// with equal sums implies x ≻ y. The errors are those of Majorizes.
func WeaklySubmajorizes(x, y []float64, tol float64) (bool, error) {
	if err := checkPair(x, y, tol); err != nil {
		return false, err
	}
	xs, ys := sortedDesc(x), sortedDesc(y)
	k, _, _ := firstShortfall(xs, ys, len(xs), tol)
	return k == 0, nil
}

// WeaklySupermajorizes reports whether x ≻^w y: for every k = 1, ..., n the
// sum of the k smallest coordinates of x is at most the sum of the k
// smallest coordinates of y, within the absolute tolerance tol. In the
// notation of Marshall, Olkin and Arnold (Definition 1.A.2) y is weakly
// supermajorized by x, y ≺^w x. The sums need not be equal; x ≻ y implies
// x ≻^w y, and x ≻^w y with equal sums implies x ≻ y. With a tolerance the
// slack adds up: the k smallest coordinates sum to the total less the n-k
// largest, so x ≻ y within tol implies x ≻^w y within 2·tol. The errors are
// those of Majorizes.
func WeaklySupermajorizes(x, y []float64, tol float64) (bool, error) {
	if err := checkPair(x, y, tol); err != nil {
		return false, err
	}
	// The k smallest of x sum to at most those of y exactly when the k
	// largest of -x sum to at least those of -y.
	xs, ys := sortedDesc(negated(x)), sortedDesc(negated(y))
	k, _, _ := firstShortfall(xs, ys, len(xs), tol)
	return k == 0, nil
}

// Lorenz returns the Lorenz curve of x: the n+1 points L_0 = 0 and
// L_k = (x_(1) + ... + x_(k)) / (x_1 + ... + x_n), k = 1, ..., n, where
// x_(1) <= ... <= x_(n) are the coordinates in ascending order; L_n is 1.
// For vectors of equal sum, x ≻ y exactly when the Lorenz curve of x lies
// on or below that of y at every k (Marshall, Olkin and Arnold, section
// 1.A).
//
// The total must be positive: Lorenz returns an error wrapping
// aggregators.ErrRange if it is zero or negative, and the errors of
// Majorizes for an empty x or a NaN, infinite or too large value. Negative
// coordinates are allowed when the total is positive; the curve then dips
// below 0.
func Lorenz(x []float64) ([]float64, error) {
	if err := checkVector("x", x); err != nil {
		return nil, err
	}
	a := sortedDesc(x)
	reverse(a)
	l := make([]float64, len(a)+1)
	var sum compensatedSum // naive sums of 1e17, -1e17, 1, 1 give 0
	for k, v := range a {
		sum.add(v)
		l[k+1] = sum.value()
	}
	s := sum.value()
	if !(s > 0) {
		return nil, fmt.Errorf("schur: Lorenz curve: total %v is not positive: %w", s, aggregators.ErrRange)
	}
	for k := range l {
		l[k] /= s
	}
	return l, nil
}

// majorizationFailure returns nil if x ≻ y within tol, or an error wrapping
// ErrNotMajorized that names the first partial sum that fails or the
// difference of the sums.
func majorizationFailure(x, y []float64, tol float64) error {
	xs, ys := sortedDesc(x), sortedDesc(y)
	n := len(xs)
	if k, sx, sy := firstShortfall(xs, ys, n-1, tol); k > 0 {
		return fmt.Errorf("sum of the %d largest coordinates is %v for x but %v for y: %w", k, sx, sy, ErrNotMajorized)
	}
	sx, sy := sum(xs), sum(ys)
	if math.Abs(sx-sy) > tol {
		return fmt.Errorf("x sums to %v but y sums to %v: %w", sx, sy, ErrNotMajorized)
	}
	return nil
}

// firstShortfall returns the first k <= m at which the sum of the first k
// elements of xs falls below that of ys by more than tol, with both sums,
// or k = 0 if there is none.
func firstShortfall(xs, ys []float64, m int, tol float64) (k int, sx, sy float64) {
	for i := 0; i < m; i++ {
		sx += xs[i]
		sy += ys[i]
		if sx < sy-tol {
			return i + 1, sx, sy
		}
	}
	return 0, 0, 0
}

func checkPair(x, y []float64, tol float64) error {
	if len(x) != len(y) {
		return fmt.Errorf("schur: x has length %d but y has length %d: %w", len(x), len(y), aggregators.ErrDimension)
	}
	if err := checkVector("x", x); err != nil {
		return err
	}
	if err := checkVector("y", y); err != nil {
		return err
	}
	return checkTol("tolerance", tol)
}

func checkTol(name string, tol float64) error {
	if math.IsNaN(tol) || math.IsInf(tol, 0) || tol < 0 {
		return fmt.Errorf("schur: %s %v must be finite and non-negative: %w", name, tol, aggregators.ErrParam)
	}
	return nil
}

// checkVector returns an error naming the first coordinate of x that is
// NaN, infinite or above aggregators.MaxInput in magnitude, or an error if x
// is empty.
func checkVector(name string, x []float64) error {
	if len(x) == 0 {
		return fmt.Errorf("schur: %s: %w (need at least one)", name, aggregators.ErrEmpty)
	}
	for i, v := range x {
		switch {
		case math.IsNaN(v):
			return fmt.Errorf("schur: %s[%d] = NaN: %w", name, i, aggregators.ErrNaN)
		case math.IsInf(v, 0):
			return fmt.Errorf("schur: %s[%d] = %v: %w", name, i, v, aggregators.ErrInf)
		case math.Abs(v) > aggregators.MaxInput:
			return fmt.Errorf("schur: %s[%d] = %v has magnitude above %g: %w", name, i, v, aggregators.MaxInput, aggregators.ErrRange)
		}
	}
	return nil
}

// sortedDesc returns a copy of x sorted in descending order.
func sortedDesc(x []float64) []float64 {
	s := append([]float64(nil), x...)
	sort.Sort(sort.Reverse(sort.Float64Slice(s)))
	return s
}

// descOrder returns the indices of x ordered by descending value, ties by
// ascending index.
func descOrder(x []float64) []int {
	idx := make([]int, len(x))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return x[idx[a]] > x[idx[b]] })
	return idx
}

func negated(x []float64) []float64 {
	y := make([]float64, len(x))
	for i, v := range x {
		y[i] = -v
	}
	return y
}

func reverse(x []float64) {
	for i, j := 0, len(x)-1; i < j; i, j = i+1, j-1 {
		x[i], x[j] = x[j], x[i]
	}
}

func sum(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s
}

// compensatedSum is a running sum with Neumaier's compensation: the
// rounding error of each addition is kept in c and added back, so that
// cancellation between large terms does not lose the small ones.
type compensatedSum struct{ s, c float64 }

func (cs *compensatedSum) add(v float64) {
	t := cs.s + v
	if math.Abs(cs.s) >= math.Abs(v) {
		cs.c += (cs.s - t) + v
	} else {
		cs.c += (v - t) + cs.s
	}
	cs.s = t
}

func (cs *compensatedSum) value() float64 { return cs.s + cs.c }
