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
	// MaxHandicap is the largest handicap of most rulesets; a ruleset
	// with goban's HistoricHandicap allows up to 13 fixed stones on 19×19.
	MaxHandicap = 9
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
	// Handicap is the number of handicap stones, 0 to 9, or up to 13 on
	// 19×19 under a ruleset with HistoricHandicap (Pfaundler §9). With 1,
	// Black moves first without a stone advantage beyond the komi rules of
	// the ruleset; the seed's "one free stone" is that first move.
	Handicap int `json:"handicap"`
	// FreeHandicap lets Black place the handicap stones anywhere instead of
	// on the fixed star points, under rulesets whose FreeHandicap is set.
	// With a handicap of 1 it changes nothing: Black's one free stone is
	// Black's first move.
	FreeHandicap bool              `json:"freeHandicap"`
	Color        ColorChoice       `json:"color"`
	TimeControl  clock.TimeControl `json:"timeControl"`
	// Rated makes the result change both players' ratings. The challenge
	// says it before anyone accepts; DefaultRated is the default.
	Rated bool `json:"rated"`
	// NoTakeback turns takeback off for the game: neither player may ask
	// to take back a move (see CommandUndo). By default takeback is
	// allowed, in rated games too.
	NoTakeback bool `json:"noTakeback,omitempty"`
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
	maxHandicap := MaxHandicap
	if rules.HistoricHandicap && !s.FreeHandicap {
		maxHandicap = max(maxHandicap, rules.MaxFixedHandicap(s.BoardSize, s.BoardSize))
	}
	if s.Handicap < 0 || s.Handicap > maxHandicap {
		return Errorf(EINVALID, "Handicap must be between 0 and %d.", maxHandicap)
	}
	if s.Handicap >= 2 && s.FreeHandicap && !rules.FreeHandicap {
		return Errorf(EINVALID, "The %s rules place handicap stones on fixed points; free placement is not offered under them.", s.Ruleset)
	}
	if _, err := rules.FixedHandicap(s.BoardSize, s.BoardSize, s.Handicap); s.Handicap >= 2 && !s.FreeHandicap && err != nil {
		return Errorf(EINVALID, "A fixed handicap of %d stones does not fit on a %d×%d board; choose free placement or fewer stones.", s.Handicap, s.BoardSize, s.BoardSize)
	}
	if s.Handicap >= 1 && s.Color == ChooseNigiri {
		return Errorf(EINVALID, "In a handicap game the weaker player takes Black: choose black or white instead of nigiri.")
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
// Validate refuses nigiri in handicap games, where the weaker player must
// take Black; a challenge stored before that rule gives Black to the
// acceptor, since a challenger who offers stones is the stronger player.
func (s GameSettings) AssignColors(challengerID, acceptorID int64, coin func() bool) (blackID, whiteID int64) {
	challengerBlack := s.Color == ChooseBlack || s.Color == ChooseNigiri && s.Handicap == 0 && coin()
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

// Notation names how boards label their points for a user.
type Notation string

// Coordinate notations. GTP letters A–T without I and rows from the bottom
// ("D4") are what engines and most servers write; Korschelt's lower-case
// letters a–t without j, as in the 1908 book (Pfaundler §3), put k10 in the
// centre; Japanese numbering counts columns 1–19 from the left and rows in
// kanji from the top, as Japanese game records do ("16-四" is Q16).
const (
	NotationGTP       Notation = "gtp"
	NotationKorschelt Notation = "korschelt"
	NotationJapanese  Notation = "japanese"
)

// UserSettings are a user's board options, stored with the account and
// applied by the board on every page.
type UserSettings struct {
	// Coordinates shows the coordinates around the board.
	Coordinates bool `json:"coordinates"`
	// MoveNumbers shows move numbers on the stones.
	MoveNumbers bool `json:"moveNumbers"`
	// Sound plays a short sound when the opponent moves.
	Sound bool `json:"sound"`
	// ConfirmMove asks for a second tap on a touch screen before a stone
	// is played.
	ConfirmMove bool `json:"confirmMove"`
	// Notation is how the board labels its points.
	Notation Notation `json:"notation"`
}

// DefaultUserSettings are the settings of a new account.
var DefaultUserSettings = UserSettings{Coordinates: true, ConfirmMove: true, Notation: NotationGTP}

// Validate reports whether the settings may be stored.
func (s UserSettings) Validate() error {
	switch s.Notation {
	case NotationGTP, NotationKorschelt, NotationJapanese:
		return nil
	}
	return Errorf(EINVALID, "Notation must be gtp, korschelt or japanese.")
}
