package tengen

import (
	"context"
	"time"

	"tengen/goban"
)

// The comforts of correspondence play (issue 17): vacation days and
// conditional moves.

// VacationDaysPerYear is the yearly allowance of vacation days. Dragon Go
// Server grants about a month a year; Tengen gives 30 days per calendar
// year (UTC), renewed on January 1, not carried over.
const VacationDaysPerYear = 30

// Vacation is a user's vacation account. While a vacation runs (Until is
// in the future), the user's clocks in all correspondence games stand
// still.
type Vacation struct {
	// Year is the calendar year (UTC) that DaysUsed counts for.
	Year int `json:"year"`
	// DaysUsed are the days taken in Year, a running vacation's days
	// included.
	DaysUsed int `json:"daysUsed"`
	// Start and Until bound the current or last vacation; nil before the
	// first.
	Start *time.Time `json:"start,omitempty"`
	Until *time.Time `json:"until,omitempty"`
}

// Active reports whether a vacation runs at now.
func (v Vacation) Active(now time.Time) bool { return v.Until != nil && now.Before(*v.Until) }

// DaysLeft returns the vacation days still to take in the year of now.
func (v Vacation) DaysLeft(now time.Time) int {
	if v.Year != now.UTC().Year() {
		return VacationDaysPerYear
	}
	return max(VacationDaysPerYear-v.DaysUsed, 0)
}

// Begin starts a vacation of days days at now, charging them to the year
// of now.
func (v *Vacation) Begin(now time.Time, days int) error {
	if v.Active(now) {
		return Errorf(ECONFLICT, "You are on vacation already.")
	}
	left := v.DaysLeft(now)
	if days < 1 || days > left {
		return Errorf(EINVALID, "A vacation lasts from 1 day to the %d days you have left this year.", left)
	}
	if y := now.UTC().Year(); v.Year != y {
		v.Year, v.DaysUsed = y, 0
	}
	until := now.Add(time.Duration(days) * 24 * time.Hour)
	v.DaysUsed += days
	v.Start, v.Until = &now, &until
	return nil
}

// End ends the running vacation at now. The whole days not yet begun are
// given back to the year they were charged to.
func (v *Vacation) End(now time.Time) error {
	if !v.Active(now) {
		return Errorf(ECONFLICT, "You are not on vacation.")
	}
	unused := int(v.Until.Sub(now) / (24 * time.Hour))
	if v.Start != nil && v.Start.UTC().Year() == v.Year {
		v.DaysUsed = max(v.DaysUsed-unused, 0)
	}
	v.Until = &now
	return nil
}

// VacationService starts and ends vacations: the account is changed in
// storage, and the user's clock in every correspondence game is stopped
// or started again through the one path of changes to a game.
type VacationService interface {
	// StartVacation starts a vacation of days days for userID and returns
	// the user. More days than are left this year give EINVALID, a running
	// vacation ECONFLICT.
	StartVacation(ctx context.Context, userID int64, days int) (*User, error)
	// EndVacation ends userID's running vacation early (ECONFLICT when none
	// runs); the clocks run again where it is the user's turn.
	EndVacation(ctx context.Context, userID int64) (*User, error)
}

// MaxConditionalMoves bounds a conditional sequence (opponent's moves and
// replies together).
const MaxConditionalMoves = 40

// ConditionalMoves is a planned sequence that a player leaves in a game
// while the opponent is to move: Moves alternate the opponent's expected
// move and the player's reply, starting with the opponent's. When the
// opponent plays Moves[0], the server plays Moves[1] at once for Color and
// keeps the rest; any other move clears the plan. Only plays are planned,
// no passes.
type ConditionalMoves struct {
	Color goban.Color   `json:"color"`
	Moves []goban.Point `json:"moves"`
}

// GameVacation tells until when each player of a game is on vacation; nil
// for a player who is not.
type GameVacation struct {
	Black *time.Time `json:"black,omitempty"`
	White *time.Time `json:"white,omitempty"`
}
