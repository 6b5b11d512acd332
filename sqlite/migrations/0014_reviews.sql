-- Reviews (issue 19): game records kept for study, uploaded or taken from a
-- finished game, with their variations, comments and markup in canonical
-- SGF, the game information the library searches, and the chat of the
-- shared review board.

INSERT INTO id_sequences (name, last_id) VALUES ('reviews', 0);

CREATE TABLE reviews (
	id            BIGINT PRIMARY KEY,
	owner_id      BIGINT NOT NULL REFERENCES users (id),
	controller_id BIGINT NOT NULL REFERENCES users (id),
	game_id       BIGINT REFERENCES games (id),
	title         TEXT NOT NULL CHECK (length(title) <= 200),
	visibility    TEXT NOT NULL CHECK (visibility IN ('private', 'unlisted', 'public')),
	sgf           TEXT NOT NULL CHECK (length(sgf) > 0),
	black         TEXT NOT NULL,
	white         TEXT NOT NULL,
	black_rank    TEXT NOT NULL,
	white_rank    TEXT NOT NULL,
	date          TEXT NOT NULL,
	result        TEXT NOT NULL,
	event         TEXT NOT NULL,
	size          INTEGER NOT NULL,
	created_at    TEXT NOT NULL,
	updated_at    TEXT NOT NULL
);

CREATE INDEX reviews_owner ON reviews (owner_id, updated_at);
CREATE INDEX reviews_visibility ON reviews (visibility, updated_at);

CREATE TABLE review_chat (
	id         INTEGER PRIMARY KEY,
	review_id  BIGINT NOT NULL REFERENCES reviews (id) ON DELETE CASCADE,
	user_id    BIGINT NOT NULL REFERENCES users (id),
	text       TEXT NOT NULL CHECK (length(text) BETWEEN 1 AND 500),
	created_at TEXT NOT NULL
);

CREATE INDEX review_chat_review ON review_chat (review_id, id);
