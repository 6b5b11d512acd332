package gtp

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// HandlerFunc answers one command. The returned text becomes the body of a
// success response; a non-nil error becomes a failure response with the
// error's text as message. ctx is cancelled when Serve's context is, and
// when GoGui's interrupt line "# interrupt" arrives while the handler runs
// (a genmove should then answer with the best move it has).
type HandlerFunc func(ctx context.Context, cmd Command) (string, error)

// StreamFunc answers a command whose response grows over time, such as
// lz-analyze. It writes lines through out, each flushed at once. ctx is
// cancelled as soon as the next input line arrives (or input ends), which is
// how controllers such as Sabaki and Lizzie stop an analysis; the function
// should then return promptly. Returning an error before anything was written
// gives a failure response; after that the error can only be logged.
type StreamFunc func(ctx context.Context, cmd Command, out *Stream) error

// ErrQuit may be returned by a handler to answer with success and then end
// Serve, as the quit command does.
var ErrQuit = errors.New("gtp: quit")

type handler struct {
	fn     HandlerFunc
	stream StreamFunc
	// toEnd keeps a streaming handler running when input arrives.
	toEnd bool
}

// Server is the protocol layer of a GTP engine: it reads commands, dispatches
// them to registered handlers and writes responses. The commands
// protocol_version, name, version, known_command, list_commands and quit are
// built in. A Server serves one connection at a time; handlers run one after
// another on Serve's goroutine, so they need no locking among themselves.
type Server struct {
	name, version string

	// ErrorLog receives panics with their stack and errors of streaming
	// handlers that could not be reported; nil discards them.
	ErrorLog io.Writer

	// mu guards handlers, which may be extended while not serving.
	mu       sync.Mutex
	handlers map[string]handler
}

// NewServer returns a Server that reports the given name and version.
func NewServer(name, version string) *Server {
	s := &Server{name: name, version: version, handlers: map[string]handler{}}
	s.Handle("protocol_version", func(context.Context, Command) (string, error) { return "2", nil })
	s.Handle("name", func(context.Context, Command) (string, error) { return s.name, nil })
	s.Handle("version", func(context.Context, Command) (string, error) { return s.version, nil })
	s.Handle("known_command", s.knownCommand)
	s.Handle("list_commands", s.listCommands)
	s.Handle("quit", func(context.Context, Command) (string, error) { return "", ErrQuit })
	// GoGui sends the comment line "# interrupt" to stop a long genmove
	// when the engine knows this command; Serve then cancels the running
	// command's context.
	s.Handle("gogui-interrupt", func(context.Context, Command) (string, error) { return "", nil })
	return s
}

// Handle registers fn for the command name, replacing any earlier handler.
func (s *Server) Handle(name string, fn HandlerFunc) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.handlers[name] = handler{fn: fn}
}

// HandleStream registers a streaming handler for the command name whose
// context is cancelled when the next input line arrives (analysis).
func (s *Server) HandleStream(name string, fn StreamFunc) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.handlers[name] = handler{stream: fn}
}

// HandleStreamToEnd registers a streaming handler that runs to its end even
// when more input arrives, such as lz-genmove_analyze, which streams
// analysis while it thinks but must still answer with its move. Its context
// is cancelled only with Serve's.
func (s *Server) HandleStreamToEnd(name string, fn StreamFunc) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.handlers[name] = handler{stream: fn, toEnd: true}
}

// Commands returns the registered command names in sorted order.
func (s *Server) Commands() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	names := make([]string, 0, len(s.handlers))
	for n := range s.handlers {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

func (s *Server) lookup(name string) (handler, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	h, ok := s.handlers[name]
	return h, ok
}

func (s *Server) knownCommand(_ context.Context, cmd Command) (string, error) {
	if len(cmd.Args) != 1 {
		return "", errors.New("syntax error: known_command NAME")
	}
	_, ok := s.lookup(cmd.Args[0])
	return strconv.FormatBool(ok), nil
}

func (s *Server) listCommands(context.Context, Command) (string, error) {
	return strings.Join(s.Commands(), "\n"), nil
}

// input is one item from the reading goroutine.
type input struct {
	cmd Command
	err error
}

// Serve reads commands from r and writes responses to w until quit, the end
// of input, or the cancellation of ctx. It returns nil after quit or at the
// end of input, ctx's error when cancelled, and otherwise the first read or
// write error. Output is flushed after every response.
//
// Input is read ahead on a separate goroutine so that a running streaming
// handler notices the next command. That goroutine ends when r reports an
// error or EOF; if Serve returns first (quit, cancellation), it may stay
// blocked in r.Read until the caller closes r.
func (s *Server) Serve(ctx context.Context, r io.Reader, w io.Writer) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	bw := bufio.NewWriter(w)
	t := &tracker{}
	inputs := make(chan input)
	go s.readLoop(ctx, r, inputs, t)
	for {
		var in input
		var ok bool
		select {
		case <-ctx.Done():
			return ctx.Err()
		case in, ok = <-inputs:
		}
		if !ok {
			return t.readErr()
		}
		if in.err != nil {
			var se *SyntaxError
			if !errors.As(in.err, &se) {
				return in.err
			}
			_, done := t.start(ctx, false)
			done()
			if err := WriteResponse(bw, false, se.ID, se.HasID, "syntax error: "+se.Error()); err != nil {
				return err
			}
			continue
		}
		quit, err := s.dispatch(ctx, in.cmd, bw, t)
		if err != nil {
			return err
		}
		if quit {
			return nil
		}
	}
}

// readLoop feeds inputs and tells t about every line that arrives, so that a
// running streaming handler is interrupted even before its command has been
// taken off the channel.
func (s *Server) readLoop(ctx context.Context, r io.Reader, inputs chan<- input, t *tracker) {
	defer close(inputs)
	cr := NewReader(r)
	cr.Comment = func(text string) {
		if text == "interrupt" {
			t.interrupted()
		}
	}
	for {
		cmd, err := cr.Next()
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.ended(err)
				return
			}
		}
		t.arrived()
		select {
		case inputs <- input{cmd, err}:
		case <-ctx.Done():
			return
		}
	}
}

// tracker coordinates the reading goroutine with the running command.
type tracker struct {
	mu sync.Mutex
	// read counts the command lines the reading goroutine has delivered,
	// started those taken by start; read-started are waiting. Guarded by mu.
	read, started int
	// interruptedUpTo is the value of read at the last "# interrupt": the
	// commands up to it are interrupted even if they have not started yet,
	// because GoGui sends the comment right after the command it means and
	// the reading goroutine may see it first. Guarded by mu.
	interruptedUpTo int
	// eof is set when input has ended; err holds the read error other than
	// io.EOF. Both guarded by mu.
	eof bool
	err error
	// cancel cancels the running command's context; nil when none runs.
	// byInput says whether new input cancels it (analysis) or only an
	// interrupt does. Both guarded by mu.
	cancel  context.CancelFunc
	byInput bool
}

func (t *tracker) arrived() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.read++
	if t.cancel != nil && t.byInput {
		t.cancel()
	}
}

// interrupted cancels the running command, whatever it is (GoGui's
// "# interrupt"), and every command read before the interrupt that has not
// started yet.
func (t *tracker) interrupted() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.interruptedUpTo = t.read
	if t.cancel != nil {
		t.cancel()
	}
}

func (t *tracker) ended(err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.eof = true
	if !errors.Is(err, io.EOF) {
		t.err = err
	}
	if t.cancel != nil && t.byInput {
		t.cancel()
	}
}

func (t *tracker) readErr() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.err
}

// start takes one pending command and returns its context and the function
// to call when it is done. With byInput the context is cancelled by the next
// input, at once if input is already waiting. A command that an interrupt
// reached before it started is cancelled at once.
func (t *tracker) start(parent context.Context, byInput bool) (context.Context, func()) {
	ctx, cancel := context.WithCancel(parent)
	t.mu.Lock()
	defer t.mu.Unlock()
	t.started++
	t.cancel, t.byInput = cancel, byInput
	if byInput && (t.read > t.started || t.eof) || t.started <= t.interruptedUpTo {
		cancel()
	}
	return ctx, func() {
		t.mu.Lock()
		t.cancel = nil
		t.mu.Unlock()
		cancel()
	}
}

// dispatch runs one command and writes its response. It reports quit when the
// handler asked to end the session, and returns only write errors.
func (s *Server) dispatch(ctx context.Context, cmd Command, bw *bufio.Writer, t *tracker) (quit bool, err error) {
	h, ok := s.lookup(cmd.Name)
	ctx, done := t.start(ctx, ok && h.stream != nil && !h.toEnd)
	defer done()
	if !ok {
		return false, WriteResponse(bw, false, cmd.ID, cmd.HasID, "unknown command")
	}
	if h.stream != nil {
		return false, s.runStream(ctx, cmd, h.stream, bw)
	}
	text, herr := s.call(ctx, cmd, h.fn)
	if errors.Is(herr, ErrQuit) {
		return true, WriteResponse(bw, true, cmd.ID, cmd.HasID, text)
	}
	if herr != nil {
		return false, WriteResponse(bw, false, cmd.ID, cmd.HasID, herr.Error())
	}
	return false, WriteResponse(bw, true, cmd.ID, cmd.HasID, text)
}

// call runs fn and turns a panic into an internal error.
func (s *Server) call(ctx context.Context, cmd Command, fn HandlerFunc) (text string, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = s.panicked(cmd, v)
		}
	}()
	return fn(ctx, cmd)
}

func (s *Server) panicked(cmd Command, v any) error {
	if s.ErrorLog != nil {
		fmt.Fprintf(s.ErrorLog, "gtp: panic in %q: %v\n%s", cmd.String(), v, debug.Stack())
	}
	msg := strings.Join(strings.Fields(fmt.Sprint(v)), " ")
	return fmt.Errorf("internal error: %s", msg)
}

func (s *Server) runStream(ctx context.Context, cmd Command, fn StreamFunc, bw *bufio.Writer) (err error) {
	out := &Stream{w: bw, id: cmd.ID, hasID: cmd.HasID}
	herr := func() (err error) {
		defer func() {
			if v := recover(); v != nil {
				err = s.panicked(cmd, v)
			}
		}()
		return fn(ctx, cmd, out)
	}()
	if out.err != nil {
		return out.err
	}
	if !out.begun {
		if herr != nil {
			return WriteResponse(bw, false, cmd.ID, cmd.HasID, herr.Error())
		}
		return WriteResponse(bw, true, cmd.ID, cmd.HasID, "")
	}
	if herr != nil && s.ErrorLog != nil {
		fmt.Fprintf(s.ErrorLog, "gtp: %q failed after output began: %v\n", cmd.String(), herr)
	}
	bw.WriteString("\n")
	return bw.Flush()
}

// Stream is the output of a streaming handler. The first write sends the
// success header ("=id" on a line of its own); every line is flushed at once;
// Serve ends the response with an empty line when the handler returns.
type Stream struct {
	w     *bufio.Writer
	id    int
	hasID bool
	begun bool
	err   error
}

// Begin sends the success header if it has not been sent yet. Handlers call
// it to acknowledge the command before their first line is ready.
func (s *Stream) Begin() error {
	if s.err != nil || s.begun {
		return s.err
	}
	s.begun = true
	writeHeader(s.w, true, s.id, s.hasID)
	s.w.WriteByte('\n')
	s.err = s.w.Flush()
	return s.err
}

// Println writes one line of output. Newlines inside text split it into
// several lines; empty lines are dropped because they would end the
// response. The error is that of the underlying writer.
func (s *Stream) Println(text string) error {
	if err := s.Begin(); err != nil {
		return err
	}
	if body := cleanBody(text); body != "" {
		s.w.WriteString(body)
		s.w.WriteByte('\n')
	}
	s.err = s.w.Flush()
	return s.err
}
