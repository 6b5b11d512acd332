// Package app is Tengen's composition root: it opens the database (SQLite,
// or PostgreSQL for a postgres:// URL),
// the play service with its computer opponents, and the web server, and
// closes them again in the reverse order. `tengen serve` and every test
// harness that runs the whole server use it, so that tests run the server
// as it is wired in production.
package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	nethttp "net/http"
	"net/url"
	"runtime"
	"strings"
	"sync/atomic"
	"time"

	"tengen"
	"tengen/analysis"
	"tengen/engine"
	tengenhttp "tengen/http"
	"tengen/internal/membus"
	"tengen/internal/workpool"
	"tengen/metrics"
	"tengen/play"
	"tengen/postgres"
	"tengen/problems"
	"tengen/review"
	"tengen/sqlite"
)

// Config configures an App. Zero values get the defaults documented on each
// field; the fields after BotMoveTime are for tests.
type Config struct {
	// DBPath is the SQLite database file, or the postgres:// URL of a
	// PostgreSQL database (see postgres.IsURL); required. An SQLite file is
	// created when missing, its directory is not; a PostgreSQL database
	// must exist, and Open creates the tables.
	DBPath string
	// Addr is the address Open listens on. Empty means Open does not
	// listen: the caller serves Handler itself (httptest in tests).
	Addr string
	// BaseURL is the public URL of the site (default http://localhost:PORT
	// of Addr, see http.Config).
	BaseURL string
	// TrustProxy takes client addresses from X-Forwarded-For (only behind a
	// reverse proxy).
	TrustProxy bool
	// Logger receives every part's logs (default slog.Default()).
	Logger *slog.Logger
	// MetricsAddr is the address /metrics is served on, in the Prometheus
	// text format (package metrics); empty means no metrics are collected.
	// It is meant for a loopback or internal address, apart from the public
	// site.
	MetricsAddr string

	// EngineBots, when not nil, offers Tengen's engine at every level as a
	// computer opponent, searching with these options; a zero MaxTime
	// becomes BotMoveTime.
	EngineBots *engine.Options
	// DeadStones, when not nil, makes the first dead-stone proposal of each
	// scoring phase (and the bots' judgement of proposals) with Tengen's
	// engine with these options; nil leaves it to goban's static estimate.
	DeadStones *engine.Options
	// Analysis, when not nil, offers the engine's analysis of games
	// (package analysis), searching with these options; nil offers none.
	// Its searches share the bots' worker pool (BotWorkers slots), and a
	// bot's move always goes first.
	Analysis *engine.Options
	// BotsFile names a JSON file of external GTP engines to offer as
	// computer opponents too (see docs/API.md); empty means none.
	BotsFile string
	// EngineBotsDeclineTakeback makes Tengen's engine bots decline
	// takeback requests (`tengen serve --bot-takeback decline`); by
	// default they accept. External engines say it in the bots file.
	EngineBotsDeclineTakeback bool
	// BotWorkers bounds how many bot moves are searched at once, across all
	// games (default one per CPU).
	BotWorkers int
	// BotMoveTime is the longest thinking time of Tengen's engine per move,
	// whatever the clock allows (default 10 s). Any bot that takes 20 s
	// longer than this for a move forfeits.
	BotMoveTime time.Duration
	// ChallengeTTL is how long a challenge stays open before it expires
	// (`tengen serve --challenge-ttl`; default tengen.DefaultChallengeTTL,
	// negative: until withdrawn; see play.Config).
	ChallengeTTL time.Duration
	// AbandonBotGamesAfter ends a game without time limit against a bot
	// after this long without a move (`tengen serve
	// --abandon-bot-games-after`; default play.DefaultAbandonAfter,
	// negative: never; see play.Config.AbandonAfter).
	AbandonBotGamesAfter time.Duration
	// ChallengeAbsence is how long a challenger may have no page open
	// before their open challenges are withdrawn (`tengen serve
	// --challenge-absence`; see http.Config). QuickMatchBotAfter is how
	// long a quick-match seeker waits for a human before a built-in level
	// is offered (default one minute).
	ChallengeAbsence, QuickMatchBotAfter time.Duration

	// Synchronous is SQLite's synchronous setting (default FULL, see
	// sqlite.DB); tests and benchmarks may choose NORMAL. PostgreSQL
	// ignores it: durability there is the server's synchronous_commit.
	Synchronous string
	// BcryptCost is the password hashing work factor (default
	// bcrypt.DefaultCost); tests lower it to bcrypt.MinCost.
	BcryptCost int
	// Admin names the account that administers the server (`tengen serve
	// --admin`): an existing account is made an admin by Open, a new one
	// when it registers. Empty means the first person to register becomes
	// the admin.
	Admin string

	// LoginBurst is how many logins and sign-ups one client address may
	// make at once (default 20, see http.Config); benchmarks that register
	// many users from one address raise it.
	LoginBurst int
	// ChallengeBurst is how many challenges one client address may create
	// at once (default 20, see http.Config); benchmarks that create many
	// games from one address raise it.
	ChallengeBurst int
	// ChatBurst is how many chat messages one user may send at once
	// before the rate limit (http.Config.ChatBurst; default 10).
	ChatBurst int
	// MaxSocketsPerAddress is how many WebSockets one client address may
	// hold open (default 64, see http.Config); benchmarks that play
	// many games from one address raise it.
	MaxSocketsPerAddress int
	// ReviewQuota and MaxSGFBytes are the review limits (see http.Config;
	// zero values take its defaults).
	ReviewQuota tengen.ReviewQuota
	MaxSGFBytes int64

	// Advertise is the base URL the other instances of a deployment on
	// one PostgreSQL database reach this one at (`tengen serve
	// --advertise`, e.g. http://10.0.0.5:8080); PostgreSQL only. Default:
	// http://HOST:PORT of Addr when Addr names a host (127.0.0.1:8081);
	// with an Addr that names none (":8080") Open fails and asks for it.
	// With an empty Addr (the caller serves Handler) it stays empty, and
	// the other instances cannot forward to this one.
	Advertise string
	// InstanceTimeout is how long an instance may miss its heartbeat
	// before the others take over its games (`tengen serve
	// --instance-timeout`; default tengen.DefaultInstanceTimeout).
	InstanceTimeout time.Duration
	// Bus carries the events between instances. Nil means the one that
	// fits the database: PostgreSQL's LISTEN/NOTIFY (postgres.Bus), which
	// reaches every instance on the database, or the in-process
	// internal/membus with SQLite. Tests that run several services in one
	// process may share one membus.
	Bus tengen.EventBus
}

// App is a running Tengen server. Its fields are set by Open and must not
// be changed.
type App struct {
	// DB is the SQLite database, nil on PostgreSQL; PG is the PostgreSQL
	// database, nil on SQLite.
	DB         *sqlite.DB
	PG         *postgres.DB
	Users      tengen.UserService
	Sessions   tengen.SessionService
	Challenges tengen.ChallengeService
	Games      tengen.GameService
	Ratings    tengen.RatingService
	Lessons    tengen.LessonService
	// Reviews stores the reviews (issue 19); package review reads their
	// records.
	Reviews tengen.ReviewService
	Chat    tengen.ChatService
	// Problems stores the users' records of the problems (package
	// problems holds the problems themselves).
	Problems tengen.ProblemProgressService
	// Play plays the games and offers the computer opponents.
	Play *play.Service
	// Server is the web server; it listens only when Config.Addr was set.
	Server *tengenhttp.Server
	// Analysis analyses games with the engine; nil when
	// Config.Analysis was nil.
	Analysis *analysis.Service
	// Pool is the worker pool the bots and the analysis share.
	Pool *workpool.Pool
	// Metrics serves /metrics; nil when Config.MetricsAddr was empty.
	Metrics *metrics.Server
	// Cluster keeps the instances on PostgreSQL and Instance is this one;
	// nil and zero on SQLite.
	Cluster  *postgres.ClusterService
	Instance tengen.Instance
	// Bus carries events between the instances on one database:
	// Config.Bus, else PostgreSQL's LISTEN/NOTIFY (postgres.Bus) with
	// PostgreSQL and the in-process internal/membus with SQLite (one
	// instance). Play and the web server get it.
	Bus tengen.EventBus
	// Seeks shares the quick-match seekers between instances; nil with
	// SQLite, whose seekers stay in the web server's memory.
	Seeks tengen.SeekService
	// RateLimits shares the buckets of the rate limits between
	// instances; nil with SQLite.
	RateLimits tengen.RateLimiter

	store store // DB or PG, whichever is open
	// pgBus is Bus on PostgreSQL, closed before the database.
	pgBus *postgres.Bus
	log   *slog.Logger
}

// store is what App needs of either database beyond its services.
type store interface {
	Ping(ctx context.Context) error
	Close() error
}

// Open opens the database, then the play service, which loads the
// unfinished games and re-arms their clocks from now (time the server was
// down is not charged), then the web server, which listens when cfg.Addr is
// set. When a step fails, Open closes what it had opened and returns the
// error.
func Open(ctx context.Context, cfg Config) (*App, error) {
	if cfg.DBPath == "" {
		return nil, errors.New("app: database path required")
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.BotMoveTime <= 0 {
		cfg.BotMoveTime = 10 * time.Second
	}
	// The bots file is read first: a mistake in it then costs nothing to
	// undo.
	var bots []play.Bot
	if cfg.EngineBots != nil {
		o := *cfg.EngineBots
		if o.MaxTime == 0 {
			o.MaxTime = cfg.BotMoveTime
		}
		bots = play.EngineBots(o)
		for i := range bots {
			bots[i].DeclineTakeback = cfg.EngineBotsDeclineTakeback
		}
	}
	if cfg.BotsFile != "" {
		cfgs, err := play.LoadBotsFile(cfg.BotsFile)
		if err != nil {
			return nil, fmt.Errorf("bots: %w", err)
		}
		bots = append(bots, play.GTPBots(cfgs, cfg.Logger)...)
	}

	a := &App{log: cfg.Logger}
	// m stays nil without MetricsAddr, and the hooks below stay unset.
	var m *metrics.Metrics
	var committed func(int, time.Duration)
	if cfg.MetricsAddr != "" {
		m = metrics.New()
		committed = m.Commit
	}
	if postgres.IsURL(cfg.DBPath) {
		a.PG = postgres.NewDB(cfg.DBPath)
		a.PG.Committed = committed
		if err := a.PG.Open(); err != nil {
			// The URL may hold a password: it is not repeated here.
			return nil, fmt.Errorf("open PostgreSQL database: %w", err)
		}
		a.store = a.PG
		a.Users, a.Sessions = postgres.NewUserService(a.PG), postgres.NewSessionService(a.PG)
		a.Challenges, a.Games = postgres.NewChallengeService(a.PG), postgres.NewGameService(a.PG)
		a.Ratings = postgres.NewRatingService(a.PG)
		a.Lessons, a.Problems = postgres.NewLessonService(a.PG), postgres.NewProblemService(a.PG)
		a.Reviews = postgres.NewReviewService(a.PG)
		a.Chat = postgres.NewChatService(a.PG)
		a.Seeks = postgres.NewSeekService(a.PG)
		a.RateLimits = postgres.NewRateLimiter(a.PG)
		if a.Bus = cfg.Bus; a.Bus == nil {
			a.pgBus = postgres.NewBus(a.PG)
			a.pgBus.Logger = cfg.Logger
			if err := a.pgBus.Open(ctx); err != nil {
				return nil, errors.Join(fmt.Errorf("open the event bus: %w", err), a.PG.Close())
			}
			a.Bus = a.pgBus
		}
	} else {
		a.DB = sqlite.NewDB(cfg.DBPath)
		if cfg.Synchronous != "" {
			a.DB.Synchronous = cfg.Synchronous
		}
		a.DB.Committed = committed
		if err := a.DB.Open(); err != nil {
			return nil, fmt.Errorf("open database %s: %w", cfg.DBPath, err)
		}
		a.store = a.DB
		a.Users, a.Sessions = sqlite.NewUserService(a.DB), sqlite.NewSessionService(a.DB)
		a.Challenges, a.Games = sqlite.NewChallengeService(a.DB), sqlite.NewGameService(a.DB)
		a.Ratings = sqlite.NewRatingService(a.DB)
		a.Lessons, a.Problems = sqlite.NewLessonService(a.DB), sqlite.NewProblemService(a.DB)
		a.Reviews = sqlite.NewReviewService(a.DB)
		a.Chat = sqlite.NewChatService(a.DB)
		if a.Bus = cfg.Bus; a.Bus == nil {
			a.Bus = membus.New()
		}
	}
	if err := a.promoteAdmin(ctx, cfg.Admin); err != nil {
		return nil, errors.Join(err, a.closeStore())
	}

	// One pool of workers for the CPU-heavy work: bots' moves are urgent,
	// analysis waits for free slots and makes way for them.
	workers := cfg.BotWorkers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	a.Pool = workpool.New(workers)
	// With PostgreSQL this is one instance of possibly several: it
	// registers before play opens, as its writes to games are fenced by
	// it from then on, and the others reach it with the secret.
	var peer tengen.Peer
	var secret []byte
	if a.PG != nil {
		var err error
		if peer, secret, err = a.register(ctx, cfg); err != nil {
			return nil, errors.Join(err, a.closeStore())
		}
	}
	pc := play.Config{BotWork: a.Pool.Urgent, Games: a.Games, Users: a.Users, Challenges: a.Challenges, Ratings: a.Ratings, Logger: cfg.Logger,
		Bots: bots, BotWorkers: cfg.BotWorkers, BotMoveTimeout: cfg.BotMoveTime + 20*time.Second, ChallengeTTL: cfg.ChallengeTTL,
		Chat: a.Chat, AbandonAfter: cfg.AbandonBotGamesAfter, Bus: a.Bus}
	if a.PG != nil {
		// The instances on one database share the bots' work.
		pc.BotJobs = postgres.NewBotQueue(a.PG)
	}
	if cfg.DeadStones != nil {
		pc.DeadStones = engine.New(*cfg.DeadStones)
	}
	if a.Cluster != nil {
		pc.Cluster, pc.Peer, pc.Bus, pc.InstanceTimeout = a.Cluster, peer, a.Bus, cfg.InstanceTimeout
	}
	if m != nil {
		pc.MoveStored = func(kind tengen.MoveKind) { m.Move(string(kind)) }
	}
	// The web server is made after play, which already reports changes
	// while it loads the running games at Open: until the server exists
	// there is no page to tell.
	var web atomic.Pointer[tengenhttp.Server]
	pc.Changed = func(before, after *tengen.Game, events []*tengen.GameEvent) {
		if srv := web.Load(); srv != nil {
			srv.GameChanged(before, after, events)
		}
	}
	pc.ChallengesExpired = func(cs []*tengen.Challenge) {
		if srv := web.Load(); srv != nil {
			srv.ChallengesExpired(cs)
		}
	}
	a.Play = play.New(pc)
	// From here on a failure closes the play service too, which ends the
	// external engines it may have started.
	if err := a.Play.Open(ctx); err != nil {
		return nil, a.undo(err)
	}
	svc := tengenhttp.Services{Users: a.Users, Sessions: a.Sessions, Challenges: a.Challenges, Games: a.Games, Ratings: a.Ratings, Play: a.Play,
		Lessons: a.Lessons, Chat: a.Chat, Vacations: a.Play, Reviews: a.Reviews, Records: review.Records{}, Seeks: a.Seeks,
		RateLimits: a.RateLimits}
	// The problems are files in the binary; a broken one is a build
	// error (problems_test.go), so failing to load them here is too.
	set, err := problems.Load()
	if err != nil {
		return nil, a.undo(err)
	}
	svc.Problems, svc.ProblemProgress = set, a.Problems
	if len(bots) > 0 {
		svc.Bots = a.Play
	}
	if a.Cluster != nil {
		svc.Peer = a.Play
	}
	if cfg.Analysis != nil {
		a.Analysis = analysis.New(analysis.Config{Pool: a.Pool, Games: a.Games, Engine: *cfg.Analysis, Logger: cfg.Logger})
		svc.Analysis = a.Analysis
	}
	hc := tengenhttp.Config{
		Addr:                 cfg.Addr,
		BaseURL:              cfg.BaseURL,
		Logger:               cfg.Logger,
		Health:               a.store.Ping,
		TrustForwardedFor:    cfg.TrustProxy,
		BcryptCost:           cfg.BcryptCost,
		LoginBurst:           cfg.LoginBurst,
		ChallengeBurst:       cfg.ChallengeBurst,
		ChatBurst:            cfg.ChatBurst,
		MaxSocketsPerAddress: cfg.MaxSocketsPerAddress,
		ChallengeAbsence:     cfg.ChallengeAbsence,
		QuickMatchBotAfter:   cfg.QuickMatchBotAfter,
		Admin:                cfg.Admin,
		ReviewQuota:          cfg.ReviewQuota,
		MaxSGFBytes:          cfg.MaxSGFBytes,
		PeerSecret:           secret,
		Bus:                  a.Bus,
		InstanceTimeout:      cfg.InstanceTimeout,
	}
	if m != nil {
		hc.OnRequest = m.Request
	}
	srv, err := tengenhttp.NewServer(hc, svc)
	if err != nil {
		return nil, a.undo(err)
	}
	web.Store(srv)
	// From here on a failure shuts the server down too: it listens to the
	// bus already.
	a.Server = srv
	if m != nil {
		g := metrics.Gauges{WebSockets: srv.WebSockets, LiveGames: a.Play.LiveGames}
		if len(bots) > 0 {
			g.BotQueue = a.Play.BotLoad
		}
		m.Watch(g)
		if a.Metrics, err = m.Listen(cfg.MetricsAddr, cfg.Logger); err != nil {
			return nil, a.undo(err)
		}
	}
	if cfg.Addr != "" {
		if err := srv.Open(); err != nil {
			return nil, a.undo(err)
		}
		if a.Cluster != nil && a.Instance.Advertise == "" {
			// Port 0: the address is known now.
			a.Instance.Advertise = "http://" + srv.Addr().String()
			if err := a.Cluster.SetAdvertise(ctx, a.Instance.Advertise); err != nil {
				return nil, a.undo(err)
			}
		}
	}
	return a, nil
}

// register makes this server an instance of the deployment on the
// PostgreSQL database: it registers with its advertised URL and returns the
// client that reaches the other instances and the secret they share.
func (a *App) register(ctx context.Context, cfg Config) (tengen.Peer, []byte, error) {
	adv, err := advertiseURL(cfg.Advertise, cfg.Addr)
	if err != nil {
		return nil, nil, err
	}
	a.Cluster = postgres.NewClusterService(a.PG, cfg.InstanceTimeout)
	secret, err := a.Cluster.Secret(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("cluster secret: %w", err)
	}
	if a.Instance, err = a.Cluster.Register(ctx, adv); err != nil {
		return nil, nil, fmt.Errorf("registering the instance: %w", err)
	}
	a.log.Info("instance registered", "instance", a.Instance.ID, "advertise", adv)
	return tengenhttp.NewPeerClient(secret), secret, nil
}

// advertiseURL returns the URL the other instances reach this one at: adv
// if given, else one made of addr when it names a host; "" for an empty
// addr and for a port chosen when listening (":0"), which Open fills in
// once it listens.
func advertiseURL(adv, addr string) (string, error) {
	if adv != "" {
		u, err := url.Parse(adv)
		if err != nil || u.Scheme != "http" && u.Scheme != "https" || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
			return "", fmt.Errorf("advertise %q: want a base URL such as http://10.0.0.5:8080", adv)
		}
		return strings.TrimSuffix(adv, "/"), nil
	}
	if addr == "" {
		return "", nil
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("addr %q: %w", addr, err)
	}
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		return "", fmt.Errorf("with PostgreSQL, --advertise (TENGEN_ADVERTISE) is required when --addr %q names no host: give the URL the other instances reach this one at, e.g. http://10.0.0.5%s", addr, ":"+port)
	}
	if port == "0" {
		return "", nil
	}
	return "http://" + net.JoinHostPort(host, port), nil
}

// promoteAdmin makes the account named name an admin if it exists; one
// that registers later becomes an admin then (see http.Config.Admin).
func (a *App) promoteAdmin(ctx context.Context, name string) error {
	if name == "" {
		return nil
	}
	if err := tengen.ValidateUserName(name); err != nil {
		return fmt.Errorf("admin %q: %w", name, err)
	}
	u, err := a.Users.FindUserByName(ctx, name)
	switch {
	case tengen.ErrorCode(err) == tengen.ENOTFOUND:
		a.log.Info("admin account not registered yet: it becomes an admin when it registers", "name", name)
		return nil
	case err != nil:
		return fmt.Errorf("admin %q: %w", name, err)
	case u.Bot:
		return fmt.Errorf("admin %q is a computer player", name)
	case u.Admin:
		return nil
	}
	if _, err := a.Users.SetUserAdmin(ctx, u.ID, true); err != nil {
		return fmt.Errorf("admin %q: %w", name, err)
	}
	a.log.Info("admin role granted", "user", u.ID, "name", u.Name, "reason", "named by the admin setting")
	return nil
}

// undo shuts down the web server (if made), closes the play service and the
// database after a failed step of Open and returns err with their errors,
// if any.
func (a *App) undo(err error) error {
	if a.Server != nil {
		err = errors.Join(err, a.Server.Shutdown(context.Background()))
	}
	if a.Metrics != nil {
		err = errors.Join(err, a.Metrics.Shutdown(context.Background()))
	}
	if a.Analysis != nil {
		a.Analysis.Close()
	}
	perr := a.Play.Close()
	if perr != nil {
		perr = fmt.Errorf("storing clocks: %w", perr)
	}
	derr := a.closeStore()
	if derr != nil {
		derr = fmt.Errorf("closing database: %w", derr)
	}
	return errors.Join(err, perr, derr)
}

// closeStore closes the event bus, which sends what it holds through the
// database, and then the database.
func (a *App) closeStore() error {
	var berr error
	if a.pgBus != nil {
		berr = a.pgBus.Close()
	}
	return errors.Join(berr, a.store.Close())
}

// Handler returns the web server's handler, for callers that serve it
// themselves.
func (a *App) Handler() nethttp.Handler { return a.Server.Handler() }

// MetricsAddr returns the address /metrics is served on, or nil when
// Config.MetricsAddr was empty.
func (a *App) MetricsAddr() net.Addr {
	if a.Metrics == nil {
		return nil
	}
	return a.Metrics.Addr()
}

// Addr returns the address the web server listens on, or nil when
// Config.Addr was empty.
func (a *App) Addr() net.Addr { return a.Server.Addr() }

// Close shuts the server down in the order that loses nothing: the web
// server first, which stops accepting connections, ends the game
// WebSockets and waits until ctx ends for requests in flight, so that
// writes that were started complete; then the play service, which stores
// the running clocks as they stand, so that the time until the next start
// is not charged; then the database. It logs a failure to store the clocks
// and returns every step's error.
func (a *App) Close(ctx context.Context) error {
	var errs []error
	if err := a.Server.Shutdown(ctx); err != nil {
		errs = append(errs, fmt.Errorf("shutdown: %w", err))
	}
	if a.Metrics != nil {
		if err := a.Metrics.Shutdown(ctx); err != nil {
			errs = append(errs, fmt.Errorf("metrics shutdown: %w", err))
		}
	}
	if a.Analysis != nil {
		a.Analysis.Close() // its searches end with the requests that waited for them
	}
	if err := a.Play.Close(); err != nil {
		a.log.Error("storing clocks at shutdown", "err", err)
		errs = append(errs, fmt.Errorf("storing clocks: %w", err))
	}
	if err := a.closeStore(); err != nil {
		errs = append(errs, fmt.Errorf("closing database: %w", err))
	}
	return errors.Join(errs...)
}
