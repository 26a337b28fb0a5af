package reproduce

import (
	"errors"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/hetgain/hetgain/learn"
)

func TestHetGPSFamily(t *testing.T) {
	for _, c := range []struct {
		spec, family string
		boundary     float64
	}{
		{"softmax(0)", "softmax", 0}, {" LSE(2) ", "lse", 0}, {"powersum(1)", "powersum", 1},
		{"powermean(3)", "powermean", 1}, {"meanpower(1)", "powersum", 1}, {"min", "min", math.NaN()},
	} {
		f, b := HetGPSFamily(c.spec)
		if f != c.family || !(b == c.boundary || math.IsNaN(b) && math.IsNaN(c.boundary)) {
			t.Errorf("HetGPSFamily(%q) = %q, %v; want %q, %v", c.spec, f, b, c.family, c.boundary)
		}
	}
}

// TestReadHetGPSExperiment reads back, from their directories alone, an
// experiment run here (all seeds, and seeds 2 to 3 only), and every stored
// preset in testdata, which must give the preset's own outcomes.
func TestReadHetGPSExperiment(t *testing.T) {
	e := hetgpsTiny(2, 4)
	dir := t.TempDir()
	want, err := RunHetGPSExperiment(e, HetGPSOptions{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	read, err := ReadHetGPSExperiment(dir)
	if err != nil {
		t.Fatal(err)
	}
	if read.Seeds != 2 || read.FirstSeed != 0 || !reflect.DeepEqual(read.Labels(), []string{"matrix2", "matrix4"}) ||
		read.Family != "softmax" || read.Boundary != 0 || read.Name != filepath.Base(dir) {
		t.Errorf("read %s: %d seeds from %d, settings %v, family %s at %v", read.Name, read.Seeds, read.FirstSeed, read.Labels(), read.Family, read.Boundary)
	}
	got, err := LoadHetGPS(read, dir)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Outcomes(), want.Outcomes()) || !reflect.DeepEqual(got.Trajectories().Records(), want.Trajectories().Records()) {
		t.Error("the experiment read back gives other outcomes or trajectories than the one run")
	}

	later := e
	later.Seeds, later.FirstSeed = 3, 2
	dir2 := t.TempDir()
	if _, err := RunHetGPSExperiment(later, HetGPSOptions{Dir: dir2}); err != nil {
		t.Fatal(err)
	}
	if read, err := ReadHetGPSExperiment(dir2); err != nil || read.Seeds != 3 || read.FirstSeed != 2 || read.Runs() != 4 {
		t.Errorf("seeds 2 to 3: read seeds %d from %d, %d runs (%v); want 3 from 2, 4 runs", read.Seeds, read.FirstSeed, read.Runs(), err)
	}

	for _, name := range HetGPSNames {
		stored := filepath.Join("..", "testdata", "reproductions", "hetgps-"+name)
		read, err := ReadHetGPSExperiment(stored)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		preset, _ := HetGPSLookup(name)
		preset.Seeds = read.Seeds
		fromPreset, err := LoadHetGPS(preset, stored)
		if err != nil {
			t.Fatal(err)
		}
		fromDir, err := LoadHetGPS(read, stored)
		if err != nil {
			t.Fatal(err)
		}
		runs, _ := filepath.Glob(filepath.Join(stored, "*", "seed*"))
		if len(fromDir.Runs) != len(runs) || len(fromPreset.Runs) != len(runs) {
			t.Errorf("%s: %d runs read back, %d with the preset; %d stored", name, len(fromDir.Runs), len(fromPreset.Runs), len(runs))
		}
		if a, b := outcomesBySetting(fromDir), outcomesBySetting(fromPreset); !reflect.DeepEqual(a, b) {
			t.Errorf("%s: outcomes read back\n%v\nwith the preset\n%v", name, a, b)
		}
	}
}

// outcomesBySetting returns r's outcomes keyed by run, whatever the order
// of its settings. A diversity the log does not hold (NaN) becomes -Inf,
// so that reflect.DeepEqual can compare two of them.
func outcomesBySetting(r *HetGPSResults) map[string]HetGPSOutcome {
	out := map[string]HetGPSOutcome{}
	for _, o := range r.Outcomes() {
		for _, d := range []*float64{&o.HetDiversity, &o.HomDiversity} {
			if math.IsNaN(*d) {
				*d = math.Inf(-1)
			}
		}
		out[o.Setting+"/seed"+strconv.Itoa(o.Seed)] = o
	}
	return out
}

// TestReadHetGPSExperimentErrors: no runs, two seeds of a setting that
// are different searches, and settings of different families.
func TestReadHetGPSExperimentErrors(t *testing.T) {
	if _, err := ReadHetGPSExperiment(t.TempDir()); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("empty directory: %v, want fs.ErrNotExist", err)
	}
	if _, err := ReadHetGPSExperiment(filepath.Join(t.TempDir(), "none")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing directory: %v, want fs.ErrNotExist", err)
	}
	e := hetgpsTiny(2, 2)
	dir := t.TempDir()
	if _, err := RunHetGPSExperiment(e, HetGPSOptions{Dir: dir}); err != nil {
		t.Fatal(err)
	}
	other := hetgpsTiny(1, 2)
	other.Settings[0].Spec.ThetaLR = 0.5
	otherDir := t.TempDir()
	if _, err := RunHetGPSExperiment(other, HetGPSOptions{Dir: otherDir}); err != nil {
		t.Fatal(err)
	}
	// Seed 3 of matrix2 from another search.
	if err := os.Rename(filepath.Join(otherDir, "matrix2", "seed1"), filepath.Join(dir, "matrix2", "seed3")); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadHetGPSExperiment(dir); !errors.Is(err, learn.ErrOtherSettings) || !strings.Contains(err.Error(), "seed 3 of matrix2") {
		t.Errorf("seeds of two searches: %v, want ErrOtherSettings naming seed 3 of matrix2", err)
	}
	os.RemoveAll(filepath.Join(dir, "matrix2", "seed3"))
	ps, _ := HetGPSLookup("powersum")
	ps, _ = ps.Only("matrix2")
	ps.Seeds = 1
	ps = ps.WithIterations(2)
	ps.Settings[0].Label = "powersum"
	ps.Settings[0].Spec.Run.Team = e.Settings[0].Spec.Run.Team
	if _, err := RunHetGPSExperiment(ps, HetGPSOptions{Dir: dir}); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadHetGPSExperiment(dir); !errors.Is(err, learn.ErrOtherSettings) || !strings.Contains(err.Error(), "powersum U and T") {
		t.Errorf("settings of two families: %v, want ErrOtherSettings naming both", err)
	}
}
