package sgf

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

func addSeeds(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.sgf")
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err == nil {
			f.Add(data)
		}
	}
	for _, s := range []string{"", "(;)", "((;))", "(;B[aa](;W[bb])(;W[cc]))", "(;C[a\\", "(;C[a]b]c)", "x(;CA[gb2312]C[\xb0\xa1])"} {
		f.Add([]byte(s))
	}
}

// FuzzParse checks that the parser never panics and that the writer's output
// of whatever it read parses back to the same tree, cleanly, and formats to
// the same bytes.
func FuzzParse(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Parse(data)
		if c == nil {
			t.Fatalf("nil collection (error %v)", err)
		}
		if err != nil {
			if _, ok := err.(ErrorList); !ok {
				t.Fatalf("error of type %T", err)
			}
		}
		for _, g := range c.Games {
			g.GameInfo() // must not panic either
			for _, n := range g.MainLine() {
				n.Move(19, 19)
				n.Points("AB", 19, 19)
				n.Labels(19, 19)
			}
		}
		out, ferr := c.Format()
		if ferr != nil {
			t.Fatalf("Format: %v", ferr)
		}
		if !utf8.Valid(out) {
			t.Fatalf("output is not UTF-8: %q", out)
		}
		c2, err := Parse(out)
		if len(c.Games) == 0 {
			return
		}
		if err != nil {
			t.Fatalf("output does not parse: %v\n%q", err, out)
		}
		if len(c2.Warnings) > 0 {
			t.Fatalf("output parses with warnings: %v\n%q", c2.Warnings, out)
		}
		if len(c2.Games) != len(c.Games) {
			t.Fatalf("%d games, want %d\n%q", len(c2.Games), len(c.Games), out)
		}
		for i := range c.Games {
			if !EqualCanonical(c.Games[i], c2.Games[i]) {
				t.Fatalf("game %d changed in the round trip\n%q", i, out)
			}
		}
		out2, err := c2.Format()
		if err != nil || string(out2) != string(out) {
			t.Fatalf("second Format differs: %v\n%q\n%q", err, out, out2)
		}
	})
}

// FuzzEscape checks escaping: plain text stored with SetText comes back from
// a written and parsed file as the same text, composed values split where
// they were joined, and any raw value is written so that it parses back.
func FuzzEscape(f *testing.F) {
	for _, s := range []string{"", "]", "\\", "a:b", "\\]\\", "line\nbreak", "soft\\\nbreak", "x]\\:y", "表", "\r\n"} {
		f.Add(s, "label")
	}
	f.Fuzz(func(t *testing.T, s, label string) {
		if !utf8.ValidString(s) || !utf8.ValidString(label) {
			return
		}
		// Text loses only what its definition says: tabs and other white
		// space become spaces, and line breaks are normalised.
		want := strings.NewReplacer("\r\n", "\n", "\n\r", "\n", "\r", "\n", "\t", " ", "\v", " ", "\f", " ").Replace(s)
		if got := UnescapeText(EscapeText(s)); got != want {
			t.Fatalf("UnescapeText(EscapeText(%q)) = %q, want %q", s, got, want)
		}
		l, r, ok := SplitCompose(EscapeComposedText(s) + ":" + EscapeComposedText(label))
		if !ok || UnescapeText(l) != want {
			t.Fatalf("composed split %q, %q, %v", l, r, ok)
		}
		n := NewNode()
		n.SetText("C", s)
		n.Set("XX", s) // a raw value that may break the syntax
		n.Set("LB", "aa:"+EscapeComposedText(label))
		out, err := Format(n)
		if err != nil {
			t.Fatal(err)
		}
		c, err := Parse(out)
		if err != nil || len(c.Warnings) > 0 {
			t.Fatalf("%v %v\n%q", err, c.Warnings, out)
		}
		if got := c.Games[0].Comment(); got != want {
			t.Fatalf("comment read back as %q, want %q", got, want)
		}
		ls, err := c.Games[0].Labels(19, 19)
		wantLabel := UnescapeSimpleText(EscapeText(label))
		if err != nil || len(ls) != 1 || ls[0].Text != wantLabel {
			t.Fatalf("label read back as %v, %v; want %q", ls, err, wantLabel)
		}
		out2, err := c.Format()
		if err != nil || string(out2) != string(out) {
			t.Fatalf("second Format differs:\n%q\n%q", out, out2)
		}
	})
}

// FuzzCheck checks that replaying whatever the parser reads never panics:
// Check, Korschelt and GTPCommands on every game, and FromGame on the result.
func FuzzCheck(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		rep := Check(data, Options{})
		if rep.Collection == nil {
			return
		}
		for _, g := range rep.Collection.Games {
			Korschelt(g, ReplayOptions{Force: true})
			GTPCommands(g, ReplayOptions{})
			if r, _ := Replay(g, ReplayOptions{Force: true}); r != nil && r.Game != nil {
				if _, err := Format(FromGame(r.Game, r.Info)); err != nil {
					t.Fatalf("FromGame output does not format: %v", err)
				}
			}
		}
	})
}
