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
	// process through internal/app on DB. It is short for URLs with one
	// element.
	URL string
	// URLs are the base URLs of several instances of one server (tengen
	// serve processes on one PostgreSQL database, docs/OPERATIONS.md), all
	// on loopback addresses. Table n is played on instance n mod
	// len(URLs): both players there (or, with SplitPlayers, White on the
	// next instance) and its spectators on the instances after it, so that
	// every move reaches watchers on another instance than its mover's.
	URLs []string
	// SplitPlayers puts a game's two players on different instances
	// (Black on instance n, White on n+1 mod len(URLs)).
	SplitPlayers bool
	// LocalSpectators puts a game's spectators on Black's instance, the
	// game's owner, so that no move needs to reach another instance's
	// watchers: a run with it against one without tells what the events
	// between instances cost.
	LocalSpectators bool
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
	// server is this process. It is short for ServerPIDs with one element.
	ServerPID int
	// ServerPIDs are the processes of the instances, in the order of URLs
	// (0 or missing: not measured).
	ServerPIDs []int
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
	// Errors counts refused moves, broken sockets, spectators that did
	// not see a game's last move within 10 s of its acknowledgement, and
	// mismatches between the stored and the acknowledged moves; a sound
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
	// Instances has the figures of each instance when there were several
	// (nil with one): the moves acknowledged to movers on it, their
	// latencies, the latencies to its spectators and its process's
	// resources.
	Instances []InstanceResult
}

// InstanceResult is what one instance of several served in a run.
type InstanceResult struct {
	URL string
	// Moves is the number of moves acknowledged to movers connected to
	// this instance; Ack their latencies.
	Moves int
	Ack   Latency
	// Spectator holds the latencies from sending a move (to whichever
	// instance) to an event of it on a spectator connected here.
	Spectator Latency
	// The process's resources over Elapsed, zero when not measured.
	CPU          time.Duration
	CPUCores     float64
	RSS, PeakRSS int64
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
		if len(r.Instances) > 1 {
			fmt.Fprint(w, "servers together: ")
		} else {
			fmt.Fprint(w, "server: ")
		}
		fmt.Fprintf(w, "CPU %.1f s (%.2f cores), RSS %d MiB at the end, peak %d MiB\n", r.CPU.Seconds(), r.CPUCores, r.RSS>>20, r.PeakRSS>>20)
	}
	if r.LoadAvgAtStart != "" {
		fmt.Fprintf(w, "machine: %d CPUs, %.2f cores busy (everything on it), load average %s at the start, %s at the end\n",
			r.CPUs, r.MachineCores, r.LoadAvgAtStart, r.LoadAvgAtEnd)
	}
	for i, in := range r.Instances {
		fmt.Fprintf(w, "instance %d %s: %d moves acknowledged here (%.0f moves/s)\n", i+1, in.URL, in.Moves, float64(in.Moves)/r.Elapsed.Seconds())
		fmt.Fprintf(w, "  move → ok:         %s\n", in.Ack)
		fmt.Fprintf(w, "  move → spectator:  %s\n", in.Spectator)
		if in.CPU > 0 || in.RSS > 0 {
			fmt.Fprintf(w, "  server: CPU %.1f s (%.2f cores), RSS %d MiB at the end, peak %d MiB\n", in.CPU.Seconds(), in.CPUCores, in.RSS>>20, in.PeakRSS>>20)
		}
	}
	fmt.Fprintf(w, "games played %d, verified in storage %d, errors %d\n", r.GamesPlayed, r.Verified, r.Errors)
	if r.FirstError != "" {
		fmt.Fprintf(w, "first error: %s\n", r.FirstError)
	}
}

func (c *Config) defaults() error {
	if len(c.URLs) == 0 && c.URL != "" {
		c.URLs = []string{c.URL}
	}
	if len(c.ServerPIDs) == 0 && c.ServerPID != 0 {
		c.ServerPIDs = []int{c.ServerPID}
	}
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
	case c.URL != "" && (len(c.URLs) != 1 || c.URLs[0] != c.URL):
		return errors.New("give the server's URL in URL or URLs, not both")
	case len(c.ServerPIDs) > len(c.URLs):
		return errors.New("more server processes than URLs")
	case c.SplitPlayers && len(c.URLs) < 2:
		return errors.New("players can be split over instances only with two URLs or more")
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
	pids := cfg.ServerPIDs
	if len(cfg.URLs) == 0 {
		srvURL, stop, err := startServer(ctx, cfg)
		if err != nil {
			return nil, err
		}
		defer stop()
		cfg.URLs, res.InProcess, pids = []string{srvURL}, true, []int{os.Getpid()}
	}
	for _, u := range cfg.URLs {
		if err := CheckLoopback(u); err != nil {
			return nil, fmt.Errorf("load: %w", err)
		}
	}
	r := newRunner(cfg, res)
	if err := r.setup(ctx); err != nil {
		r.cleanup() // resigns the games that started
		return nil, fmt.Errorf("load: setup: %w", err)
	}
	r.measure(ctx, pids)
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
func (r *runner) measure(ctx context.Context, pids []int) {
	res := r.res
	res.LoadAvgAtStart = loadAvg()
	samplers := make([]*procSampler, len(pids))
	for i, pid := range pids {
		if pid > 0 {
			samplers[i] = startSampler(pid)
		}
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
	k := len(r.cfg.URLs)
	inst := make([]InstanceResult, k)
	for i, s := range samplers {
		if s == nil {
			continue
		}
		p := s.stop()
		inst[i].CPU, inst[i].RSS, inst[i].PeakRSS = p.cpu, p.rss, p.peakRSS
		inst[i].CPUCores = p.cpu.Seconds() / res.Elapsed.Seconds()
		// Together: CPU and memory add up, the peaks are not at one
		// moment, so their sum is an upper bound.
		res.CPU += p.cpu
		res.RSS += p.rss
		res.PeakRSS += p.peakRSS
	}
	res.CPUCores = res.CPU.Seconds() / res.Elapsed.Seconds()
	res.LoadAvgAtEnd = loadAvg()
	if m := machineCPU(); m > 0 {
		res.MachineCores = (m - machine0).Seconds() / res.Elapsed.Seconds()
	}
	res.CPUs = runtime.NumCPU()

	var ack, spec []time.Duration
	ackBy, specBy := make([][]time.Duration, k), make([][]time.Duration, k)
	for _, t := range r.tables {
		for i, a := range t.ack {
			ack = append(ack, a...)
			ackBy[i] = append(ackBy[i], a...)
		}
		res.Late += t.late
		t.specMu.Lock()
		for i, s := range t.spec {
			spec = append(spec, s...)
			specBy[i] = append(specBy[i], s...)
		}
		t.specMu.Unlock()
	}
	res.Moves = len(ack)
	res.MovesPerSecond = float64(len(ack)) / res.Elapsed.Seconds()
	res.Ack, res.Spectator = summarise(ack), summarise(spec)
	if k > 1 {
		for i := range inst {
			inst[i].URL, inst[i].Moves = r.cfg.URLs[i], len(ackBy[i])
			inst[i].Ack, inst[i].Spectator = summarise(ackBy[i]), summarise(specBy[i])
		}
		res.Instances = inst
	}
}
