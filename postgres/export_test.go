package postgres

import "context"

// Buckets returns the number of stored rate buckets.
func (l *RateLimiter) Buckets(ctx context.Context) (n int, err error) {
	err = l.db.pool.QueryRow(ctx, `SELECT count(*) FROM rate_buckets`).Scan(&n)
	return n, err
}
