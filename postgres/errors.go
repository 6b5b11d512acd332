package postgres

import (
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5/pgconn"

	"tengen"
)

// constraintErrors maps the schema's constraints, by name (see
// migrations/0001_init.sql), to the application errors that report their
// violation. Constraints that no service call can violate fall back to the
// generic errors of constraintError.
var constraintErrors = map[string]*tengen.Error{
	"games_status":          tengen.Errorf(tengen.EINVALID, "Unknown game status."),
	"games_to_move":         tengen.Errorf(tengen.EINVALID, "Next colour must be black or white."),
	"games_result_finished": tengen.Errorf(tengen.EINVALID, "A finished game has a result, and only a finished game has one."),
	"games_result_sgf":      tengen.Errorf(tengen.EINVALID, "The result is not in SGF form."),
	"moves_seq":             tengen.Errorf(tengen.EINVALID, "Move sequence numbers start at 1."),
	"moves_color":           tengen.Errorf(tengen.EINVALID, "Move colour must be black or white."),
	"moves_kind":            tengen.Errorf(tengen.EINVALID, "A move is a play, a pass or a resignation."),
	"moves_point":           tengen.Errorf(tengen.EINVALID, "A play's point has no negative coordinates, and a pass or resignation has no point."),
	"moves_time_used":       tengen.Errorf(tengen.EINVALID, "Time used cannot be negative."),
	"moves_pkey":            tengen.Errorf(tengen.ECONFLICT, "The game changed; reload it."),
}

// SQLSTATE classes and codes that constraintError translates.
const (
	uniqueViolation     = "23505"
	integrityViolations = "23" // class 23: integrity constraint violation
	dataExceptions      = "22" // class 22: data exception (malformed JSON, overflow)
)

// constraintError returns err unchanged unless it is PostgreSQL's report of
// a violated constraint or malformed data, which it translates into an
// application error that wraps the original for the logs.
func constraintError(err error) error {
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || len(pe.Code) != 5 {
		return err
	}
	class := pe.Code[:2]
	if class != integrityViolations && class != dataExceptions {
		return err
	}
	te, ok := constraintErrors[pe.ConstraintName]
	switch {
	case ok:
		c := *te // a copy: callers may keep or change what they get
		te = &c
	case pe.Code == uniqueViolation:
		te = tengen.Errorf(tengen.ECONFLICT, "The change clashes with stored data; reload and try again.")
	default:
		te = tengen.Errorf(tengen.EINVALID, "The change would store malformed data.")
	}
	return fmt.Errorf("%w (%w)", te, err)
}
