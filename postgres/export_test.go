package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
)

// Buckets returns the number of stored rate buckets.
func (l *RateLimiter) Buckets(ctx context.Context) (n int, err error) {
	err = l.db.pool.QueryRow(ctx, `SELECT count(*) FROM rate_buckets`).Scan(&n)
	return n, err
}

// SetTracer makes t see every statement of db's connections; call it
// before Open.
func SetTracer(db *DB, t pgx.QueryTracer) { db.tracer = t }

// Writers returns how many group-commit batches db runs at once.
func Writers(db *DB) int { return db.batch.Parallelism() }

// SetBusLegacyCheck sets how often buses opened afterwards look for
// instances of the version before; restore sets it back.
func SetBusLegacyCheck(d time.Duration) (restore func()) {
	old := busLegacyCheck
	busLegacyCheck = d
	return func() { busLegacyCheck = old }
}
