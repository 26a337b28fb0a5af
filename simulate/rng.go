package simulate

import "math"

// rng is a splitmix64 generator: tiny, fast, deterministic, and free of
// locks. Each batch element draws from its own stream, derived from the
// episode seed, the element index and a stream tag, so that elements are
// independent of one another and of the batch size.
type rng struct {
	s     uint64
	spare float64 // the second value of the last Box-Muller pair
	has   bool
}

// Stream tags: spawning and policy noise draw from separate streams, so that
// the noise of a rollout does not depend on how many spawn attempts the
// environment needed.
const (
	streamSpawn uint64 = 1
	streamNoise uint64 = 2
)

// newRNG returns the generator of stream tag for batch element b of the
// episode with the given seed.
func newRNG(seed int64, b int, tag uint64) rng {
	r := rng{s: uint64(seed)}
	r.s = mix64(r.s ^ 0x6a09e667f3bcc909)
	r.s = mix64(r.s + uint64(b)*0x9e3779b97f4a7c15)
	r.s = mix64(r.s + tag*0xbf58476d1ce4e5b9)
	return r
}

func mix64(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

func (r *rng) next() uint64 {
	r.s += 0x9e3779b97f4a7c15
	return mix64(r.s)
}

// float64 returns a uniform value in [0, 1).
func (r *rng) float64() float64 { return float64(r.next()>>11) * (1.0 / (1 << 53)) }

// uniform returns a uniform value in [lo, hi).
func (r *rng) uniform(lo, hi float64) float64 { return lo + (hi-lo)*r.float64() }

// normal returns a standard normal value (Box-Muller: each pair of
// uniforms gives two values, returned by consecutive calls).
func (r *rng) normal() float64 {
	if r.has {
		r.has = false
		return r.spare
	}
	u := 1 - r.float64() // (0, 1]
	v := r.float64()
	rad := math.Sqrt(-2 * math.Log(u))
	s, c := math.Sincos(2 * math.Pi * v)
	r.spare, r.has = rad*s, true
	return rad * c
}
