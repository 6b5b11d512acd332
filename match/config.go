package match

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"tengen/clock"
	"tengen/goban"
)

// EngineSpec says how to start a GTP engine.
type EngineSpec struct {
	// Command is the program and its arguments, e.g. {"gnugo", "--mode",
	// "gtp"}; see SplitCommand for reading it from one string.
	Command []string
	// Env holds extra "KEY=value" entries added to the match's own
	// environment; nil adds nothing.
	Env []string
	// Dir is the engine's working directory; empty means the match's.
	Dir string
}

// String writes the command line with arguments quoted where needed, so
// that SplitCommand reads it back.
func (s EngineSpec) String() string {
	parts := make([]string, len(s.Command))
	for i, a := range s.Command {
		parts[i] = quoteArg(a)
	}
	return strings.Join(parts, " ")
}

func quoteArg(a string) string {
	if a != "" && !strings.ContainsAny(a, " \t\n\r'\"\\") {
		return a
	}
	return "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
}

// Config describes a match. The zero value of each field but Engines and
// Games has a sensible meaning, documented with the field.
type Config struct {
	// Engines are the two engines. Engines[0] plays Black in the first game
	// and the colours alternate from game to game unless SameColors is set.
	Engines [2]EngineSpec
	// Referee, if its Command is not empty, scores games that end by two
	// passes (or at the move limit): the moves are replayed into it and
	// its final_score is the result. Otherwise goban scores them with its
	// own dead-stone estimate.
	Referee EngineSpec
	// Games is the number of games to play; it must be positive.
	Games int
	// SameColors keeps Engines[0] as Black in every game.
	SameColors bool
	// Size is the board size; 0 means 19.
	Size int
	// Rules names the ruleset as goban.RulesetByName knows it; empty means
	// "chinese".
	Rules string
	// Komi, if not nil, is the komi; nil means the ruleset's default for
	// the board size and handicap.
	Komi *float64
	// Handicap is the number of handicap stones (0, or 2 to 9); Black gets
	// them on GTP's fixed points unless FreeHandicap is set.
	Handicap int
	// FreeHandicap lets the Black engine place its handicap stones itself
	// with place_free_handicap.
	FreeHandicap bool
	// Time is the time control both engines are told about and held to
	// (the zero value is no time limit). An engine whose clock runs out
	// loses by time (B+T or W+T).
	Time clock.TimeControl
	// NoTimeLeft keeps time_left from the engines: they get the time
	// settings only and must keep their clocks themselves, as under the many
	// controllers that never send time_left. The match still holds them to
	// the clock.
	NoTimeLeft bool
	// Untimed, if 1 or 2, plays that engine (of Engines) without a clock:
	// it is told no time settings and held only to MoveTimeout, while the
	// other engine keeps Time. An engine such as GNU Go plays weaker when it
	// is told a short time, so a timed engine is compared with its untimed
	// strength this way.
	Untimed int
	// TimeGrace is subtracted from every move's thinking time before it is
	// charged to the clock, for the latency of the pipes and process
	// scheduling; 0 means none.
	TimeGrace time.Duration
	// MoveTimeout is the longest an engine may take for one genmove; an
	// engine that takes longer forfeits. 0 means no limit apart from the
	// clock.
	MoveTimeout time.Duration
	// CommandTimeout bounds every other command (setup, play, the
	// referee's final_score); 0 means 30 seconds.
	CommandTimeout time.Duration
	// MoveLimit ends a game after this many moves (passes included) and
	// scores it as it stands; 0 means four times the number of points.
	MoveLimit int
	// Parallel is the number of games played at once, each with its own
	// engine processes; 0 means 1.
	Parallel int
	// OutDir receives game-NNN.sgf for every game and summary.json and
	// summary.txt; it is created if needed. Empty means no files.
	OutDir string
	// EngineLogs keeps the engines' standard error in OutDir as
	// game-NNN-black.log, game-NNN-white.log and game-NNN-referee.log.
	EngineLogs bool
	// ScoringPlayouts is the number of playouts of goban's dead-stone
	// estimate; 0 means 1000.
	ScoringPlayouts int
	// Application is written to SGF's AP, e.g. "Tengen:1.0"; empty leaves
	// AP out.
	Application string
	// Event is written to SGF's EV; empty leaves it out.
	Event string
	// Progress, if not nil, receives one line per finished game, in game
	// order, and warnings.
	Progress io.Writer
	// Now returns the current time for the records' dates; nil means
	// time.Now.
	Now func() time.Time
}

// withDefaults returns c with zero fields replaced by their defaults, or an
// error when the configuration cannot work.
func (c Config) withDefaults() (Config, goban.Ruleset, error) {
	for i, e := range c.Engines {
		if len(e.Command) == 0 || e.Command[0] == "" {
			return c, goban.Ruleset{}, fmt.Errorf("match: engine %d has no command", i+1)
		}
	}
	if c.Games <= 0 {
		return c, goban.Ruleset{}, errors.New("match: the number of games must be positive")
	}
	if c.Size == 0 {
		c.Size = 19
	}
	if c.Size < goban.MinSize || c.Size > goban.MaxSize {
		return c, goban.Ruleset{}, fmt.Errorf("match: board size %d is outside %d to %d", c.Size, goban.MinSize, goban.MaxSize)
	}
	if c.Rules == "" {
		c.Rules = "chinese"
	}
	rules, err := goban.RulesetByName(c.Rules)
	if err != nil {
		return c, rules, fmt.Errorf("match: %w", err)
	}
	if c.Handicap == 1 || c.Handicap < 0 || c.Handicap > 9 {
		return c, rules, fmt.Errorf("match: handicap %d: use 0 or 2 to 9 stones", c.Handicap)
	}
	if c.Handicap > 0 && !c.FreeHandicap {
		if _, err := fixedHandicap(c.Size, c.Handicap); err != nil {
			return c, rules, fmt.Errorf("match: %d handicap stones on %d×%d: %w", c.Handicap, c.Size, c.Size, err)
		}
	}
	if err := c.Time.Validate(); err != nil {
		return c, rules, fmt.Errorf("match: %w", err)
	}
	if c.Untimed < 0 || c.Untimed > 2 {
		return c, rules, fmt.Errorf("match: untimed engine %d: use 1 or 2", c.Untimed)
	}
	if c.CommandTimeout <= 0 {
		c.CommandTimeout = 30 * time.Second
	}
	if c.MoveLimit <= 0 {
		c.MoveLimit = 4 * c.Size * c.Size
	}
	if c.Parallel <= 0 {
		c.Parallel = 1
	}
	if c.ScoringPlayouts <= 0 {
		c.ScoringPlayouts = 1000
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	return c, rules, nil
}

// fixedHandicap returns GTP's fixed handicap points on a size×size board:
// goban's fixed points, except that three stones leave the lower right
// corner empty (D4 Q16 D16), as the GTP specification and GNU Go place them.
func fixedHandicap(size, n int) ([]goban.Point, error) {
	if n != 3 {
		return goban.FixedHandicap(size, size, n, false)
	}
	four, err := goban.FixedHandicap(size, size, 4, false)
	if err != nil {
		return nil, err
	}
	// goban lists upper left, upper right, lower left, lower right.
	return four[:3], nil
}

// CommandError reports a command line that SplitCommand cannot read. Col is
// the 1-based byte column of the problem.
type CommandError struct {
	Col int
	Msg string
}

// Error formats the error as "1:col: message" (a command line is one line).
func (e *CommandError) Error() string { return fmt.Sprintf("1:%d: %s", e.Col, e.Msg) }

// SplitCommand splits a command line into program and arguments as a POSIX
// shell would split words: blanks separate words, single quotes keep
// everything up to the next single quote, double quotes keep everything up
// to the next unescaped double quote (where a backslash escapes \, " and $),
// and a backslash outside quotes keeps the next character. No variables are
// expanded and no globs are matched. An empty line gives no words.
func SplitCommand(line string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case c == '\'':
			inWord = true
			j := strings.IndexByte(line[i+1:], '\'')
			if j < 0 {
				return nil, &CommandError{Col: i + 1, Msg: "unterminated single quote"}
			}
			cur.WriteString(line[i+1 : i+1+j])
			i += j + 1
		case c == '"':
			inWord = true
			start := i
			closed := false
			for i++; i < len(line); i++ {
				d := line[i]
				if d == '"' {
					closed = true
					break
				}
				if d == '\\' && i+1 < len(line) && strings.IndexByte(`\"$`, line[i+1]) >= 0 {
					i++
					d = line[i]
				}
				cur.WriteByte(d)
			}
			if !closed {
				return nil, &CommandError{Col: start + 1, Msg: "unterminated double quote"}
			}
		case c == '\\':
			inWord = true
			if i+1 == len(line) {
				return nil, &CommandError{Col: i + 1, Msg: "backslash at the end of the line"}
			}
			i++
			cur.WriteByte(line[i])
		default:
			inWord = true
			cur.WriteByte(c)
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}
