package play_test

import (
	"context"
	"testing"
	"time"

	"tengen"
	"tengen/clock"
	"tengen/goban"
)

// koSteps build a ko on the 9×9 board: move 9, Black at 2 1, takes the
// White stone at 1 1, which White may not retake at once.
var koSteps = []step{
	{user: "black", cmd: "play 1 0", seq: 1}, {user: "white", cmd: "play 2 0", seq: 2},
	{user: "black", cmd: "play 0 1", seq: 3}, {user: "white", cmd: "play 1 1", seq: 4},
	{user: "black", cmd: "play 1 2", seq: 5}, {user: "white", cmd: "play 3 1", seq: 6},
	{user: "black", cmd: "play 8 8", seq: 7}, {user: "white", cmd: "play 2 2", seq: 8},
	{user: "black", cmd: "play 2 1", seq: 9},
}

func TestTakeback(t *testing.T) {
	tests := []struct {
		name  string
		steps []step
		// moves, toMove, capturesBlack and pending are the state after
		// the steps; at, when set, is the board point whose stone is
		// checked ('B', 'W' or '.').
		moves         int
		toMove        goban.Color
		capturesBlack int
		pending       int
		at            goban.Point
		stone         byte
	}{
		{name: "asked", steps: append(koSteps[:9:9], step{user: "black", cmd: "undo"}),
			moves: 9, toMove: goban.White, capturesBlack: 1, pending: 9, at: goban.Point{X: 1, Y: 1}, stone: '.'},
		{name: "asked twice", steps: append(koSteps[:9:9], step{user: "black", cmd: "undo"}, step{user: "black", cmd: "undo"}),
			moves: 9, toMove: goban.White, capturesBlack: 1, pending: 9, at: goban.Point{X: 1, Y: 1}, stone: '.'},
		{name: "accepted: the capture goes back", steps: append(koSteps[:9:9], step{user: "black", cmd: "undo"}, step{user: "white", cmd: "undo-accept"}),
			moves: 8, toMove: goban.Black, capturesBlack: 0, at: goban.Point{X: 1, Y: 1}, stone: 'W'},
		{name: "accepted, then the move again", steps: append(koSteps[:9:9], step{user: "black", cmd: "undo"}, step{user: "white", cmd: "undo-accept"},
			step{user: "black", cmd: "play 2 1", seq: 9}, step{user: "white", cmd: "play 1 1", seq: 10, code: tengen.EINVALID}),
			moves: 9, toMove: goban.White, capturesBlack: 1, at: goban.Point{X: 1, Y: 1}, stone: '.'},
		{name: "accepted: the ko ban comes back", steps: append(koSteps[:9:9], step{user: "white", cmd: "play 7 7", seq: 10},
			step{user: "white", cmd: "undo"}, step{user: "black", cmd: "undo-accept"},
			step{user: "white", cmd: "play 1 1", seq: 10, code: tengen.EINVALID, msg: "Illegal move: ko."}),
			moves: 9, toMove: goban.White, capturesBlack: 1, at: goban.Point{X: 7, Y: 7}, stone: '.'},
		{name: "declined", steps: append(koSteps[:9:9], step{user: "black", cmd: "undo"}, step{user: "white", cmd: "undo-decline"}),
			moves: 9, toMove: goban.White, capturesBlack: 1, at: goban.Point{X: 1, Y: 1}, stone: '.'},
		{name: "refused after the opponent moved", steps: []step{
			{user: "black", cmd: "play 4 4", seq: 1}, {user: "white", cmd: "play 3 3", seq: 2},
			{user: "black", cmd: "undo", code: tengen.ECONFLICT}},
			moves: 2, toMove: goban.Black, at: goban.Point{X: 4, Y: 4}, stone: 'B'},
		{name: "the opponent's move ends the request", steps: []step{
			{user: "black", cmd: "play 4 4", seq: 1}, {user: "black", cmd: "undo"}, {user: "white", cmd: "play 3 3", seq: 2},
			{user: "white", cmd: "undo-accept", code: tengen.ECONFLICT}},
			moves: 2, toMove: goban.Black, at: goban.Point{X: 4, Y: 4}, stone: 'B'},
		{name: "no move yet", steps: []step{{user: "black", cmd: "undo", code: tengen.ECONFLICT}},
			moves: 0, toMove: goban.Black, at: goban.Point{X: 4, Y: 4}, stone: '.'},
		{name: "the mover cannot accept", steps: []step{
			{user: "black", cmd: "play 4 4", seq: 1}, {user: "black", cmd: "undo"}, {user: "black", cmd: "undo-accept", code: tengen.EFORBIDDEN}},
			moves: 1, toMove: goban.White, pending: 1, at: goban.Point{X: 4, Y: 4}, stone: 'B'},
		{name: "nothing to accept", steps: []step{
			{user: "black", cmd: "play 4 4", seq: 1}, {user: "white", cmd: "undo-decline", code: tengen.ECONFLICT}},
			moves: 1, toMove: goban.White, at: goban.Point{X: 4, Y: 4}, stone: 'B'},
		{name: "a spectator", steps: []step{
			{user: "black", cmd: "play 4 4", seq: 1}, {user: "black", cmd: "undo"}, {user: "carol", cmd: "undo-accept", code: tengen.EFORBIDDEN},
			{user: "carol", cmd: "undo", code: tengen.EFORBIDDEN}},
			moves: 1, toMove: goban.White, pending: 1, at: goban.Point{X: 4, Y: 4}, stone: 'B'},
		{name: "the scoring phase", steps: []step{
			{user: "black", cmd: "pass", seq: 1}, {user: "white", cmd: "pass", seq: 2}, {user: "white", cmd: "undo", code: tengen.ECONFLICT}},
			moves: 2, toMove: goban.Black, at: goban.Point{X: 4, Y: 4}, stone: '.'},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			e := newEnv(t)
			id := e.newGame(settings(9, "japanese", noTime))
			e.run(id, tt.steps)
			// The state must be the same live and after a restart, which
			// replays the stored moves and reads the stored request.
			for _, when := range []string{"live", "restarted"} {
				if when == "restarted" {
					e.restart(time.Second)
				}
				snap, err := e.svc.Snapshot(ctx, id, e.black.ID)
				if err != nil {
					t.Fatal(err)
				}
				if len(snap.Moves) != tt.moves || snap.Game.MoveCount != tt.moves {
					t.Errorf("%s: %d moves (count %d), want %d", when, len(snap.Moves), snap.Game.MoveCount, tt.moves)
				}
				if snap.Game.ToMove != tt.toMove {
					t.Errorf("%s: %v to move, want %v", when, snap.Game.ToMove, tt.toMove)
				}
				if snap.Captures.Black != tt.capturesBlack {
					t.Errorf("%s: Black captured %d, want %d", when, snap.Captures.Black, tt.capturesBlack)
				}
				var pending int
				if snap.Takeback != nil {
					pending = snap.Takeback.Seq
				}
				if pending != tt.pending {
					t.Errorf("%s: pending takeback %d, want %d", when, pending, tt.pending)
				}
				if got := snap.Board[tt.at.Y][tt.at.X]; got != tt.stone {
					t.Errorf("%s: %c at %v, want %c", when, got, tt.at, tt.stone)
				}
				stored, err := e.games.FindMoves(ctx, id, 0)
				if err != nil {
					t.Fatal(err)
				}
				if len(stored) != tt.moves {
					t.Errorf("%s: %d stored moves, want %d", when, len(stored), tt.moves)
				}
			}
		})
	}
}

// TestTakebackEventsAndClock checks what watchers see and that the clock
// goes back to the mover without refunding the time spent.
func TestTakebackEventsAndClock(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	tc := clock.TimeControl{Kind: clock.Absolute, MainTime: time.Minute}
	id := e.newGame(settings(9, "japanese", tc))
	e.watch(id)
	e.clock.Advance(10 * time.Second)
	e.run(id, []step{{user: "black", cmd: "play 4 4", seq: 1}})
	e.clock.Advance(5 * time.Second)
	e.run(id, []step{{user: "black", cmd: "undo"}})
	if got := e.events[len(e.events)-1]; got.Type != tengen.EventTakeback || got.Takeback == nil || got.Takeback.Seq != 1 || got.Takeback.Color != goban.Black {
		t.Fatalf("after the request: event %+v", got)
	}
	e.eventTypes()
	e.clock.Advance(5 * time.Second)
	e.run(id, []step{{user: "white", cmd: "undo-accept"}})
	evs := e.events
	if e.eventTypes() != "takeback" {
		t.Fatalf("after the acceptance: events %q, want takeback", tengen.EventTakeback)
	}
	ev := evs[0]
	if ev.Takeback != nil || ev.Game.MoveCount != 0 || ev.Board[4][4] != '.' {
		t.Errorf("takeback event: pending %v, move count %d, row 4 %q", ev.Takeback, ev.Game.MoveCount, ev.Board[4])
	}
	snap, err := e.svc.Snapshot(ctx, id, 0)
	if err != nil {
		t.Fatal(err)
	}
	c := snap.Clock
	if c.Running != goban.Black || c.Black.MainMs != 50_000 || c.White.MainMs != 50_000 {
		t.Errorf("clock: running %v, Black %d ms, White %d ms; want Black running, 50000 ms each", c.Running, c.Black.MainMs, c.White.MainMs)
	}
}
