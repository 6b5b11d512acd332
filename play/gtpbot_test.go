package play_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"testing"
	"time"

	"tengen"
	"tengen/clock"
	"tengen/engine"
	"tengen/goban"
	"tengen/gtp"
	"tengen/gtpengine"
	"tengen/internal/oracle"
	"tengen/internal/syncbuf"
	"tengen/play"
)

// helperEnv makes the test binary a GTP engine (the helper-process
// pattern): "engine" serves Tengen's search engine at the beginner level,
// "crash" is that engine dying at its first genmove, "illegal" answers
// every genmove with A1. TENGEN_PLAY_GTP_LOG, if set, receives every
// command the engine reads.
const helperEnv = "TENGEN_PLAY_GTP_HELPER"

func TestMain(m *testing.M) {
	if mode := os.Getenv(helperEnv); mode != "" {
		os.Exit(gtpHelper(mode))
	}
	os.Exit(m.Run())
}

type crashingPlayer struct{ gtp.Player }

func (crashingPlayer) GenMove(context.Context, gtp.MoveRequest) (goban.Move, error) {
	fmt.Fprintln(os.Stderr, "out of memory (pretend)")
	os.Exit(3)
	return goban.Move{}, nil
}

func gtpHelper(mode string) int {
	var in io.Reader = os.Stdin
	if path := os.Getenv("TENGEN_PLAY_GTP_LOG"); path != "" {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		defer f.Close()
		in = io.TeeReader(in, f)
	}
	if mode == "illegal" {
		sc := bufio.NewScanner(in)
		for sc.Scan() {
			f := strings.Fields(sc.Text())
			id := ""
			if len(f) > 0 && strings.Trim(f[0], "0123456789") == "" {
				id, f = f[0], f[1:]
			}
			if len(f) == 0 {
				continue
			}
			switch f[0] {
			case "genmove":
				fmt.Printf("=%s A1\n\n", id)
			case "list_commands":
				fmt.Printf("=%s boardsize\nclear_board\nkomi\nplay\ngenmove\ntime_settings\nquit\n\n", id)
			case "quit":
				fmt.Printf("=%s\n\n", id)
				return 0
			default:
				fmt.Printf("=%s\n\n", id)
			}
		}
		return 0
	}
	var p gtp.Player = gtpengine.Player{Engine: engine.New(engine.Options{Level: engine.LevelBeginner, Threads: 1, Seed: 3})}
	if mode == "crash" {
		p = crashingPlayer{p}
	}
	ge, err := gtp.NewEngine(gtp.Options{Player: p})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if err := ge.Serve(context.Background(), in, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// gtpBotEnv runs a service whose only bot is the external engine cmd; the
// service logs into logs.
func gtpBotEnv(t *testing.T, cfg play.GTPBotConfig, logs io.Writer) *botEnv {
	t.Helper()
	if logs == nil {
		logs = io.Discard
	}
	log := slog.New(slog.NewTextHandler(logs, nil))
	return newBotEnv(t, func() []play.Bot { return play.GTPBots([]play.GTPBotConfig{cfg}, log) },
		func(c *play.Config) { c.Logger = log })
}

func helperBot(t *testing.T, mode, logPath string) play.GTPBotConfig {
	env := []string{helperEnv + "=" + mode}
	if logPath != "" {
		env = append(env, "TENGEN_PLAY_GTP_LOG="+logPath)
	}
	return play.GTPBotConfig{Name: "External", Command: []string{os.Args[0], "-test.run=^$"}, Env: env, MaxGames: 2}
}

func TestGTPBotPlays(t *testing.T) {
	logPath := t.TempDir() + "/commands.log"
	e := gtpBotEnv(t, helperBot(t, "engine", logPath), nil)
	set := tengen.GameSettings{BoardSize: 9, Ruleset: "chinese", Color: tengen.ChooseBlack, Handicap: 2,
		TimeControl: clock.TimeControl{Kind: clock.ByoYomi, MainTime: 10 * time.Minute, Periods: 3, PeriodTime: 30 * time.Second}}
	id := e.playBot("External", set)
	// White moves first after fixed handicap stones.
	snap := e.waitFor(id, "the external bot's first move", movesAtLeast(1))
	if snap.Moves[0].Color != goban.White {
		t.Fatalf("first move %+v, want White's", snap.Moves[0])
	}
	p := firstEmpty(t, snap)
	e.move(id, 2, tengen.MovePlay, p.X, p.Y)
	snap = e.waitFor(id, "the external bot's answer", movesAtLeast(3))
	if snap.Game.Status != tengen.GamePlaying {
		t.Fatalf("status %s, result %q", snap.Game.Status, snap.Game.Result)
	}
	if err := e.svc.Close(); err != nil {
		t.Logf("close: %v", err)
	}
	log, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	text := string(log)
	for _, want := range []string{"boardsize 9", "clear_board", "komi ", "kata-set-rules chinese", "kgs-time_settings byoyomi 600 30 3",
		"set_free_handicap ", "time_left W ", "time_left B ", "genmove w", "play b " + goban.FormatVertex(goban.Point{X: p.X, Y: p.Y}, 9)} {
		if !strings.Contains(text, want) {
			t.Errorf("the engine was never sent %q; it got:\n%s", want, text)
		}
	}
}

func TestGTPBotForfeits(t *testing.T) {
	for _, tt := range []struct{ mode, reason string }{
		{"crash", `out of memory (pretend)`},
		{"illegal", "illegal move"},
	} {
		t.Run(tt.mode, func(t *testing.T) {
			var logs syncbuf.Buffer
			e := gtpBotEnv(t, helperBot(t, tt.mode, ""), &logs)
			id := e.playBot("External", nineByNine(tengen.ChooseBlack))
			// A1 is (0, 8): the illegal engine answers on the human's stone.
			e.move(id, 1, tengen.MovePlay, 0, 8)
			snap := e.waitFor(id, "the forfeit", func(s *tengen.GameSnapshot) bool { return s.Game.Status == tengen.GameFinished })
			if snap.Game.Result != "B+F" {
				t.Fatalf("result %q, want B+F", snap.Game.Result)
			}
			if l := logs.String(); !strings.Contains(l, "bot forfeits") || !strings.Contains(l, tt.reason) {
				t.Errorf("the log does not give the reason %q:\n%s", tt.reason, l)
			}
		})
	}
}

// TestGNUGoBot plays a few moves against GNU Go as an external bot. It is
// skipped when gnugo is not installed, unless TENGEN_REQUIRE_GNUGO is set.
func TestGNUGoBot(t *testing.T) {
	path := oracle.GNUGo(t, "the game against GNU Go as an external bot")
	var logs syncbuf.Buffer
	e := gtpBotEnv(t, play.GTPBotConfig{Name: "GnuGo", Command: []string{path, "--mode", "gtp", "--level", "1"}, MaxGames: 1}, &logs)
	set := tengen.GameSettings{BoardSize: 9, Ruleset: "japanese", Color: tengen.ChooseBlack,
		TimeControl: clock.TimeControl{Kind: clock.Absolute, MainTime: 5 * time.Minute}}
	id := e.playBot("GnuGo", set)
	var snap *tengen.GameSnapshot
	for seq := 1; seq <= 5; seq += 2 {
		if snap != nil && snap.Game.Status != tengen.GamePlaying {
			break
		}
		var p goban.Point
		if snap == nil {
			p = goban.Point{X: 2, Y: 2}
		} else {
			p = firstEmpty(t, snap)
		}
		e.move(id, seq, tengen.MovePlay, p.X, p.Y)
		snap = e.waitFor(id, "GNU Go's answer", movesAtLeast(seq+1))
	}
	if snap.Game.Status == tengen.GameFinished && strings.HasSuffix(snap.Game.Result, "+F") {
		t.Fatalf("GNU Go forfeited: %q", snap.Game.Result)
	}
	for _, m := range snap.Moves {
		if m.Seq%2 == 0 && m.Color != goban.White {
			t.Errorf("move %d by %s, want GNU Go's (White)", m.Seq, m.Color)
		}
	}
	// GNU Go knows neither kata-set-rules nor kgs-rules: the operator is
	// told once.
	if l := logs.String(); strings.Count(l, "knows neither kata-set-rules nor kgs-rules") != 1 {
		t.Errorf("want one warning that GNU Go cannot be told the rules; log:\n%s", l)
	}
}

func TestParseBotsFile(t *testing.T) {
	tests := []struct {
		name, in string
		bots     int
		err      string // substring of the error, "" for success
	}{
		{"ok", `{"bots": [{"name": "GnuGo", "command": ["gnugo", "--mode", "gtp"], "boardSizes": [9, 19], "rulesets": ["japanese"], "maxGames": 2, "rank": "8 kyu"}]}`, 1, ""},
		{"empty", `{"bots": []}`, 0, ""},
		{"syntax", "{\"bots\": [\n  {\"name\": \"A\",}]}", 0, "bots.json:2:"},
		{"unknown field", `{"bots": [{"name": "GnuGo", "cmd": ["gnugo"]}]}`, 0, `unknown field "cmd"`},
		{"type", "{\"bots\": [{\"name\": 5}]}", 0, "bots.json:1:"},
		{"bad name", `{"bots": [{"name": "9x", "command": ["x"]}]}`, 0, "bot 1"},
		{"no command", `{"bots": [{"name": "GnuGo"}]}`, 0, "command is empty"},
		{"twice", `{"bots": [{"name": "GnuGo", "command": ["a"]}, {"name": "gnugo", "command": ["b"]}]}`, 0, "used twice"},
		{"size", `{"bots": [{"name": "GnuGo", "command": ["a"], "boardSizes": [3]}]}`, 0, "board size 3"},
		{"ruleset", `{"bots": [{"name": "GnuGo", "command": ["a"], "rulesets": ["ing"]}]}`, 0, `unknown ruleset "ing"`},
		{"max games", `{"bots": [{"name": "GnuGo", "command": ["a"], "maxGames": -1}]}`, 0, "maxGames"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bots, err := play.ParseBotsFile("bots.json", []byte(tt.in))
			switch {
			case tt.err == "" && err != nil:
				t.Fatalf("error %v", err)
			case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
				t.Fatalf("error %v, want one containing %q", err, tt.err)
			case len(bots) != tt.bots:
				t.Fatalf("%d bots, want %d", len(bots), tt.bots)
			}
		})
	}
}

func FuzzParseBotsFile(f *testing.F) {
	f.Add([]byte(`{"bots": [{"name": "GnuGo", "command": ["gnugo"], "boardSizes": [9]}]}`))
	f.Add([]byte("{\n\"bots\": [{]}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		bots, err := play.ParseBotsFile("f", data)
		if err == nil {
			for _, b := range bots {
				if len(b.Command) == 0 || tengen.ValidateUserName(b.Name) != nil {
					t.Fatalf("accepted a bot without command or with a bad name: %+v", b)
				}
			}
		}
	})
}
