package analysis

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"tengen"
	"tengen/engine"
	"tengen/goban"
	"tengen/internal/workpool"
)

// fakeSearch is an engine stand-in: each search takes a second of (fake)
// time unless its context ends first, and reports the number of moves
// played as its visits, so that results tell positions apart.
type fakeSearch struct {
	running, peak atomic.Int32
	started       atomic.Int32
}

func (f *fakeSearch) search(ctx context.Context, g *goban.Game, playouts int) (engine.Info, error) {
	f.started.Add(1)
	n := f.running.Add(1)
	defer f.running.Add(-1)
	for {
		p := f.peak.Load()
		if n <= p || f.peak.CompareAndSwap(p, n) {
			break
		}
	}
	select {
	case <-time.After(time.Second):
	case <-ctx.Done():
		return engine.Info{}, ctx.Err()
	}
	return engine.Info{Color: g.ToMove(), Visits: g.MoveNumber(), Winrate: 0.25, ScoreLead: 3,
		Ownership: make([]float64, g.Width()*g.Height()),
		Moves:     []engine.MoveInfo{{Move: goban.PlayAt(g.ToMove(), goban.Point{X: 2, Y: 3}), Visits: playouts, Winrate: 0.25, ScoreLead: 3}}}, nil
}

func newTestService(t *testing.T, slots int) (*Service, *fakeSearch, *workpool.Pool) {
	t.Helper()
	f := &fakeSearch{}
	p := workpool.New(slots)
	s := New(Config{Pool: p, Search: f.search})
	t.Cleanup(func() { s.Close() })
	return s, f, p
}

func request(moves int) *tengen.AnalysisRequest {
	req := &tengen.AnalysisRequest{BoardSize: 9, Ruleset: "japanese", Komi: 6.5, Playouts: 50}
	c := goban.Black
	for i := range moves {
		req.Moves = append(req.Moves, tengen.AnalysisStone{Color: c, X: i % 9, Y: i / 9 * 2})
		c = c.Opponent()
	}
	return req
}

func TestAnalyzeGameCachesAndBounds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s, f, _ := newTestService(t, 2)
		req := request(5)
		var got []*tengen.PositionAnalysis
		var mu sync.Mutex
		report := func(r *tengen.PositionAnalysis) { mu.Lock(); got = append(got, r); mu.Unlock() }
		if err := s.AnalyzeGame(context.Background(), req, report); err != nil {
			t.Fatal(err)
		}
		if len(got) != 6 {
			t.Fatalf("%d results, want 6 (the start and 5 moves)", len(got))
		}
		if p := f.peak.Load(); p != 2 {
			t.Errorf("at most %d searches ran at once, want the pool's 2", p)
		}
		seen := map[int]bool{}
		for _, r := range got {
			seen[r.Move] = true
			if r.Cached {
				t.Errorf("move %d: cached on the first run", r.Move)
			}
			// White's win rate 0.25 is Black's 0.75.
			want := 0.25
			if r.ToMove == goban.White {
				want = 0.75
			}
			if r.Winrate != want || r.Visits != r.Move {
				t.Errorf("move %d: winrate %v visits %d, want %v and %d", r.Move, r.Winrate, r.Visits, want, r.Move)
			}
		}
		if len(seen) != 6 {
			t.Errorf("moves reported: %v", seen)
		}
		before := f.started.Load()
		got = nil
		if err := s.AnalyzeGame(context.Background(), req, report); err != nil {
			t.Fatal(err)
		}
		if f.started.Load() != before {
			t.Errorf("the second run searched %d positions again; all were cached", f.started.Load()-before)
		}
		for _, r := range got {
			if !r.Cached {
				t.Errorf("move %d not from the cache on the second run", r.Move)
			}
		}
		// Other playouts are another analysis.
		req2 := request(5)
		req2.Playouts = 60
		if _, err := s.AnalyzePosition(context.Background(), req2, 5); err != nil {
			t.Fatal(err)
		}
		if f.started.Load() != before+1 {
			t.Errorf("other playouts did not search")
		}
	})
}

func TestCancelledWhenNobodyWatches(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s, f, _ := newTestService(t, 1)
		ctx, cancel := context.WithCancel(context.Background())
		errc := make(chan error, 1)
		go func() { errc <- s.AnalyzeGame(ctx, request(10), func(*tengen.PositionAnalysis) {}) }()
		time.Sleep(1500 * time.Millisecond) // one position done, the second under way
		cancel()
		if err := <-errc; !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v, want context.Canceled", err)
		}
		synctest.Wait()
		if n := f.running.Load(); n != 0 {
			t.Errorf("%d searches still run after the watcher left", n)
		}
		if running, cached := s.Load(); running != 0 || cached != 1 {
			t.Errorf("running %d, cached %d; want 0 and 1", running, cached)
		}
		if n := f.started.Load(); n != 2 {
			t.Errorf("%d searches started, want 2", n)
		}
	})
}

// TestSharedSearchKeepsRunning checks that a search two watchers wait for
// goes on when one of them leaves.
func TestSharedSearchKeepsRunning(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s, f, _ := newTestService(t, 1)
		req := request(3)
		ctx1, cancel1 := context.WithCancel(context.Background())
		errc := make(chan error, 2)
		go func() { _, err := s.AnalyzePosition(ctx1, req, 3); errc <- err }()
		go func() { _, err := s.AnalyzePosition(context.Background(), req, 3); errc <- err }()
		time.Sleep(100 * time.Millisecond)
		cancel1()
		if err := <-errc; !errors.Is(err, context.Canceled) {
			t.Fatalf("first watcher: %v", err)
		}
		if err := <-errc; err != nil {
			t.Fatalf("second watcher: %v", err)
		}
		if n := f.started.Load(); n != 1 {
			t.Errorf("%d searches for one position, want 1", n)
		}
	})
}

// TestBotPreemptsAnalysis checks that urgent work (a bot's move) takes a
// slot from a running analysis at once and that the analysis finishes
// afterwards.
func TestBotPreemptsAnalysis(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s, f, p := newTestService(t, 1)
		done := make(chan *tengen.PositionAnalysis, 1)
		go func() {
			r, err := s.AnalyzePosition(context.Background(), request(2), 2)
			if err != nil {
				t.Error(err)
			}
			done <- r
		}()
		time.Sleep(500 * time.Millisecond)
		if f.running.Load() != 1 {
			t.Fatal("the analysis is not running")
		}
		release := p.Urgent() // a bot moves
		synctest.Wait()
		if n := f.running.Load(); n != 0 {
			t.Fatalf("%d analysis searches run beside the bot in a pool of one", n)
		}
		time.Sleep(5 * time.Second) // the bot thinks; the analysis waits
		if f.running.Load() != 0 {
			t.Fatal("analysis started while the bot held the only slot")
		}
		release()
		r := <-done
		if r == nil || r.Move != 2 {
			t.Fatalf("result %+v", r)
		}
		if s.Preemptions.Load() != 1 || f.started.Load() != 2 {
			t.Errorf("preemptions %d, searches %d; want 1 and 2", s.Preemptions.Load(), f.started.Load())
		}
	})
}

func TestBadRequests(t *testing.T) {
	s, _, _ := newTestService(t, 1)
	cases := []struct {
		name string
		edit func(r *tengen.AnalysisRequest)
		n    int
	}{
		{"size", func(r *tengen.AnalysisRequest) { r.BoardSize = 3 }, 0},
		{"ruleset", func(r *tengen.AnalysisRequest) { r.Ruleset = "klingon" }, 0},
		{"komi", func(r *tengen.AnalysisRequest) { r.Komi = 6.3 }, 0},
		{"playouts", func(r *tengen.AnalysisRequest) { r.Playouts = 1 << 30 }, 0},
		{"off board", func(r *tengen.AnalysisRequest) { r.Moves[1].X = 9 }, 0},
		{"colour", func(r *tengen.AnalysisRequest) { r.Moves[0].Color = goban.Empty }, 0},
		{"kind", func(r *tengen.AnalysisRequest) { r.Moves[0].Kind = tengen.MoveResign }, 0},
		{"setup pass", func(r *tengen.AnalysisRequest) {
			r.Setup = []tengen.AnalysisStone{{Color: goban.Black, Kind: tengen.MovePass}}
		}, 0},
		{"move number", func(r *tengen.AnalysisRequest) {}, 4},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req := request(3)
			c.edit(req)
			_, err := s.AnalyzePosition(context.Background(), req, c.n)
			if tengen.ErrorCode(err) != tengen.EINVALID {
				t.Fatalf("err = %v, want EINVALID", err)
			}
			t.Log(tengen.ErrorMessage(err))
		})
	}
}

// TestGameRequest checks the handicap stones of stored games: fixed ones
// as setup, free ones (stored as moves) as setup with the move numbers
// kept, and the resignation left out.
func TestGameRequest(t *testing.T) {
	komi := 0.5
	moves := []*tengen.GameMove{
		{Seq: 1, Color: goban.Black, Kind: tengen.MovePlay, X: 2, Y: 2},
		{Seq: 2, Color: goban.Black, Kind: tengen.MovePlay, X: 6, Y: 6},
		{Seq: 3, Color: goban.White, Kind: tengen.MovePlay, X: 4, Y: 4},
		{Seq: 4, Color: goban.Black, Kind: tengen.MoveResign},
	}
	req, err := GameRequest(tengen.GameSettings{BoardSize: 9, Ruleset: "japanese", Komi: &komi, Handicap: 2, FreeHandicap: true}, moves, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(req.Setup) != 2 || req.FirstMove != 2 || len(req.Moves) != 1 || req.Komi != 0.5 || req.Playouts != tengen.DefaultAnalysisPlayouts {
		t.Fatalf("free handicap: %+v", req)
	}
	req, err = GameRequest(tengen.GameSettings{BoardSize: 9, Ruleset: "japanese", Handicap: 3}, moves[2:], 100)
	if err != nil {
		t.Fatal(err)
	}
	if len(req.Setup) != 3 || req.FirstMove != 0 || len(req.Moves) != 1 || req.Komi != 0.5 {
		t.Fatalf("fixed handicap: %+v", req)
	}
	gs, _, err := positions(req)
	if err != nil {
		t.Fatal(err)
	}
	if gs[0].ToMove() != goban.White || gs[0].Board().Stones(goban.Black) != 3 {
		t.Errorf("start: %v to move, %d black stones", gs[0].ToMove(), gs[0].Board().Stones(goban.Black))
	}
}

// TestEngineAnalysis runs the real engine once on a small board.
func TestEngineAnalysis(t *testing.T) {
	s := New(Config{Pool: workpool.New(1), Engine: engine.Options{Seed: 1}})
	defer s.Close()
	req := request(4)
	r, err := s.AnalyzePosition(context.Background(), req, 4)
	if err != nil {
		t.Fatal(err)
	}
	if r.Move != 4 || r.ToMove != goban.Black || len(r.Best) == 0 || len(r.Ownership) != 81 || r.Visits < 50 {
		t.Fatalf("analysis %+v", r)
	}
	if len(r.Best[0].PV) == 0 || r.Winrate <= 0 || r.Winrate >= 1 {
		t.Errorf("best %+v, winrate %v", r.Best[0], r.Winrate)
	}
}

// FuzzPositions checks that any request that decodes either sets up its
// positions or is refused with EINVALID, and never panics.
func FuzzPositions(f *testing.F) {
	f.Add(`{"boardSize": 9, "ruleset": "japanese", "komi": 6.5, "moves": [{"color": "black", "x": 2, "y": 2}]}`)
	f.Add(`{"boardSize": 5, "ruleset": "chinese", "komi": 0, "setup": [{"color": "white", "x": 0, "y": 0}, {"color": "black", "x": 0, "y": 0}], "toMove": "black"}`)
	f.Add(`{"boardSize": 9, "ruleset": "tromp-taylor", "komi": 7, "moves": [{"color": "black", "kind": "pass"}, {"color": "white", "kind": "pass"}, {"color": "black", "x": 0, "y": 0}]}`)
	f.Fuzz(func(t *testing.T, body string) {
		var req tengen.AnalysisRequest
		if json.Unmarshal([]byte(body), &req) != nil {
			return
		}
		gs, keys, err := positions(&req)
		if err != nil {
			if tengen.ErrorCode(err) != tengen.EINVALID {
				t.Fatalf("error %v is not EINVALID", err)
			}
			return
		}
		if len(gs) != len(req.Moves)+1 || len(keys) != len(gs) {
			t.Fatalf("%d positions, %d keys for %d moves", len(gs), len(keys), len(req.Moves))
		}
	})
}
