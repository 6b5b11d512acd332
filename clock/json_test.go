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
		{CorrespondenceDays(3, 10), `{"kind":"correspondence","daysPerMove":3,"maxDays":10}`},
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
		`{"kind":"absolute","mainTime":600,"bogus":1}`,
		`{"kind":"byoyomi","mainTime":600,"periods":5,"periodTime":30,"MainTimeMs":5}`,
		`{"kind":"correspondence","daysPerMove":3,"maxDays":10,"extra":null}`,
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

// TestCorrespondenceDaysJSON checks the days form of correspondence time
// controls: written for controls in whole days, read back to the same
// control, refused when mixed with duration fields.
func TestCorrespondenceDaysJSON(t *testing.T) {
	tc := CorrespondenceDays(3, 10)
	b, err := json.Marshal(tc)
	if err != nil || string(b) != `{"kind":"correspondence","daysPerMove":3,"maxDays":10}` {
		t.Fatalf("Marshal = %s, %v", b, err)
	}
	var back TimeControl
	if err := json.Unmarshal(b, &back); err != nil || back != tc {
		t.Fatalf("Unmarshal = %+v, %v; want %+v", back, err, tc)
	}
	// The duration form of the same control reads the same.
	if err := json.Unmarshal([]byte(`{"kind":"correspondence","mainTime":259200,"increment":259200,"maxTime":864000}`), &back); err != nil || back != tc {
		t.Fatalf("Unmarshal of the duration form = %+v, %v", back, err)
	}
	// A control not in whole days keeps the duration form.
	odd := CorrespondenceTime(36*time.Hour, 0)
	if b, _ := json.Marshal(odd); string(b) != `{"kind":"correspondence","mainTime":129600,"increment":129600}` {
		t.Errorf("Marshal of 36h = %s", b)
	}
	for _, in := range []string{
		`{"kind":"correspondence","daysPerMove":3,"maxDays":10,"mainTime":5}`,
		`{"kind":"fischer","daysPerMove":3,"maxDays":10}`,
		`{"kind":"correspondence","daysPerMove":3,"maxDays":1}`,
		`{"kind":"correspondence","daysPerMove":-3,"maxDays":10}`,
	} {
		if err := json.Unmarshal([]byte(in), &back); err == nil {
			t.Errorf("Unmarshal(%s) accepted", in)
		}
	}
}

// TestGameClockClone checks that a clone runs independently of its
// original.
func TestGameClockClone(t *testing.T) {
	g, err := NewGameClock(AbsoluteTime(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	if err := g.Start(Black, t0); err != nil {
		t.Fatal(err)
	}
	c := g.Clone()
	if _, err := c.Switch(t0.Add(10 * time.Second)); err != nil {
		t.Fatal(err)
	}
	if g.Turn() != Black || c.Turn() != White {
		t.Errorf("turns after Switch on the clone: original %v, clone %v", g.Turn(), c.Turn())
	}
	if got := g.State(Black).MainTime; got != time.Minute {
		t.Errorf("original's black main time = %v, want 1m", got)
	}
	if (*GameClock)(nil).Clone() != nil {
		t.Errorf("nil.Clone() != nil")
	}
}
