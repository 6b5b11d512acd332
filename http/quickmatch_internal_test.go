package http

import (
	"context"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"tengen"
)

func TestSeekWindow(t *testing.T) {
	for _, tt := range []struct {
		waited time.Duration
		want   int
	}{
		{0, 2}, {9 * time.Second, 2}, {10 * time.Second, 3}, {35 * time.Second, 5}, {70 * time.Second, 9}, {time.Hour, 9},
	} {
		if got := seekWindow(tt.waited); got != tt.want {
			t.Errorf("seekWindow(%v) = %d, want %d", tt.waited, got, tt.want)
		}
	}
}

// poolLog records what a seek pool did.
type poolLog struct {
	mu      sync.Mutex
	pairs   [][2]string
	offers  []string
	windows map[string]int
}

func newTestPool(botAfter time.Duration) (*seekPool, *poolLog) {
	log := &poolLog{windows: map[string]int{}}
	p := &seekPool{wake: make(chan struct{}, 1), botAfter: botAfter,
		pair: func(a, b *seek) {
			log.mu.Lock()
			defer log.mu.Unlock()
			log.pairs = append(log.pairs, [2]string{a.user.Name, b.user.Name})
		},
		offer: func(sk *seek) {
			log.mu.Lock()
			defer log.mu.Unlock()
			log.offers = append(log.offers, sk.user.Name)
		},
		status: func(sk *seek) {
			log.mu.Lock()
			defer log.mu.Unlock()
			log.windows[sk.user.Name] = sk.window
		},
	}
	return p, log
}

// runPool lets the first seek start p's loop and returns the function
// that stops it and waits for it.
func runPool(p *seekPool) (stop func()) {
	ch := make(chan struct{})
	p.stop = ch
	return func() { close(ch); p.wait() }
}

func (l *poolLog) snapshot() (pairs [][2]string, offers []string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([][2]string(nil), l.pairs...), append([]string(nil), l.offers...)
}

func testSeek(id int64, name, rank string, size int, speed string) *seek {
	v, _ := tengen.RankValue(rank)
	return &seek{user: &tengen.User{ID: id, Name: name, Rank: rank}, rank: v, size: size, speed: speed, since: time.Now(), window: seekWindow(0)}
}

// TestSeekPoolWidens: two seekers six ranks apart are not paired at once;
// the window widens by a rank every ten seconds and pairs them when it
// reaches six, after forty seconds; a seeker of another size is never
// paired with them.
func TestSeekPoolWidens(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, log := newTestPool(time.Minute)
		defer runPool(p)()
		p.add(context.Background(), testSeek(1, "ann", "12k", 19, "live"))
		p.add(context.Background(), testSeek(2, "ben", "6k", 19, "live"))
		p.add(context.Background(), testSeek(3, "cid", "12k", 13, "live"))
		synctest.Wait()
		time.Sleep(39 * time.Second)
		synctest.Wait()
		if pairs, _ := log.snapshot(); len(pairs) != 0 {
			t.Fatalf("paired after 39 s: %v", pairs)
		}
		log.mu.Lock()
		if w := log.windows["ann"]; w != 5 {
			t.Errorf("ann's window after 39 s: %d, want 5", w)
		}
		log.mu.Unlock()
		time.Sleep(2 * time.Second)
		synctest.Wait()
		pairs, _ := log.snapshot()
		if len(pairs) != 1 || pairs[0] != [2]string{"ann", "ben"} {
			t.Fatalf("pairs after 41 s: %v", pairs)
		}
		p.mu.Lock()
		left := len(p.seeks)
		p.mu.Unlock()
		if left != 1 {
			t.Errorf("%d seeks left, want cid's", left)
		}
	})
}

// TestSeekPoolOffersBot: a seeker without a human gets the offer of a
// computer level after a minute, once, and keeps searching; a human who
// comes later is still paired with them.
func TestSeekPoolOffersBot(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, log := newTestPool(time.Minute)
		defer runPool(p)()
		p.add(context.Background(), testSeek(1, "ann", "12k", 9, "blitz"))
		time.Sleep(59 * time.Second)
		synctest.Wait()
		if _, offers := log.snapshot(); len(offers) != 0 {
			t.Fatalf("offered after 59 s: %v", offers)
		}
		time.Sleep(2 * time.Second)
		synctest.Wait()
		if _, offers := log.snapshot(); len(offers) != 1 || offers[0] != "ann" {
			t.Fatalf("offers after 61 s: %v", offers)
		}
		time.Sleep(time.Minute)
		synctest.Wait()
		if _, offers := log.snapshot(); len(offers) != 1 {
			t.Errorf("offered again: %v", offers)
		}
		p.add(context.Background(), testSeek(2, "ben", "4k", 9, "blitz")) // eight ranks apart
		synctest.Wait()
		if pairs, _ := log.snapshot(); len(pairs) != 1 {
			t.Errorf("a late human was not paired within the full window: %v", pairs)
		}
	})
}

// TestSeekPoolOneSeekPerUser: a second seek of a user replaces the first,
// so nobody is paired with themselves.
func TestSeekPoolOneSeekPerUser(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, log := newTestPool(time.Minute)
		defer runPool(p)()
		p.add(context.Background(), testSeek(1, "ann", "12k", 9, "blitz"))
		p.add(context.Background(), testSeek(1, "ann", "12k", 9, "blitz"))
		time.Sleep(5 * time.Second)
		synctest.Wait()
		if pairs, _ := log.snapshot(); len(pairs) != 0 {
			t.Errorf("paired with herself: %v", pairs)
		}
		p.mu.Lock()
		n := len(p.seeks)
		p.mu.Unlock()
		if n != 1 {
			t.Errorf("%d seeks, want 1", n)
		}
	})
}

// fakeSeeks is a SeekService whose seeks vanish (paired elsewhere) when
// asked to.
type fakeSeeks struct {
	mu    sync.Mutex
	users map[int64]bool
}

func (f *fakeSeeks) PutSeek(_ context.Context, s *tengen.Seek, _ time.Time) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.users[s.UserID] = true
	return nil
}

func (f *fakeSeeks) DeleteSeek(_ context.Context, userID int64, _ string) (bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	ok := f.users[userID]
	delete(f.users, userID)
	return ok, nil
}

func (f *fakeSeeks) KeepSeeks(_ context.Context, _ string, users []int64, _ time.Time) ([]int64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []int64
	for _, u := range users {
		if f.users[u] {
			out = append(out, u)
		}
	}
	return out, nil
}

func (f *fakeSeeks) PairSeeks(context.Context, time.Time, func([]tengen.Seek) [][2]int) ([][2]tengen.Seek, error) {
	return nil, nil
}

// TestSeekPoolLost: a shared seek that vanished from the store without
// its "seek-matched" coming ends for its seeker after seekLost, not
// before; one still stored goes on.
func TestSeekPoolLost(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, _ := newTestPool(time.Hour)
		store := &fakeSeeks{users: map[int64]bool{}}
		var mu sync.Mutex
		var ended []string
		p.store, p.alive, p.log = store, 5*time.Second, func(string, ...any) {}
		p.seeker = func(sk *seek, kind string, _ []byte) {
			mu.Lock()
			defer mu.Unlock()
			ended = append(ended, sk.user.Name+" "+kind)
		}
		defer runPool(p)()
		p.add(context.Background(), testSeek(1, "ann", "12k", 9, "blitz"))
		p.add(context.Background(), testSeek(2, "ben", "12k", 13, "blitz"))
		synctest.Wait()
		store.DeleteSeek(context.Background(), 1, "")
		time.Sleep(seekLost)
		synctest.Wait()
		mu.Lock()
		if len(ended) != 0 {
			t.Errorf("ended within %v: %v", seekLost, ended)
		}
		mu.Unlock()
		time.Sleep(2 * time.Second)
		synctest.Wait()
		mu.Lock()
		defer mu.Unlock()
		if len(ended) != 1 || ended[0] != "ann seek-lost" {
			t.Errorf("ended: %v, want ann's seek lost", ended)
		}
	})
}
