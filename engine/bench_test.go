package engine

import (
	"context"
	"syscall"
	"testing"
	"time"

	"tengen/goban"
)

// benchPlayouts measures the heavy playout policy from the empty board.
func benchPlayouts(b *testing.B, size int) {
	g := goban.MustNewGame(size, size, goban.MustRuleset("chinese"))
	s := newSearcher(g, nil, 1, 1, defaultParams, 1<<20)
	w := s.workers[0]
	start := g.Board()
	moves := 0
	b.ReportAllocs()
	b.ResetTimer()
	cpu := cpuTime()
	for i := 0; i < b.N; i++ {
		w.board.CopyFrom(start)
		w.board.ClearUndo()
		w.gen++
		w.seq = 0
		w.playout(goban.Black, goban.PassLoc)
		moves += int(w.seq)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "playouts/s")
	b.ReportMetric(float64(b.N)/(cpuTime()-cpu).Seconds(), "playouts/cpu-s")
	b.ReportMetric(float64(moves)/float64(b.N), "moves/playout")
}

// BenchmarkPlayout9 measures the engine's playouts on 9×9.
func BenchmarkPlayout9(b *testing.B) { benchPlayouts(b, 9) }

// BenchmarkPlayout19 measures the engine's playouts on 19×19.
func BenchmarkPlayout19(b *testing.B) { benchPlayouts(b, 19) }

// benchSearch measures whole simulations (tree descent, expansion,
// playout, backup) with one thread from the empty board.
func benchSearch(b *testing.B, size int) {
	g := goban.MustNewGame(size, size, goban.MustRuleset("chinese"))
	b.ReportAllocs()
	b.ResetTimer()
	cpu := cpuTime()
	s := newSearcher(g, nil, 1, 1, defaultParams, 1<<22)
	s.run(context.Background(), limits{playouts: int64(b.N)})
	used := (cpuTime() - cpu).Seconds()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "playouts/s")
	b.ReportMetric(float64(b.N)/used, "playouts/cpu-s")
	b.ReportMetric(float64(s.nodes.Load())/b.Elapsed().Seconds(), "nodes/s")
	b.ReportMetric(float64(s.nodes.Load())/used, "nodes/cpu-s")
}

// BenchmarkSearch9 measures simulations per second on 9×9.
func BenchmarkSearch9(b *testing.B) { benchSearch(b, 9) }

// BenchmarkSearch19 measures simulations per second on 19×19.
func BenchmarkSearch19(b *testing.B) { benchSearch(b, 19) }

// cpuTime returns the CPU time the process has used, so that the figures
// mean something on a machine that other jobs share.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
