package storagetest

import (
	"context"
	"reflect"
	"testing"
	"time"

	"tengen"
	"tengen/goban"
)

// The game room's storage (issue 17): board settings, password change,
// vacation accounts and the comforts of a play record.

func testUserSettings(t *testing.T, b *Backend) {
	ctx := context.Background()
	u := mustUser(t, b.Services, "Honinbo_Shusaku")
	if !reflect.DeepEqual(u.Settings, tengen.DefaultUserSettings) {
		t.Errorf("new user's settings = %+v, want the defaults %+v", u.Settings, tengen.DefaultUserSettings)
	}
	set := tengen.UserSettings{MoveNumbers: true, Sound: true, Notation: tengen.NotationKorschelt}
	got, err := b.Users.UpdateUserSettings(ctx, u.ID, "de", set)
	if err != nil || got.Settings != set || got.Language != "de" {
		t.Fatalf("UpdateUserSettings = %+v, %v", got, err)
	}
	bad := set
	bad.Notation = "klingon"
	_, err = b.Users.UpdateUserSettings(ctx, u.ID, "en", bad)
	wantCode(t, "unknown notation", err, tengen.EINVALID)
	stored, err := b.Users.FindUserByID(ctx, u.ID)
	if err != nil || stored.Settings != set || stored.Language != "de" {
		t.Errorf("stored settings = %+v (%q), %v; want %+v (de), the refused change lost", stored.Settings, stored.Language, err, set)
	}
	// The players of a game are read with their settings too.
	other := mustUser(t, b.Services, "Gennan_Inseki")
	g := mustGame(t, b.Services, u, other, settings19())
	if g2, err := b.Games.FindGameByID(ctx, g.ID); err != nil || g2.Black == nil || g2.Black.Settings != set || g2.White.Settings != tengen.DefaultUserSettings {
		t.Errorf("game's players' settings = %+v, %v", g2, err)
	}
}

func testSetPassword(t *testing.T, b *Backend) {
	ctx := context.Background()
	u, other := mustUser(t, b.Services, "Cho_Chikun"), mustUser(t, b.Services, "Kobayashi")
	tokens, otherTokens := mustSessions(t, b.Services, u, 3), mustSessions(t, b.Services, other, 1)
	_, err := b.Users.SetPassword(ctx, u.ID, "", tokens[0])
	wantCode(t, "empty hash", err, tengen.EINVALID)
	n, err := b.Users.SetPassword(ctx, u.ID, "new-hash", tokens[0])
	if err != nil || n != 2 {
		t.Fatalf("SetPassword = %d, %v; want 2 sessions ended", n, err)
	}
	if _, err := b.Sessions.FindSession(ctx, tokens[0]); err != nil {
		t.Errorf("the kept session ended: %v", err)
	}
	for _, tok := range tokens[1:] {
		_, err := b.Sessions.FindSession(ctx, tok)
		wantCode(t, "other session after a password change", err, tengen.ENOTFOUND)
	}
	if _, err := b.Sessions.FindSession(ctx, otherTokens[0]); err != nil {
		t.Errorf("another user's session ended: %v", err)
	}
	if got, err := b.Users.FindUserByID(ctx, u.ID); err != nil || got.PasswordHash != "new-hash" {
		t.Errorf("stored hash = %q, %v", got.PasswordHash, err)
	}
	_, err = b.Users.SetPassword(ctx, 99999, "h", "")
	wantCode(t, "unknown user", err, tengen.ENOTFOUND)
}

func testVacation(t *testing.T, b *Backend) {
	ctx := context.Background()
	u := mustUser(t, b.Services, "Go_Seigen")
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	got, err := b.Users.UpdateVacation(ctx, u.ID, func(v *tengen.Vacation) error { return v.Begin(now, 10) })
	if err != nil || !got.Vacation.Active(now) || got.Vacation.DaysLeft(now) != tengen.VacationDaysPerYear-10 {
		t.Fatalf("UpdateVacation(begin) = %+v, %v", got, err)
	}
	_, err = b.Users.UpdateVacation(ctx, u.ID, func(v *tengen.Vacation) error { return v.Begin(now, 1) })
	wantCode(t, "second vacation", err, tengen.ECONFLICT)
	stored, err := b.Users.FindUserByID(ctx, u.ID)
	if err != nil || !reflect.DeepEqual(stored.Vacation.DaysUsed, 10) || !stored.Vacation.Until.Equal(now.Add(240*time.Hour)) {
		t.Errorf("stored vacation = %+v, %v", stored.Vacation, err)
	}
	// Ended after 2½ days: the 7 whole days not begun come back.
	end := now.Add(60 * time.Hour)
	got, err = b.Users.UpdateVacation(ctx, u.ID, func(v *tengen.Vacation) error { return v.End(end) })
	if err != nil || got.Vacation.Active(end) || got.Vacation.DaysLeft(end) != tengen.VacationDaysPerYear-3 {
		t.Errorf("UpdateVacation(end) = %+v, %v", got.Vacation, err)
	}
}

func testPlayRecordComforts(t *testing.T, b *Backend) {
	ctx := context.Background()
	black, white := mustUser(t, b.Services, "black"), mustUser(t, b.Services, "white")
	g := mustGame(t, b.Services, black, white, settings19())
	until := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
	rec := &tengen.PlayRecord{
		Vacation:    tengen.GameVacation{White: &until},
		Conditional: &tengen.ConditionalMoves{Color: goban.Black, Moves: []goban.Point{{X: 3, Y: 3}, {X: 15, Y: 15}}},
	}
	if _, err := b.Games.UpdateGame(ctx, g.ID, g.MoveCount, tengen.GameUpdate{ToMove: g.ToMove, Status: g.Status, Record: rec}); err != nil {
		t.Fatal(err)
	}
	got, err := b.Games.FindPlayRecord(ctx, g.ID)
	if err != nil || got.Vacation.White == nil || !got.Vacation.White.Equal(until) || got.Vacation.Black != nil ||
		!reflect.DeepEqual(got.Conditional, rec.Conditional) {
		t.Errorf("FindPlayRecord = %+v, %v; want vacation and conditional moves of %+v", got, err, rec)
	}
	rec.Conditional, rec.Vacation = nil, tengen.GameVacation{}
	if _, err := b.Games.UpdateGame(ctx, g.ID, g.MoveCount, tengen.GameUpdate{ToMove: g.ToMove, Status: g.Status, Record: rec}); err != nil {
		t.Fatal(err)
	}
	if got, err := b.Games.FindPlayRecord(ctx, g.ID); err != nil || got.Conditional != nil || got.Vacation.White != nil {
		t.Errorf("FindPlayRecord after clearing = %+v, %v", got, err)
	}
}

func testNoTakeback(t *testing.T, b *Backend) {
	ctx := context.Background()
	black, white := mustUser(t, b.Services, "black"), mustUser(t, b.Services, "white")
	set := settings19()
	set.NoTakeback = true
	c := mustChallenge(t, b.Services, &tengen.Challenge{ChallengerID: black.ID, Settings: set})
	if got, err := b.Challenges.FindChallengeByID(ctx, c.ID); err != nil || !got.Settings.NoTakeback {
		t.Fatalf("stored challenge settings = %+v, %v; want takeback off", got.Settings, err)
	}
	g, err := b.Games.CreateGameFromChallenge(ctx, c.ID, white.ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := b.Games.FindGameByID(ctx, g.ID); err != nil || !got.Settings.NoTakeback {
		t.Errorf("stored game settings = %+v, %v; want takeback off", got.Settings, err)
	}
	if g2 := mustGame(t, b.Services, black, white, settings19()); g2.Settings.NoTakeback {
		t.Error("a game without the setting has takeback off")
	}
}
