-- Rating history in the games row (issue 16, the rating's cost). Finishing a
-- rated game wrote two more statements than finishing an unrated one: the
-- players' rows and two rating_history rows, 13-15 % more time per finish
-- (docs/PERFORMANCE.md). Now the game's own row, which the finishing statement writes anyway,
-- keeps each player's rating after the game and before it, and a trigger in
-- that same statement copies the new ratings into users. Result, history and
-- ratings still commit together or not at all.
--
-- A side's columns are NULL when the game did not rate that player: unrated
-- games, void results, and the anchored bot of a rated game.

-- A side's five columns are all set or all NULL, with a positive deviation
-- and volatility (CHECK constraints of the last column of each side, which
-- SQLite evaluates only when a statement sets one of the columns they name).
ALTER TABLE games ADD COLUMN black_rating DOUBLE PRECISION;
ALTER TABLE games ADD COLUMN black_deviation DOUBLE PRECISION;
ALTER TABLE games ADD COLUMN black_volatility DOUBLE PRECISION;
ALTER TABLE games ADD COLUMN black_rating_before DOUBLE PRECISION;
ALTER TABLE games ADD COLUMN black_deviation_before DOUBLE PRECISION
	CONSTRAINT games_black_rating CHECK (black_rating IS NULL AND black_deviation IS NULL AND black_volatility IS NULL
			AND black_rating_before IS NULL AND black_deviation_before IS NULL
		OR black_rating IS NOT NULL AND black_deviation > 0 AND black_volatility > 0
			AND black_rating_before IS NOT NULL AND black_deviation_before > 0);
ALTER TABLE games ADD COLUMN white_rating DOUBLE PRECISION;
ALTER TABLE games ADD COLUMN white_deviation DOUBLE PRECISION;
ALTER TABLE games ADD COLUMN white_volatility DOUBLE PRECISION;
ALTER TABLE games ADD COLUMN white_rating_before DOUBLE PRECISION;
ALTER TABLE games ADD COLUMN white_deviation_before DOUBLE PRECISION
	CONSTRAINT games_white_rating CHECK (white_rating IS NULL AND white_deviation IS NULL AND white_volatility IS NULL
			AND white_rating_before IS NULL AND white_deviation_before IS NULL
		OR white_rating IS NOT NULL AND white_deviation > 0 AND white_volatility > 0
			AND white_rating_before IS NOT NULL AND white_deviation_before > 0);

UPDATE games SET black_rating = h.rating, black_deviation = h.deviation, black_volatility = h.volatility,
	black_rating_before = h.rating_before, black_deviation_before = h.deviation_before
	FROM rating_history h WHERE h.game_id = games.id AND h.user_id = games.black_id;
UPDATE games SET white_rating = h.rating, white_deviation = h.deviation, white_volatility = h.volatility,
	white_rating_before = h.rating_before, white_deviation_before = h.deviation_before
	FROM rating_history h WHERE h.game_id = games.id AND h.user_id = games.white_id;
DROP TABLE rating_history;

-- The players' current ratings follow the game's, in the statement that
-- stores the result. The same trigger guards the columns: only a finished
-- rated game has ratings, and they are set once (the finishing statement
-- sets them with the result; no later statement may change them). One
-- trigger, not two: each costs its own run per finished game.
CREATE TRIGGER games_rating AFTER UPDATE OF black_rating, white_rating ON games
BEGIN
	SELECT RAISE(ABORT, 'CHECK constraint failed: games_rating_once')
		WHERE OLD.black_rating IS NOT NULL OR OLD.white_rating IS NOT NULL
			OR (NEW.black_rating IS NOT NULL OR NEW.white_rating IS NOT NULL) AND NOT (NEW.rated AND NEW.status = 'finished');
	UPDATE users SET rating = NEW.black_rating, deviation = NEW.black_deviation, volatility = NEW.black_volatility
		WHERE id = NEW.black_id AND NEW.black_rating IS NOT NULL;
	UPDATE users SET rating = NEW.white_rating, deviation = NEW.white_deviation, volatility = NEW.white_volatility
		WHERE id = NEW.white_id AND NEW.white_rating IS NOT NULL;
END;
