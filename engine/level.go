package engine

import (
	"fmt"
	"strconv"
	"strings"
)

// Level is a playing strength for humans, from LevelBeginner to LevelFull.
// The zero Level means LevelFull.
type Level int

// The levels, weakest first.
const (
	// LevelBeginner samples its moves from the priors (captures, escapes,
	// shape, the third and fourth lines) after a tiny search that only
	// tells it when to pass: sensible-looking moves with no reading.
	LevelBeginner Level = iota + 1
	// LevelNovice searches a little and picks among the moves it visited,
	// in proportion to the visits.
	LevelNovice
	// LevelCasual searches more and picks with less randomness.
	LevelCasual
	// LevelClub searches a fixed, moderate number of playouts and plays the
	// best move.
	LevelClub
	// LevelStrong searches a fixed, larger number of playouts.
	LevelStrong
	// LevelFull uses the time the clock allows (or the engine's Playouts
	// option).
	LevelFull
)

// LevelSpec describes a level.
type LevelSpec struct {
	Level Level
	// Name is a short English name ("beginner").
	Name string
	// Kyu is the kyu rank the level is meant to play at on 19×19.
	Kyu int
	// Measured is false while Kyu is an estimate that no match has
	// checked; Rank says so.
	Measured bool
	// Playouts is the fixed number of simulations per move; 0 means the
	// time management decides.
	Playouts int
	// Temperature, when positive, makes the move a random choice weighted
	// by visits (or priors) to the power 1/Temperature.
	Temperature float64
	// FromPriors chooses among the priors instead of the visits.
	FromPriors bool
}

// Rank returns the level's rank label, such as "25 kyu (estimated, not yet
// measured)".
func (s LevelSpec) Rank() string {
	r := fmt.Sprintf("%d kyu", s.Kyu)
	if !s.Measured {
		r += " (estimated, not yet measured)"
	}
	return r
}

var levelSpecs = []LevelSpec{
	{Level: LevelBeginner, Name: "beginner", Kyu: 25, Playouts: 48, Temperature: 0.5, FromPriors: true},
	{Level: LevelNovice, Name: "novice", Kyu: 20, Playouts: 150, Temperature: 1},
	{Level: LevelCasual, Name: "casual", Kyu: 16, Playouts: 600, Temperature: 0.4},
	{Level: LevelClub, Name: "club", Kyu: 13, Playouts: 2500},
	{Level: LevelStrong, Name: "strong", Kyu: 11, Playouts: 10000},
	{Level: LevelFull, Name: "full", Kyu: 9},
}

// Levels returns the specifications of all levels, weakest first.
func Levels() []LevelSpec { return append([]LevelSpec(nil), levelSpecs...) }

// Spec returns the level's specification; out-of-range levels (and zero)
// are LevelFull.
func (l Level) Spec() LevelSpec {
	if l < LevelBeginner || l > LevelFull {
		l = LevelFull
	}
	return levelSpecs[l-1]
}

// String returns the level's name.
func (l Level) String() string { return l.Spec().Name }

// ParseLevel reads a level by number (1–6) or by name.
func ParseLevel(s string) (Level, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	if n, err := strconv.Atoi(s); err == nil && n >= int(LevelBeginner) && n <= int(LevelFull) {
		return Level(n), nil
	}
	for _, sp := range levelSpecs {
		if sp.Name == s {
			return sp.Level, nil
		}
	}
	return 0, fmt.Errorf("engine: unknown level %q (1–6 or beginner, novice, casual, club, strong, full)", s)
}
