package gtp

import (
	"bufio"
	"errors"
	"io"
	"strings"
	"testing"
)

func TestWriteResponse(t *testing.T) {
	tests := []struct {
		ok    bool
		id    int
		hasID bool
		text  string
		want  string
	}{
		{true, 0, false, "", "=\n\n"},
		{true, 12, true, "", "=12\n\n"},
		{false, 3, true, "unknown command", "?3 unknown command\n\n"},
		{true, 0, false, "a\nb", "= a\nb\n\n"},
		{true, 0, false, "\n  A B\n1 . .\n", "= \n  A B\n1 . .\n\n"},
		{true, 0, false, "a\n\n\nb\n\n", "= a\nb\n\n"},
		{true, 0, false, "x\ty\rz", "= x yz\n\n"},
	}
	for _, tt := range tests {
		var b strings.Builder
		bw := bufio.NewWriter(&b)
		if err := WriteResponse(bw, tt.ok, tt.id, tt.hasID, tt.text); err != nil {
			t.Fatal(err)
		}
		if b.String() != tt.want {
			t.Errorf("WriteResponse(%v, %d, %v, %q) = %q, want %q", tt.ok, tt.id, tt.hasID, tt.text, b.String(), tt.want)
		}
	}
}

func TestResponseReader(t *testing.T) {
	in := "GNU Go banner\n= 2\n\n=7 \n   A B\n 2 . .\n\n?8 illegal move\n\n=\r\n\r\n= a\nb"
	rr := NewResponseReader(strings.NewReader(in))
	var noise []string
	rr.Noise = func(l string) { noise = append(noise, l) }
	want := []Response{
		{OK: true, Text: "2"},
		{OK: true, ID: 7, HasID: true, Text: "   A B\n 2 . ."},
		{OK: false, ID: 8, HasID: true, Text: "illegal move"},
		{OK: true},
	}
	for i, w := range want {
		got, err := rr.Next()
		if err != nil {
			t.Fatalf("response %d: %v", i, err)
		}
		if got != w {
			t.Errorf("response %d = %+v, want %+v", i, got, w)
		}
	}
	if _, err := rr.Next(); err != io.ErrUnexpectedEOF {
		t.Errorf("truncated response: %v, want io.ErrUnexpectedEOF", err)
	}
	if len(noise) != 1 || noise[0] != "GNU Go banner" {
		t.Errorf("noise = %q", noise)
	}
	bad := NewResponseReader(strings.NewReader("=12x\n\n"))
	var se *SyntaxError
	if _, err := bad.Next(); !errors.As(err, &se) || se.Col != 4 {
		t.Errorf("malformed status: %v, want syntax error at column 4", err)
	}
}

// FuzzResponseRoundTrip writes arbitrary bodies and reads them back: what the
// reader returns must be what the writer meant to send after cleaning.
func FuzzResponseRoundTrip(f *testing.F) {
	f.Add(true, 5, "text")
	f.Add(false, -1, "a\n\nb")
	f.Add(true, 0, "\n  A B\n")
	f.Fuzz(func(t *testing.T, ok bool, id int, text string) {
		hasID := id >= 0
		if !hasID {
			id = 0
		}
		var b strings.Builder
		bw := bufio.NewWriter(&b)
		if err := WriteResponse(bw, ok, id, hasID, text); err != nil {
			t.Fatal(err)
		}
		rr := NewResponseReader(strings.NewReader(b.String()))
		got, err := rr.Next()
		if err != nil {
			t.Fatalf("reading %q: %v", b.String(), err)
		}
		want := Response{OK: ok, ID: id, HasID: hasID, Text: readerView(text)}
		if got != want {
			t.Fatalf("wrote %q, read %+v, want %+v", b.String(), got, want)
		}
		if _, err := rr.Next(); err != io.EOF {
			t.Fatalf("extra data after response %q: %v", b.String(), err)
		}
	})
}

// FuzzResponseReader feeds arbitrary engine output to the reader, which must
// never panic and must report positions inside the input.
func FuzzResponseReader(f *testing.F) {
	f.Add("= 2\n\n?3 no\n\n")
	f.Add("=99999999999999999999999\n\n")
	f.Add("junk\n=1x\n")
	f.Fuzz(func(t *testing.T, in string) {
		rr := NewResponseReader(strings.NewReader(in))
		for range 1000 {
			_, err := rr.Next()
			var se *SyntaxError
			if errors.As(err, &se) {
				if se.Line < 1 || se.Line > strings.Count(in, "\n")+1 {
					t.Fatalf("error line %d outside input", se.Line)
				}
				continue
			}
			if err != nil {
				return
			}
		}
	})
}

// readerView is what a controller sees of a cleaned body: spaces after the
// status are separators, and a blank first line only marks a diagram that
// starts on the next line.
func readerView(text string) string {
	body := cleanBody(text)
	if strings.HasPrefix(text, "\n") && body != "" {
		body = "\n" + body
	}
	lines := strings.Split(body, "\n")
	lines[0] = strings.TrimLeft(lines[0], " ")
	if len(lines) > 1 && lines[0] == "" {
		lines = lines[1:]
	}
	return strings.Join(lines, "\n")
}
