package gtp

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Response is one engine response as a controller sees it.
type Response struct {
	// OK is true for a success response ('=') and false for a failure ('?').
	OK bool
	// ID is the echoed command id; HasID says whether the engine echoed
	// one.
	ID    int
	HasID bool
	// Text is the response body without the status prefix, the id, the
	// separating space and the final empty line. Lines of a multi-line
	// response are joined with "\n".
	Text string
}

// Error is the error a controller returns for a failure response.
type Error struct {
	// Command is the command line that failed, without its id.
	Command string
	// Message is the engine's error message, e.g. "illegal move: ko".
	Message string
}

// Error formats the error as `gtp: "command": message`.
func (e *Error) Error() string {
	return fmt.Sprintf("gtp: %q: %s", e.Command, e.Message)
}

// cleanBody makes text safe to send as a response body: CR and other control
// characters except LF are dropped, HT becomes a space, empty lines (which
// would end the response early) are removed, and trailing newlines are cut.
func cleanBody(text string) string {
	if !needsCleaning(text) {
		return text
	}
	var b strings.Builder
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c == '\n':
			// Skip a newline that would start an empty line or end the body.
			if b.Len() == 0 || strings.HasSuffix(b.String(), "\n") {
				continue
			}
			b.WriteByte('\n')
		case c == '\t':
			b.WriteByte(' ')
		case c < 32 || c == 127:
		default:
			b.WriteByte(c)
		}
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func needsCleaning(text string) bool {
	if strings.HasPrefix(text, "\n") || strings.HasSuffix(text, "\n") || strings.Contains(text, "\n\n") {
		return true
	}
	for i := 0; i < len(text); i++ {
		if c := text[i]; (c < 32 && c != '\n') || c == 127 {
			return true
		}
	}
	return false
}

// writeHeader writes "=id" or "?id" without anything after it.
func writeHeader(w *bufio.Writer, ok bool, id int, hasID bool) {
	if ok {
		w.WriteByte('=')
	} else {
		w.WriteByte('?')
	}
	if hasID {
		w.WriteString(strconv.Itoa(id))
	}
}

// WriteResponse writes one complete response, ended by an empty line, and
// flushes w. A body that starts with a newline (a board diagram) is written
// after "= " as GNU Go does; an empty body gives just "=id".
func WriteResponse(w *bufio.Writer, ok bool, id int, hasID bool, text string) error {
	writeHeader(w, ok, id, hasID)
	startsLine := strings.HasPrefix(text, "\n")
	text = cleanBody(text)
	if text != "" {
		w.WriteByte(' ')
		if startsLine {
			w.WriteByte('\n')
		}
		w.WriteString(text)
	}
	w.WriteString("\n\n")
	return w.Flush()
}

// ResponseReader reads engine responses from a byte stream.
type ResponseReader struct {
	r    *bufio.Reader
	line int
	// Noise receives lines that appear outside a response (some engines
	// print banners on stdout); nil drops them.
	Noise func(line string)
	// Partial, if not nil, receives each non-empty body line of a response
	// as soon as it is read, with the response's status and id filled in,
	// for analysis output that grows until the command is stopped.
	Partial func(head Response, line string)
}

// NewResponseReader returns a ResponseReader that reads from r.
func NewResponseReader(r io.Reader) *ResponseReader {
	return &ResponseReader{r: bufio.NewReader(r)}
}

// Next reads the next response. It returns io.EOF at the end of input before a
// response starts and io.ErrUnexpectedEOF when the input ends inside one. A
// status line with a malformed id yields a *[SyntaxError].
func (rr *ResponseReader) Next() (Response, error) {
	var resp Response
	var body []string
	started := false
	for {
		line, err := rr.r.ReadString('\n')
		if line == "" && err != nil {
			if started && errors.Is(err, io.EOF) {
				return Response{}, io.ErrUnexpectedEOF
			}
			return Response{}, err
		}
		rr.line++
		line = strings.TrimRight(line, "\r\n")
		if !started {
			if line == "" {
				continue
			}
			if line[0] != '=' && line[0] != '?' {
				if rr.Noise != nil {
					rr.Noise(line)
				}
				if err != nil {
					return Response{}, io.EOF
				}
				continue
			}
			started = true
			resp.OK = line[0] == '='
			rest := line[1:]
			n := 0
			for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
				n++
			}
			if n > 0 {
				id, perr := strconv.Atoi(rest[:n])
				if perr != nil {
					return Response{}, &SyntaxError{Line: rr.line, Col: 2, Msg: "response id out of range"}
				}
				resp.ID, resp.HasID = id, true
			}
			rest = rest[n:]
			if rest != "" && rest[0] != ' ' && rest[0] != '\t' {
				return Response{}, &SyntaxError{Line: rr.line, Col: n + 2, Msg: "expected space after response status"}
			}
			first := strings.TrimLeft(rest, " \t")
			body = append(body, first)
			if rr.Partial != nil && first != "" {
				rr.Partial(resp, first)
			}
		} else {
			if line == "" {
				return rr.finish(resp, body), nil
			}
			body = append(body, line)
			if rr.Partial != nil {
				rr.Partial(resp, line)
			}
		}
		if err != nil {
			if started {
				return Response{}, io.ErrUnexpectedEOF
			}
			return Response{}, err
		}
	}
}

func (rr *ResponseReader) finish(resp Response, body []string) Response {
	// A body that starts on the line after the status (a board diagram)
	// keeps no leading empty line: callers get the lines themselves.
	if len(body) > 1 && body[0] == "" {
		body = body[1:]
	}
	resp.Text = strings.Join(body, "\n")
	return resp
}
