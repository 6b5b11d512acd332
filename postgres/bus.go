package postgres

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"tengen"
	"tengen/internal/membus"
)

// busChannel is the NOTIFY channel of the bus; the topic travels in each
// message. Its number is the wire format's: a notification on it holds one
// or more envelopes joined by busJoin (see Bus). A change of the format
// takes a new channel, since instances of two versions share the database
// during a rolling upgrade (docs/OPERATIONS.md).
const busChannel = "tengen_bus_2"

// legacyChannel is the channel of the first format, one envelope per
// notification, which the instances before busChannel listen on. The bus
// listens on it too, so that it hears those instances, and also sends
// there while one of them listens (see Bus.legacy).
const legacyChannel = "tengen_bus"

// busApplication, a space and the publisher's key (see Bus.key) name the
// listening connection (its application_name), so that an operator finds
// it in pg_stat_activity and the publishers find the instances to send to
// (see busNotify). The listeners of the version before the peer channels
// are named busApplication alone and hear busChannel only;
// legacyApplication is that of the instances before busChannel.
const (
	busApplication    = "tengen-bus-2"
	legacyApplication = "tengen-bus"
)

// peerChannel and a publisher's key name the channel on which that
// instance alone hears what is sent to it. A message is sent to the
// channel of each other listening instance, not once on busChannel, which
// every instance hears, the sender included: PostgreSQL writes to every
// listening connection each notification on a channel it listens on, and
// the sender's copy of its own messages (half of all deliveries with two
// instances, each a move's event of 1,600 bytes) cost the database and the
// sender as much as the copy the other instance needs
// (docs/PERFORMANCE.md). The sender's own subscribers get its messages in
// Publish, without the database.
const peerChannel = "tengen_bus_2_"

// busMaxDirect is how many other instances at most are sent a message each
// on their own channel; with more, the message goes once on busChannel:
// every listening connection reads every notification in PostgreSQL's
// queue, so n copies cost each of n listeners n reads.
const busMaxDirect = 3

// publisherSuffix ends the names of the publishers that send on busChannel.
// On legacyChannel the bus skips their messages: it has them from
// busChannel already.
const publisherSuffix = ".2"

// Limits of the bus.
const (
	// busMaxNotify bounds an envelope sent inline: PostgreSQL refuses a
	// NOTIFY payload of 8000 bytes or more.
	busMaxNotify = 7999
	// busMaxQueue bounds the messages waiting to be sent. A publisher
	// that finds it full gets an error; the message counts as lost, and
	// the listeners see the gap (see Bus).
	busMaxQueue = 100_000
	// busMaxBatch bounds the messages, and busMaxBatchBytes their bytes,
	// sent in one round trip.
	busMaxBatch      = 500
	busMaxBatchBytes = 1 << 20
	// busSendTries is how often a batch is tried before it is dropped.
	busSendTries = 5
)

// busLinger is how long the sender waits for more messages when fewer than
// busLingerBelow are queued, so that a round trip carries several. Each
// batch is a statement and a transaction in PostgreSQL, and its
// notifications wake every listener; under load a batch held about three
// moves' events when the sender went at once, and waiting 2 ms took a tenth
// off the database's CPU with two instances at 2,000 moves a second and
// shortened the moves' tail (docs/PERFORMANCE.md, eleventh session); 5 ms
// saved no more. A variable for tests.
var busLinger = 2 * time.Millisecond

const busLingerBelow = 32

// busIdle is how long the listener waits for a notification before it
// checks that its connection still answers (a connection cut off without
// a reset would otherwise wait for ever). A variable for tests.
var busIdle = 30 * time.Second

// busLegacyCheck is how often the bus looks for listeners of the first
// format (see Bus.legacy). A variable for tests.
var busLegacyCheck = 5 * time.Second

// Bus is the tengen.EventBus of the instances of one deployment on one
// PostgreSQL database, over LISTEN/NOTIFY (docs/DEPENDENCIES.md says why
// this and not another system).
//
// Each Bus holds one connection of its own, outside the pool, that LISTENs
// on its peer channel (peerChannel and its key) and on busChannel; the topic
// travels in each message, and the bus hands the payload to this instance's
// subscribers of that topic (an internal/membus does the fan-out, one
// goroutine and queue per subscription). Publishing hands the message to
// this instance's subscribers at once and goes through the pool for the
// others: Publish queues the message, and one goroutine sends the queue in
// order, many messages in one round trip, to the peer channel of each other
// instance listening (or, with many, once on busChannel; see busNotify).
// Such a batch is one implicit transaction, whose notifications PostgreSQL
// delivers together and in order at commit, so the messages of one
// publisher arrive everywhere in the order of Publish, and Publish never
// waits for the database (it is called with a game's lock held).
// Consecutive messages of a batch share a notification up to NOTIFY's
// limit: each notification costs a queue entry and a message in PostgreSQL
// and a string and a wait in every listening instance, whatever its size,
// and packing saves that share (half the bus's CPU in the instances for
// small events, a tenth for a move's event of 1,600 bytes;
// docs/PERFORMANCE.md).
//
// The instances of the version before read one message per notification on
// legacyChannel. The bus listens there too, and while such an instance
// listens (it looks every busLegacyCheck), it sends every message there as
// well, alone in its notification, so that both versions hear each other
// during a rolling upgrade.
//
// A message whose envelope would reach NOTIFY's limit of 8000 bytes, or
// whose payload is not text PostgreSQL accepts (not UTF-8, or with a NUL
// byte), is written to the table bus_payloads in the same transaction as
// its notification, which carries only its key; every listener reads it
// from there. Rows are deleted after PayloadTTL by any instance.
//
// Losses are told, not hidden: nothing is kept for an instance that is not
// listening, so after the listening connection broke the bus reconnects
// (with backoff) and calls the functions registered with OnReset, which
// re-sync from storage or from the other instances. The same happens when
// the listener sees a gap in a publisher's sequence numbers: a full queue, a
// batch that could not be sent, a large payload already deleted.
type Bus struct {
	// Logger receives the bus's errors (default slog.Default()).
	Logger *slog.Logger
	// PayloadTTL is how long a large payload stays in bus_payloads
	// (default one minute). Set it before Open.
	PayloadTTL time.Duration

	db    *DB
	id    string      // this publisher's name: key and publisherSuffix
	key   string      // random, unique among instances: 16 hexadecimal digits
	local *membus.Bus // this instance's subscribers

	// legacy is set while an instance of the version before listens on
	// legacyChannel; only the sender goroutine uses it.
	legacy bool

	mu     sync.Mutex // guards queue, seq, closed and resets
	queue  []busMsg
	seq    int64 // the last sequence number given
	closed bool
	resets map[*func()]struct{}
	wake   chan struct{} // 1-buffered: the sender has work or must stop

	// last is the last sequence number seen of each publisher; only the
	// listener goroutine uses it.
	last map[string]int64

	cancel context.CancelFunc // ends the listener
	flush  chan struct{}      // closed by Close: the sender sends what is queued and ends
	done   sync.WaitGroup     // listener and sender
}

// busMsg is one queued message.
type busMsg struct {
	seq int64
	// env is the notification's text: the envelope's header and, for a
	// payload sent inline, the payload (see message).
	env []byte
	// payload is the payload of a message sent through bus_payloads; nil
	// for one sent inline.
	payload []byte
}

var _ tengen.EventBus = (*Bus)(nil)

// NewBus returns a bus on db, which must be open; call Open before use.
func NewBus(db *DB) *Bus {
	var b [8]byte
	rand.Read(b[:])
	key := hex.EncodeToString(b[:])
	return &Bus{db: db, id: key + publisherSuffix, key: key, local: membus.New(), wake: make(chan struct{}, 1),
		flush: make(chan struct{}), resets: map[*func()]struct{}{}, last: map[string]int64{}}
}

// Open connects the listening connection and starts the bus; messages
// published anywhere after it returns reach this instance's subscribers.
func (b *Bus) Open(ctx context.Context) error {
	if b.Logger == nil {
		b.Logger = slog.Default()
	}
	if b.PayloadTTL <= 0 {
		b.PayloadTTL = time.Minute
	}
	conn, err := b.listen(ctx)
	if err != nil {
		return fmt.Errorf("postgres: bus: %w", err)
	}
	b.checkLegacy()
	lctx, cancel := context.WithCancel(context.Background())
	b.cancel = cancel
	b.done.Add(2)
	go func() {
		defer b.done.Done()
		b.listenLoop(lctx, conn)
	}()
	go func() {
		defer b.done.Done()
		b.sendLoop()
	}()
	return nil
}

// Close sends what is queued (for at most a few seconds), stops listening
// and closes the listening connection. Call it before closing the DB.
func (b *Bus) Close() error {
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return nil
	}
	b.closed = true
	b.mu.Unlock()
	close(b.flush)
	if b.cancel != nil {
		b.cancel()
	}
	b.done.Wait()
	return nil
}

// Publish implements tengen.EventBus. It queues the message, hands it to
// this instance's subscribers and returns; a topic must be non-empty and
// hold no space or line break.
func (b *Bus) Publish(ctx context.Context, topic string, payload []byte) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if topic == "" || strings.ContainsAny(topic, " \n"+busSep) || len(topic) > 200 {
		return fmt.Errorf("postgres: bus: bad topic %q", topic)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return errors.New("postgres: bus closed")
	}
	// The number is given even to a message that is refused, so that the
	// listeners see that it is missing.
	b.seq++
	if len(b.queue) >= busMaxQueue {
		return fmt.Errorf("postgres: bus: %d messages wait to be sent; message to %s dropped", len(b.queue), topic)
	}
	m := b.message(b.seq, topic, payload)
	b.queue = append(b.queue, m)
	select {
	case b.wake <- struct{}{}:
	default:
	}
	// The copy in the message serves the local subscribers too; nothing
	// writes it. b.mu orders these calls as it orders the queue.
	own := m.payload
	if own == nil {
		own = m.env[len(m.env)-len(payload):]
	}
	return b.local.Publish(context.Background(), topic, own)
}

// Subscribe implements tengen.EventBus.
func (b *Bus) Subscribe(topic string, fn func(payload []byte)) (stop func()) {
	return b.local.Subscribe(topic, fn)
}

// OnReset implements tengen.EventBusResetter: fn is called, from the
// listener's goroutine, after the bus may have lost messages (it
// reconnected, or saw a publisher's message missing). It must not block.
func (b *Bus) OnReset(fn func()) (stop func()) {
	key := &fn
	b.mu.Lock()
	b.resets[key] = struct{}{}
	b.mu.Unlock()
	return func() {
		b.mu.Lock()
		delete(b.resets, key)
		b.mu.Unlock()
	}
}

// reset tells every OnReset function that messages may have been lost.
func (b *Bus) reset(why string) {
	b.Logger.Warn("event bus: messages may have been lost; subscribers re-sync", "reason", why)
	b.mu.Lock()
	fns := make([]func(), 0, len(b.resets))
	for k := range b.resets {
		fns = append(fns, *k)
	}
	b.mu.Unlock()
	for _, fn := range fns {
		fn()
	}
}

// The envelope of a message is one line of header, "PUBLISHER SEQ TOPIC
// KIND", then for KIND "i" the payload itself; for KIND "t" the payload is
// the row (PUBLISHER, SEQ) of bus_payloads.

// busSep separates the notifications of a batch in the one text the
// sender passes to PostgreSQL (see busNotify), and busJoin the envelopes
// in one notification; an envelope holds neither. JSON never does either
// (encoding/json escapes control characters), so the events of the game
// path all travel inline.
const (
	busSep  = "\x1e"
	busJoin = "\x1f"
)

// message copies a published payload into the message that will carry it,
// after the envelope's header: the only allocation per message on the way
// out (sendBatch joins a batch's envelopes in a buffer it reuses, and
// PostgreSQL's driver encodes that).
func (b *Bus) message(seq int64, topic string, payload []byte) busMsg {
	m := busMsg{seq: seq}
	m.env = append(make([]byte, 0, len(b.id)+len(topic)+24+len(payload)), b.id...)
	m.env = append(m.env, ' ')
	m.env = strconv.AppendInt(m.env, seq, 10)
	m.env = append(m.env, ' ')
	m.env = append(m.env, topic...)
	m.env = append(m.env, " i\n"...)
	if inlineText(payload, len(m.env)) {
		m.env = append(m.env, payload...)
		return m
	}
	m.env[len(m.env)-2] = 't'
	m.payload = bytes.Clone(payload)
	return m
}

// inlineText reports whether p can travel in a NOTIFY after a header of at
// most n bytes.
func inlineText(p []byte, n int) bool {
	return n+len(p) <= busMaxNotify && utf8.Valid(p) && bytes.IndexByte(p, 0) < 0 &&
		bytes.IndexByte(p, busSep[0]) < 0 && bytes.IndexByte(p, busJoin[0]) < 0
}

// sendLoop sends the queue in batches until Close, then what is left, and
// deletes old large payloads now and then.
func (b *Bus) sendLoop() {
	sweep := time.NewTicker(b.PayloadTTL / 2)
	defer sweep.Stop()
	check := time.NewTicker(busLegacyCheck)
	defer check.Stop()
	closing := false
	var text, legacy []byte // the batch's notifications, kept for the next batch (about busMaxBatchBytes at most)
	for {
		if !closing && busLinger > 0 {
			b.mu.Lock()
			n := len(b.queue)
			b.mu.Unlock()
			if n > 0 && n < busLingerBelow {
				time.Sleep(busLinger)
			}
		}
		b.mu.Lock()
		batch, size := b.queue, 0
		for i, m := range batch {
			size += len(m.env) + len(m.payload)
			if i+1 >= busMaxBatch || size >= busMaxBatchBytes {
				batch = batch[:i+1]
				break
			}
		}
		b.queue = b.queue[len(batch):]
		if len(b.queue) == 0 {
			b.queue = nil // let the backing array go
		}
		b.mu.Unlock()
		if len(batch) > 0 {
			text, legacy = b.sendBatch(batch, text[:0], legacy[:0], closing)
			select { // also when the queue never runs dry
			case <-sweep.C:
				b.sweep()
			case <-check.C:
				b.checkLegacy()
			default:
			}
			continue
		}
		if closing {
			return
		}
		select {
		case <-b.wake:
		case <-b.flush:
			closing = true
		case <-sweep.C:
			b.sweep()
		case <-check.C:
			b.checkLegacy()
		}
	}
}

// busNotify sends the notifications of a batch in their order, in one
// statement, from one text of envelopes separated by busSep ($1), to the
// other instances listening ($2 is this one's application_name): to each on
// its peer channel, or once on busChannel when there are more than
// busMaxDirect ($3) of them or one of the version before the peer channels
// listens (it hears busChannel only); with no other instance, nowhere. The
// listeners are looked up in the statement itself, so that an instance
// whose bus has opened (its listening connection is named at connection
// and listens before Open returns) gets every message sent after; a
// lookup now and then in the sender would miss a new instance's first
// messages. One statement per message cost the database (and the pgx
// encoding) more than the notifications themselves, and a text[] parameter
// cost the sender a copy of every envelope into a growing buffer. ORDER BY
// makes the order explicit; PostgreSQL evaluates the volatile pg_notify of
// the target list after the sort.
const busNotify = `WITH l AS (
	SELECT application_name AS a FROM pg_stat_activity
	WHERE datname = current_database() AND application_name LIKE 'tengen-bus-2%' AND application_name <> $2),
c AS (
	SELECT CASE WHEN count(*) > $3 OR bool_or(a = 'tengen-bus-2') THEN ARRAY['tengen_bus_2']
		ELSE array_agg(DISTINCT 'tengen_bus_2_' || substr(a, 14)) END AS chs
	FROM l)
SELECT pg_notify(t.ch, m.p)
FROM unnest(string_to_array($1::text, E'\x1e')) WITH ORDINALITY AS m(p, i), c, unnest(c.chs) WITH ORDINALITY AS t(ch, j)
ORDER BY m.i, t.j`

// busNotifyLegacy sends the notifications of a batch, as busNotify does, on
// the channel $1 to every listener.
const busNotifyLegacy = `SELECT pg_notify($1, m.p) FROM unnest(string_to_array($2::text, E'\x1e')) WITH ORDINALITY AS m(p, i) ORDER BY m.i`

// sendBatch sends msgs in one round trip, trying again a few times; when
// it gives up (or the bus is closing and the database does not answer),
// the messages are lost and the listeners see the gap. The large payloads
// are written first, then every notification by one statement (and, while
// b.legacy, every message alone on legacyChannel by a second); the round
// trip is one transaction, so the listeners find a payload when its
// notification comes. text and legacy are buffers for the notifications,
// returned for the next batch (the driver has copied them when SendBatch
// returns).
func (b *Bus) sendBatch(msgs []busMsg, text, legacy []byte, closing bool) ([]byte, []byte) {
	var pb pgx.Batch
	for _, m := range msgs {
		if m.payload != nil {
			pb.Queue(`INSERT INTO bus_payloads (publisher, seq, payload) VALUES ($1, $2, $3)`, b.id, m.seq, m.payload)
		}
	}
	text = packEnvelopes(text, msgs, busMaxNotify)
	pb.Queue(busNotify, text, b.application(), busMaxDirect)
	if b.legacy {
		legacy = packEnvelopes(legacy, msgs, 0)
		pb.Queue(busNotifyLegacy, legacyChannel, legacy)
	}
	backoff := 50 * time.Millisecond
	var err error
	for try := range busSendTries {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		err = b.db.pool.SendBatch(ctx, &pb).Close()
		cancel()
		if err == nil {
			return text, legacy
		}
		if closing || try == busSendTries-1 {
			break
		}
		select {
		case <-time.After(backoff):
		case <-b.flush:
			closing = true
		}
		backoff *= 2
	}
	b.Logger.Error("event bus: messages lost", "count", len(msgs), "err", err)
	return text, legacy
}

// packEnvelopes appends the envelopes of msgs to text (empty; its room is
// reused), in order, as notifications separated by busSep: consecutive
// envelopes share a notification, joined by busJoin, as long as it stays
// within max bytes; with max 0 each envelope is a notification of its own.
func packEnvelopes(text []byte, msgs []busMsg, max int) []byte {
	start := len(text) // where the notification being filled begins
	for i, m := range msgs {
		switch {
		case i == 0:
		case len(text)-start+len(busJoin)+len(m.env) <= max:
			text = append(text, busJoin...)
		default:
			text = append(text, busSep...)
			start = len(text)
		}
		text = append(text, m.env...)
	}
	return text
}

// checkLegacy sets b.legacy when an instance of the version before listens
// on legacyChannel in this database; when the database does not answer, it
// leaves b.legacy as it is.
func (b *Bus) checkLegacy() {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var n int
	err := b.db.pool.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity
		WHERE application_name = $1 AND datname = current_database()`, legacyApplication).Scan(&n)
	if err != nil {
		b.Logger.Error("event bus: looking for instances of the version before", "err", err)
		return
	}
	if (n > 0) != b.legacy {
		b.Logger.Info("event bus: instances of the version before", "listening", n, "sending to them", n > 0)
	}
	b.legacy = n > 0
}

// sweep deletes the large payloads older than PayloadTTL.
func (b *Bus) sweep() {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := b.db.pool.Exec(ctx, `DELETE FROM bus_payloads WHERE created_at < now() - make_interval(secs => $1)`,
		b.PayloadTTL.Seconds())
	if err != nil {
		b.Logger.Error("event bus: deleting old payloads", "err", err)
	}
}

// listen opens the listening connection: its own, not one of the pool's,
// since it is held for as long as the instance runs.
func (b *Bus) listen(ctx context.Context) (*pgx.Conn, error) {
	cfg, err := pgx.ParseConfig(b.db.URL)
	if err != nil {
		return nil, err
	}
	cfg.RuntimeParams["application_name"] = b.application()
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return nil, err
	}
	if _, err := conn.Exec(ctx, "LISTEN "+peerChannel+b.key+"; LISTEN "+busChannel+"; LISTEN "+legacyChannel); err != nil {
		conn.Close(context.Background())
		return nil, err
	}
	return conn, nil
}

// application is the application_name of the listening connection.
func (b *Bus) application() string { return busApplication + " " + b.key }

// listenLoop receives notifications and delivers them until ctx ends,
// reconnecting after a lost connection.
func (b *Bus) listenLoop(ctx context.Context, conn *pgx.Conn) {
	backoff := 100 * time.Millisecond
	for {
		err := b.receive(ctx, conn)
		conn.Close(context.Background())
		if ctx.Err() != nil {
			return
		}
		b.Logger.Error("event bus: listening connection lost; reconnecting", "err", err)
		for {
			select {
			case <-ctx.Done():
				return
			case <-time.After(backoff):
			}
			cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
			conn, err = b.listen(cctx)
			cancel()
			if err == nil {
				break
			}
			backoff = min(2*backoff, 5*time.Second)
			b.Logger.Error("event bus: reconnecting", "err", err)
		}
		backoff = 100 * time.Millisecond
		b.Logger.Info("event bus: listening again")
		clear(b.last) // every publisher's numbers start afresh
		b.reset("reconnected")
	}
}

// receive delivers the notifications of conn until an error, and pings
// the server every busIdle.
func (b *Bus) receive(ctx context.Context, conn *pgx.Conn) error {
	for {
		if err := b.receiveFor(ctx, conn, busIdle); err != nil {
			return err
		}
		// A while has passed: is the server still there?
		pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		err := conn.Ping(pctx)
		cancel()
		if err != nil {
			return err
		}
	}
}

// receiveFor delivers the notifications of conn for d, then returns nil.
// It waits with one deadline for all of them, not with one each: a context
// and timer per notification, thousands a second under load, cost more
// than the ping after every d that a busy listener now makes.
func (b *Bus) receiveFor(ctx context.Context, conn *pgx.Conn, d time.Duration) error {
	wctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	for {
		n, err := conn.WaitForNotification(wctx)
		if err != nil {
			if ctx.Err() == nil && pgconn.Timeout(err) {
				return nil
			}
			return err
		}
		if n.Channel == legacyChannel {
			if err := b.deliver(ctx, conn, n.Payload, true); err != nil {
				return err
			}
			continue
		}
		for env := range strings.SplitSeq(n.Payload, busJoin) {
			if err := b.deliver(ctx, conn, env, false); err != nil {
				return err
			}
		}
	}
}

// deliver hands one envelope's payload to the local subscribers; legacy
// says that it came on legacyChannel, where the messages of the publishers
// on busChannel are copies. An error is the connection's; a malformed
// envelope is logged and skipped.
func (b *Bus) deliver(ctx context.Context, conn *pgx.Conn, env string, legacy bool) error {
	head, body, ok := strings.Cut(env, "\n")
	f := strings.Split(head, " ")
	if !ok || len(f) != 4 {
		b.Logger.Error("event bus: malformed message", "head", head)
		return nil
	}
	pub, topic, kind := f[0], f[2], f[3]
	if legacy && strings.HasSuffix(pub, publisherSuffix) || pub == b.id {
		// A copy of a message heard on busChannel already, or one of this
		// instance's own, which Publish delivered.
		return nil
	}
	seq, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil || (kind != "i" && kind != "t") {
		b.Logger.Error("event bus: malformed message", "head", head)
		return nil
	}
	if last, seen := b.last[pub]; seen && seq != last+1 {
		b.reset(fmt.Sprintf("publisher %s: message %d after %d", pub, seq, last))
	}
	b.last[pub] = seq
	if len(b.last) > 10_000 {
		clear(b.last) // publishers come and go with restarts; forget them now and then
	}
	// The payload is handed out without a copy: pgx made the string for
	// this notification alone, and subscribers must not change a payload
	// (tengen.EventBus), so nothing writes these bytes.
	payload := unsafe.Slice(unsafe.StringData(body), len(body))
	if kind == "t" {
		// A payload of its own, so that the scan never writes into the
		// notification's string.
		payload = nil
		qctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		err := conn.QueryRow(qctx, `SELECT payload FROM bus_payloads WHERE publisher = $1 AND seq = $2`, pub, seq).Scan(&payload)
		cancel()
		switch {
		case noRows(err):
			b.reset(fmt.Sprintf("publisher %s: message %d deleted before it was read", pub, seq))
			return nil
		case err != nil:
			return err
		}
	}
	// The local bus never fails but on a done context.
	return b.local.Publish(context.Background(), topic, payload)
}
