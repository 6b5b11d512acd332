package tengen

import (
	"context"
	"time"
)

// RateLimiter keeps token buckets that the instances on one database share
// (package postgres), so that a limit on login attempts, sign-ups,
// challenges or chat messages holds for the whole deployment and not once
// per instance behind a load balancer. With one instance (SQLite) the
// buckets stay in the memory of package http and there is no RateLimiter.
type RateLimiter interface {
	// Take takes one token at now from the bucket named key, which holds
	// at most burst tokens and gains one per every; a bucket not seen
	// before starts full. It reports whether there was a token and, when
	// there was none, how long until there is one.
	Take(ctx context.Context, key string, burst int, every time.Duration, now time.Time) (ok bool, wait time.Duration, err error)
	// Forget makes the bucket named key full again (a successful login
	// forgets the account's failed attempts).
	Forget(ctx context.Context, key string) error
}
