package schur

import (
	"fmt"

	"github.com/hetgain/hetgain/aggregators"
)

// FamilyScan holds, for the members of one parametric family along a grid
// of parameters, the Schur class the family declares (its Schur method)
// beside the class Check measures.
type FamilyScan struct {
	Family   string    // the family's String at the first parameter
	N        int       // the dimension
	Params   []float64 // the parameters scanned
	Declared []aggregators.SchurClass
	Measured []aggregators.SchurClass
	// Verdicts holds Check's full verdict at each parameter.
	Verdicts []Verdict
}

// Disagreements returns the indices of the parameters at which the measured
// class contradicts the declared one: the declared class claims
// Schur-convexity (or concavity) and the checker found a counterexample, or
// the declared class denies a property for which the checker found no
// counterexample while the declared class is not Unknown. Unknown declared
// classes never disagree. Disagreements panics if Declared and Verdicts
// differ in length, which they never do in a FamilyScan from ScanFamily.
func (s FamilyScan) Disagreements() []int {
	if len(s.Declared) != len(s.Verdicts) {
		panic(fmt.Sprintf("schur: FamilyScan.Disagreements: %d declared classes but %d verdicts", len(s.Declared), len(s.Verdicts)))
	}
	var idx []int
	for k, d := range s.Declared {
		v := s.Verdicts[k]
		if d == aggregators.Unknown {
			continue
		}
		if d.IsConvex() != v.Convex || d.IsConcave() != v.Concave {
			idx = append(idx, k)
		}
	}
	return idx
}

// ScanFamily runs Check on family.WithParam(t) for every t in params, in
// dimension n on dom, and returns the declared and measured classes. A
// parameter outside the family's domain is an error naming it.
func ScanFamily(family aggregators.Parametric, params []float64, n int, dom Domain, opts *Options) (FamilyScan, error) {
	if family == nil {
		return FamilyScan{}, fmt.Errorf("schur: ScanFamily: nil family: %w", aggregators.ErrParam)
	}
	s := FamilyScan{Family: family.String(), N: n, Params: append([]float64(nil), params...)}
	for _, t := range params {
		op, err := family.WithParam(t)
		if err != nil {
			return FamilyScan{}, fmt.Errorf("schur: ScanFamily: %w", err)
		}
		v, err := Check(op, n, dom, opts)
		if err != nil {
			return FamilyScan{}, fmt.Errorf("schur: ScanFamily at %v: %w", op, err)
		}
		s.Declared = append(s.Declared, op.Schur(n))
		s.Measured = append(s.Measured, v.Class())
		s.Verdicts = append(s.Verdicts, v)
	}
	if len(s.Params) > 0 {
		first, _ := family.WithParam(s.Params[0])
		s.Family = first.String()
	}
	return s, nil
}
