package tengen

import (
	"context"
	"time"
)

// Ratings and ranks (issue 16). A player's strength is a Glicko-2 rating
// (package internal/rating) shown as a kyu/dan rank; see docs/RULES.md,
// "Ratings and ranks". The root package holds only the data: the arithmetic
// is internal/rating's, and storage applies it in the transaction that
// stores a rated game's result (sqlite/rating.go).

// StartingLevel is a level a new player may declare at sign-up: a name the
// sign-up form shows and the rank whose middle rating the account starts
// at, with the deviation of an unknown player, so that the first games
// move it quickly.
type StartingLevel struct {
	Name string `json:"name"`
	Rank string `json:"rank"`
}

// StartingLevels lists the levels offered at sign-up, weakest first.
var StartingLevels = []StartingLevel{
	{"beginner", "25k"},
	{"casual", "18k"},
	{"intermediate", "12k"},
	{"advanced", "6k"},
	{"strong", "1k"},
	{"dan", "3d"},
}

// StartingRank returns the rank of the starting level called name, or ""
// (the default rating of 1500) for "" and unknown names.
func StartingRank(name string) string {
	for _, l := range StartingLevels {
		if l.Name == name {
			return l.Rank
		}
	}
	return ""
}

// DefaultRated is whether a game with these settings is rated unless the
// challenger says otherwise: even games are, handicap games are not (the
// online server's rule, seed 003: "Alle Spiele mit Handicap werden nicht
// gewertet").
func (s GameSettings) DefaultRated() bool { return s.Handicap == 0 }

// RatingChange is one rated game in a player's rating history: the
// rating after the game and the one before it.
type RatingChange struct {
	GameID          int64     `json:"gameId"`
	UserID          int64     `json:"userId"`
	Rating          float64   `json:"rating"`
	Deviation       float64   `json:"deviation"`
	Rank            string    `json:"rank"`
	RatingBefore    float64   `json:"ratingBefore"`
	DeviationBefore float64   `json:"deviationBefore"`
	CreatedAt       time.Time `json:"createdAt"`
}

// RatingService keeps what the game service does not: anchors of bots and
// the rating history. The ratings themselves change only with the result
// of a rated game, in GameService.AppendMove or UpdateGame, in the
// transaction that stores the result.
type RatingService interface {
	// SetAnchor fixes the rating of the bot userID at the middle of rank
	// ("24k", "8 kyu"), where it stays whatever the bot's results: rated
	// games against it measure its opponents only. An empty rank removes
	// the anchor, and games against the bot are then unrated. A user who
	// is not a bot gets EINVALID, an unknown rank EINVALID.
	SetAnchor(ctx context.Context, userID int64, rank string) error
	// FindRatingHistory returns the user's rating changes, the most recent
	// first, at most limit (0: all).
	FindRatingHistory(ctx context.Context, userID int64, limit int) ([]*RatingChange, error)
	// FindRecord counts the user's finished games by outcome, rated or
	// not; void games count as none of them.
	FindRecord(ctx context.Context, userID int64) (Record, error)
	// FindStats counts the user's finished games by board size and, for
	// rated games, by the opponent's strength at the time (see
	// UserStats); ENOTFOUND for an unknown user.
	FindStats(ctx context.Context, userID int64) (*UserStats, error)
	// FindPlayers returns the players the filter selects (see
	// PlayerFilter); disabled accounts never.
	FindPlayers(ctx context.Context, filter PlayerFilter) ([]*User, error)
}

// PlayerFilter selects players for the players page.
type PlayerFilter struct {
	// Prefix, when not empty, selects the users (bots included) whose
	// name begins with it, ignoring ASCII case, in the order of their
	// names. It must be a fragment of a valid user name (see
	// ValidatePlayerPrefix).
	Prefix string
	// ActiveSince, when Prefix is empty, selects the strongest active
	// players: people (no bots) with a rated game that finished at or
	// after it, highest rating first.
	ActiveSince time.Time
	// Limit is the most players returned; 0 means 50.
	Limit int
}

// ValidatePlayerPrefix reports whether prefix may start a user name: 1 to
// MaxUserNameLen letters, digits, '-' or '_'. Anything else finds nobody
// and is refused rather than searched.
func ValidatePlayerPrefix(prefix string) error {
	if prefix == "" || len(prefix) > MaxUserNameLen {
		return Errorf(EINVALID, "Search text must be 1 to %d characters long.", MaxUserNameLen)
	}
	for _, r := range prefix {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return Errorf(EINVALID, "Search text may contain only letters, digits, '-' and '_'.")
		}
	}
	return nil
}

// UserStats is a player's finished games counted for the profile.
type UserStats struct {
	// Total counts every finished game with a winner or a draw.
	Total Record `json:"total"`
	// BySize counts the same games by board size, smallest board first.
	BySize []SizeRecord `json:"bySize"`
	// ByOpponent counts the rated games by the opponent's rank at the
	// time compared with the player's own: stronger, equal (the same
	// rank), weaker, in that order, each present even when empty. Only
	// rated games know both ranks as they stood.
	ByOpponent []StrengthRecord `json:"byOpponent"`
}

// SizeRecord is the record on one board size.
type SizeRecord struct {
	BoardSize int `json:"boardSize"`
	Record
}

// The opponent strengths of StrengthRecord.
const (
	Stronger = "stronger"
	Equal    = "equal"
	Weaker   = "weaker"
)

// StrengthRecord is the record against opponents of one strength.
type StrengthRecord struct {
	Strength string `json:"strength"`
	Record
}

// Record is a player's wins, losses and draws.
type Record struct {
	Wins   int `json:"wins"`
	Losses int `json:"losses"`
	Draws  int `json:"draws"`
}
