package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"

	"tengen"
)

// Group commit (package groupcommit). Every commit waits for PostgreSQL to
// flush its WAL (synchronous_commit on), and moves of many games arrive at
// the same time: the writes that are waiting share one transaction. They
// run without savepoints first; when one fails, the batch runs again with
// each write in a savepoint of its own, so that the failed write (which in
// PostgreSQL also aborts the transaction until its savepoint is rolled
// back) is undone alone while one commit makes all the others durable.

// batchTx is a Tx as a groupcommit.Batcher uses it.
type batchTx struct{ *Tx }

// Savepoint sends the RELEASE of the previous savepoint and the new
// SAVEPOINT in one round trip: without arguments pgx uses the simple
// protocol, which runs both statements.
func (tx batchTx) Savepoint(release, name string) error {
	q := "SAVEPOINT " + name
	if release != "" {
		q = "RELEASE SAVEPOINT " + release + "; " + q
	}
	_, err := tx.Tx.Tx.Exec(context.Background(), q)
	return err
}

func (tx batchTx) RollbackTo(name string) error {
	_, err := tx.Tx.Tx.Exec(context.Background(), "ROLLBACK TO SAVEPOINT "+name)
	return err
}

func (tx batchTx) Commit() error   { return tx.commit(context.Background()) }
func (tx batchTx) Rollback() error { tx.rollback(); return nil }

// openBatch makes db's batcher ready; Open calls it.
func (db *DB) openBatch() {
	db.batch.Begin = func() (batchTx, error) {
		tx, err := db.BeginTx(context.Background(), true)
		return batchTx{tx}, err
	}
	db.batch.Committed = db.Committed
	db.batch.Parallel = parallelBatches
	// A savepoint costs a round trip per write, and PostgreSQL keeps a
	// subtransaction for each; the game path's writes are guarded so that
	// a refused one changes nothing and does not abort the transaction
	// (gameWrite), so a batch fails and runs again with savepoints only
	// when a write returns an error (groupcommit.Batcher.Optimistic).
	db.batch.Optimistic = true
	// Two batches that lock the same rows in different orders deadlock,
	// and PostgreSQL aborts one of them; its writes are not refused, so
	// the batch runs again (storagetest's ConcurrentGames met it).
	db.batch.Retry = retryable
	// The game path's writes are one statement each (gameWrite), and a
	// batch of them is sent as one pipeline: one round trip for the batch
	// instead of one for each write (AppendMove, UpdateGame).
	db.batch.Ahead = func(tx batchTx) error { return tx.sendAhead() }
}

// parallelBatches is how many group-commit batches run at once, each on a
// connection of the pool (a quarter of the default pool of 16), in all the
// instances on one database together (shareWriters).
const parallelBatches = 4

// shareWriters gives this instance its share of parallelBatches when
// instances live (counted by its heartbeat): PostgreSQL takes about as
// many concurrent write transactions well whatever number of instances
// sends them, and more only wait for each other's locks and flushes. At
// capacity on one machine two instances with four batches each committed
// 2,378 moves/s, with two each 2,741, one instance with four 2,952
// (docs/PERFORMANCE.md, "The lead's idle-machine runs after the sixth
// session's merges").
func (db *DB) shareWriters(instances int) {
	db.batch.SetParallel(max(1, parallelBatches/max(instances, 1)))
}

// aheadWrite is a gameWrite's statement queued in a batch's transaction
// to be sent with the others of the batch (sendAhead), and its result.
type aheadWrite struct {
	tx   *Tx // the transaction it was queued in
	sent bool
	q    string
	args []any
	g    *tengen.Game
	err  error
}

// sentIn reports whether the write's statement was sent in tx, so that
// its result is in g and err. It was not when a is nil, or was queued in
// an earlier run of the batch (which was rolled back): then the write runs
// its statement itself.
func (a *aheadWrite) sentIn(tx *Tx) bool { return a != nil && a.tx == tx && a.sent }

// sendAhead sends the statements the batch's writes queued (tx.ahead) in
// one pipeline and keeps each one's result for its write. A statement's
// error belongs to its write; once one has failed, PostgreSQL refuses the
// ones after it in the transaction, and those writes return that refusal,
// so the batch runs again with savepoints (groupcommit.Batcher.Optimistic).
// sendAhead returns an error only when the pipeline failed with no
// statement's error to show for it.
func (tx batchTx) sendAhead() error {
	queued := tx.ahead
	tx.ahead = nil
	var b pgx.Batch
	for _, a := range queued {
		if a.err == nil {
			b.Queue(a.q, a.args...)
		}
	}
	if b.Len() == 0 { // every write's arguments failed: nothing to send
		for _, a := range queued {
			a.sent = true
		}
		return nil
	}
	br := tx.Tx.Tx.SendBatch(context.Background(), &b)
	failed := false
	for _, a := range queued {
		if a.err == nil {
			a.g, a.err = scanGameWithPlayers(br.QueryRow())
			a.err = constraintError(a.err)
		}
		a.sent = true
		failed = failed || (a.err != nil && !noRows(a.err))
	}
	if err := br.Close(); err != nil && !failed {
		return err
	}
	return nil
}

// inBatch runs fn in a savepoint of a shared write transaction and returns
// fn's error, or the commit's (see groupcommit.Batcher.Do). fn runs with
// ctx's values but not its cancellation: pgx closes a connection whose
// query is cancelled, which would end the transaction of every write in
// the batch. The caller waits for the batch anyway.
func (db *DB) inBatch(ctx context.Context, fn func(ctx context.Context, tx *Tx) error) error {
	return db.inBatchAhead(ctx, nil, fn)
}

// inBatchAhead is inBatch for a write that queues its statement ahead
// (see aheadWrite); ahead may be nil.
func (db *DB) inBatchAhead(ctx context.Context, ahead func(tx *Tx), fn func(ctx context.Context, tx *Tx) error) error {
	var queue func(tx batchTx)
	if ahead != nil {
		queue = func(tx batchTx) { ahead(tx.Tx) }
	}
	return db.batch.DoAhead(ctx, queue, func(ctx context.Context, tx batchTx) error {
		return fn(context.WithoutCancel(ctx), tx.Tx)
	})
}
