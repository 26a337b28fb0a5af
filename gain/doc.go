// Package gain computes heterogeneity gains ΔR = R_het − R_hom: closed forms,
// numerical optima for any aggregators, the theorems' predictions, and
// tables and parameter sweeps of them.
//
// The setting is that of the paper "When is diversity rewarded?": N agents
// split a unit budget of effort over M tasks, giving an N×M allocation A
// whose rows lie in the unit simplex; the team reward is
// R(A) = U(T(a_1), ..., T(a_M)) (see aggregators.Reward). R_het is the best
// reward over all allocations and R_hom the best over homogeneous ones, in
// which every agent plays the same row c. ΔR = R_het − R_hom >= 0.
//
// Allocations are Continuous (any row in the simplex) or Discrete (each
// agent puts its whole budget on exactly one task).
//
// Closed forms and bounds:
//   - ClosedForm: U, T in {min, mean, max}, both kinds of allocation, any
//     N, M >= 1 (the paper's table assumes N >= M in places; see ClosedForm
//     for where the general formulas differ from the paper's).
//   - SoftmaxBound: the statement of Theorem 3.4 for softmax aggregators.
//   - LevelForaging: level-based foraging with equal item levels.
//   - Blotto: Team Colonel Blotto against a fixed stochastic adversary.
//
// Predict reports what Theorems 3.1-3.3 and Corollary F.1 say about the sign
// of ΔR for continuous allocations, and ClosedFormTable tabulates the closed
// forms beside the predictions as a gota DataFrame; package tables writes
// such DataFrames as CSV and Markdown with floats at full precision.
//
// Numerical optima for any U and T, smooth or not:
//   - Hom and Het: R_hom and R_het for continuous allocations, within a
//     general Budget (B_min <= r_ij, row sums <= B_max), with the
//     allocations that attain them; Numerical computes both, or the exact
//     optimum of discrete allocations by enumeration. See Numerical for the
//     global strategy and what it guarantees.
//   - Sweep: ΔR over a grid of the parameters of U and T, in parallel,
//     deterministic for a seed whatever the number of workers, stoppable
//     and resumable; SweepResult gives a DataFrame and a heat-map grid.
//   - NumericalTable: numerical beside closed-form gains for lists of N, M
//     and operator pairs.
//
// Results that hold an optimum are returned as a Gains value, whichever way
// they were obtained (ClosedForm, Numerical, Sweep's cells).
//
// Errors returned by this package wrap ErrSize, ErrOperator or ErrParam, so
// callers can test them with errors.Is, with one exception: Sweep returns
// the errors of the functions its caller supplies (SweepSpec.Solve, wrapped
// with the cell's parameters, and SweepSpec.OnCell, as it is), and reports
// a panic of Solve, without those sentinels. No function panics on bad
// input.
package gain
