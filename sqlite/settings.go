package sqlite

import (
	"fmt"

	"tengen"
	"tengen/internal/sqlrow"
)

// settingsColumns are the columns that hold a tengen.GameSettings; the
// challenges and games tables share them. The first v1SettingsColumns are
// those of schema versions 1 to 5, before rated (0006_ratings.sql) and
// no_takeback (0012_room.sql).
const settingsColumns = v1SettingsColumns + `, rated, no_takeback`

const v1SettingsColumns = `board_size, ruleset, komi, handicap, free_handicap, color, tc_kind, tc_main_ms, tc_periods, tc_period_ms, tc_stones, tc_increment_ms, tc_max_ms, tc_days_per_move, tc_max_days`

// settingsPlaceholders has one placeholder per settings column, and
// v1SettingsPlaceholders one per column of v1SettingsColumns.
const (
	settingsPlaceholders   = v1SettingsPlaceholders + `, ?, ?`
	v1SettingsPlaceholders = `?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?`
)

// settingsArgs returns the arguments of the settings columns: komi NULL
// for the ruleset's default, free_handicap 0 or 1.
func settingsArgs(s tengen.GameSettings) []any {
	var komi any // NULL: ruleset default
	if s.Komi != nil {
		komi = *s.Komi
	}
	free := 0
	if s.FreeHandicap {
		free = 1
	}
	return sqlrow.SettingsArgs(s, komi, free)
}

// settingsDest returns the scan destinations of the settings columns;
// call finish after the scan.
func settingsDest(s *tengen.GameSettings) (dest []any, finish func()) {
	return sqlrow.SettingsDest(s, komiScanner{&s.Komi})
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
