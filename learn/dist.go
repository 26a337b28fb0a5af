package learn

import "math"

// The action distributions of the actors: a diagonal Gaussian over
// pre-squash values (the tanh squash does not depend on the parameters,
// so it cancels in PPO's probability ratio) and a categorical over
// discrete choices given by logits.

const halfLog2Pi = 0.9189385332046727 // log(2π)/2

// gaussLogProb returns log N(u; mu, exp(logStd)^2).
func gaussLogProb(u, mu, logStd float64) float64 {
	z := (u - mu) * math.Exp(-logStd)
	return -0.5*z*z - logStd - halfLog2Pi
}

// gaussLogProbGrad returns the derivatives of gaussLogProb with respect to
// mu and logStd.
func gaussLogProbGrad(u, mu, logStd float64) (dMu, dLogStd float64) {
	inv := math.Exp(-logStd)
	z := (u - mu) * inv
	return z * inv, z*z - 1
}

// gaussEntropy returns the entropy of N(·, exp(logStd)^2); its derivative
// in logStd is 1.
func gaussEntropy(logStd float64) float64 { return logStd + halfLog2Pi + 0.5 }

// logSumExp returns log Σ exp(x_k), computed stably.
func logSumExp(x []float64) float64 {
	m := math.Inf(-1)
	for _, v := range x {
		m = math.Max(m, v)
	}
	if math.IsInf(m, 0) {
		return m
	}
	s := 0.0
	for _, v := range x {
		s += math.Exp(v - m)
	}
	return m + math.Log(s)
}

// categoricalLogProb returns log softmax(logits)_c.
func categoricalLogProb(logits []float64, c int) float64 {
	return logits[c] - logSumExp(logits)
}

// softmaxInto writes softmax(logits) into p.
func softmaxInto(p, logits []float64) {
	lse := logSumExp(logits)
	for k, v := range logits {
		p[k] = math.Exp(v - lse)
	}
}

// categoricalEntropy returns -Σ p log p of softmax(logits), with p the
// probabilities written into p.
func categoricalEntropy(p, logits []float64) float64 {
	lse := logSumExp(logits)
	h := 0.0
	for k, v := range logits {
		lp := v - lse
		p[k] = math.Exp(lp)
		h -= p[k] * lp
	}
	return h
}

// sampleCategorical returns the choice c whose cumulative probability
// interval [P(<c), P(≤c)) holds u in [0, 1) (inverse-CDF sampling), and
// the last choice with positive probability if rounding leaves u beyond
// the total.
func sampleCategorical(logits []float64, u float64) int {
	lse := logSumExp(logits)
	acc, last := 0.0, 0
	for k, v := range logits {
		p := math.Exp(v - lse)
		if p > 0 {
			last = k
		}
		acc += p
		if u < acc {
			return k
		}
	}
	return last
}

// argmax returns the index of the largest value (the first on ties).
func argmax(x []float64) int {
	best := 0
	for k, v := range x {
		if v > x[best] {
			best = k
		}
	}
	return best
}
