package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// Checkpoints off the write path. In WAL mode a commit appends the pages it
// changed to the WAL file, and a checkpoint copies them back into the
// database file. By default SQLite checkpoints inside the commit that takes
// the WAL past 1,000 pages, on the committing connection; ours is the one
// writer, so every batch of moves queued behind it waited for the copy and,
// with synchronous=FULL, for the sync of the database file: at 2,000 moves/s
// that was several times a second, and it made the tail of the move
// latency. The writer therefore runs with wal_autocheckpoint off, and a
// goroutine checkpoints on a connection of its own (mode PASSIVE, which never
// waits for the writer or the readers) a little after commits, while the
// writer goes on appending to the WAL.
//
// A PASSIVE checkpoint copies what was in the WAL when it began; SQLite
// starts the WAL over from its beginning only when a write transaction
// begins while all of it has been copied. Under a steady stream of commits
// that moment may not come, and the WAL would grow without end. So when the
// WAL holds more than WALLimit pages after a checkpoint, the checkpointer
// runs one more on the writer connection, between two transactions: it
// copies only what was committed during the background checkpoint (a few
// pages, and one sync of the database file), and the next write starts the
// WAL over. A reader that holds an old snapshot for long delays this, as it
// delays SQLite's own checkpoints; nothing waits for it.

// Defaults of DB.CheckpointEvery and DB.WALLimit.
const (
	defaultCheckpointEvery = 200 * time.Millisecond
	defaultWALLimit        = 16384 // pages: 64 MiB at SQLite's default page size of 4 KiB
)

// checkpointer is the state of DB's checkpoint goroutine.
type checkpointer struct {
	conn *sql.DB       // one connection, for checkpoints only
	wake chan struct{} // buffered (1): commits happened since the last checkpoint
	stop chan struct{} // closed by Close
	done chan struct{} // closed when the goroutine has returned
}

// startCheckpoints opens the checkpoint connection and starts the goroutine;
// Open calls it.
func (db *DB) startCheckpoints() error {
	conn, err := sql.Open("sqlite", db.dsn(dsnCheckpoint))
	if err != nil {
		return err
	}
	conn.SetMaxOpenConns(1)
	conn.SetConnMaxIdleTime(0)
	if err := conn.Ping(); err != nil {
		conn.Close()
		return err
	}
	db.ckpt = checkpointer{conn: conn, wake: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
	go db.checkpointLoop()
	return nil
}

// committed tells the checkpointer that a write transaction committed. It
// never blocks.
func (db *DB) committed() {
	select {
	case db.ckpt.wake <- struct{}{}:
	default:
	}
}

// stopCheckpoints stops the goroutine and closes its connection; Close calls
// it before closing the others.
func (db *DB) stopCheckpoints() error {
	if db.ckpt.conn == nil {
		return nil
	}
	close(db.ckpt.stop)
	<-db.ckpt.done
	return db.ckpt.conn.Close()
}

// checkpointLoop checkpoints after commits, at most once per
// CheckpointEvery, so that a page changed by many moves in between is copied
// once.
func (db *DB) checkpointLoop() {
	defer close(db.ckpt.done)
	every, limit := db.CheckpointEvery, db.WALLimit
	if every <= 0 {
		every = defaultCheckpointEvery
	}
	if limit <= 0 {
		limit = defaultWALLimit
	}
	t := time.NewTimer(every)
	defer t.Stop()
	for {
		select {
		case <-db.ckpt.stop:
			return
		case <-db.ckpt.wake:
		}
		t.Reset(every)
		select {
		case <-db.ckpt.stop:
			return
		case <-t.C:
		}
		wal, err := checkpoint(db.ckpt.conn, "PASSIVE")
		if err == nil && wal > limit {
			// On the writer connection, as one more user of its pool: it
			// runs between two write transactions.
			_, err = checkpoint(db.write, "PASSIVE")
		}
		if err != nil && db.Logger != nil {
			db.Logger.Error("sqlite: checkpoint", "err", err)
		}
	}
}

// checkpoint runs a checkpoint of the given mode on a connection of pool
// and returns the number of pages in the WAL.
func checkpoint(pool *sql.DB, mode string) (walPages int, err error) {
	var busy, copied int
	if err := pool.QueryRowContext(context.Background(), "PRAGMA wal_checkpoint("+mode+")").Scan(&busy, &walPages, &copied); err != nil {
		return 0, fmt.Errorf("sqlite: checkpoint: %w", err)
	}
	return walPages, nil
}
