package clock

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Kind names a way of limiting thinking time.
type Kind uint8

// The kinds of time control. The zero Kind is None.
const (
	// None means that there is no clock at all.
	None Kind = iota
	// Absolute gives each player MainTime for the whole game (sudden death).
	Absolute
	// ByoYomi gives MainTime, then Periods periods of PeriodTime each. A move
	// made within a period keeps that period; a period that runs out is used
	// up, and the player loses when the last one runs out.
	ByoYomi
	// Canadian gives MainTime, then Stones moves to be made within each
	// PeriodTime. After the Stones-th move the period starts afresh.
	Canadian
	// Fischer gives MainTime to start with and adds Increment after every
	// move; if MaxTime is not zero, the bank never holds more than MaxTime.
	Fischer
	// Correspondence is for games over days: a player starts with MainTime
	// (normally the allowance per move), Increment (the allowance per move) is
	// added after every move, and the bank never holds more than MaxTime if it
	// is not zero. Time counts only while it is the player's turn.
	Correspondence
)

var kindNames = [...]string{
	None:           "none",
	Absolute:       "absolute",
	ByoYomi:        "byoyomi",
	Canadian:       "canadian",
	Fischer:        "fischer",
	Correspondence: "correspondence",
}

// String returns the kind's stable name, which is also its JSON form:
// "none", "absolute", "byoyomi", "canadian", "fischer" or "correspondence".
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// ParseKind returns the Kind whose String is s (case-insensitive).
func ParseKind(s string) (Kind, error) {
	for k, name := range kindNames {
		if strings.EqualFold(s, name) {
			return Kind(k), nil
		}
	}
	return None, fmt.Errorf("clock: unknown time control kind %q", s)
}

// Limits on the values of a TimeControl. They keep every sum of times far
// from overflowing a time.Duration and reject nonsense early.
const (
	// MaxDuration is the longest time any field of a TimeControl may hold.
	MaxDuration = 366 * 24 * time.Hour
	// MaxPeriods is the largest number of byo-yomi periods.
	MaxPeriods = 1000
	// MaxStones is the largest number of stones per Canadian period.
	MaxStones = 1000
)

// TimeControl describes the rules of a game's clock; both players get the
// same. Which fields apply depends on Kind (see the Kind constants); fields
// that do not apply are zero, which Validate checks, so that two equal time
// controls compare equal with ==. The constructors (NoTimeLimit,
// AbsoluteTime, ByoYomiTime, CanadianTime, FischerTime, CorrespondenceTime)
// fill in the right fields.
type TimeControl struct {
	// Kind selects the rules.
	Kind Kind
	// MainTime is the main time (absolute, byo-yomi, Canadian), the initial
	// time (Fischer) or the initial bank (correspondence).
	MainTime time.Duration
	// Periods is the number of byo-yomi periods.
	Periods int
	// PeriodTime is the length of a byo-yomi or Canadian period.
	PeriodTime time.Duration
	// Stones is the number of moves to be made in a Canadian period.
	Stones int
	// Increment is added after each move (Fischer, correspondence).
	Increment time.Duration
	// MaxTime caps the bank (Fischer, correspondence); zero means no cap.
	MaxTime time.Duration
}

// NoTimeLimit returns the time control without a clock.
func NoTimeLimit() TimeControl { return TimeControl{} }

// AbsoluteTime returns sudden death with main time for the whole game.
func AbsoluteTime(main time.Duration) TimeControl {
	return TimeControl{Kind: Absolute, MainTime: main}
}

// ByoYomiTime returns Japanese byo-yomi: main time, then periods periods of
// length period each.
func ByoYomiTime(main time.Duration, periods int, period time.Duration) TimeControl {
	return TimeControl{Kind: ByoYomi, MainTime: main, Periods: periods, PeriodTime: period}
}

// CanadianTime returns Canadian byo-yomi: main time, then stones moves in
// every period of length period.
func CanadianTime(main time.Duration, stones int, period time.Duration) TimeControl {
	return TimeControl{Kind: Canadian, MainTime: main, Stones: stones, PeriodTime: period}
}

// FischerTime returns a Fischer clock: initial time, increment after each
// move, and the bank capped at max (zero for no cap).
func FischerTime(initial, increment, max time.Duration) TimeControl {
	return TimeControl{Kind: Fischer, MainTime: initial, Increment: increment, MaxTime: max}
}

// CorrespondenceTime returns a correspondence clock that starts with perMove
// in the bank, adds perMove after every move and holds at most maxBank (zero
// for no cap).
func CorrespondenceTime(perMove, maxBank time.Duration) TimeControl {
	return TimeControl{Kind: Correspondence, MainTime: perMove, Increment: perMove, MaxTime: maxBank}
}

// CorrespondenceDays is CorrespondenceTime in whole days, the unit players
// choose in the lobby.
func CorrespondenceDays(daysPerMove, maxDays int) TimeControl {
	const day = 24 * time.Hour
	return CorrespondenceTime(time.Duration(daysPerMove)*day, time.Duration(maxDays)*day)
}

// ErrInvalid is wrapped by every error that Validate returns.
var ErrInvalid = errors.New("invalid time control")

func invalid(format string, args ...any) error {
	return fmt.Errorf("clock: %w: "+format, append([]any{ErrInvalid}, args...)...)
}

// Validate reports whether tc is a usable time control: a known kind, the
// fields that the kind needs set to sensible values within the limits above,
// and every other field zero. The error wraps ErrInvalid.
func (tc TimeControl) Validate() error {
	durations := []struct {
		name string
		d    time.Duration
	}{{"main time", tc.MainTime}, {"period time", tc.PeriodTime}, {"increment", tc.Increment}, {"max time", tc.MaxTime}}
	for _, f := range durations {
		if f.d < 0 {
			return invalid("negative %s %v", f.name, f.d)
		}
		if f.d > MaxDuration {
			return invalid("%s %v is longer than %v", f.name, f.d, MaxDuration)
		}
	}
	if tc.Periods < 0 || tc.Periods > MaxPeriods {
		return invalid("%d periods is not in 0..%d", tc.Periods, MaxPeriods)
	}
	if tc.Stones < 0 || tc.Stones > MaxStones {
		return invalid("%d stones is not in 0..%d", tc.Stones, MaxStones)
	}
	// unused lists the fields that must be zero for the kind.
	unused := func(main, periods, periodTime, stones, increment, max bool) error {
		switch {
		case main && tc.MainTime != 0:
			return invalid("%v time control with main time", tc.Kind)
		case periods && tc.Periods != 0:
			return invalid("%v time control with periods", tc.Kind)
		case periodTime && tc.PeriodTime != 0:
			return invalid("%v time control with period time", tc.Kind)
		case stones && tc.Stones != 0:
			return invalid("%v time control with stones", tc.Kind)
		case increment && tc.Increment != 0:
			return invalid("%v time control with increment", tc.Kind)
		case max && tc.MaxTime != 0:
			return invalid("%v time control with max time", tc.Kind)
		}
		return nil
	}
	switch tc.Kind {
	case None:
		return unused(true, true, true, true, true, true)
	case Absolute:
		if tc.MainTime <= 0 {
			return invalid("absolute time needs main time")
		}
		return unused(false, true, true, true, true, true)
	case ByoYomi:
		if tc.Periods < 1 || tc.PeriodTime <= 0 {
			return invalid("byo-yomi needs at least one period of positive length")
		}
		return unused(false, false, false, true, true, true)
	case Canadian:
		if tc.Stones < 1 || tc.PeriodTime <= 0 {
			return invalid("Canadian byo-yomi needs at least one stone per period of positive length")
		}
		return unused(false, true, false, false, true, true)
	case Fischer, Correspondence:
		if tc.MainTime <= 0 {
			return invalid("%v time needs initial time", tc.Kind)
		}
		if tc.Kind == Correspondence && tc.Increment <= 0 {
			return invalid("correspondence needs time per move")
		}
		if tc.MaxTime != 0 && (tc.MaxTime < tc.MainTime || tc.MaxTime < tc.Increment) {
			return invalid("max time %v is less than the initial time or the increment", tc.MaxTime)
		}
		return unused(false, true, true, true, false, false)
	}
	return invalid("unknown kind %d", tc.Kind)
}

// String describes tc for people, as the lobby shows it, for example
// "10:00 + 5×30s", "10:00 + 25 stones/5:00", "Fischer 5:00 + 10s (max
// 10:00)" or "3 days/move (max 10)".
func (tc TimeControl) String() string {
	plus := func(s string) string {
		if tc.MainTime == 0 {
			return s
		}
		return clockString(tc.MainTime) + " + " + s
	}
	switch tc.Kind {
	case None:
		return "no time limit"
	case Absolute:
		return clockString(tc.MainTime) + " absolute"
	case ByoYomi:
		return plus(fmt.Sprintf("%d×%s", tc.Periods, shortString(tc.PeriodTime)))
	case Canadian:
		return plus(plural(int64(tc.Stones), "stone") + "/" + shortString(tc.PeriodTime))
	case Fischer:
		s := "Fischer " + clockString(tc.MainTime) + " + " + shortString(tc.Increment)
		if tc.MaxTime > 0 {
			s += " (max " + clockString(tc.MaxTime) + ")"
		}
		return s
	case Correspondence:
		const day = 24 * time.Hour
		whole := tc.Increment%day == 0 && tc.MaxTime%day == 0 && tc.MainTime%day == 0
		var s string
		var extra []string
		if whole {
			s = plural(int64(tc.Increment/day), "day") + "/move"
			if tc.MaxTime > 0 {
				extra = append(extra, "max "+strconv.FormatInt(int64(tc.MaxTime/day), 10))
			}
			if tc.MainTime != tc.Increment {
				extra = append(extra, "start "+strconv.FormatInt(int64(tc.MainTime/day), 10))
			}
		} else {
			s = longString(tc.Increment) + "/move"
			if tc.MaxTime > 0 {
				extra = append(extra, "max "+longString(tc.MaxTime))
			}
			if tc.MainTime != tc.Increment {
				extra = append(extra, "start "+longString(tc.MainTime))
			}
		}
		if len(extra) > 0 {
			s += " (" + strings.Join(extra, ", ") + ")"
		}
		return s
	}
	return tc.Kind.String()
}

func plural(n int64, unit string) string {
	if n == 1 {
		return "1 " + unit
	}
	return strconv.FormatInt(n, 10) + " " + unit + "s"
}

// clockString formats d as a clock face: "m:ss" below an hour, "h:mm:ss"
// from an hour on. Fractions of a second are shown only when present, to
// tenths ("0:02.5"), because a lobby never needs more.
func clockString(d time.Duration) string {
	neg := d < 0
	if neg {
		d = -d
	}
	tenths := (d % time.Second) / (100 * time.Millisecond)
	s := int64(d / time.Second)
	var out string
	if h := s / 3600; h > 0 {
		out = fmt.Sprintf("%d:%02d:%02d", h, s/60%60, s%60)
	} else {
		out = fmt.Sprintf("%d:%02d", s/60, s%60)
	}
	if tenths > 0 {
		out += "." + strconv.Itoa(int(tenths))
	}
	if neg {
		out = "-" + out
	}
	return out
}

// shortString formats a short time such as a period or an increment: "30s"
// or "2.5s" below a minute, a clock face from a minute on.
func shortString(d time.Duration) string {
	if d < time.Minute {
		return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + "s"
	}
	return clockString(d)
}

// longString formats a long time in the largest whole unit that fits: days,
// hours, minutes, else a clock face.
func longString(d time.Duration) string {
	switch {
	case d > 0 && d%(24*time.Hour) == 0:
		return plural(int64(d/(24*time.Hour)), "day")
	case d > 0 && d%time.Hour == 0:
		return plural(int64(d/time.Hour), "hour")
	case d > 0 && d%time.Minute == 0:
		return plural(int64(d/time.Minute), "minute")
	}
	return clockString(d)
}
