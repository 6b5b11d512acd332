package sqlrow

import (
	"fmt"

	"tengen"
)

// checkErrors maps the CHECK constraints that both schemas name alike to
// the application errors that report their violation.
var checkErrors = map[string]*tengen.Error{
	"games_status":          tengen.Errorf(tengen.EINVALID, "Unknown game status."),
	"games_to_move":         tengen.Errorf(tengen.EINVALID, "Next colour must be black or white."),
	"games_result_finished": tengen.Errorf(tengen.EINVALID, "A finished game has a result, and only a finished game has one."),
	"games_result_sgf":      tengen.Errorf(tengen.EINVALID, "The result is not in SGF form."),
	"moves_seq":             tengen.Errorf(tengen.EINVALID, "Move sequence numbers start at 1."),
	"moves_color":           tengen.Errorf(tengen.EINVALID, "Move colour must be black or white."),
	"moves_kind":            tengen.Errorf(tengen.EINVALID, "A move is a play, a pass or a resignation."),
	"moves_point":           tengen.Errorf(tengen.EINVALID, "A play's point has no negative coordinates, and a pass or resignation has no point."),
	"moves_time_used":       tengen.Errorf(tengen.EINVALID, "Time used cannot be negative."),
}

// ConstraintErrors returns the application errors of the CHECK
// constraints that both schemas name alike together with own, a backend's
// constraints whose names differ by dialect; own wins where both name one.
func ConstraintErrors(own map[string]*tengen.Error) map[string]*tengen.Error {
	m := make(map[string]*tengen.Error, len(checkErrors)+len(own))
	for name, te := range checkErrors {
		m[name] = te
	}
	for name, te := range own {
		m[name] = te
	}
	return m
}

// ConstraintError translates err, a backend's report that the constraint
// name was violated, into an application error that wraps err for the
// logs: the error of name in errs (see ConstraintErrors), else a clash if
// unique (a UNIQUE or PRIMARY KEY violation), else malformed data.
func ConstraintError(errs map[string]*tengen.Error, name string, unique bool, err error) error {
	te, ok := errs[name]
	switch {
	case ok:
		c := *te // a copy: callers may keep or change what they get
		te = &c
	case unique:
		te = tengen.Errorf(tengen.ECONFLICT, "The change clashes with stored data; reload and try again.")
	default:
		te = tengen.Errorf(tengen.EINVALID, "The change would store malformed data.")
	}
	return fmt.Errorf("%w (%w)", te, err)
}
