package http

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"

	"tengen"
)

// Several instances (issue 20). Each instance holds its own sockets, so
// whatever the server tells sockets outside a game's own events goes
// through the event bus (Config.Bus) on the topic "site", and every
// instance delivers it to the sockets it holds:
//
//   - "notify": notifications for users ("your move", "challenged", ...),
//     from GameChanged on the instance that owns the game, and from
//     challenges made, withdrawn or expired anywhere; only those of users
//     with a site socket on another instance go out (notify);
//   - "lobby": the lobby changed (a challenge, a game, a result): every
//     instance pushes its lobby sockets (debounced on both sides);
//   - "lobby-chat", "game-chat", "chat-deleted": chat lines for the sockets
//     that may read them; "lobby-broadcast": Server.BroadcastLobby;
//   - "review": a shared review's events (the controller's node, a saved
//     record, a change of control, chat) for its sockets (reviews_ws.go);
//   - "presence", "presence-sync": who has which sockets open on which
//     instance (presence.go);
//   - "seek-matched", "seek-failed": quick-match results for the seekers'
//     sockets (quickmatch.go);
//   - "close": end the sockets of a user or a session (logout, logout
//     everywhere, a disabled account) on the other instances.
//
// The sender delivers a message to its own sockets at once, in the
// caller's goroutine, as a single instance does (a chat line reaches its
// author's socket before the "ok" of the command that said it), and
// publishes it for the others; each instance ignores its own messages
// when the bus brings them back, so that its sockets hear of a change
// once. Without a bus (tests) only the first half happens.

// siteTopic is the bus topic of the site's messages.
const siteTopic = "site"

// siteMsg is one message on the site topic, JSON-encoded. Kind says which
// fields count.
type siteMsg struct {
	Kind string `json:"kind"`
	// From is the sending instance (Server.instance); To, for
	// "presence-sync", the instance asked ("" asks all).
	From string `json:"from"`
	To   string `json:"to,omitempty"`
	// Notes are the notifications of "notify".
	Notes []siteNote `json:"notes,omitempty"`
	// Event is the socket message of a chat, seek or close message, as
	// sockets get it.
	Event json.RawMessage `json:"event,omitempty"`
	// Skip are the users who muted a chat line's author.
	Skip []int64 `json:"skip,omitempty"`
	// Game is the game of "game-chat" and "chat-deleted" (0: the lobby).
	Game *chatGame `json:"game,omitempty"`
	// Review is the review of a "review" message, whose Event is a
	// reviewEvent.
	Review int64 `json:"review,omitempty"`
	// Users are the seekers of a seek message, or the users whose
	// sockets "close" ends.
	Users []int64 `json:"users,omitempty"`
	// Session is the SHA-256 of the session token whose sockets "close"
	// ends (the token itself never travels).
	Session string `json:"session,omitempty"`
	// Presence is the presence of the sender's sockets.
	Presence *presenceMsg `json:"presence,omitempty"`
}

// siteNote is one notification of one user.
type siteNote struct {
	User int64           `json:"user"`
	Msg  json.RawMessage `json:"msg"`
}

// chatGame is what the readers' check of a game chat line needs of the
// game (tengen.ChatVisible).
type chatGame struct {
	ID       int64 `json:"id"`
	Black    int64 `json:"black"`
	White    int64 `json:"white"`
	Finished bool  `json:"finished,omitempty"`
}

func newChatGame(g *tengen.Game) *chatGame {
	return &chatGame{ID: g.ID, Black: g.BlackID, White: g.WhiteID, Finished: g.Status == tengen.GameFinished}
}

// game returns the part of a game ChatVisible reads.
func (g *chatGame) game() *tengen.Game {
	st := tengen.GamePlaying
	if g.Finished {
		st = tengen.GameFinished
	}
	return &tengen.Game{ID: g.ID, BlackID: g.Black, WhiteID: g.White, Status: st}
}

// openSite names the instance and, with a bus, subscribes to the site
// topic and starts the presence heartbeat (presence.go).
func (s *Server) openSite() {
	var b [8]byte
	rand.Read(b[:])
	s.instance = hex.EncodeToString(b[:])
	s.seeks.instance = s.instance
	s.presence.init()
	s.rooms.remote = s.presence.remoteViewers
	if s.cfg.Bus == nil {
		return
	}
	s.presence.stopSub = s.cfg.Bus.Subscribe(siteTopic, s.onSite)
	if r, ok := s.cfg.Bus.(tengen.EventBusResetter); ok {
		s.presence.stopReset = r.OnReset(s.siteReset)
	}
	// The others' presence: ask them for it, then keep ours told.
	s.tellOthers(siteMsg{Kind: "presence-sync"})
	s.every(presenceEvery, func() { s.presenceHeartbeat(s.cfg.Now()) })
}

// closeSite stops listening to the bus; Shutdown calls it last.
func (s *Server) closeSite() {
	if s.presence.stopSub != nil {
		s.presence.stopSub()
	}
	if s.presence.stopReset != nil {
		s.presence.stopReset()
	}
}

// site delivers m to this instance's sockets and sends it to the other
// instances (see above).
func (s *Server) site(m siteMsg) {
	m.From = s.instance
	s.handleSite(&m)
	s.tellOthers(m)
}

// tellOthers sends m to the other instances only.
func (s *Server) tellOthers(m siteMsg) {
	if s.cfg.Bus == nil {
		return
	}
	m.From = s.instance
	b, err := json.Marshal(m)
	if err == nil {
		err = s.cfg.Bus.Publish(context.Background(), siteTopic, b)
	}
	if err != nil {
		s.log.Error("site message to other instances", "kind", m.Kind, "err", err)
	}
}

// onSite is the bus subscription of the site topic.
func (s *Server) onSite(payload []byte) {
	var m siteMsg
	if err := json.Unmarshal(payload, &m); err != nil {
		s.log.Error("site message from the bus", "err", err)
		return
	}
	if m.From == s.instance {
		return // delivered here when it was sent
	}
	s.handleSite(&m)
}

// siteReset runs after the bus may have lost messages: the lobby is pushed
// afresh, the others' presence asked for again, and this instance's
// sockets told what they may have missed (resyncSockets).
func (s *Server) siteReset() {
	s.presence.unsync()
	s.lobbyChangedLocal()
	s.tellOthers(siteMsg{Kind: "presence-sync"})
	s.resyncSockets()
}

// chatResync asks a page's chat panel to load its messages again
// (chat.js): lines sent while the bus was down reached the other
// instances' sockets but not these.
var chatResync = mustJSON(struct {
	Type string `json:"type"`
}{"chat-resync"})

// resyncSockets tells the sockets here what a lost bus message may have
// kept from them: every socket that shows a chat (the lobby's, a game's)
// reloads it, and every user's site socket hears again of the direct
// challenges waiting for them, as a newly opened page does. Game events
// re-sync on their own (play's remote watchers); a review board's moves
// and chat do not (docs/OPERATIONS.md).
func (s *Server) resyncSockets() {
	sites := map[int64][]*wsClient{} // by user
	users := map[int64]*tengen.User{}
	s.hub.each(func(c *wsClient) bool { return c.lobby || c.gameID != 0 || (c.site && c.user != nil) }, func(c *wsClient) {
		if c.lobby || c.gameID != 0 {
			c.enqueue(chatResync)
		}
		if c.site && c.user != nil {
			sites[c.userID] = append(sites[c.userID], c)
			users[c.userID] = c.user
		}
	})
	// Storage is read outside the hub's lock, once per user.
	for id, cs := range sites {
		s.pendingChallenges(users[id], cs...)
	}
}

// handleSite delivers m to this instance's sockets.
func (s *Server) handleSite(m *siteMsg) {
	switch m.Kind {
	case "lobby":
		s.lobbyChangedLocal()
	case "notify":
		for _, n := range m.Notes {
			s.notifyHere(n.User, n.Msg)
		}
	case "lobby-broadcast":
		s.hub.each(func(c *wsClient) bool { return c.lobby }, func(c *wsClient) { c.enqueue(m.Event) })
	case "lobby-chat":
		s.publishLobbyChat(m.Event, idSet(m.Skip))
	case "game-chat":
		if m.Game == nil {
			return
		}
		g, skip := m.Game.game(), idSet(m.Skip)
		var ev chatEvent
		if json.Unmarshal(m.Event, &ev) != nil || ev.Chat == nil {
			return
		}
		s.hub.each(func(c *wsClient) bool {
			return c.gameID == g.ID && !skip[c.userID] && tengen.ChatVisible(g, c.userID, ev.Chat.Room)
		}, func(c *wsClient) { c.enqueue(m.Event) })
	case "chat-deleted":
		if m.Game == nil {
			s.publishLobbyChat(m.Event, nil)
			return
		}
		s.hub.each(func(c *wsClient) bool { return c.gameID == m.Game.ID }, func(c *wsClient) { c.enqueue(m.Event) })
	case "review":
		s.reviewReceived(m)
	case "presence", "presence-sync":
		s.presenceReceived(m)
	case "seek-matched", "seek-failed":
		s.seeks.ended(m.Users, m.Kind, m.Event)
	case "close":
		for _, u := range m.Users {
			s.hub.closeUser(u)
		}
		if m.Session != "" {
			s.hub.closeWhere(func(c *wsClient) bool { return c.session != "" && sessionHash(c.session) == m.Session })
		}
	default:
		s.log.Warn("unknown site message", "kind", m.Kind, "from", m.From)
	}
}

// idSet returns ids as a set.
func idSet(ids []int64) map[int64]bool {
	set := make(map[int64]bool, len(ids))
	for _, id := range ids {
		set[id] = true
	}
	return set
}

// sessionHash names a session on the bus without its token.
func sessionHash(token string) string {
	h := sha256.Sum256([]byte(token))
	return hex.EncodeToString(h[:])
}

// notify sends each user of notes the notification msg on every instance
// where the user has a site socket: here at once, and through the bus the
// notes of users whom presence shows with a site socket on another
// instance, or all of them while the presence of another instance is not
// known (presence.go, siteElsewhere). A "your move" comes with every move,
// and most users have no page open on the game's instance's peers: sending
// each to every instance cost one NOTIFY per move and a decoding on every
// instance.
func (s *Server) notify(notes ...siteNote) {
	if len(notes) == 0 {
		return
	}
	m := siteMsg{Kind: "notify", From: s.instance, Notes: notes}
	s.handleSite(&m)
	if s.cfg.Bus == nil {
		return
	}
	if far := s.presence.siteElsewhere(notes); len(far) > 0 {
		s.tellOthers(siteMsg{Kind: "notify", Notes: far})
	}
}

// note makes the notification msg for user.
func note(user int64, msg any) siteNote {
	return siteNote{User: user, Msg: mustJSON(msg)}
}

// closeSockets ends, on the other instances, the sockets of users and
// those opened with the session token (either may be empty); the caller
// ends this instance's.
func (s *Server) closeSockets(token string, users ...int64) {
	m := siteMsg{Kind: "close", Users: users}
	if token != "" {
		m.Session = sessionHash(token)
	}
	s.tellOthers(m)
}

// ids returns the keys of a set, for a message.
func ids(set map[int64]bool) []int64 {
	out := make([]int64, 0, len(set))
	for id := range set {
		out = append(out, id)
	}
	return out
}
