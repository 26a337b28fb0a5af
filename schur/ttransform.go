package schur

import (
	"fmt"
	"math"
	"math/rand"
)

// TTransform is the linear map T = λI + (1-λ)Q on R^n, where Q swaps
// coordinates I and J. It replaces x_I and x_J by their weighted averages
// λx_I + (1-λ)x_J and λx_J + (1-λ)x_I and leaves the other coordinates
// alone. T is doubly stochastic, so x ≻ Tx for every x; λ = 0 swaps the two
// coordinates and λ = 1 (or I = J) is the identity.
type TTransform struct {
	I, J   int     // the coordinates averaged, 0-based
	Lambda float64 // the weight λ in [0, 1]
}

// Apply stores Tx in dst and returns dst. If dst is nil a new slice is
// allocated; otherwise len(dst) must equal len(x), and dst may be x itself.
//
// Apply moves the amount d = (1-λ)(x_I - x_J) from coordinate I to
// coordinate J, so that the two new values sum to x_I + x_J up to one
// rounding each and lie between x_I and x_J; λ = 0 swaps exactly and λ = 1
// copies exactly. Apply panics if I or J is out of range, if λ is outside
// [0, 1] or NaN, or if dst has the wrong length.
func (t TTransform) Apply(dst, x []float64) []float64 {
	n := len(x)
	if t.I < 0 || t.I >= n || t.J < 0 || t.J >= n {
		panic(fmt.Sprintf("schur: T-transform (%d, %d) out of range for length %d", t.I, t.J, n))
	}
	if !(t.Lambda >= 0 && t.Lambda <= 1) {
		panic(fmt.Sprintf("schur: T-transform weight %v outside [0, 1]", t.Lambda))
	}
	if dst == nil {
		dst = make([]float64, n)
	} else if len(dst) != n {
		panic(fmt.Sprintf("schur: T-transform destination has length %d, input has %d", len(dst), n))
	}
	xi, xj := x[t.I], x[t.J]
	copy(dst, x)
	switch {
	case t.I == t.J || t.Lambda == 1:
		return dst
	case t.Lambda == 0:
		dst[t.I], dst[t.J] = xj, xi
		return dst
	}
	d := (1 - t.Lambda) * (xi - xj)
	lo, hi := math.Min(xi, xj), math.Max(xi, xj)
	dst[t.I] = clamp(xi-d, lo, hi)
	dst[t.J] = clamp(xj+d, lo, hi)
	return dst
}

// RandomTTransform returns a T-transform on R^n with I != J drawn uniformly
// and λ uniform on [0, 1]. For n = 1 it returns the identity {0, 0, λ}. It
// panics if n < 1 or rnd is nil.
func RandomTTransform(rnd *rand.Rand, n int) TTransform {
	if n < 1 {
		panic(fmt.Sprintf("schur: RandomTTransform: n = %d, need n >= 1", n))
	}
	mustRand(rnd, "RandomTTransform")
	if n == 1 {
		return TTransform{Lambda: rnd.Float64()}
	}
	i, j := randomPair(rnd, n)
	return TTransform{I: i, J: j, Lambda: rnd.Float64()}
}

// TTransformPath returns T-transforms T_1, ..., T_m such that applying them
// in order to x, with TTransform.Apply, gives y: a certificate of x ≻ y.
// Indices refer to the coordinates of x and y as given.
//
// The path has two parts. First come at most n-1 swaps (λ = 0) that
// rearrange x so that its k-th largest coordinate sits where y has its k-th
// largest. Then come at most n-1 averaging steps (0 < λ <= 1), the
// construction of Hardy, Littlewood and Pólya as in Marshall, Olkin and
// Arnold, Lemma 2.B.1: with both vectors listed in that common order, take
// k the first position where x falls short of y (passing over shortfalls
// that are only rounding) and j the last position before k where x exceeds
// y, and move δ = min(x_j - y_j, y_k - x_k) from j to
// k. Each step makes one more coordinate agree with y, so m <= 2(n-1).
//
// The replayed path ends at y up to rounding, an error of a few units in the
// last place of the largest magnitudes per step, and up to the mismatch of
// the sums that tol allows. TTransformPath returns an error wrapping
// ErrNotMajorized, naming the first partial sum that fails, if x does not
// majorize y within tol (see Majorizes), and the errors of Majorizes for
// invalid input. For n = 1 the path is empty.
func TTransformPath(x, y []float64, tol float64) ([]TTransform, error) {
	if err := checkPair(x, y, tol); err != nil {
		return nil, err
	}
	if err := majorizationFailure(x, y, tol); err != nil {
		return nil, fmt.Errorf("schur: x does not majorize y: %w", err)
	}
	pos := descOrder(y) // pos[r] is where y has its r-th largest coordinate
	path := sortLike(x, pos)
	z := sortedDesc(x) // x after the swaps, listed in the order pos
	v := make([]float64, len(y))
	for r, p := range pos {
		v[r] = y[p]
	}
	for {
		j, k := hlpPair(z, v)
		if k < 0 {
			return path, nil
		}
		dj, dk := z[j]-v[j], v[k]-z[k]
		delta := math.Min(dj, dk)
		lambda := clamp(1-delta/(z[j]-z[k]), 0, 1)
		path = append(path, TTransform{I: pos[j], J: pos[k], Lambda: lambda})
		// Set the coordinate that now agrees with y exactly, so that it is
		// never chosen again: this bounds the number of steps. The other
		// one is kept from crossing its target by rounding.
		if dj <= dk {
			z[j], z[k] = v[j], math.Min(z[k]+dj, v[k])
		} else {
			z[j], z[k] = math.Max(z[j]-dk, v[j]), v[k]
		}
	}
}

// sortLike returns the swaps that rearrange x so that its r-th largest
// coordinate sits at position pos[r].
func sortLike(x []float64, pos []int) []TTransform {
	w := append([]float64(nil), x...)
	xs := sortedDesc(x)
	var swaps []TTransform
	for r := 0; r < len(pos)-1; r++ {
		p := pos[r]
		if w[p] == xs[r] {
			continue
		}
		// The positions pos[r:] hold the values xs[r:], so xs[r] is there.
		for _, q := range pos[r+1:] {
			if w[q] == xs[r] {
				w[p], w[q] = w[q], w[p]
				swaps = append(swaps, TTransform{I: p, J: q, Lambda: 0})
				break
			}
		}
	}
	return swaps
}

// hlpPair returns the first k with z[k] < v[k] that has a j < k with
// z[j] > v[j], and the last such j, or j = k = -1 if there is none. When z
// majorizes v (both in the common order) the partial sums put an excess
// before every shortfall, so in exact arithmetic the first shortfall has its
// j. A shortfall of a few units in the last place, left by rounding, may
// have none, and is passed over. The positions between j and k hold no
// excess, so moving at most min(z[j]-v[j], v[k]-z[k]) from j to k keeps z
// majorizing v.
func hlpPair(z, v []float64) (j, k int) {
	for k = range z {
		if z[k] >= v[k] {
			continue
		}
		for j = k - 1; j >= 0; j-- {
			if z[j] > v[j] {
				return j, k
			}
		}
	}
	return -1, -1
}

// randomPair returns two distinct indices below n >= 2.
func randomPair(rnd *rand.Rand, n int) (i, j int) {
	i = rnd.Intn(n)
	j = rnd.Intn(n - 1)
	if j >= i {
		j++
	}
	return i, j
}

func clamp(v, lo, hi float64) float64 {
	return math.Max(lo, math.Min(hi, v))
}
