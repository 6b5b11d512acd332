package engine_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tengen/engine"
	"tengen/goban"
	"tengen/gtp"
	"tengen/internal/oracle"
	"tengen/sgf"
)

// TestDeadStoneAgreementWithGNUGo measures how often the engine's dead-stone
// estimate agrees with GNU Go's final_status_list dead on finished games.
// The games are self-play games of the engine at a small fixed playout
// count under Japanese rules, where dead stones stay on the board, played
// until both pass; every stone on the final board counts once.
// Run it with -v to see the figure:
//
//	go test ./engine -run DeadStoneAgreement -v
func TestDeadStoneAgreementWithGNUGo(t *testing.T) {
	path := oracle.GNUGo(t, "the dead-stone agreement with GNU Go")
	games, size := 8, 9
	if testing.Short() {
		games = 3
	}
	ctx := context.Background()
	gg, err := gtp.Start(ctx, path, []string{"--mode", "gtp", "--japanese-rules"}, gtp.ProcessOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer gg.Close()
	dir := t.TempDir()
	agree, total, identical := 0, 0, 0
	for i := 0; i < games; i++ {
		g := selfPlay(t, size, uint64(100+i))
		name := filepath.Join(dir, "game.sgf")
		data, err := sgf.Format(sgf.FromGame(g, sgf.GameInfo{}))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, data, 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := gg.Send(ctx, "loadsgf", name); err != nil {
			t.Fatal(err)
		}
		resp, err := gg.Send(ctx, "final_status_list", "dead")
		if err != nil {
			t.Fatal(err)
		}
		theirs := map[goban.Point]bool{}
		for _, v := range strings.Fields(resp) {
			p, _, err := goban.ParseVertex(v, size, size)
			if err != nil {
				t.Fatalf("GNU Go's vertex %q: %v", v, err)
			}
			theirs[p] = true
		}
		ours := map[goban.Point]bool{}
		for _, p := range engine.New(engine.Options{Threads: 1, Seed: 7}).DeadStones(g) {
			for _, q := range g.Board().Chain(p) {
				ours[q] = true
			}
		}
		same, stones := 0, 0
		for y := 0; y < size; y++ {
			for x := 0; x < size; x++ {
				p := goban.Point{X: x, Y: y}
				if g.Board().At(p) == goban.Empty {
					continue
				}
				stones++
				if ours[p] == theirs[p] {
					same++
				}
			}
		}
		if same == stones {
			identical++
		}
		agree += same
		total += stones
		t.Logf("game %d: %d moves, %d stones, %d dead by GNU Go, %d by the engine, %d agree", i+1, g.MoveNumber(), stones, len(theirs), len(ours), same)
	}
	rate := float64(agree) / float64(total)
	t.Logf("agreement with GNU Go's final_status_list dead: %d of %d stones (%.1f%%); %d of %d games identical", agree, total, 100*rate, identical, games)
	if rate < 0.9 {
		t.Errorf("the engine agrees with GNU Go on only %.1f%% of stones", 100*rate)
	}
}

// selfPlay plays the engine against itself at a small fixed playout count
// until both pass (or a move limit), without resigning.
func selfPlay(t *testing.T, size int, seed uint64) *goban.Game {
	t.Helper()
	g := goban.MustNewGame(size, size, goban.MustRuleset("japanese"))
	e := engine.New(engine.Options{Threads: 1, Playouts: 1000, Seed: seed, ResignThreshold: -1, NoTreeReuse: true})
	for i := 0; i < 3*size*size && !g.Ended(); i++ {
		m, err := e.Move(context.Background(), engine.Request{Game: g, Color: g.ToMove()})
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Play(m); err != nil {
			t.Fatalf("self-play move %v: %v", m, err)
		}
	}
	return g
}
