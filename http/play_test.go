package http_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	nethttp "net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"golang.org/x/crypto/bcrypt"

	"tengen"
	"tengen/clock"
	"tengen/goban"
	"tengen/internal/app"
	"tengen/postgres/pgtest"
)

// newPlayEnv is newEnv with a play service: the whole server.
func newPlayEnv(t *testing.T) *env { return newPlayEnvWith(t, nil) }

// newPlayEnvWith is newPlayEnv with the whole server as app.Open wires it;
// configure may change the configuration first.
func newPlayEnvWith(t *testing.T, configure func(*app.Config)) *env {
	t.Helper()
	cfg := app.Config{DBPath: filepath.Join(t.TempDir(), "tengen.db"), Synchronous: "NORMAL", BaseURL: "http://127.0.0.1",
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), BcryptCost: bcrypt.MinCost}
	if configure != nil {
		configure(&cfg)
	}
	a, err := app.Open(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := a.Close(context.Background()); err != nil {
			t.Error(err)
		}
	})
	srv := httptest.NewServer(a.Handler())
	t.Cleanup(srv.Close)
	return &env{t: t, srv: srv, db: a.DB}
}

// newPlayGame registers two players and returns their clients and a 9×9 game
// with black as Black.
func newPlayGame(e *env, set tengen.GameSettings) (black, white *client, id int64) {
	black, white = e.client(), e.client()
	black.register("blacky")
	white.register("whitey")
	var ch struct{ Challenge *tengen.Challenge }
	black.api("POST", "/api/v1/challenges", map[string]any{"settings": set}, 201, &ch)
	var g struct{ Game *tengen.Game }
	white.api("POST", fmt.Sprintf("/api/v1/challenges/%d/accept", ch.Challenge.ID), nil, 201, &g)
	return black, white, g.Game.ID
}

type stateOut struct {
	State *tengen.GameSnapshot
}

// onBothBackends runs fn with a whole server on SQLite and again on
// PostgreSQL (skipped without one, see package pgtest).
func onBothBackends(t *testing.T, fn func(t *testing.T, e *env)) {
	t.Run("sqlite", func(t *testing.T) { fn(t, newPlayEnv(t)) })
	t.Run("postgres", func(t *testing.T) {
		url := pgtest.URL(t)
		fn(t, newPlayEnvWith(t, func(c *app.Config) { c.DBPath = url }))
	})
}

func TestPlayAPI(t *testing.T) { onBothBackends(t, testPlayAPI) }

func testPlayAPI(t *testing.T, e *env) {
	set := settings9()
	set.TimeControl = clock.TimeControl{Kind: clock.None}
	black, white, id := newPlayGame(e, set)
	carol := e.client()
	carol.register("carol")
	anon := e.client()
	base := fmt.Sprintf("/api/v1/games/%d", id)
	move := func(seq int, kind string, x, y int) map[string]any {
		return map[string]any{"seq": seq, "kind": kind, "x": x, "y": y}
	}

	var st stateOut
	anon.api("GET", base+"/state", nil, 200, &st)
	if st.State.You != goban.Empty || st.State.Game.Status != tengen.GamePlaying || len(st.State.Board) != 9 {
		t.Fatalf("anonymous state: %+v", st.State)
	}
	var mv moveOut
	black.api("POST", base+"/moves", move(1, "play", 2, 2), 200, &mv)
	if mv.Move == nil || mv.Move.Seq != 1 || mv.Move.X != 2 || mv.Move.Color != goban.Black || mv.Game.MoveCount != 1 || mv.Game.ToMove != goban.White {
		t.Errorf("answer to the first move: %+v", mv)
	}
	black.api("GET", base+"/state", nil, 200, &st)
	if st.State.You != goban.Black || st.State.Board[2][2] != 'B' || st.State.Game.MoveCount != 1 {
		t.Errorf("after the first move: you %q board %q", st.State.You, st.State.Board[2])
	}
	black.api("POST", base+"/moves", move(1, "play", 2, 2), 200, &mv) // duplicate
	if mv.Game.MoveCount != 1 || mv.Move.Seq != 1 {
		t.Errorf("duplicate applied: move count %d", mv.Game.MoveCount)
	}
	black.apiError("POST", base+"/moves", move(2, "play", 3, 3), 403, "forbidden")
	carol.apiError("POST", base+"/moves", move(2, "play", 3, 3), 403, "forbidden")
	anon.apiError("POST", base+"/moves", move(2, "play", 3, 3), 401, "unauthorized")
	white.apiError("POST", base+"/moves", move(5, "play", 3, 3), 409, "conflict")
	white.apiError("POST", base+"/moves", `{"seq": 2, "kind": "play", "x": 3`, 400, "invalid")
	white.apiError("POST", base+"/moves", `{"seq": 2, "kind": "play", "x": 3, "y": 3, "z": 1}`, 400, "invalid")
	resp, data := white.do("POST", base+"/moves", move(2, "play", 2, 2))
	if resp.StatusCode != 400 || !strings.Contains(string(data), "Illegal move: the point is occupied.") {
		t.Errorf("occupied point: %d %s", resp.StatusCode, data)
	}
	white.apiError("POST", "/api/v1/games/999/moves", move(2, "play", 3, 3), 404, "not_found")
	white.apiError("POST", base+"/accept", map[string]int{"seq": 1}, 409, "conflict")

	white.api("POST", base+"/moves", map[string]any{"seq": 2, "kind": "pass"}, 200, nil)
	black.api("POST", base+"/moves", map[string]any{"seq": 3, "kind": "pass"}, 200, &mv)
	if mv.Game.Status != tengen.GameScoring || mv.Move.Kind != tengen.MovePass {
		t.Fatalf("answer to the second pass: %+v", mv)
	}
	black.api("GET", base+"/state", nil, 200, &st)
	if st.State.Game.Status != tengen.GameScoring || st.State.Proposal == nil || st.State.Score == nil {
		t.Fatalf("after two passes: %+v", st.State.Game)
	}
	seq := st.State.Proposal.Seq
	carol.apiError("POST", base+"/toggle", map[string]int{"x": 2, "y": 2}, 403, "forbidden")
	white.apiError("POST", base+"/toggle", map[string]int{"x": 2}, 400, "invalid")
	white.api("POST", base+"/toggle", map[string]int{"x": 2, "y": 2}, 200, &st)
	if st.State.Proposal.Seq != seq+1 {
		t.Errorf("toggle: proposal %d, want %d", st.State.Proposal.Seq, seq+1)
	}
	black.apiError("POST", base+"/accept", map[string]int{"seq": seq}, 409, "conflict")
	black.api("POST", base+"/resume", map[string]any{}, 200, &st)
	if st.State.Game.Status != tengen.GamePlaying || st.State.Game.ToMove != goban.White {
		t.Errorf("after resume: %s, %s to move", st.State.Game.Status, st.State.Game.ToMove)
	}
	white.api("POST", base+"/moves", map[string]any{"seq": 4, "kind": "pass"}, 200, nil)
	black.api("POST", base+"/moves", map[string]any{"seq": 5, "kind": "pass"}, 200, nil)
	black.api("GET", base+"/state", nil, 200, &st)
	seq = st.State.Proposal.Seq
	black.api("POST", base+"/accept", map[string]int{"seq": seq}, 200, nil)
	white.api("POST", base+"/accept", map[string]int{"seq": seq}, 200, &st)
	// One black stone, no dead stones: Black owns the board but komi 6.5.
	if st.State.Game.Status != tengen.GameFinished || st.State.Game.Result != "B+73.5" {
		t.Errorf("final: %s %q (score %+v)", st.State.Game.Status, st.State.Game.Result, st.State.Score)
	}

	for _, path := range []string{base + "/sgf", fmt.Sprintf("/games/%d/sgf", id)} {
		resp, data := anon.do("GET", path, nil)
		if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/x-go-sgf") ||
			!strings.Contains(resp.Header.Get("Content-Disposition"), fmt.Sprintf("tengen-%d.sgf", id)) {
			t.Errorf("GET %s: %d %v", path, resp.StatusCode, resp.Header)
		}
		for _, want := range []string{"RE[B+73.5]", "PB[blacky]", "PW[whitey]", "SZ[9]", "B[cc]"} {
			if !strings.Contains(string(data), want) {
				t.Errorf("GET %s: no %s in %s", path, want, data)
			}
		}
	}
	anon.apiError("GET", "/api/v1/games/999/sgf", nil, 404, "not_found")
}

// wsConn is a test WebSocket client.
type wsConn struct {
	t *testing.T
	c *websocket.Conn
}

// dialWS opens the game WebSocket with c's cookies.
func (c *client) dialWS(id int64, header ...string) (*wsConn, *nethttp.Response, error) {
	return c.dialPath(fmt.Sprintf("/api/v1/games/%d/ws", id), header...)
}

// dialPath opens a WebSocket on path with c's cookies.
func (c *client) dialPath(path string, header ...string) (*wsConn, *nethttp.Response, error) {
	h := nethttp.Header{}
	u := c.e.srv.URL + path
	if jar, ok := c.c.Jar.(*cookiejar.Jar); ok {
		req, _ := nethttp.NewRequest("GET", u, nil)
		for _, ck := range jar.Cookies(req.URL) {
			req.AddCookie(ck)
		}
		if v := req.Header.Get("Cookie"); v != "" {
			h.Set("Cookie", v)
		}
	}
	for i := 0; i+1 < len(header); i += 2 {
		h.Set(header[i], header[i+1])
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	conn, resp, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(u, "http"), &websocket.DialOptions{HTTPHeader: h})
	if err != nil {
		return nil, resp, err
	}
	w := &wsConn{t: c.e.t, c: conn}
	c.e.t.Cleanup(func() { conn.CloseNow() })
	return w, resp, nil
}

func (c *client) mustWS(id int64, header ...string) *wsConn {
	c.e.t.Helper()
	w, _, err := c.dialWS(id, header...)
	if err != nil {
		c.e.t.Fatal(err)
	}
	return w
}

// wsMsg is any server message.
type wsMsg struct {
	Type     string
	ID       string
	Code     string
	Message  string
	State    *tengen.GameSnapshot
	Move     *tengen.GameMove
	Game     *tengen.Game
	Board    []string
	Proposal *tengen.Proposal
	Color    goban.Color
	Seq      int
	Takeback *tengen.TakebackRequest
}

func (w *wsConn) send(v any) {
	w.t.Helper()
	var data []byte
	switch v := v.(type) {
	case string:
		data = []byte(v)
	default:
		data, _ = json.Marshal(v)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := w.c.Write(ctx, websocket.MessageText, data); err != nil {
		w.t.Fatal(err)
	}
}

func (w *wsConn) read() (wsMsg, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, data, err := w.c.Read(ctx)
	if err != nil {
		return wsMsg{}, err
	}
	var m wsMsg
	if err := json.Unmarshal(data, &m); err != nil {
		w.t.Fatalf("server sent %s: %v", data, err)
	}
	return m, nil
}

// expect reads messages and checks their types in order.
func (w *wsConn) expect(types ...string) []wsMsg {
	w.t.Helper()
	var out []wsMsg
	for _, typ := range types {
		m, err := w.read()
		if err != nil {
			w.t.Fatalf("waiting for %s: %v", typ, err)
		}
		if m.Type != typ {
			w.t.Fatalf("got %s message %+v, want %s", m.Type, m, typ)
		}
		out = append(out, m)
	}
	return out
}

func TestWebSocket(t *testing.T) { onBothBackends(t, testWebSocket) }

func testWebSocket(t *testing.T, e *env) {
	black, white, id := newPlayGame(e, settings9())
	spectator := e.client()

	bw, ww, sw := black.mustWS(id), white.mustWS(id, "Accept-Language", "de"), spectator.mustWS(id)
	for _, w := range []*wsConn{bw, ww, sw} {
		first := w.expect("game")[0]
		if first.State == nil || first.State.Game.ID != id || first.State.Clock == nil {
			t.Fatalf("first message: %+v", first)
		}
	}

	bw.send(map[string]any{"type": "move", "id": "m1", "seq": 1, "x": 4, "y": 4})
	got := bw.expect("move", "ok")
	if got[0].Move.Seq != 1 || got[0].Board[4][4] != 'B' || got[1].ID != "m1" {
		t.Errorf("mover got %+v", got)
	}
	for _, w := range []*wsConn{ww, sw} {
		if m := w.expect("move")[0]; m.Move.X != 4 || m.Game.ToMove != goban.White {
			t.Errorf("watcher got %+v", m)
		}
	}

	// Refusals answer the sender only, with code and reason.
	ww.send(map[string]any{"type": "move", "id": "m2", "seq": 2, "x": 4, "y": 4})
	if m := ww.expect("error")[0]; m.ID != "m2" || m.Code != "invalid" || m.Message != "Unzulässiger Zug: Der Punkt ist besetzt." {
		t.Errorf("illegal move: %+v", m)
	}
	sw.send(map[string]any{"type": "move", "id": "s1", "seq": 2, "x": 3, "y": 3})
	if m := sw.expect("error")[0]; m.Code != "unauthorized" {
		t.Errorf("anonymous move: %+v", m)
	}
	bw.send(map[string]any{"type": "move", "id": "m3", "seq": 2, "x": 3, "y": 3})
	if m := bw.expect("error")[0]; m.Code != "forbidden" || m.Message != "It is not your turn." {
		t.Errorf("out of turn: %+v", m)
	}
	bw.send(`{"type": "move", "id": "x"`)
	if m := bw.expect("error")[0]; m.Code != "invalid" {
		t.Errorf("malformed: %+v", m)
	}
	bw.send(map[string]any{"type": "dance", "id": "d"})
	if m := bw.expect("error")[0]; m.Code != "invalid" || m.ID != "d" {
		t.Errorf("unknown type: %+v", m)
	}
	bw.send(map[string]any{"type": "move", "id": "m4", "x": 3, "y": 3})
	if m := bw.expect("error")[0]; m.Code != "invalid" {
		t.Errorf("move without seq: %+v", m)
	}
	bw.send(map[string]any{"type": "ping", "id": "p"})
	bw.expect("pong")
	bw.send(map[string]any{"type": "sync", "id": "s"})
	if m := bw.expect("game", "ok"); m[0].State.Game.MoveCount != 1 {
		t.Errorf("sync: %+v", m[0].State.Game)
	}

	// Two passes: the scoring phase, with the proposal in the phase event.
	ww.send(map[string]any{"type": "pass", "id": "p2", "seq": 2})
	ww.expect("move", "ok")
	bw.send(map[string]any{"type": "pass", "id": "p3", "seq": 3})
	ph := bw.expect("move", "move", "phase", "ok")[2]
	if ph.Game.Status != tengen.GameScoring || ph.Proposal == nil {
		t.Fatalf("phase: %+v", ph)
	}
	sw.expect("move", "move", "phase")
	ww.expect("move", "phase")
	seq := ph.Proposal.Seq
	ww.send(map[string]any{"type": "toggle", "id": "t", "x": 4, "y": 4})
	ww.expect("proposal", "ok")
	bw.send(map[string]any{"type": "accept", "id": "a", "seq": seq})
	if m := bw.expect("proposal", "error")[1]; m.Code != "conflict" {
		t.Errorf("stale accept: %+v", m)
	}
	bw.send(map[string]any{"type": "accept", "id": "a", "seq": seq + 1})
	bw.expect("accepted", "ok")
	ww.send(map[string]any{"type": "accept", "id": "a", "seq": seq + 1})
	// The black stone is dead, the board is empty: nobody has territory;
	// White has the prisoner and komi.
	m := ww.expect("accepted", "accepted", "phase", "ok")[2]
	if m.Game.Status != tengen.GameFinished || m.Game.Result != "W+7.5" {
		t.Errorf("end: %+v", m.Game)
	}

	// Oversized messages close the connection.
	bw.send(`{"type": "ping", "id": "` + strings.Repeat("x", 5000) + `"}`)
	for {
		_, err := bw.read()
		if err != nil {
			if websocket.CloseStatus(err) != websocket.StatusMessageTooBig {
				t.Errorf("oversized message: %v", err)
			}
			break
		}
	}
}

func TestWebSocketRefusals(t *testing.T) {
	e := newPlayEnv(t)
	black, _, id := newPlayGame(e, settings9())
	_, resp, err := black.dialWS(id, "Origin", "http://evil.example")
	if err == nil || resp == nil || resp.StatusCode != 403 {
		t.Errorf("cross-origin upgrade: %v, %v", resp, err)
	}
	_, resp, err = black.dialWS(999)
	if err == nil || resp == nil || resp.StatusCode != 404 {
		t.Errorf("unknown game: %v, %v", resp, err)
	}
	// Malformed messages beyond the limit close the connection.
	w := black.mustWS(id, "Origin", "http://127.0.0.1")
	w.expect("game")
	for range 25 {
		w.send("{")
	}
	var closeErr error
	for closeErr == nil {
		_, closeErr = w.read()
	}
	if websocket.CloseStatus(closeErr) != websocket.StatusPolicyViolation {
		t.Errorf("flood of malformed messages: %v", closeErr)
	}
	var ce websocket.CloseError
	if !errors.As(closeErr, &ce) {
		t.Errorf("no close frame: %v", closeErr)
	}
}

// TestShutdownClosesWebSockets checks that closing the server (its Shutdown
// comes first) ends open game WebSockets with "going away" and waits for
// them.
func TestShutdownClosesWebSockets(t *testing.T) {
	a, err := app.Open(context.Background(), app.Config{DBPath: filepath.Join(t.TempDir(), "tengen.db"), Synchronous: "NORMAL",
		Addr: "127.0.0.1:0", Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), BcryptCost: bcrypt.MinCost})
	if err != nil {
		t.Fatal(err)
	}
	e := &env{t: t, srv: &httptest.Server{URL: "http://" + a.Addr().String()}, db: a.DB}
	_, _, id := newPlayGame(e, settings9())
	w := e.client().mustWS(id)
	w.expect("game")
	// The client reads while the server shuts down, as a browser does, so
	// the close handshake completes at once.
	readErr := make(chan error, 1)
	go func() {
		_, _, err := w.c.Read(context.Background())
		readErr <- err
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := a.Close(ctx); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if err := <-readErr; websocket.CloseStatus(err) != websocket.StatusGoingAway {
		t.Errorf("after Close the WebSocket read %v, want going away", err)
	}
}

// TestRulesAPI: the JSON commands of the rules the seeds name — free
// handicap stones placed at once, and an answer to a repetition offer,
// which is refused while there is none.
func TestRulesAPI(t *testing.T) {
	e := newPlayEnv(t)
	set := settings9()
	set.Ruleset, set.Handicap, set.FreeHandicap = "chinese", 2, true
	set.TimeControl = clock.TimeControl{Kind: clock.None}
	black, white, id := newPlayGame(e, set)
	base := fmt.Sprintf("/api/v1/games/%d", id)
	two := map[string]any{"seq": 1, "points": [][2]int{{2, 2}, {6, 6}}}
	white.apiError("POST", base+"/handicap", two, 403, "forbidden")
	black.apiError("POST", base+"/handicap", map[string]any{"seq": 1, "points": [][2]int{{2, 2}}}, 400, "invalid")
	var st stateOut
	black.api("POST", base+"/handicap", two, 200, &st)
	if st.State.Game.MoveCount != 2 || st.State.Game.ToMove != goban.White || st.State.Board[2][2] != 'B' || st.State.Board[6][6] != 'B' {
		t.Fatalf("after placing: %d moves, %s to move, board %q", st.State.Game.MoveCount, st.State.Game.ToMove, st.State.Board)
	}
	black.api("POST", base+"/handicap", two, 200, &st) // a repeated submission
	if st.State.Game.MoveCount != 2 {
		t.Errorf("repeated placement applied: move count %d", st.State.Game.MoveCount)
	}
	resp, data := white.do("POST", base+"/repetition", map[string]any{"seq": 2, "agree": true})
	if resp.StatusCode != 409 || !strings.Contains(string(data), "There is no repetition to agree on.") {
		t.Errorf("agreeing without a repetition: %d %s", resp.StatusCode, data)
	}
	white.apiError("POST", base+"/repetition", map[string]any{"seq": 2, "agree": false}, 409, "conflict")
}
