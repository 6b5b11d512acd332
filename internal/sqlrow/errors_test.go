package sqlrow

import (
	"errors"
	"testing"

	"tengen"
	"tengen/internal/rating"
)

func TestConstraintError(t *testing.T) {
	driver := errors.New("driver report")
	own := map[string]*tengen.Error{
		"moves_pkey":   tengen.Errorf(tengen.ECONFLICT, "The game changed; reload it."),
		"games_status": tengen.Errorf(tengen.EINVALID, "own message"),
	}
	errs := ConstraintErrors(own)
	for _, tt := range []struct {
		name   string
		unique bool
		code   string
		msg    string
	}{
		{"moves_kind", false, tengen.EINVALID, "A move is a play, a pass or a resignation."},
		{"games_status", false, tengen.EINVALID, "own message"},
		{"moves_pkey", true, tengen.ECONFLICT, "The game changed; reload it."},
		{"users_name", true, tengen.ECONFLICT, "The change clashes with stored data; reload and try again."},
		{"unknown_check", false, tengen.EINVALID, "The change would store malformed data."},
	} {
		got := ConstraintError(errs, tt.name, tt.unique, driver)
		if tengen.ErrorCode(got) != tt.code || tengen.ErrorMessage(got) != tt.msg {
			t.Errorf("%s: %v, want %s %q", tt.name, got, tt.code, tt.msg)
		}
		if !errors.Is(got, driver) {
			t.Errorf("%s: %v does not wrap the driver's error", tt.name, got)
		}
	}
	// The mapped errors are copies: changing one leaves the table alone.
	var te *tengen.Error
	if errors.As(ConstraintError(errs, "moves_kind", false, driver), &te) {
		te.Message = "changed"
	}
	if checkErrors["moves_kind"].Message == "changed" {
		t.Error("ConstraintError returned the table's error itself")
	}
	if checkErrors["games_status"].Message == "own message" {
		t.Error("ConstraintErrors changed the shared table")
	}
}

func TestStartingRating(t *testing.T) {
	if _, err := StartingRating(""); err != nil {
		t.Errorf(`StartingRating("") = %v`, err)
	}
	if _, err := StartingRating("40k"); tengen.ErrorCode(err) != tengen.EINVALID {
		t.Errorf(`StartingRating("40k") = %v, want %s`, err, tengen.EINVALID)
	}
}

func TestAnchorRating(t *testing.T) {
	if r, fixed, err := AnchorRating(""); err != nil || fixed || r != rating.New() {
		t.Errorf(`AnchorRating("") = %v, %v, %v, want a new rating, not fixed`, r, fixed, err)
	}
	r, fixed, err := AnchorRating("3d")
	if err != nil || !fixed || r.Deviation != anchorDeviation || r.Deviation >= rating.ProvisionalDeviation {
		t.Errorf(`AnchorRating("3d") = %v, %v, %v, want fixed with deviation %v`, r, fixed, err, anchorDeviation)
	}
	if k, _ := rating.ParseRank("3d"); r.Rating != rating.NewAt(k).Rating {
		t.Errorf(`AnchorRating("3d") rates %v, want %v`, r.Rating, rating.NewAt(k).Rating)
	}
	if _, _, err := AnchorRating("40k"); tengen.ErrorCode(err) != tengen.EINVALID {
		t.Errorf(`AnchorRating("40k") = %v, want %s`, err, tengen.EINVALID)
	}
}

func TestRatingFixed(t *testing.T) {
	for _, tt := range []struct {
		u    tengen.User
		want bool
	}{
		{tengen.User{Bot: true, Rank: "3d"}, true},
		{tengen.User{Bot: true}, false},
		{tengen.User{Rank: "3d"}, false},
	} {
		if got := RatingFixed(&tt.u); got != tt.want {
			t.Errorf("RatingFixed(bot %v, rank %q) = %v, want %v", tt.u.Bot, tt.u.Rank, got, tt.want)
		}
	}
}
