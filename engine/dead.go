package engine

import (
	"slices"
	"sort"
	"sync"

	"tengen/goban"
)

// deadThreshold is the average ownership, from the chain's own point of
// view, below which a chain counts as dead.
const deadThreshold = -0.3

// eyelessThreshold is the average ownership, from the chain's own point of
// view, below which a chain whose group has no eye space is dead (see
// eyeless). On the corpus of counted games (docs/STRENGTH.md) every value
// from 0.3 to 0.5 gives the same counts; 0 and 0.1 let weak chains of
// living groups die, 0.7 and more let groups with outside liberties die.
const eyelessThreshold = 0.4

// strongEncloser is the average ownership, from the chain's own point of
// view, from which an enemy chain around a doubtful chain counts as alive
// enough to judge the doubtful chain by the playouts in which it survives.
const strongEncloser = 0.2

// minConditional is the smallest share of the scoring playouts in which the
// enclosing chains must all survive for the conditional judgement to count.
const minConditional = 0.25

// deadFromOwnership proposes the dead stones of b from an ownership map
// (index y*width+x, +1 Black): a chain is dead when its points belong to
// the opponent on average, unless Benson's algorithm proves it alive or it
// is in seki once the other dead stones are off the board.
//
// finals, when not nil, holds every playout's final owner of each point
// (len(geo.locs) entries a playout; see playoutOwnership). With it a
// doubtful chain is also judged by the playouts in which the enemy chains
// around it survive: random playouts sometimes kill a living wall in a
// whole-board race, and a dead stone inside the wall's area then counts as
// alive in every such playout, which on average can keep it above the
// threshold. A chain that survives only where a strong wall around it dies
// is dead. So is a chain whose group has no eye space of its own and
// that the playouts do not clearly keep alive (eyeless). toMove is the
// player who moves next on b (goban.Empty when none is known); it decides
// a capturing race of two such chains that the record leaves open
// (eyesBehindEyeless).
func deadFromOwnership(b *goban.Board, geo *geometry, own []float64, finals []int8, toMove goban.Color) []goban.Point {
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
		mean := chainMean(b, geo, own, l)
		if mean < deadThreshold || (mean < 0 && finals != nil && deadWhereEnclosersLive(b, geo, own, finals, l)) {
			heads = append(heads, l)
		}
	}
	heads = append(heads, eyeless(b, geo, own, heads, alive, toMove)...)
	heads = sharedEyeSeki(b, geo, heads)
	// A chain that is in seki once the other candidates are taken off
	// lives: random playouts often break a seki that correct play keeps.
	// A seki on the board as it is counts unless dead candidates make it
	// (fakeSeki). So does a chain in atari that holds a seki of others
	// (holdsSeki).
	var dead []goban.Loc
	now, err := b.Statuses(nil)
	if err != nil {
		now = nil
	}
	// The statuses with every candidate off, which holdsSeki needs only
	// for a candidate in atari: computed at the first such one.
	allOff := sync.OnceValue(func() map[goban.Point]goban.Status {
		ps := make([]goban.Point, len(heads))
		for i, h := range heads {
			ps[i] = b.Point(h)
		}
		st, err := b.Statuses(ps)
		if err != nil {
			return nil
		}
		return st
	})
	for i, h := range heads {
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
		if now[b.Point(h)] == goban.Seki && !fakeSeki(b, now, others, h) {
			continue
		}
		if err == nil && holdsSeki(b, st, allOff, others, h) {
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

// holdsSeki reports whether the candidate h, a chain in atari, holds a
// seki of other chains: the seki stands with h on the board and the other
// candidates off (st), falls when h is taken off too (all, asked only for
// a chain in atari, since it costs a status computation), and stands
// again after the enemy's capture of h on its last liberty. Taking a dead
// chain off the board gives its capturer the liberty that the capturing
// stone fills; where that liberty decides a seki, the count must not see
// it. The players leave such a stone and count it in seki (meijin45-12's
// Black T3, in atari on T2 inside White's lower right: after White's
// capture White has the one eye T3, and the seki of White's R1 with
// Black's R4 and O2 chains at Q1 stands; taken off, T3 gave White the two
// points T2 and T3, White could fill Q1, and the seki was gone; GNU Go
// 3.8 and the record count T3 in seki).
func holdsSeki(b *goban.Board, st map[goban.Point]goban.Status, all func() map[goban.Point]goban.Status, others []goban.Point, h goban.Loc) bool {
	libs := chainLiberties(b, h, nil, 2)
	if st == nil || len(libs) != 1 {
		return false
	}
	off := all()
	if off == nil {
		return false
	}
	var falls []goban.Point
	for p, s := range st {
		if s == goban.Seki && off[p] != goban.Seki && b.ChainHead(b.Loc(p)) != h {
			falls = append(falls, p)
		}
	}
	if len(falls) == 0 {
		return false
	}
	// The capture itself, with the other candidates off: the seki must
	// stand after it.
	w := b.Clone()
	if w.Check(libs[0], b.ColorAt(h).Opponent(), false) != nil {
		return false
	}
	w.Play(libs[0], b.ColorAt(h).Opponent())
	left := slices.DeleteFunc(slices.Clone(others), func(p goban.Point) bool { return w.At(p) == goban.Empty })
	after, err := w.Statuses(left)
	if err != nil {
		return false
	}
	for _, p := range falls {
		if after[p] == goban.Seki {
			return true
		}
	}
	return false
}

// fakeSeki reports whether the chain at h, in seki on b as it stands
// (now), has a liberty next to a candidate in others that is in no seki
// now: dead stones on the board can share a liberty with a lone stone and
// make it look like a seki that their removal undoes (honinbo75-P12's S19
// beside the dead P19-R16, docs/STRENGTH.md). The partners of a real seki
// are often both candidates; they are in seki now and do not count.
func fakeSeki(b *goban.Board, now map[goban.Point]goban.Status, others []goban.Point, h goban.Loc) bool {
	for s := h; ; {
		for _, q := range b.Neighbors(s) {
			if b.ColorAt(q) != goban.Empty {
				continue
			}
			for _, n := range b.Neighbors(q) {
				c := b.ColorAt(n)
				if (c == goban.Black || c == goban.White) && now[b.Point(n)] != goban.Seki && slices.Contains(others, b.Point(b.ChainHead(n))) {
					return true
				}
			}
		}
		s = b.NextInChain(s)
		if s == h {
			return false
		}
	}
}

// chainMean returns the average ownership of the chain at l from its own
// colour's point of view.
func chainMean(b *goban.Board, geo *geometry, own []float64, l goban.Loc) float64 {
	sum, n := 0.0, 0
	for s := l; ; {
		sum += own[geo.index[s]]
		n++
		s = b.NextInChain(s)
		if s == l {
			break
		}
	}
	if b.ColorAt(l) == goban.White {
		sum = -sum
	}
	return sum / float64(n)
}

// deadWhereEnclosersLive reports whether the chain at h, of colour c, ends
// owned by the enemy on average in the playouts in which every enemy chain
// around it survives. The enemy chains around it are those next to the
// region of empty points and c's stones that h belongs to; each must be
// strong on the whole (strongEncloser), and they must all survive together
// in at least minConditional of the playouts. Without a strong wall around
// it nothing is concluded: in a real capturing race the loser of the race
// dies exactly where the winner lives, and that says nothing of who wins.
func deadWhereEnclosersLive(b *goban.Board, geo *geometry, own []float64, finals []int8, h goban.Loc) bool {
	c := b.ColorAt(h)
	enemy := c.Opponent()
	seen := make([]bool, b.NumLocs())
	stack := []goban.Loc{h}
	seen[h] = true
	var enclosers []goban.Loc
	for len(stack) > 0 {
		l := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, q := range b.Neighbors(l) {
			if seen[q] {
				continue
			}
			switch b.ColorAt(q) {
			case goban.Empty, c:
				seen[q] = true
				stack = append(stack, q)
			case enemy:
				head := b.ChainHead(q)
				if !seen[head] {
					seen[head] = true
					enclosers = append(enclosers, head)
				}
			}
		}
	}
	if len(enclosers) == 0 {
		return false
	}
	for _, e := range enclosers {
		if chainMean(b, geo, own, e) < strongEncloser {
			return false
		}
	}
	// The sign that means "owned by c" and the enemy's.
	var mine int8 = 1
	if c == goban.White {
		mine = -1
	}
	stride := len(geo.locs)
	hi := geo.index[h]
	kept, sum := 0, 0
	for off := 0; off+stride <= len(finals); off += stride {
		f := finals[off : off+stride]
		alive := true
		for _, e := range enclosers {
			if f[geo.index[e]] != -mine {
				alive = false
				break
			}
		}
		if !alive {
			continue
		}
		kept++
		sum += int(f[hi] * mine)
	}
	playouts := len(finals) / stride
	if playouts == 0 || float64(kept) < minConditional*float64(playouts) {
		return false
	}
	return float64(sum)/float64(kept) < deadThreshold
}

// playoutOwnership plays n playouts of the engine's policy from b, half
// with Black to move first and half with White, and returns the average
// owner of each point, every playout's final owner of each point when
// finals is set (for deadFromOwnership; nil otherwise) and the board's
// geometry. It uses simple ko and the rules' suicide setting only through
// the policy, which never commits suicide.
func playoutOwnership(b *goban.Board, rules goban.Ruleset, n int, seed uint64, finals bool) ([]float64, []int8, *geometry) {
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
	if finals {
		w.finals = make([]int8, 0, n*len(s.geo.locs))
	}
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
	return s.ownership(), w.finals, s.geo
}

// eyeless returns the heads of the chains, neither in dead nor proved
// alive, that the playouts do not clearly keep alive (average ownership
// below eyelessThreshold from their own point of view) and whose group
// touches no area of its own: no empty point or dead stone next to any of
// its chains lies in a region that only their colour borders, once the
// dead chains are off the board. A group is the chains of one colour that
// share two liberties, or one liberty the opponent cannot take without
// being captured at once (a tiger's mouth). In a finished game a group
// without any eye space of its own is dead: the players left it because
// it cannot live. Random playouts let such a group live when the walls
// around it are thin (an invasion of a large area), which a referee does
// not. A chain that shares its only eye points with an enemy chain inside
// it lives in seki with that chain (eyeSeki); a chain that has eye space
// once the eyeless chains of the other colour are off lives when no such
// chain of the other colour beats it (eyesBehindEyeless). The fights of
// the others are read out (readEyeless): a chain its owner cannot save
// even moving first is dead unless it stands inside the eye space of
// dying enemy chains; of two chains in a capturing race that the reading
// does not settle only the loser is returned (raceLosers). A group whose
// only eye space is one eye of at most oneEyeSize points is read out too,
// and dies when its owner cannot save it even moving first (readOneEye:
// kisei43-C05's White S1-T2, with the eye T1 and the liberty S3).
func eyeless(b *goban.Board, geo *geometry, own []float64, dead []goban.Loc, alive map[goban.Point]bool, toMove goban.Color) []goban.Loc {
	eyes := eyeRegions(b, geo, dead)
	var out, oneEye []goban.Loc
	for _, l := range geo.locs {
		c := b.ColorAt(l)
		if (c != goban.Black && c != goban.White) || b.ChainHead(l) != l || slices.Contains(dead, l) || alive[b.Point(l)] {
			continue
		}
		if chainMean(b, geo, own, l) >= eyelessThreshold {
			continue
		}
		switch e := eyes(l); {
		case len(e) == 0:
			out = append(out, l)
		case len(e) == 1 && e[0] <= oneEyeSize:
			oneEye = append(oneEye, l)
		}
	}
	out = eyeSeki(b, geo, dead, out)
	out = eyesBehindEyeless(b, geo, dead, out, toMove)
	out = readEyeless(b, geo, own, dead, out)
	return append(out, readOneEye(b, dead, oneEye)...)
}

// oneEyeSize is the largest eye for which readOneEye reads a group with
// one eye and no other eye space: a region of one or two points is one
// eye at most. The corpus gives the same counts for every size from 1 to
// any (docs/STRENGTH.md).
const oneEyeSize = 2

// readOneEye returns the chains of oneEye, each of a group with one small
// eye and no other eye space, that their owner cannot save even moving
// first (readFate), unless they stand inside the eye space of dead enemy
// chains (insideDying).
func readOneEye(b *goban.Board, dead, oneEye []goban.Loc) []goban.Loc {
	isDead := func(l goban.Loc) bool { return slices.Contains(dead, b.ChainHead(l)) }
	var out []goban.Loc
	for _, h := range oneEye {
		if readFate(b, h, b.ColorAt(h)) == readDead && !insideDying(b, h, isDead) {
			out = append(out, h)
		}
	}
	return out
}

// eyeSpace reports for a chain whether its group touches a region of its
// own: an area of empty points and dead stones (the chains of dead) that
// only its colour borders. A group is the chains of one colour that share
// two liberties, or one liberty the opponent cannot take without being
// captured at once (a tiger's mouth).
func eyeSpace(b *goban.Board, geo *geometry, dead []goban.Loc) func(goban.Loc) bool {
	eyes := eyeRegions(b, geo, dead)
	return func(l goban.Loc) bool { return len(eyes(l)) > 0 }
}

// eyeRegions returns, for a chain, the sizes of the regions of its own that
// its group touches (see eyeSpace), one entry a region.
func eyeRegions(b *goban.Board, geo *geometry, dead []goban.Loc) func(goban.Loc) []int {
	isDead := make([]bool, b.NumLocs())
	for _, h := range dead {
		for s := h; ; {
			isDead[s] = true
			s = b.NextInChain(s)
			if s == h {
				break
			}
		}
	}
	// Regions of empty points and dead stones; border colours per region.
	region := make([]int, b.NumLocs())
	var borders []uint8
	var sizes []int
	for _, l := range geo.locs {
		if region[l] != 0 || (b.ColorAt(l) != goban.Empty && !isDead[l]) {
			continue
		}
		id := len(borders) + 1
		borders = append(borders, 0)
		sizes = append(sizes, 0)
		stack := []goban.Loc{l}
		region[l] = id
		for len(stack) > 0 {
			q := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			sizes[id-1]++
			for _, n := range b.Neighbors(q) {
				c := b.ColorAt(n)
				if c == goban.Empty || isDead[n] {
					if region[n] == 0 {
						region[n] = id
						stack = append(stack, n)
					}
				} else if c == goban.Black {
					borders[id-1] |= 1
				} else if c == goban.White {
					borders[id-1] |= 2
				}
			}
		}
	}
	// Chains of one colour that share two liberties, or one that the
	// opponent cannot take without being captured at once, are one group.
	parent := make([]goban.Loc, b.NumLocs())
	for i := range parent {
		parent[i] = goban.Loc(i)
	}
	find := func(l goban.Loc) goban.Loc {
		for parent[l] != l {
			parent[l] = parent[parent[l]]
			l = parent[l]
		}
		return l
	}
	shared := map[[2]goban.Loc]int{}
	scratch := b.Clone()
	for _, q := range geo.locs {
		if b.ColorAt(q) != goban.Empty {
			continue
		}
		for _, c := range []goban.Color{goban.Black, goban.White} {
			// cannotTake plays and takes back a stone, which may move
			// the chains' heads: it plays on a copy.
			safe := cannotTake(scratch, q, c.Opponent())
			var hs []goban.Loc
			for _, n := range b.Neighbors(q) {
				if b.ColorAt(n) == c && !isDead[n] && !slices.Contains(hs, b.ChainHead(n)) {
					hs = append(hs, b.ChainHead(n))
				}
			}
			if len(hs) < 2 {
				continue
			}
			for i := range hs {
				for j := i + 1; j < len(hs); j++ {
					k := [2]goban.Loc{min(hs[i], hs[j]), max(hs[i], hs[j])}
					shared[k]++
					if safe || shared[k] >= 2 {
						parent[find(hs[i])] = find(hs[j])
					}
				}
			}
		}
	}
	own := map[goban.Loc][]int{}
	for _, l := range geo.locs {
		c := b.ColorAt(l)
		if (c != goban.Black && c != goban.White) || isDead[l] {
			continue
		}
		var mine uint8 = 1
		if c == goban.White {
			mine = 2
		}
		for _, n := range b.Neighbors(l) {
			if r := region[n]; r != 0 && borders[r-1] == mine {
				g := find(b.ChainHead(l))
				if !slices.Contains(own[g], r) {
					own[g] = append(own[g], r)
				}
			}
		}
	}
	return func(l goban.Loc) []int {
		var out []int
		for _, r := range own[find(b.ChainHead(l))] {
			out = append(out, sizes[r-1])
		}
		return out
	}
}

// insideDying reports whether the chain at h stands inside the eye space
// of dying enemy chains: every enemy chain next to it is dead, and every
// liberty of it is a liberty of one of them. Such a chain is captured only
// by chains that die themselves, so it lives.
func insideDying(b *goban.Board, h goban.Loc, isDead func(goban.Loc) bool) bool {
	enemy := b.ColorAt(h).Opponent()
	var around []goban.Loc
	for s := h; ; {
		for _, n := range b.Neighbors(s) {
			if b.ColorAt(n) != enemy {
				continue
			}
			if !isDead(n) {
				return false
			}
			if !slices.Contains(around, b.ChainHead(n)) {
				around = append(around, b.ChainHead(n))
			}
		}
		s = b.NextInChain(s)
		if s == h {
			break
		}
	}
	if len(around) == 0 {
		return false
	}
	for _, q := range chainLiberties(b, h, nil, b.NumLocs()) {
		shared := false
		for _, n := range b.Neighbors(q) {
			shared = shared || (b.ColorAt(n) == enemy && slices.Contains(around, b.ChainHead(n)))
		}
		if !shared {
			return false
		}
	}
	return true
}

// readEyeless decides the chains of eyeless by reading their fights
// (readFate): a chain that its owner cannot save even moving first is dead,
// unless it stands in the eye space of enemy chains that are all dead too
// (insideDying). The chains that the reading does not settle go to
// raceLosers. A proof of life is not used: the reading plays only on the
// liberties of the chain and of the short enemy chains next to it, and the
// move that saves a corner may lie elsewhere (docs/STRENGTH.md).
func readEyeless(b *goban.Board, geo *geometry, own []float64, dead, eyeless []goban.Loc) []goban.Loc {
	var lost, open []goban.Loc
	for _, h := range eyeless {
		if readFate(b, h, b.ColorAt(h)) == readDead {
			lost = append(lost, h)
		} else {
			open = append(open, h)
		}
	}
	isDead := func(l goban.Loc) bool {
		h := b.ChainHead(l)
		return slices.Contains(dead, h) || slices.Contains(lost, h)
	}
	var out []goban.Loc
	for _, h := range lost {
		if !insideDying(b, h, isDead) {
			out = append(out, h)
		}
	}
	return append(out, raceLosers(b, geo, own, open)...)
}

// raceLosers returns the chains of eyeless that lose their capturing race:
// two eyeless chains of opposite colours that share a liberty and have at
// most raceLiberties liberties each cannot both be dead, since the one
// that captures the other lives. The one with more liberties wins; on
// equal liberties the one that the playouts favour more. Without this both
// would be proposed dead: neither has eye space of its own, and the
// playouts, which break the race either way, keep neither clearly alive.
func raceLosers(b *goban.Board, geo *geometry, own []float64, eyeless []goban.Loc) []goban.Loc {
	libs := make([][]goban.Loc, len(eyeless))
	for i, h := range eyeless {
		// One more than raceLiberties tells a chain too long for a race.
		libs[i] = chainLiberties(b, h, nil, raceLiberties+1)
	}
	var out []goban.Loc
	for i, h := range eyeless {
		wins := false
		for j, o := range eyeless {
			if b.ColorAt(o) != b.ColorAt(h).Opponent() || len(libs[i]) > raceLiberties || len(libs[j]) > raceLiberties {
				continue
			}
			shared := false
			for _, q := range libs[i] {
				shared = shared || slices.Contains(libs[j], q)
			}
			if shared && (len(libs[i]) > len(libs[j]) || len(libs[i]) == len(libs[j]) && chainMean(b, geo, own, h) > chainMean(b, geo, own, o)) {
				wins = true
			}
		}
		if !wins {
			out = append(out, h)
		}
	}
	return out
}

// raceLiberties is the most liberties a chain in a capturing race that
// raceLosers judges may have: a race of longer chains is rarely left open
// at the end of a game, and counting liberties does not decide it.
const raceLiberties = 3

// cannotTake reports whether a stone of c at q is illegal or is left in
// atari without capturing.
func cannotTake(b *goban.Board, q goban.Loc, c goban.Color) bool {
	if b.Check(q, c, false) != nil {
		return true
	}
	if b.WouldCapture(q, c) {
		return false
	}
	b.Play(q, c)
	libs := b.Liberties(q)
	b.Undo()
	return libs <= 1
}

// answerAtari returns a copy of b in which toMove, the player to move, has
// saved its chains of at least two stones in atari that it can connect, at
// their last liberty, to another chain of its own, the joined chain having
// two liberties or more (the largest first, at most four moves); nil when
// there is no such chain. A record that stops with such a chain in atari
// stops before its owner's answer: the owner to move connects. The chains
// of the player not to move stay as they are, since their owner had the
// move and left them; so do single stones in atari, which are often
// sacrificed.
func answerAtari(b *goban.Board, toMove goban.Color) *goban.Board {
	work := b.Clone()
	work.ClearUndo()
	changed := false
	for range 4 {
		best, bestSize := goban.PassLoc, 0
		for _, l := range slices.Clone(work.Empties()) {
			if work.Check(l, toMove, false) != nil {
				continue
			}
			size, own := 0, 0
			var seen []goban.Loc
			for _, n := range work.Neighbors(l) {
				if work.ColorAt(n) != toMove || slices.Contains(seen, work.ChainHead(n)) {
					continue
				}
				seen = append(seen, work.ChainHead(n))
				own++
				if work.InAtari(n) {
					size += work.ChainSize(n)
				}
			}
			if size < 2 || own < 2 || size <= bestSize {
				continue
			}
			work.Play(l, toMove)
			libs := work.Liberties(l)
			work.Undo()
			if libs >= 2 {
				best, bestSize = l, size
			}
		}
		if best == goban.PassLoc {
			break
		}
		work.Play(best, toMove)
		work.ClearUndo()
		changed = true
	}
	if !changed {
		return nil
	}
	return work
}

// sharedEyeSeki returns heads without the chains Y that live in a seki of
// shared eye points with enemy chains that the estimate keeps alive: Y, of
// at most eyeSekiStones stones and exactly two liberties, stands inside
// enemy chains X (every neighbour of Y's stones and of its liberties is a
// stone of Y or of X), none of X is in heads, and the group of X has no
// eye space of its own once Y is back on the board. X can take Y only by
// filling both liberties, its own eye points, and then has a space of at
// most three points where Y's owner plays the vital point: X would be
// left with one eye, so X does not take Y and both live, as in eyeSeki,
// of which this is the case where the playouts, not the eyeless rule, had
// Y dead (tengen46-K04's White Q9-S9 between Black's N11 and P8 chains,
// seki for GNU Go 3.8 and the record). A throw-in that kills
// (goban.Board.ThrowInKills) makes it no seki. Nor is it one when a chain
// of X touches another candidate of Y's colour: X takes that dead chain
// and has eye space where it stood, which eyeRegions does not see when
// the space also borders Y's colour, so X can fill its eye points and
// take Y (kisei48-B1-09's Black K5 inside White's chain from G5 to N11,
// which also holds Black's G6 in atari at F6: dead for GNU Go 3.8 and the
// record).
func sharedEyeSeki(b *goban.Board, geo *geometry, heads []goban.Loc) []goban.Loc {
	var keep []goban.Loc
	var scratch *goban.Board // throwInKills's copy of b
	for _, y := range heads {
		c := b.ColorAt(y)
		libs, xs, ok := sharedEyes(b, y)
		if !ok || len(xs) == 0 || slices.ContainsFunc(xs, func(x goban.Loc) bool { return slices.Contains(heads, x) }) {
			continue
		}
		others := slices.DeleteFunc(slices.Clone(heads), func(h goban.Loc) bool { return h == y })
		eyes := eyeRegions(b, geo, others)
		if slices.ContainsFunc(xs, func(x goban.Loc) bool { return len(eyes(x)) > 0 }) {
			continue
		}
		if slices.ContainsFunc(others, func(d goban.Loc) bool {
			return b.ColorAt(d) == c && slices.ContainsFunc(xs, func(x goban.Loc) bool { return nextTo(b, d, x, nil) })
		}) {
			continue
		}
		if throwInKills(b, &scratch, libs, c) {
			continue
		}
		keep = append(keep, y)
	}
	if len(keep) == 0 {
		return heads
	}
	return slices.DeleteFunc(slices.Clone(heads), func(h goban.Loc) bool { return slices.Contains(keep, h) })
}

// eyeSekiStones is the largest enemy chain inside a group's eye points for
// which eyeSeki holds: once captured, a chain of at most three stones
// leaves a space of at most three points, where the chain's owner, whose
// turn it then is, plays the vital point.
const eyeSekiStones = 3

// eyeSeki returns eyeless without the chains that live in a seki of shared
// eye points: an enemy chain Y of at most eyeSekiStones stones, not in
// dead, with exactly two liberties, stands inside one eyeless chain X:
// every neighbour of Y's stones and of its liberties is a stone of Y or of
// X. Each liberty of Y is then an eye point of X that Y shares. Y cannot
// gain a liberty, nor take X, whose liberties include both of Y's: its
// stone on either would be a self-atari. X can take Y only by filling its
// own eye points, and then has a space of at most three points in which
// Y's owner, to move, plays the vital point; so neither attacks and both
// live, and the points between them are no one's. Without this rule X,
// whose only eye space Y shares, counted as eyeless and died, and Y with
// it when its owner could not save it (tengen47-P21's White R9-T14 around
// Black's T11-T13, tengen46-K16's White B16-H19 around Black's D19-F19,
// both seki for GNU Go's final_status_list seki; docs/STRENGTH.md). Y is
// taken off eyeless too when it is there. Y's owner can also throw in on
// one of the liberties: X then takes Y and the stone, and when that leaves
// X a space of at most three points (goban.Board.ThrowInKills: Y of one or
// two stones) Y's owner plays its vital point and X dies, so that is no
// seki (judan59-17's White A16 inside Black's 22 stones from A18 to H12).
// A chain Y next to further
// chains of X's colour is left alone: one of them may be short of
// liberties and lose a race to Y (gosei47-Q18's upper left).
func eyeSeki(b *goban.Board, geo *geometry, dead, eyeless []goban.Loc) []goban.Loc {
	if len(eyeless) == 0 {
		return eyeless
	}
	var keep []goban.Loc
	var scratch *goban.Board // throwInKills's copy of b
	for _, l := range geo.locs {
		c := b.ColorAt(l)
		if (c != goban.Black && c != goban.White) || b.ChainHead(l) != l || slices.Contains(dead, l) {
			continue
		}
		libs, xs, ok := sharedEyes(b, l)
		if !ok || len(xs) != 1 || !slices.Contains(eyeless, xs[0]) {
			continue
		}
		// Y's owner throws in on one of the liberties when X's capture
		// of the longer chain leaves X a space it kills: no seki.
		if throwInKills(b, &scratch, libs, c) {
			continue
		}
		keep = append(keep, l)
		keep = append(keep, xs...)
	}
	if len(keep) == 0 {
		return eyeless
	}
	return slices.DeleteFunc(slices.Clone(eyeless), func(h goban.Loc) bool { return slices.Contains(keep, h) })
}

// eyesBehindEyeless returns eyeless without the chains that gain eye space
// once the eyeless chains of the other colour are off the board, when no
// such gainer of the other colour beats them, and the reading does not
// prove them lost even moving first. Eyeless chains of both colours can
// stand in one area: a group whose eye space holds enemy stones that have
// no eye space either (honinbo78-P08's Black G15-L17 around White's H18
// and L18, honinbo72-P02's Black N18-Q17 around White's Q19-R17,
// docs/STRENGTH.md). They cannot all be dead, since whoever captures the
// other has the area. A gainer of one colour that is next to one of the
// other (a stone or a liberty in common) beats it when both have at most
// raceLiberties liberties and share one, by more liberties or, on equal
// liberties, by being toMove (a capturing race the record leaves open
// goes to the player who moves next); when toMove is Empty an even race
// stays with raceLosers. In every other case the larger chain beats the
// smaller. A gainer that the reading proves lost even moving first beats
// no one: it is captured before the race is run (meijin46-03's White D19,
// in an even race with Black's 21 stones from G19 to M13 that Black wins
// by taking C18 at C19 first).
func eyesBehindEyeless(b *goban.Board, geo *geometry, dead, eyeless []goban.Loc, toMove goban.Color) []goban.Loc {
	var gainers []goban.Loc
	for _, c := range []goban.Color{goban.Black, goban.White} {
		off := slices.Clone(dead)
		for _, h := range eyeless {
			if b.ColorAt(h) == c.Opponent() {
				off = append(off, h)
			}
		}
		hasOwn := eyeSpace(b, geo, off)
		for _, h := range eyeless {
			if b.ColorAt(h) == c && hasOwn(h) {
				gainers = append(gainers, h)
			}
		}
	}
	if len(gainers) == 0 {
		return eyeless
	}
	libs := make(map[goban.Loc][]goban.Loc, len(gainers))
	for _, x := range gainers {
		libs[x] = chainLiberties(b, x, nil, b.NumLocs())
	}
	// beats reports whether the gainer y beats the gainer x.
	beats := func(y, x goban.Loc) bool {
		if b.ColorAt(y) != b.ColorAt(x).Opponent() || !nextTo(b, y, x, libs[x]) {
			return false
		}
		lx, ly := len(libs[x]), len(libs[y])
		shared := slices.ContainsFunc(libs[y], func(q goban.Loc) bool { return slices.Contains(libs[x], q) })
		if shared && lx <= raceLiberties && ly <= raceLiberties {
			// Without a player to move an even race is left to
			// raceLosers: neither side is taken off eyeless.
			return ly > lx || ly == lx && (toMove == b.ColorAt(y) || toMove == goban.Empty)
		}
		return b.ChainSize(y) > b.ChainSize(x)
	}
	// A gainer lost even moving first beats no one (see above). The
	// reading is asked once per gainer, and only when it decides.
	fate := make(map[goban.Loc]bool, len(gainers))
	lost := func(x goban.Loc) bool {
		d, ok := fate[x]
		if !ok {
			d = readFate(b, x, b.ColorAt(x)) == readDead
			fate[x] = d
		}
		return d
	}
	var live []goban.Loc
	for _, x := range gainers {
		if slices.ContainsFunc(gainers, func(y goban.Loc) bool { return beats(y, x) && !lost(y) }) || lost(x) {
			continue
		}
		live = append(live, x)
	}
	return slices.DeleteFunc(slices.Clone(eyeless), func(h goban.Loc) bool { return slices.Contains(live, h) })
}

// nextTo reports whether a stone of the chain at y touches the chain at x
// or one of its liberties libs.
func nextTo(b *goban.Board, y, x goban.Loc, libs []goban.Loc) bool {
	for s := y; ; {
		for _, n := range b.Neighbors(s) {
			if b.ColorAt(n) == b.ColorAt(x) && b.ChainHead(n) == x || slices.Contains(libs, n) {
				return true
			}
		}
		s = b.NextInChain(s)
		if s == y {
			return false
		}
	}
}

// throwInKills reports whether c's throw-in on one of libs kills the chain
// that takes it (goban.Board.ThrowInKills). It reads on *scratch, a copy of
// b made at the first call: ThrowInKills plays and takes back stones,
// which may move the chains' heads of the board it plays on.
func throwInKills(b *goban.Board, scratch **goban.Board, libs []goban.Loc, c goban.Color) bool {
	if *scratch == nil {
		*scratch = b.Clone()
	}
	return slices.ContainsFunc(libs, func(q goban.Loc) bool { return (*scratch).ThrowInKills(q, c) })
}

// sharedEyes returns the two liberties of the chain at y and the enemy
// chains around it (enclosers) when y is a chain of at most eyeSekiStones
// stones with exactly two liberties that forms a closed space with them:
// the shape eyeSeki and sharedEyeSeki start from.
func sharedEyes(b *goban.Board, y goban.Loc) (libs, xs []goban.Loc, ok bool) {
	if b.ChainSize(y) > eyeSekiStones {
		return nil, nil, false
	}
	libs = chainLiberties(b, y, nil, b.NumLocs())
	if len(libs) != 2 {
		return nil, nil, false
	}
	xs, ok = enclosers(b, y, libs)
	return libs, xs, ok
}

// enclosers returns the enemy chains (their heads) next to the chain at y
// or its liberties libs, and whether y and libs form a closed space: no
// other chain of y's colour and no other empty point touches them.
func enclosers(b *goban.Board, y goban.Loc, libs []goban.Loc) ([]goban.Loc, bool) {
	c := b.ColorAt(y)
	var xs []goban.Loc
	ok := true
	add := func(n goban.Loc) {
		switch b.ColorAt(n) {
		case c.Opponent():
			if !slices.Contains(xs, b.ChainHead(n)) {
				xs = append(xs, b.ChainHead(n))
			}
		case c:
			ok = ok && b.ChainHead(n) == y
		case goban.Empty:
			ok = ok && slices.Contains(libs, n)
		}
	}
	for s := y; ; {
		for _, n := range b.Neighbors(s) {
			add(n)
		}
		s = b.NextInChain(s)
		if s == y {
			break
		}
	}
	for _, q := range libs {
		for _, n := range b.Neighbors(q) {
			add(n)
		}
	}
	return xs, ok
}
