package main

// Several `tengen serve` processes on one PostgreSQL database (issue 20;
// docs/OPERATIONS.md, "Several instances"). Everything goes through the
// public API and the game WebSocket, as browsers and bots use them: these
// tests know nothing of how the instances share the work.

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"

	"tengen"
	"tengen/clock"
	"tengen/goban"
	"tengen/postgres/pgtest"
)

// instanceTimeout is the --instance-timeout of the test instances: how
// long a dead instance's games wait for their takeover. The default: a
// shorter one would make the takeover tests quicker, but on a loaded
// machine (CI runs packages in parallel) heartbeats come late, and a
// false death in the middle of a test would show as a re-sync.
const instanceTimeout = tengen.DefaultInstanceTimeout

// clusterFlags are the flags of serve for the test instances on addr.
func clusterFlags(addr string) []string {
	return []string{"--advertise", "http://" + addr,
		"--instance-timeout", instanceTimeout.String(), "--analysis=false", "--bot-workers", "1",
		"--login-burst", "10000", "--challenge-burst", "10000", "--max-sockets-per-address", "10000"}
}

// startCluster starts n `tengen serve` processes on one new PostgreSQL
// database, each on its own loopback port, with the per-address limits
// raised (every test user connects from 127.0.0.1). Without PostgreSQL the
// test is skipped, or fails when TENGEN_REQUIRE_POSTGRES is set.
func startCluster(t *testing.T, n int) []*server {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs the server binary")
	}
	db := pgtest.URL(t)
	bin := buildTengen(t)
	srvs := make([]*server, n)
	for i := range srvs {
		addr := freeAddr(t)
		srvs[i] = startServer(t, bin, db, addr, clusterFlags(addr)...)
	}
	return srvs
}

// at returns the same user (same cookie jar: cookies do not depend on the
// port) talking to the instance at base.
func (c *apiClient) at(base string) *apiClient {
	return &apiClient{t: c.t, c: c.c, base: base}
}

// register signs up a new user on c's instance.
func (c *apiClient) register(name string) {
	c.t.Helper()
	c.must("POST", "/api/v1/register", map[string]string{"name": name, "password": "secret-" + name}, nil, 201)
}

// twoPlayers starts two instances and registers Black on the first and
// White on the second.
func twoPlayers(t *testing.T, prefix string) (a, b *server, black, white *apiClient) {
	t.Helper()
	srvs := startCluster(t, 2)
	a, b = srvs[0], srvs[1]
	black, white = newAPIClient(t, a.base), newAPIClient(t, b.base)
	black.register(prefix + "black")
	white.register(prefix + "white")
	return a, b, black, white
}

// newGame makes black challenge on black's instance and white accept on
// white's, and returns the game.
func newGame(t *testing.T, black, white *apiClient, set tengen.GameSettings) *tengen.Game {
	t.Helper()
	var ch struct{ Challenge tengen.Challenge }
	black.must("POST", "/api/v1/challenges", map[string]any{"settings": set}, &ch, 201)
	var g struct{ Game tengen.Game }
	white.must("POST", fmt.Sprintf("/api/v1/challenges/%d/accept", ch.Challenge.ID), nil, &g, 201)
	return &g.Game
}

// wsMsg is any message of the game WebSocket, replies and events.
type wsMsg struct {
	Type     string               `json:"type"`
	ID       string               `json:"id"`
	Code     string               `json:"code"`
	Message  string               `json:"message"`
	State    *tengen.GameSnapshot `json:"state"`
	Move     *tengen.GameMove     `json:"move"`
	Game     *tengen.Game         `json:"game"`
	Proposal *tengen.Proposal     `json:"proposal"`
	Score    *tengen.ScoreView    `json:"score"`
	Clock    *tengen.ClockView    `json:"clock"`
	// at is when the message arrived.
	at time.Time
}

// gameSocket is a game WebSocket whose messages a goroutine reads and
// keeps. A spectator's socket reconnects when it breaks, as a browser's
// does, and starts again from the snapshot that a new connection sends
// first.
type gameSocket struct {
	t         *testing.T
	url       string
	header    http.Header
	reconnect bool

	mu    sync.Mutex // guards conn, msgs, err, dials
	conn  *websocket.Conn
	msgs  []wsMsg
	err   error // the read error that ended the reader, when it does not reconnect
	dials int   // connections opened
	more  chan struct{}
	stop  chan struct{}
	n     int // commands sent; only the test's goroutine touches it
	wg    sync.WaitGroup
	close sync.Once
}

// watch opens the game WebSocket of game id on the instance at base, as
// the user of c (nil: an anonymous spectator). reconnect makes it
// reconnect for 30 s after a break.
func watch(t *testing.T, base string, id int64, c *apiClient, reconnect bool) *gameSocket {
	t.Helper()
	s := &gameSocket{t: t, url: fmt.Sprintf("ws%s/api/v1/games/%d/ws", strings.TrimPrefix(base, "http"), id),
		header: http.Header{}, reconnect: reconnect, more: make(chan struct{}, 1), stop: make(chan struct{})}
	if c != nil {
		u, _ := url.Parse(base)
		for _, k := range c.c.Jar.Cookies(u) {
			s.header.Add("Cookie", k.Name+"="+k.Value)
		}
	}
	conn, err := s.dial()
	if err != nil {
		t.Fatal(err)
	}
	s.wg.Add(1)
	go s.read(conn)
	t.Cleanup(s.Close)
	return s
}

func (s *gameSocket) dial() (*websocket.Conn, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, _, err := websocket.Dial(ctx, s.url, &websocket.DialOptions{HTTPHeader: s.header})
	if err != nil {
		return nil, fmt.Errorf("dial %s: %w", s.url, err)
	}
	conn.SetReadLimit(1 << 20)
	s.mu.Lock()
	s.conn = conn
	s.dials++
	s.mu.Unlock()
	return conn, nil
}

// Close closes the socket and waits for its reader.
func (s *gameSocket) Close() {
	s.close.Do(func() {
		close(s.stop)
		s.mu.Lock()
		if s.conn != nil {
			s.conn.CloseNow()
		}
		s.mu.Unlock()
		s.wg.Wait()
	})
}

func (s *gameSocket) read(conn *websocket.Conn) {
	defer s.wg.Done()
	for {
		_, data, err := conn.Read(context.Background())
		if err != nil {
			conn.CloseNow()
			if s.reconnect && s.redial() {
				s.mu.Lock()
				conn = s.conn
				s.mu.Unlock()
				continue
			}
			s.mu.Lock()
			s.err = err
			s.mu.Unlock()
			s.signal()
			return
		}
		m := wsMsg{at: time.Now()}
		if err := json.Unmarshal(data, &m); err != nil {
			m = wsMsg{Type: "undecodable", Message: string(data), at: m.at}
		}
		s.mu.Lock()
		s.msgs = append(s.msgs, m)
		s.mu.Unlock()
		s.signal()
	}
}

// redial reconnects with a short backoff for up to 30 s; false when it
// gave up or the socket was closed.
func (s *gameSocket) redial() bool {
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); {
		select {
		case <-s.stop:
			return false
		case <-time.After(200 * time.Millisecond):
		}
		if _, err := s.dial(); err == nil {
			return true
		}
	}
	return false
}

func (s *gameSocket) signal() {
	select {
	case s.more <- struct{}{}:
	default:
	}
}

// messages returns a copy of the messages so far.
func (s *gameSocket) messages() []wsMsg {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.msgs)
}

// wait returns the first message from index from on that satisfies ok,
// and its index; it fails the test after timeout or when the socket
// broke for good.
func (s *gameSocket) wait(from int, timeout time.Duration, what string, ok func(wsMsg) bool) (wsMsg, int) {
	s.t.Helper()
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		s.mu.Lock()
		for i := from; i < len(s.msgs); i++ {
			if ok(s.msgs[i]) {
				m := s.msgs[i]
				s.mu.Unlock()
				return m, i
			}
		}
		from = len(s.msgs)
		err := s.err
		s.mu.Unlock()
		if err != nil {
			s.t.Fatalf("%s: waiting for %s: the socket broke: %v", s.url, what, err)
		}
		select {
		case <-s.more:
		case <-deadline.C:
			s.t.Fatalf("%s: no %s within %v", s.url, what, timeout)
		}
	}
}

// do sends a command and returns its reply (ok or error).
func (s *gameSocket) do(typ string, fields map[string]any) wsMsg {
	s.t.Helper()
	s.n++
	id := fmt.Sprintf("c%d", s.n)
	msg := map[string]any{"type": typ, "id": id}
	for k, v := range fields {
		msg[k] = v
	}
	data, _ := json.Marshal(msg)
	s.mu.Lock()
	from, conn := len(s.msgs), s.conn
	s.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := conn.Write(ctx, websocket.MessageText, data); err != nil {
		s.t.Fatalf("%s: send %s: %v", s.url, data, err)
	}
	m, _ := s.wait(from, 15*time.Second, "the reply to "+string(data), func(m wsMsg) bool {
		return m.ID == id && (m.Type == "ok" || m.Type == "error")
	})
	return m
}

// must sends a command that must succeed.
func (s *gameSocket) must(typ string, fields map[string]any) {
	s.t.Helper()
	if m := s.do(typ, fields); m.Type != "ok" {
		s.t.Fatalf("%s %v: %s %s", typ, fields, m.Code, m.Message)
	}
}

// playedMove is a move as a test plays it.
type playedMove struct {
	kind tengen.MoveKind
	x, y int
}

func (m playedMove) String() string {
	if m.kind == tengen.MovePlay {
		return fmt.Sprintf("play (%d,%d)", m.x, m.y)
	}
	return string(m.kind)
}

func sameMove(g *tengen.GameMove, m playedMove) bool {
	return g.Kind == m.kind && (m.kind != tengen.MovePlay || g.X == m.x && g.Y == m.y)
}

// checkWatched checks what a watcher saw: every move of want as a move
// event, once each and in order, then the end with result. With resync a
// new connection's snapshot (after a break) may bring moves the watcher
// missed while it was away; without it, snapshots after the first must
// not: the watcher's one connection must see every move as it happens.
func checkWatched(t *testing.T, who string, msgs []wsMsg, want []playedMove, result string, resync bool) {
	t.Helper()
	have, snapshots, finished := -1, 0, false
	for _, m := range msgs {
		switch m.Type {
		case "game":
			st := m.State
			if st == nil || st.Game == nil {
				t.Errorf("%s: a game message without state", who)
				continue
			}
			snapshots++
			if len(st.Moves) > len(want) {
				t.Errorf("%s: a snapshot with %d moves, %d were played", who, len(st.Moves), len(want))
				return
			}
			for i, g := range st.Moves {
				if g.Seq != i+1 || !sameMove(g, want[i]) {
					t.Errorf("%s: snapshot move %d is %d %s (%d,%d), want %s", who, i+1, g.Seq, g.Kind, g.X, g.Y, want[i])
				}
			}
			if have >= 0 && len(st.Moves) != have && !resync {
				t.Errorf("%s: a snapshot in the middle skipped from move %d to %d", who, have, len(st.Moves))
			}
			if have >= 0 && len(st.Moves) < have {
				t.Errorf("%s: a snapshot went back from move %d to %d", who, have, len(st.Moves))
			}
			have = len(st.Moves)
			if st.Game.Status == tengen.GameFinished {
				finished = st.Game.Result == result
			}
		case "move":
			if have < 0 {
				t.Errorf("%s: a move event before the first snapshot", who)
				have = 0
			}
			g := m.Move
			switch {
			case g == nil:
				t.Errorf("%s: a move event without a move", who)
			case g.Seq != have+1:
				t.Errorf("%s: move event %d after move %d (a gap or a repeat)", who, g.Seq, have)
				if g.Seq > have {
					have = g.Seq
				}
			case g.Seq > len(want):
				t.Errorf("%s: move event %d, only %d were played", who, g.Seq, len(want))
				have = g.Seq
			case !sameMove(g, want[g.Seq-1]):
				t.Errorf("%s: move %d is %s (%d,%d), want %s", who, g.Seq, g.Kind, g.X, g.Y, want[g.Seq-1])
				have = g.Seq
			default:
				have = g.Seq
			}
		case "phase":
			if m.Game != nil && m.Game.Status == tengen.GameFinished {
				if m.Game.Result != result {
					t.Errorf("%s: the game ended %q, want %q", who, m.Game.Result, result)
				}
				finished = true
			}
		case "error", "undecodable":
			t.Errorf("%s: %s %s %s", who, m.Type, m.Code, m.Message)
		}
	}
	if have != len(want) {
		t.Errorf("%s saw %d of the %d moves", who, have, len(want))
	}
	if !finished {
		t.Errorf("%s did not see the game end %s", who, result)
	}
	t.Logf("%s: %d messages, %d snapshots", who, len(msgs), snapshots)
}

// waitFinished waits until the socket has seen the end of the game.
func (s *gameSocket) waitFinished() {
	s.t.Helper()
	s.wait(0, 15*time.Second, "the end of the game", func(m wsMsg) bool {
		return m.Type == "phase" && m.Game != nil && m.Game.Status == tengen.GameFinished ||
			m.Type == "game" && m.State != nil && m.State.Game.Status == tengen.GameFinished
	})
}

// countGame is a 9×9 game under Chinese rules that ends in a count: Black
// walls off columns 0–4, White columns 5–8, each invades the other's area
// with a stone that is dead. Black has 9 stones and 36 points of
// territory, White 9 and 27 plus 7.5 komi: B+1.5.
func countGame() (moves []playedMove, dead []goban.Point, result string) {
	for y := range 9 {
		moves = append(moves, playedMove{kind: tengen.MovePlay, x: 4, y: y}, playedMove{kind: tengen.MovePlay, x: 5, y: y})
	}
	moves = append(moves, playedMove{kind: tengen.MovePlay, x: 7, y: 4}, playedMove{kind: tengen.MovePlay, x: 1, y: 4},
		playedMove{kind: tengen.MovePass}, playedMove{kind: tengen.MovePass})
	return moves, []goban.Point{{X: 7, Y: 4}, {X: 1, Y: 4}}, "B+1.5"
}

// TestClusterGameToCount plays a whole game across two instances: Black on
// one, White on the other, both on the game WebSocket; after two passes
// the players mark the dead stones and accept the count. A spectator on
// each instance sees every move in order and the end.
func TestClusterGameToCount(t *testing.T) {
	a, b, black, white := twoPlayers(t, "count")
	// White accepts on b: b creates the game, so Black plays through the
	// other instance.
	g := newGame(t, black, white, tengen.GameSettings{BoardSize: 9, Ruleset: "chinese", Color: tengen.ChooseBlack,
		TimeControl: clock.FischerTime(5*time.Minute, 5*time.Second, 10*time.Minute)})

	specA, specB := watch(t, a.base, g.ID, nil, false), watch(t, b.base, g.ID, nil, false)
	bs, ws := watch(t, a.base, g.ID, black, false), watch(t, b.base, g.ID, white, false)
	for _, s := range []*gameSocket{specA, specB, bs, ws} {
		s.wait(0, 10*time.Second, "the first snapshot", func(m wsMsg) bool { return m.Type == "game" })
	}

	moves, dead, result := countGame()
	for i, m := range moves {
		s := bs
		if i%2 == 1 {
			s = ws
		}
		f := map[string]any{"seq": i + 1}
		typ := "pass"
		if m.kind == tengen.MovePlay {
			typ, f["x"], f["y"] = "move", m.x, m.y
		}
		before := len(s.messages())
		s.must(typ, f)
		// The protocol promises the mover its move event before the ok
		// (docs/API.md, "WebSocket"), on whichever instance it plays.
		msgs := s.messages()
		if !slices.ContainsFunc(msgs[before:], func(w wsMsg) bool { return w.Type == "move" && w.Move != nil && w.Move.Seq == i+1 }) {
			t.Errorf("%s: the ok of move %d came before its move event", s.url, i+1)
		}
	}

	// The scoring phase: make the proposal the dead stones of the game,
	// whatever the server's estimate was, and accept it on both sides.
	var st struct{ State tengen.GameSnapshot }
	black.must("GET", fmt.Sprintf("/api/v1/games/%d/state", g.ID), nil, &st, 200)
	if st.State.Game.Status != tengen.GameScoring || st.State.Proposal == nil {
		t.Fatalf("after two passes: %s, proposal %+v", st.State.Game.Status, st.State.Proposal)
	}
	t.Logf("the server's proposal: %v", st.State.Proposal.Dead)
	toggle := func(p goban.Point) { bs.must("toggle", map[string]any{"x": p.X, "y": p.Y}) }
	for _, p := range dead {
		if !slices.Contains(st.State.Proposal.Dead, p) {
			toggle(p)
		}
	}
	for _, p := range st.State.Proposal.Dead {
		if !slices.Contains(dead, p) {
			toggle(p)
		}
	}
	white.must("GET", fmt.Sprintf("/api/v1/games/%d/state", g.ID), nil, &st, 200)
	if p := st.State.Proposal; p == nil || len(p.Dead) != len(dead) || st.State.Score == nil || st.State.Score.Result != result {
		t.Fatalf("proposal after the toggles: %+v, score %+v", p, st.State.Score)
	}
	seq := st.State.Proposal.Seq
	bs.must("accept", map[string]any{"seq": seq})
	ws.must("accept", map[string]any{"seq": seq})

	for _, s := range []*gameSocket{specA, specB, bs, ws} {
		s.waitFinished()
	}
	for _, c := range []*apiClient{black, white} {
		var got struct {
			Game  tengen.Game
			Moves []tengen.GameMove
		}
		c.must("GET", fmt.Sprintf("/api/v1/games/%d", g.ID), nil, &got, 200)
		if got.Game.Status != tengen.GameFinished || got.Game.Result != result || len(got.Moves) != len(moves) {
			t.Errorf("%s: game %s %q with %d moves, want finished %q with %d", c.base, got.Game.Status, got.Game.Result, len(got.Moves), result, len(moves))
		}
	}
	checkWatched(t, "spectator on the instance that did not create the game", specA.messages(), moves, result, false)
	checkWatched(t, "spectator on the instance that created the game", specB.messages(), moves, result, false)
	checkWatched(t, "Black (on the instance that did not create the game)", bs.messages(), moves, result, false)
	checkWatched(t, "White", ws.messages(), moves, result, false)
}

// moveReply is the answer to POST /api/v1/games/{id}/moves.
type moveReply struct {
	Move struct {
		Seq        int   `json:"seq"`
		TimeUsedMs int64 `json:"timeUsedMs"`
	} `json:"move"`
	Game  tengen.Game       `json:"game"`
	Clock *tengen.ClockView `json:"clock"`
}

// side returns c's side of the clock.
func side(cv *tengen.ClockView, c goban.Color) tengen.ClockSide {
	if c == goban.White {
		return cv.White
	}
	return cv.Black
}

// TestClusterTakeover kills the instance that owns a live game with
// SIGKILL while a move is on its way. The other instance must take the
// game over within seconds, keep every acknowledged move, not charge the
// player to move for the time the game had no owner, and carry the game to
// its end; a spectator on the surviving instance sees every move.
func TestClusterTakeover(t *testing.T) {
	a, b, black, white := twoPlayers(t, "take")
	// Both on a: a creates the game and owns it.
	const mainTime = 10 * time.Minute
	g := newGame(t, black, white.at(a.base), tengen.GameSettings{BoardSize: 19, Ruleset: "japanese", Color: tengen.ChooseBlack,
		TimeControl: clock.AbsoluteTime(mainTime)})
	spec := watch(t, b.base, g.ID, nil, true)
	spec.wait(0, 10*time.Second, "the first snapshot", func(m wsMsg) bool { return m.Type == "game" })

	var played []playedMove
	movePath := fmt.Sprintf("/api/v1/games/%d/moves", g.ID)
	playOn := func(c *apiClient, seq int) (int, moveReply, error) {
		x, y := spacedPoint(seq - 1)
		var r moveReply
		status, err := c.call("POST", movePath, map[string]any{"seq": seq, "kind": "play", "x": x, "y": y}, &r)
		return status, r, err
	}
	// Black plays through a (the owner), White through b (forwarded).
	var last moveReply
	for seq := 1; seq <= 20; seq++ {
		c := black
		if seq%2 == 0 {
			c = white
		}
		status, r, err := playOn(c, seq)
		if err != nil || status != 200 {
			t.Fatalf("move %d on %s: status %d, %v", seq, c.base, status, err)
		}
		x, y := spacedPoint(seq - 1)
		played = append(played, playedMove{kind: tengen.MovePlay, x: x, y: y})
		last = r
	}
	if last.Clock == nil || last.Clock.Running != goban.Black || last.Clock.RunningSince == nil {
		t.Fatalf("clock after move 20: %+v", last.Clock)
	}

	// Move 21 on its way to a when a dies.
	inFlight := make(chan int, 1)
	go func() {
		status, _, _ := playOn(black, 21)
		inFlight <- status
	}()
	time.Sleep(2 * time.Millisecond)
	killed := time.Now()
	a.kill()
	acked := 20
	if <-inFlight == 200 {
		acked = 21
	}

	// The stored game (read through b) has every acknowledged move, and
	// at most the one in flight besides.
	var stored struct {
		Game  tengen.Game
		Moves []tengen.GameMove
	}
	for deadline := time.Now().Add(20 * time.Second); ; {
		status, err := white.call("GET", fmt.Sprintf("/api/v1/games/%d", g.ID), nil, &stored)
		if err == nil && status == 200 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("GET game on b after the kill: status %d, %v", status, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	n := stored.Game.MoveCount
	if n < acked || n > 21 || len(stored.Moves) != n {
		t.Fatalf("after the kill the game has %d moves (%d listed); %d were acknowledged", n, len(stored.Moves), acked)
	}
	if n == 21 {
		x, y := spacedPoint(20)
		played = append(played, playedMove{kind: tengen.MovePlay, x: x, y: y})
	}
	for i, m := range stored.Moves {
		if m.Seq != i+1 || !sameMove(&m, played[i]) {
			t.Errorf("stored move %d: %+v, want %s", i+1, m, played[i])
		}
	}
	// What the player to move had left at the kill.
	mover, moverC := black, goban.Black
	leftAtKill := time.Duration(last.Clock.Black.MainMs)*time.Millisecond - killed.Sub(*last.Clock.RunningSince)
	if n == 21 {
		mover, moverC = white, goban.White
		leftAtKill = time.Duration(last.Clock.White.MainMs) * time.Millisecond
	}

	// The player to move plays through b until b has taken the game over
	// (a bounded wait: the owner's heartbeat ages out after the instance
	// timeout, and the takeover follows).
	var r moveReply
	var tookOver time.Time
	refused := map[string]int{} // what the attempts before the takeover got
	defer func() { t.Logf("move %d on b before the takeover: %v", n+1, refused) }()
	for deadline := killed.Add(instanceTimeout + 15*time.Second); ; {
		status, reply, err := playOn(mover.at(b.base), n+1)
		if err == nil && status == 200 {
			r, tookOver = reply, time.Now()
			break
		}
		if err != nil {
			refused[err.Error()]++
		} else {
			refused[fmt.Sprint(status)]++
		}
		if time.Now().After(deadline) {
			t.Fatalf("b did not take the game over within %v of the kill: status %d, %v\n%s", deadline.Sub(killed), status, err, b.logText())
		}
		time.Sleep(100 * time.Millisecond)
	}
	// Until the takeover the game has an owner that does not answer: the
	// client must be told to try again (503), not that the server broke.
	if refused["500"] > 0 {
		t.Errorf("%d moves sent to b before the takeover were answered 500 internal (want 503, try again)", refused["500"])
	}
	x, y := spacedPoint(n)
	played = append(played, playedMove{kind: tengen.MovePlay, x: x, y: y})
	down := tookOver.Sub(killed)
	t.Logf("takeover: the first move through b was acknowledged %v after the kill", down.Round(time.Millisecond))

	// The clock: the player to move is charged their thinking time, not
	// the time without an owner. The margin covers the time between the
	// takeover and the move that found it, and must be well below down
	// for the check to mean anything.
	const margin = time.Second
	if down < margin+500*time.Millisecond {
		t.Fatalf("the takeover took %v, too short to tell the downtime from the margin %v: is the instance timeout (%v) respected?", down, margin, instanceTimeout)
	}
	if r.Clock == nil || r.Move.Seq != n+1 {
		t.Fatalf("move %d after the takeover: %+v", n+1, r)
	}
	used := time.Duration(r.Move.TimeUsedMs) * time.Millisecond
	left := time.Duration(side(r.Clock, moverC).MainMs) * time.Millisecond
	t.Logf("move %d after the takeover: charged %v, %v left against %v at the kill", n+1, used, left.Round(time.Millisecond), leftAtKill.Round(time.Millisecond))
	if used > margin || left < leftAtKill-margin {
		t.Errorf("the player to move was charged %v for move %d, %v left after it against %v at the kill (the game had no owner for about %v)",
			used, n+1, left, leftAtKill, down)
	}
	if left > leftAtKill+killed.Sub(*last.Clock.RunningSince)+50*time.Millisecond {
		t.Errorf("the player to move has %v after the takeover, more than the %v at the start of the turn", left, leftAtKill)
	}

	// The game goes on through b to its end: ten more moves, two passes,
	// the count accepted by both.
	wb := white.at(b.base)
	for seq := n + 2; seq <= n+11; seq++ {
		c := black
		if seq%2 == 0 {
			c = wb
		}
		if status, _, err := playOn(c.at(b.base), seq); err != nil || status != 200 {
			t.Fatalf("move %d on b after the takeover: status %d, %v", seq, status, err)
		}
		x, y := spacedPoint(seq - 1)
		played = append(played, playedMove{kind: tengen.MovePlay, x: x, y: y})
	}
	for seq := n + 12; seq <= n+13; seq++ {
		c := black.at(b.base)
		if seq%2 == 0 {
			c = wb
		}
		c.must("POST", movePath, map[string]any{"seq": seq, "kind": "pass"}, nil, 200)
		played = append(played, playedMove{kind: tengen.MovePass})
	}
	var st struct{ State tengen.GameSnapshot }
	wb.must("GET", fmt.Sprintf("/api/v1/games/%d/state", g.ID), nil, &st, 200)
	if st.State.Proposal == nil || st.State.Score == nil {
		t.Fatalf("after two passes: %s, proposal %+v", st.State.Game.Status, st.State.Proposal)
	}
	result := st.State.Score.Result
	for _, c := range []*apiClient{black.at(b.base), wb} {
		c.must("POST", fmt.Sprintf("/api/v1/games/%d/accept", g.ID), map[string]any{"seq": st.State.Proposal.Seq}, nil, 200)
	}
	wb.must("GET", fmt.Sprintf("/api/v1/games/%d", g.ID), nil, &stored, 200)
	if stored.Game.Status != tengen.GameFinished || stored.Game.Result != result || len(stored.Moves) != len(played) {
		t.Fatalf("at the end: %s %q with %d moves, want finished %q with %d", stored.Game.Status, stored.Game.Result, len(stored.Moves), result, len(played))
	}
	for i, m := range stored.Moves {
		if !sameMove(&m, played[i]) {
			t.Errorf("stored move %d: %+v, want %s", i+1, m, played[i])
		}
	}
	spec.waitFinished()
	spec.mu.Lock()
	dials := spec.dials
	spec.mu.Unlock()
	t.Logf("the spectator on b connected %d times", dials)
	checkWatched(t, "spectator on the surviving instance", spec.messages(), played, result, true)
}

// TestClusterAcceptRace has two players accept each of several open
// challenges at the same moment, one through each instance: exactly one
// accept succeeds and exactly one game is created per challenge.
func TestClusterAcceptRace(t *testing.T) {
	srvs := startCluster(t, 2)
	a, b := srvs[0], srvs[1]
	host, p1, p2 := newAPIClient(t, a.base), newAPIClient(t, a.base), newAPIClient(t, b.base)
	host.register("racehost")
	p1.register("racer-a")
	p2.register("racer-b")
	const challenges = 8
	wins := map[string]int{}
	for i := range challenges {
		var ch struct{ Challenge tengen.Challenge }
		host.must("POST", "/api/v1/challenges", map[string]any{"settings": tengen.GameSettings{BoardSize: 9, Ruleset: "chinese",
			Color: tengen.ChooseBlack, TimeControl: clock.AbsoluteTime(10 * time.Minute)}}, &ch, 201)
		path := fmt.Sprintf("/api/v1/challenges/%d/accept", ch.Challenge.ID)
		var games [2]struct{ Game tengen.Game }
		var status [2]int
		var errs [2]error
		start := make(chan struct{})
		var wg sync.WaitGroup
		for j, p := range []*apiClient{p1, p2} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				// Head starts of 0 to 6 ms, to one side or the other, so
				// that the accepts meet at every stage of each other's
				// transaction.
				if d := time.Duration(i%4) * 2 * time.Millisecond; i%8 < 4 == (j == 0) {
					time.Sleep(d)
				}
				status[j], errs[j] = p.call("POST", path, nil, &games[j])
			}()
		}
		close(start)
		wg.Wait()
		if errs[0] != nil || errs[1] != nil {
			t.Fatalf("challenge %d: %v, %v", i, errs[0], errs[1])
		}
		slices.Sort(status[:])
		if status != [2]int{201, 409} {
			t.Errorf("challenge %d: the two accepts answered %v, want one 201 and one 409", i, status)
			continue
		}
		winner := 0
		if games[1].Game.ID != 0 {
			winner = 1
		}
		wins[[]string{"a", "b"}[winner]]++
		var got struct{ Challenge tengen.Challenge }
		host.at(b.base).must("GET", "/api/v1/challenges/"+fmt.Sprint(ch.Challenge.ID), nil, &got, 200)
		if got.Challenge.Status != tengen.ChallengeAccepted || got.Challenge.GameID != games[winner].Game.ID {
			t.Errorf("challenge %d after the race: %s, game %d; the accept created game %d", i, got.Challenge.Status, got.Challenge.GameID, games[winner].Game.ID)
		}
	}
	var list struct {
		Games []tengen.Game
		Total int
	}
	host.must("GET", "/api/v1/games?user=racehost&limit=100", nil, &list, 200)
	perChallenge := map[int64]int{}
	for _, g := range list.Games {
		perChallenge[g.ChallengeID]++
	}
	if list.Total != challenges || len(perChallenge) != challenges {
		t.Errorf("%d games for %d challenges (%d distinct challenges)", list.Total, challenges, len(perChallenge))
	}
	t.Logf("accepts won through each instance: %v", wins)
}

// TestClusterPausedOwner stops the owner of a live game with SIGSTOP (a
// frozen VM, a process swapped out) for longer than the instance timeout,
// so that the other instance takes the game over, and then lets it go on.
// The paused instance still holds the game in memory when it wakes: a
// command that reaches it must be forwarded to the new owner, not judged
// by its stale copy, and its spectator must follow the game again.
func TestClusterPausedOwner(t *testing.T) {
	a, b, black, white := twoPlayers(t, "pause")
	g := newGame(t, black, white.at(a.base), tengen.GameSettings{BoardSize: 19, Ruleset: "japanese", Color: tengen.ChooseBlack,
		TimeControl: clock.AbsoluteTime(10 * time.Minute)})
	spec := watch(t, a.base, g.ID, nil, true)
	movePath := fmt.Sprintf("/api/v1/games/%d/moves", g.ID)
	var played []playedMove
	play := func(c *apiClient, seq int) (int, error) {
		x, y := spacedPoint(seq - 1)
		status, err := c.call("POST", movePath, map[string]any{"seq": seq, "kind": "play", "x": x, "y": y}, nil)
		if err == nil && status == 200 {
			played = append(played, playedMove{kind: tengen.MovePlay, x: x, y: y})
		}
		return status, err
	}
	mover := func(seq int) *apiClient {
		if seq%2 == 1 {
			return black
		}
		return white
	}
	for seq := 1; seq <= 4; seq++ {
		if status, err := play(mover(seq).at(a.base), seq); err != nil || status != 200 {
			t.Fatalf("move %d on a: status %d, %v", seq, status, err)
		}
	}
	if err := a.cmd.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	paused := time.Now()
	resumed := false
	resume := func() {
		if !resumed {
			a.cmd.Process.Signal(syscall.SIGCONT)
			resumed = true
		}
	}
	defer resume()
	// b takes the game over once a's heartbeat is older than the timeout.
	var longest time.Duration // of the attempts, for the log
	for deadline := paused.Add(instanceTimeout + 15*time.Second); ; {
		t0 := time.Now()
		status, err := play(black.at(b.base), 5)
		longest = max(longest, time.Since(t0))
		if err == nil && status == 200 {
			break
		}
		t.Logf("move 5 through b while a is paused: status %d, %v after %v", status, err, time.Since(t0).Round(time.Millisecond))
		if time.Now().After(deadline) {
			t.Fatalf("b did not take the game over within %v of the pause: status %d, %v", deadline.Sub(paused), status, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Logf("b took over %v after the pause; the longest attempt took %v", time.Since(paused).Round(time.Millisecond), longest.Round(time.Millisecond))
	// The next move is waiting at a's door when it wakes, before a's own
	// sweep or the bus can tell it that it lost the game.
	type answer struct {
		status int
		err    error
	}
	first := make(chan answer, 1)
	x, y := spacedPoint(5)
	go func() {
		status, err := white.at(a.base).call("POST", movePath, map[string]any{"seq": 6, "kind": "play", "x": x, "y": y}, nil)
		first <- answer{status, err}
	}()
	time.Sleep(100 * time.Millisecond)
	resume()
	if ans := <-first; ans.err != nil || ans.status != 200 {
		t.Fatalf("move 6 sent to a while it was paused: status %d, %v (refused from its stale copy?)", ans.status, ans.err)
	}
	played = append(played, playedMove{kind: tengen.MovePlay, x: x, y: y})
	// More moves through a.
	for seq := 7; seq <= 9; seq++ {
		if status, err := play(mover(seq).at(a.base), seq); err != nil || status != 200 {
			t.Errorf("move %d on the woken instance a: status %d, %v", seq, status, err)
			break
		}
	}
	// Through b too, and the stored game is what was acknowledged.
	n := len(played)
	if status, err := play(mover(n+1).at(b.base), n+1); err != nil || status != 200 {
		t.Fatalf("move %d on b: status %d, %v", n+1, status, err)
	}
	var stored struct {
		Game  tengen.Game
		Moves []tengen.GameMove
	}
	black.at(b.base).must("GET", fmt.Sprintf("/api/v1/games/%d", g.ID), nil, &stored, 200)
	if len(stored.Moves) != len(played) {
		t.Fatalf("%d moves stored, %d acknowledged", len(stored.Moves), len(played))
	}
	for i, m := range stored.Moves {
		if !sameMove(&m, played[i]) {
			t.Errorf("stored move %d: %+v, want %s", i+1, m, played[i])
		}
	}
	// The spectator on a sees the game go on (resigned through a).
	black.at(a.base).must("POST", movePath, map[string]any{"kind": "resign"}, nil, 200)
	played = append(played, playedMove{kind: tengen.MoveResign})
	spec.waitFinished()
	checkWatched(t, "spectator on the paused instance", spec.messages(), played, "W+R", true)
}

// TestClusterGracefulStop stops the owner of a live game with SIGTERM: it
// releases its games as it shuts down, so the other instance goes on with
// the game at once, well before the instance timeout.
func TestClusterGracefulStop(t *testing.T) {
	a, b, black, white := twoPlayers(t, "stop")
	g := newGame(t, black, white.at(a.base), tengen.GameSettings{BoardSize: 19, Ruleset: "japanese", Color: tengen.ChooseBlack,
		TimeControl: clock.AbsoluteTime(10 * time.Minute)})
	movePath := fmt.Sprintf("/api/v1/games/%d/moves", g.ID)
	move := func(c *apiClient, seq int) (int, error) {
		x, y := spacedPoint(seq - 1)
		return c.call("POST", movePath, map[string]any{"seq": seq, "kind": "play", "x": x, "y": y}, nil)
	}
	for seq, c := range []*apiClient{black, white.at(a.base)} {
		if status, err := move(c, seq+1); err != nil || status != 200 {
			t.Fatalf("move %d on a: status %d, %v", seq+1, status, err)
		}
	}
	if err := a.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-a.done:
	case <-time.After(20 * time.Second):
		t.Fatalf("a did not stop within 20 s of SIGTERM")
	}
	stopped := time.Now()
	for deadline := stopped.Add(instanceTimeout + 15*time.Second); ; {
		status, err := move(black.at(b.base), 3)
		if err == nil && status == 200 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("b did not go on with the game: status %d, %v", status, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	// The released game needs no timeout: b plays it at once (a sweep of
	// about a second at most).
	if d := time.Since(stopped); d >= instanceTimeout-time.Second {
		t.Errorf("b went on %v after a stopped, as after a death (timeout %v): the game was not released", d.Round(time.Millisecond), instanceTimeout)
	} else {
		t.Logf("b went on %v after a stopped", d.Round(time.Millisecond))
	}
}

// TestClusterStartTogether starts three instances at the same moment on a
// new database, as a deployment's machines do after a reboot: all must
// come up (they migrate once and create the built-in accounts once).
func TestClusterStartTogether(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the server binary")
	}
	db := pgtest.URL(t)
	bin := buildTengen(t)
	var srvs []*server
	for range 3 {
		addr := freeAddr(t)
		srvs = append(srvs, launchServer(t, bin, db, addr, clusterFlags(addr)...))
	}
	for _, s := range srvs {
		if err := s.waitHealthy(30 * time.Second); err != nil {
			t.Error(err)
		}
	}
}
