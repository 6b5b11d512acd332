package storagetest

import (
	"cmp"
	"context"
	"slices"
	"sync"
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
	if cs, err := b.Challenges.ExpireChallenges(ctx, open.CreatedAt); err != nil || len(cs) != 0 {
		t.Fatalf("ExpireChallenges(first creation) = %d, %v; want 0", len(cs), err)
	}
	cs, err := b.Challenges.ExpireChallenges(ctx, direct.CreatedAt.Add(time.Millisecond))
	if err != nil || len(cs) != 2 {
		t.Fatalf("ExpireChallenges(after both) = %d, %v; want 2", len(cs), err)
	}
	// The expired challenges come back as they are now, with their
	// challenger.
	slices.SortFunc(cs, func(a, b *tengen.Challenge) int { return cmp.Compare(a.ID, b.ID) })
	for i, want := range []*tengen.Challenge{open, direct} {
		c := cs[i]
		if c.ID != want.ID || c.Status != tengen.ChallengeCancelled || c.ChallengerID != alice.ID || c.OpponentID != want.OpponentID ||
			c.Challenger == nil || c.Challenger.Name != "alice" {
			t.Errorf("expired challenge %d: %+v", i, c)
		}
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
	if cs, err := b.Challenges.ExpireChallenges(ctx, young.CreatedAt); err != nil || len(cs) != 0 {
		t.Fatalf("ExpireChallenges again = %d, %v; want 0", len(cs), err)
	}
	if stored, err := b.Challenges.FindChallengeByID(ctx, young.ID); err != nil || stored.Status != tengen.ChallengeOpen {
		t.Errorf("young challenge: %+v, %v", stored, err)
	}
}

// testExpireChallengesRacing runs several sweeps at once, as the instances
// on one database do: each expired challenge is returned by exactly one.
func testExpireChallengesRacing(t *testing.T, b *Backend) {
	ctx := context.Background()
	alice := mustUser(t, b.Services, "alice")
	var want []int64
	for range tengen.MaxOpenChallenges {
		want = append(want, mustChallenge(t, b.Services, &tengen.Challenge{ChallengerID: alice.ID, Settings: settings19()}).ID)
	}
	var mu sync.Mutex // guards got
	var got []int64
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cs, err := b.Challenges.ExpireChallenges(ctx, time.Now().Add(time.Hour))
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			defer mu.Unlock()
			for _, c := range cs {
				got = append(got, c.ID)
			}
		}()
	}
	wg.Wait()
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("expired by the racing sweeps: %v; want each of %v once", got, want)
	}
}
