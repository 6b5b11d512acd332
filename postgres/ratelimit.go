package postgres

import (
	"context"
	"fmt"
	"sync"
	"time"

	"tengen"
)

// Compile-time check that RateLimiter implements the interface.
var _ tengen.RateLimiter = (*RateLimiter)(nil)

// rateSweepEvery is how often an instance deletes the buckets that are
// full again.
const rateSweepEvery = time.Minute

// RateLimiter keeps the token buckets of tengen.RateLimiter in the table
// rate_buckets. One statement refills and takes, so that two instances
// taking from one bucket at once both count: the row lock orders them.
// Time comes from the caller (each instance's clock, kept by NTP as the
// session expiry already assumes); a bucket never runs backwards when one
// instance's clock is behind another's.
type RateLimiter struct {
	db *DB

	mu    sync.Mutex // guards swept
	swept time.Time  // when this instance last deleted full buckets
}

// NewRateLimiter returns a RateLimiter on db.
func NewRateLimiter(db *DB) *RateLimiter {
	return &RateLimiter{db: db}
}

// takeSQL refills the bucket by the time since it was counted (at most to
// burst) and takes a token when there is one. $1 key, $2 burst, $3 now,
// $4 every in microseconds.
const takeSQL = `
WITH arg AS (SELECT $1::text AS key, $2::float8 AS burst, $3::timestamptz AS now, $4::float8 AS every_us)
INSERT INTO rate_buckets AS b (key, tokens, at, taken, full_by)
SELECT key, burst - 1, now, TRUE, now + make_interval(secs => burst * every_us / 1e6) FROM arg
ON CONFLICT (key) DO UPDATE SET (tokens, at, taken, full_by) = (
	SELECT CASE WHEN r >= 1 THEN r - 1 ELSE r END, t, r >= 1, t + make_interval(secs => burst * every_us / 1e6)
	FROM (SELECT least(burst, b.tokens + greatest(0, extract(epoch FROM now - b.at)) * 1e6 / every_us) AS r,
		greatest(b.at, now) AS t, burst, every_us FROM arg) AS refill)
RETURNING tokens, taken`

// Take implements tengen.RateLimiter.
func (l *RateLimiter) Take(ctx context.Context, key string, burst int, every time.Duration, now time.Time) (bool, time.Duration, error) {
	if burst < 1 || every <= 0 {
		// A caller's mistake, never a user's: no message for users.
		return false, 0, fmt.Errorf("postgres: rate limit %q: burst %d and interval %v (want at least 1 and more than 0)", key, burst, every)
	}
	now = now.UTC().Truncate(time.Microsecond)
	var tokens float64
	var taken bool
	err := l.db.pool.QueryRow(ctx, takeSQL, key, float64(burst), now, float64(every.Microseconds())).Scan(&tokens, &taken)
	if err != nil {
		return false, 0, err
	}
	if err := l.sweep(ctx, now); err != nil {
		return false, 0, err
	}
	if taken {
		return true, 0, nil
	}
	return false, time.Duration((1 - tokens) * float64(every)), nil
}

// Forget implements tengen.RateLimiter.
func (l *RateLimiter) Forget(ctx context.Context, key string) error {
	_, err := l.db.pool.Exec(ctx, `DELETE FROM rate_buckets WHERE key = $1`, key)
	return err
}

// sweep deletes the buckets that are full again, at most once per
// rateSweepEvery on this instance.
func (l *RateLimiter) sweep(ctx context.Context, now time.Time) error {
	l.mu.Lock()
	due := now.Sub(l.swept) >= rateSweepEvery
	if due {
		l.swept = now
	}
	l.mu.Unlock()
	if !due {
		return nil
	}
	_, err := l.db.pool.Exec(ctx, `DELETE FROM rate_buckets WHERE full_by < $1`, now)
	return err
}
