package play

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"tengen"
	"tengen/clock"
	"tengen/goban"
)

// game is one live game. Every field is guarded by mu.
type game struct {
	mu sync.Mutex

	id int64
	g  *tengen.Game // nil until loaded; replaced, never changed, on every change
	// moves are the stored moves; published snapshots share the array, so
	// elements are only ever appended.
	moves []*tengen.GameMove
	rules goban.Ruleset
	komi  float64
	// state is replaced as a whole by apply after every committed change.
	state

	stopTimer func() bool // cancels the timer armed for the clock's or the no-show deadline
	// turnStart is when the player to move began the turn: the game's
	// creation, the last stored move or the load; noshow.go's window
	// counts from it.
	turnStart time.Time
	// stored is when the game's state, its clock included, was last
	// written to storage; the checkpoints skip a game stored recently.
	stored time.Time
	// evicted is set when the game leaves the service's map; whoever
	// finds it set after taking mu looks the game up again.
	evicted   bool
	watchers  map[int]watcher
	nextWatch int

	// With several instances (Config.Cluster): epoch names this load of
	// the game, evn counts the events published on the bus since (see
	// cluster.go); claimed is when this instance claimed the game.
	epoch, evn int64
	claimed    time.Time
	// followed is set when another instance may follow this load's
	// events on the bus: from the start for a game this instance loaded
	// or claimed (watchers elsewhere may follow its last owner and need
	// the new epoch's first event), and for a game created here from the
	// first snapshot with a stream position another instance asked for
	// (PeerSnapshot; every watcher elsewhere starts from one). Until then
	// publishBus only counts the events.
	followed bool
}

func newGame(id int64) *game {
	return &game{id: id, watchers: map[int]watcher{}}
}

// state is what a change replaces in a live game besides the stored game
// and its moves. A command plans on a copy: it clones what it changes (the
// position, the clock, the slices of the record), so that the live state
// stays as it was until the change is committed.
type state struct {
	pos   position
	clk   *clock.GameClock // nil for games without time limit
	rec   tengen.PlayRecord
	score *goban.Score // the count of rec.Dead in the scoring phase and after a counted end
	// rep holds the players' answers to the repetition offer of move
	// rep.seq (see play/rules.go); answers to an older offer are void.
	// It lives in memory only: a restart forgets the answers, not the offer.
	rep repetitionAnswers
}

// A command is one kind of change to a game. plan validates the command
// against the live game lg at time now, with lg.mu held, and returns the
// change to commit; a nil change means there is nothing to do (a repeated
// submission), an error that the command is refused and nothing changes.
// plan must not change lg, except where the change's undo puts it back
// (a move on the live position, see moveCmd).
type command interface {
	plan(s *Service, lg *game, now time.Time) (*change, error)
}

// change is a planned change of a game.
type change struct {
	// next is the live state after the change.
	next state
	// upd is the stored state after the change; apply sets its Record from
	// next.rec.
	upd tengen.GameUpdate
	// move, when set, is stored as the next move, by user `by`; moves,
	// when set, are stored as the next moves in one transaction.
	move  *tengen.GameMove
	moves []*tengen.GameMove
	by    int64
	// takeBack, when set, removes the game's last move.
	takeBack bool
	// create, when set, creates the game.
	create *creation
	// announce returns the events for the watchers once the change is
	// committed and lg holds the new state; before is the game as it was.
	// It may also log what an operator should know.
	announce func(lg *game, before *tengen.Game) []*tengen.GameEvent
	// undo, when set, takes back what plan changed in the live game; apply
	// calls it when the change is not committed.
	undo func()
	// err is returned to the caller after the change is committed: a move
	// that came too late commits the loss on time and is refused.
	err error
	// then, when set, is applied right after the change in the same flow,
	// as the conditional reply to a move is (see play/room.go).
	then command
}

// creation is what a change that creates a game needs besides its state.
type creation struct {
	challengeID, userID int64
	rules               goban.Ruleset
	komi                float64
	// settings, when set, are the settings chosen from the players'
	// ranks, handed to storage to check (tengen.PlayRecord.Settings).
	settings *tengen.GameSettings
}

// apply is the one path of every change to a game: creation, move, pass,
// resignation, dead-stone toggle, acceptance, resumption, timeout, forfeit,
// an admin's cancellation, clock checkpoint. In order: the command validates itself and plans the
// change on copies; the change is stored in one transaction; the live game
// takes the new state; the clock's timer is armed for the new deadline; the
// watchers get the change's events; the bots are asked to act. A refused or
// failed command leaves everything as it was. The caller holds lg.mu.
func (s *Service) apply(ctx context.Context, lg *game, cmd command) error {
	now := s.cfg.Now()
	ch, err := cmd.plan(s, lg, now)
	if err != nil && s.cfg.Cluster != nil && tengen.ErrorCode(err) == tengen.ECONFLICT {
		err = s.staleCopy(ctx, lg, err)
	}
	if err != nil || ch == nil {
		return err
	}
	// stored is set once the change is committed; until then, a return
	// takes back what plan changed in the live game.
	stored := false
	if ch.undo != nil {
		defer func() {
			if !stored {
				ch.undo()
			}
		}()
	}
	// The record stores the live clock; plans never change a clock in
	// place (they clone it), so the two may share it.
	if ch.upd.Status == tengen.GamePlaying && ch.create == nil {
		// A player on vacation: their clock stands still on their turn.
		if ch.next.clk, err = holdForVacation(ch.next.clk, ch.upd.ToMove, ch.next.rec.Vacation, now); err != nil {
			return err
		}
	}
	ch.next.rec.Clock = ch.next.clk
	upd := ch.upd
	// Storage reads the record where the plan holds it: nothing changes ch
	// from here on, and a copy of the record was an allocation per move.
	upd.Record = &ch.next.rec
	var g *tengen.Game
	switch {
	case ch.create != nil:
		rec := ch.next.rec
		rec.Settings = ch.create.settings
		g, err = s.cfg.Games.CreateGameFromChallenge(ctx, ch.create.challengeID, ch.create.userID, &rec)
	case ch.takeBack:
		g, err = s.cfg.Games.TakeBack(ctx, lg.id, lg.g.MoveCount, upd)
	case ch.move != nil:
		g, err = s.cfg.Games.AppendMove(ctx, ch.by, ch.move, upd)
	case len(ch.moves) > 0:
		g, err = s.cfg.Games.AppendMoves(ctx, ch.by, ch.moves, upd)
	default:
		g, err = s.cfg.Games.UpdateGame(ctx, lg.id, lg.g.MoveCount, upd)
	}
	if err != nil {
		if tengen.ErrorCode(err) == tengen.ENOTOWNER {
			// Another instance has taken the game over (cluster.go).
			s.lose(lg)
		}
		return err
	}
	stored = true

	before := lg.g
	lg.g, lg.state = g, ch.next
	lg.stored = now
	if ch.move != nil {
		lg.moves = append(lg.moves, ch.move)
		if s.cfg.MoveStored != nil {
			s.cfg.MoveStored(ch.move.Kind)
		}
	}
	lg.moves = append(lg.moves, ch.moves...)
	if ch.takeBack {
		// Published snapshots share the array: the next move must not
		// overwrite the element they hold, so the shorter list is a copy.
		lg.moves = slices.Clone(lg.moves[:len(lg.moves)-1])
	}
	if ch.create != nil || ch.move != nil || len(ch.moves) > 0 || ch.takeBack {
		lg.turnStart = now
	}
	if ch.create != nil {
		lg.id, lg.rules, lg.komi = g.ID, ch.create.rules, ch.create.komi
		s.owned(lg)
		lg.followed = false // nobody elsewhere can have asked for it yet
		if !s.register(lg) {
			return nil
		}
	}
	s.arm(lg)
	var evs []*tengen.GameEvent
	if ch.announce != nil {
		evs = ch.announce(lg, before)
		for _, ev := range evs {
			lg.publish(ev)
		}
		if lg.epoch != 0 {
			s.publishBus(lg, evs)
		}
	}
	if s.cfg.Changed != nil {
		s.cfg.Changed(before, lg.g, evs)
	}
	s.botTurn(lg)
	if ch.then != nil && ch.err == nil {
		if err := s.apply(ctx, lg, ch.then); err != nil {
			s.log.Error("play: follow-up change", "game", lg.id, "err", err)
		}
	}
	return ch.err
}

// register puts a new game into the service's map. It reports false when
// the game is there already, loaded from storage by someone who asked for
// it between its creation and now; that copy holds the same state and stays
// the live one. The caller holds lg.mu.
func (s *Service) register(lg *game) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.games[lg.id] != nil || s.closed {
		lg.evicted = true
		return false
	}
	s.games[lg.id] = lg
	return true
}

// publish sends ev to every watcher. The caller holds lg.mu, which keeps
// events in order.
func (lg *game) publish(ev *tengen.GameEvent) {
	for _, w := range lg.watchers {
		w.sink(ev)
	}
}

// watcher is one watcher of a live game: its sink, and with several
// instances the watch that moves to the game's new owner when this
// instance loses the game (nil otherwise).
type watcher struct {
	sink func(*tengen.GameEvent)
	w    *watch
}

// load rebuilds lg from storage: the game, its moves replayed into a goban
// game, the play record and the clock, which resumes from now. A game whose
// clock never started (stored before games were created with their clock)
// gets it started through startCmd. The caller holds lg.mu.
func (s *Service) load(ctx context.Context, lg *game) error {
	st, err := s.stored(ctx, lg.id)
	if err != nil {
		return err
	}
	g, rec := st.g, &st.rec
	lg.g, lg.moves, lg.rules, lg.komi = g, st.moves, st.rules, st.komi
	lg.state = state{pos: st.pos, rec: *rec}
	s.owned(lg)
	lg.turnStart = s.cfg.Now()
	if tc := g.Settings.TimeControl; tc.Kind != clock.None {
		if rec.Clock != nil {
			lg.clk = rec.Clock.Clone()
			lg.clk.Recover(s.cfg.Now())
			lg.rec.Clock = lg.clk
		} else if lg.clk, err = clock.NewGameClock(tc); err != nil {
			return fmt.Errorf("play: game %d: %w", g.ID, err)
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
		if err := s.apply(ctx, lg, startCmd{}); err != nil {
			lg.g = nil
			return err
		}
	}
	s.arm(lg)
	s.botTurn(lg)
	return nil
}

// replay sets up the position of game g after moves, with the returns from
// the scoring phase in resumptions: the stored game as it was played, with
// the history that ko and superko need.
func (s *Service) replay(g *tengen.Game, rules goban.Ruleset, moves []*tengen.GameMove, resumptions []tengen.Resumption) (position, float64, error) {
	pos, komi, err := newPosition(g.Settings, rules)
	if err != nil {
		return position{}, 0, err
	}
	resumed := map[int]goban.Color{}
	for _, r := range resumptions {
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
	return pos, komi, nil
}

// rulesOf returns the goban ruleset of a game's settings.
func rulesOf(set tengen.GameSettings) (goban.Ruleset, error) {
	r, err := goban.RulesetByName(set.Ruleset)
	if err != nil {
		return goban.Ruleset{}, tengen.Errorf(tengen.EINVALID, "Unknown ruleset %q.", set.Ruleset)
	}
	return r, nil
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

// position is the board of a game. While Black places free handicap stones
// one per move, goban holds them (goban.Game.PlaceHandicapStone).
type position struct {
	gb *goban.Game
}

func (p position) clone() position { return position{gb: p.gb.Clone()} }

// undo takes back the last move played on p, which must be a play or a
// pass that apply made.
func (p position) undo() {
	if err := p.gb.Undo(); err != nil {
		panic(fmt.Sprintf("play: undo of a move just played: %v", err)) // apply just played one
	}
}

// newPosition sets up the empty board of a game: the fixed handicap stones,
// or the free ones to be placed, and the komi (custom, or the ruleset's
// default for the board and the handicap).
func newPosition(set tengen.GameSettings, rules goban.Ruleset) (position, float64, error) {
	n := set.BoardSize
	gb, err := goban.NewGame(n, n, rules)
	if err != nil {
		return position{}, 0, err
	}
	switch {
	case set.FreeHandicap && set.Handicap >= 2:
		err = gb.StartFreeHandicap(set.Handicap)
	case set.Handicap > 0:
		err = gb.SetHandicap(set.Handicap, false)
	}
	if err != nil {
		return position{}, 0, err
	}
	komi := rules.DefaultKomi(n, n, set.Handicap)
	if set.Komi != nil {
		komi = *set.Komi
	}
	gb.SetKomi(komi)
	return position{gb: gb}, komi, nil
}

// toMove is whose turn it is in p: Black while placing handicap stones.
func (p position) toMove() goban.Color { return p.gb.ToMove() }

// apply plays the stored or new move m on p and returns the stones it
// captured. replay tolerates moves the rules refuse now (a stored game is
// replayed as it was played). It does not check turns or phases.
func (p *position) apply(m *tengen.GameMove, replay bool) ([]goban.Point, error) {
	c := m.Color
	if p.gb.HandicapToPlace() > 0 {
		switch m.Kind {
		case tengen.MovePlay:
			if err := p.gb.PlaceHandicapStone(goban.Point{X: m.X, Y: m.Y}); err != nil {
				return nil, moveError(err)
			}
			return nil, nil
		case tengen.MovePass:
			return nil, moveError(goban.ErrHandicapToPlace)
		}
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
	var doomed []goban.Point
	if m.Kind == tengen.MovePlay {
		doomed = chainsAround(p.gb.Board(), goban.Point{X: m.X, Y: m.Y})
	}
	if err := p.gb.Play(mv); err != nil {
		if !replay {
			return nil, moveError(err)
		}
		if _, err := p.gb.PlayForced(mv); err != nil {
			return nil, err
		}
	}
	// The stones a play removes are in the chains next to it: the
	// opponent's it captures, or the player's own in a suicide.
	b := p.gb.Board()
	captured := doomed[:0]
	for _, pt := range doomed {
		if b.At(pt) == goban.Empty {
			captured = append(captured, pt)
		}
	}
	if len(captured) == 0 {
		return nil, nil
	}
	return captured, nil
}

// chainsAround returns the stones of the chains in atari next to pt on b,
// each once, in the order of rows and then columns (the order in which moves
// list their captures). A play at the empty pt can remove only these: a
// neighbour in atari has pt as its last liberty, any other keeps one.
// Looking at them instead of comparing the whole board before and after the
// play saves a copy of the board for every move, and most moves have no
// such neighbour, so they allocate nothing here.
func chainsAround(b *goban.Board, pt goban.Point) []goban.Point {
	if !b.OnBoard(pt) {
		return nil
	}
	var out []goban.Point
	for _, n := range [4]goban.Point{{X: pt.X - 1, Y: pt.Y}, {X: pt.X + 1, Y: pt.Y}, {X: pt.X, Y: pt.Y - 1}, {X: pt.X, Y: pt.Y + 1}} {
		if b.OnBoard(n) && b.InAtari(b.Loc(n)) && !slices.Contains(out, n) {
			out = append(out, b.Chain(n)...)
		}
	}
	slices.SortFunc(out, func(a, b goban.Point) int {
		if a.Y != b.Y {
			return a.Y - b.Y
		}
		return a.X - b.X
	})
	return out
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
	case errors.Is(err, goban.ErrHandicapToPlace):
		return tengen.Errorf(tengen.EINVALID, "Place all handicap stones first.")
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
