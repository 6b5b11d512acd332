package engine

import "tengen/goban"

// The 3×3 shapes of the playout policy are the hand-made patterns
// published for MoGo (Gelly, Wang, Munos and Teytaud, "Modification of UCT
// with Patterns in Monte-Carlo Go", 2006), with two that later programs
// added (the diagonal attachment and the knight's-move cut). Each is a 3×3
// window with the move at its centre, written row by row:
//
//	X, O  a stone of one colour and of the other (either assignment)
//	.     an empty point
//	x     anything but X (empty, O or off the board)
//	o     anything but O
//	?     anything, off the board included
//	#     off the board
//
// A pattern matches in any of its eight rotations and reflections.
var pat3Source = [...]string{
	// Hane: the enclosing hane, the hane that leaves no cut, the magari.
	"XOX" + "..." + "???",
	"XO." + "..." + "?.?",
	"XO?" + "X.." + "x.?",
	// The diagonal attachment (katatsuke).
	".O." + "X.." + "...",
	// Cuts: the unprotected cut, the cut after a peep, the push-and-cut
	// (de), the cut of a knight's move.
	"XO?" + "O.o" + "?o?",
	"XO?" + "O.X" + "???",
	"?X?" + "O.O" + "ooo",
	"OX?" + "o.O" + "???",
	// On the first line: the chase, blocking a cut, blocking a
	// connection along the edge, the sagari and the cut.
	"X.?" + "O.?" + "###",
	"OX?" + "X.O" + "###",
	"?X?" + "x.O" + "###",
	"?XO" + "x.x" + "###",
	"?OX" + "X.O" + "###",
}

// pat3Table has bit k set when the neighbourhood code k (see pat3Code)
// matches one of the patterns. It is filled once at start-up.
var pat3Table = buildPat3Table()

// pat3Code packs the colours of the eight points around l into 16 bits,
// two per point (goban.Empty, Black, White, Wall are 0–3), row by row from
// the top left, the centre left out.
func pat3Code(b *goban.Board, l goban.Loc, diag [4]goban.Loc) uint16 {
	up, down := diag[0]+1, diag[2]+1 // one row up and one row down
	return uint16(b.ColorAt(l+diag[0])) |
		uint16(b.ColorAt(l+up))<<2 |
		uint16(b.ColorAt(l+diag[1]))<<4 |
		uint16(b.ColorAt(l-1))<<6 |
		uint16(b.ColorAt(l+1))<<8 |
		uint16(b.ColorAt(l+diag[2]))<<10 |
		uint16(b.ColorAt(l+down))<<12 |
		uint16(b.ColorAt(l+diag[3]))<<14
}

// pat3Match reports whether a stone played at the empty point l makes one
// of the playout shapes. The answer is the same for both colours: every
// pattern matches with its colours swapped too.
func pat3Match(b *goban.Board, l goban.Loc, diag [4]goban.Loc) bool {
	k := pat3Code(b, l, diag)
	return pat3Table[k>>6]&(1<<(k&63)) != 0
}

// buildPat3Table expands every pattern in its symmetries, colour
// assignments and wildcards and sets the matching codes.
func buildPat3Table() *[1024]uint64 {
	t := new([1024]uint64)
	for _, src := range pat3Source {
		p := []byte(src)
		for r := 0; r < 8; r++ {
			q := transformPat3(p, r)
			for _, swap := range []bool{false, true} {
				expandPat3(t, q, swap, 0, 0)
			}
		}
	}
	return t
}

// transformPat3 returns the pattern p (9 cells, row-major) turned by
// r%4 quarter turns and mirrored when r >= 4.
func transformPat3(p []byte, r int) []byte {
	q := append([]byte(nil), p...)
	for i := 0; i < r%4; i++ {
		var t [9]byte
		for y := 0; y < 3; y++ {
			for x := 0; x < 3; x++ {
				// A quarter turn: (x, y) goes to (2-y, x).
				t[x*3+(2-y)] = q[y*3+x]
			}
		}
		copy(q, t[:])
	}
	if r >= 4 {
		for y := 0; y < 3; y++ {
			q[y*3], q[y*3+2] = q[y*3+2], q[y*3]
		}
	}
	return q
}

// expandPat3 sets the table bits of every code that the pattern p (with
// colours swapped when swap is set) matches, filling the cells from i on;
// code holds the cells before i.
func expandPat3(t *[1024]uint64, p []byte, swap bool, i int, code uint16) {
	if i == 9 {
		t[code>>6] |= 1 << (code & 63)
		return
	}
	if i == 4 { // the centre: the move itself
		expandPat3(t, p, swap, i+1, code)
		return
	}
	shift := uint(i * 2)
	if i > 4 {
		shift -= 2
	}
	x, o := goban.Black, goban.White
	if swap {
		x, o = o, x
	}
	var allowed []goban.Color
	switch p[i] {
	case 'X':
		allowed = []goban.Color{x}
	case 'O':
		allowed = []goban.Color{o}
	case '.':
		allowed = []goban.Color{goban.Empty}
	case '#':
		allowed = []goban.Color{goban.Wall}
	case 'x':
		allowed = []goban.Color{goban.Empty, o, goban.Wall}
	case 'o':
		allowed = []goban.Color{goban.Empty, x, goban.Wall}
	case '?':
		allowed = []goban.Color{goban.Empty, goban.Black, goban.White, goban.Wall}
	}
	for _, c := range allowed {
		expandPat3(t, p, swap, i+1, code|uint16(c)<<shift)
	}
}
