package simulate

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat"
)

// Mixed is a team policy that gives each agent a policy of its own: agent
// i acts as Mixed[i] acts for agent i. With the same policy in every entry
// it plays as that policy does.
type Mixed []Policy

// Act writes agent's action from its own policy.
func (p Mixed) Act(agent int, obs, noise, act []float64) { p[agent].Act(agent, obs, noise, act) }

// ActTangent propagates agent's tangents through its own policy.
func (p Mixed) ActTangent(agent int, obs, dObs, noise, act, dAct []float64) {
	p[agent].ActTangent(agent, obs, dObs, noise, act, dAct)
}

// Validate checks that there is one policy per agent, none of them nil,
// and that each that can validate itself fits the sizes.
func (p Mixed) Validate(agents, obsDim, actDim int) error {
	if len(p) != agents {
		return fmt.Errorf("simulate: Mixed has %d policies for %d agents: %w", len(p), agents, ErrConfig)
	}
	for i, pol := range p {
		if isNil(pol) {
			return fmt.Errorf("simulate: Mixed: agent %d's policy is nil: %w", i, ErrConfig)
		}
		if v, ok := pol.(PolicyValidator); ok {
			if err := v.Validate(agents, obsDim, actDim); err != nil {
				return fmt.Errorf("simulate: Mixed: agent %d's policy: %w", i, err)
			}
		}
	}
	return nil
}

// MaxClassTeams is the largest number of teams ClassGain plays: K^N for K
// candidate policies and N agents.
const MaxClassTeams = 1 << 12

// ClassResult holds what ClassGain measured: the mean return of every
// team drawn from a finite class of agent policies.
type ClassResult struct {
	// Teams[t][i] is the index of the candidate policy agent i plays in
	// team t. The K^N teams are in lexicographic order, so team 0 is
	// every agent on candidate 0.
	Teams [][]int
	// Returns[t] is team t's mean return per episode, and StdErrs[t] its
	// standard error over the episodes (the sample standard deviation over
	// the square root of Episodes; 0 for one episode, where there is no
	// spread to measure).
	Returns, StdErrs []float64
	// Best is the index of the team with the highest mean return, and
	// BestAlike that of the team with the highest among those whose agents
	// all play the same candidate (the first of equals in both).
	Best, BestAlike int
	// GainStdErr is the standard error of Gain from the episode-by-episode
	// differences between the two teams, which play the same episodes (0
	// when Best is BestAlike). It does not count the choice of the two
	// among all the teams, which favours whichever was lucky in these
	// episodes: compare the gain on fresh seeds before trusting a small
	// one.
	GainStdErr float64
	// Episodes is the number of episodes behind each mean: the batch size
	// times the number of seeds.
	Episodes int
}

// Gain returns the heterogeneity gain over the class: the best team's
// mean return less the best alike team's. It is never negative, since
// the alike teams are teams of the class.
func (c *ClassResult) Gain() float64 { return c.Returns[c.Best] - c.Returns[c.BestAlike] }

// Alike reports whether team t's agents all play the same candidate.
func (c *ClassResult) Alike(t int) bool { return alike(c.Teams[t]) }

// alike reports whether every entry of team is the same candidate.
func alike(team []int) bool {
	for _, k := range team {
		if k != team[0] {
			return false
		}
	}
	return true
}

// ClassGain plays in env every team that gives each of its N agents one of
// the K candidate policies (K^N teams, as Mixed), on one rollout per seed
// (Rollout: the same episodes and policy noise for every team), and
// returns each team's mean return with the best team and the best team
// whose agents all play the same candidate. It is the paper's
// heterogeneity gain with a finite class of policies in place of the
// effort allocations: the best heterogeneous team against the best
// homogeneous one. A candidate acts for whichever agent it is given to,
// so it must be able to act for every agent index (a TagChaser whose
// Target holds the same escaper for every agent, say).
//
// It returns an error wrapping ErrConfig for a nil env, no candidates, a
// nil candidate, no seeds, or more than MaxClassTeams teams, and
// Rollout's errors.
func ClassGain(env Env, candidates []Policy, seeds []int64) (*ClassResult, error) {
	if nilEnv(env) {
		return nil, errNilEnv("ClassGain")
	}
	if err := checkClass(len(candidates), env.Agents(), len(seeds)); err != nil {
		return nil, err
	}
	teams := classTeams(len(candidates), env.Agents())
	res := &ClassResult{Teams: teams, Returns: make([]float64, len(teams)), StdErrs: make([]float64, len(teams)),
		Best: -1, BestAlike: -1, Episodes: env.Batch() * len(seeds)}
	var best, bestAlike []float64 // the episodes' returns of the two teams
	for t, team := range teams {
		pol := make(Mixed, len(team))
		for i, k := range team {
			pol[i] = candidates[k]
		}
		ret, err := episodeReturns(env, pol, seeds)
		if err != nil {
			return nil, fmt.Errorf("simulate: ClassGain: team %v: %w", team, err)
		}
		res.Returns[t], res.StdErrs[t] = meanStdErr(ret)
		if res.Best < 0 || res.Returns[t] > res.Returns[res.Best] {
			res.Best, best = t, ret
		}
		if alike(team) && (res.BestAlike < 0 || res.Returns[t] > res.Returns[res.BestAlike]) {
			res.BestAlike, bestAlike = t, ret
		}
	}
	diff := make([]float64, len(best))
	for e := range diff {
		diff[e] = best[e] - bestAlike[e]
	}
	_, res.GainStdErr = meanStdErr(diff)
	return res, nil
}

// checkClass checks the sizes of ClassGain's arguments.
func checkClass(k, n, seeds int) error {
	if k < 1 {
		return fmt.Errorf("simulate: ClassGain needs at least one candidate policy: %w", ErrConfig)
	}
	if seeds < 1 {
		return fmt.Errorf("simulate: ClassGain needs at least one seed: %w", ErrConfig)
	}
	if float64(n)*math.Log(float64(k)) > math.Log(MaxClassTeams)+1e-9 {
		return fmt.Errorf("simulate: ClassGain: %d candidates for %d agents make %v teams, over MaxClassTeams (%d): %w",
			k, n, math.Pow(float64(k), float64(n)), MaxClassTeams, ErrConfig)
	}
	return nil
}

// classTeams returns the k^n assignments of k candidates to n agents in
// lexicographic order.
func classTeams(k, n int) [][]int {
	teams := [][]int{make([]int, n)}
	for {
		next := append([]int(nil), teams[len(teams)-1]...)
		i := n - 1
		for i >= 0 && next[i] == k-1 {
			next[i] = 0
			i--
		}
		if i < 0 {
			return teams
		}
		next[i]++
		teams = append(teams, next)
	}
}

// episodeReturns returns pol's return in every episode of one rollout of
// env per seed, seed by seed.
func episodeReturns(env Env, pol Policy, seeds []int64) ([]float64, error) {
	var all []float64
	for _, seed := range seeds {
		ret, err := Rollout(env, pol, seed, nil)
		if err != nil {
			return nil, err
		}
		all = append(all, ret...)
	}
	return all, nil
}

// meanStdErr returns the mean of x and its standard error (0 for one
// value).
func meanStdErr(x []float64) (mean, se float64) {
	if len(x) < 2 {
		return x[0], 0
	}
	mean, std := stat.MeanStdDev(x, nil)
	return mean, std / math.Sqrt(float64(len(x)))
}
