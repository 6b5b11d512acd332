// Package analysis runs Tengen's own engine on the positions of a game for
// the players who study it: win rate and score per move, the best moves
// with their principal variations and the ownership of each point. It
// implements tengen.AnalysisService.
//
// The searches run as background work of the server's one worker pool
// (internal/workpool), which the bots share: a bot's move preempts an
// analysis search, and the search starts again when a slot is free.
// Results are cached per position; a search that nobody waits for any more
// is cancelled.
package analysis

import (
	"container/list"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"sync"
	"sync/atomic"

	"tengen"
	"tengen/engine"
	"tengen/goban"
	"tengen/internal/workpool"
)

// Compile-time check that Service implements the root interface.
var _ tengen.AnalysisService = (*Service)(nil)

// Config configures a Service.
type Config struct {
	// Pool is the worker pool shared with the bots; required.
	Pool *workpool.Pool
	// Games reads stored games for GameAnalysisRequest; without it that
	// method fails.
	Games tengen.GameService
	// Engine are the options of the analysis engines; Threads is set to 1
	// (the pool gives the parallelism), Playouts come with each request,
	// and a zero MaxNodes becomes maxTreeNodes.
	Engine engine.Options
	// CacheSize is the number of positions kept (default 4096: some 25 MB
	// for 19×19 positions, whose ownership and candidates take about 6 KB).
	CacheSize int
	// Logger receives the service's logs (default slog.Default()).
	Logger *slog.Logger
	// Search, when not nil, replaces the engine (tests).
	Search func(ctx context.Context, g *goban.Game, playouts int) (engine.Info, error)
}

// Service implements tengen.AnalysisService.
type Service struct {
	cfg Config
	log *slog.Logger
	// ctx ends when Close is called; every search derives from it.
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	// Searches counts the searches started and Preemptions the searches
	// a bot's move interrupted (for tests and metrics).
	Searches, Preemptions atomic.Int64

	mu sync.Mutex // guards the fields below
	// idle are the engines not searching now.
	idle []*engine.Engine
	// cache maps a position's key to its element in lru (most recently
	// used at the front), whose value is a *cacheEntry.
	cache map[string]*list.Element
	lru   *list.List
	// running maps a position's key to its search while one runs.
	running map[string]*search
}

type cacheEntry struct {
	key string
	res *tengen.PositionAnalysis
}

// search is one position's search, shared by everyone waiting for it.
type search struct {
	done chan struct{}
	// res and err are set before done is closed.
	res *tengen.PositionAnalysis
	err error
	// watchers counts those waiting; the search is cancelled when it
	// falls to zero. Guarded by Service.mu.
	watchers int
	cancel   context.CancelFunc
}

// maxTreeNodes bounds each analysis engine's tree (engine.Options.MaxNodes):
// a 19×19 node holds some 30 KB of edges, so a tree stays under about
// 120 MB even at the most playouts, where the engine's default allows a
// gigabyte. Each engine keeps its last tree for the next position.
const maxTreeNodes = 4000

// New returns a Service; Close stops its searches.
func New(cfg Config) *Service {
	if cfg.Pool == nil {
		panic("analysis: Config.Pool is required")
	}
	if cfg.CacheSize <= 0 {
		cfg.CacheSize = 4096
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	cfg.Engine.Threads = 1
	cfg.Engine.Playouts = 0
	if cfg.Engine.MaxNodes == 0 {
		cfg.Engine.MaxNodes = maxTreeNodes
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Service{cfg: cfg, log: cfg.Logger, ctx: ctx, cancel: cancel,
		cache: map[string]*list.Element{}, lru: list.New(), running: map[string]*search{}}
}

// Close cancels the searches and waits for them to stop.
func (s *Service) Close() error {
	s.cancel()
	s.wg.Wait()
	return nil
}

// Load reports the searches running or waiting for a slot and the
// positions cached.
func (s *Service) Load() (running, cached int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.running), len(s.cache)
}

// GameAnalysisRequest implements tengen.AnalysisService.
func (s *Service) GameAnalysisRequest(ctx context.Context, gameID, userID int64, playouts int) (*tengen.AnalysisRequest, error) {
	if s.cfg.Games == nil {
		return nil, errors.New("analysis: no game storage configured")
	}
	g, err := s.cfg.Games.FindGameByID(ctx, gameID)
	if err != nil {
		return nil, err
	}
	if g.Status != tengen.GameFinished && g.Settings.Rated && g.ColorOf(userID) != goban.Empty {
		return nil, tengen.Errorf(tengen.EFORBIDDEN, "The engine's analysis is not available to the players of a rated game while it is running.")
	}
	moves, err := s.cfg.Games.FindMoves(ctx, gameID, 0)
	if err != nil {
		return nil, err
	}
	return GameRequest(g.Settings, moves, playouts)
}

// GameRequest builds the analysis request of a stored game: the handicap
// stones as setup (free ones, which are stored as Black's first moves,
// too), the moves without a resignation.
func GameRequest(set tengen.GameSettings, moves []*tengen.GameMove, playouts int) (*tengen.AnalysisRequest, error) {
	rules, err := goban.RulesetByName(set.Ruleset)
	if err != nil {
		return nil, tengen.Errorf(tengen.EINVALID, "Unknown ruleset %q.", set.Ruleset)
	}
	n := set.BoardSize
	req := &tengen.AnalysisRequest{BoardSize: n, Ruleset: rules.Name, Komi: rules.DefaultKomi(n, n, set.Handicap), Playouts: playouts}
	if set.Komi != nil {
		req.Komi = *set.Komi
	}
	if set.Handicap >= 2 {
		req.ToMove = goban.White
		if set.FreeHandicap {
			for _, m := range moves[:min(set.Handicap, len(moves))] {
				req.Setup = append(req.Setup, tengen.AnalysisStone{Color: goban.Black, X: m.X, Y: m.Y})
			}
			req.FirstMove = len(req.Setup)
			moves = moves[req.FirstMove:]
		} else {
			gb, err := goban.NewGame(n, n, rules)
			if err != nil {
				return nil, tengen.Errorf(tengen.EINVALID, "Board size %d cannot be analysed: %v", n, err)
			}
			if err := gb.SetHandicap(set.Handicap, false); err != nil {
				return nil, tengen.Errorf(tengen.EINVALID, "Handicap %d cannot be analysed: %v", set.Handicap, err)
			}
			_, pts := gb.Handicap()
			for _, p := range pts {
				req.Setup = append(req.Setup, tengen.AnalysisStone{Color: goban.Black, X: p.X, Y: p.Y})
			}
		}
	}
	for _, m := range moves {
		if m.Kind == tengen.MoveResign {
			break
		}
		req.Moves = append(req.Moves, tengen.AnalysisStone{Color: m.Color, Kind: m.Kind, X: m.X, Y: m.Y})
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	return req, nil
}

// positions sets up req's start and plays its moves, returning the
// position after each number of moves (len(req.Moves)+1 of them) and the
// cache key of each. Moves the rules refuse are played as a record viewer
// plays them (goban.Game.PlayForced): game records may hold them. Play goes
// on after two passes, as in a review.
func positions(req *tengen.AnalysisRequest) ([]*goban.Game, []string, error) {
	if err := req.Validate(); err != nil {
		return nil, nil, err
	}
	rules, _ := goban.RulesetByName(req.Ruleset)
	n := req.BoardSize
	g, err := goban.NewGame(n, n, rules)
	if err != nil {
		return nil, nil, tengen.Errorf(tengen.EINVALID, "Board size %d cannot be analysed: %v", n, err)
	}
	g.SetKomi(req.Komi)
	g.SetFreeOrder(true)
	key := fmt.Appendf(nil, "v1 %d %s %s %d", n, rules.Name, strconv.FormatFloat(req.Komi, 'f', -1, 64), req.Playouts)
	for _, c := range []goban.Color{goban.Black, goban.White} {
		var pts []goban.Point
		for _, st := range req.Setup {
			if st.Color == c {
				pts = append(pts, goban.Point{X: st.X, Y: st.Y})
			}
		}
		if err := g.Setup(c, pts...); err != nil {
			return nil, nil, tengen.Errorf(tengen.EINVALID, "The setup stones cannot be placed: %v", err)
		}
		key = fmt.Appendf(key, " %s", c.Letter())
		for _, p := range pts {
			key = fmt.Appendf(key, " %d,%d", p.X, p.Y)
		}
	}
	toMove := req.ToMove
	switch {
	case len(req.Moves) > 0:
		toMove = req.Moves[0].Color
	case toMove == goban.Empty && len(req.Setup) > 0:
		toMove = goban.White
	case toMove == goban.Empty:
		toMove = goban.Black
	}
	g.SetToMove(toMove)
	key = fmt.Appendf(key, " %s |", toMove.Letter())
	out := []*goban.Game{g.Clone()}
	keys := []string{keyOf(key)}
	for i, m := range req.Moves {
		if g.Ended() {
			g.SetResult(goban.Result{})
		}
		mv := goban.PlayAt(m.Color, goban.Point{X: m.X, Y: m.Y})
		if m.Kind == tengen.MovePass {
			mv = goban.PassMove(m.Color)
			key = fmt.Appendf(key, " %s-", m.Color.Letter())
		} else {
			key = fmt.Appendf(key, " %s%d,%d", m.Color.Letter(), m.X, m.Y)
		}
		if _, err := g.PlayForced(mv); err != nil {
			return nil, nil, tengen.Errorf(tengen.EINVALID, "Move %d cannot be played: %v", i+1, err)
		}
		out = append(out, g.Clone())
		keys = append(keys, keyOf(key))
	}
	return out, keys, nil
}

// keyOf is the cache key of a position's description: a hash, so that the
// cache holds 32 bytes per position whatever the game's length.
func keyOf(desc []byte) string {
	sum := sha256.Sum256(desc)
	return string(sum[:])
}

// AnalyzePosition implements tengen.AnalysisService.
func (s *Service) AnalyzePosition(ctx context.Context, req *tengen.AnalysisRequest, n int) (*tengen.PositionAnalysis, error) {
	gs, keys, err := positions(req)
	if err != nil {
		return nil, err
	}
	i := n - req.FirstMove
	if i < 0 || i >= len(gs) {
		return nil, tengen.Errorf(tengen.EINVALID, "Move %d is not one of the positions analysed (%d to %d).", n, req.FirstMove, req.FirstMove+len(gs)-1)
	}
	return s.position(ctx, keys[i], gs[i], n, req.Playouts)
}

// AnalyzeGame implements tengen.AnalysisService. It searches as many
// positions at once as the pool has slots, in the order of the moves.
func (s *Service) AnalyzeGame(ctx context.Context, req *tengen.AnalysisRequest, report func(*tengen.PositionAnalysis)) error {
	gs, keys, err := positions(req)
	if err != nil {
		return err
	}
	var todo []int
	for i := range gs {
		if r := s.cached(keys[i]); r != nil {
			r.Move = req.FirstMove + i
			report(r)
			continue
		}
		todo = append(todo, i)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	next := make(chan int)
	var mu sync.Mutex // serialises report and guards firstErr
	var firstErr error
	var wg sync.WaitGroup
	for range min(s.cfg.Pool.Size(), len(todo)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				r, err := s.position(ctx, keys[i], gs[i], req.FirstMove+i, req.Playouts)
				mu.Lock()
				if err != nil {
					if firstErr == nil {
						firstErr = err
					}
					cancel()
				} else if ctx.Err() == nil {
					report(r)
				}
				mu.Unlock()
			}
		}()
	}
feed:
	for _, i := range todo {
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	return ctx.Err()
}

// cached returns a copy of the cached result for key, or nil.
func (s *Service) cached(key string) *tengen.PositionAnalysis {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cachedLocked(key)
}

func (s *Service) cachedLocked(key string) *tengen.PositionAnalysis {
	e, ok := s.cache[key]
	if !ok {
		return nil
	}
	s.lru.MoveToFront(e)
	r := *e.Value.(*cacheEntry).res
	r.Cached = true
	return &r
}

// position returns the analysis of g (move number n) from the cache, from
// the search another caller started, or from a new search. When ctx ends
// first it stops waiting, and the search stops if nobody else waits.
func (s *Service) position(ctx context.Context, key string, g *goban.Game, n, playouts int) (*tengen.PositionAnalysis, error) {
	s.mu.Lock()
	if r := s.cachedLocked(key); r != nil {
		s.mu.Unlock()
		r.Move = n
		return r, nil
	}
	sr := s.running[key]
	if sr == nil {
		sctx, cancel := context.WithCancel(s.ctx)
		sr = &search{done: make(chan struct{}), cancel: cancel}
		s.running[key] = sr
		s.wg.Add(1)
		go s.run(sctx, key, sr, g, playouts)
	}
	sr.watchers++
	s.mu.Unlock()
	select {
	case <-sr.done:
		if sr.err != nil {
			return nil, sr.err
		}
		r := *sr.res
		r.Move = n
		return &r, nil
	case <-ctx.Done():
		s.mu.Lock()
		sr.watchers--
		if sr.watchers == 0 {
			sr.cancel()
			if s.running[key] == sr {
				delete(s.running, key)
			}
		}
		s.mu.Unlock()
		return nil, ctx.Err()
	}
}

// run searches one position in a slot of the pool. A bot's move that
// preempts it sends it back to wait for a slot.
func (s *Service) run(ctx context.Context, key string, sr *search, g *goban.Game, playouts int) {
	defer s.wg.Done()
	defer sr.cancel()
	var res *tengen.PositionAnalysis
	var err error
	for {
		var wctx context.Context
		var release func()
		wctx, release, err = s.cfg.Pool.Background(ctx)
		if err != nil {
			break
		}
		s.Searches.Add(1)
		var info engine.Info
		info, err = s.search(wctx, g, playouts)
		preempted := errors.Is(context.Cause(wctx), workpool.ErrPreempted)
		release()
		if err != nil && preempted && ctx.Err() == nil {
			s.Preemptions.Add(1)
			continue
		}
		if err == nil {
			res = result(info, playouts)
		}
		break
	}
	s.mu.Lock()
	if s.running[key] == sr {
		delete(s.running, key)
	}
	if res != nil {
		s.store(key, res)
	}
	sr.res, sr.err = res, err
	s.mu.Unlock()
	close(sr.done)
}

// store puts res into the cache, dropping the least recently used entry
// when it is full. s.mu must be held.
func (s *Service) store(key string, res *tengen.PositionAnalysis) {
	if e, ok := s.cache[key]; ok {
		s.lru.MoveToFront(e)
		return
	}
	s.cache[key] = s.lru.PushFront(&cacheEntry{key: key, res: res})
	for s.lru.Len() > s.cfg.CacheSize {
		e := s.lru.Back()
		s.lru.Remove(e)
		delete(s.cache, e.Value.(*cacheEntry).key)
	}
}

// search runs one engine on g. The engines are kept in a free list: each
// searches one position at a time.
func (s *Service) search(ctx context.Context, g *goban.Game, playouts int) (engine.Info, error) {
	if g.Ended() {
		// After two passes the position is searched as if play went on.
		g = g.Clone()
		g.SetResult(goban.Result{})
	}
	if s.cfg.Search != nil {
		return s.cfg.Search(ctx, g, playouts)
	}
	s.mu.Lock()
	var e *engine.Engine
	if n := len(s.idle); n > 0 {
		e, s.idle = s.idle[n-1], s.idle[:n-1]
	}
	s.mu.Unlock()
	if e == nil {
		e = engine.New(s.cfg.Engine)
	}
	defer func() {
		s.mu.Lock()
		s.idle = append(s.idle, e)
		s.mu.Unlock()
	}()
	return e.AnalyzePlayouts(ctx, g, playouts)
}

// maxCandidates is the number of candidate moves a position's analysis
// lists.
const maxCandidates = 10

// result turns the engine's snapshot into Black's point of view.
func result(in engine.Info, playouts int) *tengen.PositionAnalysis {
	black := in.Color != goban.White
	view := func(wr, lead float64) (float64, float64) {
		if black {
			return wr, lead
		}
		return 1 - wr, -lead
	}
	r := &tengen.PositionAnalysis{ToMove: in.Color, Playouts: playouts, Visits: in.Visits}
	r.Winrate, r.ScoreLead = view(in.Winrate, in.ScoreLead)
	r.Ownership = make([]float64, len(in.Ownership))
	for i, v := range in.Ownership {
		r.Ownership[i] = round(v, 3)
	}
	r.Winrate, r.ScoreLead = round(r.Winrate, 4), round(r.ScoreLead, 2)
	for _, m := range in.Moves[:min(len(in.Moves), maxCandidates)] {
		c := tengen.AnalysisCandidate{Visits: m.Visits, Prior: round(m.Prior, 4)}
		c.Winrate, c.ScoreLead = view(m.Winrate, m.ScoreLead)
		c.Winrate, c.ScoreLead = round(c.Winrate, 4), round(c.ScoreLead, 2)
		if m.Move.Kind == goban.Pass {
			c.Pass = true
		} else {
			c.X, c.Y = m.Move.Point.X, m.Move.Point.Y
		}
		c.PV = make([][2]int, 0, len(m.PV))
		for _, p := range m.PV {
			if p.Kind == goban.Play {
				c.PV = append(c.PV, [2]int{p.Point.X, p.Point.Y})
			} else {
				c.PV = append(c.PV, [2]int{-1, -1})
			}
		}
		r.Best = append(r.Best, c)
	}
	return r
}

// round rounds f to prec decimals, which keeps the JSON short.
func round(f float64, prec int) float64 {
	v, _ := strconv.ParseFloat(strconv.FormatFloat(f, 'f', prec, 64), 64)
	return v
}
