package gain_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/hetgain/hetgain/aggregators"
	"github.com/hetgain/hetgain/gain"
)

func TestClosedFormTable(t *testing.T) {
	ns, ms := []int{1, 2, 5}, []int{2, 4}
	df, err := gain.ClosedFormTable(ns, ms, nil)
	if err != nil {
		t.Fatal(err)
	}
	wantNames := []string{"U", "T", "N", "M", "Allocation", "RHet", "RHom", "Gain", "PredictedSign", "Rule"}
	if got := df.Names(); strings.Join(got, ",") != strings.Join(wantNames, ",") {
		t.Fatalf("columns %v, want %v", got, wantNames)
	}
	if rows := df.Nrow(); rows != 2*9*len(ns)*len(ms) {
		t.Fatalf("%d rows, want %d", rows, 2*9*len(ns)*len(ms))
	}
	kinds := map[string]gain.Allocation{"continuous": gain.Continuous, "discrete": gain.Discrete}
	for i := 0; i < df.Nrow(); i++ {
		u, op := aggregators.MustParse(df.Elem(i, 0).String()), aggregators.MustParse(df.Elem(i, 1).String())
		n, _ := df.Elem(i, 2).Int()
		m, _ := df.Elem(i, 3).Int()
		kind := kinds[df.Elem(i, 4).String()]
		g, err := gain.ClosedForm(u, op, n, m, kind)
		if err != nil {
			t.Fatal(err)
		}
		if df.Elem(i, 5).Float() != g.Het || df.Elem(i, 6).Float() != g.Hom || df.Elem(i, 7).Float() != g.Delta {
			t.Errorf("row %d: %v", i, df.Subset([]int{i}))
		}
		sign, rule := df.Elem(i, 8).String(), df.Elem(i, 9).String()
		if kind == gain.Discrete {
			if sign != "n/a" {
				t.Errorf("row %d: discrete row with prediction %q", i, sign)
			}
			continue
		}
		p, err := gain.Predict(u, op, n, m)
		if err != nil {
			t.Fatal(err)
		}
		if sign != p.Sign.String() || rule != p.Rule {
			t.Errorf("row %d: prediction %q by %q, want %v by %q", i, sign, rule, p.Sign, p.Rule)
		}
	}
}

func TestClosedFormTableErrors(t *testing.T) {
	cases := []struct {
		ns, ms []int
		kinds  []gain.Allocation
		target error
	}{
		{nil, []int{2}, nil, gain.ErrSize},
		{[]int{2}, nil, nil, gain.ErrSize},
		{[]int{2, 0}, []int{2}, nil, gain.ErrSize},
		{[]int{2}, []int{2}, []gain.Allocation{gain.Allocation(9)}, gain.ErrOperator},
	}
	for _, c := range cases {
		if _, err := gain.ClosedFormTable(c.ns, c.ms, c.kinds); !errors.Is(err, c.target) {
			t.Errorf("ClosedFormTable(%v, %v, %v): err = %v, want %v", c.ns, c.ms, c.kinds, err, c.target)
		}
	}
}
