package engine

import (
	"slices"
	"sort"

	"tengen/goban"
)

// readResult is what reading a chain's fight concludes.
type readResult int8

const (
	readUnknown readResult = iota // the reading ran out of depth or nodes
	readDead                      // the chain is captured
	readAlive                     // the chain stands when both players pass
)

// fateReader reads out whether the chain through one stone is captured:
// the players play on the chain's liberties and on the liberties of the
// enemy chains next to it that are short of liberties, or pass.
type fateReader struct {
	b      *goban.Board
	target goban.Loc
	def    goban.Color
	nodes  int
	// caught is the number of stones the defender had captured before
	// the reading.
	caught int
	// proved holds the results that are proofs (not readUnknown) by
	// position, player to move and passes in a row.
	proved map[fateKey]readResult
}

// fateKey identifies a position of the reading.
type fateKey struct {
	hash   uint64
	ko     goban.Loc
	toMove goban.Color
	passes int
}

// readFateDepth and readFateNodes bound the reading of one chain. The fights
// that the reading settles in finished games are small (tengen45-P32's took
// 16 positions); on the counted corpus 50,000 positions gave the same
// statuses at nearly twice the CPU time (docs/STRENGTH.md).
const (
	readFateDepth = 12
	readFateNodes = 2000
	// readFateLibs is the most liberties a chain may have for its fight to
	// be read: a chain with more is not in a local fight that the reading
	// can settle.
	readFateLibs = 4
)

// readFate reads the fight of the chain at target with toMove to play
// first.
func readFate(b *goban.Board, target goban.Loc, toMove goban.Color) readResult {
	r := &fateReader{b: b.Clone(), target: target, def: b.ColorAt(target)}
	r.b.ClearUndo()
	if len(chainLiberties(r.b, target, nil, readFateLibs+1)) > readFateLibs {
		return readUnknown
	}
	r.caught = r.b.Prisoners(r.def)
	r.proved = map[fateKey]readResult{}
	// A result short of readUnknown is a proof within the moves read, so
	// the first depth that gives one settles the fight.
	for d := 4; d <= readFateDepth; d += 2 {
		if res := r.read(toMove, d, 0); res != readUnknown {
			return res
		}
		if r.nodes >= readFateNodes {
			break
		}
	}
	return readUnknown
}

func (r *fateReader) moves() []goban.Loc {
	b := r.b
	libs := chainLiberties(b, r.target, nil, readFateLibs+1)
	if len(libs) > readFateLibs {
		return nil
	}
	out := slices.Clone(libs)
	var seen []goban.Loc
	for s := r.target; ; {
		for _, n := range b.Neighbors(s) {
			if b.ColorAt(n) != r.def.Opponent() || slices.Contains(seen, b.ChainHead(n)) {
				continue
			}
			seen = append(seen, b.ChainHead(n))
			el := chainLiberties(b, n, nil, readFateLibs+1)
			if len(el) > readFateLibs {
				continue
			}
			for _, q := range el {
				if !slices.Contains(out, q) {
					out = append(out, q)
				}
			}
		}
		s = b.NextInChain(s)
		if s == r.target {
			break
		}
	}
	return out
}

func (r *fateReader) read(toMove goban.Color, depth, passes int) readResult {
	b := r.b
	if b.ColorAt(r.target) != r.def {
		return readDead
	}
	if passes >= 2 {
		return readAlive
	}
	ms := r.moves()
	if ms == nil && b.Prisoners(r.def) > r.caught {
		// The chain has captured its way out to more liberties than a
		// local fight leaves.
		return readAlive
	}
	if ms == nil || depth == 0 || r.nodes >= readFateNodes {
		return readUnknown
	}
	ko, _ := b.Ko(toMove)
	key := fateKey{b.Hash(), ko, toMove, passes}
	if res, ok := r.proved[key]; ok {
		return res
	}
	res := r.search(ms, toMove, depth, passes)
	if res != readUnknown {
		r.proved[key] = res
	}
	return res
}

// search tries each move of ms and a pass for toMove.
func (r *fateReader) search(ms []goban.Loc, toMove goban.Color, depth, passes int) readResult {
	b := r.b
	r.nodes++
	want, other := readAlive, readDead
	if toMove != r.def {
		want, other = readDead, readAlive
	}
	// The moves that leave the target the fewest liberties first for the
	// attacker, the most for the defender (a capture counts the stones it
	// takes too); a pass last.
	type scored struct {
		m goban.Loc
		v int
	}
	var sc []scored
	for _, m := range ms {
		if b.Check(m, toMove, false) != nil {
			continue
		}
		took := b.Play(m, toMove)
		v := 0
		if b.ColorAt(r.target) == r.def {
			v = len(chainLiberties(b, r.target, nil, 8))
		}
		if toMove == r.def {
			v = -v - took
		}
		b.Undo()
		sc = append(sc, scored{m, v})
	}
	sort.SliceStable(sc, func(i, j int) bool { return sc[i].v < sc[j].v })
	order := make([]goban.Loc, 0, len(sc)+1)
	for _, x := range sc {
		order = append(order, x.m)
	}
	order = append(order, goban.PassLoc)
	unknown := false
	for _, m := range order {
		var res readResult
		if m == goban.PassLoc {
			b.PlayPass()
			res = r.read(toMove.Opponent(), depth-1, passes+1)
		} else {
			b.Play(m, toMove)
			res = r.read(toMove.Opponent(), depth-1, 0)
		}
		b.Undo()
		if res == want {
			return want
		}
		unknown = unknown || res == readUnknown
	}
	if unknown {
		return readUnknown
	}
	return other
}
