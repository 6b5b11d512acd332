package engine

import (
	"fmt"
	"os"
	"strconv"

	"tengen/goban"
)

func envInt(k string, d int) int {
	if v, err := strconv.Atoi(os.Getenv(k)); err == nil {
		return v
	}
	return d
}

func envFloat(k string, d float64) float64 {
	if v, err := strconv.ParseFloat(os.Getenv(k), 64); err == nil {
		return v
	}
	return d
}

// SafetyStones is the experiment of branch wt-score4 (issue 15; reverted in
// the next commit, figures in docs/STRENGTH.md): on the board after the
// dame fill, for each empty point of a player's territory next to a chain
// of that player with at most S4_LIBS liberties and at least S4_MINSIZE
// stones, it plays an enemy stone there and compares the playout ownership
// (S4_N playouts of the engine's policy, fixed seed) with that of the board
// without it; when the owner loses more than S4_T points, the owner adds a
// stone at the worst such point (a teire) and the search repeats, at most
// four times. goban.SafetyHook calls it when `tengen score --record` runs
// with S4 set.
func SafetyStones(work *goban.Board, owner []goban.Color, rules goban.Ruleset) []goban.Loc {
	n := envInt("S4_N", 200)
	th := envFloat("S4_T", 40)
	maxLibs := envInt("S4_LIBS", 2)
	minSize := envInt("S4_MINSIZE", 10)
	debug := os.Getenv("S4_DEBUG") != ""
	seed := uint64(envInt("S4_SEED", 1))
	b := work.Clone()
	b.ClearUndo()
	alive := func(l goban.Loc, c goban.Color) bool {
		return b.ColorAt(l) == c && owner[l] != c.Opponent()
	}
	var out []goban.Loc
	for range 4 {
		var base []float64
		var geo *geometry
		best, bestLoss, bestC := goban.PassLoc, th, goban.Empty
		for _, p := range append([]goban.Loc(nil), b.Empties()...) {
			c := owner[p]
			if c != goban.Black && c != goban.White {
				continue
			}
			e := c.Opponent()
			if b.Check(p, e, false) != nil || b.Check(p, c, false) != nil {
				continue
			}
			near := false
			for _, nb := range b.Neighbors(p) {
				if alive(nb, c) && b.Liberties(nb) <= maxLibs && b.ChainSize(nb) >= minSize {
					near = true
				}
			}
			if !near {
				continue
			}
			if base == nil {
				base, _, geo = playoutOwnership(b, rules, n, seed, false)
			}
			b.Play(p, e)
			own, _, _ := playoutOwnership(b, rules, n, seed, false)
			b.Undo()
			v := 1.0
			if c == goban.White {
				v = -1
			}
			loss := 0.0
			pi := geo.index[p]
			for i := range own {
				if i != pi {
					loss += v * (base[i] - own[i]) / 2
				}
			}
			if debug {
				fmt.Fprintf(os.Stderr, "safety %v %v loss %.2f\n", c, b.Point(p), loss)
			}
			if loss > bestLoss {
				best, bestLoss, bestC = p, loss, c
			}
		}
		if best == goban.PassLoc {
			break
		}
		if debug {
			fmt.Fprintf(os.Stderr, "SAFETY %v %v loss %.2f\n", bestC, b.Point(best), bestLoss)
		}
		out = append(out, best)
		b.Play(best, bestC)
	}
	return out
}
