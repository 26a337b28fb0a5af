// Package atomicfile replaces files so that a reader, or a process killed
// midway, sees either the old content or the whole new one.
package atomicfile
