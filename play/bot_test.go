package play_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"tengen"
	"tengen/engine"
	"tengen/goban"
	"tengen/play"
	"tengen/sqlite"
)

// botEnv is a service with bots on a real SQLite file, with the real
// clock: bots move in their own goroutines.
type botEnv struct {
	t     *testing.T
	path  string
	db    *sqlite.DB
	svc   *play.Service
	human *tengen.User
	bots  func() []play.Bot
	cfg   func(*play.Config)
}

func newBotEnv(t *testing.T, bots func() []play.Bot, cfg func(*play.Config)) *botEnv {
	t.Helper()
	e := &botEnv{t: t, path: filepath.Join(t.TempDir(), "tengen.db"), bots: bots, cfg: cfg}
	e.db, _ = openDB(t, e.path)
	e.human = &tengen.User{Name: "human", PasswordHash: "x"}
	if err := sqlite.NewUserService(e.db).CreateUser(context.Background(), e.human); err != nil {
		t.Fatal(err)
	}
	e.start()
	t.Cleanup(func() {
		e.svc.Close()
		e.db.Close()
	})
	return e
}

func (e *botEnv) start() {
	e.t.Helper()
	c := play.Config{Games: sqlite.NewGameService(e.db), Users: sqlite.NewUserService(e.db),
		Challenges: sqlite.NewChallengeService(e.db), Bots: e.bots(), CheckpointEvery: -1,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	if e.cfg != nil {
		e.cfg(&c)
	}
	e.svc = play.New(c)
	if err := e.svc.Open(context.Background()); err != nil {
		e.t.Fatal(err)
	}
}

func (e *botEnv) restart() {
	e.t.Helper()
	if err := e.svc.Close(); err != nil {
		e.t.Fatal(err)
	}
	if err := e.db.Close(); err != nil {
		e.t.Fatal(err)
	}
	e.db, _ = openDB(e.t, e.path)
	e.start()
}

func (e *botEnv) playBot(bot string, set tengen.GameSettings) int64 {
	e.t.Helper()
	g, err := e.svc.PlayBot(context.Background(), e.human.ID, bot, set)
	if err != nil {
		e.t.Fatalf("PlayBot(%s): %v", bot, err)
	}
	return g.ID
}

// waitFor polls the game until cond holds, failing after a generous
// deadline (bots think in goroutines of their own).
func (e *botEnv) waitFor(id int64, what string, cond func(*tengen.GameSnapshot) bool) *tengen.GameSnapshot {
	e.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		snap, err := e.svc.Snapshot(context.Background(), id, e.human.ID)
		if err != nil {
			e.t.Fatal(err)
		}
		if cond(snap) {
			return snap
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("game %d: waited in vain for %s; status %s, %d moves, result %q", id, what, snap.Game.Status, snap.Game.MoveCount, snap.Game.Result)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func (e *botEnv) move(id int64, seq int, kind tengen.MoveKind, x, y int) *tengen.GameSnapshot {
	e.t.Helper()
	snap, err := e.svc.Do(context.Background(), id, e.human.ID, tengen.Command{Kind: tengen.CommandMove, Move: tengen.MoveCommand{Seq: seq, Kind: kind, X: x, Y: y}})
	if err != nil {
		e.t.Fatalf("move %d %s %d,%d: %v", seq, kind, x, y, err)
	}
	return snap
}

func movesAtLeast(n int) func(*tengen.GameSnapshot) bool {
	return func(s *tengen.GameSnapshot) bool { return s.Game.MoveCount >= n }
}

// engineBots are Tengen's levels with small, fixed searches.
func engineBots() []play.Bot {
	return play.EngineBots(engine.Options{Threads: 1, Seed: 7, MaxTime: 2 * time.Second, ScoringPlayouts: 100})
}

func nineByNine(c tengen.ColorChoice) tengen.GameSettings {
	return tengen.GameSettings{BoardSize: 9, Ruleset: "japanese", Color: c, TimeControl: noTime}
}

// firstEmpty returns the first empty point of a snapshot's board that is
// not in avoid.
func firstEmpty(t *testing.T, snap *tengen.GameSnapshot, avoid ...goban.Point) goban.Point {
	t.Helper()
	for y, row := range snap.Board {
		for x, c := range row {
			p := goban.Point{X: x, Y: y}
			if c == '.' && !slices.Contains(avoid, p) {
				return p
			}
		}
	}
	t.Fatal("no empty point")
	return goban.Point{}
}

func TestBotAnswersMove(t *testing.T) {
	e := newBotEnv(t, engineBots, nil)
	if got := len(e.svc.Bots()); got != len(engine.Levels()) {
		t.Fatalf("%d bots, want one per level (%d)", got, len(engine.Levels()))
	}
	u, err := sqlite.NewUserService(e.db).FindUserByName(context.Background(), "Tengen-beginner")
	if err != nil || !u.Bot {
		t.Fatalf("bot account: %+v, %v", u, err)
	}
	id := e.playBot("Tengen-beginner", nineByNine(tengen.ChooseBlack))
	e.move(id, 1, tengen.MovePlay, 2, 6)
	snap := e.waitFor(id, "the bot's answer", movesAtLeast(2))
	if m := snap.Moves[1]; m.Color != goban.White || m.Kind == tengen.MoveResign {
		t.Fatalf("bot's move %+v, want a white play or pass", m)
	}
	if snap.Game.ToMove != goban.Black || snap.Game.Status != tengen.GamePlaying {
		t.Fatalf("after the bot: %s to move, status %s", snap.Game.ToMove, snap.Game.Status)
	}

	// The bot plays Black and moves first, at once.
	id = e.playBot("Tengen-novice", nineByNine(tengen.ChooseWhite))
	snap = e.waitFor(id, "the bot's first move", movesAtLeast(1))
	if m := snap.Moves[0]; m.Color != goban.Black {
		t.Fatalf("first move %+v, want Black's", m)
	}
}

func TestPlayBotRefusals(t *testing.T) {
	e := newBotEnv(t, func() []play.Bot {
		bots := engineBots()
		return append(bots, play.Bot{Name: "Small", BoardSizes: []int{9}, Rulesets: []string{"chinese"}, MaxGames: 1, Player: passBot{}})
	}, nil)
	ctx := context.Background()
	tests := []struct {
		bot  string
		set  tengen.GameSettings
		code string
	}{
		{"Nobody", nineByNine(tengen.ChooseBlack), tengen.ENOTFOUND},
		{"Small", tengen.GameSettings{BoardSize: 13, Ruleset: "chinese", Color: tengen.ChooseBlack}, tengen.EINVALID},
		{"Small", tengen.GameSettings{BoardSize: 9, Ruleset: "japanese", Color: tengen.ChooseBlack}, tengen.EINVALID},
		{"Tengen-club", tengen.GameSettings{BoardSize: 9, Ruleset: "japanese", Color: tengen.ChooseBlack, Handicap: 2, FreeHandicap: true}, tengen.EINVALID},
		{"Tengen-club", tengen.GameSettings{BoardSize: 4, Ruleset: "japanese", Color: tengen.ChooseBlack}, tengen.EINVALID},
	}
	for _, tt := range tests {
		_, err := e.svc.PlayBot(ctx, e.human.ID, tt.bot, tt.set)
		wantCode(t, tt.bot, err, tt.code)
	}
	_, err := e.svc.PlayBot(ctx, 0, "Tengen-club", nineByNine(tengen.ChooseBlack))
	wantCode(t, "anonymous", err, tengen.EUNAUTHORIZED)
	small := tengen.GameSettings{BoardSize: 9, Ruleset: "chinese", Color: tengen.ChooseBlack, TimeControl: noTime}
	e.playBot("Small", small)
	_, err = e.svc.PlayBot(ctx, e.human.ID, "Small", small)
	wantCode(t, "second game beyond MaxGames", err, tengen.ECONFLICT)
}

func TestBotGamesPerUser(t *testing.T) {
	e := newBotEnv(t, func() []play.Bot { return []play.Bot{{Name: "Passer", Player: passBot{}}} },
		func(c *play.Config) { c.MaxBotGamesPerUser = 2 })
	e.playBot("Passer", nineByNine(tengen.ChooseBlack))
	id := e.playBot("Passer", nineByNine(tengen.ChooseBlack))
	_, err := e.svc.PlayBot(context.Background(), e.human.ID, "Passer", nineByNine(tengen.ChooseBlack))
	wantCode(t, "third game", err, tengen.ECONFLICT)
	if _, err := e.svc.Do(context.Background(), id, e.human.ID, tengen.Command{Kind: tengen.CommandMove, Move: tengen.MoveCommand{Kind: tengen.MoveResign}}); err != nil {
		t.Fatal(err)
	}
	e.playBot("Passer", nineByNine(tengen.ChooseBlack)) // a finished game makes room
}

// passBot always passes.
type passBot struct{}

func (passBot) GenMove(_ context.Context, req play.BotRequest) (goban.Move, error) {
	return goban.PassMove(req.Color), nil
}

// blockingBot waits for its context: a search the shutdown interrupts.
type blockingBot struct{ called chan struct{} }

func (b blockingBot) GenMove(ctx context.Context, req play.BotRequest) (goban.Move, error) {
	select {
	case b.called <- struct{}{}:
	default:
	}
	<-ctx.Done()
	return goban.Move{}, ctx.Err()
}

func TestBotGameSurvivesRestart(t *testing.T) {
	var blocking atomic.Bool
	called := make(chan struct{}, 1)
	bots := func() []play.Bot {
		bs := engineBots()
		if blocking.Load() {
			for i := range bs {
				bs[i].Player = blockingBot{called}
			}
		}
		return bs
	}
	e := newBotEnv(t, bots, nil)
	id := e.playBot("Tengen-beginner", nineByNine(tengen.ChooseBlack))
	e.move(id, 1, tengen.MovePlay, 2, 6)
	snap := e.waitFor(id, "the bot's answer", movesAtLeast(2))

	// Restart: the bot answers again in the reloaded game.
	e.restart()
	p := firstEmpty(t, snap)
	e.move(id, 3, tengen.MovePlay, p.X, p.Y)
	snap = e.waitFor(id, "the bot's answer after a restart", movesAtLeast(4))

	// The server stops while the bot thinks; after the restart the bot
	// moves without anyone doing anything.
	blocking.Store(true)
	e.restart()
	p = firstEmpty(t, snap)
	e.move(id, 5, tengen.MovePlay, p.X, p.Y)
	select {
	case <-called:
	case <-time.After(10 * time.Second):
		t.Fatal("the blocking bot was never asked")
	}
	blocking.Store(false)
	e.restart()
	snap = e.waitFor(id, "the bot's move after a restart on its turn", movesAtLeast(6))
	if snap.Game.Status != tengen.GamePlaying || snap.Moves[5].Color != goban.White {
		t.Fatalf("after restart: status %s, move 6 %+v", snap.Game.Status, snap.Moves[5])
	}
}

// countingBot plays E5 after holding a worker for a while, recording how
// many of its moves run at once.
type countingBot struct {
	// hold is how many moves at once the bot waits for (up to holdFor)
	// before it answers: the pool's parallelism then shows however slowly
	// the games are created on a loaded machine.
	hold    int
	holdFor time.Duration

	mu       sync.Mutex // guards cur, max and calls
	cur, max int
	calls    int
}

func (b *countingBot) GenMove(ctx context.Context, req play.BotRequest) (goban.Move, error) {
	b.mu.Lock()
	b.cur++
	b.calls++
	b.max = max(b.max, b.cur)
	b.mu.Unlock()
	deadline := time.Now().Add(b.holdFor)
	for {
		b.mu.Lock()
		enough := b.cur >= b.hold
		b.mu.Unlock()
		if enough || time.Now().After(deadline) || ctx.Err() != nil {
			break
		}
		time.Sleep(2 * time.Millisecond)
	}
	// Hold a little longer, so that a pool that let more moves run than it
	// has workers would show it in max.
	time.Sleep(10 * time.Millisecond)
	b.mu.Lock()
	b.cur--
	b.mu.Unlock()
	// Black's first move: a play, so that the game goes on.
	return goban.PlayAt(req.Color, goban.Point{X: 4, Y: 4}), nil
}

func TestBotWorkerPoolBound(t *testing.T) {
	for _, tt := range []struct{ workers, queue int }{{2, 100}, {1, 1}, {3, 2}} {
		// In the bubble the bots' waits take no real time, and time moves
		// on only when every goroutine waits: a working pool always shows
		// its parallelism, however loaded the machine.
		synctest.Test(t, func(t *testing.T) {
			bot := &countingBot{hold: tt.workers, holdFor: time.Second}
			e := newBotEnv(t, func() []play.Bot { return []play.Bot{{Name: "Counter", Player: bot}} },
				func(c *play.Config) { c.BotWorkers, c.BotQueue = tt.workers, tt.queue })
			var ids []int64
			const games = 6
			for range games {
				ids = append(ids, e.playBot("Counter", nineByNine(tengen.ChooseWhite)))
			}
			for _, id := range ids {
				e.waitFor(id, "the bot's first move", movesAtLeast(1))
			}
			bot.mu.Lock()
			defer bot.mu.Unlock()
			if bot.max > tt.workers || bot.calls != games {
				t.Errorf("workers %d, queue %d: %d moves at once at most, %d calls; want at most %d at once and %d calls",
					tt.workers, tt.queue, bot.max, bot.calls, tt.workers, games)
			}
			if tt.workers > 1 && bot.max < 2 {
				t.Errorf("workers %d: never more than %d move at once; the pool does not work in parallel", tt.workers, bot.max)
			}
		})
	}
}

// scriptBot plays its points in turn, then passes.
type scriptBot struct {
	mu     sync.Mutex
	points []goban.Point
}

func (b *scriptBot) GenMove(_ context.Context, req play.BotRequest) (goban.Move, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.points) == 0 {
		return goban.PassMove(req.Color), nil
	}
	p := b.points[0]
	b.points = b.points[1:]
	return goban.PlayAt(req.Color, p), nil
}

// fixedDead is a dead-stone estimator with a fixed answer.
type fixedDead []goban.Point

func (f fixedDead) DeadStones(*goban.Game) []goban.Point { return f }

func TestBotScoringAgreement(t *testing.T) {
	white := goban.Point{X: 4, Y: 4}
	newGame := func(t *testing.T) (*botEnv, int64, *tengen.GameSnapshot) {
		e := newBotEnv(t, func() []play.Bot {
			return []play.Bot{{Name: "Scripted", Player: &scriptBot{points: []goban.Point{white}}}}
		}, func(c *play.Config) { c.DeadStones = fixedDead{white} })
		id := e.playBot("Scripted", nineByNine(tengen.ChooseBlack))
		e.move(id, 1, tengen.MovePlay, 2, 2)
		e.waitFor(id, "the bot's stone", movesAtLeast(2))
		e.move(id, 3, tengen.MovePass, 0, 0)
		snap := e.waitFor(id, "the scoring phase", func(s *tengen.GameSnapshot) bool { return s.Game.Status == tengen.GameScoring })
		want := []goban.Point{{X: white.X, Y: white.Y}}
		if !slices.Equal(snap.Proposal.Dead, want) {
			t.Fatalf("first proposal %v, want the estimator's %v", snap.Proposal.Dead, want)
		}
		return e, id, snap
	}
	acceptedBy := func(c goban.Color, seq int) func(*tengen.GameSnapshot) bool {
		return func(s *tengen.GameSnapshot) bool {
			return s.Proposal != nil && s.Proposal.Seq == seq && slices.Contains(s.Proposal.AcceptedBy, c)
		}
	}

	t.Run("agree", func(t *testing.T) {
		e, id, snap := newGame(t)
		seq := snap.Proposal.Seq
		e.waitFor(id, "the bot's acceptance", acceptedBy(goban.White, seq))
		snap, err := e.svc.Do(context.Background(), id, e.human.ID, tengen.Command{Kind: tengen.CommandAccept, Seq: seq})
		if err != nil {
			t.Fatal(err)
		}
		if snap.Game.Status != tengen.GameFinished || !strings.HasPrefix(snap.Game.Result, "B+") {
			t.Fatalf("after both accepted: %s %q", snap.Game.Status, snap.Game.Result)
		}
	})

	t.Run("resume", func(t *testing.T) {
		// The human resumes; the bot, as the opponent of the player who
		// asked, moves first (it passes: its script is done).
		e, id, _ := newGame(t)
		if _, err := e.svc.Do(context.Background(), id, e.human.ID, tengen.Command{Kind: tengen.CommandResume}); err != nil {
			t.Fatal(err)
		}
		snap := e.waitFor(id, "the bot's move after the resumption", movesAtLeast(5))
		if m := snap.Moves[4]; m.Color != goban.White || m.Kind != tengen.MovePass {
			t.Fatalf("move 5 %+v, want White's pass", m)
		}
		if snap.Game.Status != tengen.GamePlaying || snap.Game.ToMove != goban.Black {
			t.Fatalf("after the bot's move: %s, %s to move", snap.Game.Status, snap.Game.ToMove)
		}
	})

	t.Run("disagree", func(t *testing.T) {
		e, id, _ := newGame(t)
		ctx := context.Background()
		p := goban.Point{X: white.X, Y: white.Y}
		// The human says the white stone lives; the bot marks it dead
		// again, twice, and then gives in.
		var toggles int
		for {
			snap, err := e.svc.Do(ctx, id, e.human.ID, tengen.Command{Kind: tengen.CommandToggle, Point: p})
			if err != nil {
				t.Fatal(err)
			}
			toggles++
			if toggles > 10 {
				t.Fatal("the bot keeps toggling")
			}
			seq := snap.Proposal.Seq
			snap = e.waitFor(id, "the bot's answer to a toggle", func(s *tengen.GameSnapshot) bool {
				return s.Proposal.Seq > seq || acceptedBy(goban.White, seq)(s)
			})
			if snap.Proposal.Seq == seq {
				if len(snap.Proposal.Dead) != 0 {
					t.Fatalf("the bot accepted %v, want the human's proposal", snap.Proposal.Dead)
				}
				break
			}
			if !slices.Equal(snap.Proposal.Dead, []goban.Point{p}) {
				t.Fatalf("the bot proposed %v, want its estimate", snap.Proposal.Dead)
			}
		}
		if toggles != 3 {
			t.Errorf("the bot gave in after %d toggles of the human, want 3 (two rounds of its own)", toggles)
		}
		snap, err := e.svc.Snapshot(ctx, id, e.human.ID)
		if err != nil {
			t.Fatal(err)
		}
		snap, err = e.svc.Do(ctx, id, e.human.ID, tengen.Command{Kind: tengen.CommandAccept, Seq: snap.Proposal.Seq})
		if err != nil {
			t.Fatal(err)
		}
		if snap.Game.Status != tengen.GameFinished {
			t.Fatalf("status %s after both accepted", snap.Game.Status)
		}
	})
}

// failingBot fails every move.
type failingBot struct{}

func (failingBot) GenMove(context.Context, play.BotRequest) (goban.Move, error) {
	return goban.Move{}, errors.New("engine crashed")
}

// occupiedBot plays on the human's first stone.
type occupiedBot struct{}

func (occupiedBot) GenMove(_ context.Context, req play.BotRequest) (goban.Move, error) {
	m := req.Moves[0]
	return goban.PlayAt(req.Color, goban.Point{X: m.X, Y: m.Y}), nil
}

func TestBotForfeits(t *testing.T) {
	for _, tt := range []struct {
		name   string
		player play.BotPlayer
	}{{"failing", failingBot{}}, {"illegal", occupiedBot{}}} {
		t.Run(tt.name, func(t *testing.T) {
			e := newBotEnv(t, func() []play.Bot { return []play.Bot{{Name: "Broken", Player: tt.player}} }, nil)
			id := e.playBot("Broken", nineByNine(tengen.ChooseBlack))
			e.move(id, 1, tengen.MovePlay, 3, 3)
			snap := e.waitFor(id, "the forfeit", func(s *tengen.GameSnapshot) bool { return s.Game.Status == tengen.GameFinished })
			if snap.Game.Result != "B+F" || snap.Game.MoveCount != 1 {
				t.Fatalf("result %q after %d moves, want B+F after 1", snap.Game.Result, snap.Game.MoveCount)
			}
		})
	}
}

// TestEngineBotMoveCap: the strong level searches a fixed number of
// playouts, which MaxTime does not bound; the bot's deadline interrupts the
// search, and the engine must still answer with a legal play, not an error.
func TestEngineBotMoveCap(t *testing.T) {
	bot := play.NewEngineBot(engine.Options{Level: engine.LevelStrong, Threads: 1, Seed: 1, MaxTime: 20 * time.Millisecond})
	g := goban.MustNewGame(19, 19, goban.MustRuleset("japanese"))
	m, err := bot.GenMove(context.Background(), play.BotRequest{Request: engine.Request{Game: g, Color: goban.Black}})
	if err != nil {
		t.Fatal(err)
	}
	if m.Kind != goban.Play || g.Legal(m) != nil {
		t.Errorf("capped move %+v is not a legal play", m)
	}
}

// lateUsers hides an account from the first lookup by name, as when another
// instance starting at the same moment creates it between this instance's
// lookup and its own creation.
type lateUsers struct {
	tengen.UserService
	hidden bool
}

func (u *lateUsers) FindUserByName(ctx context.Context, name string) (*tengen.User, error) {
	if !u.hidden {
		u.hidden = true
		return nil, tengen.Errorf(tengen.ENOTFOUND, "No such user.")
	}
	return u.UserService.FindUserByName(ctx, name)
}

// TestBotAccountRace starts a service whose bot account another instance
// has just created: the service finds it after its own creation conflicts,
// instead of failing to start.
func TestBotAccountRace(t *testing.T) {
	e := newBotEnv(t, func() []play.Bot { return []play.Bot{{Name: "Racer", Player: passBot{}}} }, nil)
	first, err := sqlite.NewUserService(e.db).FindUserByName(context.Background(), "Racer")
	if err != nil {
		t.Fatal(err)
	}
	e.cfg = func(c *play.Config) { c.Users = &lateUsers{UserService: c.Users} }
	e.restart()
	names := e.svc.Bots()
	if len(names) != 1 || names[0].UserID != first.ID {
		t.Errorf("bots after the race: %+v, want Racer as user %d", names, first.ID)
	}
}
