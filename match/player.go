package match

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"tengen/gtp"
)

// player is one running engine of one game. It is used by the goroutine
// that plays the game only.
type player struct {
	proc *gtp.Process
	// name is the engine's name and version, e.g. "GNU Go 3.8".
	name string
	// known holds the commands of list_commands; nil when the engine does
	// not answer list_commands, and then knownCache holds the answers of
	// known_command.
	known      map[string]bool
	knownCache map[string]bool
	timeout    time.Duration
}

// startPlayer starts the engine and asks for its name, version and
// commands. ctx bounds the life of the process.
func startPlayer(ctx context.Context, spec EngineSpec, stderr io.Writer, timeout time.Duration) (*player, error) {
	var env []string
	if len(spec.Env) > 0 {
		env = append(os.Environ(), spec.Env...)
	}
	proc, err := gtp.Start(ctx, spec.Command[0], spec.Command[1:], gtp.ProcessOptions{
		Dir:    spec.Dir,
		Env:    env,
		Stderr: stderr,
		// An engine that was given up on (a timeout) is still thinking;
		// waiting long for its quit only slows the match down.
		GracePeriod: 2 * time.Second,
	})
	if err != nil {
		return nil, err
	}
	p := &player{proc: proc, timeout: timeout, knownCache: map[string]bool{}}
	name, err := p.send(ctx, "name")
	if err != nil {
		p.close()
		return nil, fmt.Errorf("%s: %s", spec, p.failure(err))
	}
	p.name = strings.TrimSpace(firstLine(name))
	if v, err := p.send(ctx, "version"); err == nil && strings.TrimSpace(v) != "" {
		p.name += " " + strings.TrimSpace(firstLine(v))
	}
	if p.name == "" {
		p.name = spec.Command[0]
	}
	if list, err := p.send(ctx, "list_commands"); err == nil {
		p.known = map[string]bool{}
		for _, f := range strings.Fields(list) {
			p.known[f] = true
		}
	}
	return p, nil
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// send sends a command other than genmove with the command timeout.
func (p *player) send(ctx context.Context, name string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, p.timeout)
	defer cancel()
	return p.proc.Send(ctx, name, args...)
}

// sendLine sends a command given as one line, such as clock's
// "time_settings 0 1 1".
func (p *player) sendLine(ctx context.Context, line string) (string, error) {
	f := strings.Fields(line)
	if len(f) == 0 {
		return "", errors.New("empty command")
	}
	return p.send(ctx, f[0], f[1:]...)
}

// knows reports whether the engine implements the command.
func (p *player) knows(ctx context.Context, name string) bool {
	if p.known != nil {
		return p.known[name]
	}
	if k, ok := p.knownCache[name]; ok {
		return k
	}
	ans, err := p.send(ctx, "known_command", name)
	k := err == nil && strings.TrimSpace(ans) == "true"
	p.knownCache[name] = k
	return k
}

// failure describes why a command failed, for a forfeit's reason: the
// engine's error message, a timeout, or the engine's exit with the last
// line it wrote to standard error.
func (p *player) failure(err error) string {
	var ge *gtp.Error
	switch {
	case errors.As(err, &ge):
		return fmt.Sprintf("answered %q with the error %q", ge.Command, ge.Message)
	case errors.Is(err, context.DeadlineExceeded):
		return "gave no answer in time"
	}
	select {
	case <-p.proc.Done():
		msg := "exited"
		if tail := lastLine(p.proc.Stderr()); tail != "" {
			msg += fmt.Sprintf(" (its last words: %q)", tail)
		}
		return msg
	case <-time.After(500 * time.Millisecond):
		// The connection broke but the process has not been reaped yet,
		// or it closed its output and lives on.
	}
	return fmt.Sprintf("failed: %v", err)
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

// close ends the engine; errors (an engine killed after a timeout, one that
// crashed) have already been dealt with by the game.
func (p *player) close() {
	if p != nil && p.proc != nil {
		_ = p.proc.Close()
	}
}
