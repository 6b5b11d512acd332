// Package play implements tengen.PlayService: it plays games by the rules of
// package goban with the server-authoritative clocks of package clock, on top
// of the storage of tengen.GameService.
//
// Every game that someone plays or watches lives in memory as a goban.Game
// rebuilt from the stored moves, guarded by a lock of its own, so that games
// never wait for each other except in the database.
//
// Every change to a game passes through one function, Service.apply (see
// game.go): the command (commands.go, clock.go) validates itself against the
// live game and plans its change on copies of the position and the clock;
// the change is stored in one transaction; only then does the live game take
// the new state, its clock timer is armed, its watchers get the events and
// the bots are asked to act. A refused or failed command leaves everything as
// it was. This is the one place where a move is validated: moveCmd.plan.
//
// After a restart, Open rebuilds the unfinished games from storage and
// re-arms their clocks from the moment of the restart, so that the time the
// server was down is not charged.
//
// The files by job: service.go the service's life and entry points, game.go
// the live game and the one path of changes, commands.go the players'
// commands, clock.go the clocks' timers and checkpoints, views.go what
// clients see, bot.go the computer players, sgf.go the game record,
// cluster.go several instances on one database (Config.Cluster: who owns a
// live game, forwarding to the owner, its events for watchers elsewhere).
package play

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"tengen"
)

// Compile-time check that Service implements the interface.
var _ tengen.PlayService = (*Service)(nil)

// Config configures a Service. Zero values get the defaults documented on
// each field.
type Config struct {
	// Games is the storage; required.
	Games tengen.GameService
	// Challenges are read when a game is created from one (CreateGame,
	// PlayBot); required for those.
	Challenges tengen.ChallengeService
	// Logger receives refusals worth knowing about and failures (default
	// slog.Default()).
	Logger *slog.Logger
	// Now returns the current time (default time.Now). Tests pass a fake
	// clock together with AfterFunc.
	Now func() time.Time
	// AfterFunc calls f in its own goroutine after d and returns a function
	// that cancels the call (default time.AfterFunc).
	AfterFunc func(d time.Duration, f func()) (stop func() bool)
	// CheckpointEvery is how often running clocks of live games are
	// written to storage, which bounds the thinking time lost if the server
	// crashes (default one minute; correspondence games every hour): a
	// stored clock is at most one and a half intervals old, since a game
	// stored within the last half interval (a move) is skipped.
	// Negative disables checkpoints.
	CheckpointEvery time.Duration
	// ChallengeTTL is how long a challenge stays open (default
	// tengen.DefaultChallengeTTL; negative: for ever). An older challenge
	// cannot be accepted, and a sweep every minute from Open on cancels
	// it in storage so that the lobby no longer lists it (see
	// ExpireChallenges).
	ChallengeTTL time.Duration
	// ChallengesExpired, if set, is called with the challenges that a
	// sweep of this service expired (see ExpireChallenges), so that the
	// lobby drops them and their challengers learn of it at once. Of
	// several instances on one database, only the one whose sweep
	// cancelled a challenge reports it.
	ChallengesExpired func([]*tengen.Challenge)
	// EstimatePlayouts is the number of random playouts per point that the
	// server's dead-stone proposal uses (default 100).
	EstimatePlayouts int
	// DeadStones, if set, makes the scoring phase's first proposal (and
	// the bots' judgement of proposals); without it goban's static
	// estimate with EstimatePlayouts is used.
	DeadStones DeadStoneEstimator

	// Bots are the computer opponents (see bot.go). Their accounts are
	// created in Open, which needs Users and Challenges then.
	Bots  []Bot
	Users tengen.UserService
	// Ratings, when set, fixes the bots' ratings at their anchors in
	// Open; without it every game against a bot is unrated.
	Ratings tengen.RatingService
	// BotWorkers bounds how many bot moves this service searches at once
	// (default one per CPU); BotQueue bounds the games waiting for a
	// worker in the in-memory queue (default 256; further games wait
	// outside the queue and retry).
	BotWorkers int
	BotQueue   int
	// BotJobs, when set, is the bot work queue that this service shares
	// with the other instances on one database (postgres.BotQueue): a
	// bot's turn in any game is a job there, and the workers of every
	// instance take jobs from it. Nil means an in-memory queue
	// (internal/memqueue) that this service alone fills and empties.
	BotJobs tengen.BotQueue
	// BotPoll is how often an idle bot worker looks into a shared BotJobs
	// queue without being woken, for jobs whose wake-up did not reach it
	// and jobs whose worker died (default one second). The in-memory queue
	// is never polled: only this service fills it, and wakes its workers.
	BotPoll time.Duration
	// BotWork, when set, is called before a bot worker acts and the func
	// it returns when it is done: it tells the worker pool that the bots
	// share with the engine's analysis (internal/workpool.Pool.Urgent)
	// that urgent work runs, so that analysis makes way. It must not
	// block.
	BotWork func() (release func())
	// BotMoveTimeout caps the time a bot may take for one move, whatever
	// its clock says (default 30 s); a bot that takes longer forfeits.
	BotMoveTimeout time.Duration
	// MaxBotGamesPerUser bounds one person's unfinished games against the
	// computer (default 10; negative means no bound).
	MaxBotGamesPerUser int
	// AbandonAfter ends a game without time limit against a bot after this
	// long without a move (default DefaultAbandonAfter; negative: never;
	// see abandon.go).
	AbandonAfter time.Duration

	// Chat, when set, is read for the players' chat that the SGF of a
	// finished game carries in C[].
	Chat tengen.ChatService

	// MoveStored, if set, is called after each move has been stored, with
	// its kind, for metrics. It runs with the game's lock held and must not
	// block.
	MoveStored func(kind tengen.MoveKind)
	// Changed, if set, is called after every committed change to a game
	// with the game as it was (nil for a new game), as it is now and the
	// events its watchers got, so that the lobby and the players' other
	// pages learn of new games, moves, takeback requests and ends
	// (internal/app connects it to http.Server.GameChanged). It runs with
	// the game's lock held: it must not block or call back into the
	// service.
	Changed func(before, after *tengen.Game, events []*tengen.GameEvent)

	// Cluster, when set, makes this service one of several instances on
	// one database (PostgreSQL; see cluster.go): it owns the games it
	// creates or claims, reaches the games of other instances through
	// Peer and publishes the events of its own on Bus; both are then
	// required. Cluster.Register must have run before Open. Nil: this
	// instance owns every game, and nothing of this runs.
	// Bus also carries wake-ups between the bot workers of the instances
	// that share BotJobs (topic "bot"): a job queued on one instance
	// wakes an idle worker on every instance at once.
	Cluster tengen.ClusterService
	Peer    tengen.Peer
	Bus     tengen.EventBus
	// InstanceTimeout is how long a heartbeat may fail before this
	// instance drops its games, which the others take over by then
	// (default tengen.DefaultInstanceTimeout; the ClusterService must use
	// the same). SweepEvery is how often it heartbeats and takes over the
	// games of dead instances (default one second, at most a third of
	// InstanceTimeout).
	InstanceTimeout time.Duration
	SweepEvery      time.Duration
}

// Service plays games. Create it with New, call Open before use and Close at
// shutdown.
type Service struct {
	cfg Config
	log *slog.Logger

	mu     sync.Mutex      // guards games and closed
	games  map[int64]*game // live games by id
	closed bool

	stop chan struct{}  // closed by Close to end the checkpoint loop
	done sync.WaitGroup // the checkpoint, challenge expiry and abandoned-game loops

	// bots and botNames (by UserNameKey) are set by Open and read-only
	// afterwards.
	bots     map[int64]*Bot
	botNames map[string]*Bot
	// jobs is the bot work queue, nil without bots; localJobs is set when
	// it is the in-memory queue of this service alone (see bot.go).
	jobs      tengen.BotQueue
	localJobs bool
	botWake   chan struct{} // wakes an idle bot worker; buffered, one per worker
	botLease  time.Duration // how long a worker holds a job before others may take it
	botPoll   time.Duration // how often idle workers look into a shared queue; 0: never
	botUnsub  func()        // ends the subscription to the bus's bot topic
	botCtx    context.Context
	botCancel context.CancelFunc
	botWG     sync.WaitGroup // the bot workers
	botBusy   atomic.Int32   // bot workers on a job now
	// botWorkers is the number of bot workers, set by Open.
	botWorkers int

	roundsMu sync.Mutex // guards rounds
	// rounds counts, per game in the scoring phase, how often its bots
	// changed the proposal back (see botScore).
	rounds map[int64]*botRounds

	// With Config.Cluster: epochBase+epochs numbers the loads of games
	// (cluster.go); lastBeat is when the last successful heartbeat began,
	// guarded by beatMu; loading is set while a heartbeat's goroutine
	// loads the games this instance owns but does not hold.
	epochBase int64
	epochs    atomic.Int64
	beatMu    sync.Mutex
	lastBeat  time.Time
	loading   atomic.Bool
	// busQ holds the events waiting for the bus (cluster.go busLoop).
	busQ chan busMsg
	// owners are the owners of other instances' games that forwarding
	// learnt (cluster.go routed).
	ownersMu sync.Mutex
	owners   map[int64]tengen.Instance
	// remote are this instance's bus subscriptions to the games it
	// watches on other instances (cluster.go subscribe); remoteMu is
	// taken after a watch's lock, never before.
	remoteMu sync.Mutex
	remote   map[int64]*remoteGame
	// tick is closed, and replaced, whenever a watch here delivers an
	// event of a game on another instance (awaitEvents waits for it);
	// tickMu guards it and is taken last, after any other lock.
	tickMu sync.Mutex
	tick   chan struct{}
}

// New returns a Service for cfg.
func New(cfg Config) *Service {
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.AfterFunc == nil {
		cfg.AfterFunc = func(d time.Duration, f func()) func() bool { return time.AfterFunc(d, f).Stop }
	}
	if cfg.CheckpointEvery == 0 {
		cfg.CheckpointEvery = time.Minute
	}
	if cfg.ChallengeTTL == 0 {
		cfg.ChallengeTTL = tengen.DefaultChallengeTTL
	}
	if cfg.AbandonAfter == 0 {
		cfg.AbandonAfter = DefaultAbandonAfter
	}
	if cfg.EstimatePlayouts <= 0 {
		cfg.EstimatePlayouts = 100
	}
	if cfg.InstanceTimeout <= 0 {
		cfg.InstanceTimeout = tengen.DefaultInstanceTimeout
	}
	if cfg.SweepEvery <= 0 || cfg.SweepEvery > cfg.InstanceTimeout/3 {
		cfg.SweepEvery = min(time.Second, cfg.InstanceTimeout/3)
	}
	s := &Service{cfg: cfg, log: cfg.Logger, games: map[int64]*game{}, stop: make(chan struct{}), epochBase: newEpochBase()}
	s.botCtx, s.botCancel = context.WithCancel(context.Background())
	if cfg.Cluster != nil {
		s.busQ = make(chan busMsg, busQueue)
	}
	return s
}

// LiveGames returns the number of games held in memory.
func (s *Service) LiveGames() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.games)
}

// BotLoad returns the number of games waiting for a bot worker, the number
// of workers busy with a game, and the number of workers (0 without bots).
// With a shared queue, waiting counts the jobs of every instance.
func (s *Service) BotLoad() (waiting, busy, workers int) {
	if s.jobs != nil {
		if n, err := s.jobs.Waiting(context.Background()); err == nil {
			waiting = n
		}
	}
	return waiting, int(s.botBusy.Load()), s.botWorkers
}

// Open loads every unfinished game, so that its clock runs and times out even
// when nobody watches, and starts the checkpoint loop.
func (s *Service) Open(ctx context.Context) error {
	if s.cfg.Games == nil {
		return errors.New("play: Config.Games is required")
	}
	if err := s.openBots(ctx); err != nil {
		return err
	}
	if s.cfg.Cluster != nil {
		if err := s.openCluster(ctx); err != nil {
			return err
		}
	}
	for offset := 0; s.cfg.Cluster == nil; offset += 100 {
		gs, _, err := s.cfg.Games.FindGames(ctx, tengen.GameFilter{Status: []tengen.GameStatus{tengen.GamePlaying, tengen.GameScoring}, Limit: 100, Offset: offset})
		if err != nil {
			return fmt.Errorf("play: loading games: %w", err)
		}
		for _, g := range gs {
			lg, err := s.lock(ctx, g.ID)
			if err != nil {
				s.log.Error("play: loading game", "game", g.ID, "err", err)
				continue
			}
			lg.mu.Unlock()
		}
		if len(gs) < 100 {
			break
		}
	}
	if s.cfg.CheckpointEvery > 0 {
		s.every(s.cfg.CheckpointEvery, s.checkpointer())
	}
	if s.cfg.AbandonAfter > 0 && len(s.bots) > 0 {
		// Every hour, or four times per AbandonAfter when that is shorter.
		s.every(min(time.Hour, s.cfg.AbandonAfter/4), s.sweepAbandoned)
	}
	if s.cfg.ChallengeTTL > 0 && s.cfg.Challenges != nil {
		if _, err := s.ExpireChallenges(ctx); err != nil {
			return fmt.Errorf("play: expiring challenges: %w", err)
		}
		// Every minute, or every TTL when that is shorter.
		s.every(min(time.Minute, s.cfg.ChallengeTTL), func() {
			if _, err := s.ExpireChallenges(context.Background()); err != nil {
				s.log.Error("play: expiring challenges", "err", err)
			}
		})
	}
	return nil
}

// every starts a goroutine that calls f every d until Close (which waits
// for it through s.done).
func (s *Service) every(d time.Duration, f func()) {
	s.done.Add(1)
	go func() {
		defer s.done.Done()
		t := time.NewTicker(d)
		defer t.Stop()
		for {
			select {
			case <-s.stop:
				return
			case <-t.C:
			}
			f()
		}
	}()
}

// Close stops the timers and writes every running clock to storage as it
// stands now, so that the time until the next Open is not charged. Commands
// after Close fail.
func (s *Service) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.mu.Unlock()
	botErr := s.closeBots()
	s.mu.Lock()
	s.closed = true
	close(s.stop)
	games := make([]*game, 0, len(s.games))
	for _, lg := range s.games {
		games = append(games, lg)
	}
	s.mu.Unlock()
	s.done.Wait()
	var errs []error
	for _, lg := range games {
		lg.mu.Lock()
		if lg.stopTimer != nil {
			lg.stopTimer()
			lg.stopTimer = nil
		}
		if lg.g != nil {
			errs = append(errs, s.apply(context.Background(), lg, checkpointCmd{}))
		}
		lg.mu.Unlock()
	}
	if s.cfg.Cluster != nil {
		// The others take the games over at once.
		errs = append(errs, s.cfg.Cluster.Release(context.Background()))
	}
	return errors.Join(append(errs, botErr)...)
}

// lock returns the live game with its lock held, loading it from storage
// if needed.
func (s *Service) lock(ctx context.Context, id int64) (*game, error) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil, tengen.Errorf(tengen.EINTERNAL, "The server is shutting down.")
	}
	lg := s.games[id]
	if lg == nil {
		lg = newGame(id)
		s.games[id] = lg
	}
	s.mu.Unlock()
	lg.mu.Lock()
	if lg.evicted {
		lg.mu.Unlock()
		return s.lock(ctx, id)
	}
	if lg.g == nil {
		err := s.claim(ctx, id)
		if err == nil {
			err = s.load(ctx, lg)
		}
		if err != nil {
			lg.evicted = true
			lg.mu.Unlock()
			s.mu.Lock()
			if s.games[id] == lg {
				delete(s.games, id)
			}
			s.mu.Unlock()
			return nil, err
		}
	}
	return lg, nil
}

// unlock releases lg, first dropping it from memory if it is finished and
// nobody watches it: finished games are loaded again when asked for.
// Taking s.mu with lg.mu held is safe because nothing takes lg.mu with s.mu
// held.
func (s *Service) unlock(lg *game) {
	if lg.g != nil && lg.g.Status == tengen.GameFinished && len(lg.watchers) == 0 && !lg.evicted {
		lg.evicted = true
		s.mu.Lock()
		if s.games[lg.id] == lg {
			delete(s.games, lg.id)
		}
		s.mu.Unlock()
	}
	lg.mu.Unlock()
}

// Snapshot implements tengen.PlayService.
func (s *Service) Snapshot(ctx context.Context, gameID, userID int64) (*tengen.GameSnapshot, error) {
	if s.cfg.Cluster != nil {
		ps, err := s.anySnapshot(ctx, gameID, userID)
		if err != nil {
			return nil, err
		}
		return ps.State, nil
	}
	lg, err := s.lock(ctx, gameID)
	if err != nil {
		return nil, err
	}
	defer s.unlock(lg)
	return s.snapshot(lg, userID), nil
}

// Watch implements tengen.PlayService.
func (s *Service) Watch(ctx context.Context, gameID, userID int64, sink func(*tengen.GameEvent)) (func(), error) {
	if s.cfg.Cluster != nil {
		return s.watchCluster(ctx, gameID, userID, sink)
	}
	lg, err := s.lock(ctx, gameID)
	if err != nil {
		return nil, err
	}
	defer s.unlock(lg)
	return s.watchLocked(lg, userID, sink, nil), nil
}

// watchLocked adds sink as a watcher of lg, sends it the snapshot for
// userID and returns the function that stops it; w is the watch it belongs
// to with several instances (nil otherwise). The caller holds lg.mu.
func (s *Service) watchLocked(lg *game, userID int64, sink func(*tengen.GameEvent), w *watch) func() {
	id := lg.nextWatch
	lg.nextWatch++
	lg.watchers[id] = watcher{sink: sink, w: w}
	sink(&tengen.GameEvent{Type: tengen.EventGame, GameID: lg.id, State: s.snapshot(lg, userID)})
	var once sync.Once
	stop := func() {
		once.Do(func() {
			lg.mu.Lock()
			delete(lg.watchers, id)
			s.unlock(lg)
		})
	}
	return stop
}

// Do implements tengen.PlayService.
func (s *Service) Do(ctx context.Context, gameID, userID int64, cmd tengen.Command) (*tengen.GameSnapshot, error) {
	if s.cfg.Cluster != nil {
		ps, err := routed(s, gameID, func() (*tengen.PeerSnapshot, error) { return s.doLocal(ctx, gameID, userID, cmd) },
			func(o tengen.Instance) (*tengen.PeerSnapshot, error) {
				ps, err := s.cfg.Peer.Do(ctx, o, gameID, userID, cmd)
				if err == nil {
					s.awaitEvents(ctx, gameID, ps.Epoch, ps.N)
				}
				return ps, err
			})
		if err != nil {
			return nil, err
		}
		return ps.State, nil
	}
	ps, err := s.doLocal(ctx, gameID, userID, cmd)
	if err != nil {
		return nil, err
	}
	return ps.State, nil
}

// doLocal is Do on a game this instance owns. It returns the snapshot with
// the game's place in its event stream after the command (zero without
// Config.Cluster).
func (s *Service) doLocal(ctx context.Context, gameID, userID int64, cmd tengen.Command) (*tengen.PeerSnapshot, error) {
	c, err := commandOf(userID, cmd)
	if err != nil {
		return nil, err
	}
	if cc, ok := c.(cancelCmd); ok {
		// The role is looked up before the game's lock is taken: plan runs
		// under it and must not wait for storage.
		if c, err = s.adminCancel(ctx, cc); err != nil {
			return nil, err
		}
	}
	if vc, ok := c.(vacationCmd); ok {
		// As the admin's role above: read before the game's lock.
		if c, err = s.userVacation(ctx, vc); err != nil {
			return nil, err
		}
	}
	lg, err := s.lock(ctx, gameID)
	if err != nil {
		return nil, err
	}
	defer s.unlock(lg)
	if err := s.apply(ctx, lg, c); err != nil {
		return nil, err
	}
	ps := &tengen.PeerSnapshot{Epoch: lg.epoch, N: lg.evn}
	if cmd.Quiet {
		ps.State = s.brief(lg, userID)
	} else {
		ps.State = s.snapshot(lg, userID)
	}
	return ps, nil
}

// commandOf returns the command that runs cmd for userID.
func commandOf(userID int64, cmd tengen.Command) (command, error) {
	switch cmd.Kind {
	case tengen.CommandMove:
		return moveCmd{userID: userID, MoveCommand: cmd.Move}, nil
	case tengen.CommandToggle:
		return toggleCmd{userID: userID, p: cmd.Point}, nil
	case tengen.CommandAccept:
		return acceptCmd{userID: userID, seq: cmd.Seq}, nil
	case tengen.CommandResume:
		return resumeCmd{userID: userID}, nil
	case tengen.CommandCancel:
		return cancelCmd{userID: userID}, nil
	case tengen.CommandUndo:
		return undoCmd{userID: userID}, nil
	case tengen.CommandUndoAccept:
		return undoAnswerCmd{userID: userID, accept: true}, nil
	case tengen.CommandUndoDecline:
		return undoAnswerCmd{userID: userID}, nil
	case tengen.CommandConditional:
		return conditionalCmd{userID: userID, moves: cmd.Points}, nil
	case tengen.CommandForfeit:
		return forfeitCmd{userID: userID, moveCount: cmd.Seq}, nil
	case tengen.CommandVacation:
		return vacationCmd{userID: userID}, nil
	}
	if c, ok := rulesCommandOf(userID, cmd); ok {
		return c, nil
	}
	return nil, tengen.Errorf(tengen.EINVALID, "Unknown command %q.", cmd.Kind)
}

// CreateGame implements tengen.PlayService.
func (s *Service) CreateGame(ctx context.Context, challengeID, userID int64) (*tengen.Game, error) {
	if s.cfg.Challenges == nil {
		return nil, errors.New("play: CreateGame needs Config.Challenges")
	}
	c, err := s.cfg.Challenges.FindChallengeByID(ctx, challengeID)
	if err != nil {
		return nil, err
	}
	return s.create(ctx, c, userID)
}

// create makes the game of challenge c, accepted by userID, through the one
// path of changes, and keeps it in memory with its clock running.
func (s *Service) create(ctx context.Context, c *tengen.Challenge, userID int64) (*tengen.Game, error) {
	cmd := createCmd{challenge: c, userID: userID, settings: c.Settings}
	if c.RankHandicapPending() && userID != 0 && c.CanAccept(userID) == nil {
		// The handicap follows the ranks of the challenger and the
		// acceptor as they are now; storage checks them again.
		set, err := s.rankSettings(ctx, c, userID)
		if err != nil {
			return nil, err
		}
		cmd.settings, cmd.resolved = set, true
	}
	lg := newGame(0)
	lg.mu.Lock()
	defer s.unlock(lg)
	if err := s.apply(ctx, lg, cmd); err != nil {
		return nil, err
	}
	if err := s.inheritVacations(ctx, lg); err != nil {
		s.log.Error("play: vacation of a new game", "game", lg.id, "err", err)
	}
	return lg.g, nil
}

// rankSettings returns the settings of the game userID makes from the
// open challenge c whose handicap follows the ranks.
func (s *Service) rankSettings(ctx context.Context, c *tengen.Challenge, userID int64) (tengen.GameSettings, error) {
	if s.cfg.Users == nil {
		return c.Settings, errors.New("play: a handicap from the ranks needs Config.Users")
	}
	acceptor, err := s.cfg.Users.FindUserByID(ctx, userID)
	if err != nil {
		return c.Settings, err
	}
	challenger := c.Challenger
	if challenger == nil {
		if challenger, err = s.cfg.Users.FindUserByID(ctx, c.ChallengerID); err != nil {
			return c.Settings, err
		}
	}
	return c.GameSettings(challenger.Rank, acceptor.Rank)
}
