package aggregators

import (
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"
)

// Families lists the operator names that Parse accepts, with the form of
// their specification.
var Families = []string{
	"min", "mean", "max", "sum",
	"softmax(t)", "lse(t)", "powersum(t)", "meanpower(t)", "powermean(t)",
	"level(L)", "blotto(V; a1:p1, a2:p2, ...)",
}

// Parse returns the operator described by spec, the form that String
// produces: "min", "mean", "max", "sum", "softmax(2)", "lse(-0.5)",
// "powersum(3)", "meanpower(3)", "powermean(-inf)", "level(2)" or
// "blotto(1; 0.5:0.25, 1.5:0.75)". Names are case-insensitive, and spaces
// around a name, a number, a parenthesis or a separator are ignored; a
// space inside a name or a number is an error ("softmax(1 0)" is not
// softmax(10)). The error names what is wrong with spec; it wraps ErrParam (or,
// for a malformed blotto distribution, the error of NewBlottoField) when the
// parameter is missing, superfluous, not a number, beyond the range of
// float64, so small that it would round to 0, or outside the family's
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
	t, err := parseNumber(arg)
	if err != nil {
		return nil, fmt.Errorf("aggregators: operator %q: parameter %w", spec, err)
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
	"meanpower": func(t float64) (Operator, error) { return NewMeanPower(t) },
	"powermean": func(t float64) (Operator, error) { return NewPowerMean(t) },
	"level":     func(l float64) (Operator, error) { return NewLevelThreshold(l) },
}

func parseBlotto(spec, arg string) (Operator, error) {
	value, dist, ok := strings.Cut(arg, ";")
	if !ok {
		return nil, fmt.Errorf("aggregators: operator %q: want blotto(V; a1:p1, a2:p2, ...): %w", spec, ErrParam)
	}
	value = strings.TrimSpace(value)
	v, err := parseNumber(value)
	if err != nil {
		return nil, fmt.Errorf("aggregators: operator %q: value %w", spec, err)
	}
	var troops, probs []float64
	for _, pair := range strings.Split(dist, ",") {
		a, p, err := parseTroopsProb(strings.TrimSpace(pair))
		if err != nil {
			return nil, fmt.Errorf("aggregators: operator %q: %q is not troops:probability: %w", spec, strings.TrimSpace(pair), err)
		}
		troops, probs = append(troops, a), append(probs, p)
	}
	op, err := NewBlottoField(v, troops, probs)
	if err != nil {
		return nil, fmt.Errorf("aggregators: operator %q: %w", spec, err)
	}
	return op, nil
}

// parseTroopsProb parses one "a:p" pair of a blotto distribution.
func parseTroopsProb(pair string) (troops, prob float64, err error) {
	a, p, ok := strings.Cut(pair, ":")
	if !ok {
		return 0, 0, fmt.Errorf("no colon: %w", ErrParam)
	}
	if troops, err = parseNumber(strings.TrimSpace(a)); err != nil {
		return 0, 0, err
	}
	prob, err = parseNumber(strings.TrimSpace(p))
	return troops, prob, err
}

// parseNumber parses the number s of a specification, with an error
// wrapping ErrParam that quotes s and says whether it is not a number,
// beyond the range of float64, or so small that it would round to 0 (a
// parameter that silently became 0 would change the operator: softmax(0)
// is the mean).
func parseNumber(s string) (float64, error) {
	v, err := strconv.ParseFloat(s, 64)
	if errors.Is(err, strconv.ErrRange) {
		return 0, fmt.Errorf("%q is beyond the range of float64 (write inf for the limit): %w", s, ErrParam)
	}
	if err != nil {
		return 0, fmt.Errorf("%q is not a number: %w", s, ErrParam)
	}
	if v == 0 {
		if b, _, err := big.ParseFloat(s, 0, 64, big.ToNearestEven); err == nil && b.Sign() != 0 {
			return 0, fmt.Errorf("%q is too small for float64: it would round to 0 (write 0 for 0): %w", s, ErrParam)
		}
	}
	return v, nil
}
