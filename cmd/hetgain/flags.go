package main

import (
	"errors"
	"flag"
	"fmt"
	"strconv"
	"strings"

	"github.com/hetgain/hetgain/aggregators"
	"github.com/hetgain/hetgain/gain"
)

// maxListLength is the most numbers an intList holds.
const maxListLength = 10000

// intList is a flag holding positive integers: "2,3,5" or a range "2-5",
// comma-separated or repeated (-n 2 -n 3-5 is -n 2,3-5), at most
// maxListLength in all. vals holds the default until the flag is given:
// its first use replaces it, later ones add to it.
type intList struct {
	vals []int
	set  bool
}

func (l *intList) String() string {
	if l == nil {
		return ""
	}
	s := make([]string, len(l.vals))
	for i, v := range l.vals {
		s[i] = strconv.Itoa(v)
	}
	return strings.Join(s, ",")
}

func (l *intList) Set(s string) error {
	var vals []int
	if l.set {
		vals = l.vals
	}
	for _, part := range strings.Split(s, ",") {
		a, b, err := parseIntRange(strings.TrimSpace(part))
		if err != nil {
			return err
		}
		if len(vals)+b-a+1 > maxListLength {
			return fmt.Errorf("more than %d numbers", maxListLength)
		}
		for v := a; v <= b; v++ {
			vals = append(vals, v)
		}
	}
	seen := make(map[int]bool, len(vals))
	for _, v := range vals {
		if seen[v] {
			return fmt.Errorf("%d is given twice (each number gives its own rows)", v)
		}
		seen[v] = true
	}
	l.vals, l.set = vals, true
	return nil
}

// parseIntRange parses part of an intList: a number a >= 1 (returned as
// a, a) or a range a-b with 1 <= a <= b and b - a at most 10000.
func parseIntRange(part string) (a, b int, err error) {
	if strings.HasPrefix(part, "-") {
		return 0, 0, fmt.Errorf("%q: want numbers >= 1 (a range is lo-hi)", part)
	}
	lo, hi, isRange := strings.Cut(part, "-")
	if a, err = strconv.Atoi(lo); err != nil {
		return 0, 0, fmt.Errorf("%q is not a whole number", lo)
	}
	b = a
	if isRange {
		if b, err = strconv.Atoi(hi); err != nil {
			return 0, 0, fmt.Errorf("%q is not a whole number", hi)
		}
	}
	if a < 1 || b < a {
		return 0, 0, fmt.Errorf("%q: want numbers >= 1 and ranges lo-hi with lo <= hi", part)
	}
	if b-a > 10000 {
		return 0, 0, fmt.Errorf("range %q is too long", part)
	}
	return a, b, nil
}

// operatorList is a flag holding operator specifications, comma-separated
// (commas inside parentheses belong to the operator) or repeated.
type operatorList struct {
	ops []aggregators.Operator
	set bool
}

func (l *operatorList) String() string {
	if l == nil {
		return ""
	}
	s := make([]string, len(l.ops))
	for i, op := range l.ops {
		s[i] = op.String()
	}
	return strings.Join(s, ",")
}

func (l *operatorList) Set(s string) error {
	specs := splitTop(s, ',')
	if len(specs) == 0 { // not the default: that is the flag left out
		return errors.New("empty: want operators, as min or 'softmax(2)'")
	}
	if !l.set {
		l.ops, l.set = nil, true // the first use replaces the default
	}
	for _, spec := range specs {
		op, err := parseOperator(spec)
		if err != nil {
			return err
		}
		l.ops = append(l.ops, op)
	}
	return nil
}

// pairList is a flag holding U/T pairs: "min/max,softmax(2)/powersum(3)".
type pairList struct {
	pairs [][2]aggregators.Operator
}

func (l *pairList) String() string {
	if l == nil {
		return ""
	}
	s := make([]string, len(l.pairs))
	for i, p := range l.pairs {
		s[i] = p[0].String() + "/" + p[1].String()
	}
	return strings.Join(s, ",")
}

func (l *pairList) Set(s string) error {
	pairs := splitTop(s, ',')
	if len(pairs) == 0 { // not the default: that is the flag left out
		return errors.New("empty: want pairs U/T, as min/max")
	}
	for _, pair := range pairs {
		parts := splitTop(pair, '/')
		if len(parts) != 2 {
			return fmt.Errorf("%q is not a pair U/T, as in min/max", pair)
		}
		u, err := parseOperator(parts[0])
		if err != nil {
			return err
		}
		t, err := parseOperator(parts[1])
		if err != nil {
			return err
		}
		l.pairs = append(l.pairs, [2]aggregators.Operator{u, t})
	}
	return nil
}

// parseOperator is aggregators.Parse with the package prefix dropped from
// the error, which the flag package prefixes with the flag.
func parseOperator(spec string) (aggregators.Operator, error) {
	op, err := aggregators.Parse(strings.TrimSpace(spec))
	if err != nil {
		return nil, errors.New(strings.TrimPrefix(err.Error(), "aggregators: "))
	}
	return op, nil
}

// splitTop splits s at every sep outside parentheses and trims the parts;
// it returns no parts for an empty s.
func splitTop(s string, sep rune) []string {
	var parts []string
	depth, start := 0, 0
	for i, r := range s {
		switch {
		case r == '(':
			depth++
		case r == ')':
			depth--
		case r == sep && depth == 0:
			parts = append(parts, strings.TrimSpace(s[start:i]))
			start = i + len(string(r))
		}
	}
	if last := strings.TrimSpace(s[start:]); last != "" || len(parts) > 0 {
		parts = append(parts, last)
	}
	return parts
}

// optionalFloat is a float flag without a default, for a required flag:
// its help shows no default (a float64 flag's would show NaN) and set
// records whether it was given.
type optionalFloat struct {
	v   float64
	set bool
}

func (f *optionalFloat) String() string {
	if f == nil || !f.set {
		return ""
	}
	return strconv.FormatFloat(f.v, 'g', -1, 64)
}

func (f *optionalFloat) Set(s string) error {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil {
		return errNotNumber(err, "a number")
	}
	f.v, f.set = v, true
	return nil
}

// numberValue is an int or float64 flag of package flag whose parse
// error says what the flag wants, not the flag package's "parse error".
type numberValue struct {
	flag.Value
	isInt bool
}

func (v numberValue) Set(s string) error {
	if err := v.Value.Set(s); err == nil {
		return nil
	}
	if v.isInt {
		_, err := strconv.ParseInt(s, 0, strconv.IntSize)
		return errNotNumber(err, "a whole number")
	}
	_, err := strconv.ParseFloat(s, 64)
	return errNotNumber(err, "a number")
}

// errNotNumber returns the error of a number flag whose value strconv
// refused with err, wanting want.
func errNotNumber(err error, want string) error {
	if errors.Is(err, strconv.ErrRange) {
		return fmt.Errorf("out of range of %s", want)
	}
	return fmt.Errorf("want %s", want)
}

// explainNumberFlags makes the parse errors of the int and float64 flags
// of fs say what they want (numberValue).
func explainNumberFlags(fs *flag.FlagSet) {
	fs.VisitAll(func(f *flag.Flag) {
		g, ok := f.Value.(flag.Getter)
		if !ok {
			return
		}
		switch g.Get().(type) {
		case int:
			f.Value = numberValue{f.Value, true}
		case float64:
			f.Value = numberValue{f.Value, false}
		}
	})
}

// choice is a flag whose value is one of a fixed set of words.
type choice struct {
	value   string
	choices []string
}

func newChoice(value string, choices ...string) *choice { return &choice{value, choices} }

func (c *choice) String() string {
	if c == nil {
		return ""
	}
	return c.value
}

func (c *choice) Set(s string) error {
	s = strings.ToLower(strings.TrimSpace(s))
	for _, v := range c.choices {
		if s == v {
			c.value = s
			return nil
		}
	}
	return fmt.Errorf("want one of %s", strings.Join(c.choices, ", "))
}

// kinds returns the allocation kinds a -kind value names.
func kinds(v string) []gain.Allocation {
	switch v {
	case "continuous":
		return []gain.Allocation{gain.Continuous}
	case "discrete":
		return []gain.Allocation{gain.Discrete}
	}
	return []gain.Allocation{gain.Continuous, gain.Discrete}
}

// isSet reports whether the flag name was given on the command line.
func isSet(fs *flag.FlagSet, name string) bool {
	found := false
	fs.Visit(func(f *flag.Flag) { found = found || f.Name == name })
	return found
}

// formatFull formats v at full precision, as the CSV files of the commands
// (and tables.WriteCSV) write floats.
func formatFull(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
