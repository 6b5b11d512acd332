package tengen

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"time"
)

// Several instances of the server on one PostgreSQL database (issue 20,
// docs/ARCHITECTURE.md "Several instances"): one instance at a time owns a
// live game; the others reach it through a Peer. With SQLite there is one
// instance and no ClusterService.

// ENOTOWNER means that this instance does not own the game it tried to
// change: another instance took it over. Package play forwards the command
// to the owner instead; users see it only when the game moves between
// instances twice during one command.
const ENOTOWNER = "not_owner"

// DefaultInstanceTimeout is how long an instance may miss its heartbeat
// before the others take over its games (`tengen serve --instance-timeout`).
const DefaultInstanceTimeout = 5 * time.Second

// Instance is one running server of a deployment.
type Instance struct {
	ID int64 `json:"id"`
	// Advertise is the base URL the other instances reach it at
	// (`tengen serve --advertise`).
	Advertise string `json:"advertise"`
}

// ClusterService keeps the instances of a deployment and the owner of each
// unfinished game in storage (package postgres). The instance's own writes
// to a game are refused with ENOTOWNER once it no longer owns the game (see
// GameService), so that a slow or cut-off instance cannot change a game that
// another one has taken over.
type ClusterService interface {
	// Register records this instance as alive and returns it. It must be
	// called once, before any other method and before the first write to
	// a game.
	Register(ctx context.Context, advertise string) (Instance, error)
	// Heartbeat tells the others that this instance is alive and returns
	// the ids of the unfinished games it owns.
	Heartbeat(ctx context.Context) (owned []int64, err error)
	// ClaimGame makes this instance the owner of game gameID unless
	// another live instance owns it. It returns nil when this instance
	// owns the game now, or when the game is finished (finished games are
	// read anywhere and owned by nobody); otherwise the live owner. An
	// unknown game is ENOTFOUND.
	ClaimGame(ctx context.Context, gameID int64) (*Instance, error)
	// Owner returns the live owner of game gameID, nil when no live
	// instance owns it.
	Owner(ctx context.Context, gameID int64) (*Instance, error)
	// ClaimOrphans makes this instance the owner of unfinished games whose
	// owner is dead (its heartbeat older than the instance timeout) or
	// that nobody owns, at most limit of them, and returns their ids.
	ClaimOrphans(ctx context.Context, limit int) ([]int64, error)
	// Release gives up every game of this instance, so that the others
	// take them over at once, and removes the instance.
	Release(ctx context.Context) error
	// Secret returns the secret the instances sign their peer calls with;
	// it is made once, by the first instance that asks.
	Secret(ctx context.Context) ([]byte, error)
}

// Peer reaches the instance that owns a game, to run what package play
// cannot run locally (package http's PeerClient). Errors of the owner come
// back as the same *Error.
type Peer interface {
	// Do runs cmd as PlayService.Do does, on behalf of userID, whom the
	// calling instance authenticated. The answer's N is the owner's last
	// event of the game after the command, so that the caller can hold its
	// answer back until its own watchers have the command's events (a
	// player sees the move before the reply to it, as with one instance).
	Do(ctx context.Context, owner Instance, gameID, userID int64, cmd Command) (*PeerSnapshot, error)
	// Snapshot returns the owner's snapshot of the game for userID and the
	// position of its event stream at the snapshot.
	Snapshot(ctx context.Context, owner Instance, gameID, userID int64) (*PeerSnapshot, error)
	// SGF returns the owner's record of the game.
	SGF(ctx context.Context, owner Instance, gameID int64) ([]byte, error)
}

// PeerHandler is what an instance serves to its peers: the play service
// of the games it owns (package play's Service). Its methods never forward
// again: a call that finds the game owned elsewhere fails with ENOTOWNER.
type PeerHandler interface {
	PeerDo(ctx context.Context, gameID, userID int64, cmd Command) (*PeerSnapshot, error)
	PeerSnapshot(ctx context.Context, gameID, userID int64) (*PeerSnapshot, error)
	PeerSGF(ctx context.Context, gameID int64) ([]byte, error)
}

// PeerSnapshot is a game's snapshot with the position of the owner's event
// stream (GameBusEvent) it was made at: the events numbered after N of
// Epoch follow it.
type PeerSnapshot struct {
	State *GameSnapshot `json:"state"`
	Epoch int64         `json:"epoch"`
	N     int64         `json:"n"`
}

// GameTopic is the EventBus topic of one game's events.
func GameTopic(gameID int64) string { return fmt.Sprintf("game:%d", gameID) }

// GameBusEvent is one event of a game as its owner publishes it on the
// game's topic. N counts the events of the game since the owner loaded it,
// Epoch names that load: a watcher that sees a gap in N or another Epoch
// starts again from a fresh snapshot.
type GameBusEvent struct {
	Epoch int64           `json:"epoch"`
	N     int64           `json:"n"`
	Event json.RawMessage `json:"event"`
}

// AppendJSON appends e's JSON encoding to b: the bytes json.Marshal gives
// for a compact Event (as GameEvent.JSON makes it), without reflection and
// without checking and compacting Event again. Every event of a game
// passes here on its owner.
func (e GameBusEvent) AppendJSON(b []byte) []byte {
	// One allocation at most: growing by append would copy the event,
	// which is most of the bytes, when the closing brace comes.
	b = slices.Grow(b, len(`{"epoch":,"n":,"event":}`)+2*20+len(e.Event))
	b = append(b, `{"epoch":`...)
	b = strconv.AppendInt(b, e.Epoch, 10)
	b = append(b, `,"n":`...)
	b = strconv.AppendInt(b, e.N, 10)
	b = append(b, `,"event":`...)
	b = append(b, e.Event...)
	return append(b, '}')
}

// ParseGameBusEvent decodes a GameBusEvent. The layout AppendJSON writes is
// read directly, and its Event is not checked: it is the owner's
// GameEvent.JSON, passed on as it came (EncodedGameEvent). Any other
// encoding goes through encoding/json. Event shares p's bytes.
func ParseGameBusEvent(p []byte) (GameBusEvent, error) {
	rest, epoch, ok := afterInt(p, `{"epoch":`)
	var n int64
	if ok {
		rest, n, ok = afterInt(rest, `,"n":`)
	}
	if ok && bytes.HasPrefix(rest, []byte(`,"event":{`)) && rest[len(rest)-1] == '}' {
		return GameBusEvent{Epoch: epoch, N: n, Event: rest[len(`,"event":`) : len(rest)-1]}, nil
	}
	var e GameBusEvent
	if err := json.Unmarshal(p, &e); err != nil {
		return GameBusEvent{}, err
	}
	if len(e.Event) == 0 || e.Event[0] != '{' {
		return GameBusEvent{}, fmt.Errorf("game bus event: the event is %.20q, not an object", e.Event)
	}
	return e, nil
}

// afterInt reads prefix and then a decimal integer from the start of p,
// and returns the rest of p after them.
func afterInt(p []byte, prefix string) (rest []byte, v int64, ok bool) {
	if !bytes.HasPrefix(p, []byte(prefix)) {
		return nil, 0, false
	}
	p = p[len(prefix):]
	i := 0
	if i < len(p) && p[i] == '-' {
		i++
	}
	for i < len(p) && p[i] >= '0' && p[i] <= '9' {
		i++
	}
	v, err := strconv.ParseInt(string(p[:i]), 10, 64)
	if err != nil {
		return nil, 0, false
	}
	return p[i:], v, true
}

// EncodedGameEvent returns the event that data encodes (GameEvent.JSON of
// another instance) for passing on as it is, without decoding it: its JSON
// is data, and of its fields only Type and GameID are set. Decoding a
// move's event (its game, board, clock and move) cost more CPU than
// anything else an instance does for the watchers of another instance's
// game, and the watchers (sockets) only send its JSON on; decode data
// with GameEventFromJSON to read the other fields. Data whose start is not
// GameEvent.JSON's layout is decoded in full.
func EncodedGameEvent(data []byte) (*GameEvent, error) {
	typ, id, ok := eventHead(data)
	if !ok {
		return GameEventFromJSON(data)
	}
	ev := &GameEvent{Type: typ, GameID: id}
	ev.once.Do(func() { ev.data = data })
	return ev, nil
}

// eventHead reads the type and game of an event from the start of its
// JSON encoding, `{"type":"move","gameId":12,` (GameEvent's first fields,
// in their order); ok is false when data does not start so.
func eventHead(data []byte) (typ string, id int64, ok bool) {
	const pre = `{"type":"`
	if !bytes.HasPrefix(data, []byte(pre)) {
		return "", 0, false
	}
	rest := data[len(pre):]
	end := bytes.IndexByte(rest, '"')
	if end < 0 || bytes.IndexByte(rest[:end], '\\') >= 0 {
		return "", 0, false
	}
	typ = string(rest[:end])
	rest, id, ok = afterInt(rest[end+1:], `,"gameId":`)
	if !ok || len(rest) == 0 || rest[0] != ',' && rest[0] != '}' {
		return "", 0, false
	}
	return typ, id, true
}

// GameEventFromJSON decodes an event encoded by GameEvent.JSON and keeps
// data as its encoding, so that forwarding it costs no second encoding.
func GameEventFromJSON(data []byte) (*GameEvent, error) {
	type plain GameEvent
	var ev GameEvent
	if err := json.Unmarshal(data, (*plain)(&ev)); err != nil {
		return nil, err
	}
	ev.once.Do(func() { ev.data = data })
	return &ev, nil
}
