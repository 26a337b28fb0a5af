package learn

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// DefaultCheckpointEvery is the number of iterations between the
// checkpoints of a run whose Options.CheckpointEvery is 0.
const DefaultCheckpointEvery = 10

// Options control a long run from outside. The zero value runs to the
// end, keeping nothing on disk.
type Options struct {
	// Dir is the run directory: spec.json, log.csv (one row per
	// iteration, written as the run goes) and checkpoint.gob. If it holds
	// a checkpoint of the same run, the run resumes from it; rows of the
	// log after the checkpoint are dropped and recomputed, identically.
	// If it holds a checkpoint of a run with other settings, the run
	// returns an error wrapping ErrOtherSettings (and so ErrCheckpoint);
	// if it holds a log with rows but no checkpoint, one wrapping
	// ErrCheckpoint. Either way the directory is left alone.
	// Empty: nothing is written.
	Dir string
	// CheckpointEvery is the number of iterations between checkpoints
	// (0 means DefaultCheckpointEvery; a negative value is an error
	// wrapping ErrConfig). A checkpoint is also written before the first
	// iteration, at the end and when the run stops.
	CheckpointEvery int
	// Stop, if not nil, is polled between iterations; when it returns
	// true the run checkpoints and returns an error wrapping ErrStopped.
	Stop func() bool
	// Progress, if not nil, is called after every iteration.
	Progress func(PairStats)
}

// checkpointEvery returns the iterations between checkpoints, or an
// error wrapping ErrConfig for a negative CheckpointEvery.
func (o Options) checkpointEvery() (int, error) {
	if o.CheckpointEvery < 0 {
		return 0, fmt.Errorf("learn: Options.CheckpointEvery %d, want >= 0 (0 for %d): %w", o.CheckpointEvery, DefaultCheckpointEvery, ErrConfig)
	}
	every := o.CheckpointEvery
	setInt(&every, DefaultCheckpointEvery)
	return every, nil
}

// Result is what a paired run produced.
type Result struct {
	// Pair holds the trained teams.
	Pair *Pair
	// Log has one row per iteration, from the first (including rows
	// read back from a resumed run's log).
	Log []PairStats
	// ResumedAt is the iteration the run resumed from (0 for a fresh run).
	ResumedAt int
}

// Final returns the last row of the log with an evaluation, or a zero
// row with NaN evaluation columns if there is none.
func (r *Result) Final() PairStats {
	for k := len(r.Log) - 1; k >= 0; k-- {
		if !math.IsNaN(r.Log[k].EvalGain) {
			return r.Log[k]
		}
	}
	var s PairStats
	s.clearEval()
	return s
}

// pairHeader is the header of a paired run's log.
var pairHeader = []string{"iteration", "frames", "het_return", "hom_return", "gain",
	"het_eval", "hom_eval", "eval_gain", "het_diversity", "hom_diversity",
	"het_entropy", "hom_entropy", "het_approx_kl", "hom_approx_kl",
	"het_clip_fraction", "hom_clip_fraction", "het_value_loss", "hom_value_loss",
	"seconds", "fps"}

// updateAt is the index of het_entropy in pairHeader, where the teams'
// UpdateStats begin, in pairs of columns; timeAt that of seconds, after
// them.
const (
	updateAt = 10
	timeAt   = 18
)

// laterColumns are the groups of pairHeader's columns that hetgain added
// after its first logs, oldest first. A log written before a group has
// none of its columns, nor those of the groups after it; splitLogRows
// reads it with NaN there.
var laterColumns = [][]string{
	{"het_diversity", "hom_diversity"},
	pairHeader[updateAt:timeAt],
}

func (s PairStats) row() []string {
	r := []string{strconv.Itoa(s.Iteration), strconv.FormatInt(s.Frames, 10),
		formatFloat(s.HetReturn), formatFloat(s.HomReturn), formatFloat(s.Gain),
		formatFloat(s.HetEval), formatFloat(s.HomEval), formatFloat(s.EvalGain),
		formatFloat(s.HetDiversity), formatFloat(s.HomDiversity)}
	for _, v := range s.updateValues() {
		r = append(r, formatFloat(*v))
	}
	return append(r, formatFloat(s.Seconds), formatFloat(s.FPS))
}

// updateValues points to the values of the teams' UpdateStats in
// pairHeader's order.
func (s *PairStats) updateValues() []*float64 {
	h, m := &s.HetUpdate, &s.HomUpdate
	return []*float64{&h.Entropy, &m.Entropy, &h.ApproxKL, &m.ApproxKL,
		&h.ClipFraction, &m.ClipFraction, &h.ValueLoss, &m.ValueLoss}
}

// olderHeader returns header without the columns of the last k groups of
// laterColumns: the header of a log written before them.
func olderHeader(header []string, k int) []string {
	drop := map[string]bool{}
	for _, g := range laterColumns[len(laterColumns)-k:] {
		for _, c := range g {
			drop[c] = true
		}
	}
	var h []string
	for _, c := range header {
		if !drop[c] {
			h = append(h, c)
		}
	}
	return h
}

// splitLogRows checks that the first of lines is header, or header as a
// log written before some of laterColumns has it, and returns the other
// lines split into fields, in header's layout: the rows of an older log
// get "NaN" in the columns it lacks. It refuses a row whose iteration
// (the first field, where it is an integer) is not its place in the log:
// every run logs iterations 1, 2, ... in order. path names the log in
// errors.
func splitLogRows(path string, lines []string, header []string) ([][]string, error) {
	var from []int // for each column of header, its index in the log's, or -1
	oldWidth := 0  // the number of columns of the log's layout
	for k := 0; k <= len(laterColumns) && from == nil; k++ {
		old := olderHeader(header, k)
		if lines[0] == strings.Join(old, ",") {
			from, oldWidth = columnSources(header, old), len(old)
		}
	}
	if from == nil {
		return nil, fmt.Errorf("learn: log %s has the header %q, want %q: %w", path, lines[0], strings.Join(header, ","), ErrCheckpoint)
	}
	rows := make([][]string, len(lines)-1)
	for k, l := range lines[1:] {
		r := strings.Split(l, ",")
		if oldWidth != len(from) && len(r) == oldWidth {
			r = upgradeRow(r, from)
		}
		if it, err := strconv.Atoi(r[0]); err == nil && it != k+1 {
			return nil, fmt.Errorf("learn: %s, line %d: row %d is iteration %d: %w", path, k+2, k+1, it, ErrCheckpoint)
		}
		rows[k] = r
	}
	return rows, nil
}

// columnSources returns, for each column of header, its index in old, or
// -1 if old lacks it.
func columnSources(header, old []string) []int {
	at := map[string]int{}
	for k, c := range old {
		at[c] = k
	}
	from := make([]int, len(header))
	for k, c := range header {
		from[k] = -1
		if j, ok := at[c]; ok {
			from[k] = j
		}
	}
	return from
}

// upgradeRow returns the fields r of an older log's row in the layout of
// from (columnSources), with "NaN" where the older log has no column.
func upgradeRow(r []string, from []int) []string {
	out := make([]string, len(from))
	for k, j := range from {
		out[k] = "NaN"
		if j >= 0 {
			out[k] = r[j]
		}
	}
	return out
}

// parsePairRow reads a row of a paired run's log in pairHeader's layout
// and refuses values Pair.Iterate cannot have written: a negative frame
// count or wall time; an infinity (but for the frames per second of an
// iteration timed at 0 seconds); a NaN but where a value is missing.
// Missing values are NaN: the evaluation columns, together, at
// iterations without an evaluation; the diversities there and in logs
// written before they were recorded; and, if untrained (the iterations
// of HetGPS that do not train the agents), the training returns and
// their gain, together; a team's update columns, together, there and in
// logs written before they were recorded (parseUpdates). The error names
// the column.
func parsePairRow(r []string, untrained bool) (PairStats, error) {
	var s PairStats
	if len(r) != len(pairHeader) {
		return s, fmt.Errorf("log row with %d fields, want %d: %w", len(r), len(pairHeader), ErrCheckpoint)
	}
	bad := func(col int, want string) error {
		return fmt.Errorf("column %s is %q, want %s: %w", pairHeader[col], r[col], want, ErrCheckpoint)
	}
	var err error
	if s.Iteration, err = strconv.Atoi(r[0]); err != nil {
		return s, bad(0, "an integer")
	}
	if s.Frames, err = strconv.ParseInt(r[1], 10, 64); err != nil || s.Frames < 0 {
		return s, bad(1, "an integer >= 0")
	}
	vals := []*float64{&s.HetReturn, &s.HomReturn, &s.Gain, &s.HetEval, &s.HomEval, &s.EvalGain,
		&s.HetDiversity, &s.HomDiversity}
	for k, p := range vals {
		if *p, err = parseFloat(r[k+2]); err != nil {
			return s, bad(k+2, "a number")
		}
	}
	for k, p := range []*float64{&s.Seconds, &s.FPS} {
		if *p, err = parseFloat(r[timeAt+k]); err != nil {
			return s, bad(timeAt+k, "a number")
		}
	}
	// group checks that the columns from..to are finite, or all NaN if
	// missing allows it.
	group := func(from, to int, missing bool, what string) error {
		nan := math.IsNaN(*vals[from-2])
		for c := from; c <= to; c++ {
			v := *vals[c-2]
			switch {
			case math.IsNaN(v) && !missing:
				return bad(c, "a finite number")
			case math.IsNaN(v) && !nan:
				return bad(c, fmt.Sprintf("a finite number, as %s is (NaN only without %s)", pairHeader[from], what))
			case !math.IsNaN(v) && nan:
				return bad(c, fmt.Sprintf("NaN, as %s is (no %s)", pairHeader[from], what))
			case math.IsInf(v, 0):
				return bad(c, fmt.Sprintf("a finite number (or NaN without %s)", what))
			}
		}
		return nil
	}
	if err := group(2, 4, untrained, "training"); err != nil {
		return s, err
	}
	if err := group(5, 7, true, "an evaluation"); err != nil {
		return s, err
	}
	for c := 8; c <= 9; c++ {
		v := *vals[c-2]
		switch {
		case math.IsNaN(v):
		case math.IsNaN(s.EvalGain):
			return s, bad(c, "NaN without an evaluation")
		case math.IsInf(v, 0) || v < 0:
			return s, bad(c, "a finite number >= 0 (or NaN)")
		}
	}
	if math.IsNaN(s.Seconds) || math.IsInf(s.Seconds, 0) || s.Seconds < 0 {
		return s, bad(timeAt, "a finite number >= 0")
	}
	if !(s.FPS >= 0 && !math.IsInf(s.FPS, 0) || s.Seconds == 0 && (math.IsNaN(s.FPS) || math.IsInf(s.FPS, 1))) {
		return s, bad(timeAt+1, "a finite number >= 0 (+Inf or NaN only at 0 seconds)")
	}
	return s, parseUpdates(&s, r, bad)
}

// parseUpdates reads the columns of the teams' UpdateStats of a row r of
// a paired run's log into s, whose training returns are read, refusing
// what Pair.Iterate cannot have written: a team's four values are finite,
// or all NaN (in logs written before they were recorded), and NaN at
// iterations that do not train the agents; a clip fraction is in [0, 1]
// and a value loss >= 0. bad names the column in its error.
func parseUpdates(s *PairStats, r []string, bad func(col int, want string) error) error {
	vals := s.updateValues()
	for k, p := range vals {
		var err error
		if *p, err = parseFloat(r[updateAt+k]); err != nil {
			return bad(updateAt+k, "a number")
		}
	}
	untrained := math.IsNaN(s.HetReturn)
	for team := 0; team < 2; team++ {
		nan := math.IsNaN(*vals[team])
		for k := team; k < len(vals); k += 2 {
			v, col := *vals[k], updateAt+k
			switch {
			case math.IsInf(v, 0):
				return bad(col, "a finite number (or NaN)")
			case untrained && !math.IsNaN(v):
				return bad(col, "NaN, as het_return is (no training)")
			case math.IsNaN(v) != nan:
				return bad(col, fmt.Sprintf("NaN exactly when %s is", pairHeader[updateAt+team]))
			case k >= 4 && k < 6 && (v < 0 || v > 1):
				return bad(col, "a fraction in [0, 1]")
			case k >= 6 && v < 0:
				return bad(col, "a number >= 0")
			}
		}
	}
	return nil
}

// Train runs spec to spec.Iterations iterations, or resumes it from the
// checkpoint in opt.Dir. It returns the result so far together with an
// error wrapping ErrStopped if opt.Stop ended it early. A directory whose
// checkpoint is already past spec.Iterations is returned as it is: the
// whole log, longer than spec.Iterations, and teams at the checkpoint's
// iteration; its spec.json is left describing that run. A run extended
// from a length that is not a multiple of EvalEvery keeps the evaluation
// its old last iteration got for being last, which a fresh run of the new
// length does not make; its other rows and its teams are those of the
// fresh run.
func Train(spec RunSpec, opt Options) (*Result, error) {
	every, err := opt.checkpointEvery()
	if err != nil {
		return nil, err
	}
	pair, err := NewPair(spec)
	if err != nil {
		return nil, err
	}
	res := &Result{Pair: pair}
	teamsAtCheckpoint := func(ck *checkpoint) error {
		if pair.het.iter != ck.Iteration || pair.hom.iter != ck.Iteration {
			return fmt.Errorf("learn: checkpoint in %s covers %d iterations of the log but holds teams at iterations %d and %d: %w",
				opt.Dir, ck.Iteration, pair.het.iter, pair.hom.iter, ErrCheckpoint)
		}
		return nil
	}
	st, ck, rows, err := openRun(opt.Dir, pair.Spec(), pairHeader, teamsAtCheckpoint, pair.het, pair.hom)
	if err != nil {
		return nil, err
	}
	defer st.close()
	for _, r := range rows {
		row, err := parsePairRow(r, false)
		if err != nil {
			return nil, fmt.Errorf("learn: resume from %s: %w", opt.Dir, err)
		}
		res.Log = append(res.Log, row)
	}
	res.ResumedAt = pair.het.iter
	save := func() error {
		return st.save(&checkpoint{Version: 1, Spec: mustJSON(pair.Spec()), Iteration: pair.het.iter,
			Teams: []teamState{pair.het.state(), pair.hom.state()}})
	}
	if ck == nil {
		if err := save(); err != nil {
			return res, err
		}
	}
	for pair.het.iter < pair.spec.Iterations {
		if opt.Stop != nil && opt.Stop() {
			if err := save(); err != nil {
				return res, err
			}
			return res, fmt.Errorf("learn: run stopped after iteration %d of %d: %w", pair.het.iter, pair.spec.Iterations, ErrStopped)
		}
		row, err := pair.Iterate()
		if err != nil {
			return res, err
		}
		res.Log = append(res.Log, row)
		if err := st.append(row.row()); err != nil {
			return res, err
		}
		if opt.Progress != nil {
			opt.Progress(row)
		}
		if pair.het.iter%every == 0 || pair.het.iter == pair.spec.Iterations {
			if err := save(); err != nil {
				return res, err
			}
		}
	}
	return res, nil
}

// openRun opens the run directory dir (nil store for "") for a run with
// the given specification and log header, restores the teams from its
// checkpoint if there is one, and returns that checkpoint (nil for a
// fresh start, for the caller's Extra state) and the log rows it covers.
// check, if not nil, is called with the checkpoint once the teams are
// restored; its error, like any other, leaves dir as it was.
func openRun(dir string, spec interface{}, header []string, check func(*checkpoint) error, teams ...*Team) (*store, *checkpoint, [][]string, error) {
	if dir == "" {
		return nil, nil, nil, nil
	}
	restore := func(ck *checkpoint) error {
		if len(ck.Teams) != len(teams) {
			return fmt.Errorf("learn: checkpoint with %d teams, want %d: %w", len(ck.Teams), len(teams), ErrCheckpoint)
		}
		for k, t := range teams {
			if err := t.restore(ck.Teams[k]); err != nil {
				return err
			}
		}
		if check != nil {
			return check(ck)
		}
		return nil
	}
	return openStore(dir, mustJSON(spec), header, restore)
}

// mustJSON encodes v, which is a plain configuration struct.
func mustJSON(v interface{}) []byte {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		panic("learn: " + err.Error())
	}
	return b
}

// LoadPair returns the teams of the paired run in dir as its checkpoint
// holds them, without training: a finished run's final policies, or an
// unfinished run's at its last checkpoint (Pair.Het().Iteration() says
// which iteration). The run's environment must be one of EnvSpec's (a run
// built with a Maker cannot be rebuilt from its directory). It returns an
// error wrapping fs.ErrNotExist if dir holds no checkpoint, and one
// wrapping ErrCheckpoint if the checkpoint cannot be read or is not a
// paired run's (HetGPS keeps other checkpoints).
func LoadPair(dir string) (*Pair, error) {
	var spec RunSpec
	ck, err := loadCheckpoint(dir, "load pair", "a paired run", &spec)
	if err != nil {
		return nil, err
	}
	path := filepath.Join(dir, checkpointFile)
	if ck.Extra != nil {
		return nil, fmt.Errorf("learn: load pair: %s is not the checkpoint of a paired run: %w", path, ErrCheckpoint)
	}
	pair, err := NewPair(spec)
	if err != nil {
		return nil, fmt.Errorf("learn: load pair: %s: %w", path, err)
	}
	return pair, pair.restore(ck)
}

// loadCheckpoint reads the checkpoint in dir, which must hold two teams,
// and decodes its specification into spec, refusing unknown fields. Its
// errors start with "learn: what:"; they wrap fs.ErrNotExist if there is
// no checkpoint and ErrCheckpoint if it cannot be read or does not fit
// spec (then saying it is not the checkpoint of kind).
func loadCheckpoint(dir, what, kind string, spec interface{}) (*checkpoint, error) {
	path := filepath.Join(dir, checkpointFile)
	ck, err := readCheckpoint(path)
	if err != nil {
		return nil, err
	}
	if ck == nil {
		return nil, fmt.Errorf("learn: %s: %s: %w", what, path, fs.ErrNotExist)
	}
	dec := json.NewDecoder(bytes.NewReader(ck.Spec))
	dec.DisallowUnknownFields()
	if err := dec.Decode(spec); err != nil || len(ck.Teams) != 2 {
		return nil, fmt.Errorf("learn: %s: %s is not the checkpoint of %s: %w", what, path, kind, ErrCheckpoint)
	}
	return ck, nil
}

// restore sets both teams to the states of ck.
func (p *Pair) restore(ck *checkpoint) error {
	for k, t := range []*Team{p.het, p.hom} {
		if err := t.restore(ck.Teams[k]); err != nil {
			return err
		}
	}
	return nil
}

// ReadLog reads the log.csv of the paired run in dir: every row written
// so far, including rows after the last checkpoint. A last line cut short
// (one without its newline: a process killed while writing it) is
// dropped. A log that does not parse, or that holds a value no run writes
// (an infinity, a NaN where no value is missing, a negative frame count
// or time; see PairStats for the missing values), gives an error wrapping
// ErrCheckpoint that names the line and the column.
func ReadLog(dir string) ([]PairStats, error) {
	path := filepath.Join(dir, logFile)
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	rows, err := splitLogRows(path, logLines(data), pairHeader)
	if err != nil {
		return nil, err
	}
	var log []PairStats
	for k, r := range rows {
		row, err := parsePairRow(r, false)
		if err != nil {
			return nil, fmt.Errorf("learn: %s, line %d: %w", path, k+2, err)
		}
		log = append(log, row)
	}
	return log, nil
}

// logLines returns the lines of a log file, the header first, without a
// last line that does not end in a newline: the rows are written whole,
// so such a line is one cut short by a process killed while writing it,
// even if what is left of it parses.
func logLines(data []byte) []string {
	lines := strings.SplitAfter(string(data), "\n")
	if last := lines[len(lines)-1]; !strings.HasSuffix(last, "\n") && len(lines) > 1 {
		lines = lines[:len(lines)-1]
	}
	for k, l := range lines {
		lines[k] = strings.TrimSuffix(l, "\n")
	}
	return lines
}
