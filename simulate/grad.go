package simulate

import (
	"fmt"
	"math"
	"reflect"
	"sync"
)

// DifferentiableEnv is an environment whose episode return can be
// differentiated with respect to its parameters θ, through the reward, the
// dynamics and a reparameterised policy whose noise is held fixed.
type DifferentiableEnv interface {
	Env
	// ReturnGradient resets the environment with seed, plays one episode
	// with pol (the policy noise of Rollout) and returns the undiscounted
	// return of each batch element and its derivatives with respect to the
	// named parameters, [B][K] in the order of params. Forward-mode
	// differentiation carries K tangents along the episode. A return or
	// derivative that is not finite is an error wrapping
	// aggregators.ErrInf or ErrNaN.
	ReturnGradient(pol Policy, seed int64, params []string) (ret []float64, grad [][]float64, err error)
}

// ReturnGradient returns env.ReturnGradient(pol, seed, params): the return
// of each batch element of the episode played from seed and its gradient
// [B][K] with respect to the named parameters. A nil env is an error
// wrapping ErrConfig.
func ReturnGradient(env DifferentiableEnv, pol Policy, seed int64, params []string) ([]float64, [][]float64, error) {
	if nilEnv(env) {
		return nil, nil, errNilEnv("ReturnGradient")
	}
	return env.ReturnGradient(pol, seed, params)
}

// GainGradient returns the empirical heterogeneity gain of HetGPS, the mean
// return of the heterogeneous team het minus that of the homogeneous team
// hom over the batch, both played from seed (so both teams meet the same
// spawns), and its gradient with respect to the named parameters. A nil
// env is an error wrapping ErrConfig.
func GainGradient(env DifferentiableEnv, het, hom Policy, seed int64, params []string) (float64, []float64, error) {
	if nilEnv(env) {
		return 0, nil, errNilEnv("GainGradient")
	}
	rh, gh, err := env.ReturnGradient(het, seed, params)
	if err != nil {
		return 0, nil, err
	}
	ro, gHom, err := env.ReturnGradient(hom, seed, params)
	if err != nil {
		return 0, nil, err
	}
	gain, grad := gainOf(rh, gh, ro, gHom, len(params))
	return gain, grad, nil
}

// GainGradientConcurrent is GainGradient with the episodes of het played
// on hetEnv and those of hom on homEnv, at the same time in two
// goroutines. Given two environments built from the same configuration
// its result is identical to GainGradient's on either. It returns an error
// wrapping ErrConfig if they differ in what Env shows of them (name,
// batch, N, M, observation length, action space, episode length or
// parameters θ); a difference it cannot see, such as an inner operator
// without parameters, is the caller's to avoid; a nil environment is one
// too. It panics if hetEnv and homEnv are the same environment.
func GainGradientConcurrent(hetEnv, homEnv DifferentiableEnv, het, hom Policy, seed int64, params []string) (float64, []float64, error) {
	rh, gh, ro, gHom, err := returnGradientsConcurrent("GainGradientConcurrent", hetEnv, homEnv, het, hom, seed, params)
	if err != nil {
		return 0, nil, err
	}
	gain, grad := gainOf(rh, gh, ro, gHom, len(params))
	return gain, grad, nil
}

// TeamReturns are the mean returns of a heterogeneous and a homogeneous
// team over a batch of episodes played from the same seed, and their
// gradients with respect to parameters θ (in the order the parameters
// were named).
type TeamReturns struct {
	Het, Hom         float64
	HetGrad, HomGrad []float64
}

// TeamReturnGradients is GainGradientConcurrent with the two teams' mean
// returns and gradients kept apart: the episodes of het are played on
// hetEnv and those of hom on homEnv, at the same time, from seed. It
// returns GainGradientConcurrent's errors and panics as it does. Gain
// gives the heterogeneity gain from them (equal to GainGradientConcurrent's
// up to rounding), RelativeGain the gain relative to the teams' returns.
func TeamReturnGradients(hetEnv, homEnv DifferentiableEnv, het, hom Policy, seed int64, params []string) (TeamReturns, error) {
	rh, gh, ro, gHom, err := returnGradientsConcurrent("TeamReturnGradients", hetEnv, homEnv, het, hom, seed, params)
	if err != nil {
		return TeamReturns{}, err
	}
	var t TeamReturns
	t.Het, t.HetGrad = batchMean(rh, gh, len(params))
	t.Hom, t.HomGrad = batchMean(ro, gHom, len(params))
	return t, nil
}

// Gain returns the heterogeneity gain Het − Hom and its gradient. It
// panics with a "simulate: " message if HetGrad and HomGrad differ in
// length.
func (t TeamReturns) Gain() (float64, []float64) {
	t.checkGrads()
	grad := make([]float64, len(t.HetGrad))
	for j := range grad {
		grad[j] = t.HetGrad[j] - t.HomGrad[j]
	}
	return t.Het - t.Hom, grad
}

// RelativeGain returns the heterogeneity gain relative to the size of
// the teams' returns, (Het − Hom)/S with S = (|Het| + |Hom|)/2, and its
// gradient. It is the same whatever the scale of the reward: multiplying
// every reward by c > 0 leaves it unchanged, so its gradient does not
// grow with a parameter that only scales the reward (as a power-sum U's
// exponent scales scores above 1). It lies in [−2, 2], and is near 2
// whenever Het > 0 and Hom is a vanishing share of it, however small
// both are. Where both returns are 0 (S = 0) it is 0 with a zero
// gradient; where one is 0 the gradient takes the derivative of |x| at 0
// as 0. It panics as Gain does.
func (t TeamReturns) RelativeGain() (float64, []float64) {
	t.checkGrads()
	grad := make([]float64, len(t.HetGrad))
	// Halves first and quotients before differences, so that returns and
	// gradients near the largest float64 do not overflow.
	s := math.Abs(t.Het)/2 + math.Abs(t.Hom)/2
	if s == 0 {
		return 0, grad
	}
	rel := math.Max(-2, math.Min(2, t.Het/s-t.Hom/s)) // within [−2, 2] but for rounding
	sh, so := sign(t.Het), sign(t.Hom)
	for j := range grad {
		ds := sh*(t.HetGrad[j]/s)/2 + so*(t.HomGrad[j]/s)/2 // ∂S/S
		grad[j] = t.HetGrad[j]/s - t.HomGrad[j]/s - rel*ds
	}
	return rel, grad
}

// sign returns −1, 0 or 1 for x below, at or above 0.
func sign(x float64) float64 {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// batchMean returns the batch means of the returns r and of their
// gradients g (k parameters).
func batchMean(r []float64, g [][]float64, k int) (float64, []float64) {
	mean, grad := 0.0, make([]float64, k)
	n := float64(len(r))
	for b := range r {
		mean += r[b] / n
		for j := range grad {
			grad[j] += g[b][j] / n
		}
	}
	return mean, grad
}

// returnGradientsConcurrent plays het's episodes on hetEnv and hom's on
// homEnv at the same time, from seed, and returns both teams' returns
// and gradients, for the function named fn (GainGradientConcurrent's
// checks, errors and panic).
func returnGradientsConcurrent(fn string, hetEnv, homEnv DifferentiableEnv, het, hom Policy, seed int64, params []string) (rh []float64, gh [][]float64, ro []float64, gHom [][]float64, err error) {
	if nilEnv(hetEnv) || nilEnv(homEnv) {
		return nil, nil, nil, nil, errNilEnv(fn)
	}
	if hetEnv == homEnv {
		panic("simulate: " + fn + " needs two distinct environments")
	}
	if err := checkAlike(hetEnv, homEnv); err != nil {
		return nil, nil, nil, nil, err
	}
	var (
		wg   sync.WaitGroup
		errH error
	)
	wg.Add(1)
	go func() {
		defer wg.Done()
		rh, gh, errH = hetEnv.ReturnGradient(het, seed, params)
	}()
	ro, gHom, err = homEnv.ReturnGradient(hom, seed, params)
	wg.Wait()
	if errH != nil {
		return nil, nil, nil, nil, errH
	}
	if err != nil {
		return nil, nil, nil, nil, err
	}
	return rh, gh, ro, gHom, nil
}

// checkAlike reports an error wrapping ErrConfig naming the first of the
// properties Env shows in which a and b differ.
func checkAlike(a, b Env) error {
	for _, p := range []struct {
		name string
		a, b interface{}
	}{
		{"name", a.Name(), b.Name()},
		{"batch", a.Batch(), b.Batch()},
		{"agents", a.Agents(), b.Agents()},
		{"tasks", a.Tasks(), b.Tasks()},
		{"observation length", a.ObsDim(), b.ObsDim()},
		{"action space", a.ActionSpace(), b.ActionSpace()},
		{"episode length", a.EpisodeLength(), b.EpisodeLength()},
		{"parameters", a.Params(), b.Params()},
	} {
		if !reflect.DeepEqual(p.a, p.b) {
			return fmt.Errorf("simulate: the two environments (%s) differ in their %s: %v and %v: %w",
				a.Name(), p.name, p.a, p.b, ErrConfig)
		}
	}
	return nil
}

// gainOf returns the batch mean of the return differences rh − ro and of
// their gradients gh − gHom (k parameters).
func gainOf(rh []float64, gh [][]float64, ro []float64, gHom [][]float64, k int) (float64, []float64) {
	gain, grad := 0.0, make([]float64, k)
	n := float64(len(rh))
	for b := range rh {
		gain += (rh[b] - ro[b]) / n
		for j := range grad {
			grad[j] += (gh[b][j] - gHom[b][j]) / n
		}
	}
	return gain, grad
}

// gradientsOverBatch runs element for every batch element b, one after
// another, giving it a fresh gradient slice of length k, and collects the
// returns and gradients of the environment named env. It stops at the
// first error, a return or derivative that is not finite among them.
func gradientsOverBatch(env string, batch, k int, element func(b int, grad []float64) (float64, error)) ([]float64, [][]float64, error) {
	ret := make([]float64, batch)
	grad := make([][]float64, batch)
	for b := 0; b < batch; b++ {
		grad[b] = make([]float64, k)
		r, err := element(b, grad[b])
		if err != nil {
			return nil, nil, err
		}
		ret[b] = r
		if err := checkFiniteReturn(env, b, r, grad[b]); err != nil {
			return nil, nil, err
		}
	}
	return ret, grad, nil
}

// checkGrads panics with a "simulate: " message if the two gradients of t
// differ in length.
func (t TeamReturns) checkGrads() {
	if len(t.HetGrad) != len(t.HomGrad) {
		panic(fmt.Sprintf("simulate: TeamReturns with gradients of %d and %d parameters", len(t.HetGrad), len(t.HomGrad)))
	}
}
