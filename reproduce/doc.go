// Package reproduce runs the paper's learning experiments as one call each and tabulates and plots their results.
//
// An Experiment is a grid: its variants (the continuous and the discrete
// matrix game, say) times every pair (U, T) of its operators (min, mean and
// max) times its seeds. Each cell of the grid is one paired run of package
// learn (a heterogeneous and a homogeneous team trained side by side from
// the same seed), kept in its own directory
//
//	<dir>/<variant>/<U>-<T>/seed<k>
//
// with the run's spec.json, log.csv and checkpoint. Run trains the cells;
// a reproduction that was interrupted resumes where it stopped when Run is
// called again with the same directory: finished cells are read back, not
// retrained, and a cell cut short continues from its last checkpoint, with
// the same numbers as if it had not stopped. A finished cell needs only
// its log (and kept task evaluation) to be read back, so a reproduction
// kept without checkpoints, as testdata keeps them, can be given more
// seeds or pairs. Load reads the cells' logs back without training, for
// notebooks.
//
// Results.Table has one row per (variant, U, T): the final evaluation
// gain ΔR = R_het − R_hom (mean and standard deviation over seeds), the
// closed-form gain of the theory where there is one, the sign the theory
// predicts, whether the learned gain is clearly positive, and the paper's
// own learned gain; Results.RunTable has one row per run, with its seed
// and final gain, for statistics of one's own. An experiment whose training returns count more than
// the team reward (Tag's include a distance shaping) can set a TaskEval:
// after training, each run's final policies play again with environment
// parameters of its own (no shaping), and that evaluation gives the final
// gain, the training returns' gain staying in the ReturnGain column.
// Results.Curves draws the gain against training frames,
// one panel per (U, T), and Results.Summary puts it all in a few lines of
// text, with the frames used beside the paper's budget.
//
// Matrix, Capture, Tag and TagLarge return the paper's experiments with
// settings that train on a CPU in minutes to hours; the paper used far
// more frames (Experiment.PaperBudget), so gains that take long to emerge
// may not have emerged yet. DiscreteMatrix is the discrete matrix game
// alone, for the paper's tables of scale (N = M = 8; N = 11, M = 2).
// TagLarge30M trains one cell at the paper's
// budget, about 2 hours a seed. TagVMAS trains in Tag as the paper's
// scenario file defines it, and TagSlow in Tag with escapers slower than
// the chasers, where scripted specialists gain in exactly the theory's
// three cells. Observability is the paper's
// observability-heterogeneity trade-off: Capture's (min, max) with a
// range sensor that sees the other agents, one variant per sensor range;
// its Experiment.VariantParam makes Results.VariantGains draw the final
// gains against the range, and Results.VariantCurves every range's gain
// over training in one panel. ObservabilityIndex is its control: range 0
// with each agent's index in its observation. Experiment.FirstSeed splits an
// experiment's seeds over sessions or machines. While some of a cell's
// seeds are still to run, BestLowerBound says the most its mean minus two
// standard errors can reach whatever they give, and so whether they can
// still make it clearly positive; the summary says it for every such
// cell, and Judge gives the whole Verdict on any cell's gains. ReadSeedGains reads the final gains back from the table of a
// reproduction or of a train directory, and PairSeedGains pairs two such
// cells seed by seed, with Wilcoxon's signed-rank test (SignedRankTest)
// of the differences: did a change to training change the learned gain?
//
// A HetGPSExperiment is the paper's Figure 5: HetGPS (learn.HetGPS)
// searching the parameters (τ_T, τ_U) of parametrised aggregators, once per
// setting (the matrix game, Multi-goal-capture) and seed, each run in
//
//	<dir>/<setting>/seed<k>
//
// HetGPSExperiments and HetGPSLookup give the presets (softmax, powersum,
// adverse, descent) and HetGPSSearch the experiment of a search of one's
// own; RunHetGPSExperiment runs and resumes them as Run does, LoadHetGPS
// reads them back, and ReadHetGPSExperiment reads an experiment from its
// runs' own spec.json files, for a directory whose command is not known.
// HetGPSResults.Outcomes says, run by run, whether τ_T rose, τ_U fell and
// the gain rose (for a descent, whether the gain fell to about 0), and
// what diversity the teams ended at; Summary, Trajectories and Figure give
// the text, the table over seeds and the picture, and OutcomeFigure the
// picture with the seeds as expected and the others in separate bands. HetGPSExperiment.FirstSeed runs a
// later range of seeds only, for a second test independent of a first,
// and CompareHetGPS pairs two variants of a search seed by seed, with the
// exact one-sided McNemar test of McNemarP on their outcomes and
// Wilcoxon's signed-rank test of SignedRankTest on the gains they ended
// at.
package reproduce

//go:generate cp ../testdata/paper_learned_gains.csv paper_learned_gains.csv
