package learn

import "errors"

// Errors wrapped by the errors of this package, for errors.Is.
var (
	// ErrConfig reports a setting outside its domain or an environment
	// that a configuration cannot train.
	ErrConfig = errors.New("invalid configuration")
	// ErrCheckpoint reports a checkpoint or log that cannot be read, or
	// that belongs to a run with other settings.
	ErrCheckpoint = errors.New("invalid checkpoint")
	// ErrStopped reports a run stopped from outside (Options.Stop) after
	// saving what it had done.
	ErrStopped = errors.New("stopped")
	// ErrDiverged reports a NaN or infinite loss or parameter.
	ErrDiverged = errors.New("training diverged")
)
