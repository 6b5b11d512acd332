package sqlite_test

import (
	"path/filepath"
	"testing"

	"tengen/storagetest"
)

// BenchmarkAppendMove measures durable move commits: every iteration is one
// committed transaction (synchronous=FULL), spread over 64 concurrent games.
func BenchmarkAppendMove(b *testing.B) {
	for _, sync := range []string{"FULL", "NORMAL"} {
		b.Run(sync, func(b *testing.B) {
			db, s := openBench(b, filepath.Join(b.TempDir(), "bench.db"), sync)
			defer db.Close()
			storagetest.BenchAppendMove(b, s)
		})
	}
}
