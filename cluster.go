package tengen

import (
	"context"
	"encoding/json"
	"fmt"
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
