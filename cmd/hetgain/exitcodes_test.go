package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestMissingInputs checks the rule of doc.go for inputs that are not
// there: every command that reads a directory named on its command line
// fails with exit status 1 (an error, not a bad command line), naming
// it, if the directory is missing or holds none of what it reads.
func TestMissingInputs(t *testing.T) {
	empty := t.TempDir()
	none := filepath.Join(empty, "none")
	stored := filepath.Join("..", "..", "testdata", "reproductions", "tag-large")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"inspect", "-dir", none}, none},
		{[]string{"inspect", "-dir", empty}, "no run checkpoint"},
		{[]string{"reproduce", "matrix2", "-table", "-dir", none}, none},
		{[]string{"reproduce", "matrix2", "-table", "-dir", empty}, empty + " holds none of the 54 runs of matrix2 (looked for continuous/min-min/seed1"},
		{[]string{"reproduce", "matrix2", "-table", "-dir", stored}, stored + " holds none of the 54 runs of matrix2"},
		{[]string{"reproduce", "hetgps", "descent", "-table", "-dir", none}, none},
		{[]string{"reproduce", "hetgps", "descent", "-table", "-dir", stored}, stored + " holds none of the 6 runs of HetGPS descent (looked for matrix2/seed1"},
		{[]string{"compare", none, stored}, none + " has neither runs.csv (of reproduce) nor gains.csv (of train)"},
		{[]string{"compare", stored, empty}, empty + " has neither runs.csv"},
		{[]string{"verdict", "-threshold", "0.5", none}, none + " has neither runs.csv"},
		{[]string{"verdict", "-threshold", "0.5", stored, empty}, empty + " has neither runs.csv"},
		{[]string{"hetgps-compare", none, none}, none},
		{[]string{"hetgps-compare", empty, empty}, empty + " holds no HetGPS run"},
		{[]string{"sweep", "-resume", "-out", none}, "no sweep to resume in " + none},
	} {
		code, out, errOut := runArgs(c.args...)
		if code != exitError || out != "" || !strings.Contains(errOut, c.want) || strings.Contains(errOut, "for usage") {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit %d naming %q", c.args, code, out, errOut, exitError, c.want)
		}
	}
}

// TestPictureNameListsExtensions checks that a -plot the figures cannot
// write is refused naming every extension they can.
func TestPictureNameListsExtensions(t *testing.T) {
	for _, name := range []string{"a.png", "a.SVG", "a.pdf", "a.eps", "a.jpg", "a.jpeg", "a.tif", "a.tiff"} {
		if err := checkPictureName(name); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	err := checkPictureName("a.gif")
	if want := `"a.gif": want a file name ending in .png, .svg, .pdf, .eps, .jpg, .jpeg, .tif or .tiff`; err == nil || err.Error() != want {
		t.Errorf("a.gif: %v, want %s", err, want)
	}
}
