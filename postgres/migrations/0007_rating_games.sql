-- Rating history in the games row, as in SQLite's 0011_rating_games.sql:
-- each side's rating after the game and before it, NULL for a side the game
-- did not rate. The finishing transaction writes them with the result and
-- updates the players' rows (postgres/rating.go, rateGame); the schemas of
-- both backends keep the history alike.

ALTER TABLE games
	ADD COLUMN black_rating DOUBLE PRECISION,
	ADD COLUMN black_deviation DOUBLE PRECISION,
	ADD COLUMN black_volatility DOUBLE PRECISION,
	ADD COLUMN black_rating_before DOUBLE PRECISION,
	ADD COLUMN black_deviation_before DOUBLE PRECISION,
	ADD COLUMN white_rating DOUBLE PRECISION,
	ADD COLUMN white_deviation DOUBLE PRECISION,
	ADD COLUMN white_volatility DOUBLE PRECISION,
	ADD COLUMN white_rating_before DOUBLE PRECISION,
	ADD COLUMN white_deviation_before DOUBLE PRECISION;

UPDATE games SET black_rating = h.rating, black_deviation = h.deviation, black_volatility = h.volatility,
	black_rating_before = h.rating_before, black_deviation_before = h.deviation_before
	FROM rating_history h WHERE h.game_id = games.id AND h.user_id = games.black_id;
UPDATE games SET white_rating = h.rating, white_deviation = h.deviation, white_volatility = h.volatility,
	white_rating_before = h.rating_before, white_deviation_before = h.deviation_before
	FROM rating_history h WHERE h.game_id = games.id AND h.user_id = games.white_id;
DROP TABLE rating_history;

-- A side's five columns are all set or all NULL, with a positive deviation
-- and volatility; only a finished rated game has ratings.
ALTER TABLE games
	ADD CONSTRAINT games_black_rating CHECK (black_rating IS NULL AND black_deviation IS NULL AND black_volatility IS NULL
			AND black_rating_before IS NULL AND black_deviation_before IS NULL
		OR black_rating IS NOT NULL AND black_deviation > 0 AND black_volatility > 0
			AND black_rating_before IS NOT NULL AND black_deviation_before > 0),
	ADD CONSTRAINT games_white_rating CHECK (white_rating IS NULL AND white_deviation IS NULL AND white_volatility IS NULL
			AND white_rating_before IS NULL AND white_deviation_before IS NULL
		OR white_rating IS NOT NULL AND white_deviation > 0 AND white_volatility > 0
			AND white_rating_before IS NOT NULL AND white_deviation_before > 0),
	ADD CONSTRAINT games_rating_finished CHECK (black_rating IS NULL AND white_rating IS NULL OR rated AND status = 'finished');
