package http_test

import (
	"context"
	"fmt"
	"net/url"
	"strings"
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

// TestLogoutEverywhereForm checks the button on one's own profile page: it
// shows there only, and its form ends every session of the user.
func TestLogoutEverywhereForm(t *testing.T) {
	e := newPlayEnv(t)
	alice, bob := e.client(), e.client()
	alice.register("alice")
	bob.register("bob")
	alice2 := e.client()
	alice2.api("POST", "/api/v1/login", map[string]string{"name": "alice", "password": "secret-alice"}, 200, nil)
	const button = `action="/logout-everywhere"`
	if page := alice.page("/users/alice", 200); !strings.Contains(page, button) {
		t.Error("no log-out-everywhere button on one's own profile")
	}
	for _, c := range []struct {
		who  *client
		path string
	}{{bob, "/users/alice"}, {e.client(), "/users/alice"}, {alice, "/users/bob"}} {
		if page := c.who.page(c.path, 200); strings.Contains(page, button) {
			t.Errorf("the log-out-everywhere button on %s for someone else", c.path)
		}
	}
	resp, _ := alice.do("POST", "/logout-everywhere", url.Values{})
	if resp.StatusCode != 303 || resp.Header.Get("Location") != "/" {
		t.Errorf("log out everywhere: %d to %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	for _, c := range []*client{alice, alice2} {
		c.apiError("GET", "/api/v1/me", nil, 401, tengen.EUNAUTHORIZED)
	}
	bob.api("GET", "/api/v1/me", nil, 200, nil)
	if resp, _ := e.client().do("POST", "/logout-everywhere", url.Values{}); resp.StatusCode != 401 {
		t.Errorf("log out everywhere without a session: %d, want 401", resp.StatusCode)
	}
}
