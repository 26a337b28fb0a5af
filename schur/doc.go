// Package schur tests majorization between vectors and the Schur-convexity
// of symmetric functions.
//
// # Majorization
//
// For x, y in R^n write x_[1] >= ... >= x_[n] for the coordinates of x in
// descending order. x majorizes y, written x ≻ y, if
//
//	x_[1] + ... + x_[k] >= y_[1] + ... + y_[k]   for k = 1, ..., n-1,
//	x_[1] + ... + x_[n]  = y_[1] + ... + y_[n],
//
// the definition in section 3 of the paper and in Marshall, Olkin and
// Arnold, Inequalities: Theory of Majorization and Its Applications (2nd
// ed., Springer 2011), Definition 1.A.1. Majorizes, WeaklySubmajorizes and
// WeaklySupermajorizes test the relation and its two weak forms; Lorenz
// returns the Lorenz curve, which orders vectors of equal sum the same way.
//
// x ≻ y holds exactly when y can be reached from x by finitely many
// T-transforms y = λx + (1-λ)Q_ij x, averages of x with a copy of x in which
// coordinates i and j are swapped (Hardy, Littlewood and Pólya; Marshall,
// Olkin and Arnold, Lemma 2.B.1). TTransformPath returns such a sequence, a
// certificate of x ≻ y that can be replayed with TTransform.Apply.
//
// # Schur-convexity
//
// A symmetric f is Schur-convex if x ≻ y implies f(x) >= f(y), Schur-concave
// if it implies f(x) <= f(y), and strictly so if the inequality is strict
// whenever x is not a permutation of y. Check searches a Domain for pairs
// that violate these inequalities: randomised pairs, structured candidates,
// local refinement and the Schur-Ostrowski condition. A counterexample it
// returns is a proof of failure, an explicit pair x ≻ y that can be
// re-evaluated; a verdict without a counterexample is evidence, not proof.
// CheckSumForm tests the convexity of g, which decides the class of the
// sum-form aggregator sum_i g(x_i) (the paper's appendix on sum-form
// aggregators).
//
// The classes are those of package aggregators (aggregators.SchurClass),
// and every aggregators.Operator is a Function that Check accepts.
//
// # Errors
//
// Functions of this package return errors, never panic, on input that can
// come from data: vectors of different lengths, empty vectors, NaN or
// infinite values, magnitudes above aggregators.MaxInput, domains too
// large or too narrow for the grid on which Check samples, and invalid
// tolerances or options. The errors wrap the sentinel errors of package
// aggregators (ErrDimension, ErrEmpty, ErrNaN, ErrInf, ErrRange, ErrParam)
// or ErrNotMajorized, so callers can test them with errors.Is. Methods whose
// misuse is a programmer error (TTransform.Apply with an index out of range,
// a nil *rand.Rand) panic, as in gonum.
package schur
