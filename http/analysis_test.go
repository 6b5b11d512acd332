package http_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	nethttp "net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"tengen"
	"tengen/clock"
	"tengen/engine"
	"tengen/internal/app"
)

// sseEvent is one server-sent event.
type sseEvent struct {
	Name string
	Data string
}

// readEvents splits a text/event-stream body into events.
func readEvents(t *testing.T, body []byte) []sseEvent {
	t.Helper()
	var out []sseEvent
	var ev sseEvent
	sc := bufio.NewScanner(bytes.NewReader(body))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if ev.Name != "" {
				out = append(out, ev)
			}
			ev = sseEvent{}
		case strings.HasPrefix(line, "event: "):
			ev.Name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			ev.Data += strings.TrimPrefix(line, "data: ")
		}
	}
	return out
}

func newAnalysisEnv(t *testing.T) *env {
	return newPlayEnvWith(t, func(c *app.Config) { c.Analysis = &engine.Options{Threads: 1, Seed: 1} })
}

func TestGameAnalysisAPI(t *testing.T) {
	e := newAnalysisEnv(t)
	set := settings9()
	set.TimeControl = clock.TimeControl{Kind: clock.None}
	set.Rated = true
	black, white, id := newPlayGame(e, set)
	carol := e.client()
	carol.register("carol")
	anon := e.client()
	base := fmt.Sprintf("/api/v1/games/%d", id)
	move := func(c *client, seq, x, y int) {
		c.api("POST", base+"/moves", map[string]any{"seq": seq, "kind": "play", "x": x, "y": y}, 200, nil)
	}
	move(black, 1, 2, 2)
	move(white, 2, 6, 6)
	move(black, 3, 2, 6)

	// While the rated game runs, its players get no analysis; spectators
	// do.
	for _, c := range []*client{black, white} {
		resp, data := c.do("GET", base+"/analysis?playouts=10", nil)
		if resp.StatusCode != 403 || !strings.Contains(string(data), "not available to the players of a rated game") {
			t.Errorf("player during a rated game: %d %s", resp.StatusCode, data)
		}
		c.apiError("GET", base+"/analysis/2?playouts=10", nil, 403, "forbidden")
	}
	// The refusal is in German for a German page.
	resp, data := black.do("GET", base+"/analysis?playouts=10", nil, "Accept-Language", "de")
	if resp.StatusCode != 403 || !strings.Contains(string(data), "Partie") {
		t.Errorf("German refusal: %d %s", resp.StatusCode, data)
	}
	anon.apiError("GET", base+"/analysis?playouts=10", nil, 401, "unauthorized")
	resp, data = carol.do("GET", base+"/analysis?playouts=10", nil)
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		t.Fatalf("spectator: %d %s %s", resp.StatusCode, resp.Header.Get("Content-Type"), data)
	}
	checkStream(t, readEvents(t, data), 4)

	// Bad input: a clear 400, and the game is as it was.
	carol.apiError("GET", base+"/analysis?playouts=lots", nil, 400, "invalid")
	carol.apiError("GET", base+"/analysis?playouts=5", nil, 400, "invalid")
	carol.apiError("GET", base+"/analysis/9?playouts=10", nil, 400, "invalid")
	carol.apiError("GET", base+"/analysis/x?playouts=10", nil, 400, "invalid")
	carol.apiError("GET", "/api/v1/games/999/analysis", nil, 404, "not_found")
	var st stateOut
	carol.api("GET", base+"/state", nil, 200, &st)
	if st.State.Game.MoveCount != 3 || st.State.Game.Status != tengen.GamePlaying {
		t.Fatalf("the game changed: %+v", st.State.Game)
	}

	// After the game, its players may analyse it too; the positions the
	// stream searched come from the cache.
	white.api("POST", base+"/moves", map[string]any{"seq": 4, "kind": "resign"}, 200, nil)
	var one struct{ Analysis *tengen.PositionAnalysis }
	black.api("GET", base+"/analysis/3?playouts=10", nil, 200, &one)
	a := one.Analysis
	if a == nil || a.Move != 3 || !a.Cached || len(a.Best) == 0 || len(a.Ownership) != 81 || len(a.Best[0].PV) == 0 {
		t.Fatalf("position 3: %+v", a)
	}
	resp, data = black.do("GET", base+"/analysis?playouts=10", nil)
	if resp.StatusCode != 200 {
		t.Fatalf("player after the game: %d %s", resp.StatusCode, data)
	}
	checkStream(t, readEvents(t, data), 4)
}

// checkStream checks a whole game's events: start, one position per
// move with growing progress, done.
func checkStream(t *testing.T, evs []sseEvent, total int) {
	t.Helper()
	if len(evs) != total+2 || evs[0].Name != "start" || evs[len(evs)-1].Name != "done" {
		t.Fatalf("events: %+v", evs)
	}
	seen := map[int]bool{}
	for i, ev := range evs[1 : len(evs)-1] {
		var p struct {
			Position    *tengen.PositionAnalysis
			Done, Total int
		}
		if ev.Name != "position" || json.Unmarshal([]byte(ev.Data), &p) != nil || p.Position == nil {
			t.Fatalf("event %d: %+v", i, ev)
		}
		if p.Done != i+1 || p.Total != total || p.Position.Best != nil || p.Position.Winrate < 0 || p.Position.Winrate > 1 {
			t.Errorf("event %d: %s", i, ev.Data)
		}
		seen[p.Position.Move] = true
	}
	if len(seen) != total {
		t.Errorf("positions reported: %v", seen)
	}
}

func TestPositionAnalysisAPI(t *testing.T) {
	e := newAnalysisEnv(t)
	u := e.client()
	u.register("reviewer")
	body := map[string]any{"boardSize": 9, "ruleset": "chinese", "komi": 7, "playouts": 20,
		"setup": []map[string]any{{"color": "black", "x": 2, "y": 2}, {"color": "white", "x": 6, "y": 6}},
		"moves": []map[string]any{{"color": "black", "x": 4, "y": 4}, {"color": "white", "kind": "pass"}}}
	var one struct{ Analysis *tengen.PositionAnalysis }
	u.api("POST", "/api/v1/analysis", body, 200, &one)
	if a := one.Analysis; a == nil || a.Move != 2 || a.ToMove.String() != "black" || len(a.Best) == 0 || len(a.Ownership) != 81 {
		t.Fatalf("analysis: %+v", one.Analysis)
	}
	body["move"] = 0
	u.api("POST", "/api/v1/analysis", body, 200, &one)
	if a := one.Analysis; a.Move != 0 || a.ToMove.String() != "black" {
		t.Errorf("start position: move %d, %v to move", a.Move, a.ToMove)
	}
	delete(body, "move")
	resp, data := u.do("POST", "/api/v1/analysis", body, "Accept", "text/event-stream")
	if resp.StatusCode != 200 {
		t.Fatalf("stream: %d %s", resp.StatusCode, data)
	}
	checkStream(t, readEvents(t, data), 3)

	bad := []struct {
		name, body, want string
	}{
		{"size", `{"boardSize": 3, "ruleset": "chinese", "komi": 7}`, "Board size must be between"},
		{"ruleset", `{"boardSize": 9, "ruleset": "go", "komi": 7}`, "Unknown ruleset"},
		{"komi", `{"boardSize": 9, "ruleset": "chinese", "komi": 7.25}`, "Komi must be a multiple of 0.5"},
		{"playouts", `{"boardSize": 9, "ruleset": "chinese", "komi": 7, "playouts": 5}`, "Playouts must be between"},
		{"off board", `{"boardSize": 9, "ruleset": "chinese", "komi": 7, "moves": [{"color": "black", "x": 9, "y": 0}]}`, "Move 1 is off the board."},
		{"colour", `{"boardSize": 9, "ruleset": "chinese", "komi": 7, "moves": [{"color": "red", "x": 1, "y": 0}]}`, "Malformed JSON"},
		{"no colour", `{"boardSize": 9, "ruleset": "chinese", "komi": 7, "moves": [{"x": 1, "y": 0}]}`, "Move 1: the colour must be black or white."},
		{"setup", `{"boardSize": 9, "ruleset": "chinese", "komi": 7, "setup": [{"color": "white", "x": 1, "y": 10}]}`, "Setup stone 1 is off the board."},
		{"kind", `{"boardSize": 9, "ruleset": "chinese", "komi": 7, "moves": [{"color": "white", "kind": "resign"}]}`, "unknown move kind"},
		{"move", `{"boardSize": 9, "ruleset": "chinese", "komi": 7, "move": 3}`, "Move 3 is not one of the positions"},
		{"field", `{"boardSize": 9, "ruleset": "chinese", "komi": 7, "handicap": 2}`, "Malformed JSON"},
		{"syntax", `{"boardSize": 9,`, "Malformed JSON"},
	}
	for _, c := range bad {
		resp, data := u.do("POST", "/api/v1/analysis", c.body)
		if resp.StatusCode != 400 || !strings.Contains(string(data), c.want) {
			t.Errorf("%s: %d %s, want 400 with %q", c.name, resp.StatusCode, data, c.want)
		}
		if c.name == "move" {
			c.want = "A stream analyses every position"
		}
		resp, data = u.do("POST", "/api/v1/analysis", c.body, "Accept", "text/event-stream")
		if resp.StatusCode != 400 || !strings.Contains(string(data), c.want) {
			t.Errorf("%s as a stream: %d %s, want 400 with %q", c.name, resp.StatusCode, data, c.want)
		}
	}
	e.client().apiError("POST", "/api/v1/analysis", body, 401, "unauthorized")
}

// TestAnalysisNotOffered checks the answer of a server without analysis.
func TestAnalysisNotOffered(t *testing.T) {
	e := newPlayEnv(t)
	u := e.client()
	u.register("reviewer")
	u.apiError("POST", "/api/v1/analysis", `{"boardSize": 9, "ruleset": "chinese", "komi": 7}`, 404, "not_found")
}

// TestAnalysisStopsWhenClientLeaves checks that closing the stream
// cancels the searches nobody waits for any more, and that shutting the
// server down ends a running stream at once.
func TestAnalysisStopsWhenClientLeaves(t *testing.T) {
	cfg := app.Config{DBPath: filepath.Join(t.TempDir(), "tengen.db"), Synchronous: "NORMAL", BaseURL: "http://127.0.0.1",
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), BcryptCost: bcrypt.MinCost,
		Analysis: &engine.Options{Threads: 1}, Addr: "127.0.0.1:0"}
	a, err := app.Open(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	// The server listens itself, so that its Shutdown waits for requests
	// in flight as in production.
	srv := &httptest.Server{URL: "http://" + a.Addr().String()}
	e := &env{t: t, srv: srv}
	u := e.client()
	u.register("reviewer")
	// 19×19 at the most playouts: far longer than the test waits.
	body := `{"boardSize": 19, "ruleset": "chinese", "komi": 7, "playouts": 20000,
		"moves": [{"color": "black", "x": 3, "y": 3}, {"color": "white", "x": 15, "y": 15}, {"color": "black", "x": 15, "y": 3}]}`
	open := func() (*nethttp.Response, *bufio.Reader) {
		req, _ := nethttp.NewRequest("POST", srv.URL+"/api/v1/analysis", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "text/event-stream")
		resp, err := u.c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		rd := bufio.NewReader(resp.Body)
		if line, err := rd.ReadString('\n'); err != nil || line != "event: start\n" {
			t.Fatalf("first line %q, %v", line, err)
		}
		return resp, rd
	}
	waitLoad := func(what string, cond func(running int) bool) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for {
			running, _ := a.Analysis.Load()
			if cond(running) {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: %d searches running", what, running)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	resp, _ := open()
	waitLoad("the searches start", func(n int) bool { return n > 0 })
	resp.Body.Close()
	waitLoad("the client left", func(n int) bool { return n == 0 })
	// The searches stop within milliseconds and give their slots back.
	waitLoad("the pool empties", func(int) bool { _, b, w := a.Pool.Load(); return b == 0 && w == 0 })

	// A stream that runs when the server shuts down ends with it.
	resp, rd := open()
	defer resp.Body.Close()
	waitLoad("the searches start again", func(n int) bool { return n > 0 })
	start := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := a.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("Close took %v with a stream open", d)
	}
	rest, _ := io.ReadAll(rd)
	if strings.Contains(string(rest), "event: done") {
		t.Errorf("the stream finished instead of stopping: %s", rest)
	}
}
