// Package review reads the game records of reviews with package sgf: it
// implements tengen.RecordService, so that the web server takes SGF in
// without knowing the format.
package review

import (
	"fmt"
	"unicode/utf8"

	"tengen"
	"tengen/sgf"
)

// Compile-time check that Records implements the interface.
var _ tengen.RecordService = Records{}

// Records implements tengen.RecordService. The zero value is ready to use.
type Records struct{}

// Import implements tengen.RecordService. A record is accepted when
// "tengen sgf check" reports no error for it; each game comes back in the
// form "tengen sgf convert" writes (sgf.Format of that game alone, so the
// games of a collection in a row give the collection's canonical form).
func (Records) Import(data []byte) ([]tengen.ImportedGame, []tengen.SGFWarning, error) {
	rep := sgf.Check(data, sgf.Options{})
	var warns []tengen.SGFWarning
	for _, w := range rep.Warnings {
		warns = append(warns, tengen.SGFWarning{Line: w.Line, Col: w.Col, Message: w.Msg})
	}
	if len(rep.Errors) > 0 {
		e := rep.Errors[0]
		switch more := len(rep.Errors) - 1; {
		case e.Line > 0 && more > 0:
			return nil, warns, tengen.Errorf(tengen.EINVALID, "The record has an error at line %d, column %d: %s (and %d more).", e.Line, e.Col, e.Msg, more)
		case e.Line > 0:
			return nil, warns, tengen.Errorf(tengen.EINVALID, "The record has an error at line %d, column %d: %s.", e.Line, e.Col, e.Msg)
		default:
			return nil, warns, tengen.Errorf(tengen.EINVALID, "The record cannot be read: %s.", e.Msg)
		}
	}
	if rep.Collection == nil || len(rep.Collection.Games) == 0 {
		return nil, warns, tengen.Errorf(tengen.EINVALID, "The record holds no game.")
	}
	out := make([]tengen.ImportedGame, 0, len(rep.Collection.Games))
	for i, g := range rep.Collection.Games {
		b, err := sgf.Format(g)
		if err != nil {
			return nil, warns, fmt.Errorf("review: format game %d: %w", i+1, err)
		}
		out = append(out, tengen.ImportedGame{SGF: string(b), Info: infoOf(g)})
	}
	return out, warns, nil
}

// infoOf reads the search fields of a game; values that break the
// specification were reported by Check already and are taken as written.
func infoOf(root *sgf.Node) tengen.ReviewInfo {
	gi, _ := root.GameInfo()
	size := gi.Width
	if gi.Height > size {
		size = gi.Height
	}
	return tengen.ReviewInfo{
		Black: clip(gi.BlackName), White: clip(gi.WhiteName),
		BlackRank: clip(gi.BlackRank), WhiteRank: clip(gi.WhiteRank),
		Date: clip(gi.Date), Result: clip(result(root, gi)), Event: clip(gi.Event),
		Size: size,
	}
}

// result is RE as written in the root, or as GameInfo read it from a later
// node before the first move.
func result(root *sgf.Node, gi sgf.GameInfo) string {
	if root.Has("RE") {
		return root.SimpleText("RE")
	}
	if gi.HasResult {
		return gi.Result.String()
	}
	return ""
}

// clip cuts s to tengen.MaxReviewInfoLen bytes at a character boundary.
func clip(s string) string {
	if len(s) <= tengen.MaxReviewInfoLen {
		return s
	}
	s = s[:tengen.MaxReviewInfoLen]
	for len(s) > 0 && !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s
}
