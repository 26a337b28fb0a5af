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
