package engine

import (
	"context"
	"strings"
	"testing"

	"tengen/goban"
)

// tactic is a regression position: the engine, at a fixed number of
// playouts with a fixed seed and one thread, must play one of want and
// none of avoid.
type tactic struct {
	name     string
	diagram  string
	toMove   goban.Color
	komi     float64
	want     []string
	avoid    []string
	playouts int
}

var tactics = []tactic{
	{
		name: "capture the chain in atari",
		diagram: `
			. . . . . . .
			. . X X . . .
			. X O O X . .
			. . X O X . .
			. . . . . . .
			. . . . . . .
			. . . . . . .`,
		toMove: goban.Black, komi: 0.5, want: []string{"D3"},
	},
	{
		name: "escape from atari",
		diagram: `
			. . . . . . .
			. . O O . . .
			. O X X O . .
			. . O X O . .
			. . . . . . .
			. . . . . . .
			. . . . . . .`,
		toMove: goban.Black, komi: 0.5, want: []string{"D3"},
	},
	{
		// The black stone on D6 is in atari; extending at E6 runs into a
		// ladder that White wins, so the extension must not be played.
		name: "do not escape into a working ladder",
		diagram: `
			. . . . . . . . .
			. . . . . . . . .
			. . . O O . . . .
			. . O X . . . . .
			. . . O . . . . .
			. . . . . . . . .
			. . . . . . . . .
			. . . . . . . . .
			. . . . . . . . .`,
		toMove: goban.Black, komi: 0.5, avoid: []string{"E6"},
	},
	{
		// Black's group has two liberties; the white pair on A2 and B2 can only be taken by the snapback
		// throw-in at B1 (GNU Go 3.8 at level 10 agrees); A1 fails.
		name: "snapback",
		diagram: `
			. X . O .
			X X X O .
			X X X O .
			O O X O .
			. . O O .`,
		toMove: goban.Black, komi: 0.5, want: []string{"B1"}, avoid: []string{"A1"},
	},
	{
		// Filling the liberty at E1 would put Black's own eight stones in
		// atari.
		name: "no self-atari of a big group",
		diagram: `
			. . . . . . .
			. . . . . . .
			O O O O O O .
			X X X X X O .
			X . X . X O .`,
		toMove: goban.Black, komi: 0.5, avoid: []string{"B1", "D1"},
	},
	{
		// Black's group has a straight three eye space on the edge; the
		// middle point B5 makes two eyes, and with komi −9.5 life decides
		// the game (GNU Go 3.8 at level 10 agrees for both colours).
		name: "live with the vital point",
		diagram: `
			. . . X O
			X X X X O
			O O O O O
			. . . . .
			. . . . .`,
		toMove: goban.Black, komi: -9.5, want: []string{"B5"},
	},
	{
		name: "kill on the vital point",
		diagram: `
			. . . X O
			X X X X O
			O O O O O
			. . . . .
			. . . . .`,
		toMove: goban.White, komi: -9.5, want: []string{"B5"},
	},
	{
		// Black's chain on D1–D4 and White's on E1–E4 have four outside
		// liberties each, on C and F, and no eyes; whoever moves first wins
		// the race by taking the other's outside liberties (F1–F4 for
		// Black, C1–C4 for White; GNU Go 3.8 agrees). Filling an own
		// liberty loses it, and with komi 7.5 the race decides the game.
		name:    "capturing race, Black takes White's outside liberties",
		diagram: diaRace,
		toMove:  goban.Black, komi: 7.5, want: []string{"F1", "F2", "F3", "F4"},
	},
	{
		name:    "capturing race, White takes Black's outside liberties",
		diagram: diaRace,
		toMove:  goban.White, komi: 7.5, want: []string{"C1", "C2", "C3", "C4"},
	},
	{
		// The seki of Hebsacker's Dia. 10 (goban/seeds_test.go): whoever
		// plays on A1 or E1 first loses the own chain.
		name:    "do not break a seki (Black)",
		diagram: diaSeki,
		toMove:  goban.Black, komi: 0.5, avoid: []string{"A1", "E1"},
	},
	{
		name:    "do not break a seki (White)",
		diagram: diaSeki,
		toMove:  goban.White, komi: 0.5, avoid: []string{"A1", "E1"},
	},
	{
		// White's cutting stones E5 and D4 keep Black's bottom group,
		// which has one eye, from the left group. E5 has two liberties;
		// the ataris F5 and E6 fail (the stones on E8 and G7 break the
		// ladders), the net F6 (or the looser G6) captures. GNU Go 3.8:
		// attack E5 answers F6, reg_genmove plays F6, and after F5 or E6
		// defend E5 succeeds.
		name:    "net (geta), Black",
		diagram: diaNet,
		toMove:  goban.Black, komi: -12.5, want: []string{"F6", "G6"}, avoid: []string{"F5", "E6"},
	},
	{
		name:    "net (geta), White",
		diagram: swapColors(diaNet),
		toMove:  goban.White, komi: 12.5, want: []string{"F6", "G6"}, avoid: []string{"F5", "E6"},
	},
}

// swapColors exchanges the black and white stones of a diagram.
func swapColors(diagram string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case 'X':
			return 'O'
		case 'O':
			return 'X'
		}
		return r
	}, diagram)
}

const (
	diaRace = `
		. . . O X . . . .
		. . . O X . . . .
		. . . O X . . . .
		. . . O X . . . .
		O O O O X X X X X
		. O . X O . X . X
		. O . X O . X . X
		. O . X O . X . X
		. O . X O . X . X`
	diaNet = `
		. . . X O . O . .
		. . . X O O O O O
		X X X X . . . O .
		. . . X . . . O .
		X X X X O . . O .
		O O O O X X X O .
		. . . O X X X O .
		. O . O X . X O .
		. . . O X X X O .`
	diaSeki = `
		. . . . . . . .
		. . . . . . . .
		. . . . . . . .
		. . . . . . . .
		O O O O O O O .
		X X X X X X O .
		. O O O . X O .`
)

func TestTactics(t *testing.T) {
	for _, tc := range tactics {
		t.Run(tc.name, func(t *testing.T) {
			g := gameFrom(t, tc.diagram, "chinese", tc.toMove, tc.komi)
			n := tc.playouts
			if n == 0 {
				n = 3000
			}
			e := New(Options{Threads: 1, Playouts: n, Seed: 7, ResignThreshold: -1})
			m, err := e.Move(context.Background(), Request{Game: g, Color: tc.toMove})
			if err != nil {
				t.Fatal(err)
			}
			got := goban.FormatMoveVertex(m, g.Height())
			if len(tc.want) > 0 {
				ok := false
				for _, w := range tc.want {
					ok = ok || w == got
				}
				if !ok {
					t.Errorf("played %s, want one of %v\n%s", got, tc.want, g.Board())
				}
			}
			for _, a := range tc.avoid {
				if a == got {
					t.Errorf("played %s, which must be avoided\n%s", got, g.Board())
				}
			}
		})
	}
}
