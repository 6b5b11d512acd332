package storagetest

import (
	"context"
	"testing"

	"tengen"
	"tengen/goban"
)

// testRefusedWrites checks what a refused write of the game path reports and
// that it stores nothing: neither the game's row, nor a move, nor the play
// record it carries. A backend may check the guards inside the write itself
// and read the game only to explain a refusal, so every guard is tried with a
// play record and both with and without a matching sequence number.
func testRefusedWrites(t *testing.T, b *Backend) {
	ctx := context.Background()
	black, white, carol := mustUser(t, b.Services, "black"), mustUser(t, b.Services, "white"), mustUser(t, b.Services, "carol")
	// playing is at move 1 with White to play, finished was resigned at
	// move 1; both keep the play record of proposal 7.
	stored := &tengen.PlayRecord{ProposalSeq: 7}
	setUp := func(finish bool) *tengen.Game {
		g := mustGame(t, b.Services, black, white, settings19())
		m := &tengen.GameMove{GameID: g.ID, Seq: 1, Kind: tengen.MovePlay, X: 3, Y: 3}
		upd := tengen.GameUpdate{ToMove: goban.White, Status: tengen.GamePlaying, Record: stored}
		if _, err := b.Games.AppendMove(ctx, black.ID, m, upd); err != nil {
			t.Fatal(err)
		}
		if finish {
			upd = tengen.GameUpdate{ToMove: goban.White, Status: tengen.GameFinished, Result: "B+R", Record: stored}
			if _, err := b.Games.UpdateGame(ctx, g.ID, 1, upd); err != nil {
				t.Fatal(err)
			}
		}
		g, err := b.Games.FindGameByID(ctx, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	playing, finished := setUp(false), setUp(true)

	next := tengen.GameUpdate{ToMove: goban.Black, Status: tengen.GamePlaying, Record: &tengen.PlayRecord{ProposalSeq: 99}}
	move := func(user *tengen.User, g *tengen.Game, seq int) func() (*tengen.Game, error) {
		return func() (*tengen.Game, error) {
			m := &tengen.GameMove{GameID: g.ID, Seq: seq, Kind: tengen.MovePlay, X: 15, Y: 15}
			return b.Games.AppendMove(ctx, user.ID, m, next)
		}
	}
	const unknown = 1 << 40
	tests := []struct {
		name  string
		write func() (*tengen.Game, error)
		code  string
		msg   string
	}{
		{"a spectator's move", move(carol, playing, 2), tengen.EFORBIDDEN, "You are not playing in this game."},
		{"a spectator's move out of sequence", move(carol, playing, 5), tengen.EFORBIDDEN, "You are not playing in this game."},
		{"a repeated move", move(black, playing, 1), tengen.ECONFLICT, "Move 1 is not the next move; the game is at move 1."},
		{"a move after a gap", move(white, playing, 3), tengen.ECONFLICT, "Move 3 is not the next move; the game is at move 1."},
		{"a move in an unknown game", move(white, &tengen.Game{ID: unknown}, 1), tengen.ENOTFOUND, "Game not found."},
		{"a move after the end", move(white, finished, 2), tengen.ECONFLICT, "The game is over."},
		{"a spectator's move after the end", move(carol, finished, 2), tengen.EFORBIDDEN, "You are not playing in this game."},
		{"moves whose second is out of sequence", func() (*tengen.Game, error) {
			ms := []*tengen.GameMove{{GameID: playing.ID, Seq: 2, Kind: tengen.MovePlay, X: 4, Y: 4},
				{GameID: playing.ID, Seq: 4, Kind: tengen.MovePlay, X: 5, Y: 5}}
			return b.Games.AppendMoves(ctx, white.ID, ms, next)
		}, tengen.ECONFLICT, "Move 4 is not the next move; the game is at move 2."},
		{"an update at a stale move count", func() (*tengen.Game, error) {
			return b.Games.UpdateGame(ctx, playing.ID, 0, next)
		}, tengen.ECONFLICT, "The game changed; reload it."},
		{"an update of an unknown game", func() (*tengen.Game, error) {
			return b.Games.UpdateGame(ctx, unknown, 0, next)
		}, tengen.ENOTFOUND, "Game not found."},
		{"an update after the end", func() (*tengen.Game, error) {
			return b.Games.UpdateGame(ctx, finished.ID, 1, next)
		}, tengen.ECONFLICT, "The game is over."},
		{"a takeback at a stale move count", func() (*tengen.Game, error) {
			return b.Games.TakeBack(ctx, playing.ID, 2, next)
		}, tengen.ECONFLICT, "The game changed; reload it."},
		{"a takeback in an unknown game", func() (*tengen.Game, error) {
			return b.Games.TakeBack(ctx, unknown, 1, next)
		}, tengen.ENOTFOUND, "Game not found."},
		{"a takeback after the end", func() (*tengen.Game, error) {
			return b.Games.TakeBack(ctx, finished.ID, 1, next)
		}, tengen.ECONFLICT, "The game is over."},
	}
	for _, tt := range tests {
		got, err := tt.write()
		if tengen.ErrorCode(err) != tt.code || tengen.ErrorMessage(err) != tt.msg {
			t.Errorf("%s: error %v (code %q), want %s %q", tt.name, err, tengen.ErrorCode(err), tt.code, tt.msg)
		}
		if got != nil {
			t.Errorf("%s: refused write returned game %+v", tt.name, got)
		}
		for _, want := range []*tengen.Game{playing, finished} {
			g, err := b.Games.FindGameByID(ctx, want.ID)
			if err != nil {
				t.Fatal(err)
			}
			if g.MoveCount != want.MoveCount || g.ToMove != want.ToMove || g.Status != want.Status || g.Result != want.Result || !g.UpdatedAt.Equal(want.UpdatedAt) {
				t.Errorf("%s: game %d stored as %d %s %s %q %v, want %d %s %s %q %v", tt.name, g.ID,
					g.MoveCount, g.ToMove, g.Status, g.Result, g.UpdatedAt, want.MoveCount, want.ToMove, want.Status, want.Result, want.UpdatedAt)
			}
			if moves, err := b.Games.FindMoves(ctx, want.ID, 0); err != nil || len(moves) != 1 {
				t.Errorf("%s: game %d has %d moves (%v), want 1", tt.name, want.ID, len(moves), err)
			}
			if rec, err := b.Games.FindPlayRecord(ctx, want.ID); err != nil || rec.ProposalSeq != stored.ProposalSeq {
				t.Errorf("%s: game %d's play record %+v (%v), want proposal %d", tt.name, want.ID, rec, err, stored.ProposalSeq)
			}
		}
	}
}
