package goban

import (
	"errors"
	"strings"
	"testing"
)

func mustParse(t *testing.T, diagram string) *Board {
	t.Helper()
	b, err := ParseBoard(diagram)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// at returns the Loc of a GTP vertex on b.
func at(t *testing.T, b *Board, v string) Loc {
	t.Helper()
	p, _, err := ParseVertex(v, b.Width(), b.Height())
	if err != nil {
		t.Fatal(err)
	}
	return b.Loc(p)
}

func TestBoardMoves(t *testing.T) {
	tests := []struct {
		name     string
		diagram  string
		color    Color
		vertex   string
		multi    bool // multi-stone suicide allowed
		err      error
		captured int
		after    string // expected diagram after the move, when legal
		koVertex string // expected ko point for the opponent, if any
	}{
		{
			name: "single stone capture in the centre",
			diagram: `
. . . . .
. . X . .
. X O . .
. . X . .
. . . . .`,
			color: Black, vertex: "D3", captured: 1,
			after: `
. . . . .
. . X . .
. X . X .
. . X . .
. . . . .`,
		},
		{
			name: "capture goes first: no liberty of its own, but it takes the last liberty of a white chain",
			diagram: `
. X O . .
X O . O .
. X O . .
. . . . .
. . . . .`,
			color: Black, vertex: "C4", captured: 1,
			after: `
. X O . .
X . X O .
. X O . .
. . . . .
. . . . .`,
			koVertex: "B4",
		},
		{
			name: "single-stone suicide is illegal",
			diagram: `
. X . . .
X . X . .
. X . . .
. . . . .
. . . . .`,
			color: White, vertex: "B4", err: ErrSuicide,
		},
		{
			name: "single-stone suicide is illegal even where multi-stone suicide is allowed",
			diagram: `
. X . . .
X . X . .
. X . . .
. . . . .
. . . . .`,
			color: White, vertex: "B4", multi: true, err: ErrSuicide,
		},
		{
			name: "multi-stone suicide is illegal by default",
			diagram: `
O X . . .
. X . . .
X . . . .
. . . . .
. . . . .`,
			color: White, vertex: "A4", err: ErrSuicide,
		},
		{
			name: "multi-stone suicide removes the own chain where allowed",
			diagram: `
O X . . .
. X . . .
X . . . .
. . . . .
. . . . .`,
			color: White, vertex: "A4", multi: true,
			after: `
. X . . .
. X . . .
X . . . .
. . . . .
. . . . .`,
		},
		{
			name: "occupied point",
			diagram: `
X . .
. . .
. . .`,
			color: White, vertex: "A3", err: ErrOccupied,
		},
		{
			name: "capturing two chains at once",
			diagram: `
O X . X O
X . X . X
. X . X .
. . . . .
. . . . .`,
			color: White, vertex: "B4", err: ErrSuicide,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := mustParse(t, tt.diagram)
			l := at(t, b, tt.vertex)
			err := b.Check(l, tt.color, tt.multi)
			if !errors.Is(err, tt.err) || (err == nil) != (tt.err == nil) {
				t.Fatalf("Check = %v, want %v", err, tt.err)
			}
			if err != nil {
				return
			}
			before := b.String()
			got := b.Play(l, tt.color)
			if got != tt.captured {
				t.Errorf("captured %d, want %d", got, tt.captured)
			}
			if tt.after != "" {
				want := mustParse(t, tt.after).String()
				if b.String() != want {
					t.Errorf("after:\n%s\nwant:\n%s", b, want)
				}
			}
			if ko, ok := b.Ko(tt.color.Opponent()); tt.koVertex != "" {
				if !ok || ko != at(t, b, tt.koVertex) {
					t.Errorf("ko = %v %v, want %s", ko, ok, tt.koVertex)
				}
			} else if ok {
				t.Errorf("unexpected ko at %v", b.Point(ko))
			}
			b.Undo()
			if b.String() != before {
				t.Errorf("undo gives\n%s\nwant\n%s", b, before)
			}
		})
	}
}

// TestSnapback plays the snapback shape: White throws in a stone that Black
// captures, and White captures the capturing stones at once, which is not ko.
func TestSnapback(t *testing.T) {
	b := mustParse(t, `
. . . . .
. . . . .
. O O O .
O X X X O
O X . . O`)
	throwIn, capture := b.Loc(Point{2, 4}), b.Loc(Point{3, 4})
	if err := b.Check(throwIn, White, false); err != nil {
		t.Fatalf("throw-in: %v", err)
	}
	if n := b.Play(throwIn, White); n != 0 {
		t.Fatalf("throw-in captured %d", n)
	}
	if err := b.Check(capture, Black, false); err != nil {
		t.Fatalf("capturing the throw-in: %v", err)
	}
	if n := b.Play(capture, Black); n != 1 {
		t.Fatalf("capturing the throw-in took %d stones, want 1", n)
	}
	if _, ok := b.Ko(White); ok {
		t.Fatal("capturing the throw-in made a ko")
	}
	// White plays back at once and takes the whole chain: no ko, because
	// more than one stone is captured.
	if err := b.Check(throwIn, White, false); err != nil {
		t.Fatalf("snapback recapture: %v", err)
	}
	if n := b.Play(throwIn, White); n != 5 {
		t.Fatalf("snapback took %d stones, want 5", n)
	}
}

func TestParseBoardErrors(t *testing.T) {
	for _, in := range []string{"", "X ?", "X X\nX", "X"} {
		if _, err := ParseBoard(in); err == nil {
			t.Errorf("ParseBoard(%q) gave no error", in)
		}
	}
	if _, err := ParseBoard(strings.Repeat(". ", 26)); err == nil {
		t.Error("a 26-wide board was accepted")
	}
}

// checkConsistent compares b's incremental chains, liberties, empties and
// hash with a board rebuilt from the colours alone.
func checkConsistent(t *testing.T, b *Board) {
	t.Helper()
	fresh := b.Clone()
	fresh.rebuildAll()
	if fresh.hash != b.hash {
		t.Fatalf("hash %x, rebuilt %x\n%s", b.hash, fresh.hash, b)
	}
	if len(fresh.empties) != len(b.empties) {
		t.Fatalf("%d empties, rebuilt %d", len(b.empties), len(fresh.empties))
	}
	for _, l := range b.empties {
		if b.color[l] != Empty || b.empties[b.emptyAt[l]] != l {
			t.Fatalf("empty list broken at %v", b.Point(l))
		}
	}
	for y := 0; y < b.h; y++ {
		for x := 0; x < b.w; x++ {
			l := b.loc(x, y)
			if c := b.color[l]; c == Black || c == White {
				if b.Liberties(l) != fresh.Liberties(l) || b.ChainSize(l) != fresh.ChainSize(l) {
					t.Fatalf("chain at %v: libs %d size %d, rebuilt libs %d size %d\n%s", Point{x, y},
						b.Liberties(l), b.ChainSize(l), fresh.Liberties(l), fresh.ChainSize(l), b)
				}
				h, fh := b.head[l], fresh.head[l]
				if b.chain[h].plibs != fresh.chain[fh].plibs || b.chain[h].lsum != fresh.chain[fh].lsum || b.chain[h].lsq != fresh.chain[fh].lsq {
					t.Fatalf("chain at %v: pseudo-liberties %d/%d/%d, rebuilt %d/%d/%d\n%s", Point{x, y},
						b.chain[h].plibs, b.chain[h].lsum, b.chain[h].lsq, fresh.chain[fh].plibs, fresh.chain[fh].lsum, fresh.chain[fh].lsq, b)
				}
				if exact := int(b.countLibs(h)); b.Liberties(l) != exact || b.InAtari(l) != (exact == 1) {
					t.Fatalf("chain at %v: Liberties %d, InAtari %v, counted %d", Point{x, y}, b.Liberties(l), b.InAtari(l), exact)
				}
				if b.head[b.head[l]] != b.head[l] {
					t.Fatalf("head of %v is not its own head", Point{x, y})
				}
				n := 0
				for s := l; ; s = b.next[s] {
					if b.head[s] != b.head[l] {
						t.Fatalf("chain list of %v leaves the chain", Point{x, y})
					}
					n++
					if b.next[s] == l {
						break
					}
				}
				if n != b.ChainSize(l) {
					t.Fatalf("chain list of %v has %d stones, size %d", Point{x, y}, n, b.ChainSize(l))
				}
			}
		}
	}
}

// TestPlayUndoRandomGames plays long random games on several board sizes,
// with and without multi-stone suicide, checks the incremental bookkeeping
// against a full rebuild after every move, then undoes every move and checks
// that each earlier position comes back exactly.
func TestPlayUndoRandomGames(t *testing.T) {
	for _, size := range [][2]int{{2, 2}, {3, 3}, {4, 4}, {5, 3}, {7, 7}, {9, 9}, {13, 13}, {19, 19}, {25, 25}} {
		for _, multi := range []bool{false, true} {
			b := MustNewBoard(size[0], size[1])
			r := NewRand(uint64(size[0]*100 + size[1]))
			var snapshots []string
			var hashes []uint64
			c := Black
			for move := 0; move < min(3*size[0]*size[1], 400); move++ {
				snapshots = append(snapshots, b.String())
				hashes = append(hashes, b.Hash())
				// Pick a random legal move, including suicides where allowed.
				var legal []Loc
				for _, l := range b.empties {
					if b.Check(l, c, multi) == nil {
						legal = append(legal, l)
					}
				}
				if len(legal) == 0 || r.Intn(20) == 0 {
					b.PlayPass()
				} else {
					b.Play(legal[r.Intn(len(legal))], c)
				}
				checkConsistent(t, b)
				c = c.Opponent()
			}
			for i := len(snapshots) - 1; i >= 0; i-- {
				b.Undo()
				if b.String() != snapshots[i] || b.Hash() != hashes[i] {
					t.Fatalf("%v multi=%v: undo to move %d gives\n%s\nwant\n%s", size, multi, i, b, snapshots[i])
				}
				checkConsistent(t, b)
			}
		}
	}
}

func TestPlayoutAllocations(t *testing.T) {
	start := MustNewBoard(9, 9)
	work := start.Clone()
	r := NewRand(7)
	work.Playout(Black, r, 300) // grow the undo log once
	allocs := testing.AllocsPerRun(50, func() {
		work.CopyFrom(start)
		work.Playout(Black, r, 300)
		work.AreaScore()
	})
	if allocs != 0 {
		t.Errorf("a playout allocates %v times", allocs)
	}
}
