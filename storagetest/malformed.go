package storagetest

import (
	"context"
	"reflect"
	"testing"
	"time"

	"tengen"
	"tengen/goban"
)

// testMalformed checks that a backend refuses malformed moves and game
// states with EINVALID and stores nothing of them, whether the fault is in
// the move, the new state or the play record written with it.
func testMalformed(t *testing.T, b *Backend) {
	ctx := context.Background()
	black, white := mustUser(t, b.Services, "black"), mustUser(t, b.Services, "white")
	g := mustGame(t, b.Services, black, white, settings19())
	next := tengen.GameUpdate{ToMove: goban.White, Status: tengen.GamePlaying}
	tests := []struct {
		name string
		move *tengen.GameMove // nil: UpdateGame at move 0
		upd  tengen.GameUpdate
	}{
		{"unknown move kind", &tengen.GameMove{Kind: "jump", X: 3, Y: 3}, next},
		{"pass with a point", &tengen.GameMove{Kind: tengen.MovePass, X: 3, Y: 3}, next},
		{"resignation with a point", &tengen.GameMove{Kind: tengen.MoveResign, Y: 1},
			tengen.GameUpdate{ToMove: goban.White, Status: tengen.GameFinished, Result: "W+R"}},
		{"negative point", &tengen.GameMove{Kind: tengen.MovePlay, X: -1, Y: 3}, next},
		{"negative time used", &tengen.GameMove{Kind: tengen.MovePlay, X: 3, Y: 3, TimeUsed: -time.Second}, next},
		{"no next colour", &tengen.GameMove{Kind: tengen.MovePlay, X: 3, Y: 3}, tengen.GameUpdate{Status: tengen.GamePlaying}},
		{"unknown next colour", &tengen.GameMove{Kind: tengen.MovePlay, X: 3, Y: 3}, tengen.GameUpdate{ToMove: goban.Color(7), Status: tengen.GamePlaying}},
		{"unknown status", &tengen.GameMove{Kind: tengen.MovePlay, X: 3, Y: 3}, tengen.GameUpdate{ToMove: goban.White, Status: "bogus"}},
		{"result while playing", &tengen.GameMove{Kind: tengen.MovePlay, X: 3, Y: 3},
			tengen.GameUpdate{ToMove: goban.White, Status: tengen.GamePlaying, Result: "B+R"}},
		{"finished without result", &tengen.GameMove{Kind: tengen.MoveResign},
			tengen.GameUpdate{ToMove: goban.White, Status: tengen.GameFinished}},
		{"result not in SGF form", &tengen.GameMove{Kind: tengen.MoveResign},
			tengen.GameUpdate{ToMove: goban.White, Status: tengen.GameFinished, Result: "nonsense"}},
		{"update: no next colour", nil, tengen.GameUpdate{Status: tengen.GamePlaying}},
		{"update: unknown status", nil, tengen.GameUpdate{ToMove: goban.Black, Status: "bogus"}},
		{"update: result in the scoring phase", nil, tengen.GameUpdate{ToMove: goban.Black, Status: tengen.GameScoring, Result: "W+3"}},
		{"update: finished without result", nil, tengen.GameUpdate{ToMove: goban.Black, Status: tengen.GameFinished}},
		{"update: result not in SGF form", nil, tengen.GameUpdate{ToMove: goban.Black, Status: tengen.GameFinished, Result: "W+3.5.1"}},
	}
	for _, tt := range tests {
		var got *tengen.Game
		var err error
		if tt.move != nil {
			m := *tt.move
			m.GameID, m.Seq = g.ID, 1
			got, err = b.Games.AppendMove(ctx, black.ID, &m, tt.upd)
		} else {
			got, err = b.Games.UpdateGame(ctx, g.ID, 0, tt.upd)
		}
		wantCode(t, tt.name, err, tengen.EINVALID)
		if got != nil {
			t.Errorf("%s: refused write returned game %+v", tt.name, got)
		}
		if msg := tengen.ErrorMessage(err); msg == "Internal error." {
			t.Errorf("%s: message %q does not say what is wrong", tt.name, msg)
		}
		wantUnchanged(t, tt.name, b.Services, g)
	}
	// The refusals left the game as it was: the next move still fits.
	if _, err := play(b.Services, g, black, 1, tengen.MovePlay, 3, 3, false); err != nil {
		t.Errorf("first move after the refusals: %v", err)
	}
}

// wantUnchanged fails the test unless the game, its moves and its play
// record are as they were when g was created.
func wantUnchanged(t *testing.T, what string, s Services, g *tengen.Game) {
	t.Helper()
	ctx := context.Background()
	stored, err := s.Games.FindGameByID(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if stored.MoveCount != g.MoveCount || stored.ToMove != g.ToMove || stored.Status != g.Status || stored.Result != g.Result || !stored.UpdatedAt.Equal(g.UpdatedAt) {
		t.Errorf("%s: stored game %d %s %s %q %v, want %d %s %s %q %v", what, stored.MoveCount, stored.ToMove, stored.Status, stored.Result, stored.UpdatedAt,
			g.MoveCount, g.ToMove, g.Status, g.Result, g.UpdatedAt)
	}
	moves, err := s.Games.FindMoves(ctx, g.ID, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(moves) != g.MoveCount {
		t.Errorf("%s: %d stored moves, want %d", what, len(moves), g.MoveCount)
	}
	rec, err := s.Games.FindPlayRecord(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(rec, &tengen.PlayRecord{}) {
		t.Errorf("%s: stored record %+v, want none", what, rec)
	}
}

// testResults checks that a finished game's result is stored exactly when it
// is in SGF form (tengen.ValidateResult).
func testResults(t *testing.T, b *Backend) {
	ctx := context.Background()
	black, white := mustUser(t, b.Services, "black"), mustUser(t, b.Services, "white")
	tests := []struct {
		result string
		ok     bool
	}{
		{"B+R", true}, {"W+Resign", true}, {"B+T", true}, {"W+Time", true}, {"B+F", true}, {"W+Forfeit", true},
		{"B+6.5", true}, {"W+12", true}, {"W+0.5", true}, {"B+", true}, {"0", true}, {"Draw", true}, {"Void", true}, {"?", true},
		{"B+6.", false}, {"B+.5", false}, {"B+6.5.1", false}, {"B+1e3", false}, {"B+ 3", false}, {"B+R ", false},
		{"X+R", false}, {"b+R", false}, {"B+r", false}, {"B+Res", false}, {"B", false}, {"B-R", false}, {"draw", false},
	}
	for _, tt := range tests {
		if err := tengen.ValidateResult(tt.result); (err == nil) != tt.ok {
			t.Fatalf("the table disagrees with tengen.ValidateResult about %q", tt.result)
		}
		g := mustGame(t, b.Services, black, white, settings19())
		got, err := b.Games.UpdateGame(ctx, g.ID, 0, tengen.GameUpdate{ToMove: goban.Black, Status: tengen.GameFinished, Result: tt.result})
		if !tt.ok {
			wantCode(t, "result "+tt.result, err, tengen.EINVALID)
			wantUnchanged(t, "result "+tt.result, b.Services, g)
			continue
		}
		if err != nil {
			t.Errorf("result %q: %v", tt.result, err)
			continue
		}
		stored, err := b.Games.FindGameByID(ctx, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.Result != tt.result || stored.Result != tt.result || stored.Status != tengen.GameFinished {
			t.Errorf("result %q: returned %q, stored %s %q", tt.result, got.Result, stored.Status, stored.Result)
		}
	}
}

// testCreateGameWithPlayRecord checks that CreateGameFromChallenge stores
// the play record it is given in the same transaction as the game.
func testCreateGameWithPlayRecord(t *testing.T, b *Backend) {
	ctx := context.Background()
	alice, bob := mustUser(t, b.Services, "alice"), mustUser(t, b.Services, "bob")
	c := mustChallenge(t, b.Services, &tengen.Challenge{ChallengerID: alice.ID, Settings: settings19()})

	// A malformed record: neither the game nor the acceptance is stored.
	_, err := b.Games.CreateGameFromChallenge(ctx, c.ID, bob.ID, &tengen.PlayRecord{ProposalSeq: -1})
	wantCode(t, "game with a negative proposal number", err, tengen.EINVALID)
	if got, err := b.Challenges.FindChallengeByID(ctx, c.ID); err != nil || got.Status != tengen.ChallengeOpen || got.GameID != 0 {
		t.Errorf("challenge after a refused acceptance = %+v, %v", got, err)
	}
	if gs, n, err := b.Games.FindGames(ctx, tengen.GameFilter{}); err != nil || n != 0 {
		t.Errorf("games after a refused acceptance: %d, %v", len(gs), err)
	}

	want := &tengen.PlayRecord{Clock: testClock(t),
		Dead: []goban.Point{}, Resumptions: []tengen.Resumption{}}
	g, err := b.Games.CreateGameFromChallenge(ctx, c.ID, bob.ID, want)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := b.Games.FindPlayRecord(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(rec, want) {
		t.Errorf("record of a game created with one = %+v, want %+v", rec, want)
	}

	c2 := mustChallenge(t, b.Services, &tengen.Challenge{ChallengerID: alice.ID, Settings: settings19()})
	g2, err := b.Games.CreateGameFromChallenge(ctx, c2.ID, bob.ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	rec, err = b.Games.FindPlayRecord(ctx, g2.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(rec, &tengen.PlayRecord{}) {
		t.Errorf("record of a game created without one = %+v, want zero", rec)
	}
}
