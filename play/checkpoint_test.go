package play_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"path/filepath"
	"testing"
	"testing/synctest"
	"time"

	"tengen"
	"tengen/clock"
	"tengen/play"
	"tengen/sqlite"
)

// TestCheckpointSkipsRecent runs the minute's clock checkpoints of a live
// game: a tick ten seconds after a move writes nothing (the move stored
// the clock), a tick seventy seconds after it writes the clock.
func TestCheckpointSkipsRecent(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := context.Background()
		db, games := openDB(t, filepath.Join(t.TempDir(), "tengen.db"))
		defer db.Close()
		users, challenges := sqlite.NewUserService(db), sqlite.NewChallengeService(db)
		black, white := &tengen.User{Name: "black", PasswordHash: "x"}, &tengen.User{Name: "white", PasswordHash: "x"}
		for _, u := range []*tengen.User{black, white} {
			if err := users.CreateUser(ctx, u); err != nil {
				t.Fatal(err)
			}
		}
		c := &tengen.Challenge{ChallengerID: black.ID, Settings: settings(9, "japanese", clock.AbsoluteTime(30*time.Minute))}
		if err := challenges.CreateChallenge(ctx, c); err != nil {
			t.Fatal(err)
		}
		svc := play.New(play.Config{Games: games, Users: users, Challenges: challenges, CheckpointEvery: time.Minute,
			ChallengeTTL: -1, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
		if err := svc.Open(ctx); err != nil {
			t.Fatal(err)
		}
		defer svc.Close()
		g, err := svc.CreateGame(ctx, c.ID, white.ID)
		if err != nil {
			t.Fatal(err)
		}
		// stored returns the clock as stored, encoded.
		stored := func() string {
			t.Helper()
			rec, err := games.FindPlayRecord(ctx, g.ID)
			if err != nil {
				t.Fatal(err)
			}
			b, err := json.Marshal(rec.Clock)
			if err != nil {
				t.Fatal(err)
			}
			return string(b)
		}
		time.Sleep(50 * time.Second)
		if _, err := svc.Do(ctx, g.ID, black.ID, tengen.Command{Kind: tengen.CommandMove, Move: tengen.MoveCommand{Seq: 1, Kind: tengen.MovePlay, X: 2, Y: 2}}); err != nil {
			t.Fatal(err)
		}
		afterMove := stored()
		time.Sleep(15 * time.Second) // the tick at one minute
		synctest.Wait()
		if got := stored(); got != afterMove {
			t.Errorf("the tick 10 s after the move wrote the clock: %s, after the move %s", got, afterMove)
		}
		time.Sleep(time.Minute) // the tick at two minutes
		synctest.Wait()
		if got := stored(); got == afterMove {
			t.Errorf("the tick 70 s after the move did not write the clock: %s", got)
		}
	})
}
