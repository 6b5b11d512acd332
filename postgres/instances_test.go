package postgres_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"tengen"
	"tengen/clock"
	"tengen/postgres"
	"tengen/postgres/pgtest"
	"tengen/storagetest"
)

// TestTwoInstances opens two DBs (two pools, as two `tengen serve`
// instances would) on one fresh database at the same time and races them:
// both migrate, but the schema is created once; of two accepts of one
// challenge exactly one creates a game; of two moves with the same number
// exactly one is stored.
func TestTwoInstances(t *testing.T) {
	url := pgtest.URL(t)
	var inst [2]storagetest.Services
	var wg sync.WaitGroup
	errs := make([]error, 2)
	dbs := make([]*postgres.DB, 2)
	for i := range dbs {
		dbs[i] = postgres.NewDB(url)
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = dbs[i].Open()
		}()
	}
	wg.Wait()
	for i, db := range dbs {
		if errs[i] != nil {
			t.Fatalf("open instance %d: %v", i, errs[i])
		}
		t.Cleanup(func() { db.Close() })
		inst[i] = storagetest.Services{Users: postgres.NewUserService(db), Sessions: postgres.NewSessionService(db),
			Challenges: postgres.NewChallengeService(db), Games: postgres.NewGameService(db)}
	}
	ctx := context.Background()
	users := make([]*tengen.User, 3)
	for i := range users {
		users[i] = &tengen.User{Name: fmt.Sprintf("player%d", i), PasswordHash: "x"}
		if err := inst[i%2].Users.CreateUser(ctx, users[i]); err != nil {
			t.Fatal(err)
		}
	}
	// The name is taken on the other instance too.
	if err := inst[1].Users.CreateUser(ctx, &tengen.User{Name: "PLAYER0", PasswordHash: "x"}); tengen.ErrorCode(err) != tengen.ECONFLICT {
		t.Errorf("second user of one name: %v, want %s", err, tengen.ECONFLICT)
	}

	for round := range 5 {
		c := &tengen.Challenge{ChallengerID: users[0].ID, Settings: tengen.GameSettings{BoardSize: 9, Ruleset: "japanese",
			Color: tengen.ChooseBlack, TimeControl: clock.TimeControl{Kind: clock.None}}}
		if err := inst[0].Challenges.CreateChallenge(ctx, c); err != nil {
			t.Fatal(err)
		}
		games := make([]*tengen.Game, 2)
		for i := range inst {
			wg.Add(1)
			go func() {
				defer wg.Done()
				games[i], errs[i] = inst[i].Games.CreateGameFromChallenge(ctx, c.ID, users[1+i].ID, nil)
			}()
		}
		wg.Wait()
		won := 0
		var g *tengen.Game
		for i, err := range errs {
			switch {
			case err == nil:
				won++
				g = games[i]
			case tengen.ErrorCode(err) != tengen.ECONFLICT:
				t.Errorf("round %d: accept on instance %d: %v, want success or %s", round, i, err, tengen.ECONFLICT)
			}
		}
		if won != 1 {
			t.Fatalf("round %d: %d accepts of one challenge succeeded, want 1", round, won)
		}
		if n, _, err := inst[0].Games.FindGames(ctx, tengen.GameFilter{UserID: &users[0].ID}); err != nil || len(n) != round+1 {
			t.Fatalf("round %d: games of the challenger: %d, %v; want %d", round, len(n), err, round+1)
		}

		// Both instances submit move 1 of Black at once, at different
		// points.
		for i := range inst {
			wg.Add(1)
			go func() {
				defer wg.Done()
				m := &tengen.GameMove{GameID: g.ID, Seq: 1, Kind: tengen.MovePlay, X: 2 + i, Y: 2}
				m.Color = g.ColorOf(g.BlackID)
				_, errs[i] = inst[i].Games.AppendMove(ctx, g.BlackID, m, tengen.NextState(*m, false))
			}()
		}
		wg.Wait()
		won = 0
		for i, err := range errs {
			switch {
			case err == nil:
				won++
			case tengen.ErrorCode(err) != tengen.ECONFLICT:
				t.Errorf("round %d: move on instance %d: %v, want success or %s", round, i, err, tengen.ECONFLICT)
			}
		}
		moves, err := inst[1].Games.FindMoves(ctx, g.ID, 0)
		if err != nil {
			t.Fatal(err)
		}
		if won != 1 || len(moves) != 1 {
			t.Fatalf("round %d: %d of two moves 1 succeeded, %d stored; want 1 and 1", round, won, len(moves))
		}
	}
}
