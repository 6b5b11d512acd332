package goban

import (
	"errors"
	"testing"
)

func playAll(t *testing.T, g *Game, moves ...string) {
	t.Helper()
	for _, v := range moves {
		c := g.ToMove()
		p, pass, err := ParseVertex(v, g.Width(), g.Height())
		if err != nil {
			t.Fatal(err)
		}
		m := PassMove(c)
		if !pass {
			m = PlayAt(c, p)
		}
		if err := g.Play(m); err != nil {
			t.Fatalf("%s: %v", v, err)
		}
	}
}

func vertexMove(t *testing.T, g *Game, c Color, v string) Move {
	t.Helper()
	p, _, err := ParseVertex(v, g.Width(), g.Height())
	if err != nil {
		t.Fatal(err)
	}
	return PlayAt(c, p)
}

// TestKoAndSuperko checks the basic ko under every ko rule: the immediate
// recapture is refused (seed 004, rule 3), and allowed after a move
// elsewhere under simple ko.
func TestKoAndSuperko(t *testing.T) {
	for _, name := range []string{"japanese", "chinese", "aga", "tromp-taylor"} {
		t.Run(name, func(t *testing.T) {
			g := MustNewGame(7, 7, MustRuleset(name))
			// Build a ko at C4/D4: Black B4 C5 C3, White D5 D3 E4, then
			// White C4 and Black D4 captures.
			playAll(t, g, "B4", "D5", "C5", "D3", "C3", "E4", "G1", "C4", "D4")
			if g.Captures(Black) != 1 {
				t.Fatalf("Black captured %d, want 1", g.Captures(Black))
			}
			err := g.Play(vertexMove(t, g, White, "C4"))
			if !errors.Is(err, ErrKo) {
				t.Fatalf("immediate recapture: %v, want ko", err)
			}
			var ill *IllegalMoveError
			if !errors.As(err, &ill) {
				t.Fatalf("error %T is not an *IllegalMoveError", err)
			}
			// A ko threat elsewhere and its answer, then the recapture is legal.
			playAll(t, g, "A1", "B1", "C4")
			if g.Captures(White) != 1 {
				t.Fatalf("White captured %d, want 1", g.Captures(White))
			}
		})
	}
}

func TestTurnOrderAndEnd(t *testing.T) {
	g := MustNewGame(9, 9, MustRuleset("japanese"))
	if err := g.Play(vertexMove(t, g, White, "E5")); !errors.Is(err, ErrNotYourTurn) {
		t.Fatalf("White first: %v", err)
	}
	if err := g.Play(PlayAt(Black, Point{9, 0})); !errors.Is(err, ErrOffBoard) {
		t.Fatalf("off board: %v", err)
	}
	playAll(t, g, "E5", "pass", "D4", "pass")
	if g.Ended() {
		t.Fatal("passes that are not consecutive ended the game")
	}
	playAll(t, g, "pass")
	if !g.Ended() || g.Result().Reason != EndPasses {
		t.Fatalf("two passes: ended %v, result %+v", g.Ended(), g.Result())
	}
	if err := g.Play(vertexMove(t, g, White, "A1")); !errors.Is(err, ErrGameOver) {
		t.Fatalf("move after the end: %v", err)
	}
	// Resumption (1989 Japanese rules, Art. 9.3): Black asks, White moves
	// first, and two new passes are needed.
	if err := g.Resume(Black); err != nil {
		t.Fatal(err)
	}
	if g.ToMove() != White {
		t.Fatalf("after Black asks to resume, %v moves; want white", g.ToMove())
	}
	playAll(t, g, "pass")
	if g.Ended() {
		t.Fatal("one pass after resumption ended the game")
	}
	playAll(t, g, "pass")
	if !g.Ended() {
		t.Fatal("two passes after resumption did not end the game")
	}
	// Undo takes back the last pass.
	if err := g.Undo(); err != nil || g.Ended() {
		t.Fatalf("undo: %v, ended %v", err, g.Ended())
	}
	if err := g.Play(ResignMove(g.ToMove())); err != nil {
		t.Fatal(err)
	}
	if got := g.Result().String(); got != "W+R" {
		t.Fatalf("result after Black resigns: %s", got)
	}
}

func TestUndoRestoresGame(t *testing.T) {
	g := MustNewGame(5, 5, MustRuleset("tromp-taylor"))
	playAll(t, g, "B4", "C4", "A3", "B3", "C5", "B5", "A4", "D5", "A5")
	before := g.Board().String()
	capsB, capsW := g.Captures(Black), g.Captures(White)
	playAll(t, g, "pass", "C3")
	for i := 0; i < 2; i++ {
		if err := g.Undo(); err != nil {
			t.Fatal(err)
		}
	}
	if g.Board().String() != before || g.Captures(Black) != capsB || g.Captures(White) != capsW || g.ToMove() != White {
		t.Fatalf("undo did not restore the game:\n%s", g.Board())
	}
	for g.MoveNumber() > 0 {
		if err := g.Undo(); err != nil {
			t.Fatal(err)
		}
	}
	if err := g.Undo(); err == nil {
		t.Fatal("undo before the first move succeeded")
	}
}

// TestRepetitionEndsWithoutResult plays random games without passes under
// simple ko until one ends by repetition, and checks by recounting that the
// final situation occurred three times with no pass in between.
func TestRepetitionEndsWithoutResult(t *testing.T) {
	found := 0
	// Multi-stone suicide makes cycles without passes frequent on tiny
	// boards; the rule under test is the simple-ko repetition rule.
	rules := Ruleset{Name: "simple-ko-suicide", Ko: SimpleKo, MultiStoneSuicide: true}
	for seed := uint64(1); seed < 400 && found < 3; seed++ {
		size := 2 + int(seed%3)
		g := MustNewGame(size, size, rules)
		r := NewRand(seed)
		for i := 0; i < 2000 && !g.Ended(); i++ {
			legal := g.LegalMoves(g.ToMove())
			if len(legal) == 0 {
				break
			}
			if err := g.Play(PlayAt(g.ToMove(), legal[r.Intn(len(legal))])); err != nil {
				t.Fatal(err)
			}
		}
		if g.Result().Reason != EndRepetition {
			continue
		}
		found++
		if g.Result().String() != "Void" {
			t.Fatalf("result %q, want Void", g.Result())
		}
		// Replay and count the final situation.
		replay := MustNewGame(size, size, rules)
		final := g.Board().String() + g.ToMove().String()
		count := 0
		if replay.Board().String()+replay.ToMove().String() == final {
			count++
		}
		for _, m := range g.Moves() {
			if err := replay.Play(m); err != nil {
				t.Fatalf("replay: %v", err)
			}
			if replay.Board().String()+replay.ToMove().String() == final {
				count++
			}
		}
		if count != 3 {
			t.Fatalf("seed %d: the final situation occurred %d times, want 3", seed, count)
		}
	}
	if found == 0 {
		t.Fatal("no random game ended by repetition")
	}
}

func TestHandicapAndKomi(t *testing.T) {
	tests := []struct {
		rules    string
		size, n  int
		toMove   Color
		komi     float64
		vertices []string
	}{
		{"japanese", 19, 0, Black, 6.5, nil},
		{"japanese", 19, 1, Black, 0.5, nil},
		{"japanese", 19, 2, White, 0.5, []string{"Q16", "D4"}},
		{"japanese", 19, 3, White, 0.5, []string{"Q16", "D4", "Q4"}},
		{"japanese", 19, 5, White, 0.5, []string{"D16", "Q16", "K10", "D4", "Q4"}},
		{"japanese", 19, 9, White, 0.5, []string{"D16", "K16", "Q16", "D10", "K10", "Q10", "D4", "K4", "Q4"}},
		{"japanese", 13, 4, White, 0.5, []string{"D10", "K10", "D4", "K4"}},
		{"japanese", 9, 6, White, 0.5, []string{"C7", "G7", "C5", "G5", "C3", "G3"}},
		{"online", 19, 0, Black, 5.5, nil},
		{"online", 13, 0, Black, 4.5, nil},
		{"online", 9, 0, Black, 3.5, nil},
		{"chinese", 19, 0, Black, 7.5, nil},
		{"new-zealand", 19, 0, Black, 7, nil},
		{"atari", 9, 0, Black, 0, nil},
	}
	for _, tt := range tests {
		g := MustNewGame(tt.size, tt.size, MustRuleset(tt.rules))
		if err := g.SetHandicap(tt.n, false); err != nil {
			t.Fatalf("%+v: %v", tt, err)
		}
		if g.ToMove() != tt.toMove || g.Komi() != tt.komi {
			t.Errorf("%s %d×%d handicap %d: %v to move, komi %v; want %v, %v", tt.rules, tt.size, tt.size, tt.n, g.ToMove(), g.Komi(), tt.toMove, tt.komi)
		}
		_, pts := g.Handicap()
		var got []string
		for _, p := range pts {
			got = append(got, FormatVertex(p, tt.size))
		}
		if len(got) != len(tt.vertices) {
			t.Errorf("%s %d handicap %d: stones %v, want %v", tt.rules, tt.size, tt.n, got, tt.vertices)
			continue
		}
		for i := range got {
			if got[i] != tt.vertices[i] {
				t.Errorf("%s %d handicap %d: stones %v, want %v", tt.rules, tt.size, tt.n, got, tt.vertices)
				break
			}
		}
	}
	// Pfaundler §9: up to 13 stones, the last four on the 3-3 points.
	pts, err := FixedHandicap(19, 19, 13, true)
	if err != nil || len(pts) != 13 {
		t.Fatalf("13 historic stones: %v %v", pts, err)
	}
	for i, want := range []string{"c3", "c17", "r3", "r17"} {
		if got := FormatKorschelt(pts[9+i], 19); got != want {
			t.Errorf("historic stone %d at %s, want %s", 10+i, got, want)
		}
	}
	if _, err := FixedHandicap(19, 19, 10, false); err == nil {
		t.Error("10 fixed stones without the historic option were accepted")
	}
	if _, err := FixedHandicap(8, 8, 5, false); err == nil {
		t.Error("5 fixed stones on an even board were accepted")
	}
	g := MustNewGame(9, 9, MustRuleset("chinese"))
	playAll(t, g, "E5")
	if err := g.SetHandicap(2, false); err == nil {
		t.Error("handicap after a move was accepted")
	}
}

func TestAtariGoFirstCaptureWins(t *testing.T) {
	g := MustNewGame(5, 5, MustRuleset("atari"))
	playAll(t, g, "B2", "C2", "B3", "C3", "A4", "B1", "C1", "A2")
	if g.Ended() {
		t.Fatal("ended before a capture")
	}
	// Black B4? White A2 is next to B2; Black A1 captures... play A3: White
	// A2 has liberties A1 and A3; Black A3 then A1 captures.
	playAll(t, g, "A3", "E5", "A1")
	if !g.Ended() || g.Result().Winner != Black || g.Result().Reason != EndCapture {
		t.Fatalf("after Black's capture: %+v\n%s", g.Result(), g.Board())
	}
	if g.Result().String() != "B+" {
		t.Fatalf("result %q", g.Result())
	}
}

func TestResultStrings(t *testing.T) {
	for _, s := range []string{"B+3.5", "W+R", "B+T", "W+F", "0", "Void", "B+", "W+0.5", "B+12"} {
		r, err := ParseResult(s)
		if err != nil {
			t.Errorf("ParseResult(%q): %v", s, err)
			continue
		}
		if r.String() != s {
			t.Errorf("ParseResult(%q).String() = %q", s, r)
		}
	}
	for _, s := range []string{"", "B", "X+1", "B+x", "B+-1"} {
		if _, err := ParseResult(s); err == nil {
			t.Errorf("ParseResult(%q) gave no error", s)
		}
	}
}
