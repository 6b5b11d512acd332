package engine

import (
	"context"
	"testing"

	"tengen/goban"
)

func TestAnalyzePlayouts(t *testing.T) {
	rules, err := goban.RulesetByName("japanese")
	if err != nil {
		t.Fatal(err)
	}
	g, err := goban.NewGame(9, 9, rules)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Play(goban.PlayAt(goban.Black, goban.Point{X: 4, Y: 4})); err != nil {
		t.Fatal(err)
	}
	e := New(Options{Threads: 1, Seed: 3})
	in, err := e.AnalyzePlayouts(context.Background(), g, 150)
	if err != nil {
		t.Fatal(err)
	}
	if in.Playouts != 150 || in.Color != goban.White || len(in.Moves) == 0 || len(in.Ownership) != 81 || len(in.Moves[0].PV) == 0 {
		t.Fatalf("info: %d playouts, %v to move, %d moves, %d ownership values", in.Playouts, in.Color, len(in.Moves), len(in.Ownership))
	}
	// The next position reuses the tree: its visits include the subtree's.
	if err := g.Play(in.Moves[0].Move); err != nil {
		t.Fatal(err)
	}
	next, err := e.AnalyzePlayouts(context.Background(), g, 150)
	if err != nil {
		t.Fatal(err)
	}
	if next.Visits <= 150 {
		t.Errorf("after the engine's own choice %d visits, want more than the 150 new playouts", next.Visits)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := e.AnalyzePlayouts(ctx, g, 1000000); err == nil {
		t.Error("a cancelled analysis returned no error")
	}
	if _, err := e.AnalyzePlayouts(context.Background(), g, 0); err == nil {
		t.Error("no playouts: no error")
	}
	g.Play(goban.PassMove(g.ToMove()))
	g.Play(goban.PassMove(g.ToMove()))
	if _, err := e.AnalyzePlayouts(context.Background(), g, 10); err == nil || !g.Ended() {
		t.Error("an ended game was analysed")
	}
}
