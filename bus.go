package tengen

import "context"

// EventBus carries messages between the instances of one deployment: every
// instance that subscribed to a topic receives every payload later
// published on it, the publishing instance included. Payloads of one
// publisher on one topic arrive in the order they were published; nothing
// is kept for an instance that was not listening (a subscriber that needs
// the past reads it from storage).
//
// With one instance (SQLite) the bus is the in-process internal/membus; with
// PostgreSQL it is LISTEN/NOTIFY (package postgres).
type EventBus interface {
	// Publish sends payload to every subscriber of topic. It returns when
	// the bus has taken the payload; delivery is asynchronous.
	Publish(ctx context.Context, topic string, payload []byte) error
	// Subscribe calls fn with every payload published on topic from now
	// on, until stop is called. fn is called from one goroutine per
	// subscription, in order; it must not block for long (queue the
	// payload and return). payload must not be changed.
	Subscribe(topic string, fn func(payload []byte)) (stop func())
}

// EventBusResetter is implemented by a bus that can lose messages, such as
// PostgreSQL's while its listening connection is down (the in-process bus
// never loses any and does not implement it). OnReset registers fn, which
// the bus calls, on a goroutine of its own and without blocking for long,
// after messages to this instance may have been lost; a subscriber then
// re-syncs (reads storage, or asks the other instances for their state)
// instead of waiting for a message that will not come. stop unregisters
// fn.
type EventBusResetter interface {
	OnReset(fn func()) (stop func())
}
