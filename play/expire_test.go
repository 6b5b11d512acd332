package play_test

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"tengen"
	"tengen/play"
	"tengen/sqlite"
)

// TestChallengesExpiredOnce runs the challenge sweep of two services on one
// database at once, as two instances do: the expired challenge is reported
// to Config.ChallengesExpired by exactly one of them.
func TestChallengesExpiredOnce(t *testing.T) {
	ctx := context.Background()
	e := newEnvDB(t, newFakeClock())
	e.db.Now = e.clock.Now
	var mu sync.Mutex // guards reported
	var reported []int64
	svcs := make([]*play.Service, 2)
	for i := range svcs {
		svcs[i] = play.New(play.Config{Games: e.games, Challenges: sqlite.NewChallengeService(e.db), Now: e.clock.Now,
			AfterFunc: e.clock.AfterFunc, CheckpointEvery: -1, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
			ChallengesExpired: func(cs []*tengen.Challenge) {
				mu.Lock()
				defer mu.Unlock()
				for _, c := range cs {
					if c.Status != tengen.ChallengeCancelled {
						t.Errorf("reported challenge %d is %s", c.ID, c.Status)
					}
					reported = append(reported, c.ID)
				}
			}})
		if err := svcs[i].Open(ctx); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { svcs[i].Close() })
	}
	c := &tengen.Challenge{ChallengerID: e.black.ID, Settings: settings(9, "japanese", noTime)}
	if err := sqlite.NewChallengeService(e.db).CreateChallenge(ctx, c); err != nil {
		t.Fatal(err)
	}
	e.clock.Advance(tengen.DefaultChallengeTTL + time.Second)
	counts := make([]int, len(svcs))
	var wg sync.WaitGroup
	for i, svc := range svcs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n, err := svc.ExpireChallenges(ctx)
			if err != nil {
				t.Error(err)
			}
			counts[i] = n
		}()
	}
	wg.Wait()
	mu.Lock()
	defer mu.Unlock()
	if counts[0]+counts[1] != 1 || len(reported) != 1 || reported[0] != c.ID {
		t.Errorf("the sweeps expired %v and reported %v; want challenge %d once", counts, reported, c.ID)
	}
}
