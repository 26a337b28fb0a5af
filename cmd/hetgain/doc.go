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
// trained teams do, scripted what a Tag game pays hand-written
// specialists over hand-written chasers that are alike (the gain to
// compare a learned one with), and hetgps searches reward parameters for
// the largest (or smallest) gain (HetGPS). compare and hetgps-compare test two
// variants of a training experiment or of a search seed by seed, and
// verdict judges a cell's gains by a rule fixed before its runs, saying
// whether seeds still to come can change the verdict.
//
// Long commands show progress, stop cleanly on Ctrl-C with a checkpoint,
// and resume when run again. Run "hetgain -h" for the commands and
// "hetgain help <command>" for one. Flags may come before or after a
// command's operands; "--" ends them.
//
// The exit status is 0 when the command is done, and 130 when SIGINT or
// SIGTERM stopped it. It is 2 for a bad command line, found before any
// work: a flag or operand malformed or out of range, flags that exclude
// each other, or a command line that asks for what its inputs do not
// have (a cell, seed or setting they lack, two directories without a
// cell or seed in common, settings other than those of the runs in the
// directory named). It is 1 for an error: an input that is not there,
// cannot be read or is malformed (a file or directory missing, a
// directory holding none of what the command reads, no run finished
// with the settings given), an output that cannot be written, or work
// that fails. Every error names what is wrong; a bad command line also
// points to the command's help.
package main
