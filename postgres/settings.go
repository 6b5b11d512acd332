package postgres

import (
	"tengen"
	"tengen/internal/sqlrow"
)

// settingsColumns are the columns that hold a tengen.GameSettings; the
// challenges and games tables share them.
const settingsColumns = `board_size, ruleset, komi, handicap, free_handicap, color, tc_kind, tc_main_ms, tc_periods, tc_period_ms, tc_stones, tc_increment_ms, tc_max_ms, tc_days_per_move, tc_max_days, rated, no_takeback`

// settingsArgs returns the arguments of the settings columns.
func settingsArgs(s tengen.GameSettings) []any {
	return sqlrow.SettingsArgs(s, s.Komi, s.FreeHandicap)
}

// settingsDest returns the scan destinations of the settings columns;
// call finish after the scan.
func settingsDest(s *tengen.GameSettings) (dest []any, finish func()) {
	return sqlrow.SettingsDest(s, &s.Komi)
}
