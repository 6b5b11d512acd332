package engine

import (
	"strconv"
	"strings"
	"time"

	"tengen/goban"
)

// MoveInfo is the search's knowledge about one candidate move at the root.
// Win rates and scores are from the point of view of the player to move.
type MoveInfo struct {
	// Move is the candidate: a play or a pass by the player to move.
	Move goban.Move
	// Visits is the number of simulations that began with the move.
	Visits int
	// Winrate is the share of those simulations the player to move won,
	// from 0 to 1.
	Winrate float64
	// ScoreLead is the mean final margin of those simulations for the
	// player to move, with the game's komi (not the dynamic komi).
	ScoreLead float64
	// Prior is the move's share of the policy (the priors as
	// probabilities).
	Prior float64
	// LCB is a lower confidence bound of Winrate.
	LCB float64
	// Order is the move's rank, 0 for the move the engine would play.
	Order int
	// PV is the principal variation that starts with Move.
	PV []goban.Move
}

// Info is a snapshot of a search for analysis front ends.
type Info struct {
	// Color is the player to move at the root.
	Color goban.Color
	// Width and Height are the board's size.
	Width, Height int
	// Visits is the number of simulations through the root; Playouts the
	// number the search has run (they differ by reused visits).
	Visits   int
	Playouts int64
	// Elapsed is the time the search has run.
	Elapsed time.Duration
	// Winrate and ScoreLead are those of the most visited move.
	Winrate, ScoreLead float64
	// Moves lists the candidates with at least one visit, most visited
	// first.
	Moves []MoveInfo
	// Ownership gives each point (index y*Width+x, y from the top) its
	// average owner at the end of the playouts: +1 Black, −1 White. It is
	// nil before the first playout.
	Ownership []float64
}

// maxPV is the longest principal variation reported.
const maxPV = 12

// info takes a snapshot of the search.
func (s *searcher) info(el time.Duration) Info {
	g := s.game
	c := s.root.color
	in := Info{Color: c, Width: g.Width(), Height: g.Height(), Playouts: s.playouts.Load(), Elapsed: el, Ownership: s.ownership()}
	sign := 1.0
	if c == goban.White {
		sign = -1
	}
	b := g.Board()
	toMove := func(l goban.Loc, col goban.Color) goban.Move {
		if l == goban.PassLoc {
			return goban.PassMove(col)
		}
		return goban.PlayAt(col, b.Point(l))
	}
	for _, e := range s.rootEdges() {
		in.Visits += int(e.n)
		if e.n == 0 || e.illegal {
			continue
		}
		wr := e.w / e.n
		mi := MoveInfo{
			Move: toMove(e.move, c), Visits: int(e.n), Winrate: wr, ScoreLead: sign * (e.score/e.n + s.dynKomi),
			Prior: e.prior, LCB: lcb(wr, e.n), Order: len(in.Moves),
		}
		mi.PV = append(mi.PV, mi.Move)
		col := c.Opponent()
		for _, l := range pv(e.child, maxPV-1) {
			mi.PV = append(mi.PV, toMove(l, col))
			col = col.Opponent()
		}
		in.Moves = append(in.Moves, mi)
	}
	if len(in.Moves) > 0 {
		in.Winrate, in.ScoreLead = in.Moves[0].Winrate, in.Moves[0].ScoreLead
	}
	return in
}

func formatFloat(f float64, prec int) string {
	return strconv.FormatFloat(f, 'f', prec, 64)
}

// FormatKataAnalyze writes info as one line of KataGo's kata-analyze
// output: "info move D4 visits 120 winrate 0.53 scoreLead 1.2 prior 0.08
// lcb 0.51 order 0 pv D4 Q16 …" for every candidate, then, when
// withOwnership is set, "ownership" and one value per point from the top
// left, row by row, from the point of view of the player to move (as KataGo
// reports it). The line has no trailing newline.
func FormatKataAnalyze(info Info, withOwnership bool) string {
	var sb strings.Builder
	for i, m := range info.Moves {
		if i > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString("info move ")
		sb.WriteString(goban.FormatMoveVertex(m.Move, info.Height))
		sb.WriteString(" visits ")
		sb.WriteString(strconv.Itoa(m.Visits))
		sb.WriteString(" winrate ")
		sb.WriteString(formatFloat(m.Winrate, 6))
		sb.WriteString(" scoreMean ")
		sb.WriteString(formatFloat(m.ScoreLead, 3))
		sb.WriteString(" scoreLead ")
		sb.WriteString(formatFloat(m.ScoreLead, 3))
		sb.WriteString(" prior ")
		sb.WriteString(formatFloat(m.Prior, 6))
		sb.WriteString(" lcb ")
		sb.WriteString(formatFloat(m.LCB, 6))
		sb.WriteString(" order ")
		sb.WriteString(strconv.Itoa(m.Order))
		sb.WriteString(" pv")
		for _, p := range m.PV {
			sb.WriteByte(' ')
			sb.WriteString(goban.FormatMoveVertex(p, info.Height))
		}
	}
	if withOwnership && info.Ownership != nil {
		sign := 1.0
		if info.Color == goban.White {
			sign = -1
		}
		if sb.Len() > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString("ownership")
		for _, v := range info.Ownership {
			sb.WriteByte(' ')
			sb.WriteString(formatFloat(sign*v, 4))
		}
	}
	return sb.String()
}

// FormatLzAnalyze writes info as one line of Leela Zero's lz-analyze
// output: "info move D4 visits 120 winrate 5300 prior 800 lcb 5100 order
// 0 pv D4 Q16 …", with win rates, priors and bounds as integers ×10000.
func FormatLzAnalyze(info Info) string {
	var sb strings.Builder
	for i, m := range info.Moves {
		if i > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString("info move ")
		sb.WriteString(goban.FormatMoveVertex(m.Move, info.Height))
		sb.WriteString(" visits ")
		sb.WriteString(strconv.Itoa(m.Visits))
		sb.WriteString(" winrate ")
		sb.WriteString(strconv.Itoa(permyriad(m.Winrate)))
		sb.WriteString(" prior ")
		sb.WriteString(strconv.Itoa(permyriad(m.Prior)))
		sb.WriteString(" lcb ")
		sb.WriteString(strconv.Itoa(permyriad(max(m.LCB, 0))))
		sb.WriteString(" order ")
		sb.WriteString(strconv.Itoa(m.Order))
		sb.WriteString(" pv")
		for _, p := range m.PV {
			sb.WriteByte(' ')
			sb.WriteString(goban.FormatMoveVertex(p, info.Height))
		}
	}
	return sb.String()
}

func permyriad(f float64) int {
	return int(f*10000 + 0.5)
}
