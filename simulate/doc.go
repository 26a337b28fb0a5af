// Package simulate provides batched multi-agent environments whose rewards
// follow R(A) = U(T(...)), differentiable with respect to their parameters.
//
// Every environment runs B independent copies (the batch) of an episode with
// N agents and M tasks. At each step the agents' actions produce an N x M
// effort matrix A per batch element, and the shared team reward is
// R(A) = U(T_1(a_1), ..., T_M(a_M)) of package aggregators (plus whatever
// the environment adds, documented on it). All data cross the Env interface
// as flat float64 slices in row-major order, batch first:
//
//	actions [B][N][ActDim]   (discrete spaces: ActDim = 1, the chosen index)
//	Obs()   [B][N][ObsDim]
//	Effort  [B][N][M]
//	Reward  [B]
//
// An environment whose team reward is the mean of rewards of each agent's
// own (Tag and TagVMAS: each chaser's own distance term) is an
// AgentRewarder, whose AgentRewards are [B][N]. One that can pay each
// agent what the team would lose without its efforts (the matrix game,
// Capture, Tag, TagVMAS) is a DifferenceRewarder, whose DifferenceRewards
// are [B][N].
//
// Environments: MatrixGame (the one-step matrix game of the paper,
// continuous or discrete), Capture (Multi-goal-capture with the VMAS
// physics of the paper's scenario, optional range sensor), Tag (N chasers
// against K heuristic escapers among obstacles; Tag2v2 and Tag8v3),
// TagVMAS (the same game as the VMAS scenario file of the paper's authors
// defines it: slow escapers, and a chaser held on the first escaper it
// catches; TagVMAS2v2), Blotto
// (Team Colonel Blotto against a fixed stochastic adversary) and Foraging
// (level-based foraging on a grid). Their constructors refuse, with an
// error wrapping ErrConfig, sizes whose batched arrays would hold more
// than MaxEnvValues values and episodes longer than MaxEpisodeLength
// steps.
//
// # Parameters
//
// Each environment has a named parameter vector θ (Params): the parameters
// of the parametric aggregators ("U.t", "T.t", or "T0.t", "T1.t", ... for
// per-task inner operators) and physical ones: for Capture "drag",
// "force", "goal.x" or fixed goal coordinates, "sensor.range"; for Tag
// "drag", "force", "escaper.force", "chaser.speed", "escaper.speed",
// "obstacle.radius", "shaping", "penalty" (TagVMAS the same but
// "escaper.force"); for Blotto the battlefield
// values "V[j]"; for Foraging the item levels "L[j]". Read it with Params
// and change it with SetParams. Forces, speed caps, Capture's sensor
// range, Tag's reward weights and Blotto's battlefield values are at most
// MaxPhysical, and fixed goals lie in Capture's world box, so that the
// physics and the rewards stay finite.
//
// # Differentiation
//
// A Policy is reparameterised: an agent's action is a deterministic
// function of its observation and of standard normal noise. Rollout plays
// an episode drawing the noise of batch element b from a stream fixed by
// (seed, b), so that with the noise held fixed the return is a
// deterministic function of θ. ReturnGradient (for a DifferentiableEnv:
// MatrixGame, Capture, Tag and Blotto) differentiates that return with respect to
// chosen parameters by forward-mode differentiation: K tangents are carried
// alongside the state through the reward, the observations, the policy
// (Policy.ActTangent) and the dynamics, one batch element at a time, so
// memory does not grow with the episode length and the cost is that of a
// rollout times a factor that grows with K. Non-smooth points (clamps, wall contacts, the
// capture bonus, ties in min and max) take the subgradients documented on
// each environment. HetGPS ascends the difference of two such gradients,
// for a heterogeneous and a homogeneous team (GainGradient,
// GainGradientConcurrent), or that difference relative to the size of
// the teams' returns (TeamReturnGradients and TeamReturns.RelativeGain),
// which does not grow with a parameter that only scales the reward.
//
// Profile plays a policy as Rollout does and returns its EffortProfile:
// each agent's mean effort on each task, how many tasks the team covered
// at once, and how far apart the agents' efforts are step by step (its
// Diversity), which tells specialists from agents that behave alike or
// leave the work to others; its Specialists method names the task of
// each agent of a team that split over the tasks by index.
//
// Reference policies: ConstantPolicy, LinearTanh (act = Scale tanh(W obs +
// B + Sigma noise), per agent or shared), UniformDiscrete, and
// Capture.SeekerPolicy (specialists heading for their own goals, or
// identical agents heading for the middle), and TagChaser (each chaser
// after its own escaper, or all after the nearest; Tag.ChaserPolicy and
// TagVMAS.ChaserPolicy). Mixed gives each agent a policy of its own, and
// ClassGain plays every team drawn from a finite class of such policies:
// the heterogeneity gain of the class, its best team against its best
// team of agents that all play alike, with standard errors (what a game
// pays scripted specialists before any learning); TagTargetClass is the
// class of Tag chasers after their nearest escaper or a fixed one.
//
// # Determinism and concurrency
//
// Randomness comes only from the int64 seed given to Reset (and to Rollout
// and ReturnGradient): the same seed gives the same episode bit for bit,
// and batch element b draws from its own streams, so its episode does not
// depend on the batch size. Environments hold no locks and no shared
// random sources; one environment must not be used from two goroutines at
// once, but distinct environments may run in parallel.
package simulate
