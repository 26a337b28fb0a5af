package aggregators

import (
	"fmt"
	"math"
	"reflect"

	"gonum.org/v1/gonum/mat"
)

// BudgetTolerance is the relative slack allowed on a row sum before Reward
// reports it as over budget.
const BudgetTolerance = 1e-9

// Reward is the team reward R(A) = U(T_1(a_1), ..., T_M(a_M)) of an N x M
// effort matrix A, whose column a_j holds the efforts of the N agents on
// task j.
type Reward struct {
	// Outer is the outer aggregator U over the M task scores.
	Outer Operator
	// Inner holds the task-level aggregators: one per task, or a single
	// operator used for every task.
	Inner []Operator
	// Budget is the largest row sum allowed; 0 means 1 (the unit simplex)
	// and +Inf means no limit. A NaN or negative Budget is an error.
	Budget float64
}

// NewReward returns the reward U(T(a_1), ..., T(a_M)); pass one inner
// operator per task for per-task aggregators. It panics if an operator is
// nil or no inner operator is given.
func NewReward(outer Operator, inner ...Operator) *Reward {
	if outer == nil || len(inner) == 0 {
		panic("aggregators: NewReward needs an outer and at least one inner operator")
	}
	for _, op := range inner {
		if op == nil {
			panic("aggregators: NewReward: nil inner operator")
		}
	}
	return &Reward{Outer: outer, Inner: inner}
}

// String returns "U∘T", e.g. "min∘max", or "<nil>" for a nil *Reward
// (as fmt prints it).
func (r *Reward) String() string {
	if r == nil {
		return "<nil>"
	}
	if len(r.Inner) == 1 {
		return fmt.Sprintf("%v∘%v", r.Outer, r.Inner[0])
	}
	return fmt.Sprintf("%v∘%v", r.Outer, r.Inner)
}

// InnerFor returns the inner aggregator of task j >= 0: Inner[j], or the
// single shared Inner[0] for every j. It panics if j is negative, if j is
// not below len(Inner) when there are several inner operators, if there
// are none, or if r is nil.
func (r *Reward) InnerFor(j int) Operator {
	switch {
	case r == nil:
		panic("aggregators: Reward.InnerFor on a nil *Reward")
	case len(r.Inner) == 0:
		panic("aggregators: Reward.InnerFor: the reward has no inner operator")
	case j < 0 || (len(r.Inner) > 1 && j >= len(r.Inner)):
		panic(fmt.Sprintf("aggregators: Reward.InnerFor: task %d, the reward has inner operators for tasks 0 to %d", j, len(r.Inner)-1))
	case len(r.Inner) == 1:
		return r.Inner[0]
	}
	return r.Inner[j]
}

// Check returns an error naming what is wrong with the effort matrix a: a
// nil matrix (or nil pointer, such as a nil *mat.Dense) or N or M below 1
// (wrapping ErrDimension), a column count that does not match the inner operators, an
// entry that is NaN, infinite or negative, or a row whose sum exceeds the
// budget. It also reports a reward that cannot be evaluated: a nil
// *Reward or a nil or missing operator (wrapping ErrParam, or ErrDimension
// for no inner operator), an operator whose parameter is outside its
// family's domain, or a Budget that is NaN or negative.
func (r *Reward) Check(a mat.Matrix) error {
	if err := r.checkOperators(); err != nil {
		return err
	}
	if isNilMatrix(a) {
		return fmt.Errorf("aggregators: effort matrix is nil, need N >= 1 agents and M >= 1 tasks: %w", ErrDimension)
	}
	n, m := a.Dims()
	if n < 1 || m < 1 {
		return fmt.Errorf("aggregators: effort matrix is %dx%d, need N >= 1 agents and M >= 1 tasks: %w", n, m, ErrDimension)
	}
	if len(r.Inner) > 1 && len(r.Inner) != m {
		return fmt.Errorf("aggregators: effort matrix has %d tasks but the reward has %d inner operators: %w",
			m, len(r.Inner), ErrDimension)
	}
	budget := r.budget()
	for i := 0; i < n; i++ {
		row := 0.0
		for j := 0; j < m; j++ {
			v := a.At(i, j)
			if err := checkValue(v, NonNegative); err != nil {
				return fmt.Errorf("aggregators: effort A[%d][%d] = %v: %w", i, j, v, err)
			}
			row += v
		}
		if row > budget*(1+BudgetTolerance) {
			return fmt.Errorf("aggregators: row %d of the effort matrix sums to %v, above the budget %v: %w",
				i, row, budget, ErrBudget)
		}
	}
	return nil
}

// isNilMatrix reports whether a is nil or a nil pointer.
func isNilMatrix(a mat.Matrix) bool {
	if a == nil {
		return true
	}
	v := reflect.ValueOf(a)
	return v.Kind() == reflect.Pointer && v.IsNil()
}

func (r *Reward) checkOperators() error {
	if r == nil {
		return fmt.Errorf("aggregators: reward is a nil *Reward: %w", ErrParam)
	}
	if r.Outer == nil {
		return fmt.Errorf("aggregators: reward has no outer operator: %w", ErrParam)
	}
	if len(r.Inner) == 0 {
		return fmt.Errorf("aggregators: reward has no inner operator: %w", ErrDimension)
	}
	if v, ok := r.Outer.(validator); ok {
		if err := v.validate(); err != nil {
			return fmt.Errorf("aggregators: outer operator %v: %w", r.Outer, err)
		}
	}
	for j, op := range r.Inner {
		if op == nil {
			return fmt.Errorf("aggregators: inner operator %d is nil: %w", j, ErrParam)
		}
		if v, ok := op.(validator); ok {
			if err := v.validate(); err != nil {
				return fmt.Errorf("aggregators: inner operator %d %v: %w", j, op, err)
			}
		}
	}
	if math.IsNaN(r.Budget) || r.Budget < 0 {
		return fmt.Errorf("aggregators: budget %v must be non-negative: %w", r.Budget, ErrParam)
	}
	return nil
}

// Scores returns the task scores T_j(a_j), j = 0, ..., M-1. Besides the
// errors of Check, it reports a score that is not a valid input of the
// outer operator (negative for a NonNegative U, or not finite).
func (r *Reward) Scores(a mat.Matrix) ([]float64, error) {
	if err := r.Check(a); err != nil {
		return nil, err
	}
	return r.scores(a)
}

// Value returns R(A), or the error of Scores, or an error wrapping ErrNaN
// or ErrInf if U's value at the scores is not finite (a SumForm U whose g
// is not finite there, or an overflow).
func (r *Reward) Value(a mat.Matrix) (float64, error) {
	y, err := r.Scores(a)
	if err != nil {
		return math.NaN(), err
	}
	return r.outerValue(y)
}

// Gradient returns the N x M matrix of ∂R/∂r_ij = ∂U/∂y_j · ∂T_j/∂x_i,
// with the subgradient conventions of the operators at non-smooth points,
// or the errors of Value, or an error wrapping ErrNaN or ErrInf if a
// ∂U/∂y_j, a ∂T_j/∂x_i or their product is not finite (a SumForm whose g
// or g' is not finite where its derivative is taken, or an overflow).
func (r *Reward) Gradient(a mat.Matrix) (*mat.Dense, error) {
	y, err := r.Scores(a)
	if err != nil {
		return nil, err
	}
	du, err := r.outerGradient(y)
	if err != nil {
		return nil, err
	}
	n, m := a.Dims()
	g := mat.NewDense(n, m, nil)
	col, dt := make([]float64, n), make([]float64, n)
	for j := 0; j < m; j++ {
		mat.Col(col, j, a)
		op := r.InnerFor(j)
		name := func(i int) string {
			return fmt.Sprintf("∂T_%d/∂x_%d of the inner operator %v at %v", j, i, op, col)
		}
		if _, err := gradientOf(op, dt, col, name); err != nil {
			return nil, fmt.Errorf("aggregators: %w", err)
		}
		for i := 0; i < n; i++ {
			d := du[j] * dt[i]
			if err := checkFinite(d); err != nil {
				return nil, fmt.Errorf("aggregators: ∂R/∂r_%d%d = ∂U/∂y_%d · ∂T_%d/∂x_%d = %v · %v overflows: %w", i, j, j, j, i, du[j], dt[i], err)
			}
			g.Set(i, j, d)
		}
	}
	return g, nil
}

// gradientOf stores op's gradient at the checked x in dst and returns it,
// or an error wrapping ErrNaN or ErrInf if a partial derivative is not
// finite; name(i) names the i-th one in the message.
func gradientOf(op Operator, dst, x []float64, name func(i int) string) ([]float64, error) {
	if s, ok := op.(separableDerivative); ok {
		dst = gradientDst(dst, x)
		for i, v := range x {
			d, err := s.derivative(v)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name(i), err)
			}
			dst[i] = d
		}
	} else {
		dst = op.Gradient(dst, x)
	}
	for i, d := range dst {
		if err := checkFinite(d); err != nil {
			return nil, fmt.Errorf("%s is %v: %w", name(i), d, err)
		}
	}
	return dst, nil
}

// separableDerivative is implemented by operators of the form
// f(x) = sum_i g(x_i) whose Gradient can panic on a valid input (SumForm,
// when g or g' is not finite): ∂f/∂x_i = derivative(x_i), or an error.
type separableDerivative interface {
	derivative(v float64) (float64, error)
}

// ParamGradient holds the derivatives of R with respect to the parameters
// of its operators. An operator that is not Parametric contributes 0.
type ParamGradient struct {
	// Outer is ∂R/∂t_U.
	Outer float64
	// Inner holds ∂R/∂t_{T_j} for each task j, treating each task's
	// parameter as its own.
	Inner []float64
}

// InnerShared returns ∂R/∂t_T when every task shares one inner parameter:
// the sum of Inner.
func (g ParamGradient) InnerShared() float64 { return sumOf(g.Inner) }

// ParamGradient returns the derivatives of R(A) with respect to the
// parameters of U and of each T_j, or the errors of Gradient, or an error
// wrapping ErrNaN or ErrInf if ∂R/∂t_U is not finite.
func (r *Reward) ParamGradient(a mat.Matrix) (ParamGradient, error) {
	y, err := r.Scores(a)
	if err != nil {
		return ParamGradient{}, err
	}
	du, err := r.outerGradient(y)
	if err != nil {
		return ParamGradient{}, err
	}
	n, m := a.Dims()
	var g ParamGradient
	if p, ok := r.Outer.(Parametric); ok {
		g.Outer = p.ParamDerivative(y)
		if err := checkFinite(g.Outer); err != nil {
			return ParamGradient{}, fmt.Errorf("aggregators: ∂U/∂t of the outer operator %v at the scores %v is %v: %w",
				r.Outer, y, g.Outer, err)
		}
	}
	g.Inner = make([]float64, m)
	col := make([]float64, n)
	for j := 0; j < m; j++ {
		if p, ok := r.InnerFor(j).(Parametric); ok {
			mat.Col(col, j, a)
			g.Inner[j] = du[j] * p.ParamDerivative(col)
			if err := checkFinite(g.Inner[j]); err != nil {
				return ParamGradient{}, fmt.Errorf("aggregators: ∂R/∂t of the inner operator of task %d, %v, is %v: %w",
					j, r.InnerFor(j), g.Inner[j], err)
			}
		}
	}
	return g, nil
}

// outerValue returns U(y) for valid scores y, or the error of Evaluate
// (U not finite there).
func (r *Reward) outerValue(y []float64) (float64, error) {
	v, err := Evaluate(r.Outer, y)
	if err != nil {
		return math.NaN(), fmt.Errorf("aggregators: outer operator at the scores %v: %w", y, err)
	}
	return v, nil
}

// outerGradient returns ∂U/∂y at valid scores y, or the error of
// outerValue, or an error if a component is not finite.
func (r *Reward) outerGradient(y []float64) ([]float64, error) {
	if _, err := r.outerValue(y); err != nil {
		return nil, err
	}
	name := func(j int) string {
		return fmt.Sprintf("∂U/∂y_%d of the outer operator %v at the scores %v", j, r.Outer, y)
	}
	du, err := gradientOf(r.Outer, nil, y, name)
	if err != nil {
		return nil, fmt.Errorf("aggregators: %w", err)
	}
	return du, nil
}

func (r *Reward) budget() float64 {
	if r.Budget == 0 {
		return 1
	}
	return r.Budget
}

func (r *Reward) scores(a mat.Matrix) ([]float64, error) {
	n, m := a.Dims()
	y := make([]float64, m)
	col := make([]float64, n)
	for j := 0; j < m; j++ {
		mat.Col(col, j, a)
		op := r.InnerFor(j)
		if s, ok := op.(safeValuer); ok {
			v, err := s.safeValue(col)
			if err != nil {
				return nil, fmt.Errorf("aggregators: task %d: %w", j, err)
			}
			y[j] = v
		} else {
			y[j] = op.Value(col)
		}
		if err := checkValue(y[j], r.Outer.Domain()); err != nil {
			return nil, fmt.Errorf("aggregators: score of task %d, %v = %v, is not a valid input of the outer operator %v: %w",
				j, op, y[j], r.Outer, err)
		}
	}
	return y, nil
}
