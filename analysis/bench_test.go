package analysis

import (
	"bufio"
	"context"
	"math/rand/v2"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"tengen"
	"tengen/engine"
	"tengen/goban"
	"tengen/internal/workpool"
)

// benchGame returns a 19×19 game of n moves, played at random but without
// filling one's own one-point eyes, from a fixed seed.
func benchGame(tb testing.TB, n int) *tengen.AnalysisRequest {
	rules, err := goban.RulesetByName("japanese")
	if err != nil {
		tb.Fatal(err)
	}
	g, err := goban.NewGame(19, 19, rules)
	if err != nil {
		tb.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(19, 250))
	req := &tengen.AnalysisRequest{BoardSize: 19, Ruleset: "japanese", Komi: 6.5}
	b := g.Board()
	ownEye := func(p goban.Point, c goban.Color) bool {
		for _, d := range [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
			q := goban.Point{X: p.X + d[0], Y: p.Y + d[1]}
			if b.OnBoard(q) && b.At(q) != c {
				return false
			}
		}
		return true
	}
	for len(req.Moves) < n {
		c := g.ToMove()
		var cands []goban.Point
		for _, p := range g.LegalMoves(c) {
			if !ownEye(p, c) {
				cands = append(cands, p)
			}
		}
		m := goban.PassMove(c)
		st := tengen.AnalysisStone{Color: c, Kind: tengen.MovePass}
		if len(cands) > 0 {
			p := cands[rng.IntN(len(cands))]
			m = goban.PlayAt(c, p)
			st = tengen.AnalysisStone{Color: c, X: p.X, Y: p.Y}
		}
		if err := g.Play(m); err != nil {
			tb.Fatal(err)
		}
		if g.Ended() {
			g.SetResult(goban.Result{})
		}
		b = g.Board()
		req.Moves = append(req.Moves, st)
	}
	return req
}

// BenchmarkAnalyzeGame analyses a 250-move 19×19 game, every position
// (251), with TENGEN_BENCH_PLAYOUTS playouts per position (default 200,
// the panel's default), in a pool of one slot per CPU, as the server does.
// Each iteration starts with an empty cache. It reports the seconds per
// game, the playouts per second and the peak resident memory of the
// process. docs/PERFORMANCE.md has the figures.
func BenchmarkAnalyzeGame(b *testing.B) {
	playouts := 200
	if v := os.Getenv("TENGEN_BENCH_PLAYOUTS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			b.Fatal(err)
		}
		playouts = n
	}
	req := benchGame(b, 250)
	req.Playouts = playouts
	b.ReportAllocs()
	positions := 0
	cpu0 := cpuSeconds()
	for b.Loop() {
		s := New(Config{Pool: workpool.New(runtime.NumCPU()), Engine: engine.Options{Seed: 1}})
		positions = 0
		err := s.AnalyzeGame(context.Background(), req, func(*tengen.PositionAnalysis) { positions++ })
		s.Close()
		if err != nil {
			b.Fatal(err)
		}
	}
	if positions != 251 {
		b.Fatalf("%d positions analysed, want 251", positions)
	}
	el := b.Elapsed().Seconds() / float64(b.N)
	b.ReportMetric(el, "s/game")
	b.ReportMetric(float64(251*playouts)/el, "playouts/s")
	// The CPU time the process got: on a machine that others load, the
	// playouts per CPU second say what the code does.
	if cpu := (cpuSeconds() - cpu0) / float64(b.N); cpu > 0 {
		b.ReportMetric(cpu, "CPU-s/game")
		b.ReportMetric(float64(251*playouts)/cpu, "playouts/CPU-s")
	}
	if kb := peakRSS(); kb > 0 {
		b.ReportMetric(float64(kb)/1024, "MB-peak-RSS")
	}
}

// peakRSS returns the process's peak resident memory in kB (Linux's
// VmHWM), or 0 where /proc does not tell.
func peakRSS() int {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			n, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), " kB"))
			return n
		}
	}
	return 0
}
