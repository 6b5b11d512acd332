package play

import (
	"time"

	"tengen"
	"tengen/goban"
)

// Takeback: a player may ask to take back their last move until the
// opponent has moved; the opponent accepts or declines. The request is kept
// in the play record (PlayRecord.TakebackSeq) so that it survives a
// restart; it stands only while the game is still at the move it names, so
// the opponent's next move ends it.

// takebackView returns the pending request of lg, nil when there is none.
// The caller holds lg.mu.
func (lg *game) takebackView() *tengen.TakebackRequest {
	seq := lg.rec.TakebackSeq
	if lg.g == nil || seq == 0 || seq != lg.g.MoveCount || lg.g.Status != tengen.GamePlaying || seq > len(lg.moves) {
		return nil
	}
	return &tengen.TakebackRequest{Seq: seq, Color: lg.moves[seq-1].Color}
}

// takebackEvent announces the takeback state of lg after a change.
func takebackEvent(lg *game, _ *tengen.Game) []*tengen.GameEvent {
	return []*tengen.GameEvent{{Type: tengen.EventTakeback, GameID: lg.id, Game: lg.g, Board: lg.pos.board(),
		Captures: ptr(lg.pos.captures()), Clock: lg.clockView(), Takeback: lg.takebackView()}}
}

// undoCmd asks to take back userID's last move.
type undoCmd struct {
	userID int64
}

func (c undoCmd) plan(s *Service, lg *game, _ time.Time) (*change, error) {
	color, err := player(lg, c.userID)
	if err != nil {
		return nil, err
	}
	g := lg.g
	switch {
	case g.Status == tengen.GameFinished:
		return nil, tengen.Errorf(tengen.ECONFLICT, "The game is over.")
	case g.Status != tengen.GamePlaying:
		return nil, tengen.Errorf(tengen.ECONFLICT, "The game is in the scoring phase.")
	case g.Settings.NoTakeback:
		return nil, tengen.Errorf(tengen.EFORBIDDEN, "Takeback is turned off in this game.")
	case g.MoveCount == 0 || len(lg.moves) != g.MoveCount || lg.moves[g.MoveCount-1].Color != color:
		return nil, tengen.Errorf(tengen.ECONFLICT, "You can take back only your own last move, before your opponent has moved.")
	}
	if lg.takebackView() != nil {
		return nil, nil // asked already
	}
	next := lg.state
	next.rec.TakebackSeq = g.MoveCount
	// A bot answers at once, as its operator set it (Bot.DeclineTakeback).
	var then command
	opponent := g.WhiteID
	if color == goban.White {
		opponent = g.BlackID
	}
	if b := s.bots[opponent]; b != nil {
		then = undoAnswerCmd{userID: opponent, accept: !b.DeclineTakeback}
	}
	return &change{next: next, upd: tengen.GameUpdate{ToMove: g.ToMove, Status: g.Status, Result: g.Result},
		announce: takebackEvent, then: then}, nil
}

// undoAnswerCmd accepts or declines the opponent's pending takeback request.
// Accepted, the last move is removed and the position is replayed from the
// remaining moves, so that captures and the ko state are as they were; the
// clock goes back to the mover, who gets no time back.
type undoAnswerCmd struct {
	userID int64
	accept bool
}

func (c undoAnswerCmd) plan(s *Service, lg *game, now time.Time) (*change, error) {
	color, err := player(lg, c.userID)
	if err != nil {
		return nil, err
	}
	req := lg.takebackView()
	if req == nil {
		return nil, tengen.Errorf(tengen.ECONFLICT, "No takeback request is pending.")
	}
	if req.Color == color {
		return nil, tengen.Errorf(tengen.EFORBIDDEN, "Your opponent answers your takeback request.")
	}
	g := lg.g
	next := lg.state
	next.rec.TakebackSeq = 0
	if !c.accept {
		return &change{next: next, upd: tengen.GameUpdate{ToMove: g.ToMove, Status: g.Status, Result: g.Result},
			announce: takebackEvent}, nil
	}

	n := g.MoveCount
	next.rec.Resumptions = nil
	for _, r := range lg.rec.Resumptions {
		if r.AfterSeq < n {
			next.rec.Resumptions = append(next.rec.Resumptions, r)
		}
	}
	next.pos, _, err = s.replay(g, lg.rules, lg.moves[:n-1], next.rec.Resumptions)
	if err != nil {
		return nil, err
	}
	next.score, next.rep = nil, repetitionAnswers{}
	next.rec.Conditional = nil // planned against a position that is gone
	upd := tengen.GameUpdate{ToMove: next.pos.toMove(), Status: tengen.GamePlaying}
	if lg.clk != nil {
		next.clk = lg.clk.Clone()
		if _, running := next.clk.Running(); running && goban.Color(next.clk.Turn()) != upd.ToMove {
			// The answering player's thinking time is charged to them; the
			// mover's clock runs again from what is left.
			flagged, err := next.clk.Switch(now)
			if err != nil {
				return nil, err
			}
			if flagged {
				return tooLate(s, lg, now)
			}
		}
	}
	return &change{next: next, upd: upd, takeBack: true, announce: takebackEvent}, nil
}
