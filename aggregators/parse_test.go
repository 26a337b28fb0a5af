package aggregators

import (
	"errors"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

func TestParseStringRoundTrip(t *testing.T) {
	inf := math.Inf(1)
	var ops []Operator
	ops = append(ops, Min{}, Max{}, Mean{}, Sum{}, LevelThreshold{L: 2}, LevelThreshold{L: 0.125})
	for _, t := range append(realParams, inf, -inf, 1e-7, -1e-300, 1.0/3, MaxParam, -MaxParam, math.Copysign(0, -1)) {
		ops = append(ops, Softmax{T: t}, PowerMean{T: t})
		if math.Abs(t) >= minLSEParam {
			ops = append(ops, LogSumExp{T: t})
		}
		if t > 0 && !math.IsInf(t, 0) {
			ops = append(ops, PowerSum{T: t}, MeanPower{T: t})
		}
	}
	b1 := exampleBlotto()
	b2, err := NewBlottoField(1e-3, []float64{-1, 1.0 / 3, 1e50}, []float64{0.1, 0.7, 0.2})
	if err != nil {
		t.Fatal(err)
	}
	b3, err := NewBlottoField(0, []float64{0.5}, []float64{1})
	if err != nil {
		t.Fatal(err)
	}
	ops = append(ops, b1, b2, b3)
	for _, op := range ops {
		spec := op.String()
		got, err := Parse(spec)
		if err != nil {
			t.Errorf("Parse(%q): %v", spec, err)
			continue
		}
		if !reflect.DeepEqual(got, op) {
			t.Errorf("Parse(%q) = %#v, want %#v", spec, got, op)
		}
		if got.String() != spec {
			t.Errorf("Parse(%q).String() = %q", spec, got.String())
		}
		// Case and spaces do not matter.
		if got2, err := Parse(" " + strings.ToUpper(strings.ReplaceAll(spec, "(", " ( ")) + " "); err != nil || !reflect.DeepEqual(got2, op) {
			t.Errorf("Parse(upper-case, spaced %q) = %v, %v", spec, got2, err)
		}
		if MustParse(spec).String() != spec {
			t.Errorf("MustParse(%q)", spec)
		}
	}
	// The parameter survives exactly, sign of zero included.
	if op := MustParse("softmax(-0)").(Softmax); !math.Signbit(op.T) {
		t.Errorf("softmax(-0) lost the sign of zero: %v", op.T)
	}
}

// TestParseExamples checks the specifications shown in the documentation
// and every entry of Families.
func TestParseExamples(t *testing.T) {
	b, err := NewBlottoField(1, []float64{0.5, 1.5}, []float64{0.25, 0.75})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]Operator{
		"min": Min{}, "mean": Mean{}, "max": Max{}, "sum": Sum{},
		"softmax(2)": Softmax{T: 2}, "lse(-0.5)": LogSumExp{T: -0.5}, "powersum(3)": PowerSum{T: 3}, "meanpower(0.5)": MeanPower{T: 0.5},
		"powermean(-inf)": PowerMean{T: math.Inf(-1)}, "level(2)": LevelThreshold{L: 2},
		"blotto(1; 0.5:0.25, 1.5:0.75)": b,
		"SoftMax(+Inf)":                 Softmax{T: math.Inf(1)},
		"powermean(1e-3)":               PowerMean{T: 1e-3},
		"lse(-INFINITY)":                LogSumExp{T: math.Inf(-1)},
	}
	for spec, op := range want {
		got, err := Parse(spec)
		if err != nil || !reflect.DeepEqual(got, op) {
			t.Errorf("Parse(%q) = %#v, %v; want %#v", spec, got, err, op)
		}
	}
	args := map[string]string{"(t)": "(2)", "(L)": "(1)", "(V; a1:p1, a2:p2, ...)": "(1; 0.5:0.25, 1.5:0.75)"}
	for _, family := range Families {
		spec := family
		for from, to := range args {
			spec = strings.Replace(spec, from, to, 1)
		}
		if _, err := Parse(spec); err != nil {
			t.Errorf("Families entry %q: Parse(%q): %v", family, spec, err)
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		spec    string
		param   bool   // the error wraps ErrParam
		mention string // a substring of the message
	}{
		{"", false, "unknown operator"},
		{"median", false, "unknown operator"},
		{"softmax", true, "needs a parameter"},
		{"powermean", true, "needs a parameter"},
		{"softmax()", true, "not a number"},
		{"softmax(x)", true, "not a number"},
		{"softmax(1,2)", true, "not a number"},
		{"softmax(1e400)", true, `parameter "1e400" is beyond the range of float64`},
		{"powermean(-1e999)", true, "beyond the range"},
		{"softmax(1e-400)", true, `parameter "1e-400" is too small for float64: it would round to 0`},
		{"powermean(-0x1p-2000)", true, "round to 0"},
		{"blotto(1e309; 0.5:1)", true, `value "1e309" is beyond the range of float64`},
		{"blotto(1; 1e-999:1)", true, `"1e-999" is too small`},
		{"blotto(1; 0.5:1e400)", true, `"0.5:1e400" is not troops:probability: "1e400" is beyond the range`},
		{"softmax(1", false, "closing parenthesis"},
		{"min(1)", true, "takes no parameter"},
		{"max()", true, "takes no parameter"},
		{"powersum(0)", true, "positive"},
		{"powersum(-1)", true, "positive"},
		{"powersum(inf)", true, "infinite"},
		{"lse(0)", true, "must not be 0"},
		{"lse(1e-200)", true, "below"},
		{"softmax(nan)", true, "NaN"},
		{"powermean(2e6)", true, "above"},
		{"level(0)", true, "level"},
		{"level(-inf)", true, "level"},
		{"blotto", true, "want blotto"},
		{"blotto(1)", true, "want blotto"},
		{"blotto(1;)", true, "troops:probability"},
		{"blotto(1; 0.5)", true, "troops:probability"},
		{"blotto(1; 0.5:x)", true, "troops:probability"},
		{"blotto(x; 0.5:1)", true, "value"},
		{"blotto(-1; 0.5:1)", true, "non-negative"},
		{"blotto(1; 0.5:0.5)", true, "sum to"},
		{"blotto(1; 0.5:0.5, 1:0.5,)", true, "troops:probability"},
	}
	for _, tc := range tests {
		op, err := Parse(tc.spec)
		if err == nil {
			t.Errorf("Parse(%q) = %v, want an error", tc.spec, op)
			continue
		}
		msg := err.Error()
		if !strings.HasPrefix(msg, "aggregators: ") || !strings.Contains(msg, tc.mention) || !strings.Contains(msg, "\""+tc.spec+"\"") {
			t.Errorf("Parse(%q): error %q should start with \"aggregators: \", quote the spec and mention %q", tc.spec, msg, tc.mention)
		}
		if got := errors.Is(err, ErrParam); got != tc.param {
			t.Errorf("Parse(%q): errors.Is(err, ErrParam) = %v, want %v (%v)", tc.spec, got, tc.param, err)
		}
		if msg, ok := panicMessage(func() { MustParse(tc.spec) }); !ok || msg != err.Error() {
			t.Errorf("MustParse(%q) panicked %v with %q, want %q", tc.spec, ok, msg, err)
		}
	}
	// Spaces around tokens are ignored; inside a name or a number they are
	// an error, never a different parameter.
	for spec, want := range map[string]Operator{
		" softmax ( 1 ) ":                    Softmax{T: 1},
		"\tLSE(\t-0.5\t)\n":                  LogSumExp{T: -0.5},
		"blotto( 1 ;0.5 : 0.25 , 1.5:0.75 )": MustParse("blotto(1; 0.5:0.25, 1.5:0.75)"),
	} {
		if op, err := Parse(spec); err != nil || !reflect.DeepEqual(op, want) {
			t.Errorf("Parse(%q) = %v, %v, want %v", spec, op, err, want)
		}
	}
	for spec, msg := range map[string]string{
		"soft max(1)":                  "unknown operator",
		"softmax(1 0)":                 `parameter "1 0" is not a number`,
		"powersum(- 1)":                `parameter "- 1" is not a number`,
		"blotto(1 0; 1:1)":             `value "1 0" is not a number`,
		"blotto(1; 0.5:0.2 5, 1:0.75)": `"0.5:0.2 5" is not troops:probability`,
	} {
		if op, err := Parse(spec); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("Parse(%q) = %v, %v, want an error saying %q", spec, op, err, msg)
		}
	}
	// A malformed distribution reports the sentinel of NewBlottoField.
	if _, err := Parse("blotto(1; 0.5:-0.5, 1:1.5)"); !errors.Is(err, ErrNegative) {
		t.Errorf("negative probability: %v", err)
	}
}

// FuzzParse checks Parse on any text: it returns an operator or an error,
// never both, never panics; an operator it returns prints as a
// specification that parses back to the same operator (String is Parse's
// inverse on what Parse accepts), and an error names the specification
// and wraps ErrParam or says what else is wrong.
func FuzzParse(f *testing.F) {
	for _, s := range append([]string{"", "(", ")", "min(", "softmax()", "softmax(2", "softmax(2))", "softmax(nan)",
		"powersum(-1)", "powermean(-inf)", "lse(0)", "level(-1)", "blotto(1;0.5:1)", "blotto(1;0.5:0.5,2:0.6)",
		"blotto(;)", "SoftMax ( 1e-300 )", "powersum(0x1p-3)", "softmax(1_0)", "max(1)", "foo(1)", "softmax(1e-400)", "blotto(1e309;1:1)"}, Families...) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		op, err := Parse(spec)
		if (op == nil) == (err == nil) {
			t.Fatalf("Parse(%q) = %v, %v: want an operator or an error", spec, op, err)
		}
		if err != nil {
			if !strings.HasPrefix(err.Error(), "aggregators: ") || !strings.Contains(err.Error(), strconv.Quote(spec)) {
				t.Fatalf("Parse(%q): error %q does not name the specification", spec, err)
			}
			return
		}
		again, err := Parse(op.String())
		if err != nil || !reflect.DeepEqual(again, op) || again.String() != op.String() {
			t.Fatalf("Parse(%q) = %#v prints as %q, which parses to %#v, %v", spec, op, op.String(), again, err)
		}
		if p, ok := op.(Parametric); ok && math.IsNaN(p.Param()) {
			t.Fatalf("Parse(%q): NaN parameter", spec)
		}
		x := []float64{0.25, 0.5, 1}
		if v := op.Value(x); math.IsNaN(v) {
			t.Fatalf("Parse(%q).Value(%v) is NaN", spec, x)
		}
	})
}
