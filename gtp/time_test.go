package gtp

import (
	"context"
	"strings"
	"testing"
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
