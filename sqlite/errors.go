package sqlite

import (
	"errors"
	"fmt"
	"strings"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"tengen"
)

// constraintErrors maps the schema's constraints to the application errors
// that report their violation: CHECK constraints by name (see
// migrations/0004_constraints.sql), UNIQUE and PRIMARY KEY constraints by
// their columns as SQLite names them. Constraints that no service call can
// violate fall back to the generic errors of constraintError.
var constraintErrors = map[string]*tengen.Error{
	"games_status":             tengen.Errorf(tengen.EINVALID, "Unknown game status."),
	"games_to_move":            tengen.Errorf(tengen.EINVALID, "Next colour must be black or white."),
	"games_result_finished":    tengen.Errorf(tengen.EINVALID, "A finished game has a result, and only a finished game has one."),
	"games_result_sgf":         tengen.Errorf(tengen.EINVALID, "The result is not in SGF form."),
	"moves_seq":                tengen.Errorf(tengen.EINVALID, "Move sequence numbers start at 1."),
	"moves_color":              tengen.Errorf(tengen.EINVALID, "Move colour must be black or white."),
	"moves_kind":               tengen.Errorf(tengen.EINVALID, "A move is a play, a pass or a resignation."),
	"moves_point":              tengen.Errorf(tengen.EINVALID, "A play's point has no negative coordinates, and a pass or resignation has no point."),
	"moves_time_used":          tengen.Errorf(tengen.EINVALID, "Time used cannot be negative."),
	"moves_clock":              tengen.Errorf(tengen.EINVALID, "Move clock is not valid JSON."),
	"moves.game_id, moves.seq": tengen.Errorf(tengen.ECONFLICT, "The game changed; reload it."),
	"play_records_clock":       tengen.Errorf(tengen.EINVALID, "Game clock is not valid JSON."),
}

// constraintError returns err unchanged unless it is SQLite's report of a
// violated constraint, which it translates into an application error that
// wraps the original for the logs.
func constraintError(err error) error {
	var se *sqlite.Error
	if !errors.As(err, &se) || se.Code()&0xff != sqlite3.SQLITE_CONSTRAINT {
		return err
	}
	// The driver reports "constraint failed: <KIND> constraint failed:
	// <name or columns> (<code>)".
	const failed = "constraint failed: "
	name := se.Error()
	if i := strings.LastIndex(name, failed); i >= 0 {
		name = name[i+len(failed):]
	}
	name, _, _ = strings.Cut(name, " (")
	te, ok := constraintErrors[name]
	switch {
	case ok:
		c := *te // a copy: callers may keep or change what they get
		te = &c
	case se.Code() == sqlite3.SQLITE_CONSTRAINT_UNIQUE || se.Code() == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY:
		te = tengen.Errorf(tengen.ECONFLICT, "The change clashes with stored data; reload and try again.")
	default:
		te = tengen.Errorf(tengen.EINVALID, "The change would store malformed data.")
	}
	return fmt.Errorf("%w (%w)", te, err)
}
