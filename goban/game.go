package goban

import (
	"errors"
	"fmt"
	"math"
	"strconv"
)

// whiteToMove is xored into a position's hash when White is to move, which
// turns the hash of the stones into the hash of the situation.
const whiteToMove uint64 = 0x5bd1e9955bd1e995

// IllegalMoveError says why a move was refused. Reason is one of
// ErrOccupied, ErrSuicide, ErrKo, ErrSuperko, ErrOffBoard, ErrNotYourTurn,
// ErrGameOver, ErrPassNotAllowed and ErrHandicapToPlace, and errors.Is sees
// through to it.
type IllegalMoveError struct {
	Move   Move
	Reason error
}

// Error says which move was refused and why.
func (e *IllegalMoveError) Error() string {
	return fmt.Sprintf("illegal move %v: %v", e.Move, e.Reason)
}

// Unwrap returns the reason.
func (e *IllegalMoveError) Unwrap() error { return e.Reason }

// EndReason says how a game ended.
type EndReason uint8

// The ways a game ends.
const (
	// NotEnded: the game goes on.
	NotEnded EndReason = iota
	// EndPasses: both players passed one after the other; the score decides.
	EndPasses
	// EndResign: a player resigned.
	EndResign
	// EndTime: a player ran out of time.
	EndTime
	// EndForfeit: a player forfeited, for example by leaving the game.
	EndForfeit
	// EndCapture: the first capture won an Atari-Go game.
	EndCapture
	// EndRepetition: a whole-board position recurred three times with no
	// pass in between under simple ko; the game has no result (1989 Japanese
	// rules, Art. 12).
	EndRepetition
	// EndRepetitionTie: a play recreated an earlier position with both
	// colours having lost the same number of stones in between, under a
	// ruleset whose Repetition is RepetitionTie; the game is a tie.
	EndRepetitionTie
)

// String names the reason.
func (r EndReason) String() string {
	return [...]string{"not ended", "two passes", "resignation", "time", "forfeit", "first capture", "repetition", "repetition tie"}[r]
}

// Result is the outcome of a game as SGF's RE property writes it.
type Result struct {
	// Winner is Black or White, or Empty for a draw (jigo) or no result.
	Winner Color
	// Reason says how the game ended.
	Reason EndReason
	// Margin is the winner's lead in points when the score decided.
	Margin float64
}

// String writes the result as SGF does: "B+3.5", "W+R", "B+T", "B+F",
// "B+" (a win without a count, as in Atari-Go), "0" for jigo and "Void" for
// no result.
func (r Result) String() string {
	switch {
	case r.Reason == NotEnded:
		return "?"
	case r.Reason == EndRepetition:
		return "Void"
	case r.Reason == EndRepetitionTie:
		return "0"
	case r.Winner == Empty:
		return "0"
	}
	s := r.Winner.Letter() + "+"
	switch r.Reason {
	case EndResign:
		return s + "R"
	case EndTime:
		return s + "T"
	case EndForfeit:
		return s + "F"
	case EndCapture:
		return s
	}
	return s + strconv.FormatFloat(r.Margin, 'f', -1, 64)
}

// ParseResult reads an SGF result such as "B+3.5", "W+R", "0", "Draw" or
// "Void".
func ParseResult(s string) (Result, error) {
	switch s {
	case "0", "Draw", "Jigo":
		return Result{Reason: EndPasses}, nil
	case "Void":
		return Result{Reason: EndRepetition}, nil
	}
	if len(s) < 2 || s[1] != '+' {
		return Result{}, fmt.Errorf("goban: %q is not a result", s)
	}
	var r Result
	switch s[0] {
	case 'B':
		r.Winner = Black
	case 'W':
		r.Winner = White
	default:
		return Result{}, fmt.Errorf("goban: %q is not a result", s)
	}
	switch rest := s[2:]; rest {
	case "R", "Resign":
		r.Reason = EndResign
	case "T", "Time":
		r.Reason = EndTime
	case "F", "Forfeit":
		r.Reason = EndForfeit
	case "":
		r.Reason = EndCapture
	default:
		m, err := strconv.ParseFloat(rest, 64)
		if err != nil || m <= 0 || math.IsInf(m, 0) {
			return Result{}, fmt.Errorf("goban: %q is not a result", s)
		}
		r.Reason, r.Margin = EndPasses, m
	}
	return r, nil
}

// Game is a game of Go under a ruleset: the board and the history that the
// rules need. Its zero value is not usable; call NewGame.
//
// A Game is not safe for concurrent use.
type Game struct {
	rules  Ruleset
	komi   float64
	board  *Board
	toMove Color
	// freeOrder lets either colour move at any time, as GTP's play does.
	freeOrder bool

	handicap   int
	handicapAt []Point
	// placing is the number of free handicap stones Black has still to
	// place (StartFreeHandicap); handicapAt holds those placed so far.
	placing int

	moves []Move
	// situations[i] is the hash of the situation (stones and player to move)
	// before moves[i]; the last entry is the current one, so it is one
	// longer than moves. boards and lost hold the hash of the stones and
	// the stones each colour had lost at the same moments.
	situations []uint64
	boards     []uint64
	lost       [][2]int
	// positions holds how often each arrangement of stones has occurred;
	// superko consults it.
	positions map[uint64]int
	// sits counts situations in the same way.
	sits map[uint64]int
	// floor is the number of moves that Undo may not take back because
	// setup stones were placed after them.
	floor int
	// resumes holds the move numbers at which play was resumed after two
	// passes; passes before the last one do not count towards the end.
	resumes []int

	// offered is set while the last play created a situation for the
	// third time with no pass in between under RepetitionVoidByAgreement:
	// the players may agree to end the game without result (AgreeVoid).
	offered bool

	result Result
}

// NewGame starts a game on an empty board with the ruleset's default komi.
func NewGame(width, height int, rules Ruleset) (*Game, error) {
	b, err := NewBoard(width, height)
	if err != nil {
		return nil, err
	}
	g := &Game{rules: rules, board: b, toMove: Black, komi: rules.DefaultKomi(width, height, 0)}
	g.resetHistory()
	return g, nil
}

// MustNewGame is NewGame for arguments known to be valid; it panics
// otherwise.
func MustNewGame(width, height int, rules Ruleset) *Game {
	g, err := NewGame(width, height, rules)
	if err != nil {
		panic(err)
	}
	return g
}

// Clone returns an independent copy of the game.
func (g *Game) Clone() *Game {
	c := *g
	c.board = g.board.Clone()
	c.handicapAt = append([]Point(nil), g.handicapAt...)
	c.moves = append([]Move(nil), g.moves...)
	c.resumes = append([]int(nil), g.resumes...)
	c.situations = append([]uint64(nil), g.situations...)
	c.boards = append([]uint64(nil), g.boards...)
	c.lost = append([][2]int(nil), g.lost...)
	c.positions = make(map[uint64]int, len(g.positions))
	for k, v := range g.positions {
		c.positions[k] = v
	}
	c.sits = make(map[uint64]int, len(g.sits))
	for k, v := range g.sits {
		c.sits[k] = v
	}
	return &c
}

func (g *Game) situation() uint64 {
	h := g.board.Hash()
	if g.toMove == White {
		h ^= whiteToMove
	}
	return h
}

// lostNow returns the stones Black and White have lost so far.
func (g *Game) lostNow() [2]int {
	return [2]int{g.board.Prisoners(White), g.board.Prisoners(Black)}
}

func (g *Game) resetHistory() {
	g.situations = append(g.situations[:0], g.situation())
	g.boards = append(g.boards[:0], g.board.Hash())
	g.lost = append(g.lost[:0], g.lostNow())
	g.positions = map[uint64]int{g.board.Hash(): 1}
	g.sits = map[uint64]int{g.situation(): 1}
	g.floor = len(g.moves)
}

// Rules returns the game's ruleset.
func (g *Game) Rules() Ruleset { return g.rules }

// SetRules changes the ruleset, as GTP's kgs-rules does before a game.
func (g *Game) SetRules(r Ruleset) { g.rules = r }

// Komi returns the komi: points added to White's score.
func (g *Game) Komi() float64 { return g.komi }

// SetKomi sets the komi.
func (g *Game) SetKomi(k float64) { g.komi = k }

// Board returns the current board. It belongs to the game: read it, copy it
// with Clone, but do not play on it.
func (g *Game) Board() *Board { return g.board }

// Width returns the board's width.
func (g *Game) Width() int { return g.board.w }

// Height returns the board's height.
func (g *Game) Height() int { return g.board.h }

// ToMove returns the colour whose turn it is: Black while free handicap
// stones remain to be placed.
func (g *Game) ToMove() Color {
	if g.placing > 0 {
		return Black
	}
	return g.toMove
}

// SetToMove makes it c's turn, as SGF's PL property does.
func (g *Game) SetToMove(c Color) {
	if c == Black || c == White {
		g.toMove = c
		g.situations[len(g.situations)-1] = g.situation()
	}
}

// SetFreeOrder lets either colour play at any time when on is true, as
// GTP's play command and SGF records with consecutive moves of one colour
// need. Turn order is enforced when it is false, the default.
func (g *Game) SetFreeOrder(on bool) { g.freeOrder = on }

// Moves returns the moves played so far, passes and resignation included,
// but not handicap or setup stones. The slice belongs to the game.
func (g *Game) Moves() []Move { return g.moves }

// MoveNumber returns the number of moves played.
func (g *Game) MoveNumber() int { return len(g.moves) }

// LastMove returns the last move and true, or false before the first move.
func (g *Game) LastMove() (Move, bool) {
	if len(g.moves) == 0 {
		return Move{}, false
	}
	return g.moves[len(g.moves)-1], true
}

// Captures returns the number of stones c has captured during play.
func (g *Game) Captures(c Color) int { return g.board.Prisoners(c) }

// Handicap returns the number of handicap stones and their points. During
// free placement the number is the one announced to StartFreeHandicap and
// the points are those placed so far. The slice belongs to the game.
func (g *Game) Handicap() (int, []Point) { return g.handicap, g.handicapAt }

// Result returns the outcome when the game has ended by resignation, time,
// forfeit, capture or repetition. After two passes it returns Reason
// EndPasses with no winner: the score decides, see Score.
func (g *Game) Result() Result { return g.result }

// Ended reports whether the game has ended.
func (g *Game) Ended() bool { return g.result.Reason != NotEnded }

// ConsecutivePasses returns how many passes end the move list.
func (g *Game) ConsecutivePasses() int {
	n, start := 0, 0
	if len(g.resumes) > 0 {
		start = g.resumes[len(g.resumes)-1]
	}
	for i := len(g.moves) - 1; i >= start && g.moves[i].Kind == Pass; i-- {
		n++
	}
	return n
}

// SetHandicap places n handicap stones: none for 0 and 1 (handicap 1 means
// Black moves first and White gets no komi but 0.5), the fixed points for 2
// or more (see FixedHandicap), and sets komi to the ruleset's handicap komi.
// The board must be empty and no move played. Pfaundler's historic placement
// is used when historic is set or the ruleset's HistoricHandicap is.
func (g *Game) SetHandicap(n int, historic bool) error {
	historic = historic || g.rules.HistoricHandicap
	if n < 0 || n > MaxHandicap {
		return fmt.Errorf("goban: handicap %d is outside 0 to %d", n, MaxHandicap)
	}
	if n <= 1 {
		if err := g.checkFresh(); err != nil {
			return err
		}
		g.handicap = n
		g.komi = g.rules.DefaultKomi(g.Width(), g.Height(), n)
		return nil
	}
	pts, err := FixedHandicap(g.Width(), g.Height(), n, historic)
	if err != nil {
		return err
	}
	return g.PlaceHandicap(pts)
}

// PlaceHandicap puts Black's handicap stones on the given points (free
// placement, or the fixed points); with two or more White moves next. Komi
// becomes the ruleset's handicap komi; set it afterwards to change it.
func (g *Game) PlaceHandicap(pts []Point) error {
	if err := g.checkHandicap(len(pts)); err != nil {
		return err
	}
	seen := map[Point]bool{}
	for _, p := range pts {
		if !g.board.OnBoard(p) {
			return fmt.Errorf("goban: handicap stone at %v: %w", p, ErrOffBoard)
		}
		if seen[p] {
			return fmt.Errorf("goban: handicap stone at %v twice", p)
		}
		seen[p] = true
	}
	if err := g.board.Setup(Black, pts...); err != nil {
		return err
	}
	g.handicap = len(pts)
	g.handicapAt = append([]Point(nil), pts...)
	g.komi = g.rules.DefaultKomi(g.Width(), g.Height(), len(pts))
	g.handicapPlaced()
	return nil
}

// StartFreeHandicap lets Black place n handicap stones one at a time with
// PlaceHandicapStone, as a player does on a board, instead of all at once
// with PlaceHandicap. The board must be empty and no move played; n is 2 to
// MaxHandicap and less than the number of points. Komi becomes the
// ruleset's handicap komi now, so a komi set afterwards survives the
// placement. Until the last stone is placed it is Black's turn and Play
// refuses plays and passes with ErrHandicapToPlace; a resignation is
// allowed.
func (g *Game) StartFreeHandicap(n int) error {
	if err := g.checkHandicap(n); err != nil {
		return err
	}
	g.placing = n
	g.handicap = n
	g.handicapAt = nil
	g.komi = g.rules.DefaultKomi(g.Width(), g.Height(), n)
	return nil
}

// PlaceHandicapStone puts Black's next free handicap stone on p. A point off
// the board or occupied is refused with an *IllegalMoveError whose Reason is
// ErrOffBoard or ErrOccupied, and the game is unchanged. After the last
// stone the game goes on exactly as after PlaceHandicap with the same
// points: White moves next (Black under BlackFirstAfterHandicap), and the
// komi is kept.
func (g *Game) PlaceHandicapStone(p Point) error {
	m := PlayAt(Black, p)
	switch {
	case g.Ended():
		return &IllegalMoveError{Move: m, Reason: ErrGameOver}
	case g.placing == 0:
		return errors.New("goban: no free handicap stones to place")
	case !g.board.OnBoard(p):
		return &IllegalMoveError{Move: m, Reason: ErrOffBoard}
	case g.board.At(p) != Empty:
		return &IllegalMoveError{Move: m, Reason: ErrOccupied}
	}
	if err := g.board.Setup(Black, p); err != nil {
		return err
	}
	g.handicapAt = append(g.handicapAt, p)
	g.placing--
	if g.placing == 0 {
		g.handicapPlaced()
	}
	return nil
}

// HandicapToPlace returns how many free handicap stones Black has still to
// place: 0 unless StartFreeHandicap began a placement that is not finished.
func (g *Game) HandicapToPlace() int { return g.placing }

// handicapPlaced starts play after the handicap stones are on the board.
func (g *Game) handicapPlaced() {
	g.placing = 0
	g.toMove = White
	if g.rules.BlackFirstAfterHandicap {
		g.toMove = Black
	}
	g.resetHistory()
}

// checkHandicap says whether n handicap stones may be placed now.
func (g *Game) checkHandicap(n int) error {
	if err := g.checkFresh(); err != nil {
		return err
	}
	if n < 2 || n > MaxHandicap || n >= g.Width()*g.Height() {
		return fmt.Errorf("goban: %d handicap stones; 2 to %d are allowed", n, MaxHandicap)
	}
	return nil
}

func (g *Game) checkFresh() error {
	if len(g.moves) > 0 || g.board.Stones(Black)+g.board.Stones(White) > 0 || g.placing > 0 {
		return errors.New("goban: handicap needs an empty board before the first move")
	}
	return nil
}

// Setup adds stones of colour c, or clears points with Empty, outside the
// rules, as SGF's AB, AW and AE do. Moves before it can no longer be undone.
func (g *Game) Setup(c Color, pts ...Point) error {
	if err := g.board.Setup(c, pts...); err != nil {
		return err
	}
	g.resetHistory()
	return nil
}

// Legal returns nil if m may be played now, or an *IllegalMoveError that
// says why not.
func (g *Game) Legal(m Move) error {
	if err := g.legal(m); err != nil {
		return &IllegalMoveError{Move: m, Reason: err}
	}
	return nil
}

func (g *Game) legal(m Move) error {
	if g.Ended() {
		return ErrGameOver
	}
	if m.Color != Black && m.Color != White {
		return fmt.Errorf("%v cannot move", m.Color)
	}
	if !g.freeOrder && m.Color != g.ToMove() {
		return ErrNotYourTurn
	}
	if g.placing > 0 && m.Kind != Resign {
		return ErrHandicapToPlace
	}
	if m.Kind == Pass && g.rules.PassOnlyWithoutMove && g.canPlayStone(m.Color) {
		return ErrPassNotAllowed
	}
	if m.Kind != Play {
		return nil
	}
	if !g.board.OnBoard(m.Point) {
		return ErrOffBoard
	}
	l := g.board.Loc(m.Point)
	if err := g.board.Check(l, m.Color, g.rules.MultiStoneSuicide); err != nil {
		return err
	}
	if g.rules.Ko == SimpleKo {
		return nil
	}
	g.board.Play(l, m.Color)
	h := g.board.Hash()
	g.board.Undo()
	if g.rules.Ko == PositionalSuperko {
		if g.positions[h] > 0 {
			return ErrSuperko
		}
		return nil
	}
	if m.Color.Opponent() == White {
		h ^= whiteToMove
	}
	if g.sits[h] > 0 {
		return ErrSuperko
	}
	return nil
}

// canPlayStone reports whether c has a legal stone play.
func (g *Game) canPlayStone(c Color) bool {
	for _, l := range g.board.Empties() {
		if g.legal(Move{Color: c, Kind: Play, Point: g.board.Point(l)}) == nil {
			return true
		}
	}
	return false
}

// Play plays m if it is legal and returns an *IllegalMoveError otherwise,
// leaving the game unchanged.
func (g *Game) Play(m Move) error {
	if err := g.Legal(m); err != nil {
		return err
	}
	g.apply(m)
	return nil
}

// PlayForced plays m even when the rules forbid it, as a viewer must replay
// the illegal moves of a game record: a stone on an occupied point replaces
// what is there, a suicide removes the chain, and ko and superko are
// ignored. Only a move off the board, after the end or while free handicap
// stones remain to be placed is refused. It returns the reason the move was
// illegal, or nil.
func (g *Game) PlayForced(m Move) (illegal error, err error) {
	illegal = g.Legal(m)
	if illegal == nil {
		g.apply(m)
		return nil, nil
	}
	if g.Ended() || g.placing > 0 || (m.Kind == Play && !g.board.OnBoard(m.Point)) || (m.Color != Black && m.Color != White) {
		return illegal, illegal
	}
	if m.Kind == Play && g.board.At(m.Point) != Empty {
		if err := g.Setup(Empty, m.Point); err != nil {
			return illegal, err
		}
	}
	g.board.ko = PassLoc
	g.apply(m)
	return illegal, nil
}

func (g *Game) apply(m Move) {
	captured := 0
	switch m.Kind {
	case Play:
		captured = g.board.Play(g.board.Loc(m.Point), m.Color)
	case Pass:
		g.board.PlayPass()
	}
	g.moves = append(g.moves, m)
	g.toMove = m.Color.Opponent()
	s := g.situation()
	g.situations = append(g.situations, s)
	g.boards = append(g.boards, g.board.Hash())
	g.lost = append(g.lost, g.lostNow())
	g.positions[g.board.Hash()]++
	g.sits[s]++
	g.offered = m.Kind == Play && g.rules.Ko == SimpleKo && g.rules.Repetition == RepetitionVoidByAgreement && g.repeatedThrice()

	switch {
	case m.Kind == Resign:
		g.result = Result{Winner: m.Color.Opponent(), Reason: EndResign}
	case m.Kind == Pass && g.ConsecutivePasses() >= 2:
		g.result = Result{Reason: EndPasses}
	case m.Kind == Play && captured > 0 && g.rules.FirstCaptureWins:
		g.result = Result{Winner: m.Color, Reason: EndCapture}
	case m.Kind == Play && g.rules.Ko == SimpleKo && g.rules.Repetition == RepetitionTie && g.tiedCycle():
		g.result = Result{Reason: EndRepetitionTie}
	case m.Kind == Play && g.rules.Ko == SimpleKo && g.rules.Repetition == RepetitionVoid && g.repeatedThrice():
		g.result = Result{Reason: EndRepetition}
	}
}

// RepetitionOffered reports whether the last play created a situation
// (stones and player to move) for the third time with no pass in between,
// under a ruleset whose Repetition is RepetitionVoidByAgreement. The game
// goes on; AgreeVoid ends it without result if both players agree (1989
// Japanese rules, Art. 12). The next move withdraws the offer; a cycle that
// goes on offers it again when the situation recurs.
func (g *Game) RepetitionOffered() bool { return g.offered && !g.Ended() }

// AgreeVoid ends the game without result ("Void") because both players
// agreed after a repetition. It fails unless RepetitionOffered is true.
func (g *Game) AgreeVoid() error {
	if !g.RepetitionOffered() {
		return errors.New("goban: no repetition to agree on")
	}
	g.offered = false
	g.result = Result{Reason: EndRepetition}
	return nil
}

// repeatedThrice reports whether the current situation has occurred three
// times since the last pass.
func (g *Game) repeatedThrice() bool {
	cur := g.situations[len(g.situations)-1]
	if g.sits[cur] < 3 {
		return false
	}
	n := 0
	for i := len(g.moves); i >= g.floor; i-- {
		if g.situations[i-g.floor] == cur {
			n++
		}
		if i > 0 && i-1 >= g.floor && g.moves[i-1].Kind == Pass {
			break
		}
	}
	return n >= 3
}

// tiedCycle reports whether the current board occurred before (after a
// play, or as the starting position) with both colours having lost the same
// number of stones since.
func (g *Game) tiedCycle() bool {
	n := len(g.boards) - 1
	cur, lost := g.boards[n], g.lost[n]
	if g.positions[cur] < 2 {
		return false
	}
	for i := n - 1; i >= 0; i-- {
		if g.boards[i] == cur && (i == 0 || g.moves[g.floor+i-1].Kind == Play) &&
			lost[0]-g.lost[i][0] == lost[1]-g.lost[i][1] {
			return true
		}
	}
	return false
}

// Undo takes back the last move, including a resignation or the pass that
// ended the game. It fails before the first move and across setup stones.
func (g *Game) Undo() error {
	if len(g.moves) <= g.floor {
		return errors.New("goban: no move to undo")
	}
	m := g.moves[len(g.moves)-1]
	s := g.situations[len(g.situations)-1]
	g.sits[s]--
	g.positions[g.board.Hash()]--
	if m.Kind != Resign {
		g.board.Undo()
	}
	g.moves = g.moves[:len(g.moves)-1]
	g.situations = g.situations[:len(g.situations)-1]
	g.boards = g.boards[:len(g.boards)-1]
	g.lost = g.lost[:len(g.lost)-1]
	g.toMove = m.Color
	for len(g.resumes) > 0 && g.resumes[len(g.resumes)-1] > len(g.moves) {
		g.resumes = g.resumes[:len(g.resumes)-1]
	}
	g.result = Result{}
	last, ok := g.LastMove()
	g.offered = ok && len(g.moves) > g.floor && last.Kind == Play && g.rules.Ko == SimpleKo &&
		g.rules.Repetition == RepetitionVoidByAgreement && g.repeatedThrice()
	return nil
}

// Resume continues a game that ended by two passes when the players
// disagree about the status of stones. Under rulesets with ResumeByRequest
// (the 1989 Japanese rules, Art. 9.3) the opponent of the player who asked
// moves first; otherwise the alternation goes on as if the passes had not
// been played, so the player who passed first moves.
func (g *Game) Resume(requester Color) error {
	if g.result.Reason != EndPasses {
		return errors.New("goban: only a game ended by passes can be resumed")
	}
	g.result = Result{}
	// The passes stay in the record; a new pair is needed to end again.
	next := requester.Opponent()
	if !g.rules.ResumeByRequest {
		next = g.moves[len(g.moves)-2].Color
	}
	g.resumes = append(g.resumes, len(g.moves))
	g.SetToMove(next)
	return nil
}

// End ends the game for a reason outside the board, such as time or
// forfeit, with the given winner.
func (g *Game) End(winner Color, reason EndReason) {
	g.result = Result{Winner: winner, Reason: reason}
}

// SetResult records the result of a game that ended by passes once it has
// been scored, so that Result reports the winner and margin.
func (g *Game) SetResult(r Result) { g.result = r }

// LegalMoves returns every point where the player to move may play now.
func (g *Game) LegalMoves(c Color) []Point {
	var pts []Point
	saved := g.toMove
	g.toMove = c
	for y := 0; y < g.Height(); y++ {
		for x := 0; x < g.Width(); x++ {
			p := Point{x, y}
			if g.legal(PlayAt(c, p)) == nil {
				pts = append(pts, p)
			}
		}
	}
	g.toMove = saved
	return pts
}
