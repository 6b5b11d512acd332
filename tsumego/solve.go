// Package tsumego reads life and death and tesuji problems in a closed
// region: it proves whether the side to move achieves its goal (kill or live,
// capture or save a marked group) against every defence.
//
// The search is a depth-first proof search over AND/OR nodes with a
// transposition table and move ordering, bounded by a depth and a node
// budget. A search that runs out of either counts as a failure for the side
// that tries to prove its goal, and a line that repeats a position counts
// for the defender (a game that never ends never captures the target); both
// kinds of answer stay out of the transposition table. Evaluate says Unknown
// when neither side's goal could be proven within the bounds.
//
// Ko is handled with a ko master: in every search one side may retake a ko at
// once (as if it had an endless supply of ko threats elsewhere), the other
// obeys the simple ko rule. A goal proven while the opponent is master is
// achieved unconditionally; a goal achieved only while the prover is master,
// and refuted while the opponent is, is a ko.
//
// The package imports only the standard library and goban.
package tsumego

import (
	"errors"
	"fmt"

	"tengen/goban"
)

// Goal is what the side to move wants in a problem.
type Goal uint8

// The goals. Kill and Capture mean the same to the solver (the marked target
// group must be captured), as do Live and Save (it must never be captured;
// seki counts as alive); they differ in how a problem is presented.
const (
	Kill Goal = iota + 1
	Live
	Capture
	Save
)

var goalNames = [...]string{Kill: "kill", Live: "live", Capture: "capture", Save: "save"}

// String returns the goal's name as problem files spell it.
func (g Goal) String() string {
	if int(g) < len(goalNames) && goalNames[g] != "" {
		return goalNames[g]
	}
	return fmt.Sprintf("Goal(%d)", g)
}

// ParseGoal reads a goal's name.
func ParseGoal(s string) (Goal, error) {
	for g, n := range goalNames {
		if n != "" && n == s {
			return Goal(g), nil
		}
	}
	return 0, fmt.Errorf("tsumego: unknown goal %q", s)
}

// Result is the outcome of a position for one side.
type Result uint8

// The results, from worst to best for the side they are about. Unknown means
// the search ran out of its bounds before it could prove either side's goal.
const (
	Unknown Result = iota
	Fail
	Ko
	Win
)

var resultNames = [...]string{Unknown: "unknown", Fail: "fail", Ko: "ko", Win: "win"}

// String returns the result's name.
func (r Result) String() string {
	if int(r) < len(resultNames) {
		return resultNames[r]
	}
	return fmt.Sprintf("Result(%d)", r)
}

// Position is a problem position: the board, the empty points where moves
// may be played (the region; the points of stones are playable too once
// their stones are captured), a stone of the group the problem is about,
// and the side to move.
type Position struct {
	Board  *goban.Board
	Region []goban.Point
	Target goban.Point
	ToMove goban.Color
}

// Limits bound one proof search. The zero value takes the defaults.
type Limits struct {
	// MaxDepth is the most moves (passes included) a line may have.
	MaxDepth int
	// MaxNodes is the most positions one search may visit.
	MaxNodes int
}

// The default limits keep a problem of about a dozen empty points well under
// a second.
const (
	DefaultMaxDepth = 40
	DefaultMaxNodes = 1_000_000
)

// ErrPosition reports a position the solver cannot read.
var ErrPosition = errors.New("tsumego: bad position")

// Solver answers questions about one problem position. It is not safe for
// concurrent use.
type Solver struct {
	b        *goban.Board
	region   []goban.Loc
	target   goban.Loc
	defender goban.Color
	toMove   goban.Color
	limits   Limits
	// tts caches exact results per (prover, ko master); they stay valid
	// while the solver lives because they depend only on the position.
	tts map[ttKind]map[ttKey]bool
	// benson caches bensonAlive by the stones' hash: Benson's algorithm
	// depends on the stones only, and it is the most expensive step of a
	// node that searches revisit (lines through kos are not stored in tts).
	benson map[uint64]bool
	// Nodes counts the positions visited by all searches so far.
	Nodes int
}

type ttKind struct{ prover, master goban.Color }

type ttKey struct {
	hash   uint64
	ko     goban.Loc
	toMove goban.Color
	passes uint8
}

// New prepares a solver for p. The target must be a stone; region points
// must be on the board.
func New(p Position, lim Limits) (*Solver, error) {
	if p.Board == nil {
		return nil, fmt.Errorf("%w: no board", ErrPosition)
	}
	if lim.MaxDepth <= 0 {
		lim.MaxDepth = DefaultMaxDepth
	}
	if lim.MaxNodes <= 0 {
		lim.MaxNodes = DefaultMaxNodes
	}
	if !p.Board.OnBoard(p.Target) {
		return nil, fmt.Errorf("%w: target %v off the board", ErrPosition, p.Target)
	}
	def := p.Board.At(p.Target)
	if def != goban.Black && def != goban.White {
		return nil, fmt.Errorf("%w: no stone at the target %v", ErrPosition, p.Target)
	}
	if p.ToMove != goban.Black && p.ToMove != goban.White {
		return nil, fmt.Errorf("%w: no side to move", ErrPosition)
	}
	s := &Solver{b: p.Board.Clone(), target: p.Board.Loc(p.Target), defender: def, toMove: p.ToMove, limits: lim,
		tts: map[ttKind]map[ttKey]bool{}, benson: map[uint64]bool{}}
	for _, q := range p.Region {
		if !p.Board.OnBoard(q) {
			return nil, fmt.Errorf("%w: region point %v off the board", ErrPosition, q)
		}
		s.region = append(s.region, p.Board.Loc(q))
	}
	// A stone's point is an ordinary point once the stone is captured: the
	// player may retake a ko there or play inside the eye space the capture
	// made. Without this the solver read another game than Go: a 'seki'
	// whose owner dies to a sacrifice (the captured space is a straight
	// three whose middle White could not play) counted as alive. The points
	// come after the region's, so the move order among these is unchanged.
	in := make(map[goban.Loc]bool, len(s.region))
	for _, l := range s.region {
		in[l] = true
	}
	for y := range p.Board.Height() {
		for x := range p.Board.Width() {
			pt := goban.Point{X: x, Y: y}
			if l := p.Board.Loc(pt); p.Board.At(pt) != goban.Empty && !in[l] {
				in[l] = true
				s.region = append(s.region, l)
			}
		}
	}
	return s, nil
}

// Defender returns the colour of the target group.
func (s *Solver) Defender() goban.Color { return s.defender }

// Board returns the solver's current position; callers must not change it.
func (s *Solver) Board() *goban.Board { return s.b }

// ToMove returns the side to move in the current position.
func (s *Solver) ToMove() goban.Color { return s.toMove }

// Play plays m (a point, or a pass when pass is true) for the side to move,
// changing the current position, under the simple ko rule with no suicide.
// It returns an error for an illegal move or a point outside the region.
func (s *Solver) Play(p goban.Point, pass bool) error {
	if pass {
		s.b.PlayPass()
		s.toMove = s.toMove.Opponent()
		return nil
	}
	if !s.b.OnBoard(p) {
		return fmt.Errorf("%w: %v off the board", ErrPosition, p)
	}
	l := s.b.Loc(p)
	in := false
	for _, r := range s.region {
		in = in || r == l
	}
	if !in {
		return fmt.Errorf("%w: %v outside the region", ErrPosition, p)
	}
	if err := s.b.Check(l, s.toMove, false); err != nil {
		return fmt.Errorf("tsumego: %v at %v: %w", s.toMove, p, err)
	}
	s.b.Play(l, s.toMove)
	s.toMove = s.toMove.Opponent()
	return nil
}

// Undo takes back the last Play.
func (s *Solver) Undo() {
	s.b.Undo()
	s.toMove = s.toMove.Opponent()
}

// Captured reports whether the target group has been captured.
func (s *Solver) Captured() bool { return s.b.ColorAt(s.target) != s.defender }

// Settled reports whether the goal is decided without further play: the
// target is captured, or it is alive by Benson's algorithm.
func (s *Solver) Settled() bool { return s.Captured() || s.bensonAlive() }

func (s *Solver) bensonAlive() bool {
	h := s.b.Hash()
	if v, ok := s.benson[h]; ok {
		return v
	}
	alive := false
	for _, p := range s.b.UnconditionallyAlive(s.defender) {
		if s.b.Loc(p) == s.target {
			alive = true
			break
		}
	}
	s.benson[h] = alive
	return alive
}

// Evaluate returns the result, for side c, of the current position with the
// side to move to play: Win if c's goal is achieved even when the opponent
// wins every ko, Ko if c achieves it only by winning a ko, Fail if the
// opponent achieves the opposite even when c wins every ko, and Unknown if
// the bounds did not suffice to tell.
func (s *Solver) Evaluate(c goban.Color) Result {
	opp := c.Opponent()
	if s.Prove(c, opp) {
		return Win
	}
	if s.Prove(opp, c) {
		return Fail
	}
	if s.Prove(c, c) && s.Prove(opp, opp) {
		return Ko
	}
	return Unknown
}

// Tempi says how far ahead side c must be to achieve its goal from the
// current position with the side to move to play: the least n, at most limit,
// such that c's goal is achieved even when the opponent wins every ko, once
// the opponent has passed n times in a row with c. It is 0 when Evaluate(c)
// is Win, 1 for a direct ko that c takes first (c takes, and connects or
// captures), and 2 or more for an approach ko (c needs n-1 approach moves
// before its capture threatens anything). ok is false when no n up to limit
// suffices within the search bounds. With the opponent to move, the first of
// its passes comes first.
//
// Evaluate alone cannot tell a direct ko from an approach ko: a ko master
// wins both. In the ten thousand year ko of the tests, for example, Evaluate
// says Ko for both sides, and Tempi says 2 for the side that can take the
// ko: its capture is no threat until it has also filled an outside liberty.
func (s *Solver) Tempi(c goban.Color, limit int) (n int, ok bool) {
	for n := 0; n <= limit; n++ {
		if s.aheadBy(c, n) {
			return n, true
		}
	}
	return 0, false
}

// aheadBy reports whether c achieves its goal unconditionally when the
// opponent must pass its next n turns.
func (s *Solver) aheadBy(c goban.Color, n int) bool {
	if n == 0 {
		return s.Prove(c, c.Opponent())
	}
	if s.Settled() {
		return s.Captured() == (c != s.defender)
	}
	if s.toMove != c {
		s.b.PlayPass()
		s.toMove = c
		win := s.aheadBy(c, n-1)
		s.b.Undo()
		s.toMove = c.Opponent()
		return win
	}
	var buf [64]goban.Loc
	for _, l := range s.moves(buf[:0], c, false) {
		if l == goban.PassLoc {
			continue
		}
		s.b.Play(l, c)
		s.toMove = c.Opponent()
		win := s.aheadBy(c, n)
		s.b.Undo()
		s.toMove = c
		if win {
			return true
		}
	}
	return false
}

// Prove reports whether prover achieves its goal from the current position
// with the side to move to play, when master may retake kos at once (use
// goban.Empty for nobody). The prover of the defender's colour wants the
// target never captured; the other wants it captured.
func (s *Solver) Prove(prover, master goban.Color) bool {
	k := ttKind{prover, master}
	if s.tts[k] == nil {
		s.tts[k] = map[ttKey]bool{}
	}
	st := &search{s: s, prover: prover, master: master, tt: s.tts[k], path: map[ttKey]bool{}, budget: s.limits.MaxNodes}
	win, _ := st.prove(s.toMove, 0, 0)
	return win
}

// search is the state of one proof search.
type search struct {
	s              *Solver
	prover, master goban.Color
	tt             map[ttKey]bool
	// path holds the positions of the current line.
	path   map[ttKey]bool
	budget int
}

// prove returns whether the prover wins with toMove to play, and whether the
// answer is exact: neither cut by a bound (which counts against the prover)
// nor decided by a repetition of a position on the current line (which
// counts for the defender: a line that never ends never captures). Only
// exact answers go into the transposition table, so that it never holds a
// result that depends on the way to a position.
func (st *search) prove(toMove goban.Color, depth int, passes uint8) (bool, bool) {
	s := st.s
	proverAttacks := st.prover != s.defender
	if s.Captured() {
		return proverAttacks, true
	}
	if passes >= 2 {
		return !proverAttacks, true
	}
	if st.budget <= 0 || depth >= s.limits.MaxDepth {
		return false, false
	}
	st.budget--
	s.Nodes++
	ko, _ := s.b.Ko(toMove)
	key := ttKey{hash: s.b.Hash(), ko: ko, toMove: toMove, passes: passes}
	if v, ok := st.tt[key]; ok {
		return v, true
	}
	if st.path[key] {
		return !proverAttacks, false
	}
	if s.bensonAlive() {
		st.tt[key] = !proverAttacks
		return !proverAttacks, true
	}
	st.path[key] = true
	defer delete(st.path, key)
	var buf [64]goban.Loc
	moves := s.moves(buf[:0], toMove, toMove == st.master)
	proverMoves := toMove == st.prover
	exact := true
	for _, l := range moves {
		if l == goban.PassLoc {
			s.b.PlayPass()
		} else {
			s.b.Play(l, toMove)
		}
		np := uint8(0)
		if l == goban.PassLoc {
			np = passes + 1
		}
		win, ex := st.prove(toMove.Opponent(), depth+1, np)
		s.b.Undo()
		if win == proverMoves {
			// The side to move found its winning move.
			if ex {
				st.tt[key] = win
			}
			return win, ex
		}
		exact = exact && ex
	}
	// Every move of the side to move lost.
	if exact {
		st.tt[key] = !proverMoves
	}
	return !proverMoves, exact
}

// moves appends c's legal moves in the region to buf, best first by a
// simple ordering, and a pass last. koFree lets c retake a ko at once.
func (s *Solver) moves(buf []goban.Loc, c goban.Color, koFree bool) []goban.Loc {
	type scored struct {
		l goban.Loc
		v int
	}
	var sc [64]scored
	n := 0
	th := s.b.ChainHead(s.target)
	for _, l := range s.region {
		if s.b.ColorAt(l) != goban.Empty {
			continue
		}
		if err := s.b.Check(l, c, false); err != nil && !(koFree && errors.Is(err, goban.ErrKo)) {
			continue
		}
		v := 0
		if s.b.WouldCapture(l, c) {
			v += 100
		}
		for _, nb := range s.b.Neighbors(l) {
			col := s.b.ColorAt(nb)
			if col == goban.Black || col == goban.White {
				v += 2
				if s.b.ChainHead(nb) == th && !s.Captured() {
					v += 10 + 10/max(1, s.b.Liberties(nb))
				}
				if col != c && s.b.InAtari(nb) {
					v += 20
				}
			} else if col == goban.Empty {
				v++
			}
		}
		if n < len(sc) {
			sc[n] = scored{l, v}
			n++
		}
	}
	// Insertion sort: the lists are short.
	for i := 1; i < n; i++ {
		for j := i; j > 0 && sc[j].v > sc[j-1].v; j-- {
			sc[j], sc[j-1] = sc[j-1], sc[j]
		}
	}
	for i := range n {
		buf = append(buf, sc[i].l)
	}
	return append(buf, goban.PassLoc)
}

// Moves returns the legal moves of the side to move in the region, in the
// solver's order, and the pass last.
func (s *Solver) Moves() []Move {
	var out []Move
	for _, l := range s.moves(nil, s.toMove, false) {
		if l == goban.PassLoc {
			out = append(out, Move{Pass: true})
			continue
		}
		out = append(out, Move{Point: s.b.Point(l)})
	}
	return out
}

// Move is a point or a pass.
type Move struct {
	Point goban.Point
	Pass  bool
}

// String returns the move as "pass" or the point.
func (m Move) String() string {
	if m.Pass {
		return "pass"
	}
	return m.Point.String()
}

// PlayMove plays m; see Play.
func (s *Solver) PlayMove(m Move) error { return s.Play(m.Point, m.Pass) }
