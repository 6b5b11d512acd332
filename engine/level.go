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
	// LevelBeginner searches a little and picks among the moves it visited
	// most, in proportion to their visits, accepting moves that lose up to a
	// fifth of the win rate: sensible-looking moves with little reading.
	LevelBeginner Level = iota + 1
	// LevelNovice searches more and picks among the moves it visited with
	// less randomness.
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
	// Playouts is the fixed number of simulations per move on 19×19 (see
	// PlayoutsFor); 0 means the time management decides.
	Playouts int
	// Temperature, when positive, makes the move a random choice weighted
	// by visits to the power 1/Temperature, among the moves with at least a
	// tenth of the best move's visits and a win rate at most MaxLoss below
	// it.
	Temperature float64
	// MaxLoss is how much lower than the best move's win rate a move the
	// level chooses at random may be.
	MaxLoss float64
}

// PlayoutsFor returns the level's simulations per move on a board of the
// given number of points: Playouts scaled by the points, and at least a
// quarter of it. The levels are measured on 19×19, where a fixed number
// of playouts spread over four times the moves of 9×9 buys much less
// reading; without the scaling the weak levels played nearly at random on
// 19×19.
func (s LevelSpec) PlayoutsFor(points int) int {
	return max(s.Playouts*points/361, s.Playouts/4)
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

// levelSpecs are the levels. The kyu ranks come from handicap matches on
// 19×19 (docs/STRENGTH.md): GNU Go 3.8 at level 10 is taken as 9 kyu, and
// a level that wins about half of its games taking n stones from an
// opponent is n ranks weaker. Every level was measured again after the
// playout changes of commit f808362 (at 3cbf274, four games per match).
var levelSpecs = []LevelSpec{
	{Level: LevelBeginner, Name: "beginner", Kyu: 24, Measured: true, Playouts: 1200, Temperature: 0.7, MaxLoss: 0.2},
	{Level: LevelNovice, Name: "novice", Kyu: 21, Measured: true, Playouts: 2000, Temperature: 0.5, MaxLoss: 0.15},
	{Level: LevelCasual, Name: "casual", Kyu: 18, Measured: true, Playouts: 2400, Temperature: 0.4, MaxLoss: 0.15},
	{Level: LevelClub, Name: "club", Kyu: 13, Measured: true, Playouts: 10000},
	{Level: LevelStrong, Name: "strong", Kyu: 11, Measured: true, Playouts: 30000},
	{Level: LevelFull, Name: "full", Kyu: 9, Measured: true},
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
