package rating

import "strings"

// The pieces of rating one game that every storage backend needs: they
// belong here, once, rather than beside each backend's SQL.

// Label is a player's rank as shown: "" for a bot without anchor (its
// rating means nothing), the rank without "?" for an anchored (fixed)
// rating, and the rank with "?" while a player's rating is provisional.
func Label(bot, fixed bool, r, deviation float64) string {
	switch {
	case bot && !fixed:
		return ""
	case fixed:
		return RankOf(r).String()
	}
	return Rating{Rating: r, Deviation: deviation}.RankString()
}

// Starting is the rating a new account starts at: the middle of the
// declared rank, or the default for "".
func Starting(rank string) (Rating, error) {
	if rank == "" {
		return New(), nil
	}
	k, err := ParseRank(rank)
	if err != nil {
		return Rating{}, err
	}
	return NewAt(k), nil
}

// BlackScore is Black's score for a game result in SGF form, and false for
// results that rate nobody ("Void", "?").
func BlackScore(result string) (float64, bool) {
	switch {
	case strings.HasPrefix(result, "B+"):
		return Win, true
	case strings.HasPrefix(result, "W+"):
		return Loss, true
	case result == "0" || result == "Draw":
		return Jigo, true
	}
	return 0, false
}

// Game rates one game as a rating period of its own: Glicko-2 with the
// default τ, player's new rating after scoring score against opponent.
func Game(player, opponent Rating, score float64) (Rating, error) {
	return System{}.Update(player, []Result{{Opponent: opponent, Score: score}})
}
