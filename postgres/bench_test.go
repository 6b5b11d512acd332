package postgres_test

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/jackc/pgx/v5"

	"tengen/postgres"
	"tengen/postgres/pgtest"
	"tengen/storagetest"
)

// BenchmarkAppendMove measures durable move commits on PostgreSQL, as
// sqlite's BenchmarkAppendMove does on SQLite: every iteration is one
// committed move (synchronous_commit as the server has it, on by default),
// spread over 64 concurrent games, with group commit. It reports the round
// trips to PostgreSQL and the statements sent per move (see countTracer).
func BenchmarkAppendMove(b *testing.B) { benchAppendMove(b, false) }

// BenchmarkAppendMoveFenced is BenchmarkAppendMove on a registered instance
// of several (tengen serve with PostgreSQL): every write of the game path
// carries the condition that this instance owns the game.
func BenchmarkAppendMoveFenced(b *testing.B) { benchAppendMove(b, true) }

func benchAppendMove(b *testing.B, fenced bool) {
	var ct countTracer
	db, s := open(b, pgtest.URL(b), func(db *postgres.DB) { postgres.SetTracer(db, &ct) })
	defer db.Close()
	if fenced {
		if _, err := postgres.NewClusterService(db, 0).Register(context.Background(), "http://127.0.0.1:1"); err != nil {
			b.Fatal(err)
		}
	}
	storagetest.BenchAppendMove(b, s, ct.reset)
	ct.report(b)
}

// countTracer counts what the pool's connections send: every Exec, Query
// and QueryRow is one round trip and one SQL text, every batch one round
// trip with its queued statements. A text of several statements (the
// group commit's "RELEASE SAVEPOINT a; SAVEPOINT b") counts once, and
// preparing a statement the first time a connection sends it is not
// counted (pgx caches it: later sends skip it).
type countTracer struct {
	roundTrips, statements atomic.Int64
}

func (c *countTracer) TraceQueryStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryStartData) context.Context {
	c.roundTrips.Add(1)
	c.statements.Add(1)
	return ctx
}

func (c *countTracer) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

func (c *countTracer) TraceBatchStart(ctx context.Context, _ *pgx.Conn, data pgx.TraceBatchStartData) context.Context {
	c.roundTrips.Add(1)
	c.statements.Add(int64(data.Batch.Len()))
	return ctx
}

func (c *countTracer) TraceBatchQuery(context.Context, *pgx.Conn, pgx.TraceBatchQueryData) {}
func (c *countTracer) TraceBatchEnd(context.Context, *pgx.Conn, pgx.TraceBatchEndData)     {}

func (c *countTracer) reset() {
	c.roundTrips.Store(0)
	c.statements.Store(0)
}

// report adds the counts per iteration to b's results.
func (c *countTracer) report(b *testing.B) {
	b.ReportMetric(float64(c.roundTrips.Load())/float64(b.N), "roundtrips/op")
	b.ReportMetric(float64(c.statements.Load())/float64(b.N), "stmts/op")
}
