package play_test

import (
	"strings"
	"testing"

	"tengen"
)

// TestChanged: Config.Changed hears of every committed change, with the
// game before (nil for a new game) and after and the events the watchers
// got; a refused command reports nothing.
func TestChanged(t *testing.T) {
	e := newEnv(t)
	type call struct {
		before, after *tengen.Game
		events        string
	}
	var calls []call
	e.svc.Close()
	e.changed = func(before, after *tengen.Game, evs []*tengen.GameEvent) {
		var ts []string
		for _, ev := range evs {
			ts = append(ts, ev.Type)
		}
		calls = append(calls, call{before, after, strings.Join(ts, " ")})
	}
	e.start()
	id := e.newGame(settings(9, "japanese", noTime))
	if len(calls) != 1 || calls[0].before != nil || calls[0].after.ID != id || calls[0].after.Status != tengen.GamePlaying {
		t.Fatalf("after creation: %+v", calls)
	}
	calls = nil
	if _, err := e.do(id, step{user: "white", cmd: "play 2 2", seq: 1}); err == nil {
		t.Fatal("white moved out of turn")
	}
	if len(calls) != 0 {
		t.Errorf("a refused move was reported: %+v", calls)
	}
	if _, err := e.do(id, step{user: "black", cmd: "play 2 2", seq: 1}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.do(id, step{user: "white", cmd: "undo"}); err == nil {
		t.Fatal("white asked to take back black's move")
	}
	if _, err := e.do(id, step{user: "black", cmd: "undo"}); err != nil {
		t.Fatal(err)
	}
	if len(calls) != 2 {
		t.Fatalf("calls: %+v", calls)
	}
	mv, tb := calls[0], calls[1]
	if mv.before.MoveCount != 0 || mv.after.MoveCount != 1 || mv.after.ToMove.String() != "white" || mv.events != "move" {
		t.Errorf("move: before %d after %d, %s to move, events %q", mv.before.MoveCount, mv.after.MoveCount, mv.after.ToMove, mv.events)
	}
	if tb.events != "takeback" {
		t.Errorf("takeback request: events %q", tb.events)
	}
}
