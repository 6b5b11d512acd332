package http

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"tengen"
	"tengen/internal/membus"
)

// presenceServer returns a server with just what presence needs, on bus.
func presenceServer(bus tengen.EventBus) *Server {
	s := &Server{cfg: Config{Bus: bus, Now: time.Now, InstanceTimeout: 5 * time.Second},
		log: slog.New(slog.NewTextHandler(io.Discard, nil)), stop: make(chan struct{}), seeks: &seekPool{}}
	s.openSite()
	return s
}

// open adds a game socket of user (0: a visitor) on game 1, black 7 and
// white 8, to s.
func (s *Server) openTestSocket(user int64, name string) *wsClient {
	c := &wsClient{userID: user, gameID: 1, blackID: 7, whiteID: 8, send: newSendQueue(), ended: make(chan struct{})}
	if user != 0 {
		c.user = &tengen.User{ID: user, Name: name, Rank: "5k"}
	}
	s.presenceChanged(c, s.hub.add(c))
	return c
}

// lastPresence returns the last presence message queued for c.
func lastPresence(t *testing.T, c *wsClient) presence {
	t.Helper()
	var p presence
	for _, b := range c.send.take(nil) {
		if err := json.Unmarshal(b, &p); err != nil {
			t.Fatal(err)
		}
	}
	if p.Type != "presence" {
		t.Fatal("no presence message")
	}
	return p
}

func names(users []*tengen.User) []string {
	var out []string
	for _, u := range users {
		out = append(out, u.Name)
	}
	return out
}

// TestPresenceAcrossInstances: sockets on one instance count on the others
// (online, here, spectators), an instance that starts later learns them,
// and they stop counting when their instance has been silent for the
// instance timeout.
func TestPresenceAcrossInstances(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		bus := membus.New()
		a, b := presenceServer(bus), presenceServer(bus)
		black := a.openTestSocket(7, "ann")
		a.openTestSocket(0, "")
		synctest.Wait()
		spectator := b.openTestSocket(9, "cid")
		synctest.Wait()

		if got := names(b.onlineUsers()); len(got) != 2 || got[0] != "ann" || got[1] != "cid" {
			t.Errorf("online on b: %v, want [ann cid]", got)
		}
		p := lastPresence(t, spectator)
		if !p.Black.Here || !p.Black.Online || p.White.Online || p.Spectators != 2 {
			t.Errorf("presence on b: %+v, want black here and online, white away, 2 spectators", p)
		}
		if p := lastPresence(t, black); p.Spectators != 2 || !p.Black.Here {
			t.Errorf("presence on a: %+v, want black here, 2 spectators (the visitor here, cid on b)", p)
		}
		if _, absent := b.absentSince(7, time.Now()); absent {
			t.Error("ann is absent for b while her socket is open on a")
		}

		// An instance that starts now asks the others for their presence.
		c := presenceServer(bus)
		synctest.Wait()
		if got := names(c.onlineUsers()); len(got) != 2 {
			t.Errorf("online on a later instance: %v, want ann and cid", got)
		}

		// a dies: no goodbye, its heartbeat stops.
		a.closeSite()
		close(a.stop)
		a.done.Wait()
		died := time.Now()
		time.Sleep(a.cfg.InstanceTimeout + 2*presenceEvery)
		synctest.Wait()
		if got := names(b.onlineUsers()); len(got) != 1 || got[0] != "cid" {
			t.Errorf("online on b after a died: %v, want [cid]", got)
		}
		p = lastPresence(t, spectator)
		if p.Black.Here || p.Black.Online || p.Spectators != 1 {
			t.Errorf("presence on b after a died: %+v, want black away, 1 spectator", p)
		}
		since, absent := b.absentSince(7, died.Add(-time.Hour))
		if !absent || since.Before(died) {
			t.Errorf("ann for b after a died: absent %v since %v, want absent since %v or later", absent, since, died)
		}

		for _, s := range []*Server{b, c} {
			s.closeSite()
			close(s.stop)
			s.done.Wait()
		}
	})
}

// TestPresenceResync: a change another instance missed (its message lost)
// comes with the next heartbeat, which shows the gap, and a reset of the
// bus asks every instance for its whole presence again.
func TestPresenceResync(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		bus := membus.New()
		a, b := presenceServer(bus), presenceServer(bus)
		a.openTestSocket(7, "ann")
		synctest.Wait()
		// dan's socket opens on a, but its message is lost.
		dan := &wsClient{userID: 10, user: &tengen.User{ID: 10, Name: "dan"}, site: true, send: newSendQueue(), ended: make(chan struct{})}
		a.hub.add(dan)
		a.presence.mu.Lock()
		a.presence.told[dan] = presenceCount{presenceKey: presenceKey{User: 10}, Name: "dan", N: 1}
		a.presence.seq++
		a.presence.mu.Unlock()
		if got := names(b.onlineUsers()); len(got) != 1 {
			t.Fatalf("online on b before the heartbeat: %v, want [ann]", got)
		}
		time.Sleep(presenceEvery + time.Millisecond)
		synctest.Wait()
		if got := names(b.onlineUsers()); len(got) != 2 || got[1] != "dan" {
			t.Errorf("online on b after a's heartbeat: %v, want [ann dan]", got)
		}

		// b's view is lost; the bus tells it so.
		b.presence.mu.Lock()
		clear(b.presence.peers)
		b.presence.mu.Unlock()
		b.siteReset()
		synctest.Wait()
		if got := names(b.onlineUsers()); len(got) != 2 {
			t.Errorf("online on b after a reset: %v, want [ann dan]", got)
		}
		for _, s := range []*Server{a, b} {
			s.closeSite()
			close(s.stop)
			s.done.Wait()
		}
	})
}

// challengesStub answers FindChallenges with its list; the rest of
// tengen.ChallengeService is not called here.
type challengesStub struct {
	tengen.ChallengeService
	open  []*tengen.Challenge
	calls int
}

func (c *challengesStub) FindChallenges(_ context.Context, f tengen.ChallengeFilter) ([]*tengen.Challenge, int, error) {
	c.calls++
	var out []*tengen.Challenge
	for _, ch := range c.open {
		if f.UserID == nil || ch.OpponentID == *f.UserID || ch.ChallengerID == *f.UserID {
			out = append(out, ch)
		}
	}
	return out, len(out), nil
}

// TestSiteResetResyncs: after the bus may have lost messages, every socket
// that shows a chat is asked to reload it, and every user's site socket is
// told again of the direct challenges that wait for the user (read once
// per user); sockets that show neither get nothing.
func TestSiteResetResyncs(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := presenceServer(membus.New())
		challenges := &challengesStub{open: []*tengen.Challenge{
			{ID: 41, ChallengerID: 8, OpponentID: 7, Challenger: &tengen.User{ID: 8, Name: "bea"}},
		}}
		s.svc.Challenges = challenges
		newSocket := func(c *wsClient) *wsClient {
			c.send, c.ended = newSendQueue(), make(chan struct{})
			s.hub.add(c)
			return c
		}
		ann := &tengen.User{ID: 7, Name: "ann"}
		bea := &tengen.User{ID: 8, Name: "bea"}
		lobby := newSocket(&wsClient{site: true, lobby: true, userID: 7, user: ann})
		site := newSocket(&wsClient{site: true, userID: 7, user: ann})
		other := newSocket(&wsClient{site: true, userID: 8, user: bea})
		visitor := newSocket(&wsClient{site: true, lobby: true})
		game := newSocket(&wsClient{gameID: 3, userID: 8, blackID: 7, whiteID: 8})
		review := newSocket(&wsClient{reviewID: 5, userID: 8})
		synctest.Wait()
		for _, c := range []*wsClient{lobby, site, other, visitor, game, review} {
			c.send.take(nil)
		}

		s.siteReset()
		synctest.Wait()
		types := func(c *wsClient) []string {
			var out []string
			for _, b := range c.send.take(nil) {
				var m struct {
					Type, Kind  string
					ChallengeID int64
				}
				if err := json.Unmarshal(b, &m); err != nil {
					t.Fatal(err)
				}
				switch {
				case m.Type == "notify":
					out = append(out, fmt.Sprintf("notify %s %d", m.Kind, m.ChallengeID))
				case m.Type != "lobby" && m.Type != "presence":
					out = append(out, m.Type)
				}
			}
			return out
		}
		for _, tc := range []struct {
			name string
			c    *wsClient
			want string
		}{
			{"ann's lobby", lobby, "chat-resync notify challenged 41"},
			{"ann's other page", site, "notify challenged 41"},
			{"bea, who challenged", other, ""},
			{"a visitor's lobby", visitor, "chat-resync"},
			{"a game", game, "chat-resync"},
			{"a review board", review, ""},
		} {
			if got := strings.Join(types(tc.c), " "); got != tc.want {
				t.Errorf("%s got %q after a reset, want %q", tc.name, got, tc.want)
			}
		}
		// Storage is asked once per user (ann, bea), not per socket.
		if challenges.calls != 2 {
			t.Errorf("%d reads of the challenges, want 2", challenges.calls)
		}
		s.closeSite()
		close(s.stop)
		s.done.Wait()
	})
}

// TestNotifyOnlyWhereSiteSockets: a notification goes through the bus only
// for users with a site socket on another instance, and to all while
// another instance's presence is not known in full; it reaches the site
// socket on the other instance either way.
func TestNotifyOnlyWhereSiteSockets(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		bus := membus.New()
		var sent []string // the users of the notify messages on the bus
		var mu sync.Mutex
		stopSpy := bus.Subscribe(siteTopic, func(p []byte) {
			var m siteMsg
			if json.Unmarshal(p, &m) == nil && m.Kind == "notify" {
				mu.Lock()
				for _, n := range m.Notes {
					sent = append(sent, strconv.FormatInt(n.User, 10))
				}
				mu.Unlock()
			}
		})
		defer stopSpy()
		took := func() string {
			synctest.Wait()
			mu.Lock()
			defer mu.Unlock()
			s := strings.Join(sent, " ")
			sent = nil
			return s
		}
		a, b := presenceServer(bus), presenceServer(bus)
		a.openTestSocket(7, "ann") // a game socket: no notifications
		ann := &wsClient{userID: 7, user: &tengen.User{ID: 7, Name: "ann"}, site: true, send: newSendQueue(), ended: make(chan struct{})}
		b.presenceChanged(ann, b.hub.add(ann))
		synctest.Wait()
		msg := mustJSON(notification{Type: "notify", Kind: notifyYourMove, GameID: 1})

		a.notify(siteNote{User: 7, Msg: msg}, siteNote{User: 8, Msg: msg})
		if got := took(); got != "7" {
			t.Errorf("notes on the bus: %q, want only ann's (7), who has a site socket on b", got)
		}
		if got := ann.send.take(nil); len(got) == 0 {
			t.Error("ann's site socket on b got no notification")
		} else if string(got[0]) != string(msg) {
			t.Errorf("ann's site socket on b got %s", got[0])
		}

		// b's state is not known in full on a: everything goes out.
		a.presence.unsync()
		a.notify(siteNote{User: 8, Msg: msg})
		if got := took(); got != "8" {
			t.Errorf("notes on the bus with b's presence unknown: %q, want 8", got)
		}
		for _, s := range []*Server{a, b} {
			s.closeSite()
			close(s.stop)
			s.done.Wait()
		}
	})
}
