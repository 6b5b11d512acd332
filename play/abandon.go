package play

import (
	"context"
	"time"

	"tengen"
	"tengen/clock"
	"tengen/goban"
)

// Abandoned games: a game without time limit against a bot has no clock to
// end it when its human player walks away, and would stay among the games
// being played for ever. A sweep ends such a game after Config.AbandonAfter
// without a move (a change of turn, phase or result; see
// GameService.UpdateGame), through abandonCmd and the one path.

// DefaultAbandonAfter is Config.AbandonAfter's default.
const DefaultAbandonAfter = 7 * 24 * time.Hour

// sweepAbandoned ends every abandoned game in memory (Open loads all
// unfinished games); Open runs it periodically (see Service.every).
func (s *Service) sweepAbandoned() {
	for _, lg := range s.liveGames() {
		lg.mu.Lock()
		if s.abandoned(lg, s.cfg.Now()) {
			err := s.apply(context.Background(), lg, abandonCmd{})
			switch {
			case err == nil:
			case tengen.ErrorCode(err) == tengen.ECONFLICT:
				// Storage refused a game that changed elsewhere (another
				// instance ended it or moved in it): nothing to announce.
				s.log.Info("play: abandoned game changed meanwhile", "game", lg.id, "err", err)
			default:
				s.log.Error("play: ending an abandoned game", "game", lg.id, "err", err)
			}
		}
		lg.mu.Unlock()
	}
}

// abandoned reports whether lg is an unfinished game without time limit
// against a bot that has not changed for AbandonAfter. The caller holds
// lg.mu.
func (s *Service) abandoned(lg *game, now time.Time) bool {
	g := lg.g
	if g == nil || lg.evicted || g.Status == tengen.GameFinished || g.Settings.TimeControl.Kind != clock.None {
		return false
	}
	if s.bots[g.BlackID] == nil && s.bots[g.WhiteID] == nil {
		return false
	}
	return now.Sub(g.UpdatedAt) >= s.cfg.AbandonAfter
}

// abandonCmd ends an abandoned game (see abandoned). A human who left the
// game on their turn loses by forfeit (B+F or W+F), as a bot that fails
// does; a game that waits for a bot, or for both players in the scoring
// phase, ends without result (tengen.ResultVoid).
type abandonCmd struct{}

func (abandonCmd) plan(s *Service, lg *game, now time.Time) (*change, error) {
	if !s.abandoned(lg, now) {
		return nil, nil // moved meanwhile
	}
	g := lg.g
	result := tengen.ResultVoid
	next := lg.state
	var err error
	if next.clk, err = stopped(lg.clk, now); err != nil {
		return nil, err
	}
	if g.Status == tengen.GamePlaying {
		mover := g.BlackID
		if g.ToMove == goban.White {
			mover = g.WhiteID
		}
		if s.bots[mover] == nil {
			result = "B+F"
			if g.ToMove == goban.Black {
				result = "W+F"
			}
			if !lg.pos.gb.Ended() {
				next.pos = lg.pos.clone()
				next.pos.gb.End(g.ToMove.Opponent(), goban.EndForfeit)
			}
		}
	}
	return &change{next: next, upd: tengen.GameUpdate{ToMove: g.ToMove, Status: tengen.GameFinished, Result: result},
		announce: func(lg *game, before *tengen.Game) []*tengen.GameEvent {
			s.log.Info("play: abandoned game ended", "game", lg.id, "result", result, "idle", now.Sub(before.UpdatedAt).Round(time.Minute), "moves", before.MoveCount)
			return []*tengen.GameEvent{{Type: tengen.EventPhase, GameID: lg.id, Game: lg.g, Clock: lg.clockView()}}
		}}, nil
}
