package reproduce

import (
	"errors"
	"sync"

	"github.com/hetgain/hetgain/learn"
)

// pool trains the runs of an experiment on a number of goroutines, stops
// them all when the caller's Stop asks or one run fails, and serialises
// the caller's callbacks.
type pool struct {
	mu       sync.Mutex // guards what follows, and every call of userStop and of the callbacks
	userStop func() bool
	stopped  bool // userStop returned true, or a run reported learn.ErrStopped
	firstErr error
	failedAt int // the run that failed first
	// done is the number of runs finished: those finished on disk
	// before the pool started, and those finished since.
	done  int
	next  int   // the next run to start, an index into order
	order []int // the order in which runs start (see newPool)
	// onDisk marks the runs that were finished on disk before the pool
	// started: done counts them from the start, not when they are read
	// back.
	onDisk []bool
}

// newPool returns a pool of n runs, stopped when userStop asks, of
// which those with finishedOnDisk(i) true are finished on disk: they
// are counted as done from the start, and start first, each group in
// its own order. Started in that order, the runs read back from disk are
// reported before any run trains, so that the time left is estimated on
// the runs still to train.
func newPool(n int, userStop func() bool, finishedOnDisk func(i int) bool) *pool {
	p := &pool{userStop: userStop, order: make([]int, 0, n), onDisk: make([]bool, n)}
	var rest []int
	for i := 0; i < n; i++ {
		if finishedOnDisk(i) {
			p.order = append(p.order, i)
			p.onDisk[i] = true
			p.done++
		} else {
			rest = append(rest, i)
		}
	}
	p.order = append(p.order, rest...)
	return p
}

// finishedOnDisk returns the number of runs finished on disk before the
// pool started.
func (p *pool) finishedOnDisk() int {
	n := 0
	for _, ok := range p.onDisk {
		if ok {
			n++
		}
	}
	return n
}

// stop reports whether the runs should stop; it is the Stop of every run.
func (p *pool) stop() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.stopped && p.userStop != nil && p.userStop() {
		p.stopped = true
	}
	return p.stopped || p.firstErr != nil
}

// report calls f with the lock held and the number of finished runs.
func (p *pool) report(f func(done int)) {
	p.mu.Lock()
	defer p.mu.Unlock()
	f(p.done)
}

// take returns the next run to start, unless the runs should stop.
func (p *pool) take(n int) (int, bool) {
	if p.stop() {
		return 0, false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.next >= n {
		return 0, false
	}
	p.next++
	return p.order[p.next-1], true
}

// run trains runs 0..n-1 on jobs goroutines (at least 1, at most n).
// work(i, stop) trains run i, polling stop; when it succeeds, finished(i,
// done) is called with the lock held, done the number of runs finished
// (this one included). An error wrapping learn.ErrStopped
// stops the pool; any other error is kept (the first one, see failure)
// and stops the pool too.
func (p *pool) run(n, jobs int, work func(i int, stop func() bool) error, finished func(i, done int)) {
	if jobs < 1 {
		jobs = 1
	}
	var wg sync.WaitGroup
	for w := 0; w < jobs && w < n; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i, ok := p.take(n)
				if !ok {
					return
				}
				err := work(i, p.stop)
				p.mu.Lock()
				switch {
				case err == nil:
					if !p.onDisk[i] {
						p.done++
					}
					finished(i, p.done)
				case errors.Is(err, learn.ErrStopped):
					p.stopped = true
				case p.firstErr == nil:
					p.firstErr, p.failedAt = err, i
				}
				p.mu.Unlock()
			}
		}()
	}
	wg.Wait()
}

// failure returns the index of the first run that failed and its error,
// or a nil error.
func (p *pool) failure() (int, error) { return p.failedAt, p.firstErr }
