package sgf

import (
	"errors"
	"fmt"
	"strings"

	"tengen/goban"
)

// ReplayOptions choose what Replay plays and how strictly.
type ReplayOptions struct {
	// Path chooses the variation: at the k-th node with several children
	// the replay follows child Path[k]; after the choices it follows the
	// main line. Nil means the main line.
	Path []int

	// UntilMove, if positive, stops before move number UntilMove (counted
	// from 1, passes included), as GNU Go's "loadsgf FILE N" does: the
	// position is the one in which move N is to be played.
	UntilMove int

	// UntilPoint, if not nil, stops before the first move on that point, as
	// GNU Go's "loadsgf FILE VERTEX" does.
	UntilPoint *Point

	// Force plays illegal moves anyway, as a viewer must: a stone on an
	// occupied point replaces what is there, a suicide removes the chain,
	// and ko is ignored. Each forced move is listed in Replayed.Illegal.
	// Without Force, the first illegal move stops the replay with a
	// *MoveError.
	Force bool

	// Rules, if not empty, overrides the record's RU (a name that
	// goban.RulesetByName knows).
	Rules string

	// Komi, if not nil, overrides the record's KM.
	Komi *float64
}

// MoveError reports an illegal move in a record.
type MoveError struct {
	Number int      // the move number, from 1, passes included
	Move   Move     // the move as the record gives it
	Pos    Position // where the move's node is in the input
	Err    error    // the reason; errors.Is finds goban's ErrOccupied, ErrKo, ...
}

// Error formats the error as "line:col: move N (B[pd]): illegal: reason".
func (e *MoveError) Error() string {
	s := fmt.Sprintf("move %d (%s): illegal: %v", e.Number, e.Move, e.Err)
	if e.Pos.IsValid() {
		s = e.Pos.String() + ": " + s
	}
	return s
}

// Unwrap returns the reason.
func (e *MoveError) Unwrap() error { return e.Err }

// Replayed is the result of Replay.
type Replayed struct {
	Game  *goban.Game // the position after the replayed moves
	Info  GameInfo    // the record's game information
	Nodes []*Node     // the nodes replayed, from the root to where it stopped
	Moves int         // the number of moves played (passes included)

	// Illegal lists the illegal moves that Force played.
	Illegal []*MoveError

	// Warnings lists problems in the game information and the setup that
	// did not stop the replay, with positions.
	Warnings ErrorList
}

// ToGoban converts an SGF point to a goban point (both use SGF orientation).
func (p Point) ToGoban() goban.Point { return goban.Point{X: p.X, Y: p.Y} }

// PointFromGoban converts a goban point to an SGF point.
func PointFromGoban(p goban.Point) Point { return Point{X: p.X, Y: p.Y} }

func toGobanColor(c Color) goban.Color {
	switch c {
	case Black:
		return goban.Black
	case White:
		return goban.White
	}
	return goban.Empty
}

func fromGobanColor(c goban.Color) Color {
	switch c {
	case goban.Black:
		return Black
	case goban.White:
		return White
	}
	return Empty
}

// RulesFor returns the goban ruleset for an RU value. An empty RU means
// Japanese rules, the most common in records without RU; an unknown one
// means Japanese rules too, with an error that says so.
func RulesFor(ru string) (goban.Ruleset, error) {
	name := strings.TrimSpace(ru)
	if name == "" {
		return goban.MustRuleset("japanese"), nil
	}
	r, err := goban.RulesetByName(name)
	if err == nil {
		return r, nil
	}
	// Spellings seen in records: "Chinese rules", "GOE" (Ing), "Japanese 1989".
	low := strings.ToLower(name)
	for _, cand := range []struct{ word, rules string }{
		{"japan", "japanese"}, {"chin", "chinese"}, {"korea", "korean"}, {"aga", "aga"},
		{"american", "aga"}, {"zealand", "new-zealand"}, {"tromp", "tromp-taylor"},
		{"goe", "new-zealand"}, {"ing", "new-zealand"},
	} {
		if strings.Contains(low, cand.word) {
			return goban.MustRuleset(cand.rules), nil
		}
	}
	return goban.MustRuleset("japanese"), fmt.Errorf("unknown ruleset %q: using Japanese rules", clip(ru))
}

// RUName returns the RU value for a goban ruleset, in the spelling other
// programs read: "Japanese", "Chinese", "Korean", "AGA", "NZ", "Tromp-Taylor".
func RUName(r goban.Ruleset) string {
	switch r.Name {
	case "japanese":
		return "Japanese"
	case "chinese":
		return "Chinese"
	case "korean":
		return "Korean"
	case "aga":
		return "AGA"
	case "new-zealand":
		return "NZ"
	case "tromp-taylor":
		return "Tromp-Taylor"
	}
	return r.Name
}

// Replay plays a game record into a goban game: board size (SZ), ruleset
// (RU, see RulesFor), handicap (HA with the AB stones of the root or of a
// node before the first move), komi (KM; 0 when missing, as in old records),
// setup stones (AB, AW, AE) in any node, PL, and the moves of the main line or
// of the variation opt.Path. Setup properties of a node apply before its move.
//
// Moves need not alternate: the game is put in free order
// (goban.Game.SetFreeOrder), as SGF allows, and is returned that way; call
// SetFreeOrder(false) to continue it with turns enforced. Moves after two passes resume the game. An illegal move stops
// the replay with a *MoveError (and the position before it) unless opt.Force
// is set. Malformed values (a move off the board, a bad point list) are
// errors with the node's position.
func Replay(root *Node, opt ReplayOptions) (*Replayed, error) {
	return replay(root, opt, nil)
}

// moveHook is called after each move with the move's number, the move and
// the boards before and after it.
type moveHook func(num int, m Move, before, after *goban.Board)

// replayer holds what stays fixed while a record is replayed; position
// holds what changes, so that variations can branch from a copy.
type replayer struct {
	info     GameInfo
	komi     float64
	w, h     int
	force    bool
	hook     moveHook
	warnings *ErrorList
	illegal  *[]*MoveError
}

type position struct {
	g            *goban.Game
	moves        int
	handicapDone bool
}

func (p *position) clone() *position {
	c := *p
	c.g = p.g.Clone()
	return &c
}

// start reads the game information and sets up the empty board.
func start(root *Node, opt ReplayOptions, hook moveHook, warnings *ErrorList, illegal *[]*MoveError) (*replayer, *position, error) {
	info, warns := root.GameInfo()
	*warnings = append(*warnings, warns...)
	rp := &replayer{info: info, w: info.Width, h: info.Height, force: opt.Force, hook: hook,
		warnings: warnings, illegal: illegal}
	rulesName := info.Rules
	if opt.Rules != "" {
		rulesName = opt.Rules
	}
	rules, err := RulesFor(rulesName)
	if err != nil {
		if opt.Rules != "" {
			return rp, nil, err
		}
		warnings.Add(root.Pos, "RU: "+err.Error())
	}
	g, err := goban.NewGame(info.Width, info.Height, rules)
	if err != nil {
		return rp, nil, &Error{Line: root.Pos.Line, Col: root.Pos.Col, Msg: err.Error()}
	}
	g.SetFreeOrder(true)
	if info.HasKomi {
		rp.komi = info.Komi
	}
	if opt.Komi != nil {
		rp.komi = *opt.Komi
	}
	g.SetKomi(rp.komi)
	return rp, &position{g: g, handicapDone: info.Handicap < 2}, nil
}

func replay(root *Node, opt ReplayOptions, hook moveHook) (*Replayed, error) {
	r := &Replayed{}
	rp, pos, err := start(root, opt, hook, &r.Warnings, &r.Illegal)
	r.Info = rp.info
	if pos != nil {
		r.Game = pos.g
	}
	if err != nil {
		return r, err
	}
	nodes, ok := root.Path(opt.Path)
	if !ok {
		return r, fmt.Errorf("sgf: variation path %v does not exist", opt.Path)
	}
	for _, n := range nodes {
		moves, err := n.Moves(rp.w, rp.h)
		if err == nil && len(moves) > 0 {
			m := moves[0]
			if (opt.UntilMove > 0 && pos.moves+1 >= opt.UntilMove) ||
				(opt.UntilPoint != nil && !m.Pass && m.Point == *opt.UntilPoint) {
				break
			}
		}
		r.Nodes = append(r.Nodes, n)
		err = rp.apply(pos, n)
		r.Moves = pos.moves
		if err != nil {
			return r, err
		}
	}
	return r, nil
}

// apply plays node n on pos: setup properties first (AE, AB, AW, PL), then
// the move or moves.
func (rp *replayer) apply(pos *position, n *Node) error {
	g, w, h := pos.g, rp.w, rp.h
	fail := func(format string, args ...any) error {
		return &Error{Line: n.Pos.Line, Col: n.Pos.Col, Msg: fmt.Sprintf(format, args...)}
	}
	moves, err := n.Moves(w, h)
	if err != nil {
		return fail("move %d: %v", pos.moves+1, err)
	}
	// The handicap stones are placed as handicap, so that area scoring
	// knows their number.
	ab, err := n.Points("AB", w, h)
	if err != nil {
		return fail("%v", err)
	}
	if !pos.handicapDone && len(ab) > 0 && pos.moves == 0 && g.Board().Stones(goban.Black)+g.Board().Stones(goban.White) == 0 {
		pos.handicapDone = true
		if len(ab) != rp.info.Handicap {
			rp.warnings.Add(n.Pos, fmt.Sprintf("HA[%d] but %d AB stones: the stones count as the handicap", rp.info.Handicap, len(ab)))
		}
		pts := make([]goban.Point, len(ab))
		for i, p := range ab {
			pts[i] = p.ToGoban()
		}
		if err := g.PlaceHandicap(pts); err != nil {
			// Too many stones or an odd board: plain setup stones.
			rp.warnings.Add(n.Pos, fmt.Sprintf("AB stones not usable as handicap (%v): placed as setup stones", err))
		} else {
			g.SetKomi(rp.komi) // PlaceHandicap sets the ruleset's handicap komi
			ab = nil
		}
	}
	for _, s := range []struct {
		id    string
		color goban.Color
		pts   []Point
	}{{"AE", goban.Empty, nil}, {"AB", goban.Black, ab}, {"AW", goban.White, nil}} {
		pts := s.pts
		if s.id != "AB" {
			if pts, err = n.Points(s.id, w, h); err != nil {
				return fail("%v", err)
			}
		}
		if len(pts) == 0 {
			continue
		}
		gp := make([]goban.Point, len(pts))
		for i, p := range pts {
			gp[i] = p.ToGoban()
		}
		if err := g.Setup(s.color, gp...); err != nil {
			return fail("%s: %v", s.id, err)
		}
	}
	if pl, ok := n.Value("PL"); ok {
		switch strings.ToUpper(strings.TrimSpace(pl)) {
		case "B", "1", "BLACK":
			g.SetToMove(goban.Black)
		case "W", "2", "WHITE":
			g.SetToMove(goban.White)
		default:
			rp.warnings.Add(n.Pos, fmt.Sprintf("PL[%s]: not a colour", clip(pl)))
		}
	}
	if len(moves) == 0 {
		return nil
	}
	if !pos.handicapDone {
		pos.handicapDone = true
		// HA without AB stones: if White moves first, the stones must be
		// on the fixed points; otherwise Black places them as moves,
		// except under a ruleset that places fixed stones and lets Black
		// move first after them (Pfaundler §9).
		rules := g.Rules()
		if moves[0].Color == White || rp.info.Handicap >= 2 && rules.BlackFirstAfterHandicap && !rules.FreeHandicap {
			if err := g.SetHandicap(rp.info.Handicap, false); err != nil {
				rp.warnings.Add(n.Pos, fmt.Sprintf("HA[%d] without AB stones: %v", rp.info.Handicap, err))
			} else {
				rp.warnings.Add(n.Pos, fmt.Sprintf("HA[%d] without AB stones: placed on the fixed points", rp.info.Handicap))
			}
			g.SetKomi(rp.komi)
		}
	}
	if len(moves) > 1 {
		rp.warnings.Add(n.Pos, fmt.Sprintf("%d moves in one node: played one after the other", len(moves)))
	}
	for _, m := range moves {
		if err := rp.play(pos, n, m); err != nil {
			return err
		}
	}
	return nil
}

// play plays one move of node n.
func (rp *replayer) play(pos *position, n *Node, m Move) error {
	g := pos.g
	if g.Ended() {
		// Moves after two passes: the players went on, as the Japanese
		// rules allow; the opponent of the mover asked.
		if err := g.Resume(toGobanColor(m.Color).Opponent()); err != nil {
			return &Error{Line: n.Pos.Line, Col: n.Pos.Col,
				Msg: fmt.Sprintf("move %d: cannot continue after the end of the game: %v", pos.moves+1, err)}
		}
	}
	gm := goban.PlayAt(toGobanColor(m.Color), m.Point.ToGoban())
	if m.Pass {
		gm = goban.PassMove(toGobanColor(m.Color))
	}
	var before *goban.Board
	if rp.hook != nil {
		before = g.Board().Clone()
	}
	if err := g.Play(gm); err != nil {
		me := &MoveError{Number: pos.moves + 1, Move: m, Pos: n.Pos, Err: reason(err)}
		if !rp.force {
			return me
		}
		if _, err := g.PlayForced(gm); err != nil {
			return &MoveError{Number: pos.moves + 1, Move: m, Pos: n.Pos, Err: reason(err)}
		}
		*rp.illegal = append(*rp.illegal, me)
	}
	pos.moves++
	if rp.hook != nil {
		rp.hook(pos.moves, m, before, g.Board())
	}
	return nil
}

// cloneBudget bounds the moves of history that ReplayAll copies at branches.
const cloneBudget = 2_000_000

// ReplayAll replays every variation of the tree rooted at root, forcing
// illegal moves, and returns the game information, the illegal moves found
// (in tree order), the warnings and the errors that stopped a variation
// (such as a move off the board; that variation's later nodes are skipped).
// It copies the game only where the tree branches, so a deep tree without
// branches costs one replay. Check uses it.
func ReplayAll(root *Node, opt ReplayOptions) (GameInfo, []*MoveError, ErrorList, ErrorList) {
	var warnings, errs ErrorList
	var illegal []*MoveError
	opt.Force = true
	rp, pos, err := start(root, opt, nil, &warnings, &illegal)
	if err != nil {
		errs = append(errs, asError(root, err))
		return rp.info, illegal, warnings, errs
	}
	// An item is a node to apply to its position, or, with from > 0, the
	// children from..end of n still waiting, with pos a copy of the position
	// after n that they branch from. Waiting children share that one copy
	// and each takes its own only when its turn comes, so the copies alive
	// at once grow with the depth of the branching, not with the number of
	// variations (a file of many one-move variations would otherwise hold a
	// copy of the game for each at once).
	type item struct {
		n    *Node
		pos  *position
		from int
	}
	stack := []item{{root, pos, 0}}
	budget := cloneBudget
	// spend charges one more clone of pos and reports whether the budget
	// allows it, warning at child the first time it does not. A clone
	// copies the game's history, so a tree that branches at every one of
	// many moves would cost quadratic time; past the budget only first
	// children are followed.
	spend := func(pos *position, child *Node) bool {
		budget -= pos.moves + 1
		if budget < 0 {
			if budget+pos.moves+1 >= 0 { // the first time only
				warnings.Add(child.Pos, "too many variations to check them all: the rest of the tree is checked along first variations only")
			}
			return false
		}
		return true
	}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if it.from > 0 {
			child, p := it.n.Children[it.from], it.pos
			if it.from+1 < len(it.n.Children) {
				if spend(it.pos, it.n.Children[it.from+1]) {
					stack = append(stack, item{it.n, it.pos, it.from + 1})
					p = it.pos.clone()
				}
			}
			stack = append(stack, item{child, p, 0})
			continue
		}
		if err := rp.apply(it.pos, it.n); err != nil {
			errs = append(errs, asError(it.n, err))
			continue
		}
		if len(it.n.Children) > 1 && spend(it.pos, it.n.Children[1]) {
			stack = append(stack, item{it.n, it.pos.clone(), 1})
		}
		if len(it.n.Children) > 0 {
			stack = append(stack, item{it.n.Children[0], it.pos, 0})
		}
	}
	return rp.info, illegal, warnings, errs
}

// asError turns a replay error into a positioned Error.
func asError(n *Node, err error) *Error {
	var pe *Error
	var me *MoveError
	switch {
	case errors.As(err, &me):
		return &Error{me.Pos.Line, me.Pos.Col, fmt.Sprintf("move %d (%s): %v", me.Number, me.Move, me.Err)}
	case errors.As(err, &pe):
		return pe
	}
	return &Error{n.Pos.Line, n.Pos.Col, err.Error()}
}

// reason unwraps goban's IllegalMoveError to its reason, which reads better
// after our own "move N (B[pd])" prefix.
func reason(err error) error {
	var ime *goban.IllegalMoveError
	if errors.As(err, &ime) && ime.Reason != nil {
		return ime.Reason
	}
	return err
}

// FromGame builds a game record from a goban game: the root holds info (with
// size, komi, handicap, rules and, once the game has ended with a winner or a
// score set by SetResult, the result taken from the game) and the handicap
// stones as AB; every move follows in its own node, so that node k of the
// main line below the root holds move k and a caller can add clock times
// (BL, WL) or comments to it. A resignation is not a node: it becomes RE. If
// the first move is White's without handicap, the root says PL[W].
//
// goban.Game does not tell where setup stones (Game.Setup) were placed in
// its history. FromGame therefore replays the moves on a fresh board; if that
// does not give the game's position, the record holds the position only: all
// stones as AB and AW in the root, PL for the player to move, and no moves.
func FromGame(g *goban.Game, info GameInfo) *Node {
	root := NewNode()
	info.Width, info.Height = g.Width(), g.Height()
	info.Komi, info.HasKomi = g.Komi(), true
	n, hpts := g.Handicap()
	info.Handicap = n
	if info.Rules == "" {
		info.Rules = RUName(g.Rules())
	}
	if g.Ended() {
		res := g.Result()
		if res.Winner != goban.Empty || res.Reason != goban.EndPasses {
			if rr, err := ParseResult(res.String()); err == nil {
				info.Result, info.HasResult = rr, true
			}
		}
	}
	root.SetGameInfo(info)
	moves := g.Moves()
	if !reproduces(g, hpts, moves) {
		b := g.Board()
		for _, c := range []goban.Color{goban.Black, goban.White} {
			var vals []string
			for y := 0; y < b.Height(); y++ {
				for x := 0; x < b.Width(); x++ {
					if p := (goban.Point{X: x, Y: y}); b.At(p) == c {
						vals = append(vals, FormatPoint(PointFromGoban(p)))
					}
				}
			}
			if len(vals) > 0 {
				root.Set("A"+fromGobanColor(c).String(), vals...)
			}
		}
		root.Set("PL", fromGobanColor(g.ToMove()).String())
		return root
	}
	if len(hpts) > 0 {
		vals := make([]string, len(hpts))
		for i, p := range hpts {
			vals[i] = FormatPoint(PointFromGoban(p))
		}
		root.Set("AB", vals...)
	}
	if len(moves) > 0 && moves[0].Color == goban.White && n < 2 {
		root.Set("PL", "W")
	}
	cur := root
	for _, m := range moves {
		if m.Kind == goban.Resign {
			continue
		}
		node := NewNode()
		v := ""
		if m.Kind == goban.Play {
			v = FormatPoint(PointFromGoban(m.Point))
		}
		node.Set(fromGobanColor(m.Color).String(), v)
		cur = cur.AddChild(node)
	}
	return root
}

// reproduces reports whether the handicap and the moves alone give g's
// position, that is whether g used no setup stones that matter.
func reproduces(g *goban.Game, hpts []goban.Point, moves []goban.Move) bool {
	t, err := goban.NewGame(g.Width(), g.Height(), g.Rules())
	if err != nil {
		return false
	}
	t.SetFreeOrder(true)
	if len(hpts) > 0 && t.PlaceHandicap(hpts) != nil {
		return false
	}
	for _, m := range moves {
		if m.Kind == goban.Resign {
			continue
		}
		if t.Ended() && t.Resume(m.Color.Opponent()) != nil {
			return false
		}
		if t.Play(m) != nil {
			if _, err := t.PlayForced(m); err != nil {
				return false
			}
		}
	}
	return t.Board().String() == g.Board().String()
}
