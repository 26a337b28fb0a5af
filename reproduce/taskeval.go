package reproduce

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"reflect"

	"github.com/hetgain/hetgain/internal/atomicfile"
	"github.com/hetgain/hetgain/learn"
	"github.com/hetgain/hetgain/simulate"
)

// TaskEval is an evaluation of a finished run's final policies in
// environments whose parameters differ from training's, for experiments
// whose training returns count more than the team reward R(A): Tag's
// include a distance shaping and a collision penalty, and with
// Params{"shaping", "penalty"} = {0, 0} its returns count captures alone,
// as the paper's gains do. The zero value (Episodes 0) is no such
// evaluation.
type TaskEval struct {
	// Params are set in the evaluation environments (names of
	// simulate.Env.Params).
	Params simulate.Params
	// Episodes is the number of episodes each team's deterministic policy
	// plays, the same episodes for both teams (a run's episodes are drawn
	// from its Team.Seed).
	Episodes int
}

// on reports whether t asks for an evaluation.
func (t TaskEval) on() bool { return t.Episodes > 0 }

// taskEvalFile is the file in a cell's directory that keeps the result
// of its TaskEval.
const taskEvalFile = "task-eval.json"

// taskEvalRecord is the content of taskEvalFile: the settings of the
// evaluation, the checkpoint's iteration it evaluated, and its result.
type taskEvalRecord struct {
	Params    simulate.Params
	Episodes  int
	Seed      int64
	Iteration int
	Het, Hom  float64
}

// mismatch returns "" if r is the result of t on c's final checkpoint, or
// the first thing that differs.
func (r taskEvalRecord) mismatch(t TaskEval, c cellSpec) string {
	switch {
	case !reflect.DeepEqual(r.Params, t.Params):
		return fmt.Sprintf("it evaluated with %v, not %v", r.Params, t.Params)
	case r.Episodes != t.Episodes:
		return fmt.Sprintf("it evaluated on %d episodes, not %d", r.Episodes, t.Episodes)
	case r.Seed != c.spec.Team.Seed:
		return fmt.Sprintf("it evaluated seed %d, not %d", r.Seed, c.spec.Team.Seed)
	case r.Iteration != c.spec.Iterations:
		return fmt.Sprintf("it evaluated iteration %d, not %d", r.Iteration, c.spec.Iterations)
	}
	return ""
}

// evalTask returns the mean returns of pair's teams under t, for cell c.
// If pair's teams are not at c's last iteration (a run extended beyond
// it), the policies c ended with are gone and both are NaN. With a cell
// directory, a result kept there for the same settings is reused, and a
// new one is kept.
func evalTask(t TaskEval, c cellSpec, pair *learn.Pair) (het, hom float64, err error) {
	if pair.Het().Iteration() != c.spec.Iterations {
		return math.NaN(), math.NaN(), nil
	}
	if rec, err := readTaskEval(t, c); err == nil {
		return rec.Het, rec.Hom, nil
	}
	seed := c.spec.Team.Seed
	if het, hom, err = pair.EvaluateWith(t.Params, t.Episodes, seed); err != nil {
		return 0, 0, fmt.Errorf("reproduce: task evaluation: %w", err)
	}
	if c.dir == "" {
		return het, hom, nil
	}
	rec := taskEvalRecord{Params: t.Params, Episodes: t.Episodes, Seed: seed, Iteration: c.spec.Iterations, Het: het, Hom: hom}
	return writeTaskEval(c.dir, rec)
}

// writeTaskEval keeps rec in dir and returns its results.
func writeTaskEval(dir string, rec taskEvalRecord) (het, hom float64, err error) {
	data, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return 0, 0, err
	}
	err = atomicfile.WriteBytes(filepath.Join(dir, taskEvalFile), append(data, '\n'))
	return rec.Het, rec.Hom, err
}

// readTaskEval returns the result of t kept in c's directory, or an error
// saying why there is none for the same settings and iteration: no file
// (wrapping fs.ErrNotExist), an unreadable one (wrapping
// learn.ErrCheckpoint), or one of another evaluation (wrapping
// learn.ErrOtherSettings).
func readTaskEval(t TaskEval, c cellSpec) (taskEvalRecord, error) {
	if c.dir == "" {
		return taskEvalRecord{}, fs.ErrNotExist
	}
	path := filepath.Join(c.dir, taskEvalFile)
	data, err := os.ReadFile(path)
	if err != nil {
		return taskEvalRecord{}, err
	}
	var rec taskEvalRecord
	if err := json.Unmarshal(data, &rec); err != nil {
		return taskEvalRecord{}, fmt.Errorf("%s: %v: %w", path, err, learn.ErrCheckpoint)
	}
	if why := rec.mismatch(t, c); why != "" {
		return taskEvalRecord{}, fmt.Errorf("%s: %s: %w", path, why, learn.ErrOtherSettings)
	}
	return rec, nil
}

// loadTaskEval returns the result of t for the finished cell c without
// training: the one kept in its directory, else an evaluation of its
// checkpoint (not kept). Without either, both are NaN; a kept result of
// another evaluation (an error wrapping learn.ErrOtherSettings) or an
// unreadable one (wrapping learn.ErrCheckpoint) without a checkpoint to
// evaluate again is an error.
func loadTaskEval(t TaskEval, c cellSpec) (het, hom float64, err error) {
	rec, kept := readTaskEval(t, c)
	if kept == nil {
		return rec.Het, rec.Hom, nil
	}
	pair, err := learn.LoadPair(c.dir)
	switch {
	case errors.Is(err, fs.ErrNotExist) && errors.Is(kept, fs.ErrNotExist):
		return math.NaN(), math.NaN(), nil
	case errors.Is(err, fs.ErrNotExist):
		return 0, 0, fmt.Errorf("reproduce: cell %s: no checkpoint to evaluate and no task evaluation for these settings: %w",
			c.name, kept)
	case err != nil:
		return 0, 0, fmt.Errorf("reproduce: cell %s: %w", c.name, err)
	}
	c.dir = "" // Load keeps nothing
	return evalTask(t, c, pair)
}

// checkTaskEval returns an error wrapping learn.ErrConfig if t cannot be
// applied to the environment env.
func checkTaskEval(t TaskEval, env learn.EnvSpec) error {
	if t.Episodes < 0 {
		return fmt.Errorf("TaskEval.Episodes %d, want >= 0: %w", t.Episodes, learn.ErrConfig)
	}
	if !t.on() {
		return nil
	}
	e, err := env.New(1)
	if err != nil {
		return err
	}
	if err := e.SetParams(t.Params); err != nil {
		return fmt.Errorf("TaskEval.Params: %v: %w", err, learn.ErrConfig)
	}
	return nil
}
