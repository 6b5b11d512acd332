// Package sqlrow holds the Go side of what packages sqlite and postgres
// share: the scan destinations and stored forms of columns whose types
// agree between the two schemas, the messages of the constraints both
// schemas name alike, and the starting rating of a new account. Each
// backend keeps its own SQL.
package sqlrow

import (
	"encoding"
	"fmt"
	"strings"
	"time"

	"tengen"
	"tengen/clock"
	"tengen/goban"
	"tengen/internal/rating"
)

// Text scans a text column into a value that reads its text form, such as
// goban.Color and clock.Kind.
type Text struct{ V encoding.TextUnmarshaler }

// Scan implements sql.Scanner.
func (t Text) Scan(src any) error {
	switch v := src.(type) {
	case string:
		return t.V.UnmarshalText([]byte(v))
	case []byte:
		return t.V.UnmarshalText(v)
	}
	return fmt.Errorf("text column holds %T", src)
}

// ColorText is the stored form of a colour: "black", "white" or "".
func ColorText(c goban.Color) string {
	b, err := c.MarshalText()
	if err != nil {
		return c.String() // refused by the columns' CHECK constraints
	}
	return string(b)
}

// Millis scans a duration stored in milliseconds.
type Millis struct{ D *time.Duration }

// Scan implements sql.Scanner.
func (m Millis) Scan(src any) error {
	v, ok := src.(int64)
	if !ok {
		return fmt.Errorf("duration column holds %T", src)
	}
	*m.D = time.Duration(v) * time.Millisecond
	return nil
}

// RatingFields returns the scan destinations of the users columns rating,
// deviation, volatility and rating_fixed, in that order, for u. The last
// sets u.Rank from the columns before it (see Rank).
func RatingFields(u *tengen.User) []any {
	return []any{&u.Rating, &u.Deviation, &u.Volatility, Rank{u}}
}

// Rank scans the users.rating_fixed column into the user's Rank. It must
// come after the rating and deviation columns in the scan destinations:
// it reads them from U, which the scan fills in order. SQLite stores the
// flag as an integer, PostgreSQL as a boolean.
type Rank struct{ U *tengen.User }

// Scan implements sql.Scanner.
func (r Rank) Scan(src any) error {
	var fixed bool
	switch v := src.(type) {
	case int64:
		fixed = v != 0
	case bool:
		fixed = v
	default:
		return fmt.Errorf("rating_fixed column holds %T", src)
	}
	r.U.Rank = rating.Label(r.U.Bot, fixed, r.U.Rating, r.U.Deviation)
	return nil
}

// SettingsArgs returns the arguments of the settings columns, in the order
// board_size, ruleset, komi, handicap, free_handicap, color, tc_kind,
// tc_main_ms, tc_periods, tc_period_ms, tc_stones, tc_increment_ms,
// tc_max_ms, tc_days_per_move, tc_max_days, rated, no_takeback, handicap_by. komi and free are
// s.Komi and s.FreeHandicap in the backend's form of those columns.
func SettingsArgs(s tengen.GameSettings, komi, free any) []any {
	tc := s.TimeControl
	// Correspondence games are stored in days (tc_days_per_move,
	// tc_max_days) with the duration columns zero, as they always were.
	days, maxDays, inDays := tc.Days()
	if inDays {
		tc = clock.TimeControl{Kind: tc.Kind}
	}
	return []any{s.BoardSize, s.Ruleset, komi, s.Handicap, free, string(s.Color),
		tc.Kind.String(), tc.MainTime.Milliseconds(), tc.Periods, tc.PeriodTime.Milliseconds(), tc.Stones,
		tc.Increment.Milliseconds(), tc.MaxTime.Milliseconds(), days, maxDays, s.Rated, s.NoTakeback, s.HandicapBy}
}

// SettingsDest returns the scan destinations of the settings columns, in
// the order of SettingsArgs, with komi the destination of s.Komi in the
// backend's form; call finish after the scan.
func SettingsDest(s *tengen.GameSettings, komi any) (dest []any, finish func()) {
	tc := &s.TimeControl
	var days, maxDays int
	dest = []any{&s.BoardSize, &s.Ruleset, komi, &s.Handicap, &s.FreeHandicap, (*string)(&s.Color),
		Text{&tc.Kind}, Millis{&tc.MainTime}, &tc.Periods, Millis{&tc.PeriodTime}, &tc.Stones,
		Millis{&tc.Increment}, Millis{&tc.MaxTime}, &days, &maxDays, &s.Rated, &s.NoTakeback, &s.HandicapBy}
	return dest, func() {
		if tc.Kind == clock.Correspondence && (days != 0 || maxDays != 0) {
			*tc = clock.CorrespondenceDays(days, maxDays)
		}
	}
}

// StartingRating is the rating a new account starts at (rating.Starting),
// with the player's message for a rank out of range.
func StartingRating(rank string) (rating.Rating, error) {
	r, err := rating.Starting(rank)
	if err != nil {
		return rating.Rating{}, tengen.Errorf(tengen.EINVALID, "Starting rank %q is not between 30k and 9d.", rank)
	}
	return r, nil
}

// anchorDeviation is the deviation of an anchored bot: small, so that a
// game against it counts almost fully for its opponent, and below
// rating.ProvisionalDeviation, so that its rank shows without "?".
const anchorDeviation = 60.0

// AnchorRating is the rating tengen.RatingService.SetAnchor stores for a
// bot anchored at rank, and whether it is fixed: an empty rank lifts the
// anchor and gives the rating of a new account. A rank out of range is
// refused with the operator's message.
func AnchorRating(rank string) (r rating.Rating, fixed bool, err error) {
	if rank == "" {
		return rating.New(), false, nil
	}
	k, err := rating.ParseRank(rank)
	if err != nil {
		return rating.Rating{}, false, tengen.Errorf(tengen.EINVALID, "Anchor rank %q is not between 30k and 9d.", rank)
	}
	r = rating.NewAt(k)
	r.Deviation = anchorDeviation
	return r, true, nil
}

// UserRating returns u's rating as stored with the account.
func UserRating(u *tengen.User) rating.Rating {
	return rating.Rating{Rating: u.Rating, Deviation: u.Deviation, Volatility: u.Volatility}
}

// RatingFixed reports whether u's rating stays as it is after a game: a
// bot's is fixed exactly when it has a rank (an anchor, see AnchorRating);
// a person's never is.
func RatingFixed(u *tengen.User) bool { return u.Bot && u.Rank != "" }

// GameSettings returns the settings of the game made when acceptor
// accepts c (tengen.Challenge.GameSettings, from the ranks as they stand
// in the caller's transaction). When rec carries the settings play
// planned with, they must be the same: a rank that changed between
// play's plan and this transaction gives ECONFLICT.
func GameSettings(c *tengen.Challenge, acceptor *tengen.User, rec *tengen.PlayRecord) (tengen.GameSettings, error) {
	if !c.RankHandicapPending() {
		return c.Settings, nil
	}
	if c.Challenger == nil {
		return c.Settings, fmt.Errorf("challenge %d: challenger not loaded", c.ID)
	}
	set, err := c.GameSettings(c.Challenger.Rank, acceptor.Rank)
	if err != nil {
		return set, err
	}
	if rec != nil && rec.Settings != nil && !tengen.SameGameSettings(set, *rec.Settings) {
		return set, tengen.Errorf(tengen.ECONFLICT, "A player's rank changed while the game was being made; accept the challenge again.")
	}
	return set, nil
}

// likeEscaper escapes the wildcards of a LIKE pattern with "\".
var likeEscaper = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)

// LikeContains returns a LIKE (or ILIKE) pattern that matches s anywhere in
// a text, with "\" as its escape character, so that "%", "_" and "\" in s
// match only themselves.
func LikeContains(s string) string {
	return "%" + likeEscaper.Replace(s) + "%"
}
