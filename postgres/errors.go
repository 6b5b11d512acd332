package postgres

import (
	"errors"
	"tengen/internal/sqlrow"

	"github.com/jackc/pgx/v5/pgconn"

	"tengen"
)

// constraintErrors maps the schema's constraints, by name (see
// migrations/0001_init.sql), to the application errors that report their
// violation: those that both backends name alike (see
// sqlrow.ConstraintErrors) and these. Constraints that no service call can
// violate fall back to the generic errors of constraintError.
var constraintErrors = sqlrow.ConstraintErrors(map[string]*tengen.Error{
	"moves_pkey": tengen.Errorf(tengen.ECONFLICT, "The game changed; reload it."),
})

// SQLSTATE codes of a transaction that PostgreSQL gave up and a new one
// may not meet again (retryable).
const (
	deadlockDetected     = "40P01"
	serializationFailure = "40001"
)

// retryable reports whether err is PostgreSQL giving up the transaction
// over its conflict with another one (a deadlock, a serialization failure):
// a group-commit batch that meets it runs again (groupcommit.Batcher.Retry).
func retryable(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && (pe.Code == deadlockDetected || pe.Code == serializationFailure)
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
	return sqlrow.ConstraintError(constraintErrors, pe.ConstraintName, pe.Code == uniqueViolation, err)
}
