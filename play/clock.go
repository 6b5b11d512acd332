package play

import (
	"context"
	"time"

	"tengen"
	"tengen/clock"
	"tengen/goban"
)

// The clocks' work: the timer that ends a game on time, the checkpoints that
// bound what a crash loses, and the commands they run through Service.apply.

// checkpointer returns the tick of the checkpoint timer: it writes running
// clocks to storage (correspondence clocks only once an hour). Open runs it
// every CheckpointEvery (see Service.every).
func (s *Service) checkpointer() func() {
	lastSlow := s.cfg.Now()
	return func() {
		slow := s.cfg.Now().Sub(lastSlow) >= time.Hour
		if slow {
			lastSlow = s.cfg.Now()
		}
		now := s.cfg.Now()
		for _, lg := range s.liveGames() {
			lg.mu.Lock()
			// A game whose last change was stored within half the
			// interval stored its clock with it: a busy server's moves
			// make most checkpoints needless, and the skipped ones would
			// all be written at once, between the moves.
			recent := now.Sub(lg.stored) < s.cfg.CheckpointEvery/2
			if lg.g != nil && !recent && (slow || lg.g.Settings.TimeControl.Kind != clock.Correspondence) {
				if err := s.apply(context.Background(), lg, checkpointCmd{}); err != nil {
					s.log.Error("play: clock checkpoint", "game", lg.id, "err", err)
				}
			}
			lg.mu.Unlock()
		}
	}
}

// liveGames returns the games in memory now.
func (s *Service) liveGames() []*game {
	s.mu.Lock()
	defer s.mu.Unlock()
	games := make([]*game, 0, len(s.games))
	for _, lg := range s.games {
		games = append(games, lg)
	}
	return games
}

// checkpointCmd charges the running turn's time so far and stores the
// clock; a flag that fell meanwhile ends the game (flagCmd).
type checkpointCmd struct{}

func (checkpointCmd) plan(s *Service, lg *game, now time.Time) (*change, error) {
	if lg.clk == nil || lg.g.Status != tengen.GamePlaying {
		return nil, nil
	}
	if _, running := lg.clk.Running(); !running {
		return nil, nil
	}
	next := lg.state
	next.clk = lg.clk.Clone()
	if flagged, err := next.clk.Checkpoint(now); err != nil {
		return nil, err
	} else if flagged {
		return flagCmd{}.plan(s, lg, now)
	}
	return &change{next: next, upd: tengen.GameUpdate{ToMove: lg.g.ToMove, Status: lg.g.Status}}, nil
}

// flagCmd ends the game on time: the running player's flag has fallen. It
// changes nothing when no flag has fallen at now.
type flagCmd struct{}

func (flagCmd) plan(s *Service, lg *game, now time.Time) (*change, error) {
	if lg.clk == nil || lg.g.Status != tengen.GamePlaying {
		return nil, nil
	}
	next := lg.state
	next.clk = lg.clk.Clone()
	loser, ok := next.clk.Check(now)
	if !ok {
		if _, err := next.clk.Checkpoint(now); err != nil {
			return nil, err
		}
		if loser, ok = next.clk.Flagged(); !ok {
			return nil, nil
		}
	}
	if _, live := noShowWindow(lg.g.Settings.TimeControl); live && !lg.hasMoved(goban.Color(loser)) {
		// An absent player does not lose on time before their first
		// move; the game is void (see noshow.go).
		return noShowCmd{flagged: true}.plan(s, lg, now)
	}
	result, winner := "B+T", goban.Black
	if loser == clock.Black {
		result, winner = "W+T", goban.White
	}
	if !lg.pos.gb.Ended() {
		next.pos = lg.pos.clone()
		next.pos.gb.End(winner, goban.EndTime)
	}
	return &change{next: next, upd: tengen.GameUpdate{ToMove: lg.g.ToMove, Status: tengen.GameFinished, Result: result},
		announce: func(lg *game, _ *tengen.Game) []*tengen.GameEvent {
			s.log.Info("play: game ended on time", "game", lg.id, "result", result)
			cv := lg.clockView()
			return []*tengen.GameEvent{
				{Type: tengen.EventClock, GameID: lg.id, Clock: cv},
				{Type: tengen.EventPhase, GameID: lg.id, Game: lg.g, Clock: cv},
			}
		}}, nil
}

// arm sets the timer for the running clock's deadline, replacing any earlier
// one; after Close it arms none. The caller holds lg.mu.
func (s *Service) arm(lg *game) {
	if lg.stopTimer != nil {
		lg.stopTimer()
		lg.stopTimer = nil
	}
	if lg.g == nil || lg.g.Status != tengen.GamePlaying {
		return
	}
	deadline, ok := lg.deadline()
	if !ok {
		return
	}
	s.mu.Lock()
	closed := s.closed
	s.mu.Unlock()
	if closed {
		return
	}
	d := max(deadline.Sub(s.cfg.Now()), 0)
	id := lg.id
	lg.stopTimer = s.cfg.AfterFunc(d, func() { s.timeout(id) })
}

// deadline returns the earliest of the running clock's deadline, the
// no-show deadline and the end of the vacation of the player to move; ok
// is false when none is set. The caller holds lg.mu.
func (lg *game) deadline() (time.Time, bool) {
	var deadline time.Time
	ok := false
	if lg.clk != nil {
		deadline, ok = lg.clk.Deadline()
	}
	if ns, nok := lg.noShowDeadline(); nok && (!ok || ns.Before(deadline)) {
		deadline, ok = ns, true
	}
	if ve, vok := lg.vacationEnd(); vok && (!ok || ve.Before(deadline)) {
		deadline, ok = ve, true
	}
	return deadline, ok
}

// timeout runs when a game's deadline timer fires: it ends the game if the
// flag has fallen and re-arms the timer otherwise.
func (s *Service) timeout(id int64) {
	s.mu.Lock()
	lg := s.games[id]
	closed := s.closed
	s.mu.Unlock()
	if lg == nil || closed {
		return
	}
	lg.mu.Lock()
	defer s.unlock(lg)
	if lg.g == nil || lg.g.Status != tengen.GamePlaying {
		return
	}
	deadline, ok := lg.deadline()
	if !ok {
		return
	}
	if s.cfg.Now().Before(deadline) {
		s.arm(lg)
		return
	}
	var cmd command = flagCmd{}
	if ns, ok := lg.noShowDeadline(); ok && !s.cfg.Now().Before(ns) {
		cmd = noShowCmd{}
	}
	if u := vacationOf(lg.rec.Vacation, lg.g.ToMove); u != nil && !s.cfg.Now().Before(*u) {
		// The vacation ran out: the clock runs again (holdForVacation).
		cmd = vacationCmd{color: lg.g.ToMove}
	}
	if err := s.apply(context.Background(), lg, cmd); err != nil {
		s.log.Error("play: ending game on time", "game", id, "err", err)
		// Try again shortly; the database may be back.
		lg.stopTimer = s.cfg.AfterFunc(time.Second, func() { s.timeout(id) })
	}
}

// tooLate plans the loss on time of a player whose command came after the
// flag fell: the loss is committed, and the command is refused.
func tooLate(s *Service, lg *game, now time.Time) (*change, error) {
	ch, err := flagCmd{}.plan(s, lg, now)
	if err != nil || ch == nil {
		return nil, err
	}
	ch.err = tengen.Errorf(tengen.ECONFLICT, "Your time ran out; the game is over.")
	return ch, nil
}

// stopped returns a copy of clk paused at now, as at the end of play; nil
// for a game without a clock.
func stopped(clk *clock.GameClock, now time.Time) (*clock.GameClock, error) {
	if clk == nil {
		return nil, nil
	}
	c := clk.Clone()
	if _, running := c.Running(); running {
		if _, err := c.Pause(now); err != nil {
			return nil, err
		}
	}
	return c, nil
}
