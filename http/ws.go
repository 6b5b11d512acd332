package http

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	nethttp "net/http"
	"net/url"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/coder/websocket"

	"tengen"
	"tengen/goban"
)

// Limits of the game WebSocket (docs/API.md, "WebSocket").
const (
	// wsMaxMessage bounds a client message; the largest command is well
	// under 200 bytes.
	wsMaxMessage = 4 << 10
	// wsQueue is the number of messages waiting for one client. A client
	// that falls this far behind is disconnected and resynchronises from a
	// snapshot when it reconnects, so one slow reader never holds up a game.
	wsQueue = 256
	// wsMaxBad is the number of malformed messages after which the
	// connection is closed.
	wsMaxBad = 20
	// wsRate and wsBurst limit commands per connection (per second): far
	// above what a person clicks, and enough for two fast bots that play
	// each other over WebSockets (the benchmark's games reach 100 moves a
	// second per side).
	wsRate  = 200
	wsBurst = 200
	// wsSyncBurst and wsSyncEvery limit sync, which sends the whole game:
	// a client needs it after a gap, not in a loop.
	wsSyncBurst = 3
	wsSyncEvery = 5 * time.Second
	// wsPingEvery is how often the server checks that the client is alive,
	// and wsWriteTimeout how long one write or ping may take.
	wsPingEvery    = 30 * time.Second
	wsWriteTimeout = 10 * time.Second
)

// hub tracks the open game WebSockets. http.Server.Shutdown neither closes
// nor waits for hijacked connections: the writers close theirs when the
// server's stop channel closes, and Shutdown waits for them here.
type hub struct {
	mu     sync.Mutex // guards conns, byAddr, sites, byUser and lastSeen
	conns  map[*wsClient]struct{}
	byAddr map[string]int // open connections per client address (clientKey)
	// sites holds the site sockets of each logged-in user, so that
	// notifying a user (on every move: "your move") does not walk every
	// open connection with the hub's lock held.
	sites map[int64]map[*wsClient]struct{}
	// byUser counts the open connections (game and site sockets) of each
	// logged-in user: a user with one is online. lastSeen is when the
	// user's last connection closed.
	byUser   map[int64]int
	lastSeen map[int64]time.Time
	wg       sync.WaitGroup // one per open connection
}

// reserve counts a new connection from addr, unless addr holds max
// already; a reservation is given back with remove or release.
func (h *hub) reserve(addr string, max int) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.byAddr[addr] >= max {
		return false
	}
	if h.byAddr == nil {
		h.byAddr = map[string]int{}
	}
	h.byAddr[addr]++
	return true
}

// release gives back a reservation that did not become a connection.
func (h *hub) release(addr string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.releaseLocked(addr)
}

func (h *hub) releaseLocked(addr string) {
	if h.byAddr[addr]--; h.byAddr[addr] <= 0 {
		delete(h.byAddr, addr)
	}
}

// add counts c in, and reports whether its user has just come online
// (this is the user's only connection).
func (h *hub) add(c *wsClient) (cameOnline bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.conns == nil {
		h.conns = map[*wsClient]struct{}{}
		h.byUser = map[int64]int{}
		h.lastSeen = map[int64]time.Time{}
		h.sites = map[int64]map[*wsClient]struct{}{}
	}
	h.conns[c] = struct{}{}
	if c.userID != 0 {
		h.byUser[c.userID]++
		cameOnline = h.byUser[c.userID] == 1
		if c.site {
			if h.sites[c.userID] == nil {
				h.sites[c.userID] = map[*wsClient]struct{}{}
			}
			h.sites[c.userID][c] = struct{}{}
		}
	}
	h.wg.Add(1)
	return cameOnline
}

// remove forgets c, closed at now, gives back its address's reservation,
// and reports whether its user has gone offline (it was the user's last
// connection).
func (h *hub) remove(c *wsClient, now time.Time) (wentOffline bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.conns, c)
	if c.userID != 0 {
		if c.site {
			if delete(h.sites[c.userID], c); len(h.sites[c.userID]) == 0 {
				delete(h.sites, c.userID)
			}
		}
		if h.byUser[c.userID]--; h.byUser[c.userID] <= 0 {
			delete(h.byUser, c.userID)
			h.lastSeen[c.userID] = now
			wentOffline = true
		}
	}
	h.releaseLocked(c.addr)
	h.wg.Done()
	return wentOffline
}

// eachSiteOf calls do for every site socket of the logged-in user userID,
// with the hub's lock held, and returns how many there were.
func (h *hub) eachSiteOf(userID int64, do func(*wsClient)) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	for c := range h.sites[userID] {
		do(c)
	}
	return len(h.sites[userID])
}

// count returns the number of open connections.
func (h *hub) count() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.conns)
}

// wait waits until every connection has ended, or ctx ends.
func (h *hub) wait(ctx context.Context) error {
	done := make(chan struct{})
	go func() {
		h.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// wsClient is one WebSocket connection: a game socket watching one game,
// or a site socket (lobbyws.go).
type wsClient struct {
	conn   *websocket.Conn
	gameID int64
	// reviewID is the review a review board's socket follows (gameID is
	// then 0; see reviews_ws.go).
	reviewID int64
	userID   int64
	// blackID and whiteID are the players of a game socket's game, for
	// presence.
	blackID, whiteID int64
	// site marks a site socket; lobby asks it for lobby pushes, html for
	// the lobby page's sections rendered. user is the logged-in user as
	// the socket opened, for the online list (nil for anonymous).
	site, lobby, html bool
	user              *tengen.User
	lang              string
	addr              string // the client's address (clientKey), counted in the hub
	// session is the token of the session the socket was opened with, ""
	// for anonymous sockets (see sessions.go).
	session string
	// sessionChecked is when the reader last found the session in storage
	// and sessionExpires when it expires then (wsSessionLive); only the
	// socket's reader goroutine uses them.
	sessionChecked, sessionExpires time.Time

	// send is the bounded queue of encoded messages for the writer. Game
	// events are put there by the PlayService's sink with the game's lock
	// held, so putting never blocks: a full queue ends the connection.
	send sendQueue

	// guard is the connection under the WebSocket, which ends it when a
	// frame announces more than wsMaxMessage bytes.
	guard *frameGuard

	endOnce sync.Once
	ended   chan struct{} // closed by end
	// status and reason are the close frame's, set once by end before
	// ended is closed.
	status websocket.StatusCode
	reason string
}

// end asks the connection to close with the given status; the first call
// wins.
func (c *wsClient) end(status websocket.StatusCode, reason string) {
	c.endOnce.Do(func() {
		c.status, c.reason = status, reason
		close(c.ended)
	})
}

// enqueue queues msg without blocking; a full queue ends the connection.
func (c *wsClient) enqueue(msg []byte) {
	if !c.send.put(msg) {
		c.end(websocket.StatusTryAgainLater, "too slow: reconnect")
	}
}

// A sendQueue holds up to wsQueue messages for a socket's writer. It grows
// with what is waiting instead of holding room for wsQueue messages from
// the start, as a buffered channel would: with thousands of sockets that
// room was megabytes of pointers the garbage collector scanned in every
// cycle, although almost every queue holds one message or none.
type sendQueue struct {
	mu   sync.Mutex // guards msgs
	msgs [][]byte
	// ready holds a token while msgs is not empty (capacity 1).
	ready chan struct{}
}

func newSendQueue() sendQueue { return sendQueue{ready: make(chan struct{}, 1)} }

// put appends msg unless wsQueue messages wait; it never blocks.
func (q *sendQueue) put(msg []byte) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.msgs) >= wsQueue {
		return false
	}
	q.msgs = append(q.msgs, msg)
	if len(q.msgs) == 1 {
		select {
		case q.ready <- struct{}{}:
		default:
		}
	}
	return true
}

// take returns the waiting messages in order and empties the queue; spare
// is a slice the caller is done with, reused for the next messages.
func (q *sendQueue) take(spare [][]byte) [][]byte {
	clear(spare)
	q.mu.Lock()
	defer q.mu.Unlock()
	msgs := q.msgs
	q.msgs = spare[:0]
	return msgs
}

// wsCommand is a client message. Pointer fields tell missing from zero.
type wsCommand struct {
	Type string `json:"type"`
	ID   string `json:"id"`
	Seq  *int   `json:"seq"`
	X    *int   `json:"x"`
	Y    *int   `json:"y"`
	// Points are the stones of place-handicap, each [x, y].
	Points []goban.Point `json:"points"`
	// Text is a chat message's.
	Text *string `json:"text"`
	// BoardSize and Speed are a quick-match seek's (site socket).
	BoardSize *int   `json:"boardSize"`
	Speed     string `json:"speed"`
}

// wsReply is the answer to a command.
type wsReply struct {
	Type       string     `json:"type"`
	ID         string     `json:"id,omitempty"`
	Code       string     `json:"code,omitempty"`
	Message    string     `json:"message,omitempty"`
	ServerTime *time.Time `json:"serverTime,omitempty"`
}

// originPatterns returns the hosts allowed to open WebSockets besides the
// request's own host: the base URL's.
func (s *Server) originPatterns() []string {
	u, err := url.Parse(s.cfg.BaseURL)
	if err != nil || u.Host == "" {
		return nil
	}
	return []string{u.Host}
}

// handleGameWS serves GET /api/v1/games/{id}/ws.
func (s *Server) handleGameWS(w nethttp.ResponseWriter, r *nethttp.Request) {
	id, p, ok := s.gamePlay(w, r)
	if !ok {
		return
	}
	g, err := s.svc.Games.FindGameByID(r.Context(), id)
	if err != nil {
		s.error(w, r, err)
		return
	}
	c, ok := s.wsAccept(w, r)
	if !ok {
		return
	}
	c.gameID, c.blackID, c.whiteID, c.user = id, g.BlackID, g.WhiteID, currentUser(r.Context())
	online := s.hub.add(c)

	ctx, cancel := context.WithCancel(context.Background())
	stop, err := p.Watch(ctx, id, c.userID, func(ev *tengen.GameEvent) { c.enqueue(ev.JSON()) })
	if err != nil {
		cancel()
		s.wsFail(c, err)
		c.conn.Close(websocket.StatusInternalError, "cannot load the game")
		s.presenceChanged(c, s.hub.remove(c, s.cfg.Now()))
		return
	}
	// After the snapshot: the presence of the players and the count of
	// spectators, now that this socket counts.
	s.presenceChanged(c, online)
	s.serveSocket(ctx, cancel, c, func(ctx context.Context, c *wsClient) {
		s.wsRead(ctx, c, func(ctx context.Context, c *wsClient, cmd wsCommand) error {
			return s.wsCommand(ctx, c, cmd, &stop)
		})
	}, func() {
		stop()
		s.presenceChanged(c, s.hub.remove(c, s.cfg.Now()))
	})
}

// serveSocket runs an accepted socket until it ends, in goroutines of its
// own, and returns at once: read in one, wsWrite in the other, then
// cancel and, once both are done, cleanup. The handler that calls it
// returns, so that net/http lets go of the upgrade request: its headers,
// contexts and response, and the serving goroutine's deep stack, which
// the garbage collector otherwise marked again in every cycle for every
// open socket (docs/PERFORMANCE.md, "Fewer objects to mark, and fewer cycles"). A
// panic in the writer or in cleanup is logged and closes the socket, as
// withRecover did while they ran in the handler.
func (s *Server) serveSocket(ctx context.Context, cancel context.CancelFunc, c *wsClient, read func(context.Context, *wsClient), cleanup func()) {
	go func() {
		var wg sync.WaitGroup
		defer func() {
			if v := recover(); v != nil {
				s.log.Error("panic in websocket cleanup", "game", c.gameID, "review", c.reviewID, "user", c.userID, "value", v)
			}
		}()
		defer cleanup()
		defer wg.Wait()
		defer cancel()
		defer func() {
			// A writer that panicked has not closed the connection,
			// which the reader needs to end.
			if v := recover(); v != nil {
				s.log.Error("panic in websocket", "game", c.gameID, "review", c.reviewID, "user", c.userID, "value", v)
				c.conn.CloseNow()
			}
		}()
		wg.Add(1)
		go func() {
			defer wg.Done()
			read(ctx, c)
		}()
		s.wsWrite(ctx, c)
	}()
}

// wsAccept upgrades the request to a WebSocket within the address's
// connection limit and returns the client, not yet in the hub; on false
// it has answered the request.
func (s *Server) wsAccept(w nethttp.ResponseWriter, r *nethttp.Request) (*wsClient, bool) {
	addr := s.clientKey(r)
	if !s.hub.reserve(addr, s.cfg.MaxSocketsPerAddress) {
		s.log.Warn("websockets per address", "id", requestID(r.Context()), "addr", addr)
		s.error(w, r, tengen.Errorf(tengen.ERATELIMIT, "Too many open connections from your address."))
		return nil, false
	}
	// The server's read and write timeouts are meant for requests; a
	// WebSocket lives for hours and has its own pings.
	rc := nethttp.NewResponseController(w)
	rc.SetReadDeadline(time.Time{})
	rc.SetWriteDeadline(time.Time{})
	guard := &frameGuardWriter{ResponseWriter: w, limit: wsMaxMessage}
	conn, err := websocket.Accept(guard, r, &websocket.AcceptOptions{OriginPatterns: s.originPatterns()})
	if err != nil {
		s.hub.release(addr)
		return nil, false // Accept has answered (e.g. 403 for a foreign origin)
	}
	conn.SetReadLimit(wsMaxMessage)
	return &wsClient{conn: conn, userID: userID(r), lang: chooseLanguage(r), addr: addr, session: sessionToken(r),
		send: newSendQueue(), ended: make(chan struct{}), guard: guard.conn}, true
}

// wsWrite sends queued messages and pings until the connection ends, then
// closes it with the status end recorded.
func (s *Server) wsWrite(ctx context.Context, c *wsClient) {
	ping := time.NewTicker(wsPingEvery)
	defer ping.Stop()
	// Writes take a context that never ends; a timer that runs only while
	// a write is under way closes the connection instead, which ends the
	// write. (A context that can end makes the WebSocket library register
	// a callback on it for every write; a context with a timeout for every
	// message cost a twentieth of the server's CPU under load.) A write
	// that times out ends the connection, as does one that ends just as
	// the timer fires: the next write finds the connection closed.
	deadline := time.AfterFunc(wsWriteTimeout, func() { c.conn.CloseNow() })
	deadline.Stop()
	var batch [][]byte // the messages taken from c.send, written in order
	for {
		select {
		case <-c.ended:
			// The replies queued before the end (such as the error that
			// explains a policy close) go out first, within one write
			// timeout in all; a client too slow for that gets the close
			// alone.
			s.wsFlush(ctx, c)
			c.conn.Close(c.status, c.reason)
			return
		case <-s.stop:
			c.conn.Close(websocket.StatusGoingAway, "server shutting down")
			return
		case <-c.send.ready:
			batch = c.send.take(batch)
			for _, msg := range batch {
				deadline.Reset(wsWriteTimeout)
				err := c.conn.Write(context.Background(), websocket.MessageText, msg)
				deadline.Stop()
				if err != nil {
					c.end(websocket.StatusAbnormalClosure, "")
					c.conn.CloseNow()
					return
				}
			}
		case <-ping.C:
			pctx, cancel := context.WithTimeout(ctx, wsWriteTimeout)
			err := c.conn.Ping(pctx)
			cancel()
			if err != nil {
				c.conn.CloseNow()
				return
			}
		}
	}
}

// wsFlush writes the messages queued for c now, giving up at the first
// failure or after one write timeout in all.
func (s *Server) wsFlush(ctx context.Context, c *wsClient) {
	fctx, cancel := context.WithTimeout(ctx, wsWriteTimeout)
	defer cancel()
	for _, msg := range c.send.take(nil) {
		if err := c.conn.Write(fctx, websocket.MessageText, msg); err != nil {
			return
		}
	}
}

// wsInbox is the flood control of one socket's reader: a token bucket of
// wsBurst messages refilled at wsRate a second.
type wsInbox struct {
	tokens float64
	last   time.Time
	// buf holds the last message read; wsNext reuses it for the next, so
	// that reading a move allocates nothing.
	buf []byte
	wsDecoder
}

func newWSInbox() *wsInbox { return &wsInbox{tokens: wsBurst, last: time.Now()} }

// wsNext reads the next message with the checks every socket makes: text
// frames only, valid UTF-8, no flood. It ends the connection and reports
// false when the connection is over or broke a rule. The message is valid
// until the next call with in.
func (s *Server) wsNext(c *wsClient, in *wsInbox) ([]byte, bool) {
	// The read's context never ends, so that the WebSocket library
	// registers no callback on it for every message: the writer closes the
	// connection whenever the socket ends (wsWrite), and that ends the
	// read.
	typ, data, err := readMessage(context.Background(), c.conn, in.buf[:0])
	in.buf = data
	if err != nil {
		if websocket.CloseStatus(err) == websocket.StatusMessageTooBig || errors.Is(err, websocket.ErrMessageTooBig) ||
			(c.guard != nil && c.guard.tooBig.Load()) {
			s.log.Warn("websocket message too big", "game", c.gameID, "review", c.reviewID, "user", c.userID)
		}
		return nil, false
	}
	switch {
	case typ != websocket.MessageText:
		c.end(websocket.StatusUnsupportedData, "text messages only")
		return nil, false
	case !utf8.Valid(data):
		c.end(websocket.StatusInvalidFramePayloadData, "invalid UTF-8")
		return nil, false
	}
	now := time.Now()
	in.tokens = min(wsBurst, in.tokens+now.Sub(in.last).Seconds()*wsRate)
	in.last = now
	if in.tokens < 1 {
		s.log.Warn("websocket flood", "game", c.gameID, "review", c.reviewID, "user", c.userID)
		c.end(websocket.StatusPolicyViolation, "too many messages")
		return nil, false
	}
	in.tokens--
	return data, true
}

// readMessage reads the next message like websocket.Conn.Read, appending
// it to buf instead of a new slice.
func readMessage(ctx context.Context, conn *websocket.Conn, buf []byte) (websocket.MessageType, []byte, error) {
	typ, r, err := conn.Reader(ctx)
	if err != nil {
		return 0, buf, err
	}
	if buf == nil {
		buf = make([]byte, 0, 256) // a move is under 100 bytes
	}
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return typ, buf, nil
		}
		if err != nil {
			return typ, buf, err
		}
	}
}

// wsDecoder decodes one socket's messages strictly: one JSON value with
// known fields only. It keeps its json.Decoder from message to message,
// since a new one for each came with a buffer and a copy of the message
// (docs/PERFORMANCE.md, "Fewer bytes per move"). A decoder that refused a
// message may hold an error or the rest of the message, so it is dropped
// then.
type wsDecoder struct {
	r   bytes.Reader
	dec *json.Decoder
}

// decode reports whether data is one JSON value that fits v without
// unknown fields, and decodes it into v.
func (d *wsDecoder) decode(data []byte, v any) bool {
	d.r.Reset(data)
	if d.dec == nil {
		d.dec = json.NewDecoder(&d.r)
		d.dec.DisallowUnknownFields()
	}
	if d.dec.Decode(v) != nil || d.dec.More() {
		d.dec = nil
		return false
	}
	return true
}

// wsRead reads commands and runs each with run until the connection ends,
// within the socket's limits and after checking that the session still
// stands.
func (s *Server) wsRead(ctx context.Context, c *wsClient, run func(context.Context, *wsClient, wsCommand) error) {
	defer c.end(websocket.StatusNormalClosure, "")
	bad := 0
	in := newWSInbox()
	syncs := newLimiter(wsSyncBurst, wsSyncEvery, 1, time.Now)
	for {
		data, ok := s.wsNext(c, in)
		if !ok {
			return
		}
		var cmd wsCommand
		if !in.decode(data, &cmd) || len(cmd.ID) > 64 {
			bad++
			c.enqueue(s.wsError(c, cmd.ID, tengen.Errorf(tengen.EINVALID, "Malformed message.")))
			if bad >= wsMaxBad {
				c.end(websocket.StatusPolicyViolation, "too many malformed messages")
				return
			}
			continue
		}
		if cmd.Type == "sync" {
			if ok, wait := syncs.allow(""); !ok {
				secs := int(wait.Seconds()) + 1
				c.enqueue(s.wsError(c, cmd.ID, tengen.Errorf(tengen.ERATELIMIT, "Too many sync requests; try again in %d seconds.", secs)))
				continue
			}
		}
		if !s.wsSessionLive(ctx, c, cmd.ID) {
			return
		}
		if err := run(ctx, c, cmd); err != nil {
			if tengen.ErrorCode(err) == tengen.EINVALID && !isRuleError(err) {
				bad++
			}
			c.enqueue(s.wsError(c, cmd.ID, err))
			if bad >= wsMaxBad {
				c.end(websocket.StatusPolicyViolation, "too many malformed messages")
				return
			}
			continue
		}
	}
}

// isRuleError reports whether err refuses a move by the rules, which is a
// player's honest mistake rather than a malformed message.
func isRuleError(err error) bool {
	var e *tengen.Error
	return errors.As(err, &e) && len(e.Format) > 13 && e.Format[:13] == "Illegal move:"
}

// wsCommand runs one command and queues its reply.
func (s *Server) wsCommand(ctx context.Context, c *wsClient, cmd wsCommand, stop *func()) error {
	p := s.svc.Play
	need := func(v *int, what string) (int, error) {
		if v == nil {
			return 0, tengen.Errorf(tengen.EINVALID, "The %s command needs %s.", cmd.Type, what)
		}
		return *v, nil
	}
	var err error
	// The snapshot a command returns is not needed here: the watcher
	// receives the change as events.
	do := tengen.Command{Quiet: true}
	switch cmd.Type {
	case "move", "pass", "resign":
		do.Kind, do.Move.Kind = tengen.CommandMove, tengen.MovePlay
		switch cmd.Type {
		case "pass":
			do.Move.Kind = tengen.MovePass
		case "resign":
			do.Move.Kind = tengen.MoveResign
		}
		if cmd.Seq != nil {
			do.Move.Seq = *cmd.Seq
		} else if cmd.Type != "resign" {
			return tengen.Errorf(tengen.EINVALID, "The %s command needs %s.", cmd.Type, "seq")
		}
		if cmd.Type == "move" {
			if do.Move.X, err = need(cmd.X, "x"); err != nil {
				return err
			}
			if do.Move.Y, err = need(cmd.Y, "y"); err != nil {
				return err
			}
		}
	case "toggle":
		do.Kind = tengen.CommandToggle
		if do.Point.X, err = need(cmd.X, "x"); err != nil {
			return err
		}
		if do.Point.Y, err = need(cmd.Y, "y"); err != nil {
			return err
		}
	case "accept":
		do.Kind = tengen.CommandAccept
		if do.Seq, err = need(cmd.Seq, "seq"); err != nil {
			return err
		}
	case "resume":
		do.Kind = tengen.CommandResume
	case "undo":
		do.Kind = tengen.CommandUndo
	case "undo-accept":
		do.Kind = tengen.CommandUndoAccept
	case "undo-decline":
		do.Kind = tengen.CommandUndoDecline
	case "agree-void", "decline-void":
		do.Kind = tengen.CommandAgreeVoid
		if cmd.Type == "decline-void" {
			do.Kind = tengen.CommandDeclineVoid
		}
		if do.Seq, err = need(cmd.Seq, "seq"); err != nil {
			return err
		}
	case "place-handicap":
		do.Kind, do.Points = tengen.CommandPlaceHandicap, cmd.Points
		if do.Seq, err = need(cmd.Seq, "seq"); err != nil {
			return err
		}
	case "sync":
		// Stop, then watch again: events before the stop are queued ahead
		// of the new snapshot, and those after it are in the snapshot, so
		// none is lost or doubled.
		(*stop)()
		next, err := p.Watch(ctx, c.gameID, c.userID, func(ev *tengen.GameEvent) { c.enqueue(ev.JSON()) })
		if err != nil {
			c.end(websocket.StatusInternalError, "cannot load the game")
			return err
		}
		*stop = next
	case "chat":
		// A chat message is no change to the game: it goes to the chat
		// service and reaches the watchers from there (chat.go).
		if s.svc.Chat == nil {
			return tengen.Errorf(tengen.EINVALID, "Unknown message type %q.", cmd.Type)
		}
		if cmd.Text == nil {
			return tengen.Errorf(tengen.EINVALID, "The %s command needs %s.", cmd.Type, "text")
		}
		if _, err := s.postGameChat(ctx, c.gameID, c.userID, *cmd.Text); err != nil {
			return err
		}
	case "ping":
		wsPong(c, cmd.ID)
		return nil
	default:
		return tengen.Errorf(tengen.EINVALID, "Unknown message type %q.", cmd.Type)
	}
	if do.Kind != "" {
		if _, err := p.Do(ctx, c.gameID, c.userID, do); err != nil {
			return err
		}
	}
	c.enqueue(mustJSON(wsReply{Type: "ok", ID: cmd.ID}))
	return nil
}

// wsPong answers a ping with the server's time, from which clients
// estimate their clock's offset.
func wsPong(c *wsClient, id string) {
	now := time.Now().UTC()
	c.enqueue(mustJSON(wsReply{Type: "pong", ID: id, ServerTime: &now}))
}

// wsError encodes err as an error reply in the connection's language and
// logs what the server should know about.
func (s *Server) wsError(c *wsClient, id string, err error) []byte {
	code := tengen.ErrorCode(err)
	switch code {
	case tengen.EINTERNAL:
		s.log.Error("websocket internal error", "game", c.gameID, "user", c.userID, "err", err)
	case tengen.EFORBIDDEN:
		s.log.Warn("refused", "game", c.gameID, "user", c.userID, "via", "websocket", "reason", tengen.ErrorMessage(err))
	}
	msg := s.pages.errorMessage(c.lang, err)
	if msg == "" {
		msg = tengen.ErrorMessage(err)
	}
	return mustJSON(wsReply{Type: "error", ID: id, Code: code, Message: msg})
}

// wsFail logs a failure to start watching.
func (s *Server) wsFail(c *wsClient, err error) {
	s.log.Error("websocket watch failed", "game", c.gameID, "err", err)
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // only plain structs are encoded here
	}
	return b
}
