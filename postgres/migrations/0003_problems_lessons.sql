-- Problems and lessons (issue 18), as sqlite/migrations/0007_problems.sql
-- and 0008_lessons.sql: which problems each user has tried and solved, the
-- user's problem rating, and how many steps of each lesson a logged-in
-- user has done. The problems themselves are files in the binary (package
-- problems), so problem_id is their name, not a key here.

CREATE TABLE problem_records (
	user_id    BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	problem_id TEXT NOT NULL,
	solved     BOOLEAN NOT NULL DEFAULT FALSE,
	attempts   INTEGER NOT NULL CHECK (attempts > 0),
	solved_at  TIMESTAMPTZ,
	updated_at TIMESTAMPTZ NOT NULL,
	PRIMARY KEY (user_id, problem_id)
);

CREATE TABLE problem_ratings (
	user_id BIGINT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
	rating  DOUBLE PRECISION NOT NULL,
	rated   INTEGER NOT NULL CHECK (rated >= 0)
);

-- Progress never goes back.
CREATE TABLE lesson_progress (
	user_id    BIGINT NOT NULL REFERENCES users (id),
	lesson     TEXT NOT NULL CHECK (length(lesson) BETWEEN 1 AND 40),
	steps      INTEGER NOT NULL CHECK (steps BETWEEN 0 AND 100),
	updated_at TIMESTAMPTZ NOT NULL,
	PRIMARY KEY (user_id, lesson)
);
