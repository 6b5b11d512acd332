package http

import (
	"bytes"
	"context"
	"encoding/json"
	nethttp "net/http"
	"sync"
	"time"

	"tengen"
)

// The site socket, GET /api/v1/ws, is the one WebSocket every page of a
// logged-in user holds open (docs/API.md, "Site socket"). It carries three
// things:
//
//   - the lobby, pushed whenever it changes (challenges, your games, games
//     being played, who is online), to sockets opened with ?lobby=1;
//   - notifications for the user ("your move", "a game has started", "you
//     were challenged", "takeback asked"), to every site socket of the user,
//     so that any open tab shows them;
//   - presence: a user with any socket open (site or game) is online.
//
// It shares the game socket's machinery (ws.go): the same limits per
// address, the same writer with pings and flush before close, the same
// reader with its rate limits and the session check before each command.

// lobbyDebounce is how long lobby changes are gathered before the lobby is
// pushed: a bot game that moves ten times a second costs two pushes a
// second, not ten.
const lobbyDebounce = 300 * time.Millisecond

// lobbyOnlineMax bounds the online players the lobby lists.
const lobbyOnlineMax = 100

// lobbyPush is the state of the debounced lobby push.
type lobbyPush struct {
	mu      sync.Mutex // guards pending and told
	pending bool       // a push is scheduled and has not started
	// told: a "lobby" site message is scheduled and has not been sent
	// (with a bus, LobbyChanged tells every instance, debounced too).
	told bool
	// run is held while a push reads and queues the lobby, so that pushes
	// queue in the order they read and no socket gets an older lobby
	// after a newer one.
	run sync.Mutex
}

// handleSiteWS serves GET /api/v1/ws.
func (s *Server) handleSiteWS(w nethttp.ResponseWriter, r *nethttp.Request) {
	u := currentUser(r.Context())
	q := r.URL.Query()
	lobby, html := q.Get("lobby") != "", q.Get("html") != ""
	if u == nil && !lobby {
		// An anonymous visitor has no notifications and is not listed as
		// online: only the lobby is worth a socket.
		s.error(w, r, tengen.Errorf(tengen.EUNAUTHORIZED, "Log in to receive notifications, or ask for the lobby (?lobby=1)."))
		return
	}
	c, ok := s.wsAccept(w, r)
	if !ok {
		return
	}
	c.site, c.lobby, c.html, c.user = true, lobby, html, u
	online := s.hub.add(c)
	s.presenceChanged(c, online)
	if u != nil {
		s.pendingChallenges(u, c)
	}
	if lobby {
		// The first lobby comes at once; later ones when something changes.
		s.lp.run.Lock()
		err := s.pushLobbyTo(context.Background(), []*wsClient{c})
		s.lp.run.Unlock()
		if err != nil {
			s.log.Error("lobby push", "user", c.userID, "err", err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	s.serveSocket(ctx, cancel, c, func(ctx context.Context, c *wsClient) {
		s.wsRead(ctx, c, s.siteCommand)
	}, func() {
		s.seeks.remove(func(o *seek) bool { return o.c == c })
		s.presenceChanged(c, s.hub.remove(c, s.cfg.Now()))
	})
}

// siteCommand runs one command of a site socket.
func (s *Server) siteCommand(ctx context.Context, c *wsClient, cmd wsCommand) error {
	switch cmd.Type {
	case "ping":
		wsPong(c, cmd.ID)
		return nil
	case "seek", "unseek", "seek-bot":
		if err := s.seekCommand(ctx, c, cmd); err != nil {
			return err
		}
	default:
		return tengen.Errorf(tengen.EINVALID, "Unknown message type %q.", cmd.Type)
	}
	c.enqueue(mustJSON(wsReply{Type: "ok", ID: cmd.ID}))
	return nil
}

// BroadcastLobby sends msg, encoded as JSON once, to every socket that
// watches the lobby, on every instance, at once (no debounce). It is the
// hook for lobby-wide events that are not part of the lobby's state; msg
// should have a "type" field the page's script knows. It does not block.
func (s *Server) BroadcastLobby(msg any) {
	b, err := json.Marshal(msg)
	if err != nil {
		s.log.Error("lobby broadcast", "err", err)
		return
	}
	s.site(siteMsg{Kind: "lobby-broadcast", Event: b})
}

// NotifyUser sends msg, encoded as JSON once, to every site socket of
// userID, whichever page it is on, on every instance. It does not block.
func (s *Server) NotifyUser(userID int64, msg any) {
	b, err := json.Marshal(msg)
	if err != nil {
		s.log.Error("notify user", "user", userID, "err", err)
		return
	}
	s.notify(siteNote{User: userID, Msg: b})
}

// notifyHere sends the encoded notification msg to every site socket of
// userID on this instance.
func (s *Server) notifyHere(userID int64, msg []byte) {
	s.hub.eachSiteOf(userID, func(c *wsClient) { c.enqueue(msg) })
}

// Notification kinds (docs/API.md, "Site socket").
const (
	notifyYourMove      = "your-move"
	notifyGameStarted   = "game-started"
	notifyChallenged    = "challenged"
	notifyTakeback      = "takeback"
	notifyChallengeGone = "challenge-withdrawn"
	notifyChallengeOld  = "challenge-expired"
)

// notification is a "notify" message of the site socket.
type notification struct {
	Type        string `json:"type"` // always "notify"
	Kind        string `json:"kind"`
	GameID      int64  `json:"gameId,omitempty"`
	ChallengeID int64  `json:"challengeId,omitempty"`
	// From is the other player's name.
	From string `json:"from,omitempty"`
	// Pending marks news that is not new: an open direct challenge told
	// to a socket as it opens. Pages list it without sound or badge.
	Pending bool `json:"pending,omitempty"`
}

// LobbyChanged tells the server that the lobby's state changed (a
// challenge, a game, a player): the lobby is pushed to every socket that
// watches it, on every instance, after a short delay that gathers changes.
// It does not block.
func (s *Server) LobbyChanged() {
	s.lobbyChangedLocal()
	if s.cfg.Bus == nil {
		return
	}
	s.lp.mu.Lock()
	defer s.lp.mu.Unlock()
	if s.lp.told {
		return
	}
	s.lp.told = true
	time.AfterFunc(lobbyDebounce, func() {
		s.lp.mu.Lock()
		s.lp.told = false
		s.lp.mu.Unlock()
		select {
		case <-s.stop:
			return // shut down: the bus may be closed already
		default:
		}
		s.tellOthers(siteMsg{Kind: "lobby"})
	})
}

// lobbyChangedLocal pushes the lobby to this instance's sockets after the
// delay that gathers changes.
func (s *Server) lobbyChangedLocal() {
	s.lp.mu.Lock()
	defer s.lp.mu.Unlock()
	if s.lp.pending {
		return
	}
	s.lp.pending = true
	time.AfterFunc(lobbyDebounce, s.pushLobby)
}

// pushLobby sends the current lobby to every socket that watches it.
func (s *Server) pushLobby() {
	s.lp.mu.Lock()
	s.lp.pending = false
	s.lp.mu.Unlock()
	select {
	case <-s.stop:
		return
	default:
	}
	var subs []*wsClient
	s.hub.each(func(c *wsClient) bool { return c.lobby }, func(c *wsClient) { subs = append(subs, c) })
	if len(subs) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s.lp.run.Lock()
	defer s.lp.run.Unlock()
	if err := s.pushLobbyTo(ctx, subs); err != nil {
		s.log.Error("lobby push", "err", err)
	}
}

// pushLobbyTo sends the lobby to each of subs as its user sees it. What
// all see alike (the games being played, who is online) is read once, and
// each user's lobby once however many sockets (tabs) the user has open;
// anonymous visitors share one lobby.
func (s *Server) pushLobbyTo(ctx context.Context, subs []*wsClient) error {
	live, err := s.liveGames(ctx)
	if err != nil {
		return err
	}
	online := s.onlineUsers()
	// lobbies and msgs are keyed by user id, 0 for anonymous visitors; a
	// message also by the socket's language and form.
	type msgKey struct {
		user int64
		lang string
		html bool
	}
	lobbies := map[int64]*lobbyResponse{}
	msgs := map[msgKey][]byte{}
	for _, c := range subs {
		var uid int64
		if c.user != nil {
			uid = c.user.ID
		}
		key := msgKey{uid, c.lang, c.html}
		msg, ok := msgs[key]
		if !ok {
			lobby, ok := lobbies[uid]
			if !ok {
				if lobby, err = s.lobbyFor(ctx, c.user); err != nil {
					return err
				}
				lobbies[uid] = lobby
			}
			if msg, err = s.lobbyMessage(c, lobby, live, online); err != nil {
				return err
			}
			msgs[key] = msg
		}
		c.enqueue(msg)
	}
	return nil
}

// lobbySections are the lobby page's parts that the push replaces, each a
// template of home.html and an element id.
var lobbySections = []string{"lobby-games", "lobby-challenges", "lobby-live", "lobby-online"}

// lobbyPushMessage is the "lobby" message of the site socket.
type lobbyPushMessage struct {
	Type string `json:"type"` // always "lobby"
	*lobbyResponse
	// Live are the games being played, for anyone to watch.
	Live []*tengen.Game `json:"live"`
	// Online are the players with a page open, by name.
	Online []*tengen.User `json:"online"`
	// HTML holds the page's sections rendered for the socket's user and
	// language (?html=1), by element id.
	HTML map[string]string `json:"html,omitempty"`
}

// lobbyMessage encodes the lobby for c, with its sections rendered in c's
// language if c asked for them.
func (s *Server) lobbyMessage(c *wsClient, lobby *lobbyResponse, live []*tengen.Game, online []*tengen.User) ([]byte, error) {
	msg := lobbyPushMessage{Type: "lobby", lobbyResponse: lobby, Live: live, Online: online}
	if c.html {
		data := &pageData{Lang: c.lang, User: c.user, Lobby: lobby, Live: live, Online: online}
		msg.HTML = map[string]string{}
		for _, name := range lobbySections {
			var buf bytes.Buffer
			if err := s.pages.byLng[c.lang]["home"].ExecuteTemplate(&buf, name, data); err != nil {
				return nil, err
			}
			msg.HTML[name] = buf.String()
		}
	}
	return json.Marshal(msg)
}

// liveGames returns the games being played that the lobby lists.
func (s *Server) liveGames(ctx context.Context) ([]*tengen.Game, error) {
	live, _, err := s.svc.Games.FindGames(ctx, tengen.GameFilter{
		Status: []tengen.GameStatus{tengen.GamePlaying, tengen.GameScoring}, Limit: 10})
	if live == nil {
		live = []*tengen.Game{}
	}
	return live, err
}

// onlineUsers returns the users with a socket open on any instance, by
// name.
func (s *Server) onlineUsers() []*tengen.User {
	s.hub.mu.Lock()
	byID := map[int64]*tengen.User{}
	for c := range s.hub.conns {
		if c.user != nil && !c.user.Bot {
			byID[c.user.ID] = c.user
		}
	}
	s.hub.mu.Unlock()
	s.presence.remoteOnline(byID)
	out := make([]*tengen.User, 0, len(byID))
	for _, u := range byID {
		out = append(out, u)
	}
	sortUsers(out)
	if len(out) > lobbyOnlineMax {
		out = out[:lobbyOnlineMax]
	}
	return out
}

// GameChanged is play's hook (play.Config.Changed): after every committed
// change to a game it updates the lobby and notifies the players, on every
// instance (site.go). before is nil for a new game. It runs with the game's
// lock held and does not block. Only the instance that owns the game, the
// one that made the change, may call it: the others hear of it through the
// bus.
func (s *Server) GameChanged(before, after *tengen.Game, events []*tengen.GameEvent) {
	if after == nil {
		return
	}
	// Clock checkpoints and dead-stone toggles change nothing the lobby
	// shows.
	if before == nil || before.MoveCount != after.MoveCount || before.Status != after.Status || before.ToMove != after.ToMove {
		s.LobbyChanged()
	}
	name := func(u *tengen.User) string {
		if u == nil {
			return ""
		}
		return u.Name
	}
	var notes []siteNote
	if before == nil {
		notes = append(notes, note(after.BlackID, notification{Type: "notify", Kind: notifyGameStarted, GameID: after.ID, From: name(after.White)}),
			note(after.WhiteID, notification{Type: "notify", Kind: notifyGameStarted, GameID: after.ID, From: name(after.Black)}))
	}
	if after.Status == tengen.GamePlaying && (before == nil || before.MoveCount != after.MoveCount || before.Status != after.Status) {
		// The player to move hears of it unless they just moved themselves
		// (a handicap placement keeps Black's turn only when free stones
		// remain, and then Black is the one placing them).
		toMove, other := after.BlackID, after.White
		if after.ToMove.String() == "white" {
			toMove, other = after.WhiteID, after.Black
		}
		moved := before != nil && before.ToMove == after.ToMove
		if !moved {
			notes = append(notes, note(toMove, notification{Type: "notify", Kind: notifyYourMove, GameID: after.ID, From: name(other)}))
		}
	}
	for _, ev := range events {
		if ev.Type != tengen.EventTakeback || ev.Takeback == nil {
			continue
		}
		// The opponent of the asking player is asked.
		asked, asker := after.WhiteID, after.Black
		if ev.Takeback.Color.String() == "white" {
			asked, asker = after.BlackID, after.White
		}
		notes = append(notes, note(asked, notification{Type: "notify", Kind: notifyTakeback, GameID: after.ID, From: name(asker)}))
	}
	s.notify(notes...)
}

// challengeMade updates the lobby after a new challenge and tells an
// invited opponent, on every instance.
func (s *Server) challengeMade(c *tengen.Challenge, by *tengen.User) {
	s.LobbyChanged()
	if c.OpponentID != 0 {
		s.notify(note(c.OpponentID, notification{Type: "notify", Kind: notifyChallenged, ChallengeID: c.ID, From: by.Name}))
	}
}

// pendingChallenges tells site sockets of u (a new one, or all of them
// after a bus reset) about the open direct challenges u has received, so
// that every page u opens shows them, not only the pages that were open
// when they came.
func (s *Server) pendingChallenges(u *tengen.User, sockets ...*wsClient) {
	open := tengen.ChallengeOpen
	cs, _, err := s.svc.Challenges.FindChallenges(context.Background(), tengen.ChallengeFilter{Status: &open, UserID: &u.ID, Limit: 20})
	if err != nil {
		s.log.Error("pending challenges", "user", u.ID, "err", err)
		return
	}
	for _, ch := range cs {
		if ch.OpponentID == u.ID && ch.Challenger != nil {
			msg := mustJSON(notification{Type: "notify", Kind: notifyChallenged, ChallengeID: ch.ID, From: ch.Challenger.Name, Pending: true})
			for _, c := range sockets {
				c.enqueue(msg)
			}
		}
	}
}

// presence is the "presence" message of a game socket: whether each
// player has the game open (here) or any page of the site (online), and
// how many others watch.
type presence struct {
	Type       string       `json:"type"` // always "presence"
	GameID     int64        `json:"gameId"`
	Black      playerStatus `json:"black"`
	White      playerStatus `json:"white"`
	Spectators int          `json:"spectators"`
}

// playerStatus is one player's presence.
type playerStatus struct {
	Here   bool `json:"here"`
	Online bool `json:"online"`
}

// presenceChanged tells everyone concerned that c opened or closed: the
// lobby's online list, and the game sockets of every game whose presence
// c changes (its own game, and the games where its user plays).
// onlineChanged tells that c's user came online or went offline with it,
// which changes the lobby's list.
//
// With several instances, it also tells the others (presence.go), and the
// presence it sends counts the sockets of every instance.
func (s *Server) presenceChanged(c *wsClient, onlineChanged bool) {
	s.tell(c)
	if onlineChanged {
		s.lobbyChangedLocal()
	}
	s.pushPresence(func(id, black, white int64) bool {
		return id == c.gameID || (c.userID != 0 && (c.userID == black || c.userID == white))
	})
}

// pushPresence sends the presence of each game with sockets here for which
// match (given the game and its players) is true to those sockets.
func (s *Server) pushPresence(match func(id, black, white int64) bool) {
	type game struct {
		socks  []*wsClient
		online [2]bool
	}
	games := map[int64]*game{}
	s.hub.mu.Lock()
	for o := range s.hub.conns {
		if o.site || o.gameID == 0 || (games[o.gameID] == nil && !match(o.gameID, o.blackID, o.whiteID)) {
			continue
		}
		g := games[o.gameID]
		if g == nil {
			g = &game{online: [2]bool{s.hub.byUser[o.blackID] > 0, s.hub.byUser[o.whiteID] > 0}}
			games[o.gameID] = g
		}
		g.socks = append(g.socks, o)
	}
	s.hub.mu.Unlock()
	for id, g := range games {
		g0 := g.socks[0]
		r := s.presence.remoteGame(id, g0.blackID, g0.whiteID)
		p := presence{Type: "presence", GameID: id}
		watchers := map[int64]bool{}
		anon := r.anon
		for u := range r.here {
			if u != g0.blackID && u != g0.whiteID {
				watchers[u] = true
			}
		}
		for _, o := range g.socks {
			switch {
			case o.userID != 0 && o.userID == g0.blackID:
				p.Black.Here = true
			case o.userID != 0 && o.userID == g0.whiteID:
				p.White.Here = true
			case o.userID == 0:
				anon++
			default:
				watchers[o.userID] = true
			}
		}
		p.Black.Here = p.Black.Here || r.here[g0.blackID]
		p.White.Here = p.White.Here || r.here[g0.whiteID]
		p.Spectators = anon + len(watchers)
		p.Black.Online = g.online[0] || r.online[g0.blackID]
		p.White.Online = g.online[1] || r.online[g0.whiteID]
		b := mustJSON(p)
		for _, o := range g.socks {
			o.enqueue(b)
		}
	}
}

// Absent challengers. An open challenge whose challenger has had no
// socket open (no page of the site) for Config.ChallengeAbsence is
// withdrawn, so that nobody accepts a game its challenger will not see
// start. The time counts from the challenger's last socket, the
// challenge's creation or the server's start, whichever is latest.

// absentSince returns since when userID has had no socket open on any
// instance, and false if it has one now.
func (s *Server) absentSince(userID int64, floor time.Time) (time.Time, bool) {
	remote, absent := s.presence.remoteSince(userID)
	if !absent {
		return time.Time{}, false
	}
	h := &s.hub
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.byUser[userID] > 0 {
		return time.Time{}, false
	}
	since := floor
	for _, t := range []time.Time{h.lastSeen[userID], remote} {
		if t.After(since) {
			since = t
		}
	}
	return since, true
}

// WithdrawAbsent withdraws the open challenges of challengers absent for
// longer than Config.ChallengeAbsence and returns how many; the server
// calls it every half minute.
func (s *Server) WithdrawAbsent(ctx context.Context) (int, error) {
	if s.cfg.ChallengeAbsence < 0 {
		return 0, nil
	}
	open := tengen.ChallengeOpen
	now := s.cfg.Now()
	// Gather first, withdraw after: withdrawn challenges leave the list
	// and would shift the pages.
	var gone []*tengen.Challenge
	for offset := 0; ; offset += 100 {
		cs, _, err := s.svc.Challenges.FindChallenges(ctx, tengen.ChallengeFilter{Status: &open, Limit: 100, Offset: offset})
		if err != nil {
			return 0, err
		}
		for _, c := range cs {
			floor := s.started
			if c.CreatedAt.After(floor) {
				floor = c.CreatedAt
			}
			if since, absent := s.absentSince(c.ChallengerID, floor); absent && now.Sub(since) >= s.cfg.ChallengeAbsence {
				gone = append(gone, c)
			}
		}
		if len(cs) < 100 {
			break
		}
	}
	n := 0
	for _, c := range gone {
		if _, err := s.svc.Challenges.CancelChallenge(ctx, c.ID, c.ChallengerID); err != nil {
			if tengen.ErrorCode(err) == tengen.ECONFLICT {
				continue // accepted or withdrawn meanwhile
			}
			return n, err
		}
		n++
		s.log.Info("challenge withdrawn: challenger absent", "challenge", c.ID, "user", c.ChallengerID)
		s.notify(note(c.ChallengerID, notification{Type: "notify", Kind: notifyChallengeGone, ChallengeID: c.ID}))
	}
	if n > 0 {
		s.LobbyChanged()
	}
	return n, nil
}

// ChallengesExpired tells the challengers of cs, open challenges that
// nobody accepted in time and that play's sweep has just cancelled, on
// whichever instance their pages are, and refreshes the lobby. The sweep
// of one instance reports each challenge (tengen.ChallengeService
// ExpireChallenges), so each challenger is told once.
func (s *Server) ChallengesExpired(cs []*tengen.Challenge) {
	for _, c := range cs {
		s.notify(note(c.ChallengerID, notification{Type: "notify", Kind: notifyChallengeOld, ChallengeID: c.ID}))
	}
	if len(cs) > 0 {
		s.LobbyChanged()
	}
}

// lobbyTick withdraws absent challengers' challenges and refreshes the
// lobby (which also drops challenges that expired in play); it runs every
// half minute (see Open).
func (s *Server) lobbyTick() {
	if _, err := s.WithdrawAbsent(context.Background()); err != nil {
		s.log.Error("withdrawing absent challengers' challenges", "err", err)
	}
	s.lobbyChangedLocal()
}

// each calls do for every connection for which match is true, with the
// hub's lock held, and returns how many. do must not block (enqueue).
func (h *hub) each(match func(*wsClient) bool, do func(*wsClient)) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for c := range h.conns {
		if match(c) {
			do(c)
			n++
		}
	}
	return n
}
