package app_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	nethttp "net/http"
	"net/http/cookiejar"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"golang.org/x/crypto/bcrypt"

	"tengen"
	"tengen/engine"
	"tengen/internal/app"
)

// scrape fetches /metrics from addr and returns every sample by its name
// with labels as written, e.g. `tengen_moves_committed_total{kind="play"}`.
func scrape(t *testing.T, addr string) map[string]float64 {
	t.Helper()
	resp, err := nethttp.Get("http://" + addr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain; version=0.0.4") {
		t.Fatalf("/metrics: %s, %s", resp.Status, resp.Header.Get("Content-Type"))
	}
	samples := map[string]float64{}
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		v, err := strconv.ParseFloat(line[i+1:], 64)
		if err != nil {
			t.Fatalf("sample %q: %v", line, err)
		}
		samples[line[:i]] = v
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return samples
}

// user is an account of the metrics test, talking JSON to the API.
type user struct {
	t    *testing.T
	c    *nethttp.Client
	base string
}

func (u *user) must(method, path string, body, out any, want int) {
	u.t.Helper()
	data, _ := json.Marshal(body)
	req, err := nethttp.NewRequest(method, u.base+path, bytes.NewReader(data))
	if err != nil {
		u.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := u.c.Do(req)
	if err != nil {
		u.t.Fatal(err)
	}
	defer resp.Body.Close()
	answer, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != want {
		u.t.Fatalf("%s %s: %s %s; want %d", method, path, resp.Status, answer, want)
	}
	if out != nil {
		if err := json.Unmarshal(answer, out); err != nil {
			u.t.Fatal(err)
		}
	}
}

// TestMetrics plays a game through the API with a watcher on the game's
// WebSocket and finds it in the metrics: requests by route and status,
// latencies, moves, group commits, the open socket, the live game and the
// Go runtime's and the process's own metrics. The public site does not
// serve /metrics.
func TestMetrics(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tengen.db")
	a, err := app.Open(context.Background(), app.Config{DBPath: path, Addr: "127.0.0.1:0", MetricsAddr: "127.0.0.1:0",
		Logger: quiet(), BcryptCost: bcrypt.MinCost, Synchronous: "NORMAL"})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := a.Close(ctx); err != nil {
			t.Error(err)
		}
	}()
	base, maddr := "http://"+a.Addr().String(), a.MetricsAddr().String()
	before := scrape(t, maddr)
	if before["tengen_live_games"] != 0 || before["tengen_websockets_open"] != 0 {
		t.Fatalf("gauges before any game: %v games, %v sockets", before["tengen_live_games"], before["tengen_websockets_open"])
	}
	if v, ok := before[`tengen_moves_committed_total{kind="resign"}`]; !ok || v != 0 {
		t.Errorf("resignations before any move: %v, %v; want a sample of 0", v, ok)
	}
	if _, ok := before["tengen_bot_queue_length"]; ok {
		t.Error("bot gauges without bots")
	}

	newUser := func(name string) *user {
		jar, _ := cookiejar.New(nil)
		u := &user{t: t, c: &nethttp.Client{Jar: jar, Timeout: 10 * time.Second}, base: base}
		u.must("POST", "/api/v1/register", map[string]string{"name": name, "password": "secret-" + name}, nil, 201)
		return u
	}
	black, white := newUser("blacky"), newUser("whitey")
	var ch struct{ Challenge tengen.Challenge }
	black.must("POST", "/api/v1/challenges", map[string]any{"settings": tengen.GameSettings{BoardSize: 9, Ruleset: "japanese", Color: tengen.ChooseBlack}}, &ch, 201)
	var g struct{ Game tengen.Game }
	white.must("POST", fmt.Sprintf("/api/v1/challenges/%d/accept", ch.Challenge.ID), nil, &g, 201)

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(base, "http")+fmt.Sprintf("/api/v1/games/%d/ws", g.Game.ID), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.CloseNow()

	moves := fmt.Sprintf("/api/v1/games/%d/moves", g.Game.ID)
	for i, p := range []*user{black, white, black, white} {
		p.must("POST", moves, map[string]any{"seq": i + 1, "kind": "play", "x": i, "y": 0}, nil, 200)
	}
	white.must("POST", moves, map[string]any{"seq": 9, "kind": "pass"}, nil, 409) // a stale sequence number
	black.must("POST", moves, map[string]any{"seq": 5, "kind": "pass"}, nil, 200)
	white.must("GET", "/no/such/page", nil, nil, 404)

	after := scrape(t, maddr)
	for _, tt := range []struct {
		sample string
		want   float64 // the least increase
	}{
		{`tengen_http_requests_total{code="201",route="POST /api/v1/register"}`, 2},
		{`tengen_http_requests_total{code="200",route="POST /api/v1/games/{id}/moves"}`, 5},
		{`tengen_http_requests_total{code="409",route="POST /api/v1/games/{id}/moves"}`, 1},
		{`tengen_http_requests_total{code="404",route="none"}`, 1},
		{`tengen_http_request_duration_seconds_count{route="POST /api/v1/games/{id}/moves"}`, 6},
		{`tengen_moves_committed_total{kind="play"}`, 4},
		{`tengen_moves_committed_total{kind="pass"}`, 1},
		{`tengen_sqlite_commit_writes_count`, 1},
		{`tengen_sqlite_commit_writes_sum`, 5},
		{`tengen_live_games`, 1},
		{`tengen_websockets_open`, 1},
	} {
		if got := after[tt.sample] - before[tt.sample]; got < tt.want {
			t.Errorf("%s went from %v to %v; want an increase of %v at least", tt.sample, before[tt.sample], after[tt.sample], tt.want)
		}
	}
	if _, ok := after[`tengen_http_request_duration_seconds_count{route="GET /api/v1/games/{id}/ws"}`]; ok {
		t.Error("a WebSocket's lifetime is in the latency histogram")
	}
	for _, name := range []string{"go_goroutines", "go_memstats_heap_alloc_bytes", "process_resident_memory_bytes", "process_open_fds"} {
		if after[name] <= 0 {
			t.Errorf("%s = %v", name, after[name])
		}
	}

	// A WebSocket is counted as a request when it ends.
	ws.Close(websocket.StatusNormalClosure, "")
	ended := `tengen_http_requests_total{code="101",route="GET /api/v1/games/{id}/ws"}`
	for deadline := time.Now().Add(5 * time.Second); scrape(t, maddr)[ended] != 1; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%s did not become 1 after the socket closed", ended)
		}
	}
	if n := scrape(t, maddr)["tengen_websockets_open"]; n != 0 {
		t.Errorf("%v WebSockets open after the only one closed", n)
	}

	// The public site does not serve the metrics.
	white.must("GET", "/metrics", nil, nil, 404)
}

// TestMetricsOff checks that without a metrics address nothing listens
// for them.
func TestMetricsOff(t *testing.T) {
	a, err := app.Open(context.Background(), app.Config{DBPath: filepath.Join(t.TempDir(), "tengen.db"), Logger: quiet(), BcryptCost: bcrypt.MinCost})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close(context.Background())
	if a.MetricsAddr() != nil || a.Metrics != nil {
		t.Errorf("metrics served at %v without MetricsAddr", a.MetricsAddr())
	}
}

// TestMetricsBots checks that the bot gauges are there with computer
// opponents.
func TestMetricsBots(t *testing.T) {
	a, err := app.Open(context.Background(), app.Config{DBPath: filepath.Join(t.TempDir(), "tengen.db"), MetricsAddr: "127.0.0.1:0",
		Logger: quiet(), BcryptCost: bcrypt.MinCost, EngineBots: &engine.Options{Threads: 1}, BotWorkers: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close(context.Background())
	got := scrape(t, a.MetricsAddr().String())
	for name, want := range map[string]float64{"tengen_bot_workers": 3, "tengen_bot_workers_busy": 0, "tengen_bot_queue_length": 0} {
		if v, ok := got[name]; !ok || v != want {
			t.Errorf("%s = %v (present %v); want %v", name, v, ok, want)
		}
	}
}
