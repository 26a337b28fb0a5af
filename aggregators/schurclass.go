package aggregators

// SchurClass is the curvature of a symmetric function with respect to
// majorization. A function f is Schur-convex if x ≻ y implies f(x) >= f(y),
// Schur-concave if it implies f(x) <= f(y), and strictly so if the
// inequality is strict whenever x is not a permutation of y.
type SchurClass int

const (
	// Unknown means that no class is established for this parameter.
	Unknown SchurClass = iota
	// StrictlyConvex means strictly Schur-convex.
	StrictlyConvex
	// StrictlyConcave means strictly Schur-concave.
	StrictlyConcave
	// Convex means Schur-convex but not strictly.
	Convex
	// Concave means Schur-concave but not strictly.
	Concave
	// Both means Schur-convex and Schur-concave: f depends on x only
	// through the sum of its coordinates.
	Both
	// Neither means neither Schur-convex nor Schur-concave.
	Neither
)

var schurClassNames = [...]string{
	Unknown:         "unknown",
	StrictlyConvex:  "strictly Schur-convex",
	StrictlyConcave: "strictly Schur-concave",
	Convex:          "Schur-convex",
	Concave:         "Schur-concave",
	Both:            "Schur-convex and Schur-concave",
	Neither:         "neither",
}

// String returns a human-readable name of the class.
func (c SchurClass) String() string {
	if c < 0 || int(c) >= len(schurClassNames) {
		return "SchurClass(invalid)"
	}
	return schurClassNames[c]
}

// IsConvex reports whether the class implies Schur-convexity.
func (c SchurClass) IsConvex() bool {
	return c == StrictlyConvex || c == Convex || c == Both
}

// IsConcave reports whether the class implies Schur-concavity.
func (c SchurClass) IsConcave() bool {
	return c == StrictlyConcave || c == Concave || c == Both
}

// IsStrict reports whether the class is strictly Schur-convex or strictly
// Schur-concave.
func (c SchurClass) IsStrict() bool {
	return c == StrictlyConvex || c == StrictlyConcave
}
