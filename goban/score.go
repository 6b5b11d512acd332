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
	// the points under the opponent's dead stones; under area scoring of a
	// position that stops on a move, also the dame the player fills (see
	// Game.Score).
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
	// (index y*width+x), the colour whose territory or living stone it is
	// (a dame its filler's, where Territory counts it), or Empty for
	// neutral points (dame and seki).
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
// is not changed. Under territory scoring the player to move fills the
// dame first (see teire). Under area scoring, when the last move is a
// stone and not a pass, the players fill the dame in turn, the player to
// move first, and each dame counts for its filler (see areaDame); after a
// pass the dame stay neutral.
func (g *Game) Score(dead []Point) (*Score, error) {
	return scoreBoard(g.board, g.rules, g.komi, g.handicap, dead, g.ToMove(), g.ConsecutivePasses() == 0)
}

// ScoreBoard counts a position: the board with its prisoners, the ruleset,
// komi, the number of handicap stones and the dead stones. A board does not
// know whose turn it is, so under territory scoring every teire that either
// player's filling first forces counts (see teire); Game.Score knows.
// Under area scoring the dame stay neutral.
func ScoreBoard(b *Board, rules Ruleset, komi float64, handicap int, dead []Point) (*Score, error) {
	return scoreBoard(b, rules, komi, handicap, dead, Empty, false)
}

// scoreBoard is ScoreBoard with the player to move, who fills the dame
// first, or Empty when that is not known. open says that the position
// stops on a move, not on a pass, so that under area scoring the players
// still fill the dame (areaDame).
func scoreBoard(b *Board, rules Ruleset, komi float64, handicap int, dead []Point, toMove Color, open bool) (*Score, error) {
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
	// claim counts the empty point l of live as c's territory.
	claim := func(l Loc, c Color) {
		side(c).Territory++
		p := live.Point(l)
		s.Owner[p.Y*b.w+p.X] = c
	}
	for _, p := range deadPts {
		c := b.At(p)
		side(c.Opponent()).Dead++
		side(c).OwnDead++
	}
	s.Black.Captures, s.White.Captures = b.Prisoners(Black), b.Prisoners(White)
	s.Black.Lost, s.White.Lost = s.White.Captures, s.Black.Captures

	regions := live.regions()
	var besideDame []bool
	if rules.Scoring == TerritoryScoring && !rules.AllStonesAlive {
		besideDame = deadBesideDame(b, deadSet, regions)
	}
	if !rules.AllStonesAlive {
		regions = splitOpen(live, regions, sekiChains)
	}
	var filled map[Loc]bool
	switch {
	case rules.Scoring == TerritoryScoring:
		filled = teire(b, live, deadSet, regions, sekiChains, toMove)
	case rules.Scoring == AreaScoring && !rules.AllStonesAlive && open && (toMove == Black || toMove == White):
		for l, c := range areaDame(b, live, deadSet, regions, sekiChains, toMove) {
			claim(l, c)
		}
	}
	for _, r := range regions {
		owner := r.owner
		if owner == Empty {
			for _, l := range r.points {
				if besideDame != nil && besideDame[l] && !r.touchesSeki(live, sekiChains) {
					claim(l, b.color[l].Opponent())
				}
			}
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
			claim(l, owner)
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

// maxDameBesideDead is the largest region, as the board stands without the
// dead stones, in which deadBesideDame counts the point of a dead stone
// next to a dame: the stone's point and the dame, and at most one more.
const maxDameBesideDead = 3

// deadBesideDame returns the points of b's dead stones (dead, over b's
// Locs) that are enclosed by the enemy on every side but one, where a
// dame lies, in a region of at most maxDameBesideDead points of live's
// regions (before splitOpen). Under territory counting such a point is
// the capturer's territory although its region, which the dame reaches,
// is neutral: once the dame is filled the point is enclosed by the
// capturer's stones whoever fills, since the owner's stone there would
// join the dead stone and be taken with it (judan57-4's P12, a dead
// Black stone among White's O12, Q12 and P11 next to the dame P13; the
// record and GNU Go count P12 as White's, docs/STRENGTH.md). A stone with
// two empty neighbours or more, or in a larger region, is part of an area
// the record left open, and its point stays neutral with the rest.
func deadBesideDame(b *Board, dead []bool, regions []region) []bool {
	out := make([]bool, len(b.color))
	for _, r := range regions {
		if len(r.points) > maxDameBesideDead {
			continue
		}
		for _, l := range r.points {
			if !dead[l] {
				continue
			}
			empty := 0
			for _, d := range b.dirs {
				if b.color[l+d] == Empty {
					empty++
				}
			}
			out[l] = empty <= 1
		}
	}
	return out
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

// openMargin is how much nearer to one colour's stones than to the other's,
// in steps through an open area, a point must lie to count as that colour's
// territory (splitOpen). One step gives a point beside a one-point gap to
// the side that will close it, which is often not the side that does; three
// leave too much of the open areas neutral (docs/STRENGTH.md).
var openMargin = 2

// openMaxShare says how large an open area splitOpen splits: at most one
// point in openMaxShare of the board (60 points on 19×19, 13 on 9×9). A
// larger area that both colours border is no gap in a border but a part of
// the board the record never played out: the Japan-China records that stop
// early have such areas of 62 points and more, and a split of them moves
// their counts further from the recorded results.
var openMaxShare = 6

// openGap is how many points of a large region may touch one of the two
// colours for the region to count as that colour's gap into the other's
// area rather than a part of the board the record never played out
// (region.gap); openGapShare says that they must also be at most one point
// in openGapShare of the region, so that a short front on a small board,
// two points of ten, is no gap.
const (
	openGap      = 2
	openGapShare = 10
)

// gap reports whether one colour touches at most openGap points of r, and
// at most one in openGapShare: r is the other colour's area with a gap in
// its border, however large it is (oza69-P14's lower left, 60 points of
// White's behind one point that Black's stone touches, docs/STRENGTH.md),
// not an open part of the board that both colours border along a front.
func (r region) gap(b *Board) bool {
	for _, c := range []Color{Black, White} {
		n := 0
		for _, l := range r.points {
			for _, d := range b.dirs {
				if b.color[l+d] == c {
					n++
					break
				}
			}
		}
		if n <= openGap && n*openGapShare <= len(r.points) {
			return true
		}
	}
	return false
}

// splitOpen splits each region that both colours border (and no chain in
// seki), of at most a sixth of the board (openMaxShare) or a gap of any size
// (region.gap), into the points that lie nearer to one
// colour's stones by at least openMargin steps through the region, which
// count as that colour's, and the rest, which stay neutral. Real records
// end with borders left open where closing them is worth nothing: a gap of
// two points between two walls, or a wall that stops a point short of the
// edge. Each side would close it with one move, and the area behind the gap
// is the territory of the side it belongs to; before this rule all of it
// was neutral, because a single enemy stone reached it through the gap.
func splitOpen(b *Board, regions []region, seki map[Loc]bool) []region {
	var out []region
	for _, r := range regions {
		if r.owner != Empty || len(r.points) < 2 || len(r.points)*openMaxShare > b.w*b.h && !r.gap(b) || r.touchesSeki(b, seki) {
			out = append(out, r)
			continue
		}
		var dist [2]map[Loc]int
		for i, c := range []Color{Black, White} {
			d := map[Loc]int{}
			var queue []Loc
			for _, l := range r.points {
				for _, n := range b.dirs {
					if b.color[l+n] == c {
						d[l] = 1
						queue = append(queue, l)
						break
					}
				}
			}
			for len(queue) > 0 {
				l := queue[0]
				queue = queue[1:]
				for _, n := range b.dirs {
					if q := l + n; b.color[q] == Empty {
						if _, ok := d[q]; !ok {
							d[q] = d[l] + 1
							queue = append(queue, q)
						}
					}
				}
			}
			dist[i] = d
		}
		var parts [3]region
		parts[Black].owner, parts[White].owner = Black, White
		for _, l := range r.points {
			db, okb := dist[0][l]
			dw, okw := dist[1][l]
			switch {
			case okb && (!okw || dw-db >= openMargin):
				parts[Black].points = append(parts[Black].points, l)
			case okw && (!okb || db-dw >= openMargin):
				parts[White].points = append(parts[White].points, l)
			default:
				parts[Empty].points = append(parts[Empty].points, l)
			}
		}
		for _, p := range parts {
			if len(p.points) > 0 {
				out = append(out, p)
			}
		}
	}
	return out
}

// teire returns the points of territory that their owner must fill before
// the count, as a referee counts a game that ended with the dame open
// (Japanese rules 1989, Art. 9 and the commentary on filling dame). The
// dame are filled the way the players fill them after the last move: in
// turn, each player filling first the dame that put an enemy chain in
// atari, then those next to an enemy chain, then the rest, never with a
// stone that would be left with fewer than two liberties or with liberties
// only in the enemy's territory. Before each fill a player defends a chain
// that an enemy stone inside its territory would leave in atari beyond
// saving (defendInvasion), a teire. A chain put in
// atari is saved at once by its owner: on a dame (a fill like any other)
// or, when its last liberty lies in the owner's territory, by a move
// there (teire), and that point is no longer territory. The typical case
// is a false eye: a stone cut off by the dame next to it has the eye as
// its other liberty.
//
// The dead stones stay on the board while the dame are filled, so a chain
// they press is short too: its owner connects or captures them, a move
// inside the territory either way. Chains in seki and dead chains are
// left alone, and no stone is put on a dame next to a chain in seki.
//
// The player to move after the last move (toMove) fills first, as the
// players would go on, and as GNU Go's finish does. When toMove is Empty
// (a board without a game), every teire that either order forces counts.
// A dead chain on the edge that the fill would leave its capturer unable
// to take is taken before the fill (captureFirst).
//
// b is the final position, live the same with the dead stones (dead, over
// b's Locs) taken off; regions and seki are live's.
func teire(b, live *Board, dead []bool, regions []region, seki map[Loc]bool, toMove Color) map[Loc]bool {
	owner, neutral, exempt := fillSetup(live, dead, regions, seki)
	// The player who fills first gets the first atari. Before the
	// invasion rule (defendInvasion) the union of both orders counted the
	// records best; with it, the order of the player to move does
	// (docs/STRENGTH.md).
	if toMove == Black || toMove == White {
		return captureFirst(b, toMove, dead, owner, neutral, exempt)
	}
	filled := captureFirst(b, Black, dead, owner, neutral, exempt)
	for l := range captureFirst(b, White, dead, owner, neutral, exempt) {
		filled[l] = true
	}
	return filled
}

// captureFirst fills the dame of b in turn, turn first (fillOut), and
// returns the teire. When the fill leaves a dead chain on the edge that
// its capturer can no longer take (uncapturable) although it could as the
// board stands, the capturer takes it before the fill instead, while its
// wall still has the liberties to do so: the stones on the chain's
// liberties are teire, and the dame are filled on the board without the
// chain. A wall that a dead chain's owner would take gets its teire on
// the board after the fill (defendedWalls).
func captureFirst(b *Board, turn Color, dead []bool, owner []Color, neutral []bool, exempt func(*Board, Loc) bool) map[Loc]bool {
	filled, _, work := fillOut(b, turn, owner, neutral, exempt, true)
	var chains []Loc
	for _, l := range uncapturable(work, dead, owner) {
		if !stuck(b, b.head[l], dead, owner) {
			chains = append(chains, l)
		}
	}
	if len(chains) > 0 {
		first := b.Clone()
		taken := map[Loc]bool{}
		for _, l := range chains {
			for first.color[l] != Empty {
				q, ok := approach(first, l, owner)
				if !ok {
					break
				}
				first.Play(q, first.color[l].Opponent())
				taken[q] = true
			}
		}
		filled, _, work = fillOut(first, turn, owner, neutral, exempt, true)
		for q := range taken {
			filled[q] = true
		}
	}
	// The walls are read once, on the board of the fill that counts.
	for _, q := range defendedWalls(work, dead, owner) {
		filled[q] = true
	}
	return filled
}

// defendedWalls returns the teire that the owners of dead chains force
// with a threat the capturer cannot wait for. On the board w after the
// fill, a dead chain with exactly two liberties, all in its capturer's
// territory, next to a chain of the capturer of three stones or more that
// the chain's owner, to move, would capture however the capturer answers
// (attacks, two plies), makes the capturer defend that chain before the
// end: a threat the capturer can answer after it is played costs nothing
// under territory counting (the stone played is a prisoner that pays for
// the point of the answer), one it cannot answer costs a point of its
// territory. The point counted is the dead chain's liberty next to the
// wall. meijin48-22's upper right: Black's S18-T18 wall has S19, T19 and
// the dead R17-R18 has Q18 and R19; White's S19 and T19 would take the
// wall, and the record counts a Black teire there (docs/STRENGTH.md). A
// dead chain in atari is left out: the capturer takes it with one stone
// in answer to the threat, and the records measured count no teire
// there; so are lone stones and pairs, which the records measured leave
// alone.
func defendedWalls(w *Board, dead []bool, owner []Color) []Loc {
	var out []Loc
	for _, l := range deadChains(w, dead) {
		h := w.head[l]
		c := w.color[h].Opponent()
		libs := chainLibs(w, h)
		if len(libs) != 2 || owner[libs[0]] != c || owner[libs[1]] != c {
			continue
		}
		for _, x := range w.neighbourChains(h, c) {
			if w.atari(x) || w.ChainSize(x) < 3 || !attacks(w, x, c, 2) {
				continue
			}
			q := libs[0]
			if !w.touches(libs[0], x) && w.touches(libs[1], x) {
				q = libs[1]
			}
			if !slices.Contains(out, q) {
				out = append(out, q)
			}
			break
		}
	}
	return out
}

// neighbourChains returns the heads of the chains of c next to the chain
// headed by h.
func (b *Board) neighbourChains(h Loc, c Color) []Loc {
	var out []Loc
	for s := h; ; {
		for _, d := range b.dirs {
			if n := s + d; b.color[n] == c && !slices.Contains(out, b.head[n]) {
				out = append(out, b.head[n])
			}
		}
		s = b.next[s]
		if s == h {
			return out
		}
	}
}

// touches reports whether the point q is next to a stone of the chain
// headed by h.
func (b *Board) touches(q, h Loc) bool {
	for _, d := range b.dirs {
		if n := q + d; b.color[n] == b.color[h] && b.head[n] == h {
			return true
		}
	}
	return false
}

// approach returns a liberty of the chain at l, in its capturer's
// territory, where the capturer's stone captures or keeps two liberties.
func approach(b *Board, l Loc, owner []Color) (Loc, bool) {
	c := b.color[l].Opponent()
	for _, q := range chainLibs(b, b.head[l]) {
		if owner[q] != c || b.Check(q, c, false) != nil {
			continue
		}
		taken := b.Play(q, c)
		ok := taken > 0 || b.Liberties(q) >= 2
		b.Undo()
		if ok {
			return q, true
		}
	}
	return 0, false
}

// uncapturable returns a dead stone of each dead chain (dead, over w's
// Locs) on the edge of the work board w, after the fill, that its
// capturer can no longer take (stuck). gosei49-4's lower left: Black's
// fill at A4 leaves Black's A2-B5 with A1 and C3 and C2-D3 with C1 and
// C3, and a stone on A1 or C1, the liberties of White's dead B1-B2, is a
// self-atari that White's C3 punishes; the record and GNU Go count A1 and
// C1 as dame: Black took B1-B2 before the fill. Away from the edge the
// rule was measured to lose records (docs/STRENGTH.md).
func uncapturable(w *Board, dead []bool, owner []Color) []Loc {
	var out []Loc
	for _, l := range deadChains(w, dead) {
		if w.onEdge(l) && stuck(w, w.head[l], dead, owner) {
			out = append(out, l)
		}
	}
	return out
}

// deadChains returns one stone of each chain of w that dead marks, each
// chain once, in the board's order. A stone, not the head: callers use it
// on copies of w, where the chain's head may be another stone.
func deadChains(w *Board, dead []bool) []Loc {
	var heads, out []Loc
	for l := range w.color {
		if c := w.color[l]; (c != Black && c != White) || !dead[l] || slices.Contains(heads, w.head[l]) {
			continue
		}
		heads = append(heads, w.head[l])
		out = append(out, Loc(l))
	}
	return out
}

// stuck reports whether the capturer cannot approach the dead chain at h
// on b: the chain has two liberties or more, all in the capturer's
// territory, and on each of them the capturer's stone is illegal or,
// capturing nothing, joins a chain of the capturer that it leaves in
// atari, a chain next to no other dead stones of the enemy. The dead
// chain's owner would take that chain. A short chain next to further dead
// stones is a stone inside a larger dead group, which the capturer takes
// from outside (meijin34-R02's upper left).
func stuck(b *Board, h Loc, dead []bool, owner []Color) bool {
	c := b.color[h].Opponent()
	libs := chainLibs(b, h)
	if len(libs) < 2 {
		return false
	}
	for _, q := range libs {
		if owner[q] != c {
			return false
		}
		if b.Check(q, c, false) != nil {
			continue
		}
		taken := b.Play(q, c)
		short := taken == 0 && b.Liberties(q) <= 1 && b.ChainSize(q) > 1 && !b.touchesOtherDead(q, h, dead)
		b.Undo()
		if !short {
			return false
		}
	}
	return true
}

// onEdge reports whether the chain at l has a stone on the first line.
func (b *Board) onEdge(l Loc) bool {
	for s := l; ; {
		if p := b.Point(s); p.X == 0 || p.Y == 0 || p.X == b.w-1 || p.Y == b.h-1 {
			return true
		}
		s = b.next[s]
		if s == l {
			return false
		}
	}
}

// touchesOtherDead reports whether the chain at q is next to a dead enemy
// stone (dead, over b's Locs) that is not of the chain at h.
func (b *Board) touchesOtherDead(q, h Loc, dead []bool) bool {
	e := b.color[q].Opponent()
	for s := q; ; {
		for _, d := range b.dirs {
			if n := s + d; b.color[n] == e && dead[n] && b.head[n] != b.head[h] {
				return true
			}
		}
		s = b.next[s]
		if s == q {
			return false
		}
	}
}

// areaDame returns the dame of an area count that the players fill after
// the last move, each with the colour that fills it, when the position
// stops on a move with dame open: under area scoring each dame is a point
// for whoever fills it, so a game is not over until they are filled (the
// Chinese rules' end of the game), and a record that stops with them open
// stops before the fill. They are filled in turn, the player to move
// first, the way teire fills them (fillOut: ataris answered, no stone left
// with fewer than two liberties); a dame that neither can fill safely, and
// the dame next to a chain in seki, stay neutral. So does an open area
// larger than splitOpen splits: that is a part of the board the record
// never played out, not dame. Without the fill the player to move lost
// the odd dame that the players' alternate filling gives it
// (docs/STRENGTH.md).
func areaDame(b, live *Board, dead []bool, regions []region, seki map[Loc]bool, toMove Color) map[Loc]Color {
	owner, neutral, exempt := fillSetup(live, dead, regions, seki)
	for _, r := range regions {
		if r.owner == Empty && len(r.points)*openMaxShare > b.w*b.h {
			for _, l := range r.points {
				neutral[l] = false
			}
		}
	}
	_, dame, _ := fillOut(b, toMove, owner, neutral, exempt, false)
	return dame
}

// fillSetup returns what filling the dame needs: the owner of each point
// of live's regions, the dame (neutral points not next to a chain in
// seki), and the test for chains that nobody saves (dead, in seki, or a
// chain that stands among dead enemy stones).
func fillSetup(live *Board, dead []bool, regions []region, seki map[Loc]bool) (owner []Color, neutral []bool, exempt func(*Board, Loc) bool) {
	owner = make([]Color, len(live.color))
	neutral = make([]bool, len(live.color))
	for _, r := range regions {
		touchesSeki := r.touchesSeki(live, seki)
		for _, l := range r.points {
			owner[l] = r.owner
			if r.owner == Empty && !touchesSeki {
				neutral[l] = true
			}
		}
	}
	// exempt reports whether the chain at l on the work board is dead or in
	// seki, or stands among dead enemy stones (amongDead): nobody saves it.
	// Stones added while filling are neither.
	exempt = func(w *Board, l Loc) bool {
		if amongDead(w, l, owner, dead) {
			return true
		}
		for s := l; ; {
			if dead[s] || (live.color[s] == w.color[s] && seki[live.head[s]]) {
				return true
			}
			s = w.next[s]
			if s == l {
				return false
			}
		}
	}
	return owner, neutral, exempt
}

// fillOut fills the dame of b in turn, turn first, with the chains in
// atari saved at once, and returns the teire, the dame filled, each with
// the colour that filled it, and the board after the fill.
func fillOut(b *Board, turn Color, owner []Color, neutral []bool, exempt func(*Board, Loc) bool, territory bool) (map[Loc]bool, map[Loc]Color, *Board) {
	work := b.Clone()
	filled := map[Loc]bool{}
	dame := map[Loc]Color{}
	for passes, moves := 0, 0; passes < 2 && moves < 2*len(work.color); moves++ {
		l, ok := saveChain(work, turn, owner, neutral, exempt, territory)
		if !ok {
			// Before filling, the player defends what an enemy stone
			// inside its territory would take.
			l, ok = defendInvasion(work, turn, owner, neutral, exempt)
		}
		if !ok {
			l, ok = fillDame(work, turn, owner, neutral, exempt)
		}
		if !ok {
			passes++
			turn = turn.Opponent()
			continue
		}
		passes = 0
		if owner[l] == turn {
			filled[l] = true
		}
		if neutral[l] {
			dame[l] = turn
		}
		work.Play(l, turn)
		turn = turn.Opponent()
	}
	return filled, dame, work
}

// saveChain returns the point where c saves a chain of its own that is in
// atari on the work board, when its last liberty lies in c's territory
// (teire) or is a dame: that liberty, when a stone of c there is legal and
// leaves the chain with at least two liberties or captures; else the
// capture of an enemy chain in atari next to it (saveByCapture); else,
// in c's territory, the first of the stones that connect it, one after
// the other, to liberties enough (savedInside). The two last saves are
// the ones a referee has the owner play when the dame leave a chain in
// atari whose last liberty would be a self-atari: before them the chain
// was left as it stood and no point was lost. A chain whose capture in
// c's territory would be a snapback is not saved (snapback). Under
// territory counting (territory set), a chain whose last liberty lies in
// c's territory is saved first by taking an enemy chain of two stones or
// more in atari next to it, when that capture is in c's territory too:
// either move costs c a point, and the capture also takes off the dead
// stones that press c's wall, so later fills put nothing of c's in atari
// there again (fmeijin24-P06). A single stone is not taken so: its capture
// leaves a one-point hole that the enemy can fill again, and the players
// connect. Nor is the capture made when another chain of c is in atari on
// the same last liberty (sharedLastLiberty): the stone there saves both
// chains with one point, the capture saves one and the other still needs
// the stone (tengen48-K17's J17, the last liberty of Black's G18-H17 and
// of J18-K19: Black took the dead G16-H16 on J16 and then connected on
// J17, two teire where the record and GNU Go count one) (docs/STRENGTH.md).
func saveChain(b *Board, c Color, owner []Color, neutral []bool, exempt func(*Board, Loc) bool, territory bool) (Loc, bool) {
	for y := 0; y < b.h; y++ {
		for x := 0; x < b.w; x++ {
			l := b.loc(x, y)
			if b.color[l] != c || b.head[l] != l || !b.atari(l) || exempt(b, l) {
				continue
			}
			t := b.lastLiberty(l)
			if owner[t] != c && !neutral[t] {
				continue
			}
			if owner[t] == c && snapback(b, t, c) {
				continue
			}
			dying := deadAround(b, l, exempt)
			if owner[t] == c && dying != nil && inAtariAt(b, dying, t) {
				continue
			}
			// Only dead stones can take a chain that no living enemy
			// stone touches; taking one of them to save it, or
			// connecting it by stones inside, is no teire
			// (onlyDeadAround).
			threatened := owner[t] != c || !onlyDeadAround(b, l, owner, exempt)
			if territory && owner[t] == c && threatened && !sharedLastLiberty(b, l, t) {
				if q, ok := saveByCapture(b, l, c, owner, neutral); ok && owner[q] == c && capturedSize(b, q, c) >= 2 {
					return q, true
				}
			}
			if !cannotFill(b, t, c) {
				return t, true
			}
			if q, ok := saveByCapture(b, l, c, owner, neutral); ok && threatened {
				return q, true
			}
			if owner[t] == c && threatened && savedInside(b, t, c, owner) {
				return t, true
			}
			if owner[t] == c && dying != nil {
				if q, ok := approachDying(b, dying, t, c, owner); ok {
					return q, true
				}
			}
		}
	}
	return 0, false
}

// sharedLastLiberty reports whether another chain of the colour of the
// chain at l is in atari on t, that chain's last liberty, too.
func sharedLastLiberty(b *Board, l, t Loc) bool {
	c := b.color[l]
	for _, d := range b.dirs {
		if n := t + d; b.color[n] == c && b.head[n] != b.head[l] && b.atari(b.head[n]) {
			return true
		}
	}
	return false
}

// onlyDeadAround reports whether every point next to the chain at l is an
// empty point of its owner's territory or an enemy stone nobody saves
// (exempt: dead, in seki). Only the dead stones can take such a chain, and
// their capture would cost them a point: the chain's points become its
// owner's territory, as many as the prisoners they take, and the capturing
// stone, dead as the rest, is one more prisoner for the owner. So
// its owner does not save it by taking a dead stone in its own territory,
// which costs a point and gains none (tengen50-Q12's upper left: White's
// A18-A19, in atari on B19 inside Black's dead group, where White's stone
// would have no liberty; Tengen took the dead A17 at A16, and the record
// and GNU Go count A16 as White's). Nor does it connect the chain by
// stones inside its territory (savedInside), which cost as many points
// (kisei48-S14's lower right: Black's P8-Q8 among dead White stones, in
// atari on P9, where Black's stone would leave it O9 alone; Tengen played
// P9 and counted it a teire, and the record and GNU Go count P9 and O9 as
// Black's). The approach of approachDying, for dead stones whose capture
// lets them go on, is not touched (docs/STRENGTH.md).
func onlyDeadAround(b *Board, l Loc, owner []Color, exempt func(*Board, Loc) bool) bool {
	return insideOnly(b, l, owner, func(q Loc) bool { return exempt(b, b.head[q]) })
}

// insideOnly reports whether every point next to the chain at l is an
// empty point of its owner's territory or an enemy stone that dead
// reports as dead.
func insideOnly(w *Board, l Loc, owner []Color, dead func(Loc) bool) bool {
	c := w.color[l]
	for s := l; ; {
		for _, d := range w.dirs {
			switch q := s + d; w.color[q] {
			case Empty:
				if owner[q] != c {
					return false
				}
			case c.Opponent():
				if !dead(q) {
					return false
				}
			}
		}
		s = w.next[s]
		if s == l {
			return true
		}
	}
}

// deadAround returns the heads of the enemy chains next to the chain
// headed by l when there are some and every one of them is exempt (dead):
// l stands inside a dying group's eye space. Otherwise it returns nil.
func deadAround(b *Board, l Loc, exempt func(*Board, Loc) bool) []Loc {
	e := b.color[l].Opponent()
	var out []Loc
	for s := l; ; {
		for _, d := range b.dirs {
			n := s + d
			if b.color[n] != e || slices.Contains(out, b.head[n]) {
				continue
			}
			if !exempt(b, b.head[n]) {
				return nil
			}
			out = append(out, b.head[n])
		}
		s = b.next[s]
		if s == l {
			break
		}
	}
	return out
}

// inAtariAt reports whether every chain of hs is in atari on t.
func inAtariAt(b *Board, hs []Loc, t Loc) bool {
	for _, h := range hs {
		if !b.atari(h) || b.lastLiberty(h) != t {
			return false
		}
	}
	return true
}

// approachDying returns the point where c, whose chain in atari on t
// stands among the dying enemy chains hs and cannot fill t, takes their
// other liberty in c's territory: the killer must approach the dying
// group from outside before it can take it, and that stone is a teire
// (tengen45-P32's S19, next to Black's wall, where White could otherwise
// take Black's Q18-Q19 at R18 and live a while longer).
func approachDying(b *Board, hs []Loc, t Loc, c Color, owner []Color) (Loc, bool) {
	for _, h := range hs {
		libs := chainLibs(b, h)
		if len(libs) != 2 {
			continue
		}
		for _, q := range libs {
			if q == t || owner[q] != c || b.Check(q, c, false) != nil {
				continue
			}
			b.Play(q, c)
			ok := b.Liberties(q) >= 2
			b.Undo()
			if ok {
				return q, true
			}
		}
	}
	return 0, false
}

// snapback reports whether the enemy's capture at t, the last liberty of a
// chain of c in atari in c's territory, is a snapback: the capturing
// chain, larger than what it takes (typically the capturing stone joined
// to dead stones), is left in atari, and c takes it back at once with a
// stone that keeps two liberties and leaves no chain of c next to the two
// points in atari. Such a chain needs no save: the capture would cost the
// capturer more stones than it takes, so no player makes it, and the
// owner leaves the chain and keeps the point (meijin33-Q12: White's K14
// and the dead K15-L15 are in atari on L14 together). Where the capture
// takes more than the retake gives back, the players fill: cj1964-07-05a's
// Black connects at Q12, where White would take three stones and lose
// one (docs/STRENGTH.md).
func snapback(b *Board, t Loc, c Color) bool {
	e := c.Opponent()
	if b.Check(t, e, false) != nil {
		return false
	}
	taken := b.Play(t, e)
	defer b.Undo()
	if taken == 0 || !b.atari(b.head[t]) {
		return false
	}
	r := b.lastLiberty(b.head[t])
	if b.Check(r, c, false) != nil || b.ChainSize(t) <= taken {
		return false
	}
	b.Play(r, c)
	defer b.Undo()
	if b.Liberties(r) < 2 {
		return false
	}
	for _, q := range []Loc{t, r} {
		for _, d := range b.dirs {
			if n := q + d; b.color[n] == c && b.atari(b.head[n]) {
				return false
			}
		}
	}
	return true
}

// defendInvasion returns a point of c's territory where an enemy stone
// would put a chain of c in atari that c then cannot keep from being
// captured (defends, reading readDepth plies): c plays there first, a
// teire, when its own stone there keeps two liberties and cannot be
// captured itself. A threat from inside that c can answer costs nothing
// under territory counting (the answer that captures gives a prisoner for
// the point it fills, and a stone left inside is a prisoner at the count),
// so only a threat that c could not answer costs the point. These are
// stones that hang from no wall once the dame are filled (gosei48-K13's
// S1-S2 on the edge, meijin39-P16's S10-T10 by S11), walls that dead
// stones press (gosei43-K09's L14), and chains whose save by capture
// leaves them one eye (gosei44-Q24's G18, where White's capture of the
// throw-in is answered by a second one): the records and GNU Go's
// finishing moves count such points as dame. When c's own stone does not
// save the chain either, the chain is a matter of life and death, which
// the dead-stone estimate decides, and no teire is counted. The point
// checked is a liberty of a chain of c with at most two liberties.
//
// The same holds for a dame between walls (smallDame): when the enemy's
// fill there would leave a chain of c in atari beyond saving, c fills it
// first, before any other dame. A player answers the fill that shortens
// a chain's liberties rather than filling elsewhere and losing the chain
// (honinbo73-K15's H16: after Black's H17, White's G15-H18 has H16 and
// G19, and Black's H16 would capture it on G19; White connects at H16,
// and then its fill on G19 makes Black connect at J19). In a larger area
// of dame the record stopped before the stones were played out, and the
// fill's order there is no player's (docs/STRENGTH.md).
func defendInvasion(b *Board, c Color, owner []Color, neutral []bool, exempt func(*Board, Loc) bool) (Loc, bool) {
	e := c.Opponent()
	for y := 0; y < b.h; y++ {
		for x := 0; x < b.w; x++ {
			p := b.loc(x, y)
			if b.color[p] != Empty || b.Check(p, e, false) != nil || b.Check(p, c, false) != nil {
				continue
			}
			if owner[p] != c && (!neutral[p] || !smallDame(b, p, neutral)) {
				continue
			}
			near := false
			for _, d := range b.dirs {
				if n := p + d; b.color[n] == c && !exempt(b, b.head[n]) && b.Liberties(n) <= 2 {
					near = true
				}
			}
			if !near {
				continue
			}
			joinsDead := joinsOnlyDead(b, p, e, exempt)
			b.Play(p, e)
			lost := false
			for _, d := range b.dirs {
				if n := p + d; b.color[n] == c && !exempt(b, b.head[n]) && b.atari(b.head[n]) && !defends(b, n, c, readDepth) {
					lost = true
				}
			}
			if !lost && !keepsAll(b, p, c, exempt) {
				lost = true
			}
			if lost && joinsDead && b.Liberties(p) >= 2 && attacks(b, p, e, readDepth) {
				lost = false
			}
			b.Undo()
			if lost {
				b.Play(p, c)
				ok := b.Liberties(p) >= 2 && !attacks(b, p, c, readDepth)
				b.Undo()
				if ok {
					return p, true
				}
			}
		}
	}
	return 0, false
}

// keepsAll reports whether c, to move after the enemy's stone on p, keeps
// every chain of its own next to p at once: with no move when the enemy
// captures none of them anyway, or with one stone on a liberty of one of
// them or one capture next to them after which the enemy captures none
// (attacks, reading readDepth plies). defends reads each threatened chain
// alone, so an invader that ataris one chain and shortens another (or
// ataris two) passed for answered, though c can save only one: the
// answer to the one atari leaves the other chain to be taken.
// honinbo72-R13's D9: White's lone E9 and its D8-D9 wall both have D9
// and one point of White's territory as liberties; Black's stone on D9
// ataris both, White can connect only one, and the record and GNU Go
// count White's connection as a teire. The test only looks at two chains
// or more: one chain alone is what defends reads (docs/STRENGTH.md).
func keepsAll(b *Board, p Loc, c Color, exempt func(*Board, Loc) bool) bool {
	var hs []Loc
	for _, d := range b.dirs {
		if n := p + d; b.color[n] == c && !exempt(b, b.head[n]) && !slices.Contains(hs, b.head[n]) {
			hs = append(hs, b.head[n])
		}
	}
	if len(hs) < 2 {
		return true
	}
	safe := func() bool {
		for _, h := range hs {
			if b.color[h] != c || attacks(b, h, c, readDepth) {
				return false
			}
		}
		return true
	}
	if safe() {
		return true
	}
	var moves []Loc
	for _, h := range hs {
		for _, l := range chainLibs(b, h) {
			if !slices.Contains(moves, l) {
				moves = append(moves, l)
			}
		}
		moves = captures(b, h, c, moves)
	}
	for _, m := range moves {
		if b.Check(m, c, false) != nil {
			continue
		}
		b.Play(m, c)
		ok := safe()
		b.Undo()
		if ok {
			return true
		}
	}
	return false
}

// joinsOnlyDead reports whether e's stone on p would join enemy stones of c
// that nobody saves (exempt: dead), and no others. Such an invader brings
// the dead stones back into play, and c may answer it by capturing the
// whole chain rather than by saving the chain it ataris: defendInvasion
// then counts no teire when c, to move, captures the joined chain
// (attacks), though the invader first takes a stone of c (kisei48-B1-18's
// N18: White's stone there joins the dead O16-P18 and puts Black's N19 in
// atari on O19; Black answers on P19, White takes N19 at O19, and Black's
// N19 takes the six stones; the record and GNU Go count N18 as Black's).
// Under territory counting the capture costs c nothing: the stones it
// plays inside are paid for by the invader's stones it takes. The rule is
// only for a joined chain that keeps two liberties: one left in atari
// is taken at once, which the reading of the threatened chain already
// tries, and when that capture does not save it (gosei44-Q24's G18, a
// throw-in whose capture leaves one eye) the teire stays. A lone invader,
// joined to nothing, is not answered so: the players fill there
// (honinbo77-K11's T15, meijin39-P04's T11), and the corpus loses six
// exact results with it for five gained (docs/STRENGTH.md).
func joinsOnlyDead(b *Board, p Loc, e Color, exempt func(*Board, Loc) bool) bool {
	joined := false
	for _, d := range b.dirs {
		if n := p + d; b.color[n] == e {
			if !exempt(b, b.head[n]) {
				return false
			}
			joined = true
		}
	}
	return joined
}

// maxDefendedDame is the largest area of connected dame in which
// defendInvasion has a player fill first to defend a chain: the corpus
// counts best with four or five (docs/STRENGTH.md).
const maxDefendedDame = 4

// smallDame reports whether the dame p lies in an area of at most
// maxDefendedDame connected dame.
func smallDame(b *Board, p Loc, neutral []bool) bool {
	seen := []Loc{p}
	for i := 0; i < len(seen); i++ {
		for _, d := range b.dirs {
			if n := seen[i] + d; neutral[n] && !slices.Contains(seen, n) {
				if len(seen) == maxDefendedDame {
					return false
				}
				seen = append(seen, n)
			}
		}
	}
	return true
}

// ataris reports whether c's stone at q puts an enemy chain next to it in
// atari that is neither dead nor in seki nor left as it stands (exempt)
// and, when where is not nil, for which where holds (it gets the chain's
// head).
func ataris(b *Board, q Loc, c Color, exempt func(*Board, Loc) bool, where func(Loc) bool) bool {
	for _, d := range b.dirs {
		if n := q + d; b.color[n] == c.Opponent() && b.atari(b.head[n]) && !exempt(b, b.head[n]) && (where == nil || where(b.head[n])) {
			return true
		}
	}
	return false
}

// cutOff reports whether the enemy, by filling a dame next to c's chain at
// q with a stone that keeps two liberties, would leave the chain with
// liberties only in the enemy's territory (oza70-P10's O9: Black's stone
// there has the dame O8 and White's O10; White's O8 leaves it O10 alone),
// or, in a small area of dame (smallDame), in atari on a point outside c's
// territory where c's own stone would be a self-atari (shortOn): c cannot
// connect, and the enemy takes the chain. tengen48-Q22's upper edge: the
// dame J19 to M19, Black's K18-L18 under K19 and L19; White's K19 would be
// left in atari on J19 by Black's L19, and White's stone on J19 would join
// its H19-J18 chain, whose other liberty is F19, in a self-atari. White
// fills L19, which M19 connects, instead; Black's K19 and J19 then make
// White's F19 a teire, as the record and GNU Go count (docs/STRENGTH.md).
//
// With enemyTerritory false only the second form counts: for a fill that
// puts an enemy chain in atari, which the enemy answers first.
func cutOff(b *Board, q Loc, c Color, owner []Color, neutral []bool, enemyTerritory bool) bool {
	e := c.Opponent()
	for _, l := range chainLibs(b, b.head[q]) {
		if !neutral[l] || b.Check(l, e, false) != nil {
			continue
		}
		b.Play(l, e)
		cut := b.color[q] == c && b.Liberties(l) >= 2 &&
			(enemyTerritory && onlyEnemyLiberties(b, q, owner) || smallDame(b, l, neutral) && shortOn(b, q, owner))
		b.Undo()
		if cut {
			return true
		}
	}
	return false
}

// capturesAtari reports whether c's stone at q puts an enemy chain in
// atari that the enemy cannot save by a stone on its last liberty
// (cannotFill): the enemy loses that chain before any cut of its own
// works, so c's stone is a fill, whatever the dame around it leave short.
// meijin37-Q19's lower right: White's R2 puts Black's R1-S1 in atari on
// T1, where Black's stone would leave the corner in atari on T3.
func capturesAtari(b *Board, q Loc, c Color, exempt func(*Board, Loc) bool) bool {
	return ataris(b, q, c, exempt, func(h Loc) bool { return cannotFill(b, b.lastLiberty(h), c.Opponent()) })
}

// shortOn reports whether the chain at q is in atari on a point outside
// its owner's territory where its owner's stone would be left with one
// liberty or none, capturing nothing (cannotFill).
func shortOn(b *Board, q Loc, owner []Color) bool {
	c := b.color[q]
	if !b.atari(b.head[q]) {
		return false
	}
	t := b.lastLiberty(b.head[q])
	return owner[t] != c && cannotFill(b, t, c)
}

// onlyEnemyLiberties reports whether every liberty of the chain at q lies
// in the territory of the opponent of the chain's colour.
func onlyEnemyLiberties(b *Board, q Loc, owner []Color) bool {
	e := b.color[q].Opponent()
	for _, l := range chainLibs(b, b.head[q]) {
		if owner[l] != e {
			return false
		}
	}
	return true
}

// readDepth is how many plies defendInvasion reads. The corpus gives the
// same count for every depth from 5 to 12; at 4 and less the reading
// stops inside the ladders and throw-ins it has to see through
// (docs/STRENGTH.md).
const readDepth = 8

// defends reports whether c, to move, keeps the chain of its stone s from
// being captured, reading depth plies: c need not move when the opponent
// cannot capture it anyway (two eyes, say); else c tries a stone on each
// of the chain's liberties and the capture of each enemy chain in atari
// next to it, and the opponent answers on the chain's liberties (attacks).
// A chain with three liberties is safe; at the end of the reading, one
// with two.
func defends(b *Board, s Loc, c Color, depth int) bool {
	h := b.head[s]
	libs := b.Liberties(h)
	if libs >= 3 {
		return true
	}
	if depth <= 0 {
		return libs >= 2
	}
	if libs >= 2 && !attacks(b, s, c, depth-1) {
		return true
	}
	for _, m := range captures(b, h, c, chainLibs(b, h)) {
		if b.Check(m, c, false) != nil {
			continue
		}
		b.Play(m, c)
		ok := b.color[s] == c && !attacks(b, s, c, depth-1)
		b.Undo()
		if ok {
			return true
		}
	}
	return false
}

// captures appends to cands, each once, the points where c captures an
// enemy chain in atari next to c's chain headed by h, and returns them.
func captures(b *Board, h Loc, c Color, cands []Loc) []Loc {
	for s := h; ; {
		for _, d := range b.dirs {
			if q := s + d; b.color[q] == c.Opponent() && b.atari(b.head[q]) {
				if t := b.lastLiberty(b.head[q]); !slices.Contains(cands, t) {
					cands = append(cands, t)
				}
			}
		}
		s = b.next[s]
		if s == h {
			break
		}
	}
	return cands
}

// attacks reports whether the opponent of c, to move, captures the chain
// of c's stone s, reading depth plies: a stone on each liberty of a chain
// with at most two, then c's defence (defends).
func attacks(b *Board, s Loc, c Color, depth int) bool {
	libs := chainLibs(b, b.head[s])
	if len(libs) >= 3 || (depth <= 0 && len(libs) >= 2) {
		return false
	}
	e := c.Opponent()
	for _, m := range libs {
		if b.Check(m, e, false) != nil {
			continue
		}
		b.Play(m, e)
		ok := b.color[s] != c || !defends(b, s, c, depth-1)
		b.Undo()
		if ok {
			return true
		}
	}
	return false
}

// capturedSize returns the number of stones a stone of c at q captures.
func capturedSize(b *Board, q Loc, c Color) int {
	n := b.Play(q, c)
	b.Undo()
	return n
}

// saveByCapture returns the point where c saves its chain headed by h,
// in atari, by capturing an enemy chain next to it that is in atari too,
// when that point lies in c's territory or is a dame and the capture leaves
// c's chain with two liberties. Typically the enemy chain is a dead stone
// that cuts c's wall (meijin36-Q14's B10, meijin37-Q10's S3): once the
// dame are filled, the wall's last liberty is a self-atari, and the owner
// takes the dead stone off instead, a teire.
func saveByCapture(b *Board, h Loc, c Color, owner []Color, neutral []bool) (Loc, bool) {
	for _, t := range captures(b, h, c, nil) {
		if owner[t] != c && !neutral[t] {
			continue
		}
		if b.Check(t, c, false) != nil {
			continue
		}
		b.Play(t, c)
		ok := b.Liberties(h) >= 2
		b.Undo()
		if ok {
			return t, true
		}
	}
	return 0, false
}

// maxInsideSaves bounds the stones savedInside plays in a row.
const maxInsideSaves = 4

// savedInside reports whether c's stone at t, a self-atari in c's own
// territory, joins chains that c then saves by further stones on their
// last liberty, each in c's territory, until the chain has two liberties
// or captures. This is the shape of false eyes between several chains
// (meijin34-Q19's upper right: when the dame leave R19-S19 in atari on
// Q19, the stone there leaves the larger chain in atari on O19, and the
// stone there the chain M19-N19 on L19, where the third stone captures):
// each stone is a teire, and fillOut plays the next one when the chain is
// in atari again.
func savedInside(b *Board, t Loc, c Color, owner []Color) bool {
	played := 0
	defer func() {
		for ; played > 0; played-- {
			b.Undo()
		}
	}()
	for q := t; played < maxInsideSaves; {
		if b.Check(q, c, false) != nil {
			return false
		}
		captures := b.WouldCapture(q, c)
		b.Play(q, c)
		played++
		if captures || b.Liberties(q) >= 2 {
			return true
		}
		next := b.lastLiberty(b.head[q])
		if next == 0 || owner[next] != c {
			return false
		}
		q = next
	}
	return false
}

// lastLiberty returns the one liberty of the chain headed by h, which must
// be in atari.
func (b *Board) lastLiberty(h Loc) Loc {
	for s := h; ; {
		for _, d := range b.dirs {
			if q := s + d; b.color[q] == Empty {
				return q
			}
		}
		s = b.next[s]
		if s == h {
			return 0
		}
	}
}

// fillDame returns the dame c fills next on the work board: one whose
// stone would keep at least two liberties. First come the dame worth a
// point: one that puts an enemy chain (not dead, not in seki) in atari
// with its last liberty in the enemy's territory, so that the enemy must
// fill there (teire), and one where the enemy's stone would do that to c.
// Players fill the two kinds alike: a dame that forces the opponent's teire
// gains the point that the opponent gains by filling it first. Then come
// other ataris, then dame next to an enemy chain. A dame worth a point
// that c's stone cannot fill because dead stones press c's wall waits until
// c has captured them (unlock), or connected inside (connectToFill); such
// a move is itself a teire and gains nothing on balance, so c plays it
// only when no dame forces a teire at once (rank 4 before 3): the player
// takes the point it gains in sente first (honinbo72-R12: White's O11,
// which makes Black connect at R11, before White's capture at R19 that
// opens T19). Before the defence
// counted, each side filled only its own threats, and a chain the owner
// would have protected on a dame got a teire in its territory.
func fillDame(b *Board, c Color, owner []Color, neutral []bool, exempt func(*Board, Loc) bool) (Loc, bool) {
	best, bestRank := Loc(0), -1
	for y := 0; y < b.h; y++ {
		for x := 0; x < b.w; x++ {
			q := b.loc(x, y)
			if !neutral[q] || b.color[q] != Empty || b.Check(q, c, false) != nil {
				continue
			}
			rank := 0
			for _, d := range b.dirs {
				if n := q + d; b.color[n] == c.Opponent() && !exempt(b, b.head[n]) {
					rank = max(rank, 1)
				}
			}
			b.Play(q, c)
			libs := b.Liberties(q)
			if libs >= 2 && (onlyEnemyLiberties(b, q, owner) || !capturesAtari(b, q, c, exempt) && cutOff(b, q, c, owner, neutral, !ataris(b, q, c, exempt, nil))) {
				// No safe fill: the enemy ataris the stone from inside
				// its own territory and captures it, at once or after
				// one fill of its own that cuts the stone off. Such
				// dame are the neutral rest of split open areas
				// (splitOpen) and notches in the enemy's wall; filling
				// them put the enemy's chains short of liberties that
				// no player would have taken, and a stone the enemy
				// takes is no fill but a prisoner. A stone that puts
				// an enemy chain in atari is answered first and may be
				// connected after, so it is filled unless a small area
				// of dame leaves it short (shortOn): the enemy answers
				// the atari, then cuts (oza70-P10's H13). Only when the
				// enemy cannot save the chain in atari does the fill
				// stand (capturesAtari, meijin37-Q19's R2).
				libs = 1
			}
			if libs < 2 && rank == 1 {
				threat := false
				for _, d := range b.dirs {
					if n := q + d; b.color[n] == c.Opponent() && b.atari(b.head[n]) && !exempt(b, b.head[n]) && owner[b.lastLiberty(b.head[n])] == c.Opponent() {
						threat = true
					}
				}
				b.Undo()
				if threat {
					if u, ok := unlock(b, q, c, owner, exempt); ok && bestRank < 3 {
						best, bestRank = u, 3
					} else if u, ok := connectToFill(b, q, c, owner, exempt); ok && bestRank < 3 {
						best, bestRank = u, 3
					}
				}
				continue
			}
			if libs >= 2 && rank == 1 {
				for _, d := range b.dirs {
					if n := q + d; b.color[n] == c.Opponent() && b.atari(b.head[n]) && !exempt(b, b.head[n]) {
						rank = 2
						if owner[b.lastLiberty(b.head[n])] == c.Opponent() {
							rank = 4
						}
					}
				}
			}
			b.Undo()
			if libs >= 2 && rank < 4 && forcesTeire(b, q, c.Opponent(), owner, exempt) {
				rank = 4
			}
			if libs >= 2 && rank > bestRank {
				best, bestRank = q, rank
			}
		}
	}
	return best, bestRank >= 0
}

// unlock returns the point where c starts to capture a dead enemy chain
// that keeps c from filling the dame q: a chain of at most two liberties,
// all in c's territory, next to c's chain that q touches. The caller has
// found that q would put an enemy chain in atari with its last liberty in
// the enemy's territory (a point at stake) but leaves c's own stone with a
// single liberty, because the dead stones take the liberties of c's wall
// (meijin34-Q07's A15: White's wall A14-C16 has only A13 and A15 while the
// dead B12-C13 press it). A referee has c capture them first, a move or
// two inside c's territory, and then fill the dame. The stone must capture
// or keep two liberties.
func unlock(b *Board, q Loc, c Color, owner []Color, exempt func(*Board, Loc) bool) (Loc, bool) {
	// Gather first: cannotFill plays and takes back stones, which may
	// reorder the chains' rings.
	var targets [][]Loc
	for _, e := range b.aroundChains(q, c) {
		if b.color[e] != c.Opponent() || !exempt(b, b.head[e]) {
			continue
		}
		libs := chainLibs(b, b.head[e])
		ok := len(libs) <= 2
		for _, l := range libs {
			ok = ok && owner[l] == c
		}
		if ok {
			targets = append(targets, libs)
		}
	}
	for _, libs := range targets {
		for _, l := range libs {
			if !cannotFill(b, l, c) {
				return l, true
			}
		}
	}
	return 0, false
}

// connectToFill returns the point inside c's territory where c connects
// the chain that keeps it from filling the dame q, when q, filled after
// that move, puts an enemy chain in atari whose last liberty, in the
// enemy's territory, is a self-atari there that further stones inside
// save (savedInside): the enemy then gives two teire or more for c's one.
// meijin33-Q15's left side: D15 is a liberty of both Black's D14-A13 and
// White's C14-D16 with E14-E15, and a stone of either side there is a
// self-atari; White connects at E16 and fills D15, and Black connects at
// A14 and A16, the three points the record and GNU Go do not count. A
// chain that no stones inside save is left to the dead-stone estimate: it
// would be captured, and c gives no point for it.
func connectToFill(b *Board, q Loc, c Color, owner []Color, exempt func(*Board, Loc) bool) (Loc, bool) {
	for _, e := range b.aroundChains(q, c) {
		if b.color[e] != Empty || owner[e] != c || b.Check(e, c, false) != nil {
			continue
		}
		b.Play(e, c)
		ok := false
		if b.Check(q, c, false) == nil {
			b.Play(q, c)
			ok = b.Liberties(q) >= 2 && costsInsideSaves(b, q, c, owner, exempt)
			b.Undo()
		}
		b.Undo()
		if ok {
			return e, true
		}
	}
	return 0, false
}

// costsInsideSaves reports whether c's stone at q puts an enemy chain next
// to it in atari whose last liberty, in the enemy's territory, is a
// self-atari there that further stones inside save (savedInside).
func costsInsideSaves(b *Board, q Loc, c Color, owner []Color, exempt func(*Board, Loc) bool) bool {
	e := c.Opponent()
	for _, d := range b.dirs {
		n := q + d
		if b.color[n] != e || !b.atari(b.head[n]) || exempt(b, b.head[n]) {
			continue
		}
		if t := b.lastLiberty(b.head[n]); owner[t] == e && cannotFill(b, t, e) && savedInside(b, t, e, owner) {
			return true
		}
	}
	return false
}

// aroundChains returns the points next to the chains of colour c that touch
// q, each once, q excluded.
func (b *Board) aroundChains(q Loc, c Color) []Loc {
	b.markGen++
	gen := b.markGen
	b.mark[q] = gen
	var out []Loc
	for _, d := range b.dirs {
		n := q + d
		if b.color[n] != c {
			continue
		}
		for s := b.head[n]; ; {
			for _, d2 := range b.dirs {
				if e := s + d2; b.mark[e] != gen {
					b.mark[e] = gen
					out = append(out, e)
				}
			}
			s = b.next[s]
			if s == b.head[n] {
				break
			}
		}
	}
	return out
}

// chainLibs returns the liberties of the chain headed by h.
func chainLibs(b *Board, h Loc) []Loc {
	var out []Loc
	for s := h; ; {
		for _, d := range b.dirs {
			if q := s + d; b.color[q] == Empty && !slices.Contains(out, q) {
				out = append(out, q)
			}
		}
		s = b.next[s]
		if s == h {
			break
		}
	}
	return out
}

// forcesTeire reports whether a stone of c at q, keeping two liberties,
// would put a chain of the opponent in atari whose last liberty lies in
// the opponent's territory.
func forcesTeire(b *Board, q Loc, c Color, owner []Color, exempt func(*Board, Loc) bool) bool {
	if b.Check(q, c, false) != nil {
		return false
	}
	b.Play(q, c)
	defer b.Undo()
	if b.Liberties(q) < 2 {
		return false
	}
	return ataris(b, q, c, exempt, func(h Loc) bool { return owner[b.lastLiberty(h)] == c.Opponent() })
}

// amongDead reports whether the chain at l stands inside a dead enemy
// group: every point next to it is a dead enemy stone or an empty point of
// its owner's territory. Such a chain needs no save, and an enemy stone
// inside that would put it in atari needs no answer: if the dead stones
// captured it they would gain eye space, not life, and their stone on the
// last liberty would be one more prisoner, so its owner leaves it, and a
// referee counts the liberty as territory. A single stone (meijin37-Q12's
// D2, in atari among four dead stones) leaves a one-point eye and is left
// in every case. A larger chain is left while its owner could still fill
// its last liberty (honinbo77-P12's K14-K15, in atari among the dead stones
// on J15; honinbo77-Q12's R15-S15, which a stone joining the dead R14 would
// put in atari on T15); when the owner cannot, the dead stones' capture
// there is the only way they can go on, and the owner must approach them
// from outside first (approachDying, tengen45-P32). Before, the owner saved
// such a chain at once, as any chain in atari, and lost the point
// (docs/STRENGTH.md).
func amongDead(w *Board, l Loc, owner []Color, dead []bool) bool {
	if !insideOnly(w, l, owner, func(q Loc) bool { return dead[q] }) {
		return false
	}
	c := w.color[l]
	h := w.head[l]
	return w.next[l] == l || !w.atari(h) || !cannotFill(w, w.lastLiberty(h), c)
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
				canApproach(work, l, Black) || canApproach(work, l, White) ||
				fillableAfterConnecting(work, l, Black) || fillableAfterConnecting(work, l, White) ||
				work.ThrowInKills(l, Black) || work.ThrowInKills(l, White) {
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

// maxNakade is the largest space that a throw-in leaves the chain that
// takes it and that the thrower, moving next, still kills: any space of
// one to three points has a vital point, and one eye at most.
const maxNakade = 3

// ThrowInKills reports whether c's stone at the empty point l, a
// self-atari that captures nothing, kills the enemy chain that takes it:
// the enemy's stone on the last liberty of c's chain takes that chain
// alone, of at most maxNakade stones, and leaves the taking chain (of two
// stones or more) with liberties only on the points it took. c, to move,
// then plays the vital point of that space and the chain has one eye at
// most. A point that looks like seki because neither side can fill it is
// no seki point when such a throw-in exists: two chains that share their
// only two liberties, one of them of a single stone, are not a seki, for
// the stone's owner plays on a shared liberty, and the capture leaves the
// other a space of two points (judan59-17's upper left: White's A16
// against Black's 22 stones from A18 to H12, which share A15 and B16;
// White's B16 is taken on A15 and Black is left with the two points A16
// and B16, docs/STRENGTH.md).
func (b *Board) ThrowInKills(l Loc, c Color) bool {
	if b.color[l] != Empty || b.Check(l, c, false) != nil || b.WouldCapture(l, c) {
		return false
	}
	b.Play(l, c)
	defer b.Undo()
	h := b.head[l]
	if !b.atari(h) || b.ChainSize(l) > maxNakade {
		return false
	}
	var taken []Loc
	for s := h; ; {
		taken = append(taken, s)
		s = b.next[s]
		if s == h {
			break
		}
	}
	t := b.lastLiberty(h)
	e := c.Opponent()
	if t == 0 || b.Check(t, e, false) != nil {
		return false
	}
	n := b.Play(t, e)
	defer b.Undo()
	if n != len(taken) || b.ChainSize(t) < 2 {
		return false
	}
	for _, q := range chainLibs(b, b.head[t]) {
		if !slices.Contains(taken, q) {
			return false
		}
	}
	return true
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
				if r := q + d; b.color[r] == enemy && b.head[r] != h && b.Liberties(r) > 2 {
					inside = false
				}
			}
			if inside && (!cannotFill(b, q, c) || fillableAfterConnecting(b, q, c)) {
				return true
			}
		}
	}
	return false
}

// fillableAfterConnecting reports whether c can make the empty point q
// fillable by one move first: a liberty, inside c's own area (no enemy
// stone next to it), of one of c's chains next to q, which gives that chain
// the liberties a stone on q then needs. This is the move of preparation
// that a capturing race against a chain that looks like seki often asks
// for: the approach stone would otherwise join a short chain and be
// self-atari.
func fillableAfterConnecting(b *Board, q Loc, c Color) bool {
	var cands []Loc
	for _, e := range b.aroundChains(q, c) {
		if b.color[e] != Empty {
			continue
		}
		own := true
		for _, d := range b.dirs {
			if b.color[e+d] == c.Opponent() {
				own = false
			}
		}
		if own {
			cands = append(cands, e)
		}
	}
	for _, e := range cands {
		if b.Check(e, c, false) != nil {
			continue
		}
		b.Play(e, c)
		ok := !cannotFill(b, q, c)
		b.Undo()
		if ok {
			return true
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
