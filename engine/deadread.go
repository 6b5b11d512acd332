package engine

import (
	"slices"

	"tengen/goban"
	"tengen/tsumego"
)

// readMaxNodes bounds the tsumego search of one question about one chain
// in readStatus; a search that runs out leaves the playouts' estimate.
const readMaxNodes = 4000

// readDistance is how far (in steps over the board) from a doubtful chain
// the points lie that readStatus lets both sides play.
const readDistance = 3

// readMaxRegion is the most empty points a local reading may have.
const readMaxRegion = 16

// readDoubt is the average ownership, from either side, under which a
// chain's status is unclear enough to read it.
const readDoubt = 0.7

// readStatus corrects the dead chains (heads) by local reading: a chain
// whose status the playouts leave unclear is read with the tsumego solver
// in the empty points near it and the liberties of the short enemy chains
// next to it, with the other dead candidates still on the board. It is
// dead when its owner, moving first, cannot keep it from being captured
// even when it wins every ko; it is alive when the opponent, moving first,
// cannot capture it even when the opponent wins every ko and every chain
// of the owner's next to the region has all its liberties inside (else a
// dead group larger than the region looks alive). Otherwise, or when a
// search runs out, the estimate stays.
func readStatus(b *goban.Board, geo *geometry, own []float64, heads []goban.Loc, alive map[goban.Point]bool) []goban.Loc {
	out := slices.Clone(heads)
	for _, l := range geo.locs {
		c := b.ColorAt(l)
		if (c != goban.Black && c != goban.White) || b.ChainHead(l) != l || alive[b.Point(l)] {
			continue
		}
		if m := chainMean(b, geo, own, l); m > readDoubt || m < -readDoubt {
			continue
		}
		region := readRegion(b, l)
		if region == nil {
			continue
		}
		dead := slices.Contains(heads, l)
		pos := tsumego.Position{Board: b, Region: region, Target: b.Point(l), ToMove: c}
		if dead {
			if !closedFor(b, region, c) {
				continue
			}
			pos.ToMove = c.Opponent()
		}
		s, err := tsumego.New(pos, tsumego.Limits{MaxNodes: readMaxNodes})
		if err != nil {
			continue
		}
		switch {
		case !dead && s.Prove(c.Opponent(), c):
			out = append(out, l)
		case dead && s.Prove(c, c.Opponent()):
			out = slices.DeleteFunc(out, func(h goban.Loc) bool { return h == l })
		}
	}
	return out
}

// readRegion returns the empty points within readDistance steps of the
// chain at h and the liberties of the enemy chains next to it that have
// at most four, or nil when there are more than readMaxRegion of them.
func readRegion(b *goban.Board, h goban.Loc) []goban.Point {
	dist := map[goban.Loc]int{}
	var frontier []goban.Loc
	for s := h; ; {
		dist[s] = 0
		frontier = append(frontier, s)
		s = b.NextInChain(s)
		if s == h {
			break
		}
	}
	var region []goban.Point
	for d := 1; d <= readDistance; d++ {
		var next []goban.Loc
		for _, q := range frontier {
			for _, n := range b.Neighbors(q) {
				if _, ok := dist[n]; ok || b.ColorAt(n) == goban.Wall {
					continue
				}
				dist[n] = d
				next = append(next, n)
				if b.ColorAt(n) == goban.Empty {
					region = append(region, b.Point(n))
				}
			}
		}
		frontier = next
	}
	seen := map[goban.Loc]bool{}
	for s := h; ; {
		for _, n := range b.Neighbors(s) {
			if b.ColorAt(n) != b.ColorAt(h).Opponent() || seen[b.ChainHead(n)] {
				continue
			}
			seen[b.ChainHead(n)] = true
			libs := chainLiberties(b, n, nil, 5)
			if len(libs) > 4 {
				continue
			}
			for _, q := range libs {
				if _, ok := dist[q]; !ok {
					dist[q] = readDistance + 1
					region = append(region, b.Point(q))
				}
			}
		}
		s = b.NextInChain(s)
		if s == h {
			break
		}
	}
	if len(region) > readMaxRegion || len(region) == 0 {
		return nil
	}
	return region
}

// closedFor reports whether every chain of colour c next to the region
// has all its liberties in the region.
func closedFor(b *goban.Board, region []goban.Point, c goban.Color) bool {
	in := map[goban.Loc]bool{}
	for _, p := range region {
		in[b.Loc(p)] = true
	}
	for l := range in {
		for _, n := range b.Neighbors(l) {
			if b.ColorAt(n) != c {
				continue
			}
			for _, q := range chainLiberties(b, n, nil, 2*readMaxRegion) {
				if !in[q] {
					return false
				}
			}
		}
	}
	return true
}
