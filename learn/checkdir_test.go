package learn

import (
	"errors"
	"io/fs"
	"strings"
	"testing"
)

// TestCheckRunDir checks that CheckRunDir accepts the directory of the
// same run (also at another number of iterations), names the setting of
// another run, and reports a directory without a run.
func TestCheckRunDir(t *testing.T) {
	spec := smallSpec(2)
	dir := t.TempDir()
	mustTrain(t, spec, Options{Dir: dir})
	if err := CheckRunDir(dir, spec); err != nil {
		t.Errorf("same run: %v", err)
	}
	longer := smallSpec(7)
	if err := CheckRunDir(dir, longer); err != nil {
		t.Errorf("same run, more iterations: %v", err)
	}
	other := smallSpec(2)
	other.Team.Clip = 0.3
	if err := CheckRunDir(dir, other); !errors.Is(err, ErrCheckpoint) || !strings.Contains(err.Error(), "Team.Clip") {
		t.Errorf("other clip: %v, want ErrCheckpoint naming Team.Clip", err)
	}
	other = smallSpec(2)
	other.Env.U = "mean"
	if err := CheckRunDir(dir, other); !errors.Is(err, ErrCheckpoint) || !strings.Contains(err.Error(), "Env.U") {
		t.Errorf("other U: %v, want ErrCheckpoint naming Env.U", err)
	}
	if err := CheckRunDir(t.TempDir(), spec); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("empty directory: %v, want fs.ErrNotExist", err)
	}
	bad := smallSpec(2)
	bad.Team.Clip = -1
	if err := CheckRunDir(dir, bad); !errors.Is(err, ErrConfig) {
		t.Errorf("invalid spec: %v, want ErrConfig", err)
	}
}

// TestCheckHetGPSDir does the same for a HetGPS run directory.
func TestCheckHetGPSDir(t *testing.T) {
	spec := hetgpsSmallCapture(3, 2)
	dir := t.TempDir()
	if _, err := HetGPS(spec, Options{Dir: dir}); err != nil {
		t.Fatal(err)
	}
	if err := CheckHetGPSDir(dir, spec); err != nil {
		t.Errorf("same run: %v", err)
	}
	if err := CheckHetGPSDir(dir, hetgpsSmallCapture(3, 9)); err != nil {
		t.Errorf("same run, more iterations: %v", err)
	}
	other := hetgpsSmallCapture(3, 2)
	other.Params[1].High = 5
	if err := CheckHetGPSDir(dir, other); !errors.Is(err, ErrCheckpoint) || !strings.Contains(err.Error(), "Params") {
		t.Errorf("other bounds: %v, want ErrCheckpoint naming Params", err)
	}
	other = hetgpsSmallCapture(3, 2)
	other.Descent = true
	if err := CheckHetGPSDir(dir, other); !errors.Is(err, ErrCheckpoint) || !strings.Contains(err.Error(), "Descent") {
		t.Errorf("descent: %v, want ErrCheckpoint naming Descent", err)
	}
	// A paired run's directory is not a HetGPS run.
	pairDir := t.TempDir()
	mustTrain(t, smallSpec(1), Options{Dir: pairDir})
	if err := CheckHetGPSDir(pairDir, spec); !errors.Is(err, ErrCheckpoint) {
		t.Errorf("paired run's directory: %v, want ErrCheckpoint", err)
	}
}
