package tengen

import (
	"strings"
	"time"

	"tengen/clock"
)

// Limits on the time controls that games on this server may use: the
// server's policy, stricter than what package clock can run. Live games are
// capped at one day of main time; correspondence games at a month per move
// and three months of bank.
const (
	MaxMainTime       = 24 * time.Hour
	MinMainTime       = 10 * time.Second
	MaxByoyomiPeriods = 30
	MinPeriodTime     = 5 * time.Second
	MaxPeriodTime     = 24 * time.Hour
	MaxCanadianStones = 100
	MaxIncrement      = time.Hour
	MaxDaysPerMove    = 30
	MaxCorrespondDays = 90
)

// ValidateTimeControl reports whether tc is a time control that games on
// this server may use, with a message for the player who chose it. The
// durations of live games are whole seconds; correspondence games count
// whole days (clock.CorrespondenceDays).
func ValidateTimeControl(tc clock.TimeControl) error {
	inRange := func(d, lo, hi time.Duration) bool { return d >= lo && d <= hi }
	zero := func(ok bool) error {
		if !ok {
			return Errorf(EINVALID, "Time control %q has settings that do not belong to it.", tc.Kind)
		}
		return nil
	}
	for _, d := range []time.Duration{tc.MainTime, tc.PeriodTime, tc.Increment, tc.MaxTime} {
		if d%time.Second != 0 {
			return Errorf(EINVALID, "Times are given in whole seconds.")
		}
	}
	switch tc.Kind {
	case clock.None:
		return zero(tc == clock.NoTimeLimit())
	case clock.Absolute:
		if !inRange(tc.MainTime, MinMainTime, MaxMainTime) {
			return Errorf(EINVALID, "Main time must be between %s and %s.", short(MinMainTime), short(MaxMainTime))
		}
		return zero(tc == clock.AbsoluteTime(tc.MainTime))
	case clock.ByoYomi:
		if !inRange(tc.MainTime, 0, MaxMainTime) {
			return Errorf(EINVALID, "Main time must be between 0 and %s.", short(MaxMainTime))
		}
		if tc.Periods < 1 || tc.Periods > MaxByoyomiPeriods {
			return Errorf(EINVALID, "Byo-yomi needs 1 to %d periods.", MaxByoyomiPeriods)
		}
		if !inRange(tc.PeriodTime, MinPeriodTime, time.Hour) {
			return Errorf(EINVALID, "Byo-yomi period time must be between %s and %s.", short(MinPeriodTime), short(time.Hour))
		}
		return zero(tc == clock.ByoYomiTime(tc.MainTime, tc.Periods, tc.PeriodTime))
	case clock.Canadian:
		if !inRange(tc.MainTime, 0, MaxMainTime) {
			return Errorf(EINVALID, "Main time must be between 0 and %s.", short(MaxMainTime))
		}
		if tc.Stones < 1 || tc.Stones > MaxCanadianStones {
			return Errorf(EINVALID, "Canadian byo-yomi needs 1 to %d stones per period.", MaxCanadianStones)
		}
		if !inRange(tc.PeriodTime, MinPeriodTime, MaxPeriodTime) {
			return Errorf(EINVALID, "Canadian period time must be between %s and %s.", short(MinPeriodTime), short(MaxPeriodTime))
		}
		return zero(tc == clock.CanadianTime(tc.MainTime, tc.Stones, tc.PeriodTime))
	case clock.Fischer:
		if !inRange(tc.MainTime, MinMainTime, MaxMainTime) {
			return Errorf(EINVALID, "Initial time must be between %s and %s.", short(MinMainTime), short(MaxMainTime))
		}
		if !inRange(tc.Increment, time.Second, MaxIncrement) {
			return Errorf(EINVALID, "Fischer increment must be between 1s and %s.", short(MaxIncrement))
		}
		if !inRange(tc.MaxTime, tc.MainTime, MaxMainTime) {
			return Errorf(EINVALID, "Fischer cap must be at least the initial time and at most %s.", short(MaxMainTime))
		}
		return zero(tc == clock.FischerTime(tc.MainTime, tc.Increment, tc.MaxTime))
	case clock.Correspondence:
		days, maxDays, ok := tc.Days()
		if !ok {
			return zero(false)
		}
		if days < 1 || days > MaxDaysPerMove {
			return Errorf(EINVALID, "Days per move must be between 1 and %d.", MaxDaysPerMove)
		}
		if maxDays < days || maxDays > MaxCorrespondDays {
			return Errorf(EINVALID, "The maximum bank must be at least the days per move and at most %d days.", MaxCorrespondDays)
		}
		return nil
	}
	return Errorf(EINVALID, "Unknown time control %q.", tc.Kind)
}

// short formats a limit compactly: "24h", "1h30m", "10s" rather than
// time.Duration's "24h0m0s".
func short(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}
