package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"tengen"
	"tengen/clock"
	"tengen/goban"
)

// built is the tengen binary that buildTengen built once for the tests of
// this run, in a directory that TestMain removes.
var built struct {
	once sync.Once
	dir  string
	bin  string
	err  error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// buildTengen builds the tengen binary once and returns its path.
func buildTengen(t *testing.T) string {
	t.Helper()
	built.once.Do(func() {
		// go test puts its own GOROOT/bin first on the PATH of the tests.
		goBin, err := exec.LookPath("go")
		if err != nil {
			built.err = fmt.Errorf("the go command is not on PATH: %w", err)
			return
		}
		if built.dir, built.err = os.MkdirTemp("", "tengen-test-"); built.err != nil {
			return
		}
		built.bin = filepath.Join(built.dir, "tengen")
		build := exec.Command(goBin, "build", "-o", built.bin, ".")
		build.Stderr = os.Stderr
		if err := build.Run(); err != nil {
			built.err = fmt.Errorf("go build: %w", err)
		}
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.bin
}

// server is a `tengen serve` child process.
type server struct {
	t    *testing.T
	cmd  *exec.Cmd
	base string
	log  *syncWriter   // its standard error
	done chan struct{} // closed when the process has ended and been waited for
}

// startServer starts bin serving db on addr, with further flags of serve
// if given, and waits until it answers.
func startServer(t *testing.T, bin, db, addr string, flags ...string) *server {
	t.Helper()
	s := launchServer(t, bin, db, addr, flags...)
	if err := s.waitHealthy(20 * time.Second); err != nil {
		t.Fatal(err)
	}
	return s
}

// launchServer starts bin serving db on addr and returns at once; the
// process is killed when t ends.
func launchServer(t *testing.T, bin, db, addr string, flags ...string) *server {
	t.Helper()
	s := &server{t: t, base: "http://" + addr, log: &syncWriter{w: &bytes.Buffer{}}}
	s.cmd = exec.Command(bin, append([]string{"serve", "--addr", addr, "--db", db, "--log-level", "warn"}, flags...)...)
	s.cmd.Stdout, s.cmd.Stderr = io.Discard, s.log
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s.done = make(chan struct{})
	go func() {
		s.cmd.Wait()
		close(s.done)
	}()
	t.Cleanup(func() {
		if !s.exited() {
			s.cmd.Process.Kill()
			<-s.done
		}
	})
	return s
}

// waitHealthy waits until the server answers /healthz with 200, and
// returns an error with its log if it does not within timeout or exits.
func (s *server) waitHealthy(timeout time.Duration) error {
	for deadline := time.Now().Add(timeout); ; {
		resp, err := http.Get(s.base + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return nil
			}
		}
		if time.Now().After(deadline) || s.exited() {
			return fmt.Errorf("server %s did not start: %v\n%s", s.base, err, s.logText())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// exited reports whether the process has ended.
func (s *server) exited() bool {
	select {
	case <-s.done:
		return true
	default:
		return false
	}
}

// logText returns what the server logged so far.
func (s *server) logText() string {
	s.log.mu.Lock()
	defer s.log.mu.Unlock()
	return s.log.w.String()
}

// kill stops the server hard, as a crash or power cut would.
func (s *server) kill() {
	s.t.Helper()
	if err := s.cmd.Process.Kill(); err != nil {
		s.t.Fatal(err)
	}
	<-s.done
}

// syncWriter collects the server's log; exec copies it from a goroutine.
type syncWriter struct {
	mu sync.Mutex // guards w
	w  *bytes.Buffer
}

func (w *syncWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.w.Write(p)
}

// apiClient is an API user with a cookie jar.
type apiClient struct {
	t    *testing.T
	c    *http.Client
	base string
}

func newAPIClient(t *testing.T, base string) *apiClient {
	jar, _ := cookiejar.New(nil)
	return &apiClient{t: t, c: &http.Client{Jar: jar, Timeout: 10 * time.Second}, base: base}
}

// call sends a JSON request and decodes the answer; it returns the status,
// or an error when the server did not answer.
func (c *apiClient) call(method, path string, body, out any) (int, error) {
	var rd io.Reader
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			c.t.Fatal(err)
		}
		rd = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, c.base+path, rd)
	if err != nil {
		c.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.c.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, err
	}
	if out != nil && resp.StatusCode < 300 {
		if err := json.Unmarshal(data, out); err != nil {
			c.t.Fatalf("%s %s: %v in %s", method, path, err, data)
		}
	}
	return resp.StatusCode, nil
}

func (c *apiClient) must(method, path string, body, out any, want int) {
	c.t.Helper()
	if status, err := c.call(method, path, body, out); err != nil || status != want {
		c.t.Fatalf("%s %s: status %d, %v; want %d", method, path, status, err, want)
	}
}

func freeAddr(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// spacedPoint is the point of move i: stones two lines apart never touch,
// so every move is legal and none captures.
func spacedPoint(i int) (x, y int) {
	return (i % 10) * 2, (i / 10) * 2
}

// TestRestart plays moves through the API on a `tengen serve` process, kills
// it with SIGKILL while moves are in flight, starts it again on the same
// database and checks that every acknowledged move is there and the game
// goes on.
func TestRestart(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the server binary")
	}
	bin := buildTengen(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "tengen.db")
	addr := freeAddr(t)
	srv := startServer(t, bin, db, addr)

	black, white := newAPIClient(t, srv.base), newAPIClient(t, srv.base)
	black.must("POST", "/api/v1/register", map[string]string{"name": "blacky", "password": "secret-blacky"}, nil, 201)
	white.must("POST", "/api/v1/register", map[string]string{"name": "whitey", "password": "secret-whitey"}, nil, 201)
	set := tengen.GameSettings{BoardSize: 19, Ruleset: "japanese", Color: tengen.ChooseBlack,
		TimeControl: clock.TimeControl{Kind: clock.Absolute, MainTime: time.Hour}}
	var ch struct{ Challenge tengen.Challenge }
	black.must("POST", "/api/v1/challenges", map[string]any{"settings": set}, &ch, 201)
	var g struct{ Game tengen.Game }
	white.must("POST", fmt.Sprintf("/api/v1/challenges/%d/accept", ch.Challenge.ID), nil, &g, 201)
	movesPath := fmt.Sprintf("/api/v1/games/%d/moves", g.Game.ID)

	// Play as fast as the server acknowledges; kill it after 30 moves while
	// the next one is on its way.
	var acked atomic.Int64
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; i < 90; i++ {
			p := black
			if i%2 == 1 {
				p = white
			}
			x, y := spacedPoint(i)
			status, err := p.call("POST", movesPath, map[string]any{"seq": i + 1, "kind": "play", "x": x, "y": y}, nil)
			if err != nil || status != 200 {
				return // the server is gone
			}
			acked.Store(int64(i + 1))
		}
	}()
	for acked.Load() < 30 {
		time.Sleep(time.Millisecond)
	}
	srv.kill()
	<-done
	n := int(acked.Load())
	time.Sleep(1500 * time.Millisecond) // time the server is down

	startServer(t, bin, db, addr) // same address; its Cleanup stops it
	var st struct{ State tengen.GameSnapshot }
	black.must("GET", fmt.Sprintf("/api/v1/games/%d/state", g.Game.ID), nil, &st, 200)
	count := st.State.Game.MoveCount
	// A move may have been committed without its answer reaching us.
	if count < n || count > n+1 {
		t.Fatalf("after restart the game has %d moves; %d were acknowledged", count, n)
	}
	for i, m := range st.State.Moves {
		x, y := spacedPoint(i)
		if m.Seq != i+1 || m.X != x || m.Y != y || m.Kind != tengen.MovePlay {
			t.Errorf("move %d after restart: %+v", i+1, m)
		}
	}
	// The player to move was not charged for the time the server was down
	// (nor for the thinking time since the last stored checkpoint).
	cv := st.State.Clock
	if cv == nil || cv.Running != st.State.Game.ToMove {
		t.Fatalf("clock after restart: %+v", cv)
	}
	side := cv.Black
	if cv.Running == goban.White {
		side = cv.White
	}
	if used := time.Hour - time.Duration(side.MainMs)*time.Millisecond; used > time.Second {
		t.Errorf("the player to move was charged %v, including the downtime", used)
	}

	// The game goes on.
	p := black
	if st.State.Game.ToMove == goban.White {
		p = white
	}
	x, y := spacedPoint(count)
	var after struct {
		Move *tengen.GameMove
		Game *tengen.Game
	}
	p.must("POST", movesPath, map[string]any{"seq": count + 1, "kind": "play", "x": x, "y": y}, &after, 200)
	if after.Game == nil || after.Game.MoveCount != count+1 || after.Move == nil || after.Move.Seq != count+1 {
		t.Errorf("move after restart: %+v", after)
	}
}
