package goban

import "testing"

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
