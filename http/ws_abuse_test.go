package http_test

import (
	"bufio"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	nethttp "net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"tengen/internal/app"
)

// closeStatus reads until the connection ends and returns its close status
// (-1 when it ended without a close frame).
func (w *wsConn) closeStatus() websocket.StatusCode {
	w.t.Helper()
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_, _, err := w.c.Read(ctx)
		cancel()
		if err != nil {
			return websocket.CloseStatus(err)
		}
	}
}

// TestWebSocketFrames: the server takes text frames of valid UTF-8 only;
// binary frames and invalid UTF-8 end the connection with their statuses.
func TestWebSocketFrames(t *testing.T) {
	e := newPlayEnv(t)
	black, _, id := newPlayGame(e, settings9())
	tests := []struct {
		name string
		typ  websocket.MessageType
		data string
		want websocket.StatusCode
	}{
		{"binary", websocket.MessageBinary, `{"type": "ping", "id": "p"}`, websocket.StatusUnsupportedData},
		{"invalid UTF-8", websocket.MessageText, "{\"type\": \"ping\", \"id\": \"\xff\xfe\"}", websocket.StatusInvalidFramePayloadData},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := black.mustWS(id)
			w.expect("game")
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			if err := w.c.Write(ctx, tt.typ, []byte(tt.data)); err != nil {
				t.Fatal(err)
			}
			if got := w.closeStatus(); got != tt.want {
				t.Errorf("closed with %v, want %v", got, tt.want)
			}
		})
	}
}

// TestWebSocketHugeFrame: a frame whose header announces 2^62 bytes ends
// the connection at once, without waiting for the payload.
func TestWebSocketHugeFrame(t *testing.T) {
	e := newPlayEnv(t)
	_, _, id := newPlayGame(e, settings9())
	for _, size := range []uint64{1 << 62, 5 << 10} {
		t.Run(fmt.Sprint(size), func(t *testing.T) {
			conn, err := net.Dial("tcp", strings.TrimPrefix(e.srv.URL, "http://"))
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			fmt.Fprintf(conn, "GET /api/v1/games/%d/ws HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"+
				"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n", id, strings.TrimPrefix(e.srv.URL, "http://"))
			br := bufio.NewReader(conn)
			resp, err := nethttp.ReadResponse(br, nil)
			if err != nil || resp.StatusCode != 101 {
				t.Fatalf("upgrade: %v %v", resp, err)
			}
			// A masked text frame with a 64-bit length, and no payload.
			frame := []byte{0x81, 0x80 | 127}
			frame = binary.BigEndian.AppendUint64(frame, size)
			frame = append(frame, 1, 2, 3, 4)
			if _, err := conn.Write(frame); err != nil {
				t.Fatal(err)
			}
			conn.SetReadDeadline(time.Now().Add(3 * time.Second))
			_, err = io.Copy(io.Discard, br) // the game snapshot, then the end
			if ne, ok := err.(net.Error); ok && ne.Timeout() {
				t.Errorf("the connection is still open 3 s after a frame of %d bytes was announced", size)
			}
		})
	}
}

// TestWebSocketSyncLimited: sync, which sends the whole game, is limited
// per connection.
func TestWebSocketSyncLimited(t *testing.T) {
	e := newPlayEnv(t)
	black, _, id := newPlayGame(e, settings9())
	w := black.mustWS(id)
	w.expect("game")
	limited := 0
	for i := range 10 {
		w.send(map[string]any{"type": "sync", "id": fmt.Sprint("s", i)})
		m, err := w.read()
		if err != nil {
			t.Fatal(err)
		}
		switch m.Type {
		case "game":
			w.expect("ok")
		case "error":
			if m.Code != "rate_limited" {
				t.Fatalf("sync %d: %+v", i, m)
			}
			limited++
		default:
			t.Fatalf("sync %d: %+v", i, m)
		}
	}
	if limited == 0 {
		t.Error("10 syncs in a row were all answered")
	}
	w.send(map[string]any{"type": "ping", "id": "p"})
	w.expect("pong")
}

// TestWebSocketsPerAddress: one client address may hold only so many game
// WebSockets at once.
func TestWebSocketsPerAddress(t *testing.T) {
	e := newPlayEnvWith(t, func(c *app.Config) { c.MaxSocketsPerAddress = 3 })
	black, _, id := newPlayGame(e, settings9())
	var open []*wsConn
	for range 3 {
		w := black.mustWS(id)
		w.expect("game")
		open = append(open, w)
	}
	_, resp, err := black.dialWS(id)
	if err == nil || resp == nil || resp.StatusCode != 429 {
		t.Fatalf("fourth WebSocket: %v, %v", resp, err)
	}
	open[0].c.Close(websocket.StatusNormalClosure, "")
	deadline := time.Now().Add(5 * time.Second)
	for {
		w, _, err := black.dialWS(id)
		if err == nil {
			w.expect("game")
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no WebSocket after one closed: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
