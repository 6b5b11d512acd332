package storagetest

import (
	"context"
	"reflect"
	"slices"
	"testing"
	"time"

	"tengen"
)

// declaredUser creates a person who declared rank at sign-up.
func declaredUser(t *testing.T, s Services, name, rank string) *tengen.User {
	t.Helper()
	u := &tengen.User{Name: name, PasswordHash: "hash-of-" + name, Rank: rank}
	if err := s.Users.CreateUser(context.Background(), u); err != nil {
		t.Fatalf("CreateUser(%s): %v", name, err)
	}
	return u
}

// testStats checks a profile's counts: every finished game with a result
// by board size, the rated ones by the opponent's rank at the time (an
// anchored bot at its fixed rank), void and running games nowhere.
func testStats(t *testing.T, b *Backend) {
	ctx := context.Background()
	me := declaredUser(t, b.Services, "Mine", "12k")
	peer := declaredUser(t, b.Services, "Peer", "12k")
	strong := declaredUser(t, b.Services, "Strong", "3d")
	weak := declaredUser(t, b.Services, "Weak", "25k")
	bot := &tengen.User{Name: "Anchored", PasswordHash: "!", Bot: true}
	if err := b.Users.CreateUser(ctx, bot); err != nil {
		t.Fatal(err)
	}
	if err := b.Ratings.SetAnchor(ctx, bot.ID, "5k"); err != nil {
		t.Fatal(err)
	}
	empty, err := b.Ratings.FindStats(ctx, me.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := &tengen.UserStats{BySize: []tengen.SizeRecord{}, ByOpponent: []tengen.StrengthRecord{
		{Strength: tengen.Stronger}, {Strength: tengen.Equal}, {Strength: tengen.Weaker}}}
	if !reflect.DeepEqual(empty, want) {
		t.Errorf("stats without games: %+v, want %+v", empty, want)
	}

	size := func(n int, rated bool) tengen.GameSettings {
		set := settings19()
		set.BoardSize, set.Rated = n, rated
		return set
	}
	// The draw against the equal player comes first, while both still
	// stand at the middle of 12k; the others are ranks away whatever the
	// games before did to Me's rating.
	games := []struct {
		black, white *tengen.User
		set          tengen.GameSettings
		result       string
	}{
		{me, peer, size(9, true), "0"},
		{me, strong, size(19, true), "W+R"},
		{weak, me, size(19, true), "W+3.5"},
		{me, bot, size(19, true), "B+T"},
		{me, strong, size(13, false), "B+R"},
		{peer, me, size(19, true), "Void"},
	}
	for _, gm := range games {
		g := mustGame(t, b.Services, gm.black, gm.white, gm.set)
		if _, err := finish(b.Services, g, gm.black, gm.result); err != nil {
			t.Fatalf("%s against %s: %v", gm.black.Name, gm.white.Name, err)
		}
	}
	mustGame(t, b.Services, me, weak, size(9, true)) // still being played

	got, err := b.Ratings.FindStats(ctx, me.ID)
	if err != nil {
		t.Fatal(err)
	}
	want = &tengen.UserStats{
		Total: tengen.Record{Wins: 3, Losses: 1, Draws: 1},
		BySize: []tengen.SizeRecord{
			{BoardSize: 9, Record: tengen.Record{Draws: 1}},
			{BoardSize: 13, Record: tengen.Record{Wins: 1}},
			{BoardSize: 19, Record: tengen.Record{Wins: 2, Losses: 1}},
		},
		ByOpponent: []tengen.StrengthRecord{
			{Strength: tengen.Stronger, Record: tengen.Record{Wins: 1, Losses: 1}},
			{Strength: tengen.Equal, Record: tengen.Record{Draws: 1}},
			{Strength: tengen.Weaker, Record: tengen.Record{Wins: 1}},
		},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("stats of Me:\n got %+v\nwant %+v", got, want)
	}
	if rec, err := b.Ratings.FindRecord(ctx, me.ID); err != nil || rec != got.Total {
		t.Errorf("FindRecord %+v, %v; FindStats total %+v", rec, err, got.Total)
	}
	// The strong player saw Me as weaker in the rated game and not at all
	// in the unrated one.
	got, err = b.Ratings.FindStats(ctx, strong.ID)
	if err != nil {
		t.Fatal(err)
	}
	if w := (tengen.Record{Wins: 1}); got.ByOpponent[2].Record != w || got.ByOpponent[0].Record != (tengen.Record{}) || got.Total != (tengen.Record{Wins: 1, Losses: 1}) {
		t.Errorf("stats of Strong: %+v", got)
	}
	_, err = b.Ratings.FindStats(ctx, 99999)
	wantCode(t, "stats of an unknown user", err, tengen.ENOTFOUND)
}

// testFindPlayers checks the players page's two lists: the name search by
// prefix (ASCII case ignored, '_' a character and no wildcard, disabled
// accounts left out) and the strongest active players (people with a
// rated game finished since the given time, highest rating first).
func testFindPlayers(t *testing.T, b *Backend) {
	ctx := context.Background()
	alpha := declaredUser(t, b.Services, "Alpha", "5k")
	alfred := mustUser(t, b.Services, "alfred")
	alx := declaredUser(t, b.Services, "Al_x", "20k")
	bob := declaredUser(t, b.Services, "Bob", "6k")
	gone := mustUser(t, b.Services, "Alpine")
	if _, err := b.Users.SetUserDisabled(ctx, gone.ID, true); err != nil {
		t.Fatal(err)
	}
	bot := &tengen.User{Name: "AlphaBot", PasswordHash: "!", Bot: true}
	if err := b.Users.CreateUser(ctx, bot); err != nil {
		t.Fatal(err)
	}
	if err := b.Ratings.SetAnchor(ctx, bot.ID, "1d"); err != nil {
		t.Fatal(err)
	}
	names := func(us []*tengen.User) []string {
		out := []string{}
		for _, u := range us {
			out = append(out, u.Name)
		}
		return out
	}
	for _, tt := range []struct {
		prefix string
		limit  int
		want   []string
	}{
		{"al", 0, []string{"Al_x", "alfred", "Alpha", "AlphaBot"}},
		{"ALPHA", 0, []string{"Alpha", "AlphaBot"}},
		{"al_", 0, []string{"Al_x"}},
		{"al", 2, []string{"Al_x", "alfred"}},
		{"Alpine", 0, []string{}},
		{"zz", 0, []string{}},
	} {
		got, err := b.Ratings.FindPlayers(ctx, tengen.PlayerFilter{Prefix: tt.prefix, Limit: tt.limit})
		if err != nil || !reflect.DeepEqual(names(got), tt.want) {
			t.Errorf("prefix %q limit %d: %v, %v; want %v", tt.prefix, tt.limit, names(got), err, tt.want)
		}
	}
	for _, bad := range []string{"a%", "a b", "ä", "abcdefghijklmnopqrstu"} {
		_, err := b.Ratings.FindPlayers(ctx, tengen.PlayerFilter{Prefix: bad})
		wantCode(t, "prefix "+bad, err, tengen.EINVALID)
	}

	// Bob beats Alpha in a rated game; Al_x beats the anchored bot;
	// alfred plays only unrated.
	start := time.Now().Add(-time.Hour)
	g := mustGame(t, b.Services, bob, alpha, ratedSettings())
	if _, err := finish(b.Services, g, bob, "B+R"); err != nil {
		t.Fatal(err)
	}
	g = mustGame(t, b.Services, alx, bot, ratedSettings())
	if _, err := finish(b.Services, g, alx, "B+R"); err != nil {
		t.Fatal(err)
	}
	g = mustGame(t, b.Services, alfred, bob, settings19())
	if _, err := finish(b.Services, g, alfred, "B+R"); err != nil {
		t.Fatal(err)
	}
	got, err := b.Ratings.FindPlayers(ctx, tengen.PlayerFilter{ActiveSince: start})
	gotNames := names(got)
	slices.Sort(gotNames)
	if want := []string{"Al_x", "Alpha", "Bob"}; err != nil || !reflect.DeepEqual(gotNames, want) {
		t.Errorf("strongest active: %v, %v; want %v in the order of their ratings", names(got), err, want)
	}
	for i := 1; i < len(got); i++ {
		if got[i].Rating > got[i-1].Rating {
			t.Errorf("strongest active out of order: %v before %v", got[i-1].Rating, got[i].Rating)
		}
	}
	if got, err := b.Ratings.FindPlayers(ctx, tengen.PlayerFilter{ActiveSince: start, Limit: 1}); err != nil || len(got) != 1 {
		t.Errorf("strongest active, limit 1: %v, %v", names(got), err)
	}
	if got, err := b.Ratings.FindPlayers(ctx, tengen.PlayerFilter{ActiveSince: time.Now().Add(time.Hour)}); err != nil || len(got) != 0 {
		t.Errorf("active since an hour from now: %v, %v; want none", names(got), err)
	}
}
