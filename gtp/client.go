package gtp

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// ErrClosed is returned by a [Client] whose engine connection has ended.
var ErrClosed = errors.New("gtp: engine connection closed")

// Client is the controller side of a GTP connection: it sends commands with
// fresh numeric ids and matches the responses to them. It is safe for
// concurrent use; commands are sent one at a time.
type Client struct {
	// sendSem serialises Send calls so that responses arrive in order; it
	// is a channel rather than a mutex so that a Send waiting for its turn
	// still honours its context (Close must not hang behind a stuck Send).
	// Holding it (a value in the channel) guards w, nextID and pending.
	sendSem chan struct{}
	w       *bufio.Writer
	nextID  int
	// pending holds the ids of commands sent whose responses have not been
	// read yet, oldest first (commands abandoned on timeout stay here until
	// their response arrives).
	pending []int
	// sent counts commands written, for tests that wait for a command to
	// be on its way.
	sent atomic.Int64

	// stream receives the lines of the response to the command with id
	// streamID while Client.Stream runs; guarded by streamMu, which the
	// reading goroutine takes for every line.
	streamMu sync.Mutex
	stream   func(line string)
	streamID int

	responses chan Response
	// stopped is closed by stop to release the reading goroutine.
	stopped  chan struct{}
	stopOnce sync.Once
	// readErr is set before responses is closed.
	readErr error
}

// NewClient returns a Client that writes commands to w and reads responses
// from r. It starts a goroutine that reads r until it fails or ends. noise,
// if not nil, receives lines the engine prints outside responses.
func NewClient(r io.Reader, w io.Writer, noise func(line string)) *Client {
	c := &Client{
		sendSem:   make(chan struct{}, 1),
		w:         bufio.NewWriter(w),
		nextID:    1,
		responses: make(chan Response, 16),
		stopped:   make(chan struct{}),
	}
	rr := NewResponseReader(r)
	rr.Noise = noise
	rr.Partial = func(head Response, line string) {
		c.streamMu.Lock()
		defer c.streamMu.Unlock()
		if c.stream != nil && head.OK && head.HasID && head.ID == c.streamID {
			c.stream(line)
		}
	}
	go func() {
		defer close(c.responses)
		for {
			resp, err := rr.Next()
			if err != nil {
				c.readErr = err
				return
			}
			select {
			case c.responses <- resp:
			case <-c.stopped:
				c.readErr = ErrClosed
				return
			}
		}
	}()
	return c
}

// stop releases the reading goroutine if it is blocked delivering a
// response nobody waits for.
func (c *Client) stop() {
	c.stopOnce.Do(func() { close(c.stopped) })
}

// Send sends the command name with args and waits for its response. A
// failure response is returned as *[Error]. When ctx ends first, Send returns
// ctx's error; the late response is recognised by its id and discarded by a
// later Send. Arguments must not contain control characters or '#', which
// would change the command's meaning on the wire.
func (c *Client) Send(ctx context.Context, name string, args ...string) (string, error) {
	line, err := commandLine(name, args)
	if err != nil {
		return "", err
	}
	if err := c.acquire(ctx, line); err != nil {
		return "", err
	}
	defer c.release()
	id, err := c.write(line)
	if err != nil {
		return "", err
	}
	return c.wait(ctx, line, id)
}

// Stream sends an analysis command such as kata-analyze or lz-analyze and
// passes each line of its output to onLine as it arrives (onLine runs on
// the reading goroutine and must not call the Client). When ctx ends, Stream
// stops the analysis the way Sabaki and Lizzie do, by sending another
// command (protocol_version), waits for both responses and returns nil. It
// returns early with an error when the engine refuses the command or the
// connection fails.
func (c *Client) Stream(ctx context.Context, onLine func(line string), name string, args ...string) error {
	line, err := commandLine(name, args)
	if err != nil {
		return err
	}
	if err := c.acquire(ctx, line); err != nil {
		return err
	}
	defer c.release()
	c.streamMu.Lock()
	c.stream, c.streamID = onLine, c.nextID
	c.streamMu.Unlock()
	defer func() {
		c.streamMu.Lock()
		c.stream = nil
		c.streamMu.Unlock()
	}()
	id, err := c.write(line)
	if err != nil {
		return err
	}
	_, err = c.wait(ctx, line, id)
	if !errors.Is(err, ctx.Err()) || ctx.Err() == nil {
		return err
	}
	// Stopped by ctx: any command ends the analysis. The pending response
	// and the stop command's are awaited with a fresh deadline, so that
	// the Client stays in step with the engine.
	stopCtx, cancel := context.WithTimeout(context.Background(), streamStopTimeout)
	defer cancel()
	stopID, err := c.write("protocol_version")
	if err != nil {
		return err
	}
	if _, err := c.wait(stopCtx, line, id); err != nil {
		var gerr *Error
		if !errors.As(err, &gerr) {
			return err
		}
	}
	_, err = c.wait(stopCtx, "protocol_version", stopID)
	return err
}

// streamStopTimeout bounds the wait for an analysis to end after Stream sent
// the command that stops it.
const streamStopTimeout = 10 * time.Second

func commandLine(name string, args []string) (string, error) {
	line := strings.Join(append([]string{name}, args...), " ")
	if name == "" || strings.ContainsAny(name, " ") {
		return "", fmt.Errorf("gtp: invalid command name %q", name)
	}
	for i := 0; i < len(line); i++ {
		if ch := line[i]; ch < 32 || ch == 127 || ch == '#' {
			return "", fmt.Errorf("gtp: command %q contains a control character or '#'", line)
		}
	}
	return line, nil
}

// acquire takes the right to send, or gives up when ctx ends.
func (c *Client) acquire(ctx context.Context, line string) error {
	select {
	case c.sendSem <- struct{}{}:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("gtp: %q: %w", line, ctx.Err())
	}
}

func (c *Client) release() { <-c.sendSem }

// write sends line with a fresh id and returns the id. The caller holds
// sendSem.
func (c *Client) write(line string) (int, error) {
	id := c.nextID
	c.nextID++
	c.w.WriteString(strconv.Itoa(id))
	c.w.WriteByte(' ')
	c.w.WriteString(line)
	c.w.WriteByte('\n')
	if err := c.w.Flush(); err != nil {
		if connectionEnded(err) {
			return 0, fmt.Errorf("gtp: sending %q: %w (%w)", line, ErrClosed, err)
		}
		return 0, fmt.Errorf("gtp: sending %q: %w", line, err)
	}
	c.pending = append(c.pending, id)
	c.sent.Add(1)
	return id, nil
}

// connectionEnded reports whether err from reading or writing the engine's
// pipes means that the connection has ended. Which error a side sees depends
// on timing: a read sees EOF, or fs.ErrClosed when Close shut the pipe while
// it waited; a write to an engine that has exited sees EPIPE, or a closed
// pipe.
func connectionEnded(err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, fs.ErrClosed) ||
		errors.Is(err, io.ErrClosedPipe) || errors.Is(err, syscall.EPIPE)
}

// wait reads responses until the one for id. The caller holds sendSem.
func (c *Client) wait(ctx context.Context, line string, id int) (string, error) {
	for {
		var resp Response
		var ok bool
		select {
		case <-ctx.Done():
			return "", fmt.Errorf("gtp: %q: %w", line, ctx.Err())
		case resp, ok = <-c.responses:
		}
		if !ok {
			err := c.readErr
			if connectionEnded(err) {
				err = ErrClosed
			}
			return "", fmt.Errorf("gtp: %q: %w", line, err)
		}
		if !c.match(resp, id) {
			continue
		}
		if !resp.OK {
			return "", &Error{Command: line, Message: resp.Text}
		}
		return resp.Text, nil
	}
}

// match consumes resp from the pending queue and reports whether it answers
// the command with id want. Responses come in command order, so a response
// with an id also settles every older command still pending, and one without
// an id (some engines do not echo ids) answers the oldest pending command.
func (c *Client) match(resp Response, want int) bool {
	if !resp.HasID {
		if len(c.pending) == 0 {
			return false
		}
		head := c.pending[0]
		c.pending = c.pending[1:]
		return head == want
	}
	for i, id := range c.pending {
		if id == resp.ID {
			c.pending = c.pending[i+1:]
			return id == want
		}
	}
	return false // an id we never sent or already settled
}

// pendingCount returns the number of commands sent and not yet answered,
// for tests; it may be called while a Send waits.
func (c *Client) pendingCount() int {
	return int(c.sent.Load())
}
