package gtpengine

import (
	"context"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"tengen/clock"
	"tengen/goban"
	"tengen/gtp"
)

// TestRequest checks the conversion of a GTP engine's time information: the
// engine gets the clock of the colour to move that the GTP engine keeps,
// whether time_left reported it or not, and none for a game without a time
// limit.
func TestRequest(t *testing.T) {
	abs := clock.AbsoluteTime(time.Minute)
	left := abs.StateFromTimeLeft(20*time.Second, 0)
	fresh := abs.NewState()
	g := goban.MustNewGame(9, 9, goban.MustRuleset("chinese"))
	for _, tt := range []struct {
		name      string
		ts        gtp.TimeState
		wantState *clock.State
	}{
		{"no time limit", gtp.TimeState{}, nil},
		{"no time limit, time_left", gtp.TimeState{LeftReported: true}, nil},
		{"settings only", gtp.TimeState{Control: abs, Left: abs.NewState()}, &fresh},
		{"own count", gtp.TimeState{Control: abs, Left: left}, &left},
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

// clockPlayer stands in for the engine in a GTP engine: it takes the engine
// request that Request makes, allots the time that the engine's time
// management (clock.Budget) allots on the request's clock, thinks that long
// (a sleep, so the test runs in a synctest bubble) and plays a random move.
type clockPlayer struct {
	t       *testing.T
	rnd     *gtp.RandomPlayer
	budgets []time.Duration
}

func (p *clockPlayer) Name() string { return "clock" }

func (p *clockPlayer) GenMove(ctx context.Context, req gtp.MoveRequest) (goban.Move, error) {
	r := Request(req.Game, req.Color, req.Time)
	if r.State == nil {
		p.t.Fatalf("move %d: the engine gets no clock under %v", len(p.budgets)+1, r.Time)
	}
	a := clock.Budget(r.Time, *r.State, clock.BudgetOptions{EmptyPoints: len(r.Game.Board().Empties())})
	p.budgets = append(p.budgets, a.Target)
	// The search uses its target and a little more for the round trip.
	time.Sleep(a.Target + 100*time.Millisecond)
	return p.rnd.GenMove(ctx, req)
}

// TestClockWithoutTimeLeft is the GTP transcript of a controller that sends
// time_settings and then only genmove, for both colours: every move is
// allotted about the byo-yomi period, to the end of the game. Before the
// GTP engine kept a clock per colour, the engine charged everything it had
// thought, over both colours, as one turn, and allotted 0.46 s, 0.24 s,
// 0.07 s and then nothing under time_settings 0 1 1.
func TestClockWithoutTimeLeft(t *testing.T) {
	for _, tt := range []struct {
		settings  string
		low, high time.Duration
	}{
		{"time_settings 0 1 1", 700 * time.Millisecond, time.Second},
		{"time_settings 0 5 1", 4700 * time.Millisecond, 5 * time.Second},
	} {
		t.Run(tt.settings, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				p := &clockPlayer{t: t, rnd: gtp.NewRandomPlayer(5)}
				ge, err := gtp.NewEngine(gtp.Options{Player: p})
				if err != nil {
					t.Fatal(err)
				}
				const moves = 60
				script := "boardsize 9\nclear_board\nkomi 7\n" + tt.settings + "\n"
				for i := range moves {
					script += "genmove " + [2]string{"b", "w"}[i%2] + "\n"
				}
				var out strings.Builder
				if err := ge.Serve(context.Background(), strings.NewReader(script), &out); err != nil {
					t.Fatal(err)
				}
				if strings.Contains(out.String(), "?") {
					t.Fatalf("a command failed:\n%s", out.String())
				}
				if len(p.budgets) != moves {
					t.Fatalf("%d moves, want %d", len(p.budgets), moves)
				}
				for i, b := range p.budgets {
					if b < tt.low || b > tt.high {
						t.Errorf("move %d allotted %v, want %v to %v", i+1, b, tt.low, tt.high)
					}
				}
			})
		})
	}
}
