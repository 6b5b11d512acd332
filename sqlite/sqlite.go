// Package sqlite stores Tengen's data in an SQLite file through
// modernc.org/sqlite (pure Go, no cgo). The file runs in WAL mode; all writes
// go through a single connection so that writers queue in Go instead of
// spinning on SQLITE_BUSY, while reads use a pool of read-only connections.
// Every service call is one transaction. The schema comes from the embedded,
// ordered migrations in migrations/*.sql, written in SQL that PostgreSQL
// also accepts except for a few functions in CHECK constraints (see
// 0004_constraints.sql). The constraints are the storage's integrity guards;
// the rules of Go are package play's.
package sqlite

import (
	"context"
	"crypto/rand"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"math/big"
	"net/url"
	"sort"
	"strings"
	"time"

	_ "modernc.org/sqlite" // registers the "sqlite" database/sql driver

	"tengen/internal/groupcommit"
)

//go:embed migrations/*.sql
var migrationFS embed.FS

// timeFormat is how times are stored: fixed-width UTC, so that text order is
// time order in both SQLite and PostgreSQL.
const timeFormat = "2006-01-02T15:04:05.000000Z07:00"

// DB is an open Tengen database.
type DB struct {
	// Path is the database file name. Set it before Open.
	Path string

	// Now returns the current time; tests may replace it before Open.
	Now func() time.Time

	// Coin decides nigiri; true means the challenger plays Black. The
	// default is a fair coin from crypto/rand. Tests may replace it before
	// Open.
	Coin func() bool

	// Synchronous is SQLite's synchronous setting ("FULL" by default: every
	// commit is on disk before a move is acknowledged, surviving power loss;
	// "NORMAL" survives process crashes only but is faster).
	Synchronous string

	// Committed, when set before Open, is called after every group commit
	// (batch.go) with the number of writes it made durable and the time
	// the batch took, for metrics. It runs on the committing goroutine and
	// must not block.
	Committed func(writes int, took time.Duration)

	write *sql.DB                      // one connection: all writes, serialised
	read  *sql.DB                      // read-only pool
	batch groupcommit.Batcher[batchTx] // group commit of moves and game updates (batch.go)
	// games caches the games the move path wrote (gamecache.go).
	games gameCache
	// stmts holds the hot statements prepared on write (stmt.go), by
	// query text, and readStmts the hot reads prepared on read; Open fills
	// them and they do not change afterwards.
	stmts, readStmts map[string]*sql.Stmt
}

// NewDB returns a DB for the file at path; call Open before use.
func NewDB(path string) *DB {
	return &DB{Path: path, Now: time.Now, Coin: fairCoin, Synchronous: "FULL"}
}

func fairCoin() bool {
	n, err := rand.Int(rand.Reader, big.NewInt(2))
	if err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	return n.Int64() == 1
}

func (db *DB) dsn(readOnly bool) string {
	q := url.Values{}
	q.Set("_busy_timeout", "10000")
	q.Set("_foreign_keys", "1")
	if readOnly {
		q.Set("_query_only", "1")
	} else {
		q.Set("_journal_mode", "WAL")
		q.Set("_synchronous", db.Synchronous)
		// Take the write lock at BEGIN so a transaction never fails halfway
		// when it upgrades from reading to writing.
		q.Set("_txlock", "immediate")
	}
	return "file:" + db.Path + "?" + q.Encode()
}

// Open opens the database file, creating it if needed, and applies pending
// migrations.
func (db *DB) Open() (err error) {
	if db.Path == "" {
		return fmt.Errorf("sqlite: database path required")
	}
	if db.Path == ":memory:" || strings.Contains(db.Path, "mode=memory") {
		// A second pool would see a different, empty database.
		return fmt.Errorf("sqlite: in-memory databases are not supported; use a file in a temporary directory")
	}
	if db.write, err = sql.Open("sqlite", db.dsn(false)); err != nil {
		return err
	}
	db.write.SetMaxOpenConns(1)
	db.write.SetConnMaxIdleTime(0)
	if err := db.migrate(context.Background()); err != nil {
		db.write.Close()
		return fmt.Errorf("sqlite: migrate: %w", err)
	}
	if err := db.prepareHot(context.Background()); err != nil {
		db.write.Close()
		return fmt.Errorf("sqlite: prepare: %w", err)
	}
	if db.read, err = sql.Open("sqlite", db.dsn(true)); err != nil {
		db.write.Close()
		return err
	}
	db.read.SetMaxOpenConns(8)
	db.read.SetMaxIdleConns(8) // keep them, and the statements prepared on them
	if err := db.prepareHotReads(context.Background()); err != nil {
		db.read.Close()
		db.write.Close()
		return fmt.Errorf("sqlite: prepare: %w", err)
	}
	db.openBatch()
	return nil
}

// Close closes the database. Callers must stop issuing calls first; the
// http server's Shutdown waits for in-flight requests.
func (db *DB) Close() error {
	var errs []error
	for _, st := range db.readStmts {
		errs = append(errs, st.Close())
	}
	if db.read != nil {
		errs = append(errs, db.read.Close())
	}
	for _, st := range db.stmts {
		errs = append(errs, st.Close())
	}
	if db.write != nil {
		// Fold the WAL back into the main file so a copied database file is
		// complete on its own.
		_, err := db.write.Exec("PRAGMA wal_checkpoint(TRUNCATE)")
		errs = append(errs, err, db.write.Close())
	}
	return errors.Join(errs...)
}

// Ping checks that the database answers; /healthz uses it.
func (db *DB) Ping(ctx context.Context) error {
	var n int
	return db.read.QueryRowContext(ctx, "SELECT 1").Scan(&n)
}

// migrate applies the embedded migrations that have not been applied yet, in
// file name order, each in its own transaction.
func (db *DB) migrate(ctx context.Context) error {
	names, err := migrationNames()
	if err != nil {
		return err
	}
	return db.migrateFiles(ctx, names)
}

// migrationNames returns the embedded migrations in the order they apply.
func migrationNames() ([]string, error) {
	names, err := fs.Glob(migrationFS, "migrations/*.sql")
	sort.Strings(names)
	return names, err
}

// migrateFiles applies the named migrations that have not been applied yet,
// in the order given; tests use it to build databases of older versions.
func (db *DB) migrateFiles(ctx context.Context, names []string) error {
	if _, err := db.write.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)`); err != nil {
		return err
	}
	for _, name := range names {
		if err := db.migrateFile(ctx, name); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	return nil
}

func (db *DB) migrateFile(ctx context.Context, name string) error {
	tx, err := db.write.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM schema_migrations WHERE name = ?`, name).Scan(&n); err != nil {
		return err
	} else if n > 0 {
		return nil
	}
	data, err := migrationFS.ReadFile(name)
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, string(data)); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (name, applied_at) VALUES (?, ?)`, name, formatTime(db.Now())); err != nil {
		return err
	}
	return tx.Commit()
}

// Tx is one transaction with the time it started, which every row it
// writes uses as its timestamp.
type Tx struct {
	*sql.Tx
	db       *DB
	now      time.Time
	writable bool // on the write connection
	// usersWritten marks a transaction that ran a statement that may
	// change users rows (see gameCache).
	usersWritten bool
	// prepared holds a write transaction's uses of the hot statements,
	// made on first use (see Tx.stmt): a batch runs the same few
	// statements for every move it holds. Only the goroutine that runs
	// the transaction touches it.
	prepared map[string]*sql.Stmt
	// nowText is formatTime(now) as a statement's argument, made on first
	// use (see nowArg). Only the goroutine that runs the transaction
	// touches it.
	nowText any
}

// nowArg returns formatTime(tx.now) as a statement's argument, formatted
// and boxed once per transaction: a write batch stores the same time three
// times for every move it holds, and each formatting and boxing was an
// allocation of its own.
func (tx *Tx) nowArg() any {
	if tx.nowText == nil {
		tx.nowText = formatTime(tx.now)
	}
	return tx.nowText
}

// Commit commits the transaction like sql.Tx.Commit; after a commit that
// changed users rows, the cached games are stale (gamecache.go).
func (tx *Tx) Commit() error {
	if err := tx.Tx.Commit(); err != nil {
		return err
	}
	if tx.usersWritten {
		tx.db.games.invalidateAll()
	}
	return nil
}

// BeginTx starts a transaction: on the write connection if writable, else on
// the read-only pool.
func (db *DB) BeginTx(ctx context.Context, writable bool) (*Tx, error) {
	pool := db.read
	if writable {
		pool = db.write
	}
	tx, err := pool.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	return &Tx{Tx: tx, db: db, now: db.Now().UTC().Truncate(time.Microsecond), writable: writable}, nil
}

// nextID takes the next id for table from id_sequences. The UPDATE locks the
// row in PostgreSQL, so the same statement is safe there too.
func (tx *Tx) nextID(ctx context.Context, table string) (int64, error) {
	var id int64
	err := tx.QueryRowContext(ctx, `UPDATE id_sequences SET last_id = last_id + 1 WHERE name = ? RETURNING last_id`, table).Scan(&id)
	return id, err
}

func formatTime(t time.Time) string {
	return t.UTC().Format(timeFormat)
}

func parseTime(s string) (time.Time, error) {
	return time.Parse(timeFormat, s)
}

// timeText scans a stored time.
type timeText struct{ t *time.Time }

func (v timeText) Scan(src any) error {
	var s string
	switch src := src.(type) {
	case string:
		s = src
	case []byte:
		s = string(src)
	default:
		return fmt.Errorf("time column holds %T", src)
	}
	t, err := parseTime(s)
	*v.t = t
	return err
}
