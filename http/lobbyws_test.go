package http_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"tengen"
	"tengen/engine"
	"tengen/internal/app"
)

// siteMsg is any message of the site socket.
type siteMsg struct {
	Type        string
	ID          string
	Code        string
	Kind        string
	GameID      int64
	ChallengeID int64
	From        string
	Pending     bool
	Challenges  []*tengen.Challenge
	Games       []*tengen.Game
	Live        []*tengen.Game
	Online      []*tengen.User
	HTML        map[string]string
	Window      int
	Bot         string
	BotRank     string
	// presence
	Black, White struct{ Here, Online bool }
	Spectators   int
}

// siteWS opens c's site socket at query ("" or "?lobby=1").
func (c *client) siteWS(query string) *wsConn {
	c.e.t.Helper()
	w, _, err := c.dialPath("/api/v1/ws" + query)
	if err != nil {
		c.e.t.Fatal(err)
	}
	return w
}

// next reads messages until one satisfies ok, failing after five seconds.
func (w *wsConn) next(what string, ok func(m siteMsg) bool) siteMsg {
	w.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		ctx, cancel := context.WithDeadline(context.Background(), deadline)
		_, data, err := w.c.Read(ctx)
		cancel()
		if err != nil {
			w.t.Fatalf("waiting for %s: %v", what, err)
		}
		var m siteMsg
		if err := json.Unmarshal(data, &m); err != nil {
			w.t.Fatalf("server sent %s: %v", data, err)
		}
		if ok(m) {
			return m
		}
	}
	w.t.Fatalf("no %s within five seconds", what)
	return siteMsg{}
}

func isType(typ string) func(siteMsg) bool { return func(m siteMsg) bool { return m.Type == typ } }

func notified(kind string) func(siteMsg) bool {
	return func(m siteMsg) bool { return m.Type == "notify" && m.Kind == kind }
}

func registerAt(c *client, name, level string) *tengen.User {
	c.e.t.Helper()
	var out struct{ User *tengen.User }
	c.api("POST", "/api/v1/register", map[string]string{"name": name, "password": "secret-" + name, "level": level}, 201, &out)
	return out.User
}

// TestSiteSocketLobby: the lobby comes at once and again when a challenge
// appears or goes, with the page's sections rendered, and lists who is
// online; nobody polls.
func TestSiteSocketLobby(t *testing.T) {
	e := newPlayEnv(t)
	alice, bob, anon := e.client(), e.client(), e.client()
	alice.register("alice")
	bob.register("bob")
	aw := alice.siteWS("?lobby=1&html=1")
	first := aw.next("lobby", isType("lobby"))
	if len(first.Challenges) != 0 || first.HTML["lobby-challenges"] == "" {
		t.Fatalf("first lobby: %+v", first)
	}
	bob.siteWS("")
	m := aw.next("bob online", func(m siteMsg) bool { return m.Type == "lobby" && len(m.Online) == 2 })
	if m.Online[0].Name != "alice" || m.Online[1].Name != "bob" {
		t.Errorf("online: %v, %v", m.Online[0].Name, m.Online[1].Name)
	}
	var ch struct{ Challenge *tengen.Challenge }
	bob.api("POST", "/api/v1/challenges", map[string]any{"settings": settings9()}, 201, &ch)
	m = aw.next("the challenge", func(m siteMsg) bool { return m.Type == "lobby" && len(m.Challenges) == 1 })
	if m.Challenges[0].ID != ch.Challenge.ID {
		t.Errorf("lobby lists %+v", m.Challenges[0])
	}
	// An anonymous visitor may watch the lobby, without HTML unless asked.
	nw := anon.siteWS("?lobby=1")
	if m := nw.next("lobby", isType("lobby")); len(m.Challenges) != 1 || m.HTML != nil {
		t.Errorf("anonymous lobby: %+v", m)
	}
	bob.api("POST", fmt.Sprintf("/api/v1/challenges/%d/cancel", ch.Challenge.ID), nil, 200, nil)
	aw.next("the challenge gone", func(m siteMsg) bool { return m.Type == "lobby" && len(m.Challenges) == 0 })
	nw.next("the challenge gone", func(m siteMsg) bool { return m.Type == "lobby" && len(m.Challenges) == 0 })
}

// TestSiteSocketNotifications: a direct challenge, the start of a game,
// the turn and a takeback request reach the user's site socket.
func TestSiteSocketNotifications(t *testing.T) {
	e := newPlayEnv(t)
	alice, bob := e.client(), e.client()
	alice.register("alice")
	bob.register("bob")
	aw, bw := alice.siteWS(""), bob.siteWS("")
	var ch struct{ Challenge *tengen.Challenge }
	bob.api("POST", "/api/v1/challenges", map[string]any{"opponent": "alice", "settings": settings9()}, 201, &ch)
	if m := aw.next("challenged", notified("challenged")); m.ChallengeID != ch.Challenge.ID || m.From != "bob" {
		t.Errorf("challenged: %+v", m)
	}
	// A page alice opens later lists the challenge too, as known news.
	if m := alice.siteWS("").next("pending challenge", notified("challenged")); m.ChallengeID != ch.Challenge.ID || !m.Pending {
		t.Errorf("pending challenge on a new page: %+v", m)
	}
	var g struct{ Game *tengen.Game }
	alice.api("POST", fmt.Sprintf("/api/v1/challenges/%d/accept", ch.Challenge.ID), nil, 201, &g)
	// bob, the challenger, plays Black (settings9) and hears of the game
	// and of his turn, in any tab.
	if m := bw.next("game started", notified("game-started")); m.GameID != g.Game.ID || m.From != "alice" {
		t.Errorf("game started: %+v", m)
	}
	if m := bw.next("your move", notified("your-move")); m.GameID != g.Game.ID {
		t.Errorf("your move: %+v", m)
	}
	bob.api("POST", fmt.Sprintf("/api/v1/games/%d/moves", g.Game.ID), map[string]any{"seq": 1, "kind": "play", "x": 2, "y": 2}, 200, nil)
	if m := aw.next("your move", notified("your-move")); m.GameID != g.Game.ID || m.From != "bob" {
		t.Errorf("alice's move: %+v", m)
	}
	bob.api("POST", fmt.Sprintf("/api/v1/games/%d/undo", g.Game.ID), map[string]any{}, 200, nil)
	if m := aw.next("takeback", notified("takeback")); m.GameID != g.Game.ID || m.From != "bob" {
		t.Errorf("takeback: %+v", m)
	}
}

// TestGamePresence: a game socket learns whether each player has the game
// open or is online elsewhere, and how many watch.
func TestGamePresence(t *testing.T) {
	e := newPlayEnv(t)
	black, white, id := newPlayGame(e, settings9())
	bw := black.mustWS(id)
	isPresence := isType("presence")
	if m := bw.next("presence", isPresence); !m.Black.Here || m.White.Here || m.White.Online || m.Spectators != 0 {
		t.Errorf("alone: %+v", m)
	}
	ws := white.siteWS("")
	if m := bw.next("white online", isPresence); !m.White.Online || m.White.Here {
		t.Errorf("white on another page: %+v", m)
	}
	white.mustWS(id)
	if m := bw.next("white here", isPresence); !m.White.Here {
		t.Errorf("white here: %+v", m)
	}
	e.client().mustWS(id)
	if m := bw.next("a spectator", isPresence); m.Spectators != 1 {
		t.Errorf("spectators: %+v", m)
	}
	ws.c.CloseNow()
	_ = ws
}

// TestSiteSocketRefusals: bad requests get clear errors and change nothing.
func TestSiteSocketRefusals(t *testing.T) {
	e := newPlayEnv(t)
	anon := e.client()
	anon.apiError("GET", "/api/v1/ws", nil, 401, "unauthorized")
	aw := anon.siteWS("?lobby=1")
	aw.send(map[string]any{"type": "seek", "id": "s", "boardSize": 19, "speed": "live"})
	if m := aw.next("refusal", isType("error")); m.Code != "unauthorized" || m.ID != "s" {
		t.Errorf("anonymous seek: %+v", m)
	}
	alice := e.client()
	alice.register("alice")
	w := alice.siteWS("")
	for i, tc := range []struct {
		msg  map[string]any
		code string
	}{
		{map[string]any{"type": "seek", "boardSize": 12, "speed": "live"}, "invalid"},
		{map[string]any{"type": "seek", "speed": "live"}, "invalid"},
		{map[string]any{"type": "seek", "boardSize": 9, "speed": "bullet"}, "invalid"},
		{map[string]any{"type": "seek-bot"}, "conflict"},
		{map[string]any{"type": "launch"}, "invalid"},
		{map[string]any{"type": "seek", "boardSize": "nine"}, "invalid"},
	} {
		tc.msg["id"] = fmt.Sprint("r", i)
		w.send(tc.msg)
		if m := w.next("refusal", func(m siteMsg) bool { return m.Type == "error" || m.Type == "ok" }); m.Type != "error" || m.Code != tc.code {
			t.Errorf("%v: %+v, want %s", tc.msg, m, tc.code)
		}
	}
	w.send(map[string]any{"type": "ping", "id": "p"})
	w.next("pong", isType("pong"))
}

// TestQuickMatch: two seekers of one size and speed and close ranks get
// one game at once, made from a challenge through the one door; both
// sockets are told.
func TestQuickMatch(t *testing.T) {
	e := newPlayEnv(t)
	alice, bob, carol := e.client(), e.client(), e.client()
	registerAt(alice, "alice", "intermediate")
	registerAt(bob, "bob", "intermediate")
	registerAt(carol, "carol", "intermediate")
	aw, bw, cw := alice.siteWS(""), bob.siteWS(""), carol.siteWS("")
	aw.send(map[string]any{"type": "seek", "id": "a", "boardSize": 9, "speed": "live"})
	if m := aw.next("status", isType("seek-status")); m.Window != 2 {
		t.Errorf("first window: %+v", m)
	}
	// carol wants another size: she stays alone.
	cw.send(map[string]any{"type": "seek", "id": "c", "boardSize": 13, "speed": "live"})
	cw.next("status", isType("seek-status"))
	bw.send(map[string]any{"type": "seek", "id": "b", "boardSize": 9, "speed": "live"})
	ma := aw.next("match", isType("seek-matched"))
	mb := bw.next("match", isType("seek-matched"))
	if ma.GameID == 0 || ma.GameID != mb.GameID {
		t.Fatalf("matches: %+v, %+v", ma, mb)
	}
	var out struct{ Game *tengen.Game }
	alice.api("GET", fmt.Sprintf("/api/v1/games/%d", ma.GameID), nil, 200, &out)
	g := out.Game
	if g == nil {
		var st stateOut
		alice.api("GET", fmt.Sprintf("/api/v1/games/%d", ma.GameID), nil, 200, &st)
		g = st.State.Game
	}
	if g.Settings.BoardSize != 9 || g.Settings.Handicap != 0 || g.Settings.HandicapBy != tengen.HandicapByRank || !g.Settings.Rated {
		t.Errorf("game settings: %+v", g.Settings)
	}
	// carol is still searching; unseek ends it.
	cw.send(map[string]any{"type": "unseek", "id": "u"})
	cw.next("ok", func(m siteMsg) bool { return m.Type == "ok" && m.ID == "u" })
}

// TestWithdrawAbsent: the open challenges of a challenger with no page
// open are withdrawn; those of a challenger with the lobby open stay.
func TestWithdrawAbsent(t *testing.T) {
	var a *app.App
	e := newPlayEnvWithApp(t, func(c *app.Config) { c.ChallengeAbsence = time.Nanosecond }, &a)
	alice, bob := e.client(), e.client()
	alice.register("alice")
	bob.register("bob")
	alice.siteWS("?lobby=1").next("lobby", isType("lobby"))
	var ca, cb struct{ Challenge *tengen.Challenge }
	alice.api("POST", "/api/v1/challenges", map[string]any{"settings": settings9()}, 201, &ca)
	bob.api("POST", "/api/v1/challenges", map[string]any{"settings": settings9()}, 201, &cb)
	time.Sleep(time.Millisecond) // the absence is a nanosecond; the clock's step is coarser on some machines
	n, err := a.Server.WithdrawAbsent(context.Background())
	if err != nil || n != 1 {
		t.Fatalf("WithdrawAbsent = %d, %v; want 1", n, err)
	}
	var got struct{ Challenge *tengen.Challenge }
	alice.api("GET", fmt.Sprintf("/api/v1/challenges/%d", ca.Challenge.ID), nil, 200, &got)
	if got.Challenge.Status != tengen.ChallengeOpen {
		t.Errorf("alice's challenge: %s", got.Challenge.Status)
	}
	bob.api("GET", fmt.Sprintf("/api/v1/challenges/%d", cb.Challenge.ID), nil, 200, &got)
	if got.Challenge.Status != tengen.ChallengeCancelled {
		t.Errorf("bob's challenge: %s", got.Challenge.Status)
	}
}

// TestChallengeExpiredNotice: the challenger of an open challenge that
// nobody accepted in time is told so on every page, once.
func TestChallengeExpiredNotice(t *testing.T) {
	var a *app.App
	e := newPlayEnvWithApp(t, func(c *app.Config) { c.ChallengeTTL = 20 * time.Millisecond }, &a)
	alice := e.client()
	alice.register("alice")
	ws := alice.siteWS("")
	var ca struct{ Challenge *tengen.Challenge }
	alice.api("POST", "/api/v1/challenges", map[string]any{"settings": settings9()}, 201, &ca)
	time.Sleep(30 * time.Millisecond)
	// play's sweep runs every few seconds; this is the same sweep now. One
	// of the two finds the challenge, and the socket hears of it once.
	if _, err := a.Play.ExpireChallenges(context.Background()); err != nil {
		t.Fatal(err)
	}
	m := ws.next("challenge-expired", func(m siteMsg) bool { return m.Type == "notify" && m.Kind == "challenge-expired" })
	if m.ChallengeID != ca.Challenge.ID {
		t.Errorf("notice for challenge %d, want %d", m.ChallengeID, ca.Challenge.ID)
	}
	var got struct{ Challenge *tengen.Challenge }
	alice.api("GET", fmt.Sprintf("/api/v1/challenges/%d", ca.Challenge.ID), nil, 200, &got)
	if got.Challenge.Status == tengen.ChallengeOpen {
		t.Errorf("challenge after it expired: %s", got.Challenge.Status)
	}
}

// TestAutomaticHandicap: a direct challenge with handicapBy "rank" gets
// one stone per rank of difference with the weaker player as Black, is
// unrated by default, and says so on the game page; an open one says
// "automatic" until someone accepts it, and then the acceptor's rank
// decides.
func TestAutomaticHandicap(t *testing.T) {
	e := newPlayEnv(t)
	strong, weak, peer := e.client(), e.client(), e.client()
	registerAt(strong, "strong", "advanced")     // 6k
	registerAt(weak, "weakling", "intermediate") // 12k
	registerAt(peer, "peer", "advanced")         // 6k
	set := settings9()
	set.BoardSize, set.HandicapBy, set.Color = 19, tengen.HandicapByRank, tengen.ChooseWhite
	var ch struct{ Challenge *tengen.Challenge }
	strong.api("POST", "/api/v1/challenges", map[string]any{"opponent": "weakling", "settings": set}, 201, &ch)
	got := ch.Challenge.Settings
	if got.Handicap != 6 || got.Color != tengen.ChooseWhite || got.Rated || got.HandicapBy != tengen.HandicapByRank {
		t.Fatalf("challenge settings: %+v", got)
	}
	var g struct{ Game *tengen.Game }
	weak.api("POST", fmt.Sprintf("/api/v1/challenges/%d/accept", ch.Challenge.ID), nil, 201, &g)
	if g.Game.Black.Name != "weakling" || g.Game.Settings.Handicap != 6 {
		t.Errorf("game: black %s, handicap %d", g.Game.Black.Name, g.Game.Settings.Handicap)
	}
	page := weak.page(fmt.Sprintf("/games/%d", g.Game.ID), 200)
	if !strings.Contains(page, `id="handicap-by"`) || !strings.Contains(page, "one stone per rank") {
		t.Error("the game page does not say how the handicap was chosen")
	}

	// Open challenges: settled by whoever accepts.
	set.Color, set.Handicap, set.Rated = tengen.ChooseNigiri, 3, true
	for _, tt := range []struct {
		acceptor *client
		handicap int
		black    string
		rated    bool
	}{
		{weak, 6, "weakling", false},
		{peer, 0, "", true},
	} {
		var open struct{ Challenge *tengen.Challenge }
		strong.api("POST", "/api/v1/challenges", map[string]any{"settings": set}, 201, &open)
		if s := open.Challenge.Settings; s.Handicap != 0 || !s.Rated || !open.Challenge.RankHandicapPending() {
			t.Fatalf("open challenge: %+v", s)
		}
		if lobby := strong.page("/", 200); !strings.Contains(lobby, ">automatic (by rank)<") || !strings.Contains(lobby, ">if even<") {
			t.Error("the lobby does not show the open challenge as automatic")
		}
		var og struct{ Game *tengen.Game }
		tt.acceptor.api("POST", fmt.Sprintf("/api/v1/challenges/%d/accept", open.Challenge.ID), nil, 201, &og)
		s := og.Game.Settings
		if s.Handicap != tt.handicap || s.Rated != tt.rated || s.HandicapBy != tengen.HandicapByRank || (tt.black != "" && og.Game.Black.Name != tt.black) {
			t.Errorf("open challenge accepted: black %s, %+v", og.Game.Black.Name, s)
		}
		var st stateOut
		strong.api("GET", fmt.Sprintf("/api/v1/games/%d/state", og.Game.ID), nil, 200, &st)
		if st.State.Handicap.Stones != tt.handicap || st.State.Game.Settings.Handicap != tt.handicap {
			t.Errorf("live game: %d stones, settings %d", st.State.Handicap.Stones, st.State.Game.Settings.Handicap)
		}
	}

	// The form: the check box, with or without an opponent.
	form := url.Values{"boardSize": {"19"}, "ruleset": {"japanese"}, "handicap": {"x"}, "autoHandicap": {"on"},
		"color": {"nigiri"}, "tcKind": {"none"}, "rated": {"auto"}}
	if resp, _ := strong.do("POST", "/challenges", form); resp.StatusCode != 303 {
		t.Errorf("form without opponent: %d", resp.StatusCode)
	}
	form.Set("opponent", "weakling")
	if resp, _ := strong.do("POST", "/challenges", form); resp.StatusCode != 303 {
		t.Errorf("form with opponent: %d", resp.StatusCode)
	}
	form.Set("opponent", "nobody-here")
	if resp, _ := strong.do("POST", "/challenges", form); resp.StatusCode != 404 {
		t.Errorf("form with an unknown opponent: %d", resp.StatusCode)
	}
}

// TestQuickMatchBot: a seeker alone is offered the built-in level nearest
// their rank after QuickMatchBotAfter, and taking it starts a game against
// that level with the handicap from the ranks.
func TestQuickMatchBot(t *testing.T) {
	e := newPlayEnvWith(t, func(c *app.Config) {
		c.EngineBots = &engine.Options{Threads: 1, Seed: 5, MaxTime: time.Second, ScoringPlayouts: 100}
		c.QuickMatchBotAfter = 100 * time.Millisecond
	})
	alice := e.client()
	registerAt(alice, "alice", "casual") // 18k
	w := alice.siteWS("")
	w.send(map[string]any{"type": "seek-bot", "id": "early"})
	if m := w.next("refusal", isType("error")); m.Code != "conflict" {
		t.Errorf("seek-bot before an offer: %+v", m)
	}
	w.send(map[string]any{"type": "seek", "id": "s", "boardSize": 9, "speed": "blitz"})
	offer := w.next("the offer", isType("seek-offer"))
	var bots struct{ Bots []tengen.BotInfo }
	alice.api("GET", "/api/v1/bots", nil, 200, &bots)
	me, _ := tengen.RankValue("18k")
	best := -1
	for _, b := range bots.Bots {
		if v, ok := tengen.RankValue(b.Rank); ok && b.Level != "" && (best < 0 || max(v-me, me-v) < best) {
			best = max(v-me, me-v)
		}
	}
	v, ok := tengen.RankValue(offer.BotRank)
	if !ok || max(v-me, me-v) != best {
		t.Errorf("offered %s (%s), not the nearest level (%d ranks away)", offer.Bot, offer.BotRank, best)
	}
	w.send(map[string]any{"type": "seek-bot", "id": "take"})
	m := w.next("the game", isType("seek-matched"))
	var st stateOut
	alice.api("GET", fmt.Sprintf("/api/v1/games/%d/state", m.GameID), nil, 200, &st)
	g := st.State.Game
	if g.Black == nil || g.White == nil || (g.Black.Name != offer.Bot && g.White.Name != offer.Bot) || g.Settings.HandicapBy != tengen.HandicapByRank {
		t.Fatalf("game: %+v", g)
	}
	if want := tengen.RankHandicap(v-me, g.Settings); g.Settings.Handicap != want {
		t.Errorf("handicap %d, want %d", g.Settings.Handicap, want)
	}
}
