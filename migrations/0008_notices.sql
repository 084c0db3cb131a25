-- The notices the scheduler owes players (turn starts, reminders), keyed by their deadline: a
-- notice is claimed here in the same transaction that marks its deadline done, and marked sent
-- once sent. A process that dies in between leaves it claimed; once the claim expires another
-- process sends it again with the same key, which Discord deduplicates (the message's nonce),
-- so a notice is never lost and never shown twice, whichever process is up.
CREATE TABLE notices (
    game_id       INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind          TEXT    NOT NULL CHECK (kind IN ('start', 'reminder')),
    turn          INTEGER NOT NULL,
    claimed_until REAL    NOT NULL,
    sent_at       REAL,
    PRIMARY KEY (game_id, kind, turn)
) WITHOUT ROWID;
CREATE INDEX notices_unsent ON notices (claimed_until) WHERE sent_at IS NULL;
