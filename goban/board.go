package goban

import (
	"errors"
	"fmt"
	"strings"
)

// MinSize and MaxSize bound the width and the height of a board.
const (
	MinSize = 2
	MaxSize = 25
)

// Loc is a point's index in the board's flat array, which has a border of
// Wall points around the playing area. Locs of different board sizes are not
// comparable. PassLoc stands for a pass.
type Loc int16

// PassLoc is the Loc of a pass; it is never a point of the board.
const PassLoc Loc = 0

// maxLocs is the array length of the largest board: a border row above and
// below, and one shared border column per row.
const maxLocs = (MaxSize+2)*(MaxSize+1) + 1

// zobrist holds the random numbers of the position hash, one per colour and
// Loc. They come from a fixed seed so that hashes are the same in every run.
var zobrist [3][maxLocs]uint64

func init() {
	s := uint64(0x9E3779B97F4A7C15)
	next := func() uint64 { // splitmix64
		s += 0x9E3779B97F4A7C15
		z := s
		z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
		z = (z ^ (z >> 27)) * 0x94D049BB133111EB
		return z ^ (z >> 31)
	}
	for c := 1; c <= 2; c++ {
		for i := range zobrist[c] {
			zobrist[c][i] = next()
		}
	}
}

// Board is the fast board: stones, chains with exact liberty counts, simple
// ko, prisoners and a Zobrist hash of the stones. Play and Undo do not
// allocate once the undo log has grown to the game's length. A Board does not
// know whose turn it is, nor superko; Game adds those.
//
// A Board is not safe for concurrent use; copy it with CopyFrom or Clone.
type Board struct {
	w, h   int
	stride Loc
	dirs   [4]Loc

	color []Color
	// head is the Loc of the chain's representative stone; next links the
	// stones of a chain in a circle. chain is valid at heads only.
	head  []Loc
	next  []Loc
	chain []chainInfo

	// empties lists the empty points; emptyAt is each empty point's index in
	// it, so that both adding and removing take constant time.
	empties []Loc
	emptyAt []int16

	hash uint64
	// ko is the point where koColor may not play on the next move (simple
	// ko), or PassLoc.
	ko      Loc
	koColor Color
	// prisoners counts the stones each colour has captured.
	prisoners [3]int

	// mark and libMark with markGen let traversals remember visited points
	// without clearing an array each time.
	mark    []uint32
	libMark []uint32
	markGen uint32
	stack   []Loc

	undo     []undoRecord
	captured []Loc
	// noUndo is set while a playout runs: its moves are never taken back,
	// so they are not logged.
	noUndo bool
}

// chainInfo describes the chain whose head is its index. size counts
// stones; plibs counts pseudo-liberties (each pair of a stone and an empty
// neighbour once, so a liberty next to two stones of the chain counts
// twice), lsum and lsq hold the sum of their Locs and of their squares. A
// chain has no liberty when plibs is 0 and is in atari exactly when all its
// pseudo-liberties are one point, that is when plibs*lsq == lsum*lsum.
// Pseudo-liberties add up when chains merge, so no move needs to count
// liberties. The four fields share one 16-byte record so that a move
// touches one cache line per chain.
type chainInfo struct {
	lsq   int64
	lsum  int32
	plibs int16
	size  int16
}

// undoRecord is what Undo needs to take back one Play or pass.
type undoRecord struct {
	loc      Loc
	color    Color
	suicide  bool
	ko       Loc
	koColor  Color
	hash     uint64
	capStart int32 // index into Board.captured of this move's captures
	capCount int32 // opponent stones captured, then (if suicide) own stones
	ownCount int32
}

// NewBoard returns an empty board of the given size. Width and height must
// be between MinSize and MaxSize.
func NewBoard(width, height int) (*Board, error) {
	if width < MinSize || width > MaxSize || height < MinSize || height > MaxSize {
		return nil, fmt.Errorf("goban: board size %d×%d is outside %d×%d to %d×%d", width, height, MinSize, MinSize, MaxSize, MaxSize)
	}
	b := &Board{w: width, h: height, stride: Loc(width + 1)}
	b.dirs = [4]Loc{-b.stride, -1, 1, b.stride}
	n := int(b.stride)*(height+2) + 1
	b.color = make([]Color, n)
	b.head = make([]Loc, n)
	b.next = make([]Loc, n)
	b.chain = make([]chainInfo, n)
	b.emptyAt = make([]int16, n)
	b.mark = make([]uint32, n)
	b.libMark = make([]uint32, n)
	b.empties = make([]Loc, 0, width*height)
	b.stack = make([]Loc, 0, width*height)
	for i := range b.color {
		b.color[i] = Wall
		b.emptyAt[i] = -1
	}
	for y := 0; y < height; y++ {
		for x := 0; x < width; x++ {
			l := b.loc(x, y)
			b.color[l] = Empty
			b.emptyAt[l] = int16(len(b.empties))
			b.empties = append(b.empties, l)
		}
	}
	return b, nil
}

// MustNewBoard is NewBoard for sizes known to be valid; it panics otherwise.
func MustNewBoard(width, height int) *Board {
	b, err := NewBoard(width, height)
	if err != nil {
		panic(err)
	}
	return b
}

// Clone returns an independent copy of b, including its undo log.
func (b *Board) Clone() *Board {
	c := &Board{}
	c.CopyFrom(b)
	return c
}

// CopyFrom makes b an exact copy of src, reusing b's memory when the sizes
// match, so that playouts can start from a position without allocating.
func (b *Board) CopyFrom(src *Board) {
	b.w, b.h, b.stride, b.dirs = src.w, src.h, src.stride, src.dirs
	b.color = append(b.color[:0], src.color...)
	b.head = append(b.head[:0], src.head...)
	b.next = append(b.next[:0], src.next...)
	b.chain = append(b.chain[:0], src.chain...)
	b.empties = append(b.empties[:0], src.empties...)
	b.emptyAt = append(b.emptyAt[:0], src.emptyAt...)
	b.hash, b.ko, b.koColor, b.prisoners = src.hash, src.ko, src.koColor, src.prisoners
	if len(b.mark) != len(src.mark) {
		b.mark = make([]uint32, len(src.mark))
		b.libMark = make([]uint32, len(src.mark))
		b.markGen = 0
	}
	if cap(b.stack) < cap(src.stack) {
		b.stack = make([]Loc, 0, cap(src.stack))
	}
	b.undo = append(b.undo[:0], src.undo...)
	b.captured = append(b.captured[:0], src.captured...)
}

// Width returns the number of columns.
func (b *Board) Width() int { return b.w }

// Height returns the number of rows.
func (b *Board) Height() int { return b.h }

func (b *Board) loc(x, y int) Loc { return Loc(x+1) + Loc(y+1)*b.stride }

// Loc returns the Loc of p, or PassLoc when p is off the board.
func (b *Board) Loc(p Point) Loc {
	if !b.OnBoard(p) {
		return PassLoc
	}
	return b.loc(p.X, p.Y)
}

// Point returns the point of a Loc on the board.
func (b *Board) Point(l Loc) Point {
	return Point{X: int(l%b.stride) - 1, Y: int(l/b.stride) - 1}
}

// OnBoard reports whether p lies on the board.
func (b *Board) OnBoard(p Point) bool {
	return p.X >= 0 && p.Y >= 0 && p.X < b.w && p.Y < b.h
}

// NumLocs returns the length of the board's flat arrays: every Loc of the
// board is below it.
func (b *Board) NumLocs() int { return len(b.color) }

// Neighbors returns the four orthogonal neighbours of a Loc; some may be
// Wall.
func (b *Board) Neighbors(l Loc) [4]Loc {
	return [4]Loc{l + b.dirs[0], l + b.dirs[1], l + b.dirs[2], l + b.dirs[3]}
}

// At returns the colour at p, or Wall when p is off the board.
func (b *Board) At(p Point) Color {
	if !b.OnBoard(p) {
		return Wall
	}
	return b.color[b.loc(p.X, p.Y)]
}

// ColorAt returns the colour at a Loc.
func (b *Board) ColorAt(l Loc) Color { return b.color[l] }

// Liberties returns the number of liberties of the chain at l, or 0 when l
// holds no stone. It takes constant time for chains with at most two
// liberties and otherwise walks the chain; use InAtari for the common test.
func (b *Board) Liberties(l Loc) int {
	if c := b.color[l]; c != Black && c != White {
		return 0
	}
	h := b.head[l]
	switch {
	case b.chain[h].plibs == 0:
		return 0
	case b.atari(h):
		return 1
	case b.chain[h].plibs == 2:
		return 2
	}
	return int(b.countLibs(h))
}

// InAtari reports whether the chain at l has exactly one liberty.
func (b *Board) InAtari(l Loc) bool {
	if c := b.color[l]; c != Black && c != White {
		return false
	}
	return b.atari(b.head[l])
}

// atari reports whether the chain headed by h has exactly one liberty.
func (b *Board) atari(h Loc) bool {
	n := int64(b.chain[h].plibs)
	return n > 0 && n*b.chain[h].lsq == int64(b.chain[h].lsum)*int64(b.chain[h].lsum)
}

// addLib adds the pseudo-liberty e to the chain headed by h. (Where one
// goes, the placing code updates the three sums inline.)
func (b *Board) addLib(h, e Loc) {
	b.chain[h].plibs++
	b.chain[h].lsum += int32(e)
	b.chain[h].lsq += int64(e) * int64(e)
}

// ChainSize returns the number of stones of the chain at l, or 0.
func (b *Board) ChainSize(l Loc) int {
	if c := b.color[l]; c != Black && c != White {
		return 0
	}
	return int(b.chain[b.head[l]].size)
}

// ChainHead returns the representative Loc of the chain at l: two stones
// belong to one chain exactly when their heads are equal.
func (b *Board) ChainHead(l Loc) Loc { return b.head[l] }

// NextInChain returns the next stone of l's chain; following it from any
// stone visits the whole chain and comes back.
func (b *Board) NextInChain(l Loc) Loc { return b.next[l] }

// Hash returns the Zobrist hash of the stones on the board.
func (b *Board) Hash() uint64 { return b.hash }

// Ko returns the point that colour c may not play on at once because of the
// simple ko rule, and whether there is one.
func (b *Board) Ko(c Color) (Loc, bool) {
	if b.ko != PassLoc && b.koColor == c {
		return b.ko, true
	}
	return PassLoc, false
}

// Prisoners returns the number of stones that c has captured on this board.
func (b *Board) Prisoners(c Color) int { return b.prisoners[c] }

// Empties returns the empty points. The slice belongs to the board and
// changes with the next move.
func (b *Board) Empties() []Loc { return b.empties }

// Stones returns the number of stones of colour c on the board.
func (b *Board) Stones(c Color) int {
	n := 0
	for y := 0; y < b.h; y++ {
		for x := 0; x < b.w; x++ {
			if b.color[b.loc(x, y)] == c {
				n++
			}
		}
	}
	return n
}

// The reasons why a move is illegal. Errors from this package wrap one of
// them, so callers test with errors.Is.
var (
	ErrOccupied    = errors.New("occupied")
	ErrSuicide     = errors.New("suicide")
	ErrKo          = errors.New("ko")
	ErrSuperko     = errors.New("superko")
	ErrOffBoard    = errors.New("off board")
	ErrNotYourTurn = errors.New("not your turn")
	ErrGameOver    = errors.New("game over")
	// ErrPassNotAllowed refuses a pass in Atari-Go while a stone can be
	// played.
	ErrPassNotAllowed = errors.New("pass not allowed while a stone can be played")
	// ErrHandicapToPlace refuses plays and passes while Black still has
	// free handicap stones to place (Game.PlaceHandicapStone).
	ErrHandicapToPlace = errors.New("handicap stones still to place")
)

// Check reports whether c may play at l under simple ko, with multi-stone
// suicide allowed or not, and returns nil or one of ErrOffBoard, ErrOccupied,
// ErrKo and ErrSuicide. Single-stone suicide is never legal.
func (b *Board) Check(l Loc, c Color, multiStoneSuicide bool) error {
	if l <= 0 || int(l) >= len(b.color) || b.color[l] == Wall {
		return ErrOffBoard
	}
	if b.color[l] != Empty {
		return ErrOccupied
	}
	if l == b.ko && c == b.koColor {
		return ErrKo
	}
	if b.isSuicide(l, c) {
		if !multiStoneSuicide || !b.hasOwnNeighbor(l, c) {
			return ErrSuicide
		}
	}
	return nil
}

// isSuicide reports whether a stone of c at the empty point l would have no
// liberty after it captured what it captures ("capture goes first").
func (b *Board) isSuicide(l Loc, c Color) bool {
	// The four neighbours are written out rather than looped over: each
	// test then has its own branch-predictor entry, which makes random
	// playouts measurably faster. A chain of c that keeps a liberty, or an
	// enemy chain in atari that the stone captures, gives the stone a
	// liberty.
	col, head, chain, st := b.color, b.head, b.chain, b.stride
	if n := l + -st; col[n] == Empty {
		return false
	} else if nc := col[n]; nc != Wall {
		ch := &chain[head[n]]
		if (int64(ch.plibs)*ch.lsq == int64(ch.lsum)*int64(ch.lsum)) == (nc != c) {
			return false
		}
	}
	if n := l + -1; col[n] == Empty {
		return false
	} else if nc := col[n]; nc != Wall {
		ch := &chain[head[n]]
		if (int64(ch.plibs)*ch.lsq == int64(ch.lsum)*int64(ch.lsum)) == (nc != c) {
			return false
		}
	}
	if n := l + 1; col[n] == Empty {
		return false
	} else if nc := col[n]; nc != Wall {
		ch := &chain[head[n]]
		if (int64(ch.plibs)*ch.lsq == int64(ch.lsum)*int64(ch.lsum)) == (nc != c) {
			return false
		}
	}
	if n := l + st; col[n] == Empty {
		return false
	} else if nc := col[n]; nc != Wall {
		ch := &chain[head[n]]
		if (int64(ch.plibs)*ch.lsq == int64(ch.lsum)*int64(ch.lsum)) == (nc != c) {
			return false
		}
	}
	return true
}

func (b *Board) hasOwnNeighbor(l Loc, c Color) bool {
	for _, d := range b.dirs {
		if b.color[l+d] == c {
			return true
		}
	}
	return false
}

// WouldCapture reports whether a stone of c at l would capture at least one
// enemy stone.
func (b *Board) WouldCapture(l Loc, c Color) bool {
	opp := c.Opponent()
	for _, d := range b.dirs {
		n := l + d
		if b.color[n] == opp && b.atari(b.head[n]) {
			return true
		}
	}
	return false
}

// Play puts a stone of colour c on l, removes the enemy chains left without
// liberties and then, if its own chain has none (multi-stone suicide, which
// the caller must have allowed), removes that chain. It does not check
// legality: call Check first. It returns the number of enemy stones captured.
func (b *Board) Play(l Loc, c Color) int {
	rec := undoRecord{loc: l, color: c, ko: b.ko, koColor: b.koColor, hash: b.hash, capStart: int32(len(b.captured))}
	opp := Black + White - c // c is Black or White
	col, head, chain := b.color, b.head, b.chain

	col[l] = c
	b.removeEmpty(l)
	b.hash ^= zobrist[c][l]
	head[l] = l
	b.next[l] = l

	if b.nbrSig(l) == 0 {
		// Four empty neighbours, the common case early in a playout.
		st := b.stride
		chain[l] = chainInfo{size: 1, plibs: 4, lsum: 4 * int32(l), lsq: 4*int64(l)*int64(l) + 2 + 2*int64(st)*int64(st)}
		b.ko = PassLoc
		if !b.noUndo {
			b.undo = append(b.undo, rec)
		}
		return 0
	}

	// One pass over the neighbours: every neighbouring stone loses l as a
	// pseudo-liberty, every empty neighbour is one of the new stone's. An
	// enemy chain whose count drops to zero is captured; it cannot reach
	// zero twice, because a chain that touches l twice still has l once
	// after the first subtraction. The four neighbours are written out
	// rather than looped over: each test then has its own entry in the
	// branch predictor, which makes random playouts a seventh faster.
	var own, caps [4]Loc
	nown, ncaps := 0, 0
	var np int16
	var ns int32
	var nq int64
	l32, lq := int32(l), int64(l)*int64(l)
	st := b.stride
	{
		n := l - st
		switch nc := col[n]; nc {
		case Empty:
			np++
			ns += int32(n)
			nq += int64(n) * int64(n)
		case Black, White:
			h := head[n]
			ch := &chain[h]
			ch.plibs--
			ch.lsum -= l32
			ch.lsq -= lq
			if nc == opp {
				if ch.plibs == 0 {
					caps[ncaps] = h
					ncaps++
				}
			} else if (nown < 1 || own[0] != h) && (nown < 2 || own[1] != h) && (nown < 3 || own[2] != h) {
				own[nown] = h
				nown++
			}
		}
	}
	{
		n := l - 1
		switch nc := col[n]; nc {
		case Empty:
			np++
			ns += int32(n)
			nq += int64(n) * int64(n)
		case Black, White:
			h := head[n]
			ch := &chain[h]
			ch.plibs--
			ch.lsum -= l32
			ch.lsq -= lq
			if nc == opp {
				if ch.plibs == 0 {
					caps[ncaps] = h
					ncaps++
				}
			} else if (nown < 1 || own[0] != h) && (nown < 2 || own[1] != h) && (nown < 3 || own[2] != h) {
				own[nown] = h
				nown++
			}
		}
	}
	{
		n := l + 1
		switch nc := col[n]; nc {
		case Empty:
			np++
			ns += int32(n)
			nq += int64(n) * int64(n)
		case Black, White:
			h := head[n]
			ch := &chain[h]
			ch.plibs--
			ch.lsum -= l32
			ch.lsq -= lq
			if nc == opp {
				if ch.plibs == 0 {
					caps[ncaps] = h
					ncaps++
				}
			} else if (nown < 1 || own[0] != h) && (nown < 2 || own[1] != h) && (nown < 3 || own[2] != h) {
				own[nown] = h
				nown++
			}
		}
	}
	{
		n := l + st
		switch nc := col[n]; nc {
		case Empty:
			np++
			ns += int32(n)
			nq += int64(n) * int64(n)
		case Black, White:
			h := head[n]
			ch := &chain[h]
			ch.plibs--
			ch.lsum -= l32
			ch.lsq -= lq
			if nc == opp {
				if ch.plibs == 0 {
					caps[ncaps] = h
					ncaps++
				}
			} else if (nown < 1 || own[0] != h) && (nown < 2 || own[1] != h) && (nown < 3 || own[2] != h) {
				own[nown] = h
				nown++
			}
		}
	}
	chain[l] = chainInfo{size: 1, plibs: np, lsum: ns, lsq: nq}
	for i := 0; i < nown; i++ {
		b.merge(head[l], own[i])
	}

	captured := 0
	for i := 0; i < ncaps; i++ {
		h := caps[i]
		captured += int(chain[h].size)
		b.removeChain(h)
	}
	rec.capCount = int32(captured)
	b.prisoners[c] += captured

	b.ko = PassLoc
	h := head[l]
	if chain[h].plibs == 0 {
		// Multi-stone suicide: the caller allowed it.
		rec.suicide = true
		rec.ownCount = int32(chain[h].size)
		b.prisoners[opp] += int(chain[h].size)
		b.removeChain(h)
	} else if captured == 1 && chain[h].size == 1 && b.atari(h) {
		b.ko = caps[0]
		b.koColor = opp
	}
	if b.noUndo {
		b.captured = b.captured[:rec.capStart]
	} else {
		b.undo = append(b.undo, rec)
	}
	return captured
}

// PlayPass records a pass, which clears the simple-ko point, so that Undo
// can take it back in turn.
func (b *Board) PlayPass() {
	b.undo = append(b.undo, undoRecord{loc: PassLoc, ko: b.ko, koColor: b.koColor, hash: b.hash, capStart: int32(len(b.captured))})
	b.ko = PassLoc
}

// merge joins the chain headed by a with the chain headed by o; the larger
// chain's head survives and the pseudo-liberties add up.
func (b *Board) merge(a, o Loc) {
	chain, head, next := b.chain, b.head, b.next
	if chain[a].size < chain[o].size {
		a, o = o, a
	}
	s := o
	for {
		head[s] = a
		s = next[s]
		if s == o {
			break
		}
	}
	next[a], next[o] = next[o], next[a]
	ca, co := &chain[a], &chain[o]
	ca.size += co.size
	ca.plibs += co.plibs
	ca.lsum += co.lsum
	ca.lsq += co.lsq
}

// countLibs counts the distinct liberties of the chain headed by h.
func (b *Board) countLibs(h Loc) int16 {
	b.markGen++
	gen := b.markGen
	var n int16
	s := h
	for {
		for _, d := range b.dirs {
			q := s + d
			if b.color[q] == Empty && b.libMark[q] != gen {
				b.libMark[q] = gen
				n++
			}
		}
		s = b.next[s]
		if s == h {
			break
		}
	}
	return n
}

// removeChain takes the chain headed by h off the board, records its stones
// for Undo and gives each neighbouring stone's chain the new
// pseudo-liberties.
func (b *Board) removeChain(h Loc) {
	col, head, next, chain := b.color, b.head, b.next, b.chain
	c := col[h]
	s := h
	for {
		col[s] = Empty
		b.hash ^= zobrist[c&3][s]
		b.addEmpty(s)
		b.captured = append(b.captured, s)
		s = next[s]
		if s == h {
			break
		}
	}
	// The neighbours are written out for the branch predictor, as in
	// isSuicide.
	st := b.stride
	s = h
	for {
		s32, sq := int32(s), int64(s)*int64(s)
		if qc := col[s-st]; qc == Black || qc == White {
			ch := &chain[head[s-st]]
			ch.plibs++
			ch.lsum += s32
			ch.lsq += sq
		}
		if qc := col[s-1]; qc == Black || qc == White {
			ch := &chain[head[s-1]]
			ch.plibs++
			ch.lsum += s32
			ch.lsq += sq
		}
		if qc := col[s+1]; qc == Black || qc == White {
			ch := &chain[head[s+1]]
			ch.plibs++
			ch.lsum += s32
			ch.lsq += sq
		}
		if qc := col[s+st]; qc == Black || qc == White {
			ch := &chain[head[s+st]]
			ch.plibs++
			ch.lsum += s32
			ch.lsq += sq
		}
		s = next[s]
		if s == h {
			break
		}
	}
}

func (b *Board) addEmpty(l Loc) {
	b.emptyAt[l] = int16(len(b.empties))
	b.empties = append(b.empties, l)
}

func (b *Board) removeEmpty(l Loc) {
	i := b.emptyAt[l]
	last := b.empties[len(b.empties)-1]
	b.empties[i] = last
	b.emptyAt[last] = i
	b.empties = b.empties[:len(b.empties)-1]
	b.emptyAt[l] = -1
}

// CanUndo reports whether there is a Play or PlayPass to take back.
func (b *Board) CanUndo() bool { return len(b.undo) > 0 }

// Undo takes back the last Play or PlayPass exactly, including captures,
// prisoners, the ko point and the hash.
func (b *Board) Undo() {
	rec := b.undo[len(b.undo)-1]
	b.undo = b.undo[:len(b.undo)-1]
	b.ko, b.koColor = rec.ko, rec.koColor
	if rec.loc == PassLoc {
		return
	}
	c, opp := rec.color, rec.color.Opponent()
	caps := b.captured[rec.capStart:]
	b.captured = b.captured[:rec.capStart]
	b.prisoners[c] -= int(rec.capCount)
	if rec.suicide {
		b.prisoners[opp] -= int(rec.ownCount)
		for _, s := range caps[rec.capCount:] {
			if s != rec.loc {
				b.color[s] = c
				b.removeEmpty(s)
			}
		}
	} else {
		b.color[rec.loc] = Empty
		b.addEmpty(rec.loc)
	}
	for _, s := range caps[:rec.capCount] {
		b.color[s] = opp
		b.removeEmpty(s)
	}
	b.hash = rec.hash

	// Rebuild every chain whose stones or liberties the move changed: the
	// chains next to the played point, the restored chains and their
	// neighbours.
	b.markGen++
	gen := b.markGen
	b.rebuildAround(rec.loc, gen)
	for _, s := range caps {
		if b.color[s] != Empty && b.mark[s] != gen {
			b.rebuildChain(s, gen)
		}
		b.rebuildAround(s, gen)
	}
}

func (b *Board) rebuildAround(l Loc, gen uint32) {
	for _, d := range b.dirs {
		q := l + d
		if qc := b.color[q]; (qc == Black || qc == White) && b.mark[q] != gen {
			b.rebuildChain(q, gen)
		}
	}
}

// rebuildChain recomputes head, next, size and pseudo-liberties of the
// chain that holds l, marking its stones with gen.
func (b *Board) rebuildChain(l Loc, gen uint32) {
	c := b.color[l]
	b.stack = append(b.stack[:0], l)
	b.mark[l] = gen
	head, prev := l, l
	var size int16
	for len(b.stack) > 0 {
		s := b.stack[len(b.stack)-1]
		b.stack = b.stack[:len(b.stack)-1]
		b.head[s] = head
		if s != head {
			b.next[prev] = s
		}
		prev = s
		size++
		for _, d := range b.dirs {
			q := s + d
			if b.color[q] == c && b.mark[q] != gen {
				b.mark[q] = gen
				b.stack = append(b.stack, q)
			}
		}
	}
	b.next[prev] = head
	b.chain[head].size = size
	b.chain[head].plibs, b.chain[head].lsum, b.chain[head].lsq = 0, 0, 0
	for s := head; ; {
		for _, d := range b.dirs {
			if q := s + d; b.color[q] == Empty {
				b.addLib(head, q)
			}
		}
		s = b.next[s]
		if s == head {
			break
		}
	}
}

// rebuildAll recomputes every chain, the empty list and the hash from the
// colours alone; setup stones use it.
func (b *Board) rebuildAll() {
	b.empties = b.empties[:0]
	b.hash = 0
	for l := range b.color {
		b.emptyAt[l] = -1
	}
	for y := 0; y < b.h; y++ {
		for x := 0; x < b.w; x++ {
			l := b.loc(x, y)
			switch c := b.color[l]; c {
			case Empty:
				b.addEmpty(l)
			default:
				b.hash ^= zobrist[c][l]
			}
		}
	}
	b.markGen++
	gen := b.markGen
	for y := 0; y < b.h; y++ {
		for x := 0; x < b.w; x++ {
			l := b.loc(x, y)
			if c := b.color[l]; (c == Black || c == White) && b.mark[l] != gen {
				b.rebuildChain(l, gen)
			}
		}
	}
}

// Setup places or clears stones without the rules, as SGF's AB, AW and AE
// do: no captures happen, the ko point and the undo log are cleared, and
// chains are recomputed. Chains left without liberties stay on the board.
func (b *Board) Setup(c Color, points ...Point) error {
	if c == Wall {
		return fmt.Errorf("goban: cannot set up %v", c)
	}
	for _, p := range points {
		if !b.OnBoard(p) {
			return fmt.Errorf("goban: setup point %v: %w", p, ErrOffBoard)
		}
	}
	for _, p := range points {
		b.color[b.loc(p.X, p.Y)] = c
	}
	b.ko = PassLoc
	b.undo = b.undo[:0]
	b.captured = b.captured[:0]
	b.rebuildAll()
	return nil
}

// String draws the board with 'X' for black, 'O' for white and '.' for
// empty points, one row per line from the top, as ParseBoard reads it.
func (b *Board) String() string {
	var sb strings.Builder
	for y := 0; y < b.h; y++ {
		for x := 0; x < b.w; x++ {
			if x > 0 {
				sb.WriteByte(' ')
			}
			switch b.color[b.loc(x, y)] {
			case Black:
				sb.WriteByte('X')
			case White:
				sb.WriteByte('O')
			default:
				sb.WriteByte('.')
			}
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}

// ParseBoard reads a diagram: one line per row from the top, 'X' or '#' or
// 'B' for black, 'O' or 'W' for white, '.', '+' or ',' for empty points;
// spaces are ignored, as are blank lines. All rows must have the same length.
func ParseBoard(diagram string) (*Board, error) {
	var rows [][]Color
	for i, line := range strings.Split(diagram, "\n") {
		var row []Color
		for j, r := range line {
			switch r {
			case ' ', '\t', '\r':
			case 'X', 'x', '#', 'B', '@':
				row = append(row, Black)
			case 'O', 'o', 'W':
				row = append(row, White)
			case '.', '+', ',':
				row = append(row, Empty)
			default:
				return nil, fmt.Errorf("goban: diagram %d:%d: unexpected %q", i+1, j+1, r)
			}
		}
		if len(row) == 0 {
			continue
		}
		if len(rows) > 0 && len(row) != len(rows[0]) {
			return nil, fmt.Errorf("goban: diagram %d:1: row has %d points, the first row %d", i+1, len(row), len(rows[0]))
		}
		rows = append(rows, row)
	}
	if len(rows) == 0 {
		return nil, errors.New("goban: empty diagram")
	}
	b, err := NewBoard(len(rows[0]), len(rows))
	if err != nil {
		return nil, err
	}
	for y, row := range rows {
		for x, c := range row {
			b.color[b.loc(x, y)] = c
		}
	}
	b.rebuildAll()
	return b, nil
}
