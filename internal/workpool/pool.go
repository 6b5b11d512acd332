// Package workpool bounds the CPU-heavy work of the server (the bots'
// searches and the engine's analysis) with one pool of slots and two
// priorities. Urgent work (a bot's move) never waits for background work
// (analysis): it takes a slot at once, and when that makes the pool
// overfull, the newest background job is preempted (its context is
// cancelled) so that the pool is back within its bound a moment later.
// Background work waits for a free slot in the order it asked.
package workpool

import (
	"context"
	"errors"
	"slices"
	"sync"
)

// ErrPreempted is the cause of a background job's context when urgent
// work took its slot; the job should ask for a slot again.
var ErrPreempted = errors.New("workpool: preempted by urgent work")

// Pool is a set of slots shared by urgent and background work. Its methods
// may be called from any goroutine.
type Pool struct {
	size int

	mu sync.Mutex // guards the fields below
	// urgent counts the urgent jobs running; running lists the background
	// jobs holding a slot, oldest first (preempted ones leave it at once,
	// though they give their slot back only on release).
	urgent  int
	running []*job
	// preempted counts background jobs cancelled but not yet released.
	preempted int
	// waiting are the background jobs waiting for a slot, first come
	// first served.
	waiting []*job
}

// job is one background job holding or waiting for a slot.
type job struct {
	cancel context.CancelCauseFunc
	// ready is closed when the job got its slot.
	ready chan struct{}
}

// New returns a pool of size slots (at least one).
func New(size int) *Pool {
	return &Pool{size: max(size, 1)}
}

// Size returns the number of slots.
func (p *Pool) Size() int { return p.size }

// used is the number of slots taken. p.mu must be held.
func (p *Pool) used() int { return p.urgent + len(p.running) + p.preempted }

// Urgent takes a slot for urgent work without waiting and returns the func
// that gives it back. When the pool is overfull, background jobs are
// preempted, newest first, until urgent work alone would fill it.
func (p *Pool) Urgent() (release func()) {
	p.mu.Lock()
	p.urgent++
	for p.urgent+len(p.running) > p.size && len(p.running) > 0 {
		j := p.running[len(p.running)-1]
		p.running = p.running[:len(p.running)-1]
		p.preempted++
		j.cancel(ErrPreempted)
	}
	p.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			p.mu.Lock()
			p.urgent--
			p.admit()
			p.mu.Unlock()
		})
	}
}

// Background waits for a slot for background work. It returns a context
// derived from ctx that is cancelled with ErrPreempted (see
// context.Cause) when urgent work takes the slot, and the func that gives
// the slot back, which must be called in every case once the work stops.
// It returns ctx's error if ctx ends before a slot is free.
func (p *Pool) Background(ctx context.Context) (context.Context, func(), error) {
	jctx, cancel := context.WithCancelCause(ctx)
	j := &job{cancel: cancel, ready: make(chan struct{})}
	p.mu.Lock()
	p.waiting = append(p.waiting, j)
	p.admit()
	p.mu.Unlock()
	select {
	case <-j.ready:
	case <-ctx.Done():
		p.mu.Lock()
		select {
		case <-j.ready:
			// Admitted meanwhile: give the slot back.
			p.mu.Unlock()
			p.releaseJob(j)
		default:
			p.waiting = removeJob(p.waiting, j)
			p.mu.Unlock()
		}
		cancel(nil)
		return nil, nil, ctx.Err()
	}
	var once sync.Once
	return jctx, func() {
		once.Do(func() { p.releaseJob(j); cancel(nil) })
	}, nil
}

// releaseJob gives back the slot of background job j.
func (p *Pool) releaseJob(j *job) {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := len(p.running)
	p.running = removeJob(p.running, j)
	if len(p.running) == n {
		// Preempted earlier: it left running then.
		p.preempted--
	}
	p.admit()
}

// admit gives free slots to waiting background jobs. p.mu must be held.
func (p *Pool) admit() {
	for len(p.waiting) > 0 && p.used() < p.size {
		j := p.waiting[0]
		p.waiting = p.waiting[1:]
		p.running = append(p.running, j)
		close(j.ready)
	}
}

// removeJob returns js without j (the slice is changed in place), or js
// itself when j is not in it.
func removeJob(js []*job, j *job) []*job {
	if i := slices.Index(js, j); i >= 0 {
		return slices.Delete(js, i, i+1)
	}
	return js
}

// Load reports the urgent jobs running, the background jobs holding a slot
// (preempted ones until they stop) and those waiting.
func (p *Pool) Load() (urgent, background, waiting int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.urgent, len(p.running) + p.preempted, len(p.waiting)
}
