-- A pending takeback request: the number of the move its mover asked to take
-- back, 0 for none (tengen.PlayRecord.TakebackSeq).
ALTER TABLE play_records ADD COLUMN takeback_seq INTEGER NOT NULL DEFAULT 0 CHECK (takeback_seq >= 0);
