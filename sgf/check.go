package sgf

import (
	"errors"
	"fmt"
)

// CheckReport is what Check finds in a file.
type CheckReport struct {
	// Collection is the parsed file (possibly partial when Errors is not
	// empty), nil only if nothing could be read.
	Collection *Collection

	// Warnings are repairs and oddities: parser warnings, game-info
	// warnings and replay warnings, each with its position.
	Warnings ErrorList

	// Errors are problems that make the record wrong: an unreadable file,
	// an illegal move in a main line, a move off the board, a bad point
	// list. A non-empty list should give a non-zero exit status.
	Errors ErrorList
}

// Check parses data and replays every variation of every game in it (see
// ReplayAll), as "tengen sgf check" needs: it collects every warning and
// every error, with positions, instead of stopping at the first. Illegal
// moves are replayed by force so that later ones are found too; each is an
// error that names the move number and the reason. Game numbers prefix the messages of
// collections with more than one game.
func Check(data []byte, opt Options) *CheckReport {
	c, err := ParseOptions(data, opt)
	rep := &CheckReport{Collection: c}
	if c != nil {
		rep.Warnings = append(rep.Warnings, c.Warnings...)
	}
	var el ErrorList
	if errors.As(err, &el) {
		rep.Errors = append(rep.Errors, el...)
	} else if err != nil {
		rep.Errors.Add(Position{}, err.Error())
	}
	if c == nil || err != nil {
		return rep
	}
	for i, g := range c.Games {
		prefix := ""
		if len(c.Games) > 1 {
			prefix = fmt.Sprintf("game %d: ", i+1)
		}
		_, illegal, warns, errs := ReplayAll(g, ReplayOptions{})
		for _, w := range warns {
			rep.Warnings = append(rep.Warnings, &Error{w.Line, w.Col, prefix + w.Msg})
		}
		for _, e := range illegal {
			rep.Errors = append(rep.Errors, &Error{e.Pos.Line, e.Pos.Col,
				prefix + fmt.Sprintf("move %d (%s): illegal: %v", e.Number, e.Move, e.Err)})
		}
		for _, e := range errs {
			rep.Errors = append(rep.Errors, &Error{e.Line, e.Col, prefix + e.Msg})
		}
	}
	rep.Warnings.Sort()
	rep.Errors.Sort()
	return rep
}
