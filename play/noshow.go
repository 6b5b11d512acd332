package play

import (
	"context"
	"time"

	"tengen"
	"tengen/clock"
	"tengen/goban"
)

// No-shows. A live game (a clock that is not correspondence) in which a
// player's first move does not come within a set time after that player's
// first turn began is cancelled without result or rating (tengen.ResultVoid):
// NoShowBlitz for blitz, NoShowLive for other live games. Games without a
// clock and correspondence games have no no-show time.
//
// The first mover's clock runs from the game's creation (createCmd), so the
// window and the clock race. The rule that decides the race: a player whose
// flag falls before their own first move has not lost on time, the game is
// void (flagCmd defers to noShowCmd). So an absent player never loses on
// time in a game they did not see start, whichever timer fires first.
//
// The window begins when the player's first turn begins: the game's creation
// for the first mover, the opponent's last move for the other player. It
// lives in memory (game.turnStart); a restart starts it again, as the clock
// does not charge the time the server was down either.

const (
	// NoShowBlitz is the no-show time of a blitz game.
	NoShowBlitz = time.Minute
	// NoShowLive is the no-show time of any other live game.
	NoShowLive = 5 * time.Minute
	// blitzBelow: a game is blitz when a player's time for 40 moves
	// (main time plus 40 moves' share of byo-yomi, Canadian or Fischer
	// time) is under 10 minutes.
	blitzBelow = 10 * time.Minute
)

// noShowWindow returns the no-show time of a time control; ok is false for
// games without a clock and correspondence games.
func noShowWindow(tc clock.TimeControl) (time.Duration, bool) {
	var perMove time.Duration
	switch tc.Kind {
	case clock.None, clock.Correspondence:
		return 0, false
	case clock.ByoYomi:
		perMove = tc.PeriodTime
	case clock.Canadian:
		if tc.Stones > 0 {
			perMove = tc.PeriodTime / time.Duration(tc.Stones)
		}
	case clock.Fischer:
		perMove = tc.Increment
	}
	if tc.MainTime+40*perMove < blitzBelow {
		return NoShowBlitz, true
	}
	return NoShowLive, true
}

// hasMoved reports whether c has made a move in lg. The caller holds lg.mu.
func (lg *game) hasMoved(c goban.Color) bool {
	for _, m := range lg.moves {
		if m.Color == c {
			return true
		}
	}
	return false
}

// noShowDeadline returns when the player to move, who has not moved yet,
// becomes a no-show; ok is false when no no-show can happen now. The caller
// holds lg.mu.
func (lg *game) noShowDeadline() (time.Time, bool) {
	if lg.g == nil || lg.g.Status != tengen.GamePlaying || lg.turnStart.IsZero() {
		return time.Time{}, false
	}
	w, ok := noShowWindow(lg.g.Settings.TimeControl)
	if !ok || lg.hasMoved(lg.g.ToMove) {
		return time.Time{}, false
	}
	return lg.turnStart.Add(w), true
}

// noShowCmd cancels a game whose player to move has not made a first move
// in time. flagged is set by flagCmd: the player's flag fell before their
// first move, which voids the game whatever the no-show time says.
type noShowCmd struct {
	flagged bool
}

func (c noShowCmd) plan(s *Service, lg *game, now time.Time) (*change, error) {
	if lg.g.Status != tengen.GamePlaying || lg.hasMoved(lg.g.ToMove) {
		return nil, nil
	}
	if !c.flagged {
		deadline, ok := lg.noShowDeadline()
		if !ok || now.Before(deadline) {
			return nil, nil
		}
	}
	next := lg.state
	var err error
	if next.clk, err = stopped(lg.clk, now); err != nil {
		return nil, err
	}
	absent := lg.g.ToMove
	return &change{next: next, upd: tengen.GameUpdate{ToMove: lg.g.ToMove, Status: tengen.GameFinished, Result: tengen.ResultVoid},
		announce: func(lg *game, _ *tengen.Game) []*tengen.GameEvent {
			s.log.Info("play: game cancelled, a player did not show", "game", lg.id, "color", absent, "flagged", c.flagged)
			return []*tengen.GameEvent{{Type: tengen.EventPhase, GameID: lg.id, Game: lg.g, Clock: lg.clockView()}}
		}}, nil
}

// Open challenges expire after Config.ChallengeTTL: createCmd refuses an
// older one at once, and the sweep below cancels it in storage, so that
// the lobby stops listing it within a minute.

// expired reports whether challenge c is older than the challenge TTL at
// now.
func (s *Service) expired(c *tengen.Challenge, now time.Time) bool {
	return s.cfg.ChallengeTTL > 0 && !c.CreatedAt.IsZero() && now.Sub(c.CreatedAt) > s.cfg.ChallengeTTL
}

// ExpireChallenges cancels the open challenges older than the challenge
// TTL and returns how many it cancelled. Open calls it, and then every
// minute (or every TTL, when that is shorter). Every instance on one
// database sweeps, and storage gives each expired challenge to one of them:
// that one logs it and reports it to Config.ChallengesExpired.
func (s *Service) ExpireChallenges(ctx context.Context) (int, error) {
	if s.cfg.ChallengeTTL <= 0 || s.cfg.Challenges == nil {
		return 0, nil
	}
	cs, err := s.cfg.Challenges.ExpireChallenges(ctx, s.cfg.Now().Add(-s.cfg.ChallengeTTL))
	if err != nil {
		return 0, err
	}
	if len(cs) > 0 {
		s.log.Info("play: challenges expired", "count", len(cs), "ttl", s.cfg.ChallengeTTL)
		if s.cfg.ChallengesExpired != nil {
			s.cfg.ChallengesExpired(cs)
		}
	}
	return len(cs), nil
}
