package goban

import "fmt"

// MaxHandicap is the largest number of handicap stones a game may start
// with; Pfaundler §9 describes up to thirteen on 19×19.
const MaxHandicap = 13

// FixedHandicap returns the points of n fixed handicap stones on a board of
// the given size, in the order GTP's fixed_handicap lists them.
//
// The star points are named as in seed 004's table, a b c along the top, d e
// f through the middle and g h i along the bottom: 2 stones take c and g
// (upper right, lower left), 3 add i, 4 are the corners a c g i, 5 add the
// centre e, 6 are a c d f g i, 7 add e, 8 are all but e, 9 all. Stones sit on
// the fourth line on boards of 13 lines or more and on the third line on
// smaller ones. Boards narrower than 7 lines have no fixed handicap; 7×7
// boards and boards with an even number of lines in either direction allow
// four stones at most.
//
// With historic set, 10 to 13 stones follow Pfaundler §9 on 19×19: after the
// nine star points the 3-3 points (c3, c17, r3, r17 in his notation) are
// added in that order.
func FixedHandicap(width, height, n int, historic bool) ([]Point, error) {
	if n < 2 {
		return nil, fmt.Errorf("goban: fixed handicap needs 2 stones or more, not %d", n)
	}
	if width < 7 || height < 7 {
		return nil, fmt.Errorf("goban: no fixed handicap on a %d×%d board", width, height)
	}
	// Side and centre points need an odd number of lines, and on 7×7
	// they would touch the corner points' neighbours (as GNU Go, too, refuses).
	max := 4
	if width%2 == 1 && height%2 == 1 && width >= 9 && height >= 9 {
		max = 9
	}
	if historic && width == 19 && height == 19 {
		max = 13
	}
	if n > max {
		return nil, fmt.Errorf("goban: at most %d fixed handicap stones on a %d×%d board, not %d", max, width, height, n)
	}
	edge := func(size int) int {
		if size >= 13 {
			return 3
		}
		return 2
	}
	ex, ey := edge(width), edge(height)
	left, midX, right := ex, width/2, width-1-ex
	top, midY, bottom := ey, height/2, height-1-ey
	star := map[byte]Point{
		'a': {left, top}, 'b': {midX, top}, 'c': {right, top},
		'd': {left, midY}, 'e': {midX, midY}, 'f': {right, midY},
		'g': {left, bottom}, 'h': {midX, bottom}, 'i': {right, bottom},
	}
	sets := map[int]string{2: "cg", 3: "cgi", 4: "acgi", 5: "acegi", 6: "acdfgi", 7: "acdefgi", 8: "abcdfghi", 9: "abcdefghi"}
	k := n
	if k > 9 {
		k = 9
	}
	in := sets[k]
	// GTP lists the points row by row from the top; within a row from the left.
	var pts []Point
	for _, name := range "abcdefghi" {
		for i := 0; i < len(in); i++ {
			if in[i] == byte(name) {
				pts = append(pts, star[byte(name)])
			}
		}
	}
	if n > 9 {
		extra := []Point{{2, 16}, {2, 2}, {16, 16}, {16, 2}} // c3, c17, r3, r17
		pts = append(pts, extra[:n-9]...)
	}
	return pts, nil
}

// FixedHandicap returns the ruleset's fixed handicap points: FixedHandicap
// with the historic option of its HistoricHandicap field.
func (r Ruleset) FixedHandicap(width, height, n int) ([]Point, error) {
	return FixedHandicap(width, height, n, r.HistoricHandicap)
}

// MaxFixedHandicap returns the largest fixed handicap the ruleset places on
// a board of the given size: 13 on 19×19 under HistoricHandicap, 9 on odd
// boards of 9 lines or more, 4 on other boards of 7 lines or more, and 0
// where there is no fixed handicap.
func (r Ruleset) MaxFixedHandicap(width, height int) int {
	for n := MaxHandicap; n >= 2; n-- {
		if _, err := r.FixedHandicap(width, height, n); err == nil {
			return n
		}
	}
	return 0
}

// StarPoints returns the points marked on the board (the Vorgabspunkte of
// Pfaundler §3), for drawing.
func StarPoints(width, height int) []Point {
	if width < 7 || height < 7 {
		if width%2 == 1 && height%2 == 1 && width >= 5 && height >= 5 {
			return []Point{{width / 2, height / 2}}
		}
		return nil
	}
	n := 4
	if width%2 == 1 && height%2 == 1 {
		n = 9
		if width < 13 && height < 13 {
			n = 5 // the corners and the centre, as 9×9 boards are printed
		}
	}
	pts, _ := FixedHandicap(width, height, n, false)
	return pts
}
