package atomicfile

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// Write creates a temporary file next to path, lets write fill it, syncs
// it to disk and renames it over path. If write or any step fails, path
// is left as it was, the temporary file is removed, and the error is
// returned. The file keeps the permissions of the file it replaces; a new
// file gets 0644 (read for all, as os.WriteFile(path, data, 0o644) under
// the usual umask), not the 0600 of a temporary file.
//
// Errors name path, never the temporary file: a *fs.PathError of the
// temporary file (opening it in a missing directory, a full disk) is
// reported on path, as is a failed rename, and a path that is a
// directory is refused before anything is written. A path that is a
// symbolic link is written through: the file it points to is replaced,
// and the link stays.
func Write(path string, write func(io.Writer) error) error {
	dest, err := linkTarget(path)
	if err != nil {
		return err
	}
	return writeAt(dest, path, write)
}

// maxLinks is the number of symbolic links linkTarget follows, as the
// kernel's limit (ELOOP past it).
const maxLinks = 40

// linkTarget returns the file that path names once symbolic links are
// followed (path itself if it is not a link, or does not exist): the
// file Write replaces, so that writing through a link updates its target
// and keeps the link. A dangling link gives the path it points to.
func linkTarget(path string) (string, error) {
	for hop := 0; hop < maxLinks; hop++ {
		fi, err := os.Lstat(path)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			return path, nil
		}
		to, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(to) {
			to = filepath.Join(filepath.Dir(path), to)
		}
		path = to
	}
	return "", &fs.PathError{Op: "open", Path: path, Err: syscall.ELOOP}
}

// writeAt is Write to the file dest, with errors naming path (the link
// the caller named, or dest itself).
func writeAt(dest, path string, write func(io.Writer) error) error {
	mode := os.FileMode(0o644)
	if fi, err := os.Stat(dest); err == nil {
		if fi.IsDir() {
			return &fs.PathError{Op: "open", Path: path, Err: syscall.EISDIR}
		}
		mode = fi.Mode().Perm()
	}
	tmp, err := os.CreateTemp(filepath.Dir(dest), filepath.Base(dest)+".tmp*")
	if err != nil {
		return onPath(err, "", path)
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
		if err = os.Rename(tmp.Name(), dest); err != nil {
			var le *os.LinkError
			if errors.As(err, &le) {
				err = &fs.PathError{Op: "rename", Path: path, Err: le.Err}
			}
		}
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return onPath(err, tmp.Name(), path)
}

// onPath returns err with the path of its *fs.PathError, if it has one
// and that path is tmp (or any path, for an empty tmp: the error of
// creating the temporary file), replaced by path.
func onPath(err error, tmp, path string) error {
	var pe *fs.PathError
	if err != nil && errors.As(err, &pe) && (tmp == "" || pe.Path == tmp) {
		pe.Path = path
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
