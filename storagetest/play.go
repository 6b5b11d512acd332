package storagetest

import (
	"context"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"tengen"
	"tengen/clock"
	"tengen/goban"
)

// testPlayRecord checks the state stored beside the moves: the play record
// and the clock of each move, written with AppendMove or UpdateGame, and
// UpdateGame's conditions.
func testPlayRecord(t *testing.T, b *Backend) {
	ctx := context.Background()
	black, white := mustUser(t, b.Services, "black"), mustUser(t, b.Services, "white")
	g := mustGame(t, b.Services, black, white, settings19())

	rec, err := b.Games.FindPlayRecord(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(rec, &tengen.PlayRecord{}) {
		t.Errorf("record of a new game = %+v, want zero", rec)
	}
	_, err = b.Games.FindPlayRecord(ctx, 999999)
	wantCode(t, "record of unknown game", err, tengen.ENOTFOUND)

	// The clock starts without a move: UpdateGame at move 0.
	clock0 := testClock(t)
	got, err := b.Games.UpdateGame(ctx, g.ID, 0, tengen.GameUpdate{ToMove: goban.Black, Status: tengen.GamePlaying,
		Record: &tengen.PlayRecord{Clock: clock0}})
	if err != nil {
		t.Fatal(err)
	}
	if got.ToMove != goban.Black || got.Status != tengen.GamePlaying || got.MoveCount != 0 {
		t.Errorf("UpdateGame returned %+v", got)
	}
	_, err = b.Games.UpdateGame(ctx, g.ID, 1, tengen.GameUpdate{ToMove: goban.White, Status: tengen.GamePlaying})
	wantCode(t, "UpdateGame with a stale move count", err, tengen.ECONFLICT)
	_, err = b.Games.UpdateGame(ctx, g.ID, 0, tengen.GameUpdate{ToMove: goban.White, Status: "bogus"})
	wantCode(t, "UpdateGame with a bad status", err, tengen.EINVALID)
	_, err = b.Games.UpdateGame(ctx, g.ID, 0, tengen.GameUpdate{ToMove: goban.White, Status: tengen.GamePlaying,
		Record: &tengen.PlayRecord{AcceptedBlack: -1}})
	wantCode(t, "UpdateGame with a negative acceptance", err, tengen.EINVALID)

	// Two passes with the clock of each move and the proposal with the
	// second.
	moveClock := &clock.State{MainTime: 598 * time.Second}
	m1 := &tengen.GameMove{GameID: g.ID, Seq: 1, Kind: tengen.MovePass, Clock: moveClock}
	if _, err := b.Games.AppendMove(ctx, black.ID, m1, tengen.GameUpdate{ToMove: goban.White, Status: tengen.GamePlaying}); err != nil {
		t.Fatal(err)
	}
	stopped := testClock(t)
	if _, err := stopped.Pause(time.Date(2026, 1, 1, 0, 0, 2, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	want := &tengen.PlayRecord{Clock: stopped, ProposalSeq: 1,
		Dead: []goban.Point{{X: 3, Y: 4}, {X: 3, Y: 5}}, AcceptedWhite: 1,
		Resumptions: []tengen.Resumption{{AfterSeq: 0, Color: goban.White}}}
	m2 := &tengen.GameMove{GameID: g.ID, Seq: 2, Kind: tengen.MovePass}
	if _, err := b.Games.AppendMove(ctx, white.ID, m2, tengen.GameUpdate{ToMove: goban.Black, Status: tengen.GameScoring, Record: want}); err != nil {
		t.Fatal(err)
	}
	rec, err = b.Games.FindPlayRecord(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(rec, want) {
		t.Errorf("record after AppendMove = %+v, want %+v", rec, want)
	}
	moves, err := b.Games.FindMoves(ctx, g.ID, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(moves) != 2 || moves[0].Clock == nil || *moves[0].Clock != *moveClock || moves[1].Clock != nil {
		t.Errorf("move clocks = %d moves: %+v, %+v", len(moves), moves[0].Clock, moves[1].Clock)
	}

	// Storing a new proposal alone is not an update for the game lists.
	before, err := b.Games.FindGameByID(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(2 * time.Millisecond)
	same, err := b.Games.UpdateGame(ctx, g.ID, 2, tengen.GameUpdate{ToMove: before.ToMove, Status: before.Status, Record: &tengen.PlayRecord{ProposalSeq: 2}})
	if err != nil {
		t.Fatal(err)
	}
	after, err := b.Games.FindGameByID(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !after.UpdatedAt.Equal(before.UpdatedAt) || !same.UpdatedAt.Equal(before.UpdatedAt) {
		t.Errorf("a record-only update moved updated_at from %v to %v (returned %v)", before.UpdatedAt, after.UpdatedAt, same.UpdatedAt)
	}
	if rec, _ := b.Games.FindPlayRecord(ctx, g.ID); rec.ProposalSeq != 2 {
		t.Errorf("record-only update not stored: %+v", rec)
	}

	// The scoring phase ends by agreement: UpdateGame finishes the game,
	// after which nothing changes it.
	done, err := b.Games.UpdateGame(ctx, g.ID, 2, tengen.GameUpdate{ToMove: goban.Black, Status: tengen.GameFinished, Result: "W+6.5",
		Record: &tengen.PlayRecord{ProposalSeq: 1, AcceptedBlack: 1, AcceptedWhite: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if done.Status != tengen.GameFinished || done.Result != "W+6.5" {
		t.Errorf("finished game = %s %q", done.Status, done.Result)
	}
	_, err = b.Games.UpdateGame(ctx, g.ID, 2, tengen.GameUpdate{ToMove: goban.Black, Status: tengen.GamePlaying})
	wantCode(t, "UpdateGame after the end", err, tengen.ECONFLICT)
	stored, err := b.Games.FindGameByID(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if stored.Status != tengen.GameFinished || stored.Result != "W+6.5" || stored.MoveCount != 2 {
		t.Errorf("stored game = %s %q %d", stored.Status, stored.Result, stored.MoveCount)
	}
	rec, err = b.Games.FindPlayRecord(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if rec.AcceptedBlack != 1 || len(rec.Dead) != 0 || rec.Clock != nil {
		t.Errorf("final record = %+v", rec)
	}
}

// testConcurrentGames writes to many games at once, as a busy server does:
// refused writes (a spectator's move, a stale update, malformed values that
// only the database's constraints catch) must change nothing even when they
// share a commit with accepted ones (backends may group commits).
func testConcurrentGames(t *testing.T, b *Backend) {
	ctx := context.Background()
	black, white, carol := mustUser(t, b.Services, "black"), mustUser(t, b.Services, "white"), mustUser(t, b.Services, "carol")
	const n = 20
	games := make([]*tengen.Game, n)
	for i := range games {
		games[i] = mustGame(t, b.Services, black, white, settings19())
	}
	type result struct {
		game int
		who  string
		err  error
	}
	writers := []string{"black", "spectator", "stale", "bad kind", "bad record"}
	results := make(chan result, len(writers)*n)
	var wg sync.WaitGroup
	for i, g := range games {
		for _, who := range writers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var err error
				switch who {
				case "black":
					_, err = b.Games.AppendMove(ctx, black.ID, &tengen.GameMove{GameID: g.ID, Seq: 1, Kind: tengen.MovePlay, X: i % 19, Y: 3},
						tengen.GameUpdate{ToMove: goban.White, Status: tengen.GamePlaying, Record: &tengen.PlayRecord{ProposalSeq: i}})
				case "spectator":
					_, err = b.Games.AppendMove(ctx, carol.ID, &tengen.GameMove{GameID: g.ID, Seq: 1, Kind: tengen.MovePlay, X: 5, Y: 5},
						tengen.GameUpdate{ToMove: goban.Black, Status: tengen.GamePlaying, Record: &tengen.PlayRecord{ProposalSeq: 1000}})
				case "stale":
					_, err = b.Games.UpdateGame(ctx, g.ID, 7, tengen.GameUpdate{ToMove: goban.Black, Status: tengen.GameFinished, Result: "B+R"})
				case "bad kind":
					_, err = b.Games.AppendMove(ctx, black.ID, &tengen.GameMove{GameID: g.ID, Seq: 1, Kind: "jump", X: 5, Y: 5},
						tengen.GameUpdate{ToMove: goban.White, Status: tengen.GamePlaying, Record: &tengen.PlayRecord{ProposalSeq: 1000}})
				case "bad record":
					_, err = b.Games.UpdateGame(ctx, g.ID, 0, tengen.GameUpdate{ToMove: goban.White, Status: tengen.GameFinished, Result: "W+T",
						Record: &tengen.PlayRecord{ProposalSeq: -1}})
				}
				results <- result{i, who, err}
			}()
		}
	}
	wg.Wait()
	close(results)
	for r := range results {
		want := ""
		switch r.who {
		case "spectator":
			want = tengen.EFORBIDDEN
		case "stale":
			want = tengen.ECONFLICT
		case "bad kind", "bad record":
			// Malformed, or stale once Black's move is in.
			want = tengen.EINVALID
			if tengen.ErrorCode(r.err) == tengen.ECONFLICT {
				want = tengen.ECONFLICT
			}
		}
		wantCode(t, fmt.Sprintf("game %d: %s", r.game, r.who), r.err, want)
	}
	for i, g := range games {
		got, err := b.Games.FindGameByID(ctx, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		moves, err := b.Games.FindMoves(ctx, g.ID, 0)
		if err != nil {
			t.Fatal(err)
		}
		rec, err := b.Games.FindPlayRecord(ctx, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.MoveCount != 1 || got.Status != tengen.GamePlaying || len(moves) != 1 || moves[0].Color != goban.Black || moves[0].X != i%19 || rec.ProposalSeq != i {
			t.Errorf("game %d: count %d status %s, %d moves, record %+v", i, got.MoveCount, got.Status, len(moves), rec)
		}
	}
}
