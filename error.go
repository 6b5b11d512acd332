package tengen

import (
	"errors"
	"fmt"
)

// Application error codes. Every layer reports failures the user can act on
// with one of these codes; the http package maps each code to a status in a
// single place, and storage backends translate their own errors into them.
const (
	// ECONFLICT means the request clashes with the current state, for example
	// a name that is already taken or a move whose sequence number is stale.
	ECONFLICT = "conflict"
	// EFORBIDDEN means the caller is known but may not do this.
	EFORBIDDEN = "forbidden"
	// EINTERNAL means something went wrong that the caller cannot fix.
	EINTERNAL = "internal"
	// EINVALID means the request itself is malformed or out of range.
	EINVALID = "invalid"
	// ENOTFOUND means the requested object does not exist.
	ENOTFOUND = "not_found"
	// ERATELIMIT means the caller sent too many requests and must wait.
	ERATELIMIT = "rate_limited"
	// EUNAUTHORIZED means the caller is not logged in or gave wrong credentials.
	EUNAUTHORIZED = "unauthorized"
)

// Error is the application error. Code is one of the E* constants and Message
// is a human-readable English explanation that is safe to show to users;
// internal details never go into Message.
type Error struct {
	Code    string
	Message string
	// Format and Args are what Errorf made Message from. User interfaces
	// look Format up in their message catalogues (the English text is the
	// message id, as in gettext) and format the translation with Args.
	Format string
	Args   []any
}

// Error implements the error interface.
func (e *Error) Error() string {
	return fmt.Sprintf("tengen error: code=%s message=%s", e.Code, e.Message)
}

// Errorf returns an *Error with the given code and a formatted message.
func Errorf(code string, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...), Format: format, Args: args}
}

// ErrorCode returns the code of the first *Error in err's chain, "" for a nil
// error and EINTERNAL for any other error.
func ErrorCode(err error) string {
	var e *Error
	if err == nil {
		return ""
	} else if errors.As(err, &e) {
		return e.Code
	}
	return EINTERNAL
}

// ErrorMessage returns the message of the first *Error in err's chain, "" for
// a nil error and a generic text for any other error, so that internal
// details never leak to users.
func ErrorMessage(err error) string {
	var e *Error
	if err == nil {
		return ""
	} else if errors.As(err, &e) {
		return e.Message
	}
	return "Internal error."
}
