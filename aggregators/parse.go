package aggregators

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Families lists the operator names that Parse accepts, with the form of
// their specification.
var Families = []string{
	"min", "mean", "max", "sum",
	"softmax(t)", "lse(t)", "powersum(t)", "powermean(t)",
	"level(L)", "blotto(V; a1:p1, a2:p2, ...)",
}

// Parse returns the operator described by spec, the form that String
// produces: "min", "mean", "max", "sum", "softmax(2)", "lse(-0.5)",
// "powersum(3)", "powermean(-inf)", "level(2)" or
// "blotto(1; 0.5:0.25, 1.5:0.75)". Names are case-insensitive, and spaces
// around a name, a number, a parenthesis or a separator are ignored; a
// space inside a name or a number is an error ("softmax(1 0)" is not
// softmax(10)). The error names what is wrong with spec; it wraps ErrParam (or,
// for a malformed blotto distribution, the error of NewBlottoField) when the
// parameter is missing, superfluous, not a number or outside the family's
// domain.
func Parse(spec string) (Operator, error) {
	name, arg, hasArg := strings.Cut(strings.ToLower(spec), "(")
	name, arg = strings.TrimSpace(name), strings.TrimSpace(arg)
	if hasArg {
		if !strings.HasSuffix(arg, ")") {
			return nil, fmt.Errorf("aggregators: operator %q: missing closing parenthesis", spec)
		}
		arg = strings.TrimSpace(strings.TrimSuffix(arg, ")"))
	}
	if simple, ok := simpleOperators[name]; ok {
		if hasArg {
			return nil, fmt.Errorf("aggregators: operator %q: %s takes no parameter: %w", spec, name, ErrParam)
		}
		return simple, nil
	}
	if name == "blotto" {
		return parseBlotto(spec, arg)
	}
	build, ok := parametricOperators[name]
	if !ok {
		return nil, fmt.Errorf("aggregators: unknown operator %q (known: %s)", spec, strings.Join(Families, ", "))
	}
	if !hasArg {
		return nil, fmt.Errorf("aggregators: operator %q: %s needs a parameter, as in %s(1): %w", spec, name, name, ErrParam)
	}
	t, err := strconv.ParseFloat(arg, 64)
	if errors.Is(err, strconv.ErrRange) {
		return nil, fmt.Errorf("aggregators: operator %q: parameter %q is beyond the range of float64 (write inf for the limit): %w", spec, arg, ErrParam)
	}
	if err != nil {
		return nil, fmt.Errorf("aggregators: operator %q: parameter %q is not a number: %w", spec, arg, ErrParam)
	}
	op, err := build(t)
	if err != nil {
		return nil, fmt.Errorf("aggregators: operator %q: %w", spec, err)
	}
	return op, nil
}

// MustParse is like Parse but panics on error. It is meant for
// specifications written in code.
func MustParse(spec string) Operator {
	op, err := Parse(spec)
	if err != nil {
		panic(err.Error())
	}
	return op
}

var simpleOperators = map[string]Operator{
	"min": Min{}, "mean": Mean{}, "max": Max{}, "sum": Sum{},
}

var parametricOperators = map[string]func(float64) (Operator, error){
	"softmax":   func(t float64) (Operator, error) { return NewSoftmax(t) },
	"lse":       func(t float64) (Operator, error) { return NewLogSumExp(t) },
	"powersum":  func(t float64) (Operator, error) { return NewPowerSum(t) },
	"powermean": func(t float64) (Operator, error) { return NewPowerMean(t) },
	"level":     func(l float64) (Operator, error) { return NewLevelThreshold(l) },
}

func parseBlotto(spec, arg string) (Operator, error) {
	value, dist, ok := strings.Cut(arg, ";")
	if !ok {
		return nil, fmt.Errorf("aggregators: operator %q: want blotto(V; a1:p1, a2:p2, ...): %w", spec, ErrParam)
	}
	value = strings.TrimSpace(value)
	v, err := strconv.ParseFloat(value, 64)
	if err != nil {
		return nil, fmt.Errorf("aggregators: operator %q: value %q is not a number: %w", spec, value, ErrParam)
	}
	var troops, probs []float64
	for _, pair := range strings.Split(dist, ",") {
		a, p, ok := strings.Cut(pair, ":")
		av, errA := strconv.ParseFloat(strings.TrimSpace(a), 64)
		pv, errP := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if !ok || errA != nil || errP != nil {
			return nil, fmt.Errorf("aggregators: operator %q: %q is not troops:probability: %w", spec, strings.TrimSpace(pair), ErrParam)
		}
		troops, probs = append(troops, av), append(probs, pv)
	}
	op, err := NewBlottoField(v, troops, probs)
	if err != nil {
		return nil, fmt.Errorf("aggregators: operator %q: %w", spec, err)
	}
	return op, nil
}
