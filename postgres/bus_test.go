package postgres_test

import (
	"bytes"
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"tengen"
	"tengen/postgres"
	"tengen/postgres/pgtest"
)

// busInstances opens n DBs on one fresh database, each with its bus, as n
// instances of the server would.
func busInstances(t *testing.T, n int, ttl time.Duration) (string, []*postgres.Bus) {
	t.Helper()
	url := pgtest.URL(t)
	var buses []*postgres.Bus
	for range n {
		db := postgres.NewDB(url)
		if err := db.Open(); err != nil {
			t.Fatal(err)
		}
		b := postgres.NewBus(db)
		b.PayloadTTL = ttl
		if err := b.Open(context.Background()); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			b.Close()
			db.Close()
		})
		buses = append(buses, b)
	}
	return url, buses
}

// recorder collects the payloads of subscriptions, by name.
type recorder struct {
	mu   sync.Mutex
	got  map[string][]string
	more chan struct{}
}

func newRecorder() *recorder {
	return &recorder{got: map[string][]string{}, more: make(chan struct{}, 1)}
}

func (r *recorder) fn(name string) func([]byte) {
	return func(p []byte) {
		r.mu.Lock()
		r.got[name] = append(r.got[name], string(p))
		r.mu.Unlock()
		select {
		case r.more <- struct{}{}:
		default:
		}
	}
}

// wait waits until name has n payloads, or fails after a while.
func (r *recorder) wait(t *testing.T, name string, n int) []string {
	t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		r.mu.Lock()
		got := append([]string(nil), r.got[name]...)
		r.mu.Unlock()
		if len(got) >= n {
			return got
		}
		select {
		case <-r.more:
		case <-deadline:
			t.Fatalf("%s: %d of %d payloads after 30 s", name, len(got), n)
		}
	}
}

// TestBusOrderAndTopics publishes 1,000 payloads on one instance and checks
// that both instances get them all, in order, and that topics stay apart.
func TestBusOrderAndTopics(t *testing.T) {
	_, bs := busInstances(t, 2, 0)
	a, b := bs[0], bs[1]
	rec := newRecorder()
	a.Subscribe("game:1", rec.fn("a1"))
	b.Subscribe("game:1", rec.fn("b1"))
	b.Subscribe("game:2", rec.fn("b2"))
	a.Subscribe("site", rec.fn("asite"))
	ctx := context.Background()
	var want, want2 []string
	for i := range 1000 {
		p := fmt.Sprintf(`{"n":%d}`, i)
		want = append(want, p)
		if err := a.Publish(ctx, "game:1", []byte(p)); err != nil {
			t.Fatal(err)
		}
		if i%100 == 0 {
			// The other instance publishes on another topic meanwhile.
			q := fmt.Sprintf("b%d", i)
			want2 = append(want2, q)
			if err := b.Publish(ctx, "game:2", []byte(q)); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, name := range []string{"a1", "b1"} {
		if got := rec.wait(t, name, len(want)); strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("%s: payloads out of order or changed:\n got %.200v\nwant %.200v", name, got, want)
		}
	}
	if got := rec.wait(t, "b2", len(want2)); strings.Join(got, ",") != strings.Join(want2, ",") {
		t.Errorf("b2: got %v, want %v", got, want2)
	}
	// A marker on "site" arrives after everything before it: nothing of
	// game:2 reached a's subscribers, nothing more reached b2.
	if err := b.Publish(ctx, "site", []byte("end")); err != nil {
		t.Fatal(err)
	}
	rec.wait(t, "asite", 1)
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if len(rec.got["b2"]) != len(want2) || len(rec.got["a1"]) != len(want) {
		t.Errorf("extra payloads: a1 %d, b2 %d", len(rec.got["a1"]), len(rec.got["b2"]))
	}
	for _, topic := range []string{"bad topic", "bad\x1etopic"} {
		if err := a.Publish(ctx, topic, nil); err == nil {
			t.Errorf("topic %q was taken", topic)
		}
	}
}

// TestBusLargePayload sends payloads NOTIFY cannot carry (over its 8000
// bytes, not UTF-8, with a NUL byte) or that hold the separator of a
// batch's envelopes, between small ones: they arrive intact and in order,
// and their rows are deleted afterwards.
func TestBusLargePayload(t *testing.T) {
	url, bs := busInstances(t, 2, 2*time.Second)
	a, b := bs[0], bs[1]
	rec := newRecorder()
	b.Subscribe("site", rec.fn("b"))
	big := bytes.Repeat([]byte("0123456789abcdef"), 100_000/16)
	want := []string{"small 1", string(big), "small 2", "\xff\xfe not text", "nul \x00 byte", strings.Repeat("é", 3990), "small 3",
		"a record separator \x1e between two", "\x1e", "small 4"}
	ctx := context.Background()
	for _, p := range want {
		if err := a.Publish(ctx, "site", []byte(p)); err != nil {
			t.Fatal(err)
		}
	}
	got := rec.wait(t, "b", len(want))
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("payload %d: got %d bytes %.40q, want %d bytes %.40q", i, len(got[i]), got[i], len(want[i]), want[i])
		}
	}
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var stored int
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM bus_payloads`).Scan(&stored); err != nil {
		t.Fatal(err)
	}
	if stored == 0 {
		t.Error("no payload went through the table")
	}
	// The sweep runs every PayloadTTL/2 and deletes rows older than
	// PayloadTTL.
	deadline := time.Now().Add(30 * time.Second)
	for stored > 0 && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
		if err := conn.QueryRow(ctx, `SELECT count(*) FROM bus_payloads`).Scan(&stored); err != nil {
			t.Fatal(err)
		}
	}
	if stored > 0 {
		t.Errorf("%d large payloads still stored after 30 s", stored)
	}
}

// TestBusReconnect ends the listening connections from the server's side:
// the buses tell their reset functions, listen again and deliver what is
// published afterwards.
func TestBusReconnect(t *testing.T) {
	url, bs := busInstances(t, 2, 0)
	a, b := bs[0], bs[1]
	var _ tengen.EventBusResetter = b
	rec := newRecorder()
	b.Subscribe("site", rec.fn("b"))
	resets := make(chan struct{}, 10)
	for _, x := range bs {
		stop := x.OnReset(func() { resets <- struct{}{} })
		defer stop()
	}
	ctx := context.Background()
	if err := a.Publish(ctx, "site", []byte("before")); err != nil {
		t.Fatal(err)
	}
	rec.wait(t, "b", 1)

	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var killed int
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity
		WHERE application_name LIKE 'tengen-bus-2 %' AND datname = current_database()) t`).Scan(&killed); err != nil {
		t.Fatal(err)
	}
	if killed != 2 {
		t.Fatalf("terminated %d listening connections, want 2 (one per instance)", killed)
	}
	for range bs {
		select {
		case <-resets:
		case <-time.After(30 * time.Second):
			t.Fatal("no reset within 30 s after the connection was lost")
		}
	}
	if err := a.Publish(ctx, "site", []byte("after")); err != nil {
		t.Fatal(err)
	}
	if got := rec.wait(t, "b", 2); got[1] != "after" {
		t.Errorf("after the reconnect: got %q", got)
	}
	var listening int
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity
		WHERE application_name LIKE 'tengen-bus-2 %' AND datname = current_database()`).Scan(&listening); err != nil {
		t.Fatal(err)
	}
	if listening != 2 {
		t.Errorf("%d listening connections after the reconnect, want 2", listening)
	}
}

// TestBusGaps sends notifications as a publisher would, with a message
// missing and a large payload gone from its table: the listener resets for
// each, skips a malformed one and delivers the rest.
func TestBusGaps(t *testing.T) {
	url, bs := busInstances(t, 1, 0)
	b := bs[0]
	rec := newRecorder()
	b.Subscribe("site", rec.fn("b"))
	resets := make(chan struct{}, 10)
	defer b.OnReset(func() { resets <- struct{}{} })()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	for _, env := range []string{"fake 1 site i\none", "fake 2 site i\ntwo", "not an envelope", "fake 4 site i\nfour", "fake 5 site t\n", "fake 6 site i\nsix"} {
		if _, err := conn.Exec(ctx, `SELECT pg_notify('tengen_bus', $1)`, env); err != nil {
			t.Fatal(err)
		}
	}
	if got := rec.wait(t, "b", 4); strings.Join(got, ",") != "one,two,four,six" {
		t.Errorf("delivered %q, want one, two, four, six", got)
	}
	// 4 after 2, and 5 whose row is missing.
	for range 2 {
		select {
		case <-resets:
		case <-time.After(10 * time.Second):
			t.Fatal("fewer than two resets")
		}
	}
	select {
	case <-resets:
		t.Error("more than two resets")
	default:
	}
}

// BenchmarkBus publishes b.N payloads on one instance and waits until the
// other has them all: 200 bytes, and 1,600, the size of a move's game
// event on 19×19 in the load test (docs/PERFORMANCE.md). The allocations
// are both instances' (sender and listener), per message.
func BenchmarkBus(b *testing.B) {
	url := pgtest.URL(b)
	var buses [2]*postgres.Bus
	for i := range buses {
		db := postgres.NewDB(url)
		if err := db.Open(); err != nil {
			b.Fatal(err)
		}
		buses[i] = postgres.NewBus(db)
		if err := buses[i].Open(context.Background()); err != nil {
			b.Fatal(err)
		}
		defer db.Close()
		defer buses[i].Close()
	}
	for _, size := range []int{200, 1600} {
		b.Run(fmt.Sprintf("%dB", size), func(b *testing.B) {
			topic := fmt.Sprintf("game:%d", size)
			got := make(chan struct{}, 1)
			var n int
			stop := buses[1].Subscribe(topic, func([]byte) {
				if n++; n == b.N {
					got <- struct{}{}
				}
			})
			defer stop()
			payload := bytes.Repeat([]byte("x"), size)
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				if err := buses[0].Publish(context.Background(), topic, payload); err != nil {
					b.Fatal(err)
				}
			}
			<-got
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
		})
	}
}

// rawListener connects to url as application name, as an instance's bus or
// an observer would, and listens on channels.
func rawListener(t *testing.T, url, name, channels string) *pgx.Conn {
	t.Helper()
	ctx := context.Background()
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		t.Fatal(err)
	}
	cfg.RuntimeParams["application_name"] = name
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	for c := range strings.FieldsSeq(channels) {
		if _, err := conn.Exec(ctx, "LISTEN "+c); err != nil {
			t.Fatal(err)
		}
	}
	return conn
}

// nextNotification waits for conn's next notification, or fails after a
// while.
func nextNotification(t *testing.T, conn *pgx.Conn) *pgconn.Notification {
	t.Helper()
	wctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	n, err := conn.WaitForNotification(wctx)
	if err != nil {
		t.Fatalf("waiting for a notification: %v", err)
	}
	return n
}

// quiet reports whether conn gets no notification for a while.
func quiet(conn *pgx.Conn) bool {
	wctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	_, err := conn.WaitForNotification(wctx)
	return err != nil
}

// TestBusPeerChannels checks where the messages travel. Up to busMaxDirect
// (3) other instances, each gets them on its own channel and nothing goes
// on the channel all instances hear; the publisher's subscribers get each
// of its messages once, without the database. With a listener of the
// version before the peer channels, or more than three other instances,
// every message goes once on the shared channel, and each instance still
// gets each message once.
func TestBusPeerChannels(t *testing.T) {
	url, bs := busInstances(t, 1, 0)
	a := bs[0]
	ctx := context.Background()
	rec := newRecorder()
	a.Subscribe("site", rec.fn("a"))
	// The observer hears the shared channel without being an instance.
	obs := rawListener(t, url, "observer", "tengen_bus_2")
	publish := func(bus *postgres.Bus, p string) {
		t.Helper()
		if err := bus.Publish(ctx, "site", []byte(p)); err != nil {
			t.Fatal(err)
		}
	}
	// Alone: a's subscriber gets its messages, nobody else does.
	publish(a, "alone")
	if got := rec.wait(t, "a", 1); got[0] != "alone" {
		t.Fatalf("a got %q", got)
	}
	if !quiet(obs) {
		t.Error("a message of the only instance went on the shared channel")
	}

	// Two more instances (three in all): each of the others gets every
	// message of a, in order, on its own channel.
	b, c := busOn(t, url), busOn(t, url)
	b.Subscribe("site", rec.fn("b"))
	c.Subscribe("site", rec.fn("c"))
	want := []string{"alone"}
	for i := range 50 {
		want = append(want, fmt.Sprint("m", i))
		publish(a, want[len(want)-1])
	}
	for _, name := range []string{"a", "b", "c"} {
		got := rec.wait(t, name, len(want)-1)
		if name == "a" && strings.Join(got, ",") != strings.Join(want, ",") ||
			name != "a" && strings.Join(got, ",") != strings.Join(want[1:], ",") {
			t.Errorf("%s got %.200v", name, got)
		}
	}
	if !quiet(obs) {
		t.Error("with three instances a message went on the shared channel")
	}

	// A listener of the version before hears the shared channel only:
	// now everything goes there, and the instances still get each
	// message once (a skips its own copy).
	old := rawListener(t, url, "tengen-bus-2", "tengen_bus_2")
	publish(a, "shared")
	want = append(want, "shared")
	if n := nextNotification(t, old); !strings.HasSuffix(n.Payload, "\nshared") {
		t.Errorf("the listener of the version before got %q", n.Payload)
	}
	nextNotification(t, obs)
	old.Close(ctx)

	// Four other instances are more than busMaxDirect: the shared channel
	// again.
	d, e := busOn(t, url), busOn(t, url)
	d.Subscribe("site", rec.fn("d"))
	e.Subscribe("site", rec.fn("e"))
	publish(a, "many")
	want = append(want, "many")
	if n := nextNotification(t, obs); !strings.HasSuffix(n.Payload, "\nmany") {
		t.Errorf("with five instances the shared channel got %q", n.Payload)
	}
	// A last message: each instance has every message of a once, in
	// order, and no copy arrives after it.
	publish(a, "end")
	want = append(want, "end")
	for name, w := range map[string][]string{"a": want, "b": want[1:], "c": want[1:], "d": want[len(want)-2:], "e": want[len(want)-2:]} {
		if got := rec.wait(t, name, len(w)); strings.Join(got, ",") != strings.Join(w, ",") {
			t.Errorf("%s got %.300v, want %.300v", name, got, w)
		}
	}
	time.Sleep(300 * time.Millisecond)
	rec.mu.Lock()
	defer rec.mu.Unlock()
	for name, n := range map[string]int{"a": len(want), "b": len(want) - 1, "c": len(want) - 1, "d": 2, "e": 2} {
		if len(rec.got[name]) != n {
			t.Errorf("%s got %d messages, want %d: %.300v", name, len(rec.got[name]), n, rec.got[name])
		}
	}
}

// busOn opens a DB and its bus on url, as one more instance.
func busOn(t *testing.T, url string) *postgres.Bus {
	t.Helper()
	db := postgres.NewDB(url)
	if err := db.Open(); err != nil {
		t.Fatal(err)
	}
	b := postgres.NewBus(db)
	if err := b.Open(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		b.Close()
		db.Close()
	})
	return b
}

// TestBusLegacy runs two instances beside one of the version before, which
// reads one message per notification on the first channel: while that one
// listens, it gets every message of the new ones, each alone and in order,
// and the new ones get each message once; what it sends reaches the new
// ones; and once it is gone, the new ones stop sending in its format.
func TestBusLegacy(t *testing.T) {
	defer postgres.SetBusLegacyCheck(50 * time.Millisecond)()
	url, bs := busInstances(t, 2, 0)
	a, b := bs[0], bs[1]
	ctx := context.Background()
	listener := func(name, channels string) *pgx.Conn { return rawListener(t, url, name, channels) }
	old := listener("tengen-bus", "tengen_bus")
	next := func(conn *pgx.Conn) *pgconn.Notification { return nextNotification(t, conn) }
	// Probes until a has noticed the old instance.
	for i := 0; ; i++ {
		if err := a.Publish(ctx, "probe", []byte(fmt.Sprint(i))); err != nil {
			t.Fatal(err)
		}
		wctx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
		_, err := old.WaitForNotification(wctx)
		cancel()
		if err == nil {
			break
		}
		if i == 150 {
			t.Fatal("the old instance got nothing for 30 s")
		}
	}
	rec := newRecorder()
	a.Subscribe("site", rec.fn("a"))
	b.Subscribe("site", rec.fn("b"))
	var want []string
	for i := range 100 {
		want = append(want, fmt.Sprintf("m%d", i))
		if err := a.Publish(ctx, "site", []byte(want[i])); err != nil {
			t.Fatal(err)
		}
	}
	var seq int64
	for i := 0; i < len(want); {
		n := next(old)
		head, body, _ := strings.Cut(n.Payload, "\n")
		f := strings.Fields(head)
		if n.Channel != "tengen_bus" || len(f) != 4 || f[3] != "i" {
			t.Fatalf("old instance got %q on %s, not one message of the first format", n.Payload, n.Channel)
		}
		if f[2] == "probe" {
			continue
		}
		s, _ := strconv.ParseInt(f[1], 10, 64)
		if f[2] != "site" || body != want[i] || seq != 0 && s != seq+1 {
			t.Fatalf("old instance: message %d is %q (after number %d), want %s", i, n.Payload, seq, want[i])
		}
		seq = s
		i++
	}
	// A marker after the 100: each new instance got each message once.
	if err := a.Publish(ctx, "site", []byte("end")); err != nil {
		t.Fatal(err)
	}
	want = append(want, "end")
	for _, name := range []string{"a", "b"} {
		if got := rec.wait(t, name, len(want)); strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("%s got %.300v, want %.300v", name, got, want)
		}
	}

	// The old instance publishes; both new ones hear it.
	if _, err := old.Exec(ctx, `SELECT pg_notify('tengen_bus', $1)`, "0123456789abcdef 1 site i\nfrom-old"); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"a", "b"} {
		if got := rec.wait(t, name, len(want)+1); got[len(want)] != "from-old" {
			t.Errorf("%s got %q after the old instance's message", name, got[len(want):])
		}
	}

	// The old instance stops; after a while a message travels on the new
	// channel only: an observer of both channels sees the new channel's
	// next message right after it, not the copy in the first format.
	old.Close(ctx)
	// The observer poses as a third instance, so that a sends to its
	// peer channel.
	const obsCh = "tengen_bus_2_0123456789abcdef"
	obs := listener("tengen-bus-2 0123456789abcdef", obsCh+" tengen_bus")
	deadline := time.Now().Add(30 * time.Second)
	for i := 0; ; i++ {
		x, y := fmt.Sprintf("x%d", i), fmt.Sprintf("y%d", i)
		if err := a.Publish(ctx, "site", []byte(x)); err != nil {
			t.Fatal(err)
		}
		for n := next(obs); n.Channel != obsCh || !strings.HasSuffix(n.Payload, "\n"+x); n = next(obs) {
		}
		if err := a.Publish(ctx, "site", []byte(y)); err != nil {
			t.Fatal(err)
		}
		n := next(obs)
		if n.Channel == obsCh && strings.HasSuffix(n.Payload, "\n"+y) {
			break // no copy of x in the first format
		}
		if n.Channel != "tengen_bus" || !strings.HasSuffix(n.Payload, "\n"+x) {
			t.Fatalf("after %s: got %q on %s", x, n.Payload, n.Channel)
		}
		for n := next(obs); n.Channel != obsCh || !strings.HasSuffix(n.Payload, "\n"+y); n = next(obs) {
		}
		if time.Now().After(deadline) {
			t.Fatal("still sending in the first format 30 s after the old instance left")
		}
	}
}

// TestBusCloseFlushes closes a bus right after publishing: what it had
// taken still reaches the other instance, and it takes nothing more.
func TestBusCloseFlushes(t *testing.T) {
	_, bs := busInstances(t, 2, 0)
	a, b := bs[0], bs[1]
	rec := newRecorder()
	b.Subscribe("site", rec.fn("b"))
	ctx := context.Background()
	for i := range 100 {
		if err := a.Publish(ctx, "site", []byte(fmt.Sprint(i))); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	if got := rec.wait(t, "b", 100); got[99] != "99" {
		t.Errorf("last payload %q, want 99", got[99])
	}
	if err := a.Publish(ctx, "site", []byte("late")); err == nil {
		t.Error("a closed bus took a message")
	}
}
