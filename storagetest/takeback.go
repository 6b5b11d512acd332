package storagetest

import (
	"context"
	"testing"

	"tengen"
	"tengen/goban"
)

// testTakeBack checks GameService.TakeBack: it removes exactly the last
// move with the new state and record in one transaction, the pending
// request round-trips through the play record, and its guards refuse a
// stale move count, a game without moves and a finished game, changing
// nothing.
func testTakeBack(t *testing.T, b *Backend) {
	ctx := context.Background()
	black, white := mustUser(t, b.Services, "black"), mustUser(t, b.Services, "white")
	g := mustGame(t, b.Services, black, white, settings19())
	if _, err := b.Games.TakeBack(ctx, g.ID, 0, tengen.GameUpdate{ToMove: goban.Black, Status: tengen.GamePlaying}); err == nil {
		t.Fatal("TakeBack of a game without moves: no error")
	} else {
		wantCode(t, "TakeBack at move 0", err, tengen.ECONFLICT)
	}
	wantUnchanged(t, "TakeBack at move 0", b.Services, g)

	var err error
	if g, err = play(b.Services, g, black, 1, tengen.MovePlay, 3, 3, false); err != nil {
		t.Fatal(err)
	}
	if g, err = play(b.Services, g, white, 2, tengen.MovePlay, 15, 15, false); err != nil {
		t.Fatal(err)
	}
	// The request is stored with the record.
	if g, err = b.Games.UpdateGame(ctx, g.ID, 2, tengen.GameUpdate{ToMove: goban.Black, Status: tengen.GamePlaying,
		Record: &tengen.PlayRecord{TakebackSeq: 2}}); err != nil {
		t.Fatal(err)
	}
	if rec, err := b.Games.FindPlayRecord(ctx, g.ID); err != nil || rec.TakebackSeq != 2 {
		t.Fatalf("stored request: %+v, %v; want move 2", rec, err)
	}

	if _, err := b.Games.TakeBack(ctx, g.ID, 1, tengen.GameUpdate{ToMove: goban.White, Status: tengen.GamePlaying}); err == nil {
		t.Fatal("TakeBack at a stale move count: no error")
	} else {
		wantCode(t, "TakeBack at a stale move count", err, tengen.ECONFLICT)
	}
	if moves, err := b.Games.FindMoves(ctx, g.ID, 0); err != nil || len(moves) != 2 {
		t.Fatalf("after a refused TakeBack: %d moves, %v", len(moves), err)
	}

	got, err := b.Games.TakeBack(ctx, g.ID, 2, tengen.GameUpdate{ToMove: goban.White, Status: tengen.GamePlaying, Record: &tengen.PlayRecord{}})
	if err != nil {
		t.Fatal(err)
	}
	if got.MoveCount != 1 || got.ToMove != goban.White {
		t.Errorf("TakeBack returned move count %d, %v to move; want 1, white", got.MoveCount, got.ToMove)
	}
	stored, err := b.Games.FindGameByID(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if stored.MoveCount != 1 || stored.ToMove != goban.White || stored.Status != tengen.GamePlaying {
		t.Errorf("stored game after TakeBack: move count %d, %v to move, %s", stored.MoveCount, stored.ToMove, stored.Status)
	}
	moves, err := b.Games.FindMoves(ctx, g.ID, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(moves) != 1 || moves[0].X != 3 || moves[0].Y != 3 {
		t.Errorf("moves after TakeBack: %d, want only 3 3", len(moves))
	}
	if rec, err := b.Games.FindPlayRecord(ctx, g.ID); err != nil || rec.TakebackSeq != 0 {
		t.Errorf("request after TakeBack: %+v, %v; want none", rec, err)
	}
	// The move number is free again.
	if g, err = play(b.Services, stored, white, 2, tengen.MovePlay, 16, 16, false); err != nil {
		t.Fatalf("move 2 again: %v", err)
	}

	// A finished game keeps its moves.
	if g, err = play(b.Services, g, black, 3, tengen.MoveResign, 0, 0, false); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Games.TakeBack(ctx, g.ID, 3, tengen.GameUpdate{ToMove: goban.Black, Status: tengen.GamePlaying}); err == nil {
		t.Fatal("TakeBack in a finished game: no error")
	} else {
		wantCode(t, "TakeBack in a finished game", err, tengen.ECONFLICT)
	}
	if moves, err := b.Games.FindMoves(ctx, g.ID, 0); err != nil || len(moves) != 3 {
		t.Errorf("finished game after a refused TakeBack: %d moves, %v", len(moves), err)
	}
}
