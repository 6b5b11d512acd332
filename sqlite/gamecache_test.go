package sqlite_test

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"testing"

	"tengen"
	"tengen/clock"
	"tengen/goban"
)

// TestMovePathGameCache checks that the game AppendMove returns is the game
// as stored, move after move, while the players' rows change in between
// (GameService keeps the game it wrote for the next move, gamecache.go):
// a user's settings, a rated game of the same player ending elsewhere, a
// refused stale move, a takeback.
func TestMovePathGameCache(t *testing.T) {
	db, s := open(t, filepath.Join(t.TempDir(), "tengen.db"))
	defer db.Close()
	ctx := context.Background()
	users := make([]*tengen.User, 3)
	for i := range users {
		users[i] = &tengen.User{Name: fmt.Sprintf("player%d", i), PasswordHash: "x"}
		if err := s.Users.CreateUser(ctx, users[i]); err != nil {
			t.Fatal(err)
		}
	}
	newGame := func(black, white *tengen.User, rated bool) *tengen.Game {
		c := &tengen.Challenge{ChallengerID: black.ID, Settings: tengen.GameSettings{BoardSize: 9, Ruleset: "japanese",
			Color: tengen.ChooseBlack, TimeControl: clock.TimeControl{Kind: clock.None}, Rated: rated}}
		if err := s.Challenges.CreateChallenge(ctx, c); err != nil {
			t.Fatal(err)
		}
		g, err := s.Games.CreateGameFromChallenge(ctx, c.ID, white.ID, nil)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	a, b, c := users[0], users[1], users[2]
	game, other := newGame(a, b, false), newGame(a, c, true)
	seq := 0
	move := func(what string) {
		t.Helper()
		seq++
		by, color := a, goban.White
		if seq%2 == 0 {
			by, color = b, goban.Black
		}
		m := &tengen.GameMove{GameID: game.ID, Seq: seq, Kind: tengen.MovePlay, X: seq % 9, Y: seq / 9}
		got, err := s.Games.AppendMove(ctx, by.ID, m, tengen.GameUpdate{ToMove: color, Status: tengen.GamePlaying})
		if err != nil {
			t.Fatalf("%s: move %d: %v", what, seq, err)
		}
		want, err := s.Games.FindGameByID(ctx, game.ID)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: move %d returned\n%+v %+v %+v\nstored\n%+v %+v %+v", what, seq, got, got.Black, got.White, want, want.Black, want.White)
		}
	}
	move("first move")
	move("second move")
	move("third move")

	if _, err := s.Users.UpdateUserSettings(ctx, a.ID, "de", tengen.UserSettings{Notation: "gtp", Sound: true}); err != nil {
		t.Fatal(err)
	}
	move("after Black's settings changed")

	m := &tengen.GameMove{GameID: other.ID, Seq: 1, Kind: tengen.MoveResign}
	if _, err := s.Games.AppendMove(ctx, a.ID, m, tengen.GameUpdate{ToMove: goban.White, Status: tengen.GameFinished, Result: "W+R"}); err != nil {
		t.Fatal(err)
	}
	move("after Black lost a rated game")

	stale := &tengen.GameMove{GameID: game.ID, Seq: seq, Kind: tengen.MovePass}
	_, err := s.Games.AppendMove(ctx, b.ID, stale, tengen.GameUpdate{ToMove: goban.Black, Status: tengen.GamePlaying})
	if want := fmt.Sprintf("Move %d is not the next move; the game is at move %d.", seq, seq); tengen.ErrorCode(err) != tengen.ECONFLICT || tengen.ErrorMessage(err) != want {
		t.Errorf("stale move: %v, want ECONFLICT %q", err, want)
	}

	if _, err := s.Games.TakeBack(ctx, game.ID, seq, tengen.GameUpdate{ToMove: goban.White, Status: tengen.GamePlaying}); err != nil {
		t.Fatal(err)
	}
	seq--
	move("after a takeback")
	move("and the next")
}
