package app_test

import (
	"context"
	"encoding/json"
	"fmt"
	nethttp "net/http"
	"net/http/cookiejar"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"golang.org/x/crypto/bcrypt"

	"tengen"
	"tengen/internal/app"
	"tengen/postgres/pgtest"
)

// siteSocket is a site socket (GET /api/v1/ws?lobby=1) of a test user, or
// a game socket.
type siteSocket struct {
	t    *testing.T
	name string
	ws   *websocket.Conn
	msgs chan map[string]any
	// seen are the messages await has read, in order.
	seen []map[string]any
}

// openSite opens u's site socket with the lobby.
func openSite(t *testing.T, u *user, name string) *siteSocket {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(u.base, "http")+"/api/v1/ws?lobby=1",
		&websocket.DialOptions{HTTPClient: u.c})
	if err != nil {
		t.Fatalf("%s: site socket: %v", name, err)
	}
	ws.SetReadLimit(1 << 20)
	s := &siteSocket{t: t, name: name, ws: ws, msgs: make(chan map[string]any, 1000)}
	go s.read()
	t.Cleanup(func() { ws.CloseNow() })
	return s
}

// read passes the socket's messages to msgs until it closes.
func (s *siteSocket) read() {
	defer close(s.msgs)
	for {
		_, data, err := s.ws.Read(context.Background())
		if err != nil {
			return
		}
		var m map[string]any
		if json.Unmarshal(data, &m) == nil {
			s.msgs <- m
		}
	}
}

// await reads messages until one for which ok is true, or fails after
// 20 seconds.
func (s *siteSocket) await(what string, ok func(m map[string]any) bool) map[string]any {
	s.t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		select {
		case m, open := <-s.msgs:
			if !open {
				s.t.Fatalf("%s: socket closed while waiting for %s", s.name, what)
			}
			s.seen = append(s.seen, m)
			if ok(m) {
				return m
			}
		case <-deadline:
			s.t.Fatalf("%s: no %s within 20 s", s.name, what)
		}
	}
}

// awaitAny is await that also looks at the messages read already.
func (s *siteSocket) awaitAny(what string, ok func(m map[string]any) bool) map[string]any {
	s.t.Helper()
	for _, m := range s.seen {
		if ok(m) {
			return m
		}
	}
	return s.await(what, ok)
}

// send sends a command on the socket.
func (s *siteSocket) send(cmd map[string]any) {
	s.t.Helper()
	data, _ := json.Marshal(cmd)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := s.ws.Write(ctx, websocket.MessageText, data); err != nil {
		s.t.Fatal(err)
	}
}

// lobbyLists reports whether m is a lobby push whose list key holds an
// entry whose field is value.
func lobbyLists(m map[string]any, key, field string, value any) bool {
	if m["type"] != "lobby" {
		return false
	}
	list, _ := m[key].([]any)
	for _, e := range list {
		if o, _ := e.(map[string]any); o != nil && fmt.Sprint(o[field]) == fmt.Sprint(value) {
			return true
		}
	}
	return false
}

// TestSiteAcrossInstances runs two whole servers (app.Open twice, two
// ports) on one PostgreSQL database, as two instances behind a load
// balancer, with one player on each: each sees the other online, the
// other's new challenge and lobby chat line, a direct challenge from the
// other instance, and two seekers on different instances get one game.
func TestSiteAcrossInstances(t *testing.T) {
	url := pgtest.URL(t)
	var bases [2]string
	for i := range bases {
		a, err := app.Open(context.Background(), app.Config{DBPath: url, Addr: "127.0.0.1:0", Logger: quiet(), BcryptCost: bcrypt.MinCost})
		if err != nil {
			t.Fatalf("instance %d: %v", i, err)
		}
		t.Cleanup(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			if err := a.Close(ctx); err != nil {
				t.Errorf("close instance %d: %v", i, err)
			}
		})
		bases[i] = "http://" + a.Addr().String()
	}
	newUser := func(base, name string) *user {
		jar, _ := cookiejar.New(nil)
		u := &user{t: t, c: &nethttp.Client{Jar: jar, Timeout: 10 * time.Second}, base: base}
		u.must("POST", "/api/v1/register", map[string]string{"name": name, "password": "secret-" + name}, nil, 201)
		return u
	}
	ann, ben := newUser(bases[0], "ann"), newUser(bases[1], "ben")
	var me struct{ User tengen.User }
	ann.must("GET", "/api/v1/me", nil, &me, 200)
	annID := me.User.ID
	sa, sb := openSite(t, ann, "ann@0"), openSite(t, ben, "ben@1")

	// Presence: each lobby lists the player of the other instance.
	sa.await("ben online in ann's lobby", func(m map[string]any) bool { return lobbyLists(m, "online", "name", "ben") })
	sb.await("ann online in ben's lobby", func(m map[string]any) bool { return lobbyLists(m, "online", "name", "ann") })

	// An open challenge made on instance 1 reaches the lobby on instance 0.
	var ch struct{ Challenge tengen.Challenge }
	ben.must("POST", "/api/v1/challenges", map[string]any{"settings": tengen.GameSettings{BoardSize: 9, Ruleset: "japanese", Color: tengen.ChooseBlack}}, &ch, 201)
	sa.await("ben's challenge in ann's lobby", func(m map[string]any) bool { return lobbyLists(m, "challenges", "id", ch.Challenge.ID) })
	// Withdrawn, it leaves it.
	ben.must("POST", fmt.Sprintf("/api/v1/challenges/%d/cancel", ch.Challenge.ID), nil, nil, 200)
	sa.await("the withdrawn challenge gone from ann's lobby", func(m map[string]any) bool {
		return m["type"] == "lobby" && !lobbyLists(m, "challenges", "id", ch.Challenge.ID)
	})
	// A direct challenge notifies its opponent on the other instance.
	ben.must("POST", "/api/v1/challenges", map[string]any{"opponent": "ann", "settings": tengen.GameSettings{BoardSize: 9, Ruleset: "japanese", Color: tengen.ChooseBlack}}, &ch, 201)
	sa.await("ben's direct challenge notified to ann", func(m map[string]any) bool {
		return m["type"] == "notify" && m["kind"] == "challenged" && fmt.Sprint(m["challengeId"]) == fmt.Sprint(ch.Challenge.ID) && m["from"] == "ben"
	})
	ben.must("POST", fmt.Sprintf("/api/v1/challenges/%d/cancel", ch.Challenge.ID), nil, nil, 200)

	// A lobby chat line said on instance 0 reaches ben on instance 1.
	ann.must("POST", "/api/v1/lobby/chat", map[string]string{"text": "hello from zero"}, nil, 201)
	sb.await("ann's chat line on ben's socket", func(m map[string]any) bool {
		c, _ := m["chat"].(map[string]any)
		return m["type"] == "chat" && c != nil && c["text"] == "hello from zero"
	})

	// Two seekers on different instances get one game, and both hear of
	// its start from the instance that made it.
	sa.send(map[string]any{"type": "seek", "id": "s1", "boardSize": 9, "speed": "live"})
	sb.send(map[string]any{"type": "seek", "id": "s2", "boardSize": 9, "speed": "live"})
	ma := sa.await("ann's match", func(m map[string]any) bool { return m["type"] == "seek-matched" })
	mb := sb.await("ben's match", func(m map[string]any) bool { return m["type"] == "seek-matched" })
	if ma["gameId"] != mb["gameId"] || ma["gameId"] == nil {
		t.Fatalf("the seekers were matched to games %v and %v, want one", ma["gameId"], mb["gameId"])
	}
	var g struct{ Game tengen.Game }
	ben.must("GET", fmt.Sprintf("/api/v1/games/%v", mb["gameId"]), nil, &g, 200)
	if g.Game.BlackID != annID && g.Game.WhiteID != annID {
		t.Errorf("game %d is not ann's: %+v", g.Game.ID, g.Game)
	}
	for _, s := range []*siteSocket{sa, sb} {
		s.awaitAny("the game-started notification", func(m map[string]any) bool {
			return m["type"] == "notify" && m["kind"] == "game-started" && m["gameId"] == ma["gameId"]
		})
	}

	// The game's presence counts the sockets of both instances: ben,
	// watching on instance 1, sees ann there with the game open on
	// instance 0.
	gameSocket := func(u *user, name string) *siteSocket {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		ws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(u.base, "http")+fmt.Sprintf("/api/v1/games/%d/ws", g.Game.ID),
			&websocket.DialOptions{HTTPClient: u.c})
		if err != nil {
			t.Fatalf("%s: game socket: %v", name, err)
		}
		t.Cleanup(func() { ws.CloseNow() })
		gs := &siteSocket{t: t, name: name, ws: ws, msgs: make(chan map[string]any, 1000)}
		ws.SetReadLimit(1 << 20)
		go gs.read()
		return gs
	}
	annColour := "black"
	if g.Game.WhiteID == annID {
		annColour = "white"
	}
	ga := gameSocket(ann, "ann's game@0")
	ga.await("ann's snapshot", func(m map[string]any) bool { return m["type"] == "game" })
	gb := gameSocket(ben, "ben's game@1")
	gb.await("ann here in ben's presence", func(m map[string]any) bool {
		p, _ := m[annColour].(map[string]any)
		return m["type"] == "presence" && p != nil && p["here"] == true && p["online"] == true
	})

	var games struct{ Games []tengen.Game }
	ann.must("GET", "/api/v1/games?user=ann", nil, &games, 200)
	if len(games.Games) != 1 {
		t.Errorf("ann has %d games after one match, want 1", len(games.Games))
	}

	// A shared review: ann drives it on instance 0, ben follows on
	// instance 1; both count two viewers, and ben's chat line reaches ann.
	req, _ := nethttp.NewRequest("POST", bases[0]+"/api/v1/reviews?visibility=public", strings.NewReader("(;GM[1]FF[4]SZ[9];B[ee];W[cc])"))
	req.Header.Set("Content-Type", "application/x-go-sgf")
	resp, err := ann.c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var rv struct{ ID int64 }
	err = json.NewDecoder(resp.Body).Decode(&rv)
	resp.Body.Close()
	if err != nil || resp.StatusCode != 201 {
		t.Fatalf("upload a review: %s, %v", resp.Status, err)
	}
	reviewSocket := func(u *user, name string) *siteSocket {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		ws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(u.base, "http")+fmt.Sprintf("/api/v1/reviews/%d/ws", rv.ID),
			&websocket.DialOptions{HTTPClient: u.c})
		if err != nil {
			t.Fatalf("%s: review socket: %v", name, err)
		}
		t.Cleanup(func() { ws.CloseNow() })
		rs := &siteSocket{t: t, name: name, ws: ws, msgs: make(chan map[string]any, 1000)}
		go rs.read()
		return rs
	}
	ra := reviewSocket(ann, "ann's review@0")
	ra.await("hello", func(m map[string]any) bool { return m["type"] == "hello" })
	ra.send(map[string]any{"type": "nav", "id": "n1", "path": []int{0, 1}})
	ra.await("ok", func(m map[string]any) bool { return m["type"] == "ok" })
	// A lobby chat line sent after the node reaches instance 1 after it.
	ann.must("POST", "/api/v1/lobby/chat", map[string]string{"text": "sync"}, nil, 201)
	sb.await("the sync line", func(m map[string]any) bool {
		c, _ := m["chat"].(map[string]any)
		return m["type"] == "chat" && c != nil && c["text"] == "sync"
	})
	// ben, the first viewer on instance 1, starts at ann's node.
	rb := reviewSocket(ben, "ben's review@1")
	rb.await("hello at ann's node", func(m map[string]any) bool { return m["type"] == "hello" && fmt.Sprint(m["path"]) == "[0 1]" })
	twoViewers := func(m map[string]any) bool { return m["type"] == "viewers" && m["viewers"] == 2.0 }
	ra.await("two viewers on ann's board", twoViewers)
	rb.await("two viewers on ben's board", twoViewers)
	ra.send(map[string]any{"type": "nav", "id": "n2", "path": []int{0, 2}})
	rb.await("ann's node on ben's board", func(m map[string]any) bool { return m["type"] == "nav" && fmt.Sprint(m["path"]) == "[0 2]" })
	rb.send(map[string]any{"type": "chat", "id": "c1", "text": "why not 3-3?"})
	ra.await("ben's line on ann's board", func(m map[string]any) bool {
		l, _ := m["line"].(map[string]any)
		return m["type"] == "chat" && l != nil && l["text"] == "why not 3-3?"
	})

	// The session made on instance 0 works on instance 1, and logging
	// out everywhere there ends ann's sockets on instance 0.
	annOn1 := &user{t: t, c: ann.c, base: bases[1]}
	annOn1.must("GET", "/api/v1/me", nil, &me, 200)
	if me.User.ID != annID {
		t.Fatalf("ann's session on instance 1 is %+v", me.User)
	}
	annOn1.must("POST", "/api/v1/logout-everywhere", nil, nil, 204)
	for _, s := range []*siteSocket{sa, ga} {
		deadline := time.After(20 * time.Second)
	drain:
		for {
			select {
			case m, open := <-s.msgs:
				if !open {
					break drain
				}
				s.seen = append(s.seen, m)
			case <-deadline:
				t.Fatalf("%s: still open 20 s after logging out everywhere on the other instance", s.name)
			}
		}
	}
	// ann's sockets are closed: her instance tells the other, whose lobby
	// no longer lists her. That comes long after everything above.
	sb.await("ann gone from ben's lobby", func(m map[string]any) bool {
		return m["type"] == "lobby" && !lobbyLists(m, "online", "name", "ann")
	})
	// Each instance told its own sockets once: the instance that made the
	// game (and published the news) did not tell its sockets again when
	// the bus brought its message back.
	for _, s := range []*siteSocket{sa, sb} {
		n := 0
		for _, m := range s.seen {
			if m["type"] == "notify" && m["kind"] == "game-started" {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%s: %d game-started notifications, want 1", s.name, n)
		}
	}
}
