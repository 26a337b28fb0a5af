package reproduce

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strconv"

	"github.com/hetgain/hetgain/learn"
)

// Options control Run.
type Options struct {
	// Dir is the experiment's directory; each cell's run is kept in
	// Dir/<variant>/<U>-<T>/seed<k>. Empty: nothing is written and nothing
	// can be resumed.
	Dir string
	// Jobs is the number of cells trained at once (default 1: each paired
	// run already trains its two teams on two goroutines). The results do
	// not depend on it.
	Jobs int
	// Stop, if not nil, is polled between training iterations (never by
	// two goroutines at once); when it returns true the running cells
	// checkpoint and stop, and no other cell starts.
	Stop func() bool
	// Progress, if not nil, is called first once for each cell with
	// iterations kept on disk by an earlier Run, finished or not (OnDisk,
	// FPS 0, EvalGain NaN, Done the number of cells finished on disk,
	// Iteration the rows of its log up to the cell's iterations), then after every
	// training iteration of a cell and once when a cell is finished,
	// also one read back (never by two goroutines at once).
	Progress func(Progress)
}

// Progress reports the state of a reproduction.
type Progress struct {
	// Cell is the cell the report is about, "<variant>/<U>-<T>/seed<k>".
	Cell string
	// Done is the number of finished cells, counting from the start
	// those finished on disk before Run (this one included if it just
	// finished), and Total the number of cells.
	Done, Total int
	// Iteration is the cell's training iteration just done, of
	// Iterations.
	Iteration, Iterations int
	// OnDisk marks the reports Run makes before training: Iteration is
	// then what an earlier Run kept of the cell, not an iteration just
	// trained.
	OnDisk bool
	// FPS is the cell's frames of both teams per second over its last
	// iteration, 0 for a cell found finished; EvalGain the gain of that
	// iteration's evaluation (NaN without one), or the final one when
	// the cell is finished.
	FPS, EvalGain float64
}

// Results are the finished cells of an experiment.
type Results struct {
	Experiment Experiment
	// Cells are in the order variant, U (Ops order), T, seed.
	Cells []Cell
}

// Cell is one finished paired run.
type Cell struct {
	Variant, U, T string
	Seed          int
	// Log has one row per iteration (the first Experiment.Iterations
	// rows of the run's log).
	Log []learn.PairStats
	// Frames is the number of frames each team collected; Seconds the
	// run's wall time (the sum over its iterations, across resumes).
	Frames  int64
	Seconds float64
	// TaskHet and TaskHom are the teams' mean returns in the
	// experiment's TaskEval; NaN if it has none, or if the run's final
	// policies are gone (no checkpoint or kept result, or a run extended
	// beyond the experiment's iterations).
	TaskHet, TaskHom float64
}

// Name returns "<variant>/<U>-<T>/seed<k>", the cell's directory under the
// experiment's.
func (c Cell) Name() string {
	return c.Variant + "/" + c.U + "-" + c.T + "/seed" + strconv.Itoa(c.Seed)
}

// Final returns the last row of the log with an evaluation, as
// learn.Result.Final does.
func (c Cell) Final() learn.PairStats {
	r := learn.Result{Log: c.Log}
	return r.Final()
}

// FinalMean returns the last row of the log with an evaluation, with
// HetEval, HomEval and EvalGain replaced by their means over the last k
// rows with an evaluation (all of them if there are fewer; NaN if there
// are none). k must be at least 1.
func (c Cell) FinalMean(k int) learn.PairStats {
	if k < 1 {
		panic("reproduce: FinalMean of fewer than one evaluation")
	}
	out := c.Final()
	var het, hom, g float64
	n := 0
	for i := len(c.Log) - 1; i >= 0 && n < k; i-- {
		if r := c.Log[i]; !math.IsNaN(r.EvalGain) {
			het, hom, g = het+r.HetEval, hom+r.HomEval, g+r.EvalGain
			n++
		}
	}
	if n > 0 {
		out.HetEval, out.HomEval, out.EvalGain = het/float64(n), hom/float64(n), g/float64(n)
	}
	return out
}

// newCell returns the result of cell c from its run's log, read up to
// iterations. A log cut there must keep an evaluation: otherwise it
// returns an error wrapping learn.ErrConfig.
func newCell(c cellSpec, log []learn.PairStats, iterations int) (Cell, error) {
	if ran := len(log); ran > iterations {
		log = log[:iterations]
		if r := (learn.Result{Log: log}); math.IsNaN(r.Final().EvalGain) {
			return Cell{}, fmt.Errorf("reproduce: cell %s: its run has %d iterations and no evaluation in the first %d (one every %d); want more iterations: %w",
				c.name, ran, iterations, c.spec.EvalEvery, learn.ErrConfig)
		}
	}
	out := Cell{Variant: c.variant, U: c.u, T: c.t, Seed: c.seed, Log: log, TaskHet: math.NaN(), TaskHom: math.NaN()}
	for _, row := range log {
		out.Seconds += row.Seconds
	}
	if len(log) > 0 {
		out.Frames = log[len(log)-1].Frames
	}
	return out, nil
}

// Run trains every cell of e that is not finished in opt.Dir and returns
// the results of all finished cells. A cell's run that an earlier Run left
// finished is read back, not retrained, also when its checkpoint has been
// removed (its log and kept task evaluation are enough); one left
// unfinished resumes from its checkpoint.
//
// When opt.Stop stops it, Run returns the cells finished so far with an
// error wrapping learn.ErrStopped; calling Run again with the same
// experiment and directory continues. On any other error the running
// cells stop (keeping their checkpoints) and Run returns the finished
// cells with the first error. An invalid experiment gives an error
// wrapping learn.ErrConfig, as does a cell whose run is longer than e's
// iterations and has no evaluation up to them; a cell directory holding
// a run with other settings gives one wrapping learn.ErrOtherSettings
// (and so learn.ErrCheckpoint).
func Run(e Experiment, opt Options) (*Results, error) {
	e = e.withDefaults()
	if err := e.check(); err != nil {
		return nil, err
	}
	cells := e.cells(opt.Dir)
	finished := make([]*Cell, len(cells))
	fps := make([]float64, len(cells)) // of the last iteration trained now (0 if read back)
	kept := keptIterations(cells)
	p := newPool(len(cells), opt.Stop, func(i int) bool { return kept[i] >= cells[i].spec.Iterations })
	if opt.Progress != nil {
		// Before anything trains, what is on disk: every cell that has
		// iterations there, with the count of those finished.
		onDisk := p.finishedOnDisk()
		for i, c := range cells {
			if kept[i] > 0 {
				opt.Progress(Progress{Cell: c.name, Done: onDisk, Total: len(cells), Iteration: min(kept[i], c.spec.Iterations),
					Iterations: c.spec.Iterations, OnDisk: true, EvalGain: math.NaN()})
			}
		}
	}
	p.run(len(cells), opt.Jobs, func(i int, stop func() bool) error {
		c := cells[i]
		if c.dir != "" && !learn.HasCheckpoint(c.dir) {
			// A finished run kept without its checkpoint (as in
			// testdata) is read back; any other goes to Train.
			cell, err := loadCell(e, c)
			if err != nil || cell != nil {
				finished[i] = cell
				return err
			}
		}
		res, err := learn.Train(c.spec, learn.Options{Dir: c.dir, Stop: stop, Progress: func(s learn.PairStats) {
			if opt.Progress == nil {
				return
			}
			p.report(func(done int) {
				opt.Progress(Progress{Cell: c.name, Done: done, Total: len(cells),
					Iteration: s.Iteration, Iterations: c.spec.Iterations, FPS: s.FPS, EvalGain: s.EvalGain})
			})
		}})
		if err == nil {
			var cell Cell
			if cell, err = newCell(c, res.Log, c.spec.Iterations); err != nil {
				return err
			}
			if e.TaskEval.on() {
				if cell.TaskHet, cell.TaskHom, err = evalTask(e.TaskEval, c, res.Pair); err != nil {
					return err
				}
			}
			finished[i] = &cell
			if res.ResumedAt < c.spec.Iterations && len(res.Log) > 0 {
				fps[i] = res.Log[len(res.Log)-1].FPS
			}
		}
		return err
	}, func(i, done int) {
		if opt.Progress != nil {
			its := cells[i].spec.Iterations
			opt.Progress(Progress{Cell: cells[i].name, Done: done, Total: len(cells), Iteration: its,
				Iterations: its, FPS: fps[i], EvalGain: finished[i].Final().EvalGain})
		}
	})

	res := &Results{Experiment: e}
	for _, c := range finished {
		if c != nil {
			res.Cells = append(res.Cells, *c)
		}
	}
	switch {
	case p.firstErr != nil:
		at, err := p.failure()
		return res, fmt.Errorf("reproduce: %s, cell %s: %w", e.Name, cells[at].name, err)
	case len(res.Cells) < len(cells):
		return res, fmt.Errorf("reproduce: %s stopped with %d of %d cells finished: %w",
			e.Name, len(res.Cells), len(cells), learn.ErrStopped)
	}
	return res, nil
}

// keptIterations returns the number of rows of each cell's log on disk
// (0 for a cell without a directory or a readable log).
func keptIterations(cells []cellSpec) []int {
	kept := make([]int, len(cells))
	for i, c := range cells {
		if c.dir == "" {
			continue
		}
		if log, err := learn.ReadLog(c.dir); err == nil {
			kept[i] = len(log)
		}
	}
	return kept
}

// Load reads the logs of e's cells in dir back, without training: every
// cell whose log has at least its variant's iterations in rows, as Run
// would return them. Unfinished cells are left out. If e has a TaskEval,
// a cell's result kept by Run is read back; without one, Load evaluates
// the cell's checkpoint (keeping nothing), and without a checkpoint its
// TaskHet and TaskHom are NaN. It returns an error if dir does not
// exist, if a cell's log cannot be read, (wrapping learn.ErrCheckpoint)
// if a cell's spec.json describes a run with other settings than e's, or
// (wrapping learn.ErrConfig) if a cell's run is longer than e's
// iterations and has no evaluation up to them. A dir that holds none of
// e's runs (no directory of any of its cells: the directory of another
// experiment, or its parent) is an error wrapping fs.ErrNotExist that
// names a run it looked for, not an empty Results.
func Load(e Experiment, dir string) (*Results, error) {
	e = e.withDefaults()
	if err := e.check(); err != nil {
		return nil, err
	}
	cells := e.cells(dir)
	runDirs := make([]string, len(cells))
	for i, c := range cells {
		runDirs[i] = c.name
	}
	if err := holdsSomeRun(e.Name, dir, runDirs); err != nil {
		return nil, err
	}
	res := &Results{Experiment: e}
	for _, c := range cells {
		cell, err := loadCell(e, c)
		if err != nil {
			return nil, err
		}
		if cell != nil {
			res.Cells = append(res.Cells, *cell)
		}
	}
	return res, nil
}

// holdsSomeRun returns nil if dir holds the directory of at least one of
// the runs of the experiment called name, whose slash-separated
// directories relative to dir are runDirs. Otherwise it returns the
// error of os.Stat if dir itself is missing or unreadable, and else an
// error wrapping fs.ErrNotExist that names dir and the first run looked
// for.
func holdsSomeRun(name, dir string, runDirs []string) error {
	if _, err := os.Stat(dir); err != nil {
		return fmt.Errorf("reproduce: %w", err)
	}
	for _, r := range runDirs {
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(r))); err == nil {
			return nil
		}
	}
	first := "no run at all"
	if len(runDirs) > 0 {
		first = "looked for " + runDirs[0] + " and the rest"
	}
	return fmt.Errorf("reproduce: %s holds none of the %d runs of %s (%s): %w",
		dir, len(runDirs), name, first, fs.ErrNotExist)
}

// loadCell reads the cell c of e back from its directory without
// training, as Load does; it returns nil if the cell is not finished.
func loadCell(e Experiment, c cellSpec) (*Cell, error) {
	log, err := learn.ReadLog(c.dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if err := checkSpec(c); err != nil { // finished or not: another experiment's run is an error
		return nil, err
	}
	if len(log) < c.spec.Iterations {
		return nil, nil
	}
	cell, err := newCell(c, log, c.spec.Iterations)
	if err != nil {
		return nil, err
	}
	if e.TaskEval.on() {
		if cell.TaskHet, cell.TaskHom, err = loadTaskEval(e.TaskEval, c); err != nil {
			return nil, err
		}
	}
	return &cell, nil
}

// checkSpec returns an error wrapping learn.ErrOtherSettings if the
// spec.json in c's directory describes another run than c's (other than
// in the number of iterations).
func checkSpec(c cellSpec) error {
	if err := learn.CheckRunDir(c.dir, c.spec); err != nil {
		return fmt.Errorf("reproduce: cell %s: %w", c.name, err)
	}
	return nil
}

// mean and sampleStd return the mean and the sample standard deviation
// (denominator n − 1; NaN for fewer than two values) of x.
func mean(x []float64) float64 {
	if len(x) == 0 {
		return math.NaN()
	}
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}

func sampleStd(x []float64) float64 {
	if len(x) < 2 {
		return math.NaN()
	}
	m := mean(x)
	s := 0.0
	for _, v := range x {
		s += (v - m) * (v - m)
	}
	return math.Sqrt(s / float64(len(x)-1))
}
