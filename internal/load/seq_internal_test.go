package load

import (
	"encoding/json"
	"testing"

	"tengen"
	"tengen/goban"
)

func TestMoveSeq(t *testing.T) {
	move := &tengen.GameEvent{Type: "move", GameID: 7, Move: &tengen.GameMove{GameID: 7, Seq: 42, Color: goban.White, Kind: tengen.MovePlay, X: 3, Y: 4}}
	phase := &tengen.GameEvent{Type: "phase", GameID: 7, Seq: 9}
	for _, tc := range []struct {
		name string
		data []byte
		want int
	}{
		{"the server's move event", move.JSON(), 42},
		{"an event without a move", phase.JSON(), 0},
		{"fields in another order", []byte(`{"move":{"x":1,"seq":17},"type":"move"}`), 17},
		{"spaces: decoded the slow way", []byte(`{"type":"move","move": {"seq": 5}}`), 5},
		{"malformed", []byte(`{"type":"move","move":{"seq":`), 0},
		{"not JSON", []byte(`move`), 0},
	} {
		if got := moveSeq(tc.data); got != tc.want {
			t.Errorf("%s: moveSeq(%s) = %d, want %d", tc.name, tc.data, got, tc.want)
		}
	}
}

// FuzzMoveSeq checks that the fast path agrees with decoding the event
// whenever it finds a number, and never panics.
func FuzzMoveSeq(f *testing.F) {
	f.Add([]byte(`{"type":"move","gameId":1,"move":{"gameId":1,"seq":3,"color":"B"}}`))
	f.Add([]byte(`{"type":"ok","id":"3"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		got := moveSeq(data)
		var ev event
		if json.Unmarshal(data, &ev) == nil && ev.Move != nil && ev.Move.Seq > 0 && ev.Move.Seq < 1e9 && got != ev.Move.Seq {
			// Only a "move" object with a plain "seq" first found by the
			// fast path is required to agree; a nested or repeated key
			// may differ, so check the well-formed server form only.
			if b, _ := json.Marshal(ev); moveSeq(b) != ev.Move.Seq {
				t.Errorf("moveSeq(%s) = %d, decoded %d", b, moveSeq(b), ev.Move.Seq)
			}
		}
	})
}

// TestInstances checks how the tables' connections are spread over
// several instances: both players on one and the spectators on the
// others, or the players split.
func TestInstances(t *testing.T) {
	for _, tc := range []struct {
		split     bool
		wantBlack []int
		wantWhite []int
	}{
		{false, []int{0, 1, 2, 0}, []int{0, 1, 2, 0}},
		{true, []int{0, 1, 2, 0}, []int{1, 2, 0, 1}},
	} {
		cfg := Config{URLs: []string{"http://127.0.0.1:1", "http://127.0.0.1:2", "http://127.0.0.1:3"}, Games: 4, Spectators: 4, SplitPlayers: tc.split}
		if err := cfg.defaults(); err != nil {
			t.Fatal(err)
		}
		r := newRunner(cfg, &Result{})
		for i, tb := range r.tables {
			if tb.inst != [2]int{tc.wantBlack[i], tc.wantWhite[i]} || len(tb.ack) != 3 || len(tb.spec) != 3 {
				t.Errorf("split %v, table %d: instances %v", tc.split, i, tb.inst)
			}
			if got := r.spectatorInstance(tb, 0); got == tc.wantBlack[i] {
				t.Errorf("split %v, table %d: the spectator is on Black's instance %d", tc.split, i, got)
			}
		}
		cfg.LocalSpectators = true
		r = newRunner(cfg, &Result{})
		for i, tb := range r.tables {
			if got := r.spectatorInstance(tb, 0); got != tc.wantBlack[i] {
				t.Errorf("local spectators, split %v, table %d: the spectator is on instance %d, want %d", tc.split, i, got, tc.wantBlack[i])
			}
		}
	}
	for _, cfg := range []Config{
		{URL: "http://127.0.0.1:1", URLs: []string{"http://127.0.0.1:2"}},
		{URLs: []string{"http://127.0.0.1:1"}, SplitPlayers: true},
		{URLs: []string{"http://127.0.0.1:1"}, ServerPIDs: []int{1, 2}},
	} {
		if err := cfg.defaults(); err == nil {
			t.Errorf("%+v accepted", cfg)
		}
	}
}

func TestSnapshotMoves(t *testing.T) {
	snap := &tengen.GameEvent{Type: "game", GameID: 7, State: &tengen.GameSnapshot{Game: &tengen.Game{ID: 7, MoveCount: 123}}}
	for _, tc := range []struct {
		data []byte
		want int64
	}{
		{snap.JSON(), 123},
		{[]byte(`{"type":"game","state":{"game":{"moveCount":0}}}`), 0},
		{[]byte(`{"type":"game"}`), 0},
		{[]byte(`{"type":"game","state":{"game":{"moveCount":`), 0},
	} {
		if got := snapshotMoves(tc.data); got != tc.want {
			t.Errorf("snapshotMoves(%s) = %d, want %d", tc.data, got, tc.want)
		}
	}
}
