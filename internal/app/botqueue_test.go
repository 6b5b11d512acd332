package app_test

import (
	"context"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"tengen"
	"tengen/clock"
	"tengen/engine"
	"tengen/internal/app"
	"tengen/postgres"
	"tengen/postgres/pgtest"
)

// TestPostgresBotQueue: on PostgreSQL the bots' turns are jobs in the
// shared queue (postgres.BotQueue) that Open wires. A job that another
// instance queued, for a game this instance does not hold, is taken by this
// instance's worker (which polls: there is no bus here), and the bot's move
// is stored.
func TestPostgresBotQueue(t *testing.T) {
	url := pgtest.URL(t)
	ctx := context.Background()
	a, err := app.Open(ctx, app.Config{DBPath: url, Logger: quiet(), BcryptCost: bcrypt.MinCost,
		EngineBots: &engine.Options{Threads: 1, Seed: 7, MaxTime: time.Second}, BotWorkers: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := a.Close(ctx); err != nil {
			t.Error(err)
		}
	})
	human := &tengen.User{Name: "human", PasswordHash: "x"}
	if err := a.Users.CreateUser(ctx, human); err != nil {
		t.Fatal(err)
	}
	bot, err := a.Users.FindUserByName(ctx, "Tengen-beginner")
	if err != nil {
		t.Fatal(err)
	}

	// The other instance: its own pool, the game made in storage (so that
	// this instance does not hold it) and the bot's job queued.
	other := postgres.NewDB(url)
	if err := other.Open(); err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	c := &tengen.Challenge{ChallengerID: human.ID, OpponentID: bot.ID, Settings: tengen.GameSettings{BoardSize: 9, Ruleset: "japanese",
		Color: tengen.ChooseWhite, TimeControl: clock.TimeControl{Kind: clock.None}}}
	if err := postgres.NewChallengeService(other).CreateChallenge(ctx, c); err != nil {
		t.Fatal(err)
	}
	g, err := postgres.NewGameService(other).CreateGameFromChallenge(ctx, c.ID, bot.ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	if g.BlackID != bot.ID {
		t.Fatalf("the bot plays %d, want Black", g.BlackID)
	}
	if err := postgres.NewBotQueue(other).Enqueue(ctx, tengen.BotJob{GameID: g.ID, BotID: bot.ID}); err != nil {
		t.Fatal(err)
	}

	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		stored, err := a.Games.FindGameByID(ctx, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		if stored.MoveCount >= 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the bot did not make the first move")
		}
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		waiting, busy, workers := a.Play.BotLoad()
		if waiting == 0 && busy == 0 && workers == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("bot load after the move: %d waiting, %d busy, %d workers", waiting, busy, workers)
		}
	}
}
