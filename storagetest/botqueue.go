package storagetest

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"tengen"
)

// testBotQueue checks the bot work queue: one job per game, de-duplicated
// by game and move count; leases that keep other takers off and run out;
// a game queued again while held waits again after Finish; Release gives a
// job back; a lost lease is refused.
func testBotQueue(t *testing.T, b *Backend) {
	ctx := context.Background()
	q := b.BotQueue
	alice, bob := mustUser(t, b.Services, "alice"), mustUser(t, b.Services, "bob")
	g1, g2, g3 := mustGame(t, b.Services, alice, bob, settings19()), mustGame(t, b.Services, alice, bob, settings19()),
		mustGame(t, b.Services, alice, bob, settings19())
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	take := func(what string, at time.Time) *tengen.BotJob {
		t.Helper()
		job, err := q.Take(ctx, at, time.Minute)
		if err != nil {
			t.Fatalf("%s: Take: %v", what, err)
		}
		return job
	}
	wantJob := func(what string, job *tengen.BotJob, game int64, moveCount, taken int) {
		t.Helper()
		if job == nil || job.GameID != game || job.MoveCount != moveCount || job.Taken != taken || job.BotID != bob.ID || job.Lease == 0 {
			t.Fatalf("%s: job %+v, want game %d at move %d taken %d times by bot %d", what, job, game, moveCount, taken, bob.ID)
		}
	}
	waiting := func(what string, want int) {
		t.Helper()
		if n, err := q.Waiting(ctx); err != nil || n != want {
			t.Errorf("%s: Waiting = %d, %v; want %d", what, n, err, want)
		}
	}
	enqueue := func(g *tengen.Game, moveCount int) {
		t.Helper()
		if err := q.Enqueue(ctx, tengen.BotJob{GameID: g.ID, MoveCount: moveCount, BotID: bob.ID}); err != nil {
			t.Fatalf("Enqueue(game %d, %d): %v", g.ID, moveCount, err)
		}
	}

	if job := take("empty queue", t0); job != nil {
		t.Fatalf("empty queue: took %+v", job)
	}
	enqueue(g1, 1)
	enqueue(g2, 1)
	enqueue(g1, 1) // the same turn again
	enqueue(g1, 3) // a later turn: the game keeps its place
	waiting("two games queued", 2)

	j1 := take("first", t0)
	wantJob("first", j1, g1.ID, 3, 1)
	if !j1.LeasedUntil.Equal(t0.Add(time.Minute)) {
		t.Errorf("lease until %v, want %v", j1.LeasedUntil, t0.Add(time.Minute))
	}
	j2 := take("second", t0)
	wantJob("second", j2, g2.ID, 1, 1)
	if job := take("both held", t0.Add(30*time.Second)); job != nil {
		t.Fatalf("both held: took %+v", job)
	}
	waiting("both held", 0)

	// Queued again while held: after Finish the game waits again.
	enqueue(g1, 5)
	if err := q.Finish(ctx, j1); err != nil {
		t.Fatalf("Finish after a new turn: %v", err)
	}
	waiting("queued again", 1)
	j1 = take("again", t0)
	wantJob("again", j1, g1.ID, 5, 1)
	if err := q.Finish(ctx, j2); err != nil {
		t.Fatal(err)
	}
	wantCode(t, "Finish twice", q.Finish(ctx, j2), tengen.ECONFLICT)

	// The worker holding g1 dies: after its lease any taker gets the job,
	// and the dead worker's lease is refused.
	if job := take("lease running", t0.Add(59*time.Second)); job != nil {
		t.Fatalf("lease running: took %+v", job)
	}
	j1b := take("lease ran out", t0.Add(2*time.Minute))
	wantJob("lease ran out", j1b, g1.ID, 5, 2)
	wantCode(t, "Finish with a lost lease", q.Finish(ctx, j1), tengen.ECONFLICT)
	wantCode(t, "Release with a lost lease", q.Release(ctx, j1), tengen.ECONFLICT)
	if err := q.Finish(ctx, j1b); err != nil {
		t.Fatal(err)
	}
	waiting("all done", 0)
	if job := take("all done", t0.Add(time.Hour)); job != nil {
		t.Fatalf("all done: took %+v", job)
	}

	// Release gives the job back undone.
	enqueue(g3, 0)
	j3 := take("to release", t0)
	if err := q.Release(ctx, j3); err != nil {
		t.Fatal(err)
	}
	waiting("released", 1)
	wantJob("after release", take("after release", t0), g3.ID, 0, 2)
}

// testBotQueueTakers races takers on many jobs: every job is taken exactly
// once.
func testBotQueueTakers(t *testing.T, b *Backend) {
	ctx := context.Background()
	alice, bob := mustUser(t, b.Services, "alice"), mustUser(t, b.Services, "bob")
	var want []int64
	for range 12 {
		g := mustGame(t, b.Services, alice, bob, settings19())
		want = append(want, g.ID)
		if err := b.BotQueue.Enqueue(ctx, tengen.BotJob{GameID: g.ID, BotID: bob.ID}); err != nil {
			t.Fatal(err)
		}
	}
	var mu sync.Mutex // guards got
	var got []int64
	var wg sync.WaitGroup
	now := time.Now()
	for range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				job, err := b.BotQueue.Take(ctx, now, time.Minute)
				if err != nil {
					t.Error(err)
					return
				}
				if job == nil {
					return
				}
				mu.Lock()
				got = append(got, job.GameID)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("taken %v, want each of %v once", got, want)
	}
}
