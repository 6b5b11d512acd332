package play_test

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"tengen"
	"tengen/goban"
	"tengen/internal/membus"
	"tengen/play"
	"tengen/postgres"
	"tengen/postgres/pgtest"
)

// noTake is a shared queue that an instance only fills: its workers never
// take a job, so that the test knows the other instances made the moves.
type noTake struct{ tengen.BotQueue }

func (noTake) Take(context.Context, time.Time, time.Duration) (*tengen.BotJob, error) {
	return nil, nil
}

// remoteBot answers as White at E5 and records what it was asked: which
// instance, and whether the position held the human's first stone. It
// holds each move until the other instance's bot thinks too (or a while
// has passed), so that both instances' workers take jobs.
type remoteBot struct {
	name   string
	shared *remoteCalls
}

// remoteCalls is what the bots of every instance saw.
type remoteCalls struct {
	mu      sync.Mutex // guards the fields below
	by      map[string]int
	games   map[int64]int
	wrong   []string
	current int
}

func (b remoteBot) GenMove(ctx context.Context, req play.BotRequest) (goban.Move, error) {
	c := b.shared
	c.mu.Lock()
	c.by[b.name]++
	c.games[req.GameID]++
	c.current++
	human := goban.Point{X: 2, Y: 2}
	if len(req.Moves) != 1 || req.Moves[0].X != human.X || req.Moves[0].Y != human.Y || req.Game.Board().At(human) != goban.Black || req.Color != goban.White {
		c.wrong = append(c.wrong, b.name)
	}
	c.mu.Unlock()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) && ctx.Err() == nil {
		c.mu.Lock()
		both := c.current >= 2
		c.mu.Unlock()
		if both {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	time.Sleep(20 * time.Millisecond)
	c.mu.Lock()
	c.current--
	c.mu.Unlock()
	return goban.PlayAt(req.Color, goban.Point{X: 4, Y: 4}), nil
}

// TestBotQueueAcrossInstances runs three play services on one PostgreSQL
// database, as three instances would run: the humans' games are created
// and played on the first, whose workers take no jobs; the bots' moves are
// computed by the workers of the other two from the stored games (not in
// their memory) and stored through Do. Every job is done exactly once.
func TestBotQueueAcrossInstances(t *testing.T) {
	url := pgtest.URL(t)
	ctx := context.Background()
	bus := membus.New()
	calls := &remoteCalls{by: map[string]int{}, games: map[int64]int{}}
	names := []string{"creator", "worker1", "worker2"}
	svcs := make([]*play.Service, len(names))
	var games tengen.GameService
	var human *tengen.User
	for i, name := range names {
		db := postgres.NewDB(url)
		if err := db.Open(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		users := postgres.NewUserService(db)
		if i == 0 {
			human = &tengen.User{Name: "human", PasswordHash: "x"}
			if err := users.CreateUser(ctx, human); err != nil {
				t.Fatal(err)
			}
			games = postgres.NewGameService(db)
		}
		var q tengen.BotQueue = postgres.NewBotQueue(db)
		if i == 0 {
			q = noTake{q}
		}
		svc := play.New(play.Config{Games: postgres.NewGameService(db), Users: users, Challenges: postgres.NewChallengeService(db),
			Bots: []play.Bot{{Name: "Remote", Player: remoteBot{name: name, shared: calls}}}, BotWorkers: 1, BotJobs: q,
			Bus: bus, BotPoll: 50 * time.Millisecond, CheckpointEvery: -1, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
		if err := svc.Open(ctx); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { svc.Close() })
		svcs[i] = svc
	}

	const n = 6
	var ids []int64
	for range n {
		g, err := svcs[0].PlayBot(ctx, human.ID, "Remote", nineByNine(tengen.ChooseBlack))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := svcs[0].Do(ctx, g.ID, human.ID, tengen.Command{Kind: tengen.CommandMove,
			Move: tengen.MoveCommand{Seq: 1, Kind: tengen.MovePlay, X: 2, Y: 2}}); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, g.ID)
	}
	deadline := time.Now().Add(60 * time.Second)
	for _, id := range ids {
		for {
			g, err := games.FindGameByID(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if g.MoveCount >= 2 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("game %d: no bot move after a minute (%d moves)", id, g.MoveCount)
			}
			time.Sleep(10 * time.Millisecond)
		}
		moves, err := games.FindMoves(ctx, id, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(moves) != 2 || moves[1].Color != goban.White || moves[1].X != 4 || moves[1].Y != 4 {
			t.Errorf("game %d: moves %+v, want the human's and the bot's E5", id, moves)
		}
	}
	// Jobs queued again by the workers' own loading of the game find
	// nothing to do; give them the time to show it.
	time.Sleep(300 * time.Millisecond)
	calls.mu.Lock()
	defer calls.mu.Unlock()
	for _, id := range ids {
		if calls.games[id] != 1 {
			t.Errorf("game %d: the bot was asked %d times, want once", id, calls.games[id])
		}
	}
	if calls.by["creator"] != 0 || calls.by["worker1"] == 0 || calls.by["worker2"] == 0 {
		t.Errorf("moves by instance %v; want none by the creator, some by each worker", calls.by)
	}
	if len(calls.wrong) > 0 {
		t.Errorf("bots of %v were asked in a position without the human's stone at C7", calls.wrong)
	}
}
