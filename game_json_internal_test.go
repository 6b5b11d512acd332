package tengen

import (
	"encoding/json"
	"testing"
	"time"

	"tengen/clock"
	"tengen/goban"
)

// TestGameMoveJSONAsStruct holds the hand-written GameMove JSON to what
// encoding/json makes of gameMoveJSON.
func TestGameMoveJSONAsStruct(t *testing.T) {
	st := clock.State{Overtime: true, Periods: 3, PeriodLeft: 12250 * time.Millisecond}
	at := time.Date(2026, 11, 24, 12, 0, 0, 123456789, time.UTC)
	moves := []GameMove{
		{},
		{GameID: 3, Seq: 1, Color: goban.Black, Kind: MovePlay, X: 3, Y: 15, TimeUsed: 2119700 * time.Microsecond, CreatedAt: at},
		{GameID: 1 << 40, Seq: 300, Color: goban.White, Kind: MovePass, Clock: &st, CreatedAt: at.In(time.FixedZone("x", -7200))},
		{GameID: -1, Seq: -2, Color: goban.White, Kind: "<odd & \"kind\">", X: -1, Y: 99, TimeUsed: -time.Second},
		{Kind: "ä", Clock: &clock.State{}},
	}
	for _, m := range moves {
		got, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		want, err := json.Marshal(gameMoveJSON{plainGameMove(m), m.TimeUsed.Milliseconds()})
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("\n got %s\nwant %s", got, want)
		}
	}
}

// FuzzGameMoveJSON compares the hand-written GameMove JSON with the
// struct's.
func FuzzGameMoveJSON(f *testing.F) {
	f.Add(int64(3), 1, uint8(1), "play", 3, 15, int64(2119700000), true, int64(1800000000000))
	f.Fuzz(func(t *testing.T, id int64, seq int, color uint8, kind string, x, y int, used int64, withClock bool, unixNano int64) {
		m := GameMove{GameID: id, Seq: seq, Color: goban.Color(color % 3), Kind: MoveKind(kind), X: x, Y: y,
			TimeUsed: time.Duration(used), CreatedAt: time.Unix(0, unixNano).UTC()}
		if withClock {
			m.Clock = &clock.State{MainTime: time.Duration(used), Stones: x}
		}
		got, err1 := json.Marshal(m)
		want, err2 := json.Marshal(gameMoveJSON{plainGameMove(m), m.TimeUsed.Milliseconds()})
		if (err1 == nil) != (err2 == nil) || string(got) != string(want) {
			t.Errorf("%+v:\n got %s, %v\nwant %s, %v", m, got, err1, want, err2)
		}
	})
}
