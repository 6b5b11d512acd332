package tengen

import (
	"bytes"
	"encoding/json"
	"sync"
	"time"

	"tengen/goban"
)

// The parts of a game event's JSON. GameEvent.JSON writes what
// encoding/json makes of the whole event, in parts, so that the part of
// the Game that no move changes (its players and settings, most of the
// Game's bytes and the most work of the event) is encoded once per game
// and reused (gameHeads). The parts' fields, in order, are the fields of
// GameEvent and Game (TestEventPartsMatch).
type (
	eventJSONHead struct {
		Type   string        `json:"type"`
		GameID int64         `json:"gameId"`
		State  *GameSnapshot `json:"state,omitempty"`
		Move   *GameMove     `json:"move,omitempty"`
	}
	eventJSONTail struct {
		Board      []string         `json:"board,omitempty"`
		Captures   *Captures        `json:"captures,omitempty"`
		Captured   []goban.Point    `json:"captured,omitempty"`
		Clock      *ClockView       `json:"clock,omitempty"`
		Proposal   *Proposal        `json:"proposal,omitempty"`
		Score      *ScoreView       `json:"score,omitempty"`
		Repetition *RepetitionOffer `json:"repetition,omitempty"`
		Color      goban.Color      `json:"color,omitempty"`
		Seq        int              `json:"seq,omitempty"`
		Takeback   *TakebackRequest `json:"takeback,omitempty"`
		Vacation   *GameVacation    `json:"vacation,omitempty"`
	}
	gameJSONHead struct {
		ID          int64        `json:"id"`
		ChallengeID int64        `json:"challengeId,omitempty"`
		BlackID     int64        `json:"blackId"`
		WhiteID     int64        `json:"whiteId"`
		Black       *User        `json:"black,omitempty"`
		White       *User        `json:"white,omitempty"`
		Settings    GameSettings `json:"settings"`
	}
	gameJSONTail struct {
		Status    GameStatus  `json:"status"`
		ToMove    goban.Color `json:"toMove"`
		MoveCount int         `json:"moveCount"`
		Result    string      `json:"result"`
		CreatedAt time.Time   `json:"createdAt"`
		UpdatedAt time.Time   `json:"updatedAt"`
	}
)

// eventEncoder is a scratch buffer with an encoder that writes into it,
// a buffer that collects the parts, and the parts: encoded from here, not
// as values boxed into an interface, they cost no allocation each.
type eventEncoder struct {
	buf      bytes.Buffer
	enc      *json.Encoder
	out      []byte
	head     eventJSONHead
	tail     eventJSONTail
	gameHead gameJSONHead
	gameTail gameJSONTail
}

var eventEncoders = sync.Pool{New: func() any {
	e := &eventEncoder{}
	e.enc = json.NewEncoder(&e.buf)
	return e
}}

// put returns e to the pool without the event's values, which the pool
// must not keep alive.
func (e *eventEncoder) put() {
	e.head, e.tail, e.gameHead, e.gameTail = eventJSONHead{}, eventJSONTail{}, gameJSONHead{}, gameJSONTail{}
	eventEncoders.Put(e)
}

// object encodes v, a pointer to a struct whose encoding is an object,
// and returns the object's members without the braces and the encoder's
// newline, or nothing for an empty object. It is valid until the next
// call.
func (e *eventEncoder) object(v any) ([]byte, error) {
	e.buf.Reset()
	if err := e.enc.Encode(v); err != nil {
		return nil, err
	}
	b := e.buf.Bytes()
	return b[1 : len(b)-2], nil // {…}\n
}

// encode returns the event's JSON, as json.Marshal writes it.
func (ev *GameEvent) encode() ([]byte, error) {
	e := eventEncoders.Get().(*eventEncoder)
	defer e.put()
	e.head = eventJSONHead{ev.Type, ev.GameID, ev.State, ev.Move}
	m, err := e.object(&e.head)
	if err != nil {
		return nil, err
	}
	out := append(append(e.out[:0], '{'), m...)
	if g := ev.Game; g != nil {
		out = append(out, `,"game":{`...)
		head, err := gameHeads.get(g, e)
		if err != nil {
			return nil, err
		}
		out = append(out, head...)
		e.gameTail = gameJSONTail{g.Status, g.ToMove, g.MoveCount, g.Result, g.CreatedAt, g.UpdatedAt}
		if m, err = e.object(&e.gameTail); err != nil {
			return nil, err
		}
		out = append(append(append(out, ','), m...), '}')
	}
	e.tail = eventJSONTail{ev.Board, ev.Captures, ev.Captured, ev.Clock, ev.Proposal, ev.Score, ev.Repetition,
		ev.Color, ev.Seq, ev.Takeback, ev.Vacation}
	m, err = e.object(&e.tail)
	if err != nil {
		return nil, err
	}
	if len(m) > 0 {
		out = append(append(out, ','), m...)
	}
	out = append(out, '}')
	e.out = out // kept for the next event
	return bytes.Clone(out), nil
}

// gameHeadCache holds the encoded gameJSONHead of the games with recent
// events, with what each was made from. A game's players and settings do
// not change while it is played, but a Game value carries no sign of
// whether they did, so an entry is used only for a Game whose head fields
// equal the entry's.
type gameHeadCache struct {
	mu    sync.Mutex // guards games
	games map[int64]*gameHeadEntry
}

// maxGameHeads bounds the cache; when it is full it starts afresh (about
// 1.5 KiB a game: the players, the settings and the encoded head).
const maxGameHeads = 4096

type gameHeadEntry struct {
	challengeID, blackID, whiteID int64
	black, white                  User
	hasBlack, hasWhite            bool
	settings                      GameSettings // Komi nil: see komi
	komi                          float64
	hasKomi                       bool
	data                          []byte // members of the head's object
}

var gameHeads gameHeadCache

// entryOf returns the cache entry that g's head fields make, without data.
func entryOf(g *Game) *gameHeadEntry {
	e := &gameHeadEntry{challengeID: g.ChallengeID, blackID: g.BlackID, whiteID: g.WhiteID, settings: g.Settings}
	if g.Black != nil {
		e.black, e.hasBlack = *g.Black, true
	}
	if g.White != nil {
		e.white, e.hasWhite = *g.White, true
	}
	// The komi is compared by value: the pointer says nothing about
	// whether what it points to changed.
	if k := g.Settings.Komi; k != nil {
		e.komi, e.hasKomi = *k, true
	}
	e.settings.Komi = nil
	return e
}

// matches reports whether g's head fields are the entry's.
func (c *gameHeadEntry) matches(g *Game) bool {
	if g.ChallengeID != c.challengeID || g.BlackID != c.blackID || g.WhiteID != c.whiteID ||
		(g.Black != nil) != c.hasBlack || (g.White != nil) != c.hasWhite ||
		(g.Settings.Komi != nil) != c.hasKomi || (c.hasKomi && *g.Settings.Komi != c.komi) {
		return false
	}
	s := g.Settings
	s.Komi = nil
	return s == c.settings && (g.Black == nil || *g.Black == c.black) && (g.White == nil || *g.White == c.white)
}

// get returns the members of g's head object, encoded with e on a miss.
// The result must not be changed.
func (c *gameHeadCache) get(g *Game, e *eventEncoder) ([]byte, error) {
	c.mu.Lock()
	ent := c.games[g.ID]
	c.mu.Unlock()
	if ent != nil && ent.matches(g) {
		return ent.data, nil
	}
	e.gameHead = gameJSONHead{g.ID, g.ChallengeID, g.BlackID, g.WhiteID, g.Black, g.White, g.Settings}
	m, err := e.object(&e.gameHead)
	if err != nil {
		return nil, err
	}
	ent = entryOf(g)
	ent.data = bytes.Clone(m)
	c.mu.Lock()
	if c.games == nil || len(c.games) >= maxGameHeads {
		c.games = make(map[int64]*gameHeadEntry)
	}
	c.games[g.ID] = ent
	c.mu.Unlock()
	return ent.data, nil
}
