package gtp

import (
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
)

func TestPreprocess(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"name", "name"},
		{"play\tblack\tD4", "play black D4"},
		{"play black D4 # a comment", "play black D4 "},
		{"# only a comment", ""},
		{"na\x00m\x01e\r", "name"},
		{"a\x7fb", "ab"},
		{"boardsize 19\r", "boardsize 19"},
		{"komi 6.5#x#y", "komi 6.5"},
		{"\xc3\xa4 stays", "\xc3\xa4 stays"},
	}
	for _, tt := range tests {
		if got := Preprocess(tt.in); got != tt.want {
			t.Errorf("Preprocess(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestParseCommand(t *testing.T) {
	tests := []struct {
		in     string
		want   Command
		ok     bool
		errCol int // 0: no error
	}{
		{in: "", ok: false},
		{in: "   \t ", ok: false},
		{in: "# comment", ok: false},
		{in: "name", want: Command{Name: "name", Line: 1}, ok: true},
		{in: "12 name", want: Command{ID: 12, HasID: true, Name: "name", Line: 1}, ok: true},
		{in: "0 name", want: Command{ID: 0, HasID: true, Name: "name", Line: 1}, ok: true},
		{in: "  7\tplay  black\tD4  # x", want: Command{ID: 7, HasID: true, Name: "play", Args: []string{"black", "D4"}, Line: 1}, ok: true},
		{in: "12abc x", want: Command{Name: "12abc", Args: []string{"x"}, Line: 1}, ok: true},
		{in: "-3 name", want: Command{Name: "-3", Args: []string{"name"}, Line: 1}, ok: true},
		{in: "PLAY b a1", want: Command{Name: "PLAY", Args: []string{"b", "a1"}, Line: 1}, ok: true},
		{in: "12", ok: true, errCol: 3},
		{in: "12   # c", ok: true, errCol: 6},
		{in: "99999999999999999999999 name", ok: true, errCol: 1},
	}
	for _, tt := range tests {
		got, ok, err := ParseCommand(tt.in)
		if ok != tt.ok {
			t.Errorf("ParseCommand(%q) ok = %v, want %v", tt.in, ok, tt.ok)
		}
		if tt.errCol != 0 {
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Errorf("ParseCommand(%q) error = %v, want *SyntaxError", tt.in, err)
				continue
			}
			if se.Line != 1 || se.Col != tt.errCol {
				t.Errorf("ParseCommand(%q) error at %d:%d, want 1:%d", tt.in, se.Line, se.Col, tt.errCol)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseCommand(%q) error: %v", tt.in, err)
			continue
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ParseCommand(%q) = %#v, want %#v", tt.in, got, tt.want)
		}
	}
}

func TestReaderLineNumbers(t *testing.T) {
	in := "name\n\n# comment\r\n3 version\n12\n  \nquit"
	r := NewReader(strings.NewReader(in))
	type step struct {
		name    string
		line    int
		errLine int
	}
	want := []step{{name: "name", line: 1}, {name: "version", line: 4}, {errLine: 5}, {name: "quit", line: 7}}
	for i, w := range want {
		cmd, err := r.Next()
		if w.errLine != 0 {
			var se *SyntaxError
			if !errors.As(err, &se) || se.Line != w.errLine {
				t.Fatalf("step %d: got %v, want syntax error on line %d", i, err, w.errLine)
			}
			if !se.HasID || se.ID != 12 {
				t.Errorf("step %d: syntax error lost id: %+v", i, se)
			}
			continue
		}
		if err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		if cmd.Name != w.name || cmd.Line != w.line {
			t.Errorf("step %d: got %q on line %d, want %q on line %d", i, cmd.Name, cmd.Line, w.name, w.line)
		}
	}
	if _, err := r.Next(); err != io.EOF {
		t.Errorf("after last command: %v, want io.EOF", err)
	}
}

func TestReaderLongLine(t *testing.T) {
	in := "name\n" + strings.Repeat("x", MaxLineLength+10) + "\nversion\n"
	r := NewReader(strings.NewReader(in))
	if cmd, err := r.Next(); err != nil || cmd.Name != "name" {
		t.Fatalf("first: %v %v", cmd, err)
	}
	_, err := r.Next()
	var se *SyntaxError
	if !errors.As(err, &se) || se.Line != 2 {
		t.Fatalf("long line: %v, want syntax error on line 2", err)
	}
	if cmd, err := r.Next(); err != nil || cmd.Name != "version" || cmd.Line != 3 {
		t.Fatalf("after long line: %+v %v", cmd, err)
	}
}

func TestCommandString(t *testing.T) {
	for _, line := range []string{"name", "5 play black D4", "0 quit"} {
		cmd, _, err := ParseCommand(line)
		if err != nil {
			t.Fatal(err)
		}
		if got := cmd.String(); got != line {
			t.Errorf("String() = %q, want %q", got, line)
		}
	}
}

// FuzzParseCommand checks that parsing never panics, that errors carry
// positions inside the line, and that a parsed command survives formatting.
func FuzzParseCommand(f *testing.F) {
	for _, s := range []string{"", "name", "12 play black D4", "1 # c", "\t3\tkomi 6.5\r", "99999999999999999999999 x", "12", "a\x00b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		if strings.Contains(line, "\n") {
			return
		}
		cmd, ok, err := ParseCommand(line)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("error of type %T", err)
			}
			if se.Line != 1 || se.Col < 1 || se.Col > len(line)+1 {
				t.Fatalf("error position %d:%d outside line of length %d", se.Line, se.Col, len(line))
			}
			return
		}
		if !ok {
			if strings.TrimSpace(Preprocess(line)) != "" {
				t.Fatalf("line %q with content reported empty", line)
			}
			return
		}
		again, ok2, err2 := ParseCommand(cmd.String())
		if err2 != nil || !ok2 || !reflect.DeepEqual(again, cmd) {
			t.Fatalf("round trip of %q: %#v -> %q -> %#v %v", line, cmd, cmd.String(), again, err2)
		}
	})
}
