-- The admin role and disabled accounts (issue 14). Admins list users,
-- disable accounts, cancel games and remove challenges; a disabled account
-- cannot log in. The first person to register becomes an admin; in a
-- database from before this migration that is the earliest account that is
-- not a bot, so that an upgraded server has the admin it would have had.

ALTER TABLE users ADD COLUMN admin BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE users ADD COLUMN disabled BOOLEAN NOT NULL DEFAULT FALSE;

UPDATE users SET admin = TRUE WHERE id = (SELECT MIN(id) FROM users WHERE bot = FALSE);
