package http_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	nethttp "net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
	"golang.org/x/crypto/bcrypt"

	"tengen"
	"tengen/clock"
	"tengen/internal/app"
	"tengen/postgres/pgtest"
)

// benchMovesPerGame is how many moves the fill pattern of benchPoint allows.
const benchMovesPerGame = 2 * 9 * 19

// benchPoint is the n-th move of colour c (0 = Black): Black fills the top
// nine rows, White the bottom nine; row 9 stays empty, so no move captures
// and every move is legal.
func benchPoint(c, n int) (x, y int) {
	x, y = n%19, n/19
	if c == 1 {
		y += 10
	}
	return x, y
}

// BenchmarkWebSocketMoves measures end-to-end move handling: many games at
// once, each with both players on their own WebSocket over loopback, every
// move committed to an SQLite file with synchronous=FULL before the server
// acknowledges it. It reports durable moves per second and the 99th
// percentile of the time from sending a move to its "ok". The db=postgres
// runs store the moves in PostgreSQL instead (skipped without one, see
// package pgtest).
func BenchmarkWebSocketMoves(b *testing.B) {
	for _, sync := range []string{"FULL", "NORMAL", "postgres"} {
		for _, games := range []int{16, 64} {
			name := fmt.Sprintf("sync=%s/games=%d", sync, games)
			if sync == "postgres" {
				name = fmt.Sprintf("db=postgres/games=%d", games)
			}
			b.Run(name, func(b *testing.B) { benchWebSocketMoves(b, sync, games) })
		}
	}
}

func benchWebSocketMoves(b *testing.B, syncMode string, games int) {
	db := filepath.Join(b.TempDir(), "tengen.db")
	if syncMode == "postgres" {
		db, syncMode = pgtest.URL(b), ""
	}
	srv := benchServer(b, db, syncMode)

	games = max(games, (b.N+benchMovesPerGame-1)/benchMovesPerGame)
	perGame := (b.N + games - 1) / games
	set := tengen.GameSettings{BoardSize: 19, Ruleset: "japanese", Color: tengen.ChooseBlack,
		TimeControl: clock.TimeControl{Kind: clock.Fischer, MainTime: time.Hour, Increment: 10 * time.Second, MaxTime: 2 * time.Hour}}
	type table struct {
		id    int64
		conns [2]*websocket.Conn
	}
	tables := make([]table, games)
	ctx := context.Background()
	for i := range tables {
		var cookies [2]string
		for c := range 2 {
			cookies[c] = benchRegister(b, srv, fmt.Sprintf("p%d-%d", i, c))
		}
		post := func(cookie, path, body string, out any) { benchPost(b, srv, cookie, path, body, 201, out) }
		setJSON, _ := json.Marshal(map[string]any{"settings": set})
		var ch struct{ Challenge tengen.Challenge }
		post(cookies[0], "/api/v1/challenges", string(setJSON), &ch)
		var g struct{ Game tengen.Game }
		post(cookies[1], fmt.Sprintf("/api/v1/challenges/%d/accept", ch.Challenge.ID), "", &g)
		tables[i].id = g.Game.ID
		for c := range 2 {
			h := nethttp.Header{}
			h.Set("Cookie", cookies[c])
			u := "ws" + strings.TrimPrefix(srv.URL, "http") + fmt.Sprintf("/api/v1/games/%d/ws", g.Game.ID)
			conn, _, err := websocket.Dial(ctx, u, &websocket.DialOptions{HTTPHeader: h})
			if err != nil {
				b.Fatal(err)
			}
			defer conn.CloseNow()
			tables[i].conns[c] = conn
		}
	}

	var mu sync.Mutex // guards latencies and failure
	var latencies []time.Duration
	var failure error
	var wg sync.WaitGroup
	b.ResetTimer()
	start := time.Now()
	for i := range tables {
		wg.Add(1)
		go func(t table) {
			defer wg.Done()
			lat := make([]time.Duration, 0, perGame)
			fail := func(err error) {
				mu.Lock()
				failure = err
				mu.Unlock()
			}
			for seq := 1; seq <= perGame && seq <= benchMovesPerGame; seq++ {
				c := (seq - 1) % 2
				x, y := benchPoint(c, (seq-1)/2)
				msg := fmt.Sprintf(`{"type":"move","id":"%d","seq":%d,"x":%d,"y":%d}`, seq, seq, x, y)
				sent := time.Now()
				if err := t.conns[c].Write(ctx, websocket.MessageText, []byte(msg)); err != nil {
					fail(err)
					return
				}
				for {
					_, data, err := t.conns[c].Read(ctx)
					if err != nil {
						fail(err)
						return
					}
					if strings.HasPrefix(string(data), `{"type":"ok"`) {
						break
					}
					if strings.HasPrefix(string(data), `{"type":"error"`) {
						fail(fmt.Errorf("move %d: %s", seq, data))
						return
					}
				}
				lat = append(lat, time.Since(sent))
			}
			mu.Lock()
			latencies = append(latencies, lat...)
			mu.Unlock()
		}(tables[i])
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	if failure != nil {
		b.Fatal(failure)
	}
	slices.Sort(latencies)
	if len(latencies) > 0 {
		p99 := latencies[min(len(latencies)-1, len(latencies)*99/100)]
		b.ReportMetric(float64(len(latencies))/elapsed.Seconds(), "moves/s")
		b.ReportMetric(float64(p99.Microseconds())/1000, "p99-ms")
	}
}

// benchServer opens the whole server (internal/app) on db for a benchmark,
// with the limits that a setup playing many games from one address would
// hit lifted, and closes it when the benchmark ends.
func benchServer(b *testing.B, db, syncMode string) *httptest.Server {
	b.Helper()
	a, err := app.Open(context.Background(), app.Config{DBPath: db, Synchronous: syncMode,
		BaseURL: "http://127.0.0.1", Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), BcryptCost: bcrypt.MinCost,
		LoginBurst: 1 << 20, ChallengeBurst: 1 << 20, MaxSocketsPerAddress: 1 << 20})
	if err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(a.Handler())
	b.Cleanup(func() {
		srv.Close()
		a.Close(context.Background())
	})
	return srv
}

// benchRegister registers name on srv and returns its session cookie.
func benchRegister(b *testing.B, srv *httptest.Server, name string) string {
	b.Helper()
	jar, _ := cookiejar.New(nil)
	hc := &nethttp.Client{Jar: jar}
	resp, err := hc.Post(srv.URL+"/api/v1/register", "application/json",
		strings.NewReader(fmt.Sprintf(`{"name": %q, "password": "password-of-%s"}`, name, name)))
	if err != nil || resp.StatusCode != 201 {
		b.Fatalf("register: %v %v", resp, err)
	}
	resp.Body.Close()
	req, _ := nethttp.NewRequest("GET", srv.URL, nil)
	for _, ck := range jar.Cookies(req.URL) {
		req.AddCookie(ck)
	}
	return req.Header.Get("Cookie")
}

// benchPost posts the JSON body to path as the session of cookie, wants
// status want and decodes the answer into out unless out is nil.
func benchPost(b *testing.B, srv *httptest.Server, cookie, path, body string, want int, out any) {
	req, _ := nethttp.NewRequest("POST", srv.URL+path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Cookie", cookie)
	resp, err := nethttp.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != want {
		b.Fatalf("POST %s: %v %v", path, resp, err)
	}
	defer resp.Body.Close()
	if out != nil {
		json.NewDecoder(resp.Body).Decode(out)
	} else {
		io.Copy(io.Discard, resp.Body)
	}
}
