package storagetest

import (
	"context"
	"testing"
	"time"

	"tengen"
)

// testExpireChallenges checks ExpireChallenges: open and direct challenges
// created before the given time are cancelled, are no longer listed as open
// and cannot be accepted; younger challenges and accepted ones stay as they
// were.
func testExpireChallenges(t *testing.T, b *Backend) {
	ctx := context.Background()
	alice, bob := mustUser(t, b.Services, "alice"), mustUser(t, b.Services, "bob")
	accepted := mustChallenge(t, b.Services, &tengen.Challenge{ChallengerID: alice.ID, Settings: settings19()})
	if _, err := b.Games.CreateGameFromChallenge(ctx, accepted.ID, bob.ID, nil); err != nil {
		t.Fatal(err)
	}
	open := mustChallenge(t, b.Services, &tengen.Challenge{ChallengerID: alice.ID, Settings: settings19()})
	direct := mustChallenge(t, b.Services, &tengen.Challenge{ChallengerID: alice.ID, OpponentID: bob.ID, Settings: settings19()})

	// Nothing is older than the oldest open challenge.
	if n, err := b.Challenges.ExpireChallenges(ctx, open.CreatedAt); err != nil || n != 0 {
		t.Fatalf("ExpireChallenges(first creation) = %d, %v; want 0", n, err)
	}
	if n, err := b.Challenges.ExpireChallenges(ctx, direct.CreatedAt.Add(time.Millisecond)); err != nil || n != 2 {
		t.Fatalf("ExpireChallenges(after both) = %d, %v; want 2", n, err)
	}
	for _, c := range []*tengen.Challenge{open, direct} {
		stored, err := b.Challenges.FindChallengeByID(ctx, c.ID)
		if err != nil || stored.Status != tengen.ChallengeCancelled {
			t.Errorf("challenge %d after expiry: %+v, %v", c.ID, stored, err)
		}
		_, err = b.Games.CreateGameFromChallenge(ctx, c.ID, bob.ID, nil)
		wantCode(t, "accept expired", err, tengen.ECONFLICT)
	}
	status := tengen.ChallengeOpen
	if list, n, err := b.Challenges.FindChallenges(ctx, tengen.ChallengeFilter{Status: &status}); err != nil || n != 0 || len(list) != 0 {
		t.Errorf("open challenges after expiry: %d (%d), %v", len(list), n, err)
	}
	if stored, err := b.Challenges.FindChallengeByID(ctx, accepted.ID); err != nil || stored.Status != tengen.ChallengeAccepted {
		t.Errorf("accepted challenge after expiry: %+v, %v", stored, err)
	}
	// A younger challenge stays open, and expiring again changes nothing.
	young := mustChallenge(t, b.Services, &tengen.Challenge{ChallengerID: alice.ID, Settings: settings19()})
	if n, err := b.Challenges.ExpireChallenges(ctx, young.CreatedAt); err != nil || n != 0 {
		t.Fatalf("ExpireChallenges again = %d, %v; want 0", n, err)
	}
	if stored, err := b.Challenges.FindChallengeByID(ctx, young.ID); err != nil || stored.Status != tengen.ChallengeOpen {
		t.Errorf("young challenge: %+v, %v", stored, err)
	}
}
