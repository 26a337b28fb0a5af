package learn

import (
	"bufio"
	"bytes"
	"encoding/gob"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/hetgain/hetgain/internal/atomicfile"
)

// Files of a run directory.
const (
	specFile       = "spec.json"
	logFile        = "log.csv"
	checkpointFile = "checkpoint.gob"
)

// teamState is what a checkpoint keeps of a team.
type teamState struct {
	Iter                  int
	Frames                int64
	Actor, Critic         []float64
	ActorM, ActorV        []float64
	CriticM, CriticV      []float64
	ActorStep, CriticStep int
}

func (t *Team) state() teamState {
	cp := func(x []float64) []float64 { return append([]float64(nil), x...) }
	return teamState{Iter: t.iter, Frames: t.frames,
		Actor: cp(t.actorParams), Critic: cp(t.criticParams),
		ActorM: cp(t.actorOpt.m), ActorV: cp(t.actorOpt.v), ActorStep: t.actorOpt.t,
		CriticM: cp(t.criticOpt.m), CriticV: cp(t.criticOpt.v), CriticStep: t.criticOpt.t}
}

func (t *Team) restore(s teamState) error {
	if len(s.Actor) != len(t.actorParams) || len(s.Critic) != len(t.criticParams) ||
		len(s.ActorM) != len(s.Actor) || len(s.ActorV) != len(s.Actor) ||
		len(s.CriticM) != len(s.Critic) || len(s.CriticV) != len(s.Critic) {
		return fmt.Errorf("learn: checkpoint holds %d actor and %d critic parameters, the team has %d and %d: %w",
			len(s.Actor), len(s.Critic), len(t.actorParams), len(t.criticParams), ErrCheckpoint)
	}
	t.iter, t.frames = s.Iter, s.Frames
	copy(t.actorParams, s.Actor)
	copy(t.criticParams, s.Critic)
	copy(t.actorOpt.m, s.ActorM)
	copy(t.actorOpt.v, s.ActorV)
	copy(t.criticOpt.m, s.CriticM)
	copy(t.criticOpt.v, s.CriticV)
	t.actorOpt.t, t.criticOpt.t = s.ActorStep, s.CriticStep
	return nil
}

// checkpoint is the state of a run after a number of iterations: enough
// to continue it exactly as if it had not stopped.
type checkpoint struct {
	Version   int
	Spec      []byte // the run's JSON specification
	Iteration int    // rows of the log covered
	Teams     []teamState
	Extra     []byte // state of the algorithm around the teams (HetGPS)
}

// store keeps a run directory: the specification, the log written row by
// row, and the latest checkpoint written atomically.
type store struct {
	dir    string
	header []string
	log    *os.File
	w      *bufio.Writer
}

// openStore opens dir for a run with the given JSON specification and
// log header. It returns the checkpoint to resume from (nil for a fresh
// start) and the log rows it covers; rows written after it are dropped,
// since resuming recomputes them identically. If there is a checkpoint,
// restore is called with it before anything in dir is written, so that a
// checkpoint the run cannot take leaves the directory as it was.
func openStore(dir string, spec []byte, header []string, restore func(*checkpoint) error) (*store, *checkpoint, [][]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, nil, nil, err
	}
	s := &store{dir: dir, header: header}
	ck, err := readCheckpoint(filepath.Join(dir, checkpointFile))
	if err != nil {
		return nil, nil, nil, err
	}
	var rows [][]string
	if ck != nil {
		if err := sameSpec(ck.Spec, spec); err != nil {
			return nil, nil, nil, fmt.Errorf("learn: %s: %w", dir, err)
		}
		if rows, err = readLog(filepath.Join(dir, logFile), header, ck.Iteration); err != nil {
			return nil, nil, nil, err
		}
		if err := restore(ck); err != nil {
			return nil, nil, nil, err
		}
	} else if err := checkNoOrphanLog(dir); err != nil {
		return nil, nil, nil, err
	}
	if ck == nil || !pastIterations(ck, spec) {
		if err := atomicfile.WriteBytes(filepath.Join(dir, specFile), spec); err != nil {
			return nil, nil, nil, err
		}
	}
	return s, ck, rows, s.rewriteLog(rows)
}

// pastIterations reports whether the checkpoint ck already covers more
// iterations than the specification spec asks for (its top-level
// "Iterations"). The run is then returned as it is, and its spec.json,
// which describes it, is kept.
func pastIterations(ck *checkpoint, spec []byte) bool {
	var top struct{ Iterations int }
	return json.Unmarshal(spec, &top) == nil && ck.Iteration > top.Iterations
}

// HasCheckpoint reports whether the run directory dir holds a checkpoint
// (of any run).
func HasCheckpoint(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, checkpointFile))
	return err == nil
}

// checkNoOrphanLog returns an error wrapping ErrCheckpoint if dir has no
// checkpoint but its log has rows. Runs save a checkpoint before their
// first iteration, so such a log belongs to a run whose checkpoint was
// removed (a finished run kept without its checkpoint, say); starting over
// would overwrite it.
func checkNoOrphanLog(dir string) error {
	path := filepath.Join(dir, logFile)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("learn: %w", err)
	}
	rows := strings.Count(strings.TrimRight(string(data), "\n"), "\n")
	if rows == 0 {
		return nil
	}
	return fmt.Errorf("learn: %s has %d logged iterations but %s has no %s to resume from; "+
		"move the log away to start the run over: %w", path, rows, dir, checkpointFile, ErrCheckpoint)
}

// CheckRunDir returns nil if the run directory dir holds a paired run of
// spec (Train's, with spec's defaults filled in; the number of iterations
// may differ, since a run can be extended). If it holds another run, the
// error wraps ErrOtherSettings (and so ErrCheckpoint) and names the first
// setting that differs, as in "Team.LR"; an unreadable spec.json gives an
// error wrapping ErrCheckpoint only; if dir has no spec.json, the error
// wraps fs.ErrNotExist. An invalid spec gives an error wrapping
// ErrConfig.
func CheckRunDir(dir string, spec RunSpec) error {
	if err := spec.Check(); err != nil {
		return err
	}
	return checkSpecFile(dir, mustJSON(spec.withDefaults()))
}

// CheckHetGPSDir is CheckRunDir for a run directory of HetGPS.
func CheckHetGPSDir(dir string, spec HetGPSSpec) error {
	if err := spec.Check(); err != nil {
		return err
	}
	return checkSpecFile(dir, mustJSON(spec.withDefaults().record()))
}

// checkSpecFile compares dir's spec.json with the JSON specification want.
func checkSpecFile(dir string, want []byte) error {
	path := filepath.Join(dir, specFile)
	got, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("learn: %w", err)
	}
	if err := sameSpec(got, want); err != nil {
		return fmt.Errorf("learn: %s: %w", path, err)
	}
	return nil
}

// sameSpec reports an error wrapping ErrOtherSettings naming every
// setting (in the order of the sorted dotted names, such as "Team.LR")
// that differs between two JSON specifications, ignoring the top-level
// "Iterations" (a run may be extended); one wrapping ErrCheckpoint only
// if either cannot be read. Its messages have no package prefix.
func sameSpec(old, new []byte) error {
	var a, b map[string]interface{}
	if decodeNumbers(old, &a) != nil || decodeNumbers(new, &b) != nil {
		return fmt.Errorf("unreadable specification in checkpoint: %w", ErrCheckpoint)
	}
	delete(a, "Iterations")
	delete(b, "Iterations")
	canonicalSettings(a)
	canonicalSettings(b)
	return specDiff("", a, b)
}

// canonicalSettings puts the environment and the team settings of a
// decoded specification (at "Env" and "Team" in a paired run's, under
// "Run" in HetGPS's) in their canonical forms: EnvSpec.withDefaults, and
// Config as this version writes it. So a spec.json written before that
// form (an Agents of 0 for the default 2, say) or before a setting was
// added (Team.AgentRewards: false) still matches its run. A setting this
// version does not know is left as it is, and so reported as a difference.
func canonicalSettings(spec map[string]interface{}) {
	if run, ok := spec["Run"].(map[string]interface{}); ok {
		canonicalSettings(run)
	}
	var env EnvSpec
	if decodeSetting(spec, "Env", &env) {
		setSetting(spec, "Env", env.withDefaults())
	}
	var team Config
	if decodeSetting(spec, "Team", &team) {
		setSetting(spec, "Team", team)
	}
}

// decodeSetting decodes spec[key] into v and reports whether it could:
// whether spec has key and its value has no field that v lacks.
func decodeSetting(spec map[string]interface{}, key string, v interface{}) bool {
	decoded, ok := spec[key]
	if !ok {
		return false
	}
	raw, err := json.Marshal(decoded)
	if err != nil {
		return false
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	return dec.Decode(v) == nil
}

// setSetting sets spec[key] to v as decoded from its JSON.
func setSetting(spec map[string]interface{}, key string, v interface{}) {
	var canonical interface{}
	if decodeNumbers(mustJSON(v), &canonical) == nil {
		spec[key] = canonical
	}
}

// decodeNumbers decodes the JSON data into v, keeping numbers as
// json.Number: as float64 a seed of 2^53 + 1 would read as 2^53.
func decodeNumbers(data []byte, v interface{}) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	return dec.Decode(v)
}

// sameNumber reports whether two JSON numbers are equal: exactly as
// integers when both are int64 literals, else as float64 (so -0 is 0).
func sameNumber(a, b json.Number) bool {
	ia, errA := a.Int64()
	ib, errB := b.Int64()
	if errA == nil && errB == nil {
		return ia == ib
	}
	fa, errA := a.Float64()
	fb, errB := b.Float64()
	return errA == nil && errB == nil && fa == fb
}

// sameLeaf reports whether the JSON values a and b (decoded by
// decodeNumbers), not objects, are the same setting: numbers equal as
// numbers (sameNumber), arrays element by element, anything else as
// printed.
func sameLeaf(a, b interface{}) bool {
	switch a := a.(type) {
	case json.Number:
		nb, ok := b.(json.Number)
		return ok && sameNumber(a, nb)
	case []interface{}:
		bs, ok := b.([]interface{})
		if !ok || len(a) != len(bs) {
			return false
		}
		for i := range a {
			if !sameLeaf(a[i], bs[i]) {
				return false
			}
		}
		return true
	}
	return fmt.Sprint(a) == fmt.Sprint(b)
}

// specDiff compares the JSON values a (the checkpoint's) and b (this
// run's) of the setting name as settingDiffs does, and returns an error
// wrapping ErrOtherSettings that lists every setting that differs, with
// both values as JSON. Its message has no package prefix: the caller says
// where the run is kept.
func specDiff(name string, a, b interface{}) error {
	diffs := settingDiffs(name, a, b, nil)
	if len(diffs) == 0 {
		return nil
	}
	text := make([]string, len(diffs))
	for k, d := range diffs {
		switch {
		case d.noA:
			text[k] = fmt.Sprintf("no %s (this run %s)", d.name, compactJSON(d.b))
		case d.noB:
			text[k] = fmt.Sprintf("%s %s (this run has no such setting)", d.name, compactJSON(d.a))
		default:
			text[k] = fmt.Sprintf("%s %s (this run %s)", d.name, compactJSON(d.a), compactJSON(d.b))
		}
	}
	return fmt.Errorf("the run kept there has other settings: %s; use another directory: %w", strings.Join(text, ", "), ErrOtherSettings)
}

// settingDiff is a setting in which two decoded JSON specifications
// differ: its dotted name and its values, nil where a specification lacks
// it (noA and noB say which).
type settingDiff struct {
	name     string
	a, b     interface{}
	noA, noB bool
}

// settingDiffs appends to out every setting at or below name in which
// the JSON values a and b differ, and returns out. It descends into
// objects key by key in sorted order and into arrays of objects of the
// same length element by element (Params[1].Init); any other value, an
// array of numbers too, is one setting compared by sameLeaf.
func settingDiffs(name string, a, b interface{}, out []settingDiff) []settingDiff {
	ma, okA := a.(map[string]interface{})
	mb, okB := b.(map[string]interface{})
	if okA && okB {
		return objectDiffs(name, ma, mb, out)
	}
	la, okA := a.([]interface{})
	lb, okB := b.([]interface{})
	if okA && okB && len(la) == len(lb) && len(la) > 0 && allObjects(la) && allObjects(lb) {
		for i := range la {
			out = settingDiffs(fmt.Sprintf("%s[%d]", name, i), la[i], lb[i], out)
		}
		return out
	}
	if !sameLeaf(a, b) {
		out = append(out, settingDiff{name: name, a: a, b: b})
	}
	return out
}

// objectDiffs is settingDiffs for two objects.
func objectDiffs(name string, a, b map[string]interface{}, out []settingDiff) []settingDiff {
	keys := make([]string, 0, len(a)+len(b))
	for k := range a {
		keys = append(keys, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		sub := k
		if name != "" {
			sub = name + "." + k
		}
		_, inA := a[k]
		_, inB := b[k]
		switch {
		case !inA:
			out = append(out, settingDiff{name: sub, b: b[k], noA: true})
		case !inB:
			out = append(out, settingDiff{name: sub, a: a[k], noB: true})
		default:
			out = settingDiffs(sub, a[k], b[k], out)
		}
	}
	return out
}

// allObjects reports whether every element of the JSON array l is an
// object.
func allObjects(l []interface{}) bool {
	for _, v := range l {
		if _, ok := v.(map[string]interface{}); !ok {
			return false
		}
	}
	return true
}

// compactJSON returns the decoded JSON value v as JSON on one line.
func compactJSON(v interface{}) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// A SettingDiff is a setting in which two runs differ: its dotted name,
// as "Team.LR" or "Iterations", and its value in each as JSON text, as
// "0.003" or "[32,32]".
type SettingDiff struct {
	Name string
	A, B string
}

// DiffRunSpecs returns the settings in which the paired runs a and b
// differ, with their defaults filled in (RunSpec.WithDefaults; Team.Kind
// is ignored), in the order of their sorted names, or nil if none does.
// Unlike CheckRunDir it counts Iterations too: two runs of one
// environment trained for another number of frames differ there. An
// array, as Team.Hidden, is one setting; a Maker is not compared.
func DiffRunSpecs(a, b RunSpec) []SettingDiff {
	var ja, jb interface{}
	if decodeNumbers(mustJSON(a.withDefaults()), &ja) != nil || decodeNumbers(mustJSON(b.withDefaults()), &jb) != nil {
		panic("learn: a RunSpec's JSON does not decode")
	}
	var out []SettingDiff
	for _, d := range settingDiffs("", ja, jb, nil) {
		out = append(out, SettingDiff{Name: d.name, A: compactJSON(d.a), B: compactJSON(d.b)})
	}
	return out
}

// ReadRunSpec returns the paired run that the run directory dir (of
// Train) records in its spec.json, with the defaults filled in, so that a
// run can be described without the command or program that started it.
// It needs no checkpoint: a finished run kept with its log alone is
// enough. If dir has no spec.json, the error wraps fs.ErrNotExist; if it
// is not a paired run's (a HetGPS run's, say) or records an invalid run,
// ErrCheckpoint.
func ReadRunSpec(dir string) (RunSpec, error) {
	var spec RunSpec
	path, data, decoded, err := readSpecFile(dir, &spec)
	if err != nil {
		return RunSpec{}, err
	}
	if !decoded {
		return RunSpec{}, fmt.Errorf("learn: %s is not the specification of a paired run: %w", path, ErrCheckpoint)
	}
	if err := spec.Check(); err != nil {
		return RunSpec{}, fmt.Errorf("learn: %s: %s: %w", path, strings.TrimPrefix(err.Error(), "learn: "), ErrCheckpoint)
	}
	// The decoder takes keys in any case ("evalEvery"); what it read must
	// also be what the file says, as CheckRunDir will compare them.
	if err := sameSpec(data, mustJSON(spec.withDefaults())); err != nil {
		return RunSpec{}, fmt.Errorf("learn: %s does not record a paired run as hetgain writes it (%s): %w",
			path, strings.TrimPrefix(err.Error(), "learn: "), ErrCheckpoint)
	}
	return spec.withDefaults(), nil
}

// readSpecFile reads dir's spec.json, at path, and decodes it into v,
// refusing a field that v lacks; decoded reports whether it could. The
// error is the file's: it wraps fs.ErrNotExist if there is none.
func readSpecFile(dir string, v interface{}) (path string, data []byte, decoded bool, err error) {
	path = filepath.Join(dir, specFile)
	if data, err = os.ReadFile(path); err != nil {
		return path, nil, false, fmt.Errorf("learn: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	return path, data, dec.Decode(v) == nil, nil
}

func readCheckpoint(path string) (*checkpoint, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var ck checkpoint
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&ck); err != nil {
		return nil, fmt.Errorf("learn: checkpoint %s: %v: %w", path, err, ErrCheckpoint)
	}
	if err := ck.check(); err != nil {
		return nil, fmt.Errorf("learn: checkpoint %s: %w", path, err)
	}
	return &ck, nil
}

// check returns an error wrapping ErrCheckpoint if ck cannot be a
// checkpoint written by this package: another version, a negative count
// of iterations, frames or optimiser steps, a parameter or optimiser
// moment that is NaN or infinite, or a negative second moment. (Training
// stops with ErrDiverged before it would write any of these.)
func (ck *checkpoint) check() error {
	if ck.Version != 1 {
		return fmt.Errorf("version %d, want 1: %w", ck.Version, ErrCheckpoint)
	}
	if ck.Iteration < 0 {
		return fmt.Errorf("iteration %d: %w", ck.Iteration, ErrCheckpoint)
	}
	for k, t := range ck.Teams {
		if t.Iter < 0 || t.Frames < 0 || t.ActorStep < 0 || t.CriticStep < 0 {
			return fmt.Errorf("team %d at iteration %d with %d frames, Adam steps %d and %d: %w",
				k, t.Iter, t.Frames, t.ActorStep, t.CriticStep, ErrCheckpoint)
		}
		if err := t.checkValues(); err != nil {
			return fmt.Errorf("team %d: %w", k, err)
		}
	}
	return nil
}

// finite reports whether x is neither NaN nor infinite.
func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// checkValues returns an error wrapping ErrCheckpoint naming the first
// non-finite value of s, or negative Adam second moment.
func (s *teamState) checkValues() error {
	for _, v := range []struct {
		name   string
		x      []float64
		nonNeg bool
	}{
		{"actor parameter", s.Actor, false}, {"critic parameter", s.Critic, false},
		{"actor Adam mean", s.ActorM, false}, {"critic Adam mean", s.CriticM, false},
		{"actor Adam variance", s.ActorV, true}, {"critic Adam variance", s.CriticV, true},
	} {
		for i, x := range v.x {
			if !finite(x) || (v.nonNeg && x < 0) {
				return fmt.Errorf("%s %d is %v: %w", v.name, i, x, ErrCheckpoint)
			}
		}
	}
	return nil
}

// readLog returns the first n data rows of the log at path, checking the
// header (splitLogRows: an older log's rows come in header's layout).
// Rows after the first n, which the checkpoint does not cover and a
// resumed run writes again, are not read: a crash may have cut the last
// of them short.
func readLog(path string, header []string, n int) ([][]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("learn: log of the checkpoint: %v: %w", err, ErrCheckpoint)
	}
	lines := logLines(data)
	if len(lines) > n+1 {
		lines = lines[:n+1] // the header and n rows
	}
	rows, err := splitLogRows(path, lines, header)
	if err != nil {
		return nil, err
	}
	if len(rows) < n {
		return nil, fmt.Errorf("learn: log %s has %d rows, the checkpoint covers %d: %w", path, len(rows), n, ErrCheckpoint)
	}
	return rows[:n], nil
}

// rewriteLog writes the header and rows to a fresh log and keeps it open
// for appending.
func (s *store) rewriteLog(rows [][]string) error {
	var b strings.Builder
	b.WriteString(strings.Join(s.header, ",") + "\n")
	for _, r := range rows {
		b.WriteString(strings.Join(r, ",") + "\n")
	}
	path := filepath.Join(s.dir, logFile)
	if err := atomicfile.WriteBytes(path, []byte(b.String())); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	s.log, s.w = f, bufio.NewWriter(f)
	return nil
}

// append writes one log row and flushes it to the file.
func (s *store) append(row []string) error {
	if s == nil {
		return nil
	}
	if _, err := s.w.WriteString(strings.Join(row, ",") + "\n"); err != nil {
		return err
	}
	return s.w.Flush()
}

// save writes ck atomically, after syncing the log to disk: a checkpoint
// covers log rows, so they must be durable before it is.
func (s *store) save(ck *checkpoint) error {
	if s == nil {
		return nil
	}
	if err := s.log.Sync(); err != nil {
		return fmt.Errorf("learn: sync the log before the checkpoint: %w", err)
	}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(ck); err != nil {
		return err
	}
	return atomicfile.WriteBytes(filepath.Join(s.dir, checkpointFile), buf.Bytes())
}

func (s *store) close() error {
	if s == nil || s.log == nil {
		return nil
	}
	return s.log.Close()
}

// formatFloat writes v with full precision ("NaN" for NaN).
func formatFloat(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// parseFloat reads a value written by formatFloat.
func parseFloat(s string) (float64, error) { return strconv.ParseFloat(s, 64) }
