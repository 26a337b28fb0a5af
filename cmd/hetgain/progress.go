package main

import (
	"fmt"
	"io"
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
	first := p.start.IsZero()
	if first {
		p.start, p.startDone = now, done
	}
	every := p.interval
	if p.terminal {
		every = 100 * time.Millisecond
	}
	if !first && done < total && now.Sub(p.last) < every {
		return
	}
	p.last = now
	line := p.line(done, total, now)
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
