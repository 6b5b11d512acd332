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

// MaxBranches is the most variations a record may have: the sum, over its
// nodes, of the children after the first. Game records with a review's
// variations, even with an engine's lines at every move, have a few
// thousand. Checking one costs about 16 kB per variation (19×19).
const MaxBranches = 5_000

// checking bounds how many records are checked at once.
var checking = make(chan struct{}, 2)

// branches counts the variations of every game of c.
func branches(c *sgf.Collection) int {
	n := 0
	for _, g := range c.Games {
		g.Walk(func(x *sgf.Node) bool {
			if len(x.Children) > 1 {
				n += len(x.Children) - 1
			}
			return true
		})
	}
	return n
}

// Compile-time check that Records implements the interface.
var _ tengen.RecordService = Records{}

// Records implements tengen.RecordService. The zero value is ready to use.
type Records struct{}

// Import implements tengen.RecordService. A record is accepted when
// "tengen sgf check" reports no error for it; each game comes back in the
// form "tengen sgf convert" writes (sgf.Format of that game alone, so the
// games of a collection in a row give the collection's canonical form).
func (Records) Import(data []byte) ([]tengen.ImportedGame, []tengen.SGFWarning, error) {
	// Checking replays every variation, copying the position at each
	// branch; a record of many branches costs memory out of proportion to
	// its size (a 2 MiB file of one-move variations took 2.6 GB), so the
	// branches are counted on a plain parse first, and few records are
	// checked at once.
	if c, err := sgf.Parse(data); err == nil {
		if n := branches(c); n > MaxBranches {
			return nil, nil, tengen.Errorf(tengen.EINVALID, "The record has %d variations; at most %d are taken.", n, MaxBranches)
		}
	}
	checking <- struct{}{}
	defer func() { <-checking }()
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
