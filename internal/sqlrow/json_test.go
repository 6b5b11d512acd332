package sqlrow_test

import (
	"encoding/json"
	"testing"
	"time"

	"tengen"
	"tengen/clock"
	"tengen/goban"
	"tengen/internal/sqlrow"
)

// TestJSONText checks that the stored form is what encoding/json writes,
// for a value that writes its JSON itself (a running clock) and for one
// that does not.
func TestJSONText(t *testing.T) {
	gc, err := clock.NewGameClock(clock.TimeControl{Kind: clock.ByoYomi, MainTime: time.Hour, Periods: 5, PeriodTime: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	gc.Start(clock.Black, time.Date(2026, 11, 24, 12, 0, 0, 5, time.UTC))
	state := gc.State(clock.White)
	for name, v := range map[string]any{
		"game clock":  gc,
		"clock state": &state,
		"points":      []goban.Point{{X: 3, Y: 15}},
		"plain":       map[string]any{"a": []int{1, 2}, "b": "<&>"},
	} {
		want, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := sqlrow.JSONText(v); err != nil || got != string(want) {
			t.Errorf("%s: JSONText = %s, %v; want %s", name, got, err, want)
		}
	}
}

// TestJSONTextKeepsNothing: the text of a clock, written into a buffer
// that JSONText keeps, is a copy that the next clock's does not change.
func TestJSONTextKeepsNothing(t *testing.T) {
	var texts, want []string
	for _, tc := range []clock.TimeControl{
		{Kind: clock.ByoYomi, MainTime: time.Hour, Periods: 5, PeriodTime: 30 * time.Second},
		{Kind: clock.Fischer, MainTime: time.Minute, Increment: time.Second, MaxTime: time.Hour},
		{Kind: clock.Absolute, MainTime: 90 * time.Minute},
	} {
		gc, err := clock.NewGameClock(tc)
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(gc)
		if err != nil {
			t.Fatal(err)
		}
		s, err := sqlrow.JSONText(gc)
		if err != nil {
			t.Fatal(err)
		}
		texts, want = append(texts, s), append(want, string(b))
	}
	for i := range texts {
		if texts[i] != want[i] {
			t.Errorf("clock %d: text %s after the others, want %s", i, texts[i], want[i])
		}
	}
}

// TestPlayRecordLists checks the stored lists: [] when empty or missing,
// else what encoding/json writes.
func TestPlayRecordLists(t *testing.T) {
	tests := []struct {
		name      string
		rec       tengen.PlayRecord
		dead, res string
	}{
		{"nil lists", tengen.PlayRecord{}, "[]", "[]"},
		{"empty lists", tengen.PlayRecord{Dead: []goban.Point{}, Resumptions: []tengen.Resumption{}}, "[]", "[]"},
		{"dead stones", tengen.PlayRecord{Dead: []goban.Point{{X: 0, Y: 18}, {X: 4, Y: 4}}}, "[[0,18],[4,4]]", "[]"},
		{"resumptions", tengen.PlayRecord{Resumptions: []tengen.Resumption{{AfterSeq: 40, Color: goban.White}}}, "[]", `[{"afterSeq":40,"color":"white"}]`},
	}
	for _, tt := range tests {
		dead, resumptions, err := sqlrow.PlayRecordLists(&tt.rec)
		if err != nil || dead != tt.dead || resumptions != tt.res {
			t.Errorf("%s: PlayRecordLists = %q, %q, %v; want %q, %q", tt.name, dead, resumptions, err, tt.dead, tt.res)
		}
	}
}
