package atomicfile

import (
	"io"
	"os"
	"path/filepath"
)

// Write creates a temporary file next to path, lets write fill it, syncs
// it to disk and renames it over path. If write or any step fails, path
// is left as it was, the temporary file is removed, and the error is
// returned. The file keeps the permissions of the file it replaces; a new
// file gets 0644 (read for all, as os.WriteFile(path, data, 0o644) under
// the usual umask), not the 0600 of a temporary file.
func Write(path string, write func(io.Writer) error) error {
	mode := os.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm()
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	err = tmp.Chmod(mode)
	if err == nil {
		err = write(tmp)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}

// WriteBytes is Write of data.
func WriteBytes(path string, data []byte) error {
	return Write(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}
