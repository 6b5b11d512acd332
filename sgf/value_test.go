package sgf

import (
	"fmt"
	"testing"
)

func TestUnescape(t *testing.T) {
	tests := []struct {
		raw, text, simple string
	}{
		{"plain", "plain", "plain"},
		{`a\]b`, "a]b", "a]b"},
		{`a\\b`, `a\b`, `a\b`},
		{`a\:b`, "a:b", "a:b"},
		{`\x`, "x", "x"},
		{"soft\\\nbreak", "softbreak", "softbreak"},
		{"soft\\\r\nbreak", "softbreak", "softbreak"},
		{"soft\\\n\rbreak", "softbreak", "softbreak"},
		{"hard\nbreak", "hard\nbreak", "hard break"},
		{"hard\r\nbreak", "hard\nbreak", "hard break"},
		{"two\n\nbreaks", "two\n\nbreaks", "two  breaks"},
		{"tab\there\vvt\fff", "tab here vt ff", "tab here vt ff"},
		{`trailing\`, "trailing", "trailing"},
		{`\\\]`, `\]`, `\]`},
	}
	for _, tt := range tests {
		if got := UnescapeText(tt.raw); got != tt.text {
			t.Errorf("UnescapeText(%q) = %q, want %q", tt.raw, got, tt.text)
		}
		if got := UnescapeSimpleText(tt.raw); got != tt.simple {
			t.Errorf("UnescapeSimpleText(%q) = %q, want %q", tt.raw, got, tt.simple)
		}
	}
	for _, s := range []string{"", "a]b", `a\b`, "x\\", "]]\\\\", "line\nbreak", "a:b"} {
		if got := UnescapeText(EscapeText(s)); got != s {
			t.Errorf("UnescapeText(EscapeText(%q)) = %q", s, got)
		}
		l, r, ok := SplitCompose(EscapeComposedText(s) + ":" + EscapeComposedText(s))
		if !ok || UnescapeSimpleText(l) != UnescapeSimpleText(s) && UnescapeText(l) != s || UnescapeText(r) != s {
			t.Errorf("composed %q split into %q, %q, %v", s, l, r, ok)
		}
	}
}

func TestSplitCompose(t *testing.T) {
	tests := []struct {
		raw, l, r string
		ok        bool
	}{
		{"pd:A", "pd", "A", true},
		{"19:13", "19", "13", true},
		{`a\:b:c`, `a\:b`, "c", true},
		{"a:b:c", "a", "b:c", true},
		{"plain", "plain", "", false},
		{`esc\:only`, `esc\:only`, "", false},
		{":", "", "", true},
	}
	for _, tt := range tests {
		l, r, ok := SplitCompose(tt.raw)
		if l != tt.l || r != tt.r || ok != tt.ok {
			t.Errorf("SplitCompose(%q) = %q, %q, %v; want %q, %q, %v", tt.raw, l, r, ok, tt.l, tt.r, tt.ok)
		}
	}
}

func TestPoints(t *testing.T) {
	tests := []struct {
		values []string
		w, h   int
		want   string
		err    bool
	}{
		{[]string{"aa"}, 19, 19, "[aa]", false},
		{[]string{"sa", "as"}, 19, 19, "[sa as]", false},
		{[]string{"aa:cb"}, 19, 19, "[aa ba ca ab bb cb]", false},
		{[]string{"cb:aa"}, 19, 19, "[aa ba ca ab bb cb]", false},
		{[]string{"dd:dd"}, 19, 19, "[dd]", false},
		{[]string{""}, 19, 19, "[]", false},
		{[]string{"Aa"}, 52, 52, "[Aa]", false},
		{[]string{"ZZ"}, 52, 52, "[ZZ]", false},
		{[]string{"tt"}, 19, 19, "[]", true},
		{[]string{"jj"}, 9, 9, "[]", true},
		{[]string{"aa:zz"}, 19, 19, "[]", true},
		{[]string{"a"}, 19, 19, "[]", true},
		{[]string{"a1"}, 19, 19, "[]", true},
		{[]string{"ss"}, 19, 13, "[]", true},
		{[]string{"sm"}, 19, 13, "[sm]", false},
	}
	for _, tt := range tests {
		pts, err := ExpandPoints(tt.values, tt.w, tt.h)
		got := fmt.Sprint(pts)
		if pts == nil {
			got = "[]"
		}
		if got != tt.want || (err != nil) != tt.err {
			t.Errorf("ExpandPoints(%q, %d, %d) = %s, %v; want %s, error %v", tt.values, tt.w, tt.h, got, err, tt.want, tt.err)
		}
	}
}

func TestMove(t *testing.T) {
	tests := []struct {
		node string
		w, h int
		want string // move, "none", or "error"
	}{
		{"B[pd]", 19, 19, "B[pd]"},
		{"W[]", 19, 19, "W[]"},
		{"B[tt]", 19, 19, "B[]"},
		{"B[tt]", 9, 9, "B[]"},
		{"B[tt]", 21, 21, "B[tt]"},
		{"B[tt]", 19, 21, "error"},
		{"B[jj]", 9, 9, "error"},
		{"B[aa]W[bb]", 19, 19, "error"},
		{"B[a]", 19, 19, "error"},
		{"C[x]", 19, 19, "none"},
		{"B[ pd ]", 19, 19, "B[pd]"},
	}
	for _, tt := range tests {
		c, err := Parse([]byte("(;" + tt.node + ")"))
		if err != nil {
			t.Fatal(err)
		}
		m, ok, err := c.Games[0].Move(tt.w, tt.h)
		got := m.String()
		switch {
		case !ok:
			got = "none"
		case err != nil:
			got = "error"
		}
		if got != tt.want {
			t.Errorf("%s on %dx%d: got %s (%v), want %s", tt.node, tt.w, tt.h, got, err, tt.want)
		}
	}
}

func TestLabels(t *testing.T) {
	c, err := Parse([]byte(`(;LB[pd:A][dd:long\: text\]][jj:multi` + "\n" + `line])`))
	if err != nil {
		t.Fatal(err)
	}
	ls, err := c.Games[0].Labels(19, 19)
	if err != nil {
		t.Fatal(err)
	}
	want := "[{pd A} {dd long: text]} {jj multi line}]"
	if fmt.Sprint(ls) != want {
		t.Errorf("labels %v, want %s", ls, want)
	}
	c, _ = Parse([]byte(`(;LB[pd])`))
	if _, err := c.Games[0].Labels(19, 19); err == nil {
		t.Error("label without text accepted")
	}
}
