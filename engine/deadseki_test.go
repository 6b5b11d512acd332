package engine

import (
	"os"
	"slices"
	"testing"

	"tengen/goban"
	"tengen/sgf"
)

// TestDeadStonesSekiOnlyWithDeadOnBoard: a chain that is in seki only
// while dead stones stand on the board, and no longer once the other
// candidates are taken off, is dead. In the final position of
// honinbo75-P12 (recorded B+3.5) White's lone S19 shares R19 with the dead
// P19-R16 and T19 with Black's S18-T18: on the board as it stands the
// finder calls both in seki, but with the dead White stones off S19 is a
// stone in Black's corner, and GNU Go and the record count it dead.
func TestDeadStonesSekiOnlyWithDeadOnBoard(t *testing.T) {
	data, err := os.ReadFile("../cmd/tengen/testdata/counted/honinbo75-P12.sgf")
	if err != nil {
		t.Fatal(err)
	}
	c, err := sgf.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	r, err := sgf.Replay(c.Games[0], sgf.ReplayOptions{Force: true})
	if err != nil {
		t.Fatal(err)
	}
	dead := New(Options{Threads: 1, Seed: 7}).DeadStones(r.Game)
	for _, p := range []goban.Point{{X: 17, Y: 0}, {X: 15, Y: 0}} { // S19, Q19
		if !slices.Contains(dead, p) {
			t.Errorf("%v not in the dead stones %v", p, dead)
		}
	}
	if p := (goban.Point{X: 17, Y: 1}); slices.Contains(dead, p) { // S18
		t.Errorf("Black's S18 %v is dead: %v", p, dead)
	}
}
