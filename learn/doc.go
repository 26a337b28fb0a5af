// Package learn trains heterogeneous and homogeneous teams with
// multi-agent PPO in the environments of package simulate, and searches
// environment parameters for the largest heterogeneity gain (HetGPS).
//
// # Teams
//
// A Team is N agents learning together. A Heterogeneous team has one
// actor network per agent; a Homogeneous team shares one actor among all
// agents (parameter sharing), so its agents can differ only through what
// they observe, or through their index when Config.AgentIndex appends a
// one-hot agent index to the observation (behavioural typing). Actors are
// multilayer perceptrons with tanh hidden layers: for continuous actions
// they output the mean of a Gaussian with state-independent learned log
// standard deviations, and the sample u is squashed into the action box as
// low + (high−low)(tanh(u)+1)/2; for discrete actions they output the
// logits of a categorical distribution.
//
// The critic is Centralised (MAPPO: one network sees every agent's
// observation and estimates the team's value) or PerAgent (IPPO: each
// agent's critic sees its own actor input; shared or not like the actors).
//
// Agents learn from the team reward, or, with Config.AgentRewards, each
// from its own reward where the environment has one
// (simulate.AgentRewarder: in Tag a chaser's own distance term in place of
// the team's mean of them): each agent's advantages then come from its
// own rewards, and a Centralised critic estimates one value per agent.
// With Config.DifferenceRewards each learns instead from its difference
// reward (simulate.DifferenceRewarder: the task reward less what the team
// would have without the agent's efforts), the same way. Returns,
// evaluations and gains are those of the team reward in every case.
//
// # Training
//
// Team.Iterate collects Config.FramesPerIter frames (one frame is one
// environment step of one batch element) with Config.Workers goroutines,
// each with its own environment, then runs Config.Epochs passes of PPO over
// shuffled minibatches: generalised advantage estimation (γ, λ; the last
// step of an episode is terminal), the clipped surrogate objective with
// optional entropy bonus, the squared-error value loss, gradient-norm
// clipping and Adam, with separate optimizers for actors and critics.
// Advantages are normalised per minibatch unless Config.RawAdvantage.
// DefaultConfig gives small networks and frequent updates that train the
// matrix game and Multi-goal-capture on two CPU cores; ReferenceConfig the
// paper's settings.
//
// # Paired runs
//
// The heterogeneity gain of a setting is measured by training both kinds
// of team from the same seed (Pair, Train): each iteration trains both
// concurrently on the same spawns, and every RunSpec.EvalEvery iterations
// both play the same evaluation episodes with their deterministic policies
// (the modes of their distributions). The log has, per iteration, the
// training returns of both teams, their difference, the evaluation returns,
// the evaluation gain, and the diversity of each team's efforts in the
// evaluation episodes (simulate.EffortProfile.Diversity: 0 for agents that
// behave alike), which shows when a heterogeneous team's agents specialise.
// Logs written before the diversity columns existed are read, and resumed,
// with NaN there. The environment is RunSpec.Env (EnvSpec: matrix game,
// Multi-goal-capture or Tag, its sizes, U and T, and Params, environment
// parameters such as Tag's distance shaping set for the whole run) or,
// for an environment or a reward of one's own, RunSpec.Maker (its example
// trains both teams under a sum-form reward, which EnvSpec cannot name).
//
// # Logs, checkpoints and resuming
//
// With Options.Dir, Train writes spec.json, appends log.csv row by row
// (full-precision floats: the columns of PairStats, each team's
// UpdateStats among them) and checkpoints before the first iteration,
// every Options.CheckpointEvery iterations, at the end, and when
// Options.Stop asks it to stop. Train on a directory with a checkpoint of
// the same specification resumes: log rows after the checkpoint are
// dropped and recomputed. A directory whose log has rows but whose
// checkpoint is gone is refused (ErrCheckpoint) rather than overwritten.
// Every random draw is a function of the seed, the iteration, the worker
// and the episode, so a resumed run is identical to an uninterrupted one,
// bit for bit.
// ReadLog reads a log back; CheckRunDir and CheckHetGPSDir tell whether a
// directory holds a run of given settings (for reading results back
// without training); LoadPair rebuilds a paired run's teams from its
// checkpoint, to play them again, for instance with other environment
// parameters (Pair.SetEnvParams); Team.Profile shows which agent of a
// team worked on which task (simulate.Profile), and Team.ActionStd how
// much its continuous policies still explore. WriteProfiles and
// ReadProfiles write and read tables of such profiles, one TeamProfile
// per run and team, in the CSV layout of hetgain inspect -csv. A checkpoint that holds
// a NaN or infinite parameter, or anything else training cannot have
// written, is refused with ErrCheckpoint.
//
// # HetGPS
//
// HetGPS (the paper's Algorithm 1, described by HetGPSSpec) trains a
// paired run and moves environment parameters θ (ThetaParam: a name of
// the environment's simulate.Params, its start, optional bounds kept by a
// tanh squash and an optional clamp after it, whose ends absorb) along the gradient of the gain G^θ(π_het) − G^θ(π_hom),
// which package simulate differentiates through the reward, the dynamics
// and the reparameterised policies (simulate.GainGradientConcurrent).
// Its Schedule is Concurrent (agents every iteration, θ every x-th) or
// Alternated (x agent iterations, then y of θ); Descent minimises the
// gain, and DescentFloor holds θ still while the measured gain is at or
// below 0 (a negative learned gain is a lagging heterogeneous team, not
// a θ with less gain); θ steps by Adam or plain gradient steps (SGD),
// for two parameters optionally in the basis of their sum and
// difference (SumDifference), and optionally on the gain relative to the
// size of the teams' returns (RelativeGain), which a parameter that
// scales the reward cannot inflate. Its log has the columns of a paired run
// followed by the gain measured with the gradient, θ, the gradient and
// whether θ stepped (ReadHetGPSLog); it
// checkpoints and resumes as Train does, and LoadHetGPS rebuilds its
// teams and final θ.
//
// # Determinism
//
// All randomness comes from Config.Seed: the same seed and number of
// workers give the same numbers. The package uses no global random source.
package learn
