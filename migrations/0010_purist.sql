-- A purist game shows no help beyond the board: no tiles-left picture (/carcassonne tiles) and
-- no dead squares crossed out on its pictures. A display choice of the bot, not a rule: it
-- lives in the game row, never in the engine's setup or the game's record.
ALTER TABLE games ADD COLUMN purist INTEGER NOT NULL DEFAULT 0 CHECK (purist IN (0, 1));
