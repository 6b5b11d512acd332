package tengen

import (
	"math"

	"tengen/clock"
	"tengen/goban"
)

// ColorChoice is the colour a challenger asks for.
type ColorChoice string

// Colour choices. Nigiri decides by lot when the game is created (seed 002:
// "Zu Anfang des Spieles wird um die Farbe gelost").
const (
	ChooseBlack  ColorChoice = "black"
	ChooseWhite  ColorChoice = "white"
	ChooseNigiri ColorChoice = "nigiri"
)

// Board size limits.
const (
	MinBoardSize = 5
	MaxBoardSize = 25
	MaxHandicap  = 9
	// MaxKomi bounds custom komi; larger values are surely typing mistakes.
	MaxKomi = 150
)

// Rulesets returns the ruleset names a game may use, in the order the lobby
// offers them.
func Rulesets() []string { return goban.OfferedRulesetNames() }

// GameSettings are the rules of one game, as proposed in a challenge.
type GameSettings struct {
	BoardSize int    `json:"boardSize"`
	Ruleset   string `json:"ruleset"`
	// Komi is the custom komi; nil means the ruleset's default for the board
	// size and handicap. Custom komi must be a multiple of 0.5.
	Komi *float64 `json:"komi"`
	// Handicap is the number of handicap stones, 0 to 9. With 1, Black moves
	// first without a stone advantage beyond the komi rules of the ruleset.
	Handicap int `json:"handicap"`
	// FreeHandicap lets Black place the handicap stones anywhere instead of
	// on the fixed star points.
	FreeHandicap bool              `json:"freeHandicap"`
	Color        ColorChoice       `json:"color"`
	TimeControl  clock.TimeControl `json:"timeControl"`
	// Rated makes the result change both players' ratings. The challenge
	// says it before anyone accepts; DefaultRated is the default.
	Rated bool `json:"rated"`
}

// Validate reports whether the settings describe a game that can be played.
func (s GameSettings) Validate() error {
	if s.BoardSize < MinBoardSize || s.BoardSize > MaxBoardSize {
		return Errorf(EINVALID, "Board size must be between %d and %d.", MinBoardSize, MaxBoardSize)
	}
	rules, err := goban.RulesetByName(s.Ruleset)
	if err != nil || rules.Name != s.Ruleset {
		return Errorf(EINVALID, "Unknown ruleset %q.", s.Ruleset)
	}
	if s.Komi != nil {
		k := *s.Komi
		if math.IsNaN(k) || math.Abs(k) > MaxKomi || k*2 != math.Trunc(k*2) {
			return Errorf(EINVALID, "Komi must be a multiple of 0.5 between -%d and %d.", MaxKomi, MaxKomi)
		}
	}
	if s.Handicap < 0 || s.Handicap > MaxHandicap {
		return Errorf(EINVALID, "Handicap must be between 0 and %d.", MaxHandicap)
	}
	if _, err := goban.FixedHandicap(s.BoardSize, s.BoardSize, s.Handicap, false); s.Handicap >= 2 && !s.FreeHandicap && err != nil {
		return Errorf(EINVALID, "A fixed handicap of %d stones does not fit on a %d×%d board; choose free placement or fewer stones.", s.Handicap, s.BoardSize, s.BoardSize)
	}
	if s.Handicap < 2 && s.FreeHandicap {
		return Errorf(EINVALID, "Free handicap placement needs at least 2 stones.")
	}
	switch s.Color {
	case ChooseBlack, ChooseWhite, ChooseNigiri:
	default:
		return Errorf(EINVALID, "Colour must be black, white or nigiri.")
	}
	return ValidateTimeControl(s.TimeControl)
}

// AssignColors decides who plays Black. The challenger gets the colour it
// chose; with nigiri, coin decides (true = the challenger plays Black).
func (s GameSettings) AssignColors(challengerID, acceptorID int64, coin func() bool) (blackID, whiteID int64) {
	challengerBlack := s.Color == ChooseBlack || s.Color == ChooseNigiri && coin()
	if challengerBlack {
		return challengerID, acceptorID
	}
	return acceptorID, challengerID
}

// FirstToMove returns the colour that moves first. With a fixed handicap of
// two or more stones the stones are on the board already and White moves
// first, except under rulesets where Black moves first anyway; with a free
// handicap Black first places the stones.
func (s GameSettings) FirstToMove() goban.Color {
	if s.Handicap >= 2 && !s.FreeHandicap {
		if r, err := goban.RulesetByName(s.Ruleset); err != nil || !r.BlackFirstAfterHandicap {
			return goban.White
		}
	}
	return goban.Black
}
