package gtp

import (
	"context"
	"strings"
	"testing"
	"time"

	"tengen/goban"
)

func TestParseTimeSettings(t *testing.T) {
	tests := []struct {
		args    string
		want    TimeSettings
		wantErr bool
	}{
		{args: "300 30 5", want: TimeSettings{System: Canadian, Main: 300 * time.Second, Period: 30 * time.Second, Stones: 5}},
		{args: "0 10 1", want: TimeSettings{System: Canadian, Period: 10 * time.Second, Stones: 1}}, // Lizzie's time per move
		{args: "600 0 0", want: TimeSettings{System: Absolute, Main: 600 * time.Second}},
		{args: "0 0 0", want: TimeSettings{System: NoTimeLimit}},
		{args: "60 30 0", want: TimeSettings{System: NoTimeLimit}},
		{args: "1.5 0 0", want: TimeSettings{System: Absolute, Main: 1500 * time.Millisecond}},
		{args: "300 30", wantErr: true},
		{args: "-1 30 5", wantErr: true},
		{args: "300 x 5", wantErr: true},
		{args: "300 30 -5", wantErr: true},
		{args: "300 30 2.5", wantErr: true},
		{args: "NaN 30 5", wantErr: true},
		{args: "Inf 30 5", wantErr: true},
	}
	for _, tt := range tests {
		got, err := ParseTimeSettings(strings.Fields(tt.args))
		if (err != nil) != tt.wantErr || (!tt.wantErr && got != tt.want) {
			t.Errorf("ParseTimeSettings(%s) = %+v, %v; want %+v, error %v", tt.args, got, err, tt.want, tt.wantErr)
		}
	}
}

func TestParseKGSTimeSettings(t *testing.T) {
	tests := []struct {
		args    string
		want    TimeSettings
		wantErr bool
	}{
		{args: "none", want: TimeSettings{System: NoTimeLimit}},
		{args: "absolute 1800", want: TimeSettings{System: Absolute, Main: 30 * time.Minute}},
		{args: "byoyomi 600 30 5", want: TimeSettings{System: ByoYomi, Main: 10 * time.Minute, Period: 30 * time.Second, Periods: 5}},
		{args: "canadian 600 300 25", want: TimeSettings{System: Canadian, Main: 10 * time.Minute, Period: 5 * time.Minute, Stones: 25}},
		{args: "", wantErr: true},
		{args: "none 5", wantErr: true},
		{args: "absolute", wantErr: true},
		{args: "byoyomi 600 30", wantErr: true},
		{args: "fischer 600 10", wantErr: true},
		{args: "canadian 600 300 x", wantErr: true},
	}
	for _, tt := range tests {
		got, err := ParseKGSTimeSettings(strings.Fields(tt.args))
		if (err != nil) != tt.wantErr || (!tt.wantErr && got != tt.want) {
			t.Errorf("ParseKGSTimeSettings(%s) = %+v, %v; want %+v, error %v", tt.args, got, err, tt.want, tt.wantErr)
		}
	}
}

func TestParseTimeLeft(t *testing.T) {
	got, err := ParseTimeLeft("95", "3")
	if want := (TimeLeft{Known: true, Time: 95 * time.Second, Stones: 3}); err != nil || got != want {
		t.Errorf("ParseTimeLeft = %+v, %v; want %+v", got, err, want)
	}
	for _, bad := range [][2]string{{"x", "0"}, {"10", "-1"}, {"-3", "0"}, {"10", "y"}} {
		if _, err := ParseTimeLeft(bad[0], bad[1]); err == nil {
			t.Errorf("ParseTimeLeft(%q, %q) accepted", bad[0], bad[1])
		}
	}
}

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
	if first.Time.Settings.System != NoTimeLimit || first.Time.Left.Known || first.Cleanup {
		t.Errorf("first request: %+v", first)
	}
	wantSettings := TimeSettings{System: ByoYomi, Main: 10 * time.Minute, Period: 30 * time.Second, Periods: 5}
	if second.Color != goban.White || second.Time.Settings != wantSettings || second.Time.Left != (TimeLeft{Known: true, Time: 42 * time.Second}) {
		t.Errorf("second request: %+v", second)
	}
	if !third.Cleanup || third.Color != goban.Black || third.Time.Left != (TimeLeft{Known: true, Time: 25 * time.Second, Stones: 3}) {
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
