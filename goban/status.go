package goban

// Chain returns the points of the chain that holds a stone at p, or nil when
// p is empty or off the board. Marking one stone dead marks this whole chain.
func (b *Board) Chain(p Point) []Point {
	if c := b.At(p); c != Black && c != White {
		return nil
	}
	l := b.loc(p.X, p.Y)
	var out []Point
	for s := l; ; {
		out = append(out, b.Point(s))
		s = b.next[s]
		if s == l {
			break
		}
	}
	sortPoints(out)
	return out
}

// Group returns the stones that a server toggles together when a player
// clicks the stone at p in the scoring phase: every stone of p's colour that
// can be reached from p through stones of that colour and empty points,
// that is the chains of one colour that share the region the opponent
// encloses. It returns nil when p holds no stone.
func (b *Board) Group(p Point) []Point {
	c := b.At(p)
	if c != Black && c != White {
		return nil
	}
	b.markGen++
	gen := b.markGen
	start := b.loc(p.X, p.Y)
	stack := []Loc{start}
	b.mark[start] = gen
	var out []Point
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if b.color[s] == c {
			out = append(out, b.Point(s))
		}
		for _, d := range b.dirs {
			q := s + d
			if qc := b.color[q]; (qc == c || qc == Empty) && b.mark[q] != gen {
				b.mark[q] = gen
				stack = append(stack, q)
			}
		}
	}
	sortPoints(out)
	return out
}

// ToggleGroup returns dead with the group at p (see Group) added when none
// of its stones was in dead, and removed otherwise. The input is not
// changed.
func (b *Board) ToggleGroup(dead []Point, p Point) []Point {
	group := b.Group(p)
	if len(group) == 0 {
		return append([]Point(nil), dead...)
	}
	in := map[Point]bool{}
	for _, q := range group {
		in[q] = true
	}
	wasDead := false
	var out []Point
	for _, q := range dead {
		if in[q] {
			wasDead = true
			continue
		}
		out = append(out, q)
	}
	if !wasDead {
		out = append(out, group...)
	}
	sortPoints(out)
	return out
}

// UnconditionallyAlive returns the stones of colour c that are alive
// unconditionally by Benson's algorithm: they cannot be captured even if
// the opponent plays any number of moves in a row and c always passes.
func (b *Board) UnconditionallyAlive(c Color) []Point {
	alive := b.bensonAlive(c)
	var out []Point
	for y := 0; y < b.h; y++ {
		for x := 0; x < b.w; x++ {
			l := b.loc(x, y)
			if b.color[l] == c && alive[b.head[l]] {
				out = append(out, Point{x, y})
			}
		}
	}
	return out
}

// bensonAlive returns the heads of c's unconditionally alive chains.
//
// The regions are the maximal connected sets of points not held by c. A
// region is vital to a chain when every empty point of the region is a
// liberty of that chain. Repeat until nothing changes: drop every chain
// with fewer than two vital regions among the regions left, then drop every
// region that touches a dropped chain. The chains left are alive.
func (b *Board) bensonAlive(c Color) map[Loc]bool {
	type bregion struct {
		points  []Loc
		borders map[Loc]bool // heads of c's chains next to the region
	}
	b.markGen++
	gen := b.markGen
	var regs []*bregion
	for y := 0; y < b.h; y++ {
		for x := 0; x < b.w; x++ {
			l := b.loc(x, y)
			if b.color[l] == c || b.mark[l] == gen {
				continue
			}
			r := &bregion{borders: map[Loc]bool{}}
			stack := []Loc{l}
			b.mark[l] = gen
			for len(stack) > 0 {
				s := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				r.points = append(r.points, s)
				for _, d := range b.dirs {
					q := s + d
					switch b.color[q] {
					case Wall:
					case c:
						r.borders[b.head[q]] = true
					default:
						if b.mark[q] != gen {
							b.mark[q] = gen
							stack = append(stack, q)
						}
					}
				}
			}
			regs = append(regs, r)
		}
	}
	chains := map[Loc]bool{}
	for y := 0; y < b.h; y++ {
		for x := 0; x < b.w; x++ {
			l := b.loc(x, y)
			if b.color[l] == c {
				chains[b.head[l]] = true
			}
		}
	}
	// vital[r][h]: every empty point of region r is a liberty of chain h.
	vital := make([]map[Loc]bool, len(regs))
	for i, r := range regs {
		vital[i] = map[Loc]bool{}
		for h := range r.borders {
			ok := true
			for _, s := range r.points {
				if b.color[s] != Empty {
					continue
				}
				adj := false
				for _, d := range b.dirs {
					q := s + d
					if b.color[q] == c && b.head[q] == h {
						adj = true
						break
					}
				}
				if !adj {
					ok = false
					break
				}
			}
			if ok {
				vital[i][h] = true
			}
		}
	}
	regionAlive := make([]bool, len(regs))
	for i := range regionAlive {
		regionAlive[i] = true
	}
	for changed := true; changed; {
		changed = false
		for h := range chains {
			n := 0
			for i := range regs {
				if regionAlive[i] && vital[i][h] {
					n++
				}
			}
			if n < 2 {
				delete(chains, h)
				changed = true
			}
		}
		for i, r := range regs {
			if !regionAlive[i] {
				continue
			}
			for h := range r.borders {
				if !chains[h] {
					regionAlive[i] = false
					changed = true
					break
				}
			}
		}
	}
	return chains
}

// Status is what becomes of a chain at the end of the game.
type Status uint8

// The statuses of chains.
const (
	Alive Status = iota
	Dead
	Seki
)

// String returns "alive", "dead" or "seki".
func (s Status) String() string {
	return [...]string{"alive", "dead", "seki"}[s]
}

// EstimateDead proposes the dead stones of the current position for the
// scoring phase. It is a static estimate made without search: chains that
// Benson's algorithm proves alive and chains in seki stay alive; every other
// chain is dead when the opponent owns its points at the end of most of a
// fixed number of random playouts (with a fixed seed, so the proposal is
// the same each time). The engine makes a better estimate.
func (b *Board) EstimateDead(playouts int) []Point {
	own := b.Ownership(playouts, 1)
	aliveB, aliveW := b.bensonAlive(Black), b.bensonAlive(White)
	seki := findSeki(b)
	var dead []Point
	for y := 0; y < b.h; y++ {
		for x := 0; x < b.w; x++ {
			l := b.loc(x, y)
			c := b.color[l]
			if c != Black && c != White {
				continue
			}
			h := b.head[l]
			if aliveB[h] || aliveW[h] || seki[h] {
				continue
			}
			// Average ownership of the whole chain, from c's point of view.
			sum, n := 0.0, 0
			for s := h; ; {
				p := b.Point(s)
				v := own[p.Y*b.w+p.X]
				if c == White {
					v = -v
				}
				sum += v
				n++
				s = b.next[s]
				if s == h {
					break
				}
			}
			if sum/float64(n) < -0.1 {
				dead = append(dead, Point{x, y})
			}
		}
	}
	return dead
}

// Statuses returns the status of every stone for a list of dead stones: dead
// for the chains in dead, seki for chains in seki once the dead stones are
// off, alive for the rest. The map holds one entry per stone.
func (b *Board) Statuses(dead []Point) (map[Point]Status, error) {
	live, _, set, err := withoutDead(b, dead)
	if err != nil {
		return nil, err
	}
	seki := findSeki(live)
	out := map[Point]Status{}
	for y := 0; y < b.h; y++ {
		for x := 0; x < b.w; x++ {
			l := b.loc(x, y)
			if c := b.color[l]; c != Black && c != White {
				continue
			}
			switch {
			case set[l]:
				out[Point{x, y}] = Dead
			case seki[live.head[l]]:
				out[Point{x, y}] = Seki
			default:
				out[Point{x, y}] = Alive
			}
		}
	}
	return out, nil
}

// Ownership plays the given number of random playouts from the position,
// half with Black to move first and half with White, and returns for each
// point (index y*width+x) the average owner at the end: +1 Black, −1 White.
func (b *Board) Ownership(playouts int, seed uint64) []float64 {
	own := make([]float64, b.w*b.h)
	if playouts <= 0 {
		return own
	}
	work := b.Clone()
	r := NewRand(seed)
	for i := 0; i < playouts; i++ {
		work.CopyFrom(b)
		work.ClearUndo()
		first := Black
		if i%2 == 1 {
			first = White
		}
		work.Playout(first, r, 3*b.w*b.h)
		for y := 0; y < b.h; y++ {
			for x := 0; x < b.w; x++ {
				l := work.loc(x, y)
				switch work.color[l] {
				case Black:
					own[y*b.w+x]++
				case White:
					own[y*b.w+x]--
				case Empty:
					var seen [4]bool
					for _, d := range work.dirs {
						seen[work.color[l+d]] = true
					}
					if seen[Black] && !seen[White] {
						own[y*b.w+x]++
					} else if seen[White] && !seen[Black] {
						own[y*b.w+x]--
					}
				}
			}
		}
	}
	for i := range own {
		own[i] /= float64(playouts)
	}
	return own
}
