package postgres

import (
	"errors"
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"tengen"
)

func TestConstraintError(t *testing.T) {
	plain := errors.New("connection reset")
	tests := []struct {
		name string
		err  error
		code string // "" : returned unchanged
		msg  string // the message, when code is set
	}{
		{"nil", nil, "", ""},
		{"not from the server", plain, "", ""},
		{"serialization failure", &pgconn.PgError{Code: "40001"}, "", ""},
		{"named check", &pgconn.PgError{Code: "23514", ConstraintName: "moves_kind"}, tengen.EINVALID, "A move is a play, a pass or a resignation."},
		{"sequence guard", &pgconn.PgError{Code: "23505", ConstraintName: "moves_pkey"}, tengen.ECONFLICT, "The game changed; reload it."},
		{"other unique", &pgconn.PgError{Code: "23505", ConstraintName: "sessions_pkey"}, tengen.ECONFLICT, "The change clashes with stored data; reload and try again."},
		{"foreign key", &pgconn.PgError{Code: "23503", ConstraintName: "games_black_id_fkey"}, tengen.EINVALID, "The change would store malformed data."},
		{"malformed json", fmt.Errorf("exec: %w", &pgconn.PgError{Code: "22P02"}), tengen.EINVALID, "The change would store malformed data."},
	}
	for _, tt := range tests {
		got := constraintError(tt.err)
		if tt.code == "" {
			if got != tt.err {
				t.Errorf("%s: %v, want it unchanged", tt.name, got)
			}
			continue
		}
		if c := tengen.ErrorCode(got); c != tt.code {
			t.Errorf("%s: code %q, want %q", tt.name, c, tt.code)
		}
		if m := tengen.ErrorMessage(got); m != tt.msg {
			t.Errorf("%s: message %q, want %q", tt.name, m, tt.msg)
		}
		var pe *pgconn.PgError
		if !errors.As(got, &pe) {
			t.Errorf("%s: %v does not wrap the server's error", tt.name, got)
		}
	}
	// The mapped errors are copies: changing one leaves the table alone.
	e := constraintError(&pgconn.PgError{Code: "23514", ConstraintName: "moves_kind"})
	var te *tengen.Error
	if errors.As(e, &te) {
		te.Message = "changed"
	}
	if constraintErrors["moves_kind"].Message == "changed" {
		t.Error("constraintError returned the table's error itself")
	}
}

// TestRetryable tells PostgreSQL's conflicts between transactions, which a
// group-commit batch runs again, from every other error.
func TestRetryable(t *testing.T) {
	for _, tt := range []struct {
		err  error
		want bool
	}{
		{&pgconn.PgError{Code: "40P01", Message: "deadlock detected"}, true},
		{fmt.Errorf("append move: %w", &pgconn.PgError{Code: "40001"}), true},
		{&pgconn.PgError{Code: "23505", ConstraintName: "moves_pkey"}, false},
		{&pgconn.PgError{Code: "40000"}, false},
		{errors.New("deadlock detected"), false},
		{nil, false},
	} {
		if got := retryable(tt.err); got != tt.want {
			t.Errorf("retryable(%v) = %v, want %v", tt.err, got, tt.want)
		}
	}
}
