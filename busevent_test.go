package tengen_test

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"tengen"
	"tengen/goban"
)

// moveEvent returns a move's event as the owner of a game publishes it.
func moveEvent() *tengen.GameEvent {
	at := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	g := &tengen.Game{ID: 42, BlackID: 1, WhiteID: 2, Black: &tengen.User{ID: 1, Name: "ann"}, White: &tengen.User{ID: 2, Name: "bob"},
		Status: tengen.GamePlaying, ToMove: goban.White, MoveCount: 7, CreatedAt: at, UpdatedAt: at}
	return &tengen.GameEvent{Type: tengen.EventMove, GameID: 42, Game: g, Board: []string{"x..", ".o.", "..."},
		Move:     &tengen.GameMove{GameID: 42, Seq: 7, Color: goban.Black, Kind: tengen.MovePlay, X: 3, Y: 15, TimeUsed: 2 * time.Second},
		Captures: &tengen.Captures{}, Captured: []goban.Point{{X: 1, Y: 1}}}
}

// TestGameBusEventJSON checks that AppendJSON writes what json.Marshal
// writes, and that ParseGameBusEvent reads it and any other encoding of
// the same event; refused are malformed payloads and events that are no
// objects.
func TestGameBusEventJSON(t *testing.T) {
	ev := moveEvent()
	be := tengen.GameBusEvent{Epoch: 1 << 61, N: 12, Event: ev.JSON()}
	want, err := json.Marshal(be)
	if err != nil {
		t.Fatal(err)
	}
	if got := be.AppendJSON(nil); !bytes.Equal(got, want) {
		t.Fatalf("AppendJSON:\n%s\nwant (json.Marshal)\n%s", got, want)
	}
	indented, _ := json.MarshalIndent(be, "", "  ")
	for _, p := range [][]byte{want, indented, []byte(`{"n":12,"event":` + string(ev.JSON()) + `,"epoch":2305843009213693952}`)} {
		got, err := tengen.ParseGameBusEvent(p)
		if err != nil {
			t.Fatalf("ParseGameBusEvent(%.60s…): %v", p, err)
		}
		var a, b any
		json.Unmarshal(got.Event, &a)
		json.Unmarshal(ev.JSON(), &b)
		if got.Epoch != be.Epoch || got.N != be.N || !jsonEqual(a, b) {
			t.Errorf("ParseGameBusEvent(%.60s…) = %d %d %.60s…", p, got.Epoch, got.N, got.Event)
		}
	}
	for _, p := range []string{``, `{`, `{"epoch":1,"n":2,"event":}`, `{"epoch":1,"n":2,"event":3}`, `{"epoch":1,"n":2}`,
		`{"epoch":x,"n":2,"event":{}}`, `[]`, `{"epoch":1,"n":2,"event":{"type":"move"`} {
		if got, err := tengen.ParseGameBusEvent([]byte(p)); err == nil {
			t.Errorf("ParseGameBusEvent(%s) = %+v, want an error", p, got)
		}
	}
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

// TestEncodedGameEvent checks that an event from another instance keeps
// its encoding byte for byte and is not decoded beyond its type and game,
// unless its encoding does not start as GameEvent.JSON's does.
func TestEncodedGameEvent(t *testing.T) {
	ev := moveEvent()
	data := ev.JSON()
	got, err := tengen.EncodedGameEvent(data)
	if err != nil {
		t.Fatal(err)
	}
	if got.Type != tengen.EventMove || got.GameID != 42 || !bytes.Equal(got.JSON(), data) {
		t.Errorf("EncodedGameEvent: type %q game %d JSON %.80s…", got.Type, got.GameID, got.JSON())
	}
	if got.Move != nil || got.Game != nil || got.Board != nil {
		t.Errorf("EncodedGameEvent decoded the move's fields: %+v", got)
	}
	full, err := tengen.GameEventFromJSON(got.JSON())
	if err != nil || full.Move == nil || full.Move.Seq != 7 || full.Game.White.Name != "bob" {
		t.Errorf("GameEventFromJSON of its JSON: %+v, %v", full, err)
	}
	// Another layout (here with the game first) is decoded in full.
	other := []byte(`{"gameId":42,"type":"move","move":{"seq":7,"color":"black","kind":"play","x":3,"y":15,"timeUsedMs":0}}`)
	got, err = tengen.EncodedGameEvent(other)
	if err != nil || got.Type != tengen.EventMove || got.GameID != 42 || got.Move == nil || got.Move.Seq != 7 {
		t.Errorf("EncodedGameEvent(%s) = %+v, %v", other, got, err)
	}
	for _, bad := range []string{`{"type":"move","gameId":x}`, `{"type":"move","gameId":1`, `nonsense`} {
		if got, err := tengen.EncodedGameEvent([]byte(bad)); err == nil {
			t.Errorf("EncodedGameEvent(%s) = %+v, want an error", bad, got)
		}
	}
}

// FuzzParseGameBusEvent: the bus's payloads never make the reader panic,
// and what it reads in the fast layout is what encoding/json reads.
func FuzzParseGameBusEvent(f *testing.F) {
	f.Add(tengen.GameBusEvent{Epoch: 3, N: 4, Event: moveEvent().JSON()}.AppendJSON(nil))
	f.Add([]byte(`{"epoch":-1,"n":99999999999999999999,"event":{}}`))
	f.Add([]byte(`{"epoch":1,"n":2,"event":{"type":"clock","gameId":5}}`))
	f.Fuzz(func(t *testing.T, p []byte) {
		be, err := tengen.ParseGameBusEvent(p)
		if err != nil {
			return
		}
		if _, err := tengen.EncodedGameEvent(be.Event); err != nil {
			return
		}
		var std tengen.GameBusEvent
		if json.Unmarshal(p, &std) == nil && (std.Epoch != be.Epoch || std.N != be.N) {
			t.Errorf("ParseGameBusEvent(%q) = %d %d, encoding/json %d %d", p, be.Epoch, be.N, std.Epoch, std.N)
		}
	})
}

// BenchmarkGameBusEventRead reads a move's event from the bus as the
// watchers of another instance's game did (encoding/json, the event
// decoded) and as they do (ParseGameBusEvent, EncodedGameEvent).
func BenchmarkGameBusEventRead(b *testing.B) {
	p, _ := json.Marshal(tengen.GameBusEvent{Epoch: 1 << 61, N: 120, Event: moveEvent().JSON()})
	b.Run("decoded", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var be tengen.GameBusEvent
			if err := json.Unmarshal(p, &be); err != nil {
				b.Fatal(err)
			}
			if _, err := tengen.GameEventFromJSON(be.Event); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoded", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			be, err := tengen.ParseGameBusEvent(p)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := tengen.EncodedGameEvent(be.Event); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkGameBusEventAppend encodes a move's event for the bus as the
// owner does for every event another instance follows (play's publishBus).
func BenchmarkGameBusEventAppend(b *testing.B) {
	ev := moveEvent().JSON()
	b.ReportAllocs()
	for b.Loop() {
		if p := (tengen.GameBusEvent{Epoch: 1 << 61, N: 120, Event: ev}).AppendJSON(nil); len(p) < len(ev) {
			b.Fatal("short")
		}
	}
}
