package sqlite_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"tengen"
	"tengen/clock"
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

// BenchmarkAppendMoveWithRecord is BenchmarkAppendMove with what package play
// stores with every move: the game's play record with a running clock (at
// synchronous=OFF, so that the statements, not the sync, are measured).
func BenchmarkAppendMoveWithRecord(b *testing.B) {
	db, s := openBench(b, filepath.Join(b.TempDir(), "bench.db"), "OFF")
	defer db.Close()
	ctx := context.Background()
	g, users := storagetest.BenchGame(b, s, 0)
	gc, err := clock.NewGameClock(clock.TimeControl{Kind: clock.Fischer, MainTime: time.Hour, Increment: 10 * time.Second})
	if err != nil {
		b.Fatal(err)
	}
	now := time.Now()
	if err := gc.Start(clock.Black, now); err != nil {
		b.Fatal(err)
	}
	rec := &tengen.PlayRecord{Clock: gc}
	b.ResetTimer()
	for i := range b.N {
		seq := i + 1
		u := users[i%2]
		m := &tengen.GameMove{GameID: g.ID, Seq: seq, Kind: tengen.MovePass}
		upd := tengen.NextState(tengen.GameMove{Color: g.ColorOf(u.ID), Kind: tengen.MovePass}, false)
		upd.Record = rec
		if _, err := s.Games.AppendMove(ctx, u.ID, m, upd); err != nil {
			b.Fatal(err)
		}
	}
}
