// Package play implements tengen.PlayService: it plays games by the rules of
// package goban with the server-authoritative clocks of package clock, on top
// of the storage of tengen.GameService.
//
// Every game that someone plays or watches lives in memory as a goban.Game
// rebuilt from the stored moves, guarded by a lock of its own, so that games
// never wait for each other except in the database. A change is checked on
// copies of the position and the clock, committed to the database, and only
// then made to the live game and published to its watchers; a refused or
// failed command leaves everything as it was. After a restart, Open rebuilds
// the unfinished games from storage and re-arms their clocks from the moment
// of the restart, so that the time the server was down is not charged.
package play

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"tengen"
	"tengen/clock"
	"tengen/goban"
)

// Compile-time check that Service implements the interface.
var _ tengen.PlayService = (*Service)(nil)

// Config configures a Service. Zero values get the defaults documented on
// each field.
type Config struct {
	// Games is the storage; required.
	Games tengen.GameService
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
	// crashes (default one minute; correspondence games every hour).
	// Negative disables checkpoints.
	CheckpointEvery time.Duration
	// EstimatePlayouts is the number of random playouts per point that the
	// server's dead-stone proposal uses (default 100).
	EstimatePlayouts int
	// DeadStones, if set, makes the scoring phase's first proposal (and
	// the bots' judgement of proposals); without it goban's static
	// estimate with EstimatePlayouts is used.
	DeadStones DeadStoneEstimator

	// Bots are the computer opponents (see bot.go). Their accounts are
	// created in Open, which needs Users and Challenges then.
	Bots       []Bot
	Users      tengen.UserService
	Challenges tengen.ChallengeService
	// BotWorkers bounds how many bot moves are searched at once (default
	// one per CPU); BotQueue bounds the games waiting for a worker
	// (default 256; further games wait outside the queue and retry).
	BotWorkers int
	BotQueue   int
	// BotMoveTimeout caps the time a bot may take for one move, whatever
	// its clock says (default 30 s); a bot that takes longer forfeits.
	BotMoveTimeout time.Duration
	// MaxBotGamesPerUser bounds one person's unfinished games against the
	// computer (default 10; negative means no bound).
	MaxBotGamesPerUser int
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
	done sync.WaitGroup // the checkpoint loop

	// bots and botNames (by UserNameKey) are set by Open and read-only
	// afterwards.
	bots      map[int64]*Bot
	botNames  map[string]*Bot
	botQueue  chan int64 // games waiting for a bot worker; nil without bots
	botCtx    context.Context
	botCancel context.CancelFunc
	botWG     sync.WaitGroup // the bot workers
}

// game is one live game. Every field is guarded by mu.
type game struct {
	mu sync.Mutex

	id int64
	g  *tengen.Game // nil until loaded; replaced, never changed, on every change
	// moves are the stored moves; published snapshots share the array, so
	// elements are only ever appended.
	moves []*tengen.GameMove
	pos   position
	rules goban.Ruleset
	komi  float64
	clk   *clock.GameClock // nil for games without time limit
	rec   tengen.PlayRecord
	score *goban.Score // the count of rec.Dead in the scoring phase and after a counted end

	stopTimer func() bool // cancels the timer armed for the clock's deadline
	// evicted is set when the game leaves the service's map; whoever
	// finds it set after taking mu looks the game up again.
	evicted   bool
	watchers  map[int]func(*tengen.GameEvent)
	nextWatch int

	// botQueued: the game waits in the bot queue; botBusy: a bot worker
	// has it; botAgain: something changed while botBusy, look again.
	botQueued, botBusy, botAgain bool
	// botRounds counts per colour how often a bot changed the proposal
	// back in the scoring phase that began at move botRoundsAt.
	botRounds   map[goban.Color]int
	botRoundsAt int
}

// position is the board of a game: the goban game, plus Black's handicap
// stones while they are being placed freely (goban places them all at once).
type position struct {
	gb       *goban.Game
	placing  int           // free handicap stones still to place
	placed   []goban.Point // those placed so far
	handicap int
}

func (p position) clone() position {
	return position{gb: p.gb.Clone(), placing: p.placing, placed: slices.Clone(p.placed), handicap: p.handicap}
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
	if cfg.EstimatePlayouts <= 0 {
		cfg.EstimatePlayouts = 100
	}
	s := &Service{cfg: cfg, log: cfg.Logger, games: map[int64]*game{}, stop: make(chan struct{})}
	s.botCtx, s.botCancel = context.WithCancel(context.Background())
	return s
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
	for offset := 0; ; offset += 100 {
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
		s.done.Add(1)
		go s.checkpointLoop()
	}
	return nil
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
			errs = append(errs, s.checkpoint(context.Background(), lg))
		}
		lg.mu.Unlock()
	}
	return errors.Join(append(errs, botErr)...)
}

// checkpointLoop writes running clocks to storage every CheckpointEvery
// (correspondence clocks every hour) until Close.
func (s *Service) checkpointLoop() {
	defer s.done.Done()
	t := time.NewTicker(s.cfg.CheckpointEvery)
	defer t.Stop()
	lastSlow := s.cfg.Now()
	for {
		select {
		case <-s.stop:
			return
		case <-t.C:
		}
		slow := s.cfg.Now().Sub(lastSlow) >= time.Hour
		if slow {
			lastSlow = s.cfg.Now()
		}
		s.mu.Lock()
		games := make([]*game, 0, len(s.games))
		for _, lg := range s.games {
			games = append(games, lg)
		}
		s.mu.Unlock()
		for _, lg := range games {
			lg.mu.Lock()
			if lg.g != nil && (slow || lg.g.Settings.TimeControl.Kind != clock.Correspondence) {
				if err := s.checkpoint(context.Background(), lg); err != nil {
					s.log.Error("play: clock checkpoint", "game", lg.id, "err", err)
				}
			}
			lg.mu.Unlock()
		}
	}
}

// checkpoint charges the running turn's time so far and stores the clock.
// The caller holds lg.mu.
func (s *Service) checkpoint(ctx context.Context, lg *game) error {
	if lg.clk == nil || lg.g.Status != tengen.GamePlaying {
		return nil
	}
	if _, running := lg.clk.Running(); !running {
		return nil
	}
	clk := lg.clk.Clone()
	now := s.cfg.Now()
	if flagged, err := clk.Checkpoint(now); err != nil {
		return err
	} else if flagged {
		return s.flag(ctx, lg, now)
	}
	rec := lg.rec
	var err error
	if rec.Clock, err = clk.MarshalJSON(); err != nil {
		return err
	}
	g, err := s.cfg.Games.UpdateGame(ctx, lg.id, lg.g.MoveCount, tengen.GameUpdate{ToMove: lg.g.ToMove, Status: lg.g.Status, Record: &rec})
	if err != nil {
		return err
	}
	lg.g, lg.clk, lg.rec = g, clk, rec
	return nil
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
		lg = &game{id: id, watchers: map[int]func(*tengen.GameEvent){}}
		s.games[id] = lg
	}
	s.mu.Unlock()
	lg.mu.Lock()
	if lg.evicted {
		lg.mu.Unlock()
		return s.lock(ctx, id)
	}
	if lg.g == nil {
		if err := s.load(ctx, lg); err != nil {
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

// rulesOf returns the goban ruleset of a game's settings.
func rulesOf(set tengen.GameSettings) (goban.Ruleset, error) {
	r, err := goban.RulesetByName(set.Ruleset)
	if err != nil {
		return goban.Ruleset{}, tengen.Errorf(tengen.EINVALID, "Unknown ruleset %q.", set.Ruleset)
	}
	return r, nil
}

// newPosition sets up the empty board of a game: the fixed handicap stones
// and the komi (custom, or the ruleset's default for the board and the
// handicap).
func newPosition(set tengen.GameSettings, rules goban.Ruleset) (position, float64, error) {
	n := set.BoardSize
	gb, err := goban.NewGame(n, n, rules)
	if err != nil {
		return position{}, 0, err
	}
	p := position{gb: gb, handicap: set.Handicap}
	if set.FreeHandicap && set.Handicap >= 2 {
		p.placing = set.Handicap
	} else if set.Handicap > 0 {
		if err := gb.SetHandicap(set.Handicap, false); err != nil {
			return position{}, 0, err
		}
	}
	komi := rules.DefaultKomi(n, n, set.Handicap)
	if set.Komi != nil {
		komi = *set.Komi
	}
	gb.SetKomi(komi)
	return p, komi, nil
}

// toMove is whose turn it is in p: Black while placing handicap stones.
func (p position) toMove() goban.Color {
	if p.placing > 0 {
		return goban.Black
	}
	return p.gb.ToMove()
}

// load rebuilds lg from storage: the game, its moves replayed into a goban
// game, the play record and the clock, which resumes from now. A game whose
// clock never started gets it started. The caller holds lg.mu.
func (s *Service) load(ctx context.Context, lg *game) error {
	g, err := s.cfg.Games.FindGameByID(ctx, lg.id)
	if err != nil {
		return err
	}
	moves, err := s.cfg.Games.FindMoves(ctx, lg.id, 0)
	if err != nil {
		return err
	}
	rec, err := s.cfg.Games.FindPlayRecord(ctx, lg.id)
	if err != nil {
		return err
	}
	rules, err := rulesOf(g.Settings)
	if err != nil {
		return err
	}
	pos, komi, err := newPosition(g.Settings, rules)
	if err != nil {
		return err
	}
	resumed := map[int]goban.Color{}
	for _, r := range rec.Resumptions {
		resumed[r.AfterSeq] = r.Color
	}
	for _, m := range moves {
		if _, err := pos.apply(m, true); err != nil {
			s.log.Error("play: stored move does not replay", "game", g.ID, "seq", m.Seq, "err", err)
		}
		if c, ok := resumed[m.Seq]; ok {
			if err := pos.gb.Resume(c); err != nil {
				s.log.Error("play: stored resumption does not replay", "game", g.ID, "seq", m.Seq, "err", err)
			}
		}
	}
	lg.g, lg.moves, lg.pos, lg.rules, lg.komi, lg.rec = g, moves, pos, rules, komi, *rec
	lg.clk, lg.score = nil, nil
	now := s.cfg.Now()
	if tc, ok := timeControlOf(g.Settings.TimeControl); ok {
		if len(rec.Clock) > 0 {
			var clk clock.GameClock
			if err := clk.UnmarshalJSON(rec.Clock); err != nil {
				return fmt.Errorf("play: game %d: stored clock: %w", g.ID, err)
			}
			clk.Recover(now)
			lg.clk = &clk
		} else {
			clk, err := clock.NewGameClock(tc)
			if err != nil {
				return fmt.Errorf("play: game %d: %w", g.ID, err)
			}
			lg.clk = clk
		}
	}
	switch g.Status {
	case tengen.GameScoring:
		if err := lg.count(); err != nil {
			return err
		}
	case tengen.GameFinished:
		if len(rec.Dead) > 0 || rec.AcceptedBlack > 0 && rec.AcceptedBlack == rec.AcceptedWhite {
			if err := lg.count(); err != nil {
				return err
			}
		}
	case tengen.GamePlaying:
		// Games created before the first load have no clock yet, and the
		// stored turn of a new game follows the generic rule (White first
		// after a fixed handicap) where the ruleset may say otherwise.
		want := pos.toMove()
		_, running := runningOf(lg.clk)
		if want != g.ToMove || lg.clk != nil && !running {
			rec := lg.rec
			if lg.clk != nil && !running {
				clk := lg.clk.Clone()
				if err := clk.Start(clock.Color(want), now); err != nil {
					return fmt.Errorf("play: game %d: start clock: %w", g.ID, err)
				}
				if rec.Clock, err = clk.MarshalJSON(); err != nil {
					return err
				}
				lg.clk = clk
			}
			if want != g.ToMove {
				s.log.Warn("play: stored turn corrected", "game", g.ID, "stored", g.ToMove, "rules", want)
			}
			g2, err := s.cfg.Games.UpdateGame(ctx, g.ID, g.MoveCount, tengen.GameUpdate{ToMove: want, Status: g.Status, Record: &rec})
			if err != nil {
				lg.g = nil
				return err
			}
			lg.g, lg.rec = g2, rec
		}
		s.arm(lg)
	}
	s.botTurn(lg)
	return nil
}

func runningOf(c *clock.GameClock) (time.Time, bool) {
	if c == nil {
		return time.Time{}, false
	}
	return c.Running()
}

// apply plays the stored or new move m on p and returns the stones it
// captured. replay tolerates moves the rules refuse now (a stored game is
// replayed as it was played). It does not check turns or phases.
func (p *position) apply(m *tengen.GameMove, replay bool) ([]goban.Point, error) {
	c := m.Color
	if p.placing > 0 {
		switch m.Kind {
		case tengen.MovePlay:
			pt := goban.Point{X: m.X, Y: m.Y}
			if !p.gb.Board().OnBoard(pt) {
				return nil, moveError(goban.ErrOffBoard)
			}
			if slices.Contains(p.placed, pt) {
				return nil, moveError(goban.ErrOccupied)
			}
			p.placed = append(p.placed, pt)
			p.placing--
			if p.placing == 0 {
				komi := p.gb.Komi()
				if err := p.gb.PlaceHandicap(p.placed); err != nil {
					return nil, err
				}
				p.gb.SetKomi(komi)
				p.placed = nil
			}
			return nil, nil
		case tengen.MovePass:
			return nil, tengen.Errorf(tengen.EINVALID, "Place all handicap stones first.")
		}
		return nil, nil // a resignation while placing changes no stones
	}
	var mv goban.Move
	switch m.Kind {
	case tengen.MovePlay:
		mv = goban.PlayAt(c, goban.Point{X: m.X, Y: m.Y})
	case tengen.MovePass:
		mv = goban.PassMove(c)
	case tengen.MoveResign:
		// Resignation is allowed on either turn and in the scoring phase,
		// which goban's Play does not know.
		if !p.gb.Ended() {
			p.gb.End(c.Opponent(), goban.EndResign)
		}
		return nil, nil
	default:
		return nil, tengen.Errorf(tengen.EINVALID, "Unknown move kind %q.", m.Kind)
	}
	before := p.gb.Board().Clone()
	if err := p.gb.Play(mv); err != nil {
		if !replay {
			return nil, moveError(err)
		}
		if _, err := p.gb.PlayForced(mv); err != nil {
			return nil, err
		}
	}
	var captured []goban.Point
	if m.Kind == tengen.MovePlay {
		b := p.gb.Board()
		for y := 0; y < b.Height(); y++ {
			for x := 0; x < b.Width(); x++ {
				pt := goban.Point{X: x, Y: y}
				if c := before.At(pt); c != goban.Empty && b.At(pt) == goban.Empty {
					captured = append(captured, pt)
				}
			}
		}
	}
	return captured, nil
}

// moveError translates goban's reason for refusing a move.
func moveError(err error) error {
	switch {
	case errors.Is(err, goban.ErrOccupied):
		return tengen.Errorf(tengen.EINVALID, "Illegal move: the point is occupied.")
	case errors.Is(err, goban.ErrSuicide):
		return tengen.Errorf(tengen.EINVALID, "Illegal move: suicide.")
	case errors.Is(err, goban.ErrSuperko):
		return tengen.Errorf(tengen.EINVALID, "Illegal move: superko (the position would repeat).")
	case errors.Is(err, goban.ErrKo):
		return tengen.Errorf(tengen.EINVALID, "Illegal move: ko.")
	case errors.Is(err, goban.ErrOffBoard):
		return tengen.Errorf(tengen.EINVALID, "Illegal move: off the board.")
	case errors.Is(err, goban.ErrPassNotAllowed):
		return tengen.Errorf(tengen.EINVALID, "Pass is not allowed while a stone can be played.")
	case errors.Is(err, goban.ErrNotYourTurn):
		return tengen.Errorf(tengen.EFORBIDDEN, "It is not your turn.")
	case errors.Is(err, goban.ErrGameOver):
		return tengen.Errorf(tengen.ECONFLICT, "The game is over.")
	}
	var e *tengen.Error
	if errors.As(err, &e) {
		return err
	}
	return tengen.Errorf(tengen.EINVALID, "Illegal move: %s.", err.Error())
}

// count computes the score of the current proposal. The caller holds lg.mu.
func (lg *game) count() error {
	sc, err := lg.pos.gb.Score(lg.rec.Dead)
	if err != nil {
		return err
	}
	lg.score = sc
	return nil
}

// arm sets the timer for the running clock's deadline, replacing any earlier
// one. The caller holds lg.mu.
func (s *Service) arm(lg *game) {
	if lg.stopTimer != nil {
		lg.stopTimer()
		lg.stopTimer = nil
	}
	if lg.clk == nil || lg.g.Status != tengen.GamePlaying {
		return
	}
	deadline, ok := lg.clk.Deadline()
	if !ok {
		return
	}
	d := max(deadline.Sub(s.cfg.Now()), 0)
	id := lg.id
	lg.stopTimer = s.cfg.AfterFunc(d, func() { s.timeout(id) })
}

// timeout runs when a game's deadline timer fires: it ends the game if the
// flag has fallen and re-arms the timer otherwise.
func (s *Service) timeout(id int64) {
	ctx := context.Background()
	s.mu.Lock()
	lg := s.games[id]
	closed := s.closed
	s.mu.Unlock()
	if lg == nil || closed {
		return
	}
	lg.mu.Lock()
	defer s.unlock(lg)
	if lg.g == nil || lg.clk == nil || lg.g.Status != tengen.GamePlaying {
		return
	}
	now := s.cfg.Now()
	deadline, ok := lg.clk.Deadline()
	if !ok {
		return
	}
	if now.Before(deadline) {
		s.arm(lg)
		return
	}
	if err := s.flag(ctx, lg, now); err != nil {
		s.log.Error("play: ending game on time", "game", id, "err", err)
		// Try again shortly; the database may be back.
		lg.stopTimer = s.cfg.AfterFunc(time.Second, func() { s.timeout(id) })
	}
}

// flag ends the game on time at t: the running player's flag has fallen.
// The caller holds lg.mu.
func (s *Service) flag(ctx context.Context, lg *game, t time.Time) error {
	clk := lg.clk.Clone()
	loser, ok := clk.Check(t)
	if !ok {
		if _, err := clk.Checkpoint(t); err != nil {
			return err
		}
		if loser, ok = clk.Flagged(); !ok {
			return nil
		}
	}
	result := "B+T"
	if loser == clock.Black {
		result = "W+T"
	}
	rec := lg.rec
	var err error
	if rec.Clock, err = clk.MarshalJSON(); err != nil {
		return err
	}
	g, err := s.cfg.Games.UpdateGame(ctx, lg.id, lg.g.MoveCount, tengen.GameUpdate{ToMove: lg.g.ToMove, Status: tengen.GameFinished, Result: result, Record: &rec})
	if err != nil {
		return err
	}
	winner := goban.Black
	if loser == clock.Black {
		winner = goban.White
	}
	if !lg.pos.gb.Ended() {
		lg.pos.gb.End(winner, goban.EndTime)
	}
	lg.g, lg.clk, lg.rec = g, clk, rec
	s.arm(lg)
	cv := lg.clockView()
	lg.publish(&tengen.GameEvent{Type: tengen.EventClock, GameID: lg.id, Clock: cv})
	lg.publish(&tengen.GameEvent{Type: tengen.EventPhase, GameID: lg.id, Game: g, Clock: cv})
	s.log.Info("play: game ended on time", "game", lg.id, "result", result)
	return nil
}

// publish sends ev to every watcher. The caller holds lg.mu, which keeps
// events in order.
func (lg *game) publish(ev *tengen.GameEvent) {
	for _, sink := range lg.watchers {
		sink(ev)
	}
}

// board returns the position as rows of '.', 'B' and 'W'.
func (p position) board() []string {
	b := p.gb.Board()
	rows := make([]string, b.Height())
	var sb strings.Builder
	for y := range rows {
		sb.Reset()
		for x := 0; x < b.Width(); x++ {
			switch b.At(goban.Point{X: x, Y: y}) {
			case goban.Black:
				sb.WriteByte('B')
			case goban.White:
				sb.WriteByte('W')
			default:
				if slices.Contains(p.placed, goban.Point{X: x, Y: y}) {
					sb.WriteByte('B')
				} else {
					sb.WriteByte('.')
				}
			}
		}
		rows[y] = sb.String()
	}
	return rows
}

func (p position) captures() tengen.Captures {
	return tengen.Captures{Black: p.gb.Captures(goban.Black), White: p.gb.Captures(goban.White)}
}

func clockSide(s clock.State) tengen.ClockSide {
	return tengen.ClockSide{MainMs: s.MainTime.Milliseconds(), Overtime: s.Overtime, Periods: s.Periods,
		PeriodMs: s.PeriodLeft.Milliseconds(), Stones: s.Stones, TimedOut: s.TimedOut}
}

// clockView is the clock as clients see it, nil without a clock. The caller
// holds lg.mu.
func (lg *game) clockView() *tengen.ClockView {
	if lg.clk == nil {
		return nil
	}
	cv := &tengen.ClockView{Kind: lg.g.Settings.TimeControl.Kind,
		Black: clockSide(lg.clk.State(clock.Black)), White: clockSide(lg.clk.State(clock.White))}
	if since, running := lg.clk.Running(); running {
		since = since.UTC()
		cv.Running, cv.RunningSince = goban.Color(lg.clk.Turn()), &since
		if d, ok := lg.clk.Deadline(); ok {
			d = d.UTC()
			cv.Deadline = &d
		}
	}
	return cv
}

// proposal returns the current proposal, nil outside the scoring phase and
// counted ends. The caller holds lg.mu.
func (lg *game) proposal() *tengen.Proposal {
	if lg.score == nil {
		return nil
	}
	p := &tengen.Proposal{Seq: lg.rec.ProposalSeq, Dead: slices.Clone(lg.rec.Dead), AcceptedBy: []goban.Color{}}
	if p.Dead == nil {
		p.Dead = []goban.Point{}
	}
	if lg.rec.AcceptedBlack == p.Seq {
		p.AcceptedBy = append(p.AcceptedBy, goban.Black)
	}
	if lg.rec.AcceptedWhite == p.Seq {
		p.AcceptedBy = append(p.AcceptedBy, goban.White)
	}
	return p
}

func scoreSide(b goban.Breakdown) tengen.ScoreSide {
	return tengen.ScoreSide{Territory: b.Territory, Captures: b.Captures, Dead: b.Dead, Lost: b.Lost, OwnDead: b.OwnDead,
		Stones: b.Stones, Komi: b.Komi, HandicapBonus: b.HandicapBonus, Total: b.Total}
}

// scoreView converts the current count. The caller holds lg.mu.
func (lg *game) scoreView() *tengen.ScoreView {
	sc := lg.score
	if sc == nil {
		return nil
	}
	w, h := lg.pos.gb.Width(), lg.pos.gb.Height()
	owner := make([]string, h)
	buf := make([]byte, w)
	for y := range h {
		for x := range w {
			switch sc.Owner[y*w+x] {
			case goban.Black:
				buf[x] = 'B'
			case goban.White:
				buf[x] = 'W'
			default:
				buf[x] = '.'
			}
		}
		owner[y] = string(buf)
	}
	return &tengen.ScoreView{Scoring: sc.Scoring.String(), Result: sc.Result.String(), Margin: sc.Margin(),
		Black: scoreSide(sc.Black), White: scoreSide(sc.White), Owner: owner, Seki: sc.Seki}
}

// snapshot returns the game as userID sees it. The caller holds lg.mu.
func (s *Service) snapshot(lg *game, userID int64) *tengen.GameSnapshot {
	snap := &tengen.GameSnapshot{
		Game: lg.g, You: lg.g.ColorOf(userID), Moves: lg.moves[:len(lg.moves):len(lg.moves)],
		Board: lg.pos.board(), Captures: lg.pos.captures(), Komi: lg.komi,
		Clock: lg.clockView(), Proposal: lg.proposal(), Score: lg.scoreView(),
		ServerTime: s.cfg.Now().UTC(),
	}
	if snap.Moves == nil {
		snap.Moves = []*tengen.GameMove{}
	}
	if n := len(lg.moves); n > 0 {
		snap.LastMove = lg.moves[n-1]
	}
	snap.Handicap = tengen.Handicap{Stones: lg.g.Settings.Handicap, Free: lg.g.Settings.FreeHandicap, Points: []goban.Point{}}
	if _, pts := lg.pos.gb.Handicap(); len(pts) > 0 {
		snap.Handicap.Points = pts
	} else if len(lg.pos.placed) > 0 {
		snap.Handicap.Points = lg.pos.placed
	}
	return snap
}

// Snapshot implements tengen.PlayService.
func (s *Service) Snapshot(ctx context.Context, gameID, userID int64) (*tengen.GameSnapshot, error) {
	lg, err := s.lock(ctx, gameID)
	if err != nil {
		return nil, err
	}
	defer s.unlock(lg)
	return s.snapshot(lg, userID), nil
}

// Watch implements tengen.PlayService.
func (s *Service) Watch(ctx context.Context, gameID, userID int64, sink func(*tengen.GameEvent)) (func(), error) {
	lg, err := s.lock(ctx, gameID)
	if err != nil {
		return nil, err
	}
	defer s.unlock(lg)
	id := lg.nextWatch
	lg.nextWatch++
	lg.watchers[id] = sink
	sink(&tengen.GameEvent{Type: tengen.EventGame, GameID: gameID, State: s.snapshot(lg, userID)})
	var once sync.Once
	stop := func() {
		once.Do(func() {
			lg.mu.Lock()
			delete(lg.watchers, id)
			s.unlock(lg)
		})
	}
	return stop, nil
}

// player returns userID's colour in the game, or EFORBIDDEN.
func player(lg *game, userID int64) (goban.Color, error) {
	c := lg.g.ColorOf(userID)
	if c == goban.Empty {
		if userID == 0 {
			return goban.Empty, tengen.Errorf(tengen.EUNAUTHORIZED, "Log in to play.")
		}
		return goban.Empty, tengen.Errorf(tengen.EFORBIDDEN, "You are not playing in this game.")
	}
	return c, nil
}

// sameMove reports whether a stored move is what cmd asks for.
func sameMove(m *tengen.GameMove, c goban.Color, cmd tengen.MoveCommand) bool {
	if m.Color != c || m.Kind != cmd.Kind {
		return false
	}
	return m.Kind != tengen.MovePlay || m.X == cmd.X && m.Y == cmd.Y
}

// Move implements tengen.PlayService.
func (s *Service) Move(ctx context.Context, gameID, userID int64, cmd tengen.MoveCommand) (*tengen.GameSnapshot, error) {
	lg, err := s.lock(ctx, gameID)
	if err != nil {
		return nil, err
	}
	defer s.unlock(lg)
	color, err := player(lg, userID)
	if err != nil {
		return nil, err
	}
	g := lg.g
	if cmd.Seq == 0 && cmd.Kind == tengen.MoveResign {
		cmd.Seq = g.MoveCount + 1
	}
	if cmd.Seq >= 1 && cmd.Seq <= len(lg.moves) && sameMove(lg.moves[cmd.Seq-1], color, cmd) {
		return s.snapshot(lg, userID), nil // a repeated submission: already applied
	}
	m := &tengen.GameMove{GameID: g.ID, Seq: cmd.Seq, Color: color, Kind: cmd.Kind, X: cmd.X, Y: cmd.Y}
	if err := tengen.ValidateMove(*m, g.Settings.BoardSize); err != nil {
		return nil, err
	}
	switch {
	case cmd.Seq != g.MoveCount+1:
		return nil, tengen.Errorf(tengen.ECONFLICT, "Move %d is not the next move; the game is at move %d.", cmd.Seq, g.MoveCount)
	case g.Status == tengen.GameFinished:
		return nil, tengen.Errorf(tengen.ECONFLICT, "The game is over.")
	case m.Kind == tengen.MoveResign:
	case g.Status != tengen.GamePlaying:
		return nil, tengen.Errorf(tengen.ECONFLICT, "The game is in the scoring phase.")
	case g.ToMove != color:
		return nil, tengen.Errorf(tengen.EFORBIDDEN, "It is not your turn.")
	}

	// Rules first: an illegal move changes nothing, not even the clock.
	pos := lg.pos.clone()
	captured, err := pos.apply(m, false)
	if err != nil {
		return nil, err
	}

	now := s.cfg.Now()
	clk := lg.clk.Clone()
	upd := tengen.GameUpdate{ToMove: pos.toMove(), Status: tengen.GamePlaying}
	rec := lg.rec
	rec.Resumptions = slices.Clone(rec.Resumptions)
	switch {
	case m.Kind == tengen.MoveResign:
		upd.Status = tengen.GameFinished
		upd.Result = tengen.NextState(*m, false).Result
	case pos.gb.Ended() && pos.gb.Result().Reason == goban.EndPasses:
		upd.Status = tengen.GameScoring
	case pos.gb.Ended():
		upd.Status, upd.Result = tengen.GameFinished, pos.gb.Result().String()
	}
	if clk != nil {
		if since, running := clk.Running(); running && m.Kind != tengen.MoveResign {
			m.TimeUsed = max(now.Sub(since), 0)
			var flagged bool
			if upd.ToMove == color && upd.Status == tengen.GamePlaying {
				flagged, err = clk.Checkpoint(now) // a handicap stone: Black stays on turn
			} else {
				flagged, err = clk.Switch(now)
			}
			if err != nil {
				return nil, err
			}
			if flagged {
				if err := s.flag(ctx, lg, now); err != nil {
					return nil, err
				}
				return nil, tengen.Errorf(tengen.ECONFLICT, "Your time ran out; the game is over.")
			}
			st, err := json.Marshal(clk.State(clock.Color(color)))
			if err != nil {
				return nil, err
			}
			m.Clock = st
		}
		if upd.Status != tengen.GamePlaying {
			if _, running := clk.Running(); running {
				if _, err := clk.Pause(now); err != nil {
					return nil, err
				}
			}
		}
		if rec.Clock, err = clk.MarshalJSON(); err != nil {
			return nil, err
		}
	}
	var score *goban.Score
	if upd.Status == tengen.GameScoring {
		rec.ProposalSeq++
		rec.Dead = s.deadStones(pos.gb)
		rec.AcceptedBlack, rec.AcceptedWhite = 0, 0
		if score, err = pos.gb.Score(rec.Dead); err != nil {
			return nil, err
		}
	}
	if m.Kind == tengen.MoveResign && !pos.gb.Ended() {
		// Resigned while placing handicap stones.
		pos.gb.End(color.Opponent(), goban.EndResign)
	}

	newG, err := s.cfg.Games.AppendMove(ctx, userID, m, tengen.GameUpdate{ToMove: upd.ToMove, Status: upd.Status, Result: upd.Result, Record: &rec})
	if err != nil {
		return nil, err
	}
	lg.g, lg.pos, lg.clk, lg.rec = newG, pos, clk, rec
	lg.moves = append(lg.moves, m)
	if score != nil {
		lg.score = score
	}
	s.arm(lg)

	lg.publish(&tengen.GameEvent{Type: tengen.EventMove, GameID: lg.id, Move: m, Game: newG, Board: pos.board(),
		Captures: ptr(pos.captures()), Captured: captured, Clock: lg.clockView()})
	if newG.Status != g.Status {
		lg.publish(&tengen.GameEvent{Type: tengen.EventPhase, GameID: lg.id, Game: newG, Clock: lg.clockView(),
			Proposal: lg.proposal(), Score: lg.scoreView()})
	}
	s.botTurn(lg)
	return s.snapshot(lg, userID), nil
}

func ptr[T any](v T) *T { return &v }

// scoringPlayer checks that userID plays in the game and it is in the
// scoring phase.
func scoringPlayer(lg *game, userID int64) (goban.Color, error) {
	c, err := player(lg, userID)
	if err != nil {
		return goban.Empty, err
	}
	if lg.g.Status != tengen.GameScoring {
		return goban.Empty, tengen.Errorf(tengen.ECONFLICT, "The game is not in the scoring phase.")
	}
	return c, nil
}

// Toggle implements tengen.PlayService.
func (s *Service) Toggle(ctx context.Context, gameID, userID int64, p goban.Point) (*tengen.GameSnapshot, error) {
	lg, err := s.lock(ctx, gameID)
	if err != nil {
		return nil, err
	}
	defer s.unlock(lg)
	if _, err := scoringPlayer(lg, userID); err != nil {
		return nil, err
	}
	b := lg.pos.gb.Board()
	gp := goban.Point{X: p.X, Y: p.Y}
	if !b.OnBoard(gp) {
		n := lg.g.Settings.BoardSize
		return nil, tengen.Errorf(tengen.EINVALID, "Point (%d, %d) is off the %d×%d board.", p.X, p.Y, n, n)
	}
	if b.At(gp) == goban.Empty {
		return nil, tengen.Errorf(tengen.EINVALID, "There is no stone at that point.")
	}
	rec := lg.rec
	rec.ProposalSeq++
	rec.Dead = b.ToggleGroup(lg.rec.Dead, gp)
	rec.AcceptedBlack, rec.AcceptedWhite = 0, 0
	score, err := lg.pos.gb.Score(rec.Dead)
	if err != nil {
		return nil, err
	}
	g, err := s.cfg.Games.UpdateGame(ctx, lg.id, lg.g.MoveCount, tengen.GameUpdate{ToMove: lg.g.ToMove, Status: lg.g.Status, Record: &rec})
	if err != nil {
		return nil, err
	}
	lg.g, lg.rec, lg.score = g, rec, score
	lg.publish(&tengen.GameEvent{Type: tengen.EventProposal, GameID: lg.id, Proposal: lg.proposal(), Score: lg.scoreView()})
	s.botTurn(lg)
	return s.snapshot(lg, userID), nil
}

// Accept implements tengen.PlayService.
func (s *Service) Accept(ctx context.Context, gameID, userID int64, seq int) (*tengen.GameSnapshot, error) {
	lg, err := s.lock(ctx, gameID)
	if err != nil {
		return nil, err
	}
	defer s.unlock(lg)
	c, err := player(lg, userID)
	if err != nil {
		return nil, err
	}
	if lg.g.Status == tengen.GameFinished && lg.rec.ProposalSeq == seq && accepted(lg.rec, c) == seq {
		return s.snapshot(lg, userID), nil // a repeated acceptance of the final count
	}
	if lg.g.Status != tengen.GameScoring {
		return nil, tengen.Errorf(tengen.ECONFLICT, "The game is not in the scoring phase.")
	}
	if seq != lg.rec.ProposalSeq {
		return nil, tengen.Errorf(tengen.ECONFLICT, "The proposal changed; proposal %d is current.", lg.rec.ProposalSeq)
	}
	if accepted(lg.rec, c) == seq {
		return s.snapshot(lg, userID), nil
	}
	rec := lg.rec
	if c == goban.Black {
		rec.AcceptedBlack = seq
	} else {
		rec.AcceptedWhite = seq
	}
	upd := tengen.GameUpdate{ToMove: lg.g.ToMove, Status: lg.g.Status, Record: &rec}
	done := rec.AcceptedBlack == seq && rec.AcceptedWhite == seq
	if done {
		upd.Status, upd.Result = tengen.GameFinished, lg.score.Result.String()
	}
	g, err := s.cfg.Games.UpdateGame(ctx, lg.id, lg.g.MoveCount, upd)
	if err != nil {
		return nil, err
	}
	lg.g, lg.rec = g, rec
	lg.publish(&tengen.GameEvent{Type: tengen.EventAccepted, GameID: lg.id, Color: c, Seq: seq})
	if done {
		lg.pos.gb.SetResult(lg.score.Result)
		lg.publish(&tengen.GameEvent{Type: tengen.EventPhase, GameID: lg.id, Game: g, Clock: lg.clockView(),
			Proposal: lg.proposal(), Score: lg.scoreView()})
	}
	return s.snapshot(lg, userID), nil
}

func accepted(rec tengen.PlayRecord, c goban.Color) int {
	if c == goban.Black {
		return rec.AcceptedBlack
	}
	return rec.AcceptedWhite
}

// Resume implements tengen.PlayService.
func (s *Service) Resume(ctx context.Context, gameID, userID int64) (*tengen.GameSnapshot, error) {
	lg, err := s.lock(ctx, gameID)
	if err != nil {
		return nil, err
	}
	defer s.unlock(lg)
	c, err := scoringPlayer(lg, userID)
	if err != nil {
		return nil, err
	}
	pos := lg.pos.clone()
	if err := pos.gb.Resume(c); err != nil {
		return nil, tengen.Errorf(tengen.ECONFLICT, "Play cannot resume now.")
	}
	next := pos.toMove()
	rec := lg.rec
	rec.Resumptions = append(slices.Clone(rec.Resumptions), tengen.Resumption{AfterSeq: lg.g.MoveCount, Color: c})
	rec.Dead, rec.AcceptedBlack, rec.AcceptedWhite = nil, 0, 0
	clk := lg.clk.Clone()
	if clk != nil {
		if err := clk.Start(clock.Color(next), s.cfg.Now()); err != nil {
			return nil, err
		}
		if rec.Clock, err = clk.MarshalJSON(); err != nil {
			return nil, err
		}
	}
	g, err := s.cfg.Games.UpdateGame(ctx, lg.id, lg.g.MoveCount, tengen.GameUpdate{ToMove: next, Status: tengen.GamePlaying, Record: &rec})
	if err != nil {
		return nil, err
	}
	lg.g, lg.pos, lg.clk, lg.rec, lg.score = g, pos, clk, rec, nil
	s.arm(lg)
	lg.publish(&tengen.GameEvent{Type: tengen.EventPhase, GameID: lg.id, Game: g, Clock: lg.clockView()})
	s.botTurn(lg)
	return s.snapshot(lg, userID), nil
}

// timeControlOf returns a game's time control; ok is false when the game has
// no clock.
func timeControlOf(tc clock.TimeControl) (clock.TimeControl, bool) {
	return tc, tc.Kind != clock.None
}
