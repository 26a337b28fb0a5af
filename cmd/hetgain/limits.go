package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/hetgain/hetgain/gain"
	"github.com/hetgain/hetgain/learn"
)

// Upper limits of the flags that size what a command allocates or how
// long it runs. Without them a mistyped value ends the process with the Go
// runtime's "out of memory" and a stack dump, after taking the machine's
// memory. They are far above the paper's settings; the help of each
// command lists those of its flags.
const (
	maxSeeds         = 10000                 // -seeds
	maxIterations    = 1000000               // -iterations
	maxAgents        = 256                   // -N and -M of train and hetgps (the matrix game checks its reward in time cubic in them)
	maxLayers        = learn.MaxHiddenLayers // hidden layers in -hidden
	maxWidth         = learn.MaxHiddenWidth  // units of a hidden layer
	maxEnvs          = 1000000               // -envs
	maxFramesPerIter = 10000000              // -frames-per-iter
	maxEpochs        = 10000                 // -epochs
	maxWorkers       = 1024                  // -workers of train, hetgps and sweep
	maxEpisodes      = 1000000               // -eval-episodes, -task-episodes, -grad-episodes, inspect's -episodes
	maxEpisodeLength = 100000                // -episode-length
	maxJobs          = 256                   // -jobs of reproduce
	maxSearchFloats  = 1 << 24               // -restarts × N × M: the allocations a numerical search keeps
	maxSweepCells    = 1000000               // values of t × values of τ
	maxTableRows     = 100000                // rows of the gains table
	maxMemoryGB      = 4                     // estimated memory of the teams a command trains at once
	maxMemory        = maxMemoryGB << 30
)

// maxRestarts is the upper limit of -restarts: the numerical optimiser's
// own, which the library enforces too.
const maxRestarts = gain.MaxRestarts

// atMost returns a usage error naming the flag unless v <= limit.
func atMost(flag string, v, limit int) error {
	if v > limit {
		return usagef("-%s %d: want at most %d", flag, v, limit)
	}
	return nil
}

// atLeast returns a usage error naming the flag unless v >= least.
func atLeast(flag string, v, least int) error {
	if v < least {
		return usagef("-%s %d: want >= %d", flag, v, least)
	}
	return nil
}

// checkRestarts returns a usage error if -restarts is above maxRestarts
// or, for a numerical search over N×M allocations, keeps more than
// maxSearchFloats numbers.
func checkRestarts(restarts, n, m int) error {
	if err := atMost("restarts", restarts, maxRestarts); err != nil {
		return err
	}
	if float64(restarts)*float64(n)*float64(m) > maxSearchFloats {
		return usagef("-restarts %d with N = %d, M = %d: each search keeps restarts × N × M = %.0f numbers; want at most %d",
			restarts, n, m, float64(restarts)*float64(n)*float64(m), maxSearchFloats)
	}
	return nil
}

// checkOutput returns an error (exit 1) unless a file can be written at
// path: not a directory, in an existing directory that takes new files.
// Commands check their output files before the work that fills them, so
// that a mistyped path does not cost a training. It writes and removes a
// temporary file next to path; path itself is left alone.
func checkOutput(flag, path string) error {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return fmt.Errorf("-%s %s: is a directory; give a file name", flag, path)
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".check*")
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return fmt.Errorf("-%s %s: cannot write there: %v; give a file in an existing, writable directory", flag, path, err)
	}
	f.Close()
	return os.Remove(f.Name())
}

// checkFirstSeed returns a usage error if -first-seed first is outside
// [0, seeds], seeds being -seeds of a command that trains seeds first to
// seeds.
func checkFirstSeed(first, seeds int) error {
	if first < 0 || first > seeds {
		return usagef("-first-seed %d: want 0 to -seeds (%d)", first, seeds)
	}
	return nil
}
