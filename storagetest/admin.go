package storagetest

import (
	"context"
	"sync"
	"testing"
	"time"

	"tengen"
)

// The admin role's storage: listing users, the first admin, granting the
// role, disabling accounts, ending all of a user's sessions and removing
// challenges.

func testFindUsers(t *testing.T, b *Backend) {
	ctx := context.Background()
	var want []string
	for _, name := range []string{"Dosaku", "Jowa", "Shuei", "Shusai", "Honinbo"} {
		mustUser(t, b.Services, name)
		want = append(want, name)
	}
	bot := &tengen.User{Name: "botty", PasswordHash: "-", Bot: true}
	if err := b.Users.CreateUser(ctx, bot); err != nil {
		t.Fatal(err)
	}
	want = append(want, "botty")
	tests := []struct {
		name          string
		offset, limit int
		want          []string
	}{
		{"all", 0, 0, want},
		{"first page", 0, 2, want[:2]},
		{"second page", 2, 2, want[2:4]},
		{"last page", 4, 2, want[4:]},
		{"past the end", 10, 2, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			users, total, err := b.Users.FindUsers(ctx, tengen.UserFilter{Offset: tt.offset, Limit: tt.limit})
			if err != nil {
				t.Fatal(err)
			}
			if total != len(want) {
				t.Errorf("total = %d, want %d", total, len(want))
			}
			var got []string
			for _, u := range users {
				got = append(got, u.Name)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("users = %v, want %v", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Fatalf("users = %v, want %v (registration order)", got, tt.want)
				}
			}
		})
	}
	users, _, err := b.Users.FindUsers(ctx, tengen.UserFilter{Offset: 5, Limit: 1})
	if err != nil || len(users) != 1 || !users[0].Bot {
		t.Errorf("the bot in the list: %+v, %v", users, err)
	}
}

func testFirstAdmin(t *testing.T, b *Backend) {
	ctx := context.Background()
	bot := &tengen.User{Name: "botty", PasswordHash: "-", Bot: true}
	if err := b.Users.CreateUser(ctx, bot); err != nil {
		t.Fatal(err)
	}
	if ok, err := b.Users.ClaimFirstAdmin(ctx, bot.ID); ok || err != nil {
		t.Errorf("ClaimFirstAdmin(bot) = %v, %v; want false, nil", ok, err)
	}
	// Users registering at once: exactly one becomes the first admin.
	users := make([]*tengen.User, 8)
	won := make([]bool, len(users))
	for i := range users {
		users[i] = mustUser(t, b.Services, "player"+string(rune('a'+i)))
	}
	var wg sync.WaitGroup
	for i, u := range users {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ok, err := b.Users.ClaimFirstAdmin(ctx, u.ID)
			if err != nil {
				t.Errorf("ClaimFirstAdmin: %v", err)
			}
			won[i] = ok
		}()
	}
	wg.Wait()
	admins := 0
	for i, u := range users {
		got, err := b.Users.FindUserByID(ctx, u.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.Admin != won[i] {
			t.Errorf("%s: stored admin %v, claim reported %v", u.Name, got.Admin, won[i])
		}
		if got.Admin {
			admins++
		}
	}
	if admins != 1 {
		t.Errorf("%d first admins, want 1", admins)
	}
	if ok, err := b.Users.ClaimFirstAdmin(ctx, 999999); ok || err != nil {
		t.Errorf("ClaimFirstAdmin(unknown) = %v, %v; want false, nil", ok, err)
	}
}

func testSetUserAdmin(t *testing.T, b *Backend) {
	ctx := context.Background()
	u := mustUser(t, b.Services, "Sakata")
	for _, admin := range []bool{true, false, true} {
		got, err := b.Users.SetUserAdmin(ctx, u.ID, admin)
		if err != nil || got.Admin != admin || got.ID != u.ID {
			t.Fatalf("SetUserAdmin(%v) = %+v, %v", admin, got, err)
		}
		stored, err := b.Users.FindUserByName(ctx, "sakata")
		if err != nil || stored.Admin != admin {
			t.Fatalf("stored admin after SetUserAdmin(%v) = %+v, %v", admin, stored, err)
		}
	}
	// The first-admin claim sees the admin set here.
	v := mustUser(t, b.Services, "Fujisawa")
	if ok, err := b.Users.ClaimFirstAdmin(ctx, v.ID); ok || err != nil {
		t.Errorf("ClaimFirstAdmin with an admin = %v, %v; want false, nil", ok, err)
	}
	bot := &tengen.User{Name: "botty", PasswordHash: "-", Bot: true}
	if err := b.Users.CreateUser(ctx, bot); err != nil {
		t.Fatal(err)
	}
	_, err := b.Users.SetUserAdmin(ctx, bot.ID, true)
	wantCode(t, "bot admin", err, tengen.EINVALID)
	_, err = b.Users.SetUserAdmin(ctx, 999999, true)
	wantCode(t, "unknown user admin", err, tengen.ENOTFOUND)
}

func testSetUserDisabled(t *testing.T, b *Backend) {
	ctx := context.Background()
	u, other := mustUser(t, b.Services, "Kitani"), mustUser(t, b.Services, "Go_Seigen")
	tokens, otherTokens := mustSessions(t, b.Services, u, 3), mustSessions(t, b.Services, other, 1)

	made := mustChallenge(t, b.Services, &tengen.Challenge{ChallengerID: u.ID, Settings: settings19()})
	received := mustChallenge(t, b.Services, &tengen.Challenge{ChallengerID: other.ID, OpponentID: u.ID, Settings: settings19()})
	others := mustChallenge(t, b.Services, &tengen.Challenge{ChallengerID: other.ID, Settings: settings19()})
	accepted := mustChallenge(t, b.Services, &tengen.Challenge{ChallengerID: u.ID, Settings: settings19()})
	if _, err := b.Games.CreateGameFromChallenge(ctx, accepted.ID, other.ID, nil); err != nil {
		t.Fatal(err)
	}

	got, err := b.Users.SetUserDisabled(ctx, u.ID, true)
	if err != nil || !got.Disabled {
		t.Fatalf("SetUserDisabled(true) = %+v, %v", got, err)
	}
	for _, tt := range []struct {
		what string
		c    *tengen.Challenge
		want tengen.ChallengeStatus
	}{
		{"made by the disabled user", made, tengen.ChallengeCancelled},
		{"made to the disabled user", received, tengen.ChallengeDeclined},
		{"of someone else", others, tengen.ChallengeOpen},
		{"accepted before", accepted, tengen.ChallengeAccepted},
	} {
		c, err := b.Challenges.FindChallengeByID(ctx, tt.c.ID)
		if err != nil || c.Status != tt.want {
			t.Errorf("challenge %s after disabling: %+v, %v; want %s", tt.what, c, err, tt.want)
		}
	}
	if stored, err := b.Users.FindUserByID(ctx, u.ID); err != nil || !stored.Disabled {
		t.Errorf("stored after disabling = %+v, %v", stored, err)
	}
	for _, tok := range tokens {
		_, err := b.Sessions.FindSession(ctx, tok)
		wantCode(t, "session of a disabled user", err, tengen.ENOTFOUND)
	}
	if _, err := b.Sessions.FindSession(ctx, otherTokens[0]); err != nil {
		t.Errorf("another user's session ended: %v", err)
	}

	got, err = b.Users.SetUserDisabled(ctx, u.ID, false)
	if err != nil || got.Disabled {
		t.Fatalf("SetUserDisabled(false) = %+v, %v", got, err)
	}
	if stored, err := b.Users.FindUserByID(ctx, u.ID); err != nil || stored.Disabled {
		t.Errorf("stored after enabling = %+v, %v", stored, err)
	}
	if _, err := b.Sessions.CreateSession(ctx, u.ID, time.Now().Add(time.Hour)); err != nil {
		t.Errorf("session after enabling: %v", err)
	}
	_, err = b.Users.SetUserDisabled(ctx, 999999, true)
	wantCode(t, "disable unknown user", err, tengen.ENOTFOUND)
}

// mustSessions creates n sessions of u, an hour long, and returns their
// tokens.
func mustSessions(t *testing.T, s Services, u *tengen.User, n int) []string {
	t.Helper()
	var tokens []string
	for range n {
		sess, err := s.Sessions.CreateSession(context.Background(), u.ID, time.Now().Add(time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		tokens = append(tokens, sess.Token)
	}
	return tokens
}

func testDeleteUserSessions(t *testing.T, b *Backend) {
	ctx := context.Background()
	u, other := mustUser(t, b.Services, "Cho_Chikun"), mustUser(t, b.Services, "Kobayashi")
	tokens, otherTokens := mustSessions(t, b.Services, u, 3), mustSessions(t, b.Services, other, 1)
	n, err := b.Sessions.DeleteUserSessions(ctx, u.ID)
	if err != nil || n != 3 {
		t.Errorf("DeleteUserSessions = %d, %v; want 3", n, err)
	}
	for _, tok := range tokens {
		_, err := b.Sessions.FindSession(ctx, tok)
		wantCode(t, "session after logging out everywhere", err, tengen.ENOTFOUND)
	}
	if _, err := b.Sessions.FindSession(ctx, otherTokens[0]); err != nil {
		t.Errorf("another user's session ended: %v", err)
	}
	if n, err := b.Sessions.DeleteUserSessions(ctx, u.ID); err != nil || n != 0 {
		t.Errorf("DeleteUserSessions again = %d, %v; want 0", n, err)
	}
}

func testRemoveChallenge(t *testing.T, b *Backend) {
	ctx := context.Background()
	alice, bob := mustUser(t, b.Services, "alice"), mustUser(t, b.Services, "bob")
	open := mustChallenge(t, b.Services, &tengen.Challenge{ChallengerID: alice.ID, Settings: settings19()})
	direct := mustChallenge(t, b.Services, &tengen.Challenge{ChallengerID: alice.ID, OpponentID: bob.ID, Settings: settings19()})
	for _, c := range []*tengen.Challenge{open, direct} {
		got, err := b.Challenges.RemoveChallenge(ctx, c.ID)
		if err != nil || got.Status != tengen.ChallengeCancelled {
			t.Errorf("RemoveChallenge(%d) = %+v, %v", c.ID, got, err)
		}
		stored, err := b.Challenges.FindChallengeByID(ctx, c.ID)
		if err != nil || stored.Status != tengen.ChallengeCancelled {
			t.Errorf("stored after removal = %+v, %v", stored, err)
		}
	}
	_, err := b.Challenges.RemoveChallenge(ctx, open.ID)
	wantCode(t, "remove twice", err, tengen.ECONFLICT)
	_, err = b.Games.CreateGameFromChallenge(ctx, open.ID, bob.ID, nil)
	wantCode(t, "accept removed", err, tengen.ECONFLICT)
	accepted := mustChallenge(t, b.Services, &tengen.Challenge{ChallengerID: alice.ID, Settings: settings19()})
	if _, err := b.Games.CreateGameFromChallenge(ctx, accepted.ID, bob.ID, nil); err != nil {
		t.Fatal(err)
	}
	_, err = b.Challenges.RemoveChallenge(ctx, accepted.ID)
	wantCode(t, "remove accepted", err, tengen.ECONFLICT)
	_, err = b.Challenges.RemoveChallenge(ctx, 999999)
	wantCode(t, "remove unknown", err, tengen.ENOTFOUND)
}
