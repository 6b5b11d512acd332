-- Tengen schema, version 1. Written in the common subset of SQLite and
-- PostgreSQL: ids come from id_sequences instead of AUTOINCREMENT/IDENTITY,
-- times are fixed-width UTC text (RFC 3339 with microseconds) that sorts in
-- time order, and flags are 0/1 integers.

CREATE TABLE id_sequences (
	name    TEXT PRIMARY KEY,
	last_id BIGINT NOT NULL
);

INSERT INTO id_sequences (name, last_id) VALUES ('users', 0);
INSERT INTO id_sequences (name, last_id) VALUES ('challenges', 0);
INSERT INTO id_sequences (name, last_id) VALUES ('games', 0);

CREATE TABLE users (
	id            BIGINT PRIMARY KEY,
	name          TEXT NOT NULL,
	name_key      TEXT NOT NULL UNIQUE,
	password_hash TEXT NOT NULL,
	language      TEXT NOT NULL DEFAULT '',
	created_at    TEXT NOT NULL,
	updated_at    TEXT NOT NULL
);

CREATE TABLE sessions (
	token_hash TEXT PRIMARY KEY,
	user_id    BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	created_at TEXT NOT NULL,
	expires_at TEXT NOT NULL
);

CREATE INDEX sessions_user_id ON sessions (user_id);
CREATE INDEX sessions_expires_at ON sessions (expires_at);

CREATE TABLE challenges (
	id                 BIGINT PRIMARY KEY,
	challenger_id      BIGINT NOT NULL REFERENCES users (id),
	opponent_id        BIGINT REFERENCES users (id),
	board_size         INTEGER NOT NULL,
	ruleset            TEXT NOT NULL,
	komi               DOUBLE PRECISION,
	handicap           INTEGER NOT NULL,
	free_handicap      INTEGER NOT NULL,
	color              TEXT NOT NULL,
	tc_kind            TEXT NOT NULL,
	tc_main_ms         BIGINT NOT NULL,
	tc_periods         INTEGER NOT NULL,
	tc_period_ms       BIGINT NOT NULL,
	tc_stones          INTEGER NOT NULL,
	tc_increment_ms    BIGINT NOT NULL,
	tc_max_ms          BIGINT NOT NULL,
	tc_days_per_move   INTEGER NOT NULL,
	tc_max_days        INTEGER NOT NULL,
	status             TEXT NOT NULL,
	game_id            BIGINT,
	created_at         TEXT NOT NULL,
	updated_at         TEXT NOT NULL
);

CREATE INDEX challenges_status ON challenges (status, created_at);
CREATE INDEX challenges_challenger_id ON challenges (challenger_id);
CREATE INDEX challenges_opponent_id ON challenges (opponent_id);

CREATE TABLE games (
	id                 BIGINT PRIMARY KEY,
	challenge_id       BIGINT REFERENCES challenges (id),
	black_id           BIGINT NOT NULL REFERENCES users (id),
	white_id           BIGINT NOT NULL REFERENCES users (id),
	board_size         INTEGER NOT NULL,
	ruleset            TEXT NOT NULL,
	komi               DOUBLE PRECISION,
	handicap           INTEGER NOT NULL,
	free_handicap      INTEGER NOT NULL,
	color              TEXT NOT NULL,
	tc_kind            TEXT NOT NULL,
	tc_main_ms         BIGINT NOT NULL,
	tc_periods         INTEGER NOT NULL,
	tc_period_ms       BIGINT NOT NULL,
	tc_stones          INTEGER NOT NULL,
	tc_increment_ms    BIGINT NOT NULL,
	tc_max_ms          BIGINT NOT NULL,
	tc_days_per_move   INTEGER NOT NULL,
	tc_max_days        INTEGER NOT NULL,
	status             TEXT NOT NULL,
	to_move            TEXT NOT NULL,
	move_count         INTEGER NOT NULL,
	result             TEXT NOT NULL,
	created_at         TEXT NOT NULL,
	updated_at         TEXT NOT NULL
);

CREATE INDEX games_black_id ON games (black_id, updated_at);
CREATE INDEX games_white_id ON games (white_id, updated_at);
CREATE INDEX games_status ON games (status, updated_at);

CREATE TABLE moves (
	game_id      BIGINT NOT NULL REFERENCES games (id),
	seq          INTEGER NOT NULL,
	color        TEXT NOT NULL,
	kind         TEXT NOT NULL,
	x            INTEGER NOT NULL,
	y            INTEGER NOT NULL,
	time_used_ms BIGINT NOT NULL,
	created_at   TEXT NOT NULL,
	PRIMARY KEY (game_id, seq)
);
