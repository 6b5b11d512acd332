package clock

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func TestTimeControlJSON(t *testing.T) {
	tests := []struct {
		tc   TimeControl
		json string
	}{
		{NoTimeLimit(), `{"kind":"none"}`},
		{ByoYomiTime(10*minute, 5, 30*sec), `{"kind":"byoyomi","mainTime":600,"periods":5,"periodTime":30}`},
		{CanadianTime(0, 25, 2500*ms), `{"kind":"canadian","periodTime":2.5,"stones":25}`},
		{FischerTime(5*minute, 10*sec, 10*minute), `{"kind":"fischer","mainTime":300,"increment":10,"maxTime":600}`},
		{CorrespondenceDays(3, 10), `{"kind":"correspondence","mainTime":259200,"increment":259200,"maxTime":864000}`},
		{AbsoluteTime(time.Nanosecond), `{"kind":"absolute","mainTime":0.000000001}`},
	}
	for _, tt := range tests {
		b, err := json.Marshal(tt.tc)
		if err != nil || string(b) != tt.json {
			t.Errorf("Marshal(%v) = %s, %v; want %s", tt.tc, b, err, tt.json)
		}
		var back TimeControl
		if err := json.Unmarshal([]byte(tt.json), &back); err != nil || back != tt.tc {
			t.Errorf("Unmarshal(%s) = %#v, %v", tt.json, back, err)
		}
	}
	for _, tc := range sampleControls() {
		b, _ := json.Marshal(tc)
		var back TimeControl
		if err := json.Unmarshal(b, &back); err != nil || back != tc {
			t.Errorf("round trip of %v via %s: %v, %v", tc, b, back, err)
		}
	}
	// Other spellings of numbers that JSON allows.
	var tc TimeControl
	if err := json.Unmarshal([]byte(`{"kind":"Absolute","mainTime":6e2}`), &tc); err != nil || tc != AbsoluteTime(10*minute) {
		t.Errorf("exponent: %v, %v", tc, err)
	}
}

func TestTimeControlJSONErrors(t *testing.T) {
	for _, in := range []string{
		`{"kind":"blitz"}`,
		`{"kind":"absolute"}`,
		`{"kind":"absolute","mainTime":-5}`,
		`{"kind":"absolute","mainTime":"600"}`,
		`{"kind":"absolute","mainTime":1e30}`,
		`{"kind":"byoyomi","mainTime":600,"periods":0,"periodTime":30}`,
		`{"kind":"none","stones":3}`,
		`{"kind":3}`,
		`[]`,
	} {
		var tc TimeControl
		if err := json.Unmarshal([]byte(in), &tc); err == nil {
			t.Errorf("Unmarshal(%s) = %v, want an error", in, tc)
		}
	}
	if _, err := json.Marshal(TimeControl{Kind: 77}); err == nil {
		t.Error("Marshal of an unknown kind succeeded")
	}
}

func TestStateJSON(t *testing.T) {
	s := State{Overtime: true, Periods: 3, PeriodLeft: 12250 * ms}
	b, err := json.Marshal(s)
	want := `{"mainTime":0,"overtime":true,"periods":3,"periodLeft":12.25,"stones":0,"timedOut":false}`
	if err != nil || string(b) != want {
		t.Errorf("Marshal = %s, %v; want %s", b, err, want)
	}
	var back State
	if err := json.Unmarshal(b, &back); err != nil || back != s {
		t.Errorf("Unmarshal = %+v, %v", back, err)
	}
	for _, in := range []string{`{"periods":-1}`, `{"stones":100000}`, `{"mainTime":-1}`, `{"periodLeft":"x"}`} {
		if err := json.Unmarshal([]byte(in), &back); err == nil {
			t.Errorf("Unmarshal(%s) succeeded", in)
		}
	}
}

func TestGameClockJSON(t *testing.T) {
	g := newGame(t, ByoYomiTime(minute, 3, 10*sec))
	g.Start(Black, at(0))
	g.Switch(at(65 * sec))
	b, err := json.Marshal(g)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"control":{"kind":"byoyomi","mainTime":60,"periods":3,"periodTime":10},` +
		`"black":{"mainTime":0,"overtime":true,"periods":3,"periodLeft":10,"stones":0,"timedOut":false},` +
		`"white":{"mainTime":60,"overtime":false,"periods":3,"periodLeft":10,"stones":0,"timedOut":false},` +
		`"turn":"white","running":true,"since":"2026-11-21T05:31:05Z"}`
	if string(b) != want {
		t.Errorf("Marshal =\n%s\nwant\n%s", b, want)
	}
	var back GameClock
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.control != g.control || back.states != g.states || back.turn != g.turn || back.running != g.running ||
		!back.since.Equal(g.since) || back.flagged != g.flagged {
		t.Errorf("round trip: %+v, want %+v", back, *g)
	}
	// A flagged clock keeps its flag.
	g.Check(at(time.Hour))
	b, _ = json.Marshal(g)
	if !strings.Contains(string(b), `"flagged":"white"`) {
		t.Errorf("flagged clock: %s", b)
	}
	for _, in := range []string{
		`{"control":{"kind":"none"},"running":true}`,
		`{"control":{"kind":"none"},"turn":"red"}`,
		`{"control":{"kind":"absolute"}}`,
	} {
		if err := json.Unmarshal([]byte(in), &back); err == nil {
			t.Errorf("Unmarshal(%s) succeeded", in)
		}
	}
}
