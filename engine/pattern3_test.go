package engine

import (
	"testing"

	"tengen/goban"
)

// TestPat3 checks the 3×3 playout shapes on small diagrams: the point
// marked by want is tested, in every rotation of the diagram and with the
// colours swapped.
func TestPat3(t *testing.T) {
	tests := []struct {
		name    string
		diagram string
		at      string
		want    bool
	}{
		{"enclosing hane", `
			. . . . .
			. X O X .
			. . . . .
			. . . . .
			. . . . .`, "C3", true},
		{"hane that leaves no cut", `
			. . . . .
			. X O . .
			. . . . .
			. . . . .
			. . . . .`, "C3", true},
		{"hane with an enemy stone below", `
			. . . . .
			. X O . .
			. . . . .
			. . O . .
			. . . . .`, "C3", false},
		{"magari", `
			. . . . .
			. X O . .
			. X . . .
			. . . . .
			. . . . .`, "C3", true},
		{"diagonal attachment", `
			. . . . .
			. . O . .
			. X . . .
			. . . . .
			. . . . .`, "C3", true},
		{"unprotected cut", `
			. . . . .
			. X O . .
			. O . . .
			. . . . .
			. . . . .`, "C3", true},
		{"cut with the cutting stones joined below", `
			. . . . .
			. X O . .
			. O . . .
			. . O . .
			. . . . .`, "C3", false},
		{"push and cut (de)", `
			. . . . .
			. . X . .
			. O . O .
			. . . . .
			. . . . .`, "C3", true},
		{"first-line sagari", `
			. . . . .
			. . . . .
			. . . . .
			. . X O .
			. . . . .`, "C1", true},
		{"empty neighbourhood", `
			. . . . .
			. . . . .
			. . . . .
			. . . . .
			. . . . .`, "C3", false},
		{"lone stone in contact", `
			. . . . .
			. . . . .
			. . O . .
			. . . . .
			. . . . .`, "C2", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := goban.ParseBoard(tt.diagram)
			if err != nil {
				t.Fatal(err)
			}
			at, _, err := goban.ParseVertex(tt.at, b.Width(), b.Height())
			if err != nil {
				t.Fatal(err)
			}
			for rot := 0; rot < 8; rot++ {
				for _, swap := range []bool{false, true} {
					rb, p := transformBoard(t, b, at, rot, swap)
					geo := newGeometry(rb)
					if got := pat3Match(rb, rb.Loc(p), geo.diag); got != tt.want {
						t.Errorf("rotation %d, swapped %v: match %v, want %v\n%s", rot, swap, got, tt.want, rb)
					}
				}
			}
		})
	}
}

// transformBoard returns b (square) turned by rot%4 quarter turns, mirrored
// when rot >= 4 and with the colours swapped when swap is set, and where
// the point p went.
func transformBoard(t *testing.T, b *goban.Board, p goban.Point, rot int, swap bool) (*goban.Board, goban.Point) {
	t.Helper()
	n := b.Width()
	move := func(q goban.Point) goban.Point {
		for i := 0; i < rot%4; i++ {
			q = goban.Point{X: n - 1 - q.Y, Y: q.X}
		}
		if rot >= 4 {
			q.X = n - 1 - q.X
		}
		return q
	}
	out, err := goban.NewBoard(n, n)
	if err != nil {
		t.Fatal(err)
	}
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			c := b.At(goban.Point{X: x, Y: y})
			if c == goban.Empty {
				continue
			}
			if swap {
				c = c.Opponent()
			}
			if err := out.Setup(c, move(goban.Point{X: x, Y: y})); err != nil {
				t.Fatal(err)
			}
		}
	}
	return out, move(p)
}

// TestPat3TableSymmetric checks the table as a whole: a code matches
// exactly when its colour-swapped code does.
func TestPat3TableSymmetric(t *testing.T) {
	matches := 0
	for k := 0; k < 1<<16; k++ {
		code := uint16(k)
		var swapped uint16
		for i := 0; i < 8; i++ {
			c := (code >> (2 * i)) & 3
			if c == 1 || c == 2 {
				c = 3 - c
			}
			swapped |= c << (2 * i)
		}
		m := pat3Table[code>>6]&(1<<(code&63)) != 0
		if m != (pat3Table[swapped>>6]&(1<<(swapped&63)) != 0) {
			t.Fatalf("code %016b matches %v but its colour swap does not", code, m)
		}
		if m {
			matches++
		}
	}
	if matches == 0 || matches > 1<<14 {
		t.Fatalf("%d codes match: the table is wrong", matches)
	}
	t.Logf("%d of 65536 neighbourhood codes match a pattern", matches)
}
