package tengen

import (
	"strconv"
	"strings"

	"tengen/goban"
)

// Handicap from rank (issue 16; docs/RULES.md, "Handicap from rank"). The
// rules intro's table gives one stone per rank of difference: a difference
// of one rank is handicap 1 (no stone, Black moves first, no komi but the
// half point that avoids a draw), two ranks two stones, and so on up to
// nine; under a ruleset with HistoricHandicap (Pfaundler §9, one stone per
// grade) up to thirteen on 19×19. The weaker player takes Black.

// RankValue returns a rank's place on one scale, 0 for 30 kyu up to 38
// for 9 dan, so that two ranks differ by the difference of their values.
// It reads the server's labels ("12k", "3d", and "12k?" for a rank not yet
// settled) and the bots' ("25 kyu", "3 dan"); ok is false for anything
// else, such as "?" alone.
func RankValue(rank string) (value int, ok bool) {
	s := strings.TrimSuffix(strings.TrimSpace(rank), "?")
	s = strings.ReplaceAll(s, " ", "")
	var num, unit string
	for i, r := range s {
		if r < '0' || r > '9' {
			num, unit = s[:i], strings.ToLower(s[i:])
			break
		}
	}
	n, err := strconv.Atoi(num)
	if err != nil {
		return 0, false
	}
	switch unit {
	case "k", "kyu":
		if n >= 1 && n <= 30 {
			return 30 - n, true
		}
	case "d", "dan":
		if n >= 1 && n <= 9 {
			return 29 + n, true
		}
	}
	return 0, false
}

// RankHandicap returns the handicap for two players whose ranks differ by
// diff (either sign): one stone per rank, capped at MaxHandicap, or under
// a ruleset with HistoricHandicap at the most fixed stones it places on
// the settings' board (13 on 19×19); a fixed handicap is also capped at
// what fits on the board.
func RankHandicap(diff int, set GameSettings) int {
	if diff < 0 {
		diff = -diff
	}
	limit := MaxHandicap
	if r, err := goban.RulesetByName(set.Ruleset); err == nil && !set.FreeHandicap {
		fixed := r.MaxFixedHandicap(set.BoardSize, set.BoardSize)
		if r.HistoricHandicap {
			limit = max(limit, fixed)
		}
		if diff >= 2 {
			limit = min(limit, max(fixed, 1))
		}
	}
	return min(diff, limit)
}

// HandicapByRank is GameSettings.HandicapBy when the handicap follows the
// players' ranks.
const HandicapByRank = "rank"

// ForRanks returns the settings with the handicap chosen from the ranks
// of the challenger and the opponent by RankHandicap, and the colours to
// match: in a handicap game the weaker player takes Black; between equal
// ranks the game is even and the settings' colour choice stands (nigiri
// unless the challenger chose). Komi goes back to the ruleset's default
// for the handicap, and the game is rated as DefaultRated says unless
// keepRated. ok is false when a rank cannot be read.
func (s GameSettings) ForRanks(challengerRank, opponentRank string, keepRated bool) (GameSettings, bool) {
	a, okA := RankValue(challengerRank)
	b, okB := RankValue(opponentRank)
	if !okA || !okB {
		return s, false
	}
	s.Handicap = RankHandicap(a-b, s)
	s.HandicapBy = HandicapByRank
	s.Komi = nil
	switch {
	case s.Handicap == 0 && s.Color == "":
		s.Color = ChooseNigiri
	case s.Handicap == 0:
	case a < b:
		s.Color = ChooseBlack
	default:
		s.Color = ChooseWhite
	}
	if !keepRated {
		s.Rated = s.DefaultRated()
	}
	return s, true
}

// RankHandicapPending reports whether c is an open challenge whose
// handicap follows the ranks of the challenger and whoever accepts: its
// handicap, colours and komi are chosen when it is accepted
// (GameSettings), and it is rated only if the game turns out even, unless
// the challenger made it unrated.
func (c *Challenge) RankHandicapPending() bool {
	return c.OpponentID == 0 && c.Settings.HandicapBy == HandicapByRank
}

// GameSettings returns the settings of the game made when a player ranked
// acceptorRank accepts c: c's own, or for an open challenge whose
// handicap follows the ranks, those ForRanks chooses from the ranks as
// they are now (rated if even, unless c is unrated). It fails with
// EINVALID when a rank cannot be read.
func (c *Challenge) GameSettings(challengerRank, acceptorRank string) (GameSettings, error) {
	if !c.RankHandicapPending() {
		return c.Settings, nil
	}
	set, ok := c.Settings.ForRanks(challengerRank, acceptorRank, !c.Settings.Rated)
	if !ok {
		return set, Errorf(EINVALID, "The handicap cannot be chosen from the ranks %s and %s.", challengerRank, acceptorRank)
	}
	return set, nil
}

// SameGameSettings reports whether a and b describe the same game.
func SameGameSettings(a, b GameSettings) bool {
	ka, kb := a.Komi, b.Komi
	a.Komi, b.Komi = nil, nil
	if (ka == nil) != (kb == nil) || ka != nil && *ka != *kb {
		return false
	}
	return a == b
}
