// Package load is Tengen's load generator (`tengen load`, docs/OPERATIONS.md
// "Load tests"): it registers players on a server on this machine, starts
// many live games with both players on the game WebSocket and spectators
// watching, plays legal moves at a given rate for a bounded time, measures
// the latency of every move (to the mover's acknowledgement and to a
// spectator's event), the rate of durable moves and the server's memory and
// CPU, and resigns its games before it stops.
//
// It talks to the server only through its public API and WebSocket, as
// browsers do, so it measures the whole path of a move (docs/ARCHITECTURE.md).
// It refuses any server that is not on a loopback address: it is a tool to
// measure one's own machine, not to load someone else's.
package load

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"sync"
	"time"

	"golang.org/x/crypto/bcrypt"

	"tengen/internal/app"
)

// Config configures a run. Zero values get the defaults named on each field.
type Config struct {
	// URL is the base URL of a running server (http://127.0.0.1:8080); it
	// must be on a loopback address. Empty: Run starts a server in this
	// process through internal/app on DB.
	URL string
	// DB is the database of the in-process server: an SQLite file or a
	// postgres:// URL. Empty: an SQLite file in a temporary directory that
	// Run removes afterwards.
	DB string
	// Synchronous is the in-process SQLite server's synchronous setting
	// (default FULL: every acknowledged move is on disk).
	Synchronous string

	// Games is the number of live games played at once (default 1,000).
	Games int
	// Spectators is the number of anonymous spectator WebSockets, spread
	// over the games round-robin (zero: none).
	Spectators int
	// Players is the number of accounts registered; game i is played by
	// players 2i and 2i+1 modulo Players (default 2×Games, but at least 4; fewer than 4 are refused).
	Players int
	// Rate is the total rate of moves offered, per second, spread evenly
	// over the games (default 2,000). Each game has one move in flight at a
	// time, so a server slower than the rate gets moves as fast as it
	// acknowledges them. A game never goes faster than MaxGameRate.
	Rate float64
	// Duration is how long moves are played (default 60 s); setup and
	// cleanup come on top.
	Duration time.Duration
	// BoardSize is the board of every game (default 19).
	BoardSize int
	// MaxMoves is the number of moves after which a game is resigned and
	// its players start a new one (default 300).
	MaxMoves int
	// Seed seeds the choice of moves (default: the clock).
	Seed uint64

	// ServerPID is the process whose memory and CPU are reported, for a
	// server given by URL (Linux only; 0: not measured). The in-process
	// server is this process.
	ServerPID int
	// CPUProfile, when not nil, receives a CPU profile of this process
	// over the measured time (useful with the in-process server).
	CPUProfile io.Writer
	// Log receives progress lines (default: none).
	Log *slog.Logger
}

// MaxGameRate bounds the moves per second of one game: each player then
// sends at most half of it, well below the server's limit of commands per
// WebSocket (200 per second, http/ws.go).
const MaxGameRate = 300

// Result is what a run measured.
type Result struct {
	Games, Spectators, Players int
	// InProcess tells that the server ran in this process, so that CPU and
	// memory include the generator's own clients.
	InProcess bool
	// Rate is the offered rate of moves per second (Config.Rate).
	Rate float64
	// Elapsed is the measured time: from the first move to the last
	// acknowledgement.
	Elapsed time.Duration
	// Moves is the number of moves acknowledged in Elapsed (plays and the
	// resignations of games that reached MaxMoves), MovesPerSecond the
	// rate of them. Every acknowledged move is durable: the server stores
	// it before it answers.
	Moves          int
	MovesPerSecond float64
	// Ack holds the latencies from sending a move to the mover's "ok".
	Ack Latency
	// Spectator holds the latencies from sending a move to a spectator's
	// event of it.
	Spectator Latency
	// Late counts moves sent later than their slot of Rate because the
	// previous move of their game was acknowledged after that slot: the
	// server did not keep up with the offered rate.
	Late int
	// GamesPlayed counts the games played, those replaced after MaxMoves
	// included; Verified the games whose stored moves matched the moves
	// acknowledged (checked after the run through the API).
	GamesPlayed, Verified int
	// EndResigned counts the games resigned at the end of the run (not
	// part of Moves).
	EndResigned int
	// Interrupted tells that the run was stopped (its context ended)
	// before Duration was over.
	Interrupted bool
	// Errors counts refused moves, broken sockets and mismatches; a sound
	// run has none. FirstError is the first of them.
	Errors     int
	FirstError string
	// Server's resources over Elapsed (zero when not measured): CPU time
	// used, CPU time per wall second (2.0 = two cores busy), resident
	// memory at the end and at its peak.
	CPU            time.Duration
	CPUCores       float64
	RSS, PeakRSS   int64
	LoadAvgAtStart string
	LoadAvgAtEnd   string
	// MachineCores is the CPU time the whole machine spent busy per wall
	// second of Elapsed (Linux): this run, a PostgreSQL server, and
	// whatever else runs there.
	MachineCores float64
	// CPUs is the number of CPUs of the machine.
	CPUs int
}

// Latency summarises a set of latencies.
type Latency struct {
	N                  int
	P50, P90, P99, Max time.Duration
}

func summarise(d []time.Duration) Latency {
	if len(d) == 0 {
		return Latency{}
	}
	slices.Sort(d)
	at := func(q float64) time.Duration { return d[min(len(d)-1, int(float64(len(d))*q))] }
	return Latency{N: len(d), P50: at(0.50), P90: at(0.90), P99: at(0.99), Max: d[len(d)-1]}
}

func (l Latency) String() string {
	if l.N == 0 {
		return "none"
	}
	return fmt.Sprintf("p50 %s  p90 %s  p99 %s  max %s  (%d)", ms(l.P50), ms(l.P90), ms(l.P99), ms(l.Max), l.N)
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }

// Report writes r in a few lines.
func (r Result) Report(w io.Writer) {
	where := "server at the URL"
	if r.InProcess {
		where = "server in this process (CPU and memory include the load generator)"
	}
	fmt.Fprintf(w, "games %d, spectators %d, players %d, offered %.0f moves/s, %s\n", r.Games, r.Spectators, r.Players, r.Rate, where)
	fmt.Fprintf(w, "durable moves: %d in %.1f s = %.0f moves/s (late sends: %d)\n", r.Moves, r.Elapsed.Seconds(), r.MovesPerSecond, r.Late)
	if r.Interrupted {
		fmt.Fprintln(w, "interrupted before the end of the duration")
	}
	fmt.Fprintf(w, "move → ok:         %s\n", r.Ack)
	fmt.Fprintf(w, "move → spectator:  %s\n", r.Spectator)
	if r.CPU > 0 || r.RSS > 0 {
		fmt.Fprintf(w, "server: CPU %.1f s (%.2f cores), RSS %d MiB at the end, peak %d MiB\n", r.CPU.Seconds(), r.CPUCores, r.RSS>>20, r.PeakRSS>>20)
	}
	if r.LoadAvgAtStart != "" {
		fmt.Fprintf(w, "machine: %d CPUs, %.2f cores busy (everything on it), load average %s at the start, %s at the end\n",
			r.CPUs, r.MachineCores, r.LoadAvgAtStart, r.LoadAvgAtEnd)
	}
	fmt.Fprintf(w, "games played %d, verified in storage %d, errors %d\n", r.GamesPlayed, r.Verified, r.Errors)
	if r.FirstError != "" {
		fmt.Fprintf(w, "first error: %s\n", r.FirstError)
	}
}

func (c *Config) defaults() error {
	if c.Games == 0 {
		c.Games = 1000
	}
	if c.Players == 0 {
		c.Players = max(2*c.Games, 4)
	}
	if c.Rate == 0 {
		c.Rate = 2000
	}
	if c.Duration == 0 {
		c.Duration = time.Minute
	}
	if c.BoardSize == 0 {
		c.BoardSize = 19
	}
	if c.MaxMoves == 0 {
		c.MaxMoves = 300
	}
	if c.Seed == 0 {
		c.Seed = uint64(time.Now().UnixNano())
	}
	if c.Log == nil {
		c.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	switch {
	case c.Games < 1:
		return errors.New("games must be at least 1")
	case c.Spectators < 0:
		return errors.New("spectators must not be negative")
	case c.Players < 4:
		// With two, one player would open a challenge in every game being
		// started at once and meet the server's limit of open challenges.
		return errors.New("players must be at least 4")
	case c.Rate < 0:
		return errors.New("rate must not be negative")
	case c.Duration < 0:
		return errors.New("duration must not be negative")
	case c.BoardSize < 5 || c.BoardSize > 19:
		return errors.New("board size must be 5 to 19")
	case c.MaxMoves < 2:
		return errors.New("max moves must be at least 2")
	}
	return nil
}

// CheckLoopback returns an error unless the URL's host is a loopback
// address (or localhost).
func CheckLoopback(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("server URL: %w", err)
	}
	if u.Scheme != "http" {
		return fmt.Errorf("server URL %q: only http:// on this machine", raw)
	}
	host := u.Hostname()
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("server URL %q is not on a loopback address: the load generator only loads this machine", raw)
}

// Run runs a load test as cfg describes and returns what it measured. It
// returns an error when the test could not run at all (no server, setup
// refused); errors during the run are counted in the Result.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	if err := cfg.defaults(); err != nil {
		return nil, fmt.Errorf("load: %w", err)
	}
	res := &Result{Games: cfg.Games, Spectators: cfg.Spectators, Players: cfg.Players, Rate: cfg.Rate}
	pid := cfg.ServerPID
	if cfg.URL == "" {
		srvURL, stop, err := startServer(ctx, cfg)
		if err != nil {
			return nil, err
		}
		defer stop()
		cfg.URL, res.InProcess, pid = srvURL, true, os.Getpid()
	} else if err := CheckLoopback(cfg.URL); err != nil {
		return nil, fmt.Errorf("load: %w", err)
	}
	r := newRunner(cfg, res)
	if err := r.setup(ctx); err != nil {
		r.cleanup() // resigns the games that started
		return nil, fmt.Errorf("load: setup: %w", err)
	}
	r.measure(ctx, pid)
	res.Interrupted = ctx.Err() != nil
	// Cleaning up and checking run to their end even after an interrupt:
	// they leave no live game behind and take a few seconds.
	r.cleanup()
	r.verify(context.Background())
	return res, nil
}

// startServer opens a whole server (internal/app) on loopback for the run,
// with the limits that one address playing many games would hit lifted.
func startServer(ctx context.Context, cfg Config) (string, func(), error) {
	db, dir := cfg.DB, ""
	if db == "" {
		var err error
		if dir, err = os.MkdirTemp("", "tengen-load-"); err != nil {
			return "", nil, fmt.Errorf("load: %w", err)
		}
		db = filepath.Join(dir, "tengen.db")
	}
	a, err := app.Open(ctx, app.Config{DBPath: db, Addr: "127.0.0.1:0", Synchronous: cfg.Synchronous,
		Logger: slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})), BcryptCost: bcrypt.MinCost,
		LoginBurst: 1 << 30, ChallengeBurst: 1 << 30, MaxSocketsPerAddress: 1 << 30, AbandonBotGamesAfter: -1})
	if err != nil {
		if dir != "" {
			os.RemoveAll(dir)
		}
		return "", nil, fmt.Errorf("load: start server: %w", err)
	}
	stop := func() {
		sctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := a.Close(sctx); err != nil {
			cfg.Log.Warn("closing the server", "err", err)
		}
		if dir != "" {
			os.RemoveAll(dir)
		}
	}
	return "http://" + a.Addr().String(), stop, nil
}

// measure plays for cfg.Duration and fills in the rates, latencies and
// resources.
func (r *runner) measure(ctx context.Context, pid int) {
	res := r.res
	res.LoadAvgAtStart = loadAvg()
	var sampler *procSampler
	if pid > 0 {
		sampler = startSampler(pid)
	}
	if r.cfg.CPUProfile != nil {
		if err := pprof.StartCPUProfile(r.cfg.CPUProfile); err != nil {
			r.fail(fmt.Errorf("cpu profile: %w", err))
		} else {
			defer pprof.StopCPUProfile()
		}
	}
	machine0 := machineCPU()
	start := time.Now()
	end := start.Add(r.cfg.Duration)
	rctx, cancel := context.WithDeadline(ctx, end)
	defer cancel()
	interval := time.Duration(0)
	if r.cfg.Rate > 0 {
		interval = time.Duration(float64(time.Second) * float64(r.cfg.Games) / r.cfg.Rate)
	}
	interval = max(interval, time.Second/MaxGameRate)
	rnd := rand.New(rand.NewPCG(r.cfg.Seed, 1))
	var wg sync.WaitGroup
	for _, t := range r.tables {
		// Spread the games' first moves over one interval, so that the
		// offered load is even from the start.
		first := start.Add(time.Duration(rnd.Int64N(int64(interval))))
		wg.Add(1)
		go func() {
			defer wg.Done()
			t.play(rctx, r, first, interval)
		}()
	}
	wg.Wait()
	res.Elapsed = time.Since(start)
	if sampler != nil {
		s := sampler.stop()
		res.CPU, res.RSS, res.PeakRSS = s.cpu, s.rss, s.peakRSS
		res.CPUCores = s.cpu.Seconds() / res.Elapsed.Seconds()
	}
	res.LoadAvgAtEnd = loadAvg()
	if m := machineCPU(); m > 0 {
		res.MachineCores = (m - machine0).Seconds() / res.Elapsed.Seconds()
	}
	res.CPUs = runtime.NumCPU()

	var ack, spec []time.Duration
	for _, t := range r.tables {
		ack = append(ack, t.ack...)
		res.Late += t.late
		t.specMu.Lock()
		spec = append(spec, t.spec...)
		t.specMu.Unlock()
	}
	res.Moves = len(ack)
	res.MovesPerSecond = float64(len(ack)) / res.Elapsed.Seconds()
	res.Ack, res.Spectator = summarise(ack), summarise(spec)
}
