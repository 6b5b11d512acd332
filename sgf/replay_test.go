package sgf

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"tengen/goban"
)

func mustParse(t *testing.T, s string) *Node {
	t.Helper()
	c, err := Parse([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return c.Games[0]
}

func TestReplay(t *testing.T) {
	tests := []struct {
		name   string
		sgf    string
		opt    ReplayOptions
		board  string // goban.Board.String() of the final position
		moves  int
		toMove goban.Color
		err    error // want errors.Is(err, this) with a *MoveError
	}{
		{"capture", "(;SZ[5];B[ba];W[aa];B[ab])", ReplayOptions{}, "" +
			".X...\nX....\n.....\n.....\n.....\n", 3, goban.White, nil},
		{"pass forms", "(;SZ[5];B[cc];W[];B[tt];W[bb])", ReplayOptions{}, "" +
			".....\n.O...\n..X..\n.....\n.....\n", 4, goban.Black, nil},
		{"setup and PL", "(;SZ[5]AB[aa:bb]AW[ee]PL[W];W[dd];AE[aa]B[cc])", ReplayOptions{}, "" +
			".X...\nXX...\n..X..\n...O.\n....O\n", 2, goban.White, nil},
		{"same colour twice", "(;SZ[5];B[aa];B[bb])", ReplayOptions{}, "" +
			"X....\n.X...\n.....\n.....\n.....\n", 2, goban.White, nil},
		{"occupied", "(;SZ[5];B[aa];W[aa])", ReplayOptions{}, "" +
			"X....\n.....\n.....\n.....\n.....\n", 1, goban.White, goban.ErrOccupied},
		{"occupied forced", "(;SZ[5];B[aa];W[aa])", ReplayOptions{Force: true}, "" +
			"O....\n.....\n.....\n.....\n.....\n", 2, goban.Black, nil},
		{"suicide", "(;SZ[5]AB[ba][ab];W[aa])", ReplayOptions{}, "" +
			".X...\nX....\n.....\n.....\n.....\n", 0, goban.White, goban.ErrSuicide},
		{"ko", "(;SZ[5]AB[ba][ab][bc]AW[ca][db][cc];B[cb];W[bb];B[cb])", ReplayOptions{}, "" +
			".XO..\nXO.O.\n.XO..\n.....\n.....\n", 2, goban.White, goban.ErrKo},
		{"ko forced", "(;SZ[5]AB[ba][ab][bc]AW[ca][db][cc];B[cb];W[bb];B[cb])", ReplayOptions{Force: true}, "" +
			".XO..\nX.XO.\n.XO..\n.....\n.....\n", 3, goban.White, nil},
		{"until move", "(;SZ[5];B[aa];W[bb];B[cc])", ReplayOptions{UntilMove: 3}, "" +
			"X....\n.O...\n.....\n.....\n.....\n", 2, goban.Black, nil},
		{"until point", "(;SZ[5];B[aa];W[bb];B[cc])", ReplayOptions{UntilPoint: &Point{1, 1}}, "" +
			"X....\n.....\n.....\n.....\n.....\n", 1, goban.White, nil},
		{"variation", "(;SZ[5];B[aa](;W[bb])(;W[cc];B[dd]))", ReplayOptions{Path: []int{1}}, "" +
			"X....\n.....\n..O..\n...X.\n.....\n", 3, goban.White, nil},
		{"play after two passes", "(;SZ[5];B[];W[];B[aa])", ReplayOptions{}, "" +
			"X....\n.....\n.....\n.....\n.....\n", 3, goban.White, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Replay(mustParse(t, tt.sgf), tt.opt)
			if tt.err != nil {
				var me *MoveError
				if !errors.As(err, &me) || !errors.Is(err, tt.err) || me.Number != tt.moves+1 {
					t.Fatalf("error %v, want move %d: %v", err, tt.moves+1, tt.err)
				}
				if !strings.HasPrefix(me.Error(), "1:") {
					t.Errorf("error %q lacks a position", me)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			if got := strings.ReplaceAll(r.Game.Board().String(), " ", ""); got != tt.board {
				t.Errorf("board\n%swant\n%s", got, tt.board)
			}
			if r.Moves != tt.moves {
				t.Errorf("%d moves, want %d", r.Moves, tt.moves)
			}
			if tt.err == nil && r.Game.ToMove() != tt.toMove {
				t.Errorf("%v to move, want %v", r.Game.ToMove(), tt.toMove)
			}
			if tt.opt.Force && len(r.Illegal) != 1 {
				t.Errorf("illegal moves %v, want one", r.Illegal)
			}
		})
	}
}

func TestReplayGameInfo(t *testing.T) {
	// Handicap in the second node, AGA rules, komi 0.5.
	r, err := Replay(mustParse(t, "(;SZ[19]HA[2]KM[0.5]RU[AGA];AB[dp][pd];W[dd])"), ReplayOptions{})
	if err != nil {
		t.Fatal(err)
	}
	g := r.Game
	if n, pts := g.Handicap(); n != 2 || len(pts) != 2 {
		t.Errorf("handicap %d %v", n, pts)
	}
	if g.Komi() != 0.5 || g.Rules().Name != "aga" || g.Width() != 19 {
		t.Errorf("komi %g rules %s size %d", g.Komi(), g.Rules().Name, g.Width())
	}
	if len(r.Warnings) != 0 {
		t.Errorf("warnings %v", r.Warnings)
	}
	// Defaults: Japanese rules and komi 0 without RU and KM; overrides win.
	k := 7.5
	r, err = Replay(mustParse(t, "(;SZ[9:7];B[aa])"), ReplayOptions{Rules: "chinese", Komi: &k})
	if err != nil {
		t.Fatal(err)
	}
	if r.Game.Komi() != 7.5 || r.Game.Rules().Name != "chinese" || r.Game.Width() != 9 || r.Game.Height() != 7 {
		t.Errorf("komi %g rules %s", r.Game.Komi(), r.Game.Rules().Name)
	}
	r, _ = Replay(mustParse(t, "(;RU[Martian];B[aa])"), ReplayOptions{})
	if r.Game.Rules().Name != "japanese" || r.Game.Komi() != 0 || !strings.Contains(r.Warnings.String(), "unknown ruleset") {
		t.Errorf("rules %s komi %g warnings %v", r.Game.Rules().Name, r.Game.Komi(), r.Warnings)
	}
	// HA without AB and White first: fixed points.
	r, _ = Replay(mustParse(t, "(;SZ[19]HA[4];W[jj])"), ReplayOptions{})
	if n, _ := r.Game.Handicap(); n != 4 || r.Game.Board().Stones(goban.Black) != 4 {
		t.Errorf("handicap %d, %d black stones", n, r.Game.Board().Stones(goban.Black))
	}
	// A move off the board is a positioned error, not a MoveError.
	_, err = Replay(mustParse(t, "(;SZ[9]\n;B[jj])"), ReplayOptions{})
	var pe *Error
	if !errors.As(err, &pe) || pe.Line != 2 {
		t.Errorf("off-board move: %v", err)
	}
}

func TestRulesFor(t *testing.T) {
	for ru, want := range map[string]string{
		"": "japanese", "Japanese": "japanese", "Chinese": "chinese", "AGA": "aga", "NZ": "new-zealand",
		"Korean": "korean", "Tromp-Taylor": "tromp-taylor", "GOE": "new-zealand", "Chinese rules": "chinese",
		"japanese 1989": "japanese",
	} {
		r, err := RulesFor(ru)
		if err != nil || r.Name != want {
			t.Errorf("RulesFor(%q) = %s, %v; want %s", ru, r.Name, err, want)
		}
		if ru != "" && ru == RUName(r) {
			if back, _ := RulesFor(RUName(r)); back.Name != r.Name {
				t.Errorf("RUName(%s) = %q does not read back", r.Name, RUName(r))
			}
		}
	}
}

func TestFromGame(t *testing.T) {
	g := goban.MustNewGame(9, 9, goban.MustRuleset("chinese"))
	if err := g.SetHandicap(2, false); err != nil {
		t.Fatal(err)
	}
	moves := []goban.Move{
		goban.PlayAt(goban.White, goban.Point{X: 4, Y: 4}), goban.PlayAt(goban.Black, goban.Point{X: 3, Y: 4}),
		goban.PassMove(goban.White), goban.PlayAt(goban.Black, goban.Point{X: 0, Y: 0}),
		goban.ResignMove(goban.White),
	}
	for _, m := range moves {
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	root := FromGame(g, GameInfo{BlackName: "Black]Player", WhiteName: "White"})
	out, err := Format(root)
	if err != nil {
		t.Fatal(err)
	}
	want := "(;FF[4]CA[UTF-8]GM[1]SZ[9]KM[" + trimFloat(g.Komi()) + "]HA[2]RE[B+R]RU[Chinese]PB[Black\\]Player]PW[White]AB[gc][cg]\n" +
		";W[ee];B[de];W[];B[aa])\n"
	if string(out) != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
	r, err := Replay(mustParse(t, string(out)), ReplayOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Game.Board().String() != g.Board().String() || r.Moves != 4 {
		t.Errorf("replayed\n%s\nwant\n%s", r.Game.Board(), g.Board())
	}
	if n, _ := r.Game.Handicap(); n != 2 || r.Game.Komi() != g.Komi() || r.Info.Result.String() != "B+R" {
		t.Errorf("handicap %d komi %g result %s", n, r.Game.Komi(), r.Info.Result)
	}
	// A game with setup stones is written as its position.
	g = goban.MustNewGame(9, 9, goban.MustRuleset("japanese"))
	g.Play(goban.PlayAt(goban.Black, goban.Point{X: 2, Y: 2}))
	if err := g.Setup(goban.White, goban.Point{X: 3, Y: 3}); err != nil {
		t.Fatal(err)
	}
	out, _ = Format(FromGame(g, GameInfo{}))
	if want := "(;FF[4]CA[UTF-8]GM[1]SZ[9]KM[6.5]RU[Japanese]AB[cc]AW[dd]PL[W])\n"; string(out) != want {
		t.Errorf("setup game written as\n%s\nwant\n%s", out, want)
	}
	// White first without handicap gets PL[W].
	g = goban.MustNewGame(9, 9, goban.MustRuleset("japanese"))
	g.SetFreeOrder(true)
	g.Play(goban.PlayAt(goban.White, goban.Point{X: 2, Y: 2}))
	if root := FromGame(g, GameInfo{}); !root.Has("PL") {
		t.Error("no PL[W]")
	}
}

func trimFloat(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// TestReplayHistoricHandicap: HA without AB stones under the pfaundler
// ruleset places Pfaundler's fixed stones (§9, up to thirteen) although
// Black moves first after them.
func TestReplayHistoricHandicap(t *testing.T) {
	for _, tc := range []struct {
		sgf    string
		stones int
	}{
		{"(;SZ[19]HA[13]RU[pfaundler];B[aa];W[sa])", 13},
		{"(;SZ[19]HA[10]RU[pfaundler-1908];B[aa])", 10},
		{"(;SZ[19]HA[4]RU[pfaundler];B[aa])", 4},
		// Elsewhere the fixed stones are placed when White moves first.
		{"(;SZ[19]HA[3]RU[japanese];W[aa])", 3},
	} {
		r, err := Replay(mustParse(t, tc.sgf), ReplayOptions{})
		if err != nil {
			t.Fatalf("%s: %v", tc.sgf, err)
		}
		n, pts := r.Game.Handicap()
		if n != tc.stones || len(pts) != tc.stones {
			t.Errorf("%s: handicap %d with %d stones, want %d", tc.sgf, n, len(pts), tc.stones)
		}
		if want := tc.stones + r.Moves/2 + r.Moves%2; r.Game.Rules().BlackFirstAfterHandicap && r.Game.Board().Stones(goban.Black) != want {
			t.Errorf("%s: %d black stones, want %d", tc.sgf, r.Game.Board().Stones(goban.Black), want)
		}
	}
}
