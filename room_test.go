package tengen_test

import (
	"testing"
	"time"

	"tengen"
)

// vacationStep begins a vacation of days days at at after the start, or
// ends it when end is set; code is the error code expected.
type vacationStep struct {
	at   time.Duration
	days int
	end  bool
	code string
}

func TestVacationAccount(t *testing.T) {
	day := 24 * time.Hour
	mar := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	dec := time.Date(2026, 12, 28, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name   string
		steps  []vacationStep
		start  time.Time
		check  time.Duration // when DaysLeft and Active are read, after start
		left   int
		active bool
	}{
		{name: "a whole vacation", start: mar, steps: []vacationStep{{0, 10, false, ""}},
			check: 11 * day, left: 20},
		{name: "running", start: mar, steps: []vacationStep{{0, 10, false, ""}},
			check: 9 * day, left: 20, active: true},
		{name: "ended early: days not begun come back", start: mar, steps: []vacationStep{{0, 10, false, ""}, {2*day + time.Hour, 0, true, ""}},
			check: 3 * day, left: 27},
		{name: "too many days", start: mar, steps: []vacationStep{{0, tengen.VacationDaysPerYear + 1, false, tengen.EINVALID}},
			check: 0, left: tengen.VacationDaysPerYear},
		{name: "zero days", start: mar, steps: []vacationStep{{0, 0, false, tengen.EINVALID}},
			check: 0, left: tengen.VacationDaysPerYear},
		{name: "twice at once", start: mar, steps: []vacationStep{{0, 5, false, ""}, {day, 3, false, tengen.ECONFLICT}},
			check: day, left: 25, active: true},
		{name: "the rest of the year", start: mar, steps: []vacationStep{{0, 20, false, ""}, {30 * day, 11, false, tengen.EINVALID}, {30 * day, 10, false, ""}},
			check: 41 * day, left: 0},
		{name: "a new year renews the allowance", start: dec, steps: []vacationStep{{0, 30, false, ""}},
			check: 31 * day, left: tengen.VacationDaysPerYear},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var v tengen.Vacation
			for i, st := range tt.steps {
				var err error
				if st.end {
					err = v.End(tt.start.Add(st.at))
				} else {
					err = v.Begin(tt.start.Add(st.at), st.days)
				}
				if got := tengen.ErrorCode(err); got != st.code {
					t.Fatalf("step %d: error %v, want code %q", i, err, st.code)
				}
			}
			at := tt.start.Add(tt.check)
			if got := v.DaysLeft(at); got != tt.left {
				t.Errorf("DaysLeft = %d, want %d", got, tt.left)
			}
			if got := v.Active(at); got != tt.active {
				t.Errorf("Active = %v, want %v", got, tt.active)
			}
		})
	}
	var v tengen.Vacation
	if err := v.End(mar); tengen.ErrorCode(err) != tengen.ECONFLICT {
		t.Errorf("ending no vacation: %v, want a conflict", err)
	}
}

func TestUserSettingsValidate(t *testing.T) {
	for _, n := range []tengen.Notation{tengen.NotationGTP, tengen.NotationKorschelt, tengen.NotationJapanese} {
		if err := (tengen.UserSettings{Notation: n}).Validate(); err != nil {
			t.Errorf("%s: %v", n, err)
		}
	}
	for _, n := range []tengen.Notation{"", "GTP", "sgf"} {
		if err := (tengen.UserSettings{Notation: n}).Validate(); tengen.ErrorCode(err) != tengen.EINVALID {
			t.Errorf("%q: %v, want invalid", n, err)
		}
	}
	if err := tengen.DefaultUserSettings.Validate(); err != nil {
		t.Errorf("the defaults: %v", err)
	}
}
