package gtp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"
)

// ProcessOptions configures [Start].
type ProcessOptions struct {
	// Dir is the engine's working directory; empty means the caller's.
	Dir string
	// Env is the engine's environment; nil means the caller's.
	Env []string
	// Stderr receives everything the engine writes to its standard error,
	// e.g. a log file; nil discards it (the last few kilobytes are still
	// kept for error messages).
	Stderr io.Writer
	// Noise receives lines the engine prints on standard output outside
	// responses; nil discards them.
	Noise func(line string)
	// GracePeriod is how long Close waits for the engine to exit after quit
	// before killing it; zero means 5 seconds.
	GracePeriod time.Duration
}

// Process is an external GTP engine started by [Start]. Its embedded
// [Client] sends commands; Close ends it.
type Process struct {
	*Client
	cmd   *exec.Cmd
	stdin io.WriteCloser
	// stdout is the reading end of the engine's standard output; Close
	// closes it after the engine has exited.
	stdout *os.File
	grace  time.Duration
	tail   *tailBuffer

	// done is closed when the process has been waited for; waitErr is set
	// before that.
	done    chan struct{}
	waitErr error

	closeOnce sync.Once
	closeErr  error
}

// Start runs the engine at path with args and connects a [Client] to its
// standard input and output. Cancelling ctx kills the engine.
func Start(ctx context.Context, path string, args []string, opts ProcessOptions) (*Process, error) {
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Dir = opts.Dir
	cmd.Env = opts.Env
	tail := &tailBuffer{max: 4096}
	if opts.Stderr != nil {
		cmd.Stderr = io.MultiWriter(tail, opts.Stderr)
	} else {
		cmd.Stderr = tail
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("gtp: starting %s: %w", path, err)
	}
	// A pipe of our own rather than StdoutPipe: Wait would close that one
	// while the client goroutine may still be reading the last response.
	stdout, stdoutW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("gtp: starting %s: %w", path, err)
	}
	cmd.Stdout = stdoutW
	err = cmd.Start()
	stdoutW.Close()
	if err != nil {
		stdout.Close()
		stdin.Close()
		return nil, fmt.Errorf("gtp: starting %s: %w", path, err)
	}
	grace := opts.GracePeriod
	if grace <= 0 {
		grace = 5 * time.Second
	}
	p := &Process{
		Client: NewClient(stdout, stdin, opts.Noise),
		cmd:    cmd,
		stdout: stdout,
		stdin:  stdin,
		grace:  grace,
		tail:   tail,
		done:   make(chan struct{}),
	}
	go func() {
		p.waitErr = cmd.Wait()
		close(p.done)
	}()
	return p, nil
}

// Done is closed when the engine process has exited.
func (p *Process) Done() <-chan struct{} { return p.done }

// Stderr returns the last few kilobytes the engine wrote to standard error.
func (p *Process) Stderr() string { return p.tail.String() }

// Close asks the engine to quit, waits up to the grace period for it to exit,
// and kills it otherwise. It returns an error when the engine had to be
// killed or exited with a failure status. Calling Close again returns the
// same result.
func (p *Process) Close() error {
	p.closeOnce.Do(func() { p.closeErr = p.close() })
	return p.closeErr
}

func (p *Process) close() error {
	defer p.stdout.Close()
	defer p.Client.stop()
	deadline := time.NewTimer(p.grace)
	defer deadline.Stop()
	ctx, cancel := context.WithTimeout(context.Background(), p.grace)
	select {
	case <-p.done:
	default:
		_, _ = p.Send(ctx, "quit")
	}
	cancel()
	p.stdin.Close()
	select {
	case <-p.done:
	case <-deadline.C:
		p.cmd.Process.Kill()
		<-p.done
		return fmt.Errorf("gtp: engine %s did not exit within %v after quit; killed", p.cmd.Path, p.grace)
	}
	if p.waitErr != nil {
		var ee *exec.ExitError
		if errors.As(p.waitErr, &ee) {
			return fmt.Errorf("gtp: engine %s: %w; stderr: %q", p.cmd.Path, p.waitErr, p.tail.String())
		}
		return fmt.Errorf("gtp: engine %s: %w", p.cmd.Path, p.waitErr)
	}
	return nil
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte // guarded by mu
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}
