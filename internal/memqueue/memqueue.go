// Package memqueue is the in-memory tengen.BotQueue of a single instance
// (SQLite): the bot jobs of the games this process holds. Nothing of it is
// stored; after a restart play queues the jobs again as it loads the games.
package memqueue

import (
	"context"
	"sync"
	"time"

	"tengen"
)

// Queue is an in-memory bot queue. The zero value is not usable; call New.
type Queue struct {
	bound int

	mu     sync.Mutex       // guards the fields below
	jobs   map[int64]*entry // by game
	ready  []int64          // games waiting, oldest first
	held   map[int64]*entry // jobs a worker holds, by game
	leases int64            // the last lease number given
}

// entry is one game's job.
type entry struct {
	job   tengen.BotJob
	held  bool // a worker holds it (job.Lease, job.LeasedUntil)
	again bool // queued again while held
}

// New returns an empty queue that holds at most bound waiting jobs (0: no
// bound); Enqueue of one more gives ECONFLICT.
func New(bound int) *Queue {
	return &Queue{bound: bound, jobs: map[int64]*entry{}, held: map[int64]*entry{}}
}

// Enqueue implements tengen.BotQueue.
func (q *Queue) Enqueue(_ context.Context, job tengen.BotJob) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	if e := q.jobs[job.GameID]; e != nil {
		e.job.MoveCount = max(e.job.MoveCount, job.MoveCount)
		e.job.BotID = job.BotID
		if e.held {
			e.again = true
		}
		return nil
	}
	if q.bound > 0 && len(q.ready) >= q.bound {
		return tengen.Errorf(tengen.ECONFLICT, "The bot queue is full.")
	}
	job.Lease, job.LeasedUntil, job.Taken = 0, time.Time{}, 0
	q.jobs[job.GameID] = &entry{job: job}
	q.ready = append(q.ready, job.GameID)
	return nil
}

// Take implements tengen.BotQueue. A job whose lease ran out goes before the
// waiting ones: it has waited longest. In one process a worker outlives
// its lease only when it hangs, so the held jobs are few to look through.
func (q *Queue) Take(_ context.Context, now time.Time, lease time.Duration) (*tengen.BotJob, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	var e *entry
	for _, h := range q.held {
		if !h.job.LeasedUntil.After(now) && (e == nil || h.job.LeasedUntil.Before(e.job.LeasedUntil)) {
			e = h
		}
	}
	if e == nil {
		if len(q.ready) == 0 {
			return nil, nil
		}
		id := q.ready[0]
		q.ready[0] = 0
		q.ready = q.ready[1:]
		e = q.jobs[id]
	}
	q.leases++
	e.held, e.again = true, false
	e.job.Lease, e.job.LeasedUntil = q.leases, now.Add(lease)
	e.job.Taken++
	q.held[e.job.GameID] = e
	job := e.job
	return &job, nil
}

// Finish implements tengen.BotQueue.
func (q *Queue) Finish(_ context.Context, job *tengen.BotJob) error {
	return q.end(job, false)
}

// Release implements tengen.BotQueue.
func (q *Queue) Release(_ context.Context, job *tengen.BotJob) error {
	return q.end(job, true)
}

// end lets go of a held job: it waits again when keep is set or the game
// was queued again meanwhile, else it is removed.
func (q *Queue) end(job *tengen.BotJob, keep bool) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	e := q.held[job.GameID]
	if e == nil || e.job.Lease != job.Lease {
		return tengen.Errorf(tengen.ECONFLICT, "The bot job of game %d is no longer held by this worker.", job.GameID)
	}
	delete(q.held, job.GameID)
	e.held = false
	e.job.Lease, e.job.LeasedUntil = 0, time.Time{}
	if keep || e.again {
		if e.again {
			e.job.Taken = 0 // queued anew
		}
		e.again = false
		if keep {
			// Given back undone: first in line again.
			q.ready = append([]int64{job.GameID}, q.ready...)
		} else {
			q.ready = append(q.ready, job.GameID)
		}
		return nil
	}
	delete(q.jobs, job.GameID)
	return nil
}

// Waiting implements tengen.BotQueue.
func (q *Queue) Waiting(context.Context) (int, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.ready), nil
}
