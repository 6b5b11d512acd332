package goban

import (
	"fmt"
	"math"
	"slices"
)

// Breakdown is one player's side of the count, every part kept apart so
// that a user interface can show how the total came about.
type Breakdown struct {
	// Territory is the number of empty points the player surrounds, plus
	// the points under the opponent's dead stones.
	Territory int
	// Captures is the number of the opponent's stones this player captured
	// during play.
	Captures int
	// Dead is the number of the opponent's stones that were marked dead and
	// taken off at the end (prisoners for this player).
	Dead int
	// Lost is the number of this player's own stones that the opponent
	// captured during play; LossScoring subtracts it.
	Lost int
	// OwnDead is the number of this player's stones marked dead; LossScoring
	// subtracts it.
	OwnDead int
	// Stones is the number of this player's living stones on the board;
	// AreaScoring counts it.
	Stones int
	// Komi is the komi this player receives (or, under LossScoring, gives up
	// as a negative number).
	Komi float64
	// HandicapBonus is White's compensation for handicap stones under area
	// scoring.
	HandicapBonus float64
	// Total is the player's score under the ruleset.
	Total float64
}

// Score is the count of a final position.
type Score struct {
	// Scoring is the method that made Total.
	Scoring Scoring
	// Black and White are the two sides of the count.
	Black, White Breakdown
	// Owner gives, for each point in row-major order from the top left
	// (index y*width+x), the colour whose territory or living stone it is,
	// or Empty for neutral points (dame and seki).
	Owner []Color
	// Dead lists the stones counted as dead.
	Dead []Point
	// Seki lists the living stones that are in seki.
	Seki []Point
	// Teire lists the points of a player's own area that the player must
	// fill before the count under territory scoring (see teire): they are
	// neutral, not territory.
	Teire []Point
	// Result is the outcome: the winner and the margin, or jigo.
	Result Result
}

// Margin returns Black's total minus White's.
func (s *Score) Margin() float64 { return s.Black.Total - s.White.Total }

// Score counts the current position of the game with the given dead stones
// (every stone of a chain that has one dead stone is dead). The game itself
// is not changed.
func (g *Game) Score(dead []Point) (*Score, error) {
	return ScoreBoard(g.board, g.rules, g.komi, g.handicap, dead)
}

// ScoreBoard counts a position: the board with its prisoners, the ruleset,
// komi, the number of handicap stones and the dead stones.
func ScoreBoard(b *Board, rules Ruleset, komi float64, handicap int, dead []Point) (*Score, error) {
	// The position after the dead stones are taken off decides territory
	// and seki.
	live, deadPts, deadSet, err := withoutDead(b, dead)
	if err != nil {
		return nil, err
	}
	sekiChains := findSeki(live)

	s := &Score{Scoring: rules.Scoring, Owner: make([]Color, b.w*b.h), Dead: deadPts}
	side := func(c Color) *Breakdown {
		if c == Black {
			return &s.Black
		}
		return &s.White
	}
	for _, p := range deadPts {
		c := b.At(p)
		side(c.Opponent()).Dead++
		side(c).OwnDead++
	}
	s.Black.Captures, s.White.Captures = b.Prisoners(Black), b.Prisoners(White)
	s.Black.Lost, s.White.Lost = s.White.Captures, s.Black.Captures

	regions := live.regions()
	var filled map[Loc]bool
	if rules.Scoring == TerritoryScoring {
		filled = teire(b, live, deadSet, regions, sekiChains)
	}
	for _, r := range regions {
		owner := r.owner
		if owner == Empty {
			continue
		}
		if !rules.SekiTerritory && r.sekiEye(live, sekiChains) {
			continue
		}
		for _, l := range r.points {
			if filled[l] {
				s.Teire = append(s.Teire, live.Point(l))
				continue
			}
			side(owner).Territory++
			p := live.Point(l)
			s.Owner[p.Y*b.w+p.X] = owner
		}
	}
	sortPoints(s.Teire)
	for y := 0; y < b.h; y++ {
		for x := 0; x < b.w; x++ {
			l := live.loc(x, y)
			if c := live.color[l]; c == Black || c == White {
				side(c).Stones++
				s.Owner[y*b.w+x] = c
				if sekiChains[live.head[l]] {
					s.Seki = append(s.Seki, Point{x, y})
				}
			}
		}
	}

	switch rules.Scoring {
	case TerritoryScoring:
		s.White.Komi = komi
		for _, bd := range []*Breakdown{&s.Black, &s.White} {
			bd.Total = float64(bd.Territory+bd.Captures+bd.Dead) + bd.Komi
		}
	case AreaScoring:
		s.White.Komi = komi
		s.White.HandicapBonus = rules.HandicapBonus.Points(handicap)
		for _, bd := range []*Breakdown{&s.Black, &s.White} {
			bd.Total = float64(bd.Territory+bd.Stones) + bd.Komi + bd.HandicapBonus
		}
	case LossScoring:
		// 0 − komi, not −komi: no komi is 0, which -komi would make the
		// −0 that tables and JSON print as "-0".
		s.Black.Komi = 0 - komi
		for _, bd := range []*Breakdown{&s.Black, &s.White} {
			bd.Total = float64(bd.Territory-bd.Lost-bd.OwnDead) + bd.Komi
		}
	default:
		return nil, fmt.Errorf("goban: unknown scoring %v", rules.Scoring)
	}
	m := s.Black.Total - s.White.Total
	switch {
	case m > 0:
		s.Result = Result{Winner: Black, Reason: EndPasses, Margin: m}
	case m < 0:
		s.Result = Result{Winner: White, Reason: EndPasses, Margin: -m}
	default:
		s.Result = Result{Reason: EndPasses}
	}
	if math.IsNaN(m) {
		return nil, fmt.Errorf("goban: komi %v is not a number", komi)
	}
	return s, nil
}

// withoutDead returns a copy of b with the chains named in dead taken off,
// the sorted list of all their stones, and the set of them over b's Locs.
func withoutDead(b *Board, dead []Point) (live *Board, deadPts []Point, set []bool, err error) {
	set, err = expandDead(b, dead)
	if err != nil {
		return nil, nil, nil, err
	}
	for l, isDead := range set {
		if isDead {
			deadPts = append(deadPts, b.Point(Loc(l)))
		}
	}
	sortPoints(deadPts)
	live = b.Clone()
	if err := live.Setup(Empty, deadPts...); err != nil {
		return nil, nil, nil, err
	}
	return live, deadPts, set, nil
}

// expandDead turns a list of dead points into a set over Locs that holds
// every stone of each chain named.
func expandDead(b *Board, dead []Point) ([]bool, error) {
	set := make([]bool, len(b.color))
	for _, p := range dead {
		if !b.OnBoard(p) {
			return nil, fmt.Errorf("goban: dead stone at %v: %w", p, ErrOffBoard)
		}
		l := b.loc(p.X, p.Y)
		if c := b.color[l]; c != Black && c != White {
			return nil, fmt.Errorf("goban: no stone at %v to mark dead", p)
		}
		for s := l; ; {
			set[s] = true
			s = b.next[s]
			if s == l {
				break
			}
		}
	}
	return set, nil
}

// region is a maximal connected set of empty points.
type region struct {
	points []Loc
	// owner is the only colour of stone next to the region, or Empty when
	// both colours (or none) touch it.
	owner Color
}

// regions splits the empty points of b into regions.
func (b *Board) regions() []region {
	b.markGen++
	gen := b.markGen
	var out []region
	for y := 0; y < b.h; y++ {
		for x := 0; x < b.w; x++ {
			l := b.loc(x, y)
			if b.color[l] != Empty || b.mark[l] == gen {
				continue
			}
			var r region
			var seen [3]bool
			stack := []Loc{l}
			b.mark[l] = gen
			for len(stack) > 0 {
				s := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				r.points = append(r.points, s)
				for _, d := range b.dirs {
					q := s + d
					switch b.color[q] {
					case Empty:
						if b.mark[q] != gen {
							b.mark[q] = gen
							stack = append(stack, q)
						}
					case Black, White:
						seen[b.color[q]] = true
					}
				}
			}
			switch {
			case seen[Black] && !seen[White]:
				r.owner = Black
			case seen[White] && !seen[Black]:
				r.owner = White
			}
			out = append(out, r)
		}
	}
	return out
}

// teire returns the points of territory that their owner must fill before
// the count, as a referee counts a game that ended with the dame open
// (Japanese rules 1989, Art. 9 and the commentary on filling dame): a chain
// whose only liberty inside its owner's territory is its last one once the
// opponent has filled the dame around it would be captured, so the owner
// connects there, and the point is no longer territory. The typical case is
// a false eye: a stone cut off by the dame next to it has the eye as its
// other liberty. The dead stones are still on the board while the dame are
// filled, so a chain they press is short too: its owner connects or
// captures them, a move inside the territory either way. It is repeated
// until nothing changes, because a filled point can leave another chain
// short. Chains in seki are left alone.
//
// b is the final position, live the same with the dead stones (dead, over
// b's Locs) taken off; regions and seki are live's.
//
// The opponent fills a dame next to the chain only when the stone there
// would not be suicide or a self-atari that captures nothing, and when the
// dame does not touch another chain of the owner's, which the owner would
// connect by filling it; other dame keep their liberty.
func teire(b, live *Board, dead []bool, regions []region, seki map[Loc]bool) map[Loc]bool {
	owner := make([]Color, len(live.color))
	neutral := make([]bool, len(live.color))
	for _, r := range regions {
		touchesSeki := r.touchesSeki(live, seki)
		for _, l := range r.points {
			owner[l] = r.owner
			if r.owner == Empty && !touchesSeki {
				neutral[l] = true
			}
		}
	}
	work := b.Clone()
	filled := map[Loc]bool{}
	for changed := true; changed; {
		changed = false
		seen := make([]bool, len(work.color))
		for y := 0; y < work.h && !changed; y++ {
			for x := 0; x < work.w && !changed; x++ {
				l := work.loc(x, y)
				c := work.color[l]
				if (c != Black && c != White) || seen[work.head[l]] {
					continue
				}
				h := work.head[l]
				seen[h] = true
				if dead[l] || (live.color[l] == c && seki[live.head[l]]) {
					continue
				}
				t, ok := shortOfLiberties(work, h, c, owner, neutral, filled)
				if !ok {
					continue
				}
				work.Play(t, c)
				filled[t] = true
				changed = true
			}
		}
	}
	return filled
}

// shortOfLiberties reports whether the chain at h, of colour c, has exactly
// one liberty in c's territory and every other liberty is a dame the
// opponent can fill, and returns that liberty.
func shortOfLiberties(b *Board, h Loc, c Color, owner []Color, neutral []bool, filled map[Loc]bool) (Loc, bool) {
	// Gather the liberties first: cannotFill plays and takes back a stone,
	// which may reorder the chain's ring.
	b.markGen++
	gen := b.markGen
	var libs []Loc
	for s := h; ; {
		for _, d := range b.dirs {
			if q := s + d; b.color[q] == Empty && b.mark[q] != gen {
				b.mark[q] = gen
				libs = append(libs, q)
			}
		}
		s = b.next[s]
		if s == h {
			break
		}
	}
	var own Loc
	owns := 0
	for _, q := range libs {
		if owner[q] == c && !filled[q] {
			own = q
			owns++
		}
	}
	if owns != 1 {
		return 0, false
	}
	for _, q := range libs {
		if q != own && (!neutral[q] || joinsAnother(b, q, h, c) || cannotFill(b, q, c.Opponent())) {
			return 0, false
		}
	}
	return own, true
}

// joinsAnother reports whether the empty point q touches a chain of colour
// c other than the one at h: c fills such a dame itself, connecting the
// two, rather than leave it to the opponent.
func joinsAnother(b *Board, q, h Loc, c Color) bool {
	for _, d := range b.dirs {
		if n := q + d; b.color[n] == c && b.head[n] != h {
			return true
		}
	}
	return false
}

// touchesSeki reports whether a chain in seki borders the region.
func (r region) touchesSeki(b *Board, seki map[Loc]bool) bool {
	for _, l := range r.points {
		for _, d := range b.dirs {
			q := l + d
			if c := b.color[q]; (c == Black || c == White) && seki[b.head[q]] {
				return true
			}
		}
	}
	return false
}

// sekiEye reports whether a region that one player surrounds is the eye
// of chains in seki, which is no territory under rules without territory
// in seki: every chain around it is in seki. A region that a chain in seki
// borders together with the owner's other, living chains is the owner's
// territory: the chain in seki is then a stone at its edge (typically
// one that blocks a dead group inside the owner's area), not the group
// that lives by the region.
func (r region) sekiEye(b *Board, seki map[Loc]bool) bool {
	touches := false
	for _, l := range r.points {
		for _, d := range b.dirs {
			q := l + d
			if c := b.color[q]; c == Black || c == White {
				if !seki[b.head[q]] {
					return false
				}
				touches = true
			}
		}
	}
	return touches
}

// findSeki returns the heads of the chains in seki on a board from which
// the dead stones have been taken. A chain is in seki when it touches a
// neutral point (next to both colours) that neither player can fill: for
// each colour the stone would be suicide or would leave its own chain in
// atari without capturing anything. Dame between two walls can be filled
// safely and so are no sign of seki.
func findSeki(b *Board) map[Loc]bool {
	seki := map[Loc]bool{}
	work := b.Clone()
	for y := 0; y < b.h; y++ {
		for x := 0; x < b.w; x++ {
			l := b.loc(x, y)
			if b.color[l] != Empty {
				continue
			}
			var touches [4]bool
			for _, d := range b.dirs {
				touches[b.color[l+d]] = true
			}
			if !touches[Black] || !touches[White] {
				continue
			}
			if !cannotFill(work, l, Black) || !cannotFill(work, l, White) ||
				canApproach(work, l, Black) || canApproach(work, l, White) {
				continue
			}
			for _, d := range b.dirs {
				q := l + d
				if c := b.color[q]; c == Black || c == White {
					seki[b.head[q]] = true
				}
			}
		}
	}
	return seki
}

// canApproach reports whether c can first take away, from inside its own
// area, another liberty of an enemy chain next to l: a liberty whose other
// neighbours are c's stones, empty points or that chain itself, where c's
// stone would be neither suicide nor a self-atari. The point l is then no
// seki point for c: the enemy chain is short of liberties and dies. A
// liberty that also touches another enemy chain is a dame or a shared
// liberty and proves nothing.
func canApproach(b *Board, l Loc, c Color) bool {
	enemy := c.Opponent()
	var heads []Loc
	for _, d := range b.dirs {
		if q := l + d; b.color[q] == enemy && !slices.Contains(heads, b.head[q]) {
			heads = append(heads, b.head[q])
		}
	}
	for _, h := range heads {
		// Gather the liberties first: cannotFill plays and takes back a
		// stone, which may reorder the chain's ring.
		b.markGen++
		gen := b.markGen
		var libs []Loc
		for s := h; ; {
			for _, d := range b.dirs {
				if q := s + d; q != l && b.color[q] == Empty && b.mark[q] != gen {
					b.mark[q] = gen
					libs = append(libs, q)
				}
			}
			s = b.next[s]
			if s == h {
				break
			}
		}
		for _, q := range libs {
			inside := true
			for _, d := range b.dirs {
				if r := q + d; b.color[r] == enemy && b.head[r] != h {
					inside = false
				}
			}
			if inside && !cannotFill(b, q, c) {
				return true
			}
		}
	}
	return false
}

// cannotFill reports whether a stone of c at the empty point l would be
// suicide or a self-atari that captures nothing.
func cannotFill(b *Board, l Loc, c Color) bool {
	if b.Check(l, c, false) != nil {
		return true
	}
	if b.WouldCapture(l, c) {
		return false
	}
	b.Play(l, c)
	libs := b.Liberties(l)
	b.Undo()
	return libs <= 1
}

func sortPoints(ps []Point) {
	for i := 1; i < len(ps); i++ {
		for j := i; j > 0 && (ps[j].Y < ps[j-1].Y || (ps[j].Y == ps[j-1].Y && ps[j].X < ps[j-1].X)); j-- {
			ps[j], ps[j-1] = ps[j-1], ps[j]
		}
	}
}
