package sqlite_test

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"tengen"
	"tengen/clock"
	"tengen/goban"
)

// BenchmarkFinishGame measures the commit of the move that ends a game (a
// resignation), with and without the rating update that a rated game adds
// to that transaction: reading both players' ratings, two Glicko-2 updates,
// two user rows and two history rows. Rated and unrated games alternate in
// one loop, so that the load of a shared machine weighs on both alike; the
// benchmark reports the time of each kind and the rated games' overhead in
// per cent, from the medians (a shared machine's load spikes move means
// more than the rating does). The games are created before the timer starts; each iteration
// finishes one game in its own commit. See docs/PERFORMANCE.md.
func BenchmarkFinishGame(b *testing.B) {
	for _, sync := range []string{"FULL", "NORMAL"} {
		b.Run(sync, func(b *testing.B) {
			db, s := openBench(b, filepath.Join(b.TempDir(), "bench.db"), sync)
			defer db.Close()
			ctx := context.Background()
			const players = 32
			users := make([]*tengen.User, players)
			for i := range users {
				users[i] = &tengen.User{Name: fmt.Sprintf("player%d", i), PasswordHash: "x"}
				if err := s.Users.CreateUser(ctx, users[i]); err != nil {
					b.Fatal(err)
				}
			}
			games := make([]*tengen.Game, b.N)
			for i := range games {
				black, white := users[i%players], users[(i/players+i+1)%players]
				if black == white {
					white = users[(i+1)%players]
				}
				c := &tengen.Challenge{ChallengerID: black.ID, Settings: tengen.GameSettings{BoardSize: 19, Ruleset: "japanese",
					Color: tengen.ChooseBlack, TimeControl: clock.TimeControl{Kind: clock.None}, Rated: i%2 == 1}}
				if err := s.Challenges.CreateChallenge(ctx, c); err != nil {
					b.Fatal(err)
				}
				g, err := s.Games.CreateGameFromChallenge(ctx, c.ID, white.ID, nil)
				if err != nil {
					b.Fatal(err)
				}
				games[i] = g
			}
			var took [2][]time.Duration
			b.ResetTimer()
			for i, g := range games {
				m := &tengen.GameMove{GameID: g.ID, Seq: 1, Kind: tengen.MoveResign}
				upd := tengen.GameUpdate{ToMove: goban.White, Status: tengen.GameFinished, Result: "W+R"}
				t0 := time.Now()
				if _, err := s.Games.AppendMove(ctx, g.BlackID, m, upd); err != nil {
					b.Fatalf("game %d: %v", i, err)
				}
				took[i%2] = append(took[i%2], time.Since(t0))
			}
			b.StopTimer()
			if len(took[0]) > 0 && len(took[1]) > 0 {
				unrated, rated := float64(median(took[0])), float64(median(took[1]))
				b.ReportMetric(unrated, "unrated-ns/game")
				b.ReportMetric(rated, "rated-ns/game")
				b.ReportMetric(100*(rated-unrated)/unrated, "overhead-%")
			}
		})
	}
}

// median returns the middle of ds, which it sorts.
func median(ds []time.Duration) time.Duration {
	slices.Sort(ds)
	return ds[len(ds)/2]
}
