package tengen_test

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"tengen"
	"tengen/goban"
)

// TestGameMoveJSON: timeUsedMs is milliseconds both ways, as docs/API.md
// says (it used to be the Duration's nanoseconds).
func TestGameMoveJSON(t *testing.T) {
	tests := []struct {
		used time.Duration
		want string
	}{
		{0, `"timeUsedMs":0[,}]`},
		{2119 * time.Millisecond, `"timeUsedMs":2119[,}]`},
		{2119*time.Millisecond + 700*time.Microsecond, `"timeUsedMs":2119[,}]`},
		{90 * time.Minute, `"timeUsedMs":5400000[,}]`},
	}
	for _, tt := range tests {
		m := &tengen.GameMove{GameID: 3, Seq: 1, Color: goban.Black, Kind: tengen.MovePlay, X: 3, Y: 15, TimeUsed: tt.used}
		data, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		if !regexp.MustCompile(tt.want).Match(data) || strings.Count(string(data), "timeUsed") != 1 {
			t.Errorf("Marshal(%v) = %s, want %s", tt.used, data, tt.want)
		}
		var back tengen.GameMove
		if err := json.Unmarshal(data, &back); err != nil {
			t.Fatal(err)
		}
		if want := tt.used.Truncate(time.Millisecond); back.TimeUsed != want || back.X != 3 || back.Y != 15 || back.Kind != tengen.MovePlay {
			t.Errorf("round trip of %v: %+v", tt.used, back)
		}
	}
}

// TestGameJSONFields: a game object always has the fields docs/API.md
// shows, result included ("" before the end).
func TestGameJSONFields(t *testing.T) {
	data, err := json.Marshal(&tengen.Game{ID: 3, Status: tengen.GamePlaying, ToMove: goban.Black})
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"id", "blackId", "whiteId", "settings", "status", "toMove", "moveCount", "result", "createdAt", "updatedAt"} {
		if _, ok := m[k]; !ok {
			t.Errorf("no %q in %s", k, data)
		}
	}
}

// TestUserNameKey: names are unique ignoring ASCII case only, so that no
// other character folds into a name (the Kelvin sign K, U+212A, lower-cases
// to k under Unicode rules and logged into "kelvin").
func TestUserNameKey(t *testing.T) {
	tests := []struct {
		a, b string
		same bool
	}{
		{"Kelvin", "kelvin", true},
		{"ALICE_-9", "alice_-9", true},
		{"\u212Aelvin", "kelvin", false},     // Kelvin sign
		{"\u0130stanbul", "istanbul", false}, // I with dot above
		{"\uFF41lice", "alice", false},       // fullwidth a
		{"ali\u017Fe", "alise", false},       // long s
	}
	for _, tt := range tests {
		if got := tengen.UserNameKey(tt.a) == tengen.UserNameKey(tt.b); got != tt.same {
			t.Errorf("UserNameKey(%q) == UserNameKey(%q) is %v, want %v", tt.a, tt.b, got, tt.same)
		}
	}
}
