package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"tengen/clock"
	"tengen/goban"
	"tengen/match"
)

func init() {
	commands["match"] = command{
		summary: "play games between two GTP engines and report the results with a confidence interval",
		run:     runMatch,
	}
}

const matchExamples = `
Engine 1 (-black) plays Black in games 1, 3, 5, ... and White in the others,
unless -same-colors is given. Engine command lines are split like a shell
does (quotes and backslashes work; no variables); "tengen" as the program
means this binary when no tengen is on the PATH.

A game ends by two passes, resignation, forfeit or time. An engine forfeits
(B+F/W+F) when it crashes, answers genmove with an error or not within
-timeout, plays a move Tengen's rules refuse, or refuses a legal move of its
opponent. Passed-out games, and games stopped at -max-moves, are scored by
the -referee engine's final_score, or without one by Tengen's own dead-stone
estimate; the record's comment says which.

The output directory gets game-NNN.sgf for every game, summary.txt and
summary.json (wins per engine and colour, win rate with a 95% Wilson
interval, game length, time per move).

Examples:
  tengen match -black "tengen gtp" -white "/usr/games/gnugo --mode gtp --level 10" \
      -games 100 -size 9 -komi 7 -rules chinese -time "canadian 0 1 1" -parallel 2
  tengen match -black "tengen gtp" -white "gnugo --mode gtp --level 1" \
      -referee "gnugo --mode gtp --chinese-rules" -games 20 -size 9 -out results/gnugo-l1
`

func runMatch(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("match", "", stderr)
	usage := fs.Usage
	fs.Usage = func() {
		usage()
		fmt.Fprint(stderr, matchExamples)
	}
	black := fs.String("black", "", "command line of engine 1, Black in the first game (required)")
	white := fs.String("white", "", "command line of engine 2, White in the first game (required)")
	referee := fs.String("referee", "", "command line of a referee engine that scores passed-out games with final_score (default: Tengen's own estimate)")
	games := fs.Int("games", 10, "number of games")
	sameColors := fs.Bool("same-colors", false, "let engine 1 play Black in every game instead of alternating")
	size := fs.Int("size", 19, "board size")
	rules := fs.String("rules", "chinese", "ruleset, sent with kata-set-rules or kgs-rules where the engines know them: "+strings.Join(goban.RulesetNames(), ", "))
	komi := fs.String("komi", "", "komi (default: the ruleset's for the board size and handicap)")
	handicap := fs.Int("handicap", 0, "handicap stones for Black (0 or 2 to 9), on GTP's fixed points")
	freeHandicap := fs.Bool("free-handicap", false, "let the Black engine place the handicap stones (place_free_handicap)")
	timeSpec := fs.String("time", "none", `time control in kgs-time_settings form: "none", "absolute MAIN", "byoyomi MAIN PERIOD PERIODS" or "canadian MAIN PERIOD STONES" (seconds); a flag fall loses the game`)
	noTimeLeft := fs.Bool("no-time-left", false, "send the engines time_settings but never time_left, as many controllers do: they must keep their clocks themselves")
	untimed := fs.Int("untimed", 0, "play engine 1 or 2 without a clock: it is told no time settings and held only to -timeout (0: both keep the clock)")
	timeGrace := fs.Duration("time-grace", 100*time.Millisecond, "allowance per move for process and pipe latency, not charged to the clock")
	timeout := fs.Duration("timeout", 5*time.Minute, "longest time for one genmove before the engine forfeits (0: no limit but the clock)")
	cmdTimeout := fs.Duration("command-timeout", 30*time.Second, "longest time for any other command (setup, play, final_score)")
	maxMoves := fs.Int("max-moves", 0, "stop a game after this many moves and score it as it stands (0: four times the board's points)")
	parallel := fs.Int("parallel", 1, "games played at once, each with its own engine processes")
	out := fs.String("out", "", "output directory (default: match-YYYYMMDD-HHMMSS in the current directory)")
	engineLogs := fs.Bool("engine-logs", false, "keep each engine's standard error in the output directory")
	playouts := fs.Int("scoring-playouts", 1000, "playouts of Tengen's dead-stone estimate when there is no referee")
	event := fs.String("event", "", "event name for the records (SGF EV)")
	quiet := fs.Bool("quiet", false, "print only the summary, not a line per game")
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return errUsage
	}
	if *black == "" || *white == "" {
		fmt.Fprintln(stderr, "tengen match: -black and -white are required")
		fs.Usage()
		return errUsage
	}
	cfg := match.Config{
		Games:           *games,
		SameColors:      *sameColors,
		Size:            *size,
		Rules:           *rules,
		Handicap:        *handicap,
		FreeHandicap:    *freeHandicap,
		NoTimeLeft:      *noTimeLeft,
		Untimed:         *untimed,
		TimeGrace:       *timeGrace,
		MoveTimeout:     *timeout,
		CommandTimeout:  *cmdTimeout,
		MoveLimit:       *maxMoves,
		Parallel:        *parallel,
		OutDir:          *out,
		EngineLogs:      *engineLogs,
		ScoringPlayouts: *playouts,
		Application:     "Tengen:" + version,
		Event:           *event,
	}
	for i, line := range []string{*black, *white} {
		spec, err := engineSpec(line)
		if err != nil {
			return fmt.Errorf("match: engine %d: %w", i+1, err)
		}
		cfg.Engines[i] = spec
	}
	if *referee != "" {
		spec, err := engineSpec(*referee)
		if err != nil {
			return fmt.Errorf("match: referee: %w", err)
		}
		cfg.Referee = spec
	}
	if *komi != "" {
		k, err := strconv.ParseFloat(*komi, 64)
		if err != nil {
			return fmt.Errorf("match: komi %q is not a number", *komi)
		}
		cfg.Komi = &k
	}
	tc, err := clock.ParseKGSTimeSettings(strings.Fields(*timeSpec))
	if err != nil {
		return fmt.Errorf("match: -time: %w", err)
	}
	cfg.Time = tc
	if cfg.OutDir == "" {
		cfg.OutDir = "match-" + time.Now().Format("20060102-150405")
	}
	if !*quiet {
		cfg.Progress = stdout
		fmt.Fprintf(stdout, "Writing the records to %s\n", cfg.OutDir)
	}
	s, err := match.Run(ctx, cfg)
	if s != nil {
		if !*quiet {
			fmt.Fprintln(stdout)
		}
		if werr := s.WriteText(stdout); werr != nil && err == nil {
			err = werr
		}
	}
	if errors.Is(err, context.Canceled) && ctx.Err() != nil {
		return errors.New("match interrupted; the summary covers the games finished")
	}
	return err
}

// engineSpec reads an engine command line. The program "tengen" means this
// binary when there is no tengen on the PATH, so that `tengen match -black
// "tengen gtp"` works from a build directory.
func engineSpec(line string) (match.EngineSpec, error) {
	words, err := match.SplitCommand(line)
	if err != nil {
		return match.EngineSpec{}, fmt.Errorf("command %q: %w", line, err)
	}
	if len(words) == 0 {
		return match.EngineSpec{}, errors.New("empty command")
	}
	if words[0] == "tengen" {
		if _, err := exec.LookPath("tengen"); err != nil {
			if self, err := os.Executable(); err == nil {
				words[0] = self
			}
		}
	}
	return match.EngineSpec{Command: words}, nil
}
