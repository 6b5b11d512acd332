-- What a game needs beyond its moves to continue exactly after a restart:
-- the clock, the dead-stone proposal of the scoring phase and the
-- resumptions of play (see tengen.PlayRecord). One row per game, written in
-- the same transaction as the move or state change it belongs to.

CREATE TABLE play_records (
	game_id        BIGINT PRIMARY KEY REFERENCES games (id),
	clock          TEXT NOT NULL,
	proposal_seq   INTEGER NOT NULL,
	dead           TEXT NOT NULL,
	accepted_black INTEGER NOT NULL,
	accepted_white INTEGER NOT NULL,
	resumptions    TEXT NOT NULL,
	updated_at     TEXT NOT NULL
);

-- The mover's clock after each move (clock package JSON), for SGF's BL/WL.
ALTER TABLE moves ADD COLUMN clock TEXT NOT NULL DEFAULT '';
