package gtp

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"tengen/goban"
)

// gameFrom sets up a game from a diagram (X black, O white) with free order.
func gameFrom(t *testing.T, rules string, diagram string) *goban.Game {
	t.Helper()
	b, err := goban.ParseBoard(diagram)
	if err != nil {
		t.Fatal(err)
	}
	g, err := goban.NewGame(b.Width(), b.Height(), goban.MustRuleset(rules))
	if err != nil {
		t.Fatal(err)
	}
	for y := range b.Height() {
		for x := range b.Width() {
			p := goban.Point{X: x, Y: y}
			if c := b.At(p); c != goban.Empty {
				if err := g.Setup(c, p); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	g.SetFreeOrder(true)
	return g
}

func TestRandomPlayerPrefersCaptures(t *testing.T) {
	tests := []struct {
		name    string
		diagram string
		color   goban.Color
		want    []string // acceptable answers
	}{
		{"single capture", `
			. . . . .
			. . . . .
			. . X . .
			. X O X .
			. . . . .`, goban.Black, []string{"C1"}},
		{"two captures", `
			. . . . .
			. X O X .
			. . X . .
			. X O X .
			. . . . .`, goban.Black, []string{"C1", "C5"}},
		{"white captures", `
			O X . . .
			. O . . .
			. . . . .
			. . . . .
			. . . . .`, goban.White, []string{"C5"}},
	}
	for _, tt := range tests {
		for seed := uint64(1); seed <= 50; seed++ {
			g := gameFrom(t, "chinese", tt.diagram)
			m, err := NewRandomPlayer(seed).GenMove(context.Background(), MoveRequest{Game: g, Color: tt.color})
			if err != nil {
				t.Fatal(err)
			}
			got := goban.FormatMoveVertex(m, g.Height())
			ok := false
			for _, w := range tt.want {
				ok = ok || got == w
			}
			if !ok {
				t.Errorf("%s, seed %d: played %s, want one of %v", tt.name, seed, got, tt.want)
			}
		}
	}
}

func TestRandomPlayerKeepsOwnEyes(t *testing.T) {
	// Black's only empty points are its own eyes A1 and E5 and the pair
	// C3 D3, which is no eye yet: Black must play there; once one of them
	// is filled, the other is an eye too and Black passes.
	g := gameFrom(t, "chinese", `
		X X X X .
		X X X X X
		X X . . X
		X X X X X
		. X X X X`)
	for seed := uint64(1); seed <= 20; seed++ {
		m, err := NewRandomPlayer(seed).GenMove(context.Background(), MoveRequest{Game: g.Clone(), Color: goban.Black})
		if err != nil {
			t.Fatal(err)
		}
		if got := goban.FormatMoveVertex(m, 5); got != "C3" && got != "D3" {
			t.Fatalf("seed %d: played %s, want C3 or D3", seed, got)
		}
	}
	if err := g.Play(goban.PlayAt(goban.Black, goban.Point{X: 2, Y: 2})); err != nil {
		t.Fatal(err)
	}
	m, err := NewRandomPlayer(1).GenMove(context.Background(), MoveRequest{Game: g, Color: goban.Black})
	if err != nil {
		t.Fatal(err)
	}
	if m.Kind != goban.Pass {
		t.Errorf("with only own eyes left, played %v; want pass", m)
	}
}

func TestRandomPlayerDeterministic(t *testing.T) {
	play := func(seed uint64) string {
		e, err := NewEngine(Options{Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		var out strings.Builder
		in := "boardsize 9\n" + strings.Repeat("genmove b\ngenmove w\n", 20)
		if err := e.Serve(context.Background(), strings.NewReader(in), &out); err != nil {
			t.Fatal(err)
		}
		return out.String()
	}
	if a, b := play(7), play(7); a != b {
		t.Errorf("same seed, different games:\n%s\n%s", a, b)
	}
	if a, b := play(7), play(8); a == b {
		t.Errorf("different seeds, same game:\n%s", a)
	}
}

// TestRandomSelfPlay plays whole games engine against itself under every
// ruleset and board shape: every generated move must be accepted by the
// engine's own rules (an illegal choice would answer "internal error"), and
// the games must end by two passes or the ruleset's other endings.
func TestRandomSelfPlay(t *testing.T) {
	sizes := [][2]int{{2, 2}, {3, 3}, {5, 5}, {7, 4}, {9, 9}, {13, 13}}
	for _, rules := range goban.RulesetNames() {
		for _, sz := range sizes {
			e, err := NewEngine(Options{Rules: rules, Seed: uint64(sz[0]*100 + sz[1])})
			if err != nil {
				t.Fatal(err)
			}
			c := newPipeClient(t, e)
			ctx := context.Background()
			if _, err := c.Send(ctx, "boardsize", itoa(sz[0]), itoa(sz[1])); err != nil {
				t.Fatal(err)
			}
			colors := [2]string{"b", "w"}
			passes, moves := 0, 0
			for ; passes < 2 && moves < 20*sz[0]*sz[1]; moves++ {
				v, err := c.Send(ctx, "genmove", colors[moves%2])
				if err != nil {
					if strings.Contains(err.Error(), "game over") {
						break // atari go's first capture, or a triple repetition
					}
					t.Fatalf("%s %dx%d move %d: %v", rules, sz[0], sz[1], moves, err)
				}
				if v == "pass" {
					passes++
				} else {
					passes = 0
				}
			}
			if passes < 2 && rules != "atari" {
				if _, err := c.Send(ctx, "genmove", "b"); err == nil || !strings.Contains(err.Error(), "game over") {
					t.Errorf("%s %dx%d: no end after %d moves", rules, sz[0], sz[1], moves)
				}
			}
			if _, err := c.Send(ctx, "final_score"); err != nil {
				t.Errorf("%s %dx%d: final_score: %v", rules, sz[0], sz[1], err)
			}
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestRandomPlayerAtariGoFillsEye checks the one case where the player
// fills its own eye: Atari-Go forbids passing while a stone can be played.
func TestRandomPlayerAtariGoFillsEye(t *testing.T) {
	diagram := `
		X X X X .
		X X X X X
		X X X X X
		X X X X X
		. X X X X`
	for _, tt := range []struct {
		rules string
		pass  bool
	}{{"chinese", true}, {"atari", false}} {
		g := gameFrom(t, tt.rules, diagram)
		m, err := NewRandomPlayer(3).GenMove(context.Background(), MoveRequest{Game: g, Color: goban.Black})
		if err != nil {
			t.Fatal(err)
		}
		if got := m.Kind == goban.Pass; got != tt.pass {
			t.Errorf("%s: played %v; pass = %v, want %v", tt.rules, m, got, tt.pass)
		}
		if err := g.Legal(m); err != nil {
			t.Errorf("%s: %v is illegal: %v", tt.rules, m, err)
		}
	}
}
