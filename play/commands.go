package play

import (
	"context"
	"errors"
	"slices"
	"time"

	"tengen"
	"tengen/clock"
	"tengen/goban"
)

// The players' commands. Each plan validates the command once against the
// live game and returns its change (see command and Service.apply).

// createCmd creates the game of a challenge accepted by userID, with the
// clock running for the first mover.
type createCmd struct {
	challenge *tengen.Challenge
	userID    int64
	// settings are the game's: the challenge's, or those chosen from the
	// players' ranks (resolved), which storage checks again.
	settings tengen.GameSettings
	resolved bool
}

func (c createCmd) plan(s *Service, _ *game, now time.Time) (*change, error) {
	if c.userID == 0 {
		return nil, tengen.Errorf(tengen.EUNAUTHORIZED, "Log in to play.")
	}
	// Storage checks acceptance again in its transaction, where two users
	// accepting at once are told apart; this check spares the work.
	if err := c.challenge.CanAccept(c.userID); err != nil {
		return nil, err
	}
	if s.expired(c.challenge, now) {
		return nil, tengen.Errorf(tengen.ECONFLICT, "This challenge is no longer open.")
	}
	set := c.settings
	rules, err := rulesOf(set)
	if err != nil {
		return nil, err
	}
	pos, komi, err := newPosition(set, rules)
	if err != nil {
		return nil, err
	}
	next := state{pos: pos}
	first := pos.toMove()
	if tc := set.TimeControl; tc.Kind != clock.None {
		if next.clk, err = clock.NewGameClock(tc); err != nil {
			return nil, err
		}
		if err := next.clk.Start(clock.Color(first), now); err != nil {
			return nil, err
		}
	}
	return &change{next: next, upd: tengen.GameUpdate{ToMove: first, Status: tengen.GamePlaying},
		create: &creation{challengeID: c.challenge.ID, userID: c.userID, rules: rules, komi: komi, settings: resolvedSettings(c)}}, nil
}

// resolvedSettings returns the settings storage must check, or nil when
// they are the challenge's own.
func resolvedSettings(c createCmd) *tengen.GameSettings {
	if !c.resolved {
		return nil
	}
	set := c.settings
	return &set
}

// startCmd starts the clock of a game loaded without a running one (a game
// stored before games were created with their clock) and corrects a stored
// turn that the rules contradict. It changes nothing in a game stored as
// play leaves it.
type startCmd struct{}

func (startCmd) plan(s *Service, lg *game, now time.Time) (*change, error) {
	want := lg.pos.toMove()
	_, running := runningOf(lg.clk)
	if want == lg.g.ToMove && (lg.clk == nil || running || onVacation(lg.rec.Vacation, want, now)) {
		return nil, nil
	}
	next := lg.state
	if lg.clk != nil && !running {
		next.clk = lg.clk.Clone()
		if err := next.clk.Start(clock.Color(want), now); err != nil {
			return nil, err
		}
	}
	if want != lg.g.ToMove {
		s.log.Warn("play: stored turn corrected", "game", lg.id, "stored", lg.g.ToMove, "rules", want)
	}
	return &change{next: next, upd: tengen.GameUpdate{ToMove: want, Status: lg.g.Status}}, nil
}

func runningOf(c *clock.GameClock) (time.Time, bool) {
	if c == nil {
		return time.Time{}, false
	}
	return c.Running()
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

// moveCmd plays, passes or resigns for userID.
type moveCmd struct {
	userID int64
	tengen.MoveCommand
}

// sameMove reports whether a stored move is what cmd asks for.
func sameMove(m *tengen.GameMove, c goban.Color, cmd tengen.MoveCommand) bool {
	if m.Color != c || m.Kind != cmd.Kind {
		return false
	}
	return m.Kind != tengen.MovePlay || m.X == cmd.X && m.Y == cmd.Y
}

// plan is the one place where a move is validated: its form, the game's
// phase and turn, the rules of Go (on a copy of the position), and the clock.
func (c moveCmd) plan(s *Service, lg *game, now time.Time) (*change, error) {
	color, err := player(lg, c.userID)
	if err != nil {
		return nil, err
	}
	g, cmd := lg.g, c.MoveCommand
	if cmd.Seq == 0 && cmd.Kind == tengen.MoveResign {
		cmd.Seq = g.MoveCount + 1
	}
	if cmd.Seq >= 1 && cmd.Seq <= len(lg.moves) && sameMove(lg.moves[cmd.Seq-1], color, cmd) {
		return nil, nil // a repeated submission: already applied
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
	// A play or pass is made on the live position itself, and taken back
	// (undo) if the move is refused after all or its commit fails: a copy
	// of the position for every move (the board with its undo log, the
	// history of positions) cost more the longer the game went. A
	// resignation and a handicap stone, which goban does not take back,
	// and a move that ends the play (below) go on a copy.
	next := lg.state
	inPlace := m.Kind != tengen.MoveResign && lg.pos.gb.HandicapToPlace() == 0
	if inPlace {
		next.pos = lg.pos
	} else {
		next.pos = lg.pos.clone()
	}
	next.rec.TakebackSeq = 0 // a move ends any takeback request
	captured, err := next.pos.apply(m, false)
	if err != nil {
		return nil, err // goban refused it: the position is as it was
	}
	undo := func() {}
	if inPlace {
		live := lg.pos
		undo = live.undo
		if next.pos.gb.Ended() {
			// The end of play: the scoring phase looks at the position
			// (dead stones), so it gets a copy of its own.
			next.pos = lg.pos.clone()
			undo()
			undo = func() {}
		}
	}
	var reply bool
	next.rec.Conditional, reply = advanceConditional(lg.rec.Conditional, m)
	if m.Kind == tengen.MoveResign && !next.pos.gb.Ended() {
		// Resigned while placing handicap stones.
		next.pos.gb.End(color.Opponent(), goban.EndResign)
	}
	upd := tengen.GameUpdate{ToMove: next.pos.toMove(), Status: tengen.GamePlaying}
	switch {
	case m.Kind == tengen.MoveResign:
		upd.Status, upd.Result = tengen.GameFinished, tengen.NextState(*m, false).Result
	case next.pos.gb.Ended() && next.pos.gb.Result().Reason == goban.EndPasses:
		upd.Status = tengen.GameScoring
	case next.pos.gb.Ended():
		upd.Status, upd.Result = tengen.GameFinished, next.pos.gb.Result().String()
	}

	if lg.clk != nil {
		next.clk = lg.clk.Clone()
		if since, running := next.clk.Running(); running && m.Kind != tengen.MoveResign {
			m.TimeUsed = max(now.Sub(since), 0)
			var flagged bool
			if upd.ToMove == color && upd.Status == tengen.GamePlaying {
				flagged, err = next.clk.Checkpoint(now) // a handicap stone: Black stays on turn
			} else {
				flagged, err = next.clk.Switch(now)
			}
			if err != nil {
				undo()
				return nil, err
			}
			if flagged {
				undo()
				return tooLate(s, lg, now)
			}
			m.Clock = ptr(next.clk.State(clock.Color(color)))
		}
		if upd.Status != tengen.GamePlaying {
			if _, running := next.clk.Running(); running {
				if _, err := next.clk.Pause(now); err != nil {
					undo()
					return nil, err
				}
			}
		}
	}
	if upd.Status == tengen.GameScoring {
		next.rec.ProposalSeq++
		next.rec.Dead = s.deadStones(next.pos.gb)
		next.rec.AcceptedBlack, next.rec.AcceptedWhite = 0, 0
		if next.score, err = next.pos.gb.Score(next.rec.Dead); err != nil {
			undo()
			return nil, err
		}
	}
	var then command
	if reply && upd.Status == tengen.GamePlaying {
		then = conditionalReplyCmd{}
	}
	return &change{next: next, upd: upd, move: m, by: c.userID, then: then, undo: undo,
		announce: func(lg *game, before *tengen.Game) []*tengen.GameEvent {
			evs := []*tengen.GameEvent{{Type: tengen.EventMove, GameID: lg.id, Move: m, Game: lg.g, Board: lg.pos.board(),
				Captures: ptr(lg.pos.captures()), Captured: captured, Clock: lg.clockView(), Repetition: lg.repetitionView()}}
			if lg.g.Status != before.Status {
				evs = append(evs, &tengen.GameEvent{Type: tengen.EventPhase, GameID: lg.id, Game: lg.g, Clock: lg.clockView(),
					Proposal: lg.proposal(), Score: lg.scoreView()})
			}
			return evs
		}}, nil
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

// toggleCmd marks the group at p dead or alive again: a new proposal.
type toggleCmd struct {
	userID int64
	p      goban.Point
}

func (c toggleCmd) plan(s *Service, lg *game, _ time.Time) (*change, error) {
	if _, err := scoringPlayer(lg, c.userID); err != nil {
		return nil, err
	}
	b := lg.pos.gb.Board()
	if !b.OnBoard(c.p) {
		n := lg.g.Settings.BoardSize
		return nil, tengen.Errorf(tengen.EINVALID, "Point (%d, %d) is off the %d×%d board.", c.p.X, c.p.Y, n, n)
	}
	if b.At(c.p) == goban.Empty {
		return nil, tengen.Errorf(tengen.EINVALID, "There is no stone at that point.")
	}
	if lg.rules.AllStonesAlive {
		return nil, tengen.Errorf(tengen.EINVALID, "Under these rules every stone on the board counts as alive; dead stones must be captured before the passes.")
	}
	next := lg.state
	next.rec.ProposalSeq++
	next.rec.Dead = b.ToggleGroup(lg.rec.Dead, c.p)
	next.rec.AcceptedBlack, next.rec.AcceptedWhite = 0, 0
	var err error
	if next.score, err = lg.pos.gb.Score(next.rec.Dead); err != nil {
		return nil, err
	}
	return &change{next: next, upd: tengen.GameUpdate{ToMove: lg.g.ToMove, Status: lg.g.Status},
		announce: func(lg *game, _ *tengen.Game) []*tengen.GameEvent {
			return []*tengen.GameEvent{{Type: tengen.EventProposal, GameID: lg.id, Proposal: lg.proposal(), Score: lg.scoreView()}}
		}}, nil
}

// acceptCmd accepts proposal seq; the second acceptance ends the game.
type acceptCmd struct {
	userID int64
	seq    int
}

func (c acceptCmd) plan(s *Service, lg *game, _ time.Time) (*change, error) {
	color, err := player(lg, c.userID)
	if err != nil {
		return nil, err
	}
	if lg.g.Status == tengen.GameFinished && lg.rec.ProposalSeq == c.seq && accepted(lg.rec, color) == c.seq {
		return nil, nil // a repeated acceptance of the final count
	}
	if lg.g.Status != tengen.GameScoring {
		return nil, tengen.Errorf(tengen.ECONFLICT, "The game is not in the scoring phase.")
	}
	if c.seq != lg.rec.ProposalSeq {
		return nil, tengen.Errorf(tengen.ECONFLICT, "The proposal changed; proposal %d is current.", lg.rec.ProposalSeq)
	}
	if accepted(lg.rec, color) == c.seq {
		return nil, nil
	}
	next := lg.state
	if color == goban.Black {
		next.rec.AcceptedBlack = c.seq
	} else {
		next.rec.AcceptedWhite = c.seq
	}
	upd := tengen.GameUpdate{ToMove: lg.g.ToMove, Status: lg.g.Status}
	done := next.rec.AcceptedBlack == c.seq && next.rec.AcceptedWhite == c.seq
	if done {
		upd.Status, upd.Result = tengen.GameFinished, lg.score.Result.String()
		next.pos = lg.pos.clone()
		next.pos.gb.SetResult(lg.score.Result)
	}
	return &change{next: next, upd: upd,
		announce: func(lg *game, _ *tengen.Game) []*tengen.GameEvent {
			evs := []*tengen.GameEvent{{Type: tengen.EventAccepted, GameID: lg.id, Color: color, Seq: c.seq}}
			if done {
				evs = append(evs, &tengen.GameEvent{Type: tengen.EventPhase, GameID: lg.id, Game: lg.g, Clock: lg.clockView(),
					Proposal: lg.proposal(), Score: lg.scoreView()})
			}
			return evs
		}}, nil
}

func accepted(rec tengen.PlayRecord, c goban.Color) int {
	if c == goban.Black {
		return rec.AcceptedBlack
	}
	return rec.AcceptedWhite
}

// resumeCmd ends the scoring phase and continues play.
type resumeCmd struct {
	userID int64
}

func (c resumeCmd) plan(s *Service, lg *game, now time.Time) (*change, error) {
	color, err := scoringPlayer(lg, c.userID)
	if err != nil {
		return nil, err
	}
	next := lg.state
	next.pos = lg.pos.clone()
	if err := next.pos.gb.Resume(color); err != nil {
		return nil, tengen.Errorf(tengen.ECONFLICT, "Play cannot resume now.")
	}
	toMove := next.pos.toMove()
	next.rec.Resumptions = append(slices.Clone(lg.rec.Resumptions), tengen.Resumption{AfterSeq: lg.g.MoveCount, Color: color})
	next.rec.Dead, next.rec.AcceptedBlack, next.rec.AcceptedWhite = nil, 0, 0
	next.score = nil
	if lg.clk != nil {
		next.clk = lg.clk.Clone()
		if err := next.clk.Start(clock.Color(toMove), now); err != nil {
			return nil, err
		}
	}
	return &change{next: next, upd: tengen.GameUpdate{ToMove: toMove, Status: tengen.GamePlaying},
		announce: func(lg *game, _ *tengen.Game) []*tengen.GameEvent {
			return []*tengen.GameEvent{{Type: tengen.EventPhase, GameID: lg.id, Game: lg.g, Clock: lg.clockView()}}
		}}, nil
}

// forfeitCmd ends the game because the bot userID failed (CommandForfeit):
// the opponent wins by forfeit (B+F or W+F). It changes nothing if the game
// moved on since move moveCount.
type forfeitCmd struct {
	userID    int64
	moveCount int
}

func (c forfeitCmd) plan(s *Service, lg *game, now time.Time) (*change, error) {
	loser, err := player(lg, c.userID)
	if err != nil {
		return nil, err
	}
	if s.bots[c.userID] == nil {
		return nil, tengen.Errorf(tengen.EFORBIDDEN, "Only a computer player forfeits; resign instead.")
	}
	if lg.g.Status == tengen.GameFinished || lg.g.MoveCount != c.moveCount {
		return nil, nil
	}
	result := "B+F"
	if loser == goban.Black {
		result = "W+F"
	}
	next := lg.state
	if next.clk, err = stopped(lg.clk, now); err != nil {
		return nil, err
	}
	if !lg.pos.gb.Ended() {
		next.pos = lg.pos.clone()
		next.pos.gb.End(loser.Opponent(), goban.EndForfeit)
	}
	return &change{next: next, upd: tengen.GameUpdate{ToMove: lg.g.ToMove, Status: tengen.GameFinished, Result: result},
		announce: func(lg *game, _ *tengen.Game) []*tengen.GameEvent {
			s.log.Warn("play: bot forfeits", "game", lg.id, "color", loser, "result", result)
			return []*tengen.GameEvent{{Type: tengen.EventPhase, GameID: lg.id, Game: lg.g, Clock: lg.clockView()}}
		}}, nil
}

// cancelCmd ends an unfinished game without a result (tengen.ResultVoid)
// on behalf of an admin: the clock stops, the game is finished, nobody
// wins. admin is set by Service.adminCancel from the stored account.
type cancelCmd struct {
	userID int64
	admin  bool
}

// adminCancel looks up whether the user of c is an admin.
func (s *Service) adminCancel(ctx context.Context, c cancelCmd) (cancelCmd, error) {
	if c.userID == 0 {
		return c, tengen.Errorf(tengen.EUNAUTHORIZED, "You must log in first.")
	}
	if s.cfg.Users == nil {
		return c, errors.New("play: cancelling a game needs Config.Users")
	}
	u, err := s.cfg.Users.FindUserByID(ctx, c.userID)
	if err != nil {
		return c, err
	}
	c.admin = u.Admin && !u.Disabled
	return c, nil
}

func (c cancelCmd) plan(s *Service, lg *game, now time.Time) (*change, error) {
	if !c.admin {
		return nil, tengen.Errorf(tengen.EFORBIDDEN, "Only an admin may cancel a game.")
	}
	if lg.g.Status == tengen.GameFinished {
		return nil, tengen.Errorf(tengen.ECONFLICT, "The game is over.")
	}
	next := lg.state
	var err error
	if next.clk, err = stopped(lg.clk, now); err != nil {
		return nil, err
	}
	return &change{next: next, upd: tengen.GameUpdate{ToMove: lg.g.ToMove, Status: tengen.GameFinished, Result: tengen.ResultVoid},
		announce: func(lg *game, before *tengen.Game) []*tengen.GameEvent {
			s.log.Info("play: game cancelled", "game", lg.id, "admin", c.userID, "status", before.Status, "moves", before.MoveCount)
			return []*tengen.GameEvent{{Type: tengen.EventPhase, GameID: lg.id, Game: lg.g, Clock: lg.clockView()}}
		}}, nil
}
