package clock

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func TestValidate(t *testing.T) {
	tests := []struct {
		tc TimeControl
		ok bool
	}{
		{NoTimeLimit(), true},
		{TimeControl{Kind: None, MainTime: sec}, false},
		{AbsoluteTime(sec), true},
		{AbsoluteTime(0), false},
		{AbsoluteTime(-sec), false},
		{AbsoluteTime(MaxDuration + 1), false},
		{TimeControl{Kind: Absolute, MainTime: sec, Periods: 1}, false},
		{ByoYomiTime(0, 1, sec), true},
		{ByoYomiTime(sec, 0, sec), false},
		{ByoYomiTime(sec, 1, 0), false},
		{ByoYomiTime(sec, MaxPeriods+1, sec), false},
		{TimeControl{Kind: ByoYomi, Periods: 1, PeriodTime: sec, Stones: 1}, false},
		{CanadianTime(0, 1, sec), true},
		{CanadianTime(sec, 0, sec), false},
		{CanadianTime(sec, 1, 0), false},
		{CanadianTime(sec, MaxStones+1, sec), false},
		{FischerTime(sec, 0, 0), true},
		{FischerTime(0, sec, 0), false},
		{FischerTime(minute, sec, 30*sec), false},
		{FischerTime(minute, 2*minute, 90*sec), false},
		{FischerTime(minute, sec, minute), true},
		{TimeControl{Kind: Fischer, MainTime: sec, Periods: 2}, false},
		{CorrespondenceDays(3, 10), true},
		{CorrespondenceDays(3, 0), true},
		{CorrespondenceDays(3, 2), false},
		{CorrespondenceDays(0, 10), false},
		{CorrespondenceDays(367, 0), false},
		{TimeControl{Kind: Correspondence, MainTime: day}, false},
		{TimeControl{Kind: 99}, false},
	}
	for _, tt := range tests {
		err := tt.tc.Validate()
		if (err == nil) != tt.ok {
			t.Errorf("%#v: Validate = %v, want ok %v", tt.tc, err, tt.ok)
		}
		if err != nil && !errors.Is(err, ErrInvalid) {
			t.Errorf("%#v: error %v does not wrap ErrInvalid", tt.tc, err)
		}
	}
	for _, tc := range sampleControls() {
		if err := tc.Validate(); err != nil {
			t.Errorf("sample %v: %v", tc, err)
		}
	}
}

func TestString(t *testing.T) {
	tests := []struct {
		tc   TimeControl
		want string
	}{
		{NoTimeLimit(), "no time limit"},
		{AbsoluteTime(10 * minute), "10:00 absolute"},
		{AbsoluteTime(90*minute + 5*sec), "1:30:05 absolute"},
		{ByoYomiTime(10*minute, 5, 30*sec), "10:00 + 5×30s"},
		{ByoYomiTime(0, 3, 10*sec), "3×10s"},
		{ByoYomiTime(time.Hour, 3, minute), "1:00:00 + 3×1:00"},
		{CanadianTime(10*minute, 25, 10*minute), "10:00 + 25 stones/10:00"},
		{CanadianTime(5*minute, 10, 2500*ms), "5:00 + 10 stones/2.5s"},
		{FischerTime(5*minute, 10*sec, 10*minute), "Fischer 5:00 + 10s (max 10:00)"},
		{FischerTime(90*sec, 2*sec, 0), "Fischer 1:30 + 2s"},
		{FischerTime(1500*ms, 0, 0), "Fischer 0:01.5 + 0s"},
		{CorrespondenceDays(3, 10), "3 days/move (max 10)"},
		{CorrespondenceDays(1, 0), "1 day/move"},
		{CorrespondenceTime(12*time.Hour, 3*day), "12 hours/move (max 3 days)"},
		{TimeControl{Kind: Correspondence, MainTime: 5 * day, Increment: 2 * day, MaxTime: 7 * day},
			"2 days/move (max 7, start 5)"},
		{TimeControl{Kind: 42}, "Kind(42)"},
	}
	for _, tt := range tests {
		if got := tt.tc.String(); got != tt.want {
			t.Errorf("%#v.String() = %q, want %q", tt.tc, got, tt.want)
		}
	}
}

func TestKind(t *testing.T) {
	for k := None; k <= Correspondence; k++ {
		got, err := ParseKind(strings.ToUpper(k.String()))
		if err != nil || got != k {
			t.Errorf("ParseKind(%q) = %v, %v", k, got, err)
		}
	}
	if _, err := ParseKind("blitz"); err == nil {
		t.Error("ParseKind(blitz) succeeded")
	}
}

// TestFormatsGolden writes every form of every sample control to a golden
// file, so that a change to any stored or sent form shows in review. Run
// with -update to accept a change.
func TestFormatsGolden(t *testing.T) {
	var b strings.Builder
	for _, tc := range sampleControls() {
		fmt.Fprintf(&b, "%s\n", tc)
		cmd, exact := TimeSettingsCommand(tc)
		fmt.Fprintf(&b, "\t%s (exact %v)\n", cmd, exact)
		cmd, exact = KGSTimeSettingsCommand(tc)
		fmt.Fprintf(&b, "\t%s (exact %v)\n", cmd, exact)
		cmd, exact = KataTimeSettingsCommand(tc)
		fmt.Fprintf(&b, "\t%s (exact %v)\n", cmd, exact)
		tm, ot := SGFProperties(tc)
		fmt.Fprintf(&b, "\tTM[%s] OT[%s]\n", tm, ot)
		j, err := json.Marshal(tc)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "\t%s\n", j)
		// Two moves that end in overtime if there is any.
		second := tc.MainTime/3 + tc.PeriodTime/3
		if tc.PeriodTime == 0 {
			second = tc.MainTime / 6
		}
		s := tc.Play(tc.Play(tc.NewState(), tc.MainTime*2/3), second)
		tl, _ := TimeLeftCommand(Black, tc, s)
		left, stones, _ := SGFTimeLeft(tc, s)
		j, err = json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "\tafter two moves: %s; BL[%s] OB[%s]; %s\n", tl, left, stones, j)
	}
	golden(t, "formats.golden", b.String())
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the output; run go test -update and review the diff:\n%s", path, got)
	}
}
