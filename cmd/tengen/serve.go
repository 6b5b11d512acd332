package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"tengen"
	"tengen/engine"
	"tengen/internal/app"
	"tengen/play"
	"tengen/postgres"
)

func init() {
	commands["serve"] = command{
		summary: "run the Go server: play in the browser (SQLite database, web UI, API)",
		run:     runServe,
	}
}

// envInt returns the environment variable TENGEN_<name> as a number, or
// def when it is unset or no number (the flag's check then reports it).
func envInt(name string, def int) int {
	if v := envOr(name, ""); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			return -1
		}
		return n
	}
	return def
}

// envDuration returns the environment variable TENGEN_<name> as a
// duration ("10s"), or def when it is unset; a malformed value gives 0,
// which the flag's check refuses.
func envDuration(name string, def time.Duration) time.Duration {
	if v := envOr(name, ""); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			return 0
		}
		return d
	}
	return def
}

// dbFlags defines the flags that name the database, shared by serve and
// backup.
func dbFlags(fs *flag.FlagSet) (dataDir, dbPath *string) {
	dataDir = fs.String("data-dir", envOr("DATA_DIR", "data"), "directory for the database and other state (env TENGEN_DATA_DIR)")
	dbPath = fs.String("db", envOr("DB", ""), "SQLite database file, or a postgres:// URL for PostgreSQL (env TENGEN_DB; default DATA-DIR/tengen.db)")
	return dataDir, dbPath
}

// defaultDB is the database file in dataDir.
func defaultDB(dataDir string) string { return filepath.Join(dataDir, "tengen.db") }

// dbName is how the database is named in logs: the file, or the URL
// without its password.
func dbName(db string) string {
	if !postgres.IsURL(db) {
		return db
	}
	u, err := url.Parse(db)
	if err != nil {
		return "postgres://(unparsable URL)"
	}
	return u.Redacted()
}

// envOr returns the environment variable TENGEN_<name> or def.
func envOr(name, def string) string {
	if v, ok := os.LookupEnv("TENGEN_" + name); ok && v != "" {
		return v
	}
	return def
}

func runServe(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("serve", "", stderr)
	addr := fs.String("addr", envOr("ADDR", ":8080"), "listen address; the default :8080 listens on every interface, 127.0.0.1:8080 only on this machine (env TENGEN_ADDR)")
	dataDir, dbPath := dbFlags(fs)
	baseURL := fs.String("base-url", envOr("BASE_URL", ""), "public URL of the site, e.g. https://go.example.org (env TENGEN_BASE_URL; default http://localhost:PORT)")
	logLevel := fs.String("log-level", envOr("LOG_LEVEL", "info"), "log level: debug, info, warn or error (env TENGEN_LOG_LEVEL)")
	logFormat := fs.String("log-format", envOr("LOG_FORMAT", "text"), "log format: text or json (env TENGEN_LOG_FORMAT)")
	trustProxy := fs.Bool("trust-proxy", envOr("TRUST_PROXY", "") == "true", "take client addresses from X-Forwarded-For (only behind a reverse proxy; env TENGEN_TRUST_PROXY=true)")
	botsFile := fs.String("bots", envOr("BOTS", ""), "JSON file listing external GTP engines to offer as computer opponents (env TENGEN_BOTS; see docs/API.md)")
	botWorkers := fs.Int("bot-workers", envInt("BOT_WORKERS", runtime.NumCPU()), "bot moves searched at once, across all games; the engine's analysis uses the slots the bots leave free (env TENGEN_BOT_WORKERS)")
	analysisOn := fs.Bool("analysis", envOr("ANALYSIS", "true") != "false", "offer the engine's analysis of games to logged-in users (env TENGEN_ANALYSIS=false turns it off)")
	pprofAddr := fs.String("pprof-addr", envOr("PPROF_ADDR", ""), "loopback address to serve Go's runtime profiles on at /debug/pprof/, e.g. 127.0.0.1:6060, for go tool pprof (env TENGEN_PPROF_ADDR; default none)")
	metricsAddr := fs.String("metrics-addr", envOr("METRICS_ADDR", ""), "address to serve Prometheus metrics on at /metrics, e.g. 127.0.0.1:9090; keep it off the public network (env TENGEN_METRICS_ADDR; default none: no metrics)")
	botMoveTime := fs.Duration("bot-move-time", envDuration("BOT_MOVE_TIME", 10*time.Second), "longest thinking time of Tengen's engine per move, whatever the clock allows (env TENGEN_BOT_MOVE_TIME)")
	admin := fs.String("admin", envOr("ADMIN", ""), "name of the account that administers the server (env TENGEN_ADMIN; default: the first person to register)")
	challengeAbsence := fs.Duration("challenge-absence", envDuration("CHALLENGE_ABSENCE", 5*time.Minute), "withdraw the open challenges of a challenger who has had no page of the site open this long; 0 never (env TENGEN_CHALLENGE_ABSENCE)")
	challengeTTL := fs.Duration("challenge-ttl", envDuration("CHALLENGE_TTL", tengen.DefaultChallengeTTL), "how long a challenge stays open before it expires; 0 keeps challenges open until withdrawn (env TENGEN_CHALLENGE_TTL)")
	abandonAfter := fs.Duration("abandon-bot-games-after", envDuration("ABANDON_BOT_GAMES_AFTER", play.DefaultAbandonAfter), "end a game without time limit against a bot after this long without a move; 0 never ends them (env TENGEN_ABANDON_BOT_GAMES_AFTER)")
	botTakeback := fs.String("bot-takeback", envOr("BOT_TAKEBACK", "accept"), "how Tengen's engine bots answer takeback requests: accept or decline (env TENGEN_BOT_TAKEBACK; external engines: declineTakeback in the bots file)")
	maxReviews := fs.Int("max-reviews", envInt("MAX_REVIEWS", 500), "reviews one user may keep (env TENGEN_MAX_REVIEWS)")
	reviewMiB := fs.Int("review-mib", envInt("REVIEW_MIB", 50), "MiB of game records one user may keep in reviews (env TENGEN_REVIEW_MIB)")
	// The rate limits per client address; a load test from this machine
	// (tengen load --url) raises them, see docs/OPERATIONS.md.
	loginBurst := fs.Int("login-burst", envInt("LOGIN_BURST", 20), "logins and sign-ups one client address may make at once before the rate limit (env TENGEN_LOGIN_BURST)")
	challengeBurst := fs.Int("challenge-burst", envInt("CHALLENGE_BURST", 20), "challenges one client address may create at once before the rate limit (env TENGEN_CHALLENGE_BURST)")
	maxSockets := fs.Int("max-sockets-per-address", envInt("MAX_SOCKETS_PER_ADDRESS", 64), "WebSockets (game, site and review pages) one client address may hold open (env TENGEN_MAX_SOCKETS_PER_ADDRESS)")
	// Several instances on one PostgreSQL database (docs/OPERATIONS.md).
	advertise := fs.String("advertise", envOr("ADVERTISE", ""), "with PostgreSQL: the base URL the other instances reach this one at, e.g. http://10.0.0.5:8080 (env TENGEN_ADVERTISE; default http://ADDR when --addr names a host)")
	instanceTimeout := fs.Duration("instance-timeout", envDuration("INSTANCE_TIMEOUT", tengen.DefaultInstanceTimeout), "with PostgreSQL: an instance whose heartbeat is older than this is dead, and the others take over its games (env TENGEN_INSTANCE_TIMEOUT)")
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	if fs.NArg() > 0 || *instanceTimeout < time.Second || *loginBurst < 1 || *challengeBurst < 1 || *maxSockets < 1 || *botWorkers < 1 || *botMoveTime <= 0 || *challengeTTL < 0 ||
		*abandonAfter < 0 || *challengeAbsence < 0 || *botTakeback != "accept" && *botTakeback != "decline" ||
		*maxReviews < 1 || *reviewMiB < 1 {
		fs.Usage()
		return errUsage
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(*logLevel)); err != nil {
		return fmt.Errorf("serve: log level %q: %w", *logLevel, err)
	}
	opts := &slog.HandlerOptions{Level: level}
	var handler slog.Handler
	switch strings.ToLower(*logFormat) {
	case "json":
		handler = slog.NewJSONHandler(stderr, opts)
	case "text":
		handler = slog.NewTextHandler(stderr, opts)
	default:
		return fmt.Errorf("serve: log format %q is neither text nor json", *logFormat)
	}
	logger := slog.New(handler)
	applyGC(logger)
	if *pprofAddr != "" {
		at, stop, err := servePprof(*pprofAddr, logger)
		if err != nil {
			return fmt.Errorf("serve: %w", err)
		}
		defer stop()
		logger.Info("serving runtime profiles", "addr", at)
	}

	if *dbPath == "" {
		if err := os.MkdirAll(*dataDir, 0o700); err != nil {
			return fmt.Errorf("serve: data directory: %w", err)
		}
		*dbPath = defaultDB(*dataDir)
	}
	if *challengeAbsence == 0 {
		*challengeAbsence = -1 // app.Config: negative is never, zero the default
	}
	if *challengeTTL == 0 {
		*challengeTTL = -1 // app.Config: negative is for ever, zero the default
	}
	if *abandonAfter == 0 {
		*abandonAfter = -1 // likewise: never
	}
	// Computer opponents: Tengen's engine at every level, one search
	// goroutine per move (the worker pool gives the parallelism), and the
	// operator's external engines.
	var analysisOpts *engine.Options
	if *analysisOn {
		analysisOpts = &engine.Options{Threads: 1}
	}
	a, err := app.Open(ctx, app.Config{
		Analysis:         analysisOpts,
		DBPath:           *dbPath,
		Addr:             *addr,
		BaseURL:          *baseURL,
		TrustProxy:       *trustProxy,
		MetricsAddr:      *metricsAddr,
		Logger:           logger,
		EngineBots:       &engine.Options{Threads: 1},
		DeadStones:       &engine.Options{Threads: 1},
		BotsFile:         *botsFile,
		BotWorkers:       *botWorkers,
		BotMoveTime:      *botMoveTime,
		Admin:            *admin,
		ChallengeTTL:     *challengeTTL,
		ChallengeAbsence: *challengeAbsence,

		LoginBurst:           *loginBurst,
		ChallengeBurst:       *challengeBurst,
		MaxSocketsPerAddress: *maxSockets,

		AbandonBotGamesAfter:      *abandonAfter,
		EngineBotsDeclineTakeback: *botTakeback == "decline",
		ReviewQuota:               tengen.ReviewQuota{Reviews: *maxReviews, Bytes: int64(*reviewMiB) << 20},

		Advertise:       *advertise,
		InstanceTimeout: *instanceTimeout,
	})
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	attrs := []any{"addr", a.Addr()}
	if listensEverywhere(*addr) {
		// Say it: an operator trying it out may not expect the server to be
		// reachable from the network.
		attrs = append(attrs, "interfaces", "all")
	}
	if m := a.MetricsAddr(); m != nil {
		attrs = append(attrs, "metrics", m)
	}
	if a.Cluster != nil {
		attrs = append(attrs, "instance", a.Instance.ID, "advertise", a.Instance.Advertise)
	}
	logger.Info("tengen serving", append(attrs, "db", dbName(*dbPath), "version", version, "bots", len(a.Play.Bots()), "botWorkers", *botWorkers)...)
	<-ctx.Done()
	logger.Info("shutting down: finishing requests in flight")
	sctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := a.Close(sctx); err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	return nil
}

// listensEverywhere reports whether a listen address such as ":8080" binds
// every network interface rather than one host.
func listensEverywhere(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	return err == nil && (host == "" || net.ParseIP(host).IsUnspecified())
}
