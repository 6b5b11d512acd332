package storagetest

import (
	"context"
	"fmt"
	"math"
	"sync"
	"testing"

	"tengen"
	"tengen/goban"
	"tengen/internal/rating"
)

// near reports whether a and b agree to the precision of stored doubles.
func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// wantRating fails unless the stored user has rating r.
func wantRating(t *testing.T, s Services, what string, id int64, r rating.Rating) {
	t.Helper()
	u, err := s.Users.FindUserByID(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if !near(u.Rating, r.Rating) || !near(u.Deviation, r.Deviation) {
		t.Errorf("%s: rating %v ± %v, want %v ± %v", what, u.Rating, u.Deviation, r.Rating, r.Deviation)
	}
	if want := r.RankString(); u.Rank != want {
		t.Errorf("%s: rank %q, want %q", what, u.Rank, want)
	}
}

// glicko2 is the update the backend must apply: the game as a rating
// period of its own.
func glicko2(t *testing.T, me, them rating.Rating, score float64) rating.Rating {
	t.Helper()
	r, err := rating.System{}.Update(me, []rating.Result{{Opponent: them, Score: score}})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// finish ends g, by Black's resignation when result is W+R and by an update
// without a move otherwise (a count, a timeout, a forfeit, a void).
func finish(s Services, g *tengen.Game, black *tengen.User, result string) (*tengen.Game, error) {
	if result == "W+R" {
		m := &tengen.GameMove{GameID: g.ID, Seq: g.MoveCount + 1, Kind: tengen.MoveResign}
		return s.Games.AppendMove(context.Background(), black.ID, m, tengen.GameUpdate{ToMove: goban.White, Status: tengen.GameFinished, Result: result})
	}
	return s.Games.UpdateGame(context.Background(), g.ID, g.MoveCount, tengen.GameUpdate{ToMove: g.ToMove, Status: tengen.GameFinished, Result: result})
}

func ratedSettings() tengen.GameSettings {
	set := settings19()
	set.Rated = true
	return set
}

// testRatings checks starting ratings, that every way of winning or drawing
// a rated game rates both players by Glicko-2 with a history row each, and
// that unrated games and void results rate nobody.
func testRatings(t *testing.T, b *Backend) {
	ctx := context.Background()
	fresh := mustUser(t, b.Services, "Fresh")
	wantRating(t, b.Services, "new user", fresh.ID, rating.New())
	if fresh.Rank != "6k?" || fresh.Rating != rating.DefaultRating {
		t.Errorf("CreateUser set rating %v rank %q, want 1500 6k?", fresh.Rating, fresh.Rank)
	}
	declared := &tengen.User{Name: "Declared", PasswordHash: "h", Rank: "12k"}
	if err := b.Users.CreateUser(ctx, declared); err != nil {
		t.Fatal(err)
	}
	wantRating(t, b.Services, "declared 12k", declared.ID, rating.NewAt(rating.Kyu(12)))
	if declared.Rank != "12k?" {
		t.Errorf("declared 12k: CreateUser set rank %q", declared.Rank)
	}
	err := b.Users.CreateUser(ctx, &tengen.User{Name: "Boaster", PasswordHash: "h", Rank: "12p"})
	wantCode(t, "starting rank 12p", err, tengen.EINVALID)

	tests := []struct {
		result string
		rated  bool
		score  float64 // Black's
	}{
		{"W+R", true, rating.Loss},
		{"B+3.5", true, rating.Win},
		{"W+T", true, rating.Loss},
		{"B+F", true, rating.Win},
		{"0", true, rating.Jigo},
		{"Void", true, 0},
		{"B+R", false, 0},
	}
	for i, tt := range tests {
		black := mustUser(t, b.Services, fmt.Sprintf("black%d", i))
		white := &tengen.User{Name: fmt.Sprintf("white%d", i), PasswordHash: "h", Rank: "3k"}
		if err := b.Users.CreateUser(ctx, white); err != nil {
			t.Fatal(err)
		}
		set := settings19()
		set.Rated = tt.rated
		g := mustGame(t, b.Services, black, white, set)
		if g.Settings.Rated != tt.rated {
			t.Errorf("%s: created game Rated = %v", tt.result, g.Settings.Rated)
		}
		oldB, oldW := rating.New(), rating.NewAt(rating.Kyu(3))
		got, err := finish(b.Services, g, black, tt.result)
		if err != nil {
			t.Fatalf("%s: %v", tt.result, err)
		}
		newB, newW := oldB, oldW
		rates := tt.rated && tt.result != "Void"
		if rates {
			newB, newW = glicko2(t, oldB, oldW, tt.score), glicko2(t, oldW, oldB, 1-tt.score)
		}
		what := fmt.Sprintf("%s (rated %v)", tt.result, tt.rated)
		wantRating(t, b.Services, what+": Black", black.ID, newB)
		wantRating(t, b.Services, what+": White", white.ID, newW)
		if got.Black == nil || !near(got.Black.Rating, newB.Rating) || got.White == nil || !near(got.White.Rating, newW.Rating) {
			t.Errorf("%s: the returned game's players %+v, %+v do not carry the new ratings", what, got.Black, got.White)
		}
		stored, err := b.Games.FindGameByID(ctx, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		if stored.Settings.Rated != tt.rated || stored.Result != tt.result {
			t.Errorf("%s: stored game Rated %v result %q", what, stored.Settings.Rated, stored.Result)
		}
		for _, p := range []struct {
			id       int64
			old, new rating.Rating
		}{{black.ID, oldB, newB}, {white.ID, oldW, newW}} {
			h, err := b.Ratings.FindRatingHistory(ctx, p.id, 0)
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case !rates && len(h) != 0:
				t.Errorf("%s: history %+v, want none", what, h[0])
			case rates && len(h) != 1:
				t.Errorf("%s: %d history rows, want 1", what, len(h))
			case rates:
				c := h[0]
				if c.GameID != g.ID || c.UserID != p.id || !near(c.Rating, p.new.Rating) || !near(c.Deviation, p.new.Deviation) ||
					!near(c.RatingBefore, p.old.Rating) || !near(c.DeviationBefore, p.old.Deviation) || c.Rank != p.new.RankString() || c.CreatedAt.IsZero() {
					t.Errorf("%s: history %+v, want %v after %v", what, c, p.new, p.old)
				}
			}
		}
	}
	// Each white player of the table won, lost or drew one game, rated
	// or not; the void game counts as nothing.
	for i, tt := range tests {
		white, err := b.Users.FindUserByName(ctx, fmt.Sprintf("white%d", i))
		if err != nil {
			t.Fatal(err)
		}
		var want tengen.Record
		switch {
		case tt.result == "Void":
		case tt.result == "0":
			want.Draws = 1
		case tt.result[0] == 'W':
			want.Wins = 1
		default:
			want.Losses = 1
		}
		if got, err := b.Ratings.FindRecord(ctx, white.ID); err != nil || got != want {
			t.Errorf("record of the white player of %s: %+v, %v; want %+v", tt.result, got, err, want)
		}
	}
	c := mustChallenge(t, b.Services, &tengen.Challenge{ChallengerID: fresh.ID, Settings: ratedSettings()})
	if got, err := b.Challenges.FindChallengeByID(ctx, c.ID); err != nil || !got.Settings.Rated {
		t.Errorf("stored challenge: %+v, %v; want rated", got, err)
	}
	_, err = b.Ratings.FindRatingHistory(ctx, 99999, 0)
	wantCode(t, "history of an unknown user", err, tengen.ENOTFOUND)
}

// testRatingAnchors checks bots: without an anchor a bot has no rank and
// its games rate nobody; with one its rating stays where the anchor put it
// while its opponents' move.
func testRatingAnchors(t *testing.T, b *Backend) {
	ctx := context.Background()
	bot := &tengen.User{Name: "Tengen-club", PasswordHash: "!", Bot: true}
	if err := b.Users.CreateUser(ctx, bot); err != nil {
		t.Fatal(err)
	}
	human := mustUser(t, b.Services, "Human")
	if u, _ := b.Users.FindUserByID(ctx, bot.ID); u.Rank != "" || bot.Rank != "" {
		t.Errorf("bot without anchor: rank %q (CreateUser %q), want none", u.Rank, bot.Rank)
	}
	g := mustGame(t, b.Services, human, bot, ratedSettings())
	if _, err := finish(b.Services, g, human, "B+R"); err != nil {
		t.Fatal(err)
	}
	wantRating(t, b.Services, "after beating a bot without anchor", human.ID, rating.New())

	wantCode(t, "anchoring a person", b.Ratings.SetAnchor(ctx, human.ID, "5k"), tengen.EINVALID)
	wantCode(t, "anchor 40k", b.Ratings.SetAnchor(ctx, bot.ID, "40k"), tengen.EINVALID)
	wantCode(t, "anchoring nobody", b.Ratings.SetAnchor(ctx, 99999, "5k"), tengen.ENOTFOUND)
	if err := b.Ratings.SetAnchor(ctx, bot.ID, "13 kyu"); err != nil {
		t.Fatal(err)
	}
	anchored, err := b.Users.FindUserByID(ctx, bot.ID)
	if err != nil {
		t.Fatal(err)
	}
	if anchored.Rank != "13k" || !near(anchored.Rating, rating.Kyu(13).Rating()) {
		t.Errorf("anchored bot: %v %q, want the middle of 13k", anchored.Rating, anchored.Rank)
	}
	botR := rating.Rating{Rating: anchored.Rating, Deviation: anchored.Deviation, Volatility: rating.DefaultVolatility}
	humanR := rating.New()
	for i := range 3 {
		g := mustGame(t, b.Services, human, bot, ratedSettings())
		if _, err := finish(b.Services, g, human, "W+R"); err != nil {
			t.Fatal(err)
		}
		humanR = glicko2(t, humanR, botR, rating.Loss)
		wantRating(t, b.Services, fmt.Sprintf("human after loss %d to the anchored bot", i+1), human.ID, humanR)
	}
	if u, _ := b.Users.FindUserByID(ctx, bot.ID); !near(u.Rating, anchored.Rating) || !near(u.Deviation, anchored.Deviation) || u.Rank != "13k" {
		t.Errorf("anchored bot moved: %v ± %v %q", u.Rating, u.Deviation, u.Rank)
	}
	if h, err := b.Ratings.FindRatingHistory(ctx, bot.ID, 0); err != nil || len(h) != 0 {
		t.Errorf("anchored bot's history: %d rows, %v; want none", len(h), err)
	}
	if h, err := b.Ratings.FindRatingHistory(ctx, human.ID, 2); err != nil || len(h) != 2 || !near(h[0].Rating, humanR.Rating) {
		t.Errorf("human's last two changes: %+v, %v; want the latest first", h, err)
	}
	if err := b.Ratings.SetAnchor(ctx, bot.ID, ""); err != nil {
		t.Fatal(err)
	}
	if u, _ := b.Users.FindUserByID(ctx, bot.ID); u.Rank != "" {
		t.Errorf("bot after removing the anchor: rank %q", u.Rank)
	}
}

// testRatingRollback makes the rating write fail and checks that the
// result is not stored either: result and ratings commit together or not at
// all.
func testRatingRollback(t *testing.T, b *Backend) {
	if b.FailRatings == nil {
		t.Skip("the backend cannot make a rating write fail")
	}
	ctx := context.Background()
	black, white := mustUser(t, b.Services, "black"), mustUser(t, b.Services, "white")
	g := mustGame(t, b.Services, black, white, ratedSettings())
	b.FailRatings(true)
	for _, result := range []string{"W+R", "B+T"} {
		if _, err := finish(b.Services, g, black, result); err == nil {
			t.Fatalf("%s: finishing with a failing rating write succeeded", result)
		}
		got, err := b.Games.FindGameByID(ctx, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.Status != tengen.GamePlaying || got.Result != "" || got.MoveCount != 0 {
			t.Errorf("%s: game after the failed rating: %s %q move %d, want unchanged", result, got.Status, got.Result, got.MoveCount)
		}
		if moves, err := b.Games.FindMoves(ctx, g.ID, 0); err != nil || len(moves) != 0 {
			t.Errorf("%s: moves after the failed rating: %d, %v", result, len(moves), err)
		}
	}
	wantRating(t, b.Services, "black after the failed rating", black.ID, rating.New())
	b.FailRatings(false)
	if _, err := finish(b.Services, g, black, "W+R"); err != nil {
		t.Fatal(err)
	}
	wantRating(t, b.Services, "black after the rating", black.ID, glicko2(t, rating.New(), rating.New(), rating.Loss))
	if b.Reopen != nil {
		s := b.Reopen(t)
		wantRating(t, s, "black after reopening", black.ID, glicko2(t, rating.New(), rating.New(), rating.Loss))
	}
}

// testConcurrentRatings ends many rated games of one player at the same
// instant: each must count once, every update starting from the rating the
// one before left.
func testConcurrentRatings(t *testing.T, b *Backend) {
	ctx := context.Background()
	star := mustUser(t, b.Services, "star")
	const n = 8
	games := make([]*tengen.Game, n)
	opps := make([]*tengen.User, n)
	for i := range games {
		opps[i] = mustUser(t, b.Services, fmt.Sprintf("opponent%d", i))
		games[i] = mustGame(t, b.Services, star, opps[i], ratedSettings())
	}
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i, g := range games {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = finish(b.Services, g, star, "B+3.5")
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("game %d: %v", i, err)
		}
	}
	h, err := b.Ratings.FindRatingHistory(ctx, star.ID, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(h) != n {
		t.Fatalf("%d history rows, want %d", len(h), n)
	}
	// The rows form one chain from the starting rating, in some order:
	// each update began from the rating another ended with.
	r := rating.New()
	used := map[int]bool{}
	for range n {
		next := -1
		for i, c := range h {
			if !used[i] && near(c.RatingBefore, r.Rating) && near(c.DeviationBefore, r.Deviation) {
				next = i
				break
			}
		}
		if next < 0 {
			t.Fatalf("no update starts from %v ± %v: %d of %d chained", r.Rating, r.Deviation, len(used), n)
		}
		used[next] = true
		r = rating.Rating{Rating: h[next].Rating, Deviation: h[next].Deviation}
	}
	u, err := b.Users.FindUserByID(ctx, star.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !near(u.Rating, r.Rating) || u.Rating <= rating.DefaultRating {
		t.Errorf("star's rating %v, want the end of the chain %v", u.Rating, r.Rating)
	}
	// Each opponent lost to the star as the star stood in that game.
	for i, o := range opps {
		for _, c := range h {
			if c.GameID == games[i].ID {
				starThen := rating.Rating{Rating: c.RatingBefore, Deviation: c.DeviationBefore, Volatility: rating.DefaultVolatility}
				wantRating(t, b.Services, fmt.Sprintf("opponent %d", i), o.ID, glicko2(t, rating.New(), starThen, rating.Loss))
			}
		}
	}
}
