package gain

import (
	"fmt"
	"math"

	"github.com/hetgain/hetgain/aggregators"
)

// Sign is what a theorem says about the sign of a heterogeneity gain.
type Sign int

const (
	// Undecided means that no result of the paper decides the sign.
	Undecided Sign = iota
	// Zero means ΔR = 0.
	Zero
	// Positive means ΔR > 0.
	Positive
	// PositiveUnlessTrivial means that Theorem 3.1 applies, so ΔR > 0
	// unless every optimal homogeneous allocation is trivial (all agents on
	// one task), which Predict could not rule out.
	PositiveUnlessTrivial
)

var signNames = [...]string{
	Undecided:             "Undecided",
	Zero:                  "Zero",
	Positive:              "Positive",
	PositiveUnlessTrivial: "PositiveUnlessTrivial",
}

// String returns the name of the constant, e.g. "PositiveUnlessTrivial".
func (s Sign) String() string {
	if s < 0 || int(s) >= len(signNames) {
		return fmt.Sprintf("Sign(%d)", int(s))
	}
	return signNames[s]
}

// Prediction is what the paper's results say about ΔR for a reward.
type Prediction struct {
	// Sign is the predicted sign of ΔR.
	Sign Sign
	// Rule names the result that gives Sign: "Theorem 3.1",
	// "Theorem 3.2", "Corollary F.1", "trivial case" or "none".
	Rule string
	// Reason explains how the result applies, or why none does.
	Reason string
}

// maxPredictEval is the largest N or M for which Predict evaluates rewards.
const maxPredictEval = 1 << 20

// homTolerance is the relative margin by which a non-trivial homogeneous
// allocation must beat the trivial one for Predict to report Positive.
const homTolerance = 1e-9

// Predict returns what the paper's results say about the sign of ΔR for
// continuous allocations of n agents over m tasks and the reward
// R = U∘T with outer aggregator u and task aggregator t (the same for every
// task). Like the paper, it assumes that u and t are non-decreasing; the
// Schur classes and strict monotonicity are those the operators report on
// the unit box (aggregators.Operator). The rules, in order:
//
//  1. n = 1 or m = 1: Zero (trivial case: one agent is always homogeneous,
//     and with one task every admissible row is (1)).
//  2. T Schur-concave on [0,1]^N (including Both): Zero by Theorem 3.2.
//     The Reason mentions Theorem 3.3 where it also applies (T's scores
//     sum to a constant and U is strictly Schur-convex).
//  3. T strictly Schur-convex and U strictly increasing on the range of
//     T's scores: Theorem 3.1, ΔR > 0 unless every optimal homogeneous
//     allocation is trivial. The sign is Positive, with Rule
//     "Corollary F.1", when T and U are power sums with exponents t > 1 and
//     τ < 1; Positive with Rule "Theorem 3.1" when some non-trivial
//     homogeneous allocation (uniform over k tasks, k = 2, ..., min(M, 8),
//     and k = M) beats the trivial one (1, 0, ..., 0) by a relative margin
//     of 1e-9 — then no optimal homogeneous allocation is trivial; and
//     PositiveUnlessTrivial otherwise. The Reason gives the rewards.
//  4. Otherwise Undecided, with the reason.
//
// The paper's proof of Corollary F.1 compares the trivial homogeneous
// allocation with a heterogeneous one rather than a homogeneous one; the
// statement holds nevertheless (if the trivial allocation is the
// homogeneous optimum, splitting the agents over two tasks beats it, since
// a strictly concave h with h(0) = 0 is strictly subadditive), and the tests
// check it by grid search.
//
// The range of T's scores is [T(0,...,0), T(1,...,1)] ([0,1] for
// softmax). U's StrictlyIncreasing is certified on [0,1]^M; for softmax U,
// which is strictly increasing on a box of width w if and only if
// |τ|·w <= aggregators.SoftmaxMonotoneLimit(M), Predict checks the actual
// range. For N above 2^20 Predict does not evaluate T on N coordinates
// (nor rewards, for N or M above 2^20): a softmax U of finite non-zero τ
// is then Undecided unless T is softmax, and Theorem 3.1 gives
// PositiveUnlessTrivial where Corollary F.1 does not apply.
//
// The theorems concern continuous allocations: with discrete allocations
// ΔR can be positive where Predict says Zero (see ClosedForm).
//
// Predict returns an error wrapping ErrSize if n or m is below 1, and
// ErrOperator if u or t is nil, has an invalid parameter, or cannot be
// evaluated on the allocations Predict tries.
func Predict(u, t aggregators.Operator, n, m int) (Prediction, error) {
	if err := checkPredictArgs(u, t, n, m); err != nil {
		return Prediction{}, err
	}
	if n == 1 || m == 1 {
		return trivialPrediction(n), nil
	}
	tc := t.Schur(n)
	switch {
	case tc.IsConcave():
		return concavePrediction(u, t, n, m), nil
	case tc == aggregators.StrictlyConvex:
		return convexPrediction(u, t, n, m)
	}
	return Prediction{Sign: Undecided, Rule: "none", Reason: fmt.Sprintf(
		"%s: Theorem 3.1 needs T strictly Schur-convex and Theorem 3.2 needs it Schur-concave",
		describeClass(t, tc, n))}, nil
}

// describeClass says what the Schur class c of t on [0,1]^n is.
func describeClass(t aggregators.Operator, c aggregators.SchurClass, n int) string {
	switch c {
	case aggregators.Unknown:
		return fmt.Sprintf("T = %v has no established Schur class on [0,1]^%d", t, n)
	case aggregators.Convex:
		return fmt.Sprintf("T = %v is Schur-convex on [0,1]^%d, but not strictly", t, n)
	}
	return fmt.Sprintf("T = %v is %v on [0,1]^%d", t, c, n)
}

func checkPredictArgs(u, t aggregators.Operator, n, m int) error {
	if err := checkSizes(n, m); err != nil {
		return err
	}
	for _, op := range []struct {
		name string
		op   aggregators.Operator
	}{{"U", u}, {"T", t}} {
		if op.op == nil {
			return fmt.Errorf("gain: %s is nil: %w", op.name, ErrOperator)
		}
		if err := numCheckOperator(op.name, op.op); err != nil {
			return err
		}
	}
	return nil
}

func trivialPrediction(n int) Prediction {
	reason := "M = 1: every admissible row is (1), so every admissible allocation is homogeneous"
	if n == 1 {
		reason = "N = 1: a single agent's allocation is homogeneous"
	}
	return Prediction{Sign: Zero, Rule: "trivial case", Reason: reason}
}

func concavePrediction(u, t aggregators.Operator, n, m int) Prediction {
	reason := describeClass(t, t.Schur(n), n) + ", so ΔR = 0"
	if constantSum(t) && u.Schur(m) == aggregators.StrictlyConvex {
		reason += fmt.Sprintf("; Theorem 3.3 also applies: T's scores sum to a constant and U = %v is strictly Schur-convex", u)
	}
	return Prediction{Sign: Zero, Rule: "Theorem 3.2", Reason: reason}
}

// constantSum reports whether sum_j T(a_j) is the same for every admissible
// allocation, with T(0) = 0 and T >= 0 (the hypotheses of Theorem 3.3).
func constantSum(t aggregators.Operator) bool {
	switch o := t.(type) {
	case aggregators.Mean, aggregators.Sum:
		return true
	case aggregators.PowerSum:
		return o.T == 1
	case aggregators.MeanPower:
		return o.T == 1
	case aggregators.PowerMean:
		return o.T == 1
	case aggregators.Softmax:
		return o.T == 0
	}
	return false
}

func convexPrediction(u, t aggregators.Operator, n, m int) (Prediction, error) {
	head := fmt.Sprintf("T = %v is strictly Schur-convex on [0,1]^%d", t, n)
	ok, why, on, err := increasingOnScores(u, t, n, m)
	if err != nil {
		return Prediction{}, err
	}
	if !ok {
		return Prediction{Sign: Undecided, Rule: "none", Reason: head + ", but " + why + ", which Theorem 3.1 needs"}, nil
	}
	head += fmt.Sprintf(" and U = %v is strictly increasing on %s", u, on)
	if convexConcaveSumForms(u, t) {
		return Prediction{Sign: Positive, Rule: "Corollary F.1", Reason: head +
			"; T is a strictly convex and U a strictly concave sum form with g(0) = h(0) = 0"}, nil
	}
	if n > maxPredictEval || m > maxPredictEval {
		return Prediction{Sign: PositiveUnlessTrivial, Rule: "Theorem 3.1", Reason: head + fmt.Sprintf(
			"; N or M is above %d, so no rewards were evaluated", maxPredictEval)}, nil
	}
	trivial, best, k, err := bestHomogeneous(u, t, n, m)
	if err != nil {
		return Prediction{}, err
	}
	if best > trivial+homTolerance*math.Max(1, math.Abs(trivial)) {
		return Prediction{Sign: Positive, Rule: "Theorem 3.1", Reason: head + fmt.Sprintf(
			"; the homogeneous allocation uniform over %d tasks has R = %.10g > %.10g, the reward of the trivial allocation, so no optimal homogeneous allocation is trivial",
			k, best, trivial)}, nil
	}
	return Prediction{Sign: PositiveUnlessTrivial, Rule: "Theorem 3.1", Reason: head + fmt.Sprintf(
		"; no non-trivial homogeneous allocation tried beats the trivial one (R = %.10g, best other %.10g), so ΔR > 0 unless every optimal homogeneous allocation is trivial",
		trivial, best)}, nil
}

// increasingOnScores reports whether u is strictly increasing on the range
// of t's scores, [lo, hi]^m (scoreRange), as increasingOn decides it, and
// if not, why; on describes the box. The range costs two evaluations of t
// on n coordinates, so for n > maxPredictEval it is computed only for a
// softmax t (whose range is [0, 1]); without it, a softmax u of finite
// non-zero τ, which increases only on boxes of bounded width, is not
// reported increasing, and any other u is judged by its StrictlyIncreasing,
// as increasingOn judges it whatever the range.
func increasingOnScores(u, t aggregators.Operator, n, m int) (ok bool, why, on string, err error) {
	_, softT := t.(aggregators.Softmax)
	if n <= maxPredictEval || softT {
		lo, hi, err := scoreRange(t, n)
		if err != nil {
			return false, "", "", err
		}
		ok, why := increasingOn(u, m, lo, hi)
		return ok, why, fmt.Sprintf("[%.6g, %.6g]^%d", lo, hi, m), nil
	}
	if s, isSoft := u.(aggregators.Softmax); isSoft && !math.IsInf(s.T, 0) && s.T != 0 {
		return false, fmt.Sprintf("U = %v is not known to be strictly increasing on the range of T's scores (it is on boxes of width at most %.6g, and the range is not computed for N above %d)",
			u, aggregators.SoftmaxMonotoneLimit(m)/math.Abs(s.T), maxPredictEval), "", nil
	}
	if !u.StrictlyIncreasing(m) {
		return false, fmt.Sprintf("U = %v is not strictly increasing", u), "", nil
	}
	return true, "", fmt.Sprintf("the range of T's scores (not computed: N above %d)", maxPredictEval), nil
}

// scoreRange returns T's smallest and largest score on [0,1]^n, assuming T
// is non-decreasing (softmax, which need not be, lies in [0,1]).
func scoreRange(t aggregators.Operator, n int) (lo, hi float64, err error) {
	if _, ok := t.(aggregators.Softmax); ok {
		return 0, 1, nil
	}
	if lo, err = evaluateConstant(t, 0, n); err != nil {
		return 0, 0, err
	}
	hi, err = evaluateConstant(t, 1, n)
	return lo, hi, err
}

// increasingOn reports whether u is strictly increasing on [lo, hi]^m, and
// if not, why.
func increasingOn(u aggregators.Operator, m int, lo, hi float64) (bool, string) {
	if s, ok := u.(aggregators.Softmax); ok && !math.IsInf(s.T, 0) && s.T != 0 {
		// On a box of width w, softmax(τ) is softmax(τw) on [0,1]^m,
		// shifted and scaled.
		if w := hi - lo; !(aggregators.Softmax{T: s.T * w}).StrictlyIncreasing(m) {
			return false, fmt.Sprintf("U = %v is not strictly increasing on [%.6g, %.6g]^%d (|τ|·%.6g > %.6g, aggregators.SoftmaxMonotoneLimit(%d))",
				u, lo, hi, m, w, aggregators.SoftmaxMonotoneLimit(m), m)
		}
		return true, ""
	}
	if !u.StrictlyIncreasing(m) {
		return false, fmt.Sprintf("U = %v is not strictly increasing", u)
	}
	return true, ""
}

// convexConcaveSumForms reports whether Corollary F.1 applies: T = sum_i
// g(x_i) with g(x) = x^t, t > 1, and U = sum_j h(y_j) with h(y) = y^τ,
// 0 < τ < 1, either of them possibly divided by its number of terms
// (MeanPower), which keeps g and h strictly convex and concave.
func convexConcaveSumForms(u, t aggregators.Operator) bool {
	tt, ok1 := powerSumExponent(t)
	ut, ok2 := powerSumExponent(u)
	return ok1 && ok2 && tt > 1 && ut < 1
}

// powerSumExponent returns the exponent of a PowerSum or MeanPower.
func powerSumExponent(op aggregators.Operator) (float64, bool) {
	switch o := op.(type) {
	case aggregators.PowerSum:
		return o.T, true
	case aggregators.MeanPower:
		return o.T, true
	}
	return 0, false
}

// bestHomogeneous returns the reward of the trivial homogeneous allocation
// and the best reward of the homogeneous allocations uniform over k tasks,
// with the k that attains it.
func bestHomogeneous(u, t aggregators.Operator, n, m int) (trivial, best float64, bestK int, err error) {
	trivial, err = uniformOverK(u, t, n, m, 1)
	if err != nil {
		return 0, 0, 0, err
	}
	best = math.Inf(-1)
	for _, k := range candidateKs(m) {
		r, err := uniformOverK(u, t, n, m, k)
		if err != nil {
			return 0, 0, 0, err
		}
		if r > best {
			best, bestK = r, k
		}
	}
	return trivial, best, bestK, nil
}

func candidateKs(m int) []int {
	var ks []int
	for k := 2; k <= m && k <= 8; k++ {
		ks = append(ks, k)
	}
	if m > 8 {
		ks = append(ks, m)
	}
	return ks
}

// uniformOverK returns R of the homogeneous allocation with row
// (1/k, ..., 1/k, 0, ..., 0).
func uniformOverK(u, t aggregators.Operator, n, m, k int) (float64, error) {
	on, err := evaluateConstant(t, 1/float64(k), n)
	if err != nil {
		return 0, err
	}
	off, err := evaluateConstant(t, 0, n)
	if err != nil {
		return 0, err
	}
	y := make([]float64, m)
	for j := range y {
		y[j] = off
		if j < k {
			y[j] = on
		}
	}
	r, err := safeEvaluate(u, y)
	if err != nil {
		return 0, fmt.Errorf("gain: U on the scores of a homogeneous allocation: %w: %w", ErrOperator, err)
	}
	return r, nil
}

// evaluateConstant returns op(v, ..., v) with n coordinates.
func evaluateConstant(op aggregators.Operator, v float64, n int) (float64, error) {
	x := make([]float64, n)
	for i := range x {
		x[i] = v
	}
	r, err := safeEvaluate(op, x)
	if err != nil {
		return 0, fmt.Errorf("gain: T on a constant column: %w: %w", ErrOperator, err)
	}
	return r, nil
}

// safeEvaluate is aggregators.Evaluate, with a panic of a user-supplied
// operator (a SumForm whose g returns ±Inf) turned into an error.
func safeEvaluate(op aggregators.Operator, x []float64) (v float64, err error) {
	defer func() {
		if r := recover(); r != nil {
			v, err = math.NaN(), fmt.Errorf("%v: %v", op, r)
		}
	}()
	return aggregators.Evaluate(op, x)
}
