package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWrite checks that Write replaces the file, and that a failed write
// leaves the old content and no temporary file behind.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f.txt")
	if err := WriteBytes(path, []byte("old")); err != nil {
		t.Fatal(err)
	}
	if err := WriteBytes(path, []byte("new")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "new" {
		t.Errorf("content %q, want new", b)
	}
	boom := errors.New("boom")
	err := Write(path, func(w io.Writer) error {
		io.WriteString(w, "half")
		return boom
	})
	if !errors.Is(err, boom) {
		t.Errorf("failed write: %v, want boom", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "new" {
		t.Errorf("after a failed write: content %q, want new", b)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("%d files in the directory, want 1 (no temporary file left)", len(entries))
	}
	if err := WriteBytes(filepath.Join(dir, "missing", "f.txt"), nil); err == nil {
		t.Error("write into a missing directory: no error")
	}
	// A rename that fails (over a directory that is not empty) leaves no
	// temporary file either.
	sub := filepath.Join(dir, "sub")
	if err := os.MkdirAll(filepath.Join(sub, "inside"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := WriteBytes(sub, []byte("x")); err == nil {
		t.Error("write over a directory: no error")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("%d entries after a failed rename, want 2 (f.txt and sub)", len(entries))
	}
}

// TestWriteMode checks the permissions of the files Write leaves: 0644
// for a new file (not the 0600 of a temporary file), the old file's for a
// replaced one.
func TestWriteMode(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f.txt")
	mode := func() os.FileMode {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		return fi.Mode().Perm()
	}
	if err := WriteBytes(path, []byte("a")); err != nil {
		t.Fatal(err)
	}
	if m := mode(); m != 0o644 {
		t.Errorf("new file: mode %v, want 0644", m)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := WriteBytes(path, []byte("b")); err != nil {
		t.Fatal(err)
	}
	if m := mode(); m != 0o600 {
		t.Errorf("replaced 0600 file: mode %v, want 0600", m)
	}
}

// TestWriteErrorsNamePath checks that the errors of Write name the path
// it was given, not the temporary file: the user never sees that name.
func TestWriteErrorsNamePath(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "sub")
	if err := os.MkdirAll(filepath.Join(sub, "inside"), 0o755); err != nil {
		t.Fatal(err)
	}
	full := errors.New("disk full")
	for _, c := range []struct {
		name, path string
		write      func(io.Writer) error
		want       string
	}{
		{"missing directory", filepath.Join(dir, "missing", "f.txt"), nil, "open " + filepath.Join(dir, "missing", "f.txt") + ": "},
		{"a directory", sub, nil, "open " + sub + ": is a directory"},
		{"failed write", filepath.Join(dir, "f.txt"), func(w io.Writer) error {
			return &os.PathError{Op: "write", Path: w.(*os.File).Name(), Err: full}
		}, "write " + filepath.Join(dir, "f.txt") + ": disk full"},
	} {
		write := c.write
		if write == nil {
			write = func(w io.Writer) error { return nil }
		}
		err := Write(c.path, write)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) || strings.Contains(err.Error(), ".tmp") {
			t.Errorf("%s: error %v, want one starting %q and naming no temporary file", c.name, err, c.want)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("%d entries after the failed writes, want 1 (sub)", len(entries))
	}
}

// TestWriteThroughSymlink checks that writing to a symbolic link (and to
// a chain of two, relative and absolute) replaces the file it points to
// and keeps the link, that a dangling link creates its target, and that a
// loop of links is an error naming the path.
func TestWriteThroughSymlink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target.txt")
	if err := os.WriteFile(target, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	link, chain := filepath.Join(dir, "link.txt"), filepath.Join(dir, "chain.txt")
	if err := os.Symlink("target.txt", link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	if err := os.Symlink(link, chain); err != nil {
		t.Fatal(err)
	}
	for k, p := range []string{link, chain} {
		want := []string{"via link", "via chain"}[k]
		if err := WriteBytes(p, []byte(want)); err != nil {
			t.Fatal(err)
		}
		if got, err := os.ReadFile(target); err != nil || string(got) != want {
			t.Errorf("write to %s: target holds %q, %v; want %q", p, got, err, want)
		}
		if fi, err := os.Lstat(p); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Errorf("write to %s replaced the link: %v, %v", p, fi.Mode(), err)
		}
	}
	if fi, err := os.Stat(target); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("target mode %v, %v; want the target's own 0600", fi.Mode().Perm(), err)
	}

	dangling := filepath.Join(dir, "dangling.txt")
	if err := os.Symlink("new.txt", dangling); err != nil {
		t.Fatal(err)
	}
	if err := WriteBytes(dangling, []byte("new")); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(filepath.Join(dir, "new.txt")); err != nil || string(got) != "new" {
		t.Errorf("dangling link: its target holds %q, %v", got, err)
	}

	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	if err := os.Symlink("b", a); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("a", b); err != nil {
		t.Fatal(err)
	}
	if err := WriteBytes(a, []byte("x")); err == nil || !strings.Contains(err.Error(), "too many levels of symbolic links") {
		t.Errorf("a loop of links: %v, want ELOOP", err)
	}
}
