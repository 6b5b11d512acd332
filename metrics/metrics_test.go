package metrics_test

import (
	"io"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"tengen/metrics"
)

// exposition returns the text m serves.
func exposition(t *testing.T, m *metrics.Metrics) string {
	t.Helper()
	rec := httptest.NewRecorder()
	m.Handler(slog.New(slog.NewTextHandler(io.Discard, nil))).ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	if rec.Code != 200 {
		t.Fatalf("/metrics: %d %s", rec.Code, rec.Body)
	}
	return rec.Body.String()
}

func TestRequest(t *testing.T) {
	for _, tt := range []struct {
		name    string
		route   string
		status  int
		want    []string
		notWant string
	}{
		{name: "route", route: "GET /games/{id}", status: 200, want: []string{
			`tengen_http_requests_total{code="200",route="GET /games/{id}"} 1`,
			`tengen_http_request_duration_seconds_bucket{route="GET /games/{id}",le="0.005"} 0`,
			`tengen_http_request_duration_seconds_bucket{route="GET /games/{id}",le="0.01"} 1`,
			`tengen_http_request_duration_seconds_sum{route="GET /games/{id}"} 0.007`,
		}},
		{name: "no route", status: 404, want: []string{`tengen_http_requests_total{code="404",route="none"} 1`}},
		{name: "nothing written", route: "POST /logout", want: []string{`tengen_http_requests_total{code="200",route="POST /logout"} 1`}},
		{name: "websocket", route: "GET /api/v1/games/{id}/ws", status: 101,
			want:    []string{`tengen_http_requests_total{code="101",route="GET /api/v1/games/{id}/ws"} 1`},
			notWant: `tengen_http_request_duration_seconds_count{route="GET /api/v1/games/{id}/ws"}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m := metrics.New()
			m.Request(tt.route, tt.status, 7*time.Millisecond)
			text := exposition(t, m)
			for _, w := range tt.want {
				if !strings.Contains(text, w+"\n") {
					t.Errorf("no %s in\n%s", w, grep(text, "tengen_http"))
				}
			}
			if tt.notWant != "" && strings.Contains(text, tt.notWant) {
				t.Errorf("%s is there", tt.notWant)
			}
		})
	}
}

func TestMovesAndCommits(t *testing.T) {
	m := metrics.New()
	m.Move("play")
	m.Move("play")
	m.Move("resign")
	m.Commit(3, 2*time.Millisecond)
	m.Commit(100, 20*time.Millisecond)
	text := exposition(t, m)
	for _, w := range []string{
		`tengen_moves_committed_total{kind="play"} 2`,
		`tengen_moves_committed_total{kind="pass"} 0`,
		`tengen_moves_committed_total{kind="resign"} 1`,
		`tengen_sqlite_commit_writes_bucket{le="2"} 0`,
		`tengen_sqlite_commit_writes_bucket{le="4"} 1`,
		`tengen_sqlite_commit_writes_bucket{le="128"} 2`,
		`tengen_sqlite_commit_writes_sum 103`,
		`tengen_sqlite_commit_writes_count 2`,
		`tengen_db_commit_seconds_bucket{le="0.0025"} 1`,
		`tengen_db_commit_seconds_bucket{le="0.015"} 1`,
		`tengen_db_commit_seconds_bucket{le="0.025"} 2`,
		`tengen_db_commit_seconds_count 2`,
	} {
		if !strings.Contains(text, w+"\n") {
			t.Errorf("no %s in\n%s", w, grep(text, "tengen_"))
		}
	}
}

// TestNil checks that a nil *Metrics ignores observations.
func TestNil(t *testing.T) {
	var m *metrics.Metrics
	m.Request("GET /", 200, time.Millisecond)
	m.Move("play")
	m.Commit(1, time.Millisecond)
	m.Watch(metrics.Gauges{LiveGames: func() int { return 1 }})
}

func grep(text, prefix string) string {
	var b strings.Builder
	for line := range strings.Lines(text) {
		if strings.HasPrefix(line, prefix) {
			b.WriteString(line)
		}
	}
	return b.String()
}

// BenchmarkRequest measures what metrics add to each HTTP request.
func BenchmarkRequest(b *testing.B) {
	m := metrics.New()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			m.Request("POST /api/v1/games/{id}/moves", 200, 3*time.Millisecond)
		}
	})
}
