package main

import (
	"math"
	"reflect"
	"testing"

	"github.com/hetgain/hetgain/learn"
)

// FuzzFlagValues feeds any string to the parsers of the flags that take
// lists and NAME=VALUE settings. None panics; what they accept is in the
// flag's domain: whole numbers >= 1 that print and parse back the same,
// finite bounds LO < HI, operator pairs, and task parameters that the
// environment takes.
func FuzzFlagValues(f *testing.F) {
	for _, s := range []string{"1,2,5", "2-5", "3-1", "-4", "1-100000", "T.t=0.3:6,U.t=0.3:6", "T.t=1:1",
		"U.t=NaN:1", "min/max,softmax(2)/powersum(3)", "blotto(1; 0.5:0.25, 1.5:0.75)/max", "U.t=-2,T.t=3",
		"U.t=1e300", "T.t=1,T.t=2", "shaping=0,penalty=0", "=", ",", "(((", "min/max/mean"} {
		f.Add(s)
	}
	env := learn.EnvSpec{Name: "matrix", Agents: 2, Tasks: 2, U: "softmax(-1)", T: "powersum(2)"}
	f.Fuzz(func(t *testing.T, s string) {
		var l intList
		if err := l.Set(s); err == nil {
			for _, v := range l.vals {
				if v < 1 {
					t.Fatalf("intList %q holds %d", s, v)
				}
			}
			var again intList
			if err := again.Set(l.String()); err != nil || !reflect.DeepEqual(again.vals, l.vals) {
				t.Fatalf("intList %q prints as %q, which parses to %v (%v)", s, l.String(), again, err)
			}
		}
		if b, err := hetgpsParseRanges(s); err == nil {
			for name, lh := range b {
				if !(lh[0] < lh[1]) || math.IsInf(lh[0], 0) || math.IsInf(lh[1], 0) {
					t.Fatalf("bounds %q: %s in [%v, %v]", s, name, lh[0], lh[1])
				}
			}
		}
		var pairs pairList
		if err := pairs.Set(s); err == nil {
			for _, p := range pairs.pairs {
				if p[0] == nil || p[1] == nil {
					t.Fatalf("pairs %q: nil operator", s)
				}
			}
		}
		p, err := parseTaskParams(s, env)
		if err != nil {
			return
		}
		for k, v := range p.Values {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("task params %q: %s = %v", s, p.Names[k], v)
			}
		}
		e, err := env.New(1)
		if err != nil {
			t.Fatal(err)
		}
		if err := e.SetParams(*p); err != nil {
			t.Fatalf("task params %q accepted, then refused by the environment: %v", s, err)
		}
	})
}
