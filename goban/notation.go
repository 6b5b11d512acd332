package goban

import (
	"errors"
	"fmt"
	"slices"
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
// offending character in Input, and Line the 1-based line of Input in a
// text of several lines (a move list); 0 means the first.
type NotationError struct {
	Input string
	Line  int
	Col   int
	Msg   string
}

// Error gives the position as line:column, the message and the input line.
func (e *NotationError) Error() string {
	return fmt.Sprintf("%d:%d: %s in %q", max(e.Line, 1), e.Col, e.Msg, e.Input)
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

// ParseKorscheltMoves reads a move list in the notation of Pfaundler's book
// (§3), as package sgf's Korschelt writes it, and plays it on g:
//
//	S.: c3, g7.
//	W.: e5.
//	S. d4, e4; e5, a1; f4 (e4), pass; S. c3
//
// Lines "S.:" (Schwarz, Black) and "W.:" (Weiß, White) before the first move
// list stones that stand on the board before it (handicap or setup); they
// are set up with Game.Setup, so a handicap read back is not told from other
// setup stones. Then "S." or "W." names the colour that moves first, and the
// colours alternate over the moves, separated by "," or ";" (the book pairs
// them, but either is accepted anywhere); a colour named again starts a
// new run with it, as for two moves of one colour in a row. A move is a
// point (ParseKorschelt) or "pass", optionally followed by the stones it
// captures in parentheses: the stone ("(e4)") or their number ("(3)"),
// which must match what the move takes. A final "." ends a list. Space and
// line breaks are free between the parts.
//
// It returns the moves it played. An error is a *NotationError at the line
// and column where the list goes wrong; a move the rules forbid is one too,
// and g then holds the stones and moves before it.
func ParseKorscheltMoves(g *Game, s string) ([]Move, error) {
	p := &korscheltParser{g: g, lines: strings.Split(s, "\n")}
	return p.parse()
}

// korscheltParser reads a move list one line at a time.
type korscheltParser struct {
	g     *Game
	lines []string
	line  int // index of the line being read
	moves []Move
}

func (p *korscheltParser) errAt(col int, format string, args ...any) error {
	return &NotationError{Input: strings.TrimRight(p.lines[p.line], "\r"), Line: p.line + 1, Col: col, Msg: fmt.Sprintf(format, args...)}
}

// colourMark reads "S." or "W." at s[i:] (either case) and returns the
// colour and true.
func colourMark(s string, i int) (Color, bool) {
	if i+1 >= len(s) || s[i+1] != '.' {
		return Empty, false
	}
	switch s[i] {
	case 'S', 's':
		return Black, true
	case 'W', 'w':
		return White, true
	}
	return Empty, false
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' }

// word returns the end of the word of letters and digits at s[i:].
func word(s string, i int) int {
	j := i
	for j < len(s) && ('a' <= s[j] && s[j] <= 'z' || 'A' <= s[j] && s[j] <= 'Z' || '0' <= s[j] && s[j] <= '9') {
		j++
	}
	return j
}

// point reads the point in s[i:j], with the error at its column.
func (p *korscheltParser) point(s string, i, j int) (Point, error) {
	pt, err := ParseKorschelt(s[i:j], p.g.Width(), p.g.Height())
	if err != nil {
		var ne *NotationError
		if errors.As(err, &ne) {
			return pt, p.errAt(i+ne.Col, "%s", ne.Msg)
		}
		return pt, p.errAt(i+1, "%v", err)
	}
	return pt, nil
}

func (p *korscheltParser) parse() ([]Move, error) {
	// The states between the parts of a move list.
	const (
		wantColour = iota // before the first move: "S." or "W."
		wantMove          // after a colour or a separator
		afterMove         // after a move or its capture note
		ended             // after the final "."
	)
	state := wantColour
	c := Empty      // the colour of the next move
	noted := false  // the last move has its capture note
	var last Move   // the last move, for its capture note
	captured := 0   // stones the last move took
	var taken Point // the stone it took when captured is 1
	for p.line = range p.lines {
		s := p.lines[p.line]
		i := 0
		for i < len(s) && isSpace(s[i]) {
			i++
		}
		if col, ok := colourMark(s, i); ok && i+2 < len(s) && s[i+2] == ':' {
			if state != wantColour {
				return p.moves, p.errAt(i+1, "stones set up after the first move")
			}
			if err := p.setup(s, i+3, col); err != nil {
				return p.moves, err
			}
			continue
		}
		for i < len(s) {
			ch := s[i]
			switch {
			case isSpace(ch):
				i++
				continue
			case state == ended:
				return p.moves, p.errAt(i+1, "text after the final \".\"")
			}
			if col, ok := colourMark(s, i); ok {
				if state == afterMove {
					return p.moves, p.errAt(i+1, "\",\" or \";\" expected before a new colour")
				}
				c, state = col, wantMove
				i += 2
				continue
			}
			switch {
			case ch == ',' || ch == ';':
				if state != afterMove {
					return p.moves, p.errAt(i+1, "a move expected before %q", ch)
				}
				state = wantMove
				i++
			case ch == '.':
				if state != afterMove {
					return p.moves, p.errAt(i+1, "a move expected before \".\"")
				}
				state = ended
				i++
			case ch == '(':
				if state != afterMove || noted {
					return p.moves, p.errAt(i+1, "a capture note belongs after a move")
				}
				end := strings.IndexByte(s[i:], ')')
				if end < 0 {
					return p.moves, p.errAt(i+1, "unclosed \"(\"")
				}
				if err := p.checkCapture(s, i+1, i+end, last, captured, taken); err != nil {
					return p.moves, err
				}
				noted = true
				i += end + 1
			case state == wantColour:
				return p.moves, p.errAt(i+1, "the list must begin with the colour that moves first, \"S.\" or \"W.\"")
			case state == afterMove:
				return p.moves, p.errAt(i+1, "\",\" or \";\" expected between two moves")
			default:
				j := word(s, i)
				if j == i {
					return p.moves, p.errAt(i+1, "unexpected %q", ch)
				}
				m := PassMove(c)
				if !strings.EqualFold(s[i:j], "pass") {
					pt, err := p.point(s, i, j)
					if err != nil {
						return p.moves, err
					}
					m = PlayAt(c, pt)
				}
				if p.g.ToMove() != c {
					p.g.SetToMove(c)
				}
				opp := p.g.Board().Stones(c.Opponent())
				before := p.g.Board().Clone()
				if err := p.g.Play(m); err != nil {
					return p.moves, p.errAt(i+1, "%v", err)
				}
				captured = opp - p.g.Board().Stones(c.Opponent())
				taken = Point{}
				if captured == 1 {
					for _, d := range [4]Point{{0, -1}, {-1, 0}, {1, 0}, {0, 1}} {
						q := Point{X: m.Point.X + d.X, Y: m.Point.Y + d.Y}
						if before.OnBoard(q) && before.At(q) == c.Opponent() && p.g.Board().At(q) == Empty {
							taken = q
						}
					}
				}
				p.moves = append(p.moves, m)
				last, noted, state = m, false, afterMove
				c = c.Opponent()
				i = j
			}
		}
	}
	if state == wantMove {
		return p.moves, p.errAt(len(p.lines[p.line])+1, "a move expected at the end")
	}
	return p.moves, nil
}

// setup reads the points of a setup line from s[i:] and sets them up for
// colour c.
func (p *korscheltParser) setup(s string, i int, c Color) error {
	var pts []Point
	want := true // a point is expected next
	for i < len(s) {
		switch ch := s[i]; {
		case isSpace(ch):
			i++
		case ch == ',' && !want:
			want = true
			i++
		case ch == '.' && !want:
			for i++; i < len(s); i++ {
				if !isSpace(s[i]) {
					return p.errAt(i+1, "text after the final \".\"")
				}
			}
		case want && word(s, i) > i:
			j := word(s, i)
			pt, err := p.point(s, i, j)
			if err != nil {
				return err
			}
			if p.g.Board().At(pt) != Empty || slices.Contains(pts, pt) {
				return p.errAt(i+1, "%s is set up twice", s[i:j])
			}
			pts = append(pts, pt)
			want = false
			i = j
		default:
			return p.errAt(i+1, "unexpected %q", ch)
		}
	}
	if want {
		return p.errAt(len(s)+1, "a point expected")
	}
	if err := p.g.Setup(c, pts...); err != nil {
		return p.errAt(1, "%v", err)
	}
	return nil
}

// checkCapture checks the capture note s[i:j] (between the parentheses)
// against what move m took: n stones, the one at taken when n is 1.
func (p *korscheltParser) checkCapture(s string, i, j int, m Move, n int, taken Point) error {
	note := strings.TrimSpace(s[i:j])
	at := i + 1 + strings.Index(s[i:j], note)
	if note == "" {
		return p.errAt(i+1, "empty capture note")
	}
	if k, err := strconv.Atoi(note); err == nil {
		if k != n || k < 1 {
			return p.errAt(at, "the note says %d captured, the move took %d", k, n)
		}
		return nil
	}
	pt, err := p.point(s, at-1, at-1+len(note))
	if err != nil {
		return err
	}
	if n != 1 || pt != taken {
		return p.errAt(at, "the note says %s was captured, but the move took %d stones%s", note, n, takenAt(n, taken, p.g.Height()))
	}
	return nil
}

func takenAt(n int, taken Point, height int) string {
	if n != 1 {
		return ""
	}
	return " (" + FormatKorschelt(taken, height) + ")"
}
