package engine

import (
	"sort"

	"tengen/goban"
)

// deadThreshold is the average ownership, from the chain's own point of
// view, below which a chain counts as dead.
const deadThreshold = -0.3

// deadFromOwnership proposes the dead stones of b from an ownership map
// (index y*width+x, +1 Black): a chain is dead when its points belong to
// the opponent on average, unless Benson's algorithm proves it alive or it
// is in seki once the other dead stones are off the board.
func deadFromOwnership(b *goban.Board, geo *geometry, own []float64) []goban.Point {
	if own == nil {
		return nil
	}
	alive := map[goban.Point]bool{}
	for _, c := range []goban.Color{goban.Black, goban.White} {
		for _, p := range b.UnconditionallyAlive(c) {
			alive[p] = true
		}
	}
	var heads []goban.Loc
	for _, l := range geo.locs {
		c := b.ColorAt(l)
		if (c != goban.Black && c != goban.White) || b.ChainHead(l) != l || alive[b.Point(l)] {
			continue
		}
		sum, n := 0.0, 0
		for s := l; ; {
			v := own[geo.index[s]]
			if c == goban.White {
				v = -v
			}
			sum += v
			n++
			s = b.NextInChain(s)
			if s == l {
				break
			}
		}
		if sum/float64(n) < deadThreshold {
			heads = append(heads, l)
		}
	}
	// A chain that is in seki, on the board as it is or when the other
	// candidates are taken off, lives: random playouts often break a seki
	// that correct play keeps.
	var dead []goban.Loc
	now, err := b.Statuses(nil)
	if err != nil {
		now = nil
	}
	for i, h := range heads {
		if now[b.Point(h)] == goban.Seki {
			continue
		}
		others := make([]goban.Point, 0, len(heads)-1)
		for j, o := range heads {
			if j != i {
				others = append(others, b.Point(o))
			}
		}
		st, err := b.Statuses(others)
		if err == nil && st[b.Point(h)] == goban.Seki {
			continue
		}
		dead = append(dead, h)
	}
	var out []goban.Point
	for _, h := range dead {
		for s := h; ; {
			out = append(out, b.Point(s))
			s = b.NextInChain(s)
			if s == h {
				break
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Y != out[j].Y {
			return out[i].Y < out[j].Y
		}
		return out[i].X < out[j].X
	})
	return out
}

// playoutOwnership plays n playouts of the engine's policy from b, half
// with Black to move first and half with White, and returns the average
// owner of each point. It uses simple ko and the rules' suicide setting
// only through the policy, which never commits suicide.
func playoutOwnership(b *goban.Board, rules goban.Ruleset, n int, seed uint64) ([]float64, *geometry) {
	g := goban.MustNewGame(b.Width(), b.Height(), rules)
	// Without fillBoard: in a finished position the open areas are
	// territory, and a policy that hurries into them lets the invader
	// live there in too many playouts.
	params := defaultParams
	params.fillBoard = 0
	s := &searcher{params: params, rules: rules, geo: newGeometry(b), game: g}
	s.rules.FirstCaptureWins = false
	w := &worker{s: s, board: b.Clone(), geo: s.geo, rng: goban.NewRand(seed),
		firstGen: make([]uint32, b.NumLocs()), firstIdx: make([]int32, b.NumLocs()), firstColor: make([]goban.Color, b.NumLocs()),
		own: make([]int32, len(s.geo.locs))}
	s.workers = []*worker{w}
	for i := 0; i < n; i++ {
		w.board.CopyFrom(b)
		w.board.ClearUndo()
		w.gen++
		first := goban.Black
		if i%2 == 1 {
			first = goban.White
		}
		w.playout(first, goban.PassLoc)
	}
	return s.ownership(), s.geo
}
