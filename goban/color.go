package goban

import "fmt"

// Color is the content of a point: empty, a black stone or a white stone.
type Color uint8

// The colours. Wall marks the border around the playing area inside Board
// and is never returned for a point on the board.
const (
	Empty Color = iota
	Black
	White
	Wall
)

// Opponent returns White for Black and Black for White; it returns c itself
// for Empty and Wall.
func (c Color) Opponent() Color {
	switch c {
	case Black:
		return White
	case White:
		return Black
	}
	return c
}

// String returns "black", "white", "empty" or "wall".
func (c Color) String() string {
	switch c {
	case Black:
		return "black"
	case White:
		return "white"
	case Empty:
		return "empty"
	case Wall:
		return "wall"
	}
	return fmt.Sprintf("Color(%d)", uint8(c))
}

// Letter returns the one-letter form used in SGF and on servers: "B", "W",
// or "" for other colours.
func (c Color) Letter() string {
	switch c {
	case Black:
		return "B"
	case White:
		return "W"
	}
	return ""
}

// ParseColor reads a colour as GTP and SGF write it: "b", "black", "w" or
// "white", in any case.
func ParseColor(s string) (Color, error) {
	switch lower(s) {
	case "b", "black":
		return Black, nil
	case "w", "white":
		return White, nil
	}
	return Empty, fmt.Errorf("goban: %q is not a colour (black or white)", s)
}

func lower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// Point is an intersection of the board: X is the column from the left and Y
// the row from the top, both counted from zero.
type Point struct {
	X, Y int
}

// String returns the point as "(x,y)"; use the notation functions for the
// forms that players read.
func (p Point) String() string { return fmt.Sprintf("(%d,%d)", p.X, p.Y) }

// MoveKind tells a stone play from a pass and a resignation.
type MoveKind uint8

// The kinds of move.
const (
	Play MoveKind = iota
	Pass
	Resign
)

// String returns "play", "pass" or "resign".
func (k MoveKind) String() string {
	switch k {
	case Play:
		return "play"
	case Pass:
		return "pass"
	case Resign:
		return "resign"
	}
	return fmt.Sprintf("MoveKind(%d)", uint8(k))
}

// Move is one turn of a player: a stone at Point, a pass or a resignation.
// Point is meaningful only for Kind Play.
type Move struct {
	Color Color
	Kind  MoveKind
	Point Point
}

// PlayAt returns the move that puts a stone of colour c on p.
func PlayAt(c Color, p Point) Move { return Move{Color: c, Kind: Play, Point: p} }

// PassMove returns a pass by c.
func PassMove(c Color) Move { return Move{Color: c, Kind: Pass} }

// ResignMove returns a resignation by c.
func ResignMove(c Color) Move { return Move{Color: c, Kind: Resign} }

// String returns the move as "black D4"-like text without board size
// knowledge, using the point's coordinates: "black (3,15)", "white pass".
func (m Move) String() string {
	switch m.Kind {
	case Pass:
		return m.Color.String() + " pass"
	case Resign:
		return m.Color.String() + " resign"
	}
	return m.Color.String() + " " + m.Point.String()
}
