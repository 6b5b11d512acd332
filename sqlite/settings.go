package sqlite

import (
	"fmt"
	"time"

	"tengen"
)

// settingsColumns are the columns that hold a tengen.GameSettings; the
// challenges and games tables share them.
const settingsColumns = `board_size, ruleset, komi, handicap, free_handicap, color, tc_kind, tc_main_ms, tc_periods, tc_period_ms, tc_stones, tc_increment_ms, tc_max_ms, tc_days_per_move, tc_max_days`

// settingsPlaceholders has one placeholder per settings column.
const settingsPlaceholders = `?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?`

func settingsArgs(s tengen.GameSettings) []any {
	var komi any // NULL: ruleset default
	if s.Komi != nil {
		komi = *s.Komi
	}
	free := 0
	if s.FreeHandicap {
		free = 1
	}
	tc := s.TimeControl
	return []any{s.BoardSize, s.Ruleset, komi, s.Handicap, free, string(s.Color),
		string(tc.Kind), tc.MainTime.Milliseconds(), tc.Periods, tc.PeriodTime.Milliseconds(), tc.Stones,
		tc.Increment.Milliseconds(), tc.MaxTime.Milliseconds(), tc.DaysPerMove, tc.MaxDays}
}

func settingsDest(s *tengen.GameSettings) []any {
	tc := &s.TimeControl
	return []any{&s.BoardSize, &s.Ruleset, komiScanner{&s.Komi}, &s.Handicap, &s.FreeHandicap, (*string)(&s.Color),
		(*string)(&tc.Kind), msScanner{&tc.MainTime}, &tc.Periods, msScanner{&tc.PeriodTime}, &tc.Stones,
		msScanner{&tc.Increment}, msScanner{&tc.MaxTime}, &tc.DaysPerMove, &tc.MaxDays}
}

// komiScanner scans a nullable komi column.
type komiScanner struct{ p **float64 }

func (k komiScanner) Scan(src any) error {
	switch v := src.(type) {
	case nil:
		*k.p = nil
	case float64:
		*k.p = &v
	case int64:
		f := float64(v)
		*k.p = &f
	default:
		return fmt.Errorf("komi column holds %T", src)
	}
	return nil
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
