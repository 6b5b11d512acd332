package clock

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"time"
)

// JSON forms. Field names are stable: storage and the API depend on them.
// Every duration is a JSON number of seconds, written exactly (up to
// nanoseconds, "29.5"); zero fields are left out.
//
// TimeControl:
//
//	{"kind": "byoyomi", "mainTime": 600, "periods": 5, "periodTime": 30}
//
// with "kind" one of none, absolute, byoyomi, canadian, fischer,
// correspondence and the other fields "mainTime", "periods", "periodTime",
// "stones", "increment", "maxTime" as in the Go struct.
//
// State:
//
//	{"mainTime": 0, "overtime": true, "periods": 3, "periodLeft": 12.25, "stones": 0, "timedOut": false}
//
// (here zero fields are written too, so a stored state reads clearly).
//
// GameClock:
//
//	{"control": {...}, "black": {...}, "white": {...}, "turn": "black",
//	 "running": true, "since": "2026-11-21T05:30:00.123Z", "flagged": "white"}
//
// with "since" in RFC 3339 and "turn" and "flagged" left out when empty.

// seconds is a time.Duration in JSON seconds.
type seconds time.Duration

// MarshalJSON writes the exact decimal number of seconds.
func (s seconds) MarshalJSON() ([]byte, error) {
	return appendSeconds(nil, time.Duration(s)), nil
}

// UnmarshalJSON reads a non-negative JSON number of seconds.
func (s *seconds) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		return nil // as encoding/json does for other types
	}
	d, _, err := parseSeconds(string(b))
	if err != nil {
		return fmt.Errorf("clock: duration %.40s: %w", b, err)
	}
	*s = seconds(d)
	return nil
}

type timeControlJSON struct {
	Kind       string  `json:"kind"`
	MainTime   seconds `json:"mainTime,omitzero"`
	Periods    int     `json:"periods,omitzero"`
	PeriodTime seconds `json:"periodTime,omitzero"`
	Stones     int     `json:"stones,omitzero"`
	Increment  seconds `json:"increment,omitzero"`
	MaxTime    seconds `json:"maxTime,omitzero"`
	// DaysPerMove and MaxDays are the correspondence form in whole days
	// (see CorrespondenceDays): the unit players choose in, and the one the
	// server's API has always used.
	DaysPerMove int `json:"daysPerMove,omitzero"`
	MaxDays     int `json:"maxDays,omitzero"`
}

// Days returns the days per move and the most days in the bank of a
// correspondence time control made by CorrespondenceDays; ok is false for
// any other time control.
func (tc TimeControl) Days() (daysPerMove, maxDays int, ok bool) {
	const day = 24 * time.Hour
	if tc.Kind != Correspondence || tc.MainTime != tc.Increment || tc.MainTime%day != 0 || tc.MaxTime%day != 0 || tc.MaxTime == 0 {
		return 0, 0, false
	}
	return int(tc.MainTime / day), int(tc.MaxTime / day), true
}

// MarshalJSON writes tc in the JSON form described above; a correspondence
// control in whole days is written as {"kind": "correspondence",
// "daysPerMove": 3, "maxDays": 10}.
func (tc TimeControl) MarshalJSON() ([]byte, error) {
	return tc.appendJSON(make([]byte, 0, 96))
}

// appendJSON appends the JSON form to b: by hand, as State's, since a
// running game's clock is stored with every move (TestTimeControlJSONAsStruct
// holds it to timeControlJSON through encoding/json).
func (tc TimeControl) appendJSON(b []byte) ([]byte, error) {
	if int(tc.Kind) >= len(kindNames) {
		return nil, fmt.Errorf("clock: cannot marshal unknown kind %d", tc.Kind)
	}
	b = append(b, `{"kind":"`...)
	b = append(b, tc.Kind.String()...)
	b = append(b, '"')
	field := func(name string, v int64, secs bool) {
		if v == 0 {
			return
		}
		b = append(b, `,"`...)
		b = append(b, name...)
		b = append(b, `":`...)
		if secs {
			b = appendSeconds(b, time.Duration(v))
		} else {
			b = strconv.AppendInt(b, v, 10)
		}
	}
	if d, m, ok := tc.Days(); ok {
		field("daysPerMove", int64(d), false)
		field("maxDays", int64(m), false)
		return append(b, '}'), nil
	}
	field("mainTime", int64(tc.MainTime), true)
	field("periods", int64(tc.Periods), false)
	field("periodTime", int64(tc.PeriodTime), true)
	field("stones", int64(tc.Stones), false)
	field("increment", int64(tc.Increment), true)
	field("maxTime", int64(tc.MaxTime), true)
	return append(b, '}'), nil
}

// MarshalText writes the kind's name.
func (k Kind) MarshalText() ([]byte, error) {
	if int(k) >= len(kindNames) {
		return nil, fmt.Errorf("clock: cannot marshal unknown kind %d", k)
	}
	return []byte(k.String()), nil
}

// UnmarshalText reads what ParseKind reads.
func (k *Kind) UnmarshalText(b []byte) error {
	v, err := ParseKind(string(b))
	if err != nil {
		return err
	}
	*k = v
	return nil
}

// UnmarshalJSON reads the JSON form and validates the result. Unknown
// fields are refused: a time control is what players agree to, and a field
// that is silently dropped (a misspelt "periodTime") would change the game.
// Only this package writes the stored forms, so they have no others.
func (tc *TimeControl) UnmarshalJSON(b []byte) error {
	var w timeControlJSON
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&w); err != nil {
		return fmt.Errorf("clock: time control: %w", err)
	}
	k, err := ParseKind(w.Kind)
	if err != nil {
		return err
	}
	if w.DaysPerMove != 0 || w.MaxDays != 0 {
		if k != Correspondence || w.MainTime != 0 || w.Increment != 0 || w.MaxTime != 0 || w.Periods != 0 || w.PeriodTime != 0 || w.Stones != 0 {
			return fmt.Errorf("clock: %w: daysPerMove and maxDays belong to a correspondence time control alone", ErrInvalid)
		}
		const maxDays = int(MaxDuration / (24 * time.Hour))
		if w.DaysPerMove < 0 || w.MaxDays < 0 || w.DaysPerMove > maxDays || w.MaxDays > maxDays {
			return fmt.Errorf("clock: %w: days out of range", ErrInvalid)
		}
		v := CorrespondenceDays(w.DaysPerMove, w.MaxDays)
		if err := v.Validate(); err != nil {
			return err
		}
		*tc = v
		return nil
	}
	v := TimeControl{
		Kind: k, MainTime: time.Duration(w.MainTime), Periods: w.Periods,
		PeriodTime: time.Duration(w.PeriodTime), Stones: w.Stones, Increment: time.Duration(w.Increment),
		MaxTime: time.Duration(w.MaxTime),
	}
	if err := v.Validate(); err != nil {
		return err
	}
	*tc = v
	return nil
}

type stateJSON struct {
	MainTime   seconds `json:"mainTime"`
	Overtime   bool    `json:"overtime"`
	Periods    int     `json:"periods"`
	PeriodLeft seconds `json:"periodLeft"`
	Stones     int     `json:"stones"`
	TimedOut   bool    `json:"timedOut"`
}

// MarshalJSON writes s in the JSON form described above: what
// encoding/json makes of stateJSON, written directly, since a state goes
// with every move to storage and to the watchers (TestStateJSONAsStruct).
func (s State) MarshalJSON() ([]byte, error) {
	// A state in overtime with a fraction of a second left takes up to
	// about 110 bytes.
	return s.AppendJSON(make([]byte, 0, 128)), nil
}

// AppendJSON appends what MarshalJSON writes to b, for an encoder that
// writes a state inside a larger value without a buffer of its own.
func (s State) AppendJSON(b []byte) []byte {
	b = append(b, `{"mainTime":`...)
	b = appendSeconds(b, s.MainTime)
	b = append(b, `,"overtime":`...)
	b = strconv.AppendBool(b, s.Overtime)
	b = append(b, `,"periods":`...)
	b = strconv.AppendInt(b, int64(s.Periods), 10)
	b = append(b, `,"periodLeft":`...)
	b = appendSeconds(b, s.PeriodLeft)
	b = append(b, `,"stones":`...)
	b = strconv.AppendInt(b, int64(s.Stones), 10)
	b = append(b, `,"timedOut":`...)
	b = strconv.AppendBool(b, s.TimedOut)
	return append(b, '}')
}

// UnmarshalJSON reads the JSON form; negative times and counts are refused.
func (s *State) UnmarshalJSON(b []byte) error {
	var w stateJSON
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	if w.Periods < 0 || w.Periods > MaxPeriods || w.Stones < 0 || w.Stones > MaxStones {
		return fmt.Errorf("clock: state with %d periods and %d stones", w.Periods, w.Stones)
	}
	*s = State{time.Duration(w.MainTime), w.Overtime, w.Periods, time.Duration(w.PeriodLeft), w.Stones, w.TimedOut}
	return nil
}

// MarshalText writes the colour as "black" or "white" (and "none").
func (c Color) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// UnmarshalText reads what ParseColor reads, and "none" or "" as no colour.
func (c *Color) UnmarshalText(b []byte) error {
	if s := string(b); s == "" || s == "none" {
		*c = 0
		return nil
	}
	v, err := ParseColor(string(b))
	if err != nil {
		return err
	}
	*c = v
	return nil
}

type gameClockJSON struct {
	Control TimeControl `json:"control"`
	Black   State       `json:"black"`
	White   State       `json:"white"`
	Turn    Color       `json:"turn,omitzero"`
	Running bool        `json:"running"`
	Since   time.Time   `json:"since,omitzero"`
	Flagged Color       `json:"flagged,omitzero"`
}

// MarshalJSON writes the clock in the JSON form described above: what
// encoding/json makes of gameClockJSON, written directly, since the clock
// is stored with every move (TestGameClockJSONAsStruct).
func (g *GameClock) MarshalJSON() ([]byte, error) {
	// A running byo-yomi clock takes about 330 bytes, one with a "since"
	// 360 and a correspondence clock's days about the same; the buffer
	// holds any of them without growing.
	return g.AppendJSON(make([]byte, 0, 512))
}

// AppendJSON appends what MarshalJSON writes to b, for a caller that keeps
// a buffer for it.
func (g *GameClock) AppendJSON(b []byte) ([]byte, error) {
	b, err := g.control.appendJSON(append(b, `{"control":`...))
	if err != nil {
		return nil, err
	}
	b = append(b, `,"black":`...)
	b = g.states[0].AppendJSON(b)
	b = append(b, `,"white":`...)
	b = g.states[1].AppendJSON(b)
	if g.turn != 0 {
		b = append(b, `,"turn":"`...)
		b = append(b, g.turn.String()...)
		b = append(b, '"')
	}
	b = append(b, `,"running":`...)
	b = strconv.AppendBool(b, g.running)
	if !g.since.IsZero() {
		// What time.Time's MarshalJSON writes, without its own buffer.
		b = append(b, `,"since":"`...)
		if b, err = g.since.AppendText(b); err != nil {
			return nil, err
		}
		b = append(b, '"')
	}
	if g.flagged != 0 {
		b = append(b, `,"flagged":"`...)
		b = append(b, g.flagged.String()...)
		b = append(b, '"')
	}
	return append(b, '}'), nil
}

// UnmarshalJSON reads the JSON form. A stored running clock still runs
// from its stored start; call Recover after a restart.
func (g *GameClock) UnmarshalJSON(b []byte) error {
	var w gameClockJSON
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	if w.Running && !w.Turn.valid() {
		return fmt.Errorf("clock: running clock without a turn")
	}
	*g = GameClock{control: w.Control, states: [2]State{w.Black, w.White}, turn: w.Turn, running: w.Running, since: w.Since, flagged: w.Flagged}
	return nil
}
