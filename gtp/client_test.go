package gtp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"
	"tengen/internal/oracle"
	"testing"
	"time"
)

// The test binary doubles as an external engine: with GTP_TEST_ENGINE set it
// serves GTP on stdin/stdout instead of running tests.
func TestMain(m *testing.M) {
	switch os.Getenv("GTP_TEST_ENGINE") {
	case "":
		os.Exit(m.Run())
	case "serve":
		s := newTestServer(nil)
		fmt.Fprintln(os.Stderr, "test engine starting")
		if err := s.Serve(context.Background(), os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	case "ignore-quit":
		// Answers quit but never exits: Close must kill it.
		s := NewServer("stubborn", "1")
		s.Handle("quit", func(context.Context, Command) (string, error) { return "", nil })
		s.Serve(context.Background(), os.Stdin, os.Stdout)
		time.Sleep(time.Hour)
	case "mute":
		// Reads commands and never answers or exits.
		io.Copy(io.Discard, os.Stdin)
		time.Sleep(time.Hour)
	case "crash":
		fmt.Fprintln(os.Stderr, "fatal: no weights file")
		os.Exit(3)
	}
}

func newPipeClient(t *testing.T, s server) *Client {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	go func() {
		s.Serve(context.Background(), inR, outW)
		outW.Close()
	}()
	t.Cleanup(func() { inW.Close(); outR.Close() })
	return NewClient(outR, inW, nil)
}

func TestClientInProcess(t *testing.T) {
	c := newPipeClient(t, newTestServer(t))
	ctx := context.Background()
	tests := []struct {
		name    string
		args    []string
		want    string
		wantErr string
	}{
		{name: "name", want: "Tengen test"},
		{name: "protocol_version", want: "2"},
		{name: "echo", args: []string{"a", "b c"}, want: "a b c"},
		{name: "multiline", want: "first\nsecond\nthird"},
		{name: "diagram", want: "   A B\n 2 . .\n 1 . ."},
		{name: "nonsense", wantErr: "unknown command"},
		{name: "panic", wantErr: "internal error: assignment to entry in nil map"},
		{name: "echo", args: []string{"x#y"}, wantErr: "control character or '#'"},
		{name: "echo", args: []string{"x\ny"}, wantErr: "control character or '#'"},
		{name: "two words", wantErr: "invalid command name"},
	}
	for _, tt := range tests {
		got, err := c.Send(ctx, tt.name, tt.args...)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("Send(%q, %q) error = %v, want %q", tt.name, tt.args, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("Send(%q, %q) = %q, %v; want %q", tt.name, tt.args, got, err, tt.want)
		}
	}
	var gerr *Error
	if _, err := c.Send(ctx, "fail"); !errors.As(err, &gerr) || gerr.Message != "this command always fails" || gerr.Command != "fail" {
		t.Errorf("failure response: %#v", err)
	}
	if _, err := c.Send(ctx, "quit"); err != nil {
		t.Errorf("quit: %v", err)
	}
	if _, err := c.Send(ctx, "name"); !errors.Is(err, ErrClosed) {
		t.Errorf("after quit: %v, want ErrClosed", err)
	}
}

// TestClientTimeoutDiscardsLateResponse abandons a slow command and checks
// that its late response is not taken for the next command's.
func TestClientTimeoutDiscardsLateResponse(t *testing.T) {
	s := NewServer("x", "1")
	started, release := make(chan struct{}), make(chan struct{})
	s.Handle("slow", func(context.Context, Command) (string, error) {
		close(started)
		<-release
		return "slow result", nil
	})
	c := newPipeClient(t, s)
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := c.Send(ctx, "slow")
		errc <- err
	}()
	<-started
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Fatalf("abandoned Send = %v, want context.Canceled", err)
	}
	close(release)
	got, err := c.Send(context.Background(), "name")
	if err != nil || got != "x" {
		t.Errorf("next Send = %q, %v; want the name, not the late response", got, err)
	}
}

// TestClientWithoutIDs talks to an engine that never echoes ids.
func TestClientWithoutIDs(t *testing.T) {
	cmdR, cmdW := io.Pipe()
	respR, respW := io.Pipe()
	t.Cleanup(func() { cmdW.Close(); respR.Close() })
	go func() {
		r := NewReader(cmdR)
		for {
			cmd, err := r.Next()
			if err != nil {
				respW.Close()
				return
			}
			fmt.Fprintf(respW, "= reply to %s\n\n", cmd.Name)
		}
	}()
	c := NewClient(respR, cmdW, nil)
	for _, name := range []string{"a", "b", "c"} {
		got, err := c.Send(context.Background(), name)
		if want := "reply to " + name; err != nil || got != want {
			t.Errorf("Send(%q) = %q, %v; want %q", name, got, err, want)
		}
	}
}

func testEngine(t *testing.T, mode string, stderr io.Writer, grace time.Duration) *Process {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	p, err := Start(context.Background(), exe, nil, ProcessOptions{
		Env:         append(os.Environ(), "GTP_TEST_ENGINE="+mode),
		Stderr:      stderr,
		GracePeriod: grace,
	})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestProcess(t *testing.T) {
	var log strings.Builder
	// log is read only after Done, when Wait has finished copying stderr.
	p := testEngine(t, "serve", &log, 0)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if got, err := p.Send(ctx, "name"); err != nil || got != "Tengen test" {
		t.Fatalf("name = %q, %v", got, err)
	}
	if _, err := p.Send(ctx, "nonsense"); err == nil {
		t.Errorf("unknown command succeeded")
	}
	if err := p.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	<-p.Done()
	if !strings.Contains(log.String(), "test engine starting") || !strings.Contains(p.Stderr(), "test engine starting") {
		t.Errorf("stderr not captured: log %q, tail %q", log.String(), p.Stderr())
	}
	if err := p.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

func TestProcessKilledAfterGracePeriod(t *testing.T) {
	p := testEngine(t, "ignore-quit", nil, 200*time.Millisecond)
	err := p.Close()
	if err == nil || !strings.Contains(err.Error(), "killed") {
		t.Errorf("Close = %v, want a kill report", err)
	}
	select {
	case <-p.Done():
	default:
		t.Errorf("process still running after Close")
	}
}

func TestProcessCrash(t *testing.T) {
	p := testEngine(t, "crash", nil, 0)
	if _, err := p.Send(context.Background(), "name"); !errors.Is(err, ErrClosed) {
		t.Errorf("Send to crashed engine = %v, want ErrClosed", err)
	}
	err := p.Close()
	if err == nil || !strings.Contains(err.Error(), "exit status 3") || !strings.Contains(err.Error(), "no weights file") {
		t.Errorf("Close = %v, want exit status and stderr", err)
	}
}

// failWriter fails every write with err, like the pipe to an engine that
// has exited.
type failWriter struct{ err error }

func (w failWriter) Write([]byte) (int, error) { return 0, w.err }

// TestSendToEndedConnection checks that the write errors of a connection
// that has ended are reported as ErrClosed, whichever one the timing of the
// engine's exit produces, and that other write errors are not.
func TestSendToEndedConnection(t *testing.T) {
	tests := []struct {
		err    error
		closed bool
	}{
		{syscall.EPIPE, true},
		{&os.PathError{Op: "write", Path: "|1", Err: syscall.EPIPE}, true},
		{io.ErrClosedPipe, true},
		{os.ErrClosed, true},
		{errors.New("disk full"), false},
	}
	for _, tt := range tests {
		r, _ := io.Pipe()
		c := NewClient(r, failWriter{tt.err}, nil)
		_, err := c.Send(context.Background(), "name")
		if got := errors.Is(err, ErrClosed); got != tt.closed {
			t.Errorf("write error %v: Send = %v, ErrClosed %v, want %v", tt.err, err, got, tt.closed)
		}
		if !errors.Is(err, tt.err) {
			t.Errorf("write error %v: Send = %v loses the cause", tt.err, err)
		}
		r.Close()
	}
}

func TestStartMissingBinary(t *testing.T) {
	if _, err := Start(context.Background(), "/nonexistent/engine", nil, ProcessOptions{}); err == nil {
		t.Error("Start of a missing binary succeeded")
	}
}

func gnugoPath(t *testing.T) string {
	t.Helper()
	return oracle.GNUGo(t, "tests against GNU Go")
}

func TestClientAgainstGNUGo(t *testing.T) {
	path := gnugoPath(t)
	p, err := Start(context.Background(), path, []string{"--mode", "gtp", "--level", "0"}, ProcessOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	send := func(name string, args ...string) string {
		t.Helper()
		got, err := p.Send(ctx, name, args...)
		if err != nil {
			t.Fatalf("%s %v: %v", name, args, err)
		}
		return got
	}
	if got := send("protocol_version"); got != "2" {
		t.Errorf("protocol_version = %q", got)
	}
	if got := send("name"); got != "GNU Go" {
		t.Errorf("name = %q", got)
	}
	send("boardsize", "9")
	send("clear_board")
	send("play", "black", "E5")
	var gerr *Error
	if _, err := p.Send(ctx, "play", "white", "E5"); !errors.As(err, &gerr) || gerr.Message != "illegal move" {
		t.Errorf("occupied point: %v", err)
	}
	move := send("genmove", "white")
	if _, err := p.Send(ctx, "is_legal", "black", move); err != nil {
		t.Errorf("is_legal after genmove %s: %v", move, err)
	}
	board := send("showboard")
	if lines := strings.Split(board, "\n"); len(lines) < 11 || !strings.Contains(lines[0], "A B C D E F G H J") {
		t.Errorf("showboard not read as a multi-line response:\n%s", board)
	}
	if got := send("list_stones", "black"); got != "E5" {
		t.Errorf("list_stones black = %q", got)
	}
	if err := p.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
}

// TestCloseNotBlockedBySend checks that Close ends an engine even while
// another goroutine waits, without a deadline, for an answer that never
// comes.
func TestCloseNotBlockedBySend(t *testing.T) {
	p := testEngine(t, "mute", nil, 100*time.Millisecond)
	errc := make(chan error, 1)
	go func() {
		_, err := p.Send(context.Background(), "name")
		errc <- err
	}()
	for p.Client.pendingCount() == 0 {
		time.Sleep(time.Millisecond) // until the command is on its way
	}
	if err := p.Close(); err == nil || !strings.Contains(err.Error(), "killed") {
		t.Errorf("Close = %v, want a kill report", err)
	}
	if err := <-errc; !errors.Is(err, ErrClosed) {
		t.Errorf("the stuck Send returned %v, want ErrClosed", err)
	}
}
