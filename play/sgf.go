package play

import (
	"context"
	"strconv"

	"tengen"
	"tengen/clock"
	"tengen/goban"
	"tengen/sgf"
)

// SGF implements tengen.PlayService: the record holds the players, the date,
// size, rules, komi, handicap, time control (TM, OT), every move with the
// mover's time left (BL/WL, OB/OW) and the result.
func (s *Service) SGF(ctx context.Context, gameID int64) ([]byte, error) {
	lg, err := s.lock(ctx, gameID)
	if err != nil {
		return nil, err
	}
	defer s.unlock(lg)
	g := lg.g
	n := g.Settings.BoardSize
	info := sgf.GameInfo{
		Width: n, Height: n, Komi: lg.komi, HasKomi: true, Handicap: g.Settings.Handicap,
		Rules: sgf.RUName(lg.rules), Date: g.CreatedAt.UTC().Format("2006-01-02"),
		Application: "Tengen", GameName: "Tengen game " + strconv.FormatInt(g.ID, 10),
	}
	if g.Black != nil {
		info.BlackName, info.BlackRank = g.Black.Name, g.Black.Rank
	}
	if g.White != nil {
		info.WhiteName, info.WhiteRank = g.White.Name, g.White.Rank
	}
	tc := g.Settings.TimeControl
	hasClock := tc.Kind != clock.None
	if hasClock {
		tm, ot := clock.SGFProperties(tc)
		if tm != "" {
			if v, err := strconv.ParseFloat(tm, 64); err == nil {
				info.TimeLimit, info.HasTimeLimit = v, true
			}
		}
		info.Overtime = ot
	}
	root := sgf.FromGame(lg.pos.gb, info)
	if g.Result != "" {
		root.Set("RE", g.Result)
	} else {
		root.Delete("RE")
	}
	if hasClock {
		// The nodes after the root are the board moves: free handicap
		// placements went into AB and a resignation into RE.
		nodes := root.MainLine()[1:]
		i := 0
		for k, m := range lg.moves {
			if k < freePlacements(g.Settings) || m.Kind == tengen.MoveResign {
				continue
			}
			if i >= len(nodes) {
				break
			}
			node := nodes[i]
			i++
			if m.Clock == nil {
				continue
			}
			left, stones, ok := clock.SGFTimeLeft(tc, *m.Clock)
			if !ok {
				continue
			}
			prop, over := "BL", "OB"
			if m.Color == goban.White {
				prop, over = "WL", "OW"
			}
			node.Set(prop, left)
			if stones != "" {
				node.Set(over, stones)
			}
		}
	}
	return sgf.Format(root)
}

// freePlacements is the number of moves at the start of a game that place
// handicap stones.
func freePlacements(set tengen.GameSettings) int {
	if set.FreeHandicap && set.Handicap >= 2 {
		return set.Handicap
	}
	return 0
}
