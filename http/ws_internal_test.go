package http

import (
	"testing"

	"github.com/coder/websocket"
)

// TestSlowClientQueue checks that a full queue ends the connection with "try
// again later" instead of blocking the game that publishes to it.
func TestSlowClientQueue(t *testing.T) {
	c := &wsClient{send: make(chan []byte, wsQueue), ended: make(chan struct{})}
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
