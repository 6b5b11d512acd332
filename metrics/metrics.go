// Package metrics measures a running Tengen server for Prometheus. It owns
// the registry and every collector, and serves them in the Prometheus text
// format with the client_golang library. The other packages do not import
// it: package play, sqlite and http report through small hooks in their
// configuration (func fields and methods that read a gauge), and
// internal/app wires those hooks to a Metrics. docs/OPERATIONS.md lists
// every metric and what it means.
package metrics

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Metrics is the registry of one server and the collectors the hooks feed.
// Its methods are safe for concurrent use; a nil *Metrics ignores every
// observation, so that callers need not check whether metrics are on.
type Metrics struct {
	reg *prometheus.Registry

	requests  *prometheus.CounterVec   // by route and status code
	latency   *prometheus.HistogramVec // by route
	moves     *prometheus.CounterVec   // by kind
	batches   prometheus.Histogram     // writes per group commit
	batchTime prometheus.Histogram     // time per group commit
}

// noRoute labels requests that matched no route (404 and 405 answers): the
// label must not take the request's path, which a client chooses freely.
const noRoute = "none"

// New returns Metrics with the Go runtime and process collectors and the
// server's own collectors registered.
func New() *Metrics {
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "tengen_http_requests_total",
			Help: "HTTP requests answered, by route pattern and status code, counted when the handler returns (a WebSocket, 101, when it closes).",
		}, []string{"route", "code"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "tengen_http_request_duration_seconds",
			Help: "Time from a request's arrival until its handler returned, by route pattern; WebSockets are not included.",
			// From a cached page (well under a millisecond) to a slow
			// login (bcrypt) or an fsync on a busy disk.
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}, []string{"route"}),
		moves: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "tengen_moves_committed_total",
			Help: "Moves stored by the play service (every move is durable before it is acknowledged), by kind: play, pass or resign.",
		}, []string{"kind"}),
		batchTime: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "tengen_db_commit_seconds",
			Help: "Time one group commit of the database took, from the start of its transaction to the end of its commit (the wait for the disk included).",
			// A quiet batch with its sync takes about a millisecond;
			// 15 ms and more hold up every move queued behind it.
			Buckets: []float64{.001, .0025, .005, .01, .015, .025, .05, .1, .25, .5, 1},
		}),
		batches: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "tengen_sqlite_commit_writes",
			Help: "Writes (moves and game updates) made durable by one group commit of the SQLite database.",
			// A batch holds at most 128 writes (sqlite/batch.go).
			Buckets: prometheus.ExponentialBuckets(1, 2, 8),
		}),
	}
	// Every kind is there from the start, so that a rate starts at zero
	// rather than with the first move of its kind.
	for _, kind := range []string{"play", "pass", "resign"} {
		m.moves.WithLabelValues(kind)
	}
	m.reg.MustRegister(
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		m.requests, m.latency, m.moves, m.batches, m.batchTime,
	)
	return m
}

// Request records one answered HTTP request: route is the pattern of the
// route that served it (empty when none matched), status the status code
// sent, and elapsed the time the handler took. A WebSocket (status 101) is
// counted but its lifetime is no latency and stays out of the histogram.
func (m *Metrics) Request(route string, status int, elapsed time.Duration) {
	if m == nil {
		return
	}
	if route == "" {
		route = noRoute
	}
	if status == 0 {
		status = http.StatusOK // what net/http sends for a handler that wrote nothing
	}
	m.requests.WithLabelValues(route, strconv.Itoa(status)).Inc()
	if status != http.StatusSwitchingProtocols {
		m.latency.WithLabelValues(route).Observe(elapsed.Seconds())
	}
}

// Move records a move stored by the play service; kind is "play", "pass"
// or "resign".
func (m *Metrics) Move(kind string) {
	if m == nil {
		return
	}
	m.moves.WithLabelValues(kind).Inc()
}

// Commit records one group commit of the database that made writes writes
// durable and took took.
func (m *Metrics) Commit(writes int, took time.Duration) {
	if m == nil {
		return
	}
	m.batches.Observe(float64(writes))
	m.batchTime.Observe(took.Seconds())
}

// Gauges are the functions that read the server's current state when
// Prometheus scrapes. Each is optional.
type Gauges struct {
	// WebSockets returns the number of open game WebSockets.
	WebSockets func() int
	// LiveGames returns the number of games the play service holds in
	// memory.
	LiveGames func() int
	// BotQueue returns the number of games waiting for a bot worker, the
	// number of workers busy with a game and the number of workers.
	BotQueue func() (waiting, busy, workers int)
}

// Watch registers g's gauges. Call it once, when the parts that g reads
// are open.
func (m *Metrics) Watch(g Gauges) {
	if m == nil {
		return
	}
	gauge := func(name, help string, f func() float64) {
		m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: name, Help: help}, f))
	}
	if g.WebSockets != nil {
		gauge("tengen_websockets_open", "Game WebSocket connections open now.",
			func() float64 { return float64(g.WebSockets()) })
	}
	if g.LiveGames != nil {
		gauge("tengen_live_games", "Games the play service holds in memory now: every unfinished game, and finished ones still watched.",
			func() float64 { return float64(g.LiveGames()) })
	}
	if g.BotQueue != nil {
		gauge("tengen_bot_queue_length", "Games waiting for a bot worker now.",
			func() float64 { w, _, _ := g.BotQueue(); return float64(w) })
		gauge("tengen_bot_workers_busy", "Bot workers busy with a game now (searching a move or judging dead stones).",
			func() float64 { _, b, _ := g.BotQueue(); return float64(b) })
		gauge("tengen_bot_workers", "Bot workers: the most bot moves searched at once.",
			func() float64 { _, _, n := g.BotQueue(); return float64(n) })
	}
}

// Handler serves the metrics in the Prometheus text format (or the
// protobuf format when a scraper asks for it). Errors while gathering are
// logged to log and answered with a 500.
func (m *Metrics) Handler(log *slog.Logger) http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{
		ErrorLog:      slog.NewLogLogger(log.Handler(), slog.LevelError),
		ErrorHandling: promhttp.HTTPErrorOnError,
		// One scrape at a time is plenty and bounds the work a client
		// that hammers the port can cause.
		MaxRequestsInFlight: 1,
		Registry:            m.reg, // counts promhttp's own errors
	})
}

// Server serves /metrics on its own listener, apart from the public site.
type Server struct {
	srv  *http.Server
	ln   net.Listener
	done chan struct{} // closed when Serve has returned
}

// Listen serves the metrics at /metrics on addr (another path is a 404) in
// the background and returns once the listener is ready.
func (m *Metrics) Listen(addr string, log *slog.Logger) (*Server, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("metrics: %w", err)
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", m.Handler(log))
	s := &Server{ln: ln, done: make(chan struct{}), srv: &http.Server{
		Handler:           mux,
		ReadHeaderTimeout: 10 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}}
	go func() {
		defer close(s.done)
		if err := s.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("metrics server stopped", "err", err)
		}
	}()
	log.Info("serving metrics", "addr", ln.Addr().String())
	return s, nil
}

// Addr returns the address the server listens on.
func (s *Server) Addr() net.Addr { return s.ln.Addr() }

// Shutdown stops the server, waiting until ctx ends for a scrape in
// flight.
func (s *Server) Shutdown(ctx context.Context) error {
	err := s.srv.Shutdown(ctx)
	<-s.done
	return err
}
