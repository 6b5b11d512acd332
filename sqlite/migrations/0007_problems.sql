-- Problems (issue 18): which problems each user has tried and solved, and
-- the user's problem rating. The problems themselves are files in the
-- binary (package problems), so problem_id is their name, not a key here.

CREATE TABLE problem_records (
	user_id    BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	problem_id TEXT NOT NULL,
	solved     INTEGER NOT NULL DEFAULT 0 CHECK (solved IN (0, 1)),
	attempts   INTEGER NOT NULL CHECK (attempts > 0),
	solved_at  TEXT,
	updated_at TEXT NOT NULL,
	PRIMARY KEY (user_id, problem_id)
);

CREATE TABLE problem_ratings (
	user_id BIGINT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
	rating  DOUBLE PRECISION NOT NULL,
	rated   INTEGER NOT NULL CHECK (rated >= 0)
);
