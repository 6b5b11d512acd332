package engine

import (
	"reflect"
	"testing"

	"tengen/goban"
)

// TestEyeless: a chain whose group has no eye space of its own is dead
// unless the playouts clearly keep it alive. Unless a case says otherwise,
// every point's ownership is +0.5 (Black owns the board a little), so each
// White chain is a candidate and no Black chain is.
func TestEyeless(t *testing.T) {
	// White's wall on the fifth line is two chains that share E5 and E4;
	// it has an eye at G4 (next to the stone G3). The stone E6 shares D6
	// and E5 with the wall (E5 and E4 touch Black's E3, so that area is
	// not White's own): it belongs to the wall's group and lives with it.
	const wall = `
. . . . . . . . .
X X X X X X X X X
. . . . . . . . .
. . . . O . . . .
O O O O . O O O O
. . . O . O . O .
X X X X X X O X X
. . . . . . . . .
. . . . . . . . .`
	tests := []struct {
		name    string
		diagram string
		// own, when not nil, gives each point's ownership.
		own  func(b *goban.Board, p goban.Point) float64
		want []goban.Point
	}{
		{"stone joined to the group with an eye", wall, nil, nil},
		{
			// A White stone in Black's lower area: Black's region
			// is no longer Black's alone, but Black's chains are
			// kept alive by the playouts (+0.5); the stone touches
			// no area of White's.
			"invader without eye space",
			wall[:len(wall)-len(". . . . . . . . .")] + ". . . . O . . . .",
			nil,
			[]goban.Point{{X: 4, Y: 8}},
		},
		{
			// White's D7 and C6 hang from the wall D5 by D6, which
			// Black cannot take (a Black stone there has the one
			// liberty E6); D6 and E6 touch Black's E7, so they are
			// not White's own area, and D7 and C6 share no other
			// liberty with the wall. They belong to the wall's group,
			// which has eyes below.
			"one-point jump across a point the opponent cannot take",
			`
X X X X X X X X X
X X X X X X X X X
X X . O X X X X X
X X O . . O X X X
X X X O O O O O O
O O O O O O O O O
. . . . O . . . .
. . . . O . . . .
. . . . O . . . .`,
			nil,
			nil,
		},
		{
			// A capturing race in the upper left (the shape of
			// gosei47-Q18): Black's B9-E7 has A9 and D9, White's E9-E8
			// D9 and F9; they share D9, neither has eye space, and
			// neither can both be dead. On equal liberties the
			// playouts' favourite (White here) lives. The other
			// groups are alive by the playouts (±0.9).
			"capturing race between two chains without eyes",
			`
. X X . O . X X .
O O X X O X X . X
O . O X X O X X X
. O O O O O X . X
O O . . . O X X X
. O . . . O X . .
O O O O O O X . .
. . . . . O X . .
. . . . . O X . .`,
			func(b *goban.Board, p goban.Point) float64 {
				switch {
				case p.Y <= 2 && p.X >= 1 && p.X <= 4 && b.At(p) == goban.Black:
					return 0.1
				case p.Y <= 1 && p.X == 4:
					return -0.2
				case b.At(p) == goban.Black:
					return 0.9
				case b.At(p) == goban.White:
					return -0.9
				}
				return 0
			},
			[]goban.Point{{X: 1, Y: 0}},
		},
		{
			// The upper right of tengen45-P32: White's D9-H8 (G8
			// and H9) and G9 (H9 and G8) hold Black's F9-F8 in atari
			// in their only eye space. Counted by liberties White
			// wins the race; read out, White's capture at G8 leaves
			// it one eye of two points, and Black's H9 (a liberty of
			// its wall) and the throw-in kill it even with White to
			// move. Black's stones stand inside White's dying eye
			// space and live; both White chains die.
			"stones inside the one eye of a dying group",
			`
. . X O O X O . X
. . X X O X . O X
. . X O O O O O X
. . X X X X X X X
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .`,
			func(b *goban.Board, p goban.Point) float64 {
				switch {
				case p.X == 5 && p.Y <= 1:
					return 0
				case b.At(p) == goban.White:
					return 0
				}
				return 0.9
			},
			[]goban.Point{{X: 3, Y: 0}, {X: 6, Y: 0}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := goban.ParseBoard(tt.diagram)
			if err != nil {
				t.Fatal(err)
			}
			geo := newGeometry(b)
			own := make([]float64, len(geo.locs))
			for _, l := range geo.locs {
				own[geo.index[l]] = 0.5
				if tt.own != nil {
					own[geo.index[l]] = tt.own(b, b.Point(l))
				}
			}
			var got []goban.Point
			for _, h := range eyeless(b, geo, own, nil, map[goban.Point]bool{}, goban.Empty) {
				got = append(got, b.Point(h))
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("eyeless %v, want %v", got, tt.want)
			}
		})
	}
}
