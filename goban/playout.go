package goban

// Rand is a small, fast pseudo-random generator (xorshift64*) for playouts.
// It is deterministic for a given seed and not safe for concurrent use.
type Rand struct{ s uint64 }

// NewRand returns a generator started from seed; seed 0 is replaced by a
// fixed non-zero value.
func NewRand(seed uint64) *Rand {
	if seed == 0 {
		seed = 0x2545F4914F6CDD1D
	}
	return &Rand{s: seed}
}

// Uint64 returns the next pseudo-random number.
func (r *Rand) Uint64() uint64 {
	r.s ^= r.s >> 12
	r.s ^= r.s << 25
	r.s ^= r.s >> 27
	return r.s * 2685821657736338717
}

// Intn returns a pseudo-random number in [0, n); n must be positive.
func (r *Rand) Intn(n int) int {
	return int((r.Uint64() >> 32) * uint64(n) >> 32)
}

// The neighbour classes: nbrClass, indexed by the colours of a point's four
// neighbours packed two bits each (see nbrSig), tells in one load whether
// the point has an empty neighbour and whether all its neighbours are one
// colour or the edge. diagClass, indexed the same way by the four diagonal
// points, counts the black and white ones and tells whether one is off the
// board. Random playouts test every candidate point this way; one table
// load replaces four unpredictable branches.
const (
	classEmptyNbr  = 1 << 0
	classEyeBlack  = 1 << 1 // every neighbour Black or Wall
	classEyeWhite  = 1 << 2 // every neighbour White or Wall
	diagWall       = 1 << 0
	diagBlackShift = 1
	diagWhiteShift = 4
)

var nbrClass, diagClass [256]uint8

// emptyOwner, indexed like nbrClass, is +1 when a point's neighbours are
// Black (and perhaps empty or the edge) but not White, −1 for the reverse
// and 0 otherwise: the owner of an empty point in AreaScore.
var emptyOwner [256]int8

func init() {
	for sig := range 256 {
		var cls, diag uint8
		eyeB, eyeW := true, true
		var nb, nw uint8
		for i := range 4 {
			switch Color(sig >> (2 * i) & 3) {
			case Empty:
				cls |= classEmptyNbr
				eyeB, eyeW = false, false
			case Black:
				eyeW = false
				nb++
			case White:
				eyeB = false
				nw++
			case Wall:
				diag |= diagWall
			}
		}
		if eyeB {
			cls |= classEyeBlack
		}
		if eyeW {
			cls |= classEyeWhite
		}
		nbrClass[sig] = cls
		switch {
		case nb > 0 && nw == 0:
			emptyOwner[sig] = 1
		case nw > 0 && nb == 0:
			emptyOwner[sig] = -1
		}
		diagClass[sig] = diag | nb<<diagBlackShift | nw<<diagWhiteShift
	}
}

// nbrSig packs the colours of l's four neighbours into an index of
// nbrClass.
func (b *Board) nbrSig(l Loc) uint8 {
	col, st := b.color, b.stride
	return uint8(col[l-1]) | uint8(col[l+1])<<2 | uint8(col[l-st])<<4 | uint8(col[l+st])<<6
}

// eyeShape reports whether the point l, all of whose neighbours are c or
// the edge, is a one-point eye of c by its diagonals: the opponent holds
// fewer than two of them, or none when l is on the edge.
func (b *Board) eyeShape(l Loc, c Color) bool {
	col, st := b.color, b.stride
	d := diagClass[uint8(col[l-st-1])|uint8(col[l-st+1])<<2|uint8(col[l+st-1])<<4|uint8(col[l+st+1])<<6]
	bad := d >> diagBlackShift & 7
	if c == Black {
		bad = d >> diagWhiteShift & 7
	}
	// On the edge, the diagonals beyond it are off the board.
	if d&diagWall != 0 {
		return bad == 0
	}
	return bad < 2
}

// IsEye reports whether the empty point l is a one-point eye of colour c:
// all its neighbours are c (or the edge), and the opponent holds fewer than
// two of its diagonal points (fewer than one on the edge), so that the eye
// cannot be made false.
func (b *Board) IsEye(l Loc, c Color) bool {
	if b.color[l] != Empty || nbrClass[b.nbrSig(l)]&eyeClass[c] == 0 {
		return false
	}
	return b.eyeShape(l, c)
}

// eyeClass is the nbrClass bit of "every neighbour is c or the edge".
var eyeClass = [4]uint8{Black: classEyeBlack, White: classEyeWhite}

// RandomMove chooses a uniformly started random legal move for c that does
// not fill one of c's own eyes and is not suicide, or PassLoc when there is
// none. Simple ko is respected.
func (b *Board) RandomMove(c Color, r *Rand) Loc {
	n := len(b.empties)
	if n == 0 {
		return PassLoc
	}
	empties := b.empties
	eye := eyeClass[c&3]
	start := r.Intn(n)
	for i := 0; i < n; i++ {
		j := start + i
		if j >= n {
			j -= n
		}
		l := empties[j]
		// Most points have an empty neighbour: then they are neither an eye
		// nor suicide, nor a ko point (which is surrounded).
		cls := nbrClass[b.nbrSig(l)]
		if cls&classEmptyNbr != 0 {
			return l
		}
		if l == b.ko && c == b.koColor {
			continue
		}
		if cls&eye != 0 && b.eyeShape(l, c) || b.isSuicide(l, c) {
			continue
		}
		return l
	}
	return PassLoc
}

// Playout plays random moves (see RandomMove) from the position, starting
// with toMove, until both players pass in a row or maxMoves moves have been
// made, and returns the number of moves made. Suicide is never played.
//
// The playout's moves are not recorded for Undo: Undo still takes back the
// moves made before the playout only if the caller restores the position
// itself (playouts normally run on a copy made with CopyFrom).
func (b *Board) Playout(toMove Color, r *Rand, maxMoves int) int {
	b.noUndo = true
	defer func() { b.noUndo = false }()
	passes, moves := 0, 0
	for passes < 2 && moves < maxMoves {
		l := b.RandomMove(toMove, r)
		if l == PassLoc {
			passes++
			b.ko = PassLoc
		} else {
			passes = 0
			b.Play(l, toMove)
		}
		moves++
		toMove = Black + White - toMove
	}
	return moves
}

// AreaScore returns Black's area minus White's on a board where every
// empty point is surrounded by one colour or neutral, as after a playout:
// stones plus empty points whose neighbours are all of one colour.
func (b *Board) AreaScore() int {
	score := 0
	for y := 0; y < b.h; y++ {
		l := b.loc(0, y)
		for x := 0; x < b.w; x, l = x+1, l+1 {
			switch b.color[l] {
			case Black:
				score++
			case White:
				score--
			case Empty:
				score += int(emptyOwner[b.nbrSig(l)])
			}
		}
	}
	return score
}

// ClearUndo forgets the undo log, so that a board used for playouts does not
// keep growing it.
func (b *Board) ClearUndo() {
	b.undo = b.undo[:0]
	b.captured = b.captured[:0]
}
