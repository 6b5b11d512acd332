-- Ratings and ranks (issue 16). Every user has a Glicko-2 rating (see
-- internal/rating), which the transaction that stores a rated game's result
-- updates for both players, writing one rating_history row per player; the
-- row's primary key (game_id, user_id) makes a second update for the same
-- game impossible. A bot's rating is an anchor that never moves
-- (rating_fixed); a bot without an anchor plays unrated games only.
--
-- New accounts start at 1500 ± 350 unless they declare a level at sign-up.
-- Existing games and challenges were played before ratings and stay unrated.

-- A rating has no lower bound (Glicko-2 ratings may even fall below 0, which
-- is still 30 kyu): a bound here could refuse the result of a game.
ALTER TABLE users ADD COLUMN rating DOUBLE PRECISION NOT NULL DEFAULT 1500;
ALTER TABLE users ADD COLUMN deviation DOUBLE PRECISION NOT NULL DEFAULT 350
	CONSTRAINT users_deviation CHECK (deviation > 0);
ALTER TABLE users ADD COLUMN volatility DOUBLE PRECISION NOT NULL DEFAULT 0.06
	CONSTRAINT users_volatility CHECK (volatility > 0);
ALTER TABLE users ADD COLUMN rating_fixed BOOLEAN NOT NULL DEFAULT FALSE;

ALTER TABLE challenges ADD COLUMN rated BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE games ADD COLUMN rated BOOLEAN NOT NULL DEFAULT FALSE;

-- One row per player of every rated game: the rating after the game and the
-- one before it, so that a profile can draw the rating over time and the
-- change of every game. Every page this table touches is a page more to
-- write (and, with synchronous=FULL, to sync) in the transaction that
-- finishes a game, so the table is one b-tree (WITHOUT ROWID, SQLite's; a
-- PostgreSQL backend leaves the clause out) keyed by game first: both rows
-- of a game, and the games that end one after another, go to the same page
-- at the tree's right edge. A player's history is found through the games
-- table's indexes on black_id and white_id, not an index of its own.
CREATE TABLE rating_history (
	game_id          BIGINT NOT NULL REFERENCES games (id),
	user_id          BIGINT NOT NULL REFERENCES users (id),
	rating           DOUBLE PRECISION NOT NULL,
	deviation        DOUBLE PRECISION NOT NULL,
	volatility       DOUBLE PRECISION NOT NULL,
	rating_before    DOUBLE PRECISION NOT NULL,
	deviation_before DOUBLE PRECISION NOT NULL,
	created_at       TEXT NOT NULL,
	PRIMARY KEY (game_id, user_id),
	CONSTRAINT rating_history_values CHECK (deviation > 0 AND volatility > 0)
) WITHOUT ROWID;
