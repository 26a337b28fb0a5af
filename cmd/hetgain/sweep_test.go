package main

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/hetgain/hetgain/aggregators"
	"github.com/hetgain/hetgain/gain"
	"github.com/hetgain/hetgain/tables"
)

func writeFrameCSV(w io.Writer, res gain.SweepResult) error { return tables.WriteCSV(w, res.Frame()) }

// tinySweep is a 3x3 sweep of the paper's Figure 2 setting.
var tinySweep = []string{"sweep", "-u", "softmax", "-t", "softmax", "-n", "2", "-m", "2", "-from", "-1", "-to", "2", "-steps", "3", "-seed", "7"}

func sweepArgs(dir string, extra ...string) []string {
	return append(append(append([]string(nil), tinySweep...), "-out", dir), extra...)
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// csvRows returns the data rows of a CSV file, sorted, and its header.
func csvRows(t *testing.T, path string) (header string, rows []string) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(readFile(t, path), "\n"), "\n")
	rows = append(rows, lines[1:]...)
	sort.Strings(rows)
	return lines[0], rows
}

func checkPNG(t *testing.T, path string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s does not decode as PNG: %v", path, err)
	}
	if b := img.Bounds(); b.Dx() < 100 || b.Dy() < 100 {
		t.Errorf("%s is only %dx%d", path, b.Dx(), b.Dy())
	}
}

func TestSweepTiny(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	code, out, errOut := runArgs(sweepArgs(dir)...)
	if code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	for _, want := range []string{"9 cells", "largest ΔR = ", "wrote " + filepath.Join(dir, "sweep.csv"), "wrote " + filepath.Join(dir, "heatmap.png")} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(errOut, "sweep: 9/9 cells (100.0%)") {
		t.Errorf("stderr has no final progress line: %q", errOut)
	}
	checkPNG(t, filepath.Join(dir, "heatmap.png"))

	// The CSV is the library's sweep, in grid order, at full precision.
	res, err := gain.Sweep(gain.SweepSpec{
		Outer: "softmax", Inner: "softmax", OuterParams: []float64{-1, 0.5, 2}, InnerParams: []float64{-1, 0.5, 2},
		N: 2, M: 2, Options: gain.Options{Seed: 7},
	})
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	if err := writeFrameCSV(&want, res); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, filepath.Join(dir, "sweep.csv")); got != want.String() {
		t.Errorf("sweep.csv:\n%s\nwant\n%s", got, want.String())
	}
	if !strings.HasPrefix(want.String(), "InnerParam,OuterParam,N,M,RHet,RHom,Gain,Bound\n-1,-1,2,2,") {
		t.Errorf("unexpected layout:\n%s", want.String())
	}

	// The same command again continues (here: completes) the sweep; one
	// with other settings needs another -out or -force (not -resume, which
	// would continue the sweep there and refuse the other settings).
	code, out, errOut = runArgs(sweepArgs(dir)...)
	if code != exitOK || !strings.Contains(errOut, "continuing the sweep in") || !strings.Contains(out, "(9 resumed)") ||
		readFile(t, filepath.Join(dir, "sweep.csv")) != want.String() {
		t.Errorf("same command again: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	code, _, errOut = runArgs(sweepArgs(dir, "-seed", "8")...)
	if code != exitUsage || !strings.Contains(errOut, "holds another sweep (with seed = 7, not 8): use another -out, or -force") ||
		strings.Contains(errOut, "-resume") {
		t.Errorf("other settings: exit %d, stderr %q", code, errOut)
	}
	if code, _, errOut = runArgs(sweepArgs(dir, "-force", "-quiet")...); code != exitOK || errOut != "" {
		t.Errorf("-force -quiet: exit %d, stderr %q", code, errOut)
	}
	// Resuming a complete sweep computes nothing and changes nothing.
	code, out, _ = runArgs("sweep", "-resume", "-out", dir)
	if code != exitOK || !strings.Contains(out, "(9 resumed)") || readFile(t, filepath.Join(dir, "sweep.csv")) != want.String() {
		t.Errorf("resume of a complete sweep: exit %d\n%s", code, out)
	}
	// Flags given with -resume must agree with the sweep.
	code, _, errOut = runArgs("sweep", "-resume", "-out", dir, "-n", "3")
	if code != exitUsage || !strings.Contains(errOut, "-n: the sweep in") || !strings.Contains(errOut, "N = 2, not 3") {
		t.Errorf("resume with another -n: exit %d, stderr %q", code, errOut)
	}
	if code, _, errOut = runArgs("sweep", "-resume", "-out", dir, "-t", "SoftMax", "-steps", "3"); code != exitOK {
		t.Errorf("resume with agreeing flags: exit %d, stderr %q", code, errOut)
	}
}

// TestSweepDownwards checks that a sweep whose grid runs downwards
// (-from 2 -to -1) draws the same heat map as the same grid run upwards:
// its cells are the same, and the picture's axes increase either way.
func TestSweepDownwards(t *testing.T) {
	up, down := filepath.Join(t.TempDir(), "up"), filepath.Join(t.TempDir(), "down")
	for _, run := range [][]string{
		{"sweep", "-u", "softmax", "-t", "softmax", "-n", "2", "-m", "2", "-from", "-1", "-to", "2", "-steps", "3", "-seed", "7", "-quiet", "-out", up},
		{"sweep", "-u", "softmax", "-t", "softmax", "-n", "2", "-m", "2", "-from", "2", "-to", "-1", "-steps", "3", "-seed", "7", "-quiet", "-out", down},
	} {
		if code, _, errOut := runArgs(run...); code != exitOK {
			t.Fatalf("%v: exit %d, stderr %q", run, code, errOut)
		}
	}
	if readFile(t, filepath.Join(down, "heatmap.png")) != readFile(t, filepath.Join(up, "heatmap.png")) {
		t.Error("the heat map of the downward grid differs from that of the upward one")
	}
}

// TestSweepInterruptAndResume stops a sweep after k cells, as Ctrl-C
// would, checks that the CSV keeps exactly those k cells, and resumes it;
// the final CSV must equal that of an uninterrupted sweep.
func TestSweepInterruptAndResume(t *testing.T) {
	ref := filepath.Join(t.TempDir(), "ref")
	if code, _, errOut := runArgs(sweepArgs(ref)...); code != exitOK {
		t.Fatalf("uninterrupted sweep: exit %d, %s", code, errOut)
	}
	refCSV := readFile(t, filepath.Join(ref, "sweep.csv"))
	refHeader, refRows := csvRows(t, filepath.Join(ref, "sweep.csv"))

	for _, k := range []int{0, 1, 4, 8} {
		t.Run(fmt.Sprint(k), func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "out")
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var out, errb bytes.Buffer
			a := newApp(ctx, &out, &errb)
			var calls int32
			a.solve = func(r *aggregators.Reward, n, m int, kind gain.Allocation, opts *gain.Options) (gain.Gains, error) {
				g, err := gain.Numerical(r, n, m, kind, opts)
				if atomic.AddInt32(&calls, 1) >= int32(k) {
					cancel() // the signal arrives while cell k runs
				}
				return g, err
			}
			if k == 0 {
				cancel()
			}
			code := a.run(sweepArgs(dir, "-workers", "1"))
			if code != exitInterrupted {
				t.Fatalf("exit %d, want %d; stderr %q", code, exitInterrupted, errb.String())
			}
			resume := "hetgain sweep -resume -out " + dir
			if !strings.Contains(errb.String(), fmt.Sprintf("interrupted: %d of 9 cells done", k)) || !strings.Contains(errb.String(), resume) {
				t.Errorf("stderr does not say what was kept and how to resume:\n%s", errb.String())
			}
			header, rows := csvRows(t, filepath.Join(dir, "sweep.csv"))
			if header != refHeader || len(rows) != k {
				t.Fatalf("interrupted CSV: header %q, %d rows; want %d", header, len(rows), k)
			}
			for _, r := range rows {
				if i := sort.SearchStrings(refRows, r); i == len(refRows) || refRows[i] != r {
					t.Errorf("row %q is not a row of the uninterrupted sweep", r)
				}
			}
			if k > 0 {
				checkPNG(t, filepath.Join(dir, "heatmap.png"))
			} else if _, err := os.Stat(filepath.Join(dir, "heatmap.png")); err == nil {
				t.Error("heat map drawn with no finished cell")
			}

			code, stdout, errOut := runArgs("sweep", "-resume", "-out", dir)
			if code != exitOK {
				t.Fatalf("resume: exit %d, stderr %q", code, errOut)
			}
			if k > 0 && !strings.Contains(stdout, fmt.Sprintf("(%d resumed)", k)) {
				t.Errorf("resume output: %q", stdout)
			}
			if _, got := csvRows(t, filepath.Join(dir, "sweep.csv")); strings.Join(got, "\n") != strings.Join(refRows, "\n") {
				t.Errorf("rows after resume differ from the uninterrupted sweep:\n%s\nwant\n%s", got, refRows)
			}
			if got := readFile(t, filepath.Join(dir, "sweep.csv")); got != refCSV {
				t.Errorf("sweep.csv after resume is not byte-identical to the uninterrupted sweep's")
			}
			checkPNG(t, filepath.Join(dir, "heatmap.png"))
		})
	}
}

// TestSweepResumeAfterKill resumes a sweep whose CSV ends with a line cut
// short, as a process killed while writing would leave it.
func TestSweepResumeAfterKill(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	if code, _, errOut := runArgs(sweepArgs(dir)...); code != exitOK {
		t.Fatalf("exit %d, %s", code, errOut)
	}
	path := filepath.Join(dir, "sweep.csv")
	full := readFile(t, path)
	lines := strings.SplitAfter(full, "\n")
	resumeCut(t, dir, strings.Join(lines[:4], "")+lines[4][:5], 3, full) // 3 rows and part of a fourth

	// A malformed row before the last is an error.
	bad := strings.Join(lines[:2], "") + "1,2\n" + strings.Join(lines[2:], "")
	if err := os.WriteFile(path, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runArgs("sweep", "-resume", "-out", dir); code != exitError || !strings.Contains(errOut, "wrong number of fields") {
		t.Errorf("malformed row: exit %d, stderr %q", code, errOut)
	}

	// A row that is not on the grid is an error, not silently dropped.
	bad = strings.Join(lines[:2], "") + "0.25,-1,2,2,0.5,0.5,0,0\n"
	if err := os.WriteFile(path, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := runArgs("sweep", "-resume", "-out", dir)
	if code != exitError || !strings.Contains(errOut, "line 3: t = 0.25, τ = -1 is not on the sweep's grid") {
		t.Errorf("off-grid row: exit %d, stderr %q", code, errOut)
	}

	// A NaN gain is a damaged file (exit 1, naming it), not a bad command.
	first := strings.Split(strings.TrimSuffix(lines[2], "\n"), ",")
	first[4] = "NaN"
	bad = strings.Join(lines[:2], "") + strings.Join(first, ",") + "\n"
	if err := os.WriteFile(path, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut = runArgs("sweep", "-resume", "-out", dir)
	if want := path + ", line 3: RHet = NaN is not a finite number"; code != exitError || !strings.Contains(errOut, want) {
		t.Errorf("NaN row: exit %d, stderr %q; want exit %d with %q", code, errOut, exitError, want)
	}
}

// TestSweepCellError checks that a failing cell stops the sweep with exit
// status 1, keeping the finished cells and saying how to continue.
func TestSweepCellError(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	var out, errb bytes.Buffer
	a := newApp(context.Background(), &out, &errb)
	var calls int32
	a.solve = func(r *aggregators.Reward, n, m int, kind gain.Allocation, opts *gain.Options) (gain.Gains, error) {
		if atomic.AddInt32(&calls, 1) == 3 {
			return gain.Gains{}, fmt.Errorf("optimiser diverged")
		}
		return gain.Numerical(r, n, m, kind, opts)
	}
	code := a.run(sweepArgs(dir, "-workers", "1"))
	if code != exitError || !strings.Contains(errb.String(), "optimiser diverged") ||
		!strings.Contains(errb.String(), "2 of 9 cells are in") || !strings.Contains(errb.String(), "-resume") {
		t.Errorf("exit %d, stderr %q", code, errb.String())
	}
	if _, rows := csvRows(t, filepath.Join(dir, "sweep.csv")); len(rows) != 2 {
		t.Errorf("%d rows kept, want 2", len(rows))
	}
}

func TestSweepOtherFamilies(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	code, _, errOut := runArgs("sweep", "-u", "powersum", "-t", "powersum", "-t-from", "0.5", "-t-to", "3", "-t-steps", "3",
		"-tau-from", "0.5", "-tau-to", "1", "-tau-steps", "2", "-n", "2", "-m", "3", "-quiet", "-out", dir)
	if code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	header, rows := csvRows(t, filepath.Join(dir, "sweep.csv"))
	if header != "InnerParam,OuterParam,N,M,RHet,RHom,Gain" || len(rows) != 6 {
		t.Errorf("header %q, %d rows", header, len(rows))
	}
	// A one-row grid gets a CSV but no heat map.
	dir = filepath.Join(t.TempDir(), "line")
	code, _, errOut = runArgs("sweep", "-u", "softmax", "-t", "lse", "-tau-steps", "1", "-tau-from", "1", "-tau-to", "1", "-t-from", "-1", "-t-to", "2", "-t-steps", "3", "-quiet", "-out", dir)
	if code != exitOK || !strings.Contains(errOut, "no heat map") {
		t.Errorf("one row: exit %d, stderr %q", code, errOut)
	}
	if _, rows := csvRows(t, filepath.Join(dir, "sweep.csv")); len(rows) != 3 {
		t.Errorf("one row: %d cells", len(rows))
	}
	// A parameter outside its family's domain is a usage error, caught
	// before anything is written.
	dir = filepath.Join(t.TempDir(), "bad")
	code, _, errOut = runArgs("sweep", "-u", "softmax", "-t", "lse", "-from", "-1", "-to", "1", "-steps", "3", "-out", dir)
	if code != exitUsage || !strings.Contains(errOut, `T: value 1 of the grid, 0: `) || !strings.Contains(errOut, "lse parameter must not be 0") {
		t.Errorf("lse(0): exit %d, stderr %q", code, errOut)
	}
	if _, err := os.Stat(dir); err == nil {
		t.Error("lse(0): the output directory was created")
	}
}

// Example_sweep runs a 3x3 sweep of the paper's Figure 2 setting and
// prints the CSV it writes, rounded.
func Example_sweep() {
	dir, err := os.MkdirTemp("", "hetgain-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	// hetgain sweep -u softmax -t softmax -n 2 -m 2 -from -1 -to 2 -steps 3 -out DIR
	code := run([]string{"sweep", "-u", "softmax", "-t", "softmax", "-n", "2", "-m", "2",
		"-from", "-1", "-to", "2", "-steps", "3", "-quiet", "-out", dir}, io.Discard, os.Stderr)
	if code != 0 {
		panic(code)
	}
	b, err := os.ReadFile(filepath.Join(dir, "sweep.csv"))
	if err != nil {
		panic(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	fmt.Println(lines[0])
	for _, line := range lines[1:] {
		var t, tau, het, hom, g, bound float64
		var n, m int
		fmt.Sscanf(strings.ReplaceAll(line, ",", " "), "%g %g %d %d %g %g %g %g", &t, &tau, &n, &m, &het, &hom, &g, &bound)
		fmt.Printf("t = %4.1f  τ = %4.1f  R_het = %.4f  R_hom = %.4f  ΔR = %.4f  bound %.4f\n", t, tau, het, hom, g, bound)
	}
	// Output:
	// InnerParam,OuterParam,N,M,RHet,RHom,Gain,Bound
	// t = -1.0  τ = -1.0  R_het = 0.5000  R_hom = 0.5000  ΔR = 0.0000  bound 0.0000
	// t =  0.5  τ = -1.0  R_het = 0.6225  R_hom = 0.5000  ΔR = 0.1225  bound 0.1225
	// t =  2.0  τ = -1.0  R_het = 0.8808  R_hom = 0.5000  ΔR = 0.3808  bound 0.3808
	// t = -1.0  τ =  0.5  R_het = 0.6225  R_hom = 0.6225  ΔR = 0.0000  bound 0.0000
	// t =  0.5  τ =  0.5  R_het = 0.6225  R_hom = 0.6225  ΔR = 0.0000  bound 0.0000
	// t =  2.0  τ =  0.5  R_het = 0.8808  R_hom = 0.6225  ΔR = 0.2583  bound 0.2583
	// t = -1.0  τ =  2.0  R_het = 0.8808  R_hom = 0.8808  ΔR = 0.0000  bound 0.0000
	// t =  0.5  τ =  2.0  R_het = 0.8808  R_hom = 0.8808  ΔR = 0.0000  bound 0.0000
	// t =  2.0  τ =  2.0  R_het = 0.8808  R_hom = 0.8808  ΔR = 0.0000  bound 0.0000
}

// TestSweepResumeCutInLastField resumes a sweep without a Bound column
// whose CSV ends inside the last field of a row: the row has every field
// but no newline, and its Gain is wrong. It is dropped, not read.
func TestSweepResumeCutInLastField(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	args := sweepArgs(dir, "-u", "powersum", "-t", "powersum", "-from", "0.5", "-to", "2")
	if code, _, errOut := runArgs(args...); code != exitOK {
		t.Fatalf("exit %d, %s", code, errOut)
	}
	path := filepath.Join(dir, "sweep.csv")
	full := readFile(t, path)
	lines := strings.SplitAfter(full, "\n")
	if strings.HasSuffix(lines[0], ",Bound\n") {
		t.Fatalf("header %q: want a sweep without Bound", lines[0])
	}
	row := strings.TrimSuffix(lines[2], "\n") // its Gain has 17 digits
	resumeCut(t, dir, strings.Join(lines[:2], "")+row[:len(row)-3], 1, full)
}

// resumeCut writes cut as the sweep.csv of dir, resumes the sweep, and
// checks that the incomplete last line was dropped with a warning, that
// the rows before it were resumed, and that the CSV is full again.
func resumeCut(t *testing.T, dir, cut string, resumed int, full string) {
	t.Helper()
	path := filepath.Join(dir, "sweep.csv")
	if err := os.WriteFile(path, []byte(cut), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runArgs("sweep", "-resume", "-out", dir)
	if code != exitOK || !strings.Contains(errOut, "dropping an incomplete last line") || !strings.Contains(out, fmt.Sprintf("(%d resumed)", resumed)) {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if readFile(t, path) != full {
		t.Error("resumed CSV differs from the original")
	}
}
