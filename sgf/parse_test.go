package sgf

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/korean"
	"golang.org/x/text/encoding/simplifiedchinese"
)

// props renders a node's properties compactly: "B[pd] C[x]".
func props(n *Node) string {
	var parts []string
	for _, p := range n.Props {
		parts = append(parts, p.ID+"["+strings.Join(p.Values, "][")+"]")
	}
	return strings.Join(parts, " ")
}

func TestParseQuirks(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		root  string   // properties of the first root node
		line  []string // properties of the main line after the root
		warns []string // substrings of the warnings, in order
	}{
		{"plain", "(;GM[1]SZ[19];B[pd];W[dp])", "GM[1] SZ[19]", []string{"B[pd]", "W[dp]"}, nil},
		{"white space", " ( ; GM [1] \n SZ[19] ; B [pd] [x] )", "GM[1] SZ[19]", []string{"B[pd][x]"}, nil},
		{"escapes kept raw", `(;C[a\]b\\c\:d])`, `C[a\]b\\c\:d]`, nil, nil},
		{"crlf normalised", "(;C[a\r\nb\n\rc\rd])", "C[a\nb\nc\nd]", nil, nil},
		{"soft break crlf", "(;C[a\\\r\nb])", "C[a\\\nb]", nil, nil},
		{"ff3 lowercase", "(;CoPyright[x]GaMe[1])", "CP[x] GM[1]", nil,
			[]string{`1:3: property identifier "CoPyright" read as "CP"`, `"GaMe" read as "GM"`}},
		{"all lowercase id", "(;b[aa])", "B[aa]", nil, []string{`"b" read as "B"`}},
		{"text before", "hello\n(;GM[1])", "GM[1]", nil, []string{"1:1: ignored 6 bytes of text before"}},
		{"stray bracket text", "(;C[see [dd] here];B[aa])", `C[see [dd\] here]`, []string{"B[aa]"},
			[]string{`1:12: unescaped "]"`}},
		{"stray bracket double", "(;C[x]];B[aa])", `C[x\]]`, []string{"B[aa]"}, []string{`1:6: unescaped "]"`}},
		{"bracket before property", "(;C[x]PB[y])", "C[x] PB[y]", nil, nil},
		{"bracket before valueless property", "(;C[x]PB;B[aa])", "C[x]", []string{"B[aa]"},
			[]string{"property PB without a value ignored"}},
		{"duplicates merged", "(;AB[aa]AW[bb]AB[cc])", "AB[aa][cc] AW[bb]", nil,
			[]string{"1:15: duplicate property AB"}},
		{"missing parens", "(;GM[1];B[aa]", "GM[1]", []string{"B[aa]"}, []string{"missing 1 closing"}},
		{"empty variation", "(;GM[1]();B[aa])", "GM[1]", []string{"B[aa]"}, []string{"1:9: empty variation"}},
		{"junk between nodes", "(;GM[1] 12 ;B[aa])", "GM[1]", []string{"B[aa]"}, []string{`1:9: ignored unexpected text "12 "`}},
		{"pass forms", "(;GM[1];B[];W[tt])", "GM[1]", []string{"B[]", "W[tt]"}, nil},
		{"node after variation", "(;GM[1](;B[aa]);B[bb])", "GM[1]", []string{"B[aa]"}, nil},
		{"unknown property", "(;XX[1][2]YY[];B[aa]ZZ[q])", "XX[1][2] YY[]", []string{"B[aa] ZZ[q]"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Parse([]byte(tt.in))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			root := c.Games[0]
			if got := props(root); got != tt.root {
				t.Errorf("root = %q, want %q", got, tt.root)
			}
			var line []string
			for _, n := range root.MainLine()[1:] {
				line = append(line, props(n))
			}
			if strings.Join(line, "|") != strings.Join(tt.line, "|") {
				t.Errorf("main line = %q, want %q", line, tt.line)
			}
			ws := c.Warnings.String()
			if len(tt.warns) == 0 && ws != "" {
				t.Errorf("unexpected warnings:\n%s", ws)
			}
			rest := ws
			for _, w := range tt.warns {
				k := strings.Index(rest, w)
				if k < 0 {
					t.Errorf("warnings lack %q (in order):\n%s", w, ws)
					break
				}
				rest = rest[k+len(w):]
			}
			checkRoundTrip(t, c)
		})
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		in   string
		want string // the error's text
	}{
		{"", `1:1: no SGF game tree found (expected "(;")`},
		{"hello\nworld", `2:6: no SGF game tree found (expected "(;")`},
		{"(;GM[1]\nC[abc", `2:2: property value not terminated: missing "]"`},
		{"(;C[abc\\]", `1:4: property value not terminated: missing "]"`},
		{"(;C[ä\nöü[x", `1:4: property value not terminated: missing "]"`},
		{"(;GM[1];\n  B[aa\n", `2:4: property value not terminated: missing "]"`},
	}
	for _, tt := range tests {
		_, err := Parse([]byte(tt.in))
		var el ErrorList
		if !errors.As(err, &el) || len(el) == 0 {
			t.Errorf("Parse(%q) error = %v, want an ErrorList", tt.in, err)
			continue
		}
		if got := el[0].Error(); got != tt.want {
			t.Errorf("Parse(%q) error = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestPositionsLineBreaks(t *testing.T) {
	for _, nl := range []string{"\n", "\r\n", "\r"} {
		in := "(;GM[1]" + nl + ";B[aa]" + nl + nl + "  ;W[bb]C)"
		c, err := Parse([]byte(in))
		if err != nil {
			t.Fatal(err)
		}
		line := c.Games[0].MainLine()
		if line[1].Pos != (Position{2, 1}) || line[2].Pos != (Position{4, 3}) {
			t.Errorf("%q: positions %v %v", nl, line[1].Pos, line[2].Pos)
		}
		if w := c.Warnings.String(); !strings.HasPrefix(w, "4:9: property C without a value") {
			t.Errorf("%q: warning %q", nl, w)
		}
	}
}

func TestPositionsCountCharacters(t *testing.T) {
	c, err := Parse([]byte("(;PB[伊藤]C[é];B[aa]\n  ;W[bb])"))
	if err != nil {
		t.Fatal(err)
	}
	line := c.Games[0].MainLine()
	want := []Position{{1, 2}, {1, 13}, {2, 3}}
	for i, n := range line {
		if n.Pos != want[i] {
			t.Errorf("node %d at %v, want %v", i, n.Pos, want[i])
		}
	}
}

// nested builds n variations nested inside each other, as OGS writes them.
func nested(n int) []byte {
	var b bytes.Buffer
	b.WriteString("(;GM[1]SZ[19]")
	for i := 0; i < n; i++ {
		c := "B"
		if i%2 == 1 {
			c = "W"
		}
		b.WriteString("(;" + c + "[" + FormatPoint(Point{i % 19, (i / 19) % 19}) + "]")
	}
	b.WriteString(strings.Repeat(")", n+1))
	return b.Bytes()
}

func TestDeepNesting(t *testing.T) {
	const depth = 100000
	c, err := Parse(nested(depth))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Warnings) > 0 {
		t.Fatalf("warnings: %v", c.Warnings)
	}
	line := c.Games[0].MainLine()
	if len(line) != depth+1 {
		t.Fatalf("main line has %d nodes, want %d", len(line), depth+1)
	}
	if v, _ := line[depth].Value("W"); v != FormatPoint(Point{(depth - 1) % 19, ((depth - 1) / 19) % 19}) {
		t.Errorf("last move %q", v)
	}
	checkRoundTrip(t, c)
	// Replaying it: the moves cycle over the board, so most are forced onto
	// occupied points, but no variation stops.
	_, illegal, _, errs := ReplayAll(c.Games[0], ReplayOptions{})
	r, err := Replay(c.Games[0], ReplayOptions{Force: true})
	if err != nil || r.Moves != depth {
		t.Fatalf("Replay: %d moves, %v", r.Moves, err)
	}
	if len(errs) > 0 || len(illegal) != len(r.Illegal) || len(illegal) == 0 {
		t.Errorf("ReplayAll: %d illegal moves (Replay: %d), errors %v", len(illegal), len(r.Illegal), errs)
	}
	// Deep variations that really branch: each level has a side variation.
	var b bytes.Buffer
	b.WriteString("(;GM[1]")
	for i := 0; i < depth; i++ {
		b.WriteString("(;B[aa])(;W[bb]")
	}
	b.WriteString(strings.Repeat(")", depth+1))
	c, err = Parse(b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	count := 0
	c.Games[0].Walk(func(*Node) bool { count++; return true })
	if count != 2*depth+1 {
		t.Errorf("%d nodes, want %d", count, 2*depth+1)
	}
	// Checking every variation of a tree that branches at every move would
	// take quadratic time; ReplayAll gives up on side variations instead.
	_, _, warns, errs := ReplayAll(c.Games[0], ReplayOptions{})
	if len(errs) > 0 || !strings.Contains(warns.String(), "too many variations") {
		t.Errorf("ReplayAll on a branching tree: warnings %v, errors %v", warns, errs)
	}
	checkRoundTrip(t, c)
}

func encode(t *testing.T, e encoding.Encoding, s string) []byte {
	t.Helper()
	b, err := e.NewEncoder().Bytes([]byte(s))
	if err != nil {
		t.Fatalf("encode: %v", err)
	}
	return b
}

func TestCharsets(t *testing.T) {
	// In Shift_JIS and GBK, the second byte of some characters is "\" (0x5C)
	// or "]" (0x5D); decoding before parsing keeps them from being read as
	// SGF syntax.
	const sjis = "表示" // 表 is 0x95 0x5C
	tests := []struct {
		name    string
		data    []byte
		charset string
		pb      string
		warn    string
	}{
		{"utf8", []byte("(;CA[UTF-8]PB[Jörg])"), "UTF-8", "Jörg", ""},
		{"utf8 lower", []byte("(;CA[utf8]PB[Jörg])"), "UTF-8", "Jörg", ""},
		{"bom", append([]byte("\xEF\xBB\xBF"), "(;PB[Jörg])"...), "UTF-8", "Jörg", ""},
		{"bom contradicts", append([]byte("\xEF\xBB\xBF"), "(;CA[ISO-8859-1]PB[Jörg])"...), "UTF-8", "Jörg", "contradicts"},
		{"latin1 default", []byte("(;PB[J\xF6rg])"), "ISO-8859-1", "Jörg", "no CA property: read as ISO-8859-1"},
		{"latin1 named", []byte("(;CA[ISO-8859-1]PB[J\xF6rg])"), "ISO-8859-1", "Jörg", ""},
		{"utf8 without CA", []byte("(;PB[Jörg])"), "UTF-8", "Jörg", "valid UTF-8"},
		{"gb18030", append([]byte("(;CA[GB18030]PB["), append(encode(t, simplifiedchinese.GB18030, "柯洁"), ']', ')')...), "GB18030", "柯洁", ""},
		{"gb2312", append([]byte("(;CA[gb2312]PB["), append(encode(t, simplifiedchinese.GBK, "柯洁"), ']', ')')...), "GB18030", "柯洁", ""},
		{"gbk", append([]byte("(;CA[GBK]PB["), append(encode(t, simplifiedchinese.GBK, "柯洁"), ']', ')')...), "GB18030", "柯洁", ""},
		{"shift_jis", append([]byte("(;CA[Shift_JIS]PB["), append(encode(t, japanese.ShiftJIS, sjis), ']', ')')...), "Shift_JIS", sjis, ""},
		{"sjis alias", append([]byte("(;CA[SJIS]PB["), append(encode(t, japanese.ShiftJIS, sjis), ']', ')')...), "Shift_JIS", sjis, ""},
		{"shift-jis misspelt", append([]byte("(;CA[Shift-JIS]PB["), append(encode(t, japanese.ShiftJIS, sjis), ']', ')')...), "Shift_JIS", sjis, ""},
		{"euc-kr", append([]byte("(;CA[EUC-KR]PB["), append(encode(t, korean.EUCKR, "이세돌"), ']', ')')...), "EUC-KR", "이세돌", ""},
		{"unknown charset", []byte("(;CA[klingon]PB[x])"), "UTF-8", "x", "unknown charset"},
		{"invalid utf8", []byte("(;CA[UTF-8]PB[a\xFFb])"), "UTF-8", "a\uFFFDb", "invalid UTF-8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Parse(tt.data)
			if err != nil {
				t.Fatal(err)
			}
			if c.Charset != tt.charset {
				t.Errorf("charset %q, want %q", c.Charset, tt.charset)
			}
			if got := c.Games[0].SimpleText("PB"); got != tt.pb {
				t.Errorf("PB = %q, want %q", got, tt.pb)
			}
			ws := c.Warnings.String()
			if (tt.warn == "") != (ws == "") || !strings.Contains(ws, tt.warn) {
				t.Errorf("warnings %q, want %q", ws, tt.warn)
			}
			if ca, ok := c.Games[0].Value("CA"); ok && ca != "UTF-8" {
				t.Errorf("CA left as %q in the UTF-8 tree", ca)
			}
			out, _ := c.Format()
			if !bytes.HasPrefix(out, []byte("(;FF[4]CA[UTF-8]")) {
				t.Errorf("output starts %q", out)
			}
			checkRoundTrip(t, c)
		})
	}
}

func TestCharsetOverride(t *testing.T) {
	data := append([]byte("(;CA[ISO-8859-1]PB["), append(encode(t, simplifiedchinese.GB18030, "柯洁"), ']', ')')...)
	c, err := ParseOptions(data, Options{Charset: "GB18030"})
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Games[0].SimpleText("PB"); got != "柯洁" {
		t.Errorf("PB = %q", got)
	}
}

func TestWriterCanonical(t *testing.T) {
	root := NewNode()
	root.Set("GM", "1")
	root.Set("FF", "3")
	root.SetText("C", "bracket ] and backslash \\ and colon :")
	root.Set("XX", `raw]bad\`) // breaks the syntax unless escaped
	a := root.AddChild(NewNode())
	a.Set("B", "pd")
	a.AddChild(NewNode()).Set("W", "dd")
	root.AddChild(NewNode()).Set("B", "dp")
	out, err := Format(root)
	if err != nil {
		t.Fatal(err)
	}
	want := "(;FF[4]CA[UTF-8]GM[1]C[bracket \\] and backslash \\\\ and colon :]XX[raw\\]bad\\\\]\n(;B[pd];W[dd])\n(;B[dp]))\n"
	if string(out) != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
	c, err := Parse(out)
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Games[0].Comment(); got != "bracket ] and backslash \\ and colon :" {
		t.Errorf("comment read back as %q", got)
	}
	bad := NewNode()
	bad.Props = append(bad.Props, Property{ID: "b", Values: []string{"x"}})
	if _, err := Format(bad); err == nil {
		t.Error("Format accepted a lower-case identifier")
	}
	bad.Props = []Property{{ID: "B"}}
	if _, err := Format(bad); err == nil {
		t.Error("Format accepted a property without values")
	}
}

func TestNodeEditing(t *testing.T) {
	n := NewNode()
	n.Set("B", "aa")
	n.Set("C", "x")
	n.Set("B", "bb")
	if props(n) != "B[bb] C[x]" {
		t.Errorf("after Set: %s", props(n))
	}
	n.Delete("B")
	n.Set("C")
	if len(n.Props) != 0 {
		t.Errorf("after Delete: %s", props(n))
	}
	// Appending to parsed property slices must not overwrite neighbours
	// that share a slab.
	c, err := Parse([]byte("(;AB[aa];AB[bb];AB[cc])"))
	if err != nil {
		t.Fatal(err)
	}
	line := c.Games[0].MainLine()
	line[0].Props[0].Values = append(line[0].Props[0].Values, "zz")
	line[0].Props = append(line[0].Props, Property{"C", []string{"q"}})
	line[0].Children = append(line[0].Children, NewNode())
	if props(line[1]) != "AB[bb]" || props(line[2]) != "AB[cc]" || len(line[1].Children) != 1 {
		t.Errorf("neighbours changed: %s / %s", props(line[1]), props(line[2]))
	}
}
