package main

import (
	"fmt"
	"io"
	"math"
	"strings"
	"time"
)

// progress prints a progress line of a long computation: in place (a
// carriage return and an erase to the end of the line) on a terminal, at
// most every 100 ms; otherwise a new line at most every interval, so logs
// stay short. The first and the last update are always printed.
type progress struct {
	w        io.Writer
	now      func() time.Time
	terminal bool
	interval time.Duration // between lines when not a terminal
	label    string

	start     time.Time
	startDone int
	last      time.Time
	printed   bool
}

func newProgress(w io.Writer, now func() time.Time, terminal bool, label string) *progress {
	return &progress{w: w, now: now, terminal: terminal, interval: 5 * time.Second, label: label}
}

// update reports that done of total items are finished. The first call
// sets the starting point: items done before it do not count in the rate.
func (p *progress) update(done, total int) {
	now := p.now()
	if p.start.IsZero() {
		p.start, p.startDone = now, done
	}
	p.show(now, p.line(done, total, now), done >= total)
}

// show prints line unless a line was printed less than the interval (on a
// terminal 100 ms) before now; the first line, and a line with force, are
// always printed.
func (p *progress) show(now time.Time, line string, force bool) {
	every := p.interval
	if p.terminal {
		every = 100 * time.Millisecond
	}
	if !force && !p.last.IsZero() && now.Sub(p.last) < every {
		return
	}
	p.last = now
	if p.terminal {
		fmt.Fprintf(p.w, "\r%s\x1b[K", line)
	} else {
		fmt.Fprintln(p.w, line)
	}
	p.printed = true
}

// finish ends the line on a terminal.
func (p *progress) finish() {
	if p.terminal && p.printed {
		fmt.Fprintln(p.w)
		p.printed = false
	}
}

func (p *progress) line(done, total int, now time.Time) string {
	pct := 100.0
	if total > 0 {
		pct = 100 * float64(done) / float64(total)
	}
	s := fmt.Sprintf("%s: %d/%d cells (%.1f%%)", p.label, done, total, pct)
	elapsed := now.Sub(p.start)
	computed := done - p.startDone
	if computed <= 0 || elapsed <= 0 {
		return s
	}
	rate := float64(computed) / elapsed.Seconds()
	if rate >= 10 {
		s += fmt.Sprintf(", %.0f cells/s", rate)
	} else {
		s += fmt.Sprintf(", %.2f cells/s", rate)
	}
	if done >= total {
		return s + ", took " + roundDuration(elapsed)
	}
	eta := time.Duration(float64(total-done) / rate * float64(time.Second))
	return s + ", ETA " + roundDuration(eta)
}

func roundDuration(d time.Duration) string {
	switch {
	case d < time.Second:
		return d.Round(time.Millisecond).String()
	case d < 10*time.Second:
		return d.Round(100 * time.Millisecond).String()
	case d < time.Hour:
		return d.Round(time.Second).String()
	}
	return d.Round(time.Minute).String()
}

// runProgress is the progress line of training runs (train, reproduce):
// the runs finished, the run that reported last with its iteration,
// frames per second and evaluation gain, the share of all iterations done
// and the time left. Iterations read back from disk (finished or resumed
// runs) count as done but not in the rate.
type runProgress struct {
	p           *progress
	runs, total int // runs, and iterations of all runs
	done        map[string]int
	sum         int // iterations done over all runs
	trained     int // iterations trained by this process
	started     time.Time
}

func newRunProgress(p *progress, runs, total int) *runProgress {
	return &runProgress{p: p, runs: runs, total: total, done: map[string]int{}, started: p.now()}
}

// readBack counts the first iterations of run, kept on disk by an earlier
// process, as done before the run resumes, so that the time left of runs
// being extended covers only the iterations still to train.
func (r *runProgress) readBack(run string, iterations int) {
	if prev := r.done[run]; iterations > prev {
		r.sum += iterations - prev
		r.done[run] = iterations
	}
}

// update reports that run has done iteration of its iterations, with fps frames
// per second over the last one (0 if it was read back, not trained), and
// that runsDone runs are finished.
func (r *runProgress) update(run string, runsDone, iteration, iterations int, fps, evalGain float64) {
	now := r.p.now()
	if prev := r.done[run]; iteration > prev {
		r.sum += iteration - prev
		r.done[run] = iteration
		if fps > 0 {
			r.trained++
		}
	}
	total := r.total
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d/%d runs done; %s iteration %d/%d", r.p.label, runsDone, r.runs, run, iteration, iterations)
	if fps > 0 {
		fmt.Fprintf(&b, ", %.0f frames/s", fps)
	}
	if !math.IsNaN(evalGain) {
		fmt.Fprintf(&b, ", eval ΔR %.3g", evalGain)
	}
	fmt.Fprintf(&b, "; %.1f%% of %d iterations", 100*float64(r.sum)/float64(total), total)
	elapsed := now.Sub(r.started)
	switch {
	case r.sum >= total:
		b.WriteString(", took " + roundDuration(elapsed))
	case r.trained > 0 && elapsed > 0:
		rate := float64(r.trained) / elapsed.Seconds()
		b.WriteString(", ETA " + roundDuration(time.Duration(float64(total-r.sum)/rate*float64(time.Second))))
	}
	r.p.show(now, b.String(), runsDone >= r.runs)
}

// tablesSoFar rewrites the tables of a long command (reproduce, hetgps)
// as each run trained now finishes, so that a command killed without the
// chance to write them (SIGKILL, power loss) keeps every finished run in
// them.
type tablesSoFar struct {
	w       io.Writer
	command string
	save    func() error // writes the tables of the runs finished on disk
	at      int          // finished runs in the tables on disk
	warned  bool         // a failure to write them was reported
}

// report takes a progress report: done runs finished, the reporting run
// at iteration of iterations, at fps frames per second (0 for a run read
// back, not trained now). A run trained now that just finished gets its
// row at once; runs read back are in the tables already, and reloading
// them all as each is read back would cost time quadratic in their
// number. A failure is a warning, once: the tables are written again at
// the end.
func (t *tablesSoFar) report(done, iteration, iterations int, fps float64) {
	if done <= t.at || iteration != iterations || fps <= 0 {
		return
	}
	t.at = done
	if err := t.save(); err != nil && !t.warned {
		fmt.Fprintf(t.w, "hetgain %s: warning: the tables so far are not written (%v); training goes on\n", t.command, err)
		t.warned = true
	}
}
