package sqlrow

import (
	"database/sql"
	"slices"

	"tengen"
	"tengen/internal/rating"
)

// StatsGame is one finished game of a player as both backends' FindStats
// read it: the board size, whether the player had Black, the result, and
// the ratings of the player and of the opponent before the game, NULL
// where the game did not rate them (an anchored bot's fixed rating stands
// for its own).
type StatsGame struct {
	BoardSize      int
	Black          bool
	Result         string
	Mine, Opponent sql.NullFloat64
}

// Dest returns the scan destinations of the columns in StatsGame's order.
func (g *StatsGame) Dest() []any {
	return []any{&g.BoardSize, &g.Black, &g.Result, &g.Mine, &g.Opponent}
}

// Stats counts games into a player's UserStats.
type Stats struct {
	total  tengen.Record
	bySize map[int]*tengen.Record
	// byStrength is indexed like strengths.
	byStrength [3]tengen.Record
}

// strengths are the opponent strengths in the order UserStats lists them.
var strengths = [3]string{tengen.Stronger, tengen.Equal, tengen.Weaker}

// count adds one outcome for the player (their score: 1, ½ or 0) to r.
func count(r *tengen.Record, score float64) {
	switch score {
	case rating.Win:
		r.Wins++
	case rating.Loss:
		r.Losses++
	default:
		r.Draws++
	}
}

// Add counts g; a game without a winner or a draw (Void, ?) counts as
// nothing, as in RatingService.FindRecord.
func (s *Stats) Add(g StatsGame) {
	score, ok := rating.BlackScore(g.Result)
	if !ok {
		return
	}
	if !g.Black {
		score = 1 - score
	}
	count(&s.total, score)
	if s.bySize == nil {
		s.bySize = map[int]*tengen.Record{}
	}
	r := s.bySize[g.BoardSize]
	if r == nil {
		r = &tengen.Record{}
		s.bySize[g.BoardSize] = r
	}
	count(r, score)
	if g.Mine.Valid && g.Opponent.Valid {
		// Ranks, not ratings: an opponent 30 points above is of the same
		// rank, and "equal" means what a Go player means by it.
		switch d := rating.RankOf(g.Opponent.Float64) - rating.RankOf(g.Mine.Float64); {
		case d > 0:
			count(&s.byStrength[0], score)
		case d == 0:
			count(&s.byStrength[1], score)
		default:
			count(&s.byStrength[2], score)
		}
	}
}

// Stats returns the counts as a UserStats.
func (s *Stats) Stats() *tengen.UserStats {
	out := &tengen.UserStats{Total: s.total, BySize: []tengen.SizeRecord{}}
	for size, r := range s.bySize {
		out.BySize = append(out.BySize, tengen.SizeRecord{BoardSize: size, Record: *r})
	}
	slices.SortFunc(out.BySize, func(a, b tengen.SizeRecord) int { return a.BoardSize - b.BoardSize })
	for i, name := range strengths {
		out.ByOpponent = append(out.ByOpponent, tengen.StrengthRecord{Strength: name, Record: s.byStrength[i]})
	}
	return out
}

// PlayerLimit is the number of players FindPlayers returns for limit (0:
// 50), at most 200.
func PlayerLimit(limit int) int {
	switch {
	case limit <= 0:
		return 50
	case limit > 200:
		return 200
	}
	return limit
}
