package gtp

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tengen/clock"
	"tengen/goban"
)

// recorder is a Sender that writes the conversation into a transcript: the
// command after "> ", then "= answer" or "? error".
type recorder struct {
	conn Sender
	out  *strings.Builder
}

func (r recorder) Send(ctx context.Context, name string, args ...string) (string, error) {
	fmt.Fprintf(r.out, "> %s\n", strings.Join(append([]string{name}, args...), " "))
	ans, err := r.conn.Send(ctx, name, args...)
	if err != nil {
		fmt.Fprintf(r.out, "? %v\n", err)
	} else {
		fmt.Fprintf(r.out, "= %s\n", strings.ReplaceAll(ans, "\n", " | "))
	}
	return ans, err
}

// minimalEngine is an engine with few commands, like GNU Go's: no
// kata-set-rules, no kgs-time_settings, no time_left, no fixed_handicap.
// It refuses list_commands, so that a session must ask known_command;
// kgs-rules knows only KGS's names; genmove answers with answer.
func minimalEngine(answer string) *Server {
	s := NewServer("Minimal", "1")
	ok := func(context.Context, Command) (string, error) { return "", nil }
	for _, name := range []string{"boardsize", "clear_board", "komi", "play", "time_settings", "set_free_handicap"} {
		s.Handle(name, ok)
	}
	s.Handle("list_commands", func(context.Context, Command) (string, error) { return "", errors.New("not today") })
	s.Handle("kgs-rules", func(_ context.Context, cmd Command) (string, error) {
		if len(cmd.Args) == 1 && (cmd.Args[0] == "japanese" || cmd.Args[0] == "chinese") {
			return "", nil
		}
		return "", errors.New("unknown rules")
	})
	s.Handle("place_free_handicap", func(context.Context, Command) (string, error) { return "C3 G7", nil })
	s.Handle("genmove", func(context.Context, Command) (string, error) { return answer, nil })
	return s
}

// sessionSteps is what a transcript case does with its session; each
// step's error is written into the transcript.
type sessionSteps func(ctx context.Context, s *Session, step func(what string, err error))

// TestSessionTranscripts sets games up on engines that know many commands
// and few, and compares the conversation and the session's results with
// testdata/session/NAME.txt (rewritten with -update).
func TestSessionTranscripts(t *testing.T) {
	byo := clock.ByoYomiTime(10*time.Minute, 3, 30*time.Second)
	for _, tc := range []struct {
		name   string
		engine func(t *testing.T) server
		steps  sessionSteps
	}{
		{"tengen", func(t *testing.T) server { return newTestEngine(t) },
			func(ctx context.Context, s *Session, step func(string, error)) {
				step("ListCommands", s.ListCommands(ctx))
				step("NewGame 9", s.NewGame(ctx, 9))
				// Tengen knows every goban name, pfaundler too.
				step("SetRules pfaundler", s.SetRules(ctx, "pfaundler"))
				step("SetKomi 0.5", s.SetKomi(ctx, 0.5))
				step("SetTime byo-yomi", s.SetTime(ctx, byo))
				pts := []goban.Point{{X: 2, Y: 6}, {X: 6, Y: 2}, {X: 2, Y: 2}}
				step("SetHandicap fixed 3", s.SetHandicap(ctx, pts, true))
				n, err := s.Replay(ctx, []goban.Move{goban.PlayAt(goban.White, goban.Point{X: 4, Y: 4}), goban.PassMove(goban.Black),
					goban.ResignMove(goban.White)})
				step(fmt.Sprintf("Replay: %d moves", n), err)
				step("TimeLeft white", s.TimeLeft(ctx, goban.White, byo, byo.NewState()))
				st := byo.Play(byo.NewState(), 10*time.Minute+5*time.Second)
				step("TimeLeft black in byo-yomi", s.TimeLeft(ctx, goban.Black, byo, st))
				step("TimeLeft without a clock", s.TimeLeft(ctx, goban.Black, clock.TimeControl{}, clock.State{}))
				m, err := s.GenMove(ctx, goban.White)
				step(fmt.Sprintf("GenMove white: %v %v", m.Kind, goban.FormatMoveVertex(m, 9)), err)
				step("SetTime none", s.SetTime(ctx, clock.TimeControl{}))
				step("NewGame 9", s.NewGame(ctx, 9))
				// The engine's fixed points are not the ones asked for.
				step("SetHandicap fixed, elsewhere", s.SetHandicap(ctx, []goban.Point{{X: 0, Y: 0}, {X: 8, Y: 8}}, true))
			}},
		{"minimal", func(t *testing.T) server { return minimalEngine("Z99") },
			func(ctx context.Context, s *Session, step func(string, error)) {
				step("ListCommands", s.ListCommands(ctx))
				step("NewGame 9", s.NewGame(ctx, 9))
				// pfaundler is refused, then its KGS alias accepted.
				step("SetRules pfaundler", s.SetRules(ctx, "pfaundler"))
				step("SetRules tromp-taylor", s.SetRules(ctx, "tromp-taylor"))
				step("SetTime byo-yomi", s.SetTime(ctx, byo))
				step("SetHandicap fixed 2", s.SetHandicap(ctx, []goban.Point{{X: 2, Y: 6}, {X: 6, Y: 2}}, true))
				pts, err := s.PlaceFreeHandicap(ctx, 2)
				step(fmt.Sprintf("PlaceFreeHandicap 2: %v", pts), err)
				step("TimeLeft", s.TimeLeft(ctx, goban.Black, byo, byo.NewState()))
				_, err = s.GenMove(ctx, goban.Black)
				step("GenMove black", err)
			}},
		{"no rules", func(t *testing.T) server { return minimalEngine("resign") },
			func(ctx context.Context, s *Session, step func(string, error)) {
				step("ListCommands", s.ListCommands(ctx))
				step("NewGame 19", s.NewGame(ctx, 19))
				// Known commands are asked once.
				step("SetRules jasiek", s.SetRules(ctx, "jasiek"))
				step("SetRules korean", s.SetRules(ctx, "korean"))
				step("SetKomi 7", s.SetKomi(ctx, 7))
				m, err := s.GenMove(ctx, goban.White)
				step(fmt.Sprintf("GenMove white: %v", m.Kind), err)
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out strings.Builder
			s := NewSession(recorder{newPipeClient(t, tc.engine(t)), &out}, time.Minute)
			tc.steps(context.Background(), s, func(what string, err error) {
				switch {
				case err == nil:
					fmt.Fprintf(&out, "# %s: ok\n", what)
				case errors.Is(err, ErrUnsupported):
					fmt.Fprintf(&out, "# %s: unsupported\n", what)
				default:
					fmt.Fprintf(&out, "# %s: %T %v\n", what, err, err)
				}
			})
			checkGolden(t, filepath.Join("testdata", "session", strings.ReplaceAll(tc.name, " ", "_")+".txt"), out.String())
		})
	}
}
