package gtp

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// MaxLineLength is the longest input line, in bytes before preprocessing,
// that a [Reader] accepts. Longer lines are skipped and reported as a
// [SyntaxError] so that a runaway controller cannot make the engine buffer
// unbounded input.
const MaxLineLength = 1 << 20

// Command is one parsed GTP command line.
type Command struct {
	// ID is the numeric identity given before the command name; it is only
	// meaningful when HasID is true.
	ID int
	// HasID reports whether the command carried an id, which the response
	// must echo.
	HasID bool
	// Name is the command name, case-sensitive as the protocol demands.
	Name string
	// Args are the space-separated arguments after the name.
	Args []string
	// Line is the 1-based input line number the command came from, or 0
	// when the command was not read by a [Reader].
	Line int
}

// String formats the command as a GTP command line without the newline,
// e.g. "12 play black D4".
func (c Command) String() string {
	var b strings.Builder
	if c.HasID {
		b.WriteString(strconv.Itoa(c.ID))
		b.WriteByte(' ')
	}
	b.WriteString(c.Name)
	for _, a := range c.Args {
		b.WriteByte(' ')
		b.WriteString(a)
	}
	return b.String()
}

// SyntaxError describes an input line that is not a valid command. Line and
// Col are 1-based; Col counts bytes of the preprocessed line. The partially
// parsed id, if any, is kept so that the error response can still echo it.
type SyntaxError struct {
	// Line and Col locate the error.
	Line, Col int
	// Msg says what is wrong.
	Msg string
	// ID and HasID hold the command id when it was parsed before the error.
	ID    int
	HasID bool
}

// Error formats the error as "line:col: message".
func (e *SyntaxError) Error() string {
	return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg)
}

// Preprocess applies the GTP input rules to one line (without its newline):
// control characters other than HT are removed, everything from the first
// '#' on is dropped, and HT becomes a space. The result may be empty or
// consist of spaces only, in which case the line carries no command.
func Preprocess(line string) string {
	var b strings.Builder
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == '#':
			return b.String()
		case c == '\t':
			b.WriteByte(' ')
		case c < 32 || c == 127:
			// Other control characters, CR included, are discarded.
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// ParseCommand parses one input line. It reports ok == false, with a nil
// error, for lines that carry no command (empty, blank or comment only).
// Errors are of type *[SyntaxError] with Line set to 1; a [Reader] fills in
// the real line number.
func ParseCommand(line string) (cmd Command, ok bool, err error) {
	return parseLine(line, 1)
}

func parseLine(raw string, lineNo int) (Command, bool, error) {
	s := Preprocess(raw)
	// Byte offsets of the fields, so that errors can name a column.
	type field struct {
		text string
		col  int
	}
	var fields []field
	for i := 0; i < len(s); {
		if s[i] == ' ' {
			i++
			continue
		}
		j := i
		for j < len(s) && s[j] != ' ' {
			j++
		}
		fields = append(fields, field{s[i:j], i + 1})
		i = j
	}
	if len(fields) == 0 {
		return Command{}, false, nil
	}
	cmd := Command{Line: lineNo}
	if isDigits(fields[0].text) {
		id, err := strconv.Atoi(fields[0].text)
		if err != nil || id < 0 {
			return Command{}, true, &SyntaxError{Line: lineNo, Col: fields[0].col, Msg: "command id out of range"}
		}
		cmd.ID, cmd.HasID = id, true
		fields = fields[1:]
		if len(fields) == 0 {
			return Command{}, true, &SyntaxError{Line: lineNo, Col: len(s) + 1, Msg: "missing command name after id", ID: id, HasID: true}
		}
	}
	cmd.Name = fields[0].text
	if len(fields) > 1 {
		cmd.Args = make([]string, len(fields)-1)
		for i, f := range fields[1:] {
			cmd.Args[i] = f.text
		}
	}
	return cmd, true, nil
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// Reader reads GTP commands from a byte stream, one per line, skipping lines
// that carry no command.
type Reader struct {
	r    *bufio.Reader
	line int
	// Comment, if not nil, is called with the text after '#' of every
	// line that holds nothing but a comment, such as GoGui's "# interrupt".
	Comment func(text string)
}

// NewReader returns a Reader that reads from r.
func NewReader(r io.Reader) *Reader {
	return &Reader{r: bufio.NewReader(r)}
}

// Next returns the next command. At the end of input it returns io.EOF. A
// malformed line yields a *[SyntaxError]; reading may continue after it. Any
// other error comes from the underlying reader and ends the stream.
func (r *Reader) Next() (Command, error) {
	for {
		raw, err := r.readLine()
		if raw == "" && err != nil {
			return Command{}, err
		}
		r.line++
		if err != nil && !errors.Is(err, io.EOF) {
			if errors.Is(err, errLineTooLong) {
				return Command{}, &SyntaxError{Line: r.line, Col: MaxLineLength + 1, Msg: "line too long"}
			}
			return Command{}, err
		}
		cmd, ok, perr := parseLine(raw, r.line)
		if perr != nil {
			return Command{}, perr
		}
		if ok {
			return cmd, nil
		}
		if i := strings.IndexByte(raw, '#'); i >= 0 && r.Comment != nil {
			r.Comment(strings.TrimSpace(Preprocess(raw[i+1:])))
		}
		if err != nil {
			return Command{}, err
		}
	}
}

var errLineTooLong = errors.New("line too long")

// readLine returns the next line without its LF. A final line without LF is
// returned together with io.EOF. An overlong line is consumed and discarded
// and reported as errLineTooLong with a non-empty placeholder text.
func (r *Reader) readLine() (string, error) {
	var buf []byte
	tooLong := false
	for {
		chunk, err := r.r.ReadSlice('\n')
		if !tooLong {
			if len(buf)+len(chunk) > MaxLineLength+1 {
				tooLong = true
				buf = nil
			} else {
				buf = append(buf, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if tooLong {
			if err != nil && !errors.Is(err, io.EOF) {
				return "", err
			}
			return "#", errLineTooLong
		}
		if len(buf) > 0 && buf[len(buf)-1] == '\n' {
			return string(buf[:len(buf)-1]), nil
		}
		if err == nil {
			err = io.EOF
		}
		return string(buf), err
	}
}
