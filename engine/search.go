package engine

import (
	"context"
	"math"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"tengen/goban"
)

// searcher is one search: the tree below root and the workers that grow it.
type searcher struct {
	params searchParams
	rules  goban.Ruleset
	// komi is what Black's area must exceed to win: the game's komi plus
	// White's handicap compensation (area rules) or the handicap stones
	// (territory rules, which the playouts count as area).
	komi float64
	// dynKomi is the part of komi that DynamicKomi added.
	dynKomi float64
	geo     *geometry
	root    *node
	// game is the root position; workers clone it and do not change it.
	game *goban.Game
	// noPass keeps the pass out of the root's choices (cleanup).
	noPass bool

	playouts atomic.Int64
	nodes    atomic.Int64
	maxNodes int64
	stop     atomic.Bool

	workers []*worker
}

// worker is the per-goroutine state of a search.
type worker struct {
	s     *searcher
	game  *goban.Game
	board *goban.Board
	geo   *geometry
	rng   *goban.Rand
	cand  []goban.Loc
	path  []pathStep
	// prior is reused by every expansion the worker makes.
	prior priorInput

	// AMAF: firstIdx[l] is the index in the simulation's move sequence at
	// which l was first played, by firstColor[l], valid when firstGen[l]
	// equals gen. seq counts the moves (passes included).
	firstGen   []uint32
	firstIdx   []int32
	firstColor []goban.Color
	gen        uint32
	seq        int32

	// ownMu guards own and ownN, which the analysis reads while the
	// worker adds to them: the sum of each point's owner (+1 Black, −1
	// White) over the worker's playouts, and their number.
	ownMu sync.Mutex
	own   []int32
	ownN  int64

	// finals, when not nil, collects each playout's final owner of every
	// point (len(geo.locs) entries a playout, in playout order). Only the
	// scoring playouts set it, and only their single worker touches it.
	finals []int8
}

type pathStep struct {
	n *node
	i int
}

// effectiveKomi returns the margin Black's area must exceed in g.
func effectiveKomi(g *goban.Game) float64 {
	k := g.Komi()
	h, _ := g.Handicap()
	r := g.Rules()
	if r.Scoring == goban.AreaScoring {
		return k + r.HandicapBonus.Points(h)
	}
	// Territory and area margins differ by the stones Black placed more
	// than White, which in a handicap game is the handicap.
	if h >= 2 {
		return k + float64(h)
	}
	return k
}

func newSearcher(g *goban.Game, root *node, threads int, seed uint64, p searchParams, maxNodes int64) *searcher {
	s := &searcher{params: p.forBoard(g.Width(), g.Height()), rules: g.Rules(), komi: effectiveKomi(g), geo: newGeometry(g.Board()), root: root, game: g, maxNodes: maxNodes}
	if s.root == nil {
		s.root = &node{color: g.ToMove()}
	}
	s.root.mu.Lock()
	if !s.root.expanded {
		expand(s.root, g, s.geo, true, &s.params, nil)
	} else {
		// A reused subtree was expanded with the cheaper legality check;
		// the root's moves must all be legal.
		for i := range s.root.edges {
			e := &s.root.edges[i]
			m := goban.PassMove(s.root.color)
			if e.move != goban.PassLoc {
				m = goban.PlayAt(s.root.color, g.Board().Point(e.move))
			}
			if g.Legal(m) != nil {
				e.illegal = true
			}
		}
	}
	s.root.mu.Unlock()
	n := g.Board().NumLocs()
	for i := 0; i < max(threads, 1); i++ {
		w := &worker{
			s: s, game: g.Clone(), board: g.Board().Clone(), geo: s.geo,
			rng:      goban.NewRand(seed + uint64(i)*0x9E3779B97F4A7C15),
			firstGen: make([]uint32, n), firstIdx: make([]int32, n), firstColor: make([]goban.Color, n),
			own: make([]int32, len(s.geo.locs)),
		}
		s.workers = append(s.workers, w)
	}
	return s
}

// limits say when a search stops.
type limits struct {
	// playouts stops the search after that many simulations; 0 for none.
	playouts int64
	// target is the normal thinking time, max the most when the search is
	// unsettled; zero for none (then playouts or ctx must stop it).
	target, max time.Duration
	// interval and report: report is called with an analysis snapshot
	// every interval.
	interval time.Duration
	report   func(Info)
	// ponder keeps searching until ctx is done, ignoring early stops.
	ponder bool
	// deadlineOnly stops a timed search only at max: no early stop and no
	// stop at target (fixed playouts under a time limit).
	deadlineOnly bool
	// start is when the move's clock started, so that the time spent
	// before the search counts; zero means the start of the search.
	start time.Time
}

// run searches until a limit is reached or ctx is done.
func (s *searcher) run(ctx context.Context, lim limits) {
	start := lim.start
	if start.IsZero() {
		start = time.Now()
	}
	var wg sync.WaitGroup
	for _, w := range s.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !s.stop.Load() {
				w.simulate()
				if n := s.playouts.Add(1); lim.playouts > 0 && n >= lim.playouts {
					s.stop.Store(true)
				}
			}
		}()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	if lim.target == 0 && lim.report == nil && !lim.ponder {
		// Fixed playouts: nothing to watch but ctx.
		select {
		case <-done:
		case <-ctx.Done():
			s.stop.Store(true)
			<-done
		}
		return
	}
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	lastReport := start
	for {
		select {
		case <-done:
			if lim.report != nil {
				lim.report(s.info(time.Since(start)))
			}
			return
		case <-ctx.Done():
			s.stop.Store(true)
		case now := <-tick.C:
			el := now.Sub(start)
			if lim.report != nil && lim.interval > 0 && now.Sub(lastReport) >= lim.interval {
				lastReport = now
				lim.report(s.info(el))
			}
			if lim.target > 0 && !lim.ponder && s.timeUp(el, lim) {
				s.stop.Store(true)
			}
		}
	}
}

// timeUp decides whether a timed search should stop after el.
func (s *searcher) timeUp(el time.Duration, lim limits) bool {
	if el >= lim.max {
		return true
	}
	if lim.deadlineOnly {
		return false
	}
	best, second := s.topTwo()
	if el >= lim.target {
		// Go on towards max only while the most visited move is not the
		// one that wins most and a rival is close in visits.
		unsettled := second.n >= 0.5*best.n && second.winrate() > best.winrate()+0.02
		return !unsettled
	}
	// Stop early when the rest of the target time cannot change the
	// choice.
	if el > lim.target/8 {
		rate := float64(s.playouts.Load()) / el.Seconds()
		left := rate * (lim.target - el).Seconds()
		if best.n-second.n > left {
			return true
		}
	}
	return false
}

// topTwo returns copies of the two most visited root edges.
func (s *searcher) topTwo() (best, second edge) {
	r := s.root
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, e := range r.edges {
		if e.illegal {
			continue
		}
		if e.n > best.n {
			best, second = e, best
		} else if e.n > second.n {
			second = e
		}
	}
	best.child, second.child = nil, nil
	return best, second
}

// recordMove notes a move of the simulation for AMAF; a pass only counts.
func (w *worker) recordMove(l goban.Loc, c goban.Color) {
	if l != goban.PassLoc && w.firstGen[l] != w.gen {
		w.firstGen[l] = w.gen
		w.firstIdx[l] = w.seq
		w.firstColor[l] = c
	}
	w.seq++
}

// simulate runs one simulation: down the tree with the tree policy,
// expanding where needed, a playout from the leaf, and the result back up.
func (w *worker) simulate() {
	s := w.s
	g := w.game
	w.gen++
	w.seq = 0
	w.path = w.path[:0]
	n := s.root
	var margin, black float64 // Black's margin and Black's result (1, ½, 0)
	terminal := false
	for {
		n.mu.Lock()
		if !n.expanded {
			expand(n, g, w.geo, false, &s.params, &w.prior)
		}
		color := n.color
		i := n.selectEdge(&s.params, n == s.root && s.noPass)
		if i < 0 {
			n.mu.Unlock()
			break
		}
		e := &n.edges[i]
		e.vl++
		child := e.child
		if child == nil && e.n >= s.params.expandAt && s.nodes.Load() < s.maxNodes {
			child = &node{color: color.Opponent()}
			e.child = child
			s.nodes.Add(1)
		}
		mv := e.move
		n.mu.Unlock()
		m := goban.PassMove(color)
		if mv != goban.PassLoc {
			m = goban.PlayAt(color, g.Board().Point(mv))
		}
		if err := g.Play(m); err != nil {
			// Superko found a move the cheap check let through.
			n.mu.Lock()
			e.illegal = true
			e.vl--
			n.mu.Unlock()
			w.unwind(true)
			return
		}
		w.path = append(w.path, pathStep{n, i})
		w.recordMove(mv, color)
		if g.Ended() {
			terminal = true
			margin, black = w.terminalResult()
			break
		}
		if child == nil {
			break
		}
		n = child
	}
	if !terminal {
		w.board.CopyFrom(g.Board())
		w.board.ClearUndo()
		last := goban.PassLoc
		if m, ok := g.LastMove(); ok && m.Kind == goban.Play {
			last = w.board.Loc(m.Point)
		}
		score, winner := w.playout(g.ToMove(), last)
		margin, black = w.result(score, winner)
	}
	w.backup(margin, black)
	w.unwind(false)
}

// result turns a playout's area count or Atari-Go winner into Black's
// margin and result.
func (w *worker) result(score int, winner goban.Color) (margin, black float64) {
	switch winner {
	case goban.Black:
		return 1, 1
	case goban.White:
		return -1, 0
	}
	margin = float64(score) - w.s.komi
	switch {
	case margin > 0:
		return margin, 1
	case margin < 0:
		return margin, 0
	}
	return 0, 0.5
}

// terminalResult scores a game that ended inside the tree.
func (w *worker) terminalResult() (margin, black float64) {
	r := w.game.Result()
	switch r.Reason {
	case goban.EndPasses:
		w.board.CopyFrom(w.game.Board())
		return w.result(w.score(), goban.Empty)
	case goban.EndCapture, goban.EndResign:
		return w.result(0, r.Winner)
	}
	return 0, 0.5 // repetition: no result or a tie
}

// backup adds the simulation's result to every edge on the path and the
// AMAF statistics to their siblings, and takes back the virtual losses.
func (w *worker) backup(margin, black float64) {
	for d := len(w.path) - 1; d >= 0; d-- {
		st := w.path[d]
		n := st.n
		n.mu.Lock()
		v := black
		if n.color == goban.White {
			v = 1 - black
		}
		e := &n.edges[st.i]
		e.vl--
		e.n++
		e.w += v
		e.score += margin
		n.n++
		for j := range n.edges {
			ej := &n.edges[j]
			l := ej.move
			if l == goban.PassLoc || w.firstGen[l] != w.gen {
				continue
			}
			if w.firstIdx[l] >= int32(d) && w.firstColor[l] == n.color {
				ej.rn++
				ej.rw += v
			}
		}
		n.mu.Unlock()
	}
}

// unwind takes the simulation's moves back from the worker's game; with
// abort it also removes the virtual losses of the path.
func (w *worker) unwind(abort bool) {
	for d := len(w.path) - 1; d >= 0; d-- {
		if abort {
			st := w.path[d]
			st.n.mu.Lock()
			st.n.edges[st.i].vl--
			st.n.mu.Unlock()
		}
		if err := w.game.Undo(); err != nil {
			panic("engine: cannot undo a tree move: " + err.Error())
		}
	}
	w.path = w.path[:0]
}

// ownership returns the average owner of each point over the search's
// playouts, +1 for Black and −1 for White, or nil before any playout.
func (s *searcher) ownership() []float64 {
	own := make([]float64, len(s.geo.locs))
	var n int64
	for _, w := range s.workers {
		w.ownMu.Lock()
		for i, v := range w.own {
			own[i] += float64(v)
		}
		n += w.ownN
		w.ownMu.Unlock()
	}
	if n == 0 {
		return nil
	}
	for i := range own {
		own[i] /= float64(n)
	}
	return own
}

// rootStats is a copy of a root edge with what analysis needs.
type rootStats struct {
	move                goban.Loc
	n, w, score, rn, rw float64
	prior               float64
	illegal             bool
	child               *node
}

func (s *searcher) rootEdges() []rootStats {
	r := s.root
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]rootStats, 0, len(r.edges))
	for _, e := range r.edges {
		out = append(out, rootStats{move: e.move, n: e.n, w: e.w, score: e.score, rn: e.rn, rw: e.rw,
			prior: float64(e.prior), illegal: e.illegal, child: e.child})
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].n != out[j].n {
			return out[i].n > out[j].n
		}
		return out[i].prior > out[j].prior
	})
	return out
}

// pv follows the most visited edges from n, up to max moves.
func pv(n *node, maxLen int) []goban.Loc {
	var out []goban.Loc
	for n != nil && len(out) < maxLen {
		n.mu.Lock()
		best := -1
		for i := range n.edges {
			if !n.edges[i].illegal && n.edges[i].n > 0 && (best < 0 || n.edges[i].n > n.edges[best].n) {
				best = i
			}
		}
		if best < 0 {
			n.mu.Unlock()
			break
		}
		out = append(out, n.edges[best].move)
		next := n.edges[best].child
		n.mu.Unlock()
		n = next
	}
	return out
}

// lcb returns a lower confidence bound of a win rate from n visits.
func lcb(wr, n float64) float64 {
	if n <= 0 {
		return 0
	}
	return wr - 1.96*math.Sqrt(max(wr*(1-wr), 0.01)/n)
}
