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
// holds each move, when asked to, until another instance's bot thinks too
// (or a while has passed), so that both instances' workers take jobs.
type remoteBot struct {
	name   string
	shared *remoteCalls
}

// remoteCalls is what the bots of every instance saw.
type remoteCalls struct {
	// pair makes each bot hold its move until another thinks too.
	pair bool

	mu      sync.Mutex // guards the fields below
	by      map[string]int
	games   map[int64]int
	wrong   []string
	current int
	last    time.Time // when a bot was last asked
}

func (b remoteBot) GenMove(ctx context.Context, req play.BotRequest) (goban.Move, error) {
	c := b.shared
	c.mu.Lock()
	c.by[b.name]++
	c.games[req.GameID]++
	c.current++
	c.last = time.Now()
	human := goban.Point{X: 2, Y: 2}
	if len(req.Moves) != 1 || req.Moves[0].X != human.X || req.Moves[0].Y != human.Y || req.Game.Board().At(human) != goban.Black || req.Color != goban.White {
		c.wrong = append(c.wrong, b.name)
	}
	c.mu.Unlock()
	deadline := time.Now().Add(5 * time.Second)
	for c.pair && time.Now().Before(deadline) && ctx.Err() == nil {
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

// pgInstances is a PostgreSQL database with play services on it, one per
// name, as instances on one database are: each on its own pool, sharing
// the bot queue (the first one's workers take no jobs when firstTakes is
// false) and a bus for the workers' wake-ups. Every instance offers the bot
// "Remote", a remoteBot of the instance's name.
type pgInstances struct {
	svcs  []*play.Service
	games tengen.GameService
	queue tengen.BotQueue // the queue on the first instance's pool
	human *tengen.User
	open  func(name string, takes bool) *play.Service
}

func newPGInstances(t *testing.T, calls *remoteCalls, firstTakes bool, names ...string) *pgInstances {
	t.Helper()
	url := pgtest.URL(t)
	ctx := context.Background()
	bus := membus.New()
	p := &pgInstances{}
	p.open = func(name string, takes bool) *play.Service {
		t.Helper()
		db := postgres.NewDB(url)
		if err := db.Open(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		users := postgres.NewUserService(db)
		if p.human == nil {
			p.human = &tengen.User{Name: "human", PasswordHash: "x"}
			if err := users.CreateUser(ctx, p.human); err != nil {
				t.Fatal(err)
			}
			p.games, p.queue = postgres.NewGameService(db), postgres.NewBotQueue(db)
		}
		var q tengen.BotQueue = postgres.NewBotQueue(db)
		if !takes {
			q = noTake{q}
		}
		svc := play.New(play.Config{Games: postgres.NewGameService(db), Users: users, Challenges: postgres.NewChallengeService(db),
			Bots: []play.Bot{{Name: "Remote", Player: remoteBot{name: name, shared: calls}}}, BotWorkers: 1, BotJobs: q,
			Bus: bus, BotPoll: 50 * time.Millisecond, CheckpointEvery: -1, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
		if err := svc.Open(ctx); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { svc.Close() })
		return svc
	}
	for i, name := range names {
		p.svcs = append(p.svcs, p.open(name, i > 0 || firstTakes))
	}
	return p
}

// startGame creates a game of the human against "Remote" on svc and plays
// the human's first move, C7.
func (p *pgInstances) startGame(t *testing.T, svc *play.Service) int64 {
	t.Helper()
	ctx := context.Background()
	g, err := svc.PlayBot(ctx, p.human.ID, "Remote", nineByNine(tengen.ChooseBlack))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Do(ctx, g.ID, p.human.ID, tengen.Command{Kind: tengen.CommandMove,
		Move: tengen.MoveCommand{Seq: 1, Kind: tengen.MovePlay, X: 2, Y: 2}}); err != nil {
		t.Fatal(err)
	}
	return g.ID
}

// waitBotMove waits until the bot's answer to the human's first move is
// stored and checks it.
func (p *pgInstances) waitBotMove(t *testing.T, id int64) {
	t.Helper()
	ctx := context.Background()
	deadline := time.Now().Add(60 * time.Second)
	for {
		g, err := p.games.FindGameByID(ctx, id)
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
	moves, err := p.games.FindMoves(ctx, id, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(moves) != 2 || moves[1].Color != goban.White || moves[1].X != 4 || moves[1].Y != 4 {
		t.Errorf("game %d: moves %+v, want the human's and the bot's E5", id, moves)
	}
}

// TestBotQueueAcrossInstances runs three play services on one PostgreSQL
// database, as three instances would run: the humans' games are created
// and played on the first, whose workers take no jobs; the bots' moves are
// computed by the workers of the other two from the stored games (not in
// their memory) and stored through Do. Every job is done exactly once.
func TestBotQueueAcrossInstances(t *testing.T) {
	calls := &remoteCalls{pair: true, by: map[string]int{}, games: map[int64]int{}}
	p := newPGInstances(t, calls, false, "creator", "worker1", "worker2")
	const n = 6
	var ids []int64
	for range n {
		ids = append(ids, p.startGame(t, p.svcs[0]))
	}
	for _, id := range ids {
		p.waitBotMove(t, id)
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

// TestBotJobOfDeadWorker: a worker takes a game's job and dies (the test
// takes it through the queue and never finishes it); once its lease has run
// out, a worker of another instance takes the job and the bot moves.
func TestBotJobOfDeadWorker(t *testing.T) {
	calls := &remoteCalls{by: map[string]int{}, games: map[int64]int{}}
	p := newPGInstances(t, calls, false, "creator")
	ctx := context.Background()
	id := p.startGame(t, p.svcs[0])
	// The creator queues the job from a goroutine of its own.
	var dead *tengen.BotJob
	for deadline := time.Now().Add(30 * time.Second); dead == nil; {
		var err error
		if dead, err = p.queue.Take(ctx, time.Now(), 500*time.Millisecond); err != nil {
			t.Fatal(err)
		}
		if time.Now().After(deadline) {
			t.Fatal("the game's job was never queued")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if dead.GameID != id || dead.MoveCount != 1 {
		t.Fatalf("job %+v, want game %d at move 1", dead, id)
	}
	p.open("worker", true)
	p.waitBotMove(t, id)
	wantCode(t, "the dead worker's Finish", p.queue.Finish(ctx, dead), tengen.ECONFLICT)
	calls.mu.Lock()
	defer calls.mu.Unlock()
	if calls.by["worker"] != 1 || calls.games[id] != 1 {
		t.Errorf("moves by instance %v, per game %v; want one by the worker", calls.by, calls.games)
	}
	if calls.last.Before(dead.LeasedUntil) {
		t.Errorf("the worker took the job at %v, before the dead worker's lease ran out at %v", calls.last, dead.LeasedUntil)
	}
}
