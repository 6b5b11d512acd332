// Package http serves Tengen over HTTP: server-rendered pages (html/template,
// German and English), embedded static assets under content-hashed names and
// the JSON API described in docs/API.md. It depends only on the service
// interfaces of package tengen; cmd/tengen wires in a storage backend.
package http

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	nethttp "net/http"
	"net/url"
	"sync"
	"time"

	"golang.org/x/crypto/bcrypt"

	"tengen"
)

// Config configures a Server. Zero values get the defaults documented on
// each field.
type Config struct {
	// Addr is the listen address for Open (default ":8080").
	Addr string
	// BaseURL is the public URL of the site, e.g. "https://go.example.org".
	// An https URL makes session cookies Secure; its origin is trusted for
	// cross-origin protection. Default "http://localhost" + Addr.
	BaseURL string
	// Logger receives request and error logs (default slog.Default()).
	Logger *slog.Logger
	// BcryptCost is the bcrypt work factor (default bcrypt.DefaultCost);
	// tests lower it to bcrypt.MinCost.
	BcryptCost int
	// SessionTTL is how long a login lasts (default 30 days).
	SessionTTL time.Duration
	// Health is called by /healthz to check dependencies such as the
	// database; nil means always healthy.
	Health func(ctx context.Context) error
	// TrustForwardedFor takes the client address for rate limiting from the
	// last X-Forwarded-For entry, for servers behind a reverse proxy.
	TrustForwardedFor bool
	// LoginRate limits login attempts: per client address, Burst attempts
	// and then one per Every; per account, a fifth of that burst. Defaults:
	// burst 20, one per 6 seconds.
	LoginBurst int
	LoginEvery time.Duration
	// ChallengeBurst and ChallengeEvery limit new challenges per client
	// address, whoever is logged in there: Burst challenges and then one
	// per Every. Defaults: burst 20, one per 30 seconds. (Each user also has
	// at most tengen.MaxOpenChallenges open challenges.)
	ChallengeBurst int
	ChallengeEvery time.Duration
	// MaxSocketsPerAddress is how many WebSockets (game and site sockets
	// together) one client address may hold open at once (default 64: a
	// few players with a few tabs each behind one NAT, every game tab
	// holding two); more are refused with 429.
	MaxSocketsPerAddress int
	// ChatBurst and ChatEvery limit chat messages per user, over all
	// rooms: Burst messages and then one per Every. Defaults: burst 10,
	// one per 3 seconds.
	ChatBurst int
	ChatEvery time.Duration
	// Now returns the current time (default time.Now).
	Now func() time.Time
	// PeerSecret is the cluster secret the other instances sign their
	// calls with (peer.go); empty with a single instance.
	PeerSecret []byte
	// OnRequest, if set, is called after each request with the pattern of
	// the route that served it ("GET /games/{id}"; empty when none
	// matched), the status code sent (0 when the handler wrote nothing, which
	// net/http answers with 200) and the time the handler
	// took, for metrics. It must not block.
	OnRequest func(route string, status int, elapsed time.Duration)
	// ChallengeAbsence is how long a challenger may have no page of the
	// site open (no WebSocket) before their open challenges are withdrawn
	// (default 5 minutes; negative: never).
	ChallengeAbsence time.Duration
	// QuickMatchBotAfter is how long a quick-match seeker waits for a
	// human before the built-in level nearest their rank is offered
	// (default one minute).
	QuickMatchBotAfter time.Duration
	// Admin names the account that is the server's admin (`tengen serve
	// --admin`): it becomes an admin when it registers (app.Open promotes
	// an existing account at start). Without it, the first person to
	// register becomes the admin.
	Admin string
	// ReviewQuota is how many reviews and bytes of records one user may
	// keep (default 500 reviews, 50 MiB), MaxSGFBytes the largest SGF
	// upload (default 2 MiB).
	ReviewQuota tengen.ReviewQuota
	MaxSGFBytes int64
	// Bus carries the site's messages between the instances of a
	// deployment (site.go): notifications, lobby changes, chat, presence
	// and quick-match results. nil (one instance, tests) delivers them
	// directly to this server's sockets.
	Bus tengen.EventBus
	// InstanceTimeout is how long another instance may go unheard on the
	// bus before its sockets no longer count as online (default 5 s, as
	// `tengen serve --instance-timeout`).
	InstanceTimeout time.Duration
}

func (c *Config) setDefaults() error {
	if c.Addr == "" {
		c.Addr = ":8080"
	}
	if c.BaseURL == "" {
		host, port, err := net.SplitHostPort(c.Addr)
		if err != nil {
			return fmt.Errorf("http: address %q: %w", c.Addr, err)
		}
		if host == "" {
			host = "localhost"
		}
		c.BaseURL = "http://" + net.JoinHostPort(host, port)
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	if c.SessionTTL == 0 {
		c.SessionTTL = 30 * 24 * time.Hour
	}
	if c.LoginBurst == 0 {
		c.LoginBurst = 20
	}
	if c.LoginEvery == 0 {
		c.LoginEvery = 6 * time.Second
	}
	if c.ChallengeBurst == 0 {
		c.ChallengeBurst = 20
	}
	if c.ChallengeEvery == 0 {
		c.ChallengeEvery = 30 * time.Second
	}
	if c.MaxSocketsPerAddress == 0 {
		c.MaxSocketsPerAddress = 64
	}
	if c.ChatBurst == 0 {
		c.ChatBurst = 10
	}
	if c.ChatEvery == 0 {
		c.ChatEvery = 3 * time.Second
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.ChallengeAbsence == 0 {
		c.ChallengeAbsence = 5 * time.Minute
	}
	if c.QuickMatchBotAfter == 0 {
		c.QuickMatchBotAfter = time.Minute
	}
	if c.ReviewQuota == (tengen.ReviewQuota{}) {
		c.ReviewQuota = tengen.ReviewQuota{Reviews: defaultMaxReviews, Bytes: defaultReviewBytes}
	}
	if c.MaxSGFBytes == 0 {
		c.MaxSGFBytes = defaultMaxSGFBytes
	}
	if c.InstanceTimeout <= 0 {
		c.InstanceTimeout = 5 * time.Second
	}
	return nil
}

// Services are the storage services the server uses.
type Services struct {
	Users      tengen.UserService
	Sessions   tengen.SessionService
	Challenges tengen.ChallengeService
	Games      tengen.GameService
	// Ratings reads rating histories for the profile; optional.
	Ratings tengen.RatingService
	// Play creates and plays games (moves, scoring, clocks, WebSocket
	// events): every change to a game goes through it.
	Play tengen.PlayService
	// Bots offers games against the computer; optional: without it the
	// lobby shows no "Play the computer" form.
	Bots tengen.BotService
	// Problems are the life-and-death problems of /problems; optional:
	// without them /problems is not served. ProblemProgress stores who
	// solved what; without it nothing is stored.
	Problems        tengen.ProblemService
	ProblemProgress tengen.ProblemProgressService
	// Analysis runs the engine's analysis of games (docs/API.md,
	// "Analysis"); optional: without it the analysis endpoints answer 404
	// and game pages show no Analyse button.
	Analysis tengen.AnalysisService
	// Lessons keeps the lesson progress of users; optional: without it
	// only the browser keeps progress.
	Lessons tengen.LessonService
	// Reviews stores reviews and Records reads their SGF; optional:
	// without both, /reviews is not served.
	Reviews tengen.ReviewService
	Records tengen.RecordService
	// Vacations starts and ends vacations (the settings page); nil
	// refuses them with an internal error.
	Vacations tengen.VacationService
	// Chat stores the chat of games and the lobby; optional: without it
	// there is no chat.
	Chat tengen.ChatService
	// Peer serves the calls of the other instances of a deployment
	// (peer.go) with Config.PeerSecret; optional: without either there
	// are no /internal/ endpoints.
	Peer tengen.PeerHandler
	// Seeks shares the quick-match seekers between instances
	// (PostgreSQL); optional: without it they stay in this server's
	// memory, as with one instance.
	Seeks tengen.SeekService
	// RateLimits keeps the buckets of the limits on logins, sign-ups,
	// challenges and chat for every instance (PostgreSQL); optional:
	// without it each server counts alone, as with one instance.
	RateLimits tengen.RateLimiter
}

// Server is Tengen's web server. Create it with NewServer, then either call
// Open and later Shutdown, or mount Handler in a server of your own.
type Server struct {
	cfg     Config
	svc     Services
	log     *slog.Logger
	secure  bool // cookies get the Secure flag (BaseURL is https)
	handler nethttp.Handler
	pages   *pages
	assets  *assets

	// dummyHash is compared against when a login names an unknown user, so
	// that response times do not reveal which names exist.
	dummyHash []byte

	ipLimit      *limiter // login and sign-up attempts per client address
	accountLimit *limiter // failed logins per account
	chalLimit    *limiter // new challenges per client address
	chatLimit    *limiter // chat messages per user

	hub hub // open game and site WebSockets
	lp  lobbyPush
	// seeks are the quick-match seekers (quickmatch.go).
	seeks *seekPool
	// started is when the server was made: absent challengers are
	// counted from it at the earliest.
	started time.Time
	// rooms are the review boards' watchers (reviews_ws.go).
	rooms reviewRooms

	analysisStreams analysisStreams // whole-game analyses per user

	// instance names this server on the bus (site.go); presence is the
	// sockets of the other instances (presence.go).
	instance string
	presence sitePresence

	mu   sync.Mutex      // guards srv, ln and stop
	srv  *nethttp.Server // set by Open
	ln   net.Listener    // set by Open
	stop chan struct{}   // closed by Shutdown to end background work
	done sync.WaitGroup  // background goroutines
}

// NewServer returns a Server for cfg that uses svc. It fails if the embedded
// templates, catalogues or assets are broken, or cfg is inconsistent.
func NewServer(cfg Config, svc Services) (*Server, error) {
	if err := cfg.setDefaults(); err != nil {
		return nil, err
	}
	if svc.Users == nil || svc.Sessions == nil || svc.Challenges == nil || svc.Games == nil || svc.Play == nil {
		return nil, errors.New("http: all services but Bots are required")
	}
	base, err := url.Parse(cfg.BaseURL)
	if err != nil || (base.Scheme != "http" && base.Scheme != "https") || base.Host == "" {
		return nil, fmt.Errorf("http: base URL %q must be an absolute http or https URL", cfg.BaseURL)
	}
	s := &Server{
		cfg:          cfg,
		svc:          svc,
		log:          cfg.Logger,
		secure:       base.Scheme == "https",
		ipLimit:      newLimiter(cfg.LoginBurst, cfg.LoginEvery, 100_000, cfg.Now),
		accountLimit: newLimiter(max(cfg.LoginBurst/4, 3), cfg.LoginEvery*5, 100_000, cfg.Now),
		chalLimit:    newLimiter(cfg.ChallengeBurst, cfg.ChallengeEvery, 100_000, cfg.Now),
		chatLimit:    newLimiter(cfg.ChatBurst, cfg.ChatEvery, 100_000, cfg.Now),
		stop:         make(chan struct{}),
		started:      cfg.Now(),
	}
	for name, l := range map[string]*limiter{"login": s.ipLimit, "account": s.accountLimit, "challenge": s.chalLimit, "chat": s.chatLimit} {
		l.shared, l.name, l.log = svc.RateLimits, name, s.log
	}
	s.seeks = newSeekPool(s)
	s.openSite()
	if s.dummyHash, err = bcrypt.GenerateFromPassword([]byte("not a real password"), s.bcryptCost()); err != nil {
		return nil, err
	}
	if s.assets, err = loadAssets(); err != nil {
		return nil, err
	}
	if s.pages, err = loadPages(s.assets); err != nil {
		return nil, err
	}
	cop := nethttp.NewCrossOriginProtection()
	if err := cop.AddTrustedOrigin(base.Scheme + "://" + base.Host); err != nil {
		return nil, err
	}
	cop.SetDenyHandler(nethttp.HandlerFunc(func(w nethttp.ResponseWriter, r *nethttp.Request) {
		s.error(w, r, tengen.Errorf(tengen.EFORBIDDEN, "Cross-origin request refused."))
	}))
	s.handler = s.withRequestLog(s.withRecover(s.withBody(cop.Handler(s.withUser(s.routes())))))
	return s, nil
}

// Handler returns the server's HTTP handler with all middleware.
func (s *Server) Handler() nethttp.Handler { return s.handler }

// Open starts listening on cfg.Addr and serving in the background; it
// returns once the listener is ready. It also starts hourly removal of
// expired sessions.
func (s *Server) Open() error {
	ln, err := net.Listen("tcp", s.cfg.Addr)
	if err != nil {
		return err
	}
	srv := &nethttp.Server{
		Handler:           s.handler,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
	}
	s.mu.Lock()
	s.srv, s.ln = srv, ln
	s.mu.Unlock()
	s.done.Add(1)
	go func() {
		defer s.done.Done()
		if err := srv.Serve(ln); err != nil && !errors.Is(err, nethttp.ErrServerClosed) {
			s.log.Error("http server stopped", "err", err)
		}
	}()
	s.every(30*time.Second, s.lobbyTick)
	s.every(time.Hour, s.sweepSessions)
	s.log.Info("listening", "addr", ln.Addr().String(), "base_url", s.cfg.BaseURL)
	return nil
}

// Addr returns the address Open listens on, or nil before Open.
func (s *Server) Addr() net.Addr {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ln == nil {
		return nil
	}
	return s.ln.Addr()
}

// Shutdown stops accepting connections and waits, until ctx ends, for
// in-flight requests to finish, so that writes that were started complete
// before the caller closes the database.
func (s *Server) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	srv := s.srv
	select {
	case <-s.stop:
	default:
		close(s.stop)
	}
	s.mu.Unlock()
	var err error
	if srv != nil {
		err = srv.Shutdown(ctx)
	}
	// Hijacked WebSocket connections are not the http.Server's business:
	// closing stop ended them; wait until their commands are done.
	if werr := s.hub.wait(ctx); err == nil {
		err = werr
	}
	s.done.Wait()
	s.seeks.wait()
	s.closeSite()
	return err
}

// every calls f every d, in a goroutine that Shutdown waits for through
// s.done, until Shutdown.
func (s *Server) every(d time.Duration, f func()) {
	s.done.Add(1)
	go func() {
		defer s.done.Done()
		t := time.NewTicker(d)
		defer t.Stop()
		for {
			select {
			case <-s.stop:
				return
			case <-t.C:
			}
			f()
		}
	}()
}

// sweepSessions deletes expired sessions (every hour, see Open).
func (s *Server) sweepSessions() {
	n, err := s.svc.Sessions.DeleteExpiredSessions(context.Background(), s.cfg.Now())
	if err != nil {
		s.log.Error("deleting expired sessions", "err", err)
	} else if n > 0 {
		s.log.Info("deleted expired sessions", "count", n)
	}
}

// routes registers every endpoint. Method patterns give 405 for wrong
// methods for free.
func (s *Server) routes() nethttp.Handler {
	mux := nethttp.NewServeMux()
	mux.HandleFunc("GET /healthz", s.handleHealth)
	mux.HandleFunc("GET /static/{file...}", s.assets.serve)

	// Pages.
	mux.HandleFunc("GET /{$}", s.handleHome)
	mux.HandleFunc("GET /signup", s.handleSignupPage)
	mux.HandleFunc("POST /signup", s.handleSignupForm)
	mux.HandleFunc("GET /login", s.handleLoginPage)
	mux.HandleFunc("POST /login", s.handleLoginForm)
	mux.HandleFunc("POST /logout", s.handleLogoutForm)
	mux.HandleFunc("POST /logout-everywhere", s.handleLogoutEverywhereForm)
	mux.HandleFunc("GET /users/{name}", s.handleProfile)
	mux.HandleFunc("GET /lang/{lang}", s.handleLang)
	mux.HandleFunc("POST /challenges", s.handleChallengeForm)
	mux.HandleFunc("POST /challenges/{id}/accept", s.handleAcceptForm)
	mux.HandleFunc("POST /challenges/{id}/cancel", s.handleCancelForm)
	mux.HandleFunc("GET /games/{id}", s.handleGamePage)
	mux.HandleFunc("GET /me/games", s.handleMyGames)
	mux.HandleFunc("POST /bots/play", s.handleBotForm)
	mux.HandleFunc("GET /learn", s.handleLearn)
	mux.HandleFunc("GET /learn/{id}", s.handleLesson)
	// The book's master games (Pfaundler §20).
	mux.HandleFunc("GET /learn/masters", s.handleMasters)
	mux.HandleFunc("GET /rules", s.handleRules)
	mux.HandleFunc("GET /glossary", s.handleGlossary)
	mux.HandleFunc("GET /help", s.handleHelp)

	// JSON API.
	mux.HandleFunc("POST /api/v1/register", s.apiRegister)
	mux.HandleFunc("POST /api/v1/login", s.apiLogin)
	mux.HandleFunc("POST /api/v1/logout", s.apiLogout)
	mux.HandleFunc("POST /api/v1/logout-everywhere", s.apiLogoutEverywhere)
	mux.HandleFunc("GET /api/v1/me", s.apiMe)
	mux.HandleFunc("GET /api/v1/lobby", s.apiLobby)
	mux.HandleFunc("GET /api/v1/challenges", s.apiListChallenges)
	mux.HandleFunc("POST /api/v1/challenges", s.apiCreateChallenge)
	mux.HandleFunc("GET /api/v1/challenges/{id}", s.apiGetChallenge)
	mux.HandleFunc("POST /api/v1/challenges/{id}/accept", s.apiAcceptChallenge)
	mux.HandleFunc("POST /api/v1/challenges/{id}/cancel", s.apiCancelChallenge)
	mux.HandleFunc("GET /api/v1/games", s.apiListGames)
	mux.HandleFunc("GET /api/v1/games/{id}", s.apiGetGame)
	mux.HandleFunc("GET /api/v1/users/{name}", s.apiGetUser)
	mux.HandleFunc("GET /api/v1/bots", s.apiListBots)
	mux.HandleFunc("POST /api/v1/bots/{name}/games", s.apiPlayBot)
	mux.HandleFunc("GET /api/v1/lessons", s.apiListLessons)
	mux.HandleFunc("POST /api/v1/lessons/{id}/steps/{n}", s.apiCheckStep)
	// Visitor progress carried into the account at login and sign-up.
	mux.HandleFunc("POST /api/v1/me/progress", s.apiMergeProgress)
	// Lobby WebSocket: lobby pushes, notifications, presence, quick match
	// (lobbyws.go, quickmatch.go).
	mux.HandleFunc("GET /api/v1/ws", s.handleSiteWS)
	s.adminRoutes(mux)
	s.playRoutes(mux)
	s.problemRoutes(mux)
	// The game room (issue 17): settings page, board options, password,
	// vacation, conditional moves.
	s.roomRoutes(mux)
	// Reviews (issue 19): upload, library, review board, shared review.
	s.reviewRoutes(mux)
	// Chat (issue 17): game and lobby chat, mutes, the admin's deletion.
	if s.svc.Chat != nil {
		s.chatRoutes(mux)
	}
	// The engine's analysis of games and positions (issue 19).
	s.analysisRoutes(mux)
	// Players and profiles (issue 16): the players page, search and the
	// profile's statistics and rating history.
	s.playerRoutes(mux)
	// Several instances (issue 20): the calls of the other instances
	// for the games this one owns, signed with the cluster secret.
	s.peerRoutes(mux)
	return s.withNotFound(mux)
}

// withNotFound answers unknown paths with the application's 404 (JSON under
// /api/, a page elsewhere). A catch-all pattern cannot do this: it would
// also swallow known paths requested with the wrong method, which must get
// the mux's 405 with an Allow header.
func (s *Server) withNotFound(mux *nethttp.ServeMux) nethttp.Handler {
	return nethttp.HandlerFunc(func(w nethttp.ResponseWriter, r *nethttp.Request) {
		if _, pattern := mux.Handler(r); pattern == "" && !pathKnown(mux, r) {
			s.error(w, r, tengen.Errorf(tengen.ENOTFOUND, "Not found."))
			return
		}
		defer noteRoute(r) // also when the handler panics
		mux.ServeHTTP(w, r)
	})
}

// pathKnown reports whether some method is registered for r's path.
func pathKnown(mux *nethttp.ServeMux, r *nethttp.Request) bool {
	for _, m := range []string{"GET", "POST", "PUT", "PATCH", "DELETE"} {
		r2 := r.Clone(r.Context())
		r2.Method = m
		if _, pattern := mux.Handler(r2); pattern != "" {
			return true
		}
	}
	return false
}

func (s *Server) handleHealth(w nethttp.ResponseWriter, r *nethttp.Request) {
	if s.cfg.Health != nil {
		ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
		defer cancel()
		if err := s.cfg.Health(ctx); err != nil {
			s.log.Error("health check failed", "err", err)
			writeJSON(w, nethttp.StatusServiceUnavailable, map[string]string{"status": "unavailable"})
			return
		}
	}
	writeJSON(w, nethttp.StatusOK, map[string]string{"status": "ok"})
}
