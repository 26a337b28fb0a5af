// Package aggregators provides the aggregation operators of team rewards
// R(A) = U(T_1(a_1), ..., T_M(a_M)): their values, gradients, derivatives
// with respect to their parameters, and the curvature facts (Schur class,
// strict monotonicity) that decide the sign of the heterogeneity gain.
//
// An Operator is a symmetric function of a vector. The operators of the
// paper are here: Min, Mean, Max and Sum; the parametric families PowerSum,
// MeanPower (the power sum over n, as the paper's code computes it in
// Multi-goal-capture), PowerMean, LogSumExp and Softmax; the threshold
// operators BlottoField (Team Colonel Blotto against a fixed stochastic
// adversary) and LevelThreshold (level-based foraging); and SumForm, the
// sum of a user-supplied function g over the coordinates.
//
// Every operator reports its Schur class on the unit box [0,1]^n, the domain
// of efforts and of normalised task scores. Where the paper's table of
// families is stated for all non-negative inputs but fails on the box, the
// operator's documentation says so; Softmax for n >= 3 is the case in point.
//
// Input contract. Operator methods panic with an "aggregators: ..." message
// when given invalid input (no values, NaN or ±Inf, a negative value where
// the domain is non-negative, a magnitude above MaxInput): that is a
// programmer error, as in gonum. Input that comes from data should go
// through Check or Evaluate, which return an error naming what is wrong.
// Reward checks its allocation matrix and returns errors. A function that
// returns a number and an error returns NaN with any error, so that a value
// used despite its error cannot pass for a result.
//
// An operator's Gradient can overflow to ±Inf where its Value is finite
// (the power sum x^t of an input just below MaxInput^(1/t) has the
// derivative t·x^(t−1), t times larger). Reward.Gradient and
// Reward.ParamGradient report a non-finite derivative as an error.
//
// Gradients at non-smooth points (ties in Min and Max, the jumps of the
// threshold operators, zero coordinates of the power operators with t < 1)
// follow the conventions documented on each operator.
package aggregators
