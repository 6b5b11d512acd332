package play

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"

	"tengen"
	"tengen/clock"
	"tengen/goban"
	"tengen/sqlite"
)

// TestStoredMatchesLive checks what a bot worker of an instance that does
// not hold a game reads (Service.stored): the game replayed from storage
// must ask the bot what the live game would ask, in play and in the
// scoring phase.
func TestStoredMatchesLive(t *testing.T) {
	ctx := context.Background()
	db := sqlite.NewDB(filepath.Join(t.TempDir(), "tengen.db"))
	if err := db.Open(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	var mu sync.Mutex // guards now
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	clockNow := func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		return now
	}
	advance := func(d time.Duration) {
		mu.Lock()
		now = now.Add(d)
		mu.Unlock()
	}
	db.Now = clockNow
	users, challenges := sqlite.NewUserService(db), sqlite.NewChallengeService(db)
	black, white := &tengen.User{Name: "black", PasswordHash: "x"}, &tengen.User{Name: "white", PasswordHash: "x"}
	for _, u := range []*tengen.User{black, white} {
		if err := users.CreateUser(ctx, u); err != nil {
			t.Fatal(err)
		}
	}
	s := New(Config{Games: sqlite.NewGameService(db), Users: users, Challenges: challenges, Now: clockNow, CheckpointEvery: -1,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err := s.Open(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	tc := clock.TimeControl{Kind: clock.ByoYomi, MainTime: 10 * time.Minute, Periods: 3, PeriodTime: 30 * time.Second}
	c := &tengen.Challenge{ChallengerID: black.ID, Settings: tengen.GameSettings{BoardSize: 9, Ruleset: "japanese", Color: tengen.ChooseBlack, TimeControl: tc}}
	if err := challenges.CreateChallenge(ctx, c); err != nil {
		t.Fatal(err)
	}
	g, err := s.CreateGame(ctx, c.ID, white.ID)
	if err != nil {
		t.Fatal(err)
	}
	play := func(seq int, kind tengen.MoveKind, x, y int) {
		t.Helper()
		advance(7 * time.Second)
		uid := black.ID
		if seq%2 == 0 {
			uid = white.ID
		}
		if _, err := s.Do(ctx, g.ID, uid, tengen.Command{Kind: tengen.CommandMove, Move: tengen.MoveCommand{Seq: seq, Kind: kind, X: x, Y: y}}); err != nil {
			t.Fatalf("move %d: %v", seq, err)
		}
	}
	compare := func(what string) {
		t.Helper()
		advance(3 * time.Second) // the player to move thinks
		stored, err := s.stored(ctx, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		lg, err := s.lock(ctx, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		defer s.unlock(lg)
		if stored.g.MoveCount != lg.g.MoveCount || stored.g.Status != lg.g.Status || len(stored.moves) != len(lg.moves) {
			t.Fatalf("%s: stored game %d moves %s, live %d %s", what, stored.g.MoveCount, stored.g.Status, lg.g.MoveCount, lg.g.Status)
		}
		if !slices.Equal(stored.rec.Dead, lg.rec.Dead) || stored.rec.ProposalSeq != lg.rec.ProposalSeq {
			t.Errorf("%s: stored proposal %d %v, live %d %v", what, stored.rec.ProposalSeq, stored.rec.Dead, lg.rec.ProposalSeq, lg.rec.Dead)
		}
		for _, c := range []goban.Color{goban.Black, goban.White} {
			sr, lr := s.botRequest(stored, c), s.botRequest(lg, c)
			if sr.Game.Board().String() != lr.Game.Board().String() || sr.Game.ToMove() != lr.Game.ToMove() ||
				sr.Game.Captures(goban.Black) != lr.Game.Captures(goban.Black) || sr.Game.Captures(goban.White) != lr.Game.Captures(goban.White) {
				t.Errorf("%s: stored position\n%s\nlive\n%s", what, sr.Game.Board(), lr.Game.Board())
			}
			if !reflect.DeepEqual(sr.State, lr.State) || !reflect.DeepEqual(sr.OpponentState, lr.OpponentState) || sr.Time != lr.Time {
				t.Errorf("%s, %s's request: stored clock %+v %+v, live %+v %+v", what, c, sr.State, sr.OpponentState, lr.State, lr.OpponentState)
			}
			if len(sr.Moves) != len(lr.Moves) || sr.Settings.BoardSize != lr.Settings.BoardSize {
				t.Errorf("%s: stored request %d moves, live %d", what, len(sr.Moves), len(lr.Moves))
			}
			// A ko the live game forbids, the stored one forbids too.
			for y := range 9 {
				for x := range 9 {
					m := goban.PlayAt(sr.Game.ToMove(), goban.Point{X: x, Y: y})
					if (sr.Game.Legal(m) == nil) != (lr.Game.Legal(m) == nil) {
						t.Errorf("%s: %v is legal stored: %v, live: %v", what, m, sr.Game.Legal(m), lr.Game.Legal(m))
					}
				}
			}
		}
	}
	// A ko: Black takes at E5 (4,4) and White may not take back at once.
	for i, p := range [][2]int{{3, 4}, {4, 4}, {4, 3}, {5, 3}, {4, 5}, {5, 5}, {8, 8}, {6, 4}, {5, 4}} {
		play(i+1, tengen.MovePlay, p[0], p[1])
	}
	if lg, err := s.lock(ctx, g.ID); err != nil {
		t.Fatal(err)
	} else {
		ko := lg.pos.gb.Legal(goban.PlayAt(goban.White, goban.Point{X: 4, Y: 4}))
		s.unlock(lg)
		if ko == nil {
			t.Fatal("White may take back the ko at once; the test's position is wrong")
		}
	}
	compare("after a ko capture")
	play(10, tengen.MovePass, 0, 0)
	play(11, tengen.MovePass, 0, 0)
	compare("in the scoring phase")
}
