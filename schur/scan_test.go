package schur

import (
	"errors"
	"math"
	"testing"

	"github.com/hetgain/hetgain/aggregators"
)

func TestScanFamilyAgreesWithDeclaredClasses(t *testing.T) {
	params := []float64{-3, -1, -0.5, 0, 0.5, 1, 3}
	families := []aggregators.Parametric{
		aggregators.LogSumExp{T: 1}, aggregators.PowerMean{T: 1}, aggregators.Softmax{},
	}
	for _, fam := range families {
		for _, n := range []int{2, 3} {
			ps := params
			if _, ok := fam.(aggregators.LogSumExp); ok {
				ps = []float64{-3, -1, -0.5, 0.5, 1, 3}
			}
			s, err := ScanFamily(fam, ps, n, UnitBox(), nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(s.Declared) != len(ps) || len(s.Measured) != len(ps) || len(s.Verdicts) != len(ps) {
				t.Fatalf("%v n=%d: lengths %d %d %d, want %d", fam, n, len(s.Declared), len(s.Measured), len(s.Verdicts), len(ps))
			}
			if d := s.Disagreements(); len(d) > 0 {
				k := d[0]
				t.Errorf("%v n=%d t=%v: declared %v, measured %v", fam, n, ps[k], s.Declared[k], s.Measured[k])
			}
		}
	}
}

// TestScanFamilyFindsSoftmaxFailure checks that the scan measures Neither
// for softmax at t = ±5 in dimension 3, where the class is not Schur-convex.
func TestScanFamilyFindsSoftmaxFailure(t *testing.T) {
	s, err := ScanFamily(aggregators.Softmax{}, []float64{-5, 5}, 3, UnitBox(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, c := range s.Measured {
		if c != aggregators.Neither {
			t.Errorf("softmax(%v) n=3: measured %v, want neither", s.Params[k], c)
		}
	}
}

// TestScanFamilyDisagreement checks that Disagreements reports a declared
// class that the checker refutes.
func TestScanFamilyDisagreement(t *testing.T) {
	wrong := aggregators.SumForm{Name: "sin", G: func(v float64) float64 { return math.Sin(6 * v) }, Class: aggregators.StrictlyConvex}
	s := FamilyScan{Params: []float64{0}, Declared: []aggregators.SchurClass{wrong.Schur(2)}}
	v, err := Check(wrong, 2, UnitBox(), nil)
	if err != nil {
		t.Fatal(err)
	}
	s.Verdicts = []Verdict{v}
	if d := s.Disagreements(); len(d) != 1 {
		t.Errorf("Disagreements = %v, want [0]", d)
	}
}

func TestScanFamilyErrors(t *testing.T) {
	if _, err := ScanFamily(nil, []float64{1}, 2, UnitBox(), nil); !errors.Is(err, aggregators.ErrParam) {
		t.Errorf("nil family: %v", err)
	}
	if _, err := ScanFamily(aggregators.PowerSum{T: 1}, []float64{1, -1}, 2, UnitBox(), nil); !errors.Is(err, aggregators.ErrParam) {
		t.Errorf("powersum(-1): %v", err)
	}
	if _, err := ScanFamily(aggregators.PowerSum{T: 1}, []float64{1}, 0, UnitBox(), nil); !errors.Is(err, aggregators.ErrDimension) {
		t.Errorf("n = 0: %v", err)
	}
}
