package goban

import (
	"fmt"
	"os"
	"strconv"
)

func expInt(k string, d int) int {
	if v, err := strconv.Atoi(os.Getenv(k)); err == nil {
		return v
	}
	return d
}

// expSafety is SafetyStones of package engine with goban's uniform random
// playouts (Board.Ownership) in place of the engine's policy: the
// experiment of branch wt-score4, reverted in the next commit (G4 set in
// the environment turns it on; docs/STRENGTH.md).
func expSafety(work *Board, owner []Color) []Loc {
	n := expInt("G4_N", 200)
	th := float64(expInt("G4_T", 40))
	maxLibs := expInt("G4_LIBS", 2)
	minSize := expInt("G4_MINSIZE", 10)
	debug := os.Getenv("S4_DEBUG") != ""
	b := work.Clone()
	b.ClearUndo()
	alive := func(l Loc, c Color) bool { return b.color[l] == c && owner[l] != c.Opponent() }
	var out []Loc
	for range 4 {
		var base []float64
		best, bestLoss, bestC := PassLoc, th, Empty
		for y := 0; y < b.h; y++ {
			for x := 0; x < b.w; x++ {
				p := b.loc(x, y)
				c := owner[p]
				if b.color[p] != Empty || (c != Black && c != White) {
					continue
				}
				e := c.Opponent()
				if b.Check(p, e, false) != nil || b.Check(p, c, false) != nil {
					continue
				}
				near := false
				for _, d := range b.dirs {
					if nb := p + d; alive(nb, c) && b.Liberties(nb) <= maxLibs && b.ChainSize(nb) >= minSize {
						near = true
					}
				}
				if !near {
					continue
				}
				if base == nil {
					base = b.Ownership(n, 1)
				}
				b.Play(p, e)
				own := b.Ownership(n, 1)
				b.Undo()
				v := 1.0
				if c == White {
					v = -1
				}
				loss := 0.0
				for i := range own {
					if i != y*b.w+x {
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
		}
		if best == PassLoc {
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
