package postgres

import (
	"context"
	"math/rand/v2"
	"time"

	"tengen"
)

// Compile-time check that BotQueue implements the interface.
var _ tengen.BotQueue = (*BotQueue)(nil)

// BotQueue is the bot work queue that the instances on one database share:
// the table bot_jobs, one row per game (migrations/0013_bot_jobs.sql).
// Workers take rows with SELECT … FOR UPDATE SKIP LOCKED, so that two
// takers never get one job and neither waits for the other.
type BotQueue struct {
	db *DB
}

// NewBotQueue returns the BotQueue on db.
func NewBotQueue(db *DB) *BotQueue {
	return &BotQueue{db: db}
}

// Enqueue implements tengen.BotQueue: one statement that inserts the job
// or, when the game has one, keeps its place and marks a held one to be
// done again.
func (q *BotQueue) Enqueue(ctx context.Context, job tengen.BotJob) error {
	tx, err := q.db.BeginTx(ctx, true)
	if err != nil {
		return err
	}
	defer tx.rollback()
	if _, err := tx.exec(ctx, `INSERT INTO bot_jobs (game_id, bot_id, move_count, queued_at) VALUES ($1, $2, $3, $4)
		ON CONFLICT (game_id) DO UPDATE SET move_count = GREATEST(bot_jobs.move_count, EXCLUDED.move_count),
			bot_id = EXCLUDED.bot_id, again = bot_jobs.again OR bot_jobs.lease IS NOT NULL`,
		job.GameID, job.BotID, job.MoveCount, tx.now); err != nil {
		return err
	}
	return tx.commit(ctx)
}

// Take implements tengen.BotQueue. A job whose lease ran out is due again
// in its old place: it has waited longest.
func (q *BotQueue) Take(ctx context.Context, now time.Time, lease time.Duration) (*tengen.BotJob, error) {
	tx, err := q.db.BeginTx(ctx, true)
	if err != nil {
		return nil, err
	}
	defer tx.rollback()
	job := &tengen.BotJob{Lease: newLease(), LeasedUntil: now.Add(lease).UTC().Truncate(time.Microsecond)}
	err = tx.QueryRow(ctx, `UPDATE bot_jobs SET lease = $1, leased_until = $2, taken = taken + 1, again = FALSE
		WHERE game_id = (SELECT game_id FROM bot_jobs WHERE lease IS NULL OR leased_until <= $3
			ORDER BY queued_at, game_id LIMIT 1 FOR UPDATE SKIP LOCKED)
		RETURNING game_id, bot_id, move_count, taken`, job.Lease, job.LeasedUntil, now.UTC()).
		Scan(&job.GameID, &job.BotID, &job.MoveCount, &job.Taken)
	if noRows(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return job, tx.commit(ctx)
}

// newLease returns a lease number; leases are compared together with the
// game, so a random 63-bit number cannot meet another by chance.
func newLease() int64 { return rand.Int64() }

// Finish implements tengen.BotQueue.
func (q *BotQueue) Finish(ctx context.Context, job *tengen.BotJob) error {
	return q.end(ctx, job, false)
}

// Release implements tengen.BotQueue.
func (q *BotQueue) Release(ctx context.Context, job *tengen.BotJob) error {
	return q.end(ctx, job, true)
}

// end lets go of a held job: the row is deleted unless keep is set or the
// game was queued again meanwhile; then the lease is cleared, and a job
// queued again goes to the end of the queue, its takes counted anew. An Enqueue that runs at the
// same time either comes first (again is set, and DELETE skips the row) or
// finds no row and inserts a new one.
func (q *BotQueue) end(ctx context.Context, job *tengen.BotJob, keep bool) error {
	tx, err := q.db.BeginTx(ctx, true)
	if err != nil {
		return err
	}
	defer tx.rollback()
	if !keep {
		n, err := tx.exec(ctx, `DELETE FROM bot_jobs WHERE game_id = $1 AND lease = $2 AND NOT again`, job.GameID, job.Lease)
		if err != nil {
			return err
		}
		if n == 1 {
			return tx.commit(ctx)
		}
	}
	n, err := tx.exec(ctx, `UPDATE bot_jobs SET lease = NULL, leased_until = NULL, again = FALSE,
			queued_at = CASE WHEN again THEN $3 ELSE queued_at END, taken = CASE WHEN again THEN 0 ELSE taken END
		WHERE game_id = $1 AND lease = $2`, job.GameID, job.Lease, tx.now)
	if err != nil {
		return err
	}
	if n == 0 {
		return tengen.Errorf(tengen.ECONFLICT, "The bot job of game %d is no longer held by this worker.", job.GameID)
	}
	return tx.commit(ctx)
}

// Waiting implements tengen.BotQueue.
func (q *BotQueue) Waiting(ctx context.Context) (int, error) {
	var n int
	err := q.db.pool.QueryRow(ctx, `SELECT COUNT(*) FROM bot_jobs WHERE lease IS NULL`).Scan(&n)
	return n, err
}
