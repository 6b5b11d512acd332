package play

import (
	"context"
	"strconv"
	"strings"

	"tengen"
	"tengen/clock"
	"tengen/goban"
	"tengen/sgf"
)

// SGF implements tengen.PlayService: the record holds the players, the date,
// size, rules, komi, handicap, time control (TM, OT), every move with the
// mover's time left (BL/WL, OB/OW) and the result. Once the game has ended,
// the players' chat is in C[] at the moves where it was said (with
// Config.Chat); during the game the record is public and the players'
// chat is not.
func (s *Service) SGF(ctx context.Context, gameID int64) ([]byte, error) {
	if s.cfg.Cluster != nil {
		return routed(s, gameID, func() ([]byte, error) { return s.sgfLocal(ctx, gameID) },
			func(o tengen.Instance) ([]byte, error) { return s.cfg.Peer.SGF(ctx, o, gameID) })
	}
	return s.sgfLocal(ctx, gameID)
}

// sgfLocal is SGF of a game in this instance's memory.
func (s *Service) sgfLocal(ctx context.Context, gameID int64) ([]byte, error) {
	// The chat is read before the game's lock is taken, so that a download
	// does not hold up the moves; a message said in between is missing
	// from the record, as it would be had the download come a moment
	// earlier.
	var chat []*tengen.ChatMessage
	if s.cfg.Chat != nil {
		var err error
		chat, err = s.cfg.Chat.FindChatMessages(ctx, tengen.ChatFilter{Room: tengen.ChatPlayers, GameID: gameID})
		if err != nil {
			return nil, err
		}
	}
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
	own := moveNodes(root, lg.moves, g.Settings)
	if hasClock {
		for k, m := range lg.moves {
			node := own[k]
			if node == nil || m.Clock == nil {
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
	if g.Status == tengen.GameFinished {
		addChat(root, own, chat)
	}
	return sgf.Format(root)
}

// moveNodes returns the node of each move of the record, nil for moves that
// have none: free handicap placements went into AB and a resignation into
// RE; the other nodes after the root are the board moves in order.
func moveNodes(root *sgf.Node, moves []*tengen.GameMove, set tengen.GameSettings) []*sgf.Node {
	nodes := root.MainLine()[1:]
	own := make([]*sgf.Node, len(moves))
	i := 0
	for k, m := range moves {
		if k < freePlacements(set) || m.Kind == tengen.MoveResign || i >= len(nodes) {
			continue
		}
		own[k] = nodes[i]
		i++
	}
	return own
}

// addChat puts each message into C[] ("name: text", one line each) of the
// node that shows the position it was said at: after MoveNumber moves, or
// the root before the first. A move without a node of its own (a handicap
// placement, a resignation, a move taken back) gives its messages to the
// nearest node before it.
func addChat(root *sgf.Node, own []*sgf.Node, chat []*tengen.ChatMessage) {
	lines := map[*sgf.Node][]string{}
	var order []*sgf.Node
	for _, m := range chat {
		node := root
		for k := min(m.MoveNumber, len(own)) - 1; k >= 0; k-- {
			if own[k] != nil {
				node = own[k]
				break
			}
		}
		if lines[node] == nil {
			order = append(order, node)
		}
		lines[node] = append(lines[node], m.AuthorName+": "+m.Text)
	}
	for _, node := range order {
		text := strings.Join(lines[node], "\n")
		if old, ok := node.Value("C"); ok {
			text = sgf.UnescapeText(old) + "\n" + text
		}
		node.SetText("C", text)
	}
}

// freePlacements is the number of moves at the start of a game that place
// handicap stones.
func freePlacements(set tengen.GameSettings) int {
	if set.FreeHandicap && set.Handicap >= 2 {
		return set.Handicap
	}
	return 0
}
