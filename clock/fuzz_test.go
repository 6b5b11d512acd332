package clock

import (
	"encoding/json"
	"strings"
	"testing"
)

// The fuzz targets check that no parser panics, that whatever a parser
// accepts is a valid time control, and that formatting what was parsed and
// parsing it again gives the same (for the exact forms).

func addSeeds(f *testing.F, seeds ...string) {
	for _, s := range seeds {
		f.Add(s)
	}
}

func FuzzParseTimeSettings(f *testing.F) {
	addSeeds(f, "600 30 5", "0 1 0", "600 0 0", "90.5 2.25 1", "-1 2 3", "1e9 1 1", "")
	f.Fuzz(func(t *testing.T, in string) {
		tc, err := ParseTimeSettings(strings.Fields(in))
		if err != nil {
			return
		}
		if err := tc.Validate(); err != nil {
			t.Fatalf("%q parsed to invalid %#v: %v", in, tc, err)
		}
		cmd, exact := TimeSettingsCommand(tc)
		again, err := ParseTimeSettings(strings.Fields(cmd)[1:])
		if err != nil || exact && again != tc {
			t.Fatalf("%q -> %v -> %q -> %v, %v", in, tc, cmd, again, err)
		}
	})
}

func fuzzKindArgs(f *testing.F, parse func([]string) (TimeControl, error), format func(TimeControl) (string, bool)) {
	addSeeds(f, "none", "absolute 600", "byoyomi 600 30 5", "canadian 600 300 25", "fischer 300 10",
		"fischer-capped 300 10 600 -1", "byoyomi 0 0 0", "canadian 1 2")
	f.Fuzz(func(t *testing.T, in string) {
		tc, err := parse(strings.Fields(in))
		if err != nil {
			return
		}
		if err := tc.Validate(); err != nil {
			t.Fatalf("%q parsed to invalid %#v: %v", in, tc, err)
		}
		cmd, exact := format(tc)
		again, err := parse(strings.Fields(cmd)[1:])
		if err != nil || exact && again != tc {
			t.Fatalf("%q -> %v -> %q -> %v, %v", in, tc, cmd, again, err)
		}
	})
}

func FuzzParseKGSTimeSettings(f *testing.F) {
	fuzzKindArgs(f, ParseKGSTimeSettings, KGSTimeSettingsCommand)
}

func FuzzParseKataTimeSettings(f *testing.F) {
	fuzzKindArgs(f, ParseKataTimeSettings, KataTimeSettingsCommand)
}

func FuzzParseTimeLeft(f *testing.F) {
	addSeeds(f, "B 600 0", "white 29.5 3", "w -1 0", "b 1")
	f.Fuzz(func(t *testing.T, in string) {
		_, left, stones, err := ParseTimeLeft(strings.Fields(in))
		if err != nil {
			return
		}
		for _, tc := range sampleControls() {
			s := tc.StateFromTimeLeft(left, stones)
			tc.Remaining(s)
			tc.Play(s, left/2)
			Budget(tc, s, BudgetOptions{})
		}
	})
}

func FuzzParseSGFTime(f *testing.F) {
	for _, tc := range sampleControls() {
		tm, ot := SGFProperties(tc)
		f.Add(tm, ot)
	}
	f.Add("900", "10 moves / 5 min")
	f.Add("0", "30 simple")
	f.Add("x", "5x")
	f.Fuzz(func(t *testing.T, tm, ot string) {
		tc, err := ParseSGFTime(tm, ot)
		if err != nil {
			return
		}
		if err := tc.Validate(); err != nil {
			t.Fatalf("TM[%s] OT[%s] parsed to invalid %#v: %v", tm, ot, tc, err)
		}
		tm2, ot2 := SGFProperties(tc)
		again, err := ParseSGFTime(tm2, ot2)
		if err != nil || again != tc {
			t.Fatalf("TM[%s] OT[%s] -> %v -> TM[%s] OT[%s] -> %v, %v", tm, ot, tc, tm2, ot2, again, err)
		}
		_ = tc.String()
	})
}

func FuzzStateFromSGF(f *testing.F) {
	f.Add("583.25", "")
	f.Add("12.345", "2")
	f.Add("", "x")
	f.Fuzz(func(t *testing.T, left, stones string) {
		for _, tc := range sampleControls() {
			s, err := tc.StateFromSGF(left, stones)
			if err != nil {
				return
			}
			tc.Remaining(s)
			Budget(tc, s, BudgetOptions{})
		}
	})
}

func FuzzUnmarshalJSON(f *testing.F) {
	g, _ := NewGameClock(ByoYomiTime(minute, 3, 10*sec))
	g.Start(Black, t0)
	b, _ := json.Marshal(g)
	f.Add(string(b))
	for _, tc := range sampleControls() {
		b, _ := json.Marshal(tc)
		f.Add(`{"control":` + string(b) + `}`)
	}
	f.Fuzz(func(t *testing.T, in string) {
		var g GameClock
		if err := json.Unmarshal([]byte(in), &g); err != nil {
			return
		}
		if err := g.Control().Validate(); err != nil {
			t.Fatalf("%s decoded to invalid control %#v: %v", in, g.Control(), err)
		}
		// Whatever was stored, Remaining is the flag boundary.
		for _, c := range []Color{Black, White} {
			st := g.State(c)
			rem, ok := g.Control().Remaining(st)
			if !ok || st.TimedOut {
				continue
			}
			if rem > 0 && g.Control().Spend(st, rem-1).TimedOut {
				t.Fatalf("%+v: flag before Remaining %v", st, rem)
			}
			if !g.Control().Spend(st, rem).TimedOut {
				t.Fatalf("%+v: no flag at Remaining %v", st, rem)
			}
		}
		// Whatever was stored, the clock must keep working.
		g.Recover(t0)
		g.Deadline()
		g.StateAt(Black, t0.Add(minute))
		g.Check(t0.Add(minute))
		g.Switch(t0.Add(2 * minute))
		out, err := json.Marshal(&g)
		if err != nil {
			t.Fatal(err)
		}
		var back GameClock
		if err := json.Unmarshal(out, &back); err != nil {
			t.Fatalf("re-decoding %s: %v", out, err)
		}
	})
}
