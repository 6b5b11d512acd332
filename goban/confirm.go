package goban

// The confirmation of life and death of the 1989 Japanese rules, Art. 7.2:
// "Während der Bestätigung von Leben und Tod nach dem Stoppen des Spiels …
// ist das Zurückschlagen in demselben Ko verboten. Ein Spieler, dessen Stein
// in einem Ko geschlagen worden ist, kann jedoch in diesem Ko zurückschlagen
// nach einem Passen für das spezielle Schlagen im Ko." Whoever captures
// first in a ko during the confirmation keeps it, because the opponent may
// retake only after a pass, which gives the capturer the move that settles
// the ko. Stones are alive when the opponent, moving first, cannot capture
// them (Art. 7.1). The official commentary's best-known consequence is the
// bent four in the corner: the owner cannot start or remove the ko, the
// opponent can start it whenever he likes, so under these rules the corner
// group is dead however many ko threats remain on the board.

// confirmRegionMax is the largest corner region the confirmation reads out;
// the shapes it is for (the bent four and its relatives) fit in six points,
// and a bound keeps the search instant.
const confirmRegionMax = 6

// confirmDepth bounds the moves of one confirmation, and confirmNodes the
// positions it reads; a longer or wider fight counts as one the attacker
// did not win, so that the confirmation only ever adds proven kills.
const (
	confirmDepth = 14
	confirmNodes = 200000
)

// ConfirmDead returns the dead-stone proposal dead adjusted to the game's
// ruleset: empty under AllStonesAlive (Tromp-Taylor: every stone on the
// board counts), and under BentFourDead with the corner groups that the
// confirmation of Art. 7.2 captures marked dead (and the opponent's stones
// inside their corner alive). Other rulesets get dead back unchanged.
func ConfirmDead(g *Game, dead []Point) []Point {
	r := g.Rules()
	switch {
	case r.AllStonesAlive:
		return nil
	case !r.BentFourDead:
		return dead
	}
	b := g.Board().Clone()
	mark := map[Point]bool{}
	for _, p := range dead {
		mark[p] = true
	}
	changed := false
	for _, d := range []Color{Black, White} {
		for _, cg := range b.koDeadCorners(d, mark) {
			for _, p := range cg.defenders {
				if !mark[p] {
					mark[p], changed = true, true
				}
			}
			for _, p := range cg.attackers {
				if mark[p] {
					delete(mark, p)
					changed = true
				}
			}
		}
	}
	if !changed {
		return dead
	}
	out := make([]Point, 0, len(mark))
	for p := range mark {
		out = append(out, p)
	}
	sortPoints(out)
	return out
}

// koDeadCorner is a corner group that the confirmation captures.
type koDeadCorner struct {
	defenders []Point // the stones of the captured group
	attackers []Point // the opponent's stones inside its corner
}

// koDeadCorners returns d's corner groups that Art. 7.2's confirmation
// captures: groups whose only liberties lie in one small region touching a
// corner of the board, enclosed by them and the edges, that are not
// unconditionally alive, and that the opponent, moving first and never
// losing a ko he started, captures within confirmDepth moves.
//
// A group next to an enemy chain outside its corner that is in atari and
// proposed dead (dead) does not live or die by its corner alone: the
// reading plays only inside the corner, but the group's owner takes that
// chain with one move outside it and gains the liberties where it stood,
// which usually join the group to its living stones beyond. Read by the
// corner alone such a group is captured, and the confirmation would turn
// a dead enemy chain and a living group into two dead ones (gosei50-Q01's
// lower left: White's A2-D1, with A1 and B1, takes Black's dead A3-B3 at
// A4 and joins B4; kisei48-B2-19's lower right: White's R1-T5, with T1 to
// T3, takes Black's dead T6 at T7 and reaches S6). An enemy chain in atari
// that the proposal keeps alive is left out: the enemy may have saved it
// (tengen49-Q18 lost its winner when every chain in atari counted).
func (b *Board) koDeadCorners(d Color, dead map[Point]bool) []koDeadCorner {
	alive := b.bensonAlive(d)
	var out []koDeadCorner
	seen := map[Loc]bool{}
	corners := []Point{{0, 0}, {b.w - 1, 0}, {0, b.h - 1}, {b.w - 1, b.h - 1}}
	for _, cp := range corners {
		start := b.Loc(cp)
		if b.color[start] == d || seen[start] {
			continue
		}
		region, border, ok := b.enclosed(start, d)
		for _, l := range region {
			seen[l] = true
		}
		if !ok || len(region) > confirmRegionMax {
			continue
		}
		inRegion := map[Loc]bool{}
		for _, l := range region {
			inRegion[l] = true
		}
		// The group must live or die by this region alone.
		targets, own := []Loc{}, true
		for _, h := range border {
			if alive[h] {
				own = false
				break
			}
			for s := h; ; {
				for _, n := range b.Neighbors(s) {
					if b.color[n] == Empty && !inRegion[n] {
						own = false
					}
					if b.color[n] == d.Opponent() && !inRegion[n] && dead[b.Point(n)] && b.InAtari(n) {
						own = false
					}
				}
				s = b.next[s]
				if s == h {
					break
				}
			}
			targets = append(targets, h)
		}
		if !own || len(targets) == 0 {
			continue
		}
		c := confirmation{b: b, region: region, defender: d, targets: targets, path: map[uint64]bool{b.Hash(): true}}
		if !c.captures(d.Opponent(), 0, confirmDepth) || c.nodes > confirmNodes {
			continue
		}
		var cg koDeadCorner
		for _, h := range targets {
			cg.defenders = append(cg.defenders, b.Chain(b.Point(h))...)
		}
		for _, l := range region {
			if b.color[l] == d.Opponent() {
				cg.attackers = append(cg.attackers, b.Point(l))
			}
		}
		out = append(out, cg)
	}
	return out
}

// enclosed returns the region of points not of colour d connected to start
// (empty points and the opponent's stones; d's stones and the edges enclose
// it), the heads of d's chains around it, and false when the region has
// more than confirmRegionMax points.
func (b *Board) enclosed(start Loc, d Color) (region, border []Loc, ok bool) {
	in := map[Loc]bool{start: true}
	heads := map[Loc]bool{}
	stack := []Loc{start}
	for len(stack) > 0 {
		l := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		region = append(region, l)
		if len(region) > confirmRegionMax {
			return region, nil, false
		}
		for _, n := range b.Neighbors(l) {
			switch c := b.color[n]; {
			case c == d:
				if !heads[b.head[n]] {
					heads[b.head[n]] = true
					border = append(border, b.head[n])
				}
			case c == Empty || c == d.Opponent():
				if !in[n] {
					in[n] = true
					stack = append(stack, n)
				}
			}
		}
	}
	return region, border, true
}

// confirmation reads out one corner under Art. 7.2. A position may not
// recur on the path of the reading: a ko, once taken, cannot be retaken
// (and the pass the rule asks for first would let the taker settle it).
type confirmation struct {
	b        *Board
	region   []Loc
	defender Color
	targets  []Loc
	path     map[uint64]bool
	// nodes counts the positions read; past confirmNodes every answer is
	// "not captured" and the caller discards the reading.
	nodes int
}

// captured reports whether a stone of the group has been taken.
func (c *confirmation) captured() bool {
	for _, t := range c.targets {
		if c.b.color[t] != c.defender {
			return true
		}
	}
	return false
}

// captures reports whether the attacker captures the group with toMove to
// play, passes consecutive passes behind and depth moves left.
func (c *confirmation) captures(toMove Color, passes, depth int) bool {
	if c.captured() {
		return true
	}
	c.nodes++
	if depth == 0 || passes >= 2 || c.nodes > confirmNodes {
		return false
	}
	attacker := toMove != c.defender
	for _, l := range c.region {
		if c.b.color[l] != Empty || c.b.Check(l, toMove, false) != nil {
			continue
		}
		c.b.Play(l, toMove)
		h := c.b.Hash()
		if c.path[h] {
			c.b.Undo()
			continue
		}
		c.path[h] = true
		win := c.captures(toMove.Opponent(), 0, depth-1)
		delete(c.path, h)
		c.b.Undo()
		if win == attacker {
			return win
		}
	}
	c.b.PlayPass()
	win := c.captures(toMove.Opponent(), passes+1, depth-1)
	c.b.Undo()
	return win
}
