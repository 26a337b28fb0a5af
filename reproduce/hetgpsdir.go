package reproduce

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/hetgain/hetgain/learn"
)

// HetGPSFamily names the family of the aggregator spec ("softmax(0)",
// "powersum(1)", ...) and the parameter at which it turns from
// Schur-concave to Schur-convex: 0 for softmax and lse, 1 for powersum
// and powermean, NaN for any other (no boundary is known). A meanpower
// is the power sum divided by its number of terms, and is of the
// powersum family (so the powersum preset, plain sums in the matrix game
// and divided ones in Multi-goal-capture, is one family).
func HetGPSFamily(spec string) (family string, boundary float64) {
	name, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(spec)), "(")
	switch name {
	case "softmax", "lse":
		return name, 0
	case "meanpower":
		return "powersum", 1
	case "powersum", "powermean":
		return name, 1
	}
	return name, math.NaN()
}

// HetGPSSearch returns the experiment of one search, spec, run over
// seeds 1 to seeds in a setting labelled label, as the command
// "hetgain hetgps" makes it: the families and boundaries of T and U are
// those of spec's operators (HetGPSFamily); the return scale is 1 in the
// matrix game, a tenth of the episode's steps in Multi-goal-capture (as
// its preset) and the episode's steps elsewhere; Expect says what the
// theory predicts for a descent, and for an ascent of τ_T and τ_U (an
// ascent of other parameters: that the gain rises). It returns an error
// wrapping learn.ErrConfig if spec's environment cannot be made.
func HetGPSSearch(name, label string, spec learn.HetGPSSpec, seeds int) (HetGPSExperiment, error) {
	probe, err := spec.Run.Env.New(1)
	if err != nil {
		return HetGPSExperiment{}, fmt.Errorf("reproduce: HetGPS search %s: %w", label, err)
	}
	scale := 1.0
	if spec.Run.Env.Name != "matrix" {
		scale = float64(probe.EpisodeLength())
		if spec.Run.Env.Name == "capture" {
			scale /= 10
		}
	}
	family, boundary := HetGPSFamily(spec.Run.Env.T)
	uFamily, uBoundary := HetGPSFamily(spec.Run.Env.U)
	expect := "the gain rises" // the theory's τ_T up, τ_U down needs both searched
	if names := spec.Names(); indexOf(names, "T.t") >= 0 && indexOf(names, "U.t") >= 0 {
		expect = "T becomes Schur-convex (τ_T rises) and U Schur-concave (τ_U falls), and the gain rises"
	}
	if spec.Descent {
		expect = "the gain falls towards 0"
	}
	return HetGPSExperiment{Name: name, Family: family, Boundary: boundary, UFamily: uFamily, UBoundary: uBoundary,
		Seeds: seeds, Settings: []HetGPSSetting{{Label: label, Spec: spec, Scale: scale}}, Expect: expect}, nil
}

// ReadHetGPSExperiment returns the experiment whose runs the directory
// dir holds, read from their own spec.json files (learn.ReadHetGPSSpec),
// so that a directory of "hetgain hetgps" or "hetgain reproduce hetgps"
// can be loaded (LoadHetGPS) and compared (CompareHetGPS) without the
// command that made it. Each subdirectory of dir with run directories
// seed<k> is a setting, made as HetGPSSearch makes one and named after
// dir; its seeds run from the lowest k to the highest (FirstSeed and
// Seeds), and their searches must be the same but for the seed of the
// teams, seed k's being that of seed 1 plus k − 1, and their
// iterations (the largest count). ReadHetGPSExperiment returns an error
// wrapping fs.ErrNotExist if dir holds no run, learn.ErrOtherSettings if
// two seeds of a setting differ (naming the setting that differs) or
// the settings are of different families, and learn.ErrCheckpoint if a
// spec.json cannot be read.
func ReadHetGPSExperiment(dir string) (HetGPSExperiment, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return HetGPSExperiment{}, fmt.Errorf("reproduce: %w", err)
	}
	var e HetGPSExperiment
	for _, entry := range entries {
		if !entry.IsDir() {
			continue
		}
		s, err := readHetGPSSetting(dir, entry.Name())
		if err != nil {
			return HetGPSExperiment{}, err
		}
		if s.Seeds == 0 {
			continue
		}
		if len(e.Settings) == 0 {
			e = s
			continue
		}
		if s.Family != e.Family || s.UFamily != e.UFamily {
			return HetGPSExperiment{}, fmt.Errorf("reproduce: %s: setting %s searches %s, setting %s %s: %w",
				dir, e.Settings[0].Label, e.families(), entry.Name(), s.families(), learn.ErrOtherSettings)
		}
		e.Settings = append(e.Settings, s.Settings[0])
		e.Seeds = max(e.Seeds, s.Seeds)
		e.FirstSeed = min(e.FirstSeed, s.FirstSeed)
	}
	if len(e.Settings) == 0 {
		return HetGPSExperiment{}, fmt.Errorf("reproduce: %s holds no HetGPS run (<setting>/seed<k>/spec.json): %w", dir, fs.ErrNotExist)
	}
	if e.FirstSeed == 1 {
		e.FirstSeed = 0
	}
	return e, nil
}

// readHetGPSSetting reads the runs of dir/label as ReadHetGPSExperiment
// does; an experiment with Seeds 0 if it holds none. Its FirstSeed is
// always set, 1 included.
func readHetGPSSetting(dir, label string) (HetGPSExperiment, error) {
	paths, err := filepath.Glob(filepath.Join(dir, label, "seed*", "spec.json"))
	if err != nil {
		return HetGPSExperiment{}, fmt.Errorf("reproduce: %w", err)
	}
	var seeds []int
	for _, p := range paths {
		k, err := strconv.Atoi(strings.TrimPrefix(filepath.Base(filepath.Dir(p)), "seed"))
		if err == nil && k >= 1 && filepath.Base(filepath.Dir(p)) == "seed"+strconv.Itoa(k) {
			seeds = append(seeds, k)
		}
	}
	if len(seeds) == 0 {
		return HetGPSExperiment{}, nil
	}
	sort.Ints(seeds)
	first := filepath.Join(dir, label, "seed"+strconv.Itoa(seeds[0]))
	spec, err := learn.ReadHetGPSSpec(first)
	if err != nil {
		return HetGPSExperiment{}, fmt.Errorf("reproduce: %w", err)
	}
	// Seed k runs with the teams' seed of the experiment plus k.
	spec.Run.Team.Seed -= int64(seeds[0])
	for _, k := range seeds[1:] {
		seedDir := filepath.Join(dir, label, "seed"+strconv.Itoa(k))
		other, err := learn.ReadHetGPSSpec(seedDir)
		if err != nil {
			return HetGPSExperiment{}, fmt.Errorf("reproduce: %w", err)
		}
		spec.Run.Iterations = max(spec.Run.Iterations, other.Run.Iterations)
		want := spec
		want.Run.Team.Seed += int64(k)
		if err := learn.CheckHetGPSDir(seedDir, want); err != nil {
			if errors.Is(err, learn.ErrOtherSettings) {
				return HetGPSExperiment{}, fmt.Errorf("reproduce: seed %d of %s is another search than seed %d: %w", k, label, seeds[0], err)
			}
			return HetGPSExperiment{}, fmt.Errorf("reproduce: %w", err)
		}
	}
	e, err := HetGPSSearch(filepath.Base(filepath.Clean(dir)), label, spec, seeds[len(seeds)-1])
	if err != nil {
		return HetGPSExperiment{}, err
	}
	e.FirstSeed = seeds[0]
	return e, nil
}
