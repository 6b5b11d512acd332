-- How a challenge's or game's handicap was chosen: '' by the challenger,
-- 'rank' from the players' ranks (tengen.GameSettings.HandicapBy).
ALTER TABLE challenges ADD COLUMN handicap_by TEXT NOT NULL DEFAULT '' CHECK (handicap_by IN ('', 'rank'));
ALTER TABLE games ADD COLUMN handicap_by TEXT NOT NULL DEFAULT '' CHECK (handicap_by IN ('', 'rank'));
