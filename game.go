package tengen

import (
	"context"
	"encoding/json"
	"regexp"
	"strconv"
	"time"

	"tengen/clock"
	"tengen/goban"
)

// GameStatus is the phase a game is in.
type GameStatus string

// Game phases. Moves are played in GamePlaying; after two passes in a row the
// players agree on dead stones in GameScoring (the clock stops); GameFinished
// games carry a Result.
const (
	GamePlaying  GameStatus = "playing"
	GameScoring  GameStatus = "scoring"
	GameFinished GameStatus = "finished"
)

// Game is a game between two users.
type Game struct {
	ID          int64 `json:"id"`
	ChallengeID int64 `json:"challengeId,omitempty"`
	BlackID     int64 `json:"blackId"`
	WhiteID     int64 `json:"whiteId"`
	// Black and White are filled in by the Find methods.
	Black    *User        `json:"black,omitempty"`
	White    *User        `json:"white,omitempty"`
	Settings GameSettings `json:"settings"`
	Status   GameStatus   `json:"status"`
	// ToMove is the colour whose turn it is while the game is being played.
	ToMove goban.Color `json:"toMove"`
	// MoveCount is the number of stored moves, which is also the sequence
	// number of the last move (0 before the first move).
	MoveCount int `json:"moveCount"`
	// Result is the result in SGF form ("B+3.5", "W+R", "B+T", "Void", "0")
	// once the game is finished, "" before.
	Result    string    `json:"result"`
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
}

// ColorOf returns the colour userID plays in g, or goban.Empty for a
// spectator.
func (g *Game) ColorOf(userID int64) goban.Color {
	switch userID {
	case 0:
		return goban.Empty
	case g.BlackID:
		return goban.Black
	case g.WhiteID:
		return goban.White
	}
	return goban.Empty
}

// IsTurnOf reports whether the game waits for userID: it is their move, or
// the game is in the scoring phase where both players must act.
func (g *Game) IsTurnOf(userID int64) bool {
	c := g.ColorOf(userID)
	switch {
	case c == goban.Empty:
		return false
	case g.Status == GameScoring:
		return true
	case g.Status == GamePlaying:
		return g.ToMove == c
	}
	return false
}

// MoveKind is what a player does on their turn.
type MoveKind string

// Move kinds.
const (
	MovePlay   MoveKind = "play"
	MovePass   MoveKind = "pass"
	MoveResign MoveKind = "resign"
)

// GameMove is one stored move. Sequence numbers start at 1 and have no gaps.
type GameMove struct {
	GameID int64       `json:"gameId"`
	Seq    int         `json:"seq"`
	Color  goban.Color `json:"color"`
	Kind   MoveKind    `json:"kind"`
	// X and Y are the 0-based column from the left and row from the top (SGF
	// orientation) of a play; both are 0 for passes and resignations.
	X int `json:"x"`
	Y int `json:"y"`
	// TimeUsed is the thinking time the server charged for the move; its
	// JSON form, "timeUsedMs", is whole milliseconds (see MarshalJSON).
	TimeUsed time.Duration `json:"-"`
	// Clock is the mover's clock after the move (what SGF's BL/WL and
	// OB/OW record), or nil for games without a clock.
	Clock     *clock.State `json:"clock,omitempty"`
	CreatedAt time.Time    `json:"createdAt"`
}

// gameMoveJSON is GameMove's JSON form: its fields, and TimeUsed in whole
// milliseconds.
type gameMoveJSON struct {
	plainGameMove
	TimeUsedMs int64 `json:"timeUsedMs"`
}

// plainGameMove is GameMove without its methods, so that encoding it does
// not recurse.
type plainGameMove GameMove

// MarshalJSON writes the move with "timeUsedMs" in milliseconds, the unit
// docs/API.md promises (a bare Duration would be nanoseconds).
// It writes what encoding/json makes of gameMoveJSON, directly: a move goes
// to every watcher and into every game page (TestGameMoveJSONAsStruct).
func (m GameMove) MarshalJSON() ([]byte, error) {
	color, err := m.Color.MarshalText()
	if err != nil {
		return nil, err
	}
	// The clock and the time are appended in place, not through their own
	// MarshalJSON with a buffer each.
	b := make([]byte, 0, 256)
	b = append(b, `{"gameId":`...)
	b = strconv.AppendInt(b, m.GameID, 10)
	b = append(b, `,"seq":`...)
	b = strconv.AppendInt(b, int64(m.Seq), 10)
	b = append(b, `,"color":"`...)
	b = append(b, color...) // "black", "white" or empty: nothing to escape
	b = append(b, `","kind":`...)
	if b, err = appendJSONString(b, string(m.Kind)); err != nil {
		return nil, err
	}
	b = append(b, `,"x":`...)
	b = strconv.AppendInt(b, int64(m.X), 10)
	b = append(b, `,"y":`...)
	b = strconv.AppendInt(b, int64(m.Y), 10)
	if m.Clock != nil {
		b = append(b, `,"clock":`...)
		b = m.Clock.AppendJSON(b)
	}
	b = append(b, `,"createdAt":"`...)
	if b, err = m.CreatedAt.AppendText(b); err != nil { // what time.Time's MarshalJSON quotes
		return nil, err
	}
	b = append(b, '"')
	b = append(b, `,"timeUsedMs":`...)
	b = strconv.AppendInt(b, m.TimeUsed.Milliseconds(), 10)
	return append(b, '}'), nil
}

// appendJSONString appends s as a JSON string: directly when it is plain
// ASCII letters (a move kind), else as encoding/json writes it.
func appendJSONString(b []byte, s string) ([]byte, error) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') {
			q, err := json.Marshal(s)
			return append(b, q...), err
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"'), nil
}

// UnmarshalJSON reads what MarshalJSON writes.
func (m *GameMove) UnmarshalJSON(b []byte) error {
	var w gameMoveJSON
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*m = GameMove(w.plainGameMove)
	m.TimeUsed = time.Duration(w.TimeUsedMs) * time.Millisecond
	return nil
}

// ValidateMove reports whether m is well formed for a size×size board. It
// does not know the rules of Go; legality is goban's business.
func ValidateMove(m GameMove, size int) error {
	if m.Color != goban.Black && m.Color != goban.White {
		return Errorf(EINVALID, "Move colour must be black or white.")
	}
	if m.Seq < 1 {
		return Errorf(EINVALID, "Move sequence numbers start at 1.")
	}
	if m.TimeUsed < 0 {
		return Errorf(EINVALID, "Time used cannot be negative.")
	}
	switch m.Kind {
	case MovePlay:
		if m.X < 0 || m.X >= size || m.Y < 0 || m.Y >= size {
			return Errorf(EINVALID, "Point (%d, %d) is off the %d×%d board.", m.X, m.Y, size, size)
		}
	case MovePass, MoveResign:
		if m.X != 0 || m.Y != 0 {
			return Errorf(EINVALID, "A %s has no point.", m.Kind)
		}
	default:
		return Errorf(EINVALID, "Unknown move kind %q.", m.Kind)
	}
	return nil
}

// GameUpdate is the change of game state committed together with a move.
type GameUpdate struct {
	ToMove goban.Color
	Status GameStatus
	// Result is set when Status is GameFinished.
	Result string
	// Record, when not nil, replaces the game's stored PlayRecord in the
	// same transaction.
	Record *PlayRecord
}

// Resumption records that play resumed after the scoring phase that began
// with move AfterSeq (the second pass), at the request of Color.
type Resumption struct {
	AfterSeq int         `json:"afterSeq"`
	Color    goban.Color `json:"color"`
}

// PlayRecord is the state of a game that its moves do not hold, stored beside
// them so that a game continues exactly after a restart: the clock, the
// dead-stone proposal of the scoring phase and the resumptions of play.
type PlayRecord struct {
	// Clock is the game clock; nil until the clock is first started and
	// for games without time limit. Storage keeps it in the clock
	// package's JSON form.
	Clock *clock.GameClock `json:"clock,omitempty"`
	// ProposalSeq numbers the dead-stone proposals of the game; it only
	// grows, so an acceptance names the proposal it accepts.
	ProposalSeq int `json:"proposalSeq"`
	// Dead lists the stones of the current proposal.
	Dead []goban.Point `json:"dead"`
	// AcceptedBlack and AcceptedWhite are the proposal numbers each player
	// accepted, 0 for none.
	AcceptedBlack int `json:"acceptedBlack"`
	AcceptedWhite int `json:"acceptedWhite"`
	// Resumptions lists every return from the scoring phase to play, in
	// order.
	Resumptions []Resumption `json:"resumptions"`
	// TakebackSeq is the move whose mover asked to take it back, 0 when
	// no request is pending. The request stands only while the game is
	// still at that move (MoveCount == TakebackSeq).
	TakebackSeq int `json:"takebackSeq,omitempty"`
	// Vacation tells until when each player is on vacation: their clock
	// stands still while it is their turn (see VacationService).
	Vacation GameVacation `json:"vacation"`
	// Conditional is the planned reply sequence of the player who waits
	// for the opponent's move, nil when none is left.
	Conditional *ConditionalMoves `json:"conditional,omitempty"`
	// Settings, when set on the record a new game is created with, are the
	// settings play planned the game with for an open challenge whose
	// handicap follows the players' ranks (Challenge.GameSettings).
	// Storage resolves the settings again from the ranks in its
	// transaction and refuses with ECONFLICT if they differ (a rank
	// changed in between), so that the stored game is the one play set up.
	// It is not stored.
	Settings *GameSettings `json:"-"`
}

// resultRE matches SGF results: a winner and a score, R(esign), T(ime) or
// F(orfeit); a draw "0" or "Draw"; "Void"; "?" for unknown.
var resultRE = regexp.MustCompile(`^(?:[BW]\+(?:R|Resign|T|Time|F|Forfeit|\d+(?:\.\d+)?)?|0|Draw|Void|\?)$`)

// ValidateResult reports whether r is a result in SGF form.
func ValidateResult(r string) error {
	if !resultRE.MatchString(r) {
		return Errorf(EINVALID, "Result %q is not in SGF form.", r)
	}
	return nil
}

// NextState returns the state after m under the parts of the rules that are
// the same everywhere: turns alternate, a resignation ends the game, and a
// pass after a pass (prevPass) starts the scoring phase. Rule-specific
// endings (captures in Atari-Go, timeouts, agreed scores) come from the game
// engine, which passes its own GameUpdate to AppendMove.
func NextState(m GameMove, prevPass bool) GameUpdate {
	u := GameUpdate{ToMove: m.Color.Opponent(), Status: GamePlaying}
	switch {
	case m.Kind == MoveResign:
		u.Status = GameFinished
		if m.Color.Opponent() == goban.Black {
			u.Result = "B+R"
		} else {
			u.Result = "W+R"
		}
	case m.Kind == MovePass && prevPass:
		u.Status = GameScoring
	}
	return u
}

// GameFilter selects games. Zero fields do not filter.
type GameFilter struct {
	ID *int64
	// UserID selects the user's games and orders those where it is the
	// user's turn (see Game.IsTurnOf) first, then the most recently updated.
	UserID *int64
	Status []GameStatus
	Offset int
	Limit  int
}

// GameService stores games and their moves.
type GameService interface {
	// FindGameByID returns the game or ENOTFOUND.
	FindGameByID(ctx context.Context, id int64) (*Game, error)
	// FindGames returns matching games and the total number of matches
	// ignoring Offset and Limit. Without UserID, games are ordered most
	// recently updated first.
	FindGames(ctx context.Context, filter GameFilter) ([]*Game, int, error)
	// CreateGameFromChallenge accepts an open challenge on behalf of userID
	// and creates its game, with rec as its PlayRecord when not nil (the
	// clock started for the first mover), in the same transaction; see
	// Challenge.CanAccept for the errors. Colours are assigned by
	// GameSettings.AssignColors, the first mover by
	// GameSettings.FirstToMove.
	CreateGameFromChallenge(ctx context.Context, challengeID, userID int64, rec *PlayRecord) (*Game, error)
	// FindMoves returns the game's moves with sequence numbers above
	// afterSeq, in order.
	FindMoves(ctx context.Context, gameID int64, afterSeq int) ([]*GameMove, error)
	// AppendMove stores m as a move by userID together with the new state
	// upd, in one transaction, and returns the updated game. It applies no
	// rules of Go (turns, the board's edge, the scoring phase): the caller,
	// package play, has validated the move on the live game. Its guards keep
	// the stored data whole: m.Seq must be the game's MoveCount+1, so that a
	// stale or repeated submission gets ECONFLICT and changes nothing and
	// duplicates apply once; a finished game gets ECONFLICT; m.Color is set
	// from userID, and a user who does not play in the game gets EFORBIDDEN;
	// malformed values (an unknown kind or status, a pass with a point, a
	// negative time, a result not in SGF form, clocks that are not JSON) get
	// EINVALID. m.Clock and upd.Record, if set, are stored in the same
	// transaction.
	AppendMove(ctx context.Context, userID int64, m *GameMove, upd GameUpdate) (*Game, error)
	// AppendMoves stores several moves by userID in one transaction, in
	// order, as Black's free handicap stones placed at once are stored; upd
	// is the state after the last. Every move is checked as AppendMove
	// checks it; if one is refused, none is stored.
	AppendMoves(ctx context.Context, userID int64, ms []*GameMove, upd GameUpdate) (*Game, error)
	// FindPlayRecord returns the game's PlayRecord: the zero record when
	// none was stored yet, ENOTFOUND when the game does not exist.
	FindPlayRecord(ctx context.Context, gameID int64) (*PlayRecord, error)
	// UpdateGame applies upd (and upd.Record if set) to a game without a
	// move, as the scoring phase, a resumption and a timeout do. Like
	// AppendMove it applies no rules of Go. It is refused with ECONFLICT and
	// changes nothing unless the game's MoveCount is still moveCount and the
	// game is not finished; malformed values get EINVALID as in AppendMove.
	// UpdatedAt changes only when ToMove, Status or Result do, so that
	// storing a clock or a proposal does not reorder game lists.
	UpdateGame(ctx context.Context, gameID int64, moveCount int, upd GameUpdate) (*Game, error)
	// TakeBack removes the game's last move, number moveCount, and applies
	// upd (and upd.Record if set) in the same transaction: an accepted
	// takeback. It is refused with ECONFLICT and changes nothing unless the
	// game's MoveCount is still moveCount (at least 1) and the game is not
	// finished. MoveCount becomes moveCount-1.
	TakeBack(ctx context.Context, gameID int64, moveCount int, upd GameUpdate) (*Game, error)
}
