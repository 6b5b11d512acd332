// Package learn holds Tengen's lessons for beginners: short sequences of
// small boards on which the learner plays a move, marks stones or points, or
// gives a count. The rules core (goban) decides every answer: a step names
// what the answer must achieve (capture a chain, make it live, mark the
// points where a move is illegal, ...), and Check works that out on the
// position with goban instead of comparing with a stored list, so that a
// lesson cannot teach a rule goban does not play.
//
// The texts of the lessons live in the web server's catalogues under
// "learn.<lesson>.*"; this package knows only positions and goals.
package learn

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"tengen/goban"
)

// Kind is what the learner does on a step.
type Kind string

// The kinds of answer.
const (
	// PlayKind: click one point; the stone is played for ToPlay.
	PlayKind Kind = "play"
	// MarkKind: mark a set of points or stones, then check.
	MarkKind Kind = "mark"
	// CountKind: type a number.
	CountKind Kind = "count"
)

// Goal is what a right answer achieves; Check computes it with goban.
type Goal string

// The goals.
const (
	// Liberties (mark): the liberties of the chain at Target.
	Liberties Goal = "liberties"
	// Capture (play): the move captures the chain at Target.
	Capture Goal = "capture"
	// Atari (play): the move leaves the chain at Target with one liberty,
	// and the stone played is not in atari itself.
	Atari Goal = "atari"
	// Illegal (mark): the empty points where ToPlay may not play.
	Illegal Goal = "illegal"
	// Live (play): after the move the chain at Target is unconditionally
	// alive (Benson's test in goban).
	Live Goal = "live"
	// FalseEyes (mark): the false eyes of the chain at Target.
	FalseEyes Goal = "false-eyes"
	// SekiStones (mark): the stones that live in seki (goban's count).
	SekiStones Goal = "seki"
	// Ladder (play): after the move the chain at Target is captured against
	// every defence (a ladder or a net), read by this package on goban.
	Ladder Goal = "ladder"
	// Net (play): as Ladder, but the chain escapes only with four
	// liberties, so that the reading also sees a net (geta).
	Net Goal = "net"
	// DeadStones (mark): the dead stones, as goban's estimate finds them.
	DeadStones Goal = "dead"
	// Margin (count): Black's score minus White's under the step's rules
	// and komi, with the dead stones goban estimates.
	Margin Goal = "margin"
	// Handicap (mark): the points of Count fixed handicap stones.
	Handicap Goal = "handicap"
	// WinAtari (play): under the atari ruleset the move wins at once.
	WinAtari Goal = "win-atari"
	// Safe (play): after the move the opponent has no capture.
	Safe Goal = "safe"
)

// Step is one board of a lesson.
type Step struct {
	// Board is the position, one string per row from the top: '.' empty,
	// 'X' black, 'O' white (dia builds it from a spaced diagram).
	Board []string `json:"board"`
	// Moves are played in order after the set-up, as "B C3" or "W D4",
	// to give the position a history (a ko that was just taken).
	Moves []string `json:"-"`
	// ToPlay is the colour whose move or view the step asks for.
	ToPlay goban.Color `json:"-"`
	// Rules names the ruleset; empty means japanese.
	Rules string `json:"rules,omitempty"`
	// Komi is the komi of a count.
	Komi float64 `json:"komi,omitempty"`
	// Kind is what the learner does.
	Kind Kind `json:"kind"`
	// Goal is what a right answer achieves.
	Goal Goal `json:"goal"`
	// Target is the point (GTP form, "C3") of the chain the goal is about.
	Target string `json:"target,omitempty"`
	// Count is the number of handicap stones of a Handicap goal.
	Count int `json:"count,omitempty"`
}

// Lesson is a named sequence of steps.
type Lesson struct {
	// ID names the lesson in URLs and in the catalogues ("learn.<ID>.*").
	ID string `json:"id"`
	// Steps are the boards in order.
	Steps []Step `json:"steps"`
	// Terms are glossary entries the lesson links to.
	Terms []string `json:"terms,omitempty"`
	// AtariGo offers a game of Atari-Go against the computer at the end.
	AtariGo bool `json:"atariGo,omitempty"`
}

// Answer is what the learner gave: a point to play, the points marked, or a
// number.
type Answer struct {
	Point  string   `json:"point,omitempty"`
	Points []string `json:"points,omitempty"`
	Count  *float64 `json:"count,omitempty"`
}

// Verdict is Check's judgement. Reason is empty for a right answer and
// otherwise names the mistake; the catalogues explain it as
// "learn.wrong.<Reason>" with Args.
type Verdict struct {
	Right  bool   `json:"right"`
	Reason string `json:"reason,omitempty"`
	Args   []any  `json:"args,omitempty"`
	// After is the board after a played move (rows as in Step.Board).
	After []string `json:"after,omitempty"`
}

// Find returns the lesson with the given id.
func Find(id string) (*Lesson, bool) {
	for i := range lessons {
		if lessons[i].ID == id {
			return &lessons[i], true
		}
	}
	return nil, false
}

// Lessons returns the lessons in the order they are taught.
func Lessons() []Lesson { return slices.Clone(lessons) }

// Size returns the width and height of the step's board.
func (s *Step) Size() (w, h int) {
	if len(s.Board) == 0 {
		return 0, 0
	}
	return len(s.Board[0]), len(s.Board)
}

// ruleset returns the step's ruleset.
func (s *Step) ruleset() (goban.Ruleset, error) {
	name := s.Rules
	if name == "" {
		name = "japanese"
	}
	return goban.RulesetByName(name)
}

// Game sets the step's position up on a new game.
func (s *Step) Game() (*goban.Game, error) {
	rules, err := s.ruleset()
	if err != nil {
		return nil, err
	}
	w, h := s.Size()
	g, err := goban.NewGame(w, h, rules)
	if err != nil {
		return nil, err
	}
	g.SetKomi(s.Komi)
	var black, white []goban.Point
	for y, row := range s.Board {
		if len(row) != w {
			return nil, fmt.Errorf("learn: row %d has %d points, want %d", y, len(row), w)
		}
		for x, c := range row {
			switch c {
			case 'X':
				black = append(black, goban.Point{X: x, Y: y})
			case 'O':
				white = append(white, goban.Point{X: x, Y: y})
			case '.':
			default:
				return nil, fmt.Errorf("learn: unknown point %q", c)
			}
		}
	}
	if err := g.Setup(goban.Black, black...); err != nil {
		return nil, err
	}
	if err := g.Setup(goban.White, white...); err != nil {
		return nil, err
	}
	for _, mv := range s.Moves {
		col, vertex, ok := strings.Cut(mv, " ")
		if !ok {
			return nil, fmt.Errorf("learn: move %q", mv)
		}
		c, err := goban.ParseColor(col)
		if err != nil {
			return nil, err
		}
		p, err := s.point(vertex)
		if err != nil {
			return nil, err
		}
		g.SetToMove(c)
		if err := g.Play(goban.PlayAt(c, p)); err != nil {
			return nil, fmt.Errorf("learn: move %q: %w", mv, err)
		}
	}
	g.SetToMove(s.ToPlay)
	return g, nil
}

// point parses a vertex of the step's board.
func (s *Step) point(v string) (goban.Point, error) {
	w, h := s.Size()
	p, pass, err := goban.ParseVertex(v, w, h)
	if err == nil && pass {
		err = errors.New("learn: a pass is no point")
	}
	return p, err
}

// rows writes a board back as Step.Board rows.
func rows(b *goban.Board) []string { return dia(b.String()) }

// Check judges an answer to the step.
func (s *Step) Check(a Answer) (Verdict, error) {
	g, err := s.Game()
	if err != nil {
		return Verdict{}, err
	}
	switch s.Kind {
	case PlayKind:
		return s.checkPlay(g, a)
	case MarkKind:
		want, err := s.Solution()
		if err != nil {
			return Verdict{}, err
		}
		return s.checkMarks(a, want)
	case CountKind:
		want, err := s.margin(g)
		if err != nil {
			return Verdict{}, err
		}
		if a.Count == nil {
			return Verdict{Reason: "noCount"}, nil
		}
		if *a.Count != want {
			return Verdict{Reason: "count"}, nil
		}
		return Verdict{Right: true}, nil
	}
	return Verdict{}, fmt.Errorf("learn: unknown kind %q", s.Kind)
}

// verdicts caches the verdicts of play steps by step and point: there are
// only so many points, and reading a net takes a noticeable fraction of a
// second, which a server should spend once.
var verdicts sync.Map // verdictKey → Verdict

type verdictKey struct {
	step  string // fmt's form of the Step
	point string
}

// checkPlay plays the answer on g and judges the result.
func (s *Step) checkPlay(g *goban.Game, a Answer) (Verdict, error) {
	p, err := s.point(a.Point)
	if err != nil {
		return Verdict{Reason: "noPoint"}, nil
	}
	// The key is the point as goban writes it, so that the cache holds at
	// most one verdict per point of the board.
	key := verdictKey{fmt.Sprintf("%+v", *s), p.String()}
	if v, ok := verdicts.Load(key); ok {
		return v.(Verdict), nil
	}
	v, err := s.judgePlay(g, p)
	if err == nil {
		verdicts.Store(key, v)
	}
	return v, err
}

// judgePlay is checkPlay without the cache.
func (s *Step) judgePlay(g *goban.Game, p goban.Point) (Verdict, error) {
	before := g.Clone()
	if err := g.Play(goban.PlayAt(s.ToPlay, p)); err != nil {
		var reason string
		switch {
		case errors.Is(err, goban.ErrOccupied):
			reason = "occupied"
		case errors.Is(err, goban.ErrSuicide):
			reason = "suicide"
		case errors.Is(err, goban.ErrKo), errors.Is(err, goban.ErrSuperko):
			reason = "ko"
		default:
			return Verdict{}, err
		}
		return Verdict{Reason: reason}, nil
	}
	v := Verdict{After: rows(g.Board())}
	ok, reason, err := s.achieved(before, g, p)
	if err != nil {
		return Verdict{}, err
	}
	v.Right, v.Reason = ok, reason
	return v, nil
}

// achieved says whether the legal move p, which turned before into after,
// reaches the step's goal, and if not, why.
func (s *Step) achieved(before, after *goban.Game, p goban.Point) (bool, string, error) {
	b := after.Board()
	var target goban.Point
	if s.Target != "" {
		t, err := s.point(s.Target)
		if err != nil {
			return false, "", err
		}
		target = t
	}
	switch s.Goal {
	case Capture:
		if b.At(target) == before.Board().At(target) {
			return false, "noCapture", nil
		}
		return true, "", nil
	case Atari:
		if b.At(target) != s.ToPlay.Opponent() {
			return false, "noAtari", nil
		}
		if b.Liberties(b.Loc(target)) != 1 {
			return false, "noAtari", nil
		}
		if b.Liberties(b.Loc(p)) < 2 {
			return false, "selfAtari", nil
		}
		return true, "", nil
	case Live:
		if slices.Contains(b.UnconditionallyAlive(s.ToPlay), target) {
			return true, "", nil
		}
		return false, "notAlive", nil
	case Ladder, Net:
		escape := 3
		if s.Goal == Net {
			escape = 4
		}
		if b.At(target) != s.ToPlay.Opponent() || !captured(after, target, escape, 0, map[memoKey]bool{}) {
			return false, "escapes", nil
		}
		return true, "", nil
	case WinAtari:
		if r := after.Result(); after.Ended() && r.Winner == s.ToPlay {
			return true, "", nil
		}
		return false, "noCapture", nil
	case Safe:
		if canCapture(after, s.ToPlay.Opponent()) {
			return false, "unsafe", nil
		}
		return true, "", nil
	}
	return false, "", fmt.Errorf("learn: goal %q is not a play goal", s.Goal)
}

// checkMarks compares the marked points with the solution.
func (s *Step) checkMarks(a Answer, want []goban.Point) (Verdict, error) {
	got := map[goban.Point]bool{}
	for _, v := range a.Points {
		p, err := s.point(v)
		if err != nil {
			return Verdict{Reason: "noPoint"}, nil
		}
		got[p] = true
	}
	missing := 0
	for _, p := range want {
		if !got[p] {
			missing++
		}
		delete(got, p)
	}
	extra := len(got)
	switch {
	case extra > 0:
		return Verdict{Reason: "extra", Args: []any{extra}}, nil
	case missing > 0:
		return Verdict{Reason: "missing", Args: []any{missing}}, nil
	}
	return Verdict{Right: true}, nil
}

// Solution returns the points a mark step wants, computed by goban: the set
// the learner must mark exactly.
func (s *Step) Solution() ([]goban.Point, error) {
	g, err := s.Game()
	if err != nil {
		return nil, err
	}
	b := g.Board()
	var target goban.Point
	if s.Target != "" {
		if target, err = s.point(s.Target); err != nil {
			return nil, err
		}
	}
	var out []goban.Point
	switch s.Goal {
	case Liberties:
		seen := map[goban.Point]bool{}
		for _, q := range b.Chain(target) {
			for _, n := range neighbours(b, q) {
				if b.At(n) == goban.Empty && !seen[n] {
					seen[n] = true
					out = append(out, n)
				}
			}
		}
	case Illegal:
		for _, l := range b.Empties() {
			p := b.Point(l)
			if g.Legal(goban.PlayAt(s.ToPlay, p)) != nil {
				out = append(out, p)
			}
		}
	case FalseEyes:
		out = falseEyes(b, target)
	case SekiStones:
		sc, err := g.Score(nil)
		if err != nil {
			return nil, err
		}
		out = sc.Seki
	case DeadStones:
		out = b.EstimateDead(deadPlayouts)
	case Handicap:
		w, h := s.Size()
		out, err = goban.FixedHandicap(w, h, s.Count, false)
		if err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("learn: goal %q is not a mark goal", s.Goal)
	}
	return out, nil
}

// deadPlayouts is the number of playouts of goban's dead-stone estimate;
// the estimate uses a fixed seed, so it is the same every time.
const deadPlayouts = 400

// margin is Black's score minus White's with goban's dead stones.
func (s *Step) margin(g *goban.Game) (float64, error) {
	if s.Goal != Margin {
		return 0, fmt.Errorf("learn: goal %q is not a count goal", s.Goal)
	}
	sc, err := g.Score(g.Board().EstimateDead(deadPlayouts))
	if err != nil {
		return 0, err
	}
	return sc.Margin(), nil
}

// neighbours returns the points next to p on the board.
func neighbours(b *goban.Board, p goban.Point) []goban.Point {
	var out []goban.Point
	for _, d := range [4]goban.Point{{X: 1}, {X: -1}, {Y: 1}, {Y: -1}} {
		q := goban.Point{X: p.X + d.X, Y: p.Y + d.Y}
		if b.OnBoard(q) {
			out = append(out, q)
		}
	}
	return out
}

// falseEyes returns the empty points next to the group at target whose
// neighbours all hold its colour but that are false: on the edge one
// diagonal, in the middle two diagonals held by the opponent or open to
// the opponent's play (Pfaundler's "falsches Auge").
func falseEyes(b *goban.Board, target goban.Point) []goban.Point {
	c := b.At(target)
	var out []goban.Point
	for _, l := range b.Empties() {
		p := b.Point(l)
		ns := neighbours(b, p)
		eye := true
		for _, n := range ns {
			if b.At(n) != c {
				eye = false
			}
		}
		if !eye {
			continue
		}
		diag, bad := 0, 0
		for _, d := range [4]goban.Point{{X: 1, Y: 1}, {X: 1, Y: -1}, {X: -1, Y: 1}, {X: -1, Y: -1}} {
			q := goban.Point{X: p.X + d.X, Y: p.Y + d.Y}
			if !b.OnBoard(q) {
				continue
			}
			diag++
			if b.At(q) == c.Opponent() {
				bad++
			}
		}
		if (diag == 4 && bad >= 2) || (diag < 4 && bad >= 1) {
			out = append(out, p)
		}
	}
	return out
}

// maxLadder bounds the reading of a ladder in plies.
const maxLadder = 40

// maxNet bounds the reading of a net, which also follows chains with three
// liberties and so branches much more than a ladder; the net of the ladder
// lesson needs 22 plies.
const maxNet = 22

// captured reads whether the chain at target is captured against every
// defence: the defender extends on a liberty or captures an attacking chain
// in atari; the attacker plays on the target's liberties. escape liberties
// are an escape.
func captured(g *goban.Game, target goban.Point, escape, depth int, memo map[memoKey]bool) bool {
	b := g.Board()
	key := memoKey{b.Hash(), g.ToMove()}
	if r, ok := memo[key]; ok {
		return r
	}
	r := read(g, target, escape, depth, memo)
	memo[key] = r
	return r
}

// memoKey is a position with the player to move; the ladder reading
// remembers its results by it. Positions reached at different depths may
// get different answers near maxLadder, which only makes a deep line count
// as an escape earlier.
type memoKey struct {
	hash   uint64
	toMove goban.Color
}

// read is captured without the memo.
func read(g *goban.Game, target goban.Point, escape, depth int, memo map[memoKey]bool) bool {
	b := g.Board()
	def := b.At(target)
	if def == goban.Empty {
		return true
	}
	if depth > maxLadder || (escape > 3 && depth > maxNet) {
		return false
	}
	libs := b.Liberties(b.Loc(target))
	toMove := g.ToMove()
	if toMove != def {
		if libs >= escape {
			return false
		}
		if libs == 1 {
			return true // the attacker takes the last liberty
		}
		for _, p := range liberties(b, target) {
			h := g.Clone()
			if h.Play(goban.PlayAt(toMove, p)) != nil {
				continue
			}
			if captured(h, target, escape, depth+1, memo) {
				return true
			}
		}
		return false
	}
	if libs >= escape {
		return false
	}
	var tries []goban.Point
	tries = append(tries, liberties(b, target)...)
	for _, q := range b.Chain(target) {
		for _, n := range neighbours(b, q) {
			if b.At(n) == def.Opponent() && b.Liberties(b.Loc(n)) == 1 {
				tries = append(tries, liberties(b, n)...)
			}
		}
	}
	moved := false
	for _, p := range tries {
		h := g.Clone()
		if h.Play(goban.PlayAt(def, p)) != nil {
			continue
		}
		moved = true
		if !captured(h, target, escape, depth+1, memo) {
			return false
		}
	}
	if !moved {
		// No defence: the attacker plays on.
		h := g.Clone()
		if h.Play(goban.PassMove(def)) != nil {
			return false
		}
		return captured(h, target, escape, depth+1, memo)
	}
	return true
}

// liberties returns the empty points next to the chain at p.
func liberties(b *goban.Board, p goban.Point) []goban.Point {
	seen := map[goban.Point]bool{}
	var out []goban.Point
	for _, q := range b.Chain(p) {
		for _, n := range neighbours(b, q) {
			if b.At(n) == goban.Empty && !seen[n] {
				seen[n] = true
				out = append(out, n)
			}
		}
	}
	return out
}

// canCapture reports whether c has a legal move that captures a stone.
func canCapture(g *goban.Game, c goban.Color) bool {
	b := g.Board()
	for _, l := range b.Empties() {
		p := b.Point(l)
		if g.Legal(goban.PlayAt(c, p)) == nil && b.WouldCapture(l, c) {
			return true
		}
	}
	return false
}
