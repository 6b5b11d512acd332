package browsertest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"golang.org/x/crypto/bcrypt"

	"tengen/engine"
	"tengen/internal/app"
)

// site is a whole Tengen server on a fresh SQLite file, opened by app.Open
// as cmd/tengen/serve.go opens it, listening on a loopback port. It can be
// stopped and started again on the same address and database.
type site struct {
	url    string
	addr   string
	dbPath string
	stop   func() // stops the running server; nil when stopped
	// challengeTTL is app.Config.ChallengeTTL (0: the default).
	challengeTTL time.Duration
}

func newSite(t *testing.T) *site {
	t.Helper()
	return newSiteWith(t, func(*site) {})
}

// newSiteWith is newSite with settings of s changed by set before the
// server starts.
func newSiteWith(t *testing.T, set func(s *site)) *site {
	t.Helper()
	// A free port, so that the base URL names the port the browser uses.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &site{addr: ln.Addr().String(), dbPath: filepath.Join(t.TempDir(), "tengen.db")}
	ln.Close()
	set(s)
	s.start(t)
	t.Cleanup(func() {
		if s.stop != nil {
			s.stop()
		}
	})
	return s
}

// start opens the server on s.addr and s.dbPath.
func (s *site) start(t *testing.T) {
	t.Helper()
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	if testing.Verbose() {
		logger = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	}
	s.url = "http://" + s.addr
	cfg := app.Config{DBPath: s.dbPath, Addr: s.addr, BaseURL: s.url, Logger: logger, BcryptCost: bcrypt.MinCost, BotWorkers: 2,
		// Computer opponents as serve.go offers them, with small searches.
		EngineBots: &engine.Options{Threads: 1, MaxTime: time.Second, ScoringPlayouts: 100},
		DeadStones: &engine.Options{Threads: 1, ScoringPlayouts: 200},
		Analysis:   &engine.Options{Threads: 1}, ChallengeTTL: s.challengeTTL}
	var a *app.App
	var err error
	// The old listener's port may take a moment to become free (Open
	// closes what it opened when it cannot listen).
	for i := 0; i < 50; i++ {
		if a, err = app.Open(context.Background(), cfg); err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil {
		t.Fatal(err)
	}
	s.stop = func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		a.Close(ctx)
		s.stop = nil
	}
}

// The browser is started once for all tests; each test user gets a browser
// context of their own (separate cookies, like two people).
var (
	browserOnce   sync.Once
	browserCtx    context.Context
	browserErr    error
	browserCancel context.CancelFunc
)

// chromiumPath finds Debian's chromium.
func chromiumPath() (string, error) {
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", errors.New("chromium not found in PATH (Debian: apt-get install chromium)")
}

// browser returns the shared browser, skipping the test when chromium is
// missing unless TENGEN_REQUIRE_CHROMIUM is set.
func browser(t *testing.T) context.Context {
	t.Helper()
	browserOnce.Do(func() {
		path, err := chromiumPath()
		if err != nil {
			browserErr = err
			return
		}
		dir, err := os.MkdirTemp("", "tengen-chromium-")
		if err != nil {
			browserErr = err
			return
		}
		opts := []chromedp.ExecAllocatorOption{
			chromedp.ExecPath(path),
			chromedp.Headless,
			chromedp.NoSandbox,
			chromedp.DisableGPU,
			chromedp.NoFirstRun,
			chromedp.NoDefaultBrowserCheck,
			chromedp.UserDataDir(dir),
			chromedp.Flag("disable-background-networking", true),
			chromedp.Flag("disable-component-update", true),
			chromedp.Flag("disable-sync", true),
			chromedp.Flag("disable-dev-shm-usage", true),
			chromedp.Flag("disable-extensions", true),
			chromedp.Flag("disable-background-timer-throttling", true),
			chromedp.Flag("disable-renderer-backgrounding", true),
			chromedp.Flag("disable-backgrounding-occluded-windows", true),
			chromedp.WindowSize(1280, 900),
		}
		alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
		ctx, cancelCtx := chromedp.NewContext(alloc)
		if err := chromedp.Do(ctx); err != nil {
			cancelCtx()
			cancelAlloc()
			os.RemoveAll(dir)
			browserErr = fmt.Errorf("starting chromium: %w", err)
			return
		}
		browserCtx = ctx
		browserCancel = func() {
			cancelCtx()
			cancelAlloc()
			os.RemoveAll(dir)
		}
	})
	if browserErr != nil {
		if os.Getenv("TENGEN_REQUIRE_CHROMIUM") != "" {
			t.Fatalf("TENGEN_REQUIRE_CHROMIUM is set: %v", browserErr)
		}
		t.Skipf("browser tests skipped: %v", browserErr)
	}
	return browserCtx
}

func TestMain(m *testing.M) {
	code := m.Run()
	if browserCancel != nil {
		browserCancel()
	}
	os.Exit(code)
}

// person is one browser context: its own tab and cookies. Script errors
// and console errors on its pages fail the test.
type person struct {
	t    *testing.T
	name string
	ctx  context.Context
	site *site

	mu      sync.Mutex
	errors  []string // console errors seen so far
	allowed []string // substrings of console errors the test expects
}

// allowConsole lets console errors that contain substr pass the check at
// the end of the test.
func (p *person) allowConsole(substr string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.allowed = append(p.allowed, substr)
}

func (s *site) person(t *testing.T, name string) *person {
	t.Helper()
	ctx, cancel := chromedp.NewContext(browser(t), chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	p := &person{t: t, name: name, ctx: ctx, site: s}
	if err := chromedp.Do(ctx); err != nil {
		t.Fatal(err)
	}
	// Every page must run without script errors, failed loads and
	// Content-Security-Policy violations.
	t.Cleanup(func() {
		p.mu.Lock()
		defer p.mu.Unlock()
	next:
		for _, e := range p.errors {
			for _, a := range p.allowed {
				if strings.Contains(e, a) {
					continue next
				}
			}
			t.Errorf("%s: console: %s", p.name, e)
		}
	})
	go func() {
		for m, err := range chromedp.Console(ctx) {
			if err != nil {
				return
			}
			// Errors include uncaught exceptions, failed loads and
			// Content-Security-Policy violations.
			if m.IsException() || string(m.Type) == "error" {
				p.mu.Lock()
				p.errors = append(p.errors, m.String())
				p.mu.Unlock()
			}
		}
	}()
	return p
}

// consoleErrors returns the console errors seen so far.
func (p *person) consoleErrors() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.errors...)
}

// do runs actions with a time limit, failing the test with the step name.
func (p *person) do(step string, actions ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 15*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		p.t.Fatalf("%s: %s: %v (console: %q)", p.name, step, err, p.consoleErrors())
	}
}

// eval evaluates a JavaScript expression (awaiting promises) into T.
func eval[T any](p *person, expr string) T {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 15*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		p.t.Fatalf("%s: evaluating %s: %v (console: %q)", p.name, expr, err, p.consoleErrors())
	}
	return v
}

// waitFor polls a JavaScript condition until it is true. Errors while the
// page navigates (the context is destroyed under the evaluation) are retried.
func (p *person) waitFor(what, cond string) {
	p.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	var lastErr error
	for time.Now().Before(deadline) {
		ctx, cancel := context.WithTimeout(p.ctx, 2*time.Second)
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool]("!!("+cond+")"))
		cancel()
		if err == nil && ok {
			return
		}
		lastErr = err
		time.Sleep(25 * time.Millisecond)
	}
	p.t.Fatalf("%s: waiting for %s (%s): timed out, last error %v (console: %q)", p.name, what, cond, lastErr, p.consoleErrors())
}

// open navigates to a path of the site.
func (p *person) open(path string) {
	p.t.Helper()
	p.do("open "+path, chromedp.Navigate(p.site.url+path))
}

// screenshot saves the viewport as a PNG under the system's temp directory.
func (p *person) screenshot(name string) string {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 15*time.Second)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		p.t.Fatalf("screenshot: %v", err)
	}
	path := filepath.Join(os.TempDir(), name)
	if err := os.WriteFile(path, png, 0o644); err != nil {
		p.t.Fatal(err)
	}
	return path
}
