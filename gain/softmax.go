package gain

import (
	"fmt"
	"math"
)

// Bound is what a theorem states about the optima of a team reward: the
// homogeneous optimum, a lower bound on the heterogeneous optimum, and the
// resulting lower bound on the heterogeneity gain.
type Bound struct {
	// Hom is R_hom as the theorem states it.
	Hom float64
	// HetLower is a lower bound on R_het, the reward of an explicit
	// allocation.
	HetLower float64
	// DeltaLower is the theorem's lower bound on ΔR.
	DeltaLower float64
	// Exact reports that the theorem states ΔR = DeltaLower.
	Exact bool
	// Case names the case of the theorem that applies.
	Case string
}

// SoftmaxBound returns the statement of Theorem 3.4 for the reward
// R = U∘T with inner aggregator T = aggregators.Softmax{T: t} and outer
// aggregator U = aggregators.Softmax{T: tau}, for n = m agents and tasks.
// With σ(t, N) = e^t/(e^t + N − 1):
//
//	case (i),   t <= 0:         ΔR = 0 (Exact)
//	case (ii),  t > 0, τ <= 0:  ΔR >= σ(t, N) − 1/N
//	case (iii), t > 0, τ > 0:   ΔR >= max(σ(t, N) − σ(τ, N), 0)
//
// (at τ = 0 cases (ii) and (iii) agree). Hom is the theorem's (H):
// R_hom = 1/N for τ <= 0 and σ(τ, N) for τ > 0. HetLower is its (L):
// R_het >= max(σ(t, N), σ(τ, N)), the rewards of the spread allocation
// (agent i works on task i only) and of the trivial one (every agent on
// task 1); HetLower is a valid lower bound for every t and τ.
//
// t and tau may be ±Inf (the limits max and min). σ is computed without
// overflow for every t. SoftmaxBound returns an error wrapping ErrSize if
// n != m or n < 2, and ErrParam if t or tau is NaN.
//
// The values are the theorem's statement. The paper proves it from the
// Schur-concavity of softmax for t <= 0 (case (i), through Theorem 3.2) and
// from U being Schur-concave for τ <= 0 and Schur-convex for τ > 0 (for
// (H)). On [0,1]^N those classes hold for N = 2 at every temperature but
// for N >= 3 only when |t| <= 2 (proved; see aggregators.Softmax), and not
// beyond aggregators.SoftmaxSchurLimit(N): for N >= 3 and |t| > 2 or
// |τ| > 2 the paper's proof does not apply. Case (i) and (H) for
// τ <= 0 nevertheless follow for every N from Chebyshev's sum inequality (a
// softmax-weighted mean with temperature <= 0 is at most the arithmetic
// mean, so every score vector a heterogeneous team reaches is also reached
// by a homogeneous one); (H) for τ > 0 is checked numerically in this
// package's tests, not proved.
func SoftmaxBound(t, tau float64, n, m int) (Bound, error) {
	switch {
	case n != m:
		return Bound{}, fmt.Errorf("gain: Theorem 3.4 needs N = M, got N = %d, M = %d: %w", n, m, ErrSize)
	case n < 2:
		return Bound{}, fmt.Errorf("gain: Theorem 3.4 needs N = M >= 2, got %d: %w", n, ErrSize)
	case math.IsNaN(t):
		return Bound{}, fmt.Errorf("gain: inner softmax temperature is NaN: %w", ErrParam)
	case math.IsNaN(tau):
		return Bound{}, fmt.Errorf("gain: outer softmax temperature is NaN: %w", ErrParam)
	}
	b := Bound{Hom: 1 / float64(n), HetLower: math.Max(sigma(t, n), sigma(tau, n))}
	if tau > 0 {
		b.Hom = sigma(tau, n)
	}
	switch {
	case t <= 0:
		b.Case, b.Exact = "(i)", true
	case tau <= 0:
		b.Case, b.DeltaLower = "(ii)", sigma(t, n)-1/float64(n)
	default:
		b.Case, b.DeltaLower = "(iii)", math.Max(sigma(t, n)-sigma(tau, n), 0)
	}
	return b, nil
}

// sigma returns σ(t, n) = e^t/(e^t + n − 1) without overflow, for n >= 1
// and t in [−Inf, +Inf].
func sigma(t float64, n int) float64 {
	if t >= 0 {
		return 1 / (1 + float64(n-1)*math.Exp(-t))
	}
	e := math.Exp(t)
	return e / (e + float64(n-1))
}
