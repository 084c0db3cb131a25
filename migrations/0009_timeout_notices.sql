-- A timeout's announcement joins the notices outbox: it is claimed in the transaction that
-- saves the forced move and marked sent once posted, so a process that dies in between leaves
-- it owed and another process posts it (once) when the claim runs out.
-- SQLite cannot change a CHECK constraint: the table is rebuilt with the new kind.
CREATE TABLE notices_new (
    game_id       INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind          TEXT    NOT NULL CHECK (kind IN ('start', 'reminder', 'timeout')),
    turn          INTEGER NOT NULL,
    claimed_until REAL    NOT NULL,
    sent_at       REAL,
    PRIMARY KEY (game_id, kind, turn)
) WITHOUT ROWID;
INSERT INTO notices_new SELECT game_id, kind, turn, claimed_until, sent_at FROM notices;
DROP TABLE notices;
ALTER TABLE notices_new RENAME TO notices;
CREATE INDEX notices_unsent ON notices (claimed_until) WHERE sent_at IS NULL;
