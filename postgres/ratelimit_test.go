package postgres_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"tengen/postgres"
	"tengen/postgres/pgtest"
)

// TestRateLimiterShared: two instances on one database take from the same
// buckets, so that a burst of 5 allows 5 takes in all, however they are
// spread and even when they race; the bucket refills with time, the wait
// says when, and full buckets are swept.
func TestRateLimiterShared(t *testing.T) {
	url := pgtest.URL(t)
	var ls [2]*postgres.RateLimiter
	for i := range ls {
		db := postgres.NewDB(url)
		if err := db.Open(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		ls[i] = postgres.NewRateLimiter(db)
	}
	ctx := context.Background()
	t0 := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	const burst, every = 5, 10 * time.Second

	take := func(i int, key string, at time.Time) (bool, time.Duration) {
		t.Helper()
		ok, wait, err := ls[i].Take(ctx, key, burst, every, at)
		if err != nil {
			t.Fatal(err)
		}
		return ok, wait
	}
	for i, want := range []bool{true, true, true, true, true, false, false} {
		ok, wait := take(i%2, "login 10.0.0.1", t0)
		if ok != want {
			t.Fatalf("take %d (instance %d): %v, want %v", i+1, i%2, ok, want)
		}
		if !ok && wait != every {
			t.Errorf("take %d refused with wait %v, want %v", i+1, wait, every)
		}
	}
	// Another key has its own bucket.
	if ok, _ := take(1, "login 10.0.0.2", t0); !ok {
		t.Error("a fresh key was refused")
	}
	// 2.5 s later a quarter of a token has come back: 7.5 s to wait.
	if ok, wait := take(0, "login 10.0.0.1", t0.Add(2500*time.Millisecond)); ok || wait != 7500*time.Millisecond {
		t.Errorf("after 2.5 s: %v, wait %v; want refused, 7.5s", ok, wait)
	}
	if ok, _ := take(1, "login 10.0.0.1", t0.Add(every)); !ok {
		t.Error("after one interval the bucket is still empty")
	}
	// A clock behind the last take's does not refill or drain.
	if ok, _ := take(0, "login 10.0.0.1", t0); ok {
		t.Error("an earlier clock found a token")
	}

	// Racing instances: 40 takes at once, 5 succeed.
	var mu sync.Mutex
	var wg sync.WaitGroup
	okN := 0
	for i := range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ok, _, err := ls[i%2].Take(ctx, "race", burst, every, t0)
			if err != nil {
				t.Error(err)
			}
			mu.Lock()
			defer mu.Unlock()
			if ok {
				okN++
			}
		}()
	}
	wg.Wait()
	if okN != burst {
		t.Errorf("racing takes: %d succeeded, want %d", okN, burst)
	}

	if _, _, err := ls[0].Take(ctx, "bad", 0, every, t0); err == nil {
		t.Error("a burst of 0 was accepted")
	}

	// An hour later every bucket is full again: the next take sweeps them.
	n, err := ls[0].Buckets(ctx)
	if err != nil || n != 3 {
		t.Fatalf("%d buckets before the sweep (%v), want 3", n, err)
	}
	if ok, _ := take(0, "later", t0.Add(time.Hour)); !ok {
		t.Error("a take an hour later was refused")
	}
	if n, err := ls[0].Buckets(ctx); err != nil || n != 1 {
		t.Errorf("%d buckets after the sweep (%v), want 1 (the new one)", n, err)
	}
}
