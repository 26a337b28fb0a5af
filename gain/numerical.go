package gain

import (
	"fmt"
	"math"
	"math/rand"

	"github.com/hetgain/hetgain/aggregators"
	"gonum.org/v1/gonum/mat"
)

// MaxNumericalCells is the largest N·M that Hom, Het and Numerical accept.
const MaxNumericalCells = 1 << 14

// MaxRestarts is the largest Options.Restarts that Hom, Het and Numerical
// accept. The search keeps the point reached from every restart, so the
// restarts are bounded like the problem's size: a mistyped count fails
// with ErrParam instead of taking the machine's memory.
const MaxRestarts = 10000

// Budget is the feasible set of one agent's efforts, the general budget of
// the paper's footnote to Section 2: B_min <= r_ij for every task j and
// sum_j r_ij <= B_max. The zero value means {0, 1}, the unit simplex of the
// paper; any other value is taken as it is.
//
// Min and Max must be finite with M·Min <= Max (M copies of Min, added up
// in floating point, at most Max), and every feasible effort, up to
// Max − (M−1)·Min, of magnitude at most aggregators.MaxInput. A negative
// Min is allowed only when every inner operator accepts negative input
// (Domain Real); aggregators.Reward.Check rejects negative efforts, so such
// allocations must be evaluated through the operators directly.
//
// The reward's own Budget field (the row-sum limit that
// aggregators.Reward.Check enforces) is not consulted: to Check an
// allocation optimised for B_max != 1, set it to B_max.
type Budget struct{ Min, Max float64 }

// Options tunes Hom, Het and Numerical. The zero value, and a nil
// *Options, give the defaults.
type Options struct {
	// Seed seeds the random starts; 0 means 1. The same Seed gives the
	// same result, bit for bit.
	Seed int64
	// Restarts is the number of random starts of the local ascent, for
	// each of the homogeneous and the heterogeneous search; 0 means
	// 8 + 2·(dimension), at most 48 (dimension M for Hom, N·M for Het).
	// A negative value, or one above MaxRestarts, is an error wrapping
	// ErrParam.
	Restarts int
	// Tol is the relative tolerance of the local ascent: a run stops when
	// its best value improves by less than Tol·(1 + |value|) over 10
	// iterations. 0 means 1e-10.
	Tol float64
	// Budget is each agent's budget; the zero value means {0, 1}.
	Budget Budget
	// MaxIter is the largest number of iterations of one local ascent
	// (per smoothing stage); 0 means 100 + 10·(dimension), at most 2000.
	MaxIter int
}

// Optimum is an allocation and its reward.
type Optimum struct {
	// Value is R(Alloc), evaluated with the true operators.
	Value float64
	// Alloc is the N×M allocation attaining Value; its rows are equal for
	// Hom.
	Alloc *mat.Dense
}

// Hom returns a numerical estimate of R_hom, the best reward of a
// homogeneous team (every agent plays the same row c), for continuous
// allocations of n agents over m tasks within opts.Budget. The value is a
// lower bound on R_hom attained by the returned allocation, and equals
// Numerical's Hom with the same options; see Numerical for the method and
// its guarantees. Hom runs Numerical's whole search, the heterogeneous
// part included (its allocations give homogeneous candidates by Theorem
// 3.2's construction), so it costs as much as Numerical. opts may be nil.
func Hom(r *aggregators.Reward, n, m int, opts *Options) (o Optimum, err error) {
	c, err := numSetup(r, n, m, Continuous, opts)
	if err != nil {
		return Optimum{}, err
	}
	defer numRecover(r, &err)
	s, err := c.solve()
	if err != nil {
		return Optimum{}, err
	}
	return Optimum{Value: s.homValue, Alloc: replicate(s.homRow, n)}, nil
}

// Het returns a numerical estimate of R_het, the best reward over all
// continuous allocations (rows independent) of n agents over m tasks within
// opts.Budget. The value is a lower bound on R_het attained by the returned
// allocation, and equals Numerical's Het with the same options, so it is
// at least the value Hom returns; see Numerical for the method and its
// guarantees. opts may be nil.
func Het(r *aggregators.Reward, n, m int, opts *Options) (o Optimum, err error) {
	c, err := numSetup(r, n, m, Continuous, opts)
	if err != nil {
		return Optimum{}, err
	}
	defer numRecover(r, &err)
	s, err := c.solve()
	if err != nil {
		return Optimum{}, err
	}
	return Optimum{Value: s.hetValue, Alloc: mat.NewDense(n, m, s.het)}, nil
}

// Numerical returns R_het, R_hom and ΔR for any reward R = U∘T (per-task
// inner operators allowed), n agents and m tasks, computed numerically, with
// HetAlloc and HomRow filled. opts may be nil.
//
// # Discrete allocations
//
// Each agent puts its whole unit budget on exactly one task (r_ij in
// {0, 1}, one 1 per row), as in the paper; a homogeneous team puts every
// agent on the same task. The result is exact: T_j depends only on the
// number n_j of agents on task j, so T_j(n) is tabulated for n = 0, ..., N
// and every vector of counts is enumerated, up to the symmetry of U among
// tasks that share an inner operator (with one shared operator these are
// the partitions of N into at most M parts: 1.1·10^5 for N = 64, M = 8).
// Numerical returns an error wrapping ErrSize beyond MaxDiscreteAssignments
// count vectors, and ErrParam for a Budget other than the zero value or
// {0, 1} (the discrete setting is the paper's {0, 1}). Restarts, Tol and
// MaxIter are not used.
//
// # Continuous allocations
//
// R is in general neither concave nor smooth, so no method that evaluates
// R at finitely many points can certify a global maximum. Hom and Het
// combine:
//
//  1. Structured candidates. For Hom: every vertex (the row all on one
//     task) and every row that splits the budget equally over k tasks, for
//     k = 1, ..., M — over the first k tasks when the tasks share one inner
//     operator (R is then symmetric in the tasks), over every subset of
//     tasks otherwise (M <= 10), plus the row at the floor. For Het: the
//     homogeneous optimum and candidates repeated; every assignment of
//     whole agents to single tasks, up to symmetry (the count vectors of
//     the discrete case, with effort B_max − (M−1)·B_min on the task and
//     B_min elsewhere; enumerated when there are at most 2^14 of them, the
//     best 4 kept); agents covering k cyclically consecutive tasks
//     equally, for every k = 1, ..., M, with starting tasks spread evenly
//     (k = 1 is each agent on one task, balanced; k = M is the uniform
//     row); the round-robin cover in which agent i splits its budget
//     over the tasks j ≡ i (mod N), ceil(M/N) or fewer each; and the
//     allocation of the proof of Theorem 3.1 built from the homogeneous
//     optimum c (the same column sums: ⌊N·c_j⌋ agents whole on task j, in
//     units of the budget above the floor, and the fractional remainders
//     filling the other agents, task after task).
//  2. Local ascent from the best 4 candidates, from Restarts random
//     starts (uniform rows on the full-budget face, random vertices
//     perturbed 15% towards a random row, and sparse Dirichlet(1/2) rows
//     using half to all of the budget, in turn), and from Theorem 3.1's
//     allocation whatever its rank. The ascent is the
//     spectral projected gradient method of Birgin, Martínez and Raydan:
//     Barzilai-Borwein steps, Euclidean projection of each row onto the
//     capped simplex {r_j >= B_min, sum_j r_j <= B_max} (the rows need not
//     use their whole budget: softmax, for one, is not monotone), and a
//     non-monotone Armijo line search. It suits these problems: the
//     feasible set is a product of small simplices whose projection is
//     cheap and exact, so iterates land exactly on faces and vertices, where
//     the optima of Schur-convex problems lie; BB steps adapt to the scale
//     of the gradients (which span many orders of magnitude across
//     operators and temperatures) without tuning; and the non-monotone
//     search tolerates the narrow curved ridges of softmax and log-sum-exp.
//  3. Smoothing for non-smooth operators: min and max (also softmax,
//     log-sum-exp and the power mean at ±Inf) are replaced by log-sum-exp
//     with temperature ±k/s, and the threshold operators (LevelThreshold,
//     BlottoField) by logistic steps of width s/k, for k = 10, 10², 10³,
//     10⁴ in turn, each stage starting where the previous one ended (s is
//     the largest effort, or the largest task score seen among the
//     candidates, for the outer operator). Each run then continues on the
//     true reward, with the subgradients the operators document.
//  4. Polish: the best 3 points found are ascended again on the true
//     reward, with four times the iteration budget. Then non-local moves
//     from the best point, which the ascent cannot make where a gradient
//     vanishes (powersum(3) on an empty task): the best of the moves that
//     shift half or all of one entry's effort above the floor to another
//     task of its row, or spread it equally over all the other tasks of
//     its row (this raises several task scores at once, as a minimum
//     over tasks needs), if it improves, is ascended through the last
//     smoothing stage alone and the true reward (the coarse stages can
//     carry a point to another basin), as is the best point itself first
//     for a non-smooth reward; this is repeated while it improves, at most
//     4 rounds, and skipped for a round whose number of moves times N·M
//     exceeds 2^22 (large problems). Then, for M >= 3, 8 kicks (basin
//     hopping, in the searches with random starts): the best point so far
//     mixed with a random start at a weight in [0.1, 0.4], ascended
//     through the last smoothing stage and the true reward, replaces the
//     best point if it beats it (min∘powermean(2), N = 6, M = 7, went
//     from 0.2588 to 0.2840 with them). Of the points within a relative
//     1e-14 of the best, the one found first is returned, so that
//     structured candidates win ties of rounding.
//  5. Theorem 3.2's construction: the homogeneous rows of the column
//     means of the heterogeneous optimum and of the best 8 points of its
//     search (the homogeneous allocations with the same column sums). If
//     one beats R_hom by more than a relative 1e-14, these rows are the
//     candidates of a second homogeneous search (steps 2-4, without random
//     starts), whose optimum raises R_hom, and R_het with it should R_hom
//     exceed R_het (a homogeneous allocation is also a heterogeneous one);
//     Theorem 3.1's allocation built from the new homogeneous optimum is
//     then tried for R_het. Where every T_j is Schur-concave or depends on
//     the column sum only (thresholds), the optimum of R_hom is often such
//     a single row, which no candidate or random start reaches.
//
// Every value reported is the reward of the returned allocation evaluated
// with the true operators (through aggregators.Reward.Value when B_min >=
// 0), never a smoothed one; returned rows lie exactly within the budget.
// The same options give the same result, bit for bit.
//
// Guarantees: Het and Hom are rewards of the returned allocations, so they
// are lower bounds on the true optima; Het >= Hom, so ΔR >= 0. Hom is at
// least the reward of the homogeneous row of HetAlloc's column means, up to
// rounding (so ΔR is 0 up to rounding where Theorem 3.2 applies to every
// task); and Het is at least that of Theorem 3.1's allocation built from
// the homogeneous optimum the heterogeneous search started from, or from
// HomRow if step 5 raised it, up to rounding. Where an optimum is one of
// the candidates (vertices, trivial and spread allocations, single-task
// assignments, even splits, round-robin covers — this includes every
// {min, mean, max}² reward, and the allocations of the bounds of
// Theorem 3.4) it is found exactly, up to rounding. Otherwise the ascent
// converges to a stationary point of the (smoothed) reward from each
// start; the best of many starts is usually, but not provably, the global
// optimum. For non-smooth rewards whose optimum is not a candidate, the
// ascent on the true reward after the last smoothing stage usually reaches
// the kink to rounding (min∘softmax(2), N = 2, M = 3: within 1e-16), but
// can stop short of it by up to the bias of the last stage, about 10⁻⁴ of
// the score scale. The threshold operators are step functions: their
// problems are combinatorial (knapsack-like for Blotto), and the search is
// a heuristic there (exact in 57 of 60 random Blotto instances in the
// tests; use Blotto and LevelForaging for exact optima). So is raising a
// minimum of convex task scores (min∘powersum(p) or min∘powermean(p),
// p > 1). Its candidates include allocations in which each agent has a
// task of its own and all share the rest (privateShared), the form of the
// best allocations known: for min∘powersum(2), N = 4, M = 5, Het is
// 0.44444, where a hill-climbing search from random starts found 0.41895,
// and for min∘powermean(5), N = 4, M = 5, 0.43113, where the best hand
// allocation scores 0.42592; but neither is proved optimal. Where the
// optimum lies on the edge of U's domain, the ascent, which avoids
// undefined points, can stop short of it: for powersum(3)∘lse(-3),
// N = 2, M = 3 (a column below ln 2/3 has a negative lse(-3) score,
// outside powersum's domain), R_hom is 0.02813, while the row
// (ln 2/3, ln 2/3, 1 − 2 ln 2/3) scores 0.028893. ΔR can therefore be
// underestimated (R_het too low) or overestimated (R_hom too low); tests
// compare with closed forms, Theorem 3.4, exact, grid and compass
// searches.
//
// Points where a task score is outside U's domain, or R overflows, are
// treated as undefined and avoided; an overflow anywhere among the points
// tried (R = ±Inf, or a task score beyond aggregators.MaxInput by more
// than rounding, where U is not defined) is reported as an error, since the supremum is then not
// representable, or lies where the search cannot reach it.
//
// Numerical returns an error wrapping ErrOperator for a nil reward or
// operator, an operator with an invalid parameter, a reward that is not
// defined at any allocation tried (e.g. task scores outside U's domain) or
// overflows, or an operator that panics (a SumForm whose g is not finite);
// ErrSize if n or m is below 1, N·M exceeds MaxNumericalCells, or the
// number of inner operators is neither 1 nor m; ErrParam for invalid
// options.
func Numerical(r *aggregators.Reward, n, m int, kind Allocation, opts *Options) (g Gains, err error) {
	c, err := numSetup(r, n, m, kind, opts)
	if err != nil {
		return Gains{}, err
	}
	defer numRecover(r, &err)
	if kind == Discrete {
		return numDiscrete(r, n, m)
	}
	s, err := c.solve()
	if err != nil {
		return Gains{}, err
	}
	g = newGains(s.hetValue, s.homValue)
	g.HetAlloc, g.HomRow = mat.NewDense(n, m, s.het), rowMatrix(s.homRow)
	return g, nil
}

// numRecover turns a panic of an operator (a SumForm whose g is not
// finite, an operator given input outside its domain) into an error.
func numRecover(r *aggregators.Reward, err *error) {
	if p := recover(); p != nil {
		*err = fmt.Errorf("gain: evaluating %v: %v: %w", r, p, ErrOperator)
	}
}

// numConfig is a validated problem.
type numConfig struct {
	r         *aggregators.Reward
	n, m      int
	seed      int64
	restarts  int // -1: default for the dimension
	tol       float64
	maxIter   int // 0: default for the dimension
	budget    Budget
	box       numBox
	nonsmooth bool
	shared    bool // one inner operator class: R is symmetric in the tasks

	// noCandidates makes the search start from random points only (for
	// tests of the ascent); genericKernels makes the exact kernels call
	// the operators' own methods (for benchmarks of the kernels).
	noCandidates, genericKernels bool
}

// Defaults and limits of the continuous search.
const (
	numDefaultTol    = 1e-10
	numTopCandidates = 4
	numPolished      = 3
	numPolishFactor  = 4
	numFinal         = 8       // points evaluated with the true operators
	numTieTol        = 1e-14   // relative difference treated as a tie
	numCandidateCap  = 1 << 14 // count vectors enumerated as candidates
	numMaxRestarts   = 48
	numMaxIterCap    = 2000
)

// numTemperatures are the smoothing stages for non-smooth operators.
var numTemperatures = [...]float64{10, 1e2, 1e3, 1e4}

// numSetup validates the arguments and returns the problem.
func numSetup(r *aggregators.Reward, n, m int, kind Allocation, opts *Options) (*numConfig, error) {
	if r == nil {
		return nil, fmt.Errorf("gain: reward is nil: %w", ErrOperator)
	}
	if err := checkSizes(n, m); err != nil {
		return nil, err
	}
	if n > MaxNumericalCells/m {
		return nil, fmt.Errorf("gain: N = %d agents and M = %d tasks: N·M above MaxNumericalCells = %d: %w", n, m, MaxNumericalCells, ErrSize)
	}
	if kind != Continuous && kind != Discrete {
		return nil, fmt.Errorf("gain: unknown allocation kind %v: %w", kind, ErrOperator)
	}
	if err := numCheckReward(r, m); err != nil {
		return nil, err
	}
	var o Options
	if opts != nil {
		o = *opts
	}
	c := &numConfig{r: r, n: n, m: m, seed: o.Seed, restarts: o.Restarts, tol: o.Tol, maxIter: o.MaxIter, budget: o.Budget}
	switch {
	case o.Restarts < 0:
		return nil, fmt.Errorf("gain: Restarts = %d, need >= 0 (0 means the default): %w", o.Restarts, ErrParam)
	case o.Restarts > MaxRestarts:
		return nil, fmt.Errorf("gain: Restarts = %d, need at most MaxRestarts = %d: %w", o.Restarts, MaxRestarts, ErrParam)
	case o.MaxIter < 0:
		return nil, fmt.Errorf("gain: MaxIter = %d, need >= 0 (0 means the default): %w", o.MaxIter, ErrParam)
	case math.IsNaN(o.Tol) || math.IsInf(o.Tol, 0) || o.Tol < 0:
		return nil, fmt.Errorf("gain: Tol = %v, need a finite value >= 0 (0 means %g): %w", o.Tol, numDefaultTol, ErrParam)
	}
	if c.seed == 0 {
		c.seed = 1
	}
	if c.restarts == 0 {
		c.restarts = -1
	}
	if c.tol == 0 {
		c.tol = numDefaultTol
	}
	if kind == Discrete && o.Budget != (Budget{}) && o.Budget != (Budget{0, 1}) {
		return nil, fmt.Errorf("gain: discrete allocations use the paper's budget {0, 1} (each agent on exactly one task), got Budget{Min: %v, Max: %v}: %w",
			o.Budget.Min, o.Budget.Max, ErrParam)
	}
	if c.budget == (Budget{}) {
		c.budget = Budget{0, 1}
	}
	if err := numCheckBudget(r, c.budget, m); err != nil {
		return nil, err
	}
	c.box = numNewBox(m, c.budget)
	c.nonsmooth = numNonsmooth(r)
	c.shared = len(discGroupsOf(r, m).ops) == 1
	return c, nil
}

// numCheckReward reports a reward that is nil, incomplete, has operators
// with invalid parameters, or whose number of inner operators is neither 1
// nor m.
func numCheckReward(r *aggregators.Reward, m int) error {
	if r.Outer == nil {
		return fmt.Errorf("gain: reward has no outer operator: %w", ErrOperator)
	}
	if len(r.Inner) == 0 {
		return fmt.Errorf("gain: reward has no inner operator: %w", ErrOperator)
	}
	if len(r.Inner) != 1 && len(r.Inner) != m {
		return fmt.Errorf("gain: reward has %d inner operators but M = %d tasks (need 1, shared, or one per task): %w", len(r.Inner), m, ErrSize)
	}
	for j, op := range r.Inner {
		if op == nil {
			return fmt.Errorf("gain: inner operator %d is nil: %w", j, ErrOperator)
		}
	}
	if err := numCheckOperator("outer operator", r.Outer); err != nil {
		return err
	}
	for j, op := range r.Inner {
		if err := numCheckOperator(fmt.Sprintf("inner operator %d", j), op); err != nil {
			return err
		}
	}
	return nil
}

func numCheckOperator(name string, op aggregators.Operator) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("gain: %s %v: %v: %w", name, op, p, ErrOperator)
		}
	}()
	if err := aggregators.Check(op, []float64{0}); err != nil {
		return fmt.Errorf("gain: %s %v: %w: %w", name, op, ErrOperator, err)
	}
	return nil
}

// numCheckBudget reports a budget that is not finite, infeasible, or has a
// negative floor that an inner operator cannot take.
func numCheckBudget(r *aggregators.Reward, b Budget, m int) error {
	for _, v := range []struct {
		name string
		v    float64
	}{{"Min", b.Min}, {"Max", b.Max}} {
		if math.IsNaN(v.v) || math.IsInf(v.v, 0) || math.Abs(v.v) > aggregators.MaxInput {
			return fmt.Errorf("gain: Budget.%s = %v, need a finite value of magnitude at most %g: %w", v.name, v.v, aggregators.MaxInput, ErrParam)
		}
	}
	floor := 0.0 // the row at the floor, added up as aggregators.Reward does
	for j := 0; j < m; j++ {
		floor += b.Min
	}
	if floor > b.Max {
		return fmt.Errorf("gain: Budget{Min: %v, Max: %v} is infeasible for M = %d tasks: need M·Min = %v <= Max (only the zero Budget means {0, 1}): %w",
			b.Min, b.Max, m, floor, ErrParam)
	}
	if hi := b.Max - float64(m-1)*b.Min; math.Abs(hi) > aggregators.MaxInput {
		return fmt.Errorf("gain: Budget{Min: %v, Max: %v} allows efforts up to %v for M = %d tasks, of magnitude above %g: %w",
			b.Min, b.Max, hi, m, aggregators.MaxInput, ErrParam)
	}
	if b.Min < 0 {
		for j, op := range r.Inner {
			if op.Domain() == aggregators.NonNegative {
				return fmt.Errorf("gain: Budget.Min = %v is negative but inner operator %d, %v, accepts only non-negative efforts: %w", b.Min, j, op, ErrParam)
			}
		}
	}
	return nil
}

// limits returns the restarts and the iteration limit for dimension d.
func (c *numConfig) limits(d int) (restarts, maxIter int) {
	restarts, maxIter = c.restarts, c.maxIter
	if restarts < 0 {
		restarts = 8 + 2*d
		if restarts > numMaxRestarts {
			restarts = numMaxRestarts
		}
	}
	if maxIter == 0 {
		maxIter = 100 + 10*d
		if maxIter > numMaxIterCap {
			maxIter = numMaxIterCap
		}
	}
	return restarts, maxIter
}

// scaleIn returns the largest magnitude of an effort, the scale of the
// smoothing of inner operators.
func (c *numConfig) scaleIn() float64 {
	s := math.Max(math.Abs(c.budget.Min), math.Abs(c.budget.Min+c.box.s))
	if s == 0 {
		return 1
	}
	return s
}

// numPoint is a point of the search and its value under the exact kernels.
type numPoint struct {
	x      []float64
	f      float64
	order  int  // when the point was found: candidates first
	always bool // a candidate ascended whatever its rank
}

// numSolution is the outcome of the continuous search: the homogeneous
// row and the allocation (flat, row-major) found, with their true rewards.
type numSolution struct {
	homRow   []float64
	homValue float64
	het      []float64
	hetValue float64
}

// solve runs the continuous search: the homogeneous search, then the
// heterogeneous one (whose candidates include the homogeneous optimum),
// then Theorem 3.2's construction on the best allocations found (raiseHom).
// Its R_hom is at most its R_het.
func (c *numConfig) solve() (numSolution, error) {
	row, homValue, err := c.searchHom()
	if err != nil {
		return numSolution{}, err
	}
	het, top, err := c.searchHet(row, homValue)
	if err != nil {
		return numSolution{}, err
	}
	s := numSolution{homRow: row, homValue: homValue, het: het.x, hetValue: het.f}
	if err := c.raiseHom(&s, top); err != nil {
		return numSolution{}, err
	}
	return s, nil
}

// raiseHom applies the construction of Theorem 3.2's proof to s.het and to
// the best points pts of the heterogeneous search: the homogeneous row of
// an allocation's column means, c_j = (sum_i r_ij)/N, keeps every column
// sum, and is feasible since the budget is convex. Where T_j is
// Schur-concave (or depends on the column sum only, like the threshold
// operators) that row is at least as good as the allocation, and the
// homogeneous optimum is often such a single point, which the homogeneous
// search cannot reach from its candidates and random starts. If one of
// these rows beats s.homValue by more than rounding (numTieTol), they are
// ascended as the candidates of a second homogeneous search, and the best
// row found, if it beats s.homValue by more than rounding, replaces
// s.homRow. Should R_hom then exceed R_het, the homogeneous allocation,
// which is also a heterogeneous one, replaces s.het; and Theorem 3.1's
// construction from the new row (spreadFlat) replaces s.het if it beats
// it by more than rounding.
func (c *numConfig) raiseHom(s *numSolution, pts []numPoint) error {
	cands := [][]float64{c.columnMeans(s.het)}
	for _, p := range pts {
		cands = append(cands, c.columnMeans(p.x))
	}
	cands = append(cands, c.fillSlack(s.homRow)...)
	exact := numNewObjective(c.r, c.n, c.m, true, 0, 1, 1, c.genericKernels)
	tie := numTieTol * math.Abs(s.homValue)
	better := false
	for _, x := range cands {
		c.box.feasible(x)
		better = better || exact.value(x) > s.homValue+tie
	}
	if !better {
		return nil
	}
	p, _, err := c.search(true, numStarts{cands: cands}, nil)
	if err != nil {
		return err
	}
	if !(p.f > s.homValue+tie) {
		return nil
	}
	s.homRow, s.homValue = p.x, p.f
	if s.homValue > s.hetValue {
		s.het, s.hetValue = c.replicateFlat(s.homRow), s.homValue
	}
	// Theorem 3.1's construction from the new homogeneous optimum.
	x := c.spreadFlat(s.homRow)
	c.box.feasible(x)
	v, err := numTrueValue(c.r, c.budget, mat.NewDense(c.n, c.m, x))
	if err == nil && v > s.hetValue+numTieTol*math.Abs(s.hetValue) {
		s.het, s.hetValue = x, v
	}
	return nil
}

// fillSlack returns, if row sums to less than the budget's maximum, the
// rows that spend the rest: on each task in turn, and evenly on all. An
// ascent can stop short of the budget where raising a task would first
// take another task's score out of U's domain (a negative lse(-3) score
// under powersum(3)), though spending the rest on one task would not.
func (c *numConfig) fillSlack(row []float64) [][]float64 {
	slack := c.box.hi - numRowSum(row)
	if !(slack > numTieTol*math.Max(1, math.Abs(c.box.hi))) {
		return nil
	}
	var out [][]float64
	for j := 0; j <= c.m; j++ {
		x := append([]float64(nil), row...)
		if j < c.m {
			x[j] += slack
		} else {
			for k := range x {
				x[k] += slack / float64(c.m)
			}
		}
		out = append(out, x)
	}
	return out
}

// columnMeans returns the row of the column means of the flat allocation x.
func (c *numConfig) columnMeans(x []float64) []float64 {
	row := make([]float64, c.m)
	for j := range row {
		s := 0.0
		for i := 0; i < c.n; i++ {
			s += x[i*c.m+j]
		}
		row[j] = s / float64(c.n)
	}
	return row
}

// searchHom returns the best homogeneous row found and its true reward.
// Its candidates put the budget's floor off the chosen tasks and share the
// rest evenly over them; with a negative floor, also 0 off them and the
// row's budget on them, since an outer operator that takes only
// non-negative scores may refuse every row with an entry at the floor.
func (c *numConfig) searchHom() ([]float64, float64, error) {
	m := c.m
	var cands [][]float64
	for _, tasks := range c.homTaskSets() {
		cands = append(cands, c.homRow(tasks, false))
		if c.box.lo < 0 && len(tasks) > 0 {
			cands = append(cands, c.homRow(tasks, true))
		}
	}
	rnd := rand.New(numNewSource(c.seed))
	restarts, _ := c.limits(m)
	best, _, err := c.search(true, numStarts{cands: cands, restarts: restarts}, rnd)
	if err != nil {
		return nil, 0, err
	}
	return best.x, best.f, nil
}

// homTaskSets lists the sets of tasks of searchHom's candidate rows: none,
// and all subsets for M <= 10 (the first k tasks, for k = 1, ..., M, if
// the inner operator is shared, as the tasks are then alike), else the
// first k tasks and task k alone.
func (c *numConfig) homTaskSets() [][]int {
	m := c.m
	first := func(k int) []int {
		tasks := make([]int, k)
		for j := range tasks {
			tasks[j] = j
		}
		return tasks
	}
	sets := [][]int{nil}
	switch {
	case c.shared:
		for k := 1; k <= m; k++ {
			sets = append(sets, first(k))
		}
	case m <= 10:
		for mask := 1; mask < 1<<m; mask++ {
			var tasks []int
			for j := 0; j < m; j++ {
				if mask&(1<<j) != 0 {
					tasks = append(tasks, j)
				}
			}
			sets = append(sets, tasks)
		}
	default:
		for k := 1; k <= m; k++ {
			sets = append(sets, first(k))
			if k < m {
				sets = append(sets, []int{k})
			}
		}
	}
	return sets
}

// homRow returns a candidate row of searchHom for tasks: the floor off
// tasks and the budget above the floors shared evenly over them, or with
// zeroOff, 0 off tasks and the row's whole budget shared over them. No
// tasks gives the floor everywhere.
func (c *numConfig) homRow(tasks []int, zeroOff bool) []float64 {
	off, share := c.box.lo, c.box.s
	if zeroOff {
		off, share = 0, c.box.hi
	}
	x := make([]float64, c.m)
	for j := range x {
		x[j] = off
	}
	for _, j := range tasks {
		x[j] += share / float64(len(tasks))
	}
	return x
}

// searchHet returns the best allocation found, with its true reward, and
// the best points of the search (see search), given the homogeneous
// optimum homRow with true reward homValue.
func (c *numConfig) searchHet(homRow []float64, homValue float64) (numPoint, []numPoint, error) {
	n, m := c.n, c.m
	hom := c.replicateFlat(homRow)
	cands := [][]float64{hom}
	// Homogeneous candidates: the vertex and the even splits.
	for k := 1; k <= m; k++ {
		x := make([]float64, m)
		for j := range x {
			x[j] = c.box.lo
			if j < k {
				x[j] += c.box.s / float64(k)
			}
		}
		cands = append(cands, c.replicateFlat(x))
	}
	// Whole agents on single tasks, up to symmetry.
	// The row (high, low, ..., low), exactly within the budget.
	one := make([]float64, m)
	for j := range one {
		one[j] = c.box.lo
	}
	one[0] += c.box.s
	c.box.feasible(one)
	high, low := one[0], c.box.lo
	if s := discNewSearch(c.r, n, m, high, low, numTopCandidates); discCount(s.groups, n) <= numCandidateCap {
		s.run()
		for _, leaf := range s.top {
			x := make([]float64, n*m)
			discAllocation(x, leaf.counts, m, high, low)
			cands = append(cands, x)
		}
	}
	// Cyclic windows of k tasks, and the round-robin cover.
	for k := 1; k <= m; k++ {
		x := make([]float64, n*m)
		for i := 0; i < n; i++ {
			start := i * m / n
			for j := 0; j < m; j++ {
				x[i*m+j] = low
			}
			for l := 0; l < k; l++ {
				x[i*m+(start+l)%m] += c.box.s / float64(k)
			}
		}
		cands = append(cands, x)
	}
	x := make([]float64, n*m)
	for i := 0; i < n; i++ {
		for j := 0; j < m; j++ {
			x[i*m+j] = low
		}
		if i >= m {
			x[i*m+i%m] = high
			continue
		}
		tasks := (m - i + n - 1) / n
		for j := i; j < m; j += n {
			x[i*m+j] += c.box.s / float64(tasks)
		}
	}
	cands = append(cands, x)
	cands = append(cands, c.privateShared()...)

	rnd := rand.New(numNewSource(c.seed ^ 0x2545F4914F6CDD1D))
	restarts, _ := c.limits(n * m)
	st := numStarts{cands: cands, always: [][]float64{c.spreadFlat(homRow)}, restarts: restarts}
	best, top, err := c.search(false, st, rnd)
	if err != nil {
		return numPoint{}, nil, err
	}
	if best.f < homValue { // only by rounding: the homogeneous optimum is a candidate
		best = numPoint{x: hom, f: homValue}
	}
	return best, top, nil
}

// numPrivateShares are the shares of the budget above the floor that
// privateShared gives each agent's own task.
var numPrivateShares = []float64{0.5, 0.55, 0.6, 0.7}

// privateShared returns, for N < M, the allocations in which agent i puts
// a share w (each of numPrivateShares) of its budget above the floor on
// task i, its own, and the rest evenly on tasks N to M−1, which all agents
// share: the form of the best allocations known for a minimum over
// Schur-convex task scores (min∘powermean(5), N = 4, M = 5), which the
// other candidates do not reach. It returns nil for N >= M.
func (c *numConfig) privateShared() [][]float64 {
	n, m := c.n, c.m
	if n >= m {
		return nil
	}
	var out [][]float64
	for _, w := range numPrivateShares {
		x := make([]float64, n*m)
		for i := 0; i < n; i++ {
			for j := 0; j < m; j++ {
				x[i*m+j] = c.box.lo
			}
			x[i*m+i] += w * c.box.s
			for j := n; j < m; j++ {
				x[i*m+j] += (1 - w) * c.box.s / float64(m-n)
			}
		}
		out = append(out, x)
	}
	return out
}

// spreadFlat returns the allocation that the proof of Theorem 3.1 builds
// from the homogeneous row (flat, row-major): the same column sums, with
// as many agents as possible specialised. In units of the budget above the
// floor, task j receives N·c_j; ⌊N·c_j⌋ agents put their whole budget on
// it, and the fractional remainders, task after task, fill the other
// agents one budget at a time (an agent whose budget runs out on a task
// leaves the rest of it to the next agent). Where T_j is strictly
// Schur-convex every column majorizes the homogeneous one, so the
// allocation is at least as good as the row, and better unless the row is
// trivial; the first-order ascent cannot find it from a vertex where the
// derivative of T_j on an empty task vanishes (powersum(3) at 0).
func (c *numConfig) spreadFlat(row []float64) []float64 {
	n, m, s := c.n, c.m, c.box.s
	x := make([]float64, n*m)
	for k := range x {
		x[k] = c.box.lo
	}
	if !(s > 0) {
		return x
	}
	frac := make([]float64, m)
	agent := 0
	for j, v := range row {
		mass := math.Max(float64(n)*(v-c.box.lo)/s, 0)
		whole := math.Floor(mass)
		for k := 0.0; k < whole && agent < n; k++ {
			x[agent*m+j] += s
			agent++
		}
		frac[j] = mass - whole
	}
	room := 1.0 // of the budget of agent
	for j := 0; j < m && agent < n; j++ {
		for f := frac[j]; f > 0 && agent < n; {
			put := math.Min(f, room)
			x[agent*m+j] += put * s
			f, room = f-put, room-put
			if room <= 0 {
				agent, room = agent+1, 1
			}
		}
	}
	return x
}

func (c *numConfig) replicateFlat(row []float64) []float64 {
	x := make([]float64, c.n*c.m)
	for i := 0; i < c.n; i++ {
		copy(x[i*c.m:], row)
	}
	return x
}

// numStarts are the starting points of one search.
type numStarts struct {
	// cands are the structured candidates: every one is evaluated, and
	// the best numTopCandidates are ascended.
	cands [][]float64
	// always are candidates that are ascended whatever their rank (the
	// constructions of the theorems' proofs).
	always [][]float64
	// restarts is the number of random starts (rnd may be nil if 0).
	restarts int
}

// search runs the candidates, the local ascents, the polish and (with rnd
// not nil) the kicks, and returns
// the best point with its true reward (for hom, the point is one row), and
// the best numFinal points of the search with their values under the
// exact kernels, in decreasing order.
func (c *numConfig) search(hom bool, st numStarts, rnd *rand.Rand) (numPoint, []numPoint, error) {
	dim := c.n * c.m
	if hom {
		dim = c.m
	}
	_, maxIter := c.limits(dim)
	exact := numNewObjective(c.r, c.n, c.m, hom, 0, 1, 1, c.genericKernels)

	// 1. Candidates, and the scale of the task scores.
	pool, scaleOut := c.evaluateStarts(exact, st)
	// 2-3. Local ascent (through the smoothing stages).
	asc := c.newAscent(hom, dim, exact, scaleOut)
	for _, p := range c.ascents(asc, pool, st, rnd, dim, maxIter) {
		p.order = len(pool)
		pool = append(pool, p)
	}
	numSortPoints(pool)
	// 4. Polish the best points on the true reward, and move effort
	// between tasks from the best one.
	pool = asc.polish(pool, numPolishFactor*maxIter)
	if len(pool) > 0 {
		if p, ok := asc.moves(pool[0], maxIter); ok {
			p.order = len(pool)
			pool = append(pool, p)
			numSortPoints(pool)
		}
	}
	// Then kicks from the best point (searches with random starts only).
	if len(pool) > 0 && rnd != nil && c.m >= numKickMinTasks {
		if p, ok := c.kicks(asc, pool[0], rnd, maxIter); ok {
			p.order = len(pool)
			pool = append(pool, p)
			numSortPoints(pool)
		}
	}
	if exact.overflow {
		return numPoint{}, nil, fmt.Errorf("gain: %v overflows (a task score beyond aggregators.MaxInput = %g, or R = ±Inf) at some allocations: %w", c.r, aggregators.MaxInput, ErrOperator)
	}
	if len(pool) == 0 {
		return numPoint{}, nil, fmt.Errorf("gain: %v is not defined at any allocation tried (task scores outside the domain of %v): %w", c.r, c.r.Outer, ErrOperator)
	}
	best, err := c.pick(hom, pool)
	if len(pool) > numFinal {
		pool = pool[:numFinal]
	}
	return best, pool, err
}

// numKicks is the number of kicks (numConfig.kicks) from the best point
// of a search, and numKickMinTasks the fewest tasks for which they run:
// with two tasks they raised none of 780 rewards compared (13 × 12
// operators, N = 2 to 6) and cost 40% (BenchmarkSoftmaxGrid41).
const (
	numKicks        = 8
	numKickMinTasks = 3
)

// kicks improves p by basin hopping, for local optima that neither the
// ascent nor the non-local moves leave (a minimum of convex task scores,
// such as min∘powersum(2), whose optima balance many tasks at once): each
// of numKicks kicks mixes the best point so far with a random start (as
// the restarts draw them, in turn) at a weight drawn in [0.1, 0.4] and
// ascends it through the last smoothing stage and the true reward
// (ascendFine; ascents through every stage, or for a quarter of the
// iterations, found far less in 3744 small rewards); the result becomes
// the best point if it beats it by more than the tolerance. It returns
// the best point and true if it beats p.
func (c *numConfig) kicks(asc *numAscent, p numPoint, rnd *rand.Rand, maxIter int) (numPoint, bool) {
	best, improved := p, false
	x, y := make([]float64, len(p.x)), make([]float64, len(p.x))
	for k := 0; k < numKicks; k++ {
		numRandomStart(rnd, y, c.box, k)
		w := 0.1 + 0.3*rnd.Float64()
		for i := range x {
			x[i] = (1-w)*best.x[i] + w*y[i]
		}
		c.box.feasible(x)
		if q, ok := asc.ascendFine(x, maxIter); ok && q.f > best.f+asc.tol*(1+math.Abs(best.f)) {
			best, improved = q, true
		}
	}
	return best, improved
}

// ascents returns the points that asc reaches, in this order, from the
// best numTopCandidates points of the sorted pool, from st.restarts random
// starts and from the other points of st.always (last, so that they win
// no ties against the others), at most maxIter iterations per stage.
func (c *numConfig) ascents(asc *numAscent, pool []numPoint, st numStarts, rnd *rand.Rand, dim, maxIter int) []numPoint {
	results := make([]numPoint, 0, numTopCandidates+st.restarts+len(st.always))
	for k := 0; k < len(pool) && k < numTopCandidates; k++ {
		if p, ok := asc.ascend(pool[k].x, maxIter); ok {
			results = append(results, p)
		}
	}
	x0 := make([]float64, dim)
	for k := 0; k < st.restarts; k++ {
		numRandomStart(rnd, x0, c.box, k)
		if p, ok := asc.ascend(x0, maxIter); ok {
			results = append(results, p)
		}
	}
	for k, p := range pool {
		if k >= numTopCandidates && p.always {
			if q, ok := asc.ascend(p.x, maxIter); ok {
				results = append(results, q)
			}
		}
	}
	return results
}

// evaluateStarts evaluates the candidates of st (made feasible) with the
// exact kernels, and returns those where R is defined, sorted by
// decreasing value, with the largest magnitude of a task score seen (1 if
// none is above 0). With c.noCandidates, there are none.
func (c *numConfig) evaluateStarts(exact *numObjective, st numStarts) ([]numPoint, float64) {
	starts := len(st.cands) + len(st.always)
	// Room for every point the search adds (see search).
	pool := make([]numPoint, 0, starts+numTopCandidates+st.restarts+len(st.always)+numPolished+1)
	scaleOut := 0.0
	for k := 0; k < starts && !c.noCandidates; k++ {
		var x []float64
		if k < len(st.cands) {
			x = st.cands[k]
		} else {
			x = st.always[k-len(st.cands)]
		}
		c.box.feasible(x)
		f := exact.value(x)
		if math.IsNaN(f) {
			continue
		}
		for _, y := range exact.y {
			scaleOut = math.Max(scaleOut, math.Abs(y))
		}
		pool = append(pool, numPoint{x: x, f: f, order: len(pool), always: k >= len(st.cands)})
	}
	if scaleOut == 0 {
		scaleOut = 1
	}
	numSortPoints(pool)
	return pool, scaleOut
}

// numAscent is the local ascent of one search: the smoothing stages (for
// non-smooth rewards) and the exact objective, run by one SPG.
type numAscent struct {
	stages []*numObjective
	exact  *numObjective
	spg    *numSPG
	box    numBox
	tol    float64
}

func (c *numConfig) newAscent(hom bool, dim int, exact *numObjective, scaleOut float64) *numAscent {
	a := &numAscent{exact: exact, spg: numNewSPG(c.box, dim), box: c.box, tol: c.tol}
	if c.nonsmooth {
		for _, t := range numTemperatures {
			a.stages = append(a.stages, numNewObjective(c.r, c.n, c.m, hom, t, c.scaleIn(), scaleOut, c.genericKernels))
		}
	}
	return a
}

// ascend runs the ascent from x0 through every stage, for at most iters
// iterations each, and returns the point reached with its exact value, or
// false if R is not defined there.
func (a *numAscent) ascend(x0 []float64, iters int) (numPoint, bool) {
	x := append([]float64(nil), x0...)
	for _, obj := range a.stages {
		if f := a.spg.run(obj, x, iters, a.tol); !math.IsInf(f, -1) {
			copy(x, a.spg.best)
		}
	}
	f := a.spg.run(a.exact, x, iters, a.tol)
	if math.IsInf(f, -1) {
		return numPoint{}, false
	}
	copy(x, a.spg.best)
	a.box.feasible(x)
	f = a.exact.value(x)
	return numPoint{x: x, f: f}, !math.IsNaN(f)
}

// ascendFine is ascend through the last smoothing stage alone, which keeps
// the ascent near x0 (the coarse stages can carry it to another basin).
func (a *numAscent) ascendFine(x0 []float64, iters int) (numPoint, bool) {
	fine := *a
	if len(a.stages) > 1 {
		fine.stages = a.stages[len(a.stages)-1:]
	}
	return fine.ascend(x0, iters)
}

// polish ascends the best numPolished points of the sorted pool again on
// the exact objective, for iters iterations, adds the points that improve,
// and returns the pool sorted again.
func (a *numAscent) polish(pool []numPoint, iters int) []numPoint {
	polished := len(pool)
	if polished > numPolished {
		polished = numPolished
	}
	for k := 0; k < polished; k++ {
		f := a.spg.run(a.exact, pool[k].x, iters, a.tol)
		if math.IsInf(f, -1) {
			continue
		}
		x := append([]float64(nil), a.spg.best...)
		a.box.feasible(x)
		if f = a.exact.value(x); f > pool[k].f {
			pool = append(pool, numPoint{x: x, f: f, order: len(pool)})
		}
	}
	numSortPoints(pool)
	return pool
}

// Non-local moves (numAscent.moves).
const (
	numMoveRounds = 4
	// numMoveWork bounds the work of one round of moves: the number of
	// moves times N·M, the cost of an evaluation (homogeneous ones too).
	numMoveWork = 1 << 22
)

// numMoveShares are the shares of an entry's effort above the floor that a
// move shifts to another task.
var numMoveShares = [...]float64{0.5, 1}

// moves improves p by non-local moves, which the ascent cannot make where
// the gradient vanishes (an empty task whose T has zero derivative at 0,
// such as powersum(3)): every move shifts a share (numMoveShares) of one
// entry's effort above the floor to another task of the same row, or
// spreads it equally over all the other tasks of the row. For a
// non-smooth reward p is first ascended through the last smoothing stage
// (ascendFine). Then the best move, if it beats the point, is ascended in
// the same way (iters iterations per stage), and the rounds repeat from
// the point reached while they improve it by more than the tolerance, up
// to numMoveRounds. It returns the point and true if it beats p; a round
// whose moves would cost more than numMoveWork is not tried.
func (a *numAscent) moves(p numPoint, iters int) (numPoint, bool) {
	best, improved := p, false
	if len(a.stages) > 0 { // the polish ran the true reward alone from p
		if q, ok := a.ascendFine(p.x, iters); ok && q.f > p.f {
			best, improved = q, true
		}
	}
	for round := 0; round < numMoveRounds; round++ {
		q, ok := a.bestMove(best)
		if !ok {
			break
		}
		if r, ok := a.ascendFine(q.x, iters); ok && r.f > q.f {
			q = r
		}
		up := q.f - best.f
		best, improved = q, true
		if up <= a.tol*(1+math.Abs(best.f)) {
			break
		}
	}
	return best, improved
}

// bestMove returns the best point one move away from p, and true if it
// beats p.
func (a *numAscent) bestMove(p numPoint) (numPoint, bool) {
	m, lo := a.box.m, a.box.lo
	count := 0
	for _, v := range p.x {
		if v > lo {
			count += m * len(numMoveShares) // m−1 targets and the spread
		}
	}
	if count == 0 || float64(count)*float64(a.exact.n*a.exact.m) > numMoveWork {
		return numPoint{}, false
	}
	x := append([]float64(nil), p.x...)
	best := numPoint{f: p.f}
	for start := 0; start < len(x); start += m {
		row, old := x[start:start+m], p.x[start:start+m]
		for j, xj := range old {
			if !(xj > lo) {
				continue
			}
			for k := range old {
				if k == j {
					continue
				}
				for _, t := range numMoveShares {
					d := t * (xj - lo)
					row[j], row[k] = xj-d, old[k]+d
					a.tryMove(x, row, old, &best)
				}
			}
			if m < 3 { // the spread is the move to the one other task
				continue
			}
			for _, t := range numMoveShares {
				d := t * (xj - lo) / float64(m-1)
				for k := range row {
					row[k] = old[k] + d
				}
				row[j] = xj - t*(xj-lo)
				a.tryMove(x, row, old, &best)
			}
		}
	}
	return best, best.x != nil
}

// tryMove evaluates the flat allocation x, whose row has been moved from
// old, makes it best if it beats best, and restores the row.
func (a *numAscent) tryMove(x, row, old []float64, best *numPoint) {
	a.box.feasible(row)
	if f := a.exact.value(x); f > best.f {
		*best = numPoint{x: append([]float64(nil), x...), f: f}
	}
	copy(row, old)
}

// pick returns the point of the sorted, non-empty pool that the search
// returns, with its true reward: of the points within rounding (numTieTol)
// of the best value, the one found first, so that structured candidates
// win ties. Should its true reward not be defined, the next best points
// are tried, up to numFinal in all.
func (c *numConfig) pick(hom bool, pool []numPoint) (numPoint, error) {
	thr := pool[0].f - numTieTol*math.Abs(pool[0].f)
	first := 0
	for k := 1; k < len(pool) && pool[k].f >= thr; k++ {
		if pool[k].order < pool[first].order {
			first = k
		}
	}
	order := []int{first}
	for k := 0; k < len(pool) && len(order) < numFinal; k++ {
		if k != first {
			order = append(order, k)
		}
	}
	var firstErr error
	for _, k := range order {
		x := pool[k].x
		a := mat.NewDense(c.n, c.m, nil)
		if hom {
			for i := 0; i < c.n; i++ {
				a.SetRow(i, x)
			}
		} else {
			a = mat.NewDense(c.n, c.m, x)
		}
		v, err := numTrueValue(c.r, c.budget, a)
		if err == nil && (math.IsInf(v, 0) || math.IsNaN(v)) {
			err = fmt.Errorf("gain: %v = %v at an allocation: %w", c.r, v, ErrOperator)
		}
		if err == nil {
			return numPoint{x: x, f: v}, nil
		}
		if firstErr == nil {
			firstErr = err
		}
	}
	return numPoint{}, firstErr
}

// numSortPoints sorts points by decreasing value, keeping the order of
// equal values (insertion sort: the pools are short and mostly sorted).
func numSortPoints(p []numPoint) {
	for i := 1; i < len(p); i++ {
		v := p[i]
		k := i
		for ; k > 0 && p[k-1].f < v.f; k-- {
			p[k] = p[k-1]
		}
		p[k] = v
	}
}

// numTrueValue returns R(a) evaluated with the true operators: through
// aggregators.Reward.Value (with the reward's row-sum limit set to B_max)
// when B_min >= 0, and operator by operator otherwise (Reward rejects
// negative efforts).
func numTrueValue(r *aggregators.Reward, b Budget, a *mat.Dense) (float64, error) {
	if b.Min >= 0 {
		rb := *r
		rb.Budget = b.Max
		v, err := rb.Value(a)
		if err != nil {
			return math.NaN(), fmt.Errorf("gain: %w: %w", ErrOperator, err)
		}
		return v, nil
	}
	n, m := a.Dims()
	y := make([]float64, m)
	col := make([]float64, n)
	for j := 0; j < m; j++ {
		mat.Col(col, j, a)
		v, err := aggregators.Evaluate(r.InnerFor(j), col)
		if err != nil {
			return math.NaN(), fmt.Errorf("gain: task %d: %w: %w", j, ErrOperator, err)
		}
		y[j] = v
	}
	v, err := aggregators.Evaluate(r.Outer, y)
	if err != nil {
		return math.NaN(), fmt.Errorf("gain: outer operator: %w: %w", ErrOperator, err)
	}
	return v, nil
}
