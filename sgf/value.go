package sgf

import (
	"fmt"
	"strings"
)

// EscapeText returns s escaped for use as a Text or SimpleText value: "\" and
// "]" get a backslash. Line breaks are kept; in a SimpleText they read back as
// spaces.
func EscapeText(s string) string {
	if !strings.ContainsAny(s, `\]`) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 4)
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' || s[i] == ']' {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// EscapeComposedText is EscapeText that also escapes ":", for one half of a
// composed value such as the text of a label (LB[pd:text]).
func EscapeComposedText(s string) string {
	if !strings.ContainsAny(s, `\]:`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' || s[i] == ']' || s[i] == ':' {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// UnescapeText interprets a raw Text value (C, GC, ...): a backslash before a
// line break removes both (a soft line break), a backslash before any other
// character stands for that character, white space other than line breaks
// becomes a space, and line breaks stay.
func UnescapeText(raw string) string { return unescape(raw, false) }

// UnescapeSimpleText interprets a raw SimpleText value (PB, RE, LB text, ...):
// as UnescapeText, but line breaks become spaces too.
func UnescapeSimpleText(raw string) string { return unescape(raw, true) }

func unescape(raw string, simple bool) string {
	if !strings.ContainsAny(raw, "\\\t\v\f\r") && (!simple || !strings.Contains(raw, "\n")) {
		return raw
	}
	b := make([]byte, 0, len(raw))
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch c {
		case '\\':
			if i+1 >= len(raw) {
				continue // a lone trailing backslash means nothing
			}
			i++
			c = raw[i]
			if c == '\n' || c == '\r' {
				// Soft line break: "\r\n" and "\n\r" count as one.
				if i+1 < len(raw) && (raw[i+1] == '\n' || raw[i+1] == '\r') && raw[i+1] != c {
					i++
				}
				continue
			}
			b = append(b, c)
		case '\t', '\v', '\f':
			b = append(b, ' ')
		case '\r', '\n':
			if i+1 < len(raw) && (raw[i+1] == '\n' || raw[i+1] == '\r') && raw[i+1] != c {
				i++
			}
			if simple {
				b = append(b, ' ')
			} else {
				b = append(b, '\n')
			}
		default:
			b = append(b, c)
		}
	}
	return string(b)
}

// SplitCompose splits a raw composed value ("pd:A", "19:13") at its first
// unescaped ":". It reports false if the value is not composed.
func SplitCompose(raw string) (left, right string, ok bool) {
	for i := 0; i < len(raw); i++ {
		switch raw[i] {
		case '\\':
			i++
		case ':':
			return raw[:i], raw[i+1:], true
		}
	}
	return raw, "", false
}

// Color is a player or stone colour in a record.
type Color uint8

// The colours. Empty is also "no colour" (a draw has no winner).
const (
	Empty Color = iota
	Black
	White
)

// String returns "B", "W" or "" as SGF writes colours.
func (c Color) String() string {
	switch c {
	case Black:
		return "B"
	case White:
		return "W"
	}
	return ""
}

// Opponent returns the other colour (Empty stays Empty).
func (c Color) Opponent() Color {
	switch c {
	case Black:
		return White
	case White:
		return Black
	}
	return Empty
}

// Point is a board point in SGF orientation: X is the column from the left
// and Y the row from the top, both from 0. "aa" is the upper left corner.
type Point struct{ X, Y int }

// String returns the point as SGF writes it ("pd").
func (p Point) String() string { return FormatPoint(p) }

func coordChar(v int) byte {
	if v < 26 {
		return byte('a' + v)
	}
	return byte('A' + v - 26)
}

func coordValue(c byte) int {
	switch {
	case isLower(c):
		return int(c - 'a')
	case isUpper(c):
		return int(c-'A') + 26
	}
	return -1
}

// FormatPoint returns the two letters for p ("a".."z" then "A".."Z", for
// boards up to 52 lines). It returns "" for points outside that range.
func FormatPoint(p Point) string {
	if p.X < 0 || p.Y < 0 || p.X > 51 || p.Y > 51 {
		return ""
	}
	return string([]byte{coordChar(p.X), coordChar(p.Y)})
}

// ParsePoint reads a two-letter point. It does not check a board size.
func ParsePoint(raw string) (Point, error) {
	if len(raw) != 2 {
		return Point{}, fmt.Errorf("point %q: want two letters", clip(raw))
	}
	x, y := coordValue(raw[0]), coordValue(raw[1])
	if x < 0 || y < 0 {
		return Point{}, fmt.Errorf("point %q: want letters a-z or A-Z", raw)
	}
	return Point{x, y}, nil
}

func onBoard(p Point, w, h int) bool { return p.X >= 0 && p.Y >= 0 && p.X < w && p.Y < h }

// Move is a move in a record: a stone at Point, or a pass.
type Move struct {
	Color Color
	Pass  bool
	Point Point // meaningless for a pass
}

// String returns the move as SGF writes it ("B[pd]", "W[]").
func (m Move) String() string {
	if m.Pass {
		return m.Color.String() + "[]"
	}
	return m.Color.String() + "[" + FormatPoint(m.Point) + "]"
}

// IsPass reports whether a raw move value is a pass on a w×h board: the empty
// value, or "tt" on boards up to 19×19 (the FF[3] convention).
func IsPass(raw string, w, h int) bool {
	return raw == "" || (raw == "tt" && w <= 19 && h <= 19)
}

// Move returns the move in n (property B or W) on a w×h board. It reports
// false if n has no move. A node with both B and W is an error.
func (n *Node) Move(w, h int) (Move, bool, error) {
	b, hasB := n.Value("B")
	wv, hasW := n.Value("W")
	switch {
	case hasB && hasW:
		return Move{}, true, fmt.Errorf("node has both B and W")
	case hasB:
		return parseMove(Black, b, w, h)
	case hasW:
		return parseMove(White, wv, w, h)
	}
	return Move{}, false, nil
}

// Moves returns every move in n: normally one, but a node where a duplicate
// B or W was merged (B[dd]B[ee] read as B[dd][ee]) holds several, which
// replay plays one after the other as GNU Go does. A node with both B and W
// gives Black's moves first.
func (n *Node) Moves(w, h int) ([]Move, error) {
	var ms []Move
	for _, c := range []Color{Black, White} {
		for _, raw := range n.Values(c.String()) {
			m, _, err := parseMove(c, raw, w, h)
			if err != nil {
				return ms, err
			}
			ms = append(ms, m)
		}
	}
	return ms, nil
}

func parseMove(c Color, raw string, w, h int) (Move, bool, error) {
	raw = strings.TrimSpace(raw)
	if IsPass(raw, w, h) {
		return Move{Color: c, Pass: true}, true, nil
	}
	p, err := ParsePoint(raw)
	if err != nil {
		return Move{Color: c}, true, fmt.Errorf("%s: %v", c, err)
	}
	if !onBoard(p, w, h) {
		return Move{Color: c}, true, fmt.Errorf("%s[%s] is off the %dx%d board", c, raw, w, h)
	}
	return Move{Color: c, Point: p}, true, nil
}

// ExpandPoints reads a list of points on a w×h board, expanding compressed
// rectangles: "aa:cc" stands for the nine points from aa to cc. Corners given
// in the wrong order are accepted. Empty values are skipped (an empty list
// is written "[]"). Every point must be on the board.
func ExpandPoints(values []string, w, h int) ([]Point, error) {
	var pts []Point
	for _, v := range values {
		v = strings.TrimSpace(v)
		if v == "" {
			continue
		}
		l, r, composed := SplitCompose(v)
		a, err := ParsePoint(l)
		if err != nil {
			return pts, err
		}
		if !onBoard(a, w, h) {
			return pts, fmt.Errorf("point %s is off the %dx%d board", l, w, h)
		}
		if !composed {
			pts = append(pts, a)
			continue
		}
		b, err := ParsePoint(r)
		if err != nil {
			return pts, err
		}
		if !onBoard(b, w, h) {
			return pts, fmt.Errorf("point %s is off the %dx%d board", r, w, h)
		}
		x0, x1 := min(a.X, b.X), max(a.X, b.X)
		y0, y1 := min(a.Y, b.Y), max(a.Y, b.Y)
		for y := y0; y <= y1; y++ {
			for x := x0; x <= x1; x++ {
				pts = append(pts, Point{x, y})
			}
		}
	}
	return pts, nil
}

// Points returns the points of list property id (AB, AW, AE, TR, SQ, CR, MA,
// SL, TB, TW, DD, ...) in n, with compressed rectangles expanded.
func (n *Node) Points(id string, w, h int) ([]Point, error) {
	pts, err := ExpandPoints(n.Values(id), w, h)
	if err != nil {
		return pts, fmt.Errorf("%s: %v", id, err)
	}
	return pts, nil
}

// Label is one label of the LB property.
type Label struct {
	Point Point
	Text  string // unescaped SimpleText
}

// Labels returns the labels of n's LB property.
func (n *Node) Labels(w, h int) ([]Label, error) {
	var ls []Label
	for _, v := range n.Values("LB") {
		l, r, ok := SplitCompose(v)
		if !ok {
			return ls, fmt.Errorf("LB[%s]: want point:text", clip(v))
		}
		p, err := ParsePoint(strings.TrimSpace(l))
		if err != nil {
			return ls, fmt.Errorf("LB: %v", err)
		}
		if !onBoard(p, w, h) {
			return ls, fmt.Errorf("LB: point %s is off the %dx%d board", l, w, h)
		}
		ls = append(ls, Label{p, UnescapeSimpleText(r)})
	}
	return ls, nil
}

// Line is one arrow (AR) or line (LN): two points.
type Line struct{ From, To Point }

// Lines returns the AR or LN values of n.
func (n *Node) Lines(id string, w, h int) ([]Line, error) {
	var ls []Line
	for _, v := range n.Values(id) {
		l, r, ok := SplitCompose(v)
		if !ok {
			return ls, fmt.Errorf("%s[%s]: want point:point", id, clip(v))
		}
		a, err1 := ParsePoint(l)
		b, err2 := ParsePoint(r)
		if err1 != nil || err2 != nil || !onBoard(a, w, h) || !onBoard(b, w, h) {
			return ls, fmt.Errorf("%s[%s]: bad point", id, clip(v))
		}
		ls = append(ls, Line{a, b})
	}
	return ls, nil
}

// Text returns the unescaped Text of property id (C, GC, ...); several values
// (from merged duplicates) are joined by a line break.
func (n *Node) Text(id string) string {
	vs := n.Values(id)
	switch len(vs) {
	case 0:
		return ""
	case 1:
		return UnescapeText(vs[0])
	}
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = UnescapeText(v)
	}
	return strings.Join(parts, "\n")
}

// SimpleText returns the unescaped SimpleText of property id (PB, RE, N, ...).
func (n *Node) SimpleText(id string) string {
	v, _ := n.Value(id)
	return UnescapeSimpleText(v)
}

// Comment returns the node's comment (C) as plain text.
func (n *Node) Comment() string { return n.Text("C") }
