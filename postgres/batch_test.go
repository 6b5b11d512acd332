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
	"tengen/goban"
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
	// First the batching itself, one batch at a time.
	db, commits := openBatchDB(t, url, nil)
	ctx := context.Background()
	games := NewGameService(db)
	gs := newBatchGames(t, db, "", 5)
	commits.take() // the setup's commits are not batches

	locker, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer locker.Close(ctx)
	lock := lockGame(t, locker, gs[0].ID)

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
	if got, want := commits.take(), []int{1, len(gs) - 1}; !slices.Equal(got, want) {
		t.Errorf("writes per commit: %v, want %v", got, want)
	}

	// Several batches at once: game 0's move waits for the lock again,
	// and the others' moves are stored meanwhile.
	db.batch.Parallel = parallelBatches
	seq = 2
	lock = lockGame(t, locker, gs[0].ID)
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

// lockGame locks the row of game id in a transaction of conn, which the
// caller ends, so that a write of the game waits.
func lockGame(t *testing.T, conn *pgx.Conn, id int64) pgx.Tx {
	t.Helper()
	ctx := context.Background()
	lock, err := conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lock.Exec(ctx, `SELECT id FROM games WHERE id = $1 FOR UPDATE`, id); err != nil {
		t.Fatal(err)
	}
	return lock
}

// countLog records counts from several goroutines: the writes of each
// commit of a DB, the statements of each pipeline.
type countLog struct {
	mu     sync.Mutex // guards counts
	counts []int
}

func (c *countLog) add(n int) {
	c.mu.Lock()
	c.counts = append(c.counts, n)
	c.mu.Unlock()
}

// take returns the counts recorded since the last call.
func (c *countLog) take() []int {
	c.mu.Lock()
	defer c.mu.Unlock()
	got := c.counts
	c.counts = nil
	return got
}

// openBatchDB opens a DB on url that runs one group-commit batch at a time
// and records its commits; tracer, when not nil, sees its statements. The
// DB is closed when the test ends.
func openBatchDB(t *testing.T, url string, tracer pgx.QueryTracer) (*DB, *countLog) {
	t.Helper()
	db := NewDB(url)
	if tracer != nil {
		db.tracer = tracer
	}
	log := &countLog{}
	db.Committed = func(n int, _ time.Duration) { log.add(n) }
	if err := db.Open(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	db.batch.Parallel = 1
	return db, log
}

// newBatchGames creates n games of 9×9 between new players whose names
// start with prefix, Black to move.
func newBatchGames(t *testing.T, db *DB, prefix string, n int) []*tengen.Game {
	t.Helper()
	ctx := context.Background()
	users, challenges, games := NewUserService(db), NewChallengeService(db), NewGameService(db)
	var gs []*tengen.Game
	for i := range n {
		b, w := &tengen.User{Name: fmt.Sprintf("%sblack%d", prefix, i), PasswordHash: "x"}, &tengen.User{Name: fmt.Sprintf("%swhite%d", prefix, i), PasswordHash: "x"}
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
	return gs
}

// batchTracer records the number of statements of every pipeline the
// connections send.
type batchTracer struct{ countLog }

func (*batchTracer) TraceQueryStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryStartData) context.Context {
	return ctx
}
func (*batchTracer) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

func (bt *batchTracer) TraceBatchStart(ctx context.Context, _ *pgx.Conn, data pgx.TraceBatchStartData) context.Context {
	bt.add(data.Batch.Len())
	return ctx
}
func (*batchTracer) TraceBatchQuery(context.Context, *pgx.Conn, pgx.TraceBatchQueryData) {}
func (*batchTracer) TraceBatchEnd(context.Context, *pgx.Conn, pgx.TraceBatchEndData)     {}

// TestGroupCommitAhead checks that the moves of a batch are sent to
// PostgreSQL in one pipeline, and that a write refused inside it — a
// stale move number (the guard finds no row) or a violated constraint
// (which aborts the transaction, so that the statements after it fail as
// well) — gets its own error while the others are stored, as without the
// pipeline. As in TestGroupCommit, a lock held by another connection keeps
// the first batch waiting while the moves of four other games queue.
func TestGroupCommitAhead(t *testing.T) {
	url := pgtest.URL(t)
	tracer := &batchTracer{}
	db, commits := openBatchDB(t, url, tracer)
	ctx := context.Background()
	games := NewGameService(db)
	locker, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer locker.Close(ctx)

	for n, tt := range []struct {
		name    string
		bad     int    // the game (1 to 4) whose move is malformed, 0 for none
		seq, x  int    // its move number and column
		want    string // the malformed move's error code
		commits []int
	}{
		{"all stored", 0, 1, 1, "", []int{1, 4}},
		{"stale move number", 2, 5, 1, tengen.ECONFLICT, []int{1, 3}},
		{"constraint", 2, 1, -1, tengen.EINVALID, []int{1, 3}},
		{"constraint in the first", 1, 1, -1, tengen.EINVALID, []int{1, 3}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			gs := newBatchGames(t, db, fmt.Sprintf("ahead%d", n), 5)
			commits.take()
			tracer.take()
			lock := lockGame(t, locker, gs[0].ID)
			var wg sync.WaitGroup
			errs := make([]error, len(gs))
			move := func(i int) {
				defer wg.Done()
				m := &tengen.GameMove{GameID: gs[i].ID, Seq: 1, Kind: tengen.MovePlay, X: 1, Y: 2, Color: goban.Black}
				if i == tt.bad {
					m.Seq, m.X = tt.seq, tt.x
				}
				_, errs[i] = games.AppendMove(ctx, gs[i].BlackID, m, tengen.NextState(*m, false))
			}
			wg.Add(1)
			go move(0)
			waitPending(t, db, 0)
			for i := 1; i < len(gs); i++ {
				wg.Add(1)
				go move(i)
				waitPending(t, db, i) // in this order
			}
			if err := lock.Rollback(ctx); err != nil {
				t.Fatal(err)
			}
			wg.Wait()
			for i, err := range errs {
				want := ""
				if i == tt.bad {
					want = tt.want
				}
				if got := tengen.ErrorCode(err); (want == "") != (err == nil) || err != nil && got != want {
					t.Errorf("move in game %d: %v (code %q), want code %q", i, err, got, want)
				}
				g, err := games.FindGameByID(ctx, gs[i].ID)
				if err != nil {
					t.Fatal(err)
				}
				if stored := want == ""; (g.MoveCount == 1) != stored {
					t.Errorf("game %d: %d moves stored, want the move stored %v", i, g.MoveCount, stored)
				}
			}
			if got := commits.take(); !slices.Equal(got, tt.commits) {
				t.Errorf("writes per commit: %v, want %v", got, tt.commits)
			}
			// The first batch held game 0's move alone; the second sent
			// the four others in one pipeline.
			if got := tracer.take(); !slices.Contains(got, len(gs)-1) {
				t.Errorf("pipelines sent: %v, want one of %d statements", got, len(gs)-1)
			}
		})
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
