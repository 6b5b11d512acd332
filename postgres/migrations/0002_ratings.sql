-- Ratings and ranks (issue 16), as sqlite/migrations/0006_ratings.sql: every
-- user has a Glicko-2 rating, which the transaction that stores a rated
-- game's result updates for both players, writing one rating_history row
-- per player; its primary key (game_id, user_id) makes a second update for
-- the same game impossible. A bot's rating is an anchor that never moves
-- (rating_fixed). A rating has no lower bound: a bound could refuse the
-- result of a game.

ALTER TABLE users ADD COLUMN rating DOUBLE PRECISION NOT NULL DEFAULT 1500;
ALTER TABLE users ADD COLUMN deviation DOUBLE PRECISION NOT NULL DEFAULT 350
	CONSTRAINT users_deviation CHECK (deviation > 0);
ALTER TABLE users ADD COLUMN volatility DOUBLE PRECISION NOT NULL DEFAULT 0.06
	CONSTRAINT users_volatility CHECK (volatility > 0);
ALTER TABLE users ADD COLUMN rating_fixed BOOLEAN NOT NULL DEFAULT FALSE;

ALTER TABLE challenges ADD COLUMN rated BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE games ADD COLUMN rated BOOLEAN NOT NULL DEFAULT FALSE;

-- A player's history is found through the games table's indexes on
-- black_id and white_id.
CREATE TABLE rating_history (
	game_id          BIGINT NOT NULL REFERENCES games (id),
	user_id          BIGINT NOT NULL REFERENCES users (id),
	rating           DOUBLE PRECISION NOT NULL,
	deviation        DOUBLE PRECISION NOT NULL,
	volatility       DOUBLE PRECISION NOT NULL,
	rating_before    DOUBLE PRECISION NOT NULL,
	deviation_before DOUBLE PRECISION NOT NULL,
	created_at       TIMESTAMPTZ NOT NULL,
	PRIMARY KEY (game_id, user_id),
	CONSTRAINT rating_history_values CHECK (deviation > 0 AND volatility > 0)
);
