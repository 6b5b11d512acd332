package engine

import "tengen/goban"

// priorInput is the board knowledge that priors need about the position,
// computed once per expansion.
type priorInput struct {
	b    *goban.Board
	geo  *geometry
	c    goban.Color
	last goban.Loc
	// near[l] is true when a stone lies within Manhattan distance 2 of l.
	near []bool
	// escape[l] is true on the liberty of an own chain in atari.
	escape []bool
	// saveCapture[l] is true on a move that captures an enemy chain next
	// to an own chain in atari.
	saveCapture []bool
	scratch     *goban.Board
	// firstCapture is set in Atari-Go, where a self-atari loses.
	firstCapture bool
	// even is the prior every move starts with (searchParams.evenPrior).
	even float32
	// racing[h] is true at the head h of a chain with at most raceLibs
	// liberties that touches an enemy chain with at most raceLibs
	// liberties: the two are in a capturing race (or a close fight), where
	// filling an own liberty loses and taking an outside liberty of the
	// enemy wins. libs[h] holds the liberties of every chain, counted up to
	// raceLibs+1.
	racing []bool
	libs   []int8
	// net[l] is true when c at l captures an enemy chain with two
	// liberties in a net (geta): l is not one of its liberties, and every
	// extension of the chain is captured by a ladder.
	net []bool
	// cornerStones counts the stones in each corner zone: top left, top
	// right, bottom left, bottom right.
	cornerStones [4]int
}

// prior returns the prior knowledge of c playing at l as equivalent visits
// and wins. The features are hand-made: captures, escapes from atari (a
// laddered escape counts as bad), self-atari, the lines in open areas,
// nearness to the last move and the local shapes of the playout policy.
func (in *priorInput) prior(l goban.Loc) (pn, pw float32) {
	b, c := in.b, in.c
	opp := c.Opponent()
	// Every move starts with an even prior.
	pn, pw = in.even, in.even/2
	good := func(k float32) { pn += k; pw += k }
	bad := func(k float32) { pn += k }
	capture := false
	for _, q := range b.Neighbors(l) {
		if b.ColorAt(q) == opp && b.InAtari(q) {
			capture = true
			good(float32(20 + 5*min(b.ChainSize(q), 10)))
			if q == in.last || b.ChainHead(q) == b.ChainHead(in.last) {
				good(10)
			}
		}
	}
	if in.saveCapture[l] {
		good(30)
	}
	if in.escape[l] && !capture {
		if in.laddered(l) {
			bad(30)
		} else {
			good(30)
		}
	}
	if !capture && in.laddersChain(l) {
		good(25)
	}
	if in.net[l] {
		good(25)
	}
	if !capture {
		switch approach, selfFill := in.raceMove(l); {
		case selfFill:
			bad(25)
		case approach:
			good(15)
		}
	}
	sa, size := selfAtari(b, l, c)
	if sa {
		if in.firstCapture {
			bad(100)
		} else if size > 1 {
			bad(float32(20 + 5*min(size, 10)))
		} else {
			bad(10)
		}
	}
	if !in.near[l] {
		switch line := in.geo.line[l]; {
		case line == 0:
			bad(20)
		case line == 1:
			bad(8)
		case line == 2 || line == 3:
			good(8)
		}
		if in.emptyCorner(l) {
			good(10)
		}
	} else if in.geo.line[l] == 0 {
		bad(3)
	}
	if in.last != goban.PassLoc && b.ColorAt(in.last) != goban.Empty {
		for _, q := range b.Neighbors(in.last) {
			if q == l {
				good(4)
			}
		}
		for _, d := range in.geo.diag {
			if in.last+d == l {
				good(3)
			}
		}
	}
	// Shapes and ataris count only when they do not put the stone itself
	// into atari.
	if !sa && pat3Match(b, l, in.geo.diag) {
		good(5)
	}
	if !sa && !capture && in.atari(l) {
		good(4)
	}
	return pn, pw
}

// atari reports whether c at l takes an enemy chain next to l from two
// liberties to one.
func (in *priorInput) atari(l goban.Loc) bool {
	b := in.b
	for _, q := range b.Neighbors(l) {
		if b.ColorAt(q) == in.c.Opponent() && in.libs[b.ChainHead(q)] == 2 {
			return true
		}
	}
	return false
}

// cornerZone is the size of the square at each corner that counts as the
// corner for the opening heuristic.
const cornerZone = 6

// emptyCorner reports whether l lies on the third or fourth line inside a
// corner zone that holds no stone, on boards of 13×13 and more: the corners
// are the biggest points of the opening.
func (in *priorInput) emptyCorner(l goban.Loc) bool {
	g := in.geo
	if g.w < 13 || g.h < 13 || (g.line[l] != 2 && g.line[l] != 3) {
		return false
	}
	p := in.b.Point(l)
	cx, cy := p.X < cornerZone, p.Y < cornerZone
	if !cx && p.X < g.w-cornerZone || !cy && p.Y < g.h-cornerZone {
		return false
	}
	k := 0
	if !cx {
		k++
	}
	if !cy {
		k += 2
	}
	return in.cornerStones[k] == 0
}

// laddered reports whether c extending at l, the liberty of an own chain in
// atari, leaves a chain that the opponent captures in a ladder.
func (in *priorInput) laddered(l goban.Loc) bool {
	s := in.scratchBoard()
	if s.Check(l, in.c, false) != nil {
		return false
	}
	s.Play(l, in.c)
	return ladderCaptures(s, l, in.c.Opponent(), 0)
}

// laddersChain reports whether c at l puts an enemy chain with two
// liberties into atari and then captures it in a ladder.
func (in *priorInput) laddersChain(l goban.Loc) bool {
	b, c := in.b, in.c
	opp := c.Opponent()
	var targets [4]goban.Loc
	nt := 0
	for _, q := range b.Neighbors(l) {
		if b.ColorAt(q) == opp && in.libs[b.ChainHead(q)] == 2 && !containsLoc(targets[:nt], b.ChainHead(q)) {
			targets[nt] = b.ChainHead(q)
			nt++
		}
	}
	if nt == 0 || b.Check(l, c, false) != nil {
		return false
	}
	if sa, _ := selfAtari(b, l, c); sa {
		return false
	}
	s := in.scratchBoard()
	s.Play(l, c)
	for _, h := range targets[:nt] {
		if s.ColorAt(h) == opp && s.InAtari(h) && ladderEscapeFails(s, h, c, 0) {
			return true
		}
	}
	return false
}

// ladderCaptures reports whether attacker, to move, captures the chain at l
// by ataris alone (a ladder). The defender answers each atari by capturing
// an attacking chain in atari if it can, else by extending.
func ladderCaptures(b *goban.Board, l goban.Loc, attacker goban.Color, depth int) bool {
	libs := b.Liberties(l)
	if libs == 1 {
		return true
	}
	if libs != 2 || depth > 60 {
		return false
	}
	var buf [2]goban.Loc
	ls := chainLiberties(b, l, buf[:0], 2)
	for _, a := range ls {
		if b.Check(a, attacker, false) != nil {
			continue
		}
		b.Play(a, attacker)
		captured := false
		if b.InAtari(l) {
			captured = ladderEscapeFails(b, l, attacker, depth)
		}
		b.Undo()
		if captured {
			return true
		}
	}
	return false
}

// ladderEscapeFails plays the defender's answers to an atari on the chain
// at l and reports whether each fails.
func ladderEscapeFails(b *goban.Board, l goban.Loc, attacker goban.Color, depth int) bool {
	defender := attacker.Opponent()
	// Capturing an attacking stone in atari next to the chain escapes.
	if touchesAtari(b, l, attacker) {
		return false
	}
	var buf [1]goban.Loc
	ext := chainLiberties(b, l, buf[:0], 1)
	if len(ext) == 0 || b.Check(ext[0], defender, false) != nil {
		return true
	}
	b.Play(ext[0], defender)
	res := ladderCaptures(b, ext[0], attacker, depth+1)
	b.Undo()
	return res
}

// newPriorInput prepares the board knowledge for priors of c's moves.
func newPriorInput(b *goban.Board, geo *geometry, c goban.Color, last goban.Loc) *priorInput {
	return (&priorInput{even: defaultParams.evenPrior}).reset(b, geo, c, last)
}

// reset prepares in for the priors of c's moves on b, as newPriorInput
// does, reusing its slices and scratch board: a search expands a node every
// few simulations, and these six slices were most of its allocations
// (BenchmarkSearch9 went from 3 allocations per simulation to none).
func (in *priorInput) reset(b *goban.Board, geo *geometry, c goban.Color, last goban.Loc) *priorInput {
	n := b.NumLocs()
	if len(in.near) != n {
		in.near, in.escape, in.saveCapture = make([]bool, n), make([]bool, n), make([]bool, n)
		in.racing, in.libs, in.net = make([]bool, n), make([]int8, n), make([]bool, n)
		in.scratch = nil
	} else {
		clear(in.near)
		clear(in.escape)
		clear(in.saveCapture)
		clear(in.racing)
		clear(in.libs)
		clear(in.net)
	}
	in.b, in.geo, in.c, in.last = b, geo, c, last
	in.firstCapture = false
	in.cornerStones = [4]int{}
	opp := c.Opponent()
	var buf [4]goban.Loc
	in.findRaces()
	for _, l := range geo.locs {
		col := b.ColorAt(l)
		if col == goban.Empty {
			continue
		}
		p := b.Point(l)
		switch {
		case p.X < cornerZone && p.Y < cornerZone:
			in.cornerStones[0]++
		case p.X >= geo.w-cornerZone && p.Y < cornerZone:
			in.cornerStones[1]++
		case p.X < cornerZone && p.Y >= geo.h-cornerZone:
			in.cornerStones[2]++
		case p.X >= geo.w-cornerZone && p.Y >= geo.h-cornerZone:
			in.cornerStones[3]++
		}
		for dy := -2; dy <= 2; dy++ {
			for dx := -2; dx <= 2; dx++ {
				if abs(dx)+abs(dy) > 2 {
					continue
				}
				q := goban.Point{X: p.X + dx, Y: p.Y + dy}
				if b.OnBoard(q) {
					in.near[b.Loc(q)] = true
				}
			}
		}
		if col != c || !b.InAtari(l) || b.ChainHead(l) != l {
			continue
		}
		for _, lib := range chainLiberties(b, l, buf[:0], 1) {
			in.escape[lib] = true
		}
		for s := l; ; {
			for _, q := range b.Neighbors(s) {
				if b.ColorAt(q) == opp && b.InAtari(q) {
					for _, lib := range chainLiberties(b, q, buf[:0], 1) {
						in.saveCapture[lib] = true
					}
				}
			}
			s = b.NextInChain(s)
			if s == l {
				break
			}
		}
	}
	in.findNets()
	return in
}

// findNets marks the net moves of c (priorInput.net): for each enemy chain
// with two liberties, the empty points next to one of its liberties that
// are not liberties themselves are tried on a scratch board.
func (in *priorInput) findNets() {
	b, c := in.b, in.c
	opp := c.Opponent()
	var lbuf [3]goban.Loc
	for _, t := range in.geo.locs {
		if b.ColorAt(t) != opp || b.ChainHead(t) != t || in.libs[t] != 2 {
			continue
		}
		libs := chainLiberties(b, t, lbuf[:0], 3)
		for _, lib := range libs {
			for _, l := range b.Neighbors(lib) {
				if b.ColorAt(l) != goban.Empty || containsLoc(libs, l) || in.net[l] {
					continue
				}
				if b.Check(l, c, false) != nil {
					continue
				}
				if sa, _ := selfAtari(b, l, c); sa {
					continue
				}
				s := in.scratchBoard()
				s.Play(l, c)
				if netCaptures(s, t, c) {
					in.net[l] = true
				}
			}
		}
	}
}

// scratchBoard returns the scratch board, a copy of the position without
// undo history.
func (in *priorInput) scratchBoard() *goban.Board {
	if in.scratch == nil {
		in.scratch = in.b.Clone()
	} else {
		in.scratch.CopyFrom(in.b)
	}
	in.scratch.ClearUndo()
	return in.scratch
}

// touchesAtari reports whether a chain of c in atari lies next to the
// chain at l.
func touchesAtari(b *goban.Board, l goban.Loc, c goban.Color) bool {
	for s := l; ; {
		for _, q := range b.Neighbors(s) {
			if b.ColorAt(q) == c && b.InAtari(q) {
				return true
			}
		}
		s = b.NextInChain(s)
		if s == l {
			return false
		}
	}
}

// netCaptures reports whether the defender's chain at t, with the
// defender to move on b, is lost: it cannot capture an attacking chain
// next to it, and each extension at one of its liberties leaves it with
// at most two liberties and captured in a ladder.
func netCaptures(b *goban.Board, t goban.Loc, attacker goban.Color) bool {
	defender := attacker.Opponent()
	if touchesAtari(b, t, attacker) {
		return false
	}
	var buf [3]goban.Loc
	libs := chainLiberties(b, t, buf[:0], 3)
	if len(libs) != 2 {
		return len(libs) < 2
	}
	for _, lib := range libs {
		if b.Check(lib, defender, false) != nil {
			continue
		}
		b.Play(lib, defender)
		var lost bool
		switch n := b.Liberties(t); {
		case n <= 1:
			lost = true
		case n == 2:
			lost = ladderCaptures(b, t, attacker, 0)
		}
		b.Undo()
		if !lost {
			return false
		}
	}
	return true
}

// raceLibs is the most liberties a chain in a capturing race may have for
// the race priors: beyond it the race is too long for the priors to matter.
const raceLibs = 4

// findRaces marks the chains in capturing races (see priorInput.racing).
func (in *priorInput) findRaces() {
	b := in.b
	for _, l := range in.geo.locs {
		if c := b.ColorAt(l); c == goban.Empty || b.ChainHead(l) != l {
			continue
		}
		in.libs[l] = int8(libsUpTo(b, l, raceLibs+1))
	}
	for _, l := range in.geo.locs {
		c := b.ColorAt(l)
		if c == goban.Empty || b.ChainHead(l) != l || in.libs[l] > raceLibs {
			continue
		}
		for s := l; ; {
			for _, q := range b.Neighbors(s) {
				if qc := b.ColorAt(q); qc == c.Opponent() && in.libs[b.ChainHead(q)] <= raceLibs {
					in.racing[l] = true
				}
			}
			s = b.NextInChain(s)
			if s == l || in.racing[l] {
				break
			}
		}
	}
}

// raceMove classifies c's move at l in the capturing races on the board:
// approach is set when it takes a liberty of an enemy chain in a race,
// selfFill when it only takes a liberty of an own racing chain, which loses
// the race, without attacking one of the enemy's.
func (in *priorInput) raceMove(l goban.Loc) (approach, selfFill bool) {
	b, c := in.b, in.c
	fills := false
	after := -1 // the new chain's liberties, counted when first needed
	for _, q := range b.Neighbors(l) {
		switch b.ColorAt(q) {
		case c.Opponent():
			if in.racing[b.ChainHead(q)] {
				approach = true
			}
		case c:
			h := b.ChainHead(q)
			if !in.racing[h] {
				continue
			}
			if after < 0 {
				after = libertiesAfter(b, l, c, raceLibs+1)
			}
			if after < int(in.libs[h]) {
				fills = true
			}
		}
	}
	return approach, fills && !approach
}

// libertiesAfter returns the liberties, counted up to max, that the chain
// of a stone of c played on the empty point l would have, without
// captures.
func libertiesAfter(b *goban.Board, l goban.Loc, c goban.Color, max int) int {
	var buf [8]goban.Loc
	libs := buf[:0]
	add := func(q goban.Loc) {
		if q != l && !containsLoc(libs, q) && len(libs) < max {
			libs = append(libs, q)
		}
	}
	for _, q := range b.Neighbors(l) {
		switch b.ColorAt(q) {
		case goban.Empty:
			add(q)
		case c:
			// One more than max: l itself is among the chain's liberties.
			var cb [6]goban.Loc
			for _, lib := range chainLiberties(b, q, cb[:0], max+1) {
				add(lib)
			}
		}
	}
	return len(libs)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
