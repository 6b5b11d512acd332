package engine

import (
	"slices"
	"testing"

	"tengen/goban"
)

// TestDeadStonesSekiOnlyWithDeadOnBoard: a chain that is in seki only
// while dead stones stand on the board, and no longer once the other
// candidates are taken off, is dead. The final position of honinbo75-P12
// (cmd/tengen/testdata/counted, recorded B+3.5, White to move): White's
// lone S19 shares R19 with the dead P19-R16 and T19 with Black's S18-T18;
// on the board as it stands the finder calls both in seki, but with the
// dead White stones off S19 is a stone in Black's corner, and GNU Go and
// the record count it dead.
func TestDeadStonesSekiOnlyWithDeadOnBoard(t *testing.T) {
	g := gameFrom(t, `
		X O O . . . . . . O O X . . O O . O .
		X X O X X O O . O O X X . O X O O X X
		X X O O O . O O . X X . . X X X O X .
		X . X O . . . O O O X . . . X X O X O
		. X X X O O . . O X . X O . . X X O .
		X . X O O O . O X X X O X X . X O O O
		O X X . O O O O O X . O O X X X X O .
		. X X X X O O . O X O O O O O X O X X
		X X O X X X O O X X X X X O . O O O O
		X O O X X X X O O X . X X O . . O O .
		X O . O X O O X X X O . O . O O X O O
		O . O . O O O X . X O O O O X O X X O
		. O . O O X . X O O O X X X X X X . X
		O . O . O X X X O O X . . . . . X X .
		. . . O X O O O . O X . . . . X . . X
		. . O X X . O . O X X . O . . . . X .
		. O X O X . X O X . X . . . . X X X X
		. . . O O . O O X X . . . . . O O X O
		. . . . . . O X X . . . . . . . . O .`, "japanese", goban.White, 6.5)
	dead := New(Options{Threads: 1, Seed: 7}).DeadStones(g)
	for _, p := range []goban.Point{{X: 17, Y: 0}, {X: 15, Y: 0}} { // S19, Q19
		if !slices.Contains(dead, p) {
			t.Errorf("%v not in the dead stones %v", p, dead)
		}
	}
	if p := (goban.Point{X: 17, Y: 1}); slices.Contains(dead, p) { // S18
		t.Errorf("Black's S18 %v is dead: %v", p, dead)
	}
}
