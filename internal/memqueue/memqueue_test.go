package memqueue

import (
	"context"
	"testing"
	"time"

	"tengen"
)

// TestBound checks the bound of waiting jobs: one more gives ECONFLICT, a
// game that waits already is no new job, and a taken job makes room.
func TestBound(t *testing.T) {
	ctx := context.Background()
	q := New(2)
	for _, id := range []int64{1, 2, 2} {
		if err := q.Enqueue(ctx, tengen.BotJob{GameID: id}); err != nil {
			t.Fatalf("Enqueue(%d): %v", id, err)
		}
	}
	if err := q.Enqueue(ctx, tengen.BotJob{GameID: 3}); tengen.ErrorCode(err) != tengen.ECONFLICT {
		t.Fatalf("Enqueue beyond the bound: %v, want %s", err, tengen.ECONFLICT)
	}
	job, err := q.Take(ctx, time.Now(), time.Minute)
	if err != nil || job == nil || job.GameID != 1 {
		t.Fatalf("Take = %+v, %v; want game 1", job, err)
	}
	if err := q.Enqueue(ctx, tengen.BotJob{GameID: 3}); err != nil {
		t.Fatalf("Enqueue after a take: %v", err)
	}
	// A held job queued again does not count against the bound.
	if err := q.Enqueue(ctx, tengen.BotJob{GameID: 1}); err != nil {
		t.Fatalf("Enqueue of the held game: %v", err)
	}
	if n, _ := q.Waiting(ctx); n != 2 {
		t.Errorf("Waiting = %d, want 2", n)
	}
}
