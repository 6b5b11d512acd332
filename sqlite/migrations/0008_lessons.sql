-- Lesson progress (issue 18): how many steps of each lesson a user has
-- done. Visitors keep theirs in the browser; this table holds the progress
-- of users who are logged in. Progress never goes back.

CREATE TABLE lesson_progress (
	user_id    BIGINT NOT NULL REFERENCES users (id),
	lesson     TEXT NOT NULL CHECK (length(lesson) BETWEEN 1 AND 40),
	steps      INTEGER NOT NULL CHECK (steps BETWEEN 0 AND 100),
	updated_at TEXT NOT NULL,
	PRIMARY KEY (user_id, lesson)
);
