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

// player is one running engine of one game: its process and the GTP
// session on it, whose Send bounds every command but genmove with the
// command timeout. It is used by the goroutine that plays the game only.
type player struct {
	*gtp.Session
	proc *gtp.Process
	// name is the engine's name and version, e.g. "GNU Go 3.8".
	name string
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
	p := &player{Session: gtp.NewSession(proc, timeout), proc: proc}
	name, err := p.Send(ctx, "name")
	if err != nil {
		p.close()
		return nil, fmt.Errorf("%s: %s", spec, p.failure(err))
	}
	p.name = strings.TrimSpace(firstLine(name))
	if v, err := p.Send(ctx, "version"); err == nil && strings.TrimSpace(v) != "" {
		p.name += " " + strings.TrimSpace(firstLine(v))
	}
	if p.name == "" {
		p.name = spec.Command[0]
	}
	// Without list_commands the session asks known_command.
	_ = p.ListCommands(ctx)
	return p, nil
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// failure describes why a command failed, for a forfeit's reason: the
// engine's error message, a timeout, or the engine's exit with the last
// line it wrote to standard error.
func (p *player) failure(err error) string {
	var ce *gtp.CommandError
	if errors.As(err, &ce) {
		err = ce.Err
	}
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

// explain describes the failure of a session's step: the command and
// why it failed, or what was wrong with the answer.
func (p *player) explain(err error) string {
	var ce *gtp.CommandError
	if errors.As(err, &ce) {
		return ce.Line + ": " + p.failure(ce.Err)
	}
	return err.Error()
}

// onCommand describes the failure of a command for a forfeit's reason:
// why it failed "on" the command line, such as `exited on play w D4`.
func onCommand(p *player, err error) string {
	var ce *gtp.CommandError
	if errors.As(err, &ce) {
		return p.failure(ce.Err) + " on " + ce.Line
	}
	return err.Error()
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
