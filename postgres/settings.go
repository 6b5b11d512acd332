package postgres

import (
	"encoding"
	"fmt"
	"time"

	"tengen"
	"tengen/clock"
	"tengen/goban"
)

// settingsColumns are the columns that hold a tengen.GameSettings; the
// challenges and games tables share them.
const settingsColumns = `board_size, ruleset, komi, handicap, free_handicap, color, tc_kind, tc_main_ms, tc_periods, tc_period_ms, tc_stones, tc_increment_ms, tc_max_ms, tc_days_per_move, tc_max_days, rated`

func settingsArgs(s tengen.GameSettings) []any {
	tc := s.TimeControl
	// Correspondence games are stored in days (tc_days_per_move,
	// tc_max_days) with the duration columns zero, as in package sqlite.
	days, maxDays, inDays := tc.Days()
	if inDays {
		tc = clock.TimeControl{Kind: tc.Kind}
	}
	return []any{s.BoardSize, s.Ruleset, s.Komi, s.Handicap, s.FreeHandicap, string(s.Color),
		tc.Kind.String(), tc.MainTime.Milliseconds(), tc.Periods, tc.PeriodTime.Milliseconds(), tc.Stones,
		tc.Increment.Milliseconds(), tc.MaxTime.Milliseconds(), days, maxDays, s.Rated}
}

// settingsDest returns the scan destinations of the settings columns;
// call finish after the scan.
func settingsDest(s *tengen.GameSettings) (dest []any, finish func()) {
	tc := &s.TimeControl
	var days, maxDays int
	dest = []any{&s.BoardSize, &s.Ruleset, &s.Komi, &s.Handicap, &s.FreeHandicap, (*string)(&s.Color),
		textScanner{&tc.Kind}, msScanner{&tc.MainTime}, &tc.Periods, msScanner{&tc.PeriodTime}, &tc.Stones,
		msScanner{&tc.Increment}, msScanner{&tc.MaxTime}, &days, &maxDays, &s.Rated}
	return dest, func() {
		if tc.Kind == clock.Correspondence && (days != 0 || maxDays != 0) {
			*tc = clock.CorrespondenceDays(days, maxDays)
		}
	}
}

// textScanner scans a text column into a value that reads its text form,
// such as goban.Color and clock.Kind.
type textScanner struct{ v encoding.TextUnmarshaler }

func (t textScanner) Scan(src any) error {
	switch v := src.(type) {
	case string:
		return t.v.UnmarshalText([]byte(v))
	case []byte:
		return t.v.UnmarshalText(v)
	}
	return fmt.Errorf("text column holds %T", src)
}

// colorText is the stored form of a colour: "black", "white" or "".
func colorText(c goban.Color) string {
	b, err := c.MarshalText()
	if err != nil {
		return c.String() // refused by the columns' CHECK constraints
	}
	return string(b)
}

// msScanner scans a duration stored in milliseconds.
type msScanner struct{ d *time.Duration }

func (m msScanner) Scan(src any) error {
	v, ok := src.(int64)
	if !ok {
		return fmt.Errorf("duration column holds %T", src)
	}
	*m.d = time.Duration(v) * time.Millisecond
	return nil
}
