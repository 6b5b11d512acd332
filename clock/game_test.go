package clock

import (
	"encoding/json"
	"errors"
	"testing"
	"time"
)

var t0 = time.Date(2026, 11, 21, 5, 30, 0, 0, time.UTC)

func at(d time.Duration) time.Time { return t0.Add(d) }

func newGame(t *testing.T, tc TimeControl) *GameClock {
	t.Helper()
	g, err := NewGameClock(tc)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestGameClockSwitch(t *testing.T) {
	g := newGame(t, ByoYomiTime(1*minute, 2, 10*sec))
	if err := g.Start(Black, at(0)); err != nil {
		t.Fatal(err)
	}
	// Black thinks 50s, White 65s (5s into byo-yomi), Black 15s (5s into
	// byo-yomi): both keep their periods.
	for _, d := range []time.Duration{50 * sec, 115 * sec, 130 * sec} {
		if flagged, err := g.Switch(at(d)); err != nil || flagged {
			t.Fatalf("Switch(%v) = %v, %v", d, flagged, err)
		}
	}
	wantB := State{Overtime: true, Periods: 2, PeriodLeft: 10 * sec}
	wantW := State{Overtime: true, Periods: 2, PeriodLeft: 10 * sec}
	if g.State(Black) != wantB || g.State(White) != wantW {
		t.Errorf("states %+v %+v, want %+v %+v", g.State(Black), g.State(White), wantB, wantW)
	}
	if g.Turn() != White {
		t.Errorf("turn %v, want white", g.Turn())
	}
	// White has 2 periods of 10s.
	dl, ok := g.Deadline()
	if want := at(130*sec + 20*sec); !ok || !dl.Equal(want) {
		t.Errorf("Deadline = %v, %v; want %v", dl, ok, want)
	}
	if got := g.StateAt(White, at(142*sec)); got != (State{Overtime: true, Periods: 1, PeriodLeft: 8 * sec}) {
		t.Errorf("StateAt = %+v", got)
	}
	if g.State(White) != wantW {
		t.Error("StateAt changed the state")
	}
}

func TestGameClockTimeoutExactlyAtDeadline(t *testing.T) {
	for _, tc := range sampleControls() {
		if tc.Kind == None {
			continue
		}
		t.Run(tc.String(), func(t *testing.T) {
			// A move one nanosecond before the deadline is in time.
			g := newGame(t, tc)
			g.Start(White, at(0))
			dl, ok := g.Deadline()
			if !ok {
				t.Fatal("no deadline")
			}
			if flagged, err := g.Stop(dl.Add(-1)); err != nil || flagged {
				t.Fatalf("Stop before deadline = %v, %v", flagged, err)
			}
			// A move exactly at the deadline is not.
			g = newGame(t, tc)
			g.Start(White, at(0))
			if flagged, err := g.Stop(dl); err != nil || !flagged {
				t.Fatalf("Stop at deadline = %v, %v", flagged, err)
			}
			if c, ok := g.Flagged(); !ok || c != White {
				t.Errorf("Flagged = %v, %v", c, ok)
			}
			if err := g.Start(Black, dl); !errors.Is(err, ErrFlagged) {
				t.Errorf("Start after flag: %v", err)
			}
			// The server's timer: Check before the deadline changes nothing.
			g = newGame(t, tc)
			g.Start(White, at(0))
			if c, ok := g.Check(dl.Add(-1)); ok {
				t.Errorf("Check before deadline flagged %v", c)
			}
			if _, running := g.Running(); !running {
				t.Error("Check before deadline stopped the clock")
			}
			if c, ok := g.Check(dl); !ok || c != White {
				t.Errorf("Check at deadline = %v, %v", c, ok)
			}
			if _, running := g.Running(); running {
				t.Error("clock still running after the flag fell")
			}
		})
	}
}

func TestGameClockNoDeadlineWithoutLimit(t *testing.T) {
	g := newGame(t, NoTimeLimit())
	g.Start(Black, at(0))
	if _, ok := g.Deadline(); ok {
		t.Error("None has a deadline")
	}
	if _, ok := g.Check(at(1000 * time.Hour)); ok {
		t.Error("None flagged")
	}
	if flagged, err := g.Switch(at(1000 * time.Hour)); flagged || err != nil {
		t.Errorf("Switch = %v, %v", flagged, err)
	}
}

func TestGameClockPauseResume(t *testing.T) {
	g := newGame(t, FischerTime(1*minute, 5*sec, 0))
	g.Start(Black, at(0))
	g.Switch(at(10 * sec)) // Black: 60-10+5 = 55s
	// White thinks 20s, then both pass: scoring phase.
	if flagged, err := g.Pause(at(30 * sec)); err != nil || flagged {
		t.Fatalf("Pause = %v, %v", flagged, err)
	}
	if _, ok := g.Deadline(); ok {
		t.Error("paused clock has a deadline")
	}
	// An hour of scoring costs nothing.
	if got := g.StateAt(White, at(time.Hour)); got != (State{MainTime: 40 * sec}) {
		t.Errorf("White during pause %+v, want 40s and no increment", got)
	}
	if err := g.Resume(at(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if g.Turn() != White {
		t.Errorf("resumed turn %v", g.Turn())
	}
	dl, _ := g.Deadline()
	if want := at(time.Hour + 40*sec); !dl.Equal(want) {
		t.Errorf("deadline after resume %v, want %v", dl, want)
	}
	// Resuming play with the other player to move (Art. 9.3): Start.
	g.Pause(at(time.Hour + 10*sec))
	if err := g.Start(Black, at(2*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if flagged, _ := g.Switch(at(2*time.Hour + 5*sec)); flagged {
		t.Fatal("flagged")
	}
	if got, want := g.State(Black), (State{MainTime: 55 * sec}); got != want {
		t.Errorf("Black %+v, want %+v", got, want)
	}
	if got, want := g.State(White), (State{MainTime: 30 * sec}); got != want {
		t.Errorf("White %+v, want %+v", got, want)
	}
}

func TestGameClockMisuse(t *testing.T) {
	g := newGame(t, AbsoluteTime(time.Minute))
	if _, err := g.Stop(at(0)); !errors.Is(err, ErrNotRunning) {
		t.Errorf("Stop before Start: %v", err)
	}
	if _, err := g.Pause(at(0)); !errors.Is(err, ErrNotRunning) {
		t.Errorf("Pause before Start: %v", err)
	}
	if err := g.Resume(at(0)); !errors.Is(err, ErrNoTurn) {
		t.Errorf("Resume before Start: %v", err)
	}
	if err := g.Start(0, at(0)); !errors.Is(err, ErrColor) {
		t.Errorf("Start(0): %v", err)
	}
	g.Start(Black, at(0))
	if err := g.Start(White, at(0)); !errors.Is(err, ErrRunning) {
		t.Errorf("second Start: %v", err)
	}
	if err := g.Resume(at(0)); !errors.Is(err, ErrRunning) {
		t.Errorf("Resume while running: %v", err)
	}
	if _, err := NewGameClock(TimeControl{Kind: Absolute}); !errors.Is(err, ErrInvalid) {
		t.Errorf("NewGameClock(invalid): %v", err)
	}
}

// TestGameClockRestart stores a running clock, "restarts the server" an
// hour later, and checks that the downtime is not charged while the time
// before the last checkpoint is.
func TestGameClockRestart(t *testing.T) {
	g := newGame(t, CanadianTime(1*minute, 5, 1*minute))
	g.Start(Black, at(0))
	g.Switch(at(20 * sec)) // Black 40s main left
	// White thinks; the server checkpoints after 30s and then crashes.
	if flagged, err := g.Checkpoint(at(50 * sec)); flagged || err != nil {
		t.Fatalf("Checkpoint = %v, %v", flagged, err)
	}
	stored, err := json.Marshal(g)
	if err != nil {
		t.Fatal(err)
	}
	var h GameClock
	if err := json.Unmarshal(stored, &h); err != nil {
		t.Fatal(err)
	}
	restart := at(time.Hour)
	h.Recover(restart)
	dl, ok := h.Deadline()
	// 30s of main time and the 60s Canadian period.
	if want := restart.Add(90 * sec); !ok || !dl.Equal(want) {
		t.Errorf("deadline after restart %v, want %v", dl, want)
	}
	if flagged, _ := h.Switch(restart.Add(10 * sec)); flagged {
		t.Fatal("flagged after restart")
	}
	if got, want := h.State(White), (State{MainTime: 20 * sec, PeriodLeft: 1 * minute, Stones: 5}); got != want {
		t.Errorf("White %+v, want %+v", got, want)
	}
	if got, want := h.State(Black), (State{MainTime: 40 * sec, PeriodLeft: 1 * minute, Stones: 5}); got != want {
		t.Errorf("Black %+v, want %+v", got, want)
	}
}

func TestGameClockPauseAfterFlag(t *testing.T) {
	g := newGame(t, AbsoluteTime(time.Minute))
	g.Start(Black, at(0))
	if flagged, err := g.Pause(at(2 * time.Minute)); err != nil || !flagged {
		t.Errorf("Pause after the deadline = %v, %v", flagged, err)
	}
	if c, _ := g.Flagged(); c != Black {
		t.Errorf("flagged %v", c)
	}
}

func TestColor(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want Color
		ok   bool
	}{{"b", Black, true}, {"BLACK", Black, true}, {"w", White, true}, {"White", White, true}, {"x", 0, false}, {"", 0, false}} {
		c, err := ParseColor(tt.in)
		if c != tt.want || (err == nil) != tt.ok {
			t.Errorf("ParseColor(%q) = %v, %v", tt.in, c, err)
		}
	}
	if Black.Other() != White || White.Other() != Black || Color(0).Other() != 0 {
		t.Error("Other")
	}
}
