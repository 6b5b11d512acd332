-- The integrity guards of games, moves and play records as constraints, so
-- that the database itself refuses malformed values whoever writes them (the
-- rules of Go are package play's business, not the database's). Every
-- constraint has a name, which sqlite/errors.go maps to an application error.
--
-- SQLite cannot add constraints to a table, so the three tables are rebuilt:
-- create the new table, copy the rows, drop the old one, rename the new one
-- and recreate its indexes, all in this migration's transaction. Foreign keys
-- stay on (they cannot be switched off inside a transaction), so the order
-- matters: the new moves and play_records tables reference games_new, the old
-- children are dropped before the old games table, which then has no
-- children left, and renaming games_new to games rewrites the references of
-- its new children.
--
-- json_valid and GLOB are SQLite's; a PostgreSQL backend states the same
-- checks with IS JSON and ~.

CREATE TABLE games_new (
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
	updated_at         TEXT NOT NULL,
	CONSTRAINT games_status CHECK (status IN ('playing', 'scoring', 'finished')),
	CONSTRAINT games_to_move CHECK (to_move IN ('black', 'white')),
	CONSTRAINT games_move_count CHECK (move_count >= 0),
	CONSTRAINT games_result_finished CHECK ((status = 'finished') = (result <> '')),
	-- A result in SGF form (tengen.ValidateResult): a winner with R(esign),
	-- T(ime), F(orfeit), a score \d+(\.\d+)? or nothing; 0 or Draw; Void; ?.
	CONSTRAINT games_result_sgf CHECK (result IN ('', '0', 'Draw', 'Void', '?')
		OR result GLOB '[BW]+*' AND substr(result, 3) IN ('', 'R', 'Resign', 'T', 'Time', 'F', 'Forfeit')
		OR result GLOB '[BW]+[0-9]*' AND NOT result GLOB '[BW]+*[^0-9.]*' AND NOT result GLOB '*.*.*' AND NOT result GLOB '*.')
);

INSERT INTO games_new (id, challenge_id, black_id, white_id, board_size, ruleset, komi, handicap, free_handicap, color,
		tc_kind, tc_main_ms, tc_periods, tc_period_ms, tc_stones, tc_increment_ms, tc_max_ms, tc_days_per_move, tc_max_days,
		status, to_move, move_count, result, created_at, updated_at)
	SELECT id, challenge_id, black_id, white_id, board_size, ruleset, komi, handicap, free_handicap, color,
		tc_kind, tc_main_ms, tc_periods, tc_period_ms, tc_stones, tc_increment_ms, tc_max_ms, tc_days_per_move, tc_max_days,
		status, to_move, move_count, result, created_at, updated_at
	FROM games;

CREATE TABLE moves_new (
	game_id      BIGINT NOT NULL REFERENCES games_new (id),
	seq          INTEGER NOT NULL,
	color        TEXT NOT NULL,
	kind         TEXT NOT NULL,
	x            INTEGER NOT NULL,
	y            INTEGER NOT NULL,
	time_used_ms BIGINT NOT NULL,
	created_at   TEXT NOT NULL,
	clock        TEXT NOT NULL DEFAULT '',
	-- The sequence guard: one move per number and game.
	PRIMARY KEY (game_id, seq),
	CONSTRAINT moves_seq CHECK (seq >= 1),
	CONSTRAINT moves_color CHECK (color IN ('black', 'white')),
	CONSTRAINT moves_kind CHECK (kind IN ('play', 'pass', 'resign')),
	CONSTRAINT moves_point CHECK (x >= 0 AND y >= 0 AND (kind = 'play' OR x = 0 AND y = 0)),
	CONSTRAINT moves_time_used CHECK (time_used_ms >= 0),
	CONSTRAINT moves_clock CHECK (clock = '' OR json_valid(clock))
);

INSERT INTO moves_new (game_id, seq, color, kind, x, y, time_used_ms, created_at, clock)
	SELECT game_id, seq, color, kind, x, y, time_used_ms, created_at, clock FROM moves;

CREATE TABLE play_records_new (
	game_id        BIGINT PRIMARY KEY REFERENCES games_new (id),
	clock          TEXT NOT NULL,
	proposal_seq   INTEGER NOT NULL,
	dead           TEXT NOT NULL,
	accepted_black INTEGER NOT NULL,
	accepted_white INTEGER NOT NULL,
	resumptions    TEXT NOT NULL,
	updated_at     TEXT NOT NULL,
	CONSTRAINT play_records_clock CHECK (clock = '' OR json_valid(clock)),
	CONSTRAINT play_records_dead CHECK (json_valid(dead)),
	CONSTRAINT play_records_resumptions CHECK (json_valid(resumptions)),
	CONSTRAINT play_records_proposals CHECK (proposal_seq >= 0 AND accepted_black >= 0 AND accepted_white >= 0)
);

INSERT INTO play_records_new (game_id, clock, proposal_seq, dead, accepted_black, accepted_white, resumptions, updated_at)
	SELECT game_id, clock, proposal_seq, dead, accepted_black, accepted_white, resumptions, updated_at FROM play_records;

DROP TABLE moves;
DROP TABLE play_records;
DROP TABLE games;

ALTER TABLE games_new RENAME TO games;
ALTER TABLE moves_new RENAME TO moves;
ALTER TABLE play_records_new RENAME TO play_records;

CREATE INDEX games_black_id ON games (black_id, updated_at);
CREATE INDEX games_white_id ON games (white_id, updated_at);
CREATE INDEX games_status ON games (status, updated_at);
