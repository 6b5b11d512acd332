package engine

import "tengen/goban"

// geometry holds what the engine needs about a board size that goban's
// Board does not export: the Locs of the points in row-major order and the
// offsets of the diagonal neighbours.
type geometry struct {
	w, h int
	// locs[i] is the Loc of point (i%w, i/w).
	locs []goban.Loc
	// index maps a Loc back to its point index, or -1 for walls.
	index []int
	diag  [4]goban.Loc
	// line is each point's distance to the nearest edge (0 = first line),
	// indexed by Loc.
	line []int8
}

func newGeometry(b *goban.Board) *geometry {
	w, h := b.Width(), b.Height()
	g := &geometry{w: w, h: h, locs: make([]goban.Loc, w*h), index: make([]int, b.NumLocs()), line: make([]int8, b.NumLocs())}
	for i := range g.index {
		g.index[i] = -1
	}
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			l := b.Loc(goban.Point{X: x, Y: y})
			g.locs[y*w+x] = l
			g.index[l] = y*w + x
			g.line[l] = int8(min(x, y, w-1-x, h-1-y))
		}
	}
	// Loc(x, y) = x+1 + (y+1)*stride, so the stride is the difference of
	// vertically adjacent points.
	s := goban.Loc(w + 1)
	g.diag = [4]goban.Loc{-s - 1, -s + 1, s - 1, s + 1}
	return g
}

// chainLiberties appends to buf up to max distinct liberties of the chain
// that holds l and returns it.
func chainLiberties(b *goban.Board, l goban.Loc, buf []goban.Loc, max int) []goban.Loc {
	start := len(buf)
	for s := l; ; {
		for _, n := range b.Neighbors(s) {
			if b.ColorAt(n) != goban.Empty {
				continue
			}
			dup := false
			for _, q := range buf[start:] {
				if q == n {
					dup = true
					break
				}
			}
			if !dup {
				buf = append(buf, n)
				if len(buf)-start >= max {
					return buf
				}
			}
		}
		s = b.NextInChain(s)
		if s == l {
			return buf
		}
	}
}

// selfAtari reports whether a stone of c on the empty point l would leave
// its chain with exactly one liberty (or none) without capturing anything,
// and the size of that chain. It does not play the move.
func selfAtari(b *goban.Board, l goban.Loc, c goban.Color) (bool, int) {
	var libs [2]goban.Loc
	nl := 0
	add := func(q goban.Loc) bool {
		if q == l {
			return false
		}
		for i := 0; i < nl; i++ {
			if libs[i] == q {
				return false
			}
		}
		if nl == 1 {
			return true // a second liberty: safe
		}
		libs[nl] = q
		nl++
		return false
	}
	opp := c.Opponent()
	nbrs := b.Neighbors(l)
	for _, n := range nbrs {
		switch b.ColorAt(n) {
		case goban.Empty:
			if add(n) {
				return false, 0
			}
		case opp:
			if b.InAtari(n) {
				return false, 0 // captures, which gives liberties
			}
		}
	}
	size := 1
	var heads [4]goban.Loc
	nh := 0
	var buf [3]goban.Loc
	for _, n := range nbrs {
		if b.ColorAt(n) != c {
			continue
		}
		h := b.ChainHead(n)
		dup := false
		for i := 0; i < nh; i++ {
			if heads[i] == h {
				dup = true
			}
		}
		if dup {
			continue
		}
		heads[nh] = h
		nh++
		size += b.ChainSize(n)
		if b.InAtari(n) {
			continue // its one liberty is l
		}
		ls := chainLiberties(b, n, buf[:0], 3)
		if len(ls) >= 3 {
			return false, 0
		}
		for _, q := range ls {
			if add(q) {
				return false, 0
			}
		}
	}
	return true, size
}

// playoutMove chooses the playout policy's move for c; last is the
// opponent's last move (PassLoc if none). The order of preference is:
// save an own chain that the last move put in atari, capture the last
// move's chain when it is in atari, a local reply around the last move that
// makes one of the 3×3 shapes (pattern3.go), a move in an empty area
// (fillBoard, when enabled), and otherwise a random move that fills no own
// eye and puts no chain of two or more stones into atari.
func (w *worker) playoutMove(c goban.Color, last goban.Loc) goban.Loc {
	b := w.board
	cand := w.cand[:0]
	if last != goban.PassLoc && b.ColorAt(last) != goban.Empty {
		opp := c.Opponent()
		// Capture the last move's chain if it is in atari.
		if b.InAtari(last) {
			cand = chainLiberties(b, last, cand, 1)
		}
		// Save own chains next to the last move that are in atari.
		for _, n := range b.Neighbors(last) {
			if b.ColorAt(n) != c || !b.InAtari(n) {
				continue
			}
			cand = w.escapes(n, c, opp, cand)
		}
		cand = w.legalFilter(cand, c)
		if len(cand) > 0 {
			w.cand = cand
			return cand[w.rng.Intn(len(cand))]
		}
		if w.rng.Intn(100) < w.s.params.localReply {
			cand = w.localReplies(last, c, cand)
			if len(cand) > 0 {
				w.cand = cand
				return cand[w.rng.Intn(len(cand))]
			}
		}
	}
	w.cand = cand
	if l := w.fillBoard(); l != goban.PassLoc {
		return l
	}
	return w.randomMove(c)
}

// fillBoard tries a few random empty points and returns the first whose
// eight neighbours are all empty too, or PassLoc. Such a move is legal,
// fills no eye and puts nothing in atari; on big boards it makes the
// playouts claim the open areas before they fight over the crowded ones,
// as real games do.
func (w *worker) fillBoard() goban.Loc {
	b := w.board
	empties := b.Empties()
	for i := 0; i < w.s.params.fillBoard && len(empties) > 0; i++ {
		l := empties[w.rng.Intn(len(empties))]
		if pat3Code(b, l, w.geo.diag) == 0 {
			return l
		}
	}
	return goban.PassLoc
}

// escapes appends the moves that may save c's chain at n from atari:
// capturing an adjacent enemy chain in atari, or extending at the liberty
// when that gives the chain at least two liberties.
func (w *worker) escapes(n goban.Loc, c, opp goban.Color, cand []goban.Loc) []goban.Loc {
	b := w.board
	for s := n; ; {
		for _, q := range b.Neighbors(s) {
			if b.ColorAt(q) == opp && b.InAtari(q) {
				cand = chainLiberties(b, q, cand, 1)
			}
		}
		s = b.NextInChain(s)
		if s == n {
			break
		}
	}
	var lib [1]goban.Loc
	if l := chainLiberties(b, n, lib[:0], 1); len(l) == 1 {
		if sa, _ := selfAtari(b, l[0], c); !sa {
			cand = append(cand, l[0])
		}
	}
	return cand
}

// legalFilter keeps the candidates that are legal under simple ko and no
// suicide.
func (w *worker) legalFilter(cand []goban.Loc, c goban.Color) []goban.Loc {
	out := cand[:0]
	for _, l := range cand {
		if w.board.Check(l, c, false) == nil {
			out = append(out, l)
		}
	}
	return out
}

// localReplies appends the empty points around last where c makes one of
// the 3×3 playout shapes (pattern3.go: hane, cuts, moves on the edge), and
// the points next to last that touch an own stone (blocks). Moves that
// fill an own eye or are self-atari are left out.
func (w *worker) localReplies(last goban.Loc, c goban.Color, cand []goban.Loc) []goban.Loc {
	b := w.board
	var around [8]goban.Loc
	nb := b.Neighbors(last)
	copy(around[:4], nb[:])
	for i, d := range w.geo.diag {
		around[4+i] = last + d
	}
	for i, p := range around {
		if b.ColorAt(p) != goban.Empty {
			continue
		}
		// A contact point that also touches an own stone blocks or
		// surrounds the last stone: without it an invasion that no
		// shape answers lives in too many playouts.
		if !pat3Match(b, p, w.geo.diag) && !(i < 4 && touches(b, p, c)) {
			continue
		}
		if !b.IsEye(p, c) && b.Check(p, c, false) == nil {
			if sa, _ := selfAtari(b, p, c); !sa {
				cand = append(cand, p)
			}
		}
	}
	return cand
}

// libsUpTo returns the number of liberties of the chain at l, counting no
// further than max, so that a big chain is not walked to the end.
func libsUpTo(b *goban.Board, l goban.Loc, max int) int {
	var buf [4]goban.Loc
	return len(chainLiberties(b, l, buf[:0], max))
}

// touches reports whether a stone of c lies next to l.
func touches(b *goban.Board, l goban.Loc, c goban.Color) bool {
	for _, q := range b.Neighbors(l) {
		if b.ColorAt(q) == c {
			return true
		}
	}
	return false
}

func containsLoc(ls []goban.Loc, l goban.Loc) bool {
	for _, q := range ls {
		if q == l {
			return true
		}
	}
	return false
}

// randomMove returns a random legal move for c that fills no own eye and is
// not self-atari, or PassLoc. A self-atari of up to maxNakade stones is
// allowed half of the time: throw-ins and the nakade that kill an eye space
// need it, and without it playouts treat every big eye as alive.
func (w *worker) randomMove(c goban.Color) goban.Loc {
	b := w.board
	empties := b.Empties()
	n := len(empties)
	if n == 0 {
		return goban.PassLoc
	}
	start := w.rng.Intn(n)
	for i := 0; i < n; i++ {
		j := start + i
		if j >= n {
			j -= n
		}
		l := empties[j]
		if b.IsEye(l, c) || b.Check(l, c, false) != nil {
			continue
		}
		if sa, size := selfAtari(b, l, c); sa {
			// In Atari-Go a self-atari loses at once; never play one.
			if size > maxNakade || w.s.rules.FirstCaptureWins || w.rng.Intn(2) != 0 {
				continue
			}
		}
		return l
	}
	return goban.PassLoc
}

// playout plays the policy from the worker's board with toMove to move
// after last, until two passes, the move limit or (Atari-Go) the first
// capture. It records the moves for AMAF and returns Black's area margin
// before komi, or, when a capture ended an Atari-Go playout, the winner.
func (w *worker) playout(toMove goban.Color, last goban.Loc) (score int, winner goban.Color) {
	b := w.board
	maxMoves := 3 * len(w.geo.locs)
	passes := 0
	firstCapture := w.s.rules.FirstCaptureWins
	for moves := 0; passes < 2 && moves < maxMoves; moves++ {
		l := w.playoutMove(toMove, last)
		if l == goban.PassLoc {
			passes++
			b.PlayPass()
		} else {
			passes = 0
			caps := b.Play(l, toMove)
			w.recordMove(l, toMove)
			if caps > 0 && firstCapture {
				return 0, toMove
			}
		}
		last = l
		toMove = toMove.Opponent()
	}
	// Without a capture (Atari-Go) the area count decides the playout,
	// which prefers safe shapes.
	return w.score(), goban.Empty
}

// score counts Black's area minus White's on the worker's board (stones and
// empty points whose neighbours are all one colour) and adds each point's
// owner to the worker's ownership sums.
func (w *worker) score() int {
	b := w.board
	score := 0
	w.ownMu.Lock()
	for i, l := range w.geo.locs {
		var v int32
		switch b.ColorAt(l) {
		case goban.Black:
			v = 1
		case goban.White:
			v = -1
		default:
			var seen [4]bool
			for _, n := range b.Neighbors(l) {
				seen[b.ColorAt(n)] = true
			}
			if seen[goban.Black] && !seen[goban.White] {
				v = 1
			} else if seen[goban.White] && !seen[goban.Black] {
				v = -1
			}
		}
		score += int(v)
		w.own[i] += v
		if w.finals != nil {
			w.finals = append(w.finals, int8(v))
		}
	}
	w.ownN++
	w.ownMu.Unlock()
	return score
}

// maxNakade is the largest self-atari chain the playouts allow: a larger
// chain in atari is a real group, a smaller one may be a throw-in or a
// nakade stone.
const maxNakade = 3
