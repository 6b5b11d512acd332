package http_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/coder/websocket"

	"tengen"
	"tengen/sqlite"
)

// wantClosed reads from w until the server closes it and checks the close
// status, skipping the messages that were still queued.
func wantClosed(t *testing.T, what string, w *wsConn, status websocket.StatusCode) {
	t.Helper()
	for {
		m, err := w.read()
		if err == nil {
			if m.Type == "move" || m.Type == "ok" {
				t.Errorf("%s: the socket still acted: %+v", what, m)
			}
			continue
		}
		if got := websocket.CloseStatus(err); got != status {
			t.Errorf("%s: socket ended with %v (status %v), want %v", what, err, got, status)
		}
		return
	}
}

// TestLogoutClosesWebSockets checks that ending a session reaches the game
// WebSockets opened with it: logging out closes that session's sockets, and
// logging out everywhere ends every session of the user and closes all
// their sockets; other users' sockets stay open.
func TestLogoutClosesWebSockets(t *testing.T) {
	tests := []struct {
		name string
		path string
		// otherSession: whether the user's second client stays logged in
		// and its socket open.
		otherSession bool
	}{
		{"logout", "/api/v1/logout", true},
		{"logout everywhere", "/api/v1/logout-everywhere", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newPlayEnv(t)
			black, white, id := newPlayGame(e, settings9())
			black2 := e.client()
			black2.api("POST", "/api/v1/login", map[string]string{"name": "blacky", "password": "secret-blacky"}, 200, nil)
			b1, b2, ww := black.mustWS(id), black2.mustWS(id), white.mustWS(id)
			for _, w := range []*wsConn{b1, b2, ww} {
				w.expect("game")
			}

			black.api("POST", tt.path, nil, 204, nil)
			wantClosed(t, "the socket of the session that logged out", b1, websocket.StatusPolicyViolation)
			black.apiError("GET", "/api/v1/me", nil, 401, tengen.EUNAUTHORIZED)

			if tt.otherSession {
				black2.api("GET", "/api/v1/me", nil, 200, nil)
				b2.send(map[string]any{"type": "move", "id": "m1", "seq": 1, "x": 4, "y": 4})
				b2.expect("move", "ok")
				ww.expect("move")
			} else {
				wantClosed(t, "the socket of the other session", b2, websocket.StatusPolicyViolation)
				black2.apiError("GET", "/api/v1/me", nil, 401, tengen.EUNAUTHORIZED)
			}
			// The opponent's socket is untouched.
			ww.send(map[string]any{"type": "ping", "id": "p"})
			ww.expect("pong")
			var st stateOut
			white.api("GET", fmt.Sprintf("/api/v1/games/%d/state", id), nil, 200, &st)
			if want := map[bool]int{true: 1, false: 0}[tt.otherSession]; st.State.Game.MoveCount != want {
				t.Errorf("moves after %s: %d, want %d", tt.name, st.State.Game.MoveCount, want)
			}
		})
	}
}

// TestWebSocketRechecksSession checks that a socket whose session ended
// without the web server's knowledge (here deleted in storage directly, as
// expiry or another server would) refuses the next command and closes.
func TestWebSocketRechecksSession(t *testing.T) {
	e := newPlayEnv(t)
	black, white, id := newPlayGame(e, settings9())
	bw := black.mustWS(id)
	bw.expect("game")
	var me struct{ User *tengen.User }
	black.api("GET", "/api/v1/me", nil, 200, &me)
	if _, err := sqlite.NewSessionService(e.db).DeleteUserSessions(context.Background(), me.User.ID); err != nil {
		t.Fatal(err)
	}
	bw.send(map[string]any{"type": "move", "id": "m1", "seq": 1, "x": 4, "y": 4})
	if m := bw.expect("error")[0]; m.Code != tengen.EUNAUTHORIZED || m.ID != "m1" {
		t.Errorf("move after the session ended: %+v", m)
	}
	wantClosed(t, "socket of an ended session", bw, websocket.StatusPolicyViolation)
	var st stateOut
	white.api("GET", fmt.Sprintf("/api/v1/games/%d/state", id), nil, 200, &st)
	if st.State.Game.MoveCount != 0 {
		t.Errorf("a move was played after the session ended: %+v", st.State.Game)
	}
}
