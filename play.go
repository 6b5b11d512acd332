package tengen

import (
	"context"
	"sync"
	"time"

	"tengen/clock"
	"tengen/goban"
)

// PlayService plays games: it validates commands against the rules and the
// clocks, commits every change to storage before it reports it, and tells the
// watchers of a game what changed. docs/API.md describes the same operations
// as the HTTP and WebSocket protocol.
//
// Every method takes the acting user's id (0 for anonymous visitors) and
// fails with ENOTFOUND for unknown games. Commands by users who do not play
// in the game fail with EFORBIDDEN; commands that do not fit the game's phase
// fail with ECONFLICT; illegal moves fail with EINVALID and a message that
// names the rule. A refused command changes nothing.
type PlayService interface {
	// Snapshot returns the game's full state as userID sees it.
	Snapshot(ctx context.Context, gameID, userID int64) (*GameSnapshot, error)
	// CreateGame accepts an open challenge on behalf of userID and creates
	// its game with the clock running for the first mover; see
	// Challenge.CanAccept for the errors.
	CreateGame(ctx context.Context, challengeID, userID int64) (*Game, error)
	// Do runs one command of userID on the game. It returns the game as
	// userID sees it right after the command; when cmd.Quiet is set, only
	// the snapshot's Game, You, LastMove, Clock and ServerTime, which cost
	// nothing to make (no board, no move list, no count).
	// Every change to a game, whoever asks for it, passes through the same
	// path: see package play.
	Do(ctx context.Context, gameID, userID int64, cmd Command) (*GameSnapshot, error)
	// Watch calls sink first with an EventGame event holding the snapshot
	// for userID, then with every later event of the game, in order and
	// without gaps, until stop is called. sink is called with the game's
	// lock held: it must not block or call back into the service (queue the
	// event and return). With several instances, the events of a game that
	// another instance owns come as that instance encoded them
	// (EncodedGameEvent): JSON returns the whole event, but of its fields
	// only Type and GameID are set; GameEventFromJSON(ev.JSON()) decodes
	// the rest.
	Watch(ctx context.Context, gameID, userID int64, sink func(*GameEvent)) (stop func(), err error)
	// SGF returns the game record in SGF.
	SGF(ctx context.Context, gameID int64) ([]byte, error)
}

// CommandKind names what a Command asks for.
type CommandKind string

// Command kinds.
const (
	// CommandMove plays, passes or resigns (Command.Move). A command whose
	// Seq is already stored with the same move by the same player changes
	// nothing, so that duplicate submissions apply once.
	CommandMove CommandKind = "move"
	// CommandToggle marks the group at Command.Point dead, or alive again,
	// in the scoring phase, making a new proposal.
	CommandToggle CommandKind = "toggle"
	// CommandAccept accepts proposal Command.Seq in the scoring phase; an
	// older proposal is refused with ECONFLICT. When both players have
	// accepted the same proposal the game ends with its count.
	CommandAccept CommandKind = "accept"
	// CommandResume ends the scoring phase and continues play.
	CommandResume CommandKind = "resume"
	// CommandCancel ends an unfinished game without a winner, result
	// ResultVoid, on behalf of an admin (User.Admin); others get
	// EFORBIDDEN. The clock stops and watchers get an EventPhase event. A
	// finished game gives ECONFLICT.
	CommandCancel CommandKind = "cancel"
	// CommandAgreeVoid agrees to end the game without result after the
	// repetition offered at move Command.Seq (GameSnapshot.Repetition; 1989
	// Japanese rules, Art. 12). When both players have agreed to the same
	// offer the game ends as "Void".
	CommandAgreeVoid CommandKind = "agree-void"
	// CommandDeclineVoid declines the repetition offered at move
	// Command.Seq: play goes on. Playing the next move declines it too.
	CommandDeclineVoid CommandKind = "decline-void"
	// CommandPlaceHandicap places all of Black's free handicap stones at
	// Command.Points in one change, as the seed's server does ("welche er
	// beim ersten Zug miteinander setzen kann"). Command.Seq is the number
	// of the first stone (the game's MoveCount+1); the stones are stored as
	// Black's next moves, and White moves next. A repeated submission of
	// the same stones applies once.
	CommandPlaceHandicap CommandKind = "place-handicap"
	// CommandUndo asks to take back the player's last move; it may be asked
	// until the opponent has moved (GameSnapshot.Takeback).
	CommandUndo CommandKind = "undo"
	// CommandUndoAccept accepts the opponent's pending takeback request:
	// the move is removed and the position, captures, ko state and turn go
	// back; the time spent on it is not refunded.
	CommandUndoAccept CommandKind = "undo-accept"
	// CommandUndoDecline declines the opponent's pending takeback request.
	CommandUndoDecline CommandKind = "undo-decline"
	// CommandConditional sets the player's conditional moves
	// (ConditionalMoves) to Command.Points, the opponent's expected move
	// and the reply alternating; no points clear them. It may be given
	// only in a correspondence game while the opponent is to move, and
	// the sequence must be legal on the current position.
	CommandConditional CommandKind = "conditional"
	// CommandForfeit gives up the game for a computer player that cannot
	// go on (its engine failed, or chose an illegal move): the opponent
	// wins by forfeit. Command.Seq is the game's move count when the bot
	// failed; a game that moved on since changes nothing. Only a bot's
	// account may send it (others get EFORBIDDEN; a person resigns), so
	// that a bot worker on any instance ends the game through Do.
	CommandForfeit CommandKind = "forfeit"
	// CommandVacation brings a correspondence game's record of the
	// player's vacation in line with the player's account, where
	// VacationService has started or ended it: the clock of a player on
	// vacation stands still on their turn. The vacation is read from
	// storage, not taken from the command, so that the command cannot
	// stop a clock by itself; VacationService sends it to every game of
	// the player, through Do, so that it reaches the instance that holds
	// each game.
	CommandVacation CommandKind = "vacation"
)

// ResultVoid is the result of a game an admin cancelled: SGF's "Void", no
// result. A void game has no winner and does not count for anyone.
const ResultVoid = "Void"

// Command is one thing a player asks of a game. Which fields apply depends
// on Kind.
type Command struct {
	Kind  CommandKind
	Move  MoveCommand
	Point goban.Point
	// Points are the stones of CommandPlaceHandicap.
	Points []goban.Point
	Seq    int
	// Quiet asks for a brief snapshot in reply (see PlayService.Do): the
	// WebSocket and the bots see the change in the game's events, and the
	// HTTP answer to a move carries the move, the game and the clock.
	Quiet bool
}

// MoveCommand is a player's move: a play at X, Y, a pass or a resignation.
// Seq is the number the move will get (the game's MoveCount+1); it may be 0
// for a resignation only.
type MoveCommand struct {
	Seq  int      `json:"seq"`
	Kind MoveKind `json:"kind"`
	X    int      `json:"x"`
	Y    int      `json:"y"`
}

// Captures counts the stones each colour captured during play.
type Captures struct {
	Black int `json:"black"`
	White int `json:"white"`
}

// Handicap describes a game's handicap stones.
type Handicap struct {
	Stones int           `json:"stones"`
	Points []goban.Point `json:"points"`
	// Free is true when Black places the stones: Black's first Stones
	// moves are the placements.
	Free bool `json:"free"`
}

// ClockSide is one player's time as the clock stood when its running turn
// began (see ClockView).
type ClockSide struct {
	MainMs   int64 `json:"mainMs"`
	Overtime bool  `json:"overtime"`
	Periods  int   `json:"periods"`
	PeriodMs int64 `json:"periodMs"`
	Stones   int   `json:"stones"`
	TimedOut bool  `json:"timedOut"`
}

// ClockView is the game clock as clients see it. The sides do not include
// the running turn: clients subtract the time since RunningSince.
type ClockView struct {
	Kind         clock.Kind  `json:"kind"`
	Running      goban.Color `json:"running"`
	RunningSince *time.Time  `json:"runningSince,omitempty"`
	Deadline     *time.Time  `json:"deadline,omitempty"`
	Black        ClockSide   `json:"black"`
	White        ClockSide   `json:"white"`
}

// Proposal is a dead-stone proposal of the scoring phase.
type Proposal struct {
	Seq        int           `json:"seq"`
	Dead       []goban.Point `json:"dead"`
	AcceptedBy []goban.Color `json:"acceptedBy"`
}

// ScoreSide is one player's side of the count; see goban.Breakdown.
type ScoreSide struct {
	Territory     int     `json:"territory"`
	Captures      int     `json:"captures"`
	Dead          int     `json:"dead"`
	Lost          int     `json:"lost"`
	OwnDead       int     `json:"ownDead"`
	Stones        int     `json:"stones"`
	Komi          float64 `json:"komi"`
	HandicapBonus float64 `json:"handicapBonus"`
	Total         float64 `json:"total"`
}

// ScoreView is the count of a proposal: both sides, the territory map and the
// result the game would have.
type ScoreView struct {
	// Scoring is "territory", "area" or "loss".
	Scoring string    `json:"scoring"`
	Result  string    `json:"result"`
	Margin  float64   `json:"margin"`
	Black   ScoreSide `json:"black"`
	White   ScoreSide `json:"white"`
	// Owner has one string per row, one character per point: B or W for
	// points that count for that colour, '.' for neutral points.
	Owner []string      `json:"owner"`
	Seki  []goban.Point `json:"seki"`
}

// RepetitionOffer is the choice the players have when a move repeats a
// whole-board situation for the third time with no pass in between under
// rules where the game then ends without result only if both agree (the
// japanese ruleset; 1989 Japanese rules, Art. 12). The offer belongs to move
// Seq and lapses with the next move.
type RepetitionOffer struct {
	Seq        int           `json:"seq"`
	AgreedBy   []goban.Color `json:"agreedBy"`
	DeclinedBy []goban.Color `json:"declinedBy"`
}

// GameSnapshot is the full state of a game as one user sees it.
type GameSnapshot struct {
	Game *Game `json:"game"`
	// You is the viewer's colour, "" for spectators.
	You      goban.Color `json:"you"`
	Moves    []*GameMove `json:"moves"`
	Board    []string    `json:"board"`
	Captures Captures    `json:"captures"`
	LastMove *GameMove   `json:"lastMove,omitempty"`
	Komi     float64     `json:"komi"`
	Handicap Handicap    `json:"handicap"`
	Clock    *ClockView  `json:"clock,omitempty"`
	Proposal *Proposal   `json:"proposal,omitempty"`
	Score    *ScoreView  `json:"score,omitempty"`
	// Repetition is the open offer to end the game without result after a
	// repetition, nil when there is none.
	Repetition *RepetitionOffer `json:"repetition,omitempty"`
	// Takeback is the pending request to take back the last move, nil when
	// there is none.
	Takeback *TakebackRequest `json:"takeback,omitempty"`
	// Vacation is set when a player is on vacation: their clock stands
	// still while it is their turn.
	Vacation *GameVacation `json:"vacation,omitempty"`
	// Conditional are the viewer's own conditional moves, if any.
	Conditional []goban.Point `json:"conditional,omitempty"`
	// ServerTime is when the snapshot was made.
	ServerTime time.Time `json:"serverTime"`
}

// Event types.
const (
	EventGame     = "game"
	EventMove     = "move"
	EventClock    = "clock"
	EventPhase    = "phase"
	EventProposal = "proposal"
	EventAccepted = "accepted"
	// EventRepetition tells that a player agreed to or declined the
	// repetition offer (GameEvent.Repetition); an offer itself arrives with
	// the move that makes it.
	EventRepetition = "repetition"
	// EventTakeback tells that a takeback was asked for, accepted or
	// declined (GameEvent.Takeback holds the pending request, nil when
	// none is left). After an accepted takeback the game, board, captures
	// and clock are the position before the removed move.
	EventTakeback = "takeback"
)

// TakebackRequest is a player's pending request to take back move Seq, the
// last move, which Color played.
type TakebackRequest struct {
	Seq   int         `json:"seq"`
	Color goban.Color `json:"color"`
}

// GameEvent is one change of a game, sent to everyone who watches it. Which
// fields are set depends on Type (see docs/API.md). An event is shared by
// all watchers and must not be changed once published.
type GameEvent struct {
	Type     string        `json:"type"`
	GameID   int64         `json:"gameId"`
	State    *GameSnapshot `json:"state,omitempty"`
	Move     *GameMove     `json:"move,omitempty"`
	Game     *Game         `json:"game,omitempty"`
	Board    []string      `json:"board,omitempty"`
	Captures *Captures     `json:"captures,omitempty"`
	Captured []goban.Point `json:"captured,omitempty"`
	Clock    *ClockView    `json:"clock,omitempty"`
	Proposal *Proposal     `json:"proposal,omitempty"`
	Score    *ScoreView    `json:"score,omitempty"`
	// Repetition is the open repetition offer after a move, or the offer
	// as it stands after an agreement or a refusal.
	Repetition *RepetitionOffer `json:"repetition,omitempty"`
	Color      goban.Color      `json:"color,omitempty"`
	Seq        int              `json:"seq,omitempty"`
	// Takeback is the pending takeback request of an EventTakeback.
	Takeback *TakebackRequest `json:"takeback,omitempty"`
	// Vacation, on an EventClock, tells which players are on vacation
	// now; nil when nobody is.
	Vacation *GameVacation `json:"vacation,omitempty"`

	once sync.Once
	data []byte
}

// JSON returns the event's JSON encoding, computed once however many
// watchers send it.
func (e *GameEvent) JSON() []byte {
	e.once.Do(func() {
		b, err := e.encode()
		if err != nil {
			b = []byte(`{"type":"error","code":"internal","message":"Internal error."}`)
		}
		e.data = b
	})
	return e.data
}
