package play

import (
	"slices"
	"strings"
	"time"

	"tengen"
	"tengen/clock"
	"tengen/goban"
)

// board returns the position as rows of '.', 'B' and 'W'.
func (p position) board() []string {
	b := p.gb.Board()
	w, h := b.Width(), b.Height()
	// One string for the whole board, which the rows share, built in
	// place: a move's event carries the board, and a string per row, or a
	// copy of the bytes, cost an allocation each.
	var sb strings.Builder
	sb.Grow(w * h)
	for y := range h {
		for x := range w {
			c := byte('.')
			switch b.At(goban.Point{X: x, Y: y}) {
			case goban.Black:
				c = 'B'
			case goban.White:
				c = 'W'
			}
			sb.WriteByte(c)
		}
	}
	all := sb.String()
	rows := make([]string, h)
	for y := range rows {
		rows[y] = all[y*w : (y+1)*w]
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
	// The view and the two times it points to are one allocation: a move
	// makes the view twice (its event and the mover's reply).
	v := &struct {
		cv              tengen.ClockView
		since, deadline time.Time
	}{}
	cv := &v.cv
	*cv = tengen.ClockView{Kind: lg.g.Settings.TimeControl.Kind,
		Black: clockSide(lg.clk.State(clock.Black)), White: clockSide(lg.clk.State(clock.White))}
	if since, running := lg.clk.Running(); running {
		v.since = since.UTC()
		cv.Running, cv.RunningSince = goban.Color(lg.clk.Turn()), &v.since
		if d, ok := lg.clk.Deadline(); ok {
			v.deadline = d.UTC()
			cv.Deadline = &v.deadline
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

// brief returns the parts of the snapshot that cost nothing to make: the
// game, the viewer's colour, the last move and the clock. The caller holds
// lg.mu.
func (s *Service) brief(lg *game, userID int64) *tengen.GameSnapshot {
	snap := &tengen.GameSnapshot{Game: lg.g, You: lg.g.ColorOf(userID), Clock: lg.clockView(), ServerTime: s.cfg.Now().UTC()}
	if n := len(lg.moves); n > 0 {
		snap.LastMove = lg.moves[n-1]
	}
	return snap
}

// snapshot returns the game as userID sees it. The caller holds lg.mu.
func (s *Service) snapshot(lg *game, userID int64) *tengen.GameSnapshot {
	snap := &tengen.GameSnapshot{
		Game: lg.g, You: lg.g.ColorOf(userID), Moves: lg.moves[:len(lg.moves):len(lg.moves)],
		Board: lg.pos.board(), Captures: lg.pos.captures(), Komi: lg.komi,
		Clock: lg.clockView(), Proposal: lg.proposal(), Score: lg.scoreView(),
		Repetition: lg.repetitionView(), Takeback: lg.takebackView(), ServerTime: s.cfg.Now().UTC(),
	}
	if snap.Moves == nil {
		snap.Moves = []*tengen.GameMove{}
	}
	snap.Vacation = lg.vacationView(snap.ServerTime)
	if c := lg.rec.Conditional; c != nil && c.Color == snap.You && snap.You != goban.Empty {
		snap.Conditional = c.Moves
	}
	if n := len(lg.moves); n > 0 {
		snap.LastMove = lg.moves[n-1]
	}
	snap.Handicap = tengen.Handicap{Stones: lg.g.Settings.Handicap, Free: lg.g.Settings.FreeHandicap, Points: []goban.Point{}}
	if _, pts := lg.pos.gb.Handicap(); len(pts) > 0 {
		snap.Handicap.Points = pts
	}
	return snap
}
