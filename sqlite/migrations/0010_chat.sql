-- Chat (issue 17): the messages of each game's players' and spectators'
-- rooms and of the lobby, and who muted whom. A game message records the
-- number of moves the game had when it was said (for the SGF's C[]); an
-- admin's deletion only marks the message.

INSERT INTO id_sequences (name, last_id) VALUES ('chat_messages', 0);

CREATE TABLE chat_messages (
	id          BIGINT PRIMARY KEY,
	room        TEXT NOT NULL CHECK (room IN ('players', 'spectators', 'lobby')),
	game_id     BIGINT REFERENCES games (id),
	author_id   BIGINT NOT NULL REFERENCES users (id),
	text        TEXT NOT NULL CHECK (length(text) BETWEEN 1 AND 500),
	move_number INTEGER NOT NULL DEFAULT 0 CHECK (move_number >= 0),
	created_at  TEXT NOT NULL,
	deleted     INTEGER NOT NULL DEFAULT 0 CHECK (deleted IN (0, 1)),
	CHECK ((room = 'lobby') = (game_id IS NULL))
);

CREATE INDEX chat_messages_room ON chat_messages (game_id, room, id);

CREATE TABLE chat_mutes (
	muter_id   BIGINT NOT NULL REFERENCES users (id),
	muted_id   BIGINT NOT NULL REFERENCES users (id),
	created_at TEXT NOT NULL,
	PRIMARY KEY (muter_id, muted_id),
	CHECK (muter_id <> muted_id)
);

CREATE INDEX chat_mutes_muted ON chat_mutes (muted_id);
