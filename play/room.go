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

// The comforts of correspondence play (issue 17). Vacation: while a
// player is on vacation, their clock stands still whenever it is their
// turn in a correspondence game; the play record keeps until when
// (PlayRecord.Vacation), apply holds the clock (holdForVacation), and the
// game's timer ends the vacation in the game when it runs out. Conditional
// moves: the waiting player's planned replies (PlayRecord.Conditional),
// played by moveCmd's change as a follow-up command in the same flow.

// vacationOf returns until when colour c is on vacation in v, nil if not.
func vacationOf(v tengen.GameVacation, c goban.Color) *time.Time {
	if c == goban.Black {
		return v.Black
	}
	return v.White
}

// withVacation returns v with c's vacation set to until.
func withVacation(v tengen.GameVacation, c goban.Color, until *time.Time) tengen.GameVacation {
	if c == goban.Black {
		v.Black = until
	} else {
		v.White = until
	}
	return v
}

// onVacation reports whether colour c is on vacation at now.
func onVacation(v tengen.GameVacation, c goban.Color, now time.Time) bool {
	u := vacationOf(v, c)
	return u != nil && now.Before(*u)
}

// holdForVacation applies the rule of vacations to a planned state while
// the game is played: the clock of the player to move stands still while
// they are on vacation and runs otherwise. It returns the clock to keep,
// cloned when it changes.
func holdForVacation(clk *clock.GameClock, toMove goban.Color, v tengen.GameVacation, now time.Time) (*clock.GameClock, error) {
	if clk == nil {
		return nil, nil
	}
	if _, flagged := clk.Flagged(); flagged {
		return clk, nil
	}
	_, running := clk.Running()
	switch hold := onVacation(v, toMove, now); {
	case hold && running:
		c := clk.Clone()
		if _, err := c.Pause(now); err != nil {
			return nil, err
		}
		return c, nil
	case !hold && !running:
		c := clk.Clone()
		if err := c.Start(clock.Color(toMove), now); err != nil {
			return nil, err
		}
		return c, nil
	}
	return clk, nil
}

// vacationView returns the vacations that run at now, nil when none does.
// The caller holds lg.mu.
func (lg *game) vacationView(now time.Time) *tengen.GameVacation {
	var v tengen.GameVacation
	for _, c := range []goban.Color{goban.Black, goban.White} {
		if onVacation(lg.rec.Vacation, c, now) {
			v = withVacation(v, c, vacationOf(lg.rec.Vacation, c))
		}
	}
	if v.Black == nil && v.White == nil {
		return nil
	}
	return &v
}

// vacationEnd returns when the vacation of the player to move ends, if
// the record names one: the game's timer fires then, or at once for a
// vacation that ended while it was the opponent's turn, and vacationCmd
// clears it. The caller holds lg.mu.
func (lg *game) vacationEnd() (time.Time, bool) {
	if lg.g == nil || lg.g.Status != tengen.GamePlaying {
		return time.Time{}, false
	}
	u := vacationOf(lg.rec.Vacation, lg.g.ToMove)
	if u == nil {
		return time.Time{}, false
	}
	return *u, true
}

// vacationCmd sets until when colour's player is on vacation in one
// correspondence game; a nil until ends the vacation. It changes nothing
// in other games, or when the game knows it already.
type vacationCmd struct {
	// userID is the player whose vacation it is, or color when the
	// service itself knows it (a new game, a vacation that ran out).
	userID int64
	color  goban.Color
	// until is the end of the player's running vacation, nil when none
	// runs, as userVacation read it from the account.
	until *time.Time
}

// userVacation sets c.until from the player's account.
func (s *Service) userVacation(ctx context.Context, c vacationCmd) (vacationCmd, error) {
	if s.cfg.Users == nil {
		return c, errors.New("play: vacations need Config.Users")
	}
	u, err := s.cfg.Users.FindUserByID(ctx, c.userID)
	if err != nil {
		return c, err
	}
	c.until = nil
	if u.Vacation.Active(s.cfg.Now()) {
		c.until = u.Vacation.Until
	}
	return c, nil
}

func (c vacationCmd) plan(s *Service, lg *game, now time.Time) (*change, error) {
	color := c.color
	if color == goban.Empty {
		var err error
		if color, err = player(lg, c.userID); err != nil {
			return nil, err
		}
	}
	g := lg.g
	if g.Status == tengen.GameFinished || g.Settings.TimeControl.Kind != clock.Correspondence {
		return nil, nil
	}
	cur := vacationOf(lg.rec.Vacation, color)
	if cur == nil && c.until == nil || cur != nil && c.until != nil && cur.Equal(*c.until) {
		return nil, nil
	}
	next := lg.state
	next.rec.Vacation = withVacation(lg.rec.Vacation, color, c.until)
	return &change{next: next, upd: tengen.GameUpdate{ToMove: g.ToMove, Status: g.Status},
		announce: func(lg *game, _ *tengen.Game) []*tengen.GameEvent {
			return []*tengen.GameEvent{{Type: tengen.EventClock, GameID: lg.id, Clock: lg.clockView(), Vacation: lg.vacationView(s.cfg.Now())}}
		}}, nil
}

// StartVacation implements tengen.VacationService.
func (s *Service) StartVacation(ctx context.Context, userID int64, days int) (*tengen.User, error) {
	if s.cfg.Users == nil {
		return nil, errors.New("play: vacations need Config.Users")
	}
	u, err := s.cfg.Users.UpdateVacation(ctx, userID, func(v *tengen.Vacation) error { return v.Begin(s.cfg.Now(), days) })
	if err != nil {
		return nil, err
	}
	return u, s.vacationGames(ctx, u)
}

// EndVacation implements tengen.VacationService.
func (s *Service) EndVacation(ctx context.Context, userID int64) (*tengen.User, error) {
	if s.cfg.Users == nil {
		return nil, errors.New("play: vacations need Config.Users")
	}
	u, err := s.cfg.Users.UpdateVacation(ctx, userID, func(v *tengen.Vacation) error { return v.End(s.cfg.Now()) })
	if err != nil {
		return nil, err
	}
	return u, s.vacationGames(ctx, u)
}

// vacationGames sends CommandVacation to each of u's unfinished
// correspondence games, each through the one path of changes on the
// instance that holds it.
func (s *Service) vacationGames(ctx context.Context, u *tengen.User) error {
	games, _, err := s.cfg.Games.FindGames(ctx, tengen.GameFilter{UserID: &u.ID, Status: []tengen.GameStatus{tengen.GamePlaying, tengen.GameScoring}})
	if err != nil {
		return err
	}
	var errs []error
	for _, g := range games {
		if g.Settings.TimeControl.Kind != clock.Correspondence {
			continue
		}
		if _, err := s.Do(ctx, g.ID, u.ID, tengen.Command{Kind: tengen.CommandVacation, Quiet: true}); err != nil {
			errs = append(errs, err)
		}
	}
	if err := errors.Join(errs...); err != nil {
		s.log.Error("play: vacation not applied to every game", "user", u.ID, "err", err)
		return err
	}
	return nil
}

// conditionalCmd sets or clears userID's conditional moves.
type conditionalCmd struct {
	userID int64
	moves  []goban.Point
}

func (c conditionalCmd) plan(s *Service, lg *game, now time.Time) (*change, error) {
	color, err := player(lg, c.userID)
	if err != nil {
		return nil, err
	}
	g := lg.g
	switch {
	case g.Status != tengen.GamePlaying:
		return nil, tengen.Errorf(tengen.ECONFLICT, "Conditional moves can be left only while the game is being played.")
	case g.Settings.TimeControl.Kind != clock.Correspondence:
		return nil, tengen.Errorf(tengen.EINVALID, "Conditional moves are for correspondence games.")
	case g.ToMove == color:
		return nil, tengen.Errorf(tengen.ECONFLICT, "Conditional moves are left while your opponent is to move.")
	case len(c.moves)%2 != 0 || len(c.moves) > tengen.MaxConditionalMoves:
		return nil, tengen.Errorf(tengen.EINVALID, "Conditional moves come in pairs, your opponent's move and your reply, at most %d moves in all.", tengen.MaxConditionalMoves)
	}
	next := lg.state
	if len(c.moves) == 0 {
		if lg.rec.Conditional == nil {
			return nil, nil
		}
		next.rec.Conditional = nil
	} else {
		// The sequence is played on a scratch board: every move must be
		// legal where it would be played.
		pos := lg.pos.clone()
		for i, p := range c.moves {
			m := &tengen.GameMove{GameID: g.ID, Seq: g.MoveCount + 1 + i, Color: color, Kind: tengen.MovePlay, X: p.X, Y: p.Y}
			if i%2 == 0 {
				m.Color = color.Opponent()
			}
			err := tengen.ValidateMove(*m, g.Settings.BoardSize)
			if err == nil {
				_, err = pos.apply(m, false)
			}
			if err != nil {
				return nil, tengen.Errorf(tengen.EINVALID, "Conditional move %d: %s", i+1, tengen.ErrorMessage(err))
			}
		}
		next.rec.Conditional = &tengen.ConditionalMoves{Color: color, Moves: slices.Clone(c.moves)}
	}
	return &change{next: next, upd: tengen.GameUpdate{ToMove: g.ToMove, Status: g.Status}}, nil
}

// advanceConditional returns the conditional moves left after move m and
// whether their owner's reply is to be played now: the opponent's expected
// move keeps the plan and calls for the reply, the owner's planned reply
// moves it on, and any other move clears it.
func advanceConditional(c *tengen.ConditionalMoves, m *tengen.GameMove) (*tengen.ConditionalMoves, bool) {
	if c == nil || len(c.Moves) == 0 || m.Kind != tengen.MovePlay || c.Moves[0] != (goban.Point{X: m.X, Y: m.Y}) {
		return nil, false
	}
	if m.Color == c.Color {
		if len(c.Moves) == 1 {
			return nil, false
		}
		return &tengen.ConditionalMoves{Color: c.Color, Moves: c.Moves[1:]}, false
	}
	if len(c.Moves) < 2 {
		return nil, false
	}
	return &tengen.ConditionalMoves{Color: c.Color, Moves: c.Moves[1:]}, true
}

// conditionalReplyCmd plays the reply the conditional moves hold for the
// player to move, as that player's move (moveCmd validates it as any
// move). A reply that is no longer legal clears the plan instead.
type conditionalReplyCmd struct{}

func (conditionalReplyCmd) plan(s *Service, lg *game, now time.Time) (*change, error) {
	c, g := lg.rec.Conditional, lg.g
	if c == nil || len(c.Moves) == 0 || g.Status != tengen.GamePlaying || g.ToMove != c.Color {
		return nil, nil
	}
	uid := g.BlackID
	if c.Color == goban.White {
		uid = g.WhiteID
	}
	p := c.Moves[0]
	ch, err := moveCmd{userID: uid, MoveCommand: tengen.MoveCommand{Seq: g.MoveCount + 1, Kind: tengen.MovePlay, X: p.X, Y: p.Y}}.plan(s, lg, now)
	if err != nil || ch == nil {
		s.log.Info("play: conditional reply not played", "game", lg.id, "err", err)
		next := lg.state
		next.rec.Conditional = nil
		return &change{next: next, upd: tengen.GameUpdate{ToMove: g.ToMove, Status: g.Status}}, nil
	}
	return ch, nil
}

// inheritVacations tells a new correspondence game of the players who are
// on vacation: their clock stands still from the start. The caller holds
// lg.mu.
func (s *Service) inheritVacations(ctx context.Context, lg *game) error {
	g := lg.g
	if s.cfg.Users == nil || g.Settings.TimeControl.Kind != clock.Correspondence {
		return nil
	}
	now := s.cfg.Now()
	for _, c := range []goban.Color{goban.Black, goban.White} {
		u := g.Black
		if c == goban.White {
			u = g.White
		}
		if u == nil || !u.Vacation.Active(now) {
			continue
		}
		if err := s.apply(ctx, lg, vacationCmd{color: c, until: u.Vacation.Until}); err != nil {
			return err
		}
	}
	return nil
}
