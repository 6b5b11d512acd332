package gtp

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"tengen/clock"
	"tengen/goban"
)

// Sender sends one GTP command and returns its response; [Client] and
// [Process] are Senders.
type Sender interface {
	Send(ctx context.Context, name string, args ...string) (string, error)
}

// ErrUnsupported is returned by a [Session] when the engine knows none of
// the commands that would tell it something (the rules, the time), so that
// nothing was sent. The caller decides whether that matters.
var ErrUnsupported = errors.New("gtp: the engine knows no command for this")

// CommandError is a command of a [Session] that failed: the engine answered
// with an error (Err is then an *[Error]), did not answer in time, or the
// connection broke.
type CommandError struct {
	// Line is the command as sent, e.g. "komi 6.5".
	Line string
	Err  error
}

// Error returns "LINE: ERR".
func (e *CommandError) Error() string { return e.Line + ": " + e.Err.Error() }

// Unwrap returns Err.
func (e *CommandError) Unwrap() error { return e.Err }

// AnswerError is a successful response that does not say what the command
// asks for, such as a genmove answered with "Z99".
type AnswerError struct {
	// Line is the command as sent, Answer the response's text without
	// surrounding space, and Want what it should have been.
	Line, Answer, Want string
}

// Error returns `LINE answered "ANSWER", which is not WANT`.
func (e *AnswerError) Error() string {
	return fmt.Sprintf("%s answered %q, which is not %s", e.Line, e.Answer, e.Want)
}

// Session is the controller's side of one game on a GTP engine: it sets the
// game up (board size, komi, rules, time settings, handicap, the moves so
// far), reports the clocks and asks for moves, choosing among the commands
// the engine knows. Both of Tengen's controllers use it: the match runner
// and the server's external bots. Setup commands report failures as
// *[CommandError] and leave it to the caller whether a failure matters
// (a match tolerates an engine that refuses komi; a server's bot does not).
// A Session is used by one goroutine at a time.
type Session struct {
	conn Sender
	// timeout bounds every command but genmove; 0 means no bound beyond
	// the caller's context.
	timeout time.Duration
	// size is the board size of the last NewGame.
	size int
	// known holds the commands of list_commands; nil until ListCommands
	// succeeded, and then knownCache holds the answers of known_command.
	known      map[string]bool
	knownCache map[string]bool
}

// NewSession returns a session on conn. timeout, if positive, bounds every
// command except genmove, whose time is the caller's to bound.
func NewSession(conn Sender, timeout time.Duration) *Session {
	return &Session{conn: conn, timeout: timeout, knownCache: map[string]bool{}}
}

// Send sends a command with the session's command timeout.
func (s *Session) Send(ctx context.Context, name string, args ...string) (string, error) {
	if s.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, s.timeout)
		defer cancel()
	}
	return s.conn.Send(ctx, name, args...)
}

// send is Send with the failure as a *CommandError.
func (s *Session) send(ctx context.Context, name string, args ...string) (string, error) {
	ans, err := s.Send(ctx, name, args...)
	if err != nil {
		return "", &CommandError{Line: strings.Join(append([]string{name}, args...), " "), Err: err}
	}
	return ans, nil
}

// sendLine sends a command given as one line, such as clock's
// "time_settings 0 1 1".
func (s *Session) sendLine(ctx context.Context, line string) error {
	f := strings.Fields(line)
	if len(f) == 0 {
		return errors.New("gtp: empty command")
	}
	_, err := s.send(ctx, f[0], f[1:]...)
	return err
}

// ListCommands asks the engine for its commands, which Knows then answers
// from. Without it (or when it fails) Knows asks known_command.
func (s *Session) ListCommands(ctx context.Context) error {
	list, err := s.send(ctx, "list_commands")
	if err != nil {
		return err
	}
	s.known = map[string]bool{}
	for _, f := range strings.Fields(list) {
		s.known[f] = true
	}
	return nil
}

// Knows reports whether the engine implements the command.
func (s *Session) Knows(ctx context.Context, name string) bool {
	if s.known != nil {
		return s.known[name]
	}
	if k, ok := s.knownCache[name]; ok {
		return k
	}
	ans, err := s.Send(ctx, "known_command", name)
	k := err == nil && strings.TrimSpace(ans) == "true"
	s.knownCache[name] = k
	return k
}

// NewGame sets a size×size board and clears it.
func (s *Session) NewGame(ctx context.Context, size int) error {
	if _, err := s.send(ctx, "boardsize", strconv.Itoa(size)); err != nil {
		return err
	}
	s.size = size
	_, err := s.send(ctx, "clear_board")
	return err
}

// SetKomi sends komi.
func (s *Session) SetKomi(ctx context.Context, komi float64) error {
	_, err := s.send(ctx, "komi", formatFloat(komi))
	return err
}

// ruleAliases translate goban's ruleset names into the nearest names that
// KataGo's kata-set-rules and KGS's kgs-rules know, for rulesets those
// engines do not know by goban's name. The translation keeps the scoring
// method; komi is told separately, and the controller's goban checks ko.
var ruleAliases = map[string]map[string]string{
	"kata-set-rules": {"jasiek": "japanese", "online": "japanese", "pfaundler": "japanese"},
	"kgs-rules": {"korean": "japanese", "jasiek": "japanese", "online": "japanese", "pfaundler": "japanese",
		"chinese-ogs": "chinese", "new-zealand": "new_zealand", "tromp-taylor": "new_zealand"},
}

// SetRules tells the engine the ruleset with kata-set-rules or kgs-rules,
// whichever it knows, trying goban's name first (Tengen's engine knows all
// of them) and then the nearest name the command's authors use. It returns
// ErrUnsupported when the engine knows neither command, and the last
// refusal when it accepted no name.
func (s *Session) SetRules(ctx context.Context, name string) error {
	var last error = ErrUnsupported
	for _, cmd := range []string{"kata-set-rules", "kgs-rules"} {
		if !s.Knows(ctx, cmd) {
			continue
		}
		names := []string{name}
		if a, ok := ruleAliases[cmd][name]; ok {
			names = append(names, a)
		}
		for _, n := range names {
			if _, last = s.send(ctx, cmd, n); last == nil {
				return nil
			}
		}
	}
	return last
}

// SetTime tells the engine the time control: with kgs-time_settings where
// the engine knows it (it says byo-yomi exactly), time_settings otherwise.
// A control of Kind clock.None sends "time_settings 0 1 0", GTP's "no time
// limit", so that an engine that played a timed game before forgets it. It
// returns ErrUnsupported when the engine knows neither command.
func (s *Session) SetTime(ctx context.Context, tc clock.TimeControl) error {
	line := "time_settings 0 1 0"
	switch {
	case tc.Kind != clock.None && s.Knows(ctx, "kgs-time_settings"):
		line, _ = clock.KGSTimeSettingsCommand(tc)
	case !s.Knows(ctx, "time_settings"):
		return ErrUnsupported
	case tc.Kind != clock.None:
		line, _ = clock.TimeSettingsCommand(tc)
	}
	return s.sendLine(ctx, line)
}

// SetHandicap puts the handicap stones pts on the engine's board: with
// fixed_handicap when fixed is set (the points are GTP's fixed points) and
// the engine knows the command, checking that it puts them at pts, and
// with set_free_handicap otherwise.
func (s *Session) SetHandicap(ctx context.Context, pts []goban.Point, fixed bool) error {
	if fixed && s.Knows(ctx, "fixed_handicap") {
		line := "fixed_handicap " + strconv.Itoa(len(pts))
		ans, err := s.send(ctx, "fixed_handicap", strconv.Itoa(len(pts)))
		if err != nil {
			return err
		}
		got, err := s.vertices(line, ans)
		if err != nil {
			return err
		}
		if !samePoints(got, pts) {
			return &AnswerError{Line: line, Answer: strings.TrimSpace(ans), Want: s.formatVertices(pts)}
		}
		return nil
	}
	_, err := s.send(ctx, "set_free_handicap", strings.Fields(s.formatVertices(pts))...)
	return err
}

// PlaceFreeHandicap asks the engine to choose n handicap stones with
// place_free_handicap and returns them.
func (s *Session) PlaceFreeHandicap(ctx context.Context, n int) ([]goban.Point, error) {
	ans, err := s.send(ctx, "place_free_handicap", strconv.Itoa(n))
	if err != nil {
		return nil, err
	}
	return s.vertices("place_free_handicap "+strconv.Itoa(n), ans)
}

// Play sends the move m; a resignation is not sent, since GTP has no move
// for it.
func (s *Session) Play(ctx context.Context, m goban.Move) error {
	if m.Kind == goban.Resign {
		return nil
	}
	_, err := s.send(ctx, "play", colorArg(m.Color), goban.FormatMoveVertex(m, s.size))
	return err
}

// Replay plays moves in order and returns how many the engine accepted.
func (s *Session) Replay(ctx context.Context, moves []goban.Move) (int, error) {
	for i, m := range moves {
		if err := s.Play(ctx, m); err != nil {
			return i, err
		}
	}
	return len(moves), nil
}

// TimeLeft reports c's clock st under tc with time_left. It sends nothing
// and returns nil when the clock has nothing to report (no time limit),
// and returns ErrUnsupported when the engine does not know time_left.
func (s *Session) TimeLeft(ctx context.Context, c goban.Color, tc clock.TimeControl, st clock.State) error {
	cc := clock.Black
	if c == goban.White {
		cc = clock.White
	}
	line, ok := clock.TimeLeftCommand(cc, tc, st)
	if !ok {
		return nil
	}
	if !s.Knows(ctx, "time_left") {
		return ErrUnsupported
	}
	return s.sendLine(ctx, line)
}

// GenMove asks the engine for c's move with genmove, bounded only by ctx,
// and returns it: a play, a pass or a resignation. An answer that is no
// move on the board is an *[AnswerError]; whether the move is legal is the
// caller's to check.
func (s *Session) GenMove(ctx context.Context, c goban.Color) (goban.Move, error) {
	line := "genmove " + colorArg(c)
	ans, err := s.conn.Send(ctx, "genmove", colorArg(c))
	if err != nil {
		return goban.Move{}, &CommandError{Line: line, Err: err}
	}
	v := strings.TrimSpace(ans)
	if strings.EqualFold(v, "resign") {
		return goban.ResignMove(c), nil
	}
	pt, pass, err := goban.ParseVertex(v, s.size, s.size)
	switch {
	case err != nil:
		return goban.Move{}, &AnswerError{Line: line, Answer: v, Want: "a move on this board"}
	case pass:
		return goban.PassMove(c), nil
	}
	return goban.PlayAt(c, pt), nil
}

// colorArg is GTP's short colour argument.
func colorArg(c goban.Color) string {
	if c == goban.White {
		return "w"
	}
	return "b"
}

// vertices reads the list of vertices that line answered with.
func (s *Session) vertices(line, ans string) ([]goban.Point, error) {
	var pts []goban.Point
	for _, f := range strings.Fields(ans) {
		pt, pass, err := goban.ParseVertex(f, s.size, s.size)
		if err != nil || pass {
			return nil, &AnswerError{Line: line, Answer: strings.TrimSpace(ans), Want: "a list of vertices"}
		}
		pts = append(pts, pt)
	}
	return pts, nil
}

func (s *Session) formatVertices(pts []goban.Point) string {
	vs := make([]string, len(pts))
	for i, p := range pts {
		vs[i] = goban.FormatVertex(p, s.size)
	}
	return strings.Join(vs, " ")
}

// samePoints reports whether a and b hold the same points in any order.
func samePoints(a, b []goban.Point) bool {
	if len(a) != len(b) {
		return false
	}
	less := func(p, q goban.Point) int {
		if p.Y != q.Y {
			return p.Y - q.Y
		}
		return p.X - q.X
	}
	a, b = slices.Clone(a), slices.Clone(b)
	slices.SortFunc(a, less)
	slices.SortFunc(b, less)
	return slices.Equal(a, b)
}
