package play

import (
	"time"

	"tengen"
	"tengen/clock"
	"tengen/goban"
)

// The commands of rules the seeds name beyond moves and scoring: the
// players' agreement to end a repeating game without result (1989 Japanese
// rules, Art. 12) and Black's free handicap stones placed at once (the help
// page of seed 003). Each is one case of command, applied by Service.apply.

// rulesCommandOf returns the command of cmd when it is one of this file's.
func rulesCommandOf(userID int64, cmd tengen.Command) (command, bool) {
	switch cmd.Kind {
	case tengen.CommandAgreeVoid:
		return voidAnswerCmd{userID: userID, seq: cmd.Seq, agree: true}, true
	case tengen.CommandDeclineVoid:
		return voidAnswerCmd{userID: userID, seq: cmd.Seq}, true
	case tengen.CommandPlaceHandicap:
		return placeHandicapCmd{userID: userID, seq: cmd.Seq, pts: cmd.Points}, true
	}
	return nil, false
}

// repetitionAnswers are the players' answers to the repetition offer of
// move seq, indexed by colour (0 Black, 1 White).
type repetitionAnswers struct {
	seq              int
	agreed, declined [2]bool
}

func side(c goban.Color) int {
	if c == goban.White {
		return 1
	}
	return 0
}

// offer returns the answers as clients see them.
func (a repetitionAnswers) offer() *tengen.RepetitionOffer {
	o := &tengen.RepetitionOffer{Seq: a.seq, AgreedBy: []goban.Color{}, DeclinedBy: []goban.Color{}}
	for i, c := range []goban.Color{goban.Black, goban.White} {
		if a.agreed[i] {
			o.AgreedBy = append(o.AgreedBy, c)
		}
		if a.declined[i] {
			o.DeclinedBy = append(o.DeclinedBy, c)
		}
	}
	return o
}

// repetitionView returns the open repetition offer of the game, nil when
// there is none. The caller holds lg.mu.
func (lg *game) repetitionView() *tengen.RepetitionOffer {
	if lg.g == nil || lg.g.Status != tengen.GamePlaying || !lg.pos.gb.RepetitionOffered() {
		return nil
	}
	a := lg.rep
	if a.seq != lg.g.MoveCount {
		a = repetitionAnswers{seq: lg.g.MoveCount}
	}
	return a.offer()
}

// voidAnswerCmd agrees to end the game without result after the repetition
// offered at move seq, or declines it. The second agreement ends the game as
// "Void"; a refusal lets play go on.
type voidAnswerCmd struct {
	userID int64
	seq    int
	agree  bool
}

func (c voidAnswerCmd) plan(s *Service, lg *game, now time.Time) (*change, error) {
	color, err := player(lg, c.userID)
	if err != nil {
		return nil, err
	}
	g := lg.g
	if g.Status == tengen.GameFinished && g.Result == "Void" && c.agree && lg.rep.seq == c.seq && lg.rep.agreed[side(color)] {
		return nil, nil // a repeated agreement that ended the game
	}
	switch {
	case g.Status != tengen.GamePlaying || !lg.pos.gb.RepetitionOffered():
		return nil, tengen.Errorf(tengen.ECONFLICT, "There is no repetition to agree on.")
	case c.seq != g.MoveCount:
		return nil, tengen.Errorf(tengen.ECONFLICT, "The offer of move %d has lapsed; the game is at move %d.", c.seq, g.MoveCount)
	}
	a := lg.rep
	if a.seq != c.seq {
		a = repetitionAnswers{seq: c.seq}
	}
	me, them := side(color), 1-side(color)
	switch {
	case c.agree && a.agreed[me], !c.agree && a.declined[me]:
		return nil, nil // answered already
	case c.agree && a.declined[them]:
		return nil, tengen.Errorf(tengen.ECONFLICT, "Your opponent declined; play goes on.")
	}
	if c.agree {
		a.agreed[me], a.declined[me] = true, false
	} else {
		a.declined[me], a.agreed[me] = true, false
	}
	next := lg.state
	next.rep = a
	upd := tengen.GameUpdate{ToMove: g.ToMove, Status: g.Status}
	done := a.agreed[0] && a.agreed[1]
	if done {
		next.pos = lg.pos.clone()
		if err := next.pos.gb.AgreeVoid(); err != nil {
			return nil, tengen.Errorf(tengen.ECONFLICT, "There is no repetition to agree on.")
		}
		upd.Status, upd.Result = tengen.GameFinished, next.pos.gb.Result().String()
		if next.clk, err = stopped(lg.clk, now); err != nil {
			return nil, err
		}
	}
	return &change{next: next, upd: upd,
		announce: func(lg *game, _ *tengen.Game) []*tengen.GameEvent {
			evs := []*tengen.GameEvent{{Type: tengen.EventRepetition, GameID: lg.id, Color: color, Seq: c.seq, Repetition: a.offer()}}
			if done {
				evs = append(evs, &tengen.GameEvent{Type: tengen.EventPhase, GameID: lg.id, Game: lg.g, Clock: lg.clockView()})
			}
			return evs
		}}, nil
}

// placeHandicapCmd places all of Black's free handicap stones in one change:
// the stones are stored as Black's next moves, numbered from seq, in one
// transaction, and the clock passes to White as after any move.
type placeHandicapCmd struct {
	userID int64
	seq    int
	pts    []goban.Point
}

// sameStones reports whether stored moves are the stones pts in order.
func sameStones(ms []*tengen.GameMove, pts []goban.Point) bool {
	if len(ms) != len(pts) {
		return false
	}
	for i, m := range ms {
		if m.Color != goban.Black || m.Kind != tengen.MovePlay || m.X != pts[i].X || m.Y != pts[i].Y {
			return false
		}
	}
	return true
}

func (c placeHandicapCmd) plan(s *Service, lg *game, now time.Time) (*change, error) {
	color, err := player(lg, c.userID)
	if err != nil {
		return nil, err
	}
	g := lg.g
	if end := c.seq - 1 + len(c.pts); c.seq >= 1 && len(c.pts) > 0 && end <= len(lg.moves) &&
		color == goban.Black && sameStones(lg.moves[c.seq-1:end], c.pts) {
		return nil, nil // a repeated submission: already applied
	}
	n := lg.pos.gb.HandicapToPlace()
	switch {
	case g.Status == tengen.GameFinished:
		return nil, tengen.Errorf(tengen.ECONFLICT, "The game is over.")
	case g.Status != tengen.GamePlaying:
		return nil, tengen.Errorf(tengen.ECONFLICT, "The game is in the scoring phase.")
	case n == 0:
		return nil, tengen.Errorf(tengen.ECONFLICT, "There are no handicap stones to place.")
	case color != goban.Black:
		return nil, tengen.Errorf(tengen.EFORBIDDEN, "Only Black places the handicap stones.")
	case c.seq != g.MoveCount+1:
		return nil, tengen.Errorf(tengen.ECONFLICT, "Move %d is not the next move; the game is at move %d.", c.seq, g.MoveCount)
	case len(c.pts) != n:
		return nil, tengen.Errorf(tengen.EINVALID, "Place exactly %d handicap stones.", n)
	}
	next := lg.state
	next.pos = lg.pos.clone()
	ms := make([]*tengen.GameMove, len(c.pts))
	boards := make([][]string, len(c.pts))
	for i, p := range c.pts {
		m := &tengen.GameMove{GameID: g.ID, Seq: c.seq + i, Color: goban.Black, Kind: tengen.MovePlay, X: p.X, Y: p.Y}
		if err := tengen.ValidateMove(*m, g.Settings.BoardSize); err != nil {
			return nil, err
		}
		if _, err := next.pos.apply(m, false); err != nil {
			return nil, err
		}
		ms[i], boards[i] = m, next.pos.board()
	}
	upd := tengen.GameUpdate{ToMove: next.pos.toMove(), Status: tengen.GamePlaying}
	if lg.clk != nil {
		next.clk = lg.clk.Clone()
		if since, running := next.clk.Running(); running {
			ms[0].TimeUsed = max(now.Sub(since), 0)
			flagged, err := next.clk.Switch(now)
			if err != nil {
				return nil, err
			}
			if flagged {
				return tooLate(s, lg, now)
			}
			st := next.clk.State(clock.Color(goban.Black))
			for _, m := range ms {
				m.Clock = &st
			}
		}
	}
	return &change{next: next, upd: upd, moves: ms, by: c.userID,
		announce: func(lg *game, _ *tengen.Game) []*tengen.GameEvent {
			// One move event per stone, as if they had been placed one
			// by one, so that watchers need no new event.
			evs := make([]*tengen.GameEvent, len(ms))
			for i, m := range ms {
				ev := &tengen.GameEvent{Type: tengen.EventMove, GameID: lg.id, Move: m, Board: boards[i], Captures: &tengen.Captures{}}
				if i == len(ms)-1 {
					ev.Game, ev.Clock = lg.g, lg.clockView()
				} else {
					placing := *lg.g
					placing.MoveCount, placing.ToMove = m.Seq, goban.Black
					ev.Game = &placing
				}
				evs[i] = ev
			}
			return evs
		}}, nil
}
