package http_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	nethttp "net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"tengen"
	"tengen/clock"
	tengenhttp "tengen/http"
	"tengen/play"
	"tengen/problems"
	"tengen/sqlite"
)

// env is a server on a fresh SQLite file.
type env struct {
	t   *testing.T
	srv *httptest.Server
	db  *sqlite.DB
}

func newEnv(t *testing.T, change func(*tengenhttp.Config)) *env {
	t.Helper()
	db := sqlite.NewDB(filepath.Join(t.TempDir(), "tengen.db"))
	if err := db.Open(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	cfg := tengenhttp.Config{
		Addr:       "127.0.0.1:0",
		BaseURL:    "http://127.0.0.1",
		Logger:     slog.New(slog.NewTextHandler(io.Discard, nil)),
		BcryptCost: bcrypt.MinCost,
		Health:     db.Ping,
	}
	if change != nil {
		change(&cfg)
	}
	probs, err := problems.Load()
	if err != nil {
		t.Fatal(err)
	}
	s, err := tengenhttp.NewServer(cfg, tengenhttp.Services{
		Users:           sqlite.NewUserService(db),
		Sessions:        sqlite.NewSessionService(db),
		Challenges:      sqlite.NewChallengeService(db),
		Games:           sqlite.NewGameService(db),
		Ratings:         sqlite.NewRatingService(db),
		Play:            openPlay(t, db),
		Problems:        probs,
		ProblemProgress: sqlite.NewProblemService(db),
		Lessons:         sqlite.NewLessonService(db),
	})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(srv.Close)
	return &env{t: t, srv: srv, db: db}
}

// openPlay opens the play service on db for a harness that tests the web
// layer with http-only settings (internal/app wires the whole server for
// the others) and closes it when the test ends, before db.
func openPlay(t *testing.T, db *sqlite.DB) *play.Service {
	t.Helper()
	p := play.New(play.Config{Games: sqlite.NewGameService(db), Challenges: sqlite.NewChallengeService(db),
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err := p.Open(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// client is a browser-like client with its own cookie jar.
type client struct {
	e *env
	c *nethttp.Client
}

func (e *env) client() *client {
	jar, _ := cookiejar.New(nil)
	return &client{e: e, c: &nethttp.Client{Jar: jar, CheckRedirect: func(*nethttp.Request, []*nethttp.Request) error {
		return nethttp.ErrUseLastResponse
	}}}
}

// do sends a request; body, if not nil, a url.Values or a []byte (sent as
// SGF), is sent as JSON.
func (c *client) do(method, path string, body any, header ...string) (*nethttp.Response, []byte) {
	c.e.t.Helper()
	var rd io.Reader
	ctype := ""
	switch b := body.(type) {
	case nil:
	case url.Values:
		rd, ctype = strings.NewReader(b.Encode()), "application/x-www-form-urlencoded"
	case string:
		rd, ctype = strings.NewReader(b), "application/json"
	case []byte: // a game record
		rd, ctype = bytes.NewReader(b), "application/x-go-sgf"
	default:
		data, err := json.Marshal(b)
		if err != nil {
			c.e.t.Fatal(err)
		}
		rd, ctype = bytes.NewReader(data), "application/json"
	}
	req, err := nethttp.NewRequest(method, c.e.srv.URL+path, rd)
	if err != nil {
		c.e.t.Fatal(err)
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := c.c.Do(req)
	if err != nil {
		c.e.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		c.e.t.Fatal(err)
	}
	return resp, data
}

// api sends a JSON request, checks the status and decodes the response.
func (c *client) api(method, path string, body any, wantStatus int, out any) {
	c.e.t.Helper()
	resp, data := c.do(method, path, body)
	if resp.StatusCode != wantStatus {
		c.e.t.Fatalf("%s %s: status %d, want %d; body %s", method, path, resp.StatusCode, wantStatus, data)
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			c.e.t.Fatalf("%s %s: %v in %s", method, path, err, data)
		}
	}
}

// apiError sends a request and checks the JSON error code and status.
func (c *client) apiError(method, path string, body any, wantStatus int, wantCode string) {
	c.e.t.Helper()
	resp, data := c.do(method, path, body)
	var e struct {
		Error struct{ Code, Message, RequestID string }
	}
	if err := json.Unmarshal(data, &e); err != nil {
		c.e.t.Fatalf("%s %s: not a JSON error: %s", method, path, data)
	}
	if resp.StatusCode != wantStatus || e.Error.Code != wantCode || e.Error.Message == "" || e.Error.RequestID != resp.Header.Get("X-Request-Id") {
		c.e.t.Errorf("%s %s: status %d code %q (%s), want %d %q", method, path, resp.StatusCode, e.Error.Code, e.Error.Message, wantStatus, wantCode)
	}
}

func (c *client) register(name string) *tengen.User {
	c.e.t.Helper()
	var out struct{ User *tengen.User }
	c.api("POST", "/api/v1/register", map[string]string{"name": name, "password": "secret-" + name}, 201, &out)
	return out.User
}

func settings9() tengen.GameSettings {
	return tengen.GameSettings{BoardSize: 9, Ruleset: "japanese", Color: tengen.ChooseBlack,
		TimeControl: clock.TimeControl{Kind: clock.Fischer, MainTime: 5 * time.Minute, Increment: 5 * time.Second, MaxTime: 10 * time.Minute}}
}

func TestHealth(t *testing.T) {
	e := newEnv(t, nil)
	c := e.client()
	var out map[string]string
	c.api("GET", "/healthz", nil, 200, &out)
	if out["status"] != "ok" {
		t.Errorf("healthz = %v", out)
	}
	sick := newEnv(t, func(cfg *tengenhttp.Config) {
		cfg.Health = func(context.Context) error { return errors.New("disk gone") }
	})
	resp, _ := sick.client().do("GET", "/healthz", nil)
	if resp.StatusCode != 503 {
		t.Errorf("failing health check: status %d, want 503", resp.StatusCode)
	}
}

func TestAccountLifecycle(t *testing.T) {
	e := newEnv(t, nil)
	c := e.client()
	resp, data := c.do("POST", "/api/v1/register", map[string]string{"name": "Honinbo", "password": "correct horse"})
	if resp.StatusCode != 201 {
		t.Fatalf("register: %d %s", resp.StatusCode, data)
	}
	var cookie *nethttp.Cookie
	for _, ck := range resp.Cookies() {
		if ck.Name == "tengen_session" {
			cookie = ck
		}
	}
	if cookie == nil || !cookie.HttpOnly || cookie.SameSite != nethttp.SameSiteLaxMode || cookie.Secure || cookie.Path != "/" {
		t.Fatalf("session cookie = %+v", cookie)
	}
	if strings.Contains(string(data), "password") || strings.Contains(string(data), "$2a$") {
		t.Errorf("register response leaks the password or hash: %s", data)
	}
	var me struct{ User tengen.User }
	c.api("GET", "/api/v1/me", nil, 200, &me)
	if me.User.Name != "Honinbo" {
		t.Errorf("me = %+v", me.User)
	}
	c.api("POST", "/api/v1/logout", nil, 204, nil)
	c.apiError("GET", "/api/v1/me", nil, 401, tengen.EUNAUTHORIZED)
	// The old token is dead even if a client kept it.
	old := e.client()
	old.c.Jar.SetCookies(mustURL(e.srv.URL), []*nethttp.Cookie{cookie})
	old.apiError("GET", "/api/v1/me", nil, 401, tengen.EUNAUTHORIZED)

	c.apiError("POST", "/api/v1/login", map[string]string{"name": "honinbo", "password": "wrong password"}, 401, tengen.EUNAUTHORIZED)
	c.apiError("POST", "/api/v1/login", map[string]string{"name": "nobody", "password": "wrong password"}, 401, tengen.EUNAUTHORIZED)
	c.api("POST", "/api/v1/login", map[string]string{"name": "honinbo", "password": "correct horse"}, 200, &me)
	c.api("GET", "/api/v1/me", nil, 200, &me)

	c.apiError("POST", "/api/v1/register", map[string]string{"name": "HONINBO", "password": "another one"}, 409, tengen.ECONFLICT)
	c.apiError("POST", "/api/v1/register", map[string]string{"name": "x", "password": "another one"}, 400, tengen.EINVALID)
	c.apiError("POST", "/api/v1/register", map[string]string{"name": "Short", "password": "short"}, 400, tengen.EINVALID)
}

func mustURL(s string) *url.URL {
	u, err := url.Parse(s)
	if err != nil {
		panic(err)
	}
	return u
}

func TestSecureCookieOnHTTPS(t *testing.T) {
	e := newEnv(t, func(cfg *tengenhttp.Config) { cfg.BaseURL = "https://go.example.org" })
	resp, _ := e.client().do("POST", "/api/v1/register", map[string]string{"name": "alice", "password": "password1"})
	if len(resp.Cookies()) == 0 || !resp.Cookies()[0].Secure {
		t.Errorf("cookies on https site: %+v", resp.Cookies())
	}
}

func TestBadRequests(t *testing.T) {
	e := newEnv(t, nil)
	c := e.client()
	c.register("alice")
	tests := []struct {
		name, method, path string
		body               any
		status             int
		code               string
	}{
		{"malformed JSON", "POST", "/api/v1/login", `{"name": `, 400, tengen.EINVALID},
		{"unknown field", "POST", "/api/v1/login", `{"name": "a", "password": "b", "admin": true}`, 400, tengen.EINVALID},
		{"two values", "POST", "/api/v1/login", `{"name": "a", "password": "b"} {}`, 400, tengen.EINVALID},
		{"oversized", "POST", "/api/v1/login", `{"name": "` + strings.Repeat("a", 100<<10) + `"}`, 400, tengen.EINVALID},
		{"unknown endpoint", "GET", "/api/v1/nothing", nil, 404, tengen.ENOTFOUND},
		{"bad id", "GET", "/api/v1/games/abc", nil, 404, tengen.ENOTFOUND},
		{"unknown game", "GET", "/api/v1/games/12345", nil, 404, tengen.ENOTFOUND},
		{"unknown user", "GET", "/api/v1/users/nobody", nil, 404, tengen.ENOTFOUND},
		{"bad limit", "GET", "/api/v1/games?limit=1000", nil, 400, tengen.EINVALID},
		{"bad status", "GET", "/api/v1/games?status=won", nil, 400, tengen.EINVALID},
		{"bad settings", "POST", "/api/v1/challenges", map[string]any{"settings": map[string]any{"boardSize": 30}}, 400, tengen.EINVALID},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c.apiError(tt.method, tt.path, tt.body, tt.status, tt.code)
		})
	}
	resp, _ := c.do("DELETE", "/api/v1/me", nil)
	if resp.StatusCode != 405 {
		t.Errorf("DELETE /api/v1/me: %d, want 405", resp.StatusCode)
	}
}

func TestLoginRateLimit(t *testing.T) {
	e := newEnv(t, func(cfg *tengenhttp.Config) { cfg.LoginBurst, cfg.LoginEvery = 12, time.Hour })
	c := e.client()
	c.register("alice")
	// Per account: 12/4 = 3 failures, then refused even with the right password.
	for i := range 3 {
		c.apiError("POST", "/api/v1/login", map[string]string{"name": "alice", "password": fmt.Sprint("wrong", i)}, 401, tengen.EUNAUTHORIZED)
	}
	resp, data := c.do("POST", "/api/v1/login", map[string]string{"name": "alice", "password": "secret-alice"})
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") == "" || !strings.Contains(string(data), tengen.ERATELIMIT) {
		t.Errorf("4th attempt: %d Retry-After=%q %s", resp.StatusCode, resp.Header.Get("Retry-After"), data)
	}
	// Per address: the remaining attempts of the burst go to other names.
	for i := range 8 {
		c.apiError("POST", "/api/v1/login", map[string]string{"name": fmt.Sprint("user", i), "password": "x"}, 401, tengen.EUNAUTHORIZED)
	}
	c.apiError("POST", "/api/v1/login", map[string]string{"name": "bob", "password": "x"}, 429, tengen.ERATELIMIT)
}

func TestSuccessfulLoginResetsAccountLimit(t *testing.T) {
	// The account allows 12/4 = 3 attempts; without the reset after each
	// successful login, the fourth attempt below would be refused.
	e := newEnv(t, func(cfg *tengenhttp.Config) { cfg.LoginBurst, cfg.LoginEvery = 12, time.Hour })
	c := e.client()
	c.register("alice")
	for range 3 {
		for i := range 2 {
			c.apiError("POST", "/api/v1/login", map[string]string{"name": "alice", "password": fmt.Sprint("wrong", i)}, 401, tengen.EUNAUTHORIZED)
		}
		c.api("POST", "/api/v1/login", map[string]string{"name": "alice", "password": "secret-alice"}, 200, nil)
	}
}

func TestCrossOriginProtection(t *testing.T) {
	e := newEnv(t, nil)
	c := e.client()
	body := map[string]string{"name": "alice", "password": "password1"}
	resp, data := c.do("POST", "/api/v1/register", body, "Sec-Fetch-Site", "cross-site")
	if resp.StatusCode != 403 || !strings.Contains(string(data), tengen.EFORBIDDEN) {
		t.Errorf("cross-site POST: %d %s", resp.StatusCode, data)
	}
	resp, _ = c.do("POST", "/api/v1/register", body, "Origin", "https://evil.example")
	if resp.StatusCode != 403 {
		t.Errorf("POST from a foreign Origin: %d", resp.StatusCode)
	}
	resp, _ = c.do("POST", "/signup", url.Values{"name": {"alice"}, "password": {"password1"}, "password2": {"password1"}}, "Sec-Fetch-Site", "cross-site")
	if resp.StatusCode != 403 {
		t.Errorf("cross-site form POST: %d", resp.StatusCode)
	}
	resp, _ = c.do("GET", "/api/v1/lobby", nil, "Sec-Fetch-Site", "cross-site")
	if resp.StatusCode != 200 {
		t.Errorf("cross-site GET: %d, want 200", resp.StatusCode)
	}
	resp, _ = c.do("POST", "/api/v1/register", body, "Sec-Fetch-Site", "same-origin")
	if resp.StatusCode != 201 {
		t.Errorf("same-origin POST: %d", resp.StatusCode)
	}
}

type challengeResp struct{ Challenge tengen.Challenge }
type challengesResp struct {
	Challenges []tengen.Challenge
	Total      int
}
type gameResp struct {
	Game  tengen.Game
	Moves []tengen.GameMove
}

func TestChallengesAndLobby(t *testing.T) {
	e := newEnv(t, nil)
	alice, bob, carol, anon := e.client(), e.client(), e.client(), e.client()
	alice.register("alice")
	bobUser := bob.register("bob")
	carol.register("carol")

	anon.apiError("POST", "/api/v1/challenges", map[string]any{"settings": settings9()}, 401, tengen.EUNAUTHORIZED)
	var open, direct challengeResp
	alice.api("POST", "/api/v1/challenges", map[string]any{"settings": settings9()}, 201, &open)
	alice.api("POST", "/api/v1/challenges", map[string]any{"opponent": "carol", "settings": settings9()}, 201, &direct)
	alice.apiError("POST", "/api/v1/challenges", map[string]any{"opponent": "nobody", "settings": settings9()}, 404, tengen.ENOTFOUND)
	if open.Challenge.Status != tengen.ChallengeOpen || open.Challenge.Settings.TimeControl != settings9().TimeControl {
		t.Errorf("created challenge %+v", open.Challenge)
	}

	var list challengesResp
	bob.api("GET", "/api/v1/challenges", nil, 200, &list)
	if list.Total != 1 || list.Challenges[0].ID != open.Challenge.ID {
		t.Errorf("bob sees %+v", list)
	}
	anon.api("GET", "/api/v1/challenges", nil, 200, &list)
	if list.Total != 1 {
		t.Errorf("anonymous sees %d challenges, want 1", list.Total)
	}
	carol.api("GET", "/api/v1/challenges", nil, 200, &list)
	if list.Total != 2 {
		t.Errorf("carol sees %d challenges, want 2", list.Total)
	}
	bob.apiError("GET", fmt.Sprintf("/api/v1/challenges/%d", direct.Challenge.ID), nil, 404, tengen.ENOTFOUND)
	bob.apiError("POST", fmt.Sprintf("/api/v1/challenges/%d/accept", direct.Challenge.ID), nil, 404, tengen.ENOTFOUND)
	bob.apiError("POST", fmt.Sprintf("/api/v1/challenges/%d/cancel", open.Challenge.ID), nil, 403, tengen.EFORBIDDEN)
	alice.apiError("POST", fmt.Sprintf("/api/v1/challenges/%d/accept", open.Challenge.ID), nil, 403, tengen.EFORBIDDEN)
	anon.apiError("POST", fmt.Sprintf("/api/v1/challenges/%d/accept", open.Challenge.ID), nil, 401, tengen.EUNAUTHORIZED)

	var g gameResp
	bob.api("POST", fmt.Sprintf("/api/v1/challenges/%d/accept", open.Challenge.ID), nil, 201, &g)
	if g.Game.WhiteID != bobUser.ID || g.Game.Black == nil || g.Game.Black.Name != "alice" || g.Game.Status != tengen.GamePlaying {
		t.Errorf("game %+v", g.Game)
	}
	carol.apiError("POST", fmt.Sprintf("/api/v1/challenges/%d/accept", open.Challenge.ID), nil, 409, tengen.ECONFLICT)
	alice.apiError("POST", fmt.Sprintf("/api/v1/challenges/%d/cancel", open.Challenge.ID), nil, 409, tengen.ECONFLICT)
	var declined challengeResp
	carol.api("POST", fmt.Sprintf("/api/v1/challenges/%d/cancel", direct.Challenge.ID), nil, 200, &declined)
	if declined.Challenge.Status != tengen.ChallengeDeclined {
		t.Errorf("declined challenge status %s", declined.Challenge.Status)
	}

	var lobby struct {
		User       *tengen.User
		Challenges []tengen.Challenge
		Games      []tengen.Game
	}
	alice.api("GET", "/api/v1/lobby", nil, 200, &lobby)
	if lobby.User == nil || lobby.User.Name != "alice" || len(lobby.Challenges) != 0 || len(lobby.Games) != 1 || !lobby.Games[0].IsTurnOf(lobby.User.ID) {
		t.Errorf("alice's lobby %+v", lobby)
	}
	anon.api("GET", "/api/v1/lobby", nil, 200, &lobby)
	if lobby.User != nil || lobby.Games == nil || len(lobby.Games) != 0 {
		t.Errorf("anonymous lobby %+v", lobby)
	}

	var got gameResp
	anon.api("GET", fmt.Sprintf("/api/v1/games/%d", g.Game.ID), nil, 200, &got)
	if got.Game.ID != g.Game.ID || got.Game.Settings.BoardSize != 9 {
		t.Errorf("spectator view %+v", got)
	}
	var games struct {
		Games []tengen.Game
		Total int
	}
	anon.api("GET", "/api/v1/games?user=bob&status=playing", nil, 200, &games)
	if games.Total != 1 {
		t.Errorf("bob's games: %+v", games)
	}
	var profile struct {
		User  tengen.User
		Games []tengen.Game
	}
	anon.api("GET", "/api/v1/users/ALICE", nil, 200, &profile)
	if profile.User.Name != "alice" || len(profile.Games) != 1 {
		t.Errorf("profile %+v", profile)
	}
}

// page fetches an HTML page and checks the status.
func (c *client) page(path string, wantStatus int, header ...string) string {
	c.e.t.Helper()
	resp, data := c.do("GET", path, nil, header...)
	if resp.StatusCode != wantStatus {
		c.e.t.Fatalf("GET %s: %d, want %d", path, resp.StatusCode, wantStatus)
	}
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
		c.e.t.Errorf("GET %s: Content-Type %q", path, ct)
	}
	return string(data)
}

func TestPagesInBothLanguages(t *testing.T) {
	e := newEnv(t, nil)
	alice, bob := e.client(), e.client()
	alice.register("alice")
	bob.register("bob")
	var open challengeResp
	alice.api("POST", "/api/v1/challenges", map[string]any{"settings": settings9()}, 201, &open)
	corr := settings9()
	corr.TimeControl = clock.CorrespondenceDays(2, 10)
	alice.api("POST", "/api/v1/challenges", map[string]any{"opponent": "bob", "settings": corr}, 201, nil)
	bob.api("POST", fmt.Sprintf("/api/v1/challenges/%d/accept", open.Challenge.ID), nil, 201, nil)
	anon := e.client()

	tests := []struct {
		c      *client
		path   string
		status int
		en, de string
	}{
		{anon, "/", 200, "Play Go in your browser", "Go spielen im Browser"},
		{alice, "/", 200, "Your turn", "Du bist am Zug"},
		{bob, "/", 200, "Waiting for the opponent", "Warten auf den Gegner"},
		{bob, "/", 200, "Decline", "Ablehnen"},
		// Phones hide the header row; each cell carries its column's name.
		{bob, "/", 200, `<td data-label="Board">`, `<td data-label="Brett">`},
		{alice, "/", 200, `<td data-label="Moves">`, `<td data-label="Züge">`},
		{bob, "/", 200, `<td data-label="Komi">6.5</td>`, `<td data-label="Komi">6,5</td>`},
		{bob, "/", 200, "2 days per move, at most 10", "2 Tage pro Zug, höchstens 10"},
		{anon, "/signup", 200, "Create an account", "Konto anlegen"},
		{anon, "/signup", 200, "(no accents or spaces)", "(ohne Umlaute, Akzente und Leerzeichen)"},
		{anon, "/signup", 200, `aria-describedby="name-hint"`, `aria-describedby="name-hint"`},
		{anon, "/login", 200, "No account yet?", "Noch kein Konto?"},
		{anon, "/users/alice", 200, "Member since", "Mitglied seit"},
		{anon, "/users/nobody", 404, "Not found.", "Nicht gefunden."},
		{anon, "/no/such/page", 404, "Back to the lobby", "Zurück zur Lobby"},
		{anon, "/users/nobody", 404, "User not found.", "Benutzer nicht gefunden."},
	}
	for _, tt := range tests {
		en := tt.c.page(tt.path, tt.status, "Accept-Language", "en-GB,en;q=0.9")
		de := tt.c.page(tt.path, tt.status, "Accept-Language", "de-DE,de;q=0.9,en;q=0.5")
		if !strings.Contains(en, tt.en) || !strings.Contains(en, `<html lang="en">`) {
			t.Errorf("GET %s in English lacks %q", tt.path, tt.en)
		}
		if !strings.Contains(de, tt.de) || !strings.Contains(de, `<html lang="de">`) {
			t.Errorf("GET %s in German lacks %q", tt.path, tt.de)
		}
	}
}

func TestLanguageSwitch(t *testing.T) {
	e := newEnv(t, nil)
	c := e.client()
	resp, _ := c.do("GET", "/lang/de?next=/login", nil)
	if resp.StatusCode != 303 || resp.Header.Get("Location") != "/login" {
		t.Fatalf("switch: %d to %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	if page := c.page("/login", 200, "Accept-Language", "en"); !strings.Contains(page, "Noch kein Konto?") {
		t.Error("the lang cookie does not override Accept-Language")
	}
	for _, next := range []string{"//evil.example/", "https://evil.example/", "/\\evil.example", "javascript:alert(1)", ""} {
		resp, _ := c.do("GET", "/lang/en?next="+url.QueryEscape(next), nil)
		if loc := resp.Header.Get("Location"); loc != "/" {
			t.Errorf("next=%q redirects to %q, want /", next, loc)
		}
	}
	resp, _ = c.do("GET", "/lang/xx", nil)
	if resp.StatusCode != 404 {
		t.Errorf("unknown language: %d", resp.StatusCode)
	}
}

func TestStaticAssets(t *testing.T) {
	e := newEnv(t, nil)
	c := e.client()
	page := c.page("/", 200)
	m := regexp.MustCompile(`href="(/static/app\.[0-9a-f]{10}\.css)"`).FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("no hashed stylesheet in page")
	}
	resp, data := c.do("GET", m[1], nil)
	if resp.StatusCode != 200 || !strings.Contains(resp.Header.Get("Cache-Control"), "immutable") || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/css") {
		t.Errorf("GET %s: %d %q %q", m[1], resp.StatusCode, resp.Header.Get("Cache-Control"), resp.Header.Get("Content-Type"))
	}
	resp, plain := c.do("GET", "/static/app.css", nil)
	if resp.StatusCode != 200 || resp.Header.Get("Cache-Control") != "no-cache" || !bytes.Equal(plain, data) {
		t.Errorf("GET /static/app.css: %d %q", resp.StatusCode, resp.Header.Get("Cache-Control"))
	}
	resp, _ = c.do("GET", "/static/app.css", nil, "If-None-Match", resp.Header.Get("ETag"))
	if resp.StatusCode != 304 {
		t.Errorf("conditional GET: %d, want 304", resp.StatusCode)
	}
	im := regexp.MustCompile(`<script type="importmap">(.*?)</script>`).FindStringSubmatch(page)
	if im == nil {
		t.Fatal("no import map")
	}
	var importMap struct{ Imports map[string]string }
	if err := json.Unmarshal([]byte(im[1]), &importMap); err != nil {
		t.Fatal(err)
	}
	resp, _ = c.do("GET", "/", nil)
	sum := sha256.Sum256([]byte(im[1]))
	if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "'sha256-"+base64.StdEncoding.EncodeToString(sum[:])+"'") ||
		!strings.Contains(csp, "frame-ancestors 'none'") {
		t.Errorf("CSP %q does not allow the import map by hash", csp)
	}
	hashed := importMap.Imports["/static/js/tc-form.js"]
	if !regexp.MustCompile(`^/static/js/tc-form\.[0-9a-f]{10}\.js$`).MatchString(hashed) {
		t.Fatalf("import map entry %q", hashed)
	}
	resp, _ = c.do("GET", hashed, nil)
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/javascript") {
		t.Errorf("GET %s: %d %q", hashed, resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	resp, _ = c.do("GET", "/static/nope.js", nil)
	if resp.StatusCode != 404 {
		t.Errorf("unknown asset: %d", resp.StatusCode)
	}
}

func TestForms(t *testing.T) {
	e := newEnv(t, nil)
	alice, bob := e.client(), e.client()
	signup := func(c *client, name string) {
		t.Helper()
		resp, data := c.do("POST", "/signup", url.Values{"name": {name}, "password": {"password1"}, "password2": {"password1"}})
		if resp.StatusCode != 303 {
			t.Fatalf("sign-up form: %d %s", resp.StatusCode, data)
		}
	}
	signup(alice, "alice")
	signup(bob, "bob")

	resp, data := e.client().do("POST", "/signup", url.Values{"name": {"ALICE"}, "password": {"password1"}, "password2": {"password1"}}, "Accept-Language", "de")
	if resp.StatusCode != 409 || !strings.Contains(string(data), "Dieser Benutzername ist vergeben.") {
		t.Errorf("duplicate sign-up: %d", resp.StatusCode)
	}
	resp, data = e.client().do("POST", "/signup", url.Values{"name": {"carol"}, "password": {"password1"}, "password2": {"password2"}})
	if resp.StatusCode != 400 || !strings.Contains(string(data), "The two passwords differ.") {
		t.Errorf("password mismatch: %d", resp.StatusCode)
	}
	resp, data = e.client().do("POST", "/login", url.Values{"name": {"alice"}, "password": {"nope-nope"}})
	if resp.StatusCode != 401 || !strings.Contains(string(data), "Wrong user name or password.") || !strings.Contains(string(data), `value="alice"`) {
		t.Errorf("failed log-in form: %d", resp.StatusCode)
	}

	form := url.Values{"opponent": {""}, "boardSize": {"13"}, "ruleset": {"chinese"}, "komi": {"7,5"}, "handicap": {"0"},
		"color": {"white"}, "tcKind": {"byoyomi"}, "mainMinutes": {"10"}, "periods": {"3"}, "periodSeconds": {"30"},
		"stones": {"not a number but unused"}}
	resp, data = alice.do("POST", "/challenges", form)
	if resp.StatusCode != 303 {
		t.Fatalf("challenge form: %d %s", resp.StatusCode, data)
	}
	// The form confirms the challenge where it was filled in.
	if loc := resp.Header.Get("Location"); loc != "/?challenge=created#new-challenge" {
		t.Errorf("challenge form sends to %q", loc)
	}
	if page := alice.page("/?challenge=created", 200); !strings.Contains(page, `id="challenge-notice"`) ||
		!strings.Contains(page, "Challenge made") {
		t.Error("the lobby does not confirm the new challenge at the form")
	}
	if page := alice.page("/", 200); strings.Contains(page, `id="challenge-notice"`) {
		t.Error("the lobby confirms a challenge nobody just made")
	}
	var list challengesResp
	bob.api("GET", "/api/v1/challenges", nil, 200, &list)
	if list.Total != 1 {
		t.Fatalf("challenges after form: %+v", list)
	}
	got := list.Challenges[0].Settings
	if got.BoardSize != 13 || got.Ruleset != "chinese" || got.Komi == nil || *got.Komi != 7.5 || got.Color != tengen.ChooseWhite ||
		got.TimeControl != (clock.TimeControl{Kind: clock.ByoYomi, MainTime: 10 * time.Minute, Periods: 3, PeriodTime: 30 * time.Second}) {
		t.Errorf("challenge from form: %+v", got)
	}
	bad := url.Values{"boardSize": {"30"}, "ruleset": {"chinese"}, "handicap": {"0"}, "color": {"white"}, "tcKind": {"none"}}
	resp, data = alice.do("POST", "/challenges", bad)
	if resp.StatusCode != 400 || !strings.Contains(string(data), "Board size must be between 5 and 25.") {
		t.Errorf("bad challenge form: %d", resp.StatusCode)
	}
	if strings.Contains(string(data), "The input is not valid.") {
		t.Error("bad challenge form: the general text doubles the message")
	}
	// The refusal shows at the form, not at the top of the page.
	if page := string(data); !strings.Contains(page, `<p class="error" role="alert" id="challenge-error">Board size must be between 5 and 25.</p>`) ||
		strings.Index(page, `id="challenge-error"`) < strings.Index(page, `id="new-challenge"`) {
		t.Error("bad challenge form: the error is not at the form")
	}
	if page := string(data); !strings.Contains(page, `name="boardSize" type="number" min="5" max="25" value="30"`) ||
		!strings.Contains(page, `<option value="none" selected>`) || !strings.Contains(page, `<option value="white" selected>`) {
		t.Error("refused challenge form does not keep the typed values")
	}
	notNumber := url.Values{"boardSize": {"19"}, "ruleset": {"aga"}, "handicap": {"0"}, "color": {"black"}, "tcKind": {"byoyomi"},
		"mainMinutes": {"10"}, "periods": {"five"}, "periodSeconds": {"30"}}
	resp, data = alice.do("POST", "/challenges", notNumber)
	if resp.StatusCode != 400 || !strings.Contains(string(data), "Not a number: periods.") || !strings.Contains(string(data), `value="five"`) {
		t.Errorf("challenge form with a word for a number: %d", resp.StatusCode)
	}
	resp, data = alice.do("POST", "/challenges", bad, "Accept-Language", "de")
	if resp.StatusCode != 400 || !strings.Contains(string(data), "Die Brettgröße muss zwischen 5 und 25 liegen.") || strings.Contains(string(data), "Die Eingabe ist ungültig.") {
		t.Errorf("bad challenge form in German: %d", resp.StatusCode)
	}
	resp, _ = bob.do("POST", fmt.Sprintf("/challenges/%d/accept", list.Challenges[0].ID), url.Values{})
	if resp.StatusCode != 303 {
		t.Errorf("accept form: %d", resp.StatusCode)
	}
	if page := bob.page("/", 200); !strings.Contains(page, "Your turn") {
		t.Error("bob (Black, since alice chose White) does not see his turn after accepting")
	}
	if page := alice.page("/", 200); !strings.Contains(page, "Waiting for the opponent") {
		t.Error("alice (White) does not see that she waits")
	}
	resp, _ = e.client().do("POST", "/challenges", form)
	if resp.StatusCode != 303 || resp.Header.Get("Location") != "/login" {
		t.Errorf("anonymous challenge form: %d to %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	resp, _ = alice.do("POST", "/logout", url.Values{})
	if resp.StatusCode != 303 {
		t.Errorf("logout form: %d", resp.StatusCode)
	}
	if page := alice.page("/", 200); !strings.Contains(page, "Play Go in your browser") {
		t.Error("still logged in after logout")
	}
}

func TestOpenShutdown(t *testing.T) {
	db := sqlite.NewDB(filepath.Join(t.TempDir(), "tengen.db"))
	if err := db.Open(); err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	s, err := tengenhttp.NewServer(tengenhttp.Config{Addr: "127.0.0.1:0", Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), BcryptCost: bcrypt.MinCost},
		tengenhttp.Services{Users: sqlite.NewUserService(db), Sessions: sqlite.NewSessionService(db),
			Challenges: sqlite.NewChallengeService(db), Games: sqlite.NewGameService(db), Play: openPlay(t, db)})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Open(); err != nil {
		t.Fatal(err)
	}
	resp, err := nethttp.Get("http://" + s.Addr().String() + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("healthz: %d", resp.StatusCode)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := s.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := nethttp.Get("http://" + s.Addr().String() + "/healthz"); err == nil {
		t.Error("server still answers after Shutdown")
	}
}

func TestNewServerRejectsBadConfig(t *testing.T) {
	svc := tengenhttp.Services{}
	if _, err := tengenhttp.NewServer(tengenhttp.Config{}, svc); err == nil {
		t.Error("missing services accepted")
	}
}
