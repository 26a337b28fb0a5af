package main

import (
	"fmt"
	"io"
	"sync"

	"github.com/hetgain/hetgain/learn"
)

// lockedWriter serialises the writes to w, so that a message from another
// goroutine (announceStop's) and the progress line do not interleave.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// announceStop tells the user at once, at the first Ctrl-C (when a.ctx is
// cancelled), that command stops only after the iterations now running
// and that a second Ctrl-C quits at once; the command itself says what it
// kept when it has stopped, which can be minutes later for large
// iterations. The returned function ends the watch and waits for the
// message, if any, to be written: call it before the command says what
// it kept, and before it returns (calls after the first do nothing more).
func (a *app) announceStop(command string) (done func()) {
	finished := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		select {
		case <-a.ctx.Done():
		case <-finished:
			if a.ctx.Err() == nil {
				return
			}
			// Cancelled too, before this goroutine ran: say it all the same.
		}
		newline := ""
		if a.terminal {
			newline = "\n" // below the progress line, which is drawn in place
		}
		fmt.Fprintf(a.stderr, "%shetgain %s: interrupted: stopping after the running iteration, which then keeps a checkpoint (Ctrl-C again to quit at once; a resume then recomputes the iterations since the last checkpoint, at most %d)\n",
			newline, command, learn.DefaultCheckpointEvery)
	}()
	var once sync.Once
	return func() {
		once.Do(func() { close(finished) })
		wg.Wait()
	}
}
