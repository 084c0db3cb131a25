-- Issue 52: players' data on request and how long finished games are kept.
--
-- A player who asked to be forgotten: their number N only (never their Discord id). Their
-- rows everywhere carry the user id 2^40 + N and the name 'former player N' instead.
CREATE TABLE forgotten (
    number       INTEGER PRIMARY KEY,
    forgotten_at REAL    NOT NULL
);

-- Days a server keeps its finished games (NULL: for ever), then the scheduler deletes them.
ALTER TABLE guild_settings ADD COLUMN keep_days INTEGER CHECK (keep_days IS NULL OR keep_days > 0);

-- When a finished game was deleted: its record (moves, seats, votes, timers, followers) is gone,
-- the row stays with the summary that statistics, ratings and league tables are made of.
ALTER TABLE games ADD COLUMN deleted_at REAL;
CREATE INDEX games_ended ON games (guild_id, ended_at) WHERE deleted_at IS NULL;
