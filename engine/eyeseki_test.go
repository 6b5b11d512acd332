package engine

import (
	"slices"
	"testing"

	"tengen/goban"
)

// TestDeadStonesEyeSeki: a group whose only eye points are the two
// liberties of an enemy chain of at most three stones standing inside it
// lives in seki with that chain (eyeSeki). Without the rule the group has
// no eye space of its own, counts as eyeless and dies, and the enemy chain
// with it or alone. The final positions of two records of
// cmd/tengen/testdata/counted, Black to move in both; GNU Go 3.8's
// final_status_list seki names both chains in each.
func TestDeadStonesEyeSeki(t *testing.T) {
	tests := []struct {
		name        string
		diagram     string
		alive, dead []string
	}{
		{
			// tengen47-P21 (recorded B+8.5): White's R9-T14 shares its eye
			// points S13 and S11 with Black's T11-T13.
			name: "edge group around three stones",
			diagram: `
		. . . X O O . O X X X X . . . . . . .
		. X . X O . O . X O X O X X X . . . .
		X . X X X O O O X O O O X O . . X . .
		. X O O O . O . O . . O O X X X . X .
		O O . O O . O O . . O X X X . . X X X
		X X O O O . O . . . . O X O X X O O O
		. X X X O O X O . . . O X O . X O . X
		. . . X O X X O . . . . O O . X O O X
		. . . X X X O O O O O . O X X . O . X
		. . . . X X X O X X O . . O X X O O O
		. X . X O X O O X O . O . O . . O X O
		. . . X O X X . X O O . O X X X X X .
		X X X O O O O X X O X O X O O O X X .
		O X O O . O O O X O X . X O . X O O X
		O X X O . . X O X X X X X O . X X O .
		O O O O O O O X . . . . X O . X O . O
		O X X X X O X X . . . X O O O X O . .
		X . . . O X X . . . . X X O O X O . .
		. X . . . . . . . . . . X X O O . . .`,
			alive: []string{"R14", "T14", "R9", "T9", "T11", "T12", "T13"},
			dead:  []string{"O17", "G5", "E2", "Q4"},
		},
		{
			// tengen46-K16 (recorded B+2.5): White's B16-H19 shares D18 and
			// F18 with Black's D19-F19.
			name: "corner group around three stones",
			diagram: `
		. O O X X X O O X . . . X O O . . . .
		. X O . O . O X X . . . X X O O . O O
		X X O O O O O O X . . . O X X . O O X
		X O O X X X X O X . . . . X . X . . X
		. X X O . X O X X X X . . X O . X X X
		X . . X . X O O X O O X X X . O O X O
		X O . . . X O . O . O O . . X O . O O
		O X X X X X O O . O X O X . X O O . O
		O O O X O . O X O O X O O O O O X O O
		. . O O O . X X . O X X . X X X X X O
		. . . . O X X . X O O X X X . . X O .
		. . . . O . . O X . X O O X . X O O O
		. . . . O X X O X . X O O O X X X O .
		. O O O X X O O X . O O X O O O X X .
		O O X X X X X O O O . O X O . X . X X
		O X X . X O O O O O X X X X X X X O O
		X . . X O X X . . O O X X O X . O . O
		. X . X O O O O . O X X . O X X O O .
		. . . X X O . . O X X . . . X O O . .`,
			alive: []string{"B19", "H19", "E18", "B16", "H16", "D19", "E19", "F19"},
			dead:  []string{"N17", "D15", "B13", "F3", "O2"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := gameFrom(t, tc.diagram, "japanese", goban.Black, 6.5)
			dead := New(Options{Threads: 1, Seed: 7}).DeadStones(g)
			for _, v := range tc.alive {
				if p := vertex(t, g, v).Point; slices.Contains(dead, p) {
					t.Errorf("%s is dead: %v", v, dead)
				}
			}
			for _, v := range tc.dead {
				if p := vertex(t, g, v).Point; !slices.Contains(dead, p) {
					t.Errorf("%s is not dead: %v", v, dead)
				}
			}
		})
	}
}
