// Package groupcommit shares one database commit among writes that arrive
// together, for the storage backends (sqlite, postgres). Moves from many
// games arrive at the same time, and every commit waits for the disk (an
// fsync of SQLite's WAL or PostgreSQL's): committing each in its own
// transaction costs one sync per move, and the moves queue behind each
// other. A Batcher instead runs the writes that are waiting in one
// transaction, each in a savepoint of its own, so that a refused write (a
// stale move number, a violated constraint) is undone alone while one
// commit makes all the others durable. Every caller still returns only
// after the commit that holds its write. A backend whose every statement
// is a round trip to a server may also run a batch without savepoints
// until a write fails (Batcher.Optimistic) and send the writes' first
// statements together (Batcher.Ahead).
package groupcommit

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// Tx is a backend's transaction as a Batcher uses it.
type Tx interface {
	// Savepoint releases the savepoint named release, unless it is
	// empty, and then starts the savepoint name. The two are one call
	// so that a backend may send them in one round trip.
	Savepoint(release, name string) error
	// RollbackTo undoes what happened since the savepoint name; in
	// PostgreSQL this also clears the aborted state a failed statement
	// leaves.
	RollbackTo(name string) error
	Commit() error
	// Rollback ends the transaction without committing; it is also
	// called after Commit and must then do nothing.
	Rollback() error
}

// MaxBatch bounds a batch so that one commit never holds very many writes.
const MaxBatch = 128

// RetryTries is how often a batch runs again after a write's error that
// Retry accepts.
const RetryTries = 3

// A Batcher collects writes and runs them in shared transactions. A writer
// that finds fewer than Parallel batches running becomes a leader and runs
// batches until none are waiting. Set Begin, and Committed and Parallel if
// wanted, before the first Do; the zero value is otherwise ready.
type Batcher[T Tx] struct {
	// Begin starts a write transaction.
	Begin func() (T, error)
	// Committed, when set, is called after every commit with the number
	// of writes it made durable and the time the batch took from the
	// start of its transaction to the end of its commit, for metrics. It
	// runs on the committing goroutine and must not block.
	Committed func(writes int, took time.Duration)
	// Parallel is how many batches may run at once, each in its own
	// transaction (0 means 1). SQLite has one writer, so one; PostgreSQL
	// runs several transactions at once and flushes the WAL of commits
	// that wait together once, so that batches on a few connections keep
	// the round trips of one batch from holding up the next. Writes that
	// must follow each other (the moves of one game) never wait in the
	// batcher together: their callers serialise them. Once writes run,
	// change it with SetParallel only.
	Parallel int
	// Optimistic runs the writes of a batch without savepoints at first:
	// when one of them fails, the transaction is rolled back and the batch
	// runs again with a savepoint for each write, as without Optimistic.
	// It is for a backend whose savepoints cost a round trip to the
	// database each (PostgreSQL) and whose writes are built not to fail
	// but in rare cases: a refused write there changes nothing and returns
	// no error to the transaction. The writes of such a batch may run
	// twice, so a write must have no effect outside its transaction before
	// Do returns (Do's rule already).
	Optimistic bool
	// Retry, when set, reports whether a write's error is the database
	// giving up the whole transaction in a way a new one may not meet
	// again: PostgreSQL's deadlock between two batches that lock the same
	// rows in different orders. Such a batch is rolled back, which frees
	// its locks, and run again from the start, at most RetryTries times;
	// a savepoint would not help, since the locks its earlier writes hold
	// stay with the transaction.
	Retry func(error) bool
	// Ahead, when set, sends the first statements of a batch's writes
	// together (see DoAhead): in a run without savepoints the Batcher
	// calls the ahead function of each such write with the transaction,
	// in the batch's order, then Ahead once, and then runs the writes. A
	// backend whose statements each cost a round trip (PostgreSQL) queues
	// them in ahead and sends them in one round trip in Ahead; each write
	// then takes its statement's result instead of running it. An error
	// of one statement belongs to its write, which returns it; Ahead
	// returns an error only when the transaction cannot go on, and then
	// every write of the batch fails with it.
	Ahead func(tx T) error

	mu      sync.Mutex // guards pending, running and Parallel once writes run
	pending []*request[T]
	running int // leaders running batches
}

// request is one write waiting for a batch.
type request[T Tx] struct {
	ctx   context.Context
	ahead func(tx T) // nil unless the write came through DoAhead
	sent  bool       // ahead ran in the current run's transaction
	fn    func(ctx context.Context, tx T) error
	err   error
	done  chan struct{}
}

// Do runs fn in a savepoint of a shared write transaction and returns fn's
// error, or the commit's. fn must not commit or roll back tx, and its
// effects must be used by the caller only when Do returns nil. A write
// whose ctx has ended before its turn does not run.
func (b *Batcher[T]) Do(ctx context.Context, fn func(ctx context.Context, tx T) error) error {
	return b.DoAhead(ctx, nil, fn)
}

// DoAhead is Do for a write whose first statement may be sent ahead with
// those of the other writes of its batch (see Batcher.Ahead): ahead, when
// not nil, queues that statement in tx. fn must work both when ahead ran
// in the transaction it gets and when it did not (a run with savepoints,
// a Batcher without Ahead), and a write whose ahead ran also runs fn, even
// when its ctx has ended meanwhile, since its statement has run.
func (b *Batcher[T]) DoAhead(ctx context.Context, ahead func(tx T), fn func(ctx context.Context, tx T) error) error {
	r := &request[T]{ctx: ctx, ahead: ahead, fn: fn, done: make(chan struct{})}
	b.mu.Lock()
	b.pending = append(b.pending, r)
	lead := b.running < max(b.Parallel, 1)
	if lead {
		b.running++
	}
	b.mu.Unlock()
	if lead {
		go b.runBatches()
	}
	<-r.done
	return r.err
}

// SetParallel changes Parallel while writes run: batches already running
// finish, and a new one starts only while fewer than n run.
func (b *Batcher[T]) SetParallel(n int) {
	b.mu.Lock()
	b.Parallel = n
	b.mu.Unlock()
}

// Parallelism returns Parallel.
func (b *Batcher[T]) Parallelism() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.Parallel
}

// Waiting returns the number of writes waiting for the next batch and
// whether a batch is running, for tests.
func (b *Batcher[T]) Waiting() (n int, running bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.pending), b.running > 0
}

// runBatches runs batches until no writes are waiting.
func (b *Batcher[T]) runBatches() {
	for {
		b.mu.Lock()
		n := min(len(b.pending), MaxBatch)
		if n == 0 {
			b.running--
			b.mu.Unlock()
			return
		}
		reqs := b.pending[:n:n]
		b.pending = append([]*request[T](nil), b.pending[n:]...)
		b.mu.Unlock()
		b.runBatch(reqs)
	}
}

// runBatch runs reqs in one transaction and tells each its outcome: with
// Optimistic first without savepoints, and with them when that run could
// not decide (runTx); from the start again when a write met an error that
// Retry accepts.
func (b *Batcher[T]) runBatch(reqs []*request[T]) {
	defer func() {
		for _, r := range reqs {
			close(r.done)
		}
	}()
	start := time.Now()
	savepoints := !b.Optimistic
	for tries := 0; ; {
		switch b.runTx(reqs, start, savepoints, tries < RetryTries) {
		case txDone:
			return
		case txSavepoints:
			savepoints = true
		case txAgain:
			tries++
		}
	}
}

// The outcomes of runTx.
const (
	txDone       = iota // every write's outcome is decided
	txSavepoints        // run again with savepoints
	txAgain             // run again as before: a write met an error Retry accepts
)

// runTx runs reqs in one transaction, each write in a savepoint of its own
// when savepoints is set. Without savepoints a failed write cannot be
// undone alone: in a batch of several the transaction is rolled back, the
// outcomes are cleared and runTx returns txSavepoints, so that the writes
// run again with savepoints; a failed write alone in its batch needs no
// second run, since the rollback undoes nothing but it. When retry is set
// and a write's error is one Retry accepts, the transaction is rolled back,
// the outcomes are cleared and runTx returns txAgain.
func (b *Batcher[T]) runTx(reqs []*request[T], start time.Time, savepoints, retry bool) int {
	tx, err := b.Begin()
	if err != nil {
		fail(reqs, err)
		return txDone
	}
	defer tx.Rollback()
	if b.sendAhead(tx, reqs, !savepoints) {
		if err := b.Ahead(tx); err != nil {
			fail(reqs, err)
			return txDone
		}
	}
	ok := 0
	release := ""
	for i, r := range reqs {
		if err := r.ctx.Err(); err != nil && !r.sent {
			r.err = err
			continue
		}
		sp := ""
		if savepoints {
			sp = fmt.Sprintf("w%d", i)
			if err := tx.Savepoint(release, sp); err != nil {
				fail(reqs, err)
				return txDone
			}
			release = sp
		}
		if r.err = r.fn(r.ctx, tx); r.err == nil {
			ok++
			continue
		}
		again := retry && b.Retry != nil && b.Retry(r.err)
		switch {
		case savepoints && !again:
			if err := tx.RollbackTo(sp); err != nil {
				fail(reqs, err)
				return txDone
			}
		case len(reqs) == 1 && !again:
			return txDone
		default:
			for _, r := range reqs {
				r.err = nil
			}
			if again {
				return txAgain
			}
			return txSavepoints
		}
	}
	if ok == 0 {
		return txDone
	}
	if err := tx.Commit(); err != nil {
		fail(reqs, err)
		return txDone
	}
	if b.Committed != nil {
		b.Committed(ok, time.Since(start))
	}
	return txDone
}

// sendAhead calls the ahead functions of reqs with tx when enabled and
// Ahead is set, marks the writes whose ahead ran, and reports whether any
// did. A write whose ctx has ended is left out.
func (b *Batcher[T]) sendAhead(tx T, reqs []*request[T], enabled bool) bool {
	any := false
	for _, r := range reqs {
		r.sent = enabled && b.Ahead != nil && r.ahead != nil && r.ctx.Err() == nil
		if r.sent {
			r.ahead(tx)
			any = true
		}
	}
	return any
}

// fail reports err to every write of a batch that had succeeded so far:
// the transaction did not commit.
func fail[T Tx](reqs []*request[T], err error) {
	for _, r := range reqs {
		if r.err == nil {
			r.err = err
		}
	}
}
