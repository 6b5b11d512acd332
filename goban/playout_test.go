package goban

import "testing"

func benchPlayouts(b *testing.B, size int) {
	start := MustNewBoard(size, size)
	work := start.Clone()
	r := NewRand(1)
	b.ReportAllocs()
	b.ResetTimer()
	moves := 0
	for i := 0; i < b.N; i++ {
		work.CopyFrom(start)
		moves += work.Playout(Black, r, 3*size*size)
		_ = work.AreaScore()
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "playouts/s")
	b.ReportMetric(float64(moves)/float64(b.N), "moves/playout")
}

// BenchmarkPlayout9 measures uniform random playouts on 9×9 that avoid
// filling one-point eyes, played to two passes and scored.
func BenchmarkPlayout9(b *testing.B) { benchPlayouts(b, 9) }

// BenchmarkPlayout19 is BenchmarkPlayout9 on 19×19.
func BenchmarkPlayout19(b *testing.B) { benchPlayouts(b, 19) }
