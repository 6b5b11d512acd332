package gtp

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"tengen/goban"
)

// DeadStoneEstimator is implemented by players that judge dead stones better
// than goban's static estimate (the search engine does). When the engine's
// player implements it, final_score and final_status_list use it.
type DeadStoneEstimator interface {
	// DeadStones returns the stones it considers dead in the current
	// position of g; g must not be changed.
	DeadStones(g *goban.Game) []goban.Point
}

// DefaultAnalyzeInterval is the time between analysis reports when the
// controller gives no interval.
const DefaultAnalyzeInterval = time.Second

// AnalyzeRequest is a parsed analysis command (lz-analyze, kata-analyze,
// analyze, and their genmove_analyze forms):
// "[COLOR] [INTERVAL] [KEY VALUE...]" with the interval in centiseconds,
// as Leela Zero and KataGo read it.
type AnalyzeRequest struct {
	// Game is a copy of the game with Color to move; the analyzer may play
	// on it.
	Game *goban.Game
	// Color is the player to analyze for: the one given, or the player to
	// move.
	Color goban.Color
	// Interval is the time between reports.
	Interval time.Duration
	// Ownership is set by "ownership true" (kata-analyze).
	Ownership bool
	// Options holds the other keys with their values as given, such as
	// "minmoves" ["3"] or "avoid" ["b", "D4,Q16", "1"].
	Options map[string][]string
	// Time is the clock information, for the genmove_analyze forms.
	Time TimeState
}

// AnalyzeFunc analyzes req.Game and writes report lines to out until ctx
// is cancelled (by the next command) or it has nothing more to say.
type AnalyzeFunc func(ctx context.Context, req AnalyzeRequest, out *Stream) error

// GenmoveAnalyzeFunc chooses a move for req.Color while writing analysis
// lines to out; the engine plays the move and ends the output with
// "play VERTEX".
type GenmoveAnalyzeFunc func(ctx context.Context, req AnalyzeRequest, out *Stream) (goban.Move, error)

// keyArity is the number of values each known analysis key takes.
var keyArity = map[string]int{
	"interval": 1, "minmoves": 1, "maxmoves": 1, "ownership": 1, "ownershipStdev": 1,
	"movesOwnership": 1, "movesOwnershipStdev": 1, "pvVisits": 1, "pvEdgeVisits": 1,
	"rootInfo": 1, "includePolicy": 1, "avoid": 3, "allow": 3,
}

// parseAnalyze reads "[COLOR] [INTERVAL] [KEY VALUE...]".
func (e *Engine) parseAnalyze(cmd Command) (AnalyzeRequest, error) {
	usage := syntaxError(cmd.Name + " [COLOR] [INTERVAL] [KEY VALUE...]")
	req := AnalyzeRequest{Color: e.game.ToMove(), Interval: DefaultAnalyzeInterval, Options: map[string][]string{}}
	args := cmd.Args
	if len(args) > 0 {
		if c, err := parseColor(args[0]); err == nil {
			req.Color = c
			args = args[1:]
		}
	}
	centis := func(s string) (time.Duration, error) {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 || n > 360000 {
			return 0, usage
		}
		return time.Duration(n) * 10 * time.Millisecond, nil
	}
	if len(args) > 0 && isDigits(args[0]) {
		d, err := centis(args[0])
		if err != nil {
			return req, err
		}
		req.Interval = d
		args = args[1:]
	}
	for len(args) > 0 {
		key := args[0]
		n, ok := keyArity[key]
		if !ok || len(args) < 1+n {
			return req, usage
		}
		vals := args[1 : 1+n]
		args = args[1+n:]
		switch key {
		case "interval":
			d, err := centis(vals[0])
			if err != nil {
				return req, err
			}
			req.Interval = d
		case "ownership":
			b, err := strconv.ParseBool(vals[0])
			if err != nil {
				return req, usage
			}
			req.Ownership = b
		default:
			req.Options[key] = append(req.Options[key], vals...)
		}
	}
	if e.game.Ended() && e.game.Result().Reason != goban.EndPasses {
		return req, fmt.Errorf("game over: %v", e.game.Result())
	}
	g := e.game.Clone()
	e.resumeIfPassed(g, req.Color)
	g.SetToMove(req.Color)
	req.Game = g
	req.Time = e.timeState(req.Color)
	return req, nil
}

// HandleAnalyze registers an analysis command such as lz-analyze or
// kata-analyze: the arguments are parsed, the success header is sent at
// once, and fn runs until the next command arrives.
func (e *Engine) HandleAnalyze(name string, fn AnalyzeFunc) {
	e.srv.HandleStream(name, func(ctx context.Context, cmd Command, out *Stream) error {
		req, err := e.parseAnalyze(cmd)
		if err != nil {
			return err
		}
		if err := out.Begin(); err != nil {
			return err
		}
		return fn(ctx, req, out)
	})
}

// HandleGenmoveAnalyze registers a command such as lz-genmove_analyze or
// kata-genmove_analyze: fn thinks while it streams analysis lines, then the
// engine plays its move and ends the output with "play VERTEX". It is not
// interrupted by further input, like genmove.
func (e *Engine) HandleGenmoveAnalyze(name string, fn GenmoveAnalyzeFunc) {
	e.srv.HandleStreamToEnd(name, func(ctx context.Context, cmd Command, out *Stream) error {
		req, err := e.parseAnalyze(cmd)
		if err != nil {
			return err
		}
		if len(cmd.Args) == 0 {
			return syntaxError(cmd.Name + " COLOR [INTERVAL] [KEY VALUE...]")
		}
		if err := out.Begin(); err != nil {
			return err
		}
		start := time.Now()
		m, err := fn(ctx, req, out)
		if err != nil {
			return err
		}
		if m.Color != req.Color {
			return fmt.Errorf("internal error: %s answered for %v", name, m.Color)
		}
		e.charge(req.Color, time.Since(start))
		e.resumeIfPassed(e.game, req.Color)
		if err := e.game.Play(m); err != nil {
			return fmt.Errorf("internal error: %s chose %s: %v", name, e.moveVertex(m), err)
		}
		return out.Println("play " + e.moveVertex(m))
	})
}

// deadStones is the player's dead-stone estimate if it has one, otherwise
// goban's static estimate.
func (e *Engine) deadStones() []goban.Point {
	if d, ok := e.player.(DeadStoneEstimator); ok {
		return d.DeadStones(e.game)
	}
	// The ruleset's own rules of the count (Tromp-Taylor's live stones,
	// the Japanese confirmation of Art. 7.2) apply to every estimate.
	return goban.ConfirmDead(e.game, e.game.Board().EstimateDead(e.playouts))
}
