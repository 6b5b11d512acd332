package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"tengen"
	"tengen/clock"
	"tengen/postgres"
	"tengen/postgres/pgtest"
)

// TestBotQueueSkipsLocked: a job whose row another transaction holds (a
// taker in the middle of its Take) is skipped, not waited for: Take
// returns the next job at once.
func TestBotQueueSkipsLocked(t *testing.T) {
	url := pgtest.URL(t)
	db, s := open(t, url)
	t.Cleanup(func() { db.Close() })
	ctx := context.Background()
	alice, bob := &tengen.User{Name: "alice", PasswordHash: "x"}, &tengen.User{Name: "bob", PasswordHash: "x"}
	for _, u := range []*tengen.User{alice, bob} {
		if err := s.Users.CreateUser(ctx, u); err != nil {
			t.Fatal(err)
		}
	}
	q := postgres.NewBotQueue(db)
	var ids []int64
	for range 2 {
		c := &tengen.Challenge{ChallengerID: alice.ID, Settings: tengen.GameSettings{BoardSize: 9, Ruleset: "japanese",
			Color: tengen.ChooseBlack, TimeControl: clock.TimeControl{Kind: clock.None}}}
		if err := s.Challenges.CreateChallenge(ctx, c); err != nil {
			t.Fatal(err)
		}
		g, err := s.Games.CreateGameFromChallenge(ctx, c.ID, bob.ID, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := q.Enqueue(ctx, tengen.BotJob{GameID: g.ID, BotID: bob.ID}); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, g.ID)
	}
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	tx, err := conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, `SELECT game_id FROM bot_jobs WHERE game_id = $1 FOR UPDATE`, ids[0]); err != nil {
		t.Fatal(err)
	}
	tctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	job, err := q.Take(tctx, time.Now(), time.Minute)
	if err != nil {
		t.Fatalf("Take beside a locked job: %v", err)
	}
	if job == nil || job.GameID != ids[1] {
		t.Fatalf("Take beside a locked job = %+v, want the job of game %d", job, ids[1])
	}
	if job, err := q.Take(tctx, time.Now(), time.Minute); err != nil || job != nil {
		t.Fatalf("Take with one job locked, one held = %+v, %v; want none", job, err)
	}
	if err := tx.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	if job, err := q.Take(tctx, time.Now(), time.Minute); err != nil || job == nil || job.GameID != ids[0] {
		t.Fatalf("Take after the lock = %+v, %v; want the job of game %d", job, err, ids[0])
	}
}
