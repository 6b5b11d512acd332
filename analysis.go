package tengen

import (
	"context"
	"math"

	"tengen/goban"
)

// Bounds of an analysis request.
const (
	// MaxAnalysisMoves bounds the moves of one analysis request.
	MaxAnalysisMoves = 1000
	// MinAnalysisPlayouts and MaxAnalysisPlayouts bound the simulations per
	// position; DefaultAnalysisPlayouts is used when a request names none.
	MinAnalysisPlayouts     = 10
	MaxAnalysisPlayouts     = 20000
	DefaultAnalysisPlayouts = 400
)

// AnalysisStone is a stone of an analysis request's setup, or (with Kind)
// one of its moves.
type AnalysisStone struct {
	Color goban.Color `json:"color"`
	// Kind is MovePlay (also when empty) or MovePass; setup stones are
	// always plays.
	Kind MoveKind `json:"kind,omitempty"`
	X    int      `json:"x"`
	Y    int      `json:"y"`
}

// AnalysisRequest describes a game to analyse: the empty board, the stones
// set up on it (handicap stones, a problem's position), and the moves
// played from there.
type AnalysisRequest struct {
	BoardSize int     `json:"boardSize"`
	Ruleset   string  `json:"ruleset"`
	Komi      float64 `json:"komi"`
	// Setup are the stones on the board before the first move.
	Setup []AnalysisStone `json:"setup"`
	// ToMove is the player to move after the setup when there are no
	// moves; Empty means Black without setup stones, White with.
	ToMove goban.Color     `json:"toMove,omitempty"`
	Moves  []AnalysisStone `json:"moves"`
	// Playouts are the engine's simulations per position; 0 means
	// DefaultAnalysisPlayouts.
	Playouts int `json:"playouts"`
	// FirstMove is the move number of the position after the setup (a
	// game with free handicap stones counts their placement as moves);
	// results are numbered from it.
	FirstMove int `json:"-"`
}

// Validate checks the request's form: sizes, bounds and colours. Whether
// the moves are legal is checked when the position is set up.
func (r *AnalysisRequest) Validate() error {
	if r.BoardSize < MinBoardSize || r.BoardSize > MaxBoardSize {
		return Errorf(EINVALID, "Board size must be between %d and %d.", MinBoardSize, MaxBoardSize)
	}
	rules, err := goban.RulesetByName(r.Ruleset)
	if err != nil || rules.Name != r.Ruleset {
		return Errorf(EINVALID, "Unknown ruleset %q.", r.Ruleset)
	}
	if k := r.Komi; math.IsNaN(k) || math.Abs(k) > MaxKomi || k*2 != math.Trunc(k*2) {
		return Errorf(EINVALID, "Komi must be a multiple of 0.5 between -%d and %d.", MaxKomi, MaxKomi)
	}
	if r.Playouts == 0 {
		r.Playouts = DefaultAnalysisPlayouts
	}
	if r.Playouts < MinAnalysisPlayouts || r.Playouts > MaxAnalysisPlayouts {
		return Errorf(EINVALID, "Playouts must be between %d and %d.", MinAnalysisPlayouts, MaxAnalysisPlayouts)
	}
	if len(r.Setup) > r.BoardSize*r.BoardSize {
		return Errorf(EINVALID, "There are more setup stones than points.")
	}
	if len(r.Moves) > MaxAnalysisMoves {
		return Errorf(EINVALID, "An analysis takes at most %d moves.", MaxAnalysisMoves)
	}
	if r.ToMove != goban.Empty && r.ToMove != goban.Black && r.ToMove != goban.White {
		return Errorf(EINVALID, "The player to move must be black or white.")
	}
	n := r.BoardSize
	off := func(s AnalysisStone) bool { return s.X < 0 || s.Y < 0 || s.X >= n || s.Y >= n }
	for i, s := range r.Setup {
		switch {
		case s.Color != goban.Black && s.Color != goban.White:
			return Errorf(EINVALID, "Setup stone %d: the colour must be black or white.", i+1)
		case s.Kind != "" && s.Kind != MovePlay:
			return Errorf(EINVALID, "Setup stone %d: only stones are set up, not %q.", i+1, s.Kind)
		case off(s):
			return Errorf(EINVALID, "Setup stone %d is off the board.", i+1)
		}
	}
	for i, m := range r.Moves {
		switch {
		case m.Color != goban.Black && m.Color != goban.White:
			return Errorf(EINVALID, "Move %d: the colour must be black or white.", i+1)
		case m.Kind != "" && m.Kind != MovePlay && m.Kind != MovePass:
			return Errorf(EINVALID, "Move %d: unknown move kind %q (play or pass).", i+1, m.Kind)
		case m.Kind != MovePass && off(m):
			return Errorf(EINVALID, "Move %d is off the board.", i+1)
		}
	}
	return nil
}

// AnalysisCandidate is one move the engine considered. Win rates and
// scores are Black's, as in PositionAnalysis.
type AnalysisCandidate struct {
	// Pass is set for a pass; X and Y are the point of a play.
	Pass      bool    `json:"pass,omitempty"`
	X         int     `json:"x"`
	Y         int     `json:"y"`
	Visits    int     `json:"visits"`
	Winrate   float64 `json:"winrate"`
	ScoreLead float64 `json:"scoreLead"`
	Prior     float64 `json:"prior"`
	// PV is the principal variation starting with the move, alternating
	// from the player to move; a pass is [-1, -1].
	PV [][2]int `json:"pv"`
}

// PositionAnalysis is the engine's view of one position. Win rates and
// score leads are always from Black's point of view: 0.7 and 3.5 mean
// Black wins 70 % of the simulations and leads by 3.5 points.
type PositionAnalysis struct {
	// Move is the number of moves played to reach the position.
	Move      int         `json:"move"`
	ToMove    goban.Color `json:"toMove"`
	Playouts  int         `json:"playouts"`
	Visits    int         `json:"visits"`
	Winrate   float64     `json:"winrate"`
	ScoreLead float64     `json:"scoreLead"`
	// Best are the candidates, most visited first (at most ten); nil in
	// the summaries of a whole game.
	Best []AnalysisCandidate `json:"best,omitempty"`
	// Ownership is each point's expected owner, index y*size+x, from +1
	// (Black) to −1 (White); nil in the summaries of a whole game.
	Ownership []float64 `json:"ownership,omitempty"`
	// Cached tells that the result came from the cache.
	Cached bool `json:"cached,omitempty"`
}

// Summary returns the position's analysis without candidates and
// ownership: what the graph of a whole game needs.
func (a *PositionAnalysis) Summary() *PositionAnalysis {
	s := *a
	s.Best, s.Ownership = nil, nil
	return &s
}

// AnalysisService runs the built-in engine on positions. Its work shares
// the server's CPU with the bots, which come first.
type AnalysisService interface {
	// GameAnalysisRequest returns the request that analyses the stored
	// game gameID as userID sees it: every position from the start to
	// the last move. It refuses the players of a rated game that is
	// still running.
	GameAnalysisRequest(ctx context.Context, gameID, userID int64, playouts int) (*AnalysisRequest, error)
	// AnalyzePosition analyses the position after the first n moves of
	// req.
	AnalyzePosition(ctx context.Context, req *AnalysisRequest, n int) (*PositionAnalysis, error)
	// AnalyzeGame analyses every position of req, from the start, and
	// calls report with each result as it comes (the order may differ
	// from the moves' order; cached ones come first). It returns when all
	// are done or ctx ends, which cancels the work nobody else waits for.
	AnalyzeGame(ctx context.Context, req *AnalysisRequest, report func(*PositionAnalysis)) error
}
