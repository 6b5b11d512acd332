package postgres

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"tengen"
	"tengen/clock"
	"tengen/postgres/pgtest"
)

// TestGroupCommit checks that moves of different games that arrive while a
// commit is under way share the next commit. Another connection holds the
// row of the first game locked, so the first batch (its move alone) waits;
// the moves of four other games queue meanwhile and are committed together
// once the lock is released. With several batches at once (the default),
// the moves of the other games do not wait for the first batch: they are
// committed while it waits.
func TestGroupCommit(t *testing.T) {
	url := pgtest.URL(t)
	db := NewDB(url)
	var mu sync.Mutex
	var commits []int
	db.Committed = func(n int, _ time.Duration) {
		mu.Lock()
		commits = append(commits, n)
		mu.Unlock()
	}
	if err := db.Open(); err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// First the batching itself, one batch at a time.
	db.batch.Parallel = 1
	ctx := context.Background()
	users, challenges, games := NewUserService(db), NewChallengeService(db), NewGameService(db)
	var gs []*tengen.Game
	for i := range 5 {
		b, w := &tengen.User{Name: fmt.Sprintf("black%d", i), PasswordHash: "x"}, &tengen.User{Name: fmt.Sprintf("white%d", i), PasswordHash: "x"}
		for _, u := range []*tengen.User{b, w} {
			if err := users.CreateUser(ctx, u); err != nil {
				t.Fatal(err)
			}
		}
		c := &tengen.Challenge{ChallengerID: b.ID, Settings: tengen.GameSettings{BoardSize: 9, Ruleset: "chinese",
			Color: tengen.ChooseBlack, TimeControl: clock.TimeControl{Kind: clock.None}}}
		if err := challenges.CreateChallenge(ctx, c); err != nil {
			t.Fatal(err)
		}
		g, err := games.CreateGameFromChallenge(ctx, c.ID, w.ID, nil)
		if err != nil {
			t.Fatal(err)
		}
		gs = append(gs, g)
	}
	mu.Lock()
	commits = nil // the setup's commits are not batches
	mu.Unlock()

	locker, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer locker.Close(ctx)
	lock, err := locker.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lock.Exec(ctx, `SELECT id FROM games WHERE id = $1 FOR UPDATE`, gs[0].ID); err != nil {
		t.Fatal(err)
	}

	var wg sync.WaitGroup
	errs := make([]error, len(gs))
	seq := 1
	move := func(i int) {
		defer wg.Done()
		g := gs[i]
		m := &tengen.GameMove{GameID: g.ID, Seq: seq, Kind: tengen.MovePlay, X: seq + 1, Y: 2}
		by := g.BlackID
		if seq%2 == 0 {
			by = g.WhiteID
		}
		m.Color = g.ColorOf(by)
		_, errs[i] = games.AppendMove(ctx, by, m, tengen.NextState(*m, false))
	}
	wg.Add(1)
	go move(0)
	waitPending(t, db, 0) // the first batch took the move of game 0 and waits for the lock
	for i := 1; i < len(gs); i++ {
		wg.Add(1)
		go move(i)
	}
	waitPending(t, db, len(gs)-1)
	if err := lock.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("move in game %d: %v", i, err)
		}
	}
	mu.Lock()
	if want := []int{1, len(gs) - 1}; !slices.Equal(commits, want) {
		t.Errorf("writes per commit: %v, want %v", commits, want)
	}
	mu.Unlock()

	// Several batches at once: game 0's move waits for the lock again,
	// and the others' moves are stored meanwhile.
	db.batch.Parallel = parallelBatches
	seq = 2
	if lock, err = locker.Begin(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := lock.Exec(ctx, `SELECT id FROM games WHERE id = $1 FOR UPDATE`, gs[0].ID); err != nil {
		t.Fatal(err)
	}
	wg.Add(1)
	go move(0)
	waitPending(t, db, 0)
	wg.Add(len(gs) - 1)
	for i := 1; i < len(gs); i++ {
		go move(i)
	}
	deadline := time.After(10 * time.Second)
	for stored := false; !stored; {
		select {
		case <-deadline:
			t.Fatal("the other games' moves wait for the batch that waits for game 0's lock")
		case <-time.After(time.Millisecond):
		}
		stored = true
		for _, g := range gs[1:] {
			got, err := games.FindGameByID(ctx, g.ID)
			if err != nil {
				t.Fatal(err)
			}
			stored = stored && got.MoveCount == 2
		}
	}
	if err := lock.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("second move in game %d: %v", i, err)
		}
	}
}

// waitPending waits until n writes wait for the next batch while one runs.
func waitPending(t *testing.T, db *DB, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		got, running := db.batch.Waiting()
		if got == n && running {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d writes pending (running %v), want %d", got, running, n)
		}
		time.Sleep(time.Millisecond) // polling a condition, not waiting for one to happen by itself
	}
}
