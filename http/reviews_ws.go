package http

import (
	"context"
	"encoding/json"
	nethttp "net/http"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"

	"tengen"
)

// The shared review (demo board): the review's controller (its owner, or
// whom the owner gave control) drives the board, and every socket on
// /api/v1/reviews/{id}/ws follows: the controller's node, the saved record
// and the chat. The sockets are the game sockets' (hub, wsClient, wsWrite):
// only what they read and what they are sent differs.

// reviewChatEvery and reviewChatBurst limit chat messages per socket.
const (
	reviewChatBurst = 5
	reviewChatEvery = 2 * time.Second
	// reviewMaxPath bounds the node a controller names (see reviewEvent).
	reviewMaxPath = 2 << 10
	// reviewElsewhere bounds the reviews driven on other instances whose
	// node is kept without a socket here (4096 × 2 kB at most).
	reviewElsewhere = 4096
)

// reviewEvent is a message to a review's sockets.
type reviewEvent struct {
	Type string `json:"type"` // hello, nav, tree, control, chat, chat-deleted, viewers, deleted
	// By names who saved the record (tree).
	By string `json:"by,omitempty"`
	// Path is the controller's current node as the board writes it (nav,
	// hello); the server passes it on without reading it.
	Path         json.RawMessage             `json:"path,omitempty"`
	Controller   string                      `json:"controller,omitempty"`
	ControllerID int64                       `json:"controllerId,omitempty"`
	Line         *tengen.ReviewChatMessage   `json:"line,omitempty"`
	Chat         []*tengen.ReviewChatMessage `json:"chat,omitempty"`
	Viewers      int                         `json:"viewers,omitempty"`
	// ChatID is the removed message's (chat-deleted).
	ChatID int64 `json:"chatId,omitempty"`
}

// reviewCommand is a message from a review socket.
type reviewCommand struct {
	Type string          `json:"type"` // nav or chat
	ID   string          `json:"id"`
	Path json.RawMessage `json:"path"`
	Text string          `json:"text"`
}

// reviewRooms are the sockets of each review with the controller's last
// node, so that a spectator who comes late starts there. With several
// instances each holds its own sockets; the events reach every instance
// through the bus ("review", site.go), and the number of viewers counts
// the sockets of the others too (presence.go).
type reviewRooms struct {
	mu    sync.Mutex // guards rooms and elsewhere
	rooms map[int64]*reviewRoom
	// elsewhere is the controller's last node of reviews driven from
	// another instance that have no socket here, so that the first viewer
	// here starts there too; at most reviewElsewhere of them.
	elsewhere map[int64]json.RawMessage
	// remote returns how many sockets the other instances have on a
	// review (nil: none); set by openSite.
	remote func(id int64) int
}

// viewers returns the number of viewers of room id, on every instance.
// The caller holds rr.mu.
func (rr *reviewRooms) viewersLocked(id int64, room *reviewRoom) reviewEvent {
	n := len(room.clients)
	if rr.remote != nil {
		n += rr.remote(id)
	}
	return reviewEvent{Type: "viewers", Viewers: n}
}

// viewersChanged tells review id's sockets here its number of viewers,
// after the sockets of another instance changed.
func (rr *reviewRooms) viewersChanged(id int64) {
	rr.mu.Lock()
	defer rr.mu.Unlock()
	if room := rr.rooms[id]; room != nil {
		rr.sendLocked(room, rr.viewersLocked(id, room))
	}
}

type reviewRoom struct {
	clients map[*wsClient]struct{}
	path    json.RawMessage
}

// join adds c to review id's room and queues hello for it, with the
// controller's last node, before any later event; everybody in the room
// then hears the new number of viewers.
func (rr *reviewRooms) join(id int64, c *wsClient, hello reviewEvent) {
	rr.mu.Lock()
	defer rr.mu.Unlock()
	if rr.rooms == nil {
		rr.rooms = map[int64]*reviewRoom{}
	}
	room := rr.rooms[id]
	if room == nil {
		room = &reviewRoom{clients: map[*wsClient]struct{}{}, path: rr.elsewhere[id]}
		rr.rooms[id] = room
		delete(rr.elsewhere, id)
	}
	hello.Path = room.path
	c.enqueue(mustJSON(hello))
	room.clients[c] = struct{}{}
	rr.sendLocked(room, rr.viewersLocked(id, room))
}

// leave removes c; the room goes when its last socket does.
func (rr *reviewRooms) leave(id int64, c *wsClient) {
	rr.mu.Lock()
	defer rr.mu.Unlock()
	room := rr.rooms[id]
	if room == nil {
		return
	}
	delete(room.clients, c)
	if len(room.clients) == 0 {
		delete(rr.rooms, id)
		return
	}
	rr.sendLocked(room, rr.viewersLocked(id, room))
}

// publish sends ev to every socket of review id; a nav event also becomes
// the room's node.
func (rr *reviewRooms) publish(id int64, ev reviewEvent) {
	rr.mu.Lock()
	defer rr.mu.Unlock()
	room := rr.rooms[id]
	if room == nil {
		switch {
		case ev.Type == "nav":
			if rr.elsewhere == nil {
				rr.elsewhere = map[int64]json.RawMessage{}
			}
			if len(rr.elsewhere) >= reviewElsewhere {
				for k := range rr.elsewhere { // forget any one
					delete(rr.elsewhere, k)
					break
				}
			}
			rr.elsewhere[id] = ev.Path
		case ev.Type == "deleted":
			delete(rr.elsewhere, id)
		}
		return
	}
	if ev.Type == "nav" {
		room.path = ev.Path
	}
	rr.sendLocked(room, ev)
}

func (rr *reviewRooms) sendLocked(room *reviewRoom, ev reviewEvent) {
	rr.sendSkipLocked(room, ev, nil)
}

// sendSkipLocked sends ev to the room's sockets but those of users in skip.
func (rr *reviewRooms) sendSkipLocked(room *reviewRoom, ev reviewEvent, skip map[int64]bool) {
	msg := mustJSON(ev)
	for c := range room.clients {
		if !skip[c.userID] {
			c.enqueue(msg)
		}
	}
}

// publishChat sends a chat line to the review's sockets but those of the
// users who muted its author.
func (rr *reviewRooms) publishChat(id int64, ev reviewEvent, skip map[int64]bool) {
	rr.mu.Lock()
	defer rr.mu.Unlock()
	if room := rr.rooms[id]; room != nil {
		rr.sendSkipLocked(room, ev, skip)
	}
}

// reviewEvent sends ev to review id's sockets on every instance.
func (s *Server) reviewEvent(id int64, ev reviewEvent) {
	s.reviewChatEvent(id, ev, nil)
}

// reviewChatEvent sends ev to review id's sockets on every instance but
// those of the users in skip.
func (s *Server) reviewChatEvent(id int64, ev reviewEvent, skip map[int64]bool) {
	s.site(siteMsg{Kind: "review", Review: id, Event: mustJSON(ev), Skip: ids(skip)})
}

// reviewReceived delivers a "review" site message here.
func (s *Server) reviewReceived(m *siteMsg) {
	var ev reviewEvent
	if err := json.Unmarshal(m.Event, &ev); err != nil {
		s.log.Error("review event from the bus", "err", err)
		return
	}
	if ev.Type == "chat" {
		s.rooms.publishChat(m.Review, ev, idSet(m.Skip))
		return
	}
	s.rooms.publish(m.Review, ev)
}

// handleReviewWS serves GET /api/v1/reviews/{id}/ws.
func (s *Server) handleReviewWS(w nethttp.ResponseWriter, r *nethttp.Request) {
	rv, err := s.visibleReview(r)
	if err != nil {
		s.error(w, r, err)
		return
	}
	chat, err := s.svc.Reviews.FindReviewChat(r.Context(), rv.ID, reviewChatOnConnect)
	if err != nil {
		s.error(w, r, err)
		return
	}
	chat = withoutMuted(chat, s.mutedNames(r.Context(), userID(r)))
	c, ok := s.wsAccept(w, r)
	if !ok {
		return
	}
	c.reviewID = rv.ID
	c.user = currentUser(r.Context())
	online := s.hub.add(c)
	s.presenceChanged(c, online)
	c.conn.SetReadLimit(reviewMaxPath + wsMaxMessage)
	c.guard.limit = reviewMaxPath + wsMaxMessage

	s.rooms.join(rv.ID, c, reviewEvent{Type: "hello", Controller: rv.ControllerName, ControllerID: rv.ControllerID, Chat: chat})
	ctx, cancel := context.WithCancel(context.Background())
	s.serveSocket(ctx, cancel, c, s.reviewRead, func() {
		s.rooms.leave(rv.ID, c)
		s.presenceChanged(c, s.hub.remove(c, s.cfg.Now()))
	})
}

// reviewRead reads the commands of a review socket until it ends.
func (s *Server) reviewRead(ctx context.Context, c *wsClient) {
	defer c.end(websocket.StatusNormalClosure, "")
	in := newWSInbox()
	chats := newLimiter(reviewChatBurst, reviewChatEvery, 1, time.Now)
	bad := 0
	for {
		data, ok := s.wsNext(c, in)
		if !ok {
			return
		}
		var cmd reviewCommand
		var err error
		if !in.decode(data, &cmd) || len(cmd.ID) > 64 || len(cmd.Path) > reviewMaxPath {
			err = tengen.Errorf(tengen.EINVALID, "Malformed message.")
		} else if !s.wsSessionLive(ctx, c, cmd.ID) {
			return
		} else if cmd.Type == "chat" {
			if ok, _ := chats.allow(""); !ok {
				err = tengen.Errorf(tengen.ERATELIMIT, "Too many chat messages; wait a moment.")
			} else {
				err = s.reviewChat(ctx, c, cmd.Text)
			}
		} else {
			err = s.reviewCommand(ctx, c, cmd)
		}
		if err != nil {
			if tengen.ErrorCode(err) == tengen.EINVALID {
				bad++
			}
			c.enqueue(s.wsError(c, cmd.ID, err))
			if bad >= wsMaxBad {
				c.end(websocket.StatusPolicyViolation, "too many malformed messages")
				return
			}
			continue
		}
		c.enqueue(mustJSON(wsReply{Type: "ok", ID: cmd.ID}))
	}
}

// reviewCommand runs a nav command: the controller moved to another node.
// The review is read again, so a change of controller or a deletion counts
// at once.
func (s *Server) reviewCommand(ctx context.Context, c *wsClient, cmd reviewCommand) error {
	if cmd.Type != "nav" {
		return tengen.Errorf(tengen.EINVALID, "Malformed message.")
	}
	if len(cmd.Path) == 0 || !json.Valid(cmd.Path) {
		return tengen.Errorf(tengen.EINVALID, "Malformed message.")
	}
	rv, err := s.svc.Reviews.FindReview(ctx, c.reviewID)
	if err != nil {
		return err
	}
	if c.userID == 0 || c.userID != rv.ControllerID {
		return tengen.Errorf(tengen.EFORBIDDEN, "Only the controller of this review moves its board.")
	}
	s.reviewEvent(c.reviewID, reviewEvent{Type: "nav", Path: cmd.Path})
	return nil
}

// reviewChat stores and relays a chat message of a logged-in viewer.
func (s *Server) reviewChat(ctx context.Context, c *wsClient, text string) error {
	if c.userID == 0 {
		return tengen.Errorf(tengen.EUNAUTHORIZED, "You must log in first.")
	}
	text = strings.TrimSpace(text)
	m := &tengen.ReviewChatMessage{ReviewID: c.reviewID, UserID: c.userID, Text: text}
	if err := s.svc.Reviews.AddReviewChat(ctx, m); err != nil {
		return err
	}
	s.reviewChatEvent(c.reviewID, reviewEvent{Type: "chat", Line: m}, s.muters(ctx, c.userID))
	return nil
}

// withoutMuted leaves out the messages of the users named in muted (a mute
// holds in every room, the review boards' too).
func withoutMuted(msgs []*tengen.ReviewChatMessage, muted map[string]bool) []*tengen.ReviewChatMessage {
	if len(muted) == 0 {
		return msgs
	}
	out := msgs[:0:0]
	for _, m := range msgs {
		if !muted[m.UserName] {
			out = append(out, m)
		}
	}
	return out
}
