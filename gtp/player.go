package gtp

import (
	"context"
	"time"

	"tengen/clock"
	"tengen/goban"
)

// MoveRequest is what a [Player] is asked when the engine must move: what
// the controller has said, in the protocol's terms (TimeState records
// whether time_left was ever sent). Tengen's search engine takes an
// engine.Request instead, which package gtpengine fills in from this once;
// gtp may not import the engine, nor the engine gtp.
type MoveRequest struct {
	// Game is a copy of the game with Color to move; the player may play on
	// it freely.
	Game *goban.Game
	// Color is the colour to move.
	Color goban.Color
	// Cleanup is set for kgs-genmove_cleanup: the player should not pass
	// while dead enemy stones remain on the board, so that a server that
	// scores by area sees them captured.
	Cleanup bool
	// Time holds the time settings and what the controller last said about
	// the time left, for the player's time management.
	Time TimeState
}

// TimeState is the time information a controller has given the engine,
// in the terms of package clock, so that a player can hand it to
// clock.Budget.
type TimeState struct {
	// Control is the time control from time_settings, kgs-time_settings or
	// kata-time_settings; the zero value means no time limit.
	Control clock.TimeControl
	// Left is what the colour to move has left by the engine's own count:
	// a fresh clock (Control.NewState) at the time settings and at every
	// new game, charged with the time each genmove of that colour took,
	// and replaced by what a time_left says. So a player knows its clock
	// even from a controller that never sends time_left.
	Left clock.State
	// LeftReported is true when the controller has sent a time_left for
	// the colour since the time settings or the new game; Left then starts
	// from the last one.
	LeftReported bool
}

// Player chooses moves. The engine asks it in genmove, reg_genmove and
// kgs-genmove_cleanup; the search engine plugs in here.
type Player interface {
	// Name names the playing method, as the engine's name command reports
	// it (e.g. "random").
	Name() string
	// GenMove returns a move for req.Color: a legal play, a pass or a
	// resignation. ctx is cancelled when the engine is shutting down.
	GenMove(ctx context.Context, req MoveRequest) (goban.Move, error)
}

// RandomPlayer is the honest stand-in policy until the search engine exists:
// it plays a uniformly random legal move, but never fills one of its own
// one-point eyes, and takes a capturing move whenever there is one. It
// passes when no such move is left (under rules that forbid passing while a
// stone can be played, it fills an eye instead) and never resigns. It is deterministic
// for a given seed.
type RandomPlayer struct {
	rng *goban.Rand
}

// NewRandomPlayer returns a RandomPlayer whose choices follow from seed; a
// zero seed is replaced by one taken from the clock.
func NewRandomPlayer(seed uint64) *RandomPlayer {
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	return &RandomPlayer{rng: goban.NewRand(seed)}
}

// Name returns "random".
func (p *RandomPlayer) Name() string { return "random" }

// GenMove picks a random capture if one exists, otherwise a random legal move
// that fills no own eye, otherwise a pass.
func (p *RandomPlayer) GenMove(_ context.Context, req MoveRequest) (goban.Move, error) {
	g, c := req.Game, req.Color
	b := g.Board()
	var captures, others, eyes []goban.Point
	for _, pt := range g.LegalMoves(c) {
		l := b.Loc(pt)
		switch {
		case b.WouldCapture(l, c):
			captures = append(captures, pt)
		case b.IsEye(l, c):
			// Filling an own eye is the one legal move a random player
			// must not make, or it kills its own groups; it is kept only
			// for rules that forbid passing (Atari-Go).
			eyes = append(eyes, pt)
		default:
			others = append(others, pt)
		}
	}
	switch {
	case len(captures) > 0:
		return goban.PlayAt(c, captures[p.rng.Intn(len(captures))]), nil
	case len(others) > 0:
		return goban.PlayAt(c, others[p.rng.Intn(len(others))]), nil
	case len(eyes) > 0 && g.Legal(goban.PassMove(c)) != nil:
		return goban.PlayAt(c, eyes[p.rng.Intn(len(eyes))]), nil
	}
	return goban.PassMove(c), nil
}
