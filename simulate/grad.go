package simulate

// DifferentiableEnv is an environment whose episode return can be
// differentiated with respect to its parameters θ, through the reward, the
// dynamics and a reparameterised policy whose noise is held fixed.
type DifferentiableEnv interface {
	Env
	// ReturnGradient resets the environment with seed, plays one episode
	// with pol (the policy noise of Rollout) and returns the undiscounted
	// return of each batch element and its derivatives with respect to the
	// named parameters, [B][K] in the order of params. Forward-mode
	// differentiation carries K tangents along the episode.
	ReturnGradient(pol Policy, seed int64, params []string) (ret []float64, grad [][]float64, err error)
}

// ReturnGradient returns env.ReturnGradient(pol, seed, params): the return
// of each batch element of the episode played from seed and its gradient
// [B][K] with respect to the named parameters.
func ReturnGradient(env DifferentiableEnv, pol Policy, seed int64, params []string) ([]float64, [][]float64, error) {
	return env.ReturnGradient(pol, seed, params)
}

// GainGradient returns the empirical heterogeneity gain of HetGPS, the mean
// return of the heterogeneous team het minus that of the homogeneous team
// hom over the batch, both played from seed (so both teams meet the same
// spawns), and its gradient with respect to the named parameters.
func GainGradient(env DifferentiableEnv, het, hom Policy, seed int64, params []string) (float64, []float64, error) {
	rh, gh, err := env.ReturnGradient(het, seed, params)
	if err != nil {
		return 0, nil, err
	}
	ro, gHom, err := env.ReturnGradient(hom, seed, params)
	if err != nil {
		return 0, nil, err
	}
	gain, grad := 0.0, make([]float64, len(params))
	n := float64(len(rh))
	for b := range rh {
		gain += (rh[b] - ro[b]) / n
		for k := range grad {
			grad[k] += (gh[b][k] - gHom[b][k]) / n
		}
	}
	return gain, grad, nil
}

// gradientsOverBatch runs element for every batch element b, one after
// another, giving it a fresh gradient slice of length k, and collects the
// returns and gradients. It stops at the first error.
func gradientsOverBatch(batch, k int, element func(b int, grad []float64) (float64, error)) ([]float64, [][]float64, error) {
	ret := make([]float64, batch)
	grad := make([][]float64, batch)
	for b := 0; b < batch; b++ {
		grad[b] = make([]float64, k)
		r, err := element(b, grad[b])
		if err != nil {
			return nil, nil, err
		}
		ret[b] = r
	}
	return ret, grad, nil
}
