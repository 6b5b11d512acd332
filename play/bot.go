package play

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"
	"time"

	"tengen"
	"tengen/clock"
	"tengen/engine"
	"tengen/goban"
	"tengen/internal/memqueue"
)

// Compile-time check that Service offers games against the computer.
var _ tengen.BotService = (*Service)(nil)

// BotPlayer chooses a computer player's moves. GenMove may be called from
// several goroutines at once, for different games.
type BotPlayer interface {
	// GenMove returns the move for req.Color in req.Game: a play, a pass
	// or a resignation. An error forfeits the game (unless ctx was
	// cancelled because the server shuts down).
	GenMove(ctx context.Context, req BotRequest) (goban.Move, error)
}

// BotRequest is the position a bot is asked to move in: the request shape
// of every computer player (engine.Request: the position, which the bot may
// change, the colour, the time control and both clocks as they stood when
// the bot's turn began, nil without a clock), and what only the server
// knows.
type BotRequest struct {
	engine.Request
	GameID int64
	// Settings are the game's settings (board size, ruleset, handicap).
	Settings tengen.GameSettings
	// Moves are the stored moves in order, for bots that replay the game
	// (handicap stones are in Game.Handicap, not here).
	Moves []*tengen.GameMove
}

// Bot is a computer opponent: an account that the service plays for.
type Bot struct {
	// Name is the bot's user name; its account is created (marked as a
	// bot) when the service opens.
	Name string
	// Level, Rank and RankEstimated describe the strength for the lobby
	// (see tengen.BotInfo).
	Level, Rank   string
	RankEstimated bool
	// Anchor, when not "", is the rank ("24k") at which the bot's rating
	// is fixed, so that games against it are rated for its opponent; its
	// own rating never moves. Without an anchor, games against the bot
	// are unrated.
	Anchor string
	// External marks an engine the operator configured.
	External bool
	// BoardSizes and Rulesets restrict the games the bot plays; nil means
	// any.
	BoardSizes []int
	Rulesets   []string
	// MaxGames bounds the bot's unfinished games; 0 means no bound.
	MaxGames int
	// DeclineTakeback makes the bot decline its opponents' takeback
	// requests; by default it accepts them (an operator's setting, see
	// docs/OPERATIONS.md). The bot answers at once, in the flow of the
	// request (undoCmd).
	DeclineTakeback bool
	// Player chooses the moves. If it implements io.Closer, Close of the
	// service closes it.
	Player BotPlayer

	userID int64
}

// DeadStoneEstimator judges the dead stones at the end of a game; the
// search engine (engine.Engine) implements it.
type DeadStoneEstimator interface {
	// DeadStones returns the stones it considers dead in the current
	// position of g; g must not be changed.
	DeadStones(g *goban.Game) []goban.Point
}

// maxBotRounds is how often a bot changes a proposal back to its own
// estimate in one scoring phase before it accepts its opponent's: two
// players who disagree forever must not toggle forever.
const maxBotRounds = 2

// botPassword is stored as a bot's password hash; it is no hash at all, so
// no password matches it.
const botPassword = "!bot"

// openBots creates or finds the bot accounts and starts the workers. It
// runs in Open before the games are loaded, so that loading a game whose
// turn is a bot's queues its move.
func (s *Service) openBots(ctx context.Context) error {
	s.bots = map[int64]*Bot{}
	s.botNames = map[string]*Bot{}
	if len(s.cfg.Bots) == 0 {
		return nil
	}
	if s.cfg.Users == nil || s.cfg.Challenges == nil {
		return errors.New("play: bots need Config.Users and Config.Challenges")
	}
	for i := range s.cfg.Bots {
		b := &s.cfg.Bots[i]
		if b.Player == nil {
			return fmt.Errorf("play: bot %q has no player", b.Name)
		}
		key := tengen.UserNameKey(b.Name)
		if s.botNames[key] != nil {
			return fmt.Errorf("play: two bots are called %q", b.Name)
		}
		u, err := s.cfg.Users.FindUserByName(ctx, b.Name)
		switch {
		case tengen.ErrorCode(err) == tengen.ENOTFOUND:
			u = &tengen.User{Name: b.Name, PasswordHash: botPassword, Bot: true}
			err = s.cfg.Users.CreateUser(ctx, u)
			if tengen.ErrorCode(err) == tengen.ECONFLICT {
				// Another instance starting at the same moment made it.
				if u, err = s.cfg.Users.FindUserByName(ctx, b.Name); err == nil && !u.Bot {
					return fmt.Errorf("play: bot name %q belongs to a person's account; choose another name", b.Name)
				}
			}
			if err != nil {
				return fmt.Errorf("play: creating bot account %q: %w", b.Name, err)
			}
		case err != nil:
			return fmt.Errorf("play: bot account %q: %w", b.Name, err)
		case !u.Bot:
			return fmt.Errorf("play: bot name %q belongs to a person's account; choose another name", b.Name)
		}
		if s.cfg.Ratings != nil {
			if err := s.cfg.Ratings.SetAnchor(ctx, u.ID, b.Anchor); err != nil {
				return fmt.Errorf("play: bot %q: anchor %q: %w", b.Name, b.Anchor, err)
			}
		}
		b.userID = u.ID
		s.bots[u.ID] = b
		s.botNames[key] = b
	}
	workers := s.cfg.BotWorkers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	s.jobs = s.cfg.BotJobs
	if s.jobs == nil {
		queue := s.cfg.BotQueue
		if queue <= 0 {
			queue = 256
		}
		s.jobs, s.localJobs = memqueue.New(queue), true
	} else {
		s.botPoll = s.cfg.BotPoll
		if s.botPoll <= 0 {
			s.botPoll = time.Second
		}
		if s.cfg.Bus != nil {
			s.botUnsub = s.cfg.Bus.Subscribe(botTopic, func([]byte) { s.wake() })
		}
	}
	// A worker holds a job for the longest a move may take, and some
	// more for storing it and for the scoring phase's few commands.
	s.botLease = s.botMoveTimeout() + 30*time.Second
	s.botWake = make(chan struct{}, workers)
	s.rounds = map[int64]*botRounds{}
	s.botWorkers = workers
	for range workers {
		s.botWG.Add(1)
		go s.botWorker()
	}
	return nil
}

// botTopic is the EventBus topic on which a queued bot job wakes the idle
// workers of every instance; the payload is empty.
const botTopic = "bot"

// closeBots stops the workers (a move being searched is abandoned and its
// job given back: another instance's worker takes it at once, or this
// service's after the next Open) and closes the players.
func (s *Service) closeBots() error {
	s.botCancel()
	if s.botUnsub != nil {
		s.botUnsub()
	}
	s.botWG.Wait()
	var errs []error
	for i := range s.cfg.Bots {
		if c, ok := s.cfg.Bots[i].Player.(io.Closer); ok {
			errs = append(errs, c.Close())
		}
	}
	return errors.Join(errs...)
}

// Bots implements tengen.BotService.
func (s *Service) Bots() []tengen.BotInfo {
	out := make([]tengen.BotInfo, 0, len(s.cfg.Bots))
	for _, b := range s.cfg.Bots {
		if b.userID == 0 {
			continue // Open has not run
		}
		out = append(out, tengen.BotInfo{UserID: b.userID, Name: b.Name, Level: b.Level, Rank: b.Rank, Rated: b.Anchor != "" && s.cfg.Ratings != nil,
			RankEstimated: b.RankEstimated, External: b.External, BoardSizes: b.BoardSizes, Rulesets: b.Rulesets})
	}
	return out
}

// PlayBot implements tengen.BotService: the game is made from a direct
// challenge to the bot that the bot accepts at once.
func (s *Service) PlayBot(ctx context.Context, userID int64, name string, set tengen.GameSettings) (*tengen.Game, error) {
	if userID == 0 {
		return nil, tengen.Errorf(tengen.EUNAUTHORIZED, "Log in to play.")
	}
	b := s.botNames[tengen.UserNameKey(name)]
	if b == nil {
		return nil, tengen.Errorf(tengen.ENOTFOUND, "There is no computer player called %q.", name)
	}
	if s.bots[userID] != nil {
		return nil, tengen.Errorf(tengen.EFORBIDDEN, "Bots do not start games.")
	}
	if err := set.Validate(); err != nil {
		return nil, err
	}
	if len(b.BoardSizes) > 0 && !slices.Contains(b.BoardSizes, set.BoardSize) {
		return nil, tengen.Errorf(tengen.EINVALID, "%s plays on boards of size %s only.", b.Name, joinInts(b.BoardSizes))
	}
	if len(b.Rulesets) > 0 && !slices.Contains(b.Rulesets, set.Ruleset) {
		return nil, tengen.Errorf(tengen.EINVALID, "%s plays under the rulesets %s only.", b.Name, strings.Join(b.Rulesets, ", "))
	}
	if set.FreeHandicap {
		return nil, tengen.Errorf(tengen.EINVALID, "Games against the computer use fixed handicap stones.")
	}
	if set.Rated && (b.Anchor == "" || s.cfg.Ratings == nil) {
		return nil, tengen.Errorf(tengen.EINVALID, "Games against %s are not rated: it has no fixed rating.", b.Name)
	}
	if err := s.checkBotGamesOf(ctx, userID); err != nil {
		return nil, err
	}
	if b.MaxGames > 0 {
		id := b.userID
		_, n, err := s.cfg.Games.FindGames(ctx, tengen.GameFilter{UserID: &id,
			Status: []tengen.GameStatus{tengen.GamePlaying, tengen.GameScoring}, Limit: 1})
		if err != nil {
			return nil, err
		}
		if n >= b.MaxGames {
			return nil, tengen.Errorf(tengen.ECONFLICT, "%s is playing as many games as it may; try again later.", b.Name)
		}
	}
	c := &tengen.Challenge{ChallengerID: userID, OpponentID: b.userID, Settings: set}
	if err := s.cfg.Challenges.CreateChallenge(ctx, c); err != nil {
		return nil, err
	}
	// Creating the game starts its clock and, when the bot moves first,
	// queues its move.
	g, err := s.create(ctx, c, b.userID)
	if err != nil {
		return nil, err
	}
	s.log.Info("play: game against the computer", "game", g.ID, "user", userID, "bot", b.Name)
	return g, nil
}

// checkBotGamesOf refuses a new game against the computer when userID has
// MaxBotGamesPerUser unfinished ones already: one person must not fill the
// bot queue with games.
func (s *Service) checkBotGamesOf(ctx context.Context, userID int64) error {
	limit := s.cfg.MaxBotGamesPerUser
	if limit == 0 {
		limit = 10
	}
	if limit < 0 {
		return nil
	}
	gs, _, err := s.cfg.Games.FindGames(ctx, tengen.GameFilter{UserID: &userID,
		Status: []tengen.GameStatus{tengen.GamePlaying, tengen.GameScoring}, Limit: 1000})
	if err != nil {
		return err
	}
	n := 0
	for _, g := range gs {
		if s.bots[g.BlackID] != nil || s.bots[g.WhiteID] != nil {
			n++
		}
	}
	if n >= limit {
		return tengen.Errorf(tengen.ECONFLICT, "You are playing %d games against the computer already; finish one first.", n)
	}
	return nil
}

func joinInts(ns []int) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = fmt.Sprint(n)
	}
	return strings.Join(s, ", ")
}

// botToAct returns the bots that must act in lg: the bot to move, or the
// bots that have not accepted the current proposal. The caller holds
// lg.mu.
func (s *Service) botToAct(lg *game) []goban.Color {
	if len(s.bots) == 0 || lg.g == nil {
		return nil
	}
	g := lg.g
	switch g.Status {
	case tengen.GamePlaying:
		if s.bots[playerID(g, g.ToMove)] != nil && lg.pos.gb.HandicapToPlace() == 0 {
			return []goban.Color{g.ToMove}
		}
	case tengen.GameScoring:
		var cs []goban.Color
		for _, c := range []goban.Color{goban.Black, goban.White} {
			if s.bots[playerID(g, c)] != nil && accepted(lg.rec, c) != lg.rec.ProposalSeq {
				cs = append(cs, c)
			}
		}
		return cs
	}
	return nil
}

func playerID(g *tengen.Game, c goban.Color) int64 {
	if c == goban.Black {
		return g.BlackID
	}
	return g.WhiteID
}

// botTurn queues the game for a bot worker if a bot must act in it. The
// queue holds one job per game: a game that waits keeps its place, and a
// change while a worker holds the game's job makes the job due again when
// the worker is done (tengen.BotQueue). The caller holds lg.mu.
func (s *Service) botTurn(lg *game) {
	if s.jobs == nil {
		return
	}
	cs := s.botToAct(lg)
	if len(cs) == 0 {
		if lg.g != nil && lg.g.Status == tengen.GameFinished {
			s.forgetRounds(lg.id)
		}
		return
	}
	s.enqueue(tengen.BotJob{GameID: lg.id, MoveCount: lg.g.MoveCount, BotID: playerID(lg.g, cs[0])})
}

// enqueue queues job without blocking the caller (who may hold a game's
// lock) for long and wakes a worker. The in-memory queue takes it at once;
// when it is full the job tries again a second later: bot games wait,
// human games never do. A shared queue is written from a goroutine of its
// own, which tries again a second later when storage fails, and wakes the
// workers of every instance.
func (s *Service) enqueue(job tengen.BotJob) {
	if s.botCtx.Err() != nil {
		return
	}
	if s.localJobs {
		if err := s.jobs.Enqueue(s.botCtx, job); err != nil {
			time.AfterFunc(time.Second, func() { s.enqueue(job) })
			return
		}
		s.wake()
		return
	}
	go func() {
		if err := s.jobs.Enqueue(s.botCtx, job); err != nil {
			if s.botCtx.Err() == nil {
				s.log.Error("play: queueing a bot's turn", "game", job.GameID, "err", err)
				time.AfterFunc(time.Second, func() { s.enqueue(job) })
			}
			return
		}
		s.wake()
		if s.cfg.Bus != nil {
			if err := s.cfg.Bus.Publish(s.botCtx, botTopic, nil); err != nil && s.botCtx.Err() == nil {
				// The other instances poll: the job waits a little longer.
				s.log.Warn("play: waking the bot workers", "err", err)
			}
		}
	}()
}

// wake tells an idle worker of this service that a job may be due.
func (s *Service) wake() {
	select {
	case s.botWake <- struct{}{}:
	default: // every worker has a wake-up pending already
	}
}

// botWorker takes jobs from the queue until the service closes. An idle
// worker waits for a wake-up, or polls a shared queue.
func (s *Service) botWorker() {
	defer s.botWG.Done()
	ctx := s.botCtx
	for ctx.Err() == nil {
		job, err := s.jobs.Take(ctx, time.Now(), s.botLease)
		if err != nil && ctx.Err() == nil {
			s.log.Error("play: taking a bot job", "err", err)
		}
		if job == nil {
			if !s.idle() {
				return
			}
			continue
		}
		if job.Taken > 1 {
			// Its worker died or gave it back; this one does it.
			s.log.Info("play: bot job taken again", "game", job.GameID, "taken", job.Taken)
		}
		s.botBusy.Add(1)
		release := func() {}
		if s.cfg.BotWork != nil {
			release = s.cfg.BotWork()
		}
		s.botJob(job)
		release()
		s.botBusy.Add(-1)
		s.endJob(job)
	}
}

// idle waits for a wake-up, the next poll or the end of the service, and
// reports false for the latter.
func (s *Service) idle() bool {
	var poll <-chan time.Time
	if s.botPoll > 0 {
		t := time.NewTimer(s.botPoll)
		defer t.Stop()
		poll = t.C
	}
	select {
	case <-s.botCtx.Done():
		return false
	case <-s.botWake:
	case <-poll:
	}
	return true
}

// endJob finishes a job, or gives it back when the service stops in the
// middle of it, so that another instance's worker takes it at once.
func (s *Service) endJob(job *tengen.BotJob) {
	var err error
	if s.botCtx.Err() != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		err = s.jobs.Release(ctx, job)
		cancel()
	} else {
		err = s.jobs.Finish(s.botCtx, job)
	}
	switch {
	case err == nil:
	case tengen.ErrorCode(err) == tengen.ECONFLICT:
		s.log.Warn("play: bot job outlived its lease", "game", job.GameID, "err", err)
	case s.botCtx.Err() == nil:
		s.log.Error("play: finishing a bot job", "game", job.GameID, "err", err)
		// The job stays in the queue and is taken again when its lease
		// runs out.
	}
}

// botJob lets the bots of one game act: move, or agree on the dead stones.
// The game is read as it is now, from memory when this instance holds it,
// else from storage; whatever the bots do goes through Do, as a player's
// commands do.
func (s *Service) botJob(job *tengen.BotJob) {
	ctx := s.botCtx
	var g *tengen.Game
	var colors []goban.Color
	var req BotRequest
	err := s.peek(ctx, job.GameID, func(lg *game) {
		g, colors = lg.g, s.botToAct(lg)
		if g.Status == tengen.GamePlaying && len(colors) == 1 {
			req = s.botRequest(lg, colors[0])
		}
	})
	if err != nil {
		if ctx.Err() == nil {
			s.log.Error("play: bot cannot load game", "game", job.GameID, "err", err)
		}
		return
	}
	if g.Status != tengen.GameScoring {
		s.forgetRounds(g.ID)
	}
	for _, c := range colors {
		uid := playerID(g, c)
		b := s.bots[uid]
		if g.Status == tengen.GamePlaying {
			s.botMove(ctx, b, g, c, req)
		} else {
			s.botScore(ctx, b, g.ID, c)
		}
	}
}

// peek calls fn with game id as it stands now: the live game, with its lock
// held, when this instance holds it; else the game as stored, replayed into
// a copy that nobody else sees (holding a game live, with its timers, is
// for the instance that owns it). fn must not keep lg.
func (s *Service) peek(ctx context.Context, id int64, fn func(lg *game)) error {
	s.mu.Lock()
	lg := s.games[id]
	s.mu.Unlock()
	if lg != nil {
		lg.mu.Lock()
		if !lg.evicted && lg.g != nil {
			fn(lg)
			lg.mu.Unlock()
			return nil
		}
		lg.mu.Unlock()
	}
	lg, err := s.stored(ctx, id)
	if err != nil {
		return err
	}
	fn(lg)
	return nil
}

// stored reads game id from storage and replays its moves as load does,
// with the clock as stored (running since the last change), without taking
// the game into memory.
func (s *Service) stored(ctx context.Context, id int64) (*game, error) {
	g, err := s.cfg.Games.FindGameByID(ctx, id)
	if err != nil {
		return nil, err
	}
	moves, err := s.cfg.Games.FindMoves(ctx, id, 0)
	if err != nil {
		return nil, err
	}
	rec, err := s.cfg.Games.FindPlayRecord(ctx, id)
	if err != nil {
		return nil, err
	}
	rules, err := rulesOf(g.Settings)
	if err != nil {
		return nil, err
	}
	pos, komi, err := s.replay(g, rules, moves, rec.Resumptions)
	if err != nil {
		return nil, err
	}
	lg := newGame(id)
	lg.g, lg.moves, lg.rules, lg.komi = g, moves, rules, komi
	lg.state = state{pos: pos, rec: *rec, clk: rec.Clock}
	return lg, nil
}

// botRequest copies what the bot of colour c needs. The caller holds
// lg.mu.
func (s *Service) botRequest(lg *game, c goban.Color) BotRequest {
	req := BotRequest{Request: engine.Request{Game: lg.pos.gb.Clone(), Color: c}, GameID: lg.id, Settings: lg.g.Settings,
		Moves: lg.moves[:len(lg.moves):len(lg.moves)]}
	if tc := lg.g.Settings.TimeControl; tc.Kind != clock.None && lg.clk != nil {
		req.Time = tc
		// The time the game waited for a worker is already the bot's.
		now := s.cfg.Now()
		own, opp := lg.clk.StateAt(clock.Color(c), now), lg.clk.State(clock.Color(c.Opponent()))
		req.State, req.OpponentState = &own, &opp
	}
	return req
}

// botMove asks the bot for its move and plays it like a human's move. A
// bot that fails or plays an illegal move forfeits.
func (s *Service) botMove(ctx context.Context, b *Bot, g *tengen.Game, c goban.Color, req BotRequest) {
	mctx, cancel := context.WithTimeout(ctx, s.botMoveTimeout())
	m, err := b.Player.GenMove(mctx, req)
	cancel()
	if ctx.Err() != nil {
		return // shutting down: the next Open asks again
	}
	if err != nil {
		s.forfeit(b, g.ID, g.MoveCount, fmt.Sprintf("%s failed to move: %v", b.Name, err))
		return
	}
	cmd := tengen.MoveCommand{Seq: g.MoveCount + 1}
	switch {
	case m.Kind == goban.Play:
		cmd.Kind, cmd.X, cmd.Y = tengen.MovePlay, m.Point.X, m.Point.Y
	case m.Kind == goban.Pass:
		cmd.Kind = tengen.MovePass
	default:
		cmd.Kind = tengen.MoveResign
	}
	_, err = s.Do(ctx, g.ID, b.userID, tengen.Command{Kind: tengen.CommandMove, Move: cmd, Quiet: true})
	switch tengen.ErrorCode(err) {
	case "":
	case tengen.EINVALID:
		s.forfeit(b, g.ID, g.MoveCount, fmt.Sprintf("%s played an illegal move (%s %d,%d): %s", b.Name, cmd.Kind, cmd.X, cmd.Y, tengen.ErrorMessage(err)))
	case tengen.ECONFLICT, tengen.EFORBIDDEN:
		// The game moved on meanwhile (a resignation, a timeout).
		s.log.Debug("play: bot move no longer fits", "game", g.ID, "bot", b.Name, "err", err)
	default:
		if ctx.Err() == nil {
			s.log.Error("play: storing bot move", "game", g.ID, "bot", b.Name, "err", err)
			// A failure that was not the bot's: look at the game again.
			time.AfterFunc(time.Second, func() {
				s.enqueue(tengen.BotJob{GameID: g.ID, MoveCount: g.MoveCount, BotID: b.userID})
			})
		}
	}
}

// botMoveTimeout returns Config.BotMoveTimeout or its default.
func (s *Service) botMoveTimeout() time.Duration {
	if s.cfg.BotMoveTimeout > 0 {
		return s.cfg.BotMoveTimeout
	}
	return 30 * time.Second
}

// botScore makes the bot of colour c agree on the dead stones: it accepts
// a proposal that matches its own estimate, otherwise changes the proposal
// to its estimate group by group, and after maxBotRounds such rounds in one
// scoring phase it accepts whatever is proposed, so that a disagreement
// ends.
func (s *Service) botScore(ctx context.Context, b *Bot, id int64, c goban.Color) {
	var gb *goban.Game
	var seq, at int
	var dead []goban.Point
	err := s.peek(ctx, id, func(lg *game) {
		if lg.g.Status == tengen.GameScoring && accepted(lg.rec, c) != lg.rec.ProposalSeq {
			gb, seq, dead, at = lg.pos.gb.Clone(), lg.rec.ProposalSeq, lg.rec.Dead, lg.g.MoveCount
		}
	})
	if err != nil || gb == nil {
		return
	}

	est := s.deadStones(gb)
	giveIn := false
	if !samePoints(est, dead) {
		// Count the round; the estimate took a while, so look again.
		same := false
		if err := s.peek(ctx, id, func(lg *game) {
			same = lg.g.Status == tengen.GameScoring && lg.rec.ProposalSeq == seq
		}); err != nil || !same {
			return // changed meanwhile: the game's job is due again
		}
		giveIn = s.countRound(id, at, c)
	}
	if samePoints(est, dead) || giveIn {
		if giveIn {
			s.log.Info("play: bot accepts a count it disagrees with", "game", id, "bot", b.Name)
		}
		if _, err := s.Do(ctx, id, b.userID, tengen.Command{Kind: tengen.CommandAccept, Seq: seq, Quiet: true}); err != nil && tengen.ErrorCode(err) != tengen.ECONFLICT {
			s.log.Error("play: bot accepting", "game", id, "bot", b.Name, "err", err)
		}
		return
	}
	// Toggle the groups that differ. A group the board marks differently
	// from the estimate (a toggle that does not remove the difference)
	// is tried once only.
	tried := map[goban.Point]bool{}
	cur := dead
	for range gb.Width() * gb.Height() {
		var next *goban.Point
		for _, p := range symmetricDifference(cur, est) {
			if !tried[p] {
				next = &p
				break
			}
		}
		if next == nil {
			return
		}
		tried[*next] = true
		snap, err := s.Do(ctx, id, b.userID, tengen.Command{Kind: tengen.CommandToggle, Point: *next})
		if err != nil {
			if tengen.ErrorCode(err) != tengen.ECONFLICT {
				s.log.Error("play: bot toggling", "game", id, "bot", b.Name, "err", err)
			}
			return
		}
		if snap.Proposal == nil {
			return
		}
		cur = snap.Proposal.Dead
	}
}

// botRounds counts per colour how often a game's bot changed the proposal
// back in the scoring phase that began at move at.
type botRounds struct {
	at int
	n  map[goban.Color]int
}

// countRound counts a round of the bot of colour c in the scoring phase of
// game id that began at move at, and reports whether the bot has had its
// rounds and gives in instead. The count is kept by the instance whose
// worker acts; when the jobs of one scoring phase go to several instances,
// each gives its rounds, which still ends a disagreement.
func (s *Service) countRound(id int64, at int, c goban.Color) (giveIn bool) {
	s.roundsMu.Lock()
	defer s.roundsMu.Unlock()
	r := s.rounds[id]
	if r == nil || r.at != at {
		r = &botRounds{at: at, n: map[goban.Color]int{}}
		s.rounds[id] = r
	}
	if r.n[c] >= maxBotRounds {
		return true
	}
	r.n[c]++
	return false
}

// forgetRounds drops the rounds counted in game id, which is no longer in
// the scoring phase.
func (s *Service) forgetRounds(id int64) {
	s.roundsMu.Lock()
	delete(s.rounds, id)
	s.roundsMu.Unlock()
}

// deadStones estimates the dead stones of the position with the injected
// estimator, or with goban's static estimate when there is none.
func (s *Service) deadStones(gb *goban.Game) []goban.Point {
	var pts []goban.Point
	if s.cfg.DeadStones != nil {
		pts = s.cfg.DeadStones.DeadStones(gb)
	} else {
		pts = gb.Board().EstimateDead(s.cfg.EstimatePlayouts)
	}
	// The ruleset's own rules of the count (Tromp-Taylor's live stones,
	// the Japanese confirmation of Art. 7.2) apply to every estimator.
	pts = goban.ConfirmDead(gb, pts)
	out := pts
	slices.SortFunc(out, comparePoints)
	return out
}

func comparePoints(a, b goban.Point) int {
	return cmp.Or(cmp.Compare(a.Y, b.Y), cmp.Compare(a.X, b.X))
}

func samePoints(a, b []goban.Point) bool {
	return len(symmetricDifference(a, b)) == 0
}

// symmetricDifference returns the points in exactly one of a and b, in
// board order.
func symmetricDifference(a, b []goban.Point) []goban.Point {
	in := map[goban.Point]int{}
	for _, p := range a {
		in[p] |= 1
	}
	for _, p := range b {
		in[p] |= 2
	}
	var out []goban.Point
	for p, v := range in {
		if v != 3 {
			out = append(out, p)
		}
	}
	slices.SortFunc(out, comparePoints)
	return out
}

// forfeit ends the game because bot b failed at move count moveCount
// (CommandForfeit), through Do as every command of a bot, whichever
// instance holds the game.
func (s *Service) forfeit(b *Bot, id int64, moveCount int, reason string) {
	s.log.Warn("play: bot fails", "game", id, "bot", b.Name, "moveCount", moveCount, "reason", reason)
	if _, err := s.Do(context.Background(), id, b.userID, tengen.Command{Kind: tengen.CommandForfeit, Seq: moveCount, Quiet: true}); err != nil {
		s.log.Error("play: forfeit", "game", id, "reason", reason, "err", err)
	}
}
