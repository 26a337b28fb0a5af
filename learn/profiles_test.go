package learn

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hetgain/hetgain/simulate"
)

// TestProfilesRoundTripStored reads every stored inspect.csv, checks its
// shape against its header, and writes it back byte for byte: WriteProfiles
// is what hetgain inspect -csv wrote them with.
func TestProfilesRoundTripStored(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("..", "testdata", "reproductions", "*", "inspect.csv"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no stored inspect.csv (%v)", err)
	}
	for _, path := range paths {
		stored, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		rows, err := ReadProfiles(bytes.NewReader(stored))
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if want := bytes.Count(stored, []byte("\n")) - 1; len(rows) != want {
			t.Errorf("%s: %d rows, want %d", path, len(rows), want)
		}
		for _, r := range rows {
			p := r.Profile
			if len(p.Effort) != p.Agents*p.Tasks || len(p.Covered) != p.Tasks+1 {
				t.Fatalf("%s %s %s: %d efforts and %d covered for N = %d, M = %d", path, r.Run, r.Team, len(p.Effort), len(p.Covered), p.Agents, p.Tasks)
			}
		}
		var out bytes.Buffer
		if err := WriteProfiles(&out, rows); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out.Bytes(), stored) {
			t.Errorf("%s: written back differs from the stored file", path)
		}
	}
}

// TestProfilesRoundTrip writes profiles with awkward floats and reads them
// back to the same bits, with N and M taken from the header.
func TestProfilesRoundTrip(t *testing.T) {
	p := &simulate.EffortProfile{Agents: 3, Tasks: 2, Steps: 7,
		Effort:  []float64{0.1, 1.0 / 3, 0, 1e-300, 0.7, 2.0 / 7},
		Covered: []float64{0.25, 0.5, 0.25}, Diversity: math.Nextafter(0.5, 1), Return: -123.456789012345678}
	rows := []TeamProfile{
		{Run: "2v2/min-max/seed1", Team: "heterogeneous", Iteration: 300, Episodes: 512, Profile: p},
		{Run: `a "quoted", run`, Team: "homogeneous", Iteration: 0, Episodes: 1, Profile: p},
	}
	var buf bytes.Buffer
	if err := WriteProfiles(&buf, rows); err != nil {
		t.Fatal(err)
	}
	got, err := ReadProfiles(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(rows) {
		t.Fatalf("%d rows back, want %d", len(got), len(rows))
	}
	for k := range rows {
		w, g := rows[k], got[k]
		if g.Run != w.Run || g.Team != w.Team || g.Iteration != w.Iteration || g.Episodes != w.Episodes {
			t.Errorf("row %d: %+v, want %+v", k, g, w)
		}
		gp := g.Profile
		if gp.Agents != 3 || gp.Tasks != 2 || gp.Steps != p.Steps || gp.Return != p.Return || gp.Diversity != p.Diversity {
			t.Errorf("row %d: profile %+v, want %+v", k, gp, p)
		}
		for i := range p.Effort {
			if gp.Effort[i] != p.Effort[i] {
				t.Errorf("row %d effort %d: %v, want %v", k, i, gp.Effort[i], p.Effort[i])
			}
		}
		for i := range p.Covered {
			if gp.Covered[i] != p.Covered[i] {
				t.Errorf("row %d covered %d: %v, want %v", k, i, gp.Covered[i], p.Covered[i])
			}
		}
	}
	// The efforts are a slice of their own: appending to them must not
	// change the covered fractions.
	e := append(got[0].Profile.Effort, 99)
	_ = e
	if got[0].Profile.Covered[0] != 0.25 {
		t.Errorf("appending to Effort changed Covered to %v", got[0].Profile.Covered)
	}
	if buf.Reset(); WriteProfiles(&buf, nil) != nil || buf.Len() != 0 {
		t.Errorf("no rows: wrote %q", buf.String())
	}
}

// TestProfilesErrors checks that each kind of bad table or row is an
// error naming what is wrong.
func TestProfilesErrors(t *testing.T) {
	const header = "run,team,iteration,episodes,steps,return,effort_1_1,effort_1_2,effort_2_1,effort_2_2,covered_0,covered_1,covered_2,diversity\n"
	const good = "r,heterogeneous,300,512,51200,2.5,0.2,0,0,0.3,0.5,0.4,0.1,0.25\n"
	for _, c := range []struct{ name, table, want string }{
		{"empty", "", "no header"},
		{"no covered columns", "run,team,iteration,episodes,steps,return,diversity\n", "no effort and covered columns"},
		{"a column renamed", strings.Replace(header, "effort_2_1", "effort_2_x", 1) + good, `column 9 is "effort_2_x", want "effort_2_1"`},
		{"a column missing", strings.Replace(header, "effort_2_2,", "", 1), "header has 13 columns, want"},
		{"a field missing", header + strings.Replace(good, ",0.25\n", "\n", 1), "line 2: 13 fields, want 14"},
		{"NaN effort", header + strings.Replace(good, "0.2,", "NaN,", 1), `line 2: column effort_1_1: "NaN" is not a finite number`},
		{"infinite return", header + strings.Replace(good, "2.5", "+Inf", 1), `column return: "+Inf" is not a finite number`},
		{"not a number", header + good + strings.Replace(good, "0.4", "x", 1), `line 3: column covered_1: "x" is not a finite number`},
		{"negative iteration", header + strings.Replace(good, "300", "-1", 1), `column iteration: "-1" is not a whole number at least 0`},
		{"no episodes", header + strings.Replace(good, "512", "0", 1), `column episodes: "0" is not a whole number at least 1`},
		{"fractional steps", header + strings.Replace(good, "51200", "51.2", 1), `column steps: "51.2" is not a whole number at least 1`},
	} {
		_, err := ReadProfiles(strings.NewReader(c.table))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
	if _, err := ReadProfiles(strings.NewReader(header + good)); err != nil {
		t.Errorf("the good table: %v", err)
	}

	p22 := &simulate.EffortProfile{Agents: 2, Tasks: 2, Effort: make([]float64, 4), Covered: make([]float64, 3)}
	p12 := &simulate.EffortProfile{Agents: 1, Tasks: 2, Effort: make([]float64, 2), Covered: make([]float64, 3)}
	short := &simulate.EffortProfile{Agents: 2, Tasks: 2, Effort: make([]float64, 3), Covered: make([]float64, 3)}
	for _, c := range []struct {
		name string
		rows []TeamProfile
		want string
	}{
		{"nil first profile", []TeamProfile{{Run: "a"}}, "row 1 (a ) has no profile"},
		{"nil later profile", []TeamProfile{{Profile: p22}, {Run: "b", Profile: nil}}, "row 2 (b ) has no profile"},
		{"other shape", []TeamProfile{{Profile: p22}, {Run: "c", Profile: p12}}, "row 2 (c ) has N = 1, M = 2, the first row N = 2, M = 2"},
		{"efforts missing", []TeamProfile{{Profile: p22}, {Run: "d", Profile: short}}, "row 2 (d ) has 3 efforts and 3 covered fractions, want 4 and 3"},
	} {
		if err := WriteProfiles(&bytes.Buffer{}, c.rows); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
}

// FuzzReadProfiles feeds ReadProfiles arbitrary tables: it must not
// panic, and a table it accepts must write back and read again to the
// same rows.
func FuzzReadProfiles(f *testing.F) {
	f.Add("run,team,iteration,episodes,steps,return,effort_1_1,covered_0,covered_1,diversity\nr,t,1,1,1,0.5,1,0,1,0\n")
	f.Add("run,team,iteration,episodes,steps,return,effort_1_1,effort_1_2,effort_2_1,effort_2_2,covered_0,covered_1,covered_2,diversity\nr,heterogeneous,300,512,51200,2.5,0.2,0,0,0.3,0.5,0.4,0.1,0.25\n")
	f.Add("run,team\n")
	f.Fuzz(func(t *testing.T, table string) {
		rows, err := ReadProfiles(strings.NewReader(table))
		if err != nil || len(rows) == 0 {
			return
		}
		var buf bytes.Buffer
		if err := WriteProfiles(&buf, rows); err != nil {
			t.Fatalf("rows read back do not write: %v", err)
		}
		first := buf.String()
		again, err := ReadProfiles(&buf)
		if err != nil {
			t.Fatalf("a written table does not read: %v", err)
		}
		var buf2 bytes.Buffer
		if err := WriteProfiles(&buf2, again); err != nil || buf2.String() != first {
			t.Fatalf("second round trip differs (%v):\n%s\n%s", err, first, buf2.String())
		}
	})
}
