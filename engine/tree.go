package engine

import (
	"math"
	"sync"

	"tengen/goban"
)

// edge is a move from a node: its prior knowledge and its statistics. All
// fields are guarded by the mutex of the node that holds the edge.
type edge struct {
	move goban.Loc // PassLoc for a pass
	// prior is the move's share of the policy (the priors made into
	// probabilities), for analysis and for the weak levels.
	prior float32
	// illegal marks a move that turned out to be forbidden (superko) when
	// it was played in the tree.
	illegal bool
	// pn and pw are the prior knowledge as equivalent visits and wins.
	pn, pw float32
	// n and w are the visits and the wins for the player who makes the
	// move; rn and rw the same from AMAF (all-moves-as-first).
	n, w   float64
	rn, rw float64
	// score is the sum of Black's margins (after komi) of the simulations
	// through this edge.
	score float64
	// vl counts the simulations in flight through this edge (virtual
	// loss).
	vl    int32
	child *node
}

// node is a position in the tree. mu guards every field but color, which
// is set before the node is shared.
type node struct {
	mu    sync.Mutex
	color goban.Color // the player to move
	// expanded is set once edges holds the moves.
	expanded bool
	edges    []edge
	// n is the number of simulations that passed through the node.
	n float64
}

// searchParams are the tunable constants of the tree policy.
type searchParams struct {
	// explore is the UCB exploration constant; 0 by default, see the
	// package documentation.
	explore float64
	// equivRave is the number of visits at which a move's own statistics
	// and its AMAF statistics weigh the same (MC-RAVE's β schedule:
	// β = rn / (rn + n + n·rn/equivRave)).
	equivRave float64
	// expandAt is the number of visits of an edge before its child node is
	// created.
	expandAt float64
	// virtualLoss is how many lost visits a simulation in flight counts
	// as.
	virtualLoss float64
	// priorWeight scales the equivalent visits of the priors.
	priorWeight float32
	// localReply is the percentage of playout moves for which the local
	// heuristics around the last move are tried before a random move.
	localReply int
	// fillBoard is how many random points a playout move tries for an
	// empty 3×3 area before it plays a random move (fillBoard).
	fillBoard int
	// evenPrior is the prior every move starts with, in equivalent
	// visits, half of them won, before the features add to it. The
	// smaller it is, the sooner the AMAF statistics take over from it.
	evenPrior float32
	// evenPriorLarge replaces evenPrior on boards larger than 13×13
	// (forBoard): the smaller prior that won on 9×9 lost on 19×19
	// (docs/STRENGTH.md), where AMAF statistics are noisier.
	evenPriorLarge float32
}

var defaultParams = searchParams{explore: 0, equivRave: 3000, expandAt: 2, virtualLoss: 3, localReply: 90, priorWeight: 1, fillBoard: 4, evenPrior: 5, evenPriorLarge: 10}

// forBoard returns the parameters for a board of w×h points.
func (p searchParams) forBoard(w, h int) searchParams {
	if w*h > 13*13 {
		p.evenPrior = p.evenPriorLarge
	}
	return p
}

// selectEdge returns the index of the edge the tree policy follows from n,
// or -1 when there is none. n.mu must be held.
func (n *node) selectEdge(p *searchParams, noPass bool) int {
	best, bestV := -1, math.Inf(-1)
	// The exploration term costs a logarithm and a square root per edge,
	// and its constant is 0 by default.
	explore := p.explore > 0
	logN := 0.0
	if explore {
		logN = math.Log(n.n + 1)
	}
	for i := range n.edges {
		e := &n.edges[i]
		if e.illegal || (noPass && e.move == goban.PassLoc) {
			continue
		}
		vn := e.n + float64(e.vl)*p.virtualLoss
		N := vn + float64(e.pn)
		W := e.w + float64(e.pw)
		q := 0.5
		if N > 0 {
			q = W / N
		}
		rn := e.rn + float64(e.pn)
		if rn > 0 {
			rq := (e.rw + float64(e.pw)) / rn
			beta := rn / (rn + vn + vn*rn/p.equivRave)
			q = (1-beta)*q + beta*rq
		}
		v := q
		if explore {
			v += p.explore * math.Sqrt(logN/(N+1))
		}
		if v > bestV {
			best, bestV = i, v
		}
	}
	return best
}

// winrate returns the edge's win rate from its own visits, or 0.5 before
// any.
func (e *edge) winrate() float64 {
	if e.n == 0 {
		return 0.5
	}
	return e.w / e.n
}

// expand fills n.edges with the moves of the player to move in g, with
// priors. With full set, every move is checked with g.Legal (superko
// included); otherwise captures are checked with g.Legal and other moves
// with the board's simple-ko check, because a move that captures nothing
// can repeat a position only in rare long cycles (the tree marks such a
// move illegal when it is played). Own one-point eyes are left out unless
// nothing else is legal. A pass is included when it is legal. p scales
// the priors; in, when not nil, is reused for the prior knowledge. n.mu
// must be held.
func expand(n *node, g *goban.Game, geo *geometry, full bool, p *searchParams, in *priorInput) {
	b := g.Board()
	c := g.ToMove()
	last := goban.PassLoc
	if m, ok := g.LastMove(); ok && m.Kind == goban.Play {
		last = b.Loc(m.Point)
	}
	if in == nil {
		in = &priorInput{}
	}
	in.reset(b, geo, c, last)
	in.firstCapture = g.Rules().FirstCaptureWins
	in.even = p.evenPrior
	superko := g.Rules().Ko != goban.SimpleKo
	edges := make([]edge, 0, len(b.Empties())+1)
	var eyes []goban.Loc
	for _, l := range geo.locs {
		if b.ColorAt(l) != goban.Empty {
			continue
		}
		if b.Check(l, c, g.Rules().MultiStoneSuicide) != nil {
			continue
		}
		if (full || (superko && b.WouldCapture(l, c))) && g.Legal(goban.PlayAt(c, b.Point(l))) != nil {
			continue
		}
		if b.IsEye(l, c) {
			eyes = append(eyes, l)
			continue
		}
		pn, pw := in.prior(l)
		edges = append(edges, edge{move: l, pn: pn * p.priorWeight, pw: pw * p.priorWeight})
	}
	if len(edges) == 0 {
		for _, l := range eyes {
			edges = append(edges, edge{move: l, pn: 10, pw: 2})
		}
	}
	if g.Legal(goban.PassMove(c)) == nil {
		// A pass is worth little while there is a lot to play for, and the
		// search finds out when it is right.
		pn, pw := float32(10), float32(1)
		if g.ConsecutivePasses() > 0 {
			pw = 5
		}
		edges = append(edges, edge{move: goban.PassLoc, pn: pn, pw: pw})
	}
	// The policy: a softmax of the prior values.
	var sum float64
	for i := range edges {
		e := &edges[i]
		v := math.Exp(float64(e.pw/e.pn) * 10)
		e.prior = float32(v)
		sum += v
	}
	for i := range edges {
		edges[i].prior = float32(float64(edges[i].prior) / sum)
	}
	n.color = c
	n.edges = edges
	n.expanded = true
}
