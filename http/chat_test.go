package http_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"tengen"
	"tengen/internal/app"
)

// chatOut is the answer of GET .../chat.
type chatOut struct {
	Messages []*tengen.ChatMessage
	Rooms    []tengen.ChatRoom
	Room     tengen.ChatRoom
	Muted    []string
}

func (c *client) chat(path string) chatOut {
	c.e.t.Helper()
	var out chatOut
	c.api("GET", path, nil, 200, &out)
	return out
}

func texts(msgs []*tengen.ChatMessage) string {
	var out []string
	for _, m := range msgs {
		out = append(out, m.AuthorName+":"+m.Text)
	}
	return strings.Join(out, "|")
}

func TestChatAPI(t *testing.T) { onBothBackends(t, testChatAPI) }

// testChatAPI checks the chat endpoints: who reads which room during and
// after the game, bad input refused with a clear 4xx that stores nothing,
// mutes, the admin's deletion, and the live delivery over the game socket.
func testChatAPI(t *testing.T, e *env) {
	black, white, id := newPlayGame(e, settings9()) // blacky registered first: the admin
	carol, anon := e.client(), e.client()
	carol.register("carol")
	base := fmt.Sprintf("/api/v1/games/%d", id)

	// Sockets: a player and a spectator, to see what reaches whom.
	wsWhite, wsCarol, wsAnon := white.mustWS(id), carol.mustWS(id), anon.mustWS(id)
	for _, w := range []*wsConn{wsWhite, wsCarol, wsAnon} {
		w.expect("game")
	}

	var posted struct{ Message *tengen.ChatMessage }
	black.api("POST", base+"/chat", map[string]any{"text": "have a <b>good</b> game"}, 201, &posted)
	if m := posted.Message; m.Room != tengen.ChatPlayers || m.AuthorName != "blacky" || m.MoveNumber != 0 || m.Text != "have a <b>good</b> game" {
		t.Errorf("posted %+v", m)
	}
	black.api("POST", base+"/moves", map[string]any{"seq": 1, "kind": "play", "x": 2, "y": 2}, 200, nil)
	for _, w := range []*wsConn{wsWhite, wsCarol, wsAnon} {
		// Only the other player's socket gets the players' message; the
		// move reaches everybody.
		if w == wsWhite {
			m := wsWhite.readRaw()
			if !strings.Contains(m, `"type":"chat"`) || !strings.Contains(m, `have a \u003cb\u003egood\u003c/b\u003e game`) {
				t.Errorf("white's socket got %s, want the chat message", m)
			}
		}
		w.expect("move")
	}
	carol.api("POST", base+"/chat", map[string]any{"text": "nice opening"}, 201, &posted)
	if posted.Message.Room != tengen.ChatSpectators || posted.Message.MoveNumber != 1 {
		t.Errorf("spectator's message %+v, want spectators' room at move 1", posted.Message)
	}
	if m := wsAnon.readRaw(); !strings.Contains(m, "nice opening") {
		t.Errorf("anonymous spectator's socket got %s", m)
	}
	// Over the socket: a player writes; the other player reads it.
	wsWhite.send(map[string]any{"type": "chat", "text": "thanks", "id": "c1"})
	if m := wsWhite.readRaw(); !strings.Contains(m, `"thanks"`) {
		t.Errorf("white's own socket got %s, want the message", m)
	}
	wsWhite.expect("ok")
	wsWhite.send(map[string]any{"type": "chat", "id": "c2"})
	if m := wsWhite.expect("error")[0]; m.Code != "invalid" {
		t.Errorf("chat without text: %+v", m)
	}
	wsAnon.send(map[string]any{"type": "chat", "text": "hi", "id": "c3"})
	if m := wsAnon.expect("error")[0]; m.Code != "unauthorized" {
		t.Errorf("anonymous chat over the socket: %+v", m)
	}
	wsCarol.send(map[string]any{"type": "ping", "id": "p"})
	wsCarol.expect("chat", "pong") // her own message, then nothing of the players'

	// Visibility during the game.
	for _, tt := range []struct {
		name  string
		c     *client
		want  string
		rooms int
		room  tengen.ChatRoom
	}{
		{"black", black, "blacky:have a <b>good</b> game|whitey:thanks", 1, tengen.ChatPlayers},
		{"white", white, "blacky:have a <b>good</b> game|whitey:thanks", 1, tengen.ChatPlayers},
		{"spectator", carol, "carol:nice opening", 1, tengen.ChatSpectators},
		{"anonymous", anon, "carol:nice opening", 1, ""},
	} {
		out := tt.c.chat(base + "/chat")
		if got := texts(out.Messages); got != tt.want || len(out.Rooms) != tt.rooms || out.Room != tt.room {
			t.Errorf("%s during the game: %q rooms %v writes in %q; want %q in %q", tt.name, got, out.Rooms, out.Room, tt.want, tt.room)
		}
	}

	// Bad input: clear 4xx, nothing stored.
	long := strings.Repeat("x", tengen.MaxChatLen+1)
	for _, tt := range []struct {
		name   string
		c      *client
		method string
		path   string
		body   any
		status int
		code   string
	}{
		{"anonymous", anon, "POST", base + "/chat", map[string]any{"text": "hi"}, 401, "unauthorized"},
		{"empty", black, "POST", base + "/chat", map[string]any{"text": "   "}, 400, "invalid"},
		{"missing text", black, "POST", base + "/chat", map[string]any{}, 400, "invalid"},
		{"too long", black, "POST", base + "/chat", map[string]any{"text": long}, 400, "invalid"},
		{"control character", black, "POST", base + "/chat", map[string]any{"text": "a\u0007b"}, 400, "invalid"},
		{"unknown field", black, "POST", base + "/chat", map[string]any{"text": "hi", "room": "spectators"}, 400, "invalid"},
		{"not JSON", black, "POST", base + "/chat", "hello", 400, "invalid"},
		{"unknown game", black, "POST", "/api/v1/games/999999/chat", map[string]any{"text": "hi"}, 404, "not_found"},
		{"bad game id", black, "POST", "/api/v1/games/x/chat", map[string]any{"text": "hi"}, 404, "not_found"},
		{"read unknown game", black, "GET", "/api/v1/games/999999/chat", nil, 404, "not_found"},
		{"lobby anonymous read", anon, "GET", "/api/v1/lobby/chat", nil, 401, "unauthorized"},
		{"lobby anonymous write", anon, "POST", "/api/v1/lobby/chat", map[string]any{"text": "hi"}, 401, "unauthorized"},
		{"lobby too long", carol, "POST", "/api/v1/lobby/chat", map[string]any{"text": long}, 400, "invalid"},
		{"lobby empty", carol, "POST", "/api/v1/lobby/chat", map[string]any{"text": ""}, 400, "invalid"},
		{"mute anonymous", anon, "POST", "/api/v1/users/carol/mute", nil, 401, "unauthorized"},
		{"mute oneself", carol, "POST", "/api/v1/users/carol/mute", nil, 400, "invalid"},
		{"mute unknown", carol, "POST", "/api/v1/users/nobody/mute", nil, 404, "not_found"},
		{"unmute unknown", carol, "DELETE", "/api/v1/users/nobody/mute", nil, 404, "not_found"},
		{"delete not admin", carol, "DELETE", "/api/v1/chat/1", nil, 403, "forbidden"},
		{"delete anonymous", anon, "DELETE", "/api/v1/chat/1", nil, 401, "unauthorized"},
		{"delete unknown", black, "DELETE", "/api/v1/chat/999999", nil, 404, "not_found"},
		{"delete bad id", black, "DELETE", "/api/v1/chat/x", nil, 404, "not_found"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.c.apiError(tt.method, tt.path, tt.body, tt.status, tt.code)
		})
	}
	if got := texts(black.chat(base + "/chat").Messages); got != "blacky:have a <b>good</b> game|whitey:thanks" {
		t.Errorf("after refusals the players' chat is %q", got)
	}
	if got := texts(carol.chat("/api/v1/lobby/chat").Messages); got != "" {
		t.Errorf("after refusals the lobby chat is %q", got)
	}
	if m := carol.chat("/api/v1/lobby/chat"); len(m.Muted) != 0 {
		t.Errorf("after refusals carol muted %q", m.Muted)
	}

	// The lobby.
	posted.Message = nil
	carol.api("POST", "/api/v1/lobby/chat", map[string]any{"text": "anyone for 9x9?"}, 201, &posted)
	if posted.Message.Room != tengen.ChatLobby || posted.Message.GameID != 0 {
		t.Errorf("lobby message %+v", posted.Message)
	}
	white.api("POST", "/api/v1/lobby/chat", map[string]any{"text": "after this game"}, 201, nil)
	if got := texts(black.chat("/api/v1/lobby/chat").Messages); got != "carol:anyone for 9x9?|whitey:after this game" {
		t.Errorf("lobby: %q", got)
	}

	// Mutes are per user and hide the muted user's messages from the
	// muter only, in every room.
	var mu struct{ Muted []string }
	black.api("POST", "/api/v1/users/whitey/mute", nil, 200, &mu)
	if len(mu.Muted) != 1 || mu.Muted[0] != "whitey" {
		t.Errorf("muted %q", mu.Muted)
	}
	if got := texts(black.chat("/api/v1/lobby/chat").Messages); got != "carol:anyone for 9x9?" {
		t.Errorf("lobby for the muter: %q", got)
	}
	if got := texts(carol.chat("/api/v1/lobby/chat").Messages); got != "carol:anyone for 9x9?|whitey:after this game" {
		t.Errorf("lobby for others: %q", got)
	}
	wsBlack := black.mustWS(id)
	wsBlack.expect("game")
	white.api("POST", base+"/chat", map[string]any{"text": "muted words"}, 201, nil)
	wsBlack.send(map[string]any{"type": "ping", "id": "p"})
	wsBlack.expect("pong") // the muted message did not come
	black.api("DELETE", "/api/v1/users/whitey/mute", nil, 200, &mu)
	if len(mu.Muted) != 0 {
		t.Errorf("after unmute: %q", mu.Muted)
	}
	if got := texts(black.chat(base + "/chat").Messages); !strings.Contains(got, "muted words") {
		t.Errorf("after unmuting, the players' chat for black is %q", got)
	}

	// The admin deletes a message: gone for everybody, sockets told.
	var del struct{ Message *tengen.ChatMessage }
	black.api("DELETE", fmt.Sprintf("/api/v1/chat/%d", posted.Message.ID), nil, 200, &del)
	if !del.Message.Deleted {
		t.Errorf("deleted: %+v", del.Message)
	}
	if got := texts(carol.chat("/api/v1/lobby/chat").Messages); got != "whitey:after this game" {
		t.Errorf("lobby after deletion: %q", got)
	}
	spectatorMsg := carol.chat(base + "/chat").Messages[0]
	black.api("DELETE", fmt.Sprintf("/api/v1/chat/%d", spectatorMsg.ID), nil, 200, nil)
	wsCarol.expect("chat-deleted") // and nothing of the players' room before it

	// After the game everybody reads both rooms.
	white.api("POST", base+"/moves", map[string]any{"seq": 2, "kind": "resign"}, 200, nil)
	for _, c := range []*client{black, white, carol, anon} {
		out := c.chat(base + "/chat")
		if len(out.Rooms) != 2 || !strings.Contains(texts(out.Messages), "blacky:have a <b>good</b> game") {
			t.Errorf("after the game: rooms %v messages %q", out.Rooms, texts(out.Messages))
		}
	}
	// The SGF carries the players' chat at its move, not the spectators'.
	resp, data := anon.do("GET", base+"/sgf", nil)
	if resp.StatusCode != 200 {
		t.Fatalf("SGF: %d", resp.StatusCode)
	}
	sgf := string(data)
	if !strings.Contains(sgf, "C[blacky: have a <b>good</b> game]") || !strings.Contains(sgf, "whitey: thanks\nwhitey: muted words]") || strings.Contains(sgf, "nice opening") {
		t.Errorf("SGF chat comments wrong:\n%s", sgf)
	}
}

// readRaw returns the next message as the server sent it.
func (w *wsConn) readRaw() string {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, data, err := w.c.Read(ctx)
	if err != nil {
		w.t.Fatal(err)
	}
	return string(data)
}

func TestChatRateLimit(t *testing.T) {
	e := newPlayEnvWith(t, func(c *app.Config) { c.ChatBurst = 3 })
	alice := e.client()
	alice.register("alice")
	for i := range 3 {
		alice.api("POST", "/api/v1/lobby/chat", map[string]any{"text": fmt.Sprint("message ", i)}, 201, nil)
	}
	alice.apiError("POST", "/api/v1/lobby/chat", map[string]any{"text": "one too many"}, 429, "rate_limited")
	// A refused text costs no token and is refused for itself.
	alice.apiError("POST", "/api/v1/lobby/chat", map[string]any{"text": ""}, 400, "invalid")
	if got := texts(alice.chat("/api/v1/lobby/chat").Messages); got != "alice:message 0|alice:message 1|alice:message 2" {
		t.Errorf("lobby after the limit: %q", got)
	}
}
