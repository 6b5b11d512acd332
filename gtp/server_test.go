package gtp

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"
)

// newTestServer returns a Server with extra commands that exercise the
// protocol layer: echo, fail, panic, multiline and a streaming command that
// runs until it is interrupted.
func newTestServer(t *testing.T) *Server {
	s := NewServer("Tengen test", "0.0.1")
	s.Handle("echo", func(_ context.Context, cmd Command) (string, error) {
		return strings.Join(cmd.Args, " "), nil
	})
	s.Handle("fail", func(context.Context, Command) (string, error) {
		return "", errors.New("this command always fails")
	})
	s.Handle("panic", func(context.Context, Command) (string, error) {
		var m map[string]int
		//lint:ignore SA5000 the panic is the point: a real runtime panic inside a handler
		m["boom"]++
		return "", nil
	})
	s.Handle("multiline", func(context.Context, Command) (string, error) {
		return "first\n\n\nsecond\nthird\n", nil
	})
	s.Handle("diagram", func(context.Context, Command) (string, error) {
		return "\n   A B\n 2 . .\n 1 . .", nil
	})
	// stream prints its arguments as lines, then waits for the next input
	// before ending, like lz-analyze.
	s.HandleStream("stream", func(ctx context.Context, cmd Command, out *Stream) error {
		for _, a := range cmd.Args {
			out.Println("info " + a)
		}
		<-ctx.Done()
		return out.Println("stopped")
	})
	s.HandleStream("stream-fail", func(ctx context.Context, cmd Command, out *Stream) error {
		return errors.New("cannot analyze")
	})
	s.HandleStream("stream-panic", func(ctx context.Context, cmd Command, out *Stream) error {
		out.Println("partial")
		panic("analysis broke")
	})
	return s
}

func TestServerTranscripts(t *testing.T) {
	runTranscripts(t, "testdata/server", func(t *testing.T) server { return newTestServer(t) })
}

// pipeConn connects a test to a server running on its own goroutine.
type pipeConn struct {
	in   *io.PipeWriter
	out  *bufio.Reader
	done chan error
}

func startServer(t *testing.T, s server) *pipeConn {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &pipeConn{in: inW, out: bufio.NewReader(outR), done: make(chan error, 1)}
	go func() {
		err := s.Serve(context.Background(), inR, outW)
		outW.Close()
		inR.Close()
		c.done <- err
	}()
	// A server that stops answering would block the test's reads until the
	// whole package times out; the watchdog turns that into a failure.
	watchdog := time.AfterFunc(time.Minute, func() {
		outW.CloseWithError(errors.New("no answer from the server within a minute"))
	})
	t.Cleanup(func() { watchdog.Stop(); inW.Close(); outR.Close() })
	return c
}

func (c *pipeConn) send(t *testing.T, line string) {
	t.Helper()
	if _, err := io.WriteString(c.in, line+"\n"); err != nil {
		t.Fatalf("writing %q: %v", line, err)
	}
}

func (c *pipeConn) readLine(t *testing.T) string {
	t.Helper()
	l, err := c.out.ReadString('\n')
	if err != nil {
		t.Fatalf("reading: %v (got %q)", err, l)
	}
	return strings.TrimSuffix(l, "\n")
}

// TestStreamInterruptedByNextCommand plays Sabaki's part: start an analysis,
// see its output arrive while it runs, then stop it by sending a command.
func TestStreamInterruptedByNextCommand(t *testing.T) {
	c := startServer(t, newTestServer(t))
	c.send(t, "7 stream a b")
	for _, want := range []string{"=7", "info a", "info b"} {
		if got := c.readLine(t); got != want {
			t.Fatalf("got %q, want %q", got, want)
		}
	}
	// The handler is now blocked until input arrives.
	c.send(t, "8 name")
	for _, want := range []string{"stopped", "", "=8 Tengen test", ""} {
		if got := c.readLine(t); got != want {
			t.Fatalf("got %q, want %q", got, want)
		}
	}
	c.send(t, "quit")
	if got := c.readLine(t); got != "=" {
		t.Fatalf("quit answered %q", got)
	}
	if err := <-c.done; err != nil {
		t.Fatalf("Serve after quit: %v", err)
	}
}

// TestServeEndOfInputStopsStream checks that closing the input stops a
// running analysis and ends Serve without error.
func TestServeEndOfInputStopsStream(t *testing.T) {
	c := startServer(t, newTestServer(t))
	c.send(t, "stream x")
	for _, want := range []string{"=", "info x"} {
		if got := c.readLine(t); got != want {
			t.Fatalf("got %q, want %q", got, want)
		}
	}
	c.in.Close()
	rest, _ := io.ReadAll(c.out)
	if string(rest) != "stopped\n\n" {
		t.Errorf("after end of input: %q", rest)
	}
	if err := <-c.done; err != nil {
		t.Errorf("Serve: %v", err)
	}
}

// TestServeCancel checks that cancelling Serve's context interrupts a
// handler that honours it and makes Serve return the context's error.
func TestServeCancel(t *testing.T) {
	s := NewServer("x", "1")
	started := make(chan struct{})
	s.Handle("wait", func(ctx context.Context, _ Command) (string, error) {
		close(started)
		<-ctx.Done()
		return "", ctx.Err()
	})
	ctx, cancel := context.WithCancel(context.Background())
	inR, inW := io.Pipe()
	defer inW.Close()
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, inR, io.Discard) }()
	io.WriteString(inW, "wait\n")
	<-started
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("Serve = %v, want context.Canceled", err)
	}
}

// errWriter fails every write, like a controller that went away.
type errWriter struct{}

func (errWriter) Write([]byte) (int, error) { return 0, errors.New("broken pipe") }

func TestServeWriteError(t *testing.T) {
	s := NewServer("x", "1")
	err := s.Serve(context.Background(), strings.NewReader("name\nname\n"), errWriter{})
	if err == nil || !strings.Contains(err.Error(), "broken pipe") {
		t.Errorf("Serve = %v, want the write error", err)
	}
}

// errReader returns some input and then a read error.
type errReader struct{ data string }

func (r *errReader) Read(p []byte) (int, error) {
	if r.data == "" {
		return 0, errors.New("device gone")
	}
	n := copy(p, r.data)
	r.data = r.data[n:]
	return n, nil
}

func TestServeReadError(t *testing.T) {
	var out strings.Builder
	err := NewServer("x", "1").Serve(context.Background(), &errReader{data: "1 name\n"}, &out)
	if err == nil || !strings.Contains(err.Error(), "device gone") {
		t.Errorf("Serve = %v, want the read error", err)
	}
	if out.String() != "=1 x\n\n" {
		t.Errorf("output before the error = %q", out.String())
	}
}

func TestPanicLogged(t *testing.T) {
	s := newTestServer(t)
	var log strings.Builder
	s.ErrorLog = &log
	var out strings.Builder
	if err := s.Serve(context.Background(), strings.NewReader("3 panic\n4 name\n"), &out); err != nil {
		t.Fatal(err)
	}
	want := "?3 internal error: assignment to entry in nil map\n\n=4 Tengen test\n\n"
	if out.String() != want {
		t.Errorf("output %q, want %q", out.String(), want)
	}
	if !strings.Contains(log.String(), "server_test.go") {
		t.Errorf("log lacks the stack: %q", log.String())
	}
}

func ExampleServer() {
	s := NewServer("Example", "1.0")
	s.Handle("add", func(_ context.Context, cmd Command) (string, error) {
		var a, b int
		if len(cmd.Args) != 2 {
			return "", errors.New("syntax error: add A B")
		}
		if _, err := fmt.Sscan(cmd.Args[0]+" "+cmd.Args[1], &a, &b); err != nil {
			return "", errors.New("syntax error: add A B")
		}
		return fmt.Sprint(a + b), nil
	})
	var out strings.Builder
	s.Serve(context.Background(), strings.NewReader("1 add 2 3\n2 add x\nquit\n"), &out)
	fmt.Print(out.String())
	// Output:
	// =1 5
	//
	// ?2 syntax error: add A B
	//
	// =
}

// TestTrackerCancellation checks which events cancel a running command:
// new input stops only analysis, an interrupt stops anything, the end of
// input stops analysis.
func TestTrackerCancellation(t *testing.T) {
	tests := []struct {
		name     string
		byInput  bool
		event    func(*tracker)
		canceled bool
	}{
		{"input, plain command", false, (*tracker).arrived, false},
		{"input, analysis", true, (*tracker).arrived, true},
		{"interrupt, plain command", false, (*tracker).interrupted, true},
		{"interrupt, analysis", true, (*tracker).interrupted, true},
		{"end of input, plain command", false, func(t *tracker) { t.ended(io.EOF) }, false},
		{"end of input, analysis", true, func(t *tracker) { t.ended(io.EOF) }, true},
	}
	for _, tt := range tests {
		tr := &tracker{}
		tr.arrived() // the command itself
		ctx, done := tr.start(context.Background(), tt.byInput)
		if ctx.Err() != nil {
			t.Fatalf("%s: cancelled before the event", tt.name)
		}
		tt.event(tr)
		if got := ctx.Err() != nil; got != tt.canceled {
			t.Errorf("%s: cancelled = %v, want %v", tt.name, got, tt.canceled)
		}
		done()
		// After the command, events reach nobody.
		tr.interrupted()
	}
	// Analysis that starts while input is already waiting stops at once.
	tr := &tracker{}
	tr.arrived()
	tr.arrived()
	if ctx, _ := tr.start(context.Background(), true); ctx.Err() == nil {
		t.Errorf("analysis started with input waiting is not cancelled")
	}
	// GoGui's "# interrupt" may be read before the command it follows has
	// started: that command is interrupted when it starts, the next is not.
	tr = &tracker{}
	tr.arrived()
	tr.interrupted()
	tr.arrived()
	ctx, done := tr.start(context.Background(), false)
	if ctx.Err() == nil {
		t.Errorf("command read before an interrupt runs uncancelled")
	}
	done()
	ctx, done = tr.start(context.Background(), false)
	if ctx.Err() != nil {
		t.Errorf("command read after an interrupt is cancelled")
	}
	done()
}

// TestGoGuiInterrupt plays GoGui's part: a long command is stopped by the
// comment line "# interrupt", and answers.
func TestGoGuiInterrupt(t *testing.T) {
	s := NewServer("x", "1")
	s.Handle("think", func(ctx context.Context, _ Command) (string, error) {
		<-ctx.Done()
		return "best so far", nil
	})
	c := startServer(t, s)
	c.send(t, "1 known_command gogui-interrupt")
	if got := c.readLine(t); got != "=1 true" {
		t.Fatalf("known_command gogui-interrupt = %q", got)
	}
	c.readLine(t)
	c.send(t, "2 think")
	c.send(t, "# just a comment")
	c.send(t, "# interrupt")
	if got := c.readLine(t); got != "=2 best so far" {
		t.Fatalf("interrupted think answered %q", got)
	}
}

// FuzzServe feeds arbitrary bytes to a server: its output must parse as one
// well-formed response per command line (syntax errors included) up to
// quit, each echoing the command's id.
func FuzzServe(f *testing.F) {
	f.Add("1 name\n2 echo a\tb\n# c\n\n3\nquit\nname\n")
	f.Add("echo \x00\r\n12 list_commands\n99999999999999999999 x\n")
	f.Add("known_command\n5 multiline\n6 diagram")
	f.Fuzz(func(t *testing.T, in string) {
		s := newTestServer(t)
		var out strings.Builder
		if err := s.Serve(context.Background(), strings.NewReader(in), &out); err != nil {
			t.Fatalf("Serve: %v", err)
		}
		type want struct {
			id    int
			hasID bool
		}
		var wants []want
		r := NewReader(strings.NewReader(in))
		for {
			cmd, err := r.Next()
			var se *SyntaxError
			if errors.As(err, &se) {
				wants = append(wants, want{se.ID, se.HasID})
				continue
			}
			if err != nil {
				break
			}
			if strings.HasPrefix(cmd.Name, "stream") {
				return // streams answer in several lines; covered elsewhere
			}
			wants = append(wants, want{cmd.ID, cmd.HasID})
			if cmd.Name == "quit" {
				break
			}
		}
		rr := NewResponseReader(strings.NewReader(out.String()))
		for i, w := range wants {
			resp, err := rr.Next()
			if err != nil {
				t.Fatalf("response %d of %d: %v\ninput %q\noutput %q", i+1, len(wants), err, in, out.String())
			}
			if resp.HasID != w.hasID || resp.ID != w.id {
				t.Fatalf("response %d has id %v/%d, want %v/%d\noutput %q", i+1, resp.HasID, resp.ID, w.hasID, w.id, out.String())
			}
		}
		if _, err := rr.Next(); err != io.EOF {
			t.Fatalf("more output than commands (%v):\ninput %q\noutput %q", err, in, out.String())
		}
	})
}
