package postgres_test

import (
	"testing"

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
