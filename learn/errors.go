package learn

import (
	"errors"
	"fmt"
)

// Errors wrapped by the errors of this package, for errors.Is.
var (
	// ErrConfig reports a setting outside its domain or an environment
	// that a configuration cannot train.
	ErrConfig = errors.New("invalid configuration")
	// ErrCheckpoint reports a checkpoint or log that cannot be read, or
	// that belongs to a run with other settings.
	ErrCheckpoint = errors.New("invalid checkpoint")
	// ErrOtherSettings reports a run directory that holds a run of other
	// settings (other than in the number of iterations) than the one
	// asked for: from Train and HetGPS resuming there, and from
	// CheckRunDir and CheckHetGPSDir. Those settings need another
	// directory. It wraps ErrCheckpoint, so errors.Is(err, ErrCheckpoint)
	// holds for it too; an unreadable checkpoint, log or spec.json is
	// ErrCheckpoint but not ErrOtherSettings.
	ErrOtherSettings = fmt.Errorf("run of other settings: %w", ErrCheckpoint)
	// ErrStopped reports a run stopped from outside (Options.Stop) after
	// saving what it had done.
	ErrStopped = errors.New("stopped")
	// ErrDiverged reports a NaN or infinite loss or parameter.
	ErrDiverged = errors.New("training diverged")
)
