package learn

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/hetgain/hetgain/simulate"
)

// TeamProfile is what one team of one run does: its effort profile
// (Team.Profile) with where it comes from. A table of them, one row per
// run and team, is what hetgain inspect -csv writes.
type TeamProfile struct {
	// Run names the run (hetgain inspect writes its directory) and Team
	// the team ("heterogeneous" or "homogeneous").
	Run, Team string
	// Iteration is the team's training iteration when it was played and
	// Episodes the number of episodes played.
	Iteration, Episodes int
	// Profile is the team's effort profile over those episodes.
	Profile *simulate.EffortProfile
}

// WriteProfiles writes rows as CSV with every float at full precision
// (strconv's shortest representation, which reads back to the same
// bits): a header, then one record per row. The columns are run, team,
// iteration, episodes, steps, return, effort_<i>_<j> for agent i and task
// j (1-based, row by row), covered_<k> for k = 0, ..., M, and diversity.
// Every profile must have the Agents and Tasks of the first, with its N x
// M efforts and M + 1 covered fractions; otherwise WriteProfiles returns
// an error naming the row and writes nothing more. No rows writes
// nothing.
func WriteProfiles(w io.Writer, rows []TeamProfile) error {
	if len(rows) == 0 {
		return nil
	}
	if rows[0].Profile == nil {
		return fmt.Errorf("learn: profile row 1 (%s %s) has no profile", rows[0].Run, rows[0].Team)
	}
	n, m := rows[0].Profile.Agents, rows[0].Profile.Tasks
	cw := csv.NewWriter(w)
	if err := cw.Write(profileHeader(n, m)); err != nil {
		return err
	}
	for k, r := range rows {
		if err := checkProfileRow(k, r, n, m); err != nil {
			return err
		}
		if err := cw.Write(profileRecord(r)); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// ReadProfiles reads a table that WriteProfiles wrote (a hetgain inspect
// CSV) and returns its rows, with N and M taken from the header's effort
// and covered columns. It returns an error naming the line and column of
// the first problem: a header not of that layout, a record with another
// number of fields, a count that is not a whole number at least 0 (steps
// and episodes at least 1), or a float that does not parse or is NaN or
// infinite.
func ReadProfiles(r io.Reader) ([]TeamProfile, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1 // a short or long record is reported below, with its columns
	header, err := cr.Read()
	if err == io.EOF {
		return nil, errors.New("learn: profile table: empty, no header")
	}
	if err != nil {
		return nil, fmt.Errorf("learn: profile table: %w", err)
	}
	n, m, err := profileShape(header)
	if err != nil {
		return nil, err
	}
	var rows []TeamProfile
	for line := 2; ; line++ {
		rec, err := cr.Read()
		if err == io.EOF {
			return rows, nil
		}
		if err != nil {
			return nil, fmt.Errorf("learn: profile table: %w", err)
		}
		row, err := parseProfileRecord(rec, header, n, m)
		if err != nil {
			return nil, fmt.Errorf("learn: profile table line %d: %w", line, err)
		}
		rows = append(rows, row)
	}
}

// profileHeader returns the columns of a table of N x M profiles.
func profileHeader(n, m int) []string {
	h := []string{"run", "team", "iteration", "episodes", "steps", "return"}
	for i := 1; i <= n; i++ {
		for j := 1; j <= m; j++ {
			h = append(h, fmt.Sprintf("effort_%d_%d", i, j))
		}
	}
	for k := 0; k <= m; k++ {
		h = append(h, fmt.Sprintf("covered_%d", k))
	}
	return append(h, "diversity")
}

// profileShape returns the N and M of a header that profileHeader(N, M)
// gives, or an error saying how it differs.
func profileShape(header []string) (n, m int, err error) {
	covered := 0
	for _, h := range header {
		if len(h) > len("covered_") && h[:len("covered_")] == "covered_" {
			covered++
		}
	}
	m = covered - 1
	if m >= 1 {
		n = (len(header) - 7 - covered) / m
	}
	if m < 1 || n < 1 {
		return 0, 0, fmt.Errorf("learn: profile table: header %q has no effort and covered columns of N >= 1 agents and M >= 1 tasks", header)
	}
	want := profileHeader(n, m)
	if len(want) != len(header) {
		return 0, 0, fmt.Errorf("learn: profile table: header has %d columns, want %d for N = %d, M = %d: %q", len(header), len(want), n, m, want)
	}
	for i := range want {
		if header[i] != want[i] {
			return 0, 0, fmt.Errorf("learn: profile table: header column %d is %q, want %q", i+1, header[i], want[i])
		}
	}
	return n, m, nil
}

// checkProfileRow returns an error unless row k has an N x M profile.
func checkProfileRow(k int, r TeamProfile, n, m int) error {
	p := r.Profile
	switch {
	case p == nil:
		return fmt.Errorf("learn: profile row %d (%s %s) has no profile", k+1, r.Run, r.Team)
	case p.Agents != n || p.Tasks != m:
		return fmt.Errorf("learn: profile row %d (%s %s) has N = %d, M = %d, the first row N = %d, M = %d",
			k+1, r.Run, r.Team, p.Agents, p.Tasks, n, m)
	case len(p.Effort) != n*m || len(p.Covered) != m+1:
		return fmt.Errorf("learn: profile row %d (%s %s) has %d efforts and %d covered fractions, want %d and %d",
			k+1, r.Run, r.Team, len(p.Effort), len(p.Covered), n*m, m+1)
	}
	return nil
}

// profileRecord returns the fields of r in profileHeader's order.
func profileRecord(r TeamProfile) []string {
	p := r.Profile
	rec := []string{r.Run, r.Team, strconv.Itoa(r.Iteration), strconv.Itoa(r.Episodes), strconv.Itoa(p.Steps), formatFloat(p.Return)}
	for _, v := range p.Effort {
		rec = append(rec, formatFloat(v))
	}
	for _, v := range p.Covered {
		rec = append(rec, formatFloat(v))
	}
	return append(rec, formatFloat(p.Diversity))
}

// parseProfileRecord parses one record of a table with the given header
// of N x M profiles.
func parseProfileRecord(rec, header []string, n, m int) (TeamProfile, error) {
	if len(rec) != len(header) {
		return TeamProfile{}, fmt.Errorf("%d fields, want %d", len(rec), len(header))
	}
	var ints [3]int // iteration (at least 0), episodes and steps (at least 1)
	for c := range ints {
		least := 1
		if c == 0 {
			least = 0
		}
		v, err := strconv.Atoi(rec[2+c])
		if err != nil || v < least {
			return TeamProfile{}, fmt.Errorf("column %s: %q is not a whole number at least %d", header[2+c], rec[2+c], least)
		}
		ints[c] = v
	}
	floats := make([]float64, len(rec)-5)
	for c := range floats {
		v, err := strconv.ParseFloat(rec[5+c], 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return TeamProfile{}, fmt.Errorf("column %s: %q is not a finite number", header[5+c], rec[5+c])
		}
		floats[c] = v
	}
	p := &simulate.EffortProfile{
		Agents: n, Tasks: m, Steps: ints[2], Return: floats[0],
		Effort:    floats[1 : 1+n*m : 1+n*m],
		Covered:   floats[1+n*m : 2+n*m+m : 2+n*m+m],
		Diversity: floats[len(floats)-1],
	}
	return TeamProfile{Run: rec[0], Team: rec[1], Iteration: ints[0], Episodes: ints[1], Profile: p}, nil
}
