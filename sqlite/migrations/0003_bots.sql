-- Bot accounts: users whose moves the server plays (its own engine at a
-- level, or an external GTP engine). They cannot log in and do not accept
-- challenges; games against them start from the lobby's "Play the
-- computer" form.
ALTER TABLE users ADD COLUMN bot BOOLEAN NOT NULL DEFAULT FALSE;
