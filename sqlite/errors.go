package sqlite

import (
	"errors"
	"strings"
	"tengen/internal/sqlrow"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"tengen"
)

// constraintErrors maps the schema's constraints to the application errors
// that report their violation: those that both backends name alike (see
// sqlrow.ConstraintErrors) and these, CHECK constraints by name (see
// migrations/0004_constraints.sql), UNIQUE and PRIMARY KEY constraints by
// their columns as SQLite names them. Constraints that no service call can
// violate fall back to the generic errors of constraintError.
var constraintErrors = sqlrow.ConstraintErrors(map[string]*tengen.Error{
	"moves_clock":              tengen.Errorf(tengen.EINVALID, "Move clock is not valid JSON."),
	"moves.game_id, moves.seq": tengen.Errorf(tengen.ECONFLICT, "The game changed; reload it."),
	"play_records_clock":       tengen.Errorf(tengen.EINVALID, "Game clock is not valid JSON."),
})

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
	unique := se.Code() == sqlite3.SQLITE_CONSTRAINT_UNIQUE || se.Code() == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY
	return sqlrow.ConstraintError(constraintErrors, name, unique, err)
}
