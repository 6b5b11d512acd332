-- The game room (issue 17). A user's board options (tengen.UserSettings,
-- '' for the defaults) and vacation account (tengen.Vacation) as JSON; the
-- correspondence comforts of a game's play record (the players' vacations
-- and the waiting player's conditional moves) as JSON.
ALTER TABLE users ADD COLUMN board_settings TEXT NOT NULL DEFAULT ''
	CONSTRAINT users_board_settings CHECK (board_settings = '' OR json_valid(board_settings));
ALTER TABLE users ADD COLUMN vacation TEXT NOT NULL DEFAULT '{}'
	CONSTRAINT users_vacation CHECK (json_valid(vacation));
ALTER TABLE play_records ADD COLUMN comforts TEXT NOT NULL DEFAULT '{}'
	CONSTRAINT play_records_comforts CHECK (json_valid(comforts));
-- A challenge may turn takeback off for its game
-- (tengen.GameSettings.NoTakeback).
ALTER TABLE challenges ADD COLUMN no_takeback BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE games ADD COLUMN no_takeback BOOLEAN NOT NULL DEFAULT FALSE;
