package postgres

import (
	"context"
	"fmt"
	"sync"
)

// Group commit, as in package sqlite. Every commit waits for PostgreSQL to
// flush its WAL (synchronous_commit on), and moves of many games arrive at
// the same time: inBatch runs the writes that are waiting in one
// transaction, each in a savepoint of its own, so that a refused write (a
// stale move number, a violated constraint, which in PostgreSQL also aborts
// the transaction until the savepoint is rolled back) is undone alone while
// one commit makes all the others durable. Every caller still returns only
// after the commit that holds its write.

// batchReq is one write waiting for a batch.
type batchReq struct {
	ctx  context.Context
	fn   func(ctx context.Context, tx *Tx) error
	err  error
	done chan struct{}
}

// batcher collects writes. The first writer to find no batch running
// becomes the leader and runs batches until none are waiting.
type batcher struct {
	mu      sync.Mutex // guards pending and running
	pending []*batchReq
	running bool
}

// maxBatch bounds a batch so that one commit never holds very many writes.
const maxBatch = 128

// inBatch runs fn in a savepoint of a shared write transaction and returns
// fn's error, or the commit's. fn must not commit or roll back tx, and its
// effects must be used by the caller only when inBatch returns nil.
func (db *DB) inBatch(ctx context.Context, fn func(ctx context.Context, tx *Tx) error) error {
	r := &batchReq{ctx: ctx, fn: fn, done: make(chan struct{})}
	b := &db.batch
	b.mu.Lock()
	b.pending = append(b.pending, r)
	lead := !b.running
	b.running = true
	b.mu.Unlock()
	if lead {
		go db.runBatches()
	}
	<-r.done
	return r.err
}

// runBatches runs batches until no writes are waiting.
func (db *DB) runBatches() {
	b := &db.batch
	for {
		b.mu.Lock()
		n := min(len(b.pending), maxBatch)
		if n == 0 {
			b.running = false
			b.mu.Unlock()
			return
		}
		reqs := b.pending[:n:n]
		b.pending = append([]*batchReq(nil), b.pending[n:]...)
		b.mu.Unlock()
		db.runBatch(reqs)
	}
}

// runBatch runs reqs in one transaction and tells each its outcome.
func (db *DB) runBatch(reqs []*batchReq) {
	defer func() {
		for _, r := range reqs {
			close(r.done)
		}
	}()
	bg := context.Background()
	tx, err := db.BeginTx(bg, true)
	if err != nil {
		for _, r := range reqs {
			r.err = err
		}
		return
	}
	defer tx.rollback()
	ok := 0
	// release is the RELEASE of the previous write's savepoint, sent with
	// the next SAVEPOINT in one round trip (without arguments pgx uses the
	// simple protocol, which runs both statements).
	release := ""
	for i, r := range reqs {
		if err := r.ctx.Err(); err != nil {
			r.err = err
			continue
		}
		sp := fmt.Sprintf("w%d", i)
		if _, err := tx.Tx.Exec(bg, release+"SAVEPOINT "+sp); err != nil {
			db.failBatch(reqs, err)
			return
		}
		// The writes run with the batch's context: a caller that gives
		// up in the middle of its write must not abort the transaction
		// of the others. inBatch's callers wait for the batch anyway.
		r.err = r.fn(bg, tx)
		if r.err != nil {
			if _, err := tx.Tx.Exec(bg, "ROLLBACK TO SAVEPOINT "+sp); err != nil {
				db.failBatch(reqs, err)
				return
			}
		} else {
			ok++
		}
		release = "RELEASE SAVEPOINT " + sp + "; "
	}
	if ok == 0 {
		return
	}
	if err := tx.commit(bg); err != nil {
		db.failBatch(reqs, err)
		return
	}
	if db.Committed != nil {
		db.Committed(ok)
	}
}

// failBatch reports err to every write of a batch that had succeeded so far:
// the transaction did not commit.
func (db *DB) failBatch(reqs []*batchReq, err error) {
	for _, r := range reqs {
		if r.err == nil {
			r.err = err
		}
	}
}
