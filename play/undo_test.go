package play_test

import (
	"context"
	"errors"
	"testing"

	"tengen"
	"tengen/play"
)

// failingGames fails the AppendMove calls that fail says, before they reach
// storage.
type failingGames struct {
	tengen.GameService
	fail func(m *tengen.GameMove) bool
}

var errDiskFull = errors.New("disk full")

func (g failingGames) AppendMove(ctx context.Context, by int64, m *tengen.GameMove, upd tengen.GameUpdate) (*tengen.Game, error) {
	if g.fail(m) {
		return nil, errDiskFull
	}
	return g.GameService.AppendMove(ctx, by, m, upd)
}

// TestMoveNotStoredLeavesPosition: a move is played on the live position
// and taken back when its commit fails (play/commands.go), so that the
// game is as it was: the same move can be sent again, and a capture that
// was not stored leaves the captured stones on the board.
func TestMoveNotStoredLeavesPosition(t *testing.T) {
	failing := map[int]bool{}
	e := newEnv(t, func(c *play.Config) {
		c.Games = failingGames{GameService: c.Games, fail: func(m *tengen.GameMove) bool {
			if failing[m.Seq] {
				delete(failing, m.Seq) // once
				return true
			}
			return false
		}}
	})
	id := e.newGame(settings(9, "japanese", noTime))

	// White's stone in the corner (0,0), Black on (1,0): Black's (0,1)
	// captures it.
	e.run(id, []step{
		{user: "black", cmd: "play 1 0", seq: 1},
		{user: "white", cmd: "play 0 0", seq: 2},
	})
	failing[3] = true
	if _, err := e.do(id, step{user: "black", cmd: "play 0 1", seq: 3}); !errors.Is(err, errDiskFull) {
		t.Fatalf("capture with failing storage: %v, want %v", err, errDiskFull)
	}
	snap, err := e.svc.Snapshot(context.Background(), id, e.black.ID)
	if err != nil {
		t.Fatal(err)
	}
	if snap.Board[0][:2] != "WB" {
		t.Fatalf("after the failed capture: row 0 %q, want the white stone still at (0,0)", snap.Board[0])
	}
	if snap.Board[1][0] != '.' {
		t.Fatalf("after the failed capture: row 1 %q, want (0,1) empty", snap.Board[1])
	}
	if snap.Captures.Black != 0 {
		t.Fatalf("after the failed capture: Black has %d captures, want 0", snap.Captures.Black)
	}
	// The same move again: stored now, and it captures.
	snap = e.run(id, []step{{user: "black", cmd: "play 0 1", seq: 3}})
	if snap.Board[0][0] != '.' || snap.Board[1][0] != 'B' || snap.Captures.Black != 1 {
		t.Fatalf("after the capture: rows %q %q, Black captures %d; want (0,0) empty, (0,1) Black, 1 capture", snap.Board[0], snap.Board[1], snap.Captures.Black)
	}
	// The game goes on from the stored position.
	failing[4] = true
	if _, err := e.do(id, step{user: "white", cmd: "pass", seq: 4}); !errors.Is(err, errDiskFull) {
		t.Fatalf("pass with failing storage: %v, want %v", err, errDiskFull)
	}
	e.run(id, []step{
		{user: "black", cmd: "play 5 5", seq: 4, code: tengen.EFORBIDDEN}, // still White's turn
		{user: "white", cmd: "play 0 0", seq: 4, code: tengen.EINVALID},   // ko: the capture of one stone just happened
		{user: "white", cmd: "play 4 4", seq: 4},
		{user: "black", cmd: "play 5 5", seq: 5},
	})
}
