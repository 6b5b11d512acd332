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
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"tengen"
	"tengen/clock"
	"tengen/internal/app"
)

// BenchmarkFinishGameAPI measures finishing a game as a client sees it: a
// resignation posted to the JSON API of the whole server (app.Open, an
// SQLite file with synchronous=FULL by default) until the response, for
// rated and unrated games alternately, so that the load of a shared machine
// weighs on both alike. It reports the median of each kind and the rated
// games' overhead in per cent; docs/PERFORMANCE.md has the figures.
func BenchmarkFinishGameAPI(b *testing.B) {
	for _, sync := range []string{"FULL", "NORMAL"} {
		b.Run(sync, func(b *testing.B) { benchFinishGameAPI(b, sync) })
	}
}

func benchFinishGameAPI(b *testing.B, syncMode string) {
	a, err := app.Open(context.Background(), app.Config{DBPath: filepath.Join(b.TempDir(), "tengen.db"), Synchronous: syncMode,
		BaseURL: "http://127.0.0.1", Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), BcryptCost: bcrypt.MinCost,
		LoginBurst: 1 << 20})
	if err != nil {
		b.Fatal(err)
	}
	defer a.Close(context.Background())
	srv := httptest.NewServer(a.Handler())
	defer srv.Close()

	var cookies [2]string
	for c := range 2 {
		jar, _ := cookiejar.New(nil)
		hc := &nethttp.Client{Jar: jar}
		resp, err := hc.Post(srv.URL+"/api/v1/register", "application/json", strings.NewReader(fmt.Sprintf(`{"name": "player%d", "password": "password-%d"}`, c, c)))
		if err != nil || resp.StatusCode != 201 {
			b.Fatalf("register: %v %v", resp, err)
		}
		resp.Body.Close()
		req, _ := nethttp.NewRequest("GET", srv.URL, nil)
		for _, ck := range jar.Cookies(req.URL) {
			req.AddCookie(ck)
		}
		cookies[c] = req.Header.Get("Cookie")
	}
	post := func(cookie, path, body string, want int, out any) {
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
	var took [2][]time.Duration
	b.ResetTimer()
	for i := range b.N {
		b.StopTimer()
		set := tengen.GameSettings{BoardSize: 19, Ruleset: "japanese", Color: tengen.ChooseBlack,
			TimeControl: clock.TimeControl{Kind: clock.Fischer, MainTime: time.Hour, Increment: 10 * time.Second, MaxTime: 2 * time.Hour},
			Rated:       i%2 == 1}
		setJSON, _ := json.Marshal(map[string]any{"settings": set})
		var ch struct{ Challenge tengen.Challenge }
		post(cookies[0], "/api/v1/challenges", string(setJSON), 201, &ch)
		var g struct{ Game tengen.Game }
		post(cookies[1], fmt.Sprintf("/api/v1/challenges/%d/accept", ch.Challenge.ID), "", 201, &g)
		b.StartTimer()
		t0 := time.Now()
		post(cookies[0], fmt.Sprintf("/api/v1/games/%d/moves", g.Game.ID), `{"seq": 1, "kind": "resign"}`, 200, nil)
		took[i%2] = append(took[i%2], time.Since(t0))
	}
	b.StopTimer()
	if len(took[0]) > 0 && len(took[1]) > 0 {
		slices.Sort(took[0])
		slices.Sort(took[1])
		unrated, rated := float64(took[0][len(took[0])/2]), float64(took[1][len(took[1])/2])
		b.ReportMetric(unrated, "unrated-ns/game")
		b.ReportMetric(rated, "rated-ns/game")
		b.ReportMetric(100*(rated-unrated)/unrated, "overhead-%")
	}
}
