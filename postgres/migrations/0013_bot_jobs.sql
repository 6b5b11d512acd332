-- The bot work queue that the instances on one database share (issue 20,
-- tengen.BotQueue): one row per game in which a computer player must act.
-- A worker takes the oldest due row with SELECT … FOR UPDATE SKIP LOCKED and
-- leases it until leased_until; a row whose lease ran out is due again, so
-- that the job of a worker that died is taken by another instance.

CREATE TABLE bot_jobs (
	game_id      BIGINT PRIMARY KEY REFERENCES games (id),
	bot_id       BIGINT NOT NULL REFERENCES users (id),
	move_count   INTEGER NOT NULL CHECK (move_count >= 0),
	-- queued_at orders the waiting jobs, oldest first.
	queued_at    TIMESTAMPTZ NOT NULL,
	-- lease and leased_until are set while a worker holds the job.
	lease        BIGINT,
	leased_until TIMESTAMPTZ,
	-- again: the game was queued again while a worker held its job.
	again        BOOLEAN NOT NULL DEFAULT FALSE,
	taken        INTEGER NOT NULL DEFAULT 0,
	CHECK ((lease IS NULL) = (leased_until IS NULL))
);

CREATE INDEX bot_jobs_due ON bot_jobs (queued_at, game_id);
