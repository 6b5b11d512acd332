package tengen

import (
	"encoding/json"
	"strings"
	"time"
)

// TimeControlKind names a way of limiting thinking time.
type TimeControlKind string

// Time control kinds.
const (
	// TimeNone: no clock at all.
	TimeNone TimeControlKind = "none"
	// TimeAbsolute: MainTime for the whole game (sudden death).
	TimeAbsolute TimeControlKind = "absolute"
	// TimeByoyomi: MainTime, then Periods periods of PeriodTime each; a
	// period is used up only when a move takes longer than PeriodTime.
	TimeByoyomi TimeControlKind = "byoyomi"
	// TimeCanadian: MainTime, then Stones moves within each PeriodTime.
	TimeCanadian TimeControlKind = "canadian"
	// TimeFischer: MainTime to start with, Increment added after every move,
	// never more than MaxTime on the clock.
	TimeFischer TimeControlKind = "fischer"
	// TimeCorrespondence: DaysPerMove days added to a bank after every move,
	// the bank holding at most MaxDays days; a game starts with DaysPerMove.
	TimeCorrespondence TimeControlKind = "correspondence"
)

// Limits on time control values. Live games are capped at one day of main
// time; correspondence games at a month per move and three months of bank.
const (
	MaxMainTime        = 24 * time.Hour
	MinMainTime        = 10 * time.Second
	MaxByoyomiPeriods  = 30
	MinPeriodTime      = 5 * time.Second
	MaxPeriodTime      = 24 * time.Hour
	MaxCanadianStones  = 100
	MaxIncrement       = time.Hour
	MaxDaysPerMove     = 30
	MaxCorrespondDays  = 90
	timeControlJSONSec = time.Second
)

// TimeControl describes a game's clock. Which fields apply depends on Kind;
// fields that do not apply must be zero (see Validate).
type TimeControl struct {
	Kind       TimeControlKind
	MainTime   time.Duration // absolute, byoyomi, canadian, fischer (initial time)
	Periods    int           // byoyomi
	PeriodTime time.Duration // byoyomi, canadian
	Stones     int           // canadian: moves per period
	Increment  time.Duration // fischer
	MaxTime    time.Duration // fischer: the cap
	// DaysPerMove and MaxDays apply to correspondence games only.
	DaysPerMove int
	MaxDays     int
}

// timeControlJSON is TimeControl on the wire: durations in whole seconds.
type timeControlJSON struct {
	Kind        TimeControlKind `json:"kind"`
	MainTime    int64           `json:"mainTime,omitempty"`
	Periods     int             `json:"periods,omitempty"`
	PeriodTime  int64           `json:"periodTime,omitempty"`
	Stones      int             `json:"stones,omitempty"`
	Increment   int64           `json:"increment,omitempty"`
	MaxTime     int64           `json:"maxTime,omitempty"`
	DaysPerMove int             `json:"daysPerMove,omitempty"`
	MaxDays     int             `json:"maxDays,omitempty"`
}

// MarshalJSON encodes durations as whole seconds.
func (tc TimeControl) MarshalJSON() ([]byte, error) {
	s := func(d time.Duration) int64 { return int64(d / timeControlJSONSec) }
	return json.Marshal(timeControlJSON{
		Kind: tc.Kind, MainTime: s(tc.MainTime), Periods: tc.Periods, PeriodTime: s(tc.PeriodTime),
		Stones: tc.Stones, Increment: s(tc.Increment), MaxTime: s(tc.MaxTime),
		DaysPerMove: tc.DaysPerMove, MaxDays: tc.MaxDays,
	})
}

// UnmarshalJSON decodes durations given in whole seconds.
func (tc *TimeControl) UnmarshalJSON(data []byte) error {
	var v timeControlJSON
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	d := func(n int64) time.Duration {
		// Refuse values that would overflow a Duration by clamping to a value
		// that Validate rejects.
		if n > int64(MaxCorrespondDays)*86400*10 || n < 0 {
			return -1
		}
		return time.Duration(n) * timeControlJSONSec
	}
	*tc = TimeControl{
		Kind: v.Kind, MainTime: d(v.MainTime), Periods: v.Periods, PeriodTime: d(v.PeriodTime),
		Stones: v.Stones, Increment: d(v.Increment), MaxTime: d(v.MaxTime),
		DaysPerMove: v.DaysPerMove, MaxDays: v.MaxDays,
	}
	return nil
}

// Validate reports whether tc is a complete and sensible time control.
func (tc TimeControl) Validate() error {
	inRange := func(d, lo, hi time.Duration) bool { return d >= lo && d <= hi }
	zero := func(ok bool) error {
		if !ok {
			return Errorf(EINVALID, "Time control %q has settings that do not belong to it.", tc.Kind)
		}
		return nil
	}
	switch tc.Kind {
	case TimeNone:
		return zero(tc == TimeControl{Kind: TimeNone})
	case TimeAbsolute:
		if !inRange(tc.MainTime, MinMainTime, MaxMainTime) {
			return Errorf(EINVALID, "Main time must be between %s and %s.", short(MinMainTime), short(MaxMainTime))
		}
		return zero(tc == TimeControl{Kind: tc.Kind, MainTime: tc.MainTime})
	case TimeByoyomi:
		if !inRange(tc.MainTime, 0, MaxMainTime) {
			return Errorf(EINVALID, "Main time must be between 0 and %s.", short(MaxMainTime))
		}
		if tc.Periods < 1 || tc.Periods > MaxByoyomiPeriods {
			return Errorf(EINVALID, "Byo-yomi needs 1 to %d periods.", MaxByoyomiPeriods)
		}
		if !inRange(tc.PeriodTime, MinPeriodTime, time.Hour) {
			return Errorf(EINVALID, "Byo-yomi period time must be between %s and %s.", short(MinPeriodTime), short(time.Hour))
		}
		return zero(tc == TimeControl{Kind: tc.Kind, MainTime: tc.MainTime, Periods: tc.Periods, PeriodTime: tc.PeriodTime})
	case TimeCanadian:
		if !inRange(tc.MainTime, 0, MaxMainTime) {
			return Errorf(EINVALID, "Main time must be between 0 and %s.", short(MaxMainTime))
		}
		if tc.Stones < 1 || tc.Stones > MaxCanadianStones {
			return Errorf(EINVALID, "Canadian byo-yomi needs 1 to %d stones per period.", MaxCanadianStones)
		}
		if !inRange(tc.PeriodTime, MinPeriodTime, MaxPeriodTime) {
			return Errorf(EINVALID, "Canadian period time must be between %s and %s.", short(MinPeriodTime), short(MaxPeriodTime))
		}
		return zero(tc == TimeControl{Kind: tc.Kind, MainTime: tc.MainTime, Stones: tc.Stones, PeriodTime: tc.PeriodTime})
	case TimeFischer:
		if !inRange(tc.MainTime, MinMainTime, MaxMainTime) {
			return Errorf(EINVALID, "Initial time must be between %s and %s.", short(MinMainTime), short(MaxMainTime))
		}
		if !inRange(tc.Increment, time.Second, MaxIncrement) {
			return Errorf(EINVALID, "Fischer increment must be between 1s and %s.", short(MaxIncrement))
		}
		if !inRange(tc.MaxTime, tc.MainTime, MaxMainTime) {
			return Errorf(EINVALID, "Fischer cap must be at least the initial time and at most %s.", short(MaxMainTime))
		}
		return zero(tc == TimeControl{Kind: tc.Kind, MainTime: tc.MainTime, Increment: tc.Increment, MaxTime: tc.MaxTime})
	case TimeCorrespondence:
		if tc.DaysPerMove < 1 || tc.DaysPerMove > MaxDaysPerMove {
			return Errorf(EINVALID, "Days per move must be between 1 and %d.", MaxDaysPerMove)
		}
		if tc.MaxDays < tc.DaysPerMove || tc.MaxDays > MaxCorrespondDays {
			return Errorf(EINVALID, "The maximum bank must be at least the days per move and at most %d days.", MaxCorrespondDays)
		}
		return zero(tc == TimeControl{Kind: tc.Kind, DaysPerMove: tc.DaysPerMove, MaxDays: tc.MaxDays})
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

// IsCorrespondence reports whether tc counts days rather than minutes; such
// games are listed separately from live games.
func (tc TimeControl) IsCorrespondence() bool { return tc.Kind == TimeCorrespondence }
