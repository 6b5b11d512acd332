package postgres_test

import (
	"context"
	"testing"

	"tengen/postgres"
	"tengen/postgres/pgtest"
	"tengen/storagetest"
)

// BenchmarkAppendMove measures durable move commits on PostgreSQL, as
// sqlite's BenchmarkAppendMove does on SQLite: every iteration is one
// committed move (synchronous_commit as the server has it, on by default),
// spread over 64 concurrent games, with group commit.
func BenchmarkAppendMove(b *testing.B) {
	db, s := open(b, pgtest.URL(b))
	defer db.Close()
	storagetest.BenchAppendMove(b, s)
}

// BenchmarkAppendMoveFenced is BenchmarkAppendMove on a registered instance
// of several (tengen serve with PostgreSQL): every write of the game path
// carries the condition that this instance owns the game.
func BenchmarkAppendMoveFenced(b *testing.B) {
	db, s := open(b, pgtest.URL(b))
	defer db.Close()
	if _, err := postgres.NewClusterService(db, 0).Register(context.Background(), "http://127.0.0.1:1"); err != nil {
		b.Fatal(err)
	}
	storagetest.BenchAppendMove(b, s)
}
