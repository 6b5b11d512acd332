package goban_test

import (
	"slices"
	"strings"
	"testing"

	"tengen/goban"
)

// bentFourBoard returns a 9×9 position in which Black, alive with two eyes
// at the top, surrounds White's group in the lower left corner, whose only
// liberties are the corner points given by the last two rows.
func bentFourBoard(row2, row1 string) string {
	return strings.Join([]string{
		". X . X . . . . .",
		"X X X X . . . . .",
		". . . . X X X X X",
		"X X X X X . . . .",
		". . . . X . . . .",
		"X X X X X . . . .",
		"O O O O X . . . .",
		row2,
		row1,
	}, "\n")
}

// TestSeedBentFourInTheCorner: the commentary to J89 Art. 7.2 — during the
// confirmation a ko may not be retaken before a pass, so the player who can
// start a ko in the corner at any time wins it, and the bent four in the
// corner is dead under the japanese ruleset whatever the rest of the board.
// Other rulesets keep the proposal as it was (the group is a ko there, which
// the players settle before passing).
func TestSeedBentFourInTheCorner(t *testing.T) {
	white := func(g *goban.Game) []goban.Point {
		var out []goban.Point
		b := g.Board()
		for y := 0; y < b.Height(); y++ {
			for x := 0; x < b.Width(); x++ {
				if b.At(goban.Point{X: x, Y: y}) == goban.White {
					out = append(out, goban.Point{X: x, Y: y})
				}
			}
		}
		return out
	}
	for _, tc := range []struct {
		name       string
		row2, row1 string
		dead       bool // under japanese: White's whole group
	}{
		// The eye space A2, A1, B1, C1: bent four with the bend in the
		// corner, no outside liberties. Black B1 starts the ko.
		{"empty bent four", ". O O O X . . . .", ". . . O X . . . .", true},
		// Black has played the 2-1 point already: White's A1 would start
		// the ko, Black's A1 or C1 is the usual end of the game.
		{"bent four with Black at B1", ". O O O X . . . .", ". X . O X . . . .", true},
		// Two separate eyes: alive under every ruleset.
		{"two eyes", ". O . O X . . . .", "O O O O X . . . .", false},
		// A1, B1, C1 alone: a straight three, which the attacker kills
		// by playing B1 first (no ko involved; dead everywhere, and the
		// confirmation agrees).
		{"straight three", "O O O O X . . . .", ". . . O X . . . .", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			diagram := bentFourBoard(tc.row2, tc.row1)
			jp := seedGame(t, diagram, "japanese", goban.Black)
			got := goban.ConfirmDead(jp, nil)
			want := []goban.Point(nil)
			if tc.dead {
				want = white(jp)
			}
			if !slices.Equal(got, want) {
				t.Errorf("japanese: dead %v, want %v", got, want)
			}
			// Black's stones inside the corner are never dead there.
			if tc.dead {
				var inside []goban.Point
				for x := 0; x < 3; x++ {
					if jp.Board().At(goban.Point{X: x, Y: 8}) == goban.Black {
						inside = append(inside, goban.Point{X: x, Y: 8})
					}
				}
				if got := goban.ConfirmDead(jp, inside); !slices.Equal(got, want) {
					t.Errorf("japanese with Black's inside stones proposed dead: %v, want %v", got, want)
				}
			}
			for _, rules := range []string{"chinese", "korean", "jasiek"} {
				g := seedGame(t, diagram, rules, goban.Black)
				if got := goban.ConfirmDead(g, nil); got != nil {
					t.Errorf("%s: dead %v, want the proposal unchanged (none)", rules, got)
				}
			}
			tt := seedGame(t, diagram, "tromp-taylor", goban.Black)
			if got := goban.ConfirmDead(tt, white(tt)); got != nil {
				t.Errorf("tromp-taylor: dead %v, want none (every stone counts)", got)
			}
		})
	}
	// With an outside liberty the corner is not all the group has: the
	// confirmation leaves it to the estimate.
	open := strings.Replace(bentFourBoard(". O O O X . . . .", ". . . O X . . . ."), "X X X X X . . . .\nO O O O X", ". X X X X . . . .\nO O O O X", 1)
	if got := goban.ConfirmDead(seedGame(t, open, "japanese", goban.Black), nil); got != nil {
		t.Errorf("with an outside liberty: dead %v, want none", got)
	}
}

// TestConfirmCornerNextToDeadChain: a corner group that can take a dead
// enemy chain in atari outside its corner does not live or die by the
// corner alone. White's A2-D1 has only A1 and B1, where Black, moving
// first, captures it; but White takes Black's A3-B3, in atari on A4, and
// joins its living stones above (gosei50-Q01's lower left). With A3-B3
// proposed dead the confirmation leaves the proposal as it is; with A3-B3
// kept alive by the proposal (the enemy may have saved a living chain in
// atari) the corner is read as before and dies.
func TestConfirmCornerNextToDeadChain(t *testing.T) {
	diagram := strings.Join([]string{
		". O . O X . X . .",
		"O O O O X X X X X",
		"O . O O X . . . .",
		"O O O X X . . . .",
		"O O X X . . . . .",
		". O X X . . . . .",
		"X X O X . . . . .",
		"O O O X X . . . .",
		". . O O X . . . .",
	}, "\n")
	a3 := goban.Point{X: 0, Y: 6}
	b3 := goban.Point{X: 1, Y: 6}
	corner := []goban.Point{{X: 2, Y: 6}, {X: 0, Y: 7}, {X: 1, Y: 7}, {X: 2, Y: 7}, {X: 2, Y: 8}, {X: 3, Y: 8}}
	for _, tc := range []struct {
		name     string
		proposal []goban.Point
		want     []goban.Point
	}{
		{"chain in atari proposed dead", []goban.Point{a3, b3}, []goban.Point{a3, b3}},
		{"chain in atari kept alive", nil, corner},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := seedGame(t, diagram, "japanese", goban.Black)
			if got := goban.ConfirmDead(g, tc.proposal); !slices.Equal(got, tc.want) {
				t.Errorf("dead %v, want %v", got, tc.want)
			}
		})
	}
}
