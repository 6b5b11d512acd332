package gtp

import (
	"context"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"tengen/clock"
	"tengen/goban"
)

// recordingPlayer remembers the requests it gets and passes.
type recordingPlayer struct{ reqs []MoveRequest }

func (p *recordingPlayer) Name() string { return "recorder" }

func (p *recordingPlayer) GenMove(_ context.Context, req MoveRequest) (goban.Move, error) {
	p.reqs = append(p.reqs, req)
	return goban.PassMove(req.Color), nil
}

// TestPlayerSeesTimeAndCleanup checks what the engine hands its player.
func TestPlayerSeesTimeAndCleanup(t *testing.T) {
	rec := &recordingPlayer{}
	e, err := NewEngine(Options{Player: rec})
	if err != nil {
		t.Fatal(err)
	}
	in := `boardsize 9
genmove b
kgs-time_settings byoyomi 600 30 5
time_left white 42 0
time_left black 25 3
play b E5
genmove w
kgs-genmove_cleanup b
name
`
	var out strings.Builder
	if err := e.Serve(context.Background(), strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "= Tengen (recorder)") {
		t.Errorf("name does not carry the player's: %q", out.String())
	}
	if len(rec.reqs) != 3 {
		t.Fatalf("player asked %d times, want 3", len(rec.reqs))
	}
	first, second, third := rec.reqs[0], rec.reqs[1], rec.reqs[2]
	if first.Time.Control.Kind != clock.None || first.Time.LeftReported || first.Cleanup {
		t.Errorf("first request: %+v", first)
	}
	byo := clock.ByoYomiTime(10*time.Minute, 5, 30*time.Second)
	if second.Color != goban.White || second.Time.Control != byo || !second.Time.LeftReported ||
		second.Time.Left != byo.StateFromTimeLeft(42*time.Second, 0) || second.Time.Left.MainTime != 42*time.Second {
		t.Errorf("second request: %+v", second)
	}
	if !third.Cleanup || third.Color != goban.Black || !third.Time.LeftReported ||
		!third.Time.Left.Overtime || third.Time.Left.Periods != 3 || third.Time.Left.PeriodLeft != 25*time.Second {
		t.Errorf("third request: %+v", third)
	}
	// The player got a copy: E5 is there, and the player's passes were
	// played on the engine's game, not on the copy.
	if second.Game.Board().At(goban.Point{X: 4, Y: 4}) != goban.Black {
		t.Errorf("the player's copy lacks E5")
	}
	if n := e.Game().MoveNumber(); n != 4 {
		t.Errorf("engine game has %d moves, want 4 (pass, E5, pass, pass)", n)
	}
}

// TestTimeStateBeforeTimeLeft checks that a player gets a fresh clock when
// the controller sent settings but no time_left, and that new settings
// forget old reports.
func TestTimeStateBeforeTimeLeft(t *testing.T) {
	rec := &recordingPlayer{}
	e, err := NewEngine(Options{Player: rec})
	if err != nil {
		t.Fatal(err)
	}
	in := "time_left b 10 0\ntime_settings 300 30 5\ngenmove b\nkata-time_settings fischer 600 10\ntime_left w 500 0\ngenmove w\n"
	var out strings.Builder
	if err := e.Serve(context.Background(), strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "?") {
		t.Fatalf("a command failed:\n%s", out.String())
	}
	can := clock.CanadianTime(300*time.Second, 5, 30*time.Second)
	if got := rec.reqs[0].Time; got.Control != can || got.LeftReported || got.Left != can.NewState() {
		t.Errorf("after time_settings: %+v", got)
	}
	fis := clock.FischerTime(600*time.Second, 10*time.Second, 0)
	if got := rec.reqs[1].Time; got.Control != fis || !got.LeftReported || got.Left.MainTime != 500*time.Second {
		t.Errorf("after kata-time_settings and time_left: %+v", got)
	}
}

// resigner resigns at once.
type resigner struct{}

func (resigner) Name() string { return "resigner" }

func (resigner) GenMove(_ context.Context, req MoveRequest) (goban.Move, error) {
	return goban.ResignMove(req.Color), nil
}

// TestGenmoveResign checks that a resignation is answered, recorded as the
// game's end, refused further play, and can be undone.
func TestGenmoveResign(t *testing.T) {
	e, err := NewEngine(Options{Player: resigner{}})
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	in := "boardsize 9\ngenmove w\nplay b E5\nfinal_score\nundo\nplay b E5\n"
	if err := e.Serve(context.Background(), strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	want := "=\n\n= resign\n\n? illegal move: game over\n\n= B+R\n\n=\n\n=\n\n"
	if out.String() != want {
		t.Errorf("got %q, want %q", out.String(), want)
	}
}

// thinker is a player that thinks as long as think says for the
// allocation that clock.Budget makes from the clock the engine reports, and
// then plays a random move. It records every request's clock and budget.
// Its thinking is a sleep, so tests run it in a synctest bubble, where time
// passes exactly as slept.
type thinker struct {
	rnd     *RandomPlayer
	think   func(clock.Allocation) time.Duration
	clocks  []TimeState
	budgets []time.Duration
}

func (p *thinker) Name() string { return "thinker" }

func (p *thinker) GenMove(ctx context.Context, req MoveRequest) (goban.Move, error) {
	a := clock.Budget(req.Time.Control, req.Time.Left, clock.BudgetOptions{EmptyPoints: len(req.Game.Board().Empties())})
	p.clocks = append(p.clocks, req.Time)
	p.budgets = append(p.budgets, a.Target)
	time.Sleep(p.think(a))
	return p.rnd.GenMove(ctx, req)
}

// TestClockWithoutTimeLeft plays games in which the controller sends time
// settings but never time_left, as many do: the engine keeps a clock per
// colour and charges each genmove to the mover's, so that in byo-yomi
// every move gets about the period, for the whole game. (Charged over both
// colours as one turn, the budget fell from most of the period to nothing
// within four moves.)
func TestClockWithoutTimeLeft(t *testing.T) {
	spend := func(extra time.Duration) func(clock.Allocation) time.Duration {
		return func(a clock.Allocation) time.Duration { return a.Target + extra }
	}
	const moves = 80
	for _, tt := range []struct {
		name     string
		settings string
		think    func(clock.Allocation) time.Duration
		// Every budget must lie in [low, high].
		low, high time.Duration
	}{
		{"one second byo-yomi", "time_settings 0 1 1", spend(0), 700 * time.Millisecond, time.Second},
		{"one second byo-yomi, some overhead", "time_settings 0 1 1", spend(200 * time.Millisecond), 700 * time.Millisecond, time.Second},
		{"five seconds byo-yomi", "time_settings 0 5 1", spend(100 * time.Millisecond), 4700 * time.Millisecond, 5 * time.Second},
		{"kgs byo-yomi, three periods", "kgs-time_settings byoyomi 0 2 3", spend(0), 1700 * time.Millisecond, 2 * time.Second},
		// The engine's own count says the flag fell on every move, but
		// the controller plays on: the clock stays where it was.
		{"moves over the period", "time_settings 0 1 1", spend(1500 * time.Millisecond), 700 * time.Millisecond, time.Second},
		{"canadian", "time_settings 0 10 5", spend(0), 1700 * time.Millisecond, 10 * time.Second},
	} {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				p := &thinker{rnd: NewRandomPlayer(7), think: tt.think}
				e, err := NewEngine(Options{Player: p})
				if err != nil {
					t.Fatal(err)
				}
				in := "boardsize 9\nclear_board\n" + tt.settings + "\n"
				for i := range moves {
					in += "genmove " + [2]string{"b", "w"}[i%2] + "\n"
				}
				var out strings.Builder
				if err := e.Serve(context.Background(), strings.NewReader(in), &out); err != nil {
					t.Fatal(err)
				}
				if strings.Contains(out.String(), "?") {
					t.Fatalf("a command failed:\n%s", out.String())
				}
				if len(p.budgets) != moves {
					t.Fatalf("%d genmoves reached the player, want %d", len(p.budgets), moves)
				}
				for i, b := range p.budgets {
					if b < tt.low || b > tt.high || p.clocks[i].LeftReported {
						t.Errorf("move %d: budget %v, want %v to %v; clock %+v", i+1, b, tt.low, tt.high, p.clocks[i])
					}
				}
			})
		})
	}
}

// TestClockPerColour checks that each colour's thinking is charged to its
// own clock, that a time_left replaces the engine's count and the count
// goes on from it, and that a new game starts both clocks afresh.
func TestClockPerColour(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := &thinker{rnd: NewRandomPlayer(3), think: func(clock.Allocation) time.Duration { return 2 * time.Second }}
		e, err := NewEngine(Options{Player: p})
		if err != nil {
			t.Fatal(err)
		}
		in := "boardsize 9\ntime_settings 10 5 1\ngenmove b\ngenmove w\ngenmove b\ngenmove w\n" +
			"genmove b\ntime_left w 3 0\ngenmove w\ngenmove w\nreg_genmove b\ngenmove b\nclear_board\ngenmove b\n"
		var out strings.Builder
		if err := e.Serve(context.Background(), strings.NewReader(in), &out); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(out.String(), "?") {
			t.Fatalf("a command failed:\n%s", out.String())
		}
		// GTP's time_settings is Canadian byo-yomi; one stone per period
		// is Japanese byo-yomi with one period.
		tc := clock.CanadianTime(10*time.Second, 1, 5*time.Second)
		main := func(d time.Duration) clock.State {
			return clock.State{MainTime: d, PeriodLeft: 5 * time.Second, Stones: 1}
		}
		want := []struct {
			left     clock.State
			reported bool
		}{
			{main(10 * time.Second), false}, // b
			{main(10 * time.Second), false}, // w
			{main(8 * time.Second), false},  // b: its own 2 s only
			{main(8 * time.Second), false},  // w
			{main(6 * time.Second), false},  // b
			{main(3 * time.Second), true},   // w after time_left w 3 0
			{main(1 * time.Second), true},   // w, counted on from the report
			{main(4 * time.Second), false},  // reg_genmove b
			{main(4 * time.Second), false},  // b: reg_genmove made no move
			{main(10 * time.Second), false}, // b in a new game
		}
		if len(p.clocks) != len(want) {
			t.Fatalf("%d requests, want %d", len(p.clocks), len(want))
		}
		for i, w := range want {
			got := p.clocks[i]
			if got.Control != tc || got.Left != w.left || got.LeftReported != w.reported {
				t.Errorf("request %d: clock %+v, reported %v; want %+v, reported %v", i+1, got.Left, got.LeftReported, w.left, w.reported)
			}
		}
	})
}

// TestClockGenmoveAnalyze checks that the genmove forms of the analysis
// commands charge the mover's clock like genmove.
func TestClockGenmoveAnalyze(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e, err := NewEngine(Options{})
		if err != nil {
			t.Fatal(err)
		}
		var clocks []clock.State
		e.HandleGenmoveAnalyze("lz-genmove_analyze", func(_ context.Context, req AnalyzeRequest, _ *Stream) (goban.Move, error) {
			clocks = append(clocks, req.Time.Left)
			time.Sleep(3 * time.Second)
			return goban.PassMove(req.Color), nil
		})
		in := "boardsize 9\ntime_settings 10 5 1\nlz-genmove_analyze b\nlz-genmove_analyze w\nlz-genmove_analyze b\n"
		var out strings.Builder
		if err := e.Serve(context.Background(), strings.NewReader(in), &out); err != nil {
			t.Fatal(err)
		}
		want := []time.Duration{10 * time.Second, 10 * time.Second, 7 * time.Second}
		if len(clocks) != len(want) {
			t.Fatalf("%d requests:\n%s", len(clocks), out.String())
		}
		for i, w := range want {
			if clocks[i].MainTime != w {
				t.Errorf("request %d: main time %v, want %v", i+1, clocks[i].MainTime, w)
			}
		}
	})
}
