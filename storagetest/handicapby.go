package storagetest

import (
	"context"
	"testing"

	"tengen"
)

// testHandicapBy: how the handicap was chosen (GameSettings.HandicapBy)
// is kept by the challenge and passed on to its game; a value other than
// "" and "rank" is refused and nothing is stored.
func testHandicapBy(t *testing.T, b *Backend) {
	ctx := context.Background()
	alice, bob := mustUser(t, b.Services, "alice"), mustUser(t, b.Services, "bob")
	set := settings19()
	set.Handicap, set.HandicapBy = 4, tengen.HandicapByRank
	c := mustChallenge(t, b.Services, &tengen.Challenge{ChallengerID: alice.ID, OpponentID: bob.ID, Settings: set})
	got, err := b.Challenges.FindChallengeByID(ctx, c.ID)
	if err != nil || got.Settings.HandicapBy != tengen.HandicapByRank || got.Settings.Handicap != 4 {
		t.Fatalf("stored challenge: %+v, %v", got, err)
	}
	g, err := b.Games.CreateGameFromChallenge(ctx, c.ID, bob.ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	stored, err := b.Games.FindGameByID(ctx, g.ID)
	if err != nil || stored.Settings.HandicapBy != tengen.HandicapByRank || g.Settings.HandicapBy != tengen.HandicapByRank {
		t.Errorf("game: created %q, stored %+v, %v", g.Settings.HandicapBy, stored, err)
	}
	plain := mustChallenge(t, b.Services, &tengen.Challenge{ChallengerID: alice.ID, Settings: settings19()})
	if got, err := b.Challenges.FindChallengeByID(ctx, plain.ID); err != nil || got.Settings.HandicapBy != "" {
		t.Errorf("challenge without: %+v, %v", got, err)
	}
	// An open challenge whose handicap follows the ranks is settled with
	// the acceptor's rank in the transaction that makes the game; settings
	// planned from other ranks are refused and change nothing.
	strong := &tengen.User{Name: "strong", PasswordHash: "x", Rank: "6k"}
	weak := &tengen.User{Name: "weak", PasswordHash: "x", Rank: "12k"}
	for _, u := range []*tengen.User{strong, weak} {
		if err := b.Users.CreateUser(ctx, u); err != nil {
			t.Fatal(err)
		}
	}
	auto := settings19()
	auto.HandicapBy, auto.Color, auto.Rated = tengen.HandicapByRank, tengen.ChooseNigiri, true
	open := mustChallenge(t, b.Services, &tengen.Challenge{ChallengerID: strong.ID, Settings: auto})
	wrong := auto
	wrong.Handicap, wrong.Color, wrong.Rated = 5, tengen.ChooseWhite, false
	_, err = b.Games.CreateGameFromChallenge(ctx, open.ID, weak.ID, &tengen.PlayRecord{Settings: &wrong})
	wantCode(t, "settings from other ranks", err, tengen.ECONFLICT)
	if got, err := b.Challenges.FindChallengeByID(ctx, open.ID); err != nil || got.Status != tengen.ChallengeOpen {
		t.Fatalf("after the refusal: %+v, %v", got, err)
	}
	right, _ := open.GameSettings("6k", "12k")
	g, err = b.Games.CreateGameFromChallenge(ctx, open.ID, weak.ID, &tengen.PlayRecord{Settings: &right})
	if err != nil {
		t.Fatal(err)
	}
	if g.Settings.Handicap != 6 || g.BlackID != weak.ID || g.Settings.Rated || g.ToMove != right.FirstToMove() {
		t.Errorf("game of the open challenge: black %d, %+v", g.BlackID, g.Settings)
	}

	bad := settings19()
	bad.HandicapBy = "coin"
	_, before, _ := b.Challenges.FindChallenges(ctx, tengen.ChallengeFilter{})
	wantCode(t, "handicapBy coin", b.Challenges.CreateChallenge(ctx, &tengen.Challenge{ChallengerID: alice.ID, Settings: bad}), tengen.EINVALID)
	if _, after, _ := b.Challenges.FindChallenges(ctx, tengen.ChallengeFilter{}); after != before {
		t.Errorf("a refused challenge was stored: %d challenges, had %d", after, before)
	}
}
