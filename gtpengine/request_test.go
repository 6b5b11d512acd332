package gtpengine

import (
	"testing"
	"time"

	"tengen/clock"
	"tengen/goban"
	"tengen/gtp"
)

// TestRequest checks the conversion of a GTP engine's time information: the
// engine gets the clock of the colour to move only when time_left reported
// it, and never for a game without a time limit.
func TestRequest(t *testing.T) {
	abs := clock.AbsoluteTime(time.Minute)
	left := abs.StateFromTimeLeft(20*time.Second, 0)
	g := goban.MustNewGame(9, 9, goban.MustRuleset("chinese"))
	for _, tt := range []struct {
		name      string
		ts        gtp.TimeState
		wantState *clock.State
	}{
		{"no time limit", gtp.TimeState{}, nil},
		{"no time limit, time_left", gtp.TimeState{LeftReported: true}, nil},
		{"settings only", gtp.TimeState{Control: abs, Left: abs.NewState()}, nil},
		{"time_left", gtp.TimeState{Control: abs, Left: left, LeftReported: true}, &left},
	} {
		t.Run(tt.name, func(t *testing.T) {
			req := Request(g, goban.White, tt.ts)
			if req.Game != g || req.Color != goban.White || req.Time != tt.ts.Control || req.OpponentState != nil {
				t.Errorf("request %+v for %+v", req, tt.ts)
			}
			switch {
			case tt.wantState == nil && req.State != nil:
				t.Errorf("state %+v, want none", *req.State)
			case tt.wantState != nil && (req.State == nil || *req.State != *tt.wantState):
				t.Errorf("state %v, want %+v", req.State, *tt.wantState)
			}
			if tt.wantState != nil && req.State == &tt.ts.Left {
				t.Error("the state is the caller's, not a copy")
			}
		})
	}
}
