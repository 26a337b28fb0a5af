package main

import (
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// TestOperands checks that operands parses the flags among and after a
// command's operands, that "--" ends the flags (and not "--" as a flag's
// value), and that a bad flag after an operand is a usage error.
func TestOperands(t *testing.T) {
	for _, c := range []struct {
		args, ops []string
		cell      string
		quiet     bool
	}{
		{[]string{"a", "b"}, []string{"a", "b"}, "", false},
		{[]string{"a", "-cell", "x", "b", "-quiet"}, []string{"a", "b"}, "x", true},
		{[]string{"-quiet", "a", "-cell=x"}, []string{"a"}, "x", true},
		{[]string{"a", "--", "-cell", "x"}, []string{"a", "-cell", "x"}, "", false},
		{[]string{"--", "-a", "b"}, []string{"-a", "b"}, "", false},
		{[]string{"a", "-cell", "--", "b"}, []string{"a", "b"}, "--", false},
		{[]string{"-quiet", "--", "a"}, []string{"a"}, "", true},
	} {
		fs := flag.NewFlagSet("test", flag.ContinueOnError)
		cell := fs.String("cell", "", "")
		quiet := fs.Bool("quiet", false, "")
		if err := fs.Parse(c.args); err != nil {
			t.Fatal(err)
		}
		ops, err := operands(fs, c.args)
		if err != nil || !reflect.DeepEqual(ops, c.ops) || *cell != c.cell || *quiet != c.quiet {
			t.Errorf("%q: operands %q, -cell %q, -quiet %v, %v; want %q, %q, %v", c.args, ops, *cell, *quiet, err, c.ops, c.cell, c.quiet)
		}
	}
	fs := newFlagSet(verdictCommand)
	fs.String("cell", "", "")
	args := []string{"a", "-nope"}
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	if _, err := operands(fs, args); err == nil || !strings.Contains(err.Error(), "-nope") {
		t.Errorf("a bad flag after an operand: %v", err)
	}
}

// TestFlagsAfterDirectories checks that verdict, compare and
// hetgps-compare take flags after their directories as before them.
func TestFlagsAfterDirectories(t *testing.T) {
	stored := filepath.Join("..", "..", "testdata", "reproductions")
	tagLarge, observability := filepath.Join(stored, "tag-large"), filepath.Join(stored, "observability")
	softmax := filepath.Join(stored, "hetgps-softmax")
	plots := t.TempDir()
	for _, c := range [][2][]string{
		{{"verdict", "-threshold", "0.5", tagLarge}, {"verdict", tagLarge, "-threshold", "0.5"}},
		{{"verdict", "-threshold", "0.5", "-cell", "2v2 mean-max", tagLarge}, {"verdict", "-threshold", "0.5", tagLarge, "-cell", "2v2 mean-max"}},
		{{"compare", "-force", "-cell", "range-0 min-max", "-cell-b", "range-0p35 min-max", observability, observability},
			{"compare", observability, "-cell", "range-0 min-max", observability, "-cell-b", "range-0p35 min-max", "-force"}},
		{{"compare", "-plot", filepath.Join(plots, "a.png"), tagLarge, filepath.Join(stored, "tag-large-30m")},
			{"compare", tagLarge, filepath.Join(stored, "tag-large-30m"), "-plot", filepath.Join(plots, "b.png")}},
		{{"hetgps-compare", "-plot", filepath.Join(plots, "c.png"), softmax, softmax},
			{"hetgps-compare", softmax, softmax, "-plot", filepath.Join(plots, "d.png")}},
	} {
		code, want, errOut := runArgs(c[0]...)
		if code != exitOK {
			t.Fatalf("%q: exit %d, stderr %q", c[0], code, errOut)
		}
		// The "wrote FILE" lines name each its own -plot.
		wrote := regexp.MustCompile(`(?m)^wrote .*\n`)
		want = wrote.ReplaceAllString(want, "")
		if code, got, errOut := runArgs(c[1]...); code != exitOK || wrote.ReplaceAllString(got, "") != want {
			t.Errorf("%q: exit %d, stderr %q, output\n%s\nwant that of %q:\n%s", c[1], code, errOut, got, c[0], want)
		}
	}
	for _, name := range []string{"a.png", "b.png", "c.png", "d.png"} {
		if _, err := os.Stat(filepath.Join(plots, name)); err != nil {
			t.Error(err)
		}
	}
}
