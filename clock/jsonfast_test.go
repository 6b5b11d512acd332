package clock

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The JSON of State and GameClock is written by hand (json.go); these tests
// hold it to what encoding/json makes of the structs it replaced, with the
// seconds formatted as formatSeconds did with fmt.

// refSeconds is the earlier formatSeconds.
type refSeconds time.Duration

func (s refSeconds) MarshalJSON() ([]byte, error) {
	d := time.Duration(s)
	neg := d < 0
	u := uint64(d)
	if neg {
		u = uint64(-d)
	}
	out := strconv.FormatUint(u/1e9, 10)
	if frac := u % 1e9; frac != 0 {
		out += "." + strings.TrimRight(fmt.Sprintf("%09d", frac), "0")
	}
	if neg {
		out = "-" + out
	}
	return []byte(out), nil
}

type refState struct {
	MainTime   refSeconds `json:"mainTime"`
	Overtime   bool       `json:"overtime"`
	Periods    int        `json:"periods"`
	PeriodLeft refSeconds `json:"periodLeft"`
	Stones     int        `json:"stones"`
	TimedOut   bool       `json:"timedOut"`
}

func refStateOf(s State) refState {
	return refState{refSeconds(s.MainTime), s.Overtime, s.Periods, refSeconds(s.PeriodLeft), s.Stones, s.TimedOut}
}

// refTimeControl is timeControlJSON with the reference seconds.
type refTimeControl struct {
	Kind        string     `json:"kind"`
	MainTime    refSeconds `json:"mainTime,omitzero"`
	Periods     int        `json:"periods,omitzero"`
	PeriodTime  refSeconds `json:"periodTime,omitzero"`
	Stones      int        `json:"stones,omitzero"`
	Increment   refSeconds `json:"increment,omitzero"`
	MaxTime     refSeconds `json:"maxTime,omitzero"`
	DaysPerMove int        `json:"daysPerMove,omitzero"`
	MaxDays     int        `json:"maxDays,omitzero"`
}

func refTimeControlOf(tc TimeControl) refTimeControl {
	if d, m, ok := tc.Days(); ok {
		return refTimeControl{Kind: tc.Kind.String(), DaysPerMove: d, MaxDays: m}
	}
	return refTimeControl{tc.Kind.String(), refSeconds(tc.MainTime), tc.Periods, refSeconds(tc.PeriodTime), tc.Stones,
		refSeconds(tc.Increment), refSeconds(tc.MaxTime), 0, 0}
}

type refGameClock struct {
	Control refTimeControl `json:"control"`
	Black   refState       `json:"black"`
	White   refState       `json:"white"`
	Turn    Color          `json:"turn,omitzero"`
	Running bool           `json:"running"`
	Since   time.Time      `json:"since,omitzero"`
	Flagged Color          `json:"flagged,omitzero"`
}

var jsonDurations = []time.Duration{0, 1, 9, 10, 100 * ms, 120 * ms, 1001 * time.Microsecond, 29500 * ms, sec, 10 * minute,
	time.Hour + 1, 999999999, -1, -2500 * ms, MaxDuration, math.MaxInt64, math.MinInt64, 1234567891, 100000001}

func TestStateJSONAsStruct(t *testing.T) {
	for i, d := range jsonDurations {
		for _, s := range []State{
			{MainTime: d},
			{MainTime: d, Overtime: true, Periods: i, PeriodLeft: jsonDurations[(i+3)%len(jsonDurations)], Stones: -i, TimedOut: i%2 == 0},
		} {
			got, err := json.Marshal(s)
			if err != nil {
				t.Fatal(err)
			}
			want, err := json.Marshal(refStateOf(s))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != string(want) {
				t.Errorf("%+v:\n got %s\nwant %s", s, got, want)
			}
			var back State
			if d >= 0 && d <= MaxDuration && s.PeriodLeft >= 0 && s.PeriodLeft <= MaxDuration && s.Stones >= 0 && s.Periods <= MaxPeriods {
				if err := json.Unmarshal(got, &back); err != nil || back != s {
					t.Errorf("%s reads back as %+v, %v", got, back, err)
				}
			}
		}
	}
}

func TestGameClockJSONAsStruct(t *testing.T) {
	for _, tc := range []TimeControl{NoTimeLimit(), ByoYomiTime(10*minute, 5, 30*sec), FischerTime(5*minute, 10*sec, 10*minute),
		CanadianTime(0, 25, 2500*ms), CorrespondenceDays(3, 10)} {
		g, err := NewGameClock(tc)
		if err != nil {
			t.Fatal(err)
		}
		clocks := []GameClock{*g}
		g.Start(Black, t0)
		clocks = append(clocks, *g)
		g.Switch(t0.Add(1234567 * time.Microsecond))
		clocks = append(clocks, *g)
		g.Pause(t0.Add(2 * sec))
		clocks = append(clocks, *g)
		g.flagged, g.since = White, t0.In(time.FixedZone("x", 3600)).Add(1)
		clocks = append(clocks, *g)
		for _, c := range clocks {
			got, err := json.Marshal(&c)
			if err != nil {
				t.Fatal(err)
			}
			want, err := json.Marshal(refGameClock{refTimeControlOf(c.control), refStateOf(c.states[0]), refStateOf(c.states[1]), c.turn, c.running, c.since, c.flagged})
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != string(want) {
				t.Errorf("\n got %s\nwant %s", got, want)
			}
		}
	}
}

func TestTimeControlJSONAsStruct(t *testing.T) {
	controls := []TimeControl{NoTimeLimit(), ByoYomiTime(10*minute, 5, 30*sec), FischerTime(5*minute, 10*sec, 10*minute),
		CanadianTime(0, 25, 2500*ms), CorrespondenceDays(3, 10), CorrespondenceDays(1, 0), AbsoluteTime(1)}
	for i, d := range jsonDurations {
		controls = append(controls, TimeControl{Kind: Kind(i % len(kindNames)), MainTime: d, Periods: i - 3,
			PeriodTime: jsonDurations[(i+1)%len(jsonDurations)], Stones: i, Increment: jsonDurations[(i+5)%len(jsonDurations)], MaxTime: -d})
	}
	for _, tc := range controls {
		got, err := json.Marshal(tc)
		if err != nil {
			t.Fatal(err)
		}
		want, err := json.Marshal(refTimeControlOf(tc))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("%+v:\n got %s\nwant %s", tc, got, want)
		}
	}
	if _, err := json.Marshal(TimeControl{Kind: Kind(len(kindNames))}); err == nil {
		t.Error("a control of an unknown kind was marshalled")
	}
}

// FuzzStateJSON compares the hand-written State JSON with the struct's.
func FuzzStateJSON(f *testing.F) {
	f.Add(int64(29500*ms), true, 3, int64(12250*ms), 0, false)
	f.Add(int64(-1), false, -1, int64(math.MinInt64), 7, true)
	f.Fuzz(func(t *testing.T, main int64, overtime bool, periods int, left int64, stones int, timedOut bool) {
		s := State{time.Duration(main), overtime, periods, time.Duration(left), stones, timedOut}
		got, _ := json.Marshal(s)
		want, _ := json.Marshal(refStateOf(s))
		if string(got) != string(want) {
			t.Errorf("%+v:\n got %s\nwant %s", s, got, want)
		}
	})
}

// BenchmarkMarshalState measures the clock state stored and sent with
// every move.
func BenchmarkMarshalState(b *testing.B) {
	s := State{MainTime: 0, Overtime: true, Periods: 3, PeriodLeft: 12250 * ms}
	for b.Loop() {
		if _, err := s.MarshalJSON(); err != nil {
			b.Fatal(err)
		}
	}
}
