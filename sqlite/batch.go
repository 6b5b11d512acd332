package sqlite

import "context"

// Group commit (package groupcommit). Moves from many games arrive at the
// same time and SQLite has one writer: committing each in its own
// transaction costs one WAL sync per move (with synchronous=FULL, an
// fsync), and the moves queue behind each other. The writes that are
// waiting instead share one transaction, each in a savepoint of its own, so
// that a refused write (a stale move number) rolls back alone while one
// commit makes all the others durable.

// batchTx is a Tx as a groupcommit.Batcher uses it.
type batchTx struct{ *Tx }

func (tx batchTx) Savepoint(release, name string) error {
	ctx := context.Background()
	if release != "" {
		if _, err := tx.Tx.Tx.ExecContext(ctx, "RELEASE SAVEPOINT "+release); err != nil {
			return err
		}
	}
	_, err := tx.Tx.Tx.ExecContext(ctx, "SAVEPOINT "+name)
	return err
}

func (tx batchTx) RollbackTo(name string) error {
	_, err := tx.Tx.Tx.ExecContext(context.Background(), "ROLLBACK TO SAVEPOINT "+name)
	return err
}

func (tx batchTx) Commit() error { return tx.Tx.Commit() }

// Rollback ends the transaction; after Commit it does nothing.
func (tx batchTx) Rollback() error { tx.Tx.Rollback(); return nil }

// openBatch makes db's batcher ready; Open calls it.
func (db *DB) openBatch() {
	db.batch.Begin = func() (batchTx, error) {
		tx, err := db.BeginTx(context.Background(), true)
		return batchTx{tx}, err
	}
	db.batch.Committed = db.Committed
}

// inBatch runs fn in a savepoint of a shared write transaction and returns
// fn's error, or the commit's (see groupcommit.Batcher.Do). fn must not
// commit or roll back tx, and its effects must be used by the caller only
// when inBatch returns nil. fn runs with ctx's values but not its
// cancellation, as in package postgres: for every statement run with a
// context that can end, the driver starts a goroutine that interrupts it
// when the context ends, which under load was a goroutine and its garbage
// per statement of every move; a write cut off midway would only be rolled
// back to its savepoint, and its caller waits for the batch anyway.
func (db *DB) inBatch(ctx context.Context, fn func(ctx context.Context, tx *Tx) error) error {
	return db.batch.Do(ctx, func(ctx context.Context, tx batchTx) error { return fn(context.WithoutCancel(ctx), tx.Tx) })
}
