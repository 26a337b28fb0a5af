//go:build tools

// Package kerneltools pins the notebook kernel and its build dependencies in
// this module's graph, so that the kernel and the plugins it builds from our
// packages link the very same module versions.
package kerneltools

import (
	_ "github.com/gopherdata/gophernotes"
)
