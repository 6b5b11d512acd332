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
	bad := settings19()
	bad.HandicapBy = "coin"
	_, before, _ := b.Challenges.FindChallenges(ctx, tengen.ChallengeFilter{})
	wantCode(t, "handicapBy coin", b.Challenges.CreateChallenge(ctx, &tengen.Challenge{ChallengerID: alice.ID, Settings: bad}), tengen.EINVALID)
	if _, after, _ := b.Challenges.FindChallenges(ctx, tengen.ChallengeFilter{}); after != before {
		t.Errorf("a refused challenge was stored: %d challenges, had %d", after, before)
	}
}
