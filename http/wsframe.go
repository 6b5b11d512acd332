package http

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"net"
	nethttp "net/http"
	"sync/atomic"
	"time"
)

// frameGuardWriter hands the WebSocket library a connection that watches
// the frame headers the client sends: the library enforces its read limit
// only as payload bytes arrive, so a header that announces 2^62 bytes and
// then sends nothing would hold the connection until the next ping timeout.
// The guard ends such a connection as soon as the header is read.
type frameGuardWriter struct {
	nethttp.ResponseWriter
	limit int64
	conn  *frameGuard // set by Hijack
}

// Hijack takes over the connection and puts the guard in front of its
// reads, the bytes net/http had buffered included.
func (w *frameGuardWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	conn, brw, err := nethttp.NewResponseController(w.ResponseWriter).Hijack()
	if err != nil {
		return nil, nil, err
	}
	buffered, _ := brw.Reader.Peek(brw.Reader.Buffered())
	g := &frameGuard{Conn: conn, limit: w.limit}
	g.r = io.MultiReader(bytes.NewReader(bytes.Clone(buffered)), conn)
	brw.Reader.Reset(g)
	w.conn = g
	return g, brw, nil
}

// errFrameTooBig ends a connection whose client announced a frame over the
// limit.
var errFrameTooBig = errors.New("http: websocket frame announces more than the message limit")

// frameGuard is a connection that parses the WebSocket frame headers (RFC
// 6455, section 5.2) of what it reads and closes the connection when a data
// frame announces more than limit bytes. Compression is off (the library's
// default), so a frame is never longer than the message it carries. Its
// reads come from one goroutine, the library's reader.
type frameGuard struct {
	net.Conn
	r     io.Reader
	limit int64

	tooBig atomic.Bool // a frame was over the limit; read by the handler

	// Parser state, used by Read only.
	head    [14]byte // the current frame's header so far
	headLen int      // bytes of head read
	payload int64    // payload bytes of the current frame still to come
}

// Read reads from the connection and checks the frame headers in what it
// read.
func (g *frameGuard) Read(p []byte) (int, error) {
	n, err := g.r.Read(p)
	if n > 0 && !g.scan(p[:n]) {
		g.tooBig.Store(true)
		// Say why, as the library does for a message over the limit, and
		// hang up. The library's writer may be sending at the same moment;
		// the client broke the protocol's limits, so a garbled last frame
		// is its own affair.
		g.Conn.SetWriteDeadline(time.Now().Add(time.Second))
		g.Conn.Write(tooBigCloseFrame)
		g.Conn.Close()
		return 0, errFrameTooBig
	}
	return n, err
}

// tooBigCloseFrame is a server's close frame with status 1009 (message too
// big) and a reason.
var tooBigCloseFrame = func() []byte {
	reason := "message too big"
	return append([]byte{0x88, byte(2 + len(reason)), 0x03, 0xf1}, reason...)
}()

// scan advances the parser over b; it reports false when a data frame
// announces more than the limit.
func (g *frameGuard) scan(b []byte) bool {
	for len(b) > 0 {
		if g.payload > 0 {
			k := min(int64(len(b)), g.payload)
			g.payload -= k
			b = b[k:]
			continue
		}
		g.head[g.headLen] = b[0]
		g.headLen++
		b = b[1:]
		if g.headLen < 2 {
			continue
		}
		size := int64(g.head[1] & 0x7f)
		need := 2
		switch size {
		case 126:
			need += 2
		case 127:
			need += 8
		}
		if g.head[1]&0x80 != 0 {
			need += 4 // the masking key
		}
		if g.headLen < need {
			continue
		}
		switch size {
		case 126:
			size = int64(binary.BigEndian.Uint16(g.head[2:4]))
		case 127:
			u := binary.BigEndian.Uint64(g.head[2:10])
			if u > uint64(g.limit) {
				return false
			}
			size = int64(u)
		}
		// Control frames (opcodes 8 and up) are at most 125 bytes, which
		// the library checks; data and continuation frames count against
		// the message limit.
		if g.head[0]&0x0f < 8 && size > g.limit {
			return false
		}
		g.payload, g.headLen = size, 0
	}
	return true
}
