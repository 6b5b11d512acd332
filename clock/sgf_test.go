package clock

import (
	"testing"
	"time"
)

func TestParseSGFTime(t *testing.T) {
	tests := []struct {
		tm, ot string
		want   TimeControl
		err    string
	}{
		{"", "", NoTimeLimit(), ""},
		{"0", "", NoTimeLimit(), ""},
		{"1800", "", AbsoluteTime(30 * minute), ""},
		{" 1800.0 ", "", AbsoluteTime(30 * minute), ""},
		{"+60", "", AbsoluteTime(minute), ""},
		{"600", "5x30 byo-yomi", ByoYomiTime(10*minute, 5, 30*sec), ""},
		{"600", "5x30 Byo-Yomi", ByoYomiTime(10*minute, 5, 30*sec), ""},
		{"600", "5 x 30 byoyomi", ByoYomiTime(10*minute, 5, 30*sec), ""},
		{"", "3x10 byo-yomi", ByoYomiTime(0, 3, 10*sec), ""},
		{"600", "25/600 Canadian", CanadianTime(10*minute, 25, 10*minute), ""},
		{"600", "25/600 canadian", CanadianTime(10*minute, 25, 10*minute), ""},
		{"300", "10 fischer", FischerTime(5*minute, 10*sec, 0), ""},
		{"300", "10 fischer (max 600)", FischerTime(5*minute, 10*sec, 10*minute), ""},
		{"0", "30 simple", CanadianTime(0, 1, 30*sec), ""},
		{"900", "10 moves / 5 min", CanadianTime(15*minute, 10, 5*minute), ""},
		{"900", "10 moves / 30 sec", CanadianTime(15*minute, 10, 30*sec), ""},
		{"259200", "259200 per move (max 864000) correspondence", CorrespondenceDays(3, 10), ""},
		{"", "86400 per move", CorrespondenceDays(1, 0), ""},
		{"abc", "", TimeControl{}, "SGF TM \"abc\": column 1: unexpected 'a'"},
		{" 60s", "", TimeControl{}, "column 4: unexpected 's'"},
		{"-60", "", TimeControl{}, "column 1: unexpected '-'"},
		{"600", "5x30", TimeControl{}, `column 5: expected "byo-yomi"`},
		{"600", "5x30 byo-yomi extra", TimeControl{}, `column 15: unexpected "extra"`},
		{"600", "5.5x30 byo-yomi", TimeControl{}, "column 2: unexpected '.'"},
		{"600", "0x30 byo-yomi", TimeControl{}, "needs at least one period"},
		{"600", "25/600 Japanese", TimeControl{}, `column 8: expected "canadian"`},
		{"600", "sudden death", TimeControl{}, "column 1: expected a number"},
		{"600", "5 hourglass", TimeControl{}, `column 3: expected "x"`},
		{"0", "10 fischer", TimeControl{}, "needs initial time"},
		{"300", "10 fischer (max 60)", TimeControl{}, "max time"},
		{"300", "10 fischer (max 600", TimeControl{}, `column 20: expected ")"`},
		{"900", "10 moves / 5 hours", TimeControl{}, `column 14: expected "min" or "sec"`},
		{"900", "10 moves / 99999999999 min", TimeControl{}, "too long"},
	}
	for _, tt := range tests {
		got, err := ParseSGFTime(tt.tm, tt.ot)
		check(t, "TM["+tt.tm+"] OT["+tt.ot+"]", got, err, tt.want, tt.err)
	}
}

func TestSGFRoundTrip(t *testing.T) {
	for _, tc := range sampleControls() {
		tm, ot := SGFProperties(tc)
		got, err := ParseSGFTime(tm, ot)
		if err != nil || got != tc {
			t.Errorf("%v: TM[%s] OT[%s] parses to %v, %v", tc, tm, ot, got, err)
		}
	}
}

func TestSGFTimeLeft(t *testing.T) {
	byo := ByoYomiTime(10*minute, 5, 30*sec)
	can := CanadianTime(10*minute, 25, 10*minute)
	tests := []struct {
		tc           TimeControl
		s            State
		left, stones string
	}{
		{byo, State{MainTime: 583250 * ms, Periods: 5, PeriodLeft: 30 * sec}, "583.25", ""},
		{byo, State{Overtime: true, Periods: 2, PeriodLeft: 12*sec + 345678*time.Microsecond}, "12.345", "2"},
		{can, State{Overtime: true, PeriodLeft: 100 * sec, Stones: 7}, "100", "7"},
		{FischerTime(minute, sec, 0), State{MainTime: 42 * sec}, "42", ""},
	}
	for _, tt := range tests {
		left, stones, ok := SGFTimeLeft(tt.tc, tt.s)
		if !ok || left != tt.left || stones != tt.stones {
			t.Errorf("SGFTimeLeft(%v, %+v) = %q %q %v; want %q %q", tt.tc, tt.s, left, stones, ok, tt.left, tt.stones)
		}
		back, err := tt.tc.StateFromSGF(left, stones)
		if err != nil {
			t.Fatal(err)
		}
		want := tt.s
		want.MainTime = want.MainTime / ms * ms
		if want.Overtime {
			want.PeriodLeft = want.PeriodLeft / ms * ms
		}
		if back != want {
			t.Errorf("StateFromSGF(%q, %q) = %+v, want %+v", left, stones, back, want)
		}
	}
	if _, _, ok := SGFTimeLeft(NoTimeLimit(), State{}); ok {
		t.Error("SGFTimeLeft for no time limit")
	}
	for _, bad := range [][2]string{{"x", ""}, {"1", "y"}, {"", ""}, {"1", "-2"}} {
		if _, err := byo.StateFromSGF(bad[0], bad[1]); err == nil {
			t.Errorf("StateFromSGF(%q, %q) succeeded", bad[0], bad[1])
		}
	}
}
