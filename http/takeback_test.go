package http_test

import (
	"fmt"
	"strings"
	"testing"

	"tengen"
	"tengen/goban"
)

func TestTakebackAPI(t *testing.T) { onBothBackends(t, testTakebackAPI) }

// testTakebackAPI checks the three takeback endpoints: refusals are clear
// 4xx answers that change nothing, an accepted takeback removes the move
// from the state and the SGF, and the WebSocket commands reach the watchers.
func testTakebackAPI(t *testing.T, e *env) {
	black, white, id := newPlayGame(e, settings9())
	carol := e.client()
	carol.register("carol")
	base := fmt.Sprintf("/api/v1/games/%d", id)
	var st stateOut

	// Bad input: nothing to take back, nothing pending, strangers, bad body.
	black.apiError("POST", base+"/undo", map[string]any{}, 409, "conflict")
	white.apiError("POST", base+"/undo/accept", map[string]any{}, 409, "conflict")
	black.api("POST", base+"/moves", map[string]any{"seq": 1, "kind": "play", "x": 2, "y": 2}, 200, nil)
	white.apiError("POST", base+"/undo", map[string]any{}, 409, "conflict")
	carol.apiError("POST", base+"/undo", map[string]any{}, 403, "forbidden")
	e.client().apiError("POST", base+"/undo", map[string]any{}, 401, "unauthorized")
	black.apiError("POST", "/api/v1/games/999999/undo", map[string]any{}, 404, "not_found")
	black.apiError("POST", base+"/undo", "not an object", 400, "invalid")
	black.api("GET", base+"/state", nil, 200, &st)
	if st.State.Takeback != nil || st.State.Game.MoveCount != 1 {
		t.Fatalf("after refusals: pending %+v, %d moves", st.State.Takeback, st.State.Game.MoveCount)
	}

	// Asked and declined over HTTP.
	black.api("POST", base+"/undo", map[string]any{}, 200, &st)
	if st.State.Takeback == nil || st.State.Takeback.Seq != 1 || st.State.Takeback.Color != goban.Black {
		t.Fatalf("after the request: pending %+v", st.State.Takeback)
	}
	black.apiError("POST", base+"/undo/accept", map[string]any{}, 403, "forbidden")
	st = stateOut{} // Unmarshal keeps fields the answer leaves out
	white.api("POST", base+"/undo/decline", map[string]any{}, 200, &st)
	if st.State.Takeback != nil || st.State.Game.MoveCount != 1 {
		t.Fatalf("after the refusal: pending %+v, %d moves", st.State.Takeback, st.State.Game.MoveCount)
	}

	// Asked and accepted over the WebSocket; both players see it.
	bw, ww := black.mustWS(id), white.mustWS(id)
	bw.expect("game")
	ww.expect("game")
	bw.send(map[string]any{"type": "undo", "id": "u1"})
	bw.expect("takeback", "ok")
	if m := ww.expect("takeback")[0]; m.Takeback == nil || m.Takeback.Seq != 1 {
		t.Fatalf("white saw %+v", m)
	}
	ww.send(map[string]any{"type": "undo-accept", "id": "u2"})
	ww.expect("takeback", "ok")
	if m := bw.expect("takeback")[0]; m.Takeback != nil || m.Game.MoveCount != 0 || m.Board[2][2] != '.' {
		t.Fatalf("black saw %+v", m)
	}
	st = stateOut{}
	black.api("GET", base+"/state", nil, 200, &st)
	if st.State.Game.MoveCount != 0 || st.State.Game.ToMove != goban.Black || len(st.State.Moves) != 0 {
		t.Errorf("after the takeback: %d moves, %s to move", st.State.Game.MoveCount, st.State.Game.ToMove)
	}
	black.api("POST", base+"/moves", map[string]any{"seq": 1, "kind": "play", "x": 3, "y": 3}, 200, nil)
	st = stateOut{}
	black.api("GET", base+"/state", nil, 200, &st)
	if st.State.Game.Status != tengen.GamePlaying || st.State.Board[3][3] != 'B' {
		t.Errorf("the move again: %+v", st.State.Game)
	}
	// The SGF keeps the final line only.
	if _, data := black.do("GET", base+"/sgf", nil); !strings.Contains(string(data), "B[dd]") || strings.Contains(string(data), "[cc]") {
		t.Errorf("SGF after the takeback:\n%s", data)
	}
}
