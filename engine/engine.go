package engine

import (
	"context"
	"errors"
	"math"
	"runtime"
	"slices"
	"sync"
	"time"
	"unsafe"

	"tengen/clock"
	"tengen/goban"
)

// Options configure an Engine. The zero value plays at full strength with
// one goroutine per CPU and the clock's time management.
type Options struct {
	// Threads is the number of search goroutines; 0 means one per CPU.
	Threads int
	// Playouts, when positive, fixes the number of simulations per move
	// (at LevelFull) instead of the time management. With Threads 1 and a
	// Seed the engine is then deterministic.
	Playouts int
	// MoveTime is the thinking time per move when the game has no clock;
	// 0 means DefaultMoveTime.
	MoveTime time.Duration
	// MaxTime, if positive, caps the thinking time of every move, also at
	// the levels (and with the Playouts option) that search a fixed number
	// of playouts.
	MaxTime time.Duration
	// Overhead is the per-move time the clock loses outside the engine
	// (GTP round trip, network); 0 means clock.DefaultOverhead.
	Overhead time.Duration
	// Seed seeds the playouts; 0 takes one from the clock.
	Seed uint64
	// Level is the playing strength; 0 means LevelFull.
	Level Level
	// ResignThreshold is the win rate below which the engine resigns; 0
	// means DefaultResignThreshold and a negative value never resigns.
	ResignThreshold float64
	// NoTreeReuse starts every move with a fresh tree.
	NoTreeReuse bool
	// MaxNodes caps the tree's size; 0 means as many nodes as fit in
	// about 1 GB (some 150,000 on 9×9, 35,000 on 19×19, where a node
	// holds a few hundred moves).
	MaxNodes int
	// ScoringPlayouts is the number of playouts DeadStones plays; 0 means
	// 1000.
	ScoringPlayouts int
	// NoDynamicKomi turns off the dynamic komi of handicap games (see
	// DynamicKomi).
	NoDynamicKomi bool
}

// DefaultResignThreshold is the win rate below which the engine resigns
// unless Options say otherwise.
const DefaultResignThreshold = 0.1

// DefaultMoveTime is the thinking time per move in untimed games.
const DefaultMoveTime = 2 * time.Second

// Engine is the Monte-Carlo tree search player; package gtpengine serves
// it over GTP. Its methods may be called from several goroutines; searches
// run one at a time.
type Engine struct {
	// opts is set by New and never changes.
	opts Options
	// params are the search constants; tests change them.
	params searchParams

	// mu serialises searches and guards the fields below.
	mu    sync.Mutex
	calls uint64
	// tree is the tree kept from the last search for reuse: its root is
	// the position after treeMoves were played from the position whose
	// stones hash to treeStart (with the same size, rules and komi,
	// recorded in treeKey).
	tree      *node
	treeMoves []goban.Move
	treeStart uint64
	treeKey   treeKey
	// treeDyn is the dynamic komi the kept tree was searched with.
	treeDyn float64
	// own is the engine's own count of each colour's clock (indexed by
	// goban.Color) for requests that bring a time control but no clock
	// state: every move is charged to the mover's clock by the control's
	// rules, so a byo-yomi period is kept and not spent over several
	// moves. ownAt is the move number of the last search, to notice a new
	// game; ownTC the control the count belongs to.
	own   [3]*clock.State
	ownAt int
	ownTC clock.TimeControl
	// lastOwn is the ownership of the last search and lastHash the hash of
	// its root position.
	lastOwn  []float64
	lastHash uint64
}

type treeKey struct {
	w, h     int
	komi     float64
	rules    string
	handicap int
}

// New returns an engine with the given options.
func New(opts Options) *Engine {
	if opts.Threads <= 0 {
		opts.Threads = runtime.NumCPU()
	}
	if opts.Seed == 0 {
		opts.Seed = uint64(time.Now().UnixNano())
	}
	if opts.ResignThreshold == 0 {
		opts.ResignThreshold = DefaultResignThreshold
	}
	if opts.ScoringPlayouts <= 0 {
		opts.ScoringPlayouts = 1000
	}
	if opts.MoveTime <= 0 {
		opts.MoveTime = DefaultMoveTime
	}
	params := defaultParams
	if opts.Level.Spec().Level != LevelFull {
		// The levels' ranks were measured with this prior; the smaller
		// one of full strength came later (docs/STRENGTH.md).
		params.evenPrior, params.evenPriorLarge = levelEvenPrior, levelEvenPrior
	}
	return &Engine{opts: opts, params: params}
}

// levelEvenPrior is the even prior (searchParams.evenPrior) of the levels
// below full strength.
const levelEvenPrior = 10

// Name returns "mcts" and the level, as GTP's name command shows it.
func (e *Engine) Name() string {
	sp := e.opts.Level.Spec()
	if sp.Level == LevelFull {
		return "mcts"
	}
	return "mcts " + sp.Name
}

// Request asks a computer player for a move. It is the one request shape
// of Tengen's players: the engine answers it, the server's bots get it
// (play.BotRequest embeds it and adds what only the server knows), and the
// GTP adapter (package gtpengine) fills it in from what a controller said.
// It lives here because it joins a goban position with clock state:
// neither leaf package (goban, clock) may import the other, and package gtp
// may not import the engine, so the protocol keeps its own record of what
// the controller said (gtp.MoveRequest) and gtpengine converts it once.
type Request struct {
	// Game is the position; Move does not change it.
	Game *goban.Game
	// Color is the player to move.
	Color goban.Color
	// Time is the game's time control, Kind clock.None without a clock.
	// State and OpponentState are the clocks of Color and of its
	// opponent, or nil when unknown; without State the engine charges
	// its own thinking time to a fresh clock.
	Time          clock.TimeControl
	State         *clock.State
	OpponentState *clock.State
	// Cleanup asks the engine not to pass while it thinks dead enemy
	// stones remain on the board (kgs-genmove_cleanup).
	Cleanup bool
	// Analyze, if not nil, receives a snapshot of the search every
	// Interval and once at the end.
	Analyze  func(Info)
	Interval time.Duration
}

// Move searches the position of req.Game for req.Color and returns its
// move: a legal play, a pass or a resignation. req.Game is not changed.
func (e *Engine) Move(ctx context.Context, req Request) (goban.Move, error) {
	g := req.Game
	if g == nil {
		return goban.Move{}, errors.New("engine: no position")
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	c := req.Color
	if c != goban.Black && c != goban.White {
		return goban.Move{}, errors.New("engine: no colour to move")
	}
	if g.Ended() {
		return goban.Move{}, errors.New("engine: the game is over")
	}
	start := time.Now()
	if g.ToMove() != c {
		g = g.Clone()
		g.SetToMove(c)
	}
	if g.MoveNumber() < e.ownAt || req.Time != e.ownTC {
		e.own, e.ownTC = [3]*clock.State{}, req.Time
	}
	e.ownAt = g.MoveNumber()
	spec := e.opts.Level.Spec()
	lim := e.limitsFor(g, req, spec)
	dyn := 0.0
	if !e.opts.NoDynamicKomi {
		dyn = DynamicKomi(g)
	}
	s := e.newSearch(g, req.Cleanup, dyn)
	lim.report, lim.interval, lim.start = req.Analyze, req.Interval, start
	s.run(ctx, lim)
	m := e.choose(g, req, s, spec)
	e.keepTree(g, s, m)
	if req.Time.Kind != clock.None && req.State == nil {
		st := e.ownState(c)
		*st = req.Time.Play(*st, time.Since(start))
	}
	return m, nil
}

// Analyze searches the position of g for the player to move until ctx is
// done, calling report every interval with a snapshot (lz-analyze and
// kata-analyze). The tree is kept for the next move.
func (e *Engine) Analyze(ctx context.Context, g *goban.Game, interval time.Duration, report func(Info)) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if g.Ended() {
		return
	}
	s := e.newSearch(g, false, 0)
	s.run(ctx, limits{ponder: true, interval: interval, report: report})
	e.keepTree(g, s, goban.Move{})
}

// AnalyzePlayouts searches the position of g for the player to move with
// the given number of simulations and returns the snapshot at the end
// (the server's analysis of a game, position by position). It returns
// ctx's error when ctx ends first: a cut-short search is not the analysis
// that was asked for. The tree is kept for the next position, as Analyze
// keeps it.
func (e *Engine) AnalyzePlayouts(ctx context.Context, g *goban.Game, playouts int) (Info, error) {
	if g.Ended() {
		return Info{}, errors.New("engine: the game is over")
	}
	if playouts < 1 {
		return Info{}, errors.New("engine: no playouts to analyse with")
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	start := time.Now()
	s := e.newSearch(g, false, 0)
	s.run(ctx, limits{playouts: int64(playouts)})
	if err := ctx.Err(); err != nil {
		return Info{}, err
	}
	e.keepTree(g, s, goban.Move{})
	return s.info(time.Since(start)), nil
}

// newSearch prepares a search of g with dyn points of dynamic komi, reusing
// the kept tree when g continues the game it was built for. e.mu must be
// held.
func (e *Engine) newSearch(g *goban.Game, cleanup bool, dyn float64) *searcher {
	root := e.reuse(g, dyn)
	e.calls++
	maxNodes := int64(e.opts.MaxNodes)
	if maxNodes <= 0 {
		maxNodes = treeMemory / (edgeBytes * int64(g.Width()*g.Height()+1))
	}
	s := newSearcher(g, root, e.opts.Threads, e.opts.Seed+e.calls*0x632BE59BD9B4E019, e.params, maxNodes)
	s.noPass = cleanup
	s.dynKomi = dyn
	s.komi += dyn
	e.treeDyn = dyn
	return s
}

// treeMemory is the memory the tree may use by default, and edgeBytes the
// size of an edge, which dominates a node's size.
const (
	treeMemory = 1 << 30
	edgeBytes  = int64(unsafe.Sizeof(edge{}))
)

func keyOf(g *goban.Game) treeKey {
	h, _ := g.Handicap()
	return treeKey{w: g.Width(), h: g.Height(), komi: g.Komi(), rules: g.Rules().String(), handicap: h}
}

// reuse returns the subtree of the kept tree for the position of g, or nil.
// dyn is the dynamic komi of the coming search.
func (e *Engine) reuse(g *goban.Game, dyn float64) *node {
	root, moves := e.tree, e.treeMoves
	e.tree, e.treeMoves = nil, nil
	// A tree searched with another komi (a dynamic komi a point or more
	// away) has win rates for another game.
	if e.opts.NoTreeReuse || root == nil || keyOf(g) != e.treeKey || math.Abs(dyn-e.treeDyn) >= 1 {
		return nil
	}
	gm := g.Moves()
	if len(gm) < len(moves) || len(gm)-len(moves) > 8 {
		return nil
	}
	for i, m := range moves {
		if gm[i] != m {
			return nil
		}
	}
	// The moves agree; check that they started from the same stones.
	back := g.Clone()
	for range len(gm) - len(moves) {
		if back.Undo() != nil {
			return nil
		}
	}
	for range len(moves) {
		if back.Undo() != nil {
			return nil
		}
	}
	if back.Board().Hash() != e.treeStart {
		return nil
	}
	b := g.Board()
	n := root
	for _, m := range gm[len(moves):] {
		if m.Kind == goban.Resign {
			return nil
		}
		l := goban.PassLoc
		if m.Kind == goban.Play {
			l = b.Loc(m.Point)
		}
		n.mu.Lock()
		var next *node
		if n.color == m.Color {
			for i := range n.edges {
				if n.edges[i].move == l {
					next = n.edges[i].child
				}
			}
		}
		n.mu.Unlock()
		if next == nil {
			return nil
		}
		n = next
	}
	if n.color != g.ToMove() {
		return nil
	}
	return n
}

// keepTree stores the tree after a search for the next move; m is the move
// chosen (the zero Move after analysis, which keeps the root).
func (e *Engine) keepTree(g *goban.Game, s *searcher, m goban.Move) {
	e.lastOwn, e.lastHash = s.ownership(), positionHash(g)
	if e.opts.NoTreeReuse || s.nodes.Load() >= s.maxNodes {
		return
	}
	back := g.Clone()
	for back.Undo() == nil {
	}
	e.treeStart = back.Board().Hash()
	e.treeKey = keyOf(g)
	e.tree = s.root
	e.treeMoves = append([]goban.Move(nil), g.Moves()...)
}

func positionHash(g *goban.Game) uint64 {
	h := g.Board().Hash()
	if g.ToMove() == goban.White {
		h = ^h
	}
	return h
}

// limitsFor decides how long or how many simulations to search. e.mu must
// be held.
func (e *Engine) limitsFor(g *goban.Game, req Request, spec LevelSpec) limits {
	var lim limits
	playouts := spec.PlayoutsFor(g.Width() * g.Height())
	if spec.Level == LevelFull {
		playouts = e.opts.Playouts
	}
	tc := req.Time
	if tc.Kind == clock.None {
		if playouts > 0 {
			lim.playouts = int64(playouts)
			if e.opts.MaxTime > 0 {
				// MaxTime is a deadline for the fixed playouts too.
				lim.target, lim.max, lim.deadlineOnly = e.opts.MaxTime, e.opts.MaxTime, true
			}
			return lim
		}
		t := e.opts.MoveTime
		if e.opts.MaxTime > 0 {
			t = min(t, e.opts.MaxTime)
		}
		// Without a clock, time saved on one move is not there for the
		// next, so the search uses all of it: the extra simulations go to
		// the chosen move's subtree, which the next search reuses.
		lim.target, lim.max, lim.deadlineOnly = t, t, true
		return lim
	}
	var st clock.State
	if req.State != nil {
		st = *req.State
	} else {
		c := req.Color
		if c == goban.Empty {
			c = g.ToMove()
		}
		st = *e.ownState(c)
	}
	a := clock.Budget(tc, st, clock.BudgetOptions{EmptyPoints: len(g.Board().Empties()), Overhead: e.opts.Overhead, Cap: e.opts.MaxTime})
	lim.target, lim.max = a.Target, a.Max
	if a.Unlimited && a.Target == 0 {
		// No time is banked here either (see above).
		lim.target, lim.max, lim.deadlineOnly = e.opts.MoveTime, e.opts.MoveTime, true
	}
	if lim.target <= 0 {
		// No time to think: one simulation, which leaves the choice to
		// the priors.
		return limits{playouts: 1}
	}
	if playouts > 0 {
		// The clock only bounds the fixed playouts: stopping early would
		// change the visits that the weak levels sample from.
		lim.playouts, lim.deadlineOnly = int64(playouts), true
	}
	return lim
}

// minResignPlayouts is the number of simulations the engine wants before it
// believes a hopeless win rate.
const minResignPlayouts = 500

// choose turns the search into a move: the most visited move (or a sample
// at the weak levels), resignation when hopeless, and the pass rules.
func (e *Engine) choose(g *goban.Game, req Request, s *searcher, spec LevelSpec) goban.Move {
	c := req.Color
	b := g.Board()
	pass := goban.PassMove(c)
	passLegal := g.Legal(pass) == nil
	all := s.rootEdges()
	var cands []rootStats
	for _, r := range all {
		if !r.illegal {
			cands = append(cands, r)
		}
	}
	if len(cands) == 0 {
		if passLegal {
			return pass
		}
		return goban.ResignMove(c)
	}
	own := s.ownership()
	sign := 1.0
	if c == goban.White {
		sign = -1
	}
	toMove := func(r rootStats) goban.Move {
		if r.move == goban.PassLoc {
			return pass
		}
		return goban.PlayAt(c, b.Point(r.move))
	}
	best := cands[0]
	if spec.Temperature > 0 {
		best = e.sample(cands, spec)
	}
	// Resign when hopeless, but not in the opening, and not on few
	// simulations.
	// With dynamic komi the win rate of the side that is ahead (Black)
	// understates its chances, so Black then never resigns.
	if e.opts.ResignThreshold > 0 && !(s.dynKomi > 0 && c == goban.Black) && s.playouts.Load() >= minResignPlayouts && best.n >= 100 &&
		g.MoveNumber() >= len(s.geo.locs)/4 && best.w/best.n < e.opts.ResignThreshold {
		return goban.ResignMove(c)
	}
	oppPassed := false
	if m, ok := g.LastMove(); ok && m.Kind == goban.Pass && m.Color != c {
		oppPassed = true
	}
	firstNonPass := func() (rootStats, bool) {
		for _, r := range cands {
			if r.move != goban.PassLoc {
				return r, true
			}
		}
		return rootStats{}, false
	}
	if req.Cleanup {
		if r, ok := e.cleanupMove(b, s, cands, deadFromOwnership(b, s.geo, own, nil, c), c); ok {
			return toMove(r)
		}
		// No dead enemy stone is left: play as in genmove.
	}
	if !s.rules.FirstCaptureWins && passLegal && oppPassed {
		dead := deadFromOwnership(b, s.geo, own, nil, c)
		if sc, err := g.Score(dead); err == nil && sc.Result.Winner == c {
			return pass
		}
	}
	var terr []goban.Color
	if best.move != goban.PassLoc && own != nil && s.rules.Scoring != goban.AreaScoring && oppPassed {
		// Whole regions count as territory only at the end: in the
		// middle game an invasion is a move like any other. They come
		// from the scoring playouts, as the dead stones do, not from the
		// search's: in a hopeless position the search's lines are
		// desperate invasions that make the loser's own area look open.
		// Only a move needs them: a pass is never pointless.
		endOwn, _, _ := playoutOwnership(b, g.Rules(), e.opts.ScoringPlayouts, 1, false)
		terr = territory(b, s.geo, endOwn)
	}
	if best.move != goban.PassLoc && own != nil && s.rules.Scoring != goban.AreaScoring && pointless(b, s.geo, own, terr, best.move, sign) {
		// Under territory rules a move inside settled territory costs a
		// point: take a useful move that is nearly as good, or pass.
		wr := best.w / max(best.n, 1)
		found := false
		for _, r := range cands {
			if r.move != goban.PassLoc && r.n > 0 && r.w/r.n >= wr-0.03 && !pointless(b, s.geo, own, terr, r.move, sign) {
				best, found = r, true
				break
			}
		}
		if !found && passLegal {
			return pass
		}
	}
	if best.move == goban.PassLoc && !passLegal {
		if r, ok := firstNonPass(); ok {
			best = r
		}
	}
	return toMove(best)
}

// cleanupMove chooses a move against the dead enemy stones for
// kgs-genmove_cleanup: among the moves nearly as good as the best, one that
// captures a dead chain or takes a liberty from one (fewest liberties
// first). The search alone does not care, since area scoring counts a dead
// stone the same whether it is captured or not. ok is false when no dead
// enemy stone is left.
func (e *Engine) cleanupMove(b *goban.Board, s *searcher, cands []rootStats, dead []goban.Point, c goban.Color) (rootStats, bool) {
	// libsOf[l] is the fewest liberties of a dead enemy chain next to l.
	libsOf := map[goban.Loc]int{}
	for _, p := range dead {
		l := b.Loc(p)
		if b.ColorAt(l) != c.Opponent() {
			continue
		}
		n := b.Liberties(l)
		for _, q := range b.Neighbors(l) {
			if b.ColorAt(q) == goban.Empty {
				if old, ok := libsOf[q]; !ok || n < old {
					libsOf[q] = n
				}
			}
		}
	}
	if len(libsOf) == 0 {
		return rootStats{}, false
	}
	var best, first rootStats
	found, haveFirst := false, false
	for _, r := range cands {
		if r.move == goban.PassLoc {
			continue
		}
		if !haveFirst {
			first, haveFirst = r, true
		}
		n, ok := libsOf[r.move]
		if !ok || r.n == 0 || r.w/r.n < first.w/max(first.n, 1)-0.05 {
			continue
		}
		if sa, _ := selfAtari(b, r.move, c); sa && n > 1 {
			continue
		}
		if !found || n < libsOf[best.move] {
			best, found = r, true
		}
	}
	if found {
		return best, true
	}
	return first, haveFirst
}

// pointless reports whether l lies inside settled territory (own or the
// opponent's): either every point around it belongs to one player in at
// least 90% of the playouts, or it lies in an empty region that touches
// only one colour whose points that colour owns on average (terr). No
// chain next to it may be short of liberties, since then the move may be a
// needed defence or attack.
func pointless(b *goban.Board, geo *geometry, own []float64, terr []goban.Color, l goban.Loc, sign float64) bool {
	for _, n := range b.Neighbors(l) {
		if c := b.ColorAt(n); (c == goban.Black || c == goban.White) && b.Liberties(n) < 3 {
			return false
		}
	}
	if terr != nil && terr[geo.index[l]] != goban.Empty {
		return true
	}
	v := own[geo.index[l]] * sign
	if math.Abs(v) < 0.9 {
		return false
	}
	for _, n := range b.Neighbors(l) {
		if i := geo.index[n]; i >= 0 && own[i]*sign*v < 0.8 {
			return false
		}
	}
	return true
}

// territory returns, for each point, the colour whose territory it is: an
// empty region that touches stones of only that colour and whose points
// that colour owns in most playouts (own > 0.5 on average from its side).
// Other points are Empty.
func territory(b *goban.Board, geo *geometry, own []float64) []goban.Color {
	out := make([]goban.Color, len(geo.locs))
	seen := make([]bool, len(geo.locs))
	var stack, region []goban.Loc
	for i, l := range geo.locs {
		if seen[i] || b.ColorAt(l) != goban.Empty {
			continue
		}
		var touches [4]bool
		region = region[:0]
		stack = append(stack[:0], l)
		seen[i] = true
		for len(stack) > 0 {
			p := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			region = append(region, p)
			for _, n := range b.Neighbors(p) {
				c := b.ColorAt(n)
				touches[c] = true
				if j := geo.index[n]; c == goban.Empty && !seen[j] {
					seen[j] = true
					stack = append(stack, n)
				}
			}
		}
		owner := goban.Empty
		switch {
		case touches[goban.Black] && !touches[goban.White]:
			owner = goban.Black
		case touches[goban.White] && !touches[goban.Black]:
			owner = goban.White
		default:
			continue
		}
		sum := 0.0
		for _, p := range region {
			sum += own[geo.index[p]]
		}
		avg := sum / float64(len(region))
		if owner == goban.White {
			avg = -avg
		}
		if avg <= 0.5 {
			continue
		}
		for _, p := range region {
			out[geo.index[p]] = owner
		}
	}
	return out
}

// sampleMinShare is the least share of the best move's visits that a move
// needs for the weak levels to choose it. With few playouts on a big board
// most moves get one or two visits, and without the bound the choice was
// nearly uniform: the 19×19 novice played random nonsense and lost every
// stone against GNU Go with nine handicap stones.
const sampleMinShare = 0.1

// sample picks a move at random for the weak levels: weighted by visits
// to the power 1/Temperature, among the moves with at least sampleMinShare
// of the best move's visits and a win rate at most spec.MaxLoss below it.
func (e *Engine) sample(cands []rootStats, spec LevelSpec) rootStats {
	best := cands[0]
	if best.move == goban.PassLoc {
		return best
	}
	bestWR := best.w / max(best.n, 1)
	var ws []float64
	var sum float64
	for _, r := range cands {
		w := 0.0
		if r.move != goban.PassLoc && r.n >= max(2, sampleMinShare*best.n) && r.w/r.n >= bestWR-spec.MaxLoss {
			w = math.Pow(r.n, 1/spec.Temperature)
		}
		ws = append(ws, w)
		sum += w
	}
	if sum <= 0 {
		return best
	}
	rng := goban.NewRand(e.opts.Seed ^ e.calls*0xD6E8FEB86659FD93)
	x := float64(rng.Uint64()>>11) / (1 << 53) * sum
	for i, w := range ws {
		if x < w {
			return cands[i]
		}
		x -= w
	}
	return best
}

// DeadStones proposes the dead stones of the current position of g for
// scoring: chains whose points the opponent owns at the end of most of the
// engine's playouts (half with each colour moving first, with a fixed seed
// so that the proposal is repeatable), except chains that Benson's
// algorithm proves alive and chains in seki; then the ruleset's rules of the
// count apply (goban.ConfirmDead: none under Tromp-Taylor, the bent four in
// the corner dead under the Japanese confirmation). The estimate is made
// after the player to move has saved its chains in atari that it can
// connect (answerAtari); the stones that this captures are dead.
func (e *Engine) DeadStones(g *goban.Game) []goban.Point {
	// opts never change after New, so no lock is needed: a scoring request
	// does not wait for a search.
	b := g.Board()
	est := b
	if w := answerAtari(b, g.ToMove()); w != nil {
		est = w
	}
	// The player who moves next on est: answerAtari's moves are the
	// player to move's.
	next := g.ToMove()
	if est != b {
		next = next.Opponent()
	}
	own, finals, geo := playoutOwnership(est, g.Rules(), e.opts.ScoringPlayouts, 1, true)
	dead := deadFromOwnership(est, geo, own, finals, next)
	if est != b {
		dead = slices.DeleteFunc(dead, func(p goban.Point) bool { return b.At(p) == goban.Empty })
		for y := range b.Height() {
			for x := range b.Width() {
				p := goban.Point{X: x, Y: y}
				if b.At(p) != goban.Empty && est.At(p) == goban.Empty {
					dead = append(dead, p)
				}
			}
		}
	}
	return goban.ConfirmDead(g, dead)
}

// Ownership returns the average owner of each point (index y*width+x, +1
// Black, −1 White) from the engine's playouts of the current position of
// g, as DeadStones uses it.
func (e *Engine) Ownership(g *goban.Game) []float64 {
	own, _, _ := playoutOwnership(g.Board(), g.Rules(), e.opts.ScoringPlayouts, 1, false)
	return own
}

// DynamicKomi returns the points that the search adds to the komi in a
// handicap game of g at its current move: seven per handicap stone at the
// start, falling linearly to nothing when half as many moves as the board
// has points have been played. Both colours search with it: the handicap
// makes Black's win rate near 1 and White's near 0, where the search no
// longer tells good moves from bad, and the extra komi brings both back
// towards an even game. Analysis does not use it.
func DynamicKomi(g *goban.Game) float64 {
	h, _ := g.Handicap()
	if h < 2 {
		return 0
	}
	end := float64(g.Width()*g.Height()) / 2
	left := 1 - float64(g.MoveNumber())/end
	if left <= 0 {
		return 0
	}
	return 7 * float64(h) * left
}

// ownState returns the engine's own count of colour c's clock under
// e.ownTC, starting it fresh. The caller holds e.mu.
func (e *Engine) ownState(c goban.Color) *clock.State {
	if c != goban.Black && c != goban.White {
		c = goban.Black
	}
	if e.own[c] == nil {
		st := e.ownTC.NewState()
		e.own[c] = &st
	}
	return e.own[c]
}
