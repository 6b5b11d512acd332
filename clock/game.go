package clock

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// Color is a player's colour. The package has its own type so that it need
// not import goban; the zero Color is no colour. Black and White have the
// values of goban's Black and White, so that a conversion between the two is
// a type conversion.
type Color uint8

// The two colours.
const (
	Black Color = 1
	White Color = 2
)

// Other returns the opponent's colour (and no colour for no colour).
func (c Color) Other() Color {
	switch c {
	case Black:
		return White
	case White:
		return Black
	}
	return 0
}

// String returns "black", "white" or "none"; this is also the JSON form.
func (c Color) String() string {
	switch c {
	case Black:
		return "black"
	case White:
		return "white"
	}
	return "none"
}

// ParseColor reads a colour as GTP writes it: "b", "black", "w" or "white",
// in any case.
func ParseColor(s string) (Color, error) {
	switch strings.ToLower(s) {
	case "b", "black":
		return Black, nil
	case "w", "white":
		return White, nil
	}
	return 0, fmt.Errorf("clock: invalid colour %q", s)
}

func (c Color) valid() bool { return c == Black || c == White }

func (c Color) index() int { return int(c) - 1 }

// Errors returned by GameClock methods when they are called in the wrong
// order. They mean a bug in the caller, not a move that came too late: lateness
// is reported as a flagged result.
var (
	ErrRunning    = errors.New("clock: a turn is already running")
	ErrNotRunning = errors.New("clock: no turn is running")
	ErrFlagged    = errors.New("clock: a flag has fallen")
	ErrNoTurn     = errors.New("clock: no turn to resume")
	ErrColor      = errors.New("clock: invalid colour")
)

// GameClock is the server-authoritative clock of a two-player game. At most
// one player's clock runs at a time; Start, Stop, Switch, Pause, Resume,
// Checkpoint and Recover move it between turns, all with the time passed in.
//
// A GameClock is not safe for concurrent use: the server guards it with the
// lock that guards the rest of the game. It round-trips through JSON (see
// MarshalJSON), so a game's clock can be stored with each move.
type GameClock struct {
	control TimeControl
	// states holds the stored states of Black and White; the running turn's
	// time since `since` is not yet charged to it.
	states  [2]State
	turn    Color // whose turn it is or was when paused; 0 before the first Start
	running bool
	since   time.Time // start of the running interval
	flagged Color     // the player whose flag fell, or 0
}

// Clone returns an independent copy of g (a GameClock holds no pointers, so
// the copy shares nothing), or nil for a nil g.
func (g *GameClock) Clone() *GameClock {
	if g == nil {
		return nil
	}
	c := *g
	return &c
}

// NewGameClock returns the clock for a new game with both players' states
// fresh and no turn running. It fails if tc does not Validate.
func NewGameClock(tc TimeControl) (*GameClock, error) {
	if err := tc.Validate(); err != nil {
		return nil, err
	}
	return &GameClock{control: tc, states: [2]State{tc.NewState(), tc.NewState()}}, nil
}

// Control returns the game's time control.
func (g *GameClock) Control() TimeControl { return g.control }

// Turn returns the colour whose clock runs, or ran when the clock was
// paused; no colour before the first Start.
func (g *GameClock) Turn() Color { return g.turn }

// Running reports whether a turn's clock is running, and since when.
func (g *GameClock) Running() (since time.Time, running bool) { return g.since, g.running }

// Flagged returns the player whose flag fell, if any.
func (g *GameClock) Flagged() (Color, bool) { return g.flagged, g.flagged != 0 }

// State returns c's stored state, without the time of a running turn.
func (g *GameClock) State(c Color) State {
	if !c.valid() {
		return State{}
	}
	return g.states[c.index()]
}

// StateAt returns c's state as it would be at time t, charging the running
// turn's time until t (without applying move rules). Use it to show the
// clocks; it changes nothing.
func (g *GameClock) StateAt(c Color, t time.Time) State {
	s := g.State(c)
	if g.running && c == g.turn {
		s = g.control.Spend(s, t.Sub(g.since))
	}
	return s
}

// Deadline returns the instant at which the running player's flag falls if
// they do not move: a move at or after it is too late. The server arms a
// timer for it and calls Check when it fires. ok is false when no turn is
// running or the time control is None.
func (g *GameClock) Deadline() (deadline time.Time, ok bool) {
	if !g.running {
		return time.Time{}, false
	}
	d, ok := g.control.Remaining(g.states[g.turn.index()])
	if !ok {
		return time.Time{}, false
	}
	return g.since.Add(d), true
}

// Start starts the turn of c at time t. It fails if a turn is running or a
// flag has fallen.
func (g *GameClock) Start(c Color, t time.Time) error {
	if !c.valid() {
		return ErrColor
	}
	if g.flagged != 0 {
		return ErrFlagged
	}
	if g.running {
		return ErrRunning
	}
	g.turn, g.running, g.since = c, true, t
	return nil
}

// Stop ends the running turn at time t because its player made a move: it
// charges the time since the turn started and applies the move rules (see
// TimeControl.Play). flagged is true when the move came too late (t at or
// after Deadline); the clock then records the flag and the caller ends the
// game on time instead of playing the move.
func (g *GameClock) Stop(t time.Time) (flagged bool, err error) {
	if !g.running {
		return false, ErrNotRunning
	}
	i := g.turn.index()
	g.states[i] = g.control.Play(g.states[i], t.Sub(g.since))
	g.running = false
	if g.states[i].TimedOut {
		g.flagged = g.turn
		return true, nil
	}
	return false, nil
}

// Switch is Stop followed, if the move was in time, by Start of the
// opponent's turn at the same instant: the usual call after a move.
func (g *GameClock) Switch(t time.Time) (flagged bool, err error) {
	mover := g.turn
	flagged, err = g.Stop(t)
	if err != nil || flagged {
		return flagged, err
	}
	return false, g.Start(mover.Other(), t)
}

// Pause stops the running turn at time t without a move, as when the game
// enters the scoring phase: the time so far is charged but no period is kept
// and no increment is added. flagged is true if the flag had already fallen
// by t. Resume or Start continues later. A pass is a move: on the second
// pass, call Switch (the passer's period is kept or increment added) and
// then Pause at the same instant, which charges the opponent nothing.
func (g *GameClock) Pause(t time.Time) (flagged bool, err error) {
	if !g.running {
		return false, ErrNotRunning
	}
	i := g.turn.index()
	g.states[i] = g.control.Spend(g.states[i], t.Sub(g.since))
	g.running = false
	if g.states[i].TimedOut {
		g.flagged = g.turn
		return true, nil
	}
	return false, nil
}

// Resume restarts the paused turn's clock at time t. To resume with the
// other player to move (as when play resumes after a disputed scoring
// phase), call Start with that colour instead.
func (g *GameClock) Resume(t time.Time) error {
	if g.running {
		return ErrRunning
	}
	if g.turn == 0 {
		return ErrNoTurn
	}
	return g.Start(g.turn, t)
}

// Checkpoint charges the running turn's time until t to its player and
// continues the turn from t, like Pause followed by Resume. A server that
// stores the clock after a checkpoint loses at most the time since the
// checkpoint if it crashes. flagged is true if the flag fell by t.
func (g *GameClock) Checkpoint(t time.Time) (flagged bool, err error) {
	flagged, err = g.Pause(t)
	if err != nil || flagged {
		return flagged, err
	}
	return false, g.Resume(t)
}

// Recover is called on a clock loaded from storage after the server
// restarted: if a turn was running, it now runs from t, so the time between
// the stored start (or last checkpoint) and t, when the server was down, is
// not charged to anyone.
func (g *GameClock) Recover(t time.Time) {
	if g.running {
		g.since = t
	}
}

// Check records a timeout if the running player's flag has fallen by time
// t; the server calls it when the timer armed for Deadline fires (a timer
// firing early changes nothing). It returns the flagged player, if any.
func (g *GameClock) Check(t time.Time) (Color, bool) {
	if g.flagged != 0 {
		return g.flagged, true
	}
	if dl, ok := g.Deadline(); ok && !t.Before(dl) {
		_, _ = g.Pause(t)
	}
	return g.Flagged()
}
