package tengen

import (
	"context"
	"time"
)

// BotJob is a game in which a computer player must act (move, or answer
// the dead-stone proposal of the scoring phase), waiting in the BotQueue
// for a bot worker of any instance.
type BotJob struct {
	GameID int64
	// MoveCount is the game's move count when the job was queued; the
	// worker reads the game as it is when it takes the job, and a move it
	// computes carries the Seq of that state, so that a stale job's move is
	// refused.
	MoveCount int
	// BotID is the account of the bot that must act.
	BotID int64
	// Lease identifies the taker's hold on the job (set by Take); Finish
	// and Release need it. LeasedUntil is when the lease runs out and any
	// worker may take the job again.
	Lease       int64
	LeasedUntil time.Time
	// Taken counts how often the job was taken since the game was last
	// queued: more than once means that a worker died or outlived its
	// lease while it held the job, or gave it back (Release).
	Taken int
}

// BotQueue is the bot work queue that the bot workers of every instance
// share. It holds at most one job per game: a game waits for a worker or is
// held by one, never both, and whatever makes a bot act again while a
// worker holds the game's job makes the job due again once it is finished.
//
// With one instance (SQLite) the queue is in memory (internal/memqueue);
// with PostgreSQL it is a table that several instances take jobs from with
// SELECT … FOR UPDATE SKIP LOCKED (postgres.BotQueue).
type BotQueue interface {
	// Enqueue queues job (GameID, MoveCount, BotID) for its game. A game
	// that waits already keeps its place (the larger move count is kept:
	// the job is de-duplicated per game and move count); a game whose job
	// a worker holds is marked to be looked at again when the worker is
	// done. A bounded queue that is full gives ECONFLICT.
	Enqueue(ctx context.Context, job BotJob) error
	// Take leases the job that has waited longest among those no worker
	// holds or whose lease ran out by now, until now+lease, and returns
	// it; nil when no job is due. Two takers never get one job.
	Take(ctx context.Context, now time.Time, lease time.Duration) (*BotJob, error)
	// Finish removes a job its taker is done with, unless the game was
	// queued again meanwhile: then the job waits again, at the end of the
	// queue. A job whose lease ran out and was taken by another worker
	// gives ECONFLICT and is left to that worker.
	Finish(ctx context.Context, job *BotJob) error
	// Release gives a held job back undone (a worker that stops): it waits
	// again at once, for any worker. A lease lost to another worker gives
	// ECONFLICT.
	Release(ctx context.Context, job *BotJob) error
	// Waiting returns the number of jobs that no worker holds.
	Waiting(ctx context.Context) (int, error)
}
