package clock

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestParseTimeSettings(t *testing.T) {
	tests := []struct {
		args string
		want TimeControl
		err  string // substring of the error, "" for success
	}{
		{"600 30 5", CanadianTime(10*minute, 5, 30*sec), ""},
		{"0 5 1", CanadianTime(0, 1, 5*sec), ""},
		{"600 0 0", AbsoluteTime(10 * minute), ""},
		{"600 0 7", AbsoluteTime(10 * minute), ""},
		{"0 1 0", NoTimeLimit(), ""},
		{"600 30 0", NoTimeLimit(), ""},
		{"0 0 0", NoTimeLimit(), ""},
		{"90.5 2.25 1", CanadianTime(90*sec+500*ms, 1, 2250*ms), ""},
		{"600 30", TimeControl{}, "column 8: want 3 arguments, have 2"},
		{"600 30 5 1", TimeControl{}, "column 10: want 3 arguments, have 4"},
		{"", TimeControl{}, "want 3 arguments"},
		{"-1 30 5", TimeControl{}, "column 1: unexpected '-'"},
		{"600 3x 5", TimeControl{}, "column 6: unexpected 'x'"},
		{"600 30 5.5", TimeControl{}, "column 9: unexpected '.'"},
		{"600 30 1001", TimeControl{}, "more than 1000"},
		{"1e400 0 0", TimeControl{}, "invalid number"},
		{"99999999999 0 0", TimeControl{}, "too long"},
	}
	for _, tt := range tests {
		got, err := ParseTimeSettings(strings.Fields(tt.args))
		check(t, "time_settings "+tt.args, got, err, tt.want, tt.err)
	}
}

func check(t *testing.T, what string, got TimeControl, err error, want TimeControl, wantErr string) {
	t.Helper()
	if wantErr == "" {
		if err != nil || got != want {
			t.Errorf("%s = %#v, %v; want %#v", what, got, err, want)
		}
		return
	}
	var pe *ParseError
	if err == nil || !strings.Contains(err.Error(), wantErr) || !errors.As(err, &pe) {
		t.Errorf("%s: error %v, want a ParseError containing %q", what, err, wantErr)
	}
}

func TestParseKGSAndKataTimeSettings(t *testing.T) {
	tests := []struct {
		args     string
		want     TimeControl
		kgsErr   string // "" means success
		kataOnly bool
	}{
		{"none", NoTimeLimit(), "", false},
		{"NONE", NoTimeLimit(), "", false},
		{"absolute 1800", AbsoluteTime(30 * minute), "", false},
		{"byoyomi 600 30 5", ByoYomiTime(10*minute, 5, 30*sec), "", false},
		{"byoyomi 0 30 3", ByoYomiTime(0, 3, 30*sec), "", false},
		{"byoyomi 600 0 5", AbsoluteTime(10 * minute), "", false},
		{"byoyomi 600 30 0", AbsoluteTime(10 * minute), "", false},
		{"canadian 600 300 25", CanadianTime(10*minute, 25, 5*minute), "", false},
		{"canadian 0 0 0", TimeControl{}, "no main time and no overtime", false},
		{"absolute 0", TimeControl{}, "absolute time needs main time", false},
		{"none 5", TimeControl{}, "want 1 arguments", false},
		{"byoyomi 600 30", TimeControl{}, "column 16: want 4 arguments", false},
		{"", TimeControl{}, "missing time system", false},
		{"hourglass 60", TimeControl{}, "column 1: unknown time system", false},
		{"byoyomi 600 30 x", TimeControl{}, "column 16: unexpected 'x'", false},
		{"fischer 300 10", FischerTime(5*minute, 10*sec, 0), "unknown time system", true},
		{"fischer-capped 300 10 600 -1", FischerTime(5*minute, 10*sec, 10*minute), "unknown time system", true},
		{"fischer-capped 300 10 -1 -1", FischerTime(5*minute, 10*sec, 0), "unknown time system", true},
		{"fischer-capped 300 10 600 20", FischerTime(5*minute, 10*sec, 10*minute), "unknown time system", true},
	}
	for _, tt := range tests {
		got, err := ParseKGSTimeSettings(strings.Fields(tt.args))
		if tt.kataOnly {
			check(t, "kgs-time_settings "+tt.args, got, err, TimeControl{}, tt.kgsErr)
		} else {
			check(t, "kgs-time_settings "+tt.args, got, err, tt.want, tt.kgsErr)
		}
		got, err = ParseKataTimeSettings(strings.Fields(tt.args))
		if tt.kataOnly {
			check(t, "kata-time_settings "+tt.args, got, err, tt.want, "")
		} else {
			check(t, "kata-time_settings "+tt.args, got, err, tt.want, tt.kgsErr)
		}
	}
	for _, bad := range []struct{ args, err string }{
		{"fischer 0 10", "needs initial time"},
		{"fischer 300", "want 3 arguments"},
		{"fischer-capped 300 10 100 -1", "main time limit is less"},
		{"fischer-capped 300 10 x -1", "column 23: unexpected 'x'"},
	} {
		got, err := ParseKataTimeSettings(strings.Fields(bad.args))
		check(t, "kata-time_settings "+bad.args, got, err, TimeControl{}, bad.err)
	}
}

// TestGTPRoundTrip sends every sample control to an imaginary engine and
// parses it back: exact commands must give the same control; inexact ones
// must give one under which the engine has no more time than it really has.
func TestGTPRoundTrip(t *testing.T) {
	forms := []struct {
		name   string
		format func(TimeControl) (string, bool)
		parse  func([]string) (TimeControl, error)
	}{
		{"time_settings", TimeSettingsCommand, ParseTimeSettings},
		{"kgs-time_settings", KGSTimeSettingsCommand, ParseKGSTimeSettings},
		{"kata-time_settings", KataTimeSettingsCommand, ParseKataTimeSettings},
	}
	for _, tc := range sampleControls() {
		for _, f := range forms {
			cmd, exact := f.format(tc)
			fields := strings.Fields(cmd)
			if fields[0] != f.name {
				t.Fatalf("%v: %s command %q", tc, f.name, cmd)
			}
			got, err := f.parse(fields[1:])
			if err != nil {
				t.Errorf("%v: %q does not parse: %v", tc, cmd, err)
				continue
			}
			if exact {
				same := got == tc
				// Two kinds have the same rules as another kind.
				switch tc.Kind {
				case Correspondence:
					same = got == TimeControl{Kind: Fischer, MainTime: tc.MainTime, Increment: tc.Increment, MaxTime: tc.MaxTime}
				case ByoYomi:
					same = same || tc.Periods == 1 && got == CanadianTime(tc.MainTime, 1, tc.PeriodTime)
				}
				if !same {
					t.Errorf("%v: exact %q parses to %v", tc, cmd, got)
				}
				continue
			}
			// Inexact: the engine's first-move deadline must not be later.
			real, _ := tc.Remaining(tc.NewState())
			seen, _ := got.Remaining(got.NewState())
			if seen > real {
				t.Errorf("%v: %q gives the engine %v, it has %v", tc, cmd, seen, real)
			}
		}
	}
}

func TestTimeLeft(t *testing.T) {
	byo := ByoYomiTime(10*minute, 5, 30*sec)
	can := CanadianTime(10*minute, 25, 10*minute)
	fis := FischerTime(5*minute, 10*sec, 0)
	tests := []struct {
		tc   TimeControl
		c    Color
		s    State
		want string
	}{
		{byo, Black, byo.NewState(), "time_left B 600 0"},
		{byo, White, State{Overtime: true, Periods: 3, PeriodLeft: 29500 * ms}, "time_left W 29 3"},
		{can, Black, State{MainTime: 90 * sec, PeriodLeft: 10 * minute, Stones: 25}, "time_left B 90 0"},
		{can, Black, State{Overtime: true, PeriodLeft: 100 * sec, Stones: 7}, "time_left B 100 7"},
		{fis, White, State{MainTime: 42*sec + 999*ms}, "time_left W 42 0"},
		{AbsoluteTime(minute), Black, State{MainTime: 1 * sec}, "time_left B 1 0"},
	}
	for _, tt := range tests {
		got, ok := TimeLeftCommand(tt.c, tt.tc, tt.s)
		if !ok || got != tt.want {
			t.Errorf("TimeLeftCommand(%v, %v, %+v) = %q, %v; want %q", tt.c, tt.tc, tt.s, got, ok, tt.want)
		}
		// The engine reads it back into a state no better than the truth.
		f := strings.Fields(got)
		c, left, stones, err := ParseTimeLeft(f[1:])
		if err != nil || c != tt.c {
			t.Fatalf("ParseTimeLeft(%q) = %v, %v", got, c, err)
		}
		s := tt.tc.StateFromTimeLeft(left, stones)
		real, _ := tt.tc.Remaining(tt.s)
		seen, _ := tt.tc.Remaining(s)
		if seen > real || real-seen >= sec {
			t.Errorf("%q read as %+v: remaining %v, truth %v", got, s, seen, real)
		}
	}
	if _, ok := TimeLeftCommand(Black, NoTimeLimit(), State{}); ok {
		t.Error("time_left for no time limit")
	}
}

func TestParseTimeLeft(t *testing.T) {
	tests := []struct {
		args   string
		c      Color
		left   time.Duration
		stones int
		err    string
	}{
		{"B 600 0", Black, 10 * minute, 0, ""},
		{"white 29.5 3", White, 29500 * ms, 3, ""},
		{"x 1 0", 0, 0, 0, "column 1: invalid colour"},
		{"b -1 0", 0, 0, 0, "column 3: unexpected '-'"},
		{"b 1 -1", 0, 0, 0, "column 5: unexpected '-'"},
		{"b 1", 0, 0, 0, "want 3 arguments"},
	}
	for _, tt := range tests {
		c, left, stones, err := ParseTimeLeft(strings.Fields(tt.args))
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("ParseTimeLeft(%q) error %v, want %q", tt.args, err, tt.err)
			}
			continue
		}
		if err != nil || c != tt.c || left != tt.left || stones != tt.stones {
			t.Errorf("ParseTimeLeft(%q) = %v %v %v %v", tt.args, c, left, stones, err)
		}
	}
}

func TestStateFromTimeLeft(t *testing.T) {
	byo := ByoYomiTime(10*minute, 5, 30*sec)
	can := CanadianTime(0, 25, 10*minute)
	tests := []struct {
		tc     TimeControl
		left   time.Duration
		stones int
		want   State
	}{
		{byo, 5 * minute, 0, State{MainTime: 5 * minute, Periods: 5, PeriodLeft: 30 * sec}},
		{byo, 20 * sec, 2, State{Overtime: true, Periods: 2, PeriodLeft: 20 * sec}},
		{can, 100 * sec, 3, State{Overtime: true, PeriodLeft: 100 * sec, Stones: 3}},
		// No main time: zero stones cannot mean main time.
		{can, 100 * sec, 0, State{Overtime: true, PeriodLeft: 100 * sec, Stones: 25}},
		{FischerTime(minute, sec, 0), 42 * sec, 0, State{MainTime: 42 * sec}},
		{NoTimeLimit(), 42 * sec, 0, State{}},
	}
	for _, tt := range tests {
		if got := tt.tc.StateFromTimeLeft(tt.left, tt.stones); got != tt.want {
			t.Errorf("%v.StateFromTimeLeft(%v, %d) = %+v, want %+v", tt.tc, tt.left, tt.stones, got, tt.want)
		}
	}
}
