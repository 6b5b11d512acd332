package goban

import (
	"errors"
	"strings"
	"testing"
)

func TestNotations(t *testing.T) {
	tests := []struct {
		p                         Point
		w, h                      int
		gtp, sgf, korschelt, japn string
	}{
		{Point{0, 18}, 19, 19, "A1", "as", "a1", "19-1"},
		{Point{18, 0}, 19, 19, "T19", "sa", "t19", "1-19"},
		{Point{9, 9}, 19, 19, "K10", "jj", "k10", "10-10"},
		{Point{3, 15}, 19, 19, "D4", "dp", "d4", "16-4"},
		{Point{8, 0}, 19, 19, "J19", "ia", "i19", "11-19"},
		{Point{24, 0}, 25, 25, "Z25", "ya", "z25", "1-25"},
		{Point{2, 0}, 9, 13, "C13", "ca", "c13", "7-13"},
	}
	for _, tt := range tests {
		if got := FormatVertex(tt.p, tt.h); got != tt.gtp {
			t.Errorf("FormatVertex(%v) = %s, want %s", tt.p, got, tt.gtp)
		}
		if p, pass, err := ParseVertex(tt.gtp, tt.w, tt.h); err != nil || pass || p != tt.p {
			t.Errorf("ParseVertex(%s) = %v %v %v", tt.gtp, p, pass, err)
		}
		if got := FormatSGFPoint(tt.p); got != tt.sgf {
			t.Errorf("FormatSGFPoint(%v) = %s, want %s", tt.p, got, tt.sgf)
		}
		if p, pass, err := ParseSGFPoint(tt.sgf, tt.w, tt.h); err != nil || pass || p != tt.p {
			t.Errorf("ParseSGFPoint(%s) = %v %v %v", tt.sgf, p, pass, err)
		}
		if got := FormatKorschelt(tt.p, tt.h); got != tt.korschelt {
			t.Errorf("FormatKorschelt(%v) = %s, want %s", tt.p, got, tt.korschelt)
		}
		if p, err := ParseKorschelt(tt.korschelt, tt.w, tt.h); err != nil || p != tt.p {
			t.Errorf("ParseKorschelt(%s) = %v %v", tt.korschelt, p, err)
		}
		if got := FormatJapanese(tt.p, tt.w, tt.h); got != tt.japn {
			t.Errorf("FormatJapanese(%v) = %s, want %s", tt.p, got, tt.japn)
		}
		if p, err := ParseJapanese(tt.japn, tt.w, tt.h); err != nil || p != tt.p {
			t.Errorf("ParseJapanese(%s) = %v %v", tt.japn, p, err)
		}
	}
	// Passes.
	if _, pass, err := ParseVertex("PASS", 19, 19); !pass || err != nil {
		t.Error("PASS is not a pass")
	}
	for _, s := range []string{"", "tt"} {
		if _, pass, err := ParseSGFPoint(s, 19, 19); !pass || err != nil {
			t.Errorf("SGF %q is not a pass on 19×19", s)
		}
	}
	if p, pass, err := ParseSGFPoint("tt", 21, 21); pass || err != nil || p != (Point{19, 19}) {
		t.Errorf("SGF tt on 21×21 = %v %v %v, want the point T20", p, pass, err)
	}
	// Errors carry the column of the offending character.
	for _, tt := range []struct {
		in  string
		col int
	}{{"I5", 1}, {"A0", 2}, {"A20", 2}, {"Z1", 1}, {"A1x", 3}, {"", 1}, {"A", 2}} {
		_, _, err := ParseVertex(tt.in, 19, 19)
		ne, ok := err.(*NotationError)
		if !ok || ne.Col != tt.col {
			t.Errorf("ParseVertex(%q) error %v, want one at column %d", tt.in, err, tt.col)
		}
	}
	if _, err := ParseKorschelt("j10", 19, 19); err == nil {
		t.Error("Korschelt has no column j, but j10 was accepted")
	}
}

func FuzzParseVertex(f *testing.F) {
	for _, s := range []string{"A1", "t19", "pass", "Z25", "I9", "", "K10x", "a-1"} {
		f.Add(s, 19, 19)
	}
	f.Fuzz(func(t *testing.T, s string, w, h int) {
		w, h = clampSize(w), clampSize(h)
		p, pass, err := ParseVertex(s, w, h)
		if err != nil || pass {
			return
		}
		if q, _, err := ParseVertex(FormatVertex(p, h), w, h); err != nil || q != p {
			t.Fatalf("%q: %v does not round-trip: %v %v", s, p, q, err)
		}
	})
}

func FuzzParseSGFPoint(f *testing.F) {
	for _, s := range []string{"aa", "ss", "tt", "", "zz", "AA", "a"} {
		f.Add(s, 19, 19)
	}
	f.Fuzz(func(t *testing.T, s string, w, h int) {
		w, h = clampSize(w), clampSize(h)
		p, pass, err := ParseSGFPoint(s, w, h)
		if err != nil || pass {
			return
		}
		if q, _, err := ParseSGFPoint(FormatSGFPoint(p), w, h); err != nil || q != p {
			t.Fatalf("%q: %v does not round-trip", s, p)
		}
	})
}

func FuzzParseKorscheltJapanese(f *testing.F) {
	for _, s := range []string{"d4", "t19", "k10", "16-4", "1-1", "x", "-", "99-99"} {
		f.Add(s, 19, 19)
	}
	f.Fuzz(func(t *testing.T, s string, w, h int) {
		w, h = clampSize(w), clampSize(h)
		if p, err := ParseKorschelt(s, w, h); err == nil {
			if q, err := ParseKorschelt(FormatKorschelt(p, h), w, h); err != nil || q != p {
				t.Fatalf("korschelt %q: %v does not round-trip", s, p)
			}
		}
		if p, err := ParseJapanese(s, w, h); err == nil {
			if q, err := ParseJapanese(FormatJapanese(p, w, h), w, h); err != nil || q != p {
				t.Fatalf("japanese %q: %v does not round-trip", s, p)
			}
		}
	})
}

func FuzzParseBoard(f *testing.F) {
	f.Add(scoringBoard)
	f.Add("X O\nO X")
	f.Add("...\n.X.\n...")
	f.Fuzz(func(t *testing.T, s string) {
		b, err := ParseBoard(s)
		if err != nil {
			return
		}
		again, err := ParseBoard(b.String())
		if err != nil || again.String() != b.String() {
			t.Fatalf("board does not round-trip: %v", err)
		}
	})
}

func clampSize(n int) int {
	if n < 0 {
		n = -n
	}
	return MinSize + n%(MaxSize-MinSize+1)
}

// TestParseKorscheltMoves reads move lists in Pfaundler's notation: the
// moves played, the board after them, and errors at their line and column.
func TestParseKorscheltMoves(t *testing.T) {
	tests := []struct {
		name, in string
		size     int
		moves    string // the moves as GTP vertices, "B D4 W pass ..."
		board    string // the board after them, when it matters
	}{
		{"book's example", "S. d3, f4; e5", 19, "B D3 W F4 B E5", ""},
		{"single capture", "S. d4, e4; e5, a1; f4, a2; e3 (e4)", 19, "B D4 W E4 B E5 W A1 B F4 W A2 B E3", ""},
		{"two stones", "S. d4, e4; d5, e5; f4, a1; f5, a2; e6, a3; e3 (2)", 19,
			"B D4 W E4 B D5 W E5 B F4 W A1 B F5 W A2 B E6 W A3 B E3", ""},
		{"a note of one stone by number", "S. b1, a1; a2 (1)", 9, "B B1 W A1 B A2", ""},
		{"no j column, a pass", "S. i4, k4; l4, pass", 19, "B J4 W K4 B L4 W pass", ""},
		{"colours that do not alternate", "S. d4; S. q16, d16", 19, "B D4 B Q16 W D16", ""},
		{"handicap and White first", "S.: q16, d4.\nW. d16", 19, "W D16", ""},
		{"setup only", "S.: c7, d6.\nW.: e5.", 9, "", `
. . . . . . . . .
. . . . . . . . .
. . X . . . . . .
. . . X . . . . .
. . . . O . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .`},
		{"free spacing, lines, final dot, capitals", "  W.  C7 ,D6\n;\tE5,PASS .  ", 9, "W C7 B D6 W E5 B pass", ""},
		{"empty", "", 9, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := MustNewGame(tt.size, tt.size, MustRuleset("japanese"))
			moves, err := ParseKorscheltMoves(g, tt.in)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, m := range moves {
				got = append(got, map[Color]string{Black: "B", White: "W"}[m.Color], FormatMoveVertex(m, tt.size))
			}
			if s := strings.Join(got, " "); s != tt.moves {
				t.Errorf("moves %q, want %q", s, tt.moves)
			}
			if len(g.Moves()) != len(moves) {
				t.Errorf("%d moves played, %d returned", len(g.Moves()), len(moves))
			}
			if tt.board != "" && g.Board().String() != mustParse(t, tt.board).String() {
				t.Errorf("board\n%s\nwant\n%s", g.Board(), tt.board)
			}
		})
	}
	errs := []struct {
		in        string
		line, col int
		msg       string
	}{
		{"d4, e4", 1, 1, "must begin with the colour"},
		{"S. d4 e4", 1, 7, "expected between two moves"},
		{"S. d4,, e4", 1, 7, "a move expected"},
		{"S. d4,", 1, 7, "a move expected at the end"},
		{"S. j4", 1, 4, "not a column letter"},
		{"S. d4, d4", 1, 8, "occupied"},
		{"S. d4, e4 (d4)", 1, 12, "move took 0 stones"},
		{"S. b1, a1; a2 (2)", 1, 16, "the note says 2 captured, the move took 1"},
		{"S. b1, a1; a2 (a3)", 1, 16, "move took 1 stones (a1)"},
		{"S. b1, a1; a2 (a1) (a1)", 1, 20, "belongs after a move"},
		{"S. d4 (e4", 1, 7, "unclosed"},
		{"S. d4.\nW. e4", 2, 1, "after the final"},
		{"S. d4\nS.: e4.", 2, 1, "set up after the first move"},
		{"S.: d4, d4.", 1, 9, "set up twice"},
		{"S.: d4,", 1, 8, "a point expected"},
		{"S. d4, e4 W. f4", 1, 11, "before a new colour"},
		{"S. d4 # e4", 1, 7, "expected between two moves"},
		{"S. d4, t9", 1, 8, "off a board 9 wide"},
		{"S. d4, d10", 1, 9, "off a board 9 high"},
	}
	for _, tt := range errs {
		g := MustNewGame(9, 9, MustRuleset("japanese"))
		_, err := ParseKorscheltMoves(g, tt.in)
		var ne *NotationError
		if !errors.As(err, &ne) || ne.Line != tt.line || ne.Col != tt.col || !strings.Contains(ne.Msg, tt.msg) {
			t.Errorf("%q: error %v, want %d:%d: ...%s...", tt.in, err, tt.line, tt.col, tt.msg)
		}
	}
}

// FuzzParseKorscheltMoves checks that the move-list parser never panics,
// that its errors have a position inside the input, and that what it
// accepts it has played.
func FuzzParseKorscheltMoves(f *testing.F) {
	for _, s := range []string{
		"S. d4, e4; e5, a1; f4, a2; e3 (e4)", "S.: q16, d4.\nW. d16", "S. d4; S. q16, d16", "W. pass, pass.",
		"S. b1, a1; a2 (1)", "S.: a1, b2.\nW.: c3\nS. (", "S. d4 (", ")", "S.:", "W.\n\n,", "S. k10 (k10)",
	} {
		f.Add(s, 9)
		f.Add(s, 19)
	}
	f.Fuzz(func(t *testing.T, s string, size int) {
		size = clampSize(size)
		g := MustNewGame(size, size, MustRuleset("chinese"))
		moves, err := ParseKorscheltMoves(g, s)
		if len(g.Moves()) != len(moves) {
			t.Fatalf("%q: %d moves played, %d returned", s, len(g.Moves()), len(moves))
		}
		if err == nil {
			return
		}
		var ne *NotationError
		if !errors.As(err, &ne) {
			t.Fatalf("%q: error %v is not a *NotationError", s, err)
		}
		lines := strings.Split(s, "\n")
		if ne.Line < 1 || ne.Line > len(lines) || ne.Col < 1 || ne.Col > len(lines[ne.Line-1])+1 {
			t.Fatalf("%q: error %v is off the input", s, err)
		}
	})
}
