package engine

import (
	"testing"

	"tengen/goban"
)

// gameFrom sets up a game on the diagram's stones with toMove to play.
func gameFrom(t testing.TB, diagram, rules string, toMove goban.Color, komi float64) *goban.Game {
	t.Helper()
	b, err := goban.ParseBoard(diagram)
	if err != nil {
		t.Fatal(err)
	}
	g := goban.MustNewGame(b.Width(), b.Height(), goban.MustRuleset(rules))
	for _, c := range []goban.Color{goban.Black, goban.White} {
		var pts []goban.Point
		for y := 0; y < b.Height(); y++ {
			for x := 0; x < b.Width(); x++ {
				if p := (goban.Point{X: x, Y: y}); b.At(p) == c {
					pts = append(pts, p)
				}
			}
		}
		if len(pts) > 0 {
			if err := g.Setup(c, pts...); err != nil {
				t.Fatal(err)
			}
		}
	}
	g.SetToMove(toMove)
	g.SetKomi(komi)
	return g
}

// vertex parses a GTP vertex on g's board.
func vertex(t testing.TB, g *goban.Game, s string) goban.Move {
	t.Helper()
	p, pass, err := goban.ParseVertex(s, g.Width(), g.Height())
	if err != nil {
		t.Fatal(err)
	}
	if pass {
		return goban.PassMove(g.ToMove())
	}
	return goban.PlayAt(g.ToMove(), p)
}
