-- The game room (issue 17). A user's board options (tengen.UserSettings,
-- NULL for the defaults) and vacation account (tengen.Vacation); the
-- correspondence comforts of a game's play record (the players' vacations
-- and the waiting player's conditional moves).
ALTER TABLE users ADD COLUMN board_settings JSONB;
ALTER TABLE users ADD COLUMN vacation JSONB NOT NULL DEFAULT '{}';
ALTER TABLE play_records ADD COLUMN comforts JSONB NOT NULL DEFAULT '{}';
-- A challenge may turn takeback off for its game
-- (tengen.GameSettings.NoTakeback).
ALTER TABLE challenges ADD COLUMN no_takeback BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE games ADD COLUMN no_takeback BOOLEAN NOT NULL DEFAULT FALSE;
