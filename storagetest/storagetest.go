// Package storagetest is the conformance test suite for Tengen's storage
// backends. It is written once against the service interfaces of package
// tengen; every backend (sqlite now, postgres later) runs it from its own
// tests with Run.
package storagetest

import (
	"context"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"tengen"
	"tengen/clock"
	"tengen/goban"
)

// Services is one backend's set of services on a single store.
type Services struct {
	Users      tengen.UserService
	Sessions   tengen.SessionService
	Challenges tengen.ChallengeService
	Games      tengen.GameService
	Ratings    tengen.RatingService
	Problems   tengen.ProblemProgressService
	Lessons    tengen.LessonService
	Reviews    tengen.ReviewService
	Chat       tengen.ChatService
	BotQueue   tengen.BotQueue
}

// Backend is a fresh, empty store.
type Backend struct {
	Services
	// Reopen closes the store and opens it again from its durable state,
	// returning new services; the old ones must not be used afterwards.
	// A nil Reopen skips the durability tests.
	Reopen func(t *testing.T) Services
	// FailRatings, when set, makes every rating update fail (true) or
	// work again (false), so that the suite can check that a failed
	// rating leaves the result unstored. A nil FailRatings skips that test.
	FailRatings func(fail bool)
}

// Run runs the suite; open must return a new, empty store for every call and
// arrange its cleanup with t.Cleanup.
func Run(t *testing.T, open func(t *testing.T) *Backend) {
	tests := []struct {
		name string
		fn   func(*testing.T, *Backend)
	}{
		{"Users", testUsers},
		{"BotUsers", testBotUsers},
		{"Sessions", testSessions},
		{"Challenges", testChallenges},
		{"CancelChallenge", testCancelChallenge},
		{"OpenChallengeCap", testOpenChallengeCap},
		{"AcceptChallenge", testAcceptChallenge},
		{"HandicapBy", testHandicapBy},
		{"Moves", testMoves},
		{"AppendMoves", testAppendMoves},
		{"ConcurrentDuplicateMoves", testConcurrentDuplicateMoves},
		{"GamesYourTurnFirst", testGamesYourTurnFirst},
		{"PlayRecord", testPlayRecord},
		{"RefusedWrites", testRefusedWrites},
		{"TakeBack", testTakeBack},
		{"CreateGameWithPlayRecord", testCreateGameWithPlayRecord},
		{"Malformed", testMalformed},
		{"Results", testResults},
		{"ConcurrentGames", testConcurrentGames},
		{"Durability", testDurability},
		{"FindUsers", testFindUsers},
		{"FirstAdmin", testFirstAdmin},
		{"SetUserAdmin", testSetUserAdmin},
		{"SetUserDisabled", testSetUserDisabled},
		{"DeleteUserSessions", testDeleteUserSessions},
		{"UserSettings", testUserSettings},
		{"SetPassword", testSetPassword},
		{"Vacation", testVacation},
		{"PlayRecordComforts", testPlayRecordComforts},
		{"NoTakeback", testNoTakeback},
		{"RemoveChallenge", testRemoveChallenge},
		{"ExpireChallenges", testExpireChallenges},
		{"ExpireChallengesRacing", testExpireChallengesRacing},
		{"Ratings", testRatings},
		{"RatingAnchors", testRatingAnchors},
		{"RatingRollback", testRatingRollback},
		{"ConcurrentRatings", testConcurrentRatings},
		{"Stats", testStats},
		{"FindPlayers", testFindPlayers},
		{"ProblemProgress", testProblemProgress},
		{"MarkProblemsSolved", testMarkProblemsSolved},
		{"LessonProgress", testLessonProgress},
		{"Reviews", testReviews},
		{"Chat", testChat},
		{"BotQueue", testBotQueue},
		{"BotQueueTakers", testBotQueueTakers},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.fn(t, open(t)) })
	}
}

// wantCode fails the test unless err carries the application error code.
func wantCode(t *testing.T, what string, err error, code string) {
	t.Helper()
	if got := tengen.ErrorCode(err); got != code {
		t.Errorf("%s: error %v (code %q), want code %q", what, err, got, code)
	}
}

func mustUser(t *testing.T, s Services, name string) *tengen.User {
	t.Helper()
	u := &tengen.User{Name: name, PasswordHash: "hash-of-" + name}
	if err := s.Users.CreateUser(context.Background(), u); err != nil {
		t.Fatalf("CreateUser(%s): %v", name, err)
	}
	return u
}

func settings19() tengen.GameSettings {
	return tengen.GameSettings{BoardSize: 19, Ruleset: "japanese", Color: tengen.ChooseBlack,
		TimeControl: clock.TimeControl{Kind: clock.ByoYomi, MainTime: 10 * time.Minute, Periods: 5, PeriodTime: 30 * time.Second}}
}

func mustChallenge(t *testing.T, s Services, c *tengen.Challenge) *tengen.Challenge {
	t.Helper()
	if err := s.Challenges.CreateChallenge(context.Background(), c); err != nil {
		t.Fatalf("CreateChallenge: %v", err)
	}
	return c
}

// mustGame creates a game in which black plays Black and white plays White.
func mustGame(t *testing.T, s Services, black, white *tengen.User, set tengen.GameSettings) *tengen.Game {
	t.Helper()
	set.Color = tengen.ChooseBlack
	c := mustChallenge(t, s, &tengen.Challenge{ChallengerID: black.ID, Settings: set})
	g, err := s.Games.CreateGameFromChallenge(context.Background(), c.ID, white.ID, nil)
	if err != nil {
		t.Fatalf("CreateGameFromChallenge: %v", err)
	}
	return g
}

// play appends a move by user with the generic state transition.
func play(s Services, g *tengen.Game, user *tengen.User, seq int, kind tengen.MoveKind, x, y int, prevPass bool) (*tengen.Game, error) {
	m := &tengen.GameMove{GameID: g.ID, Seq: seq, Kind: kind, X: x, Y: y, TimeUsed: 1500 * time.Millisecond}
	m.Color = g.ColorOf(user.ID)
	if m.Color == goban.Empty {
		m.Color = goban.Black
	}
	return s.Games.AppendMove(context.Background(), user.ID, m, tengen.NextState(*m, prevPass))
}

func testUsers(t *testing.T, b *Backend) {
	ctx := context.Background()
	u := mustUser(t, b.Services, "Shusaku")
	if u.ID == 0 || u.CreatedAt.IsZero() {
		t.Fatalf("CreateUser did not set ID and CreatedAt: %+v", u)
	}
	v := mustUser(t, b.Services, "Dosaku")
	if v.ID == u.ID {
		t.Fatalf("two users share id %d", u.ID)
	}
	got, err := b.Users.FindUserByID(ctx, u.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Name != "Shusaku" || got.PasswordHash != "hash-of-Shusaku" || !got.CreatedAt.Equal(u.CreatedAt) {
		t.Errorf("FindUserByID = %+v, want %+v", got, u)
	}
	got, err = b.Users.FindUserByName(ctx, "shuSAKU")
	if err != nil || got.ID != u.ID {
		t.Errorf("FindUserByName ignoring case = %+v, %v", got, err)
	}
	err = b.Users.CreateUser(ctx, &tengen.User{Name: "SHUSAKU", PasswordHash: "x"})
	wantCode(t, "duplicate name", err, tengen.ECONFLICT)
	err = b.Users.CreateUser(ctx, &tengen.User{Name: "x", PasswordHash: "x"})
	wantCode(t, "short name", err, tengen.EINVALID)
	err = b.Users.CreateUser(ctx, &tengen.User{Name: "nohash"})
	wantCode(t, "missing hash", err, tengen.EINVALID)
	got, err = b.Users.FindUserByID(ctx, 999999)
	wantCode(t, "unknown id", err, tengen.ENOTFOUND)
	if got != nil {
		t.Errorf("unknown id returned user %+v", got)
	}
	got, err = b.Users.FindUserByName(ctx, "Jowa")
	wantCode(t, "unknown name", err, tengen.ENOTFOUND)
	if got != nil {
		t.Errorf("unknown name returned user %+v", got)
	}
}

func testSessions(t *testing.T, b *Backend) {
	ctx := context.Background()
	u := mustUser(t, b.Services, "Genan")
	exp := time.Now().Add(time.Hour)
	s, err := b.Sessions.CreateSession(ctx, u.ID, exp)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Token) < 32 || s.UserID != u.ID {
		t.Fatalf("CreateSession = %+v", s)
	}
	s2, err := b.Sessions.CreateSession(ctx, u.ID, exp)
	if err != nil {
		t.Fatal(err)
	}
	if s2.Token == s.Token {
		t.Fatal("two sessions share a token")
	}
	got, err := b.Sessions.FindSession(ctx, s.Token)
	if err != nil {
		t.Fatal(err)
	}
	if got.UserID != u.ID || got.ExpiresAt.Sub(exp).Abs() > time.Millisecond {
		t.Errorf("FindSession = %+v, want user %d expiring %v", got, u.ID, exp)
	}
	got, err = b.Sessions.FindSession(ctx, "no-such-token")
	wantCode(t, "unknown token", err, tengen.ENOTFOUND)
	if got != nil {
		t.Errorf("unknown token returned %+v", got)
	}
	_, err = b.Sessions.CreateSession(ctx, 999999, exp)
	wantCode(t, "session for unknown user", err, tengen.ENOTFOUND)

	old, err := b.Sessions.CreateSession(ctx, u.ID, time.Now().Add(-time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	_, err = b.Sessions.FindSession(ctx, old.Token)
	wantCode(t, "expired session", err, tengen.ENOTFOUND)
	n, err := b.Sessions.DeleteExpiredSessions(ctx, time.Now())
	if err != nil || n != 1 {
		t.Errorf("DeleteExpiredSessions = %d, %v; want 1", n, err)
	}

	if err := b.Sessions.DeleteSession(ctx, s.Token); err != nil {
		t.Fatal(err)
	}
	_, err = b.Sessions.FindSession(ctx, s.Token)
	wantCode(t, "deleted session", err, tengen.ENOTFOUND)
	if err := b.Sessions.DeleteSession(ctx, s.Token); err != nil {
		t.Errorf("deleting twice: %v", err)
	}
	if _, err := b.Sessions.FindSession(ctx, s2.Token); err != nil {
		t.Errorf("other session gone after logout: %v", err)
	}
}

func testChallenges(t *testing.T, b *Backend) {
	ctx := context.Background()
	alice, bob, carol := mustUser(t, b.Services, "alice"), mustUser(t, b.Services, "bob"), mustUser(t, b.Services, "carol")

	k := 0.5
	set := settings19()
	set.Ruleset, set.Komi, set.Handicap, set.FreeHandicap, set.Color = "chinese", &k, 4, true, tengen.ChooseWhite
	open := mustChallenge(t, b.Services, &tengen.Challenge{ChallengerID: alice.ID, Settings: set})
	if open.ID == 0 || open.Status != tengen.ChallengeOpen || open.Challenger == nil || open.Challenger.Name != "alice" {
		t.Fatalf("CreateChallenge = %+v", open)
	}
	corr := settings19()
	corr.BoardSize, corr.Ruleset, corr.Color = 9, "chinese", tengen.ChooseWhite
	corr.TimeControl = clock.CorrespondenceDays(3, 14)
	direct := mustChallenge(t, b.Services, &tengen.Challenge{ChallengerID: alice.ID, OpponentID: bob.ID, Settings: corr})

	got, err := b.Challenges.FindChallengeByID(ctx, open.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Settings, set) {
		t.Errorf("settings round trip:\n got %+v\nwant %+v", got.Settings, set)
	}
	got, err = b.Challenges.FindChallengeByID(ctx, direct.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Settings, corr) || got.Settings.Komi != nil {
		t.Errorf("settings round trip:\n got %+v\nwant %+v", got.Settings, corr)
	}
	if got.OpponentID != bob.ID || got.Opponent == nil || got.Opponent.Name != "bob" {
		t.Errorf("direct challenge opponent = %d %+v", got.OpponentID, got.Opponent)
	}

	bad := settings19()
	bad.BoardSize = 26
	err = b.Challenges.CreateChallenge(ctx, &tengen.Challenge{ChallengerID: alice.ID, Settings: bad})
	wantCode(t, "board size 26", err, tengen.EINVALID)
	err = b.Challenges.CreateChallenge(ctx, &tengen.Challenge{ChallengerID: alice.ID, OpponentID: alice.ID, Settings: settings19()})
	wantCode(t, "challenge yourself", err, tengen.EINVALID)
	err = b.Challenges.CreateChallenge(ctx, &tengen.Challenge{ChallengerID: alice.ID, OpponentID: 999999, Settings: settings19()})
	wantCode(t, "unknown opponent", err, tengen.ENOTFOUND)
	_, err = b.Challenges.FindChallengeByID(ctx, 999999)
	wantCode(t, "unknown challenge", err, tengen.ENOTFOUND)

	ids := func(cs []*tengen.Challenge) []int64 {
		var out []int64
		for _, c := range cs {
			out = append(out, c.ID)
		}
		return out
	}
	for _, tt := range []struct {
		user  *tengen.User
		want  []int64
		label string
	}{
		{alice, []int64{direct.ID, open.ID}, "challenger sees both"},
		{bob, []int64{direct.ID, open.ID}, "opponent sees both"},
		{carol, []int64{open.ID}, "third user sees the open one"},
	} {
		cs, n, err := b.Challenges.FindChallenges(ctx, tengen.ChallengeFilter{VisibleTo: &tt.user.ID})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(ids(cs), tt.want) || n != len(tt.want) {
			t.Errorf("%s: got %v (total %d), want %v", tt.label, ids(cs), n, tt.want)
		}
	}
	cs, n, err := b.Challenges.FindChallenges(ctx, tengen.ChallengeFilter{UserID: &bob.ID})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(ids(cs), []int64{direct.ID}) || n != 1 {
		t.Errorf("challenges involving bob: %v (total %d), want [%d]", ids(cs), n, direct.ID)
	}
	var anonymous int64
	cs, _, err = b.Challenges.FindChallenges(ctx, tengen.ChallengeFilter{VisibleTo: &anonymous})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(ids(cs), []int64{open.ID}) {
		t.Errorf("anonymous visitor sees %v, want [%d]", ids(cs), open.ID)
	}
	cs, n, err = b.Challenges.FindChallenges(ctx, tengen.ChallengeFilter{Limit: 1, Offset: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(ids(cs), []int64{open.ID}) || n != 2 {
		t.Errorf("page 2 of 1: got %v (total %d), want [%d] (total 2)", ids(cs), n, open.ID)
	}
}

func testCancelChallenge(t *testing.T, b *Backend) {
	ctx := context.Background()
	alice, bob, carol := mustUser(t, b.Services, "alice"), mustUser(t, b.Services, "bob"), mustUser(t, b.Services, "carol")
	c1 := mustChallenge(t, b.Services, &tengen.Challenge{ChallengerID: alice.ID, OpponentID: bob.ID, Settings: settings19()})
	c2 := mustChallenge(t, b.Services, &tengen.Challenge{ChallengerID: alice.ID, OpponentID: bob.ID, Settings: settings19()})

	_, err := b.Challenges.CancelChallenge(ctx, c1.ID, carol.ID)
	wantCode(t, "cancel by a third user", err, tengen.EFORBIDDEN)
	got, err := b.Challenges.CancelChallenge(ctx, c1.ID, alice.ID)
	if err != nil || got.Status != tengen.ChallengeCancelled {
		t.Errorf("cancel by challenger = %+v, %v", got, err)
	}
	got, err = b.Challenges.CancelChallenge(ctx, c2.ID, bob.ID)
	if err != nil || got.Status != tengen.ChallengeDeclined {
		t.Errorf("cancel by opponent = %+v, %v", got, err)
	}
	_, err = b.Challenges.CancelChallenge(ctx, c1.ID, alice.ID)
	wantCode(t, "cancel twice", err, tengen.ECONFLICT)
	_, err = b.Games.CreateGameFromChallenge(ctx, c1.ID, bob.ID, nil)
	wantCode(t, "accept cancelled", err, tengen.ECONFLICT)
	_, err = b.Challenges.CancelChallenge(ctx, 999999, alice.ID)
	wantCode(t, "cancel unknown", err, tengen.ENOTFOUND)

	st := tengen.ChallengeOpen
	cs, _, err := b.Challenges.FindChallenges(ctx, tengen.ChallengeFilter{Status: &st})
	if err != nil || len(cs) != 0 {
		t.Errorf("open challenges after cancelling all: %d, %v", len(cs), err)
	}
}

// testOpenChallengeCap: a user has at most MaxOpenChallenges open
// challenges, also when the requests come in parallel; withdrawn and
// accepted challenges do not count, nor other users' challenges.
func testOpenChallengeCap(t *testing.T, b *Backend) {
	ctx := context.Background()
	alice, bob := mustUser(t, b.Services, "alice"), mustUser(t, b.Services, "bob")
	const tries = 3 * tengen.MaxOpenChallenges
	errs := make(chan error, tries)
	var wg sync.WaitGroup
	for range tries {
		wg.Go(func() {
			errs <- b.Challenges.CreateChallenge(ctx, &tengen.Challenge{ChallengerID: alice.ID, Settings: settings19()})
		})
	}
	wg.Wait()
	close(errs)
	created := 0
	for err := range errs {
		switch tengen.ErrorCode(err) {
		case "":
			created++
		case tengen.ECONFLICT:
		default:
			t.Errorf("create: %v", err)
		}
	}
	if created != tengen.MaxOpenChallenges {
		t.Fatalf("%d open challenges created, want %d", created, tengen.MaxOpenChallenges)
	}
	mustChallenge(t, b.Services, &tengen.Challenge{ChallengerID: bob.ID, OpponentID: alice.ID, Settings: settings19()})
	st := tengen.ChallengeOpen
	cs, _, err := b.Challenges.FindChallenges(ctx, tengen.ChallengeFilter{Status: &st, UserID: &alice.ID, Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	var withdraw, accept int64
	for _, c := range cs {
		if c.ChallengerID == alice.ID && withdraw == 0 {
			withdraw = c.ID
		} else if c.ChallengerID == alice.ID && accept == 0 {
			accept = c.ID
		}
	}
	if _, err := b.Challenges.CancelChallenge(ctx, withdraw, alice.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Games.CreateGameFromChallenge(ctx, accept, bob.ID, nil); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		mustChallenge(t, b.Services, &tengen.Challenge{ChallengerID: alice.ID, Settings: settings19()})
	}
	err = b.Challenges.CreateChallenge(ctx, &tengen.Challenge{ChallengerID: alice.ID, Settings: settings19()})
	wantCode(t, "one more than the cap", err, tengen.ECONFLICT)
}

func testAcceptChallenge(t *testing.T, b *Backend) {
	ctx := context.Background()
	alice, bob, carol := mustUser(t, b.Services, "alice"), mustUser(t, b.Services, "bob"), mustUser(t, b.Services, "carol")

	for _, tt := range []struct {
		choice       tengen.ColorChoice
		handicap     int
		black, white *tengen.User
		toMove       goban.Color
	}{
		{tengen.ChooseBlack, 0, alice, bob, goban.Black},
		{tengen.ChooseWhite, 0, bob, alice, goban.Black},
		{tengen.ChooseBlack, 3, alice, bob, goban.White},
	} {
		set := settings19()
		set.Color, set.Handicap = tt.choice, tt.handicap
		c := mustChallenge(t, b.Services, &tengen.Challenge{ChallengerID: alice.ID, Settings: set})
		g, err := b.Games.CreateGameFromChallenge(ctx, c.ID, bob.ID, nil)
		if err != nil {
			t.Fatal(err)
		}
		if g.BlackID != tt.black.ID || g.WhiteID != tt.white.ID || g.ToMove != tt.toMove || g.Status != tengen.GamePlaying || g.MoveCount != 0 {
			t.Errorf("%s handicap %d: game %+v", tt.choice, tt.handicap, g)
		}
		if g.Black == nil || g.Black.Name != tt.black.Name || g.White == nil || g.White.Name != tt.white.Name {
			t.Errorf("players not filled in: %+v %+v", g.Black, g.White)
		}
		got, err := b.Challenges.FindChallengeByID(ctx, c.ID)
		if err != nil || got.Status != tengen.ChallengeAccepted || got.GameID != g.ID {
			t.Errorf("challenge after accept = %+v, %v", got, err)
		}
		stored, err := b.Games.FindGameByID(ctx, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(stored.Settings, set) || stored.ChallengeID != c.ID {
			t.Errorf("stored game settings %+v, want %+v", stored.Settings, set)
		}
		_, err = b.Games.CreateGameFromChallenge(ctx, c.ID, carol.ID, nil)
		wantCode(t, "accept twice", err, tengen.ECONFLICT)
	}

	nigiri := settings19()
	nigiri.Color = tengen.ChooseNigiri
	c := mustChallenge(t, b.Services, &tengen.Challenge{ChallengerID: alice.ID, Settings: nigiri})
	g, err := b.Games.CreateGameFromChallenge(ctx, c.ID, carol.ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !(g.BlackID == alice.ID && g.WhiteID == carol.ID || g.BlackID == carol.ID && g.WhiteID == alice.ID) {
		t.Errorf("nigiri game players %d/%d, want alice and carol", g.BlackID, g.WhiteID)
	}

	own := mustChallenge(t, b.Services, &tengen.Challenge{ChallengerID: alice.ID, Settings: settings19()})
	_, err = b.Games.CreateGameFromChallenge(ctx, own.ID, alice.ID, nil)
	wantCode(t, "accept own", err, tengen.EFORBIDDEN)
	direct := mustChallenge(t, b.Services, &tengen.Challenge{ChallengerID: alice.ID, OpponentID: bob.ID, Settings: settings19()})
	_, err = b.Games.CreateGameFromChallenge(ctx, direct.ID, carol.ID, nil)
	wantCode(t, "accept someone else's", err, tengen.EFORBIDDEN)
	_, err = b.Games.CreateGameFromChallenge(ctx, 999999, carol.ID, nil)
	wantCode(t, "accept unknown", err, tengen.ENOTFOUND)
	_, err = b.Games.FindGameByID(ctx, 999999)
	wantCode(t, "unknown game", err, tengen.ENOTFOUND)
}

// testAppendMoves stores several moves at once, as Black's free handicap
// stones placed together are stored: all of them or, when one is refused,
// none.
func testAppendMoves(t *testing.T, b *Backend) {
	ctx := context.Background()
	black, white := mustUser(t, b.Services, "black"), mustUser(t, b.Services, "white")
	g := mustGame(t, b.Services, black, white, settings19())
	stones := func(seq int, pts ...int) []*tengen.GameMove {
		var ms []*tengen.GameMove
		for i := 0; i < len(pts); i += 2 {
			ms = append(ms, &tengen.GameMove{GameID: g.ID, Seq: seq + i/2, Color: goban.Black, Kind: tengen.MovePlay, X: pts[i], Y: pts[i+1]})
		}
		return ms
	}
	upd := tengen.GameUpdate{ToMove: goban.White, Status: tengen.GamePlaying}
	// A gap in the numbers refuses the whole batch.
	bad := stones(1, 3, 3, 15, 15)
	bad[1].Seq = 3
	_, err := b.Games.AppendMoves(ctx, black.ID, bad, upd)
	wantCode(t, "a gap in the batch", err, tengen.ECONFLICT)
	_, err = b.Games.AppendMoves(ctx, white.ID, stones(2, 3, 3), upd)
	wantCode(t, "a batch that does not follow the game", err, tengen.ECONFLICT)
	if moves, err := b.Games.FindMoves(ctx, g.ID, 0); err != nil || len(moves) != 0 {
		t.Fatalf("after refused batches: %d moves, %v; want none", len(moves), err)
	}
	got, err := b.Games.AppendMoves(ctx, black.ID, stones(1, 3, 3, 15, 15, 3, 15), upd)
	if err != nil {
		t.Fatal(err)
	}
	if got.MoveCount != 3 || got.ToMove != goban.White {
		t.Errorf("game after the batch: count %d, to move %s; want 3, white", got.MoveCount, got.ToMove)
	}
	moves, err := b.Games.FindMoves(ctx, g.ID, 0)
	if err != nil || len(moves) != 3 || moves[2].X != 3 || moves[2].Y != 15 || moves[0].Color != goban.Black {
		t.Fatalf("stored %d moves, %v", len(moves), err)
	}
	_, err = b.Games.AppendMoves(ctx, black.ID, nil, upd)
	wantCode(t, "an empty batch", err, tengen.EINVALID)
}

// testMoves checks the guards of AppendMove: the sequence number, the
// participants and finished games. The rules of Go (turns, the board's
// edge, the scoring phase) are package play's and not checked here.
func testMoves(t *testing.T, b *Backend) {
	ctx := context.Background()
	black, white, carol := mustUser(t, b.Services, "black"), mustUser(t, b.Services, "white"), mustUser(t, b.Services, "carol")
	g := mustGame(t, b.Services, black, white, settings19())

	steps := []struct {
		name     string
		user     *tengen.User
		seq      int
		kind     tengen.MoveKind
		x, y     int
		prevPass bool
		code     string
		status   tengen.GameStatus
	}{
		{"black plays", black, 1, tengen.MovePlay, 3, 15, false, "", tengen.GamePlaying},
		{"duplicate submission", black, 1, tengen.MovePlay, 3, 15, false, tengen.ECONFLICT, tengen.GamePlaying},
		{"stale submission", white, 1, tengen.MovePlay, 4, 4, false, tengen.ECONFLICT, tengen.GamePlaying},
		{"spectator", carol, 2, tengen.MovePlay, 4, 4, false, tengen.EFORBIDDEN, tengen.GamePlaying},
		{"gap in sequence", white, 3, tengen.MovePlay, 4, 4, false, tengen.ECONFLICT, tengen.GamePlaying},
		{"white plays", white, 2, tengen.MovePlay, 15, 3, false, "", tengen.GamePlaying},
		{"black passes", black, 3, tengen.MovePass, 0, 0, false, "", tengen.GamePlaying},
		{"white passes", white, 4, tengen.MovePass, 0, 0, true, "", tengen.GameScoring},
		{"black resigns in scoring", black, 5, tengen.MoveResign, 0, 0, false, "", tengen.GameFinished},
		{"move after the end", white, 6, tengen.MovePlay, 9, 9, false, tengen.ECONFLICT, tengen.GameFinished},
		{"resignation after the end", white, 6, tengen.MoveResign, 0, 0, false, tengen.ECONFLICT, tengen.GameFinished},
		{"duplicate of the last move after the end", black, 5, tengen.MoveResign, 0, 0, false, tengen.ECONFLICT, tengen.GameFinished},
	}
	count := 0
	for _, st := range steps {
		got, err := play(b.Services, g, st.user, st.seq, st.kind, st.x, st.y, st.prevPass)
		wantCode(t, st.name, err, st.code)
		if err == nil {
			count++
			if got.MoveCount != count || got.Status != st.status {
				t.Errorf("%s: game after move = count %d status %s, want %d %s", st.name, got.MoveCount, got.Status, count, st.status)
			}
		} else if got != nil {
			t.Errorf("%s: failed move returned game %+v", st.name, got)
		}
		stored, err := b.Games.FindGameByID(ctx, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		if stored.MoveCount != count || stored.Status != st.status {
			t.Errorf("%s: stored game count %d status %s, want %d %s", st.name, stored.MoveCount, stored.Status, count, st.status)
		}
	}
	final, err := b.Games.FindGameByID(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if final.Result != "W+R" {
		t.Errorf("result %q, want W+R", final.Result)
	}

	moves, err := b.Games.FindMoves(ctx, g.ID, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"1 black play 3,15", "2 white play 15,3", "3 black pass 0,0", "4 white pass 0,0", "5 black resign 0,0"}
	if len(moves) != len(want) {
		t.Fatalf("FindMoves: %d moves, want %d", len(moves), len(want))
	}
	for i, m := range moves {
		if s := fmt.Sprintf("%d %s %s %d,%d", m.Seq, m.Color, m.Kind, m.X, m.Y); s != want[i] {
			t.Errorf("move %d = %s, want %s", i, s, want[i])
		}
		if m.TimeUsed != 1500*time.Millisecond || m.GameID != g.ID || m.CreatedAt.IsZero() {
			t.Errorf("move %d: time used %v, game %d, created %v", i, m.TimeUsed, m.GameID, m.CreatedAt)
		}
	}
	tail, err := b.Games.FindMoves(ctx, g.ID, 3)
	if err != nil || len(tail) != 2 || tail[0].Seq != 4 {
		t.Errorf("FindMoves after 3 = %d moves, %v", len(tail), err)
	}
	_, err = b.Games.FindMoves(ctx, 999999, 0)
	wantCode(t, "moves of unknown game", err, tengen.ENOTFOUND)
	// Malformed moves and updates: see testMalformed.
}

func testConcurrentDuplicateMoves(t *testing.T, b *Backend) {
	black, white := mustUser(t, b.Services, "black"), mustUser(t, b.Services, "white")
	g := mustGame(t, b.Services, black, white, settings19())
	const n = 16
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = play(b.Services, g, black, 1, tengen.MovePlay, i, i, false)
		}()
	}
	wg.Wait()
	ok := 0
	for _, err := range errs {
		switch tengen.ErrorCode(err) {
		case "":
			ok++
		case tengen.ECONFLICT:
		default:
			t.Errorf("concurrent submission: %v", err)
		}
	}
	if ok != 1 {
		t.Errorf("%d of %d concurrent submissions of move 1 succeeded, want exactly 1", ok, n)
	}
	moves, err := b.Games.FindMoves(context.Background(), g.ID, 0)
	if err != nil || len(moves) != 1 {
		t.Errorf("stored moves: %d, %v; want 1", len(moves), err)
	}
}

func testGamesYourTurnFirst(t *testing.T, b *Backend) {
	ctx := context.Background()
	me, a, c := mustUser(t, b.Services, "myself"), mustUser(t, b.Services, "opp1"), mustUser(t, b.Services, "opp2")
	// Created in this order, so without the turn rule the newest comes first.
	gMyTurn := mustGame(t, b.Services, me, a, settings19())    // me Black, Black to move
	gTheirTurn := mustGame(t, b.Services, a, me, settings19()) // me White, Black to move
	gOther := mustGame(t, b.Services, a, c, settings19())
	gFinished := mustGame(t, b.Services, me, c, settings19())
	if _, err := play(b.Services, gFinished, me, 1, tengen.MoveResign, 0, 0, false); err != nil {
		t.Fatal(err)
	}
	gs, n, err := b.Games.FindGames(ctx, tengen.GameFilter{UserID: &me.ID})
	if err != nil {
		t.Fatal(err)
	}
	var got []int64
	for _, g := range gs {
		got = append(got, g.ID)
	}
	want := []int64{gMyTurn.ID, gFinished.ID, gTheirTurn.ID}
	if !reflect.DeepEqual(got, want) || n != 3 {
		t.Errorf("my games = %v (total %d), want %v", got, n, want)
	}
	gs, _, err = b.Games.FindGames(ctx, tengen.GameFilter{UserID: &me.ID, Status: []tengen.GameStatus{tengen.GamePlaying, tengen.GameScoring}})
	if err != nil || len(gs) != 2 || gs[0].ID != gMyTurn.ID {
		t.Errorf("my running games = %d, %v", len(gs), err)
	}
	gs, n, err = b.Games.FindGames(ctx, tengen.GameFilter{Limit: 2})
	if err != nil || len(gs) != 2 || n != 4 {
		t.Errorf("all games, limit 2: %d of %d, %v", len(gs), n, err)
	}
	_ = gOther
}

func testDurability(t *testing.T, b *Backend) {
	if b.Reopen == nil {
		t.Skip("backend cannot be reopened")
	}
	ctx := context.Background()
	black, white := mustUser(t, b.Services, "black"), mustUser(t, b.Services, "white")
	g := mustGame(t, b.Services, black, white, settings19())
	sess, err := b.Sessions.CreateSession(ctx, black.ID, time.Now().Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	players := []*tengen.User{black, white}
	for i := 1; i <= 20; i++ {
		if _, err := play(b.Services, g, players[(i-1)%2], i, tengen.MovePlay, i%19, i/19, false); err != nil {
			t.Fatalf("move %d: %v", i, err)
		}
	}

	s := b.Reopen(t)
	got, err := s.Games.FindGameByID(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.MoveCount != 20 || got.ToMove != goban.Black {
		t.Errorf("after reopen: count %d to move %s, want 20 black", got.MoveCount, got.ToMove)
	}
	moves, err := s.Games.FindMoves(ctx, g.ID, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(moves) != 20 || moves[19].X != 20%19 || moves[19].Y != 1 {
		t.Errorf("after reopen: %d moves", len(moves))
	}
	if _, err := s.Sessions.FindSession(ctx, sess.Token); err != nil {
		t.Errorf("session lost on reopen: %v", err)
	}
	// The reopened store keeps accepting moves, and ids do not repeat.
	if _, err := play(s, got, black, 21, tengen.MovePass, 0, 0, false); err != nil {
		t.Errorf("move after reopen: %v", err)
	}
	u := mustUser(t, s, "newcomer")
	if u.ID == black.ID || u.ID == white.ID {
		t.Errorf("id %d reused after reopen", u.ID)
	}
}

// testBotUsers checks the bot flag: stored, returned by both finders and in
// the players of a game, and false for ordinary users.
func testBotUsers(t *testing.T, b *Backend) {
	ctx := context.Background()
	bot := &tengen.User{Name: "Tengen-beginner", PasswordHash: "!", Bot: true}
	if err := b.Users.CreateUser(ctx, bot); err != nil {
		t.Fatal(err)
	}
	human := mustUser(t, b.Services, "Honinbo")
	for _, u := range []*tengen.User{bot, human} {
		got, err := b.Users.FindUserByID(ctx, u.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.Bot != u.Bot {
			t.Errorf("FindUserByID(%s).Bot = %v, want %v", u.Name, got.Bot, u.Bot)
		}
		got, err = b.Users.FindUserByName(ctx, u.Name)
		if err != nil {
			t.Fatal(err)
		}
		if got.Bot != u.Bot {
			t.Errorf("FindUserByName(%s).Bot = %v, want %v", u.Name, got.Bot, u.Bot)
		}
	}
	g := mustGame(t, b.Services, human, bot, settings19())
	got, err := b.Games.FindGameByID(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Black == nil || got.White == nil || got.Black.Bot || !got.White.Bot {
		t.Errorf("game players Black %+v White %+v, want the human and the bot", got.Black, got.White)
	}
}

// testClock returns a running game clock of ten minutes sudden death, as
// play stores one.
func testClock(t *testing.T) *clock.GameClock {
	t.Helper()
	c, err := clock.NewGameClock(clock.AbsoluteTime(10 * time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(clock.Black, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	return c
}
