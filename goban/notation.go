package goban

import (
	"fmt"
	"strconv"
	"strings"
)

// gtpLetters are GTP's column letters: A to Z without I.
const gtpLetters = "ABCDEFGHJKLMNOPQRSTUVWXYZ"

// korscheltLetters are the column letters of Korschelt's notation as
// Pfaundler uses it (§3): lower case, without j, so that k10 is the centre
// of a 19×19 board.
const korscheltLetters = "abcdefghiklmnopqrstuvwxyz"

// NotationError is a notation parse error; Col is the 1-based column of the
// offending character in the input.
type NotationError struct {
	Input string
	Col   int
	Msg   string
}

// Error gives the position as line:column (notations are one line), the
// message and the input.
func (e *NotationError) Error() string {
	return fmt.Sprintf("1:%d: %s in %q", e.Col, e.Msg, e.Input)
}

func notationErr(in string, col int, format string, args ...any) error {
	return &NotationError{Input: in, Col: col, Msg: fmt.Sprintf(format, args...)}
}

// parseLetterNumber reads a column letter from letters (either case) and a
// 1-based row counted from the bottom.
func parseLetterNumber(s, letters string, width, height int) (Point, error) {
	if s == "" {
		return Point{}, notationErr(s, 1, "empty vertex")
	}
	c := s[0]
	if 'A' <= c && c <= 'Z' {
		c += 'a' - 'A'
	}
	x := strings.IndexByte(strings.ToLower(letters), c)
	if x < 0 {
		return Point{}, notationErr(s, 1, "%q is not a column letter", s[0])
	}
	if len(s) < 2 {
		return Point{}, notationErr(s, 2, "missing row number")
	}
	for i := 1; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return Point{}, notationErr(s, i+1, "%q is not a digit", s[i])
		}
	}
	if len(s) > 3 {
		return Point{}, notationErr(s, 2, "row number too long")
	}
	row, _ := strconv.Atoi(s[1:])
	if x >= width {
		return Point{}, notationErr(s, 1, "column %c is off a board %d wide", s[0], width)
	}
	if row < 1 || row > height {
		return Point{}, notationErr(s, 2, "row %d is off a board %d high", row, height)
	}
	return Point{X: x, Y: height - row}, nil
}

// ParseVertex reads a GTP vertex such as "D4" or "pass" (either case) on a
// board of the given size. It returns pass true for "pass".
func ParseVertex(s string, width, height int) (p Point, pass bool, err error) {
	if strings.EqualFold(s, "pass") {
		return Point{}, true, nil
	}
	p, err = parseLetterNumber(s, gtpLetters, width, height)
	return p, false, err
}

// FormatVertex writes p as a GTP vertex, such as "D4", on a board of the
// given height.
func FormatVertex(p Point, height int) string {
	if p.X < 0 || p.X >= len(gtpLetters) {
		return "?"
	}
	return fmt.Sprintf("%c%d", gtpLetters[p.X], height-p.Y)
}

// FormatMoveVertex writes a move's vertex for GTP: "pass", "resign" or a
// point.
func FormatMoveVertex(m Move, height int) string {
	switch m.Kind {
	case Pass:
		return "pass"
	case Resign:
		return "resign"
	}
	return FormatVertex(m.Point, height)
}

// ParseKorschelt reads a point in Korschelt's notation (Pfaundler §3), such
// as "d4" or "r17": a column letter a–t without j, then the row from the
// bottom.
func ParseKorschelt(s string, width, height int) (Point, error) {
	return parseLetterNumber(s, korscheltLetters, width, height)
}

// FormatKorschelt writes p in Korschelt's notation, such as "d4".
func FormatKorschelt(p Point, height int) string {
	if p.X < 0 || p.X >= len(korscheltLetters) {
		return "?"
	}
	return fmt.Sprintf("%c%d", korscheltLetters[p.X], height-p.Y)
}

// ParseSGFPoint reads an SGF point such as "pd": column then row, both from
// the top left, a–z then A–Z. The empty value, and "tt" on boards up to
// 19×19, is a pass.
func ParseSGFPoint(s string, width, height int) (p Point, pass bool, err error) {
	if s == "" || (s == "tt" && width <= 19 && height <= 19) {
		return Point{}, true, nil
	}
	if len(s) != 2 {
		return Point{}, false, notationErr(s, 1, "an SGF point has two letters")
	}
	v := func(c byte) int {
		switch {
		case 'a' <= c && c <= 'z':
			return int(c - 'a')
		case 'A' <= c && c <= 'Z':
			return int(c-'A') + 26
		}
		return -1
	}
	x, y := v(s[0]), v(s[1])
	if x < 0 || x >= width {
		return Point{}, false, notationErr(s, 1, "column %q is off a board %d wide", s[0], width)
	}
	if y < 0 || y >= height {
		return Point{}, false, notationErr(s, 2, "row %q is off a board %d high", s[1], height)
	}
	return Point{X: x, Y: y}, false, nil
}

// FormatSGFPoint writes p as an SGF point such as "pd".
func FormatSGFPoint(p Point) string {
	l := func(v int) byte {
		if v < 26 {
			return byte('a' + v)
		}
		return byte('A' + v - 26)
	}
	return string([]byte{l(p.X), l(p.Y)})
}

// ParseJapanese reads the Japanese numbering that Pfaundler §3 describes:
// columns counted leftwards and rows upwards from the lower right corner,
// both from 1, written "column-row" such as "4-16".
func ParseJapanese(s string, width, height int) (Point, error) {
	i := strings.IndexAny(s, "-,/ ")
	if i < 0 {
		return Point{}, notationErr(s, 1, "expected column-row, such as 4-16")
	}
	col, err := strconv.Atoi(s[:i])
	if err != nil || col < 1 || col > width {
		return Point{}, notationErr(s, 1, "column must be 1 to %d", width)
	}
	row, err := strconv.Atoi(s[i+1:])
	if err != nil || row < 1 || row > height {
		return Point{}, notationErr(s, i+2, "row must be 1 to %d", height)
	}
	return Point{X: width - col, Y: height - row}, nil
}

// FormatJapanese writes p in the Japanese numbering, such as "4-16".
func FormatJapanese(p Point, width, height int) string {
	return fmt.Sprintf("%d-%d", width-p.X, height-p.Y)
}
