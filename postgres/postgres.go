// Package postgres stores Tengen's data in PostgreSQL through pgx (v5), for
// servers that outgrow one SQLite file. It implements the same storage
// services as package sqlite and passes the same conformance suite
// (storagetest). Every service call is one transaction on a connection of a
// pgx pool; moves and game updates share transactions by group commit
// (batch.go). The schema comes from the embedded, ordered migrations in
// migrations/*.sql, applied under an advisory lock so that instances that
// start together migrate once. The constraints are the storage's integrity
// guards, translated into application errors in errors.go; the rules of Go
// are package play's.
package postgres

import (
	"context"
	"crypto/rand"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"math/big"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/jackc/pgx/v5/pgxpool"

	"tengen/internal/groupcommit"
)

//go:embed migrations/*.sql
var migrationFS embed.FS

// IsURL reports whether s names a PostgreSQL database (a postgres:// or
// postgresql:// URL) rather than an SQLite file.
func IsURL(s string) bool {
	return strings.HasPrefix(s, "postgres://") || strings.HasPrefix(s, "postgresql://")
}

// DB is an open Tengen database in PostgreSQL.
type DB struct {
	// URL is the connection string (postgres://user:password@host:port/db?...,
	// or any form pgx accepts). Set it before Open.
	URL string

	// Now returns the current time; tests may replace it before Open.
	Now func() time.Time

	// Coin decides nigiri; true means the challenger plays Black. The
	// default is a fair coin from crypto/rand. Tests may replace it before
	// Open.
	Coin func() bool

	// MaxConns bounds the pool's connections (default 16).
	MaxConns int32

	// Committed, when set before Open, is called after every group commit
	// (batch.go) with the number of writes it made durable and the time
	// the batch took, for metrics. It runs on the committing goroutine and
	// must not block.
	Committed func(writes int, took time.Duration)

	pool  *pgxpool.Pool
	batch groupcommit.Batcher[batchTx] // group commit of moves and game updates (batch.go)
	// instance is this instance's id once ClusterService.Register has
	// run, 0 before: the game path's writes are fenced by it (cluster.go).
	instance atomic.Int64
	// tracer, when set before Open, sees every statement the pool's
	// connections send; the benchmarks count round trips with it
	// (export_test.go).
	tracer pgx.QueryTracer
}

// NewDB returns a DB for the database at url; call Open before use.
func NewDB(url string) *DB {
	return &DB{URL: url, Now: time.Now, Coin: fairCoin, MaxConns: 16}
}

func fairCoin() bool {
	n, err := rand.Int(rand.Reader, big.NewInt(2))
	if err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	return n.Int64() == 1
}

// Open connects to the database and applies pending migrations.
func (db *DB) Open() error {
	ctx := context.Background()
	if db.URL == "" {
		return fmt.Errorf("postgres: database URL required")
	}
	cfg, err := pgxpool.ParseConfig(db.URL)
	if err != nil {
		return fmt.Errorf("postgres: %w", err)
	}
	if db.MaxConns > 0 {
		cfg.MaxConns = db.MaxConns
	}
	if db.tracer != nil {
		cfg.ConnConfig.Tracer = db.tracer
	}
	cfg.AfterConnect = func(ctx context.Context, conn *pgx.Conn) error {
		// Times come back in UTC, as they were written, instead of in
		// the local zone.
		conn.TypeMap().RegisterType(&pgtype.Type{Name: "timestamptz", OID: pgtype.TimestamptzOID,
			Codec: &pgtype.TimestamptzCodec{ScanLocation: time.UTC}})
		return nil
	}
	if db.pool, err = pgxpool.NewWithConfig(ctx, cfg); err != nil {
		return fmt.Errorf("postgres: %w", err)
	}
	if err := db.migrate(ctx); err != nil {
		db.pool.Close()
		return fmt.Errorf("postgres: migrate: %w", err)
	}
	db.openBatch()
	return nil
}

// Close closes the pool's connections. Callers must stop issuing calls
// first; the http server's Shutdown waits for in-flight requests.
func (db *DB) Close() error {
	if db.pool != nil {
		db.pool.Close()
	}
	return nil
}

// Ping checks that the database answers; /healthz uses it.
func (db *DB) Ping(ctx context.Context) error {
	return db.pool.Ping(ctx)
}

// migrationLock is the key of the advisory lock that migrations hold, so
// that instances starting at the same time apply each migration once.
const migrationLock = 0x7465_6e67_656e // "tengen"

// migrate applies the embedded migrations that have not been applied yet, in
// file name order, in one transaction that holds migrationLock.
func (db *DB) migrate(ctx context.Context) error {
	names, err := fs.Glob(migrationFS, "migrations/*.sql")
	if err != nil {
		return err
	}
	sort.Strings(names)
	tx, err := db.pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, int64(migrationLock)); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL)`); err != nil {
		return err
	}
	for _, name := range names {
		var n int
		if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM schema_migrations WHERE name = $1`, name).Scan(&n); err != nil {
			return err
		} else if n > 0 {
			continue
		}
		data, err := migrationFS.ReadFile(name)
		if err != nil {
			return err
		}
		// Without arguments pgx sends the file in the simple protocol,
		// which runs several statements.
		if _, err := tx.Exec(ctx, string(data)); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		if _, err := tx.Exec(ctx, `INSERT INTO schema_migrations (name, applied_at) VALUES ($1, $2)`, name, db.Now().UTC()); err != nil {
			return err
		}
	}
	return tx.Commit(ctx)
}

// Tx is one transaction with the time it started, which every row it
// writes uses as its timestamp.
type Tx struct {
	pgx.Tx
	db  *DB
	now time.Time
	// ahead holds the statements a group-commit batch's writes queued to
	// be sent together (batchTx.sendAhead); only the batch's goroutine
	// uses it.
	ahead []*aheadWrite
}

// BeginTx starts a transaction; a read-only one when writable is false.
func (db *DB) BeginTx(ctx context.Context, writable bool) (*Tx, error) {
	opts := pgx.TxOptions{}
	if !writable {
		opts.AccessMode = pgx.ReadOnly
	}
	tx, err := db.pool.BeginTx(ctx, opts)
	if err != nil {
		return nil, err
	}
	return &Tx{Tx: tx, db: db, now: db.Now().UTC().Truncate(time.Microsecond)}, nil
}

// rollback ends tx without committing; deferred by every service call, it
// does nothing after a commit.
func (tx *Tx) rollback() { _ = tx.Tx.Rollback(context.Background()) }

// commit commits tx.
func (tx *Tx) commit(ctx context.Context) error { return constraintError(tx.Tx.Commit(ctx)) }

// exec runs a statement and returns the number of rows it affected, with
// constraint violations translated by constraintError. Every write goes
// through exec or insertID, so these are the places where they are
// translated.
func (tx *Tx) exec(ctx context.Context, query string, args ...any) (int64, error) {
	tag, err := tx.Tx.Exec(ctx, query, args...)
	if err != nil {
		return 0, constraintError(err)
	}
	return tag.RowsAffected(), nil
}

// statement is one statement of a pipeline.
type statement struct {
	query string
	args  []any
}

// pipeline sends the statements in one round trip and runs them in order.
// It returns the rows affected by each statement up to the first that
// failed, and that statement's error translated by constraintError. A
// statement after a failed one does not run (the transaction is aborted),
// so callers run pipelines inside a savepoint or a transaction they roll
// back on error.
func (tx *Tx) pipeline(ctx context.Context, stmts ...statement) ([]int64, error) {
	var b pgx.Batch
	for _, st := range stmts {
		b.Queue(st.query, st.args...)
	}
	br := tx.Tx.SendBatch(ctx, &b)
	n := make([]int64, 0, len(stmts))
	var err error
	for range stmts {
		var tag pgconn.CommandTag
		if tag, err = br.Exec(); err != nil {
			break
		}
		n = append(n, tag.RowsAffected())
	}
	if cerr := br.Close(); err == nil {
		err = cerr
	}
	return n, constraintError(err)
}

// insertID runs an INSERT ... RETURNING id and returns the id.
func (tx *Tx) insertID(ctx context.Context, query string, args ...any) (int64, error) {
	var id int64
	err := tx.Tx.QueryRow(ctx, query, args...).Scan(&id)
	return id, constraintError(err)
}

// noRows reports whether err says that a query returned no row.
func noRows(err error) bool { return errors.Is(err, pgx.ErrNoRows) }

// placeholders returns "$from, $from+1, ..." with n placeholders.
func placeholders(from, n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "$%d", from+i)
	}
	return b.String()
}
