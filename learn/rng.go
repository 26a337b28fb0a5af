package learn

import (
	"math"
	"math/bits"
)

// splitmix64 constants (Steele, Lea and Flood, 2014; Vigna's reference code).
const (
	smGamma = 0x9e3779b97f4a7c15
	smMul1  = 0xbf58476d1ce4e5b9
	smMul2  = 0x94d049bb133111eb

	// streamKey decorrelates stream ids from the seed before hashing.
	streamKey = 0xd1b54a32d192ed03
)

// rng is a deterministic splitmix64 pseudo-random generator.
// Its whole state is the single word state, so copying an rng value
// forks the stream. It is not safe for concurrent use; give each
// goroutine its own stream via newRNG.
type rng struct{ state uint64 }

// smMix is the splitmix64 output finaliser, a bijection on uint64.
func smMix(z uint64) uint64 {
	z = (z ^ (z >> 30)) * smMul1
	z = (z ^ (z >> 27)) * smMul2
	return z ^ (z >> 31)
}

// newRNG returns the generator for seed and the given stream ids.
// The same arguments always give the same stream. Each stream id is
// hashed into the state with the splitmix finaliser, so streams that
// differ in any id (or in the number of ids) start from unrelated states
// and are statistically independent.
func newRNG(seed int64, streams ...uint64) rng {
	h := smMix(uint64(seed) + smGamma)
	for _, s := range streams {
		h = smMix(h ^ smMix(s^streamKey))
	}
	return rng{state: h}
}

// next advances the generator and returns 64 uniformly random bits.
func (r *rng) next() uint64 {
	r.state += smGamma
	return smMix(r.state)
}

// float64 returns a uniform value in [0, 1) with 53 random bits.
func (r *rng) float64() float64 {
	return float64(r.next()>>11) * 0x1p-53
}

// normal returns a standard normal deviate using the Box–Muller
// transform. It consumes exactly two draws and keeps no spare, so the
// state remains the single word.
func (r *rng) normal() float64 {
	u1 := 1 - r.float64() // (0, 1], keeps the logarithm finite
	u2 := r.float64()
	return math.Sqrt(-2*math.Log(u1)) * math.Cos(2*math.Pi*u2)
}

// intn returns a uniform value in [0, n) without modulo bias (Lemire's
// multiply-and-reject method). It panics if n <= 0.
func (r *rng) intn(n int) int {
	if n <= 0 {
		panic("learn: intn with n <= 0")
	}
	bound := uint64(n)
	hi, lo := bits.Mul64(r.next(), bound)
	if lo < bound {
		threshold := -bound % bound
		for lo < threshold {
			hi, lo = bits.Mul64(r.next(), bound)
		}
	}
	return int(hi)
}

// perm shuffles p in place with the Fisher–Yates algorithm; every
// permutation of p is equally likely.
func (r *rng) perm(p []int) {
	for i := len(p) - 1; i > 0; i-- {
		j := r.intn(i + 1)
		p[i], p[j] = p[j], p[i]
	}
}
