package goban_test

// Tests written from the diagrams and examples of the five seed texts. Each
// case names its source: P = Pfaundler 1908 (seed 000, by § and Fig.), H =
// Hebsacker booklet (seed 001, by Dia.), A = Wikibooks appendix with the
// Japanese rules (seed 002), S = the server help page (seed 003), W =
// Wikibooks rules introduction (seed 004). Most seed diagrams are pictures
// that the text does not contain; the boards here are faithful
// constructions of the situations the text describes, with their expected
// outcomes. docs/RULES.md says which ruleset each rule belongs to.

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"tengen/goban"
)

// ruleset returns a named ruleset of docs/RULES.md; a name goban does not
// know fails the test.
func ruleset(t *testing.T, name string) goban.Ruleset {
	t.Helper()
	r, err := goban.RulesetByName(name)
	if err != nil {
		t.Fatalf("ruleset %q of docs/RULES.md: %v", name, err)
	}
	return r
}

// seedGame sets up a game from a diagram (rows from the top, X black, O
// white) under the named ruleset, with toMove to play.
func seedGame(t *testing.T, diagram, rules string, toMove goban.Color) *goban.Game {
	t.Helper()
	r := ruleset(t, rules)
	b, err := goban.ParseBoard(diagram)
	if err != nil {
		t.Fatalf("diagram: %v", err)
	}
	g, err := goban.NewGame(b.Width(), b.Height(), r)
	if err != nil {
		t.Fatal(err)
	}
	var blacks, whites []goban.Point
	for y := 0; y < b.Height(); y++ {
		for x := 0; x < b.Width(); x++ {
			switch p := (goban.Point{X: x, Y: y}); b.At(p) {
			case goban.Black:
				blacks = append(blacks, p)
			case goban.White:
				whites = append(whites, p)
			}
		}
	}
	if err := g.Setup(goban.Black, blacks...); err != nil {
		t.Fatal(err)
	}
	if err := g.Setup(goban.White, whites...); err != nil {
		t.Fatal(err)
	}
	g.SetToMove(toMove)
	return g
}

// point parses a GTP vertex on g's board.
func point(t *testing.T, g *goban.Game, v string) goban.Point {
	t.Helper()
	p, pass, err := goban.ParseVertex(v, g.Width(), g.Height())
	if err != nil || pass {
		t.Fatalf("vertex %q: pass %v, %v", v, pass, err)
	}
	return p
}

// move parses "B D4", "W pass" or "B resign".
func move(t *testing.T, g *goban.Game, s string) goban.Move {
	t.Helper()
	f := strings.Fields(s)
	if len(f) != 2 {
		t.Fatalf("move %q: want colour and vertex", s)
	}
	c, err := goban.ParseColor(f[0])
	if err != nil {
		t.Fatalf("move %q: %v", s, err)
	}
	switch strings.ToLower(f[1]) {
	case "pass":
		return goban.PassMove(c)
	case "resign":
		return goban.ResignMove(c)
	}
	return goban.PlayAt(c, point(t, g, f[1]))
}

// step is one move of a sequence and what it must do.
type step struct {
	move string // "B D4", "W pass"
	err  error  // nil for a legal move, else the reason it is refused
	caps int    // stones of the opponent the move captures (legal moves only)
	lost int    // own stones the move loses (multi-stone suicide)
}

// play plays the steps, checking each against its expectation. A refused
// move must leave the game exactly as it was.
func play(t *testing.T, g *goban.Game, steps []step) {
	t.Helper()
	for i, st := range steps {
		m := move(t, g, st.move)
		opp := m.Color.Opponent()
		before, toMove := g.Board().String(), g.ToMove()
		capsBefore, lostBefore := g.Captures(m.Color), g.Captures(opp)
		err := g.Play(m)
		if st.err != nil {
			if !errors.Is(err, st.err) {
				t.Fatalf("step %d %s: error %v, want %v\n%s", i+1, st.move, err, st.err, before)
			}
			if g.Board().String() != before || g.ToMove() != toMove {
				t.Fatalf("step %d %s: refused move changed the game", i+1, st.move)
			}
			continue
		}
		if err != nil {
			t.Fatalf("step %d %s: %v\n%s", i+1, st.move, err, before)
		}
		if got := g.Captures(m.Color) - capsBefore; got != st.caps {
			t.Fatalf("step %d %s: captured %d, want %d\n%s", i+1, st.move, got, st.caps, g.Board())
		}
		if got := g.Captures(opp) - lostBefore; got != st.lost {
			t.Fatalf("step %d %s: lost %d own stones, want %d\n%s", i+1, st.move, got, st.lost, g.Board())
		}
	}
}

// sameDiagram compares two diagrams ignoring spacing and blank lines.
func sameDiagram(a, b string) bool {
	norm := func(s string) string {
		var rows []string
		for _, line := range strings.Split(s, "\n") {
			if r := strings.Join(strings.Fields(line), ""); r != "" {
				rows = append(rows, r)
			}
		}
		return strings.Join(rows, "\n")
	}
	return norm(a) == norm(b)
}

// The diagrams shared by several tests.
const (
	// H Dia. 5 right, W "Zwei schwierige Situationen" A: D4 would take the
	// last liberty of three black stones and capture nothing.
	diaSuicide = `
O O O O . . .
X X X . O . .
O O O O . . .
. . . . . . .
. . . . . . .`

	// H Dia. 10, P §7: a black chain enclosed by White holds three white
	// stones and the two shared free points A1 and E1. (With only two
	// white stones inside it is no seki: White fills, gives up three
	// stones and kills the straight three left; see tsumego's tests.)
	diaSeki = `
. . . . . . . .
. . . . . . . .
O O O O O O O .
X X X X X X O .
. O O O . X O .`

	// J89 Art. 8: seki in which each side also has one eye (A1 black, E1
	// white) and C1 is shared.
	diaSekiEyes = `
. O X . . . . .
O O X . . . . .
. O X . . . . .
O O X X X X X X
X X O O O O X .
. X . O . O X .`

	// H Dia. 11: Black the left side, White the right, D1 the neutral
	// point A, H7 a dead black stone.
	diaEnd = `
. . . X O O . . .
. . . X O O . . .
. . . X O O . X .
. . . X O O . . .
. . . X O O . . .
. . . X O O O . .
. . . X O O O . .
. . X X O O O . .
. . X . O O O . .`

	// S's 13×13 example, built to its numbers; the moves in s13Moves make
	// the captures (Black takes 2, White 3) before both pass.
	diaS13 = `
. . . . . . . . . . O O O
. . . . . O O O O . . . .
. . . X X X X X X X X X X
X X X X X X X X X X X X X
X X X X X O O . X X X X X
X X X X X X X X X X X X X
. O O O O O O O O O O O O
O O O O O O O O O O O O O
O O X X X . O O O O O O O
O O O O O O O O O O O O O
. . . . . . . O O O O O O
. . . X . . . . . . . . .
. . . . . . . . . . . . .`

	// Three independent kos for the whole-board repetition tests: Black can
	// capture at C8 and C3, White at H8 (also used against GNU Go).
	diaTripleKo = goban.TripleKo
)

var s13Moves = []string{"B H9", "W F5", "B F9", "W C5", "B G9", "W D5", "B pass", "W E5", "B pass", "W pass"}

// tripleKoCycle returns to diaTripleKo's position with Black to move; each
// side captures three stones.
var tripleKoCycle = goban.TripleKoCycle

// TestSeedLiberties: H Dia. 3 — four liberties in the centre, three on the
// edge, two in the corner; two white stones in a chain share six.
func TestSeedLiberties(t *testing.T) {
	b, err := goban.ParseBoard(`
. . . . . . .
. . . . . . .
. X . . . . .
. . . . O O .
. . . . . . .
. . . . . . .
X . . O . . .`)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		v          string
		libs, size int
	}{
		{"B5", 4, 1}, {"D1", 3, 1}, {"A1", 2, 1}, {"E4", 6, 2}, {"F4", 6, 2},
	} {
		p, _, err := goban.ParseVertex(tc.v, b.Width(), b.Height())
		if err != nil {
			t.Fatal(err)
		}
		l := b.Loc(p)
		if got := b.Liberties(l); got != tc.libs {
			t.Errorf("%s: %d liberties, want %d", tc.v, got, tc.libs)
		}
		if got := b.ChainSize(l); got != tc.size {
			t.Errorf("%s: chain of %d, want %d", tc.v, got, tc.size)
		}
	}
}

// TestSeedMoves plays the seeds' capture, suicide and ko situations.
func TestSeedMoves(t *testing.T) {
	for _, tc := range []struct {
		name, source, rules, diagram string
		toMove                       goban.Color
		steps                        []step
		final                        string // the board afterwards, if checked
	}{
		{
			name: "three captures", source: "H Dia. 4", rules: "japanese", toMove: goban.Black,
			diagram: `
O O X . . . . . .
O X . . . . . . .
. . . . . . . . .
. . . O O . . . .
. . O X X O . . .
. . . . O . . . .
. . . . . . . . .
. . . . . . . . .
. . . X O X . . .`,
			steps: []step{{move: "B E2", caps: 1}, {move: "W D4", caps: 2}, {move: "B A7", caps: 3}},
			final: `
. . X . . . . . .
. X . . . . . . .
X . . . . . . . .
. . . O O . . . .
. . O . . O . . .
. . . O O . . . .
. . . . . . . . .
. . . . X . . . .
. . . X . X . . .`,
		},
		{
			name: "single-stone suicide", source: "H Dia. 5 left", rules: "tromp-taylor", toMove: goban.Black,
			diagram: `
. . . . .
. . O . .
. O . O .
. . O . .
. . . . .`,
			steps: []step{{move: "B C3", err: goban.ErrSuicide}, {move: "B A1"}, {move: "W C3"}},
		},
		{
			name: "multi-stone suicide forbidden", source: "H Dia. 5 right, W Zwei schwierige Situationen A",
			rules: "japanese", toMove: goban.Black, diagram: diaSuicide,
			steps: []step{{move: "B D4", err: goban.ErrSuicide}},
		},
		{
			name: "multi-stone suicide, korean", source: "H Dia. 5 right", rules: "korean", toMove: goban.Black,
			diagram: diaSuicide, steps: []step{{move: "B D4", err: goban.ErrSuicide}},
		},
		{
			name: "multi-stone suicide, chinese", source: "H Dia. 5 right", rules: "chinese", toMove: goban.Black,
			diagram: diaSuicide, steps: []step{{move: "B D4", err: goban.ErrSuicide}},
		},
		{
			name: "multi-stone suicide, aga", source: "H Dia. 5 right", rules: "aga", toMove: goban.Black,
			diagram: diaSuicide, steps: []step{{move: "B D4", err: goban.ErrSuicide}},
		},
		{
			name: "multi-stone suicide, online", source: "S (no play without liberties)", rules: "online",
			toMove: goban.Black, diagram: diaSuicide, steps: []step{{move: "B D4", err: goban.ErrSuicide}},
		},
		{
			name: "multi-stone suicide allowed, new-zealand", source: "RULES.md §3", rules: "new-zealand",
			toMove: goban.Black, diagram: diaSuicide, steps: []step{{move: "B D4", lost: 4}},
			final: `
O O O O . . .
. . . . O . .
O O O O . . .
. . . . . . .
. . . . . . .`,
		},
		{
			name: "multi-stone suicide allowed, tromp-taylor", source: "RULES.md §3", rules: "tromp-taylor",
			toMove: goban.Black, diagram: diaSuicide, steps: []step{{move: "B D4", lost: 4}},
		},
		{
			name: "multi-stone suicide allowed, pfaundler", source: "P §5, §6 note 1", rules: "pfaundler",
			toMove: goban.Black, diagram: diaSuicide, steps: []step{{move: "B D4", lost: 4}},
		},
		{
			name: "capture goes first", source: "H S. 8 Schlagen geht vor, W Zwei schwierige Situationen B",
			rules: "japanese", toMove: goban.Black, diagram: `
. . . . . . .
O O O O X . .
X X X . O X .
O O O O X . .
. . . . . . .
. . . . . . .
. . . . . . .`,
			steps: []step{{move: "B D5", caps: 1}},
			final: `
. . . . . . .
O O O O X . .
X X X X . X .
O O O O X . .
. . . . . . .
. . . . . . .
. . . . . . .`,
		},
		{
			name: "centre ko and ko threat", source: "H Dia. 6.1, 6.2, 7; P §6 Fig. 22; W Regel 3",
			rules: "japanese", toMove: goban.Black, diagram: `
. . . . . . .
. . . . . . .
. . X O . . .
. X O . O . .
. . X O . . .
. . . . . . .
. . . . . . .`,
			steps: []step{
				{move: "B D4", caps: 1},
				{move: "W C4", err: goban.ErrKo},
				{move: "W G7"}, {move: "B G6"},
				{move: "W C4", caps: 1},
				{move: "B D4", err: goban.ErrKo},
			},
		},
		{
			name: "ko filled", source: "P §6 (das Ko ausgefüllt)", rules: "japanese", toMove: goban.Black,
			diagram: `
. . . . . . .
. . . . . . .
. . X O . . .
. X O . O . .
. . X O . . .
. . . . . . .
. . . . . . .`,
			steps: []step{{move: "B D4", caps: 1}, {move: "W G7"}, {move: "B C4"}},
		},
		{
			name: "corner ko", source: "P §6 Fig. 20", rules: "japanese", toMove: goban.Black, diagram: `
. . . . .
. . . . .
X . . . .
O X . . .
. O . . .`,
			steps: []step{
				{move: "B A1", caps: 1}, {move: "W A2", err: goban.ErrKo},
				{move: "W C3"}, {move: "B C4"}, {move: "W A2", caps: 1},
			},
		},
		{
			name: "edge ko", source: "P §6 Fig. 21", rules: "japanese", toMove: goban.Black, diagram: `
. . . . .
X . . . .
O X . . .
. O . . .
O . . . .`,
			steps: []step{{move: "B A2", caps: 1}, {move: "W A3", err: goban.ErrKo}},
		},
		{
			name: "two stones taken, one retaken at once", source: "P §6 Fig. 24; H S. 9 (mehrere Steine)",
			rules: "japanese", toMove: goban.White, diagram: `
. . . . . . .
. . . . . . .
. . O O X . .
. O X X . X .
. . O O X . .
. . . . . . .
. . . . . . .`,
			steps: []step{{move: "W E4", caps: 2}, {move: "B D4", caps: 1}, {move: "W E4", err: goban.ErrSuicide}},
		},
		{
			name: "two eyes", source: "H Dia. 8", rules: "japanese", toMove: goban.White, diagram: `
. . . . . .
O O O O O .
X X X X O .
. X . X O .
X X X X O .`,
			steps: []step{{move: "W A2", err: goban.ErrSuicide}, {move: "W C2", err: goban.ErrSuicide}},
		},
		{
			name: "false eye: dead", source: "H Dia. 9", rules: "japanese", toMove: goban.White, diagram: `
. . . . . .
O O O O O .
X X X O . .
. X . X O .`,
			steps: []step{
				{move: "W A1", err: goban.ErrSuicide},
				{move: "W C1", caps: 1},
				{move: "B D1", err: goban.ErrKo},
				{move: "B F4"},
				{move: "W A1", caps: 4},
			},
		},
		{
			name: "seki, Black moves first and dies", source: "H Dia. 10; P §7 Fig. 25", rules: "japanese",
			toMove: goban.Black, diagram: diaSeki, steps: []step{{move: "B A1"}, {move: "W E1", caps: 8}},
		},
		{
			name: "seki, White moves first and dies", source: "H Dia. 10; P §7 Fig. 25", rules: "japanese",
			toMove: goban.White, diagram: diaSeki, steps: []step{{move: "W A1"}, {move: "B E1", caps: 4}},
		},
		{
			name: "seki with eyes, Black fills the shared point", source: "J89 Art. 8", rules: "japanese",
			toMove: goban.Black, diagram: diaSekiEyes, steps: []step{{move: "B C1"}, {move: "W A1", caps: 4}},
		},
		{
			name: "seki with eyes, White fills the shared point", source: "J89 Art. 8", rules: "japanese",
			toMove: goban.White, diagram: diaSekiEyes, steps: []step{{move: "W C1"}, {move: "B E1", caps: 7}},
		},
		{
			name: "straight three killed at the vital point", source: "P §14", rules: "japanese",
			toMove: goban.White, diagram: `
. . . . . .
O O O O O .
X X X X O .
. . . X O .`,
			steps: []step{
				{move: "W B1"}, {move: "B pass"}, {move: "W A1"}, {move: "B C1", caps: 2},
				{move: "W B1"}, {move: "B pass"}, {move: "W A1", caps: 6},
			},
		},
		{
			name: "straight three saved at the vital point", source: "P §14", rules: "japanese",
			toMove: goban.Black, diagram: `
. . . . . .
O O O O O .
X X X X O .
. . . X O .`,
			steps: []step{{move: "B B1"}, {move: "W A1", err: goban.ErrSuicide}, {move: "W C1", err: goban.ErrSuicide}},
		},
		{
			name: "two connected free points, no answer", source: "P §5 Fig. 18", rules: "japanese",
			toMove: goban.White, diagram: `
. . . . . . .
. O O O O . .
O X X X X O .
O X . . X O .
O X X X X O .
. O O O O . .
. . . . . . .`,
			steps: []step{{move: "W C4"}, {move: "B pass"}, {move: "W D4", caps: 10}},
		},
		{
			name: "two connected free points, Black takes", source: "P §5 Fig. 18", rules: "japanese",
			toMove: goban.White, diagram: `
. . . . . . .
. O O O O . .
O X X X X O .
O X . . X O .
O X X X X O .
. O O O O . .
. . . . . . .`,
			steps: []step{{move: "W C4"}, {move: "B D4", caps: 1}, {move: "W C4", caps: 11}},
		},
		{
			name: "two separate free points", source: "P §5 Fig. 19", rules: "japanese", toMove: goban.White,
			diagram: `
. . . . . . .
. O O O O O .
O X X X X X O
O X . X . X O
O X X X X X O
. O O O O O .
. . . . . . .`,
			steps: []step{{move: "W C4", err: goban.ErrSuicide}, {move: "W E4", err: goban.ErrSuicide}},
		},
		{
			name: "inserted stone completes the enclosure", source: "P §5 Fig. 13", rules: "japanese",
			toMove: goban.White, diagram: `
. . . . .
. . . . .
O . . . .
X O . . .
. X . . .`,
			steps: []step{{move: "W A1", caps: 1}},
		},
		{
			name: "inserted stone into an intact corner chain", source: "P §5 Fig. 1", rules: "pfaundler",
			toMove: goban.White, diagram: `
. . . . .
. . . . .
. . . . .
X . . . .
. X . . .`,
			steps: []step{{move: "W A1", err: goban.ErrSuicide}},
		},
		{
			name: "snapback", source: "P §16 Spielfallen; issue 2", rules: "japanese", toMove: goban.Black,
			diagram: `
. . . . .
. . . . .
X X . . .
O O X . .
. . X . .`,
			steps: []step{{move: "B A1"}, {move: "W B1", caps: 1}, {move: "B A1", caps: 3}},
		},
		{
			name: "capture in the centre and in the corner", source: "W Regel 2", rules: "japanese",
			toMove: goban.White, diagram: `
. . . . .
. . O . .
. O X O .
. . . . .
X O . . .`,
			steps: []step{{move: "W C2", caps: 1}, {move: "B D1"}, {move: "W A2", caps: 1}},
		},
		{
			name: "a chain of two stones", source: "W Regel 2 (Schwarz setzt auf A)", rules: "japanese",
			toMove: goban.Black, diagram: `
. . . . .
. . O . .
. O X O .
. . . . .
X O . . .`,
			steps: []step{
				{move: "B C2"}, {move: "W B2"}, {move: "B pass"}, {move: "W D2"}, {move: "B pass"},
				{move: "W C1", caps: 2},
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := seedGame(t, tc.diagram, tc.rules, tc.toMove)
			play(t, g, tc.steps)
			if tc.final != "" && !sameDiagram(g.Board().String(), tc.final) {
				t.Errorf("%s: board\n%s\nwant\n%s", tc.source, g.Board(), tc.final)
			}
		})
	}
}

// TestSeedFirstLineCrawl: P §16 Fig. 104, "der gerade Balken" — a stone
// that crawls along the edge under a white wall dies with all its
// followers. The moves are written in Korschelt's notation (P §3).
func TestSeedFirstLineCrawl(t *testing.T) {
	g := goban.MustNewGame(19, 19, goban.MustRuleset("japanese"))
	g.SetToMove(goban.White)
	moves := "a7 a6 b6 a5 b5 a4 b4 a3 b3 a2 b2 a1 b1"
	for i, v := range strings.Fields(moves) {
		p, err := goban.ParseKorschelt(v, 19, 19)
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Play(goban.PlayAt(g.ToMove(), p)); err != nil {
			t.Fatalf("move %d %s: %v", i+1, v, err)
		}
	}
	if g.Captures(goban.White) != 6 || g.Captures(goban.Black) != 0 {
		t.Fatalf("captures B %d W %d, want 0 and 6", g.Captures(goban.Black), g.Captures(goban.White))
	}
}

// TestSeedScores counts the seeds' final positions.
func TestSeedScores(t *testing.T) {
	type side struct{ territory, prisoners, stones int }
	for _, tc := range []struct {
		name, source, rules, diagram string
		moves                        []string // played from Black's turn before counting
		komi                         float64
		dead                         []string
		black, white                 side
		blackTotal, whiteTotal       float64
		result                       string
		seki                         []string // some stones that must be in seki
	}{
		{
			name: "seki scores nothing", source: "H Dia. 10; P §7", rules: "japanese", diagram: diaSeki,
			black: side{0, 0, 7}, white: side{19, 0, 12}, blackTotal: 0, whiteTotal: 19, result: "W+19",
			seki: []string{"A2", "F1", "B1", "C1"},
		},
		{
			name: "seki under area scoring", source: "H Dia. 10; KataGo chinese", rules: "chinese", diagram: diaSeki,
			black: side{0, 0, 7}, white: side{19, 0, 12}, blackTotal: 7, whiteTotal: 31, result: "W+24",
		},
		{
			name: "eyes in seki are no territory", source: "J89 Art. 8; Jasiek (Seki-Stellungen ohne Gebiet)",
			rules: "japanese", diagram: diaSekiEyes,
			black: side{17, 0, 14}, white: side{2, 0, 12}, blackTotal: 17, whiteTotal: 2, result: "B+15",
			seki: []string{"B1", "A2", "D1", "C2"},
		},
		{
			name: "eyes in seki count under area scoring", source: "KataGo chinese", rules: "chinese",
			diagram: diaSekiEyes,
			black:   side{18, 0, 14}, white: side{3, 0, 12}, blackTotal: 32, whiteTotal: 15, result: "B+17",
		},
		{
			name: "end of the game", source: "H Dia. 11", rules: "japanese", diagram: diaEnd,
			moves: []string{"B pass", "W pass"}, dead: []string{"H7"},
			black: side{25, 0, 10}, white: side{23, 1, 22}, blackTotal: 25, whiteTotal: 24, result: "B+1",
		},
		{
			name: "end of the game, neutral point filled", source: "H Dia. 11 (A besetzt)", rules: "japanese",
			diagram: diaEnd, moves: []string{"B D1", "W pass", "B pass"}, dead: []string{"H7"},
			black: side{25, 0, 11}, white: side{23, 1, 22}, blackTotal: 25, whiteTotal: 24, result: "B+1",
		},
		{
			name: "jigo", source: "W (Bei Gleichstand … Jigo); H Dia. 11 with komi 1", rules: "japanese",
			diagram: diaEnd, moves: []string{"B pass", "W pass"}, komi: 1, dead: []string{"H7"},
			black: side{25, 0, 10}, white: side{23, 1, 22}, blackTotal: 25, whiteTotal: 25, result: "0",
		},
		{
			name: "end of the game by the server formula", source: "H Dia. 11; S", rules: "online", diagram: diaEnd,
			moves: []string{"B pass", "W pass"}, dead: []string{"H7"},
			black: side{25, 0, 10}, white: side{23, 1, 22}, blackTotal: 24, whiteTotal: 23, result: "B+1",
		},
		{
			name: "server formula", source: "S (13x13 example)", rules: "online", diagram: diaS13, moves: s13Moves,
			komi: 4.5, dead: []string{"L13", "F12", "D2"},
			black: side{29, 9, 49}, white: side{33, 4, 57}, blackTotal: 20.5, whiteTotal: 24, result: "W+3.5",
		},
		{
			name: "same game by territory", source: "S; H S. 7; J89 Art. 10", rules: "japanese", diagram: diaS13,
			moves: s13Moves, komi: 4.5, dead: []string{"N13", "J12", "D2"},
			black: side{29, 9, 49}, white: side{33, 4, 57}, blackTotal: 38, whiteTotal: 41.5, result: "W+3.5",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := seedGame(t, tc.diagram, tc.rules, goban.Black)
			g.SetKomi(tc.komi)
			for _, m := range tc.moves {
				if err := g.Play(move(t, g, m)); err != nil {
					t.Fatalf("%s: %v", m, err)
				}
			}
			var dead []goban.Point
			for _, v := range tc.dead {
				dead = append(dead, point(t, g, v))
			}
			s, err := g.Score(dead)
			if err != nil {
				t.Fatal(err)
			}
			check := func(name string, bd goban.Breakdown, want side, total float64) {
				if bd.Territory != want.territory {
					t.Errorf("%s: %s territory %d, want %d", tc.source, name, bd.Territory, want.territory)
				}
				if got := bd.Captures + bd.Dead; got != want.prisoners {
					t.Errorf("%s: %s prisoners %d (captures %d + dead %d), want %d",
						tc.source, name, got, bd.Captures, bd.Dead, want.prisoners)
				}
				if bd.Stones != want.stones {
					t.Errorf("%s: %s stones %d, want %d", tc.source, name, bd.Stones, want.stones)
				}
				if bd.Total != total {
					t.Errorf("%s: %s total %v, want %v", tc.source, name, bd.Total, total)
				}
			}
			check("Black", s.Black, tc.black, tc.blackTotal)
			check("White", s.White, tc.white, tc.whiteTotal)
			if got := s.Result.String(); got != tc.result {
				t.Errorf("%s: result %s, want %s", tc.source, got, tc.result)
			}
			inSeki := map[goban.Point]bool{}
			for _, p := range s.Seki {
				inSeki[p] = true
			}
			for _, v := range tc.seki {
				if !inSeki[point(t, g, v)] {
					t.Errorf("%s: %s not reported in seki (seki: %v)", tc.source, v, s.Seki)
				}
			}
			if len(tc.seki) == 0 && tc.rules != "chinese" && len(s.Seki) > 0 {
				t.Errorf("%s: no seki expected, got %v", tc.source, s.Seki)
			}
		})
	}
}

// TestSeedSekiStatus: the stones of H Dia. 10 are alive in seki, none dead.
func TestSeedSekiStatus(t *testing.T) {
	b, err := goban.ParseBoard(diaSeki)
	if err != nil {
		t.Fatal(err)
	}
	st, err := b.Statuses(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{"A2", "F2", "F1", "B1", "C1", "D1"} {
		p, _, _ := goban.ParseVertex(v, b.Width(), b.Height())
		if st[p] != goban.Seki {
			t.Errorf("%s: %v, want seki", v, st[p])
		}
	}
	for _, v := range []string{"A3", "G1"} {
		p, _, _ := goban.ParseVertex(v, b.Width(), b.Height())
		if st[p] != goban.Alive {
			t.Errorf("%s: %v, want alive", v, st[p])
		}
	}
}

// TestSeedSchweidler checks Schweidler's rule (P §10) as Pfaundler proves
// it: area margin − territory margin = stones Black put on the board − stones
// White put on the board, here on S's 13×13 game, setup stones included.
func TestSeedSchweidler(t *testing.T) {
	var margins [2]float64
	var placed [2]int // black, white stones put on the board
	for i, rules := range []string{"japanese", "chinese"} {
		g := seedGame(t, diaS13, rules, goban.Black)
		g.SetKomi(0)
		placed = [2]int{g.Board().Stones(goban.Black), g.Board().Stones(goban.White)}
		for _, m := range s13Moves {
			mv := move(t, g, m)
			if err := g.Play(mv); err != nil {
				t.Fatalf("%s: %v", m, err)
			}
			if mv.Kind == goban.Play {
				placed[mv.Color-goban.Black]++
			}
		}
		s, err := g.Score([]goban.Point{point(t, g, "L13"), point(t, g, "F12"), point(t, g, "D2")})
		if err != nil {
			t.Fatal(err)
		}
		margins[i] = s.Margin()
	}
	if goban.White-goban.Black != 1 {
		t.Fatal("test assumes White = Black + 1")
	}
	if got, want := margins[1]-margins[0], float64(placed[0]-placed[1]); got != want {
		t.Errorf("area margin %v − territory margin %v = %v, want %d − %d = %v",
			margins[1], margins[0], got, placed[0], placed[1], want)
	}
	if margins[0] != 1 { // 38 − 37 without komi
		t.Errorf("territory margin %v, want 1", margins[0])
	}
}

// TestSeedDeadGroup: S — marking one stone marks its group: clicking F12 of
// the 13×13 example marks the seven white stones in Black's area.
func TestSeedDeadGroup(t *testing.T) {
	g := seedGame(t, diaS13, "online", goban.Black)
	for _, m := range s13Moves {
		if err := g.Play(move(t, g, m)); err != nil {
			t.Fatal(err)
		}
	}
	b := g.Board()
	dead := b.ToggleGroup(nil, point(t, g, "F12"))
	want := map[string]bool{"F12": true, "G12": true, "H12": true, "J12": true, "L13": true, "M13": true, "N13": true}
	if len(dead) != len(want) {
		t.Fatalf("marked %v, want %d stones", dead, len(want))
	}
	for _, p := range dead {
		if v := goban.FormatVertex(p, g.Height()); !want[v] {
			t.Errorf("marked %s", v)
		}
	}
	if again := b.ToggleGroup(dead, point(t, g, "M13")); len(again) != 0 {
		t.Errorf("second toggle left %v marked", again)
	}
	if d := b.Chain(point(t, g, "F12")); len(d) != 4 {
		t.Errorf("chain of F12 has %d stones, want 4", len(d))
	}
}

// TestSeedRepetition: a whole-board repetition under simple ko (W Regel 3
// Anmerkung, J89 Art. 12, Jasiek's long cycle) and its prohibition under
// superko (W Regel 3, short form).
func TestSeedRepetition(t *testing.T) {
	for _, tc := range []struct {
		rules string
		// illegalAt is the 1-based move of the cycle refused as superko,
		// 0 if none.
		illegalAt int
		// endAt is the move after which the game ends, and result its
		// result; 0 if the game goes on.
		endAt  int
		result string
		// offerAt lists the moves after which the players may agree to
		// end the game without result (J89 Art. 12); the game goes on.
		offerAt []int
	}{
		{rules: "japanese", offerAt: []int{12, 13, 14, 15, 16, 17, 18}},
		{rules: "korean", endAt: 12, result: "Void"},
		{rules: "chinese", endAt: 12, result: "Void"},
		{rules: "online", endAt: 12, result: "Void"},
		{rules: "tromp-taylor", illegalAt: 6},
		{rules: "chinese-ogs", illegalAt: 6},
		{rules: "aga", illegalAt: 6},
		{rules: "new-zealand", illegalAt: 6},
		{rules: "jasiek", endAt: 6, result: "0"},
		{rules: "pfaundler", endAt: 6, result: "0"},
	} {
		t.Run(tc.rules, func(t *testing.T) {
			g := seedGame(t, diaTripleKo, tc.rules, goban.Black)
			for i := 1; i <= 18; i++ {
				m := move(t, g, tripleKoCycle[(i-1)%len(tripleKoCycle)])
				err := g.Play(m)
				if i == tc.illegalAt {
					if !errors.Is(err, goban.ErrSuperko) {
						t.Fatalf("move %d %v: %v, want superko", i, m, err)
					}
					return
				}
				if err != nil {
					t.Fatalf("move %d %v: %v", i, m, err)
				}
				if got, want := g.RepetitionOffered(), slices.Contains(tc.offerAt, i); got != want {
					t.Fatalf("move %d: repetition offered %v, want %v", i, got, want)
				}
				if i != tc.endAt {
					if g.Ended() {
						t.Fatalf("move %d: game ended (%v); want it to end after move %d", i, g.Result(), tc.endAt)
					}
					continue
				}
				if !g.Ended() {
					t.Fatalf("move %d: game goes on; want it to end with %s", i, tc.result)
				}
				if got := g.Result().String(); got != tc.result {
					t.Fatalf("result %s, want %s", got, tc.result)
				}
				if err := g.Play(move(t, g, tripleKoCycle[i%len(tripleKoCycle)])); !errors.Is(err, goban.ErrGameOver) {
					t.Fatalf("move after the end: %v, want game over", err)
				}
				return
			}
			if tc.endAt == 0 && tc.illegalAt == 0 && len(tc.offerAt) > 0 {
				return // the players never agreed: play went on
			}
			t.Fatal("cycle played 18 moves without the expected outcome")
		})
	}
}

// TestSeedRepetitionAgreed: under the japanese ruleset the triple ko ends
// the game without result only when both players agree (J89 Art. 12). Every
// play of the cycle from the third occurrence on repeats a situation for the
// third time, so the offer stands while the cycle goes on.
func TestSeedRepetitionAgreed(t *testing.T) {
	for _, tc := range []struct {
		name   string
		moves  int // moves of the cycle played before agreeing
		agree  bool
		result string
	}{
		{name: "agreed at the third occurrence", moves: 12, agree: true, result: "Void"},
		{name: "too early", moves: 11, agree: false, result: "?"},
		{name: "offered again while the cycle goes on", moves: 13, agree: true, result: "Void"},
		{name: "agreed at the fourth occurrence", moves: 18, agree: true, result: "Void"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := seedGame(t, diaTripleKo, "japanese", goban.Black)
			for i := 1; i <= tc.moves; i++ {
				if err := g.Play(move(t, g, tripleKoCycle[(i-1)%len(tripleKoCycle)])); err != nil {
					t.Fatalf("move %d: %v", i, err)
				}
			}
			err := g.AgreeVoid()
			if (err == nil) != tc.agree {
				t.Fatalf("AgreeVoid: %v, want success %v", err, tc.agree)
			}
			if got := g.Result().String(); got != tc.result {
				t.Fatalf("result %s, want %s", got, tc.result)
			}
			if tc.agree {
				if err := g.Undo(); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// TestSeedSuperkoKinds: the starting position of diaTripleKo recurs with
// White to move after a pass; positional superko forbids it, situational
// superko and simple ko do not.
func TestSeedSuperkoKinds(t *testing.T) {
	seq := []string{"B C8", "W H8", "B pass", "W B8", "B G8"}
	for _, tc := range []struct {
		rules string
		last  error
	}{
		{"tromp-taylor", goban.ErrSuperko},
		{"chinese-ogs", goban.ErrSuperko},
		{"aga", nil},
		{"new-zealand", nil},
		{"japanese", nil},
	} {
		t.Run(tc.rules, func(t *testing.T) {
			g := seedGame(t, diaTripleKo, tc.rules, goban.Black)
			start := g.Board().String()
			var steps []step
			for i, m := range seq {
				st := step{move: m}
				if strings.Contains(m, "8") {
					st.caps = 1
				}
				if i == len(seq)-1 {
					st.err = tc.last
				}
				steps = append(steps, st)
			}
			play(t, g, steps)
			if tc.last == nil && !sameDiagram(g.Board().String(), start) {
				t.Errorf("position after the cycle differs from the start:\n%s", g.Board())
			}
		})
	}
}

// TestSeedAtariGo: W — "Gewonnen hat, wer als erstes … einen gegnerischen
// Stein schlägt."
func TestSeedAtariGo(t *testing.T) {
	g := seedGame(t, `
. . . . .
. . X . .
. X O X .
. . . . .
. . . . .`, "atari", goban.White)
	play(t, g, []step{{move: "W D2"}, {move: "B C2", caps: 1}})
	if !g.Ended() || g.Result().String() != "B+" || g.Result().Reason != goban.EndCapture {
		t.Fatalf("result %v (ended %v), want B+ by capture", g.Result(), g.Ended())
	}
	if err := g.Play(move(t, g, "W A1")); !errors.Is(err, goban.ErrGameOver) {
		t.Fatalf("move after the capture: %v, want game over", err)
	}
	if k := goban.MustRuleset("atari").DefaultKomi(9, 9, 0); k != 0 {
		t.Errorf("atari komi %v, want 0", k)
	}
}

// TestSeedAtariGoNoVoluntaryPass: docs/RULES.md §9 — W introduces passing
// only with the territory goal, so in Atari-Go a pass is legal only when no
// stone can be played; the other rulesets allow it always.
func TestSeedAtariGoNoVoluntaryPass(t *testing.T) {
	// White's chain has four eyes: every black stone is a suicide that
	// captures nothing, while White may fill an eye.
	const noBlackPlay = `
. O .
O O O
. O .`
	for _, tc := range []struct {
		name, rules, diagram string
		color                goban.Color
		err                  error // nil: the pass is legal
	}{
		{"empty board", "atari", "", goban.Black, goban.ErrPassNotAllowed},
		{"empty board, White", "atari", "", goban.White, goban.ErrPassNotAllowed},
		{"no black stone can be played", "atari", noBlackPlay, goban.Black, nil},
		{"White can fill an eye", "atari", noBlackPlay, goban.White, goban.ErrPassNotAllowed},
		{"japanese, empty board", "japanese", "", goban.Black, nil},
		{"tromp-taylor, empty board", "tromp-taylor", "", goban.White, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var g *goban.Game
			if tc.diagram == "" {
				g = goban.MustNewGame(5, 5, ruleset(t, tc.rules))
				g.SetToMove(tc.color)
			} else {
				g = seedGame(t, tc.diagram, tc.rules, tc.color)
			}
			var st step
			st.move, st.err = tc.color.Letter()+" pass", tc.err
			play(t, g, []step{st})
			if tc.err == nil && (g.ToMove() != tc.color.Opponent() || g.Ended()) {
				t.Errorf("after the pass: %v to move, ended %v; want %v, not ended", g.ToMove(), g.Ended(), tc.color.Opponent())
			}
		})
	}
}

// TestSeedPfaundlerHandicapIsDefault: under the pfaundler ruleset the
// historic placement of P §9 is the default, whoever places the stones
// (docs/RULES.md §10), and no other ruleset places more than nine stones.
func TestSeedPfaundlerHandicapIsDefault(t *testing.T) {
	for _, tc := range []struct {
		rules string
		n     int
		want  string // sorted GTP vertices, "" for an error
	}{
		{"pfaundler", 10, "C3 D4 D10 D16 K4 K10 K16 Q4 Q10 Q16"},
		{"pfaundler", 13, "C3 C17 D4 D10 D16 K4 K10 K16 Q4 Q10 Q16 R3 R17"},
		{"pfaundler", 9, "D4 D10 D16 K4 K10 K16 Q4 Q10 Q16"},
		{"japanese", 10, ""},
		{"chinese", 13, ""},
	} {
		t.Run(fmt.Sprintf("%s %d", tc.rules, tc.n), func(t *testing.T) {
			r := goban.MustRuleset(tc.rules)
			g := goban.MustNewGame(19, 19, r)
			err := g.SetHandicap(tc.n, false)
			if tc.want == "" {
				if err == nil {
					t.Fatal("no error")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			_, pts := g.Handicap()
			if got := sortedVertices(pts, 19); got != tc.want {
				t.Errorf("stones %s, want %s", got, tc.want)
			}
			if got, want := r.MaxFixedHandicap(19, 19), 13; got != want {
				t.Errorf("MaxFixedHandicap %d, want %d", got, want)
			}
		})
	}
	if got := goban.MustRuleset("japanese").MaxFixedHandicap(19, 19); got != 9 {
		t.Errorf("japanese MaxFixedHandicap %d, want 9", got)
	}
	if got := goban.MustRuleset("pfaundler").MaxFixedHandicap(13, 13); got != 9 {
		t.Errorf("pfaundler on 13×13: MaxFixedHandicap %d, want 9", got)
	}
}

// TestSeedHandicap: W's handicap table and rules, P §9's thirteen stones.
func TestSeedHandicap(t *testing.T) {
	// W: c and g, then i, ... on 19×19 (a b c along the top row).
	want := map[int]string{
		2: "D4 Q16",
		3: "D4 Q4 Q16",
		4: "D4 D16 Q4 Q16",
		5: "D4 D16 K10 Q4 Q16",
		6: "D4 D10 D16 Q4 Q10 Q16",
		7: "D4 D10 D16 K10 Q4 Q10 Q16",
		8: "D4 D10 D16 K4 K16 Q4 Q10 Q16",
		9: "D4 D10 D16 K4 K10 K16 Q4 Q10 Q16",
	}
	for n := 2; n <= 9; n++ {
		pts, err := goban.FixedHandicap(19, 19, n, false)
		if err != nil {
			t.Fatalf("%d stones: %v", n, err)
		}
		if got := sortedVertices(pts, 19); got != want[n] {
			t.Errorf("W table, %d stones: %s, want %s", n, got, want[n])
		}
	}
	if _, err := goban.FixedHandicap(19, 19, 10, false); err == nil {
		t.Error("10 fixed stones without the historic option: no error")
	}
	// P §9: after the nine star points c3, c17, r3, r17 (Korschelt).
	pts, err := goban.FixedHandicap(19, 19, 13, true)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, p := range pts {
		got[goban.FormatKorschelt(p, 19)] = true
	}
	for _, v := range []string{"d4", "d10", "d16", "k4", "k10", "k16", "q4", "q10", "q16", "c3", "c17", "r3", "r17"} {
		if !got[v] {
			t.Errorf("P §9, 13 stones: %s missing from %v", v, pts)
		}
	}
	for n := 10; n <= 12; n++ {
		pts, err := goban.FixedHandicap(19, 19, n, true)
		if err != nil || len(pts) != n {
			t.Errorf("P §9, %d stones: %d points, %v", n, len(pts), err)
		}
	}

	// W: handicap 1 places nothing, Black moves, White gets 0.5.
	g := goban.MustNewGame(19, 19, goban.MustRuleset("japanese"))
	if err := g.SetHandicap(1, false); err != nil {
		t.Fatal(err)
	}
	if g.ToMove() != goban.Black || g.Komi() != 0.5 || g.Board().Stones(goban.Black) != 0 {
		t.Errorf("handicap 1: to move %v, komi %v, %d black stones; want black, 0.5, 0",
			g.ToMove(), g.Komi(), g.Board().Stones(goban.Black))
	}
	// W: with two or more stones White moves first; komi 0.5.
	for _, rules := range []string{"japanese", "chinese", "aga", "online"} {
		g := goban.MustNewGame(19, 19, goban.MustRuleset(rules))
		if err := g.SetHandicap(4, false); err != nil {
			t.Fatal(err)
		}
		if g.ToMove() != goban.White || g.Komi() != 0.5 || g.Board().Stones(goban.Black) != 4 {
			t.Errorf("%s, 4 stones: to move %v, komi %v, %d black stones", rules, g.ToMove(), g.Komi(), g.Board().Stones(goban.Black))
		}
	}
	// Area rulesets compensate White: N, N−1 or nothing.
	for _, tc := range []struct {
		rules string
		bonus float64
	}{{"chinese", 4}, {"aga", 3}, {"new-zealand", 0}, {"tromp-taylor", 0}} {
		g := goban.MustNewGame(19, 19, goban.MustRuleset(tc.rules))
		if err := g.SetHandicap(4, false); err != nil {
			t.Fatal(err)
		}
		s, err := g.Score(nil)
		if err != nil {
			t.Fatal(err)
		}
		if s.White.HandicapBonus != tc.bonus {
			t.Errorf("%s: handicap bonus %v, want %v", tc.rules, s.White.HandicapBonus, tc.bonus)
		}
	}
	// S: free placement, all stones at once before White's first move.
	g = goban.MustNewGame(13, 13, goban.MustRuleset("online"))
	if !g.Rules().FreeHandicap {
		t.Error("online: handicap placement is not free")
	}
	if err := g.PlaceHandicap([]goban.Point{{X: 0, Y: 0}, {X: 6, Y: 6}, {X: 12, Y: 12}}); err != nil {
		t.Fatal(err)
	}
	if g.ToMove() != goban.White {
		t.Errorf("online after free handicap: %v to move, want white", g.ToMove())
	}
	// Fixed placement under Japanese rules, free under Chinese (W Anmerkung).
	if goban.MustRuleset("japanese").FreeHandicap || !goban.MustRuleset("chinese").FreeHandicap {
		t.Error("japanese must use fixed and chinese free handicap placement")
	}
}

// TestSeedPfaundlerHandicap: P §9 — "Hierauf beginnt Schwarz mit dem ersten
// Zuge": after the handicap stones Black moves first, and there is no komi.
func TestSeedPfaundlerHandicap(t *testing.T) {
	r := ruleset(t, "pfaundler")
	g := goban.MustNewGame(19, 19, r)
	if err := g.SetHandicap(13, true); err != nil {
		t.Fatal(err)
	}
	if g.ToMove() != goban.Black || g.Komi() != 0 {
		t.Errorf("pfaundler, 13 stones: %v to move, komi %v; want black, 0", g.ToMove(), g.Komi())
	}
}

func sortedVertices(pts []goban.Point, height int) string {
	vs := make([]string, len(pts))
	for i, p := range pts {
		vs[i] = goban.FormatVertex(p, height)
	}
	// Sort by column letter, then by row number.
	for i := 1; i < len(vs); i++ {
		for j := i; j > 0 && lessVertex(vs[j], vs[j-1]); j-- {
			vs[j], vs[j-1] = vs[j-1], vs[j]
		}
	}
	return strings.Join(vs, " ")
}

func lessVertex(a, b string) bool {
	if a[0] != b[0] {
		return a[0] < b[0]
	}
	var ra, rb int
	fmt.Sscanf(a[1:], "%d", &ra)
	fmt.Sscanf(b[1:], "%d", &rb)
	return ra < rb
}

// TestSeedKomi: S's komi by board size, the other rulesets' defaults, W's
// handicap komi.
func TestSeedKomi(t *testing.T) {
	for _, tc := range []struct {
		rules          string
		size, handicap int
		komi           float64
	}{
		{"online", 19, 0, 5.5}, {"online", 13, 0, 4.5}, {"online", 9, 0, 3.5},
		{"japanese", 19, 0, 6.5}, {"korean", 9, 0, 6.5}, {"chinese", 19, 0, 7.5}, {"aga", 13, 0, 7.5},
		{"new-zealand", 19, 0, 7}, {"tromp-taylor", 9, 0, 7.5},
		{"japanese", 19, 1, 0.5}, {"chinese", 19, 4, 0.5}, {"online", 9, 2, 0.5},
	} {
		if got := goban.MustRuleset(tc.rules).DefaultKomi(tc.size, tc.size, tc.handicap); got != tc.komi {
			t.Errorf("%s %dx%d handicap %d: komi %v, want %v", tc.rules, tc.size, tc.size, tc.handicap, got, tc.komi)
		}
	}
}

// TestSeedOnlineKomiOtherSizes: docs/RULES.md extends S's three sizes: the
// value of the largest listed size not larger than the board's smaller side.
func TestSeedOnlineKomiOtherSizes(t *testing.T) {
	r := goban.MustRuleset("online")
	for _, tc := range []struct {
		w, h int
		komi float64
	}{{7, 7, 3.5}, {11, 11, 3.5}, {15, 15, 4.5}, {19, 13, 4.5}, {21, 21, 5.5}} {
		if got := r.DefaultKomi(tc.w, tc.h, 0); got != tc.komi {
			t.Errorf("online komi on %dx%d is %v; docs/RULES.md (Named rulesets) asks for %v",
				tc.w, tc.h, got, tc.komi)
		}
	}
}

// TestSeedPfaundlerKomi: P counts without komi (§8, §10).
func TestSeedPfaundlerKomi(t *testing.T) {
	r := ruleset(t, "pfaundler")
	if k := r.DefaultKomi(19, 19, 0); k != 0 {
		t.Errorf("pfaundler komi %v, want 0", k)
	}
	if r.Scoring != goban.TerritoryScoring || r.SekiTerritory || !r.MultiStoneSuicide || r.Ko != goban.SimpleKo {
		t.Errorf("pfaundler ruleset %v differs from docs/RULES.md", r)
	}
}

// TestSeedResume: J89 Art. 9.3 — after two passes either player may ask to
// resume; the opponent moves first, and two new passes end the game again.
func TestSeedResume(t *testing.T) {
	g := seedGame(t, diaEnd, "japanese", goban.Black)
	play(t, g, []step{{move: "B pass"}, {move: "W pass"}})
	if !g.Ended() {
		t.Fatal("two passes did not stop the game")
	}
	if err := g.Play(move(t, g, "B D1")); !errors.Is(err, goban.ErrGameOver) {
		t.Fatalf("move after two passes: %v, want game over", err)
	}
	if err := g.Resume(goban.Black); err != nil {
		t.Fatal(err)
	}
	if g.ToMove() != goban.White || g.Ended() {
		t.Fatalf("after Black asks to resume: %v to move, ended %v; want white, not ended", g.ToMove(), g.Ended())
	}
	play(t, g, []step{{move: "W D1"}, {move: "B pass"}})
	if g.Ended() {
		t.Fatal("one pass after resumption ended the game")
	}
	play(t, g, []step{{move: "W pass"}})
	if !g.Ended() {
		t.Fatal("two new passes did not stop the game")
	}
}

// TestSeedBenson: H Dia. 8 is alive unconditionally, H Dia. 9 is not.
func TestSeedBenson(t *testing.T) {
	for _, tc := range []struct {
		name, diagram string
		alive         int
	}{
		{"H Dia. 8", `
. . . . . .
O O O O O .
X X X X O .
. X . X O .
X X X X O .`, 10},
		{"H Dia. 9", `
. . . . . .
O O O O O .
X X X O . .
. X . X O .`, 0},
	} {
		b, err := goban.ParseBoard(tc.diagram)
		if err != nil {
			t.Fatal(err)
		}
		if got := len(b.UnconditionallyAlive(goban.Black)); got != tc.alive {
			t.Errorf("%s: %d black stones unconditionally alive, want %d", tc.name, got, tc.alive)
		}
	}
}

// TestSeedNotation: P §3 — Korschelt's letters a–t without j from the left,
// rows from the bottom; the Japanese numbering from the lower right corner.
func TestSeedNotation(t *testing.T) {
	for _, tc := range []struct {
		korschelt, gtp, japanese string
	}{
		{"a1", "A1", "19-1"},    // "Eckpunkt links unten"
		{"t19", "T19", "1-19"},  // "Eckpunkt rechts oben"
		{"k10", "K10", "10-10"}, // "Mittelpunkt des Brettes"
		{"d4", "D4", "16-4"},
		{"q16", "Q16", "4-16"},
		{"i9", "J9", "11-9"},
		{"s19", "S19", "2-19"},
		{"t1", "T1", "1-1"},
		{"c17", "C17", "17-17"},
		{"r3", "R3", "3-3"},
	} {
		p, err := goban.ParseKorschelt(tc.korschelt, 19, 19)
		if err != nil {
			t.Errorf("%s: %v", tc.korschelt, err)
			continue
		}
		if got := goban.FormatVertex(p, 19); got != tc.gtp {
			t.Errorf("Korschelt %s = GTP %s, want %s", tc.korschelt, got, tc.gtp)
		}
		if got := goban.FormatKorschelt(p, 19); got != tc.korschelt {
			t.Errorf("FormatKorschelt(%v) = %s, want %s", p, got, tc.korschelt)
		}
		if got := goban.FormatJapanese(p, 19, 19); got != tc.japanese {
			t.Errorf("Japanese numbering of %s: %s, want %s", tc.korschelt, got, tc.japanese)
		}
		q, err := goban.ParseJapanese(tc.japanese, 19, 19)
		if err != nil || q != p {
			t.Errorf("ParseJapanese(%s) = %v, %v; want %v", tc.japanese, q, err, p)
		}
	}
	for _, bad := range []string{"j5", "u1", "a0", "a20", ""} {
		if _, err := goban.ParseKorschelt(bad, 19, 19); err == nil {
			t.Errorf("ParseKorschelt(%q): no error", bad)
		}
	}
}
