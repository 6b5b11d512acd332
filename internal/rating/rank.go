package rating

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Rank is a Go rank on one scale: 0 is 30 kyu, 29 is 1 kyu, 30 is 1 dan and
// 38 is 9 dan (the strongest amateur rank).
type Rank int

// The ends of the scale.
const (
	Kyu30 Rank = 0
	Kyu1  Rank = 29
	Dan1  Rank = 30
	Dan9  Rank = 38
)

// Kyu returns the rank n kyu (1 to 30).
func Kyu(n int) Rank { return Rank(30 - n) }

// Dan returns the rank n dan (1 to 9).
func Dan(n int) Rank { return Rank(29 + n) }

// The rating–rank mapping is logarithmic, as on OGS, whose Glicko-2
// ratings it was fitted to: rank index = 23.15 · ln(rating / 525), so that
// 1 dan starts at about 1919 and 10 kyu at about 1246.
const (
	rankBase  = 525.0
	rankSteps = 23.15
)

// RankOf returns the rank for a rating, clamped to 30 kyu … 9 dan.
func RankOf(rating float64) Rank {
	if math.IsNaN(rating) || rating <= rankBase {
		return Kyu30
	}
	return Rank(min(math.Floor(rankSteps*math.Log(rating/rankBase)), float64(Dan9)))
}

// Rank returns r's rank.
func (r Rating) Rank() Rank { return RankOf(r.Rating) }

// ProvisionalDeviation is the deviation above which a rank is shown as
// provisional ("5k?"): the player has not played enough rated games.
const ProvisionalDeviation = 160.0

// Provisional reports whether r is still too uncertain to show firmly.
func (r Rating) Provisional() bool { return r.Deviation > ProvisionalDeviation }

// RankString returns r's rank as players write it, with "?" when it is
// provisional.
func (r Rating) RankString() string {
	s := r.Rank().String()
	if r.Provisional() {
		s += "?"
	}
	return s
}

// Rating returns the rating in the middle of the rank's range.
func (k Rank) Rating() float64 {
	k = max(Kyu30, min(k, Dan9))
	return rankBase * math.Exp((float64(k)+0.5)/rankSteps)
}

// String writes the rank as "5k" or "2d".
func (k Rank) String() string {
	if k >= Dan1 {
		return strconv.Itoa(int(k-Dan1)+1) + "d"
	}
	return strconv.Itoa(int(Dan1-k)) + "k"
}

// ParseRank reads a rank: a number and "k", "kyu", "d" or "dan" (any case,
// spaces allowed between), such as "5k", "12 kyu" or "1D".
func ParseRank(s string) (Rank, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	i := 0
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	if i == 0 || i > 2 {
		return 0, fmt.Errorf("rating: rank %q: column 1: expected a number of kyu or dan", s)
	}
	n, _ := strconv.Atoi(t[:i])
	switch unit := strings.TrimSpace(t[i:]); unit {
	case "k", "kyu":
		if n >= 1 && n <= 30 {
			return Kyu(n), nil
		}
	case "d", "dan":
		if n >= 1 && n <= 9 {
			return Dan(n), nil
		}
	default:
		return 0, fmt.Errorf("rating: rank %q: expected \"k\", \"kyu\", \"d\" or \"dan\" after the number", s)
	}
	return 0, fmt.Errorf("rating: rank %q is not between 30k and 9d", s)
}
