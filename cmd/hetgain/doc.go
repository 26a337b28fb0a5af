// Command hetgain is the command line over the hetgain packages: when does
// a team of specialists beat a team whose members all behave alike, and
// by how much?
//
// The theory's commands compute the heterogeneity gain ΔR = R_het − R_hom
// of team rewards R = U∘T: gains tabulates the closed-form and numerical
// optima of pairs of aggregators, sweep maps ΔR over the parameters of
// parametric aggregators (CSV and heat map), and predict says what the
// paper's theorems give for the sign of ΔR.
//
// The learning commands train: train trains a heterogeneous and a
// homogeneous team by PPO side by side and reports the learned gain,
// reproduce runs the paper's learning experiments, inspect shows what
// trained teams do, and hetgps searches reward parameters for the
// largest (or smallest) gain (HetGPS). compare and hetgps-compare test two
// variants of a training experiment or of a search seed by seed, and
// verdict judges a cell's gains by a rule fixed before its runs, saying
// whether seeds still to come can change the verdict.
//
// Long commands show progress, stop cleanly on Ctrl-C with a checkpoint,
// and resume when run again. Run "hetgain -h" for the commands and
// "hetgain help <command>" for one.
package main
