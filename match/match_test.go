package match

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tengen/clock"
	"tengen/goban"
	"tengen/sgf"
)

// readGame parses and replays one written record.
func readGame(t *testing.T, dir, name string) (*sgf.Node, *sgf.Replayed) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	col, err := sgf.Parse(data)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if len(col.Games) != 1 {
		t.Fatalf("%s: %d games", name, len(col.Games))
	}
	root := col.Games[0]
	rep, err := sgf.Replay(root, sgf.ReplayOptions{})
	if err != nil {
		t.Fatalf("%s: replay: %v", name, err)
	}
	return root, rep
}

func value(t *testing.T, n *sgf.Node, id string) string {
	t.Helper()
	v, ok := n.Value(id)
	if !ok {
		t.Errorf("record lacks %s", id)
	}
	return v
}

// TestMatchRecordsAndColours plays four games between two Tengen engines,
// two at a time, and checks the records, the alternation of colours, the
// order of the progress lines and the summary files.
func TestMatchRecordsAndColours(t *testing.T) {
	dir := t.TempDir()
	var progress bytes.Buffer
	fixed := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	cfg := Config{
		Engines:  [2]EngineSpec{helper(t, "tengen", "Alpha", "1"), helper(t, "tengen", "Beta", "2")},
		Games:    4,
		Size:     9,
		Rules:    "japanese",
		Parallel: 2,
		OutDir:   dir,
		// Fewer playouts than the default keep the test fast under the
		// race detector; the recount below uses the same number.
		ScoringPlayouts: 200,
		Application:     "Tengen:test",
		Progress:        &progress,
		Now:             func() time.Time { return fixed },
	}
	s, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if s.Played != 4 || len(s.Results) != 4 {
		t.Fatalf("played %d, %d results", s.Played, len(s.Results))
	}
	for i, res := range s.Results {
		num := i + 1
		if res.Game != num {
			t.Errorf("result %d is game %d", i, res.Game)
		}
		wantBlack, wantWhite := "Alpha", "Beta"
		if num%2 == 0 {
			wantBlack, wantWhite = "Beta", "Alpha"
		}
		root, rep := readGame(t, dir, res.SGF)
		if pb, pw := value(t, root, "PB"), value(t, root, "PW"); !strings.HasPrefix(pb, wantBlack) || !strings.HasPrefix(pw, wantWhite) {
			t.Errorf("game %d: PB %q PW %q, want %s and %s", num, pb, pw, wantBlack, wantWhite)
		}
		if !strings.HasPrefix(res.BlackName, wantBlack) || res.Black != 1+(num+1)%2 {
			t.Errorf("game %d: black is engine %d %q", num, res.Black, res.BlackName)
		}
		if re := value(t, root, "RE"); re != res.Result {
			t.Errorf("game %d: RE %q, result %q", num, re, res.Result)
		}
		if v := value(t, root, "RU"); v != "Japanese" {
			t.Errorf("game %d: RU %q", num, v)
		}
		if v := value(t, root, "KM"); v != "6.5" {
			t.Errorf("game %d: KM %q", num, v)
		}
		if v := value(t, root, "DT"); v != "2026-11-21" {
			t.Errorf("game %d: DT %q", num, v)
		}
		if v := value(t, root, "AP"); v != "Tengen:test" {
			t.Errorf("game %d: AP %q", num, v)
		}
		if rep.Moves != res.Moves {
			t.Errorf("game %d: record has %d moves, result says %d", num, rep.Moves, res.Moves)
		}
		// Random players pass only when nothing is left, so the games end by
		// two passes and goban scores them.
		if res.End != EndScore || res.ScoredBy != ScoredByGoban {
			t.Errorf("game %d: ended by %q, scored by %q: %s", num, res.End, res.ScoredBy, res.Detail)
		}
		if gc := root.Text("GC"); !strings.Contains(gc, "Scored by Tengen's goban") {
			t.Errorf("game %d: GC does not say who scored: %q", num, gc)
		}
		// The result is goban's count of the final position with its own
		// estimate, which the replayed record must reproduce.
		sc, err := rep.Game.Score(rep.Game.Board().EstimateDead(200))
		if err != nil {
			t.Fatal(err)
		}
		if sc.Result.String() != res.Result {
			t.Errorf("game %d: recount of the record gives %v, match said %s", num, sc.Result, res.Result)
		}
		if len(res.Warnings) > 0 {
			t.Errorf("game %d: warnings %q", num, res.Warnings)
		}
		if res.Think[0].Moves == 0 || res.Think[1].Moves == 0 || res.Think[0].Moves+res.Think[1].Moves != res.Moves {
			t.Errorf("game %d: think %+v for %d moves", num, res.Think, res.Moves)
		}
	}
	lines := strings.Split(strings.TrimSpace(progress.String()), "\n")
	if len(lines) != 4 {
		t.Fatalf("progress:\n%s", progress.String())
	}
	for i, l := range lines {
		if want := "game " + string(rune('1'+i)) + "/4"; !strings.HasPrefix(l, want) {
			t.Errorf("progress line %d is %q, want it to start with %q", i+1, l, want)
		}
	}
	// Wins add up, by engine and by colour.
	e1, e2 := s.Engines[0], s.Engines[1]
	if e1.Wins != e2.Losses || e1.Draws != e2.Draws || e1.Wins+e1.Losses+e1.Draws+e1.NoResult != 4 {
		t.Errorf("engine records do not add up: %+v %+v", e1.Record, e2.Record)
	}
	if e1.AsBlack.Games != 2 || e1.AsWhite.Games != 2 || e2.AsBlack.Games != 2 {
		t.Errorf("colours: %+v %+v", e1.AsBlack, e1.AsWhite)
	}
	if s.Black.Wins != s.White.Losses || s.Black.Wins != e1.AsBlack.Wins+e2.AsBlack.Wins {
		t.Errorf("colour records do not add up: %+v %+v", s.Black, s.White)
	}
	if e1.Think.Moves == 0 || e1.MeanMoveSeconds <= 0 {
		t.Errorf("no move times: %+v", e1.Think)
	}
	var fromJSON Summary
	data, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &fromJSON); err != nil {
		t.Fatal(err)
	}
	if fromJSON.Played != 4 || fromJSON.Engines[0].Wins != e1.Wins || len(fromJSON.Results) != 4 || fromJSON.Engines[1].Name != e2.Name {
		t.Errorf("summary.json differs from the summary: %+v", fromJSON)
	}
	text, err := os.ReadFile(filepath.Join(dir, "summary.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Alpha (random) test", "Beta (random) test", "95% CI", "Average game length"} {
		if !strings.Contains(string(text), want) {
			t.Errorf("summary.txt lacks %q:\n%s", want, text)
		}
	}
}

// TestMatchSameColours keeps engine 1 on Black.
func TestMatchSameColours(t *testing.T) {
	s, err := Run(context.Background(), Config{
		Engines:    [2]EngineSpec{helper(t, "tengen", "Alpha", "3"), helper(t, "resign", "Quitter")},
		Games:      2,
		Size:       5,
		SameColors: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range s.Results {
		if r.Black != 1 || r.White != 2 {
			t.Errorf("game %d: black %d white %d", r.Game, r.Black, r.White)
		}
		if r.Result != "B+R" || r.End != EndResign || r.Winner != 1 {
			t.Errorf("game %d: %s %s winner %d", r.Game, r.Result, r.End, r.Winner)
		}
	}
}

// TestMatchReferee scores handicap games with a referee and checks that the
// referee saw the same game: a Tengen engine as referee, counting with the
// same estimate as the match, must reach the same result.
func TestMatchReferee(t *testing.T) {
	for _, tc := range []struct {
		name     string
		handicap int
		free     bool
	}{{"even", 0, false}, {"fixed3", 3, false}, {"free4", 4, true}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			komi := 0.5
			s, err := Run(context.Background(), Config{
				Engines:         [2]EngineSpec{helper(t, "tengen", "Alpha", "5"), helper(t, "tengen", "Beta", "6")},
				Referee:         helper(t, "tengen", "Judge", "1", "100"),
				Games:           2,
				Size:            9,
				Rules:           "chinese",
				Komi:            &komi,
				Handicap:        tc.handicap,
				FreeHandicap:    tc.free,
				ScoringPlayouts: 100,
				OutDir:          dir,
				EngineLogs:      true,
			})
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range s.Results {
				if r.ScoredBy != ScoredByReferee || !strings.HasPrefix(r.Referee, "Judge") {
					t.Fatalf("game %d: scored by %q %q: %s %v", r.Game, r.ScoredBy, r.Referee, r.Detail, r.Warnings)
				}
				if r.Result != r.GobanResult {
					t.Errorf("game %d: referee says %s, goban %s", r.Game, r.Result, r.GobanResult)
				}
				root, rep := readGame(t, dir, r.SGF)
				if n, pts := rep.Game.Handicap(); n != tc.handicap || len(pts) != tc.handicap {
					t.Errorf("game %d: handicap %d in the record", r.Game, n)
				}
				if v := value(t, root, "KM"); v != "0.5" {
					t.Errorf("game %d: KM %q", r.Game, v)
				}
				if !strings.Contains(root.Text("GC"), "referee Judge") {
					t.Errorf("game %d: GC %q", r.Game, root.Text("GC"))
				}
				if _, err := os.Stat(filepath.Join(dir, gameFile(r.Game, 2, "-referee.log"))); err != nil {
					t.Errorf("referee log: %v", err)
				}
			}
		})
	}
}

// TestMatchForfeits plays against engines that misbehave: each loses every
// game, with B+F or W+F as the colour demands, or on time.
func TestMatchForfeits(t *testing.T) {
	for _, tc := range []struct {
		name    string
		bad     EngineSpec
		cfg     func(*Config)
		end     string
		reason  goban.EndReason
		explain string
	}{
		{"crash", helper(t, "crash", "Crasher", "3"), nil, EndForfeit, goban.EndForfeit, "exited"},
		{"illegal", helper(t, "illegal", "Cheater"), nil, EndForfeit, goban.EndForfeit, "illegal move"},
		{"garbage", helper(t, "garbage", "Babbler"), nil, EndForfeit, goban.EndForfeit, `"Z99"`},
		{"refuses a legal move", helper(t, "refuse", "Refuser"), nil, EndForfeit, goban.EndForfeit, "I refuse"},
		{"move timeout", helper(t, "slow", "Sloth", "1s"), func(c *Config) { c.MoveTimeout = 200 * time.Millisecond }, EndForfeit, goban.EndForfeit, "move timeout"},
		{"clock", helper(t, "slow", "Sloth", "1s"), func(c *Config) { c.Time = clock.AbsoluteTime(300 * time.Millisecond) }, EndTime, goban.EndTime, "ran out of time"},
		{"move timeout before the clock", helper(t, "slow", "Sloth", "1s"), func(c *Config) {
			c.Time = clock.AbsoluteTime(10 * time.Second)
			c.MoveTimeout = 200 * time.Millisecond
		}, EndForfeit, goban.EndForfeit, "move timeout"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			cfg := Config{
				Engines:  [2]EngineSpec{helper(t, "tengen", "Good", "9"), tc.bad},
				Games:    2,
				Size:     7,
				Parallel: 2,
				OutDir:   dir,
			}
			if tc.cfg != nil {
				tc.cfg(&cfg)
			}
			s, err := Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if s.Engines[1].Losses != 2 || s.Engines[0].Wins != 2 {
				t.Fatalf("bad engine: %+v; results %+v", s.Engines[1].Record, s.Results)
			}
			for _, r := range s.Results {
				badColor := goban.White
				if r.Black == 2 {
					badColor = goban.Black
				}
				want := goban.Result{Winner: badColor.Opponent(), Reason: tc.reason}.String()
				if r.Result != want || r.End != tc.end || r.Winner != 1 {
					t.Errorf("game %d: %s by %s, winner %d; want %s: %s", r.Game, r.Result, r.End, r.Winner, want, r.Detail)
				}
				if !strings.Contains(r.Detail, tc.explain) || !strings.Contains(r.Detail, colorName(badColor)+" (") {
					t.Errorf("game %d: detail %q does not say %q about %v", r.Game, r.Detail, tc.explain, badColor)
				}
				root, _ := readGame(t, dir, r.SGF)
				if v := value(t, root, "RE"); v != want {
					t.Errorf("game %d: RE %q", r.Game, v)
				}
				if !strings.Contains(root.Text("GC"), tc.explain) {
					t.Errorf("game %d: GC %q", r.Game, root.Text("GC"))
				}
			}
			if tc.end == EndForfeit && s.Engines[1].Forfeits != 2 || tc.end == EndTime && s.Engines[1].TimeLosses != 2 {
				t.Errorf("forfeits %d, time losses %d", s.Engines[1].Forfeits, s.Engines[1].TimeLosses)
			}
		})
	}
}

// TestMatchMoveLimit stops games early and scores them as they stand.
func TestMatchMoveLimit(t *testing.T) {
	dir := t.TempDir()
	s, err := Run(context.Background(), Config{
		Engines:         [2]EngineSpec{helper(t, "tengen", "Alpha", "1"), helper(t, "tengen", "Beta", "2")},
		Games:           1,
		Size:            9,
		MoveLimit:       10,
		OutDir:          dir,
		ScoringPlayouts: 100,
	})
	if err != nil {
		t.Fatal(err)
	}
	r := s.Results[0]
	if r.Moves != 10 || r.End != EndMoveLimit || r.ScoredBy != ScoredByGoban {
		t.Fatalf("%+v", r)
	}
	_, rep := readGame(t, dir, r.SGF)
	if rep.Moves != 10 {
		t.Errorf("record has %d moves", rep.Moves)
	}
}

// TestMatchSetupErrors: a match that cannot start says why.
func TestMatchSetupErrors(t *testing.T) {
	good := helper(t, "tengen", "Alpha", "1")
	for _, tc := range []struct {
		name string
		cfg  Config
		want string
	}{
		{"no engine", Config{Engines: [2]EngineSpec{good, {}}, Games: 1}, "engine 2 has no command"},
		{"no games", Config{Engines: [2]EngineSpec{good, good}}, "number of games"},
		{"size", Config{Engines: [2]EngineSpec{good, good}, Games: 1, Size: 30}, "board size 30"},
		{"rules", Config{Engines: [2]EngineSpec{good, good}, Games: 1, Rules: "calvinball"}, "unknown ruleset"},
		{"handicap", Config{Engines: [2]EngineSpec{good, good}, Games: 1, Handicap: 1}, "handicap 1"},
		{"fixed handicap on a small board", Config{Engines: [2]EngineSpec{good, good}, Games: 1, Size: 5, Handicap: 5}, "handicap stones"},
		{"missing program", Config{Engines: [2]EngineSpec{good, {Command: []string{"/nonexistent/engine"}}}, Games: 1}, "engine 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Run(context.Background(), tc.cfg)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one that says %q", err, tc.want)
			}
		})
	}
}

// TestMatchNoTimeLeft checks that NoTimeLeft keeps time_left from the
// engines: an engine that fails time_left forfeits without it and plays
// its games to the end with it.
func TestMatchNoTimeLeft(t *testing.T) {
	for _, noTimeLeft := range []bool{false, true} {
		t.Run(fmt.Sprint("NoTimeLeft=", noTimeLeft), func(t *testing.T) {
			t.Parallel()
			s, err := Run(context.Background(), Config{
				Engines:    [2]EngineSpec{helper(t, "tengen", "Good", "9"), helper(t, "untold", "Untold")},
				Games:      2,
				Size:       7,
				Time:       clock.ByoYomiTime(0, 1, 5*time.Second),
				NoTimeLeft: noTimeLeft,
				OutDir:     t.TempDir(),
			})
			if err != nil {
				t.Fatal(err)
			}
			forfeits := s.Engines[1].Forfeits
			if noTimeLeft && forfeits != 0 || !noTimeLeft && forfeits != 2 {
				t.Errorf("%d forfeits; results %+v", forfeits, s.Results)
			}
		})
	}
}

// TestMatchUntimed plays an engine that fails time_left: untimed, it is
// never told, and its games go to the end.
func TestMatchUntimed(t *testing.T) {
	for _, untimed := range []int{0, 2} {
		t.Run(fmt.Sprint("Untimed=", untimed), func(t *testing.T) {
			t.Parallel()
			s, err := Run(context.Background(), Config{
				Engines:  [2]EngineSpec{helper(t, "tengen", "Good", "9"), helper(t, "untold", "Untold")},
				Games:    2,
				Size:     7,
				Time:     clock.ByoYomiTime(0, 1, 5*time.Second),
				Untimed:  untimed,
				OutDir:   t.TempDir(),
				Parallel: 2,
			})
			if err != nil {
				t.Fatal(err)
			}
			r := s.Engines[1]
			if untimed == 2 && (r.Forfeits != 0 || r.TimeLosses != 0) || untimed == 0 && r.Forfeits != 2 {
				t.Errorf("forfeits %d, time losses %d; results %+v", r.Forfeits, r.TimeLosses, s.Results)
			}
		})
	}
	if _, err := Run(context.Background(), Config{Engines: [2]EngineSpec{helper(t, "tengen", "A"), helper(t, "tengen", "B")}, Untimed: 3, OutDir: t.TempDir()}); err == nil {
		t.Error("untimed engine 3 accepted")
	}
}

// TestMatchCancel: a cancelled match stops and still writes its summary.
func TestMatchCancel(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	s, err := Run(ctx, Config{
		Engines: [2]EngineSpec{helper(t, "tengen", "Alpha", "1"), helper(t, "slow", "Sloth", "50ms")},
		Games:   50,
		Size:    9,
		OutDir:  dir,
	})
	if err == nil {
		t.Fatal("no error from a cancelled match")
	}
	if s == nil || s.Played >= 50 {
		t.Fatalf("summary %+v", s)
	}
	if _, err := os.Stat(filepath.Join(dir, "summary.json")); err != nil {
		t.Error(err)
	}
}

// TestMatchRepetitionVoid: two engines repeat a triple ko under the
// japanese ruleset, where a repetition ends the game only if both players
// agree (J89 Art. 12). GTP cannot ask an engine, so the referee takes it as
// agreed and records "Void" instead of playing the cycle to the move limit.
func TestMatchRepetitionVoid(t *testing.T) {
	black := "B9,H9,A8,G8,J8,B7,H7,B4,A3,B2,pass" + strings.Repeat(",C8,C3,G8", 3)
	white := "C9,G9,B8,D8,F8,C7,G7,C4,B3,D3,C2" + strings.Repeat(",H8,B8,B3", 3)
	s, err := Run(context.Background(), Config{
		Engines:         [2]EngineSpec{helper(t, "script", "Alpha", black), helper(t, "script", "Beta", white)},
		Games:           1,
		SameColors:      true,
		Size:            9,
		Rules:           "japanese",
		ScoringPlayouts: 10,
	})
	if err != nil {
		t.Fatal(err)
	}
	if r := s.Results[0]; r.Result != "Void" || r.End != EndRepetition || r.Moves != 34 {
		t.Fatalf("%+v; want Void by repetition after 34 moves", r)
	}
}
