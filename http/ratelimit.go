package http

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"tengen"
)

// limiter is a set of token buckets keyed by client address or account
// name, with a bound on the number of buckets so that an attacker who
// varies the key cannot exhaust memory. With several instances on one
// database the limits of a deployment go through shared (take, forget).
type limiter struct {
	// shared, when set, keeps the buckets for every instance
	// (Config.RateLimiter); name keeps this limiter's keys apart from the
	// others' there. The buckets in memory then only stand in while
	// storage fails.
	shared tengen.RateLimiter
	name   string
	log    *slog.Logger

	burst float64
	every time.Duration // one token is added per every
	max   int           // most buckets kept
	now   func() time.Time

	mu      sync.Mutex         // guards buckets
	buckets map[string]*bucket // guarded by mu
}

type bucket struct {
	tokens float64
	last   time.Time
}

func newLimiter(burst int, every time.Duration, max int, now func() time.Time) *limiter {
	return &limiter{burst: float64(burst), every: every, max: max, now: now, buckets: make(map[string]*bucket)}
}

// refill brings b up to date at now. Callers hold l.mu.
func (l *limiter) refill(b *bucket, now time.Time) {
	if elapsed := now.Sub(b.last); elapsed > 0 {
		b.tokens = min(l.burst, b.tokens+float64(elapsed)/float64(l.every))
		b.last = now
	}
}

// allow takes a token for key. If none is left it returns false and how
// long until the next token.
func (l *limiter) allow(key string) (bool, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	b := l.buckets[key]
	if b == nil {
		l.makeRoom(now)
		b = &bucket{tokens: l.burst, last: now}
		l.buckets[key] = b
	}
	l.refill(b, now)
	if b.tokens < 1 {
		wait := time.Duration((1 - b.tokens) * float64(l.every))
		return false, wait
	}
	b.tokens--
	return true, 0
}

// take takes a token for key from the shared buckets when there are
// some, else from this instance's (allow). When storage fails, this
// instance's buckets hold the limit meanwhile: an attacker gains no
// unlimited attempts from a database that does not answer.
func (l *limiter) take(ctx context.Context, key string) (bool, time.Duration) {
	if l.shared == nil {
		return l.allow(key)
	}
	ok, wait, err := l.shared.Take(ctx, l.name+" "+key, int(l.burst), l.every, l.now())
	if err != nil {
		l.log.Error("shared rate limit", "limit", l.name, "err", err)
		return l.allow(key)
	}
	return ok, wait
}

// forget forgets key in the shared buckets and here, e.g. after a
// successful login.
func (l *limiter) forget(ctx context.Context, key string) {
	if l.shared != nil {
		if err := l.shared.Forget(ctx, l.name+" "+key); err != nil {
			l.log.Error("shared rate limit", "limit", l.name, "err", err)
		}
	}
	l.reset(key)
}

// reset forgets key, e.g. after a successful login.
func (l *limiter) reset(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.buckets, key)
}

// makeRoom keeps len(buckets) below max. Full buckets carry no information
// and go first; if that is not enough, arbitrary buckets are dropped, which
// at worst gives those keys a fresh burst. Callers hold l.mu.
func (l *limiter) makeRoom(now time.Time) {
	if len(l.buckets) < l.max {
		return
	}
	for k, b := range l.buckets {
		if l.refill(b, now); b.tokens >= l.burst {
			delete(l.buckets, k)
		}
	}
	// Drop an eighth at a time so that a full table of active buckets does
	// not make every new key scan the whole map.
	for k := range l.buckets {
		if len(l.buckets) < l.max-l.max/8 {
			break
		}
		delete(l.buckets, k)
	}
}

// size returns the number of buckets, for tests.
func (l *limiter) size() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.buckets)
}
