package http

import (
	"testing"

	"github.com/coder/websocket"
)

// TestSlowClientQueue checks that a full queue ends the connection with "try
// again later" instead of blocking the game that publishes to it.
func TestSlowClientQueue(t *testing.T) {
	c := &wsClient{send: newSendQueue(), ended: make(chan struct{})}
	for i := range wsQueue {
		c.enqueue([]byte{byte(i)})
		select {
		case <-c.ended:
			t.Fatalf("ended after %d messages, queue holds %d", i+1, wsQueue)
		default:
		}
	}
	c.enqueue([]byte("one too many")) // must not block
	select {
	case <-c.ended:
	default:
		t.Fatal("a full queue did not end the connection")
	}
	if c.status != websocket.StatusTryAgainLater {
		t.Errorf("close status %v, want %v", c.status, websocket.StatusTryAgainLater)
	}
	c.end(websocket.StatusNormalClosure, "later")
	if c.status != websocket.StatusTryAgainLater {
		t.Errorf("a later end changed the status to %v", c.status)
	}
}

// TestSendQueue checks the queue's order, its signal to the writer and that
// take empties it and reuses the caller's slice.
func TestSendQueue(t *testing.T) {
	q := newSendQueue()
	select {
	case <-q.ready:
		t.Fatal("an empty queue is ready")
	default:
	}
	for i := range 3 {
		if !q.put([]byte{byte(i)}) {
			t.Fatalf("put %d refused", i)
		}
	}
	if len(q.ready) != 1 {
		t.Fatalf("%d ready tokens after three puts, want 1", len(q.ready))
	}
	<-q.ready
	got := q.take(nil)
	if len(got) != 3 || got[0][0] != 0 || got[1][0] != 1 || got[2][0] != 2 {
		t.Fatalf("took %v, want [[0] [1] [2]]", got)
	}
	if rest := q.take(nil); len(rest) != 0 {
		t.Fatalf("a second take got %v", rest)
	}
	q.put([]byte("next"))
	select {
	case <-q.ready:
	default:
		t.Fatal("a put to an emptied queue did not signal the writer")
	}
	spare := got
	again := q.take(nil)
	q.put([]byte("after"))
	if next := q.take(spare); len(next) != 1 || string(next[0]) != "after" {
		t.Fatalf("took %q, want [after]", next)
	}
	if string(again[0]) != "next" {
		t.Fatalf("took %q, want [next]", again)
	}
	if q.put(nil); &q.msgs[0] != &spare[0] {
		t.Error("take did not reuse the spare slice")
	}
	if spare[1] != nil || spare[2] != nil {
		t.Error("take kept references to written messages")
	}
}
