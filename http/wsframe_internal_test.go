package http

import (
	"encoding/binary"
	"testing"
)

// frame returns a client frame header (masked) for opcode and size.
func frame(opcode byte, size uint64) []byte {
	b := []byte{0x80 | opcode}
	switch {
	case size < 126:
		b = append(b, 0x80|byte(size))
	case size < 1<<16:
		b = append(b, 0x80|126)
		b = binary.BigEndian.AppendUint16(b, uint16(size))
	default:
		b = append(b, 0x80|127)
		b = binary.BigEndian.AppendUint64(b, size)
	}
	return append(b, 1, 2, 3, 4)
}

func TestFrameGuardScan(t *testing.T) {
	const limit = 4096
	payload := func(n int) []byte { return make([]byte, n) }
	join := func(parts ...[]byte) []byte {
		var b []byte
		for _, p := range parts {
			b = append(b, p...)
		}
		return b
	}
	tests := []struct {
		name string
		in   []byte
		ok   bool
	}{
		{"small text", join(frame(1, 20), payload(20)), true},
		{"at the limit", join(frame(1, limit), payload(limit)), true},
		{"16-bit length over", frame(1, limit+1), false},
		{"64-bit length 2^62", frame(1, 1<<62), false},
		{"64-bit length 2^63+", frame(1, 1<<63|5), false},
		{"continuation over", join(frame(1, 10), payload(10), frame(0, 5000)), false},
		{"binary over", frame(2, 5000), false},
		{"ping", join(frame(9, 4), payload(4), frame(1, 3), payload(3)), true},
		{"two frames then one over", join(frame(1, 200), payload(200), frame(1, 300), payload(300), frame(1, 1<<20)), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Whole, and one byte at a time: headers split across reads.
			g := &frameGuard{limit: limit}
			if got := g.scan(tt.in); got != tt.ok {
				t.Errorf("scan whole = %v, want %v", got, tt.ok)
			}
			g = &frameGuard{limit: limit}
			ok := true
			for i := range tt.in {
				if !g.scan(tt.in[i : i+1]) {
					ok = false
					break
				}
			}
			if ok != tt.ok {
				t.Errorf("scan byte by byte = %v, want %v", ok, tt.ok)
			}
		})
	}
}

// FuzzFrameGuardScan checks that the parser never panics and that how the
// stream is cut into reads does not change its verdict.
func FuzzFrameGuardScan(f *testing.F) {
	f.Add(append(frame(1, 3), 'a', 'b', 'c'), 2)
	f.Add(frame(1, 1<<62), 5)
	f.Add(append(frame(1, 300), make([]byte, 300)...), 100)
	f.Fuzz(func(t *testing.T, b []byte, cut int) {
		whole := (&frameGuard{limit: 4096}).scan(b)
		if cut < 0 || cut > len(b) {
			cut = len(b) / 2
		}
		g := &frameGuard{limit: 4096}
		split := g.scan(b[:cut]) && g.scan(b[cut:])
		if whole != split {
			t.Errorf("whole %v, split at %d %v", whole, cut, split)
		}
	})
}
