package sgf

import (
	"fmt"
	"sort"
	"strings"
)

// Position is a place in the (decoded) input: Line and Col count from 1, and
// Col counts characters, not bytes, so that it matches what an editor shows
// for a file in any charset. The zero Position means "unknown", for example
// for nodes built in memory rather than parsed.
type Position struct {
	Line, Col int
}

// IsValid reports whether the position refers to a place in an input.
func (p Position) IsValid() bool { return p.Line > 0 }

// String formats the position as "line:col", or "-" when it is unknown.
func (p Position) String() string {
	if !p.IsValid() {
		return "-"
	}
	return fmt.Sprintf("%d:%d", p.Line, p.Col)
}

// Error is a problem found in an SGF input. The parser uses it both for fatal
// errors (the input cannot be read) and for warnings (a repair it made, or a
// value that does not follow the specification).
type Error struct {
	Line, Col int    // where the problem is; 0 when unknown
	Msg       string // what is wrong, in one sentence without a position
}

// Error formats the error as "line:col: msg" (without the position when it is
// unknown).
func (e *Error) Error() string {
	if e.Line <= 0 {
		return e.Msg
	}
	return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg)
}

// Pos returns the position of the error.
func (e *Error) Pos() Position { return Position{e.Line, e.Col} }

// ErrorList is a list of errors or warnings, in the manner of go/scanner's
// ErrorList. Its zero value is an empty list ready to use.
type ErrorList []*Error

// Add appends an error at pos to the list.
func (l *ErrorList) Add(pos Position, msg string) {
	*l = append(*l, &Error{Line: pos.Line, Col: pos.Col, Msg: msg})
}

// Len returns the number of entries (for sort.Interface).
func (l ErrorList) Len() int { return len(l) }

// Swap exchanges two entries (for sort.Interface).
func (l ErrorList) Swap(i, j int) { l[i], l[j] = l[j], l[i] }

// Less orders entries by position (for sort.Interface).
func (l ErrorList) Less(i, j int) bool {
	if l[i].Line != l[j].Line {
		return l[i].Line < l[j].Line
	}
	return l[i].Col < l[j].Col
}

// Sort sorts the list by position; entries at the same place keep their order.
func (l ErrorList) Sort() { sort.Stable(l) }

// Error returns the first error and how many more there are, like go/scanner.
func (l ErrorList) Error() string {
	switch len(l) {
	case 0:
		return "no errors"
	case 1:
		return l[0].Error()
	}
	return fmt.Sprintf("%s (and %d more errors)", l[0], len(l)-1)
}

// String lists every entry, one per line.
func (l ErrorList) String() string {
	var b strings.Builder
	for _, e := range l {
		b.WriteString(e.Error())
		b.WriteByte('\n')
	}
	return b.String()
}

// Err returns nil for an empty list and the list itself otherwise, so that a
// function can end with "return list.Err()".
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}
