package play

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"tengen"
	"tengen/clock"
	"tengen/goban"
	"tengen/gtp"
)

// GTPBotConfig is one external engine in the operator's bots file (see
// docs/API.md, "Computer opponents").
type GTPBotConfig struct {
	// Name is the bot's user name (3–20 letters, digits, '-', '_').
	Name string `json:"name"`
	// Command is the engine's command line: the program and its
	// arguments, e.g. ["gnugo", "--mode", "gtp", "--level", "10"].
	Command []string `json:"command"`
	// Dir is the working directory; Env is added to the environment.
	Dir string   `json:"dir,omitempty"`
	Env []string `json:"env,omitempty"`
	// BoardSizes and Rulesets restrict the games offered; empty means
	// any.
	BoardSizes []int    `json:"boardSizes,omitempty"`
	Rulesets   []string `json:"rulesets,omitempty"`
	// MaxGames bounds the bot's unfinished games and its processes
	// (default 1).
	MaxGames int `json:"maxGames,omitempty"`
	// Rank is the strength label shown in the lobby, e.g. "8 kyu".
	Rank string `json:"rank,omitempty"`
	// Anchor, e.g. "8k", fixes the engine's rating at that rank so that
	// games against it are rated for its opponents; without it they are
	// unrated. Give one only for a strength that was measured.
	Anchor string `json:"anchor,omitempty"`
	// DeclineTakeback makes the engine decline takeback requests; by
	// default it accepts them.
	DeclineTakeback bool `json:"declineTakeback,omitempty"`
}

// botsFile is the JSON form of the bots file.
type botsFile struct {
	Bots []GTPBotConfig `json:"bots"`
}

// ParseBotsFile reads a bots file: {"bots": [{"name": …, "command": […],
// …}, …]}. Errors name the line and column.
func ParseBotsFile(name string, data []byte) ([]GTPBotConfig, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var f botsFile
	if err := dec.Decode(&f); err != nil {
		var off int64 = -1
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			off = se.Offset
		case errors.As(err, &te):
			off = te.Offset
		default:
			off = dec.InputOffset()
		}
		line, col := lineCol(data, off)
		return nil, fmt.Errorf("%s:%d:%d: %v", name, line, col, err)
	}
	seen := map[string]bool{}
	for i, b := range f.Bots {
		where := fmt.Sprintf("%s: bot %d (%q)", name, i+1, b.Name)
		if err := tengen.ValidateUserName(b.Name); err != nil {
			return nil, fmt.Errorf("%s: %s", where, tengen.ErrorMessage(err))
		}
		if seen[tengen.UserNameKey(b.Name)] {
			return nil, fmt.Errorf("%s: the name is used twice", where)
		}
		seen[tengen.UserNameKey(b.Name)] = true
		if len(b.Command) == 0 || b.Command[0] == "" {
			return nil, fmt.Errorf("%s: command is empty", where)
		}
		for _, n := range b.BoardSizes {
			if n < tengen.MinBoardSize || n > tengen.MaxBoardSize {
				return nil, fmt.Errorf("%s: board size %d is not between %d and %d", where, n, tengen.MinBoardSize, tengen.MaxBoardSize)
			}
		}
		for _, r := range b.Rulesets {
			if !slices.Contains(tengen.Rulesets(), r) {
				return nil, fmt.Errorf("%s: unknown ruleset %q (known: %s)", where, r, strings.Join(tengen.Rulesets(), ", "))
			}
		}
		if b.MaxGames < 0 {
			return nil, fmt.Errorf("%s: maxGames is negative", where)
		}
	}
	return f.Bots, nil
}

// LoadBotsFile reads the bots file at path.
func LoadBotsFile(path string) ([]GTPBotConfig, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseBotsFile(path, data)
}

func lineCol(data []byte, off int64) (line, col int) {
	off = min(max(off, 0), int64(len(data)))
	before := data[:off]
	line = bytes.Count(before, []byte("\n")) + 1
	col = int(off) - bytes.LastIndexByte(before, '\n')
	return line, col
}

// GTPBot plays with an external GTP engine. For every move it takes an
// idle engine process (starting one if fewer than MaxGames run), sets up
// the game from scratch — board size, komi, ruleset, time settings,
// handicap, every move — and asks genmove. Replaying each time keeps
// nothing in the process that a restart of Tengen or of the engine could
// lose. A process that fails is ended and not reused.
type GTPBot struct {
	cfg GTPBotConfig
	log *slog.Logger

	ctx    context.Context // ends the processes
	cancel context.CancelFunc
	slots  chan struct{} // one per process that may run

	mu     sync.Mutex // guards idle, warned and closed
	idle   []*gtpProc
	warned map[string]bool
	closed bool
}

// gtpProc is an engine process and the GTP session on it.
type gtpProc struct {
	*gtp.Process
	session *gtp.Session
}

// NewGTPBot returns the bot for cfg; processes start when first needed.
func NewGTPBot(cfg GTPBotConfig, log *slog.Logger) *GTPBot {
	if cfg.MaxGames <= 0 {
		cfg.MaxGames = 1
	}
	if log == nil {
		log = slog.Default()
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &GTPBot{cfg: cfg, log: log, ctx: ctx, cancel: cancel, slots: make(chan struct{}, cfg.MaxGames), warned: map[string]bool{}}
}

// GTPBots returns the bots of a bots file.
func GTPBots(cfgs []GTPBotConfig, log *slog.Logger) []Bot {
	var bots []Bot
	for _, c := range cfgs {
		bots = append(bots, Bot{Name: c.Name, Rank: c.Rank, Anchor: c.Anchor, External: true, BoardSizes: c.BoardSizes, Rulesets: c.Rulesets,
			MaxGames: max(c.MaxGames, 1), DeclineTakeback: c.DeclineTakeback, Player: NewGTPBot(c, log)})
	}
	return bots
}

// Close ends every engine process.
func (b *GTPBot) Close() error {
	b.mu.Lock()
	b.closed = true
	idle := b.idle
	b.idle = nil
	b.mu.Unlock()
	var errs []error
	for _, p := range idle {
		errs = append(errs, p.Close())
	}
	b.cancel()
	return errors.Join(errs...)
}

// warnOnce logs an engine's shortcoming once per bot.
func (b *GTPBot) warnOnce(key, msg string) {
	b.mu.Lock()
	seen := b.warned[key]
	b.warned[key] = true
	b.mu.Unlock()
	if !seen {
		b.log.Warn("play: external bot: "+msg, "bot", b.cfg.Name)
	}
}

// GenMove implements BotPlayer.
func (b *GTPBot) GenMove(ctx context.Context, req BotRequest) (goban.Move, error) {
	select {
	case b.slots <- struct{}{}:
	case <-ctx.Done():
		return goban.Move{}, ctx.Err()
	}
	defer func() { <-b.slots }()
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return goban.Move{}, errors.New("the bot is shut down")
	}
	var p *gtpProc
	if n := len(b.idle); n > 0 {
		p, b.idle = b.idle[n-1], b.idle[:n-1]
	}
	b.mu.Unlock()
	if p == nil {
		var err error
		if p, err = b.start(ctx); err != nil {
			return goban.Move{}, err
		}
	}
	m, err := b.genMove(ctx, p, req)
	if err != nil {
		err = b.failure(p, err)
		p.Close()
		return goban.Move{}, err
	}
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		p.Close()
	} else {
		b.idle = append(b.idle, p)
		b.mu.Unlock()
	}
	return m, nil
}

// start runs a new engine process and asks for its commands.
func (b *GTPBot) start(ctx context.Context) (*gtpProc, error) {
	var env []string
	if len(b.cfg.Env) > 0 {
		env = append(os.Environ(), b.cfg.Env...)
	}
	proc, err := gtp.Start(b.ctx, b.cfg.Command[0], b.cfg.Command[1:], gtp.ProcessOptions{Dir: b.cfg.Dir, Env: env, GracePeriod: 2 * time.Second})
	if err != nil {
		return nil, err
	}
	p := &gtpProc{Process: proc, session: gtp.NewSession(proc, 0)}
	if err := p.session.ListCommands(ctx); err != nil {
		err = b.failure(p, err)
		p.Close()
		return nil, err
	}
	return p, nil
}

// failure adds the engine's last words on standard error when it died.
func (b *GTPBot) failure(p *gtpProc, err error) error {
	select {
	case <-p.Done():
		if tail := strings.TrimSpace(p.Stderr()); tail != "" {
			if i := strings.LastIndexByte(tail, '\n'); i >= 0 {
				tail = tail[i+1:]
			}
			return fmt.Errorf("%w (the engine exited; its last words: %q)", err, tail)
		}
		return fmt.Errorf("%w (the engine exited)", err)
	case <-time.After(100 * time.Millisecond):
	}
	return err
}

// genMove sets the game up in the engine and asks for the move.
func (b *GTPBot) genMove(ctx context.Context, p *gtpProc, req BotRequest) (goban.Move, error) {
	s := p.session
	if err := s.NewGame(ctx, req.Settings.BoardSize); err != nil {
		return goban.Move{}, err
	}
	if err := s.SetKomi(ctx, req.Game.Komi()); err != nil {
		return goban.Move{}, err
	}
	// The ruleset, always: the engine must know what it plays.
	rules := req.Settings.Ruleset
	if err := s.SetRules(ctx, rules); errors.Is(err, gtp.ErrUnsupported) {
		b.warnOnce("rules "+rules, fmt.Sprintf("the engine knows neither kata-set-rules nor kgs-rules for %s; its command line must select the rules", rules))
	} else if err != nil {
		b.warnOnce("rules "+rules, fmt.Sprintf("%v; its command line must select %s rules", err, rules))
	}
	// The time settings, always, "no time limit" too: a process plays
	// many games.
	if err := s.SetTime(ctx, req.Time); errors.Is(err, gtp.ErrUnsupported) {
		b.warnOnce("time", "the engine knows no time_settings command; it does not know its time")
	} else if err != nil {
		b.warnOnce("time", fmt.Sprintf("%v; the engine does not know its time", err))
	}
	if _, pts := req.Game.Handicap(); len(pts) > 0 {
		if err := s.SetHandicap(ctx, pts, false); err != nil {
			return goban.Move{}, err
		}
	}
	for _, m := range req.Moves {
		c := m.Color
		var err error
		switch m.Kind {
		case tengen.MovePlay:
			err = s.Play(ctx, goban.PlayAt(c, goban.Point{X: m.X, Y: m.Y}))
		case tengen.MovePass:
			err = s.Play(ctx, goban.PassMove(c))
		}
		if err != nil {
			return goban.Move{}, err
		}
	}
	if req.Time.Kind != clock.None {
		for _, side := range []struct {
			c  goban.Color
			st *clock.State
		}{{req.Color, req.State}, {req.Color.Opponent(), req.OpponentState}} {
			if side.st == nil {
				continue
			}
			if err := s.TimeLeft(ctx, side.c, req.Time, *side.st); errors.Is(err, gtp.ErrUnsupported) {
				b.warnOnce("time_left", "the engine knows no time_left command; it is not told its time left")
			} else if err != nil {
				b.warnOnce("time_left", err.Error())
			}
		}
	}
	return s.GenMove(ctx, req.Color)
}
